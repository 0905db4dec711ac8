/*
 * op_sort.c - the sort operator: every input row is copied into a row
 * store (only the columns the sort keys and the consumer read), sorted
 * (rowstore.c: ascending NULLS LAST, descending NULLS FIRST unless the key
 * says otherwise), then emitted in batches of the first n_emit columns.
 * ORDER BY runs here; a SORT BY would too (comb runs one reducer).
 *
 * In parallel (par.h) every copy stores and sorts the rows of its
 * morsels on a thread of its own, each row with its morsel's number as a
 * last, hidden key, and the first copy merges the sorted runs by the keys
 * and then that number: rows of equal keys come out in scan order, as
 * the serial engine's stable sort leaves them.
 *
 * Over the memory limit the store is sorted and written out as a run,
 * and the runs are merged at the end (an external merge sort, spill.c).
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/exec/par.h"

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
    SqlParGroup par;         /* parallel copies; this one merges their runs */
    AcidMorselWalk *walk;    /* this copy's scan's (parallel copies) */
    _Atomic bool *stop;      /* the lead's par.stop */
    SqlParGroup *group;      /* the lead's par; NULL: this copy runs alone */
    SqlSortKey *run_keys;    /* keys, then the morsel number */
    SqlRuns *runs;           /* spilled: the sorted runs; NULL */
    SqlRowStore shape;       /* spilled: the batch's fill states */
} SortOp;

static SortOp *peer(const SortOp *s, int k)
{
    return (SortOp *)s->par.peers[k];
}

/* A copy's rows carry one more column, the morsel number (BIGINT). */
static int open_run_store(SortOp *s, CombErr *err)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    int n = s->op.input->n_cols;
    const CombType **types = comb_arena_alloc(s->op.c->arena, (size_t)(n + 1) * sizeof *types);
    if (!types)
        return comb_err_nomem(err);
    memcpy(types, s->op.input->types, (size_t)n * sizeof *types);
    types[n] = &bigint;
    if (sql_rows_init_types(&s->rows, n + 1, types))
        return comb_err_nomem(err);
    s->have_rows = true;
    sql_rows_track(&s->rows, s->op.c->mem);
    return COMB_OK;
}

static int open_parallel(SortOp *s, CombErr *err)
{
    int rc = open_run_store(s, err);
    if (rc || !s->par.n)
        return rc;
    rc = sql_par_group_open(&s->par, &s->op, err);
    s->stop = &s->par.stop;
    s->group = &s->par;
    s->walk = sql_op_par_walk(s->op.input);
    for (int k = 0; k < s->par.n; k++) {
        peer(s, k)->stop = s->stop;
        peer(s, k)->group = s->group;
        peer(s, k)->walk = sql_op_par_walk(peer(s, k)->op.input);
    }
    return rc;
}

/* The serial store (and the spilled runs' batch shape), counted. */
static int open_store(SortOp *s, CombErr *err)
{
    SqlOp *op = &s->op;
    int n = op->input->n_cols;
    /* close frees both stores, made or not (a store never made is zero) */
    s->have_rows = true;
    if (sql_rows_init_types(&s->rows, n, op->input->types) ||
        sql_rows_init_types(&s->shape, n, op->input->types))
        return comb_err_nomem(err);
    sql_rows_track(&s->rows, op->c->mem);
    return COMB_OK;
}

static int sort_open(SqlOp *op, CombErr *err)
{
    SortOp *s = (SortOp *)op;
    int n = op->input->n_cols, rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    if (!(s->cols = comb_arena_calloc(op->c->arena, (size_t)(n + 2) * sizeof *s->cols)))
        return comb_err_nomem(err);
    return s->run_keys ? open_parallel(s, err) : open_store(s, err);
}

static int spill_run(SortOp *s, CombErr *err);

static int consume(SortOp *s, CombErr *err)
{
    SqlOp *op = &s->op;
    int n = op->input->n_cols;
    while (!(s->stop && atomic_load(s->stop))) {
        const CombBatch *in;
        int64_t from = s->rows.n_rows;
        int rc = sql_op_next(op->input, &in, err);
        if (rc || !in)
            return rc;
        for (int j = 0; j < n; j++)
            s->cols[j] = s->kept[j] ? (CombVector *)&in->cols[j] : NULL;
        if ((rc = sql_rows_append(&s->rows, s->cols, in, err)))
            return rc;
        for (int64_t r = from; s->group && r < s->rows.n_rows; r++) {
            s->rows.rows[r][n].null = false;
            s->rows.rows[r][n].i = s->walk ? s->walk->last : 0;
        }
        if (s->rows.over && s->group) {
            sql_par_group_over(s->group);
            break;
        }
        if (s->rows.over && sql_spill_worth(s->op.c, s->rows.mem.held) &&
            (rc = spill_run(s, err)))
            return rc;
    }
    return COMB_OK;
}

