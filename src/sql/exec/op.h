/*
 * op.h - query operators: the stages a query runs as (table scan, a single
 * row for a FROM-less query, filter, projection, hash aggregation, sort,
 * limit), chained into a tree whose root feeds the statement's sink.  A
 * subquery in FROM or a view is simply the root of its own query's tree
 * used as an input.  Joins, set operations and window functions
 * (op_window.c) are operators of the same kind.
 *
 * The contract every operator keeps:
 *
 *  - Schema.  n_cols, names and types of its output are set when it is
 *    built (before open) and never change; column j of every batch it
 *    returns holds values of types[j].  names are unqualified ("a", "_c1")
 *    and only name columns (EXPLAIN, a derived table's default names).
 *  - open() opens the input first, then takes what the operator needs
 *    (readers, expression vectors).  close() releases all of it and closes
 *    the input; it may be called after a failed open, or twice.
 *  - next() sets *out to the next batch, or NULL at the end (and NULL on
 *    every later call).  A returned batch has at least one live row and
 *    belongs to the operator that returned it: the batch and every vector
 *    it points at stay valid and unchanged until that operator's next call
 *    of next() or close().  Whoever reads it never writes it - not its
 *    header, not its selection, not a vector.  An operator that narrows
 *    rows or rearranges columns builds a header of its own (a copy of the
 *    input's, with its own selection array or column array over the shared
 *    vectors).  So a projection hands on its expressions' vectors, and a
 *    column reference hands on the input's vector itself.
 *  - Expressions an operator evaluates are BoundExpr trees over its
 *    input's columns (BX_COL j is column j of the input's batches; a scan's
 *    filter is over the table's columns).  The operator owns them: it
 *    prepares them at open and releases them at close.
 *  - Memory stays bounded for streaming operators (one batch each);
 *    aggregation holds its groups and sort its rows, on the heap, freed at
 *    close.
 *
 * Two planning passes run down a built tree before it is opened:
 *  - sql_op_push_filter offers a predicate over the operator's output
 *    columns.  A scan takes it into its filter (where partition pruning
 *    sees it), a projection rewrites it through its expressions and offers
 *    it to its input, a filter or sort passes it on (a filter keeps it if
 *    its input refuses); aggregation, limit and the single row refuse it,
 *    and the caller then filters itself.
 *  - sql_op_need says which output columns the consumer reads (NULL: all);
 *    each operator passes on what it reads itself, so a scan decodes only
 *    the columns the whole query uses, through any number of derived
 *    tables.  It must be called exactly once per operator, after the last
 *    push_filter.
 */
#ifndef COMB_SQL_OP_H
#define COMB_SQL_OP_H

#include "sql/exec/exec.h"
#include "sql/func/agg.h"
#include "sql/func/rowstore.h"
#include "sql/func/udtf.h"
#include "sql/plan/logical.h"

typedef struct SqlOp SqlOp;
typedef struct SqlExplain SqlExplain;

typedef struct SqlOpVt {
    const char *name;        /* EXPLAIN's word for it: "TableScan", ... */
    int (*open)(SqlOp *op, CombErr *err);
    int (*next)(SqlOp *op, const CombBatch **out, CombErr *err);
    void (*close)(SqlOp *op);
    /* the consumer reads output column j when used[j] */
    void (*need)(SqlOp *op, const bool *used);
    /* take pred (over the output columns), or return false */
    bool (*push_filter)(SqlOp *op, BoundExpr *pred);
    /* EXPLAIN: the rest of the operator's line, its property lines */
    int (*explain)(const SqlOp *op, SqlExplain *x, CombErr *err);
} SqlOpVt;

struct SqlOp {
    const SqlOpVt *vt;
    SqlStmtCtx *c;
    SqlOp *input;            /* NULL for a leaf */
    int n_cols;
    const char **names;
    const CombType **types;
    const char *label;       /* EXPLAIN: a line shown above the operator
                                ("Subquery s", "View db.v"); NULL */
    SqlOp *right;            /* a join's second input; NULL */
    SqlOp **more;            /* UNION ALL: inputs after the first */
    int n_more;
    bool opened;
};

