/*
 * hms.c - calls per second through the Hive Metastore service (`comb
 * metastore`, issue 15) per backend (a SQLite file, a PostgreSQL server),
 * with 1 and N clients at once (processes, each its own connection):
 *
 *   open_txns+commit_txn   a txn opened and committed: two calls
 *   get_valid_write_ids    one table's valid write ids under a snapshot
 *                          (a reader's call before it lists files)
 *   get_table              a transactional table's Table object
 *
 * There is no Hive metastore on the machine, so the figures beside the
 * service's are the same work done in-process: each client calling the
 * metastore API (ms_*) on its own handle, as comb's own processes do, with
 * no RPC: the difference is what the protocol costs.  The clients are C,
 * the generated client of src/hms/hms.thrift over Thrift's binary
 * protocol on a buffered transport, so that the client's own cost stays
 * small.  The service is hms_serve, what `comb metastore` runs, in a
 * child process on a free loopback port.
 *
 *   hms [--backend sqlite|postgresql|all] [--seconds S] [--clients N] [DIR]
 *
 * DIR (default: a new directory under $TMPDIR, removed after) holds the
 * warehouse and the SQLite metastore; PostgreSQL is a throw-away durable
 * server (tests/lib/pgserver.sh) on a new directory and Unix socket under
 * /tmp, skipped with a line saying why when PostgreSQL is not installed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/transport/thrift_buffered_transport.h>
#include <thrift/c_glib/transport/thrift_socket.h>

#include "bench.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "common/err.h"
#include "common/txnlist.h"
#include "fs/fs.h"
#include "hms/hms.h"
#include "hms/hms_thrift_hive_metastore.h"
#include "metastore/ms.h"

#define MAX_CLIENTS 64

typedef BenchClientsOpts Opts;

/* What a client works with: its connection to the service, or its own
 * metastore handle; and the snapshot the readers ask under. */
typedef struct Client {
    HmsThriftHiveMetastoreIf *rpc;     /* NULL: in-process */
    /* each owned here: the generated client and the transport hold
     * theirs without a reference */
    ThriftSocket *socket;
    ThriftTransport *transport;
    ThriftProtocol *proto;
    Ms *ms;
    const char *txns;                  /* the valid txn list string */
} Client;

typedef int (*Work)(Client *c, CombErr *err);

/* ------------------------------------------------------- the operations */

/* A failed call of the generated client: its GError or the exception
 * the service answered, as err. */
static int rpc_failed(const char *call, GError *error, void *exception,
                      CombErr *err)
{
    char *msg = NULL;
    if (exception)
        g_object_get(exception, "message", &msg, NULL);
    comb_err(err, COMB_EIO, "%s: %s", call,
             error ? error->message : msg ? msg : "an exception");
    g_free(msg);
    g_clear_error(&error);
    if (exception)
        g_object_unref(exception);
    return COMB_EIO;
}

static int rpc_open_commit(Client *c, CombErr *err)
{
    HmsOpenTxnRequest *rq = g_object_new(HMS_TYPE_OPEN_TXN_REQUEST, "num_txns", 1,
                                         "user", "bench", "hostname", "host", NULL);
    HmsOpenTxnsResponse *r = g_object_new(HMS_TYPE_OPEN_TXNS_RESPONSE, NULL);
    HmsCommitTxnRequest *commit;
    HmsNoSuchTxnException *none = NULL;
    HmsTxnAbortedException *aborted = NULL;
    GError *error = NULL;
    gboolean ok = hms_thrift_hive_metastore_if_open_txns(c->rpc, &r, rq, &error);
    int rc = COMB_OK;
    g_object_unref(rq);
    if (!ok || r->txn_ids->len != 1) {
        g_object_unref(r);
        return rpc_failed("open_txns", error, NULL, err);
    }
    commit = g_object_new(HMS_TYPE_COMMIT_TXN_REQUEST, "txnid",
                          g_array_index(r->txn_ids, gint64, 0), NULL);
    g_object_unref(r);
    if (!hms_thrift_hive_metastore_if_commit_txn(c->rpc, commit, &none, &aborted,
                                                 &error))
        rc = rpc_failed("commit_txn", error, none ? (void *)none : aborted, err);
    g_object_unref(commit);
    return rc;
}

