/* Hive's time values (common/duration.h): the forms server/, hms/ and
 * sql/ take from their settings. */
#include "unit.h"
#include "common/duration.h"

static int64_t ms_of(const char *text, int64_t unit_ms)
{
    int64_t v = -424242;
    return comb_duration_ms(text, unit_ms, &v) ? v : -424242;
}

#define BAD (-424242)

TEST(duration_bare_number_in_the_setting_unit)
{
    CHECK_EQ(ms_of("300", 1000), 300000);
    CHECK_EQ(ms_of("250", 1), 250);
    CHECK_EQ(ms_of("  30  ", 1000), 30000);
    CHECK_EQ(ms_of("-5", 1000), -5000);
    CHECK_EQ(ms_of("+7", 1), 7);
    CHECK_EQ(ms_of("0", 1000), 0);
}

TEST(duration_units_and_long_names)
{
    CHECK_EQ(ms_of("300s", 1), 300000);
    CHECK_EQ(ms_of("5000ms", 1000), 5000);
    CHECK_EQ(ms_of("2m", 1), 120000);
    CHECK_EQ(ms_of("5 min", 1), 300000);
    CHECK_EQ(ms_of("2 sec", 1), 2000);
    CHECK_EQ(ms_of("1h", 1), 3600000);
    CHECK_EQ(ms_of("2 Hours", 1), 7200000);
    CHECK_EQ(ms_of("1d", 1), 86400000);
    CHECK_EQ(ms_of("7 DAYS ", 1), 7 * 86400000LL);
    CHECK_EQ(ms_of("1500us", 1), 1);
    CHECK_EQ(ms_of("999999ns", 1), 0);
    CHECK_EQ(ms_of("3000000 nanoseconds", 1), 3);
}

TEST(duration_fractions)
{
    CHECK_EQ(ms_of("1.5s", 1), 1500);
    CHECK_EQ(ms_of("0.1s", 1), 100);
    CHECK_EQ(ms_of(".5 min", 1), 30000);
    CHECK_EQ(ms_of("2.5", 1000), 2500);
    CHECK_EQ(ms_of("-1.5s", 1), -1500);
    CHECK_EQ(ms_of("1.", 1000), 1000);
}

TEST(duration_malformed)
{
    CHECK_EQ(ms_of("", 1), BAD);
    CHECK_EQ(ms_of("  ", 1), BAD);
    CHECK_EQ(ms_of("x", 1), BAD);
    CHECK_EQ(ms_of("s", 1), BAD);
    CHECK_EQ(ms_of("5 parsecs", 1), BAD);
    CHECK_EQ(ms_of("5s5", 1), BAD);
    CHECK_EQ(ms_of("1.2.3s", 1), BAD);
    CHECK_EQ(ms_of("-", 1), BAD);
    CHECK_EQ(ms_of(".", 1), BAD);
    CHECK_EQ(ms_of("99999999999999999999", 1), BAD);
    CHECK_EQ(ms_of("200000000000000d", 1), BAD);
}
