/*
 * window.h - the window node of a plan (LP_WINDOW's struct LpWindow, see
 * logical.h) and of the physical window operator (exec/op_window.c,
 * sql_op_window in exec/op.h): one PARTITION BY / ORDER BY and the window
 * calls computed over it.  Each call has its own frame (func/window.h),
 * so calls that share the partitioning and ordering share one node and
 * one sort; a query with several distinct specifications chains one node
 * per specification.
 *
 * Output: the input's columns, then one column per call (its result
 * type).  Expressions (partition keys, order keys, the calls' arguments)
 * are over the node's input: column ids in a logical plan, positions once
 * lowered to the operator.
 */
#ifndef COMB_SQL_PLAN_WINDOW_H
#define COMB_SQL_PLAN_WINDOW_H

#include "sql/func/window.h"

/* An ORDER BY key of a window: where NULLs go follows Hive 4 (NULLS
 * FIRST/LAST as written, else hive.default.nulls.last: ascending NULLs
 * last, descending first). */
typedef struct LpWinOrder {
    BoundExpr *expr;
    bool desc;
    bool nulls_first;
} LpWinOrder;

struct LpWindow {
    int n_part;
    BoundExpr **part;        /* PARTITION BY: NULL keys form one partition */
    int n_order;
    LpWinOrder *order;
    int n_calls;
    SqlWinCall **calls;
};
typedef struct LpWindow LpWindow;

#endif
