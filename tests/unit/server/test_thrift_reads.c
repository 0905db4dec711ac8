/* Messages read through rpc_proto.c by the generated readers as
 * tools/thrift_reads.awk mends them: a binary of negative length refused
 * (libthrift 0.17 took it, and the reader copied gigabytes from NULL), an
 * unknown field cut short in its length skipped (libthrift freed an unset
 * pointer), a list or map cut short mid-element or a binary given again
 * leaking nothing (LeakSanitizer checks at the end of the run). */
#include "unit.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


#include "server/hs2_int.h"

/* A struct of type read from body (n bytes, one frame, then the end):
 * thrift_struct_read's result, *error its error. */
static gint32 read_struct(GType type, const char *body, guint32 n,
                          GError **error)
{
    unsigned char head[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                             (unsigned char)(n >> 8), (unsigned char)n};
    ThriftTransport *wire, *frames;
    ThriftProtocol *proto;
    ThriftStruct *s;
    gint32 ret = -2;
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return ret;
    if (write(fds[1], head, 4) == 4 && write(fds[1], body, n) == (ssize_t)n) {
        shutdown(fds[1], SHUT_WR);
        wire = rpc_wire_new(fds[0], NULL);
        frames = rpc_frames_new(wire, 1 << 20, "the test's limit");
        proto = rpc_proto_new(frames);
        s = g_object_new(type, NULL);
        ret = thrift_struct_read(s, proto, error);
        g_object_unref(s);
        g_object_unref(proto);
        g_object_unref(frames);
        g_object_unref(wire);
    } else {
        close(fds[0]);
    }
    close(fds[1]);
    return ret;
}

TEST(thrift_reads_negative_binary_refused)
{
    /* guid: a binary (type 11, field 1) of length -1 */
    static const char body[] = "\x0b\x00\x01\xff\xff\xff\xff";
    GError *error = NULL;
    CHECK(read_struct(HS2_TYPE_T_HANDLE_IDENTIFIER, body, sizeof body - 1,
                      &error) == -1);
    CHECK(error && strstr(error->message, "negative") != NULL);
    g_clear_error(&error);
}

TEST(thrift_reads_unknown_field_cut_short_skipped)
{
    /* field 9, a binary whose length breaks off */
    static const char body[] = "\x0b\x00\x09\x00\x00";
    GError *error = NULL;
    CHECK(read_struct(HS2_TYPE_T_HANDLE_IDENTIFIER, body, sizeof body - 1,
                      &error) == -1);
    CHECK(error != NULL);
    g_clear_error(&error);
}

TEST(thrift_reads_list_cut_short_leaks_nothing)
{
    /* values: a list (15) of 3 i32 (8), one given */
    static const char body[] = "\x0f\x00\x01\x08\x00\x00\x00\x03\x00\x00\x00\x07";
    GError *error = NULL;
    CHECK(read_struct(HS2_TYPE_T_I32_COLUMN, body, sizeof body - 1,
                      &error) == -1);
    g_clear_error(&error);
}

TEST(thrift_reads_map_cut_short_leaks_nothing)
{
    /* configuration: a map (13, field 4) of 1 string (11) to string, its
     * key "k" given, its value not */
    static const char body[] = "\x0d\x00\x04\x0b\x0b\x00\x00\x00\x01"
                               "\x00\x00\x00\x01k";
    GError *error = NULL;
    CHECK(read_struct(HS2_TYPE_T_OPEN_SESSION_REQ, body, sizeof body - 1,
                      &error) == -1);
    g_clear_error(&error);
}

TEST(thrift_reads_binary_given_again_leaks_nothing)
{
    /* guid 50 times (64 bytes each: a leak of each earlier one is more
     * than a stale pointer can hide), secret "ef", the end */
    static const char guid[] = "\x0b\x00\x01\x00\x00\x00\x40";
    static const char secret[] = "\x0b\x00\x02\x00\x00\x00\x02" "ef" "\x00";
    char body[50 * (7 + 64) + sizeof secret];
    size_t n = 0;
    GError *error = NULL;
    for (int i = 0; i < 50; i++) {
        memcpy(body + n, guid, 7);
        memset(body + n + 7, 'a' + i % 26, 64);
        n += 7 + 64;
    }
    memcpy(body + n, secret, sizeof secret - 1);
    n += sizeof secret - 1;
    CHECK(read_struct(HS2_TYPE_T_HANDLE_IDENTIFIER, body, (guint32)n,
                      &error) > 0);
    CHECK(error == NULL);
}
