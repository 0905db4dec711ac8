/* Hive's time values (common/duration.h): the forms server/, hms/ and
 * sql/ take from their settings. */
#include "unit.h"
#include "common/duration.h"

#define BAD (-424242)

static const struct {
    const char *text;
    int64_t unit_ms, ms;    /* ms BAD: refused */
} cases[] = {
    /* a bare number is in the setting's unit */
    {"300", 1000, 300000}, {"250", 1, 250}, {"  30  ", 1000, 30000},
    {"-5", 1000, -5000}, {"+7", 1, 7}, {"0", 1000, 0},
    /* units, short and long, any case, blanks around */
    {"300s", 1, 300000}, {"5000ms", 1000, 5000}, {"2m", 1, 120000},
    {"5 min", 1, 300000}, {"2 sec", 1, 2000}, {"1h", 1, 3600000},
    {"2 Hours", 1, 7200000}, {"1d", 1, 86400000},
    {"7 DAYS ", 1, 7 * 86400000LL}, {"1500us", 1, 1}, {"999999ns", 1, 0},
    {"3000000 nanoseconds", 1, 3},
    /* fractions (comb's, as sql/ and hms/ took them) */
    {"1.5s", 1, 1500}, {"0.1s", 1, 100}, {".5 min", 1, 30000},
    {"2.5", 1000, 2500}, {"-1.5s", 1, -1500}, {"1.", 1000, 1000},
    /* malformed */
    {"", 1, BAD}, {"  ", 1, BAD}, {"x", 1, BAD}, {"s", 1, BAD},
    {"5 parsecs", 1, BAD}, {"5s5", 1, BAD}, {"1.2.3s", 1, BAD},
    {"-", 1, BAD}, {".", 1, BAD}, {"99999999999999999999", 1, BAD},
    {"200000000000000d", 1, BAD},
};

TEST(duration_forms)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t v = BAD;
        bool ok = comb_duration_ms(cases[i].text, cases[i].unit_ms, &v);
        CHECK_EQ(ok, cases[i].ms != BAD);
        CHECK_EQ(v, cases[i].ms);
    }
}
