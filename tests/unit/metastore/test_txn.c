/* Transactions: the open -> committed | aborted state machine, its errors,
 * components moving to COMPLETED_TXN_COMPONENTS, and snapshots in Hive's
 * ValidTxnList form. */
#include "ms_fixture.h"

/* The snapshot of txnid as Hive's string. */
static int snapshot_str(Ms *ms, int64_t txnid, char *buf, size_t n,
                        CombErr *err)
{
    CombTxnList l;
    int rc = ms_txn_snapshot(ms, txnid, &l, err);
    if (rc)
        return rc;
    fx_take_text(comb_txnlist_format(&l), buf, n);
    comb_idlist_free(&l);
    return COMB_OK;
}

MS_TEST(ms_txn_state_machine)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsTxnState st;
    int64_t t1, t2, t3;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "alice", "host1", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, NULL, NULL, &t2, &err), &err);
    CHECK_OK(ms_txn_open(ms, "carol", "host3", &t3, &err), &err);
    CHECK_EQ(t1, 1);
    CHECK_EQ(t2, 2);
    CHECK_EQ(t3, 3);
    CHECK_OK(ms_txn_state(ms, t1, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_OPEN);

    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_state(ms, t1, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err); /* retried commit */
    CHECK_OK(ms_txn_abort(ms, t1, &err), &err);  /* no-op: not open */
    CHECK_OK(ms_txn_state(ms, t1, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);

    CHECK_OK(ms_txn_abort(ms, t2, &err), &err);
    CHECK_OK(ms_txn_state(ms, t2, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_ABORTED);
    CHECK_OK(ms_txn_abort(ms, t2, &err), &err);
    CHECK_EQ(ms_txn_commit(ms, t2, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:2 already aborted (rollback)");
    CHECK_OK(ms_txn_state(ms, t2, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_ABORTED);

    CHECK_EQ(ms_txn_commit(ms, 99, &err), COMB_ETXN);
    CHECK_STR(err.msg, "No such transaction txnid:99");
    CHECK_EQ(ms_txn_state(ms, 99, &st, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "No such transaction txnid:99");
    CHECK_OK(ms_txn_abort(ms, 99, &err), &err);
    CHECK_EQ(ms_txn_commit(ms, 0, &err), COMB_EINVALID);
    CHECK_EQ(ms_txn_state(ms, -5, &st, &err), COMB_EINVALID);

    CHECK_OK(ms_txn_state(ms, t3, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_OPEN);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_ID = 2 "
                             "AND TXN_USER = '' AND TXN_HOST = ''"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_ID = 3 "
                             "AND TXN_USER = 'carol' AND TXN_TYPE = 0 "
                             "AND TXN_STARTED > 1600000000000 "
                             "AND TXN_LAST_HEARTBEAT = TXN_STARTED"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), 4);
    ms_close(ms);
}

MS_TEST(ms_txn_snapshot_hive_form)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList l;
    char s[200];
    int64_t t1, t2, t3, t4;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(snapshot_str(ms, 0, s, sizeof s, &err), &err);
    CHECK_STR(s, "0:9223372036854775807::");

    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_abort(ms, t3, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t4, &err), &err);
    CHECK_EQ(t4, 4);

    /* txn 4: 1 committed (valid), 2 open, 3 aborted; 4 itself is valid */
    CHECK_OK(snapshot_str(ms, t4, s, sizeof s, &err), &err);
    CHECK_STR(s, "4:2:2:3");
    CHECK_OK(ms_txn_snapshot(ms, t4, &l, &err), &err);
    CHECK(comb_idlist_is_valid(&l, 1));
    CHECK(!comb_idlist_is_valid(&l, 2));
    CHECK(comb_idlist_is_aborted(&l, 3));
    CHECK(comb_idlist_is_valid(&l, 4));
    CHECK(!comb_idlist_is_valid(&l, 5));
    comb_idlist_free(&l);

    /* no current txn: every open txn is an exception */
    CHECK_OK(snapshot_str(ms, 0, s, sizeof s, &err), &err);
    CHECK_STR(s, "4:2:2,4:3");
    /* txn 2 started before 3 and 4: they are above its hwm */
    CHECK_OK(snapshot_str(ms, t2, s, sizeof s, &err), &err);
    CHECK_STR(s, "2:9223372036854775807::");

    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_OK(snapshot_str(ms, t4, s, sizeof s, &err), &err);
    CHECK_STR(s, "4:9223372036854775807::3");
    CHECK_EQ(ms_txn_snapshot(ms, -1, &l, &err), COMB_EINVALID);
    ms_close(ms);
}

MS_TEST(ms_txn_commit_moves_components)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t t1, t2, t3, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "t", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t1, "default", "T", NULL, MS_OP_INSERT,
                                  w, &err), &err);
    /* the same write reported twice is recorded once */
    CHECK_OK(ms_txn_add_component(ms, t1, "default", "t", NULL, MS_OP_INSERT,
                                  w, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS"), 1);

    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "t", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t2, "default", "t", "p=1", MS_OP_INSERT,
                                  w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t2, "default", "t", "p=2", MS_OP_DELETE,
                                  w, &err), &err);

    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t3, "default", "t", NULL, MS_OP_UPDATE,
                                  3, &err), &err);

    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_OK(ms_txn_abort(ms, t3, &err), &err);

    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS"),
             3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_TXNID = 1 AND CTC_DATABASE = 'default'"
                             " AND CTC_TABLE = 't' AND CTC_PARTITION IS NULL"
                             " AND CTC_WRITEID = 1 AND CTC_UPDATE_DELETE = 'N'"
                             " AND CTC_TIMESTAMP > 1600000000000"), 1);
    /* one update/delete makes every row of the txn 'Y' */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_TXNID = 2 AND CTC_WRITEID = 2 "
                             "AND CTC_UPDATE_DELETE = 'Y'"), 2);
    /* committed components are gone; aborted ones stay for the compactor */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT TC_TXNID FROM TXN_COMPONENTS"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS "
                             "WHERE TXN_STATE = 'c'"), 2);

    /* components only for open txns */
    CHECK_EQ(ms_txn_add_component(ms, t1, "default", "t", NULL, MS_OP_INSERT,
                                  1, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:1 is already committed.");
    CHECK_EQ(ms_txn_add_component(ms, t3, "default", "t", NULL, MS_OP_INSERT,
                                  1, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:3 already aborted (rollback)");
    CHECK_EQ(ms_txn_add_component(ms, 42, "default", "t", NULL, MS_OP_INSERT,
                                  1, &err), COMB_ETXN);
    CHECK_STR(err.msg, "No such transaction txnid:42");
    CHECK_EQ(ms_txn_add_component(ms, t1, "default", "t", NULL, (MsOpType)'x',
                                  1, &err), COMB_EINVALID);
    ms_close(ms);
}

MS_TEST(ms_txn_visible_across_handles)
{
    Fx fx;
    Ms *a = NULL, *b = NULL;
    CombErr err;
    MsTxnState st;
    int64_t t1, t2;
    fx_paths(&fx);
    CHECK_OK(fx_reopen(&fx, NULL, &a, &err), &err);
    CHECK_OK(fx_reopen(&fx, NULL, &b, &err), &err);
    CHECK_OK(ms_txn_open(a, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(b, "u", "h", &t2, &err), &err);
    CHECK_EQ(t2, t1 + 1);
    CHECK_OK(ms_txn_commit(b, t1, &err), &err);
    CHECK_OK(ms_txn_state(a, t1, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);
    ms_close(a);
    ms_close(b);
}

/* First committer wins (hive-acid-transactions.md 2.4): of two overlapping
 * txns that update/delete the same table, the second to commit is aborted
 * with Hive's error 10263; inserts, other tables, other partitions and
 * serial txns never conflict. */
MS_TEST(ms_txn_write_conflict)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsTxnState st;
    int64_t t1, t2, t3, t4, t5, t6;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t1, "default", "t", NULL, MS_OP_UPDATE, 1, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t2, "default", "t", NULL, MS_OP_DELETE, 2, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t3, "default", "t", NULL, MS_OP_INSERT, 3, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_EQ(ms_txn_commit(ms, t2, &err), COMB_ETXN);
    CHECK_EQ(err.hive_code, 10263);
    CHECK_STR(err.msg, "[Error 10263]: Transaction manager has aborted the "
                       "transaction txnid:2.  Reason: Aborting [txnid:2,3] due "
                       "to a write conflict on default/t committed by "
                       "[txnid:1,3] d/u");
    CHECK_OK(ms_txn_state(ms, t2, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_ABORTED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_ID = 2 "
                             "AND TXN_META_INFO = 'write conflicts'"), 1);
    /* an insert overlapping the update commits */
    CHECK_OK(ms_txn_commit(ms, t3, &err), &err);
    /* serial: t4 starts after t1 committed, so it does not conflict */
    CHECK_OK(ms_txn_open(ms, "u", "h", &t4, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t5, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t6, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t4, "default", "t", NULL, MS_OP_UPDATE, 4, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t5, "default", "other", NULL, MS_OP_UPDATE, 1, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t6, "default", "t", "p=2", MS_OP_UPDATE, 5, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t4, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t5, &err), &err);   /* other table */
    CHECK_OK(ms_txn_commit(ms, t6, &err), &err);   /* other partition */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM WRITE_SET"), 4);
    ms_close(ms);
}

/* CREATE TABLE AS SELECT's commit: the table, its partitions and the
 * commit of the txn that wrote its rows are one metastore transaction;
 * any failure leaves no table, no partition and the txn open. */
MS_TEST(ms_txn_commit_creating_a_table)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsTxnState st;
    MsTable *got;
    CombArena a;
    MsColumn col = {"a", "int", NULL}, key = {"p", "string", NULL};
    char *v1[] = {"x"}, *v2[] = {"y"};
    MsPartition parts[2] = {{0}};
    MsTable t = {0};
    int64_t txn, txn2, w;
    comb_arena_init(&a, 1024);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    t.db = "default";
    t.name = "c";
    t.n_cols = 1;
    t.cols = &col;
    t.n_part_keys = 1;
    t.part_keys = &key;
    parts[0].n_values = 1;
    parts[0].values = v1;
    parts[1].n_values = 1;
    parts[1].values = v2;
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    /* a write id and components for a table that is not there yet */
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "c", &w, &err), &err);
    CHECK_EQ(w, 1);
    CHECK_OK(ms_txn_add_partitions(ms, txn, "default", "c", (char *[]){"p=x", "p=y"},
                                   2, MS_OP_INSERT, w, &err), &err);

    /* a failure rolls everything back: here a partition named twice */
    parts[1].values = v1;
    CHECK_EQ(ms_txn_commit_create(ms, txn, &t, parts, 2, &err), COMB_EINVALID);
    CHECK_EQ(ms_table_get(ms, "default", "c", &a, &got, &err), COMB_ENOTFOUND);
    CHECK_OK(ms_txn_state(ms, txn, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_OPEN);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 0);

    parts[1].values = v2;
    CHECK_OK(ms_txn_commit_create(ms, txn, &t, parts, 2, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "c", &a, &got, &err), &err);
    CHECK_EQ(got->n_part_keys, 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 2);
    CHECK_OK(ms_txn_state(ms, txn, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_COMMITTED);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_TABLE = 'c'"), 2);

    /* the table exists now: a second create fails and commits nothing */
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn2, &err), &err);
    CHECK_EQ(ms_txn_commit_create(ms, txn2, &t, NULL, 0, &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "Table already exists: default.c");
    CHECK_OK(ms_txn_state(ms, txn2, &st, &err), &err);
    CHECK_EQ(st, MS_TXN_OPEN);
    /* nor with a txn that is not open */
    t.name = "d";
    CHECK_EQ(ms_txn_commit_create(ms, 99, &t, NULL, 0, &err), COMB_ETXN);
    CHECK_EQ(ms_table_get(ms, "default", "d", &a, &got, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_txn_commit_create(ms, 0, &t, NULL, 0, &err), COMB_EINVALID);
    ms_close(ms);
    comb_arena_free(&a);
}
