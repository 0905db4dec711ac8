/*
 * bind_query.c - the query binder (logical.h): a parse tree query into a
 * logical plan.  A SELECT block binds as
 *
 *   FROM                 GET | VALUES | a derived table's plan | JOINs,
 *                        LATERAL (bind_from.c)
 *   WHERE                FILTER (subqueries: MARK / SINGLE joins below it,
 *                        bind_subquery.c)
 *   GROUP BY, aggregates AGGREGATE (keys, calls, GROUPING__ID), HAVING as
 *                        a FILTER over it
 *   window functions     WINDOW (bind_window.c)
 *   items                PROJECT (plus hidden ORDER BY columns)
 *   ORDER BY, SORT BY,   SORT, then a PROJECT keeping the visible columns
 *   CLUSTER BY
 *   LIMIT [offset,] n    LIMIT
 *
 * and a query is WITH names over set operations of blocks (SETOP), with
 * ORDER BY and LIMIT over the result.  Names resolve through the FROM
 * scope (bq_resolve, the scope's query hook): `c`, `t.c`, ROW__ID of a
 * table, a struct column's field, and, for a correlated subquery, the
 * enclosing query's names.  An aggregate query's items, HAVING and ORDER
 * BY bind in a scope (agg_resolve) where a GROUP BY key or an aggregate
 * call is a column of the AGGREGATE node; any other column is Hive's
 * 10025.  Result columns are named as Hive names them: the alias, the
 * column's name, else _c<position>; `*` gives "alias.col".
 */
#include "sql/plan/bind_int.h"

#include <string.h>
#include <strings.h>

#include "common/buf.h"

/* --------------------------------------------------------------- names */

int sql_bq_add_rel(SqlStmtCtx *c, BqScope *sc, const BqRel *rel, CombErr *err)
{
    if (sc->n_rels == sc->cap_rels) {
        int cap = sc->cap_rels ? 2 * sc->cap_rels : 4;
        BqRel *r = comb_arena_alloc(c->arena, (size_t)cap * sizeof *r);
        if (!r)
            return comb_err_nomem(err);
        if (sc->n_rels)
            memcpy(r, sc->rels, (size_t)sc->n_rels * sizeof *r);
        sc->rels = r;
        sc->cap_rels = cap;
    }
    sc->rels[sc->n_rels++] = *rel;
    return COMB_OK;
}

static bool alias_is(const BqRel *r, const char *q)
{
    return r->alias && strcasecmp(r->alias, q) == 0;
}

/* Column `name` of rel: its index, -1 none, -2 two columns of that
 * name (a derived table's SELECT a, a). */
static int rel_column(const BqRel *r, const char *name)
{
    int found = -1;
    for (int j = 0; j < r->n_cols; j++)
        if (strcasecmp(r->cols[j].name, name) == 0) {
            if (found >= 0)
                return -2;
            found = j;
        }
    return found;
}

static BoundExpr *col_expr(SqlStmtCtx *c, const LpCol *col, AstPos pos)
{
    return sql_lp_colref(c, col, pos);
}

static int rowid_expr(SqlStmtCtx *c, int id, AstPos pos, BoundExpr **out,
                      CombErr *err)
{
    const CombType *t = sql_rowid_type(c);
    *out = t ? sql_bx_new_type(c, BX_ROWID, t, pos) : NULL;
    if (!*out)
        return comb_err_nomem(err);
    (*out)->col = id;
    return COMB_OK;
}

/* "(possible column names are: t.a, t.b, u.c)" */
static int column_list_error(SqlStmtCtx *c, const BqScope *sc,
                             const AstExpr *e, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc, k = 0;
    for (int r = 0; r < sc->n_rels; r++)
        for (int j = 0; j < sc->rels[r].n_cols; j++)
            comb_buf_printf(&b, "%s%s.%s", k++ ? ", " : "",
                            sc->rels[r].alias ? sc->rels[r].alias : "",
                            sc->rels[r].cols[j].name);
    comb_buf_append_byte(&b, '\0');
    (void)c;
    rc = sql_err_unknown_column(e, b.data ? (char *)b.data : "", err);
    comb_buf_free(&b);
    return rc;
}

typedef enum { LOOK_NONE, LOOK_FOUND, LOOK_ERROR } LookRc;

/* name (unqualified) among every relation of sc. */
static LookRc look_unqualified(SqlStmtCtx *c, const BqScope *sc,
                               const AstExpr *e, const char *name,
                               BoundExpr **out, int *rc, CombErr *err)
{
    const BqRel *hit = NULL;
    int col = -1;
    bool rowid = strcmp(name, "row__id") == 0;
    bool file_name = strcmp(name, "input__file__name") == 0;
    for (int r = 0; r < sc->n_rels; r++) {
        const BqRel *rel = &sc->rels[r];
        int j = rowid && rel->rowid > 0             ? -3
                : file_name && rel->file_name && rel_column(rel, name) == -1
                    ? -4 : rel_column(rel, name);
        if (j == -1)
            continue;
        if (j == -2) {
            *rc = sql_err_at(err, COMB_ESEMANTIC, 10007, e->pos,
                             "Ambiguous column reference %s in %s", name,
                             rel->alias ? rel->alias : "");
            return LOOK_ERROR;
        }
        if (hit) {
            *rc = sql_err_at(err, COMB_ESEMANTIC, 10007, e->pos,
                             "Ambiguous column reference %s: it is a column "
                             "of both %s and %s", name,
                             hit->alias ? hit->alias : "",
                             rel->alias ? rel->alias : "");
            return LOOK_ERROR;
        }
        hit = rel;
        col = j;
    }
    if (!hit)
        return LOOK_NONE;
    if (col == -3)
        *rc = rowid_expr(c, hit->rowid, e->pos, out, err);
    else if (col == -4)
        *rc = (*out = col_expr(c, hit->file_name, e->pos)) ? COMB_OK
                                                           : comb_err_nomem(err);
    else
        *rc = (*out = col_expr(c, &hit->cols[col], e->pos)) ? COMB_OK
                                                             : comb_err_nomem(err);
    return *rc ? LOOK_ERROR : LOOK_FOUND;
}

