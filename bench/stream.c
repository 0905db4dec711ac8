/*
 * stream.c - streaming ingest (issue 12): rows/s into a 10-column
 * full-ACID table through the C API (stream/stream.h) and through
 * `comb stream` (CSV on standard input), with a commit every 10,000 rows
 * and every 1,000 rows; CPU seconds and peak RSS of each; the latency from
 * a write to its rows being visible to a SELECT.  Peers in the same run:
 *
 *   SQLite      the same rows by prepared INSERTs, a transaction every
 *               10,000 / 1,000 rows (WAL, synchronous=FULL: durable
 *               commits, as comb's are)
 *   PostgreSQL  its own durable server (tests/lib/pgserver.sh), one COPY
 *               (one transaction) every 10,000 / 1,000 rows of the CSV
 *
 *   build/rel/bench/stream [ROWS] [DIR]   default 1,000,000 rows (a fifth
 *                                         of them with commits every 1,000)
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "bench.h"
#include "common/datetime.h"
#include "stream/stream.h"

#define N_NAMES 1000

typedef struct Figure {
    long rows;
    double wall, cpu;
    long rss_kb;
    int ran;            /* 0: not run (peer missing) */
} Figure;

static const char *table_sql =
    "(id BIGINT, grp INT, qty INT, big BIGINT, amount DECIMAL(12,2), "
    "price DOUBLE, name STRING, code STRING, day DATE, ts TIMESTAMP)";

static char names[N_NAMES][16], codes[50][8];

static void make_strings(void)
{
    for (int i = 0; i < N_NAMES; i++)
        snprintf(names[i], sizeof names[i], "name%d", i);
    for (int i = 0; i < 50; i++)
        snprintf(codes[i], sizeof codes[i], "C%02d", i);
}

/* Row i's values, the same for every engine. */
static void row_values(long i, int64_t *grp, int64_t *qty, int64_t *big,
                       int64_t *cents, double *price, int64_t *day,
                       int64_t *secs)
{
    *grp = i % 100;
    *qty = (i * 7) % 1000;
    *big = i * 1000003;
    *cents = (i * 37) % 10000000;
    *price = (double)(i % 10000) / 8.0;
    *day = 18000 + i % 1000;
    *secs = *day * 86400 + i % 86400;
}

static int csv_row(char *buf, size_t cap, long i)
{
    int64_t grp, qty, big, cents, day, secs;
    double price;
    char d[32], ts[48];
    row_values(i, &grp, &qty, &big, &cents, &price, &day, &secs);
    comb_date_format(day, d, sizeof d);
    comb_timestamp_format(secs, 0, ts, sizeof ts);
    return snprintf(buf, cap, "%ld,%lld,%lld,%lld,%lld.%02lld,%.3f,%s,%s,%s,%s\n",
                    i, (long long)grp, (long long)qty, (long long)big,
                    (long long)(cents / 100), (long long)(cents % 100), price,
                    names[i % N_NAMES], codes[i % 50], d, ts);
}

/* --------------------------------------------------------------- comb */

