/*
 * bind_cast.c - the conversions the binder puts into bound trees: written
 * and implicit casts (with the casts Hive refuses), constant folding,
 * values assigned to columns (INSERT, UPDATE), the common type of compared
 * operands, and Hive's narrowing of a constant compared with a column
 * (TypeCheckProcFactory / ExprNodeDescExprFactory.
 * interpretConstantAsPrimitive).
 */
#include "sql/func/expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/decimal.h"
#include "sql/func/convert.h"

/* --------------------------------------------------------------- folding */

/* The constant value of row 0 of v into k. */
static int capture_constant(SqlStmtCtx *c, BoundExpr *k, const CombVector *v,
                            CombErr *err)
{
    k->is_null = comb_vec_is_null(v, 0) || k->type == COMB_T_NULL;
    if (k->is_null)
        return COMB_OK;
    if (v->i64)
        k->ival = v->i64[0];
    if (v->nanos)
        k->nanos = v->nanos[0];
    if (v->f64)
        k->dval = v->f64[0];
    if (v->dec)
        k->dec = v->dec[0];
    if (v->str) {
        k->sval.ptr = comb_arena_strndup(c->arena, v->str[0].ptr ? v->str[0].ptr : "",
                                         v->str[0].len);
        k->sval.len = v->str[0].len;
        if (!k->sval.ptr)
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

int sql_eval_constant(SqlStmtCtx *c, BoundExpr *e, CombErr *err)
{
    CombTypeKind none = COMB_T_INT;
    int rc;
    if (!c->one_row.cols && comb_batch_init(&c->one_row, 1, &none, 1))
        return comb_err_nomem(err);
    c->one_row.n_rows = 1;
    rc = sql_expr_prepare(e, c->arena, 1, err);
    return rc ? rc : sql_expr_eval(e, &c->one_row, err);
}

/* Evaluate a constant tree once and replace it by a BX_CONST node.  Complex
 * values stay trees (they are evaluated where they are used). */
int sql_fold_constant(SqlStmtCtx *c, BoundExpr **pe, CombErr *err)
{
    BoundExpr *e = *pe, *k;
    int rc;

    if (e->kind == BX_CONST || !sql_expr_is_const(e) ||
        !comb_type_is_primitive(e->type))
        return COMB_OK;
    if ((rc = sql_eval_constant(c, e, err)))
        goto done;
    k = sql_bx_new(c, BX_CONST, e->type, e->pos);
    if (!k) {
        rc = comb_err_nomem(err);
        goto done;
    }
    k->length = e->length;
    k->ctype = e->ctype;
    if (!(rc = capture_constant(c, k, e->out, err)))
        *pe = k;
done:
    sql_expr_release(e);
    return rc;
}

/* ----------------------------------------------------------------- casts */

/* A constant integer retyped without evaluation when the value fits the
 * target exactly (integer widening, integer to double): the common case
 * of every INSERT ... VALUES cell, which would otherwise go through a
 * one-row batch. */
static bool retype_int_constant(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                                BoundExpr **out)
{
    BoundExpr *k;
    if (a->kind != BX_CONST || a->is_null || !sql_int_rank(a->type) ||
        !(sql_int_rank(to) || comb_type_is_float(to)))
        return false;
    if (!comb_type_is_float(to) && sql_int_rank(to) < sql_int_rank(a->type))
        return false;
    if (!(k = sql_bx_new(c, BX_CONST, to, a->pos)))
        return false;
    if (comb_type_is_float(to))
        k->dval = to == COMB_T_FLOAT ? (double)(float)a->ival : (double)a->ival;
    else
        k->ival = a->ival;
    *out = k;
    return true;
}

/* hive.strict.timestamp.conversion (true unless set false): numbers and
 * DATE/TIMESTAMP values do not convert into each other. */
static int check_strict_timestamp(SqlStmtCtx *c, CombTypeKind from,
                                  CombTypeKind to, AstPos pos, CombErr *err)
{
    const char *strict = sql_session_get_conf(c->s, "hive.strict.timestamp.conversion");
    if (strict && strcasecmp(strict, "false") == 0)
        return COMB_OK;
    if (sql_is_number(from) && to == COMB_T_TIMESTAMP)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, pos,
                          "Wrong arguments: Casting NUMERIC types to TIMESTAMP "
                          "is prohibited (hive.strict.timestamp.conversion)");
    if ((from == COMB_T_DATE || from == COMB_T_TIMESTAMP) && sql_is_number(to))
        return sql_err_at(err, COMB_ESEMANTIC, 10014, pos,
                          "Wrong arguments: Casting DATE/TIMESTAMP to NUMERIC "
                          "is prohibited (hive.strict.timestamp.conversion)");
    return COMB_OK;
}

/* Whether Hive converts a value of kind `from` into `to` at all (CAST or
 * implicitly): GenericUDFToDate takes strings, dates and timestamps,
 * GenericUDFToBinary strings and binary, GenericUDFTimestamp no binary;
 * complex values convert only to their own type. */
static bool castable(CombTypeKind from, CombTypeKind to)
{
    if (from == COMB_T_NULL)
        return true;
    /* an array, map or struct of another element or field type is no
     * conversion even though the kinds are the same (equal types were
     * taken before) */
    if (!comb_type_is_primitive(from) || !comb_type_is_primitive(to))
        return false;
    if (from == to)
        return true;
    if (sql_is_string(to))
        return true;
    if (from == COMB_T_BINARY)
        return false;
    switch (to) {
    case COMB_T_BINARY:
        return sql_is_string(from);
    case COMB_T_DATE:
        return sql_is_string(from) || from == COMB_T_TIMESTAMP;
    case COMB_T_TIMESTAMP:
        return from != COMB_T_NULL;
    default: /* numbers and booleans; a DATE gives NULL (Hive has no
                such conversion and falls back to parsing its text) */
        return true;
    }
}

int sql_bind_cast(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                  bool implicit, BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
    int rc;
    /* a CHAR value loses its padding before it becomes anything else
     * (Hive converts CHAR by its stripped value: CAST(c AS BOOLEAN) of
     * 'no   ' is false) */
    if (a->type == COMB_T_CHAR && !sql_is_string(to->kind) &&
        to->kind != COMB_T_BINARY &&
        (rc = sql_bind_cast(c, a, sql_kind_type(COMB_T_STRING), implicit, &a, err)))
        return rc;
    if (sql_bx_has_type(a, to)) {
        *out = a;
        return COMB_OK;
    }
    if (!castable(a->type, to->kind)) {
        return sql_err_at(err, COMB_ESEMANTIC, 10016, a->pos,
                          "Argument type mismatch: a value of type %s cannot "
                          "be converted to %s", sql_bx_type_text(c, a),
                          sql_type_text(c, to));
    }
    if ((rc = check_strict_timestamp(c, a->type, to->kind, a->pos, err)))
        return rc;
    if (retype_int_constant(c, a, to->kind, out))
        return COMB_OK;
    b = sql_bx_new_type(c, BX_CAST, to, a->pos);
    if (!b)
        return comb_err_nomem(err);
    b->a = a;
    b->implicit = implicit;
    /* integers to timestamps: milliseconds, or seconds with
     * hive.int.timestamp.conversion.in.seconds */
    if (to->kind == COMB_T_TIMESTAMP) {
        const char *secs = sql_session_get_conf(c->s,
                                                "hive.int.timestamp.conversion.in.seconds");
        b->ival = secs && strcasecmp(secs, "true") == 0;
    }
    *out = b;
    return COMB_OK;
}

int sql_bind_convert(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                     BoundExpr **out, CombErr *err)
{
    int rc = sql_bind_cast(c, a, to, true, out, err);
    return rc ? rc : sql_fold_constant(c, out, err);
}

int sql_bind_convert_kind(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                          BoundExpr **out, CombErr *err)
{
    return sql_bind_convert(c, a, sql_kind_type(to), out, err);
}

/* ------------------------------------------------------------ assignment */

/* Values Hive's INSERT converts into a column (genConversionSelectOperator:
 * primitives by a conversion cast, complex values only when their types
 * are equal).  comb refuses booleans into numbers and numbers into
 * booleans, which Hive turns into 1/0. */
static bool assignable(CombTypeKind from, CombTypeKind to)
{
    if (from == COMB_T_NULL || from == to)
        return true;
    if (!comb_type_is_primitive(from) || !comb_type_is_primitive(to))
        return false;
    if ((from == COMB_T_BOOLEAN && sql_is_number(to)) ||
        (to == COMB_T_BOOLEAN && !sql_is_string(from)))
        return false;
    return castable(from, to);
}

static int bind_coerce(SqlStmtCtx *c, BoundExpr *e, const CombType *to,
                       const char *column, BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
    int rc;
    if (!assignable(e->type, to->kind) ||
        (!comb_type_is_primitive(to->kind) && e->type != COMB_T_NULL &&
         !sql_bx_has_type(e, to))) {
        return sql_err_at(err, COMB_ESEMANTIC, 10044, e->pos,
                          "Cannot insert a value of type %s into column '%s' "
                          "of type %s", sql_bx_type_text(c, e), column,
                          sql_type_text(c, to));
    }
    if ((rc = sql_bind_cast(c, e, to, true, &b, err)))
        return rc;
    if (b->kind == BX_CAST) {
        b->strict = true;
        b->fname = column;
    }
    *out = b;
    return sql_fold_constant(c, out, err);
}

int sql_bind_assign(SqlStmtCtx *c, BoundExpr *e, const SqlTable *t, int col,
                    BoundExpr **out, CombErr *err)
{
    const CombType *type = t->types[col];
    CombTypeKind kind = type->kind;
    /* char(n)/varchar(n) columns: a string first, cut or padded below */
    const CombType *to = kind == COMB_T_CHAR || kind == COMB_T_VARCHAR
                             ? sql_kind_type(kind) : type;
    int rc = bind_coerce(c, e, to, t->names[col], out, err);
    if (rc || !type->max_length || (kind != COMB_T_CHAR && kind != COMB_T_VARCHAR))
        return rc;
    if ((rc = sql_bind_fit_length(c, *out, kind, type->max_length, out, err)))
        return rc;
    return sql_fold_constant(c, out, err);
}

/* ------------------------------------------------------------ comparison */

static int compare_error(SqlStmtCtx *c, const BoundExpr *a, const BoundExpr *b,
                         const char *op, CombErr *err)
{
    return sql_err_at(err, COMB_ESEMANTIC, 10014, a->pos,
                      "Wrong arguments for '%s': %s and %s cannot be compared",
                      op, sql_bx_type_text(c, a), sql_bx_type_text(c, b));
}

/* A stand-in for a value of type t (for the running type of a list). */
static BoundExpr typed_stub(const CombType *t)
{
    BoundExpr s;
    memset(&s, 0, sizeof s);
    s.kind = BX_COL;
    sql_bx_set_type(&s, t);
    return s;
}

int sql_bind_unify(SqlStmtCtx *c, BoundExpr **a, BoundExpr **list, int n,
                   const char *op, bool fold, CombErr *err)
{
    const CombType *to = NULL;
    BoundExpr running = **a;
    bool in_list = strcmp(op, "in") == 0;
    int rc;
    for (int i = 0; i < n; i++) {
        const CombType *t;
        if (!sql_compare_type(c, &running, list[i], &t))
            return compare_error(c, *a, list[i], op, err);
        /* IN unites its values (GenericUDFIn's ReturnObjectInspector-
         * Resolver): decimals of two types meet in a third, where a
         * comparison takes them as they are */
        if (!t && in_list && running.type == COMB_T_DECIMAL &&
            list[i]->type == COMB_T_DECIMAL &&
            !comb_type_equal(running.ctype, list[i]->ctype) &&
            !(t = sql_decimal_common(c, &running, list[i])))
            return comb_err_nomem(err);
        if (t) {
            to = t;
            running = typed_stub(t);
        }
    }
    if (!to)
        return COMB_OK;
    if ((rc = fold ? sql_bind_convert(c, *a, to, a, err)
                   : sql_bind_cast(c, *a, to, true, a, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = fold ? sql_bind_convert(c, list[i], to, &list[i], err)
                       : sql_bind_cast(c, list[i], to, true, &list[i], err)))
            return rc;
    return COMB_OK;
}

/* ------------------------------------------------- constant narrowing */

/* Hive converts a constant compared with a bare column to the column's
 * type before it chooses how to compare (TypeCheckProcFactory,
 * interpretConstantAsPrimitive): `bi = '9007199254740992'` compares as
 * BIGINT, `f = 0.1` as FLOAT, `c = 'ab   '` as CHAR, `dec = '1.50'` as
 * the DECIMAL 1.5, and a DECIMAL constant compared with a FLOAT or DOUBLE
 * column becomes a FLOAT or DOUBLE.  A comparison keeps a constant that
 * does not convert; an IN list drops it. */
typedef enum Narrow {
    NARROW_KEEP,    /* no rule applies: compare as usual */
    NARROW_DONE,    /* *out is the constant in the column's type */
    NARROW_FAILS    /* the constant is no value of the column's type */
} Narrow;

/* The integer a decimal text denotes exactly ("1.0", "3e2", "-7"), if it
 * is one and lies in [lo, hi] (Java's BigDecimal exact conversion). */
static bool exact_integer(const char *s, size_t n, int64_t lo, int64_t hi,
                          int64_t *out)
{
    char digits[64];
    size_t nd = 0, i = 0;
    long exp = 0;
    bool neg = false, any = false;
    uint64_t mag = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = true)
        if (nd || s[i] != '0') {
            if (nd == sizeof digits)
                return false;
            digits[nd++] = s[i];
        }
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
            if (nd || s[i] != '0') {
                if (nd == sizeof digits)
                    return false;
                digits[nd++] = s[i];
            }
            exp--;
        }
    if (!any)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        char *end;
        char buf[32];
        size_t m = n - i - 1;
        if (m == 0 || m >= sizeof buf)
            return false;
        memcpy(buf, s + i + 1, m);
        buf[m] = '\0';
        exp += strtol(buf, &end, 10);
        if (*end)
            return false;
        i = n;
    }
    if (i != n)
        return false;
    for (; exp < 0 && nd > 0; exp++)   /* a fraction must be zeros */
        if (digits[--nd] != '0')
            return false;
    if (nd == 0) {
        *out = 0;
        return true;
    }
    if (exp < 0 || nd + (size_t)exp > 19)
        return false;
    for (size_t k = 0; k < nd + (size_t)exp; k++) {
        uint64_t d = k < nd ? (uint64_t)(digits[k] - '0') : 0;
        if (mag > (UINT64_MAX - d) / 10)
            return false;
        mag = mag * 10 + d;
    }
    if (neg ? mag > (uint64_t)0 - (uint64_t)lo : mag > (uint64_t)hi)
        return false;
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return true;
}

