/*
 * bind.c - turns parse-tree expressions into typed BoundExpr trees:
 * resolves column names (and fields of struct columns) against the scope,
 * types literals and operators with Hive's rules (numeric widening,
 * DECIMAL result precision and scale, string vs number compared as double,
 * '/' of integers is double), checks operand types, and folds constant
 * subtrees so that INSERT ... VALUES rows arrive at the executor as plain
 * constants.  The conversions it inserts live in bind_cast.c, the type
 * rules in typerules.c.
 */
#include "sql/func/expr.h"
#include "sql/func/window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "common/datetime.h"
#include "common/decimal.h"
#include "sql/func/convert.h"
#include "sql/func/value.h"

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

/* Hive's numeric type hierarchy for tinyint .. double: the wider of two
 * operands is the result type. */
static CombTypeKind wider_numeric(CombTypeKind a, CombTypeKind b)
{
    if (a == COMB_T_DOUBLE || b == COMB_T_DOUBLE)
        return COMB_T_DOUBLE;
    if (a == COMB_T_FLOAT || b == COMB_T_FLOAT)
        return COMB_T_FLOAT;
    return sql_int_rank(a) >= sql_int_rank(b) ? a : b;
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
    if (e->kind == BX_FUNC && sql_function_volatile(e->fname))
        return false;
    for (int i = 0; i < e->n_args; i++)
        if (!sql_expr_is_const(e->args[i]))
            return false;
    return sql_expr_is_const(e->a) && sql_expr_is_const(e->b) &&
           sql_expr_is_const(e->c);
}

/* A DECIMAL literal: digits as HiveDecimal.create reads them, typed by its
 * own precision and scale (ExprNodeDescExprFactory.adjustType); NULL of
 * decimal(1,0) when they are no decimal (1e99BD, as Hive allows). */
static int decimal_literal(SqlStmtCtx *c, const char *digits, size_t n,
                           bool negated, BoundExpr *b, CombErr *err)
{
    int precision = 1, scale = 0;
    CombType *t;
    if (!comb_dec_parse_exact(digits, n, &b->dec, &precision, &scale)) {
        b->is_null = true;
        precision = 1;
        scale = 0;
    }
    if (negated)
        b->dec = -b->dec;
    if (!(t = sql_decimal_type(c, precision, scale)))
        return comb_err_nomem(err);
    sql_bx_set_type(b, t);
    return COMB_OK;
}

/* An integer literal (digits fit int64): INT when they fit int32, else
 * BIGINT; suffixes L S Y (BIGINT, SMALLINT, TINYINT), BD (DECIMAL), D
 * (DOUBLE).  Hive types a literal by its digits and applies '-'
 * afterwards, so -2147483648 is the BIGINT negation of 2147483648. */
static int int_literal(SqlStmtCtx *c, const AstExpr *e, BoundExpr *b,
                       CombErr *err)
{
    char digits[32];
    b->ival = e->ival;
    b->type = (e->ival >= -INT32_MAX && e->ival <= INT32_MAX) ? COMB_T_INT
                                                              : COMB_T_BIGINT;
    switch (e->lit_suffix) {
    case 'L':
        b->type = COMB_T_BIGINT;
        break;
    case 'S':
    case 'Y':
        b->type = e->lit_suffix == 'S' ? COMB_T_SMALLINT : COMB_T_TINYINT;
        if (e->ival != (e->lit_suffix == 'S' ? (int16_t)e->ival : (int8_t)e->ival))
            return sql_err_at(err, COMB_ESEMANTIC, 10029, e->pos,
                              "Invalid numerical constant '%lld%c'",
                              (long long)e->ival, e->lit_suffix);
        break;
    case 'D':
        b->type = COMB_T_DOUBLE;
        b->dval = (double)e->ival;
        break;
    case 'B':
        snprintf(digits, sizeof digits, "%lld", (long long)e->ival);
        return decimal_literal(c, digits, strlen(digits), false, b, err);
    default:
        break;
    }
    return COMB_OK;
}

