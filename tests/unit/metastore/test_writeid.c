/* Write ids: allocation per (txn, table), the per-table sequence, Hive's
 * getValidWriteIds lists, and the bookkeeping dropped with a table. */
#include "ms_fixture.h"
#include "common/alloc.h"
#include "metastore/ms_int.h"

/* Write-id list of db.table under txnid's snapshot, as Hive's string. */
static int writeids_str(Ms *ms, int64_t txnid, const char *table, char *buf,
                        size_t n, CombErr *err)
{
    CombTxnList txns;
    CombWriteIdList w;
    int rc = ms_txn_snapshot(ms, txnid, &txns, err);
    if (rc)
        return rc;
    rc = ms_writeid_list(ms, &txns, "default", table, &w, err);
    comb_idlist_free(&txns);
    if (rc)
        return rc;
    fx_take_text(comb_writeidlist_format(&w), buf, n);
    comb_writeidlist_free(&w);
    return COMB_OK;
}

MS_TEST(ms_writeid_allocation)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t t1, t2, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 1);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 2);
    /* idempotent per txn and table, names in any case */
    CHECK_OK(ms_writeid_allocate(ms, t2, "DEFAULT", "T", &w, &err), &err);
    CHECK_EQ(w, 1);
    /* every table has its own sequence */
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "u", &w, &err), &err);
    CHECK_EQ(w, 1);
    CHECK_OK(ms_writeid_allocate(ms, t1, "other", "t", &w, &err), &err);
    CHECK_EQ(w, 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NWI_NEXT FROM NEXT_WRITE_ID "
                             "WHERE NWI_DATABASE = 'default' "
                             "AND NWI_TABLE = 't'"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT T2W_WRITEID FROM TXN_TO_WRITE_ID "
                             "WHERE T2W_TXNID = 1 AND T2W_TABLE = 't'"), 2);

    /* only open txns get write ids */
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_abort(ms, t2, &err), &err);
    CHECK_EQ(ms_writeid_allocate(ms, t1, "default", "v", &w, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Write ID allocation failed on default.v as not all "
                       "input txns in open state or read-only");
    CHECK_EQ(ms_writeid_allocate(ms, t2, "default", "v", &w, &err), COMB_ETXN);
    CHECK_EQ(ms_writeid_allocate(ms, 77, "default", "v", &w, &err), COMB_ETXN);
    CHECK_EQ(ms_writeid_allocate(ms, t1, "default", NULL, &w, &err),
             COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_WRITE_ID "
                             "WHERE NWI_TABLE = 'v'"), 0);
    ms_close(ms);
}

