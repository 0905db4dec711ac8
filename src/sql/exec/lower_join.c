/*
 * lower_join.c - a JOIN node into the join operator (op.h): the
 * condition's conjuncts `l = r` / `l <=> r` with l over the left side and
 * r over the right one become hash keys (both sides converted to one
 * type, so that equal values hash alike: decimals of different scales,
 * say); every other conjunct is the residual, evaluated over left ++
 * right.  x IN (SELECT y ...) adds x = y as the last key, null-aware
 * but under a SEMI join (a WHERE conjunct: NULL drops the row as FALSE
 * does).  INNER, RIGHT, SEMI and ANTI joins build the side estimated
 * smaller (rules.c's estimates).
 */
#include "sql/exec/op.h"

typedef struct Keys {
    int n;
    BoundExpr **l, **r;
    bool *null_safe;
    BoundExpr *residual;     /* logical ids */
} Keys;

/* a = b between the two sides: *l the left side's, *r the right's. */
static bool equi_sides(const BoundExpr *e, const LpNode *left,
                       const LpNode *right, BoundExpr **l, BoundExpr **r)
{
    if (e->kind != BX_BINARY || (e->op != AST_OP_EQ && e->op != AST_OP_EQ_NS))
        return false;
    if (sql_lp_expr_touches(e->a, left) && sql_lp_expr_within(e->a, left) &&
        sql_lp_expr_touches(e->b, right) && sql_lp_expr_within(e->b, right)) {
        *l = e->a;
        *r = e->b;
        return true;
    }
    if (sql_lp_expr_touches(e->b, left) && sql_lp_expr_within(e->b, left) &&
        sql_lp_expr_touches(e->a, right) && sql_lp_expr_within(e->a, right)) {
        *l = e->b;
        *r = e->a;
        return true;
    }
    return false;
}

/* Both key sides of one type (NULL: none, the conjunct stays residual). */
static int key_types(SqlStmtCtx *c, BoundExpr **l, BoundExpr **r, bool *ok,
                     CombErr *err)
{
    const CombType *lt = sql_bx_type(c, *l), *rt = sql_bx_type(c, *r), *to;
    int rc;
    *ok = false;
    if (!lt || !rt)
        return comb_err_nomem(err);
    if (comb_type_equal(lt, rt)) {
        *ok = true;
        return COMB_OK;
    }
    if ((rc = sql_common_class(c, lt, rt, &to)) || !to)
        return rc;
    if ((rc = sql_bind_cast(c, *l, to, true, l, err)) ||
        (rc = sql_bind_cast(c, *r, to, true, r, err)))
        return rc;
    *ok = true;
    return COMB_OK;
}

static int add_key(SqlStmtCtx *c, Keys *k, const LpNode *n, BoundExpr *l,
                   BoundExpr *r, bool null_safe, CombErr *err)
{
    int rc;
    if ((rc = sql_lower_expr(c, l, n->input, NULL, &k->l[k->n], err)) ||
        (rc = sql_lower_expr(c, r, n->right, NULL, &k->r[k->n], err)))
        return rc;
    k->null_safe[k->n++] = null_safe;
    return COMB_OK;
}

