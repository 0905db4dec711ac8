/*
 * ms.h - the metastore: catalog (databases, tables and views, columns,
 * properties, partitions) and Hive's transaction machinery (TXNS,
 * NEXT_TXN_ID, TXN_TO_WRITE_ID, NEXT_WRITE_ID, TXN_COMPONENTS,
 * COMPLETED_TXN_COMPONENTS, WRITE_SET, MIN_HISTORY_LEVEL, HIVE_LOCKS and
 * their housekeeping).  This header is
 * the only way any other layer reaches the metastore database; each backend
 * (SQLite embedded, PostgreSQL shared) implements MsBackendOps and keeps its
 * SQL to itself.
 *
 * Every call is one atomic metastore operation (one database transaction).
 * Several processes may share one metastore: the backend serialises them.
 * Backends: an embedded SQLite file (ms_open_sqlite) or a PostgreSQL
 * server (ms_open_pg); ms_open picks one from a path or URI.
 *
 * Ownership: results are allocated in the caller's arena; inputs are
 * borrowed for the call.  Names passed in are matched lower-cased (Hive
 * stores db and table names lower case).  Error texts are Hive's where Hive
 * has one (quoted in each contract); every error leaves the metastore as it
 * was.
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
    /* DEFAULT constraint of a data column (Hive's KEY_CONSTRAINTS row of
     * CONSTRAINT_TYPE 4): the expression's text as written, and the
     * constraint's name; both NULL when the column has none.  Partition
     * keys never have one. */
    char *default_value;
    char *default_name;
} MsColumn;

typedef struct MsProperty {
    char *key;
    char *value;
} MsProperty;

/* One SORTED BY column of a table (Hive's SORT_COLS). */
typedef struct MsSortCol {
    char *name;          /* lower case; a data column of the table */
    int order;           /* MS_SORT_ASC or MS_SORT_DESC (Hive's ORDER) */
} MsSortCol;

#define MS_SORT_ASC 1
#define MS_SORT_DESC 0

/* TBLS.TBL_TYPE values, as Hive names them. */
#define MS_MANAGED_TABLE "MANAGED_TABLE"
#define MS_EXTERNAL_TABLE "EXTERNAL_TABLE"
#define MS_VIRTUAL_VIEW "VIRTUAL_VIEW"

/* Storage classes as Hive records them for STORED AS ORC / TEXTFILE. */
#define MS_ORC_INPUT_FORMAT "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat"
#define MS_ORC_OUTPUT_FORMAT \
    "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat"
#define MS_ORC_SERDE "org.apache.hadoop.hive.ql.io.orc.OrcSerde"
#define MS_TEXT_INPUT_FORMAT "org.apache.hadoop.mapred.TextInputFormat"
#define MS_TEXT_OUTPUT_FORMAT \
    "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
#define MS_TEXT_SERDE "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"

/* SERDEPROPERTIES keys of LazySimpleSerDe (ROW FORMAT DELIMITED ...).
 * Hive 2 and older wrote the collection key misspelt "colelction.delim";
 * readers should accept both. */
#define MS_SERDE_FIELD_DELIM "field.delim"
#define MS_SERDE_COLLECTION_DELIM "collection.delim"
#define MS_SERDE_MAPKEY_DELIM "mapkey.delim"
#define MS_SERDE_LINE_DELIM "line.delim"
#define MS_SERDE_ESCAPE_DELIM "escape.delim"
#define MS_SERDE_NULL_FORMAT "serialization.null.format"
#define MS_SERDE_FORMAT "serialization.format"

/* The partition value (and directory value) that stands for NULL or an
 * empty string (hive.exec.default.partition.name). */
#define MS_DEFAULT_PARTITION_NAME "__HIVE_DEFAULT_PARTITION__"

/* The table/partition parameter holding the time of the last DDL change
 * in epoch seconds (Hive's hive_metastoreConstants.DDL_TIME). */
#define MS_DDL_TIME "transient_lastDdlTime"

typedef struct MsDatabase {
    char *name;
    char *location;      /* absolute directory */
    char *comment;       /* NULL if none */
    char *owner;
} MsDatabase;

typedef struct MsTable {
    char *db;
    char *name;
    char *location;      /* absolute directory of the table; NULL for views */
    char *owner;
    char *table_type;    /* MS_MANAGED_TABLE, MS_EXTERNAL_TABLE or
                            MS_VIRTUAL_VIEW; NULL on create = managed */
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
    int n_part_keys;
    MsColumn *part_keys; /* PARTITIONED BY columns in order; never in cols */
    int n_sort_cols;
    MsSortCol *sort_cols;      /* SORTED BY, in order */
    int n_serde_params;
    MsProperty *serde_params;  /* SERDEPROPERTIES, e.g. field.delim */
    char *view_original_text;  /* views: the query as written, else NULL */
    char *view_expanded_text;  /* views: the query with names qualified */
} MsTable;

/* One partition of a table (Hive's PARTITIONS with its storage descriptor
 * folded in, PARTITION_KEY_VALS and PARTITION_PARAMS). */
typedef struct MsPartition {
    char *name;          /* "k1=v1/k2=v2", keys and values escaped as
                            ms_path_escape; set by the metastore */
    int n_values;
    char **values;       /* one per partition key, in key order, unescaped;
                            MS_DEFAULT_PARTITION_NAME stands for NULL */
    char *location;      /* absolute directory */
    int64_t create_time; /* seconds since the epoch */
    char *input_format;  /* as the table's unless altered */
    char *output_format;
    char *serde;
    int n_params;
    MsProperty *params;  /* partition parameters */
} MsPartition;

/* Value of a table property, or NULL. */
const char *ms_table_prop(const MsTable *t, const char *key);
/* transactional=true (case-insensitive value). */
bool ms_table_is_transactional(const MsTable *t);

