/*
 * tpch.c - TPC-H on comb next to DuckDB and SQLite (issue 8, acceptance 5):
 * a data generator, the loads, and the 22 queries timed on every engine in
 * the same run.  Figures only, never assertions.
 *
 *   tpch [--sf SF] [--dir DIR] [--queries LIST] [--timeout S] [--format acid|orc]
 *        [--qdir DIR] [--engines comb,sqlite,duckdb]
 *   tpch gen SF DIR        only write the data files
 *
 * Data: tables in the TPC-H specification's shapes and approximately its
 * distributions (dbgen's key formulas, price and date rules, the word and
 * syllable lists for names, types and containers; comments from a word
 * list, so Q13's and Q16's patterns match some rows), deterministic for a
 * scale factor, as pipe-delimited text DIR/data/<table>/<table>.tbl.
 * Loaded into comb as external TEXTFILE tables and INSERT ... SELECT into
 * ORC tables (full ACID by default, as Hive 4 makes managed tables), into a
 * SQLite file (prepared INSERTs in one transaction) and into DuckDB in
 * memory (COPY, through bench/duckdb/tpch.mjs and npm's @duckdb/node-api).
 * A second run with the same DIR and SF reuses the files and the loads.
 *
 * Queries: bench/tpch/queries/qNN.sql in HiveQL (--qdir); the substitution
 * parameters are the specification's validation values, dates written as
 * literals.  SQLite gets each text with DATE 'x' as 'x' and year(x) as
 * CAST(strftime('%Y', x) AS INTEGER) (its dates are text); ${fraction}
 * (Q11) is 0.0001 / SF everywhere.  Each query runs in a child process per
 * engine (comb, SQLite), timed around the statement alone, the child's peak
 * RSS from wait4; DuckDB runs all queries in one node process per thread
 * setting (threads=1 and the default, all cores), whose peak RSS is the
 * process's.  comb runs with comb.exec.threads=1 and =2 when the setting
 * exists ("n/a" otherwise).  A query an engine refuses prints
 * "unsupported: <error>"; one over --timeout seconds (default 60) is
 * killed and printed as "timeout".  The rows column is SQLite's row
 * count, marked "!" where comb's or DuckDB's differs.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/exec/par.h"
#include "sql/session.h"

#define N_QUERIES 22

/* ------------------------------------------------------------ generator */

static uint64_t rng;

static uint64_t next64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

/* uniform in [lo, hi] */
static long urand(long lo, long hi)
{
    return lo + (long)(next64() % (uint64_t)(hi - lo + 1));
}

static const char *const comment_words[] = {
    "furiously", "quickly", "carefully", "blithely", "slyly", "ironic", "final", "pending",
    "regular", "express", "special", "bold", "even", "silent", "unusual", "requests",
    "deposits", "packages", "accounts", "theodolites", "instructions", "foxes", "pinto",
    "beans", "asymptotes", "dependencies", "excuses", "platelets", "ideas", "courts", "sleep",
    "haggle", "nag", "use", "boost", "wake", "cajole", "detect", "integrate", "among", "above",
    "across", "along", "after", "the", "about", "according", "to"};
#define N_COMMENT_WORDS (int)(sizeof comment_words / sizeof comment_words[0])

static const char *const colors[] = {
    "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black", "blanched", "blue",
    "blush", "brown", "burlywood", "burnished", "chartreuse", "chiffon", "chocolate", "coral",
    "cornflower", "cornsilk", "cream", "cyan", "dark", "deep", "dim", "dodger", "drab",
    "firebrick", "floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green",
    "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace", "lavender", "lawn", "lemon",
    "light", "lime", "linen", "magenta", "maroon", "medium", "metallic", "midnight", "mint",
    "misty", "moccasin", "navajo", "navy", "olive", "orange", "orchid", "pale", "papaya",
    "peach", "peru", "pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy",
    "royal", "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate", "smoke",
    "snow", "spring", "steel", "tan", "thistle", "tomato", "turquoise", "violet", "wheat",
    "white", "yellow"};
#define N_COLORS (int)(sizeof colors / sizeof colors[0])

static const char *const type1[] = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
static const char *const type2[] = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
static const char *const type3[] = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
static const char *const cont1[] = {"SM", "LG", "MED", "JUMBO", "WRAP"};
static const char *const cont2[] = {"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"};
static const char *const segments[] = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY",
                                       "HOUSEHOLD"};
static const char *const priorities[] = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED",
                                         "5-LOW"};
static const char *const instructs[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                        "TAKE BACK RETURN"};
static const char *const modes[] = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

