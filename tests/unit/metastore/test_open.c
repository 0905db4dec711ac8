/* Opening a metastore: schema creation, idempotence, version checks, bad
 * files and URLs, unwritable metastores; WAL on SQLite. */
#include "ms_fixture.h"
#include "common/arena.h"
#include "fs/fs.h"

#include <stdlib.h>

MS_TEST(ms_open_twice_keeps_one_schema)
{
    Fx fx;
    Ms *a = NULL, *b = NULL;
    CombErr err;
    fx_paths(&fx);
    CHECK_OK(fx_reopen(&fx, NULL, &a, &err), &err);
    ms_close(a);
    CHECK_OK(fx_reopen(&fx, NULL, &a, &err), &err);
    /* a second handle while the first is open */
    CHECK_OK(fx_reopen(&fx, "/elsewhere", &b, &err), &err);
    ms_close(a);
    ms_close(b);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM VERSION"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM DBS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_TXN_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_LOCK_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_COMPACTION_QUEUE_ID"),
             1);
}

MS_TEST(ms_open_creates_every_hive_table)
{
    static const char *const tables[] = {
        "VERSION", "DBS", "TBLS", "COLUMNS_V2", "TABLE_PARAMS",
        "BUCKETING_COLS", "TXNS", "NEXT_TXN_ID", "TXN_COMPONENTS",
        "COMPLETED_TXN_COMPONENTS", "TXN_TO_WRITE_ID", "NEXT_WRITE_ID",
        "WRITE_SET", "HIVE_LOCKS", "NEXT_LOCK_ID", "COMPACTION_QUEUE",
        "COMPLETED_COMPACTIONS", "NEXT_COMPACTION_QUEUE_ID"};
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    ms_close(ms);
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        if (!fx_table_exists(&fx, tables[i]))
            unit_fail(__FILE__, __LINE__, "table %s missing", tables[i]);
    CHECK(!fx_table_exists(&fx, "NO_SUCH_TABLE"));
}

TEST(ms_open_uses_wal)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int ok;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    ms_close(ms);
    CHECK(sqlite3_open(fx.db, &db) == SQLITE_OK);
    ok = sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) ==
             SQLITE_OK &&
         sqlite3_step(st) == SQLITE_ROW &&
         strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    sqlite3_close(db);
    CHECK(ok);
}

MS_TEST(ms_open_default_db_is_warehouse)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsDatabase *d = NULL;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_db_get(ms, "DEFAULT", &a, &d, &err), &err);
    CHECK_STR(d->name, "default");
    CHECK_STR(d->location, fx.warehouse);
    CHECK_STR(d->comment, "Default Hive database");
    CHECK_STR(d->owner, "public");
    ms_close(ms);
    /* reopening with another warehouse does not move the default db */
    CHECK_OK(fx_reopen(&fx, "/other", &ms, &err), &err);
    CHECK_OK(ms_db_get(ms, "default", &a, &d, &err), &err);
    CHECK_STR(d->location, fx.warehouse);
    ms_close(ms);
    comb_arena_free(&a);
}

TEST(ms_open_rejects_garbage_file)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char junk[4096];
    fx_paths(&fx);
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)(i * 7 + 3);
    CHECK_OK(fs_write_file(fx.db, junk, sizeof junk, &err), &err);
    CHECK_EQ(ms_open_sqlite(fx.db, fx.warehouse, &ms, &err), COMB_EMETASTORE);
    CHECK(ms == NULL);
    CHECK(strstr(err.msg, fx.db) != NULL);
}

MS_TEST(ms_open_rejects_other_schema_version)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    ms_close(ms);
    CHECK_EQ(fx_sql_exec(&fx, "UPDATE VERSION SET SCHEMA_VERSION = '99'"),
             SQLITE_OK);
    ms = NULL;
    CHECK_EQ(fx_reopen(&fx, NULL, &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "schema version '99'") != NULL);
    CHECK(strstr(err.msg, fx.where) != NULL);
    CHECK(ms == NULL);
    /* and a VERSION table without its row */
    CHECK_EQ(fx_sql_exec(&fx, "DELETE FROM VERSION"), SQLITE_OK);
    CHECK_EQ(fx_reopen(&fx, NULL, &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "VERSION table has no version row") != NULL);
    CHECK(ms == NULL);
}

TEST(ms_open_bad_arguments)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char path[700];
    fx_paths(&fx);
    CHECK_EQ(ms_open_sqlite(NULL, fx.warehouse, &ms, &err), COMB_EINVALID);
    CHECK_EQ(ms_open_sqlite(fx.db, NULL, &ms, &err), COMB_EINVALID);
    CHECK_EQ(ms_open_sqlite(fx.db, fx.warehouse, NULL, &err), COMB_EINVALID);
    snprintf(path, sizeof path, "%s/no/such/dir/ms.db", fx.warehouse);
    CHECK_EQ(ms_open_sqlite(path, fx.warehouse, &ms, &err), COMB_EMETASTORE);
    CHECK(strstr(err.msg, "cannot open the metastore") != NULL);
    CHECK(strstr(err.msg, "No such file or directory") != NULL);
    ms_close(NULL);
}

/* A metastore that refuses writes (COMB_MS_FAULT, test builds: opened
 * read-only, or every write answered with SQLITE_FULL): reads and
 * snapshots still work, writes fail with their own code and the cause in
 * plain words, never with SQL text. */
static void check_unwritable(const char *fault, int code, const char *cause)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    CombTxnList snap;
    MsTable *t;
    int64_t txn = 0, open_txn = 0;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &open_txn, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    ms_close(ms);
    setenv("COMB_MS_FAULT", fault, 1);
    CHECK_OK(fx_reopen(&fx, NULL, &ms, &err), &err);
    unsetenv("COMB_MS_FAULT");
    CHECK_OK(ms_table_get(ms, "default", "t", &a, &t, &err), &err);
    /* the snapshot of a reader without a txn: hwm 2, txn 1 still open */
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    CHECK_EQ(snap.hwm, 2);
    CHECK(comb_idlist_is_open(&snap, open_txn));
    CHECK(comb_idlist_is_valid(&snap, txn));
    comb_idlist_free(&snap);
    CHECK_EQ(ms_txn_open(ms, "u", "h", &txn, &err), code);
    CHECK(strstr(err.msg, "cannot write to the metastore") != NULL);
    CHECK(strstr(err.msg, cause) != NULL);
    CHECK(strstr(err.msg, fx.where) != NULL);
    CHECK(strstr(err.msg, "INSERT") == NULL && strstr(err.msg, "BEGIN") == NULL &&
          strstr(err.msg, "TXNS") == NULL);
    CHECK_EQ(fx_create_t(ms, &err), code);
    CHECK_EQ(ms_txn_abort(ms, open_txn, &err), code);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_open_read_only_reads_and_refuses_writes)
{
    check_unwritable("readonly", COMB_EREADONLY, "it is read-only");
}

MS_TEST(ms_full_disk_reads_and_refuses_writes)
{
    check_unwritable("full", COMB_EFULL, "the disk is full");
}

TEST(ms_open_in_memory)
{
    Ms *ms = NULL;
    CombErr err;
    CombTxnList l;
    int64_t txn;
    CHECK_OK(ms_open_sqlite(":memory:", "/wh", &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_txn_snapshot(ms, 0, &l, &err), &err);
    CHECK_EQ(l.hwm, 1);
    CHECK(comb_idlist_is_open(&l, 1));
    comb_idlist_free(&l);
    ms_close(ms);
}
