/*
 * ms_sqlite.c - the embedded metastore backend: one SQLite database file in
 * WAL mode that every comb process on the machine shares.  All of comb's
 * SQLite SQL lives in this file: the schema (SCHEMA_SQL) and the statement
 * table (sq_sql[]).  Statements are prepared once per handle and cached;
 * values are always bound, never spliced into SQL text.
 *
 * Concurrency: SQLite admits one writer at a time.  Every operation that
 * writes starts with BEGIN IMMEDIATE, which takes the write lock up front
 * (waiting in SQLite's busy handler up to SQ_BUSY_TIMEOUT_MS), so that a
 * read-modify-write such as the NEXT_TXN_ID increment cannot interleave
 * with another process and never fails on a lock upgrade.  Operations that
 * read several times use a deferred transaction, which in WAL mode sees one
 * consistent snapshot without blocking the writer.  Durable operations
 * (every catalog change, write-id allocation, a writing txn's commit) sync
 * the write-ahead log after their commit (sq_wal_sync): once
 * ms_txn_commit returns, the commit survives a power failure.
 *
 * A handle (one connection) is used by one thread at a time.
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SQ_BUSY_TIMEOUT_MS 30000

/* Bump with every schema change and add the step from the previous version
 * to schema_upgrade; ms_open_sqlite upgrades older files and refuses newer
 * ones. */
#define SQ_SCHEMA_VERSION "6"
#define SQ_VERSION_COMMENT "comb metastore (Hive 3.x transaction tables)"

/* Times come from the database clock, as in Hive. */
#define SQ_NOW_MS \
    "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
#define SQ_NOW_S "CAST(strftime('%s', 'now') AS INTEGER)"

/* ------------------------------------------------------------- schema */

/* TBLS's columns.  Hive's storage descriptor (SDS) and serde (SERDES)
 * fields are folded in; LOCATION is NULL for views.  Shared by the schema
 * and the version 1 upgrade, which rebuilds TBLS to drop its NOT NULL. */
#define SQ_TBLS_COLUMNS                                                 \
    "(TBL_ID INTEGER PRIMARY KEY,"                                      \
    "  DB_ID INTEGER NOT NULL REFERENCES DBS (DB_ID),"                  \
    "  TBL_NAME VARCHAR(256) NOT NULL,"                                 \
    "  TBL_TYPE VARCHAR(128) NOT NULL,"                                 \
    "  OWNER VARCHAR(767),"                                             \
    "  CREATE_TIME INTEGER NOT NULL,"                                   \
    "  LAST_ACCESS_TIME INTEGER NOT NULL DEFAULT 0,"                    \
    "  LOCATION VARCHAR(4000),"                                         \
    "  INPUT_FORMAT VARCHAR(4000),"                                     \
    "  OUTPUT_FORMAT VARCHAR(4000),"                                    \
    "  NUM_BUCKETS INTEGER NOT NULL DEFAULT -1,"                        \
    "  SLIB VARCHAR(4000),"                                             \
    "  VIEW_ORIGINAL_TEXT TEXT,"                                        \
    "  VIEW_EXPANDED_TEXT TEXT,"                                        \
    "  UNIQUE (DB_ID, TBL_NAME))"

/* The tables schema version 2 added: partition keys and partitions
 * (Hive's PARTITION_KEYS, PARTITIONS with the storage descriptor folded
 * in, PARTITION_KEY_VALS, PARTITION_PARAMS), serde parameters and sort
 * columns (keyed by table, where Hive keys them by SERDE_ID and SD_ID). */
#define SQ_SCHEMA_V2_TABLES                                             \
    "CREATE TABLE IF NOT EXISTS PARTITION_KEYS ("                       \
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"               \
    "  PKEY_NAME VARCHAR(128) NOT NULL,"                                \
    "  PKEY_TYPE VARCHAR(767) NOT NULL,"                                \
    "  PKEY_COMMENT VARCHAR(4000),"                                     \
    "  INTEGER_IDX INTEGER NOT NULL,"                                   \
    "  PRIMARY KEY (TBL_ID, PKEY_NAME));"                               \
    "CREATE TABLE IF NOT EXISTS PARTITIONS ("                           \
    "  PART_ID INTEGER PRIMARY KEY,"                                    \
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"               \
    "  PART_NAME VARCHAR(767) NOT NULL,"                                \
    "  CREATE_TIME INTEGER NOT NULL,"                                   \
    "  LAST_ACCESS_TIME INTEGER NOT NULL DEFAULT 0,"                    \
    "  LOCATION VARCHAR(4000) NOT NULL,"                                \
    "  INPUT_FORMAT VARCHAR(4000),"                                     \
    "  OUTPUT_FORMAT VARCHAR(4000),"                                    \
    "  SLIB VARCHAR(4000),"                                             \
    "  UNIQUE (TBL_ID, PART_NAME));"                                    \
    "CREATE TABLE IF NOT EXISTS PARTITION_KEY_VALS ("                   \
    "  PART_ID INTEGER NOT NULL REFERENCES PARTITIONS (PART_ID),"       \
    "  PART_KEY_VAL VARCHAR(256) NOT NULL,"                             \
    "  INTEGER_IDX INTEGER NOT NULL,"                                   \
    "  PRIMARY KEY (PART_ID, INTEGER_IDX));"                            \
    "CREATE TABLE IF NOT EXISTS PARTITION_PARAMS ("                     \
    "  PART_ID INTEGER NOT NULL REFERENCES PARTITIONS (PART_ID),"       \
    "  PARAM_KEY VARCHAR(256) NOT NULL,"                                \
    "  PARAM_VALUE TEXT,"                                               \
    "  PRIMARY KEY (PART_ID, PARAM_KEY));"                              \
    "CREATE TABLE IF NOT EXISTS SERDE_PARAMS ("                         \
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"               \
    "  PARAM_KEY VARCHAR(256) NOT NULL,"                                \
    "  PARAM_VALUE TEXT,"                                               \
    "  PRIMARY KEY (TBL_ID, PARAM_KEY));"                               \
    "CREATE TABLE IF NOT EXISTS SORT_COLS ("                            \
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"               \
    "  COLUMN_NAME VARCHAR(767) NOT NULL,"                              \
    "  \"ORDER\" INTEGER NOT NULL,"                                     \
    "  INTEGER_IDX INTEGER NOT NULL,"                                   \
    "  PRIMARY KEY (TBL_ID, INTEGER_IDX));"

/* The tables schema version 3 added: Hive's MIN_HISTORY_LEVEL (one row
 * per open txn: the lowest txn open when it started) and AUX_TABLE (named
 * mutexes; the housekeeper's last run).  No extra indexes: every index is
 * one more page in each commit's WAL frames, and housekeeping keeps the
 * tables it would scan small. */
#define SQ_SCHEMA_V3_TABLES                                             \
    "CREATE TABLE IF NOT EXISTS MIN_HISTORY_LEVEL ("                    \
    "  MHL_TXNID BIGINT PRIMARY KEY,"                                   \
    "  MHL_MIN_OPEN_TXNID BIGINT NOT NULL);"                            \
    "CREATE TABLE IF NOT EXISTS AUX_TABLE ("                            \
    "  MT_KEY1 VARCHAR(128) NOT NULL,"                                  \
    "  MT_KEY2 BIGINT NOT NULL,"                                        \
    "  MT_COMMENT VARCHAR(255),"                                        \
    "  PRIMARY KEY (MT_KEY1, MT_KEY2));"

/* The table schema version 4 added: Hive's KEY_CONSTRAINTS, with the
 * columns a DEFAULT constraint (CONSTRAINT_TYPE 4) uses; the column is
 * PARENT_INTEGER_IDX, its position in COLUMNS_V2 (Hive's index into the
 * column descriptor), and ENABLE_VALIDATE_RELY Hive's bit set (4 enable,
 * 2 validate, 1 rely). */
#define SQ_SCHEMA_V4_TABLES                                             \
    "CREATE TABLE IF NOT EXISTS KEY_CONSTRAINTS ("                      \
    "  PARENT_TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"        \
    "  CONSTRAINT_NAME VARCHAR(400) NOT NULL,"                          \
    "  POSITION BIGINT NOT NULL,"                                       \
    "  CONSTRAINT_TYPE SMALLINT NOT NULL,"                              \
    "  PARENT_INTEGER_IDX INTEGER NOT NULL,"                            \
    "  ENABLE_VALIDATE_RELY SMALLINT NOT NULL,"                         \
    "  DEFAULT_VALUE VARCHAR(400),"                                     \
    "  PRIMARY KEY (PARENT_TBL_ID, CONSTRAINT_NAME, POSITION));"

/* The table schema version 5 added: column statistics, Hive's
 * TAB_COL_STATS and PART_COL_STATS in one table keyed by table, partition
 * name ('' for the table's own) and column (ms.h, MsColStats). */
#define SQ_SCHEMA_V5_TABLES                                             \
    "CREATE TABLE IF NOT EXISTS COL_STATS ("                            \
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"               \
    "  PART_NAME VARCHAR(767) NOT NULL,"                                \
    "  COLUMN_NAME VARCHAR(767) NOT NULL,"                              \
    "  COLUMN_TYPE VARCHAR(128) NOT NULL,"                              \
    "  SOURCE VARCHAR(64) NOT NULL,"                                    \
    "  LOW_VALUE VARCHAR(4000),"                                        \
    "  HIGH_VALUE VARCHAR(4000),"                                       \
    "  NUM_NULLS BIGINT NOT NULL,"                                      \
    "  NUM_DISTINCTS BIGINT,"                                           \
    "  NUM_TRUES BIGINT,"                                               \
    "  NUM_FALSES BIGINT,"                                              \
    "  MAX_COL_LEN BIGINT,"                                             \
    "  AVG_COL_LEN DOUBLE,"                                             \
    "  BIT_VECTOR TEXT,"                                                \
    "  LAST_ANALYZED BIGINT NOT NULL,"                                  \
    "  PRIMARY KEY (TBL_ID, PART_NAME, COLUMN_NAME));"

/* Version 6: roles and grants (ms.h's authorization).  GRANTS names its
 * objects (not TBL_ID), so table drops and renames update it by name. */
#define SQ_SCHEMA_V6_TABLES                                             \
    "CREATE TABLE IF NOT EXISTS ROLES ("                                \
    "  ROLE_ID INTEGER PRIMARY KEY,"                                    \
    "  CREATE_TIME INTEGER NOT NULL,"                                   \
    "  OWNER_NAME VARCHAR(128),"                                        \
    "  ROLE_NAME VARCHAR(128) NOT NULL UNIQUE);"                        \
    "CREATE TABLE IF NOT EXISTS GRANTS ("                               \
    "  GRANT_ID INTEGER PRIMARY KEY,"                                   \
    "  OBJ_TYPE VARCHAR(16) NOT NULL,"                                  \
    "  DB_NAME VARCHAR(128) NOT NULL,"                                  \
    "  TBL_NAME VARCHAR(256) NOT NULL,"                                 \
    "  ROLE_NAME VARCHAR(128) NOT NULL,"                                \
    "  PRINCIPAL_NAME VARCHAR(128) NOT NULL,"                           \
    "  PRINCIPAL_TYPE VARCHAR(16) NOT NULL,"                            \
    "  PRIVILEGE VARCHAR(16) NOT NULL,"                                 \
    "  GRANT_OPTION INTEGER NOT NULL,"                                  \
    "  GRANTOR VARCHAR(128) NOT NULL,"                                  \
    "  GRANTOR_TYPE VARCHAR(16) NOT NULL,"                              \
    "  CREATE_TIME INTEGER NOT NULL,"                                   \
    "  UNIQUE (OBJ_TYPE, DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME,"  \
    "          PRINCIPAL_TYPE, PRIVILEGE));"

/* Hive's metastore tables and column names (3.1/4.0 derby schema, no
 * catalog column).  Simplified catalog: the storage descriptor (SDS),
 * serde (SERDES) and column descriptor (CDS) are folded into TBLS (and
 * PARTITIONS), so COLUMNS_V2, BUCKETING_COLS and the other children hang
 * off TBL_ID.  The table comment is the TABLE_PARAMS row 'comment', as in
 * Hive.  Every statement is idempotent: several processes may run this at
 * once on a fresh file. */
static const char SCHEMA_SQL[] =
    "CREATE TABLE IF NOT EXISTS VERSION ("
    "  VER_ID INTEGER PRIMARY KEY,"
    "  SCHEMA_VERSION VARCHAR(127) NOT NULL,"
    "  VERSION_COMMENT VARCHAR(255));"
    "INSERT OR IGNORE INTO VERSION VALUES (1, '" SQ_SCHEMA_VERSION "',"
    "  '" SQ_VERSION_COMMENT "');"

    /* ---- catalog */
    "CREATE TABLE IF NOT EXISTS DBS ("
    "  DB_ID INTEGER PRIMARY KEY,"
    "  NAME VARCHAR(128) NOT NULL UNIQUE,"
    "  \"DESC\" VARCHAR(4000),"
    "  DB_LOCATION_URI VARCHAR(4000) NOT NULL,"
    "  OWNER_NAME VARCHAR(128),"
    "  OWNER_TYPE VARCHAR(10),"
    "  CREATE_TIME INTEGER);"
    "CREATE TABLE IF NOT EXISTS TBLS " SQ_TBLS_COLUMNS ";"
    "CREATE TABLE IF NOT EXISTS COLUMNS_V2 ("
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"
    "  COLUMN_NAME VARCHAR(767) NOT NULL,"
    "  TYPE_NAME TEXT NOT NULL,"
    "  COMMENT VARCHAR(4000),"
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, COLUMN_NAME));"
    "CREATE TABLE IF NOT EXISTS TABLE_PARAMS ("
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"
    "  PARAM_KEY VARCHAR(256) NOT NULL,"
    "  PARAM_VALUE TEXT,"
    "  PRIMARY KEY (TBL_ID, PARAM_KEY));"
    "CREATE TABLE IF NOT EXISTS BUCKETING_COLS ("
    "  TBL_ID INTEGER NOT NULL REFERENCES TBLS (TBL_ID),"
    "  BUCKET_COL_NAME VARCHAR(256) NOT NULL,"
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, INTEGER_IDX));"
    SQ_SCHEMA_V2_TABLES

    /* ---- transactions (3.x id allocation through NEXT_TXN_ID) */
    "CREATE TABLE IF NOT EXISTS TXNS ("
    "  TXN_ID BIGINT PRIMARY KEY,"
    "  TXN_STATE CHAR(1) NOT NULL,"
    "  TXN_STARTED BIGINT NOT NULL,"
    "  TXN_LAST_HEARTBEAT BIGINT NOT NULL,"
    "  TXN_USER VARCHAR(128) NOT NULL,"
    "  TXN_HOST VARCHAR(128) NOT NULL,"
    "  TXN_AGENT_INFO VARCHAR(128),"
    "  TXN_META_INFO VARCHAR(128),"
    "  TXN_HEARTBEAT_COUNT INTEGER,"
    "  TXN_TYPE INTEGER);"
    /* committed rows stay, so snapshots look up the few others by state */
    "CREATE INDEX IF NOT EXISTS TXNS_STATE_IDX ON TXNS (TXN_STATE, TXN_ID);"
    "CREATE TABLE IF NOT EXISTS NEXT_TXN_ID (NTXN_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_TXN_ID SELECT 1"
    "  WHERE NOT EXISTS (SELECT 1 FROM NEXT_TXN_ID);"
    "CREATE TABLE IF NOT EXISTS TXN_COMPONENTS ("
    "  TC_TXNID BIGINT NOT NULL REFERENCES TXNS (TXN_ID),"
    "  TC_DATABASE VARCHAR(128) NOT NULL,"
    "  TC_TABLE VARCHAR(256),"
    "  TC_PARTITION VARCHAR(767),"
    "  TC_OPERATION_TYPE CHAR(1) NOT NULL,"
    "  TC_WRITEID BIGINT);"
    "CREATE INDEX IF NOT EXISTS TC_TXNID_INDEX ON TXN_COMPONENTS (TC_TXNID);"
    "CREATE TABLE IF NOT EXISTS COMPLETED_TXN_COMPONENTS ("
    "  CTC_TXNID BIGINT NOT NULL,"
    "  CTC_DATABASE VARCHAR(128) NOT NULL,"
    "  CTC_TABLE VARCHAR(256),"
    "  CTC_PARTITION VARCHAR(767),"
    "  CTC_TIMESTAMP BIGINT NOT NULL DEFAULT (" SQ_NOW_MS "),"
    "  CTC_WRITEID BIGINT,"
    "  CTC_UPDATE_DELETE CHAR(1) NOT NULL);"
    "CREATE INDEX IF NOT EXISTS COMPLETED_TXN_COMPONENTS_IDX"
    "  ON COMPLETED_TXN_COMPONENTS (CTC_DATABASE, CTC_TABLE, CTC_PARTITION);"
    "CREATE TABLE IF NOT EXISTS TXN_TO_WRITE_ID ("
    "  T2W_TXNID BIGINT NOT NULL,"
    "  T2W_DATABASE VARCHAR(128) NOT NULL,"
    "  T2W_TABLE VARCHAR(256) NOT NULL,"
    "  T2W_WRITEID BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS TBL_TO_TXN_ID_IDX"
    "  ON TXN_TO_WRITE_ID (T2W_DATABASE, T2W_TABLE, T2W_TXNID);"
    "CREATE UNIQUE INDEX IF NOT EXISTS TBL_TO_WRITE_ID_IDX"
    "  ON TXN_TO_WRITE_ID (T2W_DATABASE, T2W_TABLE, T2W_WRITEID);"
    "CREATE TABLE IF NOT EXISTS NEXT_WRITE_ID ("
    "  NWI_DATABASE VARCHAR(128) NOT NULL,"
    "  NWI_TABLE VARCHAR(256) NOT NULL,"
    "  NWI_NEXT BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS NEXT_WRITE_ID_IDX"
    "  ON NEXT_WRITE_ID (NWI_DATABASE, NWI_TABLE);"
    "CREATE TABLE IF NOT EXISTS WRITE_SET ("
    "  WS_DATABASE VARCHAR(128) NOT NULL,"
    "  WS_TABLE VARCHAR(256) NOT NULL,"
    "  WS_PARTITION VARCHAR(767),"
    "  WS_TXNID BIGINT NOT NULL,"
    "  WS_COMMIT_ID BIGINT NOT NULL,"
    "  WS_OPERATION_TYPE CHAR(1) NOT NULL);"

    /* ---- locks */
    "CREATE TABLE IF NOT EXISTS HIVE_LOCKS ("
    "  HL_LOCK_EXT_ID BIGINT NOT NULL,"
    "  HL_LOCK_INT_ID BIGINT NOT NULL,"
    "  HL_TXNID BIGINT NOT NULL,"
    "  HL_DB VARCHAR(128) NOT NULL,"
    "  HL_TABLE VARCHAR(256),"
    "  HL_PARTITION VARCHAR(767),"
    "  HL_LOCK_STATE CHAR(1) NOT NULL,"
    "  HL_LOCK_TYPE CHAR(1) NOT NULL,"
    "  HL_LAST_HEARTBEAT BIGINT NOT NULL,"
    "  HL_ACQUIRED_AT BIGINT,"
    "  HL_USER VARCHAR(128) NOT NULL,"
    "  HL_HOST VARCHAR(128) NOT NULL,"
    "  HL_HEARTBEAT_COUNT INTEGER,"
    "  HL_AGENT_INFO VARCHAR(128),"
    "  HL_BLOCKEDBY_EXT_ID BIGINT,"
    "  HL_BLOCKEDBY_INT_ID BIGINT,"
    "  PRIMARY KEY (HL_LOCK_EXT_ID, HL_LOCK_INT_ID));"
    "CREATE INDEX IF NOT EXISTS HL_TXNID_INDEX ON HIVE_LOCKS (HL_TXNID);"
    "CREATE TABLE IF NOT EXISTS NEXT_LOCK_ID (NL_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_LOCK_ID SELECT 1"
    "  WHERE NOT EXISTS (SELECT 1 FROM NEXT_LOCK_ID);"

    /* ---- compaction (4.x columns included for the compactor to come) */
    "CREATE TABLE IF NOT EXISTS COMPACTION_QUEUE ("
    "  CQ_ID BIGINT PRIMARY KEY,"
    "  CQ_DATABASE VARCHAR(128) NOT NULL,"
    "  CQ_TABLE VARCHAR(256) NOT NULL,"
    "  CQ_PARTITION VARCHAR(767),"
    "  CQ_STATE CHAR(1) NOT NULL,"
    "  CQ_TYPE CHAR(1) NOT NULL,"
    "  CQ_TBLPROPERTIES VARCHAR(2048),"
    "  CQ_WORKER_ID VARCHAR(128),"
    "  CQ_ENQUEUE_TIME BIGINT,"
    "  CQ_START BIGINT,"
    "  CQ_RUN_AS VARCHAR(128),"
    "  CQ_HIGHEST_WRITE_ID BIGINT,"
    "  CQ_META_INFO BLOB,"
    "  CQ_HADOOP_JOB_ID VARCHAR(32),"
    "  CQ_ERROR_MESSAGE TEXT,"
    "  CQ_NEXT_TXN_ID BIGINT,"
    "  CQ_TXN_ID BIGINT,"
    "  CQ_COMMIT_TIME BIGINT,"
    "  CQ_INITIATOR_ID VARCHAR(128),"
    "  CQ_INITIATOR_VERSION VARCHAR(128),"
    "  CQ_WORKER_VERSION VARCHAR(128),"
    "  CQ_CLEANER_START BIGINT,"
    "  CQ_RETRY_RETENTION BIGINT NOT NULL DEFAULT 0,"
    "  CQ_POOL_NAME VARCHAR(128),"
    "  CQ_NUMBER_OF_BUCKETS INTEGER,"
    "  CQ_ORDER_BY VARCHAR(4000));"
    "CREATE TABLE IF NOT EXISTS COMPLETED_COMPACTIONS ("
    "  CC_ID BIGINT PRIMARY KEY,"
    "  CC_DATABASE VARCHAR(128) NOT NULL,"
    "  CC_TABLE VARCHAR(256) NOT NULL,"
    "  CC_PARTITION VARCHAR(767),"
    "  CC_STATE CHAR(1) NOT NULL,"
    "  CC_TYPE CHAR(1) NOT NULL,"
    "  CC_TBLPROPERTIES VARCHAR(2048),"
    "  CC_WORKER_ID VARCHAR(128),"
    "  CC_ENQUEUE_TIME BIGINT,"
    "  CC_START BIGINT,"
    "  CC_END BIGINT,"
    "  CC_RUN_AS VARCHAR(128),"
    "  CC_HIGHEST_WRITE_ID BIGINT,"
    "  CC_META_INFO BLOB,"
    "  CC_HADOOP_JOB_ID VARCHAR(32),"
    "  CC_ERROR_MESSAGE TEXT,"
    "  CC_NEXT_TXN_ID BIGINT,"
    "  CC_TXN_ID BIGINT,"
    "  CC_COMMIT_TIME BIGINT,"
    "  CC_INITIATOR_ID VARCHAR(128),"
    "  CC_INITIATOR_VERSION VARCHAR(128),"
    "  CC_WORKER_VERSION VARCHAR(128),"
    "  CC_POOL_NAME VARCHAR(128),"
    "  CC_NUMBER_OF_BUCKETS INTEGER,"
    "  CC_ORDER_BY VARCHAR(4000));"
    "CREATE TABLE IF NOT EXISTS NEXT_COMPACTION_QUEUE_ID ("
    "  NCQ_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_COMPACTION_QUEUE_ID SELECT 1"
    "  WHERE NOT EXISTS (SELECT 1 FROM NEXT_COMPACTION_QUEUE_ID);"
    SQ_SCHEMA_V3_TABLES
    SQ_SCHEMA_V4_TABLES
    SQ_SCHEMA_V5_TABLES
    SQ_SCHEMA_V6_TABLES;

/* Version 1 (comb before partitions) to 2: TBLS rebuilt with a nullable
 * LOCATION and the view texts (SQLite cannot drop a NOT NULL in place), the
 * version 2 tables added.  Runs with foreign keys off, as SQLite's table
 * rebuild requires; the caller checks them before committing. */
static const char UPGRADE_V1_SQL[] =
    "CREATE TABLE TBLS_V2 " SQ_TBLS_COLUMNS ";"
    "INSERT INTO TBLS_V2 (TBL_ID, DB_ID, TBL_NAME, TBL_TYPE, OWNER,"
    "  CREATE_TIME, LAST_ACCESS_TIME, LOCATION, INPUT_FORMAT, OUTPUT_FORMAT,"
    "  NUM_BUCKETS, SLIB)"
    " SELECT TBL_ID, DB_ID, TBL_NAME, TBL_TYPE, OWNER, CREATE_TIME,"
    "  LAST_ACCESS_TIME, LOCATION, INPUT_FORMAT, OUTPUT_FORMAT, NUM_BUCKETS,"
    "  SLIB FROM TBLS;"
    "DROP TABLE TBLS;"
    "ALTER TABLE TBLS_V2 RENAME TO TBLS;"
    SQ_SCHEMA_V2_TABLES
    "UPDATE VERSION SET SCHEMA_VERSION = '2' WHERE VER_ID = 1;";

/* Version 2 to 3: the version 3 tables; every txn open in the file gets
 * its MIN_HISTORY_LEVEL row (the lowest open txn is a safe bound for
 * all). */
static const char UPGRADE_V2_SQL[] =
    SQ_SCHEMA_V3_TABLES
    "INSERT OR IGNORE INTO MIN_HISTORY_LEVEL (MHL_TXNID, MHL_MIN_OPEN_TXNID)"
    " SELECT TXN_ID, (SELECT MIN(TXN_ID) FROM TXNS WHERE TXN_STATE = 'o')"
    " FROM TXNS WHERE TXN_STATE = 'o';"
    "UPDATE VERSION SET SCHEMA_VERSION = '3' WHERE VER_ID = 1;";

