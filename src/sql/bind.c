/*
 * bind.c - turns parse-tree expressions into typed BoundExpr trees:
 * resolves column names against the scope, applies Hive's implicit type
 * rules (numeric widening, string vs number compared as double, '/' is
 * always double), checks operand types, and folds constant subtrees so that
 * INSERT ... VALUES rows arrive at the executor as plain constants.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "sql/convert.h"
#include "sql/value.h"

static int bind_node(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err);

BoundExpr *sql_bx_new(SqlStmtCtx *c, BxKind kind, CombTypeKind type,
                      AstPos pos)
{
    BoundExpr *b = comb_arena_calloc(c->arena, sizeof *b);
    if (b) {
        b->kind = kind;
        b->type = type;
        b->pos = pos;
        b->col = -1;
    }
    return b;
}

static bool is_numeric(CombTypeKind k)
{
    return (comb_type_is_int(k) && k != COMB_T_BOOLEAN && k != COMB_T_DATE) ||
           comb_type_is_float(k);
}

static bool is_stringish(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR;
}

/* Rank of integer widths for widening: tinyint < smallint < int < bigint. */
static int int_rank(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT: return 1;
    case COMB_T_SMALLINT: return 2;
    case COMB_T_INT: return 3;
    case COMB_T_BIGINT: return 4;
    default: return 0;
    }
}

/* Hive's numeric type hierarchy: tinyint < smallint < int < bigint <
 * float < double; the wider of two operands is the result type. */
static CombTypeKind wider_numeric(CombTypeKind a, CombTypeKind b)
{
    if (a == COMB_T_DOUBLE || b == COMB_T_DOUBLE)
        return COMB_T_DOUBLE;
    if (a == COMB_T_FLOAT || b == COMB_T_FLOAT)
        return COMB_T_FLOAT;
    return int_rank(a) >= int_rank(b) ? a : b;
}

void sql_expr_mark_columns(const BoundExpr *e, int n_cols, bool *project)
{
    if (!e)
        return;
    if (e->kind == BX_COL && e->col >= 0 && e->col < n_cols)
        project[e->col] = true;
    for (int i = 0; i < e->n_args; i++)
        sql_expr_mark_columns(e->args[i], n_cols, project);
    sql_expr_mark_columns(e->a, n_cols, project);
    sql_expr_mark_columns(e->b, n_cols, project);
    sql_expr_mark_columns(e->c, n_cols, project);
}

/* --------------------------------------------------------------- constants */

bool sql_expr_is_const(const BoundExpr *e)
{
    if (!e)
        return true;
    if (e->kind == BX_COL || e->kind == BX_ROWID)
        return false;
    if (e->kind == BX_CONST)
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (!sql_expr_is_const(e->args[i]))
            return false;
    return sql_expr_is_const(e->a) && sql_expr_is_const(e->b) &&
           sql_expr_is_const(e->c);
}

/* Evaluate a constant tree once and replace it by a BX_CONST node. */
static int fold_constant(SqlStmtCtx *c, BoundExpr **pe, CombErr *err)
{
    BoundExpr *e = *pe, *k;
    CombTypeKind none = COMB_T_INT;
    CombVector *v;
    int rc;

    if (e->kind == BX_CONST || !sql_expr_is_const(e))
        return COMB_OK;
    if (!c->one_row.cols && comb_batch_init(&c->one_row, 1, &none, 1))
        return comb_err_nomem(err);
    c->one_row.n_rows = 1;
    rc = sql_expr_prepare(e, c->arena, 1, err);
    if (!rc)
        rc = sql_expr_eval(e, &c->one_row, err);
    if (rc)
        goto done;
    v = e->out;
    k = sql_bx_new(c, BX_CONST, e->type, e->pos);
    if (!k) {
        rc = comb_err_nomem(err);
        goto done;
    }
    k->length = e->length;
    k->is_null = comb_vec_is_null(v, 0) || e->type == COMB_T_NULL;
    if (!k->is_null) {
        if (v->i64)
            k->ival = v->i64[0];
        else if (v->f64)
            k->dval = v->f64[0];
        else if (v->str) {
            k->sval.ptr = comb_arena_strndup(c->arena, v->str[0].ptr, v->str[0].len);
            k->sval.len = v->str[0].len;
            if (!k->sval.ptr)
                rc = comb_err_nomem(err);
        }
    }
    *pe = k;
done:
    sql_expr_release(e);
    return rc;
}

