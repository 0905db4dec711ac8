/*
 * hms_catalog.c - the catalog calls: databases, table names and Table
 * objects as Hive's metastore gives them, from ms_db_* and ms_table_*.
 * comb has one catalog, Hive's default one, "hive".
 */
#include "hms/hms_int.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"



static HmsNoSuchObjectException *no_such_object(const char *msg)
{
    HmsNoSuchObjectException *x = g_object_new(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION,
                                               NULL);
    x->message = g_strdup(msg);
    x->__isset_message = TRUE;
    return x;
}

static gboolean get_all_databases(HmsThriftHiveMetastoreIf *iface, GPtrArray **ret,
                                  HmsMetaException **o1, GError **error)
{
    CombErr err;
    CombArena a;
    char **names;
    int n;
    Ms *ms = hms_handler_ms(iface, &err);
    (void)error;
    comb_arena_init(&a, 0);
    if (!ms || ms_db_list(ms, &a, &names, &n, &err)) {
        comb_arena_free(&a);
        *o1 = hms_meta_exception(&err);
        return FALSE;
    }
    for (int i = 0; i < n; i++)
        g_ptr_array_add(*ret, g_strdup(names[i]));
    comb_arena_free(&a);
    return TRUE;
}

static gboolean get_database(HmsThriftHiveMetastoreIf *iface, HmsDatabase **ret,
                             const gchar *name, HmsNoSuchObjectException **o1,
                             HmsMetaException **o2, GError **error)
{
    CombErr err;
    CombArena a;
    MsDatabase *db;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = COMB_EMETASTORE;
    (void)error;
    comb_arena_init(&a, 0);
    if (ms)
        rc = ms_db_get(ms, name ? name : "", &a, &db, &err);
    if (rc == COMB_ENOTFOUND) {
        /* Hive 4's text when its direct SQL finds no row (the default) */
        char msg[COMB_ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "database %s.%s", HMS_CATALOG, name ? name : "");
        *o1 = no_such_object(msg);
    } else if (rc) {
        *o2 = hms_meta_exception(&err);
    } else {
        HmsDatabase *d = *ret;
        d->name = g_strdup(db->name);
        d->__isset_name = TRUE;
        if (db->comment) {
            d->description = g_strdup(db->comment);
            d->__isset_description = TRUE;
        }
        d->locationUri = g_strdup(db->location);
        d->__isset_locationUri = TRUE;
        d->__isset_parameters = TRUE;
        if (db->owner) {
            d->ownerName = g_strdup(db->owner);
            d->__isset_ownerName = TRUE;
            d->ownerType = HMS_PRINCIPAL_TYPE_USER;
            d->__isset_ownerType = TRUE;
        }
        d->catalogName = g_strdup(HMS_CATALOG);
        d->__isset_catalogName = TRUE;
    }
    comb_arena_free(&a);
    return rc == COMB_OK;
}

/* Hive's table name patterns: '*' stands for any text and '|' separates
 * alternatives, the rest is a regular expression (so ".*", which Trino
 * sends, matches every name), compared case-insensitively. */
static int pattern_compile(const char *pattern, regex_t *re, CombErr *err)
{
    GString *s = g_string_new("^(");
    int rc;
    for (const char *p = pattern; *p; p++)
        if (*p == '*')
            g_string_append(s, ".*");
        else
            g_string_append_c(s, *p);
    g_string_append(s, ")$");
    rc = regcomp(re, s->str, REG_EXTENDED | REG_ICASE | REG_NOSUB);
    g_string_free(s, TRUE);
    if (rc)
        return comb_err(err, COMB_EINVALID, "bad table name pattern '%s'",
                        pattern);
    return COMB_OK;
}

/* The names of db's tables that match pattern (NULL: all) and are of
 * table_type (NULL: any). */
static int list_tables(Ms *ms, const char *db, const char *pattern,
                       const char *table_type, GPtrArray *out, CombErr *err)
{
    CombArena a;
    char **names;
    int n, rc;
    regex_t re;
    bool match = pattern && *pattern;
    if (match && (rc = pattern_compile(pattern, &re, err)))
        return rc;
    comb_arena_init(&a, 0);
    rc = ms_table_list(ms, db, &a, &names, &n, err);
    for (int i = 0; !rc && i < n; i++) {
        MsTable *t;
        if (match && regexec(&re, names[i], 0, NULL, 0))
            continue;
        if (table_type) {
            rc = ms_table_get(ms, db, names[i], &a, &t, err);
            if (rc == COMB_ENOTFOUND) {     /* dropped meanwhile */
                rc = COMB_OK;
                continue;
            }
            if (rc || strcasecmp(t->table_type, table_type))
                continue;
        }
        g_ptr_array_add(out, g_strdup(names[i]));
    }
    if (match)
        regfree(&re);
    comb_arena_free(&a);
    return rc;
}

