/*
 * ddl_analyze.c - ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS
 * [NOSCAN | FOR COLUMNS [c, ...]].
 *
 * Basic statistics need no statement: comb computes them from the
 * snapshot's files whenever they are shown (ddl_stats.c), so ANALYZE
 * without FOR COLUMNS checks the table and stops.  FOR COLUMNS reads every
 * unit the spec names (all of a partitioned table's without one) under the
 * statement's snapshot and stores the named data columns' statistics
 * (every data column's when none is named) for that snapshot's files
 * (exec/colstats.h); they are stored when the statement commits.
 */
#include "sql/sql_int.h"

#include <string.h>

#include "sql/ddl/alter_int.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/colstats.h"

/* The data columns FOR COLUMNS names, by index (every one when none is
 * named); Hive's 10002 for a name that is no data column. */
static int analyzed_columns(SqlStmtCtx *c, const SqlTable *t, bool **out,
                            CombErr *err)
{
    const AstCatalog *cat = c->stmt->catalog;
    bool *want = comb_arena_calloc(c->arena, (size_t)t->n_data + 1);
    if (!want)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_data; i++)
        want[i] = cat->n_columns == 0;
    for (int i = 0; i < cat->n_columns; i++) {
        int col = sql_table_column(t, cat->columns[i]);
        if (col < 0 || col >= t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 10002, c->stmt->pos,
                              "Invalid column reference %s", cat->columns[i]);
        want[col] = true;
    }
    *out = want;
    return COMB_OK;
}

/* Keep the scan's units the PARTITION spec names (all without one). */
static int spec_units(SqlStmtCtx *c, const AlterTarget *tg, SqlScan *scan,
                      CombErr *err)
{
    AlterPart *parts;
    int n_parts, k = 0;
    int rc;
    if (c->stmt->part.n == 0)
        return COMB_OK;
    if ((rc = sql_alter_spec(c, tg, &c->stmt->part, false, &parts, &n_parts,
                             err)))
        return rc;
    for (int i = 0; i < scan->n_units; i++) {
        bool named = false;
        for (int j = 0; j < n_parts && !named; j++)
            named = strcmp(scan->units[i].name, parts[j].name) == 0;
        if (named)
            scan->units[k++] = scan->units[i];
    }
    scan->n_units = k;
    return COMB_OK;
}

/* Read every row of the scan's units into stats[unit]. */
static int gather(SqlStmtCtx *c, const SqlTable *t, SqlScan *scan,
                  SqlColStats **stats, CombErr *err)
{
    uint32_t rows[COMB_BATCH_SIZE];
    bool done = false;
    int rc = COMB_OK;
    for (int i = 0; i < scan->n_units && !rc; i++)
        rc = sql_colstats_new(c, t, &stats[i], err);
    while (!rc && !(rc = sql_scan_next(scan, &done, err)) && !done) {
        const CombBatch *b = &scan->batch;
        int n = comb_batch_live(b);
        for (int i = 0; i < n; i++)
            rows[i] = (uint32_t)comb_batch_row(b, i);
        sql_colstats_add(stats[scan->unit], b, rows, n);
    }
    return rc;
}

/* The rows of the wanted columns of one unit, queued for the commit. */
static int store_unit(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                      const SqlColStats *s, const bool *want, CombErr *err)
{
    SqlSource src = {0};
    MsColStats *rows;
    char *digest;
    int n, k = 0;
    int rc = sql_source_unit(c, t, u, 0, &src, err);
    if (rc)
        return rc;
    if (!(digest = sql_source_digest(c, t, &src)))
        return comb_err_nomem(err);
    if ((rc = sql_colstats_rows(c, s, digest, &rows, &n, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if (want[sql_table_column(t, rows[i].column)])
            rows[k++] = rows[i];
    return sql_colstats_defer(c, t, u->name, rows, k, err);
}

int sql_exec_analyze(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AlterTarget tg;
    SqlColStats **stats = NULL;
    SqlScan scan;
    bool *want = NULL;
    int rc = sql_alter_target(c, &st->name, true, &tg, err);
    if (rc)
        return rc;
    if (tg.t->kind == SQL_TABLE_VIEW)
        return sql_err_at(err, COMB_ESEMANTIC, 10091, st->pos,
                          "ANALYZE is not supported for views");
    if (!st->catalog->for_columns) {
        AlterPart *parts;
        int n;
        return st->part.n > 0 ? sql_alter_spec(c, &tg, &st->part, false,
                                               &parts, &n, err)
                              : COMB_OK;
    }
    if ((rc = analyzed_columns(c, tg.t, &want, err)) ||
        (rc = sql_scan_open(c, tg.t, NULL, false, false, NULL, &scan, err)))
        return rc;
    rc = spec_units(c, &tg, &scan, err);
    if (!rc && !(stats = comb_arena_calloc(c->arena, (size_t)(scan.n_units + 1) *
                                                        sizeof *stats)))
        rc = comb_err_nomem(err);
    if (!rc)
        rc = gather(c, tg.t, &scan, stats, err);
    for (int i = 0; i < scan.n_units && !rc; i++)
        rc = store_unit(c, tg.t, &scan.units[i], stats[i], want, err);
    sql_scan_close(&scan);
    return rc;
}
