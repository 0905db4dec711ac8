/*
 * hs2_client.c - a HiveServer2 session over the generated client:
 * hs2_client.h.  The connection is made here (a socket, TLS with OpenSSL,
 * Thrift's SASL PLAIN negotiation, then frames; or no SASL, unframed) on
 * the same wire transport the server uses; results come back as column
 * batches, so the CLI's printers print them as they print local ones.
 */
#include "server/hs2_client.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <thrift/c_glib/transport/thrift_buffered_transport.h>

#include "common/alloc.h"
#include "common/arena.h"
#include "common/batch.h"
#include "server/hs2_int.h"

enum { FETCH_ROWS = 10000, DEFAULT_PORT = 10000 };
/* the longest frame of a server's answer taken: HiveServer2's default
 * hive.server2.thrift.max.message.size */
#define MAX_FRAME (100u << 20)

struct Hs2Client {
    SSL_CTX *tls;
    ThriftTransport *wire, *top;
    ThriftProtocol *proto;
    Hs2TCLIServiceIf *iface;
    Hs2TSessionHandle *session;
};

/* ------------------------------------------------------------------ URL */

typedef struct Url {
    char *host, *db, *user, *password, *trust;
    int port;
    bool sasl, ssl;
    GHashTable *overlay;     /* OpenSession's configuration */
} Url;

static void put_overlay(Url *u, const char *prefix, const char *kv, size_t n)
{
    const char *eq = memchr(kv, '=', n);
    if (!eq || eq == kv)
        return;
    g_hash_table_insert(u->overlay,
                        g_strdup_printf("%s%.*s", prefix, (int)(eq - kv), kv),
                        g_strndup(eq + 1, n - (size_t)(eq - kv) - 1));
}

/* "k=v;k=v" into the overlay under prefix. */
static void put_list(Url *u, const char *prefix, const char *s)
{
    while (s && *s) {
        const char *end = strchr(s, ';');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        put_overlay(u, prefix, s, n);
        s = end ? end + 1 : NULL;
    }
}

/* One session variable of the URL (after a ';'). */
static int session_var(Url *u, const char *kv, size_t n, CombErr *err)
{
    const char *eq = memchr(kv, '=', n);
    char *key, *val;
    int rc = COMB_OK;
    if (!eq)
        return comb_err(err, COMB_EINVALID, "JDBC URL: '%.*s' is not "
                        "key=value", (int)n, kv);
    key = g_strndup(kv, (size_t)(eq - kv));
    val = g_strndup(eq + 1, n - (size_t)(eq - kv) - 1);
    if (!strcmp(key, "user"))
        u->user = g_strdup(val);
    else if (!strcmp(key, "password"))
        u->password = g_strdup(val);
    else if (!strcmp(key, "auth"))
        u->sasl = strcasecmp(val, "noSasl") != 0;
    else if (!strcmp(key, "ssl"))
        u->ssl = !strcasecmp(val, "true");
    else if (!strcmp(key, "sslTrustStore"))
        u->trust = g_strdup(val);
    else if (!strcmp(key, "transportMode") && strcasecmp(val, "binary"))
        rc = comb_err(err, COMB_EUNSUPPORTED, "JDBC URL: transportMode=%s "
                      "is not supported by comb (binary is)", val);
    g_free(key);
    g_free(val);
    return rc;
}

static void url_free(Url *u)
{
    g_free(u->host);
    g_free(u->db);
    g_free(u->user);
    g_free(u->password);
    g_free(u->trust);
    if (u->overlay)
        g_hash_table_unref(u->overlay);
}

