/*
 * exec_select.c - SELECT: binding (expand *, bind items, WHERE, GROUP BY,
 * HAVING, ORDER BY, LIMIT, against a table, a subquery in FROM or a view)
 * and the operator tree that runs it (op.h):
 *
 *   source               TableScan | OneRow | the subquery's own tree
 *   WHERE                pushed into the source as far as it goes (a scan
 *                        takes it as its filter), else a Filter
 *   GROUP BY, aggregates Aggregate, then HAVING as a Filter
 *   items                Project (plus hidden ORDER BY columns)
 *   ORDER BY, SORT BY,   Sort (emitting the visible columns only): with
 *   CLUSTER BY           one "reducer" SORT BY is the same total sort;
 *                        DISTRIBUTE BY is bound and changes nothing
 *   LIMIT                Limit
 *
 * An aggregate query's items, HAVING and ORDER BY are bound in a scope
 * (agg_resolve) where a GROUP BY key or an aggregate call is a column of
 * the aggregated batch (keys first, then one column per aggregate call):
 * `upper(s)`, `count(*) * 2`, `sum(x) / count(x)`.  SELECT DISTINCT is a
 * GROUP BY of all items.
 *
 * A subquery in FROM is bound first; its output columns become a table
 * (SqlTable with no catalog record) for the outer query's scope, named by
 * its alias; ROW__ID is not one of them unless selected.  A view is the
 * same with its stored query (the expanded text, names qualified at
 * creation), bound when used; errors inside it name the view as Hive does
 * ("... in definition of VIEW v [...] used as v at Line 1:14").
 */
#include "sql/exec/op.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "sql/plan/window.h"

/* Views and subqueries nested deeper than this are refused (each level is
 * a few operators on the stack of every pass). */
#define MAX_QUERY_DEPTH 1000

/* One LATERAL VIEW of the FROM clause: its function, its columns' names
 * and where they start in the rows its operator gives. */
typedef struct SqlLateral {
    const AstLateral *ast;
    SqlUdtf *u;
    const char **names;
    int first_col;
} SqlLateral;

/* One window operator of a SELECT: its spec as written (to find the calls
 * that share it) and its node. */
typedef struct SqlWinGroup {
    const AstWindowSpec *spec;   /* resolved: named windows filled in */
    LpWindow w;
    const char **names;          /* per call */
} SqlWinGroup;

/* A column reference to a window call's result, whose position is known
 * once the operator tree is built (after every aggregate is bound). */
typedef struct SqlWinRef {
    BoundExpr *node;
    int group;
    int call;
} SqlWinRef;

struct SqlSelectPlan {
    const AstSelect *ast;
    const AstFrom *from;     /* the FROM item under the lateral views */
    int n_lateral;
    SqlLateral *laterals;    /* in the order written */
    SqlUdtf *select_udtf;    /* SELECT f(...) [AS (...)] FROM ...: f */
    const char **udtf_names;
    SqlTable *t;             /* the FROM source as a table; NULL without */
    SqlSelectPlan *inner;    /* a subquery or view in FROM: its plan */
    const char *label;       /* EXPLAIN's line for the subquery or view */
    SqlScope sc;
    int n_out;               /* visible output columns */
    int n_cols;              /* n_out + hidden ORDER BY columns */
    const char **names;
    const char **texts;      /* source text of each output's expression */
    CombTypeKind *kinds;
    const CombType **types;  /* whole type of each column */
    BoundExpr **exprs;       /* per column (over the aggregated batch when
                                aggregating) */
    BoundExpr *where;
    bool aggregate;
    int n_group;
    BoundExpr **group;       /* over the source's rows */
    const AstExpr **group_ast; /* what each key was written as */
    int n_agg;
    SqlAgg **aggs;
    SqlScope agg_sc;         /* items of an aggregate query (agg_resolve) */
    BoundExpr *having;       /* over the aggregated batch */
    int n_keys;
    SqlSortKey *keys;
    int64_t limit;
    int n_win;               /* window operators: one per distinct
                                PARTITION BY / ORDER BY, in order found */
    SqlWinGroup *wins;
    int n_win_refs;          /* window results the items and ORDER BY read */
    SqlWinRef *win_refs;
    SqlOp *root;             /* built by sql_select_build */
};

/* ------------------------------------------------------------- binding */

static int plan_grow(SqlStmtCtx *c, SqlSelectPlan *p, int extra, CombErr *err)
{
    int n = p->n_cols + extra;
    const char **names = comb_arena_calloc(c->arena, (size_t)n * sizeof *names);
    const char **texts = comb_arena_calloc(c->arena, (size_t)n * sizeof *texts);
    CombTypeKind *kinds = comb_arena_calloc(c->arena, (size_t)n * sizeof *kinds);
    const CombType **types = comb_arena_calloc(c->arena, (size_t)n * sizeof *types);
    BoundExpr **exprs = comb_arena_calloc(c->arena, (size_t)n * sizeof *exprs);
    if (!names || !texts || !kinds || !types || !exprs)
        return comb_err_nomem(err);
    if (p->n_cols) {
        memcpy(names, p->names, (size_t)p->n_cols * sizeof *names);
        memcpy(texts, p->texts, (size_t)p->n_cols * sizeof *texts);
        memcpy(kinds, p->kinds, (size_t)p->n_cols * sizeof *kinds);
        memcpy(types, p->types, (size_t)p->n_cols * sizeof *types);
        memcpy(exprs, p->exprs, (size_t)p->n_cols * sizeof *exprs);
    }
    p->names = names;
    p->texts = texts;
    p->kinds = kinds;
    p->types = types;
    p->exprs = exprs;
    return COMB_OK;
}

static int add_column(SqlStmtCtx *c, SqlSelectPlan *p, const char *name,
                      BoundExpr *e, CombErr *err)
{
    const CombType *t = sql_bx_type(c, e);
    int rc = t ? plan_grow(c, p, 1, err) : comb_err_nomem(err);
    if (rc)
        return rc;
    p->names[p->n_cols] = name;
    p->exprs[p->n_cols] = e;
    p->kinds[p->n_cols] = e->type;
    p->types[p->n_cols] = t;
    p->n_cols++;
    return COMB_OK;
}

/* A reference to column `col` of type t of the batch the expression
 * reads. */
