/* Housekeeping: time-outs abort silent txns and free their locks; what no
 * snapshot can need is removed, so the transaction tables stay small over
 * 100,000 statements, while every snapshot still sees exactly what it saw
 * (an old reader keeps its rows, aborted writes stay aborted); only one
 * process runs it per interval.  Also read-only txns and
 * metastore.max.open.txns. */
#include "ms_fixture.h"

#include <stdlib.h>
#include <unistd.h>

/* Rows of the transaction tables housekeeping keeps small. */
static long long txn_rows(const Fx *fx)
{
    return fx_sql_int(fx, "SELECT (SELECT count(*) FROM TXNS)"
                          " + (SELECT count(*) FROM TXN_TO_WRITE_ID)"
                          " + (SELECT count(*) FROM COMPLETED_TXN_COMPONENTS)"
                          " + (SELECT count(*) FROM WRITE_SET)"
                          " + (SELECT count(*) FROM TXN_COMPONENTS)"
                          " + (SELECT count(*) FROM HIVE_LOCKS)"
                          " + (SELECT count(*) FROM MIN_HISTORY_LEVEL)");
}

/* The write-id list of default.t under a fresh snapshot of txn (0: none),
 * as Hive's string. */
static int wil_str(Ms *ms, int64_t txn, char *buf, size_t n, CombErr *err)
{
    CombTxnList s;
    CombWriteIdList w;
    int rc = ms_txn_snapshot(ms, txn, &s, err);
    if (!rc)
        rc = ms_writeid_list(ms, &s, "default", "t", &w, err);
    if (!rc) {
        fx_take_text(comb_writeidlist_format(&w), buf, n);
        comb_writeidlist_free(&w);
    }
    comb_idlist_free(&s);
    return rc;
}

/* One autocommit statement as the SQL layer runs it: a read (read-only
 * txn with a SHARED_READ lock) or a write (EXCL_WRITE, write id,
 * component, commit); `kind` 0 read, 1 insert, 2 update. */
static int statement(Ms *ms, int kind, CombErr *err)
{
    MsLockComponent c = {"default", "t", NULL,
                         kind ? MS_LOCK_EXCL_WRITE : MS_LOCK_SHARED_READ};
    MsLockRequest locks = {0, NULL, NULL, "q", &c, 1, false};
    MsTxnBegin rq = {"u", "h", kind ? MS_TXN_TYPE_DEFAULT
                                    : MS_TXN_TYPE_READ_ONLY, 0, &locks};
    MsLockStatus st;
    CombTxnList snap;
    bool have;
    int64_t txn, w;
    int rc = ms_txn_begin(ms, &rq, &txn, &st, &snap, &have, err);
    if (rc)
        return rc;
    if (have)
        comb_idlist_free(&snap);
    if (st.state != MS_LOCK_ACQUIRED)
        return comb_err(err, COMB_EINTERNAL, "lock not granted");
    if (kind && ((rc = ms_writeid_allocate(ms, txn, "default", "t", &w, err)) ||
                 (rc = ms_txn_add_component(ms, txn, "default", "t", NULL,
                                            kind == 2 ? MS_OP_UPDATE
                                                      : MS_OP_INSERT,
                                            w, err))))
        return rc;
    return kind ? ms_txn_commit_excl(ms, txn, err) : ms_txn_commit(ms, txn, err);
}

/* The metastore on tmpfs when there is one: the loop below measures
 * housekeeping, not the disk's fsync rate (the tests' PostgreSQL server
 * does not sync). */
static int open_fast(Fx *fx, Ms **ms, CombErr *err)
{
    static int seq;
    char dir[200];
    fx_paths(fx);
    if (fx->backend == FX_SQLITE && access("/dev/shm", W_OK) == 0) {
        snprintf(dir, sizeof dir, "/dev/shm/comb-unit-%d-%d", (int)getpid(),
                 ++seq);
        if (fs_mkdirs(dir, err) == COMB_OK)
            snprintf(fx->db, sizeof fx->db, "%s/metastore.db", dir);
    }
    return fx_reopen(fx, NULL, ms, err);
}

