/*
 * op.c - the operator contract's calls (op.h), the streaming operators
 * (single row, filter, projection, limit) and the bound-expression helpers
 * the planning passes share (copies through a projection, the columns an
 * expression reads, conjuncts).
 */
#include "sql/exec/op.h"

#include <string.h>

int sql_op_open(SqlOp *op, CombErr *err)
{
    int rc;
    if (op->opened)
        return COMB_OK;
    if ((rc = op->vt->open(op, err)))
        return rc;
    op->opened = true;
    return COMB_OK;
}

int sql_op_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    *out = NULL;
    if (!op->opened)
        return COMB_INTERNAL(err, "next() on an operator that is not open");
    /* every batch passes here: the one place a cancel is seen */
    if (sql_stmt_cancelled(op->c))
        return comb_err(err, COMB_ECANCELLED, "Query was cancelled");
    return op->vt->next(op, out, err);
}

void sql_op_close(SqlOp *op)
{
    if (!op)
        return;
    op->vt->close(op);
    op->opened = false;
}

void sql_op_need(SqlOp *op, const bool *used)
{
    op->vt->need(op, used);
}

bool sql_op_push_filter(SqlOp *op, BoundExpr *pred)
{
    return op->vt->push_filter ? op->vt->push_filter(op, pred) : false;
}

/* The input's columns as one array of flags, all false. */
static bool *input_flags(SqlOp *op)
{
    return comb_arena_calloc(op->c->arena, (size_t)op->input->n_cols + 1);
}

/* Pass-through of need() for operators that read no column themselves. */
static void need_pass(SqlOp *op, const bool *used)
{
    sql_op_need(op->input, used);
}

static void close_input(SqlOp *op)
{
    sql_op_close(op->input);
}

void *sql_op_alloc(SqlStmtCtx *c, size_t size, const SqlOpVt *vt,
                   SqlOp *input)
{
    SqlOp *op = comb_arena_calloc(c->arena, size);
    if (!op)
        return NULL;
    op->vt = vt;
    op->c = c;
    op->input = input;
    if (input) {
        op->n_cols = input->n_cols;
        op->names = input->names;
        op->types = input->types;
    }
    return op;
}

/* ------------------------------------------------------ expression help */

BoundExpr *sql_bx_clone(SqlStmtCtx *c, const BoundExpr *e,
                        BoundExpr *const *through)
{
    BoundExpr *n;
    if (!e)
        return NULL;
    if (e->kind == BX_COL && through)
        return sql_bx_clone(c, through[e->col], NULL);
    if (!(n = comb_arena_alloc(c->arena, sizeof *n)))
        return NULL;
    *n = *e;
    n->out = NULL;
    memset(&n->own, 0, sizeof n->own);
    n->scratch = NULL;
    n->fill = NULL;
    if ((e->a && !(n->a = sql_bx_clone(c, e->a, through))) ||
        (e->b && !(n->b = sql_bx_clone(c, e->b, through))) ||
        (e->c && !(n->c = sql_bx_clone(c, e->c, through))))
        return NULL;
    if (e->n_args) {
        n->args = comb_arena_alloc(c->arena, (size_t)e->n_args * sizeof *n->args);
        if (!n->args)
            return NULL;
        for (int i = 0; i < e->n_args; i++)
            if (!(n->args[i] = sql_bx_clone(c, e->args[i], through)))
                return NULL;
    }
    return n;
}

void sql_bx_mark_used(const BoundExpr *e, int n_cols, bool *used)
{
    if (!e)
        return;
    if (e->kind == BX_COL && e->col >= 0 && e->col < n_cols)
        used[e->col] = true;
    if (e->kind == BX_ROWID)
        for (int k = e->col; k < e->col + 3 && k < n_cols; k++)
            used[k] = true;
    for (int i = 0; i < e->n_args; i++)
        sql_bx_mark_used(e->args[i], n_cols, used);
    sql_bx_mark_used(e->a, n_cols, used);
    sql_bx_mark_used(e->b, n_cols, used);
    sql_bx_mark_used(e->c, n_cols, used);
}