static const struct {
    const char *name;
    int region;
} nations[25] = {
    {"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4},
    {"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2},
    {"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0},
    {"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3},
    {"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3}, {"UNITED KINGDOM", 3},
    {"UNITED STATES", 1}};
static const char *const regions[5] = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

#define DAY0 8035          /* 1992-01-01 in days since 1970-01-01 */
#define CURRENT 9298       /* 1995-06-17 */
#define LAST_ORDER 10591   /* 1998-08-02 - 151 days */

static void put_date(FILE *f, long days)
{
    time_t t = (time_t)days * 86400;
    struct tm tm;
    gmtime_r(&t, &tm);
    fprintf(f, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* Cents as d.dd (negative too). */
static void put_money(FILE *f, long cents)
{
    fprintf(f, "%s%ld.%02ld", cents < 0 ? "-" : "", labs(cents) / 100, labs(cents) % 100);
}

static void put_comment(FILE *f, int lo, int hi)
{
    int n = (int)urand(lo, hi);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? " " : "", comment_words[urand(0, N_COMMENT_WORDS - 1)]);
}

static void put_text(FILE *f, int lo, int hi)   /* addresses: letters and digits */
{
    static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,";
    int n = (int)urand(lo, hi);
    for (int i = 0; i < n; i++)
        fputc(al[urand(0, (long)sizeof al - 2)], f);
}

static void put_phone(FILE *f, long nation)
{
    fprintf(f, "%ld-%03ld-%03ld-%04ld", nation + 10, urand(100, 999), urand(100, 999),
            urand(1000, 9999));
}

static long retail_cents(long partkey)
{
    return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000);
}

/* dbgen's supplier of part p's i-th partsupp row */
static long part_supp(long p, int i, long n_supp)
{
    return (p + (i * ((n_supp / 4) + (p - 1) / n_supp))) % n_supp + 1;
}

static FILE *open_table(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s.tbl", dir, name, name);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "tpch: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

static void close_table(FILE *f)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "tpch: write failed: %s\n", strerror(errno));
        exit(1);
    }
}

static void gen_small(const char *dir)
{
    FILE *f = open_table(dir, "region");
    rng = 11;
    for (int r = 0; r < 5; r++) {
        fprintf(f, "%d|%s|", r, regions[r]);
        put_comment(f, 4, 12);
        fputc('\n', f);
    }
    close_table(f);
    f = open_table(dir, "nation");
    for (int n = 0; n < 25; n++) {
        fprintf(f, "%d|%s|%d|", n, nations[n].name, nations[n].region);
        put_comment(f, 4, 12);
        fputc('\n', f);
    }
    close_table(f);
}

static void gen_supplier(const char *dir, long n_supp)
{
    FILE *f = open_table(dir, "supplier");
    rng = 12;
    for (long s = 1; s <= n_supp; s++) {
        long nation = urand(0, 24);
        fprintf(f, "%ld|Supplier#%09ld|", s, s);
        put_text(f, 10, 40);
        fprintf(f, "|%ld|", nation);
        put_phone(f, nation);
        fputc('|', f);
        put_money(f, urand(-99999, 999999));
        fputc('|', f);
        /* the spec's Better Business Bureau comments, 5 per SF each kind */
        if (s % 2000 == 7)
            fprintf(f, "carefully Customer slyly Complaints ");
        else if (s % 2000 == 1007)
            fprintf(f, "quickly Customer even Recommends ");
        put_comment(f, 4, 12);
        fputc('\n', f);
    }
    close_table(f);
}

static void gen_part(const char *dir, long n_part, long n_supp)
{
    FILE *f = open_table(dir, "part"), *ps = open_table(dir, "partsupp");
    rng = 13;
    for (long p = 1; p <= n_part; p++) {
        int m = (int)urand(1, 5);
        fprintf(f, "%ld|", p);
        for (int i = 0; i < 5; i++)
            fprintf(f, "%s%s", i ? " " : "", colors[urand(0, N_COLORS - 1)]);
        fprintf(f, "|Manufacturer#%d|Brand#%d%ld|%s %s %s|%ld|%s %s|", m, m, urand(1, 5),
                type1[urand(0, 5)], type2[urand(0, 4)], type3[urand(0, 4)], urand(1, 50),
                cont1[urand(0, 4)], cont2[urand(0, 7)]);
        put_money(f, retail_cents(p));
        fputc('|', f);
        put_comment(f, 2, 6);
        fputc('\n', f);
        for (int i = 0; i < 4; i++) {
            fprintf(ps, "%ld|%ld|%ld|", p, part_supp(p, i, n_supp), urand(1, 9999));
            put_money(ps, urand(100, 100000));
            fputc('|', ps);
            put_comment(ps, 6, 20);
            fputc('\n', ps);
        }
    }
    close_table(f);
    close_table(ps);
}

static void gen_customer(const char *dir, long n_cust)
{
    FILE *f = open_table(dir, "customer");
    rng = 14;
    for (long c = 1; c <= n_cust; c++) {
        long nation = urand(0, 24);
        fprintf(f, "%ld|Customer#%09ld|", c, c);
        put_text(f, 10, 40);
        fprintf(f, "|%ld|", nation);
        put_phone(f, nation);
        fputc('|', f);
        put_money(f, urand(-99999, 999999));
        fprintf(f, "|%s|", segments[urand(0, 4)]);
        put_comment(f, 6, 16);
        fputc('\n', f);
    }
    close_table(f);
}

/* Orders and their line items together: the order's status and total
 * come from its lines. */
static void gen_orders(const char *dir, long n_orders, long n_cust, long n_part, long n_supp,
                       double sf)
{
    FILE *o = open_table(dir, "orders"), *l = open_table(dir, "lineitem");
    long n_clerk = (long)(sf * 1000) > 0 ? (long)(sf * 1000) : 1;
    rng = 15;
    for (long i = 1; i <= n_orders; i++) {
        long key = ((i - 1) / 8) * 32 + (i - 1) % 8 + 1;
        long cust, odate = urand(DAY0, LAST_ORDER), total = 0;
        int n_lines = (int)urand(1, 7), n_f = 0;
        char *buf = NULL;
        size_t len = 0;
        FILE *mem;
        do
            cust = urand(1, n_cust);
        while (cust % 3 == 0 && n_cust > 2);   /* a third of customers never order */
        mem = open_memstream(&buf, &len);
        if (!mem)
            exit(1);
        for (int ln = 1; ln <= n_lines; ln++) {
            long part = urand(1, n_part), supp = part_supp(part, (int)urand(0, 3), n_supp);
            long qty = urand(1, 50), disc = urand(0, 10), tax = urand(0, 8);
            long price = qty * retail_cents(part);
            long ship = odate + urand(1, 121), commit = odate + urand(30, 90);
            long receipt = ship + urand(1, 30);
            bool shipped = ship <= CURRENT;
            n_f += shipped;
            total += (long)llround((double)price * (100 + tax) / 100.0 * (100 - disc) / 100.0);
            fprintf(mem, "%ld|%ld|%ld|%d|%ld|", key, part, supp, ln, qty);
            put_money(mem, price);
            fprintf(mem, "|0.%02ld|0.%02ld|%s|%s|", disc, tax,
                    receipt <= CURRENT ? (urand(0, 1) ? "R" : "A") : "N", shipped ? "F" : "O");
            put_date(mem, ship);
            fputc('|', mem);
            put_date(mem, commit);
            fputc('|', mem);
            put_date(mem, receipt);
            fprintf(mem, "|%s|%s|", instructs[urand(0, 3)], modes[urand(0, 6)]);
            put_comment(mem, 2, 6);
            fputc('\n', mem);
        }
        fclose(mem);
        fprintf(o, "%ld|%ld|%s|", key, cust,
                n_f == n_lines ? "F" : n_f == 0 ? "O" : "P");
        put_money(o, total);
        fputc('|', o);
        put_date(o, odate);
        fprintf(o, "|%s|Clerk#%09ld|0|", priorities[urand(0, 4)], urand(1, n_clerk));
        put_comment(o, 4, 14);
        fputc('\n', o);
        fwrite(buf, 1, len, l);
        free(buf);
    }
    close_table(o);
    close_table(l);
}

static void generate(double sf, const char *dir)
{
    long n_supp = lround(sf * 10000), n_part = lround(sf * 200000);
    long n_cust = lround(sf * 150000), n_orders = lround(sf * 1500000);
    if (n_supp < 4)
        n_supp = 4;
    if (n_part < 1)
        n_part = 1;
    if (n_cust < 3)
        n_cust = 3;
    if (n_orders < 1)
        n_orders = 1;
    mkdir(dir, 0755);
    gen_small(dir);
    gen_supplier(dir, n_supp);
    gen_part(dir, n_part, n_supp);
    gen_customer(dir, n_cust);
    gen_orders(dir, n_orders, n_cust, n_part, n_supp, sf);
}

/* --------------------------------------------------------------- schema */

typedef struct TableDef {
    const char *name;
    const char *cols;   /* HiveQL column list */
} TableDef;

static const TableDef tables[] = {
    {"region", "r_regionkey INT, r_name STRING, r_comment STRING"},
    {"nation", "n_nationkey INT, n_name STRING, n_regionkey INT, n_comment STRING"},
    {"supplier", "s_suppkey BIGINT, s_name STRING, s_address STRING, s_nationkey INT, "
                 "s_phone STRING, s_acctbal DECIMAL(15,2), s_comment STRING"},
    {"part", "p_partkey BIGINT, p_name STRING, p_mfgr STRING, p_brand STRING, p_type STRING, "
             "p_size INT, p_container STRING, p_retailprice DECIMAL(15,2), p_comment STRING"},
    {"partsupp", "ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INT, "
                 "ps_supplycost DECIMAL(15,2), ps_comment STRING"},
    {"customer", "c_custkey BIGINT, c_name STRING, c_address STRING, c_nationkey INT, "
                 "c_phone STRING, c_acctbal DECIMAL(15,2), c_mktsegment STRING, "
                 "c_comment STRING"},
    {"orders", "o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus STRING, "
               "o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority STRING, "
               "o_clerk STRING, o_shippriority INT, o_comment STRING"},
    {"lineitem", "l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT, "
                 "l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), "
                 "l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag STRING, "
                 "l_linestatus STRING, l_shipdate DATE, l_commitdate DATE, "
                 "l_receiptdate DATE, l_shipinstruct STRING, l_shipmode STRING, "
                 "l_comment STRING"}};
#define N_TABLES (int)(sizeof tables / sizeof tables[0])

/* The column list in SQLite's types (DECIMAL as REAL, DATE as TEXT). */
static void sqlite_cols(const char *hive, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = hive; *p && k + 16 < n;) {
        if (strncmp(p, "DECIMAL(15,2)", 13) == 0) {
            k += (size_t)snprintf(out + k, n - k, "REAL");
            p += 13;
        } else if (strncmp(p, "STRING", 6) == 0 || strncmp(p, "DATE", 4) == 0) {
            k += (size_t)snprintf(out + k, n - k, "TEXT");
            p += *p == 'S' ? 6 : 4;
        } else if (strncmp(p, "BIGINT", 6) == 0 || strncmp(p, "INT", 3) == 0) {
            k += (size_t)snprintf(out + k, n - k, "INTEGER");
            p += *p == 'B' ? 6 : 3;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
}

static int count_cols(const char *cols)
{
    int n = 1;
    for (const char *p = cols; *p; p++)
        n += *p == ',' && p[-1] != '5';   /* not the comma of DECIMAL(15,2) */
    return n;
}

/* ------------------------------------------------------------------ loads */

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

static int load_comb(const char *dir, const char *data, bool acid)
{
    char wh[4096], sql[8192];
    SqlSessionOptions opt = {wh, "tpch", NULL};
    SqlSession *s = NULL;
    CombErr err;
    int rc = 1;
    snprintf(wh, sizeof wh, "%s/comb", dir);
    if (sql_session_open(&opt, &s, &err)) {
        fprintf(stderr, "comb: %s\n", err.msg);
        return 1;
    }
    for (int t = 0; t < N_TABLES; t++) {
        snprintf(sql, sizeof sql,
                 "CREATE EXTERNAL TABLE %s_text (%s) ROW FORMAT DELIMITED FIELDS TERMINATED "
                 "BY '|' STORED AS TEXTFILE LOCATION '%s/%s'",
                 tables[t].name, tables[t].cols, data, tables[t].name);
        if (comb_exec(s, sql, NULL))
            goto done;
        snprintf(sql, sizeof sql, "CREATE TABLE %s (%s) STORED AS ORC%s", tables[t].name,
                 tables[t].cols, acid ? " TBLPROPERTIES ('transactional'='true')" : "");
        if (comb_exec(s, sql, NULL))
            goto done;
        snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM %s_text", tables[t].name,
                 tables[t].name);
        if (comb_exec(s, sql, NULL))
            goto done;
    }
    rc = 0;
done:
    sql_session_close(s);
    return rc;
}

static int load_sqlite_table(sqlite3 *db, const char *data, const TableDef *t)
{
    char path[4096 + 128], sql[4096], cols[2048], line[8192];
    int n = count_cols(t->cols);
    sqlite3_stmt *st = NULL;
    FILE *f;
    sqlite_cols(t->cols, cols, sizeof cols);
    snprintf(sql, sizeof sql, "CREATE TABLE %s (%s)", t->name, cols);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    {
        size_t k = (size_t)snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (", t->name);
        for (int i = 0; i < n; i++)
            k += (size_t)snprintf(sql + k, sizeof sql - k, "%s?", i ? "," : "");
        snprintf(sql + k, sizeof sql - k, ")");
    }
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return 1;
    snprintf(path, sizeof path, "%.4000s/%s/%s.tbl", data, t->name, t->name);
    if (!(f = fopen(path, "r")))
        return 1;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        for (int i = 0; i < n; i++) {
            char *bar = strchr(p, '|');
            if (bar)
                *bar = '\0';
            /* numbers as numbers: SQLite's column affinity converts them too,
             * but binding them skips the conversion */
            long long v = strtoll(p, &end, 10);
            if (*p && !*end)
                sqlite3_bind_int64(st, i + 1, v);
            else {
                double d = strtod(p, &end);
                if (*p && !*end && strchr(p, '.'))
                    sqlite3_bind_double(st, i + 1, d);
                else
                    sqlite3_bind_text(st, i + 1, p, -1, SQLITE_TRANSIENT);
            }
            p = bar ? bar + 1 : p + strlen(p);
        }
        if (sqlite3_step(st) != SQLITE_DONE) {
            fclose(f);
            return 1;
        }
        sqlite3_reset(st);
    }
    fclose(f);
    sqlite3_finalize(st);
    return 0;
}

static int load_sqlite(const char *path, const char *data)
{
    sqlite3 *db;
    int rc = 0;
    unlink(path);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return 1;
    sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
    for (int t = 0; t < N_TABLES && rc == 0; t++)
        rc = load_sqlite_table(db, data, &tables[t]);
    if (rc)
        fprintf(stderr, "sqlite load: %s\n", sqlite3_errmsg(db));
    sqlite3_exec(db, "COMMIT; ANALYZE", NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* ---------------------------------------------------------------- queries */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* b's text as a malloc'd string (CombBuf memory is comb's allocator's). */
static char *buf_string(CombBuf *b)
{
    char *s;
    comb_buf_append(b, "", 1);
    s = strdup((const char *)b->data);
    comb_buf_free(b);
    if (!s)
        exit(1);
    return s;
}

/* text with every `from` replaced by `to` (a new heap string) */
static char *replace_all(const char *text, const char *from, const char *to)
{
    CombBuf b = COMB_BUF_INIT;
    size_t nf = strlen(from);
    for (const char *p = text, *q; *p; p = q + nf) {
        q = strstr(p, from);
        if (!q) {
            comb_buf_append(&b, p, strlen(p));
            break;
        }
        comb_buf_append(&b, p, (size_t)(q - p));
        comb_buf_append(&b, to, strlen(to));
    }
    return buf_string(&b);
}

/* The HiveQL text without its comment lines and trailing ';'. */
static char *strip_comments(const char *text)
{
    CombBuf b = COMB_BUF_INIT;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (strncmp(p, "--", 2) != 0)
            comb_buf_append(&b, p, n);
        p += n;
    }
    while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ';' ||
                     b.data[b.len - 1] == ' '))
        b.len--;
    return buf_string(&b);
}

/* SQLite's reading of a HiveQL query: dates are text. */
static char *sqlite_text(const char *hive)
{
    char *a = replace_all(hive, "DATE '", "'"), *b;
    CombBuf out = COMB_BUF_INIT;
    for (const char *p = a; *p;) {
        const char *q = strstr(p, "year(");
        if (!q) {
            comb_buf_append(&out, p, strlen(p));
            break;
        }
        comb_buf_append(&out, p, (size_t)(q - p));
        {
            const char *arg = q + 5, *e = arg;
            int depth = 1;
            while (*e && depth) {
                depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
                e++;
            }
            comb_buf_append(&out, "CAST(strftime('%Y', ", 20);
            comb_buf_append(&out, arg, (size_t)(e - 1 - arg));
            comb_buf_append(&out, ") AS INTEGER)", 13);
            p = e;
        }
    }
    free(a);
    b = buf_string(&out);
    return b;
}

/* ------------------------------------------------------------ measuring */

typedef struct Timing {
    int status;        /* 0 ran, 1 unsupported/error, 2 timeout, 3 not run */
    double seconds;
    double cpu;        /* comb: the process's CPU seconds for the statement */
    double par_tasks;  /* comb: of them in parallel tasks, and the sum of */
    double par_crit;   /* each parallel step's busiest task (sql/exec/par.h) */
    long rows;
    long rss_kb;
    char msg[240];
} Timing;

typedef struct ChildOut {
    double seconds;
    double cpu, par_tasks, par_crit;
    long rows;
    int failed;
    char msg[240];
} ChildOut;

static int count_rows(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    *(long *)ctx += comb_batch_live(b);
    return COMB_OK;
}

static void comb_child(const char *dir, const char *sql, const char *threads, ChildOut *out)
{
    char wh[4096];
    SqlSessionOptions opt = {wh, "tpch", NULL};
    SqlSession *s = NULL;
    CombErr err;
    SqlSink sink = {&out->rows, NULL, count_rows, NULL, NULL};
    double t0, c0;
    uint64_t tasks0, crit0, tasks1, crit1;
    snprintf(wh, sizeof wh, "%s/comb", dir);
    if (sql_session_open(&opt, &s, &err)) {
        out->failed = 1;
        snprintf(out->msg, sizeof out->msg, "%.200s", err.msg);
        return;
    }
    if (threads)
        (void)sql_session_set_conf(s, "comb.exec.threads", threads, &err);
    sql_par_cpu(&tasks0, &crit0);
    c0 = cpu_seconds();
    t0 = now();
    if (sql_session_execute(s, sql, strlen(sql), &sink, &err)) {
        out->failed = 1;
        snprintf(out->msg, sizeof out->msg, "%.200s", err.msg);
    }
    out->seconds = now() - t0;
    out->cpu = cpu_seconds() - c0;
    sql_par_cpu(&tasks1, &crit1);
    out->par_tasks = (double)(tasks1 - tasks0) / 1e9;
    out->par_crit = (double)(crit1 - crit0) / 1e9;
    sql_session_close(s);
}

static void sqlite_child(const char *path, const char *sql, ChildOut *out)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    double t0;
    int rc;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        out->failed = 1;
        snprintf(out->msg, sizeof out->msg, "%.200s", sqlite3_errmsg(db));
        return;
    }
    t0 = now();
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        out->failed = 1;
        snprintf(out->msg, sizeof out->msg, "%.200s", sqlite3_errmsg(db));
    } else {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            out->rows++;
        if (rc != SQLITE_DONE) {
            out->failed = 1;
            snprintf(out->msg, sizeof out->msg, "%.200s", sqlite3_errmsg(db));
        }
    }
    out->seconds = now() - t0;
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Run one query in a child (engine 'c' comb, 's' SQLite); its peak RSS
 * from wait4, killed after timeout seconds. */
