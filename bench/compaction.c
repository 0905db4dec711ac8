/*
 * compaction.c - what compaction buys and what it costs (issue 11, item 7):
 *
 *   compaction [ROWS] [DIR]      (default 1000000 rows; DIR is kept)
 *   compaction scan WAREHOUSE TABLE
 *
 * The second form runs the scan below once on a table of a warehouse
 * (a kept DIR's DIR/warehouse, or one the CLI made), for a profiler:
 * valgrind --tool=callgrind --toggle-collect=sql_session_execute counts
 * the scan's instructions alone.
 *
 * For D = 1, 10, 50, 200: a 4-bucket transactional table gets ROWS rows
 * in D INSERT ... SELECT statements (D deltas, delta k the ids with
 * id % D = k) and a DELETE of 10% of them (one delete delta); a full scan
 * of it is timed (best of 5), then a major compaction (ALTER TABLE ...
 * COMPACT 'major' AND WAIT, run in this process) and the scan of the
 * compacted table.  Two DELETE patterns: `id % 10 = 3`, which at D = 50
 * and 200 empties whole deltas (the reader skips such files), and the
 * spread `(id DIV 50) % 10 = 3`, which deletes a tenth of every delta's
 * rows, scattered over its files.  The compaction and the
 * plain write are timed best of 3 as well (the compaction over three
 * tables of the first pattern filled alike): one run of either on the
 * shared machine varied by a third in CPU time.  Printed: scan time over
 * D deltas / scan time over the one base (by wall and by CPU time) for
 * each pattern, and compaction rows/s and MB/s
 * (bytes of the new base) next to a plain ORC write of the same rows
 * (INSERT OVERWRITE of a non-transactional ORC table from the compacted
 * table: the same read and the same ORC writer without the ACID columns).
 * The last two columns are plain/major speed by wall time and by CPU
 * time (the machine may be shared; compaction also makes a few more
 * durable metastore commits: claim, txn, commit).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "fs/fs.h"
#include "sql/session.h"

#include "bench.h"

typedef struct ScanCount {
    long rows;
} ScanCount;

static int count_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    ((ScanCount *)ctx)->rows += comb_batch_live(b);
    return 0;
}

#define WRITE_RUNS 3

/* Run sql (its rows to sink), keeping the best wall (*secs) and CPU
 * (*cpu) time so far. */
static int timed(SqlSession *s, const char *sql, const SqlSink *sink,
                 double *secs, double *cpu)
{
    double t0 = now(), c0 = cpu_seconds();
    if (comb_exec(s, sql, sink))
        return 1;
    if (now() - t0 < *secs)
        *secs = now() - t0;
    if (cpu_seconds() - c0 < *cpu)
        *cpu = cpu_seconds() - c0;
    return 0;
}

/* Best of `runs` by wall time (*secs) and by CPU time (*cpu: the scan is
 * one thread, so on a shared machine its CPU time is the steadier
 * figure). */
static int scan_runs(SqlSession *s, const char *table, int runs, long *rows,
                     double *secs, double *cpu)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT id, grp, name, amount FROM %s", table);
    *secs = *cpu = 1e30;
    for (int i = 0; i < runs; i++) {
        ScanCount c = {0};
        SqlSink sink = {&c, NULL, count_batch, NULL, NULL};
        if (timed(s, sql, &sink, secs, cpu))
            return 1;
        *rows = c.rows;
    }
    return 0;
}

static int scan(SqlSession *s, const char *table, long *rows, double *secs,
                double *cpu)
{
    return scan_runs(s, table, 5, rows, secs, cpu);
}

/* Bytes of the files under dir (one level of subdirectories). */
static long long dir_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    long long total = 0;
    if (!d)
        return 0;
    while ((e = readdir(d))) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        total += S_ISDIR(st.st_mode) ? dir_bytes(path) : (long long)st.st_size;
    }
    closedir(d);
    return total;
}

/* The two DELETE patterns of 10% of the rows (see the top). */
enum { WHOLE_DELTAS, SPREAD };
static const char *const delete_where[2] = {"id % 10 = 3",
                                            "(id DIV 50) % 10 = 3"};