static int local_open_commit(Client *c, CombErr *err)
{
    int64_t txn;
    int rc = ms_txn_open(c->ms, "bench", "host", &txn, err);
    return rc ? rc : ms_txn_commit(c->ms, txn, err);
}

static int rpc_write_ids(Client *c, CombErr *err)
{
    HmsGetValidWriteIdsRequest *rq = g_object_new(HMS_TYPE_GET_VALID_WRITE_IDS_REQUEST,
                                                  "validTxnList", c->txns, NULL);
    HmsGetValidWriteIdsResponse *r = g_object_new(HMS_TYPE_GET_VALID_WRITE_IDS_RESPONSE, NULL);
    HmsNoSuchTxnException *none = NULL;
    HmsMetaException *meta = NULL;
    GError *error = NULL;
    int rc = COMB_OK;
    g_ptr_array_add(rq->fullTableNames, g_strdup("default.t"));
    if (!hms_thrift_hive_metastore_if_get_valid_write_ids(c->rpc, &r, rq, &none, &meta,
                                                          &error))
        rc = rpc_failed("get_valid_write_ids", error, none ? (void *)none : meta, err);
    else if (r->tblValidWriteIds->len != 1)
        rc = comb_err(err, COMB_EINTERNAL, "get_valid_write_ids: no table's ids");
    g_object_unref(rq);
    g_object_unref(r);
    return rc;
}

/* What the service's get_valid_write_ids does under the RPC. */
static int local_write_ids(Client *c, CombErr *err)
{
    CombTxnList txns = {0};
    CombWriteIdList w = {0};
    int rc = comb_txnlist_parse(c->txns, &txns, err);
    if (!rc)
        rc = ms_writeid_list(c->ms, &txns, "default", "t", &w, err);
    if (!rc)
        comb_writeidlist_free(&w);
    comb_idlist_free(&txns);
    return rc;
}

static int rpc_get_table(Client *c, CombErr *err)
{
    HmsTable *t = g_object_new(HMS_TYPE_TABLE, NULL);
    HmsMetaException *meta = NULL;
    HmsNoSuchObjectException *none = NULL;
    GError *error = NULL;
    int rc = COMB_OK;
    if (!hms_thrift_hive_metastore_if_get_table(c->rpc, &t, "default", "t", &meta, &none,
                                                &error))
        rc = rpc_failed("get_table", error, meta ? (void *)meta : none, err);
    g_object_unref(t);
    return rc;
}

static int local_get_table(Client *c, CombErr *err)
{
    CombArena a;
    MsTable *t;
    int rc;
    comb_arena_init(&a, 0);
    rc = ms_table_get(c->ms, "default", "t", &a, &t, err);
    comb_arena_free(&a);
    return rc;
}

/* ----------------------------------------------------------- the clients */

/* A client of the service on port (buffered transport, binary protocol). */
static int rpc_connect(int port, Client *c, CombErr *err)
{
    GError *error = NULL;
    c->socket = g_object_new(THRIFT_TYPE_SOCKET, "hostname", "127.0.0.1", "port",
                             port, NULL);
    c->transport = g_object_new(THRIFT_TYPE_BUFFERED_TRANSPORT, "transport",
                                c->socket, NULL);
    if (!thrift_transport_open(c->transport, &error)) {
        comb_err(err, COMB_EIO, "cannot connect to the service: %s", error->message);
        g_error_free(error);
        g_object_unref(c->transport);
        g_object_unref(c->socket);
        return COMB_EIO;
    }
    c->proto = g_object_new(THRIFT_TYPE_BINARY_PROTOCOL, "transport", c->transport,
                            NULL);
    c->rpc = g_object_new(HMS_TYPE_THRIFT_HIVE_METASTORE_CLIENT, "input_protocol",
                          c->proto, "output_protocol", c->proto, NULL);
    return COMB_OK;
}

static void client_close(Client *c)
{
    if (c->rpc) {
        thrift_transport_close(c->transport, NULL);
        g_object_unref(c->rpc);
        g_object_unref(c->proto);
        g_object_unref(c->transport);
        g_object_unref(c->socket);
    }
    ms_close(c->ms);
}

/* One client: work for o->seconds on a connection to port (0: its own
 * handle, in-process); the number done, -1 on a failure. */
