/*
 * ms_pg.c - the shared metastore backend: a PostgreSQL database reached
 * through libpq, for comb processes on several hosts that share a file
 * system.  All of comb's PostgreSQL SQL lives in this file: the schema
 * (PG_SCHEMA_SQL) and the statement table (pg_sql[]).  Statements are
 * prepared once per connection; values are always bound parameters, lists
 * of them bound as one array parameter each (pg_array_*), so that a call
 * costs a few round trips to the server however many columns or
 * partitions it carries.
 *
 * Concurrency, by kind of call (PgMode):
 *  - the transaction manager's calls run at READ COMMITTED and serialise
 *    on row locks, as Hive's TxnHandler does on PostgreSQL: txn ids come
 *    from an UPDATE of the NEXT_TXN_ID row, every call on a txn first locks
 *    its TXNS row (SELECT ... FOR UPDATE), write ids come from an upsert of
 *    the table's NEXT_WRITE_ID row, and a commit that updated or deleted
 *    holds the NEXT_TXN_ID row while it checks the write set, so that
 *    commits and txn opens are mutually exclusive where Hive needs them to
 *    be (TxnHandler.commitTxn's notes);
 *  - catalog changes (databases, tables, partitions) run SERIALIZABLE, so
 *    they behave as if they ran one at a time, like the SQLite backend's
 *    BEGIN IMMEDIATE;
 *  - reads run as one statement, or REPEATABLE READ READ ONLY when they
 *    need several: one snapshot, never blocking a writer.
 * Serialization failures and deadlocks are retried (pg_run), waits for a
 * lock end after PG_LOCK_TIMEOUT_S.  A broken connection is reopened and
 * the call run again when it is known not to have committed; when the
 * answer to COMMIT itself is lost, only calls that may safely run twice
 * are run again, the others report that their outcome is unknown.  A
 * PostgreSQL transaction is atomic, so a call is never half done.
 *
 * Names: the schema uses Hive's table and column names unquoted, which
 * PostgreSQL folds to lower case, so the same SQL text reads both
 * backends.  Text columns are unbounded and collate "C" (byte order, as
 * SQLite compares), so both backends accept, order and compare the same
 * values.
 *
 * A handle (one connection) is used by one thread at a time and must not
 * cross fork().
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/str.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Bump with every schema change and add the step from the previous version
 * to pg_schema_upgrade; older databases are upgraded, newer refused. */
#define PG_SCHEMA_VERSION "6"
#define PG_VERSION_COMMENT "comb metastore (Hive 3.x transaction tables)"

/* Waits for a row or table lock end after this long (lock_timeout). */
#define PG_LOCK_TIMEOUT_S 30
/* Runs of one call before a serialization failure is reported. */
#define PG_MAX_ATTEMPTS 100
/* Reconnections within one call before a lost connection is reported. */
#define PG_MAX_RECONNECTS 2
/* The oldest server with everything used here (identity columns). */
#define PG_MIN_SERVER_VERSION 100000
/* Advisory lock key ("comb") that serialises schema creation and upgrade
 * among processes opening one database at once. */
#define PG_SCHEMA_LOCK_KEY "1668246882"

/* Times come from the database clock, as in Hive; current_timestamp is the
 * transaction's start, so one call stamps its rows alike. */
#define PG_NOW_MS "(floor(extract(epoch from current_timestamp) * 1000))::bigint"
#define PG_NOW_S "(floor(extract(epoch from current_timestamp)))::bigint"

/* A text column: unbounded, byte-ordered. */
#define PG_STR " VARCHAR COLLATE \"C\""

/* ------------------------------------------------------------- schema */

/* What schema version 3 added (as ms_sqlite.c's SQ_SCHEMA_V3_TABLES):
 * Hive's MIN_HISTORY_LEVEL (one row per open txn: the lowest txn open when
 * it started) and AUX_TABLE (the housekeeper's last run), and the indexes
 * housekeeping deletes by. */
#define PG_SCHEMA_V3_SQL                                                \
    "CREATE TABLE MIN_HISTORY_LEVEL ("                                  \
    "  MHL_TXNID BIGINT PRIMARY KEY,"                                   \
    "  MHL_MIN_OPEN_TXNID BIGINT NOT NULL);"                            \
    "CREATE INDEX MIN_HISTORY_LEVEL_IDX"                                \
    "  ON MIN_HISTORY_LEVEL (MHL_MIN_OPEN_TXNID);"                      \
    "CREATE TABLE AUX_TABLE ("                                          \
    "  MT_KEY1" PG_STR " NOT NULL,"                                     \
    "  MT_KEY2 BIGINT NOT NULL,"                                        \
    "  MT_COMMENT" PG_STR ","                                           \
    "  PRIMARY KEY (MT_KEY1, MT_KEY2));"                                \
    "CREATE INDEX T2W_TXNID_IDX ON TXN_TO_WRITE_ID (T2W_TXNID);"        \
    "CREATE INDEX WS_COMMIT_ID_IDX ON WRITE_SET (WS_COMMIT_ID);"

/* Version 4: Hive's KEY_CONSTRAINTS with the columns a DEFAULT constraint
 * (CONSTRAINT_TYPE 4) uses, as in the SQLite backend. */
#define PG_SCHEMA_V4_SQL                                                \
    "CREATE TABLE KEY_CONSTRAINTS ("                                    \
    "  PARENT_TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"         \
    "  CONSTRAINT_NAME" PG_STR " NOT NULL,"                             \
    "  POSITION BIGINT NOT NULL,"                                       \
    "  CONSTRAINT_TYPE SMALLINT NOT NULL,"                              \
    "  PARENT_INTEGER_IDX INTEGER NOT NULL,"                            \
    "  ENABLE_VALIDATE_RELY SMALLINT NOT NULL,"                         \
    "  DEFAULT_VALUE" PG_STR ","                                        \
    "  PRIMARY KEY (PARENT_TBL_ID, CONSTRAINT_NAME, POSITION));"

/* Version 5: column statistics, as in the SQLite backend (COL_STATS). */
#define PG_SCHEMA_V5_SQL                                                \
    "CREATE TABLE COL_STATS ("                                          \
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"                \
    "  PART_NAME" PG_STR " NOT NULL,"                                   \
    "  COLUMN_NAME" PG_STR " NOT NULL,"                                 \
    "  COLUMN_TYPE" PG_STR " NOT NULL,"                                 \
    "  SOURCE" PG_STR " NOT NULL,"                                      \
    "  LOW_VALUE" PG_STR ","                                            \
    "  HIGH_VALUE" PG_STR ","                                           \
    "  NUM_NULLS BIGINT NOT NULL,"                                      \
    "  NUM_DISTINCTS BIGINT,"                                           \
    "  NUM_TRUES BIGINT,"                                               \
    "  NUM_FALSES BIGINT,"                                              \
    "  MAX_COL_LEN BIGINT,"                                             \
    "  AVG_COL_LEN DOUBLE PRECISION,"                                   \
    "  BIT_VECTOR TEXT,"                                                \
    "  LAST_ANALYZED BIGINT NOT NULL,"                                  \
    "  PRIMARY KEY (TBL_ID, PART_NAME, COLUMN_NAME));"

/* Version 6: roles and grants, as ms_sqlite.c's SQ_SCHEMA_V6_TABLES. */
#define PG_SCHEMA_V6_SQL                                                \
    "CREATE TABLE ROLES ("                                              \
    "  ROLE_ID BIGSERIAL PRIMARY KEY,"                                  \
    "  CREATE_TIME BIGINT NOT NULL,"                                    \
    "  OWNER_NAME" PG_STR ","                                           \
    "  ROLE_NAME" PG_STR " NOT NULL UNIQUE);"                           \
    "CREATE TABLE GRANTS ("                                             \
    "  GRANT_ID BIGSERIAL PRIMARY KEY,"                                 \
    "  OBJ_TYPE" PG_STR " NOT NULL,"                                    \
    "  DB_NAME" PG_STR " NOT NULL,"                                     \
    "  TBL_NAME" PG_STR " NOT NULL,"                                    \
    "  ROLE_NAME" PG_STR " NOT NULL,"                                   \
    "  PRINCIPAL_NAME" PG_STR " NOT NULL,"                              \
    "  PRINCIPAL_TYPE" PG_STR " NOT NULL,"                              \
    "  PRIVILEGE" PG_STR " NOT NULL,"                                   \
    "  GRANT_OPTION INTEGER NOT NULL,"                                  \
    "  GRANTOR" PG_STR " NOT NULL,"                                     \
    "  GRANTOR_TYPE" PG_STR " NOT NULL,"                                \
    "  CREATE_TIME BIGINT NOT NULL,"                                    \
    "  UNIQUE (OBJ_TYPE, DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME,"  \
    "          PRINCIPAL_TYPE, PRIVILEGE));"

/* Hive's metastore tables and column names, folded as the SQLite backend
 * folds them (ms_sqlite.c's SCHEMA_SQL, README "Schema"): the storage
 * descriptor, serde and column descriptor live in TBLS and PARTITIONS, the
 * children hang off TBL_ID and PART_ID.  Created in one transaction, under
 * the schema advisory lock, in a database without it. */
static const char PG_SCHEMA_SQL[] =
    "CREATE TABLE VERSION ("
    "  VER_ID BIGINT PRIMARY KEY,"
    "  SCHEMA_VERSION" PG_STR " NOT NULL,"
    "  VERSION_COMMENT" PG_STR ");"
    "INSERT INTO VERSION VALUES (1, '" PG_SCHEMA_VERSION "',"
    "  '" PG_VERSION_COMMENT "');"

    /* ---- catalog */
    "CREATE TABLE DBS ("
    "  DB_ID BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
    "  NAME" PG_STR " NOT NULL UNIQUE,"
    "  \"DESC\"" PG_STR ","
    "  DB_LOCATION_URI" PG_STR " NOT NULL,"
    "  OWNER_NAME" PG_STR ","
    "  OWNER_TYPE" PG_STR ","
    "  CREATE_TIME BIGINT);"
    "CREATE TABLE TBLS ("
    "  TBL_ID BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
    "  DB_ID BIGINT NOT NULL REFERENCES DBS (DB_ID),"
    "  TBL_NAME" PG_STR " NOT NULL,"
    "  TBL_TYPE" PG_STR " NOT NULL,"
    "  OWNER" PG_STR ","
    "  CREATE_TIME BIGINT NOT NULL,"
    "  LAST_ACCESS_TIME BIGINT NOT NULL DEFAULT 0,"
    "  LOCATION" PG_STR ","
    "  INPUT_FORMAT" PG_STR ","
    "  OUTPUT_FORMAT" PG_STR ","
    "  NUM_BUCKETS INTEGER NOT NULL DEFAULT -1,"
    "  SLIB" PG_STR ","
    "  VIEW_ORIGINAL_TEXT" PG_STR ","
    "  VIEW_EXPANDED_TEXT" PG_STR ","
    "  UNIQUE (DB_ID, TBL_NAME));"
    "CREATE TABLE COLUMNS_V2 ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  COLUMN_NAME" PG_STR " NOT NULL,"
    "  TYPE_NAME" PG_STR " NOT NULL,"
    "  COMMENT" PG_STR ","
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, COLUMN_NAME));"
    "CREATE TABLE TABLE_PARAMS ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  PARAM_KEY" PG_STR " NOT NULL,"
    "  PARAM_VALUE" PG_STR ","
    "  PRIMARY KEY (TBL_ID, PARAM_KEY));"
    "CREATE TABLE BUCKETING_COLS ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  BUCKET_COL_NAME" PG_STR " NOT NULL,"
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, INTEGER_IDX));"
    "CREATE TABLE PARTITION_KEYS ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  PKEY_NAME" PG_STR " NOT NULL,"
    "  PKEY_TYPE" PG_STR " NOT NULL,"
    "  PKEY_COMMENT" PG_STR ","
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, PKEY_NAME));"
    "CREATE TABLE PARTITIONS ("
    "  PART_ID BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  PART_NAME" PG_STR " NOT NULL,"
    "  CREATE_TIME BIGINT NOT NULL,"
    "  LAST_ACCESS_TIME BIGINT NOT NULL DEFAULT 0,"
    "  LOCATION" PG_STR " NOT NULL,"
    "  INPUT_FORMAT" PG_STR ","
    "  OUTPUT_FORMAT" PG_STR ","
    "  SLIB" PG_STR ","
    "  UNIQUE (TBL_ID, PART_NAME));"
    "CREATE TABLE PARTITION_KEY_VALS ("
    "  PART_ID BIGINT NOT NULL REFERENCES PARTITIONS (PART_ID),"
    "  PART_KEY_VAL" PG_STR " NOT NULL,"
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (PART_ID, INTEGER_IDX));"
    "CREATE TABLE PARTITION_PARAMS ("
    "  PART_ID BIGINT NOT NULL REFERENCES PARTITIONS (PART_ID),"
    "  PARAM_KEY" PG_STR " NOT NULL,"
    "  PARAM_VALUE" PG_STR ","
    "  PRIMARY KEY (PART_ID, PARAM_KEY));"
    "CREATE TABLE SERDE_PARAMS ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  PARAM_KEY" PG_STR " NOT NULL,"
    "  PARAM_VALUE" PG_STR ","
    "  PRIMARY KEY (TBL_ID, PARAM_KEY));"
    "CREATE TABLE SORT_COLS ("
    "  TBL_ID BIGINT NOT NULL REFERENCES TBLS (TBL_ID),"
    "  COLUMN_NAME" PG_STR " NOT NULL,"
    "  \"ORDER\" INTEGER NOT NULL,"
    "  INTEGER_IDX INTEGER NOT NULL,"
    "  PRIMARY KEY (TBL_ID, INTEGER_IDX));"

    /* ---- transactions (3.x id allocation through NEXT_TXN_ID) */
    "CREATE TABLE TXNS ("
    "  TXN_ID BIGINT PRIMARY KEY,"
    "  TXN_STATE CHAR(1) NOT NULL,"
    "  TXN_STARTED BIGINT NOT NULL,"
    "  TXN_LAST_HEARTBEAT BIGINT NOT NULL,"
    "  TXN_USER" PG_STR " NOT NULL,"
    "  TXN_HOST" PG_STR " NOT NULL,"
    "  TXN_AGENT_INFO" PG_STR ","
    "  TXN_META_INFO" PG_STR ","
    "  TXN_HEARTBEAT_COUNT INTEGER,"
    "  TXN_TYPE INTEGER);"
    /* committed rows stay, so snapshots look up the few others by state */
    "CREATE INDEX TXNS_STATE_IDX ON TXNS (TXN_STATE, TXN_ID);"
    "CREATE TABLE NEXT_TXN_ID (NTXN_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_TXN_ID VALUES (1);"
    "CREATE TABLE TXN_COMPONENTS ("
    "  TC_TXNID BIGINT NOT NULL REFERENCES TXNS (TXN_ID),"
    "  TC_DATABASE" PG_STR " NOT NULL,"
    "  TC_TABLE" PG_STR ","
    "  TC_PARTITION" PG_STR ","
    "  TC_OPERATION_TYPE CHAR(1) NOT NULL,"
    "  TC_WRITEID BIGINT);"
    "CREATE INDEX TC_TXNID_INDEX ON TXN_COMPONENTS (TC_TXNID);"
    "CREATE TABLE COMPLETED_TXN_COMPONENTS ("
    "  CTC_TXNID BIGINT NOT NULL,"
    "  CTC_DATABASE" PG_STR " NOT NULL,"
    "  CTC_TABLE" PG_STR ","
    "  CTC_PARTITION" PG_STR ","
    "  CTC_TIMESTAMP BIGINT NOT NULL DEFAULT " PG_NOW_MS ","
    "  CTC_WRITEID BIGINT,"
    "  CTC_UPDATE_DELETE CHAR(1) NOT NULL);"
    "CREATE INDEX COMPLETED_TXN_COMPONENTS_IDX"
    "  ON COMPLETED_TXN_COMPONENTS (CTC_DATABASE, CTC_TABLE, CTC_PARTITION);"
    "CREATE TABLE TXN_TO_WRITE_ID ("
    "  T2W_TXNID BIGINT NOT NULL,"
    "  T2W_DATABASE" PG_STR " NOT NULL,"
    "  T2W_TABLE" PG_STR " NOT NULL,"
    "  T2W_WRITEID BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX TBL_TO_TXN_ID_IDX"
    "  ON TXN_TO_WRITE_ID (T2W_DATABASE, T2W_TABLE, T2W_TXNID);"
    "CREATE UNIQUE INDEX TBL_TO_WRITE_ID_IDX"
    "  ON TXN_TO_WRITE_ID (T2W_DATABASE, T2W_TABLE, T2W_WRITEID);"
    "CREATE TABLE NEXT_WRITE_ID ("
    "  NWI_DATABASE" PG_STR " NOT NULL,"
    "  NWI_TABLE" PG_STR " NOT NULL,"
    "  NWI_NEXT BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX NEXT_WRITE_ID_IDX"
    "  ON NEXT_WRITE_ID (NWI_DATABASE, NWI_TABLE);"
    "CREATE TABLE WRITE_SET ("
    "  WS_DATABASE" PG_STR " NOT NULL,"
    "  WS_TABLE" PG_STR " NOT NULL,"
    "  WS_PARTITION" PG_STR ","
    "  WS_TXNID BIGINT NOT NULL,"
    "  WS_COMMIT_ID BIGINT NOT NULL,"
    "  WS_OPERATION_TYPE CHAR(1) NOT NULL);"

    /* ---- locks */
    "CREATE TABLE HIVE_LOCKS ("
    "  HL_LOCK_EXT_ID BIGINT NOT NULL,"
    "  HL_LOCK_INT_ID BIGINT NOT NULL,"
    "  HL_TXNID BIGINT NOT NULL,"
    "  HL_DB" PG_STR " NOT NULL,"
    "  HL_TABLE" PG_STR ","
    "  HL_PARTITION" PG_STR ","
    "  HL_LOCK_STATE CHAR(1) NOT NULL,"
    "  HL_LOCK_TYPE CHAR(1) NOT NULL,"
    "  HL_LAST_HEARTBEAT BIGINT NOT NULL,"
    "  HL_ACQUIRED_AT BIGINT,"
    "  HL_USER" PG_STR " NOT NULL,"
    "  HL_HOST" PG_STR " NOT NULL,"
    "  HL_HEARTBEAT_COUNT INTEGER,"
    "  HL_AGENT_INFO" PG_STR ","
    "  HL_BLOCKEDBY_EXT_ID BIGINT,"
    "  HL_BLOCKEDBY_INT_ID BIGINT,"
    "  PRIMARY KEY (HL_LOCK_EXT_ID, HL_LOCK_INT_ID));"
    "CREATE INDEX HL_TXNID_INDEX ON HIVE_LOCKS (HL_TXNID);"
    "CREATE TABLE NEXT_LOCK_ID (NL_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_LOCK_ID VALUES (1);"

    /* ---- compaction (4.x columns included for the compactor to come) */
    "CREATE TABLE COMPACTION_QUEUE ("
    "  CQ_ID BIGINT PRIMARY KEY,"
    "  CQ_DATABASE" PG_STR " NOT NULL,"
    "  CQ_TABLE" PG_STR " NOT NULL,"
    "  CQ_PARTITION" PG_STR ","
    "  CQ_STATE CHAR(1) NOT NULL,"
    "  CQ_TYPE CHAR(1) NOT NULL,"
    "  CQ_TBLPROPERTIES" PG_STR ","
    "  CQ_WORKER_ID" PG_STR ","
    "  CQ_ENQUEUE_TIME BIGINT,"
    "  CQ_START BIGINT,"
    "  CQ_RUN_AS" PG_STR ","
    "  CQ_HIGHEST_WRITE_ID BIGINT,"
    "  CQ_META_INFO BYTEA,"
    "  CQ_HADOOP_JOB_ID" PG_STR ","
    "  CQ_ERROR_MESSAGE" PG_STR ","
    "  CQ_NEXT_TXN_ID BIGINT,"
    "  CQ_TXN_ID BIGINT,"
    "  CQ_COMMIT_TIME BIGINT,"
    "  CQ_INITIATOR_ID" PG_STR ","
    "  CQ_INITIATOR_VERSION" PG_STR ","
    "  CQ_WORKER_VERSION" PG_STR ","
    "  CQ_CLEANER_START BIGINT,"
    "  CQ_RETRY_RETENTION BIGINT NOT NULL DEFAULT 0,"
    "  CQ_POOL_NAME" PG_STR ","
    "  CQ_NUMBER_OF_BUCKETS INTEGER,"
    "  CQ_ORDER_BY" PG_STR ");"
    "CREATE TABLE COMPLETED_COMPACTIONS ("
    "  CC_ID BIGINT PRIMARY KEY,"
    "  CC_DATABASE" PG_STR " NOT NULL,"
    "  CC_TABLE" PG_STR " NOT NULL,"
    "  CC_PARTITION" PG_STR ","
    "  CC_STATE CHAR(1) NOT NULL,"
    "  CC_TYPE CHAR(1) NOT NULL,"
    "  CC_TBLPROPERTIES" PG_STR ","
    "  CC_WORKER_ID" PG_STR ","
    "  CC_ENQUEUE_TIME BIGINT,"
    "  CC_START BIGINT,"
    "  CC_END BIGINT,"
    "  CC_RUN_AS" PG_STR ","
    "  CC_HIGHEST_WRITE_ID BIGINT,"
    "  CC_META_INFO BYTEA,"
    "  CC_HADOOP_JOB_ID" PG_STR ","
    "  CC_ERROR_MESSAGE" PG_STR ","
    "  CC_NEXT_TXN_ID BIGINT,"
    "  CC_TXN_ID BIGINT,"
    "  CC_COMMIT_TIME BIGINT,"
    "  CC_INITIATOR_ID" PG_STR ","
    "  CC_INITIATOR_VERSION" PG_STR ","
    "  CC_WORKER_VERSION" PG_STR ","
    "  CC_POOL_NAME" PG_STR ","
    "  CC_NUMBER_OF_BUCKETS INTEGER,"
    "  CC_ORDER_BY" PG_STR ");"
    "CREATE TABLE NEXT_COMPACTION_QUEUE_ID (NCQ_NEXT BIGINT NOT NULL);"
    "INSERT INTO NEXT_COMPACTION_QUEUE_ID VALUES (1);"
    PG_SCHEMA_V3_SQL
    PG_SCHEMA_V4_SQL
    PG_SCHEMA_V5_SQL
    PG_SCHEMA_V6_SQL;

/* Version 2 to 3: the version 3 tables; every txn open in the database
 * gets its MIN_HISTORY_LEVEL row (the lowest open txn is a safe bound for
 * all). */
static const char PG_UPGRADE_V2_SQL[] =
    PG_SCHEMA_V3_SQL
    "INSERT INTO MIN_HISTORY_LEVEL (MHL_TXNID, MHL_MIN_OPEN_TXNID)"
    " SELECT TXN_ID, (SELECT MIN(TXN_ID) FROM TXNS WHERE TXN_STATE = 'o')"
    " FROM TXNS WHERE TXN_STATE = 'o';"
    "UPDATE VERSION SET SCHEMA_VERSION = '3' WHERE VER_ID = 1;";

/* Version 3 to 4: KEY_CONSTRAINTS (DEFAULT constraints). */
static const char PG_UPGRADE_V3_SQL[] =
    PG_SCHEMA_V4_SQL
    "UPDATE VERSION SET SCHEMA_VERSION = '4' WHERE VER_ID = 1;";

/* Version 4 to 5: COL_STATS (column statistics). */
static const char PG_UPGRADE_V4_SQL[] =
    PG_SCHEMA_V5_SQL
    "UPDATE VERSION SET SCHEMA_VERSION = '5' WHERE VER_ID = 1;";

/* Version 5 to 6: ROLES and GRANTS (authorization). */
static const char PG_UPGRADE_V5_SQL[] =
    PG_SCHEMA_V6_SQL
    "UPDATE VERSION SET SCHEMA_VERSION = '6' WHERE VER_ID = 1;";

/* --------------------------------------------------------- statements */

typedef enum PgId {
    PG_SCHEMA_PRESENT,
    PG_VERSION_GET,
    PG_SCHEMA_LOCK,
    /* catalog */
    PG_DB_INSERT,
    PG_DB_GET,
    PG_DB_LIST,
    PG_DB_TABLE_COUNT,
    PG_DB_DELETE,
    PG_TABLE_INSERT,
    PG_TABLE_CHILDREN_INSERT,
    PG_TABLE_GET,
    PG_TABLE_FIND,
    PG_TABLE_LIST,
    PG_TABLE_UPDATE,
    PG_TABLE_DEF_DELETE,
    PG_TABLES_DROP,
    PG_TABLE_RENAME,
    PG_PARTS_RELOCATE,
    PG_RENAME_TXN_ROWS,
    /* partitions */
    PG_PARTS_INSERT,
    PG_PARTS_FIND,
    PG_PARTS_DROP,
    PG_PARTS_GET,
    PG_PART_SET_LOCATION,
    PG_PART_ID,
    PG_PART_PARAMS_DELETE,
    PG_PART_PARAMS_INSERT,
    /* transactions */
    PG_TXN_OPEN,
    PG_NEXT_TXN_LOCK,
    PG_NEXT_TXN_RAISE,
    PG_TXN_GET,
    PG_TXN_LOCK,
    PG_TXN_COMMIT_LOOKUP,
    PG_TXN_FINISH,
    PG_SNAPSHOT,
    PG_TC_INSERT,
    PG_TC_DELETE_TABLE_LEVEL,
    PG_WS_CONFLICT,
    PG_WS_INSERT,
    PG_TXN_ABORT,
    PG_TXN_COUNT_OPEN,
    PG_TXN_LIST,
    PG_TXN_HEARTBEAT,
    /* locks */
    PG_LOCK_ENQUEUE,
    PG_LOCK_MUTEX,
    PG_LOCK_CANDIDATES,
    PG_LOCK_DECIDED,
    PG_UNLOCK_WAITING,
    PG_LOCK_LIST,
    /* housekeeping */
    PG_HK_ROW,
    PG_HK_MUTEX,
    PG_HK_DUE,
    PG_HK_MARK,
    PG_HK_TIMEOUTS,
    PG_HK_CLEAN,
    /* write ids */
    PG_T2W_GET,
    PG_T2W_INSERT,
    PG_NWI_TAKE,
    PG_NWI_SEED,
    PG_NWI_GET,
    PG_WRITEIDS,
    /* compaction queue and history */
    PG_CQ_MUTEX,
    PG_CQ_NEXT_ID_SET,
    PG_CQ_IN_WAY,
    PG_CQ_INSERT,
    PG_CQ_ABORT_TIMED_OUT,
    PG_CQ_RESET_TIMED_OUT,
    PG_CQ_PICK,
    PG_CQ_CLAIM,
    PG_CQ_GET,
    PG_CQ_SET_TXN,
    PG_CQ_PROGRESS,
    PG_CQ_TC_INSERT,
    PG_CQ_TC_DROP,
    PG_CQ_NEXT_TXN_LOCK,
    PG_CQ_READY,
    PG_CQ_STATE,
    PG_CQ_TO_HISTORY,
    PG_CQ_DELETE,
    PG_CQ_CLEAN_CTC,
    PG_CQ_CLEAN_TC,
    PG_CC_PURGE,
    PG_CQ_LIST,
    PG_CQ_READY_LIST,
    /* column statistics ($1 TBL_ID, $2 partition name or '') */
    PG_COLSTATS_PUT,
    PG_COLSTATS_GET,
    /* authorization */
    PG_ROLE_INSERT,
    PG_ROLE_DELETE,
    PG_ROLE_LIST,
    PG_GRANT_INSERT,
    PG_GRANT_DELETE,
    PG_GRANT_CLEAR_OPTION,
    PG_GRANT_LIST,
    PG_N_STATEMENTS
} PgId;

