/*
 * lower.c - a logical plan (plan/logical.h) into physical operators
 * (op.h).  Each node becomes the operator(s) that compute it, with column
 * ids turned into positions of the operator's input batches (a node's
 * output columns are its operator's, in the same order).  A FILTER's
 * conjuncts are offered to the operator below first (sql_op_push_filter:
 * a scan takes them as its filter and prunes partitions); a JOIN's
 * condition is split into equi keys (both sides brought to one type) and
 * a residual; an AGGREGATE with grouping sets is one aggregation per set
 * under a UNION ALL; a PROJECT that keeps a prefix of a SORT's columns is
 * the sort's emitted columns.
 */
#include "sql/exec/op.h"
#include "sql/exec/par.h"

#include <string.h>

/* Column id -> position in the batches an expression reads. */
typedef struct PosMap {
    int n;
    int *pos;                /* by id; -1 none */
} PosMap;

static int map_init(SqlStmtCtx *c, PosMap *m, const LpNode *a,
                    const LpNode *b, CombErr *err)
{
    int k = 0;
    m->n = c->next_col_id + 1;
    if (!(m->pos = comb_arena_alloc(c->arena, (size_t)m->n * sizeof *m->pos)))
        return comb_err_nomem(err);
    memset(m->pos, 0xff, (size_t)m->n * sizeof *m->pos);
    for (int j = 0; a && j < a->n_cols; j++)
        m->pos[a->cols[j].id] = k++;
    for (int j = 0; b && j < b->n_cols; j++)
        m->pos[b->cols[j].id] = k++;
    return COMB_OK;
}

static bool map_ok(const PosMap *m, int id)
{
    return id > 0 && id < m->n && m->pos[id] >= 0;
}

/* A copy of e with positions for ids; NULL with *bad set when e reads a
 * column that is not there (an outer reference left over). */
static BoundExpr *translate(SqlStmtCtx *c, const BoundExpr *e, const PosMap *m,
                            bool *bad)
{
    BoundExpr *n;
    if (!e)
        return NULL;
    if ((e->kind == BX_COL || e->kind == BX_ROWID) && !map_ok(m, e->col)) {
        *bad = true;
        return NULL;
    }
    if (!(n = sql_bx_clone(c, e, NULL)))
        return NULL;
    if (e->kind == BX_COL || e->kind == BX_ROWID)
        n->col = m->pos[e->col];
    if ((e->a && !(n->a = translate(c, e->a, m, bad))) ||
        (e->b && !(n->b = translate(c, e->b, m, bad))) ||
        (e->c && !(n->c = translate(c, e->c, m, bad))))
        return NULL;
    for (int i = 0; i < e->n_args; i++)
        if (!(n->args[i] = translate(c, e->args[i], m, bad)))
            return NULL;
    return n;
}

static int xlate(SqlStmtCtx *c, const BoundExpr *e, const PosMap *m,
                 BoundExpr **out, CombErr *err)
{
    bool bad = false;
    if (!e) {
        *out = NULL;
        return COMB_OK;
    }
    if ((*out = translate(c, e, m, &bad)))
        return COMB_OK;
    if (bad)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "this correlated subquery is not supported yet: its "
                          "reference to the outer query is not a condition of "
                          "its WHERE clause");
    return comb_err_nomem(err);
}

static const char **col_names(SqlStmtCtx *c, const LpNode *n)
{
    const char **names = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *names);
    for (int j = 0; names && j < n->n_cols; j++)
        names[j] = n->cols[j].name;
    return names;
}

static const CombType **col_types(SqlStmtCtx *c, const LpNode *n)
{
    const CombType **types = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *types);
    for (int j = 0; types && j < n->n_cols; j++)
        types[j] = n->cols[j].type;
    return types;
}

/* --------------------------------------------------------------- nodes */

static int lower_get(SqlStmtCtx *c, const LpNode *n, SqlOp **out, CombErr *err)
{
    PosMap m;
    BoundExpr *f;
    int rc;
    if ((rc = sql_op_scan(c, n->table, out, err)) || !n->filter)
        return rc;
    if ((rc = map_init(c, &m, n, NULL, err)) || (rc = xlate(c, n->filter, &m, &f, err)))
        return rc;
    return sql_op_push_filter(*out, f) ? COMB_OK : comb_err_nomem(err);
}

