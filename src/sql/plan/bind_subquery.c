/*
 * bind_subquery.c - subqueries in WHERE (bind_int.h).  Each becomes a
 * join of the plan so far (b->top) with the subquery's plan:
 *
 *   EXISTS (q)          MARK join; the expression is its mark
 *   x [NOT] IN (q)      MARK join with in_left x, in_right q's column (the
 *                       mark is SQL's three-valued IN, so NOT IN over a
 *                       NULL gives no row, as in Hive)
 *   (q) scalar          SINGLE join; the expression is q's column (more
 *                       than one row for a row: Hive's error)
 *
 * and the rules turn a MARK join whose mark is a WHERE conjunct into a
 * SEMI or ANTI join.  A correlated subquery (q reads the outer query's
 * columns) is decorrelated here: the conjuncts of q's WHERE that read
 * outer columns are pulled up through q's PROJECT, SORT and FILTER nodes
 * into the join's condition (the PROJECTs pass on the inner columns they
 * read); through an aggregation, `inner = outer` becomes a GROUP BY key
 * of it and the condition reads that key (Hive's decorrelation of
 * correlated scalar aggregates).  A reference left elsewhere is refused
 * when the plan is lowered.
 *
 * In an aggregate query's items and HAVING the joins go over the
 * AGGREGATE (its rows are what the subquery is asked about), and the
 * subquery correlates with the GROUP BY key columns only: a
 * non-grouped column is not a name there.
 */
#include "sql/plan/bind_int.h"

#include <string.h>

typedef struct Inner {
    SqlStmtCtx *c;
    int n_ids, cap_ids;
    int *ids;                /* every id the subquery's plan makes */
    LpExprs pulled;
} Inner;

