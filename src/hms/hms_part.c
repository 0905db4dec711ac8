/*
 * hms_part.c - the partition calls: names by a partial spec, Partition
 * objects by name, adding partitions (each directory made before the
 * catalog names it, as ALTER TABLE ADD PARTITION does), altering them,
 * and the partitions a txn's add_dynamic_partitions names (hms_txn.c),
 * made when missing as comb's own dynamic-partition INSERT makes them:
 * at once, not at commit, so that a txn that aborts leaves an empty
 * partition whose files no reader sees (their write id is aborted).
 */
#include "hms/hms_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/alloc.h"
#include "fs/fs.h"

/* The table a call names; COMB_ENOTFOUND with Hive's text
 * "hive.<db>.<t> table not found". */
static int part_table(Ms *ms, const char *db, const char *name, CombArena *a,
                      MsTable **t, CombErr *err)
{
    int rc = ms_table_get(ms, db ? db : "", name ? name : "", a, t, err);
    if (rc == COMB_ENOTFOUND)
        comb_err(err, COMB_ENOTFOUND, "%s.%s.%s table not found", HMS_CATALOG,
                 db ? db : "", name ? name : "");
    return rc;
}

/* Replace *field (a generated string) with v when v is set. */
static void replace_str(gchar **field, gboolean *isset, const char *v)
{
    if (!v)
        return;
    g_free(*field);
    *field = g_strdup(v);
    *isset = TRUE;
}

/* p of t as Hive's Partition: the table's storage descriptor with the
 * partition's location, formats and serde. */
static void fill_partition(HmsPartition *out, const MsTable *t,
                           const MsPartition *p)
{
    for (int i = 0; i < p->n_values; i++)
        g_ptr_array_add(out->values, g_strdup(p->values[i]));
    out->__isset_values = TRUE;
    out->dbName = g_strdup(t->db);
    out->__isset_dbName = TRUE;
    out->tableName = g_strdup(t->name);
    out->__isset_tableName = TRUE;
    out->createTime = (gint32)p->create_time;
    out->__isset_createTime = TRUE;
    out->__isset_lastAccessTime = TRUE;
    hms_fill_sd(out->sd, t);
    replace_str(&out->sd->location, &out->sd->__isset_location, p->location);
    replace_str(&out->sd->inputFormat, &out->sd->__isset_inputFormat,
                p->input_format);
    replace_str(&out->sd->outputFormat, &out->sd->__isset_outputFormat,
                p->output_format);
    replace_str(&out->sd->serdeInfo->serializationLib,
                &out->sd->serdeInfo->__isset_serializationLib, p->serde);
    out->__isset_sd = TRUE;
    for (int i = 0; i < p->n_params; i++)
        hms_param_set(out->parameters, p->params[i].key, p->params[i].value);
    out->__isset_parameters = TRUE;
    out->catName = g_strdup(HMS_CATALOG);
    out->__isset_catName = TRUE;
}

static HmsPartition *partition_new(const MsTable *t, const MsPartition *p)
{
    HmsPartition *out = g_object_new(HMS_TYPE_PARTITION, NULL);
    fill_partition(out, t, p);
    return out;
}

/* Java's List.toString of a GPtrArray of strings: "[a, b]". */
static void list_shown(GString *b, const GPtrArray *l)
{
    g_string_append_c(b, '[');
    for (guint i = 0; l && i < l->len; i++)
        g_string_append_printf(b, "%s%s", i ? ", " : "",
                               (const char *)g_ptr_array_index(l, i));
    g_string_append_c(b, ']');
}

/* ------------------------------------------------- get_partition_names_ps */

/* part_vals as a spec on t's leading keys; "" matches any value.  More
 * values than keys: Hive's MetaException text. */
