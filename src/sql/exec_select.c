/*
 * exec_select.c - SELECT: plan (expand *, bind items, WHERE, GROUP BY,
 * ORDER BY, LIMIT) and run.
 *
 * Without aggregation or ORDER BY, batches stream from the scan through the
 * projection to the sink with no copy (the output batch shares the
 * expression vectors and the scan's selection).  ORDER BY materializes
 * rows in a row store and sorts them (ascending NULLS LAST, descending
 * NULLS FIRST, as Hive 4); GROUP BY / aggregates hash the groups.
 *
 * An aggregate query runs in two steps.  The GROUP BY keys and the
 * arguments of the aggregate calls are evaluated over the scanned rows and
 * folded into a hash table of groups; the groups then form an "aggregated
 * batch" (keys first, then one column per aggregate call) over which the
 * select items, HAVING and ORDER BY are evaluated.  So the items are bound
 * in a scope (agg_resolve) where a GROUP BY key or an aggregate call is a
 * column of that batch: `upper(s)`, `count(*) * 2`, `sum(x) / count(x)`.
 * SELECT DISTINCT is a GROUP BY of all items.
 */
#include "sql/sql_int.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "sql/rowstore.h"

typedef enum AggFn { AGG_COUNT, AGG_SUM, AGG_MIN, AGG_MAX, AGG_AVG } AggFn;

typedef struct AggSpec {
    AggFn fn;
    BoundExpr *arg;          /* NULL for count(*) */
    const CombType *type;    /* result type */
} AggSpec;

typedef struct AggState {
    int64_t count;
    int64_t isum;
    double dsum;
    comb_i128 decsum;        /* sum/avg of decimals, at the argument's scale */
    bool overflow;           /* decsum left 38 digits: the result is NULL */
    SqlDatum best;           /* min / max */
} AggState;

struct SqlSelectPlan {
    const AstSelect *ast;
    SqlTable *t;             /* NULL without FROM */
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
    BoundExpr **group;       /* over the scanned rows */
    const CombType **gtypes; /* each key's type */
    const AstExpr **group_ast; /* what each key was written as */
    int n_agg;
    AggSpec *aggs;
    SqlScope agg_sc;         /* items of an aggregate query (agg_resolve) */
    BoundExpr *having;       /* over the aggregated batch */
    int n_keys;
    SqlSortKey *keys;
    int64_t limit;
    bool need_rowid;
    SqlScan scan;
    bool scan_open;
    CombVector *view;        /* output batch columns (streaming) */
    CombVector **col_out;    /* column vectors to materialize (sorting) */
};

/* ------------------------------------------------------------- planning */

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
        char *name = comb_arena_printf(c->arena, "%s.%s", p->sc.alias,
                                       p->t->names[i]);
        int rc;
        if (!e || !name)
            return comb_err_nomem(err);
        if ((rc = add_column(c, p, name, e, err)))
            return rc;
    }
    return COMB_OK;
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

static bool expr_has_aggregate(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == AST_FUNC && sql_is_aggregate(e->name))
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

/* Result types of the aggregates (GenericUDAFCount/Sum/Average/Min/Max):
 * sum of integers BIGINT, of floats, doubles and timestamps DOUBLE, of
 * decimal(p,s) decimal(min(38, p + 10), s); avg DOUBLE, of decimal(p,s)
 * decimal(p - s + s', s') with s' = min(s + 4, 38 - (p - s)); min and max
 * the argument's type. */
