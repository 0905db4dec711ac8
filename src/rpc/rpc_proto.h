/*
 * rpc_proto.h - Thrift's binary protocol, libthrift's but for reading a
 * binary: libthrift 0.17 leaves its pointer unset when the length cannot
 * be read, and takes a negative or any announced length (found by
 * fuzz/fuzz_hs2_decode.c).  Here a negative one, or one longer than the
 * transport may still carry, is an error.
 */
#ifndef COMB_RPC_PROTO_H
#define COMB_RPC_PROTO_H

#include <thrift/c_glib/protocol/thrift_protocol.h>

ThriftProtocol *rpc_proto_new(ThriftTransport *t);
/* The class made before a server's first connection thread. */
void rpc_proto_register(void);

#endif
