/*
 * test_roundtrip.c - write ORC files with every writable type, nulls,
 * several stripes and each codec, then read them back and compare values,
 * statistics and user metadata.  Also the ACID delete-file shape (a struct
 * column that is NULL in every row), empty files and writer failures.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { C_ROOT, C_B, C_T, C_S, C_I, C_L, C_F, C_D, C_STR, C_VC, C_CH, C_BIN,
       C_DT, C_ST, C_X, C_Y, N_COLS };

static CombType *leaf(CombArena *a, CombType *st, const char *name,
                     CombTypeKind k)
{
    CombType *t = comb_type_new(a, k);
    if (t && (k == COMB_T_VARCHAR || k == COMB_T_CHAR))
        t->max_length = k == COMB_T_VARCHAR ? 10 : 5;
    if (!t || comb_type_add_field(a, st, name, t))
        return NULL;
    return t;
}

static CombType *all_types(CombArena *a)
{
    CombType *root = comb_type_new(a, COMB_T_STRUCT);
    static const struct { const char *n; CombTypeKind k; } f[] = {
        {"b", COMB_T_BOOLEAN}, {"t", COMB_T_TINYINT}, {"s", COMB_T_SMALLINT},
        {"i", COMB_T_INT}, {"l", COMB_T_BIGINT}, {"f", COMB_T_FLOAT},
        {"d", COMB_T_DOUBLE}, {"str", COMB_T_STRING}, {"vc", COMB_T_VARCHAR},
        {"ch", COMB_T_CHAR}, {"bin", COMB_T_BINARY}, {"dt", COMB_T_DATE}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!leaf(a, root, f[i].n, f[i].k))
            return NULL;
    CombType *st = leaf(a, root, "st", COMB_T_STRUCT);
    if (!st || !leaf(a, st, "x", COMB_T_INT) || !leaf(a, st, "y", COMB_T_STRING))
        return NULL;
    return root;
}

/* The vector of column id c (a root field, or a field of st). */
static CombVector *col(const CombBatch *b, int c)
{
    if (c == C_X || c == C_Y)
        return &b->cols[C_ST - 1].children[c - C_X];
    return &b->cols[c - 1];
}

static bool is_null(int64_t g, int c)
{
    if (c == C_ROOT)
        return false;
    if ((c == C_X || c == C_Y) && g % 13 == 5)
        return true;  /* the enclosing struct is NULL */
    if (c == C_ST)
        return g % 13 == 5;
    return (g * 7 + c) % 11 == 0 || (c == C_L && g > 15000);
}

static int64_t int_val(int64_t g, int c)
{
    switch (c) {
    case C_B: return g % 3 == 0;
    case C_T: return (g % 256) - 128;
    case C_S: return (g * 31) % 65536 - 32768;
    case C_I: return (int32_t)(uint32_t)(g * 1000003);
    case C_L: return g % 5 == 0 ? INT64_MIN + g : g * g * 1234567 - 99;
    case C_DT: return g - 20000;
    case C_X: return g;
    default: return 0;
    }
}

static double dbl_val(int64_t g, int c)
{
    return c == C_F ? (double)(float)(g * 0.5f - 100) : g / 3.0 - 7;
}

/* String value of row g in column c into buf; returns the length. */
static uint32_t str_val(int64_t g, int c, char *buf)
{
    switch (c) {
    case C_STR:
        if (g % 17 == 0)
            return 0;
        return (uint32_t)sprintf(buf, "s%lld-%.*s", (long long)g,
                                 (int)(g % 40), "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF");
    case C_VC: return (uint32_t)sprintf(buf, "v%lld", (long long)(g % 1000));
    case C_CH: return (uint32_t)sprintf(buf, "c%03d", (int)(g % 100));
    case C_BIN:
        for (int i = 0; i < g % 5; i++)
            buf[i] = (char)(g + i * 100);
        return (uint32_t)(g % 5);
    default: return (uint32_t)sprintf(buf, "y\"\n%lld", (long long)g);
    }
}

