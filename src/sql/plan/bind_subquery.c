/*
 * bind_subquery.c - subqueries in expressions (bind_int.h).
 */
#include "sql/plan/bind_int.h"

int sql_bq_subquery(BqBlock *b, const AstExpr *e, BoundExpr **out,
                    CombErr *err)
{
    (void)b;
    (void)out;
    return sql_err_at(err, COMB_EUNSUPPORTED, 0, e->pos,
                      "subqueries in expressions are not supported yet");
}
