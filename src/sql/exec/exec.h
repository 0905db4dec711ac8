/*
 * exec.h - the executor: table scans (exec_scan.c), where rows go
 * (write.c, orc_options.c), INSERT in steps and SELECT plans
 * (exec_dml.c, exec_select.c), a result of text rows, and the runners of
 * the statements that read or write rows.  The operator tree is in op.h.
 */
#ifndef COMB_SQL_EXEC_H
#define COMB_SQL_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "acid/acid.h"
#include "acid/orc_conf.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/txnlist.h"
#include "metastore/ms.h"
#include "sql/func/expr.h"
#include "sql/func/rowstore.h"
#include "sql/plan/plan.h"
#include "sql/sql_int.h"
#include "text/text.h"

/* ------------------------------------------------------------- ORC options */

/* The ORC writer settings of table t (orc_options.c, acid/orc_conf.h):
 * each from its properties, else the session, as Hive reads them; a value
 * comb cannot write is an error naming the table.  The bloom flags live
 * in the statement arena. */
typedef AcidOrcConf SqlOrcOptions;
int sql_table_orc_options(SqlStmtCtx *c, const SqlTable *t,
                          SqlOrcOptions *out, CombErr *err);

/* ------------------------------------------------------------------- scans */

/* A scan of a table under the statement snapshot: its units (partitions
 * the filter can match, or the table directory) one after the other, each
 * read as its kind keeps rows (merge on read for full ACID tables, the
 * snapshot's base and deltas for insert-only ones, every visible file for
 * plain ones), with the partition columns filled in and the filter
 * applied.  A batch never spans two units. */
/* A scan batch: the table's columns, then ROW__ID's three (ACID_COL_*
 * after n_cols), then Hive's INPUT__FILE__NAME (the file the batch's rows
 * came from, as a file: URI). */
#define SQL_SCAN_FILE_NAME 3
#define SQL_SCAN_VCOLS 4

typedef struct SqlScan {
    SqlStmtCtx *c;
    const SqlTable *t;
    bool *project;          /* per table column (partition keys: false) */
    bool want_row_id;
    bool want_file_name;    /* fill INPUT__FILE__NAME; else it stays NULL */
    SqlUnit *units;
    int n_units;
    int unit;               /* unit of the current batch; -1 before */
    AcidReader *reader;     /* of units[unit]; NULL between units */
    TextReader *text;       /* TEXTFILE: of text_files[text_next - 1] */
    TextOptions text_opt;
    char **text_files;      /* TEXTFILE: the files of units[unit] */
    int n_text_files, text_next;
    bool unit_open;
    CombBatch batch;        /* table columns + the SQL_SCAN_VCOLS virtual
                               columns */
    char *file_name;        /* INPUT__FILE__NAME of the current file */
    const char *file_path;  /* the path file_name is made of */
    BoundExpr *filter;      /* may be NULL */
    CombWriteIdList wil;    /* transactional tables */
    bool have_wil;
    struct OrcSarg *sarg;   /* pushed to the ORC readers; NULL none */
    bool *buckets;          /* bucket pruning's mask (t->n_buckets); NULL all */
    OrcReadCounters counters; /* of the units closed so far */
    AcidMorselWalk walk;    /* parallel scans: this scan's share of the
                               stripes (text: files) of every unit, when
                               walk.shared is set after open; else all */
} SqlScan;

/* Open a scan of t: project[i] for each column read (NULL = all), ROW__ID
 * wanted (full ACID tables only), INPUT__FILE__NAME wanted (else the
 * column is NULL in every batch and costs nothing), where the filter
 * (NULL none; prepared and owned by the scan from now on). */
int sql_scan_open(SqlStmtCtx *c, const SqlTable *t, const bool *project,
                  bool want_row_id, bool want_file_name, BoundExpr *where,
                  SqlScan *scan, CombErr *err);
/* Whether e reads the INPUT__FILE__NAME column of a scan of t. */
bool sql_scan_reads_file_name(const SqlTable *t, const BoundExpr *e);
/* hive.optimize.index.filter: push-down on (the default) or off. */
bool sql_index_filter_enabled(SqlStmtCtx *c);
/* The search argument (orc/sarg.h) of a scan of t filtered by `filter`,
 * over t's columns (scan_sarg.c): what of the filter ORC statistics can
 * test; *out NULL when nothing (no filter, a text table, push-down off,
 * nothing understood).  In the statement arena. */