static BoundExpr *column_node(SqlStmtCtx *c, int col, const CombType *t,
                              AstPos pos)
{
    BoundExpr *e = t ? sql_bx_new_type(c, BX_COL, t, pos) : NULL;
    if (e)
        e->col = col;
    return e;
}

/* The lateral views' columns of `*` (alias.col), after the table's. */
static int expand_lateral_star(SqlStmtCtx *c, SqlSelectPlan *p,
                               const AstExpr *star, CombErr *err)
{
    for (int v = 0; v < p->n_lateral; v++) {
        const SqlLateral *l = &p->laterals[v];
        for (int j = 0; j < l->u->n_cols; j++) {
            BoundExpr *e = column_node(c, l->first_col + j, l->u->types[j], star->pos);
            char *name = comb_arena_printf(c->arena, "%s.%s", l->ast->alias, l->names[j]);
            int rc;
            if (!e || !name)
                return comb_err_nomem(err);
            if ((rc = add_column(c, p, name, e, err)))
                return rc;
        }
    }
    return COMB_OK;
}

static int expand_star(SqlStmtCtx *c, SqlSelectPlan *p, const AstExpr *star,
                       CombErr *err)
{
    if (!p->t)
        return sql_err_at(err, COMB_ESEMANTIC, 0, star->pos,
                          "'*' needs a FROM clause");
    if (star->qualifier && strcasecmp(star->qualifier, p->sc.alias) != 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10004, star->pos,
                          "Invalid table alias '%s'", star->qualifier);
    for (int i = 0; i < p->t->n_cols; i++) {
        BoundExpr *e = column_node(c, i, p->t->types[i], star->pos);
        /* a subquery's SELECT a, a: Hive refuses to read it whole */
        for (int k = 0; k < i; k++)
            if (strcasecmp(p->t->names[k], p->t->names[i]) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10007, star->pos,
                                  "Ambiguous column reference %s in %s",
                                  p->t->names[i], p->sc.alias);
        char *name = comb_arena_printf(c->arena, "%s.%s", p->sc.alias,
                                       p->t->names[i]);
        int rc;
        if (!e || !name)
            return comb_err_nomem(err);
        if ((rc = add_column(c, p, name, e, err)))
            return rc;
    }
    return expand_lateral_star(c, p, star, err);
}

static const char *item_name(SqlStmtCtx *c, const AstSelectItem *it, int idx)
{
    if (it->alias)
        return it->alias;
    if (it->expr->kind == AST_COLREF)
        return it->expr->name;
    if (it->expr->kind == AST_FIELD)
        return it->expr->name;
    return comb_arena_printf(c->arena, "_c%d", idx);
}

static bool expr_has_aggregate(const AstExpr *e);

/* A window call aggregates its query when an aggregate is inside it:
 * rank() OVER (ORDER BY sum(x)), sum(sum(x)) OVER (). */
static bool window_has_aggregate(const AstExpr *e)
{
    const AstWindowSpec *w = e->over;
    for (int i = 0; i < e->n_args; i++)
        if (expr_has_aggregate(e->args[i]))
            return true;
    for (int i = 0; i < w->n_partition; i++)
        if (expr_has_aggregate(w->partition[i]))
            return true;
    for (int i = 0; i < w->n_order; i++)
        if (expr_has_aggregate(w->order[i].expr))
            return true;
    return false;
}

static bool expr_has_aggregate(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == AST_FUNC && e->over)
        return window_has_aggregate(e);
    if (e->kind == AST_FUNC && sql_agg_exists(e->name))
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (expr_has_aggregate(e->args[i]))
            return true;
    return expr_has_aggregate(e->left) || expr_has_aggregate(e->right) ||
           expr_has_aggregate(e->third);
}

/* "Cannot support comparison of map<> type ...": Hive's error for maps
 * (or values holding maps) where values are ordered or grouped. */
static int check_orderable(SqlStmtCtx *c, const BoundExpr *e, CombErr *err)
{
    const CombType *t = sql_bx_type(c, e);
    if (!t || sql_type_orderable(t))
        return t ? COMB_OK : comb_err_nomem(err);
    return sql_err_at(err, COMB_ESEMANTIC, 10016, e->pos,
                      "Argument type mismatch: Cannot support comparison of "
                      "map<> type or complex type containing map<>.");
}

/* An aggregate call of the items, HAVING or ORDER BY: its arguments are
 * bound over the source's rows, then func/agg.h checks it and types it.
 * The same call written twice (an item and HAVING) is one aggregate. */
static int bind_aggregate(SqlStmtCtx *c, SqlSelectPlan *p, const AstExpr *e,
                          int *agg_idx, CombErr *err)
{
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    SqlAgg *a, **grown;
    int rc;
    if (!args)
        return comb_err_nomem(err);
    if (e->distinct)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "%s(DISTINCT ...) is not supported yet", e->name);
    for (int i = 0; i < p->n_agg; i++)
        if (p->aggs[i]->text && e->text && strcasecmp(p->aggs[i]->text, e->text) == 0) {
            *agg_idx = i;
            return COMB_OK;
        }
    for (int i = 0; i < e->n_args; i++) {
        if (expr_has_aggregate(e->args[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, e->args[i]->pos,
                              "Not yet supported place for UDAF '%s'", e->name);
        if ((rc = sql_bind_expr(c, &p->sc, e->args[i], &args[i], err)))
            return rc;
    }
    if ((rc = sql_agg_bind(c, e, args, e->n_args, &a, err)))
        return rc;
    grown = comb_arena_alloc(c->arena, (size_t)(p->n_agg + 1) * sizeof *grown);
    if (!grown)
        return comb_err_nomem(err);
    if (p->n_agg)
        memcpy(grown, p->aggs, (size_t)p->n_agg * sizeof *grown);
    grown[p->n_agg] = a;
    p->aggs = grown;
    *agg_idx = p->n_agg++;
    return COMB_OK;
}

/* The GROUP BY key that e repeats (same text, or the same column name),
 * -1 if none. */
static int match_group_expr(const SqlSelectPlan *p, const AstExpr *e)
{
    for (int g = 0; g < p->n_group; g++) {
        const AstExpr *ge = p->group_ast[g];
        if (!ge)
            continue;
        if (ge->text && e->text && strcasecmp(ge->text, e->text) == 0)
            return g;
        if (ge->kind == AST_COLREF && e->kind == AST_COLREF &&
            strcmp(ge->name, e->name) == 0)
            return g;
    }
    return -1;
}

/* Scope hook of aggregate queries: GROUP BY keys and aggregate calls are
 * columns of the aggregated batch; other column references are errors
 * (bind.c), everything else is bound around them. */
static int agg_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    SqlSelectPlan *p = sc->resolve_ctx;
    int g = match_group_expr(p, e), a = 0, rc;
    if (g >= 0) {
        *out = column_node(c, g, sql_bx_type(c, p->group[g]), e->pos);
        return *out ? COMB_OK : comb_err_nomem(err);
    }
    if (e->kind != AST_FUNC || !sql_agg_exists(e->name))
        return COMB_OK;
    if ((rc = bind_aggregate(c, p, e, &a, err)))
        return rc;
    *out = column_node(c, p->n_group + a, p->aggs[a]->type, e->pos);
    return *out ? COMB_OK : comb_err_nomem(err);
}