/* Any other number (ExprFactory.createConstantExpr): with an exponent or
 * a D suffix a DOUBLE, else a DECIMAL when HiveDecimal can hold it (1.5 is
 * decimal(2,1), 9223372036854775808 decimal(19,0)), else a DOUBLE. */
static int number_literal(SqlStmtCtx *c, const AstExpr *e, BoundExpr *b,
                          CombErr *err)
{
    comb_i128 u;
    int p, s;
    if (e->lit_suffix == 'L' || e->lit_suffix == 'S' || e->lit_suffix == 'Y')
        return sql_err_at(err, COMB_ESEMANTIC, 10029, e->pos,
                          "Invalid numerical constant '%s%c'", e->sval,
                          e->lit_suffix);
    if (e->lit_suffix == 'B')
        return decimal_literal(c, e->sval, e->sval_len, e->negated, b, err);
    if (e->lit_suffix != 'D' && !strpbrk(e->sval, "eE") &&
        comb_dec_parse_exact(e->sval, e->sval_len, &u, &p, &s))
        return decimal_literal(c, e->sval, e->sval_len, e->negated, b, err);
    b->type = COMB_T_DOUBLE;
    b->dval = e->dval;
    return COMB_OK;
}

static int bind_literal(SqlStmtCtx *c, const AstExpr *e, BoundExpr **out,
                        CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_CONST, COMB_T_NULL, e->pos);
    int rc = COMB_OK;
    if (!b)
        return comb_err_nomem(err);
    switch (e->kind) {
    case AST_LIT_INT:
        rc = int_literal(c, e, b, err);
        break;
    case AST_LIT_DOUBLE:
        rc = number_literal(c, e, b, err);
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
    return rc;
}

/* ------------------------------------------------------------------ columns */

int sql_err_unknown_column(const AstExpr *e, const char *possible,
                           CombErr *err)
{
    if (e->qualifier)
        return sql_err_at(err, COMB_ESEMANTIC, 10004, e->pos,
                          "Invalid table alias or column reference '%s.%s': "
                          "(possible column names are: %s)",
                          e->qualifier, e->name, possible);
    return sql_err_at(err, COMB_ESEMANTIC, 10004, e->pos,
                      "Invalid table alias or column reference '%s': "
                      "(possible column names are: %s)", e->name, possible);
}

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
    rc = sql_err_unknown_column(e, b.data ? (char *)b.data : "", err);
    comb_buf_free(&b);
    return rc;
}

static bool qualifier_matches(const SqlScope *sc, const char *q)
{
    if (!q)
        return true;
    return sc->table && (strcasecmp(q, sc->alias) == 0);
}

/* Column `name` of the scope's table, typed; -1 when there is none, -2
 * when two columns have the name (a subquery's SELECT a, a). */
static int table_column(SqlStmtCtx *c, const SqlScope *sc, const char *name,
                        AstPos pos, BoundExpr **out)
{
    int idx = sc->table ? sql_table_column(sc->table, name) : -1;
    if (idx < 0)
        return -1;
    for (int j = idx + 1; j < sc->table->n_cols; j++)
        if (strcasecmp(sc->table->names[j], name) == 0)
            return -2;
    *out = sql_bx_new_type(c, BX_COL, sc->table->types[idx], pos);
    if (*out)
        (*out)->col = idx;
    return idx;
}

const CombType *sql_rowid_type(SqlStmtCtx *c)
{
    static const char *const names[3] = {"writeid", "bucketid", "rowid"};
    static const CombTypeKind kinds[3] = {COMB_T_BIGINT, COMB_T_INT,
                                          COMB_T_BIGINT};
    CombType *t = comb_type_new(c->arena, COMB_T_STRUCT);
    for (int i = 0; t && i < 3; i++)
        if (comb_type_add_field(c->arena, t, names[i],
                                (CombType *)sql_kind_type(kinds[i])))
            return NULL;
    return t;
}