/* Data operation recorded in TXN_COMPONENTS (TC_OPERATION_TYPE). */
typedef enum MsOpType {
    MS_OP_NONE = 0,               /* a lock component the txn only reads */
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

/* TXNS.TXN_TYPE values comb opens (Hive's TxnType numbers). */
typedef enum MsTxnType {
    MS_TXN_TYPE_DEFAULT = 0,
    MS_TXN_TYPE_READ_ONLY = 2, /* no write id, no components; not an
                                  exception in other txns' snapshots */
    MS_TXN_TYPE_COMPACTION = 3 /* a compactor's txn: writes only _v<txn>
                                  directories, allocates no write id */
} MsTxnType;

/* HIVE_LOCKS.HL_LOCK_TYPE letters (Hive 4). */
typedef enum MsLockType {
    MS_LOCK_SHARED_READ = 'r',
    MS_LOCK_SHARED_WRITE = 'w',
    MS_LOCK_EXCL_WRITE = 'x',
    MS_LOCK_EXCLUSIVE = 'e'
} MsLockType;

/* HIVE_LOCKS.HL_LOCK_STATE letters. */
typedef enum MsLockState {
    MS_LOCK_ACQUIRED = 'a',
    MS_LOCK_WAITING = 'w'
} MsLockState;

/* One object of a lock request: a database (table NULL), a table
 * (partition NULL) or a partition ("k1=v1/k2=v2").  Names lower case.
 * With op set the txn writes the table or partition: unless the request
 * is refused, its TXN_COMPONENTS row (op, writeid) is recorded in the
 * same metastore transaction as the request, as ms_txn_add_component
 * would record it (Hive's lock request records its components' operation
 * so; one transaction instead of two for a streaming txn's begin). */
typedef struct MsLockComponent {
    const char *db;
    const char *table;
    const char *partition;
    MsLockType type;
    MsOpType op;                  /* MS_OP_NONE: the lock alone */
    int64_t writeid;              /* with op: the txn's write id there */
} MsLockComponent;

/* A lock request (Hive's LockRequest): every component is granted or
 * waits as one unit under one HL_LOCK_EXT_ID (HL_LOCK_INT_ID 1..n).  comb
 * locks always belong to an open txn, whose heartbeat keeps them
 * (HL_LAST_HEARTBEAT stays 0, as Hive does for txn locks).  With
 * zero_wait_read (Hive's zeroWaitReadEnabled) a request whose SHARED_READ
 * component would wait is not queued at all (state MS_LOCK_REFUSED). */
typedef struct MsLockRequest {
    int64_t txnid;
    const char *user;
    const char *host;
    const char *agent_info;       /* Hive puts the query id here; may be NULL */
    const MsLockComponent *components;
    int n;
    bool zero_wait_read;
} MsLockRequest;

/* The answer to a lock request or a check of it (Hive's LockResponse). */
#define MS_LOCK_REFUSED 'n'       /* zero-wait read: nothing queued */
typedef struct MsLockStatus {
    int64_t extid;                /* the request's HL_LOCK_EXT_ID */
    int state;                    /* MS_LOCK_ACQUIRED, MS_LOCK_WAITING or
                                     MS_LOCK_REFUSED */
    /* WAITING / REFUSED: the first earlier lock in the way */
    int64_t blocker_extid, blocker_intid, blocker_txnid;
    MsLockType blocker_type;
} MsLockStatus;

/* A HIVE_LOCKS row as SHOW LOCKS lists it (strings in the caller's
 * arena).  Times are epoch milliseconds; 0 = none. */
typedef struct MsLockRow {
    int64_t extid, intid;
    int64_t txnid;
    char *db;
    char *table;                  /* NULL: database lock */
    char *partition;              /* NULL: table (or database) lock */
    MsLockState state;
    MsLockType type;
    int64_t last_heartbeat;
    int64_t acquired_at;
    char *user, *host, *agent_info;
    int64_t blocked_by_extid, blocked_by_intid;   /* 0: not blocked */
} MsLockRow;

/* A TXNS row that is not committed, as SHOW TRANSACTIONS lists it. */
typedef struct MsTxnInfo {
    int64_t txnid;
    MsTxnState state;             /* open or aborted */
    MsTxnType type;
    int64_t started, last_heartbeat;   /* epoch ms */
    char *user, *host;
    char *meta_info;              /* abort reason, or NULL */
} MsTxnInfo;

/* TXN_META_INFO of an aborted txn: why (Hive's TxnErrorMsg texts, and
 * comb's own for deadlocks). */
#define MS_ABORT_BY_QUERY "abort by query command"
#define MS_ABORT_WRITE_CONFLICT "write conflicts"
#define MS_ABORT_TIMEOUT "heartbeat time-out"
#define MS_ABORT_ROLLBACK "rollback"
#define MS_ABORT_DEADLOCK "deadlock"
#define MS_ABORT_COMPACTION "compaction transaction abort"

/* Housekeeping (Hive's AcidHouseKeeperService and AcidTxnCleanerService),
 * one run of it. */
typedef struct MsHousekeeping {
    int64_t txn_timeout_ms;       /* hive.txn.timeout: open txns not heard
                                     from for longer are aborted */
    int64_t interval_ms;          /* skip unless the last run, by any
                                     process, is at least this old (0:
                                     always run) */
} MsHousekeeping;

typedef struct MsHousekeepResult {
    bool ran;                     /* false: another process ran recently */
    int64_t timed_out;            /* txns aborted for their heartbeat */
    int64_t txns_deleted;         /* TXNS rows removed */
    int64_t rows_deleted;         /* other rows removed (T2W, CTC, WRITE_SET) */
} MsHousekeepResult;

/* Compaction queue and history (ms_compact_*). */

/* COMPACTION_QUEUE.CQ_STATE / COMPLETED_COMPACTIONS.CC_STATE letters. */
typedef enum MsCompactState {
    MS_CQ_INITIATED = 'i',
    MS_CQ_WORKING = 'w',
    MS_CQ_READY_FOR_CLEANING = 'r',
    MS_CQ_FAILED = 'f',
    MS_CQ_SUCCEEDED = 's',
    MS_CQ_DID_NOT_INITIATE = 'a',
    MS_CQ_REFUSED = 'c',
    MS_CQ_ABORTED = 'x'
} MsCompactState;

/* CQ_TYPE letters. */
typedef enum MsCompactType {
    MS_CQ_MAJOR = 'a',
    MS_CQ_MINOR = 'i'
} MsCompactType;

/* One compaction, queued (COMPACTION_QUEUE) or done
 * (COMPLETED_COMPACTIONS).  Strings in the caller's arena; times epoch ms,
 * 0 = none; ids 0 = none. */
typedef struct MsCompaction {
    int64_t id;                   /* CQ_ID / CC_ID, shared sequence */
    char *db, *table;
    char *partition;              /* NULL: unpartitioned table */
    MsCompactState state;
    MsCompactType type;
    char *tblprops;               /* WITH OVERWRITE TBLPROPERTIES, as
                                     "k=v" lines; NULL if none */
    char *worker_id;              /* "<host>-<pid>-<thread>" while working */
    int64_t enqueue_time, start, end;
    int64_t highest_writeid;      /* the compactor's high watermark */
    int64_t txnid;                /* the compactor's txn */
    int64_t next_txnid;           /* NEXT_TXN_ID when it committed: the
                                     cleaner waits until every txn below it
                                     has ended */
    int64_t commit_time;
    char *error;                  /* why it failed, or NULL */
    char *initiator_id;           /* "<host>-manual" or "<host>-initiator" */
    char *progress;               /* what the worker did so far, as
                                     ms_compact_progress wrote it (kept in
                                     CQ_META_INFO / CC_META_INFO), or NULL */
} MsCompaction;

/* A compaction request (Hive's CompactionRequest). */
typedef struct MsCompactRequest {
    const char *db, *table;
    const char *partition;        /* NULL: unpartitioned table */
    MsCompactType type;
    const char *tblprops;         /* may be NULL */
    const char *initiator_id;
} MsCompactRequest;

/* How many history rows of each final state ms_compact_finish keeps per
 * partition (hive.compactor.history.retention.succeeded, .failed,
 * .did.not.initiate, .refused; aborted ones as refused). */
typedef struct MsCompactRetention {
    int succeeded, failed, did_not_initiate, refused, aborted;
} MsCompactRetention;

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
    int (*table_alter)(void *impl, const MsTable *t, CombErr *err);
    int (*table_rename)(void *impl, const char *db, const char *name,
                        const char *new_db, const char *new_name,
                        const char *new_location, CombErr *err);
    int (*part_add)(void *impl, const char *db, const char *table,
                    const MsPartition *parts, int n, bool if_not_exists,
                    bool *added, CombErr *err);
    int (*part_drop)(void *impl, const char *db, const char *table,
                     char *const *names, int n, bool if_exists, CombErr *err);
    /* Partitions of the table in name order: the one called `name`, or
     * (name NULL) those matching the partial spec. */
    int (*part_list)(void *impl, const char *db, const char *table,
                     const char *name, const MsProperty *spec, int n_spec,
                     CombArena *a, MsPartition **out, int *n, CombErr *err);
    int (*part_set_location)(void *impl, const char *db, const char *table,
                             const char *name, const char *location,
                             CombErr *err);
    int (*part_set_params)(void *impl, const char *db, const char *table,
                           const char *name, const MsProperty *params, int n,
                           CombErr *err);
    /* Open a txn and, in the same metastore transaction, enqueue and
     * check its lock request (locks->n > 0) and, when every lock was
     * granted (or none asked) and snapshot != NULL, take its snapshot
     * (*have_snapshot says whether).  locks->txnid is ignored: the new
     * txn's id is used.  max_open > 0: refuse (COMB_ETXN, Hive's text) when
     * that many txns are open already. */
    int (*txn_begin)(void *impl, const char *user, const char *host,
                     MsTxnType type, int64_t max_open,
                     const MsLockRequest *locks, int64_t *txnid,
                     MsLockStatus *status, CombTxnList *snapshot,
                     bool *have_snapshot, CombErr *err);
    /* excl_write: skip the write-set conflict check (Hive's
     * CommitTxnRequest.exclWriteEnabled). */
    int (*txn_commit)(void *impl, int64_t txnid, bool excl_write,
                      CombErr *err);
    int (*txn_abort)(void *impl, int64_t txnid, const char *reason,
                     CombErr *err);
    int (*txn_state)(void *impl, int64_t txnid, MsTxnState *state,
                     CombErr *err);
    int (*txn_snapshot)(void *impl, int64_t txnid, CombTxnList *out,
                        CombErr *err);
    int (*writeid_allocate)(void *impl, int64_t txnid, const char *db,
                            const char *table, int64_t *writeid,
                            CombErr *err);
    /* ms_writeid_allocate for txnids[0..n) in order, in one metastore
     * transaction */
    int (*writeid_allocate_batch)(void *impl, const int64_t *txnids, int n,
                                  const char *db, const char *table,
                                  int64_t *writeids, CombErr *err);

    /* NULL: allocations are durable when writeid_allocate returns */
    int (*writeid_sync)(void *impl, CombErr *err);
    int (*writeid_list)(void *impl, const CombTxnList *txns, const char *db,
                        const char *table, CombWriteIdList *out,
                        CombErr *err);
    int (*txn_add_component)(void *impl, int64_t txnid, const char *db,
                             const char *table, const char *partition,
                             MsOpType op, int64_t writeid, CombErr *err);
    int (*txn_add_partitions)(void *impl, int64_t txnid, const char *db,
                              const char *table, char *const *partitions,
                              int n, MsOpType op, int64_t writeid,
                              CombErr *err);
    int (*writeid_seed)(void *impl, const char *db, const char *table,
                        int64_t max_writeid, CombErr *err);
    int (*txnid_seed)(void *impl, int64_t max_txnid, CombErr *err);
    /* locks, heartbeats, housekeeping: see the ms_* wrappers */
    int (*lock)(void *impl, const MsLockRequest *rq, MsLockStatus *out,
                CombErr *err);
    int (*lock_check)(void *impl, int64_t txnid, int64_t extid,
                      bool zero_wait_read, MsLockStatus *out, CombErr *err);
    int (*unlock)(void *impl, int64_t extid, CombErr *err);
    int (*lock_list)(void *impl, const char *db, const char *table,
                     const char *partition, CombArena *a, MsLockRow **rows,
                     int *n, CombErr *err);
    int (*txn_list)(void *impl, CombArena *a, MsTxnInfo **rows, int *n,
                    CombErr *err);
    int (*txn_heartbeat)(void *impl, const int64_t *txnids, int n,
                         bool *open, CombErr *err);
    int (*housekeep)(void *impl, const MsHousekeeping *cfg,
                     MsHousekeepResult *out, CombErr *err);
    int (*txn_commit_create)(void *impl, int64_t txnid, const MsTable *t,
                             const MsPartition *parts, int n, CombErr *err);
    /* compaction queue and history: see the ms_compact_* wrappers */
    int (*compact_enqueue)(void *impl, const MsCompactRequest *rq,
                           bool *accepted, int64_t *id,
                           MsCompactState *state, CombErr *err);
    int (*compact_claim)(void *impl, const char *worker_id,
                         int64_t timeout_ms, int64_t id, CombArena *a,
                         MsCompaction *out, bool *found, CombErr *err);
    int (*compact_progress)(void *impl, int64_t id, const char *text,
                            CombErr *err);
    int (*compact_set_txn)(void *impl, int64_t id, int64_t txnid,
                           int64_t highest_writeid, CombErr *err);
    int (*compact_commit)(void *impl, int64_t id, int64_t txnid,
                          CombErr *err);
    int (*compact_finish)(void *impl, int64_t id, MsCompactState state,
                          const char *error, const MsCompactRetention *keep,
                          CombErr *err);
    int (*compact_list)(void *impl, bool ready_to_clean, CombArena *a,
                        MsCompaction **rows, int *n, CombErr *err);
    int (*compact_abort)(void *impl, const int64_t *ids, int n, bool *done,
                         CombErr *err);
    /* authorization: grants as MS_GRANT_CELLS texts (ms_grant_cells) */
    int (*role_create)(void *impl, const char *name, const char *owner,
                       int64_t now, CombErr *err);
    int (*role_drop)(void *impl, const char *name, CombErr *err);
    int (*role_list)(void *impl, CombArena *a, char ***names, int *n,
                     CombErr *err);
    /* insert the row; found: one with the same key existed (then its
     * grant option is set when the new row has it, else nothing) */
    int (*grant_put)(void *impl, char *const *cells, bool *found,
                     CombErr *err);
    /* delete the row with cells' key (option_only: clear its grant
     * option); *found whether there was one */
    int (*grant_drop)(void *impl, char *const *cells, bool option_only,
                      bool *found, CombErr *err);
    /* rows whose key cells equal the filter's non-empty ones */
    int (*grant_list)(void *impl, char *const *filter, CombArena *a,
                      char ***cells, int *n, CombErr *err);
    /* rows as MS_COLSTATS_CELLS texts each (ms_colstats_cells), part ""
     * for the table's own */
    int (*colstats_put)(void *impl, const char *db, const char *table,
                        const char *part, char *const *cells, int n,
                        CombErr *err);
    int (*colstats_get)(void *impl, const char *db, const char *table,
                        const char *part, CombArena *a, char ***cells, int *n,
                        CombErr *err);
} MsBackendOps;

