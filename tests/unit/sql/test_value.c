/* Java-style number formatting and LIKE matching (sql/value.h). */
#include "unit.h"
#include "sql/value.h"

static const char *fmt_d(double d)
{
    static char buf[64];
    sql_format_double(d, buf, sizeof buf);
    return buf;
}

TEST(value_double_like_java)
{
    CHECK_STR(fmt_d(1.0), "1.0");
    CHECK_STR(fmt_d(-0.5), "-0.5");
    CHECK_STR(fmt_d(0.001), "0.001");
    CHECK_STR(fmt_d(1e-4), "1.0E-4");
    CHECK_STR(fmt_d(1234567.0), "1234567.0");
    CHECK_STR(fmt_d(1e7), "1.0E7");
    CHECK_STR(fmt_d(123456789.5), "1.234567895E8");
    CHECK_STR(fmt_d(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(fmt_d(0.0), "0.0");
    CHECK_STR(fmt_d(-0.0), "-0.0");
    CHECK_STR(fmt_d(1.0 / 0.0), "Infinity");
    CHECK_STR(fmt_d(-1.0 / 0.0), "-Infinity");
    CHECK_STR(fmt_d(0.0 / 0.0), "NaN");
    CHECK_STR(fmt_d(100.0), "100.0");
}

TEST(value_float_like_java)
{
    char buf[64];
    sql_format_float(0.1f, buf, sizeof buf);
    CHECK_STR(buf, "0.1");
    sql_format_float(12.34f, buf, sizeof buf);
    CHECK_STR(buf, "12.34");
}

static bool like(const char *s, const char *p)
{
    CombStr a = {s, (uint32_t)strlen(s)}, b = {p, (uint32_t)strlen(p)};
    return sql_like_match(a, b);
}

TEST(value_like)
{
    CHECK(like("apple", "a%"));
    CHECK(like("apple", "%ple"));
    CHECK(like("apple", "%p%"));
    CHECK(like("apple", "a_ple"));
    CHECK(!like("apple", "a_le"));
    CHECK(like("", "%"));
    CHECK(!like("", "_"));
    CHECK(like("50%", "50\\%"));
    CHECK(!like("500", "50\\%"));
    CHECK(like("abcabc", "%bc%bc"));
    CHECK(!like("abc", "abcd"));
}

TEST(value_str_cmp)
{
    CombStr a = {"ab", 2}, b = {"abc", 3}, c = {"b", 1};
    CHECK(sql_str_cmp(a, b) < 0);
    CHECK(sql_str_cmp(b, a) > 0);
    CHECK(sql_str_cmp(a, c) < 0);
    CHECK(sql_str_cmp(a, a) == 0);
}