static int ambiguous_column(const SqlScope *sc, const char *name, AstPos pos,
                            CombErr *err)
{
    return sql_err_at(err, COMB_ESEMANTIC, 10007, pos,
                      "Ambiguous column reference %s in %s", name, sc->alias);
}

static int bind_colref(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    BoundExpr *base;
    int idx;
    if (sc->resolve)
        return sql_err_at(err, COMB_ESEMANTIC, 10025, e->pos,
                          "Expression not in GROUP BY key '%s'", e->name);
    /* a.b: a column b of table a, or field b of a struct column a */
    if (e->qualifier && !qualifier_matches(sc, e->qualifier) && sc->table &&
        (idx = table_column(c, sc, e->qualifier, e->pos, &base)) != -1) {
        if (idx == -2)
            return ambiguous_column(sc, e->qualifier, e->pos, err);
        if (!base)
            return comb_err_nomem(err);
        return sql_bind_struct_field(c, base, e->name, e->pos, out, err);
    }
    if (!qualifier_matches(sc, e->qualifier) || !sc->table)
        return column_list_error(c, sc, e, err);
    if (strcmp(e->name, "row__id") == 0 && sc->rowid_col >= 0) {
        const CombType *t = sql_rowid_type(c);
        *out = t ? sql_bx_new_type(c, BX_ROWID, t, e->pos) : NULL;
        if (!*out)
            return comb_err_nomem(err);
        (*out)->col = sc->rowid_col;
        return COMB_OK;
    }
    idx = table_column(c, sc, e->name, e->pos, out);
    /* Hive's INPUT__FILE__NAME: the scan batch's column after ROW__ID's
     * (exec.h's SQL_SCAN_FILE_NAME), unless the table has such a column */
    if (idx == -1 && strcmp(e->name, "input__file__name") == 0 &&
        sc->rowid_col >= 0) {
        if (!(*out = sql_bx_new(c, BX_COL, COMB_T_STRING, e->pos)))
            return comb_err_nomem(err);
        (*out)->col = sc->rowid_col + 3;
        return COMB_OK;
    }
    if (idx == -1)
        return column_list_error(c, sc, e, err);
    if (idx == -2)
        return ambiguous_column(sc, e->name, e->pos, err);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* row__id.writeid / .bucketid / .rowid */
int sql_bind_rowid_field(SqlStmtCtx *c, int first_col, const AstExpr *e,
                         BoundExpr **out, CombErr *err)
{
    static const struct {
        const char *name;
        int offset;
        CombTypeKind type;
    } fields[] = {{"writeid", 0, COMB_T_BIGINT},
                  {"bucketid", 1, COMB_T_INT},
                  {"rowid", 2, COMB_T_BIGINT}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcasecmp(e->name, fields[i].name) != 0)
            continue;
        *out = sql_bx_new(c, BX_COL, fields[i].type, e->pos);
        if (!*out)
            return comb_err_nomem(err);
        (*out)->col = first_col + fields[i].offset;
        return COMB_OK;
    }
    return sql_err_at(err, COMB_ESEMANTIC, 10042, e->pos,
                      "Invalid . on ROW__ID: no field '%s' (writeid, "
                      "bucketid, rowid)", e->name);
}

/* left.name: a field of ROW__ID or of a struct value. */
static int bind_field(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    const AstExpr *l = e->left;
    BoundExpr *base;
    int rc;
    if (l->kind == AST_COLREF && strcmp(l->name, "row__id") == 0 &&
        sc->rowid_col >= 0 && qualifier_matches(sc, l->qualifier) &&
        !sc->resolve)
        return sql_bind_rowid_field(c, sc->rowid_col, e, out, err);
    if ((rc = bind_node(c, sc, l, &base, err)))
        return rc;
    return sql_bind_struct_field(c, base, e->name, e->pos, out, err);
}

static int bind_index(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    BoundExpr *base, *index;
    int rc;
    if ((rc = bind_node(c, sc, e->left, &base, err)) ||
        (rc = bind_node(c, sc, e->right, &index, err)))
        return rc;
    return sql_bind_index(c, base, index, e->pos, out, err);
}

