/*
 * hms_ddl.c - the table calls that change the catalog: create_table,
 * drop_table (each also with an environment context, as Hive's own
 * clients call them), alter_table_req and
 * alter_table_with_environment_context.
 *
 * A Table object becomes the MsTable comb's own CREATE TABLE records (the
 * same formats, type strings, ACID properties and directory), so that
 * comb's SQL reads, writes and compacts a table an outside engine made.
 * Only what comb can store is accepted: ORC or text, types comb knows,
 * ACID on ORC; the rest is refused with the reason (InvalidObjectException
 * on create, InvalidOperationException on alter, as Hive answers).  The
 * rules of Hive's TransactionalValidationListener answer MetaException, as
 * Hive's do.
 *
 * Directories follow comb's order: made before the catalog row that names
 * them; on drop with deleteData moved aside until the row is gone.
 */
#include "hms/hms_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/types.h"
#include "fs/fs.h"

/* The internal code of a refusal by Hive's transactional rules (answered
 * as MetaException, where every other refusal is the call's "invalid"
 * exception). */
#define ACID_RULE COMB_ESEMANTIC
#define PROP_TRANSACTIONAL "transactional"
#define PROP_TXN_PROPERTIES "transactional_properties"
#define PROP_BUCKETING_VERSION "bucketing_version"

static bool is_true(const char *v)
{
    return v && strcasecmp(v, "true") == 0;
}

/* Hive's MetaStoreUtils.validateName: letters, digits and '_'. */
static bool name_ok(const char *s)
{
    if (!s || !*s || strlen(s) > 128)
        return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

/* ------------------------------------------------ Table -> MsTable */

/* One column: a name, and a type comb can store, in comb's own spelling
 * of it (so that its statistics and readers compare equal). */
static int convert_column(CombArena *a, const HmsFieldSchema *f, bool key,
                          MsColumn *c, CombErr *err)
{
    CombType *type;
    CombErr why;
    const char *ts = f->type ? f->type : "";
    if (!f->name || !*f->name)
        return comb_err(err, COMB_EINVALID, "Invalid column name: a column "
                        "without a name");
    if (comb_type_parse(a, ts, strlen(ts), &type, &why))
        return comb_err(err, COMB_EINVALID, "Invalid column type: %s of "
                        "column %s (%s)", ts, f->name, why.msg);
    if (type->kind == COMB_T_UNION)
        return comb_err(err, COMB_EUNSUPPORTED, "Invalid column type: %s of "
                        "column %s (comb does not store union types)", ts,
                        f->name);
    if (key && (!comb_type_is_primitive(type->kind) ||
                type->kind == COMB_T_BINARY))
        return comb_err(err, COMB_EINVALID, "partition column '%s' cannot be "
                        "of type %s", f->name, ts);
    c->name = hms_lower_dup(a, f->name);
    c->type = comb_type_string(a, type);
    c->comment = f->__isset_comment && f->comment
                 ? comb_arena_strdup(a, f->comment) : NULL;
    return c->name && c->type ? COMB_OK : comb_err_nomem(err);
}

static int convert_columns(CombArena *a, const GPtrArray *in, bool key,
                           MsColumn **out, int *n, CombErr *err)
{
    int rc = COMB_OK;
    *n = (int)in->len;
    if (!(*out = comb_arena_calloc(a, (size_t)(in->len + 1) * sizeof **out)))
        return comb_err_nomem(err);
    for (guint i = 0; i < in->len && !rc; i++)
        rc = convert_column(a, g_ptr_array_index(in, i), key, &(*out)[i], err);
    return rc;
}

static const char *given(const gchar *s, gboolean isset)
{
    return isset && s && *s ? s : NULL;
}

/* The classes of the formats comb reads and writes; the output format
 * and SerDe, when given, must be the input format's own. */
static int convert_format(const HmsStorageDescriptor *sd, MsTable *t,
                          CombErr *err)
{
    const char *in = given(sd->inputFormat, sd->__isset_inputFormat);
    const char *out = given(sd->outputFormat, sd->__isset_outputFormat);
    const char *serde = given(sd->serdeInfo->serializationLib,
                              sd->serdeInfo->__isset_serializationLib);
    bool orc = !in || strcmp(in, MS_ORC_INPUT_FORMAT) == 0;
    if (!orc && strcmp(in, MS_TEXT_INPUT_FORMAT) != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "comb stores ORC and text "
                        "tables only, not input format %s", in);
    t->input_format = orc ? MS_ORC_INPUT_FORMAT : MS_TEXT_INPUT_FORMAT;
    t->output_format = orc ? MS_ORC_OUTPUT_FORMAT : MS_TEXT_OUTPUT_FORMAT;
    t->serde = orc ? MS_ORC_SERDE : MS_TEXT_SERDE;
    if (out && strcmp(out, t->output_format) != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "output format %s does not "
                        "go with input format %s (comb writes it with %s)",
                        out, t->input_format, t->output_format);
    if (serde && strcmp(serde, t->serde) != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "SerDe %s is not supported "
                        "for %s tables (theirs is %s)", serde,
                        orc ? "ORC" : "text", t->serde);
    return COMB_OK;
}

static int convert_map(CombArena *a, GHashTable *h, MsProperty **out, int *n,
                       int spare, CombErr *err)
{
    GHashTableIter it;
    gpointer k, v;
    int i = 0;
    *out = comb_arena_calloc(a, (size_t)(g_hash_table_size(h) + spare + 1) *
                                    sizeof **out);
    if (!*out)
        return comb_err_nomem(err);
    g_hash_table_iter_init(&it, h);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        (*out)[i].key = comb_arena_strdup(a, k);
        (*out)[i].value = comb_arena_strdup(a, v ? v : "");
        if (!(*out)[i].key || !(*out)[i].value)
            return comb_err_nomem(err);
        i++;
    }
    *n = i;
    return COMB_OK;
}

