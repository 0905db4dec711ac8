#include <math.h>

#include "unit.h"
#include "common/hll.h"

/* Sketches are 16 KiB: static, so that a failed CHECK leaks nothing. */
static CombHll sketches[3];

static CombHll *hll_new(int i)
{
    comb_hll_init(&sketches[i]);
    return &sketches[i];
}

/* |estimate - n| within k standard errors (1.04 / sqrt(m)). */
static int within_error(uint64_t est, uint64_t n, double k)
{
    double se = 1.04 / sqrt((double)COMB_HLL_M);
    return fabs((double)est - (double)n) <= k * se * (double)n;
}

TEST(hll_empty_is_zero)
{
    CombHll *h = hll_new(0);
    CHECK_EQ(comb_hll_estimate(h), 0);
}

TEST(hll_small_counts_exact_and_duplicates_once)
{
    CombHll *h = hll_new(0);
    for (int round = 0; round < 3; round++)
        for (int64_t v = -50; v < 150; v++)
            comb_hll_add_i64(h, v);
    CHECK_EQ(comb_hll_estimate(h), 200);
    comb_hll_add_bytes(h, "", 0);
    comb_hll_add_bytes(h, "abc", 3);
    comb_hll_add_bytes(h, "abc", 3);
    CHECK_EQ(comb_hll_estimate(h), 202);
}

TEST(hll_double_zero_signs_and_nans_count_once)
{
    CombHll *h = hll_new(0);
    comb_hll_add_double(h, 0.0);
    comb_hll_add_double(h, -0.0);
    comb_hll_add_double(h, NAN);
    comb_hll_add_double(h, -NAN);
    comb_hll_add_double(h, 1.5);
    CHECK_EQ(comb_hll_estimate(h), 3);
}

TEST(hll_large_within_error)
{
    CombHll *h = hll_new(0);
    for (int64_t v = 0; v < 1000000; v++)
        comb_hll_add_i64(h, v * 7919);
    CHECK(within_error(comb_hll_estimate(h), 1000000, 3.0));
    h = hll_new(0);
    char s[32];
    for (int v = 0; v < 50000; v++) {
        int n = snprintf(s, sizeof s, "key-%d", v);
        comb_hll_add_bytes(h, s, (size_t)n);
    }
    CHECK(within_error(comb_hll_estimate(h), 50000, 3.0));
}

/* The merge of two overlapping inserts equals the sketch of their union. */
TEST(hll_merge_is_union)
{
    CombHll *a = hll_new(0), *b = hll_new(1), *u = hll_new(2);
    for (int64_t v = 0; v < 30000; v++) {
        comb_hll_add_i64(a, v);
        comb_hll_add_i64(u, v);
    }
    for (int64_t v = 20000; v < 60000; v++) {
        comb_hll_add_i64(b, v);
        comb_hll_add_i64(u, v);
    }
    comb_hll_merge(a, b);
    CHECK(memcmp(a->reg, u->reg, COMB_HLL_M) == 0);
    CHECK(within_error(comb_hll_estimate(a), 60000, 3.0));
}

TEST(hll_serialize_roundtrip_and_rejects)
{
    CombHll *h = hll_new(0), *r = hll_new(1);
    for (int64_t v = 0; v < 1000; v++)
        comb_hll_add_i64(h, v);
    static uint8_t buf[COMB_HLL_SERIALIZED_LEN];
    comb_hll_serialize(h, buf);
    CHECK_EQ(comb_hll_deserialize(r, buf, COMB_HLL_SERIALIZED_LEN), 0);
    CHECK(memcmp(h->reg, r->reg, COMB_HLL_M) == 0);
    CHECK_EQ(comb_hll_deserialize(r, buf, COMB_HLL_SERIALIZED_LEN - 1), -1);
    buf[6] = 200; /* a register no 64-bit hash can give */
    CHECK_EQ(comb_hll_deserialize(r, buf, COMB_HLL_SERIALIZED_LEN), -1);
    buf[6] = 0;
    buf[0] = 'H';
    CHECK_EQ(comb_hll_deserialize(r, buf, COMB_HLL_SERIALIZED_LEN), -1);
}
