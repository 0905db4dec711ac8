/*
 * expr.c - vectorized evaluation of bound expressions.  Each node owns one
 * output vector (allocated once by sql_expr_prepare) and computes it for
 * the live rows of the input batch, at the rows' physical indexes, so the
 * batch's selection vector never has to be copied.  NULL follows SQL's
 * three-valued logic; integer arithmetic wraps like Java's (Hive's), x/0
 * is NULL as in Hive, and DECIMAL results are rounded HALF_UP to their
 * type's scale, NULL when they do not fit its precision.  Casts are
 * evaluated in cast.c, complex values in complex.c.
 */
#include "sql/func/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/decimal.h"
#include "sql/func/convert.h"
#include "sql/func/value.h"

#define FOR_LIVE(in, i, row) \
    for (int i = 0, row; i < comb_batch_live(in) && ((row = comb_batch_row(in, i)), 1); i++)

/* ---------------------------------------------------------------- vectors */

/* Output arrays of a flat kind in arena a; the vector has type t (may be
 * NULL for kinds without parameters). */
static int vec_alloc(CombVector *v, CombTypeKind kind, const CombType *t,
                     CombArena *a, int cap)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->type = t;
    v->capacity = cap;
    v->nulls = comb_arena_calloc(a, (size_t)cap);
    if (!v->nulls)
        return COMB_ENOMEM;
    if (comb_type_is_float(kind))
        v->f64 = comb_arena_calloc(a, (size_t)cap * sizeof *v->f64);
    else if (comb_type_is_str(kind))
        v->str = comb_arena_calloc(a, (size_t)cap * sizeof *v->str);
    else if (kind == COMB_T_DECIMAL)
        v->dec = comb_arena_calloc(a, (size_t)cap * sizeof *v->dec);
    else
        v->i64 = comb_arena_calloc(a, (size_t)cap * sizeof *v->i64);
    if (kind == COMB_T_TIMESTAMP &&
        !(v->nanos = comb_arena_calloc(a, (size_t)cap * sizeof *v->nanos)))
        return COMB_ENOMEM;
    if (!v->f64 && !v->str && !v->i64 && !v->dec)
        return COMB_ENOMEM;
    return COMB_OK;
}

/* The output vector of e: arena arrays for flat kinds, a heap vector with
 * children (freed by sql_expr_release) for array, map, struct and
 * uniontype values; both filled through e->fill. */
static int output_alloc(BoundExpr *e, CombArena *a, int cap)
{
    int rc = comb_type_is_primitive(e->type)
                 ? vec_alloc(&e->own, e->type, e->ctype, a, cap)
                 : comb_vec_init(&e->own, e->ctype, cap);
    if (rc)
        return rc;
    e->fill = comb_arena_alloc(a, sizeof *e->fill);
    if (!e->fill)
        return COMB_ENOMEM;
    return sql_fill_init(e->fill, &e->own, a);
}

/* Row i of v set to the non-NULL constant e. */
static void const_store(const BoundExpr *e, CombVector *v, int i)
{
    if (v->i64)
        v->i64[i] = e->ival;
    if (v->nanos)
        v->nanos[i] = e->nanos;
    if (v->f64)
        v->f64[i] = e->dval;
    if (v->str)
        v->str[i] = e->sval;
    if (v->dec)
        v->dec[i] = e->dec;
}

static bool const_is_null(const BoundExpr *e)
{
    return e->is_null || e->type == COMB_T_NULL;
}

static void const_broadcast(BoundExpr *e, int cap)
{
    CombVector *v = &e->own;
    if (const_is_null(e)) {
        memset(v->nulls, 1, (size_t)cap);
        v->has_nulls = true;
        return;
    }
    for (int i = 0; i < cap; i++)
        const_store(e, v, i);
}

/* ---------------------------------------------------- IN lists of constants */

/* x [NOT] IN (c1, c2, ...) with constants only (the usual form, often
 * thousands long when a tool writes the list): their values sorted once,
 * so a row costs a binary search instead of a comparison per constant,
 * and the constants need no batch-wide vector each. */
typedef struct InSet {
    CombVector v;       /* the non-NULL values (NaN left out) */
    int *order;         /* their rows in v, ascending */
    int n;
    bool has_null;      /* a NULL constant: no match gives NULL */
} InSet;

/* Whether e is an IN whose list holds constants of its operand's kind
 * only (what the binder's unification makes of a literal list). */
static bool in_list_constant(const BoundExpr *e)
{
    const CombType *t = NULL;
    if (e->kind != BX_IN || !comb_type_is_primitive(e->a->type))
        return false;
    for (int j = 0; j < e->n_args; j++) {
        const BoundExpr *y = e->args[j];
        if (y->kind != BX_CONST)
            return false;
        if (const_is_null(y))
            continue;
        /* one vector holds the set: one type (a decimal scale) for all */
        if (!t && y->type == e->a->type)
            t = y->ctype ? y->ctype : sql_kind_type(y->type);
        if (!t || !sql_bx_has_type(y, t))
            return false;
    }
    return true;
}

static int in_set_cmp(const void *pa, const void *pb, void *arg)
{
    const CombVector *v = arg;
    return sql_value_cmp(v, *(const int *)pa, v, *(const int *)pb, true);
}

static InSet *in_set_build(const BoundExpr *e, CombArena *a)
{
    InSet *s = comb_arena_calloc(a, sizeof *s);
    const CombType *t = NULL;
    if (!s || !(s->order = comb_arena_alloc(a, (size_t)e->n_args * sizeof *s->order)))
        return NULL;
    for (int j = 0; j < e->n_args && !t; j++)
        if (!const_is_null(e->args[j]))
            t = e->args[j]->ctype;
    if (vec_alloc(&s->v, e->a->type, t, a, e->n_args ? e->n_args : 1))
        return NULL;
    for (int j = 0; j < e->n_args; j++) {
        const BoundExpr *y = e->args[j];
        if (const_is_null(y))
            s->has_null = true;
        else if (!comb_type_is_float(y->type) || !isnan(y->dval)) {
            const_store(y, &s->v, s->n);
            s->order[s->n] = s->n;
            s->n++;
        }
    }
    /* qsort_r: parallel copies of the expression prepare at once */
    qsort_r(s->order, (size_t)s->n, sizeof *s->order, in_set_cmp, &s->v);
    return s;
}

