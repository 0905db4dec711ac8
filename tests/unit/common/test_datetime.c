/* Proleptic Gregorian day counts and Hive's DATE / TIMESTAMP text forms
 * (Date.valueOf, Timestamp.valueOf, Timestamp.toString).  Day numbers
 * were computed with an independent proleptic calendar. */
#include "unit.h"
#include "common/datetime.h"

static int64_t days_of(const char *s)
{
    int64_t d;
    return comb_date_parse(s, strlen(s), &d) ? d : INT64_MIN;
}

static const char *date_text(int64_t days)
{
    static char buf[40];
    comb_date_format(days, buf, sizeof buf);
    return buf;
}

/* Parse and print again, or "ERR". */
static const char *ts_round(const char *s)
{
    static char buf[64];
    int64_t secs;
    int32_t nanos;
    if (!comb_timestamp_parse(s, strlen(s), &secs, &nanos))
        return "ERR";
    comb_timestamp_format(secs, nanos, buf, sizeof buf);
    return buf;
}

static const char *ts_text(int64_t secs, int32_t nanos)
{
    static char buf[64];
    comb_timestamp_format(secs, nanos, buf, sizeof buf);
    return buf;
}

TEST(dt_known_days)
{
    CHECK_EQ(comb_days_from_civil(1970, 1, 1), 0);
    CHECK_EQ(comb_days_from_civil(1969, 12, 31), -1);
    CHECK_EQ(comb_days_from_civil(2000, 2, 29), 11016);
    CHECK_EQ(comb_days_from_civil(2020, 2, 29), 18321);
    CHECK_EQ(comb_days_from_civil(2021, 1, 5), 18632);
    CHECK_EQ(comb_days_from_civil(1, 1, 1), -719162);
    CHECK_EQ(comb_days_from_civil(9999, 12, 31), 2932896);
    /* no Julian gap: the proleptic calendar runs straight through 1582 */
    CHECK_EQ(comb_days_from_civil(1582, 10, 4), -141438);
    CHECK_EQ(comb_days_from_civil(1582, 10, 15), -141427);
    /* year 0 is a leap year; era 0 starts on 0000-03-01 */
    CHECK_EQ(comb_days_from_civil(0, 3, 1), -719468);
    CHECK_EQ(comb_days_from_civil(0, 2, 29), -719469);
    CHECK_EQ(comb_days_from_civil(0, 1, 1), -719528);
    CHECK_EQ(comb_days_from_civil(-1, 1, 1), -719893);

    int64_t y;
    int m, d;
    comb_civil_from_days(-1, &y, &m, &d);
    CHECK(y == 1969 && m == 12 && d == 31);
    comb_civil_from_days(-141427, &y, &m, &d);
    CHECK(y == 1582 && m == 10 && d == 15);
    comb_civil_from_days(-719469, &y, &m, &d);
    CHECK(y == 0 && m == 2 && d == 29);
    comb_civil_from_days(-719893, &y, &m, &d);
    CHECK(y == -1 && m == 1 && d == 1);
    comb_civil_from_days(2932897, &y, &m, &d);
    CHECK(y == 10000 && m == 1 && d == 1);
    /* any int64 day count converts without overflow */
    comb_civil_from_days(INT64_MAX, &y, &m, &d);
    CHECK(m >= 1 && m <= 12 && d >= 1 && d <= 31);
    comb_civil_from_days(INT64_MIN, &y, &m, &d);
    CHECK(m >= 1 && m <= 12 && d >= 1 && d <= 31);
}

/* Every day from -1200 to 2799 (ten 400-year cycles): each is a valid
 * date, one after the day before, and maps back to its count. */
