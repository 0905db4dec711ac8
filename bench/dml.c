/*
 * dml.c - row-level change on a large table: UPDATE 1%, DELETE 1% and
 * MERGE 10% of ROWS rows in comb, PostgreSQL and SQLite, side by side in
 * one run.
 *
 *   dml [ROWS] [DIR]              (default 10000000 rows)
 *
 * The same rows (id BIGINT, grp INT, name STRING, amount DOUBLE; values a
 * function of id) go into
 *   comb        a full-ACID ORC table CLUSTERED BY (id) INTO 8 BUCKETS,
 *               loaded with INSERT ... SELECT from an external TEXTFILE
 *               table over a generated comma-separated file
 *   PostgreSQL  a table with a primary key on id, COPY of the same file;
 *               a server of its own (tests/lib/pgserver.sh, durable: fsync
 *               on, as comb's commits are) on a temporary data directory
 *               and Unix socket, stopped after; "PostgreSQL: skipped"
 *               without the server binaries
 *   SQLite      an INTEGER PRIMARY KEY table in a WAL file database,
 *               synchronous=FULL, one transaction of prepared inserts
 * and a staging table src of ROWS/10 rows (half of them ids bench holds,
 * with a new amount; half new ids) the same way, for the MERGE;
 * then each step of `steps` runs as one statement per engine, timed (wall
 * seconds, and CPU seconds: comb's and SQLite's of this process,
 * PostgreSQL's of its server process for the connection, from /proc), with
 * the files comb's statement left in the table directory.  The loads are timed for scale, not compared.
 * After the steps every engine's count(*), sum(id), sum(amount) must agree
 * (exit 1 otherwise).  DIR keeps the files; without it a temporary
 * directory is removed.
 */
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "fs/fs.h"
#include "sql/session.h"

#include "bench.h"

/* One timed statement: comb's and PostgreSQL's text, and SQLite's where
 * SQLite lacks the statement (its equivalent, named in the output). */
typedef struct Step {
    const char *name;
    const char *sql;
    const char *sqlite;      /* NULL: the same text */
    double fraction;         /* share of the rows it changes */
} Step;

/* SQLite has no MERGE: the upsert below changes the same rows (src's ids
 * are unique; `WHERE true` is SQLite's rule for ON CONFLICT after a
 * SELECT). */
static const Step steps[] = {
    {"update 1%", "UPDATE bench SET amount = amount + 1 WHERE id % 100 = 0",
     NULL, 0.01},
    {"delete 1%", "DELETE FROM bench WHERE id % 100 = 1", NULL, 0.01},
    {"merge 10%",
     "MERGE INTO bench t USING src s ON t.id = s.id "
     "WHEN MATCHED THEN UPDATE SET amount = s.amount "
     "WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.grp, s.name, s.amount)",
     "INSERT INTO bench SELECT * FROM src WHERE true "
     "ON CONFLICT(id) DO UPDATE SET amount = excluded.amount", 0.10},
};
#define N_STEPS ((int)(sizeof steps / sizeof steps[0]))

static const char check_sql[] =
    "SELECT count(*), sum(id), sum(amount) FROM bench";

typedef struct Engine {
    const char *name;
    bool ran;
    double load_s;
    double step_s[N_STEPS], step_cpu[N_STEPS];
    long step_files[N_STEPS];   /* -1: not counted */
    char check[128];             /* check_sql's row as text */
} Engine;

/* ----------------------------------------------------------------- data */

/* A row is a function of its id; amount is exact in a double (a multiple
 * of 1/4), so every engine's sum(amount) is the same number. */
typedef struct Row {
    long id, grp;
    double amount;
} Row;

/* Row i of a table of `rows` rows: bench's or src's. */
typedef Row RowFn(long i, long rows);

static Row bench_row(long i, long rows)
{
    (void)rows;
    return (Row){i, i % 97, (double)(i % 1000) + 0.25};
}

/* src holds rows/10 rows: the first half ids 20j + 2 that bench holds
 * (never hit by the DELETE, id % 100 = 1) with a new amount, the second
 * half ids past bench's last. */
static long src_rows(long rows)
{
    return rows / 10;
}

static Row src_row(long j, long rows)
{
    long id = j < src_rows(rows) / 2 ? 20 * j + 2 : rows + j;
    return (Row){id, id % 97, (double)(id % 1000) + 0.5};
}

