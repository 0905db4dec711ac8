/*
 * rpc_process.h - one call of a connection read and answered by a
 * generated processor, as libthrift's thrift_processor_process does,
 * without what Debian's libthrift-c-glib 0.17 leaks and logs on a
 * malformed call (rpc_process.c says what).
 */
#ifndef COMB_RPC_PROCESS_H
#define COMB_RPC_PROCESS_H

#include <thrift/c_glib/processor/thrift_dispatch_processor.h>
#include <thrift/c_glib/protocol/thrift_protocol.h>

/* comb's answer to an unknown method in place of libthrift's, for every
 * generated processor; before the first connection's thread (GLib makes
 * the class on first use), from rpc_proto_register. */
void rpc_process_register(void);
/* One call read from proto (of rpc_proto_new) and answered on it by proc (a generated
 * processor: a ThriftDispatchProcessor).  FALSE with *error set when the
 * call was malformed or could not be answered (the connection should
 * end), but for an unknown method, which is answered with Thrift's
 * UNKNOWN_METHOD "Invalid method name: 'x'" and gives TRUE. */
gboolean rpc_process(ThriftProcessor *proc, ThriftProtocol *proto,
                     GError **error);

#endif
