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

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/memacct.h"
#include "common/txnlist.h"
#include "metastore/ms.h"
#include "orc/orc.h"
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

/* A table an explicit transaction wrote, under its one write id. */
typedef struct SqlTxnWrite {
    char *db, *table;       /* owned */
    int64_t writeid;
    bool overwritten;       /* by INSERT OVERWRITE: base_W hides any later
                               delta of W, so no later write may follow */
} SqlTxnWrite;

/* The session's explicit transaction (txn.c): from BEGIN to COMMIT or
 * ROLLBACK every statement runs in one metastore txn, opened and given
 * its snapshot by the first statement that reads or writes. */
typedef struct SqlTxn {
    bool open;              /* BEGIN ran, no COMMIT/ROLLBACK yet */
    bool read_only;         /* START TRANSACTION READ ONLY */
    bool failed;            /* a statement failed: the metastore txn is
                               aborted; only COMMIT / ROLLBACK end it */
    char *failure;          /* that statement's error message; owned */
    int64_t txnid;          /* 0 until the first statement opens it */
    bool have_snapshot;
    CombTxnList snapshot;   /* taken by the first statement; owned */
    int next_stmt;          /* statement ids given out so far */
    SqlTxnWrite *writes;    /* owned */
    int n_writes, cap_writes;
    MsLockComponent *held;  /* locks requested so far (names owned) */
    int n_held, cap_held;
} SqlTxn;

/* The session's side of authorization (authz.c). */
typedef struct SqlAuthz {
    bool on;                /* statements are checked (the server's
                               hive.security.authorization.enabled) */
    char *admin_users;      /* hive.users.in.admin.role, owned */
    char *set_role;         /* SET ROLE: NULL for ALL, "none", "admin" or
                               a role's name; owned */
} SqlAuthz;

struct SqlSession {
    atomic_int cancel;      /* sql_session_cancel: the running statement
                               stops at its next batch */
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
    char *ms_target;        /* what ms_open opened (file or URL), owned:
                               the heartbeater opens its own handle on it */
    MsHeartbeater *hb;      /* heartbeats the open txn (txn_locks.c);
                               started with the first txn, owned */
    SqlTxn txn;             /* explicit transaction, if any */
    SqlAuthz authz;
};

/* The locks one statement asks for (txn_locks.c): components planned from
 * the statement before its transaction opens (write targets) and added as
 * tables are resolved (reads), requested all together when the txn opens
 * and waited for before its snapshot is taken; released by the metastore
 * when the txn commits or aborts. */
struct SqlUnit;

/* A partitioned table the statement reads, whose SHARED_READ waits in
 * SqlLockPlan.reads until the plan shows which partitions its scans
 * read (sql_locks_settle). */
typedef struct SqlLockRead {
    const char *db, *table;
    bool settled;           /* its components are in items */
    char **parts;           /* settled to these partitions (sorted by
                               name); NULL: to the table */
    int n_parts;
    struct SqlLockRead *next;
} SqlLockRead;

/* A table scan of the statement's plan and its filter (final once the
 * plan is built), by which a read lock is narrowed to partitions. */
typedef struct SqlLockScan {
    const struct SqlTable *t;
    struct BoundExpr *const *filter;
    struct SqlLockScan *next;
} SqlLockScan;

typedef struct SqlLockPlan {
    MsLockComponent *items; /* statement arena */
    int n, cap;
    int n_requested;        /* items[0..n_requested) were sent */
    bool writes;            /* the statement may write: a DEFAULT txn, not
                               a READ_ONLY one */
    bool excl_write;        /* hive.txn.xlock.write: updates and deletes
                               ran under EXCL_WRITE, commit skips the
                               write-set check */
    bool acid_manager;      /* hive.txn.manager is DbTxnManager and
                               hive.support.concurrency is on */
    SqlLockRead *reads;     /* partitioned tables read (statement arena) */
    SqlLockScan *scans;     /* the plan's scans of them */
} SqlLockPlan;

