/*
 * value.h - how single values print and compare, shared by the executor and
 * the result printers of cli/ and server/.  Formats follow Hive (Java):
 * doubles print as Double.toString does (1.0, 0.001, 1.0E7), booleans as
 * true/false.
 */
#ifndef COMB_SQL_VALUE_H
#define COMB_SQL_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/batch.h"

/* Java's Double.toString / Float.toString.  Returns the length. */
size_t sql_format_double(double d, char *buf, size_t n);
size_t sql_format_float(float f, char *buf, size_t n);

/* A non-string, non-NULL value of vector v at row as Hive prints it.
 * Returns the length written (always NUL-terminated, truncated to n-1). */
size_t sql_format_scalar(CombTypeKind kind, const CombVector *v, int row,
                         char *buf, size_t n);

/* Java's Double.compare: a total order with -0.0 before 0.0 and NaN (any
 * NaN) after +Infinity.  Hive sorts, groups, takes MIN/MAX and tests IN
 * lists in this order; the comparison operators use IEEE rules. */
int sql_double_cmp(double a, double b);

/* Byte-wise comparison (Hive compares strings as UTF-8 bytes). */
int sql_str_cmp(CombStr a, CombStr b);

/* SQL LIKE: % any run, _ any one character, backslash escapes. */
bool sql_like_match(CombStr s, CombStr pattern);

#endif
