/*
 * expr.h - bound (typed) expressions: the tree the binder makes of a
 * parse-tree expression (names resolved against a scope, types checked
 * and inferred, Hive's implicit conversions inserted, constants folded),
 * Hive's type rules, and the vectorized evaluation of such a tree a batch
 * at a time.  bind.c binds, bind_cast.c adds conversions, typerules.c,
 * func.c, complex.c type and implement, expr.c, cast.c and decarith.c
 * evaluate.  Used by every part of sql/ above func/.
 */
#ifndef COMB_SQL_FUNC_EXPR_H
#define COMB_SQL_FUNC_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "sql/func/value.h"
#include "sql/parse/ast.h"
#include "sql/sql_int.h"

typedef enum BxKind {
    BX_CONST,       /* literal, folded constant */
    BX_COL,         /* column `col` of the input batch */
    BX_ROWID,       /* ROW__ID as a struct rendered {"writeid":..} (string) */
    BX_UNARY,       /* op a */
    BX_BINARY,      /* a op b */
    BX_IS_NULL,     /* a IS [NOT] NULL */
    BX_BETWEEN,     /* a [NOT] BETWEEN b AND c */
    BX_IN,          /* a [NOT] IN (args) */
    BX_LIKE,        /* a [NOT] LIKE b (b constant) */
    BX_CAST,        /* CAST(a AS type) and implicit conversions */
    BX_FUNC,        /* scalar function args */
    BX_CASE         /* args = cond0, value0, cond1, value1, ...; c = ELSE */
} BxKind;

typedef int (*BxFuncImpl)(BoundExpr *e, const CombBatch *in, CombErr *err);

struct BoundExpr {
    BxKind kind;
    CombTypeKind type;      /* result type */
    uint32_t length;        /* char(n) / varchar(n): n; 0 unknown */
    const CombType *ctype;  /* the whole result type for decimal(p,s),
                               array, map, struct and uniontype results
                               (statement arena); NULL for the others */
    AstPos pos;
    AstOp op;
    bool negated;
    bool strict;            /* BX_CAST for assignment: bad values are
                               errors, not NULL (fname = the column) */
    bool implicit;          /* BX_CAST the binder added (not written) */
    bool row_mode;          /* comparison of constants, folded at bind
                               time: doubles compare as Hive's row mode
                               does (ObjectInspectorUtils.compare) */
    int col;                /* BX_COL / BX_ROWID: first input column */
    BoundExpr *a, *b, *c;
    int n_args;
    BoundExpr **args;
    /* BX_CONST */
    bool is_null;
    int64_t ival;           /* integers, boolean, date, timestamp seconds */
    int32_t nanos;          /* timestamp */
    double dval;
    CombStr sval;
    comb_i128 dec;          /* decimal: unscaled */
    /* BX_FUNC */
    const char *fname;
    BxFuncImpl fn;
    void *state;            /* what a function prepared at bind time (a
                               compiled regular expression); statement
                               arena.  BX_IN of constants: their sorted
                               set (sql_expr_prepare, its arena) */
    /* evaluation output: points at an input column for BX_COL */
    CombVector *out;
    CombVector own;         /* storage for out when computed here */
    CombArena *scratch;     /* strings produced per batch */
    SqlVecFill *fill;       /* array/map/struct/uniontype outputs: own is
                               heap-owned (comb_vec_init) and filled row
                               by row */
};

/* A new node in the statement arena (col = -1, the rest zero), or NULL. */
BoundExpr *sql_bx_new(SqlStmtCtx *c, BxKind kind, CombTypeKind type,
                      AstPos pos);
/* The same with a whole result type (kind, length and ctype from t). */
BoundExpr *sql_bx_new_type(SqlStmtCtx *c, BxKind kind, const CombType *t,
                           AstPos pos);
/* Give e the result type t (kind, length, ctype). */
void sql_bx_set_type(BoundExpr *e, const CombType *t);

/* ------------------------------------------------- type rules (typerules.c) */

/* The whole result type of e (built in the statement arena for char(n) and
 * varchar(n)); NULL out of memory. */
const CombType *sql_bx_type(SqlStmtCtx *c, const BoundExpr *e);
/* Hive's name of t ("decimal(5,2)", "array<int>", "void" for NULL) and of
 * e's type, for messages (statement arena). */
const char *sql_type_text(SqlStmtCtx *c, const CombType *t);
const char *sql_bx_type_text(SqlStmtCtx *c, const BoundExpr *e);
/* Width rank of the integer kinds: tinyint 1 < smallint 2 < int 3 <
 * bigint 4; 0 for the others. */
