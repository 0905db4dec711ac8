/*
 * restrict.c - an aggregation joined by one of its GROUP BY keys reads
 * only the key values the other side can match (logical.h,
 * sql_lp_restrict_keys).
 *
 * A decorrelated scalar subquery (TPC-H Q17's `(SELECT 0.2 *
 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)`) is an
 * aggregation over the whole inner table grouped by the correlation key,
 * joined with the outer rows by that key: 6M lineitem rows aggregated
 * into 200,000 groups for the 200 parts the outer query keeps.  When the
 * other side's value of the key is a column of a table T whose scan
 * filters by predicates P (pushed there by the push-down rule), every
 * value that can match is in (SELECT k FROM T WHERE P): the aggregation's
 * input joins that, a LEFT SEMI join on the key, before it groups.  The
 * groups kept are whole (a key's rows all pass or all go), the groups
 * that go had no partner (their key is not among the other side's, or is
 * NULL, which matches nothing), so the join gives the same rows.
 *
 * The key may reach the join through PROJECTs (as a column), FILTERs
 * (HAVING) and SORTs over the aggregation, not through a LIMIT (which
 * groups are kept would change); the other side's column through nodes
 * that pass a row's value on unchanged (filters, joins of any kind: a
 * NULL they supply matches nothing, projections of the column,
 * aggregation keys, windows, lateral views) down to its scan, or to the
 * filtered scan of a column an INNER or SEMI join on the way makes equal
 * to it (TPC-H Q20: ps_partkey, kept by the SEMI join of its IN over
 * part's p_name LIKE 'forest%', has only p_partkey's values there; the
 * equality of two columns of one type, so that the restriction's
 * equality means the same).  The join
 * is one whose unmatched rows of the aggregation's side give nothing:
 * the aggregation on the right of an INNER, LEFT, SEMI, ANTI, MARK or
 * SINGLE join, on the left of an INNER, RIGHT or SEMI one.  A scan
 * without a filter restricts nothing and is left alone, as is a filter
 * that calls a volatile function (a second scan would draw other values)
 * or reads ROW__ID.
 */
#include "sql/plan/logical.h"

static LpNode *source_get(LpNode *n, int id, int *gcol);

/* The partner of column id in `a = b`, two columns of one type: the
 * other one; -1 when the equality is not that or does not read id. */
static int equal_col(const BoundExpr *a, const BoundExpr *b, int id)
{
    if (a->kind != BX_COL || b->kind != BX_COL || a->type != b->type ||
        (a->ctype && b->ctype && !comb_type_equal(a->ctype, b->ctype)))
        return -1;
    return a->col == id ? b->col : b->col == id ? a->col : -1;
}

/* The column of the other side that an INNER or SEMI join makes equal to
 * its column id, by a conjunct `id = p` of its condition or (SEMI) as
 * IN's keys, columns of one type, so every row it passes on has id among
 * p's values; -1 none. */
static int join_partner(const LpNode *j, int id)
{
    const LpNode *other = sql_lp_find_col(j->input, id) ? j->right : j->input;
    int p = -1;
    if (j->join != LP_JOIN_INNER && j->join != LP_JOIN_SEMI)
        return -1;
    if (j->join == LP_JOIN_SEMI && j->in_left)
        p = equal_col(j->in_left, j->in_right, id);
    for (int i = 0; p < 0 && j->cond && i < sql_bx_conjuncts(j->cond); i++) {
        const BoundExpr *e = sql_bx_conjunct(j->cond, i);
        if (e->kind == BX_BINARY && e->op == AST_OP_EQ)
            p = equal_col(e->a, e->b, id);
    }
    return p >= 0 && sql_lp_find_col(other, p) ? p : -1;
}

/* A filtered scan that gives the values of join j's column id through
 * the column the join makes equal to it (TPC-H Q20: partsupp's
 * ps_partkey, kept by a SEMI join with part's p_name LIKE 'forest%',
 * takes only p_partkey's values of the filtered part scan); NULL none. */
static LpNode *partner_get(LpNode *j, int id, int *gcol)
{
    int p = join_partner(j, id), pcol;
    LpNode *g;
    if (p < 0)
        return NULL;
    g = source_get(sql_lp_find_col(j->input, p) ? j->input : j->right, p, &pcol);
    if (!g || !g->filter)
        return NULL;
    *gcol = pcol;
    return g;
}

/* The column of the GET under n from which n's column id takes its
 * values (through nodes passing a row's value on unchanged) in *gcol,
 * or of a filtered GET whose column an INNER or SEMI join on the way
 * makes equal to it; NULL when it is made otherwise. */
static LpNode *source_get(LpNode *n, int id, int *gcol)
{
    for (;;) {
        LpNode *g;
        switch (n->kind) {
        case LP_GET:
            *gcol = id;
            return sql_lp_find_col(n, id) ? n : NULL;
        case LP_FILTER: case LP_SORT: case LP_LIMIT: case LP_WINDOW: case LP_LATERAL:
            if (!sql_lp_find_col(n->input, id))
                return NULL;
            n = n->input;
            break;
        case LP_JOIN:
            if ((g = partner_get(n, id, gcol)))
                return g;
            /* a SINGLE join's default row is made by no scan */
            if (!sql_lp_find_col(n->input, id) &&
                (n->join == LP_JOIN_SEMI || n->join == LP_JOIN_ANTI ||
                 n->join == LP_JOIN_MARK || n->single_default ||
                 !sql_lp_find_col(n->right, id)))
                return NULL;
            n = sql_lp_find_col(n->input, id) ? n->input : n->right;
            break;
        case LP_PROJECT:
        case LP_AGGREGATE: {
            int j = 0, end = n->kind == LP_PROJECT ? n->n_cols : n->n_keys;
            const BoundExpr *e;
            while (j < end && n->cols[j].id != id)
                j++;
            if (j == end)
                return NULL;
            e = n->kind == LP_PROJECT ? n->exprs[j] : n->keys[j];
            if (e->kind != BX_COL)
                return NULL;
            id = e->col;
            n = n->input;
            break;
        }
        default:
            return NULL;
        }
    }
}

