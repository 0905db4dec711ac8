/*
 * Parallel execution (comb.exec.threads, sql/exec/par.h): the same
 * queries with threads = 1, 2 and 4 give the same text, row for row and
 * in the same order (the parallel aggregation emits its groups in the
 * order one thread makes them; a parallel sort keeps ties in scan
 * order, as the serial stable sort does).  The tables have many small stripes, so
 * that every copy gets morsels: a full-ACID table over several deltas
 * with deleted and updated rows (delete events apply to each stripe
 * alone), a partitioned one, a text table of several files (morsels are
 * whole files), and a small dimension for joins of every kind but FULL.
 * Errors a worker raises (assert_true, a scalar subquery's second row)
 * are the statement's, and the session goes on.  Threads must really have
 * run (sql_par_threads_started), or the test proves nothing.  Under a
 * small comb.exec.memory.limit the copies go over the statement's one
 * budget and the operator runs again on one thread, spilling: the same
 * rows again.  A cancel request stops the copies too.  A copy's context
 * may not use the statement's sink: that is an internal error, not a
 * crash.  A join's big build side is stored by copies on threads and
 * ordered by morsel: joins of every kind over it list their matches in
 * one thread's order; a SEMI or ANTI join building its left side marks
 * it from copies over the probe side's morsels.  Built with
 * ThreadSanitizer as build/tsan/tests/threads_sql too.
 */
#include "unit.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/buf.h"
#include "sql/exec/par.h"
#include "sql/func/value.h"
#include "sql/session.h"

static int rows_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    CombBuf *out = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        for (int c = 0; c < b->n_cols; c++)
            if (sql_format_value(&b->cols[c], row, out) ||
                comb_buf_append_byte(out, c + 1 < b->n_cols ? '|' : '\n'))
                return COMB_ENOMEM;
    }
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, CombBuf *out, CombErr *err)
{
    SqlSink sink = {out, NULL, rows_batch, NULL, NULL};
    return sql_session_execute(s, sql, strlen(sql), out ? &sink : NULL, err);
}

/* INSERT of rows [from, to) of the generated data into table. */
static int insert_range(SqlSession *s, const char *table, int from, int to,
                        CombErr *err)
{
    CombBuf sql = COMB_BUF_INIT;
    int rc;
    comb_buf_printf(&sql, "INSERT INTO %s VALUES ", table);
    for (int i = from; i < to; i++) {
        /* g has NULLs and a key the dimension lacks (7); d is exact in
         * binary, so sums do not depend on the order of addition */
        if (i % 13 == 0)
            comb_buf_printf(&sql, "%s(%d, NULL, 's%03d', %d.25, %d.5)",
                            i > from ? ", " : "", i, i % 101, i % 50, i % 7);
        else
            comb_buf_printf(&sql, "%s(%d, %d, 's%03d', %d.25, %d.5)",
                            i > from ? ", " : "", i, i % 8, i % 101, i % 50, i % 7);
    }
    comb_buf_append_byte(&sql, 0);
    rc = run(s, (const char *)sql.data, NULL, err);
    comb_buf_free(&sql);
    return rc;
}

