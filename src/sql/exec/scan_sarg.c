/*
 * scan_sarg.c - from a scan's bound filter to the ORC search argument
 * (orc/sarg.h) its readers skip files and stripes by.
 *
 * The filter's tree is translated where it is understood: AND, OR, NOT;
 * comparisons, BETWEEN, IN, IS [NOT] NULL and bare boolean columns,
 * between one data column (bare, or behind a conversion that keeps every
 * value and its order: integer widening, integers to double or to a
 * decimal that holds them, float to double, decimal widening, char and
 * varchar to string) and constants.  Anything else becomes an UNKNOWN
 * node, which the search argument treats as "anything may hold", so the
 * translation is never stronger than the filter: push-down only skips,
 * and the scan still applies the whole filter to the rows it reads.
 * Leaves name table columns; acid/ maps them to each file's columns.
 * Partition columns are left to partition pruning.
 */
#include "sql/exec/exec.h"

#include <string.h>
#include <strings.h>

#include "orc/sarg.h"

typedef struct SargBuild {
    SqlStmtCtx *c;
    const SqlTable *t;
    OrcSarg *sarg;
} SargBuild;

/* tinyint .. bigint (comb_type_is_int also counts booleans and dates). */
static bool is_integer(CombTypeKind k)
{
    return sql_int_rank(k) > 0;
}

/* Decimal digits before the point an integer kind needs. */
static int int_digits(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT: return 3;
    case COMB_T_SMALLINT: return 5;
    case COMB_T_INT: return 10;
    default: return 19;
    }
}

/* A conversion that maps distinct values to distinct values in the same
 * order, with no NULL made of a value. */
static bool keeps_order(const CombType *from, const BoundExpr *cast)
{
    CombTypeKind f = from->kind, t = cast->type;
    const CombType *to = cast->ctype;
    if (is_integer(f) && is_integer(t))
        return sql_int_rank(t) >= sql_int_rank(f);
    if (is_integer(f) && t == COMB_T_DOUBLE)
        return true;  /* non-decreasing; the statistics convert alike */
    if (f == COMB_T_FLOAT && t == COMB_T_DOUBLE)
        return true;
    if (is_integer(f) && t == COMB_T_DECIMAL && to)
        return (int)to->precision - (int)to->scale >= int_digits(f);
    if (f == COMB_T_DECIMAL && t == COMB_T_DECIMAL && to)
        return to->scale >= from->scale &&
               to->precision - to->scale >= from->precision - from->scale;
    return (f == COMB_T_CHAR || f == COMB_T_VARCHAR) && t == COMB_T_STRING;
}

/* The data column e reads (bare or through keeps_order), -1 if none;
 * *rtrim for a CHAR cast to string (compared without its padding). */
static int column_of(const SargBuild *b, const BoundExpr *e, bool *rtrim)
{
    const BoundExpr *col = e->kind == BX_CAST && !e->strict ? e->a : e;
    const CombType *from;
    *rtrim = false;
    if (col->kind != BX_COL || col->col < 0 || col->col >= b->t->n_data)
        return -1;
    from = b->t->types[col->col];
    if (col != e) {
        if (!keeps_order(from, e))
            return -1;
        *rtrim = from->kind == COMB_T_CHAR;
    }
    return col->col;
}

static bool leaf_type(CombTypeKind k, OrcSargType *out)
{
    if (is_integer(k))
        *out = ORC_SARG_LONG;
    else if (comb_type_is_float(k))
        *out = ORC_SARG_DOUBLE;
    else if (k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR)
        *out = ORC_SARG_STRING;
    else if (k == COMB_T_DATE)
        *out = ORC_SARG_DATE;
    else if (k == COMB_T_DECIMAL)
        *out = ORC_SARG_DECIMAL;
    else if (k == COMB_T_TIMESTAMP)
        *out = ORC_SARG_TIMESTAMP;
    else if (k == COMB_T_BOOLEAN)
        *out = ORC_SARG_BOOLEAN;
    else
        return false;
    return true;
}

/* A constant of the comparison's type (an integer constant or a NULL may
 * sit behind a conversion <=> keeps unfolded); *is_null for NULL. */