/* Bucketing and sorting; numBuckets 0 or below is no bucketing. */
static int convert_bucketing(CombArena *a, const HmsStorageDescriptor *sd,
                             MsTable *t, CombErr *err)
{
    t->n_buckets = -1;
    if (sd->numBuckets > 4096)
        return comb_err(err, COMB_EINVALID, "number of buckets must be "
                        "between 1 and 4096, not %d", sd->numBuckets);
    if (sd->numBuckets > 0) {
        t->n_buckets = sd->numBuckets;
        t->n_bucket_cols = (int)sd->bucketCols->len;
        t->bucket_cols = comb_arena_calloc(a, (sd->bucketCols->len + 1) *
                                                  sizeof *t->bucket_cols);
        if (!t->bucket_cols)
            return comb_err_nomem(err);
        for (guint i = 0; i < sd->bucketCols->len; i++)
            t->bucket_cols[i] = hms_lower_dup(a, g_ptr_array_index(sd->bucketCols, i));
    }
    t->n_sort_cols = (int)sd->sortCols->len;
    if (!(t->sort_cols = comb_arena_calloc(a, (sd->sortCols->len + 1) *
                                                  sizeof *t->sort_cols)))
        return comb_err_nomem(err);
    for (guint i = 0; i < sd->sortCols->len; i++) {
        const HmsOrder *o = g_ptr_array_index(sd->sortCols, i);
        t->sort_cols[i] = (MsSortCol){hms_lower_dup(a, o->col),
                                      o->order ? MS_SORT_ASC : MS_SORT_DESC};
    }
    return COMB_OK;
}

static void prop_set(MsTable *t, const char *key, const char *value)
{
    for (int i = 0; i < t->n_props; i++)
        if (strcmp(t->props[i].key, key) == 0) {
            t->props[i].value = (char *)value;
            return;
        }
    t->props[t->n_props++] = (MsProperty){(char *)key, (char *)value};
}

/* Hive's TransactionalValidationListener, as comb's CREATE TABLE applies
 * it: 'transactional' true or false; full ACID (transactional_properties
 * default, which is filled in) needs a managed ORC table not sorted;
 * insert_only any format. */