static int plan_item(SqlStmtCtx *c, SqlSelectPlan *p, const AstSelectItem *it,
                     int idx, CombErr *err)
{
    const char *name = item_name(c, it, idx);
    BoundExpr *e = NULL;
    int rc;
    if (!name)
        return comb_err_nomem(err);
    if ((rc = sql_bind_expr(c, p->aggregate ? &p->agg_sc : &p->sc, it->expr,
                            &e, err)) ||
        (rc = add_column(c, p, name, e, err)))
        return rc;
    p->texts[p->n_cols - 1] = it->expr->text;
    return COMB_OK;
}

static int plan_group_by(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    p->n_group = s->n_group_by;
    p->group = comb_arena_calloc(c->arena, (size_t)(s->n_group_by + 1) * sizeof *p->group);
    p->group_ast = (const AstExpr **)s->group_by;
    if (!p->group)
        return comb_err_nomem(err);
    for (int g = 0; g < s->n_group_by; g++) {
        int rc;
        if (expr_has_aggregate(s->group_by[g]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, s->group_by[g]->pos,
                              "Not yet supported place for UDAF in GROUP BY");
        if ((rc = sql_bind_expr(c, &p->sc, s->group_by[g], &p->group[g], err)) ||
            (rc = check_orderable(c, p->group[g], err)))
            return rc;
    }
    return COMB_OK;
}

/* Where an ORDER BY key's NULLs go: as written, else Hive 4's
 * hive.default.nulls.last (default true: NULLS LAST ascending, NULLS
 * FIRST descending; false the other way round). */
static bool nulls_first(SqlStmtCtx *c, const AstOrderItem *o)
{
    const char *v = sql_session_get_conf(c->s, "hive.default.nulls.last");
    bool last = !(v && strcasecmp(v, "false") == 0);
    if (o->nulls)
        return o->nulls == 1;
    return o->desc ? last : !last;
}

/* hive.orderby.position.alias (default true): ORDER BY 2 is the second
 * select item (SORT BY 2 sorts by the constant, as in Hive). */
static bool order_by_position(SqlStmtCtx *c, const SqlSelectPlan *p,
                              const AstOrderItem *o)
{
    const char *on = sql_session_get_conf(c->s, "hive.orderby.position.alias");
    return o->expr->kind == AST_LIT_INT && !o->expr->lit_suffix &&
           !(on && strcasecmp(on, "false") == 0) && !p->ast->sort_by;
}

/* The output column an ORDER BY item names (alias, column name, or the
 * same expression text), -1 if none. */
static int order_output_column(const SqlSelectPlan *p, const AstExpr *e)
{
    for (int j = 0; j < p->n_out; j++) {
        const char *n = p->names[j], *dot = strchr(n, '.');
        if (e->kind == AST_COLREF &&
            (strcasecmp(n, e->name) == 0 ||
             (dot && strcasecmp(dot + 1, e->name) == 0)))
            return j;
        if (e->text && p->texts[j] && strcasecmp(p->texts[j], e->text) == 0)
            return j;
    }
    return -1;
}

/* ORDER BY item -> output column: a select-list position, an output
 * name/alias, or a hidden extra column computed like the items. */
static int plan_order_item(SqlStmtCtx *c, SqlSelectPlan *p,
                           const AstOrderItem *o, SqlSortKey *key,
                           CombErr *err)
{
    BoundExpr *e;
    int rc;
    key->desc = o->desc;
    key->nulls_first = nulls_first(c, o);
    if (order_by_position(c, p, o)) {
        if (o->expr->ival < 1 || o->expr->ival > p->n_out)
            return sql_err_at(err, COMB_ESEMANTIC, 10220, o->expr->pos,
                              "Invalid position alias in Order By: %lld is "
                              "not a position in the select list (1..%d)",
                              (long long)o->expr->ival, p->n_out);
        key->col = (int)o->expr->ival - 1;
        return COMB_OK;
    }
    if ((key->col = order_output_column(p, o->expr)) >= 0)
        return COMB_OK;
    if ((rc = sql_bind_expr(c, p->aggregate ? &p->agg_sc : &p->sc, o->expr,
                            &e, err)) ||
        (rc = add_column(c, p, o->expr->text ? o->expr->text : "", e, err)))
        return rc;
    key->col = p->n_cols - 1;
    return COMB_OK;
}

/* DISTRIBUTE BY changes no result in one process; its expressions are
 * still bound, so a wrong one is an error as in Hive. */
static int plan_distribute_by(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSortBy *sb = p->ast->sort_by;
    for (int i = 0; sb && !sb->cluster && i < sb->n_distribute; i++) {
        BoundExpr *e;
        int rc;
        if (order_output_column(p, sb->distribute[i]) < 0 &&
            (rc = sql_bind_expr(c, p->aggregate ? &p->agg_sc : &p->sc,
                                sb->distribute[i], &e, err)))
            return rc;
    }
    return COMB_OK;
}

/* ORDER BY, or SORT BY / CLUSTER BY: with one "reducer" they are the same
 * total sort. */
static int plan_order_by(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    const AstOrderItem *items = s->sort_by ? s->sort_by->sort : s->order_by;
    p->n_keys = s->sort_by ? s->sort_by->n_sort : s->n_order_by;
    p->keys = comb_arena_calloc(c->arena, (size_t)(p->n_keys + 1) * sizeof *p->keys);
    if (!p->keys)
        return comb_err_nomem(err);
    for (int k = 0; k < p->n_keys; k++) {
        int rc = plan_order_item(c, p, &items[k], &p->keys[k], err);
        if (rc || (rc = check_orderable(c, p->exprs[p->keys[k].col], err)))
            return rc;
    }
    return plan_distribute_by(c, p, err);
}

/* ----------------------------------------------------------------- FROM */

/* The output of a subquery or view as a table the outer query binds to:
 * names[j] (a star's "t.a" becomes "a") and the query's output types. */
static int derived_table(SqlStmtCtx *c, const SqlSelectPlan *q,
                         const char *const *names, const char *alias,
                         SqlTable **out, CombErr *err)
{
    SqlTable *t = comb_arena_calloc(c->arena, sizeof *t);
    int n = q->n_out;
    if (!t || !(t->names = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->names)) ||
        !(t->types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->types)) ||
        !(t->kinds = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->kinds)) ||
        !(t->lengths = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *t->lengths)))
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        const char *dot = strrchr(names[j], '.');
        t->names[j] = dot ? dot + 1 : names[j];
        t->types[j] = q->types[j];
        t->kinds[j] = q->types[j]->kind;
        t->lengths[j] = q->types[j]->max_length;
    }
    t->n_cols = t->n_data = n;
    t->kind = SQL_TABLE_VIEW;
    t->n_buckets = -1;
    t->qualified = (char *)alias;
    *out = t;
    return COMB_OK;
}