static int setup(SqlSession *s, CombErr *err)
{
    static const char *const ddl[] = {
        "CREATE TABLE fa (id INT, g INT, s STRING, d DOUBLE, m DECIMAL(10,2)) "
        "STORED AS ORC TBLPROPERTIES ('transactional'='true', "
        "'orc.stripe.size'='16384')",
        "CREATE TABLE pa (id INT, g INT, s STRING, d DOUBLE, m DECIMAL(10,2)) "
        "PARTITIONED BY (k INT) STORED AS ORC TBLPROPERTIES "
        "('transactional'='true', 'orc.stripe.size'='16384')",
        "CREATE TABLE tx (id INT, g INT, s STRING, d DOUBLE, m DECIMAL(10,2)) "
        "STORED AS TEXTFILE",
        "CREATE TABLE dim (g INT, name STRING) STORED AS ORC "
        "TBLPROPERTIES ('transactional'='true')",
        "INSERT INTO dim VALUES (0,'zero'),(1,'one'),(2,'two'),(3,'three'),"
        "(4,'four'),(5,'five'),(6,'six'),(NULL,'none'),(2,'deux')",
    };
    int rc;
    for (size_t i = 0; i < sizeof ddl / sizeof ddl[0]; i++)
        if ((rc = run(s, ddl[i], NULL, err)))
            return rc;
    for (int part = 0; part < 4; part++) {
        if ((rc = insert_range(s, "fa", part * 3000, part * 3000 + 3000, err)) ||
            (rc = insert_range(s, "tx", part * 500, part * 500 + 500, err)))
            return rc;
    }
    if ((rc = run(s, "DELETE FROM fa WHERE id % 9 = 4", NULL, err)) ||
        (rc = run(s, "UPDATE fa SET d = d + 100 WHERE id % 17 = 3", NULL, err)) ||
        (rc = run(s, "INSERT INTO pa PARTITION (k) SELECT id, g, s, d, m, id % 3 "
                     "FROM fa", NULL, err)) ||
        (rc = run(s, "DELETE FROM pa WHERE id % 5 = 1", NULL, err)))
        return rc;
    return COMB_OK;
}

/* A session over setup()'s tables in a fresh warehouse; NULL, with the
 * failure reported, when that cannot be made. */
static SqlSession *open_with_tables(void)
{
    SqlSessionOptions opt = {unit_tmpdir(), "tester"};
    SqlSession *s = NULL;
    CombErr err;
    if (sql_session_open(&opt, &s, &err) || setup(s, &err)) {
        unit_fail(__FILE__, __LINE__, "the tables: %s", err.msg);
        sql_session_close(s);
        return NULL;
    }
    return s;
}

static const char *const queries[] = {
    "SELECT g, count(*), sum(id), avg(d), min(s), max(s), sum(m), count(g), "
    "min(m), max(d) FROM fa GROUP BY g",
    "SELECT count(*), sum(d), max(id) FROM fa WHERE id > 1000 AND s <> 's007'",
    "SELECT count(*), sum(d) FROM fa WHERE id < 0",
    "SELECT s, count(*), sum(d) FROM fa WHERE g = 3 GROUP BY s",
    "SELECT g, count(DISTINCT s), sum(id) FROM fa GROUP BY g",
    "SELECT g, sort_array(collect_set(s % 5)) FROM "
    "(SELECT g, CAST(substr(s, 2) AS INT) s FROM fa) x GROUP BY g",
    "SELECT k, g, count(*), sum(d) FROM pa WHERE k > 0 GROUP BY k, g",
    "SELECT g, count(*), sum(id), min(s) FROM tx GROUP BY g",
    /* thousands of groups, most of them in one copy only: the merge
     * sizes its table once, and orders them as one thread would */
    "SELECT id, count(*), sum(m), min(s), max(d) FROM fa GROUP BY id",
    "SELECT id % 4999, g, count(*), max(s), sum(id) FROM fa GROUP BY id % 4999, g",
    "SELECT k, id % 2000, count(*), min(s) FROM pa GROUP BY k, id % 2000",
    "SELECT dim.name, count(*), sum(fa.d) FROM fa JOIN dim ON fa.g = dim.g "
    "GROUP BY dim.name",
    "SELECT dim.name, count(*), sum(fa.id) FROM fa LEFT JOIN dim ON fa.g = dim.g "
    "WHERE fa.id % 2 = 0 GROUP BY dim.name",
    "SELECT dim.name, count(*) FROM dim RIGHT JOIN fa ON fa.g = dim.g GROUP BY dim.name",
    /* builds its (smaller) preserved side: its rest comes after the probe */
    "SELECT dim.name, count(*), count(fa.id) FROM fa RIGHT JOIN dim ON fa.g = dim.g "
    "AND fa.id % 3 = 0 GROUP BY dim.name",
    "SELECT count(*), sum(id) FROM fa WHERE g IN (SELECT g FROM dim WHERE g > 2)",
    "SELECT count(*), sum(id) FROM fa WHERE g NOT IN (SELECT g FROM dim)",
    "SELECT count(*) FROM fa WHERE NOT EXISTS (SELECT 1 FROM dim WHERE dim.g = fa.g)",
    "SELECT g, count(*) FROM fa WHERE EXISTS "
    "(SELECT 1 FROM dim WHERE dim.g = fa.g AND dim.name <> fa.s) GROUP BY g",
    "SELECT dim.name, count(*) FROM fa FULL JOIN dim ON fa.g = dim.g GROUP BY dim.name",
    "SELECT g, sum(id) t FROM fa GROUP BY g ORDER BY t DESC LIMIT 3",
    "SELECT x.g, count(*) FROM (SELECT g, count(*) c FROM fa GROUP BY g, s) x "
    "GROUP BY x.g",
    "SELECT g, count(*) FROM fa GROUP BY g GROUPING SETS ((g), ())",
    "SELECT count(*) FROM fa WHERE s RLIKE '^s0[0-4]'",
    /* sorts: many ties, which must keep the scan order */
    "SELECT id, g, s FROM fa ORDER BY g DESC, s",
    "SELECT g, d, id FROM fa WHERE id % 3 = 0 ORDER BY d NULLS FIRST LIMIT 500",
    "SELECT fa.s, dim.name, fa.id FROM fa JOIN dim ON fa.g = dim.g ORDER BY dim.name",
    "SELECT k, id FROM pa ORDER BY k, id % 10",
    "SELECT s, id FROM tx ORDER BY s",
};

