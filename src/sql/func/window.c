/*
 * window.c - window function calls: names, Hive's argument checks and
 * result types (GenericUDAFRank, GenericUDAFNTile, GenericUDFLeadLag,
 * GenericUDAFFirstValue / LastValue), and each call's frame with Hive's
 * default and its checks (WindowingSpec.validateWindowFrame).
 */
#include "sql/func/window.h"

#include <string.h>
#include <strings.h>

typedef struct WinFn {
    const char *name;
    SqlWinKind kind;
    int min_args, max_args;
} WinFn;

static const WinFn WIN_FNS[] = {
    {"row_number", SQL_WIN_ROW_NUMBER, 0, 0},
    {"rank", SQL_WIN_RANK, 0, 0},
    {"dense_rank", SQL_WIN_DENSE_RANK, 0, 0},
    {"percent_rank", SQL_WIN_PERCENT_RANK, 0, 0},
    {"cume_dist", SQL_WIN_CUME_DIST, 0, 0},
    {"ntile", SQL_WIN_NTILE, 1, 1},
    {"lag", SQL_WIN_LAG, 1, 3},
    {"lead", SQL_WIN_LEAD, 1, 3},
    {"first_value", SQL_WIN_FIRST_VALUE, 1, 2},
    {"last_value", SQL_WIN_LAST_VALUE, 1, 2},
};

static const WinFn *win_fn(const char *name)
{
    for (size_t i = 0; i < sizeof WIN_FNS / sizeof WIN_FNS[0]; i++)
        if (strcasecmp(WIN_FNS[i].name, name) == 0)
            return &WIN_FNS[i];
    return NULL;
}

bool sql_window_fn_exists(const char *name)
{
    return win_fn(name) != NULL;
}

const char *const *sql_window_fn_names(void)
{
    static const char *names[sizeof WIN_FNS / sizeof WIN_FNS[0] + 1];
    for (size_t i = 0; i < sizeof WIN_FNS / sizeof WIN_FNS[0]; i++)
        names[i] = WIN_FNS[i].name;
    return names;
}

static bool integer_kind(CombTypeKind k)
{
    return k == COMB_T_TINYINT || k == COMB_T_SMALLINT || k == COMB_T_INT ||
           k == COMB_T_BIGINT;
}

/* A constant integer argument (ntile's buckets, lag's offset), else
 * Hive's "must be a constant" error. */
static int const_int(const AstExpr *call, const BoundExpr *a, int k,
                     int64_t *out, CombErr *err)
{
    if (a->kind != BX_CONST || a->is_null || !integer_kind(a->type))
        return sql_err_at(err, COMB_ESEMANTIC, 10016, a->pos,
                          "Argument type mismatch: %s's argument %d must be "
                          "a constant integer", call->name, k + 1);
    *out = a->ival;
    return COMB_OK;
}

static int bind_ntile(const AstExpr *call, BoundExpr **args, SqlWinCall *w,
                      CombErr *err)
{
    int rc = const_int(call, args[0], 0, &w->n, err);
    if (!rc && w->n <= 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10016, args[0]->pos,
                          "Argument type mismatch: NTILE's number of buckets "
                          "must be positive (given %lld)", (long long)w->n);
    return rc;
}

/* lag / lead (x [, offset [, default]]): the default takes x's type. */
static int bind_lead_lag(SqlStmtCtx *c, const AstExpr *call, BoundExpr **args,
                         int n_args, SqlWinCall *w, CombErr *err)
{
    int rc;
    w->arg = args[0];
    w->n = 1;
    if (n_args > 1 && (rc = const_int(call, args[1], 1, &w->n, err)))
        return rc;
    if (w->n < 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10016, args[1]->pos,
                          "Argument type mismatch: %s amount can not be "
                          "negative. Specified: %lld", call->name,
                          (long long)w->n);
    if (n_args > 2 &&
        (rc = sql_bind_convert(c, args[2], w->type, &w->dflt, err)))
        return rc;
    return COMB_OK;
}

/* first_value / last_value (x [, skip_nulls]) [IGNORE NULLS]. */
static int bind_first_last(const AstExpr *call, BoundExpr **args, int n_args,
                           SqlWinCall *w, CombErr *err)
{
    w->arg = args[0];
    w->ignore_nulls = call->null_treatment == 1;
    if (n_args < 2)
        return COMB_OK;
    if (args[1]->kind != BX_CONST || args[1]->type != COMB_T_BOOLEAN)
        return sql_err_at(err, COMB_ESEMANTIC, 10016, args[1]->pos,
                          "Argument type mismatch: %s's second argument must "
                          "be a constant boolean", call->name);
    w->ignore_nulls = !args[1]->is_null && args[1]->ival;
    return COMB_OK;
}

