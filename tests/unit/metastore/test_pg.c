/* What only the PostgreSQL backend has: URLs (and passwords kept out of
 * messages), a server that goes away and comes back, connections that
 * break in the middle of a call or while it commits, foreign tables where
 * the schema would go, and the database's text encoding. */
#include "ms_fixture.h"

#include <stdlib.h>

static int fault_reopen(const Fx *fx, const char *fault, Ms **ms,
                        CombErr *err)
{
    int rc;
    setenv("COMB_MS_FAULT", fault, 1);
    rc = fx_reopen(fx, NULL, ms, err);
    unsetenv("COMB_MS_FAULT");
    return rc;
}

/* default.wide: three columns, two properties, one bucket column. */
static MsTable wide_table(MsColumn *cols, MsProperty *props, char **bucket)
{
    MsTable t = {0};
    cols[0] = (MsColumn){"a", "int", "first"};
    cols[1] = (MsColumn){"b", "string", NULL};
    cols[2] = (MsColumn){"c", "double", NULL};
    props[0] = (MsProperty){"transactional", "true"};
    props[1] = (MsProperty){"k", "v"};
    bucket[0] = "a";
    t.db = "default";
    t.name = "wide";
    t.n_cols = 3;
    t.cols = cols;
    t.n_props = 2;
    t.props = props;
    t.n_buckets = 4;
    t.n_bucket_cols = 1;
    t.bucket_cols = bucket;
    return t;
}

PG_TEST(ms_pg_bad_urls_never_show_the_password)
{
    static const char *const urls[] = {
        "postgresql://comb:s3cret@/comb?host=/nonexistent/comb-dir",
        "postgresql:///comb?host=/nonexistent/comb-dir&user=comb"
        "&password=s3cret",
        "postgres://comb:s3cret@/comb?nosuchparameter=1",
        "postgresql://comb:s3cret@/comb?host=/nonexistent/comb-dir&port=x"};
    Ms *ms = NULL;
    CombErr err;
    for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
        CHECK_EQ(ms_open(urls[i], "/wh", &ms, &err), COMB_EMETASTORE);
        CHECK(ms == NULL);
        CHECK(strstr(err.msg, "cannot connect to the metastore") != NULL);
        CHECK(strstr(err.msg, "s3cret") == NULL);
    }
    CHECK_EQ(ms_open(urls[0], "/wh", &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "'postgresql://comb@/comb?host=/nonexistent/"
                          "comb-dir'") != NULL);
    CHECK(strstr(err.msg, "No such file or directory") != NULL);
    CHECK(strchr(err.msg, '\n') == NULL && strchr(err.msg, '\t') == NULL);
    CHECK_EQ(ms_open(urls[2], "/wh", &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "nosuchparameter") != NULL);
    CHECK_EQ(ms_open_pg(NULL, "/wh", &ms, &err), COMB_EINVALID);
    CHECK_EQ(ms_open_pg(urls[0], "", &ms, &err), COMB_EINVALID);
    CHECK_EQ(ms_open_pg(urls[0], "/wh", NULL, &err), COMB_EINVALID);
    CHECK(ms_target_is_pg("postgresql://h/db"));
    CHECK(ms_target_is_pg("postgres://h/db"));
    CHECK(!ms_target_is_pg("postgresql:/h/db"));
    CHECK(!ms_target_is_pg("/data/postgresql://x"));
    CHECK(!ms_target_is_pg(NULL));
}

PG_TEST(ms_pg_unknown_database)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char url[800];
    const char *socket;
    fx_paths(&fx);
    socket = strstr(fx.where, "?host=");
    CHECK(socket != NULL);
    snprintf(url, sizeof url, "postgresql://comb@/nosuch%s", socket);
    CHECK_EQ(ms_open(url, fx.warehouse, &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "database \"nosuch\" does not exist") != NULL);
}

/* A schema where tables of other software already use Hive's names: the
 * metastore refuses to open, and creates none of its own tables. */
PG_TEST(ms_pg_foreign_tables_refused)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    fx_paths(&fx);
    CHECK_EQ(fx_sql_exec(&fx, "CREATE TABLE dbs (x int)"), 0);
    CHECK_EQ(fx_reopen(&fx, NULL, &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "relation \"dbs\" already exists") != NULL);
    CHECK(!fx_table_exists(&fx, "VERSION"));
    CHECK(!fx_table_exists(&fx, "TXNS"));
}

/* The server stops and starts again under an open handle: calls fail with
 * a message naming the server while it is down, and work again after. */
