/* rpc/rpc_frames.c: Thrift's framed transport over a socket: reads
 * that span frames (which libthrift 0.17's own transport gets wrong), the
 * frame limit, and a flush's one frame. */
#include "unit.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/hs2_int.h"

/* A wire on one end of a socket pair (it owns fds[0]), frames over it
 * of at most max bytes; fds[1] is the peer's end. */
static ThriftTransport *frames_pair(int fds[2], guint32 max,
                                    ThriftTransport **wire)
{
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return NULL;
    *wire = rpc_wire_new(fds[0], NULL);
    return rpc_frames_new(*wire, max, "the test's limit");
}

TEST(rpc_frames_reads_span_frames)
{
    /* "abc" | "" | "defgh": one read of 5, then 3 */
    static const char in[] = "\0\0\0\3abc" "\0\0\0\0" "\0\0\0\5defgh";
    int fds[2];
    ThriftTransport *wire, *f = frames_pair(fds, 64, &wire);
    GError *error = NULL;
    char got[8] = {0};
    CHECK(f != NULL);
    CHECK(write(fds[1], in, sizeof in - 1) == (ssize_t)(sizeof in - 1));
    shutdown(fds[1], SHUT_WR);
    CHECK(thrift_transport_read(f, got, 5, &error) == 5);
    CHECK(memcmp(got, "abcde", 5) == 0);
    CHECK(thrift_transport_peek(f, &error));
    CHECK(thrift_transport_read(f, got, 3, &error) == 3);
    CHECK(memcmp(got, "fgh", 3) == 0);
    CHECK(!thrift_transport_peek(f, &error));
    CHECK(thrift_transport_read(f, got, 1, &error) == -1);
    g_clear_error(&error);
    g_object_unref(f);
    g_object_unref(wire);
    close(fds[1]);
}

TEST(rpc_frames_longer_than_the_limit_refused)
{
    static const char in[] = "\0\0\1\1";    /* 257 bytes announced */
    int fds[2];
    ThriftTransport *wire, *f = frames_pair(fds, 256, &wire);
    GError *error = NULL;
    char got[4];
    CHECK(f != NULL);
    CHECK(write(fds[1], in, 4) == 4);
    CHECK(thrift_transport_read(f, got, 1, &error) == -1);
    CHECK(error && strstr(error->message, "257 bytes") != NULL);
    g_clear_error(&error);
    g_object_unref(f);
    g_object_unref(wire);
    close(fds[1]);
}

TEST(rpc_frames_flush_sends_one_frame)
{
    int fds[2];
    ThriftTransport *wire, *f = frames_pair(fds, 64, &wire);
    GError *error = NULL;
    char got[16];
    CHECK(f != NULL);
    CHECK(thrift_transport_write(f, "hello", 5, &error));
    CHECK(thrift_transport_write(f, "!", 1, &error));
    CHECK(thrift_transport_flush(f, &error));
    CHECK(thrift_transport_write(f, "x", 1, &error));
    CHECK(thrift_transport_flush(f, &error));
    CHECK(read(fds[1], got, sizeof got) == 15);
    CHECK(memcmp(got, "\0\0\0\6hello!\0\0\0\1x", 15) == 0);
    g_object_unref(f);
    g_object_unref(wire);
    close(fds[1]);
}