static Timing run_child(char engine, const char *dir, const char *sql, const char *threads,
                        double timeout)
{
    Timing t = {0};
    ChildOut out = {0};
    int fds[2], status = 0;
    struct rusage ru;
    pid_t pid;
    double t0 = now();
    if (pipe(fds) != 0)
        return (Timing){.status = 1, .msg = "pipe failed"};
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        char path[4096];
        close(fds[0]);
        if (engine == 'c') {
            comb_child(dir, sql, threads, &out);
        } else {
            snprintf(path, sizeof path, "%s/tpch.sqlite", dir);
            sqlite_child(path, sql, &out);
        }
        if (write(fds[1], &out, sizeof out) != (ssize_t)sizeof out)
            _exit(3);
        _exit(0);
    }
    close(fds[1]);
    for (;;) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid)
            break;
        if (now() - t0 > timeout) {
            kill(pid, SIGKILL);
            wait4(pid, &status, 0, &ru);
            close(fds[0]);
            t.status = 2;
            t.rss_kb = ru.ru_maxrss;
            snprintf(t.msg, sizeof t.msg, "timeout");
            return t;
        }
        usleep(2000);
    }
    t.rss_kb = ru.ru_maxrss;
    if (read(fds[0], &out, sizeof out) != (ssize_t)sizeof out) {
        t.status = 1;
        snprintf(t.msg, sizeof t.msg, "crashed (status %d)", status);
    } else if (out.failed) {
        t.status = 1;
        snprintf(t.msg, sizeof t.msg, "%.200s", out.msg);
    } else {
        t.seconds = out.seconds;
        t.cpu = out.cpu;
        t.par_tasks = out.par_tasks;
        t.par_crit = out.par_crit;
        t.rows = out.rows;
    }
    close(fds[0]);
    return t;
}