/* A handle; backends allocate it zeroed (comb_calloc). */
struct Ms {
    const MsBackendOps *ops;
    void *impl;
    /* metastore.max.open.txns was reached: opens fail until fewer than
     * 90 % of the maximum are open (Hive's hysteresis); ms.c keeps it */
    bool too_many_open;
};

/* ------------------------------------------------------------------- open */

/* Open (creating if missing) the embedded SQLite metastore at `path`, in
 * WAL mode, with the schema and the "default" database (location
 * `warehouse_dir`).  A file written by an older comb is upgraded to the
 * current schema in one transaction; a file of a newer comb is refused
 * (COMB_EMETASTORE naming both versions).  Safe to call from several
 * processes at once. */
int ms_open_sqlite(const char *path, const char *warehouse_dir, Ms **out,
                   CombErr *err);
/* Open the shared PostgreSQL metastore that the libpq connection URI `url`
 * names ("postgresql://user@host:port/db", or with a Unix socket directory
 * "postgresql://user@/db?host=/run/postgresql"; every libpq parameter and
 * the password are libpq's to read), for comb processes on several hosts
 * sharing one file system.  An empty database gets the schema and the
 * "default" database (location `warehouse_dir`); schema versions are
 * handled as ms_open_sqlite does.  Errors name the server as
 * postgresql://user@host:port/db, never with its password.  The server
 * going away between or during calls: the next call reconnects; a call
 * whose COMMIT got no answer fails with COMB_EMETASTORE saying its outcome
 * is unknown (calls that can safely run twice, such as ms_txn_commit, are
 * run again instead).  Needs PostgreSQL 10 or later. */
