/*
 * The session API end to end (sql/session.h), and out-of-memory at every
 * allocation of a statement: each attempt either succeeds or fails with
 * COMB_ENOMEM, leaks nothing (LeakSanitizer), and leaves the table exactly
 * as before (no partial visible writes).
 */
#include "unit.h"

#include <stdio.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "sql/session.h"

typedef struct Rows {
    long n;
    long sum;      /* sum of the first column when it is an integer */
} Rows;

static int rows_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Rows *r = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        r->n++;
        if (b->n_cols > 0 && b->cols[0].i64 && !comb_vec_is_null(&b->cols[0], row))
            r->sum += b->cols[0].i64[row];
    }
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, Rows *out, CombErr *err)
{
    SqlSink sink = {out, NULL, rows_batch, NULL, NULL};
    if (out)
        *out = (Rows){0, 0};
    return sql_session_execute(s, sql, strlen(sql), out ? &sink : NULL, err);
}

static SqlSession *open_session(const char *dir)
{
    SqlSessionOptions opt = {dir, "tester"};
    SqlSession *s = NULL;
    CombErr err;
    if (sql_session_open(&opt, &s, &err))
        fprintf(stdout, "    open: %s\n", err.msg);
    return s;
}

TEST(session_roundtrip)
{
    CombErr err;
    Rows r;
    SqlSession *s = open_session(unit_tmpdir());
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE t (a INT, b STRING) CLUSTERED BY (a) INTO 3 BUCKETS "
                    "TBLPROPERTIES ('transactional'='true')", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1,'x'),(2,'y'),(3,'z'),(4,NULL)", NULL, &err), &err);
    CHECK_OK(run(s, "UPDATE t SET b = 'w' WHERE a > 2", NULL, &err), &err);
    CHECK_OK(run(s, "DELETE FROM t WHERE a = 1", NULL, &err), &err);
    CHECK_OK(run(s, "SELECT a FROM t WHERE b = 'w'", &r, &err), &err);
    CHECK_EQ(r.n, 2);
    CHECK_EQ(r.sum, 7);
    CHECK_OK(sql_session_set_var(s, "tbl", "t", &err), &err);
    CHECK_OK(run(s, "SELECT a FROM ${hivevar:tbl}", &r, &err), &err);
    CHECK_EQ(r.n, 3);
    CHECK_STR(sql_session_database(s), "default");
    CHECK(run(s, "SELECT * FROM missing", NULL, &err) == COMB_ENOTFOUND);
    CHECK(strstr(err.msg, "Table not found 'missing'") != NULL);
    sql_session_close(s);
}

/* A session's cancel holds from the request until the reset, so that a
 * server's cancel that comes before its statement starts stops it; the
 * process-wide request (Ctrl-C) is for the statement running then only. */
TEST(session_cancel_before_start)
{
    CombErr err;
    Rows r;
    SqlSession *s = open_session(unit_tmpdir());
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE c (a INT)", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO c VALUES (1), (2)", NULL, &err), &err);
    sql_session_cancel(s);
    CHECK(run(s, "SELECT a FROM c", &r, &err) == COMB_ECANCELLED);
    CHECK(strstr(err.msg, "Query was cancelled") != NULL);
    CHECK(run(s, "SELECT a FROM c", &r, &err) == COMB_ECANCELLED);
    sql_session_cancel_reset(s);
    CHECK_OK(run(s, "SELECT a FROM c", &r, &err), &err);
    CHECK_EQ(r.n, 2);
    sql_cancel_request();
    CHECK_OK(run(s, "SELECT a FROM c", &r, &err), &err);
    CHECK_EQ(r.sum, 3);
    sql_session_close(s);
}

/* Run `sql` with the n-th allocation failing, for n = 1, 2, ... until it
 * succeeds.  After every failed attempt the table must read as `before`. */
static void fault_loop(SqlSession *s, const char *sql, const char *check,
                       long before_n, long before_sum, int *attempts)
{
    CombErr err;
    Rows r;
    int rc;
    for (int n = 1; n < 100000; n++) {
        comb_alloc_fail_after(n);
        rc = run(s, sql, NULL, &err);
        comb_alloc_fail_after(0);
        *attempts = n;
        if (rc == COMB_OK)
            return;
        if (rc != COMB_ENOMEM) {
            unit_fail(__FILE__, __LINE__, "'%s' at allocation %d: rc %d: %s",
                      sql, n, rc, err.msg);
            return;
        }
        if (run(s, check, &r, &err) != COMB_OK || r.n != before_n ||
            r.sum != before_sum) {
            unit_fail(__FILE__, __LINE__,
                      "after OOM at allocation %d of '%s': %ld rows sum %ld "
                      "(want %ld, %ld): %s", n, sql, r.n, r.sum, before_n,
                      before_sum, err.msg);
            return;
        }
    }
    unit_fail(__FILE__, __LINE__, "'%s' never succeeded", sql);
}

