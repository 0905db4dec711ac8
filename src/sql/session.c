/*
 * session.c - sessions, settings, variable substitution and the
 * per-statement transaction (autocommit): open before reading, commit after
 * the statement's files are durable, abort on any failure.
 */
#include "sql/exec/colstats.h"
#include "sql/sql_int.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/exec.h"

/* ----------------------------------------------------------------- settings */

static SqlSetting *settings_find(const SqlSettings *set, const char *key)
{
    for (int i = 0; i < set->n; i++)
        if (strcmp(set->items[i].key, key) == 0)
            return &set->items[i];
    return NULL;
}

static int settings_put(SqlSettings *set, const char *key, const char *value,
                        CombErr *err)
{
    SqlSetting *it = settings_find(set, key);
    char *v = comb_strdup(value);
    if (!v)
        return comb_err_nomem(err);
    if (it) {
        comb_free(it->value);
        it->value = v;
        return COMB_OK;
    }
    if (set->n == set->cap) {
        int cap = set->cap ? set->cap * 2 : 16;
        SqlSetting *p = comb_realloc(set->items, (size_t)cap * sizeof *p);
        if (!p) {
            comb_free(v);
            return comb_err_nomem(err);
        }
        set->items = p;
        set->cap = cap;
    }
    set->items[set->n].key = comb_strdup(key);
    if (!set->items[set->n].key) {
        comb_free(v);
        return comb_err_nomem(err);
    }
    set->items[set->n].value = v;
    set->n++;
    return COMB_OK;
}

static void settings_free(SqlSettings *set)
{
    for (int i = 0; i < set->n; i++) {
        comb_free(set->items[i].key);
        comb_free(set->items[i].value);
    }
    comb_free(set->items);
    memset(set, 0, sizeof *set);
}

/* Chosen when the session opens (--metastore, --hiveconf): the
 * metastore of a running session cannot change. */
#define METASTORE_URL_KEY "comb.metastore.url"

/* The test build's hooks (comb.test.*: crash, pause and sleep points) do
 * nothing in other builds; accepting them there silently made a reader
 * "held open" by comb.test.sleep.after.snapshot.ms end at once, so that
 * a lock it should have held seemed to be ignored and its txn seemed
 * committed while the shell still showed it running. */
#define TEST_HOOK_PREFIX "comb.test."

/* What a session that authorizes may not change (Hive's restricted
 * list). */
static bool is_authz_setting(const char *key)
{
    return strcasecmp(key, "hive.security.authorization.enabled") == 0 ||
           strcasecmp(key, "hive.users.in.admin.role") == 0 ||
           strncasecmp(key, "hive.security.authorization.", 28) == 0;
}

int sql_session_set_conf(SqlSession *s, const char *key, const char *value,
                         CombErr *err)
{
#ifndef COMB_TEST_BUILD
    if (strncasecmp(key, TEST_HOOK_PREFIX, sizeof TEST_HOOK_PREFIX - 1) == 0)
        return comb_err(err, COMB_EINVALID,
                        "%s is a hook of the test build only (make "
                        "MODE=test, build/test/comb); this build would "
                        "ignore it", key);
#endif
    if (strcmp(key, METASTORE_URL_KEY) == 0 ||
        (s->authz.on && is_authz_setting(key)))
        return comb_err(err, COMB_EINVALID,
                        "Cannot modify %s at runtime. It is in the list of "
                        "parameters that can't be modified at runtime or is "
                        "prefixed by a restricted variable",
                        key);
    int rc = sql_exec_conf_check(key, value, err);
    if (!rc && strncasecmp(key, "fs.s3a.", 7) == 0)
        rc = fs_configure(key, value, err);
    /* a secret goes to the store's client only, never into SET's list */
    if (!rc && !fs_setting_is_secret(key))
        rc = settings_put(&s->conf, key, value, err);
    if (!rc)
        sql_txn_settings_changed(s);
    return rc;
}

int sql_session_set_var(SqlSession *s, const char *key, const char *value,
                        CombErr *err)
{
    return settings_put(&s->vars, key, value, err);
}

