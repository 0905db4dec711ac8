/*
 * spill.h - bounded memory for the operators that hold rows (sort, hash
 * aggregation, hash join, window): the statement's budget
 * (comb.exec.memory.limit), temporary files of rows (comb.exec.spill.dir)
 * and the operator that reads such a file back as batches, the external
 * merge of sorted runs, and the error of an operator that cannot spill.
 */
#ifndef COMB_SQL_SPILL_H
#define COMB_SQL_SPILL_H

#include "sql/exec/op.h"

/* Partitions an operator splits its rows into when it spills by hash
 * (aggregation, join); a partition that is still too big splits again by
 * other bits of the hash, down to SQL_SPILL_MAX_LEVEL levels. */
#define SQL_SPILL_FANOUT 16
#define SQL_SPILL_MAX_LEVEL 6

/* The partition of a row of key hash h at spill level `level`. */
int sql_spill_part(uint64_t h, int level);

/* Must a holder that cannot spill what it holds (`own` bytes) fail?  When
 * the statement is half as much again over its limit and the holder has
 * a quarter of the limit or more: small holders (a global aggregate's one
 * group) do not fail for what others hold. */
bool sql_mem_exceeded(const SqlStmtCtx *c, int64_t own);
/* Is a holder of `own` bytes worth writing out (to partition files, a
 * sorted run) when the statement is over its limit?  Only with a quarter
 * of the limit or more, as sql_mem_exceeded counts a holder: under that
 * the statement is over by what others hold (or by a fresh table's
 * fixed size), and splitting each partition again would make up to
 * FANOUT^MAX_LEVEL files of a few rows each. */
bool sql_spill_worth(const SqlStmtCtx *c, int64_t own);
/* The statement is over its memory limit: the error of an operator
 * ("sort", "hash join", "window partition") that cannot spill further. */
int sql_mem_error(SqlStmtCtx *c, const char *what, CombErr *err);

/* ------------------------------------------------------ spill files */

/* A temporary file of rows of n_cols columns (unlinked at once: it goes
 * away with the process, whatever happens). */
typedef struct SqlSpill SqlSpill;

int sql_spill_create(SqlStmtCtx *c, int n_cols, const CombType *const *types,
                     SqlSpill **out, CombErr *err);
/* Append one row (n_cols datums). */
int sql_spill_put(SqlSpill *sp, const SqlDatum *row, CombErr *err);
/* Append every row of store rs (its first n_cols columns). */
int sql_spill_put_rows(SqlSpill *sp, const SqlRowStore *rs, CombErr *err);
/* Writing is over: reading starts at the first row. */
int sql_spill_rewind(SqlSpill *sp, CombErr *err);
/* The next row into row (n_cols datums; strings and parts in a); *got
 * false at the end. */
int sql_spill_get(SqlSpill *sp, SqlDatum *row, CombArena *a, bool *got,
                  CombErr *err);
/* The next n rows (fewer at the end) into rs, cleared first (strings and
 * parts in its arena). */
int sql_spill_read(SqlSpill *sp, SqlRowStore *rs, int64_t n, CombErr *err);
int64_t sql_spill_rows(const SqlSpill *sp);
void sql_spill_free(SqlSpill *sp);

/* SQL_SPILL_FANOUT spill files of one schema, filled by partition. */
typedef struct SqlSpillParts {
    SqlSpill *part[SQL_SPILL_FANOUT];
    int level;
} SqlSpillParts;

int sql_spill_parts_create(SqlStmtCtx *c, int n_cols,
                           const CombType *const *types, int level,
                           SqlSpillParts *out, CombErr *err);
void sql_spill_parts_free(SqlSpillParts *p);

/* An operator whose batches are the rows of a spill file (rewound at
 * open), of the schema n_cols / names / types (borrowed); one per
 * operator, reading one partition after the other. */
int sql_op_spill_scan(SqlStmtCtx *c, int n_cols, const char **names,
                      const CombType **types, SqlOp **out, CombErr *err);
/* The scan (closed first) reads sp from its next open, and owns it: its
 * close frees it. */
void sql_spill_scan_set(SqlOp *scan, SqlSpill *sp);

/* ------------------------------------------- external merge (sorting) */

/* Sorted runs in spill files, merged into one sorted stream. */
typedef struct SqlRuns SqlRuns;

/* Runs of rows of rs's columns ordered by keys (borrowed). */
int sql_runs_create(SqlStmtCtx *c, const SqlRowStore *rs,
                    const SqlSortKey *keys, int n_keys, SqlRuns **out,
                    CombErr *err);
/* Sort rs and write it out as one run; rs is cleared. */
int sql_runs_add(SqlRuns *r, SqlRowStore *rs, CombErr *err);
/* The runs are complete: merge them (in several passes when there are
 * many) down to one stream. */
int sql_runs_finish(SqlRuns *r, CombErr *err);
/* The next rows in order into out (cleared first; up to
 * COMB_BATCH_SIZE); none at the end. */
int sql_runs_next(SqlRuns *r, SqlRowStore *out, CombErr *err);
/* The next row in order (valid until the next pop), NULL at the end. */
const SqlDatum *sql_runs_peek(SqlRuns *r);
/* The next row copied into a new row of out; the stream moves on. */
int sql_runs_pop(SqlRuns *r, SqlRowStore *out, CombErr *err);
int64_t sql_runs_count(const SqlRuns *r);
void sql_runs_free(SqlRuns *r);

#endif
