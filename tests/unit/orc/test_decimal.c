/*
 * test_decimal.c - DECIMAL columns read back exactly as written: values of
 * precision 18, 19 and 38 whose varints take 1 to 17 bytes, negative
 * values, NULLs, stored scales that change from value to value (the
 * writer trims trailing fraction zeros), and compression chunks small
 * enough that runs of the reader's 64-bit path stop at window ends and
 * single values take the 128-bit path in between.
 */
#include "orc_test.h"
#include "unit.h"
#include "common/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 30000, BATCH = 1000, N_DEC = 3 };

static const struct { uint32_t precision, scale; } dec_types[N_DEC] = {
    {18, 4}, {19, 4}, {38, 10}};

/* 10^p - 1, the largest magnitude of precision p */
static comb_i128 max_of(uint32_t p)
{
    return comb_dec_pow10((int)p) - 1;
}

/* Row g's value of column c: every 7th row NULL; the first rows the edges
 * (0, +-1, varint length steps at 2^(7k), the precision's largest); then
 * magnitudes of 1 to 127 random bits within the precision, times a power
 * of ten now and then (so the stored scale moves), of either sign. */
static bool value_of(int c, int g, comb_i128 *out)
{
    const comb_i128 max = max_of(dec_types[c].precision);
    uint64_t seed = ((uint64_t)g * N_DEC + (uint64_t)c + 1) * 0x9e3779b97f4a7c15ull;
    uint64_t *rnd = &seed;
    if (g % 7 == 3)
        return false;
    if (g < 2 * 19) {
        int k = g / 2;
        comb_i128 m = k == 0 ? 0 : k == 1 ? 1 : k == 18 ? max
                    : ((comb_i128)1 << (7 * (k - 1))) - (g % 4 == 0);
        m = m > max ? max : m;
        *out = g % 2 ? -m : m;
        return true;
    }
    unsigned bits = (unsigned)(orc_test_rand(rnd) % 127) + 1;
    unsigned __int128 m = ((unsigned __int128)orc_test_rand(rnd) << 64) |
                          orc_test_rand(rnd);
    m >>= 128 - bits;
    comb_i128 v = (comb_i128)(m % (unsigned __int128)(max + 1));
    int zeros = (int)(orc_test_rand(rnd) % 5);
    if (v < comb_dec_pow10((int)dec_types[c].precision - zeros) / 10)
        v *= comb_dec_pow10(zeros);
    *out = orc_test_rand(rnd) & 1 ? -v : v;
    return true;
}

static void fill_rows(CombBatch *b, int from, int n)
{
    for (int c = 0; c < N_DEC; c++) {
        CombVector *v = &b->cols[c];
        v->has_nulls = false;
        for (int i = 0; i < n; i++) {
            v->nulls[i] = !value_of(c, from + i, &v->dec[i]);
            v->has_nulls |= v->nulls[i];
        }
    }
    b->n_rows = n;
}

static int write_decimals(char *path, CombErr *err)
{
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    char name[4] = "d0";
    comb_arena_init(&a, 4096);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    for (int c = 0; c < N_DEC; c++) {
        name[1] = (char)('0' + c);
        comb_type_add_field(&a, root, name,
                            comb_type_decimal(&a, dec_types[c].precision,
                                              dec_types[c].scale));
    }
    orc_writer_options_default(&opt);
    opt.compression_block_size = 1024;
    int rc = orc_test_writer_open("dec.orc", root, &opt, BATCH, path, &w, &b,
                                  err);
    for (int g = 0; !rc && g < ROWS; g += BATCH) {
        fill_rows(&b, g, BATCH);
        rc = orc_writer_write(w, &b, err);
    }
    if (!rc)
        rc = orc_writer_close(w, err);
    else
        orc_writer_abort(w);
    comb_batch_free(&b);
    comb_arena_free(&a);
    return rc;
}

