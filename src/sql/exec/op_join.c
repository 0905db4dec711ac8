/*
 * op_join.c - joins (op.h).
 */
#include "sql/exec/op.h"

int sql_op_join(SqlStmtCtx *c, SqlOp *left, SqlOp *right,
                const SqlJoinSpec *spec, SqlOp **out, CombErr *err)
{
    (void)c; (void)left; (void)right; (void)spec; (void)out;
    return comb_err(err, COMB_EUNSUPPORTED, "joins are not supported yet");
}
