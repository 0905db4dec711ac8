/* DECIMAL as scaled 128-bit integers: Hive's parse rules (HiveDecimal.create),
 * HALF_UP rounding, exact arithmetic through 256 bits, conversions.
 * Expected big values were computed with exact integer arithmetic. */
#include <math.h>

#include "unit.h"
#include "common/decimal.h"

/* An integer literal of any size, read here independently of decimal.c. */
static comb_i128 big(const char *s)
{
    bool negative = *s == '-';
    comb_i128 v = 0;
    for (s += negative; *s; s++)
        v = v * 10 + (*s - '0');
    return negative ? -v : v;
}

/* comb_dec_format into one of a few rotating buffers. */
static const char *fmt(comb_i128 u, int scale)
{
    static char bufs[4][80];
    static int next;
    char *b = bufs[next++ % 4];
    comb_dec_format(u, scale, b, sizeof bufs[0]);
    return b;
}

/* Parse at `scale` and print at that scale, or "ERR". */
static const char *parsed(const char *s, int scale)
{
    comb_i128 u;
    if (!comb_dec_parse(s, strlen(s), scale, &u))
        return "ERR";
    return fmt(u, scale);
}

#define MAX38 (comb_dec_pow10(38) - 1)
#define NINES38 "99999999999999999999999999999999999999"

TEST(dec_pow10_digits_fits)
{
    CHECK(comb_dec_pow10(0) == 1);
    CHECK(comb_dec_pow10(1) == 10);
    CHECK(comb_dec_pow10(19) == big("10000000000000000000"));
    CHECK(comb_dec_pow10(38) == big("100000000000000000000000000000000000000"));
    CHECK(comb_dec_pow10(-1) == 0);
    CHECK(comb_dec_pow10(39) == 0);
    CHECK_EQ(comb_dec_digits(0), 1);
    CHECK_EQ(comb_dec_digits(9), 1);
    CHECK_EQ(comb_dec_digits(10), 2);
    CHECK_EQ(comb_dec_digits(-10), 2);
    CHECK_EQ(comb_dec_digits(MAX38), 38);
    CHECK_EQ(comb_dec_digits(-MAX38), 38);
    CHECK_EQ(comb_dec_digits(comb_dec_pow10(38)), 39);
    CHECK(comb_dec_fits(MAX38, 38));
    CHECK(comb_dec_fits(-MAX38, 38));
    CHECK(!comb_dec_fits(comb_dec_pow10(38), 38));
    CHECK(comb_dec_fits(-999, 3));
    CHECK(!comb_dec_fits(-1000, 3));
    CHECK(comb_dec_fits(0, 0));
    CHECK(!comb_dec_fits(1, 0));
    CHECK(comb_dec_fits(0, 1));
}

TEST(dec_format)
{
    CHECK_STR(fmt(150, 2), "1.50");
    CHECK_STR(fmt(0, 3), "0.000");
    CHECK_STR(fmt(0, 0), "0");
    CHECK_STR(fmt(-5, 2), "-0.05");
    CHECK_STR(fmt(-5, 1), "-0.5");
    CHECK_STR(fmt(-12345, 2), "-123.45");
    CHECK_STR(fmt(7, 0), "7");
    CHECK_STR(fmt(123, -2), "12300");
    CHECK_STR(fmt(MAX38, 0), NINES38);
    CHECK_STR(fmt(-MAX38, 0), "-" NINES38);
    CHECK_STR(fmt(-MAX38, 38), "-0." NINES38);
    CHECK_STR(fmt(MAX38, 2), "999999999999999999999999999999999999.99");
    CHECK_STR(fmt(1, 38), "0.00000000000000000000000000000000000001");
    /* a short buffer keeps what fits and still reports the full length */
    char small[4];
    CHECK_EQ(comb_dec_format(-12345, 2, small, sizeof small), 7);
    CHECK_STR(small, "-12");
    char wide[64];
    CHECK_EQ(comb_dec_format(-MAX38, 38, wide, sizeof wide), 41);
}

