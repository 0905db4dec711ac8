/*
 * session.h - a SQL session on one warehouse: the entry point of the sql/
 * layer for the shell, the server and tests.
 *
 * A session owns its metastore connection, its current database and its
 * settings (SET, --hiveconf, --hivevar).  Each statement runs in its own
 * transaction (autocommit, as in Hive): the transaction is opened before
 * the statement reads anything and committed after its files are durable,
 * or aborted on any error, so a failed statement changes nothing visible.
 * Between BEGIN (START TRANSACTION) and COMMIT or ROLLBACK the statements
 * share one transaction instead (txn.c); closing the session rolls back
 * one left open.
 *
 * Results stream to a SqlSink one batch at a time.  Ownership: the session
 * owns everything it allocates; sink callbacks borrow the batch and the
 * column names only for the duration of the call.  One thread per session.
 */
#ifndef COMB_SQL_SESSION_H
#define COMB_SQL_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "common/batch.h"
#include "common/err.h"

typedef struct SqlSession SqlSession;

/* Where a statement's rows go.  Any callback may be NULL. */
typedef struct SqlSink {
    void *ctx;
    /* Column names and kinds of the result, before the first batch. */
    int (*begin)(void *ctx, int n_cols, const char *const *names,
                 const CombTypeKind *kinds, CombErr *err);
    /* Live rows of b (respect b->use_sel); columns 0..n_cols-1. */
    int (*batch)(void *ctx, const CombBatch *b, CombErr *err);
    int (*end)(void *ctx, CombErr *err);
    /* An informational line ("key=value" for SET key). */
    int (*info)(void *ctx, const char *line, CombErr *err);
} SqlSink;

typedef struct SqlSessionOptions {
    const char *warehouse;   /* warehouse directory; created if missing */
    const char *user;        /* recorded in TXNS; NULL = $USER or "comb" */
    const char *metastore;   /* NULL: the SQLite file metastore.db in the
                                warehouse; else a file or a PostgreSQL URI
                                (ms_open), comb.metastore.url */
    bool authorize;          /* check every statement's privileges (Hive's
                                SQL-standard authorization; the server's
                                hive.security.authorization.enabled) */
    const char *admin_users; /* hive.users.in.admin.role: users who may SET
                                ROLE ADMIN (comma-separated; may be NULL) */
} SqlSessionOptions;

int sql_session_open(const SqlSessionOptions *opt, SqlSession **out,
                     CombErr *err);
void sql_session_close(SqlSession *s);  /* NULL ok */

/* Parse and run one statement: text[0..len), with or without ';' (bytes
 * with a length: a NUL inside is a syntax error, not the end).  Variables
 * ${name}, ${hivevar:name}, ${hiveconf:name} are substituted first. */
int sql_session_execute(SqlSession *s, const char *text, size_t len,
                        const SqlSink *sink, CombErr *err);

/* Ask the statement running now to stop (async-signal-safe: a SIGINT
 * handler calls it): its next batch fails with "Query was cancelled", so
 * it rolls back as any failed statement does.  Each statement starts
 * with no request. */
void sql_cancel_request(void);
bool sql_cancel_requested(void);
/* The same for session s only, from any thread (a server cancelling one
 * client's query while others run).  Unlike sql_cancel_request, the
 * request stays until sql_session_cancel_reset: a cancel that comes
 * before the statement starts is not lost, and the caller, which knows
 * when a new statement is asked for, resets it then. */
void sql_session_cancel(SqlSession *s);
void sql_session_cancel_reset(SqlSession *s);

/* Settings, as SET key=value / --hiveconf / --hivevar. */
int sql_session_set_conf(SqlSession *s, const char *key, const char *value,
                         CombErr *err);
int sql_session_set_var(SqlSession *s, const char *key, const char *value,
                        CombErr *err);
/* Current value of a conf key, or NULL. */
const char *sql_session_get_conf(const SqlSession *s, const char *key);
/* The directory the session's temporary files go to: comb.exec.spill.dir,
 * else $TMPDIR, else /tmp. */
const char *sql_session_spill_dir(const SqlSession *s);
/* hive.txn.timeout in milliseconds as the session's settings have it
 * (comb-site.conf, --hiveconf, SET; Hive's 300 s when unset): what other
 * clients of the warehouse, e.g. `comb stream`, heartbeat by. */
int64_t sql_session_txn_timeout_ms(const SqlSession *s);

/* The session's background heartbeater started now rather than with its
 * first transaction: it runs the warehouse's transaction housekeeping
 * every metastore.acid.housekeeper.interval (transactions whose
 * heartbeats stopped more than hive.txn.timeout ago, a process that died,
 * are aborted and their locks released), as long as the session is open.
 * `comb serve` keeps one such session. */
int sql_session_housekeep(SqlSession *s, CombErr *err);

/* Current database name. */
const char *sql_session_database(const SqlSession *s);

/* The session's metastore connection (the server's metadata calls read the
 * catalog through it); the session owns it. */
struct Ms *sql_session_metastore(SqlSession *s);

/* The session's explicit transaction (BEGIN ... COMMIT / ROLLBACK). */
typedef enum SqlTxnState {
    SQL_TXN_NONE,           /* autocommit: every statement its own txn */
    SQL_TXN_OPEN,           /* inside BEGIN ... */
    SQL_TXN_FAILED          /* a statement failed: the transaction is
                               aborted, only ROLLBACK / COMMIT end it */
} SqlTxnState;
/* *txnid (may be NULL): its metastore txn, 0 before its first statement. */
SqlTxnState sql_session_txn_state(const SqlSession *s, int64_t *txnid);

/* Test hook: a named point at which the statement stops as if killed
 * (set with conf "comb.test.crash.point"); see exec_dml.c. */

#endif
