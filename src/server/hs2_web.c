/*
 * hs2_web.c - the server's status page (hive.server2.webui.port), served
 * by libsoup on a thread of its own: the open sessions, the running and
 * recent statements, the open transactions, the locks (acquired and
 * waiting, and what blocks each), the compaction queue and history, and
 * per ACID table and partition its deltas, delete deltas, small files and
 * obsolete directories.  /  is one auto-refreshing HTML page of all of
 * them; /api/<section> the same as JSON (sessions, queries, transactions,
 * locks, compactions, tables); /metrics Prometheus' text format.
 *
 * The sections of the warehouse are the answers of SHOW TRANSACTIONS,
 * SHOW LOCKS, SHOW COMPACTIONS and SHOW COMPACTION METRICS, run by the
 * page's own SQL session (one request at a time), so the page and the SQL
 * say the same.  With hive.server2.authentication=PASSWORD a request
 * needs HTTP Basic credentials of the password file.
 */
#include "server/hs2_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libsoup/soup.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "metastore/ms.h"
#include "server/hs2_passwd.h"
#include "sql/func/value.h"
#include "sql/session.h"

struct Hs2Web {
    const Hs2Security *sec;
    SqlSession *sql;            /* used by the page's thread alone */
    GMainContext *ctx;
    GMainLoop *loop;
    SoupServer *server;
    pthread_t thread;
    bool started;
};

/* ------------------------------------------------------------- grids */

/* A section: column names and rows of text (NULL for SQL NULL). */
typedef struct Grid {
    const char *title, *key;    /* heading, and its /api name */
    int n_cols;
    char **names;
    char **cells;               /* n_rows * n_cols */
    int n_rows, cap;
    CombArena *a;
} Grid;

static int grid_begin(void *ctx, int n_cols, const char *const *names,
                      const CombTypeKind *kinds, CombErr *err)
{
    Grid *g = ctx;
    (void)kinds;
    g->n_cols = n_cols;
    if (!(g->names = comb_arena_alloc(g->a, (size_t)(n_cols + 1) * sizeof *g->names)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_cols; i++)
        if (!(g->names[i] = comb_arena_strdup(g->a, names[i])))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int grid_room(Grid *g, int more, CombErr *err)
{
    if (g->n_rows + more <= g->cap)
        return COMB_OK;
    int cap = g->cap ? g->cap * 2 : 64;
    while (cap < g->n_rows + more)
        cap *= 2;
    char **cells = comb_arena_alloc(g->a, (size_t)cap * (size_t)g->n_cols *
                                              sizeof *cells + 1);
    if (!cells)
        return comb_err_nomem(err);
    if (g->n_rows)
        memcpy(cells, g->cells, (size_t)g->n_rows * (size_t)g->n_cols *
                                    sizeof *cells);
    g->cells = cells;
    g->cap = cap;
    return COMB_OK;
}

static int grid_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Grid *g = ctx;
    CombBuf text = COMB_BUF_INIT;
    int n = b->use_sel ? b->n_sel : b->n_rows, rc = grid_room(g, n, err);
    for (int i = 0; !rc && i < n; i++) {
        int row = b->use_sel ? b->sel[i] : i;
        for (int c = 0; !rc && c < g->n_cols; c++) {
            char **cell = &g->cells[(size_t)g->n_rows * (size_t)g->n_cols + (size_t)c];
            const CombVector *v = &b->cols[c];
            *cell = NULL;
            if (v->has_nulls && v->nulls[row])
                continue;
            comb_buf_clear(&text);
            if (sql_format_value(v, row, &text) ||
                !(*cell = comb_arena_strndup(g->a, text.data ? (char *)text.data : "",
                                             text.len)))
                rc = comb_err_nomem(err);
        }
        g->n_rows++;
    }
    comb_buf_free(&text);
    return rc;
}

/* The grid of one statement's answer. */
static int grid_sql(struct Hs2Web *w, Grid *g, const char *sql, CombErr *err)
{
    SqlSink sink = {g, grid_begin, grid_batch, NULL, NULL};
    return sql_session_execute(w->sql, sql, strlen(sql), &sink, err);
}

static int grid_row(Grid *g, const char *const *vals, CombErr *err)
{
    int rc = grid_room(g, 1, err);
    for (int c = 0; !rc && c < g->n_cols; c++) {
        char **cell = &g->cells[(size_t)g->n_rows * (size_t)g->n_cols + (size_t)c];
        *cell = vals[c] ? comb_arena_strdup(g->a, vals[c]) : NULL;
        if (vals[c] && !*cell)
            rc = comb_err_nomem(err);
    }
    if (!rc)
        g->n_rows++;
    return rc;
}

static int grid_columns(Grid *g, const char *const *names, int n, CombErr *err)
{
    return grid_begin(g, n, names, NULL, err);
}

static const char *cell(const Grid *g, int row, int col)
{
    return g->cells[(size_t)row * (size_t)g->n_cols + (size_t)col];
}

static int column(const Grid *g, const char *name)
{
    for (int c = 0; c < g->n_cols; c++)
        if (!strcasecmp(g->names[c], name))
            return c;
    return -1;
}

/* ---------------------------------------------------------- sections */

static const char *num(CombArena *a, int64_t v)
{
    return comb_arena_printf(a, "%lld", (long long)v);
}

static const char *when(CombArena *a, int64_t ms)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    char buf[32];
    if (!ms)
        return NULL;
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return comb_arena_printf(a, "%s.%03d UTC", buf, (int)(ms % 1000));
}