static int spec_from_values(const MsTable *t, const GPtrArray *vals,
                            CombArena *a, MsProperty **spec, int *n,
                            CombErr *err)
{
    int given = vals ? (int)vals->len : 0;
    if (given > t->n_part_keys)
        return comb_err(err, COMB_EINVALID, "Incorrect number of partition "
                        "values. numPartKeys=%d, part_val=%d", t->n_part_keys,
                        given);
    *spec = comb_arena_calloc(a, (size_t)(given + 1) * sizeof **spec);
    if (!*spec)
        return comb_err_nomem(err);
    *n = 0;
    for (int i = 0; i < given; i++) {
        const char *v = g_ptr_array_index(vals, i);
        if (!v || !*v)
            continue;
        (*spec)[*n].key = t->part_keys[i].name;
        (*spec)[(*n)++].value = (char *)v;
    }
    return COMB_OK;
}

/* The connection's handle and the table db.tbl a listing call names,
 * read into a (initialized here). */
static int call_table(HmsThriftHiveMetastoreIf *iface, const char *db,
                      const char *tbl, CombArena *a, Ms **ms, MsTable **t,
                      CombErr *err)
{
    comb_arena_init(a, 0);
    *ms = hms_handler_ms(iface, err);
    return *ms ? part_table(*ms, db, tbl, a, t, err) : COMB_EMETASTORE;
}

/* The end of a listing call: NoSuchObjectException for the table, else
 * MetaException. */
static gboolean list_answer(int rc, const CombErr *err, CombArena *a,
                            HmsMetaException **o1,
                            HmsNoSuchObjectException **o2)
{
    if (rc == COMB_ENOTFOUND)
        *o2 = hms_exception(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION, "%s", err->msg);
    else if (rc)
        *o1 = hms_meta_exception(err);
    comb_arena_free(a);
    return rc == COMB_OK;
}

static gboolean get_partition_names_ps(HmsThriftHiveMetastoreIf *iface,
                                       GPtrArray **ret, const gchar *db,
                                       const gchar *tbl, const GPtrArray *vals,
                                       const gint16 max_parts,
                                       HmsMetaException **o1,
                                       HmsNoSuchObjectException **o2,
                                       GError **error)
{
    CombErr err;
    CombArena a;
    Ms *ms;
    MsTable *t;
    MsProperty *spec;
    MsPartition *parts;
    int n_spec = 0, n = 0;
    int rc = call_table(iface, db, tbl, &a, &ms, &t, &err);
    (void)error;
    if (!rc)
        rc = spec_from_values(t, vals, &a, &spec, &n_spec, &err);
    if (!rc)
        rc = ms_part_list(ms, t->db, t->name, spec, n_spec, &a, &parts, &n,
                          &err);
    /* max_parts < 0: all of them, as Hive */
    for (int i = 0; !rc && i < n && (max_parts < 0 || i < max_parts); i++)
        g_ptr_array_add(*ret, g_strdup(parts[i].name));
    return list_answer(rc, &err, &a, o1, o2);
}

/* ------------------------------------------------ get_partitions_by_names */

/* Names that are no partition are left out, as Hive does. */
static gboolean get_partitions_by_names(HmsThriftHiveMetastoreIf *iface,
                                        GPtrArray **ret, const gchar *db,
                                        const gchar *tbl, const GPtrArray *names,
                                        HmsMetaException **o1,
                                        HmsNoSuchObjectException **o2,
                                        GError **error)
{
    CombErr err;
    CombArena a;
    Ms *ms;
    MsTable *t;
    int rc = call_table(iface, db, tbl, &a, &ms, &t, &err);
    (void)error;
    for (guint i = 0; !rc && names && i < names->len; i++) {
        MsPartition *p;
        const char *name = g_ptr_array_index(names, i);
        rc = ms_part_get(ms, t->db, t->name, name ? name : "", &a, &p, &err);
        if (rc == COMB_ENOTFOUND || rc == COMB_EINVALID) {
            rc = COMB_OK;
            continue;
        }
        if (!rc)
            g_ptr_array_add(*ret, partition_new(t, p));
    }
    return list_answer(rc, &err, &a, o1, o2);
}

/* --------------------------------------------------------- adding them */

/* Hive's makePartName refusal of a count mismatch. */
static int count_mismatch(const MsTable *t, const GPtrArray *vals,
                          CombErr *err)
{
    GString *b = g_string_new("Invalid partition key & values; keys [");
    for (int i = 0; i < t->n_part_keys; i++)
        g_string_append_printf(b, "%s, ", t->part_keys[i].name);
    g_string_append(b, "], values [");
    for (guint i = 0; vals && i < vals->len; i++)
        g_string_append_printf(b, "%s, ",
                               (const char *)g_ptr_array_index(vals, i));
    g_string_append_c(b, ']');
    comb_err(err, COMB_EINVALID, "%s", b->str);
    g_string_free(b, TRUE);
    return COMB_EINVALID;
}

