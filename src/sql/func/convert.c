/*
 * convert.c - Hive's (Java's) scalar conversion rules; see convert.h.
 * Sources of the rules (facts only): Hive's UDFToInteger/UDFToLong/
 * UDFToDouble/UDFToBoolean (which trim, then parse numbers as
 * common/numparse.h does), PrimitiveObjectInspectorUtils.parseBoolean; the
 * Java Language Specification 5.1.3 (narrowing a double to an integer).
 */
#include "sql/func/convert.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "common/numparse.h"

int64_t sql_int_min(CombTypeKind kind)
{
    return comb_int_min(kind);
}

int64_t sql_int_max(CombTypeKind kind)
{
    return comb_int_max(kind);
}

int64_t sql_int_wrap(CombTypeKind kind, int64_t v)
{
    switch (kind) {
    case COMB_T_TINYINT: return (int8_t)(uint8_t)(uint64_t)v;
    case COMB_T_SMALLINT: return (int16_t)(uint16_t)(uint64_t)v;
    case COMB_T_INT: return (int32_t)(uint32_t)(uint64_t)v;
    default: return v;
    }
}

bool sql_str_to_int(CombStr s, CombTypeKind kind, int64_t *out)
{
    return comb_parse_int(s.ptr, s.len, kind, true, out);
}

bool sql_str_to_double(CombStr s, bool is_float, double *out)
{
    return comb_parse_double(s.ptr, s.len, is_float, out);
}

bool sql_str_to_boolean(CombStr s)
{
    static const char *const falses[] = {"false", "off", "no", "0"};
    if (s.len == 0)
        return false;
    for (size_t i = 0; i < sizeof falses / sizeof falses[0]; i++)
        if (s.len == strlen(falses[i]) &&
            strncasecmp(s.ptr, falses[i], s.len) == 0)
            return false;
    return true;
}

/* JLS 5.1.3: a double to long or int, saturating, NaN = 0. */
static int64_t java_d2l(double d, int64_t lo, int64_t hi)
{
    if (isnan(d))
        return 0;
    if (d <= (double)lo)
        return lo;
    if (d >= (double)hi)
        return hi;
    return (int64_t)d;
}

int64_t sql_double_to_int(double d, CombTypeKind kind)
{
    if (kind == COMB_T_BIGINT)
        return java_d2l(d, INT64_MIN, INT64_MAX);
    return sql_int_wrap(kind, java_d2l(d, INT32_MIN, INT32_MAX));
}

bool sql_double_fits_int(double d, CombTypeKind kind)
{
    double t;
    if (!isfinite(d))
        return false;
    t = trunc(d);
    /* 2^63 is the first double past INT64_MAX; INT64_MIN is exact */
    if (kind == COMB_T_BIGINT)
        return t >= -9223372036854775808.0 && t < 9223372036854775808.0;
    return t >= (double)sql_int_min(kind) && t <= (double)sql_int_max(kind);
}
