/*
 * bind_window.c - window functions in the binder (bind_int.h): the hook
 * qwindow fills in.  Until then a query has no window calls to bind:
 * nothing is resolved and no LP_WINDOW node is placed.
 */
#include "sql/plan/bind_int.h"

int sql_bq_windows(BqBlock *b, CombErr *err)
{
    (void)b;
    (void)err;
    return COMB_OK;
}

int sql_bq_windows_place(BqBlock *b, CombErr *err)
{
    (void)b;
    (void)err;
    return COMB_OK;
}