/* Equal strings, told from the lengths first: the same bytes, as
 * sql_str_cmp has it. */
static inline bool str_equal(CombStr a, CombStr b)
{
    return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len));
}

/* A short list of strings is looked through: most values differ from
 * each constant in length or first bytes, cheaper than a search's
 * comparisons in order. */
#define IN_SET_SCAN 8

/* Whether non-NULL row `row` of x is in s.  The order is Double.compare's
 * for doubles, under which -0.0 and 0.0 differ, as they do for IN
 * (in_matches); NaN matches nothing. */
static bool in_set_has(const InSet *s, const CombVector *x, int row)
{
    int lo = 0, hi = s->n;
    if (comb_type_is_float(x->kind) && isnan(x->f64[row]))
        return false;
    if (x->str && s->n <= IN_SET_SCAN) {
        for (int j = 0; j < s->n; j++)
            if (str_equal(x->str[row], s->v.str[j]))
                return true;
        return false;
    }
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = sql_value_cmp(x, row, &s->v, s->order[mid], true);
        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

static void eval_in_set(BoundExpr *e, const CombBatch *in)
{
    const InSet *s = e->state;
    const CombVector *x = e->a->out;
    CombVector *o = e->out;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool x_null = comb_vec_is_null(x, row);
        bool found = !x_null && in_set_has(s, x, row);
        sql_vec_mark(o, in, row, !found && (x_null || s->has_null));
        o->i64[row] = found != e->negated;
    }
}

static bool produces_strings(const BoundExpr *e)
{
    return (comb_type_is_str(e->type) || e->kind == BX_CAST) &&
           e->kind != BX_CONST && e->kind != BX_COL;
}

/* An IN of constants (in_list_constant): its operand prepared, the list
 * made an InSet (in e->state) instead of a vector per constant. */
static int in_set_prepare(BoundExpr *e, CombArena *a, int capacity, CombErr *err)
{
    int rc = sql_expr_prepare(e->a, a, capacity, err);
    if (rc || e->out)
        return rc;
    if (!(e->state = in_set_build(e, a)) || output_alloc(e, a, capacity))
        return comb_err_nomem(err);
    e->out = &e->own;
    return COMB_OK;
}

int sql_expr_prepare(BoundExpr *e, CombArena *a, int capacity, CombErr *err)
{
    int rc;
    if (!e)
        return COMB_OK;
    if (in_list_constant(e))
        return in_set_prepare(e, a, capacity, err);
    if ((rc = sql_expr_prepare(e->a, a, capacity, err)) ||
        (rc = sql_expr_prepare(e->b, a, capacity, err)) ||
        (rc = sql_expr_prepare(e->c, a, capacity, err)))
        return rc;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = sql_expr_prepare(e->args[i], a, capacity, err)))
            return rc;
    /* a constant folded into a one-row batch first (BETWEEN's operand,
     * shared by its two comparisons) gets a vector of the full width */
    if (e->kind == BX_COL ||
        (e->out && (e->kind != BX_CONST || e->own.capacity >= capacity)))
        return COMB_OK;
    if (output_alloc(e, a, capacity))
        return comb_err_nomem(err);
    e->out = &e->own;
    if (e->kind == BX_CONST)
        const_broadcast(e, capacity);
    if (produces_strings(e)) {
        e->scratch = comb_arena_alloc(a, sizeof *e->scratch);
        if (!e->scratch)
            return comb_err_nomem(err);
        comb_arena_init(e->scratch, 16 * 1024);
    }
    return COMB_OK;
}

void sql_expr_release(BoundExpr *e)
{
    if (!e)
        return;
    sql_expr_release(e->a);
    sql_expr_release(e->b);
    sql_expr_release(e->c);
    for (int i = 0; i < e->n_args; i++)
        sql_expr_release(e->args[i]);
    if (e->scratch) {
        comb_arena_free(e->scratch);
        e->scratch = NULL;
    }
    if (e->kind == BX_CONST)
        return;     /* constants keep their (arena) vector */
    if (e->fill && !comb_type_is_primitive(e->type))
        comb_vec_free(&e->own);
    e->fill = NULL;
    e->out = NULL;
}

/* Result null mask = OR of the operands' masks over the live rows. */
static void nulls_from(CombVector *out, const CombBatch *in,
                       const CombVector *x, const CombVector *y)
{
    bool any = (x && x->has_nulls) || (y && y->has_nulls);
    out->has_nulls = any;
    if (!any)
        return;
    FOR_LIVE(in, i, row)
        out->nulls[row] = (x && comb_vec_is_null(x, row)) ||
                          (y && comb_vec_is_null(y, row));
}

#define set_null(v, row) sql_vec_mark((v), in, (row), true)

static int64_t wrap_to(CombTypeKind k, int64_t v)
{
    return sql_int_wrap(k, v);
}

/* ------------------------------------------------------------- comparisons */

/* Order of two non-NULL values of one kind.  Doubles are in Java's
 * Double.compare order (NaN after +Infinity, -0.0 before 0.0), which is
 * how Hive's sorting, MIN/MAX and grouping see them; the comparison
 * operators use IEEE rules instead (double_holds), IN its own (in_matches). */
static int cmp_values(CombTypeKind k, const CombVector *x, const CombVector *y,
                      int row)
{
    if (comb_type_is_float(k))
        return sql_double_cmp(x->f64[row], y->f64[row]);
    return sql_value_cmp(x, row, y, row, true);
}