static int bind_ranking(SqlStmtCtx *c, const AstExpr *call, const WinFn *fn,
                        BoundExpr **args, int n_args, SqlWinCall *w,
                        CombErr *err)
{
    if (n_args < fn->min_args || n_args > fn->max_args) {
        if (fn->min_args == fn->max_args)
            return sql_err_at(err, COMB_ESEMANTIC, 10015, call->pos,
                              "Arguments length mismatch: %s takes %d "
                              "argument%s, given %d", call->name, fn->min_args,
                              fn->min_args == 1 ? "" : "s", n_args);
        return sql_err_at(err, COMB_ESEMANTIC, 10015, call->pos,
                          "Arguments length mismatch: %s takes %d to %d "
                          "arguments, given %d", call->name, fn->min_args,
                          fn->max_args, n_args);
    }
    if (call->null_treatment && fn->kind != SQL_WIN_FIRST_VALUE &&
        fn->kind != SQL_WIN_LAST_VALUE)
        return sql_err_at(err, COMB_ESEMANTIC, 10016, call->pos,
                          "IGNORE NULLS / RESPECT NULLS is only supported "
                          "for first_value and last_value, not %s", call->name);
    w->kind = fn->kind;
    switch (fn->kind) {
    case SQL_WIN_PERCENT_RANK:
    case SQL_WIN_CUME_DIST:
        w->type = sql_kind_type(COMB_T_DOUBLE);
        return COMB_OK;
    case SQL_WIN_NTILE:
        w->type = sql_kind_type(COMB_T_INT);
        return bind_ntile(call, args, w, err);
    case SQL_WIN_LAG:
    case SQL_WIN_LEAD:
        if (!(w->type = sql_bx_type(c, args[0])))
            return comb_err_nomem(err);
        return bind_lead_lag(c, call, args, n_args, w, err);
    case SQL_WIN_FIRST_VALUE:
    case SQL_WIN_LAST_VALUE:
        if (!(w->type = sql_bx_type(c, args[0])))
            return comb_err_nomem(err);
        return bind_first_last(call, args, n_args, w, err);
    default:
        w->type = sql_kind_type(COMB_T_INT);
        return COMB_OK;
    }
}

/* Where a boundary lies relative to the current row, for ordering two:
 * -inf, -n, 0, +n, +inf. */
static __int128 bound_place(const SqlWinBound *b)
{
    switch (b->kind) {
    case AST_BOUND_UNBOUNDED_PRECEDING: return -((__int128)1 << 100);
    case AST_BOUND_PRECEDING: return -(__int128)b->n;
    case AST_BOUND_CURRENT_ROW: return 0;
    case AST_BOUND_FOLLOWING: return b->n;
    default: return (__int128)1 << 100;
    }
}

static bool has_offset(const SqlWinBound *b)
{
    return b->kind == AST_BOUND_PRECEDING || b->kind == AST_BOUND_FOLLOWING;
}

static bool range_key_type(const CombType *t)
{
    return t && (integer_kind(t->kind) || comb_type_is_float(t->kind) ||
                 t->kind == COMB_T_DECIMAL || t->kind == COMB_T_DATE ||
                 t->kind == COMB_T_TIMESTAMP);
}

/* The written frame, checked as Hive checks it, or Hive's default. */
static int bind_frame(const AstWindowSpec *spec, int n_order,
                      const CombType *order_type, SqlWinFrame *f, CombErr *err)
{
    if (!spec || spec->unit == AST_FRAME_NONE) {
        f->range = n_order > 0;
        f->start.kind = AST_BOUND_UNBOUNDED_PRECEDING;
        f->end.kind = n_order > 0 ? AST_BOUND_CURRENT_ROW
                                  : AST_BOUND_UNBOUNDED_FOLLOWING;
        return COMB_OK;
    }
    f->range = spec->unit == AST_FRAME_RANGE;
    f->start = (SqlWinBound){spec->start.kind, spec->start.amount};
    f->end = (SqlWinBound){spec->end.kind, spec->end.amount};
    if (f->start.kind == AST_BOUND_UNBOUNDED_FOLLOWING)
        return sql_err_at(err, COMB_ESEMANTIC, 0, spec->start.pos,
                          "Start of a WindowFrame cannot be UNBOUNDED FOLLOWING");
    if (f->end.kind == AST_BOUND_UNBOUNDED_PRECEDING)
        return sql_err_at(err, COMB_ESEMANTIC, 0, spec->end.pos,
                          "End of a WindowFrame cannot be UNBOUNDED PRECEDING");
    if (bound_place(&f->start) > bound_place(&f->end))
        return sql_err_at(err, COMB_ESEMANTIC, 0, spec->frame_pos,
                          "Window range invalid, start boundary is greater "
                          "than end boundary");
    if (f->range && (has_offset(&f->start) || has_offset(&f->end))) {
        if (n_order != 1)
            return sql_err_at(err, COMB_ESEMANTIC, 0, spec->frame_pos,
                              "Range based Window Frame can have only 1 Sort Key");
        if (!range_key_type(order_type))
            return sql_err_at(err, COMB_ESEMANTIC, 0, spec->frame_pos,
                              "Range based Window Frame with an offset needs "
                              "a numeric, DATE or TIMESTAMP sort key");
    }
    return COMB_OK;
}

int sql_window_bind(SqlStmtCtx *c, const AstExpr *call,
                    const AstWindowSpec *spec, int n_order,
                    const CombType *order_type, BoundExpr **args, int n_args,
                    SqlWinCall **out, CombErr *err)
{
    SqlWinCall *w = comb_arena_calloc(c->arena, sizeof *w);
    const WinFn *fn = win_fn(call->name);
    int rc;
    if (!w)
        return comb_err_nomem(err);
    w->name = call->name;
    w->text = call->text;
    if (fn) {
        rc = bind_ranking(c, call, fn, args, n_args, w, err);
    } else if (call->null_treatment) {
        rc = sql_err_at(err, COMB_ESEMANTIC, 10016, call->pos,
                        "IGNORE NULLS / RESPECT NULLS is only supported for "
                        "first_value and last_value, not %s", call->name);
    } else if (call->distinct) {
        rc = sql_err_at(err, COMB_EUNSUPPORTED, 0, call->pos,
                        "%s(DISTINCT ...) OVER (...) is not supported yet",
                        call->name);
    } else {
        w->kind = SQL_WIN_AGG;
        if (!(rc = sql_agg_bind(c, call, args, n_args, &w->agg, err)))
            w->type = w->agg->type;
    }
    if (rc || (rc = bind_frame(spec, n_order, order_type, &w->frame, err)))
        return rc;
    *out = w;
    return COMB_OK;
}
