/*
 * fuzz_orc_read.c - the ORC reader on arbitrary file bytes: open, read
 * every row of every column and dump it; errors are fine, crashes, hangs,
 * over-reads and leaks are not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/batch.h"
#include "fs/fs.h"
#include "orc/orc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const char *path)
{
    OrcReader *r;
    CombBatch b;
    CombErr err;
    if (orc_reader_open(path, &r, &err))
        return;
    if (orc_reader_batch_init(r, &b, 256) == COMB_OK) {
        for (int guard = 0; guard < 100000; guard++) {
            if (orc_reader_next(r, &b, &err) || b.n_rows == 0)
                break;
        }
        comb_batch_free(&b);
    }
    orc_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    CombErr err;
    FILE *devnull;
    int fd;
    snprintf(path, sizeof path, "/tmp/comb-fuzz-orc-%d.orc", (int)getpid());
    fd = fs_create(path, &err);
    if (fd < 0)
        return 0;
    if (fs_write_all(fd, data, size, path, &err) == COMB_OK) {
        close(fd);
        read_all(path);
        devnull = fopen("/dev/null", "w");
        if (devnull) {
            orc_dump(path, ORC_DUMP_META, devnull, &err);
            orc_dump(path, ORC_DUMP_ROWS, devnull, &err);
            orc_dump(path, ORC_DUMP_CONTENTS, devnull, &err);
            fclose(devnull);
        }
    } else {
        close(fd);
    }
    unlink(path);
    return 0;
}