/* e (a column reference) in sc: q.name of relation q, name alone, or a
 * struct column q's field name. */
static LookRc look_scope(SqlStmtCtx *c, const BqScope *sc, const AstExpr *e,
                         BoundExpr **out, int *rc, CombErr *err)
{
    BoundExpr *base = NULL;
    LookRc l;
    if (!e->qualifier)
        return look_unqualified(c, sc, e, e->name, out, rc, err);
    for (int r = 0; r < sc->n_rels; r++) {
        const BqRel *rel = &sc->rels[r];
        int j;
        if (!alias_is(rel, e->qualifier))
            continue;
        if (strcmp(e->name, "row__id") == 0 && rel->rowid > 0) {
            *rc = rowid_expr(c, rel->rowid, e->pos, out, err);
            return *rc ? LOOK_ERROR : LOOK_FOUND;
        }
        if (strcmp(e->name, "input__file__name") == 0 && rel->file_name &&
            rel_column(rel, e->name) == -1) {
            *rc = (*out = col_expr(c, rel->file_name, e->pos)) ? COMB_OK
                                                               : comb_err_nomem(err);
            return *rc ? LOOK_ERROR : LOOK_FOUND;
        }
        if ((j = rel_column(rel, e->name)) == -2) {
            *rc = sql_err_at(err, COMB_ESEMANTIC, 10007, e->pos,
                             "Ambiguous column reference %s in %s", e->name,
                             rel->alias);
            return LOOK_ERROR;
        }
        if (j >= 0) {
            *rc = (*out = col_expr(c, &rel->cols[j], e->pos)) ? COMB_OK
                                                               : comb_err_nomem(err);
            return *rc ? LOOK_ERROR : LOOK_FOUND;
        }
        *rc = column_list_error(c, sc, e, err);
        return LOOK_ERROR;
    }
    /* a.b: field b of a struct column a */
    if ((l = look_unqualified(c, sc, e, e->qualifier, &base, rc, err)) != LOOK_FOUND)
        return l;
    *rc = sql_bind_struct_field(c, base, e->name, e->pos, out, err);
    return *rc ? LOOK_ERROR : LOOK_FOUND;
}

/* A column reference through the scopes, innermost first. */
static int resolve_colref(BqBlock *b, const AstExpr *e, BoundExpr **out,
                          CombErr *err)
{
    int rc = COMB_OK;
    for (const BqScope *sc = &b->from; sc; sc = sc->outer) {
        LookRc l = look_scope(b->c, sc, e, out, &rc, err);
        if (l == LOOK_ERROR)
            return rc;
        if (l == LOOK_FOUND) {
            if (sc != &b->from) {
                b->correlated = true;
                if (b->from.correlated)
                    *b->from.correlated = true;
            }
            return COMB_OK;
        }
    }
    return column_list_error(b->c, &b->from, e, err);
}

/* The rowid id of the one relation e->left names (row__id.f). */
static int rowid_of(const BqBlock *b, const AstExpr *l)
{
    int id = 0, n = 0;
    for (int r = 0; r < b->from.n_rels; r++) {
        const BqRel *rel = &b->from.rels[r];
        if (rel->rowid > 0 && (!l->qualifier || alias_is(rel, l->qualifier))) {
            id = rel->rowid;
            n++;
        }
    }
    return n == 1 ? id : 0;
}

/* The scope hook (SqlScope.query) of every FROM scope. */
static int bq_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **out, CombErr *err)
{
    BqBlock *b = sc->query_ctx;
    (void)c;
    if (e->kind == AST_SUBQUERY || e->kind == AST_EXISTS || e->kind == AST_IN) {
        if (!b->allow_subquery)
            return sql_err_at(err, COMB_ESEMANTIC, 10249, e->pos,
                              "Unsupported SubQuery Expression: a subquery is "
                              "not allowed here");
        return sql_bq_subquery(b, e, out, err);
    }
    if (e->kind == AST_FIELD) {
        int id;
        if (e->left->kind == AST_COLREF && strcmp(e->left->name, "row__id") == 0 &&
            (id = rowid_of(b, e->left)) > 0)
            return sql_bind_rowid_field(b->c, id, e, out, err);
        return COMB_OK;
    }
    return resolve_colref(b, e, out, err);
}

int sql_bq_expr(BqBlock *b, const AstExpr *e, BoundExpr **out, CombErr *err)
{
    return sql_bind_expr(b->c, &b->sc, e, out, err);
}

/* ---------------------------------------------------------- aggregates */

/* A window call aggregates its query when an aggregate is inside it:
 * rank() OVER (ORDER BY sum(x)), sum(sum(x)) OVER (). */
static bool window_has_aggregate(const AstExpr *e)
{
    const AstWindowSpec *w = e->over;
    for (int i = 0; i < e->n_args; i++)
        if (sql_bq_has_aggregate(e->args[i]))
            return true;
    for (int i = 0; i < w->n_partition; i++)
        if (sql_bq_has_aggregate(w->partition[i]))
            return true;
    for (int i = 0; i < w->n_order; i++)
        if (sql_bq_has_aggregate(w->order[i].expr))
            return true;
    return false;
}

bool sql_bq_has_aggregate(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == AST_FUNC && e->over)
        return window_has_aggregate(e);
    if (e->kind == AST_FUNC && sql_agg_exists(e->name))
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (sql_bq_has_aggregate(e->args[i]))
            return true;
    return sql_bq_has_aggregate(e->left) || sql_bq_has_aggregate(e->right) ||
           sql_bq_has_aggregate(e->third);
}

bool sql_bq_nulls_first(SqlStmtCtx *c, const AstOrderItem *o)
{
    bool last = sql_conf_bool(c->s, "hive.default.nulls.last", true);
    if (o->nulls)
        return o->nulls == 1;
    return o->desc ? last : !last;
}