static int make_table(const char *wh, const char *name)
{
    SqlSessionOptions so = {.warehouse = wh};
    SqlSession *s;
    CombErr err;
    char sql[512];
    int rc;
    if (sql_session_open(&so, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    snprintf(sql, sizeof sql, "CREATE TABLE %s %s STORED AS ORC "
             "TBLPROPERTIES ('transactional'='true')", name, table_sql);
    rc = comb_exec(s, sql, NULL);
    sql_session_close(s);
    return rc;
}

/* Rows [from, from + n) into row 0.. of b. */
static void fill_batch(CombBatch *b, long from, int n)
{
    for (int r = 0; r < n; r++) {
        long i = from + r;
        int64_t secs;
        b->cols[0].i64[r] = i;
        row_values(i, &b->cols[1].i64[r], &b->cols[2].i64[r],
                   &b->cols[3].i64[r], &secs, &b->cols[5].f64[r],
                   &b->cols[8].i64[r], &b->cols[9].i64[r]);
        b->cols[4].dec[r] = secs;
        b->cols[9].nanos[r] = 0;
        b->cols[6].str[r] = (CombStr){names[i % N_NAMES],
                                      (uint32_t)strlen(names[i % N_NAMES])};
        b->cols[7].str[r] = (CombStr){codes[i % 50], 3};
    }
    b->n_rows = n;
}

static int open_stream(const char *wh, const char *table, CombStream **s)
{
    CombStreamOptions o = {.warehouse = wh, .table = table, .batch_size = 10};
    CombErr err;
    if (comb_stream_open(&o, s, &err)) {
        fprintf(stderr, "comb stream: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* One txn of rows [from, from + n). */
static int stream_txn(CombStream *s, CombBatch *b, long from, long n)
{
    CombErr err;
    int rc = comb_stream_begin(s, &err);
    for (long done = 0; !rc && done < n;) {
        int k = n - done < b->capacity ? (int)(n - done) : b->capacity;
        fill_batch(b, from + done, k);
        rc = comb_stream_write(s, b, &err);
        done += k;
    }
    if (!rc)
        rc = comb_stream_commit(s, &err);
    if (rc)
        fprintf(stderr, "comb stream: %s\n", err.msg);
    return rc;
}

static int api_run(const char *wh, const char *table, long rows, long every,
                   Figure *f)
{
    CombStream *s;
    CombBatch b;
    CombErr err;
    double t0, c0;
    int rc = 0;
    if (make_table(wh, table) || open_stream(wh, table, &s))
        return 1;
    if (comb_stream_batch_init(s, &b, COMB_BATCH_SIZE, &err)) {
        fprintf(stderr, "comb stream: %s\n", err.msg);
        comb_stream_close(s, &err);
        return 1;
    }
    t0 = now();
    c0 = cpu_seconds();
    for (long from = 0; !rc && from < rows; from += every)
        rc = stream_txn(s, &b, from, rows - from < every ? rows - from : every);
    comb_batch_free(&b);
    if (comb_stream_close(s, &err) && !rc) {
        fprintf(stderr, "comb stream: %s\n", err.msg);
        rc = 1;
    }
    *f = (Figure){rows, now() - t0, cpu_seconds() - c0, peak_rss_kb(), !rc};
    return rc;
}

typedef struct Counter {
    long n;
} Counter;

static int count_row(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    if (comb_batch_live(b) > 0)
        ((Counter *)ctx)->n = (long)b->cols[0].i64[comb_batch_row(b, 0)];
    return 0;
}

static long count_rows(SqlSession *q, const char *table)
{
    Counter c = {-1};
    SqlSink sink = {0};
    char sql[128];
    sink.ctx = &c;
    sink.batch = count_row;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    if (comb_exec(q, sql, &sink))
        return -1;
    return c.n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Write -> commit returned, and write -> a SELECT (another session) sees
 * the rows: median and worst of `samples` txns of 1,000 rows. */
static int latency(const char *wh, int samples, double *commit_med,
                   double *commit_max, double *vis_med, double *vis_max)
{
    SqlSessionOptions so = {.warehouse = wh};
    SqlSession *q;
    CombStream *s;
    CombBatch b;
    CombErr err;
    double c[64], v[64];
    long seen = 0;
    int rc = 0;
    if (samples > 64)
        samples = 64;
    if (make_table(wh, "lat") || open_stream(wh, "lat", &s))
        return 1;
    if (sql_session_open(&so, &q, &err) ||
        comb_stream_batch_init(s, &b, COMB_BATCH_SIZE, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        comb_stream_close(s, &err);
        return 1;
    }
    for (int i = 0; !rc && i < samples; i++) {
        double t0 = now();
        rc = stream_txn(s, &b, seen, 1000);
        c[i] = now() - t0;
        seen += 1000;
        while (!rc && count_rows(q, "lat") < seen)
            ;
        v[i] = now() - t0;
    }
    comb_batch_free(&b);
    comb_stream_close(s, &err);
    sql_session_close(q);
    qsort(c, (size_t)samples, sizeof c[0], cmp_double);
    qsort(v, (size_t)samples, sizeof v[0], cmp_double);
    *commit_med = c[samples / 2];
    *commit_max = c[samples - 1];
    *vis_med = v[samples / 2];
    *vis_max = v[samples - 1];
    return rc;
}

static int write_csv(const char *path, long rows)
{
    FILE *f = fopen(path, "w");
    char line[512];
    if (!f)
        return 1;
    for (long i = 0; i < rows; i++)
        fwrite(line, 1, (size_t)csv_row(line, sizeof line, i), f);
    return fclose(f) != 0;
}

/* `comb stream` as a child process, the CSV on its standard input. */
static int cli_run(const char *comb, const char *wh, const char *table,
                   const char *csv, long rows, long every, Figure *f)
{
    char every_s[32];
    struct rusage ru;
    int status;
    double t0;
    pid_t pid;
    if (make_table(wh, table))
        return 1;
    snprintf(every_s, sizeof every_s, "%ld", every);
    t0 = now();
    if ((pid = fork()) == 0) {
        if (!freopen(csv, "r", stdin))
            _exit(127);
        execl(comb, comb, "--warehouse", wh, "stream", "--table", table,
              "--commit-rows", every_s, "--commit-interval", "0",
              "--batch-size", "10", "--quiet", (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "stream: %s stream failed\n", comb);
        return 1;
    }
    *f = (Figure){rows, now() - t0,
                  (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
                  ru.ru_maxrss, 1};
    return 0;
}

/* --------------------------------------------------------------- SQLite */

static int lite_run(const char *dir, long rows, long every, Figure *f)
{
    char path[4096];
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    double t0, c0;
    int rc = 1;
    snprintf(path, sizeof path, "%s/bench_%ld.sqlite", dir, every);
    unlink(path);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return 1;
    if (lite_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                      "CREATE TABLE t (id INTEGER, grp INT, qty INT, big INT, "
                      "amount NUMERIC, price REAL, name TEXT, code TEXT, "
                      "day TEXT, ts TEXT)") ||
        sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL))
        goto done;
    t0 = now();
    c0 = cpu_seconds();
    for (long i = 0; i < rows; i++) {
        int64_t grp, qty, big, cents, day, secs;
        double price;
        char d[32], ts[48];
        if (i % every == 0 && lite_exec(db, "BEGIN"))
            goto done;
        row_values(i, &grp, &qty, &big, &cents, &price, &day, &secs);
        comb_date_format(day, d, sizeof d);
        comb_timestamp_format(secs, 0, ts, sizeof ts);
        sqlite3_bind_int64(st, 1, i);
        sqlite3_bind_int64(st, 2, grp);
        sqlite3_bind_int64(st, 3, qty);
        sqlite3_bind_int64(st, 4, big);
        sqlite3_bind_double(st, 5, (double)cents / 100);
        sqlite3_bind_double(st, 6, price);
        sqlite3_bind_text(st, 7, names[i % N_NAMES], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, codes[i % 50], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 9, d, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 10, ts, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            goto done;
        sqlite3_reset(st);
        if ((i % every == every - 1 || i == rows - 1) && lite_exec(db, "COMMIT"))
            goto done;
    }
    *f = (Figure){rows, now() - t0, cpu_seconds() - c0, 0, 1};
    rc = 0;
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* ----------------------------------------------------------- PostgreSQL */

/* One COPY (one transaction) per `every` rows of the generated CSV. */
static int pg_load(PGconn *c, const char *table, long rows, long every,
                   Figure *f)
{
    char sql[256], line[512];
    double t0 = now();
    snprintf(sql, sizeof sql, "CREATE TABLE %s (id BIGINT, grp INT, qty INT, "
             "big BIGINT, amount NUMERIC(12,2), price DOUBLE PRECISION, "
             "name TEXT, code TEXT, day DATE, ts TIMESTAMP)", table);
    if (pg_ok(c, PQexec(c, sql), PGRES_COMMAND_OK))
        return 1;
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN WITH (FORMAT csv)", table);
    t0 = now();
    for (long from = 0; from < rows; from += every) {
        if (pg_ok(c, PQexec(c, sql), PGRES_COPY_IN))
            return 1;
        for (long i = from; i < from + every && i < rows; i++)
            if (PQputCopyData(c, line, csv_row(line, sizeof line, i)) != 1)
                return 1;
        if (PQputCopyEnd(c, NULL) != 1 ||
            pg_ok(c, PQgetResult(c), PGRES_COMMAND_OK))
            return 1;
    }
    *f = (Figure){rows, now() - t0, -1, 0, 1};
    return 0;
}

/* 0 when it ran or was skipped (no server binaries). */
static int pg_run(long rows[2], const long every[2], Figure f[2])
{
    char dir[64];
    PGconn *c;
    int rc = pg_open("stream", dir, &c);
    if (rc)
        return rc == 77 ? 0 : 1;
    for (int k = 0; !rc && k < 2; k++) {
        char t[32];
        snprintf(t, sizeof t, "t%ld", every[k]);
        rc = pg_load(c, t, rows[k], every[k], &f[k]);
    }
    pg_close(c, dir);
    return rc;
}

/* ---------------------------------------------------------------- main */

/* One line of the table; ratio: the C API's rows/s over this one's. */
static void print_figure(const char *what, long every, const Figure *f,
                         const Figure *api)
{
    char cpu[32] = "-", per_cpu[32] = "-", rss[32] = "-", ratio[32] = "-";
    if (!f->ran)
        return;
    if (f->cpu > 0) {
        snprintf(cpu, sizeof cpu, "%.2f", f->cpu);
        snprintf(per_cpu, sizeof per_cpu, "%.0f", (double)f->rows / f->cpu);
    }
    if (f->rss_kb > 0)
        snprintf(rss, sizeof rss, "%.0f", (double)f->rss_kb / 1024);
    if (api->ran && f != api)
        snprintf(ratio, sizeof ratio, "%.2fx",
                 ((double)api->rows / api->wall) / ((double)f->rows / f->wall));
    printf("| %s | %ld | %ld | %.2f | %s | %.0f | %s | %s | %s |\n", what,
           every, f->rows, f->wall, cpu, (double)f->rows / f->wall, per_cpu,
           rss, ratio);
}

int main(int argc, char **argv)
{
    long rows = argc > 1 ? atol(argv[1]) : 1000000;
    const long every[2] = {10000, 1000};
    long n[2] = {rows, rows / 5};
    char tmpl[] = "/tmp/comb-stream-bench-XXXXXX", wh[4200], csv[4200],
         comb[4200];
    const char *dir = argc > 2 ? argv[2] : mkdtemp(tmpl);
    Figure api[2] = {0}, cli[2] = {0}, lite[2] = {0}, pg[2] = {0};
    double cm, cx, vm, vx;
    char *slash;
    if (!dir || rows < 10000) {
        fprintf(stderr, "usage: stream [ROWS >= 10000] [DIR]\n");
        return 2;
    }
    mkdir(dir, 0755);
    snprintf(wh, sizeof wh, "%s/warehouse", dir);
    snprintf(csv, sizeof csv, "%s/rows.csv", dir);
    snprintf(comb, sizeof comb, "%s", argv[0]);
    slash = strrchr(comb, '/');
    snprintf(slash ? slash + 1 : comb, sizeof comb - (size_t)(slash ? slash + 1 - comb : 0),
             "../comb");
    make_strings();
    printf("stream: %ld rows of 10 columns (%ld with a commit every 1,000), "
           "batches of 10 txns, in %s\n", rows, n[1], dir);
    for (int k = 0; k < 2; k++) {
        char t[32];
        snprintf(t, sizeof t, "api%ld", every[k]);
        if (api_run(wh, t, n[k], every[k], &api[k]))
            return 1;
    }
    if (latency(wh, 30, &cm, &cx, &vm, &vx))
        return 1;
    for (int k = 0; k < 2; k++) {
        char t[32];
        snprintf(t, sizeof t, "cli%ld", every[k]);
        snprintf(csv, sizeof csv, "%s/rows_%ld.csv", dir, n[k]);
        if (write_csv(csv, n[k]) ||
            cli_run(comb, wh, t, csv, n[k], every[k], &cli[k]))
            return 1;
    }
    for (int k = 0; k < 2; k++)
        if (lite_run(dir, n[k], every[k], &lite[k]))
            return 1;
    if (pg_run(n, every, pg))
        return 1;
    printf("\n| engine | commit every | rows | wall s | CPU s | rows/s | "
           "rows per CPU s | peak RSS MB | C API's rows/s over it |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 2; k++) {
        print_figure("comb C API", every[k], &api[k], &api[k]);
        print_figure("comb stream (CSV)", every[k], &cli[k], &api[k]);
        print_figure("SQLite INSERT", every[k], &lite[k], &api[k]);
        print_figure("PostgreSQL COPY", every[k], &pg[k], &api[k]);
    }
    printf("\n(CPU: this process for the C API and SQLite, the child for "
           "comb stream; the PostgreSQL server's is not counted.  Peak RSS of "
           "the C API: the bench process so far.)\n");
    printf("latency of a 1,000-row txn (30 samples): write -> commit returned "
           "median %.1f ms (max %.1f); write -> visible to a SELECT median "
           "%.1f ms (max %.1f)\n", cm * 1e3, cx * 1e3, vm * 1e3, vx * 1e3);
    return 0;
}
