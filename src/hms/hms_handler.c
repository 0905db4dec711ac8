/*
 * hms_handler.c - the handler of a connection (hms_int.h): its metastore
 * handle (a handle serves one thread: each connection has its own,
 * opened on its first call that needs one), the calls on the service's
 * settings, the exceptions every call shares, and the registration of
 * the generated types.
 */
#include "hms/hms_int.h"
#include "rpc/rpc_frames.h"
#include "rpc/rpc_proto.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include <thrift/c_glib/thrift_application_exception.h>

typedef struct CombHmsHandler {
    HmsThriftHiveMetastoreHandler parent;
    const HmsConf *conf;
    Ms *ms;                 /* NULL until the first call that needs it */
} CombHmsHandler;

typedef struct CombHmsHandlerClass {
    HmsThriftHiveMetastoreHandlerClass parent;
} CombHmsHandlerClass;

G_DEFINE_TYPE(CombHmsHandler, comb_hms_handler,
              HMS_TYPE_THRIFT_HIVE_METASTORE_HANDLER)

#define HANDLER(i) ((CombHmsHandler *)(i))

Ms *hms_handler_ms(HmsThriftHiveMetastoreIf *iface, CombErr *err)
{
    CombHmsHandler *h = HANDLER(iface);
    if (!h->ms && ms_open(h->conf->target, h->conf->warehouse, &h->ms, err))
        h->ms = NULL;
    return h->ms;
}

const HmsConf *hms_handler_conf(HmsThriftHiveMetastoreIf *iface)
{
    return HANDLER(iface)->conf;
}

gpointer hms_exception(GType type, const char *fmt, ...)
{
    va_list ap;
    gchar *msg;
    gpointer x;
    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    x = g_object_new(type, "message", msg, NULL);
    g_free(msg);
    return x;
}

const char *hms_local_path(const char *loc)
{
    if (strncmp(loc, "file:", 5) != 0)
        return loc;
    loc += 5;
    while (loc[0] == '/' && loc[1] == '/')
        loc++;
    return loc;
}

char *hms_lower_dup(CombArena *a, const char *s)
{
    char *out = comb_arena_strdup(a, s ? s : "");
    for (char *p = out; p && *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return out;
}

void hms_param_set(GHashTable *h, const char *k, const char *v)
{
    g_hash_table_insert(h, g_strdup(k), g_strdup(v ? v : ""));
}

HmsMetaException *hms_meta_exception(const CombErr *err)
{
    HmsMetaException *x = g_object_new(HMS_TYPE_META_EXCEPTION, NULL);
    x->message = g_strdup(err->msg);
    x->__isset_message = TRUE;
    return x;
}

gboolean hms_fail(GError **error, const CombErr *err)
{
    g_set_error(error, THRIFT_APPLICATION_EXCEPTION_ERROR,
                THRIFT_APPLICATION_EXCEPTION_ERROR_INTERNAL_ERROR, "%s",
                err->msg);
    return FALSE;
}

/* Hive's getMetaConf: the value the service runs with; MetaException
 * "Invalid configuration key <key>" for a setting it does not have. */
static gboolean get_meta_conf(HmsThriftHiveMetastoreIf *iface, gchar **ret,
                              const gchar *key, HmsMetaException **o1,
                              GError **error)
{
    const char *v = hms_conf_value(HANDLER(iface)->conf, key ? key : "");
    (void)error;
    if (!v) {
        CombErr err;
        comb_err(&err, COMB_ENOTFOUND, "Invalid configuration key %s",
                 key ? key : "");
        *o1 = hms_meta_exception(&err);
        return FALSE;
    }
    *ret = g_strdup(v);
    return TRUE;
}

/* Hive's get_config_value: only hive*, hdfs*, mapred* and metastore*
 * settings may be read; one the service does not have answers
 * defaultValue. */
static gboolean get_config_value(HmsThriftHiveMetastoreIf *iface, gchar **ret,
                                 const gchar *name, const gchar *def,
                                 HmsConfigValSecurityException **o1,
                                 GError **error)
{
    static const char *const allowed[] = {"hive", "hdfs", "mapred",
                                          "metastore"};
    const char *key = name ? name : "";
    bool ok = false;
    (void)error;
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        ok = ok || !strncmp(key, allowed[i], strlen(allowed[i]));
    if (!ok) {
        *o1 = g_object_new(HMS_TYPE_CONFIG_VAL_SECURITY_EXCEPTION, NULL);
        (*o1)->message = g_strdup_printf("For security reasons, the config "
                                         "key %s cannot be accessed", key);
        (*o1)->__isset_message = TRUE;
        return FALSE;
    }
    const char *v = hms_conf_value(HANDLER(iface)->conf, key);
    *ret = g_strdup(v ? v : def);
    return TRUE;
}

static void handler_finalize(GObject *o)
{
    ms_close(HANDLER(o)->ms);
    G_OBJECT_CLASS(comb_hms_handler_parent_class)->finalize(o);
}

static void comb_hms_handler_class_init(CombHmsHandlerClass *klass)
{
    HmsThriftHiveMetastoreHandlerClass *c =
        HMS_THRIFT_HIVE_METASTORE_HANDLER_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = handler_finalize;
    c->get_meta_conf = get_meta_conf;
    c->get_config_value = get_config_value;
    hms_catalog_install(c);
    hms_txn_install(c);
    hms_ddl_install(c);
    hms_stats_install(c);
    hms_compact_install(c);
    hms_part_install(c);
}

static void comb_hms_handler_init(CombHmsHandler *h)
{
    h->ms = NULL;
}

HmsThriftHiveMetastoreHandler *hms_handler_new(const HmsConf *conf)
{
    CombHmsHandler *h = g_object_new(comb_hms_handler_get_type(), NULL);
    h->conf = conf;
    return &h->parent;
}

void hms_register_types(void)
{
    static GType (*const get_type[])(void) = {
#include "hms/hms_get_types.inc"
    };
    for (size_t i = 0; i < sizeof get_type / sizeof *get_type; i++)
        get_type[i]();
    g_type_class_unref(g_type_class_ref(comb_hms_handler_get_type()));
    g_type_class_unref(g_type_class_ref(HMS_TYPE_THRIFT_HIVE_METASTORE_PROCESSOR));
    g_type_class_unref(g_type_class_ref(THRIFT_TYPE_APPLICATION_EXCEPTION));
    rpc_wire_register();
    rpc_frames_register();
    rpc_proto_register();
}
