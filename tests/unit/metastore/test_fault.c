/* Out-of-memory at every allocation of a metastore session: each call must
 * either succeed or report COMB_ENOMEM, leave no half-done change behind,
 * and leak nothing (LeakSanitizer checks at exit). */
#include "ms_fixture.h"
#include "common/alloc.h"
#include "common/arena.h"

/* One session: every kind of call once.  Stops at the first failure and
 * returns its rc. */
static int session(const Fx *fx, int k, CombErr *err)
{
    Ms *ms = NULL;
    CombArena a;
    MsColumn col = {"A", "INT", NULL};
    char *bucket = "a";
    MsProperty prop = {"transactional", "true"};
    MsTable t = {0}, *got;
    MsDatabase d = {0}, *gotdb;
    CombTxnList snap = {0};
    CombWriteIdList wl = {0};
    char name[32], **names;
    int n, rc;
    int64_t txn = 0, w;
    snprintf(name, sizeof name, "t%d", k);
    t.db = "default";
    t.name = name;
    t.n_cols = 1;
    t.cols = &col;
    t.n_buckets = 2;
    t.n_bucket_cols = 1;
    t.bucket_cols = &bucket;
    t.n_props = 1;
    t.props = &prop;
    d.name = name;
    comb_arena_init(&a, 64);
    rc = fx_reopen(fx, NULL, &ms, err);
    if (!rc)
        rc = ms_db_create(ms, &d, false, err);
    if (!rc)
        rc = ms_table_create(ms, &t, false, err);
    if (!rc)
        rc = ms_table_get(ms, "default", name, &a, &got, err);
    if (!rc)
        rc = ms_db_get(ms, name, &a, &gotdb, err);
    if (!rc)
        rc = ms_db_list(ms, &a, &names, &n, err);
    if (!rc)
        rc = ms_table_list(ms, "default", &a, &names, &n, err);
    if (!rc)
        rc = ms_txn_open(ms, "u", "h", &txn, err);
    if (!rc)
        rc = ms_txn_snapshot(ms, txn, &snap, err);
    if (!rc)
        rc = ms_writeid_allocate(ms, txn, "default", name, &w, err);
    if (!rc)
        rc = ms_writeid_list(ms, &snap, "default", name, &wl, err);
    if (!rc)
        rc = ms_txn_add_component(ms, txn, "default", name, NULL,
                                  MS_OP_UPDATE, w, err);
    if (!rc)
        rc = ms_txn_commit(ms, txn, err);
    if (!rc)
        rc = ms_table_drop(ms, "default", name, false, err);
    if (!rc)
        rc = ms_db_drop(ms, name, false, false, err);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);
    if (rc && txn)
        ms_txn_abort(ms, txn, NULL);
    ms_close(ms);
    comb_arena_free(&a);
    return rc;
}

/* Run session with the k-th allocation failing, k = 1, 2, ... until it
 * gets through; *k_out is the last k.  COMB_OK, or the first error that is
 * not COMB_ENOMEM. */
static int oom_loop(const Fx *fx, int (*run)(const Fx *, int, CombErr *),
                    int *k_out, CombErr *err)
{
    int k, rc = COMB_ENOMEM;
    for (k = 1; k < 5000 && rc == COMB_ENOMEM; k++) {
        comb_alloc_fail_after(k);
        rc = run(fx, k, err);
        comb_alloc_fail_after(0);
        if (rc != COMB_OK && rc != COMB_ENOMEM)
            break;
    }
    *k_out = k;
    return rc;
}

MS_TEST(ms_oom_every_allocation)
{
    Fx fx;
    CombErr err;
    int k;
    fx_paths(&fx);
    CHECK_OK(oom_loop(&fx, session, &k, &err), &err);
    CHECK(k > 10); /* the countdown really hit something */
    /* a failed call changed nothing: every table exists whole or not at
     * all, no txn was left open, write-id sequences match their rows */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS t WHERE "
                             "(SELECT count(*) FROM COLUMNS_V2 c "
                             " WHERE c.TBL_ID = t.TBL_ID) <> 1 OR "
                             "(SELECT count(*) FROM BUCKETING_COLS b "
                             " WHERE b.TBL_ID = t.TBL_ID) <> 1 OR "
                             "(SELECT count(*) FROM TABLE_PARAMS p "
                             " WHERE p.TBL_ID = t.TBL_ID) <> 1"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2 WHERE TBL_ID "
                             "NOT IN (SELECT TBL_ID FROM TBLS)"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS "
                             "WHERE TXN_STATE = 'o'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_WRITE_ID n WHERE "
                             "NWI_NEXT - 1 <> (SELECT max(T2W_WRITEID) FROM "
                             "TXN_TO_WRITE_ID w WHERE w.T2W_TABLE = "
                             "n.NWI_TABLE)"), 0);
    CHECK(fx_sql_int(&fx, "SELECT count(*) FROM TBLS") > 0);
}