static int fill(SqlSession *s, const char *t, int n_deltas, int pattern)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s (id BIGINT, grp INT, name STRING, amount DOUBLE)"
             " CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC"
             " TBLPROPERTIES ('transactional'='true')", t);
    if (comb_exec(s, sql, NULL))
        return 1;
    for (int k = 0; k < n_deltas; k++) {
        snprintf(sql, sizeof sql,
                 "INSERT INTO %s SELECT id, grp, name, amount FROM src"
                 " WHERE id %% %d = %d", t, n_deltas, k);
        if (comb_exec(s, sql, NULL))
            return 1;
    }
    snprintf(sql, sizeof sql, "DELETE FROM %s WHERE %s", t,
             delete_where[pattern]);
    return comb_exec(s, sql, NULL);
}

/* 1 with a message when a compaction changed the rows a scan returns. */
static int differ(long before, long after)
{
    if (before == after)
        return 0;
    fprintf(stderr, "rows differ after compaction: %ld vs %ld\n", before,
            after);
    return 1;
}

/* Rows and scan times of table t (best wall *d, best CPU *ud) and of it
 * after a major compaction (*b, *ub), whose time is not taken: the
 * spread pattern's scans.  The rows must be the same. */
static int scan_compacted(SqlSession *s, const char *t, long *rows,
                          double *d, double *ud, double *b, double *ub)
{
    char sql[256];
    long after;
    snprintf(sql, sizeof sql, "ALTER TABLE %s COMPACT 'major' AND WAIT", t);
    return scan(s, t, rows, d, ud) || comb_exec(s, sql, NULL) ||
           scan(s, t, &after, b, ub) || differ(*rows, after);
}

static int source(SqlSession *s, long rows)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = comb_exec(s, "CREATE TABLE src (id BIGINT, grp INT, name STRING,"
                          " amount DOUBLE) STORED AS ORC"
                          " TBLPROPERTIES ('transactional'='false')", NULL);
    for (long i = 0; !rc && i < rows; i += 10000) {
        comb_buf_clear(&b);
        comb_buf_append_str(&b, "INSERT INTO src VALUES ");
        for (long j = i; j < i + 10000 && j < rows; j++)
            comb_buf_printf(&b, "%s(%ld,%ld,'name-%ld',%ld.25)",
                            j == i ? "" : ",", j, j % 97, j, j % 1000);
        comb_buf_append_byte(&b, '\0');
        rc = comb_exec(s, (const char *)b.data, NULL);
    }
    comb_buf_free(&b);
    return rc;
}

/* `compaction scan WAREHOUSE TABLE`: one scan, its rows and CPU time. */
static int scan_only(const char *warehouse, const char *table)
{
    SqlSessionOptions opt = {warehouse, "bench", NULL};
    SqlSession *s;
    CombErr err;
    long rows;
    double secs, cpu;
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    if (scan_runs(s, table, 1, &rows, &secs, &cpu)) {
        sql_session_close(s);
        return 1;
    }
    printf("%s: %ld rows, %.3f s, CPU %.3f s\n", table, rows, secs, cpu);
    sql_session_close(s);
    return 0;
}

