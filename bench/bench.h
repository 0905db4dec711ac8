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

#include <libpq-fe.h>
#include <sqlite3.h>

#include "fs/fs.h"
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
 * bytes, set here) and a connection to it: 0 with *out; 77 when there is
 * no server to run (said on stdout for `who`); 1 on failure.  pg_close
 * ends both. */
static inline int pg_open(const char *who, char *dir, PGconn **out)
{
    char url[200];
    int rc;
    *out = NULL;
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
    snprintf(url, sizeof url, "postgresql://comb@/postgres?host=%s", dir);
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