int ms_open_pg(const char *url, const char *warehouse_dir, Ms **out,
               CombErr *err);
/* The metastore `target` names: a URI starting "postgresql://" or
 * "postgres://" opens ms_open_pg, anything else is the path of a SQLite
 * file (ms_open_sqlite). */
int ms_open(const char *target, const char *warehouse_dir, Ms **out,
            CombErr *err);
/* true when ms_open would take `target` for a PostgreSQL URI. */
bool ms_target_is_pg(const char *target);
/* How messages name the metastore `target`: a SQLite path as it is, a
 * PostgreSQL URI as postgresql://user@host:port/db (read by libpq; never
 * the password or other parameters).  Heap string (comb_free), NULL when
 * out of memory. */
char *ms_target_display(const char *target);
/* ms_target_display of a PostgreSQL URI (ms_pg.c). */
char *ms_pg_display(const char *url);
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

/* Record a table or view.  COMB_EEXISTS "Table already exists: <db>.<t>"
 * unless if_not_exists (then COMB_OK, nothing changed); COMB_ENOTFOUND if
 * the database does not exist.  No location: <db location>/<name> for
 * tables, none for views.  COMB_EINVALID: a name outside [A-Za-z0-9_] or
 * longer than 128, a relative location, "Duplicate column name: <c>" (data
 * and partition columns together), "Column repeated in partitioning
 * columns" (a partition key that is also a data column), bucket or sort
 * columns that are not data columns, an unknown table type, a view without
 * query text or with a location, view text on a table. */
int ms_table_create(Ms *ms, const MsTable *t, bool if_not_exists,
                    CombErr *err);
/* Removes the table (or view), its partitions and its write-id
 * bookkeeping; COMB_ENOTFOUND unless if_exists.  Does not touch files. */
int ms_table_drop(Ms *ms, const char *db, const char *name, bool if_exists,
                  CombErr *err);
/* COMB_ENOTFOUND when absent. */
int ms_table_get(Ms *ms, const char *db, const char *name, CombArena *a,
                 MsTable **out, CombErr *err);
/* Sorted names of the tables and views of db. */
int ms_table_list(Ms *ms, const char *db, CombArena *a, char ***names,
                  int *n, CombErr *err);

/* Replace the definition of the table t->db.t->name with *t (Hive's
 * alter_table): type, owner, location (NULL keeps the stored one for a
 * table), formats, serde and its parameters, columns, comment, properties,
 * buckets, sort columns, view texts, partition key comments.  The creation
 * time stays.  Validated as ms_table_create; COMB_ENOTFOUND for an unknown
 * table; COMB_EINVALID "partition keys can not be changed." when the
 * partition keys differ in number, name or type.  The SQL layer reads the
 * table, applies ALTER's change and Hive's rules (e.g. 'transactional'
 * cannot be unset), then calls this; two ALTERs of one table racing each
 * other keep the last (no DDL locks yet). */
int ms_table_alter(Ms *ms, const MsTable *t, CombErr *err);

/* Rename db.name to new_db.new_name (ALTER TABLE/VIEW ... RENAME TO), in one
 * transaction with every name-keyed row of the transaction tables
 * (TXN_COMPONENTS, COMPLETED_TXN_COMPONENTS, TXN_TO_WRITE_ID,
 * NEXT_WRITE_ID, WRITE_SET, HIVE_LOCKS, the compaction tables), as Hive's
 * onRename, so write ids continue.  new_location (absolute, may be NULL to
 * keep) becomes the table's location, and each partition located under the
 * old location moves with it (its path prefix replaced).  The caller moves
 * directories first.  Errors: COMB_ENOTFOUND for the table or new_db;
 * COMB_EEXISTS "new table <db>.<t> already exists"; COMB_EINVALID for an
 * invalid new name, a relative location or a location for a view.  The same name: only the
 * location changes. */
int ms_table_rename(Ms *ms, const char *db, const char *name,
                    const char *new_db, const char *new_name,
                    const char *new_location, CombErr *err);

/* The directory name of a table called `name` under its database, as
 * Hive's encodeTableName: letters, digits and '_' stay, every other
 * character c becomes "-<code>-" ("a/b" is "a-47-b").  NULL: no memory. */
char *ms_table_dir_name(const char *name, CombArena *a);

/* ------------------------------------------------------------- partitions */

/* Hive's FileUtils.escapePathName: each byte 0x01-0x1F, 0x7F and
 * " # % ' * / : = ? \ { [ ] ^ becomes %XX (upper-case hex); other bytes,
 * UTF-8 included, stay.  NULL or "" gives MS_DEFAULT_PARTITION_NAME.  A
 * value so escaped cannot leave its directory: '/' is escaped and the
 * directory is always "<key>=<value>", never "." or "..". */
int ms_path_escape(const char *s, CombArena *a, char **out, CombErr *err);
/* Hive's FileUtils.unescapePathName: "%XX" (two hex digits) becomes the
 * character U+00XX (one byte below 0x80, else its two UTF-8 bytes, as Java
 * does); a '%' without two hex digits after it stays.  COMB_EINVALID for
 * "%00", which no C string can hold. */
int ms_path_unescape(const char *s, CombArena *a, char **out, CombErr *err);

/* The partition name of t for `values` (one per partition key; NULL or ""
 * is MS_DEFAULT_PARTITION_NAME): "k1=v1/k2=v2" escaped, as Hive's
 * makePartName; also the partition's directory below the table.
 * COMB_EINVALID: t is not partitioned, or a "k=v" longer than 255 bytes
 * (the longest directory name). */
int ms_part_name_make(const MsTable *t, char *const *values, CombArena *a,
                      char **out, CombErr *err);
