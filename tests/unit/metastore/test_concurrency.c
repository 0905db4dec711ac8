/* Several processes on one metastore: simultaneous first opens of a fresh
 * file or database, and concurrent txn opens, write-id allocations,
 * commits and partition additions.  Ids must come out unique and
 * contiguous with no lock or serialization failure reaching the caller. */
#include "ms_fixture.h"
#include "common/alloc.h"

#include <signal.h>
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
    if ((rc = fx_reopen(fx, NULL, &ms, &err)))
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
    if ((rc = fx_reopen(fx, NULL, &ms, &err)))
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

/* Fork n children running fn(fx, i, arg) (i = 0..n-1); codes[i] gets each
 * exit status (-1 if it did not exit normally).  0, or -1 if a fork
 * failed. */
static int run_children_codes(int n, const Fx *fx,
                              int (*fn)(const Fx *, int, int), int arg,
                              int *codes)
{
    Barrier b;
    pid_t pids[16];
    int started = 0;
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
            _exit(fn(fx, started, arg));
        }
        pids[started] = pid;
    }
    close(b.fd[0]);
    close(b.fd[1]);
    for (int i = 0; i < started; i++) {
        int status = 0;
        codes[i] = waitpid(pids[i], &status, 0) == pids[i] &&
                           WIFEXITED(status)
                       ? WEXITSTATUS(status)
                       : -1;
    }
    return started < n ? -1 : 0;
}

/* Fork n children running fn(fx, arg); how many failed, or -1 if the
 * fork itself failed. */
static int run_children(int n, const Fx *fx, int (*fn)(const Fx *, int, int),
                        int arg)
{
    int codes[16], failed = 0;
    if (run_children_codes(n, fx, fn, arg, codes) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        failed += codes[i] != 0;
    return failed;
}

static int open_once_adapter(const Fx *fx, int child, int unused)
{
    (void)child;
    (void)unused;
    return child_open_once(fx);
}

static int txns_adapter(const Fx *fx, int child, int n)
{
    (void)child;
    return child_txns(fx, n);
}

MS_TEST(ms_concurrent_first_open)
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

MS_TEST(ms_concurrent_txns_and_writeids)
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

    CHECK_EQ(run_children(N_CHILDREN, &fx, txns_adapter, N_TXNS), 0);

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

    CHECK_OK(fx_reopen(&fx, NULL, &ms, &err), &err);
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

/* ------------------------------------------------------------ partitions */

/* default.daily (x int) PARTITIONED BY (ds string). */
static int create_daily(Ms *ms, CombErr *err)
{
    MsColumn col = {"x", "int", NULL}, key = {"ds", "string", NULL};
    MsTable t = {0};
    t.db = "default";
    t.name = "daily";
    t.n_cols = 1;
    t.cols = &col;
    t.n_part_keys = 1;
    t.part_keys = &key;
    return ms_table_create(ms, &t, false, err);
}

static int setup_daily(Fx *fx)
{
    Ms *ms = NULL;
    CombErr err;
    int rc = fx_open(fx, &ms, &err);
    if (!rc)
        rc = create_daily(ms, &err);
    ms_close(ms); /* no connection may cross a fork */
    return rc;
}

/* One racer: ALTER TABLE daily ADD PARTITION (ds='2024-01-01').  Exits 0
 * when it added it, 2 when refused with Hive's text, 1 otherwise. */
static int child_add_same(const Fx *fx, int child, int unused)
{
    Ms *ms = NULL;
    CombErr err;
    char *v[1] = {"2024-01-01"};
    MsPartition p = {.n_values = 1, .values = v};
    int rc;
    (void)child;
    (void)unused;
    if ((rc = fx_reopen(fx, NULL, &ms, &err)))
        return child_fail("open", &err);
    rc = ms_part_add(ms, "default", "daily", &p, 1, false, NULL, &err);
    ms_close(ms);
    if (rc == COMB_OK)
        return 0;
    if (rc == COMB_EEXISTS &&
        strcmp(err.msg,
               "Partition already exists: default.daily/ds=2024-01-01") == 0)
        return 2;
    return child_fail("add", &err);
}

MS_TEST(ms_concurrent_add_same_partition)
{
    enum { N = 8 };
    Fx fx;
    int codes[N], winners = 0, refused = 0;
    CHECK_EQ(setup_daily(&fx), COMB_OK);
    CHECK_EQ(run_children_codes(N, &fx, child_add_same, 0, codes), 0);
    for (int i = 0; i < N; i++) {
        winners += codes[i] == 0;
        refused += codes[i] == 2;
    }
    CHECK_EQ(winners, 1);
    CHECK_EQ(refused, N - 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 1);
}

/* The partitions round r of child c writes, as a dynamic-partition insert
 * would: two neighbouring days, overlapping the other children's. */
static void round_days(int child, int round, char days[2][8])
{
    int a = (child + round) % 30;
    snprintf(days[0], 8, "d%02d", a);
    snprintf(days[1], 8, "d%02d", (a + 1) % 30);
}

static int child_add_overlapping(const Fx *fx, int child, int rounds)
{
    Ms *ms = NULL;
    CombErr err;
    int rc;
    if ((rc = fx_reopen(fx, NULL, &ms, &err)))
        return child_fail("open", &err);
    for (int r = 0; r < rounds && !rc; r++) {
        char days[2][8], *v0[1] = {days[0]}, *v1[1] = {days[1]};
        MsPartition p[2] = {{.n_values = 1, .values = v0},
                            {.n_values = 1, .values = v1}};
        round_days(child, r, days);
        rc = ms_part_add(ms, "default", "daily", p, 2, true, NULL, &err);
    }
    ms_close(ms);
    return rc ? child_fail("add if not exists", &err) : 0;
}

MS_TEST(ms_concurrent_add_if_not_exists)
{
    enum { N = 6, ROUNDS = 20 };
    Fx fx;
    bool want[30] = {false};
    int n_want = 0;
    CHECK_EQ(setup_daily(&fx), COMB_OK);
    CHECK_EQ(run_children(N, &fx, child_add_overlapping, ROUNDS), 0);
    for (int c = 0; c < N; c++)
        for (int r = 0; r < ROUNDS; r++) {
            want[(c + r) % 30] = true;
            want[(c + r + 1) % 30] = true;
        }
    for (int i = 0; i < 30; i++)
        n_want += want[i];
    /* each partition exactly once, each whole */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), n_want);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(DISTINCT PART_NAME) "
                             "FROM PARTITIONS"), n_want);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS v "
                             "JOIN PARTITIONS p ON p.PART_ID = v.PART_ID "
                             "WHERE p.PART_NAME = 'ds=' || v.PART_KEY_VAL"),
             n_want);
}