/* ---------------------------------------------------------------- operators */

const char *sql_op_text(AstOp op)
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
    if ((*a)->type == COMB_T_BOOLEAN || (*a)->type == COMB_T_NULL)
        return COMB_OK;
    return sql_err_at(err, COMB_ESEMANTIC, 10014, (*a)->pos,
                      "Wrong arguments for '%s': expected boolean but got %s",
                      op, sql_bx_type_text(c, *a));
}

/* Numeric operand of arithmetic: strings convert to double as in Hive. */
static int to_numeric_operand(SqlStmtCtx *c, BoundExpr **a, const char *op,
                              CombErr *err)
{
    if (sql_is_number((*a)->type) || (*a)->type == COMB_T_NULL)
        return COMB_OK;
    if (sql_is_string((*a)->type))
        return sql_bind_convert_kind(c, *a, COMB_T_DOUBLE, a, err);
    return sql_err_at(err, COMB_ESEMANTIC, 10014, (*a)->pos,
                      "Wrong arguments for '%s': expected a number but got %s",
                      op, sql_bx_type_text(c, *a));
}

/* The DECIMAL result of + - * / % (GenericUDFOPPlus/Minus/Multiply/
 * Divide/Mod.deriveResultDecimalTypeInfo, then adjustPrecScale); an
 * integer constant counts its own digits. */
static CombType *decimal_result(SqlStmtCtx *c, AstOp op, const BoundExpr *a,
                                const BoundExpr *b)
{
    int p1, s1, p2, s2, int_part, scale, precision;
    sql_decimal_params(a, true, &p1, &s1);
    sql_decimal_params(b, true, &p2, &s2);
    switch (op) {
    case AST_OP_MUL:
        precision = p1 + p2 + 1;
        scale = s1 + s2;
        break;
    case AST_OP_DIV:
        scale = s1 + p2 + 1 > 6 ? s1 + p2 + 1 : 6;
        precision = p1 - s1 + s2 + scale;
        break;
    case AST_OP_MOD:
        scale = s1 > s2 ? s1 : s2;
        precision = (p1 - s1 < p2 - s2 ? p1 - s1 : p2 - s2) + scale;
        break;
    default: /* + - */
        int_part = p1 - s1 > p2 - s2 ? p1 - s1 : p2 - s2;
        scale = s1 > s2 ? s1 : s2;
        precision = int_part + scale + 1;
        break;
    }
    return sql_decimal_adjusted(c, precision, scale);
}

/* An exact operand of DECIMAL arithmetic as a DECIMAL of its own
 * precision (an integer of type int is decimal(10,0), the constant 5 is
 * decimal(1,0)). */
static int to_decimal_operand(SqlStmtCtx *c, BoundExpr **a, CombErr *err)
{
    int p, s;
    CombType *t;
    if ((*a)->type == COMB_T_DECIMAL)
        return COMB_OK;
    sql_decimal_params(*a, true, &p, &s);
    if (!(t = sql_decimal_type(c, p, s)))
        return comb_err_nomem(err);
    return sql_bind_convert(c, *a, t, a, err);
}

/* Result type and operand conversions of + - * / % DIV (GenericUDFBase-
 * Numeric): DIV is BIGINT of BIGINTs (5.5 DIV 2 is 2); float or double
 * (or a string) on either side computes in FLOAT or DOUBLE (decimal with
 * float is double); else a decimal on either side computes in DECIMAL;
 * integers stay integers of the wider width, except '/', a double. */
