/*
 * peer.h - the other end of a fuzz target's socket: a thread that writes
 * the input's bytes to it (or to the next connection of a listener) and
 * shuts its sending side, so that the input's end is the peer hanging
 * up; what the code under test writes back is read and dropped.  Shared
 * by the targets of comb's services (fuzz_hs2_decode.c,
 * fuzz_hms_decode.c).
 */
#ifndef COMB_FUZZ_PEER_H
#define COMB_FUZZ_PEER_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct Peer {
    int fd;              /* the socket written to, or the listener whose
                            next connection it is */
    bool accept;
    const uint8_t *data;
    size_t size;
    pthread_t thread;
} Peer;

/* All of p, or less once the reader hung up. */
static inline void send_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t sent = send(fd, p, n, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0)
            return;
        p += sent;
        n -= (size_t)sent;
    }
}

/* The bytes sent and the sending side shut; what the reader writes back
 * is read and dropped until it hangs up, so that its writes never block.
 * An accepted connection is then reset rather than closed: thousands of
 * them a second must leave no TIME_WAIT behind on the loopback. */
static inline void *peer_run(void *arg)
{
    Peer *p = arg;
    int fd = p->accept ? accept(p->fd, NULL, NULL) : p->fd;
    char sink[4096];
    if (fd < 0)
        return NULL;
    send_all(fd, p->data, p->size);
    shutdown(fd, SHUT_WR);
    while (recv(fd, sink, sizeof sink, 0) > 0)
        ;
    if (p->accept) {
        struct linger reset = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        close(fd);
    }
    return NULL;
}

static inline bool peer_start(Peer *p, int fd, bool accept,
                              const uint8_t *data, size_t size)
{
    *p = (Peer){fd, accept, data, size, 0};
    return pthread_create(&p->thread, NULL, peer_run, p) == 0;
}

#endif