const char *sql_session_get_conf(const SqlSession *s, const char *key)
{
    SqlSetting *it;
    if (strcmp(key, METASTORE_URL_KEY) == 0)
        return s->metastore;
    it = settings_find(&s->conf, key);
    return it ? it->value : NULL;
}

struct Ms *sql_session_metastore(SqlSession *s)
{
    return s->ms;
}

const char *sql_session_database(const SqlSession *s)
{
    return s->db;
}

/* ------------------------------------------------------------ open / close */

static char *absolute_path(const char *path)
{
    char cwd[4096];
    if (path[0] == '/' || fs_is_remote(path))
        return comb_strdup(path);
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *p = comb_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", cwd, path);
    return p;
}

static int session_identity(SqlSession *s, const SqlSessionOptions *opt,
                            CombErr *err)
{
    char host[256];
    const char *user = opt->user ? opt->user : getenv("USER");
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    s->user = comb_strdup(user && *user ? user : "comb");
    s->host = comb_strdup(host);
    s->db = comb_strdup("default");
    s->authz.on = opt->authorize;
    s->authz.admin_users = comb_strdup(opt->admin_users ? opt->admin_users : "");
    if (!s->user || !s->host || !s->db || !s->authz.admin_users)
        return comb_err_nomem(err);
    return COMB_OK;
}

int sql_session_open(const SqlSessionOptions *opt, SqlSession **out,
                     CombErr *err)
{
    SqlSession *s = comb_calloc(1, sizeof *s);
    char *ms_path = NULL;
    int rc;
    *out = NULL;
    if (!s)
        return comb_err_nomem(err);
    comb_arena_init(&s->stmt_arena, 64 * 1024);
    s->warehouse = absolute_path(opt->warehouse ? opt->warehouse : "warehouse");
    if (!s->warehouse) {
        rc = comb_err_nomem(err);
        goto fail;
    }
    if ((rc = session_identity(s, opt, err)))
        goto fail;
    if (fs_is_remote(s->warehouse) && !opt->metastore) {
        rc = comb_err(err, COMB_EINVALID, "the warehouse '%s' is on an "
                      "object store, where SQLite cannot keep its database: "
                      "give the metastore with --metastore FILE or "
                      "postgresql://...", s->warehouse);
        goto fail;
    }
    if ((rc = fs_mkdirs(s->warehouse, err)))
        goto fail;
    ms_path = opt->metastore
                  ? comb_arena_strdup(&s->stmt_arena, opt->metastore)
                  : comb_arena_printf(&s->stmt_arena, "%s/metastore.db",
                                      s->warehouse);
    if (!ms_path || !(s->metastore = ms_target_display(ms_path)) ||
        !(s->ms_target = comb_strdup(ms_path))) {
        rc = comb_err_nomem(err);
        goto fail;
    }
    if ((rc = ms_open(ms_path, s->warehouse, &s->ms, err)) ||
        (rc = sql_site_conf_load(s, err)))
        goto fail;
    comb_arena_reset(&s->stmt_arena);
    *out = s;
    return COMB_OK;
fail:
    sql_session_close(s);
    return rc;
}

void sql_session_close(SqlSession *s)
{
    if (!s)
        return;
    sql_txn_session_end(s);
    ms_heartbeater_stop(s->hb);
    ms_close(s->ms);
    comb_free(s->ms_target);
    comb_free(s->metastore);
    settings_free(&s->conf);
    settings_free(&s->vars);
    comb_free(s->warehouse);
    comb_free(s->db);
    comb_free(s->user);
    comb_free(s->host);
    comb_free(s->authz.admin_users);
    comb_free(s->authz.set_role);
    comb_arena_free(&s->stmt_arena);
    comb_free(s);
}

/* ----------------------------------------------------- variable substitution */

/* Value of ${ref}: "hivevar:x", "hiveconf:x", "system:x", "env:x" or a bare
 * name (hivevar first, then hiveconf, as Hive does). NULL if unset. */
