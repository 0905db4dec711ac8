/*
 * hll.h - a HyperLogLog sketch of distinct values, the NDV estimate that
 * column statistics keep so that the statistics of two inserts merge
 * correctly (Hive keeps such bit vectors in TAB_COL_STATS.BIT_VECTOR).
 *
 * 2^14 one-byte registers (standard error 1.04/sqrt(16384) = 0.8%), 64-bit
 * hashes: no large-range correction is needed.  Small cardinalities are
 * counted by linear counting over the empty registers (HLL++'s threshold
 * for 14 bits, 11500), which is exact in practice for a few hundred values:
 * tests may rely on that, not on the raw estimate above it.
 *
 * The serialized form is comb's own ("CHLL", version byte, precision byte,
 * the registers), not Hive's HLL encoding: a sketch read back that is not of
 * this form is rejected, and the caller then treats the NDV as unknown.
 */
#ifndef COMB_HLL_H
#define COMB_HLL_H

#include <stddef.h>
#include <stdint.h>

#define COMB_HLL_P 14
#define COMB_HLL_M (1u << COMB_HLL_P)
/* Bytes of comb_hll_serialize's output. */
#define COMB_HLL_SERIALIZED_LEN (6u + COMB_HLL_M)

typedef struct CombHll {
    uint8_t reg[COMB_HLL_M];
} CombHll;

void comb_hll_init(CombHll *h);
/* Values are added by their 64-bit hash; the helpers hash the value first.
 * Equal values must be added through the same helper to count once. */
void comb_hll_add_hash(CombHll *h, uint64_t hash);
void comb_hll_add_bytes(CombHll *h, const void *data, size_t len);
void comb_hll_add_i64(CombHll *h, int64_t v);
/* -0.0 counts as 0.0 and every NaN as one value, as SQL equality sees them. */
void comb_hll_add_double(CombHll *h, double v);
/* dst becomes the sketch of the union of both inputs. */
void comb_hll_merge(CombHll *dst, const CombHll *src);
uint64_t comb_hll_estimate(const CombHll *h);

/* out must hold COMB_HLL_SERIALIZED_LEN bytes. */
void comb_hll_serialize(const CombHll *h, uint8_t *out);
/* 0, or -1 when data is not a sketch of this form (h is then untouched). */
int comb_hll_deserialize(CombHll *h, const uint8_t *data, size_t len);

/* The 64-bit hash the helpers use (a murmur-style mix over 8-byte words). */
uint64_t comb_hll_hash64(const void *data, size_t len);

#endif
