/*
 * rpc_serve.c - a service's listening socket, stop signals, accept loop
 * and connection threads (rpc/rpc_serve.h).
 */
#include "rpc/rpc_serve.h"

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
#include <unistd.h>

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
