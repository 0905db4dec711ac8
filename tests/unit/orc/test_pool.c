/* OrcReadPool: readers opened one after another with one pool (files of
 * other schemas, column counts, codecs and sizes in turn, a large file
 * whose tail is not the whole file, a reader closed before its first
 * read) read exactly what readers without a pool read. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "orc/orc.h"
#include "orc_test.h"

static void fill_longs(void *ctx, const CombType *root, CombBatch *b)
{
    (void)ctx;
    (void)root;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].i64[i] = (int64_t)i * 7919 - 12345;
}

/* Values RLE cannot fold into runs: stripes of many bytes. */
static void fill_scattered(void *ctx, const CombType *root, CombBatch *b)
{
    (void)ctx;
    (void)root;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].i64[i] = (int64_t)(((uint64_t)i * 2654435761u) % 1000003);
}

static void fill_strings(void *ctx, const CombType *root, CombBatch *b)
{
    static char text[4096][16];
    (void)ctx;
    (void)root;
    for (int i = 0; i < b->n_rows; i++) {
        int k = (i * 37) % 4096;
        snprintf(text[k], sizeof text[k], "s%d", k);
        b->cols[0].str[i] = (CombStr){text[k], strlen(text[k])};
    }
}

/* A checksum of every value of the file (its one column). */
static int file_sum(const char *path, OrcReadPool *pool, uint64_t *sum,
                    CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    int rc = orc_reader_open_pool(path, ORC_WHOLE_FILE, pool, &r, err);
    *sum = 0;
    if (rc)
        return rc;
    if (orc_reader_batch_init(r, &b, 1024)) {
        orc_reader_close(r);
        return COMB_ENOMEM;
    }
    while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++) {
            const CombVector *v = &b.cols[0];
            if (v->kind == COMB_T_STRING)
                for (size_t k = 0; k < v->str[i].len; k++)
                    *sum = *sum * 31 + (uint8_t)v->str[i].ptr[k];
            else
                *sum = *sum * 31 + (uint64_t)v->i64[i];
        }
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc;
}

TEST(pool_readers_in_turn_read_as_without)
{
    OrcWriterOptions zlib, zstd;
    char paths[4][ORC_TEST_PATH_LEN];
    uint64_t want[4], got;
    OrcReadPool *pool = orc_read_pool_new();
    OrcReader *unread;
    CombErr err;
    CHECK(pool != NULL);
    orc_writer_options_default(&zlib);
    orc_writer_options_default(&zstd);
    zstd.compression = ORC_COMP_ZSTD;
    CHECK_OK(orc_test_write_column("a.orc", "n", COMB_T_BIGINT, &zlib, 1000,
                                   fill_longs, NULL, paths[0], &err),
             &err);
    CHECK_OK(orc_test_write_column("b.orc", "s", COMB_T_STRING, &zstd, 3000,
                                   fill_strings, NULL, paths[1], &err),
             &err);
    /* larger than the tail read at open: its stripe is read from disk */
    CHECK_OK(orc_test_write_column("c.orc", "s", COMB_T_STRING, &zlib, 60000,
                                   fill_strings, NULL, paths[2], &err),
             &err);
    CHECK_OK(orc_test_write_column("d.orc", "n", COMB_T_BIGINT, &zlib, 0,
                                   fill_longs, NULL, paths[3], &err),
             &err);
    for (int f = 0; f < 4; f++)
        CHECK_OK(file_sum(paths[f], NULL, &want[f], &err), &err);
    CHECK(want[0] != 0 && want[1] != 0 && want[2] != 0 && want[3] == 0);
    for (int round = 0; round < 3; round++)
        for (int f = 0; f < 4; f++) {
            CHECK_OK(file_sum(paths[(f + round) % 4], pool, &got, &err),
                     &err);
            CHECK(got == want[(f + round) % 4]);
        }
    /* closed unread: what it took goes back, the next reads as before */
    CHECK_OK(orc_reader_open_pool(paths[2], ORC_WHOLE_FILE, pool, &unread,
                                  &err),
             &err);
    orc_reader_close(unread);
    CHECK_OK(file_sum(paths[1], pool, &got, &err), &err);
    CHECK(got == want[1]);
    orc_read_pool_free(pool);
}

/* A one-column file of n stripes of 1000 scattered BIGINTs, no NULLs. */
static int write_stripes(char *path, int n, CombErr *err)
{
    CombArena a;
    OrcWriterOptions opt;
    OrcWriter *w;
    CombBatch b;
    comb_arena_init(&a, 1024);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "n", comb_type_new(&a, COMB_T_BIGINT));
    orc_writer_options_default(&opt);
    opt.stripe_size = 1024; /* each batch flushes a stripe */
    int rc = orc_test_writer_open("m.orc", root, &opt, 1000, path, &w, &b,
                                  err);
    if (rc == COMB_OK) {
        for (int k = 0; !rc && k < n; k++) {
            b.n_rows = 1000;
            fill_scattered(NULL, root, &b);
            rc = orc_writer_write(w, &b, err);
        }
        comb_batch_free(&b);
        rc = rc ? (orc_writer_abort(w), rc) : orc_writer_close(w, err);
    }
    comb_arena_free(&a);
    return rc;
}