/* The values (unescaped, key order) of a partition name or relative
 * directory path "k1=v1/k2=v2" of t, checked as Hive's MSCK checks
 * directories: each component exactly one '=' with text on both sides
 * (else COMB_EINVALID "Invalid partition name <name>"), keys those of t in
 * order, compared case-insensitively (else COMB_EINVALID "Unexpected
 * partition key <k> found at <name>"), one component per key. */
int ms_part_name_parse(const MsTable *t, const char *name, CombArena *a,
                       char ***values, CombErr *err);

/* Add partitions to db.table in one transaction (ALTER TABLE ADD
 * PARTITION, dynamic-partition inserts, MSCK).  In each parts[i] only
 * values (n_values == the table's key count; NULL or "" means
 * MS_DEFAULT_PARTITION_NAME), location (NULL: <table location>/<name>),
 * create_time (0: now), formats and serde (NULL: the table's) and params
 * are read; the name is made by ms_part_name_make.  With if_not_exists,
 * partitions that exist are skipped; added (n entries, may be NULL) says
 * which were new (all false after an error).  Errors, nothing added: COMB_ENOTFOUND (table);
 * COMB_EEXISTS "Partition already exists: <db>.<t>/<name>" unless
 * if_not_exists (also when another process added it first); COMB_EINVALID
 * "Partition spec for non partitioned table <db>.<t>.", "Invalid partition
 * key & values; keys [k1, k2, ], values [v1, ]" (count mismatch),
 * "Duplicate partitions in the list: <name>", a relative location, or a
 * name ms_part_name_make refuses. */
int ms_part_add(Ms *ms, const char *db, const char *table,
                const MsPartition *parts, int n, bool if_not_exists,
                bool *added, CombErr *err);
/* Drop partitions by name (as ms_part_name_make makes them) in one
 * transaction, with their TXN_COMPONENTS, COMPLETED_TXN_COMPONENTS and
 * compaction rows (Hive's cleanupRecords).  COMB_ENOTFOUND "Partition not
 * found '<db>.<t>/<name>'" unless if_exists (nothing dropped), or for the
 * table.  Does not touch files. */
int ms_part_drop(Ms *ms, const char *db, const char *table,
                 char *const *names, int n, bool if_exists, CombErr *err);
/* The partition called `name`; COMB_ENOTFOUND "Partition not found
 * '<db>.<t>/<name>'", or for the table. */
int ms_part_get(Ms *ms, const char *db, const char *table, const char *name,
                CombArena *a, MsPartition **out, CombErr *err);
/* The partitions of db.table in the order of SHOW PARTITIONS (by name,
 * byte order), all of them or (n_spec > 0) those whose value for each
 * spec[i].key (any case) equals spec[i].value (a partial spec; NULL or ""
 * means MS_DEFAULT_PARTITION_NAME).  A table without partition keys has none.
 * COMB_EINVALID "Non-Partition column appears in the partition
 * specification: <k>"; COMB_ENOTFOUND for the table. */
int ms_part_list(Ms *ms, const char *db, const char *table,
                 const MsProperty *spec, int n_spec, CombArena *a,
                 MsPartition **out, int *n, CombErr *err);
/* ALTER TABLE ... PARTITION (...) SET LOCATION: an absolute directory
 * (COMB_EINVALID otherwise); COMB_ENOTFOUND as ms_part_get. */
int ms_part_set_location(Ms *ms, const char *db, const char *table,
                         const char *name, const char *location,
                         CombErr *err);
/* (Addition; the metastore service's alter_partitions_req.) Replace the
 * parameters of partition `name` with params[0..n) (keys non-empty, else
 * COMB_EINVALID; a repeated key keeps its last value), as Hive's
 * alter_partition stores the client's whole map.  COMB_ENOTFOUND as
 * ms_part_get. */
int ms_part_set_params(Ms *ms, const char *db, const char *table,
                       const char *name, const MsProperty *params, int n,
                       CombErr *err);

/* ------------------------------------------------------ column statistics */

/* The statistics of one column of a table or of one of its partitions
 * (Hive's ColumnStatisticsObj; TAB_COL_STATS and PART_COL_STATS are one
 * table, COL_STATS, keyed by table, partition name ('' for the table) and
 * column).  The metastore keeps the values as given and interprets none of
 * them: low and high are text in the SQL form of the column's type, and
 * `source` is the writer's fingerprint of what they were computed over (the
 * files and the schema), which a reader compares with its own before
 * trusting the row. */
typedef struct MsColStats {
    char *column;
    char *type;             /* the column's type, as COLUMNS_V2 has it */
    char *source;
    char *low, *high;       /* NULL: none (no value, or a type without) */
    int64_t num_nulls;
    int64_t num_distincts;  /* -1: unknown */
    int64_t num_trues;      /* booleans; -1 for other types */
    int64_t num_falses;     /* booleans; -1 for other types */
    int64_t max_col_len;    /* strings and binaries; -1 for other types */
    double avg_col_len;     /* strings and binaries; -1 for other types */
    char *bit_vector;       /* the distinct-value sketch, base64; NULL: none */
    int64_t last_analyzed;  /* seconds since the epoch */
} MsColStats;

/* Store stats[0..n) for db.table (part NULL) or its partition `part` (a
 * name as ms_part_name_make makes it), each replacing the row of its
 * column, in one transaction.  The rows go when the table or the partition
 * is dropped.  COMB_ENOTFOUND for the table. */
int ms_colstats_put(Ms *ms, const char *db, const char *table,
                    const char *part, const MsColStats *stats, int n,
                    CombErr *err);
/* Every row stored for db.table (part NULL) or its partition `part`, by
 * column name; *out NULL and *n 0 for none.  COMB_ENOTFOUND for the
 * table. */
int ms_colstats_get(Ms *ms, const char *db, const char *table,
                    const char *part, CombArena *a, MsColStats **out, int *n,
                    CombErr *err);

/* ----------------------------------------------------------- transactions */

/* New open transaction of type DEFAULT; *txnid > 0.  Also records the
 * txn's MIN_HISTORY_LEVEL row (the lowest txn open when it started), which
 * keeps housekeeping from removing rows its snapshot may need. */
int ms_txn_open(Ms *ms, const char *user, const char *host, int64_t *txnid,
                CombErr *err);

/* How a statement begins (ms_txn_begin). */
typedef struct MsTxnBegin {
    const char *user, *host;
    MsTxnType type;
    int64_t max_open;            /* metastore.max.open.txns; 0: no limit */
    const MsLockRequest *locks;  /* NULL or n == 0: none (txnid ignored) */
} MsTxnBegin;

/* Hive's openTxns + lock + getValidTxns as one metastore transaction: open
 * a txn of rq->type, enqueue and check its lock request, and when the
 * locks were all granted (or none asked) take its snapshot into *snapshot
 * (may be NULL: none wanted) and set *have_snapshot.  *status (may be
 * NULL when no locks are asked) is the lock request's state; while it is
 * MS_LOCK_WAITING the caller waits (ms_lock_wait) and then takes the
 * snapshot itself (ms_txn_snapshot), so that the snapshot is never older
 * than the locks.  Because the txn and its request are made together,
 * lock ids follow txn ids: a txn only ever waits for older ones.
 * MS_LOCK_REFUSED (zero-wait read): the txn stays open without locks.
 * Errors: COMB_ETXN "Maximum allowed number of open transactions has been
 * reached. See hive.max.open.txns." (Hive's text) once rq->max_open
 * txns are open, and then until fewer than 90 % of it are (Hive's
 * hysteresis, kept per handle); COMB_EINVALID for a component without a
 * database or a partition without a table.  Nothing is opened on error. */
