/* Several processes on one metastore file: simultaneous first opens of a
 * fresh file, and concurrent txn opens, write-id allocations and commits.
 * Ids must come out unique and contiguous with no SQLITE_BUSY failures. */
#include "ms_fixture.h"
#include "common/alloc.h"

#include <sys/wait.h>
#include <unistd.h>

/* Children block on the pipe until the parent closes it, so that they all
 * hit the metastore at the same moment. */
typedef struct Barrier {
    int fd[2];
} Barrier;

static void barrier_wait(Barrier *b)
{
    char c;
    close(b->fd[1]);
    while (read(b->fd[0], &c, 1) > 0)
        ;
    close(b->fd[0]);
}

static int child_fail(const char *what, const CombErr *err)
{
    fprintf(stderr, "child %d: %s: %s\n", (int)getpid(), what, err->msg);
    return 1;
}

/* One child of the fresh-open test: open, see the default db, run a txn. */
static int child_open_once(const Fx *fx)
{
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsDatabase *d;
    int64_t txn;
    int rc;
    comb_arena_init(&a, 0);
    if ((rc = ms_open_sqlite(fx->db, fx->warehouse, &ms, &err)))
        return child_fail("open", &err);
    rc = ms_db_get(ms, "default", &a, &d, &err);
    if (!rc)
        rc = ms_txn_open(ms, "child", "host", &txn, &err);
    if (!rc)
        rc = ms_txn_commit(ms, txn, &err);
    ms_close(ms);
    comb_arena_free(&a);
    return rc ? child_fail("txn", &err) : 0;
}

/* One child of the txn test: n txns, each with a write id on default.t. */
static int child_txns(const Fx *fx, int n)
{
    Ms *ms = NULL;
    CombErr err;
    int rc;
    if ((rc = ms_open_sqlite(fx->db, fx->warehouse, &ms, &err)))
        return child_fail("open", &err);
    for (int i = 0; i < n && !rc; i++) {
        int64_t txn = 0, w = 0;
        CombTxnList snap;
        rc = ms_txn_open(ms, "child", "host", &txn, &err);
        if (!rc && !(rc = ms_txn_snapshot(ms, txn, &snap, &err)))
            comb_idlist_free(&snap);
        if (!rc)
            rc = ms_writeid_allocate(ms, txn, "default", "t", &w, &err);
        if (!rc)
            rc = ms_txn_add_component(ms, txn, "default", "t", NULL,
                                      MS_OP_INSERT, w, &err);
        if (!rc)
            rc = ms_txn_commit(ms, txn, &err);
    }
    ms_close(ms);
    return rc ? child_fail("txn loop", &err) : 0;
}

/* Fork n children running fn(fx, arg); how many failed, or -1 if the
 * fork itself failed. */
static int run_children(int n, const Fx *fx, int (*fn)(const Fx *, int),
                        int arg)
{
    Barrier b;
    pid_t pids[16];
    int started = 0, failed = 0;
    if (n > (int)(sizeof pids / sizeof *pids) || pipe(b.fd) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    for (; started < n; started++) {
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            barrier_wait(&b);
            _exit(fn(fx, arg));
        }
        pids[started] = pid;
    }
    close(b.fd[0]);
    close(b.fd[1]);
    for (int i = 0; i < started; i++) {
        int status = 0;
        if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            failed++;
    }
    return started < n ? -1 : failed;
}

static int open_once_adapter(const Fx *fx, int unused)
{
    (void)unused;
    return child_open_once(fx);
}

TEST(ms_concurrent_first_open)
{
    for (int round = 0; round < 3; round++) {
        Fx fx;
        fx_paths(&fx);
        CHECK_EQ(run_children(8, &fx, open_once_adapter, 0), 0);
        CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM VERSION"), 1);
        CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM DBS"), 1);
        CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_TXN_ID"), 1);
        CHECK_EQ(fx_sql_int(&fx, "SELECT count(DISTINCT TXN_ID) FROM TXNS "
                                 "WHERE TXN_STATE = 'c'"), 8);
        CHECK_EQ(fx_sql_int(&fx, "SELECT max(TXN_ID) FROM TXNS"), 8);
    }
}

TEST(ms_concurrent_txns_and_writeids)
{
    enum { N_CHILDREN = 4, N_TXNS = 50, TOTAL = N_CHILDREN * N_TXNS };
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombTxnList snap;
    CombWriteIdList wl;
    char *s;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    ms_close(ms); /* no connection may cross a fork */

    CHECK_EQ(run_children(N_CHILDREN, &fx, child_txns, N_TXNS), 0);

    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS"), TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(DISTINCT TXN_ID) FROM TXNS"),
             TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT min(TXN_ID) FROM TXNS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT max(TXN_ID) FROM TXNS"), TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS "
                             "WHERE TXN_STATE <> 'c'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NTXN_NEXT FROM NEXT_TXN_ID"), TOTAL + 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(DISTINCT T2W_WRITEID) "
                             "FROM TXN_TO_WRITE_ID"), TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(DISTINCT T2W_TXNID) "
                             "FROM TXN_TO_WRITE_ID"), TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT min(T2W_WRITEID) FROM TXN_TO_WRITE_ID"),
             1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT max(T2W_WRITEID) FROM TXN_TO_WRITE_ID"),
             TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT NWI_NEXT FROM NEXT_WRITE_ID"), TOTAL + 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS"),
             TOTAL);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS"), 0);

    CHECK_OK(ms_open_sqlite(fx.db, fx.warehouse, &ms, &err), &err);
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    s = comb_txnlist_format(&snap);
    CHECK_STR(s, "200:9223372036854775807::");
    comb_free(s);
    CHECK_OK(ms_writeid_list(ms, &snap, "default", "t", &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "default.t:200:9223372036854775807::");
    comb_free(s);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);
    ms_close(ms);
}
