/* Locks: Hive 4's conflict matrix with its database-level exceptions, the
 * FIFO queue (a request is only blocked by earlier ones, and waits whole),
 * same-txn rows, BLOCKEDBY bookkeeping, zero-wait reads, unlock, release
 * at commit and abort, SHOW LOCKS filters, and the deadlock search. */
#include "ms_fixture.h"

#include <stdlib.h>

static MsLockRow row(MsLockType type, const char *table, const char *part)
{
    MsLockRow r = {0};
    r.db = "default";
    r.table = (char *)table;
    r.partition = (char *)part;
    r.type = type;
    return r;
}

/* conflicts(requested, existing) for every pair at table level */
TEST(ms_lock_matrix)
{
    static const MsLockType types[4] = {MS_LOCK_SHARED_READ,
                                        MS_LOCK_SHARED_WRITE,
                                        MS_LOCK_EXCL_WRITE, MS_LOCK_EXCLUSIVE};
    /* Hive 4: rows requested, columns existing */
    static const bool want[4][4] = {
        {false, false, false, true},
        {false, false, true, true},
        {false, true, true, true},
        {true, true, true, true},
    };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            MsLockRow rq = row(types[i], "t", NULL);
            MsLockRow ex = row(types[j], "t", NULL);
            if (ms_lock_conflicts(&rq, &ex) != want[i][j]) {
                unit_fail(__FILE__, __LINE__, "%c requested vs %c existing",
                          types[i], types[j]);
                return;
            }
        }
}

/* A database-level SHARED_READ only protects the database from DROP. */
TEST(ms_lock_matrix_database_level)
{
    MsLockRow db_read = row(MS_LOCK_SHARED_READ, NULL, NULL);
    MsLockRow db_excl = row(MS_LOCK_EXCLUSIVE, NULL, NULL);
    MsLockRow t_excl = row(MS_LOCK_EXCLUSIVE, "t", NULL);
    MsLockRow p_excl = row(MS_LOCK_EXCLUSIVE, "t", "p=1");
    MsLockRow t_read = row(MS_LOCK_SHARED_READ, "t", NULL);
    CHECK(!ms_lock_conflicts(&db_read, &t_excl));
    CHECK(!ms_lock_conflicts(&db_read, &p_excl));
    CHECK(!ms_lock_conflicts(&t_excl, &db_read));
    CHECK(!ms_lock_conflicts(&p_excl, &db_read));
    CHECK(ms_lock_conflicts(&db_excl, &db_read));
    CHECK(ms_lock_conflicts(&db_read, &db_excl));
    CHECK(ms_lock_conflicts(&t_read, &p_excl));
    CHECK(ms_lock_conflicts(&db_excl, &t_read));
}

TEST(ms_lock_overlap)
{
    MsLockRow db = row(MS_LOCK_SHARED_READ, NULL, NULL);
    MsLockRow t = row(MS_LOCK_SHARED_READ, "t", NULL);
    MsLockRow u = row(MS_LOCK_SHARED_READ, "u", NULL);
    MsLockRow p1 = row(MS_LOCK_SHARED_READ, "t", "p=1");
    MsLockRow p2 = row(MS_LOCK_SHARED_READ, "t", "p=2");
    MsLockRow other = row(MS_LOCK_SHARED_READ, "t", NULL);
    other.db = "other";
    CHECK(ms_lock_overlaps(&db, &p1));
    CHECK(ms_lock_overlaps(&t, &p1));
    CHECK(ms_lock_overlaps(&p1, &p1));
    CHECK(!ms_lock_overlaps(&p1, &p2));
    CHECK(!ms_lock_overlaps(&t, &u));
    CHECK(!ms_lock_overlaps(&t, &other));
}

/* Request `type` on default.t[/part] for open txn txnid. */
static int lock_one(Ms *ms, int64_t txnid, MsLockType type, const char *part,
                    MsLockStatus *st, CombErr *err)
{
    MsLockComponent c = {"default", "t", part, type};
    MsLockRequest rq = {txnid, "u", "h", "q1", &c, 1, false};
    return ms_lock(ms, &rq, st, err);
}

static int open_txn(Ms *ms, int64_t *txnid, CombErr *err)
{
    return ms_txn_open(ms, "u", "h", txnid, err);
}