/* A new operator of `size` bytes (its struct starts with SqlOp) in the
 * statement arena: vt, input, and the input's schema (which an operator
 * that changes it replaces).  NULL when out of memory. */
void *sql_op_alloc(SqlStmtCtx *c, size_t size, const SqlOpVt *vt,
                   SqlOp *input);

/* The contract's calls (NULL op: nothing for close). */
int sql_op_open(SqlOp *op, CombErr *err);
int sql_op_next(SqlOp *op, const CombBatch **out, CombErr *err);
void sql_op_close(SqlOp *op);
void sql_op_need(SqlOp *op, const bool *used);
bool sql_op_push_filter(SqlOp *op, BoundExpr *pred);

/* A table's rows under the statement snapshot (SqlScan): output columns
 * are the table's, then ROW__ID's writeid, bucketid and rowid (read only
 * when needed: ROW__ID of a table that is not full ACID is an error at
 * open).  Pushed predicates become its filter. */
int sql_op_scan(SqlStmtCtx *c, const SqlTable *t, SqlOp **out, CombErr *err);
/* Parallel copies (par.h): whether op is a table scan; its walk over
 * the morsels (NULL: no scan, or not open); the expressions a scan
 * (its filter), filter or projection evaluates, -1 for other operators. */
bool sql_op_is_scan(const SqlOp *op);
AcidMorselWalk *sql_op_scan_walk(SqlOp *op);
int sql_op_exprs(const SqlOp *op, BoundExpr *const **out);
int sql_scan_op_filter(const SqlOp *op, BoundExpr *const **out);
/* One row and no columns: the input of a query without FROM. */
int sql_op_one_row(SqlStmtCtx *c, SqlOp **out, CombErr *err);
/* Rows of input for which pred is TRUE. */
int sql_op_filter(SqlStmtCtx *c, SqlOp *input, BoundExpr *pred, SqlOp **out,
                  CombErr *err);
/* n columns: exprs[j] over the input, named names[j], of types[j].  The
 * arrays are borrowed and may still be changed before open (INSERT's
 * conversions to the target's types). */
int sql_op_project(SqlStmtCtx *c, SqlOp *input, int n, BoundExpr **exprs,
                   const char **names, const CombType **types, SqlOp **out,
                   CombErr *err);

/* Hash aggregation: one output row per distinct value of keys (over the
 * input; one row for no keys, even without input rows): the keys, then
 * each aggregate's value.  names: n_keys + n_aggs output names. */
int sql_op_aggregate(SqlStmtCtx *c, SqlOp *input, int n_keys,
                     BoundExpr **keys, int n_aggs, SqlAgg **aggs,
                     const char **names, SqlOp **out, CombErr *err);
/* Parallel aggregation (par.h): peers[0..n) are aggregations built as
 * op is, over copies of its input; they run beside it on threads of
 * their own, over their share of the scan's morsels, and op merges
 * them. */
int sql_op_aggregate_peers(SqlOp *op, SqlOp **peers, int n, CombErr *err);
/* LATERAL VIEW [OUTER] u (op_lateral.c): for each input row the rows of
 * table function u, after the input's columns (keep_input) or alone (a
 * lone table function in the select list); names: u's output columns. */
int sql_op_lateral(SqlStmtCtx *c, SqlOp *input, SqlUdtf *u, bool outer,
                   bool keep_input, const char *const *names, SqlOp **out,
                   CombErr *err);
/* Window functions (op_window.c, plan/window.h): the input's rows sorted
 * by w's partition and order keys, each with its columns and then one
 * column per call of w (names: the calls' output names). */
struct LpWindow;
int sql_op_window(SqlStmtCtx *c, SqlOp *input, const struct LpWindow *w,
                  const char **names, SqlOp **out, CombErr *err);
/* All input rows sorted by keys (columns of the input), then the first
 * n_emit columns of each. */
int sql_op_sort(SqlStmtCtx *c, SqlOp *input, const SqlSortKey *keys,
                int n_keys, int n_emit, SqlOp **out, CombErr *err);
/* Parallel sort (par.h): peers[0..n) are sorts built as op is over
 * copies of its input; each sorts its share of the morsels on a thread
 * of its own and op merges the runs. */
