/*
 * test_index.c - row indexes and bloom filters: reading them from the
 * shared test files (ORC Java's and C++'s) and from comb's own files,
 * and the scan's row-group skipping: a scan that keeps some row groups
 * returns exactly the rows of those groups, equal to a full scan's, for
 * every file, type and codec (each group read alone after a seek, and
 * random patterns of kept groups).
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ row hashes */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* A hash of row `row` of v (type t), children included. */
static uint64_t value_hash(uint64_t h, const CombType *t, const CombVector *v,
                           int row)
{
    if (comb_vec_is_null(v, row))
        return fnv(h, "N", 1);
    switch (t->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return fnv(h, &v->f64[row], 8);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        h = fnv(h, &v->str[row].len, 4);
        return fnv(h, v->str[row].ptr, v->str[row].len);
    case COMB_T_DECIMAL:
        return fnv(h, &v->dec[row], sizeof v->dec[row]);
    case COMB_T_TIMESTAMP:
        h = fnv(h, &v->nanos[row], 4);
        return fnv(h, &v->i64[row], 8);
    case COMB_T_STRUCT:
        for (int i = 0; i < t->n_children; i++)
            h = value_hash(h, t->children[i], &v->children[i], row);
        return h;
    case COMB_T_LIST:
    case COMB_T_MAP:
        h = fnv(h, &v->len[row], 4);
        for (uint32_t e = 0; e < v->len[row]; e++)
            for (int i = 0; i < t->n_children; i++)
                h = value_hash(h, t->children[i], &v->children[i],
                               (int)(v->off[row] + e));
        return h;
    case COMB_T_UNION:
        h = fnv(h, &v->tag[row], 1);
        return value_hash(h, t->children[v->tag[row]],
                          &v->children[v->tag[row]], row);
    default:
        return fnv(h, &v->i64[row], 8);
    }
}

static uint64_t batch_row_hash(const CombType *root, const CombBatch *b,
                               int row)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int c = 0; c < b->n_cols; c++)
        h = value_hash(h, orc_batch_col_type(root, c), &b->cols[c], row);
    return h;
}

static uint64_t row_hash(const OrcReader *r, const CombBatch *b, int row)
{
    return batch_row_hash(orc_reader_schema(r), b, row);
}

/* Hashes of every row of the file, read straight through. */
static uint64_t *full_hashes(const char *path, uint64_t *n, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    if (orc_test_reader_open(path, 1000, &r, &b, err))
        return NULL;
    uint64_t *h = malloc((orc_reader_n_rows(r) + 1) * sizeof *h);
    *n = 0;
    while (h && orc_reader_next(r, &b, err) == COMB_OK && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++)
            h[(*n)++] = row_hash(r, &b, i);
    comb_batch_free(&b);
    orc_reader_close(r);
    return h;
}

/* ------------------------------------------------------ skipping scans */

typedef struct Pattern {
    int mode;            /* 0: one group (stripe s, group g); 1: random;
                            2: every g-th group */
    int stripe;
    uint32_t group;
    uint64_t seed;
} Pattern;

static int pattern_filter(void *ctx, OrcReader *r, int stripe,
                          uint32_t n_groups, uint8_t *keep, CombErr *err)
{
    Pattern *p = ctx;
    (void)r;
    (void)err;
    for (uint32_t g = 0; g < n_groups; g++)
        keep[g] = p->mode == 0   ? stripe == p->stripe && g == p->group
                  : p->mode == 2 ? g % p->group == 0
                                 : (orc_test_rand(&p->seed) & 3) != 0;
    return COMB_OK;
}

/* Scan with the pattern; every row returned must be the full scan's row
 * of that number and lie in a kept group; *rows = rows returned. */
/* With `tolerate`, a read error naming the file counts as a pass (a
 * damaged index may fail the scan, never give wrong rows). */
static bool tolerate_errors;