TEST(dec_format_normalized)
{
    char b[64];
    CHECK_EQ(comb_dec_format_normalized(150, 2, b, sizeof b), 3);
    CHECK_STR(b, "1.5");
    comb_dec_format_normalized(-1200, 2, b, sizeof b);
    CHECK_STR(b, "-12");
    comb_dec_format_normalized(0, 3, b, sizeof b);
    CHECK_STR(b, "0");
    comb_dec_format_normalized(1000, 0, b, sizeof b);
    CHECK_STR(b, "1000");
    comb_dec_format_normalized(101, 2, b, sizeof b);
    CHECK_STR(b, "1.01");
}

TEST(dec_parse_forms)
{
    CHECK_STR(parsed(" -1.5e3 ", 0), "-1500");
    CHECK_STR(parsed(".5", 1), "0.5");
    CHECK_STR(parsed("5.", 0), "5");
    CHECK_STR(parsed("+5", 2), "5.00");
    CHECK_STR(parsed("5.e3", 0), "5000");
    CHECK_STR(parsed("1E+02", 0), "100");
    CHECK_STR(parsed("1e007", 0), "10000000");
    CHECK_STR(parsed("-0.0", 2), "0.00");
    CHECK_STR(parsed("000123.4500", 4), "123.4500");
    CHECK_STR(parsed("1e-40", 10), "0.0000000000");
    CHECK_STR(parsed("1e-40", 0), "0");
    CHECK_STR(parsed("12.5e-1", 2), "1.25");
    CHECK_STR(parsed("0.00123e2", 3), "0.123");
    CHECK_STR(parsed("1e-99", 2), "0.00");
    /* Hive's parser: exponent digits may be missing before trailing
     * blanks ("1e " is 1), and the exponent has two significant digits */
    CHECK_STR(parsed("1e ", 0), "1");
    CHECK_STR(parsed("1e99", 0), "ERR");
    CHECK_STR(parsed("1e100", 0), "ERR");
    CHECK_STR(parsed("1e-100", 0), "ERR");
    CHECK_STR(parsed("0e100", 0), "ERR");
}

TEST(dec_parse_junk)
{
    const char *bad[] = {"", " ", "abc", ".", "-", "+", "-.", "e5", ".e5",
                         "1e", "1e+", "1e-", "1.2.3", "1 2", "1.5 e3",
                         "1e5x", "--1", "+-1", "- 5", "0x10", "1,5", "5.x",
                         "\t1", "1\t", "nan", "inf", "1e+-2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        comb_i128 u = 42;
        if (comb_dec_parse(bad[i], strlen(bad[i]), 0, &u)) {
            unit_fail(__FILE__, __LINE__, "accepted \"%s\"", bad[i]);
            return;
        }
        CHECK(u == 42); /* output untouched on failure */
    }
    /* the length bounds the text: no reading past n */
    CHECK_STR(parsed("12", 0), "12");
    comb_i128 u;
    CHECK(comb_dec_parse("123", 2, 0, &u) && u == 12);
    CHECK(!comb_dec_parse("1", 0, 0, &u));
}

TEST(dec_parse_half_up)
{
    CHECK_STR(parsed("0.5", 0), "1");
    CHECK_STR(parsed("-0.5", 0), "-1");
    CHECK_STR(parsed("2.5", 0), "3");
    CHECK_STR(parsed("-2.5", 0), "-3");
    CHECK_STR(parsed("2.4999", 0), "2");
    CHECK_STR(parsed("-2.4999", 0), "-2");
    CHECK_STR(parsed("0.45", 1), "0.5");
    CHECK_STR(parsed("-0.45", 1), "-0.5");
    CHECK_STR(parsed("0.44", 1), "0.4");
    CHECK_STR(parsed("9.95", 1), "10.0");
    CHECK_STR(parsed("-9.95", 1), "-10.0");
    CHECK_STR(parsed("0.05", 1), "0.1");
    CHECK_STR(parsed("-0.05", 1), "-0.1");
    CHECK_STR(parsed("0.049", 1), "0.0");
}