static int plan_inner(SqlStmtCtx *c, const AstSelect *q, SqlSelectPlan **out,
                      CombErr *err)
{
    int rc;
    if (c->query_depth >= MAX_QUERY_DEPTH)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, q->items[0].expr->pos,
                          "subqueries and views nested more than %d deep are "
                          "not supported", MAX_QUERY_DEPTH);
    c->query_depth++;
    rc = sql_select_plan(c, q, out, err);
    c->query_depth--;
    return rc;
}

/* FROM (subquery) alias */
static int plan_subquery(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    int rc;
    if ((rc = plan_inner(c, p->from->query, &p->inner, err)) ||
        (rc = derived_table(c, p->inner, p->inner->names, p->from->alias, &p->t,
                            err)))
        return rc;
    p->label = comb_arena_printf(c->arena, "Subquery %s", p->from->alias);
    p->sc = (SqlScope){p->t, p->from->alias, -1};
    return p->label ? COMB_OK : comb_err_nomem(err);
}

/* Hive's origin of an error inside a view (ErrorMsg.renderOrigin): the
 * view, its text, and where the outer query uses it. */
static int view_origin(CombErr *err, const SqlTable *v, const char *text,
                       const char *alias, AstPos used_at)
{
    size_t n = strlen(err->msg);
    snprintf(err->msg + n, sizeof err->msg - n,
             " in definition of VIEW %s [\n%s\n] used as %s at Line %d:%d",
             v->ms->name, text, alias, used_at.line,
             used_at.col > 0 ? used_at.col - 1 : 0);
    return err->code;
}

/* "v0 -> v1 -> ": the views being expanded, outermost first. */
static void view_chain(CombBuf *b, const SqlViewFrame *f)
{
    if (!f)
        return;
    view_chain(b, f->outer);
    comb_buf_printf(b, "%s -> ", f->view->qualified);
}

/* A view that reads itself, directly or through others (possible after
 * CREATE OR REPLACE VIEW): Hive's error naming the views expanded. */
static int view_cycle(SqlStmtCtx *c, const SqlTable *v, AstPos pos,
                      CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    const SqlViewFrame *f = c->views;
    int rc;
    while (f && strcmp(f->view->qualified, v->qualified) != 0)
        f = f->outer;
    if (!f)
        return COMB_OK;
    view_chain(&b, c->views);
    comb_buf_append_byte(&b, '\0');
    rc = sql_err_at(err, COMB_ESEMANTIC, 0, pos,
                    "Recursive view %s detected (cycle: %s%s).", v->qualified,
                    b.data ? (char *)b.data : "", v->qualified);
    comb_buf_free(&b);
    return rc;
}

/* FROM view [alias]: its stored query, bound now, as a derived table
 * named by the view's own column names. */
static int plan_view(SqlStmtCtx *c, SqlSelectPlan *p, SqlTable *v,
                     CombErr *err)
{
    const MsTable *m = v->ms;
    const char *text = m->view_expanded_text ? m->view_expanded_text
                                             : m->view_original_text;
    const char *alias = p->from->alias ? p->from->alias : m->name;
    SqlViewFrame frame = {v, c->views};
    AstStmt *q;
    int rc;
    if ((rc = view_cycle(c, v, p->from->pos, err)))
        return rc;
    rc = sql_parse_statement(text, strlen(text), c->arena, &q, err);
    if (!rc && q->kind != AST_SELECT)
        rc = comb_err(err, COMB_ECORRUPT, "the text of view %s is not a query",
                      v->qualified);
    if (!rc) {
        c->views = &frame;
        rc = plan_inner(c, q->select, &p->inner, err);
        c->views = frame.outer;
    }
    if (rc)
        return view_origin(err, v, text, alias, p->from->pos);
    if (p->inner->n_out != v->n_cols)
        return sql_err_at(err, COMB_ESEMANTIC, 0, p->from->pos,
                          "view %s has %d columns but its query now gives %d "
                          "(the tables it reads changed; CREATE OR REPLACE "
                          "VIEW defines it again)",
                          v->qualified, v->n_cols, p->inner->n_out);
    if ((rc = derived_table(c, p->inner, v->names, alias, &p->t, err)))
        return rc;
    p->label = p->from->alias
                   ? comb_arena_printf(c->arena, "View %s as %s", v->qualified, alias)
                   : comb_arena_printf(c->arena, "View %s", v->qualified);
    p->sc = (SqlScope){p->t, alias, -1};
    return p->label ? COMB_OK : comb_err_nomem(err);
}

