/*
 * cast.c - evaluation of BX_CAST nodes: every conversion between primitive
 * types as Hive's UDFTo* / GenericUDFTo* and PrimitiveObjectInspectorUtils
 * perform it.  A value that does not convert is NULL (Hive's answer for
 * CAST), or an error naming the column when the cast converts a value
 * assigned to a column (strict).
 *
 * Sources of the rules (facts only): UDFToBoolean/Byte/Short/Integer/Long/
 * Float/Double (decimals out of an integer type's range and timestamps
 * whose seconds do not fit are NULL), PrimitiveObjectInspectorUtils.
 * getHiveDecimal (floats and doubles through their Java text), getDate,
 * getTimestamp, getString, getBinary, TimestampUtils.doubleToTimestamp /
 * decimalToTimestamp (seconds and truncated nanoseconds), TimestampWritable.
 * getDouble and longToTimestamp (integers as milliseconds unless
 * hive.int.timestamp.conversion.in.seconds), HiveDecimal.
 * enforcePrecisionScale (HALF_UP to the scale, NULL when the integer digits
 * do not fit).
 */
#include "sql/func/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/datetime.h"
#include "common/decimal.h"
#include "sql/func/convert.h"

#define FOR_LIVE(in, i, row) \
    for (int i = 0, row; i < comb_batch_live(in) && ((row = comb_batch_row(in, i)), 1); i++)

/* Outcome of one value's conversion. */
typedef enum Conv {
    CONV_OK,
    CONV_NULL,      /* the value has no counterpart in the target type */
    CONV_NOMEM
} Conv;

static int vec_scale(const CombVector *v)
{
    return v->type ? (int)v->type->scale : 0;
}

/* --------------------------------------------------------------- errors */

/* The value being converted as a short text for an error message. */
static void value_preview(const CombVector *x, int row, char *buf, size_t n)
{
    CombBuf b = COMB_BUF_INIT;
    bool quote = comb_type_is_str(x->kind);
    if (sql_format_value(x, row, &b) || !b.data) {
        snprintf(buf, n, "?");
    } else {
        int len = (int)(b.len > 60 ? 60 : b.len);
        snprintf(buf, n, quote ? "'%.*s'" : "%.*s", len, (const char *)b.data);
    }
    comb_buf_free(&b);
}

static int cast_error(const BoundExpr *e, const char *text, CombErr *err)
{
    return sql_err_at(err, COMB_EINVALID, 0, e->pos,
                      "cannot convert %s to %s for column '%s'", text,
                      comb_type_name(e->type), e->fname ? e->fname : "?");
}

/* A value that does not convert: NULL for CAST (Hive's answer), an error
 * naming the column for an assignment. */
static int bad_value(BoundExpr *e, const CombBatch *in, int row,
                     const char *suffix, CombErr *err)
{
    char text[128];
    if (!e->strict) {
        sql_vec_mark(e->out, in, row, true);
        return COMB_OK;
    }
    value_preview(e->a->out, row, text, sizeof text);
    strncat(text, suffix, sizeof text - strlen(text) - 1);
    return cast_error(e, text, err);
}

/* -------------------------------------------------------------- integers */

static bool in_range(CombTypeKind k, int64_t v)
{
    return v >= sql_int_min(k) && v <= sql_int_max(k);
}

/* A double to an integer kind: a Java cast for CAST; for an assignment
 * the fraction is dropped (3.7 stores 3) but a value out of the column's
 * range, NaN or an infinity does not convert. */
static Conv double_to_int(const BoundExpr *e, double d, int64_t *v)
{
    if (!e->strict) {
        *v = sql_double_to_int(d, e->type);
        return CONV_OK;
    }
    if (!sql_double_fits_int(d, e->type))
        return CONV_NULL;
    *v = (int64_t)trunc(d);
    return CONV_OK;
}

static Conv to_int(const BoundExpr *e, const CombVector *x, int row,
                   int64_t *v)
{
    CombTypeKind to = e->type;
    switch (x->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return double_to_int(e, x->f64[row], v);
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        return sql_str_to_int(x->str[row], to, v) ? CONV_OK : CONV_NULL;
    case COMB_T_DECIMAL:
        return comb_dec_to_int64(x->dec[row], vec_scale(x), v) && in_range(to, *v)
                   ? CONV_OK : CONV_NULL;
    case COMB_T_TIMESTAMP:
        *v = x->i64[row];
        return in_range(to, *v) ? CONV_OK : CONV_NULL;
    case COMB_T_DATE:
        return CONV_NULL;
    default:
        *v = x->i64[row];
        if (e->strict && !in_range(to, *v))
            return CONV_NULL;
        *v = sql_int_wrap(to, *v);
        return CONV_OK;
    }
}

