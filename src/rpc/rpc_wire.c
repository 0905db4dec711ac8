/*
 * rpc_wire.c - the bottom transport of a connection (rpc/rpc_wire.h): its
 * socket, or the TLS session on it (OpenSSL), as a ThriftTransport the
 * framed or buffered transport stacks on.  Reads go through a buffer of what the
 * socket had (Thrift's buffered transport asks for each field's few bytes
 * alone: without it every field is a system call), which also lets the
 * handshake look at the first byte before anyone reads it.
 */
#include "rpc/rpc_wire.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

typedef struct CombRpcWire {
    ThriftTransport parent;
    int fd;
    SSL *ssl;           /* NULL: plain socket; owned */
    size_t pos, len;    /* buf[pos..len) read, not yet taken */
    unsigned char buf[16384];
} CombRpcWire;

typedef struct CombRpcWireClass {
    ThriftTransportClass parent;
} CombRpcWireClass;

G_DEFINE_TYPE(CombRpcWire, comb_rpc_wire, THRIFT_TYPE_TRANSPORT)

#define WIRE(t) ((CombRpcWire *)(t))

static void wire_error(GError **error, int code, const char *what)
{
    g_set_error(error, THRIFT_TRANSPORT_ERROR, code, "%s: %s", what,
                errno ? strerror(errno) : "connection closed");
}

/* Up to n bytes (at least one), 0 at the end, -1 on error. */
static ssize_t read_some(CombRpcWire *w, void *buf, size_t n)
{
    for (;;) {
        ssize_t got;
        errno = 0;
        if (w->ssl) {
            int r = SSL_read(w->ssl, buf, n > INT32_MAX ? INT32_MAX : (int)n);
            if (r > 0)
                return r;
            int e = SSL_get_error(w->ssl, r);
            ERR_clear_error();
            if (e == SSL_ERROR_ZERO_RETURN)
                return 0;
            if (e == SSL_ERROR_SYSCALL && errno == EINTR)
                continue;
            return e == SSL_ERROR_SYSCALL && errno == 0 ? 0 : -1;
        }
        got = recv(w->fd, buf, n, 0);
        if (got >= 0 || errno != EINTR)
            return got;
    }
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
    CombRpcWire *w = WIRE(t);
    (void)error;
    if (w->ssl) {
        SSL_shutdown(w->ssl);
        SSL_free(w->ssl);
        ERR_clear_error();
        w->ssl = NULL;
    }
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    return TRUE;
}

/* Fill the empty buffer with what the client sent (at least a byte):
 * false at its end or on an error (errno then says which). */
static bool fill(CombRpcWire *w)
{
    ssize_t got;
    if (w->fd < 0)
        return false;
    got = read_some(w, w->buf, sizeof w->buf);
    w->pos = 0;
    w->len = got > 0 ? (size_t)got : 0;
    return got > 0;
}

/* false once the client hung up: the connection's loop ends */
static gboolean wire_peek(ThriftTransport *t, GError **error)
{
    CombRpcWire *w = WIRE(t);
    if (w->pos < w->len)
        return TRUE;
    if (fill(w))
        return TRUE;
    if (errno)
        wire_error(error, THRIFT_TRANSPORT_ERROR_RECEIVE, "cannot read");
    return FALSE;
}

/* Exactly len bytes, as the transports above expect. */
static gint32 wire_read(ThriftTransport *t, gpointer buf, guint32 len,
                        GError **error)
{
    CombRpcWire *w = WIRE(t);
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
    CombRpcWire *w = WIRE(t);
    const unsigned char *p = buf;
    guint32 done = 0;
    while (done < len) {
        ssize_t n;
        errno = 0;
        if (w->ssl) {
            n = SSL_write(w->ssl, p + done, (int)(len - done));
            if (n <= 0)
                ERR_clear_error();
        } else {
            n = w->fd < 0 ? -1
                          : send(w->fd, p + done, len - done, MSG_NOSIGNAL);
        }
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
    G_OBJECT_CLASS(comb_rpc_wire_parent_class)->finalize(o);
}

static void comb_rpc_wire_class_init(CombRpcWireClass *c)
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

static void comb_rpc_wire_init(CombRpcWire *w)
{
    w->fd = -1;
}

void rpc_wire_register(void)
{
    GError *first = NULL;
    g_type_class_unref(g_type_class_ref(comb_rpc_wire_get_type()));
    /* GLib makes the lock of its error domains on the first GError, with
     * atomics ThreadSanitizer does not see: that one is made here, before
     * connections fail on threads of their own */
    wire_error(&first, THRIFT_TRANSPORT_ERROR_RECEIVE, "none");
    g_clear_error(&first);
}

ThriftTransport *rpc_wire_new(int fd, struct ssl_st *ssl)
{
    CombRpcWire *w = g_object_new(comb_rpc_wire_get_type(), NULL);
    w->fd = fd;
    w->ssl = ssl;
    return THRIFT_TRANSPORT(w);
}

int rpc_wire_byte(ThriftTransport *t)
{
    GError *error = NULL;
    gboolean got = wire_peek(t, &error);
    g_clear_error(&error);
    return got ? WIRE(t)->buf[WIRE(t)->pos] : -1;
}

void rpc_wire_drain(ThriftTransport *t)
{
    CombRpcWire *w = WIRE(t);
    unsigned char sink[4096];
    struct timeval tv = {1, 0};
    size_t total = 0;
    ssize_t n;
    if (w->fd < 0)
        return;
    if (w->ssl)
        SSL_shutdown(w->ssl);
    shutdown(w->fd, SHUT_WR);
    setsockopt(w->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    while (total < (1 << 20) && (n = recv(w->fd, sink, sizeof sink, 0)) > 0)
        total += (size_t)n;
    ERR_clear_error();
}