static int plan_from(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    SqlTable *t;
    int rc;
    p->sc = (SqlScope){NULL, NULL, -1};
    if (!s->from)
        return COMB_OK;
    p->from = s->from;
    while (p->from->kind == AST_FROM_LATERAL)
        p->from = p->from->left;
    if (p->from->kind == AST_FROM_QUERY)
        return plan_subquery(c, p, err);
    if (p->from->kind != AST_FROM_TABLE || (s->from != p->from &&
                                            s->from->left->kind == AST_FROM_JOIN))
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, p->from->pos,
                          "joins are not supported yet");
    if ((rc = sql_table_resolve(c, &p->from->table, &t, err)))
        return rc;
    if (t->kind == SQL_TABLE_VIEW)
        return plan_view(c, p, t, err);
    p->t = t;
    p->sc.table = t;
    p->sc.alias = p->from->alias ? p->from->alias : t->ms->name;
    p->sc.rowid_col = t->n_cols;
    return COMB_OK;
}

/* ---------------------------------------------------------- LATERAL VIEW */

/* The scope's hook for a FROM with lateral views: a column of a lateral
 * view by its alias (lv.c) or by its name alone; anything else is bound
 * against the FROM item as usual (*out NULL). */
static int lateral_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                           BoundExpr **out, CombErr *err)
{
    const SqlSelectPlan *p = sc->query_ctx;
    if (e->kind != AST_COLREF)
        return COMB_OK;
    for (int v = 0; v < p->n_lateral; v++) {
        const SqlLateral *l = &p->laterals[v];
        bool mine = e->qualifier && strcasecmp(e->qualifier, l->ast->alias) == 0;
        if (e->qualifier && !mine)
            continue;
        for (int j = 0; j < l->u->n_cols; j++)
            if (strcasecmp(l->names[j], e->name) == 0) {
                *out = column_node(c, l->first_col + j, l->u->types[j], e->pos);
                return *out ? COMB_OK : comb_err_nomem(err);
            }
        if (mine)
            return sql_err_at(err, COMB_ESEMANTIC, 10004, e->pos,
                              "Invalid column reference '%s.%s'", e->qualifier,
                              e->name);
    }
    return COMB_OK;
}

static int udtf_names(SqlStmtCtx *c, const SqlUdtf *u, int n_aliases,
                      char *const *aliases, AstPos pos, const char ***out,
                      CombErr *err)
{
    if (n_aliases && n_aliases != u->n_cols)
        return sql_err_at(err, COMB_ESEMANTIC, 10083, pos,
                          "The number of aliases supplied in the AS clause "
                          "does not match the number of columns output by the "
                          "UDTF expected %d aliases but got %d", u->n_cols,
                          n_aliases);
    *out = n_aliases ? (const char **)aliases : u->names;
    (void)c;
    return COMB_OK;
}

