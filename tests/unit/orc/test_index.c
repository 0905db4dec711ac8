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

static uint64_t row_hash(const OrcReader *r, const CombBatch *b, int row)
{
    const CombType *root = orc_reader_schema(r);
    uint64_t h = 0xcbf29ce484222325ull;
    for (int c = 0; c < b->n_cols; c++)
        h = value_hash(h, orc_batch_col_type(root, c), &b->cols[c], row);
    return h;
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
    int mode;            /* 0: one group (stripe s, group g); 1: random */
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
        keep[g] = p->mode == 0
                      ? stripe == p->stripe && g == p->group
                      : (orc_test_rand(&p->seed) & 3) != 0;
    return COMB_OK;
}

/* Scan with the pattern; every row returned must be the full scan's row
 * of that number and lie in a kept group; *rows = rows returned. */
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
            printf("    %s: %s\n", path, err->msg);
            ok = false;
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
    char text[64];
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
    case COMB_T_DECIMAL: {
        size_t n = orc_decimal_text(v->dec[row], (int)t->scale, text,
                                    sizeof text);
        return orc_bloom_might_contain_string(b, text, n);
    }
    case COMB_T_TIMESTAMP:
        return orc_bloom_might_contain_long(
            b, v->i64[row] * 1000 + v->nanos[row] / 1000000);
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
