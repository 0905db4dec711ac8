/*
 * hms.c - hms_serve: the listening socket (127.0.0.1 unless told
 * otherwise), a thread per connection (rpc/rpc_serve.h) running
 * ThriftHiveMetastore's processor over the binary protocol (framed when the client's first byte
 * is 0, the high byte of a frame's length, else buffered: a message
 * begins with the version's 0x80), up to hive.metastore.server.max.threads
 * of them, and the stop on SIGINT / SIGTERM.
 */
#include "hms/hms_int.h"

#include <unistd.h>


#include "rpc/rpc_frames.h"
#include "rpc/rpc_serve.h"

/* After a stop signal the calls in progress have this long to end before
 * their clients are hung up on too. */
#define STOP_GRACE_MS 10000

static HmsConf conf;

/* The transport the protocol reads: frames (a framed client) or a
 * buffer, messages up to hive.metastore.server.max.message.size. */
static ThriftTransport *stack_on(ThriftTransport *wire, bool framed)
{
    return rpc_transport_new(wire, framed, (guint32)conf.max_message,
                             "hive.metastore.server.max.message.size");
}

/* One client: calls until it hangs up or the service stops. */
static void *serve_conn(void *arg)
{
    RpcConn *c = arg;
    ThriftTransport *wire = rpc_wire_new(rpc_conn_fd(c), NULL);
    int first = rpc_wire_byte(wire);
    if (first < 0) {
        rpc_conn_forget_fd(c);
        g_object_unref(wire);       /* closes fd */
        rpc_conn_done(c);
        return NULL;
    }
    ThriftTransport *top = stack_on(wire, first == 0);
    HmsThriftHiveMetastoreHandler *handler = hms_handler_new(&conf);
    ThriftProcessor *proc = g_object_new(HMS_TYPE_THRIFT_HIVE_METASTORE_PROCESSOR,
                                         "handler", handler, NULL);
    rpc_conn_calls(c, top, proc);
    g_object_unref(proc);
    g_object_unref(handler);        /* closes its metastore handle */
    g_object_unref(top);
    rpc_conn_forget_fd(c);
    g_object_unref(wire);           /* closes fd */
    rpc_conn_done(c);
    return NULL;
}

/* One accepted socket: a thread of its own, or closed at once when the
 * limit is reached (the client sees its connection end). */
static void start_conn(int fd, void *arg)
{
    (void)arg;
    rpc_conn_start(fd, serve_conn, NULL);
}

/* The housekeeper of the transactions the service's clients open (Hive's
 * metastore runs AcidHouseKeeperService): a heartbeater with no txns of
 * its own, whose rounds abort the txns whose clients stopped
 * heartbeating, and clean up. */
static int housekeeper_start(MsHeartbeater **out, CombErr *err)
{
    Ms *own = NULL;
    int rc = ms_open(conf.target, conf.warehouse, &own, err);
    if (rc)
        return rc;
    if ((rc = ms_heartbeater_start(own, out, err)))
        return rc;
    ms_heartbeater_configure(*out, conf.txn_timeout_ms, conf.housekeeping_ms);
    return COMB_OK;
}

int hms_serve(const HmsOptions *opt, CombErr *err)
{
    char host[256];
    int lfd = -1, port = 0, rc;
    MsHeartbeater *hk = NULL;
    if ((rc = rpc_stop_open(err)))
        return rc;
    if ((rc = hms_conf_init(opt, &conf, err)) ||
        (rc = housekeeper_start(&hk, err)) ||
        (rc = rpc_listen(opt->bind, opt->port, &lfd, host, sizeof host, &port,
                         err))) {
        ms_heartbeater_stop(hk);
        hms_conf_free(&conf);
        rpc_stop_close();
        return rc;
    }
    hms_register_types();
    rpc_conns_begin(conf.max_threads, 0);
    rpc_stop_catch();
    if (opt->listening)
        opt->listening(host, port);
    rpc_accept_loop(lfd, start_conn, NULL);
    close(lfd);                 /* new clients are refused by the system */
    /* no new call begins, the idle clients are hung up on, the calls in
     * progress have the grace (then their clients are hung up on too) */
    rpc_conns_end(STOP_GRACE_MS);
    ms_heartbeater_stop(hk);
    hms_conf_free(&conf);
    rpc_stop_close();
    return COMB_OK;
}