static int aggregate_type(SqlStmtCtx *c, const AstExpr *e, AggSpec *a,
                          CombErr *err)
{
    const BoundExpr *x = a->arg;
    int p, sc, int_part;
    if (x && (a->fn == AGG_SUM || a->fn == AGG_AVG) &&
        !sql_is_number(x->type) && x->type != COMB_T_TIMESTAMP &&
        x->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, e->pos,
                          "Wrong arguments for '%s': expected a number",
                          e->name);
    switch (a->fn) {
    case AGG_COUNT:
        a->type = sql_kind_type(COMB_T_BIGINT);
        break;
    case AGG_SUM:
    case AGG_AVG:
        if (x->type != COMB_T_DECIMAL) {
            a->type = sql_kind_type(a->fn == AGG_SUM && (sql_is_number(x->type) ||
                                                         x->type == COMB_T_NULL) &&
                                            !comb_type_is_float(x->type)
                                        ? COMB_T_BIGINT : COMB_T_DOUBLE);
            break;
        }
        p = (int)x->ctype->precision;
        sc = (int)x->ctype->scale;
        int_part = p - sc;
        if (a->fn == AGG_SUM)
            a->type = sql_decimal_type(c, p + 10 < 38 ? p + 10 : 38, sc);
        else {
            sc = sc + 4 < 38 - int_part ? sc + 4 : 38 - int_part;
            a->type = sql_decimal_type(c, int_part + sc, sc);
        }
        break;
    default:
        if (x->type == COMB_T_NULL) {
            a->type = sql_kind_type(COMB_T_STRING);
            break;
        }
        if (check_orderable(c, x, err))
            return COMB_ESEMANTIC;
        a->type = sql_bx_type(c, x);
        break;
    }
    return a->type ? COMB_OK : comb_err_nomem(err);
}