static int check_acid(MsTable *t, CombErr *err)
{
    const char *tx = ms_table_prop(t, PROP_TRANSACTIONAL);
    const char *tp = ms_table_prop(t, PROP_TXN_PROPERTIES);
    bool orc = strcmp(t->input_format, MS_ORC_INPUT_FORMAT) == 0;
    if (tx && !is_true(tx) && strcasecmp(tx, "false") != 0)
        return comb_err(err, ACID_RULE, "'transactional' property of "
                        "TBLPROPERTIES may only have value 'true': %s.%s",
                        t->db, t->name);
    if (tp && strcasecmp(tp, "insert_only") != 0 &&
        strcasecmp(tp, "default") != 0)
        return comb_err(err, ACID_RULE, "Invalid transactional properties "
                        "specified for table %s.%s: %s", t->db, t->name, tp);
    if (!is_true(tx)) {
        if (tp && strcasecmp(tp, "insert_only") == 0)
            return comb_err(err, ACID_RULE, "insert-only table %s.%s must be "
                            "transactional", t->db, t->name);
        return COMB_OK;
    }
    if (strcmp(t->table_type, MS_EXTERNAL_TABLE) == 0)
        return comb_err(err, ACID_RULE, "%s.%s cannot be declared "
                        "transactional because it's an external table",
                        t->db, t->name);
    if (!tp)
        prop_set(t, PROP_TXN_PROPERTIES, tp = "default");
    if (strcasecmp(tp, "default") == 0 && !orc)
        return comb_err(err, ACID_RULE, "The table must be stored using an "
                        "ACID compliant format (such as ORC): %s.%s", t->db,
                        t->name);
    if (strcasecmp(tp, "default") == 0 && t->n_sort_cols > 0)
        return comb_err(err, ACID_RULE, "Table %s.%s cannot support full "
                        "ACID functionality since it is sorted.", t->db,
                        t->name);
    return COMB_OK;
}

/* The properties as given, less the table comment (kept apart), with
 * Hive's DDL time; bucketing_version must be one comb hashes by. */
static int convert_props(CombArena *a, GHashTable *params, MsTable *t,
                         CombErr *err)
{
    const char *bv, *comment;
    int rc = convert_map(a, params, &t->props, &t->n_props, 3, err);
    if (rc)
        return rc;
    bv = ms_table_prop(t, PROP_BUCKETING_VERSION);
    if (bv && strcmp(bv, "1") != 0 && strcmp(bv, "2") != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "bucketing_version %s is not "
                        "supported (1 and 2 are)", bv);
    if ((comment = ms_table_prop(t, "comment")))
        t->comment = (char *)comment;
    for (int i = 0; i < t->n_props; i++)
        if (strcmp(t->props[i].key, "comment") == 0)
            t->props[i--] = t->props[--t->n_props];
    if (!ms_table_prop(t, MS_DDL_TIME) &&
        !(t->props[t->n_props++] = (MsProperty){
              MS_DDL_TIME, comb_arena_printf(a, "%lld",
                                             (long long)time(NULL))}).value)
        return comb_err_nomem(err);
    return COMB_OK;
}

/* A location as comb keeps it: Hive's "file:" scheme dropped, "" none. */
static char *convert_location(CombArena *a, const HmsStorageDescriptor *sd)
{
    const char *loc = given(sd->location, sd->__isset_location);
    return loc ? comb_arena_strdup(a, hms_local_path(loc)) : NULL;
}

static int convert_type(const HmsTable *in, MsTable *t, CombErr *err)
{
    const char *type = given(in->tableType, in->__isset_tableType);
    const char *ext = g_hash_table_lookup(in->parameters, "EXTERNAL");
    /* Hive's ObjectStore: EXTERNAL=TRUE makes a table external whatever
     * type it names */
    if (!type || (is_true(ext) && strcmp(type, MS_MANAGED_TABLE) == 0))
        type = is_true(ext) ? MS_EXTERNAL_TABLE : MS_MANAGED_TABLE;
    if (strcmp(type, MS_VIRTUAL_VIEW) == 0)
        return comb_err(err, COMB_EUNSUPPORTED, "views are made with comb's "
                        "CREATE VIEW, not through the metastore service");
    if (strcmp(type, MS_MANAGED_TABLE) != 0 &&
        strcmp(type, MS_EXTERNAL_TABLE) != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "table type %s is not "
                        "supported (MANAGED_TABLE and EXTERNAL_TABLE are)",
                        type);
    t->table_type = (char *)type;
    return COMB_OK;
}