/* = <> < <= > >= on doubles as Java evaluates them: NaN equals nothing,
 * not even itself, and is neither smaller nor larger than anything. */
static bool double_holds(AstOp op, double a, double b)
{
    switch (op) {
    case AST_OP_EQ: case AST_OP_EQ_NS: return a == b;
    case AST_OP_NE: return a != b;
    case AST_OP_LT: return a < b;
    case AST_OP_LE: return a <= b;
    case AST_OP_GT: return a > b;
    case AST_OP_GE: return a >= b;
    default: return false;
    }
}

static bool value_holds(AstOp op, CombTypeKind k, const CombVector *x,
                        const CombVector *y, int row);

static bool cmp_holds(AstOp op, int c)
{
    switch (op) {
    case AST_OP_EQ: case AST_OP_EQ_NS: return c == 0;
    case AST_OP_NE: return c != 0;
    case AST_OP_LT: return c < 0;
    case AST_OP_LE: return c <= 0;
    case AST_OP_GT: return c > 0;
    case AST_OP_GE: return c >= 0;
    default: return false;
    }
}

static bool value_holds(AstOp op, CombTypeKind k, const CombVector *x,
                        const CombVector *y, int row)
{
    if (comb_type_is_float(k))
        return double_holds(op, x->f64[row], y->f64[row]);
    return cmp_holds(op, cmp_values(k, x, y, row));
}

/* Hive's row mode (constant folding) compares doubles with
 * ObjectInspectorUtils.compare: -0.0 equals 0.0, otherwise Double.compare,
 * so there NaN = NaN and NaN > +Infinity. */
static bool row_mode_holds(AstOp op, CombTypeKind k, const CombVector *x,
                           const CombVector *y, int row)
{
    double a, b;
    if (!comb_type_is_float(k))
        return value_holds(op, k, x, y, row);
    a = x->f64[row];
    b = y->f64[row];
    return cmp_holds(op, a == b ? 0 : sql_double_cmp(a, b));
}

static bool compare_holds(const BoundExpr *e, AstOp op, CombTypeKind k,
                          const CombVector *x, const CombVector *y, int row)
{
    return e->row_mode ? row_mode_holds(op, k, x, y, row)
                       : value_holds(op, k, x, y, row);
}

/* The value an operand had before the binder converted it. */
static const CombVector *unconverted(const BoundExpr *e)
{
    while (e->kind == BX_CAST && e->implicit)
        e = e->a;
    return e->out;
}

/* a <=> b: TRUE when both are NULL, FALSE when one is; otherwise a = b,
 * which is NULL when a value did not convert ('abc' <=> 0), as Hive's
 * GenericUDFOPEqualNS defers to GenericUDFOPEqual. */
static void eval_equal_ns(BoundExpr *e, const CombBatch *in, CombTypeKind k)
{
    const CombVector *x = e->a->out, *y = e->b->out;
    const CombVector *rx = unconverted(e->a), *ry = unconverted(e->b);
    CombVector *o = e->out;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool nx = comb_vec_is_null(rx, row), ny = comb_vec_is_null(ry, row);
        bool lost = !nx && !ny &&
                    (comb_vec_is_null(x, row) || comb_vec_is_null(y, row));
        sql_vec_mark(o, in, row, lost);
        if (lost)
            continue;
        o->i64[row] = (nx || ny) ? (nx && ny)
                                 : compare_holds(e, AST_OP_EQ, k, x, y, row);
    }
}

/* Can x and y of kind k be compared without sql_value_cmp's per-row
 * dispatch: integers, dates and booleans, and decimals of one scale (a
 * column and a constant of its type)? */
static bool fast_kind(const BoundExpr *e, CombTypeKind k, const CombVector *x,
                      const CombVector *y)
{
    int sx = x->type ? (int)x->type->scale : 0, sy = y->type ? (int)y->type->scale : 0;
    return !e->row_mode && (comb_type_is_int(k) || (k == COMB_T_DECIMAL && sx == sy));
}

static inline int fast_cmp(CombTypeKind k, const CombVector *x, const CombVector *y, int row)
{
    if (k == COMB_T_DECIMAL)
        return (x->dec[row] > y->dec[row]) - (x->dec[row] < y->dec[row]);
    return (x->i64[row] > y->i64[row]) - (x->i64[row] < y->i64[row]);
}

/* The comparisons of a filter over a scan, in one loop; false when the
 * kind needs the general path. */
static bool compare_fast(const BoundExpr *e, const CombBatch *in, CombTypeKind k,
                         const CombVector *x, const CombVector *y, CombVector *o)
{
    if (!fast_kind(e, k, x, y))
        return false;
    FOR_LIVE(in, i, row)
        if (!o->has_nulls || !o->nulls[row])
            o->i64[row] = cmp_holds(e->op, fast_cmp(k, x, y, row));
    return true;
}

static void eval_compare(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out, *y = e->b->out;
    CombVector *o = e->out;
    CombTypeKind k = e->a->type == COMB_T_NULL ? e->b->type : e->a->type;
    if (e->op == AST_OP_EQ_NS) {
        eval_equal_ns(e, in, k);
        return;
    }
    nulls_from(o, in, x, y);
    if (k == COMB_T_NULL || compare_fast(e, in, k, x, y, o))
        return;
    FOR_LIVE(in, i, row)
        if (!o->has_nulls || !o->nulls[row])
            o->i64[row] = compare_holds(e, e->op, k, x, y, row);
}

/* AND / OR over n operands with SQL's three-valued logic: the deciding
 * value (FALSE for AND, TRUE for OR) wins, else NULL if any is NULL. */
static void eval_logic(BoundExpr *e, const CombBatch *in)
{
    CombVector *o = e->out;
    int decide = e->op == AST_OP_AND ? 0 : 1;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool saw_null = false, decided = false;
        for (int k = 0; k < e->n_args && !decided; k++) {
            const CombVector *x = e->args[k]->out;
            if (comb_vec_is_null(x, row))
                saw_null = true;
            else
                decided = (x->i64[row] != 0) == decide;
        }
        sql_vec_mark(o, in, row, !decided && saw_null);
        o->i64[row] = decided ? decide : !decide;
    }
}