TEST(dec_parse_38_digits)
{
    CHECK_STR(parsed(NINES38, 0), NINES38);
    CHECK_STR(parsed("-" NINES38, 0), "-" NINES38);
    CHECK_STR(parsed("0000" NINES38, 0), NINES38);
    CHECK_STR(parsed("9" NINES38, 0), "ERR");          /* 39 digits */
    CHECK_STR(parsed(NINES38, 1), "ERR");              /* rescale overflow */
    CHECK_STR(parsed(NINES38 ".4", 0), NINES38);
    CHECK_STR(parsed(NINES38 ".5", 0), "ERR");         /* rounds to 39 */
    CHECK_STR(parsed(NINES38 "e0", 0), NINES38);
    CHECK_STR(parsed("9999999999999999999999999999999999999.9e1", 0), NINES38);
    CHECK_STR(parsed(NINES38 "e1", 0), "ERR");
    CHECK_STR(parsed("0." NINES38, 38), "0." NINES38);
    CHECK_STR(parsed("1", 37), "1.0000000000000000000000000000000000000");
    CHECK_STR(parsed("1", 38), "ERR");
    /* beyond 38 significant digits the 39th rounds HALF_UP first */
    CHECK_STR(parsed("1.00000000000000000000000000000000000005", 37),
              "1.0000000000000000000000000000000000001");
    CHECK_STR(parsed("1.00000000000000000000000000000000000004999", 37),
              "1.0000000000000000000000000000000000000");
    CHECK_STR(parsed("0.000000000000000000000000000000000000005", 38),
              "0.00000000000000000000000000000000000001");
    CHECK_STR(parsed("0." NINES38 "5", 0), "1");
    /* ...so Hive rounds twice: to 38 digits, then to the scale asked */
    CHECK_STR(parsed("0.4" "9999999999999999999999999999999999999" "5", 0), "1");
    CHECK_STR(parsed("0.4" "9999999999999999999999999999999999999" "4", 0), "0");
    /* digits of the mantissa after the 38th are dropped before the
     * exponent applies */
    CHECK_STR(parsed("5e-39", 38), "0.00000000000000000000000000000000000001");
    CHECK_STR(parsed("4e-39", 38), "0.00000000000000000000000000000000000000");
    /* Hive zeroes a value whose exponent pushes 38 or more digits out,
     * even where HALF_UP would round it up to 10^-38 */
    CHECK_STR(parsed("50000000000000000000000000000000000000e-76", 38),
              "0.00000000000000000000000000000000000000");
    CHECK_STR(parsed("50000000000000000000000000000000000000e-75", 38),
              "0.00000000000000000000000000000000000005");
}

TEST(dec_parse_exact)
{
    comb_i128 u;
    int p, s;
#define EXACT(text, value, prec, scale)                                  \
    do {                                                                 \
        CHECK(comb_dec_parse_exact(text, strlen(text), &u, &p, &s));     \
        CHECK_STR(fmt(u, 0), value);                                     \
        CHECK_EQ(p, prec);                                               \
        CHECK_EQ(s, scale);                                              \
    } while (0)
    /* HiveDecimal normalizes: 1.50BD is decimal(2,1) in Hive */
    EXACT("1.50", "15", 2, 1);
    EXACT("3.14", "314", 3, 2);
    EXACT("-3.14", "-314", 3, 2);
    EXACT("1e3", "1000", 4, 0);
    EXACT("1000", "1000", 4, 0);
    EXACT("0.05", "5", 2, 2);
    EXACT("0.001234", "1234", 6, 6);
    EXACT("0", "0", 1, 0);
    EXACT("-0.000", "0", 1, 0);
    EXACT("1e-40", "0", 1, 0);
    EXACT("1.5e-37", "15", 38, 38);
    EXACT("99999999999999999.9999999999999", "999999999999999999999999999999", 30, 13);
    EXACT(NINES38, NINES38, 38, 0);
    /* 41 digits: the fraction is cut to 38 in all, rounding HALF_UP */
    EXACT("12345678901234567890.123456789012345678901",
          "12345678901234567890123456789012345679", 38, 18);
#undef EXACT
    CHECK(!comb_dec_parse_exact("9" NINES38, 39, &u, &p, &s));
    CHECK(!comb_dec_parse_exact("1e99", 4, &u, &p, &s));
    CHECK(!comb_dec_parse_exact("x", 1, &u, &p, &s));
}