/* comb's CPU time per query with 1 and 2 threads, and the speed-up two
 * idle cores would give: the serial CPU time over the 2-thread run's
 * critical path (its CPU outside parallel steps plus each step's busiest
 * task).  On a machine whose cores other work shares, wall times mostly
 * measure that work; these do not. */
static void print_cpu_table(const bool *want, const Timing *one, const Timing *two)
{
    printf("\ncomb CPU seconds (process CPU time around the statement)\n");
    printf("%-4s %10s %10s %10s %10s %12s\n", "q", "cpu 1t", "cpu 2t", "par. tasks",
           "crit. path", "est. speedup");
    for (int q = 0; q < N_QUERIES; q++) {
        double path;
        if (!want[q] || one[q].status != 0 || two[q].status != 0)
            continue;
        path = two[q].cpu - two[q].par_tasks + two[q].par_crit;
        printf("q%02d  %10.3f %10.3f %10.3f %10.3f %11.2fx\n", q + 1, one[q].cpu, two[q].cpu,
               two[q].par_tasks, two[q].par_crit, path > 0 ? one[q].cpu / path : 0.0);
    }
}

/* DuckDB through node: duckdb/tpch.mjs next to this binary loads the
 * data and runs every query; lines "qNN seconds rows" or "qNN error
 * text", last "peak_kib N threads N". */
