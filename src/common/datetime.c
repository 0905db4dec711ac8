/*
 * datetime.c - proleptic Gregorian day counts and Hive's DATE / TIMESTAMP
 * text forms (datetime.h).
 *
 * Day counts use the era arithmetic published by Howard Hinnant
 * ("chrono-Compatible Low-Level Date Algorithms"): shift the year to start
 * on March 1 so the leap day ends it, split years into 400-year eras of
 * 146097 days, and map the day of the year to months with a linear
 * formula.  The text grammars are those of java.time formatters Hive
 * builds in Date.valueOf and Timestamp.valueOf; the comments on each
 * parser say which.
 */
#include "common/datetime.h"

#include "common/textout.h"

#define DAYS_PER_ERA 146097
/* Days from 0000-03-01 (the first day of era 0) to 1970-01-01. */
#define EPOCH_SHIFT 719468
/* java.time's year limit (LocalDate.MAX / MIN). */
#define YEAR_LIMIT 999999999

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int64_t comb_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = floor_div(y, 400);
    int64_t year_of_era = y - era * 400;                     /* 0..399 */
    int64_t day_of_year = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 -
                         year_of_era / 100 + day_of_year;    /* 0..146096 */
    return era * DAYS_PER_ERA + day_of_era - EPOCH_SHIFT;
}