static bool scan_matches(const char *path, Pattern *p, const uint64_t *want,
                         uint64_t n_want, uint64_t *rows, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    bool ok = true;
    *rows = 0;
    if (orc_test_reader_open(path, 333, &r, &b, err))
        return false;
    orc_reader_set_filter(r, pattern_filter, p);
    for (;;) {
        int rc = orc_reader_next(r, &b, err);
        if (rc) {
            ok = tolerate_errors && strstr(err->msg, path) != NULL;
            if (!ok)
                printf("    %s: %s\n", path, err->msg);
            break;
        }
        if (b.n_rows == 0)
            break;
        uint64_t first = orc_reader_batch_row(r);
        for (int i = 0; i < b.n_rows && ok; i++) {
            if (first + (uint64_t)i >= n_want ||
                row_hash(r, &b, i) != want[first + (uint64_t)i]) {
                printf("    %s: row %llu differs (pattern %d, stripe %d "
                       "group %u)\n", path,
                       (unsigned long long)(first + (uint64_t)i), p->mode,
                       p->stripe, p->group);
                ok = false;
            }
        }
        *rows += (uint64_t)b.n_rows;
        if (!ok)
            break;
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    return ok;
}

/* Each row group read alone (up to `max_groups` of them, spread over the
 * file) and three random patterns give the full scan's rows. */
static bool check_seeks(const char *path, int max_groups, CombErr *err)
{
    uint64_t n = 0, rows;
    uint64_t *want = full_hashes(path, &n, err);
    OrcReader *r;
    bool ok = want != NULL;
    if (!ok || orc_reader_open(path, &r, err)) {
        free(want);
        return false;
    }
    uint32_t stride = orc_reader_row_index_stride(r);
    int total = 0, step;
    for (int s = 0; s < orc_reader_n_stripes(r); s++)
        total += (int)orc_reader_stripe_groups(r, s);
    step = total / max_groups + 1;
    for (int s = 0, k = 0; s < orc_reader_n_stripes(r) && ok; s++) {
        uint32_t ng = orc_reader_stripe_groups(r, s);
        OrcStripeInfo si;
        orc_reader_stripe_info(r, s, &si);
        for (uint32_t g = 0; g < ng && ok; g++, k++) {
            if (k % step)
                continue;
            Pattern p = {0, s, g, 0};
            ok = scan_matches(path, &p, want, n, &rows, err);
            uint64_t expect = stride == 0 ? si.n_rows
                              : si.n_rows - (uint64_t)g * stride < stride
                                  ? si.n_rows - (uint64_t)g * stride
                                  : stride;
            if (ok && rows != expect) {
                printf("    %s: stripe %d group %u gave %llu rows, want "
                       "%llu\n", path, s, g, (unsigned long long)rows,
                       (unsigned long long)expect);
                ok = false;
            }
        }
    }
    for (uint64_t seed = 1; seed <= 3 && ok; seed++) {
        Pattern p = {1, 0, 0, seed * 0x9e3779b97f4a7c15ull};
        ok = scan_matches(path, &p, want, n, &rows, err);
    }
    orc_reader_close(r);
    free(want);
    return ok;
}

/* Files of ORC Java and C++ with row indexes in the shared test data:
 * every kind, RLE v1 and v2, dictionaries, all codecs. */
static const char *const indexed_files[] = {
    "TestOrcFile.testSeek.orc",
    "TestOrcFile.testPredicatePushdown.orc",
    "TestOrcFile.columnProjection.orc",
    "TestOrcFile.testUnionAndTimestamp.orc",
    "TestOrcFile.testStripeLevelStats.orc",
    "TestOrcFile.testSnappy.orc",
    "TestOrcFile.testDate1900.orc",
    "TestStringDictionary.testRowIndex.orc",
    "TestVectorOrcFile.testLz4.orc",
    "TestVectorOrcFile.testZstd.0.12.orc",
    "TestVectorOrcFile.testLzo.orc",
    "nulls-at-end-snappy.orc",
    "orc_index_int_string.orc",
    "orc-file-11-format.orc",
    "demo-11-zlib.orc",
    "demo-12-zlib.orc",
    "decimal.orc",
    "over1k_bloom.orc",
    "orc_split_elim_cpp.orc",
    "orc_split_elim_new.orc",
};

TEST(orc_index_seek_shared_files)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err = {0};
    for (size_t i = 0; i < sizeof indexed_files / sizeof *indexed_files;
         i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "orc/%s", indexed_files[i]);
        if (!check_seeks(orc_test_path(0, rel), 40, &err))
            unit_fail(__FILE__, __LINE__, "%s: seeks differ: %s",
                      indexed_files[i], err.msg);
    }
}

/* ----------------------------------------------------------- bloom filters */

/* Whether the filter may hold row `row` of v (type t); true when the kind
 * has no filter test. */
static bool bloom_has_row(const OrcBloom *b, const CombType *t,
                          const CombVector *v, int row)
{
    switch (t->kind) {
    case COMB_T_BOOLEAN:
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        return orc_bloom_might_contain_long(b, v->i64[row]);
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return orc_bloom_might_contain_double(b, v->f64[row]);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return orc_bloom_might_contain_string(b, v->str[row].ptr,
                                              v->str[row].len);
    case COMB_T_DECIMAL:
        return orc_bloom_might_contain_decimal(b, v->dec[row], (int)t->scale);
    case COMB_T_TIMESTAMP:
        return orc_bloom_might_contain_timestamp(b, v->i64[row],
                                                 v->nanos[row]);
    default:
        return true;
    }
}