static int answer(SqlSession *s, const char *threads, const char *sql,
                  CombBuf *out, CombErr *err)
{
    int rc = sql_session_set_conf(s, SQL_CONF_THREADS, threads, err);
    out->len = 0;
    return rc ? rc : run(s, sql, out, err);
}

/* sql's answer with `threads` threads (into *many) is one's, byte for
 * byte: one thread's answer; `how` says more of the run in the message. */
static void same_as_one_thread(SqlSession *s, const char *threads, const char *sql,
                               const CombBuf *one, CombBuf *many, const char *how)
{
    CombErr err;
    if (unit_failed_now())
        return;
    CHECK_OK(answer(s, threads, sql, many, &err), &err);
    if (many->len != one->len || memcmp(many->data, one->data, one->len) != 0)
        unit_fail(__FILE__, __LINE__, "threads=%s%s differs for %s:\n%.*s\nvs "
                  "threads=1:\n%.*s", threads, how, sql, (int)many->len,
                  (const char *)many->data, (int)one->len, (const char *)one->data);
}

/* Errors raised in a copy are the statement's; the session goes on. */
static void check_worker_errors(SqlSession *s)
{
    CombErr err;
    CombBuf out = COMB_BUF_INIT;
    for (int t = 1; t <= 4 && !unit_failed_now(); t++) {
        char tn[16];
        snprintf(tn, sizeof tn, "%d", t);
        /* fails in whichever copy reads the stripe with id 11000 */
        CHECK(answer(s, tn, "SELECT g, count(*) FROM fa WHERE "
                     "assert_true(id <> 11000) IS NULL GROUP BY g", &out, &err) != COMB_OK);
        CHECK(strstr(err.msg, "ASSERT_TRUE") != NULL);
        /* in a copy of a join's build side, and of a join marking its
         * left side */
        CHECK(answer(s, tn, "SELECT dim.name, a.id FROM dim LEFT JOIN (SELECT id, g "
                     "FROM fa WHERE assert_true(id <> 11000) IS NULL) a ON a.g = dim.g",
                     &out, &err) != COMB_OK);
        CHECK(strstr(err.msg, "ASSERT_TRUE") != NULL);
        CHECK(answer(s, tn, "SELECT name FROM dim WHERE EXISTS (SELECT 1 FROM fa "
                     "WHERE fa.g = dim.g AND assert_true(fa.id <> 11000) IS NULL)",
                     &out, &err) != COMB_OK);
        CHECK(strstr(err.msg, "ASSERT_TRUE") != NULL);
        CHECK(answer(s, tn, "SELECT count(*) FROM fa WHERE fa.g = "
                     "(SELECT g FROM dim WHERE name <> 'none')", &out, &err) != COMB_OK);
        CHECK(strstr(err.msg, "more than one row") != NULL);
        CHECK_OK(answer(s, tn, "SELECT count(*) FROM fa WHERE g = 1", &out, &err), &err);
        CHECK(out.len > 0);
    }
    comb_buf_free(&out);
}