/* Version 3 to 4: KEY_CONSTRAINTS (DEFAULT constraints). */
static const char UPGRADE_V3_SQL[] =
    SQ_SCHEMA_V4_TABLES
    "UPDATE VERSION SET SCHEMA_VERSION = '4' WHERE VER_ID = 1;";

/* Version 4 to 5: COL_STATS (column statistics). */
static const char UPGRADE_V4_SQL[] =
    SQ_SCHEMA_V5_TABLES
    "UPDATE VERSION SET SCHEMA_VERSION = '5' WHERE VER_ID = 1;";

/* Version 5 to 6: ROLES and GRANTS (authorization). */
static const char UPGRADE_V5_SQL[] =
    SQ_SCHEMA_V6_TABLES
    "UPDATE VERSION SET SCHEMA_VERSION = '6' WHERE VER_ID = 1;";

/* --------------------------------------------------------- statements */

typedef enum SqId {
    SQ_BEGIN,
    SQ_BEGIN_IMMEDIATE,
    SQ_COMMIT,
    SQ_ROLLBACK,
    SQ_JOURNAL_WAL,
    SQ_SCHEMA_PRESENT,
    SQ_VERSION_GET,
    SQ_FOREIGN_KEY_CHECK,
    /* catalog */
    SQ_DB_INSERT,
    SQ_DB_GET,
    SQ_DB_LIST,
    SQ_DB_HAS_TABLES,
    SQ_DB_DELETE,
    SQ_TABLE_INSERT,
    SQ_COLUMN_INSERT,
    SQ_DEFAULT_INSERT,
    SQ_PARAM_INSERT,
    SQ_BUCKET_INSERT,
    SQ_PKEY_INSERT,
    SQ_SORT_INSERT,
    SQ_SERDE_PARAM_INSERT,
    SQ_TABLE_GET,
    SQ_TABLE_ID,
    SQ_COLUMNS_GET,
    SQ_DEFAULTS_GET,
    SQ_PARAMS_GET,
    SQ_BUCKETS_GET,
    SQ_PKEYS_GET,
    SQ_SORTS_GET,
    SQ_SERDE_PARAMS_GET,
    SQ_TABLE_LIST,
    SQ_TABLE_UPDATE,
    SQ_TABLE_RENAME,
    SQ_PARTS_RELOCATE,
    /* dropping tables: (?1 db, ?2 table or NULL for all of the db).
     * drop_tables runs SQ_DROP_COLUMNS .. SQ_DROP_COMPLETED_COMPACTIONS in
     * this order, children before parents: the catalog rows, then the
     * transaction bookkeeping, so that a table re-created under the same
     * name starts again at write id 1.  The first ones, up to
     * SQ_DROP_PART_KEYS, are the table's definition, which ALTER replaces
     * whole. */
    SQ_DROP_COLUMNS,
    SQ_DROP_KEY_CONSTRAINTS,
    SQ_DROP_PARAMS,
    SQ_DROP_BUCKETS,
    SQ_DROP_SORT_COLS,
    SQ_DROP_SERDE_PARAMS,
    SQ_DROP_PART_KEYS,
    SQ_DROP_COL_STATS,
    SQ_DROP_GRANTS,
    SQ_DROP_PART_KEY_VALS,
    SQ_DROP_PART_PARAMS,
    SQ_DROP_PARTITIONS,
    SQ_DROP_TBLS,
    SQ_DROP_TXN_COMPONENTS,
    SQ_DROP_COMPLETED_COMPONENTS,
    SQ_DROP_TXN_TO_WRITE_ID,
    SQ_DROP_NEXT_WRITE_ID,
    SQ_DROP_WRITE_SET,
    SQ_DROP_COMPACTION_QUEUE,
    SQ_DROP_COMPLETED_COMPACTIONS,
    /* renaming a table in the transaction tables (?1 db, ?2 table -> ?3 new
     * db, ?4 new table), Hive's onRename; SQ_RENAME_TXN_COMPONENTS ..
     * SQ_RENAME_COMPLETED_COMPACTIONS run in order */
    SQ_RENAME_TXN_COMPONENTS,
    SQ_RENAME_COMPLETED_COMPONENTS,
    SQ_RENAME_TXN_TO_WRITE_ID,
    SQ_RENAME_NEXT_WRITE_ID,
    SQ_RENAME_WRITE_SET,
    SQ_RENAME_HIVE_LOCKS,
    SQ_RENAME_GRANTS,
    SQ_RENAME_COMPACTION_QUEUE,
    SQ_RENAME_COMPLETED_COMPACTIONS,
    /* partitions */
    SQ_PART_INSERT,
    SQ_PART_VAL_INSERT,
    SQ_PART_PARAM_INSERT,
    SQ_PART_ID,
    SQ_PARTS_GET,
    SQ_PART_VALS_GET,
    SQ_PART_PARAMS_GET,
    SQ_PART_SET_LOCATION,
    /* dropping one partition (?1 PART_ID), children first */
    SQ_PART_DELETE_VALS,
    SQ_PART_DELETE_COL_STATS,
    SQ_PART_DELETE_PARAMS,
    SQ_PART_DELETE,
    /* and its transaction rows (?1 db, ?2 table, ?3 partition name), Hive's
     * cleanupRecords for a partition */
    SQ_PART_CLEAN_TXN_COMPONENTS,
    SQ_PART_CLEAN_COMPLETED_COMPONENTS,
    SQ_PART_CLEAN_COMPACTION_QUEUE,
    SQ_PART_CLEAN_COMPLETED_COMPACTIONS,
    /* transactions */
    SQ_NEXT_TXN_GET,
    SQ_NEXT_TXN_SET,
    SQ_TXN_INSERT,
    SQ_TXN_GET,
    SQ_TXN_SET_STATE,
    SQ_TXN_NOT_COMMITTED,
    SQ_TC_COMPLETE,
    SQ_TC_DELETE,
    SQ_TC_INSERT,
    SQ_TC_DELETE_TABLE_LEVEL,
    SQ_LOCKS_DELETE,
    SQ_WS_CONFLICT,
    SQ_WS_INSERT,
    SQ_TXN_ABORT_REASON,
    SQ_TXN_COUNT_OPEN,
    SQ_MHL_INSERT,
    SQ_MHL_DELETE,
    SQ_TXN_LIST,
    SQ_TXN_HEARTBEAT,
    /* locks */
    SQ_NEXT_LOCK_GET,
    SQ_NEXT_LOCK_SET,
    SQ_LOCK_INSERT,
    SQ_LOCK_ROWS,
    SQ_LOCK_EARLIER,
    SQ_LOCK_BLOCKED,
    SQ_LOCK_ACQUIRE,
    SQ_LOCK_DELETE_EXT,
    SQ_UNLOCK_WAITING,
    SQ_LOCK_LIST,
    /* housekeeping */
    SQ_HK_DUE,
    SQ_HK_MARK,
    SQ_HK_TIMED_OUT,
    SQ_HK_WATERMARK,
    SQ_HK_WRITE_SET,
    SQ_HK_T2W,
    SQ_HK_CTC,
    SQ_HK_TXNS_COMMITTED,
    SQ_HK_TXNS_ABORTED,
    /* write ids */
    SQ_T2W_GET,
    SQ_T2W_INSERT,
    SQ_T2W_MAX_UNDER,
    SQ_T2W_UPTO,
    SQ_NWI_GET,
    SQ_NWI_SET,
    /* compaction queue and history */
    SQ_CQ_NEXT_ID_GET,
    SQ_CQ_NEXT_ID_SET,
    SQ_CQ_IN_WAY,
    SQ_CQ_INSERT,
    SQ_CQ_TIMED_OUT_TXNS,
    SQ_CQ_RESET_TIMED_OUT,
    SQ_CQ_PICK,
    SQ_CQ_CLAIM,
    SQ_CQ_GET,
    SQ_CQ_SET_TXN,
    SQ_CQ_PROGRESS,
    SQ_CQ_TC_INSERT,
    SQ_CQ_TC_DROP,
    SQ_CQ_READY,
    SQ_CQ_STATE,
    SQ_CQ_TO_HISTORY,
    SQ_CQ_DELETE,
    SQ_CQ_CLEAN_CTC,
    SQ_CQ_CLEAN_TC,
    SQ_CC_PURGE,
    SQ_CQ_LIST,
    SQ_CQ_READY_LIST,
    /* column statistics (?1 TBL_ID, ?2 partition name or '') */
    SQ_COLSTATS_PUT,
    SQ_COLSTATS_GET,
    /* authorization */
    SQ_ROLE_INSERT,
    SQ_ROLE_DELETE,
    SQ_ROLE_GRANTS_DELETE,
    SQ_ROLE_LIST,
    SQ_GRANT_INSERT,
    SQ_GRANT_SET_OPTION,
    SQ_GRANT_DELETE,
    SQ_GRANT_CLEAR_OPTION,
    SQ_GRANT_LIST,
    SQ_N_STATEMENTS
} SqId;

/* ?2 IS NULL selects every table of the database ?1 (DROP DATABASE
 * CASCADE); otherwise the one table ?2. */
#define SQ_TBL_IDS_OF                                                  \
    "(SELECT t.TBL_ID FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"     \
    " WHERE d.NAME = ?1 AND (?2 IS NULL OR t.TBL_NAME = ?2))"

/* A GRANTS row by its key (MS_GRANT_KEY_CELLS as ?1..?7). */
#define SQ_GRANT_KEY                                                    \
    "OBJ_TYPE = ?1 AND DB_NAME = ?2 AND TBL_NAME = ?3 AND ROLE_NAME = ?4" \
    " AND PRINCIPAL_NAME = ?5 AND PRINCIPAL_TYPE = ?6 AND PRIVILEGE = ?7"

static const char *const sq_sql[SQ_N_STATEMENTS] = {
    [SQ_BEGIN] = "BEGIN",
    [SQ_BEGIN_IMMEDIATE] = "BEGIN IMMEDIATE",
    [SQ_COMMIT] = "COMMIT",
    [SQ_ROLLBACK] = "ROLLBACK",
    [SQ_JOURNAL_WAL] = "PRAGMA journal_mode = WAL",
    [SQ_SCHEMA_PRESENT] =
        "SELECT count(*) FROM sqlite_master"
        " WHERE type = 'table' AND name = 'VERSION'",
    [SQ_VERSION_GET] = "SELECT SCHEMA_VERSION FROM VERSION WHERE VER_ID = 1",
    [SQ_COLSTATS_PUT] =
        "INSERT OR REPLACE INTO COL_STATS (TBL_ID, PART_NAME, "
        MS_COLSTATS_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
        " ?10, ?11, ?12, ?13, ?14, ?15)",
    /* MS_COLSTATS_COLUMNS, the average with every digit it was stored
     * with (SQLite's own text of a REAL keeps 15) */
    [SQ_COLSTATS_GET] =
        "SELECT COLUMN_NAME, COLUMN_TYPE, SOURCE, LOW_VALUE, HIGH_VALUE,"
        " NUM_NULLS, NUM_DISTINCTS, NUM_TRUES, NUM_FALSES, MAX_COL_LEN,"
        " iif(AVG_COL_LEN IS NULL, NULL, printf('%!.17g', AVG_COL_LEN)),"
        " BIT_VECTOR, LAST_ANALYZED FROM COL_STATS"
        " WHERE TBL_ID = ?1 AND PART_NAME = ?2 ORDER BY COLUMN_NAME",
    [SQ_FOREIGN_KEY_CHECK] = "PRAGMA foreign_key_check",
    [SQ_ROLE_INSERT] =
        "INSERT OR IGNORE INTO ROLES (ROLE_NAME, OWNER_NAME, CREATE_TIME)"
        " VALUES (?1, ?2, ?3)",
    [SQ_ROLE_DELETE] = "DELETE FROM ROLES WHERE ROLE_NAME = ?1",
    [SQ_ROLE_GRANTS_DELETE] =
        "DELETE FROM GRANTS WHERE (OBJ_TYPE = 'ROLE' AND ROLE_NAME = ?1)"
        " OR (PRINCIPAL_TYPE = 'ROLE' AND PRINCIPAL_NAME = ?1)",
    [SQ_ROLE_LIST] = "SELECT ROLE_NAME FROM ROLES ORDER BY ROLE_NAME",
    [SQ_GRANT_INSERT] =
        "INSERT OR IGNORE INTO GRANTS (" MS_GRANT_COLUMNS ") VALUES (?1, ?2,"
        " ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [SQ_GRANT_SET_OPTION] =
        "UPDATE GRANTS SET GRANT_OPTION = 1 WHERE " SQ_GRANT_KEY,
    [SQ_GRANT_DELETE] = "DELETE FROM GRANTS WHERE " SQ_GRANT_KEY,
    [SQ_GRANT_CLEAR_OPTION] =
        "UPDATE GRANTS SET GRANT_OPTION = 0 WHERE GRANT_OPTION = 1 AND "
        SQ_GRANT_KEY,
    [SQ_GRANT_LIST] =
        "SELECT " MS_GRANT_COLUMNS " FROM GRANTS"
        " WHERE (?1 = '' OR OBJ_TYPE = ?1) AND (?2 = '' OR DB_NAME = ?2)"
        " AND (?3 = '' OR TBL_NAME = ?3) AND (?4 = '' OR ROLE_NAME = ?4)"
        " AND (?5 = '' OR PRINCIPAL_NAME = ?5)"
        " AND (?6 = '' OR PRINCIPAL_TYPE = ?6)"
        " AND (?7 = '' OR PRIVILEGE = ?7)"
        " ORDER BY DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME, PRIVILEGE",

    [SQ_DB_INSERT] =
        "INSERT OR IGNORE INTO DBS (NAME, \"DESC\", DB_LOCATION_URI,"
        " OWNER_NAME, OWNER_TYPE, CREATE_TIME)"
        " VALUES (?1, ?2, ?3, ?4, ?5, " SQ_NOW_S ")",
    [SQ_DB_GET] =
        "SELECT DB_ID, NAME, DB_LOCATION_URI, \"DESC\", OWNER_NAME"
        " FROM DBS WHERE NAME = ?1",
    [SQ_DB_LIST] = "SELECT NAME FROM DBS ORDER BY NAME",
    [SQ_DB_HAS_TABLES] =
        "SELECT EXISTS (SELECT 1 FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        " WHERE d.NAME = ?1)",
    [SQ_DB_DELETE] = "DELETE FROM DBS WHERE NAME = ?1",
    [SQ_TABLE_INSERT] =
        "INSERT OR IGNORE INTO TBLS (DB_ID, TBL_NAME, TBL_TYPE, OWNER,"
        " CREATE_TIME, LOCATION, INPUT_FORMAT, OUTPUT_FORMAT, NUM_BUCKETS,"
        " SLIB, VIEW_ORIGINAL_TEXT, VIEW_EXPANDED_TEXT)"
        " VALUES (?1, ?2, ?3, ?4, COALESCE(?5, " SQ_NOW_S "), ?6, ?7, ?8,"
        " ?9, ?10, ?11, ?12)"
        " RETURNING TBL_ID",
    [SQ_COLUMN_INSERT] =
        "INSERT INTO COLUMNS_V2 (TBL_ID, COLUMN_NAME, TYPE_NAME, COMMENT,"
        " INTEGER_IDX) VALUES (?1, ?2, ?3, ?4, ?5)",
    /* a DEFAULT constraint: ?1 table, ?2 name, ?3 column position, ?4
     * value (enabled, not validated, no rely: Hive's defaults) */
    [SQ_DEFAULT_INSERT] =
        "INSERT INTO KEY_CONSTRAINTS (PARENT_TBL_ID, CONSTRAINT_NAME,"
        " POSITION, CONSTRAINT_TYPE, PARENT_INTEGER_IDX,"
        " ENABLE_VALIDATE_RELY, DEFAULT_VALUE)"
        " VALUES (?1, ?2, 1, " MS_CONSTRAINT_DEFAULT_S ", ?3, 4, ?4)",
    /* TBLPROPERTIES is a map: a repeated key keeps the last value */
    [SQ_PARAM_INSERT] =
        "INSERT OR REPLACE INTO TABLE_PARAMS (TBL_ID, PARAM_KEY, PARAM_VALUE)"
        " VALUES (?1, ?2, ?3)",
    [SQ_BUCKET_INSERT] =
        "INSERT INTO BUCKETING_COLS (TBL_ID, BUCKET_COL_NAME, INTEGER_IDX)"
        " VALUES (?1, ?2, ?3)",
    [SQ_PKEY_INSERT] =
        "INSERT INTO PARTITION_KEYS (TBL_ID, PKEY_NAME, PKEY_TYPE,"
        " PKEY_COMMENT, INTEGER_IDX) VALUES (?1, ?2, ?3, ?4, ?5)",
    [SQ_SORT_INSERT] =
        "INSERT INTO SORT_COLS (TBL_ID, COLUMN_NAME, \"ORDER\", INTEGER_IDX)"
        " VALUES (?1, ?2, ?3, ?4)",
    [SQ_SERDE_PARAM_INSERT] =
        "INSERT OR REPLACE INTO SERDE_PARAMS (TBL_ID, PARAM_KEY, PARAM_VALUE)"
        " VALUES (?1, ?2, ?3)",
    [SQ_TABLE_GET] =
        "SELECT t.TBL_ID, t.TBL_TYPE, t.OWNER, t.CREATE_TIME, t.LOCATION,"
        " t.INPUT_FORMAT, t.OUTPUT_FORMAT, t.SLIB, t.NUM_BUCKETS,"
        " t.VIEW_ORIGINAL_TEXT, t.VIEW_EXPANDED_TEXT"
        " FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        " WHERE d.NAME = ?1 AND t.TBL_NAME = ?2",
    [SQ_TABLE_ID] =
        "SELECT t.TBL_ID FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        " WHERE d.NAME = ?1 AND t.TBL_NAME = ?2",
    [SQ_COLUMNS_GET] =
        "SELECT COLUMN_NAME, TYPE_NAME, COMMENT FROM COLUMNS_V2"
        " WHERE TBL_ID = ?1 ORDER BY INTEGER_IDX",
    [SQ_DEFAULTS_GET] =
        "SELECT PARENT_INTEGER_IDX, CONSTRAINT_NAME, DEFAULT_VALUE"
        " FROM KEY_CONSTRAINTS WHERE PARENT_TBL_ID = ?1"
        " AND CONSTRAINT_TYPE = " MS_CONSTRAINT_DEFAULT_S
        " ORDER BY PARENT_INTEGER_IDX",
    [SQ_PARAMS_GET] =
        "SELECT PARAM_KEY, PARAM_VALUE FROM TABLE_PARAMS"
        " WHERE TBL_ID = ?1 ORDER BY PARAM_KEY",
    [SQ_BUCKETS_GET] =
        "SELECT BUCKET_COL_NAME FROM BUCKETING_COLS"
        " WHERE TBL_ID = ?1 ORDER BY INTEGER_IDX",
    [SQ_PKEYS_GET] =
        "SELECT PKEY_NAME, PKEY_TYPE, PKEY_COMMENT FROM PARTITION_KEYS"
        " WHERE TBL_ID = ?1 ORDER BY INTEGER_IDX",
    [SQ_SORTS_GET] =
        "SELECT COLUMN_NAME, \"ORDER\" FROM SORT_COLS"
        " WHERE TBL_ID = ?1 ORDER BY INTEGER_IDX",
    [SQ_SERDE_PARAMS_GET] =
        "SELECT PARAM_KEY, PARAM_VALUE FROM SERDE_PARAMS"
        " WHERE TBL_ID = ?1 ORDER BY PARAM_KEY",
    [SQ_TABLE_LIST] =
        "SELECT t.TBL_NAME FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        " WHERE d.NAME = ?1 ORDER BY t.TBL_NAME",
    [SQ_TABLE_UPDATE] =
        "UPDATE TBLS SET TBL_TYPE = ?2, OWNER = ?3, LOCATION = ?4,"
        " INPUT_FORMAT = ?5, OUTPUT_FORMAT = ?6, NUM_BUCKETS = ?7, SLIB = ?8,"
        " VIEW_ORIGINAL_TEXT = ?9, VIEW_EXPANDED_TEXT = ?10"
        " WHERE TBL_ID = ?1",
    [SQ_TABLE_RENAME] =
        "UPDATE TBLS SET DB_ID = ?2, TBL_NAME = ?3,"
        " LOCATION = COALESCE(?4, LOCATION) WHERE TBL_ID = ?1",
    /* partitions of table ?1 below the old location ?2 move below ?3 */
    [SQ_PARTS_RELOCATE] =
        "UPDATE PARTITIONS SET LOCATION = ?3 || substr(LOCATION, length(?2) + 1)"
        " WHERE TBL_ID = ?1"
        " AND substr(LOCATION, 1, length(?2) + 1) = ?2 || '/'",

    [SQ_DROP_COLUMNS] =
        "DELETE FROM COLUMNS_V2 WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_KEY_CONSTRAINTS] =
        "DELETE FROM KEY_CONSTRAINTS WHERE PARENT_TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_PARAMS] =
        "DELETE FROM TABLE_PARAMS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_BUCKETS] =
        "DELETE FROM BUCKETING_COLS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_SORT_COLS] =
        "DELETE FROM SORT_COLS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_SERDE_PARAMS] =
        "DELETE FROM SERDE_PARAMS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_PART_KEYS] =
        "DELETE FROM PARTITION_KEYS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_COL_STATS] =
        "DELETE FROM COL_STATS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    /* a dropped database's grants too (?2 NULL) */
    [SQ_DROP_GRANTS] =
        "DELETE FROM GRANTS WHERE OBJ_TYPE <> 'ROLE' AND DB_NAME = ?1"
        " AND (?2 IS NULL OR TBL_NAME = ?2)",
    [SQ_DROP_PART_KEY_VALS] =
        "DELETE FROM PARTITION_KEY_VALS WHERE PART_ID IN (SELECT PART_ID"
        " FROM PARTITIONS WHERE TBL_ID IN " SQ_TBL_IDS_OF ")",
    [SQ_DROP_PART_PARAMS] =
        "DELETE FROM PARTITION_PARAMS WHERE PART_ID IN (SELECT PART_ID"
        " FROM PARTITIONS WHERE TBL_ID IN " SQ_TBL_IDS_OF ")",
    [SQ_DROP_PARTITIONS] =
        "DELETE FROM PARTITIONS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_TBLS] = "DELETE FROM TBLS WHERE TBL_ID IN " SQ_TBL_IDS_OF,
    [SQ_DROP_TXN_COMPONENTS] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_DATABASE = ?1"
        " AND (?2 IS NULL OR TC_TABLE = ?2)",
    [SQ_DROP_COMPLETED_COMPONENTS] =
        "DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_DATABASE = ?1"
        " AND (?2 IS NULL OR CTC_TABLE = ?2)",
    [SQ_DROP_TXN_TO_WRITE_ID] =
        "DELETE FROM TXN_TO_WRITE_ID WHERE T2W_DATABASE = ?1"
        " AND (?2 IS NULL OR T2W_TABLE = ?2)",
    [SQ_DROP_NEXT_WRITE_ID] =
        "DELETE FROM NEXT_WRITE_ID WHERE NWI_DATABASE = ?1"
        " AND (?2 IS NULL OR NWI_TABLE = ?2)",
    [SQ_DROP_WRITE_SET] =
        "DELETE FROM WRITE_SET WHERE WS_DATABASE = ?1"
        " AND (?2 IS NULL OR WS_TABLE = ?2)",
    [SQ_DROP_COMPACTION_QUEUE] =
        "DELETE FROM COMPACTION_QUEUE WHERE CQ_DATABASE = ?1"
        " AND (?2 IS NULL OR CQ_TABLE = ?2)",
    [SQ_DROP_COMPLETED_COMPACTIONS] =
        "DELETE FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = ?1"
        " AND (?2 IS NULL OR CC_TABLE = ?2)",

    [SQ_RENAME_TXN_COMPONENTS] =
        "UPDATE TXN_COMPONENTS SET TC_DATABASE = ?3, TC_TABLE = ?4"
        " WHERE TC_DATABASE = ?1 AND TC_TABLE = ?2",
    [SQ_RENAME_COMPLETED_COMPONENTS] =
        "UPDATE COMPLETED_TXN_COMPONENTS SET CTC_DATABASE = ?3,"
        " CTC_TABLE = ?4 WHERE CTC_DATABASE = ?1 AND CTC_TABLE = ?2",
    [SQ_RENAME_TXN_TO_WRITE_ID] =
        "UPDATE TXN_TO_WRITE_ID SET T2W_DATABASE = ?3, T2W_TABLE = ?4"
        " WHERE T2W_DATABASE = ?1 AND T2W_TABLE = ?2",
    [SQ_RENAME_NEXT_WRITE_ID] =
        "UPDATE NEXT_WRITE_ID SET NWI_DATABASE = ?3, NWI_TABLE = ?4"
        " WHERE NWI_DATABASE = ?1 AND NWI_TABLE = ?2",
    [SQ_RENAME_WRITE_SET] =
        "UPDATE WRITE_SET SET WS_DATABASE = ?3, WS_TABLE = ?4"
        " WHERE WS_DATABASE = ?1 AND WS_TABLE = ?2",
    [SQ_RENAME_HIVE_LOCKS] =
        "UPDATE HIVE_LOCKS SET HL_DB = ?3, HL_TABLE = ?4"
        " WHERE HL_DB = ?1 AND HL_TABLE = ?2",
    [SQ_RENAME_GRANTS] =
        "UPDATE GRANTS SET DB_NAME = ?3, TBL_NAME = ?4"
        " WHERE OBJ_TYPE = 'TABLE' AND DB_NAME = ?1 AND TBL_NAME = ?2",
    [SQ_RENAME_COMPACTION_QUEUE] =
        "UPDATE COMPACTION_QUEUE SET CQ_DATABASE = ?3, CQ_TABLE = ?4"
        " WHERE CQ_DATABASE = ?1 AND CQ_TABLE = ?2",
    [SQ_RENAME_COMPLETED_COMPACTIONS] =
        "UPDATE COMPLETED_COMPACTIONS SET CC_DATABASE = ?3, CC_TABLE = ?4"
        " WHERE CC_DATABASE = ?1 AND CC_TABLE = ?2",

    /* a name taken already: no row back */
    [SQ_PART_INSERT] =
        "INSERT OR IGNORE INTO PARTITIONS (TBL_ID, PART_NAME, CREATE_TIME,"
        " LOCATION, INPUT_FORMAT, OUTPUT_FORMAT, SLIB)"
        " VALUES (?1, ?2, COALESCE(?3, " SQ_NOW_S "), ?4, ?5, ?6, ?7)"
        " RETURNING PART_ID",
    [SQ_PART_VAL_INSERT] =
        "INSERT INTO PARTITION_KEY_VALS (PART_ID, PART_KEY_VAL, INTEGER_IDX)"
        " VALUES (?1, ?2, ?3)",
    [SQ_PART_PARAM_INSERT] =
        "INSERT OR REPLACE INTO PARTITION_PARAMS (PART_ID, PARAM_KEY,"
        " PARAM_VALUE) VALUES (?1, ?2, ?3)",
    [SQ_PART_ID] =
        "SELECT PART_ID FROM PARTITIONS WHERE TBL_ID = ?1 AND PART_NAME = ?2",
    /* the partitions of table ?1 (only ?2 unless NULL) and their children,
     * each in name order, so that rows line up by PART_ID */
    [SQ_PARTS_GET] =
        "SELECT PART_ID, PART_NAME, CREATE_TIME, LOCATION, INPUT_FORMAT,"
        " OUTPUT_FORMAT, SLIB FROM PARTITIONS"
        " WHERE TBL_ID = ?1 AND (?2 IS NULL OR PART_NAME = ?2)"
        " ORDER BY PART_NAME",
    [SQ_PART_VALS_GET] =
        "SELECT v.PART_ID, v.PART_KEY_VAL FROM PARTITION_KEY_VALS v"
        " JOIN PARTITIONS p ON p.PART_ID = v.PART_ID"
        " WHERE p.TBL_ID = ?1 AND (?2 IS NULL OR p.PART_NAME = ?2)"
        " ORDER BY p.PART_NAME, v.INTEGER_IDX",
    [SQ_PART_PARAMS_GET] =
        "SELECT pp.PART_ID, pp.PARAM_KEY, pp.PARAM_VALUE"
        " FROM PARTITION_PARAMS pp JOIN PARTITIONS p ON p.PART_ID = pp.PART_ID"
        " WHERE p.TBL_ID = ?1 AND (?2 IS NULL OR p.PART_NAME = ?2)"
        " ORDER BY p.PART_NAME, pp.PARAM_KEY",
    [SQ_PART_SET_LOCATION] =
        "UPDATE PARTITIONS SET LOCATION = ?3"
        " WHERE TBL_ID = ?1 AND PART_NAME = ?2",
    [SQ_PART_DELETE_VALS] = "DELETE FROM PARTITION_KEY_VALS WHERE PART_ID = ?1",
    [SQ_PART_DELETE_COL_STATS] =
        "DELETE FROM COL_STATS WHERE (TBL_ID, PART_NAME) IN"
        " (SELECT TBL_ID, PART_NAME FROM PARTITIONS WHERE PART_ID = ?1)",
    [SQ_PART_DELETE_PARAMS] =
        "DELETE FROM PARTITION_PARAMS WHERE PART_ID = ?1",
    [SQ_PART_DELETE] = "DELETE FROM PARTITIONS WHERE PART_ID = ?1",
    [SQ_PART_CLEAN_TXN_COMPONENTS] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_DATABASE = ?1"
        " AND TC_TABLE = ?2 AND TC_PARTITION = ?3",
    [SQ_PART_CLEAN_COMPLETED_COMPONENTS] =
        "DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_DATABASE = ?1"
        " AND CTC_TABLE = ?2 AND CTC_PARTITION = ?3",
    [SQ_PART_CLEAN_COMPACTION_QUEUE] =
        "DELETE FROM COMPACTION_QUEUE WHERE CQ_DATABASE = ?1"
        " AND CQ_TABLE = ?2 AND CQ_PARTITION = ?3",
    [SQ_PART_CLEAN_COMPLETED_COMPACTIONS] =
        "DELETE FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = ?1"
        " AND CC_TABLE = ?2 AND CC_PARTITION = ?3",

    [SQ_NEXT_TXN_GET] = "SELECT NTXN_NEXT FROM NEXT_TXN_ID",
    [SQ_NEXT_TXN_SET] = "UPDATE NEXT_TXN_ID SET NTXN_NEXT = ?1",
    [SQ_TXN_INSERT] =
        "INSERT INTO TXNS (TXN_ID, TXN_STATE, TXN_STARTED, TXN_LAST_HEARTBEAT,"
        " TXN_USER, TXN_HOST, TXN_HEARTBEAT_COUNT, TXN_TYPE)"
        " VALUES (?1, 'o', " SQ_NOW_MS ", " SQ_NOW_MS ", ?2, ?3, 0, ?4)",
    /* whether it has components: a commit without any has no write set
     * to check or move */
    [SQ_TXN_GET] =
        "SELECT TXN_STATE, TXN_TYPE, TXN_META_INFO, EXISTS (SELECT 1"
        " FROM TXN_COMPONENTS WHERE TC_TXNID = ?1) FROM TXNS WHERE TXN_ID = ?1",
    [SQ_TXN_SET_STATE] =
        "UPDATE TXNS SET TXN_STATE = ?2 WHERE TXN_ID = ?1 AND TXN_STATE = 'o'",
    /* read-only txns write nothing: never an exception (Hive leaves them
     * out of getOpenTxns).  One index range per state, each in id order,
     * merged by txn_rows_sort: an IN list or an ORDER BY would build and
     * free a temporary b-tree for every snapshot */
    [SQ_TXN_NOT_COMMITTED] =
        "SELECT TXN_ID, TXN_STATE FROM TXNS WHERE TXN_STATE = 'a'"
        " AND TXN_TYPE IS NOT 2 UNION ALL"
        " SELECT TXN_ID, TXN_STATE FROM TXNS WHERE TXN_STATE = 'o'"
        " AND TXN_TYPE IS NOT 2",
    /* 'Y' on every row when the txn updated or deleted anything */
    [SQ_TC_COMPLETE] =
        "INSERT INTO COMPLETED_TXN_COMPONENTS (CTC_TXNID, CTC_DATABASE,"
        " CTC_TABLE, CTC_PARTITION, CTC_TIMESTAMP, CTC_WRITEID,"
        " CTC_UPDATE_DELETE)"
        " SELECT TC_TXNID, TC_DATABASE, TC_TABLE, TC_PARTITION, " SQ_NOW_MS
        ", TC_WRITEID,"
        " CASE WHEN EXISTS (SELECT 1 FROM TXN_COMPONENTS"
        "   WHERE TC_TXNID = ?1 AND TC_OPERATION_TYPE IN ('u', 'd'))"
        "  THEN 'Y' ELSE 'N' END"
        " FROM TXN_COMPONENTS"
        " WHERE TC_TXNID = ?1 AND TC_OPERATION_TYPE <> 'c'",
    [SQ_TC_DELETE] = "DELETE FROM TXN_COMPONENTS WHERE TC_TXNID = ?1",
    /* a multi-statement txn reports the same write more than once */
    [SQ_TC_INSERT] =
        "INSERT INTO TXN_COMPONENTS (TC_TXNID, TC_DATABASE, TC_TABLE,"
        " TC_PARTITION, TC_OPERATION_TYPE, TC_WRITEID)"
        " SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1"
        "  FROM TXN_COMPONENTS WHERE TC_TXNID = ?1 AND TC_DATABASE = ?2"
        "  AND TC_TABLE IS ?3 AND TC_PARTITION IS ?4"
        "  AND TC_OPERATION_TYPE = ?5 AND TC_WRITEID IS ?6)",
    /* a dynamic-partition write recorded table-level before its
     * partitions were known (Hive's addDynamicPartitions) */
    [SQ_TC_DELETE_TABLE_LEVEL] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_TXNID = ?1 AND TC_DATABASE = ?2"
        " AND TC_TABLE = ?3 AND TC_PARTITION IS NULL",
    [SQ_LOCKS_DELETE] = "DELETE FROM HIVE_LOCKS WHERE HL_TXNID = ?1",
    /* first committer wins (hive-acid-transactions.md 2.4): a txn that
     * updated or deleted conflicts with an update/delete of the same table
     * (or partition) committed after it started, i.e. whose commit id is
     * >= its own txn id */
    [SQ_WS_CONFLICT] =
        "SELECT X.WS_TXNID, X.WS_COMMIT_ID, C.TC_DATABASE, C.TC_TABLE,"
        " C.TC_PARTITION, C.TC_OPERATION_TYPE, X.WS_OPERATION_TYPE"
        " FROM TXN_COMPONENTS C JOIN WRITE_SET X"
        "  ON X.WS_DATABASE = C.TC_DATABASE AND X.WS_TABLE = C.TC_TABLE"
        "  AND X.WS_PARTITION IS C.TC_PARTITION"
        " WHERE C.TC_TXNID = ?1 AND C.TC_OPERATION_TYPE IN ('u', 'd')"
        "  AND X.WS_TXNID <> ?1 AND X.WS_COMMIT_ID >= ?1"
        "  AND X.WS_OPERATION_TYPE IN ('u', 'd')"
        " LIMIT 1",
    [SQ_WS_INSERT] =
        "INSERT INTO WRITE_SET (WS_DATABASE, WS_TABLE, WS_PARTITION,"
        " WS_TXNID, WS_COMMIT_ID, WS_OPERATION_TYPE)"
        " SELECT DISTINCT TC_DATABASE, TC_TABLE, TC_PARTITION, ?1, ?2,"
        " TC_OPERATION_TYPE FROM TXN_COMPONENTS"
        " WHERE TC_TXNID = ?1 AND TC_OPERATION_TYPE IN ('u', 'd')",
    /* TXN_LAST_HEARTBEAT becomes the time of the abort: an aborted txn
     * that wrote nothing is kept one time-out longer (SQ_HK_TXNS_ABORTED),
     * so that its owner, if alive, still learns why */
    [SQ_TXN_ABORT_REASON] =
        "UPDATE TXNS SET TXN_STATE = 'a', TXN_META_INFO = substr(?2, 1, 128),"
        " TXN_LAST_HEARTBEAT = " SQ_NOW_MS
        " WHERE TXN_ID = ?1 AND TXN_STATE = 'o'",
    /* counting stops at the limit: cheap however many are open */
    [SQ_TXN_COUNT_OPEN] =
        "SELECT count(*) FROM (SELECT 1 FROM TXNS WHERE TXN_STATE = 'o'"
        " LIMIT ?1)",
    /* run after the txn's own TXNS row is in: the minimum includes it.
     * Only a txn that started while an older one was open gets a row: for
     * any other the minimum is itself, and its own open TXNS row already
     * holds the housekeeping watermark there (SQ_HK_WATERMARK), so the
     * row would only cost two more pages in the open's and the commit's
     * log frames */
    [SQ_MHL_INSERT] =
        "INSERT INTO MIN_HISTORY_LEVEL (MHL_TXNID, MHL_MIN_OPEN_TXNID)"
        " SELECT ?1, m FROM (SELECT MIN(TXN_ID) AS m FROM TXNS"
        "  WHERE TXN_STATE = 'o') WHERE m < ?1",
    [SQ_MHL_DELETE] = "DELETE FROM MIN_HISTORY_LEVEL WHERE MHL_TXNID = ?1",
    [SQ_TXN_LIST] =
        "SELECT TXN_ID, TXN_STATE, TXN_TYPE, TXN_STARTED, TXN_LAST_HEARTBEAT,"
        " TXN_USER, TXN_HOST, TXN_META_INFO FROM TXNS"
        " WHERE TXN_STATE IN ('o', 'a') ORDER BY TXN_ID",
    [SQ_TXN_HEARTBEAT] =
        "UPDATE TXNS SET TXN_LAST_HEARTBEAT = " SQ_NOW_MS ","
        " TXN_HEARTBEAT_COUNT = COALESCE(TXN_HEARTBEAT_COUNT, 0) + 1"
        " WHERE TXN_ID = ?1 AND TXN_STATE = 'o'",

    [SQ_NEXT_LOCK_GET] = "SELECT NL_NEXT FROM NEXT_LOCK_ID",
    [SQ_NEXT_LOCK_SET] = "UPDATE NEXT_LOCK_ID SET NL_NEXT = ?1",
    [SQ_LOCK_INSERT] =
        "INSERT INTO HIVE_LOCKS (HL_LOCK_EXT_ID, HL_LOCK_INT_ID, HL_TXNID,"
        " HL_DB, HL_TABLE, HL_PARTITION, HL_LOCK_STATE, HL_LOCK_TYPE,"
        " HL_LAST_HEARTBEAT, HL_USER, HL_HOST, HL_HEARTBEAT_COUNT,"
        " HL_AGENT_INFO)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'w', ?7, 0, ?8, ?9, 0, ?10)",
