/*
 * aggregate.c - the logical plan's view of aggregate calls (aggregate.h)
 * over the aggregate interface (agg.h, func_agg.c).
 */
#include "sql/func/aggregate.h"

bool sql_is_aggregate(const char *name)
{
    return sql_agg_exists(name);
}

int sql_bind_aggregate(SqlStmtCtx *c, const AstExpr *e, BoundExpr **args,
                       int n_args, SqlAggSpec *out, CombErr *err)
{
    SqlAgg *a;
    int rc = sql_agg_bind(c, e, args, n_args, &a, err);
    if (!rc)
        *out = *a;
    return rc;
}