/* Hive answers an unknown database with an empty list. */
static gboolean tables_answer(HmsThriftHiveMetastoreIf *iface, GPtrArray *ret,
                              const char *db, const char *pattern,
                              const char *type, HmsMetaException **o1)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = ms ? list_tables(ms, db ? db : "", pattern, type, ret, &err)
                : COMB_EMETASTORE;
    if (rc == COMB_ENOTFOUND)
        return TRUE;
    if (rc) {
        *o1 = hms_meta_exception(&err);
        return FALSE;
    }
    return TRUE;
}

static gboolean get_all_tables(HmsThriftHiveMetastoreIf *iface, GPtrArray **ret,
                               const gchar *db, HmsMetaException **o1,
                               GError **error)
{
    (void)error;
    return tables_answer(iface, *ret, db, NULL, NULL, o1);
}

/* Whether type names one of Hive's TableType constants (spelt exactly:
 * Hive's TableType.valueOf). */
static bool table_type_known(const char *type)
{
    static const char *const known[] = {MS_MANAGED_TABLE, MS_EXTERNAL_TABLE,
                                        MS_VIRTUAL_VIEW, "MATERIALIZED_VIEW"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(type, known[i]) == 0)
            return true;
    return false;
}

static gboolean get_tables_by_type(HmsThriftHiveMetastoreIf *iface,
                                   GPtrArray **ret, const gchar *db,
                                   const gchar *pattern, const gchar *type,
                                   HmsMetaException **o1, GError **error)
{
    (void)error;
    /* Hive's MetaException wraps the enum lookup's own exception ("",
     * which Hive refuses too, stays comb's "any type") */
    if (type && *type && !table_type_known(type)) {
        *o1 = hms_exception(HMS_TYPE_META_EXCEPTION, "java.lang."
                            "IllegalArgumentException: No enum constant "
                            "org.apache.hadoop.hive.metastore.TableType.%s",
                            type);
        return FALSE;
    }
    return tables_answer(iface, *ret, db, pattern, type && *type ? type : NULL,
                         o1);
}

static HmsFieldSchema *field_schema(const MsColumn *c)
{
    HmsFieldSchema *f = g_object_new(HMS_TYPE_FIELD_SCHEMA, NULL);
    f->name = g_strdup(c->name);
    f->__isset_name = TRUE;
    f->type = g_strdup(c->type);
    f->__isset_type = TRUE;
    if (c->comment) {
        f->comment = g_strdup(c->comment);
        f->__isset_comment = TRUE;
    }
    return f;
}

void hms_fill_sd(HmsStorageDescriptor *sd, const MsTable *t)
{
    for (int i = 0; i < t->n_cols; i++)
        g_ptr_array_add(sd->cols, field_schema(&t->cols[i]));
    sd->__isset_cols = TRUE;
    if (t->location) {
        sd->location = g_strdup(t->location);
        sd->__isset_location = TRUE;
    }
    sd->inputFormat = g_strdup(t->input_format);
    sd->__isset_inputFormat = t->input_format != NULL;
    sd->outputFormat = g_strdup(t->output_format);
    sd->__isset_outputFormat = t->output_format != NULL;
    sd->__isset_compressed = TRUE;
    sd->numBuckets = t->n_buckets;
    sd->__isset_numBuckets = TRUE;
    sd->serdeInfo->serializationLib = g_strdup(t->serde);
    sd->serdeInfo->__isset_serializationLib = t->serde != NULL;
    for (int i = 0; i < t->n_serde_params; i++)
        hms_param_set(sd->serdeInfo->parameters, t->serde_params[i].key,
                  t->serde_params[i].value);
    sd->serdeInfo->__isset_parameters = TRUE;
    sd->__isset_serdeInfo = TRUE;
    for (int i = 0; i < t->n_bucket_cols; i++)
        g_ptr_array_add(sd->bucketCols, g_strdup(t->bucket_cols[i]));
    sd->__isset_bucketCols = TRUE;
    for (int i = 0; i < t->n_sort_cols; i++) {
        HmsOrder *o = g_object_new(HMS_TYPE_ORDER, NULL);
        o->col = g_strdup(t->sort_cols[i].name);
        o->__isset_col = TRUE;
        o->order = t->sort_cols[i].order;
        o->__isset_order = TRUE;
        g_ptr_array_add(sd->sortCols, o);
    }
    sd->__isset_sortCols = TRUE;
    sd->__isset_parameters = TRUE;
}

