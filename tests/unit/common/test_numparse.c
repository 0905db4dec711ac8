/* Java-compatible number text (common/numparse.h, common/numfmt.h): the
 * rules Hive's lazy SerDe and CAST share, and where they differ. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "common/numfmt.h"
#include "common/numparse.h"

static bool pint(const char *s, CombTypeKind k, bool trim, int64_t *v)
{
    return comb_parse_int(s, strlen(s), k, trim, v);
}

TEST(numparse_int_like_lazy_integer)
{
    int64_t v = 0;
    CHECK(pint("42", COMB_T_INT, false, &v) && v == 42);
    CHECK(pint("+7", COMB_T_INT, false, &v) && v == 7);
    CHECK(pint("-2147483648", COMB_T_INT, false, &v) && v == INT32_MIN);
    CHECK(!pint("2147483648", COMB_T_INT, false, &v));
    CHECK(pint("127", COMB_T_TINYINT, false, &v) && v == 127);
    CHECK(!pint("128", COMB_T_TINYINT, false, &v));
    CHECK(pint("-32768", COMB_T_SMALLINT, false, &v) && v == -32768);
    CHECK(!pint("32768", COMB_T_SMALLINT, false, &v));
    CHECK(pint("9223372036854775807", COMB_T_BIGINT, false, &v) &&
          v == INT64_MAX);
    CHECK(pint("-9223372036854775808", COMB_T_BIGINT, false, &v) &&
          v == INT64_MIN);
    CHECK(!pint("9223372036854775808", COMB_T_BIGINT, false, &v));
    CHECK(!pint("99999999999999999999", COMB_T_BIGINT, false, &v));
    /* a fraction of digits is dropped, anything else refuses the text */
    CHECK(pint("1.9", COMB_T_INT, false, &v) && v == 1);
    CHECK(pint("-1.9", COMB_T_INT, false, &v) && v == -1);
    CHECK(pint("1.", COMB_T_INT, false, &v) && v == 1);
    CHECK(pint(".5", COMB_T_INT, false, &v) && v == 0);
    CHECK(!pint("1.2.3", COMB_T_INT, false, &v));
    CHECK(!pint("1e3", COMB_T_INT, false, &v));
    CHECK(!pint("12a", COMB_T_INT, false, &v));
    CHECK(!pint("-", COMB_T_INT, false, &v));
    CHECK(!pint("+", COMB_T_INT, false, &v));
    CHECK(!pint("", COMB_T_INT, false, &v));
    CHECK(!pint("0x10", COMB_T_INT, false, &v));
    /* isNumberMaybe: "-." is two non-digits; "NULL"-like four letters */
    CHECK(!pint("-.", COMB_T_INT, false, &v));
    CHECK(!pint("N123", COMB_T_INT, false, &v));
}

TEST(numparse_int_trim_is_for_cast_only)
{
    int64_t v = 0;
    CHECK(!pint(" 5", COMB_T_INT, false, &v));
    CHECK(!pint("5 ", COMB_T_INT, false, &v));
    CHECK(!pint("\t12", COMB_T_INT, false, &v));
    CHECK(pint(" 5", COMB_T_INT, true, &v) && v == 5);
    CHECK(pint("\t12 \n", COMB_T_INT, true, &v) && v == 12);
    /* isNumberMaybe sees the untrimmed text: one blank is refused */
    CHECK(!pint(" ", COMB_T_INT, true, &v));
    CHECK(!pint("   ", COMB_T_INT, true, &v));
}

static bool pdbl(const char *s, bool is_float, double *d)
{
    return comb_parse_double(s, strlen(s), is_float, d);
}

TEST(numparse_double_like_java)
{
    double d = 0;
    CHECK(pdbl("1.5", false, &d) && d == 1.5);
    CHECK(pdbl(" -2.5e3 ", false, &d) && d == -2500);
    CHECK(pdbl("1d", false, &d) && d == 1);
    CHECK(pdbl("0x1.8p1", false, &d) && d == 3);
    CHECK(pdbl("NaN", false, &d) && isnan(d));
    CHECK(pdbl("-Infinity", false, &d) && isinf(d) && d < 0);
    CHECK(pdbl(".5", false, &d) && d == 0.5);
    CHECK(!pdbl("inf", false, &d));
    CHECK(!pdbl("1e", false, &d));
    CHECK(!pdbl("1,5", false, &d));
    CHECK(!pdbl("", false, &d));
    CHECK(!pdbl("NaNd", false, &d));
    CHECK(pdbl("0.1", true, &d) && d == (double)0.1f);
    CHECK(pdbl("1e39", true, &d) && isinf(d));
}

/* Plain decimals take a fast path (an exact integer over an exact power
 * of ten): every answer must be strtod's to the bit, on both sides of the
 * path's limits (2^53, 1e22, 15-17 digits) and for random numbers. */