/* in as the table comb records (arena memory). */
static int convert_table(CombArena *a, const HmsTable *in, MsTable *t,
                         CombErr *err)
{
    const HmsStorageDescriptor *sd = in->sd;
    int rc;
    memset(t, 0, sizeof *t);
    if (!name_ok(in->tableName))
        return comb_err(err, COMB_EINVALID, "%s is not a valid object name",
                        in->tableName ? in->tableName : "");
    t->db = hms_lower_dup(a, in->dbName);
    t->name = hms_lower_dup(a, in->tableName);
    t->owner = in->owner && *in->owner ? comb_arena_strdup(a, in->owner) : NULL;
    t->create_time = (int64_t)time(NULL);
    t->location = convert_location(a, sd);
    if ((rc = convert_type(in, t, err)) || (rc = convert_format(sd, t, err)) ||
        (rc = convert_columns(a, sd->cols, false, &t->cols, &t->n_cols, err)) ||
        (rc = convert_columns(a, in->partitionKeys, true, &t->part_keys,
                              &t->n_part_keys, err)) ||
        (rc = convert_bucketing(a, sd, t, err)) ||
        (rc = convert_map(a, sd->serdeInfo->parameters, &t->serde_params,
                          &t->n_serde_params, 0, err)) ||
        (rc = convert_props(a, in->parameters, t, err)))
        return rc;
    return check_acid(t, err);
}

/* ------------------------------------------------------- create_table */

/* <db location>/<table's directory name> (arena; NULL: no memory). */
static char *default_dir(CombArena *a, const MsDatabase *db, const char *name)
{
    char *dir = ms_table_dir_name(name, a);
    return dir ? comb_arena_printf(a, "%s/%s", db->location, dir) : NULL;
}

/* Where a managed table at its default place goes: a directory holding
 * files (a dropped table's, kept) is never read by the new table, which
 * gets "<dir>.v<N>" instead, as comb's CREATE TABLE does. */