/* -------------------------------------------------------------- arithmetic */

static int64_t int_arith(AstOp op, int64_t a, int64_t b, bool *is_null)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case AST_OP_ADD: return (int64_t)(ua + ub);
    case AST_OP_SUB: return (int64_t)(ua - ub);
    case AST_OP_MUL: return (int64_t)(ua * ub);
    case AST_OP_MOD:
    case AST_OP_DIV_INT:
        if (b == 0) {
            *is_null = true;
            return 0;
        }
        if (b == -1)
            return op == AST_OP_MOD ? 0 : (int64_t)(0 - ua);
        return op == AST_OP_MOD ? a % b : a / b;
    default:
        return 0;
    }
}

/* x / 0 and x % 0 are NULL in Hive, for doubles too. */
static double dbl_arith(AstOp op, double a, double b, bool *is_null)
{
    switch (op) {
    case AST_OP_ADD: return a + b;
    case AST_OP_SUB: return a - b;
    case AST_OP_MUL: return a * b;
    case AST_OP_DIV:
    case AST_OP_MOD:
        if (b == 0) {
            *is_null = true;
            return 0;
        }
        return op == AST_OP_DIV ? a / b : fmod(a, b);
    default:
        return 0;
    }
}

static int vec_scale(const CombVector *v)
{
    return v->type ? (int)v->type->scale : 0;
}

/* What a DECIMAL + - * needs to run within 64 bits: each operand's
 * factor to the result's scale and the bound of the result's precision
 * (INT64_MAX beyond 18 digits: the two int64 values at or beyond it then
 * take the exact path, which is only slower).  ok is false when the result's scale is not the
 * exact one (Hive's adjustment cut it), which only sql_dec_arith rounds. */
typedef struct DecFast {
    bool ok;
    int64_t fx, fy;
    int64_t limit;
} DecFast;

static int64_t pow10_64(int n)
{
    return (int64_t)comb_dec_pow10(n);
}

static DecFast dec_fast_plan(const BoundExpr *e, const CombVector *x,
                             const CombVector *y)
{
    DecFast f = {0};
    int sa = vec_scale(x), sb = vec_scale(y), s = (int)e->ctype->scale;
    int p = (int)e->ctype->precision;
    int c = sa > sb ? sa : sb;
    f.limit = p <= 18 ? pow10_64(p) : INT64_MAX;
    if (e->op == AST_OP_MUL) {
        f.ok = sa + sb == s;
        f.fx = f.fy = 1;
    } else if (e->op == AST_OP_ADD || e->op == AST_OP_SUB) {
        f.ok = c == s && c - sa <= 18 && c - sb <= 18;
        f.fx = f.ok ? pow10_64(c - sa) : 1;
        f.fy = f.ok ? pow10_64(c - sb) : 1;
    }
    return f;
}

/* One row by f: false when a value is beyond 64 bits or an operation
 * overflows, and then the row is sql_dec_arith's (same result, exactly).
 * Inline with op a constant: no test of the operator per row. */
static inline __attribute__((always_inline)) bool
dec_fast_row(const DecFast *f, AstOp op, comb_i128 a, comb_i128 b,
             comb_i128 *out)
{
    int64_t ia = (int64_t)a, ib = (int64_t)b, r;
    bool over = ((comb_i128)ia != a) | ((comb_i128)ib != b);
    if (op == AST_OP_MUL) {
        over |= __builtin_mul_overflow(ia, ib, &r);
    } else {
        over |= __builtin_mul_overflow(ia, f->fx, &ia);
        over |= __builtin_mul_overflow(ib, f->fy, &ib);
        over |= op == AST_OP_ADD ? __builtin_add_overflow(ia, ib, &r)
                                 : __builtin_sub_overflow(ia, ib, &r);
    }
    /* |r| < limit, as one unsigned range test */
    over |= (uint64_t)r + (uint64_t)(f->limit - 1) > 2 * (uint64_t)(f->limit - 1);
    *out = r;
    return !over;
}

/* The live rows of a DECIMAL operation, by dec_fast_row when fast_op is
 * + - or * (a constant here) and f allows it, else (and for the rows it
 * gives up) by sql_dec_arith. */
static inline __attribute__((always_inline)) void
dec_rows(BoundExpr *e, const CombBatch *in, const CombVector *x,
         const CombVector *y, CombVector *o, const DecFast *f, AstOp fast_op)
{
    const int sa = vec_scale(x), sb = vec_scale(y);
    const int p = (int)e->ctype->precision, s = (int)e->ctype->scale;
    const bool fast = fast_op == AST_OP_MUL || fast_op == AST_OP_ADD ||
                      fast_op == AST_OP_SUB;
    const int live = comb_batch_live(in);
    const uint16_t *sel = in->use_sel ? in->sel : NULL;
    const uint8_t *nulls = o->has_nulls ? o->nulls : NULL;
    const comb_i128 *xd = x->dec, *yd = y->dec;
    comb_i128 *od = o->dec;
    for (int i = 0; i < live; i++) {
        int row = sel ? sel[i] : i;
        if (nulls && nulls[row])
            continue;
        if (fast && dec_fast_row(f, fast_op, xd[row], yd[row], &od[row]))
            continue;
        if (!sql_dec_arith(e->op, xd[row], sa, yd[row], sb, p, s, &od[row]))
            set_null(o, row);
    }
}

/* DECIMAL + - * / %: one loop per operator, so that the 64-bit path has
 * no test of it per row. */
