/*
 * hash.c - Hive's Murmur3 variant and per-type bucketing hashes
 * (hive-acid-storage.md section 7).  Version 2 follows Hive's
 * ObjectInspectorUtils.hashCodeMurmur, version 1 its hashCode
 * (serde/src/java/org/apache/hadoop/hive/serde2/objectinspector/
 * ObjectInspectorUtils.java).
 */
#include "common/hash.h"

#include <stdbool.h>
#include <string.h>

#define MURMUR_SEED 104729u

static uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

static uint32_t murmur_mix_k(uint32_t k)
{
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    return k;
}

int32_t comb_hive_murmur3(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t h = MURMUR_SEED, k;
    size_t n_blocks = len / 4, i;

    for (i = 0; i < n_blocks; i++) {
        const unsigned char *b = p + i * 4;
        k = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
            (uint32_t)b[3] << 24;
        h ^= murmur_mix_k(k);
        h = rotl32(h, 13);
        h = h * 5 + 0xe6546b64u;
    }
    /* Hive combines the tail bytes sign-extended (Java byte arithmetic);
     * shifted as unsigned, since shifting a negative int is undefined in C */
    k = 0;
    p += n_blocks * 4;
    switch (len & 3) {
    case 3:
        k ^= (uint32_t)(int32_t)(int8_t)p[2] << 16;
        /* fall through */
    case 2:
        k ^= (uint32_t)(int32_t)(int8_t)p[1] << 8;
        /* fall through */
    case 1:
        k ^= (uint32_t)(int32_t)(int8_t)p[0];
        h ^= murmur_mix_k(k);
    }
    h ^= (uint32_t)len;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return (int32_t)h;
}

