/*
 * rpc_frames.h - Thrift's framed transport (each message a 4-byte
 * big-endian length, then its bytes) over a wire, in place of
 * libthrift's, which over-reads its heap when a read spans two frames
 * (found by fuzz/fuzz_hs2_decode.c).  Used by one thread at a time.
 */
#ifndef COMB_RPC_FRAMES_H
#define COMB_RPC_FRAMES_H

#include <stdbool.h>

#include <thrift/c_glib/transport/thrift_transport.h>

/* Frames up to max bytes over wire (it holds a reference); a longer one
 * is an error naming limit (the setting that gives max).  A write's
 * frame goes out at each flush, in one write. */
ThriftTransport *rpc_frames_new(ThriftTransport *wire, guint32 max,
                                const char *limit);
/* The transport a server's protocol reads on wire: frames (framed: a
 * SASL or framed client) or a buffer, messages up to max bytes (limit
 * names the setting).  Answers go out in 64 KiB writes (the buffered
 * transport's default of 512 bytes would send a page of rows in hundreds
 * of writes). */
ThriftTransport *rpc_transport_new(ThriftTransport *wire, bool framed,
                                   guint32 max, const char *limit);
/* The classes made before a server's first connection thread. */
void rpc_frames_register(void);

#endif