PG_TEST(ms_pg_server_goes_away_and_comes_back)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable *t;
    MsTxnState st;
    int64_t txn = 0;
    int paused;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    paused = fx_pg_pause();
    CHECK_EQ(paused, 0);
    CHECK_EQ(ms_table_get(ms, "default", "t", &a, &t, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, fx.where) != NULL);
    CHECK(strstr(err.msg, "connect") != NULL);
    CHECK_EQ(ms_txn_commit(ms, txn, &err), COMB_EMETASTORE);
    CHECK_EQ(fx_pg_resume(), 0);
    /* the same handle, a new connection */
    CHECK_OK(ms_table_get(ms, "default", "t", &a, &t, &err), &err);
    CHECK_STR(t->name, "t");
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    CHECK_OK(ms_txn_state(ms, txn, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);
    ms_close(ms);
    comb_arena_free(&a);
}

/* The connection breaks in the middle of a call (COMB_MS_FAULT=pg_kill<n>:
 * after the call's n-th statement): nothing of the broken run stays, and
 * the call runs again whole on a new connection. */
PG_TEST(ms_pg_connection_lost_mid_call_is_run_again)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsColumn cols[3];
    MsProperty props[2];
    char *bucket[1];
    MsTable t = wide_table(cols, props, bucket), *got;
    int64_t txn = 0;
    comb_arena_init(&a, 0);
    /* creating the schema is a writing call too: it survives as well */
    fx_paths(&fx);
    CHECK_OK(fault_reopen(&fx, "pg_kill3", &ms, &err), &err);
    CHECK(fx_table_exists(&fx, "TXNS"));
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM DBS"), 1);
    ms_close(ms);
    /* after the db lookup and the TBLS row (which took TBL_ID 1) */
    CHECK_OK(fault_reopen(&fx, "pg_kill2", &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &t, false, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT TBL_ID FROM TBLS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TABLE_PARAMS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM BUCKETING_COLS"), 1);
    CHECK_OK(ms_table_get(ms, "default", "wide", &a, &got, &err), &err);
    CHECK_EQ(got->n_cols, 3);
    ms_close(ms);

    /* a txn open broken after its one statement, which took the id: the
     * commit's answer is what was lost, so it says the outcome is unknown
     * (here the server rolled it back: no id is taken) */
    CHECK_OK(fault_reopen(&fx, "pg_kill1", &ms, &err), &err);
    CHECK_EQ(ms_txn_open(ms, "u", "h", &txn, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "while committing") != NULL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS"), 0);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(txn, 1);
    ms_close(ms);
    comb_arena_free(&a);
}

/* The connection breaks while COMMIT is on its way
 * (COMB_MS_FAULT=pg_commit_lost): a call that must not run twice says its
 * outcome is unknown; one that may (a txn commit) runs again. */
PG_TEST(ms_pg_commit_lost_is_reported_or_run_again)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsColumn cols[3];
    MsProperty props[2];
    char *bucket[1];
    MsTable t = wide_table(cols, props, bucket);
    MsTxnState st;
    int64_t txn = 0, w = 0;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "t", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, txn, "default", "t", NULL,
                                  MS_OP_UPDATE, w, &err), &err);
    ms_close(ms);

    CHECK_OK(fault_reopen(&fx, "pg_commit_lost", &ms, &err), &err);
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "while committing: the change may or may not "
                          "have been made") != NULL);
    CHECK(strstr(err.msg, fx.where) != NULL);
    /* here it was not: the server rolled it back */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS WHERE "
                             "TBL_NAME = 'wide'"), 0);
    /* the handle goes on, on a new connection */
    CHECK_OK(ms_table_create(ms, &t, false, &err), &err);
    ms_close(ms);

    CHECK_OK(fault_reopen(&fx, "pg_commit_lost", &ms, &err), &err);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    CHECK_OK(ms_txn_state(ms, txn, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM WRITE_SET"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM "
                             "COMPLETED_TXN_COMPONENTS"), 1);
    ms_close(ms);
}

/* The server's encoding decides which bytes a text may hold: in a UTF-8
 * database, a value that is not UTF-8 is refused with a clear error (the
 * SQLite backend stores any bytes), and nothing of the call stays. */
PG_TEST(ms_pg_text_outside_the_database_encoding)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsColumn key = {"ds", "string", NULL}, col = {"x", "int", NULL};
    MsTable t = {0};
    char *v[1] = {"caf\xe9"};
    MsPartition p = {.n_values = 1, .values = v};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    if (fx_sql_int(&fx, "SELECT (getdatabaseencoding() = 'UTF8')::int") != 1) {
        ms_close(ms);
        unit_skip("the test database is not UTF-8");
        return;
    }
    t.db = "default";
    t.name = "p";
    t.n_cols = 1;
    t.cols = &col;
    t.n_part_keys = 1;
    t.part_keys = &key;
    CHECK_OK(ms_table_create(ms, &t, false, &err), &err);
    CHECK_EQ(ms_part_add(ms, "default", "p", &p, 1, false, NULL, &err),
             COMB_EINVALID);
    CHECK(strstr(err.msg, "cannot store this value") != NULL);
    CHECK(strstr(err.msg, "UTF8") != NULL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 0);
    ms_close(ms);
}