static int sessions_grid(Grid *g, CombErr *err)
{
    static const char *const names[] = {"user", "opened", "idle_ms", "busy"};
    Hs2SessionRow *rows;
    int64_t now = hs2_epoch_ms();
    int n, rc;
    if (hs2_sessions_list(&rows, &n))
        return comb_err_nomem(err);
    rc = grid_columns(g, names, 4, err);
    for (int i = 0; !rc && i < n; i++) {
        const char *vals[4] = {rows[i].user, when(g->a, rows[i].opened_ms),
                               num(g->a, rows[i].busy ? 0 : now - rows[i].used_ms),
                               rows[i].busy ? "true" : "false"};
        rc = grid_row(g, vals, err);
    }
    comb_free(rows);
    return rc;
}

static int64_t queries_total;

static int queries_grid(Grid *g, CombErr *err)
{
    static const char *const names[] = {"user", "state", "started", "ended",
                                        "duration_ms", "rows", "statement",
                                        "error"};
    Hs2QueryRow *rows;
    int64_t now = hs2_epoch_ms();
    int n, rc = hs2_queries_list(&rows, &n, &queries_total)
                    ? comb_err_nomem(err) : COMB_OK;
    if (rc)
        return rc;
    rc = grid_columns(g, names, 8, err);
    for (int i = 0; !rc && i < n; i++) {
        const Hs2QueryRow *q = &rows[i];
        const char *vals[8] = {
            q->user, q->state, when(g->a, q->started_ms), when(g->a, q->ended_ms),
            num(g->a, (q->ended_ms ? q->ended_ms : now) - q->started_ms),
            q->ended_ms ? num(g->a, q->rows) : NULL, q->text, q->error};
        rc = grid_row(g, vals, err);
    }
    hs2_queries_free(rows, n);
    return rc;
}

/* Every ACID table's SHOW COMPACTION METRICS, in one grid. */
static int tables_grid(struct Hs2Web *w, Grid *g, CombErr *err)
{
    Ms *ms = sql_session_metastore(w->sql);
    char **dbs, **tables;
    int n_dbs, n_tables, rc = ms_db_list(ms, g->a, &dbs, &n_dbs, err);
    static const char *const names[] = {
        "dbname", "tabname", "partname", "base", "deltas", "deletedeltas",
        "files", "smallfiles", "bytes", "obsoletedirs", "aborteddirs"};
    if (!rc)
        rc = grid_columns(g, names, 11, err);
    for (int d = 0; !rc && d < n_dbs; d++) {
        if ((rc = ms_table_list(ms, dbs[d], g->a, &tables, &n_tables, err)))
            break;
        for (int t = 0; !rc && t < n_tables; t++) {
            MsTable *mt;
            Grid one = {NULL, NULL, 0, NULL, NULL, 0, 0, g->a};
            if ((rc = ms_table_get(ms, dbs[d], tables[t], g->a, &mt, err)))
                break;
            if (!ms_table_is_transactional(mt) || !mt->location)
                continue;
            rc = grid_sql(w, &one, comb_arena_printf(g->a, "SHOW COMPACTION "
                                                     "METRICS `%s`.`%s`",
                                                     dbs[d], tables[t]),
                          err);
            for (int r = 0; !rc && r < one.n_rows; r++)
                rc = grid_row(g, (const char *const *)&one.cells[(size_t)r * 11], err);
        }
    }
    return rc;
}

