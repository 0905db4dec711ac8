/* Writers that keep no descriptor open and share a memory budget
 * (OrcWriterGroup): many files written at once stay within the budget and
 * within a few open files, and every file reads back whole, with one
 * stripe per budget flush and statistics that add up. */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>

#include "common/alloc.h"
#include "orc/orc.h"
#include "orc_test.h"

#define G_FILES 48
#define G_BATCHES 40
#define G_ROWS 50          /* rows per batch */
#define G_BUDGET (96u << 10)

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static CombType *group_schema(CombArena *a)
{
    CombType *root = comb_type_new(a, COMB_T_STRUCT);
    comb_type_add_field(a, root, "id", comb_type_new(a, COMB_T_BIGINT));
    comb_type_add_field(a, root, "s", comb_type_new(a, COMB_T_STRING));
    comb_type_assign_ids(root);
    return root;
}

/* Row i of file f: id f*1e6+i, s "v<i>" (NULL every 9th row). */
static void fill(CombBatch *b, int f, int first, char *text)
{
    comb_batch_reset(b);
    comb_vec_nulls_materialize(&b->cols[1], G_ROWS);
    for (int r = 0; r < G_ROWS; r++) {
        int i = first + r, len;
        b->cols[0].i64[r] = (int64_t)f * 1000000 + i;
        if (i % 9 == 0) {
            comb_vec_set_null(&b->cols[1], r);
            continue;
        }
        len = snprintf(text + r * 16, 16, "v%d", i);
        comb_vec_set_not_null(&b->cols[1], r);
        b->cols[1].str[r] = (CombStr){text + r * 16, (uint32_t)len};
    }
    b->n_rows = G_ROWS;
}

static int count_stripe(void *ctx, uint64_t rows, CombErr *err)
{
    (void)err;
    ((uint64_t *)ctx)[0]++;
    ((uint64_t *)ctx)[1] += rows;
    return COMB_OK;
}

/* Read back file f: every row in order, stripes as counted. */
static void check_file(const char *path, int f, uint64_t stripes)
{
    OrcReader *r;
    CombBatch b;
    CombErr err;
    OrcColumnStats cs;
    int64_t i = 0;
    CHECK_OK(orc_test_reader_open(path, 1024, &r, &b, &err), &err);
    CHECK_EQ(orc_reader_n_stripes(r), (int)stripes);
    CHECK_EQ(orc_reader_n_rows(r), G_BATCHES * G_ROWS);
    CHECK_EQ(orc_reader_column_stats(r, 1, &cs), COMB_OK);
    CHECK_EQ(cs.n_values, G_BATCHES * G_ROWS);
    CHECK_EQ(cs.int_min, (int64_t)f * 1000000);
    CHECK_EQ(cs.int_max, (int64_t)f * 1000000 + G_BATCHES * G_ROWS - 1);
    /* the last stripe's statistics are the last stripe's rows only */
    CHECK_OK(orc_reader_stripe_stats(r, (int)stripes - 1, 1, &cs, &err),
             &err);
    CHECK_EQ(cs.int_max, (int64_t)f * 1000000 + G_BATCHES * G_ROWS - 1);
    for (;;) {
        CHECK_OK(orc_reader_next(r, &b, &err), &err);
        if (b.n_rows == 0)
            break;
        for (int k = 0; k < b.n_rows; k++, i++) {
            CHECK_EQ(b.cols[0].i64[k], (int64_t)f * 1000000 + i);
            CHECK_EQ(comb_vec_is_null(&b.cols[1], k), i % 9 == 0);
        }
    }
    CHECK_EQ(i, G_BATCHES * G_ROWS);
    comb_batch_free(&b);
    orc_reader_close(r);
}

TEST(orc_group_keeps_budget_and_no_descriptors)
{
    CombArena a;
    CombErr err;
    OrcWriterGroup *g;
    OrcWriter *w[G_FILES];
    OrcWriterOptions opt;
    CombBatch b;
    uint64_t counts[G_FILES][2];
    char path[G_FILES][ORC_TEST_PATH_LEN], text[G_ROWS * 16];
    int fds_before;
    comb_arena_init(&a, 0);
    CombType *schema = group_schema(&a);
    CHECK_OK(orc_writer_group_new(G_BUDGET, &g, &err), &err);
    CHECK_EQ(orc_test_batch_init(schema, &b, G_ROWS), 0);
    memset(counts, 0, sizeof counts);
    fds_before = open_fds();
    for (int f = 0; f < G_FILES; f++) {
        orc_writer_options_default(&opt);
        opt.group = g;
        opt.on_stripe = count_stripe;
        opt.ctx = counts[f];
        snprintf(path[f], ORC_TEST_PATH_LEN, "%s/f%d.orc", unit_tmpdir(), f);
        CHECK_OK(orc_writer_open(path[f], schema, &opt, &w[f], &err), &err);
    }
    /* round robin, as rows of many buckets arrive */
    for (int batch = 0; batch < G_BATCHES; batch++)
        for (int f = 0; f < G_FILES; f++) {
            fill(&b, f, batch * G_ROWS, text);
            CHECK_OK(orc_writer_write(w[f], &b, &err), &err);
            CHECK(orc_writer_group_bytes(g) <= G_BUDGET);
            CHECK_EQ(open_fds(), fds_before);
        }
    /* the budget forced stripes out early (one file would hold all rows
     * in one stripe), and a stripe may not be empty */
    for (int f = 0; f < G_FILES; f++)
        CHECK(counts[f][0] > 1);
    for (int f = 0; f < G_FILES; f++)
        CHECK_OK(orc_writer_close(w[f], &err), &err);
    CHECK_EQ(orc_writer_group_bytes(g), 0);
    CHECK_EQ(open_fds(), fds_before);
    for (int f = 0; f < G_FILES; f++) {
        CHECK_EQ(counts[f][1], G_BATCHES * G_ROWS);
        check_file(path[f], f, counts[f][0]);
        CHECK(!unit_failed_now());
    }
    comb_batch_free(&b);
    orc_writer_group_free(g);
    comb_arena_free(&a);
}

TEST(orc_group_refuses_bad_setup)
{
    CombArena a;
    CombErr err;
    OrcWriterGroup *g;
    OrcWriter *w1, *w2;
    OrcWriterOptions opt;
    char path[ORC_TEST_PATH_LEN];
    comb_arena_init(&a, 0);
    CombType *schema = group_schema(&a);
    CHECK_EQ(orc_writer_group_new(0, &g, &err), COMB_EINVALID);
    CHECK_OK(orc_writer_group_new(1 << 20, &g, &err), &err);
    orc_writer_options_default(&opt);
    opt.group = g;
    snprintf(path, sizeof path, "%s/a.orc", unit_tmpdir());
    CHECK_OK(orc_writer_open(path, schema, &opt, &w1, &err), &err);
    opt.compression = ORC_COMP_ZSTD;
    snprintf(path, sizeof path, "%s/b.orc", unit_tmpdir());
    CHECK_EQ(orc_writer_open(path, schema, &opt, &w2, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "ZSTD compression in a group of ZLIB") != NULL);
    /* the refused writer left no file */
    CHECK_EQ(orc_test_file_size(path), -1);
    orc_writer_abort(w1);
    orc_writer_group_free(g);
    comb_arena_free(&a);
}