int sql_op_sort_peers(SqlOp *op, SqlOp **peers, int n, CombErr *err);
/* The first limit rows of input. */
int sql_op_limit(SqlStmtCtx *c, SqlOp *input, int64_t limit, SqlOp **out,
                 CombErr *err);

/* Rows offset .. offset + limit - 1 of input (limit < 0: all after
 * offset). */
int sql_op_offset_limit(SqlStmtCtx *c, SqlOp *input, int64_t offset,
                        int64_t limit, SqlOp **out, CombErr *err);
/* UNION ALL (op_setop.c): the rows of inputs[0], then of inputs[1], ...;
 * the schema is the first input's (the others have the same types). */
int sql_op_union_all(SqlStmtCtx *c, SqlOp **inputs, int n, SqlOp **out,
                     CombErr *err);
/* Each input row count times, count being its BIGINT column count_col
 * (NULL or < 1: none) (op_setop.c: INTERSECT ALL, EXCEPT ALL). */
int sql_op_repeat(SqlStmtCtx *c, SqlOp *input, int count_col, SqlOp **out,
                  CombErr *err);
/* UNION [DISTINCT], INTERSECT [ALL], EXCEPT [ALL] of two inputs of the
 * same types (lower_setop.c), as a UNION ALL of both tagged with their
 * side, aggregated by the whole row. */
int sql_op_setop(SqlStmtCtx *c, LpSetOpKind kind, bool all, SqlOp *left,
                 SqlOp *right, SqlOp **out, CombErr *err);

/* A shared WITH query (op_cte.c, plan/cte.c): its operator tree plan,
 * run once into a store its readers share; each reader reads the rows
 * from the first (plan's columns, named as the WITH query's).  The first
 * reader made holds plan as its input for EXPLAIN. */
typedef struct SqlCteStore SqlCteStore;
int sql_cte_store(SqlStmtCtx *c, SqlOp *plan, SqlCteStore **out, CombErr *err);
int sql_op_cte_read(SqlStmtCtx *c, SqlCteStore *store, const char *name,
                    SqlOp **out, CombErr *err);
/* The join operator (op_join.c): a hash join on equi keys, building one
 * side into a hash table and streaming the other; a nested loop when
 * there are no keys.  Output: left's columns then right's (INNER, LEFT,
 * RIGHT, FULL, SINGLE), left's (SEMI, ANTI), left's then a boolean mark
 * (MARK). */
typedef struct SqlJoinSpec {
    LpJoinKind kind;
    int n_keys;
    BoundExpr **lkeys;       /* over left's columns */
    BoundExpr **rkeys;       /* over right's, each of its left key's type */
    bool *null_safe;         /* <=>: NULL matches NULL */
    BoundExpr *residual;     /* over left ++ right; NULL none */
    bool null_aware;         /* x IN (SELECT y): the last key is x = y, whose
                                NULLs make a mark NULL instead of FALSE */
    bool build_left;         /* INNER, RIGHT, SEMI, ANTI (not null-aware):
                                hash the left side, probe with the right
                                (a RIGHT join building right emits its
                                unmatched rows last, SEMI / ANTI building
                                left their matched / unmatched left rows) */
    SqlOp *single_default;   /* SINGLE: at most one row, right's columns
                                first, for left rows without a match;
                                NULL: NULLs */
    AstPos single_pos;       /* SINGLE: the subquery, for its error */
} SqlJoinSpec;
int sql_op_join(SqlStmtCtx *c, SqlOp *left, SqlOp *right,
                const SqlJoinSpec *spec, SqlOp **out, CombErr *err);
/* Parallel copies (par.h): a join's probe input (NULL: op is no join);
 * whether copies of it may probe one build table side by side; its build
 * table made now (on the statement's thread, before the copies run);
 * copy probes lead's build table instead of building its own. */
SqlOp *sql_op_join_probe(const SqlOp *op);
bool sql_op_join_par_safe(const SqlOp *op);
int sql_op_join_prebuild(SqlOp *op, bool *spilled, CombErr *err);
void sql_op_join_share(SqlOp *copy, const SqlOp *lead);
/* A parallel build (par.h): the build input op reads, when copies of it
 * could store its rows side by side (its keys sql_bx_par_safe), else
 * NULL; copies[0..n) are that input's copies, each storing the rows of
 * its share of the morsels on a thread of its own, which op orders by
 * morsel into its table (the serial engine's order). */
