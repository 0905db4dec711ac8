/* rpc/rpc_process.c under the metastore's processor: a call read and
 * answered; an unknown method answered with Thrift's UNKNOWN_METHOD and
 * the connection going on; a message that is not a call, or whose header
 * lacks the version, refused as an error (libthrift 0.17 leaked the name
 * and logged a warning: ASan reports a leak here if it comes back). */
#include "unit.h"

#include <sys/socket.h>
#include <unistd.h>

#include "hms/hms_int.h"
#include "rpc/rpc_frames.h"
#include "rpc/rpc_process.h"
#include "rpc/rpc_proto.h"

typedef struct Conn {
    int fds[2];
    ThriftTransport *wire, *top;
    ThriftProtocol *proto;
    HmsThriftHiveMetastoreHandler *handler;
    ThriftProcessor *proc;
    HmsConf conf;
} Conn;

/* A buffered connection whose client has sent the n bytes of in and hung
 * up its sending side. */
static bool conn_open(Conn *c, const void *in, size_t n)
{
    HmsOptions opt = {.warehouse = unit_tmpdir()};
    CombErr err;
    hms_register_types();
    if (hms_conf_init(&opt, &c->conf, &err) ||
        socketpair(AF_UNIX, SOCK_STREAM, 0, c->fds))
        return false;
    if (write(c->fds[1], in, n) != (ssize_t)n)
        return false;
    shutdown(c->fds[1], SHUT_WR);
    c->wire = rpc_wire_new(c->fds[0], NULL);
    c->top = rpc_transport_new(c->wire, false, 1 << 20, "the test's limit");
    c->proto = rpc_proto_new(c->top);
    c->handler = hms_handler_new(&c->conf);
    c->proc = g_object_new(HMS_TYPE_THRIFT_HIVE_METASTORE_PROCESSOR, "handler",
                           c->handler, NULL);
    return true;
}

/* What the service answered, up to n - 1 bytes, NULs as '.'. */
static void conn_answer(Conn *c, char *out, size_t n)
{
    ssize_t got = read(c->fds[1], out, n - 1);
    for (ssize_t i = 0; i < got; i++)
        if (!out[i])
            out[i] = '.';
    out[got > 0 ? got : 0] = '\0';
}

static void conn_close(Conn *c)
{
    g_object_unref(c->proc);
    g_object_unref(c->handler);
    g_object_unref(c->proto);
    g_object_unref(c->top);
    g_object_unref(c->wire);
    close(c->fds[1]);
    hms_conf_free(&c->conf);
}

/* A message header: version 1 and type, name, sequence number 7. */
#define HEADER(type, len, name) "\x80\x01\x00" type "\x00\x00\x00" len name "\x00\x00\x00\x07"

/* The first call of in (n bytes) answered, the answer holding want. */
static bool first_call_answered(Conn *c, const char *in, size_t n,
                                const char *want)
{
    GError *error = NULL;
    char answer[256];
    if (!conn_open(c, in, n) || !rpc_process(c->proc, c->proto, &error)) {
        g_clear_error(&error);
        return false;
    }
    conn_answer(c, answer, sizeof answer);
    return strstr(answer, want) != NULL;
}

TEST(hms_process_answers_a_call)
{
    static const char in[] = HEADER("\x01", "\x0b", "getMetaConf")
        "\x0b\x00\x01\x00\x00\x00\x10hive.txn.timeout" "\x00";
    Conn c;
    CHECK(first_call_answered(&c, in, sizeof in - 1, "300s"));
    conn_close(&c);
}

TEST(hms_process_unknown_method_answered_and_goes_on)
{
    static const char in[] = HEADER("\x01", "\x03", "foo") "\x00"
        HEADER("\x01", "\x03", "bar") "\x08\x00\x01";   /* cut short */
    Conn c;
    GError *error = NULL;
    CHECK(first_call_answered(&c, in, sizeof in - 1, "Invalid method name: 'foo'"));
    /* the second one's arguments end early: an error, the name freed */
    CHECK(!rpc_process(c.proc, c.proto, &error));
    CHECK(error != NULL);
    g_clear_error(&error);
    conn_close(&c);
}

TEST(hms_process_a_reply_is_not_a_call)
{
    static const char in[] = HEADER("\x02", "\x03", "foo") "\x00";
    Conn c;
    GError *error = NULL;
    CHECK(conn_open(&c, in, sizeof in - 1));
    CHECK(!rpc_process(c.proc, c.proto, &error));
    CHECK(error != NULL);
    CHECK(strstr(error->message, "where a call was expected") != NULL);
    g_clear_error(&error);
    conn_close(&c);
}

TEST(hms_process_header_without_version_refused)
{
    /* the protocol's old form: the name's length first */
    static const char in[] = "\x00\x00\x00\x03" "foo" "\x01" "\x00\x00\x00\x07" "\x00";
    static const char cut[] = "\x80\x01\x00\x01" "\x00\x00\x00\x03" "foo" "\x00\x00";
    Conn c;
    GError *error = NULL;
    CHECK(conn_open(&c, in, sizeof in - 1));
    CHECK(!rpc_process(c.proc, c.proto, &error));
    CHECK(error != NULL && strstr(error->message, "version 1") != NULL);
    g_clear_error(&error);
    conn_close(&c);
    /* the sequence number cut short: the name read before it is freed */
    CHECK(conn_open(&c, cut, sizeof cut - 1));
    CHECK(!rpc_process(c.proc, c.proto, &error));
    g_clear_error(&error);
    conn_close(&c);
}

TEST(hms_process_string_longer_than_the_message_refused)
{
    /* getMetaConf's key announced as 2 GiB long: refused before anything
     * that size is allocated (libthrift 0.17 allocated it first) */
    static const char in[] = HEADER("\x01", "\x0b", "getMetaConf")
        "\x0b\x00\x01\x7f\xff\xff\xff" "hive";
    Conn c;
    GError *error = NULL;
    CHECK(conn_open(&c, in, sizeof in - 1));
    CHECK(!rpc_process(c.proc, c.proto, &error));
    CHECK(error != NULL);
    CHECK(strstr(error->message, "MaxMessageSize") != NULL);
    g_clear_error(&error);
    conn_close(&c);
}
