/*
 * bench.h - what every benchmark measures with (wall clock, CPU time and
 * peak RSS of this process), how it runs comb's, SQLite's and
 * PostgreSQL's statements, and the `[ROWS] [DIR]` arguments most benches
 * take.  Header only: each bench is one program.
 */
#ifndef COMB_BENCH_H
#define COMB_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "fs/fs.h"
#include "metastore/ms.h"
#include "sql/session.h"

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* User + system CPU seconds of this process so far: the machine may be
 * shared, and CPU time tells what wall time may not. */
static inline double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Run one statement, its rows to sink (NULL: none); 1 with the message on
 * stderr when it fails. */
static inline int comb_exec(SqlSession *s, const char *sql,
                            const SqlSink *sink)
{
    CombErr err;
    if (sql_session_execute(s, sql, strlen(sql), sink, &err)) {
        fprintf(stderr, "comb: %s\n  in: %.200s\n", err.msg, sql);
        return 1;
    }
    return 0;
}

/* SQLite's sqlite3_exec; 1 with the message on stderr when it fails. */
static inline int lite_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "sqlite: %s\n", msg);
        sqlite3_free(msg);
        return 1;
    }
    return 0;
}

/* tests/lib/pgserver.sh CMD DIR (a durable server for "start"), found
 * from this header's path (the benches run from the repository root);
 * its exit status, 77 when there is no PostgreSQL server to run. */
static inline int pg_server(const char *cmd, const char *dir)
{
    const char *file = __FILE__, *tail = strstr(file, "bench/bench.h");
    char line[9000];
    int status;
    snprintf(line, sizeof line, "bash '%.*stests/lib/pgserver.sh' %s '%s'%s",
             tail ? (int)(tail - file) : 0, file, cmd, dir,
             strcmp(cmd, "start") == 0 ? " durable" : "");
    fflush(stdout);
    status = system(line);
    return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A bench run as `name [ROWS] [DIR]`: ROWS rows (default_rows when not
 * given) in DIR, which keeps the files; without DIR a fresh temporary
 * directory, which bench_args_end removes. */
typedef struct BenchArgs {
    long rows;
    const char *dir;
    bool keep;               /* DIR was given */
    char tmpl[64];           /* the temporary directory's name */
} BenchArgs;

/* 0, or 2 (the exit status) with the usage line on stderr: ROWS not a
 * positive number, or no temporary directory. */
static inline int bench_args(BenchArgs *a, int argc, char **argv,
                             const char *name, long default_rows)
{
    a->rows = argc > 1 ? atol(argv[1]) : default_rows;
    a->keep = argc > 2;
    a->dir = NULL;
    snprintf(a->tmpl, sizeof a->tmpl, "/tmp/comb-%s.XXXXXX", name);
    if (a->rows > 0) /* no directory left behind by a bad call */
        a->dir = a->keep ? argv[2] : mkdtemp(a->tmpl);
    if (!a->dir) {
        fprintf(stderr, "usage: %s [ROWS] [DIR]\n", name);
        return 2;
    }
    return 0;
}

/* A PostgreSQL result of the status wanted: 0, else 1 with the server's
 * message on stderr (the result is cleared either way). */
static inline int pg_ok(PGconn *c, PGresult *r, ExecStatusType want)
{
    int ok = PQresultStatus(r) == want;
    if (!ok)
        fprintf(stderr, "postgresql: %s", PQerrorMessage(c));
    PQclear(r);
    return ok ? 0 : 1;
}

/* A durable PostgreSQL server of its own in a new directory dir (64
 * bytes, set here), its URL in url (n bytes): 0; 77 when there is no
 * server to run (said on stdout); 1 on failure (said on stderr for
 * `who`).  pg_server("stop", dir) ends it. */
static inline int pg_start(const char *who, char *dir, char *url, size_t n)
{
    int rc;
    snprintf(dir, 64, "/tmp/comb-pg-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if ((rc = pg_server("start", dir)) != 0) {
        pg_server("stop", dir);
        if (rc == 77) {
            printf("PostgreSQL: skipped (no server binaries)\n");
            return 77;
        }
        fprintf(stderr, "%s: the PostgreSQL server did not start\n", who);
        return 1;
    }
    snprintf(url, n, "postgresql://comb@/postgres?host=%s", dir);
    return 0;
}

/* pg_start's server and a connection to it: 0 with *out; 77, 1 as
 * pg_start.  pg_close ends both. */
static inline int pg_open(const char *who, char *dir, PGconn **out)
{
    char url[200];
    int rc = pg_start(who, dir, url, sizeof url);
    *out = NULL;
    if (rc)
        return rc;
    *out = PQconnectdb(url);
    if (PQstatus(*out) != CONNECTION_OK) {
        fprintf(stderr, "postgresql: %s", PQerrorMessage(*out));
        PQfinish(*out);
        *out = NULL;
        pg_server("stop", dir);
        return 1;
    }
    return 0;
}

/* A new directory $TMPDIR/comb-<name>-XXXXXX (/tmp without TMPDIR) in
 * tmp (n bytes): tmp, or NULL (said on stderr). */
static inline char *bench_tmpdir(char *tmp, size_t n, const char *name)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmp, n, "%s/comb-%s-XXXXXX", base, name);
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return NULL;
    }
    return tmp;
}