static int lower_values(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                        CombErr *err)
{
    int rc = sql_op_one_row(c, out, err);
    if (!rc && n->n_rows == 0)
        rc = sql_op_limit(c, *out, 0, out, err);
    return rc;
}

/* Each conjunct as low as the input takes it; the rest is a Filter. */
static int lower_filter(SqlStmtCtx *c, const LpNode *n, SqlOp *in,
                        SqlOp **out, CombErr *err)
{
    BoundExpr *pred, *left = NULL;
    PosMap m;
    int rc;
    if ((rc = map_init(c, &m, n->input, NULL, err)) ||
        (rc = xlate(c, n->pred, &m, &pred, err)))
        return rc;
    for (int i = 0; i < sql_bx_conjuncts(pred); i++) {
        BoundExpr *e = sql_bx_conjunct(pred, i);
        if (!sql_op_push_filter(in, e) && !(left = sql_bx_and(c, left, e)))
            return comb_err_nomem(err);
    }
    *out = in;
    return left ? sql_op_filter(c, in, left, out, err) : COMB_OK;
}

/* A PROJECT keeping the first columns of a SORT, in order. */
static bool keeps_sort_prefix(const LpNode *n)
{
    const LpNode *s = n->input;
    if (s->kind != LP_SORT || n->n_cols > s->n_cols)
        return false;
    for (int j = 0; j < n->n_cols; j++)
        if (n->exprs[j]->kind != BX_COL || n->exprs[j]->col != s->cols[j].id ||
            n->cols[j].id != s->cols[j].id)
            return false;
    return true;
}

/* A PROJECT passing on some of its input's columns (same ids). */
static bool is_keep(const LpNode *n)
{
    if (n->kind != LP_PROJECT || n->label)
        return false;
    for (int j = 0; j < n->n_cols; j++)
        if (n->exprs[j]->kind != BX_COL || n->exprs[j]->col != n->cols[j].id)
            return false;
    return true;
}

/* What a PROJECT reads: keeping PROJECTs under it change nothing it
 * computes (the ids they pass are their input's), so it reads below them. */
static const LpNode *project_source(const LpNode *n)
{
    const LpNode *src = n->input;
    while (is_keep(src) && !keeps_sort_prefix(src))
        src = src->input;
    return src;
}

static int lower_project(SqlStmtCtx *c, const LpNode *n, SqlOp *in,
                         SqlOp **out, CombErr *err)
{
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *exprs);
    const char **names = col_names(c, n);
    const CombType **types = col_types(c, n);
    PosMap m;
    int rc;
    if (!exprs || !names || !types)
        return comb_err_nomem(err);
    if ((rc = map_init(c, &m, project_source(n), NULL, err)))
        return rc;
    for (int j = 0; j < n->n_cols; j++)
        if ((rc = xlate(c, n->exprs[j], &m, &exprs[j], err)))
            return rc;
    return sql_op_project(c, in, n->n_cols, exprs, names, types, out, err);
}

static int lower_sort(SqlStmtCtx *c, const LpNode *n, int n_emit, SqlOp *in,
                      SqlOp **out, CombErr *err)
{
    SqlSortKey *keys = comb_arena_alloc(c->arena, (size_t)(n->n_sort + 1) * sizeof *keys);
    PosMap m;
    int rc;
    if (!keys)
        return comb_err_nomem(err);
    if ((rc = map_init(c, &m, n->input, NULL, err)))
        return rc;
    for (int k = 0; k < n->n_sort; k++) {
        if (!map_ok(&m, n->sort[k].col))
            return COMB_INTERNAL(err, "sort key is not an input column");
        keys[k] = (SqlSortKey){m.pos[n->sort[k].col], n->sort[k].desc,
                               n->sort[k].nulls_first};
    }
    return sql_op_sort(c, in, keys, n->n_sort, n_emit, out, err);
}

/* Aggregate calls with their arguments over the input's positions. */
static int lower_aggs(SqlStmtCtx *c, const LpNode *n, const PosMap *m,
                      SqlAgg ***out, CombErr *err)
{
    SqlAgg **aggs = comb_arena_alloc(c->arena, (size_t)(n->n_aggs + 1) * sizeof *aggs);
    if (!aggs)
        return comb_err_nomem(err);
    for (int a = 0; a < n->n_aggs; a++) {
        SqlAgg *g = comb_arena_alloc(c->arena, sizeof *g);
        int rc;
        if (!g)
            return comb_err_nomem(err);
        *g = n->aggs[a];
        g->args = comb_arena_alloc(c->arena, (size_t)(n->aggs[a].n_args + 1) * sizeof *g->args);
        if (!g->args)
            return comb_err_nomem(err);
        for (int k = 0; k < g->n_args; k++)
            if ((rc = xlate(c, n->aggs[a].args[k], m, &g->args[k], err)))
                return rc;
        aggs[a] = g;
    }
    *out = aggs;
    return COMB_OK;
}

