/*
 * hms_wire.c - a connection's socket as a ThriftTransport (hms_int.h).
 * Thrift's own socket transport reads exactly what it is asked for, so
 * the buffered transport above it could not fill its buffer with what has
 * come without waiting for more; this one hands over what the socket has.
 */
#include "hms/hms_int.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct CombHmsWire {
    ThriftTransport parent;
    int fd;                /* -1 once closed */
    size_t pos, len;       /* buf[pos..len) read, not yet taken */
    unsigned char buf[16384];
} CombHmsWire;

typedef struct CombHmsWireClass {
    ThriftTransportClass parent;
} CombHmsWireClass;

G_DEFINE_TYPE(CombHmsWire, comb_hms_wire, THRIFT_TYPE_TRANSPORT)

#define WIRE(t) ((CombHmsWire *)(t))

static void wire_error(GError **error, int code, const char *what)
{
    g_set_error(error, THRIFT_TRANSPORT_ERROR, code, "%s: %s", what,
                errno ? strerror(errno) : "connection closed");
}

/* Refill the empty buffer (at least a byte): false at the client's end or
 * on an error (errno says which). */
static bool fill(CombHmsWire *w)
{
    ssize_t got;
    if (w->fd < 0)
        return false;
    do {
        errno = 0;
        got = recv(w->fd, w->buf, sizeof w->buf, 0);
    } while (got < 0 && errno == EINTR);
    w->pos = 0;
    w->len = got > 0 ? (size_t)got : 0;
    return got > 0;
}

static gboolean wire_is_open(ThriftTransport *t)
{
    return WIRE(t)->fd >= 0;
}

static gboolean wire_open(ThriftTransport *t, GError **error)
{
    (void)error;
    return WIRE(t)->fd >= 0;
}

static gboolean wire_close(ThriftTransport *t, GError **error)
{
    CombHmsWire *w = WIRE(t);
    (void)error;
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    return TRUE;
}

/* false once the client hung up: the connection's loop ends */
static gboolean wire_peek(ThriftTransport *t, GError **error)
{
    CombHmsWire *w = WIRE(t);
    if (w->pos < w->len || fill(w))
        return TRUE;
    if (errno)
        wire_error(error, THRIFT_TRANSPORT_ERROR_RECEIVE, "cannot read");
    return FALSE;
}

/* Exactly len bytes, as the transports above expect. */
static gint32 wire_read(ThriftTransport *t, gpointer buf, guint32 len,
                        GError **error)
{
    CombHmsWire *w = WIRE(t);
    guint32 got = 0;
    while (got < len) {
        size_t n;
        if (w->pos == w->len && !fill(w)) {
            wire_error(error, THRIFT_TRANSPORT_ERROR_RECEIVE, "cannot read");
            return -1;
        }
        n = w->len - w->pos < len - got ? w->len - w->pos : len - got;
        memcpy((unsigned char *)buf + got, w->buf + w->pos, n);
        w->pos += n;
        got += (guint32)n;
    }
    return (gint32)got;
}

static gboolean wire_write(ThriftTransport *t, const gpointer buf,
                           const guint32 len, GError **error)
{
    CombHmsWire *w = WIRE(t);
    const unsigned char *p = buf;
    guint32 done = 0;
    while (done < len) {
        ssize_t n;
        errno = 0;
        n = w->fd < 0 ? -1 : send(w->fd, p + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            wire_error(error, THRIFT_TRANSPORT_ERROR_SEND, "cannot write");
            return FALSE;
        }
        done += (guint32)n;
    }
    return TRUE;
}

/* reads and writes go straight to the socket: nothing to end or flush */
static gboolean wire_nothing(ThriftTransport *t, GError **error)
{
    (void)t;
    (void)error;
    return TRUE;
}

static void wire_finalize(GObject *o)
{
    wire_close(THRIFT_TRANSPORT(o), NULL);
    G_OBJECT_CLASS(comb_hms_wire_parent_class)->finalize(o);
}

static void comb_hms_wire_class_init(CombHmsWireClass *c)
{
    ThriftTransportClass *t = THRIFT_TRANSPORT_CLASS(c);
    G_OBJECT_CLASS(c)->finalize = wire_finalize;
    t->is_open = wire_is_open;
    t->open = wire_open;
    t->close = wire_close;
    t->peek = wire_peek;
    t->read = wire_read;
    t->read_end = wire_nothing;
    t->write = wire_write;
    t->write_end = wire_nothing;
    t->flush = wire_nothing;
}

static void comb_hms_wire_init(CombHmsWire *w)
{
    w->fd = -1;
}

ThriftTransport *hms_wire_new(int fd)
{
    CombHmsWire *w = g_object_new(comb_hms_wire_get_type(), NULL);
    w->fd = fd;
    return THRIFT_TRANSPORT(w);
}

int hms_wire_byte(ThriftTransport *t)
{
    GError *error = NULL;
    gboolean got = wire_peek(t, &error);
    g_clear_error(&error);
    return got ? WIRE(t)->buf[WIRE(t)->pos] : -1;
}
