/*
 * rules.c - the rewrite rules of the logical plan (logical.h), run in
 * order by sql_lp_optimize:
 *
 *  - fold: a FILTER whose predicate folded to TRUE goes;
 *  - decorrelate: a MARK join (the binder's form of a subquery in WHERE)
 *    whose mark is a conjunct of the FILTER above its chain of such joins
 *    becomes a SEMI join (mark) or an ANTI join (NOT mark), the conjunct
 *    dropped; a mark under OR, CASE, ... stays a MARK join;
 *  - factor ORs: a conjunct that every branch of an OR has is taken out of
 *    the OR (in FILTERs and join conditions): `(a AND b) OR (a AND c)` is
 *    `a AND (b OR c)`, and `a OR (a AND b)` is `a`, in SQL's three-valued
 *    logic too; so an equality each branch repeats becomes a join key
 *    (TPC-H Q19) and one-sided ones reach the scans.  ORs with a volatile
 *    call stay as written (each branch draws its own value).  Then
 *    equalities of one expression with constants become an IN (Hive's
 *    point lookup);
 *  - push filters: each conjunct of a FILTER goes as far down as rows are
 *    the same: through PROJECTs (rewritten through their expressions, not
 *    through volatile ones), SORTs and FILTERs, into the sides of joins
 *    (never into the NULL-supplying side of an outer join; a conjunct over
 *    both sides of an inner join joins its condition, which makes comma
 *    joins hash joins), into a GET's filter (where the scan prunes
 *    partitions); it stops at LIMIT, AGGREGATE, WINDOW, LATERAL and SETOP.
 *    A join's own condition gives its one-sided conjuncts to the side
 *    whose rows they only narrow (either side of an inner or semi join,
 *    the right side of a LEFT, ANTI, MARK or SINGLE join);
 *  - restrict keys (restrict.c): an aggregation joined by a GROUP BY key
 *    reads only the keys the other side's filtered scan can give;
 *  - order joins: a run of three or more inner joins is joined again
 *    left-deep by estimated size (stats.c): the largest input streams, the
 *    others come smallest first among those a condition connects, each
 *    built into a hash table; every node gets its estimate, which the
 *    lowering uses to build an inner join's smaller side.
 * Partitions and buckets are pruned when the GETs are lowered, columns by
 * the physical need() pass (the scans decode only what the tree reads).
 */
#include "sql/plan/logical.h"
#include "sql/plan/window.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ fold */

static bool const_true(const BoundExpr *e)
{
    return e->kind == BX_CONST && e->type == COMB_T_BOOLEAN && !e->is_null && e->ival;
}

static void fold_node(LpNode **np)
{
    LpNode *n = *np;
    if (!n)
        return;
    fold_node(&n->input);
    fold_node(&n->right);
    if (n->kind == LP_FILTER && const_true(n->pred))
        *np = n->input;
}

int sql_lp_fold(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)err;
    fold_node(root);
    return COMB_OK;
}

/* ----------------------------------------------------------- decorrelate */

/* The conjunct of pred that is `mark` (*which 1) or `NOT mark` (0); -1
 * none. */
static int mark_conjunct(BoundExpr *pred, int mark, int *which)
{
    for (int i = 0; i < sql_bx_conjuncts(pred); i++) {
        const BoundExpr *e = sql_bx_conjunct(pred, i);
        if (e->kind == BX_COL && e->col == mark) {
            *which = 1;
            return i;
        }
        if (e->kind == BX_UNARY && e->op == AST_OP_NOT && e->a->kind == BX_COL &&
            e->a->col == mark) {
            *which = 0;
            return i;
        }
    }
    return -1;
}

static bool mark_kind(const LpNode *n)
{
    return n->kind == LP_JOIN && (n->join == LP_JOIN_MARK ||
                                  n->join == LP_JOIN_SEMI || n->join == LP_JOIN_ANTI);
}

/* A join that passes every left row on, with columns of its own after
 * the left's or none: a mark below it is still a column of its output. */
static bool passes_marks(const LpNode *n)
{
    return mark_kind(n) || (n->kind == LP_JOIN && n->join == LP_JOIN_SINGLE);
}

/* The columns of a chain of MARK / SEMI / ANTI / SINGLE joins again,
 * bottom up, after some became SEMI or ANTI joins (their marks gone):
 * the left's, then the join's own (MARK: its mark; SINGLE: the right's). */
static int refresh_cols(SqlStmtCtx *c, LpNode *n, CombErr *err)
{
    const LpNode *in = n->input;
    int own = n->join == LP_JOIN_MARK ? 1 : n->join == LP_JOIN_SINGLE ? n->right->n_cols : 0;
    LpCol *cols;
    int rc;
    if (passes_marks(in) && (rc = refresh_cols(c, n->input, err)))
        return rc;
    if (!own) {
        n->cols = in->cols;
        n->n_cols = in->n_cols;
        return COMB_OK;
    }
    if (!(cols = comb_arena_alloc(c->arena, (size_t)(in->n_cols + own) * sizeof *cols)))
        return comb_err_nomem(err);
    memcpy(cols, in->cols, (size_t)in->n_cols * sizeof *cols);
    memcpy(cols + in->n_cols, n->cols + n->n_cols - own, (size_t)own * sizeof *cols);
    n->cols = cols;
    n->n_cols = in->n_cols + own;
    return COMB_OK;
}

