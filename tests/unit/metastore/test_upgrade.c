/* Metastores written by an older comb (schema version 1, before partitions)
 * keep working: opening one upgrades it in place to the schema a fresh file
 * gets, keeping every table, txn and write id; a file that cannot be
 * written is refused and left as it was. */
#include "ms_fixture.h"
#include "common/arena.h"

#include <stdlib.h>

/* Every table's columns, foreign keys and indexes (not their names, which
 * record how a table was made), one line each, sorted. */
static const char SCHEMA_SHAPE_SQL[] =
    "SELECT group_concat(line, char(10)) FROM (SELECT line FROM ("
    " SELECT m.name || ' col ' || p.cid || ' ' || p.name || ' ' || p.type"
    "  || ' ' || p.\"notnull\" || ' ' || ifnull(p.dflt_value, '-') || ' '"
    "  || p.pk AS line"
    "  FROM sqlite_master m, pragma_table_info(m.name) p"
    "  WHERE m.type = 'table'"
    " UNION ALL"
    " SELECT m.name || ' fk ' || f.\"table\" || ' ' || f.\"from\" || ' '"
    "  || f.\"to\""
    "  FROM sqlite_master m, pragma_foreign_key_list(m.name) f"
    "  WHERE m.type = 'table'"
    " UNION ALL"
    " SELECT m.name || ' index ' || i.\"unique\" || ' ' || i.origin || ' '"
    "  || (SELECT group_concat(ii.name) FROM pragma_index_info(i.name) ii)"
    "  FROM sqlite_master m, pragma_index_list(m.name) i"
    "  WHERE m.type = 'table')"
    " ORDER BY line)";

