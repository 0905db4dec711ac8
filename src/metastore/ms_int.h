/*
 * ms_int.h - private to src/metastore/.  What the backend-independent part
 * (ms.c, ms_snapshot.c) shares with the backends (ms_sqlite.c,
 * ms_pg.c): naming limits, Hive's error texts, default locations, and the
 * client-side halves of Hive's snapshot algorithms, which turn the raw rows
 * a backend reads into valid-id lists.  Keeping these here means every
 * backend reports the same errors and computes the same snapshots; a
 * backend only has to fetch rows.
 *
 * Backends may assume what ms.c guarantees before calling an op: the handle
 * and out-pointers are non-NULL, db/table/column names are lower case and
 * (for creates) valid, and counts are consistent with their arrays.
 */
#ifndef COMB_MS_INT_H
#define COMB_MS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "metastore/ms.h"

/* Longest database or table name, as Hive's identifier limit. */
#define MS_NAME_MAX 128


/* The database that always exists and cannot be dropped. */
#define MS_DEFAULT_DB "default"

/* Table property that holds the table comment (Hive keeps it there). */
#define MS_COMMENT_PROP "comment"

/* Hive's KEY_CONSTRAINTS.CONSTRAINT_TYPE of a DEFAULT constraint, as SQL
 * text. */
#define MS_CONSTRAINT_DEFAULT_S "4"

/* ------------------------------------------------------- error texts */

/* COMB_ENOTFOUND "Database does not exist: <db>". */
int ms_err_no_db(CombErr *err, const char *db);
/* COMB_ENOTFOUND "Table not found '<db>.<table>'". */
int ms_err_no_table(CombErr *err, const char *db, const char *table);
/* COMB_ENOTFOUND "No such compaction: <id>" (not queued, or not in the
 * state the call needs). */
int ms_err_no_compaction(CombErr *err, int64_t id);
/* COMB_EEXISTS "Database <db> already exists". */
int ms_err_db_exists(CombErr *err, const char *db);
/* COMB_EEXISTS "Table already exists: <db>.<table>". */
int ms_err_table_exists(CombErr *err, const char *db, const char *table);
/* COMB_EINVALID "Database <db> is not empty. One or more tables exist.". */
int ms_err_db_not_empty(CombErr *err, const char *db);
/* COMB_ENOTFOUND "Partition not found '<db>.<table>/<name>'". */
int ms_err_no_part(CombErr *err, const char *db, const char *table,
                   const char *name);
/* COMB_EEXISTS "Partition already exists: <db>.<table>/<name>". */
int ms_err_part_exists(CombErr *err, const char *db, const char *table,
                       const char *name);
/* COMB_ETXN for a txn that an operation needs open: "No such transaction
 * txnid:<t>" when !found, else the already-aborted (with the abort reason
 * in parentheses when known) / already-committed text for `state`. */
/* The deadlock victim's error: Hive's 10263 (its text for a txn the
 * transaction manager aborted), the reason naming the cycle. */
int ms_err_deadlock_victim(CombErr *err, int64_t txnid, const char *cycle);
int ms_err_txn_not_open(CombErr *err, int64_t txnid, bool found, int state,
                        const char *reason);
/* COMB_ETXN: Hive's allocateTableWriteIds refusal. */
int ms_err_writeid_refused(CombErr *err, const char *db, const char *table);

/* The metastore at `where` refuses writes: COMB_EFULL "cannot write to
 * the metastore '<where>': the disk is full; ..." when full, else
 * COMB_EREADONLY "...: it is read-only; ...".  Reads still work. */
int ms_err_unwritable(CombErr *err, const char *where, bool full);

/* The same for a metastore on a database server (ms_pg.c): the advice is
 * about the server, not a file. */
int ms_err_unwritable_server(CombErr *err, const char *where, bool full);

/* COMB_ETXN, Hive's error 10263 for a txn that lost first-committer-wins
 * (its commit id commit_id), from the winning row: row[0] the committed
 * txn, row[1] its commit id, row[2..4] db, table, partition (NULL for a
 * table), row[5] our operation, row[6] theirs. */
int ms_err_write_conflict(CombErr *err, int64_t txnid, int64_t commit_id,
                          char *const *row);

/* Map a TXN_STATE letter; false if the row holds something else. */
bool ms_txn_state_parse(int letter, MsTxnState *out);

/* ------------------------------------------------- default locations */

/* <warehouse>/<db>.db, or the warehouse itself for "default"; heap string
 * (comb_free), NULL when out of memory. */
char *ms_db_default_location(const char *warehouse, const char *db);
/* <db_location>/<table>; heap string (comb_free), NULL when out of memory. */
char *ms_table_default_location(const char *db_location, const char *table);

/* ------------------------------------------------------- partitions */

/* The rows ms_part_add writes, made from the caller's partitions and the
 * table they go to (ms_part.c): values defaulted and counted, names made,
 * default location, formats and creation time (0 = the backend's clock)
 * filled in, duplicates refused.  *out (n entries) lives in `a`. */
