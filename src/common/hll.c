#include "common/hll.h"
#include "common/hash.h"

#include <math.h>
#include <string.h>

/* Linear counting is the better estimate below this for 14 bits (HLL++). */
#define HLL_LINEAR_THRESHOLD 11500.0

static const uint8_t HLL_MAGIC[4] = {'C', 'H', 'L', 'L'};
#define HLL_FORMAT_VERSION 1

uint64_t comb_hll_hash64(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0x87c37b91114253d5ULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ comb_fmix64(w)) * 0x4cf5ad432745937fULL;
        h = (h << 27) | (h >> 37);
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < len; i++)
        tail |= (uint64_t)p[i] << (8 * i);
    return comb_fmix64(h ^ comb_fmix64(tail ^ 0x52dce729ULL));
}

void comb_hll_init(CombHll *h)
{
    memset(h->reg, 0, sizeof h->reg);
}

void comb_hll_add_hash(CombHll *h, uint64_t hash)
{
    uint32_t idx = (uint32_t)(hash >> (64 - COMB_HLL_P));
    /* The remaining 50 bits, with a sentinel so that rank stays <= 51. */
    uint64_t rest = (hash << COMB_HLL_P) | (1ULL << (COMB_HLL_P - 1));
    uint8_t rank = (uint8_t)(__builtin_clzll(rest) + 1);
    if (rank > h->reg[idx])
        h->reg[idx] = rank;
}

void comb_hll_add_bytes(CombHll *h, const void *data, size_t len)
{
    comb_hll_add_hash(h, comb_hll_hash64(data, len));
}

void comb_hll_add_i64(CombHll *h, int64_t v)
{
    comb_hll_add_hash(h, comb_fmix64((uint64_t)v ^ 0x2545f4914f6cdd1dULL));
}

void comb_hll_add_double(CombHll *h, double v)
{
    if (v == 0.0)
        v = 0.0;
    if (isnan(v))
        v = NAN;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    comb_hll_add_hash(h, comb_fmix64(bits ^ 0x6a09e667f3bcc909ULL));
}

void comb_hll_merge(CombHll *dst, const CombHll *src)
{
    for (uint32_t i = 0; i < COMB_HLL_M; i++)
        if (src->reg[i] > dst->reg[i])
            dst->reg[i] = src->reg[i];
}

uint64_t comb_hll_estimate(const CombHll *h)
{
    const double m = COMB_HLL_M;
    double sum = 0.0;
    uint32_t zeros = 0;
    for (uint32_t i = 0; i < COMB_HLL_M; i++) {
        sum += ldexp(1.0, -(int)h->reg[i]);
        zeros += h->reg[i] == 0;
    }
    if (zeros > 0) {
        double linear = m * log(m / zeros);
        if (linear <= HLL_LINEAR_THRESHOLD)
            return (uint64_t)llround(linear);
    }
    double alpha = 0.7213 / (1.0 + 1.079 / m);
    return (uint64_t)llround(alpha * m * m / sum);
}

void comb_hll_serialize(const CombHll *h, uint8_t *out)
{
    memcpy(out, HLL_MAGIC, sizeof HLL_MAGIC);
    out[4] = HLL_FORMAT_VERSION;
    out[5] = COMB_HLL_P;
    memcpy(out + 6, h->reg, COMB_HLL_M);
}

int comb_hll_deserialize(CombHll *h, const uint8_t *data, size_t len)
{
    if (len != COMB_HLL_SERIALIZED_LEN || memcmp(data, HLL_MAGIC, 4) != 0 ||
        data[4] != HLL_FORMAT_VERSION || data[5] != COMB_HLL_P)
        return -1;
    for (uint32_t i = 0; i < COMB_HLL_M; i++)
        if (data[6 + i] > 64 - COMB_HLL_P + 1)
            return -1;
    memcpy(h->reg, data + 6, COMB_HLL_M);
    return 0;
}
