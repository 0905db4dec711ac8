/*
 * hs2_service.c - TCLIService's calls: sessions (each a SqlSession of its
 * own, with the client's set:hiveconf: / set:hivevar: / use:database
 * overlays), statements run to their end within ExecuteStatement, their
 * rows and log lines kept in the operation until fetched.
 *
 * Handles are 16 random bytes (guid) and 16 more (secret); a call with a
 * handle the server does not know, or whose secret differs, is answered
 * INVALID_HANDLE_STATUS.  The registry of sessions is process-wide under
 * one lock; a session's own lock keeps two calls on it from running at
 * once (one statement per session at a time, as a SqlSession requires).
 */
#include "server/hs2_int.h"
#include "rpc/rpc_serve.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "common/alloc.h"
#include "sql/session.h"

#include <thrift/c_glib/thrift_application_exception.h>

#define HANDLE_LEN 16

typedef struct Hs2Op {
    unsigned char id[HANDLE_LEN], secret[HANDLE_LEN];
    Hs2TOperationType type;
    bool has_result;           /* as the handle and the status say it;
                                  under the registry's lock */
    bool began;                /* the statement gave a result set */
    Hs2Result result;
    char **log;                /* info lines of the statement */
    int n_log, log_next;
    Hs2TOperationState state;  /* under the registry's lock while an
                                  asynchronous statement runs */
    CombErr err;               /* when state is ERROR_STATE */
    /* under the registry's lock, for the time-outs: */
    int64_t touched_ms;        /* its last call, or the end of its
                                  statement */
    int64_t deadline_ms;       /* a running statement's end, or 0 */
    int64_t timeout_s;         /* the query time-out that set it */
    bool timed_out;            /* cancelled at the deadline */
    bool expired;              /* idle for the time-out: cancelled, and
                                  closed once its session is free */
    struct Hs2Op *next;
} Hs2Op;

typedef struct Hs2Session {
    unsigned char id[HANDLE_LEN], secret[HANDLE_LEN];
    const void *owner;         /* the handler of the connection that
                                  opened it */
    SqlSession *sql;
    bool by_column;            /* protocol V6 or later: columnar row sets */
    pthread_mutex_t lock;      /* guards busy */
    pthread_cond_t idle;       /* busy went false */
    bool busy;                 /* a call, or an asynchronous statement,
                                  uses the session: others wait */
    int refs;                  /* calls holding it (registry's lock) */
    int64_t touched_ms;        /* a call's start or end, or an operation
                                  closed by its time-out (registry's
                                  lock) */
    bool closed;               /* out of the registry; freed by the last
                                  call that holds it */
    Hs2Op *ops;                /* changed under the registry's lock */
    char user[HS2_USER_MAX + 1];   /* for the status page */
    int64_t opened_ms, used_ms;    /* epoch ms; used: under lock */
    struct Hs2Session *next;
} Hs2Session;

static struct {
    pthread_mutex_t lock;
    const Hs2Options *opt;
    const Hs2Security *security;
    Hs2Session *sessions;
    int workers;               /* threads of asynchronous statements */
    pthread_cond_t workers_done;
    struct AsyncRun *queue, **queue_end;   /* statements waiting for one */
    int queued;
    const Hs2Limits *lim;
    bool stopping;             /* no new sessions or statements */
    SqlSession *own;           /* the server's: its housekeeping */
    pthread_t keeper;          /* the time-outs' thread */
    pthread_cond_t wake;       /* for the keeper (monotonic clock) */
    bool keeper_stop;
} reg = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, 0,
         PTHREAD_COND_INITIALIZER};

/* ------------------------------------------------------------ handles */

static void new_handle(unsigned char *id, unsigned char *secret)
{
    unsigned char b[2 * HANDLE_LEN];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n > 0)
            got += (size_t)n;
    }
    memcpy(id, b, HANDLE_LEN);
    memcpy(secret, b + HANDLE_LEN, HANDLE_LEN);
}

static void put_bytes(GByteArray **a, const unsigned char *p)
{
    if (*a)
        g_byte_array_unref(*a);
    *a = g_byte_array_sized_new(HANDLE_LEN);
    g_byte_array_append(*a, p, HANDLE_LEN);
}

static void put_handle(Hs2THandleIdentifier *h, const unsigned char *id,
                       const unsigned char *secret)
{
    put_bytes(&h->guid, id);
    put_bytes(&h->secret, secret);
}

static bool same_handle(const Hs2THandleIdentifier *h, const unsigned char *id,
                        const unsigned char *secret)
{
    return h && h->guid && h->secret && h->guid->len == HANDLE_LEN &&
           h->secret->len == HANDLE_LEN &&
           memcmp(h->guid->data, id, HANDLE_LEN) == 0 &&
           memcmp(h->secret->data, secret, HANDLE_LEN) == 0;
}

/* s held for a call and locked (the caller holds the registry's lock,
 * which this drops). */
static Hs2Session *hold_locked(Hs2Session *s)
{
    s->refs++;
    s->touched_ms = hs2_now_ms();
    pthread_mutex_unlock(&reg.lock);
    pthread_mutex_lock(&s->lock);
    while (s->busy)
        pthread_cond_wait(&s->idle, &s->lock);
    s->busy = true;
    pthread_mutex_unlock(&s->lock);
    return s;
}

static void session_free(Hs2Session *s);

/* The end of a call's hold on s: unlocked, and freed when it was closed
 * and this was the last hold. */
static void session_release(Hs2Session *s)
{
    bool last;
    pthread_mutex_lock(&s->lock);
    s->busy = false;
    s->used_ms = hs2_epoch_ms();
    pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&reg.lock);
    last = --s->refs == 0 && s->closed;
    s->touched_ms = hs2_now_ms();
    pthread_mutex_unlock(&reg.lock);
    if (last)
        session_free(s);
}

/* The session of handle h, or NULL (under the registry's lock). */
static Hs2Session *session_find_locked(const Hs2TSessionHandle *h)
{
    for (Hs2Session *s = reg.sessions; s && h; s = s->next)
        if (same_handle(h->sessionId, s->id, s->secret))
            return s;
    return NULL;
}

/* The session of handle h, held and locked; NULL when unknown. */
static Hs2Session *session_take(const Hs2TSessionHandle *h)
{
    Hs2Session *s;
    pthread_mutex_lock(&reg.lock);
    if ((s = session_find_locked(h)))
        return hold_locked(s);
    pthread_mutex_unlock(&reg.lock);
    return NULL;
}

static bool has_op(const Hs2Session *s, const Hs2Op *o)
{
    for (const Hs2Op *p = s->ops; p; p = p->next)
        if (p == o)
            return true;
    return false;
}

/* The operation of handle h and its session, or NULL (the caller holds
 * the registry's lock: what it finds stays while it does). */
static Hs2Op *op_find_locked(const Hs2TOperationHandle *h, Hs2Session **sess)
{
    for (Hs2Session *s = reg.sessions; s && h; s = s->next)
        for (Hs2Op *p = s->ops; p; p = p->next)
            if (same_handle(h->operationId, p->id, p->secret)) {
                *sess = s;
                return p;
            }
    return NULL;
}

/* The operation of handle h and its session (held and in use); NULL when
 * unknown, or closed while the session was waited for. */