TEST(dec_rescale)
{
    comb_i128 u;
    CHECK(comb_dec_rescale(15, 1, 3, &u) && u == 1500);
    CHECK(comb_dec_rescale(1549, 3, 1, &u) && u == 15);
    CHECK(comb_dec_rescale(1550, 3, 1, &u) && u == 16);
    CHECK(comb_dec_rescale(-1550, 3, 1, &u) && u == -16);
    CHECK(comb_dec_rescale(-1549, 3, 1, &u) && u == -15);
    CHECK(comb_dec_rescale(5, 1, 0, &u) && u == 1);
    CHECK(comb_dec_rescale(-5, 1, 0, &u) && u == -1);
    CHECK(comb_dec_rescale(4, 1, 0, &u) && u == 0);
    CHECK(comb_dec_rescale(-4, 1, 0, &u) && u == 0);
    CHECK(comb_dec_rescale(7, 2, 2, &u) && u == 7);
    CHECK(!comb_dec_rescale(MAX38, 0, 1, &u));
    CHECK(!comb_dec_rescale(-MAX38, 0, 1, &u));
    CHECK(!comb_dec_rescale(1, 0, 38, &u));
    CHECK(comb_dec_rescale(1, 0, 37, &u) && u == comb_dec_pow10(37));
    CHECK(comb_dec_rescale(-1, 0, 37, &u) && u == -comb_dec_pow10(37));
    CHECK(comb_dec_rescale(0, 0, 60, &u) && u == 0);
    CHECK(comb_dec_rescale(MAX38, 38, 0, &u) && u == 1);
    CHECK(comb_dec_rescale(-MAX38, 38, 0, &u) && u == -1);
    CHECK(comb_dec_rescale(5 * comb_dec_pow10(37), 38, 0, &u) && u == 1);
    CHECK(comb_dec_rescale(5 * comb_dec_pow10(37) - 1, 38, 0, &u) && u == 0);
    CHECK(comb_dec_rescale(MAX38, 0, -39, &u) && u == 0);
    CHECK(comb_dec_rescale(MAX38, 2, 1, &u) &&
          u == comb_dec_pow10(37)); /* 9...9.99 -> 10^36 at scale 1 */
}

TEST(dec_cmp)
{
    CHECK_EQ(comb_dec_cmp(15, 1, 150, 2), 0);
    /* one scale, and scaled up within 128 bits */
    CHECK_EQ(comb_dec_cmp(MAX38, 5, -MAX38, 5), 1);
    CHECK_EQ(comb_dec_cmp(-7, 2, -7, 2), 0);
    CHECK_EQ(comb_dec_cmp(2399, 2, 24, 0), -1);
    CHECK_EQ(comb_dec_cmp(24, 0, 2401, 2), -1);
    CHECK_EQ(comb_dec_cmp(-2400, 2, -24, 0), 0);
    CHECK_EQ(comb_dec_cmp(15, 1, 151, 2), -1);
    CHECK_EQ(comb_dec_cmp(151, 2, 15, 1), 1);
    CHECK_EQ(comb_dec_cmp(1, 0, MAX38, 38), 1);
    CHECK_EQ(comb_dec_cmp(MAX38, 38, 1, 0), -1);
    CHECK_EQ(comb_dec_cmp(-1, 0, -MAX38, 38), -1);
    CHECK_EQ(comb_dec_cmp(-MAX38, 38, -1, 0), 1);
    CHECK_EQ(comb_dec_cmp(0, 0, 0, 5), 0);
    CHECK_EQ(comb_dec_cmp(-1, 0, 0, 0), -1);
    CHECK_EQ(comb_dec_cmp(0, 3, -1, 38), 1);
    CHECK_EQ(comb_dec_cmp(1, 38, -MAX38, 0), 1);
    CHECK_EQ(comb_dec_cmp(MAX38, 0, MAX38, 38), 1);
    CHECK_EQ(comb_dec_cmp(MAX38, 0, 1, 38), 1);
    CHECK_EQ(comb_dec_cmp(-MAX38, 0, -1, 38), -1);
    CHECK_EQ(comb_dec_cmp(5, 0, 5 * comb_dec_pow10(37), 37), 0);
    CHECK_EQ(comb_dec_cmp(-5, 0, -5 * comb_dec_pow10(37), 37), 0);
    CHECK_EQ(comb_dec_cmp(MAX38, 0, MAX38, 0), 0);
}