MS_TEST(ms_lock_queue)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a, b, c, d;
    int64_t t1, t2, t3, t4;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(open_txn(ms, &t3, &err), &err);
    CHECK_OK(open_txn(ms, &t4, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCL_WRITE, "p=1", &a, &err), &err);
    CHECK_EQ(a.state, MS_LOCK_ACQUIRED);
    CHECK_EQ(a.extid, 1);
    /* the same txn's own locks never block it */
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCLUSIVE, "p=1", &a, &err), &err);
    CHECK_EQ(a.state, MS_LOCK_ACQUIRED);
    CHECK_EQ(a.extid, 2);
    /* another partition: no overlap */
    CHECK_OK(lock_one(ms, t2, MS_LOCK_EXCL_WRITE, "p=2", &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_ACQUIRED);
    /* the whole table overlaps both: waits for the first */
    CHECK_OK(lock_one(ms, t3, MS_LOCK_SHARED_WRITE, NULL, &c, &err), &err);
    CHECK_EQ(c.state, MS_LOCK_WAITING);
    CHECK_EQ(c.blocker_extid, 1);
    CHECK_EQ(c.blocker_intid, 1);
    CHECK_EQ(c.blocker_txnid, t1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT HL_BLOCKEDBY_EXT_ID FROM HIVE_LOCKS "
                             "WHERE HL_LOCK_EXT_ID = 4"), 1);
    /* a reader of p=2 conflicts with nothing before it, the waiting
     * SHARED_WRITE included */
    CHECK_OK(lock_one(ms, t4, MS_LOCK_SHARED_READ, "p=2", &d, &err), &err);
    CHECK_EQ(d.state, MS_LOCK_ACQUIRED);
    /* a reader of p=1 waits for t1's EXCLUSIVE on it */
    CHECK_OK(lock_one(ms, t4, MS_LOCK_SHARED_READ, "p=1", &d, &err), &err);
    CHECK_EQ(d.state, MS_LOCK_WAITING);
    CHECK_EQ(d.blocker_extid, 2);
    /* t1 ends: t3 is blocked by t2 now, then by nothing */
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_lock_check(ms, t3, c.extid, false, &c, &err), &err);
    CHECK_EQ(c.state, MS_LOCK_WAITING);
    CHECK_EQ(c.blocker_txnid, t2);
    CHECK_OK(ms_lock_check(ms, t4, d.extid, false, &d, &err), &err);
    CHECK_EQ(d.state, MS_LOCK_ACQUIRED);
    CHECK_OK(ms_txn_abort(ms, t2, &err), &err);
    CHECK_OK(ms_lock_check(ms, t3, c.extid, false, &c, &err), &err);
    CHECK_EQ(c.state, MS_LOCK_ACQUIRED);
    CHECK(fx_sql_int(&fx, "SELECT HL_ACQUIRED_AT FROM HIVE_LOCKS "
                          "WHERE HL_LOCK_EXT_ID = 4") > 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS WHERE "
                             "HL_BLOCKEDBY_EXT_ID IS NOT NULL"), 0);
    CHECK_OK(ms_txn_commit(ms, t3, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t4, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS"), 0);
    ms_close(ms);
}

/* A request is granted or waits whole: one blocked component keeps every
 * other one waiting too, and a later request cannot jump a waiting one
 * it conflicts with. */
MS_TEST(ms_lock_request_is_one_unit)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a, b, c;
    MsLockComponent two[2] = {{"default", "u", NULL, MS_LOCK_EXCLUSIVE},
                              {"default", "t", NULL, MS_LOCK_EXCLUSIVE}};
    MsLockRequest rq = {0, "u", "h", NULL, two, 2, false};
    int64_t t1, t2, t3;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(open_txn(ms, &t3, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_SHARED_READ, NULL, &a, &err), &err);
    rq.txnid = t2;
    CHECK_OK(ms_lock(ms, &rq, &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_WAITING);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS WHERE "
                             "HL_TXNID = 2 AND HL_LOCK_STATE = 'w'"), 2);
    /* t3's reader of t waits behind t2's waiting EXCLUSIVE (FIFO) */
    CHECK_OK(lock_one(ms, t3, MS_LOCK_SHARED_READ, NULL, &c, &err), &err);
    CHECK_EQ(c.state, MS_LOCK_WAITING);
    CHECK_EQ(c.blocker_txnid, t2);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_lock_check(ms, t2, b.extid, false, &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_ACQUIRED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS WHERE "
                             "HL_TXNID = 2 AND HL_LOCK_STATE = 'a'"), 2);
    ms_close(ms);
}