static int split_cond(SqlStmtCtx *c, const LpNode *n, Keys *k, CombErr *err)
{
    BoundExpr *cond = n->cond;
    int nc = cond ? sql_bx_conjuncts(cond) : 0;
    if (!(k->l = comb_arena_alloc(c->arena, (size_t)(nc + 2) * sizeof *k->l)) ||
        !(k->r = comb_arena_alloc(c->arena, (size_t)(nc + 2) * sizeof *k->r)) ||
        !(k->null_safe = comb_arena_alloc(c->arena, (size_t)(nc + 2) * sizeof *k->null_safe)))
        return comb_err_nomem(err);
    for (int i = 0; i < nc; i++) {
        BoundExpr *e = sql_bx_conjunct(cond, i), *l, *r;
        bool ok = false;
        int rc;
        if (equi_sides(e, n->input, n->right, &l, &r) &&
            (rc = key_types(c, &l, &r, &ok, err)))
            return rc;
        if (ok && (rc = add_key(c, k, n, l, r, e->op == AST_OP_EQ_NS, err)))
            return rc;
        if (!ok && !(k->residual = sql_bx_and(c, k->residual, e)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* The side to hold in the hash table: INNER and RIGHT joins build the
 * side estimated smaller, the right one when unsure; a RIGHT join
 * building its right (preserved) side emits the unmatched ones at the
 * end.  SEMI and ANTI joins with keys do too (building left, the probe
 * marks the build rows and the marked or unmarked ones come at the end),
 * except NOT IN's null-aware ANTI, whose NULLs on the right decide for
 * every left row.  LEFT joins keep building the right side: a preserved
 * probe side leaves the join parallel-safe (par.c), which FULL's
 * build-side rest is not. */
static bool builds_left(const LpNode *n, const SqlJoinSpec *spec)
{
    bool smaller = n->input->est_rows >= 0 && n->right->est_rows >= 0 &&
                   n->input->est_rows < n->right->est_rows;
    bool marks = (n->join == LP_JOIN_SEMI || n->join == LP_JOIN_ANTI) &&
                 spec->n_keys > 0 && !spec->null_aware;
    return (n->join == LP_JOIN_INNER || n->join == LP_JOIN_RIGHT || marks) && smaller;
}

/* The build side's copies, when its rows can be stored in parallel. */
static int lower_build_copies(SqlStmtCtx *c, const LpNode *side, SqlOp *join,
                              CombErr *err)
{
    SqlOp *build = sql_op_join_build_input(join), **copies;
    int n = 0, rc;
    if (!build)
        return COMB_OK;
    if ((rc = sql_lower_copies(c, side, build, &copies, &n, err)) || !n)
        return rc;
    return sql_op_join_build_peers(join, copies, n, err);
}

/* SEMI, ANTI building left: copies of the join, to mark the build rows
 * side by side, when its probe side can run as copies. */
static int lower_mark_copies(SqlStmtCtx *c, const LpNode *n, SqlOp *join,
                             CombErr *err)
{
    SqlOp *probe = sql_op_join_mark_input(join), **copies;
    int k = 0, rc;
    if (!probe)
        return COMB_OK;
    if ((rc = sql_lower_copies(c, n, probe, &copies, &k, err)) || !k)
        return rc;
    return sql_op_join_mark_peers(join, copies, k, err);
}

int sql_lower_join(SqlStmtCtx *c, const LpNode *n, SqlOp **out, CombErr *err)
{
    SqlJoinSpec spec = {0};
    Keys k = {0};
    SqlOp *left, *right;
    int rc;
    if ((rc = sql_lp_lower(c, n->input, &left, err)) ||
        (rc = sql_lp_lower(c, n->right, &right, err)) ||
        (rc = split_cond(c, n, &k, err)))
        return rc;
    if (n->in_left) {
        BoundExpr *l = n->in_left, *r = n->in_right;
        bool ok;
        if ((rc = key_types(c, &l, &r, &ok, err)))
            return rc;
        if (!ok)
            return COMB_INTERNAL(err, "IN subquery of types without a common one");
        if ((rc = add_key(c, &k, n, l, r, false, err)))
            return rc;
        spec.null_aware = n->join != LP_JOIN_SEMI;
    }
    if (n->single_default &&
        (rc = sql_lp_lower(c, n->single_default, &spec.single_default, err)))
        return rc;
    spec.kind = n->join;
    spec.single_pos = n->single_pos;
    spec.n_keys = k.n;
    spec.lkeys = k.l;
    spec.rkeys = k.r;
    spec.null_safe = k.null_safe;
    if ((rc = sql_lower_expr(c, k.residual, n->input, n->right, &spec.residual, err)))
        return rc;
    spec.build_left = builds_left(n, &spec);
    if ((rc = sql_op_join(c, left, right, &spec, out, err)))
        return rc;
    if ((rc = lower_build_copies(c, spec.build_left ? n->input : n->right, *out, err)))
        return rc;
    return lower_mark_copies(c, n, *out, err);
}
