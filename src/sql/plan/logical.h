/*
 * logical.h - the logical plan: the relational operators a query is bound
 * into (bind_query.c and its helpers), the rewrite rules that transform
 * them (rules.c: constant folding, subquery decorrelation, predicate and
 * projection push-down, join ordering by estimated size) and the contract
 * the lowering to physical operators (exec/lower.c) relies on.
 *
 * The contract:
 *
 *  - A plan is a tree of LpNode in the statement arena.  Every node has
 *    fixed output columns (cols[0..n_cols)), each with an id unique in the
 *    statement (sql_lp_col_id), a name (for EXPLAIN, derived tables and
 *    result headers) and a whole type.
 *
 *  - Expressions of a node are BoundExpr trees (func/expr.h) whose BX_COL
 *    nodes hold a column *id* in `col`, never a position: an expression
 *    may read any column of the node's input(s), and only those (a
 *    correlated subquery's outer references are the one exception, until
 *    decorrelation moves them into a join condition).  BX_ROWID's col is
 *    the id of a table's ROW__ID.writeid column; its bucketid and rowid
 *    columns have the next two ids, and every node keeps those three
 *    adjacent and in order.  Lowering turns ids into positions.
 *
 *  - Which node passes which columns on:
 *      GET        the table's columns, then ROW__ID's writeid, bucketid,
 *                 rowid (all of them; the physical scan decodes only the
 *                 ones the plan reads)
 *      VALUES     its own columns
 *      FILTER, SORT, LIMIT
 *                 the input's columns, same ids
 *      PROJECT    new columns, one per expression
 *      JOIN       left's columns then right's (INNER, LEFT, RIGHT, FULL,
 *                 SINGLE); left's only (SEMI, ANTI); left's then the mark
 *                 column (MARK)
 *      AGGREGATE  new columns: the keys, the aggregates, then GROUPING__ID
 *                 when there are grouping sets
 *      WINDOW     the input's columns, then one new column per window call
 *      LATERAL    the input's columns, then the generator's new columns
 *      SETOP      new columns; column j is column j of left and of right
 *                 (the binder gives both sides the same types)
 *      CTE        its input's columns, same ids, while it has an input
 *                 (as bound); once shared (cte.c), a leaf whose column j
 *                 is column j of the WITH query's one plan
 *
 *  - Rules may rewrite a tree in place or build new nodes; a column id
 *    always means the same value wherever it is read.  The optimized tree
 *    gives the same rows (as a multiset; in order only under a SORT that
 *    is kept) as the bound one.  The planner is deterministic: the same
 *    statement over the same files gives the same plan.
 *
 * Window functions (qwindow) and LATERAL VIEW (qfunc) have their node
 * kinds and a pointer each to a struct of their own (declared by their
 * headers); the binder places a WINDOW node between the aggregation (or
 * FROM/WHERE) and the select list's PROJECT, a LATERAL node over the FROM
 * item it follows; lowering dispatches on the kind.
 */
#ifndef COMB_SQL_PLAN_LOGICAL_H
#define COMB_SQL_PLAN_LOGICAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/func/aggregate.h"
#include "sql/func/expr.h"
#include "sql/func/rowstore.h"
#include "sql/func/udtf.h"
#include "sql/plan/plan.h"
#include "sql/sql_int.h"

typedef enum LpKind {
    LP_GET,        /* a table's rows under the statement snapshot */
    LP_VALUES,     /* constant rows: a FROM-less query's one row, or none */
    LP_FILTER,     /* input rows for which pred is TRUE */
    LP_PROJECT,    /* exprs over the input, one per output column */
    LP_JOIN,       /* left and right, combined as join says */
    LP_AGGREGATE,  /* groups of keys (per grouping set), aggregates */
    LP_WINDOW,     /* window functions (qwindow: struct LpWindow) */
    LP_LATERAL,    /* LATERAL VIEW generator (qfunc: struct LpLateral) */
    LP_SORT,       /* all input rows ordered by sort keys */
    LP_LIMIT,      /* rows offset .. offset + limit - 1 of the input */
    LP_SETOP,      /* UNION / INTERSECT / EXCEPT of left and right */
    LP_CTE         /* a reference to a WITH query (cte: struct LpCte) */
} LpKind;