MS_TEST(ms_writeid_list_open_aborted_committed)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList txns;
    CombWriteIdList wl;
    char s[200];
    int64_t t1, t2, t3, t4, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(writeids_str(ms, 0, "t", s, sizeof s, &err), &err);
    CHECK_STR(s, "default.t:0:9223372036854775807::");

    /* txn 1 writes w1 and aborts, txn 2 writes w2 and stays open, txn 3
     * writes w3 and commits; txn 4 reads */
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "t", &w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "t", &w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t3, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 3);
    CHECK_OK(ms_txn_abort(ms, t1, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t3, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t4, &err), &err);

    CHECK_OK(writeids_str(ms, t4, "t", s, sizeof s, &err), &err);
    CHECK_STR(s, "default.t:3:2:2:1");
    CHECK_OK(ms_txn_snapshot(ms, t4, &txns, &err), &err);
    CHECK_OK(ms_writeid_list(ms, &txns, "default", "T", &wl, &err), &err);
    CHECK_STR(wl.table, "default.t");
    CHECK(comb_idlist_is_aborted(&wl.ids, 1));
    CHECK(comb_idlist_is_open(&wl.ids, 2));
    CHECK(comb_idlist_is_valid(&wl.ids, 3));
    comb_writeidlist_free(&wl);
    comb_idlist_free(&txns);

    /* the writer sees its own write id; w3 is above its hwm */
    CHECK_OK(writeids_str(ms, t2, "t", s, sizeof s, &err), &err);
    CHECK_STR(s, "default.t:2:9223372036854775807::1");

    /* table u: only an open writer and nothing valid: Hive keeps the
     * lowest invalid id as the hwm */
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "u", &w, &err), &err);
    CHECK_OK(writeids_str(ms, t4, "u", s, sizeof s, &err), &err);
    CHECK_STR(s, "default.u:1:1:1:");

    /* table v: written by a txn newer than the reader's snapshot */
    {
        int64_t t5;
        CHECK_OK(ms_txn_open(ms, "u", "h", &t5, &err), &err);
        CHECK_OK(ms_writeid_allocate(ms, t5, "default", "v", &w, &err), &err);
        CHECK_OK(ms_txn_commit(ms, t5, &err), &err);
        CHECK_OK(writeids_str(ms, t4, "v", s, sizeof s, &err), &err);
        CHECK_STR(s, "default.v:1:1:1:");
        CHECK_OK(writeids_str(ms, 0, "v", s, sizeof s, &err), &err);
        CHECK_STR(s, "default.v:1:9223372036854775807::");
    }

    /* once txn 2 commits, the reader sees w2 too */
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_OK(writeids_str(ms, t4, "t", s, sizeof s, &err), &err);
    CHECK_STR(s, "default.t:3:9223372036854775807::1");
    CHECK_EQ(ms_writeid_list(ms, NULL, "default", "t", &wl, &err),
             COMB_EINVALID);
    ms_close(ms);
}

MS_TEST(ms_writeid_table_drop_resets_sequence)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t t1, t2, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "t", &w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "keep", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t1, "default", "t", NULL, MS_OP_INSERT,
                                  1, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_table_drop(ms, "default", "t", false, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_WRITE_ID "
                             "WHERE NWI_TABLE = 't'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID "
                             "WHERE T2W_TABLE = 't'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS"),
             0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 1);

    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 1);
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    ms_close(ms);
}

/* The pure algorithm of ms_int.h against cases the database rarely
 * produces (rows cleaned away). */
TEST(ms_writeids_build_cases)
{
    CombErr err;
    CombTxnList txns;
    CombWriteIdList wl;
    int64_t open_txn[] = {7}, aborted_txn[] = {5};
    /* write 4 by aborted txn 5, write 6 by open txn 7, nothing valid */
    MsWriteRow rows[] = {{5, 4}, {7, 6}};
    MsTxnRow trows[] = {
        {5, MS_TXN_ABORTED}, {7, MS_TXN_OPEN}, {9, MS_TXN_OPEN}};
    char *s;
    CHECK_OK(comb_idlist_init(&txns, 10, open_txn, 1, aborted_txn, 1), &err);
    CHECK_OK(ms_writeids_build(&txns, "d", "t", 6, rows, 2, &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "d.t:4:9223372036854775807::4");
    comb_free(s);
    comb_writeidlist_free(&wl);
    CHECK_OK(ms_writeids_build(&txns, "d", "t", 6, rows + 1, 1, &wl, &err),
             &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "d.t:6:6:6:");
    comb_free(s);
    comb_writeidlist_free(&wl);
    CHECK_OK(ms_writeids_build(&txns, "d", "t", 0, NULL, 0, &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "d.t:0:9223372036854775807::");
    comb_free(s);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&txns);

    CHECK_OK(ms_snapshot_build(9, trows, 3, 8, &txns, &err), &err);
    s = comb_txnlist_format(&txns);
    CHECK_STR(s, "8:7:7:5");
    comb_free(s);
    comb_idlist_free(&txns);
    /* a current txn above the hwm (not yet visible) keeps the hwm */
    CHECK_OK(ms_snapshot_build(9, trows, 3, 12, &txns, &err), &err);
    s = comb_txnlist_format(&txns);
    CHECK_STR(s, "9:7:7,9:5");
    comb_free(s);
    comb_idlist_free(&txns);
}