/* Every non-null value of a top-level column with bloom filters tests
 * positive in its row group's filter; *checked = values tested. */
static bool blooms_hold_rows(const char *path, uint64_t *checked,
                             CombErr *err)
{
    OrcReader *r, *ix;
    CombBatch b;
    bool ok = true;
    *checked = 0;
    if (orc_test_reader_open(path, 500, &r, &b, err))
        return false;
    if (orc_reader_open(path, &ix, err)) {
        comb_batch_free(&b);
        orc_reader_close(r);
        return false;
    }
    const CombType *root = orc_reader_schema(r);
    uint32_t stride = orc_reader_row_index_stride(r);
    int stripe = -1;
    uint64_t row0 = 0, stripe_end = 0;
    const OrcStripeIndex *x = NULL;
    while (ok && orc_reader_next(r, &b, err) == COMB_OK && b.n_rows > 0) {
        uint64_t first = orc_reader_batch_row(r);
        while (first >= stripe_end) {
            OrcStripeInfo si;
            orc_reader_stripe_info(r, ++stripe, &si);
            row0 = stripe_end;
            stripe_end += si.n_rows;
            if (orc_reader_stripe_index(ix, stripe, NULL, true, &x, err))
                ok = false;
        }
        for (int c = 0; c < b.n_cols && ok; c++) {
            const CombType *t = orc_batch_col_type(root, c);
            for (int i = 0; i < b.n_rows && ok; i++) {
                int g = (int)((first + (uint64_t)i - row0) / stride);
                const OrcBloom *bf = orc_stripe_index_bloom(x, t->id, g);
                if (!bf || comb_vec_is_null(&b.cols[c], i))
                    continue;
                (*checked)++;
                if (!bloom_has_row(bf, t, &b.cols[c], i)) {
                    printf("    %s: row %llu column %d not in its bloom "
                           "filter\n", path,
                           (unsigned long long)(first + (uint64_t)i), t->id);
                    ok = false;
                }
            }
        }
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    orc_reader_close(ix);
    return ok;
}

/* The filters of ORC C++ 1.6.0-1.6.11 hash inconsistently and Hive 1.2's
 * pre-release ones do not parse: the reader offers none of them (so
 * push-down keeps every group), as ORC C++'s reader ignores them. */
TEST(orc_bloom_untrusted_filters_ignored)
{
    static const char *const files[] = {"bad_bloom_filter_1.6.0.orc",
                                        "bad_bloom_filter_1.6.11.orc",
                                        "over1k_bloom.orc"};
    if (unit_skip_without_testdata())
        return;
    CombErr err = {0};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char rel[256];
        uint64_t checked;
        OrcReader *r;
        const OrcStripeIndex *x;
        snprintf(rel, sizeof rel, "orc/%s", files[i]);
        CHECK_OK(orc_reader_open(orc_test_path(0, rel), &r, &err), &err);
        CHECK_OK(orc_reader_stripe_index(r, 0, NULL, true, &x, &err), &err);
        for (int c = 0; c < orc_reader_n_columns(r); c++)
            CHECK(orc_stripe_index_bloom(x, c, 0) == NULL);
        CHECK(orc_stripe_index_has(x, 1));
        orc_reader_close(r);
        CHECK(blooms_hold_rows(orc_test_path(0, rel), &checked, &err));
        CHECK_EQ(checked, 0);
    }
}

/* ------------------------------------------------------- comb's own files */

enum {
    K_B = 1, K_T, K_S, K_I, K_L, K_F, K_D, K_LO, K_HI, K_VC, K_CH, K_BIN,
    K_DEC, K_DEC38, K_DT, K_TS, K_ARR, K_ARR_E, K_MAP, K_MAP_K, K_MAP_V,
    K_ST, K_ST_X, K_ST_Y, K_COLS
};

