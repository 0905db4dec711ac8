/*
 * agg.h - aggregate functions (UDAFs): Hive's argument checks and result
 * types when a call is bound, and one evaluation interface over
 * aggregation states.  Two operators call it:
 *
 *  - hash aggregation (exec/op_agg.c): one state per group and call; each
 *    input batch is added with the state of each row's group; at the end
 *    each state's final value is a column of the aggregated batch;
 *  - window frames (the window operator): an aggregate OVER (...) adds
 *    the rows of a frame to a state and reads its final value, as often
 *    as it likes (final does not consume the state), starting again with
 *    init for the next partition or frame; a frame that grows row by row
 *    (ROWS/RANGE ... UNBOUNDED PRECEDING to CURRENT ROW) keeps adding to
 *    one state.
 *
 * merge folds one state into another, so that a parallel execution can
 * aggregate morsels apart and merge their partial states (Hive's
 * PARTIAL1/FINAL modes); merge(init + rows A, init + rows B) has the
 * final value of init + rows A + B, with Hive's own merge arithmetic
 * where Hive's differs from adding the rows again (variance, covariance,
 * percentile_approx's histogram).  Only where SqlAgg.merge_exact is set
 * is that value the serial one to the last bit, whichever way the rows
 * were cut: a parallel plan aggregates apart only calls that have it.
 *
 * States: `state_size` bytes the caller provides (aligned to 16), set up
 * by init.  Whatever a state holds beyond them (min/max strings, the
 * values of collect_list, percentile's counts) is allocated in the arena
 * the caller passes to add and merge, and stays valid as long as that
 * arena: a state needs no destructor.  merge may keep pointers into the
 * source state's memory (min/max values, collected values), so the
 * source's arena must live as long as the destination's.  A state's final value is a datum
 * (rowstore.h) whose strings and parts may point into the state.
 *
 * Arguments: the caller evaluates the call's argument expressions
 * (SqlAgg.args, bound over the caller's input) over a batch and hands
 * their vectors to add; constant parameters (percentile's p,
 * percentile_approx's accuracy) are taken at bind time.  DISTINCT is the
 * caller's: it feeds each distinct argument tuple of a group once.
 */
#ifndef COMB_SQL_FUNC_AGG_H
#define COMB_SQL_FUNC_AGG_H

#include <stdbool.h>
#include <stddef.h>

#include "sql/func/expr.h"
#include "sql/func/rowstore.h"

typedef struct SqlAgg SqlAgg;

typedef struct SqlAggOps {
    /* An empty state: no rows. */
    void (*init)(const SqlAgg *a, void *st);
    /* Add the live rows of `in`: argv[k] is argument k evaluated over in
     * (none for count(*)), sts[i] the state live row i goes to. */
    int (*add)(const SqlAgg *a, void *const *sts, const CombVector *const *argv,
               const CombBatch *in, CombArena *mem, CombErr *err);
    /* dst := dst with src's rows (src unchanged). */
    int (*merge)(const SqlAgg *a, void *dst, const void *src, CombArena *mem,
                 CombErr *err);
    /* The value of the rows added so far, of type a->type.  The state
     * stays usable: more rows may be added and final asked again. */
    int (*final)(const SqlAgg *a, void *st, SqlDatum *out, CombArena *mem,
                 CombErr *err);
} SqlAggOps;

/* One bound aggregate call. */
struct SqlAgg {
    const char *name;        /* Hive's name as called ("stddev_samp") */
    const SqlAggOps *ops;
    int n_args;              /* the value arguments; 0 for count(*) */
    BoundExpr **args;        /* over the caller's input */
    bool star;               /* count(*) */
    bool distinct;           /* f(DISTINCT ...): see above */
    bool merge_exact;        /* merging partial states gives the value one
                                state fed every row gives, bit for bit
                                (count, min, max; sum and avg of integers
                                and decimals), so copies may aggregate
                                apart; false for floating sums, variances,
                                percentiles, collect_* (element order) and
                                DISTINCT calls (their seen sets) */
    const CombType *type;    /* result type */
    size_t state_size;
    int kind;                /* the function's own variant (var_pop, ...) */
    int n_params;            /* constant parameters (percentile's p list) */
    double *params;
    bool param_list;         /* the parameter was an array: the result too */
    int64_t accuracy;        /* percentile_approx's B */
    const char *text;        /* the call as written, for EXPLAIN */
};

/* True when name is an aggregate function. */
bool sql_agg_exists(const char *name);

/* Bind call (an AST_FUNC naming an aggregate) whose value arguments are
 * already bound (args[0..n_args), over the caller's input): Hive's checks
 * (argument count 10015, types 10016/10014, constant parameters) and the
 * result type.  *out lives in the statement arena. */
int sql_agg_bind(SqlStmtCtx *c, const AstExpr *call, BoundExpr **args,
                 int n_args, SqlAgg **out, CombErr *err);

/* The names of every aggregate (for SHOW FUNCTIONS), NULL-terminated. */
const char *const *sql_agg_names(void);

#endif