static const char *lookup_variable(const SqlSession *s, const char *ref)
{
    SqlSetting *it;
    if (strncmp(ref, "hivevar:", 8) == 0) {
        it = settings_find(&s->vars, ref + 8);
        return it ? it->value : NULL;
    }
    if (strncmp(ref, "hiveconf:", 9) == 0)
        return sql_session_get_conf(s, ref + 9);
    if (strncmp(ref, "env:", 4) == 0)
        return getenv(ref + 4);
    if (strncmp(ref, "system:", 7) == 0)
        return NULL;
    it = settings_find(&s->vars, ref);
    if (it)
        return it->value;
    return sql_session_get_conf(s, ref);
}

/* Replace ${...} references in text[0..len) (bytes, NULs included);
 * unknown ones are left as written (Hive does the same), so literal text
 * like '${x}' survives when x is unset. */
static int substitute_variables(const SqlSession *s, const char *text,
                                size_t len, CombArena *a, const char **out,
                                size_t *out_len, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    const char *p = text, *end = text + len;
    char *copy;
    int rc = COMB_OK;
    if (!memmem(text, len, "${", 2)) {
        *out = text;
        *out_len = len;
        return COMB_OK;
    }
    while (p < end && !rc) {
        const char *open = memmem(p, (size_t)(end - p), "${", 2), *close;
        char ref[256];
        const char *val;
        if (!open) {
            rc = comb_buf_append(&b, p, (size_t)(end - p));
            break;
        }
        close = memchr(open + 2, '}', (size_t)(end - open - 2));
        if (!close || (size_t)(close - open - 2) >= sizeof ref ||
            memchr(open + 2, '\0', (size_t)(close - open - 2))) {
            rc = comb_buf_append(&b, p, (size_t)(end - p));
            break;
        }
        memcpy(ref, open + 2, (size_t)(close - open - 2));
        ref[close - open - 2] = '\0';
        val = lookup_variable(s, ref);
        rc = comb_buf_append(&b, p, (size_t)(open - p));
        if (!rc)
            rc = val ? comb_buf_append_str(&b, val)
                     : comb_buf_append(&b, open, (size_t)(close - open + 1));
        p = close + 1;
    }
    copy = rc ? NULL : comb_arena_alloc(a, b.len + 1);
    if (copy) {
        memcpy(copy, b.data, b.len);
        copy[b.len] = '\0';
        *out = copy;
        *out_len = b.len;
    }
    comb_buf_free(&b);
    if (!copy)
        return comb_err_nomem(err);
    return COMB_OK;
}

/* ------------------------------------------------------------ transactions */

/* A SELECT (or a DESCRIBE or SHOW TBLPROPERTIES reading the statistics)
 * still answers when the metastore cannot be written (read-only or full):
 * instead of opening a transaction it reads the snapshot as it stands
 * (every open and aborted txn an exception, as for any reader), which
 * needs no write. */
static bool answers_without_txn(const SqlStmtCtx *c, int rc)
{
    AstStmtKind k = c->stmt->kind;
    return (rc == COMB_EREADONLY || rc == COMB_EFULL) &&
           (k == AST_SELECT || k == AST_DESCRIBE || k == AST_SHOW_TBLPROPERTIES);
}

int sql_txn_begin(SqlStmtCtx *c, CombErr *err)
{
    int rc;
    if (c->txnid || c->have_snapshot)
        return COMB_OK;
    sql_txn_opening(c);
    rc = sql_txn_open_locked(c, err);
    if (rc && !answers_without_txn(c, rc))
        return rc;
    if (rc) {
        comb_err_clear(err);
        if ((rc = ms_txn_snapshot(c->s->ms, 0, &c->snapshot, err)))
            return rc;
        c->have_snapshot = true;
        fs_remember(true);
    }
    sql_txn_adopt(c);
    return COMB_OK;
}

int sql_txn_commit(SqlStmtCtx *c, CombErr *err)
{
    int rc;
    if (!c->txnid || c->explicit_txn)
        return COMB_OK;
    sql_crash_point(c, "before_commit");
    sql_pause_point(c, "before_commit");
    rc = sql_txn_commit_locked(c, err);
    if (rc == COMB_OK)
        c->txnid = 0;
    return rc;
}

static void txn_end(SqlStmtCtx *c)
{
    CombErr ignore;
    if (c->explicit_txn) {
        c->txnid = 0;
        c->have_snapshot = false;
        return;
    }
    if (c->txnid) {
        ms_txn_abort(c->s->ms, c->txnid, &ignore);
        sql_txn_forget(c->s, c->txnid);
    }
    c->txnid = 0;
    if (c->have_snapshot)
        comb_idlist_free(&c->snapshot);
    c->have_snapshot = false;
}

