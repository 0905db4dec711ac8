/*
 * op_sort.c - the sort operator: every input row is copied into a row
 * store (only the columns the sort keys and the consumer read), sorted
 * (rowstore.c: ascending NULLS LAST, descending NULLS FIRST unless the key
 * says otherwise), then emitted in batches of the first n_emit columns.
 * ORDER BY runs here; a SORT BY would too (comb runs one reducer).
 * Over the memory limit the store is sorted and written out as a run,
 * and the runs are merged at the end (an external merge sort, spill.c).
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <string.h>

typedef struct SortOp {
    SqlOp op;
    const SqlSortKey *keys;
    int n_keys;
    bool *kept;              /* input columns stored */
    CombVector **cols;       /* per input column: its vector, or NULL */
    SqlRowStore rows;
    bool have_rows;
    bool sorted;
    int64_t next_row;
    CombBatch batch;
    SqlVecFill *fills;
    SqlRuns *runs;           /* spilled: the sorted runs; NULL */
    SqlRowStore shape;       /* spilled: the batch's fill states */
} SortOp;

static int sort_open(SqlOp *op, CombErr *err)
{
    SortOp *s = (SortOp *)op;
    int n = op->input->n_cols, rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    if (!(s->cols = comb_arena_calloc(op->c->arena, (size_t)(n + 1) * sizeof *s->cols)))
        return comb_err_nomem(err);
    /* close frees both stores, made or not (a store never made is zero) */
    s->have_rows = true;
    if (sql_rows_init_types(&s->rows, n, op->input->types) ||
        sql_rows_init_types(&s->shape, n, op->input->types))
        return comb_err_nomem(err);
    sql_rows_track(&s->rows, &op->c->mem);
    return COMB_OK;
}

static int spill_run(SortOp *s, CombErr *err);

static int consume(SortOp *s, CombErr *err)
{
    SqlOp *op = &s->op;
    for (;;) {
        const CombBatch *in;
        int rc = sql_op_next(op->input, &in, err);
        if (rc || !in)
            return rc;
        for (int j = 0; j < op->input->n_cols; j++)
            s->cols[j] = s->kept[j] ? (CombVector *)&in->cols[j] : NULL;
        if ((rc = sql_rows_append(&s->rows, s->cols, in, err)))
            return rc;
        if (s->rows.over && (rc = spill_run(s, err)))
            return rc;
    }
}

/* The rows so far as one sorted run on disk. */
static int spill_run(SortOp *s, CombErr *err)
{
    int rc;
    if (!s->runs && (rc = sql_runs_create(s->op.c, &s->rows, s->keys, s->n_keys,
                                          &s->runs, err)))
        return rc;
    return sql_runs_add(s->runs, &s->rows, err);
}

/* All input read: sorted in memory, or the last run written and the runs
 * merged. */
static int sort_rows(SortOp *s, CombErr *err)
{
    SqlOp *op = &s->op;
    int rc;
    if (!s->runs) {
        sql_rows_sort(&s->rows, s->keys, s->n_keys);
        if (sql_rows_batch_init(&s->rows, op->n_cols, &s->batch, &s->fills))
            return comb_err_nomem(err);
        return COMB_OK;
    }
    if ((s->rows.n_rows && (rc = spill_run(s, err))) ||
        (rc = sql_runs_finish(s->runs, err)))
        return rc;
    if (sql_rows_batch_init(&s->shape, op->n_cols, &s->batch, &s->fills))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* Spilled: the next batch of the merged runs. */
static int merged_next(SortOp *s, const CombBatch **out, CombErr *err)
{
    int rc = sql_runs_next(s->runs, &s->rows, err);
    if (rc || s->rows.n_rows == 0)
        return rc;
    if (sql_rows_fill(&s->rows, 0, s->op.n_cols, &s->batch, s->fills))
        return comb_err_nomem(err);
    *out = &s->batch;
    return COMB_OK;
}

static int sort_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    SortOp *s = (SortOp *)op;
    int rc;
    if (!s->sorted) {
        if ((rc = consume(s, err)) || (rc = sort_rows(s, err)))
            return rc;
        s->sorted = true;
    }
    if (s->runs)
        return merged_next(s, out, err);
    if (s->next_row >= s->rows.n_rows)
        return COMB_OK;
    if (sql_rows_fill(&s->rows, s->next_row, op->n_cols, &s->batch, s->fills))
        return comb_err_nomem(err);
    s->next_row += s->batch.n_rows;
    *out = &s->batch;
    return COMB_OK;
}

static void sort_close(SqlOp *op)
{
    SortOp *s = (SortOp *)op;
    if (s->batch.cols)
        comb_batch_free(&s->batch);
    memset(&s->batch, 0, sizeof s->batch);
    if (s->have_rows) {
        sql_rows_free(&s->rows);
        sql_rows_free(&s->shape);
    }
    sql_runs_free(s->runs);
    s->runs = NULL;
    s->have_rows = false;
    s->sorted = false;
    s->next_row = 0;
    sql_op_close(op->input);
}

static void sort_need(SqlOp *op, const bool *used)
{
    SortOp *s = (SortOp *)op;
    for (int j = 0; j < op->n_cols; j++)
        s->kept[j] = !used || used[j];
    for (int k = 0; k < s->n_keys; k++)
        s->kept[s->keys[k].col] = true;
    sql_op_need(op->input, s->kept);
}

/* Filtering commutes with sorting: the input filters instead. */
static bool sort_push(SqlOp *op, BoundExpr *pred)
{
    return sql_op_push_filter(op->input, pred);
}

static int sort_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const SortOp *s = (const SortOp *)op;
    int rc = COMB_OK;
    (void)err;
    for (int k = 0; k < s->n_keys && !rc; k++) {
        const SqlSortKey *key = &s->keys[k];
        rc = sql_explain_detail(x, "%s%s %s NULLS %s", k ? ", " : "",
                                op->input->names[key->col],
                                key->desc ? "DESC" : "ASC",
                                key->nulls_first ? "FIRST" : "LAST");
    }
    return rc;
}

static const SqlOpVt sort_vt = {
    "Sort", sort_open, sort_next, sort_close, sort_need, sort_push,
    sort_explain,
};

int sql_op_sort(SqlStmtCtx *c, SqlOp *input, const SqlSortKey *keys,
                int n_keys, int n_emit, SqlOp **out, CombErr *err)
{
    SortOp *s = sql_op_alloc(c, sizeof *s, &sort_vt, input);
    if (!s || !(s->kept = comb_arena_alloc(c->arena, (size_t)input->n_cols + 1)))
        return comb_err_nomem(err);
    memset(s->kept, 1, (size_t)input->n_cols + 1);
    s->op.n_cols = n_emit;
    s->keys = keys;
    s->n_keys = n_keys;
    *out = &s->op;
    return COMB_OK;
}