int ms_txn_begin(Ms *ms, const MsTxnBegin *rq, int64_t *txnid,
                 MsLockStatus *status, CombTxnList *snapshot,
                 bool *have_snapshot, CombErr *err);

/* Commit: copies TXN_COMPONENTS to COMPLETED_TXN_COMPONENTS, records its
 * update/delete writes in WRITE_SET, releases its locks and marks the txn
 * committed, atomically.  Before that, unless excl_write (ms_txn_commit_excl),
 * Hive's first-committer-wins check (README).  Committing a committed txn
 * is a no-op; an aborted one gives COMB_ETXN "Transaction txnid:<t> already
 * aborted"; unknown gives COMB_ETXN "No such transaction txnid:<t>". */
int ms_txn_commit(Ms *ms, int64_t txnid, CombErr *err);
/* ms_txn_commit without the write-set check, for a txn whose every
 * update and delete ran under EXCL_WRITE (or EXCLUSIVE) locks granted
 * before its snapshot was taken (Hive's hive.txn.xlock.write=true): no
 * concurrent writer of the same data can have committed unseen. */
int ms_txn_commit_excl(Ms *ms, int64_t txnid, CombErr *err);
/* Abort an open txn (no-op if not open): state 'a', TXN_META_INFO
 * MS_ABORT_ROLLBACK, its locks and MIN_HISTORY_LEVEL row removed; its
 * TXN_COMPONENTS stay (the compactor finds aborted data through them). */
int ms_txn_abort(Ms *ms, int64_t txnid, CombErr *err);
/* The same with the reason recorded in TXN_META_INFO (one of the
 * MS_ABORT_* texts, or a longer sentence starting with one; at most 128
 * bytes are kept). */
int ms_txn_abort_reason(Ms *ms, int64_t txnid, const char *reason,
                        CombErr *err);
int ms_txn_state(Ms *ms, int64_t txnid, MsTxnState *state, CombErr *err);
/* Every TXNS row that is not committed (open and aborted), by id, for
 * SHOW TRANSACTIONS. */
int ms_txn_list(Ms *ms, CombArena *a, MsTxnInfo **rows, int *n,
                CombErr *err);
/* Hive's heartbeatTxnRange for a set of txns: TXN_LAST_HEARTBEAT = now
 * (and TXN_HEARTBEAT_COUNT + 1) for each that is open, in one metastore
 * transaction; open[i] (n entries) says which were (the others are
 * aborted, committed or unknown).  Not needed for durability, so a
 * backend may make it cheaper than a commit (SQLite: no fsync). */
int ms_txn_heartbeat(Ms *ms, const int64_t *txnids, int n, bool *open,
                     CombErr *err);

/* Snapshot for txn `txnid` (0 = none): Hive's ValidReadTxnList, with the
 * current txn itself not listed as an exception so it sees its own
 * writes.  READ_ONLY txns are never exceptions (they write nothing), as
 * Hive's getOpenTxns leaves them out. */
int ms_txn_snapshot(Ms *ms, int64_t txnid, CombTxnList *out, CombErr *err);

/* The txn's write id for the table, allocating one on first call (one per
 * txn and table, as Hive's allocateTableWriteIds). */
int ms_writeid_allocate(Ms *ms, int64_t txnid, const char *db,
                        const char *table, int64_t *writeid, CombErr *err);

/* (Addition; streaming ingest.) Hive's allocateTableWriteIdsBatch: the
 * write ids of n open txns for the table, allocated in txn order in one
 * metastore transaction, so that they are consecutive (writeids[i] =
 * writeids[0] + i) when none of the txns had one yet; a txn that had one
 * keeps it (then the caller finds them not consecutive).  Errors as
 * ms_writeid_allocate; nothing is allocated on error. */
int ms_writeid_allocate_batch(Ms *ms, const int64_t *txnids, int n,
                              const char *db, const char *table,
                              int64_t *writeids, CombErr *err);

/* Make the write ids this handle allocated durable.  An allocation need
 * not be durable by itself (SQLite: not synced; the commit's sync covers
 * it): a write id lost with the power is handed out again, harmless as
 * long as nothing names it.  So a writer calls this before it creates
 * the first directory or file named by a write id; a txn that writes no
 * file (an UPDATE matching nothing) commits with one sync. */
int ms_writeid_sync(Ms *ms, CombErr *err);

/* Hive's getValidWriteIds for one table under snapshot txns. */
int ms_writeid_list(Ms *ms, const CombTxnList *txns, const char *db,
                    const char *table, CombWriteIdList *out, CombErr *err);

/* Record what an open txn writes (TXN_COMPONENTS); partition is a
 * partition name, or NULL for an unpartitioned table (COMB_EINVALID if
 * ""). */
int ms_txn_add_component(Ms *ms, int64_t txnid, const char *db,
                         const char *table, const char *partition,
                         MsOpType op, int64_t writeid, CombErr *err);
/* Hive's addDynamicPartitions: record that an open txn wrote the n named
 * partitions of a table (one TXN_COMPONENTS row each, all with the txn's
 * one write id for the table) and drop the txn's table-level row for that
 * table, in one transaction.  Errors as ms_txn_add_component. */
int ms_txn_add_partitions(Ms *ms, int64_t txnid, const char *db,
                          const char *table, char *const *partitions, int n,
                          MsOpType op, int64_t writeid, CombErr *err);

/* ------------------------------------------------------------------ locks */

/* Enqueue and check a lock request for open txn rq->txnid (Hive's lock():
 * the rows are inserted WAITING under a new HL_LOCK_EXT_ID, then checked
 * as ms_lock_check does).  COMB_ETXN when the txn is not open (the
 * ms_txn_commit texts; an aborted one with its reason, Hive's 10263). */
int ms_lock(Ms *ms, const MsLockRequest *rq, MsLockStatus *out, CombErr *err);
/* Hive's checkLock: the request extid is granted whole when no row of an
 * earlier request (smaller ext id, waiting or acquired, of another txn)
 * overlaps and conflicts with one of its rows (Hive 4's matrix, README);
 * then every row becomes ACQUIRED with HL_ACQUIRED_AT = now.  Otherwise
 * the first row in the way is recorded in HL_BLOCKEDBY_* of the blocked
 * row and *out says WAITING with that blocker.  zero_wait_read: a blocked
 * SHARED_READ makes the request removed instead (MS_LOCK_REFUSED).
 * Errors: COMB_ETXN (Hive's 10263 text with the reason) when txnid was
 * aborted meanwhile (its locks are gone); COMB_ENOTFOUND "No such lock:
 * lockid:<n>" when the request does not exist. */
int ms_lock_check(Ms *ms, int64_t txnid, int64_t extid, bool zero_wait_read,
                  MsLockStatus *out, CombErr *err);
