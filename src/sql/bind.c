/*
 * bind.c - turns parse-tree expressions into typed BoundExpr trees:
 * resolves column names against the scope, applies Hive's implicit type
 * rules (numeric widening, string vs number compared as double, '/' is
 * always double), checks operand types, and folds constant subtrees so that
 * INSERT ... VALUES rows arrive at the executor as plain constants.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"

static int bind_node(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err);

static BoundExpr *bx_new(SqlStmtCtx *c, BxKind kind, CombTypeKind type,
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
    k = bx_new(c, BX_CONST, e->type, e->pos);
    if (!k) {
        rc = comb_err_nomem(err);
        goto done;
    }
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
    BoundExpr *b = bx_new(c, BX_CONST, COMB_T_NULL, e->pos);
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
        *out = bx_new(c, BX_ROWID, COMB_T_STRING, e->pos);
        if (!*out)
            return comb_err_nomem(err);
        (*out)->col = sc->rowid_col;
        return COMB_OK;
    }
    idx = sql_table_column(sc->table, e->name);
    if (idx < 0)
        return column_list_error(c, sc, e, err);
    *out = bx_new(c, BX_COL, sc->table->kinds[idx], e->pos);
    if (!*out)
        return comb_err_nomem(err);
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
        *out = bx_new(c, BX_COL, fields[i].type, e->pos);
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
    if (!(k = bx_new(c, BX_CONST, to, a->pos)))
        return false;
    if (comb_type_is_float(to))
        k->dval = to == COMB_T_FLOAT ? (double)(float)a->ival : (double)a->ival;
    else
        k->ival = a->ival;
    *out = k;
    return true;
}

static int make_cast(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
    if (a->type == to) {
        *out = a;
        return COMB_OK;
    }
    if (retype_int_constant(c, a, to, out))
        return COMB_OK;
    b = bx_new(c, BX_CAST, to, a->pos);
    if (!b)
        return comb_err_nomem(err);
    b->a = a;
    *out = b;
    return fold_constant(c, out, err);
}

static const char *type_label(CombTypeKind k)
{
    return k == COMB_T_NULL ? "void" : comb_type_name(k);
}

static int bind_coerce(SqlStmtCtx *c, BoundExpr *e, CombTypeKind kind,
                       const char *column, BoundExpr **out, CombErr *err)
{
    BoundExpr *b;
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
    if (retype_int_constant(c, e, kind, out))
        return COMB_OK;
    b = bx_new(c, BX_CAST, kind, e->pos);
    if (!b)
        return comb_err_nomem(err);
    b->a = e;
    b->strict = true;
    b->fname = column;
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

/* Cast every operand of a comparison (a vs each of list) to one type. */
static int unify_operands(SqlStmtCtx *c, BoundExpr **a, BoundExpr **list,
                          int n, const char *op, CombErr *err)
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
    if ((rc = make_cast(c, *a, to, a, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = make_cast(c, list[i], to, &list[i], err)))
            return rc;
    return COMB_OK;
}

static int unify_for_compare(SqlStmtCtx *c, BoundExpr **a, BoundExpr **b,
                             const char *op, CombErr *err)
{
    return unify_operands(c, a, b, 1, op, err);
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
    BoundExpr *b = bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos);
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
    BoundExpr *b = bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos);
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
        if ((rc = unify_for_compare(c, &b->a, &b->b, op, err)))
            return rc;
    } else if (e->op == AST_OP_CONCAT) {
        b->type = COMB_T_STRING;
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
    BoundExpr *b = bx_new(c, BX_UNARY, COMB_T_BOOLEAN, e->pos);
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
    BoundExpr *b = bx_new(c, BX_IS_NULL, COMB_T_BOOLEAN, e->pos);
    if (!b)
        return comb_err_nomem(err);
    b->negated = e->negated;
    *out = b;
    return bind_node(c, sc, e->left, &b->a, err);
}

static int bind_between(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                        BoundExpr **out, CombErr *err)
{
    BoundExpr *b = bx_new(c, BX_BETWEEN, COMB_T_BOOLEAN, e->pos);
    BoundExpr *bounds[2];
    int rc;
    if (!b)
        return comb_err_nomem(err);
    b->negated = e->negated;
    if ((rc = bind_node(c, sc, e->left, &b->a, err)) ||
        (rc = bind_node(c, sc, e->right, &bounds[0], err)) ||
        (rc = bind_node(c, sc, e->third, &bounds[1], err)) ||
        (rc = unify_operands(c, &b->a, bounds, 2, "between", err)))
        return rc;
    b->b = bounds[0];
    b->c = bounds[1];
    *out = b;
    return COMB_OK;
}

static int bind_in(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                   BoundExpr **out, CombErr *err)
{
    BoundExpr *b = bx_new(c, BX_IN, COMB_T_BOOLEAN, e->pos);
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
    if ((rc = unify_operands(c, &b->a, b->args, b->n_args, "in", err)))
        return rc;
    *out = b;
    return COMB_OK;
}

static int bind_like(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr *b = bx_new(c, BX_LIKE, COMB_T_BOOLEAN, e->pos);
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
    if (is_stringish(to))
        to = COMB_T_STRING;
    if (a->type == to) {
        *out = a;
        return COMB_OK;
    }
    *out = bx_new(c, BX_CAST, to, e->pos);
    if (!*out)
        return comb_err_nomem(err);
    (*out)->a = a;
    return COMB_OK;
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

int sql_bind_case(SqlStmtCtx *c, BoundExpr **conds, BoundExpr **vals, int n,
                  BoundExpr *other, AstPos pos, BoundExpr **out, CombErr *err)
{
    BoundExpr *b = bx_new(c, BX_CASE, COMB_T_NULL, pos);
    CombTypeKind to = COMB_T_NULL;
    int rc;
    if (!b || !(b->args = comb_arena_calloc(c->arena, (size_t)(2 * n + 1) * sizeof *b->args)))
        return comb_err_nomem(err);
    for (int i = 0; i <= n; i++) {
        BoundExpr *v = i < n ? vals[i] : other;
        /* results of mixed number/string branches are strings (a union,
         * unlike a comparison, which compares as double) */
        if (v && ((is_stringish(to) && is_numeric(v->type)) ||
                  (is_numeric(to) && is_stringish(v->type)))) {
            to = COMB_T_STRING;
            continue;
        }
        if (v && !compare_target(to, v->type, &to))
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
            BoundExpr *eq = bx_new(c, BX_BINARY, COMB_T_BOOLEAN, conds[i]->pos);
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