/* A column without NULLs has no PRESENT stream: its idle slot (and the
 * struct root's) must not hold pooled buffers stripe after stripe, or each
 * stripe footer's read finds the pool empty and allocates another 256 KiB
 * chunk buffer.  The heap peak of a read with a fresh pool (the pool
 * counted) is that of a read without one, give or take one buffer. */
TEST(pool_many_stripes_peak_as_without)
{
    char path[ORC_TEST_PATH_LEN];
    uint64_t want, got;
    OrcReader *r;
    CombErr err;
    CHECK_OK(write_stripes(path, 20, &err), &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    int stripes = orc_reader_n_stripes(r);
    orc_reader_close(r);
    CHECK(stripes >= 8);
    comb_alloc_peak_reset();
    int64_t base = comb_alloc_live_bytes();
    CHECK_OK(file_sum(path, NULL, &want, &err), &err);
    int64_t bare = comb_alloc_peak_bytes() - base;
    comb_alloc_peak_reset();
    OrcReadPool *pool = orc_read_pool_new();
    CHECK(pool != NULL);
    CHECK_OK(file_sum(path, pool, &got, &err), &err);
    int64_t pooled = comb_alloc_peak_bytes() - base;
    CHECK(got == want);
    /* one spare chunk buffer (the message reads' one) and the pool
     * itself; idle slots hoarding made it 1 MiB more */
    CHECK(pooled <= bare + 320 * 1024);
    orc_read_pool_free(pool);
}

/* The pool lends the schema of a file opened before to readers of files
 * with the same types (one tree, not one per file), and builds another
 * only while no open reader borrows it: readers open at once over files
 * of two schemas each keep their own, and every file reads as without a
 * pool. */
TEST(pool_lends_schema_of_same_types)
{
    char longs[2][ORC_TEST_PATH_LEN], strings[ORC_TEST_PATH_LEN];
    OrcWriterOptions opt;
    OrcReadPool *pool = orc_read_pool_new();
    OrcReader *a, *b, *c, *d;
    uint64_t want, got;
    CombErr err;
    CHECK(pool != NULL);
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_write_column("l1.orc", "n", COMB_T_BIGINT, &opt, 100,
                                   fill_longs, NULL, longs[0], &err),
             &err);
    CHECK_OK(orc_test_write_column("l2.orc", "n", COMB_T_BIGINT, &opt, 5000,
                                   fill_scattered, NULL, longs[1], &err),
             &err);
    CHECK_OK(orc_test_write_column("s.orc", "s", COMB_T_STRING, &opt, 100,
                                   fill_strings, NULL, strings, &err),
             &err);
    CHECK_OK(orc_reader_open_pool(longs[0], ORC_WHOLE_FILE, pool, &a, &err),
             &err);
    CHECK_OK(orc_reader_open_pool(longs[1], ORC_WHOLE_FILE, pool, &b, &err),
             &err);
    /* the same types: one tree */
    CHECK(orc_reader_schema(a) == orc_reader_schema(b));
    /* other types while the pool's is borrowed: the reader's own */
    CHECK_OK(orc_reader_open_pool(strings, ORC_WHOLE_FILE, pool, &c, &err),
             &err);
    CHECK(orc_reader_schema(c) != orc_reader_schema(a));
    CHECK_EQ(orc_reader_schema(c)->children[0]->kind, COMB_T_STRING);
    CHECK_EQ(orc_reader_schema(a)->children[0]->kind, COMB_T_BIGINT);
    orc_reader_close(a);
    orc_reader_close(b);
    orc_reader_close(c);
    /* no borrower left: the pool's schema becomes the strings' */
    CHECK_OK(orc_reader_open_pool(strings, ORC_WHOLE_FILE, pool, &c, &err),
             &err);
    CHECK_OK(orc_reader_open_pool(strings, ORC_WHOLE_FILE, pool, &d, &err),
             &err);
    CHECK(orc_reader_schema(c) == orc_reader_schema(d));
    CHECK_EQ(orc_reader_schema(d)->children[0]->kind, COMB_T_STRING);
    orc_reader_close(c);
    orc_reader_close(d);
    for (int round = 0; round < 2; round++)
        for (int f = 0; f < 3; f++) {
            const char *path = f < 2 ? longs[f] : strings;
            CHECK_OK(file_sum(path, NULL, &want, &err), &err);
            CHECK_OK(file_sum(path, pool, &got, &err), &err);
            CHECK(got == want);
        }
    orc_read_pool_free(pool);
}
