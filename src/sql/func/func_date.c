/*
 * func_date.c - Hive's date and time functions: date_add / date_sub /
 * datediff (GenericUDFDateAdd/Sub/DateDiff: DATE results, strings read as
 * dates), add_months (the last day of a month stays the last day), months_
 * between (31-day months, 8 digits HALF_UP), last_day, next_day, trunc,
 * date_format (the common letters of Java's patterns), to_date, year,
 * quarter, month, day/dayofmonth, hour, minute, second, weekofyear (ISO
 * weeks), dayofweek (1 = Sunday), unix_timestamp / to_unix_timestamp,
 * from_unixtime, to_utc_timestamp and from_utc_timestamp.
 *
 * DATE and TIMESTAMP values have no time zone (wall-clock readings).
 * Only unix_timestamp and from_unixtime (seconds since the epoch) and the
 * two UTC conversions (a named zone) involve one: the session's zone is
 * hive.local.time.zone, LOCAL (the default) being the process's zone (TZ),
 * as Hive 4's default is the JVM's.  Zones are IANA names of the system's
 * tz database, UTC/GMT/Z, or offsets (GMT+8, UTC-05:30, +08:00); an
 * unknown name is GMT, as Java's TimeZone.getTimeZone makes it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "common/datetime.h"
#include "sql/func/func_int.h"

/* ------------------------------------------------------------- zones */

/* The POSIX TZ value of a Hive zone name ("" for the process's own). */
static const char *posix_zone(const char *zone, char *buf, size_t n)
{
    const char *p = zone;
    int h = 0, m = 0;
    char sign;
    struct stat st;
    if (!zone || !*zone || strcasecmp(zone, "LOCAL") == 0)
        return "";
    if (strcasecmp(zone, "UTC") == 0 || strcasecmp(zone, "GMT") == 0 ||
        strcasecmp(zone, "Z") == 0 || strcasecmp(zone, "UT") == 0)
        return "UTC0";
    if (strncasecmp(p, "GMT", 3) == 0 || strncasecmp(p, "UTC", 3) == 0)
        p += 3;
    if ((*p == '+' || *p == '-') && isdigit((unsigned char)p[1])) {
        sign = *p++;
        h = atoi(p);
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == ':')
            m = atoi(p + 1);
        if (h > 18 || m > 59)
            return "UTC0";
        /* POSIX offsets count west: GMT+8 is "<+08>-8" */
        snprintf(buf, n, "<%c%02d%02d>%c%d:%02d", sign, h, m,
                 sign == '+' ? '-' : '+', h, m);
        return buf;
    }
    if (!strstr(zone, "..") && zone[0] != '/' &&
        snprintf(buf, n, "/usr/share/zoneinfo/%s", zone) < (int)n &&
        stat(buf, &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(buf, n, ":%s", zone);
        return buf;
    }
    return "UTC0";
}

typedef struct ZoneScope {
    char saved[256];
    bool had, changed;
} ZoneScope;

/* Make zone the process's zone until zone_leave. */
static void zone_enter(const char *zone, ZoneScope *z)
{
    char buf[320];
    const char *tz = posix_zone(zone, buf, sizeof buf), *old = getenv("TZ");
    z->changed = *tz != '\0';
    if (!z->changed)
        return;
    z->had = old != NULL;
    snprintf(z->saved, sizeof z->saved, "%s", old ? old : "");
    setenv("TZ", tz, 1);
    tzset();
}

static void zone_leave(ZoneScope *z)
{
    if (!z->changed)
        return;
    if (z->had)
        setenv("TZ", z->saved, 1);
    else
        unsetenv("TZ");
    tzset();
}

/* Seconds since the epoch of a wall-clock reading in the current zone. */
static int64_t wall_to_epoch(int64_t wall)
{
    int64_t days = comb_seconds_to_days(wall), y, sod = wall - days * 86400;
    int m, d;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    comb_civil_from_days(days, &y, &m, &d);
    tm.tm_year = (int)(y - 1900);
    tm.tm_mon = m - 1;
    tm.tm_mday = d;
    tm.tm_hour = (int)(sod / 3600);
    tm.tm_min = (int)(sod / 60 % 60);
    tm.tm_sec = (int)(sod % 60);
    tm.tm_isdst = -1;
    return (int64_t)mktime(&tm);
}