static void eval_dec_arith(BoundExpr *e, const CombBatch *in,
                           const CombVector *x, const CombVector *y,
                           CombVector *o)
{
    const DecFast f = dec_fast_plan(e, x, y);
    if (f.ok && e->op == AST_OP_MUL)
        dec_rows(e, in, x, y, o, &f, AST_OP_MUL);
    else if (f.ok && e->op == AST_OP_ADD)
        dec_rows(e, in, x, y, o, &f, AST_OP_ADD);
    else if (f.ok && e->op == AST_OP_SUB)
        dec_rows(e, in, x, y, o, &f, AST_OP_SUB);
    else
        dec_rows(e, in, x, y, o, &f, AST_OP_DIV);
}

/* Operands arrive in the result's type (bind.c: bind_arithmetic), except
 * that integer kinds share int64 vectors and DECIMAL operands keep their
 * own scales. */
static void eval_arith(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out, *y = e->b->out;
    CombVector *o = e->out;
    nulls_from(o, in, x, y);
    if (e->type == COMB_T_DECIMAL) {
        eval_dec_arith(e, in, x, y, o);
        return;
    }
    FOR_LIVE(in, i, row) {
        bool is_null = false;
        if (o->has_nulls && o->nulls[row])
            continue;
        /* FLOAT rounds each result to float, as Java does; computing in
         * double first gives the same float (53 >= 2 * 24 + 2 bits) */
        if (e->type == COMB_T_FLOAT)
            o->f64[row] = (float)dbl_arith(e->op, (float)x->f64[row],
                                           (float)y->f64[row], &is_null);
        else if (e->type == COMB_T_DOUBLE)
            o->f64[row] = dbl_arith(e->op, x->f64[row], y->f64[row], &is_null);
        else
            o->i64[row] = wrap_to(e->type, int_arith(e->op, x->i64[row],
                                                     y->i64[row], &is_null));
        if (is_null)
            set_null(o, row);
    }
}

static int eval_concat(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->a->out, *y = e->b->out;
    CombVector *o = e->out;
    comb_arena_reset(e->scratch);
    nulls_from(o, in, x, y);
    FOR_LIVE(in, i, row) {
        char *p;
        CombStr a, b;
        if (o->has_nulls && o->nulls[row])
            continue;
        a = x->str[row];
        b = y->str[row];
        p = comb_arena_alloc(e->scratch, (size_t)a.len + b.len + 1);
        if (!p)
            return comb_err_nomem(err);
        memcpy(p, a.ptr, a.len);
        memcpy(p + a.len, b.ptr, b.len);
        o->str[row] = (CombStr){p, a.len + b.len};
    }
    return COMB_OK;
}

static int eval_binary(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    switch (e->op) {
    case AST_OP_AND:
    case AST_OP_OR:
        eval_logic(e, in);
        return COMB_OK;
    case AST_OP_CONCAT:
        return eval_concat(e, in, err);
    case AST_OP_EQ: case AST_OP_NE: case AST_OP_LT: case AST_OP_LE:
    case AST_OP_GT: case AST_OP_GE: case AST_OP_EQ_NS:
        eval_compare(e, in);
        return COMB_OK;
    default:
        eval_arith(e, in);
        return COMB_OK;
    }
}

static void eval_unary(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out;
    CombVector *o = e->out;
    nulls_from(o, in, x, NULL);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(x, row))
            continue;
        if (e->op == AST_OP_NOT)
            o->i64[row] = !x->i64[row];
        else if (comb_type_is_float(e->type))
            o->f64[row] = e->op == AST_OP_NEG ? -x->f64[row] : x->f64[row];
        else if (e->type == COMB_T_DECIMAL)
            o->dec[row] = e->op == AST_OP_NEG ? -x->dec[row] : x->dec[row];
        else if (e->a->type == COMB_T_NULL)
            set_null(o, row);
        else
            o->i64[row] = e->op == AST_OP_NEG
                              ? wrap_to(e->type, (int64_t)(0 - (uint64_t)x->i64[row]))
                              : x->i64[row];
    }
}

/* ------------------------------------------------------------- predicates */

static void eval_is_null(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out;
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row)
        e->out->i64[row] = comb_vec_is_null(x, row) != e->negated;
}

/* x [NOT] BETWEEN lo AND hi: [NOT] (x >= lo AND x <= hi) in three-valued
 * logic (a FALSE side decides even when the other is NULL).  Hive's
 * vectorized filters pass a NaN through neither BETWEEN nor NOT BETWEEN. */
static void eval_between(BoundExpr *e, const CombBatch *in)
{
    const BoundExpr *x_hi = e->n_args ? e->args[0] : e->a;
    const CombVector *x = e->a->out, *x2 = x_hi->out, *lo = e->b->out,
                     *hi = e->c->out;
    CombVector *o = e->out;
    CombTypeKind k = e->a->type, k2 = x_hi->type;
    bool fast_lo = fast_kind(e, k, x, lo), fast_hi = fast_kind(e, k2, x2, hi);
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool nx = comb_vec_is_null(x, row);
        int ge = nx || comb_vec_is_null(lo, row) ? -1
                 : fast_lo ? fast_cmp(k, x, lo, row) >= 0
                           : compare_holds(e, AST_OP_GE, k, x, lo, row);
        int le = comb_vec_is_null(x2, row) || comb_vec_is_null(hi, row) ? -1
                 : fast_hi ? fast_cmp(k2, x2, hi, row) <= 0
                           : compare_holds(e, AST_OP_LE, k2, x2, hi, row);
        int r = (ge == 0 || le == 0) ? 0 : (ge == 1 && le == 1) ? 1 : -1;
        if (r >= 0 && e->negated)
            r = !r;
        if (!nx && !e->row_mode && comb_type_is_float(k) && isnan(x->f64[row]))
            r = 0;
        sql_vec_mark(o, in, row, r < 0);
        if (r >= 0)
            o->i64[row] = r;
    }
}

/* One IN-list match.  Hive looks doubles up in a hash set of Java
 * DoubleWritables: equal with ==, hashed by their bits, so NaN matches
 * nothing and -0.0 does not find 0.0. */