void comb_civil_from_days(int64_t days, int64_t *y, int *m, int *d)
{
    /* era = floor((days + EPOCH_SHIFT) / DAYS_PER_ERA), computed without
     * the addition so no int64 day count overflows */
    int64_t era = floor_div(days, DAYS_PER_ERA);
    int64_t rest = days % DAYS_PER_ERA;
    rest += (rest < 0 ? DAYS_PER_ERA : 0) + EPOCH_SHIFT;
    era += rest / DAYS_PER_ERA;
    int64_t day_of_era = rest % DAYS_PER_ERA;
    int64_t year_of_era = (day_of_era - day_of_era / 1460 +
                           day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 -
                                        year_of_era / 100);
    int64_t month_from_march = (5 * day_of_year + 2) / 153;
    *d = (int)(day_of_year - (153 * month_from_march + 2) / 5 + 1);
    *m = (int)(month_from_march < 10 ? month_from_march + 3
                                     : month_from_march - 9);
    *y = year_of_era + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

bool comb_date_valid(int64_t y, int m, int d)
{
    static const int month_days[12] = {31, 28, 31, 30, 31, 30,
                                       31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1)
        return false;
    return d <= month_days[m - 1] + (m == 2 && is_leap(y));
}

int64_t comb_days_to_seconds(int64_t days)
{
    return days * COMB_SECONDS_PER_DAY;
}

int64_t comb_seconds_to_days(int64_t secs)
{
    return floor_div(secs, COMB_SECONDS_PER_DAY);
}

/* ---- text scanning ----------------------------------------------------- */

/* A cursor over text being parsed. */
typedef struct {
    const char *s;
    size_t n;
    size_t i;
} Scan;

/* Java's String.trim: every character up to ' ' goes at both ends. */
static Scan scan_trimmed(const char *s, size_t n)
{
    while (n > 0 && (unsigned char)s[n - 1] <= ' ')
        n--;
    size_t i = 0;
    while (i < n && (unsigned char)s[i] <= ' ')
        i++;
    Scan sc = {s, n, i};
    return sc;
}

static bool scan_at_end(const Scan *sc)
{
    return sc->i == sc->n;
}

static bool scan_is_digit(const Scan *sc)
{
    return sc->i < sc->n && sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9';
}

static bool scan_char(Scan *sc, char c)
{
    if (sc->i < sc->n && sc->s[sc->i] == c) {
        sc->i++;
        return true;
    }
    return false;
}

/* Greedily up to max_digits digits; false unless at least min_digits.
 * *count (when asked) gets how many were read. */
static bool scan_number(Scan *sc, int min_digits, int max_digits,
                        int64_t *value, int *count)
{
    int64_t v = 0;
    int k = 0;
    while (k < max_digits && scan_is_digit(sc)) {
        v = v * 10 + (sc->s[sc->i++] - '0');
        k++;
    }
    if (k < min_digits)
        return false;
    *value = v;
    if (count)
        *count = k;
    return true;
}

/* Fields of a date and time read from text. */
typedef struct {
    int64_t year;
    int64_t month, day;
    int64_t hour, minute, second;
    int32_t nanos;
} Civil;

/* A year as java.time's SignStyle.NORMAL reads it strictly: an optional
 * '-' (never '+', and not before a zero year), then 1..max digits. */
static bool scan_year_normal(Scan *sc, int max_digits, int64_t *year)
{
    bool negative = scan_char(sc, '-');
    if (!scan_number(sc, 1, max_digits, year, NULL))
        return false;
    if (negative) {
        if (*year == 0)
            return false;
        *year = -*year;
    }
    return true;
}

/* "y-M-d" with 1..max_year_digits year digits and 1 or 2 digit month and
 * day (the date part of Hive's Date and Timestamp parse formatters). */
static bool scan_date_loose(Scan *sc, int max_year_digits, Civil *c)
{
    return scan_year_normal(sc, max_year_digits, &c->year) &&
           scan_char(sc, '-') && scan_number(sc, 1, 2, &c->month, NULL) &&
           scan_char(sc, '-') && scan_number(sc, 1, 2, &c->day, NULL);
}

/* '.' and 1..9 fraction digits (min_digits 0 allows a bare '.'). */
static bool scan_fraction(Scan *sc, int min_digits, int32_t *nanos)
{
    int64_t v;
    int k;
    if (!scan_char(sc, '.'))
        return true;
    if (!scan_number(sc, min_digits, 9, &v, &k))
        return false;
    for (; k < 9; k++)
        v *= 10;
    *nanos = (int32_t)v;
    return true;
}

static bool civil_valid(const Civil *c)
{
    return c->year >= -YEAR_LIMIT && c->year <= YEAR_LIMIT &&
           comb_date_valid(c->year, (int)c->month, (int)c->day) &&
           c->hour <= 23 && c->minute <= 59 && c->second <= 59;
}

/* ---- DATE -------------------------------------------------------------- */

/*
 * Hive's Date.valueOf: trimmed text, y-M-d (year 1..4 digits, month and
 * day 1..2), and whatever follows is ignored unless it starts with a
 * digit ("2021-01-05T10:00", "2021-01-05 garbage" are 2021-01-05;
 * "2021-01-0500" is an error).
 */
bool comb_date_parse(const char *s, size_t n, int64_t *days)
{
    Scan sc = scan_trimmed(s, n);
    Civil c = {0};
    if (!scan_date_loose(&sc, 4, &c) || scan_is_digit(&sc) ||
        !civil_valid(&c))
        return false;
    *days = comb_days_from_civil(c.year, (int)c.month, (int)c.day);
    return true;
}

/* ---- TIMESTAMP --------------------------------------------------------- */

/* Hive's own format: y-M-d H:m:s[.f] with 1..10 year digits, 1 or 2
 * digit fields, seconds required, 1..9 fraction digits, nothing after. */
static bool scan_timestamp_hive(Scan sc, Civil *c)
{
    return scan_date_loose(&sc, 10, c) && scan_char(&sc, ' ') &&
           scan_number(&sc, 1, 2, &c->hour, NULL) && scan_char(&sc, ':') &&
           scan_number(&sc, 1, 2, &c->minute, NULL) && scan_char(&sc, ':') &&
           scan_number(&sc, 1, 2, &c->second, NULL) &&
           scan_fraction(&sc, 1, &c->nanos) && scan_at_end(&sc);
}

/* ISO_LOCAL_DATE's year (SignStyle.EXCEEDS_PAD, strict): 4 digits bare,
 * more only after '+', '-' before 4 or more (not a zero year). */
static bool scan_year_iso(Scan *sc, int64_t *year)
{
    bool plus = scan_char(sc, '+');
    bool minus = !plus && scan_char(sc, '-');
    int k;
    if (!scan_number(sc, 4, 10, year, &k))
        return false;
    if ((plus && k == 4) || (!plus && !minus && k > 4) ||
        (minus && *year == 0))
        return false;
    if (minus)
        *year = -*year;
    return true;
}

/* The fallback Hive tries, LocalDateTime.parse (ISO_LOCAL_DATE_TIME):
 * yyyy-MM-dd, 'T' (either case), HH:mm[:ss[.f]] with two-digit fields and
 * 0..9 fraction digits. */
static bool scan_timestamp_iso(Scan sc, Civil *c)
{
    if (!scan_year_iso(&sc, &c->year) || !scan_char(&sc, '-') ||
        !scan_number(&sc, 2, 2, &c->month, NULL) || !scan_char(&sc, '-') ||
        !scan_number(&sc, 2, 2, &c->day, NULL) ||
        !(scan_char(&sc, 'T') || scan_char(&sc, 't')) ||
        !scan_number(&sc, 2, 2, &c->hour, NULL) || !scan_char(&sc, ':') ||
        !scan_number(&sc, 2, 2, &c->minute, NULL))
        return false;
    if (scan_char(&sc, ':') &&
        (!scan_number(&sc, 2, 2, &c->second, NULL) ||
         !scan_fraction(&sc, 0, &c->nanos)))
        return false;
    return scan_at_end(&sc);
}

/* A date alone: the y-M-d of Date.valueOf with nothing after it. */
static bool scan_date_only(Scan sc, Civil *c)
{
    return scan_date_loose(&sc, 4, c) && scan_at_end(&sc);
}

/* The forms tried in order; Hive falls back to the ISO form whenever its
 * own fails to parse or names an impossible date or time. */
typedef bool (*TimestampForm)(Scan sc, Civil *c);
static const TimestampForm TIMESTAMP_FORMS[] = {
    scan_date_only, scan_timestamp_hive, scan_timestamp_iso};

bool comb_timestamp_parse(const char *s, size_t n, int64_t *secs,
                          int32_t *nanos)
{
    Scan sc = scan_trimmed(s, n);
    for (size_t k = 0; k < sizeof TIMESTAMP_FORMS / sizeof *TIMESTAMP_FORMS;
         k++) {
        Civil c = {0};
        if (!TIMESTAMP_FORMS[k](sc, &c) || !civil_valid(&c))
            continue;
        int64_t days = comb_days_from_civil(c.year, (int)c.month, (int)c.day);
        *secs = comb_days_to_seconds(days) + c.hour * 3600 + c.minute * 60 +
                c.second;
        *nanos = c.nanos;
        return true;
    }
    return false;
}

/* ---- formatting -------------------------------------------------------- */

/* java.time's "uuuu-MM-dd": 4-digit years, '+' before longer ones, '-'
 * before negative ones. */
static void out_date(CombTextOut *o, int64_t days)
{
    int64_t y;
    int m, d;
    comb_civil_from_days(days, &y, &m, &d);
    if (y > 9999)
        comb_textout_char(o, '+');
    else if (y < 0)
        comb_textout_char(o, '-');
    comb_textout_uint(o, y < 0 ? -(uint64_t)y : (uint64_t)y, 4);
    comb_textout_char(o, '-');
    comb_textout_uint(o, (uint64_t)m, 2);
    comb_textout_char(o, '-');
    comb_textout_uint(o, (uint64_t)d, 2);
}

size_t comb_date_format(int64_t days, char *buf, size_t cap)
{
    CombTextOut o = comb_textout(buf, cap);
    out_date(&o, days);
    return comb_textout_finish(&o);
}

size_t comb_timestamp_format(int64_t secs, int32_t nanos, char *buf,
                             size_t cap)
{
    /* nanos outside 0..999999999 carry into the seconds */
    int64_t carry = floor_div(nanos, COMB_NANOS_PER_SECOND);
    secs += carry;
    nanos = (int32_t)(nanos - carry * COMB_NANOS_PER_SECOND);

    int64_t days = comb_seconds_to_days(secs);
    int64_t of_day = secs - comb_days_to_seconds(days);
    CombTextOut o = comb_textout(buf, cap);
    out_date(&o, days);
    comb_textout_char(&o, ' ');
    comb_textout_uint(&o, (uint64_t)(of_day / 3600), 2);
    comb_textout_char(&o, ':');
    comb_textout_uint(&o, (uint64_t)(of_day / 60 % 60), 2);
    comb_textout_char(&o, ':');
    comb_textout_uint(&o, (uint64_t)(of_day % 60), 2);
    if (nanos != 0) {
        int width = 9;
        while (nanos % 10 == 0) {
            nanos /= 10;
            width--;
        }
        comb_textout_char(&o, '.');
        comb_textout_uint(&o, (uint64_t)nanos, width);
    }
    return comb_textout_finish(&o);
}