static int run_duckdb(const char *self, const char *data, const char *qlist_file, int threads,
                      Timing *out, long *peak_kb, int *n_threads)
{
    char bench_dir[4096], script[4096 + 32], api[4096 + 64], cmd[16384], line[1024];
    const char *slash = strrchr(self, '/');
    FILE *p;
    snprintf(bench_dir, sizeof bench_dir, "%.*s", slash ? (int)(slash - self) : 1,
             slash ? self : ".");
    snprintf(script, sizeof script, "%s/duckdb/tpch.mjs", bench_dir);
    snprintf(api, sizeof api, "%s/duckdb/node_modules/@duckdb/node-api", bench_dir);
    if (!file_exists(script) || !file_exists(api))
        return 1;
    snprintf(cmd, sizeof cmd, "node '%s' '%s' '%s' %d", script, data, qlist_file, threads);
    if (!(p = popen(cmd, "r")))
        return 1;
    while (fgets(line, sizeof line, p)) {
        int q;
        double secs;
        long rows;
        char msg[1024];
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "q%d %lf %ld", &q, &secs, &rows) == 3 && q >= 1 && q <= N_QUERIES) {
            out[q - 1] = (Timing){.seconds = secs, .rows = rows};
        } else if (sscanf(line, "q%d error %1000[^\n]", &q, msg) == 2 && q >= 1 &&
                   q <= N_QUERIES) {
            out[q - 1].status = 1;
            snprintf(out[q - 1].msg, sizeof out[q - 1].msg, "%.200s", msg);
        } else {
            sscanf(line, "peak_kib %ld threads %d", peak_kb, n_threads);
        }
    }
    return pclose(p) != 0;
}

