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
 * smallint, int and date days in version 1) have no function here; dates
 * hash as int days in version 2, binaries as their bytes (Murmur3 in
 * version 2, comb_hive_hash_v1_text in version 1: BytesWritable.hashCode).
 * Arrays, maps and structs combine their parts (acid/bucket.c).
 */
#ifndef COMB_HASH_H
#define COMB_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "common/decimal.h"

/* Murmur3's 64-bit finalizer: every input bit into every output bit (ORC
 * bloom filters, join slots, HyperLogLog hashes). */
uint64_t comb_fmix64(uint64_t h);

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

/* Decimals: the value unscaled at `scale`.  Hive hashes its normalized
 * HiveDecimal (trailing fraction zeros trimmed: 1.50 is 15 at scale 1).
 * Version 2: Murmur3 of the unscaled value's BigInteger.toByteArray bytes;
 * version 1: BigDecimal.hashCode, 31 * BigInteger.hashCode + scale. */
int32_t comb_hive_hash_decimal(comb_i128 unscaled, int scale);
int32_t comb_hive_hash_v1_decimal(comb_i128 unscaled, int scale);

/* Timestamps: wall-clock seconds since 1970 and nanos (0..999999999).
 * Version 2: Murmur3 of TimestampWritableV2's serialized bytes (4 bytes
 * BE of the low 31 bits of the seconds with the top bit flagging more,
 * a Hadoop VLong of the nanos with their 9 digits reversed, a VLong of
 * seconds >> 31 when they do not fit 31 bits); version 1:
 * TimestampWritableV2.hashCode (seconds << 30 | nanos, folded). */
int32_t comb_hive_hash_timestamp(int64_t secs, int32_t nanos);
int32_t comb_hive_hash_v1_timestamp(int64_t secs, int32_t nanos);

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
