/*
 * colstats.h - column statistics of one unit (a partition, or a table
 * without partitions): per data column Hive's ColumnStatisticsObj (low and
 * high value, nulls, distinct values by a HyperLogLog sketch, average and
 * longest length, trues and falses), gathered from the rows an INSERT
 * writes (hive.stats.column.autogather) or ANALYZE ... FOR COLUMNS reads,
 * and kept in the metastore (ms_colstats_put) with their source.
 *
 * The source is a digest of what the statistics describe: every file the
 * unit's snapshot reads (path, size, time of last change) and the table's
 * schema and SerDe.  Statistics are trusted only while the unit's source
 * is still the stored one, so no statement needs to clear them: UPDATE,
 * DELETE, MERGE, TRUNCATE, LOAD, a compaction or a concurrent writer all
 * change the files, and the stored rows simply stop applying (as Hive
 * clears COLUMN_STATS in COLUMN_STATS_ACCURATE).  An INSERT merges its
 * rows' statistics into those valid for what it read, and stores the
 * result under the source of what it read plus what it wrote.
 */
#ifndef COMB_SQL_EXEC_COLSTATS_H
#define COMB_SQL_EXEC_COLSTATS_H

#include <stdint.h>

#include "common/batch.h"
#include "metastore/ms.h"
#include "sql/sql_int.h"

/* The statistics being gathered for the data columns of one unit. */
typedef struct SqlColStats SqlColStats;

/* Bytes of memory the statistics of t's columns take (the sketches). */
size_t sql_colstats_size(const SqlTable *t);
/* Empty statistics of t's data columns: the statistics of no rows, known
 * for every column Hive keeps statistics of (primitive types). */
int sql_colstats_new(SqlStmtCtx *c, const SqlTable *t, SqlColStats **out,
                     CombErr *err);
/* Add rows rows[0..n) of b (data columns first, in table order). */
void sql_colstats_add(SqlColStats *s, const CombBatch *b,
                      const uint32_t *rows, int n);
/* Add the stored statistics rows[0..n): a column without a row among
 * them becomes unknown (it is left out of sql_colstats_rows). */
int sql_colstats_merge(SqlColStats *s, const MsColStats *rows, int n,
                       CombErr *err);
/* The known columns as metastore rows with source `source` (arena). */
int sql_colstats_rows(SqlStmtCtx *c, const SqlColStats *s,
                      const char *source, MsColStats **out, int *n,
                      CombErr *err);

/* The files of a source, collected before they are digested. */
typedef struct SqlSource {
    char **items;
    int n, cap;
} SqlSource;

/* Add the files unit u of t reads under the statement's snapshot
 * (transactional tables: the chosen base and deltas, without those of
 * write id skip_wid when it is not 0; plain tables: the unit's files). */
int sql_source_unit(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                    int64_t skip_wid, SqlSource *s, CombErr *err);
/* Add every file in directory dir (its sub-directories' too). */
int sql_source_add_dir(SqlStmtCtx *c, SqlSource *s, const char *dir,
                       CombErr *err);
/* Add one file. */
int sql_source_add_file(SqlStmtCtx *c, SqlSource *s, const char *path,
                        CombErr *err);
/* The digest of the files collected and t's schema (arena text). */
char *sql_source_digest(SqlStmtCtx *c, const SqlTable *t, SqlSource *s);

/* The stored statistics rows of unit `part` (NULL: the table's own) of t
 * that describe source `source`: its digest, and the column's type. */
int sql_colstats_stored(SqlStmtCtx *c, const SqlTable *t, const char *part,
                        const char *source, MsColStats **out, int *n,
                        CombErr *err);
/* The stored statistics rows that describe what unit u of t holds under
 * the statement's snapshot (source equal to its digest, type the
 * column's): *n 0 when none. */
int sql_colstats_valid(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                       MsColStats **out, int *n, CombErr *err);

/* Statistics a statement stores once its transaction has committed
 * (SqlStmtCtx.colstats): the unit's partition name (NULL for the table)
 * and its rows. */
typedef struct SqlColStatsPending {
    const char *db, *table, *part;
    MsColStats *rows;
    int n;
    struct SqlColStatsPending *next;
} SqlColStatsPending;

/* Queue rows for unit part of t on the statement. */
int sql_colstats_defer(SqlStmtCtx *c, const SqlTable *t, const char *part,
                       MsColStats *rows, int n, CombErr *err);
/* Store what the statement queued (after its commit).  Statistics are
 * advice: one that cannot be stored is left out (its unit then has none
 * that apply), and the statement, whose data is committed, succeeds. */
void sql_colstats_flush(SqlStmtCtx *c);

#endif
