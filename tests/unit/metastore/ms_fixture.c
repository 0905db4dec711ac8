/*
 * ms_fixture.c - the metastore tests' fixture (ms_fixture.h): fresh
 * metastores and direct SQL on either backend, and the throw-away
 * PostgreSQL server of one run of the test binary.
 *
 * The server (tests/lib/pgserver.sh) starts at the first PostgreSQL test:
 * a data directory and Unix socket in a new temporary directory, no TCP
 * port, one database "comb" in which each test gets a schema of its own
 * (its URL sets search_path; a schema is much quicker to make than a
 * database).  A guard process forked at the start holds the read end of a
 * pipe whose write end only this process holds: when the process ends, in
 * whatever way (a failed test, a sanitizer abort, SIGKILL), the guard reads
 * end-of-file and stops the server and removes its directory.
 */
#include "ms_fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

FxBackend fx_backend = FX_SQLITE;

static struct {
    bool tried;          /* start attempted (once per run) */
    bool up;
    bool no_binaries;    /* PostgreSQL is not installed: skip */
    char why[1000];      /* what went wrong */
    char dir[128];       /* data directory and socket */
    char admin[300];     /* URL of database "comb" */
    pid_t owner;         /* the process that started it */
    pid_t guard;
    int guard_fd;        /* the owner's end of the guard's pipe */
    int schemas;         /* handed out so far */
} pg = {.guard_fd = -1};

/* ---------------------------------------------------------- the server */

/* tests/lib/pgserver.sh, found from this file's path (the tests run from
 * the repository root, as tests/run.sh does). */
static void pg_script_path(char *buf, size_t cap)
{
    const char *file = __FILE__;
    const char *tail = strstr(file, "tests/unit/metastore/");
    snprintf(buf, cap, "%.*stests/lib/pgserver.sh",
             tail ? (int)(tail - file) : 0, file);
}

/* Run pgserver.sh with arguments `cmd dir`; its output (both streams) into
 * out.  Its exit status, or -1. */
static int pg_script(const char *cmd, char *out, size_t cap)
{
    char script[700], line[1600];
    size_t used = 0;
    FILE *p;
    int status;
    pg_script_path(script, sizeof script);
    snprintf(line, sizeof line, "bash '%s' %s '%s' 2>&1", script, cmd,
             pg.dir);
    out[0] = '\0';
    fflush(stdout);
    if (!(p = popen(line, "r")))
        return -1;
    while (used + 1 < cap && fgets(out + used, (int)(cap - used), p))
        used += strlen(out + used);
    status = pclose(p);
    return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The guard: a shell (so that it is not mistaken for the test binary)
 * that waits for end-of-file on the pipe, its standard input, then removes
 * the server.  Signals that would end the test binary with it are
 * ignored, so that it outlives it. */
static void pg_guard_run(int fd)
{
    char script[700];
    int null = open("/dev/null", O_WRONLY);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    dup2(fd, STDIN_FILENO);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    pg_script_path(script, sizeof script);
    execlp("bash", "bash", "-c",
           "cat > /dev/null; exec bash \"$0\" stop \"$1\"", script, pg.dir,
           (char *)NULL);
    _exit(1);
}

static void pg_guard_start(void)
{
    int fds[2];
    pid_t pid;
    if (pipe(fds) != 0)
        return;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        close(fds[1]);
        pg_guard_run(fds[0]);
    }
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return;
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pg.guard = pid;
    pg.guard_fd = fds[1];
}

/* At exit of the process that started the server (not of the children
 * tests fork): the guard removes it; wait until it has. */
static void pg_cleanup(void)
{
    if (getpid() != pg.owner || pg.guard_fd < 0)
        return;
    close(pg.guard_fd);
    pg.guard_fd = -1;
    waitpid(pg.guard, NULL, 0);
}

/* Run one statement on a URL; 0 when it worked, else the message in
 * pg.why. */