MS_TEST(ms_lock_zero_wait_read_and_unlock)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a, b;
    MsLockComponent c = {"default", "t", NULL, MS_LOCK_SHARED_READ};
    MsLockRequest rq = {0, "u", "h", NULL, &c, 1, true};
    int64_t t1, t2;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCLUSIVE, NULL, &a, &err), &err);
    rq.txnid = t2;
    CHECK_OK(ms_lock(ms, &rq, &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_REFUSED);
    CHECK_EQ(b.blocker_type, MS_LOCK_EXCLUSIVE);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS WHERE "
                             "HL_TXNID = 2"), 0);
    /* waiting without zero-wait, then given up */
    CHECK_OK(lock_one(ms, t2, MS_LOCK_SHARED_READ, NULL, &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_WAITING);
    CHECK_OK(ms_unlock(ms, b.extid, &err), &err);
    CHECK_EQ(ms_unlock(ms, b.extid, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "No such lock: lockid:3");
    /* acquired locks of a txn are not unlocked */
    CHECK_EQ(ms_unlock(ms, a.extid, &err), COMB_ENOTFOUND);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS"), 1);
    CHECK_EQ(ms_lock_check(ms, t2, 99, false, &b, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "No such lock: lockid:99");
    ms_close(ms);
}

/* A component with an operation records the txn's write with the
 * request (TXN_COMPONENTS, moved to COMPLETED_TXN_COMPONENTS at commit),
 * one row per writing component; a refused request records nothing; a
 * database cannot be written and an unknown operation is refused. */
MS_TEST(ms_lock_records_write_components)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus st;
    MsLockComponent w[3] = {
        {"default", "t", "p=1", MS_LOCK_SHARED_READ, MS_OP_INSERT, 7},
        {"default", "u", NULL, MS_LOCK_SHARED_READ, MS_OP_NONE, 0},
        {"default", "v", NULL, MS_LOCK_SHARED_READ, MS_OP_INSERT, 3}};
    MsLockComponent bad = {"default", NULL, NULL, MS_LOCK_SHARED_READ,
                           MS_OP_INSERT, 1};
    MsLockRequest rq = {0, "u", "h", NULL, w, 3, false};
    int64_t t1, t2, t3;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(open_txn(ms, &t3, &err), &err);
    rq.txnid = t1;
    CHECK_OK(ms_lock(ms, &rq, &st, &err), &err);
    CHECK_EQ(st.state, MS_LOCK_ACQUIRED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS WHERE "
                             "TC_TXNID = 1"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS WHERE "
                             "TC_TXNID = 1 AND TC_TABLE = 't' AND "
                             "TC_PARTITION = 'p=1' AND TC_OPERATION_TYPE = "
                             "'i' AND TC_WRITEID = 7"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS WHERE "
                             "TC_TXNID = 1 AND TC_TABLE = 'v' AND "
                             "TC_PARTITION IS NULL AND TC_WRITEID = 3"), 1);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_TXNID = 1"), 2);
    /* refused (zero-wait read behind an EXCLUSIVE): no component */
    CHECK_OK(lock_one(ms, t2, MS_LOCK_EXCLUSIVE, NULL, &st, &err), &err);
    w[0].partition = NULL;
    rq = (MsLockRequest){t3, "u", "h", NULL, w, 1, true};
    CHECK_OK(ms_lock(ms, &rq, &st, &err), &err);
    CHECK_EQ(st.state, MS_LOCK_REFUSED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS WHERE "
                             "TC_TXNID = 3"), 0);
    rq = (MsLockRequest){t3, "u", "h", NULL, &bad, 1, false};
    CHECK_EQ(ms_lock(ms, &rq, &st, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "lock component 1 writes a database: a txn writes "
                       "tables and partitions");
    bad.table = "t";
    bad.op = (MsOpType)'x';
    CHECK_EQ(ms_lock(ms, &rq, &st, &err), COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS"), 0);
    ms_close(ms);
}

/* Locks of an ended txn are gone; asking for one says why. */
MS_TEST(ms_lock_needs_open_txn)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a;
    int64_t t1, t2;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCLUSIVE, NULL, &a, &err), &err);
    CHECK_OK(ms_txn_abort_reason(ms, t1, MS_ABORT_BY_QUERY, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS"), 0);
    CHECK_EQ(ms_lock_check(ms, t1, a.extid, false, &a, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:1 already aborted (abort by query "
                       "command)");
    CHECK_EQ(lock_one(ms, t1, MS_LOCK_SHARED_READ, NULL, &a, &err), COMB_ETXN);
    CHECK_EQ(lock_one(ms, 77, MS_LOCK_SHARED_READ, NULL, &a, &err), COMB_ETXN);
    CHECK_STR(err.msg, "No such transaction txnid:77");
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_EQ(lock_one(ms, t2, MS_LOCK_SHARED_READ, NULL, &a, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:2 is already committed.");
    ms_close(ms);
}

MS_TEST(ms_lock_list_filters)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsLockRow *rows;
    MsLockStatus st;
    MsLockComponent comps[3] = {{"default", NULL, NULL, MS_LOCK_SHARED_READ},
                                {"default", "t", "p=1", MS_LOCK_EXCL_WRITE},
                                {"other", "t", NULL, MS_LOCK_SHARED_READ}};
    MsLockRequest rq = {0, "alice", "box", "query-7", comps, 3, false};
    int n;
    int64_t t1;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    rq.txnid = t1;
    CHECK_OK(ms_lock(ms, &rq, &st, &err), &err);
    CHECK_OK(ms_lock_list(ms, NULL, NULL, NULL, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK_EQ(rows[1].extid, 1);
    CHECK_EQ(rows[1].intid, 2);
    CHECK_EQ(rows[1].txnid, t1);
    CHECK_STR(rows[1].partition, "p=1");
    CHECK_EQ(rows[1].type, MS_LOCK_EXCL_WRITE);
    CHECK_EQ(rows[1].state, MS_LOCK_ACQUIRED);
    CHECK_STR(rows[1].user, "alice");
    CHECK_STR(rows[1].host, "box");
    CHECK_STR(rows[1].agent_info, "query-7");
    CHECK_EQ(rows[1].last_heartbeat, 0);
    CHECK(rows[1].acquired_at > 0);
    CHECK(rows[0].table == NULL);
    CHECK_OK(ms_lock_list(ms, "DEFAULT", NULL, NULL, &a, &rows, &n, &err),
             &err);
    CHECK_EQ(n, 2);
    CHECK_OK(ms_lock_list(ms, "default", "T", NULL, &a, &rows, &n, &err),
             &err);
    CHECK_EQ(n, 1);
    CHECK_OK(ms_lock_list(ms, "default", "t", "p=2", &a, &rows, &n, &err),
             &err);
    CHECK_EQ(n, 0);
    CHECK_EQ(ms_lock_list(ms, NULL, "t", NULL, &a, &rows, &n, &err),
             COMB_EINVALID);
    ms_close(ms);
    comb_arena_free(&a);
}

/* Opening with a lock request: the txn, its request and its snapshot in
 * one step, the snapshot only once the locks are granted. */
MS_TEST(ms_txn_begin_with_locks)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList snap;
    MsLockStatus st;
    MsLockComponent c = {"default", "t", NULL, MS_LOCK_EXCL_WRITE};
    MsLockRequest locks = {0, NULL, NULL, NULL, &c, 1, false};
    MsTxnBegin rq = {"u", "h", MS_TXN_TYPE_DEFAULT, 0, &locks};
    bool have;
    int64_t t1, t2;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_begin(ms, &rq, &t1, &st, &snap, &have, &err), &err);
    CHECK_EQ(st.state, MS_LOCK_ACQUIRED);
    CHECK(have);
    CHECK_EQ(snap.hwm, t1);
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_begin(ms, &rq, &t2, &st, &snap, &have, &err), &err);
    CHECK_EQ(st.state, MS_LOCK_WAITING);
    CHECK(!have);
    CHECK_EQ(fx_sql_int(&fx, "SELECT HL_TXNID FROM HIVE_LOCKS WHERE "
                             "HL_LOCK_EXT_ID = 2"), t2);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_lock_check(ms, t2, st.extid, false, &st, &err), &err);
    CHECK_EQ(st.state, MS_LOCK_ACQUIRED);
    c.partition = "p=1";
    c.table = NULL;
    CHECK_EQ(ms_txn_begin(ms, &rq, &t2, &st, &snap, &have, &err),
             COMB_EINVALID);
    ms_close(ms);
}

static void no_sleep(void *ctx, int64_t ms)
{
    int64_t *total = ctx;
    *total += ms;
}

/* Hive's back-off: 100, 200, 400, ... ms, capped; after the last retry
 * the request is gone and the caller holds nothing new. */
MS_TEST(ms_lock_wait_gives_up)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a, b;
    int64_t t1, t2, slept = 0, waited;
    MsLockWait w = {4, 300, false, no_sleep, &slept};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCLUSIVE, NULL, &a, &err), &err);
    CHECK_OK(lock_one(ms, t2, MS_LOCK_SHARED_READ, NULL, &b, &err), &err);
    CHECK_OK(ms_lock_wait(ms, t2, &w, &b, &waited, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_WAITING);
    CHECK_EQ(slept, 100 + 200 + 300 + 300);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS WHERE "
                             "HL_TXNID = 2"), 0);
    ms_close(ms);
}

