/*
 * aggregate.h - aggregate calls as the plan carries them: which function,
 * its bound arguments, DISTINCT, and its result type by Hive's rules
 * (GenericUDAFCount/Sum/Average/Min/Max).  aggregate.c types a call;
 * exec/op_agg.c computes it.  New aggregate functions add an SqlAggFn,
 * their typing here and their state there.
 */
#ifndef COMB_SQL_FUNC_AGGREGATE_H
#define COMB_SQL_FUNC_AGGREGATE_H

#include <stdbool.h>

#include "sql/func/expr.h"

typedef enum SqlAggFn {
    SQL_AGG_COUNT,
    SQL_AGG_SUM,
    SQL_AGG_MIN,
    SQL_AGG_MAX,
    SQL_AGG_AVG
} SqlAggFn;

/* One aggregate call: fn(args) (count(*): no args), result type.  With
 * distinct, each distinct tuple of argument values counts once per group
 * (rows with a NULL argument not at all, as every aggregate skips
 * them). */
typedef struct SqlAggSpec {
    SqlAggFn fn;
    int n_args;
    BoundExpr **args;        /* over the aggregation's input */
    bool distinct;
    const CombType *type;
    const char *text;        /* as written, for EXPLAIN and headers */
} SqlAggSpec;

/* Type the call e (an AST_FUNC naming an aggregate, sql_is_aggregate)
 * over its bound arguments args[0..n_args) (count(*): none) into *out:
 * Hive's errors for '*' outside count (10015), wrong argument counts
 * (10015), sum/avg of non-numbers (10014), min/max of maps (10016). */
int sql_bind_aggregate(SqlStmtCtx *c, const AstExpr *e, BoundExpr **args,
                       int n_args, SqlAggSpec *out, CombErr *err);

#endif
