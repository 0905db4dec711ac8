/*
 * datetime.h - Hive's DATE and TIMESTAMP values: days and seconds counted
 * from 1970-01-01 on the proleptic Gregorian calendar (Hive 3 and later,
 * ORC's PROLEPTIC_GREGORIAN), with no time zone: a TIMESTAMP is a wall
 * clock reading, stored as if it were UTC.  Hive's documented range is
 * 0000-01-01 to 9999-12-31; the parsers accept what Hive's java.time
 * formatters accept (negative and longer years included) and the day
 * arithmetic is exact for years within +-10^12.  Pure functions, no
 * allocation.
 */
#ifndef COMB_DATETIME_H
#define COMB_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COMB_SECONDS_PER_DAY 86400
#define COMB_NANOS_PER_SECOND 1000000000

/* Days since 1970-01-01 of year y, month m (1..12), day d (1..31). */
int64_t comb_days_from_civil(int64_t y, int m, int d);
/* The calendar date of a day count (any int64). */
void comb_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* True for a real date (month 1..12, day within the month, leap years). */
bool comb_date_valid(int64_t y, int m, int d);

/*
 * A DATE from text as Hive's Date.valueOf reads it (DATE '...', text
 * files, CAST(string AS DATE)): trimmed of every character up to ' '
 * (Java's trim), then y-M-d with a 1..4 digit year (an optional '-', never
 * '+'), 1 or 2 digit month and day; whatever follows is ignored unless it
 * starts with a digit ("2021-1-5", "2021-01-05 10:20", "2021-01-05T10",
 * even "2021-01-05x" are 2021-01-05; "2021-01-0500" is not).  False for
 * anything else or an impossible date (2021-02-30).  Hive's CAST differs
 * only for text shaped like a timestamp (19 characters before any '.'),
 * which must then be a valid timestamp, and for zoned text (a '+', or a
 * '-' right after the date).
 */
bool comb_date_parse(const char *s, size_t n, int64_t *days);

/* java.time's "uuuu-MM-dd" as Hive prints dates: four year digits, a '+'
 * before years beyond 9999 ("+10000-01-01"), a '-' before negative ones
 * ("-0001-01-01").  Like snprintf it keeps what fits in cap bytes,
 * NUL-terminated, and returns the full length (32 bytes suffice). */
size_t comb_date_format(int64_t days, char *buf, size_t cap);

/*
 * A TIMESTAMP from text as Hive's Timestamp.valueOf reads it (TIMESTAMP
 * '...', text files), trimmed like a date, in one of three forms:
 *   - a date alone, y-M-d as comb_date_parse but with nothing after it:
 *     midnight (Hive's CAST reads 10-character text this way);
 *   - Hive's own: y-M-d H:m:s[.f], 1..10 year digits (optional '-'), 1 or
 *     2 digit fields, seconds required, one space, 1..9 fraction digits
 *     ("2021-01-05 10:20" is not a timestamp);
 *   - the ISO fallback: yyyy-MM-dd'T'HH:mm[:ss[.f]] with two-digit fields,
 *     't' too, 0..9 fraction digits (a bare '.' is allowed), a 4-digit
 *     year or a signed longer one ("+12021").
 * False for anything else or impossible fields (hour 24, minute 60,
 * second 60, 2021-02-29).  Hive's CAST(string AS TIMESTAMP) adds steps a
 * caller composes from this and comb_date_parse: more than 9 fraction
 * digits are cut to 9; text not 19 characters before its '.' (and not
 * zoned) is read by Date.valueOf, so "2021-01-05 10:20" and
 * "2021-1-5 1:2:3" become midnight.
 */
bool comb_timestamp_parse(const char *s, size_t n, int64_t *secs,
                          int32_t *nanos);

/* "uuuu-MM-dd HH:mm:ss" (years as comb_date_format) followed by ".f..."
 * with the fraction's trailing zeros removed when nanos != 0 (Hive's
 * Timestamp.toString: nanos 100000000 print ".1").  Nanos outside
 * 0..999999999 carry into the seconds.  Like snprintf it keeps what fits
 * in cap bytes, NUL-terminated, and returns the full length (48 bytes
 * suffice). */
size_t comb_timestamp_format(int64_t secs, int32_t nanos, char *buf,
                             size_t cap);

/* Seconds of a day count at midnight, and the day count of a timestamp's
 * seconds (floor toward earlier days: -1 is day -1). */
int64_t comb_days_to_seconds(int64_t days);
int64_t comb_seconds_to_days(int64_t secs);

#endif