static int add_id(Inner *in, int id, CombErr *err)
{
    if (in->n_ids == in->cap_ids) {
        int cap = in->cap_ids ? 2 * in->cap_ids : 64;
        int *g = comb_arena_alloc(in->c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (in->n_ids)
            memcpy(g, in->ids, (size_t)in->n_ids * sizeof *g);
        in->ids = g;
        in->cap_ids = cap;
    }
    in->ids[in->n_ids++] = id;
    return COMB_OK;
}

static int collect_ids(Inner *in, const LpNode *n, CombErr *err)
{
    int rc;
    if (!n)
        return COMB_OK;
    for (int j = 0; j < n->n_cols; j++)
        if ((rc = add_id(in, n->cols[j].id, err)))
            return rc;
    if (n->kind == LP_JOIN && n->join == LP_JOIN_MARK && (rc = add_id(in, n->mark_col, err)))
        return rc;
    if ((rc = collect_ids(in, n->input, err)))
        return rc;
    return collect_ids(in, n->right, err);
}

static bool is_inner_id(const Inner *in, int id)
{
    for (int k = 0; k < in->n_ids; k++)
        if (in->ids[k] == id)
            return true;
    return false;
}

typedef struct ReadCtx {
    const Inner *in;
    int inner, outer;
} ReadCtx;

static void count_read(void *ctx, int id)
{
    ReadCtx *r = ctx;
    if (is_inner_id(r->in, id))
        r->inner++;
    else
        r->outer++;
}

static bool reads_outer(const Inner *in, const BoundExpr *e)
{
    ReadCtx r = {in, 0, 0};
    sql_lp_expr_cols(e, count_read, &r);
    return r.outer > 0;
}

static bool reads_inner(const Inner *in, const BoundExpr *e)
{
    ReadCtx r = {in, 0, 0};
    sql_lp_expr_cols(e, count_read, &r);
    return r.inner > 0;
}

/* A PROJECT passes on input column id (same id) when it does not yet. */
static int pass_on(SqlStmtCtx *c, LpNode *p, int id, CombErr *err)
{
    const LpCol *col;
    LpCol *cols;
    BoundExpr **exprs;
    if (sql_lp_find_col(p, id) || !(col = sql_lp_find_col(p->input, id)))
        return COMB_OK;
    cols = comb_arena_alloc(c->arena, (size_t)(p->n_cols + 2) * sizeof *cols);
    exprs = comb_arena_alloc(c->arena, (size_t)(p->n_cols + 2) * sizeof *exprs);
    if (!cols || !exprs)
        return comb_err_nomem(err);
    memcpy(cols, p->cols, (size_t)p->n_cols * sizeof *cols);
    memcpy(exprs, p->exprs, (size_t)p->n_cols * sizeof *exprs);
    cols[p->n_cols] = *col;
    if (!(exprs[p->n_cols] = sql_lp_colref(c, col, (AstPos){0, 0})))
        return comb_err_nomem(err);
    p->cols = cols;
    p->exprs = exprs;
    p->n_cols++;
    return COMB_OK;
}

typedef struct PassCtx {
    SqlStmtCtx *c;
    LpNode *p;
    int rc;
    CombErr *err;
} PassCtx;

static void pass_one(void *ctx, int id)
{
    PassCtx *x = ctx;
    if (!x->rc)
        x->rc = pass_on(x->c, x->p, id, x->err);
}

/* An aggregation under the pulled conjuncts: each `inner = outer` makes
 * inner a new key; false when one is not such an equality. */
static int regroup(Inner *in, LpNode *a, bool *ok, CombErr *err)
{
    SqlStmtCtx *c = in->c;
    int extra = in->pulled.n, nk = a->n_keys;
    BoundExpr **keys = comb_arena_alloc(c->arena, (size_t)(nk + extra + 1) * sizeof *keys);
    LpCol *cols = comb_arena_alloc(c->arena, (size_t)(a->n_cols + extra + 1) * sizeof *cols);
    *ok = false;
    if (!keys || !cols)
        return comb_err_nomem(err);
    if (a->n_sets)
        return COMB_OK;
    memcpy(keys, a->keys, (size_t)nk * sizeof *keys);
    memcpy(cols, a->cols, (size_t)nk * sizeof *cols);
    for (int i = 0; i < extra; i++) {
        BoundExpr *e = in->pulled.e[i], *inner, *outer;
        if (e->kind != BX_BINARY || e->op != AST_OP_EQ)
            return COMB_OK;
        inner = reads_outer(in, e->a) ? e->b : e->a;
        outer = inner == e->a ? e->b : e->a;
        if (reads_outer(in, inner) || reads_inner(in, outer))
            return COMB_OK;
        keys[nk + i] = inner;
        cols[nk + i] = (LpCol){sql_lp_col_id(c), "key", sql_bx_type(c, inner)};
        if (!cols[nk + i].type || !(e->a = sql_lp_colref(c, &cols[nk + i], e->pos)))
            return comb_err_nomem(err);
        e->b = outer;
    }
    memcpy(cols + nk + extra, a->cols + nk, (size_t)(a->n_cols - nk) * sizeof *cols);
    a->keys = keys;
    a->n_keys = nk + extra;
    a->cols = cols;
    a->n_cols += extra;
    for (int i = 0; i < extra; i++)
        if (add_id(in, cols[nk + i].id, err))
            return comb_err_nomem(err);
    *ok = true;
    return COMB_OK;
}

/* Pull the outer-reading conjuncts of the FILTERs under *np into
 * in->pulled, keeping the inner columns they read visible at *np. */
static int pull(Inner *in, LpNode **np, CombErr *err)
{
    SqlStmtCtx *c = in->c;
    LpNode *n = *np;
    int rc;
    switch (n->kind) {
    case LP_FILTER: {
        BoundExpr *rest = NULL;
        for (int i = 0; i < sql_bx_conjuncts(n->pred); i++) {
            BoundExpr *e = sql_bx_conjunct(n->pred, i);
            if (reads_outer(in, e))
                rc = sql_lp_exprs_add(c, &in->pulled, e, err);
            else
                rc = (rest = sql_bx_and(c, rest, e)) ? COMB_OK : comb_err_nomem(err);
            if (rc)
                return rc;
        }
        if ((rc = pull(in, &n->input, err)))
            return rc;
        if (!rest) {
            *np = n->input;
            return COMB_OK;
        }
        n->pred = rest;
        n->cols = n->input->cols;
        n->n_cols = n->input->n_cols;
        return COMB_OK;
    }
    case LP_SORT:
        if ((rc = pull(in, &n->input, err)))
            return rc;
        n->cols = n->input->cols;
        n->n_cols = n->input->n_cols;
        return COMB_OK;
    case LP_PROJECT: {
        PassCtx x = {c, n, COMB_OK, err};
        if ((rc = pull(in, &n->input, err)))
            return rc;
        for (int i = 0; i < in->pulled.n && !x.rc; i++)
            sql_lp_expr_cols(in->pulled.e[i], pass_one, &x);
        return x.rc;
    }
    case LP_AGGREGATE: {
        bool ok;
        LpExprs outer_part = in->pulled;
        /* only the conjuncts from below are regrouped */
        in->pulled.n = 0;
        in->pulled.cap = 0;
        in->pulled.e = NULL;
        if ((rc = pull(in, &n->input, err)))
            return rc;
        if (in->pulled.n && (rc = regroup(in, n, &ok, err)))
            return rc;
        for (int i = 0; i < in->pulled.n; i++)
            if ((rc = sql_lp_exprs_add(c, &outer_part, in->pulled.e[i], err)))
                return rc;
        in->pulled = outer_part;
        return COMB_OK;
    }
    default:
        return COMB_OK;
    }
}

/* A copy of the nodes from n down to a global aggregation (no keys),
 * which reads no rows instead of its input: the row a correlated scalar
 * aggregate gives a row without matches (count 0).  NULL when there is
 * no such aggregation on the way (or out of memory: then no default). */
static LpNode *empty_group_plan(SqlStmtCtx *c, const LpNode *n)
{
    LpNode *copy;
    if (n->kind != LP_PROJECT && n->kind != LP_SORT && n->kind != LP_FILTER &&
        n->kind != LP_AGGREGATE)
        return NULL;
    if (n->kind == LP_AGGREGATE && (n->n_keys || n->n_sets))
        return NULL;
    if (!(copy = comb_arena_alloc(c->arena, sizeof *copy)))
        return NULL;
    *copy = *n;
    copy->label = NULL;
    if (n->kind == LP_AGGREGATE) {
        LpNode *none = sql_lp_node(c, LP_VALUES, n->input->n_cols);
        if (!none)
            return NULL;
        memcpy(none->cols, n->input->cols, (size_t)n->input->n_cols * sizeof *none->cols);
        none->n_rows = 0;
        copy->input = none;
        return copy;
    }
    return (copy->input = empty_group_plan(c, n->input)) ? copy : NULL;
}

/* The subquery's plan, its correlated conjuncts pulled into *cond. */
/* Does plan give exactly one row (a global aggregation under PROJECTs and
 * SORTs, no HAVING)? */
static bool one_row(const LpNode *n)
{
    while (n->kind == LP_PROJECT || n->kind == LP_SORT)
        n = n->input;
    return n->kind == LP_AGGREGATE && !n->n_keys && !n->n_sets;
}

static int bind_inner(BqBlock *b, const AstSelect *q, LpNode **plan,
                      int *n_visible, BoundExpr **cond, LpNode **empty,
                      bool *single, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    bool correlated = false;
    Inner in = {c, 0, 0, NULL, {0}};
    int rc = sql_bq_query(c, q, b->ctes, b->in_agg ? &b->groups : &b->from,
                          &correlated, plan, err);
    *cond = NULL;
    *empty = NULL;
    if (rc)
        return rc;
    /* columns the decorrelation passes on come after the select list */
    *n_visible = (*plan)->n_cols;
    *single = one_row(*plan);
    if (!correlated)
        return rc;
    *empty = empty_group_plan(c, *plan);
    if ((rc = collect_ids(&in, *plan, err)) || (rc = pull(&in, plan, err)))
        return rc;
    for (int i = 0; i < in.pulled.n; i++)
        if (!(*cond = sql_bx_and(c, *cond, in.pulled.e[i])))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int one_column(const AstExpr *e, int n_visible, CombErr *err)
{
    if (n_visible != 1)
        return sql_err_at(err, COMB_ESEMANTIC, 10249, e->pos,
                          "Unsupported SubQuery Expression '%s': SubQuery can "
                          "contain only 1 item in Select List.",
                          e->text ? e->text : "");
    return COMB_OK;
}

/* x of x [NOT] IN (q), in the scope the IN is in. */
static int left_operand(BqBlock *b, const AstExpr *e, BoundExpr **x, CombErr *err)
{
    return sql_bind_expr(b->c, b->in_agg ? &b->agg_sc : &b->sc, e->left, x, err);
}

/* x [NOT] IN (q): x and q's column in the type they compare in. */
static int in_keys(BqBlock *b, const AstExpr *e, const LpNode *plan,
                   LpNode *join, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    BoundExpr *x, *y = sql_lp_colref(c, &plan->cols[0], e->pos);
    const CombType *to;
    int rc;
    if (!y)
        return comb_err_nomem(err);
    if ((rc = left_operand(b, e, &x, err)))
        return rc;
    if (!sql_compare_type(c, x, y, &to))
        return sql_err_at(err, COMB_ESEMANTIC, 10014, e->pos,
                          "Wrong arguments for IN: %s and %s cannot be compared",
                          sql_bx_type_text(c, x), sql_bx_type_text(c, y));
    if (to && ((rc = sql_bind_cast(c, x, to, true, &x, err)) ||
               (rc = sql_bind_cast(c, y, to, true, &y, err))))
        return rc;
    join->in_left = x;
    join->in_right = y;
    return COMB_OK;
}

/* The mark of a MARK join of b->top with plan, now the plan so far. */
static int mark_join(BqBlock *b, const AstExpr *e, LpNode *plan,
                     BoundExpr *cond, BoundExpr **out, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    LpNode *join;
    int rc;
    if ((rc = sql_lp_join(c, LP_JOIN_MARK, b->top, plan, cond, &join, err)) ||
        (e->kind == AST_IN && (rc = in_keys(b, e, plan, join, err))))
        return rc;
    b->top = join;
    if (!(*out = sql_lp_colref(c, &join->cols[join->n_cols - 1], e->pos)))
        return comb_err_nomem(err);
    if (e->kind == AST_IN && e->negated) {
        BoundExpr *not = sql_bx_new(c, BX_UNARY, COMB_T_BOOLEAN, e->pos);
        if (!not)
            return comb_err_nomem(err);
        not->op = AST_OP_NOT;
        not->a = *out;
        *out = not;
    }
    return COMB_OK;
}

/* A boolean constant. */
static int bool_const(SqlStmtCtx *c, bool v, AstPos pos, BoundExpr **out,
                      CombErr *err)
{
    if (!(*out = sql_bx_new(c, BX_CONST, COMB_T_BOOLEAN, pos)))
        return comb_err_nomem(err);
    (*out)->ival = v;
    return COMB_OK;
}

/* x [NOT] IN (a query of one row) is x = v [negated], v its value: the
 * one row's NULL makes it NULL either way. */
static int in_one_row(BqBlock *b, const AstExpr *e, BoundExpr *v,
                      BoundExpr **out, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    BoundExpr *x, *eq;
    const CombType *to;
    int rc;
    if ((rc = left_operand(b, e, &x, err)))
        return rc;
    if (!sql_compare_type(c, x, v, &to))
        return sql_err_at(err, COMB_ESEMANTIC, 10014, e->pos,
                          "Wrong arguments for IN: %s and %s cannot be compared",
                          sql_bx_type_text(c, x), sql_bx_type_text(c, v));
    if (to && ((rc = sql_bind_cast(c, x, to, true, &x, err)) ||
               (rc = sql_bind_cast(c, v, to, true, &v, err))))
        return rc;
    if (!(eq = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos)))
        return comb_err_nomem(err);
    eq->op = AST_OP_EQ;
    eq->a = x;
    eq->b = v;
    *out = eq;
    if (e->negated) {
        if (!(*out = sql_bx_new(c, BX_UNARY, COMB_T_BOOLEAN, e->pos)))
            return comb_err_nomem(err);
        (*out)->op = AST_OP_NOT;
        (*out)->a = eq;
    }
    return COMB_OK;
}

int sql_bq_subquery(BqBlock *b, const AstExpr *e, BoundExpr **out,
                    CombErr *err)
{
    SqlStmtCtx *c = b->c;
    LpNode *plan, *join, *left = b->top;
    BoundExpr *cond;
    LpNode *empty;
    bool single;
    int n_visible, rc;
    if ((rc = bind_inner(b, e->query, &plan, &n_visible, &cond, &empty, &single, err)))
        return rc;
    /* a global aggregation gives a row even over no rows */
    if (e->kind == AST_EXISTS && single)
        return bool_const(c, true, e->pos, out, err);
    if (e->kind == AST_EXISTS)
        return mark_join(b, e, plan, cond, out, err);
    if ((rc = one_column(e, n_visible, err)))
        return rc;
    if (e->kind == AST_IN && !single)
        return mark_join(b, e, plan, cond, out, err);
    /* a scalar subquery: its one row's value, NULL without one */
    if ((rc = sql_lp_join(c, LP_JOIN_SINGLE, left, plan, cond, &join, err)))
        return rc;
    join->single_default = empty;
    join->single_pos = e->pos;
    b->top = join;
    if (!(*out = sql_lp_colref(c, &join->cols[left->n_cols], e->pos)))
        return comb_err_nomem(err);
    return e->kind == AST_IN ? in_one_row(b, e, *out, out, err) : COMB_OK;
}

/* FROM's relations with only their columns that are GROUP BY keys, each
 * under the key's id: the names an aggregate query's subqueries see. */
static int group_scope(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    b->groups = (BqScope){0, 0, NULL, b->from.outer, b->from.correlated};
    for (int r = 0; r < b->from.n_rels; r++) {
        const BqRel *rel = &b->from.rels[r];
        BqRel g = {rel->alias, 0, NULL, -1};
        int rc;
        if (!(g.cols = comb_arena_alloc(c->arena, (size_t)(rel->n_cols + 1) * sizeof *g.cols)))
            return comb_err_nomem(err);
        for (int j = 0; j < rel->n_cols; j++)
            for (int k = 0; k < b->n_keys; k++)
                if (b->keys[k]->kind == BX_COL && b->keys[k]->col == rel->cols[j].id) {
                    g.cols[g.n_cols] = rel->cols[j];
                    g.cols[g.n_cols++].id = b->key_ids[k];
                    break;
                }
        if ((rc = sql_bq_add_rel(c, &b->groups, &g, err)))
            return rc;
    }
    return COMB_OK;
}

int sql_bq_agg_subquery(BqBlock *b, const AstExpr *e, BoundExpr **out,
                        CombErr *err)
{
    LpNode *from = b->top;
    int rc;
    if (!b->agg_stub) {
        if (!(b->agg_stub = sql_lp_node(b->c, LP_VALUES, 0)))
            return comb_err_nomem(err);
        if ((rc = group_scope(b, err)))
            return rc;
        b->agg_joins = b->agg_stub;
    }
    b->top = b->agg_joins;
    b->in_agg = true;
    rc = sql_bq_subquery(b, e, out, err);
    b->in_agg = false;
    b->agg_joins = b->top;
    b->top = from;
    return rc;
}

/* The joins from j down over the stub, again over agg: each keeps its own
 * columns after its new left input's. */
static int reroot(SqlStmtCtx *c, LpNode *j, const LpNode *stub, LpNode *agg,
                  CombErr *err)
{
    int own = j->n_cols - j->input->n_cols, rc;
    LpCol *cols;
    if (j->input == stub)
        j->input = agg;
    else if ((rc = reroot(c, j->input, stub, agg, err)))
        return rc;
    if (!(cols = comb_arena_alloc(c->arena, (size_t)(j->input->n_cols + own + 1) * sizeof *cols)))
        return comb_err_nomem(err);
    memcpy(cols, j->input->cols, (size_t)j->input->n_cols * sizeof *cols);
    memcpy(cols + j->input->n_cols, j->cols + j->n_cols - own, (size_t)own * sizeof *cols);
    j->cols = cols;
    j->n_cols = j->input->n_cols + own;
    return COMB_OK;
}

int sql_bq_agg_subqueries_place(BqBlock *b, CombErr *err)
{
    int rc;
    if (!b->agg_stub || b->agg_joins == b->agg_stub)
        return COMB_OK;
    if ((rc = reroot(b->c, b->agg_joins, b->agg_stub, b->top, err)))
        return rc;
    b->top = b->agg_joins;
    return COMB_OK;
}