int main(int argc, char **argv)
{
    static const int deltas[] = {1, 10, 50, 200};
    BenchArgs args;
    long rows;
    const char *dir;
    char wh[4096];
    SqlSessionOptions opt = {wh, "bench", NULL};
    SqlSession *s;
    CombErr err;
    if (argc == 4 && strcmp(argv[1], "scan") == 0)
        return scan_only(argv[2], argv[3]);
    if (bench_args(&args, argc, argv, "compaction", 1000000))
        return 2;
    rows = args.rows;
    dir = args.dir;
    snprintf(wh, sizeof wh, "%s/warehouse", dir);
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    if (source(s, rows) ||
        comb_exec(s, "CREATE TABLE plain (id BIGINT, grp INT, name STRING,"
                     " amount DOUBLE) STORED AS ORC"
                     " TBLPROPERTIES ('transactional'='false')", NULL))
        return 1;
    printf("%ld rows, 4 buckets, 10%% deleted; scans best of 5, major and "
           "plain writes best of %d\n", rows, WRITE_RUNS);
    printf("%7s %-43s | %-43s |\n", "", "DELETE whole deltas (id % 10 = 3)",
           "DELETE spread ((id DIV 50) % 10 = 3)");
    printf("%7s %12s %12s %8s %8s | %12s %12s %8s %8s | %12s %9s %8s | "
           "%12s %9s %8s | %8s %8s\n",
           "deltas", "scan deltas", "scan base", "ratio", "CPU",
           "scan deltas", "scan base", "ratio", "CPU", "major rows/s",
           "MB/s", "CPU s", "plain rows/s", "MB/s", "CPU s", "wall",
           "CPU");
    for (size_t i = 0; i < sizeof deltas / sizeof *deltas; i++) {
        char t[32], sql[256], base_dir[4200];
        long n_before, n_after, n_spread;
        double t_deltas, t_base, t_major, t_plain, c_major, c_plain;
        double u_deltas, u_base, s_deltas, s_base, v_deltas, v_base;
        long long major_bytes, plain_bytes;
        t_major = c_major = t_plain = c_plain = 1e30;
        for (int run = WRITE_RUNS - 1; run >= 0; run--) {
            /* the last one filled, t<D>, is the one scanned and kept */
            if (run)
                snprintf(t, sizeof t, "t%d_%d", deltas[i], run);
            else
                snprintf(t, sizeof t, "t%d", deltas[i]);
            snprintf(sql, sizeof sql,
                     "ALTER TABLE %s COMPACT 'major' AND WAIT", t);
            if (fill(s, t, deltas[i], WHOLE_DELTAS) ||
                (!run && scan(s, t, &n_before, &t_deltas, &u_deltas)) ||
                timed(s, sql, NULL, &t_major, &c_major))
                return 1;
        }
        snprintf(base_dir, sizeof base_dir, "%s/%s", wh, t);
        /* the old directories are still there (no cleaner ran): the
         * base is the directory named base_* */
        {
            DIR *d = opendir(base_dir);
            struct dirent *e;
            major_bytes = 0;
            while (d && (e = readdir(d)))
                if (strncmp(e->d_name, "base_", 5) == 0) {
                    char p[4700];
                    snprintf(p, sizeof p, "%s/%s", base_dir, e->d_name);
                    major_bytes = dir_bytes(p);
                }
            if (d)
                closedir(d);
        }
        if (scan(s, t, &n_after, &t_base, &u_base) ||
            differ(n_before, n_after))
            return 1;
        snprintf(t, sizeof t, "s%d", deltas[i]);
        if (fill(s, t, deltas[i], SPREAD) ||
            scan_compacted(s, t, &n_spread, &s_deltas, &v_deltas, &s_base,
                           &v_base))
            return 1;
        snprintf(sql, sizeof sql, "INSERT OVERWRITE TABLE plain SELECT id,"
                                  " grp, name, amount FROM %s", t);
        for (int run = 0; run < WRITE_RUNS; run++)
            if (timed(s, sql, NULL, &t_plain, &c_plain))
                return 1;
        snprintf(base_dir, sizeof base_dir, "%s/plain", wh);
        plain_bytes = dir_bytes(base_dir);
        printf("%7d %10.3f s %10.3f s %7.2fx %7.2fx | %10.3f s %10.3f s "
               "%7.2fx %7.2fx | %12.0f %9.1f %8.3f | "
               "%12.0f %9.1f %8.3f | %7.2fx %7.2fx\n",
               deltas[i], t_deltas, t_base, t_deltas / t_base,
               u_deltas / u_base, s_deltas, s_base, s_deltas / s_base,
               v_deltas / v_base,
               n_after / t_major, major_bytes / 1e6 / t_major, c_major,
               n_after / t_plain, plain_bytes / 1e6 / t_plain, c_plain,
               t_plain / t_major, c_plain / c_major);
        fflush(stdout);
    }
    printf("peak RSS %ld MB\n", peak_rss_kb() / 1024);
    sql_session_close(s);
    bench_args_end(&args);
    return 0;
}
