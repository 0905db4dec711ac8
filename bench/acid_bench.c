/*
 * acid_bench.c - the ACID write/read path end to end, against SQLite doing
 * the same work, side by side in one run.
 *
 *   acid_bench [ROWS] [WAREHOUSE_DIR]      (default 1000000 rows)
 *
 * Steps, each timed (rows per second of the rows it touches):
 *   insert  ROWS rows (id BIGINT, grp INT, name STRING, amount DOUBLE) into a
 *           bucketed (4 buckets) transactional table, in multi-row INSERT ...
 *           VALUES statements of 10,000 rows (one transaction each)
 *   update  1% of the rows (split update: delete event + new row image)
 *   delete  another 1%
 *   scan    all rows (count and sum) through merge-on-read
 * The SQLite side runs the same statements on a WAL-mode file database.
 * Prints peak RSS of the process (getrusage) and comb's peak heap bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/session.h"

#include "bench.h"

#define ROWS_PER_STATEMENT 10000

/* Multi-row VALUES text for rows [first, first+n). */
static void values_sql(CombBuf *b, const char *prefix, long first, long n)
{
    comb_buf_clear(b);
    comb_buf_append_str(b, prefix);
    for (long i = first; i < first + n; i++)
        comb_buf_printf(b, "%s(%ld,%ld,'name-%ld',%ld.25)", i == first ? "" : ",",
                        i, i % 97, i, i % 1000);
    comb_buf_append_byte(b, '\0');
}

typedef struct ScanCount {
    long rows;
} ScanCount;

static int count_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    ((ScanCount *)ctx)->rows += comb_batch_live(b);
    return 0;
}

/* sql's rows counted into count (NULL: not counted). */
static int comb_exec_count(SqlSession *s, const char *sql, ScanCount *count)
{
    SqlSink sink = {count, NULL, count_batch, NULL, NULL};
    return comb_exec(s, sql, count ? &sink : NULL);
}

typedef struct Timings {
    double insert, update, del, scan;
    long scanned;
} Timings;

static int run_comb(const char *wh, long rows, Timings *t)
{
    SqlSessionOptions opt = {wh, "bench"};
    SqlSession *s;
    CombErr err;
    CombBuf b = COMB_BUF_INIT;
    ScanCount count = {0};
    double t0;
    int rc = 1;
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    if (comb_exec(s, "CREATE TABLE bench (id BIGINT, grp INT, name STRING, amount DOUBLE) "
                     "CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC "
                     "TBLPROPERTIES ('transactional'='true')", NULL))
        goto done;
    t0 = now();
    for (long i = 0; i < rows; i += ROWS_PER_STATEMENT) {
        long n = rows - i < ROWS_PER_STATEMENT ? rows - i : ROWS_PER_STATEMENT;
        values_sql(&b, "INSERT INTO bench VALUES ", i, n);
        if (comb_exec(s, (const char *)b.data, NULL))
            goto done;
    }
    t->insert = now() - t0;
    t0 = now();
    if (comb_exec(s, "UPDATE bench SET amount = amount + 1 WHERE id % 100 = 0", NULL))
        goto done;
    t->update = now() - t0;
    t0 = now();
    if (comb_exec(s, "DELETE FROM bench WHERE id % 100 = 1", NULL))
        goto done;
    t->del = now() - t0;
    t0 = now();
    if (comb_exec_count(s, "SELECT id, grp, name, amount FROM bench", &count))
        goto done;
    t->scan = now() - t0;
    t->scanned = count.rows;
    rc = 0;
done:
    comb_buf_free(&b);
    sql_session_close(s);
    return rc;
}

static int lite_scan(sqlite3 *db, long *rows)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, grp, name, amount FROM bench", -1, &st, NULL))
        return 1;
    *rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        (void)sqlite3_column_text(st, 2);
        (*rows)++;
    }
    sqlite3_finalize(st);
    return 0;
}

static int run_sqlite(const char *dir, long rows, Timings *t)
{
    char path[4096];
    sqlite3 *db;
    CombBuf b = COMB_BUF_INIT;
    double t0;
    int rc = 1;
    snprintf(path, sizeof path, "%s/bench.sqlite", dir);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return 1;
    if (lite_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                      "CREATE TABLE bench (id INTEGER PRIMARY KEY, grp INT, name TEXT, amount REAL)"))
        goto done;
    t0 = now();
    for (long i = 0; i < rows; i += ROWS_PER_STATEMENT) {
        long n = rows - i < ROWS_PER_STATEMENT ? rows - i : ROWS_PER_STATEMENT;
        values_sql(&b, "INSERT INTO bench VALUES ", i, n);
        if (lite_exec(db, (const char *)b.data))
            goto done;
    }
    t->insert = now() - t0;
    t0 = now();
    if (lite_exec(db, "UPDATE bench SET amount = amount + 1 WHERE id % 100 = 0"))
        goto done;
    t->update = now() - t0;
    t0 = now();
    if (lite_exec(db, "DELETE FROM bench WHERE id % 100 = 1"))
        goto done;
    t->del = now() - t0;
    t0 = now();
    if (lite_scan(db, &t->scanned))
        goto done;
    t->scan = now() - t0;
    rc = 0;
done:
    comb_buf_free(&b);
    sqlite3_close(db);
    return rc;
}

static void row(const char *step, long n, double comb_s, double lite_s)
{
    printf("%-8s %10ld rows  comb %12.0f rows/s  sqlite %12.0f rows/s  comb/sqlite %6.2fx\n",
           step, n, n / comb_s, n / lite_s, lite_s / comb_s);
}

int main(int argc, char **argv)
{
    BenchArgs args;
    long rows;
    const char *dir;
    char wh[4096];
    Timings c = {0}, l = {0};
    long rss_after_comb;
    if (bench_args(&args, argc, argv, "acid_bench", 1000000))
        return 2;
    rows = args.rows;
    dir = args.dir;
    snprintf(wh, sizeof wh, "%s/warehouse", dir);
    if (run_comb(wh, rows, &c))
        return 1;
    rss_after_comb = peak_rss_kb();
    if (run_sqlite(dir, rows, &l))
        return 1;
    printf("acid_bench: %ld rows, 4 buckets, %d rows per INSERT statement\n", rows,
           ROWS_PER_STATEMENT);
    row("insert", rows, c.insert, l.insert);
    row("update", rows / 100, c.update, l.update);
    row("delete", rows / 100, c.del, l.del);
    row("scan", c.scanned, c.scan, l.scan);
    printf("scan rows: comb %ld, sqlite %ld\n", c.scanned, l.scanned);
    printf("peak RSS after comb steps: %ld KiB; comb peak heap: %lld KiB\n",
           rss_after_comb, (long long)(comb_alloc_peak_bytes() / 1024));
    bench_args_end(&args);
    return c.scanned == l.scanned ? 0 : 1;
}