/* the columns of SQ_LOCK_ROWS, SQ_LOCK_EARLIER and SQ_LOCK_LIST, in the
 * order lock_row_of reads them */
#define SQ_LOCK_COLUMNS                                                 \
    "HL_LOCK_EXT_ID, HL_LOCK_INT_ID, HL_TXNID, HL_DB, HL_TABLE,"        \
    " HL_PARTITION, HL_LOCK_STATE, HL_LOCK_TYPE, HL_LAST_HEARTBEAT,"    \
    " HL_ACQUIRED_AT, HL_USER, HL_HOST, HL_AGENT_INFO,"                 \
    " HL_BLOCKEDBY_EXT_ID, HL_BLOCKEDBY_INT_ID"
    [SQ_LOCK_ROWS] =
        "SELECT " SQ_LOCK_COLUMNS " FROM HIVE_LOCKS"
        " WHERE HL_LOCK_EXT_ID = ?1 ORDER BY HL_LOCK_INT_ID",
    /* what may block request ?1 of txn ?2: earlier requests of other txns
     * in the same databases, in queue order */
    [SQ_LOCK_EARLIER] =
        "SELECT " SQ_LOCK_COLUMNS " FROM HIVE_LOCKS"
        " WHERE HL_LOCK_EXT_ID < ?1 AND HL_TXNID <> ?2"
        " AND EXISTS (SELECT 1 FROM HIVE_LOCKS r WHERE r.HL_LOCK_EXT_ID = ?1"
        "  AND r.HL_DB = HIVE_LOCKS.HL_DB)" /* not IN: no temporary table */
        " ORDER BY HL_LOCK_EXT_ID, HL_LOCK_INT_ID",
    [SQ_LOCK_BLOCKED] =
        "UPDATE HIVE_LOCKS SET HL_BLOCKEDBY_EXT_ID = ?3,"
        " HL_BLOCKEDBY_INT_ID = ?4"
        " WHERE HL_LOCK_EXT_ID = ?1 AND HL_LOCK_INT_ID = ?2",
    [SQ_LOCK_ACQUIRE] =
        "UPDATE HIVE_LOCKS SET HL_LOCK_STATE = 'a', HL_ACQUIRED_AT = "
        SQ_NOW_MS ", HL_BLOCKEDBY_EXT_ID = NULL, HL_BLOCKEDBY_INT_ID = NULL"
        " WHERE HL_LOCK_EXT_ID = ?1",
    [SQ_LOCK_DELETE_EXT] = "DELETE FROM HIVE_LOCKS WHERE HL_LOCK_EXT_ID = ?1",
    [SQ_UNLOCK_WAITING] =
        "DELETE FROM HIVE_LOCKS WHERE HL_LOCK_EXT_ID = ?1"
        " AND HL_LOCK_STATE = 'w'",
    [SQ_LOCK_LIST] =
        "SELECT " SQ_LOCK_COLUMNS " FROM HIVE_LOCKS"
        " WHERE (?1 IS NULL OR HL_DB = ?1) AND (?2 IS NULL OR HL_TABLE = ?2)"
        " AND (?3 IS NULL OR HL_PARTITION = ?3)"
        " ORDER BY HL_LOCK_EXT_ID, HL_LOCK_INT_ID",

    /* due when no run is recorded or the last one is ?1 ms old */
    [SQ_HK_DUE] =
        "SELECT ?1 <= 0 OR " SQ_NOW_MS " - COALESCE((SELECT CAST(MT_COMMENT"
        " AS INTEGER) FROM AUX_TABLE WHERE MT_KEY1 = 'HouseKeeper'"
        " AND MT_KEY2 = 0), 0) >= ?1",
    [SQ_HK_MARK] =
        "INSERT OR REPLACE INTO AUX_TABLE (MT_KEY1, MT_KEY2, MT_COMMENT)"
        " VALUES ('HouseKeeper', 0, CAST(" SQ_NOW_MS " AS TEXT))",
    [SQ_HK_TIMED_OUT] =
        "SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'o'"
        " AND TXN_LAST_HEARTBEAT < " SQ_NOW_MS " - ?1 ORDER BY TXN_ID",
    /* the lowest txn an open txn's snapshot may hold as open */
    [SQ_HK_WATERMARK] =
        "SELECT MIN(w) FROM (SELECT MIN(TXN_ID) AS w FROM TXNS"
        " WHERE TXN_STATE = 'o'"
        " UNION ALL SELECT MIN(MHL_MIN_OPEN_TXNID) FROM MIN_HISTORY_LEVEL"
        " UNION ALL SELECT NTXN_NEXT FROM NEXT_TXN_ID)",
    [SQ_HK_WRITE_SET] = "DELETE FROM WRITE_SET WHERE WS_COMMIT_ID < ?1",
    /* committed rows below the watermark but each table's highest, which
     * keeps the write-id high watermark of every later snapshot */
    [SQ_HK_T2W] =
        "DELETE FROM TXN_TO_WRITE_ID WHERE T2W_TXNID < ?1"
        " AND T2W_TXNID NOT IN (SELECT TXN_ID FROM TXNS"
        "  WHERE TXN_STATE = 'a')"
        " AND T2W_WRITEID < (SELECT MAX(k.T2W_WRITEID) FROM TXN_TO_WRITE_ID k"
        "  WHERE k.T2W_DATABASE = TXN_TO_WRITE_ID.T2W_DATABASE"
        "  AND k.T2W_TABLE = TXN_TO_WRITE_ID.T2W_TABLE AND k.T2W_TXNID < ?1"
        "  AND k.T2W_TXNID NOT IN (SELECT TXN_ID FROM TXNS"
        "   WHERE TXN_STATE = 'a'))",
    [SQ_HK_CTC] =
        "DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_WRITEID < (SELECT"
        " MAX(k.CTC_WRITEID) FROM COMPLETED_TXN_COMPONENTS k"
        " WHERE k.CTC_DATABASE = COMPLETED_TXN_COMPONENTS.CTC_DATABASE"
        " AND k.CTC_TABLE IS COMPLETED_TXN_COMPONENTS.CTC_TABLE"
        " AND k.CTC_PARTITION IS COMPLETED_TXN_COMPONENTS.CTC_PARTITION)",
    [SQ_HK_TXNS_COMMITTED] =
        "DELETE FROM TXNS WHERE TXN_STATE = 'c' AND TXN_ID < ?1",
    [SQ_HK_TXNS_ABORTED] =
        "DELETE FROM TXNS WHERE TXN_STATE = 'a'"
        " AND TXN_LAST_HEARTBEAT < " SQ_NOW_MS " - ?1"
        " AND NOT EXISTS (SELECT 1 FROM TXN_COMPONENTS WHERE TC_TXNID = TXN_ID)"
        " AND NOT EXISTS (SELECT 1 FROM TXN_TO_WRITE_ID"
        "  WHERE T2W_TXNID = TXN_ID)",

    [SQ_T2W_GET] =
        "SELECT T2W_WRITEID FROM TXN_TO_WRITE_ID"
        " WHERE T2W_DATABASE = ?1 AND T2W_TABLE = ?2 AND T2W_TXNID = ?3",
    [SQ_T2W_INSERT] =
        "INSERT INTO TXN_TO_WRITE_ID (T2W_TXNID, T2W_DATABASE, T2W_TABLE,"
        " T2W_WRITEID) VALUES (?3, ?1, ?2, ?4)",
    [SQ_T2W_MAX_UNDER] =
        "SELECT MAX(T2W_WRITEID) FROM TXN_TO_WRITE_ID"
        " WHERE T2W_DATABASE = ?1 AND T2W_TABLE = ?2 AND T2W_TXNID <= ?3",
    [SQ_T2W_UPTO] =
        "SELECT T2W_TXNID, T2W_WRITEID FROM TXN_TO_WRITE_ID"
        " WHERE T2W_DATABASE = ?1 AND T2W_TABLE = ?2 AND T2W_WRITEID <= ?3"
        " ORDER BY T2W_WRITEID",
    [SQ_NWI_GET] =
        "SELECT NWI_NEXT FROM NEXT_WRITE_ID"
        " WHERE NWI_DATABASE = ?1 AND NWI_TABLE = ?2",
    [SQ_NWI_SET] =
        "INSERT INTO NEXT_WRITE_ID (NWI_DATABASE, NWI_TABLE, NWI_NEXT)"
        " VALUES (?1, ?2, ?3) ON CONFLICT (NWI_DATABASE, NWI_TABLE)"
        " DO UPDATE SET NWI_NEXT = excluded.NWI_NEXT",
    /* compaction: the queue's columns as ms_compact_list reads them */
#define SQ_CQ_COLUMNS                                                   \
    "CQ_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, CQ_STATE, CQ_TYPE,"    \
    " CQ_TBLPROPERTIES, CQ_WORKER_ID, CQ_ENQUEUE_TIME, CQ_START, NULL," \
    " CQ_HIGHEST_WRITE_ID, CQ_TXN_ID, CQ_NEXT_TXN_ID, CQ_COMMIT_TIME,"  \
    " CQ_ERROR_MESSAGE, CQ_INITIATOR_ID, CAST(CQ_META_INFO AS TEXT)"