int sql_int_rank(CombTypeKind k);
/* True when e already has type t (decimals: same precision and scale;
 * complex types: equal trees). */
bool sql_bx_has_type(const BoundExpr *e, const CombType *t);
/* decimal(precision, scale) in the statement arena, NULL out of memory. */
CombType *sql_decimal_type(SqlStmtCtx *c, int precision, int scale);
/* Hive's adjustPrecScale (GenericUDFBaseNumeric): a precision beyond 38
 * becomes 38 and the scale gives way, keeping at least min(scale, 6). */
CombType *sql_decimal_adjusted(SqlStmtCtx *c, int precision, int scale);
/* The decimal precision and scale Hive gives a value of e's type
 * (HiveDecimalUtils.getPrecisionForType/getScaleForType: tinyint 3,
 * smallint 5, int 10, bigint 19, float 7.7, double 15.15, void 1, strings
 * and others 38.18).  With by_value, an integer constant counts its digits
 * (Hive's constant object inspectors), as arithmetic does. */
void sql_decimal_params(const BoundExpr *e, bool by_value, int *precision,
                        int *scale);
/* The decimal type of Hive's HiveDecimalUtils.
 * getDecimalTypeForPrimitiveCategories(a, b). */
CombType *sql_decimal_common(SqlStmtCtx *c, const BoundExpr *a,
                             const BoundExpr *b);
/* Hive's implicit conversions between primitive kinds
 * (FunctionRegistry/TypeInfoUtils.implicitConvertible). */
bool sql_implicit_convertible(CombTypeKind from, CombTypeKind to);
/* Numbers: tinyint .. double and decimal. */
bool sql_is_number(CombTypeKind k);
/* string, varchar, char. */
bool sql_is_string(CombTypeKind k);
/* The type comparisons of a and b are done in (Hive's
 * getCommonClassForComparison); *to = NULL when a and b compare as they
 * are (same kinds: decimals of any scale, equal complex types).  False
 * when they cannot be compared. */
bool sql_compare_type(SqlStmtCtx *c, const BoundExpr *a, const BoundExpr *b,
                      const CombType **to);
/* The type values of a and b are united in (CASE, IF, COALESCE, IN
 * lists; Hive's getCommonClass): NULL with anything, numbers the wider
 * (decimal with decimal: max integer digits and scale), strings and
 * numbers or dates STRING, structs field by field, equal complex types.
 * NULL *out when there is none; COMB_ENOMEM. */
int sql_common_class(SqlStmtCtx *c, const CombType *a, const CombType *b,
                     const CombType **out);

typedef struct SqlScope SqlScope;

/* A scope's own resolution of a subtree, tried before the usual rules:
 * *out set = resolved (e.g. a GROUP BY key or an aggregate call becomes a
 * column of the aggregated batch), *out NULL = bind e as usual. */
typedef int (*SqlResolveFn)(SqlStmtCtx *c, const SqlScope *sc,
                            const AstExpr *e, BoundExpr **out, CombErr *err);

/* Name resolution scope: one table (or none), its alias, and where its
 * columns and ROW__ID live in the input batch.  With `resolve` set (the
 * items of an aggregate query), column references that the hook does not
 * resolve are errors: they are not GROUP BY keys.  With `query` set (the
 * query binder, plan/), that hook is tried next, for column references,
 * fields and subqueries (AST_SUBQUERY, AST_EXISTS, AST_IN over a query):
 * it resolves a column reference or fails, and may leave a field (*out
 * NULL) to the rules here; its BX_COL nodes hold logical column ids
 * (plan/logical.h).  Without it, a subquery is Hive's 10249.  With
 * `window` set, that hook binds each window call (func/window.h). */
struct SqlScope {
    const SqlTable *table;  /* NULL: no FROM */
    const char *alias;      /* table name or alias used as qualifier */
    int rowid_col;          /* batch index of ROW__ID.writeid, -1 none */
    SqlResolveFn resolve;   /* NULL: plain scope */
    void *resolve_ctx;      /* for resolve */
    SqlResolveFn query;     /* NULL: names are the table's */
    void *query_ctx;        /* for query */
    /* A window call (AST_FUNC with over), tried before everything else;
     * NULL: window calls are not allowed here (WHERE, GROUP BY, HAVING,
     * a window's own arguments): Hive's 10128. */
    SqlResolveFn window;
    void *window_ctx;
};

/* Hive's ROW__ID: struct<writeid:bigint,bucketid:int,rowid:bigint>
 * (statement arena; NULL out of memory). */