TEST(session_out_of_memory_everywhere)
{
    CombErr err;
    Rows r;
    int attempts = 0;
    const char *check = "SELECT a FROM t";
    SqlSession *s = open_session(unit_tmpdir());
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE t (a INT, b STRING) CLUSTERED BY (a) INTO 2 BUCKETS "
                    "TBLPROPERTIES ('transactional'='true')", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1,'one'),(2,'two'),(3,'three')", NULL, &err), &err);

    fault_loop(s, "INSERT INTO t VALUES (10,'ten'),(20,'twenty')", check, 3, 6, &attempts);
    CHECK(!unit_failed_now());
    CHECK(attempts > 10);
    CHECK_OK(run(s, check, &r, &err), &err);
    CHECK_EQ(r.n, 5);
    CHECK_EQ(r.sum, 36);

    fault_loop(s, "UPDATE t SET b = upper(b) WHERE a < 10", check, 5, 36, &attempts);
    CHECK(!unit_failed_now());
    fault_loop(s, "DELETE FROM t WHERE a = 20", check, 5, 36, &attempts);
    CHECK(!unit_failed_now());
    CHECK_OK(run(s, check, &r, &err), &err);
    CHECK_EQ(r.n, 4);
    CHECK_EQ(r.sum, 16);
    fault_loop(s, "INSERT INTO t SELECT a + 100, b FROM t WHERE a < 3", check, 4, 16,
               &attempts);
    CHECK(!unit_failed_now());
    fault_loop(s, "SELECT b, count(*) FROM t GROUP BY b ORDER BY b", check, 6, 219,
               &attempts);
    CHECK(!unit_failed_now());
    CHECK_OK(run(s, "SELECT a FROM t WHERE b = 'ONE'", &r, &err), &err);
    CHECK_EQ(r.n, 2);
    sql_session_close(s);
}

/* Out of memory anywhere in CREATE TABLE AS SELECT: the table appears
 * with all its rows, or not at all (and its name is free again). */
TEST(session_ctas_out_of_memory_everywhere)
{
    CombErr err;
    Rows r;
    int n, rc = COMB_ENOMEM;
    SqlSession *s = open_session(unit_tmpdir());
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE t (a INT, p STRING) TBLPROPERTIES ('transactional'='true')",
                 NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1,'x'),(2,'y'),(3,'x')", NULL, &err), &err);
    CHECK_OK(run(s, "CREATE VIEW v AS SELECT a, p FROM t WHERE a > 0", NULL, &err), &err);
    for (n = 1; n < 100000 && rc == COMB_ENOMEM; n++) {
        comb_alloc_fail_after(n);
        rc = run(s, "CREATE TABLE c PARTITIONED BY (p) AS "
                    "SELECT s.a, s.p FROM (SELECT a, p FROM v) s", NULL, &err);
        comb_alloc_fail_after(0);
        if (rc == COMB_OK)
            break;
        CHECK_EQ(rc, COMB_ENOMEM);
        CHECK(run(s, "SELECT a FROM c", NULL, &err) == COMB_ENOTFOUND);
    }
    CHECK_OK(rc, &err);
    CHECK(n > 10);
    CHECK_OK(run(s, "SELECT a FROM c", &r, &err), &err);
    CHECK_EQ(r.n, 3);
    CHECK_EQ(r.sum, 6);
    sql_session_close(s);
}

/* Subqueries and views nested as deep as the parser allows run without
 * exhausting the stack (every pass of the operator tree recurses). */
TEST(session_deep_nesting)
{
    CombBuf b = COMB_BUF_INIT;
    CombErr err;
    Rows r;
    SqlSession *s = open_session(unit_tmpdir());
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true')",
                 NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1), (2), (3)", NULL, &err), &err);
    comb_buf_append_str(&b, "SELECT a FROM ");
    for (int i = 0; i < 990; i++)
        comb_buf_append_str(&b, "(SELECT a FROM ");
    comb_buf_append_str(&b, "t");
    for (int i = 0; i < 990; i++)
        comb_buf_printf(&b, " WHERE a > 1) s%d", i);
    comb_buf_append_byte(&b, '\0');
    CHECK_OK(run(s, (const char *)b.data, &r, &err), &err);
    CHECK_EQ(r.n, 2);
    CHECK_EQ(r.sum, 5);
    /* a chain of views, each a query of its own */
    CHECK_OK(run(s, "CREATE VIEW v0 AS SELECT a FROM t", NULL, &err), &err);
    for (int i = 1; i < 300; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE VIEW v%d AS SELECT a FROM v%d", i, i - 1);
        CHECK_OK(run(s, sql, NULL, &err), &err);
    }
    CHECK_OK(run(s, "SELECT a FROM v299 WHERE a = 3", &r, &err), &err);
    CHECK_EQ(r.n, 1);
    CHECK_EQ(r.sum, 3);
    comb_buf_free(&b);
    sql_session_close(s);
}