/* The sections, in the page's order. */
enum { S_SESSIONS, S_QUERIES, S_TRANSACTIONS, S_LOCKS, S_COMPACTIONS,
       S_TABLES, N_SECTIONS };

static const char *const section_keys[N_SECTIONS] = {
    "sessions", "queries", "transactions", "locks", "compactions", "tables"};
static const char *const section_titles[N_SECTIONS] = {
    "Sessions", "Statements (running, then the last 50)",
    "Open transactions", "Locks", "Compactions (queue and history)",
    "ACID tables and partitions"};

static int section(struct Hs2Web *w, int s, Grid *g, CombErr *err)
{
    g->key = section_keys[s];
    g->title = section_titles[s];
    switch (s) {
    case S_SESSIONS: return sessions_grid(g, err);
    case S_QUERIES: return queries_grid(g, err);
    case S_TRANSACTIONS: return grid_sql(w, g, "SHOW TRANSACTIONS", err);
    case S_LOCKS: return grid_sql(w, g, "SHOW LOCKS", err);
    case S_COMPACTIONS: return grid_sql(w, g, "SHOW COMPACTIONS", err);
    default: return tables_grid(w, g, err);
    }
}

/* --------------------------------------------------------- rendering */

static void html_text(CombBuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': comb_buf_append_str(b, "&lt;"); break;
        case '>': comb_buf_append_str(b, "&gt;"); break;
        case '&': comb_buf_append_str(b, "&amp;"); break;
        case '"': comb_buf_append_str(b, "&quot;"); break;
        default: comb_buf_append_byte(b, (unsigned char)*s);
        }
    }
}

static void html_grid(CombBuf *b, const Grid *g)
{
    comb_buf_printf(b, "<h2 id=\"%s\">", g->key);
    html_text(b, g->title);
    comb_buf_printf(b, " <small>(%d) <a href=\"/api/%s\">json</a></small>"
                       "</h2>\n<table class=\"%s\"><tr>", g->n_rows, g->key, g->key);
    for (int c = 0; c < g->n_cols; c++) {
        comb_buf_append_str(b, "<th>");
        html_text(b, g->names[c]);
        comb_buf_append_str(b, "</th>");
    }
    comb_buf_append_str(b, "</tr>\n");
    for (int r = 0; r < g->n_rows; r++) {
        comb_buf_append_str(b, "<tr>");
        for (int c = 0; c < g->n_cols; c++) {
            const char *v = cell(g, r, c);
            comb_buf_append_str(b, v ? "<td>" : "<td class=\"null\">");
            html_text(b, v ? v : "NULL");
            comb_buf_append_str(b, "</td>");
        }
        comb_buf_append_str(b, "</tr>\n");
    }
    comb_buf_append_str(b, "</table>\n");
}

static void json_text(CombBuf *b, const char *s)
{
    comb_buf_append_byte(b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            comb_buf_printf(b, "\\%c", ch);
        else if (ch < 0x20)
            comb_buf_printf(b, "\\u%04x", ch);
        else
            comb_buf_append_byte(b, ch);
    }
    comb_buf_append_byte(b, '"');
}

static void json_grid(CombBuf *b, const Grid *g)
{
    comb_buf_append_byte(b, '[');
    for (int r = 0; r < g->n_rows; r++) {
        comb_buf_append_str(b, r ? ",\n{" : "\n{");
        for (int c = 0; c < g->n_cols; c++) {
            const char *v = cell(g, r, c);
            if (c)
                comb_buf_append_byte(b, ',');
            json_text(b, g->names[c]);
            comb_buf_append_byte(b, ':');
            if (v)
                json_text(b, v);
            else
                comb_buf_append_str(b, "null");
        }
        comb_buf_append_byte(b, '}');
    }
    comb_buf_append_str(b, "]\n");
}

