/*
 * Search arguments (orc/sarg.h): the evaluator's answers on hand-made
 * statistics where doubt must keep a group (NaN, missing statistics,
 * writer versions, timestamps in local time, CHAR padding, decimals of
 * other scales, struct fields without entries, NOT over a sure answer),
 * the printed form, and push-down through the reader counted: a million
 * sorted ids read one stripe and one row group for `id = 42`, a bloom
 * filtered string equality on unsorted values skips at least 90% of the
 * row groups, and a leaf on a column the file lacks skips nothing.
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "orc/orc.h"
#include "orc/sarg.h"
#include "orc_test.h"

static OrcSargLeaf leaf1(OrcSargOp op, OrcSargType t, OrcSargValue *v)
{
    OrcSargLeaf l;
    memset(&l, 0, sizeof l);
    l.op = op;
    l.type = t;
    l.name = "x";
    l.n_values = op == ORC_SARG_IS_NULL ? 0 : 1;
    l.values = v;
    return l;
}

static OrcSargColumn column(CombTypeKind kind, const OrcColumnStats *st,
                            uint64_t rows)
{
    OrcSargColumn c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.stats = st;
    c.n_rows = rows;
    c.writer_version = 6;
    return c;
}

static OrcColumnStats int_stats(int64_t lo, int64_t hi, uint64_t n, bool nulls)
{
    OrcColumnStats st;
    memset(&st, 0, sizeof st);
    st.n_values = n;
    st.has_null = nulls;
    st.has_int = true;
    st.int_min = lo;
    st.int_max = hi;
    return st;
}

TEST(sarg_integer_ranges)
{
    OrcSargValue v = {.i = 42};
    OrcColumnStats st = int_stats(0, 9, 10, false);
    OrcSargColumn c = column(COMB_T_BIGINT, &st, 10);
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_LONG, &v);
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    v.i = 5;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    l.op = ORC_SARG_LT;
    v.i = 0;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    v.i = 10;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES);
    st.has_null = true;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NULL);
    l.op = ORC_SARG_NSEQ;
    v.i = 42;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    l.op = ORC_SARG_IS_NULL;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* a struct field without entries where its struct is NULL: fewer
     * values than rows are NULLs whatever hasNull says */
    st = int_stats(0, 9, 8, false);
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* all NULL */
    st = int_stats(0, 0, 0, true);
    st.has_int = false;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES);
    l.op = ORC_SARG_EQ;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NULL);
    /* no statistics, or of another kind: maybe */
    CHECK_EQ(orc_sarg_eval_leaf(&l, NULL), ORC_TV_YES_NO_NULL);
    st = int_stats(0, 9, 10, false);
    c.kind = COMB_T_STRING;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
}

TEST(sarg_not_needs_every_row)
{
    /* NOT (x = 5) over a group of only 5s is FALSE everywhere; over a
     * group of 5..6 some row may be TRUE */
    CombArena a;
    OrcSarg s;
    OrcSargValue v = {.i = 5};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_LONG, &v);
    OrcColumnStats st = int_stats(5, 5, 10, false);
    OrcSargColumn c = column(COMB_T_INT, &st, 10);
    OrcTruth t[1];
    comb_arena_init(&a, 1024);
    orc_sarg_init(&s, &a);
    s.root = orc_sarg_not(&s, orc_sarg_leaf(&s, &l));
    CHECK(s.root != NULL);
    CHECK(orc_sarg_simplify(&s));
    t[0] = orc_sarg_eval_leaf(&s.leaves[0], &c);
    CHECK_EQ(orc_sarg_eval(&s, t), ORC_TV_NO);
    st.int_max = 6;
    t[0] = orc_sarg_eval_leaf(&s.leaves[0], &c);
    CHECK_EQ(orc_sarg_eval(&s, t), ORC_TV_YES_NO);
    comb_arena_free(&a);
}