TEST(dt_round_trip_cycles)
{
    int64_t first = comb_days_from_civil(-1200, 1, 1);
    int64_t last = comb_days_from_civil(2800, 1, 1);
    CHECK_EQ(last - first, 10 * 146097);
    int64_t py = -1201;
    int pm = 12, pd = 31;
    for (int64_t days = first; days < last; days++) {
        int64_t y;
        int m, d;
        comb_civil_from_days(days, &y, &m, &d);
        bool next_day = y == py && m == pm && d == pd + 1;
        bool next_month = y == py && m == pm + 1 && d == 1;
        bool next_year = y == py + 1 && m == 1 && d == 1 && pm == 12 &&
                         pd == 31;
        if (!comb_date_valid(y, m, d) || comb_days_from_civil(y, m, d) != days ||
            !(next_day || next_month || next_year) ||
            ((next_month || next_year) && comb_date_valid(py, pm, pd + 1))) {
            unit_fail(__FILE__, __LINE__, "day %lld -> %lld-%d-%d",
                      (long long)days, (long long)y, m, d);
            return;
        }
        py = y;
        pm = m;
        pd = d;
    }
}

TEST(dt_date_valid)
{
    CHECK(comb_date_valid(2000, 2, 29));
    CHECK(comb_date_valid(2024, 2, 29));
    CHECK(comb_date_valid(0, 2, 29));
    CHECK(!comb_date_valid(2100, 2, 29));
    CHECK(!comb_date_valid(1900, 2, 29));
    CHECK(!comb_date_valid(2021, 2, 29));
    CHECK(!comb_date_valid(2021, 4, 31));
    CHECK(comb_date_valid(2021, 12, 31));
    CHECK(!comb_date_valid(2021, 0, 1));
    CHECK(!comb_date_valid(2021, 13, 1));
    CHECK(!comb_date_valid(2021, 1, 0));
    CHECK(!comb_date_valid(2021, 1, 32));
    CHECK(comb_date_valid(1582, 10, 10)); /* no Julian gap */
}