static int choose_dir(Ms *ms, CombArena *a, MsTable *t, CombErr *err)
{
    MsDatabase *db;
    char **names;
    const char *base;
    int n = 0, rc = ms_db_get(ms, t->db, a, &db, err);
    if (rc || t->location)
        return rc;
    if (!(base = default_dir(a, db, t->name)))
        return comb_err_nomem(err);
    t->location = (char *)base;
    if (fs_is_dir(base) && (rc = fs_list_dir(base, a, &names, &n, err)))
        return rc;
    for (int v = 1; n > 0 && fs_exists(t->location); v++)
        if (!(t->location = comb_arena_printf(a, "%s.v%07d", base, v)))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int create(Ms *ms, CombArena *a, MsTable *t, CombErr *err)
{
    MsTable *existing;
    int made = 0;
    int rc = ms_table_get(ms, t->db, t->name, a, &existing, err);
    if (rc == COMB_OK)
        return comb_err(err, COMB_EEXISTS, "Table %s.%s.%s already exists",
                        HMS_CATALOG, t->db, t->name);
    if (rc != COMB_ENOTFOUND || (rc = choose_dir(ms, a, t, err)))
        return rc;
    if (t->location[0] != '/' && !fs_is_remote(t->location))
        return comb_err(err, COMB_EINVALID, "location '%s' is not absolute",
                        t->location);
    if (fs_exists(t->location) && !fs_is_dir(t->location))
        return comb_err(err, COMB_EINVALID, "location '%s' is not a "
                        "directory", t->location);
    if ((rc = fs_mkdirs_n(t->location, &made, err)))
        return rc;
    if ((rc = ms_table_create(ms, t, false, err)))
        fs_rmdirs_empty(t->location, made);
    if (rc == COMB_EEXISTS)      /* made meanwhile by another client */
        comb_err(err, rc, "Table %s.%s.%s already exists", HMS_CATALOG, t->db,
                 t->name);
    return rc;
}

/* Both create calls (Hive's clients send the one with a context, Trino
 * the one without).  Their NoSuchObjectException is never sent: Hive
 * converts its own into InvalidObjectException. */
static gboolean create_answer(HmsThriftHiveMetastoreIf *iface,
                              const HmsTable *tbl,
                              HmsAlreadyExistsException **o1,
                              HmsInvalidObjectException **o2,
                              HmsMetaException **o3)
{
    CombErr err;
    CombArena a;
    MsTable t;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc;
    t.db = NULL;
    comb_arena_init(&a, 0);
    rc = ms ? convert_table(&a, tbl, &t, &err) : COMB_EMETASTORE;
    if (!rc)
        rc = create(ms, &a, &t, &err);
    if (rc == COMB_EEXISTS)
        *o1 = hms_exception(HMS_TYPE_ALREADY_EXISTS_EXCEPTION, "%s", err.msg);
    else if (rc == COMB_ENOTFOUND)
        *o2 = hms_exception(HMS_TYPE_INVALID_OBJECT_EXCEPTION, "database %s.%s",
                            HMS_CATALOG, t.db ? t.db : "");
    else if (rc == COMB_EINVALID || rc == COMB_EUNSUPPORTED)
        *o2 = hms_exception(HMS_TYPE_INVALID_OBJECT_EXCEPTION, "%s", err.msg);
    else if (rc)
        *o3 = hms_meta_exception(&err);
    comb_arena_free(&a);
    return rc == COMB_OK;
}

static gboolean create_table(HmsThriftHiveMetastoreIf *iface,
                             const HmsTable *tbl,
                             HmsAlreadyExistsException **o1,
                             HmsInvalidObjectException **o2,
                             HmsMetaException **o3,
                             HmsNoSuchObjectException **o4, GError **error)
{
    (void)o4;
    (void)error;
    return create_answer(iface, tbl, o1, o2, o3);
}

static gboolean create_table_with_environment_context(
    HmsThriftHiveMetastoreIf *iface, const HmsTable *tbl,
    const HmsEnvironmentContext *environment_context,
    HmsAlreadyExistsException **o1, HmsInvalidObjectException **o2,
    HmsMetaException **o3, HmsNoSuchObjectException **o4, GError **error)
{
    (void)environment_context;
    (void)o4;
    (void)error;
    return create_answer(iface, tbl, o1, o2, o3);
}

/* --------------------------------------------------------- drop_table */

/* Whether database db exists (a failed look-up counts as yes: the
 * table's own answer is then given). */
static bool database_exists(Ms *ms, CombArena *a, const char *db)
{
    MsDatabase *d;
    CombErr err;
    return ms_db_get(ms, db ? db : "", a, &d, &err) != COMB_ENOTFOUND;
}

/* Hive's text for a database it does not find (ObjectStore.getDatabase);
 * a rename into one is InvalidOperationException, as Hive converts the
 * lookup's NoSuchObjectException. */
static int no_database(CombErr *err, const char *db)
{
    return comb_err(err, COMB_EINVALID, "database %s.%s", HMS_CATALOG, db);
}

/* Are t's files removed with it?  Managed tables' are (deleteData), an
 * external table's only with external.table.purge=true, as in Hive. */
static bool drops_files(const MsTable *t)
{
    if (!t->location || strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0)
        return false;
    return strcmp(t->table_type, MS_EXTERNAL_TABLE) != 0 ||
           is_true(ms_table_prop(t, "external.table.purge"));
}

/* The directories of t's partitions that lie outside its own (NULL
 * ended in *out), which Hive removes with the table's files. */
static int outside_dirs(Ms *ms, CombArena *a, const MsTable *t, char ***out,
                        CombErr *err)
{
    MsPartition *parts = NULL;
    size_t len = strlen(t->location);
    int n = 0, k = 0;
    int rc = t->n_part_keys ? ms_part_list(ms, t->db, t->name, NULL, 0, a,
                                           &parts, &n, err)
                            : COMB_OK;
    *out = rc ? NULL : comb_arena_calloc(a, (size_t)(n + 1) * sizeof **out);
    if (!rc && !*out)
        return comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++) {
        const char *loc = parts[i].location;
        bool inside = strncmp(loc, t->location, len) == 0 &&
                      (loc[len] == '/' || loc[len] == '\0');
        if (!inside)
            (*out)[k++] = parts[i].location;
    }
    return rc;
}