#define SQ_CC_COLUMNS                                                   \
    "CC_ID, CC_DATABASE, CC_TABLE, CC_PARTITION, CC_STATE, CC_TYPE,"    \
    " CC_TBLPROPERTIES, CC_WORKER_ID, CC_ENQUEUE_TIME, CC_START, CC_END," \
    " CC_HIGHEST_WRITE_ID, CC_TXN_ID, CC_NEXT_TXN_ID, CC_COMMIT_TIME,"  \
    " CC_ERROR_MESSAGE, CC_INITIATOR_ID, CAST(CC_META_INFO AS TEXT)"
    [SQ_CQ_NEXT_ID_GET] = "SELECT NCQ_NEXT FROM NEXT_COMPACTION_QUEUE_ID",
    [SQ_CQ_NEXT_ID_SET] = "UPDATE NEXT_COMPACTION_QUEUE_ID SET NCQ_NEXT = ?1",
    /* Hive's compact(): what makes a new request pointless */
    [SQ_CQ_IN_WAY] =
        "SELECT CQ_ID, CQ_STATE FROM COMPACTION_QUEUE"
        " WHERE CQ_DATABASE = ?1 AND CQ_TABLE = ?2 AND CQ_PARTITION IS ?3"
        " AND (CQ_STATE IN ('i', 'w') OR (CQ_STATE = 'r'"
        "  AND CQ_HIGHEST_WRITE_ID = (SELECT NWI_NEXT - 1 FROM NEXT_WRITE_ID"
        "   WHERE NWI_DATABASE = ?1 AND NWI_TABLE = ?2)))"
        " ORDER BY CQ_ID LIMIT 1",
    [SQ_CQ_INSERT] =
        "INSERT INTO COMPACTION_QUEUE (CQ_ID, CQ_DATABASE, CQ_TABLE,"
        " CQ_PARTITION, CQ_STATE, CQ_TYPE, CQ_TBLPROPERTIES, CQ_ENQUEUE_TIME,"
        " CQ_INITIATOR_ID) VALUES (?1, ?2, ?3, ?4, 'i', ?5, ?6, " SQ_NOW_MS
        ", ?7)",
    /* workers that did not finish within ?1 ms: their txns and entries */
    [SQ_CQ_TIMED_OUT_TXNS] =
        "SELECT CQ_TXN_ID FROM COMPACTION_QUEUE WHERE CQ_STATE = 'w'"
        " AND CQ_START < " SQ_NOW_MS " - ?1 AND CQ_TXN_ID IS NOT NULL",
    [SQ_CQ_RESET_TIMED_OUT] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'i', CQ_WORKER_ID = NULL,"
        " CQ_START = NULL, CQ_TXN_ID = NULL"
        " WHERE CQ_STATE = 'w' AND CQ_START < " SQ_NOW_MS " - ?1",
    [SQ_CQ_PICK] =
        "SELECT CQ_ID FROM COMPACTION_QUEUE WHERE CQ_STATE = 'i'"
        " AND (?1 = 0 OR CQ_ID = ?1) ORDER BY CQ_ID LIMIT 1",
    [SQ_CQ_CLAIM] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'w', CQ_WORKER_ID = ?2,"
        " CQ_START = " SQ_NOW_MS " WHERE CQ_ID = ?1 AND CQ_STATE = 'i'",
    [SQ_CQ_GET] =
        "SELECT " SQ_CQ_COLUMNS " FROM COMPACTION_QUEUE WHERE CQ_ID = ?1",
    [SQ_CQ_PROGRESS] =
        "UPDATE COMPACTION_QUEUE SET CQ_META_INFO = ?2"
        " WHERE CQ_ID = ?1 AND CQ_STATE = 'w'",
    [SQ_CQ_SET_TXN] =
        "UPDATE COMPACTION_QUEUE SET CQ_TXN_ID = ?2, CQ_HIGHEST_WRITE_ID = ?3"
        " WHERE CQ_ID = ?1 AND CQ_STATE = 'w'",
    /* Hive's 'c' component: an aborted compaction's txn stays known as
     * aborted (housekeeping keeps txns with components), so its _v
     * directories stay invisible until a cleaner has removed them */
    [SQ_CQ_TC_INSERT] =
        "INSERT INTO TXN_COMPONENTS (TC_TXNID, TC_DATABASE, TC_TABLE,"
        " TC_PARTITION, TC_OPERATION_TYPE, TC_WRITEID)"
        " SELECT CQ_TXN_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, 'c',"
        " CQ_HIGHEST_WRITE_ID FROM COMPACTION_QUEUE WHERE CQ_ID = ?1",
    /* ... dropped when the aborted attempt wrote nothing (refused) */
    [SQ_CQ_TC_DROP] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_OPERATION_TYPE = 'c'"
        " AND TC_TXNID = (SELECT CQ_TXN_ID FROM COMPACTION_QUEUE"
        "  WHERE CQ_ID = ?1)"
        " AND TC_TXNID IN (SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'a')",
    [SQ_CQ_READY] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'r', CQ_WORKER_ID = NULL,"
        " CQ_NEXT_TXN_ID = (SELECT NTXN_NEXT FROM NEXT_TXN_ID),"
        " CQ_COMMIT_TIME = " SQ_NOW_MS
        " WHERE CQ_ID = ?1 AND CQ_STATE = 'w' AND CQ_TXN_ID = ?2",
    [SQ_CQ_STATE] = "SELECT CQ_STATE FROM COMPACTION_QUEUE WHERE CQ_ID = ?1",
    [SQ_CQ_TO_HISTORY] =
        "INSERT INTO COMPLETED_COMPACTIONS (CC_ID, CC_DATABASE, CC_TABLE,"
        " CC_PARTITION, CC_STATE, CC_TYPE, CC_TBLPROPERTIES, CC_WORKER_ID,"
        " CC_ENQUEUE_TIME, CC_START, CC_END, CC_RUN_AS, CC_HIGHEST_WRITE_ID,"
        " CC_META_INFO, CC_HADOOP_JOB_ID, CC_ERROR_MESSAGE, CC_NEXT_TXN_ID,"
        " CC_TXN_ID, CC_COMMIT_TIME, CC_INITIATOR_ID, CC_INITIATOR_VERSION,"
        " CC_WORKER_VERSION, CC_POOL_NAME, CC_NUMBER_OF_BUCKETS, CC_ORDER_BY)"
        " SELECT CQ_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, ?2, CQ_TYPE,"
        " CQ_TBLPROPERTIES, CQ_WORKER_ID, CQ_ENQUEUE_TIME, CQ_START, "
        SQ_NOW_MS ", CQ_RUN_AS, CQ_HIGHEST_WRITE_ID, CQ_META_INFO,"
        " CQ_HADOOP_JOB_ID, COALESCE(?3, CQ_ERROR_MESSAGE), CQ_NEXT_TXN_ID,"
        " CQ_TXN_ID, CQ_COMMIT_TIME, CQ_INITIATOR_ID, CQ_INITIATOR_VERSION,"
        " CQ_WORKER_VERSION, CQ_POOL_NAME, CQ_NUMBER_OF_BUCKETS, CQ_ORDER_BY"
        " FROM COMPACTION_QUEUE WHERE CQ_ID = ?1",
    [SQ_CQ_DELETE] = "DELETE FROM COMPACTION_QUEUE WHERE CQ_ID = ?1",
    /* markCleaned: (?1 db, ?2 table, ?3 partition, ?4 high watermark) */
    [SQ_CQ_CLEAN_CTC] =
        "DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_DATABASE = ?1"
        " AND CTC_TABLE = ?2 AND CTC_PARTITION IS ?3 AND CTC_WRITEID <= ?4",
    [SQ_CQ_CLEAN_TC] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_DATABASE = ?1 AND TC_TABLE = ?2"
        " AND TC_PARTITION IS ?3 AND TC_WRITEID <= ?4"
        " AND TC_TXNID IN (SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'a')",
    /* keep the newest ?5 history rows in state ?4 of a partition */
    [SQ_CC_PURGE] =
        "DELETE FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = ?1"
        " AND CC_TABLE = ?2 AND CC_PARTITION IS ?3 AND CC_STATE = ?4"
        " AND CC_ID NOT IN (SELECT CC_ID FROM COMPLETED_COMPACTIONS"
        "  WHERE CC_DATABASE = ?1 AND CC_TABLE = ?2 AND CC_PARTITION IS ?3"
        "  AND CC_STATE = ?4 ORDER BY CC_ID DESC LIMIT ?5)",
    [SQ_CQ_LIST] =
        "SELECT " SQ_CQ_COLUMNS " FROM COMPACTION_QUEUE UNION ALL"
        " SELECT " SQ_CC_COLUMNS " FROM COMPLETED_COMPACTIONS ORDER BY 1",
    /* the cleaner's work: every txn that began before the compaction
     * committed (ids below CQ_NEXT_TXN_ID) has ended */
    [SQ_CQ_READY_LIST] =
        "SELECT " SQ_CQ_COLUMNS " FROM COMPACTION_QUEUE WHERE CQ_STATE = 'r'"
        " AND CQ_NEXT_TXN_ID <= COALESCE((SELECT MIN(TXN_ID) FROM TXNS"
        "  WHERE TXN_STATE = 'o'), (SELECT NTXN_NEXT FROM NEXT_TXN_ID))"
        " ORDER BY CQ_ID",
};

/* ------------------------------------------------------------ handle */

/* Test builds: COMB_MS_FAULT=readonly opens the file read-only, as a
 * read-only file or mount would; =full answers every write transaction
 * with SQLITE_FULL, as SQLite does on a full disk; =part_add does so for
 * adding partitions only (a statement's last catalog step). */
typedef enum SqFault {
    SQ_FAULT_NONE,
    SQ_FAULT_READONLY,
    SQ_FAULT_FULL,
    SQ_FAULT_PART_ADD
} SqFault;

#define SQ_RO_MAX 8

typedef struct MsSqlite {
    sqlite3 *db;                          /* the connection */
    char *path;                           /* database file, for messages */
    char *warehouse;                      /* root for default db locations */
    SqFault fault;                        /* test builds only */
    sqlite3_stmt *stmt[SQ_N_STATEMENTS];  /* prepared on first use */
    bool wal_mode;                        /* the file is in WAL mode */
    int wal_fd;                           /* its -wal file, or -1 */
    bool durable;                         /* the open write transaction
                                             syncs at sq_end */
    bool writeid_unsynced;                /* a write id allocated since
                                             this handle's last sync */
    /* read-only txns this handle opened and has not ended yet: their
     * commit needs no sync (SQ_RO_MAX most recent; older ones just get a
     * durable commit) */
    int64_t ro_txns[SQ_RO_MAX];
    int64_t busy_since_us;                /* sq_busy_wait's first call */
    int ckpt_frames;                      /* log frames at this handle's
                                             last checkpoint (sq_wal_hook) */
} MsSqlite;

/* ------------------------------------------------- statement helpers */

/* One bound parameter; build with SQ_INT / SQ_TEXT / SQ_NULL so that the
 * C type is converted at the call site, not guessed from varargs. */
typedef struct SqArg {
    enum { SQ_ARG_NULL, SQ_ARG_INT, SQ_ARG_TEXT } kind;
    int64_t num;
    const char *text;       /* NULL binds SQL NULL */
} SqArg;

#define SQ_INT(v) ((SqArg){SQ_ARG_INT, (int64_t)(v), NULL})
#define SQ_TEXT(s) ((SqArg){SQ_ARG_TEXT, 0, (s)})
#define SQ_NULL ((SqArg){SQ_ARG_NULL, 0, NULL})
/* Expands to the (args, n_args) pair the helpers take. */
#define SQ_ARGS(...)                                                    \
    (const SqArg[]){__VA_ARGS__},                                       \
        (int)(sizeof((SqArg[]){__VA_ARGS__}) / sizeof(SqArg))
#define SQ_NO_ARGS NULL, 0

/* An SQLite result code as an error a user can act on: the metastore's
 * path and the cause (read-only, disk full, locked, I/O error, damaged),
 * never the SQL that was running.  Read-only and full get their own codes
 * (COMB_EREADONLY, COMB_EFULL) so callers can still answer reads. */
static int sq_error(MsSqlite *h, int code, CombErr *err)
{
    const char *msg = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(code);
    int sys = h->db ? sqlite3_system_errno(h->db) : 0;
    const char *cause = sys ? strerror(sys) : msg;
    switch (code & 0xff) {
    case SQLITE_NOMEM:
        return comb_err_nomem(err);
    case SQLITE_READONLY:
        return ms_err_unwritable(err, h->path, false);
    case SQLITE_FULL:
        return ms_err_unwritable(err, h->path, true);
    case SQLITE_IOERR:
        if (sys == ENOSPC || sys == EDQUOT)
            return ms_err_unwritable(err, h->path, true);
        if (sys == EROFS)
            return ms_err_unwritable(err, h->path, false);
        return comb_err(err, COMB_EMETASTORE,
                        "I/O error on the metastore '%s': %s", h->path, cause);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return comb_err(err, COMB_EMETASTORE,
                        "the metastore '%s' is locked: another process held "
                        "it longer than %d s; run the statement again",
                        h->path, SQ_BUSY_TIMEOUT_MS / 1000);
    case SQLITE_CANTOPEN:
        return comb_err(err, COMB_EMETASTORE,
                        "cannot open the metastore '%s': %s", h->path, cause);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return comb_err(err, COMB_EMETASTORE,
                        "the metastore '%s' is damaged (%s); restore it from "
                        "a backup", h->path, msg);
    default:
        return comb_err(err, COMB_EMETASTORE, "metastore '%s': %s", h->path,
                        msg);
    }
}

/* The connection's last error, as sq_error describes it. */
static int sq_fail(MsSqlite *h, CombErr *err)
{
    return sq_error(h, sqlite3_errcode(h->db), err);
}

/* Make a statement reusable; bound text pointers are dropped with it. */
static void sq_release(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static int sq_bind(sqlite3_stmt *st, int idx, const SqArg *arg)
{
    switch (arg->kind) {
    case SQ_ARG_INT:
        return sqlite3_bind_int64(st, idx, arg->num);
    case SQ_ARG_TEXT:
        if (arg->text)
            return sqlite3_bind_text(st, idx, arg->text, -1, SQLITE_STATIC);
        return sqlite3_bind_null(st, idx);
    default:
        return sqlite3_bind_null(st, idx);
    }
}

/* The cached statement `id` with its parameters bound, ready to step. */
static int sq_prepare(MsSqlite *h, SqId id, const SqArg *args, int n_args,
                      sqlite3_stmt **out, CombErr *err)
{
    sqlite3_stmt *st = h->stmt[id];
    if (!st) {
        if (sqlite3_prepare_v3(h->db, sq_sql[id], -1,
                               SQLITE_PREPARE_PERSISTENT, &st,
                               NULL) != SQLITE_OK)
            return sq_fail(h, err);
        h->stmt[id] = st;
    }
    for (int i = 0; i < n_args; i++) {
        if (sq_bind(st, i + 1, &args[i]) != SQLITE_OK) {
            int rc = sq_fail(h, err);
            sq_release(st);
            return rc;
        }
    }
    *out = st;
    return COMB_OK;
}

/* Step once: *row says whether a row is ready.  A finished or failed
 * statement is released, so callers only release when they stop early. */
static int sq_step(MsSqlite *h, sqlite3_stmt *st, bool *row, CombErr *err)
{
    int src = sqlite3_step(st);
    int rc = COMB_OK;
    *row = src == SQLITE_ROW;
    if (src == SQLITE_ROW)
        return COMB_OK;
    if (src != SQLITE_DONE)
        rc = sq_fail(h, err);
    sq_release(st);
    return rc;
}

/* Run a statement to completion, ignoring any rows. */
static int sq_exec(MsSqlite *h, SqId id, const SqArg *args, int n_args,
                   CombErr *err)
{
    sqlite3_stmt *st;
    bool row = true;
    int rc = sq_prepare(h, id, args, n_args, &st, err);
    while (!rc && row)
        rc = sq_step(h, st, &row, err);
    return rc;
}

/* First column of the first row as an integer; *found is false when there
 * is no row or the value is NULL. */
static int sq_query_int(MsSqlite *h, SqId id, const SqArg *args, int n_args,
                        int64_t *out, bool *found, CombErr *err)
{
    sqlite3_stmt *st;
    bool row;
    int rc = sq_prepare(h, id, args, n_args, &st, err);
    *found = false;
    if (rc || (rc = sq_step(h, st, &row, err)) || !row)
        return rc;
    if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
        *out = sqlite3_column_int64(st, 0);
        *found = true;
    }
    sq_release(st);
    return COMB_OK;
}

/* Column `col` of the current row copied into the arena (NULL stays
 * NULL).  *nomem is set when the copy fails. */
static char *sq_col_text(sqlite3_stmt *st, int col, CombArena *a,
                         bool *nomem)
{
    const unsigned char *s = sqlite3_column_text(st, col);
    char *copy;
    if (!s)
        return NULL;
    copy = comb_arena_strndup(a, (const char *)s,
                              (size_t)sqlite3_column_bytes(st, col));
    if (!copy)
        *nomem = true;
    return copy;
}

/* Every row of a query as text, row-major in cells[row * n_cols + col],
 * all in the arena. */
static int sq_fetch_texts(MsSqlite *h, SqId id, const SqArg *args,
                          int n_args, int n_cols, CombArena *a,
                          char ***cells, int *n_rows, CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, id, args, n_args, &st, err);
    *cells = NULL;
    *n_rows = 0;
    while (!rc && !(rc = sq_step(h, st, &row, err)) && row) {
        for (int c = 0; c < n_cols && !nomem; c++) {
            char *cell = sq_col_text(st, c, a, &nomem);
            nomem = nomem || comb_buf_append(&buf, &cell, sizeof cell);
        }
        if (nomem) {
            sq_release(st);
            rc = comb_err_nomem(err);
        }
        (*n_rows)++;
    }
    if (!rc && buf.len > 0) {
        *cells = comb_arena_alloc(a, buf.len);
        if (*cells)
            memcpy(*cells, buf.data, buf.len);
        else
            rc = comb_err_nomem(err);
    }
    comb_buf_free(&buf);
    if (rc)
        *n_rows = 0;
    return rc;
}

/* Makes the current row of a statement one entry of a fetched array. */
typedef void SqRowFn(sqlite3_stmt *st, void *entry);

/* Every row of statement id, each made an elem_size entry by to_entry, into
 * a heap array (comb_free) of *n_rows entries. */
static int sq_fetch_rows(MsSqlite *h, SqId id, const SqArg *args, int n_args,
                         SqRowFn *to_entry, size_t elem_size, void **rows,
                         int *n_rows, CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    sqlite3_stmt *st;
    bool row;
    int rc = sq_prepare(h, id, args, n_args, &st, err);
    while (!rc && !(rc = sq_step(h, st, &row, err)) && row) {
        if (comb_buf_reserve(&buf, elem_size)) {
            sq_release(st);
            rc = comb_err_nomem(err);
        } else {
            to_entry(st, buf.data + buf.len);
            buf.len += elem_size;
        }
    }
    if (rc) {
        comb_buf_free(&buf);
        return rc;
    }
    *rows = buf.data;
    *n_rows = (int)(buf.len / elem_size);
    return COMB_OK;
}

/* ------------------------------------------------------ transactions */

/* Durability.  Every write transaction commits with synchronous=NORMAL
 * (SQLite appends the frames to the write-ahead log and does not sync it);
 * a durable one then syncs the log itself (sq_wal_sync), after the commit
 * and so after the write lock is released: commits of several processes
 * share their syncs instead of queueing for one each, as a database's
 * group commit does.  The sync covers every frame before ours (the log is
 * only appended to, and restarted from its start only after a checkpoint
 * copied and synced all of it into the database file), so a commit is
 * durable once sq_end returns.  Light writes skip the sync: losing them
 * harms nothing, and any later durable commit syncs them too. */

/* The write-ahead log's file, opened once per handle; -1 when the file is
 * not in WAL mode (in-memory, or read-only immutable), where syncing the
 * database file itself is SQLite's business (synchronous=FULL). */
/* The directory of `path` synced: SQLite syncs a new log's directory
 * entry only when it first syncs the log itself, which under
 * synchronous=NORMAL is at the first checkpoint; until then a commit our
 * fdatasync made durable would be lost with the power together with the
 * entry of the log that holds it. */
static int sq_dir_sync(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int fd, rc, saved;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path),
                 path);
    if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return -1;
    rc = fsync(fd);
    saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

static int sq_wal_fd(MsSqlite *h)
{
    char wal[4096];
    if (h->wal_fd >= 0 || !h->wal_mode)
        return h->wal_fd;
    if ((size_t)snprintf(wal, sizeof wal, "%s-wal", h->path) < sizeof wal)
        h->wal_fd = open(wal, O_RDWR | O_CLOEXEC);
    /* once per handle: the log stays while the handle has the file open */
    if (h->wal_fd >= 0 && sq_dir_sync(wal) != 0) {
        int saved = errno;
        close(h->wal_fd);
        h->wal_fd = -1;
        errno = saved;
    }
    return h->wal_fd;
}

static int sq_wal_sync(MsSqlite *h, CombErr *err)
{
    int fd = sq_wal_fd(h);
    if (fd < 0 && h->wal_mode)
        return comb_err(err, COMB_EMETASTORE,
                        "cannot open the write-ahead log of the metastore "
                        "'%s' (or sync its directory) to make a commit "
                        "durable: %s",
                        h->path, strerror(errno));
    if (fd >= 0 && fdatasync(fd) != 0)
        return comb_err(err, errno == ENOSPC || errno == EDQUOT
                                 ? COMB_EFULL : COMB_EIO,
                        "cannot make a commit to the metastore '%s' durable "
                        "(syncing its write-ahead log): %s",
                        h->path, strerror(errno));
    return COMB_OK;
}

/* A read (deferred) or durable write (IMMEDIATE, synced at sq_end)
 * transaction. */
static int sq_begin(MsSqlite *h, bool write, CombErr *err)
{
    if (write && h->fault == SQ_FAULT_FULL)
        return sq_error(h, SQLITE_FULL, err);
    h->durable = write;
    return sq_exec(h, write ? SQ_BEGIN_IMMEDIATE : SQ_BEGIN, SQ_NO_ARGS,
                   err);
}

/* A write whose loss on power failure harms nothing (opening a txn,
 * locks, heartbeats, housekeeping, read-only commits): not synced. */
static int sq_begin_light(MsSqlite *h, CombErr *err)
{
    if (h->fault == SQ_FAULT_FULL)
        return sq_error(h, SQLITE_FULL, err);
    h->durable = false;
    return sq_exec(h, SQ_BEGIN_IMMEDIATE, SQ_NO_ARGS, err);
}

/* End the transaction sq_begin started: commit when rc is COMB_OK, else
 * roll back and keep the caller's error.  Returns the final rc. */
static int sq_end(MsSqlite *h, int rc, CombErr *err)
{
    CombErr ignored;
    sqlite3_stmt *st = NULL;
    /* a statement left mid-result would keep the transaction's locks */
    while ((st = sqlite3_next_stmt(h->db, st)))
        if (sqlite3_stmt_busy(st))
            sq_release(st);
    if (!rc)
        rc = sq_exec(h, SQ_COMMIT, SQ_NO_ARGS, err);
    if (rc && !sqlite3_get_autocommit(h->db))
        sq_exec(h, SQ_ROLLBACK, SQ_NO_ARGS, &ignored);
    if (!rc && h->durable)
        rc = sq_wal_sync(h, err);
    if (!rc && h->durable)
        h->writeid_unsynced = false;    /* the sync covered it too */
    h->durable = false;
    return rc;
}

/* ------------------------------------------------------------ catalog */

static int mss_db_create(void *impl, const MsDatabase *db, bool if_not_exists,
                         CombErr *err)
{
    MsSqlite *h = impl;
    char *location = NULL;
    int rc;
    if (!db->location &&
        !(location = ms_db_default_location(h->warehouse, db->name)))
        return comb_err_nomem(err);
    rc = sq_begin(h, true, err);
    if (!rc) {
        rc = sq_exec(h, SQ_DB_INSERT,
                     SQ_ARGS(SQ_TEXT(db->name), SQ_TEXT(db->comment),
                             SQ_TEXT(location ? location : db->location),
                             SQ_TEXT(db->owner),
                             SQ_TEXT(db->owner ? "USER" : NULL)),
                     err);
        /* OR IGNORE touched nothing: the name is taken */
        if (!rc && sqlite3_changes(h->db) == 0 && !if_not_exists)
            rc = ms_err_db_exists(err, db->name);
        rc = sq_end(h, rc, err);
    }
    comb_free(location);
    return rc;
}

/* Delete the table `table` of db, or all its tables when table is NULL,
 * with everything that hangs off them. */
static int drop_tables(MsSqlite *h, const char *db, const char *table,
                       CombErr *err)
{
    int rc = COMB_OK;
    for (SqId id = SQ_DROP_COLUMNS; !rc && id <= SQ_DROP_COMPLETED_COMPACTIONS;
         id++)
        rc = sq_exec(h, id, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table)), err);
    return rc;
}

static int db_drop_body(MsSqlite *h, const char *name, bool if_exists,
                        bool cascade, CombErr *err)
{
    int64_t id, has_tables = 0;
    bool found;
    int rc = sq_query_int(h, SQ_DB_GET, SQ_ARGS(SQ_TEXT(name)), &id, &found,
                          err);
    if (rc)
        return rc;
    if (!found)
        return if_exists ? COMB_OK : ms_err_no_db(err, name);
    rc = sq_query_int(h, SQ_DB_HAS_TABLES, SQ_ARGS(SQ_TEXT(name)),
                      &has_tables, &found, err);
    if (rc)
        return rc;
    if (has_tables && !cascade)
        return ms_err_db_not_empty(err, name);
    rc = drop_tables(h, name, NULL, err);
    if (!rc)
        rc = sq_exec(h, SQ_DB_DELETE, SQ_ARGS(SQ_TEXT(name)), err);
    return rc;
}

static int mss_db_drop(void *impl, const char *name, bool if_exists,
                       bool cascade, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, db_drop_body(h, name, if_exists, cascade, err), err);
    return rc;
}

/* The DBS row of `name` into the arena; *found is false when absent.
 * `id` may be NULL. */
static int db_fetch(MsSqlite *h, const char *name, CombArena *a, int64_t *id,
                    MsDatabase **out, bool *found, CombErr *err)
{
    MsDatabase *d;
    sqlite3_stmt *st;
    bool nomem = false;
    int rc = sq_prepare(h, SQ_DB_GET, SQ_ARGS(SQ_TEXT(name)), &st, err);
    if (rc || (rc = sq_step(h, st, found, err)) || !*found)
        return rc;
    d = comb_arena_calloc(a, sizeof *d);
    if (d) {
        d->name = sq_col_text(st, 1, a, &nomem);
        d->location = sq_col_text(st, 2, a, &nomem);
        d->comment = sq_col_text(st, 3, a, &nomem);
        d->owner = sq_col_text(st, 4, a, &nomem);
    }
    if (id)
        *id = sqlite3_column_int64(st, 0);
    sq_release(st);
    if (!d || nomem)
        return comb_err_nomem(err);
    *out = d;
    return COMB_OK;
}

static int mss_db_get(void *impl, const char *name, CombArena *a,
                      MsDatabase **out, CombErr *err)
{
    bool found;
    int rc = db_fetch(impl, name, a, NULL, out, &found, err);
    if (!rc && !found)
        rc = ms_err_no_db(err, name);
    return rc;
}

static int mss_db_list(void *impl, CombArena *a, char ***names, int *n,
                       CombErr *err)
{
    return sq_fetch_texts(impl, SQ_DB_LIST, SQ_NO_ARGS, 1, a, names, n, err);
}

/* Rows of a name/value list (TBLPROPERTIES, SERDEPROPERTIES, partition
 * parameters) with one insert statement (?1 owner id, ?2 key, ?3 value). */
static int props_insert(MsSqlite *h, SqId id, int64_t owner,
                        const MsProperty *props, int n, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; !rc && i < n; i++)
        rc = sq_exec(h, id,
                     SQ_ARGS(SQ_INT(owner), SQ_TEXT(props[i].key),
                             SQ_TEXT(props[i].value)),
                     err);
    return rc;
}

/* Columns or partition keys (?1 table, ?2 name, ?3 type, ?4 comment, ?5
 * position). */
static int columns_insert(MsSqlite *h, SqId id, int64_t tbl_id,
                          const MsColumn *cols, int n, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; !rc && i < n; i++)
        rc = sq_exec(h, id,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(cols[i].name),
                             SQ_TEXT(cols[i].type), SQ_TEXT(cols[i].comment),
                             SQ_INT(i)),
                     err);
    return rc;
}