/* The tables of database $1: all of them when $2 is NULL (DROP DATABASE
 * CASCADE), else the one table $2. */
#define PG_TBL_IDS_OF                                                   \
    "SELECT t.TBL_ID FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"       \
    " WHERE d.NAME = $1 AND ($2::text IS NULL OR t.TBL_NAME = $2)"
/* The rows of a transaction table (column prefix p) of those tables. */
#define PG_TXN_ROWS_OF(p)                                               \
    " WHERE " p "_DATABASE = $1 AND ($2::text IS NULL OR " p "_TABLE = $2)"

/* The definition rows of the tables `ids` (id), but for their partition
 * keys: what ALTER replaces whole. */
#define PG_DEF_DELETES                                                  \
    "c AS (DELETE FROM COLUMNS_V2 WHERE TBL_ID IN (SELECT id FROM ids)),"  \
    "p AS (DELETE FROM TABLE_PARAMS WHERE TBL_ID IN (SELECT id FROM ids)),"\
    "b AS (DELETE FROM BUCKETING_COLS"                                  \
    "  WHERE TBL_ID IN (SELECT id FROM ids)),"                          \
    "s AS (DELETE FROM SORT_COLS WHERE TBL_ID IN (SELECT id FROM ids)),"   \
    "e AS (DELETE FROM SERDE_PARAMS WHERE TBL_ID IN (SELECT id FROM ids)),"\
    "kc AS (DELETE FROM KEY_CONSTRAINTS"                                \
    "  WHERE PARENT_TBL_ID IN (SELECT id FROM ids))"

/* The rows of one child list of a table in PG_TABLE_GET: kind, position,
 * up to three texts, NULL-padded to the width of the table's own row. */
#define PG_CHILD_ROW(kind, idx, a, b, c, table)                         \
    " UNION ALL SELECT " kind ", " idx ", " a ", " b ", " c ","           \
    "  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"                  \
    "  FROM " table " JOIN t USING (TBL_ID)"

/* A GRANTS row by its key (MS_GRANT_KEY_CELLS as $1..$7). */
#define PG_GRANT_KEY                                                    \
    "OBJ_TYPE = $1 AND DB_NAME = $2 AND TBL_NAME = $3 AND ROLE_NAME = $4" \
    " AND PRINCIPAL_NAME = $5 AND PRINCIPAL_TYPE = $6 AND PRIVILEGE = $7"

static const char *const pg_sql[PG_N_STATEMENTS] = {
    /* the metastore lives in the current schema (the first of
     * search_path); read from pg_class itself, as a name lookup could
     * answer from a cache that has not heard of another session's commit */
    [PG_SCHEMA_PRESENT] =
        "SELECT count(*) FROM pg_catalog.pg_class c"
        " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relname = 'version'",
    [PG_VERSION_GET] = "SELECT SCHEMA_VERSION FROM VERSION WHERE VER_ID = 1",
    [PG_COLSTATS_PUT] =
        "INSERT INTO COL_STATS (TBL_ID, PART_NAME, " MS_COLSTATS_COLUMNS ")"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,"
        " $14, $15)"
        " ON CONFLICT (TBL_ID, PART_NAME, COLUMN_NAME) DO UPDATE SET"
        " COLUMN_TYPE = EXCLUDED.COLUMN_TYPE, SOURCE = EXCLUDED.SOURCE,"
        " LOW_VALUE = EXCLUDED.LOW_VALUE, HIGH_VALUE = EXCLUDED.HIGH_VALUE,"
        " NUM_NULLS = EXCLUDED.NUM_NULLS,"
        " NUM_DISTINCTS = EXCLUDED.NUM_DISTINCTS,"
        " NUM_TRUES = EXCLUDED.NUM_TRUES, NUM_FALSES = EXCLUDED.NUM_FALSES,"
        " MAX_COL_LEN = EXCLUDED.MAX_COL_LEN,"
        " AVG_COL_LEN = EXCLUDED.AVG_COL_LEN,"
        " BIT_VECTOR = EXCLUDED.BIT_VECTOR,"
        " LAST_ANALYZED = EXCLUDED.LAST_ANALYZED",
    [PG_COLSTATS_GET] =
        "SELECT " MS_COLSTATS_COLUMNS " FROM COL_STATS"
        " WHERE TBL_ID = $1 AND PART_NAME = $2 ORDER BY COLUMN_NAME",
    [PG_SCHEMA_LOCK] = "SELECT pg_advisory_xact_lock(" PG_SCHEMA_LOCK_KEY ")",
    [PG_ROLE_INSERT] =
        "INSERT INTO ROLES (ROLE_NAME, OWNER_NAME, CREATE_TIME)"
        " VALUES ($1, $2, $3) ON CONFLICT (ROLE_NAME) DO NOTHING",
    /* the role, and every grant of it and to it */
    [PG_ROLE_DELETE] =
        "WITH g AS (DELETE FROM GRANTS WHERE (OBJ_TYPE = 'ROLE'"
        "  AND ROLE_NAME = $1) OR (PRINCIPAL_TYPE = 'ROLE'"
        "  AND PRINCIPAL_NAME = $1))"
        " DELETE FROM ROLES WHERE ROLE_NAME = $1",
    [PG_ROLE_LIST] = "SELECT ROLE_NAME FROM ROLES ORDER BY ROLE_NAME",
    /* a held grant gains the option the new one has ($8) */
    [PG_GRANT_INSERT] =
        "INSERT INTO GRANTS AS g (" MS_GRANT_COLUMNS ") VALUES ($1, $2, $3,"
        " $4, $5, $6, $7, $8::integer, $9, $10, $11::bigint)"
        " ON CONFLICT (OBJ_TYPE, DB_NAME, TBL_NAME, ROLE_NAME,"
        " PRINCIPAL_NAME, PRINCIPAL_TYPE, PRIVILEGE) DO UPDATE"
        " SET GRANT_OPTION = GREATEST(g.GRANT_OPTION, EXCLUDED.GRANT_OPTION)"
        " RETURNING (xmax::text <> '0')",
    [PG_GRANT_DELETE] = "DELETE FROM GRANTS WHERE " PG_GRANT_KEY,
    [PG_GRANT_CLEAR_OPTION] =
        "UPDATE GRANTS SET GRANT_OPTION = 0 WHERE GRANT_OPTION = 1 AND "
        PG_GRANT_KEY,
    [PG_GRANT_LIST] =
        "SELECT OBJ_TYPE, DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME,"
        " PRINCIPAL_TYPE, PRIVILEGE, GRANT_OPTION::text, GRANTOR,"
        " GRANTOR_TYPE, CREATE_TIME::text FROM GRANTS"
        " WHERE ($1 = '' OR OBJ_TYPE = $1) AND ($2 = '' OR DB_NAME = $2)"
        " AND ($3 = '' OR TBL_NAME = $3) AND ($4 = '' OR ROLE_NAME = $4)"
        " AND ($5 = '' OR PRINCIPAL_NAME = $5)"
        " AND ($6 = '' OR PRINCIPAL_TYPE = $6)"
        " AND ($7 = '' OR PRIVILEGE = $7)"
        " ORDER BY DB_NAME, TBL_NAME, ROLE_NAME, PRINCIPAL_NAME, PRIVILEGE",

    [PG_DB_INSERT] =
        "INSERT INTO DBS (NAME, \"DESC\", DB_LOCATION_URI, OWNER_NAME,"
        " OWNER_TYPE, CREATE_TIME)"
        " VALUES ($1, $2, $3, $4, $5, " PG_NOW_S ")"
        " ON CONFLICT (NAME) DO NOTHING",
    [PG_DB_GET] =
        "SELECT DB_ID, NAME, DB_LOCATION_URI, \"DESC\", OWNER_NAME"
        " FROM DBS WHERE NAME = $1",
    [PG_DB_LIST] = "SELECT NAME FROM DBS ORDER BY NAME",
    [PG_DB_TABLE_COUNT] =
        "SELECT (SELECT count(*) FROM TBLS t WHERE t.DB_ID = d.DB_ID)"
        " FROM DBS d WHERE d.NAME = $1",
    [PG_DB_DELETE] = "DELETE FROM DBS WHERE NAME = $1",
    [PG_TABLE_INSERT] =
        "INSERT INTO TBLS (DB_ID, TBL_NAME, TBL_TYPE, OWNER, CREATE_TIME,"
        " LOCATION, INPUT_FORMAT, OUTPUT_FORMAT, NUM_BUCKETS, SLIB,"
        " VIEW_ORIGINAL_TEXT, VIEW_EXPANDED_TEXT)"
        " VALUES ($1, $2, $3, $4, COALESCE($5, " PG_NOW_S "), $6, $7, $8,"
        " $9, $10, $11, $12)"
        " ON CONFLICT (DB_ID, TBL_NAME) DO NOTHING RETURNING TBL_ID",
    /* $1 the table; columns $2-$4, partition keys $5-$7 (names, types,
     * comments); TBLPROPERTIES $8-$9 and SERDEPROPERTIES $10-$11 (keys,
     * values: a repeated key keeps its last value, as a map does);
     * bucket columns $12; sort columns $13-$14 (names, orders); DEFAULT
     * constraints $15-$17 (names, column positions, values) */
    [PG_TABLE_CHILDREN_INSERT] =
        "WITH c AS (INSERT INTO COLUMNS_V2 (TBL_ID, COLUMN_NAME, TYPE_NAME,"
        "  COMMENT, INTEGER_IDX) SELECT $1::bigint, n, t, m, i - 1"
        "  FROM unnest($2::text[], $3::text[], $4::text[])"
        "  WITH ORDINALITY AS x(n, t, m, i)),"
        " k AS (INSERT INTO PARTITION_KEYS (TBL_ID, PKEY_NAME, PKEY_TYPE,"
        "  PKEY_COMMENT, INTEGER_IDX) SELECT $1::bigint, n, t, m, i - 1"
        "  FROM unnest($5::text[], $6::text[], $7::text[])"
        "  WITH ORDINALITY AS x(n, t, m, i)),"
        " p AS (INSERT INTO TABLE_PARAMS (TBL_ID, PARAM_KEY, PARAM_VALUE)"
        "  SELECT DISTINCT ON (k) $1::bigint, k, v"
        "  FROM unnest($8::text[], $9::text[]) WITH ORDINALITY AS x(k, v, i)"
        "  ORDER BY k, i DESC),"
        " s AS (INSERT INTO SERDE_PARAMS (TBL_ID, PARAM_KEY, PARAM_VALUE)"
        "  SELECT DISTINCT ON (k) $1::bigint, k, v"
        "  FROM unnest($10::text[], $11::text[])"
        "  WITH ORDINALITY AS x(k, v, i) ORDER BY k, i DESC),"
        " b AS (INSERT INTO BUCKETING_COLS (TBL_ID, BUCKET_COL_NAME,"
        "  INTEGER_IDX) SELECT $1::bigint, n, i - 1"
        "  FROM unnest($12::text[]) WITH ORDINALITY AS x(n, i)),"
        " d AS (INSERT INTO KEY_CONSTRAINTS (PARENT_TBL_ID, CONSTRAINT_NAME,"
        "  POSITION, CONSTRAINT_TYPE, PARENT_INTEGER_IDX,"
        "  ENABLE_VALIDATE_RELY, DEFAULT_VALUE)"
        "  SELECT $1::bigint, n, 1, " MS_CONSTRAINT_DEFAULT_S ", c, 4, v"
        "  FROM unnest($15::text[], $16::int[], $17::text[]) AS x(n, c, v))"
        " INSERT INTO SORT_COLS (TBL_ID, COLUMN_NAME, \"ORDER\", INTEGER_IDX)"
        " SELECT $1::bigint, n, o, i - 1"
        " FROM unnest($13::text[], $14::int[]) WITH ORDINALITY AS x(n, o, i)",
    /* the whole definition of table $1.$2 in one statement (one
     * snapshot): kind 0 the TBLS row, then its columns (1), partition keys
     * (2), TBLPROPERTIES (3), SERDEPROPERTIES (4), bucket columns (5),
     * sort columns (6) and DEFAULT constraints (7: name, value, column
     * position), each in order */
    [PG_TABLE_GET] =
        "WITH t AS (SELECT t.* FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        "  WHERE d.NAME = $1 AND t.TBL_NAME = $2)"
        " SELECT * FROM (SELECT 0 AS kind, 0 AS idx, TBL_ID::text AS a,"
        "  TBL_TYPE AS b, OWNER AS c, CREATE_TIME::text, LOCATION,"
        "  INPUT_FORMAT, OUTPUT_FORMAT, SLIB, NUM_BUCKETS::text,"
        "  VIEW_ORIGINAL_TEXT, VIEW_EXPANDED_TEXT FROM t"
        PG_CHILD_ROW("1", "INTEGER_IDX", "COLUMN_NAME", "TYPE_NAME",
                     "COMMENT", "COLUMNS_V2")
        PG_CHILD_ROW("2", "INTEGER_IDX", "PKEY_NAME", "PKEY_TYPE",
                     "PKEY_COMMENT", "PARTITION_KEYS")
        PG_CHILD_ROW("3", "0", "PARAM_KEY", "PARAM_VALUE", "NULL",
                     "TABLE_PARAMS")
        PG_CHILD_ROW("4", "0", "PARAM_KEY", "PARAM_VALUE", "NULL",
                     "SERDE_PARAMS")
        PG_CHILD_ROW("5", "INTEGER_IDX", "BUCKET_COL_NAME", "NULL", "NULL",
                     "BUCKETING_COLS")
        PG_CHILD_ROW("6", "INTEGER_IDX", "COLUMN_NAME", "\"ORDER\"::text",
                     "NULL", "SORT_COLS")
        " UNION ALL SELECT 7, PARENT_INTEGER_IDX, CONSTRAINT_NAME,"
        "  DEFAULT_VALUE, PARENT_INTEGER_IDX::text,"
        "  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
        "  FROM KEY_CONSTRAINTS k JOIN t ON k.PARENT_TBL_ID = t.TBL_ID"
        "  WHERE k.CONSTRAINT_TYPE = " MS_CONSTRAINT_DEFAULT_S
        ") u ORDER BY kind, idx, a COLLATE \"C\"",
    [PG_TABLE_FIND] =
        "SELECT t.TBL_ID, t.TBL_TYPE, t.LOCATION"
        " FROM TBLS t JOIN DBS d ON d.DB_ID = t.DB_ID"
        " WHERE d.NAME = $1 AND t.TBL_NAME = $2",
    /* no row: no such database; one row with a NULL name: no tables */
    [PG_TABLE_LIST] =
        "SELECT t.TBL_NAME FROM DBS d LEFT JOIN TBLS t ON t.DB_ID = d.DB_ID"
        " WHERE d.NAME = $1 ORDER BY t.TBL_NAME",
    [PG_TABLE_UPDATE] =
        "UPDATE TBLS SET TBL_TYPE = $2, OWNER = $3, LOCATION = $4,"
        " INPUT_FORMAT = $5, OUTPUT_FORMAT = $6, NUM_BUCKETS = $7, SLIB = $8,"
        " VIEW_ORIGINAL_TEXT = $9, VIEW_EXPANDED_TEXT = $10"
        " WHERE TBL_ID = $1",
    [PG_TABLE_DEF_DELETE] =
        "WITH ids AS (SELECT $1::bigint AS id), " PG_DEF_DELETES
        " DELETE FROM PARTITION_KEYS WHERE TBL_ID IN (SELECT id FROM ids)",
    /* tables of PG_TBL_IDS_OF with everything hanging off them, and the
     * transaction bookkeeping of their names, so that a table re-created
     * under the same name starts again at write id 1 */
    [PG_TABLES_DROP] =
        "WITH ids AS (SELECT TBL_ID AS id FROM (" PG_TBL_IDS_OF ") x),"
        " parts AS (SELECT PART_ID FROM PARTITIONS"
        "  WHERE TBL_ID IN (SELECT id FROM ids)), " PG_DEF_DELETES ","
        " k AS (DELETE FROM PARTITION_KEYS"
        "  WHERE TBL_ID IN (SELECT id FROM ids)),"
        " cs AS (DELETE FROM COL_STATS WHERE TBL_ID IN (SELECT id FROM ids)),"
        " gr AS (DELETE FROM GRANTS WHERE OBJ_TYPE <> 'ROLE' AND DB_NAME = $1"
        "  AND ($2::text IS NULL OR TBL_NAME = $2)),"
        " v AS (DELETE FROM PARTITION_KEY_VALS"
        "  WHERE PART_ID IN (SELECT PART_ID FROM parts)),"
        " pp AS (DELETE FROM PARTITION_PARAMS"
        "  WHERE PART_ID IN (SELECT PART_ID FROM parts)),"
        " pa AS (DELETE FROM PARTITIONS"
        "  WHERE PART_ID IN (SELECT PART_ID FROM parts)),"
        " tc AS (DELETE FROM TXN_COMPONENTS" PG_TXN_ROWS_OF("TC") "),"
        " ctc AS (DELETE FROM COMPLETED_TXN_COMPONENTS" PG_TXN_ROWS_OF("CTC")
        "),"
        " t2w AS (DELETE FROM TXN_TO_WRITE_ID" PG_TXN_ROWS_OF("T2W") "),"
        " nwi AS (DELETE FROM NEXT_WRITE_ID" PG_TXN_ROWS_OF("NWI") "),"
        " ws AS (DELETE FROM WRITE_SET" PG_TXN_ROWS_OF("WS") "),"
        " cq AS (DELETE FROM COMPACTION_QUEUE" PG_TXN_ROWS_OF("CQ") "),"
        " cc AS (DELETE FROM COMPLETED_COMPACTIONS" PG_TXN_ROWS_OF("CC") ")"
        " DELETE FROM TBLS WHERE TBL_ID IN (SELECT id FROM ids)",
    [PG_TABLE_RENAME] =
        "UPDATE TBLS SET DB_ID = $2, TBL_NAME = $3,"
        " LOCATION = COALESCE($4, LOCATION) WHERE TBL_ID = $1",
    /* partitions of table $1 below the old location $2 move below $3 */
    [PG_PARTS_RELOCATE] =
        "UPDATE PARTITIONS"
        " SET LOCATION = $3::text || substr(LOCATION, length($2::text) + 1)"
        " WHERE TBL_ID = $1"
        " AND substr(LOCATION, 1, length($2::text) + 1) = $2::text || '/'",
    /* Hive's onRename: $1.$2 becomes $3.$4 in every transaction table */
    [PG_RENAME_TXN_ROWS] =
        "WITH tc AS (UPDATE TXN_COMPONENTS SET TC_DATABASE = $3,"
        "  TC_TABLE = $4 WHERE TC_DATABASE = $1 AND TC_TABLE = $2),"
        " ctc AS (UPDATE COMPLETED_TXN_COMPONENTS SET CTC_DATABASE = $3,"
        "  CTC_TABLE = $4 WHERE CTC_DATABASE = $1 AND CTC_TABLE = $2),"
        " t2w AS (UPDATE TXN_TO_WRITE_ID SET T2W_DATABASE = $3,"
        "  T2W_TABLE = $4 WHERE T2W_DATABASE = $1 AND T2W_TABLE = $2),"
        " nwi AS (UPDATE NEXT_WRITE_ID SET NWI_DATABASE = $3,"
        "  NWI_TABLE = $4 WHERE NWI_DATABASE = $1 AND NWI_TABLE = $2),"
        " ws AS (UPDATE WRITE_SET SET WS_DATABASE = $3, WS_TABLE = $4"
        "  WHERE WS_DATABASE = $1 AND WS_TABLE = $2),"
        " hl AS (UPDATE HIVE_LOCKS SET HL_DB = $3, HL_TABLE = $4"
        "  WHERE HL_DB = $1 AND HL_TABLE = $2),"
        " cq AS (UPDATE COMPACTION_QUEUE SET CQ_DATABASE = $3, CQ_TABLE = $4"
        "  WHERE CQ_DATABASE = $1 AND CQ_TABLE = $2),"
        " gr AS (UPDATE GRANTS SET DB_NAME = $3, TBL_NAME = $4"
        "  WHERE OBJ_TYPE = 'TABLE' AND DB_NAME = $1 AND TBL_NAME = $2)"
        " UPDATE COMPLETED_COMPACTIONS SET CC_DATABASE = $3, CC_TABLE = $4"
        " WHERE CC_DATABASE = $1 AND CC_TABLE = $2",

    /* partitions of table $1 (names $2, creation times $3 (NULL: now),
     * locations $4, formats $5-$6, serdes $7), their values (partition
     * names $8, values $9, positions $10) and parameters (partition names
     * $11, keys $12, values $13; a repeated key keeps its last value); a
     * name taken already is skipped with its values and parameters.  The
     * names added come back. */
    [PG_PARTS_INSERT] =
        "WITH p AS (INSERT INTO PARTITIONS (TBL_ID, PART_NAME, CREATE_TIME,"
        "  LOCATION, INPUT_FORMAT, OUTPUT_FORMAT, SLIB)"
        "  SELECT $1::bigint, n, COALESCE(c, " PG_NOW_S "), l, i, o, s"
        "  FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[],"
        "   $6::text[], $7::text[]) AS x(n, c, l, i, o, s)"
        "  ON CONFLICT (TBL_ID, PART_NAME) DO NOTHING"
        "  RETURNING PART_ID, PART_NAME),"
        " v AS (INSERT INTO PARTITION_KEY_VALS (PART_ID, PART_KEY_VAL,"
        "  INTEGER_IDX) SELECT p.PART_ID, x.v, x.i"
        "  FROM unnest($8::text[], $9::text[], $10::int[]) AS x(n, v, i)"
        "  JOIN p ON p.PART_NAME = x.n),"
        " q AS (INSERT INTO PARTITION_PARAMS (PART_ID, PARAM_KEY, PARAM_VALUE)"
        "  SELECT DISTINCT ON (p.PART_ID, x.k) p.PART_ID, x.k, x.v"
        "  FROM unnest($11::text[], $12::text[], $13::text[])"
        "  WITH ORDINALITY AS x(n, k, v, o) JOIN p ON p.PART_NAME = x.n"
        "  ORDER BY p.PART_ID, x.k, x.o DESC)"
        " SELECT PART_NAME FROM p",
    [PG_PARTS_FIND] =
        "SELECT PART_NAME FROM PARTITIONS"
        " WHERE TBL_ID = $1 AND PART_NAME = ANY ($2::text[])",
    /* partitions $4 of table $1 ($2.$3) with their values, parameters and
     * transaction rows (Hive's cleanupRecords for a partition) */
    [PG_PARTS_DROP] =
        "WITH ids AS (SELECT PART_ID FROM PARTITIONS"
        "  WHERE TBL_ID = $1 AND PART_NAME = ANY ($4::text[])),"
        " cs AS (DELETE FROM COL_STATS"
        "  WHERE TBL_ID = $1 AND PART_NAME = ANY ($4::text[])),"
        " v AS (DELETE FROM PARTITION_KEY_VALS"
        "  WHERE PART_ID IN (SELECT PART_ID FROM ids)),"
        " pp AS (DELETE FROM PARTITION_PARAMS"
        "  WHERE PART_ID IN (SELECT PART_ID FROM ids)),"
        " tc AS (DELETE FROM TXN_COMPONENTS WHERE TC_DATABASE = $2"
        "  AND TC_TABLE = $3 AND TC_PARTITION = ANY ($4::text[])),"
        " ctc AS (DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_DATABASE = $2"
        "  AND CTC_TABLE = $3 AND CTC_PARTITION = ANY ($4::text[])),"
        " cq AS (DELETE FROM COMPACTION_QUEUE WHERE CQ_DATABASE = $2"
        "  AND CQ_TABLE = $3 AND CQ_PARTITION = ANY ($4::text[])),"
        " cc AS (DELETE FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = $2"
        "  AND CC_TABLE = $3 AND CC_PARTITION = ANY ($4::text[]))"
        " DELETE FROM PARTITIONS WHERE PART_ID IN (SELECT PART_ID FROM ids)",
    /* the partitions of table $1 (only $2 unless NULL) in name order, each
     * row (kind 0: id, creation time, location, formats, serde) followed
     * by its values (kind 1, in key order) and parameters (kind 2, by
     * key), in one statement */
    [PG_PARTS_GET] =
        "WITH p AS (SELECT * FROM PARTITIONS"
        "  WHERE TBL_ID = $1 AND ($2::text IS NULL OR PART_NAME = $2))"
        " SELECT * FROM (SELECT PART_NAME AS name, 0 AS kind, 0 AS idx,"
        "  PART_ID::text AS a, CREATE_TIME::text AS b, LOCATION,"
        "  INPUT_FORMAT, OUTPUT_FORMAT, SLIB FROM p"
        " UNION ALL SELECT p.PART_NAME, 1, v.INTEGER_IDX, v.PART_KEY_VAL,"
        "  NULL, NULL, NULL, NULL, NULL"
        "  FROM PARTITION_KEY_VALS v JOIN p USING (PART_ID)"
        " UNION ALL SELECT p.PART_NAME, 2, 0, q.PARAM_KEY, q.PARAM_VALUE,"
        "  NULL, NULL, NULL, NULL"
        "  FROM PARTITION_PARAMS q JOIN p USING (PART_ID)) u"
        " ORDER BY name COLLATE \"C\", kind, idx, a COLLATE \"C\"",
    [PG_PART_SET_LOCATION] =
        "UPDATE PARTITIONS SET LOCATION = $3"
        " WHERE TBL_ID = $1 AND PART_NAME = $2",
    [PG_PART_ID] =
        "SELECT PART_ID FROM PARTITIONS WHERE TBL_ID = $1 AND PART_NAME = $2",
    [PG_PART_PARAMS_DELETE] =
        "DELETE FROM PARTITION_PARAMS WHERE PART_ID = $1",
    /* parameters of partition $1: keys $2, values $3; a repeated key
     * keeps its last value */
    [PG_PART_PARAMS_INSERT] =
        "INSERT INTO PARTITION_PARAMS (PART_ID, PARAM_KEY, PARAM_VALUE)"
        " SELECT DISTINCT ON (x.k) $1::bigint, x.k, x.v"
        " FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(k, v, o)"
        " ORDER BY x.k, x.o DESC",

    /* a new txn of type $3 for user $1 on host $2, in one statement: its
     * id taken from NEXT_TXN_ID, whose row stays locked until the commit
     * (TxnHandler's S4U: ids are contiguous, opens serial and mutually
     * exclusive with commits that write), its TXNS row and its
     * MIN_HISTORY_LEVEL row (the lowest open txn, itself if none) */
    [PG_TXN_OPEN] =
        "WITH n AS (UPDATE NEXT_TXN_ID SET NTXN_NEXT = NTXN_NEXT + 1"
        "  RETURNING NTXN_NEXT - 1 AS id),"
        " t AS (INSERT INTO TXNS (TXN_ID, TXN_STATE, TXN_STARTED,"
        "  TXN_LAST_HEARTBEAT, TXN_USER, TXN_HOST, TXN_HEARTBEAT_COUNT,"
        "  TXN_TYPE) SELECT id, 'o', " PG_NOW_MS ", " PG_NOW_MS ", $1, $2, 0,"
        "  $3 FROM n),"
        " m AS (INSERT INTO MIN_HISTORY_LEVEL (MHL_TXNID, MHL_MIN_OPEN_TXNID)"
        "  SELECT id, COALESCE((SELECT MIN(TXN_ID) FROM TXNS"
        "   WHERE TXN_STATE = 'o'), id) FROM n)"
        " SELECT id FROM n",
    [PG_NEXT_TXN_LOCK] = "SELECT NTXN_NEXT FROM NEXT_TXN_ID FOR UPDATE",
    [PG_NEXT_TXN_RAISE] =
        "UPDATE NEXT_TXN_ID SET NTXN_NEXT = GREATEST(NTXN_NEXT, $1::bigint)"
        " RETURNING NTXN_NEXT",
