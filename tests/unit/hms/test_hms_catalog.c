/* hms/hms_catalog.c's get_tables_by_type through the handler: Hive's
 * table name patterns ('*' any text, '|' alternatives, the rest a regular
 * expression, case-insensitive) and the table type filter. */
#include "unit.h"

#include "hms/hms_int.h"

typedef struct Catalog {
    HmsConf conf;
    HmsThriftHiveMetastoreHandler *handler;
} Catalog;

/* A table of type (NULL: managed) in default. */
static int table_add(Ms *ms, const char *name, const char *type, CombErr *err)
{
    MsColumn col = {"a", "int", NULL};
    char location[4200];
    MsTable t = {0};
    snprintf(location, sizeof location, "%s/%s", unit_tmpdir(), name);
    t.db = "default";
    t.name = (char *)name;
    t.table_type = (char *)type;
    t.n_cols = 1;
    t.cols = &col;
    t.n_buckets = -1;
    if (type && !strcmp(type, MS_VIRTUAL_VIEW)) {
        t.view_original_text = "SELECT 1";
        t.view_expanded_text = "SELECT 1";
    } else {
        t.location = location;
    }
    return ms_table_create(ms, &t, false, err);
}

/* A warehouse of tables t, t2, orders (managed), ext (external), v (a
 * view), served by a handler. */
static bool catalog_open(Catalog *c)
{
    HmsOptions opt = {.warehouse = unit_tmpdir()};
    Ms *ms = NULL;
    CombErr err;
    bool ok;
    hms_register_types();
    if (hms_conf_init(&opt, &c->conf, &err) ||
        ms_open(c->conf.target, unit_tmpdir(), &ms, &err))
        return false;
    ok = !table_add(ms, "t", NULL, &err) && !table_add(ms, "t2", NULL, &err) &&
         !table_add(ms, "orders", NULL, &err) &&
         !table_add(ms, "ext", MS_EXTERNAL_TABLE, &err) &&
         !table_add(ms, "v", MS_VIRTUAL_VIEW, &err);
    if (!ok)
        fprintf(stderr, "catalog_open: %s\n", err.msg);
    ms_close(ms);
    c->handler = hms_handler_new(&c->conf);
    return ok;
}

static void catalog_close(Catalog *c)
{
    g_object_unref(c->handler);
    hms_conf_free(&c->conf);
}

/* The names get_tables_by_type answers, comma-separated in the
 * metastore's order, into out (n bytes); "error: <message>" for a
 * MetaException. */
static const char *tables(Catalog *c, const char *pattern, const char *type,
                          char *out, size_t n)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    HmsMetaException *meta = NULL;
    GError *error = NULL;
    size_t used = 0;
    out[0] = '\0';
    if (!hms_thrift_hive_metastore_if_get_tables_by_type(
            HMS_THRIFT_HIVE_METASTORE_IF(c->handler), &names, "default", pattern,
            type, &meta, &error)) {
        snprintf(out, n, "error: %s", meta ? meta->message : error->message);
        if (meta)
            g_object_unref(meta);
        g_clear_error(&error);
    }
    for (guint i = 0; i < names->len && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? "," : "",
                                 (char *)g_ptr_array_index(names, i));
    g_ptr_array_unref(names);
    return out;
}

TEST(hms_catalog_patterns_and_types)
{
    static const struct {
        const char *pattern, *type, *want;
    } cases[] = {
        {"*", MS_MANAGED_TABLE, "orders,t,t2"},
        {".*", MS_MANAGED_TABLE, "orders,t,t2"},     /* Trino's: a regex */
        {"t*|o*", MS_MANAGED_TABLE, "orders,t,t2"},
        {"T", MS_MANAGED_TABLE, "t"},                /* whole name, any case */
        {"t|ORD*", MS_MANAGED_TABLE, "orders,t"},
        {"rders", MS_MANAGED_TABLE, ""},
        {"t[0-9]", NULL, "t2"},
        {"*", MS_EXTERNAL_TABLE, "ext"},
        {"*", MS_VIRTUAL_VIEW, "v"},
        {"*", "", "ext,orders,t,t2,v"},              /* no type: every one */
        {"", NULL, "ext,orders,t,t2,v"},
    };
    Catalog c;
    char got[256];
    CHECK(catalog_open(&c));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (strcmp(tables(&c, cases[i].pattern, cases[i].type, got, sizeof got),
                   cases[i].want))
            unit_fail(__FILE__, __LINE__, "'%s' %s: \"%s\", not \"%s\"",
                      cases[i].pattern, cases[i].type ? cases[i].type : "-",
                      got, cases[i].want);
    catalog_close(&c);
}

TEST(hms_catalog_bad_pattern_is_a_meta_exception)
{
    Catalog c;
    char got[256];
    CHECK(catalog_open(&c));
    CHECK_STR(tables(&c, "t(", NULL, got, sizeof got),
              "error: bad table name pattern 't('");
    catalog_close(&c);
}