TEST(ms_upgrade_v1_file)
{
    Fx old, fresh;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    CombArena a;
    CombTxnList snap;
    CombWriteIdList wl;
    MsTable *t;
    MsPartition p = {0};
    char *s, *day[1] = {"2024-01-01"};
    static char shape_old[20000], shape_fresh[20000], mode[20];
    int64_t txn, w;
    comb_arena_init(&a, 0);
    CHECK_EQ(fx_load_v1(&old), SQLITE_OK);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 1);
    CHECK_OK(ms_open_sqlite(old.db, old.warehouse, &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    fx_sql_text(&old, "PRAGMA journal_mode", mode, sizeof mode);
    CHECK_STR(mode, "wal");

    /* the schema is the one a fresh file gets, column for column */
    CHECK_OK(fx_open(&fresh, &other, &err), &err);
    ms_close(other);
    fx_sql_text(&old, SCHEMA_SHAPE_SQL, shape_old, sizeof shape_old);
    fx_sql_text(&fresh, SCHEMA_SHAPE_SQL, shape_fresh, sizeof shape_fresh);
    CHECK(strlen(shape_fresh) > 1000);
    CHECK(strstr(shape_fresh, "TBLS col 7 LOCATION VARCHAR(4000) 0 - 0"));
    CHECK(strstr(shape_fresh, "PARTITION_KEY_VALS fk PARTITIONS PART_ID"));
    CHECK_STR(shape_old, shape_fresh);
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM pragma_foreign_key_check"),
             0);

    /* everything the old comb recorded is there */
    CHECK_OK(ms_table_get(ms, "default", "t", &a, &t, &err), &err);
    CHECK_STR(t->location, "/tmp/combv1/warehouse/t");
    CHECK_EQ(t->n_cols, 2);
    CHECK_STR(t->cols[1].comment, "who");
    CHECK_EQ(t->n_buckets, 2);
    CHECK_STR(t->bucket_cols[0], "id");
    CHECK(ms_table_is_transactional(t));
    CHECK_EQ(t->n_part_keys, 0);
    CHECK(t->view_original_text == NULL);
    CHECK_OK(ms_table_get(ms, "sales", "orders", &a, &t, &err), &err);
    CHECK_STR(t->comment, "orders table");
    CHECK_OK(ms_table_get(ms, "default", "plain", &a, &t, &err), &err);
    CHECK_STR(t->table_type, MS_EXTERNAL_TABLE);
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    CHECK_EQ(snap.hwm, 3);
    CHECK_EQ(snap.n_exceptions, 0);
    CHECK_OK(ms_writeid_list(ms, &snap, "default", "t", &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "default.t:2:9223372036854775807::");
    comb_free(s);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);

    /* and it carries on: ids continue, the new kinds of objects fit */
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(txn, 4);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 3);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    CHECK_OK(ms_table_create(ms, &(MsTable){.db = "default", .name = "v",
                                            .table_type = MS_VIRTUAL_VIEW,
                                            .view_original_text = "select 1"},
                             false, &err), &err);
    CHECK_OK(ms_table_create(ms, &(MsTable){.db = "sales", .name = "daily",
                                            .n_part_keys = 1,
                                            .part_keys = (MsColumn[]){
                                                {"ds", "string", NULL}}},
                             false, &err), &err);
    p.n_values = 1;
    p.values = day;
    CHECK_OK(ms_part_add(ms, "sales", "daily", &p, 1, false, NULL, &err),
             &err);
    CHECK_OK(ms_table_drop(ms, "sales", "orders", false, &err), &err);
    ms_close(ms);
    /* opening again finds version 2 and changes nothing */
    CHECK_OK(ms_open_sqlite(old.db, old.warehouse, &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM TBLS"), 4);
    ms_close(ms);
    comb_arena_free(&a);
}

/* A version 1 file that may not be written stays version 1 and is
 * refused with the cause. */
static void check_upgrade_refused(const char *fault, int code,
                                  const char *cause)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char shape[20000];
    CHECK_EQ(fx_load_v1(&fx), SQLITE_OK);
    setenv("COMB_MS_FAULT", fault, 1);
    CHECK_EQ(ms_open_sqlite(fx.db, fx.warehouse, &ms, &err), code);
    unsetenv("COMB_MS_FAULT");
    CHECK(ms == NULL);
    CHECK(strstr(err.msg, "upgrading the metastore schema to version 6: "
                          "cannot write to the metastore") == err.msg);
    CHECK(strstr(err.msg, cause) != NULL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT SCHEMA_VERSION FROM VERSION"), 1);
    fx_sql_text(&fx, SCHEMA_SHAPE_SQL, shape, sizeof shape);
    CHECK(strstr(shape, "TBLS col 7 LOCATION VARCHAR(4000) 1 - 0"));
    CHECK(strstr(shape, "PARTITIONS") == NULL);
    /* writable again, it upgrades */
    CHECK_OK(ms_open_sqlite(fx.db, fx.warehouse, &ms, &err), &err);
    ms_close(ms);
    CHECK_EQ(fx_sql_int(&fx, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
}

TEST(ms_upgrade_refused_when_read_only)
{
    check_upgrade_refused("readonly", COMB_EREADONLY, "it is read-only");
}

TEST(ms_upgrade_refused_when_disk_full)
{
    check_upgrade_refused("full", COMB_EFULL, "the disk is full");
}

/* A version 2 file (made here from a fresh one: its version 3 tables
 * dropped) gets MIN_HISTORY_LEVEL and AUX_TABLE; the txn open in it gets
 * its MIN_HISTORY_LEVEL row, so housekeeping keeps what its snapshot
 * needs; the schema is then a fresh file's. */
TEST(ms_upgrade_v2_file)
{
    Fx old, fresh;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    int64_t open_txn, done;
    static char shape_old[20000], shape_fresh[20000];
    CHECK_OK(fx_open(&old, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &open_txn, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &done, &err), &err);
    CHECK_OK(ms_txn_commit(ms, done, &err), &err);
    ms_close(ms);
    CHECK_EQ(fx_sql_exec(&old, "DROP TABLE MIN_HISTORY_LEVEL;"
                               "DROP TABLE AUX_TABLE;"
                               "UPDATE VERSION SET SCHEMA_VERSION = '2'"),
             SQLITE_OK);
    CHECK_OK(ms_open_sqlite(old.db, old.warehouse, &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM MIN_HISTORY_LEVEL"), 1);
    CHECK_EQ(fx_sql_int(&old, "SELECT MHL_MIN_OPEN_TXNID FROM "
                              "MIN_HISTORY_LEVEL WHERE MHL_TXNID = 1"), 1);
    CHECK_OK(ms_txn_commit(ms, open_txn, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT count(*) FROM MIN_HISTORY_LEVEL"), 0);
    ms_close(ms);
    CHECK_OK(fx_open(&fresh, &other, &err), &err);
    ms_close(other);
    fx_sql_text(&old, SCHEMA_SHAPE_SQL, shape_old, sizeof shape_old);
    fx_sql_text(&fresh, SCHEMA_SHAPE_SQL, shape_fresh, sizeof shape_fresh);
    CHECK(strstr(shape_fresh, "MIN_HISTORY_LEVEL col 0 MHL_TXNID BIGINT"));
    CHECK_STR(shape_old, shape_fresh);
}

/* A fresh file made version `version` by drop_sql gets back what that
 * dropped: the schema is then a fresh file's (which has `marker`). */
static void upgrade_from(const char *drop_sql, const char *version,
                         const char *marker)
{
    Fx old, fresh;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    char sql[512];
    static char shape_old[20000], shape_fresh[20000];
    snprintf(sql, sizeof sql, "%s UPDATE VERSION SET SCHEMA_VERSION = '%s'",
             drop_sql, version);
    CHECK_OK(fx_open(&old, &ms, &err), &err);
    ms_close(ms);
    CHECK_EQ(fx_sql_exec(&old, sql), SQLITE_OK);
    CHECK_OK(ms_open_sqlite(old.db, old.warehouse, &ms, &err), &err);
    CHECK_EQ(fx_sql_int(&old, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    ms_close(ms);
    CHECK_OK(fx_open(&fresh, &other, &err), &err);
    ms_close(other);
    fx_sql_text(&old, SCHEMA_SHAPE_SQL, shape_old, sizeof shape_old);
    fx_sql_text(&fresh, SCHEMA_SHAPE_SQL, shape_fresh, sizeof shape_fresh);
    CHECK(strstr(shape_fresh, marker) != NULL);
    CHECK_STR(shape_old, shape_fresh);
}

/* Version 4: without COL_STATS, ROLES and GRANTS. */
TEST(ms_upgrade_v4_file)
{
    upgrade_from("DROP TABLE COL_STATS; DROP TABLE ROLES; DROP TABLE GRANTS;",
                 "4", "COL_STATS fk TBLS TBL_ID TBL_ID");
}

/* Version 5: without ROLES and GRANTS. */
TEST(ms_upgrade_v5_file)
{
    upgrade_from("DROP TABLE ROLES; DROP TABLE GRANTS;", "5", "GRANTS");
}
