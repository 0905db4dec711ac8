/*
 * fuzz_hs2_decode.c - bytes from a HiveServer2 peer, through the decoders
 * of comb serve and of comb -u (src/server/).  The first byte says whose:
 *   even: comb serve's.  The rest is what a client sends on a connection:
 *         the handshake (hs2_conn_open: SASL PLAIN, framed or unframed, as
 *         the rest's own first byte tells), then calls read as the
 *         generated processor reads them (the message's header, the
 *         call's arguments struct found by its name, the message's end)
 *         until the bytes end or a call is malformed;
 *   odd:  comb -u's (hs2_client.c).  The rest is what a server answers
 *         (SASL first when bit 1 is set): OpenSession, ExecuteStatement,
 *         GetResultSetMetadata, pages of FetchResults turned into batches
 *         whose every value a sink reads, CloseOperation, CloseSession.
 * The bytes arrive on real sockets, as a peer's do: a thread writes them
 * and shuts its sending side, so their end is the peer hanging up.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


#include "peer.h"
#include "server/hs2_client.h"
#include "server/hs2_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SIDE_CLIENT = 1, CLIENT_SASL = 2 };

/* ------------------------------------------------------ the server side */

/* The arguments of call name into its generated struct, or skipped when
 * no call has that name (as the processor does before it answers "Invalid
 * method name"); the structs are registered under "Hs2TCLIService" +
 * the call's name + "ArgsType". */
static bool read_args(ThriftProtocol *proto, const char *name, GError **error)
{
    gchar *type_name = g_strdup_printf("Hs2TCLIService%sArgsType", name);
    GType type = g_type_from_name(type_name);
    ThriftStruct *args;
    bool ok;
    g_free(type_name);
    if (!type || !g_type_is_a(type, THRIFT_TYPE_STRUCT))
        return thrift_protocol_skip(proto, T_STRUCT, error) >= 0;
    args = g_object_new(type, NULL);
    ok = thrift_struct_read(args, proto, error) >= 0;
    g_object_unref(args);
    return ok;
}

/* One call, read as thrift_dispatch_processor_process and the generated
 * process_* functions read it; false when the connection would end. */
static bool read_call(ThriftProtocol *proto, ThriftTransport *top,
                      GError **error)
{
    gchar *name = NULL;
    ThriftMessageType type;
    gint32 seqid;
    bool ok;
    if (thrift_protocol_read_message_begin(proto, &name, &type, &seqid,
                                           error) < 0) {
        g_free(name);
        return false;
    }
    ok = (type == T_CALL || type == T_ONEWAY) &&
         read_args(proto, name, error) &&
         thrift_protocol_read_message_end(proto, error) >= 0 &&
         thrift_transport_read_end(top, error);
    g_free(name);
    return ok;
}

/* The calls of a connection, as the connection's loop reads them
 * (hs2.c: while the transport has bytes, one call). */
static void read_calls(ThriftTransport *top)
{
    ThriftProtocol *proto = rpc_proto_new(top);
    GError *error = NULL;
    while (thrift_transport_peek(top, &error) &&
           read_call(proto, top, &error))
        ;
    g_clear_error(&error);
    g_object_unref(proto);
}

/* The server's settings: the defaults but for the largest message, 1 MiB
 * rather than 100 (libthrift allocates a string's announced length before
 * it reads the string: a hundred megabytes an input would only slow the
 * fuzzing). */
static const Hs2Security *server_security(void)
{
    static const char *const keys[] = {"hive.server2.thrift.max.message.size"};
    static const char *const values[] = {"1048576"};
    static Hs2Security sec;
    static bool ready;
    if (!ready) {
        Hs2Options opt = {.conf_keys = keys, .conf_values = values,
                          .n_conf = 1};
        CombErr err;
        if (hs2_security_init(&opt, &sec, &err)) {
            fprintf(stderr, "fuzz_hs2_decode: %s\n", err.msg);
            abort();
        }
        ready = true;
    }
    return &sec;
}

static void server_side(const uint8_t *data, size_t size)
{
    ThriftTransport *wire = NULL, *top = NULL;
    char user[HS2_USER_MAX + 1];
    int fds[2];
    Peer peer;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
        return;
    if (!peer_start(&peer, fds[1], false, data, size)) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (hs2_conn_open(server_security(), fds[0], &wire, &top, user) == 0) {
        read_calls(top);
        g_object_unref(top);
    }
    if (wire)
        g_object_unref(wire);      /* closes fds[0]: the peer's reads end */
    else
        close(fds[0]);
    pthread_join(peer.thread, NULL);
    close(fds[1]);
}

/* ------------------------------------------------------ the client side */

/* Every value of the batch read (a bad pointer or length decoded from the
 * server's bytes is caught here by ASan). */
static int sink_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    uint64_t *sum = ctx;
    (void)err;
    for (int c = 0; c < b->n_cols; c++) {
        const CombVector *v = &b->cols[c];
        for (int r = 0; r < b->n_rows; r++) {
            if (v->has_nulls && v->nulls[r])
                continue;
            if (comb_type_is_int(v->kind))
                *sum += (uint64_t)v->i64[r];
            else if (comb_type_is_float(v->kind)) {
                uint64_t bits;
                memcpy(&bits, &v->f64[r], sizeof bits);
                *sum += bits;
            } else
                for (uint32_t i = 0; i < v->str[r].len; i++)
                    *sum += (unsigned char)v->str[r].ptr[i];
        }
    }
    return COMB_OK;
}

/* The listening socket the client dials, made once.  Accepts time out, so
 * that a client that never connects cannot hang the peer's thread. */
static int client_listener(int *port)
{
    static int fd = -1, bound;
    if (fd < 0) {
        struct sockaddr_in a = {.sin_family = AF_INET,
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        struct timeval tv = {10, 0};
        socklen_t n = sizeof a;
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
            listen(fd, 4) || getsockname(fd, (struct sockaddr *)&a, &n)) {
            perror("fuzz_hs2_decode: listen");
            abort();
        }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        bound = ntohs(a.sin_port);
    }
    *port = bound;
    return fd;
}

static void client_side(const uint8_t *data, size_t size, bool sasl)
{
    uint64_t sum = 0;
    SqlSink sink = {.ctx = &sum, .batch = sink_batch};
    Hs2ClientOptions opt = {0};
    Hs2Client *c;
    CombErr err;
    char url[128];
    int port, fd = client_listener(&port);
    Peer peer;
    snprintf(url, sizeof url, "jdbc:hive2://127.0.0.1:%d/default;user=fuzz;"
             "password=fuzz%s", port, sasl ? "" : ";auth=noSasl");
    opt.url = url;
    if (!peer_start(&peer, fd, true, data, size))
        return;
    if (hs2_client_open(&opt, &c, &err) == COMB_OK) {
        (void)hs2_client_execute(c, "SELECT 1", 8, &sink, &err);
        hs2_client_close(c);
    }
    pthread_join(peer.thread, NULL);
}

/* ------------------------------------------------------------------ */

/* The generated types register themselves on first use; g_type_from_name
 * finds only registered ones (the list is generated beside them). */
static void register_types(void)
{
    static GType (*const get_type[])(void) = {
#include "server/hs2_get_types.inc"
    };
    static bool done;
    if (done)
        return;
    for (size_t i = 0; i < sizeof get_type / sizeof *get_type; i++)
        get_type[i]();
    done = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    register_types();
    if (data[0] & SIDE_CLIENT)
        client_side(data + 1, size - 1, data[0] & CLIENT_SASL);
    else
        server_side(data + 1, size - 1);
    return 0;
}