static Hs2Op *op_take(const Hs2TOperationHandle *h, Hs2Session **sess)
{
    Hs2Op *o;
    Hs2Session *s = NULL;
    bool still;
    *sess = NULL;
    pthread_mutex_lock(&reg.lock);
    o = op_find_locked(h, &s);
    if (!o) {
        pthread_mutex_unlock(&reg.lock);
        return NULL;
    }
    o->touched_ms = hs2_now_ms();
    hold_locked(s);
    pthread_mutex_lock(&reg.lock);
    still = has_op(s, o);
    pthread_mutex_unlock(&reg.lock);
    if (!still) {
        session_release(s);
        return NULL;
    }
    *sess = s;
    return o;
}

/* ------------------------------------------------------------- status */

static void status_ok(Hs2TStatus *st)
{
    st->statusCode = HS2_T_STATUS_CODE_SUCCESS_STATUS;
}

static void status_error(Hs2TStatus *st, Hs2TStatusCode code, int hive_code,
                         const char *sql_state, const char *msg)
{
    st->statusCode = code;
    g_free(st->errorMessage);
    st->errorMessage = g_strdup(msg);
    st->__isset_errorMessage = TRUE;
    g_free(st->sqlState);
    st->sqlState = g_strdup(sql_state);
    st->__isset_sqlState = TRUE;
    st->errorCode = hive_code;
    st->__isset_errorCode = TRUE;
}

/* SQLSTATE of a failed statement, as Hive gives them: 42000 for SQL the
 * compiler refuses, 08S01 for what failed while it ran. */
static const char *sql_state_of(const CombErr *err)
{
    return err->code == COMB_ESYNTAX || err->code == COMB_ESEMANTIC ||
                   err->code == COMB_ENOTFOUND || err->code == COMB_EEXISTS ||
                   err->code == COMB_EDENIED
               ? "42000"
               : "08S01";
}

/* A failed statement's message and error number as Hive gives them. */
static int failure_text(const CombErr *err, char *msg, size_t n)
{
    snprintf(msg, n, "Error while processing statement: FAILED: %s", err->msg);
    return err->hive_code ? err->hive_code : 40000;
}

static void status_failed(Hs2TStatus *st, const CombErr *err)
{
    char msg[COMB_ERR_MSG_MAX + 64];
    int code = failure_text(err, msg, sizeof msg);
    status_error(st, HS2_T_STATUS_CODE_ERROR_STATUS, code, sql_state_of(err),
                 msg);
}

/* What a failed operation reports: its statement's error, or for one that
 * ran past its query time-out the text Hive's JDBC driver gives (Hive's
 * server says TIMEDOUT_STATE only); its Hive error number (0: none). */
static int op_failure(const Hs2Op *o, char *msg, size_t n,
                      const char **sql_state)
{
    if (o->state == HS2_T_OPERATION_STATE_TIMEDOUT_STATE) {
        snprintf(msg, n, "Query timed out after %lld seconds",
                 (long long)o->timeout_s);
        *sql_state = "HYT00";
        return 0;
    }
    *sql_state = sql_state_of(&o->err);
    return failure_text(&o->err, msg, n);
}

static void status_op_failed(Hs2TStatus *st, const Hs2Op *o)
{
    char msg[COMB_ERR_MSG_MAX + 64];
    const char *sql_state;
    int code = op_failure(o, msg, sizeof msg, &sql_state);
    status_error(st, HS2_T_STATUS_CODE_ERROR_STATUS, code, sql_state, msg);
}

static void status_invalid(Hs2TStatus *st, const char *what)
{
    char msg[128];
    snprintf(msg, sizeof msg, "Invalid %s handle", what);
    status_error(st, HS2_T_STATUS_CODE_INVALID_HANDLE_STATUS, 0, "HY000", msg);
}

/* The session or operation a call names, locked (op_for: with its
 * session in *s); when unknown, NULL and INVALID_HANDLE_STATUS in st. */
static Hs2Session *session_for(const Hs2TSessionHandle *h, Hs2TStatus *st)
{
    Hs2Session *s = session_take(h);
    if (!s)
        status_invalid(st, "session");
    return s;
}

static Hs2Op *op_for(const Hs2TOperationHandle *h, Hs2Session **s,
                     Hs2TStatus *st)
{
    Hs2Op *o = op_take(h, s);
    if (!o)
        status_invalid(st, "operation");
    return o;
}

/* ----------------------------------------------------------- sessions */

/* The client's configuration applied: set:hiveconf:K, set:hivevar:K (and
 * plain K, a hiveconf), use:database. */
static int apply_overlay(SqlSession *s, GHashTable *conf, CombErr *err)
{
    GHashTableIter it;
    gpointer k, v;
    const char *use = NULL;
    int rc = COMB_OK;
    if (!conf)
        return COMB_OK;
    g_hash_table_iter_init(&it, conf);
    while (!rc && g_hash_table_iter_next(&it, &k, &v)) {
        const char *key = k, *val = v;
        if (!strncmp(key, "set:hiveconf:", 13))
            rc = sql_session_set_conf(s, key + 13, val, err);
        else if (!strncmp(key, "set:hivevar:", 12))
            rc = sql_session_set_var(s, key + 12, val, err);
        else if (!strcmp(key, "use:database"))
            use = val;
        else if (strncmp(key, "set:", 4))
            rc = sql_session_set_conf(s, key, val, err);
    }
    if (!rc && use && strcasecmp(use, "default")) {
        char stmt[512];
        int n = snprintf(stmt, sizeof stmt, "USE `%s`", use);
        rc = n < (int)sizeof stmt
                 ? sql_session_execute(s, stmt, (size_t)n, NULL, err)
                 : comb_err(err, COMB_EINVALID, "database name too long");
    }
    return rc;
}

/* The server's --hiveconf pairs but its secrets: a session's first
 * settings. */
static int apply_server_conf(SqlSession *sql, CombErr *err)
{
    const Hs2Options *opt = reg.opt;
    int rc = COMB_OK;
    for (int i = 0; !rc && i < opt->n_conf; i++)
        if (!hs2_conf_is_server_only(opt->conf_keys[i]))
            rc = sql_session_set_conf(sql, opt->conf_keys[i],
                                      opt->conf_values[i], err);
    return rc;
}

/* user: the connection's authenticated name, which OpenSession's
 * username cannot override ("": none, the username counts). */
static int session_new(const Hs2TOpenSessionReq *req, const void *owner,
                       const char *user, Hs2Session **out, CombErr *err)
{
    const Hs2Options *opt = reg.opt;
    SqlSessionOptions so = {opt->warehouse,
                            *user ? user
                            : req->__isset_username ? req->username : NULL,
                            opt->metastore, reg.security->authorize,
                            reg.security->admin_users};
    Hs2Session *s = comb_calloc(1, sizeof *s);
    int rc;
    if (!s)
        return comb_err_nomem(err);
    rc = sql_session_open(&so, &s->sql, err);
    if (!rc)
        rc = apply_server_conf(s->sql, err);
    if (!rc)
        rc = apply_overlay(s->sql, req->__isset_configuration
                                       ? req->configuration : NULL, err);
    if (rc) {
        sql_session_close(s->sql);
        comb_free(s);
        return rc;
    }
    new_handle(s->id, s->secret);
    s->owner = owner;
    snprintf(s->user, sizeof s->user, "%s", so.user ? so.user : "");
    s->opened_ms = s->used_ms = hs2_epoch_ms();
    s->by_column = req->client_protocol >= HS2_T_PROTOCOL_VERSION_HIVE_CLI_SERVICE_PROTOCOL_V6;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    pthread_mutex_lock(&reg.lock);
    s->touched_ms = hs2_now_ms();
    s->next = reg.sessions;
    reg.sessions = s;
    pthread_mutex_unlock(&reg.lock);
    *out = s;
    return COMB_OK;
}

