/*
 * txn.c - the transaction and lock manager's throughput through the
 * metastore API, per backend, with 1 and N concurrent clients
 * (processes, each with its own handle):
 *
 *   sync 4 KiB writes/s   the machine's rate of pwrite + fdatasync of one
 *                         4 KiB block in the metastore's directory: the
 *                         physical limit of a durable commit
 *   read-only txns/s      open a READ_ONLY txn with its snapshot, commit
 *   writing txns/s        open, allocate a write id, commit (durable)
 *   locks/s               a SELECT's metastore work: read-only txn with a
 *                         SHARED_READ lock granted and its snapshot, then
 *                         commit (releasing it)
 *   writing txns/s, id    the same writing txn with the write id synced
 *   synced first          before the commit, as a statement that writes a
 *                         file does (ms_writeid_sync): two syncs
 *
 * Beside each rate, the clients' CPU time (user + system) per operation:
 * steadier than the rates on a loaded machine, and where N clients spend
 * more per operation than one, contention costs the difference.
 *
 *   txn [--backend sqlite|postgresql|all] [--url URL] [--seconds S]
 *       [--clients N] [DIR]
 *
 * The sync rate is measured before the figures and again after them: on
 * a shared machine it moves with the other work.
 *
 * DIR (default: a new directory under $TMPDIR, removed after) holds the
 * SQLite metastore; its file system decides the sync rate.  PostgreSQL:
 * the server at URL, else a throw-away one started for the run
 * (tests/lib/pgserver.sh, durable: fsync and synchronous_commit on) in a
 * new directory under /tmp, where the sync rate is then measured; skipped
 * with a line saying why when PostgreSQL is not installed.  The default,
 * all, runs both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "common/alloc.h"
#include "common/err.h"
#include "fs/fs.h"
#include "metastore/ms.h"

typedef BenchClientsOpts Opts;

typedef int (*Work)(Ms *ms, int client, CombErr *err);

static int work_read_only(Ms *ms, int client, CombErr *err)
{
    MsTxnBegin rq = {"bench", "host", MS_TXN_TYPE_READ_ONLY, 0, NULL};
    CombTxnList snap;
    bool have;
    int64_t txn;
    int rc = ms_txn_begin(ms, &rq, &txn, NULL, &snap, &have, err);
    (void)client;
    if (rc)
        return rc;
    comb_idlist_free(&snap);
    return ms_txn_commit(ms, txn, err);
}

/* open, write id, commit; synced: the write id made durable first, as a
 * writer does before it creates a file named by it */
static int write_txn(Ms *ms, int client, bool synced, CombErr *err)
{
    char table[16];
    int64_t txn, w;
    int rc = ms_txn_open(ms, "bench", "host", &txn, err);
    snprintf(table, sizeof table, "t%d", client);
    if (!rc)
        rc = ms_writeid_allocate(ms, txn, "default", table, &w, err);
    if (!rc && synced)
        rc = ms_writeid_sync(ms, err);
    if (!rc)
        rc = ms_txn_commit(ms, txn, err);
    return rc;
}

static int work_write(Ms *ms, int client, CombErr *err)
{
    return write_txn(ms, client, false, err);
}

static int work_write_synced(Ms *ms, int client, CombErr *err)
{
    return write_txn(ms, client, true, err);
}

static int work_lock(Ms *ms, int client, CombErr *err)
{
    MsLockComponent c = {"default", "t0", NULL, MS_LOCK_SHARED_READ};
    MsLockRequest locks = {0, NULL, NULL, "bench", &c, 1, false};
    MsTxnBegin rq = {"bench", "host", MS_TXN_TYPE_READ_ONLY, 0, &locks};
    MsLockStatus st;
    CombTxnList snap;
    bool have;
    int64_t txn;
    int rc = ms_txn_begin(ms, &rq, &txn, &st, &snap, &have, err);
    (void)client;
    if (rc)
        return rc;
    if (have)
        comb_idlist_free(&snap);
    if (st.state != MS_LOCK_ACQUIRED)
        return comb_err(err, COMB_EINTERNAL, "a shared read lock waited");
    return ms_txn_commit(ms, txn, err);
}

/* Housekeeping keeps the tables at the size a long run would see. */
static int housekeep(Ms *ms, CombErr *err)
{
    MsHousekeeping hk = {300000, 0};
    MsHousekeepResult res;
    return ms_housekeep(ms, &hk, &res, err);
}

/* One client: run `work` for o->seconds; the count of completed ones. */
static long client_run(const Opts *o, Work work, int client, CombErr *err)
{
    Ms *ms = NULL;
    double end;
    long n = 0;
    if (bench_ms_open(o, &ms, err))
        return -1;
    end = now() + o->seconds;
    while (now() < end) {
        for (int i = 0; i < 50; i++, n++)
            if (work(ms, client, err)) {
                ms_close(ms);
                return -1;
            }
        if (client == 0 && n % 5000 == 0 && housekeep(ms, err)) {
            ms_close(ms);
            return -1;
        }
    }
    ms_close(ms);
    return n;
}