/* the columns txn_lookup reads */
#define PG_TXN_COLUMNS "TXN_STATE, TXN_TYPE, TXN_META_INFO"
    [PG_TXN_GET] = "SELECT " PG_TXN_COLUMNS " FROM TXNS WHERE TXN_ID = $1",
    /* every call on a txn locks its row first: one at a time per txn */
    [PG_TXN_LOCK] =
        "SELECT " PG_TXN_COLUMNS " FROM TXNS WHERE TXN_ID = $1 FOR UPDATE",
    /* the same for a commit, with whether the txn updated or deleted; a
     * read-only txn's commit changes nothing anyone reads durably, so
     * it does not wait for the disk */
    [PG_TXN_COMMIT_LOOKUP] =
        "SELECT " PG_TXN_COLUMNS ", (EXISTS (SELECT 1 FROM TXN_COMPONENTS"
        "  WHERE TC_TXNID = $1 AND TC_OPERATION_TYPE IN ('u', 'd')))::int,"
        " set_config('synchronous_commit', CASE WHEN TXN_TYPE = 2"
        "  THEN 'off' ELSE current_setting('synchronous_commit') END, true)"
        " FROM TXNS WHERE TXN_ID = $1 FOR UPDATE",
    /* the end of open txn $1's commit, in one statement: its components
     * copied to COMPLETED_TXN_COMPONENTS ('Y' on every row when it updated
     * or deleted anything) and removed, its locks and MIN_HISTORY_LEVEL
     * row removed, its state 'c' */
    [PG_TXN_FINISH] =
        "WITH ctc AS (INSERT INTO COMPLETED_TXN_COMPONENTS (CTC_TXNID,"
        "  CTC_DATABASE, CTC_TABLE, CTC_PARTITION, CTC_TIMESTAMP, CTC_WRITEID,"
        "  CTC_UPDATE_DELETE)"
        "  SELECT TC_TXNID, TC_DATABASE, TC_TABLE, TC_PARTITION, " PG_NOW_MS
        "  , TC_WRITEID,"
        "  CASE WHEN EXISTS (SELECT 1 FROM TXN_COMPONENTS"
        "    WHERE TC_TXNID = $1 AND TC_OPERATION_TYPE IN ('u', 'd'))"
        "   THEN 'Y' ELSE 'N' END"
        "  FROM TXN_COMPONENTS"
        "  WHERE TC_TXNID = $1 AND TC_OPERATION_TYPE <> 'c'),"
        " tc AS (DELETE FROM TXN_COMPONENTS WHERE TC_TXNID = $1),"
        " l AS (DELETE FROM HIVE_LOCKS WHERE HL_TXNID = $1),"
        " m AS (DELETE FROM MIN_HISTORY_LEVEL WHERE MHL_TXNID = $1)"
        " UPDATE TXNS SET TXN_STATE = 'c' WHERE TXN_ID = $1"
        " AND TXN_STATE = 'o'",
    /* NEXT_TXN_ID with every open and aborted txn, in one snapshot; a row
     * with a NULL id when there are none.  Read-only txns write nothing:
     * never an exception (Hive leaves them out of getOpenTxns). */
    [PG_SNAPSHOT] =
        "SELECT n.NTXN_NEXT, t.TXN_ID, t.TXN_STATE FROM NEXT_TXN_ID n"
        " LEFT JOIN TXNS t ON t.TXN_STATE IN ('o', 'a')"
        "  AND t.TXN_TYPE IS DISTINCT FROM 2"
        " ORDER BY t.TXN_ID",
    /* txn $1 wrote partitions $4 (a NULL element: the table) of $2.$3;
     * a multi-statement txn reports the same write more than once */
    [PG_TC_INSERT] =
        "INSERT INTO TXN_COMPONENTS (TC_TXNID, TC_DATABASE, TC_TABLE,"
        " TC_PARTITION, TC_OPERATION_TYPE, TC_WRITEID)"
        " SELECT DISTINCT $1::bigint, $2::text, $3::text, x.p, $5::text,"
        " $6::bigint FROM unnest($4::text[]) AS x(p)"
        " WHERE NOT EXISTS (SELECT 1 FROM TXN_COMPONENTS"
        "  WHERE TC_TXNID = $1 AND TC_DATABASE = $2"
        "  AND TC_TABLE IS NOT DISTINCT FROM $3"
        "  AND TC_PARTITION IS NOT DISTINCT FROM x.p"
        "  AND TC_OPERATION_TYPE = $5 AND TC_WRITEID IS NOT DISTINCT FROM $6)",
    /* a dynamic-partition write recorded table-level before its
     * partitions were known (Hive's addDynamicPartitions) */
    [PG_TC_DELETE_TABLE_LEVEL] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_TXNID = $1 AND TC_DATABASE = $2"
        " AND TC_TABLE = $3 AND TC_PARTITION IS NULL",
    /* first committer wins (hive-acid-transactions.md 2.4), as in
     * ms_sqlite.c: an update/delete of the same table or partition
     * committed with a commit id >= this txn's id */
    [PG_WS_CONFLICT] =
        "SELECT X.WS_TXNID, X.WS_COMMIT_ID, C.TC_DATABASE, C.TC_TABLE,"
        " C.TC_PARTITION, C.TC_OPERATION_TYPE, X.WS_OPERATION_TYPE"
        " FROM TXN_COMPONENTS C JOIN WRITE_SET X"
        "  ON X.WS_DATABASE = C.TC_DATABASE AND X.WS_TABLE = C.TC_TABLE"
        "  AND X.WS_PARTITION IS NOT DISTINCT FROM C.TC_PARTITION"
        " WHERE C.TC_TXNID = $1 AND C.TC_OPERATION_TYPE IN ('u', 'd')"
        "  AND X.WS_TXNID <> $1 AND X.WS_COMMIT_ID >= $1"
        "  AND X.WS_OPERATION_TYPE IN ('u', 'd')"
        " LIMIT 1",
    [PG_WS_INSERT] =
        "INSERT INTO WRITE_SET (WS_DATABASE, WS_TABLE, WS_PARTITION,"
        " WS_TXNID, WS_COMMIT_ID, WS_OPERATION_TYPE)"
        " SELECT DISTINCT TC_DATABASE, TC_TABLE, TC_PARTITION, $1::bigint,"
        " $2::bigint, TC_OPERATION_TYPE FROM TXN_COMPONENTS"
        " WHERE TC_TXNID = $1 AND TC_OPERATION_TYPE IN ('u', 'd')",
/* Abort the open txns `which` selects for `reason`, in one statement: state
 * 'a', the reason in TXN_META_INFO, their locks and MIN_HISTORY_LEVEL rows
 * removed (TXN_COMPONENTS stay: they are how the compactor finds aborted
 * data); how many comes back.  TXN_LAST_HEARTBEAT becomes the time of the
 * abort: an aborted txn that wrote nothing is kept one time-out longer
 * (PG_HK_CLEAN), so that its owner, if alive, still learns why. */
#define PG_ABORT_TXNS(which, reason)                                     \
    "WITH t AS (UPDATE TXNS SET TXN_STATE = 'a', TXN_META_INFO = " reason \
    ", TXN_LAST_HEARTBEAT = " PG_NOW_MS                                  \
    "  WHERE TXN_STATE = 'o' AND " which " RETURNING TXN_ID),"           \
    " l AS (DELETE FROM HIVE_LOCKS WHERE HL_TXNID IN (SELECT TXN_ID FROM t)),"\
    " m AS (DELETE FROM MIN_HISTORY_LEVEL"                               \
    "  WHERE MHL_TXNID IN (SELECT TXN_ID FROM t))"                       \
    " SELECT count(*) FROM t"
    [PG_TXN_ABORT] = PG_ABORT_TXNS("TXN_ID = $1", "substr($2::text, 1, 128)"),
    /* counting stops at the limit: cheap however many are open */
    [PG_TXN_COUNT_OPEN] =
        "SELECT count(*) FROM (SELECT 1 FROM TXNS WHERE TXN_STATE = 'o'"
        " LIMIT $1) x",
    [PG_TXN_LIST] =
        "SELECT TXN_ID, TXN_STATE, TXN_TYPE, TXN_STARTED, TXN_LAST_HEARTBEAT,"
        " TXN_USER, TXN_HOST, TXN_META_INFO FROM TXNS"
        " WHERE TXN_STATE IN ('o', 'a') ORDER BY TXN_ID",
    /* the open ones of txns $1 come back */
    [PG_TXN_HEARTBEAT] =
        "UPDATE TXNS SET TXN_LAST_HEARTBEAT = " PG_NOW_MS ","
        " TXN_HEARTBEAT_COUNT = COALESCE(TXN_HEARTBEAT_COUNT, 0) + 1"
        " WHERE TXN_ID = ANY ($1::bigint[]) AND TXN_STATE = 'o'"
        " RETURNING TXN_ID",

    /* a lock request of txn $1 (databases $2, tables $3, partitions $4,
     * types $5; user $6, host $7, agent $8) in one statement: one waiting
     * row per component, HL_LOCK_INT_ID 1..n, under the next ext id from
     * NEXT_LOCK_ID, whose row stays locked until the commit, so requests
     * enter the queue one at a time, in id order; the id comes back */
    [PG_LOCK_ENQUEUE] =
        "WITH n AS (UPDATE NEXT_LOCK_ID SET NL_NEXT = NL_NEXT + 1"
        "  RETURNING NL_NEXT - 1 AS ext),"
        " r AS (INSERT INTO HIVE_LOCKS (HL_LOCK_EXT_ID, HL_LOCK_INT_ID,"
        "  HL_TXNID, HL_DB, HL_TABLE, HL_PARTITION, HL_LOCK_STATE,"
        "  HL_LOCK_TYPE, HL_LAST_HEARTBEAT, HL_USER, HL_HOST,"
        "  HL_HEARTBEAT_COUNT, HL_AGENT_INFO)"
        "  SELECT n.ext, x.i, $1::bigint, x.d, x.t, x.p, 'w', x.y, 0,"
        "  $6::text, $7::text, 0, $8::text"
        "  FROM n, unnest($2::text[], $3::text[], $4::text[], $5::text[])"
        "  WITH ORDINALITY AS x(d, t, p, y, i))"
        " SELECT ext FROM n",
    /* lock checks run one at a time (Hive's CheckLock mutex), and not
     * while a request enters the queue: what one grants, the next sees */
    [PG_LOCK_MUTEX] = "SELECT NL_NEXT FROM NEXT_LOCK_ID FOR UPDATE",
/* the columns of PG_LOCK_CANDIDATES and PG_LOCK_LIST, in the order
 * lock_rows_fetch reads them */
#define PG_LOCK_COLUMNS                                                 \
    "HL_LOCK_EXT_ID, HL_LOCK_INT_ID, HL_TXNID, HL_DB, HL_TABLE,"        \
    " HL_PARTITION, HL_LOCK_STATE, HL_LOCK_TYPE, HL_LAST_HEARTBEAT,"    \
    " HL_ACQUIRED_AT, HL_USER, HL_HOST, HL_AGENT_INFO,"                 \
    " HL_BLOCKEDBY_EXT_ID, HL_BLOCKEDBY_INT_ID"
    /* the rows of request $1 of txn $2 (first, in id order), then what
     * may block them: the rows of earlier requests of other txns in the
     * same databases, in queue order */
    [PG_LOCK_CANDIDATES] =
        "SELECT " PG_LOCK_COLUMNS " FROM HIVE_LOCKS WHERE HL_LOCK_EXT_ID = $1"
        " OR (HL_LOCK_EXT_ID < $1 AND HL_TXNID <> $2 AND HL_DB IN"
        "  (SELECT HL_DB FROM HIVE_LOCKS WHERE HL_LOCK_EXT_ID = $1))"
        " ORDER BY HL_LOCK_EXT_ID = $1 DESC, HL_LOCK_EXT_ID, HL_LOCK_INT_ID",
    /* the decision on request $1 (ms_lock_decide): $2 'a' grants it
     * whole, 'n' removes it (a refused zero-wait read), 'w' records in its
     * row $3 the first row in the way ($4, $5) */
    [PG_LOCK_DECIDED] =
        "WITH g AS (UPDATE HIVE_LOCKS SET HL_LOCK_STATE = 'a',"
        "  HL_ACQUIRED_AT = " PG_NOW_MS ", HL_BLOCKEDBY_EXT_ID = NULL,"
        "  HL_BLOCKEDBY_INT_ID = NULL"
        "  WHERE HL_LOCK_EXT_ID = $1 AND $2::text = 'a'),"
        " r AS (DELETE FROM HIVE_LOCKS"
        "  WHERE HL_LOCK_EXT_ID = $1 AND $2::text = 'n')"
        " UPDATE HIVE_LOCKS SET HL_BLOCKEDBY_EXT_ID = $4,"
        " HL_BLOCKEDBY_INT_ID = $5"
        " WHERE HL_LOCK_EXT_ID = $1 AND HL_LOCK_INT_ID = $3"
        " AND $2::text = 'w'",
    [PG_UNLOCK_WAITING] =
        "DELETE FROM HIVE_LOCKS WHERE HL_LOCK_EXT_ID = $1"
        " AND HL_LOCK_STATE = 'w'",
    [PG_LOCK_LIST] =
        "SELECT " PG_LOCK_COLUMNS " FROM HIVE_LOCKS"
        " WHERE ($1::text IS NULL OR HL_DB = $1)"
        " AND ($2::text IS NULL OR HL_TABLE = $2)"
        " AND ($3::text IS NULL OR HL_PARTITION = $3)"
        " ORDER BY HL_LOCK_EXT_ID, HL_LOCK_INT_ID",

    /* one housekeeper at a time, holding its AUX_TABLE row; the others
     * skip the run */
    [PG_HK_ROW] =
        "INSERT INTO AUX_TABLE (MT_KEY1, MT_KEY2) VALUES ('HouseKeeper', 0)"
        " ON CONFLICT (MT_KEY1, MT_KEY2) DO NOTHING",
    [PG_HK_MUTEX] =
        "SELECT count(*) FROM (SELECT 1 FROM AUX_TABLE"
        " WHERE MT_KEY1 = 'HouseKeeper' AND MT_KEY2 = 0"
        " FOR UPDATE SKIP LOCKED) x",
    /* due when no run is recorded or the last one is $1 ms old */
    [PG_HK_DUE] =
        "SELECT ($1::bigint <= 0 OR " PG_NOW_MS " - COALESCE((SELECT"
        " MT_COMMENT::bigint FROM AUX_TABLE WHERE MT_KEY1 = 'HouseKeeper'"
        " AND MT_KEY2 = 0), 0) >= $1::bigint)::int",
    [PG_HK_MARK] =
        "UPDATE AUX_TABLE SET MT_COMMENT = " PG_NOW_MS "::text"
        " WHERE MT_KEY1 = 'HouseKeeper' AND MT_KEY2 = 0",
    /* Hive's AcidHouseKeeperService: open txns not heard from for $1 ms
     * are aborted, their number comes back */
    [PG_HK_TIMEOUTS] =
        PG_ABORT_TXNS("TXN_LAST_HEARTBEAT < " PG_NOW_MS " - $1",
                      "'" MS_ABORT_TIMEOUT "'"),
    /* AcidTxnCleanerService and the write-set, write-id and completed
     * components cleaners (README "Timeouts, heartbeats and
     * housekeeping"), below the lowest txn an open txn's snapshot may hold
     * as open; the rows removed, and the TXNS rows removed, come back.
     * All read one snapshot: no delete here changes what another
     * selects. */
    [PG_HK_CLEAN] =
        "WITH w AS (SELECT MIN(x) AS w FROM (SELECT MIN(TXN_ID) AS x FROM TXNS"
        "  WHERE TXN_STATE = 'o'"
        "  UNION ALL SELECT MIN(MHL_MIN_OPEN_TXNID) FROM MIN_HISTORY_LEVEL"
        "  UNION ALL SELECT NTXN_NEXT FROM NEXT_TXN_ID) y),"
        " aborted AS (SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'a'),"
        " ws AS (DELETE FROM WRITE_SET WHERE WS_COMMIT_ID < (SELECT w FROM w)"
        "  RETURNING 1),"
        /* committed rows below the watermark but each table's highest,
         * which keeps the write-id high watermark of every later snapshot */
        " t2w AS (DELETE FROM TXN_TO_WRITE_ID d"
        "  WHERE T2W_TXNID < (SELECT w FROM w)"
        "  AND T2W_TXNID NOT IN (SELECT TXN_ID FROM aborted)"
        "  AND T2W_WRITEID < (SELECT MAX(k.T2W_WRITEID) FROM TXN_TO_WRITE_ID k"
        "   WHERE k.T2W_DATABASE = d.T2W_DATABASE AND k.T2W_TABLE ="
        "   d.T2W_TABLE AND k.T2W_TXNID < (SELECT w FROM w)"
        "   AND k.T2W_TXNID NOT IN (SELECT TXN_ID FROM aborted))"
        "  RETURNING 1),"
        " ctc AS (DELETE FROM COMPLETED_TXN_COMPONENTS c"
        "  WHERE CTC_WRITEID < (SELECT MAX(k.CTC_WRITEID)"
        "   FROM COMPLETED_TXN_COMPONENTS k"
        "   WHERE k.CTC_DATABASE = c.CTC_DATABASE"
        "   AND k.CTC_TABLE IS NOT DISTINCT FROM c.CTC_TABLE"
        "   AND k.CTC_PARTITION IS NOT DISTINCT FROM c.CTC_PARTITION)"
        "  RETURNING 1),"
        " tc AS (DELETE FROM TXNS WHERE TXN_STATE = 'c'"
        "  AND TXN_ID < (SELECT w FROM w) RETURNING 1),"
        /* aborted txns that wrote nothing, one time-out after their abort */
        " ta AS (DELETE FROM TXNS WHERE TXN_STATE = 'a'"
        "  AND TXN_LAST_HEARTBEAT < " PG_NOW_MS " - $1"
        "  AND NOT EXISTS (SELECT 1 FROM TXN_COMPONENTS"
        "   WHERE TC_TXNID = TXN_ID)"
        "  AND NOT EXISTS (SELECT 1 FROM TXN_TO_WRITE_ID"
        "   WHERE T2W_TXNID = TXN_ID) RETURNING 1)"
        " SELECT (SELECT count(*) FROM ws) + (SELECT count(*) FROM t2w)"
        "  + (SELECT count(*) FROM ctc),"
        " (SELECT count(*) FROM tc) + (SELECT count(*) FROM ta)",

    [PG_T2W_GET] =
        "SELECT T2W_WRITEID FROM TXN_TO_WRITE_ID"
        " WHERE T2W_DATABASE = $1 AND T2W_TABLE = $2 AND T2W_TXNID = $3",
    [PG_T2W_INSERT] =
        "INSERT INTO TXN_TO_WRITE_ID (T2W_TXNID, T2W_DATABASE, T2W_TABLE,"
        " T2W_WRITEID) VALUES ($3, $1, $2, $4)",
    /* the table's next write id, taken; the row stays locked until the
     * commit, so allocations of one table are serial */
    [PG_NWI_TAKE] =
        "INSERT INTO NEXT_WRITE_ID AS n (NWI_DATABASE, NWI_TABLE, NWI_NEXT)"
        " VALUES ($1, $2, 2) ON CONFLICT (NWI_DATABASE, NWI_TABLE)"
        " DO UPDATE SET NWI_NEXT = n.NWI_NEXT + 1 RETURNING n.NWI_NEXT - 1",
    /* seedWriteId: $3 becomes the next write id of a table that never
     * allocated one; the row is locked either way, and comes back only
     * when it was seeded */
    [PG_NWI_SEED] =
        "INSERT INTO NEXT_WRITE_ID AS n (NWI_DATABASE, NWI_TABLE, NWI_NEXT)"
        " VALUES ($1, $2, $3) ON CONFLICT (NWI_DATABASE, NWI_TABLE)"
        " DO UPDATE SET NWI_NEXT = excluded.NWI_NEXT WHERE n.NWI_NEXT <= 1"
        " RETURNING n.NWI_NEXT",
    [PG_NWI_GET] =
        "SELECT NWI_NEXT FROM NEXT_WRITE_ID"
        " WHERE NWI_DATABASE = $1 AND NWI_TABLE = $2",
    /* Hive's getValidWriteIds for $1.$2 under a snapshot of high watermark
     * $3, in one statement: the write-id high watermark (the newest write
     * id of a txn <= $3, else the last allocated, else 0) on every row,
     * with the table's write ids up to it in order (a row with NULLs when
     * there are none) */
    [PG_WRITEIDS] =
        "WITH h AS (SELECT COALESCE("
        "  (SELECT MAX(T2W_WRITEID) FROM TXN_TO_WRITE_ID WHERE T2W_DATABASE"
        "   = $1 AND T2W_TABLE = $2 AND T2W_TXNID <= $3"
        "   HAVING MAX(T2W_WRITEID) > 0),"
        "  (SELECT NWI_NEXT - 1 FROM NEXT_WRITE_ID"
        "   WHERE NWI_DATABASE = $1 AND NWI_TABLE = $2), 0) AS hwm)"
        " SELECT h.hwm, w.T2W_TXNID, w.T2W_WRITEID FROM h"
        " LEFT JOIN TXN_TO_WRITE_ID w ON w.T2W_DATABASE = $1"
        "  AND w.T2W_TABLE = $2 AND w.T2W_WRITEID <= h.hwm"
        " ORDER BY w.T2W_WRITEID",
    /* compaction: the queue's columns as ms_compact_list reads them */
#define PG_CQ_COLUMNS                                                   \
    "CQ_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, CQ_STATE, CQ_TYPE,"    \
    " CQ_TBLPROPERTIES, CQ_WORKER_ID, CQ_ENQUEUE_TIME, CQ_START,"       \
    " NULL::bigint, CQ_HIGHEST_WRITE_ID, CQ_TXN_ID, CQ_NEXT_TXN_ID,"    \
    " CQ_COMMIT_TIME, CQ_ERROR_MESSAGE, CQ_INITIATOR_ID,"               \
    " convert_from(CQ_META_INFO, 'UTF8')"