static void op_free(Hs2Op *o)
{
    if (!o)
        return;
    hs2_result_free(&o->result);
    for (int i = 0; i < o->n_log; i++)
        comb_free(o->log[i]);
    comb_free(o->log);
    comb_free(o);
}

/* Out of the registry and held by no call: closed and freed; an open
 * transaction rolls back. */
static void session_free(Hs2Session *s)
{
    while (s->ops) {
        Hs2Op *o = s->ops;
        s->ops = o->next;
        op_free(o);
    }
    sql_session_close(s->sql);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->idle);
    comb_free(s);
}

/* s out of the registry (the caller holds its lock): freed when the
 * last call holding it ends. */
static void session_unlink_locked(Hs2Session *s)
{
    for (Hs2Session **p = &reg.sessions; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    s->closed = true;
}

/* --------------------------------------------------------- statements */

/* What a statement's sink writes to: its operation, whose result spills
 * (beyond comb.server.result.memory) where its session's temporary files
 * go. */
typedef struct StmtSink {
    Hs2Session *s;
    Hs2Op *o;
} StmtSink;

static int sink_begin(void *ctx, int n_cols, const char *const *names,
                      const CombTypeKind *kinds, CombErr *err)
{
    StmtSink *k = ctx;
    int rc = hs2_result_begin(&k->o->result, n_cols, names, kinds, err);
    k->o->began = true;
    return rc ? rc : hs2_result_budget(&k->o->result, reg.lim->result_memory,
                                       sql_session_spill_dir(k->s->sql), err);
}

static int sink_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    return hs2_result_add(&((StmtSink *)ctx)->o->result, b, err);
}

static int sink_info(void *ctx, const char *line, CombErr *err)
{
    Hs2Op *o = ((StmtSink *)ctx)->o;
    char **log = comb_realloc(o->log, (size_t)(o->n_log + 1) * sizeof *log);
    if (!log)
        return comb_err_nomem(err);
    o->log = log;
    if (!(o->log[o->n_log] = comb_strdup(line)))
        return comb_err_nomem(err);
    o->n_log++;
    return COMB_OK;
}

/* A new operation (not yet in its session's list); NULL when out of
 * memory. */
static Hs2Op *op_new(Hs2TOperationType type)
{
    Hs2Op *o = comb_calloc(1, sizeof *o);
    if (o) {
        new_handle(o->id, o->secret);
        o->type = type;
        o->touched_ms = hs2_now_ms();
    }
    return o;
}

/* o into s's list: the registry's, since op_take walks it from other
 * sessions' calls. */
static void op_link(Hs2Session *s, Hs2Op *o)
{
    pthread_mutex_lock(&reg.lock);
    o->next = s->ops;
    s->ops = o;
    pthread_mutex_unlock(&reg.lock);
}

/* o out of s's list (s held by the caller, so nothing else uses o). */
static void op_unlink(Hs2Session *s, Hs2Op *o)
{
    pthread_mutex_lock(&reg.lock);
    for (Hs2Op **p = &s->ops; *p; p = &(*p)->next)
        if (*p == o) {
            *p = o->next;
            break;
        }
    pthread_mutex_unlock(&reg.lock);
}

/* SET's lines as its result set (column "set"), as HiveServer2 answers
 * SET (the embedded CLI prints them as lines). */
static bool is_set_statement(const char *sql)
{
    while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '\r')
        sql++;
    return !strncasecmp(sql, "set", 3) &&
           (sql[3] == '\0' || sql[3] == ' ' || sql[3] == '\t' || sql[3] == '\n' ||
            sql[3] == ';');
}

static int set_lines_as_result(Hs2Op *o, CombErr *err)
{
    static const char *const names[] = {"set"};
    static const CombTypeKind kinds[] = {COMB_T_STRING};
    CombBatch b;
    int rc = hs2_result_begin(&o->result, 1, names, kinds, err);
    if (rc || comb_batch_init(&b, 1, kinds, COMB_BATCH_SIZE))
        return rc ? rc : comb_err_nomem(err);
    for (int done = 0; !rc && done < o->n_log; done += b.n_rows) {
        b.n_rows = o->n_log - done < COMB_BATCH_SIZE ? o->n_log - done
                                                     : COMB_BATCH_SIZE;
        for (int j = 0; j < b.n_rows; j++)
            b.cols[0].str[j] = (CombStr){o->log[done + j],
                                         (uint32_t)strlen(o->log[done + j])};
        rc = hs2_result_add(&o->result, &b, err);
    }
    comb_batch_free(&b);
    o->began = rc == COMB_OK;
    return rc;
}

/* o's deadline, when its statement sql has a time-out: the request's
 * (queryTimeout, seconds) or the session's hive.query.timeout.seconds,
 * the shorter one (as Hive's); the keeper cancels it then.  SET has none,
 * so that a malformed value, which fails the other statements, can be
 * set right. */
static int start_deadline(Hs2Session *s, Hs2Op *o, const char *sql,
                          int64_t request_s, CombErr *err)
{
    const char *v = sql_session_get_conf(s->sql, "hive.query.timeout.seconds");
    int64_t conf_ms = 0, t = request_s > 0 ? request_s : 0;
    if (is_set_statement(sql))
        return COMB_OK;
    if (v && *v && !comb_duration_ms(v, 1000, &conf_ms))
        return comb_err(err, COMB_EINVALID, "hive.query.timeout.seconds=%s: "
                        "expected a time such as 30 (seconds), 30s or 5m", v);
    if (conf_ms / 1000 > 0 && (t == 0 || conf_ms / 1000 < t))
        t = conf_ms / 1000;
    if (t == 0)
        return COMB_OK;
    pthread_mutex_lock(&reg.lock);
    o->timeout_s = t;
    o->deadline_ms = hs2_now_ms() + t * 1000;
    pthread_cond_signal(&reg.wake);
    pthread_mutex_unlock(&reg.lock);
    return COMB_OK;
}

/* The state o ends in when its statement failed (under the registry's
 * lock: the keeper marks time-outs). */
static Hs2TOperationState failed_state_locked(const Hs2Op *o)
{
    if (o->err.code != COMB_ECANCELLED)
        return HS2_T_OPERATION_STATE_ERROR_STATE;
    return o->timed_out ? HS2_T_OPERATION_STATE_TIMEDOUT_STATE
                        : HS2_T_OPERATION_STATE_CANCELED_STATE;
}

/* How the status page names an operation's end. */
static const char *state_name(Hs2TOperationState st)
{
    switch (st) {
    case HS2_T_OPERATION_STATE_FINISHED_STATE: return "FINISHED";
    case HS2_T_OPERATION_STATE_CANCELED_STATE: return "CANCELED";
    case HS2_T_OPERATION_STATE_TIMEDOUT_STATE: return "TIMEDOUT";
    default: return "ERROR";
    }
}

/* Run o's statement on s to its end; its final state set under the
 * registry's lock (GetOperationStatus reads it without the session). */