/* How many rows of g have `value` in column `name` (any, NULL value). */
static int count_where(const Grid *g, const char *name, const char *value)
{
    int c = column(g, name), n = 0;
    for (int r = 0; r < g->n_rows; r++)
        n += !value || (c >= 0 && cell(g, r, c) && !strcasecmp(cell(g, r, c), value));
    return n;
}

static void prom_label(CombBuf *b, const char *k, const char *v, bool first)
{
    comb_buf_printf(b, "%s%s=\"", first ? "" : ",", k);
    for (; v && *v; v++) {
        if (*v == '\\' || *v == '"')
            comb_buf_printf(b, "\\%c", *v);
        else if (*v == '\n')
            comb_buf_append_str(b, "\\n");
        else
            comb_buf_append_byte(b, (unsigned char)*v);
    }
    comb_buf_append_byte(b, '"');
}

static void prom_head(CombBuf *b, const char *name, const char *type,
                      const char *help)
{
    comb_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void metrics(CombBuf *b, Grid *s)
{
    static const char *const lock_states[] = {"ACQUIRED", "WAITING"};
    static const char *const cq_states[] = {"initiated", "working",
                                            "ready for cleaning", "failed",
                                            "succeeded", "did not initiate",
                                            "refused", "aborted"};
    static const char *const table_metrics[][3] = {
        {"comb_table_deltas", "deltas", "Delta directories in view."},
        {"comb_table_delete_deltas", "deletedeltas", "Delete delta directories in view."},
        {"comb_table_small_files", "smallfiles", "Files under hive.merge.smallfiles.avgsize."},
        {"comb_table_obsolete_dirs", "obsoletedirs", "Directories a cleaner may remove."},
        {"comb_table_aborted_dirs", "aborteddirs", "Directories of aborted writes."}};
    const Grid *t = &s[S_TABLES];
    prom_head(b, "comb_sessions", "gauge", "Open HiveServer2 sessions.");
    comb_buf_printf(b, "comb_sessions %d\n", s[S_SESSIONS].n_rows);
    prom_head(b, "comb_statements_running", "gauge", "Statements running now.");
    comb_buf_printf(b, "comb_statements_running %d\n",
                    count_where(&s[S_QUERIES], "state", "RUNNING"));
    prom_head(b, "comb_statements_total", "counter", "Statements begun since the start.");
    comb_buf_printf(b, "comb_statements_total %lld\n", (long long)queries_total);
    prom_head(b, "comb_open_transactions", "gauge", "Transactions open or aborted and not yet cleaned.");
    comb_buf_printf(b, "comb_open_transactions %d\n", s[S_TRANSACTIONS].n_rows);
    prom_head(b, "comb_locks", "gauge", "Locks by state.");
    for (int i = 0; i < 2; i++)
        comb_buf_printf(b, "comb_locks{state=\"%s\"} %d\n", lock_states[i],
                        count_where(&s[S_LOCKS], "State", lock_states[i]));
    prom_head(b, "comb_compactions", "gauge", "Compactions queued or in the history, by state.");
    for (int i = 0; i < 8; i++)
        comb_buf_printf(b, "comb_compactions{state=\"%s\"} %d\n", cq_states[i],
                        count_where(&s[S_COMPACTIONS], "state", cq_states[i]));
    for (int m = 0; m < 5; m++) {
        int col = column(t, table_metrics[m][1]);
        prom_head(b, table_metrics[m][0], "gauge", table_metrics[m][2]);
        for (int r = 0; col >= 0 && r < t->n_rows; r++) {
            comb_buf_printf(b, "%s{", table_metrics[m][0]);
            prom_label(b, "db", cell(t, r, 0), true);
            prom_label(b, "table", cell(t, r, 1), false);
            prom_label(b, "partition", cell(t, r, 2), false);
            comb_buf_printf(b, "} %s\n", cell(t, r, col) ? cell(t, r, col) : "0");
        }
    }
}

/* ----------------------------------------------------------- serving */

static pthread_mutex_t page_lock = PTHREAD_MUTEX_INITIALIZER;

static void reply(SoupServerMessage *msg, int status, const char *type,
                  CombBuf *body)
{
    /* one request per connection: libsoup 3.2 leaks an idle connection
     * its client closes (fixed in 3.3), and a page is one request */
    soup_message_headers_replace(soup_server_message_get_response_headers(msg),
                                 "Connection", "close");
    soup_server_message_set_status(msg, (guint)status, NULL);
    soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY,
                                     body->data ? (char *)body->data : "",
                                     body->len);
}