TEST(sarg_unknown_keeps_groups)
{
    /* NOT (x = 5 AND unknown) can be TRUE where x = 5: the unknown part
     * may be FALSE, so it must not be dropped under the NOT */
    CombArena a;
    OrcSarg s;
    OrcSargValue v = {.i = 5};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_LONG, &v);
    OrcColumnStats st = int_stats(5, 5, 10, false);
    OrcSargColumn c = column(COMB_T_INT, &st, 10);
    OrcSargNode *kids[2];
    OrcTruth t[1];
    comb_arena_init(&a, 1024);
    orc_sarg_init(&s, &a);
    kids[0] = orc_sarg_leaf(&s, &l);
    kids[1] = orc_sarg_node(&s, ORC_SARG_UNKNOWN, NULL, 0);
    s.root = orc_sarg_not(&s, orc_sarg_node(&s, ORC_SARG_AND, kids, 2));
    CHECK(!orc_sarg_simplify(&s));   /* nothing left to test */
    /* an AND at the top drops its unknown conjunct */
    s.root = orc_sarg_node(&s, ORC_SARG_AND, kids, 2);
    CHECK(orc_sarg_simplify(&s));
    CHECK_EQ(s.root->kind, ORC_SARG_LEAF);
    v.i = 7;   /* leaves hold copies of their values */
    t[0] = orc_sarg_eval_leaf(&s.leaves[0], &c);
    CHECK_EQ(orc_sarg_eval(&s, t), ORC_TV_YES);
    comb_arena_free(&a);
}

TEST(sarg_doubles_nan_and_zero)
{
    OrcSargValue v = {.d = 100};
    OrcSargLeaf l = leaf1(ORC_SARG_LT, ORC_SARG_DOUBLE, &v);
    OrcColumnStats st;
    OrcSargColumn c = column(COMB_T_DOUBLE, &st, 4);
    memset(&st, 0, sizeof st);
    st.n_values = 4;
    st.has_double = true;
    st.dbl_min = 200;
    st.dbl_max = 300;
    st.has_dbl_sum = true;
    st.dbl_sum = 1000;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    st.dbl_sum = NAN;   /* a NaN somewhere: min and max say nothing */
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    st.has_dbl_sum = false;
    st.dbl_sum = 0;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* x IN (0.0) over a group of zeros: -0.0 is not in it */
    st.has_dbl_sum = true;
    st.dbl_min = st.dbl_max = 0.0;
    v.d = 0.0;
    l.op = ORC_SARG_IN;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    l.op = ORC_SARG_EQ;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES);
    v.d = NAN;   /* a NaN constant compares with nothing */
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* an integer column compared as double */
    OrcColumnStats is = int_stats(10, 20, 4, false);
    OrcSargColumn ic = column(COMB_T_INT, &is, 4);
    v.d = 9.5;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &ic), ORC_TV_NO);
    v.d = 10.0;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &ic), ORC_TV_YES_NO);
}

static OrcColumnStats str_stats(const char *lo, const char *hi)
{
    OrcColumnStats st;
    memset(&st, 0, sizeof st);
    st.n_values = 3;
    st.has_string = true;
    st.str_min = (CombStr){lo, (uint32_t)strlen(lo)};
    st.str_max = (CombStr){hi, (uint32_t)strlen(hi)};
    return st;
}

TEST(sarg_strings_and_char_padding)
{
    OrcSargValue v = {.s = {"ab", 2}};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_STRING, &v);
    OrcColumnStats st = str_stats("ab  ", "ab  ");
    OrcSargColumn c = column(COMB_T_CHAR, &st, 3);
    /* raw: 'ab  ' is not 'ab'; as a CHAR without its padding it is */
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    l.rtrim = true;
    l.char_length = 4;
    CHECK(orc_truth_may_be_true(orc_sarg_eval_leaf(&l, &c)));
    /* 'a\x01' sorts below 'a ', yet trimmed 'a ' is 'a' < 'a\x01' */
    st = str_stats("a\x01", "b");
    v.s = (CombStr){"a", 1};
    CHECK(orc_truth_may_be_true(orc_sarg_eval_leaf(&l, &c)));
    l.op = ORC_SARG_LT;
    v.s = (CombStr){"a\x01", 2};
    CHECK(orc_truth_may_be_true(orc_sarg_eval_leaf(&l, &c)));
    /* strings of the original writer version are not trusted */
    l.rtrim = false;
    l.op = ORC_SARG_EQ;
    st = str_stats("m", "n");
    v.s = (CombStr){"a", 1};
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    c.writer_version = 0;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
}

TEST(sarg_decimals_across_scales)
{
    OrcSargValue v = {.dec = 150, .scale = 2};   /* 1.50 */
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_DECIMAL, &v);
    OrcColumnStats st;
    OrcSargColumn c = column(COMB_T_DECIMAL, &st, 2);
    memset(&st, 0, sizeof st);
    st.n_values = 2;
    st.has_decimal = true;
    st.dec_min = (CombStr){"1.5", 3};
    st.dec_max = (CombStr){"1.5", 3};
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES);
    v.dec = 1501;
    v.scale = 3;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    st.dec_max = (CombStr){"bad", 3};
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* a 38-digit constant against a scale far away must not overflow */
    st.dec_max = (CombStr){"2", 1};
    v.dec = (comb_i128)1 << 120;
    v.scale = 0;
    l.op = ORC_SARG_LT;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES);
}