/* vals (one per key of t) as the metastore's values and name. */
static int values_name(const MsTable *t, const GPtrArray *vals, CombArena *a,
                       char ***values, char **name, CombErr *err)
{
    if (t->n_part_keys == 0)
        return comb_err(err, COMB_EINVALID, "Partition spec for non "
                        "partitioned table %s.%s.", t->db, t->name);
    if (!vals || (int)vals->len != t->n_part_keys)
        return count_mismatch(t, vals, err);
    *values = comb_arena_calloc(a, vals->len * sizeof **values);
    if (!*values)
        return comb_err_nomem(err);
    for (guint i = 0; i < vals->len; i++) {
        const char *v = g_ptr_array_index(vals, i);
        (*values)[i] = v && *v ? comb_arena_strdup(a, v)
                               : (char *)MS_DEFAULT_PARTITION_NAME;
        if (!(*values)[i])
            return comb_err_nomem(err);
    }
    return ms_part_name_make(t, *values, a, name, err);
}

static int params_from(GHashTable *h, CombArena *a, MsProperty **out, int *n,
                       CombErr *err)
{
    GHashTableIter it;
    gpointer k, v;
    *n = 0;
    *out = comb_arena_calloc(a, (h ? g_hash_table_size(h) : 0) * sizeof **out
                                + sizeof **out);
    if (!*out)
        return comb_err_nomem(err);
    if (!h)
        return COMB_OK;
    g_hash_table_iter_init(&it, h);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        (*out)[*n].key = comb_arena_strdup(a, k);
        (*out)[*n].value = comb_arena_strdup(a, v ? v : "");
        if (!(*out)[(*n)++].key)
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* A text of a generated struct that the client set and did not leave
 * empty, else NULL. */
static const char *given(const char *s)
{
    return s && *s ? s : NULL;
}

/* in, a partition of t, as the metastore's: its values and name, the
 * location it asks for (else <table location>/<name>), formats and serde
 * when given, parameters. */
static int part_from(const MsTable *t, const HmsPartition *in, CombArena *a,
                     MsPartition *out, CombErr *err)
{
    const HmsStorageDescriptor *sd = in->sd;
    int rc;
    memset(out, 0, sizeof *out);
    if (!in->dbName || !in->tableName)
        return comb_err(err, COMB_EINVALID, "The database and table name "
                        "must be set in the partition.");
    if (strcasecmp(in->dbName, t->db) || strcasecmp(in->tableName, t->name))
        return comb_err(err, COMB_EINVALID, "Partition does not belong to "
                        "target table %s.%s.%s. It belongs to the table "
                        "%s.%s", HMS_CATALOG, t->db, t->name, in->dbName,
                        in->tableName);
    if (!in->values || in->values->len == 0)
        return comb_err(err, COMB_EINVALID, "The partition values cannot be "
                        "null or empty.");
    if ((rc = values_name(t, in->values, a, &out->values, &out->name, err)))
        return rc;
    out->n_values = t->n_part_keys;
    if (sd && given(sd->location))
        out->location = comb_arena_strdup(a, hms_local_path(sd->location));
    else
        out->location = fs_join(a, t->location, out->name);
    if (!out->location)
        return comb_err_nomem(err);
    if (sd) {
        out->input_format = (char *)given(sd->inputFormat);
        out->output_format = (char *)given(sd->outputFormat);
        out->serde = sd->serdeInfo ? (char *)given(sd->serdeInfo->serializationLib)
                                   : NULL;
    }
    out->create_time = in->createTime > 0 ? in->createTime : 0;
    return params_from(in->parameters, a, &out->params, &out->n_params, err);
}

/* Add those of parts[0..n) that are not in the catalog yet, each
 * directory made first (durable before the catalog names it, as ALTER
 * TABLE ADD PARTITION does, and removed again when the add fails); an
 * existing one is skipped when if_not_exists, else COMB_EEXISTS with
 * Hive's text.  added[i] (may be NULL) says which were new. */
static int add_new(Ms *ms, const MsTable *t, MsPartition *parts, int n,
                   bool if_not_exists, bool *added, CombArena *a, CombErr *err)
{
    MsPartition *fresh = comb_arena_calloc(a, (size_t)(n + 1) * sizeof *fresh);
    int *from = comb_arena_calloc(a, (size_t)(n + 1) * sizeof *from);
    int *made = comb_arena_calloc(a, (size_t)(n + 1) * sizeof *made);
    bool *got = comb_arena_calloc(a, (size_t)(n + 1) * sizeof *got);
    int k = 0, dirs = 0, rc = fresh && from && made && got ? COMB_OK
                                                           : comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++) {
        MsPartition *old;
        if (added)
            added[i] = false;
        rc = ms_part_get(ms, t->db, t->name, parts[i].name, a, &old, err);
        if (rc == COMB_ENOTFOUND) {
            comb_err_clear(err);
            from[k] = i;
            fresh[k++] = parts[i];
            rc = COMB_OK;
        } else if (!rc && !if_not_exists) {
            rc = comb_err(err, COMB_EEXISTS, "Partition already exists: "
                          "%s.%s/%s", t->db, t->name, parts[i].name);
        }
    }
    for (; !rc && dirs < k; dirs++)
        rc = fs_mkdirs_n(fresh[dirs].location, &made[dirs], err);
    if (!rc && k)
        rc = ms_part_add(ms, t->db, t->name, fresh, k, if_not_exists, got, err);
    if (rc)
        while (dirs-- > 0)
            fs_rmdirs_empty(fresh[dirs].location, made[dirs]);
    for (int j = 0; !rc && added && j < k; j++)
        added[from[j]] = got[j];
    return rc;
}