static void fill_batch(CombBatch *b, int64_t first, int n)
{
    comb_batch_reset(b);
    for (int r = 0; r < n; r++) {
        int64_t g = first + r;
        for (int c = 1; c < N_COLS; c++) {
            CombVector *v = col(b, c);
            comb_vec_nulls_materialize(v, b->capacity);
            if (is_null(g, c)) {
                comb_vec_set_null(v, r);
                /* junk under nulls must be ignored by the writer */
                if (v->str)
                    v->str[r] = (CombStr){NULL, 0};
                continue;
            }
            v->nulls[r] = 0;
            if (v->i64)
                v->i64[r] = int_val(g, c);
            else if (v->f64)
                v->f64[r] = dbl_val(g, c);
            else if (v->str) {
                char tmp[128];
                uint32_t len = str_val(g, c, tmp);
                char *p = comb_arena_alloc(&b->arena, len + 1);
                memcpy(p, tmp, len);
                v->str[r] = (CombStr){p, len};
            }
        }
    }
    b->n_rows = n;
}

typedef struct StripeCount {
    int calls;
    uint64_t rows;
} StripeCount;

static int count_stripe(void *ctx, uint64_t rows, CombErr *err)
{
    (void)err;
    StripeCount *s = ctx;
    s->calls++;
    s->rows += rows;
    return COMB_OK;
}

static int write_all_types(const char *path, OrcCompression comp,
                           uint64_t stripe_size, int64_t rows,
                           StripeCount *sc, CombErr *err)
{
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *schema = all_types(&a);
    comb_type_assign_ids(schema);
    orc_writer_options_default(&opt);
    opt.compression = comp;
    opt.stripe_size = stripe_size;
    opt.compression_block_size = 4096;
    opt.on_stripe = count_stripe;
    opt.ctx = sc;
    int rc = orc_test_batch_init(schema, &b, 1000);
    if (rc == COMB_OK)
        rc = orc_writer_open(path, schema, &opt, &w, err);
    for (int64_t g = 0; g < rows && rc == COMB_OK; g += 1000) {
        fill_batch(&b, g, rows - g < 1000 ? (int)(rows - g) : 1000);
        rc = orc_writer_write(w, &b, err);
    }
    if (rc == COMB_OK) {
        rc = orc_writer_set_metadata(w, "k1", "v1", 2, err);
        if (!rc)
            rc = orc_writer_close(w, err);
    } else if (w) {
        orc_writer_abort(w);
    }
    comb_batch_free(&b);
    comb_arena_free(&a);
    return rc;
}

/* Compare one decoded row; prints and returns false on a difference. */
static bool row_ok(const CombBatch *b, int r, int64_t g)
{
    for (int c = 1; c < N_COLS; c++) {
        const CombVector *v = col(b, c);
        bool null = comb_vec_is_null(v, r);
        if (null != is_null(g, c)) {
            printf("    row %lld col %d: null %d\n", (long long)g, c, null);
            return false;
        }
        if (null || c == C_ST)
            continue;
        if (v->i64 && v->i64[r] != int_val(g, c)) {
            printf("    row %lld col %d: %lld\n", (long long)g, c,
                   (long long)v->i64[r]);
            return false;
        }
        if (v->f64 && v->f64[r] != dbl_val(g, c)) {
            printf("    row %lld col %d: %g\n", (long long)g, c, v->f64[r]);
            return false;
        }
        if (v->str) {
            char tmp[128];
            uint32_t len = str_val(g, c, tmp);
            if (v->str[r].len != len || memcmp(v->str[r].ptr, tmp, len)) {
                printf("    row %lld col %d: string differs\n", (long long)g, c);
                return false;
            }
        }
    }
    return true;
}

static int64_t read_and_compare(const char *path, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    int64_t g = 0;
    if (orc_test_reader_open(path, 777, &r, &b, err))
        return -1;
    int rc;
    while ((rc = orc_reader_next(r, &b, err)) == COMB_OK && b.n_rows > 0) {
        for (int i = 0; i < b.n_rows; i++, g++)
            if (!row_ok(&b, i, g)) {
                rc = -1;
                break;
            }
        if (rc)
            break;
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc ? -1 : g;
}

TEST(orc_roundtrip_all_types_all_codecs)
{
    static const OrcCompression codecs[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                            ORC_COMP_SNAPPY, ORC_COMP_ZSTD,
                                            ORC_COMP_LZ4};
    const char *dir = unit_tmpdir();
    for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++) {
        char path[512];
        CombErr err;
        StripeCount sc = {0, 0};
        OrcReader *r;
        snprintf(path, sizeof path, "%s/all_%s.orc", dir,
                 orc_compression_name(codecs[i]));
        CHECK_OK(write_all_types(path, codecs[i], 60000, 20000, &sc, &err),
                 &err);
        CHECK_EQ(read_and_compare(path, &err), 20000);
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        int stripes = orc_reader_n_stripes(r);
        CHECK_EQ(orc_reader_compression(r), codecs[i]);
        orc_reader_close(r);
        CHECK(stripes > 2);
        CHECK_EQ(sc.calls, stripes);
        CHECK_EQ(sc.rows, 20000);
    }
}

