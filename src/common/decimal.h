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

/* 10^n for 0 <= n <= 38 (0 outside that range). */
comb_i128 comb_dec_pow10(int n);

/* Number of decimal digits of |u| (0 has 1). */
int comb_dec_digits(comb_i128 u);

/* True when u has at most `precision` digits (|u| < 10^precision). */
bool comb_dec_fits(comb_i128 u, int precision);

/*
 * Parse decimal text as Hive's HiveDecimal.create(String) reads it: blanks
 * around it (only ' ', not tabs), an optional sign, digits with an
 * optional '.' (one digit at least), an optional exponent (e/E, sign, at
 * most two significant digits: "1e-100" is not a number, "1e-99" is 0).
 * Like Hive it first keeps 38 significant digits of the mantissa (counted
 * from the first non-zero integer digit, or from the first fraction digit),
 * rounding HALF_UP on the 39th, and drops fraction digits beyond 38 after
 * the exponent; that value is then rounded HALF_UP to `scale` fraction
 * digits (so "0.4" followed by 37 nines and a 5 is 1 at scale 0, as in
 * Hive).  False when the text is not a number, its integer part needs
 * more than 38 digits, or the rounded value does.
 */
bool comb_dec_parse(const char *s, size_t n, int scale, comb_i128 *out);

/*
 * The same text with its own precision and scale, as Hive types a decimal
 * literal: HiveDecimal.create normalizes, so trailing fraction zeros go
 * (1.50BD is decimal(2,1) and 0.00BD decimal(1,0) in Hive, not (3,2)),
 * the scale is at least 0 ("1e3" is 1000, scale 0), precision =
 * max(digits, scale) and at least 1 (0.05 is decimal(2,2)).  Values
 * needing more than 38 digits are rounded HALF_UP to 38 digits by dropping
 * fraction digits, as HiveDecimal does; false when the integer part alone
 * has more than 38 digits or the text is not a number.
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
 * ("1.50" for 150 at scale 2, "-0.05", "0.000").  Like snprintf it keeps
 * what fits in cap bytes, NUL-terminated, and returns the full length (64
 * bytes always suffice for scales 0..38).
 */
size_t comb_dec_format(comb_i128 u, int scale, char *buf, size_t cap);
/* The same without trailing fraction zeros (nor a '.' left bare), as
 * HiveDecimal prints a normalized value: 150 at scale 2 is "1.5".  A
 * result cut short by cap is left as comb_dec_format cut it. */
size_t comb_dec_format_normalized(comb_i128 u, int scale, char *buf,
                                  size_t cap);

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
 * scale max(sa, sb), exactly.  False when b is 0 (or, for scales far
 * outside 0..38, on overflow; with 38-digit operands the remainder always
 * fits).
 */
bool comb_dec_mod(comb_i128 a, int sa, comb_i128 b, int sb, comb_i128 *out);

/* The nearest double to u / 10^scale. */
double comb_dec_to_double(comb_i128 u, int scale);

/*
 * A double as a decimal at `scale`: Hive parses Double.toString(d) with
 * HiveDecimal's parser, so this parses the double's shortest round-trip
 * text (0.1 is exactly 0.1) by comb_dec_parse's rules, rounding HALF_UP.
 * False for NaN, infinities, values beyond 38 digits, and - as in Hive,
 * whose exponent may have only two digits - non-zero values below 1e-99.
 * Java before 19 prints a few doubles with more digits than the shortest
 * (1e23 as 9.999999999999999E22); those differ from Hive in the last
 * digits.
 */
bool comb_dec_from_double(double d, int scale, comb_i128 *out);

/* u / 10^scale truncated toward zero as an int64; false if out of range. */
bool comb_dec_to_int64(comb_i128 u, int scale, int64_t *out);

/* The big-endian two's-complement bytes of u, minimal length (Java's
 * BigInteger.toByteArray: 0 is {0x00}, 128 is {0x00, 0x80}); returns the
 * length (1..16).  HiveDecimal values are normalized (no trailing
 * fraction zeros); bucketing callers normalize u the same way first
 * (hive-acid-storage.md 7). */
int comb_dec_to_bytes(comb_i128 u, unsigned char out[16]);

#endif