/* The constant as Hive sees its text (numbers as Java prints them). */
static bool constant_text(SqlStmtCtx *c, const BoundExpr *k, CombStr *out)
{
    char buf[64];
    size_t n;
    if (sql_is_string(k->type)) {
        *out = k->sval;
        return true;
    }
    if (!sql_is_number(k->type) || k->type == COMB_T_DECIMAL)
        return false;
    if (k->type == COMB_T_DOUBLE)
        n = sql_format_double(k->dval, buf, sizeof buf);
    else if (k->type == COMB_T_FLOAT)
        n = sql_format_float((float)k->dval, buf, sizeof buf);
    else
        n = (size_t)snprintf(buf, sizeof buf, "%lld", (long long)k->ival);
    out->ptr = comb_arena_strndup(c->arena, buf, n);
    out->len = (uint32_t)n;
    return out->ptr != NULL;
}

static uint32_t utf8_chars(CombStr s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s.len; i++)
        n += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    return n;
}

/* A string constant as a value of a char(len) / varchar(len) column:
 * nothing but CHAR padding may be cut off. */
static bool fits_string_column(CombStr s, CombTypeKind kind, uint32_t len)
{
    uint32_t bytes = 0, chars = 0;
    while (bytes < s.len && chars < len) {
        bytes++;
        while (bytes < s.len && ((unsigned char)s.ptr[bytes] & 0xC0) == 0x80)
            bytes++;
        chars++;
    }
    if (kind == COMB_T_VARCHAR)
        return utf8_chars(s) <= len;
    for (; bytes < s.len; bytes++)
        if (s.ptr[bytes] != ' ')
            return false;
    return true;
}

