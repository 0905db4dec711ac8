/*
 * bind_window.c - window functions in the binder (bind_int.h): a window
 * call in the select list or ORDER BY (found by the scope's window hook,
 * func/expr.h, wherever it sits in an expression) is bound with its spec
 * (a named window of the WINDOW clause filled in) and read as a new
 * column id; calls whose PARTITION BY and ORDER BY are written alike
 * share one LP_WINDOW node (plan/window.h), each with its own frame.  The
 * nodes go over the aggregation (or FROM/WHERE), below the items'
 * PROJECT, in the order their specs were first used.
 */
#include "sql/plan/bind_int.h"

#include <string.h>
#include <strings.h>

#include "sql/plan/window.h"

/* One LP_WINDOW of a block: its spec as written (to find the calls that
 * share it), the node's contents and its calls' column ids. */
typedef struct BqWindow {
    const AstWindowSpec *spec;
    LpWindow w;
    int *ids;
} BqWindow;

static const AstNamedWindow *named_window(const AstSelect *s, const char *name)
{
    for (int i = 0; i < s->n_windows; i++)
        if (strcasecmp(s->windows[i].name, name) == 0)
            return &s->windows[i];
    return NULL;
}

/* w with its named window filled in (WINDOW w AS (...), OVER w, OVER (w
 * ORDER BY ...)): the name's PARTITION BY, ORDER BY and frame, each
 * replaced by w's own where w writes one. */
static int resolve_spec(SqlStmtCtx *c, const AstSelect *s,
                        const AstWindowSpec *w, int depth,
                        const AstWindowSpec **out, CombErr *err)
{
    const AstNamedWindow *nw;
    const AstWindowSpec *base;
    AstWindowSpec *m;
    int rc;
    if (!w->ref) {
        *out = w;
        return COMB_OK;
    }
    if (depth > s->n_windows)
        return sql_err_at(err, COMB_ESEMANTIC, 0, w->ref_pos,
                          "Cycle in Window references %s", w->ref);
    if (!(nw = named_window(s, w->ref)))
        return sql_err_at(err, COMB_ESEMANTIC, 0, w->ref_pos,
                          "Window Spec %s refers to an unknown source", w->ref);
    if ((rc = resolve_spec(c, s, nw->spec, depth + 1, &base, err)))
        return rc;
    if (!(m = comb_arena_alloc(c->arena, sizeof *m)))
        return comb_err_nomem(err);
    *m = *base;
    m->ref = NULL;
    m->pos = w->pos;
    if (w->n_partition) {
        m->n_partition = w->n_partition;
        m->partition = w->partition;
    }
    if (w->n_order) {
        m->n_order = w->n_order;
        m->order = w->order;
    }
    if (w->unit != AST_FRAME_NONE) {
        m->unit = w->unit;
        m->frame_pos = w->frame_pos;
        m->start = w->start;
        m->end = w->end;
    }
    *out = m;
    return COMB_OK;
}

static bool same_text(const AstExpr *a, const AstExpr *b)
{
    return a->text && b->text && strcasecmp(a->text, b->text) == 0;
}

/* Do two specs partition and order alike (as written)? */
static bool same_sort(const AstWindowSpec *a, const AstWindowSpec *b)
{
    if (a->n_partition != b->n_partition || a->n_order != b->n_order)
        return false;
    for (int i = 0; i < a->n_partition; i++)
        if (!same_text(a->partition[i], b->partition[i]))
            return false;
    for (int i = 0; i < a->n_order; i++)
        if (!same_text(a->order[i].expr, b->order[i].expr) ||
            a->order[i].desc != b->order[i].desc ||
            a->order[i].nulls != b->order[i].nulls)
            return false;
    return true;
}

/* PARTITION BY and ORDER BY of spec bound in scope sc. */
static int bind_sort(SqlStmtCtx *c, const SqlScope *sc,
                     const AstWindowSpec *spec, LpWindow *w, CombErr *err)
{
    int rc;
    w->n_part = spec->n_partition;
    w->n_order = spec->n_order;
    w->part = comb_arena_calloc(c->arena, (size_t)(w->n_part + 1) * sizeof *w->part);
    w->order = comb_arena_calloc(c->arena, (size_t)(w->n_order + 1) * sizeof *w->order);
    if (!w->part || !w->order)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_part; i++)
        if ((rc = sql_bind_expr(c, sc, spec->partition[i], &w->part[i], err)) ||
            (rc = sql_bq_check_orderable(c, w->part[i], err)))
            return rc;
    for (int i = 0; i < w->n_order; i++) {
        const AstOrderItem *o = &spec->order[i];
        if ((rc = sql_bind_expr(c, sc, o->expr, &w->order[i].expr, err)) ||
            (rc = sql_bq_check_orderable(c, w->order[i].expr, err)))
            return rc;
        w->order[i].desc = o->desc;
        w->order[i].nulls_first = sql_bq_nulls_first(c, o);
    }
    return COMB_OK;
}

