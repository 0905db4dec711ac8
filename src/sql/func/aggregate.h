/*
 * aggregate.h - aggregate calls as the logical plan carries them
 * (plan/logical.h): they are the aggregate interface's bound calls
 * (func/agg.h), held by value.  sql_bind_aggregate types one (Hive's
 * checks and result types, func_agg.c); exec/op_agg.c and the window
 * operator compute it through SqlAgg.ops.
 */
#ifndef COMB_SQL_FUNC_AGGREGATE_H
#define COMB_SQL_FUNC_AGGREGATE_H

#include "sql/func/agg.h"

typedef SqlAgg SqlAggSpec;

/* True when name is an aggregate function (sql_agg_exists). */
bool sql_is_aggregate(const char *name);

/* Type the call e (an AST_FUNC naming an aggregate) over its bound
 * arguments args[0..n_args) (count(*): none) into *out (sql_agg_bind). */
int sql_bind_aggregate(SqlStmtCtx *c, const AstExpr *e, BoundExpr **args,
                       int n_args, SqlAggSpec *out, CombErr *err);

#endif