static int bind_literal(SqlStmtCtx *c, const AstExpr *e, BoundExpr **out,
                        CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_CONST, COMB_T_NULL, e->pos);
    if (!b)
        return comb_err_nomem(err);
    switch (e->kind) {
    case AST_LIT_INT:
        /* Hive types a literal by its digits and applies '-' afterwards,
         * so -2147483648 is the BIGINT negation of 2147483648 */
        b->ival = e->ival;
        b->type = (e->ival >= -INT32_MAX && e->ival <= INT32_MAX) ? COMB_T_INT
                                                                  : COMB_T_BIGINT;
        if (e->lit_suffix == 'L')
            b->type = COMB_T_BIGINT;
        else if (e->lit_suffix == 'S' || e->lit_suffix == 'Y') {
            b->type = e->lit_suffix == 'S' ? COMB_T_SMALLINT : COMB_T_TINYINT;
            if (e->ival != (e->lit_suffix == 'S' ? (int16_t)e->ival : (int8_t)e->ival))
                return sql_err_at(err, COMB_EINVALID, 0, e->pos,
                                  "literal %lld%c is out of range for %s",
                                  (long long)e->ival, e->lit_suffix,
                                  comb_type_name(b->type));
        } else if (e->lit_suffix == 'B')
            return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                              "DECIMAL literals are not supported yet");
        break;
    case AST_LIT_DOUBLE:
        b->dval = e->dval;
        b->type = COMB_T_DOUBLE;
        if (e->text && e->text[strspn(e->text, "-+0123456789")] == '\0')
            b->int_text = e->text;
        break;
    case AST_LIT_STRING:
        b->sval.ptr = e->sval;
        b->sval.len = (uint32_t)e->sval_len;
        b->type = COMB_T_STRING;
        break;
    case AST_LIT_BOOL:
        b->ival = e->bval;
        b->type = COMB_T_BOOLEAN;
        break;
    default:
        b->is_null = true;
        break;
    }
    *out = b;
    return COMB_OK;
}

/* ------------------------------------------------------------------ columns */

static int column_list_error(SqlStmtCtx *c, const SqlScope *sc,
                             const AstExpr *e, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc;
    for (int i = 0; sc->table && i < sc->table->n_cols; i++)
        comb_buf_printf(&b, "%s%s.%s", i ? ", " : "", sc->alias,
                        sc->table->names[i]);
    comb_buf_append_byte(&b, '\0');
    (void)c;
    if (e->qualifier)
        rc = sql_err_at(err, COMB_ESEMANTIC, 10004, e->pos,
                        "Invalid table alias or column reference '%s.%s': "
                        "(possible column names are: %s)",
                        e->qualifier, e->name, b.data ? (char *)b.data : "");
    else
        rc = sql_err_at(err, COMB_ESEMANTIC, 10004, e->pos,
                        "Invalid table alias or column reference '%s': "
                        "(possible column names are: %s)",
                        e->name, b.data ? (char *)b.data : "");
    comb_buf_free(&b);
    return rc;
}

static bool qualifier_matches(const SqlScope *sc, const char *q)
{
    if (!q)
        return true;
    return sc->table && (strcasecmp(q, sc->alias) == 0);
}

static int bind_colref(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    int idx;
    if (sc->resolve)
        return sql_err_at(err, COMB_ESEMANTIC, 10025, e->pos,
                          "Expression not in GROUP BY key '%s'", e->name);
    if (!qualifier_matches(sc, e->qualifier) || !sc->table)
        return column_list_error(c, sc, e, err);
    if (strcmp(e->name, "row__id") == 0 && sc->rowid_col >= 0) {
        *out = sql_bx_new(c, BX_ROWID, COMB_T_STRING, e->pos);
        if (!*out)
            return comb_err_nomem(err);
        (*out)->col = sc->rowid_col;
        return COMB_OK;
    }
    idx = sql_table_column(sc->table, e->name);
    if (idx < 0)
        return column_list_error(c, sc, e, err);
    *out = sql_bx_new(c, BX_COL, sc->table->kinds[idx], e->pos);
    if (!*out)
        return comb_err_nomem(err);
    if (sc->table->lengths)
        (*out)->length = sc->table->lengths[idx];
    (*out)->col = idx;
    return COMB_OK;
}

/* row__id.writeid / .bucketid / .rowid */
static int bind_field(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    static const struct {
        const char *name;
        int offset;
        CombTypeKind type;
    } fields[] = {{"writeid", 0, COMB_T_BIGINT},
                  {"bucketid", 1, COMB_T_INT},
                  {"rowid", 2, COMB_T_BIGINT}};
    const AstExpr *l = e->left;
    if (!l || l->kind != AST_COLREF || strcmp(l->name, "row__id") != 0 ||
        sc->rowid_col < 0 || !qualifier_matches(sc, l->qualifier))
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "field access is only supported on ROW__ID");
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcasecmp(e->name, fields[i].name) != 0)
            continue;
        *out = sql_bx_new(c, BX_COL, fields[i].type, e->pos);
        if (!*out)
            return comb_err_nomem(err);
        (*out)->col = sc->rowid_col + fields[i].offset;
        return COMB_OK;
    }
    return sql_err_at(err, COMB_ESEMANTIC, 10042, e->pos,
                      "Invalid . on ROW__ID: no field '%s' (writeid, "
                      "bucketid, rowid)", e->name);
}