/* Two explicit transactions each holding what the other waits for: the
 * first to look finds the cycle and aborts the younger; the other then
 * gets its lock. */
MS_TEST(ms_lock_deadlock_broken)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsLockStatus a, b, a2, b2;
    MsLockComponent cu = {"default", "u", NULL, MS_LOCK_EXCL_WRITE};
    MsLockRequest ru = {0, "u", "h", NULL, &cu, 1, false};
    int64_t t1, t2, slept = 0, waited;
    MsLockWait w = {3, 100, false, no_sleep, &slept};
    MsTxnState st;
    char reason[200];
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(open_txn(ms, &t1, &err), &err);
    CHECK_OK(open_txn(ms, &t2, &err), &err);
    CHECK_OK(lock_one(ms, t1, MS_LOCK_EXCL_WRITE, NULL, &a, &err), &err);
    ru.txnid = t2;
    CHECK_OK(ms_lock(ms, &ru, &b, &err), &err);
    CHECK_EQ(b.state, MS_LOCK_ACQUIRED);
    /* t1 waits for u, held by t2 */
    ru.txnid = t1;
    CHECK_OK(ms_lock(ms, &ru, &a2, &err), &err);
    CHECK_EQ(a2.state, MS_LOCK_WAITING);
    /* t2 waits for t, held by t1: a cycle; t2 (younger) is the victim */
    CHECK_OK(lock_one(ms, t2, MS_LOCK_EXCL_WRITE, NULL, &b2, &err), &err);
    CHECK_EQ(b2.state, MS_LOCK_WAITING);
    CHECK_EQ(ms_lock_wait(ms, t2, &w, &b2, &waited, &err), COMB_ETXN);
    CHECK_STR(err.msg, "[Error 10263]: Transaction manager has aborted the "
                       "transaction txnid:2.  Reason: Aborting [txnid:2] to "
                       "break a deadlock: txnid:2 -> txnid:1 -> txnid:2");
    CHECK_EQ(err.hive_code, 10263);
    CHECK_OK(ms_txn_state(ms, t2, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_ABORTED);
    fx_sql_text(&fx, "SELECT TXN_META_INFO FROM TXNS WHERE TXN_ID = 2",
                reason, sizeof reason);
    CHECK_STR(reason, "deadlock: txnid:2 -> txnid:1 -> txnid:2");
    CHECK_OK(ms_lock_wait(ms, t1, &w, &a2, &waited, &err), &err);
    CHECK_EQ(a2.state, MS_LOCK_ACQUIRED);
    CHECK_EQ(slept, 100);
    ms_close(ms);
}