int sql_scan_sarg(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                  struct OrcSarg **out, CombErr *err);
/* The same translation whatever hive.optimize.index.filter says (bucket
 * pruning reads its equalities). */
int sql_filter_sarg(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                    struct OrcSarg **out, CombErr *err);

/* Bucket pruning (scan_bucket.c): the buckets of t whose files can hold
 * a row `filter` keeps, from its equalities, IN lists, <=> and IS NULL
 * on every CLUSTERED BY column (AND of them, OR of such), each constant
 * converted exactly to its column's type and hashed as the writer
 * routes rows (acid_bucket_of_row).  *mask NULL when every bucket may
 * (not bucketed, not transactional ORC, nothing understood,
 * hive.tez.bucket.pruning false); else
 * (*mask)[b] for b < t->n_buckets, *n_read of them true.  Statement
 * arena. */
int sql_scan_buckets(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                     bool **mask, int *n_read, CombErr *err);

/* Next batch with the filter applied; *done at the end. */
int sql_scan_next(SqlScan *scan, bool *done, CombErr *err);
/* The unit the last batch came from. */
static inline const SqlUnit *sql_scan_unit(const SqlScan *scan)
{
    return scan->unit >= 0 ? &scan->units[scan->unit] : NULL;
}
void sql_scan_close(SqlScan *scan);

/* The data files of a unit that are not full ACID: an insert-only
 * table's base and deltas under the snapshot, or every visible regular
 * file of a plain table's directory (names not starting with '_' or '.'),
 * sorted.  Paths in the statement arena. */
int sql_unit_files(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                   const CombWriteIdList *wil, char ***paths, int *n,
                   CombErr *err);

/* ----------------------------------------------------------------- writers */

/* Where a statement's rows go (write.c): one writer per unit of the
 * target table, opened as rows for it arrive. */
typedef struct SqlUnitWriter SqlUnitWriter;
typedef struct SqlWriter {
    SqlStmtCtx *c;
    SqlTable *t;
    MsOpType op;
    bool overwrite;          /* INSERT OVERWRITE */
    char *const *static_values; /* per partition key: a static value's
                                   text, or NULL (dynamic) */
    int64_t write_id;        /* transactional tables */
    OrcWriterGroup *group;   /* memory budget of all the statement's files */
    TextOptions text_opt;    /* TEXTFILE tables: the SerDe's settings */
    SqlOrcOptions orc;       /* ORC tables: codec and stripe size */
    int *buckets;            /* per physical row of the batch written */
    const CombType *row_type; /* struct of the data columns (plain files) */
    SqlUnitWriter *units;
    int n_units, cap_units;
    int *unit_slots;         /* routing: unit index + 1 by the hash of its
                                partition values (open addressing), 0 empty */
    int n_slots;
    int max_dynamic, max_dynamic_node;
    int64_t n_written;       /* rows written */
    bool finished;
    int stmt_id;             /* statement id of the delta_W_W_S directories
                                (and of the ROW__IDs written), 0 unless a
                                multi-insert sets it before the first row;
                                plain tables: tells apart the staging
                                directories of one statement's writers */
    struct SqlWriter *same_table; /* an earlier writer of the same table in
                                this statement (multi-insert), or NULL: a
                                unit both write is refused when either
                                overwrites it */
    size_t colstats_size;    /* memory of one unit's column statistics;
                                0: none gathered (sql_writer_open) */
    bool new_table;          /* CREATE TABLE AS SELECT: t is not in the
                                catalog yet, so finish leaves the new
                                partitions in new_parts for the commit that
                                creates it (ms_txn_commit_create) */
    MsPartition *new_parts;
    int n_new_parts;
} SqlWriter;

/* LOAD DATA: a copy of file src becomes a file of unit `name` (values as
 * text) under the source's own name (Hive's _copy_N when taken), made
 * durable and put in place with the written files at finish. */
int sql_writer_add_file(SqlWriter *w, const char *name, char **values,
                        const char *src, CombErr *err);
/* The PARTITION clause of an INSERT or LOAD (c->stmt->part): per
 * partition key the text of its static value (MS_DEFAULT_PARTITION_NAME
 * for NULL), NULL for a dynamic key; all dynamic without a clause.
 * Hive's rules: every key is named, static keys come before dynamic ones,
 * dynamic partitions need hive.exec.dynamic.partition and, in strict mode
 * (unless nonstrict: LOAD runs so, as Hive's rewrite does), a static key. */