static void put_be(unsigned char *out, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        out[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}

int32_t comb_hive_hash_int(int32_t v)
{
    unsigned char b[4];
    put_be(b, (uint32_t)v, 4);
    return comb_hive_murmur3(b, 4);
}

int32_t comb_hive_hash_smallint(int16_t v)
{
    unsigned char b[2];
    put_be(b, (uint16_t)v, 2);
    return comb_hive_murmur3(b, 2);
}

int32_t comb_hive_hash_bigint(int64_t v)
{
    unsigned char b[8];
    put_be(b, (uint64_t)v, 8);
    return comb_hive_murmur3(b, 8);
}

/* Java's Double.doubleToLongBits: the IEEE bits, every NaN made canonical. */
static int64_t double_to_long_bits(double v)
{
    int64_t bits;
    if (v != v)
        return 0x7ff8000000000000LL;
    memcpy(&bits, &v, 8);
    return bits;
}

/* Java's Float.floatToIntBits, likewise. */
static int32_t float_to_int_bits(float v)
{
    int32_t bits;
    if (v != v)
        return 0x7fc00000;
    memcpy(&bits, &v, 4);
    return bits;
}

int32_t comb_hive_hash_double(double v)
{
    /* Java: doubleToLongBits, then the long is widened back to a double
     * and those 8 IEEE bytes are hashed */
    double widened = (double)double_to_long_bits(v);
    uint64_t out;
    unsigned char b[8];
    memcpy(&out, &widened, 8);
    put_be(b, out, 8);
    return comb_hive_murmur3(b, 8);
}

int32_t comb_hive_hash_float(float v)
{
    float widened = (float)float_to_int_bits(v);
    uint32_t out;
    unsigned char b[4];
    memcpy(&out, &widened, 4);
    put_be(b, out, 4);
    return comb_hive_murmur3(b, 4);
}

int32_t comb_hive_hash_string(const char *s, size_t len)
{
    return comb_hive_murmur3(s, len);
}

int32_t comb_hive_hash_boolean(int v)
{
    return v ? 1 : 0;
}

/* Version 1: Java's Long.hashCode. */
int32_t comb_hive_hash_v1_bigint(int64_t v)
{
    uint64_t u = (uint64_t)v;
    return (int32_t)(uint32_t)(u ^ (u >> 32));
}

int32_t comb_hive_hash_v1_float(float v)
{
    return float_to_int_bits(v);
}

int32_t comb_hive_hash_v1_double(double v)
{
    return comb_hive_hash_v1_bigint(double_to_long_bits(v));
}

/* r = 31*r + b over bytes taken as Java's signed bytes, int32 wraparound. */
static int32_t java_bytes_hash(uint32_t r, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        r = r * 31u + (uint32_t)(int32_t)(int8_t)s[i];
    return (int32_t)r;
}

int32_t comb_hive_hash_v1_string(const char *s, size_t len)
{
    /* Hive hashes a STRING's Text bytes itself, starting from 0 */
    return java_bytes_hash(0, s, len);
}

int32_t comb_hive_hash_v1_text(const char *s, size_t len)
{
    /* HiveVarcharWritable / HiveCharWritable.hashCode is Text.hashCode
     * (HiveCharWritable on the value without its trailing spaces), which
     * is Hadoop's WritableComparator.hashBytes: the loop from 1 */
    return java_bytes_hash(1, s, len);
}

/* A decimal as Hive's normalized HiveDecimal holds it. */
static comb_i128 trim_decimal(comb_i128 u, int *scale)
{
    while (*scale > 0 && u % 10 == 0) {
        u /= 10;
        (*scale)--;
    }
    return u;
}

int32_t comb_hive_hash_decimal(comb_i128 unscaled, int scale)
{
    unsigned char bytes[16];
    int n = comb_dec_to_bytes(trim_decimal(unscaled, &scale), bytes);
    return comb_hive_murmur3(bytes, (size_t)n);
}

int32_t comb_hive_hash_v1_decimal(comb_i128 unscaled, int scale)
{
    comb_i128 u = trim_decimal(unscaled, &scale);
    unsigned __int128 mag = u < 0 ? -(unsigned __int128)u
                                  : (unsigned __int128)u;
    uint32_t h = 0;
    bool started = false;
    /* BigInteger.hashCode: 31*h + word over the magnitude's 32-bit words,
     * most significant first, leading zero words skipped; times signum */
    for (int w = 3; w >= 0; w--) {
        uint32_t word = (uint32_t)(mag >> (32 * w));
        if (!word && !started)
            continue;
        started = true;
        h = h * 31u + word;
    }
    if (u < 0)
        h = 0u - h;
    return (int32_t)(h * 31u + (uint32_t)scale);
}

/* Hadoop's WritableUtils.writeVLong; returns the bytes written. */
static int put_vlong(unsigned char *out, int64_t v)
{
    int len = -112, n = 0;
    uint64_t u;
    if (v >= -112 && v <= 127) {
        out[0] = (unsigned char)(int8_t)v;
        return 1;
    }
    if (v < 0) {
        v = ~v;
        len = -120;
    }
    u = (uint64_t)v;
    for (uint64_t t = u; t; t >>= 8)
        len--;
    out[n++] = (unsigned char)(int8_t)len;
    int bytes = len < -120 ? -(len + 120) : -(len + 112);
    for (int i = bytes; i > 0; i--)
        out[n++] = (unsigned char)(u >> (8 * (i - 1)));
    return n;
}

int32_t comb_hive_hash_timestamp(int64_t secs, int32_t nanos)
{
    unsigned char b[4 + 2 * 9];
    int64_t reversed = 0;
    int n = 4;
    bool second_vint = secs < 0 || secs > INT32_MAX;
    for (int i = 0, v = nanos; nanos && i < 9; i++, v /= 10)
        reversed = reversed * 10 + v % 10;
    uint32_t first = (uint32_t)secs;
    first = reversed || second_vint ? first | 0x80000000u
                                    : first & 0x7fffffffu;
    put_be(b, first, 4);
    if (reversed || second_vint)
        n += put_vlong(b + n, second_vint ? -reversed - 1 : reversed);
    if (second_vint)  /* an arithmetic shift, written out for C */
        n += put_vlong(b + n, secs >= 0 ? secs >> 31 : ~(~secs >> 31));
    return comb_hive_murmur3(b, (size_t)n);
}

int32_t comb_hive_hash_v1_timestamp(int64_t secs, int32_t nanos)
{
    uint64_t s = (uint64_t)secs << 30 | (uint64_t)(uint32_t)nanos;
    return (int32_t)(uint32_t)((s >> 32) ^ s);
}

uint64_t comb_fmix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}
