/*
 * func_int.h - private to the function files of func/ (func.c, func_*.c,
 * complex.c): the function table's row, the families' tables, Hive's
 * argument errors, and the helpers the implementations share.
 */
#ifndef COMB_SQL_FUNC_INT_H
#define COMB_SQL_FUNC_INT_H

#include <stdarg.h>

#include "sql/func/expr.h"

#define FOR_LIVE(in, i, row) \
    for (int i = 0, row; i < comb_batch_live(in) && ((row = comb_batch_row(in, i)), 1); i++)

#define FN_ANY_ARGS INT32_MAX   /* no limit on the number of arguments */

/* What binding a call has: the statement, the call as written (names and
 * argument texts for Hive's messages) and the node being typed, whose
 * args are bound.  A binder sets b's type and fn (or replaces *out). */
typedef struct SqlFnBind {
    SqlStmtCtx *c;
    const AstExpr *call;
    BoundExpr *b;
    BoundExpr **out;         /* the result; *out == b unless replaced */
} SqlFnBind;

typedef int (*SqlFnBinder)(SqlFnBind *f, CombErr *err);

/* One row of a family's function table: the name, its arity, the binder
 * (Hive's argument checks and result type) and the implementation the
 * binder uses unless it picks another. */
typedef struct SqlFuncDef {
    const char *name;
    int min_args, max_args;
    SqlFnBinder bind;
    BxFuncImpl fn;
} SqlFuncDef;

/* The families' tables, each ended by a row with a NULL name. */
extern const SqlFuncDef sql_funcs_string[];
extern const SqlFuncDef sql_funcs_math[];
extern const SqlFuncDef sql_funcs_date[];
extern const SqlFuncDef sql_funcs_cond[];
extern const SqlFuncDef sql_funcs_coll[];
extern const SqlFuncDef sql_funcs_misc[];

/* Hive's errors of a function's arguments: 10014 "Wrong arguments",
 * 10015 "Arguments length mismatch", 10016 "Argument type mismatch",
 * followed by the text of argument argi (its position) or, for argi < 0,
 * of the call's last argument (the call's position), and the reason. */
int sql_fn_error(CombErr *err, int hive_code, const AstExpr *call, int argi,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Convert argument i of the node to type t / kind k (implicitly; folded
 * when constant). */
int sql_fn_arg_to(SqlFnBind *f, int i, const CombType *t, CombErr *err);
int sql_fn_arg_kind(SqlFnBind *f, int i, CombTypeKind k, CombErr *err);

/* Hive's PRIMITIVE_GROUPs: the argument checks of GenericUDFs. */
bool sql_fn_is_numeric_group(CombTypeKind k);   /* integers, float, double, decimal */
bool sql_fn_is_string_group(CombTypeKind k);    /* string, char, varchar */
bool sql_fn_is_date_group(CombTypeKind k);      /* date, timestamp */

/* The output null mask = the argument's over the live rows. */
void sql_fn_copy_nulls(CombVector *o, const CombBatch *in, const CombVector *x);
/* The output null mask = OR of the arguments' masks (all of e->args). */
void sql_fn_nulls_of_args(const BoundExpr *e, const CombBatch *in);

/* UTF-8: bytes of the character starting at s[0] (1 for a bad byte), and
 * the number of characters. */
int sql_utf8_len(const unsigned char *s, size_t n);
int64_t sql_utf8_count(CombStr s);

/* Java's java.util.Random (a 48-bit linear congruential generator). */
typedef struct SqlJavaRandom {
    uint64_t seed;
} SqlJavaRandom;
void sql_jrand_seed(SqlJavaRandom *r, int64_t seed);
int32_t sql_jrand_next(SqlJavaRandom *r, int bits);
double sql_jrand_double(SqlJavaRandom *r);

#endif
