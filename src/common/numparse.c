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
    memcpy(buf, s, start + n);
    buf[start + n] = '\0';
    *out = is_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    return true;
}