TEST(orc_decimals_read_as_written)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcReader *r;
    CombBatch b;
    int g = 0, rc;
    CHECK_OK(write_decimals(path, &err), &err);
    CHECK_OK(orc_test_reader_open(path, BATCH, &r, &b, &err), &err);
    while (!(rc = orc_reader_next(r, &b, &err)) && b.n_rows > 0) {
        for (int i = 0; i < b.n_rows; i++, g++)
            for (int c = 0; c < N_DEC; c++) {
                comb_i128 want = 0;
                bool present = value_of(c, g, &want);
                const CombVector *v = &b.cols[c];
                if (comb_vec_is_null(v, i) == present ||
                    (present && v->dec[i] != want)) {
                    unit_fail(__FILE__, __LINE__, "row %d column %d differs",
                              g, c);
                    comb_batch_free(&b);
                    orc_reader_close(r);
                    return;
                }
            }
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK_EQ(g, ROWS);
}

/* The one place of byte sequence pat in the file at path, overwritten by
 * rep (as long); false when it is not there exactly once. */
static bool patch_once(const char *path, const uint8_t *pat,
                       const uint8_t *rep, size_t n)
{
    FILE *f = fopen(path, "r+b");
    long size = orc_test_file_size(path), at = -1;
    uint8_t *buf = size > 0 ? malloc((size_t)size) : NULL;
    bool ok = f && buf && fread(buf, 1, (size_t)size, f) == (size_t)size;
    for (long i = 0; ok && i + (long)n <= size; i++)
        if (!memcmp(buf + i, pat, n)) {
            ok = at < 0;
            at = i;
        }
    ok = ok && at >= 0 && fseek(f, at, SEEK_SET) == 0 &&
         fwrite(rep, 1, n, f) == n;
    free(buf);
    if (f)
        fclose(f);
    return ok;
}

/* A file whose footer gives its decimal(10,2) column precision 5 holds
 * values beyond it: those read as NULL (as Hive reads them), the others
 * as stored, on the 64-bit path and the 128-bit one alike. */
/* One decimal(10,2) column of n rows, uncompressed, at path. */
static int write_narrow(const int64_t *vals, int n, char *path, CombErr *err)
{
    OrcWriterOptions opt;
    OrcWriter *w;
    CombBatch b;
    CombArena a;
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_NONE;
    comb_arena_init(&a, 4096);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "d", comb_type_decimal(&a, 10, 2));
    int rc = orc_test_writer_open("narrow.orc", root, &opt, n, path, &w, &b,
                                  err);
    if (!rc) {
        for (int i = 0; i < n; i++)
            b.cols[0].dec[i] = vals[i];
        b.cols[0].has_nulls = false;
        b.n_rows = n;
        rc = orc_writer_write(w, &b, err);
        rc = rc ? (orc_writer_abort(w), rc) : orc_writer_close(w, err);
        comb_batch_free(&b);
    }
    comb_arena_free(&a);
    return rc;
}

TEST(orc_decimals_beyond_precision_read_as_null)
{
    static const int64_t vals[] = {99999, 100000, -100000, -99999, 1234567890,
                                   1, 0, 999999999, -50};
    enum { N = sizeof vals / sizeof vals[0] };
    /* Type.precision (field 5) 10 then Type.scale (field 6) 2 */
    static const uint8_t p10[] = {0x28, 10, 0x30, 2}, p5[] = {0x28, 5, 0x30, 2};
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombBatch b;
    OrcReader *r;
    CHECK_OK(write_narrow(vals, N, path, &err), &err);
    CHECK(patch_once(path, p10, p5, sizeof p10));
    CHECK_OK(orc_test_reader_open(path, N, &r, &b, &err), &err);
    int rc = orc_reader_next(r, &b, &err);
    bool right = rc == COMB_OK && b.n_rows == N;
    for (int i = 0; right && i < N; i++) {
        bool beyond = vals[i] >= 100000 || vals[i] <= -100000;
        right = comb_vec_is_null(&b.cols[0], i) == beyond &&
                (beyond || b.cols[0].dec[i] == vals[i]);
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK(right);
}