static CombType *all_kinds(CombArena *a)
{
    CombType *root = comb_type_new(a, COMB_T_STRUCT);
    CombType *arr = comb_type_new(a, COMB_T_LIST);
    CombType *map = comb_type_new(a, COMB_T_MAP);
    CombType *st = comb_type_new(a, COMB_T_STRUCT);
    comb_type_add_field(a, arr, NULL, comb_type_new(a, COMB_T_INT));
    comb_type_add_field(a, map, NULL, comb_type_new(a, COMB_T_STRING));
    comb_type_add_field(a, map, NULL, comb_type_new(a, COMB_T_BIGINT));
    comb_type_add_field(a, st, "x", comb_type_new(a, COMB_T_INT));
    comb_type_add_field(a, st, "y", comb_type_new(a, COMB_T_STRING));
    comb_type_add_field(a, root, "b", comb_type_new(a, COMB_T_BOOLEAN));
    comb_type_add_field(a, root, "t", comb_type_new(a, COMB_T_TINYINT));
    comb_type_add_field(a, root, "s", comb_type_new(a, COMB_T_SMALLINT));
    comb_type_add_field(a, root, "i", comb_type_new(a, COMB_T_INT));
    comb_type_add_field(a, root, "l", comb_type_new(a, COMB_T_BIGINT));
    comb_type_add_field(a, root, "f", comb_type_new(a, COMB_T_FLOAT));
    comb_type_add_field(a, root, "d", comb_type_new(a, COMB_T_DOUBLE));
    comb_type_add_field(a, root, "lo", comb_type_new(a, COMB_T_STRING));
    comb_type_add_field(a, root, "hi", comb_type_new(a, COMB_T_STRING));
    comb_type_add_field(a, root, "vc", comb_type_sized(a, COMB_T_VARCHAR, 10));
    comb_type_add_field(a, root, "ch", comb_type_sized(a, COMB_T_CHAR, 5));
    comb_type_add_field(a, root, "bin", comb_type_new(a, COMB_T_BINARY));
    comb_type_add_field(a, root, "dec", comb_type_decimal(a, 10, 2));
    comb_type_add_field(a, root, "dec38", comb_type_decimal(a, 38, 6));
    comb_type_add_field(a, root, "dt", comb_type_new(a, COMB_T_DATE));
    comb_type_add_field(a, root, "ts", comb_type_new(a, COMB_T_TIMESTAMP));
    comb_type_add_field(a, root, "arr", arr);
    comb_type_add_field(a, root, "m", map);
    comb_type_add_field(a, root, "st", st);
    return root;
}

/* Deterministic values of row r; NULLs in patterns that leave some
 * stripes without a PRESENT stream (i never NULL, l only late). */
static bool gen_null(long r, int col)
{
    uint64_t h = (uint64_t)r * 0x9e3779b97f4a7c15ull ^ (uint64_t)col * 77;
    h ^= h >> 29;
    if (col == K_I)
        return false;
    if (col == K_L)
        return r >= 12000 && h % 5 == 0;
    return h % 9 == 0;
}

typedef struct GenBuf {
    char text[500][6][24];
} GenBuf;

static void put_str(CombVector *v, int i, char *buf, int len)
{
    v->str[i] = (CombStr){buf, (uint32_t)len};
}

static void gen_scalars(const CombBatch *b, const CombType *root, int i,
                        long r, GenBuf *g)
{
    uint64_t x = (uint64_t)r * 0xd1b54a32d192ed03ull;
    x ^= x >> 31;
    orc_test_col(b, root, K_B)->i64[i] = r % 3 == 0;
    orc_test_col(b, root, K_T)->i64[i] = (int8_t)(r * 7);
    orc_test_col(b, root, K_S)->i64[i] = (int16_t)(r * 31);
    orc_test_col(b, root, K_I)->i64[i] = r * 3 - 5000;
    orc_test_col(b, root, K_L)->i64[i] = (int64_t)x;
    orc_test_col(b, root, K_F)->f64[i] = (float)((double)r * 0.5f);
    orc_test_col(b, root, K_D)->f64[i] = (double)(int64_t)(x >> 20) / 7.0;
    put_str(orc_test_col(b, root, K_LO), i, g->text[i][0],
            snprintf(g->text[i][0], 24, "k%ld", r % 50));
    put_str(orc_test_col(b, root, K_HI), i, g->text[i][1],
            snprintf(g->text[i][1], 24, "v%016llx", (unsigned long long)x));
    put_str(orc_test_col(b, root, K_VC), i, g->text[i][2],
            snprintf(g->text[i][2], 24, "vc%ld", r % 1000));
    put_str(orc_test_col(b, root, K_CH), i, g->text[i][3],
            snprintf(g->text[i][3], 24, "c%ld", r % 7));
    memcpy(g->text[i][4], &x, 8);
    put_str(orc_test_col(b, root, K_BIN), i, g->text[i][4], (int)(r % 5));
    orc_test_col(b, root, K_DEC)->dec[i] = (comb_i128)(r * 101 - 12345);
    orc_test_col(b, root, K_DEC38)->dec[i] =
        (comb_i128)(int64_t)x * 1000000007 * (r % 2 ? 1 : -1);
    orc_test_col(b, root, K_DT)->i64[i] = r - 20000;
    orc_test_col(b, root, K_TS)->i64[i] =
        r % 10 == 0 ? -86400 - r * 1000 : 1600000000 + r * 37;
    orc_test_col(b, root, K_TS)->nanos[i] = (int32_t)((r * 123457) % 1000000000);
}