/* ---------------------------------------------------------- single row */

typedef struct OneRowOp {
    SqlOp op;
    CombBatch batch;
    bool done;
} OneRowOp;

static int one_row_open(SqlOp *op, CombErr *err)
{
    OneRowOp *o = (OneRowOp *)op;
    CombTypeKind none = COMB_T_INT;
    o->done = false;
    /* one placeholder column: expressions over no columns still see a row */
    if (comb_batch_init(&o->batch, 1, &none, 1))
        return comb_err_nomem(err);
    o->batch.n_rows = 1;
    return sql_txn_begin(op->c, err);
}

static int one_row_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    OneRowOp *o = (OneRowOp *)op;
    (void)err;
    *out = o->done ? NULL : &o->batch;
    o->done = true;
    return COMB_OK;
}

static void one_row_close(SqlOp *op)
{
    OneRowOp *o = (OneRowOp *)op;
    if (o->batch.cols)
        comb_batch_free(&o->batch);
    memset(&o->batch, 0, sizeof o->batch);
}

static void one_row_need(SqlOp *op, const bool *used)
{
    (void)op;
    (void)used;
}

static int no_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    (void)op;
    (void)x;
    (void)err;
    return COMB_OK;
}

static const SqlOpVt one_row_vt = {
    "OneRow", one_row_open, one_row_next, one_row_close, one_row_need, NULL,
    no_explain,
};

int sql_op_one_row(SqlStmtCtx *c, SqlOp **out, CombErr *err)
{
    OneRowOp *o = sql_op_alloc(c, sizeof *o, &one_row_vt, NULL);
    if (!o)
        return comb_err_nomem(err);
    *out = &o->op;
    return COMB_OK;
}

/* -------------------------------------------------------------- filter */

typedef struct FilterOp {
    SqlOp op;
    BoundExpr *pred;
    CombBatch view;          /* the input's batch, our selection */
    uint16_t *sel;
} FilterOp;

static int filter_open(SqlOp *op, CombErr *err)
{
    FilterOp *f = (FilterOp *)op;
    int rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    if (!(f->sel = comb_arena_alloc(op->c->arena, COMB_BATCH_SIZE * sizeof *f->sel)))
        return comb_err_nomem(err);
    return sql_expr_prepare(f->pred, op->c->arena, COMB_BATCH_SIZE, err);
}

static int filter_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    FilterOp *f = (FilterOp *)op;
    for (;;) {
        const CombBatch *in;
        int rc = sql_op_next(op->input, &in, err);
        if (rc || !in)
            return rc;
        f->view = *in;
        f->view.sel = f->sel;
        if (in->use_sel)
            memcpy(f->sel, in->sel, (size_t)in->n_sel * sizeof *f->sel);
        if ((rc = sql_filter_batch(f->pred, &f->view, err)))
            return rc;
        if (comb_batch_live(&f->view) > 0) {
            *out = &f->view;
            return COMB_OK;
        }
    }
}

static void filter_close(SqlOp *op)
{
    FilterOp *f = (FilterOp *)op;
    sql_expr_release(f->pred);
    close_input(op);
}

static void filter_need(SqlOp *op, const bool *used)
{
    FilterOp *f = (FilterOp *)op;
    bool *in = input_flags(op);
    if (!in) {
        need_pass(op, NULL);
        return;
    }
    for (int j = 0; j < op->n_cols; j++)
        in[j] = !used || used[j];
    sql_bx_mark_used(f->pred, op->n_cols, in);
    sql_op_need(op->input, in);
}

/* Lower when the input takes it; else ours too (the rows are the same). */
static bool filter_push(SqlOp *op, BoundExpr *pred)
{
    FilterOp *f = (FilterOp *)op;
    BoundExpr *both;
    if (sql_op_push_filter(op->input, pred))
        return true;
    if (!(both = sql_bx_and(op->c, f->pred, pred)))
        return false;
    f->pred = both;
    return true;
}

static int filter_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const FilterOp *f = (const FilterOp *)op;
    const char *text = sql_explain_expr(op->c, f->pred,
                                        (const char *const *)op->input->names);
    return text ? sql_explain_detail(x, "%s", text) : comb_err_nomem(err);
}