/* A table function call bound over the scope. */
static int bind_udtf(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *call,
                     SqlUdtf **out, CombErr *err)
{
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(call->n_args + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    if (!sql_udtf_exists(call->name))
        return sql_err_at(err, COMB_ESEMANTIC, 10011, call->pos,
                          "Invalid function '%s' (not a table function)", call->name);
    for (int i = 0; i < call->n_args; i++) {
        if (expr_has_aggregate(call->args[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, call->args[i]->pos,
                              "Not yet supported place for UDAF");
        if ((rc = sql_bind_expr(c, sc, call->args[i], &args[i], err)))
            return rc;
    }
    return sql_udtf_bind(c, call, args, call->n_args, out, err);
}

/* The lateral views over the FROM item, innermost (first written) first;
 * each sees the item's columns and the views before it. */
static int plan_laterals(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstFrom *f = p->ast->from;
    int n = 0, width;
    for (const AstFrom *g = f; g && g->kind == AST_FROM_LATERAL; g = g->left)
        n++;
    if (!n)
        return COMB_OK;
    if (!(p->laterals = comb_arena_calloc(c->arena, (size_t)n * sizeof *p->laterals)))
        return comb_err_nomem(err);
    for (int v = n - 1; v >= 0; v--, f = f->left)
        p->laterals[v].ast = f->lateral;
    /* a table scan's rows end with the three ROW__ID columns */
    width = p->t ? p->t->n_cols + (p->inner ? 0 : 3) : 0;
    p->sc.query = lateral_resolve;
    p->sc.query_ctx = p;
    for (int v = 0; v < n; v++) {
        SqlLateral *l = &p->laterals[v];
        int rc;
        p->n_lateral = v;
        if ((rc = bind_udtf(c, &p->sc, l->ast->call, &l->u, err)) ||
            (rc = udtf_names(c, l->u, l->ast->n_cols, l->ast->cols,
                             l->ast->alias_pos, &l->names, err)))
            return rc;
        l->first_col = width;
        width += l->u->n_cols;
    }
    p->n_lateral = n;
    return COMB_OK;
}

/* SELECT f(...) [AS (a, b)] FROM ...: a table function alone in the
 * select list (Hive's rules: nothing else there, no GROUP BY, SORT BY,
 * CLUSTER BY, DISTRIBUTE BY, no lateral view). */
static bool is_udtf_item(const AstSelectItem *it)
{
    return it->expr->kind == AST_FUNC && sql_udtf_exists(it->expr->name);
}

static int plan_select_udtf(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    const AstSelectItem *it = &s->items[0];
    int rc;
    for (int i = 1; i < s->n_items; i++)
        if (is_udtf_item(&s->items[i]) || is_udtf_item(it))
            return sql_err_at(err, COMB_ESEMANTIC, 10075, s->items[i].expr->pos,
                              "Only a single expression in the SELECT clause is "
                              "supported with UDTF's");
    if (s->n_items != 1 || !is_udtf_item(it))
        return COMB_OK;
    if (p->n_lateral)
        return sql_err_at(err, COMB_ESEMANTIC, 10082, it->expr->pos,
                          "UDTF's cannot be in a select expression when there "
                          "is a lateral view");
    if (s->n_group_by)
        return sql_err_at(err, COMB_ESEMANTIC, 10077, it->expr->pos,
                          "GROUP BY is not supported with a UDTF in the SELECT "
                          "clause");
    if (s->sort_by)
        return sql_err_at(err, COMB_ESEMANTIC,
                          s->sort_by->cluster ? 10079 : s->sort_by->n_sort ? 10078 : 10080,
                          it->expr->pos, "%s is not supported with a UDTF in the "
                          "SELECT clause", s->sort_by->cluster ? "CLUSTER BY"
                          : s->sort_by->n_sort ? "SORT BY" : "DISTRUBTE BY");
    if ((rc = bind_udtf(c, &p->sc, it->expr, &p->select_udtf, err)) ||
        (rc = udtf_names(c, p->select_udtf, it->alias ? 1 : it->n_aliases,
                         it->alias ? (char *const *)&it->alias : it->aliases,
                         it->expr->pos, &p->udtf_names, err)))
        return rc;
    for (int j = 0; j < p->select_udtf->n_cols; j++) {
        BoundExpr *e = column_node(c, j, p->select_udtf->types[j], it->expr->pos);
        if (!e || (rc = add_column(c, p, p->udtf_names[j], e, err)))
            return e ? rc : comb_err_nomem(err);
    }
    return COMB_OK;
}

static int plan_where(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    int rc;
    if (!s->where)
        return COMB_OK;
    if (expr_has_aggregate(s->where))
        return sql_err_at(err, COMB_ESEMANTIC, 10128, s->where->pos,
                          "Not yet supported place for UDAF in WHERE");
    if ((rc = sql_bind_expr(c, &p->sc, s->where, &p->where, err)))
        return rc;
    if (p->where->type != COMB_T_BOOLEAN && p->where->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, p->where->pos,
                          "WHERE clause must be a boolean expression");
    return COMB_OK;
}

static bool has_star(const AstSelect *s)
{
    for (int i = 0; i < s->n_items; i++)
        if (s->items[i].expr->kind == AST_STAR)
            return true;
    return false;
}

/* SELECT DISTINCT items = GROUP BY every item: the bound items become the
 * group keys and each output column reads its own key. */
static int plan_distinct(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    if (p->aggregate)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->pos,
                          "SELECT DISTINCT with aggregates or GROUP BY is not "
                          "supported yet");
    p->aggregate = true;
    p->n_group = p->n_out;
    p->group = comb_arena_calloc(c->arena, (size_t)(p->n_out + 1) * sizeof *p->group);
    p->group_ast = comb_arena_calloc(c->arena, (size_t)(p->n_out + 1) * sizeof *p->group_ast);
    if (!p->group || !p->group_ast)
        return comb_err_nomem(err);
    for (int j = 0; j < p->n_out; j++) {
        int rc = check_orderable(c, p->exprs[j], err);
        if (rc)
            return rc;
        p->group[j] = p->exprs[j];
        /* a star's columns have no text of their own: ORDER BY finds
         * them by name among the outputs */
        p->group_ast[j] = has_star(s) ? NULL : s->items[j].expr;
        if (!(p->exprs[j] = column_node(c, j, p->types[j], p->group[j]->pos)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* ------------------------------------------------------------ windows */

static const AstNamedWindow *named_window(const AstSelect *s, const char *name)
{
    for (int i = 0; i < s->n_windows; i++)
        if (strcasecmp(s->windows[i].name, name) == 0)
            return &s->windows[i];
    return NULL;
}

/* w with its named window filled in (WINDOW w AS (...), OVER w, OVER (w
 * ORDER BY ...)): the name's PARTITION BY, ORDER BY and frame, each
 * replaced by w's own where w writes one. */
static int resolve_spec(SqlStmtCtx *c, const AstSelect *s,
                        const AstWindowSpec *w, int depth,
                        const AstWindowSpec **out, CombErr *err)
{
    const AstNamedWindow *nw;
    const AstWindowSpec *base;
    AstWindowSpec *m;
    int rc;
    if (!w->ref) {
        *out = w;
        return COMB_OK;
    }
    if (depth > s->n_windows)
        return sql_err_at(err, COMB_ESEMANTIC, 0, w->ref_pos,
                          "Cycle in Window references %s", w->ref);
    if (!(nw = named_window(s, w->ref)))
        return sql_err_at(err, COMB_ESEMANTIC, 0, w->ref_pos,
                          "Window Spec %s refers to an unknown source", w->ref);
    if ((rc = resolve_spec(c, s, nw->spec, depth + 1, &base, err)))
        return rc;
    if (!(m = comb_arena_alloc(c->arena, sizeof *m)))
        return comb_err_nomem(err);
    *m = *base;
    m->ref = NULL;
    m->pos = w->pos;
    if (w->n_partition) {
        m->n_partition = w->n_partition;
        m->partition = w->partition;
    }
    if (w->n_order) {
        m->n_order = w->n_order;
        m->order = w->order;
    }
    if (w->unit != AST_FRAME_NONE) {
        m->unit = w->unit;
        m->frame_pos = w->frame_pos;
        m->start = w->start;
        m->end = w->end;
    }
    *out = m;
    return COMB_OK;
}

static bool same_text(const AstExpr *a, const AstExpr *b)
{
    return a->text && b->text && strcasecmp(a->text, b->text) == 0;
}

/* Do two specs partition and order alike (as written)?  Their calls then
 * share one operator; frames are per call. */
static bool same_sort(const AstWindowSpec *a, const AstWindowSpec *b)
{
    if (a->n_partition != b->n_partition || a->n_order != b->n_order)
        return false;
    for (int i = 0; i < a->n_partition; i++)
        if (!same_text(a->partition[i], b->partition[i]))
            return false;
    for (int i = 0; i < a->n_order; i++)
        if (!same_text(a->order[i].expr, b->order[i].expr) ||
            a->order[i].desc != b->order[i].desc ||
            a->order[i].nulls != b->order[i].nulls)
            return false;
    return true;
}

/* PARTITION BY and ORDER BY of spec bound in scope sc. */
static int bind_sort(SqlStmtCtx *c, const SqlScope *sc,
                     const AstWindowSpec *spec, LpWindow *w, CombErr *err)
{
    int rc;
    w->n_part = spec->n_partition;
    w->n_order = spec->n_order;
    w->part = comb_arena_calloc(c->arena, (size_t)(w->n_part + 1) * sizeof *w->part);
    w->order = comb_arena_calloc(c->arena, (size_t)(w->n_order + 1) * sizeof *w->order);
    if (!w->part || !w->order)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_part; i++)
        if ((rc = sql_bind_expr(c, sc, spec->partition[i], &w->part[i], err)) ||
            (rc = check_orderable(c, w->part[i], err)))
            return rc;
    for (int i = 0; i < w->n_order; i++) {
        const AstOrderItem *o = &spec->order[i];
        if ((rc = sql_bind_expr(c, sc, o->expr, &w->order[i].expr, err)) ||
            (rc = check_orderable(c, w->order[i].expr, err)))
            return rc;
        w->order[i].desc = o->desc;
        w->order[i].nulls_first = nulls_first(c, o);
    }
    return COMB_OK;
}

/* The operator whose PARTITION BY / ORDER BY spec has, made if new. */
static int window_group(SqlStmtCtx *c, SqlSelectPlan *p, const SqlScope *sc,
                        const AstWindowSpec *spec, int *out, CombErr *err)
{
    SqlWinGroup *grown;
    int rc;
    for (int g = 0; g < p->n_win; g++)
        if (same_sort(p->wins[g].spec, spec)) {
            *out = g;
            return COMB_OK;
        }
    if (!(grown = comb_arena_calloc(c->arena, (size_t)(p->n_win + 1) * sizeof *grown)))
        return comb_err_nomem(err);
    if (p->n_win)
        memcpy(grown, p->wins, (size_t)p->n_win * sizeof *grown);
    p->wins = grown;
    grown[p->n_win].spec = spec;
    if ((rc = bind_sort(c, sc, spec, &grown[p->n_win].w, err)))
        return rc;
    *out = p->n_win++;
    return COMB_OK;
}

static int group_add_call(SqlStmtCtx *c, SqlWinGroup *g, SqlWinCall *call,
                          CombErr *err)
{
    LpWindow *w = &g->w;
    SqlWinCall **calls = comb_arena_alloc(c->arena, (size_t)(w->n_calls + 1) * sizeof *calls);
    const char **names = comb_arena_alloc(c->arena, (size_t)(w->n_calls + 1) * sizeof *names);
    if (!calls || !names)
        return comb_err_nomem(err);
    if (w->n_calls) {
        memcpy(calls, w->calls, (size_t)w->n_calls * sizeof *calls);
        memcpy(names, g->names, (size_t)w->n_calls * sizeof *names);
    }
    calls[w->n_calls] = call;
    names[w->n_calls] = call->text ? call->text : call->name;
    w->calls = calls;
    g->names = names;
    w->n_calls++;
    return COMB_OK;
}

static int add_window_ref(SqlStmtCtx *c, SqlSelectPlan *p, BoundExpr *node,
                          int group, int call, CombErr *err)
{
    SqlWinRef *grown = comb_arena_alloc(c->arena, (size_t)(p->n_win_refs + 1) * sizeof *grown);
    if (!grown)
        return comb_err_nomem(err);
    if (p->n_win_refs)
        memcpy(grown, p->win_refs, (size_t)p->n_win_refs * sizeof *grown);
    grown[p->n_win_refs++] = (SqlWinRef){node, group, call};
    p->win_refs = grown;
    return COMB_OK;
}

/* Scope hook for window calls in the items and ORDER BY: the call is
 * bound (its spec and arguments in the same scope, where another window
 * call is an error) into the operator of its spec, and read as that
 * operator's output column. */
static int window_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                          BoundExpr **out, CombErr *err)
{
    SqlSelectPlan *p = sc->window_ctx;
    SqlScope in = *sc;
    const AstWindowSpec *spec;
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    SqlWinCall *call;
    const LpWindow *w;
    int g, rc;
    in.window = NULL;
    if (!args)
        return comb_err_nomem(err);
    if ((rc = resolve_spec(c, p->ast, e->over, 0, &spec, err)) ||
        (rc = window_group(c, p, &in, spec, &g, err)))
        return rc;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = sql_bind_expr(c, &in, e->args[i], &args[i], err)))
            return rc;
    w = &p->wins[g].w;
    if ((rc = sql_window_bind(c, e, spec, w->n_order,
                              w->n_order == 1 ? sql_bx_type(c, w->order[0].expr) : NULL,
                              args, e->n_args, &call, err)) ||
        (rc = group_add_call(c, &p->wins[g], call, err)))
        return rc;
    if (!(*out = column_node(c, -1, call->type, e->pos)))
        return comb_err_nomem(err);
    return add_window_ref(c, p, *out, g, w->n_calls - 1, err);
}

/* Window calls are allowed in the items and ORDER BY only. */
static void allow_windows(SqlSelectPlan *p, bool on)
{
    p->sc.window = p->agg_sc.window = on ? window_resolve : NULL;
    p->sc.window_ctx = p->agg_sc.window_ctx = p;
}

static int plan_having(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstExpr *h = p->ast->having;
    int rc;
    if (!h)
        return COMB_OK;
    if (!p->aggregate)
        return sql_err_at(err, COMB_ESEMANTIC, 10025, h->pos,
                          "HAVING needs GROUP BY or an aggregate");
    if ((rc = sql_bind_expr(c, &p->agg_sc, h, &p->having, err)))
        return rc;
    if (p->having->type != COMB_T_BOOLEAN && p->having->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, p->having->pos,
                          "HAVING clause must be a boolean expression");
    return COMB_OK;
}

int sql_select_plan(SqlStmtCtx *c, const AstSelect *s, SqlSelectPlan **out,
                    CombErr *err)
{
    SqlSelectPlan *p = comb_arena_calloc(c->arena, sizeof *p);
    int rc;
    if (!p)
        return comb_err_nomem(err);
    if (s->setop || s->n_with || s->grouping || s->offset)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, s->pos,
                          "set operations, WITH, grouping sets and LIMIT "
                          "offsets are not supported yet");
    p->ast = s;
    p->limit = s->limit;
    if ((rc = plan_from(c, p, err)) || (rc = plan_laterals(c, p, err)) ||
        (rc = plan_where(c, p, err)) || (rc = plan_select_udtf(c, p, err)))
        return rc;
    p->agg_sc = (SqlScope){NULL, NULL, -1, agg_resolve, p};
    p->aggregate = s->n_group_by > 0;
    for (int i = 0; i < s->n_items; i++)
        p->aggregate |= expr_has_aggregate(s->items[i].expr);
    if (p->aggregate && (rc = plan_group_by(c, p, err)))
        return rc;
    if (s->distinct && has_star(s) && s->n_items > 1)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, s->items[0].expr->pos,
                          "SELECT DISTINCT with '*' among other items is not "
                          "supported yet");
    allow_windows(p, true);
    for (int i = 0; i < s->n_items && !p->select_udtf; i++) {
        const AstSelectItem *it = &s->items[i];
        if (it->expr->kind == AST_STAR && !p->aggregate)
            rc = expand_star(c, p, it->expr, err);
        else if (it->expr->kind == AST_STAR)
            rc = sql_err_at(err, COMB_ESEMANTIC, 10025, it->expr->pos,
                            "'*' cannot be used with GROUP BY or aggregates");
        else
            rc = plan_item(c, p, it, i, err);
        if (rc)
            return rc;
    }
    p->n_out = p->n_cols;
    allow_windows(p, false);
    if (s->distinct && p->n_win)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, s->items[0].expr->pos,
                          "SELECT DISTINCT with window functions is not "
                          "supported yet");
    if ((s->distinct && (rc = plan_distinct(c, p, err))) ||
        (rc = plan_having(c, p, err)))
        return rc;
    allow_windows(p, true);
    if ((rc = plan_order_by(c, p, err)))
        return rc;
    allow_windows(p, false);
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

