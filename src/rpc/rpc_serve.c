/*
 * rpc_serve.c - a service's listening socket, stop signals, accept loop,
 * connection threads and the connections' list (rpc/rpc_serve.h).
 */
#include "rpc/rpc_serve.h"
#include "rpc/rpc_process.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>


#include "common/alloc.h"
#include "rpc/rpc_proto.h"

int rpc_listen(const char *bind_to, int port, int *out, char *host, size_t n,
               int *bound_port, CombErr *err)
{
    struct addrinfo hints = {0}, *ai = NULL;
    char service[16];
    int fd = -1, one = 1, rc;
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    if (!bind_to)
        bind_to = "127.0.0.1";
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(service, sizeof service, "%d", port);
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
                      bind_to, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return rc;
    }
    freeaddrinfo(ai);
    *bound_port = atoi(service);
    *out = fd;
    return COMB_OK;
}

static int stop_pipe[2] = {-1, -1};
static bool caught;
static struct sigaction old_int, old_term;

static void on_stop_signal(int sig)
{
    ssize_t ignored = write(stop_pipe[1], &sig, 1);
    (void)ignored;
}

int rpc_stop_open(CombErr *err)
{
    if (pipe2(stop_pipe, O_CLOEXEC))
        return comb_err(err, COMB_EIO, "cannot make a pipe: %s",
                        strerror(errno));
    return COMB_OK;
}

void rpc_stop_catch(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_stop_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signal(SIGPIPE, SIG_IGN);
    caught = true;
}

void rpc_stop_close(void)
{
    if (caught) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        caught = false;
    }
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
}

static void take_signal(void)
{
    char sig;
    ssize_t ignored = read(stop_pipe[0], &sig, 1);
    (void)ignored;
}

void rpc_accept_loop(int lfd, void (*take)(int fd, void *arg), void *arg)
{
    struct pollfd p[2] = {{lfd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (p[1].revents) {
            take_signal();
            return;
        }
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0)
            take(fd, arg);
    }
}

bool rpc_stop_wait(int ms)
{
    struct pollfd p = {stop_pipe[0], POLLIN, 0};
    if (poll(&p, 1, ms) <= 0)
        return false;
    take_signal();
    return true;
}

bool rpc_thread_start(void *(*fn)(void *), void *arg)
{
    pthread_t tid;
    pthread_attr_t attr;
    bool ok;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    ok = pthread_create(&tid, &attr, fn, arg) == 0;
    pthread_attr_destroy(&attr);
    return ok;
}

struct RpcConn {
    int fd;             /* -1 once its thread closes it */
    bool refused;       /* beyond the limit: told so and hung up on */
    bool in_call;       /* between a call's first byte and its answer */
    RpcConn *next;
};

/* The connections (every field under lock). */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t gone;
    RpcConn *list;
    int served, refused;
    int max_served, max_refused;
    bool stopping;      /* no new call begins */
} conns = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0,
           0, 0, false};

void rpc_conns_begin(int max_served, int max_refusers)
{
    pthread_mutex_lock(&conns.lock);
    conns.max_served = max_served;
    conns.max_refused = max_refusers;
    conns.stopping = false;
    pthread_mutex_unlock(&conns.lock);
}

/* c in the list, served when under the limit, else refused when few
 * are; false when neither: c is to be dropped. */
static bool conn_admit(RpcConn *c)
{
    bool ok;
    pthread_mutex_lock(&conns.lock);
    c->refused = conns.served >= conns.max_served;
    ok = !conns.stopping &&
         (!c->refused || conns.refused < conns.max_refused);
    if (ok) {
        c->next = conns.list;
        conns.list = c;
        if (c->refused)
            conns.refused++;
        else
            conns.served++;
    }
    pthread_mutex_unlock(&conns.lock);
    return ok;
}

void rpc_conn_start(int fd, void *(*serve)(void *), void *(*refuse)(void *))
{
    RpcConn *c = comb_calloc(1, sizeof *c);
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
    if (!rpc_thread_start(c->refused ? refuse : serve, c)) {
        rpc_conn_forget_fd(c);
        close(fd);
        rpc_conn_done(c);
    }
}

int rpc_conn_fd(const RpcConn *c)
{
    return c->fd;       /* only its thread changes it */
}

bool rpc_conn_call(RpcConn *c, bool on)
{
    bool stopping;
    pthread_mutex_lock(&conns.lock);
    stopping = conns.stopping;
    c->in_call = on && !stopping;
    pthread_mutex_unlock(&conns.lock);
    return !stopping;
}

void rpc_conn_forget_fd(RpcConn *c)
{
    pthread_mutex_lock(&conns.lock);
    c->fd = -1;
    pthread_mutex_unlock(&conns.lock);
}

void rpc_conn_done(RpcConn *c)
{
    pthread_mutex_lock(&conns.lock);
    for (RpcConn **p = &conns.list; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
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

void rpc_conn_calls(RpcConn *c, ThriftTransport *top, ThriftProcessor *proc)
{
    ThriftProtocol *proto = rpc_proto_new(top);
    GError *error = NULL;
    bool more = true;
    /* peek: false once the client hung up (process would not say) */
    while (more && thrift_transport_peek(top, &error) && rpc_conn_call(c, true)) {
        more = rpc_process(proc, proto, &error);
        more = rpc_conn_call(c, false) && more;
    }
    g_clear_error(&error);
    g_object_unref(proto);
}

bool rpc_conns_busy(void)
{
    bool any = false;
    pthread_mutex_lock(&conns.lock);
    for (RpcConn *c = conns.list; c && !any; c = c->next)
        any = c->in_call;
    pthread_mutex_unlock(&conns.lock);
    return any;
}

/* Hang up on the connections not in a call (all of them with all),
 * under conns.lock. */
static void hang_up_locked(bool all)
{
    for (RpcConn *c = conns.list; c; c = c->next)
        if ((all || !c->in_call) && c->fd >= 0)
            shutdown(c->fd, SHUT_RDWR);
}

void rpc_conns_end(int64_t grace_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += grace_ms / 1000;
    until.tv_nsec += (long)(grace_ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&conns.lock);
    conns.stopping = true;
    hang_up_locked(false);
    while (conns.list && grace_ms > 0 &&
           pthread_cond_timedwait(&conns.gone, &conns.lock, &until) != ETIMEDOUT)
        ;
    hang_up_locked(true);
    while (conns.list)
        pthread_cond_wait(&conns.gone, &conns.lock);
    pthread_mutex_unlock(&conns.lock);
}
