/*
 * hms.h - `comb metastore`: the Hive Metastore Thrift service
 * (ThriftHiveMetastore, hms.thrift) over the binary protocol, buffered or
 * framed, without SASL, on the metastore comb's own processes use, so
 * that Hive, Spark and Trino find comb's tables and share its
 * transactions and locks.
 *
 * One thread per connection (up to hive.metastore.server.max.threads),
 * each with a metastore handle of its own.  The service runs until SIGINT
 * or SIGTERM; the calls in progress then finish, idle clients are hung up
 * on.
 */
#ifndef COMB_HMS_H
#define COMB_HMS_H

#include "common/err.h"

typedef struct HmsOptions {
    const char *warehouse;     /* the warehouse directory */
    const char *metastore;     /* ms_open target; NULL: <warehouse>/metastore.db */
    const char *bind;          /* address to listen on; NULL: 127.0.0.1 */
    int port;                  /* 0: any free port */
    /* --hiveconf pairs: the service's settings, which getMetaConf and
     * get_config_value also answer */
    const char *const *conf_keys;
    const char *const *conf_values;
    int n_conf;
    /* told the address once the socket is bound; may be NULL */
    void (*listening)(const char *host, int port);
} HmsOptions;

/* Serve until SIGINT or SIGTERM: COMB_OK then, or an error (the port is
 * taken, the metastore cannot be opened, a setting is malformed). */
int hms_serve(const HmsOptions *opt, CombErr *err);

#endif