int ms_parts_prepare(const MsTable *t, const MsPartition *in, int n,
                     CombArena *a, MsPartition **out, CombErr *err);

/* Hive lets ALTER change the comments of partition keys, nothing else of
 * them (HiveAlterHandler): true when a and b have the same keys, names and
 * types in order. */
bool ms_part_keys_same(const MsTable *a, const MsTable *b);

/* Keep only the partitions (in place, order kept) whose values match the
 * partial spec; its keys must be partition keys of t. */
int ms_parts_filter(const MsTable *t, const MsProperty *spec, int n_spec,
                    MsPartition *parts, int *n, CombErr *err);

/* ------------------------------------------------------------ locks */

/* Hive's checkLock decision (ms_lock.c) for the rows req of one request
 * against the rows of earlier requests of other txns, in queue order:
 * ACQUIRED when none overlaps and conflicts; else out->blocker_* is the
 * first that does (earlier[*blocker], blocking req[*blocked]) and the
 * state REFUSED (zero_wait_read and the blocked row a SHARED_READ: the
 * request is to be removed) or WAITING.  *blocked and *blocker are -1 when
 * granted.  Backends read the rows and apply the decision. */
void ms_lock_decide(const MsLockRow *req, int n_req,
                    const MsLockRow *earlier, int n_earlier,
                    bool zero_wait_read, MsLockStatus *out, int *blocked,
                    int *blocker);

/* ------------------------------------------------------- snapshots */

/* A TXNS row that is not committed, as a backend reads it. */
typedef struct MsTxnRow {
    int64_t txnid;
    char state;             /* MS_TXN_OPEN or MS_TXN_ABORTED */
} MsTxnRow;

/* A TXN_TO_WRITE_ID row of one table. */
typedef struct MsWriteRow {
    int64_t txnid;
    int64_t writeid;
} MsWriteRow;

/* Hive's ValidReadTxnList as the client builds it from getOpenTxns:
 * `hwm` is the highest txn id ever allocated, `rows` every open or aborted
 * txn in ascending id order.  With current > 0 the list is cut at the
 * current txn (hwm = min(current, hwm), exceptions only below current) so
 * that the txn sees its own writes.  `out` is overwritten; free it with
 * comb_idlist_free. */
int ms_snapshot_build(int64_t hwm, const MsTxnRow *rows, int n_rows,
                      int64_t current, CombTxnList *out, CombErr *err);

/* Hive's getValidWriteIds for one table: `write_hwm` is the write-id high
 * watermark the backend found (max write id of a txn <= txns->hwm, else
 * NWI_NEXT - 1, else 0) and `rows` the table's TXN_TO_WRITE_ID rows with
 * write id <= write_hwm in ascending write-id order.  `out` is overwritten;
 * free it with comb_writeidlist_free. */
int ms_writeids_build(const CombTxnList *txns, const char *db,
                      const char *table, int64_t write_hwm,
                      const MsWriteRow *rows, int n_rows,
                      CombWriteIdList *out, CombErr *err);

/* ------------------------------------------------ column statistics */

/* COL_STATS's columns after TBL_ID and PART_NAME, in this order: the
 * texts a backend stores and fetches (NULL for SQL NULL). */
#define MS_COLSTATS_CELLS 13
#define MS_COLSTATS_COLUMNS                                             \
    "COLUMN_NAME, COLUMN_TYPE, SOURCE, LOW_VALUE, HIGH_VALUE, NUM_NULLS," \
    " NUM_DISTINCTS, NUM_TRUES, NUM_FALSES, MAX_COL_LEN, AVG_COL_LEN,"   \
    " BIT_VECTOR, LAST_ANALYZED"

/* The cells of stats[0..n) (n * MS_COLSTATS_CELLS, in `a`). */
int ms_colstats_cells(const MsColStats *stats, int n, CombArena *a,
                      char ***cells, CombErr *err);
/* And back: n rows of cells into *out (in `a`). */
int ms_colstats_from_cells(char *const *cells, int n, CombArena *a,
                           MsColStats **out, CombErr *err);

/* ------------------------------------------------------ authorization */

/* GRANTS's columns, the key first (MS_GRANT_KEY_CELLS of them): the texts
 * a backend stores and fetches, "" for none. */
#define MS_GRANT_CELLS 11
#define MS_GRANT_KEY_CELLS 7
#define MS_GRANT_COLUMNS                                                \
    "OBJ_TYPE, DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME,"           \
    " PRINCIPAL_TYPE, PRIVILEGE, GRANT_OPTION, GRANTOR, GRANTOR_TYPE,"  \
    " CREATE_TIME"

/* The cells of g (in `a`); a filter's absent fields stay "". */
int ms_grant_cells(const MsGrant *g, CombArena *a, char ***cells,
                   CombErr *err);
/* And back: n rows of cells into *out (in `a`). */
int ms_grant_from_cells(char *const *cells, int n, CombArena *a,
                        MsGrant **out, CombErr *err);

#endif
