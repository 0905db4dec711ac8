/*
 * hs2.c - hs2_serve: the listening socket (127.0.0.1 unless told
 * otherwise), a thread per connection running TCLIService's processor
 * over the binary protocol on what its handshake set up (hs2_auth.c), up
 * to hive.server2.thrift.max.worker.threads of them (the ones beyond told
 * why and hung up on), and the stop on SIGINT / SIGTERM: the calls and
 * statements in progress finish within the grace, then the clients are
 * hung up on (what still runs is cancelled and rolls back).
 */
#include "server/hs2_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>

#include "common/alloc.h"

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

static int stop_pipe[2] = {-1, -1};
static Hs2Security security;
static Hs2Limits limits;

static void on_stop_signal(int sig)
{
    ssize_t ignored = write(stop_pipe[1], &sig, 1);
    (void)ignored;
}

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

static int listen_on(const Hs2Options *opt, int *out, char *host, size_t n,
                     int *port, CombErr *err)
{
    struct addrinfo hints = {0}, *ai = NULL;
    char service[16];
    const char *bind_to = opt->bind ? opt->bind : "127.0.0.1";
    int fd = -1, one = 1, rc;
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(service, sizeof service, "%d", opt->port);
    if ((rc = getaddrinfo(bind_to, service, &hints, &ai)))
        return comb_err(err, COMB_EINVALID, "cannot listen on '%s': %s",
                        bind_to, gai_strerror(rc));
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128) ||
        getsockname(fd, (struct sockaddr *)&sa, &len) ||
        getnameinfo((struct sockaddr *)&sa, len, host, (socklen_t)n, service,
                    sizeof service, NI_NUMERICHOST | NI_NUMERICSERV)) {
        rc = comb_err(err, COMB_EIO, "cannot listen on %s port %d: %s",
                      bind_to, opt->port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return rc;
    }
    freeaddrinfo(ai);
    *port = atoi(service);
    *out = fd;
    return COMB_OK;
}

/* Accept until a stop signal (read here); each connection on a thread of
 * its own. */
static void accept_loop(int lfd)
{
    struct pollfd p[2] = {{lfd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
    char sig;
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (p[1].revents) {
            ssize_t ignored = read(stop_pipe[0], &sig, 1);
            (void)ignored;
            return;
        }
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        Conn *c = fd < 0 ? NULL : comb_calloc(1, sizeof *c);
        pthread_t tid;
        pthread_attr_t attr;
        if (!c) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        c->fd = fd;
        if (!conn_admit(c)) {
            close(fd);
            comb_free(c);
            continue;
        }
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&tid, &attr, c->refused ? refuse_conn : serve_conn,
                           c)) {
            close(fd);
            conn_remove(c);
        }
        pthread_attr_destroy(&attr);
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
    struct pollfd p = {stop_pipe[0], POLLIN, 0};
    hs2_service_drain();
    while ((calls_in_progress() || hs2_service_busy()) && hs2_now_ms() < end)
        if (poll(&p, 1, 50) > 0)
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
    struct sigaction sa = {0}, old_int, old_term;
    char host[256];
    int lfd = -1, port = 0, rc;
    if (pipe2(stop_pipe, O_CLOEXEC))
        return comb_err(err, COMB_EIO, "cannot make a pipe: %s",
                        strerror(errno));
    if (!(rc = hs2_security_init(opt, &security, err)) &&
        !(rc = hs2_limits_init(opt, &limits, err)) &&
        !(rc = hs2_service_start(opt, &security, &limits, err)) &&
        ((rc = listen_on(opt, &lfd, host, sizeof host, &port, err)) ||
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
        close(stop_pipe[0]);
        close(stop_pipe[1]);
        return rc;
    }
    sa.sa_handler = on_stop_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signal(SIGPIPE, SIG_IGN);   /* a client gone mid-answer is an error */
    if (opt->listening)
        opt->listening(host, port);
    accept_loop(lfd);
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
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    return COMB_OK;
}