TEST(dec_add_sub)
{
    comb_i128 u;
    CHECK(comb_dec_add(MAX38, 0, &u) && u == MAX38);
    CHECK(!comb_dec_add(MAX38, 1, &u));
    CHECK(!comb_dec_sub(-MAX38, 1, &u));
    CHECK(comb_dec_add(-MAX38, MAX38, &u) && u == 0);
    CHECK(!comb_dec_add(MAX38, MAX38, &u));     /* beyond int128 too */
    CHECK(!comb_dec_sub(MAX38, -MAX38, &u));
    CHECK(!comb_dec_add(-MAX38, -MAX38, &u));
    CHECK(comb_dec_sub(MAX38, MAX38, &u) && u == 0);
    CHECK(comb_dec_sub(-5, 7, &u) && u == -12);
    CHECK(comb_dec_add(MAX38 - 1, 1, &u) && u == MAX38);
}

TEST(dec_mul)
{
    comb_i128 u;
    CHECK(comb_dec_mul(15, 15, 1, &u) && u == 23);   /* 1.5*1.5 = 2.25 -> 2.3 */
    CHECK(comb_dec_mul(-15, 15, 1, &u) && u == -23);
    CHECK(comb_dec_mul(15, -15, 2, &u) && u == -2);  /* 2.25 -> 2 */
    CHECK(comb_dec_mul(12, -12, 0, &u) && u == -144);
    CHECK(comb_dec_mul(0, MAX38, 0, &u) && u == 0);
    CHECK(comb_dec_mul(5, 5, -2, &u) && u == 2500);
    CHECK(!comb_dec_mul(MAX38, 1, -1, &u));
    /* products of 76 digits, only the 256-bit path holds them */
    CHECK(comb_dec_mul(MAX38, MAX38, 38, &u));
    CHECK_STR(fmt(u, 0), "99999999999999999999999999999999999998");
    CHECK(comb_dec_mul(-MAX38, MAX38, 38, &u));
    CHECK_STR(fmt(u, 0), "-99999999999999999999999999999999999998");
    CHECK(!comb_dec_mul(MAX38, MAX38, 37, &u));
    CHECK(comb_dec_mul(MAX38, MAX38, 76, &u) && u == 1);
    CHECK(comb_dec_mul(MAX38, MAX38, 77, &u) && u == 0);
    CHECK(comb_dec_mul(MAX38, MAX38, 200, &u) && u == 0);
    CHECK(comb_dec_mul(big("12345678901234567890123456789012345678"),
                       big("98765432109876543210987654321098765432"), 38, &u));
    CHECK_STR(fmt(u, 0), "12193263113702179522618503273386678859");
    CHECK(!comb_dec_mul(comb_dec_pow10(37), comb_dec_pow10(37), 36, &u));
    CHECK(comb_dec_mul(comb_dec_pow10(37), comb_dec_pow10(37), 37, &u) &&
          u == comb_dec_pow10(37));
    /* HALF_UP ties in the wide path */
    CHECK(comb_dec_mul(5 * comb_dec_pow10(37), 3, 38, &u) && u == 2);
    CHECK(comb_dec_mul(5 * comb_dec_pow10(37), -3, 38, &u) && u == -2);
    CHECK(comb_dec_mul(5 * comb_dec_pow10(37), -1, 38, &u) && u == -1);
    CHECK(comb_dec_mul(5 * comb_dec_pow10(37) - 1, 1, 38, &u) && u == 0);
}