/* Remove the still-waiting rows of request extid (a request that gave up
 * waiting); acquired rows of a txn stay until it ends.  COMB_ENOTFOUND
 * "No such lock: lockid:<n>" when it has no waiting row. */
int ms_unlock(Ms *ms, int64_t extid, CombErr *err);
/* HIVE_LOCKS rows by (ext id, int id): all of them (db NULL), those of a
 * database (table NULL: database, table and partition locks), of a table
 * (partition NULL: table and partition locks) or of one partition. */
int ms_lock_list(Ms *ms, const char *db, const char *table,
                 const char *partition, CombArena *a, MsLockRow **rows,
                 int *n, CombErr *err);

/* How ms_lock_wait retries (Hive's DbLockManager). */
typedef struct MsLockWait {
    int num_retries;             /* hive.lock.numretries (100) */
    int64_t sleep_max_ms;        /* max(15000, hive.lock.sleep.between.retries) */
    bool zero_wait_read;
    /* test hook: called before each sleep (may be NULL) */
    void (*before_sleep)(void *ctx, int64_t ms);
    void *ctx;
} MsLockWait;

/* Wait for a WAITING request as Hive's DbLockManager does: up to
 * num_retries checks, sleeping before each 100 ms, 200 ms, ... doubling up
 * to sleep_max_ms.  After every check that still waits, the wait-for graph
 * of all HIVE_LOCKS rows (ms_lock_deadlock) is searched for a cycle through
 * txnid; the youngest txn of a cycle is aborted (reason MS_ABORT_DEADLOCK
 * with the cycle), by whichever member finds it.  Returns COMB_OK with
 * out->state ACQUIRED, or still WAITING when the retries ran out (the
 * waiting request is then removed: the caller holds nothing new and
 * reports Hive's 10307 with *waited_ms); COMB_ETXN 10263 when txnid was
 * aborted (the deadlock victim, timed out, ABORT TRANSACTIONS). */
int ms_lock_wait(Ms *ms, int64_t txnid, const MsLockWait *opt,
                 MsLockStatus *out, int64_t *waited_ms, CombErr *err);

/* Does a request row (type rq_type on rq_db/rq_table/rq_partition) conflict
 * with an existing row, per Hive 4's matrix and its database-level
 * exceptions, given they overlap?  Exposed for tests and for backends that
 * check in C. */
bool ms_lock_conflicts(const MsLockRow *request, const MsLockRow *existing);
/* Do two rows lock overlapping objects (same db, and a table NULL or equal,
 * and a partition NULL or equal)? */
bool ms_lock_overlaps(const MsLockRow *a, const MsLockRow *b);
/* The wait-for graph of `rows` (all HIVE_LOCKS rows, any order): a txn
 * waits for the txn of every earlier-request row that blocks one of its
 * waiting rows.  If a cycle passes through txnid, *victim is its youngest
 * (highest) txn and cycle (cap entries) lists it, *n_cycle long; else
 * *victim = 0. */
void ms_lock_deadlock(const MsLockRow *rows, int n, int64_t txnid,
                      int64_t *victim, int64_t *cycle, int cap, int *n_cycle);

/* ------------------------------------------------------------ compaction */

/* Hive's compact(): refused (*accepted false, *id and *state those of the
 * entry in the way) when the queue holds an initiated or working entry
 * for the same partition, or a ready-for-cleaning one whose high
 * watermark is the table's current one (nothing new to compact); else a
 * new entry in state initiated (*accepted true, *id its id). */
int ms_compact_enqueue(Ms *ms, const MsCompactRequest *rq, bool *accepted,
                       int64_t *id, MsCompactState *state, CombErr *err);
/* A worker claims work: first, working entries whose CQ_START is older
 * than timeout_ms (a worker that died: hive.compactor.worker.timeout) go
 * back to initiated; then the oldest initiated entry (or, id > 0, that one
 * if it is initiated) becomes working with CQ_WORKER_ID = worker_id and
 * CQ_START = now, in one metastore transaction, so that two workers never
 * claim the same entry.  *found false: nothing to do. */
int ms_compact_claim(Ms *ms, const char *worker_id, int64_t timeout_ms,
                     int64_t id, CombArena *a, MsCompaction *out,
                     bool *found, CombErr *err);
/* Record the compactor's txn and high watermark on working entry id
 * (CQ_TXN_ID, CQ_HIGHEST_WRITE_ID), before it writes anything, with a
 * TXN_COMPONENTS row of operation 'c' (Hive's): should the txn abort, it
 * stays known as aborted through housekeeping (else its _v directories
 * would read as committed once its TXNS row went) until the cleaner of a
 * later compaction removed them; ms_compact_finish as refused drops it. */
int ms_compact_set_txn(Ms *ms, int64_t id, int64_t txnid,
                       int64_t highest_writeid, CombErr *err);
/* (Addition.) Record how far working entry id got ("1200 rows, 3 of 8 MB
 * read (37%)"): SHOW COMPACTIONS and AND WAIT show it; it moves to the
 * history with the entry.  An entry no longer working is left alone. */
int ms_compact_progress(Ms *ms, int64_t id, const char *text, CombErr *err);
/* The compaction succeeded: commit its txn (as ms_txn_commit_excl), move
 * entry id to ready for cleaning with CQ_NEXT_TXN_ID = the next txn id
 * and CQ_COMMIT_TIME = now, in one metastore transaction.  COMB_ENOTFOUND
 * when the entry is not working under that txn any more (aborted, timed
 * out and claimed again): nothing changes and the txn stays open. */
int ms_compact_commit(Ms *ms, int64_t id, int64_t txnid, CombErr *err);
/* Move entry id to the history in a final state (succeeded, failed, did
 * not initiate, refused, aborted) with CC_END = now and error (may be
 * NULL); succeeded also removes the COMPLETED_TXN_COMPONENTS rows of the
 * partition up to its high watermark and the TXN_COMPONENTS rows of
 * aborted txns up to it (their files are gone), as Hive's markCleaned.
 * Then the partition's history is trimmed to the newest rows of each
 * final state that *keep allows (NULL: keep all).  A missing entry is
 * COMB_ENOTFOUND. */
int ms_compact_finish(Ms *ms, int64_t id, MsCompactState state,
                      const char *error, const MsCompactRetention *keep,
                      CombErr *err);
/* Queue and history by id (SHOW COMPACTIONS); ready_to_clean: only the
 * ready-for-cleaning entries whose CQ_NEXT_TXN_ID is at or below the
 * lowest open txn id (no txn that could read the old files is open), the
 * cleaner's work list. */
int ms_compact_list(Ms *ms, bool ready_to_clean, CombArena *a,
                    MsCompaction **rows, int *n, CombErr *err);
/* ABORT COMPACTIONS: each initiated entry of ids goes to the history as
 * aborted; done[i] says which did (others are working, finished or
 * unknown). */
int ms_compact_abort(Ms *ms, const int64_t *ids, int n, bool *done,
                     CombErr *err);
/* Display string of a state (SHOW COMPACTIONS): "initiated", "working",
 * "ready for cleaning", ... */
const char *ms_compact_state_name(MsCompactState s);

/* ---------------------------------------------------- timeouts, cleaning */