static const SqlOpVt filter_vt = {
    "Filter", filter_open, filter_next, filter_close, filter_need, filter_push,
    filter_explain,
};

int sql_op_filter(SqlStmtCtx *c, SqlOp *input, BoundExpr *pred, SqlOp **out,
                  CombErr *err)
{
    FilterOp *f = sql_op_alloc(c, sizeof *f, &filter_vt, input);
    if (!f)
        return comb_err_nomem(err);
    f->pred = pred;
    *out = &f->op;
    return COMB_OK;
}

/* ---------------------------------------------------------- projection */

typedef struct ProjectOp {
    SqlOp op;
    BoundExpr **exprs;
    bool *live;              /* columns the consumer reads */
    CombVector *cols;        /* the output batch's columns */
    CombBatch view;
} ProjectOp;

static int project_open(SqlOp *op, CombErr *err)
{
    ProjectOp *p = (ProjectOp *)op;
    int rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    if (!(p->cols = comb_arena_calloc(op->c->arena, (size_t)(op->n_cols + 1) * sizeof *p->cols)))
        return comb_err_nomem(err);
    for (int j = 0; j < op->n_cols; j++)
        if (p->live[j] &&
            (rc = sql_expr_prepare(p->exprs[j], op->c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    return COMB_OK;
}

static int project_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    ProjectOp *p = (ProjectOp *)op;
    const CombBatch *in;
    int rc = sql_op_next(op->input, &in, err);
    if (rc || !in)
        return rc;
    for (int j = 0; j < op->n_cols; j++) {
        if (!p->live[j])
            continue;
        if ((rc = sql_expr_eval(p->exprs[j], in, err)))
            return rc;
        /* a copy of the vector header: the input's batch is never ours */
        p->cols[j] = *p->exprs[j]->out;
    }
    p->view = *in;
    p->view.n_cols = op->n_cols;
    p->view.cols = p->cols;
    *out = &p->view;
    return COMB_OK;
}

static void project_close(SqlOp *op)
{
    ProjectOp *p = (ProjectOp *)op;
    for (int j = 0; j < op->n_cols; j++)
        if (p->live[j])
            sql_expr_release(p->exprs[j]);
    close_input(op);
}

/* Columns nobody reads are not computed (their vectors are never
 * looked at: a consumer reads only what it said it needs). */
static void project_need(SqlOp *op, const bool *used)
{
    ProjectOp *p = (ProjectOp *)op;
    bool *in = input_flags(op);
    for (int j = 0; j < op->n_cols; j++)
        p->live[j] = !used || used[j];
    if (!in) {
        need_pass(op, NULL);
        return;
    }
    for (int j = 0; j < op->n_cols; j++)
        if (p->live[j])
            sql_bx_mark_used(p->exprs[j], op->input->n_cols, in);
    sql_op_need(op->input, in);
}

static bool project_push(SqlOp *op, BoundExpr *pred)
{
    ProjectOp *p = (ProjectOp *)op;
    BoundExpr *below = sql_bx_clone(op->c, pred, p->exprs);
    return below && sql_op_push_filter(op->input, below);
}

static int project_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const ProjectOp *p = (const ProjectOp *)op;
    int rc = COMB_OK;
    for (int j = 0; j < op->n_cols && !rc; j++) {
        const char *text = sql_explain_expr(op->c, p->exprs[j],
                                            (const char *const *)op->input->names);
        if (!text)
            return comb_err_nomem(err);
        rc = strcmp(text, op->names[j]) == 0
                 ? sql_explain_detail(x, "%s%s", j ? ", " : "", text)
                 : sql_explain_detail(x, "%s%s := %s", j ? ", " : "",
                                      op->names[j], text);
    }
    return rc;
}

static const SqlOpVt project_vt = {
    "Project", project_open, project_next, project_close, project_need,
    project_push, project_explain,
};

int sql_op_project(SqlStmtCtx *c, SqlOp *input, int n, BoundExpr **exprs,
                   const char **names, const CombType **types, SqlOp **out,
                   CombErr *err)
{
    ProjectOp *p = sql_op_alloc(c, sizeof *p, &project_vt, input);
    if (!p || !(p->live = comb_arena_alloc(c->arena, (size_t)n + 1)))
        return comb_err_nomem(err);
    memset(p->live, 1, (size_t)n + 1);
    p->op.n_cols = n;
    p->op.names = names;
    p->op.types = types;
    p->exprs = exprs;
    *out = &p->op;
    return COMB_OK;
}

/* --------------------------------------------------------------- limit */

typedef struct LimitOp {
    SqlOp op;
    int64_t offset;          /* rows still to skip */
    int64_t skip;
    int64_t limit;
    int64_t left;
    CombBatch view;
    uint16_t *sel;
} LimitOp;

static int limit_open(SqlOp *op, CombErr *err)
{
    LimitOp *l = (LimitOp *)op;
    int rc = sql_op_open(op->input, err);
    l->left = l->limit;
    l->skip = l->offset;
    if (!rc && !(l->sel = comb_arena_alloc(op->c->arena, COMB_BATCH_SIZE * sizeof *l->sel)))
        rc = comb_err_nomem(err);
    return rc;
}

/* The live rows of in from position `from`, at most n of them. */
static const CombBatch *limit_view(LimitOp *l, const CombBatch *in, int from,
                                   int64_t n)
{
    int live = comb_batch_live(in), k = 0;
    if (from == 0 && (n < 0 || live <= n))
        return in;
    l->view = *in;
    l->view.sel = l->sel;
    for (int i = from; i < live && (n < 0 || k < n); i++)
        l->sel[k++] = (uint16_t)comb_batch_row(in, i);
    l->view.use_sel = true;
    l->view.n_sel = k;
    return &l->view;
}

static int limit_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    LimitOp *l = (LimitOp *)op;
    for (;;) {
        const CombBatch *in;
        int live, from, rc;
        if (l->left == 0)
            return COMB_OK;
        if ((rc = sql_op_next(op->input, &in, err)) || !in)
            return rc;
        live = comb_batch_live(in);
        if (l->skip >= live) {
            l->skip -= live;
            continue;
        }
        from = (int)l->skip;
        l->skip = 0;
        *out = limit_view(l, in, from, l->left);
        if (l->left > 0)
            l->left -= comb_batch_live(*out);
        return COMB_OK;
    }
}

