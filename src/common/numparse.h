/*
 * numparse.h - numbers from text as Hive (Java) reads them.  Shared by
 * sql/ (CAST, implicit conversions: sql/func/convert.h) and text/ (fields of
 * text files read by LazySimpleSerDe), which differ only in whether blanks
 * around an integer are allowed.  Pure functions, no allocation.
 *
 * Sources of the rules (facts only): serde2.lazy.LazyInteger / LazyLong /
 * LazyShort / LazyByte / LazyDouble / LazyFloat, LazyUtils.isNumberMaybe,
 * and the grammar of Java's Double.valueOf(String).
 */
#ifndef COMB_NUMPARSE_H
#define COMB_NUMPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/types.h"

/* Smallest and largest value of an integer kind (tinyint .. bigint; any
 * other kind is treated as bigint). */
int64_t comb_int_min(CombTypeKind kind);
int64_t comb_int_max(CombTypeKind kind);

/*
 * s[0..n) as an integer of `kind`, as LazyInteger.parseInt /
 * LazyLong.parseLong read it after LazyUtils.isNumberMaybe's quick
 * refusal of the untrimmed text (empty, one non-digit, two non-digits,
 * four characters starting with N/n): an optional sign, decimal digits,
 * and an optional '.' followed by digits only, which is dropped ("1.5"
 * is 1, "1." is 1, ".5" is 0).  With `trim`, blanks around the number
 * (Java's trim: every byte up to ' ') are ignored, as Hive's CAST does;
 * the text file reader does not trim (" 1" is not a number there).
 * False when the text is not such a number or the value is outside the
 * kind's range (Hive gives NULL).
 */
bool comb_parse_int(const char *s, size_t n, CombTypeKind kind, bool trim,
                    int64_t *out);

/*
 * s[0..n) as a double (or, with is_float, a float rounded once from the
 * decimal text), as Java's Double.parseDouble / Float.parseFloat read it
 * after isNumberMaybe: surrounding blanks (Java's trim), optional sign,
 * "NaN", "Infinity", decimal or hexadecimal ("0x1.8p1") digits, an
 * exponent, an optional f/F/d/D suffix.  False otherwise ("inf", "1e",
 * "  ", "1,5") and for texts of 512 bytes or more after trimming.
 */
bool comb_parse_double(const char *s, size_t n, bool is_float, double *out);

#endif