static void execute(Hs2Session *s, Hs2Op *o, const char *sql,
                    GHashTable *overlay, int64_t timeout_s)
{
    StmtSink k = {s, o};
    SqlSink sink = {&k, sink_begin, sink_batch, NULL, sink_info};
    Hs2Query *q = hs2_query_begin(s->user, sql);
    bool failed = apply_overlay(s->sql, overlay, &o->err) ||
                  start_deadline(s, o, sql, timeout_s, &o->err) ||
                  sql_session_execute(s->sql, sql, strlen(sql), &sink, &o->err) ||
                  (!o->began && o->n_log > 0 && is_set_statement(sql) &&
                   set_lines_as_result(o, &o->err)) ||
                  hs2_result_end(&o->result, &o->err);
    if (failed) {
        hs2_result_free(&o->result);
        o->began = false;
    }
    pthread_mutex_lock(&reg.lock);
    o->state = failed ? failed_state_locked(o) : HS2_T_OPERATION_STATE_FINISHED_STATE;
    o->has_result = o->began;
    o->deadline_ms = 0;
    o->touched_ms = hs2_now_ms();
    /* (the status page's log lock is taken under the registry's only) */
    hs2_query_end(q, state_name(o->state), o->began ? o->result.total : 0,
                  failed ? o->err.msg : NULL);
    pthread_mutex_unlock(&reg.lock);
}

/* o's statement runs or waits for a thread of the pool (under the
 * registry's lock). */
static bool op_active_locked(const Hs2Op *o)
{
    return o->state == HS2_T_OPERATION_STATE_RUNNING_STATE ||
           o->state == HS2_T_OPERATION_STATE_PENDING_STATE;
}

/* A new operation of s, running, in its list. */
static Hs2Op *op_start(Hs2Session *s)
{
    Hs2Op *o = op_new(HS2_T_OPERATION_TYPE_EXECUTE_STATEMENT);
    if (o) {
        o->state = HS2_T_OPERATION_STATE_RUNNING_STATE;
        /* before o can be named: a cancel of the session's last
         * statement that came after its end must not stop this one, and
         * one of this one before it starts must */
        sql_session_cancel_reset(s->sql);
        op_link(s, o);
    }
    return o;
}

/* An asynchronous statement, handed the session (held and in use) by
 * ExecuteStatement; it lets it go when done. */
typedef struct AsyncRun {
    Hs2Session *s;
    Hs2Op *o;
    char *sql;
    GHashTable *overlay;
    int64_t timeout_s;
    struct AsyncRun *next;     /* in the queue */
} AsyncRun;

static void async_free(AsyncRun *a)
{
    if (a->overlay)
        g_hash_table_unref(a->overlay);
    comb_free(a->sql);
    comb_free(a);
}

/* The next waiting statement, running from now on, or NULL (under the
 * registry's lock). */
static AsyncRun *dequeue_locked(void)
{
    AsyncRun *a = reg.queue;
    if (a) {
        if (!(reg.queue = a->next))
            reg.queue_end = &reg.queue;
        reg.queued--;
        a->o->state = HS2_T_OPERATION_STATE_RUNNING_STATE;
    }
    return a;
}

/* A thread of the pool (hive.server2.async.exec.threads): runs its
 * statement, then those waiting, and ends when none waits. */
static void *async_main(void *arg)
{
    AsyncRun *a = arg;
    while (a) {
        execute(a->s, a->o, a->sql, a->overlay, a->timeout_s);
        session_release(a->s);
        async_free(a);
        pthread_mutex_lock(&reg.lock);
        if (!(a = dequeue_locked()) && --reg.workers == 0)
            pthread_cond_broadcast(&reg.workers_done);
        pthread_mutex_unlock(&reg.lock);
    }
    return NULL;
}

typedef enum { ASYNC_STARTED, ASYNC_REFUSED, ASYNC_CANNOT } AsyncStart;

/* o's statement given to the pool, which takes over the caller's hold of
 * s: on a thread of its own while there are fewer than
 * hive.server2.async.exec.threads, else waiting (PENDING_STATE) in a
 * queue of hive.server2.async.exec.wait.queue.size; refused when that is
 * full.  ASYNC_CANNOT: no memory or thread (nothing changed: the caller
 * runs it itself). */
static AsyncStart start_async(Hs2Session *s, Hs2Op *o, const char *sql,
                              GHashTable *overlay, int64_t timeout_s)
{
    AsyncRun *a = comb_calloc(1, sizeof *a);
    AsyncStart how = ASYNC_STARTED;
    bool own_thread = false;
    if (!a || !(a->sql = comb_strdup(sql))) {
        comb_free(a);
        return ASYNC_CANNOT;
    }
    a->s = s;
    a->o = o;
    a->overlay = overlay ? g_hash_table_ref(overlay) : NULL;
    a->timeout_s = timeout_s;
    pthread_mutex_lock(&reg.lock);
    if (reg.workers < reg.lim->async_threads) {
        reg.workers++;
        own_thread = true;
    } else if (reg.queued < reg.lim->async_queue) {
        o->state = HS2_T_OPERATION_STATE_PENDING_STATE;
        *reg.queue_end = a;
        reg.queue_end = &a->next;
        reg.queued++;
    } else {
        how = ASYNC_REFUSED;
    }
    pthread_mutex_unlock(&reg.lock);
    if (own_thread && !rpc_thread_start(async_main, a)) {
        pthread_mutex_lock(&reg.lock);
        if (--reg.workers == 0)
            pthread_cond_broadcast(&reg.workers_done);
        pthread_mutex_unlock(&reg.lock);
        how = ASYNC_CANNOT;
    }
    if (how != ASYNC_STARTED)
        async_free(a);
    return how;
}

static void put_op_handle(Hs2TOperationHandle *h, const Hs2Op *o)
{
    put_handle(h->operationId, o->id, o->secret);
    h->operationType = o->type;
    h->hasResultSet = o->has_result;
}

/* -------------------------------------------------------------- calls */

typedef struct CombHs2Handler {
    Hs2TCLIServiceHandler parent;
    char user[HS2_USER_MAX + 1];   /* SASL's; "" none */
} CombHs2Handler;

typedef struct CombHs2HandlerClass {
    Hs2TCLIServiceHandlerClass parent;
} CombHs2HandlerClass;

G_DEFINE_TYPE(CombHs2Handler, comb_hs2_handler, HS2_TYPE_T_C_L_I_SERVICE_HANDLER)

/* While the server stops nothing new begins: an error status, true. */
static bool refused_for_stop(Hs2TStatus *st)
{
    bool stopping;
    pthread_mutex_lock(&reg.lock);
    stopping = reg.stopping;
    pthread_mutex_unlock(&reg.lock);
    if (stopping)
        status_error(st, HS2_T_STATUS_CODE_ERROR_STATUS, 0, "08S01",
                     "comb serve is stopping: it takes no new sessions or "
                     "statements");
    return stopping;
}

static gboolean open_session(Hs2TCLIServiceIf *iface, Hs2TOpenSessionResp **ret,
                             const Hs2TOpenSessionReq *req, GError **error)
{
    Hs2Session *s = NULL;
    CombErr err;
    (void)error;
    (*ret)->serverProtocolVersion =
        req->client_protocol < HS2_T_PROTOCOL_VERSION_HIVE_CLI_SERVICE_PROTOCOL_V10
            ? req->client_protocol
            : HS2_T_PROTOCOL_VERSION_HIVE_CLI_SERVICE_PROTOCOL_V10;
    if (refused_for_stop((*ret)->status))
        return TRUE;
    if (session_new(req, iface, ((CombHs2Handler *)iface)->user, &s, &err)) {
        status_failed((*ret)->status, &err);
        return TRUE;
    }
    put_handle((*ret)->sessionHandle->sessionId, s->id, s->secret);
    (*ret)->__isset_sessionHandle = TRUE;
    status_ok((*ret)->status);
    return TRUE;
}

static void session_end_locked(Hs2Session *s);