#define PG_CC_COLUMNS                                                   \
    "CC_ID, CC_DATABASE, CC_TABLE, CC_PARTITION, CC_STATE, CC_TYPE,"    \
    " CC_TBLPROPERTIES, CC_WORKER_ID, CC_ENQUEUE_TIME, CC_START, CC_END," \
    " CC_HIGHEST_WRITE_ID, CC_TXN_ID, CC_NEXT_TXN_ID, CC_COMMIT_TIME,"  \
    " CC_ERROR_MESSAGE, CC_INITIATOR_ID, convert_from(CC_META_INFO, 'UTF8')"
    /* every change of the queue first locks the id row: queue calls run
     * one at a time (Hive's CompactionScheduler mutex) */
    [PG_CQ_MUTEX] =
        "SELECT NCQ_NEXT FROM NEXT_COMPACTION_QUEUE_ID FOR UPDATE",
    [PG_CQ_NEXT_ID_SET] = "UPDATE NEXT_COMPACTION_QUEUE_ID SET NCQ_NEXT = $1",
    [PG_CQ_IN_WAY] =
        "SELECT CQ_ID, CQ_STATE FROM COMPACTION_QUEUE"
        " WHERE CQ_DATABASE = $1 AND CQ_TABLE = $2"
        " AND CQ_PARTITION IS NOT DISTINCT FROM $3::text"
        " AND (CQ_STATE IN ('i', 'w') OR (CQ_STATE = 'r'"
        "  AND CQ_HIGHEST_WRITE_ID = (SELECT NWI_NEXT - 1 FROM NEXT_WRITE_ID"
        "   WHERE NWI_DATABASE = $1 AND NWI_TABLE = $2)))"
        " ORDER BY CQ_ID LIMIT 1",
    [PG_CQ_INSERT] =
        "INSERT INTO COMPACTION_QUEUE (CQ_ID, CQ_DATABASE, CQ_TABLE,"
        " CQ_PARTITION, CQ_STATE, CQ_TYPE, CQ_TBLPROPERTIES, CQ_ENQUEUE_TIME,"
        " CQ_INITIATOR_ID) VALUES ($1, $2, $3, $4, 'i', $5, $6, " PG_NOW_MS
        ", $7)",
    /* workers that did not finish within $1 ms: their txns are aborted */
    [PG_CQ_ABORT_TIMED_OUT] =
        PG_ABORT_TXNS("TXN_ID IN (SELECT CQ_TXN_ID FROM COMPACTION_QUEUE"
                      " WHERE CQ_STATE = 'w' AND CQ_START < " PG_NOW_MS
                      " - $1::bigint)",
                      "'" MS_ABORT_COMPACTION "'"),
    [PG_CQ_RESET_TIMED_OUT] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'i', CQ_WORKER_ID = NULL,"
        " CQ_START = NULL, CQ_TXN_ID = NULL"
        " WHERE CQ_STATE = 'w' AND CQ_START < " PG_NOW_MS " - $1::bigint",
    [PG_CQ_PICK] =
        "SELECT CQ_ID FROM COMPACTION_QUEUE WHERE CQ_STATE = 'i'"
        " AND ($1::bigint = 0 OR CQ_ID = $1::bigint) ORDER BY CQ_ID LIMIT 1",
    [PG_CQ_CLAIM] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'w', CQ_WORKER_ID = $2,"
        " CQ_START = " PG_NOW_MS " WHERE CQ_ID = $1 AND CQ_STATE = 'i'",
    [PG_CQ_GET] =
        "SELECT " PG_CQ_COLUMNS " FROM COMPACTION_QUEUE WHERE CQ_ID = $1",
    [PG_CQ_PROGRESS] =
        "UPDATE COMPACTION_QUEUE SET CQ_META_INFO = convert_to($2, 'UTF8')"
        " WHERE CQ_ID = $1 AND CQ_STATE = 'w'",
    [PG_CQ_SET_TXN] =
        "UPDATE COMPACTION_QUEUE SET CQ_TXN_ID = $2, CQ_HIGHEST_WRITE_ID = $3"
        " WHERE CQ_ID = $1 AND CQ_STATE = 'w'",
    /* Hive's 'c' component: an aborted compaction's txn stays known as
     * aborted (housekeeping keeps txns with components), so its _v
     * directories stay invisible until a cleaner has removed them */
    [PG_CQ_TC_INSERT] =
        "INSERT INTO TXN_COMPONENTS (TC_TXNID, TC_DATABASE, TC_TABLE,"
        " TC_PARTITION, TC_OPERATION_TYPE, TC_WRITEID)"
        " SELECT CQ_TXN_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, 'c',"
        " CQ_HIGHEST_WRITE_ID FROM COMPACTION_QUEUE WHERE CQ_ID = $1",
    /* ... dropped when the aborted attempt wrote nothing (refused) */
    [PG_CQ_TC_DROP] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_OPERATION_TYPE = 'c'"
        " AND TC_TXNID = (SELECT CQ_TXN_ID FROM COMPACTION_QUEUE"
        "  WHERE CQ_ID = $1)"
        " AND TC_TXNID IN (SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'a')",
    /* held until the commit: no txn opens between reading the next id and
     * the compaction's commit, so every later txn sees the compaction */
    [PG_CQ_NEXT_TXN_LOCK] = "SELECT NTXN_NEXT FROM NEXT_TXN_ID FOR UPDATE",
    [PG_CQ_READY] =
        "UPDATE COMPACTION_QUEUE SET CQ_STATE = 'r', CQ_WORKER_ID = NULL,"
        " CQ_NEXT_TXN_ID = $3, CQ_COMMIT_TIME = " PG_NOW_MS
        " WHERE CQ_ID = $1 AND CQ_STATE = 'w' AND CQ_TXN_ID = $2",
    [PG_CQ_STATE] = "SELECT CQ_STATE FROM COMPACTION_QUEUE WHERE CQ_ID = $1",
    [PG_CQ_TO_HISTORY] =
        "INSERT INTO COMPLETED_COMPACTIONS (CC_ID, CC_DATABASE, CC_TABLE,"
        " CC_PARTITION, CC_STATE, CC_TYPE, CC_TBLPROPERTIES, CC_WORKER_ID,"
        " CC_ENQUEUE_TIME, CC_START, CC_END, CC_RUN_AS, CC_HIGHEST_WRITE_ID,"
        " CC_META_INFO, CC_HADOOP_JOB_ID, CC_ERROR_MESSAGE, CC_NEXT_TXN_ID,"
        " CC_TXN_ID, CC_COMMIT_TIME, CC_INITIATOR_ID, CC_INITIATOR_VERSION,"
        " CC_WORKER_VERSION, CC_POOL_NAME, CC_NUMBER_OF_BUCKETS, CC_ORDER_BY)"
        " SELECT CQ_ID, CQ_DATABASE, CQ_TABLE, CQ_PARTITION, $2, CQ_TYPE,"
        " CQ_TBLPROPERTIES, CQ_WORKER_ID, CQ_ENQUEUE_TIME, CQ_START, "
        PG_NOW_MS ", CQ_RUN_AS, CQ_HIGHEST_WRITE_ID, CQ_META_INFO,"
        " CQ_HADOOP_JOB_ID, COALESCE($3::text, CQ_ERROR_MESSAGE),"
        " CQ_NEXT_TXN_ID, CQ_TXN_ID, CQ_COMMIT_TIME, CQ_INITIATOR_ID,"
        " CQ_INITIATOR_VERSION, CQ_WORKER_VERSION, CQ_POOL_NAME,"
        " CQ_NUMBER_OF_BUCKETS, CQ_ORDER_BY"
        " FROM COMPACTION_QUEUE WHERE CQ_ID = $1",
    [PG_CQ_DELETE] = "DELETE FROM COMPACTION_QUEUE WHERE CQ_ID = $1",
    /* markCleaned: ($1 db, $2 table, $3 partition, $4 high watermark) */
    [PG_CQ_CLEAN_CTC] =
        "DELETE FROM COMPLETED_TXN_COMPONENTS WHERE CTC_DATABASE = $1"
        " AND CTC_TABLE = $2 AND CTC_PARTITION IS NOT DISTINCT FROM $3::text"
        " AND CTC_WRITEID <= $4",
    [PG_CQ_CLEAN_TC] =
        "DELETE FROM TXN_COMPONENTS WHERE TC_DATABASE = $1 AND TC_TABLE = $2"
        " AND TC_PARTITION IS NOT DISTINCT FROM $3::text AND TC_WRITEID <= $4"
        " AND TC_TXNID IN (SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'a')",
    [PG_CC_PURGE] =
        "DELETE FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = $1"
        " AND CC_TABLE = $2 AND CC_PARTITION IS NOT DISTINCT FROM $3::text"
        " AND CC_STATE = $4 AND CC_ID NOT IN (SELECT CC_ID"
        "  FROM COMPLETED_COMPACTIONS WHERE CC_DATABASE = $1"
        "  AND CC_TABLE = $2 AND CC_PARTITION IS NOT DISTINCT FROM $3::text"
        "  AND CC_STATE = $4 ORDER BY CC_ID DESC LIMIT $5)",
    [PG_CQ_LIST] =
        "SELECT " PG_CQ_COLUMNS " FROM COMPACTION_QUEUE UNION ALL"
        " SELECT " PG_CC_COLUMNS " FROM COMPLETED_COMPACTIONS ORDER BY 1",
    [PG_CQ_READY_LIST] =
        "SELECT " PG_CQ_COLUMNS " FROM COMPACTION_QUEUE WHERE CQ_STATE = 'r'"
        " AND CQ_NEXT_TXN_ID <= COALESCE((SELECT MIN(TXN_ID) FROM TXNS"
        "  WHERE TXN_STATE = 'o'), (SELECT NTXN_NEXT FROM NEXT_TXN_ID))"
        " ORDER BY CQ_ID",
};

/* ------------------------------------------------------------ handle */

/* Test builds (COMB_MS_FAULT): readonly makes the session refuse writes
 * (default_transaction_read_only, as a standby would); full answers every
 * write with a full disk, part_add only adding partitions; pg_kill<n> ends
 * the connection after the n-th statement (1-9) of the first writing
 * call, pg_commit_lost instead of its COMMIT, as a server going away
 * would. */
typedef enum PgFault {
    PG_FAULT_NONE,
    PG_FAULT_READONLY,
    PG_FAULT_FULL,
    PG_FAULT_PART_ADD,
    PG_FAULT_KILL,
    PG_FAULT_COMMIT_LOST
} PgFault;

/* How a call runs (see the file comment). */
typedef enum PgMode {
    PG_AUTOCOMMIT,  /* one reading statement: its own snapshot */
    PG_READ,        /* several reads: REPEATABLE READ READ ONLY */
    PG_CATALOG,     /* catalog changes: SERIALIZABLE */
    PG_TXN,         /* transaction manager: READ COMMITTED + row locks */
    PG_TXN_LIGHT    /* the same, for a write whose loss in a crash of the
                       server harms nothing: the commit does not wait for
                       the disk */
} PgMode;

typedef struct MsPg {
    PGconn *conn;                   /* NULL or broken between reconnects */
    char *url;                      /* as given: libpq's to read */
    char *where;                    /* the URL for messages, no password */
    char *warehouse;                /* root for default db locations */
    PgFault fault;                  /* test builds only */
    bool fault_done;                /* a one-shot fault has happened */
    int fault_statements;           /* to run in writes before it */
    bool prepared[PG_N_STATEMENTS]; /* on this connection */
    /* what the current run of a call ran into (pg_run) */
    bool in_write;                  /* in a transaction that writes */
    bool retry;                     /* serialization failure or deadlock */
    bool lost;                      /* the connection broke */
    bool committing;                /* ... while waiting for COMMIT */
    unsigned rand_state;            /* retry back-off jitter */
} MsPg;

/* ------------------------------------------------- statement helpers */

/* One bound parameter; build with PG_INT / PG_TEXT / PG_NULL, so that the
 * C type is converted at the call site.  Values travel as text. */
typedef struct PgArg {
    enum { PG_ARG_NULL, PG_ARG_INT, PG_ARG_TEXT } kind;
    int64_t num;
    const char *text;       /* NULL binds SQL NULL */
} PgArg;

#define PG_INT(v) ((PgArg){PG_ARG_INT, (int64_t)(v), NULL})
#define PG_TEXT(s) ((PgArg){PG_ARG_TEXT, 0, (s)})
#define PG_NULL ((PgArg){PG_ARG_NULL, 0, NULL})
#define PG_ARGS(...)                                                    \
    (const PgArg[]){__VA_ARGS__},                                       \
        (int)(sizeof((PgArg[]){__VA_ARGS__}) / sizeof(PgArg))
#define PG_NO_ARGS NULL, 0
#define PG_MAX_ARGS 20

/* libpq's messages end in a newline and may span lines ("\n\tIs the
 * server running ..."): one line for ours. */
static void pg_flatten(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; in && *in && n + 1 < cap; in++) {
        char ch = *in == '\n' || *in == '\t' || *in == '\r' ? ' ' : *in;
        if (ch == ' ' && (n == 0 || out[n - 1] == ' '))
            continue;
        out[n++] = ch;
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

static bool pg_state_is(const char *state, const char *code)
{
    return state && strcmp(state, code) == 0;
}

/* A server error as an error a user can act on, never with the SQL that
 * ran.  Sets h->retry (serialization failure, deadlock: pg_run runs the
 * call again) and h->lost (the connection broke). */
static int pg_fail(MsPg *h, const PGresult *res, CombErr *err)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE)
                            : NULL;
    const char *primary = res ? PQresultErrorField(res,
                                                   PG_DIAG_MESSAGE_PRIMARY)
                              : NULL;
    char msg[600];
    pg_flatten(primary ? primary : PQerrorMessage(h->conn), msg, sizeof msg);
    if (PQstatus(h->conn) != CONNECTION_OK || !state ||
        strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0) {
        h->lost = true;
        return comb_err(err, COMB_EMETASTORE,
                        "lost the connection to the metastore '%s': %s",
                        h->where, msg);
    }
    if (pg_state_is(state, "40001") || pg_state_is(state, "40P01")) {
        h->retry = true;
        return comb_err(err, COMB_EMETASTORE,
                        "metastore '%s': %s, %d times; run the statement "
                        "again",
                        h->where, msg, PG_MAX_ATTEMPTS);
    }
    if (pg_state_is(state, "25006"))
        return ms_err_unwritable_server(err, h->where, false);
    if (pg_state_is(state, "53100"))
        return ms_err_unwritable_server(err, h->where, true);
    if (pg_state_is(state, "53200"))
        return comb_err_nomem(err);
    if (pg_state_is(state, "55P03"))
        return comb_err(err, COMB_EMETASTORE,
                        "the metastore '%s' is locked: another client held "
                        "a lock longer than %d s; run the statement again",
                        h->where, PG_LOCK_TIMEOUT_S);
    if (strncmp(state, "22", 2) == 0)
        return comb_err(err, COMB_EINVALID,
                        "the metastore '%s' cannot store this value: %s",
                        h->where, msg);
    return comb_err(err, COMB_EMETASTORE, "metastore '%s': %s", h->where,
                    msg);
}

/* Prepare statement id on this connection, once. */
static int pg_prepare(MsPg *h, PgId id, CombErr *err)
{
    char name[16];
    PGresult *res;
    int rc = COMB_OK;
    if (h->prepared[id])
        return COMB_OK;
    snprintf(name, sizeof name, "comb%d", (int)id);
    res = PQprepare(h->conn, name, pg_sql[id], 0, NULL);
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rc = pg_fail(h, res, err);
    else
        h->prepared[id] = true;
    PQclear(res);
    return rc;
}

/* Test builds: the connection ends as if the server went away. */
static void pg_fault_disconnect(MsPg *h)
{
    h->fault_done = true;
    PQclear(PQexec(h->conn, "SELECT pg_terminate_backend(pg_backend_pid())"));
}

/* Run statement id; *out (when not NULL) gets its result, for the caller
 * to PQclear. */
static int pg_exec_res(MsPg *h, PgId id, const PgArg *args, int n_args,
                       PGresult **out, CombErr *err)
{
    const char *vals[PG_MAX_ARGS];
    char nums[PG_MAX_ARGS][24], name[16];
    PGresult *res;
    ExecStatusType st;
    int rc = pg_prepare(h, id, err);
    if (rc)
        return rc;
    if (n_args > PG_MAX_ARGS)
        return COMB_INTERNAL(err, "too many statement parameters");
    for (int i = 0; i < n_args; i++) {
        vals[i] = args[i].kind == PG_ARG_TEXT ? args[i].text : NULL;
        if (args[i].kind == PG_ARG_INT) {
            snprintf(nums[i], sizeof nums[i], "%lld", (long long)args[i].num);
            vals[i] = nums[i];
        }
    }
    snprintf(name, sizeof name, "comb%d", (int)id);
    res = PQexecPrepared(h->conn, name, n_args, vals, NULL, NULL, 0);
    st = PQresultStatus(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        rc = pg_fail(h, res, err);
        PQclear(res);
        return rc;
    }
    if (h->fault == PG_FAULT_KILL && h->in_write && !h->fault_done &&
        --h->fault_statements == 0)
        pg_fault_disconnect(h);
    if (out)
        *out = res;
    else
        PQclear(res);
    return COMB_OK;
}

static int pg_exec(MsPg *h, PgId id, const PgArg *args, int n_args,
                   CombErr *err)
{
    return pg_exec_res(h, id, args, n_args, NULL, err);
}