/* ------------------------------------------------------------- conversions */

/* A constant integer retyped without evaluation when the value fits the
 * target exactly (integer widening, integer to double): the common case
 * of every INSERT ... VALUES cell, which would otherwise go through a
 * one-row batch. */
static bool retype_int_constant(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                                BoundExpr **out)
{
    BoundExpr *k;
    if (a->kind != BX_CONST || a->is_null || !is_numeric(a->type) ||
        comb_type_is_float(a->type) || !is_numeric(to))
        return false;
    if (!comb_type_is_float(to) && int_rank(to) < int_rank(a->type))
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

/* A conversion node of a to `to`, written (CAST) or implicit.  A CHAR
 * value loses its padding before it becomes anything else (Hive converts
 * CHAR by its stripped value: CAST(c AS BOOLEAN) of 'no   ' is false). */
static int cast_node(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                     bool implicit, BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
    int rc;
    if (a->type == COMB_T_CHAR && !is_stringish(to) &&
        (rc = cast_node(c, a, COMB_T_STRING, implicit, &a, err)))
        return rc;
    if (a->type == to) {
        *out = a;
        return COMB_OK;
    }
    if (retype_int_constant(c, a, to, out))
        return COMB_OK;
    b = sql_bx_new(c, BX_CAST, to, a->pos);
    if (!b)
        return comb_err_nomem(err);
    b->a = a;
    b->implicit = implicit;
    *out = b;
    return COMB_OK;
}

static int make_cast(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                     BoundExpr **out, CombErr *err)
{
    int rc = cast_node(c, a, to, true, out, err);
    return rc ? rc : fold_constant(c, out, err);
}

static const char *type_label(CombTypeKind k)
{
    return k == COMB_T_NULL ? "void" : comb_type_name(k);
}

static int bind_coerce(SqlStmtCtx *c, BoundExpr *e, CombTypeKind kind,
                       const char *column, BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
    int rc;
    bool ok = e->type == COMB_T_NULL || e->type == kind ||
              (is_numeric(e->type) && is_numeric(kind)) ||
              (is_stringish(e->type) && is_stringish(kind)) ||
              (is_stringish(e->type) &&
               (is_numeric(kind) || kind == COMB_T_BOOLEAN)) ||
              (is_stringish(kind) &&
               (is_numeric(e->type) || e->type == COMB_T_BOOLEAN));
    if (!ok)
        return sql_err_at(err, COMB_ESEMANTIC, 10044, e->pos,
                          "Cannot insert a value of type %s into column '%s' "
                          "of type %s", type_label(e->type), column,
                          comb_type_name(kind));
    if (e->type == kind) {
        *out = e;
        return COMB_OK;
    }
    /* its double value may round into range (-9223372036854775809 is
     * -2^63 as a double), its digits do not */
    if (e->kind == BX_CONST && e->int_text && is_numeric(kind) &&
        !comb_type_is_float(kind))
        return sql_err_at(err, COMB_EINVALID, 0, e->pos,
                          "cannot convert %s (out of range) to %s for column "
                          "'%s'", e->int_text, comb_type_name(kind), column);
    if ((rc = cast_node(c, e, kind, true, &b, err)))
        return rc;
    if (b->kind == BX_CAST) {
        b->strict = true;
        b->fname = column;
    }
    *out = b;
    return fold_constant(c, out, err);
}

int sql_bind_assign(SqlStmtCtx *c, BoundExpr *e, const SqlTable *t, int col,
                    BoundExpr **out, CombErr *err)
{
    CombTypeKind kind = t->kinds[col];
    int rc = bind_coerce(c, e, kind, t->names[col], out, err);
    if (rc || !t->lengths || !t->lengths[col] ||
        (kind != COMB_T_CHAR && kind != COMB_T_VARCHAR))
        return rc;
    if ((rc = sql_bind_fit_length(c, *out, kind, t->lengths[col], out, err)))
        return rc;
    return fold_constant(c, out, err);
}

/* ---------------------------------------------------------------- operators */

static int type_error(const BoundExpr *a, const BoundExpr *b, const char *op,
                      CombErr *err)
{
    return sql_err_at(err, COMB_ESEMANTIC, 10014, a->pos,
                      "Wrong arguments for '%s': %s and %s cannot be combined",
                      op, type_label(a->type), b ? type_label(b->type) : "");
}

/* The type two operands are compared in (Hive: string vs number ->
 * double, integers as int64); false when they can't be compared. */
static bool compare_target(CombTypeKind ta, CombTypeKind tb, CombTypeKind *to)
{
    if (ta == COMB_T_NULL || tb == COMB_T_NULL)
        *to = ta == COMB_T_NULL ? tb : ta;
    else if (is_numeric(ta) && is_numeric(tb))
        *to = wider_numeric(ta, tb);
    else if (is_stringish(ta) && is_stringish(tb))
        *to = COMB_T_STRING;
    else if ((is_stringish(ta) && is_numeric(tb)) ||
             (is_numeric(ta) && is_stringish(tb)))
        *to = COMB_T_DOUBLE;
    else if (ta == tb)
        *to = ta;
    else
        return false;
    if (is_numeric(*to) && !comb_type_is_float(*to))
        *to = COMB_T_BIGINT;
    if (is_stringish(*to))
        *to = COMB_T_STRING;
    return true;
}

/* Cast every operand of a comparison (a vs each of list) to one type.
 * fold = false keeps the conversions as nodes even over constants, so
 * that <=> can still tell a NULL operand from one that did not convert. */
static int unify_operands(SqlStmtCtx *c, BoundExpr **a, BoundExpr **list,
                          int n, const char *op, bool fold, CombErr *err)
{
    CombTypeKind to = (*a)->type;
    int rc;
    /* char(n) values compare without their padding: they become strings,
     * and a CHAR to STRING conversion strips it, as in Hive */
    for (int i = 0; i < n; i++)
        if (!compare_target(to, list[i]->type, &to))
            return type_error(*a, list[i], op, err);
    if (to == COMB_T_NULL)
        return COMB_OK;
    if ((rc = (fold ? make_cast(c, *a, to, a, err)
                    : cast_node(c, *a, to, true, a, err))))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = (fold ? make_cast(c, list[i], to, &list[i], err)
                        : cast_node(c, list[i], to, true, &list[i], err))))
            return rc;
    return COMB_OK;
}