static int lower_node(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                      CombErr *err);

/* One grouping set: the keys it groups, the others NULL, GROUPING__ID
 * its mask. */
static int lower_grouping_set(SqlStmtCtx *c, const LpNode *n, uint64_t set,
                              SqlOp **out, CombErr *err)
{
    int nk = n->n_keys, n_grouped = 0, rc;
    BoundExpr **keys = comb_arena_alloc(c->arena, (size_t)(nk + 1) * sizeof *keys);
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *exprs);
    const char **anames = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *anames);
    SqlAgg **aggs;
    SqlOp *in;
    PosMap m;
    if (!keys || !exprs || !anames)
        return comb_err_nomem(err);
    if ((rc = lower_node(c, n->input, &in, err)) ||
        (rc = map_init(c, &m, n->input, NULL, err)) ||
        (rc = lower_aggs(c, n, &m, &aggs, err)))
        return rc;
    for (int g = 0; g < nk; g++) {
        if (set & ((uint64_t)1 << (nk - 1 - g)))
            continue;
        anames[n_grouped] = n->cols[g].name;
        if ((rc = xlate(c, n->keys[g], &m, &keys[n_grouped++], err)))
            return rc;
    }
    for (int a = 0; a < n->n_aggs; a++)
        anames[n_grouped + a] = n->cols[nk + a].name;
    if ((rc = sql_op_aggregate(c, in, n_grouped, keys, n->n_aggs, aggs, anames,
                               &in, err)))
        return rc;
    /* keys (grouped or NULL), aggregates, GROUPING__ID */
    for (int g = 0, k = 0; g < nk; g++) {
        bool grouped = !(set & ((uint64_t)1 << (nk - 1 - g)));
        BoundExpr *e = grouped ? sql_bx_new_type(c, BX_COL, n->cols[g].type, (AstPos){0, 0})
                               : sql_bx_new_type(c, BX_CONST, n->cols[g].type, (AstPos){0, 0});
        if (!e)
            return comb_err_nomem(err);
        if (grouped)
            e->col = k++;
        else
            e->is_null = true;
        exprs[g] = e;
    }
    for (int a = 0; a < n->n_aggs; a++) {
        if (!(exprs[nk + a] = sql_bx_new_type(c, BX_COL, n->cols[nk + a].type, (AstPos){0, 0})))
            return comb_err_nomem(err);
        exprs[nk + a]->col = n_grouped + a;
    }
    if (!(exprs[n->n_cols - 1] = sql_bx_new(c, BX_CONST, COMB_T_BIGINT, (AstPos){0, 0})))
        return comb_err_nomem(err);
    exprs[n->n_cols - 1]->ival = (int64_t)set;
    return sql_op_project(c, in, n->n_cols, exprs, col_names(c, n), col_types(c, n),
                          out, err);
}

/* Lowering parallel copies: aggregations and sorts inside them (in a
 * join's build side, which the copies never run) get no copies of their
 * own, so that nesting does not multiply the plan. */
static _Thread_local int lowering_copies;

/* Copies n of node (of an aggregation or a sort, with its input). */
typedef int (*LowerCopy)(SqlStmtCtx *c, const void *arg, SqlOp **out,
                         CombErr *err);
static int lower_copies(SqlStmtCtx *c, int n, LowerCopy f, const void *arg,
                        SqlOp ***out, CombErr *err)
{
    SqlOp **ops = comb_arena_alloc(c->arena, (size_t)n * sizeof *ops);
    int rc = ops ? COMB_OK : comb_err_nomem(err);
    lowering_copies++;
    for (int k = 0; k < n && !rc; k++)
        rc = f(c, arg, &ops[k], err);
    lowering_copies--;
    *out = ops;
    return rc;
}

/* How many copies of an operator over input in to build: threads - 1
 * when par.h can run them, else 0. */