TEST(parallel_same_rows)
{
    SqlSession *s = open_with_tables();
    CombErr err;
    CombBuf one = COMB_BUF_INIT, many = COMB_BUF_INIT;
    uint64_t started;
    CHECK(s != NULL);
    started = sql_par_threads_started();
    for (size_t q = 0; q < sizeof queries / sizeof queries[0] && !unit_failed_now(); q++) {
        CHECK_OK(answer(s, "1", queries[q], &one, &err), &err);
        CHECK(one.len > 0);
        same_as_one_thread(s, "2", queries[q], &one, &many, "");
        same_as_one_thread(s, "4", queries[q], &one, &many, "");
    }
    /* the queries above ran copies on threads: 1 + 3 per parallel query */
    CHECK(sql_par_threads_started() >= started + 20);
    check_worker_errors(s);
    comb_buf_free(&one);
    comb_buf_free(&many);
    sql_session_close(s);
}

/* Joins whose build side is big (fa, pa, tx: many morsels) and a chain
 * down to a scan, so that copies of it store their morsels' rows side by
 * side; most without an aggregation or sort above, so that the output
 * lists each probe row's matches in the build table's order, which must
 * be one thread's (a row lost, doubled or out of place shows). */
static const char *const build_queries[] = {
    /* LEFT builds its right side; dim's NULL key matches nothing */
    "SELECT dm.name, a.id, a.s, a.m FROM dim dm LEFT JOIN fa a ON a.g = dm.g",
    "SELECT dm.name, a.id FROM dim dm LEFT JOIN fa a ON a.g <=> dm.g AND a.id % 4 = 1",
    "SELECT a.id, b.id, b.s FROM fa a JOIN fa b ON a.id = b.id + 1 WHERE b.s <> 's003'",
    "SELECT count(*), sum(a.id), max(b.s) FROM fa a JOIN fa b ON a.g <=> b.g "
    "AND a.id = b.id - 13",
    /* a build side that is itself a join over fa */
    "SELECT dm.name, x.id, x.nm FROM dim dm LEFT JOIN (SELECT a.id, a.g, e.name nm "
    "FROM fa a JOIN dim e ON a.g = e.g WHERE a.id % 7 = 0) x ON x.g = dm.g",
    "SELECT dm.name, t.id, t.s FROM dim dm LEFT JOIN tx t ON t.g = dm.g",
    "SELECT dm.name, p.id, p.k FROM dim dm LEFT JOIN pa p ON p.g = dm.g AND p.k <> 1",
    /* an empty build side (the ON conjunct over it filters its scan) */
    "SELECT dm.name, a.id FROM dim dm LEFT JOIN fa a ON a.g = dm.g AND a.id < 0",
    /* a nested loop: no keys */
    "SELECT dm.name, a.id FROM dim dm LEFT JOIN fa a ON a.id < 40 + dm.g",
    "SELECT dm.name, a.id FROM dim dm FULL JOIN fa a ON a.g = dm.g AND a.id % 100 = 0",
    "SELECT count(*), sum(id) FROM pa WHERE pa.id IN (SELECT id FROM fa WHERE g = 3)",
    "SELECT count(*) FROM pa WHERE NOT EXISTS (SELECT 1 FROM fa WHERE fa.id = pa.id + 1)",
    /* SEMI and ANTI building the (smaller) left side: copies of the join
     * mark its rows over their share of fa's morsels */
    "SELECT dm.name FROM dim dm WHERE EXISTS (SELECT 1 FROM fa WHERE fa.g = dm.g "
    "AND fa.id > 11900)",
    "SELECT dm.name, dm.g FROM dim dm WHERE EXISTS (SELECT 1 FROM fa WHERE "
    "fa.g <=> dm.g AND fa.id % 1000 = 999)",
    "SELECT dm.name FROM dim dm WHERE NOT EXISTS (SELECT 1 FROM fa WHERE fa.g = dm.g "
    "AND fa.s <> dm.name AND fa.id % 1500 = 7)",
    "SELECT dm.name, count(*) FROM dim dm WHERE EXISTS (SELECT 1 FROM pa WHERE "
    "pa.g = dm.g AND pa.k = 2 AND pa.id > dm.g * 1500) GROUP BY dm.name",
    "SELECT dm.name FROM dim dm WHERE dm.g NOT IN (SELECT g FROM fa WHERE g IS NOT NULL "
    "AND id > 6000 AND g <> 4)",
    "SELECT dm.name, dm.g IN (SELECT g FROM fa WHERE id > 11990) FROM dim dm",
};