/* The exceptions of add_partitions and add_partitions_req. */
static void add_exception(const CombErr *err, HmsInvalidObjectException **o1,
                          HmsAlreadyExistsException **o2,
                          HmsMetaException **o3)
{
    if (err->code == COMB_ENOTFOUND)
        *o1 = hms_exception(HMS_TYPE_INVALID_OBJECT_EXCEPTION, "%s", err->msg);
    else if (err->code == COMB_EEXISTS)
        *o2 = hms_exception(HMS_TYPE_ALREADY_EXISTS_EXCEPTION, "%s", err->msg);
    else
        *o3 = hms_meta_exception(err);
}

/* Hive's add_partitions_core: in (Partition objects) to db.tbl; the new
 * ones into result when it is given. */
static int add_core(Ms *ms, const char *db, const char *tbl,
                    const GPtrArray *in, bool if_not_exists, GPtrArray *result,
                    int *n_added, CombErr *err)
{
    CombArena a;
    MsTable *t;
    int n = in ? (int)in->len : 0, rc;
    comb_arena_init(&a, 0);
    rc = ms_table_get(ms, db ? db : "", tbl ? tbl : "", &a, &t, err);
    if (rc == COMB_ENOTFOUND)
        comb_err(err, COMB_ENOTFOUND, "Unable to add partitions because "
                 "%s.%s.%s does not exist", HMS_CATALOG, db ? db : "",
                 tbl ? tbl : "");
    MsPartition *parts = comb_arena_calloc(&a, (size_t)(n + 1) * sizeof *parts);
    bool *added = comb_arena_calloc(&a, (size_t)(n + 1) * sizeof *added);
    if (!rc && (!parts || !added))
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++)
        rc = part_from(t, g_ptr_array_index(in, i), &a, &parts[i], err);
    if (!rc)
        rc = add_new(ms, t, parts, n, if_not_exists, added, &a, err);
    *n_added = 0;
    for (int i = 0; !rc && i < n; i++) {
        MsPartition *p;
        if (!added[i])
            continue;
        (*n_added)++;
        if (result && !ms_part_get(ms, t->db, t->name, parts[i].name, &a, &p,
                                   err))
            g_ptr_array_add(result, partition_new(t, p));
    }
    comb_arena_free(&a);
    return rc;
}

