/*
 * rules.c - the rewrite rules of the logical plan (logical.h).
 */
#include "sql/plan/logical.h"

int sql_lp_fold(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)root;
    (void)err;
    return COMB_OK;
}

int sql_lp_decorrelate(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)root;
    (void)err;
    return COMB_OK;
}

int sql_lp_push_filters(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)root;
    (void)err;
    return COMB_OK;
}

int sql_lp_order_joins(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)root;
    (void)err;
    return COMB_OK;
}

int sql_lp_prune(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    (void)c;
    (void)root;
    (void)err;
    return COMB_OK;
}

int sql_lp_optimize(SqlStmtCtx *c, LpNode **root, CombErr *err)
{
    int rc;
    if ((rc = sql_lp_fold(c, root, err)) || (rc = sql_lp_decorrelate(c, root, err)) ||
        (rc = sql_lp_push_filters(c, root, err)) ||
        (rc = sql_lp_order_joins(c, root, err)))
        return rc;
    return sql_lp_prune(c, root, err);
}