/* Run a changing statement; *changed is the number of rows it touched. */
static int pg_exec_count(MsPg *h, PgId id, const PgArg *args, int n_args,
                         int64_t *changed, CombErr *err)
{
    PGresult *res;
    int rc = pg_exec_res(h, id, args, n_args, &res, err);
    if (rc)
        return rc;
    *changed = strtoll(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return COMB_OK;
}

/* Cell (row, col) as an integer; false when NULL. */
static bool pg_int_at(const PGresult *res, int row, int col, int64_t *out)
{
    if (PQgetisnull(res, row, col))
        return false;
    *out = strtoll(PQgetvalue(res, row, col), NULL, 10);
    return true;
}

/* Cell (row, col) copied into the arena (NULL stays NULL); *nomem is set
 * when the copy fails. */
static char *pg_text_at(const PGresult *res, int row, int col, CombArena *a,
                        bool *nomem)
{
    char *copy;
    if (PQgetisnull(res, row, col))
        return NULL;
    copy = comb_arena_strndup(a, PQgetvalue(res, row, col),
                              (size_t)PQgetlength(res, row, col));
    if (!copy)
        *nomem = true;
    return copy;
}

/* First column of the first row as an integer; *found is false when there
 * is no row or the value is NULL. */
static int pg_query_int(MsPg *h, PgId id, const PgArg *args, int n_args,
                        int64_t *out, bool *found, CombErr *err)
{
    PGresult *res;
    int rc = pg_exec_res(h, id, args, n_args, &res, err);
    *found = false;
    if (rc)
        return rc;
    *found = PQntuples(res) > 0 && pg_int_at(res, 0, 0, out);
    PQclear(res);
    return COMB_OK;
}

/* The first column of every row (NULLs left out) as arena strings;
 * *rows (may be NULL) counts the rows, NULLs included. */
static int pg_fetch_names(MsPg *h, PgId id, const PgArg *args, int n_args,
                          CombArena *a, char ***names, int *n, int *rows,
                          CombErr *err)
{
    PGresult *res;
    bool nomem = false;
    int n_rows, rc = pg_exec_res(h, id, args, n_args, &res, err);
    *names = NULL;
    *n = 0;
    if (rc)
        return rc;
    n_rows = PQntuples(res);
    if (rows)
        *rows = n_rows;
    if (n_rows > 0 && !(*names = comb_arena_alloc(a, (size_t)n_rows *
                                                         sizeof **names)))
        nomem = true;
    for (int r = 0; r < n_rows && !nomem; r++)
        if (!PQgetisnull(res, r, 0))
            (*names)[(*n)++] = pg_text_at(res, r, 0, a, &nomem);
    PQclear(res);
    if (nomem) {
        *n = 0;
        return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* ----------------------------------------------------------- arrays */

/* A PostgreSQL array literal ({"a","b",NULL}) under construction: a list
 * of values bound as one text parameter. */
typedef struct PgArray {
    CombBuf buf;
    bool nomem;
} PgArray;

static void pga_sep(PgArray *arr)
{
    arr->nomem = arr->nomem ||
                 comb_buf_append_byte(&arr->buf, arr->buf.len ? ',' : '{');
}

/* Append a string element (NULL: an SQL NULL element); inside double
 * quotes only '"' and '\' need a backslash. */
static void pga_text(PgArray *arr, const char *s)
{
    pga_sep(arr);
    if (!s) {
        arr->nomem = arr->nomem || comb_buf_append_str(&arr->buf, "NULL");
        return;
    }
    arr->nomem = arr->nomem || comb_buf_append_byte(&arr->buf, '"');
    for (; *s && !arr->nomem; s++) {
        if (*s == '"' || *s == '\\')
            arr->nomem = comb_buf_append_byte(&arr->buf, '\\') != 0;
        arr->nomem = arr->nomem || comb_buf_append_byte(&arr->buf, *s);
    }
    arr->nomem = arr->nomem || comb_buf_append_byte(&arr->buf, '"');
}

static void pga_int(PgArray *arr, int64_t v)
{
    pga_sep(arr);
    arr->nomem = arr->nomem ||
                 comb_buf_printf(&arr->buf, "%lld", (long long)v);
}

/* The literal, NUL-terminated (valid until pga_free); NULL when out of
 * memory. */
static const char *pga_end(PgArray *arr)
{
    if (!arr->buf.len)
        pga_sep(arr);
    arr->nomem = arr->nomem || comb_buf_append_str(&arr->buf, "}") ||
                 comb_buf_append_byte(&arr->buf, '\0');
    return arr->nomem ? NULL : (const char *)arr->buf.data;
}

/* Finish n arrays into lits[]; false when any ran out of memory. */
static bool pga_end_all(PgArray *arrs, int n, const char **lits)
{
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = (lits[i] = pga_end(&arrs[i])) != NULL && ok;
    return ok;
}

static void pga_free_all(PgArray *arrs, int n)
{
    for (int i = 0; i < n; i++)
        comb_buf_free(&arrs[i].buf);
}

/* ------------------------------------------------------- connection */

/* libpq reports server notices on stderr by default; comb has nothing to
 * tell its users about them. */
static void pg_ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Settings of every session: give up on a lock after PG_LOCK_TIMEOUT_S,
 * talk UTF-8. */
static int pg_session_setup(MsPg *h, CombErr *err)
{
    char sql[160];
    PGresult *res;
    int rc = COMB_OK;
    snprintf(sql, sizeof sql, "SET lock_timeout = '%ds'%s", PG_LOCK_TIMEOUT_S,
             h->fault == PG_FAULT_READONLY
                 ? "; SET default_transaction_read_only = on"
                 : "");
    if (PQsetClientEncoding(h->conn, "UTF8") != 0)
        return pg_fail(h, NULL, err);
    res = PQexec(h->conn, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rc = pg_fail(h, res, err);
    PQclear(res);
    return rc;
}

/* A new connection, replacing a broken one.  The URL goes to libpq as it
 * is (expand_dbname): every parameter it names is libpq's to read. */
static int pg_connect(MsPg *h, CombErr *err)
{
    const char *const keys[] = {"dbname", "fallback_application_name", NULL};
    const char *const vals[] = {h->url, "comb", NULL};
    char msg[600];
    PQfinish(h->conn);
    memset(h->prepared, 0, sizeof h->prepared);
    h->conn = PQconnectdbParams(keys, vals, 1);
    if (!h->conn)
        return comb_err_nomem(err);
    if (PQstatus(h->conn) != CONNECTION_OK) {
        pg_flatten(PQerrorMessage(h->conn), msg, sizeof msg);
        return comb_err(err, COMB_EMETASTORE,
                        "cannot connect to the metastore '%s': %s", h->where,
                        msg);
    }
    if (PQserverVersion(h->conn) < PG_MIN_SERVER_VERSION)
        return comb_err(err, COMB_EMETASTORE,
                        "the metastore '%s' runs PostgreSQL %d.%d; comb "
                        "needs version %d or later",
                        h->where, PQserverVersion(h->conn) / 10000,
                        PQserverVersion(h->conn) / 100 % 100,
                        PG_MIN_SERVER_VERSION / 10000);
    PQsetNoticeProcessor(h->conn, pg_ignore_notice, NULL);
    return pg_session_setup(h, err);
}

/* ------------------------------------------------------ transactions */

static int pg_simple(MsPg *h, const char *sql, CombErr *err)
{
    PGresult *res = PQexec(h->conn, sql);
    int rc = PQresultStatus(res) == PGRES_COMMAND_OK ? COMB_OK
                                                     : pg_fail(h, res, err);
    PQclear(res);
    return rc;
}

static int pg_begin(MsPg *h, PgMode mode, CombErr *err)
{
    h->in_write = mode == PG_CATALOG || mode == PG_TXN || mode == PG_TXN_LIGHT;
    if (h->in_write && h->fault == PG_FAULT_FULL)
        return ms_err_unwritable_server(err, h->where, true);
    switch (mode) {
    case PG_READ:
        return pg_simple(h, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                         err);
    case PG_CATALOG:
        return pg_simple(h, "BEGIN ISOLATION LEVEL SERIALIZABLE", err);
    case PG_TXN:
        return pg_simple(h, "BEGIN ISOLATION LEVEL READ COMMITTED", err);
    case PG_TXN_LIGHT:
        return pg_simple(h, "BEGIN ISOLATION LEVEL READ COMMITTED;"
                            " SET LOCAL synchronous_commit TO off",
                         err);
    default:
        return COMB_OK;
    }
}

/* COMMIT, and what its answer says.  A lost answer leaves the outcome
 * unknown (h->committing stays set for pg_run). */
static int pg_commit(MsPg *h, CombErr *err)
{
    PGresult *res;
    int rc = COMB_OK;
    h->committing = true;
    if (h->fault == PG_FAULT_COMMIT_LOST && !h->fault_done)
        pg_fault_disconnect(h);
    res = PQexec(h->conn, "COMMIT");
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rc = pg_fail(h, res, err);
    else if (strcmp(PQcmdStatus(res), "COMMIT") != 0)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': the server rolled the change back",
                      h->where);
    PQclear(res);
    if (!h->lost)
        h->committing = false;
    return rc;
}

/* End what pg_begin started: commit when rc is COMB_OK, else roll back and
 * keep the caller's error. */
static int pg_end(MsPg *h, PgMode mode, int rc, CombErr *err)
{
    if (mode == PG_AUTOCOMMIT)
        return rc;
    if (!rc)
        return pg_commit(h, err);
    if (PQstatus(h->conn) == CONNECTION_OK &&
        PQtransactionStatus(h->conn) != PQTRANS_IDLE)
        PQclear(PQexec(h->conn, "ROLLBACK"));
    return rc;
}

/* A short random pause before running a call again, growing with the
 * attempts, so that clients that collided do not collide again. */
static void pg_backoff(MsPg *h, int attempt)
{
    unsigned cap_us = 1000u << (attempt < 6 ? attempt : 6);
    struct timespec ts;
    h->rand_state = h->rand_state * 1103515245u + 12345u;
    ts.tv_sec = 0;
    ts.tv_nsec = (long)((h->rand_state >> 8) % cap_us) * 1000L;
    nanosleep(&ts, NULL);
}

/* The body of a call: its statements, between pg_begin and pg_end; it may
 * run more than once, so it sets every output afresh. */
typedef int PgBody(MsPg *h, void *args, CombErr *err);

/* Run a call: begin, body, commit; again after a serialization failure or
 * deadlock (up to PG_MAX_ATTEMPTS runs), and after a broken connection on
 * a new one, unless the call may have committed already and `rerun_safe`
 * (running it twice does what running it once does) is false. */
static int pg_run(MsPg *h, PgMode mode, bool rerun_safe, PgBody *body,
                  void *args, CombErr *err)
{
    int reconnects = 0, rc;
    for (int attempt = 1;; attempt++) {
        h->retry = h->lost = h->committing = false;
        rc = PQstatus(h->conn) == CONNECTION_OK ? COMB_OK
                                                : pg_connect(h, err);
        if (rc)
            return rc;
        rc = pg_begin(h, mode, err);
        if (!rc)
            rc = body(h, args, err);
        rc = pg_end(h, mode, rc, err);
        h->in_write = false;
        if (!rc || attempt == PG_MAX_ATTEMPTS)
            return rc;
        if (h->lost && h->committing && !rerun_safe)
            return comb_err(err, COMB_EMETASTORE,
                            "lost the connection to the metastore '%s' "
                            "while committing: the change may or may not "
                            "have been made; check before running the "
                            "statement again",
                            h->where);
        if (h->lost && ++reconnects > PG_MAX_RECONNECTS)
            return rc;
        if (!h->lost && !h->retry)
            return rc;
        if (h->retry)
            pg_backoff(h, attempt);
    }
}

/* ------------------------------------------------------------ catalog */

typedef struct DbCreateArgs {
    const MsDatabase *db;
    const char *location;
    bool if_not_exists;
} DbCreateArgs;

static int db_create_body(MsPg *h, void *p, CombErr *err)
{
    const DbCreateArgs *a = p;
    int64_t added = 0;
    int rc = pg_exec_count(
        h, PG_DB_INSERT,
        PG_ARGS(PG_TEXT(a->db->name), PG_TEXT(a->db->comment),
                PG_TEXT(a->location), PG_TEXT(a->db->owner),
                PG_TEXT(a->db->owner ? "USER" : NULL)),
        &added, err);
    if (!rc && added == 0 && !a->if_not_exists)
        rc = ms_err_db_exists(err, a->db->name);
    return rc;
}

static int msp_db_create(void *impl, const MsDatabase *db, bool if_not_exists,
                         CombErr *err)
{
    MsPg *h = impl;
    char *location = NULL;
    DbCreateArgs a = {db, db->location, if_not_exists};
    int rc;
    if (!db->location &&
        !(a.location = location = ms_db_default_location(h->warehouse,
                                                         db->name)))
        return comb_err_nomem(err);
    rc = pg_run(h, PG_CATALOG, false, db_create_body, &a, err);
    comb_free(location);
    return rc;
}

/* Delete the table `table` of db, or all its tables when table is NULL,
 * with everything that hangs off them. */
static int drop_tables(MsPg *h, const char *db, const char *table,
                       CombErr *err)
{
    return pg_exec(h, PG_TABLES_DROP, PG_ARGS(PG_TEXT(db), PG_TEXT(table)),
                   err);
}

typedef struct DbDropArgs {
    const char *name;
    bool if_exists, cascade;
} DbDropArgs;

static int db_drop_body(MsPg *h, void *p, CombErr *err)
{
    const DbDropArgs *a = p;
    int64_t n_tables = 0;
    bool found;
    int rc = pg_query_int(h, PG_DB_TABLE_COUNT, PG_ARGS(PG_TEXT(a->name)),
                          &n_tables, &found, err);
    if (rc)
        return rc;
    if (!found)
        return a->if_exists ? COMB_OK : ms_err_no_db(err, a->name);
    if (n_tables > 0 && !a->cascade)
        return ms_err_db_not_empty(err, a->name);
    rc = drop_tables(h, a->name, NULL, err);
    if (!rc)
        rc = pg_exec(h, PG_DB_DELETE, PG_ARGS(PG_TEXT(a->name)), err);
    return rc;
}

static int msp_db_drop(void *impl, const char *name, bool if_exists,
                       bool cascade, CombErr *err)
{
    DbDropArgs a = {name, if_exists, cascade};
    return pg_run(impl, PG_CATALOG, false, db_drop_body, &a, err);
}

/* The DBS row of `name` into the arena; *found is false when absent.
 * `id` may be NULL. */
static int db_fetch(MsPg *h, const char *name, CombArena *a, int64_t *id,
                    MsDatabase **out, bool *found, CombErr *err)
{
    PGresult *res;
    MsDatabase *d = NULL;
    bool nomem = false;
    int rc = pg_exec_res(h, PG_DB_GET, PG_ARGS(PG_TEXT(name)), &res, err);
    if (rc)
        return rc;
    *found = PQntuples(res) > 0;
    if (*found && (d = comb_arena_calloc(a, sizeof *d))) {
        d->name = pg_text_at(res, 0, 1, a, &nomem);
        d->location = pg_text_at(res, 0, 2, a, &nomem);
        d->comment = pg_text_at(res, 0, 3, a, &nomem);
        d->owner = pg_text_at(res, 0, 4, a, &nomem);
        if (id)
            pg_int_at(res, 0, 0, id);
    }
    PQclear(res);
    if (*found && (!d || nomem))
        return comb_err_nomem(err);
    *out = d;
    return COMB_OK;
}

typedef struct DbGetArgs {
    const char *name;
    CombArena *a;
    MsDatabase **out;
} DbGetArgs;

static int db_get_body(MsPg *h, void *p, CombErr *err)
{
    const DbGetArgs *a = p;
    bool found = false;
    int rc = db_fetch(h, a->name, a->a, NULL, a->out, &found, err);
    if (!rc && !found)
        rc = ms_err_no_db(err, a->name);
    return rc;
}

static int msp_db_get(void *impl, const char *name, CombArena *a,
                      MsDatabase **out, CombErr *err)
{
    DbGetArgs args = {name, a, out};
    return pg_run(impl, PG_AUTOCOMMIT, true, db_get_body, &args, err);
}

/* A list of names by one statement: databases, or the tables of one. */
typedef struct NamesArgs {
    const char *db;          /* NULL: the databases */
    CombArena *a;
    char ***names;
    int *n;
} NamesArgs;

static int names_body(MsPg *h, void *p, CombErr *err)
{
    const NamesArgs *a = p;
    int rows = 0;
    int rc;
    if (!a->db)
        return pg_fetch_names(h, PG_DB_LIST, PG_NO_ARGS, a->a, a->names,
                              a->n, NULL, err);
    rc = pg_fetch_names(h, PG_TABLE_LIST, PG_ARGS(PG_TEXT(a->db)), a->a,
                        a->names, a->n, &rows, err);
    if (!rc && rows == 0)
        rc = ms_err_no_db(err, a->db);
    return rc;
}

static int msp_db_list(void *impl, CombArena *a, char ***names, int *n,
                       CombErr *err)
{
    NamesArgs args = {NULL, a, names, n};
    return pg_run(impl, PG_AUTOCOMMIT, true, names_body, &args, err);
}

static int msp_table_list(void *impl, const char *db, CombArena *a,
                          char ***names, int *n, CombErr *err)
{
    NamesArgs args = {db, a, names, n};
    return pg_run(impl, PG_AUTOCOMMIT, true, names_body, &args, err);
}

/* The child arrays of PG_TABLE_CHILDREN_INSERT, in parameter order. */
enum {
    TA_COL_NAME, TA_COL_TYPE, TA_COL_COMMENT,
    TA_KEY_NAME, TA_KEY_TYPE, TA_KEY_COMMENT,
    TA_PROP_KEY, TA_PROP_VALUE,
    TA_SERDE_KEY, TA_SERDE_VALUE,
    TA_BUCKET,
    TA_SORT_NAME, TA_SORT_ORDER,
    TA_DEF_NAME, TA_DEF_COLUMN, TA_DEF_VALUE,
    TA_N
};

static void columns_to_arrays(const MsColumn *cols, int n, PgArray *names)
{
    for (int i = 0; i < n; i++) {
        pga_text(&names[0], cols[i].name);
        pga_text(&names[1], cols[i].type);
        pga_text(&names[2], cols[i].comment);
    }
}

static void props_to_arrays(const MsProperty *props, int n, PgArray *kv)
{
    for (int i = 0; i < n; i++) {
        pga_text(&kv[0], props[i].key);
        pga_text(&kv[1], props[i].value);
    }
}

/* Everything of a table's definition that lives in child tables, in one
 * statement. */
static int table_insert_children(MsPg *h, int64_t tbl_id, const MsTable *t,
                                 CombErr *err)
{
    PgArray arr[TA_N] = {0};
    const char *lit[TA_N];
    int rc;
    columns_to_arrays(t->cols, t->n_cols, &arr[TA_COL_NAME]);
    columns_to_arrays(t->part_keys, t->n_part_keys, &arr[TA_KEY_NAME]);
    props_to_arrays(t->props, t->n_props, &arr[TA_PROP_KEY]);
    /* after the properties: an explicit comment wins over a 'comment' one */
    if (t->comment)
        props_to_arrays(&(MsProperty){MS_COMMENT_PROP, t->comment}, 1,
                        &arr[TA_PROP_KEY]);
    props_to_arrays(t->serde_params, t->n_serde_params, &arr[TA_SERDE_KEY]);
    for (int i = 0; i < t->n_bucket_cols; i++)
        pga_text(&arr[TA_BUCKET], t->bucket_cols[i]);
    for (int i = 0; i < t->n_sort_cols; i++) {
        pga_text(&arr[TA_SORT_NAME], t->sort_cols[i].name);
        pga_int(&arr[TA_SORT_ORDER], t->sort_cols[i].order);
    }
    for (int i = 0; i < t->n_cols; i++)
        if (t->cols[i].default_value) {
            pga_text(&arr[TA_DEF_NAME], t->cols[i].default_name);
            pga_int(&arr[TA_DEF_COLUMN], i);
            pga_text(&arr[TA_DEF_VALUE], t->cols[i].default_value);
        }
    rc = !pga_end_all(arr, TA_N, lit)
             ? comb_err_nomem(err)
             : pg_exec(h, PG_TABLE_CHILDREN_INSERT,
                       PG_ARGS(PG_INT(tbl_id), PG_TEXT(lit[TA_COL_NAME]),
                               PG_TEXT(lit[TA_COL_TYPE]),
                               PG_TEXT(lit[TA_COL_COMMENT]),
                               PG_TEXT(lit[TA_KEY_NAME]),
                               PG_TEXT(lit[TA_KEY_TYPE]),
                               PG_TEXT(lit[TA_KEY_COMMENT]),
                               PG_TEXT(lit[TA_PROP_KEY]),
                               PG_TEXT(lit[TA_PROP_VALUE]),
                               PG_TEXT(lit[TA_SERDE_KEY]),
                               PG_TEXT(lit[TA_SERDE_VALUE]),
                               PG_TEXT(lit[TA_BUCKET]),
                               PG_TEXT(lit[TA_SORT_NAME]),
                               PG_TEXT(lit[TA_SORT_ORDER]),
                               PG_TEXT(lit[TA_DEF_NAME]),
                               PG_TEXT(lit[TA_DEF_COLUMN]),
                               PG_TEXT(lit[TA_DEF_VALUE])),
                       err);
    pga_free_all(arr, TA_N);
    return rc;
}

static bool table_is_view(const MsTable *t)
{
    return strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

typedef struct TableCreateArgs {
    const MsTable *t;
    bool if_not_exists;
} TableCreateArgs;

static int table_create_body(MsPg *h, void *p, CombErr *err)
{
    const TableCreateArgs *a = p;
    const MsTable *t = a->t;
    CombArena scratch;
    MsDatabase *db = NULL;
    char *location = NULL;
    int64_t db_id = 0, tbl_id = 0;
    bool found = false;
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
        rc = pg_query_int(
            h, PG_TABLE_INSERT,
            PG_ARGS(PG_INT(db_id), PG_TEXT(t->name), PG_TEXT(t->table_type),
                    PG_TEXT(t->owner),
                    t->create_time > 0 ? PG_INT(t->create_time) : PG_NULL,
                    PG_TEXT(location ? location : t->location),
                    PG_TEXT(t->input_format), PG_TEXT(t->output_format),
                    PG_INT(t->n_buckets), PG_TEXT(t->serde),
                    PG_TEXT(t->view_original_text),
                    PG_TEXT(t->view_expanded_text)),
            &tbl_id, &found, err);
    /* no row back: the name is taken */
    if (!rc && !found && !a->if_not_exists)
        rc = ms_err_table_exists(err, t->db, t->name);
    if (!rc && found)
        rc = table_insert_children(h, tbl_id, t, err);
    comb_free(location);
    comb_arena_free(&scratch);
    return rc;
}

static int msp_table_create(void *impl, const MsTable *t, bool if_not_exists,
                            CombErr *err)
{
    TableCreateArgs a = {t, if_not_exists};
    return pg_run(impl, PG_CATALOG, false, table_create_body, &a, err);
}

/* TBL_ID of db.name; *found is false when there is no such table. */
static int table_find(MsPg *h, const char *db, const char *name, int64_t *id,
                      bool *found, CombErr *err)
{
    return pg_query_int(h, PG_TABLE_FIND, PG_ARGS(PG_TEXT(db), PG_TEXT(name)),
                        id, found, err);
}

/* TBL_ID of db.name; COMB_ENOTFOUND (Hive's text) when there is none. */
static int table_id(MsPg *h, const char *db, const char *name, int64_t *id,
                    CombErr *err)
{
    bool found = false;
    int rc = table_find(h, db, name, id, &found, err);
    if (!rc && !found)
        rc = ms_err_no_table(err, db, name);
    return rc;
}

typedef struct TableDropArgs {
    const char *db, *name;
    bool if_exists;
} TableDropArgs;

static int table_drop_body(MsPg *h, void *p, CombErr *err)
{
    const TableDropArgs *a = p;
    int64_t id;
    bool found = false;
    int rc = table_find(h, a->db, a->name, &id, &found, err);
    if (rc)
        return rc;
    if (!found)
        return a->if_exists ? COMB_OK : ms_err_no_table(err, a->db, a->name);
    return drop_tables(h, a->db, a->name, err);
}

static int msp_table_drop(void *impl, const char *db, const char *name,
                          bool if_exists, CombErr *err)
{
    TableDropArgs a = {db, name, if_exists};
    return pg_run(impl, PG_CATALOG, false, table_drop_body, &a, err);
}

/* PG_TABLE_GET row kinds. */
enum {
    TK_TABLE, TK_COLUMN, TK_PART_KEY, TK_PROP, TK_SERDE, TK_BUCKET, TK_SORT,
    TK_DEFAULT,
    TK_N
};

static int damaged_table(MsPg *h, const char *db, const char *name,
                         CombErr *err)
{
    return comb_err(err, COMB_EMETASTORE,
                    "metastore '%s': the rows of table %s.%s are damaged",
                    h->where, db, name);
}

/* Room in the arena for the n entries of one child list. */
static void *table_list_alloc(CombArena *a, int n, size_t size, bool *nomem)
{
    void *p = n > 0 ? comb_arena_alloc(a, (size_t)n * size) : NULL;
    if (n > 0 && !p)
        *nomem = true;
    return p;
}

/* The TBLS row (row 0 of a PG_TABLE_GET result) into t. */
static void table_main_from_row(const PGresult *res, CombArena *a,
                                MsTable *t, int64_t *tbl_id, bool *nomem)
{
    int64_t n_buckets = -1;
    pg_int_at(res, 0, 2, tbl_id);
    t->table_type = pg_text_at(res, 0, 3, a, nomem);
    t->owner = pg_text_at(res, 0, 4, a, nomem);
    pg_int_at(res, 0, 5, &t->create_time);
    t->location = pg_text_at(res, 0, 6, a, nomem);
    t->input_format = pg_text_at(res, 0, 7, a, nomem);
    t->output_format = pg_text_at(res, 0, 8, a, nomem);
    t->serde = pg_text_at(res, 0, 9, a, nomem);
    pg_int_at(res, 0, 10, &n_buckets);
    t->n_buckets = (int)n_buckets;
    t->view_original_text = pg_text_at(res, 0, 11, a, nomem);
    t->view_expanded_text = pg_text_at(res, 0, 12, a, nomem);
    *nomem = *nomem || !t->table_type;
}

/* Child row r (kind k, texts in columns 2-4) appended to its list of t;
 * TBLPROPERTIES' 'comment' becomes t->comment. */
static void table_child_from_row(const PGresult *res, int r, int k,
                                 CombArena *a, MsTable *t, bool *nomem)
{
    char *x = pg_text_at(res, r, 2, a, nomem);
    char *y = pg_text_at(res, r, 3, a, nomem);
    char *z = pg_text_at(res, r, 4, a, nomem);
    switch (k) {
    case TK_COLUMN:
        t->cols[t->n_cols++] = (MsColumn){x, y, z};
        break;
    case TK_PART_KEY:
        t->part_keys[t->n_part_keys++] = (MsColumn){x, y, z};
        break;
    case TK_PROP:
        if (x && strcmp(x, MS_COMMENT_PROP) == 0)
            t->comment = y;
        else
            t->props[t->n_props++] = (MsProperty){x, y};
        break;
    case TK_SERDE:
        t->serde_params[t->n_serde_params++] = (MsProperty){x, y};
        break;
    case TK_BUCKET:
        t->bucket_cols[t->n_bucket_cols++] = x;
        break;
    case TK_DEFAULT:
        /* after the columns (rows are in kind order); position checked */
        t->cols[atoi(z)].default_name = x;
        t->cols[atoi(z)].default_value = y;
        break;
    default:
        t->sort_cols[t->n_sort_cols++] = (MsSortCol){
            x, y && strcmp(y, "1") == 0 ? MS_SORT_ASC : MS_SORT_DESC};
        break;
    }
}

/* A table from its PG_TABLE_GET rows: kind 0 first, then the children in
 * order.  No rows: no such table. */
static int table_from_rows(MsPg *h, const PGresult *res, const char *db,
                           const char *name, CombArena *a, MsTable **out,
                           int64_t *tbl_id, CombErr *err)
{
    int n[TK_N] = {0}, rows = PQntuples(res);
    bool nomem = false;
    MsTable *t;
    if (rows == 0)
        return ms_err_no_table(err, db, name);
    for (int r = 0; r < rows; r++) {
        int k = atoi(PQgetvalue(res, r, 0));
        int col = k == TK_DEFAULT ? atoi(PQgetvalue(res, r, 4)) : 0;
        if (k < 0 || k >= TK_N || (k == TK_TABLE) != (r == 0) || col < 0 ||
            (k == TK_DEFAULT && col >= n[TK_COLUMN]))
            return damaged_table(h, db, name, err);
        n[k]++;
    }
    if (!(t = comb_arena_calloc(a, sizeof *t)))
        return comb_err_nomem(err);
    t->db = comb_arena_strdup(a, db);
    t->name = comb_arena_strdup(a, name);
    nomem = !t->db || !t->name;
    table_main_from_row(res, a, t, tbl_id, &nomem);
    t->cols = table_list_alloc(a, n[TK_COLUMN], sizeof *t->cols, &nomem);
    t->part_keys = table_list_alloc(a, n[TK_PART_KEY], sizeof *t->part_keys,
                                    &nomem);
    t->props = table_list_alloc(a, n[TK_PROP], sizeof *t->props, &nomem);
    t->serde_params = table_list_alloc(a, n[TK_SERDE],
                                       sizeof *t->serde_params, &nomem);
    t->bucket_cols = table_list_alloc(a, n[TK_BUCKET],
                                      sizeof *t->bucket_cols, &nomem);
    t->sort_cols = table_list_alloc(a, n[TK_SORT], sizeof *t->sort_cols,
                                    &nomem);
    for (int r = 1; r < rows && !nomem; r++)
        table_child_from_row(res, r, atoi(PQgetvalue(res, r, 0)), a, t,
                             &nomem);
    if (nomem)
        return comb_err_nomem(err);
    *out = t;
    return COMB_OK;
}

/* The whole definition of db.name, and its TBL_ID. */
static int table_fetch(MsPg *h, const char *db, const char *name,
                       CombArena *a, MsTable **out, int64_t *tbl_id,
                       CombErr *err)
{
    PGresult *res;
    int rc = pg_exec_res(h, PG_TABLE_GET, PG_ARGS(PG_TEXT(db), PG_TEXT(name)),
                         &res, err);
    if (rc)
        return rc;
    rc = table_from_rows(h, res, db, name, a, out, tbl_id, err);
    PQclear(res);
    return rc;
}

typedef struct TableGetArgs {
    const char *db, *name;
    CombArena *a;
    MsTable **out;
} TableGetArgs;

static int table_get_body(MsPg *h, void *p, CombErr *err)
{
    const TableGetArgs *a = p;
    int64_t tbl_id;
    return table_fetch(h, a->db, a->name, a->a, a->out, &tbl_id, err);
}

static int msp_table_get(void *impl, const char *db, const char *name,
                         CombArena *a, MsTable **out, CombErr *err)
{
    TableGetArgs args = {db, name, a, out};
    return pg_run(impl, PG_AUTOCOMMIT, true, table_get_body, &args, err);
}

/* ---------------------------------------------------------------- ALTER */

typedef struct TableAlterArgs {
    const MsTable *t;
} TableAlterArgs;

static int table_alter_body(MsPg *h, void *p, CombErr *err)
{
    const MsTable *t = ((const TableAlterArgs *)p)->t;
    CombArena a;
    MsTable *old;
    int64_t tbl_id = 0;
    const char *location;
    int rc;
    comb_arena_init(&a, 1024);
    rc = table_fetch(h, t->db, t->name, &a, &old, &tbl_id, err);
    if (!rc && !ms_part_keys_same(old, t))
        rc = comb_err(err, COMB_EINVALID,
                      "partition keys can not be changed.");
    if (!rc) {
        location = t->location || table_is_view(t) ? t->location
                                                   : old->location;
        rc = pg_exec(
            h, PG_TABLE_UPDATE,
            PG_ARGS(PG_INT(tbl_id), PG_TEXT(t->table_type), PG_TEXT(t->owner),
                    PG_TEXT(location), PG_TEXT(t->input_format),
                    PG_TEXT(t->output_format), PG_INT(t->n_buckets),
                    PG_TEXT(t->serde), PG_TEXT(t->view_original_text),
                    PG_TEXT(t->view_expanded_text)),
            err);
    }
    if (!rc)
        rc = pg_exec(h, PG_TABLE_DEF_DELETE, PG_ARGS(PG_INT(tbl_id)), err);
    if (!rc)
        rc = table_insert_children(h, tbl_id, t, err);
    comb_arena_free(&a);
    return rc;
}

/* Replacing the whole definition twice leaves what once does. */
static int msp_table_alter(void *impl, const MsTable *t, CombErr *err)
{
    TableAlterArgs a = {t};
    return pg_run(impl, PG_CATALOG, true, table_alter_body, &a, err);
}

typedef struct TableRenameArgs {
    const char *db, *name, *new_db, *new_name, *new_location;
} TableRenameArgs;

/* TBL_ID, type and location of the table to rename. */
static int rename_source(MsPg *h, const TableRenameArgs *a, CombArena *ar,
                         int64_t *tbl_id, char **location, CombErr *err)
{
    PGresult *res;
    bool nomem = false, view;
    int rc = pg_exec_res(h, PG_TABLE_FIND,
                         PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->name)), &res, err);
    if (rc)
        return rc;
    if (PQntuples(res) == 0) {
        PQclear(res);
        return ms_err_no_table(err, a->db, a->name);
    }
    pg_int_at(res, 0, 0, tbl_id);
    view = strcmp(PQgetvalue(res, 0, 1), MS_VIRTUAL_VIEW) == 0;
    *location = pg_text_at(res, 0, 2, ar, &nomem);
    PQclear(res);
    if (nomem)
        return comb_err_nomem(err);
    if (a->new_location && view)
        return comb_err(err, COMB_EINVALID,
                        "view %s.%s cannot have a location", a->db, a->name);
    return COMB_OK;
}

static int table_rename_body(MsPg *h, void *p, CombErr *err)
{
    const TableRenameArgs *a = p;
    CombArena ar;
    MsDatabase *d;
    char *old_location = NULL;
    int64_t tbl_id = 0, new_db_id = 0, taken;
    bool found = false, same = strcmp(a->db, a->new_db) == 0 &&
                               strcmp(a->name, a->new_name) == 0;
    int rc;
    comb_arena_init(&ar, 512);
    rc = rename_source(h, a, &ar, &tbl_id, &old_location, err);
    if (!rc)
        rc = db_fetch(h, a->new_db, &ar, &new_db_id, &d, &found, err);
    if (!rc && !found)
        rc = ms_err_no_db(err, a->new_db);
    if (!rc && !same)
        rc = table_find(h, a->new_db, a->new_name, &taken, &found, err);
    if (!rc && !same && found)
        rc = comb_err(err, COMB_EEXISTS, "new table %s.%s already exists",
                      a->new_db, a->new_name);
    /* bookkeeping left under the new name belongs to no table: a table
     * renamed there must not inherit it */
    if (!rc && !same)
        rc = drop_tables(h, a->new_db, a->new_name, err);
    if (!rc)
        rc = pg_exec(h, PG_TABLE_RENAME,
                     PG_ARGS(PG_INT(tbl_id), PG_INT(new_db_id),
                             PG_TEXT(a->new_name), PG_TEXT(a->new_location)),
                     err);
    if (!rc && a->new_location && old_location)
        rc = pg_exec(h, PG_PARTS_RELOCATE,
                     PG_ARGS(PG_INT(tbl_id), PG_TEXT(old_location),
                             PG_TEXT(a->new_location)),
                     err);
    if (!rc && !same)
        rc = pg_exec(h, PG_RENAME_TXN_ROWS,
                     PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->name),
                             PG_TEXT(a->new_db), PG_TEXT(a->new_name)),
                     err);
    comb_arena_free(&ar);
    return rc;
}

static int msp_table_rename(void *impl, const char *db, const char *name,
                            const char *new_db, const char *new_name,
                            const char *new_location, CombErr *err)
{
    TableRenameArgs a = {db, name, new_db, new_name, new_location};
    return pg_run(impl, PG_CATALOG, false, table_rename_body, &a, err);
}

/* ----------------------------------------------------------- partitions */

/* The arrays of PG_PARTS_INSERT, in parameter order after the table. */
enum {
    PA_NAME, PA_CTIME, PA_LOCATION, PA_INPUT, PA_OUTPUT, PA_SERDE,
    PA_VAL_PART, PA_VAL, PA_VAL_IDX,
    PA_PARAM_PART, PA_PARAM_KEY, PA_PARAM_VALUE,
    PA_N
};

static void part_to_arrays(const MsPartition *p, PgArray *arr)
{
    pga_text(&arr[PA_NAME], p->name);
    if (p->create_time > 0)
        pga_int(&arr[PA_CTIME], p->create_time);
    else
        pga_text(&arr[PA_CTIME], NULL);
    pga_text(&arr[PA_LOCATION], p->location);
    pga_text(&arr[PA_INPUT], p->input_format);
    pga_text(&arr[PA_OUTPUT], p->output_format);
    pga_text(&arr[PA_SERDE], p->serde);
    for (int k = 0; k < p->n_values; k++) {
        pga_text(&arr[PA_VAL_PART], p->name);
        pga_text(&arr[PA_VAL], p->values[k]);
        pga_int(&arr[PA_VAL_IDX], k);
    }
    for (int k = 0; k < p->n_params; k++) {
        pga_text(&arr[PA_PARAM_PART], p->name);
        pga_text(&arr[PA_PARAM_KEY], p->params[k].key);
        pga_text(&arr[PA_PARAM_VALUE], p->params[k].value);
    }
}

/* Insert the prepared partitions of table tbl_id in one statement; those
 * whose name was taken are skipped.  *names (n_names, in the arena) are
 * the ones added, sorted. */
static int parts_insert(MsPg *h, int64_t tbl_id, const MsPartition *rows,
                        int n, CombArena *a, char ***names, int *n_names,
                        CombErr *err)
{
    PgArray arr[PA_N] = {0};
    const char *lit[PA_N];
    int rc;
    for (int i = 0; i < n; i++)
        part_to_arrays(&rows[i], arr);
    rc = !pga_end_all(arr, PA_N, lit)
             ? comb_err_nomem(err)
             : pg_fetch_names(
                   h, PG_PARTS_INSERT,
                   PG_ARGS(PG_INT(tbl_id), PG_TEXT(lit[PA_NAME]),
                           PG_TEXT(lit[PA_CTIME]), PG_TEXT(lit[PA_LOCATION]),
                           PG_TEXT(lit[PA_INPUT]), PG_TEXT(lit[PA_OUTPUT]),
                           PG_TEXT(lit[PA_SERDE]), PG_TEXT(lit[PA_VAL_PART]),
                           PG_TEXT(lit[PA_VAL]), PG_TEXT(lit[PA_VAL_IDX]),
                           PG_TEXT(lit[PA_PARAM_PART]),
                           PG_TEXT(lit[PA_PARAM_KEY]),
                           PG_TEXT(lit[PA_PARAM_VALUE])),
                   a, names, n_names, NULL, err);
    pga_free_all(arr, PA_N);
    return rc;
}