static int bind_arithmetic(SqlStmtCtx *c, BoundExpr *b, const char *op,
                           CombErr *err)
{
    CombTypeKind ka, kb;
    CombType *dec;
    int rc;
    if ((rc = to_numeric_operand(c, &b->a, op, err)) ||
        (rc = to_numeric_operand(c, &b->b, op, err)))
        return rc;
    ka = b->a->type == COMB_T_NULL ? COMB_T_INT : b->a->type;
    kb = b->b->type == COMB_T_NULL ? COMB_T_INT : b->b->type;
    if (b->op == AST_OP_DIV_INT)
        b->type = COMB_T_BIGINT;
    else if (comb_type_is_float(ka) || comb_type_is_float(kb))
        /* GenericUDFOPDivide.deriveResultApproxTypeInfo: '/' is DOUBLE */
        b->type = ka == COMB_T_DECIMAL || kb == COMB_T_DECIMAL ||
                          b->op == AST_OP_DIV
                      ? COMB_T_DOUBLE : wider_numeric(ka, kb);
    else if (ka == COMB_T_DECIMAL || kb == COMB_T_DECIMAL) {
        /* Hive folds constant operands first (ExprFactory.foldExpr): an
         * integer constant then counts its digits */
        if ((rc = sql_fold_constant(c, &b->a, err)) ||
            (rc = sql_fold_constant(c, &b->b, err)))
            return rc;
        if (!(dec = decimal_result(c, b->op, b->a, b->b)))
            return comb_err_nomem(err);
        sql_bx_set_type(b, dec);
        if ((rc = to_decimal_operand(c, &b->a, err)))
            return rc;
        return to_decimal_operand(c, &b->b, err);
    } else
        b->type = b->op == AST_OP_DIV ? COMB_T_DOUBLE : wider_numeric(ka, kb);
    /* integer kinds share int64 vectors; the others compute in the
     * result's type */
    if (b->op != AST_OP_DIV_INT && !comb_type_is_float(b->type))
        return COMB_OK;
    if ((rc = sql_bind_convert_kind(c, b->a, b->type, &b->a, err)))
        return rc;
    return sql_bind_convert_kind(c, b->b, b->type, &b->b, err);
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
            (rc = to_boolean_operand(c, &b->args[i], sql_op_text(e->op), err)))
            return rc;
    *out = b;
    return COMB_OK;
}

/* Complex values compare only for equality (= <> <=>), and only with
 * values of the same type. */
static int check_complex_compare(SqlStmtCtx *c, const BoundExpr *a,
                                 const BoundExpr *b, AstOp op, CombErr *err)
{
    const BoundExpr *x = comb_type_is_primitive(a->type) ? b : a;
    if (comb_type_is_primitive(x->type) || op == AST_OP_EQ ||
        op == AST_OP_NE || op == AST_OP_EQ_NS)
        return COMB_OK;
    return sql_err_at(err, COMB_ESEMANTIC, 10014, x->pos,
                      "Wrong arguments for '%s': %s does not support %s types",
                      sql_op_text(op), sql_op_text(op), sql_bx_type_text(c, x));
}

static int bind_binary(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos);
    const char *op = sql_op_text(e->op);
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
        sql_narrow_compare(c, &b->a, &b->b);
        /* <=> must see its operands before conversion (Hive's
         * GenericUDFOPEqualNS tests them for NULL first) */
        if ((rc = check_complex_compare(c, b->a, b->b, e->op, err)) ||
            (rc = sql_bind_unify(c, &b->a, &b->b, 1, op,
                                 e->op != AST_OP_EQ_NS, err)))
            return rc;
        /* constants are compared once, at bind time, where Hive runs its
         * row-mode comparison (ObjectInspectorUtils.compare) */
        b->row_mode = sql_expr_is_const(b->a) && sql_expr_is_const(b->b);
    } else if (e->op == AST_OP_CONCAT) {
        BoundExpr *both[2] = {b->a, b->b};
        sql_concat_type(both, 2, &b->type, &b->length);
        if ((rc = sql_bind_convert_kind(c, b->a, COMB_T_STRING, &b->a, err)) ||
            (rc = sql_bind_convert_kind(c, b->b, COMB_T_STRING, &b->b, err)))
            return rc;
    } else if ((rc = bind_arithmetic(c, b, op, err))) {
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
        rc = to_numeric_operand(c, &b->a, sql_op_text(e->op), err);
        b->type = b->a->type == COMB_T_NULL ? COMB_T_INT : b->a->type;
        b->ctype = b->a->ctype;
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
    if ((rc = sql_bind_unify(c, &b->a, &b->b, 1, "between", true, err)) ||
        (rc = sql_bind_unify(c, &x_hi, &b->c, 1, "between", true, err)))
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
    sql_narrow_in_list(c, b, &emptied);
    if (emptied) {
        /* no constant is a value of the column: IN is FALSE, even for a
         * NULL row (NOT IN TRUE) */
        if (!(*out = sql_bx_new(c, BX_CONST, COMB_T_BOOLEAN, e->pos)))
            return comb_err_nomem(err);
        (*out)->ival = b->negated;
        return COMB_OK;
    }
    if ((rc = sql_bind_unify(c, &b->a, b->args, b->n_args, "in", true, err)))
        return rc;
    *out = b;
    return COMB_OK;
}

