/*
 * hms.c - hms_serve: the listening socket (127.0.0.1 unless told
 * otherwise; rpc/rpc_serve.h), a thread per connection running ThriftHiveMetastore's
 * processor over the binary protocol (framed when the client's first byte
 * is 0, the high byte of a frame's length, else buffered: a message
 * begins with the version's 0x80), up to hive.metastore.server.max.threads
 * of them, and the stop on SIGINT / SIGTERM.
 */
#include "hms/hms_int.h"

#include <errno.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <thrift/c_glib/thrift_application_exception.h>
#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/thrift_configuration.h>
#include <thrift/c_glib/transport/thrift_buffered_transport.h>
#include <thrift/c_glib/transport/thrift_framed_transport.h>

#include "common/alloc.h"
#include "rpc/rpc_serve.h"

/* A connection and whether its thread is in a call (under conns.lock). */
typedef struct Conn {
    int fd;
    bool in_call;
    struct Conn *next;
} Conn;

/* After a stop signal the calls in progress have this long to end before
 * their clients are hung up on too. */
#define STOP_GRACE_SECONDS 10

static struct {
    pthread_mutex_t lock;
    pthread_cond_t gone;
    Conn *list;
    int n;
    bool stopping;          /* no new call begins */
} conns = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0,
           false};

static HmsConf conf;

/* c in the list unless the limit is reached (then false: c is dropped). */
static bool conn_admit(Conn *c)
{
    bool ok;
    pthread_mutex_lock(&conns.lock);
    ok = conns.n < conf.max_threads && !conns.stopping;
    if (ok) {
        c->next = conns.list;
        conns.list = c;
        conns.n++;
    }
    pthread_mutex_unlock(&conns.lock);
    return ok;
}

static void conn_remove(Conn *c)
{
    pthread_mutex_lock(&conns.lock);
    for (Conn **p = &conns.list; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            conns.n--;
            break;
        }
    pthread_cond_broadcast(&conns.gone);
    pthread_mutex_unlock(&conns.lock);
    comb_free(c);
}

/* Mark c in a call (or out of it); false when the service stops: no new
 * call begins, and one that ended is the connection's last. */
static bool conn_in_call(Conn *c, bool on)
{
    bool stopping;
    pthread_mutex_lock(&conns.lock);
    stopping = conns.stopping;
    c->in_call = on && !stopping;
    pthread_mutex_unlock(&conns.lock);
    return !stopping;
}

/* c's socket is about to close: a stop must not shut down whatever
 * socket gets its number next. */
static void conn_forget_fd(Conn *c)
{
    pthread_mutex_lock(&conns.lock);
    c->fd = -1;
    pthread_mutex_unlock(&conns.lock);
}

/* The transport the protocol reads: frames (a framed client) or a
 * buffer, messages up to hive.metastore.server.max.message.size. */
static ThriftTransport *stack_on(ThriftTransport *wire, bool framed)
{
    ThriftConfiguration *tc = g_object_new(THRIFT_TYPE_CONFIGURATION,
                                           "max_message_size", (gint)conf.max_message,
                                           "max_frame_size", (gint)conf.max_message,
                                           NULL);
    ThriftTransport *t = g_object_new(framed ? THRIFT_TYPE_FRAMED_TRANSPORT
                                             : THRIFT_TYPE_BUFFERED_TRANSPORT,
                                      "transport", wire, "configuration", tc,
                                      "w_buf_size", 65536, NULL);
    g_object_unref(tc);
    return t;
}

/* An unknown method was answered (Invalid method name) and the
 * connection may go on, as with Hive's servers; any other failure ends
 * it. */
static bool answered_unknown_method(const GError *e)
{
    return e && e->domain == THRIFT_APPLICATION_EXCEPTION_ERROR &&
           e->code == THRIFT_APPLICATION_EXCEPTION_ERROR_UNKNOWN_METHOD;
}

/* One client: calls until it hangs up or the service stops. */
static void *serve_conn(void *arg)
{
    Conn *c = arg;
    ThriftTransport *wire = rpc_wire_new(c->fd, NULL);
    int first = rpc_wire_byte(wire);
    if (first < 0) {
        conn_forget_fd(c);
        g_object_unref(wire);       /* closes fd */
        conn_remove(c);
        return NULL;
    }
    ThriftTransport *top = stack_on(wire, first == 0);
    ThriftProtocol *proto = g_object_new(THRIFT_TYPE_BINARY_PROTOCOL,
                                         "transport", top, NULL);
    HmsThriftHiveMetastoreHandler *handler = hms_handler_new(&conf);
    ThriftProcessor *proc = g_object_new(HMS_TYPE_THRIFT_HIVE_METASTORE_PROCESSOR,
                                         "handler", handler, NULL);
    GError *error = NULL;
    bool more = true;
    while (more && thrift_transport_peek(top, &error) && conn_in_call(c, true)) {
        more = thrift_processor_process(proc, proto, proto, &error);
        if (!more && answered_unknown_method(error)) {
            more = true;
            g_clear_error(&error);
        }
        more = conn_in_call(c, false) && more;
    }
    g_clear_error(&error);
    g_object_unref(proc);
    g_object_unref(handler);        /* closes its metastore handle */
    g_object_unref(proto);
    g_object_unref(top);
    conn_forget_fd(c);
    g_object_unref(wire);           /* closes fd */
    conn_remove(c);
    return NULL;
}

/* One accepted socket: a thread of its own, or closed at once when the
 * limit is reached (the client sees its connection end). */
static void start_conn(int fd, void *arg)
{
    Conn *c = comb_calloc(1, sizeof *c);
    (void)arg;
    if (!c) {
        close(fd);
        return;
    }
    c->fd = fd;
    if (!conn_admit(c)) {
        close(fd);
        comb_free(c);
        return;
    }
    if (!rpc_thread_start(serve_conn, c)) {
        conn_forget_fd(c);
        close(fd);
        conn_remove(c);
    }
}

/* Hang up on the connections not in a call (all of them with all),
 * under conns.lock. */
static void hang_up_locked(bool all)
{
    for (Conn *c = conns.list; c; c = c->next)
        if ((all || !c->in_call) && c->fd >= 0)
            shutdown(c->fd, SHUT_RDWR);
}

/* The stop: no new call begins, the idle clients are hung up on, the
 * calls in progress have STOP_GRACE_SECONDS to end (then their clients
 * are hung up on too), and every thread is waited for. */
static void end_connections(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_GRACE_SECONDS;
    pthread_mutex_lock(&conns.lock);
    conns.stopping = true;
    hang_up_locked(false);
    while (conns.n > 0 &&
           pthread_cond_timedwait(&conns.gone, &conns.lock, &until) != ETIMEDOUT)
        ;
    hang_up_locked(true);
    while (conns.n > 0)
        pthread_cond_wait(&conns.gone, &conns.lock);
    pthread_mutex_unlock(&conns.lock);
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
    conns.stopping = false;
    rpc_stop_catch();
    if (opt->listening)
        opt->listening(host, port);
    rpc_accept_loop(lfd, start_conn, NULL);
    close(lfd);                 /* new clients are refused by the system */
    end_connections();
    ms_heartbeater_stop(hk);
    hms_conf_free(&conf);
    rpc_stop_close();
    return COMB_OK;
}