/* What one statement runs with. */
typedef struct SqlStmtCtx {
    SqlSession *s;
    CombArena *arena;       /* statement lifetime */
    const SqlSink *sink;
    const AstStmt *stmt;
    int64_t txnid;          /* 0 until a transaction is opened */
    bool have_snapshot;
    CombTxnList snapshot;   /* valid only if have_snapshot */
    bool explicit_txn;      /* txnid and snapshot are the session's
                               explicit transaction's (borrowed): the
                               statement neither commits nor frees them */
    int stmt_base;          /* first statement id of this statement in
                               its transaction (0 under autocommit) */
    int stmt_end;           /* one past the highest statement id used */
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
    SqlLockPlan locks;      /* txn_locks.c */
    OrcReadCounters scan_counters; /* what the statement's ORC scans read
                               and skipped (comb.scan.stats prints it) */
    int next_col_id;        /* logical plan column ids (plan/logical.h) */
    bool par_copy;          /* a parallel copy's context (exec/par.c): it
                               runs on a worker thread and reports nothing
                               through the sink itself */
    CombMemAcct *mem;       /* what the operators hold, against
                               comb.exec.memory.limit (exec/spill.c): the
                               statement's one account, which its parallel
                               copies' contexts point at too */
    struct SqlColStatsPending *colstats; /* column statistics to store once
                               the transaction has committed
                               (exec/colstats.h) */
    struct SqlPrincipals *principals; /* the user's current roles, looked
                               up once per statement (authz.c) */
} SqlStmtCtx;

/* A view whose query is being bound: the chain finds a view that reads
 * itself (Hive's "Recursive view" error). */
typedef struct SqlViewFrame {
    const struct SqlTable *view;
    const struct SqlViewFrame *outer;
} SqlViewFrame;

/* ------------------------------------------------ authorization (authz.c) */

/* Hive's name of the operation a statement is (QUERY, CREATETABLE,
 * GRANT_PRIVILEGE, ...). */
const char *sql_stmt_operation(const AstStmt *st);
/* Whether the session checks privileges. */
bool sql_authz_on(const SqlStmtCtx *c);
/* The statement's own checks before it runs (its targets, DDL, admin
 * statements); COMB_EDENIED with Hive's text when refused. */
int sql_authorize(SqlStmtCtx *c, CombErr *err);
/* A table or view the statement reads (not inside a view's query). */
int sql_authorize_read(SqlStmtCtx *c, const MsTable *t, CombErr *err);
/* privs (AST_PRIV_* bits) on t, or WITH GRANT OPTION. */
int sql_authz_table(SqlStmtCtx *c, const MsTable *t, unsigned privs,
                    bool with_grant, CombErr *err);
int sql_authz_table_owner(SqlStmtCtx *c, const MsTable *t, CombErr *err);
int sql_authz_db_owner(SqlStmtCtx *c, const char *db, CombErr *err);
int sql_authz_admin(SqlStmtCtx *c, CombErr *err);
/* Every role granted to the user, directly or through roles. */
int sql_authz_granted_roles(SqlStmtCtx *c, char ***names, int *n,
                            CombErr *err);
/* Whether name is one of names[0..n) (roles as granted). */
bool sql_authz_has_name(char *const *names, int n, const char *name);
/* Whether the user may SET ROLE ADMIN (hive.users.in.admin.role, or
 * admin among granted[0..n)). */
bool sql_authz_admin_user(SqlStmtCtx *c, char *const *granted, int n);
/* The current roles (public included) and whether admin is one. */
int sql_authz_current_roles(SqlStmtCtx *c, char ***roles, int *n,
                            bool *admin, CombErr *err);
/* The AST_PRIV_* bit of SELECT / INSERT / UPDATE / DELETE (0 for other
 * words), and the name of bit i. */
unsigned sql_authz_priv_bit(const char *name);
const char *sql_authz_priv_name(int i);

/* Open the statement's transaction and take its snapshot (idempotent). */
int sql_txn_begin(SqlStmtCtx *c, CombErr *err);

/* Error with Hive's number and the statement position "Line L:C " (the
 * column printed 0-based, as Hive prints it). */