static long client_run(const Opts *o, int port, const char *txns, Work work,
                       CombErr *err)
{
    Client c = {.txns = txns};
    double end;
    long n = 0;
    if (port ? rpc_connect(port, &c, err) : bench_ms_open(o, &c.ms, err))
        return -1;
    end = now() + o->seconds;
    while (now() < end)
        for (int i = 0; i < 20; i++, n++)
            if (work(&c, err)) {
                client_close(&c);
                return -1;
            }
    client_close(&c);
    return n;
}

typedef struct Run {
    const Opts *o;
    int port;
    const char *txns;
    Work work;
} Run;

static long run_one(void *arg, int client, CombErr *err)
{
    const Run *r = arg;
    (void)client;
    return client_run(r->o, r->port, r->txns, r->work, err);
}

/* `clients` processes at once: their total rate. */
static double run_clients(const Opts *o, int port, const char *txns, Work work,
                          int clients)
{
    Run r = {o, port, txns, work};
    double elapsed;
    long total = bench_clients_run("hms", clients, run_one, &r, &elapsed);
    return (double)total / elapsed;
}

/* ----------------------------------------------------------- the service */

static int listen_pipe = -1;
static pid_t service_pid;

/* A bench that fails (exit) leaves no service behind. */
static void service_kill(void)
{
    if (service_pid > 0)
        kill(service_pid, SIGKILL);
}

static void told_listening(const char *host, int port)
{
    (void)host;
    if (write(listen_pipe, &port, sizeof port) != sizeof port)
        _exit(1);
    close(listen_pipe);
}

/* hms_serve in a child on a free port: its pid, and *port. */
static pid_t service_start(const Opts *o, int *port)
{
    char wh[4200], db[4200];
    int fds[2];
    pid_t pid;
    snprintf(wh, sizeof wh, "%s/warehouse", o->dir);
    snprintf(db, sizeof db, "%s/metastore.db", o->dir);
    if (pipe(fds) || (pid = fork()) < 0) {
        perror("hms");
        exit(1);
    }
    if (pid == 0) {
        HmsOptions opt = {.warehouse = wh, .metastore = o->url ? o->url : db,
                          .listening = told_listening};
        CombErr err;
        close(fds[0]);
        listen_pipe = fds[1];
        if (hms_serve(&opt, &err)) {
            fprintf(stderr, "hms: the service: %s\n", err.msg);
            _exit(1);
        }
        _exit(0);
    }
    close(fds[1]);
    service_pid = pid;
    if (read(fds[0], port, sizeof *port) != sizeof *port) {
        fprintf(stderr, "hms: the service did not start\n");
        exit(1);
    }
    close(fds[0]);
    return pid;
}

static void service_stop(pid_t pid)
{
    int status;
    service_pid = 0;
    kill(pid, SIGTERM);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        fprintf(stderr, "hms: the service did not stop cleanly\n");
}

/* ---------------------------------------------------------------- setup */

static void die(const char *what, const CombErr *err)
{
    fprintf(stderr, "hms: %s: %s\n", what, err->msg);
    exit(1);
}

/* default.t, a transactional table with a history: three committed
 * writes and an aborted one, as a reader would find it; the valid txn
 * list of a reader now, in *txns (freed by the caller). */
static void setup(const Opts *o, char **txns)
{
    MsColumn cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
    MsProperty props[] = {{"transactional", "true"}, {"bucketing_version", "2"}};
    char *bucket_cols[] = {"id"};
    MsTable t = {0};
    CombTxnList snap = {0};
    Ms *ms = NULL;
    CombErr err;
    t.db = "default";
    t.name = "t";
    t.n_cols = 2;
    t.cols = cols;
    t.n_buckets = 2;            /* CLUSTERED BY (id) INTO 2 BUCKETS */
    t.n_bucket_cols = 1;
    t.bucket_cols = bucket_cols;
    t.n_props = 2;
    t.props = props;
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    t.serde = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    if (bench_ms_open(o, &ms, &err) || ms_table_create(ms, &t, true, &err))
        die("setup", &err);
    for (int i = 0; i < 4; i++) {
        int64_t txn, w;
        if (ms_txn_open(ms, "bench", "host", &txn, &err) ||
            ms_writeid_allocate(ms, txn, "default", "t", &w, &err) ||
            (i == 2 ? ms_txn_abort(ms, txn, &err) : ms_txn_commit(ms, txn, &err)))
            die("setup", &err);
    }
    if (ms_txn_snapshot(ms, 0, &snap, &err))
        die("setup", &err);
    if (!(*txns = comb_txnlist_format(&snap))) {
        comb_err_nomem(&err);
        die("setup", &err);
    }
    comb_idlist_free(&snap);
    ms_close(ms);
}