static int str_ptr_cmp(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Index of `name` in the sorted names[n], or -1. */
static int sorted_find(char **names, int n, const char *name)
{
    char **hit = n > 0 ? bsearch(&name, names, (size_t)n, sizeof *names,
                                 str_ptr_cmp)
                       : NULL;
    return hit ? (int)(hit - names) : -1;
}

typedef struct PartAddArgs {
    const char *db, *table;
    const MsPartition *parts;
    int n;
    bool if_not_exists;
    bool *added;
} PartAddArgs;

static int part_add_body(MsPg *h, void *p, CombErr *err)
{
    const PartAddArgs *a = p;
    CombArena ar;
    MsTable *t;
    MsPartition *rows = NULL;
    char **names = NULL;
    int64_t tbl_id;
    int n_names = 0;
    int rc;
    comb_arena_init(&ar, 4096);
    rc = table_fetch(h, a->db, a->table, &ar, &t, &tbl_id, err);
    if (!rc)
        rc = ms_parts_prepare(t, a->parts, a->n, &ar, &rows, err);
    if (!rc)
        rc = parts_insert(h, tbl_id, rows, a->n, &ar, &names, &n_names, err);
    if (!rc && n_names > 1)
        qsort(names, (size_t)n_names, sizeof *names, str_ptr_cmp);
    for (int i = 0; !rc && i < a->n; i++) {
        bool new_row = sorted_find(names, n_names, rows[i].name) >= 0;
        if (a->added)
            a->added[i] = new_row;
        if (!new_row && !a->if_not_exists)
            rc = ms_err_part_exists(err, a->db, a->table, rows[i].name);
    }
    comb_arena_free(&ar);
    return rc;
}

static int msp_part_add(void *impl, const char *db, const char *table,
                        const MsPartition *parts, int n, bool if_not_exists,
                        bool *added, CombErr *err)
{
    MsPg *h = impl;
    PartAddArgs a = {db, table, parts, n, if_not_exists, added};
    int rc = h->fault == PG_FAULT_PART_ADD
                 ? ms_err_unwritable_server(err, h->where, true)
                 : pg_run(h, PG_CATALOG, false, part_add_body, &a, err);
    /* rolled back: none of them was added */
    if (rc && added && n > 0)
        memset(added, 0, (size_t)n * sizeof *added);
    return rc;
}

typedef struct PartDropArgs {
    const char *db, *table;
    char *const *names;
    int n;
    bool if_exists;
} PartDropArgs;

/* Which of the names to drop exist: *drop the existing ones; a name
 * given twice is missing the second time, as it is once dropped. */
static int parts_to_drop(MsPg *h, const PartDropArgs *a, int64_t tbl_id,
                         CombArena *ar, PgArray *drop, CombErr *err)
{
    PgArray wanted = {0};
    char **found = NULL;
    bool *used;
    const char *lit;
    int n_found = 0, rc;
    for (int i = 0; i < a->n; i++)
        pga_text(&wanted, a->names[i]);
    rc = !(lit = pga_end(&wanted))
             ? comb_err_nomem(err)
             : pg_fetch_names(h, PG_PARTS_FIND,
                              PG_ARGS(PG_INT(tbl_id), PG_TEXT(lit)), ar,
                              &found, &n_found, NULL, err);
    comb_buf_free(&wanted.buf);
    if (!rc && !(used = comb_arena_calloc(ar, (size_t)n_found + 1)))
        rc = comb_err_nomem(err);
    if (!rc && n_found > 1)
        qsort(found, (size_t)n_found, sizeof *found, str_ptr_cmp);
    for (int i = 0; !rc && i < a->n; i++) {
        int k = sorted_find(found, n_found, a->names[i]);
        if (k >= 0 && !used[k]) {
            used[k] = true;
            pga_text(drop, a->names[i]);
        } else if (!a->if_exists) {
            rc = ms_err_no_part(err, a->db, a->table, a->names[i]);
        }
    }
    return rc;
}

static int part_drop_body(MsPg *h, void *p, CombErr *err)
{
    const PartDropArgs *a = p;
    CombArena ar;
    PgArray drop = {0};
    const char *lit;
    int64_t tbl_id;
    int rc;
    comb_arena_init(&ar, 1024);
    rc = table_id(h, a->db, a->table, &tbl_id, err);
    if (!rc)
        rc = parts_to_drop(h, a, tbl_id, &ar, &drop, err);
    if (!rc && drop.buf.len)
        rc = !(lit = pga_end(&drop))
                 ? comb_err_nomem(err)
                 : pg_exec(h, PG_PARTS_DROP,
                           PG_ARGS(PG_INT(tbl_id), PG_TEXT(a->db),
                                   PG_TEXT(a->table), PG_TEXT(lit)),
                           err);
    comb_buf_free(&drop.buf);
    comb_arena_free(&ar);
    return rc;
}

static int msp_part_drop(void *impl, const char *db, const char *table,
                         char *const *names, int n, bool if_exists,
                         CombErr *err)
{
    PartDropArgs a = {db, table, names, n, if_exists};
    return pg_run(impl, PG_CATALOG, false, part_drop_body, &a, err);
}

static int damaged_partition(MsPg *h, const char *what, CombErr *err)
{
    return comb_err(err, COMB_EMETASTORE,
                    "metastore '%s': a partition has %s; the database is "
                    "damaged",
                    h->where, what);
}

/* PG_PARTS_GET row kinds. */
enum { PK_PART, PK_VALUE, PK_PARAM };

static int part_row_kind(const PGresult *res, int r)
{
    return atoi(PQgetvalue(res, r, 1));
}

/* Partition p from its rows [first, end) of a PG_PARTS_GET result: the
 * partition's own, then n_keys values, then its parameters. */
static int part_from_rows(MsPg *h, const PGresult *res, int first, int end,
                          int n_keys, CombArena *a, MsPartition *p,
                          CombErr *err)
{
    int n_vals = 0, n_params = 0;
    bool nomem = false;
    for (int r = first + 1; r < end; r++) {
        if (part_row_kind(res, r) == PK_VALUE)
            n_vals++;
        else
            n_params++;
    }
    if (n_vals != n_keys)
        return damaged_partition(
            h, n_vals > n_keys ? "more values than keys"
                               : "fewer values than keys",
            err);
    *p = (MsPartition){.name = pg_text_at(res, first, 0, a, &nomem),
                       .location = pg_text_at(res, first, 5, a, &nomem),
                       .input_format = pg_text_at(res, first, 6, a, &nomem),
                       .output_format = pg_text_at(res, first, 7, a, &nomem),
                       .serde = pg_text_at(res, first, 8, a, &nomem)};
    if (!pg_int_at(res, first, 4, &p->create_time))
        return damaged_partition(h, "no valid creation time", err);
    p->values = comb_arena_alloc(a, (size_t)(n_keys ? n_keys : 1) *
                                        sizeof *p->values);
    p->params = table_list_alloc(a, n_params, sizeof *p->params, &nomem);
    nomem = nomem || !p->values;
    for (int r = first + 1; r < end && !nomem; r++) {
        char *x = pg_text_at(res, r, 3, a, &nomem);
        if (part_row_kind(res, r) == PK_VALUE)
            p->values[p->n_values++] = x;
        else
            p->params[p->n_params++] =
                (MsProperty){x, pg_text_at(res, r, 4, a, &nomem)};
    }
    return nomem ? comb_err_nomem(err) : COMB_OK;
}

/* The partitions of table t (only `name` unless NULL) in name order. */
static int parts_fetch(MsPg *h, const MsTable *t, int64_t tbl_id,
                       const char *name, CombArena *a, MsPartition **out,
                       int *n, CombErr *err)
{
    PGresult *res;
    MsPartition *list = NULL;
    int rows, n_parts = 0;
    int rc = pg_exec_res(h, PG_PARTS_GET, PG_ARGS(PG_INT(tbl_id),
                                                  PG_TEXT(name)),
                         &res, err);
    if (rc)
        return rc;
    rows = PQntuples(res);
    for (int r = 0; r < rows; r++)
        n_parts += part_row_kind(res, r) == PK_PART;
    if (rows > 0 && part_row_kind(res, 0) != PK_PART)
        rc = damaged_partition(h, "rows out of order", err);
    if (!rc && n_parts > 0 &&
        !(list = comb_arena_calloc(a, (size_t)n_parts * sizeof *list)))
        rc = comb_err_nomem(err);
    for (int r = 0, i = 0; !rc && r < rows; i++) {
        int end = r + 1;
        while (end < rows && part_row_kind(res, end) != PK_PART)
            end++;
        rc = part_from_rows(h, res, r, end, t->n_part_keys, a, &list[i], err);
        r = end;
    }
    PQclear(res);
    if (!rc) {
        *out = list;
        *n = n_parts;
    }
    return rc;
}

typedef struct PartListArgs {
    const char *db, *table, *name;
    const MsProperty *spec;
    int n_spec;
    CombArena *a;
    MsPartition **out;
    int *n;
} PartListArgs;

static int part_list_body(MsPg *h, void *p, CombErr *err)
{
    const PartListArgs *a = p;
    MsTable *t;
    int64_t tbl_id;
    int rc = table_fetch(h, a->db, a->table, a->a, &t, &tbl_id, err);
    if (!rc)
        rc = parts_fetch(h, t, tbl_id, a->name, a->a, a->out, a->n, err);
    if (!rc)
        rc = ms_parts_filter(t, a->spec, a->n_spec, *a->out, a->n, err);
    return rc;
}

static int msp_part_list(void *impl, const char *db, const char *table,
                         const char *name, const MsProperty *spec, int n_spec,
                         CombArena *a, MsPartition **out, int *n,
                         CombErr *err)
{
    PartListArgs args = {db, table, name, spec, n_spec, a, out, n};
    int rc = pg_run(impl, PG_READ, true, part_list_body, &args, err);
    if (rc) {
        *out = NULL;
        *n = 0;
    }
    return rc;
}

typedef struct PartSetLocationArgs {
    const char *db, *table, *name, *location;
} PartSetLocationArgs;

static int part_set_location_body(MsPg *h, void *p, CombErr *err)
{
    const PartSetLocationArgs *a = p;
    int64_t tbl_id, changed = 0;
    int rc = table_id(h, a->db, a->table, &tbl_id, err);
    if (!rc)
        rc = pg_exec_count(h, PG_PART_SET_LOCATION,
                           PG_ARGS(PG_INT(tbl_id), PG_TEXT(a->name),
                                   PG_TEXT(a->location)),
                           &changed, err);
    if (!rc && changed == 0)
        rc = ms_err_no_part(err, a->db, a->table, a->name);
    return rc;
}

static int msp_part_set_location(void *impl, const char *db,
                                 const char *table, const char *name,
                                 const char *location, CombErr *err)
{
    PartSetLocationArgs a = {db, table, name, location};
    return pg_run(impl, PG_CATALOG, true, part_set_location_body, &a, err);
}

typedef struct PartSetParamsArgs {
    const char *db, *table, *name;
    const MsProperty *params;
    int n;
} PartSetParamsArgs;

static int part_set_params_body(MsPg *h, void *p, CombErr *err)
{
    const PartSetParamsArgs *a = p;
    PgArray arr[2] = {0};
    const char *lit[2];
    int64_t tbl_id, part_id = 0;
    bool found = false;
    int rc = table_id(h, a->db, a->table, &tbl_id, err);
    if (!rc)
        rc = pg_query_int(h, PG_PART_ID,
                          PG_ARGS(PG_INT(tbl_id), PG_TEXT(a->name)), &part_id,
                          &found, err);
    if (!rc && !found)
        rc = ms_err_no_part(err, a->db, a->table, a->name);
    if (!rc)
        rc = pg_exec(h, PG_PART_PARAMS_DELETE, PG_ARGS(PG_INT(part_id)), err);
    for (int i = 0; i < a->n; i++) {
        pga_text(&arr[0], a->params[i].key);
        pga_text(&arr[1], a->params[i].value);
    }
    if (!rc && !pga_end_all(arr, 2, lit))
        rc = comb_err_nomem(err);
    if (!rc && a->n > 0)
        rc = pg_exec(h, PG_PART_PARAMS_INSERT,
                     PG_ARGS(PG_INT(part_id), PG_TEXT(lit[0]), PG_TEXT(lit[1])),
                     err);
    pga_free_all(arr, 2);
    return rc;
}

static int msp_part_set_params(void *impl, const char *db, const char *table,
                               const char *name, const MsProperty *params,
                               int n, CombErr *err)
{
    PartSetParamsArgs a = {db, table, name, params, n};
    return pg_run(impl, PG_CATALOG, true, part_set_params_body, &a, err);
}

/* -------------------------------------------------- column statistics */

typedef struct ColStatsArgs {
    const char *db, *table, *part;
    char *const *cells;
    int n;
    CombArena *a;
    char ***out;
    int *n_out;
} ColStatsArgs;

static int colstats_put_body(MsPg *h, void *p, CombErr *err)
{
    const ColStatsArgs *a = p;
    int64_t id;
    int rc = table_id(h, a->db, a->table, &id, err);
    for (int i = 0; i < a->n && !rc; i++) {
        char *const *c = a->cells + (size_t)i * MS_COLSTATS_CELLS;
        rc = pg_exec(h, PG_COLSTATS_PUT,
                     PG_ARGS(PG_INT(id), PG_TEXT(a->part), PG_TEXT(c[0]),
                             PG_TEXT(c[1]), PG_TEXT(c[2]), PG_TEXT(c[3]),
                             PG_TEXT(c[4]), PG_TEXT(c[5]), PG_TEXT(c[6]),
                             PG_TEXT(c[7]), PG_TEXT(c[8]), PG_TEXT(c[9]),
                             PG_TEXT(c[10]), PG_TEXT(c[11]), PG_TEXT(c[12])),
                     err);
    }
    return rc;
}

static int msp_colstats_put(void *impl, const char *db, const char *table,
                            const char *part, char *const *cells, int n,
                            CombErr *err)
{
    ColStatsArgs a = {db, table, part, cells, n, NULL, NULL, NULL};
    return pg_run(impl, PG_CATALOG, true, colstats_put_body, &a, err);
}

/* Every row of statement id as text, row-major in cells[row * n_cols +
 * col], in the arena. */
static int pg_fetch_texts(MsPg *h, PgId id, const PgArg *args, int n_args,
                          int n_cols, CombArena *a, char ***out, int *n,
                          CombErr *err)
{
    PGresult *res;
    bool nomem = false;
    char **cells = NULL;
    int n_rows, rc = pg_exec_res(h, id, args, n_args, &res, err);
    if (rc)
        return rc;
    n_rows = PQntuples(res);
    if (n_rows > 0 &&
        !(cells = comb_arena_alloc(a, (size_t)n_rows * (size_t)n_cols *
                                          sizeof *cells)))
        nomem = true;
    for (int r = 0; r < n_rows && !nomem; r++)
        for (int c = 0; c < n_cols; c++)
            cells[(size_t)r * (size_t)n_cols + (size_t)c] =
                pg_text_at(res, r, c, a, &nomem);
    PQclear(res);
    if (nomem)
        return comb_err_nomem(err);
    *out = cells;
    *n = n_rows;
    return COMB_OK;
}

static int colstats_get_body(MsPg *h, void *p, CombErr *err)
{
    const ColStatsArgs *a = p;
    int64_t id;
    int rc = table_id(h, a->db, a->table, &id, err);
    return rc ? rc
              : pg_fetch_texts(h, PG_COLSTATS_GET,
                               PG_ARGS(PG_INT(id), PG_TEXT(a->part)),
                               MS_COLSTATS_CELLS, a->a, a->out, a->n_out, err);
}

static int msp_colstats_get(void *impl, const char *db, const char *table,
                            const char *part, CombArena *a, char ***cells,
                            int *n, CombErr *err)
{
    ColStatsArgs args = {db, table, part, NULL, 0, a, cells, n};
    *cells = NULL;
    *n = 0;
    return pg_run(impl, PG_READ, true, colstats_get_body, &args, err);
}

/* ------------------------------------------------------- authorization */

typedef struct GrantArgs {
    const char *name, *owner;    /* roles */
    int64_t now;
    char *const *cells;          /* grants: a row, or a filter */
    bool option_only;
    bool *found;
    CombArena *a;
    char ***out;
    int *n;
} GrantArgs;

static int role_create_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    int64_t added = 0;
    int rc = pg_exec_count(h, PG_ROLE_INSERT,
                           PG_ARGS(PG_TEXT(g->name), PG_TEXT(g->owner),
                                   PG_INT(g->now)),
                           &added, err);
    if (!rc && added == 0)
        rc = comb_err(err, COMB_EEXISTS, "Role %s already exists.", g->name);
    return rc;
}

static int msp_role_create(void *impl, const char *name, const char *owner,
                           int64_t now, CombErr *err)
{
    GrantArgs g = {name, owner, now, NULL, false, NULL, NULL, NULL, NULL};
    return pg_run(impl, PG_CATALOG, true, role_create_body, &g, err);
}

static int role_drop_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    int64_t gone = 0;
    int rc = pg_exec_count(h, PG_ROLE_DELETE, PG_ARGS(PG_TEXT(g->name)),
                           &gone, err);
    if (!rc && gone == 0)
        rc = comb_err(err, COMB_ENOTFOUND, "Role %s does not exist", g->name);
    return rc;
}

static int msp_role_drop(void *impl, const char *name, CombErr *err)
{
    GrantArgs g = {name, NULL, 0, NULL, false, NULL, NULL, NULL, NULL};
    return pg_run(impl, PG_CATALOG, true, role_drop_body, &g, err);
}

static int role_list_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    return pg_fetch_texts(h, PG_ROLE_LIST, PG_NO_ARGS, 1, g->a, g->out, g->n,
                          err);
}

static int msp_role_list(void *impl, CombArena *a, char ***names, int *n,
                         CombErr *err)
{
    GrantArgs g = {NULL, NULL, 0, NULL, false, NULL, a, names, n};
    *names = NULL;
    *n = 0;
    return pg_run(impl, PG_READ, true, role_list_body, &g, err);
}

/* The key cells as $1..$7. */
#define PG_GRANT_KEY_ARGS(c)                                            \
    PG_ARGS(PG_TEXT(c[0]), PG_TEXT(c[1]), PG_TEXT(c[2]), PG_TEXT(c[3]), \
            PG_TEXT(c[4]), PG_TEXT(c[5]), PG_TEXT(c[6]))

static int grant_put_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    char *const *c = g->cells;
    PGresult *res;
    int rc = pg_exec_res(h, PG_GRANT_INSERT,
                         PG_ARGS(PG_TEXT(c[0]), PG_TEXT(c[1]), PG_TEXT(c[2]),
                                 PG_TEXT(c[3]), PG_TEXT(c[4]), PG_TEXT(c[5]),
                                 PG_TEXT(c[6]), PG_TEXT(c[7]), PG_TEXT(c[8]),
                                 PG_TEXT(c[9]), PG_TEXT(c[10])),
                         &res, err);
    if (rc)
        return rc;
    /* xmax is set on a row the upsert updated: it was there */
    *g->found = PQntuples(res) > 0 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
    PQclear(res);
    return COMB_OK;
}

static int msp_grant_put(void *impl, char *const *cells, bool *found,
                         CombErr *err)
{
    GrantArgs g = {NULL, NULL, 0, cells, false, found, NULL, NULL, NULL};
    return pg_run(impl, PG_CATALOG, true, grant_put_body, &g, err);
}

static int grant_drop_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    int64_t changed = 0;
    int rc = pg_exec_count(h, g->option_only ? PG_GRANT_CLEAR_OPTION
                                             : PG_GRANT_DELETE,
                           PG_GRANT_KEY_ARGS(g->cells), &changed, err);
    *g->found = !rc && changed > 0;
    return rc;
}

static int msp_grant_drop(void *impl, char *const *cells, bool option_only,
                          bool *found, CombErr *err)
{
    GrantArgs g = {NULL, NULL, 0, cells, option_only, found, NULL, NULL, NULL};
    return pg_run(impl, PG_CATALOG, true, grant_drop_body, &g, err);
}

static int grant_list_body(MsPg *h, void *p, CombErr *err)
{
    const GrantArgs *g = p;
    return pg_fetch_texts(h, PG_GRANT_LIST, PG_GRANT_KEY_ARGS(g->cells),
                          MS_GRANT_CELLS, g->a, g->out, g->n, err);
}

static int msp_grant_list(void *impl, char *const *filter, CombArena *a,
                          char ***cells, int *n, CombErr *err)
{
    GrantArgs g = {NULL, NULL, 0, filter, false, NULL, a, cells, n};
    *cells = NULL;
    *n = 0;
    return pg_run(impl, PG_READ, true, grant_list_body, &g, err);
}

/* ------------------------------------------------------- transactions */

/* A TXNS row: whether it exists, its state, type and abort reason, and
 * (PG_TXN_COMMIT_LOOKUP) whether the txn updated or deleted. */
typedef struct PgTxn {
    bool found;
    MsTxnState state;
    int type;
    char reason[160];
    bool writes;
} PgTxn;

/* The TXNS row of txnid by `which`: PG_TXN_GET, or with the row locked
 * until the end of the call (TxnHandler's S4U on TXNS: one call at a time
 * per txn) PG_TXN_LOCK or PG_TXN_COMMIT_LOOKUP.  A state letter outside
 * o/a/c is a damaged row, reported, never trusted. */
static int txn_lookup(MsPg *h, int64_t txnid, PgId which, PgTxn *t,
                      CombErr *err)
{
    PGresult *res;
    int64_t type = MS_TXN_TYPE_DEFAULT, writes = 0;
    bool ok = true;
    int rc = pg_exec_res(h, which, PG_ARGS(PG_INT(txnid)), &res, err);
    memset(t, 0, sizeof *t);
    t->state = MS_TXN_OPEN;
    if (rc)
        return rc;
    t->found = PQntuples(res) > 0;
    if (t->found) {
        ok = ms_txn_state_parse(PQgetvalue(res, 0, 0)[0], &t->state);
        pg_int_at(res, 0, 1, &type);
        snprintf(t->reason, sizeof t->reason, "%s", PQgetvalue(res, 0, 2));
        t->writes = PQnfields(res) > 3 && pg_int_at(res, 0, 3, &writes) &&
                    writes != 0;
    }
    t->type = (int)type;
    PQclear(res);
    if (!ok)
        return comb_err(err, COMB_EMETASTORE,
                        "metastore '%s': TXNS row of txnid:%lld has an "
                        "invalid TXN_STATE",
                        h->where, (long long)txnid);
    return COMB_OK;
}

/* An operation that needs txnid open: COMB_OK, with its row locked until
 * the end of the call, or why not. */
static int txn_require_open(MsPg *h, int64_t txnid, CombErr *err)
{
    PgTxn t;
    int rc = txn_lookup(h, txnid, PG_TXN_LOCK, &t, err);
    if (!rc && (!t.found || t.state != MS_TXN_OPEN))
        rc = ms_err_txn_not_open(err, txnid, t.found, t.state, t.reason);
    return rc;
}

static int damaged_next_txn(MsPg *h, CombErr *err)
{
    return comb_err(err, COMB_EMETASTORE,
                    "metastore '%s': NEXT_TXN_ID has no valid row", h->where);
}

/* A new txn of `type` with its MIN_HISTORY_LEVEL row (PG_TXN_OPEN),
 * unless max_open are open already. */
static int txn_open_body(MsPg *h, const char *user, const char *host,
                         MsTxnType type, int64_t max_open, int64_t *txnid,
                         CombErr *err)
{
    int64_t id = 0, n_open = 0;
    bool found = false;
    int rc = COMB_OK;
    if (max_open > 0 &&
        !(rc = pg_query_int(h, PG_TXN_COUNT_OPEN, PG_ARGS(PG_INT(max_open)),
                            &n_open, &found, err)) &&
        n_open >= max_open)
        return comb_err(err, COMB_ETXN,
                        "Maximum allowed number of open transactions has "
                        "been reached. See hive.max.open.txns.");
    if (!rc)
        rc = pg_query_int(h, PG_TXN_OPEN,
                          PG_ARGS(PG_TEXT(user), PG_TEXT(host), PG_INT(type)),
                          &id, &found, err);
    if (!rc && (!found || id <= 0))
        rc = damaged_next_txn(h, err);
    if (!rc)
        *txnid = id;
    return rc;
}

/* ------------------------------------------------------------- locks */

/* Every row of a PG_LOCK_COLUMNS query, array and strings in `a`. */
static int lock_rows_fetch(MsPg *h, PgId id, const PgArg *args, int n_args,
                           CombArena *a, MsLockRow **rows, int *n,
                           CombErr *err)
{
    PGresult *res;
    bool nomem = false;
    int n_rows, rc = pg_exec_res(h, id, args, n_args, &res, err);
    *rows = NULL;
    *n = 0;
    if (rc)
        return rc;
    n_rows = PQntuples(res);
    *rows = table_list_alloc(a, n_rows, sizeof **rows, &nomem);
    for (int i = 0; i < n_rows && !nomem; i++) {
        MsLockRow *r = &(*rows)[i];
        *r = (MsLockRow){0};
        pg_int_at(res, i, 0, &r->extid);
        pg_int_at(res, i, 1, &r->intid);
        pg_int_at(res, i, 2, &r->txnid);
        r->db = pg_text_at(res, i, 3, a, &nomem);
        r->table = pg_text_at(res, i, 4, a, &nomem);
        r->partition = pg_text_at(res, i, 5, a, &nomem);
        r->state = (MsLockState)PQgetvalue(res, i, 6)[0];
        r->type = (MsLockType)PQgetvalue(res, i, 7)[0];
        pg_int_at(res, i, 8, &r->last_heartbeat);
        pg_int_at(res, i, 9, &r->acquired_at);
        r->user = pg_text_at(res, i, 10, a, &nomem);
        r->host = pg_text_at(res, i, 11, a, &nomem);
        r->agent_info = pg_text_at(res, i, 12, a, &nomem);
        pg_int_at(res, i, 13, &r->blocked_by_extid);
        pg_int_at(res, i, 14, &r->blocked_by_intid);
    }
    PQclear(res);
    if (nomem)
        return comb_err_nomem(err);
    *n = n_rows;
    return COMB_OK;
}

/* The rows of request rq under a new ext lock id, all waiting
 * (PG_LOCK_ENQUEUE). */
static int lock_enqueue(MsPg *h, const MsLockRequest *rq, int64_t *extid,
                        CombErr *err)
{
    PgArray arr[4] = {0};
    const char *lit[4];
    bool found = false;
    int rc;
    for (int i = 0; i < rq->n; i++) {
        const char type[2] = {(char)rq->components[i].type, '\0'};
        pga_text(&arr[0], rq->components[i].db);
        pga_text(&arr[1], rq->components[i].table);
        pga_text(&arr[2], rq->components[i].partition);
        pga_text(&arr[3], type);
    }
    rc = !pga_end_all(arr, 4, lit)
             ? comb_err_nomem(err)
             : pg_query_int(h, PG_LOCK_ENQUEUE,
                            PG_ARGS(PG_INT(rq->txnid), PG_TEXT(lit[0]),
                                    PG_TEXT(lit[1]), PG_TEXT(lit[2]),
                                    PG_TEXT(lit[3]),
                                    PG_TEXT(rq->user ? rq->user : ""),
                                    PG_TEXT(rq->host ? rq->host : ""),
                                    PG_TEXT(rq->agent_info)),
                            extid, &found, err);
    pga_free_all(arr, 4);
    if (!rc && (!found || *extid <= 0))
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': NEXT_LOCK_ID has no valid row",
                      h->where);
    return rc;
}

/* Hive's checkLock on request extid of txnid, whose lock queue the
 * caller holds (PG_LOCK_MUTEX or PG_LOCK_ENQUEUE): the decision
 * (ms_lock_decide) sees every request granted before, and the next check
 * sees this one's. */
static int lock_decide_body(MsPg *h, int64_t txnid, int64_t extid,
                            bool zero_wait_read, MsLockStatus *out,
                            CombErr *err)
{
    CombArena a;
    MsLockRow *rows = NULL;
    char state[2] = {0};
    int n_rows = 0, n_req = 0, ri = -1, ei = -1;
    int rc;
    memset(out, 0, sizeof *out);
    out->extid = extid;
    comb_arena_init(&a, 4096);
    rc = lock_rows_fetch(h, PG_LOCK_CANDIDATES,
                         PG_ARGS(PG_INT(extid), PG_INT(txnid)), &a, &rows,
                         &n_rows, err);
    while (n_req < n_rows && rows[n_req].extid == extid)
        n_req++;
    if (!rc && n_req == 0)
        rc = comb_err(err, COMB_ENOTFOUND, "No such lock: lockid:%lld",
                      (long long)extid);
    if (!rc) {
        ms_lock_decide(rows, n_req, rows + n_req, n_rows - n_req,
                       zero_wait_read, out, &ri, &ei);
        state[0] = (char)out->state;
        rc = pg_exec(h, PG_LOCK_DECIDED,
                     PG_ARGS(PG_INT(extid), PG_TEXT(state),
                             PG_INT(ri >= 0 ? rows[ri].intid : 0),
                             PG_INT(ei >= 0 ? rows[n_req + ei].extid : 0),
                             PG_INT(ei >= 0 ? rows[n_req + ei].intid : 0)),
                     err);
    }
    comb_arena_free(&a);
    return rc;
}

/* A check of a waiting request of an open txn. */
static int lock_check_body(MsPg *h, int64_t txnid, int64_t extid,
                           bool zero_wait_read, MsLockStatus *out,
                           CombErr *err)
{
    int rc = txn_require_open(h, txnid, err);
    if (!rc)
        rc = pg_exec(h, PG_LOCK_MUTEX, PG_NO_ARGS, err);
    return rc ? rc
              : lock_decide_body(h, txnid, extid, zero_wait_read, out, err);
}

/* What a txn writes may only be recorded while it is open. */
typedef struct ComponentsArgs {
    int64_t txnid;
    const char *db, *table;
    const char *const *partitions;   /* NULL: the table itself */
    int n;
    MsOpType op;
    int64_t writeid;
    bool dynamic;                    /* addDynamicPartitions */
} ComponentsArgs;

/* TXN_COMPONENTS rows of open txn a->txnid: the n partitions of a table,
 * or its table-level row; for dynamic partitions the table-level row
 * goes. */