TEST(orc_roundtrip_single_stripe_and_schema)
{
    const char *dir = unit_tmpdir();
    char path[512];
    CombErr err;
    StripeCount sc = {0, 0};
    OrcReader *r;
    CombBuf s = COMB_BUF_INIT;
    snprintf(path, sizeof path, "%s/one.orc", dir);
    CHECK_OK(write_all_types(path, ORC_COMP_ZLIB, 64u << 20, 5000, &sc, &err),
             &err);
    CHECK_EQ(sc.calls, 1);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    CHECK_EQ(orc_reader_n_stripes(r), 1);
    CHECK_EQ(orc_reader_n_rows(r), 5000);
    CHECK_EQ(orc_reader_n_columns(r), N_COLS);
    CHECK_STR(orc_reader_file_version(r), "0.12");
    CHECK(orc_reader_writer_version(r) >= 6);
    CHECK_EQ(orc_reader_row_index_stride(r), 10000);
    CHECK_EQ(comb_type_format(orc_reader_schema(r), &s), 0);
    CHECK_EQ(comb_buf_append_byte(&s, 0), 0);
    int same = strcmp((char *)s.data,
                      "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,"
                      "f:float,d:double,str:string,vc:varchar(10),ch:char(5),"
                      "bin:binary,dt:date,st:struct<x:int,y:string>>") == 0;
    comb_buf_free(&s);
    const char *kinds[N_COLS];
    uint32_t dict[N_COLS];
    CHECK_OK(orc_reader_stripe_encodings(r, 0, kinds, dict, &err), &err);
    orc_reader_close(r);
    CHECK(same);
    CHECK_STR(kinds[C_I], "DIRECT_V2");
    CHECK_STR(kinds[C_STR], "DIRECT_V2");
    CHECK_STR(kinds[C_B], "DIRECT");
    CHECK_EQ(read_and_compare(path, &err), 5000);
}