/* a [NOT] RLIKE|REGEXP p: NOT RLIKE is NOT (a RLIKE p). */
static int bind_rlike(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    BoundExpr *a, *p, *m, *not;
    int rc;
    if ((rc = bind_node(c, sc, e->left, &a, err)) ||
        (rc = bind_node(c, sc, e->right, &p, err)) ||
        (rc = sql_bind_rlike(c, a, p, e->pos, &m, err)))
        return rc;
    if (!e->negated) {
        *out = m;
        return COMB_OK;
    }
    if (!(not = sql_bx_new(c, BX_UNARY, COMB_T_BOOLEAN, e->pos)))
        return comb_err_nomem(err);
    not->op = AST_OP_NOT;
    not->a = m;
    *out = not;
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
        return bind_rlike(c, sc, e, out, err);
    b->negated = e->negated;
    if ((rc = bind_node(c, sc, e->left, &b->a, err)) ||
        (rc = bind_node(c, sc, e->right, &b->b, err)) ||
        (rc = sql_bind_convert_kind(c, b->a, COMB_T_STRING, &b->a, err)) ||
        (rc = sql_bind_convert_kind(c, b->b, COMB_T_STRING, &b->b, err)))
        return rc;
    *out = b;
    return COMB_OK;
}

/* DATE '...' / TIMESTAMP '...': Hive's Date.valueOf / Timestamp.valueOf of
 * the text (stricter than CAST); text that is none is an error, as
 * Hive's DateTimeExprProcessor gives. */
static int bind_typed_literal(SqlStmtCtx *c, const AstExpr *e, BoundExpr **out,
                              CombErr *err)
{
    const char *s = e->left->sval;
    size_t n = e->left->sval_len;
    bool date = e->cast_type.kind == COMB_T_DATE;
    BoundExpr *k = sql_bx_new(c, BX_CONST, e->cast_type.kind, e->pos);
    if (!k)
        return comb_err_nomem(err);
    if (date ? !comb_date_parse(s, n, &k->ival)
             : !comb_timestamp_parse(s, n, &k->ival, &k->nanos))
        return sql_err_at(err, COMB_ESEMANTIC, 0, e->pos,
                          "Unable to convert time literal '%s' to time value.", s);
    *out = k;
    return COMB_OK;
}

static int bind_cast(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr *a;
    const CombType *to = e->cast_type.type;
    CombTypeKind kind = to->kind;
    int rc;
    if (e->typed_literal)
        return bind_typed_literal(c, e, out, err);
    if ((rc = bind_node(c, sc, e->left, &a, err)))
        return rc;
    /* CHAR(n) / VARCHAR(n): a string first, then padded or cut to n
     * (GenericUDFToChar / GenericUDFToVarchar) */
    if (sql_is_string(kind))
        to = sql_kind_type(COMB_T_STRING);
    if ((rc = sql_bind_cast(c, a, to, false, out, err)))
        return rc;
    if (*out != a)
        (*out)->pos = e->pos;
    if (kind == COMB_T_CHAR || kind == COMB_T_VARCHAR)
        return sql_bind_fit_length(c, *out, kind, e->cast_type.type->max_length,
                                   out, err);
    return COMB_OK;
}