static int unify_for_compare(SqlStmtCtx *c, BoundExpr **a, BoundExpr **b,
                             const char *op, CombErr *err)
{
    return unify_operands(c, a, b, 1, op, true, err);
}

/* ------------------------------------------------- constant narrowing */

/* Hive converts a constant compared with a bare column to the column's
 * type before it chooses how to compare (TypeCheckProcFactory,
 * interpretConstantAsPrimitive): `bi = '9007199254740992'` compares as
 * BIGINT, `f = 0.1` as FLOAT, `c = 'ab   '` as CHAR.  A comparison keeps a
 * constant that does not convert; an IN list drops it. */
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
    if (k->int_text) {
        *out = (CombStr){k->int_text, (uint32_t)strlen(k->int_text)};
        return true;
    }
    if (is_stringish(k->type)) {
        *out = k->sval;
        return true;
    }
    if (!is_numeric(k->type))
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

static uint32_t column_length(const SqlScope *sc, const BoundExpr *col)
{
    const SqlTable *t = sc->table;
    if (!t || !t->lengths || col->col < 0 || col->col >= t->n_cols)
        return 0;
    return t->lengths[col->col];
}

static Narrow narrow_constant(SqlStmtCtx *c, const SqlScope *sc,
                              const BoundExpr *col, const BoundExpr *k,
                              BoundExpr **out)
{
    CombTypeKind to = col->type;
    CombStr text;
    BoundExpr *n;
    uint32_t len;
    if (col->kind != BX_COL || k->kind != BX_CONST || k->is_null ||
        k->type == to || !constant_text(c, k, &text))
        return NARROW_KEEP;
    if (!(n = sql_bx_new(c, BX_CONST, to, k->pos)))
        return NARROW_KEEP;
    if (is_numeric(to) && !comb_type_is_float(to)) {
        if (!exact_integer(text.ptr, text.len, sql_int_min(to), sql_int_max(to),
                           &n->ival))
            return NARROW_FAILS;
    } else if (comb_type_is_float(to)) {
        if (!sql_str_to_double(text, to == COMB_T_FLOAT, &n->dval))
            return NARROW_FAILS;
    } else if (k->type == COMB_T_STRING &&
               (to == COMB_T_CHAR || to == COMB_T_VARCHAR) &&
               (len = column_length(sc, col)) > 0) {
        if (!fits_string_column(text, to, len))
            return NARROW_FAILS;
        n->sval = text;
    } else {
        return NARROW_KEEP;
    }
    *out = n;
    return NARROW_DONE;
}

/* `column op constant` or `constant op column`. */
static void narrow_compare(SqlStmtCtx *c, const SqlScope *sc, BoundExpr **a,
                           BoundExpr **b)
{
    BoundExpr *n;
    if (narrow_constant(c, sc, *a, *b, &n) == NARROW_DONE)
        *b = n;
    else if (narrow_constant(c, sc, *b, *a, &n) == NARROW_DONE)
        *a = n;
}