/* A parallel copy's task: its morsels' rows, sorted. */
static int sort_run(void *arg, CombErr *err)
{
    SortOp *s = arg;
    int rc = consume(s, err);
    if (!rc && !atomic_load(&s->group->over))
        sql_rows_sort(&s->rows, s->run_keys, s->n_keys + 1);
    return rc;
}

/* The runs of every copy merged into this copy's store (the rows stay in
 * the peers' stores, which live until this one closes). */
static int merge_runs(SortOp *s, CombErr *err)
{
    int nr = s->par.n + 1;
    const SqlRowStore **runs = comb_malloc((size_t)nr * sizeof *runs);
    int64_t *at = comb_calloc((size_t)nr, sizeof *at), total = 0;
    SqlDatum **out = NULL;
    for (int k = 0; runs && k < nr; k++) {
        runs[k] = k ? &peer(s, k - 1)->rows : &s->rows;
        total += runs[k]->n_rows;
    }
    if (!runs || !at || !(out = comb_malloc((size_t)(total + 1) * sizeof *out))) {
        comb_free(runs);
        comb_free(at);
        return comb_err_nomem(err);
    }
    for (int64_t o = 0; o < total; o++) {
        int best = -1;
        for (int k = 0; k < nr; k++)
            if (at[k] < runs[k]->n_rows &&
                (best < 0 || sql_rows_cmp(&s->rows, s->run_keys, s->n_keys + 1,
                                          runs[k]->rows[at[k]],
                                          runs[best]->rows[at[best]]) < 0))
                best = k;
        out[o] = runs[best]->rows[at[best]++];
    }
    comb_free(s->rows.rows);
    s->rows.rows = out;
    s->rows.n_rows = s->rows.cap = total;
    comb_free(runs);
    comb_free(at);
    return COMB_OK;
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

/* The copies went over the memory limit: the whole input again, on this
 * thread, spilling runs (par.h). */
static int sort_serial(SortOp *s, CombErr *err)
{
    int rc;
    sql_rows_free(&s->rows);
    s->stop = NULL;
    s->group = NULL;
    s->walk = NULL;
    if ((rc = sql_par_group_serial(&s->par, &s->op, err)) || (rc = open_store(s, err)) ||
        (rc = consume(s, err)))
        return rc;
    return sort_rows(s, err);
}

/* All input rows, sorted: on one thread (spilling runs over the memory
 * limit), or as runs of every copy merged in memory. */
static int sort_input(SortOp *s, CombErr *err)
{
    int rc;
    if (!s->par.n)
        return (rc = consume(s, err)) ? rc : sort_rows(s, err);
    if ((rc = sql_par_group_run(&s->par, &s->op, sort_run, err)))
        return rc;
    if (atomic_load(&s->par.over))
        return sort_serial(s, err);
    if ((rc = merge_runs(s, err)))
        return rc;
    if (sql_rows_batch_init(&s->rows, s->op.n_cols, &s->batch, &s->fills))
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
        if ((rc = sort_input(s, err)))
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
    /* after this copy's store, which points into the peers' rows */
    sql_par_group_close(&s->par, op->c);
}

static void sort_need(SqlOp *op, const bool *used)
{
    SortOp *s = (SortOp *)op;
    for (int j = 0; j < op->n_cols; j++)
        s->kept[j] = !used || used[j];
    for (int k = 0; k < s->n_keys; k++)
        s->kept[s->keys[k].col] = true;
    sql_op_need(op->input, s->kept);
    for (int k = 0; k < s->par.n; k++)
        sql_op_need(s->par.peers[k], used);
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

/* The copies sort runs with the morsel number as their last key. */
static int use_run_keys(SortOp *s, CombErr *err)
{
    SqlSortKey *k = comb_arena_alloc(s->op.c->arena, (size_t)(s->n_keys + 1) * sizeof *k);
    if (!k)
        return comb_err_nomem(err);
    memcpy(k, s->keys, (size_t)s->n_keys * sizeof *k);
    k[s->n_keys] = (SqlSortKey){s->op.input->n_cols, false, false};
    s->run_keys = k;
    return COMB_OK;
}

int sql_op_sort_peers(SqlOp *op, SqlOp **peers, int n, CombErr *err)
{
    SortOp *s = (SortOp *)op;
    int rc = use_run_keys(s, err);
    for (int k = 0; k < n && !rc; k++)
        rc = use_run_keys((SortOp *)peers[k], err);
    return rc ? rc : sql_par_group_init(&s->par, op->c, peers, n, err);
}