static bool in_matches(CombTypeKind k, const CombVector *x, const CombVector *y,
                       int row)
{
    if (comb_type_is_float(k))
        return x->f64[row] == y->f64[row] &&
               signbit(x->f64[row]) == signbit(y->f64[row]);
    return cmp_values(k, x, y, row) == 0;
}

/* x IN (list): TRUE if equal to any; NULL if no match and a NULL is
 * involved; else FALSE (then inverted for NOT IN). */
static void eval_in(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out;
    CombVector *o = e->out;
    CombTypeKind k = e->a->type;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool found = false, saw_null = comb_vec_is_null(x, row);
        for (int j = 0; j < e->n_args && !found && !comb_vec_is_null(x, row); j++) {
            const CombVector *y = e->args[j]->out;
            if (comb_vec_is_null(y, row))
                saw_null = true;
            else if (in_matches(k, x, y, row))
                found = true;
        }
        sql_vec_mark(o, in, row, !found && saw_null);
        o->i64[row] = found != e->negated;
    }
}

static void eval_like(BoundExpr *e, const CombBatch *in)
{
    const CombVector *x = e->a->out, *p = e->b->out;
    CombVector *o = e->out;
    nulls_from(o, in, x, p);
    FOR_LIVE(in, i, row) {
        if (o->has_nulls && o->nulls[row])
            continue;
        o->i64[row] = sql_like_match(x->str[row], p->str[row]) != e->negated;
    }
}

/* ROW__ID as a struct of the scan's three ROW__ID columns. */
static int eval_rowid(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    (void)err;
    o->has_nulls = false;
    for (int k = 0; k < 3; k++) {
        const CombVector *src = &in->cols[e->col + k];
        CombVector *f = &o->children[k];
        f->has_nulls = false;
        FOR_LIVE(in, i, row)
            f->i64[row] = src->i64[row];
    }
    return COMB_OK;
}

/* First WHEN that is TRUE picks its value; none: ELSE or NULL. */
static int eval_case(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    int n = e->n_args / 2;
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        const CombVector *v = e->c ? e->c->out : NULL;
        for (int k = 0; k < n; k++) {
            const CombVector *cond = e->args[2 * k]->out;
            if (!comb_vec_is_null(cond, row) && cond->i64[row]) {
                v = e->args[2 * k + 1]->out;
                break;
            }
        }
        if (!v)
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, v, row))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int eval_children(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    int rc;
    if ((e->a && (rc = sql_expr_eval(e->a, in, err))) ||
        (e->b && (rc = sql_expr_eval(e->b, in, err))) ||
        (e->c && (rc = sql_expr_eval(e->c, in, err))))
        return rc;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = sql_expr_eval(e->args[i], in, err)))
            return rc;
    return COMB_OK;
}

int sql_expr_eval(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    int rc;
    if (e->kind == BX_CONST)
        return COMB_OK;
    if (e->kind == BX_COL) {
        /* a copy of the column's vector header, never a pointer into the
         * batch: a statement that replaces batch columns (UPDATE SET a = b,
         * b = a) must not change what an evaluated reference holds */
        e->own = in->cols[e->col];
        if (!e->own.type)
            e->own.type = e->ctype;
        e->out = &e->own;
        return COMB_OK;
    }
    if ((rc = eval_children(e, in, err)))
        return rc;
    switch (e->kind) {
    case BX_ROWID: return eval_rowid(e, in, err);
    case BX_CAST: return sql_eval_cast(e, in, err);
    case BX_BINARY: return eval_binary(e, in, err);
    case BX_UNARY: eval_unary(e, in); return COMB_OK;
    case BX_IS_NULL: eval_is_null(e, in); return COMB_OK;
    case BX_BETWEEN: eval_between(e, in); return COMB_OK;
    case BX_IN:
        if (e->state)   /* the constants' set (in_set_prepare) */
            eval_in_set(e, in);
        else
            eval_in(e, in);
        return COMB_OK;
    case BX_LIKE: eval_like(e, in); return COMB_OK;
    case BX_FUNC: return e->fn(e, in, err);
    case BX_CASE: return eval_case(e, in, err);
    default: return COMB_INTERNAL(err, "unexpected bound expression");
    }
}

/* ------------------------------------------- filters on a column alone */

/* Which orders of a column value against a constant (bit 0 smaller, 1
 * equal, 2 larger) make a comparison TRUE; 0 for other operators. */
static unsigned order_mask(AstOp op)
{
    switch (op) {
    case AST_OP_LT: return 1;
    case AST_OP_LE: return 3;
    case AST_OP_EQ: return 2;
    case AST_OP_NE: return 5;
    case AST_OP_GT: return 4;
    case AST_OP_GE: return 6;
    default: return 0;
    }
}

/* The same orders seen from the constant's side (`5 < x` is `x > 5`). */
static unsigned mirror_mask(unsigned m)
{
    return (m & 2) | (m >> 2 & 1) | (m << 2 & 4);
}

static bool is_const_value(const BoundExpr *e)
{
    return e->kind == BX_CONST && !const_is_null(e);
}

/* The value of constant k as one of column col's payload (its unscaled
 * decimal at the column's scale, exactly, its int64 or its bytes), or
 * false when it is no such value: another kind, a NULL, a decimal of more
 * fraction digits than the column's or beyond 38 digits once scaled. */
static bool column_vs_const(const BoundExpr *col, const BoundExpr *k,
                            comb_i128 *dec, int64_t *i64, CombStr *str)
{
    if (col->kind != BX_COL || !is_const_value(k) || !col->out)
        return false;
    if (comb_type_is_int(col->type) && comb_type_is_int(k->type)) {
        *i64 = k->ival;
        return true;
    }
    if (comb_type_is_str(col->type) && comb_type_is_str(k->type)) {
        *str = k->sval;
        return true;
    }
    if (col->type != COMB_T_DECIMAL || k->type != COMB_T_DECIMAL ||
        !k->ctype)
        return false;
    int from = (int)k->ctype->scale, to = vec_scale(col->out);
    return from <= to && comb_dec_rescale(k->dec, from, to, dec);
}