/* The partition directories of a dropped table removed (those that are
 * still there). */
static int remove_dirs(char **dirs, const char *db, const char *name,
                       CombErr *err)
{
    for (int i = 0; dirs && dirs[i]; i++)
        if (fs_exists(dirs[i]) && fs_remove_tree(dirs[i], err))
            return comb_err_prefix(err, "table %s.%s was dropped, its "
                                   "partition's files in '%s' were not "
                                   "removed", db, name, dirs[i]);
    return COMB_OK;
}

/* The directory is moved aside first, so that a failed drop can put it
 * back, and removed once the catalog no longer names it; so are the
 * directories of its partitions located elsewhere, as Hive does. */
static int drop(Ms *ms, CombArena *a, const char *db, const char *name,
                bool delete_data, CombErr *err)
{
    MsTable *t;
    char *aside = NULL;
    char **outside = NULL;
    int rc = ms_table_get(ms, db, name, a, &t, err);
    if (rc)
        return rc;
    if (delete_data && drops_files(t) &&
        (rc = outside_dirs(ms, a, t, &outside, err)))
        return rc;
    if (delete_data && drops_files(t) && fs_exists(t->location) &&
        (rc = fs_rename_aside(t->location, "dropped", a, &aside, err)))
        return comb_err_prefix(err, "cannot drop table %s.%s", db, name);
    if ((rc = ms_table_drop(ms, db, name, false, err))) {
        CombErr why;
        if (aside && fs_rename(aside, t->location, &why))
            comb_err_prefix(err, "the table's files are left in '%s' (%s)",
                            aside, why.msg);
        return rc;
    }
    if (aside && fs_remove_tree(aside, err))
        return comb_err_prefix(err, "table %s.%s was dropped, its files in "
                               "'%s' were not removed", db, name, aside);
    return remove_dirs(outside, db, name, err);
}

static gboolean drop_answer(HmsThriftHiveMetastoreIf *iface, const gchar *dbname,
                            const gchar *name, bool delete_data,
                            HmsNoSuchObjectException **o1,
                            HmsMetaException **o3)
{
    CombErr err;
    CombArena a;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = COMB_EMETASTORE;
    comb_arena_init(&a, 0);
    if (ms)
        rc = drop(ms, &a, hms_lower_dup(&a, dbname), hms_lower_dup(&a, name),
                  delete_data, &err);
    /* Hive looks the database up first */
    if (rc == COMB_ENOTFOUND && !database_exists(ms, &a, hms_lower_dup(&a, dbname)))
        *o1 = hms_exception(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION, "database %s.%s",
                            HMS_CATALOG, dbname ? dbname : "");
    else if (rc == COMB_ENOTFOUND)
        *o1 = hms_exception(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION,
                            "%s.%s.%s table not found", HMS_CATALOG,
                            dbname ? dbname : "", name ? name : "");
    else if (rc)
        *o3 = hms_meta_exception(&err);
    comb_arena_free(&a);
    return rc == COMB_OK;
}

static gboolean drop_table(HmsThriftHiveMetastoreIf *iface, const gchar *dbname,
                           const gchar *name, const gboolean delete_data,
                           HmsNoSuchObjectException **o1,
                           HmsMetaException **o3, GError **error)
{
    (void)error;
    return drop_answer(iface, dbname, name, delete_data, o1, o3);
}

static gboolean drop_table_with_environment_context(
    HmsThriftHiveMetastoreIf *iface, const gchar *dbname, const gchar *name,
    const gboolean delete_data, const HmsEnvironmentContext *environment_context,
    HmsNoSuchObjectException **o1, HmsMetaException **o3, GError **error)
{
    (void)environment_context;
    (void)error;
    return drop_answer(iface, dbname, name, delete_data, o1, o3);
}

/* -------------------------------------------------------- alter_table */

/* What comb cannot change under its files: existing columns keep their
 * names, types and order (new ones may follow), the bucketing of an ACID
 * table stays (its bucket files are laid out by it), and 'transactional'
 * stays on once on. */