int sql_select_coerce(SqlStmtCtx *c, SqlSelectPlan *p, const int *map,
                      const SqlTable *t, CombErr *err)
{
    for (int j = 0; j < p->n_out; j++) {
        int col = map[j], rc;
        if ((rc = sql_bind_assign(c, p->exprs[j], t, col, &p->exprs[j], err)))
            return rc;
        p->kinds[j] = t->kinds[col];
        p->types[j] = t->types[col];
    }
    return COMB_OK;
}

/* -------------------------------------------------------- operator tree */

static int build_source(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **out,
                        CombErr *err)
{
    int rc;
    if (p->inner) {
        if ((rc = sql_select_build(c, p->inner, out, err)))
            return rc;
        (*out)->label = p->label;
        return COMB_OK;
    }
    return p->t ? sql_op_scan(c, p->t, out, err) : sql_op_one_row(c, out, err);
}

/* WHERE: each conjunct goes as low as the source takes it (a table scan
 * takes all: its filter, which prunes partitions); the rest is a Filter. */
static int build_where(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **top,
                       CombErr *err)
{
    BoundExpr *left = NULL;
    if (!p->where)
        return COMB_OK;
    for (int i = 0; i < sql_bx_conjuncts(p->where); i++) {
        BoundExpr *e = sql_bx_conjunct(p->where, i);
        if (!sql_op_push_filter(*top, e) && !(left = sql_bx_and(c, left, e)))
            return comb_err_nomem(err);
    }
    return left ? sql_op_filter(c, *top, left, top, err) : COMB_OK;
}

