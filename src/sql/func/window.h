/*
 * window.h - window function calls (func(args) OVER (...)): which names
 * are window functions, Hive's checks of their arguments, their result
 * types, and the frame each call computes over (Hive's defaults and its
 * frame checks).  The binder (exec_select.c, and plan/ for the logical
 * plan) binds the calls; the window operator (exec/op_window.c) computes
 * them.  Aggregates OVER (...) are func/agg.h's SqlAgg calls.
 */
#ifndef COMB_SQL_FUNC_WINDOW_H
#define COMB_SQL_FUNC_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/func/agg.h"
#include "sql/func/expr.h"

typedef enum SqlWinKind {
    SQL_WIN_AGG,             /* any aggregate: agg */
    SQL_WIN_ROW_NUMBER,
    SQL_WIN_RANK,
    SQL_WIN_DENSE_RANK,
    SQL_WIN_PERCENT_RANK,
    SQL_WIN_CUME_DIST,
    SQL_WIN_NTILE,           /* n buckets */
    SQL_WIN_LAG,             /* arg, n rows back, dflt */
    SQL_WIN_LEAD,            /* arg, n rows ahead, dflt */
    SQL_WIN_FIRST_VALUE,     /* arg over the frame (ignore_nulls) */
    SQL_WIN_LAST_VALUE
} SqlWinKind;

/* A frame boundary: kind as written (AstBoundKind) and n of n PRECEDING
 * / FOLLOWING (rows for ROWS; a distance in the ORDER BY key's unit for
 * RANGE: numbers, days of a DATE, seconds of a TIMESTAMP). */
typedef struct SqlWinBound {
    AstBoundKind kind;
    int64_t n;
} SqlWinBound;

typedef struct SqlWinFrame {
    bool range;              /* RANGE (peers by the ORDER BY keys), else ROWS */
    SqlWinBound start, end;
} SqlWinFrame;

/* One bound window call.  Its expressions are over the window operator's
 * input. */
typedef struct SqlWinCall {
    SqlWinKind kind;
    const char *name;        /* as called */
    const char *text;        /* the whole call as written (EXPLAIN) */
    SqlAgg *agg;             /* SQL_WIN_AGG */
    BoundExpr *arg;          /* LAG, LEAD, FIRST_VALUE, LAST_VALUE */
    BoundExpr *dflt;         /* LAG / LEAD default; NULL: NULL */
    int64_t n;               /* LAG / LEAD offset, NTILE buckets */
    bool ignore_nulls;       /* FIRST_VALUE / LAST_VALUE */
    SqlWinFrame frame;       /* with Hive's default filled in */
    const CombType *type;    /* result type */
} SqlWinCall;

/* True for the functions that exist only with OVER (row_number, rank,
 * lag, first_value, ...); aggregates are sql_agg_exists'. */
bool sql_window_fn_exists(const char *name);
/* Their names (SHOW FUNCTIONS), NULL-terminated. */
const char *const *sql_window_fn_names(void);

/* Bind call (AST_FUNC with over) whose value arguments are bound
 * (args[0..n_args), over the window operator's input): Hive's argument
 * checks, the result type, and the frame of spec (NULL: none written)
 * with Hive's default when none is written (ORDER BY: RANGE UNBOUNDED
 * PRECEDING to CURRENT ROW; without: the whole partition).  order_type
 * is the type of the only ORDER BY key (NULL when there are n_order != 1),
 * which a RANGE frame with an offset needs.  *out in the statement
 * arena. */
int sql_window_bind(SqlStmtCtx *c, const AstExpr *call,
                    const AstWindowSpec *spec, int n_order,
                    const CombType *order_type, BoundExpr **args, int n_args,
                    SqlWinCall **out, CombErr *err);

#endif
