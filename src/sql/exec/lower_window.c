/*
 * lower_window.c - an LP_WINDOW node (plan/window.h) into the Window
 * operator (op_window.c): its input lowered, its keys and calls' arguments
 * turned from column ids into positions of the input's batches, the
 * calls' columns named as the node names them.
 */
#include "sql/exec/op.h"

#include "sql/plan/window.h"

/* A window call with its arguments over the input's positions. */
static int lower_call(SqlStmtCtx *c, const SqlWinCall *src, const LpNode *in,
                      SqlWinCall **out, CombErr *err)
{
    SqlWinCall *w = comb_arena_alloc(c->arena, sizeof *w);
    int rc;
    if (!w)
        return comb_err_nomem(err);
    *w = *src;
    if ((rc = sql_lower_expr(c, src->arg, in, NULL, &w->arg, err)) ||
        (rc = sql_lower_expr(c, src->dflt, in, NULL, &w->dflt, err)))
        return rc;
    if (src->agg) {
        SqlAgg *a = comb_arena_alloc(c->arena, sizeof *a);
        if (!a)
            return comb_err_nomem(err);
        *a = *src->agg;
        if (!(a->args = comb_arena_alloc(c->arena, (size_t)(a->n_args + 1) * sizeof *a->args)))
            return comb_err_nomem(err);
        for (int k = 0; k < a->n_args; k++)
            if ((rc = sql_lower_expr(c, src->agg->args[k], in, NULL, &a->args[k], err)))
                return rc;
        w->agg = a;
    }
    *out = w;
    return COMB_OK;
}

static int lower_spec(SqlStmtCtx *c, const LpWindow *src, const LpNode *in,
                      LpWindow *w, CombErr *err)
{
    int rc;
    *w = *src;
    w->part = comb_arena_alloc(c->arena, (size_t)(src->n_part + 1) * sizeof *w->part);
    w->order = comb_arena_alloc(c->arena, (size_t)(src->n_order + 1) * sizeof *w->order);
    w->calls = comb_arena_alloc(c->arena, (size_t)(src->n_calls + 1) * sizeof *w->calls);
    if (!w->part || !w->order || !w->calls)
        return comb_err_nomem(err);
    for (int i = 0; i < src->n_part; i++)
        if ((rc = sql_lower_expr(c, src->part[i], in, NULL, &w->part[i], err)))
            return rc;
    for (int i = 0; i < src->n_order; i++) {
        w->order[i] = src->order[i];
        if ((rc = sql_lower_expr(c, src->order[i].expr, in, NULL, &w->order[i].expr, err)))
            return rc;
    }
    for (int k = 0; k < src->n_calls; k++)
        if ((rc = lower_call(c, src->calls[k], in, &w->calls[k], err)))
            return rc;
    return COMB_OK;
}

int sql_lower_window(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                     CombErr *err)
{
    const LpNode *in = n->input;
    LpWindow *w = comb_arena_alloc(c->arena, sizeof *w);
    const char **names = comb_arena_alloc(c->arena, (size_t)(n->window->n_calls + 1) * sizeof *names);
    SqlOp *below;
    int rc;
    if (!w || !names)
        return comb_err_nomem(err);
    for (int k = 0; k < n->window->n_calls; k++)
        names[k] = n->cols[in->n_cols + k].name;
    if ((rc = lower_spec(c, n->window, in, w, err)) ||
        (rc = sql_lp_lower(c, in, &below, err)))
        return rc;
    return sql_op_window(c, below, w, names, out, err);
}
