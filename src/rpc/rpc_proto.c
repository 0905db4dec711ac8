/*
 * rpc_proto.c - Thrift's binary protocol as libthrift has it, but for the
 * reading of a binary, a string and a message's header.  Debian's
 * libthrift-c-glib 0.17 leaves a binary's pointer unset when the length
 * cannot be read (thrift_protocol_skip, of an unknown field or call, then
 * frees whatever the stack held), hands a negative length back as if it
 * were one (the generated reader appended some 4 GiB from NULL), and
 * allocates any announced length before reading it, a string's too (two
 * gigabytes for a length of 0x7fffffff: found by fuzz/fuzz_hms_decode.c).
 * Here a binary or a string is NULL until read, and its length must be
 * what the transport may still carry (a server's message size limit),
 * else the read is an error.  The library's header reader leaves the
 * name it read allocated when the sequence number that follows is cut
 * short, and takes a header without the version (the protocol's old
 * form) leaving name and type unset; here both are errors.
 */
#include "rpc/rpc_proto.h"
#include "rpc/rpc_process.h"

#include <stdbool.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>

typedef struct CombRpcProto {
    ThriftBinaryProtocol parent;
} CombRpcProto;

typedef struct CombRpcProtoClass {
    ThriftBinaryProtocolClass parent;
} CombRpcProtoClass;

G_DEFINE_TYPE(CombRpcProto, comb_rpc_proto, THRIFT_TYPE_BINARY_PROTOCOL)

/* A length as the transport takes it: not negative, and within what it
 * may still read. */
static bool length_ok(ThriftProtocol *p, gint32 n, GError **error)
{
    if (n < 0) {
        g_set_error(error, THRIFT_PROTOCOL_ERROR,
                    THRIFT_PROTOCOL_ERROR_NEGATIVE_SIZE,
                    "a binary of negative length (%d)", n);
        return false;
    }
    return THRIFT_TRANSPORT_GET_CLASS(p->transport)
        ->checkReadBytesAvailable(p->transport, n, error);
}

static gint32 proto_read_binary(ThriftProtocol *p, gpointer *buf,
                                guint32 *len, GError **error)
{
    gint32 n = 0, got = thrift_protocol_read_i32(p, &n, error);
    *buf = NULL;
    *len = 0;
    if (got < 0 || !length_ok(p, n, error))
        return -1;
    if (n == 0)
        return got;
    *buf = g_malloc((gsize)n);
    if (thrift_transport_read_all(p->transport, *buf, (guint32)n, error) < 0) {
        g_free(*buf);
        *buf = NULL;
        return -1;
    }
    *len = (guint32)n;
    return got + n;
}

/* A string as a binary of its own with a NUL after it (an empty one is
 * "", as libthrift gives it): *str NULL unless all of it was read. */
static gint32 proto_read_string(ThriftProtocol *p, gchar **str, GError **error)
{
    gpointer bytes;
    guint32 len;
    gint32 got = proto_read_binary(p, &bytes, &len, error);
    *str = NULL;
    if (got < 0)
        return -1;
    *str = g_realloc(bytes, (gsize)len + 1);
    (*str)[len] = '\0';
    return got;
}

/* The header of a message in the strict form (the version and type, the
 * name, the sequence number); *name NULL unless the whole header was
 * read. */
static gint32 proto_read_message_begin(ThriftProtocol *p, gchar **name,
                                       ThriftMessageType *type, gint32 *seqid,
                                       GError **error)
{
    gint32 head = 0, got = thrift_protocol_read_i32(p, &head, error), more;
    *name = NULL;
    if (got < 0)
        return -1;
    if (head >= 0 || ((guint32)head & THRIFT_BINARY_PROTOCOL_VERSION_MASK) !=
                         THRIFT_BINARY_PROTOCOL_VERSION_1) {
        g_set_error(error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_BAD_VERSION,
                    "a message without the binary protocol's version 1 "
                    "header (0x%08x)", (guint32)head);
        return -1;
    }
    *type = (ThriftMessageType)(head & 0xff);
    if ((more = proto_read_string(p, name, error)) < 0)
        return -1;
    got += more;
    if ((more = thrift_protocol_read_i32(p, seqid, error)) < 0) {
        g_free(*name);
        *name = NULL;
        return -1;
    }
    return got + more;
}

static void comb_rpc_proto_class_init(CombRpcProtoClass *c)
{
    THRIFT_PROTOCOL_CLASS(c)->read_binary = proto_read_binary;
    THRIFT_PROTOCOL_CLASS(c)->read_string = proto_read_string;
    THRIFT_PROTOCOL_CLASS(c)->read_message_begin = proto_read_message_begin;
}

static void comb_rpc_proto_init(CombRpcProto *p)
{
    (void)p;
}

ThriftProtocol *rpc_proto_new(ThriftTransport *t)
{
    return g_object_new(comb_rpc_proto_get_type(), "transport", t, NULL);
}

void rpc_proto_register(void)
{
    /* whatever reads calls through this protocol dispatches them with
     * rpc_process */
    rpc_process_register();
    g_type_class_unref(g_type_class_ref(comb_rpc_proto_get_type()));
}
