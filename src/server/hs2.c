/*
 * hs2.c - hs2_serve: the listening socket (127.0.0.1 unless told
 * otherwise), a thread per connection (rpc/rpc_serve.h) running
 * TCLIService's processor over the binary protocol on what its handshake set up (hs2_auth.c), up
 * to hive.server2.thrift.max.worker.threads of them (the ones beyond told
 * why and hung up on), and the stop on SIGINT / SIGTERM: the calls and
 * statements in progress finish within the grace, then the clients are
 * hung up on (what still runs is cancelled and rolls back).
 */
#include "server/hs2_int.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>


#include "rpc/rpc_serve.h"

/* Connections beyond the limit are told why by threads of their own, this
 * many at once; the rest are closed at once (a flood costs no threads). */
#define REFUSERS_MAX 8

static Hs2Security security;
static Hs2Limits limits;

static struct Hs2Web *web;
static struct Hs2Compactor *compactor;

/* One client: its handshake, calls until it hangs up (or the server
 * stops), then what its sessions left open is closed. */
static void *serve_conn(void *arg)
{
    RpcConn *c = arg;
    int fd = rpc_conn_fd(c);
    ThriftTransport *wire = NULL, *top = NULL;
    char user[HS2_USER_MAX + 1];
    if (hs2_conn_open(&security, fd, &wire, &top, user)) {
        rpc_conn_forget_fd(c);
        if (wire) {
            rpc_wire_drain(wire);
            g_object_unref(wire);   /* closes fd */
        } else {
            close(fd);
        }
        rpc_conn_done(c);
        return NULL;
    }
    Hs2TCLIServiceHandler *handler = hs2_handler_new(user);
    ThriftProcessor *proc = g_object_new(HS2_TYPE_T_C_L_I_SERVICE_PROCESSOR,
                                         "handler", handler, NULL);
    rpc_conn_calls(c, top, proc);
    hs2_conn_end(handler);
    g_object_unref(proc);
    g_object_unref(handler);
    g_object_unref(top);
    rpc_conn_forget_fd(c);
    g_object_unref(wire);          /* closes fd */
    rpc_conn_done(c);
    return NULL;
}

/* A connection beyond hive.server2.thrift.max.worker.threads. */
static void *refuse_conn(void *arg)
{
    RpcConn *c = arg;
    int fd = rpc_conn_fd(c);
    char why[192];
    snprintf(why, sizeof why, "comb serve is serving its limit of %d "
             "connections (hive.server2.thrift.max.worker.threads): try again "
             "later", limits.max_workers);
    rpc_conn_forget_fd(c);
    hs2_conn_refuse(&security, fd, why);
    rpc_conn_done(c);
    return NULL;
}

static void start_conn(int fd, void *arg)
{
    (void)arg;
    rpc_conn_start(fd, serve_conn, refuse_conn);
}

/* The stop's grace (hive.server2.graceful.stop.timeout): no new sessions
 * or statements, and the calls and statements in progress have until its
 * end to finish; a second signal ends it at once.  It is looked at every
 * 50 ms, which a stop can spare. */
static void drain(void)
{
    int64_t end = hs2_now_ms() + limits.grace_ms;
    hs2_service_drain();
    while ((rpc_conns_busy() || hs2_service_busy()) && hs2_now_ms() < end)
        if (rpc_stop_wait(50))
            break;
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
    rpc_conns_begin(limits.max_workers, REFUSERS_MAX);
    if (opt->listening)
        opt->listening(host, port);
    rpc_accept_loop(lfd, start_conn, NULL);
    close(lfd);                 /* new clients are refused by the system */
    drain();
    rpc_conns_end(0);           /* the clients hung up on, waited for */
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
