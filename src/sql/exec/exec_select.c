/*
 * exec_select.c - SELECT: the query bound into a logical plan
 * (plan/logical.h: binder, rules), lowered to the operator tree that runs
 * it (lower.c), and the sql_select_* API that INSERT ... SELECT,
 * multi-insert, CTAS, views and EXPLAIN use.  INSERT's and CTAS's
 * conversions to the target's column types go into the PROJECT that
 * computes each output column (or a PROJECT over the plan when no single
 * one does), before lowering.
 */
#include "sql/exec/op.h"

#include <string.h>

struct SqlSelectPlan {
    LpNode *lp;              /* the optimized logical plan */
    int n_out;
    const char **names;
    CombTypeKind *kinds;
    const CombType **types;
    SqlOp *root;             /* built by sql_select_build */
};

/* The output columns as the API gives them (names, kinds, types). */
static int plan_outputs(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    int n = p->lp->n_cols;
    p->n_out = n;
    p->names = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->names);
    p->kinds = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->kinds);
    p->types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->types);
    if (!p->names || !p->kinds || !p->types)
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        p->names[j] = p->lp->cols[j].name;
        p->types[j] = p->lp->cols[j].type;
        p->kinds[j] = p->types[j]->kind;
    }
    return COMB_OK;
}

int sql_select_plan(SqlStmtCtx *c, const AstSelect *s, SqlSelectPlan **out,
                    CombErr *err)
{
    SqlSelectPlan *p = comb_arena_calloc(c->arena, sizeof *p);
    int rc;
    if (!p)
        return comb_err_nomem(err);
    if ((rc = sql_lp_bind_query(c, s, &p->lp, err)) ||
        (rc = plan_outputs(c, p, err)))
        return rc;
    *out = p;
    return COMB_OK;
}

void sql_select_output(const SqlSelectPlan *p, int *n_out,
                       const char *const **names, const CombTypeKind **kinds)
{
    *n_out = p->n_out;
    *names = p->names;
    *kinds = p->kinds;
}

const CombType *const *sql_select_types(const SqlSelectPlan *p)
{
    return p->types;
}

/* The expression of the PROJECT that computes column id, found through
 * the nodes that pass it on (LIMIT, SORT, FILTER, a PROJECT keeping it);
 * NULL when another kind of node makes it. */
static BoundExpr **producer(LpNode *n, int id)
{
    for (;;) {
        int j;
        switch (n->kind) {
        case LP_LIMIT:
        case LP_SORT:
        case LP_FILTER:
            n = n->input;
            continue;
        case LP_PROJECT:
            for (j = 0; j < n->n_cols && n->cols[j].id != id; j++)
                ;
            if (j == n->n_cols)
                return NULL;
            if (n->exprs[j]->kind == BX_COL && n->exprs[j]->col == id) {
                n = n->input;
                continue;
            }
            return &n->exprs[j];
        default:
            return NULL;
        }
    }
}

/* Column id has type t in every node from n down to its producer. */
static void retype(LpNode *n, int id, const CombType *t)
{
    for (; n; n = n->input) {
        bool found = false;
        for (int j = 0; j < n->n_cols; j++)
            if (n->cols[j].id == id) {
                n->cols[j].type = t;
                found = true;
            }
        if (!found)
            return;
    }
}

/* A PROJECT over the plan converting every output column. */
static int coerce_on_top(SqlStmtCtx *c, SqlSelectPlan *p, const int *map,
                         const SqlTable *t, CombErr *err)
{
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(p->n_out + 1) * sizeof *exprs);
    int rc;
    if (!exprs)
        return comb_err_nomem(err);
    for (int j = 0; j < p->n_out; j++) {
        BoundExpr *e = sql_lp_colref(c, &p->lp->cols[j], (AstPos){0, 0});
        if (!e)
            return comb_err_nomem(err);
        if ((rc = sql_bind_assign(c, e, t, map[j], &exprs[j], err)))
            return rc;
    }
    return sql_lp_project(c, p->lp, p->n_out, exprs, p->names, &p->lp, err);
}

int sql_select_coerce(SqlStmtCtx *c, SqlSelectPlan *p, const int *map,
                      const SqlTable *t, CombErr *err)
{
    int rc;
    for (int j = 0; j < p->n_out; j++)
        if (!producer(p->lp, p->lp->cols[j].id)) {
            if ((rc = coerce_on_top(c, p, map, t, err)))
                return rc;
            goto done;
        }
    for (int j = 0; j < p->n_out; j++) {
        int id = p->lp->cols[j].id;
        BoundExpr **e = producer(p->lp, id);
        if ((rc = sql_bind_assign(c, *e, t, map[j], e, err)))
            return rc;
        retype(p->lp, id, t->types[map[j]]);
    }
done:
    for (int j = 0; j < p->n_out; j++) {
        p->kinds[j] = t->kinds[map[j]];
        p->types[j] = t->types[map[j]];
    }
    return COMB_OK;
}

int sql_select_build(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **root,
                     CombErr *err)
{
    int rc;
    if (!p->root && (rc = sql_lp_lower(c, p->lp, &p->root, err)))
        return rc;
    *root = p->root;
    return COMB_OK;
}

/* ------------------------------------------------------------- execution */

int sql_select_open(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    SqlOp *root;
    int rc = sql_select_build(c, p, &root, err);
    if (rc)
        return rc;
    sql_op_need(root, NULL);
    return sql_op_open(root, err);
}

int sql_select_run(SqlStmtCtx *c, SqlSelectPlan *p, const SqlSink *sink,
                   CombErr *err)
{
    int rc = sql_sink_allowed(c, err);
    if (rc)
        return rc;
    for (;;) {
        const CombBatch *b;
        CombBatch view;
        if ((rc = sql_op_next(p->root, &b, err)) || !b)
            return rc;
        view = *b;
        view.n_cols = p->n_out;
        if (sink->batch && (rc = sink->batch(sink->ctx, &view, err)))
            return rc;
    }
}

void sql_select_close(SqlSelectPlan *p)
{
    if (p)
        sql_op_close(p->root);
}

/* ------------------------------------------------------------ statement */

int sql_exec_select(SqlStmtCtx *c, CombErr *err)
{
    SqlSelectPlan *p;
    const SqlSink *sink = c->sink;
    int rc;
    if ((rc = sql_sink_allowed(c, err)) ||
        (rc = sql_select_plan(c, c->stmt->select, &p, err)))
        return rc;
    if (!(rc = sql_select_open(c, p, err)) && sink->begin)
        rc = sink->begin(sink->ctx, p->n_out, p->names, p->kinds, err);
    if (!rc)
        rc = sql_select_run(c, p, sink, err);
    if (!rc && sink->end)
        rc = sink->end(sink->ctx, err);
    sql_select_close(p);
    return rc;
}
