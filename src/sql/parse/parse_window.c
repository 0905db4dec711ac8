/*
 * parse_window.c - window specifications: a call's OVER clause (with
 * IGNORE / RESPECT NULLS before it, as Hive 4 writes them) and a SELECT
 * block's WINDOW clause.  Hive's grammar:
 *
 *   OVER name | OVER ( [name] [partitioning] [frame] )
 *   partitioning: PARTITION BY exprs [ORDER BY items] | ORDER BY items
 *                 | DISTRIBUTE BY exprs [SORT BY items] | SORT BY items
 *                 | CLUSTER BY exprs
 *   frame:        (ROWS | RANGE) (BETWEEN bound AND bound | bound)
 *   bound:        UNBOUNDED (PRECEDING | FOLLOWING) | CURRENT ROW
 *                 | n (PRECEDING | FOLLOWING)
 *
 * PRECEDING, FOLLOWING, UNBOUNDED, CURRENT, RANGE, IGNORE and RESPECT are
 * matched by spelling, so they stay identifiers everywhere else.  The
 * frame's sense (start after end, UNBOUNDED FOLLOWING as start) is the
 * binder's check, where Hive makes it.
 */
#include "sql/parse/parse_int.h"

#include <string.h>

/* item, item, ...: parenthesized when '(' follows BY (Hive's grammar
 * commits to it there too). */
static int spec_list(SqlParser *p, SqlItemFn item, SqlVec *v)
{
    *v = (SqlVec){0};
    return sp_list(p, sp_is(p, SQL_TK_LPAREN), item, v);
}

/* exprs of PARTITION / DISTRIBUTE / CLUSTER BY */
static int partition_list(SqlParser *p, AstWindowSpec *w)
{
    SqlVec v;
    SP_TRY(spec_list(p, sp_expr_item, &v));
    w->n_partition = v.n;
    w->partition = v.data;
    return COMB_OK;
}

static int order_list(SqlParser *p, AstWindowSpec *w)
{
    SqlVec v;
    SP_TRY(spec_list(p, sp_order_item, &v));
    w->n_order = v.n;
    w->order = v.data;
    return COMB_OK;
}

/* CLUSTER BY x is PARTITION BY x ORDER BY x. */
static int cluster_by(SqlParser *p, AstWindowSpec *w)
{
    SP_TRY(partition_list(p, w));
    w->n_order = w->n_partition;
    w->order = sp_alloc(p, (size_t)(w->n_order + 1) * sizeof *w->order);
    if (!w->order)
        return COMB_ENOMEM;
    for (int i = 0; i < w->n_order; i++)
        w->order[i].expr = w->partition[i];
    return COMB_OK;
}

static int partitioning(SqlParser *p, AstWindowSpec *w)
{
    bool part = sp_is_kw(p, KW_PARTITION) || sp_is_kw(p, KW_DISTRIBUTE);
    if (sp_is_kw(p, KW_CLUSTER)) {
        sp_next(p);
        SP_TRY(sp_expect_kw(p, KW_BY));
        return cluster_by(p, w);
    }
    if (part) {
        bool distribute = sp_is_kw(p, KW_DISTRIBUTE);
        sp_next(p);
        SP_TRY(sp_expect_kw(p, KW_BY));
        SP_TRY(partition_list(p, w));
        if (sp_is_kw(p, distribute ? KW_SORT : KW_ORDER)) {
            sp_next(p);
            SP_TRY(sp_expect_kw(p, KW_BY));
            SP_TRY(order_list(p, w));
        }
        return COMB_OK;
    }
    if (sp_is_kw(p, KW_ORDER) || sp_is_kw(p, KW_SORT)) {
        sp_next(p);
        SP_TRY(sp_expect_kw(p, KW_BY));
        return order_list(p, w);
    }
    return COMB_OK;
}

static int preceding_or_following(SqlParser *p, AstFrameBound *b,
                                  AstBoundKind preceding,
                                  AstBoundKind following)
{
    if (sp_accept_word(p, "preceding"))
        b->kind = preceding;
    else if (sp_accept_word(p, "following"))
        b->kind = following;
    else
        return sp_error(p, sp_peek(p, 0), "missing PRECEDING or FOLLOWING");
    return COMB_OK;
}