/* jdbc:hive2://host[:port][/db][;vars][?hiveconf][#hivevar] */
static int url_parse(const char *url, Url *u, CombErr *err)
{
    static const char scheme[] = "jdbc:hive2://";
    const char *p = url, *end, *colon;
    int rc = COMB_OK;
    memset(u, 0, sizeof *u);
    u->port = DEFAULT_PORT;
    u->sasl = true;
    u->overlay = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    if (strncmp(p, scheme, sizeof scheme - 1) != 0)
        return comb_err(err, COMB_EINVALID, "'%s' is not a JDBC URL of "
                        "HiveServer2 (jdbc:hive2://host:port/db)", url);
    p += sizeof scheme - 1;
    end = p + strcspn(p, "/;?#");
    colon = memchr(p, ':', (size_t)(end - p));
    u->host = g_strndup(p, (size_t)((colon ? colon : end) - p));
    if (colon) {
        char *stop;
        long port = strtol(colon + 1, &stop, 10);
        if (stop != end || port <= 0 || port > 65535)
            return comb_err(err, COMB_EINVALID, "JDBC URL: bad port in '%s'",
                            url);
        u->port = (int)port;
    }
    if (!*u->host) {
        g_free(u->host);
        u->host = g_strdup("localhost");
    }
    p = end;
    if (*p == '/') {
        end = p + 1 + strcspn(p + 1, ";?#");
        if (end > p + 1)
            u->db = g_strndup(p + 1, (size_t)(end - p - 1));
        p = end;
    }
    while (!rc && *p == ';') {
        end = p + 1 + strcspn(p + 1, ";?#");
        if (end > p + 1)
            rc = session_var(u, p + 1, (size_t)(end - p - 1), err);
        p = end;
    }
    if (!rc && *p == '?') {
        end = p + 1 + strcspn(p + 1, "#");
        char *list = g_strndup(p + 1, (size_t)(end - p - 1));
        put_list(u, "set:hiveconf:", list);
        g_free(list);
        p = end;
    }
    if (!rc && *p == '#')
        put_list(u, "set:hivevar:", p + 1);
    if (!rc && u->db)
        g_hash_table_insert(u->overlay, g_strdup("use:database"),
                            g_strdup(u->db));
    return rc;
}

/* ---------------------------------------------------------- connection */

static int dial(const Url *u, int *out, CombErr *err)
{
    struct addrinfo hints = {0}, *ai = NULL;
    char port[16];
    int fd = -1, rc;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof port, "%d", u->port);
    if ((rc = getaddrinfo(u->host, port, &hints, &ai)))
        return comb_err(err, COMB_EIO, "cannot find %s: %s", u->host,
                        gai_strerror(rc));
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0)
        return comb_err(err, COMB_EIO, "cannot connect to %s:%d: %s",
                        u->host, u->port, strerror(errno));
    *out = fd;
    return COMB_OK;
}

static int tls_failed(const char *what, CombErr *err)
{
    char why[256] = "unknown error";
    unsigned long e = ERR_get_error();
    if (e)
        ERR_error_string_n(e, why, sizeof why);
    ERR_clear_error();
    return comb_err(err, COMB_EIO, "TLS: %s: %s", what, why);
}

/* TLS on fd, the server's certificate checked against the trust store
 * (or the system's certificates) and its name. */
static int tls_connect(Hs2Client *c, const Url *u, int fd, SSL **out,
                       CombErr *err)
{
    SSL *ssl;
    if (!(c->tls = SSL_CTX_new(TLS_client_method())))
        return tls_failed("cannot set up", err);
    SSL_CTX_set_min_proto_version(c->tls, TLS1_2_VERSION);
    SSL_CTX_set_verify(c->tls, SSL_VERIFY_PEER, NULL);
    if ((u->trust ? SSL_CTX_load_verify_locations(c->tls, u->trust, NULL)
                  : SSL_CTX_set_default_verify_paths(c->tls)) != 1)
        return tls_failed(u->trust ? "cannot read sslTrustStore"
                                   : "no system certificates", err);
    if (!(ssl = SSL_new(c->tls)))
        return tls_failed("cannot set up", err);
    *out = ssl;
    if (SSL_set_fd(ssl, fd) != 1 || SSL_set1_host(ssl, u->host) != 1 ||
        SSL_set_tlsext_host_name(ssl, u->host) != 1 || SSL_connect(ssl) != 1)
        return tls_failed("the handshake with the server failed", err);
    return COMB_OK;
}

/* Thrift's SASL PLAIN: START PLAIN, then the login; COMPLETE or the
 * server's reason. */
static int sasl_login(ThriftTransport *wire, const char *user,
                      const char *password, CombErr *err)
{
    char msg[HS2_SASL_MAX + 1];
    unsigned char head[5];
    size_t nu = strlen(user), np = strlen(password), n = 2 * nu + np + 2;
    GError *error = NULL;
    uint32_t len;
    int status;
    if (n > 255)
        return comb_err(err, COMB_EINVALID, "the user name and password are "
                        "too long for a SASL PLAIN login");
    hs2_sasl_write(wire, HS2_SASL_START, "PLAIN");
    head[0] = HS2_SASL_OK;
    head[1] = head[2] = 0;
    head[3] = (unsigned char)(n >> 8);
    head[4] = (unsigned char)n;
    memcpy(msg, head, 5);
    memcpy(msg + 5, user, nu);
    msg[5 + nu] = '\0';
    memcpy(msg + 6 + nu, user, nu);
    msg[6 + 2 * nu] = '\0';
    memcpy(msg + 7 + 2 * nu, password, np);
    thrift_transport_write(wire, msg, (guint32)(5 + n), &error);
    g_clear_error(&error);
    if (!hs2_sasl_read(wire, &status, msg, &len))
        return comb_err(err, COMB_EIO, "the server closed the connection "
                        "during the SASL negotiation");
    msg[len] = '\0';
    if (status != HS2_SASL_COMPLETE)
        return comb_err(err, COMB_EDENIED, "Peer indicated failure: %s", msg);
    return COMB_OK;
}

