/*
 * op_setop.c - set operations (op.h): UNION ALL streams its inputs one
 * after the other; UNION [DISTINCT], INTERSECT [ALL] and EXCEPT [ALL] are
 * composed of operators: both sides tagged (left: 1, NULL; right: NULL,
 * 1), one UNION ALL, a hash aggregation by the whole row counting each
 * side's copies (NULLs group together, as set operations compare them),
 * then a filter and, for ALL, each row repeated as often as it is left.
 */
#include "sql/exec/op.h"

#include <string.h>

/* ------------------------------------------------------------ UNION ALL */

typedef struct UnionOp {
    SqlOp op;
    int n;
    SqlOp **inputs;
    int cur;
} UnionOp;

static int union_open(SqlOp *op, CombErr *err)
{
    UnionOp *u = (UnionOp *)op;
    u->cur = 0;
    for (int i = 0; i < u->n; i++) {
        int rc = sql_op_open(u->inputs[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int union_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    UnionOp *u = (UnionOp *)op;
    while (u->cur < u->n) {
        int rc = sql_op_next(u->inputs[u->cur], out, err);
        if (rc || *out)
            return rc;
        u->cur++;
    }
    return COMB_OK;
}

static void union_close(SqlOp *op)
{
    UnionOp *u = (UnionOp *)op;
    for (int i = 0; i < u->n; i++)
        sql_op_close(u->inputs[i]);
}

static void union_need(SqlOp *op, const bool *used)
{
    UnionOp *u = (UnionOp *)op;
    for (int i = 0; i < u->n; i++)
        sql_op_need(u->inputs[i], used);
}

/* A predicate over the output holds of each input's rows alike. */
static bool union_push(SqlOp *op, BoundExpr *pred)
{
    UnionOp *u = (UnionOp *)op;
    BoundExpr **copies = comb_arena_alloc(op->c->arena, (size_t)u->n * sizeof *copies);
    if (!copies)
        return false;
    for (int i = 0; i < u->n; i++)
        if (!(copies[i] = sql_bx_clone(op->c, pred, NULL)))
            return false;
    /* an input that refuses it gets a Filter of its own */
    for (int i = 0; i < u->n; i++) {
        SqlOp *f;
        CombErr ignored;
        if (sql_op_push_filter(u->inputs[i], copies[i]))
            continue;
        if (sql_op_filter(op->c, u->inputs[i], copies[i], &f, &ignored))
            return false;
        u->inputs[i] = f;
    }
    return true;
}

static int union_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    (void)err;
    return sql_explain_detail(x, "%d inputs", ((const UnionOp *)op)->n);
}

static const SqlOpVt union_vt = {
    "UnionAll", union_open, union_next, union_close, union_need, union_push,
    union_explain,
};

int sql_op_union_all(SqlStmtCtx *c, SqlOp **inputs, int n, SqlOp **out,
                     CombErr *err)
{
    UnionOp *u = sql_op_alloc(c, sizeof *u, &union_vt, inputs[0]);
    if (!u || !(u->inputs = comb_arena_alloc(c->arena, (size_t)n * sizeof *u->inputs)))
        return comb_err_nomem(err);
    memcpy(u->inputs, inputs, (size_t)n * sizeof *inputs);
    u->n = n;
    /* EXPLAIN shows every input below the operator */
    u->op.input = NULL;
    u->op.more = u->inputs;
    u->op.n_more = n;
    *out = &u->op;
    return COMB_OK;
}

/* --------------------------------------------------------------- repeat */

typedef struct RepeatOp {
    SqlOp op;
    int count_col;
    const CombBatch *in;     /* the batch being repeated; NULL none */
    int row;                 /* its live row being repeated */
    int64_t left;            /* copies of that row still to give */
    CombBatch view;
    uint16_t *sel;
} RepeatOp;

static int repeat_open(SqlOp *op, CombErr *err)
{
    RepeatOp *r = (RepeatOp *)op;
    int rc = sql_op_open(op->input, err);
    r->in = NULL;
    if (!rc && !(r->sel = comb_arena_alloc(op->c->arena, COMB_BATCH_SIZE * sizeof *r->sel)))
        rc = comb_err_nomem(err);
    return rc;
}

/* Copies of the live rows of r->in from r->row on into r->sel. */
static int repeat_fill(RepeatOp *r)
{
    const CombVector *v = &r->in->cols[r->count_col];
    int live = comb_batch_live(r->in), k = 0;
    while (r->row < live && k < COMB_BATCH_SIZE) {
        int phys = comb_batch_row(r->in, r->row);
        if (r->left < 0)
            r->left = comb_vec_is_null(v, phys) ? 0 : v->i64[phys];
        while (r->left > 0 && k < COMB_BATCH_SIZE) {
            r->sel[k++] = (uint16_t)phys;
            r->left--;
        }
        if (r->left <= 0) {
            r->row++;
            r->left = -1;
        }
    }
    return k;
}

static int repeat_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    RepeatOp *r = (RepeatOp *)op;
    for (;;) {
        int k;
        if (!r->in) {
            int rc = sql_op_next(op->input, &r->in, err);
            if (rc || !r->in)
                return rc;
            r->row = 0;
            r->left = -1;
        }
        if ((k = repeat_fill(r)) > 0) {
            r->view = *r->in;
            r->view.sel = r->sel;
            r->view.use_sel = true;
            r->view.n_sel = k;
            *out = &r->view;
            if (r->row >= comb_batch_live(r->in))
                r->in = NULL;
            return COMB_OK;
        }
        r->in = NULL;
    }
}

static void repeat_close(SqlOp *op)
{
    sql_op_close(op->input);
}

static void repeat_need(SqlOp *op, const bool *used)
{
    RepeatOp *r = (RepeatOp *)op;
    bool *in = comb_arena_calloc(op->c->arena, (size_t)op->n_cols + 1);
    if (!in) {
        sql_op_need(op->input, NULL);
        return;
    }
    for (int j = 0; j < op->n_cols; j++)
        in[j] = !used || used[j];
    in[r->count_col] = true;
    sql_op_need(op->input, in);
}

static int repeat_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    (void)err;
    return sql_explain_detail(x, "%s times", op->names[((const RepeatOp *)op)->count_col]);
}