TEST(sarg_timestamps_in_doubt)
{
    OrcSargValue v = {.i = 1000, .nanos = 0};
    OrcSargLeaf l = leaf1(ORC_SARG_LT, ORC_SARG_TIMESTAMP, &v);
    OrcColumnStats st;
    OrcSargColumn c = column(COMB_T_TIMESTAMP, &st, 2);
    memset(&st, 0, sizeof st);
    st.n_values = 2;
    st.has_timestamp = true;
    st.ts_min_ms = 5000000;
    st.ts_max_ms = 6000000;
    st.ts_max_nanos = 999999;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_NO);
    st.ts_local = true;        /* milliseconds of the instant: no */
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    st.ts_local = false;
    c.writer_version = 5;      /* before ORC-135 */
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
    /* within a second of the bounds the group is kept */
    c.writer_version = 6;
    v.i = 5000;
    v.nanos = 500000000;
    CHECK_EQ(orc_sarg_eval_leaf(&l, &c), ORC_TV_YES_NO);
}

TEST(sarg_print)
{
    CombArena a;
    OrcSarg s;
    CombBuf out = COMB_BUF_INIT;
    OrcSargValue v[2] = {{.i = 18262}, {.i = 18263}};
    OrcSargLeaf l = leaf1(ORC_SARG_BETWEEN, ORC_SARG_DATE, v);
    OrcSargLeaf n = leaf1(ORC_SARG_IS_NULL, ORC_SARG_LONG, NULL);
    OrcSargNode *kids[2];
    l.n_values = 2;
    comb_arena_init(&a, 1024);
    orc_sarg_init(&s, &a);
    kids[0] = orc_sarg_leaf(&s, &l);
    kids[1] = orc_sarg_not(&s, orc_sarg_leaf(&s, &n));
    s.root = orc_sarg_node(&s, ORC_SARG_OR, kids, 2);
    CHECK_EQ(orc_sarg_print(&s, &out), COMB_OK);
    comb_buf_append_byte(&out, 0);
    CHECK_STR((const char *)out.data,
              "leaf-0 = (BETWEEN x 2020-01-01 2020-01-02), leaf-1 = (IS_NULL x), "
              "expr = (or leaf-0 (not leaf-1))");
    comb_buf_free(&out);
    comb_arena_free(&a);
}

/* ------------------------------------------------------ through the reader */

/* struct<id:bigint,s:string>: ids 0..n-1 in order, s a pseudo-random
 * word of 10^8 (row 777,777's is "needle"), with a bloom filter on s. */
static int write_ids(const char *name, uint64_t n, char *path, CombErr *err)
{
    static const int bloom[1] = {2};
    CombArena a;
    CombType *root;
    OrcWriterOptions opt;
    OrcWriter *w;
    CombBatch b;
    uint64_t seed = 12345;
    char words[1024][16];
    int rc;
    comb_arena_init(&a, 1024);
    root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "id", comb_type_new(&a, COMB_T_BIGINT));
    comb_type_add_field(&a, root, "s", comb_type_new(&a, COMB_T_STRING));
    orc_writer_options_default(&opt);
    opt.bloom_columns = bloom;
    opt.n_bloom_columns = 1;
    opt.stripe_size = 4u << 20;
    rc = orc_test_writer_open(name, root, &opt, 1024, path, &w, &b, err);
    for (uint64_t row = 0; row < n && !rc; row += 1024) {
        int k = n - row < 1024 ? (int)(n - row) : 1024;
        for (int i = 0; i < k; i++) {
            b.cols[0].i64[i] = (int64_t)(row + (uint64_t)i);
            int len = snprintf(words[i], sizeof words[i], "w%llu",
                               (unsigned long long)(orc_test_rand(&seed) % 100000000));
            if (row + (uint64_t)i == 777777)
                len = snprintf(words[i], sizeof words[i], "needle");
            b.cols[1].str[i] = (CombStr){words[i], (uint32_t)len};
        }
        b.n_rows = k;
        rc = orc_writer_write(w, &b, err);
    }
    comb_batch_free(&b);
    rc = rc ? (orc_writer_abort(w), rc) : orc_writer_close(w, err);
    comb_arena_free(&a);
    return rc;
}

