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
    rc = ms_open_sqlite(fx->db, fx->warehouse, &ms, err);
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

TEST(ms_oom_every_allocation)
{
    Fx fx;
    CombErr err;
    int k, rc = COMB_ENOMEM;
    fx_paths(&fx);
    for (k = 1; k < 1000 && rc == COMB_ENOMEM; k++) {
        comb_alloc_fail_after(k);
        rc = session(&fx, k, &err);
        comb_alloc_fail_after(0);
        if (rc != COMB_OK && rc != COMB_ENOMEM)
            break;
    }
    CHECK_OK(rc, &err);
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
