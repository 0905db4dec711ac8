/*
 * rpc_frames.c - Thrift's framed transport (each message a 4-byte
 * big-endian length, then that many bytes), over the wire (rpc_wire.c),
 * in place of libthrift's.  Debian's libthrift-c-glib 0.17 copies from the
 * wrong address when a read spans two frames (the GByteArray record, not
 * its data: a heap over-read that a client's bytes choose, and garbage
 * decoded), and allocates each frame's announced length before reading
 * it.  Here a frame's bytes are handed from the wire's buffer as they
 * come, across frames, and a frame longer than the limit is an error.
 * Writes are gathered and go out as one frame at each flush.
 */
#include "rpc/rpc_frames.h"

#include <thrift/c_glib/thrift_configuration.h>
#include <thrift/c_glib/transport/thrift_buffered_transport.h>
#include <thrift/c_glib/transport/thrift_transport.h>

#include <string.h>

typedef struct CombRpcFrames {
    ThriftTransport parent;
    ThriftTransport *wire;      /* a reference */
    guint32 max;                /* the longest frame taken */
    const char *limit;          /* what sets max, for the error */
    guint32 left;               /* bytes of the frame being read not read */
    GByteArray *out;            /* 4 bytes for the length, then the frame */
} CombRpcFrames;

typedef struct CombRpcFramesClass {
    ThriftTransportClass parent;
} CombRpcFramesClass;

G_DEFINE_TYPE(CombRpcFrames, comb_rpc_frames, THRIFT_TYPE_TRANSPORT)

#define FRAMES(t) ((CombRpcFrames *)(t))

enum { HEADER = 4 };

static gboolean frames_is_open(ThriftTransport *t)
{
    return thrift_transport_is_open(FRAMES(t)->wire);
}

static gboolean frames_open(ThriftTransport *t, GError **error)
{
    return thrift_transport_open(FRAMES(t)->wire, error);
}

static gboolean frames_close(ThriftTransport *t, GError **error)
{
    return thrift_transport_close(FRAMES(t)->wire, error);
}

static gboolean frames_peek(ThriftTransport *t, GError **error)
{
    return FRAMES(t)->left > 0 || thrift_transport_peek(FRAMES(t)->wire, error);
}

/* The next frame's length read; false at the end or when over the limit. */
static bool next_frame(CombRpcFrames *f, GError **error)
{
    unsigned char h[HEADER];
    guint32 n;
    if (thrift_transport_read(f->wire, h, HEADER, error) != HEADER)
        return false;
    n = (guint32)h[0] << 24 | (guint32)h[1] << 16 | (guint32)h[2] << 8 | h[3];
    if (n > f->max) {
        g_set_error(error, THRIFT_TRANSPORT_ERROR,
                    THRIFT_TRANSPORT_ERROR_RECEIVE, "a frame of %u bytes is "
                    "over the limit of %u (%s)", n, f->max, f->limit);
        return false;
    }
    f->left = n;
    return true;
}

/* Exactly len bytes of the frames' contents, as the protocol expects. */
static gint32 frames_read(ThriftTransport *t, gpointer buf, guint32 len,
                          GError **error)
{
    CombRpcFrames *f = FRAMES(t);
    guint32 got = 0;
    while (got < len) {
        guint32 n;
        if (f->left == 0) {
            if (!next_frame(f, error))
                return -1;
            continue;       /* an empty frame carries nothing */
        }
        n = f->left < len - got ? f->left : len - got;
        if (thrift_transport_read(f->wire, (unsigned char *)buf + got, n,
                                  error) != (gint32)n)
            return -1;
        f->left -= n;
        got += n;
    }
    return (gint32)got;
}

/* No string or list the protocol reads can be longer than a frame (the
 * protocol asks before it allocates one). */
static gboolean frames_check_read(ThriftTransport *t, glong n, GError **error)
{
    if (n >= 0 && (gulong)n <= FRAMES(t)->max)
        return TRUE;
    g_set_error(error, THRIFT_TRANSPORT_ERROR, THRIFT_TRANSPORT_ERROR_RECEIVE,
                "%ld bytes announced: over the limit of %u", n,
                FRAMES(t)->max);
    return FALSE;
}

static gboolean frames_read_end(ThriftTransport *t, GError **error)
{
    (void)t;
    (void)error;
    return TRUE;
}

static gboolean frames_write(ThriftTransport *t, const gpointer buf,
                             const guint32 len, GError **error)
{
    (void)error;
    g_byte_array_append(FRAMES(t)->out, buf, len);
    return TRUE;
}

static gboolean frames_write_end(ThriftTransport *t, GError **error)
{
    (void)t;
    (void)error;
    return TRUE;
}

/* The frame written in one write (its length first), then begun anew. */
static gboolean frames_flush(ThriftTransport *t, GError **error)
{
    CombRpcFrames *f = FRAMES(t);
    guint32 n = f->out->len - HEADER;
    gboolean ok;
    f->out->data[0] = (guint8)(n >> 24);
    f->out->data[1] = (guint8)(n >> 16);
    f->out->data[2] = (guint8)(n >> 8);
    f->out->data[3] = (guint8)n;
    ok = thrift_transport_write(f->wire, f->out->data, f->out->len, error) &&
         thrift_transport_flush(f->wire, error);
    g_byte_array_set_size(f->out, HEADER);
    return ok;
}

static void frames_finalize(GObject *o)
{
    CombRpcFrames *f = FRAMES(o);
    g_byte_array_unref(f->out);
    if (f->wire)
        g_object_unref(f->wire);
    G_OBJECT_CLASS(comb_rpc_frames_parent_class)->finalize(o);
}

static void comb_rpc_frames_class_init(CombRpcFramesClass *c)
{
    ThriftTransportClass *t = THRIFT_TRANSPORT_CLASS(c);
    G_OBJECT_CLASS(c)->finalize = frames_finalize;
    t->is_open = frames_is_open;
    t->open = frames_open;
    t->close = frames_close;
    t->peek = frames_peek;
    t->read = frames_read;
    t->read_end = frames_read_end;
    t->write = frames_write;
    t->write_end = frames_write_end;
    t->flush = frames_flush;
    t->checkReadBytesAvailable = frames_check_read;
}

static void comb_rpc_frames_init(CombRpcFrames *f)
{
    f->out = g_byte_array_sized_new(4096);
    g_byte_array_set_size(f->out, HEADER);
}

ThriftTransport *rpc_frames_new(ThriftTransport *wire, guint32 max,
                               const char *limit)
{
    CombRpcFrames *f = g_object_new(comb_rpc_frames_get_type(), NULL);
    f->wire = g_object_ref(wire);
    f->max = max;
    f->limit = limit;
    return THRIFT_TRANSPORT(f);
}

ThriftTransport *rpc_transport_new(ThriftTransport *wire, bool framed,
                                   guint32 max, const char *limit)
{
    ThriftConfiguration *conf;
    ThriftTransport *t;
    if (framed)
        return rpc_frames_new(wire, max, limit);
    conf = g_object_new(THRIFT_TYPE_CONFIGURATION, "max_message_size",
                        (gint)(max > G_MAXINT ? G_MAXINT : max), NULL);
    t = g_object_new(THRIFT_TYPE_BUFFERED_TRANSPORT, "transport", wire,
                     "configuration", conf, "w_buf_size", 65536, NULL);
    g_object_unref(conf);
    return t;
}

void rpc_frames_register(void)
{
    g_type_class_unref(g_type_class_ref(comb_rpc_frames_get_type()));
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_BUFFERED_TRANSPORT));
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_CONFIGURATION));
}