static int check_alter(const MsTable *old, const MsTable *t, CombErr *err)
{
    if (t->n_cols < old->n_cols)
        return comb_err(err, COMB_EUNSUPPORTED, "comb cannot drop columns "
                        "of %s.%s through the metastore (columns may only be "
                        "added at the end)", old->db, old->name);
    for (int i = 0; i < old->n_cols; i++)
        if (strcmp(old->cols[i].name, t->cols[i].name) != 0 ||
            strcmp(old->cols[i].type, t->cols[i].type) != 0)
            return comb_err(err, COMB_EUNSUPPORTED, "comb cannot change "
                            "column %s %s of %s.%s into %s %s (columns may "
                            "only be added at the end)", old->cols[i].name,
                            old->cols[i].type, old->db, old->name,
                            t->cols[i].name, t->cols[i].type);
    if (ms_table_is_transactional(old) && !ms_table_is_transactional(t))
        return comb_err(err, COMB_EUNSUPPORTED, "TBLPROPERTIES with "
                        "'transactional'='true' cannot be unset");
    if (ms_table_is_transactional(old) && old->n_buckets != t->n_buckets)
        return comb_err(err, COMB_EUNSUPPORTED, "comb cannot change the "
                        "bucketing of transactional table %s.%s (its files "
                        "are laid out by it)", old->db, old->name);
    if (strcmp(old->input_format, t->input_format) != 0)
        return comb_err(err, COMB_EUNSUPPORTED, "comb cannot change the "
                        "format of %s.%s (its files are in %s)", old->db,
                        old->name, old->input_format);
    return COMB_OK;
}

/* A rename's checks, before anything changes: the new database exists,
 * no table has the new name, and where the directory goes (*to; NULL
 * when it stays: Hive moves a managed table's directory only when it is
 * the default one) nothing is. */
static int rename_check(Ms *ms, CombArena *a, const MsTable *old,
                        const char *new_db, const char *new_name, char **to,
                        CombErr *err)
{
    MsDatabase *odb, *ndb;
    MsTable *existing;
    char *old_default;
    int rc = ms_table_get(ms, new_db, new_name, a, &existing, err);
    *to = NULL;
    if (rc == COMB_OK)
        return comb_err(err, COMB_EEXISTS, "new table %s.%s already exists",
                        new_db, new_name);
    if (rc != COMB_ENOTFOUND)
        return rc;
    if ((rc = ms_db_get(ms, new_db, a, &ndb, err)) == COMB_ENOTFOUND)
        return no_database(err, new_db);
    if (rc)
        return rc;
    if (strcmp(old->table_type, MS_MANAGED_TABLE) != 0 ||
        (rc = ms_db_get(ms, old->db, a, &odb, err)))
        return rc;
    if (!(old_default = default_dir(a, odb, old->name)))
        return comb_err_nomem(err);
    if (strcmp(old_default, old->location) != 0)
        return COMB_OK;
    if (!(*to = default_dir(a, ndb, new_name)))
        return comb_err_nomem(err);
    if (fs_exists(*to))
        return comb_err(err, COMB_EEXISTS, "New location for this table "
                        "%s.%s.%s already exists : %s", HMS_CATALOG, new_db,
                        new_name, *to);
    return COMB_OK;
}

/* ALTER TABLE RENAME as comb's SQL does it: the directory first (to, from
 * rename_check), then the catalog with the table's write ids; a failed
 * rename moves it back. */
static int rename_table(Ms *ms, const MsTable *old, const char *new_db,
                        const char *new_name, const char *to, CombErr *err)
{
    bool moved = false;
    int rc;
    if (to && fs_exists(old->location)) {
        CombErr why;
        if ((rc = fs_rename(old->location, to, &why)))
            return comb_err(err, rc, "Alter Table operation for %s.%s "
                            "failed to move data due to: '%s' See hive log "
                            "file for details.", old->db, old->name,
                            why.msg);
        moved = true;
    }
    rc = ms_table_rename(ms, old->db, old->name, new_db, new_name, to, err);
    if (rc && moved) {
        CombErr why;
        if (fs_rename(to, old->location, &why))
            comb_err_prefix(err, "the table's files are left in '%s' (%s)",
                            to, why.msg);
    }
    return rc;
}

