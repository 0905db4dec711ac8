/*
 * op_lateral.c - LATERAL VIEW [OUTER] and a lone table function in the
 * select list: for each input row the table function's rows (udtf.h),
 * each carrying the input row's columns first (a lateral view) or alone
 * (SELECT explode(a) FROM t).  OUTER gives one row of NULLs for an input
 * row the function gives none.  An input row may give more rows than a
 * batch holds: the operator keeps its place (input row, function row)
 * across calls, so memory stays one input and one output batch.
 */
#include "sql/exec/op.h"

#include <string.h>

typedef struct LateralOp {
    SqlOp op;
    SqlUdtf *u;
    bool outer;
    int n_in;                /* input columns carried (0: the function's alone) */
    bool *carry;             /* per carried column: the consumer reads it
                                (others may not be decoded: left NULL) */
    const CombBatch *in;     /* current input batch, NULL before / between */
    int live;                /* next live row of `in` to expand */
    int64_t k, n_k;          /* next function row of it, and how many */
    bool started;            /* n_k holds the current row's count */
    bool end;
    const CombVector **argv;
    CombArena arena;
    CombBatch batch;
    SqlVecFill *fills;
    bool have_batch;
} LateralOp;

static int lateral_open(SqlOp *op, CombErr *err)
{
    LateralOp *p = (LateralOp *)op;
    int rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    for (int i = 0; i < p->u->n_args; i++)
        if ((rc = sql_expr_prepare(p->u->args[i], op->c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    comb_arena_init(&p->arena, 4096);
    if (comb_batch_init_types(&p->batch, op->n_cols, op->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    p->have_batch = true;
    p->fills = comb_arena_alloc(&p->arena, (size_t)(op->n_cols + 1) * sizeof *p->fills);
    for (int j = 0; p->fills && j < op->n_cols; j++)
        if (sql_fill_init(&p->fills[j], &p->batch.cols[j], &p->arena))
            return comb_err_nomem(err);
    return p->fills ? COMB_OK : comb_err_nomem(err);
}

/* The next input batch with the function's arguments evaluated; false at
 * the end. */
static int next_input(LateralOp *p, CombErr *err)
{
    int rc = sql_op_next(p->op.input, &p->in, err);
    if (rc || !p->in) {
        p->end = !rc;
        return rc;
    }
    for (int i = 0; i < p->u->n_args; i++) {
        if ((rc = sql_expr_eval(p->u->args[i], p->in, err)))
            return rc;
        p->argv[i] = p->u->args[i]->out;
    }
    p->live = 0;
    p->started = false;
    return COMB_OK;
}

/* One output row: the input row's columns, then function row k (k < 0:
 * the NULLs of OUTER). */
static int emit(LateralOp *p, int row, int64_t k, CombErr *err)
{
    int r = p->batch.n_rows++;
    for (int j = 0; j < p->n_in; j++)
        if (!p->carry[j])
            sql_fill_null(&p->fills[j], r);
        else if (sql_fill_copy(&p->fills[j], r, &p->in->cols[j], row))
            return comb_err_nomem(err);
    for (int j = 0; j < p->u->n_cols; j++) {
        SqlVecFill *f = &p->fills[p->n_in + j];
        if (k < 0)
            sql_fill_null(f, r);
        else if (sql_udtf_value(p->u, p->argv, row, k, j, f, r))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int lateral_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    LateralOp *p = (LateralOp *)op;
    int rc;
    comb_batch_reset(&p->batch);
    for (int j = 0; j < op->n_cols; j++)
        sql_fill_reset(&p->fills[j]);
    while (p->batch.n_rows < p->batch.capacity && !p->end) {
        int row;
        if (!p->in || p->live >= comb_batch_live(p->in)) {
            /* rows borrow the input's strings: hand them on before the
             * input moves on */
            if (p->batch.n_rows)
                break;
            if ((rc = next_input(p, err)))
                return rc;
            continue;
        }
        row = comb_batch_row(p->in, p->live);
        if (!p->started) {
            p->n_k = sql_udtf_rows(p->u, p->argv, row);
            p->k = p->n_k == 0 && p->outer ? -1 : 0;
            p->started = true;
        }
        if (p->k < 0) {
            if ((rc = emit(p, row, -1, err)))
                return rc;
            p->k = 0;
        } else if (p->k < p->n_k) {
            if ((rc = emit(p, row, p->k, err)))
                return rc;
            p->k++;
            continue;
        }
        p->live++;
        p->started = false;
    }
    *out = p->batch.n_rows ? &p->batch : NULL;
    return COMB_OK;
}

static void lateral_close(SqlOp *op)
{
    LateralOp *p = (LateralOp *)op;
    for (int i = 0; i < p->u->n_args; i++)
        sql_expr_release(p->u->args[i]);
    if (p->have_batch) {
        comb_batch_free(&p->batch);
        comb_arena_free(&p->arena);
        p->have_batch = false;
    }
    p->in = NULL;
    p->end = false;
    sql_op_close(op->input);
}

/* The carried columns the consumer reads, and what the arguments read. */
static void lateral_need(SqlOp *op, const bool *used)
{
    LateralOp *p = (LateralOp *)op;
    bool *in = comb_arena_calloc(op->c->arena, (size_t)op->input->n_cols + 1);
    if (!in) {
        sql_op_need(op->input, NULL);
        return;
    }
    for (int j = 0; j < p->n_in; j++)
        in[j] = p->carry[j] = !used || used[j];
    for (int i = 0; i < p->u->n_args; i++)
        sql_bx_mark_used(p->u->args[i], op->input->n_cols, in);
    sql_op_need(op->input, in);
}

static int lateral_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const LateralOp *p = (const LateralOp *)op;
    int rc = sql_explain_detail(x, "%s%s", p->outer ? "OUTER " : "",
                                p->u->text ? p->u->text : p->u->name);
    (void)err;
    for (int j = 0; !rc && j < p->u->n_cols; j++)
        rc = sql_explain_detail(x, "%s%s", j ? ", " : " AS ",
                                op->names[p->n_in + j]);
    return rc;
}

static const SqlOpVt lateral_vt = {
    "LateralView", lateral_open, lateral_next, lateral_close, lateral_need,
    NULL, lateral_explain,
};

int sql_op_lateral(SqlStmtCtx *c, SqlOp *input, SqlUdtf *u, bool outer,
                   bool keep_input, const char *const *names, SqlOp **out,
                   CombErr *err)
{
    LateralOp *p = sql_op_alloc(c, sizeof *p, &lateral_vt, input);
    int n_in = keep_input ? input->n_cols : 0, n = n_in + u->n_cols;
    if (!p || !(p->op.names = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->op.names)) ||
        !(p->op.types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->op.types)) ||
        !(p->argv = comb_arena_calloc(c->arena, (size_t)(u->n_args + 1) * sizeof *p->argv)) ||
        !(p->carry = comb_arena_alloc(c->arena, (size_t)n_in + 1)))
        return comb_err_nomem(err);
    memset(p->carry, 1, (size_t)n_in + 1);
    for (int j = 0; j < n_in; j++) {
        p->op.names[j] = input->names[j];
        p->op.types[j] = input->types[j];
    }
    for (int j = 0; j < u->n_cols; j++) {
        p->op.names[n_in + j] = names[j];
        p->op.types[n_in + j] = u->types[j];
    }
    p->op.n_cols = n;
    p->u = u;
    p->outer = outer;
    p->n_in = n_in;
    *out = &p->op;
    return COMB_OK;
}