/* Everything of a table's definition that lives in child tables. */
static int table_insert_children(MsSqlite *h, int64_t tbl_id,
                                 const MsTable *t, CombErr *err)
{
    int rc = columns_insert(h, SQ_COLUMN_INSERT, tbl_id, t->cols, t->n_cols,
                            err);
    for (int i = 0; !rc && i < t->n_cols; i++)
        if (t->cols[i].default_value)
            rc = sq_exec(h, SQ_DEFAULT_INSERT,
                         SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(t->cols[i].default_name),
                                 SQ_INT(i), SQ_TEXT(t->cols[i].default_value)),
                         err);
    if (!rc)
        rc = columns_insert(h, SQ_PKEY_INSERT, tbl_id, t->part_keys,
                            t->n_part_keys, err);
    if (!rc)
        rc = props_insert(h, SQ_PARAM_INSERT, tbl_id, t->props, t->n_props,
                          err);
    /* after the properties: an explicit comment wins over a 'comment' one */
    if (!rc && t->comment)
        rc = sq_exec(h, SQ_PARAM_INSERT,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(MS_COMMENT_PROP),
                             SQ_TEXT(t->comment)),
                     err);
    if (!rc)
        rc = props_insert(h, SQ_SERDE_PARAM_INSERT, tbl_id, t->serde_params,
                          t->n_serde_params, err);
    for (int i = 0; !rc && i < t->n_bucket_cols; i++)
        rc = sq_exec(h, SQ_BUCKET_INSERT,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(t->bucket_cols[i]),
                             SQ_INT(i)),
                     err);
    for (int i = 0; !rc && i < t->n_sort_cols; i++)
        rc = sq_exec(h, SQ_SORT_INSERT,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(t->sort_cols[i].name),
                             SQ_INT(t->sort_cols[i].order), SQ_INT(i)),
                     err);
    return rc;
}

static bool table_is_view(const MsTable *t)
{
    return strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

static int table_create_body(MsSqlite *h, const MsTable *t,
                             bool if_not_exists, CombErr *err)
{
    CombArena scratch;
    MsDatabase *db = NULL;
    char *location = NULL;
    int64_t db_id = 0, tbl_id = 0;
    bool found;
    int rc;
    comb_arena_init(&scratch, 1024);
    rc = db_fetch(h, t->db, &scratch, &db_id, &db, &found, err);
    if (!rc && !found)
        rc = ms_err_no_db(err, t->db);
    /* a view has no directory */
    if (!rc && !t->location && !table_is_view(t) &&
        !(location = ms_table_default_location(db->location, t->name)))
        rc = comb_err_nomem(err);
    if (!rc)
        rc = sq_query_int(
            h, SQ_TABLE_INSERT,
            SQ_ARGS(SQ_INT(db_id), SQ_TEXT(t->name), SQ_TEXT(t->table_type),
                    SQ_TEXT(t->owner),
                    t->create_time > 0 ? SQ_INT(t->create_time) : SQ_NULL,
                    SQ_TEXT(location ? location : t->location),
                    SQ_TEXT(t->input_format), SQ_TEXT(t->output_format),
                    SQ_INT(t->n_buckets), SQ_TEXT(t->serde),
                    SQ_TEXT(t->view_original_text),
                    SQ_TEXT(t->view_expanded_text)),
            &tbl_id, &found, err);
    /* no row back: OR IGNORE met an existing table of that name */
    if (!rc && !found && !if_not_exists)
        rc = ms_err_table_exists(err, t->db, t->name);
    if (!rc && found)
        rc = table_insert_children(h, tbl_id, t, err);
    comb_free(location);
    comb_arena_free(&scratch);
    return rc;
}

static int mss_table_create(void *impl, const MsTable *t, bool if_not_exists,
                            CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, table_create_body(h, t, if_not_exists, err), err);
    return rc;
}

/* TBL_ID of db.name; *found is false when there is no such table. */
static int table_find(MsSqlite *h, const char *db, const char *name,
                      int64_t *id, bool *found, CombErr *err)
{
    return sq_query_int(h, SQ_TABLE_ID, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(name)),
                        id, found, err);
}

/* TBL_ID of db.name; COMB_ENOTFOUND (Hive's text) when there is none. */
static int table_id(MsSqlite *h, const char *db, const char *name,
                    int64_t *id, CombErr *err)
{
    bool found;
    int rc = table_find(h, db, name, id, &found, err);
    if (!rc && !found)
        rc = ms_err_no_table(err, db, name);
    return rc;
}

static int table_drop_body(MsSqlite *h, const char *db, const char *name,
                           bool if_exists, CombErr *err)
{
    int64_t id;
    bool found;
    int rc = table_find(h, db, name, &id, &found, err);
    if (rc)
        return rc;
    if (!found)
        return if_exists ? COMB_OK : ms_err_no_table(err, db, name);
    return drop_tables(h, db, name, err);
}

static int mss_table_drop(void *impl, const char *db, const char *name,
                          bool if_exists, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, table_drop_body(h, db, name, if_exists, err), err);
    return rc;
}

/* The TBLS row of db.name into t; *tbl_id for the child queries. */
static int table_get_main(MsSqlite *h, const char *db, const char *name,
                          CombArena *a, MsTable *t, int64_t *tbl_id,
                          CombErr *err)
{
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, SQ_TABLE_GET, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(name)),
                        &st, err);
    if (rc || (rc = sq_step(h, st, &row, err)))
        return rc;
    if (!row)
        return ms_err_no_table(err, db, name);
    *tbl_id = sqlite3_column_int64(st, 0);
    t->table_type = sq_col_text(st, 1, a, &nomem);
    t->owner = sq_col_text(st, 2, a, &nomem);
    t->create_time = sqlite3_column_int64(st, 3);
    t->location = sq_col_text(st, 4, a, &nomem);
    t->input_format = sq_col_text(st, 5, a, &nomem);
    t->output_format = sq_col_text(st, 6, a, &nomem);
    t->serde = sq_col_text(st, 7, a, &nomem);
    t->n_buckets = sqlite3_column_int(st, 8);
    t->view_original_text = sq_col_text(st, 9, a, &nomem);
    t->view_expanded_text = sq_col_text(st, 10, a, &nomem);
    sq_release(st);
    t->db = comb_arena_strdup(a, db);
    t->name = comb_arena_strdup(a, name);
    if (nomem || !t->db || !t->name || !t->table_type)
        return comb_err_nomem(err);
    return COMB_OK;
}

/* The n_cols-wide text rows of one of a table's child tables (columns,
 * parameters) and, in *items, room for one elem_size entry per row: the
 * caller turns each row into its entry.  *items is NULL for no rows. */
static int table_child_rows(MsSqlite *h, SqId id, int64_t tbl_id, int n_cols,
                            size_t elem_size, CombArena *a, char ***cells,
                            void **items, int *n, CombErr *err)
{
    int rc = sq_fetch_texts(h, id, SQ_ARGS(SQ_INT(tbl_id)), n_cols, a, cells,
                            n, err);
    *items = NULL;
    if (rc || *n == 0)
        return rc;
    *items = comb_arena_alloc(a, (size_t)*n * elem_size);
    return *items ? COMB_OK : comb_err_nomem(err);
}

/* Columns or partition keys (name, type, comment rows) of a table. */
static int table_get_columns(MsSqlite *h, SqId id, int64_t tbl_id,
                             CombArena *a, MsColumn **out, int *n_out,
                             CombErr *err)
{
    char **cells;
    void *items;
    MsColumn *cols;
    int n;
    int rc = table_child_rows(h, id, tbl_id, 3, sizeof *cols, a, &cells,
                              &items, &n, err);
    if (rc)
        return rc;
    cols = items;
    for (int i = 0; i < n; i++)
        cols[i] = (MsColumn){cells[3 * i], cells[3 * i + 1],
                             cells[3 * i + 2]};
    *out = cols;
    *n_out = n;
    return COMB_OK;
}

/* The DEFAULT constraints of a table's columns (position, name, value
 * rows) onto its columns. */
static int table_get_defaults(MsSqlite *h, int64_t tbl_id, CombArena *a,
                              MsTable *t, CombErr *err)
{
    char **cells;
    int n;
    int rc = sq_fetch_texts(h, SQ_DEFAULTS_GET, SQ_ARGS(SQ_INT(tbl_id)), 3, a,
                            &cells, &n, err);
    for (int i = 0; !rc && i < n; i++) {
        int col = atoi(cells[3 * i]);
        if (col < 0 || col >= t->n_cols)
            return comb_err(err, COMB_EMETASTORE,
                            "metastore '%s': DEFAULT constraint '%s' of table "
                            "%s.%s names no column; the file is damaged",
                            h->path, cells[3 * i + 1], t->db, t->name);
        t->cols[col].default_name = cells[3 * i + 1];
        t->cols[col].default_value = cells[3 * i + 2];
    }
    return rc;
}

/* A name/value list of a table (key, value rows). */
static int table_get_props(MsSqlite *h, SqId id, int64_t tbl_id,
                           CombArena *a, MsProperty **out, int *n_out,
                           CombErr *err)
{
    char **cells;
    void *items;
    MsProperty *props;
    int n;
    int rc = table_child_rows(h, id, tbl_id, 2, sizeof *props, a, &cells,
                              &items, &n, err);
    if (rc)
        return rc;
    props = items;
    for (int i = 0; i < n; i++)
        props[i] = (MsProperty){cells[2 * i], cells[2 * i + 1]};
    *out = props;
    *n_out = n;
    return COMB_OK;
}

/* TBLPROPERTIES minus 'comment', which becomes t->comment. */
static int table_get_tblprops(MsSqlite *h, int64_t tbl_id, CombArena *a,
                              MsTable *t, CombErr *err)
{
    int n = 0;
    int rc = table_get_props(h, SQ_PARAMS_GET, tbl_id, a, &t->props, &n, err);
    t->n_props = 0;
    for (int i = 0; !rc && i < n; i++) {
        if (t->props[i].key && strcmp(t->props[i].key, MS_COMMENT_PROP) == 0)
            t->comment = t->props[i].value;
        else
            t->props[t->n_props++] = t->props[i];
    }
    return rc;
}

static int table_get_sorts(MsSqlite *h, int64_t tbl_id, CombArena *a,
                           MsTable *t, CombErr *err)
{
    char **cells;
    void *items;
    int rc = table_child_rows(h, SQ_SORTS_GET, tbl_id, 2, sizeof(MsSortCol),
                              a, &cells, &items, &t->n_sort_cols, err);
    if (rc)
        return rc;
    t->sort_cols = items;
    for (int i = 0; i < t->n_sort_cols; i++) {
        const char *order = cells[2 * i + 1];
        bool asc = order && strcmp(order, "1") == 0;
        t->sort_cols[i] = (MsSortCol){cells[2 * i],
                                      asc ? MS_SORT_ASC : MS_SORT_DESC};
    }
    return COMB_OK;
}

/* The whole definition of db.name, and its TBL_ID. */
static int table_fetch(MsSqlite *h, const char *db, const char *name,
                       CombArena *a, MsTable **out, int64_t *tbl_id,
                       CombErr *err)
{
    MsTable *t = comb_arena_calloc(a, sizeof *t);
    int rc;
    if (!t)
        return comb_err_nomem(err);
    rc = table_get_main(h, db, name, a, t, tbl_id, err);
    if (!rc)
        rc = table_get_columns(h, SQ_COLUMNS_GET, *tbl_id, a, &t->cols,
                               &t->n_cols, err);
    if (!rc)
        rc = table_get_defaults(h, *tbl_id, a, t, err);
    if (!rc)
        rc = table_get_columns(h, SQ_PKEYS_GET, *tbl_id, a, &t->part_keys,
                               &t->n_part_keys, err);
    if (!rc)
        rc = table_get_tblprops(h, *tbl_id, a, t, err);
    if (!rc)
        rc = table_get_props(h, SQ_SERDE_PARAMS_GET, *tbl_id, a,
                             &t->serde_params, &t->n_serde_params, err);
    if (!rc)
        rc = sq_fetch_texts(h, SQ_BUCKETS_GET, SQ_ARGS(SQ_INT(*tbl_id)), 1, a,
                            &t->bucket_cols, &t->n_bucket_cols, err);
    if (!rc)
        rc = table_get_sorts(h, *tbl_id, a, t, err);
    if (!rc)
        *out = t;
    return rc;
}

static int table_get_body(MsSqlite *h, const char *db, const char *name,
                          CombArena *a, MsTable **out, CombErr *err)
{
    int64_t tbl_id;
    return table_fetch(h, db, name, a, out, &tbl_id, err);
}

static int mss_table_get(void *impl, const char *db, const char *name,
                         CombArena *a, MsTable **out, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, table_get_body(h, db, name, a, out, err), err);
    return rc;
}

static int table_list_body(MsSqlite *h, const char *db, CombArena *a,
                           char ***names, int *n, CombErr *err)
{
    int64_t id;
    bool found;
    int rc = sq_query_int(h, SQ_DB_GET, SQ_ARGS(SQ_TEXT(db)), &id, &found,
                          err);
    if (!rc && !found)
        rc = ms_err_no_db(err, db);
    if (!rc)
        rc = sq_fetch_texts(h, SQ_TABLE_LIST, SQ_ARGS(SQ_TEXT(db)), 1, a,
                            names, n, err);
    return rc;
}

static int mss_table_list(void *impl, const char *db, CombArena *a,
                          char ***names, int *n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, table_list_body(h, db, a, names, n, err), err);
    return rc;
}

/* ---------------------------------------------------------------- ALTER */

static int table_alter_body(MsSqlite *h, const MsTable *t, CombArena *a,
                            CombErr *err)
{
    MsTable *old;
    int64_t tbl_id;
    const char *location;
    int rc = table_fetch(h, t->db, t->name, a, &old, &tbl_id, err);
    if (rc)
        return rc;
    if (!ms_part_keys_same(old, t))
        return comb_err(err, COMB_EINVALID,
                        "partition keys can not be changed.");
    location = t->location || table_is_view(t) ? t->location : old->location;
    rc = sq_exec(h, SQ_TABLE_UPDATE,
                 SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(t->table_type),
                         SQ_TEXT(t->owner), SQ_TEXT(location),
                         SQ_TEXT(t->input_format), SQ_TEXT(t->output_format),
                         SQ_INT(t->n_buckets), SQ_TEXT(t->serde),
                         SQ_TEXT(t->view_original_text),
                         SQ_TEXT(t->view_expanded_text)),
                 err);
    for (SqId id = SQ_DROP_COLUMNS; !rc && id <= SQ_DROP_PART_KEYS; id++)
        rc = sq_exec(h, id, SQ_ARGS(SQ_TEXT(t->db), SQ_TEXT(t->name)), err);
    if (!rc)
        rc = table_insert_children(h, tbl_id, t, err);
    return rc;
}

static int mss_table_alter(void *impl, const MsTable *t, CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 1024);
    rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, table_alter_body(h, t, &a, err), err);
    comb_arena_free(&a);
    return rc;
}

/* The table row under its new name and, when it moves, the partitions
 * inside its old directory with it. */
static int table_rename_row(MsSqlite *h, int64_t tbl_id, int64_t new_db_id,
                            const char *new_name, const char *old_location,
                            const char *new_location, CombErr *err)
{
    int rc = sq_exec(h, SQ_TABLE_RENAME,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_INT(new_db_id),
                             SQ_TEXT(new_name), SQ_TEXT(new_location)),
                     err);
    if (!rc && new_location && old_location)
        rc = sq_exec(h, SQ_PARTS_RELOCATE,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(old_location),
                             SQ_TEXT(new_location)),
                     err);
    return rc;
}

static int table_rename_body(MsSqlite *h, const char *db, const char *name,
                             const char *new_db, const char *new_name,
                             const char *new_location, CombArena *a,
                             CombErr *err)
{
    MsTable old = {0};
    MsDatabase *d;
    int64_t tbl_id = 0, new_db_id = 0, taken;
    bool found, same = strcmp(db, new_db) == 0 && strcmp(name, new_name) == 0;
    int rc = table_get_main(h, db, name, a, &old, &tbl_id, err);
    if (!rc && new_location && table_is_view(&old))
        rc = comb_err(err, COMB_EINVALID, "view %s.%s cannot have a location",
                      db, name);
    if (!rc)
        rc = db_fetch(h, new_db, a, &new_db_id, &d, &found, err);
    if (!rc && !found)
        rc = ms_err_no_db(err, new_db);
    if (!rc && !same)
        rc = table_find(h, new_db, new_name, &taken, &found, err);
    if (!rc && !same && found)
        rc = comb_err(err, COMB_EEXISTS, "new table %s.%s already exists",
                      new_db, new_name);
    /* bookkeeping left under the new name belongs to no table: a table
     * renamed there must not inherit it */
    if (!rc && !same)
        rc = drop_tables(h, new_db, new_name, err);
    if (!rc)
        rc = table_rename_row(h, tbl_id, new_db_id, new_name, old.location,
                              new_location, err);
    for (SqId id = SQ_RENAME_TXN_COMPONENTS;
         !rc && !same && id <= SQ_RENAME_COMPLETED_COMPACTIONS; id++)
        rc = sq_exec(h, id,
                     SQ_ARGS(SQ_TEXT(db), SQ_TEXT(name), SQ_TEXT(new_db),
                             SQ_TEXT(new_name)),
                     err);
    return rc;
}

static int mss_table_rename(void *impl, const char *db, const char *name,
                            const char *new_db, const char *new_name,
                            const char *new_location, CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 1024);
    rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    table_rename_body(h, db, name, new_db, new_name,
                                      new_location, &a, err),
                    err);
    comb_arena_free(&a);
    return rc;
}

/* ----------------------------------------------------------- partitions */

/* One prepared partition row with its values and parameters; *added is
 * false when the name was taken (and if_not_exists allows that). */
static int part_insert(MsSqlite *h, const char *db, const char *table,
                       int64_t tbl_id, const MsPartition *p,
                       bool if_not_exists, bool *added, CombErr *err)
{
    int64_t part_id = 0;
    int rc = sq_query_int(
        h, SQ_PART_INSERT,
        SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(p->name),
                p->create_time > 0 ? SQ_INT(p->create_time) : SQ_NULL,
                SQ_TEXT(p->location), SQ_TEXT(p->input_format),
                SQ_TEXT(p->output_format), SQ_TEXT(p->serde)),
        &part_id, added, err);
    if (!rc && !*added && !if_not_exists)
        rc = ms_err_part_exists(err, db, table, p->name);
    for (int i = 0; !rc && *added && i < p->n_values; i++)
        rc = sq_exec(h, SQ_PART_VAL_INSERT,
                     SQ_ARGS(SQ_INT(part_id), SQ_TEXT(p->values[i]),
                             SQ_INT(i)),
                     err);
    if (!rc && *added)
        rc = props_insert(h, SQ_PART_PARAM_INSERT, part_id, p->params,
                          p->n_params, err);
    return rc;
}

static int part_add_body(MsSqlite *h, const char *db, const char *table,
                         const MsPartition *parts, int n, bool if_not_exists,
                         bool *added, CombArena *a, CombErr *err)
{
    MsTable *t;
    MsPartition *rows = NULL;
    int64_t tbl_id;
    int rc = table_fetch(h, db, table, a, &t, &tbl_id, err);
    if (!rc)
        rc = ms_parts_prepare(t, parts, n, a, &rows, err);
    for (int i = 0; !rc && i < n; i++) {
        bool new_row = false;
        rc = part_insert(h, db, table, tbl_id, &rows[i], if_not_exists,
                         &new_row, err);
        if (added)
            added[i] = new_row;
    }
    return rc;
}

static int mss_part_add(void *impl, const char *db, const char *table,
                        const MsPartition *parts, int n, bool if_not_exists,
                        bool *added, CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 4096);
    rc = h->fault == SQ_FAULT_PART_ADD ? sq_error(h, SQLITE_FULL, err)
                                       : sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    part_add_body(h, db, table, parts, n, if_not_exists,
                                  added, &a, err),
                    err);
    /* rolled back: none of them was added */
    if (rc && added && n > 0)
        memset(added, 0, (size_t)n * sizeof *added);
    comb_arena_free(&a);
    return rc;
}

/* The partition and everything keyed by it; *found is false when the
 * table has no partition of that name. */
static int part_drop_one(MsSqlite *h, const char *db, const char *table,
                         int64_t tbl_id, const char *name, bool *found,
                         CombErr *err)
{
    int64_t part_id = 0;
    int rc = sq_query_int(h, SQ_PART_ID, SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(name)),
                          &part_id, found, err);
    for (SqId id = SQ_PART_DELETE_VALS; !rc && *found && id <= SQ_PART_DELETE;
         id++)
        rc = sq_exec(h, id, SQ_ARGS(SQ_INT(part_id)), err);
    for (SqId id = SQ_PART_CLEAN_TXN_COMPONENTS;
         !rc && *found && id <= SQ_PART_CLEAN_COMPLETED_COMPACTIONS; id++)
        rc = sq_exec(h, id,
                     SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table), SQ_TEXT(name)),
                     err);
    return rc;
}

static int part_drop_body(MsSqlite *h, const char *db, const char *table,
                          char *const *names, int n, bool if_exists,
                          CombErr *err)
{
    int64_t tbl_id;
    int rc = table_id(h, db, table, &tbl_id, err);
    for (int i = 0; !rc && i < n; i++) {
        bool found = false;
        rc = part_drop_one(h, db, table, tbl_id, names[i], &found, err);
        if (!rc && !found && !if_exists)
            rc = ms_err_no_part(err, db, table, names[i]);
    }
    return rc;
}

static int mss_part_drop(void *impl, const char *db, const char *table,
                         char *const *names, int n, bool if_exists,
                         CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, part_drop_body(h, db, table, names, n, if_exists, err),
                    err);
    return rc;
}

/* Fetched rows of a partition query, `width` text cells each. */
typedef struct PartCells {
    char **cells;
    int n;
} PartCells;

static int part_cells(MsSqlite *h, SqId id, int64_t tbl_id, const char *name,
                      int width, CombArena *a, PartCells *out, CombErr *err)
{
    return sq_fetch_texts(h, id, SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(name)),
                          width, a, &out->cells, &out->n, err);
}

static int damaged_partition(MsSqlite *h, const char *what, CombErr *err)
{
    return comb_err(err, COMB_EMETASTORE,
                    "metastore '%s': a partition has %s; the file is damaged",
                    h->path, what);
}

/* Partition p (row i of parts: PART_ID, name, create time, location,
 * formats, serde) with its n_keys values, taken from vals (PART_ID, value
 * rows, consumed from *next_val). */
static int part_from_rows(MsSqlite *h, const PartCells *parts, int i,
                          const PartCells *vals, int *next_val, int n_keys,
                          CombArena *a, MsPartition *p, CombErr *err)
{
    char **row = parts->cells + 7 * i;
    int64_t ctime = 0;
    if (!row[2] || !comb_digits_to_i64(row[2], strlen(row[2]), &ctime))
        return damaged_partition(h, "no valid creation time", err);
    *p = (MsPartition){.name = row[1], .location = row[3],
                       .create_time = ctime, .input_format = row[4],
                       .output_format = row[5], .serde = row[6]};
    if (!(p->values = comb_arena_alloc(a, (size_t)(n_keys ? n_keys : 1) *
                                              sizeof(char *))))
        return comb_err_nomem(err);
    for (; *next_val < vals->n &&
           strcmp(vals->cells[2 * *next_val], row[0]) == 0;
         (*next_val)++) {
        if (p->n_values == n_keys)
            return damaged_partition(h, "more values than keys", err);
        p->values[p->n_values++] = vals->cells[2 * *next_val + 1];
    }
    if (p->n_values != n_keys)
        return damaged_partition(h, "fewer values than keys", err);
    return COMB_OK;
}

/* The parameters of p (PART_ID part_id) from params rows (PART_ID, key,
 * value), consumed from *next. */
static int part_params_from_rows(const PartCells *params, const char *part_id,
                                 int *next, CombArena *a, MsPartition *p,
                                 CombErr *err)
{
    int first = *next;
    while (*next < params->n && strcmp(params->cells[3 * *next], part_id) == 0)
        (*next)++;
    if (*next == first)
        return COMB_OK;
    if (!(p->params = comb_arena_alloc(a, (size_t)(*next - first) *
                                              sizeof *p->params)))
        return comb_err_nomem(err);
    for (int k = first; k < *next; k++)
        p->params[p->n_params++] = (MsProperty){params->cells[3 * k + 1],
                                                params->cells[3 * k + 2]};
    return COMB_OK;
}

/* The partitions of a table (only `name` unless NULL) in name order.  The
 * three queries run in one read transaction and sort alike, so the
 * children of each partition follow one another. */
static int parts_fetch(MsSqlite *h, const MsTable *t, int64_t tbl_id,
                       const char *name, CombArena *a, MsPartition **out,
                       int *n, CombErr *err)
{
    PartCells parts, vals, params;
    MsPartition *list = NULL;
    int next_val = 0, next_param = 0;
    int rc = part_cells(h, SQ_PARTS_GET, tbl_id, name, 7, a, &parts, err);
    if (!rc)
        rc = part_cells(h, SQ_PART_VALS_GET, tbl_id, name, 2, a, &vals, err);
    if (!rc)
        rc = part_cells(h, SQ_PART_PARAMS_GET, tbl_id, name, 3, a, &params,
                        err);
    if (!rc && parts.n > 0 &&
        !(list = comb_arena_calloc(a, (size_t)parts.n * sizeof *list)))
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < parts.n; i++) {
        rc = part_from_rows(h, &parts, i, &vals, &next_val, t->n_part_keys, a,
                            &list[i], err);
        if (!rc)
            rc = part_params_from_rows(&params, parts.cells[7 * i],
                                       &next_param, a, &list[i], err);
    }
    if (!rc && (next_val != vals.n || next_param != params.n))
        rc = damaged_partition(h, "rows out of order", err);
    if (!rc) {
        *out = list;
        *n = parts.n;
    }
    return rc;
}

static int part_list_body(MsSqlite *h, const char *db, const char *table,
                          const char *name, const MsProperty *spec,
                          int n_spec, CombArena *a, MsPartition **out, int *n,
                          CombErr *err)
{
    MsTable *t;
    int64_t tbl_id;
    int rc = table_fetch(h, db, table, a, &t, &tbl_id, err);
    if (!rc)
        rc = parts_fetch(h, t, tbl_id, name, a, out, n, err);
    if (!rc)
        rc = ms_parts_filter(t, spec, n_spec, *out, n, err);
    return rc;
}