static bool constant_of(const BoundExpr *e, CombTypeKind want, bool *is_null,
                        OrcSargValue *v)
{
    OrcSargType lt, wt;
    if (e->kind == BX_CAST && e->a->kind == BX_CONST &&
        ((is_integer(e->type) && is_integer(e->a->type)) ||
         e->a->is_null || e->a->type == COMB_T_NULL))
        e = e->a;
    if (e->kind != BX_CONST)
        return false;
    *is_null = e->is_null || e->type == COMB_T_NULL;
    if (*is_null)
        return true;
    if (!leaf_type(e->type, &lt) || !leaf_type(want, &wt) || lt != wt)
        return false;
    memset(v, 0, sizeof *v);
    v->i = e->ival;
    v->nanos = e->nanos;
    v->d = e->dval;
    v->s = e->sval;
    v->dec = e->dec;
    v->scale = e->ctype ? (int)e->ctype->scale : 0;
    if (lt == ORC_SARG_BOOLEAN)
        v->i = e->ival != 0;
    return true;
}

static OrcSargNode *unknown(SargBuild *b)
{
    return orc_sarg_node(b->sarg, ORC_SARG_UNKNOWN, NULL, 0);
}

/* A leaf over column expression x with values vals[0..n). */
static OrcSargNode *make_leaf(SargBuild *b, OrcSargOp op, const BoundExpr *x,
                              OrcSargValue *vals, int n)
{
    OrcSargLeaf leaf;
    bool rtrim;
    int col = column_of(b, x, &rtrim);
    memset(&leaf, 0, sizeof leaf);
    if (col < 0 || (!leaf_type(x->type, &leaf.type) && op != ORC_SARG_IS_NULL))
        return unknown(b);
    leaf.op = op;
    leaf.column = col;
    leaf.name = b->t->names[col];
    leaf.rtrim = rtrim;
    leaf.char_length = rtrim ? b->t->types[col]->max_length : 0;
    leaf.n_values = n;
    leaf.values = vals;
    return orc_sarg_leaf(b->sarg, &leaf);
}

/* x op k with the column on either side; > and >= are NOT <= and NOT <. */
static OrcSargNode *comparison(SargBuild *b, const BoundExpr *e)
{
    const BoundExpr *x = e->a, *k = e->b;
    AstOp op = e->op;
    OrcSargValue v;
    bool null, rtrim;
    if (op < AST_OP_EQ || op > AST_OP_EQ_NS)
        return unknown(b);
    if (column_of(b, x, &rtrim) < 0) {
        static const AstOp flipped[] = {
            [AST_OP_EQ] = AST_OP_EQ, [AST_OP_NE] = AST_OP_NE,
            [AST_OP_LT] = AST_OP_GT, [AST_OP_LE] = AST_OP_GE,
            [AST_OP_GT] = AST_OP_LT, [AST_OP_GE] = AST_OP_LE,
            [AST_OP_EQ_NS] = AST_OP_EQ_NS,
        };
        x = e->b;
        k = e->a;
        op = flipped[op];
    }
    if (!constant_of(k, x->type, &null, &v))
        return unknown(b);
    if (null)  /* x <=> NULL is x IS NULL; other comparisons are never TRUE
                  nor FALSE, so anything stands for them */
        return op == AST_OP_EQ_NS ? make_leaf(b, ORC_SARG_IS_NULL, x, NULL, 0)
                                  : unknown(b);
    switch (op) {
    case AST_OP_EQ: return make_leaf(b, ORC_SARG_EQ, x, &v, 1);
    case AST_OP_EQ_NS: return make_leaf(b, ORC_SARG_NSEQ, x, &v, 1);
    case AST_OP_LT: return make_leaf(b, ORC_SARG_LT, x, &v, 1);
    case AST_OP_LE: return make_leaf(b, ORC_SARG_LE, x, &v, 1);
    case AST_OP_NE: return orc_sarg_not(b->sarg, make_leaf(b, ORC_SARG_EQ, x, &v, 1));
    case AST_OP_GT: return orc_sarg_not(b->sarg, make_leaf(b, ORC_SARG_LE, x, &v, 1));
    case AST_OP_GE: return orc_sarg_not(b->sarg, make_leaf(b, ORC_SARG_LT, x, &v, 1));
    default: return unknown(b);
    }
}

static OrcSargNode *negated(SargBuild *b, OrcSargNode *n, bool neg)
{
    return neg ? orc_sarg_not(b->sarg, n) : n;
}

/* x BETWEEN lo AND hi; when x is converted apart for each bound (the
 * binder's two comparisons, see bind_between) it is x >= lo AND x' <= hi,
 * which BETWEEN is in three-valued logic too. */