typedef enum LpJoinKind {
    LP_JOIN_INNER,  /* also CROSS JOIN and comma joins (cond NULL) */
    LP_JOIN_LEFT,   /* LEFT OUTER: left rows without a match get NULLs */
    LP_JOIN_RIGHT,
    LP_JOIN_FULL,
    LP_JOIN_SEMI,   /* left rows whose mark is TRUE (LEFT SEMI JOIN, IN,
                       EXISTS) */
    LP_JOIN_ANTI,   /* left rows whose mark is FALSE (NOT EXISTS, NOT IN) */
    LP_JOIN_MARK,   /* every left row and its mark (a subquery predicate
                       that is not a conjunct of WHERE: OR, CASE, ...) */
    LP_JOIN_SINGLE  /* every left row and the one right row matching it
                       (scalar subquery): NULLs (or single_default's row)
                       without one; more than one is Hive's error */
} LpJoinKind;

typedef enum LpSetOpKind {
    LP_UNION,
    LP_INTERSECT,
    LP_EXCEPT       /* also MINUS */
} LpSetOpKind;

typedef struct LpCol {
    int id;
    const char *name;        /* unqualified ("a", "_c1", "ROW__ID.writeid") */
    const CombType *type;
} LpCol;

/* ORDER BY key: an input column, its direction and where NULLs go. */
typedef struct LpSortKey {
    int col;                 /* column id of the input */
    bool desc;
    bool nulls_first;
} LpSortKey;

struct LpWindow;             /* plan/window.h (qwindow) */

/* LATERAL VIEW [OUTER] f(...) (and a lone table function in the select
 * list, whose PROJECT keeps only the new columns): f's arguments are over
 * the input's columns. */
struct LpLateral {
    SqlUdtf *u;
    bool outer;              /* a row of NULLs when f gives none */
    const char *const *names; /* the new columns' names */
};

typedef struct LpNode LpNode;

/* A WITH query as its references see it (cte.c).  Every reference is
 * bound on its own (an LP_CTE node over its own copy of the query); when
 * the query is referenced often enough and sharing cannot change an
 * answer, the references become leaves reading `plan`, computed once. */
struct LpCte {
    const char *name;
    int n_refs;              /* references bound */
    bool decided;            /* cte.c looked at it: shared or not */
    bool shared;             /* the references read plan's one result */
    LpNode *plan;            /* shared: the query, optimized on its own */
    struct SqlCteStore *store; /* exec/op_cte.c: plan lowered, the result
                                  its readers share (opaque here) */
};

struct LpNode {
    LpKind kind;
    int n_cols;
    LpCol *cols;
    LpNode *input;           /* unary nodes; JOIN and SETOP: the left */
    LpNode *right;           /* JOIN, SETOP */
    const char *label;       /* EXPLAIN: the line above a derived table's
                                tree ("Subquery s", "View db.v", "CTE c") */
    double est_rows;         /* estimated output rows (rules.c); < 0 unknown */

    /* GET */
    const SqlTable *table;
    const char *alias;       /* the name the query reads it by */
    BoundExpr *filter;       /* predicates pushed into the scan; NULL none */
    struct LpGetStats *stats; /* stats.c: rows and value ranges from the
                                files, read once per node; NULL not yet */

    /* VALUES: n_rows rows of n_cols constant expressions */
    int n_rows;
    BoundExpr ***rows;

    /* FILTER: pred (boolean) */
    BoundExpr *pred;

    /* PROJECT: exprs[j] gives output column j */
    BoundExpr **exprs;

    /* JOIN.  cond is TRUE-only (NULL: none, a cross product); with
     * in_left/in_right (x IN (SELECT y ...)) the mark is three-valued as
     * SQL's IN: TRUE when a right row satisfies cond and x = y, else NULL
     * when one satisfies cond with x or y NULL, else FALSE; without them
     * TRUE when a right row satisfies cond.  SEMI keeps the left rows
     * whose mark is TRUE, ANTI those whose mark is FALSE (so NOT IN over
     * a NULL is no row, as in Hive).  The equi keys and the residual are
     * found by the lowering (exec/lower.c) from cond. */
    LpJoinKind join;
    BoundExpr *cond;
    BoundExpr *in_left, *in_right;
    int mark_col;            /* MARK: id of the boolean mark column */
    LpNode *single_default;  /* SINGLE: a plan of at most one row, columns
                                positionally right's, for left rows without
                                a match (a correlated aggregate over no
                                rows: count 0); NULL: NULLs */
    AstPos single_pos;       /* SINGLE: the scalar subquery (for the error
                                of its second row) */

    /* AGGREGATE: output keys, then aggs, then GROUPING__ID (n_sets > 0).
     * sets[s] has bit k set when key k is NOT grouped in set s (Hive's
     * GROUPING__ID of the set, key 0 the most significant of n_keys
     * bits). */
    int n_keys;
    BoundExpr **keys;
    int n_aggs;
    SqlAggSpec *aggs;
    int n_sets;
    uint64_t *sets;

