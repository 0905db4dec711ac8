/*
 * fuzz_orc_read.c - the ORC reader on arbitrary file bytes: open, read
 * every row of every column and dump it; read each stripe's row index and
 * bloom filters and test them, and scan again keeping every other row
 * group (seeks to the index's positions); errors are fine, crashes,
 * hangs, over-reads and leaks are not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/batch.h"
#include "fs/fs.h"
#include "orc/orc.h"

/* Every statistic and filter of every group of every stripe. */
static void probe_indexes(OrcReader *r)
{
    CombErr err;
    for (int s = 0; s < orc_reader_n_stripes(r) && s < 64; s++) {
        const OrcStripeIndex *x;
        if (orc_reader_stripe_index(r, s, NULL, true, &x, &err))
            return;
        uint32_t n = orc_stripe_index_groups(x);
        for (int c = 0; c < orc_reader_n_columns(r); c++)
            for (uint32_t g = 0; g < n && g < 4096; g++) {
                OrcColumnStats st;
                const OrcBloom *b = orc_stripe_index_bloom(x, c, (int)g);
                orc_stripe_index_stats(x, c, (int)g, &st);
                if (b) {
                    orc_bloom_might_contain_long(b, (int64_t)g);
                    orc_bloom_might_contain_double(b, 1.5);
                    orc_bloom_might_contain_string(b, "abc", 3);
                }
            }
    }
}

static int every_other(void *ctx, OrcReader *r, int stripe, uint32_t n,
                       uint8_t *keep, CombErr *err)
{
    (void)ctx;
    (void)r;
    (void)err;
    for (uint32_t g = 0; g < n; g++)
        keep[g] = (uint8_t)((g + (uint32_t)stripe) % 2);
    return COMB_OK;
}

static void read_skipping(const char *path)
{
    OrcReader *r;
    CombBatch b;
    CombErr err;
    if (orc_reader_open(path, &r, &err))
        return;
    probe_indexes(r);
    orc_reader_set_filter(r, every_other, NULL);
    if (orc_reader_batch_init(r, &b, 256) == COMB_OK) {
        for (int guard = 0; guard < 100000; guard++)
            if (orc_reader_next(r, &b, &err) || b.n_rows == 0)
                break;
        comb_batch_free(&b);
    }
    orc_reader_close(r);
}

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
    FsFile *f;
    snprintf(path, sizeof path, "/tmp/comb-fuzz-orc-%d.orc", (int)getpid());
    if (!(f = fs_create(path, &err)))
        return 0;
    if (fs_write_all(f, data, size, &err) == COMB_OK) {
        fs_discard(f);
        read_all(path);
        read_skipping(path);
        devnull = fopen("/dev/null", "w");
        if (devnull) {
            OrcDumpOptions opt = {.rowindex_all = true};
            orc_dump_metadata(path, &opt, devnull, &err);
            orc_dump(path, ORC_DUMP_META, devnull, &err);
            orc_dump(path, ORC_DUMP_ROWS, devnull, &err);
            orc_dump(path, ORC_DUMP_CONTENTS, devnull, &err);
            fclose(devnull);
        }
    } else {
        fs_discard(f);
    }
    unlink(path);
    return 0;
}