static int connect_to(Hs2Client *c, const Url *u, const char *user,
                      const char *password, CombErr *err)
{
    SSL *ssl = NULL;
    int fd = -1, rc;
    if ((rc = dial(u, &fd, err)))
        return rc;
    if (u->ssl && (rc = tls_connect(c, u, fd, &ssl, err))) {
        SSL_free(ssl);
        close(fd);
        return rc;
    }
    c->wire = rpc_wire_new(fd, ssl);
    if (u->sasl && (rc = sasl_login(c->wire, user, password, err)))
        return rc;
    c->top = u->sasl ? rpc_frames_new(c->wire, MAX_FRAME, "comb -u's limit of a server's answer")
                     : g_object_new(THRIFT_TYPE_BUFFERED_TRANSPORT, "transport",
                                    c->wire, "w_buf_size", 65536, NULL);
    c->proto = rpc_proto_new(c->top);
    c->iface = g_object_new(HS2_TYPE_T_C_L_I_SERVICE_CLIENT, "input_protocol",
                            c->proto, "output_protocol", c->proto, NULL);
    return COMB_OK;
}

/* ------------------------------------------------------------- calls */

/* A call's failure: the transport's, or the status the server gave. */
static int call_failed(GError *error, const Hs2TStatus *st, CombErr *err)
{
    int rc = COMB_OK;
    if (error)
        rc = comb_err(err, COMB_EIO, "the connection to the server failed: "
                      "%s", error->message);
    else if (st->statusCode != HS2_T_STATUS_CODE_SUCCESS_STATUS &&
             st->statusCode != HS2_T_STATUS_CODE_SUCCESS_WITH_INFO_STATUS)
        rc = comb_err_hive(err, COMB_EINVALID,
                           st->__isset_errorCode ? st->errorCode : 0, "%s",
                           st->__isset_errorMessage && st->errorMessage
                               ? st->errorMessage
                               : "the server refused the call");
    g_clear_error(&error);
    return rc;
}

static int open_session(Hs2Client *c, const Url *u, const char *user,
                        const char *password, CombErr *err)
{
    Hs2TOpenSessionReq *req = g_object_new(HS2_TYPE_T_OPEN_SESSION_REQ, NULL);
    Hs2TOpenSessionResp *resp = g_object_new(HS2_TYPE_T_OPEN_SESSION_RESP, NULL);
    GError *error = NULL;
    int rc;
    req->client_protocol = HS2_T_PROTOCOL_VERSION_HIVE_CLI_SERVICE_PROTOCOL_V10;
    req->username = g_strdup(user);
    req->__isset_username = TRUE;
    req->password = g_strdup(password);
    req->__isset_password = TRUE;
    g_hash_table_unref(req->configuration);
    req->configuration = g_hash_table_ref(u->overlay);
    req->__isset_configuration = TRUE;
    hs2_t_c_l_i_service_if_open_session(c->iface, &resp, req, &error);
    rc = call_failed(error, resp->status, err);
    if (!rc && resp->__isset_sessionHandle)
        c->session = g_object_ref(resp->sessionHandle);
    else if (!rc)
        rc = comb_err(err, COMB_EIO, "the server opened no session");
    g_object_unref(req);
    g_object_unref(resp);
    return rc;
}

/* "k=v" pairs into the overlay under prefix. */
static void put_pairs(Url *u, const char *prefix, char *const *kv, int n)
{
    for (int i = 0; i < n; i++)
        if (kv[i])
            put_overlay(u, prefix, kv[i], strlen(kv[i]));
}