/* The aggregation (no grouping sets) under n whose key *key gives n's
 * column id, through PROJECTs of the column, FILTERs and SORTs; NULL
 * when there is none. */
static LpNode *keyed_agg(LpNode *n, int id, int *key)
{
    for (;;) {
        int j = 0;
        switch (n->kind) {
        case LP_FILTER: case LP_SORT:
            n = n->input;
            break;
        case LP_PROJECT:
            while (j < n->n_cols && n->cols[j].id != id)
                j++;
            if (j == n->n_cols || n->exprs[j]->kind != BX_COL)
                return NULL;
            id = n->exprs[j]->col;
            n = n->input;
            break;
        case LP_AGGREGATE:
            while (j < n->n_keys && n->cols[j].id != id)
                j++;
            if (j == n->n_keys || n->n_sets)
                return NULL;
            *key = j;
            return n;
        default:
            return NULL;
        }
    }
}

/* A second scan of g's table with g's filter over its own column ids;
 * *col_id is the copy's column for g's column *col_id.  NULL in *out
 * when g's filter may not be scanned twice. */
static int filtered_copy(SqlStmtCtx *c, const LpNode *g, int *col_id,
                         LpNode **out, CombErr *err)
{
    int *ids = comb_arena_alloc(c->arena, (size_t)g->n_cols * sizeof *ids);
    BoundExpr **with = comb_arena_alloc(c->arena, (size_t)g->n_cols * sizeof *with);
    int rowid = g->cols[g->table->n_cols].id, rc;
    LpNode *copy;
    *out = NULL;
    if (!ids || !with)
        return comb_err_nomem(err);
    if (!g->filter || sql_lp_expr_volatile(g->filter) || sql_lp_expr_reads(g->filter, rowid))
        return COMB_OK;
    if ((rc = sql_lp_get(c, g->table, g->alias, &copy, err)))
        return rc;
    for (int j = 0; j < g->n_cols; j++) {
        ids[j] = g->cols[j].id;
        if (!(with[j] = sql_lp_colref(c, &copy->cols[j], g->filter->pos)))
            return comb_err_nomem(err);
        if (ids[j] == *col_id)
            *col_id = copy->cols[j].id;
    }
    if (!(copy->filter = sql_lp_expr_subst(c, g->filter, ids, with, g->n_cols)))
        return comb_err_nomem(err);
    *out = copy;
    return COMB_OK;
}

/* The aggregation on side agg_side of join j (other: the other side)
 * reads only the keys an equality of j's condition can match. */
static int restrict_side(SqlStmtCtx *c, LpNode *j, LpNode *agg_side,
                         LpNode *other, CombErr *err)
{
    for (int i = 0; i < sql_bx_conjuncts(j->cond); i++) {
        BoundExpr *e = sql_bx_conjunct(j->cond, i), *mine, *theirs, *key, *eq;
        LpNode *agg, *g, *copy, *semi;
        int k, mcol, col, gcol, rc;
        if (e->kind != BX_BINARY || e->op != AST_OP_EQ)
            continue;
        mine = sql_lp_expr_within(e->a, agg_side) ? e->a : e->b;
        theirs = mine == e->a ? e->b : e->a;
        if (!sql_lp_expr_within(mine, agg_side) || !sql_lp_expr_within(theirs, other) ||
            sql_lp_expr_volatile(e) || (mcol = sql_lp_expr_single_col(mine)) < 0 ||
            (col = sql_lp_expr_single_col(theirs)) < 0 ||
            !(agg = keyed_agg(agg_side, mcol, &k)) || !(g = source_get(other, col, &gcol)))
            continue;
        if ((rc = filtered_copy(c, g, &gcol, &copy, err)))
            return rc;
        if (!copy)
            continue;
        /* the same equality, of the key's expression over the
         * aggregation's input and of the copy's column */
        if (!(key = sql_lp_colref(c, sql_lp_find_col(copy, gcol), e->pos)) ||
            !(eq = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos)) ||
            !(eq->a = sql_lp_expr_subst(c, mine, &mcol, &agg->keys[k], 1)) ||
            !(eq->b = sql_lp_expr_subst(c, theirs, &col, &key, 1)))
            return comb_err_nomem(err);
        eq->op = AST_OP_EQ;
        if ((rc = sql_lp_join(c, LP_JOIN_SEMI, agg->input, copy, eq, &semi, err)))
            return rc;
        agg->input = semi;
    }
    return COMB_OK;
}

static int restrict_node(SqlStmtCtx *c, LpNode *n, CombErr *err)
{
    int rc;
    if (!n)
        return COMB_OK;
    if ((rc = restrict_node(c, n->input, err)) || (rc = restrict_node(c, n->right, err)))
        return rc;
    if (n->kind != LP_JOIN || !n->cond)
        return COMB_OK;
    if (n->join != LP_JOIN_RIGHT && n->join != LP_JOIN_FULL &&
        (rc = restrict_side(c, n, n->right, n->input, err)))
        return rc;
    if (n->join == LP_JOIN_INNER || n->join == LP_JOIN_RIGHT || n->join == LP_JOIN_SEMI)
        return restrict_side(c, n, n->input, n->right, err);
    return COMB_OK;
}

int sql_lp_restrict_keys(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    return restrict_node(c, *root, err);
}