/* `column [NOT] IN (constants)`: converted constants replace the list,
 * those that do not convert leave it; false when it is empty. */
static int narrow_in_list(SqlStmtCtx *c, const SqlScope *sc, BoundExpr *in,
                          bool *emptied)
{
    int kept = 0;
    *emptied = false;
    if (in->a->kind != BX_COL)
        return COMB_OK;
    for (int i = 0; i < in->n_args; i++) {
        BoundExpr *n = in->args[i];
        switch (narrow_constant(c, sc, in->a, in->args[i], &n)) {
        case NARROW_FAILS:
            continue;
        default:
            in->args[kept++] = n;
        }
    }
    *emptied = kept == 0 && in->n_args > 0;
    in->n_args = kept;
    return COMB_OK;
}

static const char *op_text(AstOp op)
{
    static const char *const names[] = {
        [AST_OP_OR] = "or", [AST_OP_AND] = "and", [AST_OP_NOT] = "not",
        [AST_OP_EQ] = "=", [AST_OP_NE] = "<>", [AST_OP_LT] = "<",
        [AST_OP_LE] = "<=", [AST_OP_GT] = ">", [AST_OP_GE] = ">=",
        [AST_OP_EQ_NS] = "<=>", [AST_OP_ADD] = "+", [AST_OP_SUB] = "-",
        [AST_OP_MUL] = "*", [AST_OP_DIV] = "/", [AST_OP_MOD] = "%",
        [AST_OP_DIV_INT] = "div", [AST_OP_NEG] = "-", [AST_OP_PLUS] = "+",
        [AST_OP_CONCAT] = "||",
    };
    if ((int)op <= 0 || (size_t)op >= sizeof names / sizeof names[0] || !names[op])
        return "?";
    return names[op];
}

static bool is_compare(AstOp op)
{
    return op == AST_OP_EQ || op == AST_OP_NE || op == AST_OP_LT ||
           op == AST_OP_LE || op == AST_OP_GT || op == AST_OP_GE ||
           op == AST_OP_EQ_NS;
}

static int to_boolean_operand(SqlStmtCtx *c, BoundExpr **a, const char *op,
                              CombErr *err)
{
    (void)c;
    if ((*a)->type == COMB_T_BOOLEAN || (*a)->type == COMB_T_NULL)
        return COMB_OK;
    return sql_err_at(err, COMB_ESEMANTIC, 10014, (*a)->pos,
                      "Wrong arguments for '%s': expected boolean but got %s",
                      op, type_label((*a)->type));
}

/* Numeric operand of arithmetic: strings convert to double as in Hive. */
static int to_numeric_operand(SqlStmtCtx *c, BoundExpr **a, const char *op,
                              CombErr *err)
{
    if (is_numeric((*a)->type) || (*a)->type == COMB_T_NULL)
        return COMB_OK;
    if (is_stringish((*a)->type))
        return make_cast(c, *a, COMB_T_DOUBLE, a, err);
    return sql_err_at(err, COMB_ESEMANTIC, 10014, (*a)->pos,
                      "Wrong arguments for '%s': expected a number but got %s",
                      op, type_label((*a)->type));
}

static CombTypeKind arithmetic_type(AstOp op, CombTypeKind a, CombTypeKind b)
{
    if (a == COMB_T_NULL)
        a = COMB_T_INT;
    if (b == COMB_T_NULL)
        b = COMB_T_INT;
    if (op == AST_OP_DIV)
        return COMB_T_DOUBLE;
    if (op == AST_OP_DIV_INT)
        return COMB_T_BIGINT;
    return wider_numeric(a, b);
}

/* Operands of arithmetic in the type it is computed in: both sides of
 * DIV become BIGINT (Hive's long division: 5.5 DIV 2 is 2), float and
 * double arithmetic converts the other side. */
static int arithmetic_operands(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    CombTypeKind to = b->op == AST_OP_DIV_INT ? COMB_T_BIGINT : b->type;
    int rc;
    if (b->op != AST_OP_DIV_INT && !comb_type_is_float(to))
        return COMB_OK;
    if ((rc = make_cast(c, b->a, to, &b->a, err)) ||
        (rc = make_cast(c, b->b, to, &b->b, err)))
        return rc;
    return COMB_OK;
}

/* AND / OR over any number of operands (the parser's flat runs). */
static int bind_logic(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos);
    int rc;
    if (!b || !(b->args = comb_arena_calloc(c->arena, (size_t)e->n_args * sizeof *b->args)))
        return comb_err_nomem(err);
    b->op = e->op;
    b->n_args = e->n_args;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = bind_node(c, sc, e->args[i], &b->args[i], err)) ||
            (rc = to_boolean_operand(c, &b->args[i], op_text(e->op), err)))
            return rc;
    *out = b;
    return COMB_OK;
}

