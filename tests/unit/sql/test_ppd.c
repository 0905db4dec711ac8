/*
 * Predicate push-down, differentially: random tables (every type the
 * search argument handles, NULLs, NaN, -0.0, padded CHARs, timestamps
 * around 1970; values clustered per INSERT so that files and stripes have
 * distinct ranges) and random WHERE clauses (= <> < <= > >= <=> BETWEEN,
 * IN, IS [NOT] NULL, bare booleans, AND / OR / NOT nesting, constants of
 * other types now and then) give exactly the same rows with
 * hive.optimize.index.filter on and off, for a full ACID table with
 * updates and deletes, a plain ORC table and a partitioned one.  The
 * scans must also have skipped something, or the test proves nothing.
 * Bucket pruning alike: bucketed full-ACID tables (one, two and three
 * CLUSTERED BY columns of several types, bucketing versions 1 and 2, with
 * deletes and updates) give the same rows for random predicates ANDed or
 * ORed with equalities, IN lists, <=> and IS NULL on their clustering
 * columns with hive.tez.bucket.pruning on and off, and pruning opened
 * fewer files (comb.trace.files) for some of them.
 * COMB_PPD_SEED / COMB_PPD_COUNT run other samples.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "sql/func/value.h"
#include "sql/session.h"

typedef struct Rng {
    uint64_t s;
} Rng;

static unsigned rnd(Rng *r, unsigned n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((r->s >> 33) % n);
}

/* The columns and the constants each is compared with (SQL text). */
typedef struct Col {
    const char *name;
    const char *type;
    const char *const *pool;
    int n_pool;
} Col;

#define POOL(...) (const char *const[]){__VA_ARGS__}, \
    (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

static const Col cols[] = {
    {"ti", "TINYINT", POOL("-3Y", "0Y", "2Y", "5Y")},
    {"si", "SMALLINT", POOL("-300S", "0S", "7S", "300S")},
    {"i", "INT", POOL("-5", "0", "3", "7", "2147483647", "40")},
    {"b", "BIGINT", POOL("-5L", "0L", "6L", "5000000000L", "41L")},
    {"f", "FLOAT", POOL("CAST(-1.5 AS FLOAT)", "CAST(0 AS FLOAT)",
                        "CAST(2.25 AS FLOAT)", "CAST(0.1 AS FLOAT)")},
    {"d", "DOUBLE", POOL("-1.5D", "0.0D", "CAST('-0.0' AS DOUBLE)", "1e10",
                         "CAST('NaN' AS DOUBLE)", "2.5D")},
    {"s", "STRING", POOL("''", "'a'", "'ab'", "'ab '", "'b'", "'zz'")},
    {"v", "VARCHAR(4)", POOL("'a'", "'ab'", "'b'", "'abcd'")},
    {"c", "CHAR(4)", POOL("'a'", "'ab'", "'ab  '", "'b'", "'zz'")},
    {"dt", "DATE", POOL("DATE '2020-01-01'", "DATE '2020-01-03'",
                        "DATE '1969-12-31'", "DATE '2020-02-01'")},
    {"dec", "DECIMAL(6,2)", POOL("1.5", "-2.25", "0", "10", "1.50", "3.125")},
    {"ts", "TIMESTAMP", POOL("TIMESTAMP '1969-12-31 23:59:59.5'",
                             "TIMESTAMP '1970-01-01 00:00:00'",
                             "TIMESTAMP '2020-01-01 10:00:00.123456789'",
                             "TIMESTAMP '2020-01-02 00:00:00'")},
    {"bo", "BOOLEAN", POOL("true", "false")},
};
#define N_COLS ((int)(sizeof cols / sizeof cols[0]))

/* --------------------------------------------------------------- rows */

typedef struct Rows {
    CombBuf text;      /* one line per row */
    int n;
    long skipped;      /* stripes + row groups skipped (comb.scan.stats) */
    long files;        /* files opened (comb.trace.files) */
} Rows;

static int rows_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Rows *r = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        for (int c = 0; c < b->n_cols; c++) {
            if (sql_format_value(&b->cols[c], row, &r->text) ||
                comb_buf_append_byte(&r->text, c + 1 < b->n_cols ? '|' : '\n'))
                return COMB_ENOMEM;
        }
        r->n++;
    }
    return COMB_OK;
}