/* The names of the aggregated batch's columns: keys as written, then the
 * aggregate calls. */
static const char **aggregate_names(SqlStmtCtx *c, const SqlSelectPlan *p)
{
    const char **names = comb_arena_alloc(c->arena, (size_t)(p->n_group + p->n_agg + 1) * sizeof *names);
    for (int g = 0; names && g < p->n_group; g++)
        names[g] = p->group_ast[g] && p->group_ast[g]->text ? p->group_ast[g]->text
                                                            : p->names[g];
    for (int a = 0; names && a < p->n_agg; a++)
        names[p->n_group + a] = p->aggs[a]->text ? p->aggs[a]->text : "?";
    return names;
}

/* Above the items: ORDER BY or SORT BY / CLUSTER BY (only the visible
 * columns leave the sort), LIMIT. */
static int plan_tail(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **top,
                     CombErr *err)
{
    int rc = COMB_OK;
    if (p->n_keys)
        rc = sql_op_sort(c, *top, p->keys, p->n_keys, p->n_out, top, err);
    if (!rc && p->limit >= 0)
        rc = sql_op_limit(c, *top, p->limit, top, err);
    return rc;
}

/* One Window operator per spec over the aggregated (or source) rows;
 * each adds its calls' columns, so a call's result is column base + the
 * calls before it. */
static int build_windows(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **top,
                         CombErr *err)
{
    int *first = comb_arena_alloc(c->arena, (size_t)(p->n_win + 1) * sizeof *first);
    if (!first)
        return comb_err_nomem(err);
    for (int g = 0; g < p->n_win; g++) {
        int rc;
        first[g] = (*top)->n_cols;
        if ((rc = sql_op_window(c, *top, &p->wins[g].w, p->wins[g].names, top, err)))
            return rc;
    }
    for (int r = 0; r < p->n_win_refs; r++)
        p->win_refs[r].node->col = first[p->win_refs[r].group] + p->win_refs[r].call;
    return COMB_OK;
}

int sql_select_build(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **root,
                     CombErr *err)
{
    SqlOp *top;
    const char **names;
    int rc;
    if (p->root) {
        *root = p->root;
        return COMB_OK;
    }
    if ((rc = build_source(c, p, &top, err)))
        return rc;
    for (int v = 0; v < p->n_lateral; v++)
        if ((rc = sql_op_lateral(c, top, p->laterals[v].u, p->laterals[v].ast->outer,
                                 true, p->laterals[v].names, &top, err)))
            return rc;
    if ((rc = build_where(c, p, &top, err)))
        return rc;
    if (p->select_udtf &&
        (rc = sql_op_lateral(c, top, p->select_udtf, false, false, p->udtf_names,
                             &top, err)))
        return rc;
    if (p->aggregate) {
        if (!(names = aggregate_names(c, p)))
            return comb_err_nomem(err);
        if ((rc = sql_op_aggregate(c, top, p->n_group, p->group, p->n_agg,
                                   p->aggs, names, &top, err)) ||
            (p->having && (rc = sql_op_filter(c, top, p->having, &top, err))))
            return rc;
    }
    if ((rc = build_windows(c, p, &top, err)) ||
        (rc = sql_op_project(c, top, p->n_cols, p->exprs, p->names, p->types,
                             &top, err)) ||
        (rc = plan_tail(c, p, &top, err)))
        return rc;
    p->root = *root = top;
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
    (void)c;
    for (;;) {
        const CombBatch *b;
        CombBatch view;
        int rc = sql_op_next(p->root, &b, err);
        if (rc || !b)
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
    if ((rc = sql_select_plan(c, c->stmt->select, &p, err)))
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
