/*
 * value.c - value formatting (Java's shortest round-trip doubles) and
 * comparison helpers.
 */
#include "sql/value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shortest decimal digits, at least two, that read back as d (Java's
 * Double.toString always shows a digit after the point, and picks the
 * closest two-digit value when one digit would do: 4.9E-324, not 5E-324):
 * digits[] without the point, *exp10 = exponent of the first digit. */
static int shortest_digits(double d, bool is_float, char *digits, int *exp10)
{
    char buf[64];
    int prec;
    for (prec = 2; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        double back = strtod(buf, NULL);
        if (is_float ? (float)back == (float)d : back == d)
            break;
    }
    /* buf = "d.ddde±x" */
    int n = 0;
    for (char *p = buf; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    *exp10 = atoi(strchr(buf, 'e') + 1);
    return n;
}

static size_t format_java(double d, bool is_float, char *buf, size_t n)
{
    char digits[32], out[64];
    int exp10, nd, k = 0;
    double mag = fabs(d);
    if (isnan(d))
        return (size_t)snprintf(buf, n, "NaN");
    if (isinf(d))
        return (size_t)snprintf(buf, n, "%sInfinity", d < 0 ? "-" : "");
    if (d == 0)
        return (size_t)snprintf(buf, n, "%s0.0", signbit(d) ? "-" : "");
    nd = shortest_digits(mag, is_float, digits, &exp10);
    if (d < 0)
        out[k++] = '-';
    if (mag >= 1e-3 && mag < 1e7) {
        if (exp10 < 0) {
            out[k++] = '0';
            out[k++] = '.';
            for (int i = -1; i > exp10; i--)
                out[k++] = '0';
            for (int i = 0; i < nd; i++)
                out[k++] = digits[i];
        } else {
            for (int i = 0; i <= exp10; i++)
                out[k++] = i < nd ? digits[i] : '0';
            out[k++] = '.';
            if (nd > exp10 + 1)
                for (int i = exp10 + 1; i < nd; i++)
                    out[k++] = digits[i];
            else
                out[k++] = '0';
        }
        out[k] = '\0';
    } else {
        out[k++] = digits[0];
        out[k++] = '.';
        if (nd > 1)
            for (int i = 1; i < nd; i++)
                out[k++] = digits[i];
        else
            out[k++] = '0';
        k += snprintf(out + k, sizeof out - (size_t)k, "E%d", exp10);
    }
    return (size_t)snprintf(buf, n, "%s", out);
}

size_t sql_format_double(double d, char *buf, size_t n)
{
    return format_java(d, false, buf, n);
}

size_t sql_format_float(float f, char *buf, size_t n)
{
    return format_java(f, true, buf, n);
}

size_t sql_format_scalar(CombTypeKind kind, const CombVector *v, int row,
                         char *buf, size_t n)
{
    size_t len;
    switch (kind) {
    case COMB_T_BOOLEAN:
        len = (size_t)snprintf(buf, n, "%s", v->i64[row] ? "true" : "false");
        break;
    case COMB_T_FLOAT:
        len = sql_format_float((float)v->f64[row], buf, n);
        break;
    case COMB_T_DOUBLE:
        len = sql_format_double(v->f64[row], buf, n);
        break;
    default:
        len = (size_t)snprintf(buf, n, "%lld", (long long)v->i64[row]);
        break;
    }
    return len < n ? len : n - 1;
}

int sql_double_cmp(double a, double b)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb)
        return na == nb ? 0 : na ? 1 : -1;
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    /* equal, or zeros of different sign */
    return signbit(a) == signbit(b) ? 0 : signbit(a) ? -1 : 1;
}

int sql_str_cmp(CombStr a, CombStr b)
{
    uint32_t m = a.len < b.len ? a.len : b.len;
    int c = m ? memcmp(a.ptr, b.ptr, m) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* Index just past the UTF-8 character that starts at s[i]. */
static uint32_t next_char(CombStr s, uint32_t i)
{
    i++;
    while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* '_' is one character, not one byte ('日本' LIKE '__'), so the subject
 * advances a character at a time; literal pattern bytes match byte by
 * byte, which on character boundaries is a character match. */
bool sql_like_match(CombStr s, CombStr p)
{
    uint32_t si = 0, pi = 0, star_p = UINT32_MAX, star_s = 0;
    while (si < s.len) {
        if (pi < p.len && p.ptr[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < p.len) {
            bool esc = p.ptr[pi] == '\\' && pi + 1 < p.len;
            char pc = esc ? p.ptr[pi + 1] : p.ptr[pi];
            if (!esc && pc == '_') {
                pi++;
                si = next_char(s, si);
                continue;
            }
            if (pc == s.ptr[si]) {
                pi += esc ? 2 : 1;
                si++;
                continue;
            }
        }
        if (star_p == UINT32_MAX)
            return false;
        pi = star_p;
        star_s = next_char(s, star_s);
        si = star_s;
    }
    while (pi < p.len && p.ptr[pi] == '%')
        pi++;
    return pi == p.len;
}