static int bind_binary(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos);
    const char *op = op_text(e->op);
    int rc;
    if (!b)
        return comb_err_nomem(err);
    b->op = e->op;
    if (e->op == AST_OP_AND || e->op == AST_OP_OR)
        return bind_logic(c, sc, e, out, err);
    if ((rc = bind_node(c, sc, e->left, &b->a, err)) ||
        (rc = bind_node(c, sc, e->right, &b->b, err)))
        return rc;
    if (is_compare(e->op)) {
        narrow_compare(c, sc, &b->a, &b->b);
        /* <=> must see its operands before conversion (Hive's
         * GenericUDFOPEqualNS tests them for NULL first) */
        if ((rc = unify_operands(c, &b->a, &b->b, 1, op,
                                 e->op != AST_OP_EQ_NS, err)))
            return rc;
        /* constants are compared once, at bind time, where Hive runs its
         * row-mode comparison (ObjectInspectorUtils.compare) */
        b->row_mode = sql_expr_is_const(b->a) && sql_expr_is_const(b->b);
    } else if (e->op == AST_OP_CONCAT) {
        BoundExpr *both[2] = {b->a, b->b};
        sql_concat_type(both, 2, &b->type, &b->length);
        if ((rc = make_cast(c, b->a, COMB_T_STRING, &b->a, err)) ||
            (rc = make_cast(c, b->b, COMB_T_STRING, &b->b, err)))
            return rc;
    } else {
        if ((rc = to_numeric_operand(c, &b->a, op, err)) ||
            (rc = to_numeric_operand(c, &b->b, op, err)))
            return rc;
        b->type = arithmetic_type(e->op, b->a->type, b->b->type);
        if ((rc = arithmetic_operands(c, b, err)))
            return rc;
    }
    *out = b;
    return COMB_OK;
}

static int bind_unary(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_UNARY, COMB_T_BOOLEAN, e->pos);
    int rc;
    if (!b)
        return comb_err_nomem(err);
    b->op = e->op;
    if ((rc = bind_node(c, sc, e->left, &b->a, err)))
        return rc;
    if (e->op == AST_OP_NOT) {
        rc = to_boolean_operand(c, &b->a, "not", err);
    } else {
        rc = to_numeric_operand(c, &b->a, op_text(e->op), err);
        b->type = b->a->type == COMB_T_NULL ? COMB_T_INT : b->a->type;
    }
    *out = b;
    return rc;
}

static int bind_is_null(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                        BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_IS_NULL, COMB_T_BOOLEAN, e->pos);
    if (!b)
        return comb_err_nomem(err);
    b->negated = e->negated;
    *out = b;
    return bind_node(c, sc, e->left, &b->a, err);
}

/* x BETWEEN lo AND hi: Hive compares x >= lo and x <= hi each in its own
 * type (GenericUDFBetween holds two comparisons), so x may be converted
 * twice: b->a for lo, args[0] (when the types differ) for hi. */
static int bind_between(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                        BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_BETWEEN, COMB_T_BOOLEAN, e->pos);
    BoundExpr *x, *x_hi;
    int rc;
    if (!b || !(b->args = comb_arena_alloc(c->arena, sizeof *b->args)))
        return comb_err_nomem(err);
    b->negated = e->negated;
    if ((rc = bind_node(c, sc, e->left, &x, err)) ||
        (rc = bind_node(c, sc, e->right, &b->b, err)) ||
        (rc = bind_node(c, sc, e->third, &b->c, err)))
        return rc;
    b->a = x_hi = x;
    if ((rc = unify_operands(c, &b->a, &b->b, 1, "between", true, err)) ||
        (rc = unify_operands(c, &x_hi, &b->c, 1, "between", true, err)))
        return rc;
    if (x_hi != b->a) {
        b->args[0] = x_hi;
        b->n_args = 1;
    }
    b->row_mode = sql_expr_is_const(x) && sql_expr_is_const(b->b) &&
                  sql_expr_is_const(b->c);
    *out = b;
    return COMB_OK;
}