TEST(dec_div)
{
    comb_i128 u;
    CHECK(comb_dec_div(1, 0, 3, 0, 6, &u) && u == 333333);
    CHECK(comb_dec_div(2, 0, 3, 0, 6, &u) && u == 666667);
    CHECK(comb_dec_div(-2, 0, 3, 0, 6, &u) && u == -666667);
    CHECK(comb_dec_div(1, 0, -3, 0, 6, &u) && u == -333333);
    CHECK(comb_dec_div(-1, 0, -3, 0, 6, &u) && u == 333333);
    CHECK(comb_dec_div(1, 0, 8, 0, 2, &u) && u == 13);   /* 0.125 */
    CHECK(comb_dec_div(-1, 0, 8, 0, 2, &u) && u == -13);
    CHECK(comb_dec_div(5, 0, 2, 0, 0, &u) && u == 3);
    CHECK(comb_dec_div(-5, 0, 2, 0, 0, &u) && u == -3);
    CHECK(comb_dec_div(15, 1, 3, 2, 2, &u) && u == 5000); /* 1.5/0.03 */
    CHECK(comb_dec_div(0, 0, 7, 0, 10, &u) && u == 0);
    CHECK(!comb_dec_div(1, 0, 0, 0, 2, &u));
    CHECK(!comb_dec_div(0, 0, 0, 5, 2, &u));
    /* dividends scaled past 128 bits */
    CHECK(comb_dec_div(1, 0, 7, 0, 38, &u));
    CHECK_STR(fmt(u, 38), "0.14285714285714285714285714285714285714");
    CHECK(comb_dec_div(comb_dec_pow10(37), 0, MAX38, 0, 38, &u) &&
          u == comb_dec_pow10(37));
    CHECK(comb_dec_div(MAX38, 0, 3, 0, 0, &u));
    CHECK_STR(fmt(u, 0), "33333333333333333333333333333333333333");
    CHECK(!comb_dec_div(MAX38, 0, 3, 0, 1, &u));
    CHECK(!comb_dec_div(MAX38, 0, 1, 38, 0, &u));
    /* a divisor wider than 64 bits */
    CHECK(comb_dec_div(MAX38, 0, big("12345678901234567890123"), 0, 10, &u));
    CHECK_STR(fmt(u, 10), "8100000072900000.6633903057");
    /* the divisor scaled up instead */
    CHECK(comb_dec_div(MAX38, 38, 2, 0, 0, &u) && u == 0);  /* 0.4999... */
    CHECK(comb_dec_div(5 * comb_dec_pow10(37), 38, 1, 0, 0, &u) && u == 1);
    CHECK(comb_dec_div(-5 * comb_dec_pow10(37), 38, 1, 0, 0, &u) && u == -1);
    CHECK(comb_dec_div(1, 38, MAX38, 0, 0, &u) && u == 0);
    CHECK(comb_dec_div(MAX38, 38, comb_dec_pow10(37), 0, 0, &u) && u == 0);
}

TEST(dec_mod)
{
    comb_i128 u;
    CHECK(comb_dec_mod(7, 0, 3, 0, &u) && u == 1);
    CHECK(comb_dec_mod(-7, 0, 3, 0, &u) && u == -1);
    CHECK(comb_dec_mod(7, 0, -3, 0, &u) && u == 1);
    CHECK(comb_dec_mod(-7, 0, -3, 0, &u) && u == -1);
    CHECK(comb_dec_mod(6, 0, 3, 0, &u) && u == 0);
    CHECK(comb_dec_mod(55, 1, 2, 0, &u) && u == 15);    /* 5.5 % 2 = 1.5 */
    CHECK(comb_dec_mod(-55, 1, 2, 0, &u) && u == -15);
    CHECK(comb_dec_mod(1, 0, 3, 1, &u) && u == 1);      /* 1 % 0.3 = 0.1 */
    CHECK(comb_dec_mod(2, 0, 3, 0, &u) && u == 2);
    CHECK(!comb_dec_mod(7, 0, 0, 0, &u));
    CHECK(!comb_dec_mod(7, 0, 0, 3, &u));
    /* operands brought to scale 38 need 76 digits */
    CHECK(comb_dec_mod(MAX38, 0, 7, 38, &u) && u == 2);
    CHECK(comb_dec_mod(-MAX38, 0, 7, 38, &u) && u == -2);
    CHECK(comb_dec_mod(MAX38, 0, 1, 38, &u) && u == 0);
    CHECK(comb_dec_mod(1, 38, MAX38, 0, &u) && u == 1);
    CHECK(comb_dec_mod(-1, 38, -MAX38, 0, &u) && u == -1);
    CHECK(comb_dec_mod(MAX38, 0, MAX38, 0, &u) && u == 0);
}

TEST(dec_to_double)
{
    CHECK(comb_dec_to_double(1, 1) == 0.1);
    CHECK(comb_dec_to_double(-5, 2) == -0.05);
    CHECK(comb_dec_to_double(0, 7) == 0.0);
    CHECK(comb_dec_to_double(MAX38, 0) == 1e38);
    CHECK(comb_dec_to_double(-MAX38, 38) == -1.0);
    CHECK(comb_dec_to_double(big("123456789012345678"), 9) ==
          123456789.012345678);
    CHECK(comb_dec_to_double(3, -2) == 300.0);
}