int hs2_client_open(const Hs2ClientOptions *opt, Hs2Client **out,
                    CombErr *err)
{
    Hs2Client *c = comb_calloc(1, sizeof *c);
    const char *user, *password;
    Url u;
    int rc;
    *out = NULL;
    if (!c)
        return comb_err_nomem(err);
    rc = url_parse(opt->url, &u, err);
    put_pairs(&u, "set:hiveconf:", opt->confs, opt->n_confs);
    put_pairs(&u, "set:hivevar:", opt->vars, opt->n_vars);
    user = opt->user ? opt->user : u.user ? u.user : "anonymous";
    password = opt->password ? opt->password
               : u.password  ? u.password
                             : "anonymous";
    if (!rc)
        rc = connect_to(c, &u, user, password, err);
    if (!rc)
        rc = open_session(c, &u, user, password, err);
    url_free(&u);
    if (rc) {
        hs2_client_close(c);
        return rc;
    }
    *out = c;
    return COMB_OK;
}

/* ------------------------------------------------------------ results */

static CombTypeKind kind_of(const Hs2TColumnDesc *d)
{
    const Hs2TTypeEntry *e = d->typeDesc && d->typeDesc->types->len
                                 ? g_ptr_array_index(d->typeDesc->types, 0)
                                 : NULL;
    if (!e || !e->__isset_primitiveEntry)
        return COMB_T_STRING;      /* complex values come as JSON text */
    switch (e->primitiveEntry->type) {
    case HS2_T_TYPE_ID_BOOLEAN_TYPE: return COMB_T_BOOLEAN;
    case HS2_T_TYPE_ID_TINYINT_TYPE: return COMB_T_TINYINT;
    case HS2_T_TYPE_ID_SMALLINT_TYPE: return COMB_T_SMALLINT;
    case HS2_T_TYPE_ID_INT_TYPE: return COMB_T_INT;
    case HS2_T_TYPE_ID_BIGINT_TYPE: return COMB_T_BIGINT;
    case HS2_T_TYPE_ID_FLOAT_TYPE: return COMB_T_FLOAT;
    case HS2_T_TYPE_ID_DOUBLE_TYPE: return COMB_T_DOUBLE;
    default: return COMB_T_STRING;  /* the server's text of the value */
    }
}

typedef struct Fetch {
    Hs2Client *c;
    Hs2TOperationHandle *op;
    int n_cols;
    CombTypeKind *kinds;
    CombBatch batch;
} Fetch;

static int describe(Fetch *f, const SqlSink *sink, CombArena *a,
                    CombErr *err)
{
    Hs2TGetResultSetMetadataReq *req =
        g_object_new(HS2_TYPE_T_GET_RESULT_SET_METADATA_REQ, NULL);
    Hs2TGetResultSetMetadataResp *resp =
        g_object_new(HS2_TYPE_T_GET_RESULT_SET_METADATA_RESP, NULL);
    GError *error = NULL;
    const char **names = NULL;
    int rc;
    g_object_unref(req->operationHandle);
    req->operationHandle = g_object_ref(f->op);
    hs2_t_c_l_i_service_if_get_result_set_metadata(f->c->iface, &resp, req,
                                                   &error);
    rc = call_failed(error, resp->status, err);
    if (!rc) {
        GPtrArray *cols = resp->schema->columns;
        f->n_cols = (int)cols->len;
        names = comb_arena_alloc(a, (cols->len + 1) * sizeof *names);
        f->kinds = comb_arena_alloc(a, (cols->len + 1) * sizeof *f->kinds);
        if (!names || !f->kinds)
            rc = comb_err_nomem(err);
        for (guint i = 0; !rc && i < cols->len; i++) {
            const Hs2TColumnDesc *d = g_ptr_array_index(cols, i);
            names[i] = comb_arena_strdup(a, d->columnName);
            f->kinds[i] = kind_of(d);
        }
    }
    if (!rc && comb_batch_init(&f->batch, f->n_cols, f->kinds, COMB_BATCH_SIZE))
        rc = comb_err_nomem(err);
    if (!rc && sink->begin)
        rc = sink->begin(sink->ctx, f->n_cols, names, f->kinds, err);
    g_object_unref(req);
    g_object_unref(resp);
    return rc;
}

static bool null_at(const GByteArray *nulls, guint row)
{
    return nulls && row / 8 < nulls->len && (nulls->data[row / 8] >> (row % 8)) & 1;
}

