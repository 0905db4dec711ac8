/*
 * value.h - how single values print, compare and copy, shared by the
 * executor and the result printers of cli/ and server/.  Formats follow
 * Hive (Java): doubles print as Double.toString does (1.0, 0.001, 1.0E7),
 * booleans as true/false, DECIMAL(p,s) with exactly s fraction digits,
 * DATE as yyyy-MM-dd, TIMESTAMP as yyyy-MM-dd HH:mm:ss[.f...], arrays, maps
 * and structs as the JSON text of Hive's SerDeUtils.getJSONString.
 *
 * Vectors of DECIMAL, array, map, struct and uniontype values must carry
 * their type (CombVector.type): the scale and the parts come from it.
 */
#ifndef COMB_SQL_VALUE_H
#define COMB_SQL_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/buf.h"

/* Java's Double.toString / Float.toString.  Returns the length. */
size_t sql_format_double(double d, char *buf, size_t n);
size_t sql_format_float(float f, char *buf, size_t n);

/* A non-string, non-NULL primitive value of vector v at row as Hive
 * prints it (booleans, numbers, DECIMAL with its type's scale, DATE,
 * TIMESTAMP).  Returns the length written (always NUL-terminated,
 * truncated to n-1; 64 bytes always suffice). */
size_t sql_format_scalar(CombTypeKind kind, const CombVector *v, int row,
                         char *buf, size_t n);

/* Row `row` of v as Hive's command line prints a column: NULL as "NULL",
 * strings and binary values as their bytes (invalid UTF-8 in a BINARY as
 * U+FFFD, as Hive's Text decoding gives), complex values as JSON with
 * quoted strings, dates and timestamps, "null" inside, and DECIMALs inside
 * without trailing fraction zeros (HiveDecimal.toString).  Appends to out;
 * 0 or COMB_ENOMEM. */
int sql_format_value(const CombVector *v, int row, CombBuf *out);

/* Java's Double.compare: a total order with -0.0 before 0.0 and NaN (any
 * NaN) after +Infinity.  Hive sorts, groups, takes MIN/MAX and tests IN
 * lists in this order; the comparison operators use IEEE rules. */
int sql_double_cmp(double a, double b);

/* Byte-wise comparison (Hive compares strings as UTF-8 bytes). */
int sql_str_cmp(CombStr a, CombStr b);

/* Order of two non-NULL values of one type (DECIMALs may differ in scale:
 * they compare exactly): numbers by value (doubles as sql_double_cmp),
 * strings and binary bytewise, timestamps by seconds then nanos, arrays
 * and structs element by element (a shorter array that is a prefix comes
 * first), maps and unions by their parts in order.  A NULL inside sorts
 * before other values when nested_nulls_first, else after. */
int sql_value_cmp(const CombVector *x, int xr, const CombVector *y, int yr,
                  bool nested_nulls_first);

/* The type tree of a kind that takes no parameters (static, shared);
 * NULL for decimal, array, map, struct and uniontype. */
const CombType *sql_kind_type(CombTypeKind kind);

/* True for the types Hive can order (no map anywhere inside). */
bool sql_type_orderable(const CombType *t);

/* SQL LIKE: % any run, _ any one character, backslash escapes. */
bool sql_like_match(CombStr s, CombStr pattern);

/*
 * A vector being filled row by row with values of any type: for arrays and
 * maps, how many child rows are taken (and the same for every descendant),
 * so values are appended to their children.  The vector must own its
 * arrays (comb_vec_init), since children grow.  Strings are borrowed.
 */
typedef struct SqlVecFill {
    CombVector *v;
    int used;                   /* child rows taken (array, map) */
    struct SqlVecFill *kids;    /* one per child of v */
} SqlVecFill;

/* Fill state for v (allocated in arena a).  0 or COMB_ENOMEM. */
int sql_fill_init(SqlVecFill *f, CombVector *v, CombArena *a);
/* Start over: no child rows taken, no NULLs. */
void sql_fill_reset(SqlVecFill *f);
/* Row drow of f's vector := row srow of src (same type; NULL copies as
 * NULL).  0 or COMB_ENOMEM. */
int sql_fill_copy(SqlVecFill *f, int drow, const CombVector *src, int srow);
/* Row drow := NULL. */
void sql_fill_null(SqlVecFill *f, int drow);
/* Make room for `rows` rows in f's vector (and its struct/union parts).
 * 0 or COMB_ENOMEM. */
int sql_fill_reserve(SqlVecFill *f, int rows);

#endif