const CombType *sql_rowid_type(SqlStmtCtx *c);
/* e = ROW__ID.writeid / .bucketid / .rowid: BX_COL first_col + 0, 1, 2
 * (Hive's 10042 for another field). */
int sql_bind_rowid_field(SqlStmtCtx *c, int first_col, const AstExpr *e,
                         BoundExpr **out, CombErr *err);

/* Hive's 10004 for column reference e, listing the possible names. */
int sql_err_unknown_column(const AstExpr *e, const char *possible,
                           CombErr *err);

/* An operator as Hive names it in messages ("and", "<>", "div"). */
const char *sql_op_text(AstOp op);

/* Bind an expression: resolve names, check and infer types, fold
 * constants.  Allocates in c->arena. */
int sql_bind_expr(SqlStmtCtx *c, const SqlScope *scope, const AstExpr *e,
                  BoundExpr **out, CombErr *err);

/* Conversions the binder inserts (bind_cast.c). */

/* Evaluate a constant tree once, over the statement's one-row batch; the
 * value is row 0 of e->out until sql_expr_release(e). */
int sql_eval_constant(SqlStmtCtx *c, BoundExpr *e, CombErr *err);
/* Replace a constant tree by a BX_CONST node (complex values stay trees). */
int sql_fold_constant(SqlStmtCtx *c, BoundExpr **pe, CombErr *err);
/* A conversion node of a to type `to` (none when a has that type), written
 * or implicit.  Conversions Hive refuses are errors: binary from anything
 * but strings, dates from numbers, complex values to other types, and with
 * hive.strict.timestamp.conversion (the default) numbers to timestamps and
 * dates/timestamps to numbers. */
int sql_bind_cast(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                  bool implicit, BoundExpr **out, CombErr *err);
/* An implicit conversion, folded when a is constant. */
int sql_bind_convert(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                     BoundExpr **out, CombErr *err);
int sql_bind_convert_kind(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                          BoundExpr **out, CombErr *err);
/* Convert a and every list[i] to the type they are compared in
 * (sql_compare_type across the list); op names the operator in errors.
 * fold = false keeps the conversions as nodes even over constants, so
 * that <=> can still tell a NULL operand from one that did not convert. */
int sql_bind_unify(SqlStmtCtx *c, BoundExpr **a, BoundExpr **list, int n,
                   const char *op, bool fold, CombErr *err);
/* Hive's narrowing of a constant compared with a bare column (`column op
 * constant` or `constant op column`): the constant becomes a value of the
 * column's type when it converts exactly. */
void sql_narrow_compare(SqlStmtCtx *c, BoundExpr **a, BoundExpr **b);
/* The same for `column [NOT] IN (constants)`: constants that are no value
 * of the column's type leave the list; *emptied when none is left. */
void sql_narrow_in_list(SqlStmtCtx *c, BoundExpr *in, bool *emptied);

/* Convert e for assignment to column `col` of t (INSERT, UPDATE): Hive's
 * implicit conversions, bad values are errors naming the column, and
 * varchar(n) values are cut to n characters and char(n) values padded to n,
 * as Hive stores them. */
int sql_bind_assign(SqlStmtCtx *c, BoundExpr *e, const SqlTable *t, int col,
                    BoundExpr **out, CombErr *err);

/* rtrim(e): CHAR values compare without their padding, as in Hive. */
int sql_bind_rtrim(SqlStmtCtx *c, BoundExpr *e, BoundExpr **out,
                   CombErr *err);

/* Wrap a string expression so its values fit char(n) / varchar(n). */
int sql_bind_fit_length(SqlStmtCtx *c, BoundExpr *e, CombTypeKind kind,
                        uint32_t length, BoundExpr **out, CombErr *err);

/* Complex values (complex.c): base[index] (an array element, 0-based,
 * NULL when out of range; a map's value for a key) and a struct's field. */
int sql_bind_index(SqlStmtCtx *c, BoundExpr *base, BoundExpr *index,
                   AstPos pos, BoundExpr **out, CombErr *err);
int sql_bind_struct_field(SqlStmtCtx *c, BoundExpr *base, const char *name,
                          AstPos pos, BoundExpr **out, CombErr *err);

/* array(), map(), named_struct(), struct() and size() over b's bound
 * arguments (b->fname names the call): *found says whether b->fname is
 * one of them; then b is typed and given its implementation. */
int sql_bind_complex_function(SqlStmtCtx *c, BoundExpr *b, bool *found,
                              CombErr *err);

/* Whether name is a scalar function of the function table, and every
 * such name (SHOW FUNCTIONS; in arena a). */