static OrcSargNode *between(SargBuild *b, const BoundExpr *e)
{
    const BoundExpr *x_hi = e->n_args ? e->args[0] : e->a;
    OrcSargValue v[2];
    bool null_lo, null_hi;
    OrcSargNode *n, *sides[2];
    if (!constant_of(e->b, e->a->type, &null_lo, &v[0]) ||
        !constant_of(e->c, x_hi->type, &null_hi, &v[1]) || null_lo || null_hi)
        return unknown(b);
    if (!e->n_args)
        n = make_leaf(b, ORC_SARG_BETWEEN, e->a, v, 2);
    else {
        sides[0] = orc_sarg_not(b->sarg, make_leaf(b, ORC_SARG_LT, e->a, &v[0], 1));
        sides[1] = make_leaf(b, ORC_SARG_LE, x_hi, &v[1], 1);
        n = orc_sarg_node(b->sarg, ORC_SARG_AND, sides, 2);
    }
    return negated(b, n, e->negated);
}

/* x IN (k...): NULL constants are left out, since they only turn FALSE
 * into NULL (both are "not TRUE", and NOT IN with a NULL is never TRUE). */
static OrcSargNode *in_list(SargBuild *b, const BoundExpr *e)
{
    OrcSargValue *v = comb_arena_alloc(b->c->arena,
                                       (size_t)(e->n_args + 1) * sizeof *v);
    int n = 0;
    if (!v)
        return NULL;
    for (int i = 0; i < e->n_args; i++) {
        bool null;
        if (!constant_of(e->args[i], e->a->type, &null, &v[n]))
            return unknown(b);
        n += !null;
    }
    if (n == 0)
        return unknown(b);
    return negated(b, make_leaf(b, ORC_SARG_IN, e->a, v, n), e->negated);
}

static OrcSargNode *translate(SargBuild *b, const BoundExpr *e);

static OrcSargNode *logic(SargBuild *b, const BoundExpr *e)
{
    OrcSargNode **kids = comb_arena_alloc(b->c->arena,
                                          (size_t)(e->n_args + 1) * sizeof *kids);
    if (!kids)
        return NULL;
    for (int i = 0; i < e->n_args; i++)
        if (!(kids[i] = translate(b, e->args[i])))
            return NULL;
    return orc_sarg_node(b->sarg, e->op == AST_OP_AND ? ORC_SARG_AND : ORC_SARG_OR,
                         kids, e->n_args);
}

static OrcSargNode *translate(SargBuild *b, const BoundExpr *e)
{
    OrcSargValue yes = {.i = 1};
    switch (e->kind) {
    case BX_BINARY:
        if ((e->op == AST_OP_AND || e->op == AST_OP_OR) && e->n_args > 0)
            return logic(b, e);
        return comparison(b, e);
    case BX_UNARY:
        return e->op == AST_OP_NOT ? orc_sarg_not(b->sarg, translate(b, e->a))
                                   : unknown(b);
    case BX_IS_NULL:
        return negated(b, make_leaf(b, ORC_SARG_IS_NULL, e->a, NULL, 0),
                       e->negated);
    case BX_BETWEEN:
        return between(b, e);
    case BX_IN:
        return in_list(b, e);
    case BX_COL:
        return e->type == COMB_T_BOOLEAN ? make_leaf(b, ORC_SARG_EQ, e, &yes, 1)
                                         : unknown(b);
    default:
        return unknown(b);
    }
}

bool sql_index_filter_enabled(SqlStmtCtx *c)
{
    return sql_conf_bool(c->s, "hive.optimize.index.filter", true);
}

int sql_scan_sarg(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                  OrcSarg **out, CombErr *err)
{
    *out = NULL;
    if (!sql_index_filter_enabled(c))
        return COMB_OK;
    return sql_filter_sarg(c, t, filter, out, err);
}

int sql_filter_sarg(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                    OrcSarg **out, CombErr *err)
{
    SargBuild b = {c, t, NULL};
    *out = NULL;
    if (!filter || t->format != SQL_FORMAT_ORC)
        return COMB_OK;
    if (!(b.sarg = comb_arena_alloc(c->arena, sizeof *b.sarg)))
        return comb_err_nomem(err);
    orc_sarg_init(b.sarg, c->arena);
    if (!(b.sarg->root = translate(&b, filter)))
        return comb_err_nomem(err);
    if (orc_sarg_simplify(b.sarg))
        *out = b.sarg;
    return COMB_OK;
}
