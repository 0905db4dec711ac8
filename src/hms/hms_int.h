/*
 * hms_int.h - what the files of src/hms/ share: the service's settings,
 * the connection's handler (a metastore handle per connection); the
 * transport under the protocol is rpc/rpc_wire.h.
 */
#ifndef COMB_HMS_INT_H
#define COMB_HMS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <thrift/c_glib/transport/thrift_transport.h>

#include "hms/hms_thrift_hive_metastore.h"
#include "hms/hms.h"
#include "metastore/ms.h"
#include "rpc/rpc_wire.h"

/* The service's settings, read once at start (immutable afterwards, so
 * every connection's thread reads them without a lock). */
typedef struct HmsConf {
    char *warehouse;           /* absolute; owned */
    char *target;              /* ms_open's target; owned */
    const char *const *keys;   /* the --hiveconf pairs, borrowed */
    const char *const *values;
    int n;
    int max_threads;           /* hive.metastore.server.max.threads */
    int64_t txn_timeout_ms;    /* hive.txn.timeout */
    int64_t housekeeping_ms;   /* metastore.acid.housekeeper.interval */
    int64_t max_message;       /* hive.metastore.server.max.message.size */
} HmsConf;

/* Read opt's settings into *c (each refused with the reason when
 * malformed).  hms_conf_free releases what it made. */
int hms_conf_init(const HmsOptions *opt, HmsConf *c, CombErr *err);
void hms_conf_free(HmsConf *c);
/* The value of key as the service runs with it: a --hiveconf pair, else
 * one of the settings whose default it knows, else NULL. */
const char *hms_conf_value(const HmsConf *c, const char *key);

/* The handler of one connection: its metastore handle, opened on the
 * first call that needs it.  hms_handler_new borrows conf. */
HmsThriftHiveMetastoreHandler *hms_handler_new(const HmsConf *conf);
/* The handle of the connection, opened on first use; NULL with *err set
 * when it cannot be opened. */
Ms *hms_handler_ms(HmsThriftHiveMetastoreIf *iface, CombErr *err);
const HmsConf *hms_handler_conf(HmsThriftHiveMetastoreIf *iface);
/* The calls of hms_catalog.c and hms_txn.c into the handler's class. */
void hms_catalog_install(HmsThriftHiveMetastoreHandlerClass *c);
void hms_txn_install(HmsThriftHiveMetastoreHandlerClass *c);
/* The table calls (hms_ddl.c) and the column statistics (hms_stats.c). */
void hms_ddl_install(HmsThriftHiveMetastoreHandlerClass *c);
void hms_stats_install(HmsThriftHiveMetastoreHandlerClass *c);
/* A new exception of generated type `type` (one of the exceptions, whose
 * one field is message) saying fmt. */
gpointer hms_exception(GType type, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* compact2 and show_compact (hms_compact.c). */
void hms_compact_install(HmsThriftHiveMetastoreHandlerClass *c);

/* The partition calls (hms_part.c); t's storage descriptor as
 * get_table gives it (columns, location, formats, serde with its
 * parameters, bucketing and sorting), which a partition's starts from;
 * the n named partitions of db.table made when missing, as a txn's
 * add_dynamic_partitions finds them (*names become the metastore's). */
void hms_part_install(HmsThriftHiveMetastoreHandlerClass *c);
void hms_fill_sd(HmsStorageDescriptor *sd, const MsTable *t);
int hms_part_ensure(Ms *ms, const char *db, const char *table, char **names,
                    int n, CombArena *a, CombErr *err);

/* The one catalog comb serves, Hive's default. */
#define HMS_CATALOG "hive"
/* Engines send locations as URIs; comb's catalog holds local paths as
 * paths ("file:///w/t" and "file:/w/t" are "/w/t"): loc without the
 * scheme (a pointer into it). */
const char *hms_local_path(const char *loc);
/* s (NULL: "") lower-cased in a's memory, as Hive normalizes names. */
char *hms_lower_dup(CombArena *a, const char *s);
/* h[k] = v (NULL: ""), both copied: a generated object's parameters. */
void hms_param_set(GHashTable *h, const char *k, const char *v);

/* A MetaException with the message of a failed metastore call (the
 * catch-all exception of every call that declares it). */
HmsMetaException *hms_meta_exception(const CombErr *err);
/* For calls that declare no exception: err as a GError, which the
 * processor turns into a TApplicationException (INTERNAL_ERROR). */
gboolean hms_fail(GError **error, const CombErr *err);
/* Register every generated type and the classes a connection makes
 * before the first thread: GLib registers a type on first use without a
 * lock. */
void hms_register_types(void);

#endif