static void close_fast(Fx *fx, Ms *ms)
{
    CombErr err;
    char dir[sizeof fx->db];
    char *slash;
    ms_close(ms);
    snprintf(dir, sizeof dir, "%s", fx->db);
    if ((slash = strrchr(dir, '/')) && strncmp(dir, "/dev/shm/", 9) == 0) {
        *slash = '\0';
        fs_remove_tree(dir, &err);
    }
}

/* 100,000 statements (COMB_HK_STATEMENTS to change, a multiple of 2,000;
 * 6,000 on PostgreSQL, where each call is a few round trips to the
 * server), housekeeping every 1,000: the tables never hold more than what
 * the last 1,000 left plus the rows an old reader and aborted writers must
 * keep. */
MS_TEST(ms_housekeeping_keeps_tables_small)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsHousekeeping hk = {300000, 0};
    MsHousekeepResult res;
    const char *env = getenv("COMB_HK_STATEMENTS");
    int total = env ? atoi(env) : fx_backend == FX_PG ? 6000 : 100000;
    int64_t reader, aborted_writer, empty_abort, w;
    char before[200], after[200];
    long long most = 0;
    CHECK_OK(open_fast(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    for (int i = 0; i < 10; i++)
        CHECK_OK(statement(ms, 1, &err), &err);
    /* an old reader, an aborted write and an aborted txn that wrote
     * nothing */
    CHECK_OK(ms_txn_open(ms, "u", "h", &reader, &err), &err);
    CHECK_OK(wil_str(ms, reader, before, sizeof before, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &aborted_writer, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, aborted_writer, "default", "t", &w, &err),
             &err);
    CHECK_EQ(w, 11);
    CHECK_OK(ms_txn_abort(ms, aborted_writer, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &empty_abort, &err), &err);
    CHECK_OK(ms_txn_abort(ms, empty_abort, &err), &err);
    for (int i = 1; i <= total; i++) {
        CHECK_OK(statement(ms, i % 10 == 0 ? 2 : i % 10 == 5, &err), &err);
        if (i % 1000 == 0) {
            long long n;
            CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
            CHECK(res.ran);
            n = txn_rows(&fx);
            most = n > most ? n : most;
            /* the old reader still pins everything newer than it */
            if (i == total / 2) {
                CHECK_OK(wil_str(ms, reader, after, sizeof after, &err), &err);
                CHECK_STR(after, before);
                CHECK_OK(ms_txn_commit(ms, reader, &err), &err);
            }
        }
    }
    /* the aborted txn that wrote nothing is kept one time-out after its
     * abort (so its owner can still learn why), then goes */
    CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_STATE = "
                             "'a'"), 2);
    CHECK_EQ(fx_sql_exec(&fx, "UPDATE TXNS SET TXN_LAST_HEARTBEAT = "
                              "TXN_LAST_HEARTBEAT - 300001"), SQLITE_OK);
    CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
    /* left: the aborted writer (TXNS, T2W), the newest T2W and CTC row,
     * and TXNS rows at or above the watermark */
    CHECK(txn_rows(&fx) <= 8);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_STATE = "
                             "'a'"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT TXN_ID FROM TXNS WHERE TXN_STATE = "
                             "'a'"), aborted_writer);
    CHECK(most <= 2000 + (total / 2 <= 1000 ? 3000 : 5 * total / 2));
    /* a fresh snapshot: every committed write visible, the aborted one not */
    CHECK_OK(wil_str(ms, 0, after, sizeof after, &err), &err);
    snprintf(before, sizeof before, "default.t:%d:9223372036854775807::11",
             10 + total / 10 + total / 10 + 1);
    CHECK_STR(after, before);
    close_fast(&fx, ms);
}