static double cpu_of_children(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

typedef struct Run {
    const Opts *o;
    Work work;
} Run;

static long run_one(void *arg, int client, CombErr *err)
{
    const Run *r = arg;
    return client_run(r->o, r->work, client, err);
}

/* `clients` processes at once; the total rate, and in *cpu_us the CPU
 * microseconds they spent per operation. */
static double run_clients(const Opts *o, Work work, int clients,
                          double *cpu_us)
{
    double cpu0 = cpu_of_children(), elapsed;
    Run r = {o, work};
    long total = bench_clients_run("txn", clients, run_one, &r, &elapsed);
    *cpu_us = total ? (cpu_of_children() - cpu0) * 1e6 / (double)total : 0;
    return (double)total / elapsed;
}

/* pwrite + fdatasync of one 4 KiB block, as often as the disk allows. */
static double sync_write_rate(const Opts *o)
{
    char path[4200], block[4096];
    double end, start;
    long n = 0;
    int fd;
    snprintf(path, sizeof path, "%s/sync-probe", o->dir);
    memset(block, 'x', sizeof block);
    if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0) {
        perror(path);
        exit(1);
    }
    start = now();
    end = start + o->seconds;
    while (now() < end) {
        if (pwrite(fd, block, sizeof block, 0) != (ssize_t)sizeof block ||
            fdatasync(fd) != 0) {
            perror(path);
            exit(1);
        }
        n++;
    }
    close(fd);
    unlink(path);
    return (double)n / (now() - start);
}

/* The tables t0..t<clients> exist for the writers. */
static void setup(const Opts *o)
{
    Ms *ms = NULL;
    CombErr err;
    MsColumn col = {"a", "int", NULL};
    if (bench_ms_open(o, &ms, &err)) {
        fprintf(stderr, "txn: %s\n", err.msg);
        exit(1);
    }
    for (int c = 0; c < o->clients; c++) {
        char name[16];
        MsTable t = {0};
        snprintf(name, sizeof name, "t%d", c);
        t.db = "default";
        t.name = name;
        t.n_cols = 1;
        t.cols = &col;
        if (ms_table_create(ms, &t, true, &err)) {
            fprintf(stderr, "txn: %s\n", err.msg);
            exit(1);
        }
    }
    ms_close(ms);
}

static void usage(void)
{
    fputs("usage: txn [--backend sqlite|postgresql|all] [--url URL]\n"
          "           [--seconds S] [--clients N] [DIR]\n",
          stderr);
    exit(2);
}

/* Every figure of one backend. */
static void run_backend(Opts *o)
{
    static const struct {
        const char *name;
        Work work;
    } works[] = {{"read-only txns/s", work_read_only},
                 {"writing txns/s (durable)", work_write},
                 {"  id synced first", work_write_synced},
                 {"locks acquired+released/s", work_lock}};
    double sync_rate;
    char *where = ms_target_display(o->url ? o->url : o->dir);
    setup(o);
    sync_rate = sync_write_rate(o);
    printf("backend %s, %s, %.1f s per figure\n", o->backend,
           where ? where : "?", o->seconds);
    comb_free(where);
    printf("%-28s %12.0f\n", "sync 4 KiB writes/s", sync_rate);
    printf("%-28s %12s %12s   %s\n", "", "1 client", "clients",
           "CPU us/op: 1, N clients");
    for (size_t w = 0; w < sizeof works / sizeof works[0]; w++) {
        double cpu_one, cpu_many;
        double one = run_clients(o, works[w].work, 1, &cpu_one);
        double many = run_clients(o, works[w].work, o->clients, &cpu_many);
        printf("%-28s %12.0f %9.0f (%d)   %6.0f %6.0f\n", works[w].name, one,
               many, o->clients, cpu_one, cpu_many);
        fflush(stdout);
    }
    /* the disk's rate moves with the machine's other work: measured again
     * after the figures, so a reader sees how far it drifted */
    printf("%-28s %12.0f\n", "sync 4 KiB writes/s, after", sync_write_rate(o));
}

/* The PostgreSQL figures, on o->url or on a server of their own. */
static void run_postgresql(Opts *o)
{
    char dir[64], url[200];
    const char *probe_dir = o->dir;
    int rc;
    o->backend = "postgresql";
    if (o->url) {
        run_backend(o);
        return;
    }
    if ((rc = pg_start("txn", dir, url, sizeof url)) == 77)
        return;
    if (rc)
        exit(1);
    o->url = url;
    o->dir = dir;          /* the sync rate of the server's disk */
    run_backend(o);
    o->url = NULL;
    o->dir = probe_dir;
    pg_server("stop", dir);
}

int main(int argc, char **argv)
{
    Opts o = {"all", NULL, NULL, 2.0, 8};
    char tmp[4096];
    bool own_dir = false, all;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc)
            o.backend = argv[++i];
        else if (strcmp(argv[i], "--url") == 0 && i + 1 < argc)
            o.url = argv[++i];
        else if (!bench_clients_arg(argc, argv, &i, &o.seconds, &o.clients,
                                    &o.dir))
            usage();
    }
    if (o.seconds <= 0 || o.clients < 1 || o.clients > 64)
        usage();
    if (!o.dir) {
        if (!bench_tmpdir(tmp, sizeof tmp, "txn-bench"))
            return 1;
        o.dir = tmp;
        own_dir = true;
    }
    all = strcmp(o.backend, "all") == 0;
    if (all || strcmp(o.backend, "sqlite") == 0) {
        o.backend = "sqlite";
        run_backend(&o);
    }
    if (all || strcmp(o.backend, "postgresql") == 0)
        run_postgresql(&o);
    else if (!all && strcmp(o.backend, "sqlite") != 0)
        usage();
    if (own_dir) {
        CombErr err;
        fs_remove_tree(o.dir, &err);
    }
    return 0;
}
