/*
 * hs2_auth.c - who a connection is and how its bytes travel: the server's
 * security settings (hive.server2.authentication, TLS), and each accepted
 * connection's handshake: TLS when on, then SASL PLAIN (Thrift's SASL
 * negotiation, then 4-byte frames) or none (framed or unframed binary,
 * told apart by the first byte), the password checked against the
 * password file in PASSWORD mode.
 */
#include "server/hs2_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <thrift/c_glib/thrift_application_exception.h>
#include <thrift/c_glib/thrift_configuration.h>
#include <thrift/c_glib/transport/thrift_buffered_transport.h>

#include "server/hs2_passwd.h"

/* a handshake that takes longer is given up (a client that connects and
 * says nothing holds no thread for long) */
enum { HANDSHAKE_SECONDS = 30 };
/* a refused client has less: its thread is one of few (hs2.c) */
enum { REFUSAL_SECONDS = 5 };

static int tls_password(char *buf, int size, int rwflag, void *arg)
{
    const char *pw = arg;
    int n = pw ? (int)strlen(pw) : 0;
    (void)rwflag;
    if (n >= size)
        return 0;
    memcpy(buf, pw ? pw : "", (size_t)n);
    return n;
}

static int tls_failed(SSL_CTX *ctx, const char *what, const char *path,
                      CombErr *err)
{
    char why[256] = "unknown error";
    unsigned long e = ERR_get_error();
    if (e)
        ERR_error_string_n(e, why, sizeof why);
    ERR_clear_error();
    SSL_CTX_free(ctx);
    return comb_err(err, COMB_EINVALID, "hive.server2.use.SSL: cannot %s "
                    "'%s': %s", what, path, why);
}

/* The keystore: one PEM file with the certificate (chain) and its private
 * key, the key encrypted with hive.server2.keystore.password or not. */
static int tls_init(const Hs2Options *opt, SSL_CTX **out, CombErr *err)
{
    const char *path = hs2_conf_value(opt, "hive.server2.keystore.path");
    const char *pw = hs2_conf_value(opt, "hive.server2.keystore.password");
    SSL_CTX *ctx;
    if (!path || !*path)
        return comb_err(err, COMB_EINVALID, "hive.server2.use.SSL=true needs "
                        "hive.server2.keystore.path: a PEM file with the "
                        "server's certificate and private key");
    if (!(ctx = SSL_CTX_new(TLS_server_method())))
        return tls_failed(NULL, "set up TLS for", path, err);
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_default_passwd_cb(ctx, tls_password);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, (void *)pw);
    if (SSL_CTX_use_certificate_chain_file(ctx, path) != 1)
        return tls_failed(ctx, "read the certificate of", path, err);
    if (SSL_CTX_use_PrivateKey_file(ctx, path, SSL_FILETYPE_PEM) != 1)
        return tls_failed(ctx, "read the private key of", path, err);
    if (SSL_CTX_check_private_key(ctx) != 1)
        return tls_failed(ctx, "match the key and the certificate of", path,
                          err);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, NULL);
    *out = ctx;
    return COMB_OK;
}

bool hs2_conf_is_server_only(const char *key)
{
    return !strcasecmp(key, "hive.server2.keystore.password") ||
           !strcasecmp(key, "hive.security.authorization.enabled") ||
           !strcasecmp(key, "hive.users.in.admin.role");
}

int hs2_security_init(const Hs2Options *opt, Hs2Security *sec, CombErr *err)
{
    const char *mode = hs2_conf_value(opt, "hive.server2.authentication");
    long delay = 1000, max_message = 100L << 20;
    bool tls = false;
    int rc;
    memset(sec, 0, sizeof *sec);
    if (!mode || !strcasecmp(mode, "NONE"))
        sec->mode = HS2_AUTH_NONE;
    else if (!strcasecmp(mode, "NOSASL"))
        sec->mode = HS2_AUTH_NOSASL;
    else if (!strcasecmp(mode, "PASSWORD"))
        sec->mode = HS2_AUTH_PASSWORD;
    else
        return comb_err(err, COMB_EUNSUPPORTED, "hive.server2.authentication="
                        "%s is not supported by comb: NONE, NOSASL or "
                        "PASSWORD (comb.server.password.file)", mode);
    sec->password_file = hs2_conf_value(opt, "comb.server.password.file");
    if (sec->mode == HS2_AUTH_PASSWORD && (!sec->password_file ||
                                           !*sec->password_file))
        return comb_err(err, COMB_EINVALID, "hive.server2.authentication="
                        "PASSWORD needs comb.server.password.file (made with "
                        "comb passwd)");
    if ((rc = hs2_conf_long(opt, "comb.server.auth.failure.delay.ms", 0,
                            60000, &delay, err)) ||
        (rc = hs2_conf_long(opt, "hive.server2.thrift.max.message.size", 4096,
                            INT32_MAX, &max_message, err)) ||
        (rc = hs2_conf_bool(opt, "hive.server2.use.SSL", &tls, err)) ||
        (rc = hs2_conf_bool(opt, "hive.security.authorization.enabled",
                            &sec->authorize, err)))
        return rc;
    sec->failure_delay_ms = (int)delay;
    sec->admin_users = hs2_conf_value(opt, "hive.users.in.admin.role");
    sec->max_message = (int)max_message;
    if (tls && (rc = tls_init(opt, &sec->tls, err)))
        return rc;
    return COMB_OK;
}