/* FILTER over MARK joins: each mark that is a conjunct decides alone.
 * Also through SINGLE joins (a scalar subquery's, TPC-H Q20's
 * `ps_availqty > (SELECT ...)` beside `ps_partkey IN (...)`): each left
 * row passes one alone, so its mark decides below them as above. */
static int decorrelate_filter(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    LpNode *f = *np;
    bool changed = false;
    int rc;
    for (LpNode *j = f->input; f->pred && passes_marks(j); j = j->input) {
        int which, i;
        if (j->join != LP_JOIN_MARK || (i = mark_conjunct(f->pred, j->mark_col, &which)) < 0)
            continue;
        j->join = which ? LP_JOIN_SEMI : LP_JOIN_ANTI;
        f->pred = sql_lp_without_conjunct(c, f->pred, i);
        changed = true;
    }
    if (!changed)
        return COMB_OK;
    if ((rc = refresh_cols(c, f->input, err)))
        return rc;
    f->cols = f->input->cols;
    f->n_cols = f->input->n_cols;
    if (!f->pred)
        *np = f->input;
    return COMB_OK;
}

/* How many columns n adds after its (left) input's: -1 for a node with
 * columns of its own. */
static int added_cols(const LpNode *n)
{
    switch (n->kind) {
    case LP_FILTER: case LP_SORT: case LP_LIMIT:
        return 0;
    case LP_WINDOW:
        return n->window->n_calls;
    case LP_JOIN:
        return n->join == LP_JOIN_SEMI || n->join == LP_JOIN_ANTI ? 0
               : n->join == LP_JOIN_MARK                       ? 1
                                                               : n->right->n_cols;
    default:
        return -1;
    }
}

/* A node that passes its input's columns on (a window or a join adding
 * its own after them) takes them again: a mark below it may have gone. */
static int follow_input_cols(SqlStmtCtx *c, LpNode *n, CombErr *err)
{
    int own = added_cols(n);
    LpCol *cols;
    /* a join's right side may have changed too: joins always rebuild */
    if (own < 0 || (n->kind != LP_JOIN && n->n_cols == n->input->n_cols + own))
        return COMB_OK;
    if (!(cols = comb_arena_alloc(c->arena, (size_t)(n->input->n_cols + own + 1) * sizeof *cols)))
        return comb_err_nomem(err);
    memcpy(cols, n->input->cols, (size_t)n->input->n_cols * sizeof *cols);
    memcpy(cols + n->input->n_cols,
           n->kind == LP_JOIN && n->join != LP_JOIN_MARK ? n->right->cols
                                                          : n->cols + n->n_cols - own,
           (size_t)own * sizeof *cols);
    n->cols = cols;
    n->n_cols = n->input->n_cols + own;
    return COMB_OK;
}

static int decorrelate_node(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    int rc;
    if (!*np)
        return COMB_OK;
    if ((*np)->kind == LP_FILTER && passes_marks((*np)->input) &&
        (rc = decorrelate_filter(c, np, err)))
        return rc;
    if ((rc = decorrelate_node(c, &(*np)->input, err)) ||
        (rc = decorrelate_node(c, &(*np)->right, err)))
        return rc;
    return (*np)->input ? follow_input_cols(c, *np, err) : COMB_OK;
}

int sql_lp_decorrelate(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    return decorrelate_node(c, root, err);
}

/* ------------------------------------------------------------ factor OR */

static bool is_or(const BoundExpr *e)
{
    return e->kind == BX_BINARY && e->op == AST_OP_OR && e->n_args > 0;
}