/* Closed at once, its running statement cancelled (as Hive's). */
static gboolean close_session(Hs2TCLIServiceIf *iface, Hs2TCloseSessionResp **ret,
                              const Hs2TCloseSessionReq *req, GError **error)
{
    Hs2Session *s;
    (void)iface;
    (void)error;
    pthread_mutex_lock(&reg.lock);
    if (!(s = session_find_locked(req->sessionHandle))) {
        pthread_mutex_unlock(&reg.lock);
        status_invalid((*ret)->status, "session");
        return TRUE;
    }
    session_end_locked(s);
    status_ok((*ret)->status);
    return TRUE;
}

static gboolean get_info(Hs2TCLIServiceIf *iface, Hs2TGetInfoResp **ret,
                         const Hs2TGetInfoReq *req, GError **error)
{
    Hs2Session *s = session_for(req->sessionHandle, (*ret)->status);
    const char *text = NULL;
    (void)iface;
    (void)error;
    if (!s)
        return TRUE;
    session_release(s);
    switch (req->infoType) {
    case HS2_T_GET_INFO_TYPE_CLI_SERVER_NAME:
    case HS2_T_GET_INFO_TYPE_CLI_DBMS_NAME:
        text = "Apache Hive";   /* what JDBC tools look for */
        break;
    case HS2_T_GET_INFO_TYPE_CLI_DBMS_VER:
        text = "4.0.0 (comb 0.1.0)";
        break;
    default:
        status_error((*ret)->status, HS2_T_STATUS_CODE_ERROR_STATUS, 0,
                     "HY096", "Unrecognized GetInfoType value");
        return TRUE;
    }
    (*ret)->infoValue->stringValue = g_strdup(text);
    (*ret)->infoValue->__isset_stringValue = TRUE;
    status_ok((*ret)->status);
    return TRUE;
}

/* The pool's queue is full: o closes and the client is told (Hive's
 * text), as for a statement that failed. */
static void refuse_async(Hs2Session *s, Hs2Op *o, Hs2TStatus *st)
{
    status_error(st, HS2_T_STATUS_CODE_ERROR_STATUS, 0, "HY000",
                 "The background threadpool cannot accept new task for "
                 "execution, please retry the operation "
                 "(hive.server2.async.exec.threads and "
                 "hive.server2.async.exec.wait.queue.size are in use)");
    op_unlink(s, o);
    op_free(o);
    session_release(s);
}

static gboolean execute_statement(Hs2TCLIServiceIf *iface,
                                  Hs2TExecuteStatementResp **ret,
                                  const Hs2TExecuteStatementReq *req,
                                  GError **error)
{
    Hs2Session *s = session_for(req->sessionHandle, (*ret)->status);
    const char *sql = req->statement ? req->statement : "";
    GHashTable *overlay = req->__isset_confOverlay ? req->confOverlay : NULL;
    int64_t timeout_s = req->__isset_queryTimeout ? req->queryTimeout : 0;
    Hs2Op *o;
    (void)iface;
    (void)error;
    if (!s)
        return TRUE;
    if (refused_for_stop((*ret)->status)) {
        session_release(s);
        return TRUE;
    }
    if (!(o = op_start(s))) {
        CombErr err;
        comb_err_nomem(&err);
        status_failed((*ret)->status, &err);
        session_release(s);
        return TRUE;
    }
    /* asynchronous: the client polls GetOperationStatus; the statement's
     * thread has the session until it ends */
    /* the handle of a statement still running says it has a result set
     * (known at its end, from GetOperationStatus), as Hive's does */
    o->has_result = true;
    put_op_handle((*ret)->operationHandle, o);
    if (req->__isset_runAsync && req->runAsync) {
        switch (start_async(s, o, sql, overlay, timeout_s)) {
        case ASYNC_STARTED:
            (*ret)->__isset_operationHandle = TRUE;
            status_ok((*ret)->status);
            return TRUE;
        case ASYNC_REFUSED:
            refuse_async(s, o, (*ret)->status);
            return TRUE;
        case ASYNC_CANNOT:
            break;
        }
    }
    execute(s, o, sql, overlay, timeout_s);
    if (o->state != HS2_T_OPERATION_STATE_FINISHED_STATE) {
        /* no handle goes back: the operation closes (as Hive's) */
        status_op_failed((*ret)->status, o);
        op_unlink(s, o);
        op_free(o);
    } else {
        put_op_handle((*ret)->operationHandle, o);
        (*ret)->__isset_operationHandle = TRUE;
        status_ok((*ret)->status);
    }
    session_release(s);
    return TRUE;
}

/* Without the session: an asynchronous statement may be running on it. */
static gboolean get_operation_status(Hs2TCLIServiceIf *iface,
                                     Hs2TGetOperationStatusResp **ret,
                                     const Hs2TGetOperationStatusReq *req,
                                     GError **error)
{
    Hs2TGetOperationStatusResp *r = *ret;
    Hs2Session *s;
    Hs2Op *o;
    (void)iface;
    (void)error;
    pthread_mutex_lock(&reg.lock);
    if (!(o = op_find_locked(req->operationHandle, &s))) {
        pthread_mutex_unlock(&reg.lock);
        status_invalid(r->status, "operation");
        return TRUE;
    }
    o->touched_ms = hs2_now_ms();
    r->operationState = o->state;
    r->__isset_operationState = TRUE;
    r->hasResultSet = o->has_result;
    r->__isset_hasResultSet = TRUE;
    if (o->state == HS2_T_OPERATION_STATE_ERROR_STATE ||
        o->state == HS2_T_OPERATION_STATE_CANCELED_STATE ||
        o->state == HS2_T_OPERATION_STATE_TIMEDOUT_STATE) {
        char msg[COMB_ERR_MSG_MAX + 64];
        const char *sql_state;
        r->errorCode = op_failure(o, msg, sizeof msg, &sql_state);
        r->__isset_errorCode = TRUE;
        r->errorMessage = g_strdup(msg);
        r->__isset_errorMessage = TRUE;
        r->sqlState = g_strdup(sql_state);
        r->__isset_sqlState = TRUE;
    }
    pthread_mutex_unlock(&reg.lock);
    status_ok(r->status);
    return TRUE;
}

static gboolean get_result_set_metadata(Hs2TCLIServiceIf *iface,
                                        Hs2TGetResultSetMetadataResp **ret,
                                        const Hs2TGetResultSetMetadataReq *req,
                                        GError **error)
{
    Hs2Session *s;
    Hs2Op *o = op_for(req->operationHandle, &s, (*ret)->status);
    (void)iface;
    (void)error;
    if (!o)
        return TRUE;
    hs2_result_schema(&o->result, (*ret)->schema);
    (*ret)->__isset_schema = TRUE;
    session_release(s);
    status_ok((*ret)->status);
    return TRUE;
}

/* The operation's log lines from where the last fetch of them ended. */
static void fetch_log(Hs2Op *o, int64_t max, bool by_column, Hs2TRowSet *rs)
{
    Hs2Result lines = {0};
    CombErr ignored;
    static const char *const names[] = {"log"};
    static const CombTypeKind kinds[] = {COMB_T_STRING};
    if (!hs2_result_begin(&lines, 1, names, kinds, &ignored))
        for (; o->log_next < o->n_log && (max < 0 || lines.total < max);
             o->log_next++)
            if (hs2_result_append(&lines, &(Hs2Value){o->log[o->log_next], 0, false},
                                  &ignored))
                break;
    /* in memory (no budget): nothing to fail */
    hs2_result_fetch(&lines, -1, by_column, rs, &ignored);
    hs2_result_free(&lines);
}

