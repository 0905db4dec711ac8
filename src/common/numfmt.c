/*
 * numfmt.c - Java's Double.toString / Float.toString; see numfmt.h.
 */
#include "common/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does d rounded to prec significant digits read back as d?  buf gets
 * that rounding, "d.ddde±x". */
static bool reads_back(double d, bool is_float, int prec, char *buf,
                       size_t cap)
{
    snprintf(buf, cap, "%.*e", prec - 1, d);
    double back = strtod(buf, NULL);
    return is_float ? (float)back == (float)d : back == d;
}

/* The fewest digits, 2..17, whose rounding reads back as d.  A rounding
 * to more digits is at least as close to d, so once one reads back all
 * longer ones do, and a binary search finds the fewest -- except where
 * the values reading back as d lie closer on one side than the other:
 * below a power of two, and for floats read through a double.  Those
 * count up one digit at a time, as do values that two digits already
 * give. */
static int fewest_digits(double d, bool is_float, char *buf, size_t cap)
{
    int lo = 3, hi = 17, exp2;
    if (is_float || frexp(d, &exp2) == 0.5 ||
        reads_back(d, is_float, 2, buf, cap)) {
        for (lo = 2; lo < 17; lo++)
            if (reads_back(d, is_float, lo, buf, cap))
                return lo;
        reads_back(d, is_float, 17, buf, cap);
        return 17;
    }
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (reads_back(d, false, mid, buf, cap))
            hi = mid;
        else
            lo = mid + 1;
    }
    reads_back(d, false, lo, buf, cap);
    return lo;
}

/* The fast way for most values a warehouse holds (prices, measures:
 * decimals of up to 15 digits): the least k for which mag * 10^k rounds
 * to a whole r whose r / 10^k is mag again.  That division is correctly
 * rounded as strtod is (10^k and r are exact), so r's digits read back;
 * and no other decimal of at most 15 digits (DBL_DIG) reads back as the
 * same double, so they are the shortest.  false: not such a value. */
static bool decimal_digits(double mag, char *digits, int *exp10)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                   1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                   1e18, 1e19, 1e20, 1e21, 1e22};
    for (int k = 0; k < (int)(sizeof pow10 / sizeof pow10[0]); k++) {
        double r = nearbyint(mag * pow10[k]);
        char rev[24];          /* r's digits, last first */
        int n = 0, last = 0, nd = 0;
        if (r >= 1e15)
            return false;
        if (r == 0 || r / pow10[k] != mag)
            continue;
        for (uint64_t u = (uint64_t)r; u; u /= 10)
            rev[n++] = (char)('0' + u % 10);
        *exp10 = n - 1 - k;
        while (last < n && rev[last] == '0')   /* r's trailing zeros */
            last++;
        for (int i = n - 1; i >= last; i--)
            digits[nd++] = rev[i];
        digits[nd] = '\0';
        return true;
    }
    return false;
}

/* Shortest decimal digits, at least two, that read back as d (Java's
 * Double.toString always shows a digit after the point, and picks the
 * closest two-digit value when one digit would do: 4.9E-324, not 5E-324):
 * digits[] without the point, *exp10 = exponent of the first digit. */
static int shortest_digits(double d, bool is_float, char *digits, int *exp10)
{
    char buf[64];
    if (!is_float && decimal_digits(d, digits, exp10))
        return (int)strlen(digits);
    fewest_digits(d, is_float, buf, sizeof buf);
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

size_t comb_format_double(double d, char *buf, size_t n)
{
    return format_java(d, false, buf, n);
}

size_t comb_format_float(float f, char *buf, size_t n)
{
    return format_java(f, true, buf, n);
}