static int copies_wanted(SqlStmtCtx *c, const SqlOp *in, int *n, CombErr *err)
{
    int threads, rc = sql_exec_threads(c, &threads, err);
    *n = !rc && !lowering_copies && threads > 1 && sql_op_par_safe(in) ? threads - 1 : 0;
    return rc;
}

static int lower_node_copy(SqlStmtCtx *c, const void *n, SqlOp **out,
                           CombErr *err)
{
    return lower_node(c, n, out, err);
}

int sql_lower_copies(SqlStmtCtx *c, const LpNode *n, const SqlOp *op,
                     SqlOp ***copies, int *n_copies, CombErr *err)
{
    int rc = copies_wanted(c, op, n_copies, err);
    if (rc || !*n_copies)
        return rc;
    return lower_copies(c, *n_copies, lower_node_copy, n, copies, err);
}

/* One aggregation over its input, without grouping sets. */
static int lower_one_aggregate(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                               CombErr *err)
{
    BoundExpr **keys;
    SqlAgg **aggs;
    SqlOp *in;
    PosMap m;
    int rc;
    if (!(keys = comb_arena_alloc(c->arena, (size_t)(n->n_keys + 1) * sizeof *keys)))
        return comb_err_nomem(err);
    if ((rc = lower_node(c, n->input, &in, err)) ||
        (rc = map_init(c, &m, n->input, NULL, err)) ||
        (rc = lower_aggs(c, n, &m, &aggs, err)))
        return rc;
    for (int g = 0; g < n->n_keys; g++)
        if ((rc = xlate(c, n->keys[g], &m, &keys[g], err)))
            return rc;
    return sql_op_aggregate(c, in, n->n_keys, keys, n->n_aggs, aggs,
                            col_names(c, n), out, err);
}

static int lower_aggregate_copy(SqlStmtCtx *c, const void *n, SqlOp **out,
                                CombErr *err)
{
    return lower_one_aggregate(c, n, out, err);
}

static int lower_aggregate(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                           CombErr *err)
{
    SqlOp **ops;
    int rc, copies;
    if (n->n_sets) {
        if (!(ops = comb_arena_alloc(c->arena, (size_t)n->n_sets * sizeof *ops)))
            return comb_err_nomem(err);
        for (int s = 0; s < n->n_sets; s++)
            if ((rc = lower_grouping_set(c, n, n->sets[s], &ops[s], err)))
                return rc;
        return sql_op_union_all(c, ops, n->n_sets, out, err);
    }
    if ((rc = lower_one_aggregate(c, n, out, err)))
        return rc;
    /* only where merging partial states gives the serial answer to the
     * last bit (agg.h), so that an answer does not change from run to run */
    for (int a = 0; a < n->n_aggs; a++)
        if (!n->aggs[a].merge_exact)
            return COMB_OK;
    if ((rc = copies_wanted(c, (*out)->input, &copies, err)) || !copies ||
        (rc = lower_copies(c, copies, lower_aggregate_copy, n, &ops, err)))
        return rc;
    return sql_op_aggregate_peers(*out, ops, copies, err);
}

static int lower_lateral(SqlStmtCtx *c, const LpNode *n, SqlOp *in,
                         SqlOp **out, CombErr *err)
{
    const SqlUdtf *src = n->lateral->u;
    SqlUdtf *u = comb_arena_alloc(c->arena, sizeof *u);
    PosMap m;
    int rc;
    if (!u || (rc = map_init(c, &m, n->input, NULL, err)))
        return u ? rc : comb_err_nomem(err);
    *u = *src;
    if (!(u->args = comb_arena_alloc(c->arena, (size_t)(src->n_args + 1) * sizeof *u->args)))
        return comb_err_nomem(err);
    for (int i = 0; i < src->n_args; i++)
        if ((rc = xlate(c, src->args[i], &m, &u->args[i], err)))
            return rc;
    return sql_op_lateral(c, in, u, n->lateral->outer, true, n->lateral->names,
                          out, err);
}

static int lower_setop(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                       CombErr *err)
{
    SqlOp *sides[2];
    int rc;
    if ((rc = lower_node(c, n->input, &sides[0], err)) ||
        (rc = lower_node(c, n->right, &sides[1], err)))
        return rc;
    if (n->setop == LP_UNION && n->all)
        rc = sql_op_union_all(c, sides, 2, out, err);
    else
        rc = sql_op_setop(c, n->setop, n->all, sides[0], sides[1], out, err);
    if (!rc)
        (*out)->names = col_names(c, n);
    return rc;
}