static gboolean fetch_results(Hs2TCLIServiceIf *iface, Hs2TFetchResultsResp **ret,
                              const Hs2TFetchResultsReq *req, GError **error)
{
    Hs2Session *s;
    Hs2Op *o = op_for(req->operationHandle, &s, (*ret)->status);
    Hs2TRowSet *rs = (*ret)->results;
    (void)iface;
    (void)error;
    if (!o)
        return TRUE;
    if (req->__isset_fetchType && req->fetchType == 1) {
        fetch_log(o, req->maxRows, s->by_column, rs);
    } else if (!o->has_result) {
        session_release(s);
        status_error((*ret)->status, HS2_T_STATUS_CODE_ERROR_STATUS, 0,
                     "HY010", "The operation has no result set");
        return TRUE;
    } else {
        CombErr err;
        if ((req->orientation == HS2_T_FETCH_ORIENTATION_FETCH_FIRST &&
             hs2_result_rewind(&o->result, &err)) ||
            hs2_result_fetch(&o->result, req->maxRows, s->by_column, rs, &err)) {
            session_release(s);
            status_failed((*ret)->status, &err);
            return TRUE;
        }
        (*ret)->hasMoreRows = hs2_result_more(&o->result);
        (*ret)->__isset_hasMoreRows = TRUE;
    }
    (*ret)->__isset_results = TRUE;
    session_release(s);
    status_ok((*ret)->status);
    return TRUE;
}

/* o's statement out of the pool's queue, never to run: o ends cancelled
 * at once.  Its run (which holds the session) goes back to the caller,
 * to let go with run_dropped once the lock is dropped. */
static AsyncRun *unqueue_locked(Hs2Op *o)
{
    for (AsyncRun **p = &reg.queue; *p; p = &(*p)->next) {
        AsyncRun *a = *p;
        if (a->o != o)
            continue;
        if (!(*p = a->next))
            reg.queue_end = p;
        reg.queued--;
        comb_err(&o->err, COMB_ECANCELLED, "Query was cancelled");
        o->state = HS2_T_OPERATION_STATE_CANCELED_STATE;
        o->has_result = false;
        o->touched_ms = hs2_now_ms();
        return a;
    }
    return NULL;
}

static void run_dropped(AsyncRun *a)
{
    if (a) {
        session_release(a->s);
        async_free(a);
    }
}

/* A running statement stops at its next batch and rolls back; without
 * the session, which its thread has.  A waiting one leaves the queue:
 * its run is returned (run_dropped). */
static AsyncRun *cancel_locked(Hs2Session *s, Hs2Op *o)
{
    if (o->state == HS2_T_OPERATION_STATE_PENDING_STATE)
        return unqueue_locked(o);
    if (o->state == HS2_T_OPERATION_STATE_RUNNING_STATE)
        sql_session_cancel(s->sql);
    return NULL;
}

/* s closed (the caller holds the registry's lock, which this drops):
 * out of the registry at once, its statement cancelled (a waiting one
 * never runs), and once a call on it has finished, freed; its
 * transaction rolls back, its locks go. */
static void session_end_locked(Hs2Session *s)
{
    AsyncRun *dropped = NULL;
    session_unlink_locked(s);
    for (Hs2Op *o = s->ops; o && !dropped; o = o->next)
        dropped = cancel_locked(s, o);
    if (dropped) {           /* its hold was the one in use */
        pthread_mutex_unlock(&reg.lock);
        run_dropped(dropped);
        return;
    }
    hold_locked(s);          /* a call on it finishes first */
    session_release(s);
}

/* The operation of handle h cancelled if it runs or waits; false when
 * unknown. */
static bool cancel_handle(const Hs2TOperationHandle *h)
{
    Hs2Session *s;
    Hs2Op *o;
    AsyncRun *dropped = NULL;
    pthread_mutex_lock(&reg.lock);
    if ((o = op_find_locked(h, &s))) {
        o->touched_ms = hs2_now_ms();
        dropped = cancel_locked(s, o);
    }
    pthread_mutex_unlock(&reg.lock);
    run_dropped(dropped);
    return o != NULL;
}

static gboolean cancel_operation(Hs2TCLIServiceIf *iface,
                                 Hs2TCancelOperationResp **ret,
                                 const Hs2TCancelOperationReq *req,
                                 GError **error)
{
    (void)iface;
    (void)error;
    if (cancel_handle(req->operationHandle))
        status_ok((*ret)->status);
    else
        status_invalid((*ret)->status, "operation");
    return TRUE;
}

static gboolean close_operation(Hs2TCLIServiceIf *iface,
                                Hs2TCloseOperationResp **ret,
                                const Hs2TCloseOperationReq *req,
                                GError **error)
{
    Hs2Session *s;
    Hs2Op *o;
    /* a statement still running stops first (Hive cancels it too) */
    cancel_handle(req->operationHandle);
    o = op_for(req->operationHandle, &s, (*ret)->status);
    (void)iface;
    (void)error;
    if (!o)
        return TRUE;
    op_unlink(s, o);
    op_free(o);
    session_release(s);
    status_ok((*ret)->status);
    return TRUE;
}

/* The calls comb does not answer yet: an error status naming them. */
#define NOT_YET(fn, Resp, Req, call)                                        \
    static gboolean fn(Hs2TCLIServiceIf *iface, Resp **ret, const Req *req, \
                       GError **error)                                      \
    {                                                                       \
        (void)iface;                                                        \
        (void)req;                                                          \
        (void)error;                                                        \
        status_error((*ret)->status, HS2_T_STATUS_CODE_ERROR_STATUS, 0,     \
                     "0A000", call " is not supported by comb yet");         \
        return TRUE;                                                        \
    }
/* The end of a metadata call: o finished and in s's list, or (rc) an
 * error status and o gone. */
static void meta_done(Hs2Session *s, Hs2Op *o, int rc, Hs2TStatus *st,
                      Hs2TOperationHandle *h, gboolean *h_set)
{
    CombErr nomem;
    if (rc) {
        if (!o)
            comb_err_nomem(&nomem);
        status_failed(st, o ? &o->err : &nomem);
        op_free(o);
        return;
    }
    o->has_result = true;
    o->state = HS2_T_OPERATION_STATE_FINISHED_STATE;
    op_link(s, o);
    put_op_handle(h, o);
    *h_set = TRUE;
    status_ok(st);
}

/* A metadata call: an operation of its session whose result `fill` (an
 * expression of s, req, r and err) builds, or an error status. */