static int rows_info(void *ctx, const char *line, CombErr *err)
{
    Rows *r = ctx;
    unsigned long long sr, ss, gr, gs, bytes;
    (void)err;
    if (sscanf(line, "ORC scan: stripes read %llu skipped %llu, row groups "
               "read %llu skipped %llu, bytes read %llu",
               &sr, &ss, &gr, &gs, &bytes) == 5)
        r->skipped += (long)(ss + gs);
    r->files += strncmp(line, "file read: ", 11) == 0;
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, Rows *out, CombErr *err)
{
    SqlSink sink = {out, NULL, rows_batch, NULL, rows_info};
    return sql_session_execute(s, sql, strlen(sql), out ? &sink : NULL, err);
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows' lines sorted (the order of a scan is not part of the test). */
static char *sorted(Rows *r)
{
    char **lines = comb_malloc((size_t)(r->n + 1) * sizeof *lines);
    char *text, *p, *out, *o;
    int n = 0;
    if (!lines || comb_buf_append_byte(&r->text, 0))
        return NULL;
    text = (char *)r->text.data;
    for (p = text; *p; n++) {
        lines[n] = p;
        p = strchr(p, '\n');
        *p++ = '\0';
    }
    qsort(lines, (size_t)n, sizeof *lines, cmp_line);
    out = comb_malloc(r->text.len + 1);
    if (out) {
        o = out;
        for (int i = 0; i < n; i++)
            o += sprintf(o, "%s\n", lines[i]);
        *o = '\0';
    }
    comb_free(lines);
    return out;
}

/* ------------------------------------------------------------ tables */

/* One value of column c near `phase` (each INSERT has its own phase, so
 * files and stripes cover distinct ranges); NULL now and then. */
static void value_sql(Rng *r, int c, int phase, CombBuf *out)
{
    int k = phase * 10 + (int)rnd(r, 10) - 5;
    static const char *const str[] = {"", "a", "ab", "ab ", "b", "zz", "a\\001"};
    if (rnd(r, 9) == 0) {
        comb_buf_printf(out, "NULL");
        return;
    }
    switch (c) {
    case 0: comb_buf_printf(out, "%dY", k % 120); break;
    case 1: comb_buf_printf(out, "%dS", k * 3); break;
    case 2: comb_buf_printf(out, "%d", k); break;
    case 3: comb_buf_printf(out, "%dL", k); break;
    case 4: comb_buf_printf(out, "CAST(%d.25 AS FLOAT)", k / 4); break;
    case 5:
        if (rnd(r, 12) == 0)
            comb_buf_printf(out, "CAST('%s' AS DOUBLE)",
                            rnd(r, 2) ? "NaN" : "-0.0");
        else
            comb_buf_printf(out, "%d.5D", k - 2);
        break;
    case 6: case 7: case 8:
        comb_buf_printf(out, "'%s'", str[(unsigned)(phase + (int)rnd(r, 3)) % 7]);
        break;
    case 9: comb_buf_printf(out, "DATE_ADD(DATE '2020-01-01', %d)", k); break;
    case 10: comb_buf_printf(out, "%d.%02u", k, rnd(r, 4) * 25); break;
    case 11: {
        /* around 1970 (sub-second values before it) and later hours */
        static const char *const frac[] = {"", ".5", ".000001", ".123456789"};
        time_t t = (time_t)(k - 3) * (phase > 2 ? 3600 : 1);
        struct tm tm;
        char text[32];
        gmtime_r(&t, &tm);
        strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
        comb_buf_printf(out, "TIMESTAMP '%s%s'", text, frac[rnd(r, 4)]);
        break;
    }
    default: comb_buf_printf(out, "%s", rnd(r, 3) ? "true" : "false"); break;
    }
}

static int insert_rows(SqlSession *s, Rng *r, const char *table,
                       const char *partition, int phase, int n, CombErr *err)
{
    CombBuf sql = COMB_BUF_INIT;
    int rc;
    comb_buf_printf(&sql, "INSERT INTO %s%s VALUES ", table, partition);
    for (int i = 0; i < n; i++) {
        comb_buf_printf(&sql, "%s(", i ? ", " : "");
        for (int c = 0; c < N_COLS; c++) {
            if (c)
                comb_buf_printf(&sql, ", ");
            value_sql(r, c, phase, &sql);
        }
        comb_buf_printf(&sql, ")");
    }
    comb_buf_append_byte(&sql, 0);
    rc = run(s, (const char *)sql.data, NULL, err);
    comb_buf_free(&sql);
    return rc;
}

static int create_table(SqlSession *s, const char *name, const char *tail,
                        CombErr *err)
{
    CombBuf sql = COMB_BUF_INIT;
    int rc;
    comb_buf_printf(&sql, "CREATE TABLE %s (", name);
    for (int c = 0; c < N_COLS; c++)
        comb_buf_printf(&sql, "%s%s %s", c ? ", " : "", cols[c].name,
                        cols[c].type);
    comb_buf_printf(&sql, ") %s", tail);
    comb_buf_append_byte(&sql, 0);
    rc = run(s, (const char *)sql.data, NULL, err);
    comb_buf_free(&sql);
    return rc;
}

/* ---------------------------------------------------------- predicates */

static void predicate(Rng *r, int depth, CombBuf *out)
{
    static const char *const ops[] = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
    unsigned kind = depth >= 3 ? 3 + rnd(r, 6) : rnd(r, 9);
    int c = (int)rnd(r, N_COLS);
    /* a constant of the column's type, sometimes of another column's */
    const Col *k = rnd(r, 8) ? &cols[c] : &cols[rnd(r, N_COLS)];
    const char *lit = k->pool[rnd(r, (unsigned)k->n_pool)];
    switch (kind) {
    case 0: case 1:
        comb_buf_printf(out, "(");
        predicate(r, depth + 1, out);
        comb_buf_printf(out, kind ? " AND " : " OR ");
        predicate(r, depth + 1, out);
        comb_buf_printf(out, ")");
        return;
    case 2:
        comb_buf_printf(out, "NOT (");
        predicate(r, depth + 1, out);
        comb_buf_printf(out, ")");
        return;
    case 3: case 4: case 5:
        comb_buf_printf(out, "%s %s %s", cols[c].name, ops[rnd(r, 7)], lit);
        return;
    case 6:
        comb_buf_printf(out, "%s %sBETWEEN %s AND %s", cols[c].name,
                        rnd(r, 3) ? "" : "NOT ", lit,
                        k->pool[rnd(r, (unsigned)k->n_pool)]);
        return;
    case 7:
        comb_buf_printf(out, "%s %sIN (%s, %s%s)", cols[c].name,
                        rnd(r, 3) ? "" : "NOT ", lit,
                        k->pool[rnd(r, (unsigned)k->n_pool)],
                        rnd(r, 6) ? "" : ", NULL");
        return;
    default:
        if (c == N_COLS - 1 && rnd(r, 2))
            comb_buf_printf(out, "%sbo", rnd(r, 2) ? "" : "NOT ");
        else
            comb_buf_printf(out, "%s IS %sNULL", cols[c].name,
                            rnd(r, 2) ? "" : "NOT ");
        return;
    }
}

/* SELECT * FROM table WHERE where with `setting` true, then false, into
 * on and off (freed by the caller): 0 when both gave the same rows, 1 when
 * both failed, -1 (a failure recorded) when they differ. */
static int on_off(SqlSession *s, const char *setting, const char *table,
                  const char *where, Rows *on, Rows *off)
{
    char sql[4096];
    CombErr err_on, err_off;
    int rc_on, rc_off, same = 0;
    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE %s", table, where);
    sql_session_set_conf(s, setting, "true", &err_on);
    rc_on = run(s, sql, on, &err_on);
    sql_session_set_conf(s, setting, "false", &err_off);
    rc_off = run(s, sql, off, &err_off);
    if (rc_on != rc_off) {
        unit_fail(__FILE__, __LINE__, "%s: rc %d with %s, %d without", sql,
                  rc_on, setting, rc_off);
        return -1;
    }
    if (rc_on)
        return 1;
    char *a = sorted(on), *b = sorted(off);
    if (!a || !b || strcmp(a, b) != 0) {
        unit_fail(__FILE__, __LINE__, "%s: %d rows with %s, %d without", sql,
                  on->n, setting, off->n);
        same = -1;
    }
    comb_free(a);
    comb_free(b);
    return same;
}

/* The rows of `where` on `table` with push-down on and off: equal, or the
 * same error.  *skipped counts what push-down skipped. */
static void compare_one(SqlSession *s, const char *table, const char *where,
                        long *skipped, int *errors)
{
    Rows on = {COMB_BUF_INIT, 0, 0, 0}, off = {COMB_BUF_INIT, 0, 0, 0};
    int rc = on_off(s, "hive.optimize.index.filter", table, where, &on, &off);
    *errors += rc == 1;
    if (rc == 0) {
        *skipped += on.skipped;
        if (off.skipped)
            unit_fail(__FILE__, __LINE__, "%s: skipped with push-down off",
                      where);
    }
    comb_buf_free(&on.text);
    comb_buf_free(&off.text);
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* A differential test's session in a fresh warehouse, with `setting` (the
 * info lines it compares by) on; its sample: COMB_PPD_SEED (else seed)
 * seeds *r, COMB_PPD_COUNT (else 300) predicates in *count. */
static int differential_open(const char *setting, uint64_t seed, SqlSession **s,
                             Rng *r, long *count, CombErr *err)
{
    SqlSessionOptions opt = {unit_tmpdir(), "tester"};
    int rc;
    r->s = (uint64_t)env_long("COMB_PPD_SEED", (long)seed);
    *count = env_long("COMB_PPD_COUNT", 300);
    if ((rc = sql_session_open(&opt, s, err)))
        return rc;
    return sql_session_set_conf(*s, setting, "true", err);
}

/* ------------------------------------------------------ bucket pruning */

/* Bucketed tables: their CLUSTERED BY columns (indexes into cols). */
typedef struct Bucketed {
    const char *name;
    const char *clause;
    int n_keys;
    int keys[3];
} Bucketed;

static const Bucketed bucketed[] = {
    {"bk_i", "CLUSTERED BY (i) INTO 8 BUCKETS", 1, {2}},
    {"bk_sdt", "CLUSTERED BY (s, dt) INTO 4 BUCKETS TBLPROPERTIES "
               "('bucketing_version'='1')", 2, {6, 9}},
    {"bk_cvd", "CLUSTERED BY (c, dec, ti) INTO 5 BUCKETS", 3, {8, 10, 0}},
    {"bk_vb", "CLUSTERED BY (v, b) INTO 3 BUCKETS", 2, {7, 3}},
};
#define N_BUCKETED ((int)(sizeof bucketed / sizeof bucketed[0]))

/* A test of column c that fixes its values: =, <=>, IN or IS NULL, with
 * a constant of its own type mostly (else of another column's). */
static void key_test(Rng *r, int c, CombBuf *out)
{
    const Col *k = rnd(r, 6) ? &cols[c] : &cols[rnd(r, N_COLS)];
    const char *lit = k->pool[rnd(r, (unsigned)k->n_pool)];
    switch (rnd(r, 5)) {
    case 0: case 1:
        comb_buf_printf(out, "%s = %s", cols[c].name, lit);
        return;
    case 2:
        comb_buf_printf(out, "%s <=> %s", cols[c].name, rnd(r, 3) ? lit : "NULL");
        return;
    case 3:
        comb_buf_printf(out, "%s IN (%s, %s)", cols[c].name, lit,
                        k->pool[rnd(r, (unsigned)k->n_pool)]);
        return;
    default:
        comb_buf_printf(out, "%s IS NULL", cols[c].name);
    }
}

/* Every key of t fixed, ANDed; sometimes with another predicate. */
static void key_predicate(Rng *r, const Bucketed *t, CombBuf *out)
{
    comb_buf_printf(out, "(");
    for (int k = 0; k < t->n_keys; k++) {
        if (k)
            comb_buf_printf(out, " AND ");
        key_test(r, t->keys[k], out);
    }
    comb_buf_printf(out, ")");
    switch (rnd(r, 4)) {
    case 0:
        comb_buf_printf(out, " AND ");
        predicate(r, 1, out);
        break;
    case 1:  /* either of two key combinations */
        comb_buf_printf(out, " OR ");
        key_predicate(r, t, out);
        break;
    case 2:  /* anything may match: every bucket */
        if (rnd(r, 3) == 0) {
            comb_buf_printf(out, " OR ");
            predicate(r, 2, out);
        }
        break;
    default:
        break;
    }
}

/* The rows with bucket pruning on and off: equal; *fewer counts the
 * statements for which pruning opened fewer files. */
static void compare_buckets(SqlSession *s, const char *table,
                            const char *where, long *fewer)
{
    Rows on = {COMB_BUF_INIT, 0, 0, 0}, off = {COMB_BUF_INIT, 0, 0, 0};
    if (on_off(s, "hive.tez.bucket.pruning", table, where, &on, &off) == 0) {
        *fewer += on.files < off.files;
        if (on.files > off.files)
            unit_fail(__FILE__, __LINE__, "%s: pruning opened more files",
                      where);
    }
    comb_buf_free(&on.text);
    comb_buf_free(&off.text);
}

TEST(bucket_pruning_differential)
{
    SqlSession *s = NULL;
    CombErr err;
    Rng r;
    long count, fewer = 0;
    CHECK_OK(differential_open("comb.trace.files", 17, &s, &r, &count, &err), &err);
    for (int t = 0; t < N_BUCKETED; t++)
        CHECK_OK(create_table(s, bucketed[t].name, bucketed[t].clause, &err), &err);
    for (int phase = 0; phase < 4; phase++)
        for (int t = 0; t < N_BUCKETED; t++)
            CHECK_OK(insert_rows(s, &r, bucketed[t].name, "", phase, 40, &err),
                     &err);
    for (int t = 0; t < N_BUCKETED; t++) {
        char sql[256];
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE si %% 4 = 0",
                 bucketed[t].name);
        CHECK_OK(run(s, sql, NULL, &err), &err);
        snprintf(sql, sizeof sql, "UPDATE %s SET bo = NOT bo, f = f + 1 "
                 "WHERE si %% 3 = 1", bucketed[t].name);
        CHECK_OK(run(s, sql, NULL, &err), &err);
    }
    for (long q = 0; q < count && !unit_failed_now(); q++) {
        const Bucketed *t = &bucketed[q % N_BUCKETED];
        CombBuf where = COMB_BUF_INIT;
        key_predicate(&r, t, &where);
        comb_buf_append_byte(&where, 0);
        compare_buckets(s, t->name, (const char *)where.data, &fewer);
        comb_buf_free(&where);
    }
    printf("    %ld predicates, %ld read fewer files with bucket pruning\n",
           count, fewer);
    CHECK(fewer > count / 4);
    sql_session_close(s);
}