/* Read path through a one-leaf argument on column id `col`; the rows
 * returned that hold `want` (id or word) counted in *hits. */
static int read_counted(const char *path, const OrcSargLeaf *leaf, int col,
                        OrcReadCounters *k, long *rows, long *hits,
                        CombErr *err)
{
    CombArena a;
    OrcSarg s;
    OrcReader *r;
    CombBatch b;
    int rc, cols[1] = {col};
    comb_arena_init(&a, 1024);
    orc_sarg_init(&s, &a);
    s.root = leaf ? orc_sarg_leaf(&s, leaf) : NULL;
    *rows = *hits = 0;
    if ((rc = orc_test_reader_open(path, 1024, &r, &b, err))) {
        comb_arena_free(&a);
        return rc;
    }
    rc = leaf ? orc_reader_set_sarg(r, &s, cols, err) : COMB_OK;
    while (!rc && !(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0) {
        for (int i = 0; i < b.n_rows; i++) {
            bool hit = leaf && (col == 1
                                    ? b.cols[0].i64[i] == leaf->values[0].i
                                    : b.cols[1].str[i].len == leaf->values[0].s.len &&
                                          memcmp(b.cols[1].str[i].ptr,
                                                 leaf->values[0].s.ptr,
                                                 b.cols[1].str[i].len) == 0);
            *hits += hit;
        }
        *rows += b.n_rows;
    }
    orc_reader_counters(r, k);
    comb_batch_free(&b);
    orc_reader_close(r);
    comb_arena_free(&a);
    return rc;
}

TEST(sarg_million_sorted_ids_read_one_group)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReadCounters k, full;
    OrcSargValue v = {.i = 42};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_LONG, &v);
    long rows, hits;
    CHECK_OK(write_ids("ids.orc", 1000000, path, &err), &err);
    CHECK_OK(read_counted(path, NULL, 1, &full, &rows, &hits, &err), &err);
    CHECK_EQ(rows, 1000000);
    CHECK(full.stripes_read > 1);
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    printf("    id = 42: stripes read %llu of %llu, row groups read %llu of "
           "%llu, bytes read %llu of %llu\n",
           (unsigned long long)k.stripes_read,
           (unsigned long long)(k.stripes_read + k.stripes_skipped),
           (unsigned long long)k.groups_read,
           (unsigned long long)(k.groups_read + k.groups_skipped),
           (unsigned long long)k.bytes_read, (unsigned long long)full.bytes_read);
    CHECK_EQ(hits, 1);
    CHECK_EQ(k.stripes_read, 1);
    CHECK_EQ(k.groups_read, 1);
    CHECK_EQ(rows, 10000);
    CHECK(k.bytes_read * 5 < full.bytes_read);
}

TEST(sarg_bloom_filter_skips_row_groups)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReadCounters k;
    OrcSargValue v = {.s = {"needle", 6}};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_STRING, &v);
    long rows, hits;
    CHECK_OK(write_ids("words.orc", 1000000, path, &err), &err);
    CHECK_OK(read_counted(path, &l, 2, &k, &rows, &hits, &err), &err);
    printf("    s = 'needle': row groups read %llu, skipped %llu, %ld matches\n",
           (unsigned long long)k.groups_read,
           (unsigned long long)k.groups_skipped, hits);
    CHECK_EQ(hits, 1);
    CHECK(k.groups_skipped * 10 >= (k.groups_read + k.groups_skipped) * 9);
}

TEST(sarg_unknown_column_reads_all)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReadCounters k;
    OrcSargValue v = {.i = -1};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_LONG, &v);
    long rows, hits;
    CHECK_OK(write_ids("few.orc", 5000, path, &err), &err);
    /* a leaf naming a column the file lacks is unknown: all is read */
    CHECK_OK(read_counted(path, &l, 99, &k, &rows, &hits, &err), &err);
    CHECK_EQ(rows, 5000);
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK_EQ(rows, 0);
    CHECK_EQ(k.stripes_skipped, 1);
}

/* Days 0..n-2, then *(int64_t *)ctx. */
static void fill_dates(void *ctx, const CombType *root, CombBatch *b)
{
    (void)root;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].i64[i] = i + 1 < b->n_rows ? i : *(const int64_t *)ctx;
}

/* struct<d:date> of n rows: days 0..n-2, then `last`. */
static int write_dates(const char *name, int n, int64_t last, char *path,
                       CombErr *err)
{
    OrcWriterOptions opt;
    orc_writer_options_default(&opt);
    return orc_test_write_column(name, "d", COMB_T_DATE, &opt, n, fill_dates,
                                 &last, path, err);
}