static int limit_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const LimitOp *l = (const LimitOp *)op;
    (void)err;
    if (l->offset && l->limit < 0)
        return sql_explain_detail(x, "offset %lld", (long long)l->offset);
    if (l->offset)
        return sql_explain_detail(x, "%lld offset %lld", (long long)l->limit,
                                  (long long)l->offset);
    return sql_explain_detail(x, "%lld", (long long)l->limit);
}

static const SqlOpVt limit_vt = {
    "Limit", limit_open, limit_next, close_input, need_pass, NULL,
    limit_explain,
};

int sql_op_offset_limit(SqlStmtCtx *c, SqlOp *input, int64_t offset,
                        int64_t limit, SqlOp **out, CombErr *err)
{
    LimitOp *l = sql_op_alloc(c, sizeof *l, &limit_vt, input);
    if (!l)
        return comb_err_nomem(err);
    l->offset = offset;
    l->limit = limit;
    *out = &l->op;
    return COMB_OK;
}

int sql_op_limit(SqlStmtCtx *c, SqlOp *input, int64_t limit, SqlOp **out,
                 CombErr *err)
{
    return sql_op_offset_limit(c, input, 0, limit, out, err);
}

int sql_op_exprs(const SqlOp *op, BoundExpr *const **out)
{
    if (op->vt == &filter_vt) {
        *out = &((const FilterOp *)op)->pred;
        return 1;
    }
    if (op->vt == &project_vt) {
        *out = ((const ProjectOp *)op)->exprs;
        return op->n_cols;
    }
    return sql_op_is_scan(op) ? sql_scan_op_filter(op, out) : -1;
}