static int mss_part_list(void *impl, const char *db, const char *table,
                         const char *name, const MsProperty *spec, int n_spec,
                         CombArena *a, MsPartition **out, int *n,
                         CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h,
                    part_list_body(h, db, table, name, spec, n_spec, a, out,
                                   n, err),
                    err);
    if (rc) {
        *out = NULL;
        *n = 0;
    }
    return rc;
}

static int part_set_location_body(MsSqlite *h, const char *db,
                                  const char *table, const char *name,
                                  const char *location, CombErr *err)
{
    int64_t tbl_id;
    int rc = table_id(h, db, table, &tbl_id, err);
    if (!rc)
        rc = sq_exec(h, SQ_PART_SET_LOCATION,
                     SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(name), SQ_TEXT(location)),
                     err);
    if (!rc && sqlite3_changes(h->db) == 0)
        rc = ms_err_no_part(err, db, table, name);
    return rc;
}

static int mss_part_set_location(void *impl, const char *db,
                                 const char *table, const char *name,
                                 const char *location, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    part_set_location_body(h, db, table, name, location, err),
                    err);
    return rc;
}

static int part_set_params_body(MsSqlite *h, const char *db,
                                const char *table, const char *name,
                                const MsProperty *params, int n, CombErr *err)
{
    int64_t tbl_id, part_id = 0;
    bool found = false;
    int rc = table_id(h, db, table, &tbl_id, err);
    if (!rc)
        rc = sq_query_int(h, SQ_PART_ID, SQ_ARGS(SQ_INT(tbl_id), SQ_TEXT(name)),
                          &part_id, &found, err);
    if (!rc && !found)
        rc = ms_err_no_part(err, db, table, name);
    if (!rc)
        rc = sq_exec(h, SQ_PART_DELETE_PARAMS, SQ_ARGS(SQ_INT(part_id)), err);
    /* INSERT OR REPLACE: a repeated key keeps its last value */
    if (!rc)
        rc = props_insert(h, SQ_PART_PARAM_INSERT, part_id, params, n, err);
    return rc;
}

static int mss_part_set_params(void *impl, const char *db, const char *table,
                               const char *name, const MsProperty *params,
                               int n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    part_set_params_body(h, db, table, name, params, n, err),
                    err);
    return rc;
}

/* -------------------------------------------------- column statistics */

static int colstats_put_body(MsSqlite *h, const char *db, const char *table,
                             const char *part, char *const *cells, int n,
                             CombErr *err)
{
    int64_t id;
    bool found;
    int rc = table_find(h, db, table, &id, &found, err);
    if (!rc && !found)
        rc = ms_err_no_table(err, db, table);
    for (int i = 0; i < n && !rc; i++) {
        char *const *c = cells + (size_t)i * MS_COLSTATS_CELLS;
        rc = sq_exec(h, SQ_COLSTATS_PUT,
                     SQ_ARGS(SQ_INT(id), SQ_TEXT(part), SQ_TEXT(c[0]),
                             SQ_TEXT(c[1]), SQ_TEXT(c[2]), SQ_TEXT(c[3]),
                             SQ_TEXT(c[4]), SQ_TEXT(c[5]), SQ_TEXT(c[6]),
                             SQ_TEXT(c[7]), SQ_TEXT(c[8]), SQ_TEXT(c[9]),
                             SQ_TEXT(c[10]), SQ_TEXT(c[11]), SQ_TEXT(c[12])),
                     err);
    }
    return rc;
}

static int mss_colstats_put(void *impl, const char *db, const char *table,
                            const char *part, char *const *cells, int n,
                            CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, colstats_put_body(h, db, table, part, cells, n, err),
                    err);
    return rc;
}

static int colstats_get_body(MsSqlite *h, const char *db, const char *table,
                             const char *part, CombArena *a, char ***cells,
                             int *n, CombErr *err)
{
    int64_t id;
    bool found;
    int rc = table_find(h, db, table, &id, &found, err);
    if (!rc && !found)
        rc = ms_err_no_table(err, db, table);
    if (rc)
        return rc;
    return sq_fetch_texts(h, SQ_COLSTATS_GET,
                          SQ_ARGS(SQ_INT(id), SQ_TEXT(part)),
                          MS_COLSTATS_CELLS, a, cells, n, err);
}

static int mss_colstats_get(void *impl, const char *db, const char *table,
                            const char *part, CombArena *a, char ***cells,
                            int *n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, colstats_get_body(h, db, table, part, a, cells, n, err),
                    err);
    return rc;
}

/* ------------------------------------------------------- authorization */

static int role_create_body(MsSqlite *h, const char *name, const char *owner,
                            int64_t now, CombErr *err)
{
    int rc = sq_exec(h, SQ_ROLE_INSERT,
                     SQ_ARGS(SQ_TEXT(name), SQ_TEXT(owner), SQ_INT(now)), err);
    if (!rc && sqlite3_changes(h->db) == 0)
        rc = comb_err(err, COMB_EEXISTS, "Role %s already exists.", name);
    return rc;
}

static int mss_role_create(void *impl, const char *name, const char *owner,
                           int64_t now, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    return rc ? rc
              : sq_end(h, role_create_body(h, name, owner, now, err), err);
}

static int role_drop_body(MsSqlite *h, const char *name, CombErr *err)
{
    int rc = sq_exec(h, SQ_ROLE_DELETE, SQ_ARGS(SQ_TEXT(name)), err);
    if (!rc && sqlite3_changes(h->db) == 0)
        return comb_err(err, COMB_ENOTFOUND, "Role %s does not exist", name);
    return rc ? rc
              : sq_exec(h, SQ_ROLE_GRANTS_DELETE, SQ_ARGS(SQ_TEXT(name)), err);
}

static int mss_role_drop(void *impl, const char *name, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    return rc ? rc : sq_end(h, role_drop_body(h, name, err), err);
}

static int mss_role_list(void *impl, CombArena *a, char ***names, int *n,
                         CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    return rc ? rc
              : sq_end(h, sq_fetch_texts(h, SQ_ROLE_LIST, NULL, 0, 1, a,
                                         names, n, err),
                       err);
}

/* The key cells as ?1..?7. */
#define SQ_GRANT_KEY_ARGS(c)                                            \
    SQ_ARGS(SQ_TEXT(c[0]), SQ_TEXT(c[1]), SQ_TEXT(c[2]), SQ_TEXT(c[3]), \
            SQ_TEXT(c[4]), SQ_TEXT(c[5]), SQ_TEXT(c[6]))

static int grant_put_body(MsSqlite *h, char *const *c, bool *found,
                          CombErr *err)
{
    int rc = sq_exec(h, SQ_GRANT_INSERT,
                     SQ_ARGS(SQ_TEXT(c[0]), SQ_TEXT(c[1]), SQ_TEXT(c[2]),
                             SQ_TEXT(c[3]), SQ_TEXT(c[4]), SQ_TEXT(c[5]),
                             SQ_TEXT(c[6]), SQ_TEXT(c[7]), SQ_TEXT(c[8]),
                             SQ_TEXT(c[9]), SQ_TEXT(c[10])),
                     err);
    *found = !rc && sqlite3_changes(h->db) == 0;
    if (!rc && *found && strcmp(c[7], "1") == 0)
        rc = sq_exec(h, SQ_GRANT_SET_OPTION, SQ_GRANT_KEY_ARGS(c), err);
    return rc;
}

static int mss_grant_put(void *impl, char *const *cells, bool *found,
                         CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    return rc ? rc : sq_end(h, grant_put_body(h, cells, found, err), err);
}

static int grant_drop_body(MsSqlite *h, char *const *c, bool option_only,
                           bool *found, CombErr *err)
{
    int rc = sq_exec(h, option_only ? SQ_GRANT_CLEAR_OPTION : SQ_GRANT_DELETE,
                     SQ_GRANT_KEY_ARGS(c), err);
    *found = !rc && sqlite3_changes(h->db) > 0;
    return rc;
}

static int mss_grant_drop(void *impl, char *const *cells, bool option_only,
                          bool *found, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    return rc ? rc
              : sq_end(h, grant_drop_body(h, cells, option_only, found, err),
                       err);
}

static int mss_grant_list(void *impl, char *const *filter, CombArena *a,
                          char ***cells, int *n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    return rc ? rc
              : sq_end(h, sq_fetch_texts(h, SQ_GRANT_LIST,
                                         SQ_GRANT_KEY_ARGS(filter),
                                         MS_GRANT_CELLS, a, cells, n, err),
                       err);
}

/* ------------------------------------------------------- transactions */

/* A TXNS row: whether it exists, its state, type and abort reason, and
 * whether the txn has TXN_COMPONENTS rows. */
typedef struct SqTxn {
    bool found;
    MsTxnState state;
    int type;
    bool has_components;
    char reason[160];
} SqTxn;

/* The TXNS row of txnid.  A state letter outside o/a/c is a damaged row,
 * reported, never trusted. */
static int txn_lookup(MsSqlite *h, int64_t txnid, SqTxn *t, CombErr *err)
{
    sqlite3_stmt *st;
    const unsigned char *letter, *reason;
    bool ok;
    int rc = sq_prepare(h, SQ_TXN_GET, SQ_ARGS(SQ_INT(txnid)), &st, err);
    memset(t, 0, sizeof *t);
    t->state = MS_TXN_OPEN;
    if (rc || (rc = sq_step(h, st, &t->found, err)) || !t->found)
        return rc;
    letter = sqlite3_column_text(st, 0);
    ok = letter && ms_txn_state_parse(letter[0], &t->state);
    t->type = sqlite3_column_int(st, 1);
    reason = sqlite3_column_text(st, 2);
    snprintf(t->reason, sizeof t->reason, "%s",
             reason ? (const char *)reason : "");
    t->has_components = sqlite3_column_int(st, 3) != 0;
    sq_release(st);
    if (!ok)
        return comb_err(err, COMB_EMETASTORE,
                        "metastore '%s': TXNS row of txnid:%lld has an "
                        "invalid TXN_STATE",
                        h->path, (long long)txnid);
    return COMB_OK;
}

/* An operation that needs txnid open: COMB_OK, or why not. */
static int txn_require_open(MsSqlite *h, int64_t txnid, CombErr *err)
{
    SqTxn t;
    int rc = txn_lookup(h, txnid, &t, err);
    if (!rc && (!t.found || t.state != MS_TXN_OPEN))
        rc = ms_err_txn_not_open(err, txnid, t.found, t.state, t.reason);
    return rc;
}

/* NEXT_TXN_ID, the id the next txn gets; a missing or non-positive one is
 * a damaged metastore, never trusted. */
static int next_txn_get(MsSqlite *h, int64_t *next, CombErr *err)
{
    bool found;
    int rc = sq_query_int(h, SQ_NEXT_TXN_GET, SQ_NO_ARGS, next, &found, err);
    if (!rc && (!found || *next <= 0))
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': NEXT_TXN_ID has no valid row",
                      h->path);
    return rc;
}

/* Read-only txns of this handle, whose end needs no sync. */
static void ro_remember(MsSqlite *h, int64_t txnid)
{
    memmove(h->ro_txns + 1, h->ro_txns,
            (SQ_RO_MAX - 1) * sizeof h->ro_txns[0]);
    h->ro_txns[0] = txnid;
}

static bool ro_forget(MsSqlite *h, int64_t txnid)
{
    for (int i = 0; i < SQ_RO_MAX; i++) {
        if (h->ro_txns[i] == txnid) {
            h->ro_txns[i] = 0;
            return true;
        }
    }
    return false;
}

static int txn_open_body(MsSqlite *h, const char *user, const char *host,
                         MsTxnType type, int64_t max_open, int64_t *txnid,
                         CombErr *err)
{
    int64_t next = 0, n_open = 0;
    bool found;
    int rc = COMB_OK;
    if (max_open > 0 &&
        !(rc = sq_query_int(h, SQ_TXN_COUNT_OPEN, SQ_ARGS(SQ_INT(max_open)),
                            &n_open, &found, err)) &&
        n_open >= max_open)
        return comb_err(err, COMB_ETXN,
                        "Maximum allowed number of open transactions has "
                        "been reached. See hive.max.open.txns.");
    /* (UPDATE ... RETURNING would be one statement, but SQLite builds
     * and frees a temporary table for each: dearer than two) */
    if (!rc)
        rc = next_txn_get(h, &next, err);
    if (!rc)
        rc = sq_exec(h, SQ_NEXT_TXN_SET, SQ_ARGS(SQ_INT(next + 1)), err);
    if (!rc)
        rc = sq_exec(h, SQ_TXN_INSERT,
                     SQ_ARGS(SQ_INT(next), SQ_TEXT(user), SQ_TEXT(host),
                             SQ_INT(type)),
                     err);
    if (!rc)
        rc = sq_exec(h, SQ_MHL_INSERT, SQ_ARGS(SQ_INT(next)), err);
    if (!rc)
        *txnid = next;
    return rc;
}

/* ------------------------------------------------------------- locks */

/* The current row of a SQ_LOCK_COLUMNS query into *r, strings in `a`. */
static void lock_row_of(sqlite3_stmt *st, CombArena *a, MsLockRow *r,
                        bool *nomem)
{
    const unsigned char *state = sqlite3_column_text(st, 6);
    const unsigned char *type = sqlite3_column_text(st, 7);
    r->extid = sqlite3_column_int64(st, 0);
    r->intid = sqlite3_column_int64(st, 1);
    r->txnid = sqlite3_column_int64(st, 2);
    r->db = sq_col_text(st, 3, a, nomem);
    r->table = sq_col_text(st, 4, a, nomem);
    r->partition = sq_col_text(st, 5, a, nomem);
    r->state = state ? (MsLockState)state[0] : MS_LOCK_WAITING;
    r->type = type ? (MsLockType)type[0] : MS_LOCK_EXCLUSIVE;
    r->last_heartbeat = sqlite3_column_int64(st, 8);
    r->acquired_at = sqlite3_column_int64(st, 9);
    r->user = sq_col_text(st, 10, a, nomem);
    r->host = sq_col_text(st, 11, a, nomem);
    r->agent_info = sq_col_text(st, 12, a, nomem);
    r->blocked_by_extid = sqlite3_column_int64(st, 13);
    r->blocked_by_intid = sqlite3_column_int64(st, 14);
}

/* Every row of a SQ_LOCK_COLUMNS query, array and strings in `a`. */
static int lock_rows_fetch(MsSqlite *h, SqId id, const SqArg *args,
                           int n_args, CombArena *a, MsLockRow **rows,
                           int *n, CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, id, args, n_args, &st, err);
    *rows = NULL;
    *n = 0;
    while (!rc && !(rc = sq_step(h, st, &row, err)) && row) {
        MsLockRow r;
        lock_row_of(st, a, &r, &nomem);
        if (nomem || comb_buf_append(&buf, &r, sizeof r)) {
            sq_release(st);
            rc = comb_err_nomem(err);
        }
    }
    if (!rc && buf.len) {
        if ((*rows = comb_arena_alloc(a, buf.len)))
            memcpy(*rows, buf.data, buf.len);
        else
            rc = comb_err_nomem(err);
    }
    if (!rc)
        *n = (int)(buf.len / sizeof(MsLockRow));
    comb_buf_free(&buf);
    return rc;
}

/* The rows of request rq under a new ext lock id, all waiting. */
static int lock_enqueue(MsSqlite *h, const MsLockRequest *rq, int64_t *extid,
                        CombErr *err)
{
    int64_t next = 0;
    bool found;
    int rc = sq_query_int(h, SQ_NEXT_LOCK_GET, SQ_NO_ARGS, &next, &found, err);
    if (!rc && (!found || next <= 0))
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': NEXT_LOCK_ID has no valid row",
                      h->path);
    if (!rc)
        rc = sq_exec(h, SQ_NEXT_LOCK_SET, SQ_ARGS(SQ_INT(next + 1)), err);
    for (int i = 0; !rc && i < rq->n; i++) {
        const MsLockComponent *c = &rq->components[i];
        const char type[2] = {(char)c->type, '\0'};
        rc = sq_exec(h, SQ_LOCK_INSERT,
                     SQ_ARGS(SQ_INT(next), SQ_INT(i + 1), SQ_INT(rq->txnid),
                             SQ_TEXT(c->db), SQ_TEXT(c->table),
                             SQ_TEXT(c->partition), SQ_TEXT(type),
                             SQ_TEXT(rq->user ? rq->user : ""),
                             SQ_TEXT(rq->host ? rq->host : ""),
                             SQ_TEXT(rq->agent_info)),
                     err);
    }
    if (!rc)
        *extid = next;
    return rc;
}

/* Hive's checkLock on request extid of txnid, known to be open. */
static int lock_decide_body(MsSqlite *h, int64_t txnid, int64_t extid,
                            bool zero_wait_read, MsLockStatus *out,
                            CombErr *err)
{
    CombArena a;
    MsLockRow *req = NULL, *earlier = NULL;
    int n_req = 0, n_earlier = 0, ri, ei;
    int rc;
    memset(out, 0, sizeof *out);
    out->extid = extid;
    comb_arena_init(&a, 4096);
    rc = lock_rows_fetch(h, SQ_LOCK_ROWS, SQ_ARGS(SQ_INT(extid)), &a, &req,
                         &n_req, err);
    if (!rc && n_req == 0)
        rc = comb_err(err, COMB_ENOTFOUND, "No such lock: lockid:%lld",
                      (long long)extid);
    if (!rc)
        rc = lock_rows_fetch(h, SQ_LOCK_EARLIER,
                             SQ_ARGS(SQ_INT(extid), SQ_INT(txnid)), &a,
                             &earlier, &n_earlier, err);
    if (!rc) {
        ms_lock_decide(req, n_req, earlier, n_earlier, zero_wait_read, out,
                       &ri, &ei);
        if (out->state == MS_LOCK_ACQUIRED)
            rc = sq_exec(h, SQ_LOCK_ACQUIRE, SQ_ARGS(SQ_INT(extid)), err);
        else if (out->state == MS_LOCK_REFUSED)
            rc = sq_exec(h, SQ_LOCK_DELETE_EXT, SQ_ARGS(SQ_INT(extid)), err);
        else
            rc = sq_exec(h, SQ_LOCK_BLOCKED,
                         SQ_ARGS(SQ_INT(extid), SQ_INT(req[ri].intid),
                                 SQ_INT(earlier[ei].extid),
                                 SQ_INT(earlier[ei].intid)),
                         err);
    }
    comb_arena_free(&a);
    return rc;
}

/* Hive's checkLock on request extid of open txn txnid. */
static int lock_check_body(MsSqlite *h, int64_t txnid, int64_t extid,
                           bool zero_wait_read, MsLockStatus *out,
                           CombErr *err)
{
    int rc = txn_require_open(h, txnid, err);
    if (rc) {
        memset(out, 0, sizeof *out);
        out->extid = extid;
        return rc;
    }
    return lock_decide_body(h, txnid, extid, zero_wait_read, out, err);
}

/* TXN_COMPONENTS rows of open txn txnid: the n partitions of a table, or
 * its table-level row for partitions == NULL. */
static int components_insert(MsSqlite *h, int64_t txnid, const char *db,
                             const char *table, const char *const *partitions,
                             int n, MsOpType op, int64_t writeid,
                             CombErr *err)
{
    const char letter[2] = {(char)op, '\0'};
    int rc = COMB_OK;
    for (int i = 0; !rc && i < n; i++)
        rc = sq_exec(h, SQ_TC_INSERT,
                     SQ_ARGS(SQ_INT(txnid), SQ_TEXT(db), SQ_TEXT(table),
                             SQ_TEXT(partitions ? partitions[i] : NULL),
                             SQ_TEXT(letter), SQ_INT(writeid)),
                     err);
    return rc;
}

/* Request rq of txn rq->txnid, known to be open: enqueued and checked;
 * the components it writes recorded unless it was refused. */
static int lock_request_body(MsSqlite *h, const MsLockRequest *rq,
                             MsLockStatus *out, CombErr *err)
{
    int64_t extid = 0;
    int rc = lock_enqueue(h, rq, &extid, err);
    if (!rc)
        rc = lock_decide_body(h, rq->txnid, extid, rq->zero_wait_read, out,
                              err);
    for (int i = 0; !rc && out->state != MS_LOCK_REFUSED && i < rq->n; i++) {
        const MsLockComponent *c = &rq->components[i];
        if (c->op != MS_OP_NONE)
            rc = components_insert(h, rq->txnid, c->db, c->table,
                                   c->partition ? &c->partition : NULL, 1,
                                   c->op, c->writeid, err);
    }
    return rc;
}

static int lock_body(MsSqlite *h, const MsLockRequest *rq, MsLockStatus *out,
                     CombErr *err)
{
    int rc = txn_require_open(h, rq->txnid, err);
    return rc ? rc : lock_request_body(h, rq, out, err);
}

static int mss_lock(void *impl, const MsLockRequest *rq, MsLockStatus *out,
                    CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h, lock_body(h, rq, out, err), err);
    return rc;
}

static int mss_lock_check(void *impl, int64_t txnid, int64_t extid,
                          bool zero_wait_read, MsLockStatus *out,
                          CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h, lock_check_body(h, txnid, extid, zero_wait_read, out,
                                       err),
                    err);
    return rc;
}

static int mss_unlock(void *impl, int64_t extid, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc) {
        rc = sq_exec(h, SQ_UNLOCK_WAITING, SQ_ARGS(SQ_INT(extid)), err);
        if (!rc && sqlite3_changes(h->db) == 0)
            rc = comb_err(err, COMB_ENOTFOUND, "No such lock: lockid:%lld",
                          (long long)extid);
        rc = sq_end(h, rc, err);
    }
    return rc;
}

static int mss_lock_list(void *impl, const char *db, const char *table,
                         const char *partition, CombArena *a,
                         MsLockRow **rows, int *n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h,
                    lock_rows_fetch(h, SQ_LOCK_LIST,
                                    SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table),
                                            SQ_TEXT(partition)),
                                    a, rows, n, err),
                    err);
    return rc;
}

/* ------------------------------------------------ opening and ending */

/* A TXN_NOT_COMMITTED row (txnid, state letter) as an MsTxnRow. */
static void txn_row_of(sqlite3_stmt *st, void *entry)
{
    const unsigned char *letter = sqlite3_column_text(st, 1);
    *(MsTxnRow *)entry = (MsTxnRow){sqlite3_column_int64(st, 0),
                                    letter ? (char)letter[0] : '?'};
}

static int txn_row_cmp(const void *a, const void *b)
{
    int64_t x = ((const MsTxnRow *)a)->txnid, y = ((const MsTxnRow *)b)->txnid;
    return (x > y) - (x < y);
}

/* SQ_TXN_NOT_COMMITTED's rows in ascending id order, as
 * ms_snapshot_build reads them; mostly they already are (one state). */
static void txn_rows_sort(MsTxnRow *rows, int n)
{
    for (int i = 1; i < n; i++) {
        if (rows[i - 1].txnid > rows[i].txnid) {
            qsort(rows, (size_t)n, sizeof *rows, txn_row_cmp);
            return;
        }
    }
}

/* The snapshot of txnid (0: none), with NEXT_TXN_ID as `next` when the
 * caller knows it in this transaction (0: read it). */
static int txn_snapshot_body(MsSqlite *h, int64_t txnid, int64_t next,
                             CombTxnList *out, CombErr *err)
{
    void *rows = NULL; /* MsTxnRow: open and aborted txns, ascending */
    int n_rows = 0;
    int rc = next > 0 ? COMB_OK : next_txn_get(h, &next, err);
    if (!rc)
        rc = sq_fetch_rows(h, SQ_TXN_NOT_COMMITTED, SQ_NO_ARGS, txn_row_of,
                           sizeof(MsTxnRow), &rows, &n_rows, err);
    if (!rc) {
        txn_rows_sort(rows, n_rows);
        rc = ms_snapshot_build(next - 1, rows, n_rows, txnid, out, err);
    }
    comb_free(rows);
    return rc;
}

static int txn_begin_body(MsSqlite *h, const char *user, const char *host,
                          MsTxnType type, int64_t max_open,
                          const MsLockRequest *locks, int64_t *txnid,
                          MsLockStatus *status, CombTxnList *snapshot,
                          bool *have_snapshot, CombErr *err)
{
    bool want_locks = locks && locks->n > 0;
    int rc = txn_open_body(h, user, host, type, max_open, txnid, err);
    if (!rc && want_locks) {
        MsLockRequest rq = *locks;
        rq.txnid = *txnid;
        rq.user = rq.user ? rq.user : user;
        rq.host = rq.host ? rq.host : host;
        /* the txn was opened in this transaction: no need to look */
        rc = lock_request_body(h, &rq, status, err);
    }
    if (!rc && snapshot &&
        (!want_locks || status->state == MS_LOCK_ACQUIRED)) {
        /* this transaction just took *txnid: the next id is one above */
        rc = txn_snapshot_body(h, *txnid, *txnid + 1, snapshot, err);
        *have_snapshot = !rc;
    }
    return rc;
}

/* Opening a txn needs no sync: a durable step always follows before
 * anything depends on it (write ids are allocated durably), and a txn
 * lost with the power had no reader left to care. */
static int mss_txn_begin(void *impl, const char *user, const char *host,
                         MsTxnType type, int64_t max_open,
                         const MsLockRequest *locks, int64_t *txnid,
                         MsLockStatus *status, CombTxnList *snapshot,
                         bool *have_snapshot, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h,
                    txn_begin_body(h, user, host, type, max_open, locks,
                                   txnid, status, snapshot, have_snapshot,
                                   err),
                    err);
    if (rc && *have_snapshot) {
        comb_idlist_free(snapshot);
        *have_snapshot = false;
    }
    if (!rc && type == MS_TXN_TYPE_READ_ONLY)
        ro_remember(h, *txnid);
    return rc;
}

/* Record this txn's update/delete writes in WRITE_SET, unless (checking)
 * one of them conflicts with a committed one; then *conflict holds that
 * row. */