static int frame_bound(SqlParser *p, AstFrameBound *b)
{
    const SqlToken *t = sp_peek(p, 0);
    b->pos = sp_pos(t);
    if (sp_accept_word(p, "unbounded"))
        return preceding_or_following(p, b, AST_BOUND_UNBOUNDED_PRECEDING,
                                      AST_BOUND_UNBOUNDED_FOLLOWING);
    if (sp_accept_word(p, "current")) {
        b->kind = AST_BOUND_CURRENT_ROW;
        return sp_expect_kw(p, KW_ROW);
    }
    if (t->kind != SQL_TK_INT)
        return sp_error(p, t, "missing UNBOUNDED, CURRENT ROW or a number of rows");
    SP_TRY(sp_int(p, 0, INT32_MAX, "window frame amount", &b->amount));
    return preceding_or_following(p, b, AST_BOUND_PRECEDING, AST_BOUND_FOLLOWING);
}

/* ROWS|RANGE BETWEEN a AND b, or ROWS|RANGE a (up to CURRENT ROW). */
static int frame(SqlParser *p, AstWindowSpec *w)
{
    const SqlToken *t = sp_peek(p, 0);
    if (sp_is_kw(p, KW_ROWS))
        w->unit = AST_FRAME_ROWS;
    else if (sp_is_word_at(p, 0, "range"))
        w->unit = AST_FRAME_RANGE;
    else
        return COMB_OK;
    w->frame_pos = sp_pos(t);
    sp_next(p);
    if (sp_accept_kw(p, KW_BETWEEN)) {
        SP_TRY(frame_bound(p, &w->start));
        SP_TRY(sp_expect_kw(p, KW_AND));
        return frame_bound(p, &w->end);
    }
    SP_TRY(frame_bound(p, &w->start));
    w->end.kind = AST_BOUND_CURRENT_ROW;
    w->end.pos = w->start.pos;
    return COMB_OK;
}

/* A window's name where one may start the spec: an identifier that is
 * none of the spec's own first words. */
static bool at_window_name(SqlParser *p)
{
    return sp_is_ident_tok(sp_peek(p, 0)) && !sp_is_kw(p, KW_DISTRIBUTE) &&
           !sp_is_kw(p, KW_SORT) && !sp_is_kw(p, KW_CLUSTER) &&
           !sp_is_word_at(p, 0, "range");
}

/* name | ( [name] [partitioning] [frame] ), at its first token. */
static int window_spec(SqlParser *p, AstPos pos, AstWindowSpec **out)
{
    AstWindowSpec *w = sp_alloc(p, sizeof *w);
    if (!w)
        return COMB_ENOMEM;
    w->pos = pos;
    *out = w;
    if (!sp_is(p, SQL_TK_LPAREN)) {
        w->ref_pos = sp_pos(sp_peek(p, 0));
        return sp_ident(p, &w->ref, NULL);
    }
    sp_next(p);
    if (at_window_name(p)) {
        w->ref_pos = sp_pos(sp_peek(p, 0));
        SP_TRY(sp_ident(p, &w->ref, NULL));
    }
    SP_TRY(partitioning(p, w));
    SP_TRY(frame(p, w));
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

int sp_over(SqlParser *p, AstExpr *call)
{
    const SqlToken *t = sp_peek(p, 0);
    if ((sp_is_word_at(p, 0, "ignore") || sp_is_word_at(p, 0, "respect")) &&
        sp_is_kw_at(p, 1, KW_NULLS)) {
        call->null_treatment = sp_is_word_at(p, 0, "ignore") ? 1 : 2;
        sp_next(p);
        sp_next(p);
        if (!sp_is_kw(p, KW_OVER))
            return sp_error(p, sp_peek(p, 0), "missing OVER");
        t = sp_peek(p, 0);
    }
    if (!sp_accept_kw(p, KW_OVER))
        return COMB_OK;
    return window_spec(p, sp_pos(t), &call->over);
}

/* name AS spec */
static int named_window(SqlParser *p, void *windows)
{
    AstNamedWindow nw = {0};
    nw.pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_ident(p, &nw.name, NULL));
    SP_TRY(sp_expect_kw(p, KW_AS));
    SP_TRY(window_spec(p, nw.pos, &nw.spec));
    return sp_vec_push(p, windows, &nw, sizeof nw);
}

int sp_window_clause(SqlParser *p, AstSelect *sel)
{
    SqlVec windows = {0};
    if (!sp_accept_kw(p, KW_WINDOW))
        return COMB_OK;
    SP_TRY(sp_list(p, false, named_window, &windows));
    sel->n_windows = windows.n;
    sel->windows = windows.data;
    return COMB_OK;
}