static int components_insert(MsPg *h, const ComponentsArgs *a, CombErr *err)
{
    const char letter[2] = {(char)a->op, '\0'};
    PgArray parts = {0};
    const char *lit;
    int rc;
    for (int i = 0; i < a->n; i++)
        pga_text(&parts, a->partitions ? a->partitions[i] : NULL);
    rc = !(lit = pga_end(&parts))
             ? comb_err_nomem(err)
             : pg_exec(h, PG_TC_INSERT,
                       PG_ARGS(PG_INT(a->txnid), PG_TEXT(a->db),
                               PG_TEXT(a->table), PG_TEXT(lit),
                               PG_TEXT(letter), PG_INT(a->writeid)),
                       err);
    comb_buf_free(&parts.buf);
    if (!rc && a->dynamic)
        rc = pg_exec(h, PG_TC_DELETE_TABLE_LEVEL,
                     PG_ARGS(PG_INT(a->txnid), PG_TEXT(a->db),
                             PG_TEXT(a->table)),
                     err);
    return rc;
}

static int components_body(MsPg *h, void *p, CombErr *err)
{
    const ComponentsArgs *a = p;
    int rc = txn_require_open(h, a->txnid, err);
    return rc ? rc : components_insert(h, a, err);
}

/* Enqueue and decide in one transaction (the enqueue holds the queue);
 * the components the request writes recorded unless it was refused. */
static int lock_request(MsPg *h, const MsLockRequest *rq, MsLockStatus *out,
                        CombErr *err)
{
    int64_t extid = 0;
    int rc = lock_enqueue(h, rq, &extid, err);
    if (!rc)
        rc = lock_decide_body(h, rq->txnid, extid, rq->zero_wait_read, out,
                              err);
    for (int i = 0; !rc && out->state != MS_LOCK_REFUSED && i < rq->n; i++) {
        const MsLockComponent *c = &rq->components[i];
        ComponentsArgs a = {rq->txnid, c->db, c->table,
                            c->partition ? &c->partition : NULL, 1, c->op,
                            c->writeid, false};
        if (c->op != MS_OP_NONE)
            rc = components_insert(h, &a, err);
    }
    return rc;
}

/* Hive's lock(): a request of an open txn. */
static int lock_body(MsPg *h, const MsLockRequest *rq, MsLockStatus *out,
                     CombErr *err)
{
    int rc = txn_require_open(h, rq->txnid, err);
    return rc ? rc : lock_request(h, rq, out, err);
}

typedef struct LockArgs {
    const MsLockRequest *rq;
    int64_t txnid, extid;
    bool zero_wait_read;
    MsLockStatus *out;
} LockArgs;

static int lock_args_body(MsPg *h, void *p, CombErr *err)
{
    const LockArgs *a = p;
    return lock_body(h, a->rq, a->out, err);
}

/* A lock the server forgets in a crash would leave its owner believing
 * it holds what others may then take: locks are durable. */
static int msp_lock(void *impl, const MsLockRequest *rq, MsLockStatus *out,
                    CombErr *err)
{
    LockArgs a = {rq, 0, 0, false, out};
    return pg_run(impl, PG_TXN, false, lock_args_body, &a, err);
}

static int lock_check_args_body(MsPg *h, void *p, CombErr *err)
{
    const LockArgs *a = p;
    return lock_check_body(h, a->txnid, a->extid, a->zero_wait_read, a->out,
                           err);
}

static int msp_lock_check(void *impl, int64_t txnid, int64_t extid,
                          bool zero_wait_read, MsLockStatus *out,
                          CombErr *err)
{
    LockArgs a = {NULL, txnid, extid, zero_wait_read, out};
    return pg_run(impl, PG_TXN, true, lock_check_args_body, &a, err);
}

static int unlock_body(MsPg *h, void *p, CombErr *err)
{
    int64_t extid = *(const int64_t *)p, removed = 0;
    int rc = pg_exec_count(h, PG_UNLOCK_WAITING, PG_ARGS(PG_INT(extid)),
                           &removed, err);
    if (!rc && removed == 0)
        rc = comb_err(err, COMB_ENOTFOUND, "No such lock: lockid:%lld",
                      (long long)extid);
    return rc;
}

/* Only waiting rows go: a lost unlock leaves a request its owner gave up,
 * which goes with the owner's txn. */
static int msp_unlock(void *impl, int64_t extid, CombErr *err)
{
    return pg_run(impl, PG_TXN_LIGHT, false, unlock_body, &extid, err);
}

typedef struct LockListArgs {
    const char *db, *table, *partition;
    CombArena *a;
    MsLockRow **rows;
    int *n;
} LockListArgs;

static int lock_list_body(MsPg *h, void *p, CombErr *err)
{
    const LockListArgs *a = p;
    return lock_rows_fetch(h, PG_LOCK_LIST,
                           PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table),
                                   PG_TEXT(a->partition)),
                           a->a, a->rows, a->n, err);
}

static int msp_lock_list(void *impl, const char *db, const char *table,
                         const char *partition, CombArena *a,
                         MsLockRow **rows, int *n, CombErr *err)
{
    LockListArgs args = {db, table, partition, a, rows, n};
    return pg_run(impl, PG_AUTOCOMMIT, true, lock_list_body, &args, err);
}

/* ------------------------------------------------ opening and ending */

typedef struct SnapshotArgs {
    int64_t txnid;
    CombTxnList *out;
} SnapshotArgs;

/* Hive's ValidTxnList from one PG_SNAPSHOT statement. */
static int snapshot_body(MsPg *h, void *p, CombErr *err)
{
    const SnapshotArgs *a = p;
    PGresult *res;
    MsTxnRow *rows = NULL;
    int64_t next = 0;
    int n_rows = 0, rc = pg_exec_res(h, PG_SNAPSHOT, PG_NO_ARGS, &res, err);
    if (rc)
        return rc;
    if (PQntuples(res) == 0 || !pg_int_at(res, 0, 0, &next) || next <= 0)
        rc = damaged_next_txn(h, err);
    if (!rc && !(rows = comb_malloc((size_t)PQntuples(res) * sizeof *rows)))
        rc = comb_err_nomem(err);
    for (int r = 0; !rc && r < PQntuples(res); r++) {
        int64_t id;
        if (pg_int_at(res, r, 1, &id))
            rows[n_rows++] = (MsTxnRow){id, PQgetvalue(res, r, 2)[0]};
    }
    PQclear(res);
    if (!rc)
        rc = ms_snapshot_build(next - 1, rows, n_rows, a->txnid, a->out, err);
    comb_free(rows);
    return rc;
}

static int msp_txn_snapshot(void *impl, int64_t txnid, CombTxnList *out,
                            CombErr *err)
{
    SnapshotArgs a = {txnid, out};
    int rc = pg_run(impl, PG_AUTOCOMMIT, true, snapshot_body, &a, err);
    if (rc)
        comb_idlist_free(out);
    return rc;
}

typedef struct TxnBeginArgs {
    const char *user, *host;
    MsTxnType type;
    int64_t max_open;
    const MsLockRequest *locks;
    int64_t *txnid;
    MsLockStatus *status;
    CombTxnList *snapshot;
    bool *have_snapshot;
} TxnBeginArgs;

/* Hive's openTxns + lock + getValidTxns in one transaction; the snapshot
 * statement runs after the locks were granted, so it is never older than
 * them.  A run again (after a deadlock) starts afresh. */
static int txn_begin_body(MsPg *h, void *p, CombErr *err)
{
    const TxnBeginArgs *a = p;
    bool want_locks = a->locks && a->locks->n > 0;
    int rc;
    if (*a->have_snapshot) {
        comb_idlist_free(a->snapshot);
        *a->have_snapshot = false;
    }
    rc = txn_open_body(h, a->user, a->host, a->type, a->max_open, a->txnid,
                       err);
    if (!rc && want_locks) {
        MsLockRequest rq = *a->locks;
        rq.txnid = *a->txnid;
        rq.user = rq.user ? rq.user : a->user;
        rq.host = rq.host ? rq.host : a->host;
        rc = lock_request(h, &rq, a->status, err);
    }
    if (!rc && a->snapshot &&
        (!want_locks || a->status->state == MS_LOCK_ACQUIRED)) {
        SnapshotArgs snap = {*a->txnid, a->snapshot};
        rc = snapshot_body(h, &snap, err);
        *a->have_snapshot = !rc;
    }
    return rc;
}

/* Durable: txn ids handed out must survive a crash of the server while
 * their holders, on other hosts, go on. */
static int msp_txn_begin(void *impl, const char *user, const char *host,
                         MsTxnType type, int64_t max_open,
                         const MsLockRequest *locks, int64_t *txnid,
                         MsLockStatus *status, CombTxnList *snapshot,
                         bool *have_snapshot, CombErr *err)
{
    TxnBeginArgs a = {user,   host,   type,     max_open,     locks,
                      txnid,  status, snapshot, have_snapshot};
    int rc = pg_run(impl, PG_TXN, false, txn_begin_body, &a, err);
    if (rc && *have_snapshot) {
        comb_idlist_free(snapshot);
        *have_snapshot = false;
    }
    if (rc)
        *txnid = 0;
    return rc;
}

/* Abort open txnid for `reason` (PG_TXN_ABORT); nothing for any other
 * state. */
static int txn_abort_reason(MsPg *h, int64_t txnid, const char *reason,
                            CombErr *err)
{
    return pg_exec(h, PG_TXN_ABORT, PG_ARGS(PG_INT(txnid), PG_TEXT(reason)),
                   err);
}

typedef struct TxnCommitArgs {
    int64_t txnid;
    bool excl_write;
    CombArena *a;
    int64_t commit_id;
    char **conflict;        /* a PG_WS_CONFLICT row when the txn lost */
} TxnCommitArgs;

/* The commit id (the highest txn id handed out), with NEXT_TXN_ID locked
 * until the commit: no txn opens and no other writer commits meanwhile,
 * so the write set read next is complete and every txn opened later sees
 * this one committed (TxnHandler.commitTxn). */
static int commit_id_locked(MsPg *h, int64_t *commit_id, CombErr *err)
{
    int64_t next = 0;
    bool found = false;
    int rc = pg_query_int(h, PG_NEXT_TXN_LOCK, PG_NO_ARGS, &next, &found,
                          err);
    if (!rc && (!found || next <= 0))
        rc = damaged_next_txn(h, err);
    *commit_id = next - 1;
    return rc;
}

/* The conflicting committed write of a txn that updated or deleted, when
 * there is one: a->conflict, in the arena. */
static int write_conflict_find(MsPg *h, TxnCommitArgs *a, CombErr *err)
{
    PGresult *res;
    bool nomem = false;
    int rc = pg_exec_res(h, PG_WS_CONFLICT, PG_ARGS(PG_INT(a->txnid)), &res,
                         err);
    if (rc)
        return rc;
    if (PQntuples(res) > 0 &&
        (a->conflict = comb_arena_alloc(a->a, 7 * sizeof *a->conflict)))
        for (int c = 0; c < 7; c++)
            a->conflict[c] = pg_text_at(res, 0, c, a->a, &nomem);
    else if (PQntuples(res) > 0)
        nomem = true;
    PQclear(res);
    return nomem ? comb_err_nomem(err) : COMB_OK;
}

/* First committer wins for a txn that updated or deleted (unless every
 * such write ran under an exclusive lock): a conflicting committed write
 * leaves the txn aborted (a->conflict set), else its update/delete
 * writes join WRITE_SET. */
static int commit_write_set(MsPg *h, TxnCommitArgs *a, CombErr *err)
{
    int rc = commit_id_locked(h, &a->commit_id, err);
    if (!rc && !a->excl_write)
        rc = write_conflict_find(h, a, err);
    if (!rc && a->conflict)
        return txn_abort_reason(h, a->txnid, MS_ABORT_WRITE_CONFLICT, err);
    if (!rc)
        rc = pg_exec(h, PG_WS_INSERT,
                     PG_ARGS(PG_INT(a->txnid), PG_INT(a->commit_id)), err);
    return rc;
}

static int txn_commit_body(MsPg *h, void *p, CombErr *err)
{
    TxnCommitArgs *a = p;
    PgTxn t;
    int rc = txn_lookup(h, a->txnid, PG_TXN_COMMIT_LOOKUP, &t, err);
    a->conflict = NULL;
    if (rc)
        return rc;
    if (t.found && t.state == MS_TXN_COMMITTED)
        return COMB_OK; /* a retried commit */
    if (!t.found || t.state != MS_TXN_OPEN)
        return ms_err_txn_not_open(err, a->txnid, t.found, t.state, t.reason);
    /* inserts never conflict: only updates and deletes need the lock */
    if (t.writes)
        rc = commit_write_set(h, a, err);
    if (rc || a->conflict)
        return rc;
    return pg_exec(h, PG_TXN_FINISH, PG_ARGS(PG_INT(a->txnid)), err);
}

/* A conflict aborts the txn durably (the abort is committed) and then
 * reports Hive's error 10263.  Committing twice is a no-op, so a commit
 * whose answer was lost is run again. */
static int msp_txn_commit(void *impl, int64_t txnid, bool excl_write,
                          CombErr *err)
{
    CombArena ar;
    TxnCommitArgs a = {txnid, excl_write, &ar, 0, NULL};
    int rc;
    comb_arena_init(&ar, 1024);
    rc = pg_run(impl, PG_TXN, true, txn_commit_body, &a, err);
    if (!rc && a.conflict)
        rc = ms_err_write_conflict(err, txnid, a.commit_id, a.conflict);
    comb_arena_free(&ar);
    return rc;
}

typedef struct CommitCreateArgs {
    TxnCommitArgs commit;
    const MsTable *t;
    const MsPartition *parts;
    int n;
} CommitCreateArgs;

/* The table, its partitions and the commit in one transaction; a write
 * conflict (impossible for a new table, checked all the same) rolls all
 * of it back, leaving the txn open. */
static int txn_commit_create_body(MsPg *h, void *p, CombErr *err)
{
    CommitCreateArgs *a = p;
    TableCreateArgs table = {a->t, false};
    PartAddArgs parts = {a->t->db, a->t->name, a->parts, a->n, false, NULL};
    int rc = table_create_body(h, &table, err);
    if (!rc && a->n > 0)
        rc = part_add_body(h, &parts, err);
    if (!rc)
        rc = txn_commit_body(h, &a->commit, err);
    if (!rc && a->commit.conflict)
        rc = ms_err_write_conflict(err, a->commit.txnid, a->commit.commit_id,
                                   a->commit.conflict);
    return rc;
}

/* At READ COMMITTED, as every commit: a name taken meanwhile by another
 * process is found by the insert itself (ON CONFLICT).  Not run twice:
 * the second run would find its own table. */
static int msp_txn_commit_create(void *impl, int64_t txnid, const MsTable *t,
                                 const MsPartition *parts, int n, CombErr *err)
{
    CombArena ar;
    CommitCreateArgs a = {{txnid, false, &ar, 0, NULL}, t, parts, n};
    int rc;
    comb_arena_init(&ar, 1024);
    rc = pg_run(impl, PG_TXN, false, txn_commit_create_body, &a, err);
    comb_arena_free(&ar);
    return rc;
}

typedef struct TxnAbortArgs {
    int64_t txnid;
    const char *reason;
} TxnAbortArgs;

static int txn_abort_body(MsPg *h, void *p, CombErr *err)
{
    const TxnAbortArgs *a = p;
    return txn_abort_reason(h, a->txnid, a->reason, err);
}

/* An abort need not be durable: a txn whose abort is lost is found open
 * without heartbeat and aborted again by the housekeeper. */
static int msp_txn_abort(void *impl, int64_t txnid, const char *reason,
                         CombErr *err)
{
    TxnAbortArgs a = {txnid, reason};
    return pg_run(impl, PG_TXN_LIGHT, true, txn_abort_body, &a, err);
}

typedef struct TxnStateArgs {
    int64_t txnid;
    MsTxnState *state;
} TxnStateArgs;

static int txn_state_body(MsPg *h, void *p, CombErr *err)
{
    const TxnStateArgs *a = p;
    PgTxn t;
    int rc = txn_lookup(h, a->txnid, PG_TXN_GET, &t, err);
    *a->state = t.state;
    if (!rc && !t.found)
        rc = comb_err(err, COMB_ENOTFOUND, "No such transaction txnid:%lld",
                      (long long)a->txnid);
    return rc;
}

static int msp_txn_state(void *impl, int64_t txnid, MsTxnState *state,
                         CombErr *err)
{
    TxnStateArgs a = {txnid, state};
    return pg_run(impl, PG_AUTOCOMMIT, true, txn_state_body, &a, err);
}

typedef struct TxnListArgs {
    CombArena *a;
    MsTxnInfo **rows;
    int *n;
} TxnListArgs;

static int txn_list_body(MsPg *h, void *p, CombErr *err)
{
    const TxnListArgs *a = p;
    PGresult *res;
    bool nomem = false;
    int n_rows, rc = pg_exec_res(h, PG_TXN_LIST, PG_NO_ARGS, &res, err);
    *a->rows = NULL;
    *a->n = 0;
    if (rc)
        return rc;
    n_rows = PQntuples(res);
    *a->rows = table_list_alloc(a->a, n_rows, sizeof **a->rows, &nomem);
    for (int i = 0; i < n_rows && !nomem; i++) {
        MsTxnInfo *t = &(*a->rows)[i];
        int64_t type = 0;
        *t = (MsTxnInfo){0};
        pg_int_at(res, i, 0, &t->txnid);
        t->state = PQgetvalue(res, i, 1)[0] == 'a' ? MS_TXN_ABORTED
                                                   : MS_TXN_OPEN;
        pg_int_at(res, i, 2, &type);
        t->type = (MsTxnType)type;
        pg_int_at(res, i, 3, &t->started);
        pg_int_at(res, i, 4, &t->last_heartbeat);
        t->user = pg_text_at(res, i, 5, a->a, &nomem);
        t->host = pg_text_at(res, i, 6, a->a, &nomem);
        t->meta_info = pg_text_at(res, i, 7, a->a, &nomem);
    }
    PQclear(res);
    if (nomem)
        return comb_err_nomem(err);
    *a->n = n_rows;
    return COMB_OK;
}

static int msp_txn_list(void *impl, CombArena *a, MsTxnInfo **rows, int *n,
                        CombErr *err)
{
    TxnListArgs args = {a, rows, n};
    return pg_run(impl, PG_AUTOCOMMIT, true, txn_list_body, &args, err);
}

typedef struct HeartbeatArgs {
    const int64_t *txnids;
    int n;
    bool *open;
} HeartbeatArgs;

/* One statement for all the txns; the open ones come back. */
static int heartbeat_body(MsPg *h, void *p, CombErr *err)
{
    const HeartbeatArgs *a = p;
    PgArray ids = {0};
    PGresult *res = NULL;
    const char *lit;
    int rc;
    for (int i = 0; i < a->n; i++) {
        pga_int(&ids, a->txnids[i]);
        a->open[i] = false;
    }
    rc = !(lit = pga_end(&ids))
             ? comb_err_nomem(err)
             : pg_exec_res(h, PG_TXN_HEARTBEAT, PG_ARGS(PG_TEXT(lit)), &res,
                           err);
    comb_buf_free(&ids.buf);
    for (int r = 0; !rc && r < PQntuples(res); r++) {
        int64_t id = 0;
        pg_int_at(res, r, 0, &id);
        for (int i = 0; i < a->n; i++)
            a->open[i] = a->open[i] || a->txnids[i] == id;
    }
    PQclear(res);
    return rc;
}

/* A lost heartbeat only makes a txn look a little older than it is. */
static int msp_txn_heartbeat(void *impl, const int64_t *txnids, int n,
                             bool *open, CombErr *err)
{
    HeartbeatArgs a = {txnids, n, open};
    return pg_run(impl, PG_TXN_LIGHT, true, heartbeat_body, &a, err);
}

/* --------------------------------------------------------- housekeeping */

/* Is a run due: none recorded, or the last one at least interval_ms old? */
static int housekeep_due(MsPg *h, int64_t interval_ms, bool *due,
                         CombErr *err)
{
    int64_t v = 0;
    bool found = false;
    int rc = pg_query_int(h, PG_HK_DUE, PG_ARGS(PG_INT(interval_ms)), &v,
                          &found, err);
    *due = !rc && found && v != 0;
    return rc;
}

typedef struct HousekeepArgs {
    const MsHousekeeping *cfg;
    MsHousekeepResult *out;
    bool due;
} HousekeepArgs;

static int housekeep_due_body(MsPg *h, void *p, CombErr *err)
{
    HousekeepArgs *a = p;
    return housekeep_due(h, a->cfg->interval_ms, &a->due, err);
}

/* One run, by one process at a time: the others, finding the mutex
 * taken, skip theirs. */
static int housekeep_body(MsPg *h, void *p, CombErr *err)
{
    const HousekeepArgs *a = p;
    PGresult *res = NULL;
    int64_t mine = 0;
    bool due = false, found = false;
    int rc = pg_exec(h, PG_HK_ROW, PG_NO_ARGS, err);
    memset(a->out, 0, sizeof *a->out);
    if (!rc)
        rc = pg_query_int(h, PG_HK_MUTEX, PG_NO_ARGS, &mine, &found, err);
    if (!rc && mine)
        rc = housekeep_due(h, a->cfg->interval_ms, &due, err);
    if (rc || !due)
        return rc;
    a->out->ran = true;
    if ((rc = pg_exec(h, PG_HK_MARK, PG_NO_ARGS, err)) ||
        (rc = pg_query_int(h, PG_HK_TIMEOUTS,
                           PG_ARGS(PG_INT(a->cfg->txn_timeout_ms)),
                           &a->out->timed_out, &found, err)) ||
        (rc = pg_exec_res(h, PG_HK_CLEAN,
                          PG_ARGS(PG_INT(a->cfg->txn_timeout_ms)), &res,
                          err)))
        return rc;
    pg_int_at(res, 0, 0, &a->out->rows_deleted);
    pg_int_at(res, 0, 1, &a->out->txns_deleted);
    PQclear(res);
    return COMB_OK;
}

/* Checked first outside any transaction, so that a process finding the
 * run not due does not take the mutex; checked again inside.  What a
 * crash of the server loses of a run, the next run does. */
static int msp_housekeep(void *impl, const MsHousekeeping *cfg,
                         MsHousekeepResult *out, CombErr *err)
{
    MsPg *h = impl;
    HousekeepArgs a = {cfg, out, false};
    int rc = pg_run(h, PG_AUTOCOMMIT, true, housekeep_due_body, &a, err);
    memset(out, 0, sizeof *out);
    if (!rc && a.due)
        rc = pg_run(h, PG_TXN_LIGHT, true, housekeep_body, &a, err);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* Recording the same write twice records it once.  Durable, unlike on
 * SQLite: components lost in a crash of the server would be missing from
 * the write-set check of the commit that follows on reconnection. */
static int msp_txn_add_component(void *impl, int64_t txnid, const char *db,
                                 const char *table, const char *partition,
                                 MsOpType op, int64_t writeid, CombErr *err)
{
    ComponentsArgs a = {txnid, db, table, partition ? &partition : NULL, 1,
                        op, writeid, false};
    return pg_run(impl, PG_TXN, true, components_body, &a, err);
}

static int msp_txn_add_partitions(void *impl, int64_t txnid, const char *db,
                                  const char *table, char *const *partitions,
                                  int n, MsOpType op, int64_t writeid,
                                  CombErr *err)
{
    ComponentsArgs a = {txnid, db, table, (const char *const *)partitions,
                        n, op, writeid, true};
    return pg_run(impl, PG_TXN, true, components_body, &a, err);
}

/* ----------------------------------------------------------- write ids */

typedef struct WriteidArgs {
    int64_t txnid;
    const char *db, *table;
    int64_t *writeid;
} WriteidArgs;

static int writeid_allocate_body(MsPg *h, void *p, CombErr *err)
{
    const WriteidArgs *a = p;
    PgTxn t;
    bool found = false;
    int rc = txn_lookup(h, a->txnid, PG_TXN_LOCK, &t, err);
    if (!rc && (!t.found || t.state != MS_TXN_OPEN ||
                t.type == MS_TXN_TYPE_READ_ONLY))
        rc = ms_err_writeid_refused(err, a->db, a->table);
    /* one write id per txn and table: a second call returns the first */
    if (!rc)
        rc = pg_query_int(h, PG_T2W_GET,
                          PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table),
                                  PG_INT(a->txnid)),
                          a->writeid, &found, err);
    if (rc || found)
        return rc;
    rc = pg_query_int(h, PG_NWI_TAKE,
                      PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table)), a->writeid,
                      &found, err);
    if (!rc)
        rc = pg_exec(h, PG_T2W_INSERT,
                     PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table),
                             PG_INT(a->txnid), PG_INT(*a->writeid)),
                     err);
    return rc;
}

/* A second call returns the first one's id: safe to run again. */
static int msp_writeid_allocate(void *impl, int64_t txnid, const char *db,
                                const char *table, int64_t *writeid,
                                CombErr *err)
{
    WriteidArgs a = {txnid, db, table, writeid};
    return pg_run(impl, PG_TXN, true, writeid_allocate_body, &a, err);
}

typedef struct WriteidBatchArgs {
    const int64_t *txnids;
    int n;
    const char *db, *table;
    int64_t *writeids;
} WriteidBatchArgs;

static int writeid_batch_body(MsPg *h, void *p, CombErr *err)
{
    const WriteidBatchArgs *a = p;
    int rc = COMB_OK;
    for (int i = 0; !rc && i < a->n; i++) {
        WriteidArgs one = {a->txnids[i], a->db, a->table, &a->writeids[i]};
        rc = writeid_allocate_body(h, &one, err);
    }
    return rc;
}

/* Each txn's second allocation returns its first: safe to run again. */
static int msp_writeid_allocate_batch(void *impl, const int64_t *txnids,
                                      int n, const char *db,
                                      const char *table, int64_t *writeids,
                                      CombErr *err)
{
    WriteidBatchArgs a = {txnids, n, db, table, writeids};
    return pg_run(impl, PG_TXN, true, writeid_batch_body, &a, err);
}

typedef struct WriteidListArgs {
    const CombTxnList *txns;
    const char *db, *table;
    CombWriteIdList *out;
} WriteidListArgs;

/* Hive's getValidWriteIds from one PG_WRITEIDS statement. */
static int writeid_list_body(MsPg *h, void *p, CombErr *err)
{
    const WriteidListArgs *a = p;
    PGresult *res;
    MsWriteRow *rows = NULL;
    int64_t hwm = 0;
    int n_rows = 0;
    int rc = pg_exec_res(h, PG_WRITEIDS,
                         PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table),
                                 PG_INT(a->txns->hwm)),
                         &res, err);
    if (rc)
        return rc;
    if (PQntuples(res) > 0)
        pg_int_at(res, 0, 0, &hwm);
    if (!(rows = comb_malloc((size_t)(PQntuples(res) + 1) * sizeof *rows)))
        rc = comb_err_nomem(err);
    for (int r = 0; !rc && r < PQntuples(res); r++) {
        MsWriteRow w;
        if (pg_int_at(res, r, 1, &w.txnid) && pg_int_at(res, r, 2, &w.writeid))
            rows[n_rows++] = w;
    }
    PQclear(res);
    if (!rc)
        rc = ms_writeids_build(a->txns, a->db, a->table, hwm, rows, n_rows,
                               a->out, err);
    comb_free(rows);
    return rc;
}

static int msp_writeid_list(void *impl, const CombTxnList *txns,
                            const char *db, const char *table,
                            CombWriteIdList *out, CombErr *err)
{
    WriteidListArgs a = {txns, db, table, out};
    int rc = pg_run(impl, PG_AUTOCOMMIT, true, writeid_list_body, &a, err);
    if (rc)
        comb_writeidlist_free(out);
    return rc;
}

