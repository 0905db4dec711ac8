/*
 * bind_int.h - the query binder's private state (bind_query.c,
 * bind_from.c, bind_subquery.c, bind_window.c): the FROM scope names
 * resolve in, a SELECT block being bound, and the hooks its parts call.
 */
#ifndef COMB_SQL_PLAN_BIND_INT_H
#define COMB_SQL_PLAN_BIND_INT_H

#include "sql/plan/logical.h"

/* One FROM item visible by a name: a table, view, CTE, subquery or
 * lateral view, with the ids of its columns in the plan. */
typedef struct BqRel {
    const char *alias;       /* the qualifier that names it */
    int n_cols;
    LpCol *cols;             /* names unqualified */
    int rowid;               /* id of ROW__ID.writeid; -1: none */
    const LpCol *file_name;  /* a table's INPUT__FILE__NAME; NULL: none */
} BqRel;

/* WITH name AS (query), visible to the query and its subqueries. */
typedef struct BqCte {
    const AstCte *ast;
    const struct BqCte *next;
    struct LpCte *share;     /* what its references share (cte.c) */
} BqCte;

typedef struct BqScope BqScope;
struct BqScope {
    int n_rels, cap_rels;
    BqRel *rels;
    const BqScope *outer;    /* the enclosing query's (correlation) */
    bool *correlated;        /* set when a name resolves in outer */
};

/* A SELECT block being bound. */
typedef struct BqBlock {
    SqlStmtCtx *c;
    const AstSelect *ast;
    const BqCte *ctes;
    BqScope from;            /* FROM's names */
    LpNode *top;             /* the plan so far */
    bool allow_subquery;     /* WHERE: subqueries become joins on top */
    bool correlated;         /* a name resolved in an outer scope */
    SqlScope sc;             /* binding over FROM (hook: bq_resolve) */
    /* aggregation */
    bool aggregate;
    int n_keys;
    BoundExpr **keys;        /* over FROM */
    const AstExpr **key_ast;
    int *key_ids;
    int n_aggs, cap_aggs;
    SqlAgg **aggs;
    int *agg_ids;
    int gid_id;              /* GROUPING__ID's column, 0 none */
    int n_sets;
    uint64_t *sets;
    SqlScope agg_sc;         /* items of an aggregate query */
    /* subqueries in an aggregate query's items and HAVING: their joins
     * are built over agg_stub (no columns), which the AGGREGATE replaces
     * once it exists; they correlate through `groups`, FROM's names of
     * the GROUP BY key columns, as the AGGREGATE's outputs */
    bool in_agg;             /* binding such a subquery */
    LpNode *agg_stub, *agg_joins;
    BqScope groups;
    /* window functions (bind_window.c): one LP_WINDOW per distinct
     * PARTITION BY / ORDER BY, in the order first used */
    int n_win;
    struct BqWindow *wins;
    /* output */
    bool udtf_items;         /* the select list is one table function */
    int n_out, n_cols;       /* visible items; with hidden ORDER BY ones */
    int cap_cols;
    BoundExpr **exprs;
    const char **names;
    const char **texts;
} BqBlock;

/* Bind a whole query (WITH, set operations, a SELECT block, ORDER BY,
 * LIMIT) seeing ctes and, for correlation, the outer scope. */
int sql_bq_query(SqlStmtCtx *c, const AstSelect *q, const BqCte *ctes,
                 const BqScope *outer, bool *correlated, LpNode **out,
                 CombErr *err);
/* Append an output column of the block (text: the item as written). */
int sql_bq_add_out(BqBlock *b, const char *name, const char *text,
                   BoundExpr *e, CombErr *err);
/* GROUP BY ... GROUPING SETS / ROLLUP / CUBE: b->sets, b->gid_id. */
int sql_bq_grouping_sets(BqBlock *b, CombErr *err);
/* SELECT f(...) [AS (a, b)]: a lone table function in the select list
 * (bind_from.c): a LATERAL over b->top and its columns as the items. */
int sql_bq_select_udtf(BqBlock *b, CombErr *err);
/* Bind e over the block's FROM scope. */
int sql_bq_expr(BqBlock *b, const AstExpr *e, BoundExpr **out, CombErr *err);

/* FROM (bind_from.c): the plan of the FROM clause and its names. */
int sql_bq_from(BqBlock *b, CombErr *err);
/* Add rel to scope (columns borrowed). */
int sql_bq_add_rel(SqlStmtCtx *c, BqScope *sc, const BqRel *rel,
                   CombErr *err);
/* Subqueries in expressions (bind_subquery.c): e is AST_SUBQUERY,
 * AST_EXISTS or AST_IN over a query; b->top grows a MARK or SINGLE join
 * and *out reads its result. */
int sql_bq_subquery(BqBlock *b, const AstExpr *e, BoundExpr **out,
                    CombErr *err);
/* The same in an aggregate query's items or HAVING (the joins go over the
 * AGGREGATE), and putting the AGGREGATE b->top under those joins. */
int sql_bq_agg_subquery(BqBlock *b, const AstExpr *e, BoundExpr **out,
                        CombErr *err);
int sql_bq_agg_subqueries_place(BqBlock *b, CombErr *err);

/* Window functions (bind_window.c).  sql_bq_windows runs before the
 * select list is bound (after FROM, WHERE and the GROUP BY keys): it sets
 * the window hook (SqlScope.window) of b->sc and b->agg_sc, so that a
 * window call in the items or ORDER BY binds to a column id it allocates
 * (its arguments and spec bound in the scope the call is in: the
 * aggregate scope in an aggregate query); sql_bq_windows_allow turns the
 * hook off and on (HAVING).  sql_bq_windows_place runs after the
 * AGGREGATE and HAVING exist, before the items' PROJECT (in a SELECT
 * DISTINCT before its AGGREGATE: Hive applies DISTINCT to the windows'
 * results): it puts the LP_WINDOW node(s) computing those ids over
 * b->top. */
int sql_bq_windows(BqBlock *b, CombErr *err);
void sql_bq_windows_allow(BqBlock *b, bool on);
int sql_bq_windows_place(BqBlock *b, CombErr *err);

/* Shared checks (bind_query.c): does e aggregate (a window call only
 * through what is inside it); Hive's 10016 for a map where values are
 * ordered; where an ORDER BY key's NULLs go (as written, else Hive 4's
 * hive.default.nulls.last: true puts them last ascending, first
 * descending). */
bool sql_bq_has_aggregate(const AstExpr *e);
int sql_bq_check_orderable(SqlStmtCtx *c, const BoundExpr *e, CombErr *err);
bool sql_bq_nulls_first(SqlStmtCtx *c, const AstOrderItem *o);

#endif