/* Rows [from, from + n) of column col into batch column v. */
static void column_into(const Hs2TColumn *col, guint from, int n, CombVector *v)
{
    const GByteArray *nulls = NULL;
    v->has_nulls = false;
    for (int r = 0; r < n; r++) {
        guint i = from + (guint)r;
        if (col->__isset_boolVal) {
            v->i64[r] = g_array_index(col->boolVal->values, gboolean, i) != 0;
            nulls = col->boolVal->nulls;
        } else if (col->__isset_byteVal) {
            v->i64[r] = g_array_index(col->byteVal->values, gint8, i);
            nulls = col->byteVal->nulls;
        } else if (col->__isset_i16Val) {
            v->i64[r] = g_array_index(col->i16Val->values, gint16, i);
            nulls = col->i16Val->nulls;
        } else if (col->__isset_i32Val) {
            v->i64[r] = g_array_index(col->i32Val->values, gint32, i);
            nulls = col->i32Val->nulls;
        } else if (col->__isset_i64Val) {
            v->i64[r] = g_array_index(col->i64Val->values, gint64, i);
            nulls = col->i64Val->nulls;
        } else if (col->__isset_doubleVal) {
            v->f64[r] = g_array_index(col->doubleVal->values, gdouble, i);
            nulls = col->doubleVal->nulls;
        } else if (col->__isset_binaryVal) {
            const GByteArray *b = g_ptr_array_index(col->binaryVal->values, i);
            v->str[r] = (CombStr){(const char *)b->data, b->len};
            nulls = col->binaryVal->nulls;
        } else {
            const char *s = g_ptr_array_index(col->stringVal->values, i);
            v->str[r] = (CombStr){s, (uint32_t)strlen(s)};
            nulls = col->stringVal->nulls;
        }
        v->nulls[r] = null_at(nulls, i);
        v->has_nulls = v->has_nulls || v->nulls[r];
    }
}

static guint column_rows(const Hs2TColumn *col)
{
    return col->__isset_boolVal     ? col->boolVal->values->len
           : col->__isset_byteVal   ? col->byteVal->values->len
           : col->__isset_i16Val    ? col->i16Val->values->len
           : col->__isset_i32Val    ? col->i32Val->values->len
           : col->__isset_i64Val    ? col->i64Val->values->len
           : col->__isset_doubleVal ? col->doubleVal->values->len
           : col->__isset_binaryVal ? col->binaryVal->values->len
           : col->__isset_stringVal ? col->stringVal->values->len
                                    : 0;
}

/* Whether col can be read as rows values of kind: a union with one
 * member set (column_into reads the first set one), of the payload the
 * batch's column has (kind_of's mapping), with that many values.  A
 * server's page is checked before it is read. */
static bool column_fits(const Hs2TColumn *col, CombTypeKind kind, guint rows)
{
    int ints = col->__isset_boolVal + col->__isset_byteVal +
               col->__isset_i16Val + col->__isset_i32Val + col->__isset_i64Val;
    int texts = col->__isset_binaryVal + col->__isset_stringVal;
    int members = ints + col->__isset_doubleVal + texts;
    bool typed = comb_type_is_int(kind)     ? ints == 1
                 : comb_type_is_float(kind) ? col->__isset_doubleVal
                                            : texts == 1;
    return members == 1 && typed && column_rows(col) >= rows;
}

/* One page of rows to the sink; *more whether another may follow. */
static int fetch_page(Fetch *f, const SqlSink *sink, bool *more, CombErr *err)
{
    Hs2TFetchResultsReq *req = g_object_new(HS2_TYPE_T_FETCH_RESULTS_REQ, NULL);
    Hs2TFetchResultsResp *resp = g_object_new(HS2_TYPE_T_FETCH_RESULTS_RESP, NULL);
    GError *error = NULL;
    guint rows = 0;
    int rc;
    g_object_unref(req->operationHandle);
    req->operationHandle = g_object_ref(f->op);
    req->orientation = HS2_T_FETCH_ORIENTATION_FETCH_NEXT;
    req->maxRows = FETCH_ROWS;
    hs2_t_c_l_i_service_if_fetch_results(f->c->iface, &resp, req, &error);
    rc = call_failed(error, resp->status, err);
    if (!rc && (!resp->__isset_results || !resp->results->__isset_columns ||
                (int)resp->results->columns->len != f->n_cols))
        rc = comb_err(err, COMB_EUNSUPPORTED, "the server sent rows in a "
                      "form comb does not read (column-oriented row sets "
                      "of protocol V6 and later are)");
    if (!rc && f->n_cols > 0)
        rows = column_rows(g_ptr_array_index(resp->results->columns, 0));
    for (int col = 0; !rc && col < f->n_cols; col++)
        if (!column_fits(g_ptr_array_index(resp->results->columns, col),
                         f->kinds[col], rows))
            rc = comb_err(err, COMB_EIO, "the server's page of rows does "
                          "not match its metadata: column %d is not of its "
                          "type or has fewer than %u values", col + 1, rows);
    for (guint from = 0; !rc && from < rows; from += COMB_BATCH_SIZE) {
        int n = rows - from < COMB_BATCH_SIZE ? (int)(rows - from)
                                              : COMB_BATCH_SIZE;
        for (int col = 0; col < f->n_cols; col++)
            column_into(g_ptr_array_index(resp->results->columns, col), from,
                        n, &f->batch.cols[col]);
        f->batch.n_rows = n;
        rc = sink->batch ? sink->batch(sink->ctx, &f->batch, err) : COMB_OK;
    }
    /* an empty page ends it whatever hasMoreRows says */
    *more = !rc && rows > 0 && (!resp->__isset_hasMoreRows || resp->hasMoreRows);
    g_object_unref(req);
    g_object_unref(resp);
    return rc;
}