void hs2_security_free(Hs2Security *sec)
{
    SSL_CTX_free(sec->tls);
    sec->tls = NULL;
}

/* ------------------------------------------------------------- SASL */

static bool read_exact(ThriftTransport *w, void *buf, uint32_t n)
{
    GError *error = NULL;
    gint32 got = n ? thrift_transport_read(w, buf, n, &error) : 0;
    g_clear_error(&error);
    return got == (gint32)n;
}

/* One negotiation message: status, 4-byte length, payload (kept short). */
bool hs2_sasl_read(ThriftTransport *w, int *status, char *payload,
                      uint32_t *len)
{
    unsigned char head[5];
    if (!read_exact(w, head, 5))
        return false;
    *status = head[0];
    *len = (uint32_t)head[1] << 24 | (uint32_t)head[2] << 16 |
           (uint32_t)head[3] << 8 | head[4];
    return *len < HS2_SASL_MAX && read_exact(w, payload, *len);
}

/* In one write: a client may take the first chunk it reads (one TLS
 * record) for the whole message. */
void hs2_sasl_write(ThriftTransport *w, int status, const char *msg)
{
    unsigned char out[5 + 256];
    uint32_t n = (uint32_t)strlen(msg);
    GError *error = NULL;
    if (n > sizeof out - 5)
        n = sizeof out - 5;
    out[0] = (unsigned char)status;
    out[1] = (unsigned char)(n >> 24);
    out[2] = (unsigned char)(n >> 16);
    out[3] = (unsigned char)(n >> 8);
    out[4] = (unsigned char)n;
    memcpy(out + 5, msg, n);
    thrift_transport_write(w, out, 5 + n, &error);
    g_clear_error(&error);
}

