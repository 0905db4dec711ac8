/*
 * hs2.c - hs2_serve: the listening socket (127.0.0.1 unless told
 * otherwise; rpc/rpc_serve.h), a thread per connection running TCLIService's processor
 * over the binary protocol on what its handshake set up (hs2_auth.c), up
 * to hive.server2.thrift.max.worker.threads of them (the ones beyond told
 * why and hung up on), and the stop on SIGINT / SIGTERM: the calls and
 * statements in progress finish within the grace, then the clients are
 * hung up on (what still runs is cancelled and rolls back).
 */
#include "server/hs2_int.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>

#include "common/alloc.h"
#include "rpc/rpc_serve.h"

/* A connection and what its thread is doing (under conns.lock). */
typedef struct Conn {
    int fd;
    bool refused;       /* beyond the limit: told so and hung up on */
    bool in_call;       /* between a call's first byte and its answer */
} Conn;

/* Connections beyond the limit are told why by threads of their own, this
 * many at once; the rest are closed at once (a flood costs no threads). */
#define REFUSERS_MAX 8

/* The connections, so that a stop can wait for their calls and end them. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t gone;
    Conn **v;
    int n, cap;
    int served, refused;    /* of n */
} conns = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, 0};

static Hs2Security security;
static Hs2Limits limits;

/* c in the list, served when under the limit, else refused when few
 * are; false when neither (or out of memory): c is to be dropped. */
static bool conn_admit(Conn *c)
{
    bool ok;
    pthread_mutex_lock(&conns.lock);
    c->refused = conns.served >= limits.max_workers;
    ok = !c->refused || conns.refused < REFUSERS_MAX;
    if (ok && conns.n == conns.cap) {
        int cap = conns.cap ? conns.cap * 2 : 16;
        Conn **v = comb_realloc(conns.v, (size_t)cap * sizeof *v);
        if (v) {
            conns.v = v;
            conns.cap = cap;
        }
        ok = v != NULL;
    }
    if (ok) {
        conns.v[conns.n++] = c;
        if (c->refused)
            conns.refused++;
        else
            conns.served++;
    }
    pthread_mutex_unlock(&conns.lock);
    return ok;
}

/* c out of the list and freed: its place frees for the next client. */
static void conn_remove(Conn *c)
{
    pthread_mutex_lock(&conns.lock);
    for (int i = 0; i < conns.n; i++)
        if (conns.v[i] == c) {
            conns.v[i] = conns.v[--conns.n];
            if (c->refused)
                conns.refused--;
            else
                conns.served--;
            break;
        }
    pthread_cond_broadcast(&conns.gone);
    pthread_mutex_unlock(&conns.lock);
    comb_free(c);
}

static struct Hs2Web *web;
static struct Hs2Compactor *compactor;

static void conn_in_call(Conn *c, bool on)
{
    pthread_mutex_lock(&conns.lock);
    c->in_call = on;
    pthread_mutex_unlock(&conns.lock);
}

/* One client: its handshake, calls until it hangs up (or the server
 * stops), then what its sessions left open is closed. */
static void *serve_conn(void *arg)
{
    Conn *c = arg;
    ThriftTransport *wire = NULL, *top = NULL;
    char user[HS2_USER_MAX + 1];
    if (hs2_conn_open(&security, c->fd, &wire, &top, user)) {
        if (wire) {
            rpc_wire_drain(wire);
            g_object_unref(wire);   /* closes fd */
        } else {
            close(c->fd);
        }
        conn_remove(c);
        return NULL;
    }
    ThriftProtocol *proto = g_object_new(THRIFT_TYPE_BINARY_PROTOCOL,
                                         "transport", top, NULL);
    Hs2TCLIServiceHandler *handler = hs2_handler_new(user);
    ThriftProcessor *proc = g_object_new(HS2_TYPE_T_C_L_I_SERVICE_PROCESSOR,
                                         "handler", handler, NULL);
    GError *error = NULL;
    bool more = true;
    /* peek: false once the client hung up (process would not say) */
    while (more && thrift_transport_peek(top, &error)) {
        conn_in_call(c, true);
        more = thrift_processor_process(proc, proto, proto, &error);
        conn_in_call(c, false);
    }
    g_clear_error(&error);
    hs2_conn_end(handler);
    g_object_unref(proc);
    g_object_unref(handler);
    g_object_unref(proto);
    g_object_unref(top);
    g_object_unref(wire);          /* closes fd */
    conn_remove(c);
    return NULL;
}