#define META_CALL(fn, Resp, Req, type, fill)                                \
    static gboolean fn(Hs2TCLIServiceIf *iface, Resp **ret, const Req *req, \
                       GError **error)                                      \
    {                                                                       \
        Hs2Session *s = session_for(req->sessionHandle, (*ret)->status);    \
        (void)iface;                                                        \
        (void)error;                                                        \
        if (s) {                                                            \
            Hs2Op *o = op_new(HS2_T_OPERATION_TYPE_##type);                 \
            Hs2Result *r = o ? &o->result : NULL;                           \
            CombErr *err = o ? &o->err : NULL;                              \
            meta_done(s, o, o ? (fill) : COMB_ENOMEM, (*ret)->status,       \
                      (*ret)->operationHandle,                              \
                      &(*ret)->__isset_operationHandle);                    \
            session_release(s);                                             \
        }                                                                   \
        return TRUE;                                                        \
    }
META_CALL(get_type_info, Hs2TGetTypeInfoResp, Hs2TGetTypeInfoReq, GET_TYPE_INFO,
          hs2_meta_type_info(r, err))
META_CALL(get_catalogs, Hs2TGetCatalogsResp, Hs2TGetCatalogsReq, GET_CATALOGS,
          hs2_meta_catalogs(r, err))
META_CALL(get_schemas, Hs2TGetSchemasResp, Hs2TGetSchemasReq, GET_SCHEMAS,
          hs2_meta_schemas(s->sql, req->__isset_schemaName ? req->schemaName : NULL,
                           r, err))
META_CALL(get_tables, Hs2TGetTablesResp, Hs2TGetTablesReq, GET_TABLES,
          hs2_meta_tables(s->sql, req->__isset_schemaName ? req->schemaName : NULL,
                          req->__isset_tableName ? req->tableName : NULL,
                          req->__isset_tableTypes ? req->tableTypes : NULL, r, err))
META_CALL(get_table_types, Hs2TGetTableTypesResp, Hs2TGetTableTypesReq,
          GET_TABLE_TYPES, hs2_meta_table_types(r, err))
META_CALL(get_columns, Hs2TGetColumnsResp, Hs2TGetColumnsReq, GET_COLUMNS,
          hs2_meta_columns(s->sql, req->__isset_schemaName ? req->schemaName : NULL,
                           req->__isset_tableName ? req->tableName : NULL,
                           req->__isset_columnName ? req->columnName : NULL, r, err))
META_CALL(get_functions, Hs2TGetFunctionsResp, Hs2TGetFunctionsReq, GET_FUNCTIONS,
          hs2_meta_functions(s->sql, req->functionName, r, err))
/* empty: comb's tables have no keys (and TOperationType no type for
 * these two calls) */
META_CALL(get_primary_keys, Hs2TGetPrimaryKeysResp, Hs2TGetPrimaryKeysReq,
          UNKNOWN, hs2_meta_primary_keys(r, err))
META_CALL(get_cross_reference, Hs2TGetCrossReferenceResp,
          Hs2TGetCrossReferenceReq, UNKNOWN, hs2_meta_cross_reference(r, err))

NOT_YET(get_delegation_token, Hs2TGetDelegationTokenResp, Hs2TGetDelegationTokenReq,
        "GetDelegationToken")
NOT_YET(cancel_delegation_token, Hs2TCancelDelegationTokenResp,
        Hs2TCancelDelegationTokenReq, "CancelDelegationToken")
NOT_YET(renew_delegation_token, Hs2TRenewDelegationTokenResp,
        Hs2TRenewDelegationTokenReq, "RenewDelegationToken")
NOT_YET(set_client_info, Hs2TSetClientInfoResp, Hs2TSetClientInfoReq, "SetClientInfo")
NOT_YET(upload_data, Hs2TUploadDataResp, Hs2TUploadDataReq, "UploadData")
NOT_YET(download_data, Hs2TDownloadDataResp, Hs2TDownloadDataReq, "DownloadData")

/* GetQueryId's answer has no status: the client gets a Thrift error. */
static gboolean get_query_id(Hs2TCLIServiceIf *iface, Hs2TGetQueryIdResp **ret,
                             const Hs2TGetQueryIdReq *req, GError **error)
{
    (void)iface;
    (void)ret;
    (void)req;
    g_set_error(error, THRIFT_APPLICATION_EXCEPTION_ERROR,
                THRIFT_APPLICATION_EXCEPTION_ERROR_UNKNOWN_METHOD,
                "GetQueryId is not supported by comb yet");
    return FALSE;
}

static void comb_hs2_handler_class_init(CombHs2HandlerClass *klass)
{
    Hs2TCLIServiceHandlerClass *c = HS2_T_C_L_I_SERVICE_HANDLER_CLASS(klass);
    c->open_session = open_session;
    c->close_session = close_session;
    c->get_info = get_info;
    c->execute_statement = execute_statement;
    c->get_type_info = get_type_info;
    c->get_catalogs = get_catalogs;
    c->get_schemas = get_schemas;
    c->get_tables = get_tables;
    c->get_table_types = get_table_types;
    c->get_columns = get_columns;
    c->get_functions = get_functions;
    c->get_primary_keys = get_primary_keys;
    c->get_cross_reference = get_cross_reference;
    c->get_operation_status = get_operation_status;
    c->cancel_operation = cancel_operation;
    c->close_operation = close_operation;
    c->get_result_set_metadata = get_result_set_metadata;
    c->fetch_results = fetch_results;
    c->get_delegation_token = get_delegation_token;
    c->cancel_delegation_token = cancel_delegation_token;
    c->renew_delegation_token = renew_delegation_token;
    c->get_query_id = get_query_id;
    c->set_client_info = set_client_info;
    c->upload_data = upload_data;
    c->download_data = download_data;
}

static void comb_hs2_handler_init(CombHs2Handler *self)
{
    (void)self;
}

/* ---------------------------------------------------------- time-outs */

/* The keeper looks when the next time-out is due, and at least this
 * often: what was due while its session was in use closes within this of
 * the session's next free moment, and a statement past its deadline is
 * cancelled again. */
#define KEEPER_TICK_MS 1000

/* *next lowered to due when that is still ahead. */
static void sooner(int64_t *next, int64_t due, int64_t now)
{
    if (due > now && due < *next)
        *next = due;
}

/* Whether o has been idle past hive.server2.idle.operation.timeout (> 0:
 * finished operations only, < 0: running ones too); *next: when it will
 * be. */
static bool op_idle_locked(const Hs2Op *o, int64_t now, int64_t *next)
{
    int64_t t = reg.lim->op_idle_ms;
    if (o->expired)
        return true;
    if (t == 0 || (t > 0 && op_active_locked(o)))
        return false;
    t = t > 0 ? t : -t;
    sooner(next, o->touched_ms + t, now);
    return now - o->touched_ms >= t;
}

static bool session_idle_locked(const Hs2Session *s, int64_t now,
                                int64_t *next)
{
    const Hs2Limits *lim = reg.lim;
    if (lim->session_idle_ms <= 0)
        return false;
    sooner(next, s->touched_ms + lim->session_idle_ms, now);
    return s->refs == 0 && !(lim->idle_check_ops && s->ops) &&
           now - s->touched_ms >= lim->session_idle_ms;
}

/* s's operations past their time-outs: a statement past its deadline is
 * cancelled, an idle one cancelled, or once s is free taken out
 * into *dead.  *next: lowered to the next time-out ahead. */
static void sweep_ops_locked(Hs2Session *s, int64_t now, int64_t *next,
                             Hs2Op **dead)
{
    for (Hs2Op **p = &s->ops; *p;) {
        Hs2Op *o = *p;
        bool running = op_active_locked(o);
        if (running && o->deadline_ms) {
            sooner(next, o->deadline_ms, now);
            if (now >= o->deadline_ms) {
                o->timed_out = true;
                sql_session_cancel(s->sql);
            }
        }
        if (op_idle_locked(o, now, next)) {
            o->expired = true;
            if (running) {
                sql_session_cancel(s->sql);
            } else if (s->refs == 0) {
                *p = o->next;
                o->next = *dead;
                *dead = o;
                s->touched_ms = now;   /* the session's idle time starts */
                continue;
            }
        }
        p = &o->next;
    }
}

/* One look at every session: what is past its time-out is cancelled, or
 * taken out of the registry into *dead_ops and *dead; when to look next. */
static int64_t sweep_locked(int64_t now, Hs2Op **dead_ops, Hs2Session **dead)
{
    int64_t next = now + KEEPER_TICK_MS;
    for (Hs2Session *s = reg.sessions, *after; s; s = after) {
        after = s->next;
        sweep_ops_locked(s, now, &next, dead_ops);
        if (session_idle_locked(s, now, &next)) {
            session_unlink_locked(s);
            s->next = *dead;
            *dead = s;
        }
    }
    return next;
}

/* The keeper's thread: what it takes out is freed outside the registry's
 * lock (closing a session rolls its transaction back); nothing holds it,
 * since it was free when taken. */
static void *keeper_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&reg.lock);
    while (!reg.keeper_stop) {
        Hs2Op *ops = NULL;
        Hs2Session *dead = NULL;
        int64_t next = sweep_locked(hs2_now_ms(), &ops, &dead);
        struct timespec until = {(time_t)(next / 1000),
                                 (long)(next % 1000) * 1000000L};
        if (!ops && !dead) {
            pthread_cond_timedwait(&reg.wake, &reg.lock, &until);
            continue;
        }
        pthread_mutex_unlock(&reg.lock);
        while (ops) {
            Hs2Op *o = ops;
            ops = o->next;
            op_free(o);
        }
        while (dead) {
            Hs2Session *s = dead;
            dead = s->next;
            session_free(s);
        }
        pthread_mutex_lock(&reg.lock);
    }
    pthread_mutex_unlock(&reg.lock);
    return NULL;
}