/* The old call (Trino's): every partition new, all of one table. */
static gboolean add_partitions(HmsThriftHiveMetastoreIf *iface, gint32 *ret,
                               const GPtrArray *parts,
                               HmsInvalidObjectException **o1,
                               HmsAlreadyExistsException **o2,
                               HmsMetaException **o3, GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    const HmsPartition *first = parts && parts->len ? g_ptr_array_index(parts, 0)
                                                    : NULL;
    int n = 0, rc = ms ? COMB_OK : COMB_EMETASTORE;
    (void)error;
    if (!rc && first)
        rc = add_core(ms, first->dbName, first->tableName, parts, false, NULL,
                      &n, &err);
    if (rc) {
        add_exception(&err, o1, o2, o3);
        return FALSE;
    }
    *ret = n;
    return TRUE;
}

static gboolean add_partitions_req(HmsThriftHiveMetastoreIf *iface,
                                   HmsAddPartitionsResult **ret,
                                   const HmsAddPartitionsRequest *rq,
                                   HmsInvalidObjectException **o1,
                                   HmsAlreadyExistsException **o2,
                                   HmsMetaException **o3, GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    bool need = !rq->__isset_needResult || rq->needResult;
    int n, rc = ms ? COMB_OK : COMB_EMETASTORE;
    (void)error;
    /* none to add: Hive answers at once, whatever the table */
    if (!rq->parts || rq->parts->len == 0)
        return TRUE;
    if (!rc)
        rc = add_core(ms, rq->dbName, rq->tblName, rq->parts, rq->ifNotExists,
                      need ? (*ret)->partitions : NULL, &n, &err);
    if (rc) {
        add_exception(&err, o1, o2, o3);
        return FALSE;
    }
    (*ret)->__isset_partitions = need;
    return TRUE;
}

int hms_part_ensure(Ms *ms, const char *db, const char *table, char **names,
                    int n, CombArena *a, CombErr *err)
{
    MsTable *t;
    MsPartition *parts = comb_arena_calloc(a, (size_t)(n + 1) * sizeof *parts);
    int k = 0, rc = parts ? part_table(ms, db, table, a, &t, err)
                          : comb_err_nomem(err);
    /* (the txn's table-level write must not be dropped for none) */
    if (!rc && t->n_part_keys == 0)
        rc = comb_err(err, COMB_EINVALID, "Table %s.%s is not partitioned: "
                      "add_dynamic_partitions names partitions of a "
                      "partitioned table", t->db, t->name);
    for (int i = 0; !rc && i < n; i++) {
        char **values;
        bool dup = false;
        rc = ms_part_name_parse(t, names[i], a, &values, err);
        if (!rc)
            rc = ms_part_name_make(t, values, a, &names[i], err);
        for (int j = 0; !rc && j < k; j++)
            dup = dup || !strcmp(parts[j].name, names[i]);
        if (rc || dup)
            continue;
        parts[k].name = names[i];
        parts[k].n_values = t->n_part_keys;
        parts[k].values = values;
        if (!(parts[k++].location = fs_join(a, t->location, names[i])))
            rc = comb_err_nomem(err);
    }
    return rc ? rc : add_new(ms, t, parts, k, true, NULL, a, err);
}

/* ------------------------------------------------- alter_partitions_req */

/* Hive's text for an alter of what is not there: its handler wraps the
 * store's exception. */
static int alter_missing(const GPtrArray *vals, CombErr *err)
{
    GString *b = g_string_new(NULL);
    list_shown(b, vals);
    comb_err(err, COMB_ENOTFOUND, "Alter partition operation failed: "
             "NoSuchObjectException(message:partition values=%s)", b->str);
    g_string_free(b, TRUE);
    return COMB_ENOTFOUND;
}

/* The parameters an alter stores: the client's whole map, as Hive's
 * alter_partition, with the time of the change when it gives none. */