static const SqlOpVt repeat_vt = {
    "Repeat", repeat_open, repeat_next, repeat_close, repeat_need, NULL,
    repeat_explain,
};

int sql_op_repeat(SqlStmtCtx *c, SqlOp *input, int count_col, SqlOp **out,
                  CombErr *err)
{
    RepeatOp *r = sql_op_alloc(c, sizeof *r, &repeat_vt, input);
    if (!r)
        return comb_err_nomem(err);
    r->count_col = count_col;
    *out = &r->op;
    return COMB_OK;
}

/* ------------------------------------- UNION, INTERSECT, EXCEPT (distinct) */

static const CombType bigint_type = {.kind = COMB_T_BIGINT};

static BoundExpr *col(SqlStmtCtx *c, int j, const CombType *t)
{
    BoundExpr *e = sql_bx_new_type(c, BX_COL, t, (AstPos){0, 0});
    if (e)
        e->col = j;
    return e;
}

static BoundExpr *bigint_const(SqlStmtCtx *c, int64_t v, bool null)
{
    BoundExpr *e = sql_bx_new(c, BX_CONST, COMB_T_BIGINT, (AstPos){0, 0});
    if (e) {
        e->ival = v;
        e->is_null = null;
    }
    return e;
}

/* side's columns, then its tags (1 for its own side, NULL for the other). */
static int tag_side(SqlStmtCtx *c, SqlOp *side, bool left, SqlOp **out,
                    CombErr *err)
{
    int n = side->n_cols;
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(n + 2) * sizeof *exprs);
    const char **names = comb_arena_alloc(c->arena, (size_t)(n + 2) * sizeof *names);
    const CombType **types = comb_arena_alloc(c->arena, (size_t)(n + 2) * sizeof *types);
    if (!exprs || !names || !types)
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        if (!(exprs[j] = col(c, j, side->types[j])))
            return comb_err_nomem(err);
        names[j] = side->names[j];
        types[j] = side->types[j];
    }
    if (!(exprs[n] = bigint_const(c, 1, !left)) ||
        !(exprs[n + 1] = bigint_const(c, 1, left)))
        return comb_err_nomem(err);
    names[n] = "left";
    names[n + 1] = "right";
    types[n] = types[n + 1] = &bigint_type;
    return sql_op_project(c, side, n + 2, exprs, names, types, out, err);
}

/* count(tag column j) over the union's rows. */
static int tag_count(SqlStmtCtx *c, int j, const char *text, SqlAgg **out,
                     CombErr *err)
{
    AstExpr *call = comb_arena_calloc(c->arena, sizeof *call);
    BoundExpr **args = comb_arena_alloc(c->arena, sizeof *args);
    if (!call || !args || !(args[0] = col(c, j, &bigint_type)))
        return comb_err_nomem(err);
    call->kind = AST_FUNC;
    call->name = "count";
    call->n_args = 1;
    call->text = (char *)text;
    call->height = 2;
    return sql_agg_bind(c, call, args, 1, out, err);
}

static BoundExpr *compare(SqlStmtCtx *c, AstOp op, BoundExpr *a, BoundExpr *b)
{
    BoundExpr *e = sql_bx_new(c, BX_BINARY, COMB_T_BOOLEAN, (AstPos){0, 0});
    if (e && a && b) {
        e->op = op;
        e->a = a;
        e->b = b;
        return e;
    }
    return NULL;
}

/* Which groups stay: UNION all, INTERSECT both counts > 0, EXCEPT left
 * > 0 and right = 0 (ALL: left > right). */