/* --------------------------------------------------------------- doubles */

/* The nearest float to u / 10^scale (BigDecimal.floatValue: rounded once,
 * from the exact value). */
static double decimal_to_float(comb_i128 u, int scale)
{
    char text[64];
    comb_dec_format(u, scale, text, sizeof text);
    return strtof(text, NULL);
}

static Conv to_double(const BoundExpr *e, const CombVector *x, int row,
                      double *d)
{
    bool as_float = e->type == COMB_T_FLOAT;
    switch (x->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        *d = x->f64[row];
        break;
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        if (!sql_str_to_double(x->str[row], as_float, d))
            return CONV_NULL;
        break;
    case COMB_T_DECIMAL:
        *d = as_float ? decimal_to_float(x->dec[row], vec_scale(x))
                      : comb_dec_to_double(x->dec[row], vec_scale(x));
        break;
    case COMB_T_TIMESTAMP:
        *d = (double)x->i64[row] + (double)x->nanos[row] / 1e9;
        break;
    case COMB_T_DATE:
        return CONV_NULL;
    default:
        *d = (double)x->i64[row];
        break;
    }
    if (as_float)
        *d = (float)*d;
    return CONV_OK;
}

/* -------------------------------------------------------------- booleans */

static Conv to_boolean(const CombVector *x, int row, int64_t *v)
{
    switch (x->kind) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        *v = sql_str_to_boolean(x->str[row]);
        return CONV_OK;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        *v = x->f64[row] != 0;
        return CONV_OK;
    case COMB_T_DECIMAL:
        *v = x->dec[row] != 0;
        return CONV_OK;
    case COMB_T_TIMESTAMP:
        *v = x->i64[row] != 0 || x->nanos[row] != 0;
        return CONV_OK;
    case COMB_T_DATE:   /* "date value to boolean doesn't make any sense" */
        return CONV_NULL;
    default:
        *v = x->i64[row] != 0;
        return CONV_OK;
    }
}

/* -------------------------------------------------------------- decimals */

/* Decimal text rounded HALF_UP to the target scale, if it fits. */
static Conv text_to_decimal(const char *s, size_t n, const CombType *to,
                            comb_i128 *u)
{
    return comb_dec_parse(s, n, (int)to->scale, u) &&
                   comb_dec_fits(*u, (int)to->precision)
               ? CONV_OK : CONV_NULL;
}

static Conv to_decimal(const BoundExpr *e, const CombVector *x, int row,
                       comb_i128 *u)
{
    const CombType *to = e->ctype;
    char text[64];
    size_t n;
    switch (x->kind) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        return text_to_decimal(x->str[row].ptr, x->str[row].len, to, u);
    case COMB_T_DECIMAL:
        return comb_dec_rescale(x->dec[row], vec_scale(x), (int)to->scale, u) &&
                       comb_dec_fits(*u, (int)to->precision)
                   ? CONV_OK : CONV_NULL;
    case COMB_T_FLOAT:
        /* through the Java text of the float (getHiveDecimal) */
        if (!isfinite(x->f64[row]))
            return CONV_NULL;
        n = sql_format_float((float)x->f64[row], text, sizeof text);
        return text_to_decimal(text, n, to, u);
    case COMB_T_DOUBLE:
        if (!isfinite(x->f64[row]))
            return CONV_NULL;
        n = sql_format_double(x->f64[row], text, sizeof text);
        return text_to_decimal(text, n, to, u);
    case COMB_T_TIMESTAMP:
        /* through TimestampWritable.getDouble's text */
        n = sql_format_double((double)x->i64[row] + (double)x->nanos[row] / 1e9,
                              text, sizeof text);
        return text_to_decimal(text, n, to, u);
    case COMB_T_DATE:
        return CONV_NULL;
    default: /* integers, boolean */
        return comb_dec_rescale(x->i64[row], 0, (int)to->scale, u) &&
                       comb_dec_fits(*u, (int)to->precision)
                   ? CONV_OK : CONV_NULL;
    }
}

/* ------------------------------------------------------ dates, timestamps */

/* A decimal number of seconds (scale) as a timestamp: whole seconds and
 * the fraction's nanoseconds, truncated; a negative fraction borrows a
 * second (TimestampUtils.decimalToTimestamp). */