TEST(numparse_double_plain_decimals_are_strtod_exact)
{
    static const char *edges[] = {
        "0", "-0", "-0.0", "0.", ".0", "00012.50", "9007199254740992",
        "9007199254740993", "9007199254740991.5", "900719925474099.3",
        "0.1", "0.2", "0.3", "1.7976931348623157", "123456789012345.6",
        "1234567890123456.7", "0.0000000000000000000001",
        "0.00000000000000000000001", "4.35", "2.675", "1.0000000000000002",
        "99999999999999999999", "-8.5e-1", "1.5d", "-7.25D",
    };
    char buf[64];
    double d, want;
    uint64_t x = 12345;
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
        size_t n = strlen(edges[i]);
        snprintf(buf, sizeof buf, "%.*s", (int)n - (strchr("dD", edges[i][n - 1]) ? 1 : 0),
                 edges[i]);
        want = strtod(buf, NULL);
        CHECK(pdbl(edges[i], false, &d));
        CHECK(memcmp(&d, &want, sizeof d) == 0);
    }
    for (int i = 0; i < 20000; i++) {
        int digits, point;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        digits = 1 + (int)(x % 19);
        point = (int)((x >> 8) % (uint64_t)(digits + 1));
        snprintf(buf, sizeof buf, "%s%0*llu", (x >> 40) & 1 ? "-" : "", digits,
                 (unsigned long long)((x >> 3) % 10000000000000000000ULL));
        if (point) {
            size_t len = strlen(buf);
            memmove(buf + len - (size_t)point + 1, buf + len - (size_t)point,
                    (size_t)point + 1);
            buf[len - (size_t)point] = '.';
        }
        want = strtod(buf, NULL);
        CHECK(pdbl(buf, false, &d));
        if (memcmp(&d, &want, sizeof d) != 0) {
            unit_fail(__FILE__, __LINE__, "%s: %.17g, strtod %.17g", buf, d, want);
            return;
        }
    }
}

static const char *fmt_d(double d)
{
    static char buf[64];
    size_t n = comb_format_double(d, buf, sizeof buf);
    return n == strlen(buf) ? buf : "(length mismatch)";
}

TEST(numfmt_double_like_java)
{
    char small[4];
    CHECK_STR(fmt_d(1.0), "1.0");
    CHECK_STR(fmt_d(0.001), "0.001");
    CHECK_STR(fmt_d(1e-4), "1.0E-4");
    CHECK_STR(fmt_d(1e7), "1.0E7");
    CHECK_STR(fmt_d(9999999.0), "9999999.0");
    CHECK_STR(fmt_d(-1.25e-10), "-1.25E-10");
    CHECK_STR(fmt_d(4.9e-324), "4.9E-324");
    CHECK_STR(fmt_d(1.7976931348623157e308), "1.7976931348623157E308");
    CHECK_STR(fmt_d(-0.0), "-0.0");
    /* like snprintf: cut to fit, full length returned */
    CHECK_EQ(comb_format_double(123.5, small, sizeof small), 5);
    CHECK_STR(small, "123");
}

/* The significant digits of a Java-formatted double, and whether they
 * are the fewest (at least 2 for the rounding) that read back as d. */
static int java_digits(const char *text)
{
    int n = 0, trailing = 0;
    bool lead = true;
    for (const char *p = text; *p && *p != 'E'; p++) {
        if (*p < '0' || *p > '9')
            continue;
        if (lead && *p == '0')
            continue;
        lead = false;
        n++;
        trailing = *p == '0' ? trailing + 1 : 0;
    }
    return n - trailing;
}

static int fewest_reading_back(double d)
{
    char buf[64];
    for (int prec = 2; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) == d) {
            /* the rounding's own trailing zeros do not count */
            char *e = strchr(buf, 'e');
            int n = prec;
            while (n > 1 && e[-1] == '0') {
                e--;
                n--;
            }
            return n;
        }
    }
    return 17;
}

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Decimals as tables hold them (a fast path formats those) and random
 * bit patterns: each text reads back as the double, with no more
 * digits than the fewest that do. */
TEST(numfmt_double_shortest)
{
    uint64_t x = 88172645463325252ULL;
    int checked = 0;
    for (int i = 0; i < 200000 && !unit_failed_now(); i++) {
        double d;
        if (i % 2) {
            uint64_t bits = next_rand(&x);
            memcpy(&d, &bits, sizeof d);
            if (isnan(d) || isinf(d) || d == 0)
                continue;
        } else {
            static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e6, 1e9, 1e12, 1e15};
            uint64_t r = next_rand(&x) % 1000000000000000ULL >> (next_rand(&x) % 50);
            d = (double)r / scale[next_rand(&x) % 9] * (i % 4 ? 1 : -1);
            if (d == 0)
                continue;
        }
        const char *t = fmt_d(d);
        if (strtod(t, NULL) != d || java_digits(t) != fewest_reading_back(fabs(d))) {
            unit_fail(__FILE__, __LINE__, "%.17g formatted as %s (%d digits, fewest %d)",
                      d, t, java_digits(t), fewest_reading_back(fabs(d)));
            break;
        }
        checked++;
    }
    CHECK(checked > 150000);
    CHECK_STR(fmt_d(0.1), "0.1");
    CHECK_STR(fmt_d(123456789012345.0), "1.23456789012345E14");
    CHECK_STR(fmt_d(1234.5600), "1234.56");
    CHECK_STR(fmt_d(0.3), "0.3");
    CHECK_STR(fmt_d(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(fmt_d(100.0), "100.0");
    CHECK_STR(fmt_d(1e22), "1.0E22");
    CHECK_STR(fmt_d(2.5e-7), "2.5E-7");
}

TEST(numfmt_float_like_java)
{
    char buf[32];
    comb_format_float(0.1f, buf, sizeof buf);
    CHECK_STR(buf, "0.1");
    comb_format_float(3.4028235e38f, buf, sizeof buf);
    CHECK_STR(buf, "3.4028235E38");
    comb_format_float(1.0e-5f, buf, sizeof buf);
    CHECK_STR(buf, "1.0E-5");
}
