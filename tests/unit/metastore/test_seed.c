/* Adopting a directory written elsewhere (MSCK REPAIR of a transactional
 * table, as Hive 4): the write ids and visibility txn ids found on disk are
 * seeded so that every one of them reads as committed, and new ones are
 * handed out above them. */
#include "ms_fixture.h"
#include "common/arena.h"

/* The write-id list of default.t for a reader (txn 0 = none), as Hive's
 * string, into buf. */
static void writeid_text(Ms *ms, int64_t txn, char *buf, size_t cap)
{
    CombTxnList snap;
    CombWriteIdList wl;
    CombErr err;
    if (ms_txn_snapshot(ms, txn, &snap, &err) != COMB_OK) {
        snprintf(buf, cap, "error: %s", err.msg);
        return;
    }
    if (ms_writeid_list(ms, &snap, "default", "t", &wl, &err) != COMB_OK)
        snprintf(buf, cap, "error: %s", err.msg);
    else
        fx_take_text(comb_writeidlist_format(&wl), buf, cap);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);
}

MS_TEST(ms_writeid_seed_makes_disk_ids_committed)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList snap;
    char buf[200];
    int64_t txn, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    /* base_0000005, delta_0000006_0000007 found: 7 */
    CHECK_OK(ms_writeid_seed(ms, "default", "T", 7, &err), &err);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:7:9223372036854775807::");
    CHECK_EQ(fx_sql_int(&fx, "SELECT NWI_NEXT FROM NEXT_WRITE_ID"), 8);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 0);

    /* the next writer gets 8; while it runs, 1..7 stay valid */
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 8);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:8:8:8:");
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    CHECK_OK(ms_txn_abort(ms, txn, &err), &err);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:8:9223372036854775807::8");
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "t", &w, &err), &err);
    CHECK_EQ(w, 9);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:9:9223372036854775807::8");
    ms_close(ms);
}

MS_TEST(ms_writeid_seed_after_allocation)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char buf[200];
    int64_t txn, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    /* nothing found on disk: nothing seeded */
    CHECK_OK(ms_writeid_seed(ms, "default", "t", 0, &err), &err);
    CHECK_OK(ms_writeid_seed(ms, "default", "t", -5, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_WRITE_ID"), 0);
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
        CHECK_OK(ms_writeid_allocate(ms, txn, "default", "t", &w, &err),
                 &err);
        CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    }
    /* data older than what the metastore handed out is accepted as is */
    CHECK_OK(ms_writeid_seed(ms, "default", "t", 2, &err), &err);
    CHECK_OK(ms_writeid_seed(ms, "default", "t", 1, &err), &err);
    /* newer data cannot be: those ids belong to no txn here */
    CHECK_EQ(ms_writeid_seed(ms, "default", "t", 3, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "The maximum writeId 3 in table t is greater than the "
                       "maximum allocated in the metastore 2");
    CHECK_EQ(fx_sql_int(&fx, "SELECT NWI_NEXT FROM NEXT_WRITE_ID"), 3);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:2:9223372036854775807::");
    CHECK_EQ(ms_writeid_seed(ms, "default", "nope", 3, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.nope'");
    CHECK_EQ(ms_writeid_seed(ms, "default", NULL, 3, &err), COMB_EINVALID);
    ms_close(ms);
}

MS_TEST(ms_writeid_seed_twice_and_large)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char buf[200];
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    /* a converted table's delete deltas: delete_delta_10000001_10000001 */
    CHECK_OK(ms_writeid_seed(ms, "default", "t", 10000001, &err), &err);
    writeid_text(ms, 0, buf, sizeof buf);
    CHECK_STR(buf, "default.t:10000001:9223372036854775807::");
    /* a second repair over the same directories changes nothing */
    CHECK_OK(ms_writeid_seed(ms, "default", "t", 10000001, &err), &err);
    CHECK_EQ(ms_writeid_seed(ms, "default", "t", 10000002, &err),
             COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NWI_NEXT FROM NEXT_WRITE_ID"), 10000002);
    /* the largest id would leave none to hand out after it */
    CHECK_EQ(ms_writeid_seed(ms, "default", "t", INT64_MAX, &err),
             COMB_EINVALID);
    CHECK_EQ(ms_txnid_seed(ms, INT64_MAX, &err), COMB_EINVALID);
    CHECK_OK(ms_txnid_seed(ms, INT64_MAX - 1, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), INT64_MAX);
    ms_close(ms);
}

MS_TEST(ms_txnid_seed_makes_visibility_ids_committed)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList snap;
    char *s;
    int64_t open_txn, txn;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &open_txn, &err), &err);
    /* base_0000005_v0000100 found */
    CHECK_OK(ms_txnid_seed(ms, 100, &err), &err);
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    s = comb_txnlist_format(&snap);
    CHECK_STR(s, "100:1:1:");
    comb_free(s);
    CHECK(comb_idlist_is_valid(&snap, 100));
    CHECK(comb_idlist_is_valid(&snap, 2));
    CHECK(!comb_idlist_is_valid(&snap, open_txn));
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(txn, 101);
    /* never lowered, never an error */
    CHECK_OK(ms_txnid_seed(ms, 50, &err), &err);
    CHECK_OK(ms_txnid_seed(ms, 101, &err), &err);
    CHECK_OK(ms_txnid_seed(ms, 0, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(txn, 102);
    CHECK_OK(ms_txnid_seed(ms, 102, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), 103);
    /* the open txn still commits */
    CHECK_OK(ms_txn_commit(ms, open_txn, &err), &err);
    CHECK_EQ(ms_txnid_seed(NULL, 5, &err), COMB_EINVALID);
    ms_close(ms);
}
