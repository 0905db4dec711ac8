/*
 * The session's heartbeater thread (sql/txn_locks.c) under statements of
 * the session's own thread: an explicit transaction held open past
 * hive.txn.timeout survives (the thread heartbeats it and runs the
 * housekeeper on its own handle) while the main thread runs statements on
 * the session's handle and SET re-configures the running thread; then
 * autocommit statements add and remove their txns.  A second session's
 * heartbeater (the housekeeper that would abort the txn) runs meanwhile.  Also built alone with
 * ThreadSanitizer (build/tsan/tests/threads_sql, run by make test).
 */
#include "unit.h"

#include <string.h>
#include <time.h>

#include "sql/session.h"

static int count_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    *(long *)ctx += comb_batch_live(b);
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, long *rows, CombErr *err)
{
    SqlSink sink = {rows, NULL, count_batch, NULL, NULL};
    if (rows)
        *rows = 0;
    return sql_session_execute(s, sql, strlen(sql), &sink, err);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

TEST(session_heartbeater_keeps_an_open_txn_alive)
{
    SqlSessionOptions opt = {unit_tmpdir(), "tester"};
    SqlSession *s = NULL, *other = NULL;
    struct timespec pause = {0, 100 * 1000000L};
    CombErr err;
    double end;
    long rows;
    CHECK_OK(sql_session_open(&opt, &s, &err), &err);
    CHECK_OK(run(s, "SET hive.txn.timeout=2s", NULL, &err), &err);
    CHECK_OK(run(s, "SET metastore.acid.housekeeper.interval=1s", NULL, &err),
             &err);
    CHECK_OK(run(s, "CREATE TABLE t (k INT) TBLPROPERTIES "
                    "('transactional'='true')", NULL, &err), &err);
    CHECK_OK(run(s, "BEGIN", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1)", NULL, &err), &err);
    /* another session's housekeeper would abort it, were it not for the
     * heartbeats */
    CHECK_OK(sql_session_open(&opt, &other, &err), &err);
    CHECK_OK(run(other, "SET hive.txn.timeout=2s", NULL, &err), &err);
    CHECK_OK(run(other, "SET metastore.acid.housekeeper.interval=1s", NULL,
                 &err), &err);
    end = now_s() + 3.0;
    while (now_s() < end) {
        CHECK_OK(run(s, "SET hive.txn.timeout=2s", NULL, &err), &err);
        CHECK_OK(run(s, "SELECT count(*) FROM t", &rows, &err), &err);
        CHECK_OK(run(other, "SELECT count(*) FROM t", &rows, &err), &err);
        nanosleep(&pause, NULL);
    }
    CHECK_OK(run(s, "COMMIT", NULL, &err), &err);
    for (int i = 0; i < 20; i++)
        CHECK_OK(run(s, "INSERT INTO t VALUES (2)", NULL, &err), &err);
    CHECK_OK(run(s, "SELECT k FROM t", &rows, &err), &err);
    CHECK_EQ(rows, 21);
    sql_session_close(other);
    sql_session_close(s);
}
