/*
 * rpc_serve.h - what a Thrift service's main loop is made of, the same in
 * `comb serve` (server/hs2.c) and `comb metastore` (hms/hms.c): the
 * listening socket, the stop on SIGINT / SIGTERM, the accept loop that
 * hands each accepted socket over, and a detached thread per connection.
 * What a connection runs, how many are admitted and what the stop's grace
 * waits for stay the service's.
 *
 * One service per process: the stop (its pipe and signal handlers) is
 * process-wide, made by rpc_stop_open and undone by rpc_stop_close, used
 * by one thread (the service's main one) in between.
 */
#ifndef COMB_RPC_SERVE_H
#define COMB_RPC_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

/* A listening TCP socket on bind (NULL: 127.0.0.1) port (0: any free
 * one), close-on-exec: *fd, and the address it is bound to (host, n
 * bytes, numeric; *bound_port).  COMB_EINVALID for an address that does
 * not resolve, COMB_EIO when it cannot be bound. */
int rpc_listen(const char *bind, int port, int *fd, char *host, size_t n,
               int *bound_port, CombErr *err);

/* The stop's pipe, which the signal handlers write to. */
int rpc_stop_open(CombErr *err);
/* From now SIGINT and SIGTERM stop the service (rpc_accept_loop returns,
 * rpc_stop_wait sees a second one), and SIGPIPE is ignored: a client
 * gone mid-answer is a write's error. */
void rpc_stop_catch(void);
/* The handlers before rpc_stop_catch back (when it was called), the pipe
 * closed. */
void rpc_stop_close(void);

/* Accept on lfd until a stop signal (taken); each accepted socket
 * (close-on-exec) is given to take, which owns it. */
void rpc_accept_loop(int lfd, void (*take)(int fd, void *arg), void *arg);
/* Wait up to ms milliseconds for a stop signal (taken): true when one
 * came (a second signal during the stop's grace ends it at once). */
bool rpc_stop_wait(int ms);

/* fn(arg) on a detached thread of its own; false when none could be
 * made (fn is not called). */
bool rpc_thread_start(void *(*fn)(void *), void *arg);

#endif
