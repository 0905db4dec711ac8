/*
 * convert.c - Hive's (Java's) scalar conversion rules; see convert.h.
 * Sources of the rules (facts only): Hive's UDFToInteger/UDFToLong/
 * UDFToDouble/UDFToBoolean, serde2.lazy.LazyInteger/LazyLong/LazyUtils
 * (isNumberMaybe), PrimitiveObjectInspectorUtils.parseBoolean; the Java
 * Language Specification 5.1.3 (narrowing a double to an integer) and the
 * grammar of Double.valueOf(String).
 */
#include "sql/convert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


int64_t sql_int_min(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_TINYINT: return INT8_MIN;
    case COMB_T_SMALLINT: return INT16_MIN;
    case COMB_T_INT: return INT32_MIN;
    default: return INT64_MIN;
    }
}

int64_t sql_int_max(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_TINYINT: return INT8_MAX;
    case COMB_T_SMALLINT: return INT16_MAX;
    case COMB_T_INT: return INT32_MAX;
    default: return INT64_MAX;
    }
}

int64_t sql_int_wrap(CombTypeKind kind, int64_t v)
{
    switch (kind) {
    case COMB_T_TINYINT: return (int8_t)(uint8_t)(uint64_t)v;
    case COMB_T_SMALLINT: return (int16_t)(uint16_t)(uint64_t)v;
    case COMB_T_INT: return (int32_t)(uint32_t)(uint64_t)v;
    default: return v;
    }
}

/* Java's String.trim: every char up to ' ' counts as space. */
static bool java_space(unsigned char c)
{
    return c <= ' ';
}

static CombStr trim_java(CombStr s)
{
    while (s.len > 0 && java_space((unsigned char)s.ptr[0])) {
        s.ptr++;
        s.len--;
    }
    while (s.len > 0 && java_space((unsigned char)s.ptr[s.len - 1]))
        s.len--;
    return s;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* LazyUtils.isNumberMaybe: a quick refusal Hive applies to the untrimmed
 * text before parsing (so " " and "  " are not numbers, nor "NULL"). */
static bool number_maybe(CombStr s)
{
    switch (s.len) {
    case 0: return false;
    case 1: return is_digit(s.ptr[0]);
    case 2: return is_digit(s.ptr[0]) || is_digit(s.ptr[1]);
    case 4: return s.ptr[0] != 'N' && s.ptr[0] != 'n';
    default: return true;
    }
}

bool sql_str_to_int(CombStr s, CombTypeKind kind, int64_t *out)
{
    uint64_t mag = 0, limit;
    bool neg = false;
    uint32_t i = 0;
    if (!number_maybe(s))
        return false;
    s = trim_java(s);
    if (s.len == 0)
        return false;
    if (s.ptr[0] == '-' || s.ptr[0] == '+') {
        neg = s.ptr[0] == '-';
        if (s.len == 1)
            return false;
        i = 1;
    }
    limit = neg ? (uint64_t)0 - (uint64_t)sql_int_min(kind)
                : (uint64_t)sql_int_max(kind);
    for (; i < s.len && s.ptr[i] != '.'; i++) {
        if (!is_digit(s.ptr[i]))
            return false;
        /* checked before the multiplication: 20 digits wrap a uint64 */
        if (mag > (limit - (uint64_t)(s.ptr[i] - '0')) / 10)
            return false;
        mag = mag * 10 + (uint64_t)(s.ptr[i] - '0');
    }
    /* the fraction must be digits, and is dropped */
    for (i = i < s.len ? i + 1 : i; i < s.len; i++)
        if (!is_digit(s.ptr[i]))
            return false;
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return true;
}

/* Length of a run of digits (hex when `hex`) at p[0..n). */
static uint32_t digit_run(const char *p, uint32_t n, bool hex)
{
    uint32_t i = 0;
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
static bool java_number_syntax(const char *t, uint32_t n)
{
    bool hex = n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    uint32_t i = hex ? 2 : 0, whole, frac = 0;
    whole = digit_run(t + i, n - i, hex);
    i += whole;
    if (i < n && t[i] == '.') {
        i++;
        frac = digit_run(t + i, n - i, hex);
        i += frac;
    }
    if (whole + frac == 0)
        return false;
    if (i < n && (hex ? (t[i] == 'p' || t[i] == 'P') : (t[i] == 'e' || t[i] == 'E'))) {
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

bool sql_str_to_double(CombStr s, bool is_float, double *out)
{
    char buf[512];
    uint32_t start = 0, n;
    bool neg = false;
    if (!number_maybe(s))
        return false;
    s = trim_java(s);
    if (s.len == 0 || s.len >= sizeof buf)
        return false;
    if (s.ptr[0] == '+' || s.ptr[0] == '-') {
        neg = s.ptr[0] == '-';
        start = 1;
    }
    n = s.len - start;
    if (n == 3 && memcmp(s.ptr + start, "NaN", 3) == 0) {
        *out = NAN;
        return true;
    }
    if (n == 8 && memcmp(s.ptr + start, "Infinity", 8) == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return true;
    }
    /* a type suffix is allowed after a number, not after NaN/Infinity */
    if (n > 1 && strchr("fFdD", s.ptr[s.len - 1]) &&
        !(n > 2 && (s.ptr[start + 1] == 'x' || s.ptr[start + 1] == 'X') &&
          !memchr(s.ptr + start, 'p', n) && !memchr(s.ptr + start, 'P', n)))
        n--;
    if (!java_number_syntax(s.ptr + start, n))
        return false;
    memcpy(buf, s.ptr, start + n);
    buf[start + n] = '\0';
    *out = is_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    return true;
}

bool sql_str_to_boolean(CombStr s)
{
    static const char *const falses[] = {"false", "off", "no", "0"};
    if (s.len == 0)
        return false;
    for (size_t i = 0; i < sizeof falses / sizeof falses[0]; i++)
        if (s.len == strlen(falses[i]) &&
            strncasecmp(s.ptr, falses[i], s.len) == 0)
            return false;
    return true;
}

/* JLS 5.1.3: a double to long or int, saturating, NaN = 0. */
static int64_t java_d2l(double d, int64_t lo, int64_t hi)
{
    if (isnan(d))
        return 0;
    if (d <= (double)lo)
        return lo;
    if (d >= (double)hi)
        return hi;
    return (int64_t)d;
}

int64_t sql_double_to_int(double d, CombTypeKind kind)
{
    if (kind == COMB_T_BIGINT)
        return java_d2l(d, INT64_MIN, INT64_MAX);
    return sql_int_wrap(kind, java_d2l(d, INT32_MIN, INT32_MAX));
}

bool sql_double_fits_int(double d, CombTypeKind kind)
{
    double t;
    if (!isfinite(d))
        return false;
    t = trunc(d);
    /* 2^63 is the first double past INT64_MAX; INT64_MIN is exact */
    if (kind == COMB_T_BIGINT)
        return t >= -9223372036854775808.0 && t < 9223372036854775808.0;
    return t >= (double)sql_int_min(kind) && t <= (double)sql_int_max(kind);
}
