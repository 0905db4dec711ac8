/*
 * ms.h - the metastore: catalog (databases, tables, columns, properties) and
 * Hive's transaction machinery (TXNS, NEXT_TXN_ID, TXN_TO_WRITE_ID,
 * NEXT_WRITE_ID, TXN_COMPONENTS, COMPLETED_TXN_COMPONENTS).  This header is
 * the only way any other layer reaches the metastore database; each backend
 * (SQLite embedded, PostgreSQL shared) implements MsBackendOps and keeps its
 * SQL to itself.
 *
 * Every call is one atomic metastore operation (one database transaction).
 * Several processes may share one metastore: the backend serialises them.
 *
 * Ownership: results are allocated in the caller's arena.  Names passed in
 * are matched lower-cased (Hive stores db and table names lower case).
 */
#ifndef COMB_MS_H
#define COMB_MS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"
#include "common/txnlist.h"

typedef struct Ms Ms;

typedef struct MsColumn {
    char *name;          /* lower case */
    char *type;          /* Hive type string: "int", "string", "varchar(10)" */
    char *comment;       /* NULL if none */
} MsColumn;

typedef struct MsProperty {
    char *key;
    char *value;
} MsProperty;

typedef struct MsDatabase {
    char *name;
    char *location;      /* absolute directory */
    char *comment;       /* NULL if none */
    char *owner;
} MsDatabase;

typedef struct MsTable {
    char *db;
    char *name;
    char *location;      /* absolute directory of the table */
    char *owner;
    char *table_type;    /* "MANAGED_TABLE" or "EXTERNAL_TABLE" */
    char *comment;       /* NULL if none */
    int64_t create_time; /* seconds since the epoch */
    char *input_format;  /* org.apache.hadoop.hive.ql.io.orc.OrcInputFormat */
    char *output_format;
    char *serde;
    int n_cols;
    MsColumn *cols;      /* in table order */
    int n_buckets;       /* -1 when not bucketed */
    int n_bucket_cols;
    char **bucket_cols;
    int n_props;
    MsProperty *props;   /* TBLPROPERTIES, e.g. transactional=true */
} MsTable;

/* Value of a table property, or NULL. */
const char *ms_table_prop(const MsTable *t, const char *key);
/* transactional=true (case-insensitive value). */
bool ms_table_is_transactional(const MsTable *t);

/* Data operation recorded in TXN_COMPONENTS (TC_OPERATION_TYPE). */
typedef enum MsOpType {
    MS_OP_INSERT = 'i',
    MS_OP_UPDATE = 'u',
    MS_OP_DELETE = 'd'
} MsOpType;

/* Transaction state as Hive's TXN_STATE letters. */
typedef enum MsTxnState {
    MS_TXN_OPEN = 'o',
    MS_TXN_ABORTED = 'a',
    MS_TXN_COMMITTED = 'c'
} MsTxnState;

/* ---------------------------------------------------------------- backends */

/* One function pointer per operation; see the ms_* wrappers below for the
 * contract of each. */
typedef struct MsBackendOps {
    const char *name;
    void (*close)(void *impl);
    int (*db_create)(void *impl, const MsDatabase *db, bool if_not_exists,
                     CombErr *err);
    int (*db_drop)(void *impl, const char *name, bool if_exists, bool cascade,
                   CombErr *err);
    int (*db_get)(void *impl, const char *name, CombArena *a,
                  MsDatabase **out, CombErr *err);
    int (*db_list)(void *impl, CombArena *a, char ***names, int *n,
                   CombErr *err);
    int (*table_create)(void *impl, const MsTable *t, bool if_not_exists,
                        CombErr *err);
    int (*table_drop)(void *impl, const char *db, const char *name,
                      bool if_exists, CombErr *err);
    int (*table_get)(void *impl, const char *db, const char *name,
                     CombArena *a, MsTable **out, CombErr *err);
    int (*table_list)(void *impl, const char *db, CombArena *a, char ***names,
                      int *n, CombErr *err);
    int (*txn_open)(void *impl, const char *user, const char *host,
                    int64_t *txnid, CombErr *err);
    int (*txn_commit)(void *impl, int64_t txnid, CombErr *err);
    int (*txn_abort)(void *impl, int64_t txnid, CombErr *err);
    int (*txn_state)(void *impl, int64_t txnid, MsTxnState *state,
                     CombErr *err);
    int (*txn_snapshot)(void *impl, int64_t txnid, CombTxnList *out,
                        CombErr *err);
    int (*writeid_allocate)(void *impl, int64_t txnid, const char *db,
                            const char *table, int64_t *writeid,
                            CombErr *err);
    int (*writeid_list)(void *impl, const CombTxnList *txns, const char *db,
                        const char *table, CombWriteIdList *out,
                        CombErr *err);
    int (*txn_add_component)(void *impl, int64_t txnid, const char *db,
                             const char *table, const char *partition,
                             MsOpType op, int64_t writeid, CombErr *err);
} MsBackendOps;