/* ---------------------------------------------------------------- report */

static void print_cell(const Timing *t)
{
    if (t->status == 3)
        printf(" %10s", "-");
    else if (t->status == 0)
        printf(" %10.3f", t->seconds);
    else
        printf(" %10s", t->status == 2 ? "timeout" : "unsup.");
}

static void print_mb(const Timing *t)
{
    if (t->status == 3)
        printf(" %8s", "-");
    else
        printf(" %8.0f", t->rss_kb / 1024.0);
}

static void print_ratio(const Timing *a, const Timing *b)
{
    if (a->status == 0 && b->status == 0 && b->seconds > 0)
        printf(" %8.2fx", a->seconds / b->seconds);
    else
        printf(" %9s", "-");
}

static int info_line(void *ctx, const char *line, CombErr *err)
{
    (void)err;
    snprintf(ctx, 256, "%s", line);
    return COMB_OK;
}

/* Whether comb knows comb.exec.threads ("SET key" answers "key=value",
 * or "key is undefined"). */
static bool threads_setting_exists(const char *dir)
{
    char wh[4096], line[256] = "";
    SqlSessionOptions opt = {wh, "tpch", NULL};
    SqlSession *s = NULL;
    SqlSink sink = {line, NULL, NULL, NULL, info_line};
    CombErr err;
    const char *sql = "SET comb.exec.threads";
    snprintf(wh, sizeof wh, "%s/comb", dir);
    if (sql_session_open(&opt, &s, &err))
        return false;
    if (sql_session_execute(s, sql, strlen(sql), &sink, &err))
        line[0] = '\0';
    sql_session_close(s);
    return strchr(line, '=') != NULL;
}

