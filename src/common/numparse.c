/*
 * numparse.c - Hive's (Java's) number parsing; see numparse.h.
 */
#include "common/numparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int64_t comb_int_min(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_TINYINT: return INT8_MIN;
    case COMB_T_SMALLINT: return INT16_MIN;
    case COMB_T_INT: return INT32_MIN;
    default: return INT64_MIN;
    }
}

int64_t comb_int_max(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_TINYINT: return INT8_MAX;
    case COMB_T_SMALLINT: return INT16_MAX;
    case COMB_T_INT: return INT32_MAX;
    default: return INT64_MAX;
    }
}

/* Java's String.trim: every char up to ' ' counts as space. */
static void trim_java(const char **s, size_t *n)
{
    while (*n > 0 && (unsigned char)(*s)[0] <= ' ') {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && (unsigned char)(*s)[*n - 1] <= ' ')
        (*n)--;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* LazyUtils.isNumberMaybe: a quick refusal Hive applies to the untrimmed
 * text before parsing (so " " and "  " are not numbers, nor "NULL"). */
static bool number_maybe(const char *s, size_t n)
{
    switch (n) {
    case 0: return false;
    case 1: return is_digit(s[0]);
    case 2: return is_digit(s[0]) || is_digit(s[1]);
    case 4: return s[0] != 'N' && s[0] != 'n';
    default: return true;
    }
}

bool comb_parse_int(const char *s, size_t n, CombTypeKind kind, bool trim,
                    int64_t *out)
{
    uint64_t mag = 0, limit;
    bool neg = false;
    size_t i = 0;
    if (!number_maybe(s, n))
        return false;
    if (trim)
        trim_java(&s, &n);
    if (n == 0)
        return false;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        if (n == 1)
            return false;
        i = 1;
    }
    limit = neg ? (uint64_t)0 - (uint64_t)comb_int_min(kind)
                : (uint64_t)comb_int_max(kind);
    for (; i < n && s[i] != '.'; i++) {
        if (!is_digit(s[i]))
            return false;
        /* checked before the multiplication: 20 digits wrap a uint64 */
        if (mag > (limit - (uint64_t)(s[i] - '0')) / 10)
            return false;
        mag = mag * 10 + (uint64_t)(s[i] - '0');
    }
    /* the fraction must be digits, and is dropped */
    for (i = i < n ? i + 1 : i; i < n; i++)
        if (!is_digit(s[i]))
            return false;
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return true;
}

/* Length of a run of digits (hex when `hex`) at p[0..n). */
static size_t digit_run(const char *p, size_t n, bool hex)
{
    size_t i = 0;
    while (i < n && (is_digit(p[i]) ||
                     (hex && ((p[i] >= 'a' && p[i] <= 'f') ||
                              (p[i] >= 'A' && p[i] <= 'F')))))
        i++;
    return i;
}

/* Does t[0..n) match Java's floating-point literal grammar (after the
 * sign, without the f/d suffix)?  Decimal: digits [. digits] [e [+-]
 * digits], one digit at least; hexadecimal: 0x hexdigits [. hexdigits]
 * p [+-] digits, the binary exponent required. */
static bool java_number_syntax(const char *t, size_t n)
{
    bool hex = n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    size_t i = hex ? 2 : 0, whole, frac = 0;
    whole = digit_run(t + i, n - i, hex);
    i += whole;
    if (i < n && t[i] == '.') {
        i++;
        frac = digit_run(t + i, n - i, hex);
        i += frac;
    }
    if (whole + frac == 0)
        return false;
    if (i < n && (hex ? (t[i] == 'p' || t[i] == 'P')
                      : (t[i] == 'e' || t[i] == 'E'))) {
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        if (digit_run(t + i, n - i, false) == 0)
            return false;
        i += digit_run(t + i, n - i, false);
    } else if (hex) {
        return false;
    }
    return i == n;
}

/* Digits with at most one '.', no exponent, as an integer below 2^53
 * over a power of ten up to 1e22: both are exact doubles, so the one
 * division rounds correctly, as strtod would (Clinger's fast path). */
static bool simple_decimal(const char *s, size_t n, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                   1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                   1e18, 1e19, 1e20, 1e21, 1e22};
    const uint64_t limit = (uint64_t)1 << 53;
    uint64_t m = 0;
    int frac = -1;
    size_t digits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9' || m > (limit - 9) / 10)
            return false;
        m = m * 10 + (uint64_t)(s[i] - '0');
        digits++;
        frac += frac >= 0;
    }
    if (digits == 0 || frac > 22)
        return false;
    *out = (double)m / pow10[frac > 0 ? frac : 0];
    return true;
}

bool comb_parse_double(const char *s, size_t len, bool is_float, double *out)
{
    char buf[512];
    size_t start = 0, n;
    bool neg = false;
    if (!number_maybe(s, len))
        return false;
    trim_java(&s, &len);
    if (len == 0 || len >= sizeof buf)
        return false;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        start = 1;
    }
    n = len - start;
    if (n == 3 && memcmp(s + start, "NaN", 3) == 0) {
        *out = NAN;
        return true;
    }
    if (n == 8 && memcmp(s + start, "Infinity", 8) == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return true;
    }
    /* a type suffix is allowed after a number, not after NaN/Infinity */
    if (n > 1 && strchr("fFdD", s[len - 1]) &&
        !(n > 2 && (s[start + 1] == 'x' || s[start + 1] == 'X') &&
          !memchr(s + start, 'p', n) && !memchr(s + start, 'P', n)))
        n--;
    if (!java_number_syntax(s + start, n))
        return false;
    if (!is_float && simple_decimal(s + start, n, out)) {
        if (neg)
            *out = -*out;
        return true;
    }
    memcpy(buf, s, start + n);
    buf[start + n] = '\0';
    *out = is_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    return true;
}