static BoundExpr *setop_keep(SqlStmtCtx *c, LpSetOpKind kind, bool all, int n)
{
    BoundExpr *l = col(c, n, &bigint_type), *r = col(c, n + 1, &bigint_type);
    if (kind == LP_INTERSECT)
        return sql_bx_and(c, compare(c, AST_OP_GT, l, bigint_const(c, 0, false)),
                          compare(c, AST_OP_GT, r, bigint_const(c, 0, false)));
    if (all)
        return compare(c, AST_OP_GT, l, r);
    return sql_bx_and(c, compare(c, AST_OP_GT, l, bigint_const(c, 0, false)),
                      compare(c, AST_OP_EQ, r, bigint_const(c, 0, false)));
}

/* The row's columns and, for ALL, how often it stays: INTERSECT the
 * smaller count, EXCEPT the difference. */
static int setop_result(SqlStmtCtx *c, LpSetOpKind kind, bool all, SqlOp *in,
                        int n, SqlOp **out, CombErr *err)
{
    BoundExpr **exprs = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *exprs);
    const CombType **types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *types);
    int rc;
    if (!exprs || !types)
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        if (!(exprs[j] = col(c, j, in->types[j])))
            return comb_err_nomem(err);
        types[j] = in->types[j];
    }
    if (all) {
        BoundExpr *l = col(c, n, &bigint_type), *r = col(c, n + 1, &bigint_type);
        BoundExpr *times;
        if (kind == LP_INTERSECT) {
            /* CASE WHEN l < r THEN l ELSE r END */
            BoundExpr *cond = compare(c, AST_OP_LT, l, r);
            times = sql_bx_new(c, BX_CASE, COMB_T_BIGINT, (AstPos){0, 0});
            if (!times || !cond ||
                !(times->args = comb_arena_alloc(c->arena, 2 * sizeof *times->args)) ||
                !(times->args[1] = col(c, n, &bigint_type)) ||
                !(times->c = col(c, n + 1, &bigint_type)))
                return comb_err_nomem(err);
            times->args[0] = cond;
            times->n_args = 2;
        } else {
            times = sql_bx_new(c, BX_BINARY, COMB_T_BIGINT, (AstPos){0, 0});
            if (!times)
                return comb_err_nomem(err);
            times->op = AST_OP_SUB;
            times->a = l;
            times->b = r;
        }
        exprs[n] = times;
        types[n] = &bigint_type;
        if ((rc = sql_op_project(c, in, n + 1, exprs, in->names, types, &in, err)) ||
            (rc = sql_op_repeat(c, in, n, &in, err)))
            return rc;
        /* the row's columns without the count */
        exprs = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *exprs);
        if (!exprs)
            return comb_err_nomem(err);
        for (int j = 0; j < n; j++)
            if (!(exprs[j] = col(c, j, in->types[j])))
                return comb_err_nomem(err);
    }
    return sql_op_project(c, in, n, exprs, in->names, types, out, err);
}

int sql_op_setop(SqlStmtCtx *c, LpSetOpKind kind, bool all, SqlOp *left,
                 SqlOp *right, SqlOp **out, CombErr *err)
{
    int n = left->n_cols, rc;
    BoundExpr **keys = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *keys);
    SqlAgg **aggs = comb_arena_alloc(c->arena, 2 * sizeof *aggs);
    const char **names = comb_arena_alloc(c->arena, (size_t)(n + 3) * sizeof *names);
    SqlOp *sides[2], *top;
    BoundExpr *keep;
    if (!keys || !aggs || !names)
        return comb_err_nomem(err);
    if (kind == LP_UNION) {
        sides[0] = left;
        sides[1] = right;
        if ((rc = sql_op_union_all(c, sides, 2, &top, err)))
            return rc;
        for (int j = 0; j < n; j++)
            if (!(keys[j] = col(c, j, left->types[j])))
                return comb_err_nomem(err);
        return sql_op_aggregate(c, top, n, keys, 0, aggs, left->names, out, err);
    }
    if ((rc = tag_side(c, left, true, &sides[0], err)) ||
        (rc = tag_side(c, right, false, &sides[1], err)) ||
        (rc = sql_op_union_all(c, sides, 2, &top, err)) ||
        (rc = tag_count(c, n, "count(left)", &aggs[0], err)) ||
        (rc = tag_count(c, n + 1, "count(right)", &aggs[1], err)))
        return rc;
    for (int j = 0; j < n; j++) {
        if (!(keys[j] = col(c, j, left->types[j])))
            return comb_err_nomem(err);
        names[j] = left->names[j];
    }
    names[n] = "left";
    names[n + 1] = "right";
    names[n + 2] = NULL;
    if ((rc = sql_op_aggregate(c, top, n, keys, 2, aggs, names, &top, err)))
        return rc;
    if (!(keep = setop_keep(c, kind, all, n)))
        return comb_err_nomem(err);
    if ((rc = sql_op_filter(c, top, keep, &top, err)))
        return rc;
    return setop_result(c, kind, all, top, n, out, err);
}