/* The branches of e, nested ORs flattened. */
static int collect_disjuncts(SqlStmtCtx *c, BoundExpr *e, LpExprs *out, CombErr *err)
{
    if (!is_or(e))
        return sql_lp_exprs_add(c, out, e, err);
    for (int i = 0; i < e->n_args; i++) {
        int rc = collect_disjuncts(c, e->args[i], out, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static bool has_conjunct(BoundExpr *pred, const BoundExpr *x)
{
    for (int i = 0; i < sql_bx_conjuncts(pred); i++)
        if (sql_lp_expr_equal(sql_bx_conjunct(pred, i), x))
            return true;
    return false;
}

/* The conjuncts of branch d that are not in common; NULL if none is left. */
static int branch_rest(SqlStmtCtx *c, BoundExpr *d, BoundExpr *common,
                       BoundExpr **out, CombErr *err)
{
    *out = NULL;
    for (int i = 0; i < sql_bx_conjuncts(d); i++) {
        BoundExpr *x = sql_bx_conjunct(d, i);
        if (!has_conjunct(common, x) && !(*out = sql_bx_and(c, *out, x)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* e with the conjuncts common to all its branches taken out of the OR. */
static int factor_or(SqlStmtCtx *c, BoundExpr *e, BoundExpr **out, CombErr *err)
{
    LpExprs d = {0};
    BoundExpr *common = NULL, *rest;
    int rc;
    *out = e;
    if (!is_or(e) || sql_lp_expr_volatile(e))
        return COMB_OK;
    if ((rc = collect_disjuncts(c, e, &d, err)))
        return rc;
    for (int i = 0; i < sql_bx_conjuncts(d.e[0]); i++) {
        BoundExpr *x = sql_bx_conjunct(d.e[0], i);
        bool everywhere = !common || !has_conjunct(common, x); /* once */
        for (int k = 1; everywhere && k < d.n; k++)
            everywhere = has_conjunct(d.e[k], x);
        if (everywhere && !(common = sql_bx_and(c, common, x)))
            return comb_err_nomem(err);
    }
    if (!common)
        return COMB_OK;
    if (!(rest = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos)) ||
        !(rest->args = comb_arena_alloc(c->arena, (size_t)d.n * sizeof *rest->args)))
        return comb_err_nomem(err);
    rest->op = AST_OP_OR;
    for (int k = 0; k < d.n; k++) {
        BoundExpr *r;
        if ((rc = branch_rest(c, d.e[k], common, &r, err)))
            return rc;
        if (!r) { /* a OR (a AND b) is a */
            *out = common;
            return COMB_OK;
        }
        rest->args[rest->n_args++] = r;
    }
    return (*out = sql_bx_and(c, common, rest)) ? COMB_OK : comb_err_nomem(err);
}

/* The conjuncts of branch d reading column id alone (NULL: none). */
static int branch_on_col(SqlStmtCtx *c, BoundExpr *d, int id, BoundExpr **out,
                         CombErr *err)
{
    *out = NULL;
    for (int i = 0; i < sql_bx_conjuncts(d); i++) {
        BoundExpr *x = sql_bx_conjunct(d, i);
        if (sql_lp_expr_single_col(x) == id && !(*out = sql_bx_and(c, *out, x)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* What an OR implies about one column: when every branch has conjuncts
 * over that column alone, the OR of those (TPC-H Q7's `(n1 = 'FRANCE' AND
 * n2 = 'GERMANY') OR (n1 = 'GERMANY' AND n2 = 'FRANCE')` implies `n1 =
 * 'FRANCE' OR n1 = 'GERMANY'`), ANDed to *all next to the OR, so the scan
 * of that column's table filters by it.  A row for which the OR is TRUE
 * makes each implied predicate TRUE, so the rows kept are the same. */
static int add_implied(SqlStmtCtx *c, BoundExpr *e, BoundExpr **all, CombErr *err)
{
    LpExprs d = {0};
    int *done, n_done = 0, rc;
    if (!is_or(e) || sql_lp_expr_volatile(e))
        return COMB_OK;
    if ((rc = collect_disjuncts(c, e, &d, err)))
        return rc;
    if (!(done = comb_arena_alloc(c->arena, (size_t)sql_bx_conjuncts(d.e[0]) * sizeof *done)))
        return comb_err_nomem(err);
    for (int i = 0; i < sql_bx_conjuncts(d.e[0]); i++) {
        int id = sql_lp_expr_single_col(sql_bx_conjunct(d.e[0], i));
        BoundExpr *implied;
        bool seen = id < 0, all_of_it = true;
        for (int j = 0; !seen && j < n_done; j++)
            seen = done[j] == id;
        if (seen)
            continue;
        done[n_done++] = id;
        if (!(implied = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos)) ||
            !(implied->args = comb_arena_alloc(c->arena, (size_t)d.n * sizeof *implied->args)))
            return comb_err_nomem(err);
        implied->op = AST_OP_OR;
        for (int k = 0; k < d.n && implied; k++) {
            BoundExpr *b;
            if ((rc = branch_on_col(c, d.e[k], id, &b, err)))
                return rc;
            if (!b) {
                implied = NULL;  /* a branch says nothing of id */
                break;
            }
            all_of_it = all_of_it && sql_lp_expr_equal(b, d.e[k]);
            implied->args[implied->n_args++] = b;
        }
        if (implied && !all_of_it && !(*all = sql_bx_and(c, *all, implied)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* ------------------------------------------------------- point lookups */

/* The compared side of `x = constant` (either way round); NULL when e is
 * not such an equality, or x is of a floating kind (= holds for 0.0 and
 * -0.0, IN does not tell them apart) or not a primitive. */
static BoundExpr *point_operand(BoundExpr *e, BoundExpr **konst)
{
    BoundExpr *x;
    if (e->kind != BX_BINARY || e->op != AST_OP_EQ || !e->a || !e->b)
        return NULL;
    if (e->b->kind == BX_CONST && e->a->kind != BX_CONST) {
        x = e->a;
        *konst = e->b;
    } else if (e->a->kind == BX_CONST && e->b->kind != BX_CONST) {
        x = e->b;
        *konst = e->a;
    } else {
        return NULL;
    }
    if (!comb_type_is_primitive(x->type) || comb_type_is_float(x->type) ||
        (*konst)->is_null || (*konst)->type != x->type)
        return NULL;
    return x;
}

static const CombType *const_type(const BoundExpr *k)
{
    return k->ctype ? k->ctype : sql_kind_type(k->type);
}

/* How many disjuncts d[from..] not used yet compare x with a constant of
 * k's type; with `in`, they are marked used and their constants become
 * in's list. */
static int points(const LpExprs *d, int from, const BoundExpr *x, const BoundExpr *k,
                  bool *used, BoundExpr *in)
{
    int n = 0;
    for (int j = from; j < d->n; j++) {
        BoundExpr *kj, *xj;
        if (used[j] || !(xj = point_operand(d->e[j], &kj)) ||
            !sql_bx_has_type(kj, const_type(k)) || !sql_lp_expr_equal(xj, x))
            continue;
        n++;
        if (in) {
            used[j] = true;
            in->args[in->n_args++] = kj;
        }
    }
    return n;
}

/* Hive's point lookup (hive.optimize.point.lookup, at least
 * hive.optimize.point.lookup.min equalities): `x = 1 OR x = 2 OR ...`
 * becomes `x IN (1, 2, ...)`, one search of a sorted set per row
 * (expr.c) instead of a comparison per constant — tools write such ORs
 * thousands long.  The answer is the same in three-valued logic: TRUE if
 * some constant equals x, else NULL if x is NULL, else FALSE.  The other
 * disjuncts stay in the OR beside the IN. */
static int point_lookup(SqlStmtCtx *c, BoundExpr *e, BoundExpr **out, CombErr *err)
{
    int64_t min = sql_conf_int(c->s, "hive.optimize.point.lookup.min", 2);
    LpExprs d = {0}, kept = {0};
    bool *used, changed = false;
    int rc;
    *out = e;
    if (!is_or(e) || sql_lp_expr_volatile(e))
        return COMB_OK;
    if ((rc = collect_disjuncts(c, e, &d, err)))
        return rc;
    if (!(used = comb_arena_calloc(c->arena, (size_t)d.n)))
        return comb_err_nomem(err);
    for (int i = 0; i < d.n; i++) {
        BoundExpr *k, *x, *in;
        int n;
        if (used[i])
            continue;
        if (!(x = point_operand(d.e[i], &k)) ||
            (n = points(&d, i, x, k, used, NULL)) < 2 || n < min) {
            if ((rc = sql_lp_exprs_add(c, &kept, d.e[i], err)))
                return rc;
            continue;
        }
        if (!(in = sql_bx_new(c, BX_IN, COMB_T_BOOLEAN, d.e[i]->pos)) ||
            !(in->args = comb_arena_alloc(c->arena, (size_t)n * sizeof *in->args)))
            return comb_err_nomem(err);
        in->a = x;
        points(&d, i, x, k, used, in);
        changed = true;
        if ((rc = sql_lp_exprs_add(c, &kept, in, err)))
            return rc;
    }
    if (!changed)
        return COMB_OK;
    if (kept.n == 1) {
        *out = kept.e[0];
        return COMB_OK;
    }
    if (!(*out = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, e->pos)))
        return comb_err_nomem(err);
    (*out)->op = AST_OP_OR;
    (*out)->args = kept.e;
    (*out)->n_args = kept.n;
    return COMB_OK;
}

/* Each conjunct of *pred with its point lookups. */
static int point_lookups(SqlStmtCtx *c, BoundExpr **pred, CombErr *err)
{
    BoundExpr *all = NULL;
    for (int i = 0; *pred && i < sql_bx_conjuncts(*pred); i++) {
        BoundExpr *p;
        int rc = point_lookup(c, sql_bx_conjunct(*pred, i), &p, err);
        if (rc)
            return rc;
        if (!(all = sql_bx_and(c, all, p)))
            return comb_err_nomem(err);
    }
    *pred = all;
    return COMB_OK;
}

/* Every conjunct of *pred factored, with what its ORs imply per column
 * when imply (the predicate is over a join: over one table the OR itself
 * filters the scan, and implied predicates would only be evaluated again
 * for each row). */
static int factor_pred(SqlStmtCtx *c, BoundExpr **pred, bool imply,
                       CombErr *err)
{
    BoundExpr *all = NULL;
    for (int i = 0; *pred && i < sql_bx_conjuncts(*pred); i++) {
        BoundExpr *f;
        int rc = factor_or(c, sql_bx_conjunct(*pred, i), &f, err);
        if (rc)
            return rc;
        if (!(all = sql_bx_and(c, all, f)))
            return comb_err_nomem(err);
        for (int j = 0; imply && j < sql_bx_conjuncts(f); j++)
            if ((rc = add_implied(c, sql_bx_conjunct(f, j), &all, err)))
                return rc;
    }
    *pred = all;
    return sql_conf_bool(c->s, "hive.optimize.point.lookup", true)
               ? point_lookups(c, pred, err)
               : COMB_OK;
}

/* Whether n's subtree joins (its rows may hold several tables' columns;
 * only joins use the estimates). */
static bool has_join(const LpNode *n)
{
    return n && (n->kind == LP_JOIN || has_join(n->input) || has_join(n->right));
}

static int factor_node(SqlStmtCtx *c, LpNode *n, CombErr *err)
{
    int rc;
    if (!n)
        return COMB_OK;
    if ((rc = factor_node(c, n->input, err)) || (rc = factor_node(c, n->right, err)))
        return rc;
    if (n->kind == LP_FILTER)
        return factor_pred(c, &n->pred, has_join(n->input), err);
    return n->kind == LP_JOIN ? factor_pred(c, &n->cond, true, err) : COMB_OK;
}

int sql_lp_factor_ors(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    return factor_node(c, *root, err);
}

/* ---------------------------------------------------------- push filters */

typedef LpExprs Pending;

static int pend(SqlStmtCtx *c, Pending *p, BoundExpr *e, CombErr *err)
{
    return sql_lp_exprs_add(c, p, e, err);
}

static int pend_all(SqlStmtCtx *c, Pending *p, BoundExpr *pred, CombErr *err)
{
    for (int i = 0; pred && i < sql_bx_conjuncts(pred); i++) {
        int rc = pend(c, p, sql_bx_conjunct(pred, i), err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

/* FILTER(kept) over *np, when there are any. */
static int place(SqlStmtCtx *c, LpNode **np, const Pending *kept, CombErr *err)
{
    BoundExpr *pred = NULL;
    for (int i = 0; i < kept->n; i++)
        if (!(pred = sql_bx_and(c, pred, kept->e[i])))
            return comb_err_nomem(err);
    return pred ? sql_lp_filter(c, *np, pred, np, err) : COMB_OK;
}

/* Push the conjuncts p into the subtree *np; those it cannot take are
 * added to *refused, for the caller to keep above it. */
static int push(SqlStmtCtx *c, LpNode **np, Pending *p, Pending *refused,
                CombErr *err);

/* Push p into *np; what it refuses is a FILTER right over it. */
static int push_here(SqlStmtCtx *c, LpNode **np, Pending *p, CombErr *err)
{
    Pending refused = {0};
    int rc = push(c, np, p, &refused, err);
    return rc ? rc : place(c, np, &refused, err);
}

static int refuse_all(SqlStmtCtx *c, const Pending *p, Pending *refused,
                      CombErr *err)
{
    for (int i = 0; i < p->n; i++) {
        int rc = pend(c, refused, p->e[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

/* A node the conjuncts do not enter: its inputs' own filters pushed. */
static int stop(SqlStmtCtx *c, LpNode **np, Pending *p, Pending *refused,
                CombErr *err)
{
    Pending none = {0}, none2 = {0};
    int rc;
    if ((*np)->input && (rc = push_here(c, &(*np)->input, &none, err)))
        return rc;
    if ((*np)->right && (rc = push_here(c, &(*np)->right, &none2, err)))
        return rc;
    return refuse_all(c, p, refused, err);
}

/* Through a PROJECT: each conjunct rewritten over its input; those the
 * input refuses stay above the PROJECT as written. */
static int push_project(SqlStmtCtx *c, LpNode **np, Pending *p,
                        Pending *refused, CombErr *err)
{
    LpNode *n = *np;
    Pending below = {0}, back = {0}, own = {0};
    BoundExpr **orig = comb_arena_alloc(c->arena, (size_t)(p->n + 1) * sizeof *orig);
    int *ids = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *ids);
    int rc;
    if (!ids || !orig)
        return comb_err_nomem(err);
    for (int j = 0; j < n->n_cols; j++)
        ids[j] = n->cols[j].id;
    for (int i = 0; i < p->n; i++) {
        BoundExpr *e = NULL;
        bool volatile_read = false;
        for (int j = 0; j < n->n_cols; j++)
            if (sql_lp_expr_volatile(n->exprs[j]) && sql_lp_expr_reads(p->e[i], ids[j]))
                volatile_read = true;
        if (sql_lp_expr_within(p->e[i], n) && !volatile_read)
            e = sql_lp_expr_subst(c, p->e[i], ids, n->exprs, n->n_cols);
        if (e)
            orig[below.n] = p->e[i];
        rc = e ? pend(c, &below, e, err) : pend(c, refused, p->e[i], err);
        if (rc)
            return rc;
    }
    if ((rc = push(c, &n->input, &below, &back, err)))
        return rc;
    /* refused below: those from above go back as written, the input's
     * own stay right over it */
    for (int k = 0; k < back.n; k++) {
        int i = 0;
        while (i < below.n && below.e[i] != back.e[k])
            i++;
        rc = i < below.n ? pend(c, refused, orig[i], err) : pend(c, &own, back.e[k], err);
        if (rc)
            return rc;
    }
    return place(c, &n->input, &own, err);
}

/* Which sides a join's rows may be narrowed on. */
static bool left_narrows(LpJoinKind k)
{
    return k != LP_JOIN_RIGHT && k != LP_JOIN_FULL;
}

static bool right_narrows(LpJoinKind k)
{
    return k == LP_JOIN_INNER || k == LP_JOIN_RIGHT;
}

/* The ON condition's one-sided conjuncts: to the side they only narrow. */
static int split_join_cond(SqlStmtCtx *c, LpNode *n, Pending *l, Pending *r,
                           CombErr *err)
{
    BoundExpr *cond = n->cond, *rest = NULL;
    bool inner = n->join == LP_JOIN_INNER || n->join == LP_JOIN_SEMI;
    bool to_right = n->join != LP_JOIN_RIGHT && n->join != LP_JOIN_FULL;
    bool to_left = inner || n->join == LP_JOIN_RIGHT;
    for (int i = 0; cond && i < sql_bx_conjuncts(cond); i++) {
        BoundExpr *e = sql_bx_conjunct(cond, i);
        int rc = COMB_OK;
        bool lt = sql_lp_expr_touches(e, n->input), rt = sql_lp_expr_touches(e, n->right);
        if (lt && !rt && to_left && sql_lp_expr_within(e, n->input))
            rc = pend(c, l, e, err);
        else if (rt && !lt && to_right && sql_lp_expr_within(e, n->right))
            rc = pend(c, r, e, err);
        else if (!(rest = sql_bx_and(c, rest, e)))
            rc = comb_err_nomem(err);
        if (rc)
            return rc;
    }
    n->cond = rest;
    return COMB_OK;
}

static int push_join(SqlStmtCtx *c, LpNode **np, Pending *p, Pending *refused,
                     CombErr *err)
{
    LpNode *n = *np;
    Pending l = {0}, r = {0};
    int rc;
    if ((rc = split_join_cond(c, n, &l, &r, err)))
        return rc;
    for (int i = 0; i < p->n; i++) {
        BoundExpr *e = p->e[i];
        if (left_narrows(n->join) && sql_lp_expr_within(e, n->input))
            rc = pend(c, &l, e, err);
        else if (right_narrows(n->join) && sql_lp_expr_within(e, n->right))
            rc = pend(c, &r, e, err);
        else if (n->join == LP_JOIN_INNER && sql_lp_expr_touches(e, n->input) &&
                 sql_lp_expr_touches(e, n->right) && sql_lp_expr_within2(e, n->input, n->right))
            rc = (n->cond = sql_bx_and(c, n->cond, e)) ? COMB_OK : comb_err_nomem(err);
        else
            rc = pend(c, refused, e, err);
        if (rc)
            return rc;
    }
    if ((rc = push_here(c, &n->input, &l, err)))
        return rc;
    return push_here(c, &n->right, &r, err);
}

static int push(SqlStmtCtx *c, LpNode **np, Pending *p, Pending *refused,
                CombErr *err)
{
    LpNode *n = *np;
    Pending all = {0};
    int rc;
    switch (n->kind) {
    case LP_FILTER:
        /* its own conjuncts first, then those from above */
        if ((rc = pend_all(c, &all, n->pred, err)) || (rc = refuse_all(c, p, &all, err)))
            return rc;
        *np = n->input;
        if (n->label && !(*np)->label)
            (*np)->label = n->label;
        return push(c, np, &all, refused, err);
    case LP_SORT:
        return push(c, &n->input, p, refused, err);
    case LP_PROJECT:
        return push_project(c, np, p, refused, err);
    case LP_JOIN:
        return push_join(c, np, p, refused, err);
    case LP_GET:
        for (int i = 0; i < p->n; i++)
            if (!(n->filter = sql_bx_and(c, n->filter, p->e[i])))
                return comb_err_nomem(err);
        return COMB_OK;
    default:
        return stop(c, np, p, refused, err);
    }
}

int sql_lp_push_filters(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    Pending none = {0};
    return push_here(c, root, &none, err);
}

/* ----------------------------------------------------------- join order */

static void estimate_all(SqlStmtCtx *c, LpNode *n)
{
    if (!n)
        return;
    estimate_all(c, n->input);
    estimate_all(c, n->right);
    n->est_rows = sql_lp_estimate(c, n);
}

/* A run of INNER joins flattened: its inputs and its conditions'
 * conjuncts. */
typedef struct JoinRun {
    int n, cap;
    LpNode **leaves;
    Pending conds;
} JoinRun;

static int run_add(SqlStmtCtx *c, JoinRun *run, LpNode *leaf, CombErr *err)
{
    if (run->n == run->cap) {
        int cap = run->cap ? 2 * run->cap : 8;
        LpNode **g = comb_arena_alloc(c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (run->n)
            memcpy(g, run->leaves, (size_t)run->n * sizeof *g);
        run->leaves = g;
        run->cap = cap;
    }
    run->leaves[run->n++] = leaf;
    return COMB_OK;
}

static int flatten(SqlStmtCtx *c, LpNode *n, JoinRun *run, CombErr *err)
{
    int rc;
    if (n->kind != LP_JOIN || n->join != LP_JOIN_INNER || n->label)
        return run_add(c, run, n, err);
    if ((rc = flatten(c, n->input, run, err)) || (rc = flatten(c, n->right, run, err)))
        return rc;
    return pend_all(c, &run->conds, n->cond, err);
}

/* Is e a key equality (= or <=>) between an expression over a and one
 * over b, which the hash join can use (as exec/lower_join.c finds them)? */
static bool side_of(const BoundExpr *e, const LpNode *n)
{
    return sql_lp_expr_touches(e, n) && sql_lp_expr_within(e, n);
}

static bool key_between(const BoundExpr *e, const LpNode *a, const LpNode *b)
{
    if (e->kind != BX_BINARY || (e->op != AST_OP_EQ && e->op != AST_OP_EQ_NS))
        return false;
    return (side_of(e->a, a) && side_of(e->b, b)) || (side_of(e->b, a) && side_of(e->a, b));
}

/* Does a pending key equality connect the joined set cur and leaf? */
static bool connects(const JoinRun *run, const bool *used, const LpNode *cur,
                     const LpNode *leaf)
{
    for (int i = 0; i < run->conds.n; i++)
        if (!used[i] && key_between(run->conds.e[i], cur, leaf))
            return true;
    return false;
}

/* The pending conjuncts over cur and leaf (all that are left at the last
 * join), marked used in `used`; *cond NULL when there are none. */
static int conds_for(SqlStmtCtx *c, const JoinRun *run, bool *used, bool last,
                     const LpNode *cur, const LpNode *leaf, BoundExpr **cond,
                     CombErr *err)
{
    *cond = NULL;
    for (int q = 0; q < run->conds.n; q++)
        if (!used[q] && (last || sql_lp_expr_within2(run->conds.e[q], cur, leaf))) {
            used[q] = true;
            if (!(*cond = sql_bx_and(c, *cond, run->conds.e[q])))
                return comb_err_nomem(err);
        }
    return COMB_OK;
}

/* Estimated rows of cur joined with leaf over the pending conjuncts
 * between them. */
static double step_rows(SqlStmtCtx *c, const JoinRun *run, const bool *used,
                        const LpNode *cur, const LpNode *leaf)
{
    BoundExpr *keys = NULL;
    for (int q = 0; q < run->conds.n; q++)
        if (!used[q] && key_between(run->conds.e[q], cur, leaf) &&
            !(keys = sql_bx_and(c, keys, run->conds.e[q])))
            return cur->est_rows * leaf->est_rows;   /* out of memory: a guess */
    return cur->est_rows * leaf->est_rows * sql_lp_join_selectivity(c, keys, cur, leaf);
}

/* The next input to join: of those a key equality connects to cur, the
 * one giving the fewest estimated rows (a cross product only when none
 * connects: then the smallest input). */
static int next_leaf(SqlStmtCtx *c, const JoinRun *run, const bool *taken,
                     const bool *used, const LpNode *cur)
{
    int best = -1;
    bool best_conn = false;
    double best_rows = 0;
    for (int i = 0; i < run->n; i++) {
        const LpNode *leaf = run->leaves[i];
        bool conn;
        double rows;
        if (taken[i])
            continue;
        conn = connects(run, used, cur, leaf);
        rows = conn ? step_rows(c, run, used, cur, leaf) : leaf->est_rows;
        if (best < 0 || (conn && !best_conn) || (conn == best_conn && rows < best_rows))
            best = i, best_conn = conn, best_rows = rows;
    }
    return best;
}

/* The left-deep order greedy from input `start`: each step joins the
 * input next_leaf picks, with the conjuncts its columns complete.  *cost
 * is the sum of the joins' estimated rows. */
static int greedy_order(SqlStmtCtx *c, const JoinRun *run, int start, LpNode **out,
                        double *cost, CombErr *err)
{
    bool *taken = comb_arena_calloc(c->arena, (size_t)run->n);
    bool *used = comb_arena_calloc(c->arena, (size_t)run->conds.n + 1);
    LpNode *cur = run->leaves[start];
    int rc;
    if (!taken || !used)
        return comb_err_nomem(err);
    taken[start] = true;
    *cost = 0;
    for (int k = 1; k < run->n; k++) {
        int i = next_leaf(c, run, taken, used, cur);
        BoundExpr *cond;
        taken[i] = true;
        if ((rc = conds_for(c, run, used, k == run->n - 1, cur, run->leaves[i], &cond, err)) ||
            (rc = sql_lp_join(c, LP_JOIN_INNER, cur, run->leaves[i], cond, &cur, err)))
            return rc;
        cur->est_rows = sql_lp_estimate(c, cur);
        *cost += cur->est_rows;
    }
    *out = cur;
    return COMB_OK;
}

/* A run of three or more inner joins, left-deep again: the greedy order
 * from each input in turn, the one of the fewest estimated intermediate
 * rows kept (the lowering builds each join's smaller side); a PROJECT
 * restores the columns' order. */
static int order_node(SqlStmtCtx *c, LpNode **np, CombErr *err);

static int reorder_run(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    LpNode *n = *np, *best = NULL;
    JoinRun run = {0};
    double best_cost = 0;
    int *ids, rc;
    if ((rc = flatten(c, n, &run, err)))
        return rc;
    for (int i = 0; i < run.n; i++)
        if ((rc = order_node(c, &run.leaves[i], err)))
            return rc;
    if (run.n < 3) {
        n->input = run.leaves[0];
        n->right = run.leaves[1];
        return COMB_OK;
    }
    ids = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *ids);
    if (!ids)
        return comb_err_nomem(err);
    for (int i = 0; i < run.n; i++) {
        estimate_all(c, run.leaves[i]);
        if (run.leaves[i]->est_rows < 0)
            return COMB_OK;   /* no estimates: the order as written */
    }
    for (int s = 0; s < run.n; s++) {
        LpNode *plan = NULL;
        double cost = 0;
        if ((rc = greedy_order(c, &run, s, &plan, &cost, err)))
            return rc;
        if (plan && (!best || cost < best_cost))
            best = plan, best_cost = cost;
    }
    for (int j = 0; j < n->n_cols; j++)
        ids[j] = n->cols[j].id;
    return sql_lp_keep(c, best, ids, n->n_cols, np, err);
}

static bool inner_run(const LpNode *n)
{
    return n->kind == LP_JOIN && n->join == LP_JOIN_INNER && !n->label;
}

/* The link to the input of the inner run at *np whose columns are all
 * the semi join n reads of its left side; NULL if none. */
static LpNode **semi_leaf(LpNode **np, const LpNode *n)
{
    LpNode **l;
    if (!inner_run(*np))
        return (!n->cond || sql_lp_expr_within2(n->cond, *np, n->right)) &&
               (!n->in_left || sql_lp_expr_within(n->in_left, *np)) ? np : NULL;
    if ((l = semi_leaf(&(*np)->input, n)))
        return l;
    return semi_leaf(&(*np)->right, n);
}

/* A SEMI or ANTI join over a run of inner joins that reads one input of
 * the run only filters that input's rows, so it may join there instead;
 * it does when that input has fewer estimated rows than the run (TPC-H
 * Q18: 57 orders of large quantity among 1.5M, not after the join with
 * lineitem's 6M rows; Q21's EXISTS stays over its few joined rows). */
static int sink_semi(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    LpNode *n = *np, **leaf, *semi;
    int rc;
    if (n->kind != LP_JOIN || (n->join != LP_JOIN_SEMI && n->join != LP_JOIN_ANTI) ||
        n->label || !inner_run(n->input) || !(leaf = semi_leaf(&n->input, n)))
        return COMB_OK;
    estimate_all(c, n->input);
    if ((*leaf)->est_rows < 0 || n->input->est_rows < 0 ||
        (*leaf)->est_rows >= n->input->est_rows)
        return COMB_OK;
    if ((rc = sql_lp_join(c, n->join, *leaf, n->right, n->cond, &semi, err)))
        return rc;
    semi->in_left = n->in_left;
    semi->in_right = n->in_right;
    *leaf = semi;
    *np = n->input;
    return COMB_OK;
}

static int order_node(SqlStmtCtx *c, LpNode **np, CombErr *err)
{
    int rc;
    if (!*np)
        return COMB_OK;
    if ((rc = sink_semi(c, np, err)))
        return rc;
    if (inner_run(*np))
        return reorder_run(c, np, err);
    if ((rc = order_node(c, &(*np)->input, err)))
        return rc;
    return order_node(c, &(*np)->right, err);
}

int sql_lp_order_joins(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    int rc = order_node(c, root, err);
    /* a plan without joins needs no estimates: they would open every
     * file's footer of every table for nothing */
    if (!rc && has_join(*root))
        estimate_all(c, *root);
    return rc;
}

int sql_lp_optimize(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    int rc;
    if ((rc = sql_lp_share_ctes(c, root, err)) || (rc = sql_lp_fold(c, root, err)) ||
        (rc = sql_lp_decorrelate(c, root, err)) ||
        (rc = sql_lp_factor_ors(c, root, err)) || (rc = sql_lp_push_filters(c, root, err)) ||
        (rc = sql_lp_restrict_keys(c, root, err)))
        return rc;
    return sql_lp_order_joins(c, root, err);
}
