/*
 * op_scan.c - the table scan as an operator: a SqlScan (exec_scan.c) of
 * the table's units under the statement snapshot.  Its output columns are
 * the table's, then ROW__ID's three; what the query needs decides which
 * columns are decoded and whether ROW__ID is read, and every predicate
 * pushed to it joins its filter, so partition pruning sees conditions
 * written outside any number of subqueries and views.
 */
#include "sql/exec/op.h"

#include <string.h>

typedef struct ScanOp {
    SqlOp op;
    const SqlTable *t;
    BoundExpr *filter;       /* over the table's columns; NULL none */
    bool *project;           /* per table column */
    bool row_id;
    bool file_name;          /* INPUT__FILE__NAME read above the scan */
    SqlScan scan;
    bool scan_open;
} ScanOp;

static int scan_open(SqlOp *op, CombErr *err)
{
    ScanOp *s = (ScanOp *)op;
    /* the filter's columns are read too */
    bool *read = comb_arena_alloc(op->c->arena, (size_t)op->n_cols + 1);
    int rc;
    if (!read)
        return comb_err_nomem(err);
    memcpy(read, s->project, (size_t)s->t->n_cols);
    memset(read + s->t->n_cols, s->row_id, 3);
    read[s->t->n_cols + SQL_SCAN_FILE_NAME] = s->file_name;
    sql_bx_mark_used(s->filter, op->n_cols, read);
    rc = sql_scan_open(op->c, s->t, read,
                       read[s->t->n_cols] || read[s->t->n_cols + 1] ||
                           read[s->t->n_cols + 2],
                       read[s->t->n_cols + SQL_SCAN_FILE_NAME], s->filter,
                       &s->scan, err);
    /* the scan releases the filter's state at close, even after a failed
     * open; the operator keeps it, to open again (a parallel operator
     * over the memory limit reads its input again: par.h) */
    s->scan_open = true;
    if (rc)
        return rc;
    if (s->scan.filter &&
        (rc = sql_expr_prepare(s->scan.filter, op->c->arena, COMB_BATCH_SIZE, err)))
        return rc;
    return COMB_OK;
}

static int scan_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    ScanOp *s = (ScanOp *)op;
    bool done;
    int rc = sql_scan_next(&s->scan, &done, err);
    if (!rc && !done)
        *out = &s->scan.batch;
    return rc;
}

static void scan_close(SqlOp *op)
{
    ScanOp *s = (ScanOp *)op;
    if (s->scan_open)
        sql_scan_close(&s->scan);
    s->scan_open = false;
}

static void scan_need(SqlOp *op, const bool *used)
{
    ScanOp *s = (ScanOp *)op;
    int n = s->t->n_cols;
    for (int i = 0; i < n; i++)
        s->project[i] = !used || used[i];
    s->row_id = used && (used[n] || used[n + 1] || used[n + 2]);
    s->file_name = !used || used[n + SQL_SCAN_FILE_NAME];
}

static bool scan_push(SqlOp *op, BoundExpr *pred)
{
    ScanOp *s = (ScanOp *)op;
    BoundExpr *both = sql_bx_and(op->c, s->filter, pred);
    if (!both)
        return false;
    s->filter = both;
    return true;
}

static int scan_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const ScanOp *s = (const ScanOp *)op;
    return sql_explain_scan(x, s->t, s->project, s->row_id, s->file_name,
                            s->filter, err);
}

static const SqlOpVt scan_vt = {
    "TableScan", scan_open, scan_next, scan_close, scan_need, scan_push,
    scan_explain,
};

bool sql_op_is_scan(const SqlOp *op)
{
    return op->vt == &scan_vt;
}

AcidMorselWalk *sql_op_scan_walk(SqlOp *op)
{
    ScanOp *s = (ScanOp *)op;
    return op->vt == &scan_vt && s->scan_open ? &s->scan.walk : NULL;
}

int sql_scan_op_filter(const SqlOp *op, BoundExpr *const **out)
{
    const ScanOp *s = (const ScanOp *)op;
    *out = &s->filter;
    return s->filter ? 1 : 0;
}

static const char *const vcol_names[SQL_SCAN_VCOLS] = {
    "ROW__ID.writeid", "ROW__ID.bucketid", "ROW__ID.rowid",
    "INPUT__FILE__NAME",
};

int sql_op_scan(SqlStmtCtx *c, const SqlTable *t, SqlOp **out, CombErr *err)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType integer = {.kind = COMB_T_INT};
    static const CombType string = {.kind = COMB_T_STRING};
    ScanOp *s = sql_op_alloc(c, sizeof *s, &scan_vt, NULL);
    int n = t->n_cols;
    if (!s || !(s->project = comb_arena_calloc(c->arena, (size_t)n + 1)) ||
        !(s->op.names = comb_arena_alloc(c->arena, (size_t)(n + SQL_SCAN_VCOLS) * sizeof *s->op.names)) ||
        !(s->op.types = comb_arena_alloc(c->arena, (size_t)(n + SQL_SCAN_VCOLS) * sizeof *s->op.types)))
        return comb_err_nomem(err);
    s->op.n_cols = n + SQL_SCAN_VCOLS;
    memcpy(s->op.names, t->names, (size_t)n * sizeof *s->op.names);
    memcpy(s->op.types, t->types, (size_t)n * sizeof *s->op.types);
    for (int k = 0; k < SQL_SCAN_VCOLS; k++)
        s->op.names[n + k] = vcol_names[k];
    s->op.types[n + ACID_COL_WRITEID] = &bigint;
    s->op.types[n + ACID_COL_BUCKET] = &integer;
    s->op.types[n + ACID_COL_ROWID] = &bigint;
    s->op.types[n + SQL_SCAN_FILE_NAME] = &string;
    s->t = t;
    *out = &s->op;
    return sql_locks_note_scan(c, t, &s->filter, err);
}