/* Every table's columns (type, nullability, default, identity,
 * collation), constraints and indexes, one line each, sorted. */
static const char PG_SCHEMA_SHAPE_SQL[] =
    "SELECT string_agg(line, E'\\n' ORDER BY line) FROM ("
    " SELECT table_name || ' col ' || column_name || ' ' || data_type"
    "  || ' ' || is_nullable || ' ' || coalesce(column_default, '-')"
    "  || ' ' || is_identity || ' ' || coalesce(collation_name, '-') AS line"
    "  FROM information_schema.columns WHERE table_schema = current_schema()"
    " UNION ALL SELECT conrelid::regclass::text || ' constraint '"
    "  || pg_get_constraintdef(oid) FROM pg_constraint"
    "  WHERE connamespace = current_schema()::regnamespace"
    " UNION ALL SELECT tablename || ' index '"
    "  || regexp_replace(indexdef, ' ON \\S+\\.', ' ON ')"
    "  FROM pg_indexes WHERE schemaname = current_schema()) x";

/* A metastore this backend wrote at schema version 2 opens upgraded to
 * the schema a fresh database gets, keeping its data: txns open in it get
 * their MIN_HISTORY_LEVEL rows, write ids go on. */
PG_TEST(ms_pg_upgrade_v2_database)
{
    Fx old, fresh;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    CombTxnList snap;
    CombWriteIdList wl;
    char *s;
    static char shape_old[40000], shape_fresh[40000];
    int64_t txn, w;
    CHECK_EQ(fx_load_pg_v2(&old), 0);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 2);
    CHECK(!fx_table_exists(&old, "MIN_HISTORY_LEVEL"));
    CHECK_OK(fx_reopen(&old, "/data/warehouse", &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    CHECK_OK(fx_open(&fresh, &other, &err), &err);
    ms_close(other);
    fx_sql_text(&old, PG_SCHEMA_SHAPE_SQL, shape_old, sizeof shape_old);
    fx_sql_text(&fresh, PG_SCHEMA_SHAPE_SQL, shape_fresh, sizeof shape_fresh);
    CHECK(strlen(shape_fresh) > 5000);
    CHECK(strstr(shape_fresh, "min_history_level col mhl_min_open_txnid") !=
          NULL);
    CHECK(strstr(shape_fresh, "tbls col location character varying YES") !=
          NULL);
    CHECK_STR(shape_old, shape_fresh);

    /* the open txns 5 and 6: both bound by the lowest open, 5 */
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM MIN_HISTORY_LEVEL"), 2);
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM MIN_HISTORY_LEVEL "
                              "WHERE MHL_MIN_OPEN_TXNID = 5"), 2);
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    s = comb_txnlist_format(&snap);
    CHECK_STR(s, "6:5:5,6:4");
    comb_free(s);
    CHECK_OK(ms_writeid_list(ms, &snap, "sales", "orders", &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "sales.orders:3:9223372036854775807::");
    comb_free(s);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(txn, 7);
    CHECK_OK(ms_writeid_allocate(ms, txn, "sales", "orders", &w, &err), &err);
    CHECK_EQ(w, 4);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    ms_close(ms);
}

/* A fresh database made version `version` by drop_sql gets back what that
 * dropped: the schema is then a fresh database's (which has `marker`). */
static void pg_upgrade_from(const char *drop_sql, const char *version,
                         const char *marker)
{
    Fx old, fresh;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    char sql[512];
    static char shape_old[40000], shape_fresh[40000];
    snprintf(sql, sizeof sql, "%s UPDATE VERSION SET SCHEMA_VERSION = '%s'",
             drop_sql, version);
    CHECK_OK(fx_open(&old, &ms, &err), &err);
    ms_close(ms);
    CHECK_EQ(fx_sql_exec(&old, sql), 0);
    CHECK_OK(fx_reopen(&old, NULL, &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    ms_close(ms);
    CHECK_OK(fx_open(&fresh, &other, &err), &err);
    ms_close(other);
    fx_sql_text(&old, PG_SCHEMA_SHAPE_SQL, shape_old, sizeof shape_old);
    fx_sql_text(&fresh, PG_SCHEMA_SHAPE_SQL, shape_fresh, sizeof shape_fresh);
    CHECK(strstr(shape_fresh, marker) != NULL);
    CHECK_STR(shape_old, shape_fresh);
}

/* Version 4: without COL_STATS, ROLES and GRANTS. */
PG_TEST(ms_pg_upgrade_v4_database)
{
    pg_upgrade_from("DROP TABLE COL_STATS; DROP TABLE ROLES; DROP TABLE GRANTS;",
                 "4", "col_stats col source");
}

/* Version 5: without ROLES and GRANTS. */
PG_TEST(ms_pg_upgrade_v5_database)
{
    pg_upgrade_from("DROP TABLE ROLES; DROP TABLE GRANTS;", "5",
                    "grants col privilege");
}
