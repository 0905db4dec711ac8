/*
 * hs2.h - `comb serve`: HiveServer2's protocol (TCLIService, tcli.thrift)
 * over the binary Thrift transport (SASL PLAIN or none, framed or not,
 * TLS or not: README), on one warehouse.
 *
 * Each connection gets a thread (up to hive.server2.thrift.max.worker.
 * threads); each OpenSession a SQL session of its own (settings, database,
 * transaction).  A statement runs to its end within ExecuteStatement, or
 * on a thread of its own, and its rows wait in the operation for
 * FetchResults.  Idle sessions and operations, and statements past their
 * time-out, are closed or cancelled by a thread of the server.  The server
 * runs until SIGINT or SIGTERM, lets the calls and statements in progress
 * finish within hive.server2.graceful.stop.timeout, then closes every
 * session (rolling back what was left open or still runs).
 */
#ifndef COMB_HS2_H
#define COMB_HS2_H

#include "common/err.h"

typedef struct Hs2Options {
    const char *warehouse;     /* as sql_session_open takes them */
    const char *metastore;
    const char *bind;          /* address to listen on; NULL: 127.0.0.1 */
    int port;                  /* 0: any free port */
    /* --hiveconf pairs: the server's own settings (hive.server2.*,
     * comb.server.*) and what every session starts with */
    const char *const *conf_keys;
    const char *const *conf_values;
    int n_conf;
    /* "listening on HOST:PORT" goes here once the socket is bound (for
     * tests that ask for any free port); may be NULL */
    void (*listening)(const char *host, int port);
    /* the status page's address once it listens; may be NULL */
    void (*status_page)(const char *host, int port);
} Hs2Options;

/* Serve until SIGINT or SIGTERM; COMB_OK then, or an error (the port is
 * taken, the warehouse cannot be opened, a setting is wrong). */
int hs2_serve(const Hs2Options *opt, CombErr *err);

#endif