/* A connection beyond hive.server2.thrift.max.worker.threads. */
static void *refuse_conn(void *arg)
{
    Conn *c = arg;
    char why[192];
    snprintf(why, sizeof why, "comb serve is serving its limit of %d "
             "connections (hive.server2.thrift.max.worker.threads): try again "
             "later", limits.max_workers);
    hs2_conn_refuse(&security, c->fd, why);
    conn_remove(c);
    return NULL;
}

/* An accepted socket: a thread of its own serving it, or telling it why
 * not (or closed at once when too many are being told). */
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
    if (!rpc_thread_start(c->refused ? refuse_conn : serve_conn, c)) {
        close(fd);
        conn_remove(c);
    }
}

static bool calls_in_progress(void)
{
    bool any = false;
    pthread_mutex_lock(&conns.lock);
    for (int i = 0; i < conns.n && !any; i++)
        any = conns.v[i]->in_call;
    pthread_mutex_unlock(&conns.lock);
    return any;
}

/* The stop's grace (hive.server2.graceful.stop.timeout): no new sessions
 * or statements, and the calls and statements in progress have until its
 * end to finish; a second signal ends it at once.  It is looked at every
 * 50 ms, which a stop can spare. */
static void drain(void)
{
    int64_t end = hs2_now_ms() + limits.grace_ms;
    hs2_service_drain();
    while ((calls_in_progress() || hs2_service_busy()) && hs2_now_ms() < end)
        if (rpc_stop_wait(50))
            break;
}

/* The clients are hung up on and their threads waited for. */
static void end_connections(void)
{
    pthread_mutex_lock(&conns.lock);
    for (int i = 0; i < conns.n; i++)
        shutdown(conns.v[i]->fd, SHUT_RDWR);
    while (conns.n > 0)
        pthread_cond_wait(&conns.gone, &conns.lock);
    comb_free(conns.v);
    conns.v = NULL;
    conns.cap = 0;
    pthread_mutex_unlock(&conns.lock);
}

int hs2_serve(const Hs2Options *opt, CombErr *err)
{
    char host[256];
    int lfd = -1, port = 0, rc;
    if ((rc = rpc_stop_open(err)))
        return rc;
    if (!(rc = hs2_security_init(opt, &security, err)) &&
        !(rc = hs2_limits_init(opt, &limits, err)) &&
        !(rc = hs2_service_start(opt, &security, &limits, err)) &&
        ((rc = rpc_listen(opt->bind, opt->port, &lfd, host, sizeof host,
                          &port, err)) ||
         (rc = hs2_web_start(opt, &security, &web, err)) ||
         (rc = hs2_compactor_start(opt, &compactor, err)))) {
        hs2_web_stop(web);
        web = NULL;
        if (lfd >= 0)
            close(lfd);
        hs2_service_stop();
    }
    if (rc) {
        hs2_security_free(&security);
        rpc_stop_close();
        return rc;
    }
    rpc_stop_catch();
    if (opt->listening)
        opt->listening(host, port);
    rpc_accept_loop(lfd, start_conn, NULL);
    close(lfd);                 /* new clients are refused by the system */
    drain();
    end_connections();
    hs2_compactor_stop(compactor);
    compactor = NULL;
    hs2_web_stop(web);
    web = NULL;
    hs2_service_stop();
    hs2_status_stop();
    hs2_security_free(&security);
    rpc_stop_close();
    return COMB_OK;
}