static void page(CombBuf *b, Grid *s, int refresh)
{
    comb_buf_printf(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                       "<meta http-equiv=\"refresh\" content=\"%d\">"
                       "<title>comb serve</title><style>"
                       "body{font-family:sans-serif;margin:1em}"
                       "table{border-collapse:collapse;margin-bottom:1em}"
                       "td,th{border:1px solid #bbb;padding:2px 6px;"
                       "font-size:13px;text-align:left;vertical-align:top}"
                       "th{background:#eee}td.null{color:#999}"
                       "</style></head><body>\n<h1>comb serve</h1>\n"
                       "<p>Refreshes every %d s. <a href=\"/metrics\">"
                       "metrics</a></p>\n", refresh, refresh);
    for (int i = 0; i < N_SECTIONS; i++)
        html_grid(b, &s[i]);
    comb_buf_append_str(b, "</body></html>\n");
}

static void handle(SoupServer *server, SoupServerMessage *msg,
                   const char *path, GHashTable *query, gpointer data)
{
    struct Hs2Web *w = data;
    const char *refresh = query ? g_hash_table_lookup(query, "refresh") : NULL;
    Grid s[N_SECTIONS];
    CombArena a;
    CombBuf body = COMB_BUF_INIT;
    CombErr err;
    int rc = COMB_OK, want = -1;
    (void)server;
    if (strcmp(soup_server_message_get_method(msg), "GET") != 0) {
        comb_buf_append_str(&body, "only GET\n");
        reply(msg, 405, "text/plain", &body);
        comb_buf_free(&body);
        return;
    }
    for (int i = 0; i < N_SECTIONS; i++)
        if (!strncmp(path, "/api/", 5) && !strcmp(path + 5, section_keys[i]))
            want = i;
    if (strcmp(path, "/") && strcmp(path, "/metrics") && want < 0) {
        comb_buf_printf(&body, "no page %s: /, /metrics or /api/{sessions,"
                               "queries,transactions,locks,compactions,"
                               "tables}\n", path);
        reply(msg, 404, "text/plain", &body);
        comb_buf_free(&body);
        return;
    }
    comb_arena_init(&a, 64 * 1024);
    pthread_mutex_lock(&page_lock);
    for (int i = 0; i < N_SECTIONS && !rc; i++) {
        s[i] = (Grid){NULL, NULL, 0, NULL, NULL, 0, 0, &a};
        if (want < 0 || want == i)
            rc = section(w, i, &s[i], &err);
    }
    pthread_mutex_unlock(&page_lock);
    if (rc) {
        comb_buf_printf(&body, "the status could not be read: %s\n", err.msg);
        reply(msg, 500, "text/plain", &body);
    } else if (want >= 0) {
        json_grid(&body, &s[want]);
        reply(msg, 200, "application/json", &body);
    } else if (!strcmp(path, "/metrics")) {
        metrics(&body, s);
        reply(msg, 200, "text/plain; version=0.0.4", &body);
    } else {
        page(&body, s, refresh && atoi(refresh) > 0 ? atoi(refresh) : 5);
        reply(msg, 200, "text/html; charset=utf-8", &body);
    }
    comb_buf_free(&body);
    comb_arena_free(&a);
}

static gboolean basic_auth(SoupAuthDomain *domain, SoupServerMessage *msg,
                           const char *user, const char *password,
                           gpointer data)
{
    const struct Hs2Web *w = data;
    CombErr err;
    bool ok = false;
    (void)domain;
    (void)msg;
    if (hs2_passwd_check(w->sec->password_file, user, password, &ok, &err))
        fprintf(stderr, "comb serve: %s\n", err.msg);
    return ok;
}

