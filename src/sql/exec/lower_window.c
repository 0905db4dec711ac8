/*
 * lower_window.c - an LP_WINDOW node into the window operator (op.h; the
 * window functions' branch fills it in with exec/op_window.c).  Until
 * then the binder places no WINDOW node, and one here is refused.
 */
#include "sql/exec/op.h"

int sql_lower_window(SqlStmtCtx *c, const LpNode *n, SqlOp **out,
                     CombErr *err)
{
    (void)c;
    (void)n;
    (void)out;
    return sql_err_at(err, COMB_EUNSUPPORTED, 0, (AstPos){0, 0},
                      "window functions are not supported yet");
}