int sql_err_at(CombErr *err, int code, int hive_code, AstPos pos,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* May c send rows or lines to a sink?  Only the statement's own context
 * may: a parallel copy's (SqlStmtCtx.par_copy) runs on a worker thread
 * beside the others, while a sink is one thread's and takes rows in the
 * order one thread makes them.  A copy that gets here is a bug in comb,
 * refused as COMB_EINTERNAL (in every build: never an abort). */
int sql_sink_allowed(const SqlStmtCtx *c, CombErr *err);
/* Whether the statement is to stop: sql_cancel_request, or
 * sql_session_cancel of its session. */
bool sql_stmt_cancelled(const SqlStmtCtx *c);
/* An informational line through the statement's sink (nothing when the
 * sink takes none), refused for a parallel copy as sql_sink_allowed. */
int sql_stmt_info(const SqlStmtCtx *c, const char *line, CombErr *err);

/* Commit the statement's transaction (files must already be durable). */
int sql_txn_commit(SqlStmtCtx *c, CombErr *err);

/* ----------------------------------------- explicit transactions (txn.c) */

/* Called by sql_txn_begin before it opens c's txn: the first statement
 * of an explicit transaction opens one that may write. */
void sql_txn_opening(SqlStmtCtx *c);
/* Called by sql_txn_begin after it opened c's txn: inside an explicit
 * transaction the session keeps it for the statements to come. */
void sql_txn_adopt(SqlStmtCtx *c);
/* Before sql_locks_plan: refuse what an explicit transaction does not
 * allow (DDL, any statement after a failure, writes in a READ ONLY one),
 * set c->stmt_base, and once its txn is open make c run in it
 * (SqlStmtCtx.explicit_txn), so that sql_locks_plan takes c's locks for
 * it before c reads. */
int sql_txn_statement_check(SqlStmtCtx *c, CombErr *err);
/* After the statement (rc its result): inside an explicit transaction a
 * failure aborts the metastore txn and leaves the transaction failed. */
void sql_txn_statement_end(SqlStmtCtx *c, int rc, const CombErr *err);
/* Before a statement of an explicit transaction requests locks
 * (c->locks.items[n_requested..n)): drop those its txn holds already
 * (the same object, or its table, at least as strong), so that it never
 * queues behind a waiter for a lock it holds itself (a deadlock with
 * itself), and remember the rest as held. */
int sql_txn_locks_filter(SqlStmtCtx *c, CombErr *err);
/* BEGIN / START TRANSACTION, COMMIT, ROLLBACK. */
int sql_exec_txn(SqlStmtCtx *c, CombErr *err);
/* Roll back the session's open explicit transaction, if any (closing). */
void sql_txn_session_end(SqlSession *s);
/* The statement id of a writer's deltas: c->stmt_base + local (local:
 * the writer's number within the statement), recorded as used. */
int sql_txn_stmt_id(SqlStmtCtx *c, int local, int *out, CombErr *err);
/* A writer of t is opening: refused inside an explicit transaction for a
 * table that cannot roll back (not transactional) or was overwritten
 * (INSERT OVERWRITE) earlier in it. */
int sql_txn_check_write(SqlStmtCtx *c, const struct SqlTable *t,
                        CombErr *err);
/* Record that the explicit transaction wrote t under writeid. */
int sql_txn_note_write(SqlStmtCtx *c, const struct SqlTable *t,
                       int64_t writeid, bool overwrite, CombErr *err);
/* Mark in wil (t's write-id list for c) the explicit transaction's own
 * earlier write id, so the statement does not read its own output. */
void sql_txn_own_writes(const SqlStmtCtx *c, const struct SqlTable *t,
                        CombWriteIdList *wil);

/* Fault points for crash tests: when conf comb.test.crash.point equals
 * `name`, the process exits immediately (as if killed). */
void sql_crash_point(SqlStmtCtx *c, const char *name);
/* Test builds: when conf comb.test.pause.point equals `name`, make the
 * file <comb.test.pause.file>.at and wait there until the file
 * comb.test.pause.file exists: "after_snapshot" (the txn open, its locks
 * granted, nothing read yet) and "before_commit" (files durable, locks
 * still held), for concurrency tests. */
void sql_pause_point(SqlStmtCtx *c, const char *name);

/* ------------------------------------------------- locks (txn_locks.c) */

/* Before a statement runs: Hive's choice of locks for what it writes
 * (DbTxnManager / AcidUtils.makeLockComponents), whether it is read-only,
 * and for DDL that takes locks the transaction itself (opened at once).
 * Errors: Hive's 10264/10265/10294 when the settings choose no ACID
 * transaction manager and the statement writes a transactional table. */
int sql_locks_plan(SqlStmtCtx *c, CombErr *err);
/* A table the statement reads (plan/catalog.c): a SHARED_READ component
 * for a managed table (views, external and temporary tables are not
 * locked), unless the statement locks it already for a write; once the
 * txn is open, requested and waited for at once.  Hive's 10264/10265 for
 * a transactional table when the settings choose no ACID manager. */
int sql_locks_note_read(SqlStmtCtx *c, const MsTable *t, CombErr *err);
/* A scan of t in the statement's plan (exec/op_scan.c, as it is built):
 * its filter, once final, tells which partitions a read of t locks. */
int sql_locks_note_scan(SqlStmtCtx *c, const struct SqlTable *t,
                        struct BoundExpr *const *filter, CombErr *err);
/* Plan the read locks of the partitioned tables read (Hive 4's
 * makeLockComponents over the pruned partitions): SHARED_READ on each
 * partition the noted scans of a table read, or on the table when one
 * of them reads it whole (no partition pruned), none matched, a table
 * has no scan noted, or the count reaches hive.lock.partition.threshold.
 * Called as the txn opens, and before a scan reads in a txn already
 * open (an explicit transaction), then requesting them. */
int sql_locks_settle(SqlStmtCtx *c, CombErr *err);
/* The units a scan of t is about to read: any partition its read lock
 * was not narrowed to (pruning that does not repeat, a partition added
 * meanwhile) is locked now. */
int sql_locks_cover(SqlStmtCtx *c, const struct SqlTable *t,
                    const struct SqlUnit *units, int n, CombErr *err);
/* The existing partitions names[0..n) of t a DROP PARTITION matched:
 * EXCLUSIVE on each and none on the table (Hive 4), requested with the
 * statement's txn (opened now) and waited for; nothing for a table that
 * is not locked (views, external, temporary). */
int sql_locks_note_dropped(SqlStmtCtx *c, const MsTable *t, char **names,
                           int n, CombErr *err);
/* Open the statement's txn (READ_ONLY unless it writes) with its planned
 * locks, wait for them (hive.lock.numretries, hive.lock.sleep.between.
 * retries; past that Hive's 10307 and nothing held, the txn aborted) and
 * have the heartbeater keep it alive.  Snapshot: see sql_txn_begin. */
int sql_txn_open_locked(SqlStmtCtx *c, CombErr *err);
/* Request the components planned since the last request for the open
 * txn and wait for them (a later statement of an explicit transaction, or
 * a table resolved after the txn opened). */
int sql_locks_acquire(SqlStmtCtx *c, CombErr *err);
/* Lock types by strength: SHARED_READ 0 < SHARED_WRITE < EXCL_WRITE <
 * EXCLUSIVE 3. */
int sql_lock_type_rank(MsLockType t);
/* Commit the open txn (ms_txn_commit, or ms_txn_commit_excl under
 * hive.txn.xlock.write); the metastore releases its locks. */
int sql_txn_commit_locked(SqlStmtCtx *c, CombErr *err);
/* The txn is over (committed or aborted): stop heartbeating it. */
void sql_txn_forget(SqlSession *s, int64_t txnid);
/* Apply the settings the session's transaction machinery reads
 * (hive.txn.timeout, metastore.acid.housekeeper.interval) to its
 * heartbeater; called after each SET. */
void sql_txn_settings_changed(SqlSession *s);
/* A boolean setting: "true" / "false" in any case; unset, empty or
 * anything else: dflt. */
bool sql_conf_bool(const SqlSession *s, const char *key, bool dflt);
/* A count setting: a non-negative decimal number; unset, empty or
 * anything else: dflt. */
int64_t sql_conf_int(const SqlSession *s, const char *key, int64_t dflt);
/* A duration setting in milliseconds, Hive's time values (common/duration.h):
 * "300", "300s", "5000ms", "2m", ...; a bare number is in unit_ms; unset,
 * bad or negative: dflt_ms. */
int64_t sql_conf_duration_ms(const SqlSession *s, const char *key,
                             int64_t dflt_ms, int64_t unit_ms);
/* <warehouse>/comb-site.conf: key=value lines (# comments) applied as
 * settings when the session opens, before --hiveconf and SET. */
int sql_site_conf_load(SqlSession *s, CombErr *err);
/* Test builds: sleep as many milliseconds as conf `key` says (none when
 * unset), e.g. comb.test.sleep.after.snapshot.ms: a reader that holds its
 * snapshot open while others compact and clean. */
void sql_sleep_point(SqlStmtCtx *c, const char *key);

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
