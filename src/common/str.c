/*
 * str.c - small string helpers.
 */
#include "common/str.h"

bool comb_digits_to_i64(const char *s, size_t n, int64_t *out)
{
    int64_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        int d = s[i] - '0';
        if (d < 0 || d > 9 || v > (INT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}
