/*
 * numfmt.h - doubles and floats as Java prints them (Double.toString,
 * Float.toString), which is how Hive shows them on its command line,
 * writes them into text files (LazySimpleSerDe) and casts them to
 * strings: the shortest digits that read back as the value, at least one
 * after the point; plain for 1e-3 <= |x| < 1e7 ("0.001", "100.0",
 * "1234567.0"), else "d.dddE[-]n" ("1.0E7", "1.0E-4"); "NaN",
 * "Infinity", "-Infinity", "-0.0".  Used by sql/ (printing, casts),
 * text/ (writing) and orc/ (dumps).  Pure functions, no allocation.
 */
#ifndef COMB_NUMFMT_H
#define COMB_NUMFMT_H

#include <stddef.h>

/* Like snprintf: keeps what fits in n bytes, NUL-terminated, and returns
 * the full length (32 bytes always suffice). */
size_t comb_format_double(double d, char *buf, size_t n);
/* The same for a float: the shortest digits that read back as f. */
size_t comb_format_float(float f, char *buf, size_t n);

#endif