static int write_set_check(MsSqlite *h, int64_t txnid, int64_t commit_id,
                           bool check, CombArena *a, char ***conflict,
                           CombErr *err)
{
    int n_rows = 0;
    int rc = check ? sq_fetch_texts(h, SQ_WS_CONFLICT, SQ_ARGS(SQ_INT(txnid)),
                                    7, a, conflict, &n_rows, err)
                   : COMB_OK;
    if (rc || n_rows > 0)
        return rc;
    *conflict = NULL;
    return sq_exec(h, SQ_WS_INSERT, SQ_ARGS(SQ_INT(txnid), SQ_INT(commit_id)),
                   err);
}

/* An open txn ends: its locks and MIN_HISTORY_LEVEL row go with it. */
static int txn_release(MsSqlite *h, int64_t txnid, CombErr *err)
{
    int rc = sq_exec(h, SQ_LOCKS_DELETE, SQ_ARGS(SQ_INT(txnid)), err);
    if (!rc)
        rc = sq_exec(h, SQ_MHL_DELETE, SQ_ARGS(SQ_INT(txnid)), err);
    return rc;
}

/* Abort open txnid for `reason`; nothing for any other state. */
static int txn_abort_body(MsSqlite *h, int64_t txnid, const char *reason,
                          CombErr *err)
{
    int rc = sq_exec(h, SQ_TXN_ABORT_REASON,
                     SQ_ARGS(SQ_INT(txnid), SQ_TEXT(reason)), err);
    if (!rc && sqlite3_changes(h->db) > 0)
        rc = txn_release(h, txnid, err);
    return rc;
}

/* A committing txn's components: its write set checked against committed
 * ones (first committer wins) and recorded, then its TXN_COMPONENTS rows
 * moved to COMPLETED_TXN_COMPONENTS.  A txn without components skips all
 * of it: it has nothing to conflict with or to move. */
static int txn_commit_components(MsSqlite *h, int64_t txnid, bool excl_write,
                                 CombArena *a, int64_t *commit_id,
                                 char ***conflict, CombErr *err)
{
    int64_t next = 0;
    bool found;
    /* commit id: the highest txn id handed out so far (NEXT_TXN_ID - 1) */
    int rc = sq_query_int(h, SQ_NEXT_TXN_GET, SQ_NO_ARGS, &next, &found, err);
    *commit_id = next - 1;
    if (!rc)
        rc = write_set_check(h, txnid, *commit_id, !excl_write, a, conflict,
                             err);
    if (!rc && !*conflict)
        rc = sq_exec(h, SQ_TC_COMPLETE, SQ_ARGS(SQ_INT(txnid)), err);
    if (!rc && !*conflict)
        rc = sq_exec(h, SQ_TC_DELETE, SQ_ARGS(SQ_INT(txnid)), err);
    return rc;
}

static int txn_commit_body(MsSqlite *h, int64_t txnid, bool excl_write,
                           CombArena *a, int64_t *commit_id, char ***conflict,
                           CombErr *err)
{
    SqTxn t;
    int rc = txn_lookup(h, txnid, &t, err);
    *conflict = NULL;
    if (rc)
        return rc;
    if (t.found && t.state == MS_TXN_COMMITTED)
        return COMB_OK; /* a retried commit */
    if (!t.found || t.state != MS_TXN_OPEN)
        return ms_err_txn_not_open(err, txnid, t.found, t.state, t.reason);
    if (t.has_components)
        rc = txn_commit_components(h, txnid, excl_write, a, commit_id,
                                   conflict, err);
    if (!rc && *conflict)
        return txn_abort_body(h, txnid, MS_ABORT_WRITE_CONFLICT, err);
    if (!rc)
        rc = txn_release(h, txnid, err);
    if (!rc)
        rc = sq_exec(h, SQ_TXN_SET_STATE,
                     SQ_ARGS(SQ_INT(txnid), SQ_TEXT("c")), err);
    return rc;
}

/* A conflict aborts the txn durably (the abort is committed to the
 * metastore) and then reports Hive's error 10263.  A read-only txn's
 * commit changes nothing anyone reads durably: not synced. */
static int mss_txn_commit(void *impl, int64_t txnid, bool excl_write,
                          CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    char **conflict = NULL;
    int64_t commit_id = 0;
    int rc;
    comb_arena_init(&a, 1024);
    rc = ro_forget(h, txnid) ? sq_begin_light(h, err) : sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    txn_commit_body(h, txnid, excl_write, &a, &commit_id,
                                    &conflict, err),
                    err);
    if (!rc && conflict)
        rc = ms_err_write_conflict(err, txnid, commit_id, conflict);
    comb_arena_free(&a);
    return rc;
}

/* The table, its partitions and the commit in one write transaction; a
 * write conflict (impossible for a new table, checked all the same) rolls
 * all of it back. */
static int txn_commit_create_body(MsSqlite *h, int64_t txnid,
                                  const MsTable *t, const MsPartition *parts,
                                  int n, CombArena *a, CombErr *err)
{
    char **conflict = NULL;
    int64_t commit_id = 0;
    int rc = table_create_body(h, t, false, err);
    if (!rc && n > 0)
        rc = part_add_body(h, t->db, t->name, parts, n, false, NULL, a, err);
    if (!rc)
        rc = txn_commit_body(h, txnid, false, a, &commit_id, &conflict, err);
    if (!rc && conflict)
        rc = ms_err_write_conflict(err, txnid, commit_id, conflict);
    return rc;
}

static int mss_txn_commit_create(void *impl, int64_t txnid, const MsTable *t,
                                 const MsPartition *parts, int n, CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 4096);
    rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, txn_commit_create_body(h, txnid, t, parts, n, &a, err),
                    err);
    comb_arena_free(&a);
    return rc;
}

/* An abort need not be durable: a txn whose abort is lost is found open
 * without heartbeat and aborted again by the housekeeper. */
static int mss_txn_abort(void *impl, int64_t txnid, const char *reason,
                         CombErr *err)
{
    MsSqlite *h = impl;
    int rc;
    ro_forget(h, txnid);
    rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h, txn_abort_body(h, txnid, reason, err), err);
    return rc;
}

static int mss_txn_state(void *impl, int64_t txnid, MsTxnState *state,
                         CombErr *err)
{
    MsSqlite *h = impl;
    SqTxn t;
    int rc = txn_lookup(h, txnid, &t, err);
    *state = t.state;
    if (!rc && !t.found)
        rc = comb_err(err, COMB_ENOTFOUND, "No such transaction txnid:%lld",
                      (long long)txnid);
    return rc;
}

static int mss_txn_snapshot(void *impl, int64_t txnid, CombTxnList *out,
                            CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, txn_snapshot_body(h, txnid, 0, out, err), err);
    if (rc)
        comb_idlist_free(out);
    return rc;
}

static int txn_list_body(MsSqlite *h, CombArena *a, MsTxnInfo **rows, int *n,
                         CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, SQ_TXN_LIST, SQ_NO_ARGS, &st, err);
    while (!rc && !(rc = sq_step(h, st, &row, err)) && row) {
        const unsigned char *letter = sqlite3_column_text(st, 1);
        MsTxnInfo t = {0};
        t.txnid = sqlite3_column_int64(st, 0);
        t.state = letter && letter[0] == 'a' ? MS_TXN_ABORTED : MS_TXN_OPEN;
        t.type = (MsTxnType)sqlite3_column_int(st, 2);
        t.started = sqlite3_column_int64(st, 3);
        t.last_heartbeat = sqlite3_column_int64(st, 4);
        t.user = sq_col_text(st, 5, a, &nomem);
        t.host = sq_col_text(st, 6, a, &nomem);
        t.meta_info = sq_col_text(st, 7, a, &nomem);
        if (nomem || comb_buf_append(&buf, &t, sizeof t)) {
            sq_release(st);
            rc = comb_err_nomem(err);
        }
    }
    if (!rc && buf.len && !(*rows = comb_arena_alloc(a, buf.len)))
        rc = comb_err_nomem(err);
    if (!rc && buf.len)
        memcpy(*rows, buf.data, buf.len);
    if (!rc)
        *n = (int)(buf.len / sizeof(MsTxnInfo));
    comb_buf_free(&buf);
    return rc;
}

static int mss_txn_list(void *impl, CombArena *a, MsTxnInfo **rows, int *n,
                        CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, txn_list_body(h, a, rows, n, err), err);
    return rc;
}

static int heartbeat_body(MsSqlite *h, const int64_t *txnids, int n,
                          bool *open, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; !rc && i < n; i++) {
        rc = sq_exec(h, SQ_TXN_HEARTBEAT, SQ_ARGS(SQ_INT(txnids[i])), err);
        open[i] = !rc && sqlite3_changes(h->db) > 0;
    }
    return rc;
}

static int mss_txn_heartbeat(void *impl, const int64_t *txnids, int n,
                             bool *open, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h, heartbeat_body(h, txnids, n, open, err), err);
    return rc;
}

/* --------------------------------------------------------- housekeeping */

/* Is a run due: none recorded, or the last one at least interval_ms old? */
static int housekeep_due(MsSqlite *h, int64_t interval_ms, bool *due,
                         CombErr *err)
{
    int64_t v = 0;
    bool found;
    int rc = sq_query_int(h, SQ_HK_DUE, SQ_ARGS(SQ_INT(interval_ms)), &v,
                          &found, err);
    *due = !rc && found && v != 0;
    return rc;
}

/* Abort every open txn not heard from for timeout_ms. */
static int housekeep_timeouts(MsSqlite *h, int64_t timeout_ms,
                              MsHousekeepResult *out, CombErr *err)
{
    CombArena a;
    char **ids = NULL;
    int n = 0;
    int rc;
    comb_arena_init(&a, 1024);
    rc = sq_fetch_texts(h, SQ_HK_TIMED_OUT, SQ_ARGS(SQ_INT(timeout_ms)), 1,
                        &a, &ids, &n, err);
    for (int i = 0; !rc && i < n; i++)
        rc = txn_abort_body(h, strtoll(ids[i], NULL, 10), MS_ABORT_TIMEOUT,
                            err);
    if (!rc)
        out->timed_out = n;
    comb_arena_free(&a);
    return rc;
}

/* Run one delete (with its one parameter, if it has one); its row count
 * goes to *count. */
static int housekeep_delete(MsSqlite *h, SqId id, int64_t param,
                            int64_t *count, CombErr *err)
{
    int rc = id == SQ_HK_CTC ? sq_exec(h, id, SQ_NO_ARGS, err)
                             : sq_exec(h, id, SQ_ARGS(SQ_INT(param)), err);
    if (!rc)
        *count += sqlite3_changes(h->db);
    return rc;
}

static int housekeep_body(MsSqlite *h, const MsHousekeeping *cfg,
                          MsHousekeepResult *out, CombErr *err)
{
    int64_t w = 0;
    bool due, found;
    int rc = housekeep_due(h, cfg->interval_ms, &due, err);
    if (rc || !due)
        return rc;
    out->ran = true;
    if ((rc = sq_exec(h, SQ_HK_MARK, SQ_NO_ARGS, err)) ||
        (rc = housekeep_timeouts(h, cfg->txn_timeout_ms, out, err)) ||
        (rc = sq_query_int(h, SQ_HK_WATERMARK, SQ_NO_ARGS, &w, &found, err)))
        return rc;
    if (!(rc = housekeep_delete(h, SQ_HK_WRITE_SET, w, &out->rows_deleted,
                                err)) &&
        !(rc = housekeep_delete(h, SQ_HK_T2W, w, &out->rows_deleted, err)) &&
        !(rc = housekeep_delete(h, SQ_HK_CTC, w, &out->rows_deleted, err)) &&
        !(rc = housekeep_delete(h, SQ_HK_TXNS_COMMITTED, w, &out->txns_deleted,
                                err)))
        rc = housekeep_delete(h, SQ_HK_TXNS_ABORTED, cfg->txn_timeout_ms,
                              &out->txns_deleted, err);
    return rc;
}

/* Checked first outside any transaction, so that a process finding the
 * run not due does not take the write lock; checked again inside, where
 * only one process at a time gets (SQLite has one writer). */
static int mss_housekeep(void *impl, const MsHousekeeping *cfg,
                         MsHousekeepResult *out, CombErr *err)
{
    MsSqlite *h = impl;
    bool due;
    int rc = housekeep_due(h, cfg->interval_ms, &due, err);
    memset(out, 0, sizeof *out);
    if (rc || !due)
        return rc;
    if (!(rc = sq_begin_light(h, err)))
        rc = sq_end(h, housekeep_body(h, cfg, out, err), err);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* TXN_COMPONENTS rows of a txn: the n partitions of a table, or its
 * table-level row for partitions == NULL. */
static int txn_components_insert(MsSqlite *h, int64_t txnid, const char *db,
                                 const char *table,
                                 const char *const *partitions, int n,
                                 MsOpType op, int64_t writeid, CombErr *err)
{
    int rc = txn_require_open(h, txnid, err);
    return rc ? rc
              : components_insert(h, txnid, db, table, partitions, n, op,
                                  writeid, err);
}

/* Components need no sync of their own: the commit that makes them count
 * is durable, and a txn that dies first is aborted whatever they say. */
static int mss_txn_add_component(void *impl, int64_t txnid, const char *db,
                                 const char *table, const char *partition,
                                 MsOpType op, int64_t writeid, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h,
                    txn_components_insert(h, txnid, db, table,
                                          partition ? &partition : NULL, 1,
                                          op, writeid, err),
                    err);
    return rc;
}

static int txn_add_partitions_body(MsSqlite *h, int64_t txnid,
                                   const char *db, const char *table,
                                   char *const *partitions, int n,
                                   MsOpType op, int64_t writeid, CombErr *err)
{
    int rc = txn_components_insert(h, txnid, db, table,
                                   (const char *const *)partitions, n, op,
                                   writeid, err);
    if (!rc)
        rc = sq_exec(h, SQ_TC_DELETE_TABLE_LEVEL,
                     SQ_ARGS(SQ_INT(txnid), SQ_TEXT(db), SQ_TEXT(table)),
                     err);
    return rc;
}

static int mss_txn_add_partitions(void *impl, int64_t txnid, const char *db,
                                  const char *table, char *const *partitions,
                                  int n, MsOpType op, int64_t writeid,
                                  CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h,
                    txn_add_partitions_body(h, txnid, db, table, partitions,
                                            n, op, writeid, err),
                    err);
    return rc;
}

/* ----------------------------------------------------------- write ids */

static int writeid_allocate_body(MsSqlite *h, int64_t txnid, const char *db,
                                 const char *table, int64_t *writeid,
                                 CombErr *err)
{
    SqTxn t;
    int64_t next = 1;
    bool found;
    int rc = txn_lookup(h, txnid, &t, err);
    if (!rc && (!t.found || t.state != MS_TXN_OPEN ||
                t.type == MS_TXN_TYPE_READ_ONLY))
        rc = ms_err_writeid_refused(err, db, table);
    /* one write id per txn and table: a second call returns the first */
    if (!rc)
        rc = sq_query_int(h, SQ_T2W_GET,
                          SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table), SQ_INT(txnid)),
                          writeid, &found, err);
    if (rc || found)
        return rc;
    rc = sq_query_int(h, SQ_NWI_GET, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table)),
                      &next, &found, err);
    if (!rc && !found)
        next = 1;
    if (!rc)
        rc = sq_exec(h, SQ_NWI_SET,
                     SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table), SQ_INT(next + 1)),
                     err);
    if (!rc)
        rc = sq_exec(h, SQ_T2W_INSERT,
                     SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table), SQ_INT(txnid),
                             SQ_INT(next)),
                     err);
    if (!rc)
        *writeid = next;
    return rc;
}

/* Allocating needs no sync of its own: a write id matters once a file
 * named by it exists, and the writer syncs (mss_writeid_sync) before it
 * creates the first one; the commit's sync covers it anyway.  A write id
 * lost with the power before then was never seen anywhere, so handing it
 * out again harms nothing. */
static int mss_writeid_allocate(void *impl, int64_t txnid, const char *db,
                                const char *table, int64_t *writeid,
                                CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin_light(h, err);
    if (!rc)
        rc = sq_end(h,
                    writeid_allocate_body(h, txnid, db, table, writeid, err),
                    err);
    if (!rc)
        h->writeid_unsynced = true;
    return rc;
}

static int mss_writeid_sync(void *impl, CombErr *err)
{
    MsSqlite *h = impl;
    int rc;
    if (!h->writeid_unsynced)
        return COMB_OK;
    if (!(rc = sq_wal_sync(h, err)))
        h->writeid_unsynced = false;
    return rc;
}

static int mss_writeid_allocate_batch(void *impl, const int64_t *txnids,
                                      int n, const char *db,
                                      const char *table, int64_t *writeids,
                                      CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err), body = COMB_OK;
    for (int i = 0; !rc && !body && i < n; i++)
        body = writeid_allocate_body(h, txnids[i], db, table, &writeids[i],
                                     err);
    return rc ? rc : sq_end(h, body, err);
}

/* Hive's write-id high watermark: the newest write id of a txn the
 * snapshot could know, else the table's last allocated id, else 0. */
static int writeid_hwm(MsSqlite *h, const CombTxnList *txns, const char *db,
                       const char *table, int64_t *hwm, CombErr *err)
{
    bool found;
    int rc = sq_query_int(h, SQ_T2W_MAX_UNDER,
                          SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table),
                                  SQ_INT(txns->hwm)),
                          hwm, &found, err);
    if (rc || (found && *hwm > 0))
        return rc;
    rc = sq_query_int(h, SQ_NWI_GET, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table)),
                      hwm, &found, err);
    if (!rc)
        *hwm = found ? *hwm - 1 : 0;
    return rc;
}

/* A T2W_UPTO row (txnid, write id) as an MsWriteRow. */
static void write_row_of(sqlite3_stmt *st, void *entry)
{
    *(MsWriteRow *)entry = (MsWriteRow){sqlite3_column_int64(st, 0),
                                        sqlite3_column_int64(st, 1)};
}

static int writeid_list_body(MsSqlite *h, const CombTxnList *txns,
                             const char *db, const char *table,
                             CombWriteIdList *out, CombErr *err)
{
    void *rows = NULL; /* MsWriteRow: the table's up to hwm, ascending */
    int64_t hwm = 0;
    int n_rows = 0;
    int rc = writeid_hwm(h, txns, db, table, &hwm, err);
    if (!rc)
        rc = sq_fetch_rows(h, SQ_T2W_UPTO,
                           SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table), SQ_INT(hwm)),
                           write_row_of, sizeof(MsWriteRow), &rows, &n_rows,
                           err);
    if (!rc)
        rc = ms_writeids_build(txns, db, table, hwm, rows, n_rows, out, err);
    comb_free(rows);
    return rc;
}

static int mss_writeid_list(void *impl, const CombTxnList *txns,
                            const char *db, const char *table,
                            CombWriteIdList *out, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, writeid_list_body(h, txns, db, table, out, err), err);
    if (rc)
        comb_writeidlist_free(out);
    return rc;
}

/* ------------------------------------------------- adopting existing data */

/* Hive's Msck.validateAndAddMaxTxnIdAndWriteId, write-id half. */
static int writeid_seed_body(MsSqlite *h, const char *db, const char *table,
                             int64_t max_writeid, CombErr *err)
{
    int64_t tbl_id, next = 1;
    bool found;
    int rc = table_id(h, db, table, &tbl_id, err);
    if (!rc)
        rc = sq_query_int(h, SQ_NWI_GET, SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table)),
                          &next, &found, err);
    if (rc || max_writeid <= 0)
        return rc;
    if (!found || next <= 1)
        return sq_exec(h, SQ_NWI_SET,
                       SQ_ARGS(SQ_TEXT(db), SQ_TEXT(table),
                               SQ_INT(max_writeid + 1)),
                       err);
    if (max_writeid > next - 1)
        return comb_err(err, COMB_EINVALID,
                        "The maximum writeId %lld in table %s is greater than "
                        "the maximum allocated in the metastore %lld",
                        (long long)max_writeid, table, (long long)(next - 1));
    return COMB_OK;
}

static int mss_writeid_seed(void *impl, const char *db, const char *table,
                            int64_t max_writeid, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, writeid_seed_body(h, db, table, max_writeid, err),
                    err);
    return rc;
}

/* Never lowers the counter: ids handed out stay unique. */
static int txnid_seed_body(MsSqlite *h, int64_t max_txnid, CombErr *err)
{
    int64_t next = 0;
    int rc = next_txn_get(h, &next, err);
    if (!rc && max_txnid >= next)
        rc = sq_exec(h, SQ_NEXT_TXN_SET, SQ_ARGS(SQ_INT(max_txnid + 1)), err);
    return rc;
}

static int mss_txnid_seed(void *impl, int64_t max_txnid, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, txnid_seed_body(h, max_txnid, err), err);
    return rc;
}

/* ------------------------------------------------------- compaction */

static int compact_enqueue_body(MsSqlite *h, const MsCompactRequest *rq,
                                bool *accepted, int64_t *id,
                                MsCompactState *state, CombErr *err)
{
    sqlite3_stmt *st;
    bool row, found;
    int64_t next = 0;
    int rc = sq_prepare(h, SQ_CQ_IN_WAY,
                        SQ_ARGS(SQ_TEXT(rq->db), SQ_TEXT(rq->table),
                                SQ_TEXT(rq->partition)),
                        &st, err);
    if (rc || (rc = sq_step(h, st, &row, err)))
        return rc;
    if (row) {
        const unsigned char *letter = sqlite3_column_text(st, 1);
        *id = sqlite3_column_int64(st, 0);
        *state = letter ? (MsCompactState)letter[0] : MS_CQ_INITIATED;
        sq_release(st);
        return COMB_OK;
    }
    if ((rc = sq_query_int(h, SQ_CQ_NEXT_ID_GET, SQ_NO_ARGS, &next, &found,
                           err)) ||
        (rc = sq_exec(h, SQ_CQ_NEXT_ID_SET, SQ_ARGS(SQ_INT(next + 1)), err)))
        return rc;
    {
        char type[2] = {(char)rq->type, 0};
        rc = sq_exec(h, SQ_CQ_INSERT,
                     SQ_ARGS(SQ_INT(next), SQ_TEXT(rq->db), SQ_TEXT(rq->table),
                             SQ_TEXT(rq->partition), SQ_TEXT(type),
                             SQ_TEXT(rq->tblprops),
                             SQ_TEXT(rq->initiator_id)),
                     err);
    }
    if (!rc) {
        *accepted = true;
        *id = next;
        *state = MS_CQ_INITIATED;
    }
    return rc;
}

static int mss_compact_enqueue(void *impl, const MsCompactRequest *rq,
                               bool *accepted, int64_t *id,
                               MsCompactState *state, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, compact_enqueue_body(h, rq, accepted, id, state, err),
                    err);
    return rc;
}

/* The current row of a SQ_CQ_COLUMNS / SQ_CC_COLUMNS query. */
static void compaction_of(sqlite3_stmt *st, CombArena *a, MsCompaction *c,
                          bool *nomem)
{
    const unsigned char *state = sqlite3_column_text(st, 4);
    const unsigned char *type = sqlite3_column_text(st, 5);
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(st, 0);
    c->db = sq_col_text(st, 1, a, nomem);
    c->table = sq_col_text(st, 2, a, nomem);
    c->partition = sq_col_text(st, 3, a, nomem);
    c->state = state ? (MsCompactState)state[0] : MS_CQ_INITIATED;
    c->type = type ? (MsCompactType)type[0] : MS_CQ_MAJOR;
    c->tblprops = sq_col_text(st, 6, a, nomem);
    c->worker_id = sq_col_text(st, 7, a, nomem);
    c->enqueue_time = sqlite3_column_int64(st, 8);
    c->start = sqlite3_column_int64(st, 9);
    c->end = sqlite3_column_int64(st, 10);
    c->highest_writeid = sqlite3_column_int64(st, 11);
    c->txnid = sqlite3_column_int64(st, 12);
    c->next_txnid = sqlite3_column_int64(st, 13);
    c->commit_time = sqlite3_column_int64(st, 14);
    c->error = sq_col_text(st, 15, a, nomem);
    c->initiator_id = sq_col_text(st, 16, a, nomem);
    c->progress = sq_col_text(st, 17, a, nomem);
}

static int compact_get(MsSqlite *h, int64_t id, CombArena *a,
                       MsCompaction *out, bool *found, CombErr *err)
{
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, SQ_CQ_GET, SQ_ARGS(SQ_INT(id)), &st, err);
    *found = false;
    if (rc || (rc = sq_step(h, st, &row, err)) || !row)
        return rc;
    compaction_of(st, a, out, &nomem);
    sq_release(st);
    *found = true;
    return nomem ? comb_err_nomem(err) : COMB_OK;
}

static void sq_int64_row(sqlite3_stmt *st, void *entry)
{
    *(int64_t *)entry = sqlite3_column_int64(st, 0);
}

/* Txns of workers that stopped answering are aborted with their entries
 * reset to initiated (Hive's revokeTimedoutWorkers). */
static int compact_reset_timed_out(MsSqlite *h, int64_t timeout_ms,
                                   CombErr *err)
{
    int64_t *txns = NULL;
    int n = 0;
    int rc = sq_fetch_rows(h, SQ_CQ_TIMED_OUT_TXNS,
                           SQ_ARGS(SQ_INT(timeout_ms)), sq_int64_row,
                           sizeof *txns, (void **)&txns, &n, err);
    for (int i = 0; !rc && i < n; i++)
        rc = txn_abort_body(h, txns[i], MS_ABORT_COMPACTION, err);
    comb_free(txns);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_RESET_TIMED_OUT, SQ_ARGS(SQ_INT(timeout_ms)),
                     err);
    return rc;
}