TEST(parallel_build_same_rows)
{
    SqlSession *s = open_with_tables();
    CombErr err;
    CombBuf one = COMB_BUF_INIT, many = COMB_BUF_INIT;
    CHECK(s != NULL);
    for (size_t q = 0; q < sizeof build_queries / sizeof build_queries[0] &&
                       !unit_failed_now(); q++) {
        uint64_t started;
        CHECK_OK(answer(s, "1", build_queries[q], &one, &err), &err);
        CHECK(one.len > 0);
        started = sql_par_threads_started();
        same_as_one_thread(s, "2", build_queries[q], &one, &many, "");
        /* the build ran on threads (no other part of these can) */
        if (sql_par_threads_started() == started)
            unit_fail(__FILE__, __LINE__, "no thread built %s", build_queries[q]);
        same_as_one_thread(s, "4", build_queries[q], &one, &many, "");
    }
    comb_buf_free(&one);
    comb_buf_free(&many);
    sql_session_close(s);
}

TEST(parallel_threads_setting)
{
    SqlSessionOptions opt = {unit_tmpdir(), "tester"};
    SqlSession *s = NULL;
    CombErr err;
    CombBuf out = COMB_BUF_INIT;
    CHECK_OK(sql_session_open(&opt, &s, &err), &err);
    CHECK(sql_threads_default() >= 1);
    CHECK_OK(run(s, "CREATE TABLE t1 (a INT)", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t1 VALUES (1), (2)", NULL, &err), &err);
    static const char *const bad[] = {"0", "-1", "x", "2x", "257"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(answer(s, bad[i], "SELECT count(*) FROM t1", &out, &err) != COMB_OK);
        CHECK(strstr(err.msg, SQL_CONF_THREADS) != NULL);
    }
    CHECK_OK(answer(s, "64", "SELECT count(*) FROM t1", &out, &err), &err);
    CHECK(out.len == 2 && memcmp(out.data, "2\n", 2) == 0);
    comb_buf_free(&out);
    sql_session_close(s);
}

/* Sorts and aggregations (some over a join) whose stores are far over
 * 256k: each copy's store counts against the one budget, so together they
 * go over it, stop, and the operator reads its input again alone. */
static const char *const big_queries[] = {
    "SELECT id, count(*), sum(d), min(s) FROM fa GROUP BY id",
    "SELECT fa.id, dim.name, count(*), sum(fa.d) FROM fa JOIN dim ON fa.g = dim.g "
    "GROUP BY fa.id, dim.name",
    "SELECT k, id % 1000, count(*), max(s) FROM pa GROUP BY k, id % 1000",
    "SELECT g, count(*) FROM fa GROUP BY g",
    /* filters on both sides: the input opened again keeps them */
    "SELECT fa.id, count(*), max(b.s) FROM fa JOIN (SELECT id, s FROM fa WHERE id % 3 = 0) b "
    "ON fa.id = b.id WHERE fa.g <> 2 GROUP BY fa.id",
    "SELECT id, s FROM fa WHERE g <> 2 ORDER BY s, id",
    "SELECT id, g, s FROM fa ORDER BY g DESC, s",
    "SELECT fa.s, dim.name, fa.id FROM fa JOIN dim ON fa.g = dim.g ORDER BY dim.name",
    "SELECT k, id FROM pa ORDER BY k, id % 10",
    /* a parallel build over the limit: built again alone, spilling */
    "SELECT a.id, b.id, b.s, b.m FROM fa a LEFT JOIN fa b ON b.id = a.id + 1",
};

TEST(parallel_memory_limit)
{
    SqlSession *s = open_with_tables();
    CombErr err;
    CombBuf one = COMB_BUF_INIT, many = COMB_BUF_INIT;
    uint64_t started;
    CHECK(s != NULL);
    CHECK_OK(sql_session_set_conf(s, "comb.exec.memory.limit", "256k", &err), &err);
    started = sql_par_threads_started();
    for (size_t i = 0; i < sizeof big_queries / sizeof big_queries[0] && !unit_failed_now(); i++) {
        CHECK_OK(answer(s, "1", big_queries[i], &one, &err), &err);
        CHECK(one.len > 0);
        same_as_one_thread(s, "2", big_queries[i], &one, &many, " under 256k");
    }
    CHECK(sql_par_threads_started() > started);
    comb_buf_free(&one);
    comb_buf_free(&many);
    sql_session_close(s);
}

typedef struct Canceller {
    uint64_t started;        /* threads started before the statement */
    atomic_bool done;
} Canceller;

/* Asks for a cancel once the statement's copies run, until it is over. */
static void *cancel_main(void *arg)
{
    Canceller *k = arg;
    while (!atomic_load(&k->done)) {
        if (sql_par_threads_started() > k->started)
            sql_cancel_request();
        sched_yield();
    }
    return NULL;
}

TEST(parallel_cancel)
{
    SqlSession *s = open_with_tables();
    CombErr err;
    CombBuf out = COMB_BUF_INIT;
    Canceller k;
    pthread_t th;
    int rc;
    CHECK(s != NULL);
    k.started = sql_par_threads_started();
    atomic_init(&k.done, false);
    CHECK(pthread_create(&th, NULL, cancel_main, &k) == 0);
    /* 10^8 pairs: it runs until cancelled */
    rc = answer(s, "2", "SELECT count(*), sum(a.id + b.id) FROM fa a, fa b", &out, &err);
    atomic_store(&k.done, true);
    pthread_join(th, NULL);
    CHECK(rc == COMB_ECANCELLED);
    CHECK(strstr(err.msg, "Query was cancelled") != NULL);
    CHECK(sql_par_threads_started() > k.started);
    CHECK_OK(answer(s, "2", "SELECT count(*) FROM fa WHERE g = 1", &out, &err), &err);
    CHECK(out.len > 0);
    comb_buf_free(&out);
    sql_session_close(s);
}

static int count_info(void *ctx, const char *line, CombErr *err)
{
    (void)line;
    (void)err;
    ++*(int *)ctx;
    return COMB_OK;
}

/* A parallel copy's context (sql_par_ctx_new) is refused the statement's
 * sink as an internal error in every build, the lead's is not; the
 * refusal comes before the plan is looked at. */
TEST(parallel_copy_refuses_the_sink)
{
    CombArena arena;
    SqlStmtCtx c;
    SqlStmtCtx *w;
    CombErr err;
    int lines = 0;
    SqlSink sink = {&lines, NULL, NULL, NULL, count_info};
    memset(&c, 0, sizeof c);
    comb_arena_init(&arena, 4096);
    c.arena = &arena;
    c.sink = &sink;
    CHECK_OK(sql_stmt_info(&c, "from the lead", &err), &err);
    CHECK_EQ(lines, 1);
    CHECK((w = sql_par_ctx_new(&c)) != NULL);
    CHECK(w->par_copy && w->sink == &sink);
    CHECK(sql_stmt_info(w, "from a copy", &err) == COMB_EINTERNAL);
    CHECK(strstr(err.msg, "internal error") && strstr(err.msg, "parallel copy"));
    CHECK_EQ(lines, 1);
    CHECK(sql_select_run(w, NULL, &sink, &err) == COMB_EINTERNAL);
    CHECK(sql_sink_allowed(w, &err) == COMB_EINTERNAL);
    CHECK_OK(sql_sink_allowed(&c, &err), &err);
    sql_par_ctx_end(w, &c);
    comb_arena_free(&arena);
}
