/*
 * hash.h - Hive's bucketing hashes.
 *
 * Hive 3+ tables (bucketing_version 2) hash each clustering column with
 * Murmur3 x86_32, seed 104729, whose 1-3 byte tail is combined sign-extended
 * (unlike reference MurmurHash3).  The bucket of a row is
 * (hash & 0x7FFFFFFF) % n_buckets with hash = 31*hash + h(col) over the
 * CLUSTERED BY columns; NULL contributes 0.
 */
#ifndef COMB_HASH_H
#define COMB_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hive's Murmur3.hash32(bytes, len) with its default seed. */
int32_t comb_hive_murmur3(const void *data, size_t len);

/* Per-type h(value) for bucketing version 2. */
int32_t comb_hive_hash_int(int32_t v);      /* 4 bytes big-endian */
int32_t comb_hive_hash_bigint(int64_t v);   /* 8 bytes big-endian */
int32_t comb_hive_hash_smallint(int16_t v); /* 2 bytes big-endian */
int32_t comb_hive_hash_double(double v);    /* Hive's long->double quirk */
int32_t comb_hive_hash_float(float v);      /* Hive's int->float quirk */
int32_t comb_hive_hash_string(const char *s, size_t len);
int32_t comb_hive_hash_boolean(int v);      /* 1 / 0, not hashed */

/* Combine per-column hashes: hash = 31*hash + h (int32 wrap). */
static inline int32_t comb_hive_hash_combine(int32_t hash, int32_t h)
{
    return (int32_t)((uint32_t)hash * 31u + (uint32_t)h);
}

/* Bucket number of a combined hash. */
static inline int comb_hive_bucket(int32_t hash, int n_buckets)
{
    return (int)((hash & 0x7FFFFFFF) % n_buckets);
}

#endif
