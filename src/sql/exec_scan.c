/*
 * exec_scan.c - the table scan operator: an acid/ merge-on-read reader
 * under the statement's snapshot, with the WHERE filter applied to each
 * batch through the selection vector.
 */
#include "sql/sql_int.h"

#include <string.h>

int sql_scan_open(SqlStmtCtx *c, const SqlTable *t, const bool *project,
                  bool want_row_id, SqlScan *scan, CombErr *err)
{
    AcidSchema schema = {t->n_cols, t->names, t->types};
    AcidReaderOptions opt = {project, want_row_id};
    int rc;
    memset(scan, 0, sizeof *scan);
    if ((rc = sql_table_writeids(c, t, &scan->wil, err)))
        return rc;
    rc = acid_reader_open(t->ms->location, &schema, &scan->wil, &c->snapshot,
                          &opt, &scan->reader, err);
    if (!rc && acid_reader_batch_init(scan->reader, &scan->batch))
        rc = comb_err_nomem(err);
    if (rc)
        sql_scan_close(scan);
    return rc;
}

int sql_scan_next(SqlScan *scan, bool *done, CombErr *err)
{
    int rc;
    for (;;) {
        rc = acid_reader_next(scan->reader, &scan->batch, err);
        if (rc)
            return rc;
        if (scan->batch.n_rows == 0) {
            *done = true;
            return COMB_OK;
        }
        if (scan->filter &&
            (rc = sql_filter_batch(scan->filter, &scan->batch, err)))
            return rc;
        if (comb_batch_live(&scan->batch) > 0) {
            *done = false;
            return COMB_OK;
        }
    }
}

void sql_scan_close(SqlScan *scan)
{
    acid_reader_close(scan->reader);
    scan->reader = NULL;
    if (scan->batch.cols)
        comb_batch_free(&scan->batch);
    comb_writeidlist_free(&scan->wil);
    if (scan->filter)
        sql_expr_release(scan->filter);
    scan->filter = NULL;
}