/* What the benches of concurrent clients on a metastore (txn, hms) run
 * on: a SQLite file in dir, or the PostgreSQL server at url. */
typedef struct BenchClientsOpts {
    const char *backend;     /* "sqlite" or "postgresql" */
    const char *dir;
    const char *url;         /* postgresql: the server's URL */
    double seconds;
    int clients;
} BenchClientsOpts;

/* A handle on that metastore (its warehouse dir/warehouse). */
static inline int bench_ms_open(const BenchClientsOpts *o, Ms **ms,
                                CombErr *err)
{
    char db[4200], wh[4200];
    snprintf(wh, sizeof wh, "%s/warehouse", o->dir);
    if (strcmp(o->backend, "sqlite") == 0) {
        snprintf(db, sizeof db, "%s/metastore.db", o->dir);
        return ms_open_sqlite(db, wh, ms, err);
    }
    if (strcmp(o->backend, "postgresql") == 0)
        return ms_open_pg(o->url, wh, ms, err);
    return comb_err(err, COMB_EINVALID,
                    "unknown backend '%s' (have: sqlite, postgresql)",
                    o->backend);
}

/* The options of the benches of concurrent clients (txn, hms) at
 * argv[*i]: --seconds S, --clients N or the directory; true when it was
 * one of them (*i moved past its value). */
static inline bool bench_clients_arg(int argc, char **argv, int *i,
                                     double *seconds, int *clients,
                                     const char **dir)
{
    if (strcmp(argv[*i], "--seconds") == 0 && *i + 1 < argc)
        *seconds = atof(argv[++*i]);
    else if (strcmp(argv[*i], "--clients") == 0 && *i + 1 < argc)
        *clients = atoi(argv[++*i]);
    else if (argv[*i][0] != '-' && !*dir)
        *dir = argv[*i];
    else
        return false;
    return true;
}

/* A client process's work: how many operations it did, -1 with *err
 * set when it failed. */
typedef long (*BenchClient)(void *arg, int client, CombErr *err);

/* `clients` processes (at most 64) running fn(arg, c), each started
 * before any works (they wait for the go, so that none runs alone):
 * their total count, in *elapsed the seconds from the go to the last
 * one's end.  A failed client is said (for `who`) and ends the bench. */
static inline long bench_clients_run(const char *who, int clients,
                                     BenchClient fn, void *arg,
                                     double *elapsed)
{
    int fds[64][2], go[2];
    pid_t pids[64];
    long total = 0;
    double start;
    bool failed = false;
    if (clients > 64 || pipe(go)) {
        fprintf(stderr, "%s: cannot start %d clients\n", who, clients);
        exit(1);
    }
    for (int c = 0; c < clients; c++) {
        if (pipe(fds[c]) != 0 || (pids[c] = fork()) < 0) {
            perror(who);
            exit(1);
        }
        if (pids[c] == 0) {
            CombErr err = {0};
            char byte;
            long n = -1;
            close(go[1]);
            if (read(go[0], &byte, 1) == 0)         /* the go: go[1] closed */
                n = fn(arg, c, &err);
            if (n < 0)
                fprintf(stderr, "%s: client %d: %s\n", who, c, err.msg);
            if (write(fds[c][1], &n, sizeof n) != sizeof n)
                _exit(2);
            _exit(n < 0);
        }
        close(fds[c][1]);
    }
    close(go[0]);
    start = now();
    close(go[1]);
    for (int c = 0; c < clients; c++) {
        long n = -1;
        if (read(fds[c][0], &n, sizeof n) != sizeof n || n < 0)
            failed = true;
        else
            total += n;
        close(fds[c][0]);
        waitpid(pids[c], NULL, 0);
    }
    *elapsed = now() - start;
    if (failed) {
        fprintf(stderr, "%s: a client failed\n", who);
        exit(1);
    }
    return total;
}

static inline void bench_args_end(const BenchArgs *a)
{
    CombErr err;
    if (!a->keep)
        fs_remove_tree(a->dir, &err);
}

static inline void pg_close(PGconn *c, const char *dir)
{
    PQfinish(c);
    pg_server("stop", dir);
}

#endif