bool sql_function_exists(const char *name);
/* A function whose value changes from row to row with the same arguments
 * (rand): never folded as a constant. */
bool sql_function_volatile(const char *name);
int sql_function_names(const char ***names, int *n, CombArena *a);

/* a RLIKE pattern / a REGEXP pattern (func_regex.c): true when the
 * pattern, a java.util.regex, matches anywhere in a. */
int sql_bind_rlike(SqlStmtCtx *c, BoundExpr *a, BoundExpr *pattern, AstPos pos,
                   BoundExpr **out, CombErr *err);

/* Scalar function call (func.c); args already bound. */
int sql_bind_function(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **args, int n_args, BoundExpr **out,
                      CombErr *err);
/* The result type of concat / || (GenericUDFConcat): CHAR(sum of
 * lengths) when every argument is a CHAR, VARCHAR(sum) when all are CHAR
 * or VARCHAR, else STRING.  The values are the arguments' stripped
 * values joined. */
void sql_concat_type(BoundExpr *const *args, int n, CombTypeKind *type,
                     uint32_t *length);


/* The type values are united in (CASE, IF, COALESCE, NVL; NULL entries
 * skipped): sql_common_class across them, STRING when all are NULL;
 * Hive's error 10016 when two do not unite. */
int sql_common_value_type(SqlStmtCtx *c, BoundExpr *const *vals, int n,
                          const CombType **to, CombErr *err);

/* CHAR values of different lengths united (CASE, COALESCE): each is
 * padded to the longest length, the result's (Hive's common type of
 * char(m) and char(n) is char(max(m, n))).  NULL entries are skipped. */
int sql_bind_unite_chars(SqlStmtCtx *c, BoundExpr **vals, int n,
                         uint32_t *length, CombErr *err);

/* CASE WHEN conds[i] THEN vals[i] ... [ELSE other] END (also IF(c,a,b)):
 * the values are brought to one type. */
int sql_bind_case(SqlStmtCtx *c, BoundExpr **conds, BoundExpr **vals, int n,
                  BoundExpr *other, AstPos pos, BoundExpr **out, CombErr *err);

/* The conjuncts of a predicate (AND's operands, else itself). */
int sql_bx_conjuncts(const BoundExpr *e);
BoundExpr *sql_bx_conjunct(BoundExpr *e, int i);
/* a AND b (either NULL: the other), flattening ANDs. */
BoundExpr *sql_bx_and(SqlStmtCtx *c, BoundExpr *a, BoundExpr *b);

/* Set project[i] for every table column i (< n_cols) that e reads. */
void sql_expr_mark_columns(const BoundExpr *e, int n_cols, bool *project);

/* True if e references no column. */
bool sql_expr_is_const(const BoundExpr *e);

/* Allocate output vectors of e's tree (capacity rows). */
int sql_expr_prepare(BoundExpr *e, CombArena *a, int capacity, CombErr *err);

/* Evaluate e over the live rows of `in`; result in e->out at the same
 * physical row indexes.  scratch holds produced strings until reset. */
int sql_expr_eval(BoundExpr *e, const CombBatch *in, CombErr *err);

/* Set row `row` of an output vector NULL or not NULL during a pass over
 * batch `in`.  The first NULL of a pass clears the mask for all rows, which
 * were computed as "no nulls" so far. */
static inline void sql_vec_mark(CombVector *v, const CombBatch *in, int row,
                                bool null)
{
    if (null && !v->has_nulls) {
        for (int i = 0; i < in->n_rows; i++)
            v->nulls[i] = 0;
        v->has_nulls = true;
    }
    if (v->has_nulls)
        v->nulls[row] = null;
}

/* Evaluate a BX_CAST node (cast.c); its operand is already evaluated. */
int sql_eval_cast(BoundExpr *e, const CombBatch *in, CombErr *err);

/* a op b (+ - * / %) of DECIMALs (unscaled at scales sa, sb) as Hive's
 * HiveDecimal arithmetic gives it, then as a DECIMAL(p, s) value (HALF_UP);
 * false when the answer is NULL (x / 0, x % 0, too many digits).
 * decarith.c. */
bool sql_dec_arith(AstOp op, comb_i128 a, int sa, comb_i128 b, int sb,
                   int p, int s, comb_i128 *out);

/* Narrow b's selection to rows where pred is TRUE, conjunct by conjunct
 * (a later one is evaluated only on the rows the earlier ones kept). */
int sql_filter_batch(BoundExpr *pred, CombBatch *b, CombErr *err);

/* Free the vectors sql_expr_prepare allocated. */
void sql_expr_release(BoundExpr *e);

#endif
