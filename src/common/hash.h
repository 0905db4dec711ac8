/*
 * hash.h - Hive's bucketing hashes (hive-acid-storage.md section 7).
 *
 * Hive 3+ tables (bucketing_version 2) hash each clustering column with
 * Murmur3 x86_32, seed 104729, whose 1-3 byte tail is combined sign-extended
 * (unlike reference MurmurHash3).  Older tables (bucketing_version 1, or the
 * property absent) use Java hashCode semantics instead.  Either way the
 * bucket of a row is (hash & 0x7FFFFFFF) % n_buckets with
 * hash = 31*hash + h(col) over the CLUSTERED BY columns; NULL contributes 0.
 * Types whose h is the value itself (boolean 1/0, tinyint in both versions;
 * smallint, int and date days in version 1) have no function here.
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

/* Per-type h(value) for bucketing version 1 (ObjectInspectorUtils.hashCode,
 * Java hashCode semantics). */
int32_t comb_hive_hash_v1_bigint(int64_t v);  /* (int)(v ^ v >>> 32) */
int32_t comb_hive_hash_v1_float(float v);     /* floatToIntBits */
int32_t comb_hive_hash_v1_double(double v);   /* doubleToLongBits, folded */
/* string: r = 31*r + b over the UTF-8 bytes as signed bytes, from r = 0. */
int32_t comb_hive_hash_v1_string(const char *s, size_t len);
/* varchar and char (trailing spaces stripped by the caller): Hadoop's
 * Text.hashCode, the same loop but from r = 1. */
int32_t comb_hive_hash_v1_text(const char *s, size_t len);

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
