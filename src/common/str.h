/*
 * str.h - small string helpers shared by layers that parse names and
 * literals (acid/ directory names, sql/ numbers).
 */
#ifndef COMB_STR_H
#define COMB_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exactly n > 0 decimal digits s[0..n) to a non-negative int64; false on a
 * non-digit, an empty run or overflow. */
bool comb_digits_to_i64(const char *s, size_t n, int64_t *out);

#endif
