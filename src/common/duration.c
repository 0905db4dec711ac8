/*
 * duration.c - Hive's time values (common/duration.h).
 */
#include "common/duration.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Hive's time units (HiveConf's TimeValidator), in milliseconds; the
 * sub-millisecond ones as fractions of one, which the sum truncates. */
static const struct {
    const char *name;
    int64_t ms, per;
} units[] = {
    {"ns", 1, 1000000}, {"nsec", 1, 1000000}, {"nanosecond", 1, 1000000},
    {"nanoseconds", 1, 1000000}, {"us", 1, 1000}, {"usec", 1, 1000},
    {"microsecond", 1, 1000}, {"microseconds", 1, 1000}, {"ms", 1, 1},
    {"msec", 1, 1}, {"millisecond", 1, 1}, {"milliseconds", 1, 1},
    {"s", 1000, 1}, {"sec", 1000, 1}, {"second", 1000, 1},
    {"seconds", 1000, 1}, {"m", 60000, 1}, {"min", 60000, 1},
    {"minute", 60000, 1}, {"minutes", 60000, 1}, {"h", 3600000, 1},
    {"hour", 3600000, 1}, {"hours", 3600000, 1}, {"d", 86400000, 1},
    {"day", 86400000, 1}, {"days", 86400000, 1},
};

bool comb_duration_ms(const char *text, int64_t unit_ms, int64_t *out)
{
    char *end;
    long long n = 0;
    double frac = 0;
    int64_t ms = unit_ms, per = 1, whole;
    const char *p = text, *digits;
    bool negative;
    while (isspace((unsigned char)*p))
        p++;
    negative = *p == '-';
    digits = *p == '-' || *p == '+' ? p + 1 : p;
    if (!isdigit((unsigned char)*digits) &&
        !(*digits == '.' && isdigit((unsigned char)digits[1])))
        return false;
    errno = 0;
    end = (char *)digits;
    if (isdigit((unsigned char)*digits))
        n = strtoll(p, &end, 10);
    if (errno)
        return false;
    if (*end == '.') {
        /* the fraction's digits, of the number's sign */
        double scale = 0.1;
        for (end++; isdigit((unsigned char)*end); end++, scale /= 10)
            frac += (*end - '0') * scale;
        if (negative)
            frac = -frac;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end) {
        size_t i = 0, len = strlen(end);
        while (len > 0 && isspace((unsigned char)end[len - 1]))
            len--;
        for (; i < sizeof units / sizeof *units; i++)
            if (strlen(units[i].name) == len &&
                !strncasecmp(end, units[i].name, len))
                break;
        if (i == sizeof units / sizeof *units)
            return false;
        ms = units[i].ms;
        per = units[i].per;
    }
    /* beyond this a number of days would not fit in milliseconds */
    if (n > INT64_MAX / 86400000 || n < -(INT64_MAX / 86400000))
        return false;
    whole = n * ms / per;
    *out = whole + (int64_t)(frac * (double)ms / (double)per);
    return true;
}
