/*
 * udtf.h - table-generating functions (Hive's UDTFs) for LATERAL VIEW
 * and a lone UDTF in a select list: explode (GenericUDTFExplode: an
 * array's elements as `col`, a map's entries as `key`, `value`),
 * posexplode (`pos`, `val`), inline (an array of structs, one column per
 * field) and stack (stack(n, v1, ..., vk): n rows of k / n columns `col0`,
 * `col1`, ...).  Binding checks the arguments as Hive does and gives the
 * output columns; evaluation is per input row: how many rows the call
 * gives, and each value (exec/op_lateral.c runs it).
 */
#ifndef COMB_SQL_FUNC_UDTF_H
#define COMB_SQL_FUNC_UDTF_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/func/expr.h"

typedef struct SqlUdtf {
    const char *name;
    int kind;                /* private to func_udtf.c */
    int n_args;
    BoundExpr **args;        /* over the input */
    int n_cols;              /* output columns */
    const char **names;      /* their default names */
    const CombType **types;
    int rows;                /* stack: the n */
    const char *text;        /* the call as written */
} SqlUdtf;

/* True when name is a table-generating function. */
bool sql_udtf_exists(const char *name);
/* The names of every table-generating function, NULL-terminated. */
const char *const *sql_udtf_names(void);

/* Bind call, its arguments already bound over the input. */
int sql_udtf_bind(SqlStmtCtx *c, const AstExpr *call, BoundExpr **args,
                  int n_args, SqlUdtf **out, CombErr *err);

/* The rows the call gives for input row `row`, argv[i] being argument i
 * evaluated over the input batch. */
int64_t sql_udtf_rows(const SqlUdtf *u, const CombVector *const *argv, int row);
/* Column j of its k-th row into fill f at row out_row.  0 or COMB_ENOMEM. */
int sql_udtf_value(const SqlUdtf *u, const CombVector *const *argv, int row,
                   int64_t k, int j, SqlVecFill *f, int out_row);

#endif
