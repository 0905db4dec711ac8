/*
 * flush_length.c - the `_flush_length` side files of streaming deltas
 * (hive-acid-storage.md §1.7): a growing bucket file's committed lengths,
 * 8-byte big-endian longs appended one per commit, and opening a data file
 * at the length its side file last committed.
 */
#include "acid/acid_int.h"

#include <string.h>

#include "common/alloc.h"
#include "fs/fs.h"

#define SIDE_SUFFIX "_flush_length"

char *acid_flush_length_path(CombArena *a, const char *data_path)
{
    size_t n = strlen(data_path);
    char *p = comb_arena_alloc(a, n + sizeof SIDE_SUFFIX);
    if (p) {
        memcpy(p, data_path, n);
        memcpy(p + n, SIDE_SUFFIX, sizeof SIDE_SUFFIX);
    }
    return p;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

int acid_flush_length_append(const char *side_path, uint64_t length,
                             bool create, CombErr *err)
{
    uint8_t bytes[8];
    put_be64(bytes, length);
    if (create) /* written whole and fsynced */
        return fs_write_file(side_path, bytes, sizeof bytes, err);
    FsFile *fd = fs_open_append(side_path, err);
    int rc;
    if (!fd)
        return err->code;
    rc = fs_write_all(fd, bytes, sizeof bytes, err);
    if (rc) {
        fs_discard(fd);
        return rc;
    }
    return fs_sync_close(fd, err);
}

int acid_flush_length_read(const char *data_path, bool *have,
                           uint64_t *length, CombErr *err)
{
    CombArena a;
    unsigned char *bytes = NULL;
    size_t n = 0;
    int rc = COMB_OK;
    FsKind kind = FS_ABSENT;
    *have = false;
    *length = 0;
    comb_arena_init(&a, 256);
    char *side = acid_flush_length_path(&a, data_path);
    if (!side) {
        rc = comb_err_nomem(err);
    } else if (!(rc = fs_probe(side, &kind, err)) && kind != FS_ABSENT) {
        rc = fs_read_file(side, &a, &bytes, &n, err);
        /* the writer's last commit removed it meanwhile: the file is whole */
        if (rc && !fs_exists(side)) {
            comb_arena_free(&a);
            comb_err_clear(err);
            return COMB_OK;
        }
        /* the last complete long: a commit's append may be under way */
        if (!rc && n < 8)
            rc = comb_err(err, COMB_ECORRUPT,
                          "corrupt file '%s': side file holds no length "
                          "(%zu bytes)", side, n);
        if (!rc) {
            *length = get_be64(bytes + (n / 8 - 1) * 8);
            *have = true;
        }
    }
    comb_arena_free(&a);
    return rc;
}

int acid_data_file_open_listed(const char *path, bool side_listed,
                               OrcReadPool *pool, OrcReader **out,
                               CombErr *err)
{
    bool have = false;
    uint64_t length = 0;
    int rc = side_listed ? acid_flush_length_read(path, &have, &length, err)
                         : COMB_OK;
    *out = NULL;
    if (rc)
        return rc;
    if (have && length == 0)
        return COMB_OK; /* created, nothing committed yet */
    return orc_reader_open_pool(path, have ? length : ORC_WHOLE_FILE, pool,
                                out, err);
}

int acid_data_file_open(const char *path, OrcReader **out, CombErr *err)
{
    return acid_data_file_open_listed(path, true, NULL, out, err);
}