struct Ms {
    const MsBackendOps *ops;
    void *impl;
};

/* ------------------------------------------------------------------- open */

/* Open (creating if missing) the embedded SQLite metastore at `path`, in
 * WAL mode, with the schema and the "default" database (location
 * `warehouse_dir`).  Safe to call from several processes at once. */
int ms_open_sqlite(const char *path, const char *warehouse_dir, Ms **out,
                   CombErr *err);
void ms_close(Ms *ms);  /* NULL ok */

/* ---------------------------------------------------------------- catalog */

/* COMB_EEXISTS "Database <name> already exists" unless if_not_exists. */
int ms_db_create(Ms *ms, const MsDatabase *db, bool if_not_exists,
                 CombErr *err);
/* COMB_ENOTFOUND unless if_exists; a database with tables needs cascade
 * (else COMB_EINVALID "Database <name> is not empty..."). Does not touch
 * files. */
int ms_db_drop(Ms *ms, const char *name, bool if_exists, bool cascade,
               CombErr *err);
/* COMB_ENOTFOUND when absent (message names the database). */
int ms_db_get(Ms *ms, const char *name, CombArena *a, MsDatabase **out,
              CombErr *err);
/* Sorted names. */
int ms_db_list(Ms *ms, CombArena *a, char ***names, int *n, CombErr *err);

/* COMB_EEXISTS unless if_not_exists (then COMB_OK, nothing changed);
 * COMB_ENOTFOUND if the database does not exist. */
int ms_table_create(Ms *ms, const MsTable *t, bool if_not_exists,
                    CombErr *err);
/* Removes the table and its write-id bookkeeping; COMB_ENOTFOUND unless
 * if_exists.  Does not touch files. */
int ms_table_drop(Ms *ms, const char *db, const char *name, bool if_exists,
                  CombErr *err);
/* COMB_ENOTFOUND when absent. */
int ms_table_get(Ms *ms, const char *db, const char *name, CombArena *a,
                 MsTable **out, CombErr *err);
/* Sorted names of the tables of db. */
int ms_table_list(Ms *ms, const char *db, CombArena *a, char ***names,
                  int *n, CombErr *err);

/* ----------------------------------------------------------- transactions */

/* New open transaction; *txnid > 0. */
int ms_txn_open(Ms *ms, const char *user, const char *host, int64_t *txnid,
                CombErr *err);
/* Commit: copies TXN_COMPONENTS to COMPLETED_TXN_COMPONENTS and marks the
 * txn committed, atomically.  Committing a committed txn is a no-op; an
 * aborted one gives COMB_ETXN "Transaction txnid:<t> already aborted";
 * unknown gives COMB_ETXN "No such transaction txnid:<t>". */
int ms_txn_commit(Ms *ms, int64_t txnid, CombErr *err);
/* Abort an open txn (no-op if not open). */
int ms_txn_abort(Ms *ms, int64_t txnid, CombErr *err);
int ms_txn_state(Ms *ms, int64_t txnid, MsTxnState *state, CombErr *err);

/* Snapshot for txn `txnid` (0 = none): Hive's ValidReadTxnList, with the
 * current txn itself not listed as an exception so it sees its own
 * writes. */
int ms_txn_snapshot(Ms *ms, int64_t txnid, CombTxnList *out, CombErr *err);

/* The txn's write id for the table, allocating one on first call (one per
 * txn and table, as Hive's allocateTableWriteIds). */
int ms_writeid_allocate(Ms *ms, int64_t txnid, const char *db,
                        const char *table, int64_t *writeid, CombErr *err);

/* Hive's getValidWriteIds for one table under snapshot txns. */
int ms_writeid_list(Ms *ms, const CombTxnList *txns, const char *db,
                    const char *table, CombWriteIdList *out, CombErr *err);

/* Record what an open txn writes (TXN_COMPONENTS); partition may be NULL. */
int ms_txn_add_component(Ms *ms, int64_t txnid, const char *db,
                         const char *table, const char *partition,
                         MsOpType op, int64_t writeid, CombErr *err);

#endif