/* Expected statistics computed from the generator. */
TEST(orc_roundtrip_statistics)
{
    const char *dir = unit_tmpdir();
    char path[512];
    CombErr err;
    StripeCount sc = {0, 0};
    OrcReader *r;
    const int64_t rows = 20000;
    snprintf(path, sizeof path, "%s/stats.orc", dir);
    CHECK_OK(write_all_types(path, ORC_COMP_ZLIB, 60000, rows, &sc, &err),
             &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    for (int c = 1; c < N_COLS; c++) {
        uint64_t count = 0, trues = 0;
        int64_t mn = INT64_MAX, mx = INT64_MIN, sum = 0, len_sum = 0;
        bool sum_ok = true, any_null = false;
        double dmn = INFINITY, dmx = -INFINITY, dsum = 0;
        for (int64_t g = 0; g < rows; g++) {
            if (is_null(g, c)) {
                any_null = true;
                continue;
            }
            count++;
            int64_t v = int_val(g, c);
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
            sum_ok = sum_ok && !__builtin_add_overflow(sum, v, &sum);
            trues += c == C_B && v;
            double d = dbl_val(g, c);
            dmn = d < dmn ? d : dmn;
            dmx = d > dmx ? d : dmx;
            dsum += d;
            char tmp[128];
            len_sum += str_val(g, c, tmp);
        }
        OrcColumnStats st;
        CHECK_OK(orc_reader_column_stats(r, c, &st), &err);
        CHECK_EQ(st.n_values, count);
        CHECK_EQ(st.has_null, any_null);
        if (c == C_B) {
            CHECK(st.has_bucket);
            CHECK_EQ(st.true_count, trues);
        } else if (c == C_T || c == C_S || c == C_I || c == C_L || c == C_DT ||
                   c == C_X) {
            CHECK(st.has_int);
            CHECK_EQ(st.int_min, mn);
            CHECK_EQ(st.int_max, mx);
            CHECK_EQ(st.has_sum, c != C_DT && sum_ok);
            if (st.has_sum)
                CHECK_EQ(st.int_sum, sum);
        } else if (c == C_F || c == C_D) {
            CHECK(st.has_double);
            CHECK(st.dbl_min == dmn && st.dbl_max == dmx);
            CHECK(fabs(st.dbl_sum - dsum) < 1e-6 * fabs(dsum) + 1e-6);
        } else if (c == C_STR || c == C_VC || c == C_CH || c == C_BIN || c == C_Y) {
            CHECK_EQ(st.str_sum_len, len_sum);
            CHECK_EQ(st.has_string, c != C_BIN);
        }
        /* stripe statistics add up to the file's */
        uint64_t stripe_count = 0;
        for (int s = 0; s < orc_reader_n_stripes(r); s++) {
            OrcColumnStats ss;
            CHECK_OK(orc_reader_stripe_stats(r, s, c, &ss, &err), &err);
            stripe_count += ss.n_values;
        }
        CHECK_EQ(stripe_count, count);
    }
    OrcColumnStats st;
    CHECK_OK(orc_reader_column_stats(r, C_CH, &st), &err);
    CHECK(st.str_min.len == 4 && memcmp(st.str_min.ptr, "c000", 4) == 0);
    CHECK(st.str_max.len == 4 && memcmp(st.str_max.ptr, "c099", 4) == 0);
    CHECK_OK(orc_reader_column_stats(r, C_ROOT, &st), &err);
    CHECK_EQ(st.n_values, rows);
    CHECK(!st.has_null);
    orc_reader_close(r);
}

/* ------------------------------------------------ ACID delete-file shape */

static CombType *acid_schema(CombArena *a)
{
    CombType *root = comb_type_new(a, COMB_T_STRUCT);
    if (!leaf(a, root, "operation", COMB_T_INT) ||
        !leaf(a, root, "originalTransaction", COMB_T_BIGINT) ||
        !leaf(a, root, "bucket", COMB_T_INT) ||
        !leaf(a, root, "rowId", COMB_T_BIGINT) ||
        !leaf(a, root, "currentTransaction", COMB_T_BIGINT))
        return NULL;
    CombType *row = leaf(a, root, "row", COMB_T_STRUCT);
    if (!row || !leaf(a, row, "a", COMB_T_INT) || !leaf(a, row, "b", COMB_T_STRING))
        return NULL;
    return root;
}

TEST(orc_roundtrip_null_struct_acid_delete)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcReader *r;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *schema = acid_schema(&a);
    CHECK(schema != NULL);
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("delete.orc", schema, &opt, 1024, path, &w,
                                  &b, &err), &err);
    CHECK_EQ(b.n_cols, 6);
    int rc = COMB_OK;
    for (int64_t g = 0; g < 3000 && !rc; g += 1000) {
        comb_batch_reset(&b);
        comb_vec_nulls_materialize(&b.cols[5], 1000);
        for (int i = 0; i < 1000; i++) {
            b.cols[0].i64[i] = 2;
            b.cols[1].i64[i] = 7;
            b.cols[2].i64[i] = 536870912;
            b.cols[3].i64[i] = g + i;
            b.cols[4].i64[i] = 9;
            comb_vec_set_null(&b.cols[5], i);
            /* under a NULL struct: ignored */
            b.cols[5].children[0].i64[i] = 12345;
        }
        b.n_rows = 1000;
        rc = orc_writer_write(w, &b, &err);
    }
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
    int64_t n = 0;
    bool ok = true;
    while (ok && (rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0) {
        for (int i = 0; i < b.n_rows; i++, n++) {
            ok = ok && b.cols[3].i64[i] == n && b.cols[2].i64[i] == 536870912 &&
                 b.cols[0].i64[i] == 2 && comb_vec_is_null(&b.cols[5], i) &&
                 comb_vec_is_null(&b.cols[5].children[0], i) &&
                 comb_vec_is_null(&b.cols[5].children[1], i);
        }
    }
    comb_batch_free(&b);
    OrcColumnStats st;
    orc_reader_column_stats(r, 6, &st);
    bool row_stats = st.n_values == 0 && st.has_null;
    orc_reader_column_stats(r, 7, &st);
    bool a_stats = st.n_values == 0 && !st.has_int;
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK(ok);
    CHECK_EQ(n, 3000);
    CHECK(row_stats);
    CHECK(a_stats);
}

/* ------------------------------------------------------ metadata, empty */