static int bind_aggregate(SqlStmtCtx *c, SqlSelectPlan *p, const AstExpr *e,
                          int *agg_idx, CombErr *err)
{
    static const struct { const char *name; AggFn fn; } fns[] = {
        {"count", AGG_COUNT}, {"sum", AGG_SUM}, {"min", AGG_MIN},
        {"max", AGG_MAX}, {"avg", AGG_AVG}};
    AggSpec a = {0};
    AggSpec *grown;
    int rc;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(fns[i].name, e->name) == 0)
            a.fn = fns[i].fn;
    if (e->distinct)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                          "%s(DISTINCT ...) is not supported yet", e->name);
    if (e->star_arg && a.fn != AGG_COUNT)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "'*' is only allowed in count(*)");
    if (!e->star_arg && e->n_args != 1)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "Arguments length mismatch for '%s'", e->name);
    if (!e->star_arg) {
        if (expr_has_aggregate(e->args[0]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, e->pos,
                              "Not yet supported place for UDAF '%s'", e->name);
        if ((rc = sql_bind_expr(c, &p->sc, e->args[0], &a.arg, err)))
            return rc;
    }
    if ((rc = aggregate_type(c, e, &a, err)))
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
    if (e->kind != AST_FUNC || !sql_is_aggregate(e->name))
        return COMB_OK;
    if ((rc = bind_aggregate(c, p, e, &a, err)))
        return rc;
    *out = column_node(c, p->n_group + a, p->aggs[a].type, e->pos);
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

static int group_types(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    p->gtypes = comb_arena_calloc(c->arena, (size_t)(p->n_group + 1) * sizeof *p->gtypes);
    if (!p->gtypes)
        return comb_err_nomem(err);
    for (int g = 0; g < p->n_group; g++)
        if (!(p->gtypes[g] = sql_bx_type(c, p->group[g])))
            return comb_err_nomem(err);
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
    return group_types(c, p, err);
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
    key->nulls_first = o->nulls == 1 || (o->nulls == 0 && o->desc);
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
        (rc = add_column(c, p, "", e, err)))
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

static int plan_from(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    const AstSelect *s = p->ast;
    int rc;
    p->sc = (SqlScope){NULL, NULL, -1};
    if (!s->has_from)
        return COMB_OK;
    if ((rc = sql_table_resolve(c, &s->from, &p->t, err)))
        return rc;
    p->sc.table = p->t;
    p->sc.alias = s->from_alias ? s->from_alias : p->t->ms->name;
    p->sc.rowid_col = p->t->n_cols;
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

static bool plan_uses_rowid(const BoundExpr *e, int rowid_col)
{
    if (!e)
        return false;
    if ((e->kind == BX_COL && rowid_col >= 0 && e->col >= rowid_col) ||
        e->kind == BX_ROWID)
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (plan_uses_rowid(e->args[i], rowid_col))
            return true;
    return plan_uses_rowid(e->a, rowid_col) || plan_uses_rowid(e->b, rowid_col) ||
           plan_uses_rowid(e->c, rowid_col);
}

/* Only expressions over the scanned rows can read ROW__ID; the items of
 * an aggregate query read the aggregated batch. */
static void plan_rowid_need(SqlSelectPlan *p)
{
    int rc = p->sc.rowid_col;
    p->need_rowid = plan_uses_rowid(p->where, rc);
    for (int j = 0; j < p->n_cols && !p->aggregate; j++)
        p->need_rowid |= plan_uses_rowid(p->exprs[j], rc);
    for (int g = 0; g < p->n_group; g++)
        p->need_rowid |= plan_uses_rowid(p->group[g], rc);
    for (int a = 0; a < p->n_agg; a++)
        p->need_rowid |= plan_uses_rowid(p->aggs[a].arg, rc);
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
    return group_types(c, p, err);
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
    p->ast = s;
    p->limit = s->limit;
    if ((rc = plan_from(c, p, err)) || (rc = plan_where(c, p, err)))
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
    for (int i = 0; i < s->n_items; i++) {
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
    if ((s->distinct && (rc = plan_distinct(c, p, err))) ||
        (rc = plan_having(c, p, err)) || (rc = plan_order_by(c, p, err)))
        return rc;
    plan_rowid_need(p);
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

/* ------------------------------------------------------------- execution */

static int prepare_all(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    int rc;
    p->view = comb_arena_alloc(c->arena, (size_t)(p->n_cols + 1) * sizeof *p->view);
    p->col_out = comb_arena_alloc(c->arena, (size_t)(p->n_cols + 1) * sizeof *p->col_out);
    if (!p->view || !p->col_out)
        return comb_err_nomem(err);
    for (int j = 0; j < p->n_cols; j++)
        if ((rc = sql_expr_prepare(p->exprs[j], c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    for (int g = 0; g < p->n_group; g++)
        if ((rc = sql_expr_prepare(p->group[g], c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    for (int a = 0; a < p->n_agg; a++)
        if ((rc = sql_expr_prepare(p->aggs[a].arg, c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    return sql_expr_prepare(p->having, c->arena, COMB_BATCH_SIZE, err);
}

/* Projection pushdown: the scan decodes only the columns the query reads
 * (count(*) reads none). */
static void plan_sql_expr_mark_columns(const SqlSelectPlan *p, bool *project)
{
    int n = p->t->n_cols;
    sql_expr_mark_columns(p->where, n, project);
    for (int j = 0; j < p->n_cols && !p->aggregate; j++)
        sql_expr_mark_columns(p->exprs[j], n, project);
    for (int g = 0; g < p->n_group; g++)
        sql_expr_mark_columns(p->group[g], n, project);
    for (int a = 0; a < p->n_agg; a++)
        sql_expr_mark_columns(p->aggs[a].arg, n, project);
}

int sql_select_open(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err)
{
    int rc;
    if (p->t) {
        bool *project = comb_arena_calloc(c->arena, (size_t)p->t->n_cols + 1);
        if (!project)
            return comb_err_nomem(err);
        plan_sql_expr_mark_columns(p, project);
        if ((rc = sql_scan_open(c, p->t, project, p->need_rowid, p->where,
                                &p->scan, err)))
            return rc;
        p->scan_open = true;
        if (p->where &&
            (rc = sql_expr_prepare(p->where, c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    } else if ((rc = sql_txn_begin(c, err))) {
        return rc;
    }
    return prepare_all(c, p, err);
}

void sql_select_close(SqlSelectPlan *p)
{
    if (!p)
        return;
    if (p->scan_open)
        sql_scan_close(&p->scan);
    p->scan_open = false;
    for (int j = 0; j < p->n_cols; j++)
        sql_expr_release(p->exprs[j]);
    for (int g = 0; g < p->n_group; g++)
        sql_expr_release(p->group[g]);
    for (int a = 0; a < p->n_agg; a++)
        sql_expr_release(p->aggs[a].arg);
    sql_expr_release(p->having);
}

/* Input batches: the scan's, or one empty row when there is no FROM. */
typedef struct Source {
    SqlSelectPlan *p;
    CombBatch single;
    bool single_done;
} Source;

static int source_next(Source *src, CombBatch **b, CombErr *err)
{
    SqlSelectPlan *p = src->p;
    bool done;
    int rc;
    if (p->t) {
        if ((rc = sql_scan_next(&p->scan, &done, err)))
            return rc;
        *b = done ? NULL : &p->scan.batch;
        return COMB_OK;
    }
    if (src->single_done) {
        *b = NULL;
        return COMB_OK;
    }
    src->single_done = true;
    src->single.n_rows = 1;
    if (p->where) {
        if ((rc = sql_filter_batch(p->where, &src->single, err)))
            return rc;
    }
    *b = &src->single;
    return COMB_OK;
}

static int eval_columns(SqlSelectPlan *p, const CombBatch *b, CombErr *err)
{
    for (int j = 0; j < p->n_cols; j++) {
        int rc;
        if (p->exprs[j] && (rc = sql_expr_eval(p->exprs[j], b, err)))
            return rc;
    }
    return COMB_OK;
}

/* Emit the projected live rows of b, at most *left of them. */
static int stream_batch(SqlSelectPlan *p, const CombBatch *b, int64_t *left,
                        const SqlSink *sink, CombErr *err)
{
    CombBatch view = *b;
    int live = comb_batch_live(b);
    for (int j = 0; j < p->n_out; j++)
        p->view[j] = *p->exprs[j]->out;
    view.n_cols = p->n_out;
    view.cols = p->view;
    if (*left >= 0 && live > *left) {
        if (!view.use_sel) {
            for (int i = 0; i < *left; i++)
                view.sel[i] = (uint16_t)i;
            view.use_sel = true;
        }
        view.n_sel = (int)*left;
        live = (int)*left;
    }
    if (*left >= 0)
        *left -= live;
    return sink->batch ? sink->batch(sink->ctx, &view, err) : COMB_OK;
}

static int run_stream(Source *src, const SqlSink *sink, CombErr *err)
{
    SqlSelectPlan *p = src->p;
    int64_t left = p->limit;
    int rc = COMB_OK;
    while (!rc && left != 0) {
        CombBatch *b;
        if ((rc = source_next(src, &b, err)) || !b)
            break;
        if (comb_batch_live(b) == 0)
            continue;
        if (!(rc = eval_columns(p, b, err)))
            rc = stream_batch(p, b, &left, sink, err);
    }
    return rc;
}

static int run_sorted(Source *src, const SqlSink *sink, CombErr *err)
{
    SqlSelectPlan *p = src->p;
    SqlRowStore rs;
    int rc = COMB_OK;
    if (sql_rows_init_types(&rs, p->n_cols, p->types))
        return comb_err_nomem(err);
    while (!rc) {
        CombBatch *b;
        if ((rc = source_next(src, &b, err)) || !b)
            break;
        if (comb_batch_live(b) == 0 || (rc = eval_columns(p, b, err)))
            continue;
        for (int j = 0; j < p->n_cols; j++)
            p->col_out[j] = p->exprs[j]->out;
        rc = sql_rows_append(&rs, p->col_out, b, err);
    }
    if (!rc) {
        sql_rows_sort(&rs, p->keys, p->n_keys);
        rc = sql_rows_emit(&rs, p->n_out, p->limit, sink, err);
    }
    sql_rows_free(&rs);
    return rc;
}

static int run_aggregate(Source *src, const SqlSink *sink, CombErr *err);

int sql_select_run(SqlStmtCtx *c, SqlSelectPlan *p, const SqlSink *sink,
                   CombErr *err)
{
    Source src = {p};
    CombTypeKind none = COMB_T_INT;
    int rc;
    (void)c;
    if (!p->t && comb_batch_init(&src.single, 1, &none, 1))
        return comb_err_nomem(err);
    if (p->aggregate)
        rc = run_aggregate(&src, sink, err);
    else if (p->n_keys)
        rc = run_sorted(&src, sink, err);
    else
        rc = run_stream(&src, sink, err);
    if (!p->t)
        comb_batch_free(&src.single);
    return rc;
}

/* ------------------------------------------------------------ aggregation */

typedef struct GroupTable {
    SqlRowStore groups;      /* group key datums, one row per group */
    AggState **states;       /* per group: n_agg states */
    int64_t *slots;          /* open addressing: group index + 1, 0 empty */
    uint64_t *hashes;        /* hash per group */
    int64_t n_slots;
} GroupTable;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

/* A hash of one value; values equal in Hive's grouping hash equally. */
static uint64_t hash_value(uint64_t h, const CombVector *v, int row)
{
    if (comb_vec_is_null(v, row))
        return hash_bytes(h, "N", 1);
    switch (v->kind) {
    case COMB_T_LIST:
    case COMB_T_MAP:
        h = hash_bytes(h, &v->len[row], sizeof v->len[row]);
        for (uint32_t k = 0; k < v->len[row]; k++)
            for (int part = 0; part < v->n_children; part++)
                h = hash_value(h, &v->children[part], (int)(v->off[row] + k));
        return h;
    case COMB_T_STRUCT:
        for (int k = 0; k < v->n_children; k++)
            h = hash_value(h, &v->children[k], row);
        return h;
    case COMB_T_UNION:
        h = hash_bytes(h, &v->tag[row], 1);
        return hash_value(h, &v->children[v->tag[row]], row);
    default:
        break;
    }
    if (v->i64)
        h = hash_bytes(h, &v->i64[row], 8);
    if (v->nanos)
        h = hash_bytes(h, &v->nanos[row], sizeof v->nanos[row]);
    if (v->dec)
        h = hash_bytes(h, &v->dec[row], sizeof v->dec[row]);
    if (v->f64) {
        /* equal in Double.compare order = equal bits, once every NaN
         * is the same NaN */
        double d = isnan(v->f64[row]) ? NAN : v->f64[row];
        h = hash_bytes(h, &d, 8);
    }
    if (v->str)
        h = hash_bytes(h, v->str[row].ptr, v->str[row].len);
    return h;
}

static uint64_t hash_key(const SqlSelectPlan *p, int row)
{
    uint64_t h = 14695981039346656037ULL;
    for (int g = 0; g < p->n_group; g++)
        h = hash_value(h, p->group[g]->out, row);
    return h;
}

static bool key_equals(const SqlSelectPlan *p, const SqlDatum *key, int row,
                       CombArena *scratch)
{
    for (int g = 0; g < p->n_group; g++) {
        SqlDatum d;
        const CombVector *v = p->group[g]->out;
        /* strings compare in place: datum_read copies only into scratch */
        if (comb_vec_is_null(v, row) != key[g].null)
            return false;
        if (key[g].null)
            continue;
        if (v->str) {
            memset(&d, 0, sizeof d);
            d.s = v->str[row];
        } else if (sql_datum_read(&d, v, row, scratch)) {
            return false;
        }
        if (sql_datum_cmp(p->gtypes[g], &key[g], &d) != 0)
            return false;
    }
    return true;
}

static int table_grow(GroupTable *gt, CombErr *err)
{
    int64_t n = gt->n_slots ? gt->n_slots * 2 : 1024;
    int64_t *slots = comb_calloc((size_t)n, sizeof *slots);
    if (!slots)
        return comb_err_nomem(err);
    for (int64_t gi = 0; gi < gt->groups.n_rows; gi++) {
        int64_t s = (int64_t)(gt->hashes[gi] & (uint64_t)(n - 1));
        while (slots[s])
            s = (s + 1) & (n - 1);
        slots[s] = gi + 1;
    }
    comb_free(gt->slots);
    gt->slots = slots;
    gt->n_slots = n;
    return COMB_OK;
}

static int group_new(const SqlSelectPlan *p, GroupTable *gt, int row,
                     uint64_t h, int64_t *gi, CombErr *err)
{
    SqlDatum *key;
    int64_t n = gt->groups.n_rows;
    int rc;
    if ((n & (n - 1)) == 0 || n == 0) {
        size_t cap = n ? (size_t)n * 2 : 1;
        AggState **st = comb_realloc(gt->states, cap * sizeof *st);
        uint64_t *hs = comb_realloc(gt->hashes, cap * sizeof *hs);
        if (st)
            gt->states = st;
        if (hs)
            gt->hashes = hs;
        if (!st || !hs)
            return comb_err_nomem(err);
    }
    if ((rc = sql_rows_add(&gt->groups, &key, err)))
        return rc;
    for (int g = 0; g < p->n_group; g++)
        if (sql_datum_read(&key[g], p->group[g]->out, row, &gt->groups.arena))
            return comb_err_nomem(err);
    gt->states[n] = comb_arena_calloc(&gt->groups.arena,
                                      (size_t)(p->n_agg + 1) * sizeof(AggState));
    if (!gt->states[n])
        return comb_err_nomem(err);
    for (int a = 0; a < p->n_agg; a++)
        gt->states[n][a].best.null = true;
    gt->hashes[n] = h;
    *gi = n;
    return COMB_OK;
}

static int group_find(const SqlSelectPlan *p, GroupTable *gt, int row,
                      CombArena *scratch, int64_t *gi, CombErr *err)
{
    uint64_t h = hash_key(p, row);
    int64_t s;
    int rc;
    if ((gt->groups.n_rows + 1) * 2 > gt->n_slots && (rc = table_grow(gt, err)))
        return rc;
    s = (int64_t)(h & (uint64_t)(gt->n_slots - 1));
    while (gt->slots[s]) {
        int64_t cand = gt->slots[s] - 1;
        if (gt->hashes[cand] == h &&
            key_equals(p, gt->groups.rows[cand], row, scratch)) {
            *gi = cand;
            return COMB_OK;
        }
        s = (s + 1) & (gt->n_slots - 1);
    }
    if ((rc = group_new(p, gt, row, h, gi, err)))
        return rc;
    gt->slots[s] = *gi + 1;
    return COMB_OK;
}

/* sum and avg: integers wrap (and count as doubles for avg), doubles and
 * timestamps (their seconds as a double) add as doubles, decimals add
 * exactly until they leave 38 digits (the result is then NULL, as Hive's
 * HiveDecimalWritable.mutateAdd). */
static void agg_add(AggState *st, const CombVector *v, int row)
{
    if (v->dec) {
        if (!st->overflow && !comb_dec_add(st->decsum, v->dec[row], &st->decsum))
            st->overflow = true;
    } else if (v->f64) {
        st->dsum += v->f64[row];
    } else if (v->nanos) {
        st->dsum += (double)v->i64[row] + (double)v->nanos[row] / 1e9;
    } else {
        st->isum = (int64_t)((uint64_t)st->isum + (uint64_t)v->i64[row]);
        st->dsum += (double)v->i64[row];
    }
}

/* min and max: strings compare in place and are copied only when kept;
 * other values are read into scratch first (complex ones have parts). */
static int agg_best(const AggSpec *a, AggState *st, const CombVector *v,
                    int row, CombArena *arena, CombArena *scratch)
{
    SqlDatum d;
    int cmp;
    memset(&d, 0, sizeof d);
    if (v->str)
        d.s = v->str[row];
    else if (sql_datum_read(&d, v, row, scratch))
        return COMB_ENOMEM;
    cmp = st->best.null ? 0 : sql_datum_cmp(a->type, &d, &st->best);
    if (st->best.null || (a->fn == AGG_MIN ? cmp < 0 : cmp > 0)) {
        if (sql_datum_read(&d, v, row, arena))
            return COMB_ENOMEM;
        st->best = d;
    }
    return COMB_OK;
}

static int agg_update(const AggSpec *a, AggState *st, int row,
                      CombArena *arena, CombArena *scratch)
{
    const CombVector *v;
    if (!a->arg) {
        st->count++;
        return COMB_OK;
    }
    v = a->arg->out;
    if (comb_vec_is_null(v, row))
        return COMB_OK;
    st->count++;
    switch (a->fn) {
    case AGG_SUM:
    case AGG_AVG:
        agg_add(st, v, row);
        return COMB_OK;
    case AGG_MIN:
    case AGG_MAX:
        return agg_best(a, st, v, row, arena, scratch);
    default:
        return COMB_OK;
    }
}

/* The sum or average of decimals as a value of the result's type
 * (HiveDecimal.divide, then enforcePrecisionScale): NULL when the sum left
 * 38 digits or the result does not fit. */
static void decimal_final(const AggSpec *a, const AggState *st, SqlDatum *out)
{
    int from = (int)a->arg->ctype->scale, to = (int)a->type->scale;
    bool ok = !st->overflow &&
              (a->fn == AGG_SUM
                   ? comb_dec_rescale(st->decsum, from, to, &out->dec)
                   : sql_dec_arith(AST_OP_DIV, st->decsum, from, st->count, 0,
                                   (int)a->type->precision, to, &out->dec));
    out->null = !ok || !comb_dec_fits(out->dec, (int)a->type->precision);
}

static void agg_final(const AggSpec *a, const AggState *st, SqlDatum *out)
{
    memset(out, 0, sizeof *out);
    switch (a->fn) {
    case AGG_COUNT:
        out->i = st->count;
        return;
    case AGG_SUM:
    case AGG_AVG:
        out->null = st->count == 0;
        if (out->null)
            return;
        if (a->type->kind == COMB_T_DECIMAL)
            decimal_final(a, st, out);
        else if (a->fn == AGG_AVG)
            out->d = st->dsum / (double)st->count;
        else if (a->type->kind == COMB_T_DOUBLE)
            out->d = st->dsum;
        else
            out->i = st->isum;
        return;
    default:
        *out = st->best;
        return;
    }
}

static int consume_batch(SqlSelectPlan *p, GroupTable *gt, const CombBatch *b,
                         CombArena *scratch, CombErr *err)
{
    int rc;
    for (int g = 0; g < p->n_group; g++)
        if ((rc = sql_expr_eval(p->group[g], b, err)))
            return rc;
    for (int a = 0; a < p->n_agg; a++)
        if (p->aggs[a].arg && (rc = sql_expr_eval(p->aggs[a].arg, b, err)))
            return rc;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        int64_t gi;
        comb_arena_reset(scratch);
        if ((rc = group_find(p, gt, row, scratch, &gi, err)))
            return rc;
        for (int a = 0; a < p->n_agg; a++)
            if (agg_update(&p->aggs[a], &gt->states[gi][a], row,
                           &gt->groups.arena, scratch))
                return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* Fill the aggregated batch with groups [first, first + ab->capacity):
 * the keys, then the final value of each aggregate. */
/* Fill the aggregated batch with groups [first, first + ab->capacity):
 * the keys, then the final value of each aggregate. */
static int fill_aggregated(const SqlSelectPlan *p, const GroupTable *gt,
                           int64_t first, CombBatch *ab, SqlVecFill *fills)
{
    comb_batch_reset(ab);
    for (int j = 0; j < ab->n_cols; j++)
        sql_fill_reset(&fills[j]);
    for (int64_t gi = first; gi < gt->groups.n_rows && ab->n_rows < ab->capacity;
         gi++) {
        int r = ab->n_rows++;
        for (int g = 0; g < p->n_group; g++)
            if (sql_datum_fill(&fills[g], r, &gt->groups.rows[gi][g]))
                return COMB_ENOMEM;
        for (int a = 0; a < p->n_agg; a++) {
            SqlDatum d;
            agg_final(&p->aggs[a], &gt->states[gi][a], &d);
            if (sql_datum_fill(&fills[p->n_group + a], r, &d))
                return COMB_ENOMEM;
        }
    }
    return COMB_OK;
}

/* The aggregated batch (keys, then aggregates) and its fill states. */
static int aggregated_batch(const SqlSelectPlan *p, CombArena *a, CombBatch *ab,
                            SqlVecFill **fills)
{
    int n = p->n_group + p->n_agg;
    const CombType **types = comb_arena_alloc(a, (size_t)(n + 1) * sizeof *types);
    if (!types)
        return COMB_ENOMEM;
    for (int g = 0; g < p->n_group; g++)
        types[g] = p->gtypes[g];
    for (int k = 0; k < p->n_agg; k++)
        types[p->n_group + k] = p->aggs[k].type;
    if (comb_batch_init_types(ab, n, types, COMB_BATCH_SIZE))
        return COMB_ENOMEM;
    *fills = comb_arena_alloc(a, (size_t)(n + 1) * sizeof **fills);
    for (int j = 0; *fills && j < n; j++)
        if (sql_fill_init(&(*fills)[j], &ab->cols[j], a))
            return COMB_ENOMEM;
    return *fills ? COMB_OK : COMB_ENOMEM;
}

/* Groups -> HAVING -> select items (and hidden ORDER BY columns) -> out. */
static int groups_to_output(SqlSelectPlan *p, GroupTable *gt, SqlRowStore *out,
                            CombErr *err)
{
    CombArena arena;
    CombBatch ab;
    SqlVecFill *fills = NULL;
    int rc = COMB_OK;
    memset(&ab, 0, sizeof ab);
    comb_arena_init(&arena, 4096);
    if (aggregated_batch(p, &arena, &ab, &fills))
        rc = comb_err_nomem(err);
    for (int64_t first = 0; first < gt->groups.n_rows && !rc;
         first += ab.capacity) {
        if (fill_aggregated(p, gt, first, &ab, fills)) {
            rc = comb_err_nomem(err);
            break;
        }
        if (p->having && (rc = sql_filter_batch(p->having, &ab, err)))
            break;
        if (comb_batch_live(&ab) == 0 || (rc = eval_columns(p, &ab, err)))
            continue;
        for (int j = 0; j < p->n_cols; j++)
            p->col_out[j] = p->exprs[j]->out;
        rc = sql_rows_append(out, p->col_out, &ab, err);
    }
    if (ab.cols)
        comb_batch_free(&ab);
    comb_arena_free(&arena);
    return rc;
}

static void group_table_free(GroupTable *gt)
{
    sql_rows_free(&gt->groups);
    comb_free(gt->states);
    comb_free(gt->slots);
    comb_free(gt->hashes);
}

static int run_aggregate(Source *src, const SqlSink *sink, CombErr *err)
{
    SqlSelectPlan *p = src->p;
    GroupTable gt;
    SqlRowStore out;
    CombArena scratch;
    int rc = COMB_OK;

    memset(&gt, 0, sizeof gt);
    if (sql_rows_init_types(&gt.groups, p->n_group, p->gtypes))
        return comb_err_nomem(err);
    if (sql_rows_init_types(&out, p->n_cols, p->types)) {
        group_table_free(&gt);
        return comb_err_nomem(err);
    }
    comb_arena_init(&scratch, 4096);
    while (!rc) {
        CombBatch *b;
        if ((rc = source_next(src, &b, err)) || !b)
            break;
        rc = consume_batch(p, &gt, b, &scratch, err);
    }
    /* a global aggregate over no rows still yields one row */
    if (!rc && p->n_group == 0 && gt.groups.n_rows == 0) {
        int64_t gi;
        rc = group_new(p, &gt, 0, 0, &gi, err);
    }
    if (!rc)
        rc = groups_to_output(p, &gt, &out, err);
    if (!rc) {
        sql_rows_sort(&out, p->keys, p->n_keys);
        rc = sql_rows_emit(&out, p->n_out, p->limit, sink, err);
    }
    sql_rows_free(&out);
    group_table_free(&gt);
    comb_arena_free(&scratch);
    return rc;
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