TEST(ppd_differential)
{
    SqlSession *s = NULL;
    CombErr err;
    Rng r;
    long count, skipped = 0;
    int errors = 0;
    static const char *const tables[] = {"acid_t", "plain_t", "part_t"};
    CHECK_OK(differential_open("comb.scan.stats", 11, &s, &r, &count, &err), &err);
    CHECK_OK(create_table(s, "acid_t", "TBLPROPERTIES ('orc.stripe.size'='2000')",
                          &err), &err);
    CHECK_OK(create_table(s, "plain_t", "STORED AS ORC TBLPROPERTIES "
                          "('transactional'='false', 'orc.stripe.size'='2000')",
                          &err), &err);
    CHECK_OK(create_table(s, "part_t", "PARTITIONED BY (p INT) "
                          "TBLPROPERTIES ('orc.stripe.size'='2000')", &err), &err);
    for (int phase = 0; phase < 6; phase++) {
        char part[32];
        snprintf(part, sizeof part, " PARTITION (p=%d)", phase % 2);
        CHECK_OK(insert_rows(s, &r, "acid_t", "", phase, 40, &err), &err);
        CHECK_OK(insert_rows(s, &r, "plain_t", "", phase, 40, &err), &err);
        CHECK_OK(insert_rows(s, &r, "part_t", part, phase, 40, &err), &err);
    }
    /* delete events that must still find their rows, and updated rows
     * whose new versions live in other deltas */
    CHECK_OK(run(s, "DELETE FROM acid_t WHERE i % 3 = 0", NULL, &err), &err);
    CHECK_OK(run(s, "UPDATE acid_t SET b = b + 100, s = 'zz' WHERE i % 5 = 1",
                 NULL, &err), &err);
    CHECK_OK(run(s, "DELETE FROM part_t WHERE i % 4 = 0", NULL, &err), &err);
    for (long q = 0; q < count && !unit_failed_now(); q++) {
        CombBuf where = COMB_BUF_INIT;
        predicate(&r, 0, &where);
        comb_buf_append_byte(&where, 0);
        compare_one(s, tables[q % 3], (const char *)where.data, &skipped,
                    &errors);
        comb_buf_free(&where);
    }
    printf("    %ld predicates, %d refused alike, %ld stripes/groups skipped\n",
           count, errors, skipped);
    CHECK(skipped > 0);
    CHECK(errors < count / 2);
    sql_session_close(s);
}