TEST(orc_user_metadata_roundtrip)
{
    const char *dir = unit_tmpdir();
    char path[512];
    CombErr err;
    CombArena a;
    OrcWriter *w;
    OrcReader *r;
    OrcWriterOptions opt;
    snprintf(path, sizeof path, "%s/empty_meta.orc", dir);
    comb_arena_init(&a, 4096);
    CombType *schema = acid_schema(&a);
    orc_writer_options_default(&opt);
    int rc = orc_writer_open(path, schema, &opt, &w, &err);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_finish(w, &err), &err);
    static const char bin[] = {'a', 0, 'b', (char)0xff};
    CHECK_OK(orc_writer_set_metadata(w, "hive.acid.key.index", "1,536870912,2;",
                                     14, &err), &err);
    CHECK_OK(orc_writer_set_metadata(w, "hive.acid.version", "1", 1, &err), &err);
    CHECK_OK(orc_writer_set_metadata(w, "bin", bin, sizeof bin, &err), &err);
    CHECK_OK(orc_writer_set_metadata(w, "hive.acid.version", "2", 1, &err), &err);
    CHECK_OK(orc_writer_set_metadata(w, "empty", "", 0, &err), &err);
    CHECK_OK(orc_writer_close(w, &err), &err);

    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    const void *val;
    size_t len;
    int n_md = orc_reader_n_metadata(r);
    bool v = orc_reader_metadata(r, "hive.acid.version", &val, &len) &&
             len == 1 && memcmp(val, "2", 1) == 0;
    bool k = orc_reader_metadata(r, "hive.acid.key.index", &val, &len) &&
             len == 14 && memcmp(val, "1,536870912,2;", 14) == 0;
    bool bn = orc_reader_metadata(r, "bin", &val, &len) && len == 4 &&
              memcmp(val, bin, 4) == 0;
    bool em = orc_reader_metadata(r, "empty", &val, &len) && len == 0;
    bool missing = !orc_reader_metadata(r, "nope", &val, &len);
    uint64_t rows = orc_reader_n_rows(r);
    int stripes = orc_reader_n_stripes(r);
    CombBatch b;
    orc_reader_batch_init(r, &b, 100);
    rc = orc_reader_next(r, &b, &err);
    int got = b.n_rows;
    comb_batch_free(&b);
    OrcColumnStats st;
    int src = orc_reader_stripe_stats(r, 0, 0, &st, &err);
    orc_reader_close(r);
    CHECK_EQ(n_md, 4);
    CHECK(v && k && bn && em && missing);
    CHECK_EQ(rows, 0);
    CHECK_EQ(stripes, 0);
    CHECK_OK(rc, &err);
    CHECK_EQ(got, 0);
    CHECK_EQ(src, COMB_ENOTFOUND);

    /* the dump shows the metadata as text */
    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    bool shown = strstr(text, "hive.acid.version=2") &&
                 strstr(text, "Rows: 0") && strstr(text, "Compression: ZLIB");
    free(text);
    CHECK(shown);
}

static int fail_stripe(void *ctx, uint64_t rows, CombErr *err)
{
    (void)ctx;
    (void)rows;
    return comb_err(err, COMB_EIO, "stripe refused");
}

TEST(orc_writer_failures_remove_file)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *schema = acid_schema(&a);
    orc_writer_options_default(&opt);
    opt.on_stripe = fail_stripe;
    CHECK_OK(orc_test_writer_open("fail.orc", schema, &opt, 10, path, &w, &b,
                                  &err), &err);
    b.n_rows = 10;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    CHECK_OK(rc, &err);
    CHECK_EQ(orc_writer_close(w, &err), COMB_EIO);
    CHECK(access(path, F_OK) != 0);

    /* abort removes the file too */
    orc_writer_options_default(&opt);
    CHECK_OK(orc_writer_open(path, schema, &opt, &w, &err), &err);
    CHECK(access(path, F_OK) == 0);
    orc_writer_abort(w);
    CHECK(access(path, F_OK) != 0);
    orc_writer_abort(NULL);

    /* unsupported schema and options */
    CombType *u = comb_type_new(&a, COMB_T_UNION);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, u, NULL, comb_type_new(&a, COMB_T_INT));
    comb_type_add_field(&a, root, "u", u);
    CHECK_EQ(orc_writer_open(path, root, &opt, &w, &err), COMB_EUNSUPPORTED);
    CombType *bad = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, bad, "d", comb_type_decimal(&a, 5, 6));
    CHECK_EQ(orc_writer_open(path, bad, &opt, &w, &err), COMB_EINVALID);
    opt.compression = ORC_COMP_LZO;
    CHECK_EQ(orc_writer_open(path, schema, &opt, &w, &err), COMB_EUNSUPPORTED);
    comb_arena_free(&a);
}