static int keeper_start(CombErr *err)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&reg.wake, &attr);
    pthread_condattr_destroy(&attr);
    reg.keeper_stop = false;
    if (pthread_create(&reg.keeper, NULL, keeper_main, NULL)) {
        pthread_cond_destroy(&reg.wake);
        return comb_err(err, COMB_EINTERNAL,
                        "cannot start the server's time-out thread");
    }
    return COMB_OK;
}

static void keeper_stop(void)
{
    pthread_mutex_lock(&reg.lock);
    reg.keeper_stop = true;
    pthread_cond_signal(&reg.wake);
    pthread_mutex_unlock(&reg.lock);
    pthread_join(reg.keeper, NULL);
    pthread_cond_destroy(&reg.wake);
}

/* ------------------------------------------------------ connections */

Hs2TCLIServiceHandler *hs2_handler_new(const char *user)
{
    CombHs2Handler *h = g_object_new(comb_hs2_handler_get_type(), NULL);
    snprintf(h->user, sizeof h->user, "%s", user);
    return &h->parent;
}

/* The sessions a connection opened and did not close, closed with it: a
 * transaction it left open rolls back, its locks go at once. */
void hs2_conn_end(Hs2TCLIServiceHandler *conn)
{
    for (;;) {
        Hs2Session *s = NULL;
        pthread_mutex_lock(&reg.lock);
        for (s = reg.sessions; s; s = s->next)
            if (s->owner == (const void *)conn)
                break;
        if (!s) {
            pthread_mutex_unlock(&reg.lock);
            break;
        }
        session_end_locked(s);
    }
}

int hs2_sessions_list(Hs2SessionRow **rows, int *n)
{
    int k = 0, cap = 0;
    Hs2SessionRow *v;
    pthread_mutex_lock(&reg.lock);
    for (Hs2Session *s = reg.sessions; s; s = s->next)
        cap++;
    v = comb_calloc((size_t)cap + 1, sizeof *v);
    for (Hs2Session *s = reg.sessions; v && s; s = s->next, k++) {
        memcpy(v[k].user, s->user, sizeof v[k].user);
        v[k].opened_ms = s->opened_ms;
        pthread_mutex_lock(&s->lock);
        v[k].used_ms = s->used_ms;
        v[k].busy = s->busy;
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&reg.lock);
    if (!v)
        return COMB_ENOMEM;
    *rows = v;
    *n = k;
    return COMB_OK;
}

/* The generated message types register themselves on first use, without
 * a lock (static GType type = 0; if (type == 0) ...): two connection
 * threads could register one twice.  All of them are registered here,
 * before the first thread. */
static void register_types(void)
{
    static GType (*const get_type[])(void) = {
#include "server/hs2_get_types.inc"
    };
    for (size_t i = 0; i < sizeof get_type / sizeof *get_type; i++)
        get_type[i]();
    /* and the classes each connection makes, so that their first use is
     * before the threads too (GLib publishes a new type through its own
     * atomics, which ThreadSanitizer does not see) */
    g_type_class_unref(g_type_class_ref(comb_hs2_handler_get_type()));
    g_type_class_unref(g_type_class_ref(HS2_TYPE_T_C_L_I_SERVICE_PROCESSOR));
    hs2_auth_register();
    /* the processor looks the protocol's "transport" up by name: the
     * name's first interning too (GLib's futex locks are as unseen) */
    GObject *t = G_OBJECT(rpc_wire_new(-1, NULL));
    GObject *p = G_OBJECT(rpc_proto_new(THRIFT_TRANSPORT(t)));
    GObject *got = NULL;
    g_object_get(p, "transport", &got, NULL);
    g_object_unref(got);
    g_object_unref(p);
    g_object_unref(t);
}

/* libthrift reports a client's broken or oversized message with
 * g_warning, on the server's stderr; the client's connection ends, which
 * is all the server does about it. */
static void drop_protocol_warning(const gchar *domain, GLogLevelFlags level,
                                  const gchar *message, gpointer data)
{
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

/* The server's own session: opening it checks the warehouse before a
 * client comes, and it runs the transaction housekeeping, so that the
 * transactions of a server that was killed are aborted by their time-out
 * even when no client starts one. */
static int own_session_open(CombErr *err)
{
    SqlSessionOptions so = {reg.opt->warehouse, NULL, reg.opt->metastore};
    int rc;
    if ((rc = sql_session_open(&so, &reg.own, err)) ||
        (rc = apply_server_conf(reg.own, err)) ||
        (rc = sql_session_housekeep(reg.own, err))) {
        sql_session_close(reg.own);
        reg.own = NULL;
    }
    return rc;
}

int hs2_service_start(const Hs2Options *opt, const struct Hs2Security *sec,
                      const Hs2Limits *lim, CombErr *err)
{
    int rc;
    reg.security = sec;
    g_log_set_handler(NULL, G_LOG_LEVEL_WARNING, drop_protocol_warning, NULL);
    register_types();
    reg.opt = opt;
    reg.lim = lim;
    reg.stopping = false;
    reg.queue = NULL;
    reg.queue_end = &reg.queue;
    if ((rc = own_session_open(err)))
        return rc;
    if ((rc = keeper_start(err))) {
        sql_session_close(reg.own);
        reg.own = NULL;
    }
    return rc;
}

void hs2_service_drain(void)
{
    pthread_mutex_lock(&reg.lock);
    reg.stopping = true;
    pthread_mutex_unlock(&reg.lock);
}

bool hs2_service_busy(void)
{
    bool busy;
    pthread_mutex_lock(&reg.lock);
    busy = reg.workers > 0;
    pthread_mutex_unlock(&reg.lock);
    return busy;
}

/* Every connection has ended (and closed its sessions): what is left
 * was opened by none, so nothing holds it. */
void hs2_service_stop(void)
{
    keeper_stop();
    pthread_mutex_lock(&reg.lock);
    while (reg.workers > 0)    /* their connections cancelled them */
        pthread_cond_wait(&reg.workers_done, &reg.lock);
    while (reg.sessions) {
        Hs2Session *s = reg.sessions;
        reg.sessions = s->next;
        session_free(s);
    }
    pthread_mutex_unlock(&reg.lock);
    sql_session_close(reg.own);
    reg.own = NULL;
}