/* default.t's write-id list under a snapshot taken earlier. */
static int wil_under(Ms *ms, const CombTxnList *s, char *buf, size_t n,
                     CombErr *err)
{
    CombWriteIdList w;
    int rc = ms_writeid_list(ms, s, "default", "t", &w, err);
    if (!rc) {
        fx_take_text(comb_writeidlist_format(&w), buf, n);
        comb_writeidlist_free(&w);
    }
    return rc;
}

/* While the old reader is open, nothing it may still read goes; the
 * counts drop once it is done. */
MS_TEST(ms_housekeeping_respects_open_snapshots)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList snap;
    MsHousekeeping hk = {300000, 0};
    MsHousekeepResult res;
    int64_t t1, t2, t3, w;
    char s1[200], s2[200];
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "t", &w, &err), &err);
    /* t2 starts while t1 is open: its snapshot holds t1 as open */
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_txn_snapshot(ms, t2, &snap, &err), &err);
    CHECK_OK(wil_under(ms, &snap, s1, sizeof s1, &err), &err);
    CHECK_STR(s1, "default.t:1:1:1:");
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t3, "default", "t", &w, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t3, &err), &err);
    /* t1 is committed and below every open txn, but t2 was started while
     * it ran (MIN_HISTORY_LEVEL): its rows stay */
    CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_ID = 1"),
             1);
    CHECK_OK(wil_under(ms, &snap, s2, sizeof s2, &err), &err);
    CHECK_STR(s2, s1);
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS"),
             0);
    CHECK_OK(wil_str(ms, 0, s2, sizeof s2, &err), &err);
    CHECK_STR(s2, "default.t:2:9223372036854775807::");
    ms_close(ms);
}

/* An open txn not heard from for the time-out is aborted and its locks
 * go; one that heartbeats stays; the run is skipped while another
 * process ran one less than the interval ago. */