static void *web_thread(void *arg)
{
    struct Hs2Web *w = arg;
    g_main_context_push_thread_default(w->ctx);
    g_main_loop_run(w->loop);
    g_main_context_pop_thread_default(w->ctx);
    return NULL;
}

static int web_listen(struct Hs2Web *w, const char *host, int port,
                      CombErr *err)
{
    GError *error = NULL;
    GInetAddress *addr = g_inet_address_new_from_string(host);
    GSocketAddress *sa;
    int rc = COMB_OK;
    if (!addr)
        return comb_err(err, COMB_EINVALID, "hive.server2.webui.host: '%s' "
                        "is not an address", host);
    sa = g_inet_socket_address_new(addr, (guint16)port);
    if (!soup_server_listen(w->server, sa, 0, &error)) {
        rc = comb_err(err, COMB_EIO, "cannot listen for the status page on "
                      "%s port %d: %s", host, port, error->message);
        g_clear_error(&error);
    }
    g_object_unref(sa);
    g_object_unref(addr);
    return rc;
}

int hs2_web_start(const Hs2Options *opt, const struct Hs2Security *sec,
                  struct Hs2Web **out, CombErr *err)
{
    const char *host = hs2_conf_value(opt, "hive.server2.webui.host");
    SqlSessionOptions so = {opt->warehouse, "comb-webui", opt->metastore,
                            false, NULL};
    struct Hs2Web *w;
    long port = 10002;
    int rc;
    *out = NULL;
    /* 0 or less: no status page, as Hive's */
    if ((rc = hs2_conf_long(opt, "hive.server2.webui.port", -65535, 65535,
                            &port, err)))
        return rc;
    if (port <= 0)
        return COMB_OK;
    if (!(w = comb_calloc(1, sizeof *w)))
        return comb_err_nomem(err);
    w->sec = sec;
    if ((rc = sql_session_open(&so, &w->sql, err))) {
        comb_free(w);
        return rc;
    }
    w->ctx = g_main_context_new();
    w->loop = g_main_loop_new(w->ctx, FALSE);
    g_main_context_push_thread_default(w->ctx);
    w->server = soup_server_new("server-header", "comb", NULL);
    soup_server_add_handler(w->server, NULL, handle, w, NULL);
    if (sec->mode == HS2_AUTH_PASSWORD) {
        SoupAuthDomain *d = soup_auth_domain_basic_new("realm", "comb serve",
                                                       NULL);
        soup_auth_domain_basic_set_auth_callback(d, basic_auth, w, NULL);
        soup_auth_domain_add_path(d, "/");
        soup_server_add_auth_domain(w->server, d);
        g_object_unref(d);
    }
    rc = web_listen(w, host ? host : opt->bind ? opt->bind : "127.0.0.1",
                    (int)port, err);
    g_main_context_pop_thread_default(w->ctx);
    if (!rc && pthread_create(&w->thread, NULL, web_thread, w))
        rc = comb_err(err, COMB_EIO, "cannot start the status page's thread");
    w->started = !rc;
    if (rc) {
        hs2_web_stop(w);
        return rc;
    }
    if (opt->status_page)
        opt->status_page(host ? host : opt->bind ? opt->bind : "127.0.0.1",
                         (int)port);
    *out = w;
    return COMB_OK;
}

void hs2_web_stop(struct Hs2Web *w)
{
    if (!w)
        return;
    if (w->started) {
        g_main_loop_quit(w->loop);
        pthread_join(w->thread, NULL);
    }
    /* the connections' ends run on the page's context: let them, so that
     * what they hold is freed */
    g_main_context_push_thread_default(w->ctx);
    if (w->server) {
        soup_server_disconnect(w->server);
        g_object_unref(w->server);
    }
    while (g_main_context_iteration(w->ctx, FALSE))
        ;
    g_main_context_pop_thread_default(w->ctx);
    g_main_loop_unref(w->loop);
    g_main_context_unref(w->ctx);
    sql_session_close(w->sql);
    comb_free(w);
}