static Conv seconds_to_timestamp(comb_i128 u, int scale, int64_t *secs,
                                 int32_t *nanos)
{
    comb_i128 n9, s;
    if (scale > 9)
        n9 = u / comb_dec_pow10(scale - 9);
    else if (!comb_dec_rescale(u, scale, 9, &n9))
        return CONV_NULL;
    s = n9 / 1000000000;
    *nanos = (int32_t)(n9 % 1000000000);
    if (*nanos < 0) {
        *nanos += 1000000000;
        s -= 1;
    }
    if (s > INT64_MAX || s < INT64_MIN)
        return CONV_NULL;
    *secs = (int64_t)s;
    return CONV_OK;
}

/* An integer as a timestamp: milliseconds, or seconds when
 * hive.int.timestamp.conversion.in.seconds (longToTimestamp). */
static void int_to_timestamp(bool in_seconds, int64_t v, int64_t *secs,
                             int32_t *nanos)
{
    if (in_seconds) {
        *secs = v;
        *nanos = 0;
        return;
    }
    *secs = v / 1000 - (v % 1000 < 0);
    *nanos = (int32_t)((v % 1000 + 1000) % 1000) * 1000000;
}

/* Java's String.trim: every byte up to ' ' goes. */
static CombStr java_trim(CombStr s)
{
    while (s.len > 0 && (unsigned char)s.ptr[0] <= ' ') {
        s.ptr++;
        s.len--;
    }
    while (s.len > 0 && (unsigned char)s.ptr[s.len - 1] <= ' ')
        s.len--;
    return s;
}

/* Characters before the first '.' (all of them when there is none). */
static uint32_t before_dot(CombStr s)
{
    const char *dot = memchr(s.ptr, '.', s.len);
    return dot ? (uint32_t)(dot - s.ptr) : s.len;
}

/* Text shaped like a timestamp, "yyyy-MM-dd HH:mm:ss" before any '.'. */
static bool timestamp_shaped(CombStr s)
{
    return before_dot(s) == 19;
}

/* CAST(string AS TIMESTAMP) (PrimitiveObjectInspectorUtils.
 * getTimestampFromString, TimestampUtils.stringToTimestamp): trimmed, a
 * fraction cut to 9 digits; text shaped like a timestamp must be one,
 * other text is read as a date (midnight). */
static Conv string_to_timestamp(CombStr s, int64_t *secs, int32_t *nanos)
{
    int64_t days;
    s = java_trim(s);
    if (before_dot(s) < s.len && s.len - before_dot(s) > 10)
        s.len = before_dot(s) + 10;
    *nanos = 0;
    if (timestamp_shaped(s))
        return comb_timestamp_parse(s.ptr, s.len, secs, nanos) ? CONV_OK : CONV_NULL;
    if (!comb_date_parse(s.ptr, s.len, &days))
        return CONV_NULL;
    *secs = comb_days_to_seconds(days);
    return CONV_OK;
}

/* CAST(string AS DATE) (getDate): Date.valueOf, except that text shaped
 * like a timestamp must be a timestamp, whose day it is. */
static Conv string_to_date(CombStr s, int64_t *days)
{
    int64_t secs;
    int32_t nanos;
    s = java_trim(s);
    if (!timestamp_shaped(s))
        return comb_date_parse(s.ptr, s.len, days) ? CONV_OK : CONV_NULL;
    if (string_to_timestamp(s, &secs, &nanos) != CONV_OK)
        return CONV_NULL;
    *days = comb_seconds_to_days(secs);
    return CONV_OK;
}

static Conv to_timestamp(const BoundExpr *e, const CombVector *x, int row,
                         int64_t *secs, int32_t *nanos)
{
    char text[64];
    comb_i128 u;
    size_t n;
    *nanos = 0;
    switch (x->kind) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        return string_to_timestamp(x->str[row], secs, nanos);
    case COMB_T_DATE:
        *secs = comb_days_to_seconds(x->i64[row]);
        return CONV_OK;
    case COMB_T_TIMESTAMP:
        *secs = x->i64[row];
        *nanos = x->nanos[row];
        return CONV_OK;
    case COMB_T_DECIMAL:
        return seconds_to_timestamp(x->dec[row], vec_scale(x), secs, nanos);
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        /* through the double's Java text, as doubleToTimestamp */
        if (!isfinite(x->f64[row]))
            return CONV_NULL;
        n = sql_format_double(x->f64[row], text, sizeof text);
        if (!comb_dec_parse(text, n, 18, &u))
            return CONV_NULL;
        return seconds_to_timestamp(u, 18, secs, nanos);
    default: /* integers and booleans */
        int_to_timestamp(e->ival != 0 && x->kind != COMB_T_BOOLEAN,
                         x->i64[row], secs, nanos);
        return CONV_OK;
    }
}

