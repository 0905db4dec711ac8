/*
 * evolve.c - schema evolution on read: which field of a file holds each
 * table column (§1.3 of hive-acid-storage.md: by name, or by position
 * when every field is named _colN), and how its values become the
 * column's when the types differ, as Hive's ORC reader converts them
 * (ORC's SchemaEvolution and ConvertTreeReaderFactory) for the changes
 * ALTER TABLE CHANGE COLUMN allows: integers to wider or narrower
 * integers (NULL when out of range), integers to float, double, decimal
 * and the string kinds, float to double, decimal to decimal (HALF_UP,
 * NULL beyond the precision), string, varchar and char among each other
 * (varchar cut, char cut and padded to its length, counted in
 * characters), date to timestamp, decimal to float and double, and
 * floats, doubles, decimals, dates and timestamps to the string kinds (the
 * changes of Hive's metastore check: numbers widen, anything becomes
 * text); inside structs, lists and maps the same, and struct fields the
 * file lacks read as NULL.
 */
#include "acid/acid_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/numfmt.h"

/* -------------------------------------------------------------- the plan */

/* §1.3: "_col" followed by digits only. */
static bool is_positional_name(const char *name)
{
    const char *p;
    if (strncmp(name, "_col", 4) != 0 || name[4] == '\0')
        return false;
    for (p = name + 4; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    return true;
}

static bool all_positional(const CombType *row)
{
    if (row->n_children == 0)
        return false;
    for (int i = 0; i < row->n_children; i++)
        if (!is_positional_name(row->field_names[i]))
            return false;
    return true;
}

static int field_by_name(const CombType *st, const char *name)
{
    for (int j = 0; j < st->n_children; j++)
        if (strcasecmp(st->field_names[j], name) == 0)
            return j;
    return -1;
}

static bool is_integer(CombTypeKind k)
{
    return k == COMB_T_TINYINT || k == COMB_T_SMALLINT || k == COMB_T_INT ||
           k == COMB_T_BIGINT;
}

static bool is_text(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR;
}

/* Primitive pairs: the conversion, or NONE when Hive has none. */
static AcidConvKind primitive_conv(const CombType *from, const CombType *to)
{
    CombTypeKind f = from->kind, t = to->kind;
    if (is_integer(f) && is_integer(t))
        return f == t ? ACID_CONV_COPY : ACID_CONV_INT;
    if (is_integer(f) && comb_type_is_float(t))
        return ACID_CONV_INT_FLOAT;
    if (is_integer(f) && t == COMB_T_DECIMAL)
        return ACID_CONV_INT_DEC;
    if (is_integer(f) && is_text(t))
        return ACID_CONV_INT_STR;
    if (comb_type_is_float(f) && t == COMB_T_DOUBLE)
        return ACID_CONV_COPY;  /* floats are held widened already */
    if (f == COMB_T_DECIMAL && t == COMB_T_DECIMAL)
        return from->precision == to->precision && from->scale == to->scale
                   ? ACID_CONV_COPY : ACID_CONV_DEC;
    if (is_text(f) && is_text(t)) {
        /* a char is always cut and padded, so values of any writer read
         * padded; varchar only needs cutting when it may be longer */
        bool fits = t == COMB_T_STRING ||
                    (t == COMB_T_VARCHAR && f == COMB_T_VARCHAR &&
                     from->max_length <= to->max_length);
        return fits ? ACID_CONV_COPY : ACID_CONV_STR;
    }
    if (f == COMB_T_DATE && t == COMB_T_TIMESTAMP)
        return ACID_CONV_DATE_TS;
    if (f == COMB_T_DECIMAL && comb_type_is_float(t))
        return ACID_CONV_DEC_FLOAT;
    if (is_text(t) && f != t) {
        if (comb_type_is_float(f))
            return ACID_CONV_FLOAT_STR;
        if (f == COMB_T_DECIMAL)
            return ACID_CONV_DEC_STR;
        if (f == COMB_T_DATE)
            return ACID_CONV_DATE_STR;
        if (f == COMB_T_TIMESTAMP)
            return ACID_CONV_TS_STR;
    }
    return f == t ? ACID_CONV_COPY : ACID_CONV_NONE;
}

typedef struct PlanCtx {
    CombArena *a;
    const char *path;
    const char *column;   /* the table column being planned */
    CombErr *err;
} PlanCtx;

static int plan_node(PlanCtx *p, const CombType *from, const CombType *to,
                     AcidConv *c);

static int plan_unsupported(PlanCtx *p, const CombType *from,
                            const CombType *to)
{
    CombArena tmp;
    comb_arena_init(&tmp, 512);
    char *f = comb_type_string(&tmp, from), *t = comb_type_string(&tmp, to);
    int rc = comb_err(p->err, COMB_EUNSUPPORTED,
                      "'%s': column '%s' is %s in the file but %s in the "
                      "table, which Hive cannot convert", p->path, p->column,
                      f ? f : comb_type_name(from->kind),
                      t ? t : comb_type_name(to->kind));
    comb_arena_free(&tmp);
    return rc;
}

static int plan_children(PlanCtx *p, AcidConv *c, int n)
{
    c->n_children = n;
    c->children = comb_arena_calloc(p->a, (size_t)(n ? n : 1) *
                                              sizeof *c->children);
    return c->children ? COMB_OK : comb_err_nomem(p->err);
}

/* Struct fields by name; a table field the file lacks reads as NULL. */
static int plan_struct(PlanCtx *p, const CombType *from, const CombType *to,
                       AcidConv *c)
{
    int rc = plan_children(p, c, to->n_children);
    for (int i = 0; i < to->n_children && !rc; i++) {
        int j = field_by_name(from, to->field_names[i]);
        AcidConv *k = &c->children[i];
        k->field = j;
        k->to = to->children[i];
        rc = j < 0 ? COMB_OK
                   : plan_node(p, from->children[j], to->children[i], k);
    }
    return rc;
}

/* A plan is a plain copy when every part of it is, fields in order. */
static bool all_copy(const AcidConv *c)
{
    for (int i = 0; i < c->n_children; i++)
        if (c->children[i].kind != ACID_CONV_COPY || c->children[i].field != i)
            return false;
    return true;
}

static int plan_node(PlanCtx *p, const CombType *from, const CombType *to,
                     AcidConv *c)
{
    int rc = COMB_OK;
    c->from = from;
    c->to = to;
    if (comb_type_is_primitive(from->kind) ||
        comb_type_is_primitive(to->kind)) {
        c->kind = primitive_conv(from, to);
        return c->kind == ACID_CONV_NONE ? plan_unsupported(p, from, to)
                                         : COMB_OK;
    }
    if (from->kind != to->kind || to->kind == COMB_T_UNION)
        return from->kind == to->kind && comb_type_equal(from, to)
                   ? (c->kind = ACID_CONV_COPY, COMB_OK)
                   : plan_unsupported(p, from, to);
    if (to->kind == COMB_T_STRUCT) {
        c->kind = ACID_CONV_STRUCT;
        rc = plan_struct(p, from, to, c);
    } else {
        c->kind = to->kind == COMB_T_LIST ? ACID_CONV_LIST : ACID_CONV_MAP;
        rc = plan_children(p, c, to->n_children);
        for (int i = 0; i < to->n_children && !rc; i++) {
            c->children[i].field = i;
            rc = plan_node(p, from->children[i], to->children[i],
                           &c->children[i]);
        }
    }
    if (rc == COMB_OK && c->n_children == from->n_children && all_copy(c))
        c->kind = ACID_CONV_COPY;
    return rc;
}

int acid_map_columns(CombArena *a, const CombType *row,
                     const AcidSchema *schema, const char *path,
                     AcidConv *convs, CombErr *err)
{
    PlanCtx p = {a, path, NULL, err};
    bool by_position;
    if (row->kind != COMB_T_STRUCT)
        return COMB_CORRUPT(err, path, "row type is not a struct");
    by_position = all_positional(row);
    for (int i = 0; i < schema->n_cols; i++) {
        int j = by_position ? (i < row->n_children ? i : -1)
                            : field_by_name(row, schema->names[i]);
        AcidConv *c = &convs[i];
        int rc;
        memset(c, 0, sizeof *c);
        c->field = j;
        c->to = schema->types[i];
        if (j < 0)
            continue; /* added after the file was written: NULL */
        p.column = schema->names[i];
        if ((rc = plan_node(&p, row->children[j], schema->types[i], c)))
            return rc;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- applying */

static void set_all_null(CombVector *v, int n)
{
    if (n > 0)
        memset(v->nulls, 1, (size_t)n);
    v->has_nulls = true;
}

static void copy_nulls(CombVector *dst, const CombVector *src, int n)
{
    dst->has_nulls = src->has_nulls;
    if (src->has_nulls && n > 0)
        memcpy(dst->nulls, src->nulls, (size_t)n);
}

/* A non-NULL row of the result turned out NULL (overflow). */
static void null_row(CombVector *v, int n, int row)
{
    comb_vec_nulls_materialize(v, n);
    comb_vec_set_null(v, row);
}

/* Rows of the children of a list or map: its elements. */
static int child_rows(const CombVector *v, int n)
{
    uint64_t end = 0;
    for (int i = 0; i < n; i++)
        if (!comb_vec_is_null(v, i) && (uint64_t)v->off[i] + v->len[i] > end)
            end = (uint64_t)v->off[i] + v->len[i];
    return (int)end;
}

/* Same layout: the payload and the parts, deep. */
static int copy_vector(CombVector *dst, const CombVector *src, int n,
                       CombErr *err)
{
    size_t rows = (size_t)(n > 0 ? n : 0);
    copy_nulls(dst, src, n);
    if (dst->i64 && src->i64)
        memcpy(dst->i64, src->i64, rows * sizeof *dst->i64);
    if (dst->nanos && src->nanos)
        memcpy(dst->nanos, src->nanos, rows * sizeof *dst->nanos);
    if (dst->f64 && src->f64)
        memcpy(dst->f64, src->f64, rows * sizeof *dst->f64);
    if (dst->str && src->str)
        memcpy(dst->str, src->str, rows * sizeof *dst->str);
    if (dst->dec && src->dec)
        memcpy(dst->dec, src->dec, rows * sizeof *dst->dec);
    if (dst->tag && src->tag)
        memcpy(dst->tag, src->tag, rows);
    if (dst->off && src->off) {
        memcpy(dst->off, src->off, rows * sizeof *dst->off);
        memcpy(dst->len, src->len, rows * sizeof *dst->len);
    }
    int kids = dst->off ? child_rows(src, n) : n;
    for (int i = 0; i < dst->n_children && i < src->n_children; i++) {
        int rc;
        if (comb_vec_reserve_rows(&dst->children[i], kids))
            return comb_err_nomem(err);
        if ((rc = copy_vector(&dst->children[i], &src->children[i], kids,
                              err)))
            return rc;
    }
    return COMB_OK;
}

static int64_t int_min_of(CombTypeKind k)
{
    return k == COMB_T_TINYINT ? INT8_MIN : k == COMB_T_SMALLINT ? INT16_MIN
           : k == COMB_T_INT   ? INT32_MIN : INT64_MIN;
}

static int64_t int_max_of(CombTypeKind k)
{
    return k == COMB_T_TINYINT ? INT8_MAX : k == COMB_T_SMALLINT ? INT16_MAX
           : k == COMB_T_INT   ? INT32_MAX : INT64_MAX;
}

/* Byte length of the first `chars` UTF-8 characters of s. */
static uint32_t utf8_prefix(const char *s, uint32_t len, uint32_t chars)
{
    uint32_t i = 0, seen = 0;
    for (; i < len; i++) {
        if (((uint8_t)s[i] & 0xc0) != 0x80 && seen++ == chars)
            break;
    }
    return i;
}

static uint32_t utf8_chars(const char *s, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        n += ((uint8_t)s[i] & 0xc0) != 0x80;
    return n;
}

/* A text value as the target kind holds it: varchar(n) cut to n
 * characters, char(n) cut and then padded with spaces to n. */
static int fit_text(const CombType *to, CombStr in, CombArena *strings,
                    CombStr *out, CombErr *err)
{
    *out = in;
    if (to->kind == COMB_T_STRING)
        return COMB_OK;
    out->len = utf8_prefix(in.ptr, in.len, to->max_length);
    if (to->kind != COMB_T_CHAR)
        return COMB_OK;
    uint32_t chars = utf8_chars(out->ptr, out->len);
    if (chars >= to->max_length)
        return COMB_OK;
    char *p = comb_arena_alloc(strings, out->len + (to->max_length - chars));
    if (!p)
        return comb_err_nomem(err);
    memcpy(p, out->ptr, out->len);
    memset(p + out->len, ' ', to->max_length - chars);
    out->ptr = p;
    out->len += to->max_length - chars;
    return COMB_OK;
}

/* buf[0..len) as a value of the text kind `to`, in the batch's arena. */
static int as_text(const CombType *to, const char *buf, size_t len,
                   CombArena *strings, CombStr *out, CombErr *err)
{
    char *p = comb_arena_strndup(strings, buf, len);
    if (!p)
        return comb_err_nomem(err);
    return fit_text(to, (CombStr){p, (uint32_t)len}, strings, out, err);
}

/* A decimal as Hive's HiveDecimal prints it: no trailing fraction zeros. */
static size_t dec_text(comb_i128 u, int scale, char *buf, size_t cap)
{
    size_t n = comb_dec_format(u, scale, buf, cap);
    if (n >= cap || scale == 0)
        return n;
    while (n > 0 && buf[n - 1] == '0')
        n--;
    if (n > 0 && buf[n - 1] == '.')
        n--;
    buf[n] = '\0';
    return n;
}

/* The text of row `row` of a number, date or timestamp; false when the
 * value has none (NaN reads as NULL, as in ORC). */
static bool value_text(const AcidConv *c, const CombVector *src, int row,
                       char *buf, size_t cap, size_t *len)
{
    double d;
    switch (c->kind) {
    case ACID_CONV_INT_STR:
        *len = (size_t)snprintf(buf, cap, "%lld", (long long)src->i64[row]);
        return true;
    case ACID_CONV_FLOAT_STR:
        d = src->f64[row];
        if (d != d)
            return false;
        *len = c->from->kind == COMB_T_FLOAT ? comb_format_float((float)d, buf, cap)
                                             : comb_format_double(d, buf, cap);
        return true;
    case ACID_CONV_DEC_STR:
        *len = dec_text(src->dec[row], (int)c->from->scale, buf, cap);
        return true;
    case ACID_CONV_DATE_STR:
        *len = comb_date_format(src->i64[row], buf, cap);
        return true;
    default: /* ACID_CONV_TS_STR */
        *len = comb_timestamp_format(src->i64[row], src->nanos[row], buf, cap);
        return true;
    }
}

/* One non-NULL row of a primitive conversion; *null when the value does
 * not fit the target. */
static int convert_row(const AcidConv *c, const CombVector *src, int row,
                       CombVector *dst, CombArena *strings, bool *null,
                       CombErr *err)
{
    const CombType *to = c->to;
    *null = false;
    switch (c->kind) {
    case ACID_CONV_INT:
        *null = src->i64[row] < int_min_of(to->kind) ||
                src->i64[row] > int_max_of(to->kind);
        dst->i64[row] = src->i64[row];
        return COMB_OK;
    case ACID_CONV_INT_FLOAT:
        dst->f64[row] = to->kind == COMB_T_FLOAT ? (double)(float)src->i64[row]
                                                 : (double)src->i64[row];
        return COMB_OK;
    case ACID_CONV_INT_DEC:
        *null = !comb_dec_rescale(src->i64[row], 0, (int)to->scale,
                                  &dst->dec[row]) ||
                !comb_dec_fits(dst->dec[row], (int)to->precision);
        return COMB_OK;
    case ACID_CONV_DEC:
        *null = !comb_dec_rescale(src->dec[row], (int)c->from->scale,
                                  (int)to->scale, &dst->dec[row]) ||
                !comb_dec_fits(dst->dec[row], (int)to->precision);
        return COMB_OK;
    case ACID_CONV_INT_STR:
    case ACID_CONV_FLOAT_STR:
    case ACID_CONV_DEC_STR:
    case ACID_CONV_DATE_STR:
    case ACID_CONV_TS_STR: {
        char buf[80];
        size_t len;
        if (!(*null = !value_text(c, src, row, buf, sizeof buf, &len)))
            return as_text(to, buf, len, strings, &dst->str[row], err);
        return COMB_OK;
    }
    case ACID_CONV_DEC_FLOAT: {
        double d = comb_dec_to_double(src->dec[row], (int)c->from->scale);
        dst->f64[row] = to->kind == COMB_T_FLOAT ? (double)(float)d : d;
        return COMB_OK;
    }
    case ACID_CONV_STR:
        return fit_text(to, src->str[row], strings, &dst->str[row], err);
    default: /* ACID_CONV_DATE_TS */
        dst->i64[row] = comb_days_to_seconds(src->i64[row]);
        dst->nanos[row] = 0;
        return COMB_OK;
    }
}

static int convert_primitive(const AcidConv *c, const CombVector *src,
                             CombVector *dst, int n, CombArena *strings,
                             CombErr *err)
{
    copy_nulls(dst, src, n);
    for (int row = 0; row < n; row++) {
        bool null;
        int rc;
        if (comb_vec_is_null(src, row))
            continue;
        if ((rc = convert_row(c, src, row, dst, strings, &null, err)))
            return rc;
        if (null)
            null_row(dst, n, row);
    }
    return COMB_OK;
}

int acid_conv_apply(const AcidConv *conv, const CombVector *src,
                    CombVector *dst, int n, CombArena *strings,
                    CombErr *err)
{
    int rc = COMB_OK, kids = n;
    if (conv->field < 0 || !src) {
        set_all_null(dst, n);
        return COMB_OK;
    }
    switch (conv->kind) {
    case ACID_CONV_COPY:
        return copy_vector(dst, src, n, err);
    case ACID_CONV_STRUCT:
    case ACID_CONV_LIST:
    case ACID_CONV_MAP:
        break;
    default:
        return convert_primitive(conv, src, dst, n, strings, err);
    }
    copy_nulls(dst, src, n);
    if (conv->kind != ACID_CONV_STRUCT) {
        memcpy(dst->off, src->off, (size_t)n * sizeof *dst->off);
        memcpy(dst->len, src->len, (size_t)n * sizeof *dst->len);
        kids = child_rows(src, n);
    }
    for (int i = 0; i < conv->n_children && !rc; i++) {
        const AcidConv *k = &conv->children[i];
        const CombVector *from = k->field >= 0 ? &src->children[k->field]
                                               : NULL;
        if (comb_vec_reserve_rows(&dst->children[i], kids))
            return comb_err_nomem(err);
        rc = acid_conv_apply(k, from, &dst->children[i], kids, strings, err);
    }
    return rc;
}