/* What the partition and ALTER calls leave after a failed attempt: every
 * partition whole, every table whole. */
static const char BROKEN_ROWS_SQL[] =
    "SELECT (SELECT count(*) FROM PARTITIONS p WHERE (SELECT count(*) FROM"
    "  PARTITION_KEY_VALS v WHERE v.PART_ID = p.PART_ID) <> 2)"
    " + (SELECT count(*) FROM PARTITION_KEY_VALS WHERE PART_ID NOT IN"
    "  (SELECT PART_ID FROM PARTITIONS))"
    " + (SELECT count(*) FROM PARTITION_PARAMS WHERE PART_ID NOT IN"
    "  (SELECT PART_ID FROM PARTITIONS))"
    " + (SELECT count(*) FROM TBLS t WHERE (SELECT count(*) FROM"
    "  PARTITION_KEYS k WHERE k.TBL_ID = t.TBL_ID) <> 2)"
    " + (SELECT count(*) FROM TXNS WHERE TXN_STATE = 'o')";

/* One session over the partition calls, on table p<k>: create, add,
 * list, get, set location, alter, txn components, seeds, drop, rename. */
static int session_parts(const Fx *fx, int k, CombErr *err)
{
    Ms *ms = NULL;
    CombArena a;
    MsColumn col = {"x", "int", NULL};
    MsColumn keys[] = {{"ds", "string", NULL}, {"hr", "int", NULL}};
    MsProperty param = {"numFiles", "1"}, spec = {"ds", "d1"};
    char *v1[2] = {"d1", "1"}, *v2[2] = {"d/2", NULL};
    MsPartition in[2] = {{.n_values = 2, .values = v1, .n_params = 1,
                          .params = &param},
                         {.n_values = 2, .values = v2}};
    MsTable t = {0}, *got;
    MsPartition *parts, *one;
    char name[32], renamed[32], *pname, **vals;
    bool added[2];
    int n, rc;
    int64_t txn = 0, w;
    snprintf(name, sizeof name, "p%d", k);
    snprintf(renamed, sizeof renamed, "r%d", k);
    t.db = "default";
    t.name = name;
    t.n_cols = 1;
    t.cols = &col;
    t.n_part_keys = 2;
    t.part_keys = keys;
    comb_arena_init(&a, 64);
    rc = fx_reopen(fx, NULL, &ms, err);
    if (!rc)
        rc = ms_table_create(ms, &t, false, err);
    if (!rc)
        rc = ms_part_add(ms, "default", name, in, 2, true, added, err);
    if (!rc)
        rc = ms_part_list(ms, "default", name, &spec, 1, &a, &parts, &n, err);
    if (!rc)
        rc = ms_table_get(ms, "default", name, &a, &got, err);
    if (!rc)
        rc = ms_part_name_make(got, v2, &a, &pname, err);
    if (!rc)
        rc = ms_part_name_parse(got, pname, &a, &vals, err);
    if (!rc)
        rc = ms_part_get(ms, "default", name, pname, &a, &one, err);
    if (!rc)
        rc = ms_part_set_location(ms, "default", name, pname, "/data/x", err);
    if (!rc)
        rc = ms_table_alter(ms, got, err);
    if (!rc)
        rc = ms_txn_open(ms, "u", "h", &txn, err);
    if (!rc)
        rc = ms_writeid_allocate(ms, txn, "default", name, &w, err);
    if (!rc)
        rc = ms_txn_add_partitions(ms, txn, "default", name, &pname, 1,
                                   MS_OP_INSERT, w, err);
    if (!rc)
        rc = ms_txn_commit(ms, txn, err);
    if (!rc)
        rc = ms_writeid_seed(ms, "default", name, 1, err);
    if (!rc)
        rc = ms_txnid_seed(ms, 1, err);
    if (!rc)
        rc = ms_part_drop(ms, "default", name, &pname, 1, false, err);
    if (!rc)
        rc = ms_table_rename(ms, "default", name, "default", renamed,
                             "/data/r", err);
    if (rc && txn)
        ms_txn_abort(ms, txn, NULL);
    ms_close(ms);
    comb_arena_free(&a);
    return rc;
}

MS_TEST(ms_oom_partition_calls)
{
    Fx fx;
    CombErr err;
    int k;
    fx_paths(&fx);
    CHECK_OK(oom_loop(&fx, session_parts, &k, &err), &err);
    CHECK(k > 10);
    CHECK_EQ(fx_sql_int(&fx, BROKEN_ROWS_SQL), 0);
    CHECK(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS") > 0);
}
