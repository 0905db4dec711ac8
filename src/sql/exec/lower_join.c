/*
 * lower_join.c - a JOIN node into the join operator (op.h).
 */
#include "sql/exec/op.h"

int sql_lower_join(SqlStmtCtx *c, const LpNode *n, SqlOp **out, CombErr *err)
{
    (void)c; (void)n; (void)out;
    return comb_err(err, COMB_EUNSUPPORTED, "joins are not supported yet");
}
