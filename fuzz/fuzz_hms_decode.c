/*
 * fuzz_hms_decode.c - bytes from a Hive Metastore client, through what
 * `comb metastore` runs on a connection (src/hms/hms.c): the transport
 * the first byte tells (0: framed, else buffered; src/rpc/), then calls
 * read and answered by ThriftHiveMetastore's generated processor and
 * comb's handler until the bytes end or a call breaks the connection.
 * The calls really run, on a throwaway warehouse in /dev/shm (renewed
 * every RENEW_EVERY inputs, so that the txns and locks inputs leave
 * behind stay few) holding one transactional table, default.t.
 * The bytes arrive on a socket, as a client's do: a thread writes them
 * and shuts its sending side, so their end is the client hanging up;
 * the answers are read and dropped.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fs/fs.h"
#include "peer.h"
#include "hms/hms_int.h"
#include "rpc/rpc_frames.h"
#include "rpc/rpc_process.h"
#include "rpc/rpc_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs served on one warehouse before it is made anew. */
#define RENEW_EVERY 256

/* ----------------------------------------------------------- the service */

static char warehouse[64];
static HmsConf conf;
static unsigned served;

static void die(const char *what, const CombErr *err)
{
    fprintf(stderr, "fuzz_hms_decode: %s: %s\n", what, err ? err->msg : "");
    abort();
}

static void warehouse_remove(void)
{
    CombErr err;
    if (warehouse[0])
        fs_remove_tree(warehouse, &err);
}

/* default.t, a transactional ORC table, so that the calls on a table
 * find one. */
static void table_make(void)
{
    MsColumn cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
    MsProperty props[] = {{"transactional", "true"}};
    char location[128];
    MsTable t = {0};
    Ms *ms = NULL;
    CombErr err;
    snprintf(location, sizeof location, "%s/t", warehouse);
    t.db = "default";
    t.name = "t";
    t.location = location;
    t.n_cols = 2;
    t.cols = cols;
    t.n_buckets = -1;
    t.n_props = 1;
    t.props = props;
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    t.serde = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    if (ms_open(conf.target, warehouse, &ms, &err) ||
        ms_table_create(ms, &t, false, &err))
        die("the warehouse's table", &err);
    ms_close(ms);
}

/* A new warehouse (the first time, or the last one has served its
 * inputs) with the service's settings on it: the defaults but for the
 * largest message, 1 MiB rather than 100 (a string's announced length
 * is allocated before it is read: a hundred megabytes an input would
 * only slow the fuzzing). */
static void service_ready(void)
{
    static const char *const keys[] = {"hive.metastore.server.max.message.size"};
    static const char *const values[] = {"1048576"};
    static bool ready;
    HmsOptions opt = {.conf_keys = keys, .conf_values = values, .n_conf = 1};
    CombErr err;
    if (ready && served % RENEW_EVERY)
        return;
    if (ready) {
        warehouse_remove();
        hms_conf_free(&conf);
    } else {
        hms_register_types();
        atexit(warehouse_remove);
    }
    snprintf(warehouse, sizeof warehouse, "/dev/shm/comb-fuzz-hms-XXXXXX");
    if (!mkdtemp(warehouse))
        die("mkdtemp", NULL);
    opt.warehouse = warehouse;
    if (hms_conf_init(&opt, &conf, &err))
        die("the settings", &err);
    table_make();
    ready = true;
}

/* The connection's calls, as rpc_conn_calls runs them. */
static void serve(ThriftTransport *top)
{
    HmsThriftHiveMetastoreHandler *handler = hms_handler_new(&conf);
    ThriftProcessor *proc = g_object_new(HMS_TYPE_THRIFT_HIVE_METASTORE_PROCESSOR,
                                         "handler", handler, NULL);
    ThriftProtocol *proto = rpc_proto_new(top);
    GError *error = NULL;
    /* an unknown method is answered and the connection goes on
     * (rpc_process says TRUE); any other failure ends it */
    while (thrift_transport_peek(top, &error) &&
           rpc_process(proc, proto, &error))
        ;
    g_clear_error(&error);
    g_object_unref(proto);
    g_object_unref(proc);
    g_object_unref(handler);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ThriftTransport *wire, *top;
    Peer client;
    int fds[2], first;
    service_ready();
    served++;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
        return 0;
    if (!peer_start(&client, fds[1], false, data, size)) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    wire = rpc_wire_new(fds[0], NULL);
    if ((first = rpc_wire_byte(wire)) >= 0) {
        top = rpc_transport_new(wire, first == 0, (guint32)conf.max_message,
                                "hive.metastore.server.max.message.size");
        serve(top);
        g_object_unref(top);
    }
    g_object_unref(wire);       /* closes fds[0]: the client's reads end */
    pthread_join(client.thread, NULL);
    close(fds[1]);
    return 0;
}
