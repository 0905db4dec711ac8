/*
 * load_bench.c - bulk load of a delimited text file into a partitioned
 * full-ACID ORC table, against DuckDB loading the same file, side by side
 * in one run.
 *
 *   load_bench [ROWS] [DIR]          (default 10000000 rows)
 *
 * Generates ROWS rows of mixed types as a comma-separated TEXTFILE (id INT,
 * big BIGINT, name STRING, price DECIMAL(12,2), d DATE, score DOUBLE and a
 * partition key ds with 30 distinct days; about 1% NULLs, written \N as
 * Hive's text SerDe does), then:
 *   comb    CREATE EXTERNAL TABLE staging ... STORED AS TEXTFILE LOCATION
 *           over the file, and one dynamic-partition
 *           INSERT INTO t PARTITION (ds) SELECT ... FROM staging
 *           into a partitioned ORC table with 'transactional'='true'
 *   DuckDB  COPY of the same file into a table of a database file, through
 *           @duckdb/node-api (duckdb/load.mjs next to this binary, installed
 *           by `make bench`; "DuckDB: not found" when it is not there)
 * Prints rows/s of each load, comb's peak RSS and peak heap, DuckDB's peak
 * RSS (its process), and checks both counted ROWS rows.  DIR keeps the
 * files for a look; without it a temporary directory is removed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "sql/session.h"

#include "bench.h"

#define N_DAYS 30

/* out = a followed by b; false when it does not fit. */
static bool join(char *out, size_t n, const char *a, const char *b)
{
    return snprintf(out, n, "%s%s", a, b) < (int)n;
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Days since 1970-01-01 as YYYY-MM-DD (Howard Hinnant's civil_from_days). */
static int format_date(char *out, long days)
{
    long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    long y = yoe + era * 400 + (m <= 2);
    return sprintf(out, "%04ld-%02ld-%02ld", y, m, d);
}

/* One row of the file; about 1% of the nullable fields are \N. */
static int format_row(char *out, long i, uint64_t *seed)
{
    uint64_t r = next_rand(seed), q = next_rand(seed);
    char *p = out;
    p += sprintf(p, "%ld,%lld,", i, (long long)(i * 1000003LL + (long)(r % 997)));
    if (r % 100 == 0)
        p += sprintf(p, "\\N,");
    else
        p += sprintf(p, "name-%llu,", (unsigned long long)(q % 100000));
    p += sprintf(p, "%s%llu.%02llu,", q % 7 == 0 ? "-" : "",
                 (unsigned long long)(r % 100000000),
                 (unsigned long long)(q % 100));
    p += format_date(p, 10957 + (long)(q % 9000));
    *p++ = ',';
    if (q % 100 == 1)
        p += sprintf(p, "\\N,");
    else
        p += sprintf(p, "%llu.%03llu,", (unsigned long long)(r % 100000),
                     (unsigned long long)(q % 1000));
    p += sprintf(p, "2024-01-%02d\n", (int)(r % N_DAYS) + 1);
    return (int)(p - out);
}

static int generate(const char *path, long rows, long *bytes)
{
    FILE *f = fopen(path, "w");
    static char buf[1 << 20];
    uint64_t seed = 88172645463325252ULL;
    size_t used = 0;
    if (!f)
        return 1;
    *bytes = 0;
    for (long i = 0; i < rows; i++) {
        used += (size_t)format_row(buf + used, i, &seed);
        if (used > sizeof buf - 256) {
            fwrite(buf, 1, used, f);
            *bytes += (long)used;
            used = 0;
        }
    }
    fwrite(buf, 1, used, f);
    *bytes += (long)used;
    return fclose(f) != 0;
}

typedef struct Count {
    long rows;
} Count;

static int count_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    ((Count *)ctx)->rows = b->cols[0].i64[comb_batch_row(b, 0)];
    return 0;
}

/* sql's rows counted into count (NULL: not counted). */
static int comb_exec_count(SqlSession *s, const char *sql, Count *count)
{
    SqlSink sink = {count, NULL, count_batch, NULL, NULL};
    return comb_exec(s, sql, count ? &sink : NULL);
}

typedef struct Result {
    double seconds;
    double cpu;              /* CPU seconds of the load (all threads) */
    long rows;
    long peak_rss_kb;
    int threads;
} Result;

static int run_comb(const char *dir, Result *res)
{
    char wh[4096], sql[8192];
    SqlSessionOptions opt = {wh, "bench"};
    SqlSession *s;
    CombErr err;
    Count count = {0};
    double t0, cpu0;
    int rc = 1;
    if (!join(wh, sizeof wh, dir, "/warehouse"))
        return 1;
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    if (snprintf(sql, sizeof sql,
                 "CREATE EXTERNAL TABLE staging (id INT, big BIGINT, name "
                 "STRING, price DECIMAL(12,2), d DATE, score DOUBLE, ds STRING) "
                 "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS "
                 "TEXTFILE LOCATION '%s/csv'", dir) >= (int)sizeof sql ||
        comb_exec(s, sql, NULL) ||
        comb_exec(s, "CREATE TABLE t (id INT, big BIGINT, name STRING, "
                     "price DECIMAL(12,2), d DATE, score DOUBLE) "
                     "PARTITIONED BY (ds STRING) STORED AS ORC "
                     "TBLPROPERTIES ('transactional'='true')", NULL))
        goto done;
    t0 = now();
    cpu0 = cpu_seconds();
    if (comb_exec(s, "INSERT INTO t PARTITION (ds) SELECT id, big, name, price, "
                     "d, score, ds FROM staging", NULL))
        goto done;
    res->seconds = now() - t0;
    res->cpu = cpu_seconds() - cpu0;
    res->peak_rss_kb = peak_rss_kb();
    if (comb_exec_count(s, "SELECT count(*) FROM t", &count))
        goto done;
    res->rows = count.rows;
    rc = 0;
done:
    sql_session_close(s);
    return rc;
}

/* DuckDB through node: duckdb/load.mjs next to this binary prints
 * "seconds cpu_seconds rows peak_kib threads" on success. */
static int run_duckdb(const char *self, const char *dir, const char *csv,
                      Result *res)
{
    char bench_dir[4096], script[4096], api[4096], cmd[16384], line[256];
    const char *slash = strrchr(self, '/');
    FILE *p;
    int n = slash ? (int)(slash - self) : 1;
    snprintf(bench_dir, sizeof bench_dir, "%.*s", n, slash ? self : ".");
    if (!join(script, sizeof script, bench_dir, "/duckdb/load.mjs") ||
        !join(api, sizeof api, bench_dir, "/duckdb/node_modules/@duckdb/node-api") ||
        !fs_exists(script) || !fs_is_dir(api))
        return 1;
    if (snprintf(cmd, sizeof cmd, "node '%s' '%s' '%s/duckdb.db'", script, csv,
                 dir) >= (int)sizeof cmd ||
        !(p = popen(cmd, "r")))
        return 1;
    if (!fgets(line, sizeof line, p) ||
        sscanf(line, "%lf %lf %ld %ld %d", &res->seconds, &res->cpu,
               &res->rows, &res->peak_rss_kb, &res->threads) != 5) {
        pclose(p);
        return 1;
    }
    return pclose(p) != 0;
}

int main(int argc, char **argv)
{
    BenchArgs args;
    long rows;
    const char *dir;
    char csv_dir[4096], csv[4096];
    Result c = {0}, d = {0};
    CombErr err;
    long bytes;
    double t0;
    int have_duckdb;
    if (bench_args(&args, argc, argv, "load_bench", 10000000))
        return 2;
    rows = args.rows;
    dir = args.dir;
    if (!join(csv_dir, sizeof csv_dir, dir, "/csv") ||
        !join(csv, sizeof csv, csv_dir, "/rows.csv")) {
        fprintf(stderr, "load_bench: directory name too long\n");
        return 2;
    }
    if (fs_mkdirs(csv_dir, &err)) {
        fprintf(stderr, "load_bench: %s\n", err.msg);
        return 1;
    }
    t0 = now();
    if (generate(csv, rows, &bytes)) {
        fprintf(stderr, "load_bench: cannot write %s\n", csv);
        return 1;
    }
    printf("load_bench: %ld rows, %.1f MB of text (generated in %.1f s), "
           "%d partitions\n", rows, (double)bytes / 1e6, now() - t0, N_DAYS);
    fflush(stdout);
    if (run_comb(dir, &c))
        return 1;
    printf("comb    %10.0f rows/s  %6.2f s (CPU %6.2f s, 1 thread)  peak RSS "
           "%ld KiB, peak heap %lld KiB  (INSERT INTO t PARTITION (ds) "
           "SELECT ... FROM staging)\n", rows / c.seconds, c.seconds, c.cpu,
           c.peak_rss_kb, (long long)(comb_alloc_peak_bytes() / 1024));
    fflush(stdout);
    have_duckdb = run_duckdb(argv[0], dir, csv, &d) == 0;
    if (have_duckdb)
        printf("DuckDB  %10.0f rows/s  %6.2f s (CPU %6.2f s, %d threads)  peak "
               "RSS %ld KiB  (COPY into a table of a database file)\n",
               rows / d.seconds, d.seconds, d.cpu, d.threads, d.peak_rss_kb);
    else
        printf("DuckDB: not found (make bench installs it with npm)\n");
    printf("rows counted: comb %ld", c.rows);
    if (have_duckdb)
        printf(", DuckDB %ld", d.rows);
    printf("\n");
    bench_args_end(&args);
    return c.rows == rows && (!have_duckdb || d.rows == rows) ? 0 : 1;
}