/* ---------------------------------------------------------------- figures */

static const struct {
    const char *name;
    Work rpc, local;
    int calls;          /* RPC calls per operation */
} works[] = {
    {"open_txns+commit_txn", rpc_open_commit, local_open_commit, 2},
    {"get_valid_write_ids", rpc_write_ids, local_write_ids, 1},
    {"get_table", rpc_get_table, local_get_table, 1},
};

/* One backend's rows of the table. */
static void run_backend(Opts *o, const char *backend)
{
    char *txns = NULL;
    int port;
    pid_t service;
    o->backend = backend;
    setup(o, &txns);
    service = service_start(o, &port);
    for (size_t w = 0; w < sizeof works / sizeof *works; w++) {
        double rpc1 = run_clients(o, port, txns, works[w].rpc, 1);
        double rpcn = run_clients(o, port, txns, works[w].rpc, o->clients);
        double loc1 = run_clients(o, 0, txns, works[w].local, 1);
        double locn = run_clients(o, 0, txns, works[w].local, o->clients);
        /* per RPC call, with one client: its time less the same work's */
        double cost_us = (1 / rpc1 - 1 / loc1) * 1e6 / works[w].calls;
        printf("| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", backend,
               works[w].name, rpc1, rpcn, loc1, locn, cost_us);
        fflush(stdout);
    }
    service_stop(service);
    comb_free(txns);
}

/* The PostgreSQL rows, on a server of their own. */
static void run_postgresql(Opts *o)
{
    char dir[64], url[200];
    int rc = pg_start("hms", dir, url, sizeof url);
    if (rc == 77)
        return;
    if (rc)
        exit(1);
    o->url = url;
    run_backend(o, "postgresql");
    o->url = NULL;
    pg_server("stop", dir);
}

static void usage(void)
{
    fputs("usage: hms [--backend sqlite|postgresql|all] [--seconds S]\n"
          "           [--clients N] [DIR]\n", stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    Opts o = {"all", NULL, NULL, 2.0, 16};
    char tmp[4096];
    bool own_dir = false, all, sqlite, pg;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc)
            o.backend = argv[++i];
        else if (!bench_clients_arg(argc, argv, &i, &o.seconds, &o.clients,
                                    &o.dir))
            usage();
    }
    atexit(service_kill);
    all = strcmp(o.backend, "all") == 0;
    sqlite = all || strcmp(o.backend, "sqlite") == 0;
    pg = all || strcmp(o.backend, "postgresql") == 0;
    if (o.seconds <= 0 || o.clients < 1 || o.clients > MAX_CLIENTS || !(sqlite || pg))
        usage();
    if (!o.dir) {
        if (!bench_tmpdir(tmp, sizeof tmp, "hms-bench"))
            return 1;
        o.dir = tmp;
        own_dir = true;
    }
    printf("comb metastore (hms_serve in a child process; C clients of the generated\n"
           "Thrift client, binary protocol, buffered, one connection per client process)\n"
           "beside the same work in-process (ms_* calls on each client's own handle, no\n"
           "RPC: no Hive metastore runs on this machine, so the peer is what the\n"
           "protocol costs), on SQLite and on PostgreSQL; %.1f s per figure, 1 and %d\n"
           "clients.  Operations per second; the last column is the protocol's cost per\n"
           "call with one client (service time less in-process time).\n\n",
           o.seconds, o.clients);
    printf("| backend | operation | service, 1 client | service, %d clients | "
           "in-process, 1 | in-process, %d | protocol us/call |\n", o.clients, o.clients);
    printf("|---|---|---|---|---|---|---|\n");
    fflush(stdout);
    if (sqlite)
        run_backend(&o, "sqlite");
    if (pg)
        run_postgresql(&o);
    if (own_dir) {
        CombErr err;
        fs_remove_tree(o.dir, &err);
    }
    return 0;
}