/* One housekeeping run (Hive's AcidHouseKeeperService with
 * AcidTxnCleanerService), unless another process ran one less than
 * cfg->interval_ms ago (AUX_TABLE row 'HouseKeeper'; only one process runs
 * at a time, in one metastore transaction):
 *  - open txns whose TXN_LAST_HEARTBEAT is older than txn_timeout_ms are
 *    aborted (reason MS_ABORT_TIMEOUT), releasing their locks;
 *  - with W = the lowest txn any open txn's snapshot may treat as open
 *    (min of open ids, MIN_HISTORY_LEVEL and NEXT_TXN_ID): WRITE_SET rows
 *    committed below W; TXN_TO_WRITE_ID rows of committed txns below W
 *    except each table's highest one (which keeps the write-id high
 *    watermark); COMPLETED_TXN_COMPONENTS rows below W that a newer row
 *    of the same table/partition supersedes; committed TXNS rows below W;
 *    aborted TXNS rows with no TXN_COMPONENTS and no TXN_TO_WRITE_ID row.
 * So the transaction tables stay small however many statements ran;
 * aborted txns that wrote data stay until compaction cleans them. */
int ms_housekeep(Ms *ms, const MsHousekeeping *cfg, MsHousekeepResult *out,
                 CombErr *err);

/* The background heartbeater of a process (ms_heartbeat.c): one thread with
 * its own metastore handle that heartbeats the txns added to it every
 * timeout / 2 and runs ms_housekeep when due.  The thread owns `own` (a
 * second handle on the same metastore: handles are one thread each). */
typedef struct MsHeartbeater MsHeartbeater;
int ms_heartbeater_start(Ms *own, MsHeartbeater **out, CombErr *err);
/* Settings the thread uses from its next round on (hive.txn.timeout,
 * metastore.acid.housekeeper.interval). */
void ms_heartbeater_configure(MsHeartbeater *hb, int64_t txn_timeout_ms,
                              int64_t housekeeping_interval_ms);
/* Heartbeat txnid from now on / no more.  add: COMB_ENOMEM only. */
int ms_heartbeater_add(MsHeartbeater *hb, int64_t txnid, CombErr *err);
void ms_heartbeater_remove(MsHeartbeater *hb, int64_t txnid);
/* Rounds completed (heartbeats sent and housekeeping tried), for tests. */
int64_t ms_heartbeater_rounds(MsHeartbeater *hb);
/* Start a round now instead of at the next due time (tests). */
void ms_heartbeater_kick(MsHeartbeater *hb);
/* Stop the thread and close its handle.  NULL ok. */
void ms_heartbeater_stop(MsHeartbeater *hb);
/* CREATE TABLE AS SELECT's commit: create table t (validated as
 * ms_table_create; an existing one is COMB_EEXISTS), add its n partitions
 * (as ms_part_add) and commit open txn txnid (as ms_txn_commit), all in
 * one metastore transaction, so the new table and the rows the txn wrote
 * into it appear together or not at all.  On any error nothing changed
 * and the txn is still open. */
int ms_txn_commit_create(Ms *ms, int64_t txnid, const MsTable *t,
                         const MsPartition *parts, int n, CombErr *err);

/* ----------------------------------------------------------- authorization */

/* Hive's SQL-standard authorization: roles, who holds them, and the
 * privileges users and roles hold on databases and tables.  (Hive keeps
 * these in ROLES, ROLE_MAP, DB_PRIVS and TBL_PRIVS; comb keeps ROLES and
 * one GRANTS table for the three others.)  The built-in roles admin and
 * public are not stored: ms_role_create refuses their names. */
typedef enum MsGrantObject {
    MS_GRANT_ROLE,       /* membership of role `role` */
    MS_GRANT_DATABASE,   /* a privilege on database `db` */
    MS_GRANT_TABLE       /* a privilege on table `db`.`table` */
} MsGrantObject;

typedef struct MsGrant {
    MsGrantObject object;
    char *db;               /* DATABASE, TABLE; else NULL */
    char *table;            /* TABLE; else NULL */
    char *role;             /* ROLE: the role held; else NULL */
    char *principal;        /* who holds it */
    bool principal_is_role; /* a role holds it (else a user) */
    char *privilege;        /* SELECT, INSERT, UPDATE or DELETE; NULL for
                               ROLE */
    bool grant_option;      /* WITH GRANT OPTION / WITH ADMIN OPTION */
    char *grantor;
    bool grantor_is_role;
    int64_t create_time;    /* seconds since the epoch (ms_grant_put sets
                               it) */
} MsGrant;

/* Make role `name` (owner: who made it).  COMB_EEXISTS "Role <r> already
 * exists." (also for admin and public). */
int ms_role_create(Ms *ms, const char *name, const char *owner, CombErr *err);
/* Drop role `name` with every grant of it and to it.  COMB_ENOTFOUND
 * "Role <r> does not exist"; COMB_EINVALID for admin and public. */
int ms_role_drop(Ms *ms, const char *name, CombErr *err);
/* The stored roles' names, sorted. */
int ms_role_list(Ms *ms, CombArena *a, char ***names, int *n, CombErr *err);
/* Record g (names lower-cased, create_time now).  Granting what is held
 * already: with a grant option not held before, the option is added;
 * else COMB_EEXISTS.  COMB_ENOTFOUND for a missing role, database or
 * table. */
int ms_grant_put(Ms *ms, const MsGrant *g, CombErr *err);
/* Remove the grant that matches g's object, principal and privilege (or
 * only its grant option, option_only).  COMB_ENOTFOUND when there is
 * none. */
int ms_grant_drop(Ms *ms, const MsGrant *g, bool option_only, CombErr *err);
/* Grants of object kind `object` matching the filter's non-NULL db,
 * table, role and principal (principal_is_role counts only with a
 * principal), ordered by db, table, role, principal, privilege. */
int ms_grant_list(Ms *ms, const MsGrant *filter, CombArena *a, MsGrant **out,
                  int *n, CombErr *err);

/* ------------------------------------------------ adopting existing data */

/* MSCK REPAIR of a transactional table (Hive 4's Msck): max_writeid is the
 * highest write id found in the table's (new partitions') base_, delta_
 * and delete_delta_ directory names.  If the table never had a write id
 * allocated, NEXT_WRITE_ID becomes max_writeid + 1, so every write id up to
 * max_writeid counts as committed in every later write-id list (Hive's
 * seedWriteId); if it had, max_writeid may not exceed the highest one
 * allocated (COMB_EINVALID "The maximum writeId <w> in table <t> is
 * greater than the maximum allocated in the metastore <m>"); else, and for
 * max_writeid <= 0, nothing changes.  COMB_ENOTFOUND for the table;
 * COMB_EINVALID for INT64_MAX, which leaves no id after it. */
int ms_writeid_seed(Ms *ms, const char *db, const char *table,
                    int64_t max_writeid, CombErr *err);
/* Make every txn id up to max_txnid (the highest _v<txnid> visibility
 * suffix found) count as committed and never be handed out again: the
 * next txn id becomes max_txnid + 1 if it is not above that already (Hive's
 * seedTxnId, without its error when the counter is already past).
 * COMB_EINVALID for INT64_MAX. */
int ms_txnid_seed(Ms *ms, int64_t max_txnid, CombErr *err);

#endif
