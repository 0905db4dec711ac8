/*
 * rpc_wire.h - the bottom transport of a Thrift connection: its socket,
 * or the TLS session on it, as a ThriftTransport the framed or buffered
 * transport stacks on.  Reads go through a buffer of what the socket had
 * (Thrift's buffered transport asks for each field's few bytes alone:
 * without it every field is a system call, and Thrift's own socket
 * transport would wait for more than has come), which also lets a server
 * look at the first byte before anyone reads it (framed or not, TLS or
 * not).  Writes go straight to the socket: nothing to flush.
 *
 * A wire is used by one thread at a time (its connection's).
 */
#ifndef COMB_RPC_WIRE_H
#define COMB_RPC_WIRE_H

#include <thrift/c_glib/transport/thrift_transport.h>

struct ssl_st;

/* fd, or the TLS session ssl on it (NULL: the plain socket); the wire
 * owns both: closing or dropping it closes them.  fd -1: a closed wire
 * (reads end, writes fail). */
ThriftTransport *rpc_wire_new(int fd, struct ssl_st *ssl);
/* The next byte, left to be read (-1 at the end or on error). */
int rpc_wire_byte(ThriftTransport *wire);
/* After a refusal: what was said reaches the client before the hang-up
 * (unread bytes would make the close a reset that can overtake it): the
 * sending side is shut, what the client still sends read and dropped
 * (up to a second, 1 MiB). */
void rpc_wire_drain(ThriftTransport *wire);
/* The wire's class (and GLib's lock of its error domains) made before a
 * server's first connection thread: GLib makes them on first use with
 * atomics ThreadSanitizer does not see. */
void rpc_wire_register(void);

#endif