static int compact_claim_body(MsSqlite *h, const char *worker_id,
                              int64_t timeout_ms, int64_t id, CombArena *a,
                              MsCompaction *out, bool *found, CombErr *err)
{
    int64_t pick = 0;
    bool any;
    int rc = timeout_ms > 0 ? compact_reset_timed_out(h, timeout_ms, err)
                            : COMB_OK;
    if (!rc)
        rc = sq_query_int(h, SQ_CQ_PICK, SQ_ARGS(SQ_INT(id)), &pick, &any,
                          err);
    if (rc || !any)
        return rc;
    rc = sq_exec(h, SQ_CQ_CLAIM, SQ_ARGS(SQ_INT(pick), SQ_TEXT(worker_id)),
                 err);
    if (!rc)
        rc = compact_get(h, pick, a, out, found, err);
    return rc;
}

static int mss_compact_claim(void *impl, const char *worker_id,
                             int64_t timeout_ms, int64_t id, CombArena *a,
                             MsCompaction *out, bool *found, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, compact_claim_body(h, worker_id, timeout_ms, id, a,
                                          out, found, err),
                    err);
    return rc;
}

static int mss_compact_progress(void *impl, int64_t id, const char *text,
                                CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_PROGRESS, SQ_ARGS(SQ_INT(id), SQ_TEXT(text)),
                     err);
    return sq_end(h, rc, err);
}

static int mss_compact_set_txn(void *impl, int64_t id, int64_t txnid,
                               int64_t highest_writeid, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_SET_TXN,
                     SQ_ARGS(SQ_INT(id), SQ_INT(txnid),
                             SQ_INT(highest_writeid)),
                     err);
    if (!rc && sqlite3_changes(h->db) == 0)
        rc = ms_err_no_compaction(err, id);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_TC_INSERT, SQ_ARGS(SQ_INT(id)), err);
    return sq_end(h, rc, err);
}

static int compact_commit_body(MsSqlite *h, int64_t id, int64_t txnid,
                               CombArena *a, CombErr *err)
{
    int64_t commit_id = 0;
    char **conflict = NULL;
    int rc = sq_exec(h, SQ_CQ_READY, SQ_ARGS(SQ_INT(id), SQ_INT(txnid)), err);
    if (!rc && sqlite3_changes(h->db) == 0)
        return ms_err_no_compaction(err, id);
    if (!rc)
        rc = txn_commit_body(h, txnid, true, a, &commit_id, &conflict, err);
    return rc;
}

static int mss_compact_commit(void *impl, int64_t id, int64_t txnid,
                              CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 1024);
    rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, compact_commit_body(h, id, txnid, &a, err), err);
    comb_arena_free(&a);
    return rc;
}

/* hive.compactor.history.retention.*: the newest rows of each final state
 * of the partition stay. */
static int compact_purge(MsSqlite *h, const MsCompaction *c,
                         const MsCompactRetention *keep, CombErr *err)
{
    const struct { const char *state; int keep; } rules[] = {
        {"s", keep->succeeded}, {"f", keep->failed},
        {"a", keep->did_not_initiate}, {"c", keep->refused},
        {"x", keep->aborted}};
    int rc = COMB_OK;
    for (size_t i = 0; !rc && i < sizeof rules / sizeof *rules; i++)
        rc = sq_exec(h, SQ_CC_PURGE,
                     SQ_ARGS(SQ_TEXT(c->db), SQ_TEXT(c->table),
                             SQ_TEXT(c->partition), SQ_TEXT(rules[i].state),
                             SQ_INT(rules[i].keep < 0 ? 0 : rules[i].keep)),
                     err);
    return rc;
}

static int compact_finish_body(MsSqlite *h, int64_t id, MsCompactState state,
                               const char *error,
                               const MsCompactRetention *keep, CombArena *a,
                               CombErr *err)
{
    MsCompaction c;
    bool found;
    char letter[2] = {(char)state, 0};
    int rc = compact_get(h, id, a, &c, &found, err);
    if (!rc && !found)
        return ms_err_no_compaction(err, id);
    if (!rc && state == MS_CQ_REFUSED)
        rc = sq_exec(h, SQ_CQ_TC_DROP, SQ_ARGS(SQ_INT(id)), err);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_TO_HISTORY,
                     SQ_ARGS(SQ_INT(id), SQ_TEXT(letter), SQ_TEXT(error)),
                     err);
    if (!rc)
        rc = sq_exec(h, SQ_CQ_DELETE, SQ_ARGS(SQ_INT(id)), err);
    if (!rc && state == MS_CQ_SUCCEEDED) {
        SqId clean[2] = {SQ_CQ_CLEAN_CTC, SQ_CQ_CLEAN_TC};
        for (int i = 0; !rc && i < 2; i++)
            rc = sq_exec(h, clean[i],
                         SQ_ARGS(SQ_TEXT(c.db), SQ_TEXT(c.table),
                                 SQ_TEXT(c.partition),
                                 SQ_INT(c.highest_writeid)),
                         err);
    }
    if (!rc && keep)
        rc = compact_purge(h, &c, keep, err);
    return rc;
}

static int mss_compact_finish(void *impl, int64_t id, MsCompactState state,
                              const char *error,
                              const MsCompactRetention *keep, CombErr *err)
{
    MsSqlite *h = impl;
    CombArena a;
    int rc;
    comb_arena_init(&a, 1024);
    rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h,
                    compact_finish_body(h, id, state, error, keep, &a, err),
                    err);
    comb_arena_free(&a);
    return rc;
}

static int compact_list_body(MsSqlite *h, bool ready_to_clean, CombArena *a,
                             MsCompaction **rows, int *n, CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    sqlite3_stmt *st;
    bool row, nomem = false;
    int rc = sq_prepare(h, ready_to_clean ? SQ_CQ_READY_LIST : SQ_CQ_LIST,
                        SQ_NO_ARGS, &st, err);
    while (!rc && !(rc = sq_step(h, st, &row, err)) && row) {
        MsCompaction c;
        compaction_of(st, a, &c, &nomem);
        if (nomem || comb_buf_append(&buf, &c, sizeof c)) {
            sq_release(st);
            rc = comb_err_nomem(err);
        }
    }
    if (!rc && buf.len && !(*rows = comb_arena_alloc(a, buf.len)))
        rc = comb_err_nomem(err);
    if (!rc && buf.len)
        memcpy(*rows, buf.data, buf.len);
    if (!rc)
        *n = (int)(buf.len / sizeof(MsCompaction));
    comb_buf_free(&buf);
    return rc;
}

static int mss_compact_list(void *impl, bool ready_to_clean, CombArena *a,
                            MsCompaction **rows, int *n, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, false, err);
    if (!rc)
        rc = sq_end(h, compact_list_body(h, ready_to_clean, a, rows, n, err),
                    err);
    return rc;
}

static int compact_abort_body(MsSqlite *h, const int64_t *ids, int n,
                              bool *done, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; !rc && i < n; i++) {
        sqlite3_stmt *st;
        bool row, initiated = false;
        if ((rc = sq_prepare(h, SQ_CQ_STATE, SQ_ARGS(SQ_INT(ids[i])), &st,
                             err)) ||
            (rc = sq_step(h, st, &row, err)))
            break;
        if (row) {
            const unsigned char *letter = sqlite3_column_text(st, 0);
            initiated = letter && letter[0] == MS_CQ_INITIATED;
            sq_release(st);
        }
        if (!initiated)
            continue;
        rc = sq_exec(h, SQ_CQ_TO_HISTORY,
                     SQ_ARGS(SQ_INT(ids[i]), SQ_TEXT("x"), SQ_NULL), err);
        if (!rc)
            rc = sq_exec(h, SQ_CQ_DELETE, SQ_ARGS(SQ_INT(ids[i])), err);
        done[i] = !rc;
    }
    return rc;
}

static int mss_compact_abort(void *impl, const int64_t *ids, int n,
                             bool *done, CombErr *err)
{
    MsSqlite *h = impl;
    int rc = sq_begin(h, true, err);
    if (!rc)
        rc = sq_end(h, compact_abort_body(h, ids, n, done, err), err);
    if (rc)
        for (int i = 0; i < n; i++)
            done[i] = false;
    return rc;
}

/* ---------------------------------------------------------- open/close */

static void sq_disconnect(MsSqlite *h)
{
    for (int i = 0; i < SQ_N_STATEMENTS; i++) {
        sqlite3_finalize(h->stmt[i]);
        h->stmt[i] = NULL;
    }
    sqlite3_close_v2(h->db);
    h->db = NULL;
    if (h->wal_fd >= 0)
        close(h->wal_fd);
    h->wal_fd = -1;
    h->wal_mode = false;
}

static void mss_close(void *impl)
{
    MsSqlite *h = impl;
    if (!h)
        return;
    sq_disconnect(h);
    comb_free(h->path);
    comb_free(h->warehouse);
    comb_free(h);
}

/* Switch the file to WAL.  On a fresh file several processes may try at
 * once; the switch needs an exclusive lock that SQLite will not wait for
 * (waiting while holding a shared lock could deadlock), so back off and
 * retry here, within the same time budget as the busy timeout.  Returns
 * the resulting mode in *mode_out ("wal", or "memory" for :memory:). */
static int sq_enable_wal(MsSqlite *h, char *mode_out, size_t cap,
                         CombErr *err)
{
    sqlite3_stmt *st;
    int waited = 0, pause = 1;
    int rc = sq_prepare(h, SQ_JOURNAL_WAL, SQ_NO_ARGS, &st, err);
    if (rc)
        return rc;
    for (;;) {
        int src = sqlite3_step(st);
        if (src == SQLITE_ROW) {
            const unsigned char *mode = sqlite3_column_text(st, 0);
            snprintf(mode_out, cap, "%s", mode ? (const char *)mode : "");
            sq_release(st);
            return COMB_OK;
        }
        if (src != SQLITE_BUSY || waited >= SQ_BUSY_TIMEOUT_MS) {
            rc = sq_fail(h, err);
            sq_release(st);
            return rc;
        }
        sqlite3_reset(st);
        sqlite3_sleep(pause);
        waited += pause;
        pause = pause < 50 ? pause * 2 : 50;
    }
}

/* SQLite's busy handler: another connection holds the write lock.  Our
 * write transactions are short (no file work inside them), so the lock
 * comes free within microseconds to a few milliseconds: sleep 20 us,
 * doubling up to 2 ms, rather than sqlite3_busy_timeout's steps of up to
 * 100 ms, which make eight busy clients slower than one.  Gives up after
 * SQ_BUSY_TIMEOUT_MS in all. */
static int sq_busy_wait(void *arg, int count)
{
    MsSqlite *h = arg;
    struct timespec ts;
    int64_t now_us, pause_us;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    now_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    if (count == 0)
        h->busy_since_us = now_us;
    if (now_us - h->busy_since_us >= (int64_t)SQ_BUSY_TIMEOUT_MS * 1000)
        return 0;
    pause_us = count < 7 ? (int64_t)20 << count : 2000;
    ts = (struct timespec){0, (long)pause_us * 1000};
    nanosleep(&ts, NULL);
    return 1;
}

/* After each commit: checkpoint the log into the database file once it
 * holds SQ_CKPT_FRAMES frames, as SQLite's autocheckpoint would, but
 * again only after as many more frames.  SQLite's own tries after every
 * commit while the log is that long, and with several processes at work
 * a checkpoint seldom finishes (another one's read keeps the log), so
 * each commit also paid a checkpoint's two syncs (measured: 2.3
 * fdatasyncs per writing txn with 8 clients instead of 1). */
#define SQ_CKPT_FRAMES 1000

static int sq_wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
    MsSqlite *h = arg;
    if (frames < h->ckpt_frames)
        h->ckpt_frames = 0; /* the log started again */
    if (frames >= SQ_CKPT_FRAMES && frames >= h->ckpt_frames + SQ_CKPT_FRAMES) {
        h->ckpt_frames = frames;
        /* PASSIVE: copies what no reader needs, never waits; a failure
         * leaves the log for the next try and harms no commit */
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL,
                                  NULL);
    }
    return SQLITE_OK;
}

/* Connection settings, per connection except WAL (which the file keeps). */
static int sq_configure(MsSqlite *h, CombErr *err)
{
    char mode[16];
    int rc;
    sqlite3_busy_handler(h->db, sq_busy_wait, h);
    /* secure_delete (on in Debian's build) zeroes every deleted row and
     * freed page, and each commit deletes rows: metastore rows are no
     * secret, so keep that work off the hot path.  page_size applies to a
     * new file only (before WAL is switched on, which writes its first
     * page): a commit copies, checksums and writes back every page it
     * changed, whole, and a txn changes a few small rows in each of a few
     * tables, so 1 KiB pages cost a fifth less CPU per txn than SQLite's
     * 4 KiB; a file keeps the size it was made with */
    if (sqlite3_exec(h->db,
                     "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
                     " PRAGMA secure_delete = OFF; PRAGMA page_size = 1024",
                     NULL, NULL, NULL) != SQLITE_OK)
        return sq_fail(h, err);
    /* a read-only connection cannot switch; it reads whatever mode the
     * file is in */
    if (sqlite3_db_readonly(h->db, "main") == 1)
        return COMB_OK;
    if ((rc = sq_enable_wal(h, mode, sizeof mode, err)))
        return rc;
    /* an in-memory database cannot do WAL, and needs no sharing */
    if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0)
        return comb_err(err, COMB_EMETASTORE,
                        "metastore '%s': cannot switch to WAL journal mode "
                        "(got '%s'; is the file system local?)",
                        h->path, mode);
    /* durable commits sync the log themselves (sq_wal_sync) */
    h->wal_mode = strcmp(mode, "wal") == 0;
    if (h->wal_mode)
        sqlite3_wal_hook(h->db, sq_wal_hook, h); /* replaces autocheckpoint */
    if (h->wal_mode &&
        sqlite3_exec(h->db, "PRAGMA synchronous = NORMAL", NULL, NULL,
                     NULL) != SQLITE_OK)
        return sq_fail(h, err);
    return COMB_OK;
}

static int schema_create_body(MsSqlite *h, CombErr *err)
{
    int rc;
    if (sqlite3_exec(h->db, SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return sq_fail(h, err);
    rc = sq_exec(h, SQ_DB_INSERT,
                 SQ_ARGS(SQ_TEXT(MS_DEFAULT_DB),
                         SQ_TEXT("Default Hive database"),
                         SQ_TEXT(h->warehouse), SQ_TEXT("public"),
                         SQ_TEXT("ROLE")),
                 err);
    return rc;
}

/* The VERSION row, or *found = false on a file without the schema. */
static int schema_version(MsSqlite *h, CombArena *a, char **version,
                          bool *found, CombErr *err)
{
    char **cells;
    int64_t present = 0;
    bool counted;
    int n = 0;
    int rc = sq_query_int(h, SQ_SCHEMA_PRESENT, SQ_NO_ARGS, &present,
                          &counted, err);
    *found = false;
    if (rc || !present)
        return rc;
    rc = sq_fetch_texts(h, SQ_VERSION_GET, SQ_NO_ARGS, 1, a, &cells, &n, err);
    if (!rc && (n != 1 || !cells[0]))
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': VERSION table has no version row",
                      h->path);
    if (!rc) {
        *version = cells[0];
        *found = true;
    }
    return rc;
}

/* A table rebuild must leave every foreign key satisfied. */
static int sq_foreign_key_check(MsSqlite *h, CombErr *err)
{
    sqlite3_stmt *st;
    bool row;
    int rc = sq_prepare(h, SQ_FOREIGN_KEY_CHECK, SQ_NO_ARGS, &st, err);
    if (rc || (rc = sq_step(h, st, &row, err)) || !row)
        return rc;
    sq_release(st);
    return comb_err(err, COMB_EMETASTORE,
                    "metastore '%s': rows without their parent after the "
                    "schema upgrade; the file is damaged",
                    h->path);
}

/* Every step from an older version to the current one, in the caller's
 * write transaction; nothing when another process upgraded first. */
static int schema_upgrade_body(MsSqlite *h, CombArena *a, CombErr *err)
{
    char *version = NULL;
    bool found = false;
    int rc = schema_version(h, a, &version, &found, err);
    if (rc || !found)
        return rc;
    if (strcmp(version, "1") == 0) {
        if (sqlite3_exec(h->db, UPGRADE_V1_SQL, NULL, NULL, NULL) != SQLITE_OK)
            return sq_fail(h, err);
        if ((rc = sq_foreign_key_check(h, err)))
            return rc;
        version = "2";
    }
    if (strcmp(version, "2") == 0) {
        if (sqlite3_exec(h->db, UPGRADE_V2_SQL, NULL, NULL, NULL) != SQLITE_OK)
            return sq_fail(h, err);
        version = "3";
    }
    if (strcmp(version, "3") == 0) {
        if (sqlite3_exec(h->db, UPGRADE_V3_SQL, NULL, NULL, NULL) != SQLITE_OK)
            return sq_fail(h, err);
        version = "4";
    }
    if (strcmp(version, "4") == 0) {
        if (sqlite3_exec(h->db, UPGRADE_V4_SQL, NULL, NULL, NULL) != SQLITE_OK)
            return sq_fail(h, err);
        version = "5";
    }
    if (strcmp(version, "5") == 0 &&
        sqlite3_exec(h->db, UPGRADE_V5_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return sq_fail(h, err);
    return COMB_OK;
}

/* A version this comb upgrades from. */
static bool schema_is_older(const char *version)
{
    return strcmp(version, "1") == 0 || strcmp(version, "2") == 0 ||
           strcmp(version, "3") == 0 || strcmp(version, "4") == 0 ||
           strcmp(version, "5") == 0;
}

/* Upgrade an older file in one transaction.  SQLite's table rebuild
 * needs foreign keys off, which only takes effect outside a transaction. */
static int schema_upgrade(MsSqlite *h, CombArena *a, CombErr *err)
{
    int rc = sqlite3_exec(h->db, "PRAGMA foreign_keys = OFF", NULL, NULL,
                          NULL) == SQLITE_OK
                 ? sq_begin(h, true, err)
                 : sq_fail(h, err);
    if (!rc)
        rc = sq_end(h, schema_upgrade_body(h, a, err), err);
    if (sqlite3_exec(h->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) !=
            SQLITE_OK &&
        !rc)
        rc = sq_fail(h, err);
    if (rc)
        comb_err_prefix(err, "upgrading the metastore schema to version %s",
                        SQ_SCHEMA_VERSION);
    return rc;
}

/* Create the schema unless present, upgrade an older one, then insist on
 * our version.  Several processes may get here at once on a fresh or old
 * file: creation and upgrade run under BEGIN IMMEDIATE, the creation's
 * statements are idempotent and the upgrade checks the version again. */
static int schema_ensure(MsSqlite *h, CombErr *err)
{
    CombArena a;
    char *version = NULL;
    bool found = false;
    int rc;
    comb_arena_init(&a, 256);
    rc = schema_version(h, &a, &version, &found, err);
    if (!rc && !found && !(rc = sq_begin(h, true, err)))
        rc = sq_end(h, schema_create_body(h, err), err);
    if (!rc && found && schema_is_older(version))
        rc = schema_upgrade(h, &a, err);
    if (!rc)
        rc = schema_version(h, &a, &version, &found, err);
    if (!rc && !found)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': schema missing after creation",
                      h->path);
    if (!rc && strcmp(version, SQ_SCHEMA_VERSION) != 0)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s' has schema version '%s' but this comb "
                      "uses version '%s'; use a comb that knows version '%s'",
                      h->path, version, SQ_SCHEMA_VERSION, version);
    comb_arena_free(&a);
    return rc;
}

static const MsBackendOps ms_sqlite_ops = {
    .name = "sqlite",
    .close = mss_close,
    .db_create = mss_db_create,
    .db_drop = mss_db_drop,
    .db_get = mss_db_get,
    .db_list = mss_db_list,
    .table_create = mss_table_create,
    .table_drop = mss_table_drop,
    .colstats_put = mss_colstats_put,
    .colstats_get = mss_colstats_get,
    .role_create = mss_role_create,
    .role_drop = mss_role_drop,
    .role_list = mss_role_list,
    .grant_put = mss_grant_put,
    .grant_drop = mss_grant_drop,
    .grant_list = mss_grant_list,
    .table_get = mss_table_get,
    .table_list = mss_table_list,
    .txn_begin = mss_txn_begin,
    .txn_commit = mss_txn_commit,
    .txn_abort = mss_txn_abort,
    .txn_state = mss_txn_state,
    .txn_snapshot = mss_txn_snapshot,
    .writeid_allocate = mss_writeid_allocate,
    .writeid_allocate_batch = mss_writeid_allocate_batch,
    .writeid_sync = mss_writeid_sync,
    .writeid_list = mss_writeid_list,
    .txn_add_component = mss_txn_add_component,
    .table_alter = mss_table_alter,
    .table_rename = mss_table_rename,
    .part_add = mss_part_add,
    .part_drop = mss_part_drop,
    .part_list = mss_part_list,
    .part_set_location = mss_part_set_location,
    .part_set_params = mss_part_set_params,
    .txn_add_partitions = mss_txn_add_partitions,
    .writeid_seed = mss_writeid_seed,
    .txnid_seed = mss_txnid_seed,
    .lock = mss_lock,
    .lock_check = mss_lock_check,
    .unlock = mss_unlock,
    .lock_list = mss_lock_list,
    .txn_list = mss_txn_list,
    .txn_heartbeat = mss_txn_heartbeat,
    .housekeep = mss_housekeep,
    .txn_commit_create = mss_txn_commit_create,
    .compact_enqueue = mss_compact_enqueue,
    .compact_claim = mss_compact_claim,
    .compact_set_txn = mss_compact_set_txn,
    .compact_progress = mss_compact_progress,
    .compact_commit = mss_compact_commit,
    .compact_finish = mss_compact_finish,
    .compact_list = mss_compact_list,
    .compact_abort = mss_compact_abort,
};

static void sq_fault_load(MsSqlite *h)
{
#ifdef COMB_TEST_BUILD
    const char *f = getenv("COMB_MS_FAULT");
    h->fault = !f                         ? SQ_FAULT_NONE
               : strcmp(f, "readonly") == 0 ? SQ_FAULT_READONLY
               : strcmp(f, "full") == 0     ? SQ_FAULT_FULL
               : strcmp(f, "part_add") == 0 ? SQ_FAULT_PART_ADD
                                            : SQ_FAULT_NONE;
#else
    h->fault = SQ_FAULT_NONE;
#endif
}

static int sq_open(MsSqlite *h, const char *name, int flags, CombErr *err)
{
    if (sqlite3_open_v2(name, &h->db, flags, NULL) != SQLITE_OK)
        return h->db ? sq_fail(h, err) : comb_err_nomem(err);
    return COMB_OK;
}


/* true when no write-ahead log holds commits: no -wal file, or an empty
 * one (a clean close leaves none). */
static bool sq_wal_is_empty(const char *path)
{
    char wal[4096];
    struct stat st;
    if ((size_t)snprintf(wal, sizeof wal, "%s-wal", path) >= sizeof wal)
        return false;
    return stat(wal, &st) != 0 ? errno == ENOENT : st.st_size == 0;
}

/* "file:<path>?immutable=1" with the path percent-encoded; heap string
 * (comb_free), NULL when out of memory. */
static char *sq_immutable_uri(const char *path)
{
    CombBuf b = COMB_BUF_INIT;
    bool nomem = comb_buf_append_str(&b, "file:") != 0;
    for (const char *p = path; *p && !nomem; p++) {
        unsigned char ch = (unsigned char)*p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            (ch >= '0' && ch <= '9') || strchr("/._-~", ch))
            nomem = comb_buf_append_byte(&b, ch) != 0;
        else
            nomem = comb_buf_printf(&b, "%%%02X", ch) != 0;
    }
    if (nomem || comb_buf_append_str(&b, "?immutable=1") ||
        comb_buf_append_byte(&b, '\0')) {
        comb_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* Open for reading and writing.  A metastore that cannot be written and
 * whose WAL index cannot be made either (a read-only directory or mount)
 * is then read as an immutable file: that sees every commit as long as no
 * write-ahead log is left over; with one, the error stands. */
static int sq_connect(MsSqlite *h, CombErr *err)
{
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                SQLITE_OPEN_NOMUTEX;
    char *uri;
    int rc;
    sq_fault_load(h);
    if (h->fault == SQ_FAULT_READONLY)
        flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
    rc = sq_open(h, h->path, flags, err);
    if (!rc)
        rc = sq_configure(h, err);
    if (rc != COMB_EREADONLY || !sq_wal_is_empty(h->path))
        return rc;
    sq_disconnect(h);
    if (!(uri = sq_immutable_uri(h->path)))
        return comb_err_nomem(err);
    rc = sq_open(h, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
                             SQLITE_OPEN_NOMUTEX, err);
    comb_free(uri);
    return rc ? rc : sq_configure(h, err);
}

int ms_open_sqlite(const char *path, const char *warehouse_dir, Ms **out,
                   CombErr *err)
{
    MsSqlite *h;
    int rc;
    comb_err_clear(err);
    if (!out)
        return comb_err(err, COMB_EINVALID, "ms_open_sqlite without result");
    *out = NULL;
    if (!path || !*path || !warehouse_dir || !*warehouse_dir)
        return comb_err(err, COMB_EINVALID,
                        "metastore needs a database path and a warehouse "
                        "directory");
    h = comb_calloc(1, sizeof *h);
    if (!h)
        return comb_err_nomem(err);
    h->wal_fd = -1;
    h->path = comb_strdup(path);
    h->warehouse = comb_strdup(warehouse_dir);
    if (!h->path || !h->warehouse)
        rc = comb_err_nomem(err);
    else
        rc = sq_connect(h, err);
    if (!rc)
        rc = schema_ensure(h, err);
    if (!rc && !(*out = comb_calloc(1, sizeof **out)))
        rc = comb_err_nomem(err);
    if (rc) {
        mss_close(h);
        return rc;
    }
    (*out)->ops = &ms_sqlite_ops;
    (*out)->impl = h;
    return COMB_OK;
}
