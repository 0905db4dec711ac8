/*
 * bloom.c - ORC's bloom filters, bit for bit as ORC Java and ORC C++ build
 * and test them (the specification's "Bloom Filter Index"): m bits (the
 * optimal count for the expected entries and false-positive rate, rounded
 * up past a multiple of 64) and k hash functions derived from one 64-bit
 * hash h as hash1 + i * hash2 (the two 32-bit halves, i = 1..k, negative
 * combinations bit-flipped, modulo m).  Bytes hash with Murmur3's 64-bit
 * variant (seed 104729, ORC's), longs with Thomas Wang's 64-bit integer
 * hash, doubles as the long of their bits.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/hash.h"

#include <math.h>
#include <string.h>

#define MURMUR_SEED 104729u
#define MURMUR_C1 0x87c37b91114253d5ull
#define MURMUR_C2 0x4cf5ad432745937full

static uint64_t rotl64(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

static uint64_t mix_k(uint64_t k)
{
    k *= MURMUR_C1;
    k = rotl64(k, 31);
    return k * MURMUR_C2;
}

uint64_t orc_murmur3_64(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = MURMUR_SEED, k = 0;
    size_t blocks = len / 8, tail = len % 8;
    for (size_t i = 0; i < blocks; i++) {
        uint64_t w;
        memcpy(&w, p + 8 * i, 8);  /* little-endian, as the spec reads it */
        h ^= mix_k(w);
        h = rotl64(h, 27) * 5 + 0x52dce729;
    }
    p += 8 * blocks;
    for (size_t i = tail; i > 0; i--)
        k ^= (uint64_t)p[i - 1] << (8 * (i - 1));
    if (tail)
        h ^= mix_k(k);
    /* Java's `hash ^= length` with an int length */
    h ^= (uint64_t)(uint32_t)len;
    return comb_fmix64(h);
}

/* Arithmetic shift right, as Java's >> on a long. */
static uint64_t sar(uint64_t v, int n)
{
    return (uint64_t)((int64_t)v >> n);
}

uint64_t orc_long_hash(int64_t v)
{
    uint64_t key = (uint64_t)v;
    key = ~key + (key << 21);
    key ^= sar(key, 24);
    key = key + (key << 3) + (key << 8);
    key ^= sar(key, 14);
    key = key + (key << 2) + (key << 4);
    key ^= sar(key, 28);
    key += key << 31;
    return key;
}

/* The bit of the i-th hash function. */
static uint64_t bloom_bit(uint64_t h, uint32_t i, uint64_t n_bits)
{
    uint32_t combined = (uint32_t)h + i * (uint32_t)(h >> 32);
    if (combined & 0x80000000u)
        combined = ~combined;
    return combined % n_bits;
}

void orc_bloom_add_hash(uint64_t *bits, uint64_t n_bits, uint32_t n_hash,
                        uint64_t h)
{
    for (uint32_t i = 1; i <= n_hash; i++) {
        uint64_t b = bloom_bit(h, i, n_bits);
        bits[b / 64] |= 1ull << (b % 64);
    }
}

static bool bloom_test_hash(const OrcBloom *b, uint64_t h)
{
    if (!b || b->n_bits == 0)
        return true;
    for (uint32_t i = 1; i <= b->n_hash; i++) {
        uint64_t bit = bloom_bit(h, i, b->n_bits);
        if (!(b->bits[bit / 64] >> (bit % 64) & 1))
            return false;
    }
    return true;
}

uint64_t orc_double_hash(double v)
{
    int64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return orc_long_hash(bits);
}

bool orc_bloom_might_contain_long(const OrcBloom *b, int64_t v)
{
    return bloom_test_hash(b, orc_long_hash(v));
}

bool orc_bloom_might_contain_double(const OrcBloom *b, double v)
{
    return bloom_test_hash(b, orc_double_hash(v));
}

bool orc_bloom_might_contain_string(const OrcBloom *b, const char *p,
                                    size_t len)
{
    return bloom_test_hash(b, orc_murmur3_64(p, len));
}

void orc_bloom_size(uint64_t entries, double fpp, uint64_t *n_bits,
                    uint32_t *n_hash)
{
    double n = (double)(entries ? entries : 1);
    uint64_t nb = (uint64_t)(int32_t)(-n * log(fpp) / (log(2.0) * log(2.0)));
    *n_bits = nb + (64 - nb % 64);
    long k = lround((double)*n_bits / n * log(2.0));
    *n_hash = k < 1 ? 1 : (uint32_t)k;
}

bool orc_bloom_might_contain_decimal(const OrcBloom *b, comb_i128 unscaled,
                                     int scale)
{
    char text[64];
    size_t n = orc_decimal_text(unscaled, scale, text, sizeof text);
    return orc_bloom_might_contain_string(b, text, n);
}

bool orc_bloom_might_contain_timestamp(const OrcBloom *b, int64_t secs,
                                       int32_t nanos)
{
    return orc_bloom_might_contain_long(b, orc_timestamp_bloom_millis(secs,
                                                                      nanos));
}