/* ------------------------------------------------- adopting existing data */

typedef struct WriteidSeedArgs {
    const char *db, *table;
    int64_t max_writeid;
} WriteidSeedArgs;

/* Hive's Msck.validateAndAddMaxTxnIdAndWriteId, write-id half.  The
 * upsert locks the table's NEXT_WRITE_ID row, so no allocation slips in
 * between seeding and checking. */
static int writeid_seed_body(MsPg *h, void *p, CombErr *err)
{
    const WriteidSeedArgs *a = p;
    int64_t tbl_id, next = 0;
    bool seeded = false, found = false;
    int rc = table_id(h, a->db, a->table, &tbl_id, err);
    if (rc || a->max_writeid <= 0)
        return rc;
    rc = pg_query_int(h, PG_NWI_SEED,
                      PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table),
                              PG_INT(a->max_writeid + 1)),
                      &next, &seeded, err);
    if (!rc && !seeded)
        rc = pg_query_int(h, PG_NWI_GET,
                          PG_ARGS(PG_TEXT(a->db), PG_TEXT(a->table)), &next,
                          &found, err);
    if (!rc && !seeded && a->max_writeid > next - 1)
        rc = comb_err(err, COMB_EINVALID,
                      "The maximum writeId %lld in table %s is greater than "
                      "the maximum allocated in the metastore %lld",
                      (long long)a->max_writeid, a->table,
                      (long long)(next - 1));
    return rc;
}

static int msp_writeid_seed(void *impl, const char *db, const char *table,
                            int64_t max_writeid, CombErr *err)
{
    WriteidSeedArgs a = {db, table, max_writeid};
    return pg_run(impl, PG_TXN, true, writeid_seed_body, &a, err);
}

/* Never lowers the counter: ids handed out stay unique. */
static int txnid_seed_body(MsPg *h, void *p, CombErr *err)
{
    int64_t max_txnid = *(const int64_t *)p, next = 0;
    bool found = false;
    int rc = pg_query_int(h, PG_NEXT_TXN_RAISE, PG_ARGS(PG_INT(max_txnid + 1)),
                          &next, &found, err);
    if (!rc && (!found || next <= 0))
        rc = damaged_next_txn(h, err);
    return rc;
}

static int msp_txnid_seed(void *impl, int64_t max_txnid, CombErr *err)
{
    return pg_run(impl, PG_TXN, true, txnid_seed_body, &max_txnid, err);
}

/* ---------------------------------------------------------- open/close */

static void msp_close(void *impl)
{
    MsPg *h = impl;
    if (!h)
        return;
    PQfinish(h->conn);
    comb_free(h->url);
    comb_free(h->where);
    comb_free(h->warehouse);
    comb_free(h);
}

/* The VERSION row; *found is false in a database without the schema. */
static int schema_version(MsPg *h, CombArena *a, char **version, bool *found,
                          CombErr *err)
{
    char **cells;
    int64_t present = 0;
    int n = 0;
    int rc = pg_query_int(h, PG_SCHEMA_PRESENT, PG_NO_ARGS, &present, found,
                          err);
    *found = false;
    if (rc || !present)
        return rc;
    rc = pg_fetch_names(h, PG_VERSION_GET, PG_NO_ARGS, a, &cells, &n, NULL,
                        err);
    if (!rc && n != 1)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': VERSION table has no version row",
                      h->where);
    if (!rc) {
        *version = cells[0];
        *found = true;
    }
    return rc;
}

typedef struct SchemaArgs {
    CombArena *a;
    char **version;
} SchemaArgs;

/* A version this comb upgrades from. */
static bool schema_is_older(const char *version)
{
    return strcmp(version, "2") == 0 || strcmp(version, "3") == 0 ||
           strcmp(version, "4") == 0 || strcmp(version, "5") == 0;
}

/* Create the schema, or bring an older one to ours, unless another
 * process did first: the advisory lock makes processes opening one
 * database at once take turns, and each reads the version again under
 * it.  DDL is transactional: a failed step leaves the database as it
 * was. */
static int schema_prepare_body(MsPg *h, void *p, CombErr *err)
{
    const SchemaArgs *a = p;
    bool found = false;
    int rc = pg_exec(h, PG_SCHEMA_LOCK, PG_NO_ARGS, err);
    if (!rc)
        rc = schema_version(h, a->a, a->version, &found, err);
    if (rc || (found && !schema_is_older(*a->version)))
        return rc;
    if (!found) {
        rc = pg_simple(h, PG_SCHEMA_SQL, err);
        if (!rc)
            rc = pg_exec(h, PG_DB_INSERT,
                         PG_ARGS(PG_TEXT(MS_DEFAULT_DB),
                                 PG_TEXT("Default Hive database"),
                                 PG_TEXT(h->warehouse), PG_TEXT("public"),
                                 PG_TEXT("ROLE")),
                         err);
    } else {
        /* each step from the stored version on */
        static const char *const steps[] = {PG_UPGRADE_V2_SQL,
                                            PG_UPGRADE_V3_SQL,
                                            PG_UPGRADE_V4_SQL,
                                            PG_UPGRADE_V5_SQL};
        for (int v = atoi(*a->version) - 2; !rc && v < 4; v++)
            rc = pg_simple(h, steps[v], err);
        if (rc)
            comb_err_prefix(err, "upgrading the metastore schema to version %s",
                            PG_SCHEMA_VERSION);
    }
    if (!rc)
        rc = schema_version(h, a->a, a->version, &found, err);
    return rc;
}

static int schema_read_body(MsPg *h, void *p, CombErr *err)
{
    const SchemaArgs *a = p;
    bool found = false;
    int rc = schema_version(h, a->a, a->version, &found, err);
    if (!rc && !found)
        *a->version = NULL;
    return rc;
}

/* Read the version (no lock, no write: a read-only server opens too),
 * create or upgrade the schema when there is none or an older one, then
 * insist on our version. */
static int schema_ensure(MsPg *h, CombErr *err)
{
    CombArena a;
    char *version = NULL;
    SchemaArgs args = {&a, &version};
    int rc;
    comb_arena_init(&a, 256);
    rc = pg_run(h, PG_AUTOCOMMIT, true, schema_read_body, &args, err);
    if (!rc && (!version || schema_is_older(version)))
        rc = pg_run(h, PG_TXN, true, schema_prepare_body, &args, err);
    if (!rc && strcmp(version, PG_SCHEMA_VERSION) != 0)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s' has schema version '%s' but this comb "
                      "uses version '%s'; use a comb that knows version '%s'",
                      h->where, version, PG_SCHEMA_VERSION, version);
    comb_arena_free(&a);
    return rc;
}

/* ------------------------------------------------------- compaction */

static int cq_mutex(MsPg *h, int64_t *next, CombErr *err)
{
    bool found;
    int rc = pg_query_int(h, PG_CQ_MUTEX, PG_NO_ARGS, next, &found, err);
    if (!rc && !found)
        rc = comb_err(err, COMB_EMETASTORE,
                      "metastore '%s': NEXT_COMPACTION_QUEUE_ID has no row",
                      h->where);
    return rc;
}

typedef struct CompactEnqueueArgs {
    const MsCompactRequest *rq;
    bool *accepted;
    int64_t *id;
    MsCompactState *state;
} CompactEnqueueArgs;

static int compact_enqueue_body(MsPg *h, void *p, CombErr *err)
{
    const CompactEnqueueArgs *a = p;
    const MsCompactRequest *rq = a->rq;
    char type[2] = {(char)rq->type, 0};
    PGresult *res;
    int64_t next = 0;
    int rc = cq_mutex(h, &next, err);
    *a->accepted = false;
    if (!rc)
        rc = pg_exec_res(h, PG_CQ_IN_WAY,
                         PG_ARGS(PG_TEXT(rq->db), PG_TEXT(rq->table),
                                 PG_TEXT(rq->partition)),
                         &res, err);
    if (rc)
        return rc;
    if (PQntuples(res) > 0) {
        pg_int_at(res, 0, 0, a->id);
        *a->state = (MsCompactState)PQgetvalue(res, 0, 1)[0];
        PQclear(res);
        return COMB_OK;
    }
    PQclear(res);
    if ((rc = pg_exec(h, PG_CQ_NEXT_ID_SET, PG_ARGS(PG_INT(next + 1)), err)) ||
        (rc = pg_exec(h, PG_CQ_INSERT,
                      PG_ARGS(PG_INT(next), PG_TEXT(rq->db),
                              PG_TEXT(rq->table), PG_TEXT(rq->partition),
                              PG_TEXT(type), PG_TEXT(rq->tblprops),
                              PG_TEXT(rq->initiator_id)),
                      err)))
        return rc;
    *a->accepted = true;
    *a->id = next;
    *a->state = MS_CQ_INITIATED;
    return COMB_OK;
}

static int msp_compact_enqueue(void *impl, const MsCompactRequest *rq,
                               bool *accepted, int64_t *id,
                               MsCompactState *state, CombErr *err)
{
    CompactEnqueueArgs a = {rq, accepted, id, state};
    return pg_run(impl, PG_TXN, false, compact_enqueue_body, &a, err);
}

/* Row `row` of a PG_CQ_COLUMNS / PG_CC_COLUMNS result. */
static void compaction_at(const PGresult *res, int row, CombArena *a,
                          MsCompaction *c, bool *nomem)
{
    int64_t *ints[] = {&c->enqueue_time, &c->start, &c->end,
                       &c->highest_writeid, &c->txnid, &c->next_txnid,
                       &c->commit_time};
    memset(c, 0, sizeof *c);
    pg_int_at(res, row, 0, &c->id);
    c->db = pg_text_at(res, row, 1, a, nomem);
    c->table = pg_text_at(res, row, 2, a, nomem);
    c->partition = pg_text_at(res, row, 3, a, nomem);
    c->state = (MsCompactState)PQgetvalue(res, row, 4)[0];
    c->type = (MsCompactType)PQgetvalue(res, row, 5)[0];
    c->tblprops = pg_text_at(res, row, 6, a, nomem);
    c->worker_id = pg_text_at(res, row, 7, a, nomem);
    for (int i = 0; i < 7; i++)
        pg_int_at(res, row, 8 + i, ints[i]);
    c->error = pg_text_at(res, row, 15, a, nomem);
    c->initiator_id = pg_text_at(res, row, 16, a, nomem);
    c->progress = pg_text_at(res, row, 17, a, nomem);
}

static int compact_get(MsPg *h, int64_t id, CombArena *a, MsCompaction *out,
                       bool *found, CombErr *err)
{
    PGresult *res;
    bool nomem = false;
    int rc = pg_exec_res(h, PG_CQ_GET, PG_ARGS(PG_INT(id)), &res, err);
    *found = false;
    if (rc)
        return rc;
    if (PQntuples(res) > 0) {
        compaction_at(res, 0, a, out, &nomem);
        *found = true;
    }
    PQclear(res);
    return nomem ? comb_err_nomem(err) : COMB_OK;
}

typedef struct CompactClaimArgs {
    const char *worker_id;
    int64_t timeout_ms, id;
    CombArena *a;
    MsCompaction *out;
    bool *found;
} CompactClaimArgs;

static int compact_claim_body(MsPg *h, void *p, CombErr *err)
{
    const CompactClaimArgs *a = p;
    int64_t next = 0, pick = 0;
    bool any = false;
    int rc = cq_mutex(h, &next, err);
    *a->found = false;
    /* Hive's revokeTimedoutWorkers: the txn of a worker that stopped
     * answering is aborted and its entry initiated again */
    if (!rc && a->timeout_ms > 0)
        rc = pg_exec(h, PG_CQ_ABORT_TIMED_OUT,
                     PG_ARGS(PG_INT(a->timeout_ms)), err);
    if (!rc && a->timeout_ms > 0)
        rc = pg_exec(h, PG_CQ_RESET_TIMED_OUT,
                     PG_ARGS(PG_INT(a->timeout_ms)), err);
    if (!rc)
        rc = pg_query_int(h, PG_CQ_PICK, PG_ARGS(PG_INT(a->id)), &pick, &any,
                          err);
    if (rc || !any)
        return rc;
    rc = pg_exec(h, PG_CQ_CLAIM, PG_ARGS(PG_INT(pick), PG_TEXT(a->worker_id)),
                 err);
    if (!rc)
        rc = compact_get(h, pick, a->a, a->out, a->found, err);
    return rc;
}

static int msp_compact_claim(void *impl, const char *worker_id,
                             int64_t timeout_ms, int64_t id, CombArena *a,
                             MsCompaction *out, bool *found, CombErr *err)
{
    CompactClaimArgs args = {worker_id, timeout_ms, id, a, out, found};
    return pg_run(impl, PG_TXN, false, compact_claim_body, &args, err);
}

typedef struct CompactSetTxnArgs {
    int64_t id, txnid, hwm;
} CompactSetTxnArgs;

static int compact_set_txn_body(MsPg *h, void *p, CombErr *err)
{
    const CompactSetTxnArgs *a = p;
    int64_t next, changed = 0;
    int rc = cq_mutex(h, &next, err);
    if (!rc)
        rc = pg_exec_count(h, PG_CQ_SET_TXN,
                           PG_ARGS(PG_INT(a->id), PG_INT(a->txnid),
                                   PG_INT(a->hwm)),
                           &changed, err);
    if (!rc && changed == 0)
        rc = ms_err_no_compaction(err, a->id);
    if (!rc)
        rc = pg_exec(h, PG_CQ_TC_INSERT, PG_ARGS(PG_INT(a->id)), err);
    return rc;
}

typedef struct CompactProgressArgs {
    int64_t id;
    const char *text;
} CompactProgressArgs;

static int compact_progress_body(MsPg *h, void *p, CombErr *err)
{
    const CompactProgressArgs *a = p;
    return pg_exec(h, PG_CQ_PROGRESS, PG_ARGS(PG_INT(a->id), PG_TEXT(a->text)),
                   err);
}

static int msp_compact_progress(void *impl, int64_t id, const char *text,
                                CombErr *err)
{
    CompactProgressArgs a = {id, text};
    return pg_run(impl, PG_TXN, true, compact_progress_body, &a, err);
}

static int msp_compact_set_txn(void *impl, int64_t id, int64_t txnid,
                               int64_t highest_writeid, CombErr *err)
{
    CompactSetTxnArgs a = {id, txnid, highest_writeid};
    return pg_run(impl, PG_TXN, true, compact_set_txn_body, &a, err);
}

typedef struct CompactCommitArgs {
    int64_t id;
    TxnCommitArgs commit;
} CompactCommitArgs;

static int compact_commit_body(MsPg *h, void *p, CombErr *err)
{
    CompactCommitArgs *a = p;
    int64_t next = 0, next_txn = 0, changed = 0;
    bool found;
    int rc = cq_mutex(h, &next, err);
    if (!rc)
        rc = pg_query_int(h, PG_CQ_NEXT_TXN_LOCK, PG_NO_ARGS, &next_txn,
                          &found, err);
    if (!rc)
        rc = pg_exec_count(h, PG_CQ_READY,
                           PG_ARGS(PG_INT(a->id), PG_INT(a->commit.txnid),
                                   PG_INT(next_txn)),
                           &changed, err);
    if (!rc && changed == 0)
        return ms_err_no_compaction(err, a->id);
    if (!rc)
        rc = txn_commit_body(h, &a->commit, err);
    return rc;
}

static int msp_compact_commit(void *impl, int64_t id, int64_t txnid,
                              CombErr *err)
{
    CombArena ar;
    CompactCommitArgs a = {id, {txnid, true, &ar, 0, NULL}};
    int rc;
    comb_arena_init(&ar, 1024);
    rc = pg_run(impl, PG_TXN, false, compact_commit_body, &a, err);
    comb_arena_free(&ar);
    return rc;
}

typedef struct CompactFinishArgs {
    int64_t id;
    MsCompactState state;
    const char *error;
    const MsCompactRetention *keep;
    CombArena *a;
} CompactFinishArgs;

/* hive.compactor.history.retention.*: the newest rows of each final state
 * of the partition stay. */
static int compact_purge(MsPg *h, const MsCompaction *c,
                         const MsCompactRetention *keep, CombErr *err)
{
    const struct { const char *state; int keep; } rules[] = {
        {"s", keep->succeeded}, {"f", keep->failed},
        {"a", keep->did_not_initiate}, {"c", keep->refused},
        {"x", keep->aborted}};
    int rc = COMB_OK;
    for (size_t i = 0; !rc && i < sizeof rules / sizeof *rules; i++)
        rc = pg_exec(h, PG_CC_PURGE,
                     PG_ARGS(PG_TEXT(c->db), PG_TEXT(c->table),
                             PG_TEXT(c->partition), PG_TEXT(rules[i].state),
                             PG_INT(rules[i].keep < 0 ? 0 : rules[i].keep)),
                     err);
    return rc;
}

static int compact_finish_body(MsPg *h, void *p, CombErr *err)
{
    const CompactFinishArgs *a = p;
    MsCompaction c;
    char letter[2] = {(char)a->state, 0};
    int64_t next;
    bool found = false;
    int rc = cq_mutex(h, &next, err);
    if (!rc)
        rc = compact_get(h, a->id, a->a, &c, &found, err);
    if (!rc && !found)
        return ms_err_no_compaction(err, a->id);
    if (!rc && a->state == MS_CQ_REFUSED)
        rc = pg_exec(h, PG_CQ_TC_DROP, PG_ARGS(PG_INT(a->id)), err);
    if (!rc)
        rc = pg_exec(h, PG_CQ_TO_HISTORY,
                     PG_ARGS(PG_INT(a->id), PG_TEXT(letter),
                             PG_TEXT(a->error)),
                     err);
    if (!rc)
        rc = pg_exec(h, PG_CQ_DELETE, PG_ARGS(PG_INT(a->id)), err);
    if (!rc && a->state == MS_CQ_SUCCEEDED) {
        PgId clean[2] = {PG_CQ_CLEAN_CTC, PG_CQ_CLEAN_TC};
        for (int i = 0; !rc && i < 2; i++)
            rc = pg_exec(h, clean[i],
                         PG_ARGS(PG_TEXT(c.db), PG_TEXT(c.table),
                                 PG_TEXT(c.partition),
                                 PG_INT(c.highest_writeid)),
                         err);
    }
    if (!rc && a->keep)
        rc = compact_purge(h, &c, a->keep, err);
    return rc;
}

static int msp_compact_finish(void *impl, int64_t id, MsCompactState state,
                              const char *error,
                              const MsCompactRetention *keep, CombErr *err)
{
    CombArena ar;
    CompactFinishArgs a = {id, state, error, keep, &ar};
    int rc;
    comb_arena_init(&ar, 1024);
    rc = pg_run(impl, PG_TXN, false, compact_finish_body, &a, err);
    comb_arena_free(&ar);
    return rc;
}

typedef struct CompactListArgs {
    bool ready_to_clean;
    CombArena *a;
    MsCompaction **rows;
    int *n;
} CompactListArgs;

static int compact_list_body(MsPg *h, void *p, CombErr *err)
{
    const CompactListArgs *a = p;
    PGresult *res;
    bool nomem = false;
    int n_rows, rc = pg_exec_res(h, a->ready_to_clean ? PG_CQ_READY_LIST
                                                      : PG_CQ_LIST,
                                 PG_NO_ARGS, &res, err);
    *a->rows = NULL;
    *a->n = 0;
    if (rc)
        return rc;
    n_rows = PQntuples(res);
    *a->rows = table_list_alloc(a->a, n_rows, sizeof **a->rows, &nomem);
    for (int i = 0; i < n_rows && !nomem; i++)
        compaction_at(res, i, a->a, &(*a->rows)[i], &nomem);
    PQclear(res);
    if (nomem)
        return comb_err_nomem(err);
    *a->n = n_rows;
    return COMB_OK;
}

static int msp_compact_list(void *impl, bool ready_to_clean, CombArena *a,
                            MsCompaction **rows, int *n, CombErr *err)
{
    CompactListArgs args = {ready_to_clean, a, rows, n};
    return pg_run(impl, PG_AUTOCOMMIT, true, compact_list_body, &args, err);
}

typedef struct CompactAbortArgs {
    const int64_t *ids;
    int n;
    bool *done;
} CompactAbortArgs;

static int compact_abort_body(MsPg *h, void *p, CombErr *err)
{
    const CompactAbortArgs *a = p;
    int64_t next;
    int rc = cq_mutex(h, &next, err);
    for (int i = 0; i < a->n; i++)
        a->done[i] = false;
    for (int i = 0; !rc && i < a->n; i++) {
        PGresult *res;
        bool initiated;
        if ((rc = pg_exec_res(h, PG_CQ_STATE, PG_ARGS(PG_INT(a->ids[i])),
                              &res, err)))
            break;
        initiated = PQntuples(res) > 0 &&
                    PQgetvalue(res, 0, 0)[0] == MS_CQ_INITIATED;
        PQclear(res);
        if (!initiated)
            continue;
        rc = pg_exec(h, PG_CQ_TO_HISTORY,
                     PG_ARGS(PG_INT(a->ids[i]), PG_TEXT("x"), PG_NULL), err);
        if (!rc)
            rc = pg_exec(h, PG_CQ_DELETE, PG_ARGS(PG_INT(a->ids[i])), err);
        a->done[i] = !rc;
    }
    return rc;
}

static int msp_compact_abort(void *impl, const int64_t *ids, int n,
                             bool *done, CombErr *err)
{
    CompactAbortArgs a = {ids, n, done};
    int rc = pg_run(impl, PG_TXN, true, compact_abort_body, &a, err);
    if (rc)
        for (int i = 0; i < n; i++)
            done[i] = false;
    return rc;
}

static const MsBackendOps ms_pg_ops = {
    .name = "postgresql",
    .close = msp_close,
    .db_create = msp_db_create,
    .db_drop = msp_db_drop,
    .db_get = msp_db_get,
    .db_list = msp_db_list,
    .table_create = msp_table_create,
    .table_drop = msp_table_drop,
    .table_get = msp_table_get,
    .table_list = msp_table_list,
    .table_alter = msp_table_alter,
    .table_rename = msp_table_rename,
    .part_add = msp_part_add,
    .part_drop = msp_part_drop,
    .part_list = msp_part_list,
    .part_set_location = msp_part_set_location,
    .part_set_params = msp_part_set_params,
    .colstats_put = msp_colstats_put,
    .colstats_get = msp_colstats_get,
    .role_create = msp_role_create,
    .role_drop = msp_role_drop,
    .role_list = msp_role_list,
    .grant_put = msp_grant_put,
    .grant_drop = msp_grant_drop,
    .grant_list = msp_grant_list,
    .txn_begin = msp_txn_begin,
    .txn_commit = msp_txn_commit,
    .txn_abort = msp_txn_abort,
    .txn_state = msp_txn_state,
    .txn_snapshot = msp_txn_snapshot,
    .writeid_allocate = msp_writeid_allocate,
    .writeid_allocate_batch = msp_writeid_allocate_batch,
    .writeid_list = msp_writeid_list,
    .txn_add_component = msp_txn_add_component,
    .txn_add_partitions = msp_txn_add_partitions,
    .writeid_seed = msp_writeid_seed,
    .txnid_seed = msp_txnid_seed,
    .lock = msp_lock,
    .lock_check = msp_lock_check,
    .unlock = msp_unlock,
    .lock_list = msp_lock_list,
    .txn_list = msp_txn_list,
    .txn_heartbeat = msp_txn_heartbeat,
    .housekeep = msp_housekeep,
    .txn_commit_create = msp_txn_commit_create,
    .compact_enqueue = msp_compact_enqueue,
    .compact_claim = msp_compact_claim,
    .compact_set_txn = msp_compact_set_txn,
    .compact_progress = msp_compact_progress,
    .compact_commit = msp_compact_commit,
    .compact_finish = msp_compact_finish,
    .compact_list = msp_compact_list,
    .compact_abort = msp_compact_abort,
};

static void pg_fault_load(MsPg *h)
{
#ifdef COMB_TEST_BUILD
    static const struct {
        const char *name;
        PgFault fault;
    } faults[] = {{"readonly", PG_FAULT_READONLY},
                  {"full", PG_FAULT_FULL},
                  {"part_add", PG_FAULT_PART_ADD},
                  {"pg_commit_lost", PG_FAULT_COMMIT_LOST}};
    const char *f = getenv("COMB_MS_FAULT");
    for (size_t i = 0; f && i < sizeof faults / sizeof *faults; i++)
        if (strcmp(f, faults[i].name) == 0)
            h->fault = faults[i].fault;
    if (f && strncmp(f, "pg_kill", 7) == 0 && f[7] >= '1' && f[7] <= '9' &&
        !f[8]) {
        h->fault = PG_FAULT_KILL;
        h->fault_statements = f[7] - '0';
    }
#else
    h->fault = PG_FAULT_NONE;
#endif
}

/* postgresql://user@host:port/db for messages, from the parameters libpq
 * reads in the URL: never its password. */
char *ms_pg_display(const char *url)
{
    PQconninfoOption *opts = PQconninfoParse(url, NULL);
    const char *user = NULL, *host = NULL, *port = NULL, *db = NULL;
    CombBuf b = COMB_BUF_INIT;
    bool socket_dir, nomem;
    /* a URL libpq cannot read: connecting will say why */
    if (!opts)
        return comb_strdup("postgresql://(unreadable URL)");
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        const char *v = o->val && *o->val ? o->val : NULL;
        if (strcmp(o->keyword, "user") == 0)
            user = v;
        else if (strcmp(o->keyword, "host") == 0)
            host = v;
        else if (strcmp(o->keyword, "port") == 0)
            port = v;
        else if (strcmp(o->keyword, "dbname") == 0)
            db = v;
    }
    socket_dir = host && host[0] == '/';
    nomem = comb_buf_printf(&b, "postgresql://%s%s%s%s%s/%s%s%s",
                            user ? user : "", user ? "@" : "",
                            host && !socket_dir ? host : "", port ? ":" : "",
                            port ? port : "", db ? db : "",
                            socket_dir ? "?host=" : "",
                            socket_dir ? host : "") ||
            comb_buf_append_byte(&b, '\0');
    PQconninfoFree(opts);
    if (nomem) {
        comb_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

int ms_open_pg(const char *url, const char *warehouse_dir, Ms **out,
               CombErr *err)
{
    MsPg *h;
    int rc;
    comb_err_clear(err);
    if (!out)
        return comb_err(err, COMB_EINVALID, "ms_open_pg without result");
    *out = NULL;
    if (!url || !*url || !warehouse_dir || !*warehouse_dir)
        return comb_err(err, COMB_EINVALID,
                        "metastore needs a connection URL and a warehouse "
                        "directory");
    h = comb_calloc(1, sizeof *h);
    if (!h)
        return comb_err_nomem(err);
    h->url = comb_strdup(url);
    h->where = ms_pg_display(url);
    h->warehouse = comb_strdup(warehouse_dir);
    h->rand_state = (unsigned)getpid() ^ (unsigned)time(NULL);
    pg_fault_load(h);
    if (!h->url || !h->where || !h->warehouse)
        rc = comb_err_nomem(err);
    else
        rc = pg_connect(h, err);
    if (!rc)
        rc = schema_ensure(h, err);
    if (!rc && !(*out = comb_calloc(1, sizeof **out)))
        rc = comb_err_nomem(err);
    if (rc) {
        msp_close(h);
        return rc;
    }
    (*out)->ops = &ms_pg_ops;
    (*out)->impl = h;
    return COMB_OK;
}