/* "Cannot support comparison of map<> type ...": Hive's error for maps
 * (or values holding maps) where values are ordered or grouped. */
int sql_bq_check_orderable(SqlStmtCtx *c, const BoundExpr *e, CombErr *err)
{
    const CombType *t = sql_bx_type(c, e);
    if (!t || sql_type_orderable(t))
        return t ? COMB_OK : comb_err_nomem(err);
    return sql_err_at(err, COMB_ESEMANTIC, 10016, e->pos,
                      "Argument type mismatch: Cannot support comparison of "
                      "map<> type or complex type containing map<>.");
}

/* An aggregate call of the items, HAVING or ORDER BY: its arguments are
 * bound over FROM, then func/agg.h checks it and types it.  The same call
 * written twice (an item and HAVING) is one aggregate. */
static int bind_aggregate(BqBlock *b, const AstExpr *e, int *agg_idx,
                          CombErr *err)
{
    SqlStmtCtx *c = b->c;
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    SqlAgg *a;
    int rc;
    if (!args)
        return comb_err_nomem(err);
    for (int i = 0; i < b->n_aggs; i++)
        if (b->aggs[i]->text && e->text && strcasecmp(b->aggs[i]->text, e->text) == 0) {
            *agg_idx = i;
            return COMB_OK;
        }
    for (int i = 0; i < e->n_args; i++) {
        if (sql_bq_has_aggregate(e->args[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, e->args[i]->pos,
                              "Not yet supported place for UDAF '%s'", e->name);
        if ((rc = sql_bq_expr(b, e->args[i], &args[i], err)))
            return rc;
    }
    if ((rc = sql_agg_bind(c, e, args, e->n_args, &a, err)))
        return rc;
    if (b->n_aggs == b->cap_aggs) {
        int cap = b->cap_aggs ? 2 * b->cap_aggs : 8;
        SqlAgg **aggs = comb_arena_alloc(c->arena, (size_t)cap * sizeof *aggs);
        int *ids = comb_arena_alloc(c->arena, (size_t)cap * sizeof *ids);
        if (!aggs || !ids)
            return comb_err_nomem(err);
        if (b->n_aggs) {
            memcpy(aggs, b->aggs, (size_t)b->n_aggs * sizeof *aggs);
            memcpy(ids, b->agg_ids, (size_t)b->n_aggs * sizeof *ids);
        }
        b->aggs = aggs;
        b->agg_ids = ids;
        b->cap_aggs = cap;
    }
    b->aggs[b->n_aggs] = a;
    b->agg_ids[b->n_aggs] = sql_lp_col_id(c);
    *agg_idx = b->n_aggs++;
    return COMB_OK;
}

/* The GROUP BY key that e repeats (same text, or the same column name),
 * -1 if none. */
static int match_group_expr(const BqBlock *b, const AstExpr *e)
{
    for (int g = 0; g < b->n_keys; g++) {
        const AstExpr *ge = b->key_ast[g];
        if (!ge)
            continue;
        if (ge->text && e->text && strcasecmp(ge->text, e->text) == 0)
            return g;
        if (ge->kind == AST_COLREF && e->kind == AST_COLREF &&
            strcmp(ge->name, e->name) == 0 &&
            (!ge->qualifier || !e->qualifier || strcmp(ge->qualifier, e->qualifier) == 0))
            return g;
    }
    return -1;
}

static BoundExpr *id_ref(SqlStmtCtx *c, int id, const CombType *t, AstPos pos)
{
    BoundExpr *e = t ? sql_bx_new_type(c, BX_COL, t, pos) : NULL;
    if (e)
        e->col = id;
    return e;
}

/* grouping(k): 1 when key k is not grouped in the row's set, through
 * GROUPING__ID (bit n_keys - 1 - k). */
static int bind_grouping(BqBlock *b, const AstExpr *e, BoundExpr **out,
                         CombErr *err);

/* Scope hook of aggregate queries: GROUP BY keys, aggregate calls and
 * GROUPING__ID are columns of the AGGREGATE node; other column references
 * are errors (bind.c), everything else is bound around them. */
static int agg_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                       BoundExpr **out, CombErr *err)
{
    BqBlock *b = sc->resolve_ctx;
    int g, a = 0, rc;
    if ((g = match_group_expr(b, e)) >= 0) {
        *out = id_ref(c, b->key_ids[g], sql_bx_type(c, b->keys[g]), e->pos);
        return *out ? COMB_OK : comb_err_nomem(err);
    }
    if (b->gid_id && e->kind == AST_COLREF && !e->qualifier &&
        strcmp(e->name, "grouping__id") == 0) {
        *out = id_ref(c, b->gid_id, sql_kind_type(COMB_T_BIGINT), e->pos);
        return *out ? COMB_OK : comb_err_nomem(err);
    }
    if (e->kind == AST_FUNC && strcasecmp(e->name, "grouping") == 0)
        return bind_grouping(b, e, out, err);
    if (b->allow_subquery && (e->kind == AST_SUBQUERY || e->kind == AST_EXISTS ||
                              (e->kind == AST_IN && e->query)))
        return sql_bq_agg_subquery(b, e, out, err);
    if (e->kind != AST_FUNC || !sql_agg_exists(e->name))
        return COMB_OK;
    if ((rc = bind_aggregate(b, e, &a, err)))
        return rc;
    *out = id_ref(c, b->agg_ids[a], b->aggs[a]->type, e->pos);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* A synthesized parse tree node (grouping()'s arithmetic). */
static AstExpr *ast_node(SqlStmtCtx *c, AstExprKind kind, AstPos pos)
{
    AstExpr *e = comb_arena_calloc(c->arena, sizeof *e);
    if (e) {
        e->kind = kind;
        e->pos = pos;
        e->height = 1;
    }
    return e;
}

static int bind_grouping(BqBlock *b, const AstExpr *e, BoundExpr **out,
                         CombErr *err)
{
    SqlStmtCtx *c = b->c;
    AstExpr *gid, *div, *shift, *mod, *two;
    int g;
    if (!b->gid_id)
        return sql_err_at(err, COMB_ESEMANTIC, 10213, e->pos,
                          "grouping() can only be used with GROUPING SETS, "
                          "ROLLUP or CUBE");
    if (e->n_args != 1 || (g = match_group_expr(b, e->args[0])) < 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10213, e->pos,
                          "Expression in GROUPING function not present in "
                          "GROUP BY");
    /* (GROUPING__ID DIV 2^bit) % 2, key 0 the most significant bit */
    gid = ast_node(c, AST_COLREF, e->pos);
    shift = ast_node(c, AST_LIT_INT, e->pos);
    two = ast_node(c, AST_LIT_INT, e->pos);
    div = ast_node(c, AST_BINARY, e->pos);
    mod = ast_node(c, AST_BINARY, e->pos);
    if (!gid || !shift || !two || !div || !mod)
        return comb_err_nomem(err);
    gid->name = "grouping__id";
    shift->ival = (int64_t)1 << (b->n_keys - 1 - g);
    two->ival = 2;
    div->op = AST_OP_DIV_INT;
    div->left = gid;
    div->right = shift;
    div->height = 2;
    mod->op = AST_OP_MOD;
    mod->left = div;
    mod->right = two;
    mod->height = 3;
    return sql_bind_expr(c, &b->agg_sc, mod, out, err);
}

/* Grouping sets as masks: bit n_keys - 1 - k set when key k is not
 * grouped (Hive 4's GROUPING__ID). */
int sql_bq_grouping_sets(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    const AstSelect *s = b->ast;
    int n = b->n_keys, n_sets;
    uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if (s->grouping == AST_GROUPING_NONE)
        return COMB_OK;
    if (n > 20 || (s->grouping == AST_GROUPING_CUBE && n > 12))
        return sql_err_at(err, COMB_ESEMANTIC, 10225, s->grouping_pos,
                          "An additional MR job is introduced since the "
                          "number of rows created per input row due to "
                          "grouping sets is more than "
                          "hive.new.job.grouping.set.cardinality");
    n_sets = s->grouping == AST_GROUPING_ROLLUP ? n + 1
             : s->grouping == AST_GROUPING_CUBE ? 1 << n : s->n_sets;
    if (!(b->sets = comb_arena_calloc(c->arena, (size_t)(n_sets + 1) * sizeof *b->sets)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_sets; i++) {
        if (s->grouping == AST_GROUPING_ROLLUP) {
            /* keys 0 .. n - 1 - i grouped */
            b->sets[i] = ((uint64_t)1 << i) - 1;
        } else if (s->grouping == AST_GROUPING_CUBE) {
            b->sets[i] = (uint64_t)i;
        } else {
            const AstGroupingSet *set = &s->sets[i];
            b->sets[i] = all;
            for (int k = 0; k < set->n; k++) {
                int g = match_group_expr(b, set->exprs[k]);
                if (g < 0)
                    return sql_err_at(err, COMB_ESEMANTIC, 10213,
                                      set->exprs[k]->pos,
                                      "Grouping sets expression is not in "
                                      "GROUP BY key");
                b->sets[i] &= ~((uint64_t)1 << (n - 1 - g));
            }
        }
    }
    b->n_sets = n_sets;
    b->gid_id = sql_lp_col_id(c);
    return COMB_OK;
}

/* GROUP BY keys over FROM, and the grouping sets as bit masks. */
static int bind_group_by(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    const AstSelect *s = b->ast;
    b->n_keys = s->n_group_by;
    b->keys = comb_arena_calloc(c->arena, (size_t)(s->n_group_by + 1) * sizeof *b->keys);
    b->key_ids = comb_arena_calloc(c->arena, (size_t)(s->n_group_by + 1) * sizeof *b->key_ids);
    b->key_ast = (const AstExpr **)s->group_by;
    if (!b->keys || !b->key_ids)
        return comb_err_nomem(err);
    for (int g = 0; g < s->n_group_by; g++) {
        int rc;
        if (sql_bq_has_aggregate(s->group_by[g]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, s->group_by[g]->pos,
                              "Not yet supported place for UDAF in GROUP BY");
        if ((rc = sql_bq_expr(b, s->group_by[g], &b->keys[g], err)) ||
            (rc = sql_bq_check_orderable(c, b->keys[g], err)))
            return rc;
        b->key_ids[g] = sql_lp_col_id(c);
    }
    return sql_bq_grouping_sets(b, err);
}

/* ---------------------------------------------------------------- items */

int sql_bq_add_out(BqBlock *b, const char *name, const char *text,
                   BoundExpr *e, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    if (b->n_cols == b->cap_cols) {
        int cap = b->cap_cols ? 2 * b->cap_cols : 16;
        BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)cap * sizeof *exprs);
        const char **names = comb_arena_alloc(c->arena, (size_t)cap * sizeof *names);
        const char **texts = comb_arena_alloc(c->arena, (size_t)cap * sizeof *texts);
        if (!exprs || !names || !texts)
            return comb_err_nomem(err);
        if (b->n_cols) {
            memcpy(exprs, b->exprs, (size_t)b->n_cols * sizeof *exprs);
            memcpy(names, b->names, (size_t)b->n_cols * sizeof *names);
            memcpy(texts, b->texts, (size_t)b->n_cols * sizeof *texts);
        }
        b->exprs = exprs;
        b->names = names;
        b->texts = texts;
        b->cap_cols = cap;
    }
    b->exprs[b->n_cols] = e;
    b->names[b->n_cols] = name;
    b->texts[b->n_cols] = text;
    b->n_cols++;
    return COMB_OK;
}

/* The columns of one relation as "alias.col" items. */
static int expand_rel(BqBlock *b, const BqRel *rel, AstPos pos, CombErr *err)
{
    for (int j = 0; j < rel->n_cols; j++) {
        BoundExpr *e;
        char *name;
        int rc;
        for (int k = 0; k < j; k++)
            if (strcasecmp(rel->cols[k].name, rel->cols[j].name) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10007, pos,
                                  "Ambiguous column reference %s in %s",
                                  rel->cols[j].name, rel->alias ? rel->alias : "");
        e = col_expr(b->c, &rel->cols[j], pos);
        name = rel->alias ? comb_arena_printf(b->c->arena, "%s.%s", rel->alias,
                                              rel->cols[j].name)
                          : (char *)rel->cols[j].name;
        if (!e || !name)
            return comb_err_nomem(err);
        if ((rc = sql_bq_add_out(b, name, NULL, e, err)))
            return rc;
    }
    return COMB_OK;
}

static int expand_star(BqBlock *b, const AstExpr *star, CombErr *err)
{
    bool found = false;
    if (!b->ast->from)
        return sql_err_at(err, COMB_ESEMANTIC, 0, star->pos,
                          "'*' needs a FROM clause");
    for (int r = 0; r < b->from.n_rels; r++) {
        const BqRel *rel = &b->from.rels[r];
        int rc;
        if (star->qualifier && !alias_is(rel, star->qualifier))
            continue;
        found = true;
        if ((rc = expand_rel(b, rel, star->pos, err)))
            return rc;
    }
    if (!found)
        return sql_err_at(err, COMB_ESEMANTIC, 10004, star->pos,
                          "Invalid table alias '%s'", star->qualifier);
    return COMB_OK;
}

static const char *item_name(SqlStmtCtx *c, const AstSelectItem *it, int idx)
{
    if (it->alias)
        return it->alias;
    if (it->expr->kind == AST_COLREF || it->expr->kind == AST_FIELD)
        return it->expr->name;
    return comb_arena_printf(c->arena, "_c%d", idx);
}

/* The scope items bind in: the aggregate one, else FROM's. */
static const SqlScope *item_scope(BqBlock *b)
{
    return b->aggregate ? &b->agg_sc : &b->sc;
}

/* An item or ORDER BY expression; its scalar subqueries join the plan
 * under the items' PROJECT (over the AGGREGATE in an aggregate query). */
static int bind_item_expr(BqBlock *b, const AstExpr *e, BoundExpr **out,
                          CombErr *err)
{
    int rc;
    b->allow_subquery = true;
    rc = sql_bind_expr(b->c, item_scope(b), e, out, err);
    b->allow_subquery = false;
    return rc;
}

static int bind_items(BqBlock *b, CombErr *err)
{
    const AstSelect *s = b->ast;
    for (int i = 0; i < s->n_items; i++) {
        const AstSelectItem *it = &s->items[i];
        const char *name;
        BoundExpr *e;
        int rc;
        if (it->expr->kind == AST_STAR) {
            if (b->aggregate)
                return sql_err_at(err, COMB_ESEMANTIC, 10025, it->expr->pos,
                                  "'*' cannot be used with GROUP BY or aggregates");
            if ((rc = expand_star(b, it->expr, err)))
                return rc;
            continue;
        }
        if (!(name = item_name(b->c, it, i)))
            return comb_err_nomem(err);
        if ((rc = bind_item_expr(b, it->expr, &e, err)) ||
            (rc = sql_bq_add_out(b, name, it->expr->text, e, err)))
            return rc;
    }
    b->n_out = b->n_cols;
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
static int bind_distinct(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    const AstSelect *s = b->ast;
    if (b->aggregate)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->pos,
                          "SELECT DISTINCT with aggregates or GROUP BY is not "
                          "supported yet");
    if (has_star(s) && s->n_items > 1)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, s->items[0].expr->pos,
                          "SELECT DISTINCT with '*' among other items is not "
                          "supported yet");
    b->aggregate = true;
    b->n_keys = b->n_out;
    b->keys = comb_arena_calloc(c->arena, (size_t)(b->n_out + 1) * sizeof *b->keys);
    b->key_ids = comb_arena_calloc(c->arena, (size_t)(b->n_out + 1) * sizeof *b->key_ids);
    b->key_ast = comb_arena_calloc(c->arena, (size_t)(b->n_out + 1) * sizeof *b->key_ast);
    if (!b->keys || !b->key_ids || !b->key_ast)
        return comb_err_nomem(err);
    for (int j = 0; j < b->n_out; j++) {
        int rc = sql_bq_check_orderable(c, b->exprs[j], err);
        if (rc)
            return rc;
        b->keys[j] = b->exprs[j];
        b->key_ids[j] = sql_lp_col_id(c);
        /* a star's columns have no text of their own: ORDER BY finds
         * them by name among the outputs */
        b->key_ast[j] = has_star(s) ? NULL : s->items[j].expr;
        if (!(b->exprs[j] = id_ref(c, b->key_ids[j], sql_bx_type(c, b->keys[j]),
                                   b->keys[j]->pos)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int bind_where(BqBlock *b, CombErr *err)
{
    const AstExpr *w = b->ast->where;
    BoundExpr *pred;
    int rc;
    if (!w)
        return COMB_OK;
    if (sql_bq_has_aggregate(w))
        return sql_err_at(err, COMB_ESEMANTIC, 10128, w->pos,
                          "Not yet supported place for UDAF in WHERE");
    b->allow_subquery = true;
    rc = sql_bq_expr(b, w, &pred, err);
    b->allow_subquery = false;
    if (rc)
        return rc;
    if (pred->type != COMB_T_BOOLEAN && pred->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, pred->pos,
                          "WHERE clause must be a boolean expression");
    return sql_lp_filter(b->c, b->top, pred, &b->top, err);
}

static int bind_having(BqBlock *b, BoundExpr **out, CombErr *err)
{
    const AstExpr *h = b->ast->having;
    int rc;
    *out = NULL;
    if (!h)
        return COMB_OK;
    if (!b->aggregate)
        return sql_err_at(err, COMB_ESEMANTIC, 10025, h->pos,
                          "HAVING needs GROUP BY or an aggregate");
    /* a window call in HAVING is Hive's 10128 (bind.c) */
    sql_bq_windows_allow(b, false);
    b->allow_subquery = true;
    rc = sql_bind_expr(b->c, &b->agg_sc, h, out, err);
    b->allow_subquery = false;
    sql_bq_windows_allow(b, true);
    if (rc)
        return rc;
    if ((*out)->type != COMB_T_BOOLEAN && (*out)->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, (*out)->pos,
                          "HAVING clause must be a boolean expression");
    return COMB_OK;
}

/* ------------------------------------------------------------- ORDER BY */

/* hive.orderby.position.alias (default true): ORDER BY 2 is the second
 * select item (SORT BY 2 sorts by the constant, as in Hive). */
static bool order_by_position(SqlStmtCtx *c, const AstSelect *s,
                              const AstOrderItem *o)
{
    return o->expr->kind == AST_LIT_INT && !o->expr->lit_suffix &&
           sql_conf_bool(c->s, "hive.orderby.position.alias", true) &&
           !s->sort_by;
}

/* The output an ORDER BY item names (alias, column name, or the same
 * expression text), -1 if none. */
static int order_output(int n_out, const char *const *names,
                        const char *const *texts, const AstExpr *e)
{
    for (int j = 0; j < n_out; j++) {
        const char *n = names[j], *dot = strchr(n, '.');
        if (e->kind == AST_COLREF && !e->qualifier &&
            (strcasecmp(n, e->name) == 0 || (dot && strcasecmp(dot + 1, e->name) == 0)))
            return j;
        if (e->kind == AST_COLREF && e->qualifier && dot &&
            (size_t)(dot - n) == strlen(e->qualifier) &&
            strncasecmp(n, e->qualifier, (size_t)(dot - n)) == 0 &&
            strcasecmp(dot + 1, e->name) == 0)
            return j;
        if (texts && e->text && texts[j] && strcasecmp(texts[j], e->text) == 0)
            return j;
    }
    return -1;
}

/* ORDER BY item -> output column index: a select-list position, an output
 * name, or (blocks only, b set) a hidden column computed like the items. */
static int order_item(SqlStmtCtx *c, const AstSelect *s, BqBlock *b,
                      int n_out, const char *const *names,
                      const char *const *texts, const AstOrderItem *o,
                      int *col, CombErr *err)
{
    BoundExpr *e;
    int rc;
    if (order_by_position(c, s, o)) {
        if (o->expr->ival < 1 || o->expr->ival > n_out)
            return sql_err_at(err, COMB_ESEMANTIC, 10220, o->expr->pos,
                              "Invalid position alias in Order By: %lld is "
                              "not a position in the select list (1..%d)",
                              (long long)o->expr->ival, n_out);
        *col = (int)o->expr->ival - 1;
        return COMB_OK;
    }
    if ((*col = order_output(n_out, names, texts, o->expr)) >= 0)
        return COMB_OK;
    if (!b)
        return sql_err_at(err, COMB_ESEMANTIC, 10004, o->expr->pos,
                          "Invalid column reference '%s' in ORDER BY of a set "
                          "operation: only its result columns can be used",
                          o->expr->text ? o->expr->text : "");
    if ((rc = bind_item_expr(b, o->expr, &e, err)) ||
        (rc = sql_bq_add_out(b, o->expr->text ? o->expr->text : "", NULL, e, err)))
        return rc;
    *col = b->n_cols - 1;
    return COMB_OK;
}

typedef struct BqOrder {
    int n;
    LpSortKey *keys;         /* col: output index until the PROJECT exists */
} BqOrder;

static int bind_order(SqlStmtCtx *c, const AstSelect *s, BqBlock *b,
                      int n_out, const char *const *names,
                      const char *const *texts, BqOrder *o, CombErr *err)
{
    const AstOrderItem *items = s->sort_by ? s->sort_by->sort : s->order_by;
    o->n = s->sort_by ? s->sort_by->n_sort : s->n_order_by;
    if (!(o->keys = comb_arena_calloc(c->arena, (size_t)(o->n + 1) * sizeof *o->keys)))
        return comb_err_nomem(err);
    for (int k = 0; k < o->n; k++) {
        LpSortKey *key = &o->keys[k];
        int rc;
        key->desc = items[k].desc;
        key->nulls_first = sql_bq_nulls_first(c, &items[k]);
        if ((rc = order_item(c, s, b, n_out, b ? b->names : names,
                             b ? b->texts : texts, &items[k], &key->col, err)))
            return rc;
        if (b && (rc = sql_bq_check_orderable(c, b->exprs[key->col], err)))
            return rc;
    }
    return COMB_OK;
}

/* DISTRIBUTE BY changes no result in one process; its expressions are
 * still bound, so a wrong one is an error as in Hive. */
static int bind_distribute_by(BqBlock *b, CombErr *err)
{
    const AstSortBy *sb = b->ast->sort_by;
    for (int i = 0; sb && !sb->cluster && i < sb->n_distribute; i++) {
        BoundExpr *e;
        int rc;
        if (order_output(b->n_out, b->names, b->texts, sb->distribute[i]) < 0 &&
            (rc = bind_item_expr(b, sb->distribute[i], &e, err)))
            return rc;
    }
    return COMB_OK;
}

/* SORT by the keys (output indexes of top), a PROJECT keeping the first
 * n_out columns when top has more, LIMIT. */
static int bind_tail(SqlStmtCtx *c, const AstSelect *s, const BqOrder *o,
                     int n_out, LpNode **top, CombErr *err)
{
    int rc;
    if (o->n) {
        for (int k = 0; k < o->n; k++)
            o->keys[k].col = (*top)->cols[o->keys[k].col].id;
        if ((rc = sql_lp_sort(c, *top, o->keys, o->n, top, err)))
            return rc;
    }
    if ((*top)->n_cols > n_out) {
        int *ids = comb_arena_alloc(c->arena, (size_t)(n_out + 1) * sizeof *ids);
        if (!ids)
            return comb_err_nomem(err);
        for (int j = 0; j < n_out; j++)
            ids[j] = (*top)->cols[j].id;
        if ((rc = sql_lp_keep(c, *top, ids, n_out, top, err)))
            return rc;
    }
    if (s->limit >= 0 || s->offset > 0)
        return sql_lp_limit(c, *top, s->offset, s->limit, top, err);
    return COMB_OK;
}

/* ---------------------------------------------------------- the block */

/* The AGGREGATE node over b->top: the keys (named as written), the
 * calls (named by their text), GROUPING__ID with grouping sets. */
static int build_aggregate(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    int n = b->n_keys + b->n_aggs + (b->n_sets ? 1 : 0);
    LpNode *a = sql_lp_node(c, LP_AGGREGATE, n);
    if (!a || !(a->aggs = comb_arena_calloc(c->arena, (size_t)(b->n_aggs + 1) * sizeof *a->aggs)))
        return comb_err_nomem(err);
    a->input = b->top;
    a->n_keys = b->n_keys;
    a->keys = b->keys;
    for (int g = 0; g < b->n_keys; g++) {
        const AstExpr *ge = b->key_ast[g];
        a->cols[g].id = b->key_ids[g];
        a->cols[g].name = ge && ge->text ? ge->text : b->names[g];
        if (!(a->cols[g].type = sql_bx_type(c, b->keys[g])))
            return comb_err_nomem(err);
    }
    a->n_aggs = b->n_aggs;
    for (int k = 0; k < b->n_aggs; k++) {
        LpCol *col = &a->cols[b->n_keys + k];
        a->aggs[k] = *b->aggs[k];
        col->id = b->agg_ids[k];
        col->name = b->aggs[k]->text ? b->aggs[k]->text : "?";
        col->type = b->aggs[k]->type;
    }
    a->n_sets = b->n_sets;
    a->sets = b->sets;
    if (b->n_sets)
        a->cols[n - 1] = (LpCol){b->gid_id, "GROUPING__ID",
                                 sql_kind_type(COMB_T_BIGINT)};
    b->top = a;
    return COMB_OK;
}

static bool block_aggregates(const AstSelect *s)
{
    bool agg = s->n_group_by > 0 || s->grouping != AST_GROUPING_NONE;
    for (int i = 0; i < s->n_items; i++)
        agg |= sql_bq_has_aggregate(s->items[i].expr);
    return agg;
}

static int bind_block(SqlStmtCtx *c, const AstSelect *s, const BqCte *ctes,
                      const BqScope *outer, bool *correlated, LpNode **out,
                      CombErr *err)
{
    BqBlock *b = comb_arena_calloc(c->arena, sizeof *b);
    BoundExpr *having = NULL;
    BqOrder order;
    bool windows_first;
    int rc;
    if (!b)
        return comb_err_nomem(err);
    b->c = c;
    b->ast = s;
    b->ctes = ctes;
    b->from.outer = outer;
    b->from.correlated = correlated;
    b->sc = (SqlScope){NULL, NULL, -1, NULL, NULL, bq_resolve, b};
    b->agg_sc = (SqlScope){NULL, NULL, -1, agg_resolve, b, NULL, NULL};
    if ((rc = sql_bq_from(b, err)) || (rc = bind_where(b, err)) ||
        (rc = sql_bq_select_udtf(b, err)))
        return rc;
    b->aggregate = block_aggregates(s);
    if (b->aggregate && !b->udtf_items && (rc = bind_group_by(b, err)))
        return rc;
    if ((rc = sql_bq_windows(b, err)))
        return rc;
    if (!b->udtf_items && (rc = bind_items(b, err)))
        return rc;
    if ((s->distinct && !b->udtf_items && (rc = bind_distinct(b, err))) ||
        (rc = bind_having(b, &having, err)) ||
        (rc = bind_order(c, s, b, b->n_out, NULL, NULL, &order, err)) ||
        (rc = bind_distribute_by(b, err)))
        return rc;
    /* Hive applies DISTINCT to the windows' results: they go under it */
    windows_first = s->distinct && !b->udtf_items;
    if (windows_first && (rc = sql_bq_windows_place(b, err)))
        return rc;
    if (b->aggregate && ((rc = build_aggregate(b, err)) ||
                         (rc = sql_bq_agg_subqueries_place(b, err))))
        return rc;
    if (having && (rc = sql_lp_filter(c, b->top, having, &b->top, err)))
        return rc;
    if ((!windows_first && (rc = sql_bq_windows_place(b, err))) ||
        (rc = sql_lp_project(c, b->top, b->n_cols, b->exprs, b->names, &b->top, err)))
        return rc;
    if ((rc = bind_tail(c, s, &order, b->n_out, &b->top, err)))
        return rc;
    *out = b->top;
    return COMB_OK;
}

/* -------------------------------------------------------- set operations */

static const char *setop_word(const AstSelect *q)
{
    return q->setop == AST_SETOP_UNION ? "union"
           : q->setop == AST_SETOP_INTERSECT ? "intersect" : "except";
}

/* side's columns converted to types (a PROJECT when one differs). */
static int convert_side(SqlStmtCtx *c, LpNode **side, const CombType **types,
                        CombErr *err)
{
    LpNode *n = *side;
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *exprs);
    const char **names = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *names);
    bool differs = false;
    if (!exprs || !names)
        return comb_err_nomem(err);
    for (int j = 0; j < n->n_cols; j++) {
        BoundExpr *e = sql_lp_colref(c, &n->cols[j], (AstPos){0, 0});
        int rc;
        if (!e)
            return comb_err_nomem(err);
        names[j] = n->cols[j].name;
        if (!comb_type_equal(n->cols[j].type, types[j])) {
            differs = true;
            if ((rc = sql_bind_cast(c, e, types[j], true, &e, err)))
                return rc;
        }
        exprs[j] = e;
    }
    return differs ? sql_lp_project(c, n, n->n_cols, exprs, names, side, err)
                   : COMB_OK;
}

static int bind_setop(SqlStmtCtx *c, const AstSelect *q, const BqCte *ctes,
                      const BqScope *outer, bool *correlated, LpNode **out,
                      CombErr *err)
{
    LpNode *l, *r, *n;
    const CombType **types;
    int rc;
    if ((rc = sql_bq_query(c, q->setop_left, ctes, outer, correlated, &l, err)) ||
        (rc = sql_bq_query(c, q->setop_right, ctes, outer, correlated, &r, err)))
        return rc;
    if (l->n_cols != r->n_cols)
        return sql_err_at(err, COMB_ESEMANTIC, 0, q->setop_pos,
                          "Schema of both sides of %s should match: the left "
                          "side has %d columns and the right side %d",
                          setop_word(q), l->n_cols, r->n_cols);
    if (!(types = comb_arena_alloc(c->arena, (size_t)(l->n_cols + 1) * sizeof *types)))
        return comb_err_nomem(err);
    for (int j = 0; j < l->n_cols; j++) {
        if ((rc = sql_common_class(c, l->cols[j].type, r->cols[j].type, &types[j])))
            return rc;
        if (!types[j] || !sql_type_orderable(types[j]) )
            return sql_err_at(err, COMB_ESEMANTIC, 0, q->setop_pos,
                              "Schema of both sides of %s should match: Column "
                              "%s is of type %s on first table and type %s on "
                              "second table", setop_word(q), l->cols[j].name,
                              sql_type_text(c, l->cols[j].type),
                              sql_type_text(c, r->cols[j].type));
    }
    if ((rc = convert_side(c, &l, types, err)) || (rc = convert_side(c, &r, types, err)))
        return rc;
    if (!(n = sql_lp_node(c, LP_SETOP, l->n_cols)))
        return comb_err_nomem(err);
    for (int j = 0; j < l->n_cols; j++) {
        const char *dot = strrchr(l->cols[j].name, '.');
        n->cols[j] = (LpCol){sql_lp_col_id(c), dot ? dot + 1 : l->cols[j].name,
                             types[j]};
    }
    n->input = l;
    n->right = r;
    n->setop = q->setop == AST_SETOP_UNION ? LP_UNION
               : q->setop == AST_SETOP_INTERSECT ? LP_INTERSECT : LP_EXCEPT;
    n->all = q->setop_all;
    *out = n;
    return COMB_OK;
}

/* ORDER BY / SORT BY and LIMIT over a set operation's result. */
static int setop_tail(SqlStmtCtx *c, const AstSelect *q, LpNode **top,
                      CombErr *err)
{
    LpNode *n = *top;
    const char **names = comb_arena_alloc(c->arena, (size_t)(n->n_cols + 1) * sizeof *names);
    BqOrder order;
    int rc;
    if (!names)
        return comb_err_nomem(err);
    for (int j = 0; j < n->n_cols; j++)
        names[j] = n->cols[j].name;
    if ((rc = bind_order(c, q, NULL, n->n_cols, names, NULL, &order, err)))
        return rc;
    return bind_tail(c, q, &order, n->n_cols, top, err);
}

/* ------------------------------------------------------------- queries */

/* Views and subqueries nested deeper than this are refused (each level is
 * a few operators on the stack of every pass). */
#define MAX_QUERY_DEPTH 1000

int sql_bq_query(SqlStmtCtx *c, const AstSelect *q, const BqCte *ctes,
                 const BqScope *outer, bool *correlated, LpNode **out,
                 CombErr *err)
{
    BqCte *with = NULL;
    int rc;
    if (c->query_depth >= MAX_QUERY_DEPTH)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, q->pos,
                          "subqueries and views nested more than %d deep are "
                          "not supported", MAX_QUERY_DEPTH);
    if (q->n_with && !(with = comb_arena_calloc(c->arena, (size_t)q->n_with * sizeof *with)))
        return comb_err_nomem(err);
    for (int i = 0; i < q->n_with; i++) {
        for (int k = 0; k < i; k++)
            if (strcmp(q->with[k].name, q->with[i].name) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10009, q->with[i].pos,
                                  "Duplicate definition of %s in WITH clause",
                                  q->with[i].name);
        with[i] = (BqCte){&q->with[i], ctes,
                          comb_arena_calloc(c->arena, sizeof *with[i].share)};
        if (!with[i].share)
            return comb_err_nomem(err);
        with[i].share->name = q->with[i].name;
        ctes = &with[i];
    }
    c->query_depth++;
    if (q->setop == AST_SETOP_NONE)
        rc = bind_block(c, q, ctes, outer, correlated, out, err);
    else if (!(rc = bind_setop(c, q, ctes, outer, correlated, out, err)))
        rc = setop_tail(c, q, out, err);
    c->query_depth--;
    return rc;
}

int sql_lp_bind_dml_source(SqlStmtCtx *c, const SqlTable *t,
                           const AstExpr *where, LpNode **out, CombErr *err)
{
    BqBlock *b = comb_arena_calloc(c->arena, sizeof *b);
    AstSelect *none = comb_arena_calloc(c->arena, sizeof *none);
    BqRel rel;
    int rc;
    if (!b || !none)
        return comb_err_nomem(err);
    none->where = (AstExpr *)where;
    none->limit = -1;
    b->c = c;
    b->ast = none;
    b->sc = (SqlScope){NULL, NULL, -1, NULL, NULL, bq_resolve, b};
    if ((rc = sql_lp_get(c, t, t->ms->name, &b->top, err)))
        return rc;
    rel = (BqRel){b->top->alias, t->n_cols, b->top->cols, b->top->cols[t->n_cols].id,
                  &b->top->cols[t->n_cols + 3]};
    if ((rc = sql_bq_add_rel(c, &b->from, &rel, err)) || (rc = bind_where(b, err)))
        return rc;
    *out = b->top;
    return sql_lp_optimize(c, out, err);
}

int sql_lp_bind_query(SqlStmtCtx *c, const AstSelect *q, LpNode **out,
                      CombErr *err)
{
    int rc = sql_bq_query(c, q, NULL, NULL, NULL, out, err);
    return rc ? rc : sql_lp_optimize(c, out, err);
}