/* DateStatistics are sint32 days: a date beyond them leaves the bounds
 * out of the file, stripe and row-group statistics (cut to 32 bits they
 * would skip the row that holds it). */
TEST(sarg_dates_beyond_32_bits_keep_their_rows)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReadCounters k;
    OrcColumnStats st;
    OrcReader *r;
    const OrcStripeIndex *x;
    bool cols[2] = {false, true};
    OrcSargValue v = {.i = (int64_t)INT32_MAX + 10};
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_DATE, &v);
    long rows, hits;
    CHECK_OK(write_dates("bigdate.orc", 3000, v.i, path, &err), &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    CHECK_OK(orc_reader_column_stats(r, 1, &st), &err);
    CHECK(!st.has_int);
    CHECK_EQ(st.n_values, 3000);
    CHECK_OK(orc_reader_stripe_stats(r, 0, 1, &st, &err), &err);
    CHECK(!st.has_int);
    CHECK_OK(orc_reader_stripe_index(r, 0, cols, false, &x, &err), &err);
    CHECK_OK(orc_stripe_index_stats(x, 1, 0, &st), &err);
    CHECK(!st.has_int);
    orc_reader_close(r);
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK_EQ(hits, 1);
    /* dates within 32 bits keep their bounds and are skipped by them */
    CHECK_OK(write_dates("date.orc", 3000, 20000, path, &err), &err);
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK_EQ(rows, 0);
    v.i = 20000;
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK_EQ(hits, 1);
}

/* Unsorted distinct seconds from 2020 with nanos, but row 12,345 holds
 * 1969-12-31 23:59:59.5, which reads back as 00:00:00.5 (orc/README.md);
 * ctx gets row 4,321's value. */
static void fill_stamps(void *ctx, const CombType *root, CombBatch *b)
{
    OrcSargValue *v = ctx;
    uint64_t seed = 777;
    (void)root;
    for (int i = 0; i < b->n_rows; i++) {
        /* a permutation of 0..19999 spread over 2020 */
        b->cols[0].i64[i] = 1577836800 + (int64_t)((i * 7919) % 20000) * 1500;
        b->cols[0].nanos[i] = (int32_t)(orc_test_rand(&seed) % 1000000000);
    }
    b->cols[0].i64[12345] = -1;
    b->cols[0].nanos[12345] = 500000000;
    v->i = b->cols[0].i64[4321];
    v->nanos = b->cols[0].nanos[4321];
}

/* struct<ts:timestamp> of 20,000 rows (fill_stamps) in row groups of
 * 1,000, a bloom filter on ts. */
static int write_stamps(const char *name, char *path, OrcSargValue *probe,
                        CombErr *err)
{
    static const int bloom[1] = {1};
    OrcWriterOptions opt;
    orc_writer_options_default(&opt);
    opt.bloom_columns = bloom;
    opt.n_bloom_columns = 1;
    opt.row_index_stride = 1000;
    return orc_test_write_column(name, "ts", COMB_T_TIMESTAMP, &opt, 20000,
                                 fill_stamps, probe, path, err);
}

/* Timestamp equality finds its row groups by their bloom filters (the
 * statistics of unsorted values cannot), and the value before 1970 that
 * reads back one second late is found by what it reads as. */
TEST(sarg_timestamp_bloom_filters)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReadCounters k;
    OrcSargValue v;
    OrcSargLeaf l = leaf1(ORC_SARG_EQ, ORC_SARG_TIMESTAMP, &v);
    long rows, hits;
    memset(&v, 0, sizeof v);
    CHECK_OK(write_stamps("stamps.orc", path, &v, &err), &err);
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    printf("    ts = row 4321's: row groups read %llu, skipped %llu\n",
           (unsigned long long)k.groups_read,
           (unsigned long long)k.groups_skipped);
    CHECK_EQ(hits, 1);
    CHECK(k.groups_skipped >= 18);
    /* a millisecond later is another bloom entry */
    v.nanos = v.nanos < 999000000 ? v.nanos + 1000000 : v.nanos - 1000000;
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK(k.groups_skipped >= 18);
    v.i = 0;
    v.nanos = 500000000;
    CHECK_OK(read_counted(path, &l, 1, &k, &rows, &hits, &err), &err);
    CHECK_EQ(hits, 1);
    CHECK(k.groups_skipped >= 18);
}