static void close_operation(Hs2Client *c, Hs2TOperationHandle *op)
{
    Hs2TCloseOperationReq *req = g_object_new(HS2_TYPE_T_CLOSE_OPERATION_REQ, NULL);
    Hs2TCloseOperationResp *resp = g_object_new(HS2_TYPE_T_CLOSE_OPERATION_RESP, NULL);
    GError *error = NULL;
    g_object_unref(req->operationHandle);
    req->operationHandle = g_object_ref(op);
    hs2_t_c_l_i_service_if_close_operation(c->iface, &resp, req, &error);
    g_clear_error(&error);
    g_object_unref(req);
    g_object_unref(resp);
}

static int results(Hs2Client *c, Hs2TOperationHandle *op, const SqlSink *sink,
                   CombErr *err)
{
    Fetch f = {c, op, 0, NULL, {0}};
    CombArena a;
    bool more = true;
    int rc;
    comb_arena_init(&a, 4096);
    rc = describe(&f, sink, &a, err);
    while (!rc && more)
        rc = fetch_page(&f, sink, &more, err);
    if (!rc && sink->end)
        rc = sink->end(sink->ctx, err);
    if (f.batch.cols)
        comb_batch_free(&f.batch);
    comb_arena_free(&a);
    return rc;
}

int hs2_client_execute(Hs2Client *c, const char *sql, size_t len,
                       const SqlSink *sink, CombErr *err)
{
    Hs2TExecuteStatementReq *req = g_object_new(HS2_TYPE_T_EXECUTE_STATEMENT_REQ, NULL);
    Hs2TExecuteStatementResp *resp = g_object_new(HS2_TYPE_T_EXECUTE_STATEMENT_RESP, NULL);
    GError *error = NULL;
    int rc;
    g_object_unref(req->sessionHandle);
    req->sessionHandle = g_object_ref(c->session);
    req->statement = g_strndup(sql, len);
    hs2_t_c_l_i_service_if_execute_statement(c->iface, &resp, req, &error);
    rc = call_failed(error, resp->status, err);
    if (!rc && resp->__isset_operationHandle) {
        if (resp->operationHandle->hasResultSet)
            rc = results(c, resp->operationHandle, sink, err);
        close_operation(c, resp->operationHandle);
    }
    g_object_unref(req);
    g_object_unref(resp);
    return rc;
}

void hs2_client_close(Hs2Client *c)
{
    if (!c)
        return;
    if (c->session) {
        Hs2TCloseSessionReq *req = g_object_new(HS2_TYPE_T_CLOSE_SESSION_REQ, NULL);
        Hs2TCloseSessionResp *resp = g_object_new(HS2_TYPE_T_CLOSE_SESSION_RESP, NULL);
        GError *error = NULL;
        g_object_unref(req->sessionHandle);
        req->sessionHandle = c->session;   /* the request's now */
        hs2_t_c_l_i_service_if_close_session(c->iface, &resp, req, &error);
        g_clear_error(&error);
        g_object_unref(req);
        g_object_unref(resp);
    }
    if (c->iface)
        g_object_unref(c->iface);
    if (c->proto)
        g_object_unref(c->proto);
    if (c->top)
        g_object_unref(c->top);
    if (c->wire)
        g_object_unref(c->wire);   /* closes the socket */
    SSL_CTX_free(c->tls);
    comb_free(c);
}