/* e, or the column under an implicit widening of integers (the binder's
 * CAST(id AS bigint) before a comparison with a BIGINT constant): its
 * values are the same int64s. */
static BoundExpr *bare_column(BoundExpr *e)
{
    if (e->kind == BX_CAST && e->implicit && e->a->kind == BX_COL &&
        sql_int_rank(e->a->type) && sql_int_rank(e->type) >= sql_int_rank(e->a->type))
        return e->a;
    return e;
}

/* Order of v against lo and hi: bit 0 of (mask_lo >> order) & (mask_hi >>
 * order), where an order is 0 smaller, 1 equal, 2 larger. */
#define ORDER_KEEP(v, lo, hi, mask_lo, mask_hi)                        \
    ((mask_lo) >> (((v) >= (lo)) + ((v) > (lo))) &                     \
     (mask_hi) >> (((v) >= (hi)) + ((v) > (hi))) & 1u)

/* A filter of a column against constants: the column, its bounds as
 * payload values and the orders each keeps (hi unused when hi_mask is 7,
 * which keeps every order). */
typedef struct ColumnKeep {
    int col;                 /* the input column */
    const CombVector *x;
    comb_i128 lo_dec, hi_dec;
    int64_t lo_i64, hi_i64;
    CombStr lo_str, hi_str;
    unsigned lo_mask, hi_mask, flip;
} ColumnKeep;

/* The live rows of b that q keeps, in one branch-free pass: a row is
 * written to sel[n] always and counted when kept.  Inline with is_dec and
 * two constants: one loop per payload array and number of bounds. */
static inline __attribute__((always_inline)) void
keep_by_order(CombBatch *b, const ColumnKeep *q, bool is_dec, bool two)
{
    const int live = comb_batch_live(b);
    const bool use_sel = b->use_sel;
    uint16_t *sel = b->sel;
    const uint8_t *nulls = q->x->has_nulls ? q->x->nulls : NULL;
    const comb_i128 *dec = q->x->dec, dlo = q->lo_dec, dhi = q->hi_dec;
    const int64_t *i64 = q->x->i64, ilo = q->lo_i64, ihi = q->hi_i64;
    const unsigned ml = q->lo_mask, mh = two ? q->hi_mask : 7, flip = q->flip;
    int n = 0;
    for (int i = 0; i < live; i++) {
        int row = use_sel ? sel[i] : i;
        unsigned keep = is_dec ? ORDER_KEEP(dec[row], dlo, dhi, ml, mh)
                               : ORDER_KEEP(i64[row], ilo, ihi, ml, mh);
        sel[n] = (uint16_t)row;
        n += (int)((keep ^ flip) & (nulls ? !nulls[row] : 1u));
    }
    b->n_sel = n;
    b->use_sel = true;
}

/* Order of a against b, 0 smaller, 1 equal, 2 larger, in the byte order
 * string comparisons have (sql_str_cmp); equality tells from the lengths
 * first. */
static inline unsigned str_order(CombStr a, CombStr b, bool equality)
{
    if (equality)
        return str_equal(a, b);
    return (unsigned)(sql_str_cmp(a, b) + 1);
}

/* keep_by_order for strings: = and <> (masks 2 and 5 of one bound) by
 * length and bytes, the other orders by sql_str_cmp. */
static void keep_by_string(CombBatch *b, const ColumnKeep *q)
{
    const int live = comb_batch_live(b);
    const bool use_sel = b->use_sel, two = q->hi_mask != 7;
    const bool equality = !two && (q->lo_mask == 2 || q->lo_mask == 5);
    /* equality's orders, 1 equal and 0 different, suit both masks */
    const unsigned ml = q->lo_mask;
    uint16_t *sel = b->sel;
    const uint8_t *nulls = q->x->has_nulls ? q->x->nulls : NULL;
    const CombStr *str = q->x->str;
    int n = 0;
    for (int i = 0; i < live; i++) {
        int row = use_sel ? sel[i] : i;
        unsigned keep = 0;
        if (!nulls || !nulls[row])
            keep = ml >> str_order(str[row], q->lo_str, equality) &
                   (two ? q->hi_mask >> str_order(str[row], q->hi_str, false)
                        : 1u) & 1u;
        sel[n] = (uint16_t)row;
        n += (int)(keep ^ (q->flip && (!nulls || !nulls[row])));
    }
    b->n_sel = n;
    b->use_sel = true;
}

static void keep_column(CombBatch *b, const ColumnKeep *q)
{
    bool two = q->hi_mask != 7;
    if (q->x->str) {
        keep_by_string(b, q);
    } else if (q->x->kind == COMB_T_DECIMAL) {
        if (two)
            keep_by_order(b, q, true, true);
        else
            keep_by_order(b, q, true, false);
    } else if (two) {
        keep_by_order(b, q, false, true);
    } else {
        keep_by_order(b, q, false, false);
    }
}

/* Whether e is `col OP const`, `const OP col` or `col [NOT] BETWEEN const
 * AND const` over an integer, date or decimal column (a decimal constant
 * of no more fraction digits than the column's); then *q is it. */
