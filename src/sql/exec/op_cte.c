/*
 * op_cte.c - a shared WITH query (plan/cte.c) as operators: the query's
 * tree runs once, into a row store every reference reads from its start.
 *
 * Each reference is a CteRead operator of its own (its own cursor and
 * batch) over one SqlCteStore per WITH query and lowering.  The first
 * reader to ask for a row runs the query to its end; the store lives
 * until the last reader that opened it closes.  The first reader lowered
 * holds the query's tree as its input, so that EXPLAIN shows it once;
 * the query is opened, needed and closed through the store, never by
 * that reader's own contract calls.  A reader has no expressions of its
 * own and refuses filters, so par.h never copies a chain through it: the
 * store is filled on the statement's thread.  The result is held in
 * memory (it is an aggregation's groups); over comb.exec.memory.limit it
 * goes to a spill file, which each reader reads batch by batch from
 * where it stopped (the file has one read position: a reader that finds
 * it elsewhere, another reader having moved it, reads again from the
 * start to its own row).
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <string.h>

struct SqlCteStore {
    SqlOp *plan;             /* the query's operator tree */
    SqlRowStore rows;        /* the result; spilled: the rows not yet put */
    SqlSpill *spill;         /* over the memory limit: the result; NULL */
    int64_t at;              /* spilled: the row the file reads next */
    bool filled;             /* plan ran to its end into rows */
    int n_open;              /* readers open */
    bool shown;              /* a reader holds plan as its input */
};

typedef struct CteReadOp {
    SqlOp op;
    SqlCteStore *store;
    const char *name;
    int64_t next_row;
    CombBatch batch;
    SqlVecFill *fills;
    SqlRowStore buf;         /* spilled: this reader's rows of a batch */
    bool have_buf;
} CteReadOp;

int sql_cte_store(SqlStmtCtx *c, SqlOp *plan, SqlCteStore **out, CombErr *err)
{
    SqlCteStore *s = comb_arena_calloc(c->arena, sizeof *s);
    if (!s)
        return comb_err_nomem(err);
    s->plan = plan;
    /* filters over a reference stay above it: the query gives all its
     * columns to every reader */
    sql_op_need(plan, NULL);
    *out = s;
    return COMB_OK;
}

static int cte_open(SqlOp *op, CombErr *err)
{
    SqlCteStore *s = ((CteReadOp *)op)->store;
    int rc;
    if (s->n_open == 0) {
        /* no reader counts itself yet: a failed open closes the query */
        rc = sql_op_open(s->plan, err);
        if (!rc && sql_rows_init_types(&s->rows, s->plan->n_cols, s->plan->types))
            rc = comb_err_nomem(err);
        if (rc) {
            sql_rows_free(&s->rows);
            sql_op_close(s->plan);
            return rc;
        }
        sql_rows_track(&s->rows, op->c->mem);
    }
    s->n_open++;
    return COMB_OK;
}

/* The rows held so far go to the spill file (made at the first time). */
static int spill_rows(SqlCteStore *s, SqlStmtCtx *c, CombErr *err)
{
    int rc;
    if (!s->spill && (rc = sql_spill_create(c, s->plan->n_cols, s->plan->types,
                                            &s->spill, err)))
        return rc;
    if ((rc = sql_spill_put_rows(s->spill, &s->rows, err)))
        return rc;
    sql_rows_clear(&s->rows);
    return COMB_OK;
}

/* The query run to its end into the store (or its spill file). */
static int fill(SqlCteStore *s, SqlStmtCtx *c, CombErr *err)
{
    CombVector **cols = comb_arena_alloc(c->arena, (size_t)(s->plan->n_cols + 1) * sizeof *cols);
    int rc;
    if (!cols)
        return comb_err_nomem(err);
    for (;;) {
        const CombBatch *in;
        if ((rc = sql_op_next(s->plan, &in, err)))
            return rc;
        if (!in)
            break;
        for (int j = 0; j < s->plan->n_cols; j++)
            cols[j] = (CombVector *)&in->cols[j];
        if ((rc = sql_rows_append(&s->rows, cols, in, err)) ||
            (s->rows.over && (rc = spill_rows(s, c, err))))
            return rc;
    }
    s->filled = true;
    if (!s->spill)
        return COMB_OK;
    s->at = 0;
    if ((rc = spill_rows(s, c, err)))
        return rc;
    return sql_spill_rewind(s->spill, err);
}

