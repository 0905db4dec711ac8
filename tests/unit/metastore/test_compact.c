/* The compaction queue and history (ms_compact_*), on both backends:
 * Hive's refusal of a second request for a queued partition, claims that
 * never hand one entry to two workers, timed-out workers whose txn is
 * aborted and whose entry is claimed again, the commit that makes an entry
 * ready for cleaning with the next txn id, the cleaner's list that waits
 * for every older txn, history with its retention, ABORT COMPACTIONS. */
#include "ms_fixture.h"

#include <unistd.h>

static int enqueue(Ms *ms, const char *part, MsCompactType type,
                   bool *accepted, int64_t *id, MsCompactState *state,
                   CombErr *err)
{
    MsCompactRequest rq = {"Default", "T", part, type, "k=v", "h-manual"};
    return ms_compact_enqueue(ms, &rq, accepted, id, state, err);
}

static int open_compactor_txn(Ms *ms, int64_t *txn, CombErr *err)
{
    MsTxnBegin rq = {"u", "h", MS_TXN_TYPE_COMPACTION, 0, NULL};
    CombTxnList snap;
    bool have = false;
    int rc = ms_txn_begin(ms, &rq, txn, NULL, &snap, &have, err);
    if (have)
        comb_idlist_free(&snap);
    return rc;
}

MS_TEST(ms_compact_enqueue_refuses_queued_partition)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    bool accepted;
    int64_t id, id2;
    MsCompactState state;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(enqueue(ms, "p=1", MS_CQ_MAJOR, &accepted, &id, &state, &err),
             &err);
    CHECK(accepted);
    CHECK_EQ(id, 1);
    CHECK_EQ(state, MS_CQ_INITIATED);
    /* the same partition again, any type: refused, naming the entry */
    CHECK_OK(enqueue(ms, "p=1", MS_CQ_MINOR, &accepted, &id2, &state, &err),
             &err);
    CHECK(!accepted);
    CHECK_EQ(id2, 1);
    CHECK_EQ(state, MS_CQ_INITIATED);
    /* another partition and the table level are other entries */
    CHECK_OK(enqueue(ms, "p=2", MS_CQ_MINOR, &accepted, &id2, &state, &err),
             &err);
    CHECK(accepted);
    CHECK_EQ(id2, 2);
    CHECK_OK(enqueue(ms, NULL, MS_CQ_MINOR, &accepted, &id2, &state, &err),
             &err);
    CHECK(accepted);
    CHECK_EQ(id2, 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPACTION_QUEUE"
                             " WHERE CQ_DATABASE = 'default' AND"
                             " CQ_TABLE = 't' AND CQ_TBLPROPERTIES = 'k=v'"),
             3);
    CHECK_EQ(enqueue(ms, "p=1", (MsCompactType)'z', &accepted, &id2, &state,
                     &err),
             COMB_EINVALID);
    CHECK(strstr(err.msg, "Invalid compaction type") != NULL);
    ms_close(ms);
}

