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
#include <stdint.h>

#include <thrift/c_glib/processor/thrift_processor.h>
#include <thrift/c_glib/transport/thrift_transport.h>

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

/* The connections, process-wide as the stop: each accepted socket a
 * connection with a thread of its own, so that a stop can wait for the
 * calls in progress and hang up on the clients. */
typedef struct RpcConn RpcConn;

/* From now up to max_served connections are served at once; those
 * beyond are refused (told why, by the service) on threads of their own
 * while fewer than max_refusers are, else closed at once (a flood costs
 * no threads). */
void rpc_conns_begin(int max_served, int max_refusers);
/* Accepted socket fd as a connection: serve(c), or refuse(c) beyond the
 * limit, on a thread of its own; closed when neither (or out of memory).
 * The thread ends with rpc_conn_done(c). */
void rpc_conn_start(int fd, void *(*serve)(void *), void *(*refuse)(void *));
/* c's socket, which its thread owns */
int rpc_conn_fd(const RpcConn *c);
/* c's thread is in a call (on) or out of it; false once the service
 * stops (rpc_conns_end): no new call begins, and one that ended is the
 * connection's last. */
bool rpc_conn_call(RpcConn *c, bool on);
/* c's socket is about to close: the stop must not shut down whatever
 * socket gets its number next. */
void rpc_conn_forget_fd(RpcConn *c);
/* c's thread ends: c is freed, its place frees for the next client. */
void rpc_conn_done(RpcConn *c);
/* Calls on c until its client hangs up, the service stops or a call
 * fails: each read from top (what stacks on c's wire) by the binary
 * protocol and answered by proc (rpc_process: an unknown method is
 * answered and the connection goes on). */
void rpc_conn_calls(RpcConn *c, ThriftTransport *top, ThriftProcessor *proc);
/* A connection is in a call. */
bool rpc_conns_busy(void);
/* The stop, after the accept loop: no new call begins, the idle clients
 * are hung up on, the calls in progress have grace_ms to end (then their
 * clients are hung up on too), and every connection's thread is waited
 * for. */
void rpc_conns_end(int64_t grace_ms);

#endif