static Conv to_date(const CombVector *x, int row, int64_t *days)
{
    switch (x->kind) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        return string_to_date(x->str[row], days);
    case COMB_T_TIMESTAMP:
        *days = comb_seconds_to_days(x->i64[row]);
        return CONV_OK;
    default:
        *days = x->i64[row];
        return CONV_OK;
    }
}

/* --------------------------------------------------------------- strings */

/* CHAR values lose their padding when they become strings (Hive's
 * HiveChar.getStrippedValue; BINARY takes the padded bytes, getBinary),
 * BOOLEAN becomes TRUE / FALSE, a DECIMAL has its type's scale, BINARY
 * keeps its bytes. */
static Conv to_string(BoundExpr *e, const CombVector *x, int row, CombStr *s)
{
    char buf[64];
    size_t n;
    char *p;
    if (comb_type_is_str(x->kind)) {
        *s = x->str[row];
        if (x->kind == COMB_T_CHAR && e->type != COMB_T_BINARY)
            while (s->len > 0 && s->ptr[s->len - 1] == ' ')
                s->len--;
        return CONV_OK;
    }
    if (x->kind == COMB_T_BOOLEAN) {
        *s = x->i64[row] ? (CombStr){"TRUE", 4} : (CombStr){"FALSE", 5};
        return CONV_OK;
    }
    n = sql_format_scalar(x->kind, x, row, buf, sizeof buf);
    if (!(p = comb_arena_strndup(e->scratch, buf, n)))
        return CONV_NOMEM;
    *s = (CombStr){p, (uint32_t)n};
    return CONV_OK;
}

/* ------------------------------------------------------------- dispatch */

static Conv convert(BoundExpr *e, const CombVector *x, int row)
{
    CombVector *o = e->out;
    switch (e->type) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
    case COMB_T_BINARY:
        return to_string(e, x, row, &o->str[row]);
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return to_double(e, x, row, &o->f64[row]);
    case COMB_T_BOOLEAN:
        return to_boolean(x, row, &o->i64[row]);
    case COMB_T_DECIMAL:
        return to_decimal(e, x, row, &o->dec[row]);
    case COMB_T_DATE:
        return to_date(x, row, &o->i64[row]);
    case COMB_T_TIMESTAMP:
        return to_timestamp(e, x, row, &o->i64[row], &o->nanos[row]);
    default:
        return to_int(e, x, row, &o->i64[row]);
    }
}

/* What an error adds after the value: numbers that do not fit a number
 * type are "out of range"; text, NaN and infinities speak for themselves. */
static const char *failure_note(const BoundExpr *e, const CombVector *x,
                                int row)
{
    if (!sql_is_number(e->type) || !(sql_is_number(x->kind) ||
                                     x->kind == COMB_T_TIMESTAMP))
        return "";
    if (comb_type_is_float(x->kind) && !isfinite(x->f64[row]))
        return "";
    return " (out of range)";
}

int sql_eval_cast(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->a->out;
    CombTypeKind from = e->a->type;
    if (from == COMB_T_NULL) {
        e->out->has_nulls = true;
        FOR_LIVE(in, i, row)
            e->out->nulls[row] = 1;
        return COMB_OK;
    }
    /* widening between integer kinds shares the input vector */
    if (sql_int_rank(from) && sql_int_rank(e->type) &&
        (e->type == COMB_T_BIGINT || sql_int_wrap(e->type, INT64_MIN) == INT64_MIN)) {
        e->out = e->a->out;
        return COMB_OK;
    }
    e->out = &e->own;
    if (e->scratch)
        comb_arena_reset(e->scratch);
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row) {
        Conv r;
        int rc;
        if (comb_vec_is_null(x, row)) {
            sql_vec_mark(e->out, in, row, true);
            continue;
        }
        sql_vec_mark(e->out, in, row, false);
        r = convert(e, x, row);
        if (r == CONV_NOMEM)
            return comb_err_nomem(err);
        if (r == CONV_NULL &&
            (rc = bad_value(e, in, row, failure_note(e, x, row), err)))
            return rc;
    }
    return COMB_OK;
}