TEST(dt_date_parse)
{
    CHECK_EQ(days_of("1970-01-01"), 0);
    CHECK_EQ(days_of("2021-01-05"), 18632);
    CHECK_EQ(days_of("2021-1-5"), 18632);
    CHECK_EQ(days_of(" \t2021-01-05 \n"), 18632);
    CHECK_EQ(days_of("0001-01-01"), -719162);
    CHECK_EQ(days_of("9999-12-31"), 2932896);
    CHECK_EQ(days_of("1582-10-04"), -141438);
    CHECK_EQ(days_of("1582-10-15"), -141427);
    CHECK_EQ(days_of("1969-12-31"), -1);
    CHECK_EQ(days_of("2000-02-29"), 11016);
    CHECK_EQ(days_of("0000-01-01"), -719528);
    CHECK_EQ(days_of("21-1-5"), comb_days_from_civil(21, 1, 5));
    CHECK_EQ(days_of("-1-01-01"), -719893);
    /* Date.valueOf ignores what follows unless it starts with a digit */
    CHECK_EQ(days_of("2021-01-05 10:20:30"), 18632);
    CHECK_EQ(days_of("2021-01-05T10:20"), 18632);
    CHECK_EQ(days_of("2021-01-05 25:99"), 18632);
    CHECK_EQ(days_of("2021-01-05x"), 18632);
    CHECK_EQ(days_of("2021-1-5-"), 18632);
    const char *bad[] = {"", "   ", "abc", "2021-13-01", "2021-00-10",
                         "2021-02-29", "2100-02-29", "2021-04-31",
                         "2021-01-00", "2021-01-0500", "2021-01", "2021",
                         "20211-01-01", "+2021-01-01", "-0-01-01",
                         "2021/01/05", "2021-001-05", "2021--1-05",
                         "x2021-01-05", "2021- 1-05"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (days_of(bad[i]) != INT64_MIN) {
            unit_fail(__FILE__, __LINE__, "accepted \"%s\"", bad[i]);
            return;
        }
    /* only n bytes are read */
    int64_t d;
    CHECK(comb_date_parse("2021-01-0512", 10, &d) && d == 18632);
    CHECK(!comb_date_parse("2021-01-05", 7, &d));
}

TEST(dt_date_format)
{
    CHECK_STR(date_text(0), "1970-01-01");
    CHECK_STR(date_text(-1), "1969-12-31");
    CHECK_STR(date_text(11016), "2000-02-29");
    CHECK_STR(date_text(-719162), "0001-01-01");
    CHECK_STR(date_text(2932896), "9999-12-31");
    CHECK_STR(date_text(-141427), "1582-10-15");
    /* java.time's uuuu: '+' past 9999, '-' before year 0 */
    CHECK_STR(date_text(2932897), "+10000-01-01");
    CHECK_STR(date_text(-719528), "0000-01-01");
    CHECK_STR(date_text(-719893), "-0001-01-01");
    char small[5];
    CHECK_EQ(comb_date_format(0, small, sizeof small), 10);
    CHECK_STR(small, "1970");
}

TEST(dt_timestamp_parse)
{
    int64_t secs;
    int32_t nanos;
    CHECK(comb_timestamp_parse("2021-01-05 10:20:30", 19, &secs, &nanos));
    CHECK(secs == 1609842030 && nanos == 0);
    CHECK(comb_timestamp_parse(" 1969-12-31 23:59:59.5 ", 23, &secs, &nanos));
    CHECK(secs == -1 && nanos == 500000000);
    CHECK(comb_timestamp_parse("0001-01-01 00:00:00", 19, &secs, &nanos));
    CHECK(secs == -62135596800LL && nanos == 0);
    CHECK(comb_timestamp_parse("2021-01-05", 10, &secs, &nanos));
    CHECK(secs == 18632LL * 86400 && nanos == 0);

    CHECK_STR(ts_round("2021-1-5 1:2:3"), "2021-01-05 01:02:03");
    CHECK_STR(ts_round("2021-1-5"), "2021-01-05 00:00:00");
    CHECK_STR(ts_round("\t2021-01-05 10:20:30\r\n"), "2021-01-05 10:20:30");
    CHECK_STR(ts_round("9999-12-31 23:59:59.999999999"),
              "9999-12-31 23:59:59.999999999");
    CHECK_STR(ts_round("10000-01-01 00:00:00"), "+10000-01-01 00:00:00");
    CHECK_STR(ts_round("-1-01-01 00:00:00"), "-0001-01-01 00:00:00");
    /* the ISO form Hive falls back to: 'T', two-digit fields, optional
     * seconds, 0..9 fraction digits */
    CHECK_STR(ts_round("2021-01-05T10:20"), "2021-01-05 10:20:00");
    CHECK_STR(ts_round("2021-01-05t10:20:30.5"), "2021-01-05 10:20:30.5");
    CHECK_STR(ts_round("2021-01-05T10:20:30."), "2021-01-05 10:20:30");
    CHECK_STR(ts_round("+12021-01-01T00:00"), "+12021-01-01 00:00:00");
    CHECK_STR(ts_round("-2021-01-01T00:00"), "-2021-01-01 00:00:00");
    CHECK_STR(ts_round("-10000-01-01T00:00"), "-10000-01-01 00:00:00");

    const char *bad[] = {"", "abc", "2021-01-05 24:00:00",
                         "2021-01-05 23:60:00", "2021-01-05 23:59:60",
                         "2021-13-01 00:00:00", "2021-02-29 00:00:00",
                         "2021-13-01", "2021-01-05 10:20",
                         "2021-01-05 10:20:30.", "2021-01-05  10:20:30",
                         "2021-01-05 10:20:30x", "2021-01-05 010:20:30",
                         "2021-01-05 10:20:30.1234567891",
                         "2021-01-05T1:20", "2021-01-05T10:20:3",
                         "2021-01-05T24:00", "2021-01-05T", "2021-1-5T10:20",
                         "+2021-01-01T00:00", "02021-01-01T00:00",
                         "-0000-01-01T00:00", "+0000-01-01T00:00",
                         "2021-01-05T10:20:30.1234567891",
                         "-0-01-01 00:00:00", "+2021-01-01 00:00:00",
                         "2021-01-05x", "2021-01-05 10:20:30 x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strcmp(ts_round(bad[i]), "ERR") != 0) {
            unit_fail(__FILE__, __LINE__, "accepted \"%s\"", bad[i]);
            return;
        }
}

/* 0..9 fraction digits read and print back, trailing zeros dropped. */
TEST(dt_timestamp_fraction_digits)
{
    static const char *cases[][2] = {
        {"2021-01-05 10:20:30", "2021-01-05 10:20:30"},
        {"2021-01-05 10:20:30.1", "2021-01-05 10:20:30.1"},
        {"2021-01-05 10:20:30.12", "2021-01-05 10:20:30.12"},
        {"2021-01-05 10:20:30.123", "2021-01-05 10:20:30.123"},
        {"2021-01-05 10:20:30.1234", "2021-01-05 10:20:30.1234"},
        {"2021-01-05 10:20:30.12345", "2021-01-05 10:20:30.12345"},
        {"2021-01-05 10:20:30.123456", "2021-01-05 10:20:30.123456"},
        {"2021-01-05 10:20:30.1234567", "2021-01-05 10:20:30.1234567"},
        {"2021-01-05 10:20:30.12345678", "2021-01-05 10:20:30.12345678"},
        {"2021-01-05 10:20:30.123456789", "2021-01-05 10:20:30.123456789"},
        {"2021-01-05 10:20:30.0", "2021-01-05 10:20:30"},
        {"2021-01-05 10:20:30.000000000", "2021-01-05 10:20:30"},
        {"2021-01-05 10:20:30.100", "2021-01-05 10:20:30.1"},
        {"2021-01-05 10:20:30.000000001", "2021-01-05 10:20:30.000000001"},
        {"2021-01-05 10:20:30.05", "2021-01-05 10:20:30.05"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_STR(ts_round(cases[i][0]), cases[i][1]);
    int64_t secs;
    int32_t nanos;
    CHECK(comb_timestamp_parse("2021-01-05 10:20:30.12", 22, &secs, &nanos));
    CHECK_EQ(nanos, 120000000);
    CHECK(comb_timestamp_parse("2021-01-05 10:20:30.000000001", 29, &secs,
                               &nanos));
    CHECK_EQ(nanos, 1);
}

TEST(dt_timestamp_format)
{
    CHECK_STR(ts_text(0, 0), "1970-01-01 00:00:00");
    CHECK_STR(ts_text(0, 100000000), "1970-01-01 00:00:00.1");
    CHECK_STR(ts_text(-1, 500000000), "1969-12-31 23:59:59.5");
    CHECK_STR(ts_text(-1, 0), "1969-12-31 23:59:59");
    CHECK_STR(ts_text(-86400, 0), "1969-12-31 00:00:00");
    CHECK_STR(ts_text(-86401, 0), "1969-12-30 23:59:59");
    CHECK_STR(ts_text(1609842030, 123456789), "2021-01-05 10:20:30.123456789");
    CHECK_STR(ts_text(1609842030, 120000000), "2021-01-05 10:20:30.12");
    CHECK_STR(ts_text(1609842030, 1), "2021-01-05 10:20:30.000000001");
    CHECK_STR(ts_text(-62135596800LL, 0), "0001-01-01 00:00:00");
    CHECK_STR(ts_text(253402300799LL, 999999999),
              "9999-12-31 23:59:59.999999999");
    /* nanos outside a second carry into the seconds */
    CHECK_STR(ts_text(0, -1), "1969-12-31 23:59:59.999999999");
    CHECK_STR(ts_text(0, 1000000000), "1970-01-01 00:00:01");
    char small[11];
    CHECK_EQ(comb_timestamp_format(0, 100000000, small, sizeof small), 21);
    CHECK_STR(small, "1970-01-01");
}

TEST(dt_days_seconds)
{
    CHECK_EQ(comb_days_to_seconds(0), 0);
    CHECK_EQ(comb_days_to_seconds(-1), -86400);
    CHECK_EQ(comb_days_to_seconds(18632), 1609804800LL);
    CHECK_EQ(comb_seconds_to_days(0), 0);
    CHECK_EQ(comb_seconds_to_days(86399), 0);
    CHECK_EQ(comb_seconds_to_days(86400), 1);
    CHECK_EQ(comb_seconds_to_days(-1), -1);
    CHECK_EQ(comb_seconds_to_days(-86400), -1);
    CHECK_EQ(comb_seconds_to_days(-86401), -2);
    CHECK_EQ(comb_seconds_to_days(1609842030), 18632);
    CHECK_EQ(comb_seconds_to_days(INT64_MIN), INT64_MIN / 86400 - 1);
}