/* db.name becomes what `in` describes: its definition (ms_table_alter),
 * then its name when that differs, checked before either changes. */
static int alter(Ms *ms, CombArena *a, const char *db, const char *name,
                 const HmsTable *in, CombErr *err)
{
    MsTable *old, t;
    char *to = NULL;
    bool renamed;
    int rc = ms_table_get(ms, db, name, a, &old, err);
    /* Hive's alter_table_core gets the table first (get_table_core, which
     * passes over an unknown database), its NoSuchObjectException
     * converted */
    if (rc == COMB_ENOTFOUND)
        return comb_err(err, COMB_EINVALID, "%s.%s.%s table not found",
                        HMS_CATALOG, db, name);
    if (rc || (rc = convert_table(a, in, &t, err)))
        return rc;
    if (strcmp(old->table_type, MS_VIRTUAL_VIEW) == 0)
        return comb_err(err, COMB_EUNSUPPORTED, "%s.%s is a view (ALTER VIEW "
                        "in comb's SQL changes it)", db, name);
    renamed = strcmp(t.db, db) != 0 || strcmp(t.name, name) != 0;
    if ((rc = check_alter(old, &t, err)) ||
        (renamed && (rc = rename_check(ms, a, old, t.db, t.name, &to, err))))
        return rc;
    t.create_time = old->create_time;
    t.owner = t.owner ? t.owner : old->owner;
    if (!t.location)
        t.location = old->location;
    t.db = old->db;
    t.name = old->name;
    if ((rc = ms_table_alter(ms, &t, err)) || !renamed)
        return rc;
    return rename_table(ms, &t, hms_lower_dup(a, in->dbName),
                        hms_lower_dup(a, in->tableName), to, err);
}

/* Both alter calls: InvalidOperationException for what comb cannot do
 * or finds wrong, MetaException for the metastore's own failures. */
static gboolean alter_answer(HmsThriftHiveMetastoreIf *iface, const char *db,
                             const char *name, const HmsTable *in,
                             HmsInvalidOperationException **o1,
                             HmsMetaException **o2)
{
    CombErr err;
    CombArena a;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = COMB_EMETASTORE;
    comb_arena_init(&a, 0);
    if (ms && !in)
        rc = comb_err(&err, COMB_EINVALID, "New table is null");
    else if (ms)
        rc = alter(ms, &a, hms_lower_dup(&a, db), hms_lower_dup(&a, name), in, &err);
    if (rc == COMB_EMETASTORE || rc == COMB_EIO || rc == COMB_ENOMEM ||
        rc == ACID_RULE)
        *o2 = hms_meta_exception(&err);
    else if (rc)
        *o1 = hms_exception(HMS_TYPE_INVALID_OPERATION_EXCEPTION, "%s",
                            err.msg);
    comb_arena_free(&a);
    return rc == COMB_OK;
}

static gboolean alter_table_with_environment_context(
    HmsThriftHiveMetastoreIf *iface, const gchar *dbname, const gchar *tbl_name,
    const HmsTable *new_tbl, const HmsEnvironmentContext *environment_context,
    HmsInvalidOperationException **o1, HmsMetaException **o2, GError **error)
{
    (void)environment_context;
    (void)error;
    return alter_answer(iface, dbname, tbl_name, new_tbl, o1, o2);
}

static gboolean alter_table_req(HmsThriftHiveMetastoreIf *iface,
                                HmsAlterTableResponse **ret,
                                const HmsAlterTableRequest *req,
                                HmsInvalidOperationException **o1,
                                HmsMetaException **o2, GError **error)
{
    (void)ret;
    (void)error;
    return alter_answer(iface, req->dbName, req->tableName, req->table, o1,
                        o2);
}

void hms_ddl_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->create_table = create_table;
    c->create_table_with_environment_context =
        create_table_with_environment_context;
    c->drop_table = drop_table;
    c->drop_table_with_environment_context =
        drop_table_with_environment_context;
    c->alter_table_with_environment_context =
        alter_table_with_environment_context;
    c->alter_table_req = alter_table_req;
}