/* t as Hive's Table object. */
static void fill_table(HmsTable *out, const MsTable *t)
{
    out->tableName = g_strdup(t->name);
    out->__isset_tableName = TRUE;
    out->dbName = g_strdup(t->db);
    out->__isset_dbName = TRUE;
    out->owner = g_strdup(t->owner ? t->owner : "");
    out->__isset_owner = TRUE;
    out->createTime = (gint32)t->create_time;
    out->__isset_createTime = TRUE;
    out->__isset_lastAccessTime = TRUE;
    out->__isset_retention = TRUE;
    hms_fill_sd(out->sd, t);
    out->__isset_sd = TRUE;
    for (int i = 0; i < t->n_part_keys; i++)
        g_ptr_array_add(out->partitionKeys, field_schema(&t->part_keys[i]));
    out->__isset_partitionKeys = TRUE;
    for (int i = 0; i < t->n_props; i++)
        hms_param_set(out->parameters, t->props[i].key, t->props[i].value);
    if (t->comment)         /* Hive keeps it among the parameters */
        hms_param_set(out->parameters, "comment", t->comment);
    out->__isset_parameters = TRUE;
    if (t->view_original_text) {
        out->viewOriginalText = g_strdup(t->view_original_text);
        out->__isset_viewOriginalText = TRUE;
    }
    if (t->view_expanded_text) {
        out->viewExpandedText = g_strdup(t->view_expanded_text);
        out->__isset_viewExpandedText = TRUE;
    }
    out->tableType = g_strdup(t->table_type);
    out->__isset_tableType = TRUE;
    out->__isset_temporary = TRUE;
    out->catName = g_strdup(HMS_CATALOG);
    out->__isset_catName = TRUE;
    out->ownerType = HMS_PRINCIPAL_TYPE_USER;
    out->__isset_ownerType = TRUE;
}

/* db.name into out, or the exception to answer: NoSuchObjectException
 * "hive.<db>.<t> table not found" (Hive's text) or MetaException. */
static bool table_answer(HmsThriftHiveMetastoreIf *iface, const char *db,
                         const char *name, HmsTable *out,
                         HmsNoSuchObjectException **none, HmsMetaException **meta)
{
    CombErr err;
    CombArena a;
    MsTable *t;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = COMB_EMETASTORE;
    comb_arena_init(&a, 0);
    if (ms)
        rc = ms_table_get(ms, db ? db : "", name ? name : "", &a, &t, &err);
    if (rc == COMB_ENOTFOUND) {
        char msg[COMB_ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s.%s.%s table not found", HMS_CATALOG,
                 db ? db : "", name ? name : "");
        *none = no_such_object(msg);
    } else if (rc) {
        *meta = hms_meta_exception(&err);
    } else {
        fill_table(out, t);
    }
    comb_arena_free(&a);
    return rc == COMB_OK;
}

static gboolean get_table(HmsThriftHiveMetastoreIf *iface, HmsTable **ret,
                          const gchar *db, const gchar *name,
                          HmsMetaException **o1, HmsNoSuchObjectException **o2,
                          GError **error)
{
    (void)error;
    return table_answer(iface, db, name, *ret, o2, o1);
}

static gboolean get_table_req(HmsThriftHiveMetastoreIf *iface,
                              HmsGetTableResult **ret,
                              const HmsGetTableRequest *req,
                              HmsMetaException **o1,
                              HmsNoSuchObjectException **o2, GError **error)
{
    (void)error;
    if (!(*ret)->table)
        (*ret)->table = g_object_new(HMS_TYPE_TABLE, NULL);
    return table_answer(iface, req->dbName, req->tblName, (*ret)->table, o2, o1);
}

void hms_catalog_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->get_all_databases = get_all_databases;
    c->get_database = get_database;
    c->get_all_tables = get_all_tables;
    c->get_tables_by_type = get_tables_by_type;
    c->get_table = get_table;
    c->get_table_req = get_table_req;
}