static int alter_params(const MsPartition *want, CombArena *a,
                        MsProperty **out, int *n, CombErr *err)
{
    int k = 0;
    bool dated = false;
    *out = comb_arena_calloc(a, (size_t)(want->n_params + 1) * sizeof **out);
    if (!*out)
        return comb_err_nomem(err);
    for (int i = 0; i < want->n_params; i++) {
        const MsProperty *q = &want->params[i];
        if (!strcmp(q->key, MS_DDL_TIME))
            dated = strcmp(q->value, "0") != 0 && *q->value;
        if (strcmp(q->key, MS_DDL_TIME) || dated)
            (*out)[k++] = *q;
    }
    if (!dated) {
        (*out)[k].key = (char *)MS_DDL_TIME;
        (*out)[k].value = comb_arena_printf(a, "%lld", (long long)time(NULL));
        if (!(*out)[k++].value)
            return comb_err_nomem(err);
    }
    *n = k;
    return COMB_OK;
}

/* Change p (an existing partition) to what `in` asks: its location when
 * it gives another one, its parameters when it sends them. */
static int alter_one(Ms *ms, const MsTable *t, const MsPartition *p,
                     const HmsPartition *in, const MsPartition *want,
                     CombArena *a, CombErr *err)
{
    const char *loc = in->sd && given(in->sd->location) ? want->location : NULL;
    MsProperty *params = NULL;
    int n = 0, rc = COMB_OK;
    if (loc && p->location && strcmp(loc, p->location) != 0)
        rc = ms_part_set_location(ms, t->db, t->name, p->name, loc, err);
    if (!rc && in->__isset_parameters &&
        !(rc = alter_params(want, a, &params, &n, err)))
        rc = ms_part_set_params(ms, t->db, t->name, p->name, params, n, err);
    return rc;
}

static gboolean alter_partitions_req(HmsThriftHiveMetastoreIf *iface,
                                     HmsAlterPartitionsResponse **ret,
                                     const HmsAlterPartitionsRequest *rq,
                                     HmsInvalidOperationException **o1,
                                     HmsMetaException **o2, GError **error)
{
    CombErr err;
    CombArena a;
    MsTable *t;
    Ms *ms = hms_handler_ms(iface, &err);
    guint n = rq->partitions ? rq->partitions->len : 0;
    MsPartition *want = NULL, **old = NULL;
    int rc = ms ? COMB_OK : COMB_EMETASTORE;
    (void)ret;
    (void)error;
    comb_arena_init(&a, 0);
    if (!rc && (rc = ms_table_get(ms, rq->dbName ? rq->dbName : "",
                                  rq->tableName ? rq->tableName : "", &a, &t,
                                  &err)) == COMB_ENOTFOUND)
        comb_err(&err, COMB_ENOTFOUND, "Alter partition operation failed: "
                 "InvalidObjectException(message:Unable to alter partitions "
                 "because table or database does not exist.)");
    if (!rc) {
        want = comb_arena_calloc(&a, (n + 1) * sizeof *want);
        old = comb_arena_calloc(&a, (n + 1) * sizeof *old);
        rc = want && old ? COMB_OK : comb_err_nomem(&err);
    }
    /* every one is checked before any changes */
    for (guint i = 0; !rc && i < n; i++) {
        const HmsPartition *in = g_ptr_array_index(rq->partitions, i);
        rc = part_from(t, in, &a, &want[i], &err);
        if (!rc)
            rc = ms_part_get(ms, t->db, t->name, want[i].name, &a, &old[i],
                             &err);
        if (rc == COMB_ENOTFOUND)
            rc = alter_missing(in->values, &err);
    }
    for (guint i = 0; !rc && i < n; i++)
        rc = alter_one(ms, t, old[i], g_ptr_array_index(rq->partitions, i),
                       &want[i], &a, &err);
    if (rc == COMB_ENOTFOUND || rc == COMB_EINVALID)
        *o1 = hms_exception(HMS_TYPE_INVALID_OPERATION_EXCEPTION, "%s", err.msg);
    else if (rc)
        *o2 = hms_meta_exception(&err);
    comb_arena_free(&a);
    return rc == COMB_OK;
}

void hms_part_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->get_partition_names_ps = get_partition_names_ps;
    c->get_partitions_by_names = get_partitions_by_names;
    c->add_partitions = add_partitions;
    c->add_partitions_req = add_partitions_req;
    c->alter_partitions_req = alter_partitions_req;
}
