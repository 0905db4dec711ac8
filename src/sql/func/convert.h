/*
 * convert.h - Hive's rules for converting one scalar value to another type
 * (CAST, implicit conversions, values assigned to columns).  Hive runs on
 * Java, so its answers are Java's: strings parse as Hive's LazyInteger /
 * LazyLong and Java's Double.parseDouble do, doubles narrow to integers as
 * a Java cast does.  Pure functions, no allocation.
 */
#ifndef COMB_SQL_CONVERT_H
#define COMB_SQL_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/batch.h"

/* Smallest and largest value of an integer kind (tinyint .. bigint). */
int64_t sql_int_min(CombTypeKind kind);
int64_t sql_int_max(CombTypeKind kind);

/* A string as an integer of `kind` (Hive's UDFToByte .. UDFToLong over
 * LazyInteger/LazyLong with trimming): white space around it is ignored,
 * an optional sign, decimal digits, and an optional '.' followed by digits
 * only, which is dropped ("1.5" is 1).  False when the text is not such a
 * number or the value is outside the kind's range (Hive gives NULL). */
bool sql_str_to_int(CombStr s, CombTypeKind kind, int64_t *out);

/* A string as a double (or, with is_float, a float rounded once from the
 * decimal text), as Java's Double.parseDouble / Float.parseFloat read it:
 * surrounding white space, optional sign, "NaN", "Infinity", decimal or
 * hexadecimal ("0x1.8p1") digits, an exponent, an optional f/F/d/D suffix.
 * False otherwise ("inf", "1e", "  ", "1,5"). */
bool sql_str_to_double(CombStr s, bool is_float, double *out);

/* A string as a boolean (Hive's parseBoolean): "false", "off", "no", "0"
 * in any case and the empty string are false, everything else is true. */
bool sql_str_to_boolean(CombStr s);

/* Java's narrowing of a double to an integer kind: NaN is 0, values
 * beyond an int or long saturate, fractions are dropped toward zero, and
 * tinyint / smallint take the low bits of the int result ((byte)(int)d). */
int64_t sql_double_to_int(double d, CombTypeKind kind);

/* True when d (dropping its fraction) is a value of the integer kind:
 * finite and in range.  Values assigned to a column must be. */
bool sql_double_fits_int(double d, CombTypeKind kind);

/* Java's narrowing of a long to a smaller integer kind (low bits). */
int64_t sql_int_wrap(CombTypeKind kind, int64_t v);

#endif
