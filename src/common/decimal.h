/*
 * decimal.h - Hive's DECIMAL(p,s) values as exact scaled integers: a value
 * is an unscaled 128-bit integer u and a scale s, meaning u / 10^s, with at
 * most 38 significant digits (|u| < 10^38).  Rounding is HALF_UP (ties
 * away from zero), as Hive's HiveDecimal rounds.  Used by every layer that
 * touches decimals: the ORC codec (values and statistics), the text format,
 * SQL arithmetic, casts and printing.  Pure functions, no allocation.
 */
#ifndef COMB_DECIMAL_H
#define COMB_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __int128 comb_i128;

#define COMB_DEC_MAX_DIGITS 38

/* 10^n for 0 <= n <= 38. */
comb_i128 comb_dec_pow10(int n);

/* Number of decimal digits of |u| (0 has 1). */
int comb_dec_digits(comb_i128 u);

/* True when u has at most `precision` digits (|u| < 10^precision). */
bool comb_dec_fits(comb_i128 u, int precision);

/*
 * Parse decimal text as Hive's HiveDecimal.create(String) reads it: white
 * space around it, an optional sign, digits with an optional '.', an
 * optional exponent (e/E, sign, digits).  The value is rounded HALF_UP to
 * `scale` fraction digits.  False when the text is not a number or the
 * rounded value needs more than 38 digits.
 */
bool comb_dec_parse(const char *s, size_t n, int scale, comb_i128 *out);

/*
 * The same text with its own precision and scale (literals such as
 * 1.50BD are decimal(3,2)): trailing fraction zeros kept, the scale at
 * least 0 ("1e3" is 1000, scale 0), precision = max(digits, scale) and at
 * least 1.  Values needing more than 38 digits are rounded HALF_UP to 38
 * digits by dropping fraction digits, as HiveDecimal does; false when the
 * integer part alone has more than 38 digits or the text is not a number.
 */
bool comb_dec_parse_exact(const char *s, size_t n, comb_i128 *out,
                          int *precision, int *scale);

/*
 * Change the scale of u from `from` to `to`, rounding HALF_UP when digits
 * are dropped.  False when the result does not fit 38 digits.
 */
bool comb_dec_rescale(comb_i128 u, int from, int to, comb_i128 *out);

/*
 * Print u / 10^scale as Hive does: a '-' for negative values, the integer
 * part (at least "0"), and exactly `scale` fraction digits when scale > 0
 * ("1.50" for 150 at scale 2, "-0.05").  NUL-terminated; returns the
 * length (64 bytes always suffice).
 */
size_t comb_dec_format(comb_i128 u, int scale, char *buf, size_t cap);

/* Compare a / 10^sa with b / 10^sb exactly: -1, 0 or 1. */
int comb_dec_cmp(comb_i128 a, int sa, comb_i128 b, int sb);

/* a + b and a - b at one scale; false on overflow beyond 38 digits. */
bool comb_dec_add(comb_i128 a, comb_i128 b, comb_i128 *out);
bool comb_dec_sub(comb_i128 a, comb_i128 b, comb_i128 *out);

/*
 * (a * b) / 10^drop, rounded HALF_UP, computed exactly (the product may
 * have up to 76 digits).  False when the result does not fit 38 digits.
 */
bool comb_dec_mul(comb_i128 a, comb_i128 b, int drop, comb_i128 *out);

/*
 * (a / 10^sa) / (b / 10^sb) rounded HALF_UP to `scale` fraction digits,
 * exactly.  False when b is 0 or the result does not fit 38 digits.
 */
bool comb_dec_div(comb_i128 a, int sa, comb_i128 b, int sb, int scale,
                  comb_i128 *out);

/*
 * (a / 10^sa) % (b / 10^sb) with the sign of a (Java's remainder), at
 * scale max(sa, sb).  False when b is 0 or on overflow.
 */
bool comb_dec_mod(comb_i128 a, int sa, comb_i128 b, int sb, comb_i128 *out);

/* The nearest double to u / 10^scale. */
double comb_dec_to_double(comb_i128 u, int scale);

/*
 * A double as a decimal at `scale` (Hive converts through the double's
 * shortest decimal text, as BigDecimal.valueOf does: 0.1 is exactly 0.1),
 * rounded HALF_UP.  False for NaN, infinities and values beyond 38 digits.
 */
bool comb_dec_from_double(double d, int scale, comb_i128 *out);

/* u / 10^scale truncated toward zero as an int64; false if out of range. */
bool comb_dec_to_int64(comb_i128 u, int scale, int64_t *out);

/* The big-endian two's-complement bytes of u, minimal length (Java's
 * BigInteger.toByteArray); returns the length (1..16). */
int comb_dec_to_bytes(comb_i128 u, unsigned char out[16]);

#endif