    /* SORT */
    int n_sort;
    LpSortKey *sort;

    /* LIMIT: limit < 0 is no limit */
    int64_t offset;
    int64_t limit;

    /* SETOP */
    LpSetOpKind setop;
    bool all;

    /* WINDOW, LATERAL */
    struct LpWindow *window;
    struct LpLateral *lateral;

    /* CTE */
    struct LpCte *cte;
};

/* ------------------------------------------------------------- nodes (lp.c) */

/* A new column id of the statement. */
int sql_lp_col_id(SqlStmtCtx *c);
/* A node of `kind` with n_cols columns (zeroed: fill in names and types),
 * in the statement arena; NULL when out of memory. */
LpNode *sql_lp_node(SqlStmtCtx *c, LpKind kind, int n_cols);
/* Column `col` of n as an expression (BX_COL with its id). */
BoundExpr *sql_lp_colref(SqlStmtCtx *c, const LpCol *col, AstPos pos);
/* The output column of n with this id, or NULL. */
const LpCol *sql_lp_find_col(const LpNode *n, int id);
/* Nodes whose output columns are their input's (same ids): FILTER, SORT,
 * LIMIT, and the GET, VALUES, JOIN, ... built by the constructors below.
 * Each returns COMB_OK and the node in *out, or COMB_ENOMEM. */
int sql_lp_filter(SqlStmtCtx *c, LpNode *input, BoundExpr *pred,
                  LpNode **out, CombErr *err);
int sql_lp_limit(SqlStmtCtx *c, LpNode *input, int64_t offset, int64_t limit,
                 LpNode **out, CombErr *err);
int sql_lp_sort(SqlStmtCtx *c, LpNode *input, const LpSortKey *keys, int n,
                LpNode **out, CombErr *err);
/* A projection of n exprs named names[j] (types from the exprs). */
int sql_lp_project(SqlStmtCtx *c, LpNode *input, int n, BoundExpr **exprs,
                   const char *const *names, LpNode **out, CombErr *err);
/* A projection passing on input columns ids[0..n) (same ids). */
int sql_lp_keep(SqlStmtCtx *c, LpNode *input, const int *ids, int n,
                LpNode **out, CombErr *err);
/* A scan of t read as alias: its columns and ROW__ID's three. */
int sql_lp_get(SqlStmtCtx *c, const SqlTable *t, const char *alias,
               LpNode **out, CombErr *err);
/* One row of no columns (a query without FROM); zero rows when empty. */
int sql_lp_values(SqlStmtCtx *c, bool empty, LpNode **out, CombErr *err);
/* A join of kind over cond (mark_col is made for MARK). */
int sql_lp_join(SqlStmtCtx *c, LpJoinKind kind, LpNode *left, LpNode *right,
                BoundExpr *cond, LpNode **out, CombErr *err);

/* --------------------------------------------------- expressions (lp.c) */

/* A growing list of expressions (conjuncts being moved by a rule). */
typedef struct LpExprs {
    int n, cap;
    BoundExpr **e;
} LpExprs;
/* Append e (statement arena); COMB_OK or COMB_ENOMEM. */
int sql_lp_exprs_add(SqlStmtCtx *c, LpExprs *l, BoundExpr *e, CombErr *err);

/* Call fn(ctx, id) for each column id e reads (ROW__ID: its three). */
void sql_lp_expr_cols(const BoundExpr *e, void (*fn)(void *ctx, int id),
                      void *ctx);
/* Does e read only columns of n's output? */
bool sql_lp_expr_within(const BoundExpr *e, const LpNode *n);
/* Does e read any column of n's output? */
bool sql_lp_expr_touches(const BoundExpr *e, const LpNode *n);
/* Does e read column id? */
bool sql_lp_expr_reads(const BoundExpr *e, int id);
/* Does e read only columns of a's and b's outputs? */
bool sql_lp_expr_within2(const BoundExpr *e, const LpNode *a, const LpNode *b);
/* pred without its conjunct i (NULL when none is left, or out of
 * memory: pred had a single conjunct or the caller checks). */
BoundExpr *sql_lp_without_conjunct(SqlStmtCtx *c, BoundExpr *pred, int i);
/* A copy of e with each BX_COL whose id is ids[k] replaced by a copy of
 * with[k] (BX_ROWID over ids that are replaced is refused: NULL). */
BoundExpr *sql_lp_expr_subst(SqlStmtCtx *c, const BoundExpr *e,
                             const int *ids, BoundExpr *const *with, int n);