static int generate(const char *path, RowFn *row, long n, long rows)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    for (long i = 0; i < n; i++) {
        Row r = row(i, rows);
        fprintf(f, "%ld,%ld,name-%ld,%.2f\n", r.id, r.grp, r.id, r.amount);
    }
    return fclose(f) != 0;
}

/* ----------------------------------------------------------------- comb */

static long n_files;

static int count_file(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)path, (void)st, (void)ftw;
    n_files += flag == FTW_F;
    return 0;
}

/* Regular files under dir. */
static long files_under(const char *dir)
{
    n_files = 0;
    nftw(dir, count_file, 16, FTW_PHYS);
    return n_files;
}

static int check_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    int r = comb_batch_row(b, 0);
    (void)err;
    snprintf(ctx, 128, "%lld %lld %.2f", (long long)b->cols[0].i64[r],
             (long long)b->cols[1].i64[r], b->cols[2].f64[r]);
    return 0;
}

/* An external TEXTFILE table over the directory of a generated file. */
static int comb_text_table(SqlSession *s, const char *name, const char *dir)
{
    char sql[8192];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE %s (id BIGINT, grp INT, name STRING, "
             "amount DOUBLE) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
             "STORED AS TEXTFILE LOCATION '%s'", name, dir);
    return comb_exec(s, sql, NULL);
}

static int run_comb(const char *dir, const char *csv, const char *src_csv,
                    Engine *e)
{
    char wh[4096], table[4200];
    SqlSessionOptions opt = {wh, "bench"};
    SqlSink sink = {e->check, NULL, check_batch, NULL, NULL};
    SqlSession *s;
    CombErr err;
    double t0;
    int rc = 1;
    snprintf(wh, sizeof wh, "%s/warehouse", dir);
    snprintf(table, sizeof table, "%s/bench", wh);
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    if (comb_text_table(s, "staging", csv) ||
        comb_text_table(s, "src", src_csv) ||
        comb_exec(s, "CREATE TABLE bench (id BIGINT, grp INT, name STRING, "
                     "amount DOUBLE) CLUSTERED BY (id) INTO 8 BUCKETS STORED AS "
                     "ORC TBLPROPERTIES ('transactional'='true')", NULL))
        goto done;
    t0 = now();
    if (comb_exec(s, "INSERT INTO bench SELECT * FROM staging", NULL))
        goto done;
    e->load_s = now() - t0;
    for (int i = 0; i < N_STEPS; i++) {
        long before = files_under(table);
        double c0 = cpu_seconds();
        t0 = now();
        if (comb_exec(s, steps[i].sql, NULL))
            goto done;
        e->step_s[i] = now() - t0;
        e->step_cpu[i] = cpu_seconds() - c0;
        e->step_files[i] = files_under(table) - before;
    }
    rc = comb_exec(s, check_sql, &sink);
    e->ran = rc == 0;
done:
    sql_session_close(s);
    return rc;
}

/* ----------------------------------------------------------- PostgreSQL */

static int pg_exec(PGconn *c, const char *sql)
{
    return pg_ok(c, PQexec(c, sql), PGRES_COMMAND_OK);
}

/* COPY of the file into a table through the connection (the server may
 * not read it). */
static int pg_copy(PGconn *c, const char *table, const char *path)
{
    static char buf[1 << 16];
    char sql[128];
    FILE *f = fopen(path, "r");
    size_t n;
    int rc;
    if (!f)
        return 1;
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN WITH (FORMAT csv)", table);
    rc = pg_ok(c, PQexec(c, sql), PGRES_COPY_IN);
    while (!rc && (n = fread(buf, 1, sizeof buf, f)) > 0)
        rc = PQputCopyData(c, buf, (int)n) != 1;
    fclose(f);
    if (PQputCopyEnd(c, rc ? "failed" : NULL) != 1)
        rc = 1;
    return pg_ok(c, PQgetResult(c), PGRES_COMMAND_OK) || rc;
}

/* CPU seconds the server process of a connection used so far (its
 * /proc stat: the machine may be shared, and CPU time tells what wall
 * time may not); -1 when unknown. */