TEST(orc_writer_row_ids_use_delta)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcReader *r;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    leaf(&a, root, "rowId", COMB_T_BIGINT);
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_NONE;
    CHECK_OK(orc_test_writer_open("ids.orc", root, &opt, 1024, path, &w, &b,
                                  &err), &err);
    int rc = COMB_OK;
    for (int64_t g = 0; g < 100 * 1024 && !rc; g += 1024) {
        for (int i = 0; i < 1024; i++)
            b.cols[0].i64[i] = g + i;
        b.n_rows = 1024;
        rc = orc_writer_write(w, &b, &err);
    }
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    Orc__Proto__StripeFooter *sf;
    CHECK_OK(orc_reader_stripe_footer(r, 0, &sf, &err), &err);
    uint64_t data_len = 0;
    for (size_t i = 0; i < sf->n_streams; i++)
        if (sf->streams[i]->column == 1 &&
            sf->streams[i]->kind == ORC__PROTO__STREAM__KIND__DATA)
            data_len = sf->streams[i]->length;
    orc_stripe_footer_free(sf);
    orc_reader_close(r);
    /* 200 DELTA runs of 512 values, a few bytes each */
    CHECK(data_len > 0 && data_len < 2000);
}

/* Stripes of 100 ids each, a tail after every stripe
 * (orc_writer_flush_footer), read at each tail's length: every stripe so
 * far has its statistics (the Metadata section is each stripe's entry,
 * compressed once and rewritten by every later tail); blocks of 64 bytes
 * cut the entries into several chunks.  Then the closed file. */
static void check_stripe_ids(OrcReader *r, int n_stripes, CombErr *err,
                             bool *ok)
{
    *ok = orc_reader_n_stripes(r) == n_stripes;
    for (int s = 0; *ok && s < n_stripes; s++) {
        OrcColumnStats st;
        *ok = orc_reader_stripe_stats(r, s, 1, &st, err) == COMB_OK &&
              st.has_int && st.n_values == 100 && st.int_min == s * 100 &&
              st.int_max == s * 100 + 99;
        if (!*ok)
            printf("    stripe %d of %d: statistics wrong\n", s, n_stripes);
    }
}

TEST(orc_intermediate_tails_keep_stripe_statistics)
{
    static const OrcCompression codecs[] = {ORC_COMP_ZLIB, ORC_COMP_NONE,
                                            ORC_COMP_ZSTD};
    CombErr err;
    for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
        CombArena a;
        CombBatch b;
        OrcWriter *w;
        OrcWriterOptions opt;
        OrcReader *r;
        char path[ORC_TEST_PATH_LEN];
        bool ok = true;
        comb_arena_init(&a, 1024);
        CombType *root = comb_type_new(&a, COMB_T_STRUCT);
        comb_type_add_field(&a, root, "id", comb_type_new(&a, COMB_T_BIGINT));
        orc_writer_options_default(&opt);
        opt.compression = codecs[c];
        opt.compression_block_size = 64;
        CHECK_OK(orc_test_writer_open("tails.orc", root, &opt, 100, path, &w,
                                      &b, &err), &err);
        for (int s = 0; s < 4 && ok; s++) {
            uint64_t len;
            for (int i = 0; i < 100; i++)
                b.cols[0].i64[i] = s * 100 + i;
            b.n_rows = 100;
            CHECK_OK(orc_writer_write(w, &b, &err), &err);
            CHECK_OK(orc_writer_flush_footer(w, &len, &err), &err);
            CHECK_OK(orc_reader_open_length(path, len, &r, &err), &err);
            check_stripe_ids(r, s + 1, &err, &ok);
            orc_reader_close(r);
        }
        CHECK_OK(orc_writer_close(w, &err), &err);
        CHECK(ok);
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        check_stripe_ids(r, 4, &err, &ok);
        orc_reader_close(r);
        CHECK(ok);
        comb_batch_free(&b);
        comb_arena_free(&a);
    }
}