MS_TEST(ms_compact_claim_commit_clean)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsCompaction c, *rows;
    bool accepted, found;
    int64_t id, ctxn, reader, other;
    int n;
    MsCompactState state;
    comb_arena_init(&a, 4096);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(enqueue(ms, NULL, MS_CQ_MAJOR, &accepted, &id, &state, &err),
             &err);
    CHECK_OK(ms_compact_claim(ms, "h-1-0", 0, 0, &a, &c, &found, &err), &err);
    CHECK(found);
    CHECK_EQ(c.id, id);
    CHECK_EQ(c.state, MS_CQ_WORKING);
    CHECK_STR(c.worker_id, "h-1-0");
    CHECK_STR(c.db, "default");
    CHECK(c.partition == NULL);
    CHECK(c.start > 0);
    /* nothing left for a second worker; a working entry refuses requests */
    CHECK_OK(ms_compact_claim(ms, "h-2-0", 0, 0, &a, &c, &found, &err), &err);
    CHECK(!found);
    CHECK_OK(enqueue(ms, NULL, MS_CQ_MINOR, &accepted, &other, &state, &err),
             &err);
    CHECK(!accepted);
    CHECK_EQ(state, MS_CQ_WORKING);
    /* a reader that began before the compaction commits */
    CHECK_OK(ms_txn_open(ms, "u", "h", &reader, &err), &err);
    CHECK_OK(open_compactor_txn(ms, &ctxn, &err), &err);
    CHECK_OK(ms_compact_set_txn(ms, id, ctxn, 7, &err), &err);
    /* the worker's progress is on the entry while it works */
    CHECK_OK(ms_compact_progress(ms, id, "37% (12 rows, 3 of 8 B)", &err),
             &err);
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_STR(rows[0].progress, "37% (12 rows, 3 of 8 B)");
    CHECK_EQ(ms_compact_commit(ms, id + 1, ctxn, &err), COMB_ENOTFOUND);
    CHECK_OK(ms_compact_commit(ms, id, ctxn, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_STATE = 'c'"
                             " AND TXN_TYPE = 3"),
             1);
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_EQ(rows[0].state, MS_CQ_READY_FOR_CLEANING);
    CHECK_EQ(rows[0].highest_writeid, 7);
    CHECK_EQ(rows[0].txnid, ctxn);
    CHECK_EQ(rows[0].next_txnid, ctxn + 1);
    CHECK(rows[0].worker_id == NULL);
    /* the reader is open: not ready for the cleaner yet */
    CHECK_OK(ms_compact_list(ms, true, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 0);
    /* a txn that began after the commit does not hold it back */
    CHECK_OK(ms_txn_open(ms, "u", "h", &other, &err), &err);
    CHECK_OK(ms_txn_commit(ms, reader, &err), &err);
    CHECK_OK(ms_compact_list(ms, true, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_EQ(rows[0].id, id);
    CHECK_OK(ms_compact_finish(ms, id, MS_CQ_SUCCEEDED, NULL, NULL, &err),
             &err);
    CHECK_EQ(ms_compact_finish(ms, id, MS_CQ_SUCCEEDED, NULL, NULL, &err),
             COMB_ENOTFOUND);
    CHECK_EQ(ms_compact_finish(ms, id, MS_CQ_WORKING, NULL, NULL, &err),
             COMB_EINVALID);
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_EQ(rows[0].state, MS_CQ_SUCCEEDED);
    CHECK(rows[0].end >= rows[0].start);
    CHECK_STR(ms_compact_state_name(rows[0].state), "succeeded");
    /* and stays with it in the history; nothing changes it there */
    CHECK_STR(rows[0].progress, "37% (12 rows, 3 of 8 B)");
    CHECK_OK(ms_compact_progress(ms, id, "50%", &err), &err);
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_STR(rows[0].progress, "37% (12 rows, 3 of 8 B)");
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPACTION_QUEUE"), 0);
    comb_arena_free(&a);
    ms_close(ms);
}

MS_TEST(ms_compact_timed_out_worker_is_retried)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsCompaction c;
    bool accepted, found;
    int64_t id, ctxn;
    MsTxnState ts;
    MsCompactState state;
    comb_arena_init(&a, 4096);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(enqueue(ms, "p=1", MS_CQ_MINOR, &accepted, &id, &state, &err),
             &err);
    CHECK_OK(ms_compact_claim(ms, "h-1-0", 0, id, &a, &c, &found, &err),
             &err);
    CHECK(found);
    CHECK_OK(open_compactor_txn(ms, &ctxn, &err), &err);
    CHECK_OK(ms_compact_set_txn(ms, id, ctxn, 3, &err), &err);
    /* the worker dies; within the timeout the entry stays its own */
    CHECK_OK(ms_compact_claim(ms, "h-2-0", 3600000, 0, &a, &c, &found, &err),
             &err);
    CHECK(!found);
    usleep(20000);
    CHECK_OK(ms_compact_claim(ms, "h-2-0", 10, 0, &a, &c, &found, &err),
             &err);
    CHECK(found);
    CHECK_EQ(c.id, id);
    CHECK_STR(c.worker_id, "h-2-0");
    CHECK_EQ(c.txnid, 0);
    CHECK_OK(ms_txn_state(ms, ctxn, &ts, &err), &err);
    CHECK_EQ(ts, MS_TXN_ABORTED);
    /* the dead worker's late commit is refused */
    CHECK_EQ(ms_compact_commit(ms, id, ctxn, &err), COMB_ENOTFOUND);
    /* its txn stays known as aborted through housekeeping (its 'c'
     * component), so what it wrote stays invisible */
    {
        MsHousekeeping hk = {1, 0};
        MsHousekeepResult hr;
        char q[200];
        CombTxnList snap;
        usleep(20000);
        CHECK_OK(ms_housekeep(ms, &hk, &hr, &err), &err);
        snprintf(q, sizeof q, "SELECT count(*) FROM TXNS WHERE TXN_ID = %lld"
                              " AND TXN_STATE = 'a'", (long long)ctxn);
        CHECK_EQ(fx_sql_int(&fx, q), 1);
        CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
        CHECK(comb_idlist_is_aborted(&snap, ctxn));
        comb_idlist_free(&snap);
    }
    comb_arena_free(&a);
    ms_close(ms);
}

MS_TEST(ms_compact_history_retention_and_abort)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsCompaction c, *rows;
    MsCompactRetention keep = {3, 2, 2, 3, 3};
    bool accepted, found, done[3];
    int64_t id, ids[3];
    int n;
    MsCompactState state;
    comb_arena_init(&a, 4096);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    for (int i = 0; i < 4; i++) {
        CHECK_OK(enqueue(ms, "p=1", MS_CQ_MAJOR, &accepted, &id, &state,
                         &err),
                 &err);
        CHECK(accepted);
        CHECK_OK(ms_compact_claim(ms, "w", 0, 0, &a, &c, &found, &err),
                 &err);
        CHECK_OK(ms_compact_finish(ms, id, MS_CQ_FAILED, "disk on fire",
                                   &keep, &err),
                 &err);
    }
    /* two failures kept, the newest ones, with their message */
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 2);
    CHECK_EQ(rows[0].id, 3);
    CHECK_EQ(rows[1].id, 4);
    CHECK_STR(rows[1].error, "disk on fire");
    CHECK_EQ(rows[1].state, MS_CQ_FAILED);
    /* ABORT COMPACTIONS: only initiated entries */
    CHECK_OK(enqueue(ms, "p=2", MS_CQ_MAJOR, &accepted, &ids[0], &state,
                     &err),
             &err);
    CHECK_OK(enqueue(ms, "p=3", MS_CQ_MAJOR, &accepted, &ids[1], &state,
                     &err),
             &err);
    CHECK_OK(ms_compact_claim(ms, "w", 0, ids[1], &a, &c, &found, &err),
             &err);
    ids[2] = 999;
    CHECK_OK(ms_compact_abort(ms, ids, 3, done, &err), &err);
    CHECK(done[0]);
    CHECK(!done[1]);
    CHECK(!done[2]);
    CHECK_OK(ms_compact_list(ms, false, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 4);
    CHECK_EQ(rows[2].id, ids[0]);
    CHECK_EQ(rows[2].state, MS_CQ_ABORTED);
    CHECK_EQ(rows[3].state, MS_CQ_WORKING);
    /* an aborted request no longer stands in the way */
    CHECK_OK(enqueue(ms, "p=2", MS_CQ_MINOR, &accepted, &id, &state, &err),
             &err);
    CHECK(accepted);
    comb_arena_free(&a);
    ms_close(ms);
}