static int bind_func(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                     BoundExpr **out, CombErr *err)
{
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    if (sql_window_fn_exists(e->name))
        return sql_err_at(err, COMB_ESEMANTIC, 10247, e->pos,
                          "Missing over clause for function : %s", e->name);
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

int sql_common_value_type(SqlStmtCtx *c, BoundExpr *const *vals, int n,
                          const CombType **to, CombErr *err)
{
    const CombType *t = sql_kind_type(COMB_T_NULL);
    for (int i = 0; i < n; i++) {
        const CombType *v, *u;
        int rc;
        if (!vals[i])
            continue;
        if (!(v = sql_bx_type(c, vals[i])) || (rc = sql_common_class(c, t, v, &u)))
            return comb_err_nomem(err);
        if (!u)
            return sql_err_at(err, COMB_ESEMANTIC, 10016, vals[i]->pos,
                              "Argument type mismatch: values of types %s and "
                              "%s cannot be combined",
                              t->kind == COMB_T_NULL ? "void"
                                                     : comb_type_string(c->arena, t),
                              sql_bx_type_text(c, vals[i]));
        t = u;
    }
    *to = t->kind == COMB_T_NULL ? sql_kind_type(COMB_T_STRING) : t;
    return COMB_OK;
}

int sql_bind_case(SqlStmtCtx *c, BoundExpr **conds, BoundExpr **vals, int n,
                  BoundExpr *other, AstPos pos, BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_CASE, COMB_T_NULL, pos);
    BoundExpr **all = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *all);
    const CombType *to;
    int rc;
    if (!b || !all ||
        !(b->args = comb_arena_calloc(c->arena, (size_t)(2 * n + 1) * sizeof *b->args)))
        return comb_err_nomem(err);
    memcpy(all, vals, (size_t)n * sizeof *all);
    all[n] = other;
    if ((rc = sql_common_value_type(c, all, n + 1, &to, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = to_boolean_operand(c, &conds[i], "case", err)))
            return rc;
    for (int i = 0; i <= n; i++)
        if (all[i] && (rc = sql_bind_convert(c, all[i], to, &all[i], err)))
            return rc;
    sql_bx_set_type(b, to);
    if (to->kind == COMB_T_CHAR &&
        (rc = sql_bind_unite_chars(c, all, n + 1, &b->length, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        b->args[2 * i] = conds[i];
        b->args[2 * i + 1] = all[i];
    }
    b->n_args = 2 * n;
    b->c = all[n];
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
            if ((rc = sql_bind_unify(c, &eq->a, &eq->b, 1, "case", true, err)))
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
    int rc;
    if (e->kind == AST_FUNC && e->over) {
        if (!sc->window)
            return sql_err_at(err, COMB_ESEMANTIC, 10128, e->pos,
                              "Not yet supported place for UDAF '%s'", e->name);
        return sc->window(c, sc, e, out, err);
    }
    if (sc->resolve) {
        *out = NULL;
        if ((rc = sc->resolve(c, sc, e, out, err)) || *out)
            return rc;
    }
    if (sc->query && (e->kind == AST_COLREF || e->kind == AST_FIELD ||
                      e->kind == AST_SUBQUERY || e->kind == AST_EXISTS ||
                      (e->kind == AST_IN && e->query))) {
        *out = NULL;
        if ((rc = sc->query(c, sc, e, out, err)) || *out)
            return rc;
    }
    if (e->kind == AST_SUBQUERY || e->kind == AST_EXISTS ||
        (e->kind == AST_IN && e->query))
        return sql_err_at(err, COMB_ESEMANTIC, 10249, e->pos,
                          "Unsupported SubQuery Expression: a subquery is "
                          "not allowed here");
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
    case AST_INDEX:
        return bind_index(c, sc, e, out, err);
    case AST_SUBQUERY:
    case AST_EXISTS:
        break;
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
    return sql_fold_constant(c, out, err);
}
