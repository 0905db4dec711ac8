/*
 * The session's transaction-manager settings (sql/txn_locks.c): durations
 * as Hive writes them, the warehouse's comb-site.conf (read at open,
 * overridden by SET, a bad line refused naming file and line), and the
 * SHOW LOCKS / SHOW TRANSACTIONS / ABORT TRANSACTIONS statements through
 * the session API.
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "sql/sql_int.h"

static SqlSession *open_in(const char *dir, CombErr *err)
{
    SqlSessionOptions opt = {dir, "tester"};
    SqlSession *s = NULL;
    if (sql_session_open(&opt, &s, err))
        return NULL;
    return s;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(txn_conf_durations)
{
    CombErr err;
    SqlSession *s = open_in(unit_tmpdir(), &err);
    static const struct { const char *v; int64_t ms; } cases[] = {
        {"300", 300000}, {"300s", 300000}, {"5000ms", 5000}, {"2m", 120000},
        {"1.5s", 1500}, {"1h", 3600000}, {"2 sec", 2000}, {"1d", 86400000},
        {"x", 42}, {"-3", 42}, {"5 parsecs", 42}, {"", 42},
    };
    CHECK(s != NULL);
    CHECK_EQ(sql_conf_duration_ms(s, "hive.txn.timeout", 42, 1000), 42);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(sql_session_set_conf(s, "hive.txn.timeout", cases[i].v, &err), &err);
        CHECK_EQ(sql_conf_duration_ms(s, "hive.txn.timeout", 42, 1000), cases[i].ms);
    }
    /* a bare number in another unit */
    CHECK_OK(sql_session_set_conf(s, "x.ms", "250", &err), &err);
    CHECK_EQ(sql_conf_duration_ms(s, "x.ms", 0, 1), 250);
    sql_session_close(s);
}

TEST(txn_site_conf)
{
    char wh[4200], path[4300];
    CombErr err;
    SqlSession *s;
    snprintf(wh, sizeof wh, "%s/w", unit_tmpdir());
    CHECK((s = open_in(wh, &err)) != NULL);
    sql_session_close(s);
    snprintf(path, sizeof path, "%s/comb-site.conf", wh);
    write_file(path, "# per warehouse\n\n  hive.txn.timeout = 20s  \n"
                     "hive.lock.numretries=3\nempty=\n");
    CHECK((s = open_in(wh, &err)) != NULL);
    CHECK_STR(sql_session_get_conf(s, "hive.txn.timeout"), "20s");
    CHECK_STR(sql_session_get_conf(s, "hive.lock.numretries"), "3");
    CHECK_STR(sql_session_get_conf(s, "empty"), "");
    CHECK_OK(sql_session_set_conf(s, "hive.txn.timeout", "5s", &err), &err);
    CHECK_STR(sql_session_get_conf(s, "hive.txn.timeout"), "5s");
    sql_session_close(s);
    write_file(path, "hive.txn.timeout=1s\nno equals sign here\n");
    CHECK(open_in(wh, &err) == NULL);
    CHECK_EQ(err.code, COMB_EINVALID);
    CHECK(strstr(err.msg, "comb-site.conf:2: expected key=value") != NULL);
    /* comb.metastore.url cannot be set there either (a runtime change) */
    write_file(path, "comb.metastore.url=/elsewhere.db\n");
    CHECK(open_in(wh, &err) == NULL);
    CHECK(strstr(err.msg, "Cannot modify comb.metastore.url at runtime") != NULL);
}

typedef struct Count {
    long rows;
    int cols;
} Count;

static int count_begin(void *ctx, int n_cols, const char *const *names,
                       const CombTypeKind *kinds, CombErr *err)
{
    (void)names, (void)kinds, (void)err;
    ((Count *)ctx)->cols = n_cols;
    return COMB_OK;
}

static int count_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)err;
    ((Count *)ctx)->rows += comb_batch_live(b);
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, Count *c, CombErr *err)
{
    SqlSink sink = {c, count_begin, count_batch, NULL, NULL};
    if (c)
        *c = (Count){0, 0};
    return sql_session_execute(s, sql, strlen(sql), &sink, err);
}

TEST(txn_statements_through_the_session)
{
    CombErr err;
    Count n;
    SqlSession *s = open_in(unit_tmpdir(), &err);
    CHECK(s != NULL);
    CHECK_OK(run(s, "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true')", NULL, &err), &err);
    CHECK_OK(run(s, "INSERT INTO t VALUES (1)", NULL, &err), &err);
    CHECK_OK(run(s, "SHOW LOCKS", &n, &err), &err);
    CHECK_EQ(n.cols, 13);
    CHECK_EQ(n.rows, 0);
    CHECK_OK(run(s, "SHOW TRANSACTIONS", &n, &err), &err);
    CHECK_EQ(n.cols, 6);
    CHECK_EQ(n.rows, 0);
    /* a failed statement's txn is aborted and listed until cleaned */
    CHECK(run(s, "INSERT INTO t VALUES ('x' + )", NULL, &err) != COMB_OK);
    CHECK(run(s, "INSERT INTO t SELECT a / 0 FROM missing", NULL, &err) == COMB_ENOTFOUND);
    CHECK_EQ(run(s, "ABORT TRANSACTIONS 2", NULL, &err), COMB_ETXN);
    CHECK(strstr(err.msg, "txnid:2 is already committed") != NULL);
    CHECK_EQ(run(s, "ABORT TRANSACTIONS 77", NULL, &err), COMB_ENOTFOUND);
    sql_session_close(s);
}