static void gen_compound(const CombBatch *b, const CombType *root, int i,
                         long r, GenBuf *g, int *n_arr, int *n_map)
{
    CombVector *arr = orc_test_col(b, root, K_ARR);
    CombVector *map = orc_test_col(b, root, K_MAP);
    CombVector *st = orc_test_col(b, root, K_ST);
    arr->off[i] = (uint32_t)*n_arr;
    arr->len[i] = (uint32_t)(r % 4);
    for (long e = 0; e < r % 4; e++) {
        comb_vec_set_not_null(&arr->children[0], *n_arr);
        arr->children[0].i64[(*n_arr)++] = r + e;
    }
    map->off[i] = (uint32_t)*n_map;
    map->len[i] = (uint32_t)(r % 3);
    for (long e = 0; e < r % 3; e++) {
        comb_vec_set_not_null(&map->children[0], *n_map);
        comb_vec_set_not_null(&map->children[1], *n_map);
        put_str(&map->children[0], *n_map, g->text[i][5] + 8 * e,
                snprintf(g->text[i][5] + 8 * e, 8, "m%ld", (r + e) % 9));
        map->children[1].i64[(*n_map)++] = r * 1000 + e;
    }
    st->children[0].i64[i] = r;
    comb_vec_set_not_null(&st->children[0], i);
    comb_vec_set_not_null(&st->children[1], i);
    put_str(&st->children[1], i, g->text[i][3] + 12,
            snprintf(g->text[i][3] + 12, 12, "y%ld", r % 13));
}

/* Write `rows` rows of every kind; hashes[r] gets each row's hash. */
static int write_kinds(const char *name, const OrcWriterOptions *opt,
                       long rows, char *path, uint64_t *hashes, CombErr *err)
{
    CombArena a;
    OrcWriter *w;
    CombBatch b;
    GenBuf *g = malloc(sizeof *g);
    comb_arena_init(&a, 4096);
    CombType *root = all_kinds(&a);
    int rc = g ? orc_test_writer_open(name, root, opt, 500, path, &w, &b, err)
               : COMB_ENOMEM;
    if (!rc && (comb_vec_reserve(&orc_test_col(&b, root, K_ARR)->children[0],
                                 1500) ||
                comb_vec_reserve(&orc_test_col(&b, root, K_MAP)->children[0],
                                 1000) ||
                comb_vec_reserve(&orc_test_col(&b, root, K_MAP)->children[1],
                                 1000)))
        rc = COMB_ENOMEM;
    for (long r0 = 0; r0 < rows && !rc; r0 += 500) {
        int n = rows - r0 < 500 ? (int)(rows - r0) : 500, n_arr = 0, n_map = 0;
        for (int i = 0; i < n; i++) {
            long r = r0 + i;
            gen_scalars(&b, root, i, r, g);
            gen_compound(&b, root, i, r, g, &n_arr, &n_map);
            for (int c = 1; c < K_COLS; c++) {
                CombVector *v = orc_test_col(&b, root, c);
                if (c == K_ARR_E || c == K_MAP_K || c == K_MAP_V ||
                    c == K_ST_X || c == K_ST_Y)
                    continue;
                if (gen_null(r, c))
                    comb_vec_set_null(v, i);
                else
                    comb_vec_set_not_null(v, i);
            }
        }
        b.n_rows = n;
        for (int i = 0; i < n; i++)
            hashes[r0 + i] = batch_row_hash(root, &b, i);
        rc = orc_writer_write(w, &b, err);
    }
    if (g && rc == COMB_OK)
        rc = orc_writer_close(w, err);
    else if (g)
        orc_writer_abort(w);
    if (g)
        comb_batch_free(&b);
    comb_arena_free(&a);
    free(g);
    return rc;
}

/* Row group statistics of the sorted int column i: count, min, max of
 * each group. */
static bool group_stats_right(const char *path, long rows, CombErr *err)
{
    OrcReader *r;
    const OrcStripeIndex *x;
    uint64_t row0 = 0;
    if (orc_reader_open(path, &r, err))
        return false;
    uint32_t stride = orc_reader_row_index_stride(r);
    bool ok = stride > 0;
    for (int s = 0; s < orc_reader_n_stripes(r) && ok; s++) {
        OrcStripeInfo si;
        orc_reader_stripe_info(r, s, &si);
        ok = orc_reader_stripe_index(r, s, NULL, false, &x, err) == COMB_OK;
        for (uint32_t g = 0; ok && g < orc_stripe_index_groups(x); g++) {
            OrcColumnStats st;
            int64_t first = (int64_t)(row0 + (uint64_t)g * stride);
            int64_t n = (int64_t)si.n_rows - (int64_t)g * stride;
            n = n < stride ? n : stride;
            ok = orc_stripe_index_stats(x, K_I, (int)g, &st) == COMB_OK &&
                 st.has_int && (int64_t)st.n_values == n &&
                 st.int_min == first * 3 - 5000 &&
                 st.int_max == (first + n - 1) * 3 - 5000;
            if (!ok)
                printf("    %s: stripe %d group %u statistics wrong\n", path,
                       s, g);
        }
        row0 += si.n_rows;
    }
    ok = ok && (long)row0 == rows;
    orc_reader_close(r);
    return ok;
}

