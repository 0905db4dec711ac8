/*
 * hs2.c - hs2_serve: the listening socket (127.0.0.1 unless told
 * otherwise), a thread per connection running TCLIService's processor
 * over the binary protocol on what its handshake set up (hs2_auth.c), and
 * the stop on SIGINT / SIGTERM.
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

/* The connections being served, so that a stop can end them. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t gone;
    int n;
    int *fds;
    int cap;
} conns = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0};

static int stop_pipe[2] = {-1, -1};

static void on_stop_signal(int sig)
{
    ssize_t ignored = write(stop_pipe[1], &sig, 1);
    (void)ignored;
}

static bool conn_add(int fd)
{
    bool ok = true;
    pthread_mutex_lock(&conns.lock);
    if (conns.n == conns.cap) {
        int cap = conns.cap ? conns.cap * 2 : 16;
        int *v = comb_realloc(conns.fds, (size_t)cap * sizeof *v);
        if (v) {
            conns.fds = v;
            conns.cap = cap;
        }
        ok = v != NULL;
    }
    if (ok)
        conns.fds[conns.n++] = fd;
    pthread_mutex_unlock(&conns.lock);
    return ok;
}

static void conn_remove(int fd)
{
    pthread_mutex_lock(&conns.lock);
    for (int i = 0; i < conns.n; i++)
        if (conns.fds[i] == fd) {
            conns.fds[i] = conns.fds[--conns.n];
            break;
        }
    pthread_cond_broadcast(&conns.gone);
    pthread_mutex_unlock(&conns.lock);
}

static Hs2Security security;
static struct Hs2Web *web;
static struct Hs2Compactor *compactor;

/* One client: its handshake, calls until it hangs up (or the server
 * stops), then what its sessions left open is closed. */
static void *serve_conn(void *arg)
{
    int fd = (int)(intptr_t)arg;
    ThriftTransport *wire = NULL, *top = NULL;
    char user[HS2_USER_MAX + 1];
    if (hs2_conn_open(&security, fd, &wire, &top, user)) {
        if (wire) {
            hs2_wire_drain(wire);
            g_object_unref(wire);   /* closes fd */
        } else {
            close(fd);
        }
        conn_remove(fd);
        return NULL;
    }
    ThriftProtocol *proto = g_object_new(THRIFT_TYPE_BINARY_PROTOCOL,
                                         "transport", top, NULL);
    Hs2TCLIServiceHandler *handler = hs2_handler_new(user);
    ThriftProcessor *proc = g_object_new(HS2_TYPE_T_C_L_I_SERVICE_PROCESSOR,
                                         "handler", handler, NULL);
    GError *error = NULL;
    /* peek: false once the client hung up (process would not say) */
    while (thrift_transport_peek(top, &error) &&
           thrift_processor_process(proc, proto, proto, &error))
        ;
    g_clear_error(&error);
    hs2_conn_end(handler);
    g_object_unref(proc);
    g_object_unref(handler);
    g_object_unref(proto);
    g_object_unref(top);
    g_object_unref(wire);          /* closes fd */
    conn_remove(fd);
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

/* Accept until a stop signal; each connection on a thread of its own. */
static void accept_loop(int lfd)
{
    struct pollfd p[2] = {{lfd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (p[1].revents)
            return;
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        pthread_t tid;
        pthread_attr_t attr;
        if (fd < 0)
            continue;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (!conn_add(fd) ||
            pthread_create(&tid, &attr, serve_conn, (void *)(intptr_t)fd)) {
            conn_remove(fd);
            close(fd);
        }
        pthread_attr_destroy(&attr);
    }
}

/* The clients are hung up on and their threads waited for. */
static void end_connections(void)
{
    pthread_mutex_lock(&conns.lock);
    for (int i = 0; i < conns.n; i++)
        shutdown(conns.fds[i], SHUT_RDWR);
    while (conns.n > 0)
        pthread_cond_wait(&conns.gone, &conns.lock);
    comb_free(conns.fds);
    conns.fds = NULL;
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
    if ((rc = hs2_security_init(opt, &security, err)) ||
        (rc = hs2_service_start(opt, &security, err)) ||
        (rc = listen_on(opt, &lfd, host, sizeof host, &port, err)) ||
        (rc = hs2_web_start(opt, &security, &web, err)) ||
        (rc = hs2_compactor_start(opt, &compactor, err))) {
        hs2_web_stop(web);
        web = NULL;
        if (lfd >= 0)
            close(lfd);
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
    close(lfd);
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