int main(int argc, char **argv)
{
    double sf = 0.1, timeout = 60;
    const char *dir = NULL, *qdir = "bench/tpch/queries", *qsel = NULL;
    const char *engines = "comb,sqlite,duckdb";
    bool acid = true;
    char data[4096], marker[4096 + 64], path[4096 + 64], qlist[4096 + 64];
    char *hive[N_QUERIES] = {0}, *lite[N_QUERIES] = {0};
    Timing comb1[N_QUERIES], comb2[N_QUERIES], sqlt[N_QUERIES], duck1[N_QUERIES],
        duckn[N_QUERIES];
    bool want[N_QUERIES], threads_ok;
    long duck1_kb = 0, duckn_kb = 0;
    int duck1_thr = 0, duckn_thr = 0, have_duck;
    char fraction[64];
    double t0;
    FILE *ql;
    if (argc == 4 && strcmp(argv[1], "gen") == 0) {
        generate(atof(argv[2]), argv[3]);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--sf") == 0)
            sf = atof(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            dir = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--qdir") == 0)
            qdir = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--queries") == 0)
            qsel = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--timeout") == 0)
            timeout = atof(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--engines") == 0)
            engines = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--format") == 0)
            acid = strcmp(argv[++i], "orc") != 0;
        else {
            fprintf(stderr, "usage: tpch [--sf SF] [--dir DIR] [--queries 1,6,...] "
                            "[--timeout S] [--format acid|orc] [--qdir DIR]\n"
                            "            [--engines comb,sqlite,duckdb]\n"
                            "       tpch gen SF DIR\n");
            return 2;
        }
    }
    if (sf <= 0)
        return 2;
    if (!dir) {
        static char d[256];
        snprintf(d, sizeof d, "/tmp/comb-tpch-sf%g%s", sf, acid ? "" : "-orc");
        dir = d;
    }
    mkdir(dir, 0755);
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(fraction, sizeof fraction, "%.10f", 0.0001 / sf);
    for (int q = 0; q < N_QUERIES; q++) {
        char *raw, *stripped;
        want[q] = !qsel;
        snprintf(path, sizeof path, "%s/q%02d.sql", qdir, q + 1);
        if (!(raw = read_file(path))) {
            fprintf(stderr, "tpch: cannot read %s (run from the source tree or give --qdir)\n",
                    path);
            return 1;
        }
        stripped = strip_comments(raw);
        hive[q] = replace_all(stripped, "${fraction}", fraction);
        free(raw);
        free(stripped);
        /* qdir/sqlite/qNN.sql: a rewrite SQLite's planner needs */
        snprintf(path, sizeof path, "%s/sqlite/q%02d.sql", qdir, q + 1);
        if ((raw = read_file(path))) {
            stripped = strip_comments(raw);
            lite[q] = sqlite_text(stripped);
            free(raw);
            free(stripped);
        } else {
            lite[q] = sqlite_text(hive[q]);
        }
    }
    for (const char *p = qsel; p && *p;) {
        int q = atoi(p);
        if (q >= 1 && q <= N_QUERIES)
            want[q - 1] = true;
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }

    printf("TPC-H SF %g in %s (comb tables: %s ORC)\n", sf, dir, acid ? "full-ACID" : "plain");
    snprintf(marker, sizeof marker, "%s/.generated", data);
    if (!file_exists(marker)) {
        mkdir(data, 0755);
        t0 = now();
        generate(sf, data);
        touch(marker);
        printf("generate: %.1f s\n", now() - t0);
    }
    snprintf(marker, sizeof marker, "%s/.comb-loaded", dir);
    if (!file_exists(marker)) {
        char wh[4096 + 16];
        CombErr err;
        snprintf(wh, sizeof wh, "%s/comb", dir);
        (void)fs_remove_tree(wh, &err);
        t0 = now();
        if (load_comb(dir, data, acid))
            return 1;
        touch(marker);
        printf("comb load (text -> ORC): %.1f s\n", now() - t0);
    }
    snprintf(marker, sizeof marker, "%s/.sqlite-loaded", dir);
    if (!file_exists(marker)) {
        snprintf(path, sizeof path, "%s/tpch.sqlite", dir);
        t0 = now();
        if (load_sqlite(path, data))
            return 1;
        touch(marker);
        printf("SQLite load: %.1f s\n", now() - t0);
    }
    threads_ok = threads_setting_exists(dir);

    /* DuckDB reads the query texts from a list file: HiveQL as it is */
    snprintf(qlist, sizeof qlist, "%s/duckdb-queries.sql", dir);
    if (!(ql = fopen(qlist, "w")))
        return 1;
    for (int q = 0; q < N_QUERIES; q++)
        if (want[q])
            fprintf(ql, "-- q%02d\n%s;\n", q + 1, hive[q]);
    fclose(ql);
    for (int q = 0; q < N_QUERIES; q++)
        duck1[q] = duckn[q] = (Timing){.status = 3};
    have_duck = strstr(engines, "duckdb") &&
                run_duckdb(argv[0], data, qlist, 1, duck1, &duck1_kb, &duck1_thr) == 0;
    if (have_duck)
        run_duckdb(argv[0], data, qlist, 0, duckn, &duckn_kb, &duckn_thr);

    for (int q = 0; q < N_QUERIES; q++) {
        comb1[q] = comb2[q] = sqlt[q] = (Timing){.status = 3};
        if (!want[q])
            continue;
        if (strstr(engines, "comb"))
            comb1[q] = run_child('c', dir, hive[q], threads_ok ? "1" : NULL, timeout);
        if (threads_ok && comb1[q].status == 0)
            comb2[q] = run_child('c', dir, hive[q], "2", timeout);
        if (strstr(engines, "sqlite"))
            sqlt[q] = run_child('s', dir, lite[q], NULL, timeout);
    }

    printf("\nseconds per query (comb: one process per query; DuckDB: in memory, %s)\n",
           have_duck ? "one process per thread setting" : "not found");
    printf("%-4s %10s %10s %8s %10s %10s %10s %9s %9s %9s %8s %8s %6s\n", "q", "comb", "comb 2t",
           "speedup", "SQLite", "DuckDB 1t", "DuckDB", "c/SQLite", "c/Duck1t", "c/Duck",
           "comb MB", "SQLt MB", "rows");
    for (int q = 0; q < N_QUERIES; q++) {
        if (!want[q])
            continue;
        printf("q%02d ", q + 1);
        print_cell(&comb1[q]);
        if (!threads_ok)
            printf(" %10s %8s", "n/a", "n/a");
        else {
            print_cell(&comb2[q]);
            if (comb1[q].status == 0 && comb2[q].status == 0 && comb2[q].seconds > 0)
                printf(" %7.2fx", comb1[q].seconds / comb2[q].seconds);
            else
                printf(" %8s", "-");
        }
        print_cell(&sqlt[q]);
        print_cell(&duck1[q]);
        print_cell(&duckn[q]);
        print_ratio(&comb1[q], &sqlt[q]);
        print_ratio(&comb1[q], &duck1[q]);
        print_ratio(&comb1[q], &duckn[q]);
        print_mb(&comb1[q]);
        print_mb(&sqlt[q]);
        {
            const Timing *ref = sqlt[q].status == 0 ? &sqlt[q] : duck1[q].status == 0 ? &duck1[q]
                                                                                       : &comb1[q];
            bool differ = (comb1[q].status == 0 && comb1[q].rows != ref->rows) ||
                          (duck1[q].status == 0 && duck1[q].rows != ref->rows);
            if (ref->status == 0)   /* "!": an engine returned another row count */
                printf(" %6ld%s", ref->rows, differ ? "!" : "");
            else
                printf(" %6s", "-");
        }
        printf("\n");
    }
    for (int q = 0; q < N_QUERIES; q++) {
        if (!want[q])
            continue;
        if (comb1[q].status == 1)
            printf("q%02d comb unsupported: %s\n", q + 1, comb1[q].msg);
        if (sqlt[q].status == 1)
            printf("q%02d SQLite unsupported: %s\n", q + 1, sqlt[q].msg);
        if (duck1[q].status == 1)
            printf("q%02d DuckDB unsupported: %s\n", q + 1, duck1[q].msg);
    }
    if (threads_ok)
        print_cpu_table(want, comb1, comb2);
    if (have_duck)
        printf("DuckDB peak RSS: %.0f MB with threads=%d, %.0f MB with threads=%d\n",
               duck1_kb / 1024.0, duck1_thr, duckn_kb / 1024.0, duckn_thr);
    else
        printf("DuckDB: not found (bench/duckdb/setup.sh installs it next to this binary)\n");
    if (!threads_ok)
        printf("comb 1 -> 2 threads: n/a (comb.exec.threads is not a setting yet)\n");
    for (int q = 0; q < N_QUERIES; q++) {
        free(hive[q]);
        free(lite[q]);
    }
    return 0;
}