static uint32_t column_length(const BoundExpr *col)
{
    return col->length;
}

/* A number or string constant as a DECIMAL of its own precision and scale
 * (HiveDecimal.create of its text, trailing zeros dropped). */
static Narrow narrow_to_decimal(SqlStmtCtx *c, CombStr text, BoundExpr *n)
{
    int precision, scale;
    CombType *t;
    if (!comb_dec_parse_exact(text.ptr, text.len, &n->dec, &precision, &scale))
        return NARROW_FAILS;
    if (!(t = sql_decimal_type(c, precision, scale)))
        return NARROW_KEEP;
    sql_bx_set_type(n, t);
    return NARROW_DONE;
}

/* A DECIMAL constant compared with a FLOAT or DOUBLE column. */
static Narrow narrow_decimal(const BoundExpr *k, CombTypeKind to, BoundExpr *n)
{
    char buf[64];
    CombStr text = {buf, 0};
    if (!comb_type_is_float(to))
        return NARROW_KEEP;
    text.len = (uint32_t)comb_dec_format(k->dec, (int)k->ctype->scale, buf,
                                         sizeof buf);
    sql_str_to_double(text, to == COMB_T_FLOAT, &n->dval);
    return NARROW_DONE;
}

static Narrow narrow_constant(SqlStmtCtx *c, const BoundExpr *col,
                              const BoundExpr *k, BoundExpr **out)
{
    CombTypeKind to = col->type;
    CombStr text;
    BoundExpr *n;
    uint32_t len;
    Narrow r = NARROW_DONE;
    if (col->kind != BX_COL || k->kind != BX_CONST || k->is_null ||
        k->type == to || !comb_type_is_primitive(to))
        return NARROW_KEEP;
    if (!(n = sql_bx_new(c, BX_CONST, to, k->pos)))
        return NARROW_KEEP;
    if (k->type == COMB_T_DECIMAL)
        r = narrow_decimal(k, to, n);
    else if (!constant_text(c, k, &text))
        return NARROW_KEEP;
    else if (sql_int_rank(to)) {
        if (!exact_integer(text.ptr, text.len, sql_int_min(to), sql_int_max(to),
                           &n->ival))
            return NARROW_FAILS;
    } else if (comb_type_is_float(to)) {
        if (!sql_str_to_double(text, to == COMB_T_FLOAT, &n->dval))
            return NARROW_FAILS;
    } else if (to == COMB_T_DECIMAL) {
        r = narrow_to_decimal(c, text, n);
    } else if (k->type == COMB_T_STRING &&
               (to == COMB_T_CHAR || to == COMB_T_VARCHAR) &&
               (len = column_length(col)) > 0) {
        if (!fits_string_column(text, to, len))
            return NARROW_FAILS;
        n->sval = text;
    } else {
        return NARROW_KEEP;
    }
    if (r == NARROW_DONE)
        *out = n;
    return r;
}

void sql_narrow_compare(SqlStmtCtx *c, BoundExpr **a, BoundExpr **b)
{
    BoundExpr *n;
    if (narrow_constant(c, *a, *b, &n) == NARROW_DONE)
        *b = n;
    else if (narrow_constant(c, *b, *a, &n) == NARROW_DONE)
        *a = n;
}

void sql_narrow_in_list(SqlStmtCtx *c, BoundExpr *in, bool *emptied)
{
    int kept = 0;
    *emptied = false;
    if (in->a->kind != BX_COL)
        return;
    for (int i = 0; i < in->n_args; i++) {
        BoundExpr *n = in->args[i];
        switch (narrow_constant(c, in->a, in->args[i], &n)) {
        case NARROW_FAILS:
            continue;
        default:
            in->args[kept++] = n;
        }
    }
    *emptied = kept == 0 && in->n_args > 0;
    in->n_args = kept;
}
