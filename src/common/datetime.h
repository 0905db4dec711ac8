/*
 * datetime.h - Hive's DATE and TIMESTAMP values: days and seconds counted
 * from 1970-01-01 on the proleptic Gregorian calendar (Hive 3 and later,
 * ORC's PROLEPTIC_GREGORIAN), with no time zone: a TIMESTAMP is a wall
 * clock reading, stored as if it were UTC.  Range: years 0001 to 9999 (the
 * text forms); arithmetic works beyond.  Pure functions, no allocation.
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
/* The calendar date of a day count. */
void comb_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* True for a real date (month 1..12, day within the month, leap years). */
bool comb_date_valid(int64_t y, int m, int d);

/*
 * A DATE from text as Hive reads it (CAST(string AS DATE), DATE '...'):
 * white space around it, then yyyy-MM-dd with 1 or 2 digit month and day
 * and a 4-digit year, optionally followed by a time part (" HH:mm:ss[.f]"
 * or "THH:mm..."), which is ignored.  False for anything else or an
 * impossible date (2021-02-30).
 */
bool comb_date_parse(const char *s, size_t n, int64_t *days);

/* "yyyy-MM-dd" (years beyond 9999 with more digits, before 1 with '-').
 * NUL-terminated; returns the length. */
size_t comb_date_format(int64_t days, char *buf, size_t cap);

/*
 * A TIMESTAMP from text as Hive reads it: white space around it,
 * yyyy-MM-dd, then optionally ' ' or 'T' and HH:mm[:ss[.fffffffff]] (one to
 * nine fraction digits); a date alone is midnight.  False for anything
 * else or impossible fields (hour 24, minute 60, second 60).
 */
bool comb_timestamp_parse(const char *s, size_t n, int64_t *secs,
                          int32_t *nanos);

/* "yyyy-MM-dd HH:mm:ss" followed by ".f..." with the fraction's trailing
 * zeros removed when nanos != 0 (Hive's Timestamp.toString).
 * NUL-terminated; returns the length. */
size_t comb_timestamp_format(int64_t secs, int32_t nanos, char *buf,
                             size_t cap);

/* Seconds and nanos of a day count at midnight, and the day count of a
 * timestamp (floor toward earlier days). */
int64_t comb_days_to_seconds(int64_t days);
int64_t comb_seconds_to_days(int64_t secs);

#endif