static int pg_exec_url(const char *url, const char *sql)
{
    PGconn *c = PQconnectdb(url);
    PGresult *r = NULL;
    int rc = 1;
    if (PQstatus(c) == CONNECTION_OK) {
        r = PQexec(c, sql);
        rc = PQresultStatus(r) == PGRES_COMMAND_OK ||
                     PQresultStatus(r) == PGRES_TUPLES_OK
                 ? 0
                 : 1;
    }
    if (rc)
        snprintf(pg.why, sizeof pg.why, "%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return rc;
}

static void pg_start(void)
{
    const char *tmp = getenv("TMPDIR");
    char url[300];
    int rc;
    pg.tried = true;
    pg.owner = getpid();
    /* root runs the server as "nobody", who must reach the directory */
    snprintf(pg.dir, sizeof pg.dir, "%s/comb-pg-XXXXXX",
             getuid() == 0 || !tmp ? "/tmp" : tmp);
    if (!mkdtemp(pg.dir)) {
        snprintf(pg.why, sizeof pg.why, "mkdtemp %s: %s", pg.dir,
                 strerror(errno));
        return;
    }
    pg_guard_start();
    atexit(pg_cleanup);
    rc = pg_script("start", pg.why, sizeof pg.why);
    pg.no_binaries = rc == 77;
    if (rc != 0)
        return;
    snprintf(url, sizeof url, "postgresql://comb@/postgres?host=%s", pg.dir);
    snprintf(pg.admin, sizeof pg.admin, "postgresql://comb@/comb?host=%s",
             pg.dir);
    /* a linguistic default collation (where the server has ICU), so that
     * what the metastore orders is ordered by bytes whatever the
     * database's default */
    pg.up = pg_exec_url(url, "CREATE DATABASE comb TEMPLATE template0 "
                             "LOCALE_PROVIDER icu ICU_LOCALE 'en-US'") == 0 ||
            pg_exec_url(url, "CREATE DATABASE comb") == 0;
}

bool fx_pg_ready(void)
{
    char why[1100];
    if (!pg.tried)
        pg_start();
    if (pg.up)
        return true;
    snprintf(why, sizeof why, "%s", pg.why);
    why[strcspn(why, "\n")] = '\0';
    if (pg.no_binaries)
        unit_skip(why);
    else
        unit_fail(__FILE__, __LINE__, "no PostgreSQL server: %s", pg.why);
    return false;
}

int fx_pg_pause(void)
{
    return pg_script("pause", pg.why, sizeof pg.why);
}

int fx_pg_resume(void)
{
    return pg_script("resume", pg.why, sizeof pg.why);
}

/* ------------------------------------------------------------ metastores */

void fx_paths(Fx *fx)
{
    const char *dir = unit_tmpdir();
    char sql[64];
    fx->backend = fx_backend;
    snprintf(fx->warehouse, sizeof fx->warehouse, "%s/warehouse", dir);
    if (fx_backend == FX_SQLITE) {
        snprintf(fx->db, sizeof fx->db, "%s/metastore.db", dir);
        snprintf(fx->where, sizeof fx->where, "%s", fx->db);
        return;
    }
    snprintf(sql, sizeof sql, "CREATE SCHEMA t%d", ++pg.schemas);
    if (pg_exec_url(pg.admin, sql) != 0)
        unit_fail(__FILE__, __LINE__, "%s", pg.why);
    snprintf(fx->db, sizeof fx->db, "%s&options=-csearch_path%%3Dt%d",
             pg.admin, pg.schemas);
    snprintf(fx->where, sizeof fx->where, "%s", pg.admin);
}

int fx_open(Fx *fx, Ms **ms, CombErr *err)
{
    fx_paths(fx);
    return ms_open(fx->db, fx->warehouse, ms, err);
}

int fx_reopen(const Fx *fx, const char *warehouse, Ms **ms, CombErr *err)
{
    return ms_open(fx->db, warehouse ? warehouse : fx->warehouse, ms, err);
}

/* --------------------------------------------------------- direct SQL */

/* The first row's first column of a query on the PostgreSQL schema into
 * buf; false on failure. */
static bool pg_sql_first(const Fx *fx, const char *sql, char *buf,
                         size_t cap)
{
    PGconn *c = PQconnectdb(fx->db);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    ExecStatusType st = PQresultStatus(r);
    bool ok = st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK;
    buf[0] = '\0';
    if (ok && st == PGRES_TUPLES_OK && PQntuples(r) > 0)
        snprintf(buf, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(c);
    return ok;
}

long long fx_sql_int(const Fx *fx, const char *sql)
{
    char text[64];
    if (fx->backend == FX_PG)
        return pg_sql_first(fx, sql, text, sizeof text) && text[0]
                   ? strtoll(text, NULL, 10)
                   : -1;
    return unit_sqlite_int(fx->db, sql);
}

int fx_sql_exec(const Fx *fx, const char *sql)
{
    sqlite3 *db = NULL;
    char ignored[8];
    int rc;
    if (fx->backend == FX_PG)
        return pg_sql_first(fx, sql, ignored, sizeof ignored) ? 0 : 1;
    rc = sqlite3_open_v2(fx->db, &db, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

void fx_sql_text(const Fx *fx, const char *sql, char *buf, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int step = SQLITE_ERROR;
    if (fx->backend == FX_PG) {
        if (!pg_sql_first(fx, sql, buf, cap))
            snprintf(buf, cap, "(error)");
        return;
    }
    snprintf(buf, cap, "(error)");
    if (sqlite3_open_v2(fx->db, &db, SQLITE_OPEN_READWRITE, NULL) ==
            SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
        step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        snprintf(buf, cap, "%s",
                 sqlite3_column_text(st, 0)
                     ? (const char *)sqlite3_column_text(st, 0)
                     : "");
    else if (step == SQLITE_DONE)
        buf[0] = '\0';
    sqlite3_finalize(st);
    sqlite3_close(db);
}

bool fx_table_exists(const Fx *fx, const char *table)
{
    char sql[300];
    if (fx->backend == FX_PG)
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM information_schema.tables WHERE "
                 "table_schema = current_schema() AND table_name = "
                 "lower('%s')",
                 table);
    else
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                 "AND name = '%s'",
                 table);
    return fx_sql_int(fx, sql) == 1;
}

/* The text of data/<name> next to this file, in the arena; NULL when it
 * cannot be read. */
static char *fx_data_text(const char *name, CombArena *a)
{
    const char *file = __FILE__, *slash = strrchr(file, '/');
    char path[700];
    CombErr err;
    unsigned char *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%.*s/data/%s",
             slash ? (int)(slash - file) : 1, slash ? file : ".", name);
    if (fs_read_file(path, a, &text, &len, &err) != COMB_OK)
        return NULL;
    return comb_arena_strndup(a, (const char *)text, len);
}

int fx_load_v1(Fx *fx)
{
    CombArena a;
    sqlite3 *db = NULL;
    char *text;
    int rc;
    fx_paths(fx);
    comb_arena_init(&a, 0);
    rc = !(text = fx_data_text("metastore_v1.sql", &a))
             ? SQLITE_CANTOPEN
             : sqlite3_open_v2(fx->db, &db,
                               SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                               NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, text, NULL, NULL, NULL);
    sqlite3_close(db);
    comb_arena_free(&a);
    return rc;
}

int fx_load_pg_v2(Fx *fx)
{
    CombArena a;
    char *text;
    int rc;
    fx_paths(fx);
    comb_arena_init(&a, 0);
    rc = (text = fx_data_text("metastore_pg_v2.sql", &a)) ? fx_sql_exec(fx, text)
                                                         : 1;
    comb_arena_free(&a);
    return rc;
}