SqlOp *sql_op_join_build_input(const SqlOp *op);
int sql_op_join_build_peers(SqlOp *op, SqlOp **copies, int n, CombErr *err);
/* Parallel marks (par.h) of a SEMI or ANTI join building its left side:
 * its probe input, when copies of the join could each mark the build
 * rows that their share of its morsels matches (keys and residual
 * sql_bx_par_safe), else NULL; copies[0..n) are copies of the join,
 * which probe op's table, and op emits the rows their marks and its own
 * select. */
SqlOp *sql_op_join_mark_input(const SqlOp *op);
int sql_op_join_mark_peers(SqlOp *op, SqlOp **copies, int n, CombErr *err);

/* A WINDOW node (lower_window.c, the window functions' hook): its input
 * lowered, the window operator over it. */
int sql_lower_window(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                     CombErr *err);

/* The rows an UPDATE or DELETE of t whose WHERE has subqueries changes
 * (exec_dml.c): the source plan's operator tree, its needs set (whole
 * rows for UPDATE, ROW__ID for DELETE); the target's scan is its leftmost
 * leaf. */
int sql_dml_source(SqlStmtCtx *c, const SqlTable *t, const AstExpr *where,
                   bool is_update, SqlOp **root, CombErr *err);

/* ------------------------------------------------- lowering (lower.c) */

/* The physical operator tree of a logical plan. */
int sql_lp_lower(SqlStmtCtx *c, const LpNode *root, SqlOp **out,
                 CombErr *err);
/* e (over the columns of a, then b's) with positions for column ids. */
int sql_lower_expr(SqlStmtCtx *c, const BoundExpr *e, const LpNode *a,
                   const LpNode *b, BoundExpr **out, CombErr *err);
/* Copies of node n for the threads beside this one, lowered as n was
 * (the aggregations and sorts inside them without copies of their own),
 * when par.h can run copies of chain op (n's operator or the chain a join
 * of n probes) side by side: comb.exec.threads > 1, op sql_op_par_safe,
 * not itself lowered as a copy.  *n_copies 0 otherwise. */
int sql_lower_copies(SqlStmtCtx *c, const LpNode *n, const SqlOp *op,
                     SqlOp ***copies, int *n_copies, CombErr *err);
/* A JOIN node: its inputs lowered, its condition split into equi keys
 * and a residual (lower_join.c). */
int sql_lower_join(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                   CombErr *err);

/* A copy of e with every BX_COL j replaced by a copy of through[j] (NULL
 * through: column references stay), fresh for its own preparation.  NULL
 * when out of memory. */
BoundExpr *sql_bx_clone(SqlStmtCtx *c, const BoundExpr *e,
                        BoundExpr *const *through);
/* used[j] for every column j of the batch e reads (ROW__ID reads three). */
void sql_bx_mark_used(const BoundExpr *e, int n_cols, bool *used);

/* The operator tree of a bound SELECT (built once; the plan owns it, and
 * sql_select_close closes it). */
int sql_select_build(SqlStmtCtx *c, SqlSelectPlan *p, SqlOp **root,
                     CombErr *err);

/* ---------------------------------------------------------- EXPLAIN */

/* Text after the operator's name on its own line. */
int sql_explain_detail(SqlExplain *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A property line under the operator ("partitions: 2 of 3"). */
int sql_explain_prop(SqlExplain *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* e as text, BX_COL j shown as names[j] (statement arena; NULL: out of
 * memory). */
const char *sql_explain_expr(SqlStmtCtx *c, const BoundExpr *e,
                             const char *const *names);
/* A table scan's lines for EXPLAIN: the table and its kind, the columns it
 * decodes (project, NULL: all), ROW__ID, INPUT__FILE__NAME, its filter and
 * the partitions the filter leaves (statement arena; prepares and releases
 * filter). */
int sql_explain_scan(SqlExplain *x, const SqlTable *t, const bool *project,
                     bool row_id, bool file_name, BoundExpr *filter,
                     CombErr *err);

#endif