/* The search itself: the victim is the youngest of the cycle through
 * the asking txn, which is found from any member; waiting without a
 * cycle is no deadlock. */
TEST(ms_lock_deadlock_graph)
{
    MsLockRow rows[6];
    int64_t victim, cycle[8];
    int n_cycle;
    /* 3 holds t (ext 1); 5 holds u (ext 2); 9 holds v (ext 3);
     * 3 waits for u (ext 4), 5 for v (ext 5), 9 for t (ext 6) */
    const char *held[3] = {"t", "u", "v"};
    const int64_t owner[3] = {3, 5, 9};
    for (int i = 0; i < 3; i++) {
        rows[i] = row(MS_LOCK_EXCL_WRITE, held[i], NULL);
        rows[i].extid = i + 1;
        rows[i].txnid = owner[i];
        rows[i].state = MS_LOCK_ACQUIRED;
        rows[3 + i] = row(MS_LOCK_EXCL_WRITE, held[(i + 1) % 3], NULL);
        rows[3 + i].extid = 4 + i;
        rows[3 + i].txnid = owner[i];
        rows[3 + i].state = MS_LOCK_WAITING;
    }
    ms_lock_deadlock(rows, 6, 5, &victim, cycle, 8, &n_cycle);
    CHECK_EQ(victim, 9);
    CHECK_EQ(n_cycle, 3);
    CHECK_EQ(cycle[0], 5);
    CHECK_EQ(cycle[1], 9);
    CHECK_EQ(cycle[2], 3);
    /* 9 gave up waiting: no cycle left */
    ms_lock_deadlock(rows, 5, 3, &victim, cycle, 8, &n_cycle);
    CHECK_EQ(victim, 0);
    CHECK_EQ(n_cycle, 0);
    /* a later request never blocks an earlier one: 3 waiting at ext 4 is
     * not behind 5's request at ext 5 */
    rows[4].type = MS_LOCK_SHARED_READ;
    ms_lock_deadlock(rows, 6, 3, &victim, cycle, 8, &n_cycle);
    CHECK_EQ(victim, 0);
}