/* Adds batches of 200 partitions until killed, telling the parent through
 * fd after the first batch committed. */
static int child_add_batches(const Fx *fx, int fd)
{
    enum { BATCH = 200, MAX_BATCHES = 100 };
    Ms *ms = NULL;
    CombErr err;
    static char vals[BATCH][16], *ptrs[BATCH];
    static MsPartition parts[BATCH];
    int rc;
    if ((rc = fx_reopen(fx, NULL, &ms, &err)))
        return child_fail("open", &err);
    for (int b = 0; b < MAX_BATCHES && !rc; b++) {
        for (int i = 0; i < BATCH; i++) {
            snprintf(vals[i], sizeof vals[i], "b%d_%d", b, i);
            ptrs[i] = vals[i];
            parts[i] = (MsPartition){.n_values = 1, .values = &ptrs[i]};
        }
        rc = ms_part_add(ms, "default", "daily", parts, BATCH, false, NULL,
                         &err);
        if (!rc && b == 0 && write(fd, "k", 1) != 1)
            rc = 1;
    }
    ms_close(ms);
    return rc ? child_fail("batches", &err) : 0;
}

/* A process killed while adding partitions leaves whole batches: each
 * ms_part_add is one metastore transaction. */
MS_TEST(ms_killed_while_adding_partitions)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsPartition *parts;
    int fds[2], status, n;
    long long n_parts;
    char ack, check[32];
    pid_t pid;
    comb_arena_init(&a, 0);
    CHECK_EQ(setup_daily(&fx), COMB_OK);
    CHECK(pipe(fds) == 0);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        _exit(child_add_batches(&fx, fds[1]));
    }
    close(fds[1]);
    CHECK(read(fds[0], &ack, 1) == 1);
    kill(pid, SIGKILL);
    CHECK(waitpid(pid, &status, 0) == pid);
    close(fds[0]);

    CHECK_OK(fx_reopen(&fx, NULL, &ms, &err), &err);
    if (fx.backend == FX_SQLITE) {
        fx_sql_text(&fx, "PRAGMA integrity_check", check, sizeof check);
        CHECK_STR(check, "ok");
    }
    n_parts = fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS");
    CHECK(n_parts >= 200);
    CHECK_EQ(n_parts % 200, 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"),
             n_parts);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS p WHERE NOT "
                             "EXISTS (SELECT 1 FROM PARTITION_KEY_VALS v "
                             "WHERE v.PART_ID = p.PART_ID)"), 0);
    CHECK_OK(ms_part_list(ms, "default", "daily", NULL, 0, &a, &parts, &n,
                          &err), &err);
    CHECK_EQ(n, n_parts);
    ms_close(ms);
    comb_arena_free(&a);
}

/* ------------------------------------------------------ schema upgrade */

static int child_open_old(const Fx *fx, int child, int unused)
{
    (void)child;
    (void)unused;
    return child_open_once(fx);
}

/* Processes opening a version 1 file at once: one upgrades, the others
 * find it done; every one of them works on the result. */
TEST(ms_concurrent_upgrade_of_v1_file)
{
    Fx fx;
    CHECK_EQ(fx_load_v1(&fx), SQLITE_OK);
    CHECK_EQ(run_children(6, &fx, child_open_old, 0), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT SCHEMA_VERSION FROM VERSION"), 6);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXNS WHERE TXN_STATE = "
                             "'c'"), 3 + 6);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM sqlite_master WHERE name "
                             "IN ('TBLS_V2', 'PARTITIONS')"), 1);
}
