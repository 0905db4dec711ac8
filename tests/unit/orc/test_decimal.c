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

#include <stdlib.h>

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