/* The wall-clock reading in the current zone of epoch seconds. */
static int64_t epoch_to_wall(int64_t secs)
{
    time_t t = (time_t)secs;
    struct tm tm;
    localtime_r(&t, &tm);
    return comb_days_to_seconds(comb_days_from_civil(tm.tm_year + 1900LL,
                                                     tm.tm_mon + 1, tm.tm_mday)) +
           tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
}

static const char *session_zone(SqlStmtCtx *c)
{
    const char *z = sql_session_get_conf(c->s, "hive.local.time.zone");
    return z ? comb_arena_strdup(c->arena, z) : "LOCAL";
}

/* --------------------------------------------------------------- binding */

/* The function's name in capitals, as Hive's messages print it. */
static const char *upper_name(SqlFnBind *f)
{
    char *u = comb_arena_strdup(f->c->arena, f->def->name);
    for (char *p = u; p && *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return u ? u : f->def->name;
}

/* Argument i as a DATE (strings read as dates, timestamps by their
 * day); Hive's message for other types. */
static int date_arg(SqlFnBind *f, int i, CombErr *err)
{
    CombTypeKind t = f->b->args[i]->type;
    if (!(sql_is_string(t) || t == COMB_T_DATE || t == COMB_T_TIMESTAMP ||
          t == COMB_T_NULL))
        return sql_fn_error(err, 10014, f->call, i,
                            " %s() only takes STRING/TIMESTAMP/DATEWRITABLE types "
                            "as %s argument, got %s", upper_name(f),
                            i == 0 ? "first" : "second", sql_hive_category(t));
    return sql_fn_arg_kind(f, i, COMB_T_DATE, err);
}

/* Argument i as a TIMESTAMP (strings as CAST reads them, dates at
 * midnight). */
static int timestamp_arg(SqlFnBind *f, int i, CombErr *err)
{
    CombTypeKind t = f->b->args[i]->type;
    if (!(sql_is_string(t) || t == COMB_T_DATE || t == COMB_T_TIMESTAMP ||
          t == COMB_T_NULL))
        return sql_fn_error(err, 10016, f->call, i,
                            "%s only takes STRING_GROUP, DATE_GROUP types as "
                            "%s argument, got %s", f->def->name,
                            i == 0 ? "1st" : "2nd", sql_hive_category(t));
    return sql_fn_arg_kind(f, i, COMB_T_TIMESTAMP, err);
}

static int small_int_arg(SqlFnBind *f, int i, CombErr *err)
{
    CombTypeKind t = f->b->args[i]->type;
    if (!(t == COMB_T_NULL || (sql_int_rank(t) && sql_int_rank(t) <= 3)))
        return sql_fn_error(err, 10014, f->call, i,
                            " %s() only takes TINYINT/SMALLINT/INT types as "
                            "second argument, got %s", upper_name(f),
                            sql_hive_category(t));
    return sql_fn_arg_kind(f, i, COMB_T_INT, err);
}

/* f(date, int) -> DATE */
static int bind_date_int(SqlFnBind *f, CombErr *err)
{
    int rc;
    f->b->type = COMB_T_DATE;
    if ((rc = date_arg(f, 0, err)))
        return rc;
    return small_int_arg(f, 1, err);
}

/* f(date, ...) with the rest by sig; result by sig */
static int bind_date_first(SqlFnBind *f, CombErr *err)
{
    int rc;
    if ((rc = sql_fn_bind_sig(f, err)) || (rc = date_arg(f, 0, err)))
        return rc;
    return COMB_OK;
}

static int bind_ts_first(SqlFnBind *f, CombErr *err)
{
    int rc;
    if ((rc = sql_fn_bind_sig(f, err)) || (rc = timestamp_arg(f, 0, err)))
        return rc;
    return COMB_OK;
}

/* ------------------------------------------------------------ day math */

SQL_STRICT_FN(fn_date_add)
{
    (void)null;
    (void)err;
    e->out->i64[row] = ARG_I(0) + (e->ival ? -ARG_I(1) : ARG_I(1));
    return COMB_OK;
}

static int bind_date_sub(SqlFnBind *f, CombErr *err)
{
    f->b->ival = 1;
    return bind_date_int(f, err);
}

static int bind_datediff(SqlFnBind *f, CombErr *err)
{
    int rc;
    f->b->type = COMB_T_INT;
    if ((rc = date_arg(f, 0, err)) || (rc = date_arg(f, 1, err)))
        return rc;
    return COMB_OK;
}

SQL_STRICT_FN(fn_datediff)
{
    (void)null;
    (void)err;
    e->out->i64[row] = ARG_I(0) - ARG_I(1);
    return COMB_OK;
}

static int days_in_month(int64_t y, int m)
{
    static const int n[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0) ? 29 : n[m - 1];
}

static int set_date_text(BoundExpr *e, int row, int64_t days, CombErr *err)
{
    char buf[32], *p;
    size_t n = comb_date_format(days, buf, sizeof buf);
    if (!(p = sql_fn_alloc(e, n, err)))
        return COMB_ENOMEM;
    memcpy(p, buf, n);
    sql_fn_set_str(e, row, p, n);
    return COMB_OK;
}

/* add_months: Calendar.add(MONTH) (the day clamped to the month), and
 * the last day of a month to the last day of the new one. */
SQL_STRICT_FN(fn_add_months)
{
    int64_t y, months;
    int m, d;
    bool last;
    (void)null;
    comb_civil_from_days(ARG_I(0), &y, &m, &d);
    last = d == days_in_month(y, m);
    months = y * 12 + (m - 1) + ARG_I(1);
    y = months >= 0 ? months / 12 : -((-months + 11) / 12);
    m = (int)(months - y * 12) + 1;
    if (last || d > days_in_month(y, m))
        d = days_in_month(y, m);
    return set_date_text(e, row, comb_days_from_civil(y, m, d), err);
}

static int bind_add_months(SqlFnBind *f, CombErr *err)
{
    int rc;
    f->b->type = COMB_T_STRING;
    if ((rc = date_arg(f, 0, err)))
        return rc;
    return small_int_arg(f, 1, err);
}

SQL_STRICT_FN(fn_last_day)
{
    int64_t y;
    int m, d;
    (void)null;
    comb_civil_from_days(ARG_I(0), &y, &m, &d);
    return set_date_text(e, row, comb_days_from_civil(y, m, days_in_month(y, m)), err);
}

/* Day of week of a day count: 0 = Sunday. */
static int weekday(int64_t days)
{
    int64_t w = (days + 4) % 7;
    return (int)(w < 0 ? w + 7 : w);
}

/* next_day(date, 'MO' | 'MON' | 'MONDAY' ...): the first such day after
 * date; NULL for another name. */
SQL_STRICT_FN(fn_next_day)
{
    static const char *const names[7] = {"SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY",
                                         "THURSDAY", "FRIDAY", "SATURDAY"};
    CombStr s = ARG_S(1);
    int want = -1, add;
    for (int k = 0; k < 7 && want < 0; k++)
        if ((s.len == 2 || s.len == 3 || s.len == strlen(names[k])) &&
            strncasecmp(s.ptr, names[k], s.len) == 0)
            want = k;
    if (want < 0) {
        *null = true;
        return COMB_OK;
    }
    add = (want - weekday(ARG_I(0)) + 7) % 7;
    return set_date_text(e, row, ARG_I(0) + (add ? add : 7), err);
}

/* trunc(date, 'MONTH'|'MON'|'MM'|'YEAR'|'YYYY'|'YY'|'QUARTER'|'Q'). */
SQL_STRICT_FN(fn_trunc)
{
    CombStr f = ARG_S(1);
    int64_t y;
    int m, d;
    comb_civil_from_days(ARG_I(0), &y, &m, &d);
#define IS(w) (f.len == strlen(w) && strncasecmp(f.ptr, w, f.len) == 0)
    if (IS("MONTH") || IS("MON") || IS("MM"))
        d = 1;
    else if (IS("YEAR") || IS("YYYY") || IS("YY"))
        m = d = 1;
    else if (IS("QUARTER") || IS("Q")) {
        m = (m - 1) / 3 * 3 + 1;
        d = 1;
    } else {
        *null = true;
        return COMB_OK;
    }
#undef IS
    return set_date_text(e, row, comb_days_from_civil(y, m, d), err);
}

/* ------------------------------------------------------------- fields */

enum { F_YEAR, F_QUARTER, F_MONTH, F_DAY, F_HOUR, F_MINUTE, F_SECOND, F_WEEK,
       F_DOW };

/* ISO 8601 week of a day count (Monday first, week 1 holds Jan 4). */
static int iso_week(int64_t days)
{
    int64_t y;
    int m, d, wd = (weekday(days) + 6) % 7;   /* 0 = Monday */
    int64_t thursday = days - wd + 3, jan1;
    comb_civil_from_days(thursday, &y, &m, &d);
    jan1 = comb_days_from_civil(y, 1, 1);
    return (int)((thursday - jan1) / 7 + 1);
}

SQL_STRICT_FN(fn_field_of)
{
    int64_t secs = ARG_I(0), days = comb_seconds_to_days(secs), y, sod;
    int m, d;
    (void)null;
    (void)err;
    comb_civil_from_days(days, &y, &m, &d);
    sod = secs - days * 86400;
    switch (e->ival) {
    case F_YEAR: e->out->i64[row] = y; break;
    case F_QUARTER: e->out->i64[row] = (m - 1) / 3 + 1; break;
    case F_MONTH: e->out->i64[row] = m; break;
    case F_DAY: e->out->i64[row] = d; break;
    case F_HOUR: e->out->i64[row] = sod / 3600; break;
    case F_MINUTE: e->out->i64[row] = sod / 60 % 60; break;
    case F_SECOND: e->out->i64[row] = sod % 60; break;
    case F_WEEK: e->out->i64[row] = iso_week(days); break;
    default: e->out->i64[row] = weekday(days) + 1; break;
    }
    return COMB_OK;
}

static int bind_field_of(SqlFnBind *f, CombErr *err)
{
    static const struct { const char *name; int field; } fields[] = {
        {"year", F_YEAR}, {"quarter", F_QUARTER}, {"month", F_MONTH},
        {"day", F_DAY}, {"dayofmonth", F_DAY}, {"hour", F_HOUR},
        {"minute", F_MINUTE}, {"second", F_SECOND}, {"weekofyear", F_WEEK},
        {"dayofweek", F_DOW}};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (strcmp(fields[k].name, f->def->name) == 0)
            f->b->ival = fields[k].field;
    f->b->type = COMB_T_INT;
    return timestamp_arg(f, 0, err);
}

/* to_date(x): the DATE of x (a string read as CAST reads it). */
static int bind_to_date(SqlFnBind *f, CombErr *err)
{
    int rc = date_arg(f, 0, err);
    if (rc)
        return rc;
    *f->out = f->b->args[0];
    return COMB_OK;
}

/* ------------------------------------------------------- months_between */

/* GenericUDFMonthsBetween: whole months when the days of month are equal
 * or both the last, else the difference with 31-day months counting the
 * time of day; rounded to 8 digits unless the third argument is false. */
SQL_STRICT_FN(fn_months_between)
{
    int64_t s1 = ARG_I(0), s2 = ARG_I(1), d1 = comb_seconds_to_days(s1),
            d2 = comb_seconds_to_days(s2), y1, y2;
    int m1, m2, day1, day2;
    double r;
    (void)null;
    (void)err;
    comb_civil_from_days(d1, &y1, &m1, &day1);
    comb_civil_from_days(d2, &y2, &m2, &day2);
    r = (double)((y1 - y2) * 12 + (m1 - m2));
    if (!(day1 == day2 || (day1 == days_in_month(y1, m1) && day2 == days_in_month(y2, m2)))) {
        int64_t sec1 = day1 * 86400LL + (s1 - d1 * 86400), sec2 = day2 * 86400LL + (s2 - d2 * 86400);
        r += (double)(sec1 - sec2) / (86400.0 * 31);
    }
    if (e->n_args < 3 || e->args[2]->out->i64[row])
        r = sql_round_double(r, 8, false);
    e->out->f64[row] = r;
    return COMB_OK;
}

static int bind_months_between(SqlFnBind *f, CombErr *err)
{
    int rc;
    f->b->type = COMB_T_DOUBLE;
    if ((rc = timestamp_arg(f, 0, err)) || (rc = timestamp_arg(f, 1, err)))
        return rc;
    if (f->b->n_args == 3 && f->b->args[2]->type != COMB_T_BOOLEAN)
        return sql_fn_error(err, 10016, f->call, 2,
                            "months_between only takes BOOLEAN as 3rd argument, "
                            "got %s", sql_bx_type_text(f->c, f->b->args[2]));
    return COMB_OK;
}

/* ------------------------------------------------------------ formats */

static const char *const month_names[12] = {
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"};
static const char *const day_names[7] = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

static void num(CombBuf *b, int64_t v, int width)
{
    comb_buf_printf(b, "%0*lld", width, (long long)v);
}

/* A wall-clock reading formatted with a Java date pattern (letters y M
 * d D Q E u a H k K h m s S, 'quoted' text); false for another letter. */
static bool format_time(int64_t secs, int32_t nanos, CombStr pat, CombBuf *b)
{
    int64_t days = comb_seconds_to_days(secs), sod = secs - days * 86400, y;
    int m, d, hour = (int)(sod / 3600);
    comb_civil_from_days(days, &y, &m, &d);
    for (uint32_t at = 0; at < pat.len;) {
        char c = pat.ptr[at];
        uint32_t n = 1;
        if (c == '\'') {
            uint32_t end = at + 1;
            if (end < pat.len && pat.ptr[end] == '\'') {
                comb_buf_append_byte(b, '\'');
                at += 2;
                continue;
            }
            while (end < pat.len && pat.ptr[end] != '\'')
                end++;
            comb_buf_append(b, pat.ptr + at + 1, end - at - 1);
            at = end + 1;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            comb_buf_append_byte(b, c);
            at++;
            continue;
        }
        while (at + n < pat.len && pat.ptr[at + n] == c)
            n++;
        switch (c) {
        case 'y': case 'u': case 'Y':
            if (c == 'u' && n == 1 && false)
                break;
            if (n == 2)
                num(b, (y % 100 + 100) % 100, 2);
            else
                num(b, y, (int)n);
            break;
        case 'M': case 'L':
            if (n >= 4)
                comb_buf_printf(b, "%s", month_names[m - 1]);
            else if (n == 3)
                comb_buf_printf(b, "%.3s", month_names[m - 1]);
            else
                num(b, m, (int)n);
            break;
        case 'd': num(b, d, (int)n); break;
        case 'Q': num(b, (m - 1) / 3 + 1, (int)n); break;
        case 'D': num(b, days - comb_days_from_civil(y, 1, 1) + 1, (int)n); break;
        case 'E':
            if (n >= 4)
                comb_buf_printf(b, "%s", day_names[weekday(days)]);
            else
                comb_buf_printf(b, "%.3s", day_names[weekday(days)]);
            break;
        case 'a': comb_buf_printf(b, "%s", hour < 12 ? "AM" : "PM"); break;
        case 'H': num(b, hour, (int)n); break;
        case 'k': num(b, hour ? hour : 24, (int)n); break;
        case 'K': num(b, hour % 12, (int)n); break;
        case 'h': num(b, hour % 12 ? hour % 12 : 12, (int)n); break;
        case 'm': num(b, sod / 60 % 60, (int)n); break;
        case 's': num(b, sod % 60, (int)n); break;
        case 'S': {
            char frac[16];
            snprintf(frac, sizeof frac, "%09d", nanos);
            for (uint32_t k = 0; k < n; k++)
                comb_buf_append_byte(b, k < 9 ? frac[k] : '0');
            break;
        }
        default:
            return false;
        }
        at += n;
    }
    return true;
}

static int set_buf(BoundExpr *e, int row, const CombBuf *b, CombErr *err)
{
    char *p = sql_fn_alloc(e, b->len, err);
    if (!p)
        return COMB_ENOMEM;
    if (b->len)
        memcpy(p, b->data, b->len);
    sql_fn_set_str(e, row, p, b->len);
    return COMB_OK;
}

SQL_STRICT_FN(fn_date_format)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    const CombVector *x = e->args[0]->out;
    if (!format_time(ARG_I(0), x->nanos ? x->nanos[row] : 0, ARG_S(1), &b))
        *null = true;
    else
        rc = set_buf(e, row, &b, err);
    comb_buf_free(&b);
    return rc;
}

/* Parse s with a Java date pattern (the numeric letters and quoted
 * text): the wall-clock seconds, false when s does not fit. */
static bool parse_time(CombStr s, CombStr pat, int64_t *out)
{
    int64_t y = 1970, v;
    int m = 1, d = 1, h = 0, mi = 0, sec = 0;
    bool pm = false, ampm = false;
    uint32_t si = 0;
    for (uint32_t at = 0; at < pat.len;) {
        char c = pat.ptr[at];
        uint32_t n = 1, digits = 0;
        if (c == '\'') {
            uint32_t end = at + 1;
            while (end < pat.len && pat.ptr[end] != '\'')
                end++;
            if (si + (end - at - 1) > s.len || memcmp(s.ptr + si, pat.ptr + at + 1, end - at - 1))
                return false;
            si += end - at - 1;
            at = end + 1;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            if (si >= s.len || s.ptr[si] != c)
                return false;
            si++;
            at++;
            continue;
        }
        while (at + n < pat.len && pat.ptr[at + n] == c)
            n++;
        at += n;
        if (c == 'a') {
            if (si + 2 > s.len)
                return false;
            ampm = true;
            pm = strncasecmp(s.ptr + si, "PM", 2) == 0;
            si += 2;
            continue;
        }
        v = 0;
        /* adjacent numeric fields take exactly their width */
        while (si < s.len && s.ptr[si] >= '0' && s.ptr[si] <= '9' &&
               (at < pat.len && isalpha((unsigned char)pat.ptr[at]) ? digits < n : 1)) {
            v = v * 10 + (s.ptr[si++] - '0');
            digits++;
        }
        if (!digits)
            return false;
        switch (c) {
        case 'y': case 'u': case 'Y': y = n == 2 && digits == 2 ? 2000 + v : v; break;
        case 'M': m = (int)v; break;
        case 'd': d = (int)v; break;
        case 'H': case 'k': h = (int)v; break;
        case 'h': case 'K': h = (int)v % 12; break;
        case 'm': mi = (int)v; break;
        case 's': sec = (int)v; break;
        case 'S': break;
        default: return false;
        }
    }
    if (ampm && pm)
        h += 12;
    if (!comb_date_valid(y, m, d) || h > 23 || mi > 59 || sec > 59)
        return false;
    *out = comb_days_to_seconds(comb_days_from_civil(y, m, d)) + h * 3600 + mi * 60 + sec;
    return true;
}

/* unix_timestamp(): the statement's clock; unix_timestamp(x[, pattern]):
 * x (a string read with the pattern, 'yyyy-MM-dd HH:mm:ss' by default,
 * NULL when it does not fit) as seconds since the epoch in the session's
 * zone. */
static int fn_unix_timestamp(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    ZoneScope z;
    (void)err;
    if (e->n_args == 0) {
        o->has_nulls = false;
        FOR_LIVE(in, i, row)
            o->i64[row] = e->ival;
        return COMB_OK;
    }
    sql_fn_nulls_of_args(e, in);
    zone_enter(e->state, &z);
    FOR_LIVE(in, i, row) {
        int64_t wall;
        if (o->has_nulls && o->nulls[row])
            continue;
        if (e->args[0]->type == COMB_T_STRING) {
            CombStr pat = e->n_args > 1 ? ARG_S(1) : (CombStr){"yyyy-MM-dd HH:mm:ss", 19};
            if (!parse_time(ARG_S(0), pat, &wall)) {
                sql_vec_mark(o, in, row, true);
                continue;
            }
        } else {
            wall = ARG_I(0);
        }
        o->i64[row] = wall_to_epoch(wall);
    }
    zone_leave(&z);
    return COMB_OK;
}

static int bind_unix_timestamp(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    CombTypeKind t = b->n_args ? b->args[0]->type : COMB_T_NULL;
    int rc;
    b->type = COMB_T_BIGINT;
    b->state = (void *)session_zone(f->c);
    if (b->n_args == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        b->ival = ts.tv_sec;
        return COMB_OK;
    }
    if (sql_is_string(t)) {
        for (int i = 0; i < b->n_args; i++)
            if ((rc = sql_fn_arg_kind(f, i, COMB_T_STRING, err)))
                return rc;
        return COMB_OK;
    }
    if (b->n_args > 1)
        return sql_fn_error(err, 10016, f->call, 0,
                            "The function %s takes only string as the first "
                            "argument when a format is given, got %s",
                            f->def->name, sql_bx_type_text(f->c, b->args[0]));
    return timestamp_arg(f, 0, err);
}

/* from_unixtime(seconds[, pattern]): the reading of the session's zone's
 * clock at that time, formatted ('yyyy-MM-dd HH:mm:ss'). */
static int fn_from_unixtime(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    CombBuf b = COMB_BUF_INIT;
    ZoneScope z;
    int rc = COMB_OK;
    comb_arena_reset(e->scratch);
    sql_fn_nulls_of_args(e, in);
    zone_enter(e->state, &z);
    FOR_LIVE(in, i, row) {
        CombStr pat = e->n_args > 1 ? ARG_S(1) : (CombStr){"yyyy-MM-dd HH:mm:ss", 19};
        if (o->has_nulls && o->nulls[row])
            continue;
        b.len = 0;
        if (!format_time(epoch_to_wall(ARG_I(0)), 0, pat, &b))
            sql_vec_mark(o, in, row, true);
        else if ((rc = set_buf(e, row, &b, err)))
            break;
    }
    zone_leave(&z);
    comb_buf_free(&b);
    return rc;
}

static int bind_from_unixtime(SqlFnBind *f, CombErr *err)
{
    f->b->state = (void *)session_zone(f->c);
    return sql_fn_bind_sig(f, err);
}

/* to_utc_timestamp(ts, zone): the UTC reading of ts read in zone;
 * from_utc_timestamp(ts, zone): zone's reading of the UTC ts. */
static int utc_convert(BoundExpr *e, const CombBatch *in, bool to_utc)
{
    CombVector *o = e->out;
    const CombVector *x = e->args[0]->out;
    char last[256] = "";
    ZoneScope z = {0};
    bool in_zone = false;
    sql_fn_nulls_of_args(e, in);
    FOR_LIVE(in, i, row) {
        CombStr zone = ARG_S(1);
        if (o->has_nulls && o->nulls[row])
            continue;
        if (!in_zone || zone.len >= sizeof last || strncmp(last, zone.ptr, zone.len) ||
            last[zone.len]) {
            if (in_zone)
                zone_leave(&z);
            snprintf(last, sizeof last, "%.*s", (int)zone.len, zone.ptr);
            zone_enter(last, &z);
            in_zone = true;
        }
        o->i64[row] = to_utc ? wall_to_epoch(ARG_I(0)) : epoch_to_wall(ARG_I(0));
        o->nanos[row] = x->nanos[row];
    }
    if (in_zone)
        zone_leave(&z);
    return COMB_OK;
}

static int fn_to_utc(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return utc_convert(e, in, true);
}

static int fn_from_utc(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return utc_convert(e, in, false);
}

static int bind_utc(SqlFnBind *f, CombErr *err)
{
    int rc;
    f->b->type = COMB_T_TIMESTAMP;
    if ((rc = timestamp_arg(f, 0, err)))
        return rc;
    return sql_fn_arg_kind(f, 1, COMB_T_STRING, err);
}

const SqlFuncDef sql_funcs_date[] = {
    {"date_add", 2, 2, bind_date_int, fn_date_add, NULL},
    {"date_sub", 2, 2, bind_date_sub, fn_date_add, NULL},
    {"datediff", 2, 2, bind_datediff, fn_datediff, NULL},
    {"add_months", 2, 2, bind_add_months, fn_add_months, NULL},
    {"last_day", 1, 1, bind_date_first, fn_last_day, "s:*"},
    {"next_day", 2, 2, bind_date_first, fn_next_day, "s:*s"},
    {"trunc", 2, 2, bind_date_first, fn_trunc, "s:*s"},
    {"months_between", 2, 3, bind_months_between, fn_months_between, NULL},
    {"date_format", 2, 2, bind_ts_first, fn_date_format, "s:*s"},
    {"to_date", 1, 1, bind_to_date, NULL, NULL},
    {"year", 1, 1, bind_field_of, fn_field_of, NULL},
    {"quarter", 1, 1, bind_field_of, fn_field_of, NULL},
    {"month", 1, 1, bind_field_of, fn_field_of, NULL},
    {"day", 1, 1, bind_field_of, fn_field_of, NULL},
    {"dayofmonth", 1, 1, bind_field_of, fn_field_of, NULL},
    {"hour", 1, 1, bind_field_of, fn_field_of, NULL},
    {"minute", 1, 1, bind_field_of, fn_field_of, NULL},
    {"second", 1, 1, bind_field_of, fn_field_of, NULL},
    {"weekofyear", 1, 1, bind_field_of, fn_field_of, NULL},
    {"dayofweek", 1, 1, bind_field_of, fn_field_of, NULL},
    {"unix_timestamp", 0, 2, bind_unix_timestamp, fn_unix_timestamp, NULL},
    {"to_unix_timestamp", 1, 2, bind_unix_timestamp, fn_unix_timestamp, NULL},
    {"from_unixtime", 1, 2, bind_from_unixtime, fn_from_unixtime, "s:ls"},
    {"to_utc_timestamp", 2, 2, bind_utc, fn_to_utc, NULL},
    {"from_utc_timestamp", 2, 2, bind_utc, fn_from_utc, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};