void sql_crash_point(SqlStmtCtx *c, const char *name)
{
#ifdef COMB_TEST_BUILD
    const char *want = sql_session_get_conf(c->s, "comb.test.crash.point");
    if (want && strcmp(want, name) == 0)
        raise(SIGKILL);
#else
    (void)c;
    (void)name;
#endif
}

void sql_pause_point(SqlStmtCtx *c, const char *name)
{
#ifdef COMB_TEST_BUILD
    const char *want = sql_session_get_conf(c->s, "comb.test.pause.point");
    const char *go = sql_session_get_conf(c->s, "comb.test.pause.file");
    struct timespec tick = {0, 10 * 1000000};
    char at[4096];
    FILE *f;
    if (!want || !go || strcmp(want, name) != 0)
        return;
    /* <file>.at says the point is reached; the test makes <file> to go
     * on (or kills the process meanwhile) */
    snprintf(at, sizeof at, "%s.at", go);
    if ((f = fopen(at, "w")))
        fclose(f);
    while (access(go, F_OK) != 0)
        nanosleep(&tick, NULL);
#else
    (void)c;
    (void)name;
#endif
}

void sql_sleep_point(SqlStmtCtx *c, const char *key)
{
#ifdef COMB_TEST_BUILD
    const char *ms = sql_session_get_conf(c->s, key);
    long long n = ms ? strtoll(ms, NULL, 10) : 0;
    if (n > 0) {
        struct timespec ts = {n / 1000, (long)(n % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
#else
    (void)c;
    (void)key;
#endif
}

/* --------------------------------------------------------------- execution */

int sql_err_at(CombErr *err, int code, int hive_code, AstPos pos,
               const char *fmt, ...)
{
    char what[COMB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* AstPos columns are 1-based; Hive prints 0-based columns */
    pos.col = pos.col > 0 ? pos.col - 1 : 0;
    if (hive_code)
        return comb_err_hive(err, code, hive_code,
                             "SemanticException [Error %d]: Line %d:%d %s",
                             hive_code, pos.line, pos.col, what);
    return comb_err(err, code, "SemanticException: Line %d:%d %s", pos.line,
                    pos.col, what);
}

/* Bytes of white space and comments before a statement, so that error
 * positions count from the statement's first token (as Hive's do). */
static size_t leading_comments_len(const char *text, size_t len)
{
    size_t i = 0;
    for (;;) {
        const char *close;
        while (i < len && (text[i] == ' ' || text[i] == '\t' ||
                           text[i] == '\n' || text[i] == '\r'))
            i++;
        if (i + 1 < len && text[i] == '-' && text[i + 1] == '-') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (i + 1 < len && text[i] == '/' && text[i + 1] == '*' &&
                   (close = memmem(text + i + 2, len - i - 2, "*/", 2))) {
            i = (size_t)(close - text) + 2;
        } else {
            return i;
        }
    }
}

static int dispatch(SqlStmtCtx *c, CombErr *err)
{
    switch (c->stmt->kind) {
    case AST_SELECT:
        return sql_exec_select(c, err);
    case AST_INSERT:
        return sql_exec_insert(c, err);
    case AST_MULTI_INSERT:
        return sql_exec_multi_insert(c, err);
    case AST_UPDATE:
    case AST_DELETE:
        return sql_exec_update_delete(c, err);
    case AST_MERGE:
        return sql_exec_merge(c, err);
    case AST_SET:
        return sql_exec_set(c, err);
    case AST_LOAD:
        return sql_exec_load(c, err);
    case AST_EXPLAIN:
        return sql_exec_explain(c, err);
    case AST_TXN_BEGIN:
    case AST_TXN_COMMIT:
    case AST_TXN_ROLLBACK:
        return sql_exec_txn(c, err);
    default:
        return sql_exec_ddl(c, err);
    }
}

/* lock-free, so the signal handler may set it; parallel copies read it
 * from their threads */
static atomic_int cancel_flag;

void sql_cancel_request(void)
{
    atomic_store_explicit(&cancel_flag, 1, memory_order_relaxed);
}

bool sql_cancel_requested(void)
{
    return atomic_load_explicit(&cancel_flag, memory_order_relaxed) != 0;
}

void sql_session_cancel(SqlSession *s)
{
    atomic_store_explicit(&s->cancel, 1, memory_order_relaxed);
}

void sql_session_cancel_reset(SqlSession *s)
{
    atomic_store_explicit(&s->cancel, 0, memory_order_relaxed);
}

bool sql_stmt_cancelled(const SqlStmtCtx *c)
{
    return sql_cancel_requested() ||
           (c->s && atomic_load_explicit(&c->s->cancel, memory_order_relaxed) != 0);
}
int sql_sink_allowed(const SqlStmtCtx *c, CombErr *err)
{
    if (c->par_copy)
        return COMB_INTERNAL(err, "a parallel copy of the statement used its result sink");
    return COMB_OK;
}

int sql_stmt_info(const SqlStmtCtx *c, const char *line, CombErr *err)
{
    int rc = sql_sink_allowed(c, err);
    if (rc || !c->sink->info)
        return rc;
    return c->sink->info(c->sink->ctx, line, err);
}

/* comb.scan.stats=true: after a statement that read ORC files, a line of
 * what its scans read and skipped (push-down tests count with it). */
static int scan_stats_info(SqlStmtCtx *c, CombErr *err)
{
    const OrcReadCounters *k = &c->scan_counters;
    char line[256];
    if (!sql_conf_bool(c->s, "comb.scan.stats", false) ||
        k->stripes_read + k->stripes_skipped == 0)
        return COMB_OK;
    snprintf(line, sizeof line,
             "ORC scan: stripes read %llu skipped %llu, row groups read "
             "%llu skipped %llu, bytes read %llu",
             (unsigned long long)k->stripes_read,
             (unsigned long long)k->stripes_skipped,
             (unsigned long long)k->groups_read,
             (unsigned long long)k->groups_skipped,
             (unsigned long long)k->bytes_read);
    return sql_stmt_info(c, line, err);
}

int sql_session_execute(SqlSession *s, const char *text, size_t len,
                        const SqlSink *sink, CombErr *err)
{
    SqlStmtCtx c;
    CombMemAcct mem = {0};  /* one budget, however many copies run */
    AstStmt *stmt = NULL;
    const char *sql = NULL;
    size_t sql_len = 0, skip = leading_comments_len(text, len);
    int rc;
    int64_t heap_base;
    static const SqlSink no_sink;

    memset(&c, 0, sizeof c);
    c.s = s;
    c.arena = &s->stmt_arena;
    c.sink = sink ? sink : &no_sink;
    mem.limit = sql_exec_mem_limit(s);
    c.mem = &mem;
    atomic_store_explicit(&cancel_flag, 0, memory_order_relaxed);
    comb_alloc_peak_reset();
    heap_base = comb_alloc_live_bytes();
    comb_err_clear(err);
    fs_remember(true);
    rc = substitute_variables(s, text + skip, len - skip, c.arena, &sql,
                              &sql_len, err);
    if (!rc)
        rc = sql_parse_statement(sql, sql_len, c.arena, &stmt, err);
    if (!rc) {
        c.stmt = stmt;
        if (!(rc = sql_authorize(&c, err)) &&
            !(rc = sql_txn_statement_check(&c, err)))
            rc = sql_locks_plan(&c, err);
    }
    if (!rc)
        rc = dispatch(&c, err);
    if (!rc)
        rc = sql_txn_commit(&c, err);
    if (!rc) {
        sql_crash_point(&c, "after_commit");
        sql_colstats_flush(&c);
    }
    if (!rc)
        rc = scan_stats_info(&c, err);
    if (!rc)
        rc = sql_exec_mem_stats(&c, comb_alloc_peak_bytes() - heap_base, err);
    txn_end(&c);
    sql_txn_statement_end(&c, rc, err);
    fs_remember(false);
    if (c.one_row.cols)
        comb_batch_free(&c.one_row);
    comb_arena_reset(&s->stmt_arena);
    return rc;
}