static int bind_in(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                   BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_IN, COMB_T_BOOLEAN, e->pos);
    bool emptied;
    int rc;
    if (!b)
        return comb_err_nomem(err);
    b->negated = e->negated;
    b->n_args = e->n_args;
    b->args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *b->args);
    if (!b->args)
        return comb_err_nomem(err);
    if ((rc = bind_node(c, sc, e->left, &b->a, err)))
        return rc;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = bind_node(c, sc, e->args[i], &b->args[i], err)))
            return rc;
    if ((rc = narrow_in_list(c, sc, b, &emptied)))
        return rc;
    if (emptied) {
        /* no constant is a value of the column: IN is FALSE, even for a
         * NULL row (NOT IN TRUE) */
        if (!(*out = sql_bx_new(c, BX_CONST, COMB_T_BOOLEAN, e->pos)))
            return comb_err_nomem(err);
        (*out)->ival = b->negated;
        return COMB_OK;
    }
    if ((rc = unify_operands(c, &b->a, b->args, b->n_args, "in", true, err)))
        return rc;
    *out = b;
    return COMB_OK;
}

static int bind_like(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_LIKE, COMB_T_BOOLEAN, e->pos);
    int rc;
    if (!b)
        return comb_err_nomem(err);
    if (e->op == AST_OP_RLIKE)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "RLIKE / REGEXP is not supported yet");
    b->negated = e->negated;
    if ((rc = bind_node(c, sc, e->left, &b->a, err)) ||
        (rc = bind_node(c, sc, e->right, &b->b, err)) ||
        (rc = make_cast(c, b->a, COMB_T_STRING, &b->a, err)) ||
        (rc = make_cast(c, b->b, COMB_T_STRING, &b->b, err)))
        return rc;
    *out = b;
    return COMB_OK;
}

static int bind_cast(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr *a;
    CombTypeKind to = e->cast_type.kind;
    int rc = bind_node(c, sc, e->left, &a, err);
    if (rc)
        return rc;
    if (!is_numeric(to) && !is_stringish(to) && to != COMB_T_BOOLEAN)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "CAST to %s is not supported yet", comb_type_name(to));
    /* CHAR(n) / VARCHAR(n): a string first, then padded or cut to n
     * (GenericUDFToChar / GenericUDFToVarchar) */
    if ((rc = cast_node(c, a, is_stringish(to) ? COMB_T_STRING : to, false,
                        out, err)))
        return rc;
    if (*out != a)
        (*out)->pos = e->pos;
    if (to == COMB_T_STRING || !is_stringish(to))
        return COMB_OK;
    return sql_bind_fit_length(c, *out, to, (uint32_t)e->cast_type.p1, out, err);
}

static int bind_func(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    for (int i = 0; i < e->n_args; i++)
        if ((rc = bind_node(c, sc, e->args[i], &args[i], err)))
            return rc;
    return sql_bind_function(c, sc, e, args, e->n_args, out, err);
}

int sql_bind_unite_chars(SqlStmtCtx *c, BoundExpr **vals, int n,
                         uint32_t *length, CombErr *err)
{
    uint32_t len = 0;
    for (int i = 0; i < n; i++)
        if (vals[i] && vals[i]->type == COMB_T_CHAR && vals[i]->length > len)
            len = vals[i]->length;
    /* a value already of the united length is not converted (so upper(c)
     * keeps its unpadded value, as Hive's identity converter does) */
    for (int i = 0; i < n && len; i++) {
        int rc;
        if (!vals[i] || vals[i]->type != COMB_T_CHAR || vals[i]->length == len)
            continue;
        if ((rc = sql_bind_fit_length(c, vals[i], COMB_T_CHAR, len, &vals[i],
                                      err)))
            return rc;
    }
    *length = len;
    return COMB_OK;
}

void sql_concat_type(BoundExpr *const *args, int n, CombTypeKind *type,
                     uint32_t *length)
{
    bool all_char = n > 0, all_fixed = n > 0;
    uint64_t len = 0;
    for (int i = 0; i < n; i++) {
        all_char &= args[i]->type == COMB_T_CHAR && args[i]->length;
        all_fixed &= (args[i]->type == COMB_T_CHAR ||
                      args[i]->type == COMB_T_VARCHAR) && args[i]->length;
        len += args[i]->length;
    }
    *type = !all_fixed || len > 65535 ? COMB_T_STRING
            : all_char && len <= 255 ? COMB_T_CHAR : COMB_T_VARCHAR;
    *length = *type == COMB_T_STRING ? 0 : (uint32_t)len;
}

bool sql_common_type(CombTypeKind a, CombTypeKind b, CombTypeKind *out)
{
    if (a == COMB_T_NULL || a == b)
        *out = b;
    else if (b == COMB_T_NULL)
        *out = a;
    else if (is_numeric(a) && is_numeric(b))
        *out = wider_numeric(a, b);
    else if ((is_numeric(a) || is_stringish(a)) &&
             (is_numeric(b) || is_stringish(b)))
        *out = COMB_T_STRING;
    else
        return false;
    return true;
}