static double backend_cpu(int pid)
{
    char path[64], line[1024], *p;
    unsigned long long utime, stime;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (!(f = fopen(path, "r")))
        return -1;
    p = fgets(line, sizeof line, f);
    fclose(f);
    /* fields 14 and 15, after the parenthesised command name */
    if (!p || !(p = strrchr(line, ')')) ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
               &utime, &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static int pg_steps(PGconn *c, const char *csv, const char *src_csv,
                    Engine *e)
{
    PGresult *r;
    double t0;
    if (pg_exec(c, "CREATE TABLE bench (id BIGINT PRIMARY KEY, grp INT, "
                   "name TEXT, amount DOUBLE PRECISION)") ||
        pg_exec(c, "CREATE TABLE src (id BIGINT PRIMARY KEY, grp INT, "
                   "name TEXT, amount DOUBLE PRECISION)"))
        return 1;
    t0 = now();
    if (pg_copy(c, "bench", csv) || pg_exec(c, "ANALYZE bench"))
        return 1;
    e->load_s = now() - t0;
    if (pg_copy(c, "src", src_csv) || pg_exec(c, "ANALYZE src"))
        return 1;
    for (int i = 0; i < N_STEPS; i++) {
        double c0 = backend_cpu(PQbackendPID(c));
        t0 = now();
        if (pg_exec(c, steps[i].sql))
            return 1;
        e->step_s[i] = now() - t0;
        e->step_cpu[i] = c0 < 0 ? -1 : backend_cpu(PQbackendPID(c)) - c0;
        e->step_files[i] = -1;
    }
    r = PQexec(c, check_sql);
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        snprintf(e->check, sizeof e->check, "%s %s %.2f", PQgetvalue(r, 0, 0),
                 PQgetvalue(r, 0, 1), atof(PQgetvalue(r, 0, 2)));
    e->ran = PQresultStatus(r) == PGRES_TUPLES_OK;
    return pg_ok(c, r, PGRES_TUPLES_OK);
}

/* 0 when it ran or was skipped (no server binaries). */
static int run_pg(const char *csv, const char *src_csv, Engine *e)
{
    char dir[64];
    PGconn *c;
    int rc = pg_open("dml", dir, &c);
    if (rc)
        return rc == 77 ? 0 : 1;
    rc = pg_steps(c, csv, src_csv, e);
    pg_close(c, dir);
    return rc;
}

/* --------------------------------------------------------------- SQLite */

/* n rows of `row` into table, one transaction of prepared inserts. */
static int lite_load(sqlite3 *db, const char *table, RowFn *row, long n,
                     long rows)
{
    sqlite3_stmt *st;
    char name[32], sql[128];
    int rc = lite_exec(db, "BEGIN");
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (?, ?, ?, ?)", table);
    if (rc || sqlite3_prepare_v2(db, sql, -1, &st, NULL))
        return 1;
    for (long i = 0; i < n && !rc; i++) {
        Row r = row(i, rows);
        int len = snprintf(name, sizeof name, "name-%ld", r.id);
        sqlite3_bind_int64(st, 1, r.id);
        sqlite3_bind_int64(st, 2, r.grp);
        sqlite3_bind_text(st, 3, name, len, SQLITE_STATIC);
        sqlite3_bind_double(st, 4, r.amount);
        rc = sqlite3_step(st) != SQLITE_DONE;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc || lite_exec(db, "COMMIT");
}

static int lite_check(sqlite3 *db, Engine *e)
{
    sqlite3_stmt *st;
    int rc;
    if (sqlite3_prepare_v2(db, check_sql, -1, &st, NULL))
        return 1;
    rc = sqlite3_step(st) != SQLITE_ROW;
    if (!rc)
        snprintf(e->check, sizeof e->check, "%lld %lld %.2f",
                 (long long)sqlite3_column_int64(st, 0),
                 (long long)sqlite3_column_int64(st, 1),
                 sqlite3_column_double(st, 2));
    sqlite3_finalize(st);
    return rc;
}

static int run_sqlite(const char *dir, long rows, Engine *e)
{
    char path[4096];
    sqlite3 *db;
    double t0;
    int rc = 1;
    snprintf(path, sizeof path, "%s/bench.sqlite", dir);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return 1;
    if (lite_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                      "CREATE TABLE bench (id INTEGER PRIMARY KEY, grp INT, "
                      "name TEXT, amount REAL);"
                      "CREATE TABLE src (id INTEGER PRIMARY KEY, grp INT, "
                      "name TEXT, amount REAL)"))
        goto done;
    t0 = now();
    if (lite_load(db, "bench", bench_row, rows, rows))
        goto done;
    e->load_s = now() - t0;
    if (lite_load(db, "src", src_row, src_rows(rows), rows))
        goto done;
    for (int i = 0; i < N_STEPS; i++) {
        double c0 = cpu_seconds();
        t0 = now();
        if (lite_exec(db, steps[i].sqlite ? steps[i].sqlite : steps[i].sql))
            goto done;
        e->step_s[i] = now() - t0;
        e->step_cpu[i] = cpu_seconds() - c0;
        e->step_files[i] = -1;
    }
    rc = lite_check(db, e);
    e->ran = rc == 0;
done:
    sqlite3_close(db);
    return rc;
}

/* --------------------------------------------------------------- report */

/* A peer's time of step i and comb's ratios to it, wall and CPU. */
static void print_ratio(const Engine *comb, const Engine *peer, int i)
{
    if (!peer->ran) {
        printf("  %s        -", peer->name);
        return;
    }
    printf("  %s %.3f s", peer->name, peer->step_s[i]);
    if (peer->step_cpu[i] > 0)
        printf(" (cpu %.3f s)", peer->step_cpu[i]);
    printf(" comb/%s %.2fx", peer->name, comb->step_s[i] / peer->step_s[i]);
    if (peer->step_cpu[i] > 0)
        printf(" (cpu %.2fx)", comb->step_cpu[i] / peer->step_cpu[i]);
}

static void report(long rows, const Engine *e, int n)
{
    printf("dml: %ld rows; comb: full ACID ORC, 8 buckets\n", rows);
    printf("%-12s", "load");
    for (int k = 0; k < n; k++)
        if (e[k].ran)
            printf("  %s %.3f s", e[k].name, e[k].load_s);
    printf("\n");
    for (int i = 0; i < N_STEPS; i++) {
        printf("%-10s %8ld rows  comb %.3f s (cpu %.3f s, %ld files)",
               steps[i].name, (long)((double)rows * steps[i].fraction),
               e[0].step_s[i], e[0].step_cpu[i], e[0].step_files[i]);
        for (int k = 1; k < n; k++)
            print_ratio(&e[0], &e[k], i);
        printf("\n");
        if (steps[i].sqlite)
            printf("%-10s sqlite has no such statement; it ran: %s\n", "",
                   steps[i].sqlite);
    }
    for (int k = 0; k < n; k++)
        if (e[k].ran)
            printf("check %-10s count, sum(id), sum(amount): %s\n", e[k].name,
                   e[k].check);
}

/* Every engine that ran saw the same rows at the end. */
static bool agree(const Engine *e, int n)
{
    for (int k = 1; k < n; k++)
        if (e[k].ran && strcmp(e[k].check, e[0].check) != 0)
            return false;
    return e[0].ran;
}

int main(int argc, char **argv)
{
    BenchArgs args;
    long rows;
    const char *dir;
    char csv[4096], file[4200], src_csv[4096], src_file[4200];
    Engine e[3] = {{.name = "comb"}, {.name = "postgresql"}, {.name = "sqlite"}};
    CombErr err;
    bool ok;
    if (bench_args(&args, argc, argv, "dml", 10000000))
        return 2;
    rows = args.rows;
    dir = args.dir;
    snprintf(csv, sizeof csv, "%s/staging", dir);
    snprintf(file, sizeof file, "%s/rows.csv", csv);
    snprintf(src_csv, sizeof src_csv, "%s/src", dir);
    snprintf(src_file, sizeof src_file, "%s/rows.csv", src_csv);
    if (fs_mkdirs(csv, &err) || generate(file, bench_row, rows, rows) ||
        fs_mkdirs(src_csv, &err) ||
        generate(src_file, src_row, src_rows(rows), rows)) {
        fprintf(stderr, "dml: cannot write the generated rows in %s\n", dir);
        return 1;
    }
    if (run_comb(dir, csv, src_csv, &e[0]) || run_pg(file, src_file, &e[1]) ||
        run_sqlite(dir, rows, &e[2]))
        return 1;
    report(rows, e, 3);
    ok = agree(e, 3);
    if (!ok)
        printf("dml: the engines disagree\n");
    bench_args_end(&args);
    return ok ? 0 : 1;
}
