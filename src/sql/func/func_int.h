/*
 * func_int.h - private to the function files of func/ (func.c, func_*.c,
 * complex.c): the function table's row, the families' tables, Hive's
 * argument errors, and the helpers the implementations share.
 */
#ifndef COMB_SQL_FUNC_INT_H
#define COMB_SQL_FUNC_INT_H

#include <stdarg.h>

#include "common/buf.h"
#include "sql/func/expr.h"

#define FOR_LIVE(in, i, row) \
    for (int i = 0, row; i < comb_batch_live(in) && ((row = comb_batch_row(in, i)), 1); i++)

#define FN_ANY_ARGS INT32_MAX   /* no limit on the number of arguments */

/* What binding a call has: the statement, the call as written (names and
 * argument texts for Hive's messages) and the node being typed, whose
 * args are bound.  A binder sets b's type and fn (or replaces *out). */
struct SqlFuncDef;
typedef struct SqlFnBind {
    SqlStmtCtx *c;
    const AstExpr *call;
    BoundExpr *b;
    BoundExpr **out;         /* the result; *out == b unless replaced */
    const struct SqlFuncDef *def;
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
    const char *sig;         /* for sql_fn_bind_sig: "r:aaa" */
} SqlFuncDef;

/* The binder of functions whose arguments convert to fixed types: sig is
 * "r:args", one code per argument (the last repeats): s any primitive as
 * a string (GenericUDF text converters), S a string group value only, i
 * a number as an INT, I an integer no wider than INT (UDF methods), l a
 * number as a BIGINT, d a number or string as a DOUBLE, x BINARY (or a
 * string's bytes), b BOOLEAN, * anything kept as it is; the result r is
 * one of s i l d x b, a (array<string>) or m (map<string,string>). */
int sql_fn_bind_sig(SqlFnBind *f, CombErr *err);

/* Hive's PrimitiveCategory name of a kind ("LONG" for bigint), as its
 * argument checks print it. */
const char *sql_hive_category(CombTypeKind k);

/* The definition a binder runs for (its sig, name and fn). */
const SqlFuncDef *sql_fn_def(const SqlFnBind *f);

/* Row-at-a-time evaluation inside a batch: rows where an argument is
 * NULL are NULL, the others are computed by row_fn, which may set *null.
 * The output's strings go to e->scratch (reset per batch). */
typedef int (*SqlFnRow)(BoundExpr *e, int row, bool *null, CombErr *err);
int sql_fn_eval_strict(BoundExpr *e, const CombBatch *in, CombErr *err,
                       SqlFnRow row_fn);

/* A strict function `name` (a BxFuncImpl) whose row body follows. */
#define SQL_STRICT_FN(name)                                                  \
    static int name##_row(BoundExpr *e, int row, bool *null, CombErr *err);  \
    static int name(BoundExpr *e, const CombBatch *in, CombErr *err)         \
    {                                                                        \
        return sql_fn_eval_strict(e, in, err, name##_row);                   \
    }                                                                        \
    static int name##_row(BoundExpr *e, int row, bool *null, CombErr *err)

#define ARG_S(k) (e->args[k]->out->str[row])
#define ARG_I(k) (e->args[k]->out->i64[row])
#define ARG_D(k) (e->args[k]->out->f64[row])
#define ARG_NULL(k) comb_vec_is_null(e->args[k]->out, row)

/* Bytes for a string result in the node's scratch arena. */
char *sql_fn_alloc(BoundExpr *e, size_t n, CombErr *err);
/* Set row's string result (bytes in scratch or borrowed from an input). */
static inline void sql_fn_set_str(BoundExpr *e, int row, const char *p,
                                  size_t n)
{
    e->out->str[row] = (CombStr){p, (uint32_t)n};
}

/* The families' tables, each ended by a row with a NULL name. */
extern const SqlFuncDef sql_funcs_string[];
extern const SqlFuncDef sql_funcs_math[];
extern const SqlFuncDef sql_funcs_date[];
extern const SqlFuncDef sql_funcs_cond[];
extern const SqlFuncDef sql_funcs_coll[];
extern const SqlFuncDef sql_funcs_misc[];
extern const SqlFuncDef sql_funcs_regex[];

/* A java.util.regex pattern p[0..n) as a PCRE2 pattern appended to out
 * (func_regex.c); -1 with the reason in why when it has no PCRE2 form. */
int sql_regex_translate(const char *p, size_t n, CombBuf *out, char *why,
                        size_t wn);

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

/* d rounded to `scale` fraction digits (negative: to tens, hundreds...)
 * as BigDecimal.valueOf(d).setScale(scale, HALF_UP or HALF_EVEN)
 * .doubleValue() gives it (func_math.c). */
double sql_round_double(double d, int64_t scale, bool half_even);

/* Java's java.util.Random (a 48-bit linear congruential generator). */
typedef struct SqlJavaRandom {
    uint64_t seed;
} SqlJavaRandom;
void sql_jrand_seed(SqlJavaRandom *r, int64_t seed);
int32_t sql_jrand_next(SqlJavaRandom *r, int bits);
double sql_jrand_double(SqlJavaRandom *r);

#endif