/* The window whose PARTITION BY / ORDER BY spec has, made if new. */
static int window_of(BqBlock *b, const SqlScope *sc, const AstWindowSpec *spec,
                     BqWindow **out, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    BqWindow *grown;
    int rc;
    for (int g = 0; g < b->n_win; g++)
        if (same_sort(b->wins[g].spec, spec)) {
            *out = &b->wins[g];
            return COMB_OK;
        }
    if (!(grown = comb_arena_calloc(c->arena, (size_t)(b->n_win + 1) * sizeof *grown)))
        return comb_err_nomem(err);
    if (b->n_win)
        memcpy(grown, b->wins, (size_t)b->n_win * sizeof *grown);
    b->wins = grown;
    grown[b->n_win].spec = spec;
    if ((rc = bind_sort(c, sc, spec, &grown[b->n_win].w, err)))
        return rc;
    *out = &b->wins[b->n_win++];
    return COMB_OK;
}

/* call joins window g as a new column id. */
static int add_call(SqlStmtCtx *c, BqWindow *g, SqlWinCall *call, int *id,
                    CombErr *err)
{
    LpWindow *w = &g->w;
    SqlWinCall **calls = comb_arena_alloc(c->arena, (size_t)(w->n_calls + 1) * sizeof *calls);
    int *ids = comb_arena_alloc(c->arena, (size_t)(w->n_calls + 1) * sizeof *ids);
    if (!calls || !ids)
        return comb_err_nomem(err);
    if (w->n_calls) {
        memcpy(calls, w->calls, (size_t)w->n_calls * sizeof *calls);
        memcpy(ids, g->ids, (size_t)w->n_calls * sizeof *ids);
    }
    calls[w->n_calls] = call;
    ids[w->n_calls] = *id = sql_lp_col_id(c);
    w->calls = calls;
    g->ids = ids;
    w->n_calls++;
    return COMB_OK;
}

/* The scope's window hook: bind the call (its spec and arguments in the
 * same scope, where another window call is an error) into the window of
 * its spec, and read its column. */
static int window_resolve(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                          BoundExpr **out, CombErr *err)
{
    BqBlock *b = sc->window_ctx;
    SqlScope in = *sc;
    const AstWindowSpec *spec = NULL;
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(e->n_args + 1) * sizeof *args);
    SqlWinCall *call = NULL;
    BqWindow *g = NULL;
    int id = 0, rc;
    in.window = NULL;
    if (!args)
        return comb_err_nomem(err);
    if ((rc = resolve_spec(c, b->ast, e->over, 0, &spec, err)) ||
        (rc = window_of(b, &in, spec, &g, err)))
        return rc;
    for (int i = 0; i < e->n_args; i++)
        if ((rc = sql_bind_expr(c, &in, e->args[i], &args[i], err)))
            return rc;
    if ((rc = sql_window_bind(c, e, spec, g->w.n_order,
                              g->w.n_order == 1 ? sql_bx_type(c, g->w.order[0].expr) : NULL,
                              args, e->n_args, &call, err)) ||
        (rc = add_call(c, g, call, &id, err)))
        return rc;
    *out = sql_bx_new_type(c, BX_COL, call->type, e->pos);
    if (!*out)
        return comb_err_nomem(err);
    (*out)->col = id;
    return COMB_OK;
}

void sql_bq_windows_allow(BqBlock *b, bool on)
{
    b->sc.window = b->agg_sc.window = on ? window_resolve : NULL;
    b->sc.window_ctx = b->agg_sc.window_ctx = b;
}

int sql_bq_windows(BqBlock *b, CombErr *err)
{
    (void)err;
    sql_bq_windows_allow(b, true);
    return COMB_OK;
}

/* One LP_WINDOW per window over b->top: its input's columns, then one
 * per call (named as written). */
int sql_bq_windows_place(BqBlock *b, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    sql_bq_windows_allow(b, false);
    for (int g = 0; g < b->n_win; g++) {
        const BqWindow *bw = &b->wins[g];
        LpNode *in = b->top, *n = sql_lp_node(c, LP_WINDOW, in->n_cols + bw->w.n_calls);
        if (!n)
            return comb_err_nomem(err);
        memcpy(n->cols, in->cols, (size_t)in->n_cols * sizeof *n->cols);
        for (int k = 0; k < bw->w.n_calls; k++) {
            const SqlWinCall *call = bw->w.calls[k];
            n->cols[in->n_cols + k] = (LpCol){bw->ids[k],
                                              call->text ? call->text : call->name,
                                              call->type};
        }
        n->input = in;
        n->window = (struct LpWindow *)&bw->w;
        b->top = n;
    }
    return COMB_OK;
}