static const OrcCompression all_codecs[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                            ORC_COMP_SNAPPY, ORC_COMP_LZ4,
                                            ORC_COMP_ZSTD};

/* Every kind, every codec, with small chunks (positions inside chunks and
 * on their boundaries), several stripes, a stride that cuts batches:
 * rows read back equal, each group read alone after a seek equals the
 * full scan, group statistics are the group's, and every value tests
 * positive in its group's bloom filter. */
TEST(orc_index_comb_files_every_kind_and_codec)
{
    enum { ROWS = 9000 };
    static const int blooms[] = {K_B, K_T, K_S, K_I, K_L, K_F, K_D, K_LO,
                                 K_HI, K_VC, K_CH, K_BIN, K_DEC, K_DEC38,
                                 K_DT, K_TS, K_ARR, K_MAP_K, K_ST_Y};
    uint64_t *want = malloc(ROWS * sizeof *want);
    CombErr err = {0};
    CHECK(want);
    for (size_t c = 0; c < sizeof all_codecs / sizeof *all_codecs; c++) {
        char path[ORC_TEST_PATH_LEN], name[32];
        OrcWriterOptions opt;
        uint64_t n = 0, checked = 0;
        orc_writer_options_default(&opt);
        opt.compression = all_codecs[c];
        opt.compression_block_size = 1024 + 512 * c;
        opt.stripe_size = 96 * 1024;
        opt.row_index_stride = c % 2 ? 777 : 1000;
        opt.bloom_columns = blooms;
        opt.n_bloom_columns = (int)(sizeof blooms / sizeof *blooms);
        opt.bloom_fpp = 0.01;
        snprintf(name, sizeof name, "kinds%zu.orc", c);
        CHECK_OK(write_kinds(name, &opt, ROWS, path, want, &err), &err);
        uint64_t *got = full_hashes(path, &n, &err);
        CHECK(got);
        CHECK_EQ(n, ROWS);
        bool same = memcmp(got, want, ROWS * sizeof *got) == 0;
        free(got);
        CHECK(same);
        CHECK(check_seeks(path, 1000, &err));
        CHECK(group_stats_right(path, ROWS, &err));
        CHECK(blooms_hold_rows(path, &checked, &err));
        CHECK(checked > ROWS * 10);
    }
    free(want);
}

/* Damaged index streams (bytes of the index section overwritten, chunk
 * headers included): the file still reads whole and equal, and a scan
 * that skips row groups gives exactly the full scan's rows for what it
 * returns, or fails naming the file; never wrong rows. */
TEST(orc_index_damaged_streams)
{
    enum { ROWS = 3000 };
    static const int blooms[] = {K_I, K_HI, K_D};
    uint64_t *want = malloc(ROWS * sizeof *want), seed = 0x51ed;
    CombErr err = {0};
    CHECK(want);
    for (size_t c = 0; c < 3; c++) {
        char path[ORC_TEST_PATH_LEN], bad[ORC_TEST_PATH_LEN + 8], name[32];
        OrcWriterOptions opt;
        OrcReader *r;
        OrcStripeInfo si;
        orc_writer_options_default(&opt);
        opt.compression = all_codecs[c * 2];
        opt.compression_block_size = 2048;
        opt.row_index_stride = 300;
        opt.bloom_columns = blooms;
        opt.n_bloom_columns = 3;
        snprintf(name, sizeof name, "damaged%zu.orc", c);
        CHECK_OK(write_kinds(name, &opt, ROWS, path, want, &err), &err);
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        orc_reader_stripe_info(r, 0, &si);
        orc_reader_close(r);
        CHECK(si.index_length > 100);
        long size = orc_test_file_size(path);
        snprintf(bad, sizeof bad, "%s.bad", path);
        for (int k = 0; k < 40; k++) {
            CHECK_EQ(orc_test_copy_prefix(path, bad, (size_t)size), 0);
            FILE *f = fopen(bad, "r+b");
            CHECK(f);
            for (int j = 0; j <= k % 3; j++) {
                uint64_t at = si.offset + orc_test_rand(&seed) % si.index_length;
                fseek(f, (long)at, SEEK_SET);
                fputc((int)(orc_test_rand(&seed) & 0xff), f);
            }
            fclose(f);
            uint64_t n = 0, rows;
            uint64_t *got = full_hashes(bad, &n, &err);
            CHECK(got);
            bool same = n == ROWS && !memcmp(got, want, ROWS * sizeof *got);
            free(got);
            CHECK(same);
            Pattern p = {1, 0, 0, seed};
            tolerate_errors = true;
            bool ok = scan_matches(bad, &p, want, ROWS, &rows, &err);
            tolerate_errors = false;
            CHECK(ok);
        }
    }
    free(want);
}