/* Up to n rows of the spill file into the reader's buffer (cleared). */
static int read_spilled(CteReadOp *r, int64_t n, CombErr *err)
{
    int rc = sql_spill_read(r->store->spill, &r->buf, n, err);
    r->store->at += r->buf.n_rows;
    return rc;
}

/* The reader's next rows from the spill file, read again up to them when
 * another reader moved it. */
static int spilled_next(CteReadOp *r, CombErr *err)
{
    SqlCteStore *s = r->store;
    int rc;
    if (!r->have_buf) {
        if (sql_rows_init_types(&r->buf, r->op.n_cols, r->op.types))
            return comb_err_nomem(err);
        r->have_buf = true;
    }
    if (s->at != r->next_row) {
        if ((rc = sql_spill_rewind(s->spill, err)))
            return rc;
        s->at = 0;
        while (s->at < r->next_row) {
            int64_t left = r->next_row - s->at;
            if ((rc = read_spilled(r, left < COMB_BATCH_SIZE ? left : COMB_BATCH_SIZE, err)))
                return rc;
            if (r->buf.n_rows == 0)
                return COMB_INTERNAL(err, "a shared WITH query's spill file "
                                     "ended before a reader's row");
        }
    }
    return read_spilled(r, COMB_BATCH_SIZE, err);
}

static int cte_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    CteReadOp *r = (CteReadOp *)op;
    SqlCteStore *s = r->store;
    const SqlRowStore *from = &s->rows;
    int64_t first = r->next_row;
    int rc;
    if (!s->filled && (rc = fill(s, op->c, err)))
        return rc;
    if (s->spill) {
        if ((rc = spilled_next(r, err)))
            return rc;
        from = &r->buf;
        first = 0;
    }
    if (first >= from->n_rows)
        return COMB_OK;
    /* the fill states live in the store's arena, which reading spilled
     * rows (into buf, cleared per batch) leaves alone */
    if (!r->fills && sql_rows_batch_init(&s->rows, op->n_cols, &r->batch, &r->fills))
        return comb_err_nomem(err);
    if (sql_rows_fill(from, first, op->n_cols, &r->batch, r->fills))
        return comb_err_nomem(err);
    r->next_row += r->batch.n_rows;
    *out = &r->batch;
    return COMB_OK;
}

static void cte_close(SqlOp *op)
{
    CteReadOp *r = (CteReadOp *)op;
    SqlCteStore *s = r->store;
    if (r->batch.cols)
        comb_batch_free(&r->batch);
    memset(&r->batch, 0, sizeof r->batch);
    r->fills = NULL;
    r->next_row = 0;
    if (r->have_buf)
        sql_rows_free(&r->buf);
    r->have_buf = false;
    /* only a reader whose open counted itself lets go of the store */
    if (!op->opened || --s->n_open > 0)
        return;
    sql_rows_free(&s->rows);
    sql_spill_free(s->spill);
    s->spill = NULL;
    s->filled = false;
    sql_op_close(s->plan);
}

/* The query gives every column whatever one reader reads. */
static void cte_need(SqlOp *op, const bool *used)
{
    (void)op;
    (void)used;
}

static int cte_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const CteReadOp *r = (const CteReadOp *)op;
    (void)err;
    return sql_explain_detail(x, "%s (computed once%s)", r->name,
                              op->input ? "" : ", shown above");
}

static const SqlOpVt cte_vt = {
    "CteRead", cte_open, cte_next, cte_close, cte_need, NULL, cte_explain,
};

int sql_op_cte_read(SqlStmtCtx *c, SqlCteStore *store, const char *name,
                    SqlOp **out, CombErr *err)
{
    CteReadOp *r = sql_op_alloc(c, sizeof *r, &cte_vt, NULL);
    if (!r)
        return comb_err_nomem(err);
    r->op.n_cols = store->plan->n_cols;
    r->op.names = store->plan->names;
    r->op.types = store->plan->types;
    r->store = store;
    r->name = name;
    if (!store->shown)
        r->op.input = store->plan;
    store->shown = true;
    *out = &r->op;
    return COMB_OK;
}