int sql_insert_partition_spec(SqlStmtCtx *c, const SqlTable *t, bool nonstrict,
                              char ***out, int *n_dynamic, CombErr *err);
/* A LOCATION or path as an absolute local path: a "file:" URI's path, a
 * relative path against the working directory; other schemes refused
 * (ddl/ddl_util.c: LOAD DATA's path, and the LOCATION of DDL). */
int sql_absolute_location(SqlStmtCtx *c, const char *location, char **out,
                          CombErr *err);
/* Before the first write to a transactional table (no write id of it is
 * known): COMB_EINVALID if its directories hold ACID data another engine
 * wrote (a LOCATION adopted without MSCK REPAIR TABLE, ddl/ddl_msck.c), which
 * a new write id would claim as its own. */
int sql_check_adopted(SqlStmtCtx *c, const SqlTable *t, CombErr *err);
/* Open the writer of table t for statement kind op (allocates the write
 * id of a transactional table).  static_values: NULL, or per partition
 * key the text of a static PARTITION value (NULL = dynamic). */
int sql_writer_open(SqlStmtCtx *c, SqlTable *t, MsOpType op, bool overwrite,
                    char *const *static_values, SqlWriter **out, CombErr *err);
/* Write the live rows of b, whose columns are the table's (data columns,
 * then partition columns), each to its partition. */
int sql_writer_insert(SqlWriter *w, const CombBatch *b, CombErr *err);
/* Open the unit now even if no row comes (INSERT OVERWRITE of a
 * partition or table with no rows empties it). */
int sql_writer_touch(SqlWriter *w, const char *name, char **values,
                     CombErr *err);
/* A delete event for a row of unit u (full ACID). */
int sql_writer_delete(SqlWriter *w, const SqlUnit *u, int64_t owid,
                      int32_t bucket_prop, int64_t row_id, CombErr *err);
/* Delete events for the live rows of b, whose columns are the table's
 * and then ROW__ID's three (full ACID): all into unit u (a scan's batch),
 * or with u NULL each into the partition its partition columns name, so
 * rows may come in any order of partitions (a join's output). */
int sql_writer_delete_rows(SqlWriter *w, const SqlUnit *u, const CombBatch *b,
                           CombErr *err);
/* Make every file durable (and visible, for plain tables), record new
 * partitions and the transaction's components.  The session commits the
 * transaction after this.  The two steps of sql_writer_finish:
 * sql_writer_finish_files, then sql_writer_record. */
int sql_writer_finish(SqlWriter *w, CombErr *err);
int sql_writer_finish_files(SqlWriter *w, CombErr *err);
int sql_writer_record(SqlWriter *w, CombErr *err);
/* The statement failed after w finished: sql_writer_close undoes what
 * it made visible (a plain table's files) as for an unfinished writer. */
void sql_writer_fail(SqlWriter *w);
/* Release everything; an unfinished writer's files are removed or left
 * invisible.  NULL ok. */
void sql_writer_close(SqlWriter *w);

/* ------------------------------------------------- INSERT and SELECT plans */

/* One INSERT (exec_dml.c) in steps, each run with c->stmt the INSERT, so
 * that a multi-insert (exec_multi.c) can plan every clause, and open its
 * reads, before the first write id exists, then write each, then finish
 * them all.  sql_exec_insert is the three steps for one statement. */
typedef struct SqlSelectPlan SqlSelectPlan;
typedef struct SqlInsert {
    SqlTable *t;
    char **static_values;   /* sql_insert_partition_spec */
    int *map, n_map;        /* value position -> table column */
    SqlSelectPlan *sel;     /* INSERT ... SELECT (open after planning) */
    SqlWriter *w;           /* after sql_insert_write */
    CombBatch nulls;        /* an all-NULL vector per table column */
    CombVector *view;       /* a select batch's columns in table order */
} SqlInsert;
/* Resolve the target, its PARTITION clause and columns; plan and open
 * the SELECT under the statement snapshot. */
int sql_insert_plan(SqlStmtCtx *c, SqlInsert *ins, CombErr *err);
/* Open the writer (statement id stmt_id, same_table as SqlWriter's) and
 * write every row. */
int sql_insert_write(SqlStmtCtx *c, SqlInsert *ins, int stmt_id,
                     SqlWriter *same_table, CombErr *err);
/* The partition a planned INSERT names with static values alone (*name
 * NULL when a key is dynamic or the table is not partitioned); *values
 * the keys' text, NULL for the default partition. */