/* PLAIN's message: [authzid] NUL authcid NUL password. */
static bool plain_split(char *msg, uint32_t len, const char **user,
                        const char **password)
{
    char *first = memchr(msg, '\0', len), *second;
    if (!first)
        return false;
    second = memchr(first + 1, '\0', len - (uint32_t)(first + 1 - msg));
    if (!second)
        return false;
    msg[len] = '\0';
    *user = first + 1;
    *password = second + 1;
    return **user != '\0';
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

/* Whether user may log in with password; a refusal waits first. */
static bool login_ok(const Hs2Security *sec, const char *user,
                     const char *password)
{
    CombErr err;
    bool ok = false;
    if (sec->mode != HS2_AUTH_PASSWORD)
        return true;
    if (hs2_passwd_check(sec->password_file, user, password, &ok, &err))
        fprintf(stderr, "comb serve: %s\n", err.msg);
    if (!ok)
        sleep_ms(sec->failure_delay_ms);
    return ok;
}

static bool sasl_negotiate(const Hs2Security *sec, ThriftTransport *w,
                           char user[HS2_USER_MAX + 1])
{
    char msg[HS2_SASL_MAX + 1];
    const char *name, *password;
    uint32_t len;
    int status;
    if (sec->mode == HS2_AUTH_NOSASL) {
        hs2_sasl_write(w, HS2_SASL_ERROR, "this server takes no SASL "
                   "(hive.server2.authentication=NOSASL)");
        return false;
    }
    if (!hs2_sasl_read(w, &status, msg, &len) || status != HS2_SASL_START)
        return false;
    msg[len] = '\0';
    if (strcmp(msg, "PLAIN") != 0) {
        hs2_sasl_write(w, HS2_SASL_BAD, "Unsupported mechanism type: only PLAIN");
        return false;
    }
    if (!hs2_sasl_read(w, &status, msg, &len) ||
        (status != HS2_SASL_OK && status != HS2_SASL_COMPLETE) ||
        !plain_split(msg, len, &name, &password) ||
        strlen(name) > HS2_USER_MAX) {
        hs2_sasl_write(w, HS2_SASL_BAD, "malformed PLAIN message");
        return false;
    }
    if (!login_ok(sec, name, password)) {
        hs2_sasl_write(w, HS2_SASL_BAD, "Error validating the login");
        return false;
    }
    strcpy(user, name);
    hs2_sasl_write(w, HS2_SASL_COMPLETE, "");
    return true;
}

/* ------------------------------------------------------ the handshake */

static void set_timeout(int fd, int seconds)
{
    struct timeval tv = {seconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static SSL *tls_accept(SSL_CTX *ctx, int fd)
{
    SSL *ssl = SSL_new(ctx);
    if (ssl && SSL_set_fd(ssl, fd) == 1 && SSL_accept(ssl) == 1)
        return ssl;
    SSL_free(ssl);
    ERR_clear_error();
    return NULL;
}

/* The transport the protocol reads: frames over the wire (SASL, or a
 * framed client) or a buffer; messages up to sec->max_message bytes. */
static ThriftTransport *stack_on(const Hs2Security *sec, ThriftTransport *wire,
                                 bool framed)
{
    return rpc_transport_new(wire, framed, (guint32)sec->max_message,
                             "hive.server2.thrift.max.message.size");
}

int hs2_conn_open(const Hs2Security *sec, int fd, ThriftTransport **wire,
                  ThriftTransport **top, char user[HS2_USER_MAX + 1])
{
    SSL *ssl = NULL;
    int first;
    user[0] = '\0';
    set_timeout(fd, HANDSHAKE_SECONDS);
    if (sec->tls && !(ssl = tls_accept(sec->tls, fd)))
        return -1;
    *wire = rpc_wire_new(fd, ssl);
    first = rpc_wire_byte(*wire);
    if (first == HS2_SASL_START && !sasl_negotiate(sec, *wire, user))
        return -1;
    /* a client without SASL cannot be told why: it is hung up on */
    if (first < 0 || (first != HS2_SASL_START && sec->mode == HS2_AUTH_PASSWORD))
        return -1;
    /* SASL and framed clients frame (a frame's length starts with 0) */
    *top = stack_on(sec, *wire, first == HS2_SASL_START || first == 0);
    set_timeout(fd, 0);
    return 0;
}

/* The first call of a client without SASL answered with an exception
 * carrying why (what its driver shows: hive-driver rejects the call with
 * it, JDBC's connect fails with it). */
static void answer_exception(ThriftTransport *top, const char *why)
{
    ThriftProtocol *p = rpc_proto_new(top);
    ThriftApplicationException *x = NULL;
    ThriftMessageType type;
    gchar *name = NULL;
    gint32 seqid;
    GError *error = NULL;
    if (thrift_protocol_read_message_begin(p, &name, &type, &seqid, &error) >= 0 &&
        thrift_protocol_skip(p, T_STRUCT, &error) >= 0 &&
        thrift_protocol_read_message_end(p, &error) >= 0 &&
        thrift_transport_read_end(top, &error)) {
        x = g_object_new(THRIFT_TYPE_APPLICATION_EXCEPTION, "type",
                         THRIFT_APPLICATION_EXCEPTION_ERROR_INTERNAL_ERROR,
                         "message", why, NULL);
        if (thrift_protocol_write_message_begin(p, name, T_EXCEPTION, seqid,
                                                &error) >= 0 &&
            thrift_struct_write(THRIFT_STRUCT(x), p, &error) >= 0 &&
            thrift_protocol_write_message_end(p, &error) >= 0 &&
            thrift_transport_write_end(top, &error))
            thrift_transport_flush(top, &error);
        g_object_unref(x);
    }
    g_clear_error(&error);
    g_free(name);
    g_object_unref(p);
}

void hs2_conn_refuse(const Hs2Security *sec, int fd, const char *why)
{
    SSL *ssl = NULL;
    ThriftTransport *wire;
    int first;
    set_timeout(fd, REFUSAL_SECONDS);
    if (sec->tls && !(ssl = tls_accept(sec->tls, fd))) {
        close(fd);
        return;
    }
    wire = rpc_wire_new(fd, ssl);
    first = rpc_wire_byte(wire);
    if (first == HS2_SASL_START) {
        hs2_sasl_write(wire, HS2_SASL_ERROR, why);
    } else if (first >= 0) {
        ThriftTransport *top = stack_on(sec, wire, first == 0);
        answer_exception(top, why);
        g_object_unref(top);
    }
    rpc_wire_drain(wire);
    g_object_unref(wire);       /* closes fd */
}

void hs2_auth_register(void)
{
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_APPLICATION_EXCEPTION));
    rpc_wire_register();
    rpc_frames_register();
    rpc_proto_register();
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_CONFIGURATION));
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_BUFFERED_TRANSPORT));
}