static bool column_keep_of(BoundExpr *e, const CombBatch *b, ColumnKeep *q)
{
    BoundExpr *col;
    const BoundExpr *lo = e->b, *hi = NULL;
    *q = (ColumnKeep){.hi_mask = 7};
    if (e->row_mode || !e->a || !e->b)
        return false;
    col = bare_column(e->a);
    if (e->kind == BX_BINARY && (q->lo_mask = order_mask(e->op))) {
        if (col->kind != BX_COL) {
            col = bare_column(e->b);
            lo = e->a;
            q->lo_mask = mirror_mask(q->lo_mask);
        }
    } else if (e->kind == BX_BETWEEN && !e->n_args && e->c) {
        hi = e->c;
        q->lo_mask = 6;
        q->hi_mask = 3;
        q->flip = e->negated;
    } else {
        return false;
    }
    if (col->kind != BX_COL || sql_expr_eval(col, b, NULL) ||
        !column_vs_const(col, lo, &q->lo_dec, &q->lo_i64, &q->lo_str) ||
        (hi && !column_vs_const(col, hi, &q->hi_dec, &q->hi_i64, &q->hi_str)))
        return false;
    q->x = col->out;
    q->col = col->col;
    return true;
}

/* Two one-sided filters of one column as one range (x >= a AND x < b). */
static bool column_keep_merge(ColumnKeep *q, const ColumnKeep *r)
{
    if (q->col != r->col || q->hi_mask != 7 || r->hi_mask != 7)
        return false;
    q->hi_dec = r->lo_dec;
    q->hi_i64 = r->lo_i64;
    q->hi_str = r->lo_str;
    q->hi_mask = r->lo_mask;
    return true;
}

/* Keep the live rows of b where e is TRUE. */
static int keep_true(BoundExpr *e, CombBatch *b, CombErr *err)
{
    int rc, n = 0;
    const CombVector *v;
    if ((rc = sql_expr_eval(e, b, err)))
        return rc;
    v = e->out;
    FOR_LIVE(b, i, row)
        if (!comb_vec_is_null(v, row) && v->i64[row])
            b->sel[n++] = (uint16_t)row;
    b->n_sel = n;
    b->use_sel = true;
    return COMB_OK;
}

/* Whether e can neither fail nor give anything but its value: columns,
 * constants, comparisons, BETWEEN, IN, LIKE, IS NULL, NOT, AND, OR and
 * lenient casts of such.  A filter of such conjuncts only may take them in
 * any order. */
static bool is_plain(const BoundExpr *e)
{
    bool plain;
    switch (e->kind) {
    case BX_COL:
    case BX_CONST:
        return true;
    case BX_CAST:
        plain = !e->strict;
        break;
    case BX_BINARY:
        plain = e->op == AST_OP_AND || e->op == AST_OP_OR ||
                order_mask(e->op) || e->op == AST_OP_EQ_NS;
        break;
    case BX_UNARY:
        plain = e->op == AST_OP_NOT;
        break;
    case BX_IS_NULL:
    case BX_BETWEEN:
    case BX_IN:
    case BX_LIKE:
        plain = true;
        break;
    default:
        return false;
    }
    plain = plain && (!e->a || is_plain(e->a)) && (!e->b || is_plain(e->b)) &&
            (!e->c || is_plain(e->c));
    for (int i = 0; plain && i < e->n_args; i++)
        plain = is_plain(e->args[i]);
    return plain;
}

/* One pass over the conjuncts, each over the rows the ones before kept:
 * those keep_column takes when `columns` (with the next one when that
 * bounds the same column from the other side), the others when `rest`. */
static int filter_conjuncts(BoundExpr *pred, CombBatch *b, bool columns,
                            bool rest, CombErr *err)
{
    int rc = COMB_OK, n = sql_bx_conjuncts(pred);
    for (int k = 0; !rc && k < n && comb_batch_live(b) > 0; k++) {
        ColumnKeep q, r;
        if (!column_keep_of(sql_bx_conjunct(pred, k), b, &q)) {
            if (rest)
                rc = keep_true(sql_bx_conjunct(pred, k), b, err);
            continue;
        }
        if (!columns)
            continue;
        if (k + 1 < n && column_keep_of(sql_bx_conjunct(pred, k + 1), b, &r) &&
            column_keep_merge(&q, &r))
            k++;
        keep_column(b, &q);
    }
    return rc;
}

/* Conjunct by conjunct, each over the rows the ones before kept (as Hive's
 * vectorized filters narrow their selection): a row FALSE or NULL in one
 * is not evaluated further.  When every conjunct is plain, those on a
 * column alone (the cheapest, one pass each) go first, so that the others
 * (IN lists of strings, comparisons of two columns) see fewer rows; else
 * the conjuncts keep their order, since one could fail on a row an
 * earlier one drops. */
int sql_filter_batch(BoundExpr *pred, CombBatch *b, CombErr *err)
{
    int rc;
    if (sql_bx_conjuncts(pred) == 1 || !is_plain(pred))
        return filter_conjuncts(pred, b, true, true, err);
    if ((rc = filter_conjuncts(pred, b, true, false, err)))
        return rc;
    return filter_conjuncts(pred, b, false, true, err);
}

/* ------------------------------------------------------------ conjuncts */

static bool is_and(const BoundExpr *e)
{
    return e->kind == BX_BINARY && e->op == AST_OP_AND;
}

int sql_bx_conjuncts(const BoundExpr *e)
{
    return is_and(e) ? e->n_args : 1;
}

BoundExpr *sql_bx_conjunct(BoundExpr *e, int i)
{
    return is_and(e) ? e->args[i] : e;
}

BoundExpr *sql_bx_and(SqlStmtCtx *c, BoundExpr *a, BoundExpr *b)
{
    BoundExpr *n;
    int na, nb;
    if (!a || !b)
        return a ? a : b;
    na = sql_bx_conjuncts(a);
    nb = sql_bx_conjuncts(b);
    if (!(n = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, a->pos)) ||
        !(n->args = comb_arena_alloc(c->arena, (size_t)(na + nb) * sizeof *n->args)))
        return NULL;
    n->op = AST_OP_AND;
    for (int i = 0; i < na; i++)
        n->args[n->n_args++] = sql_bx_conjunct(a, i);
    for (int i = 0; i < nb; i++)
        n->args[n->n_args++] = sql_bx_conjunct(b, i);
    return n;
}
