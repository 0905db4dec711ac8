/*
 * ms.h - the metastore: catalog (databases, tables and views, columns,
 * properties, partitions) and Hive's transaction machinery (TXNS,
 * NEXT_TXN_ID, TXN_TO_WRITE_ID, NEXT_WRITE_ID, TXN_COMPONENTS,
 * COMPLETED_TXN_COMPONENTS).  This header is
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
    int (*txn_add_partitions)(void *impl, int64_t txnid, const char *db,
                              const char *table, char *const *partitions,
                              int n, MsOpType op, int64_t writeid,
                              CombErr *err);
    int (*writeid_seed)(void *impl, const char *db, const char *table,
                        int64_t max_writeid, CombErr *err);
    int (*txnid_seed)(void *impl, int64_t max_txnid, CombErr *err);
} MsBackendOps;

struct Ms {
    const MsBackendOps *ops;
    void *impl;
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