typedef struct SortCopy {
    const LpNode *n, *src;
    int n_emit;
} SortCopy;

static int lower_sort_copy(SqlStmtCtx *c, const void *arg, SqlOp **out,
                           CombErr *err)
{
    const SortCopy *a = arg;
    SqlOp *in;
    int rc = lower_node(c, a->src, &in, err);
    return rc ? rc : lower_sort(c, a->n, a->n_emit, in, out, err);
}

/* A sort over in (lowered from src), with one copy per thread over
 * copies of in when par.h can run them. */
static int lower_sort_copies(SqlStmtCtx *c, const LpNode *n, int n_emit,
                             const LpNode *src, SqlOp *in, SqlOp **out,
                             CombErr *err)
{
    SortCopy arg = {n, src, n_emit};
    SqlOp **ops;
    int copies, rc;
    if ((rc = lower_sort(c, n, n_emit, in, out, err)) ||
        (rc = copies_wanted(c, in, &copies, err)) || !copies)
        return rc;
    if ((rc = lower_copies(c, copies, lower_sort_copy, &arg, &ops, err)))
        return rc;
    return sql_op_sort_peers(*out, ops, copies, err);
}

static int lower_unary(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                       CombErr *err)
{
    SqlOp *in;
    bool emit = n->kind == LP_PROJECT && keeps_sort_prefix(n);
    const LpNode *below = emit ? n->input : n;
    const LpNode *src = n->kind == LP_PROJECT && !emit ? project_source(n) : below->input;
    int rc = lower_node(c, src, &in, err);
    if (rc)
        return rc;
    if (emit)
        return lower_sort_copies(c, below, n->n_cols, src, in, out, err);
    switch (n->kind) {
    case LP_FILTER:
        return lower_filter(c, n, in, out, err);
    case LP_PROJECT:
        return lower_project(c, n, in, out, err);
    case LP_SORT:
        return lower_sort_copies(c, n, n->n_cols, src, in, out, err);
    case LP_LIMIT:
        return sql_op_offset_limit(c, in, n->offset, n->limit, out, err);
    case LP_LATERAL:
        return lower_lateral(c, n, in, out, err);
    default:
        return COMB_INTERNAL(err, "not a unary plan node");
    }
}

/* A reference to a shared WITH query: a reader of its one result, the
 * query lowered at the first reference. */
static int lower_cte(SqlStmtCtx *c, const LpNode *n, SqlOp **out, CombErr *err)
{
    struct LpCte *w = n->cte;
    SqlOp *plan;
    int rc;
    if (!w->store && ((rc = lower_node(c, w->plan, &plan, err)) ||
                      (rc = sql_cte_store(c, plan, &w->store, err))))
        return rc;
    return sql_op_cte_read(c, w->store, w->name, out, err);
}

static int lower_node(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                      CombErr *err)
{
    int rc;
    switch (n->kind) {
    case LP_GET:
        rc = lower_get(c, n, out, err);
        break;
    case LP_VALUES:
        rc = lower_values(c, n, out, err);
        break;
    case LP_AGGREGATE:
        rc = lower_aggregate(c, n, out, err);
        break;
    case LP_JOIN:
        rc = sql_lower_join(c, n, out, err);
        break;
    case LP_SETOP:
        rc = lower_setop(c, n, out, err);
        break;
    case LP_WINDOW:
        rc = sql_lower_window(c, n, out, err);
        break;
    case LP_CTE:
        rc = lower_cte(c, n, out, err);
        break;
    default:
        rc = lower_unary(c, n, out, err);
        break;
    }
    if (!rc && n->label)
        (*out)->label = n->label;
    return rc;
}

int sql_lp_lower(SqlStmtCtx *c, const LpNode *root, SqlOp **out, CombErr *err)
{
    return lower_node(c, root, out, err);
}

/* ------------------------------------------------------------- joins */

/* The positions of a join's output columns among left ++ right. */
int sql_lower_expr(SqlStmtCtx *c, const BoundExpr *e, const LpNode *a,
                   const LpNode *b, BoundExpr **out, CombErr *err)
{
    PosMap m;
    int rc = map_init(c, &m, a, b, err);
    return rc ? rc : xlate(c, e, &m, out, err);
}
