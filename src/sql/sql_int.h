/*
 * sql_int.h - private to src/sql: the core every part of the layer shares
 * (parse/ excepted, which knows nothing of it): the session record, what
 * one statement runs with (SqlStmtCtx), resolved tables (SqlTable), the
 * units a statement reads or writes (SqlUnit), and the session's
 * per-statement services (transaction, errors with a position, crash
 * points), implemented by session.c.  Each part has its own header above
 * this one: func/expr.h (bound expressions), plan/plan.h (tables and
 * units), exec/exec.h (scans, writers, statement runners), ddl/ddl_int.h
 * (catalog statements).
 */
#ifndef COMB_SQL_INT_H
#define COMB_SQL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/txnlist.h"
#include "metastore/ms.h"
#include "sql/parse/ast.h"
#include "sql/session.h"

/* ------------------------------------------------------------------ session */

typedef struct SqlSetting {
    char *key;
    char *value;
} SqlSetting;

typedef struct SqlSettings {
    int n;
    int cap;
    SqlSetting *items;      /* owned, heap */
} SqlSettings;

struct SqlSession {
    Ms *ms;                 /* metastore connection, owned */
    char *metastore;        /* comb.metastore.url as SET shows it: the
                               file or URL, no password; owned */
    char *warehouse;        /* absolute warehouse directory, owned */
    char *db;               /* current database, owned */
    char *user;
    char *host;
    SqlSettings conf;       /* SET / --hiveconf */
    SqlSettings vars;       /* --hivevar / SET hivevar:x=y */
    CombArena stmt_arena;   /* reset after each statement */
};

/* What one statement runs with. */
typedef struct SqlStmtCtx {
    SqlSession *s;
    CombArena *arena;       /* statement lifetime */
    const SqlSink *sink;
    const AstStmt *stmt;
    int64_t txnid;          /* 0 until a transaction is opened */
    bool have_snapshot;
    CombTxnList snapshot;   /* valid only if have_snapshot */
    CombBatch one_row;      /* input of constant folding, made on first use */
    bool have_now;          /* current_date / current_timestamp: one value
                               per statement, taken on first use */
    int64_t now_secs;       /* local wall-clock time, as Hive's */
    int32_t now_nanos;
    struct SqlTable *load_source; /* LOAD DATA run as INSERT ... SELECT: the
                               files as a table (exec_load.c), else NULL */
    int insert_clause;      /* the INSERT clause of a multi-insert being
                               run (Hive's destination insclause-N) */
    const struct SqlViewFrame *views; /* views whose queries are being bound,
                               innermost first (exec_select.c) */
    int query_depth;        /* subqueries and views being bound */
    int next_col_id;        /* logical plan column ids (plan/logical.h) */
} SqlStmtCtx;

/* A view whose query is being bound: the chain finds a view that reads
 * itself (Hive's "Recursive view" error). */
typedef struct SqlViewFrame {
    const struct SqlTable *view;
    const struct SqlViewFrame *outer;
} SqlViewFrame;

/* Open the statement's transaction and take its snapshot (idempotent). */
int sql_txn_begin(SqlStmtCtx *c, CombErr *err);

/* Error with Hive's number and the statement position "Line L:C " (the
 * column printed 0-based, as Hive prints it). */
int sql_err_at(CombErr *err, int code, int hive_code, AstPos pos,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Commit the statement's transaction (files must already be durable). */
int sql_txn_commit(SqlStmtCtx *c, CombErr *err);

/* Fault points for crash tests: when conf comb.test.crash.point equals
 * `name`, the process exits immediately (as if killed). */
void sql_crash_point(SqlStmtCtx *c, const char *name);

/* ------------------------------------------------------------------ tables */

/* How a table keeps its rows. */
typedef enum SqlTableKind {
    SQL_TABLE_ACID,         /* full ACID: ORC files with ACID columns in
                               base/delta/delete_delta directories */
    SQL_TABLE_INSERT_ONLY,  /* transactional_properties=insert_only: plain
                               files in base/delta directories */
    SQL_TABLE_PLAIN,        /* every visible file of the directory */
    SQL_TABLE_VIEW          /* no files: a query */
} SqlTableKind;

typedef enum SqlFormat {
    SQL_FORMAT_ORC,
    SQL_FORMAT_TEXT         /* LazySimpleSerDe text files */
} SqlFormat;

typedef struct SqlTable {
    MsTable *ms;            /* catalog record (statement arena) */
    char *qualified;        /* "db.table" */
    int n_cols;             /* data columns, then partition columns */
    int n_data;             /* columns 0..n_data-1 are in the files */
    int n_part;             /* columns n_data..n_cols-1 are partition keys */
    SqlTableKind kind;
    SqlFormat format;
    const char **names;     /* column names, table order */
    const CombType **types; /* column types (statement arena) */
    CombTypeKind *kinds;    /* types[i]->kind */
    uint32_t *lengths;      /* char(n)/varchar(n) length per column, else 0 */
    int n_buckets;          /* -1 when not bucketed */
    int n_cluster;
    int *cluster_idx;       /* CLUSTERED BY columns as column indexes */
    int bucketing_version;  /* ACID_BUCKETING_V1/V2; 0 if the property
                               holds another value (sql_table_bucketing) */
    bool transactional;     /* full ACID */
    char **files;           /* a LOAD DATA source (plain kind): these files
                               instead of its directory's; else NULL */
    int n_files;
} SqlTable;

/* Column index by name, -1 if none (plan/catalog.c). */
int sql_table_column(const SqlTable *t, const char *name);

typedef struct BoundExpr BoundExpr;

/* A directory a statement reads or writes: one partition of a table, or
 * an unpartitioned table's own directory (partition.c). */
typedef struct SqlUnit {
    const char *dir;        /* absolute directory */
    const char *name;       /* "k1=v1/k2=v2"; NULL when not partitioned */
    char **values;          /* n_part values as text; NULL = the default
                               partition (a NULL key) */
    BoundExpr **keys;       /* n_part typed constants of the values */
} SqlUnit;

#endif