MS_TEST(ms_housekeeping_times_out)
{
    Fx fx;
    Ms *ms = NULL, *other = NULL;
    CombErr err;
    MsHousekeepResult res;
    MsHousekeeping hk = {60000, 3600000};
    MsLockComponent c = {"default", "t", NULL, MS_LOCK_EXCLUSIVE};
    MsLockRequest rq = {0, "u", "h", NULL, &c, 1, false};
    MsLockStatus st;
    MsTxnState state;
    int64_t silent, alive, ids[2];
    bool open[2];
    char reason[100];
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_reopen(&fx, NULL, &other, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &silent, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &alive, &err), &err);
    rq.txnid = silent;
    CHECK_OK(ms_lock(ms, &rq, &st, &err), &err);
    /* both went silent two minutes ago; one of them beats now */
    CHECK_EQ(fx_sql_exec(&fx, "UPDATE TXNS SET TXN_LAST_HEARTBEAT = "
                              "TXN_LAST_HEARTBEAT - 120000"), SQLITE_OK);
    ids[0] = alive;
    ids[1] = 99;
    CHECK_OK(ms_txn_heartbeat(ms, ids, 2, open, &err), &err);
    CHECK(open[0]);
    CHECK(!open[1]);
    CHECK_EQ(fx_sql_int(&fx, "SELECT TXN_HEARTBEAT_COUNT FROM TXNS WHERE "
                             "TXN_ID = 2"), 1);
    CHECK_OK(ms_housekeep(ms, &hk, &res, &err), &err);
    CHECK(res.ran);
    CHECK_EQ(res.timed_out, 1);
    CHECK_OK(ms_txn_state(ms, silent, &state, &err), &err);
    CHECK_EQ(state, MS_TXN_ABORTED);
    fx_sql_text(&fx, "SELECT TXN_META_INFO FROM TXNS WHERE TXN_ID = 1",
                reason, sizeof reason);
    CHECK_STR(reason, "heartbeat time-out");
    CHECK_OK(ms_txn_state(ms, alive, &state, &err), &err);
    CHECK_EQ(state, MS_TXN_OPEN);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM HIVE_LOCKS"), 0);
    CHECK_EQ(ms_txn_commit(ms, silent, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:1 already aborted (heartbeat "
                       "time-out)");
    /* the other process finds the run done an instant ago */
    CHECK_OK(ms_housekeep(other, &hk, &res, &err), &err);
    CHECK(!res.ran);
    hk.interval_ms = 0;
    CHECK_OK(ms_housekeep(other, &hk, &res, &err), &err);
    CHECK(res.ran);
    CHECK_EQ(res.timed_out, 0);
    hk.txn_timeout_ms = 0;
    CHECK_EQ(ms_housekeep(other, &hk, &res, &err), COMB_EINVALID);
    ms_close(other);
    ms_close(ms);
}

/* Read-only txns: no write id, never an exception in others' snapshots,
 * listed by SHOW TRANSACTIONS with their type. */
MS_TEST(ms_read_only_txns)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    CombTxnList snap;
    MsTxnInfo *rows;
    MsTxnBegin ro = {"reader", "box", MS_TXN_TYPE_READ_ONLY, 0, NULL};
    bool have;
    int64_t r, t, w;
    int n;
    char *s;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_txn_begin(ms, &ro, &r, NULL, &snap, &have, &err), &err);
    CHECK(have);
    comb_idlist_free(&snap);
    CHECK_EQ(ms_writeid_allocate(ms, r, "default", "t", &w, &err), COMB_ETXN);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t, &err), &err);
    CHECK_OK(ms_txn_snapshot(ms, t, &snap, &err), &err);
    s = comb_txnlist_format(&snap);
    CHECK_STR(s, "2:9223372036854775807::");
    comb_free(s);
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_list(ms, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 2);
    CHECK_EQ(rows[0].txnid, r);
    CHECK_EQ(rows[0].type, MS_TXN_TYPE_READ_ONLY);
    CHECK_STR(rows[0].user, "reader");
    CHECK_STR(rows[0].host, "box");
    CHECK(rows[0].started > 0);
    CHECK_EQ(rows[1].type, MS_TXN_TYPE_DEFAULT);
    CHECK_OK(ms_txn_commit(ms, r, &err), &err);
    CHECK_OK(ms_txn_abort_reason(ms, t, MS_ABORT_BY_QUERY, &err), &err);
    CHECK_OK(ms_txn_list(ms, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_EQ(rows[0].state, MS_TXN_ABORTED);
    CHECK_STR(rows[0].meta_info, "abort by query command");
    ms_close(ms);
    comb_arena_free(&a);
}

/* metastore.max.open.txns: refused at the maximum with Hive's text, and
 * then until fewer than 90 % are open. */
MS_TEST(ms_max_open_txns)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsTxnBegin rq = {"u", "h", MS_TXN_TYPE_DEFAULT, 10, NULL};
    bool have;
    int64_t txns[10], t;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    for (int i = 0; i < 10; i++)
        CHECK_OK(ms_txn_begin(ms, &rq, &txns[i], NULL, NULL, &have, &err),
                 &err);
    CHECK_EQ(ms_txn_begin(ms, &rq, &t, NULL, NULL, &have, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Maximum allowed number of open transactions has been "
                       "reached. See hive.max.open.txns.");
    CHECK_EQ(t, 0);
    CHECK_OK(ms_txn_commit(ms, txns[0], &err), &err);
    /* 9 open: still refused (not below 90 %) */
    CHECK_EQ(ms_txn_begin(ms, &rq, &t, NULL, NULL, &have, &err), COMB_ETXN);
    CHECK_OK(ms_txn_commit(ms, txns[1], &err), &err);
    CHECK_OK(ms_txn_begin(ms, &rq, &t, NULL, NULL, &have, &err), &err);
    CHECK_OK(ms_txn_begin(ms, &rq, &t, NULL, NULL, &have, &err), &err);
    CHECK_EQ(ms_txn_begin(ms, &rq, &t, NULL, NULL, &have, &err), COMB_ETXN);
    ms_close(ms);
}