int sql_insert_static_name(SqlStmtCtx *c, const SqlInsert *ins, char **name,
                           char ***values, CombErr *err);
/* Release the writer (see sql_writer_close) and the select. */
void sql_insert_close(SqlInsert *ins);

/* SELECT plans (exec_select.c), also used by INSERT ... SELECT. */
int sql_select_plan(SqlStmtCtx *c, const AstSelect *s, SqlSelectPlan **out,
                    CombErr *err);
void sql_select_output(const SqlSelectPlan *p, int *n_out,
                       const char *const **names, const CombTypeKind **kinds);
/* The whole type of each output column. */
const CombType *const *sql_select_types(const SqlSelectPlan *p);
/* Convert output j to the type of table column map[j] (for INSERT), for
 * every kind of plan: streaming, sorted and aggregated. */
int sql_select_coerce(SqlStmtCtx *c, SqlSelectPlan *p, const int *map,
                      const SqlTable *t, CombErr *err);
/* Build the operator tree (op.h), then open it: scans take their tables'
 * write-id lists. */
int sql_select_open(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err);
int sql_select_run(SqlStmtCtx *c, SqlSelectPlan *p, const SqlSink *sink,
                   CombErr *err);
void sql_select_close(SqlSelectPlan *p);  /* NULL ok */

/* Hive's refusals of a write target: a view (10090 for INSERT and LOAD,
 * 10402 for UPDATE and DELETE), and for UPDATE and DELETE a table that is
 * not full ACID (10414 insert-only, 10297 not transactional). */
int sql_table_writable(const SqlTable *t, AstPos pos, bool update_delete,
                       CombErr *err);
/* Does e hold a subquery (IN, EXISTS, a scalar one)? */
bool sql_has_subquery(const AstExpr *e);
/* Stream the rows of an opened SELECT into writer w: output k goes to
 * table column map[k] (exec_dml.c; INSERT ... SELECT and CTAS). */
int sql_insert_select_rows(SqlStmtCtx *c, SqlWriter *w, SqlSelectPlan *sel,
                           const int *map, int n_map, CombErr *err);

/* ------------------------------------------------------------ text results */

/* A result of text columns, collected and then emitted to the sink
 * (ddl/ddl_util.c): EXPLAIN's and the catalog statements'. */
typedef struct TextResult {
    SqlRowStore rs;
    int n_cols;
} TextResult;

int sql_text_begin(TextResult *tr, int n_cols);
/* Append one row of n_cols strings (NULL pointer = SQL NULL). */
int sql_text_row(TextResult *tr, const char *const *vals, CombErr *err);
/* Send the rows with these column names to the statement's sink; frees
 * the rows either way. */
int sql_text_emit(SqlStmtCtx *c, TextResult *tr, const char *const *names,
                  CombErr *err);

/* ------------------------------------------------------- statement runners */

/* Statement runners (exec_*.c, explain.c). */
int sql_exec_select(SqlStmtCtx *c, CombErr *err);
int sql_exec_insert(SqlStmtCtx *c, CombErr *err);
int sql_exec_multi_insert(SqlStmtCtx *c, CombErr *err);
int sql_exec_load(SqlStmtCtx *c, CombErr *err);
int sql_exec_update_delete(SqlStmtCtx *c, CombErr *err);
/* The table column an UPDATE or MERGE SET assigns, refusing as Hive does
 * an unknown column (10408), a partition column (10292) and a bucketing
 * column (10302). */
int sql_set_target_column(const SqlTable *t, const AstAssignment *a, int *out,
                          CombErr *err);
/* MERGE INTO (exec_merge.c). */
int sql_exec_merge(SqlStmtCtx *c, CombErr *err);
/* MERGE statement st checked as its execution checks it, and the query
 * it runs (for EXPLAIN). */
int sql_merge_query(SqlStmtCtx *c, const AstStmt *st, AstSelect **query,
                    CombErr *err);
int sql_exec_explain(SqlStmtCtx *c, CombErr *err);

/* Bounded memory (spill.c): the statement's limit in bytes
 * (comb.exec.memory.limit; 0: none); a SET of one of its settings checked;
 * comb.exec.stats=true: a line of the statement's tracked peak, its heap
 * peak and what it spilled. */
int64_t sql_exec_mem_limit(const SqlSession *s);
int sql_exec_conf_check(const char *key, const char *value, CombErr *err);
int sql_exec_mem_stats(SqlStmtCtx *c, int64_t heap_peak, CombErr *err);

#endif