/* The one column id e reads (several or none: -1). */
int sql_lp_expr_single_col(const BoundExpr *e);
/* Does e call a volatile function (rand(), ...: a new value each call)? */
bool sql_lp_expr_volatile(const BoundExpr *e);
/* Structural equality of two bound expressions (same kinds, operators,
 * types, columns and constants). */
bool sql_lp_expr_equal(const BoundExpr *a, const BoundExpr *b);

/* -------------------------------------------------------- the binder */

/* Bind a query (a SELECT, a set operation, WITH ...) into a plan whose
 * output columns are the query's result columns, named as Hive names
 * them (with hive.resultset.use.unique.column.names, "t.c" for a column
 * read as t.c or through t.*), and optimize it. */
int sql_lp_bind_query(SqlStmtCtx *c, const AstSelect *q, LpNode **out,
                      CombErr *err);
/* The rows an UPDATE or DELETE changes: a GET of t (its columns and
 * ROW__ID, in table order) filtered by where, which may hold subqueries
 * (IN, NOT IN, EXISTS, scalar), correlated to t or not. */
int sql_lp_bind_dml_source(SqlStmtCtx *c, const SqlTable *t,
                           const AstExpr *where, LpNode **out, CombErr *err);

/* ------------------------------------------------------- rules (rules.c) */

/* Every rule, in order: WITH queries shared by their references
 * (cte.c), constant folding of predicates, decorrelation
 * (MARK joins whose mark is a WHERE conjunct become SEMI / ANTI joins),
 * predicate push-down (never into the NULL-supplying side of an outer
 * join, never below a LIMIT, an aggregate's computed columns or a
 * window), aggregations joined by a key restricted to the keys the other
 * side's filtered scan can give (restrict.c), join ordering of runs of
 * inner joins by estimated size, and
 * projection pruning (unused PROJECT and AGGREGATE outputs removed). */
int sql_lp_optimize(SqlStmtCtx *c, LpNode **root, CombErr *err);

/* Individual rules (the unit tests call them one at a time). */
int sql_lp_fold(SqlStmtCtx *c, LpNode **root, CombErr *err);
int sql_lp_decorrelate(SqlStmtCtx *c, LpNode **root, CombErr *err);
int sql_lp_factor_ors(SqlStmtCtx *c, LpNode **root, CombErr *err);
int sql_lp_push_filters(SqlStmtCtx *c, LpNode **root, CombErr *err);
/* restrict.c: an aggregation joined by a GROUP BY key whose partner is a
 * column of a filtered scan T reads only the rows whose key is in
 * (SELECT that column FROM T WHERE T's filter): a SEMI join under it. */
int sql_lp_restrict_keys(SqlStmtCtx *c, LpNode **root, CombErr *err);
int sql_lp_order_joins(SqlStmtCtx *c, LpNode **root, CombErr *err);
/* cte.c, before every other rule: each WITH query referenced at least
 * hive.optimize.cte.materialize.threshold times (comb's default 2; 0 or
 * less: never) whose result is an aggregation and whose expressions call
 * nothing volatile is computed once (its plan optimized on its own) and
 * its references read that result; the other references become their
 * own copies of the query, as if written in place. */
int sql_lp_share_ctes(SqlStmtCtx *c, LpNode **root, CombErr *err);
/* A reference to WITH query cte over input (its own binding of the
 * query): an LP_CTE node with input's columns. */
int sql_lp_cte_ref(SqlStmtCtx *c, struct LpCte *cte, LpNode *input,
                   LpNode **out, CombErr *err);

/* Estimated rows of a node (stats.c), its inputs' est_rows already set:
 * a GET's from its ORC files' footers (row counts; text files: their
 * bytes) scaled by the selectivity of its pushed filter; an equi-join's
 * from its inputs' rows and the distinct values of the keys; the others
 * from their inputs. */
double sql_lp_estimate(SqlStmtCtx *c, LpNode *n);
/* Estimated distinct values of column `id` of n's output (n and the nodes
 * below estimated): a table column's from its files' value range
 * (integers, dates) or the table's rows, never more than n's rows; < 0
 * unknown. */
double sql_lp_col_ndv(SqlStmtCtx *c, const LpNode *n, int id);
/* The fraction of rows of l x r an inner join condition keeps: its
 * equalities of columns of l and of r as one key, 1 / the larger of the
 * two sides' distinct key values (each at most its side's rows and the
 * other side's table's); 1 without such an equality. */
double sql_lp_join_selectivity(SqlStmtCtx *c, const BoundExpr *cond,
                               const LpNode *l, const LpNode *r);

/* The plan as indented text, one node a line (tests, debugging). */
int sql_lp_format(SqlStmtCtx *c, const LpNode *root, char **out,
                  CombErr *err);

#endif