/* What a scan of some groups read against a full scan's: less than a
 * factor-th of its bytes and of its chunks decompressed. */
static void check_share(const char *what, const OrcReadCounters *part,
                        const OrcReadCounters *all, unsigned factor)
{
    printf("    %s: bytes read %llu of %llu, chunks decompressed %llu of "
           "%llu\n", what, (unsigned long long)part->bytes_read,
           (unsigned long long)all->bytes_read,
           (unsigned long long)part->chunks_decompressed,
           (unsigned long long)all->chunks_decompressed);
    CHECK(part->bytes_read * factor < all->bytes_read);
    CHECK(part->chunks_decompressed * factor < all->chunks_decompressed);
}

/* What a skipping scan reads: one group of one stripe of a zstd file
 * reads a small part of its bytes, skipped stripes are not read, and the
 * counters add up; a filter that keeps nothing reads no stripe. */
TEST(orc_index_skip_counters)
{
    enum { ROWS = 20000 };
    uint64_t *want = malloc(ROWS * sizeof *want), rows = 0;
    CombErr err = {0};
    char path[ORC_TEST_PATH_LEN];
    OrcWriterOptions opt;
    OrcReadCounters all, one;
    CHECK(want);
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_ZSTD;
    opt.compression_block_size = 4096;
    opt.stripe_size = 256 * 1024;
    opt.row_index_stride = 1000;
    CHECK_OK(write_kinds("count.orc", &opt, ROWS, path, want, &err), &err);
    for (int mode = 0; mode < 3; mode++) {
        OrcReader *r;
        CombBatch b;
        Pattern p = {0, 1, 2, 0};
        CHECK_OK(orc_test_reader_open(path, 1000, &r, &b, &err), &err);
        if (mode == 1)
            orc_reader_set_filter(r, pattern_filter, &p);
        if (mode == 2) {
            p.stripe = -1;
            orc_reader_set_filter(r, pattern_filter, &p);
        }
        rows = 0;
        while (orc_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0) {
            for (int i = 0; i < b.n_rows; i++)
                CHECK(row_hash(r, &b, i) ==
                      want[orc_reader_batch_row(r) + (uint64_t)i]);
            rows += (uint64_t)b.n_rows;
        }
        int n_stripes = orc_reader_n_stripes(r);
        uint32_t groups = 0;
        for (int s = 0; s < n_stripes; s++)
            groups += orc_reader_stripe_groups(r, s);
        orc_reader_counters(r, mode == 0 ? &all : &one);
        comb_batch_free(&b);
        orc_reader_close(r);
        CHECK(n_stripes >= 3);
        if (mode == 0) {
            CHECK_EQ(rows, ROWS);
            CHECK_EQ(all.stripes_read, n_stripes);
            CHECK_EQ(all.groups_read, groups);
            CHECK_EQ(all.groups_skipped, 0);
        } else if (mode == 1) {
            CHECK_EQ(rows, 1000);
            CHECK_EQ(one.stripes_read, 1);
            CHECK_EQ(one.stripes_skipped, n_stripes - 1);
            CHECK_EQ(one.groups_read, 1);
            CHECK_EQ(one.groups_skipped, groups - 1);
            check_share("one group", &one, &all, 5);
        } else {
            CHECK_EQ(rows, 0);
            CHECK_EQ(one.stripes_read, 0);
            CHECK_EQ(one.bytes_read, 0);
            CHECK_EQ(one.groups_skipped, groups);
        }
    }
    free(want);
}

/* Scan path keeping every step-th row group (every group for step 1):
 * the rows must be the full scan's; what was read in *k. */
static void scan_every(const char *path, uint32_t step, const uint64_t *want,
                       uint64_t *rows, OrcReadCounters *k)
{
    OrcReader *r;
    CombBatch b;
    CombErr err = {0};
    Pattern p = {2, 0, step, 0};
    *rows = 0;
    CHECK_OK(orc_test_reader_open(path, 1000, &r, &b, &err), &err);
    orc_reader_set_filter(r, pattern_filter, &p);
    while (orc_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0) {
        for (int i = 0; i < b.n_rows; i++)
            CHECK(row_hash(r, &b, i) ==
                  want[orc_reader_batch_row(r) + (uint64_t)i]);
        *rows += (uint64_t)b.n_rows;
    }
    CHECK_EQ(err.code, COMB_OK);
    orc_reader_counters(r, k);
    comb_batch_free(&b);
    orc_reader_close(r);
}