int sql_bind_case(SqlStmtCtx *c, BoundExpr **conds, BoundExpr **vals, int n,
                  BoundExpr *other, AstPos pos, BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_CASE, COMB_T_NULL, pos);
    CombTypeKind to = COMB_T_NULL;
    int rc;
    if (!b || !(b->args = comb_arena_calloc(c->arena, (size_t)(2 * n + 1) * sizeof *b->args)))
        return comb_err_nomem(err);
    for (int i = 0; i <= n; i++) {
        BoundExpr *v = i < n ? vals[i] : other;
        if (v && !sql_common_type(to, v->type, &to))
            return sql_err_at(err, COMB_ESEMANTIC, 10016, v->pos,
                              "Argument type mismatch: THEN/ELSE values of "
                              "types %s and %s cannot be combined",
                              type_label(to), type_label(v->type));
    }
    if (to == COMB_T_NULL)
        to = COMB_T_STRING;
    for (int i = 0; i < n; i++) {
        if ((rc = to_boolean_operand(c, &conds[i], "case", err)) ||
            (rc = make_cast(c, vals[i], to, &vals[i], err)))
            return rc;
        b->args[2 * i] = conds[i];
        b->args[2 * i + 1] = vals[i];
    }
    if (other && (rc = make_cast(c, other, to, &other, err)))
        return rc;
    if (to == COMB_T_CHAR) {
        BoundExpr **all = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *all);
        if (!all)
            return comb_err_nomem(err);
        memcpy(all, vals, (size_t)n * sizeof *all);
        all[n] = other;
        if ((rc = sql_bind_unite_chars(c, all, n + 1, &b->length, err)))
            return rc;
        for (int i = 0; i < n; i++)
            b->args[2 * i + 1] = all[i];
        other = all[n];
    }
    b->n_args = 2 * n;
    b->c = other;
    b->type = to;
    *out = b;
    return COMB_OK;
}

/* CASE [x] WHEN w THEN v ... [ELSE e] END; the simple form compares x = w. */
static int bind_case_expr(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                          BoundExpr **out, CombErr *err)
{
    int n = e->n_args / 2, rc;
    BoundExpr **conds = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *conds);
    BoundExpr **vals = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *vals);
    BoundExpr *subject = NULL, *other = NULL;
    if (!conds || !vals)
        return comb_err_nomem(err);
    if (e->left && (rc = bind_node(c, sc, e->left, &subject, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        if ((rc = bind_node(c, sc, e->args[2 * i], &conds[i], err)) ||
            (rc = bind_node(c, sc, e->args[2 * i + 1], &vals[i], err)))
            return rc;
        if (subject) {
            BoundExpr *eq = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, conds[i]->pos);
            if (!eq)
                return comb_err_nomem(err);
            eq->op = AST_OP_EQ;
            eq->a = subject;
            eq->b = conds[i];
            if ((rc = unify_for_compare(c, &eq->a, &eq->b, "case", err)))
                return rc;
            conds[i] = eq;
        }
    }
    if (e->right && (rc = bind_node(c, sc, e->right, &other, err)))
        return rc;
    return sql_bind_case(c, conds, vals, n, other, e->pos, out, err);
}

static int bind_node(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    if (sc->resolve) {
        int rc;
        *out = NULL;
        if ((rc = sc->resolve(c, sc, e, out, err)) || *out)
            return rc;
    }
    switch (e->kind) {
    case AST_LIT_INT:
    case AST_LIT_DOUBLE:
    case AST_LIT_STRING:
    case AST_LIT_BOOL:
    case AST_LIT_NULL:
        return bind_literal(c, e, out, err);
    case AST_COLREF:
        return bind_colref(c, sc, e, out, err);
    case AST_FIELD:
        return bind_field(c, sc, e, out, err);
    case AST_UNARY:
        return bind_unary(c, sc, e, out, err);
    case AST_BINARY:
        return bind_binary(c, sc, e, out, err);
    case AST_IS_NULL:
        return bind_is_null(c, sc, e, out, err);
    case AST_BETWEEN:
        return bind_between(c, sc, e, out, err);
    case AST_IN:
        return bind_in(c, sc, e, out, err);
    case AST_LIKE:
        return bind_like(c, sc, e, out, err);
    case AST_CAST:
        return bind_cast(c, sc, e, out, err);
    case AST_FUNC:
        return bind_func(c, sc, e, out, err);
    case AST_STAR:
        return sql_err_at(err, COMB_ESEMANTIC, 0, e->pos,
                          "'*' is not allowed here");
    case AST_CASE:
        return bind_case_expr(c, sc, e, out, err);
    }
    return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                      "this expression is not supported yet");
}

int sql_bind_expr(SqlStmtCtx *c, const SqlScope *scope, const AstExpr *e,
                  BoundExpr **out, CombErr *err)
{
    int rc = bind_node(c, scope, e, out, err);
    if (rc)
        return rc;
    return fold_constant(c, out, err);
}