TEST(dec_from_double)
{
    comb_i128 u;
    CHECK(comb_dec_from_double(0.1, 1, &u) && u == 1);
    CHECK(comb_dec_from_double(0.1, 0, &u) && u == 0);
    CHECK(comb_dec_from_double(0.1, 20, &u) && u == comb_dec_pow10(19));
    CHECK(comb_dec_from_double(0.5, 0, &u) && u == 1);
    CHECK(comb_dec_from_double(-0.5, 0, &u) && u == -1);
    /* 2.675 is 2.67499999... in binary; its shortest text rounds up */
    CHECK(comb_dec_from_double(2.675, 2, &u) && u == 268);
    CHECK(comb_dec_from_double(123456789.125, 2, &u) && u == 12345678913);
    CHECK(comb_dec_from_double(-0.0, 3, &u) && u == 0);
    CHECK(comb_dec_from_double(1e23, 0, &u) &&
          u == big("100000000000000000000000"));
    CHECK(comb_dec_from_double(9.9e37, 0, &u));
    CHECK_STR(fmt(u, 0), "99000000000000000000000000000000000000");
    CHECK(!comb_dec_from_double(1e38, 0, &u));
    CHECK(comb_dec_from_double(0.5, 38, &u) && u == 5 * comb_dec_pow10(37));
    CHECK(!comb_dec_from_double(1.0, 38, &u));
    CHECK(!comb_dec_from_double(NAN, 0, &u));
    CHECK(!comb_dec_from_double(INFINITY, 0, &u));
    CHECK(!comb_dec_from_double(-INFINITY, 0, &u));
    /* Hive parses Double.toString's text: exponents of three digits fail */
    CHECK(comb_dec_from_double(1e-99, 2, &u) && u == 0);
    CHECK(!comb_dec_from_double(1.5e-100, 2, &u));
    CHECK(!comb_dec_from_double(4.9e-324, 2, &u));
}

TEST(dec_to_int64)
{
    int64_t v;
    CHECK(comb_dec_to_int64(15, 1, &v) && v == 1);
    CHECK(comb_dec_to_int64(-15, 1, &v) && v == -1);
    CHECK(comb_dec_to_int64(-19, 1, &v) && v == -1);
    CHECK(comb_dec_to_int64(MAX38, 38, &v) && v == 0);
    CHECK(comb_dec_to_int64(5, -2, &v) && v == 500);
    CHECK(comb_dec_to_int64(INT64_MAX, 0, &v) && v == INT64_MAX);
    CHECK(comb_dec_to_int64(INT64_MIN, 0, &v) && v == INT64_MIN);
    CHECK(!comb_dec_to_int64((comb_i128)INT64_MAX + 1, 0, &v));
    CHECK(!comb_dec_to_int64((comb_i128)INT64_MIN - 1, 0, &v));
    CHECK(comb_dec_to_int64(((comb_i128)INT64_MAX + 1) * 10 - 1, 1, &v) &&
          v == INT64_MAX);
    CHECK(!comb_dec_to_int64(MAX38, 0, &v));
    CHECK(!comb_dec_to_int64(-MAX38, 0, &v));
}

/* BigInteger.toByteArray as hex. */
static const char *bytes_hex(comb_i128 u)
{
    static char hex[40];
    unsigned char b[16];
    int n = comb_dec_to_bytes(u, b);
    for (int i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    hex[2 * n] = '\0';
    return hex;
}

TEST(dec_to_bytes)
{
    CHECK_STR(bytes_hex(0), "00");
    CHECK_STR(bytes_hex(-1), "ff");
    CHECK_STR(bytes_hex(127), "7f");
    CHECK_STR(bytes_hex(128), "0080");
    CHECK_STR(bytes_hex(-128), "80");
    CHECK_STR(bytes_hex(-129), "ff7f");
    CHECK_STR(bytes_hex(255), "00ff");
    CHECK_STR(bytes_hex(256), "0100");
    CHECK_STR(bytes_hex(comb_dec_pow10(37)), "0785ee10d5da46d900f436a000000000");
    CHECK_STR(bytes_hex(-comb_dec_pow10(37)), "f87a11ef2a25b926ff0bc96000000000");
    CHECK_STR(bytes_hex(MAX38), "4b3b4ca85a86c47a098a223fffffffff");
    CHECK_STR(bytes_hex(-((comb_i128)1 << 126) * 2),
              "80000000000000000000000000000000");
}