/* Kept row groups read only the bytes they need: groups sharing a
 * compression chunk (or an uncompressed piece) read and decompress it
 * once, so a scan of some groups never reads more than the stripe, and
 * with small chunks it reads about its share of the stripe. */
TEST(orc_index_kept_groups_read_their_share)
{
    enum { ROWS = 40000 };
    static const struct { OrcCompression codec; uint64_t block; } cases[] = {
        {ORC_COMP_ZLIB, 256 * 1024}, {ORC_COMP_ZLIB, 8 * 1024},
        {ORC_COMP_NONE, 256 * 1024}};
    uint64_t *want = malloc(ROWS * sizeof *want), rows;
    CombErr err = {0};
    char path[ORC_TEST_PATH_LEN];
    CHECK(want);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        OrcWriterOptions opt;
        OrcReadCounters full, half, eighth;
        OrcStripeInfo si;
        OrcReader *r;
        orc_writer_options_default(&opt);
        opt.compression = cases[i].codec;
        opt.compression_block_size = cases[i].block;
        opt.row_index_stride = 1000;
        CHECK_OK(write_kinds("share.orc", &opt, ROWS, path, want, &err), &err);
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        CHECK_EQ(orc_reader_n_stripes(r), 1);
        CHECK_OK(orc_reader_stripe_info(r, 0, &si), &err);
        orc_reader_close(r);
        uint64_t stripe = si.index_length + si.data_length + si.footer_length;
        scan_every(path, 1, want, &rows, &full);
        CHECK_EQ(rows, ROWS);
        scan_every(path, 2, want, &rows, &half);
        CHECK_EQ(rows, ROWS / 2);
        scan_every(path, 8, want, &rows, &eighth);
        CHECK_EQ(rows, ROWS / 8);
        printf("    %s, %llu KiB chunks: stripe %llu bytes; read: all groups "
               "%llu, every 2nd %llu, every 8th %llu; chunks decompressed "
               "%llu, %llu, %llu\n", orc_compression_name(cases[i].codec),
               (unsigned long long)(cases[i].block / 1024),
               (unsigned long long)stripe,
               (unsigned long long)full.bytes_read,
               (unsigned long long)half.bytes_read,
               (unsigned long long)eighth.bytes_read,
               (unsigned long long)full.chunks_decompressed,
               (unsigned long long)half.chunks_decompressed,
               (unsigned long long)eighth.chunks_decompressed);
        CHECK(half.bytes_read <= stripe);
        CHECK(eighth.bytes_read <= half.bytes_read);
        CHECK(half.chunks_decompressed <= full.chunks_decompressed);
        /* streams of a few bytes per group share their chunks */
        if (cases[i].block == 8 * 1024)
            CHECK(eighth.bytes_read * 2 < full.bytes_read);
    }
    free(want);
}

/* Distinct doubles; ctx gets each row's hash. */
static void fill_doubles(void *ctx, const CombType *root, CombBatch *b)
{
    uint64_t *want = ctx;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].f64[i] = (double)i * 1.25;
    for (int i = 0; i < b->n_rows; i++)
        want[i] = batch_row_hash(root, b, i);
}

/* A stream of about a chunk per row group: keeping every 20th group
 * reads about a twentieth of it (each kept group's chunks and the one
 * holding the next group's start), where reading ahead from the first
 * chunk once read nearly all of it. */
TEST(orc_index_kept_groups_read_in_proportion)
{
    enum { ROWS = 100000 };
    uint64_t *want = malloc(ROWS * sizeof *want), rows;
    CombErr err = {0};
    char path[ORC_TEST_PATH_LEN];
    OrcReadCounters full, some;
    CHECK(want);
    OrcWriterOptions opt;
    orc_writer_options_default(&opt);
    opt.compression_block_size = 8 * 1024;  /* about a row group each */
    opt.row_index_stride = 1000;
    CHECK_OK(orc_test_write_column("doubles.orc", "d", COMB_T_DOUBLE, &opt,
                                   ROWS, fill_doubles, want, path, &err), &err);
    scan_every(path, 1, want, &rows, &full);
    CHECK_EQ(rows, ROWS);
    scan_every(path, 20, want, &rows, &some);
    CHECK_EQ(rows, ROWS / 20);
    check_share("every 20th group", &some, &full, 8);
    free(want);
}
