/*
 * cte.c - WITH queries computed once for all their references (logical.h,
 * sql_lp_share_ctes), as Hive materializes a CTE referenced at least
 * hive.optimize.cte.materialize.threshold times.
 *
 * The binder binds every reference of a WITH query on its own: an LP_CTE
 * node over a copy of the query's plan with column ids of its own.  Left
 * so, TPC-H Q15's `revenue0` (lineitem of one quarter grouped by
 * supplier, read by the join with supplier and again by the scalar
 * subquery's max) scans and aggregates lineitem twice.  This rule, run
 * before the others, decides for each WITH query once:
 *
 *  - shared: the first reference's copy becomes the query's one plan
 *    (optimized on its own, as a root), every reference a leaf whose
 *    column j is that plan's column j, and the lowering computes the plan
 *    once and hands its rows to each reference (exec/op_cte.c).  Filters
 *    over a reference stay above it: they cannot narrow what the other
 *    references read.
 *  - not shared: each LP_CTE node gives way to its own copy, which the
 *    other rules then optimize in place (filters pushed into it), as if
 *    the query were written at each reference.
 *
 * Shared only when it cannot change an answer or cost much memory: a
 * query that calls a volatile function (rand(), ...) must draw new
 * values at each reference, as its copies do, and one with a window or a
 * lateral view is left alone (their calls are not checked for that); the
 * query's result must be an aggregation (its groups, usually far fewer
 * rows than its input: Hive 4's full-aggregate-only default), so that
 * holding it costs little.  A reference the binder counted inside a copy
 * that sharing then drops (a WITH query read by another shared one) still
 * counts: such a query may be held for one reader.
 */
#include "sql/plan/logical.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD_KEY "hive.optimize.cte.materialize.threshold"
/* comb's default: each copy of a query is computed in full */
#define THRESHOLD_DEFAULT 2

static int threshold(SqlStmtCtx *c, long *out, CombErr *err)
{
    const char *v = c->s ? sql_session_get_conf(c->s, THRESHOLD_KEY) : NULL;
    char *end;
    if (!v || !*v) {
        *out = THRESHOLD_DEFAULT;
        return COMB_OK;
    }
    errno = 0;
    *out = strtol(v, &end, 10);
    if (*end || errno)
        return comb_err(err, COMB_EINVALID, "%s must be a whole number (0 or "
                        "less: never share a WITH query), not '%s'",
                        THRESHOLD_KEY, v);
    return COMB_OK;
}

static bool exprs_volatile(BoundExpr *const *e, int n)
{
    for (int i = 0; i < n; i++)
        if (sql_lp_expr_volatile(e[i]))
            return true;
    return false;
}

/* Could computing n once for several readers give another answer than
 * computing it for each: a volatile call, or a node whose calls are not
 * looked at (window, lateral view)? */
static bool plan_volatile(const LpNode *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case LP_WINDOW:
    case LP_LATERAL:
        return true;
    case LP_VALUES:
        for (int r = 0; r < n->n_rows; r++)
            if (exprs_volatile(n->rows[r], n->n_cols))
                return true;
        break;
    case LP_PROJECT:
        if (exprs_volatile(n->exprs, n->n_cols))
            return true;
        break;
    case LP_AGGREGATE:
        if (exprs_volatile(n->keys, n->n_keys))
            return true;
        for (int a = 0; a < n->n_aggs; a++)
            if (exprs_volatile(n->aggs[a].args, n->aggs[a].n_args))
                return true;
        break;
    default:
        break;
    }
    return sql_lp_expr_volatile(n->filter) || sql_lp_expr_volatile(n->pred) ||
           sql_lp_expr_volatile(n->cond) || sql_lp_expr_volatile(n->in_left) ||
           sql_lp_expr_volatile(n->in_right) || plan_volatile(n->input) ||
           plan_volatile(n->right) || plan_volatile(n->single_default);
}

/* Is n's result an aggregation's groups (through nodes that only keep,
 * order or compute from them)? */
static bool aggregated(const LpNode *n)
{
    while (n->kind == LP_PROJECT || n->kind == LP_FILTER || n->kind == LP_SORT ||
           n->kind == LP_LIMIT)
        n = n->input;
    return n->kind == LP_AGGREGATE;
}

static int decide(SqlStmtCtx *c, LpNode *ref, CombErr *err)
{
    struct LpCte *w = ref->cte;
    long t;
    int rc;
    if (w->decided)
        return COMB_OK;
    w->decided = true;
    if ((rc = threshold(c, &t, err)))
        return rc;
    w->shared = t > 0 && w->n_refs >= t && aggregated(ref->input) &&
                !plan_volatile(ref->input);
    if (!w->shared)
        return COMB_OK;
    w->plan = ref->input;
    /* named as the query, not as the first reference's alias */
    if (!(w->plan->label = comb_arena_printf(c->arena, "CTE %s", w->name)))
        return comb_err_nomem(err);
    return sql_lp_optimize(c, &w->plan, err);
}

static int share(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    LpNode *n = *np;
    int rc;
    if (!n)
        return COMB_OK;
    if (n->kind == LP_CTE && n->input) {
        if ((rc = decide(c, n, err)))
            return rc;
        if (n->cte->shared) {
            n->input = NULL;
            return COMB_OK;
        }
        *np = n->input;
        return share(c, np, err);
    }
    if ((rc = share(c, &n->input, err)) || (rc = share(c, &n->right, err)))
        return rc;
    return share(c, &n->single_default, err);
}

int sql_lp_share_ctes(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    return share(c, root, err);
}

int sql_lp_cte_ref(SqlStmtCtx *c, struct LpCte *cte, LpNode *input,
                   LpNode **out, CombErr *err)
{
    LpNode *n = sql_lp_node(c, LP_CTE, input->n_cols);
    if (!n)
        return comb_err_nomem(err);
    memcpy(n->cols, input->cols, (size_t)input->n_cols * sizeof *n->cols);
    n->input = input;
    n->cte = cte;
    cte->n_refs++;
    *out = n;
    return COMB_OK;
}
