/*
 * ms.c - the backend-independent face of the metastore: every ms_* call
 * checks its arguments, lower-cases names the way Hive stores them, and
 * dispatches to the handle's MsBackendOps.  Also the shared pieces every
 * backend uses (ms_int.h): Hive's error texts, state letters and default
 * locations.  No SQL here; that belongs to the backends.
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/types.h"
#include "fs/fs.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <strings.h>

/* ---------------------------------------------------------- properties */

const char *ms_table_prop(const MsTable *t, const char *key)
{
    if (!t || !key)
        return NULL;
    for (int i = 0; i < t->n_props; i++)
        if (t->props[i].key && strcmp(t->props[i].key, key) == 0)
            return t->props[i].value;
    return NULL;
}

bool ms_table_is_transactional(const MsTable *t)
{
    /* Hive accepts the key in lower or upper case, the value in any case. */
    const char *v = ms_table_prop(t, "transactional");
    if (!v)
        v = ms_table_prop(t, "TRANSACTIONAL");
    return v && strcasecmp(v, "true") == 0;
}

/* --------------------------------------------------------- error texts */

int ms_err_no_db(CombErr *err, const char *db)
{
    return comb_err(err, COMB_ENOTFOUND, "Database does not exist: %s", db);
}

int ms_err_no_compaction(CombErr *err, int64_t id)
{
    return comb_err(err, COMB_ENOTFOUND,
                    "No such compaction in the queue: %lld, or not in the "
                    "state this step needs (aborted, or timed out and "
                    "claimed by another worker)", (long long)id);
}

int ms_err_no_table(CombErr *err, const char *db, const char *table)
{
    return comb_err(err, COMB_ENOTFOUND, "Table not found '%s.%s'", db,
                    table);
}

int ms_err_db_exists(CombErr *err, const char *db)
{
    return comb_err(err, COMB_EEXISTS, "Database %s already exists", db);
}

int ms_err_table_exists(CombErr *err, const char *db, const char *table)
{
    return comb_err(err, COMB_EEXISTS, "Table already exists: %s.%s", db,
                    table);
}

int ms_err_db_not_empty(CombErr *err, const char *db)
{
    return comb_err(err, COMB_EINVALID,
                    "Database %s is not empty. One or more tables exist.",
                    db);
}

int ms_err_no_part(CombErr *err, const char *db, const char *table,
                   const char *name)
{
    return comb_err(err, COMB_ENOTFOUND, "Partition not found '%s.%s/%s'", db,
                    table, name);
}

int ms_err_part_exists(CombErr *err, const char *db, const char *table,
                       const char *name)
{
    return comb_err(err, COMB_EEXISTS, "Partition already exists: %s.%s/%s",
                    db, table, name);
}

int ms_err_txn_not_open(CombErr *err, int64_t txnid, bool found, int state,
                        const char *reason)
{
    long long t = (long long)txnid;
    if (!found)
        return comb_err(err, COMB_ETXN, "No such transaction txnid:%lld", t);
    if (state == MS_TXN_ABORTED && reason && *reason)
        return comb_err(err, COMB_ETXN,
                        "Transaction txnid:%lld already aborted (%s)", t,
                        reason);
    if (state == MS_TXN_ABORTED)
        return comb_err(err, COMB_ETXN,
                        "Transaction txnid:%lld already aborted", t);
    if (state == MS_TXN_COMMITTED)
        return comb_err(err, COMB_ETXN,
                        "Transaction txnid:%lld is already committed.", t);
    return COMB_INTERNAL(err, "txn reported not open while open");
}

int ms_err_deadlock_victim(CombErr *err, int64_t txnid, const char *cycle)
{
    return comb_err_hive(err, COMB_ETXN, 10263,
                         "[Error 10263]: Transaction manager has aborted the "
                         "transaction txnid:%lld.  Reason: Aborting "
                         "[txnid:%lld] to break a %s",
                         (long long)txnid, (long long)txnid, cycle);
}

int ms_err_writeid_refused(CombErr *err, const char *db, const char *table)
{
    return comb_err(err, COMB_ETXN,
                    "Write ID allocation failed on %s.%s as not all input "
                    "txns in open state or read-only",
                    db, table);
}

int ms_err_unwritable(CombErr *err, const char *where, bool full)
{
    if (full)
        return comb_err(err, COMB_EFULL,
                        "cannot write to the metastore '%s': the disk is "
                        "full; free some space and run the statement again",
                        where);
    return comb_err(err, COMB_EREADONLY,
                    "cannot write to the metastore '%s': it is read-only; "
                    "check the permissions of the file and its directory "
                    "and how the file system is mounted",
                    where);
}

int ms_err_unwritable_server(CombErr *err, const char *where, bool full)
{
    if (full)
        return comb_err(err, COMB_EFULL,
                        "cannot write to the metastore '%s': the disk is "
                        "full; free some space on the database server and "
                        "run the statement again",
                        where);
    return comb_err(err, COMB_EREADONLY,
                    "cannot write to the metastore '%s': it is read-only; "
                    "the database server refuses writes (a standby, "
                    "default_transaction_read_only, or a user without "
                    "write privileges)",
                    where);
}

int ms_err_write_conflict(CombErr *err, int64_t txnid, int64_t commit_id,
                          char *const *row)
{
    return comb_err_hive(
        err, COMB_ETXN, 10263,
        "[Error 10263]: Transaction manager has aborted the transaction "
        "txnid:%lld.  Reason: Aborting [txnid:%lld,%lld] due to a write "
        "conflict on %s/%s%s%s committed by [txnid:%s,%s] %s/%s",
        (long long)txnid, (long long)txnid, (long long)commit_id, row[2],
        row[3], row[4] ? "/" : "", row[4] ? row[4] : "", row[0], row[1],
        row[5], row[6]);
}

bool ms_txn_state_parse(int letter, MsTxnState *out)
{
    switch (letter) {
    case MS_TXN_OPEN:
    case MS_TXN_ABORTED:
    case MS_TXN_COMMITTED:
        *out = (MsTxnState)letter;
        return true;
    default:
        return false;
    }
}

/* --------------------------------------------------- default locations */

static char *path_printf(const char *a, const char *b, const char *suffix)
{
    size_t n = strlen(a) + strlen(b) + strlen(suffix) + 2;
    char *p = comb_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", a, b, suffix);
    return p;
}

char *ms_db_default_location(const char *warehouse, const char *db)
{
    /* Hive: the default database is the warehouse root, others <db>.db. */
    if (strcmp(db, MS_DEFAULT_DB) == 0)
        return comb_strdup(warehouse);
    return path_printf(warehouse, db, ".db");
}

char *ms_table_default_location(const char *db_location, const char *table)
{
    return path_printf(db_location, table, "");
}

/* ----------------------------------------------------------- names */

/* A lower-cased db or table name in caller storage: lookups need no
 * allocation. */
typedef struct MsName {
    char s[MS_NAME_MAX + 1];
} MsName;

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool name_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Lower-case a name.  Too long is refused rather than truncated, so that
 * a lookup can never hit a different object. */
static int name_lower(MsName *out, const char *in, const char *what,
                      CombErr *err)
{
    size_t n;
    if (!in || !*in)
        return comb_err(err, COMB_EINVALID, "%s name is empty", what);
    n = strlen(in);
    if (n > MS_NAME_MAX)
        return comb_err(err, COMB_EINVALID,
                        "%s name is longer than %d characters: '%.40s...'",
                        what, MS_NAME_MAX, in);
    for (size_t i = 0; i < n; i++)
        out->s[i] = ascii_lower(in[i]);
    out->s[n] = '\0';
    return COMB_OK;
}

/* Characters Hive 4 also allows in table names
 * (hive.support.special.characters.tablename, on by default). */
static bool table_special_char_ok(char c)
{
    return c != '\0' && strchr(" \"%&'()*+,-./:;<=>?[]|{}$^!~#@`", c) != NULL;
}

/* Names of new objects follow Hive's rule: letters, digits, underscore;
 * tables also the special characters above (their directories are named
 * by ms_table_dir_name, so none of them reaches a path). */
static int name_check_new(const char *name, const char *kind, bool table,
                          CombErr *err)
{
    for (const char *p = name; *p; p++)
        if (!name_char_ok(*p) && !(table && table_special_char_ok(*p)))
            return comb_err(err, COMB_EINVALID, "%s is not a valid %s", name,
                            kind);
    return COMB_OK;
}

char *ms_table_dir_name(const char *name, CombArena *a)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    for (const char *p = name; *p; p++) {
        if (name_char_ok(*p))
            comb_buf_append_byte(&b, (uint8_t)*p);
        else
            comb_buf_printf(&b, "-%d-", (unsigned char)*p);
    }
    out = comb_arena_strndup(a, b.data ? (const char *)b.data : "", b.len);
    comb_buf_free(&b);
    return out;
}

static char *arena_lower(CombArena *a, const char *s)
{
    char *copy = comb_arena_strdup(a, s);
    if (copy)
        for (char *p = copy; *p; p++)
            *p = ascii_lower(*p);
    return copy;
}

/* ------------------------------------------------- argument checks */

static int check_handle(const Ms *ms, CombErr *err)
{
    comb_err_clear(err);
    if (!ms || !ms->ops || !ms->impl)
        return comb_err(err, COMB_EINVALID, "metastore handle is NULL");
    return COMB_OK;
}

static int check_out(const void *p, const char *what, CombErr *err)
{
    if (!p)
        return comb_err(err, COMB_EINVALID, "metastore call without %s",
                        what);
    return COMB_OK;
}

/* What every lookup into a caller's arena needs: an open handle, the
 * arena, and somewhere to put the result. */
static int check_lookup(Ms *ms, CombArena *a, const void *out, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(a, "arena", err);
    if (!rc)
        rc = check_out(out, "result pointer", err);
    return rc;
}

/* A listing is a lookup that also reports how many names it found. */
static int check_listing(Ms *ms, CombArena *a, char ***names, int *n,
                         CombErr *err)
{
    int rc = check_lookup(ms, a, names, err);
    if (!rc)
        rc = check_out(n, "result count", err);
    return rc;
}

/* Both names of a table lookup, lower-cased. */
static int table_names(const char *db, const char *name, MsName *ldb,
                       MsName *lname, CombErr *err)
{
    int rc = name_lower(ldb, db, "database", err);
    if (!rc)
        rc = name_lower(lname, name, "table", err);
    return rc;
}

static int check_txnid(int64_t txnid, CombErr *err)
{
    if (txnid <= 0)
        return comb_err(err, COMB_EINVALID, "invalid txnid:%lld",
                        (long long)txnid);
    return COMB_OK;
}

/* A txn's write to a table names both: a valid txnid and the table's
 * lower-cased names. */
static int txn_table_args(int64_t txnid, const char *db, const char *table,
                          MsName *ldb, MsName *ltable, CombErr *err)
{
    int rc = check_txnid(txnid, err);
    if (!rc)
        rc = table_names(db, table, ldb, ltable, err);
    return rc;
}

/* Calls that fill a caller's id list clear it before anything else can
 * fail, so that the caller may always free it. */
static int check_clear_list(Ms *ms, void *out, size_t size, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(out, "result list", err);
    if (!rc)
        memset(out, 0, size);
    return rc;
}

/* --------------------------------------------- table normalisation */

static int check_count(int n, const void *arr, const char *what,
                       CombErr *err)
{
    if (n < 0 || (n > 0 && !arr))
        return comb_err(err, COMB_EINVALID, "table has %d %s but no array",
                        n, what);
    return COMB_OK;
}

static bool column_in(const MsColumn *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(cols[i].name, name) == 0)
            return true;
    return false;
}

static bool has_column(const MsTable *t, const char *name)
{
    return column_in(t->cols, t->n_cols, name);
}

/* A column type the catalog keeps must read back: every reader parses it
 * (a struct field name such as 'a:b' would make the table unusable). */
static int type_check(const char *column, const char *type, CombArena *a,
                      CombErr *err)
{
    CombType *t;
    CombErr why = {0};
    if (!comb_type_parse(a, type, strlen(type), &t, &why))
        return COMB_OK;
    if (why.code == COMB_ENOMEM)
        return comb_err_nomem(err);
    return comb_err(err, COMB_EINVALID, "column %s: %s", column, why.msg);
}

/* Lower-cased copies of n columns into *out; `what` names them in
 * errors. */
static int columns_copy(const MsColumn *in, int n, const char *what,
                        const char *table, CombArena *a, MsColumn **out,
                        CombErr *err)
{
    MsColumn *cols;
    int rc;
    if (n == 0)
        return COMB_OK;
    if (!(cols = comb_arena_alloc(a, (size_t)n * sizeof *cols)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        if (!in[i].name || !*in[i].name || !in[i].type || !*in[i].type)
            return comb_err(err, COMB_EINVALID,
                            "%s %d of %s has no name or type", what, i + 1,
                            table);
        cols[i].name = arena_lower(a, in[i].name);
        cols[i].type = arena_lower(a, in[i].type);
        cols[i].comment = in[i].comment;
        /* a DEFAULT constraint has both its value and name; partition
         * keys have none */
        cols[i].default_value = in[i].default_value;
        cols[i].default_name = in[i].default_name;
        if (!in[i].default_value != !in[i].default_name ||
            (in[i].default_value && strcmp(what, "column") != 0))
            return comb_err(err, COMB_EINVALID,
                            "%s %s of %s: a DEFAULT constraint needs a value "
                            "and a name, and only data columns have one",
                            what, in[i].name, table);
        if (!cols[i].name || !cols[i].type)
            return comb_err_nomem(err);
        if ((rc = type_check(cols[i].name, cols[i].type, a, err)))
            return rc;
        if (column_in(cols, i, cols[i].name))
            return comb_err(err, COMB_EINVALID, "Duplicate column name: %s",
                            cols[i].name);
    }
    *out = cols;
    return COMB_OK;
}

/* Data columns, then partition keys: names unique within each list, and a
 * partition key is never also a data column (Hive's error 10035). */
static int cols_normalize(const MsTable *in, CombArena *a, MsTable *out,
                          CombErr *err)
{
    int rc = columns_copy(in->cols, in->n_cols, "column", out->name, a,
                          &out->cols, err);
    if (!rc)
        rc = columns_copy(in->part_keys, in->n_part_keys, "partition column",
                          out->name, a, &out->part_keys, err);
    for (int i = 0; !rc && i < out->n_part_keys; i++)
        if (has_column(out, out->part_keys[i].name))
            rc = comb_err(err, COMB_EINVALID,
                          "Column repeated in partitioning columns");
    return rc;
}

static int buckets_normalize(const MsTable *in, CombArena *a, MsTable *out,
                             CombErr *err)
{
    /* A zeroed MsTable means "not bucketed"; store Hive's -1. */
    if (out->n_buckets <= 0)
        out->n_buckets = -1;
    if (in->n_bucket_cols == 0)
        return COMB_OK;
    if (out->n_buckets < 0)
        return comb_err(err, COMB_EINVALID,
                        "table %s has bucket columns but no bucket count",
                        out->name);
    out->bucket_cols =
        comb_arena_alloc(a, (size_t)in->n_bucket_cols * sizeof(char *));
    if (!out->bucket_cols)
        return comb_err_nomem(err);
    for (int i = 0; i < in->n_bucket_cols; i++) {
        if (!in->bucket_cols[i])
            return comb_err(err, COMB_EINVALID, "bucket column %d is NULL",
                            i + 1);
        out->bucket_cols[i] = arena_lower(a, in->bucket_cols[i]);
        if (!out->bucket_cols[i])
            return comb_err_nomem(err);
        if (!has_column(out, out->bucket_cols[i]))
            return comb_err(err, COMB_EINVALID,
                            "bucket column %s is not a column of %s",
                            out->bucket_cols[i], out->name);
    }
    return COMB_OK;
}

static int sorts_normalize(const MsTable *in, CombArena *a, MsTable *out,
                           CombErr *err)
{
    if (in->n_sort_cols == 0)
        return COMB_OK;
    out->sort_cols =
        comb_arena_alloc(a, (size_t)in->n_sort_cols * sizeof(MsSortCol));
    if (!out->sort_cols)
        return comb_err_nomem(err);
    for (int i = 0; i < in->n_sort_cols; i++) {
        const MsSortCol *c = &in->sort_cols[i];
        if (!c->name || (c->order != MS_SORT_ASC && c->order != MS_SORT_DESC))
            return comb_err(err, COMB_EINVALID,
                            "sort column %d of %s has no name or order %d",
                            i + 1, out->name, c->order);
        out->sort_cols[i] = (MsSortCol){arena_lower(a, c->name), c->order};
        if (!out->sort_cols[i].name)
            return comb_err_nomem(err);
        if (!has_column(out, out->sort_cols[i].name))
            return comb_err(err, COMB_EINVALID,
                            "sort column %s is not a column of %s",
                            out->sort_cols[i].name, out->name);
    }
    return COMB_OK;
}

/* Every key of a property list (TBLPROPERTIES, SERDEPROPERTIES, partition
 * parameters) is a non-empty string. */
static int props_check(const MsProperty *props, int n, const char *what,
                       const char *owner, CombErr *err)
{
    for (int i = 0; i < n; i++)
        if (!props[i].key || !*props[i].key)
            return comb_err(err, COMB_EINVALID, "%s %d of %s has no key",
                            what, i + 1, owner);
    return COMB_OK;
}

static bool is_view(const MsTable *t)
{
    return strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

/* Hive's table types, and what a view has instead of storage: its query
 * texts, no location, no partitions of its own. */
static int kind_check(const MsTable *t, CombErr *err)
{
    if (!is_view(t) && strcmp(t->table_type, MS_MANAGED_TABLE) != 0 &&
        strcmp(t->table_type, MS_EXTERNAL_TABLE) != 0)
        return comb_err(err, COMB_EINVALID, "invalid table type '%s' of %s",
                        t->table_type, t->name);
    if (!is_view(t))
        return t->view_original_text || t->view_expanded_text
                   ? comb_err(err, COMB_EINVALID,
                              "view text given for %s, which is not a view "
                              "(%s)",
                              t->name, t->table_type)
                   : COMB_OK;
    if (!t->view_original_text)
        return comb_err(err, COMB_EINVALID, "view %s has no query text",
                        t->name);
    if (t->location || t->n_part_keys > 0)
        return comb_err(err, COMB_EINVALID,
                        "view %s cannot have a location or partition "
                        "columns",
                        t->name);
    return COMB_OK;
}

/* Locations are stored absolute (Hive qualifies them): a relative one
 * would mean another directory in every process's working directory.  An
 * object-store location (s3a://bucket/key) is absolute by its nature. */
static int location_check(const char *location, const char *what,
                          const char *name, CombErr *err)
{
    if (!location || location[0] == '/' || fs_is_remote(location))
        return COMB_OK;
    return comb_err(err, COMB_EINVALID,
                    "location '%s' of %s %s is not an absolute path",
                    location, what, name);
}

static int table_counts_check(const MsTable *in, CombErr *err)
{
    int rc = check_count(in->n_cols, in->cols, "columns", err);
    if (!rc)
        rc = check_count(in->n_bucket_cols, in->bucket_cols,
                         "bucket columns", err);
    if (!rc)
        rc = check_count(in->n_props, in->props, "properties", err);
    if (!rc)
        rc = check_count(in->n_part_keys, in->part_keys,
                         "partition columns", err);
    if (!rc)
        rc = check_count(in->n_sort_cols, in->sort_cols, "sort columns", err);
    if (!rc)
        rc = check_count(in->n_serde_params, in->serde_params,
                         "serde parameters", err);
    return rc;
}

/* Copy `in` into `out` (strings in `a`) the way it is stored: lower-case
 * names, valid table name, consistent columns, buckets and sort columns,
 * a known table type. */
static int table_normalize(const MsTable *in, CombArena *a, MsTable *out,
                           CombErr *err)
{
    MsName db, name;
    int rc = table_names(in->db, in->name, &db, &name, err);
    if (!rc)
        rc = name_check_new(name.s, "object name", true, err);
    if (!rc)
        rc = location_check(in->location, "table", name.s, err);
    if (!rc)
        rc = table_counts_check(in, err);
    if (rc)
        return rc;
    *out = *in;
    out->db = comb_arena_strdup(a, db.s);
    out->name = comb_arena_strdup(a, name.s);
    if (!out->table_type)
        out->table_type = MS_MANAGED_TABLE;
    if (!out->db || !out->name)
        return comb_err_nomem(err);
    rc = cols_normalize(in, a, out, err);
    if (!rc)
        rc = buckets_normalize(in, a, out, err);
    if (!rc)
        rc = sorts_normalize(in, a, out, err);
    if (!rc)
        rc = props_check(out->props, out->n_props, "property", out->name,
                         err);
    if (!rc)
        rc = props_check(out->serde_params, out->n_serde_params,
                         "serde parameter", out->name, err);
    if (!rc)
        rc = kind_check(out, err);
    return rc;
}

/* ------------------------------------------------------------ dispatch */

/* Test builds: a writing call that succeeded marks its commit in the fs
 * trace (fs.h), so tests can check that every file and directory the
 * commit refers to was durable before it. */
static int commit_traced(int rc, const char *op, const char *what,
                         int64_t id)
{
    char detail[400];
    if (rc != COMB_OK)
        return rc;
    if (what)
        snprintf(detail, sizeof detail, "%s %s", op, what);
    else
        snprintf(detail, sizeof detail, "%s %lld", op, (long long)id);
    fs_trace_event("ms_commit", detail);
    return rc;
}

bool ms_target_is_pg(const char *target)
{
    return target && (strncmp(target, "postgresql://", 13) == 0 ||
                      strncmp(target, "postgres://", 11) == 0);
}

char *ms_target_display(const char *target)
{
    if (ms_target_is_pg(target))
        return ms_pg_display(target);
    return comb_strdup(target ? target : "");
}

int ms_open(const char *target, const char *warehouse_dir, Ms **out,
            CombErr *err)
{
    if (ms_target_is_pg(target))
        return ms_open_pg(target, warehouse_dir, out, err);
    return ms_open_sqlite(target, warehouse_dir, out, err);
}

void ms_close(Ms *ms)
{
    if (!ms)
        return;
    if (ms->ops && ms->ops->close)
        ms->ops->close(ms->impl);
    comb_free(ms);
}

int ms_db_create(Ms *ms, const MsDatabase *db, bool if_not_exists,
                 CombErr *err)
{
    MsDatabase copy;
    MsName name;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(db, "database", err);
    if (!rc)
        rc = name_lower(&name, db->name, "database", err);
    if (!rc)
        rc = name_check_new(name.s, "database name", false, err);
    if (!rc)
        rc = location_check(db->location, "database", name.s, err);
    if (rc)
        return rc;
    copy = *db;
    copy.name = name.s;
    return commit_traced(ms->ops->db_create(ms->impl, &copy, if_not_exists,
                                            err),
                         "db_create", name.s, 0);
}

int ms_db_drop(Ms *ms, const char *name, bool if_exists, bool cascade,
               CombErr *err)
{
    MsName lname;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = name_lower(&lname, name, "database", err);
    if (rc)
        return rc;
    if (strcmp(lname.s, MS_DEFAULT_DB) == 0)
        return comb_err(err, COMB_EINVALID, "Can not drop default database");
    return commit_traced(ms->ops->db_drop(ms->impl, lname.s, if_exists,
                                          cascade, err),
                         "db_drop", lname.s, 0);
}

int ms_db_get(Ms *ms, const char *name, CombArena *a, MsDatabase **out,
              CombErr *err)
{
    MsName lname;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = name_lower(&lname, name, "database", err);
    if (rc)
        return rc;
    *out = NULL;
    return ms->ops->db_get(ms->impl, lname.s, a, out, err);
}

int ms_db_list(Ms *ms, CombArena *a, char ***names, int *n, CombErr *err)
{
    int rc = check_listing(ms, a, names, n, err);
    if (rc)
        return rc;
    *names = NULL;
    *n = 0;
    return ms->ops->db_list(ms->impl, a, names, n, err);
}

/* Create (alter == false) or alter a table from its normalized copy. */
static int table_store(Ms *ms, const MsTable *t, bool alter,
                       bool if_not_exists, CombErr *err)
{
    CombArena scratch;
    MsTable copy;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(t, "table", err);
    if (rc)
        return rc;
    comb_arena_init(&scratch, 4096);
    rc = table_normalize(t, &scratch, &copy, err);
    if (!rc && alter)
        rc = commit_traced(ms->ops->table_alter(ms->impl, &copy, err),
                           "table_alter", copy.name, 0);
    else if (!rc)
        rc = commit_traced(ms->ops->table_create(ms->impl, &copy,
                                                 if_not_exists, err),
                           "table_create", copy.name, 0);
    comb_arena_free(&scratch);
    return rc;
}

int ms_table_create(Ms *ms, const MsTable *t, bool if_not_exists,
                    CombErr *err)
{
    return table_store(ms, t, false, if_not_exists, err);
}

int ms_table_alter(Ms *ms, const MsTable *t, CombErr *err)
{
    return table_store(ms, t, true, false, err);
}

int ms_table_rename(Ms *ms, const char *db, const char *name,
                    const char *new_db, const char *new_name,
                    const char *new_location, CombErr *err)
{
    MsName ldb, lname, lnew_db, lnew_name;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, name, &ldb, &lname, err);
    if (!rc)
        rc = table_names(new_db, new_name, &lnew_db, &lnew_name, err);
    if (!rc)
        rc = name_check_new(lnew_name.s, "object name", true, err);
    if (!rc)
        rc = location_check(new_location, "table", lnew_name.s, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->table_rename(ms->impl, ldb.s, lname.s,
                                               lnew_db.s, lnew_name.s,
                                               new_location, err),
                         "table_rename", lnew_name.s, 0);
}

/* ------------------------------------------------------------ partitions */

static int check_names(char *const *names, int n, const char *what,
                       CombErr *err)
{
    if (n < 0 || (n > 0 && !names))
        return comb_err(err, COMB_EINVALID, "%d %s but no array", n, what);
    for (int i = 0; i < n; i++)
        if (!names[i] || !*names[i])
            return comb_err(err, COMB_EINVALID, "%s %d is empty", what,
                            i + 1);
    return COMB_OK;
}

/* What ms_part_add can check before it knows the table. */
static int check_new_parts(const MsPartition *parts, int n, CombErr *err)
{
    int rc = check_count(n, parts, "new partitions", err);
    for (int i = 0; !rc && i < n; i++) {
        const MsPartition *p = &parts[i];
        if (p->n_values < 0 || (p->n_values > 0 && !p->values))
            rc = comb_err(err, COMB_EINVALID,
                          "partition %d has %d values but no array", i + 1,
                          p->n_values);
        if (!rc)
            rc = location_check(p->location, "new partition",
                                p->n_values > 0 && p->values[0]
                                    ? p->values[0]
                                    : "",
                                err);
        if (!rc)
            rc = check_count(p->n_params, p->params, "partition parameters",
                             err);
        if (!rc)
            rc = props_check(p->params, p->n_params, "parameter", "partition",
                             err);
    }
    return rc;
}

int ms_part_add(Ms *ms, const char *db, const char *table,
                const MsPartition *parts, int n, bool if_not_exists,
                bool *added, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_new_parts(parts, n, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->part_add(ms->impl, ldb.s, ltable.s, parts,
                                           n, if_not_exists, added, err),
                         "part_add", ltable.s, 0);
}

int ms_part_drop(Ms *ms, const char *db, const char *table,
                 char *const *names, int n, bool if_exists, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_names(names, n, "partition name", err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->part_drop(ms->impl, ldb.s, ltable.s, names,
                                            n, if_exists, err),
                         "part_drop", ltable.s, 0);
}

int ms_part_get(Ms *ms, const char *db, const char *table, const char *name,
                CombArena *a, MsPartition **out, CombErr *err)
{
    MsName ldb, ltable;
    int n = 0;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_names((char *const *)&name, 1, "partition name", err);
    if (rc)
        return rc;
    *out = NULL;
    rc = ms->ops->part_list(ms->impl, ldb.s, ltable.s, name, NULL, 0, a, out,
                            &n, err);
    if (!rc && n == 0)
        rc = ms_err_no_part(err, ldb.s, ltable.s, name);
    return rc;
}

int ms_part_list(Ms *ms, const char *db, const char *table,
                 const MsProperty *spec, int n_spec, CombArena *a,
                 MsPartition **out, int *n, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = check_out(n, "result count", err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_count(n_spec, spec, "partition spec entries", err);
    if (!rc)
        rc = props_check(spec, n_spec, "partition spec entry", table, err);
    if (rc)
        return rc;
    *out = NULL;
    *n = 0;
    return ms->ops->part_list(ms->impl, ldb.s, ltable.s, NULL, spec, n_spec,
                              a, out, n, err);
}

/* What the calls on one partition check: the handle, the names. */
static int part_args(Ms *ms, const char *db, const char *table,
                     const char *name, MsName *ldb, MsName *ltable,
                     CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, table, ldb, ltable, err);
    if (!rc)
        rc = check_names((char *const *)&name, 1, "partition name", err);
    return rc;
}

int ms_part_set_location(Ms *ms, const char *db, const char *table,
                         const char *name, const char *location,
                         CombErr *err)
{
    MsName ldb, ltable;
    int rc = part_args(ms, db, table, name, &ldb, &ltable, err);
    if (!rc && !location)
        rc = comb_err(err, COMB_EINVALID, "partition %s without location",
                      name);
    if (!rc)
        rc = location_check(location, "partition", name, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->part_set_location(ms->impl, ldb.s, ltable.s,
                                                    name, location, err),
                         "part_set_location", ltable.s, 0);
}

int ms_part_set_params(Ms *ms, const char *db, const char *table,
                       const char *name, const MsProperty *params, int n,
                       CombErr *err)
{
    MsName ldb, ltable;
    int rc = part_args(ms, db, table, name, &ldb, &ltable, err);
    if (!rc)
        rc = check_count(n, params, "partition parameters", err);
    if (!rc)
        rc = props_check(params, n, "parameter", name, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->part_set_params(ms->impl, ldb.s, ltable.s,
                                                  name, params, n, err),
                         "part_set_params", ltable.s, 0);
}

/* What both column-statistics calls check; *lpart "" for the table. */
static int colstats_names(Ms *ms, const char *db, const char *table,
                          const char *part, MsName *ldb, MsName *ltable,
                          const char **lpart, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, table, ldb, ltable, err);
    if (!rc && part)
        rc = check_names((char *const *)&part, 1, "partition name", err);
    *lpart = part ? part : "";
    return rc;
}

int ms_colstats_put(Ms *ms, const char *db, const char *table,
                    const char *part, const MsColStats *stats, int n,
                    CombErr *err)
{
    MsName ldb, ltable;
    const char *lpart;
    CombArena a;
    char **cells;
    int rc = colstats_names(ms, db, table, part, &ldb, &ltable, &lpart, err);
    if (!rc)
        rc = check_count(n, stats, "column statistics", err);
    for (int i = 0; !rc && i < n; i++)
        if (!stats[i].column || !*stats[i].column || !stats[i].type ||
            !stats[i].source)
            rc = comb_err(err, COMB_EINVALID,
                          "column statistics %d without column, type or "
                          "source", i + 1);
    if (rc || n == 0)
        return rc;
    comb_arena_init(&a, 4096);
    rc = ms_colstats_cells(stats, n, &a, &cells, err);
    if (!rc)
        rc = commit_traced(ms->ops->colstats_put(ms->impl, ldb.s, ltable.s,
                                                 lpart, cells, n, err),
                           "colstats_put", ltable.s, 0);
    comb_arena_free(&a);
    return rc;
}

int ms_colstats_get(Ms *ms, const char *db, const char *table,
                    const char *part, CombArena *a, MsColStats **out, int *n,
                    CombErr *err)
{
    MsName ldb, ltable;
    const char *lpart;
    char **cells;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = check_out(n, "result count", err);
    if (!rc)
        rc = colstats_names(ms, db, table, part, &ldb, &ltable, &lpart, err);
    if (rc)
        return rc;
    *out = NULL;
    *n = 0;
    if ((rc = ms->ops->colstats_get(ms->impl, ldb.s, ltable.s, lpart, a,
                                    &cells, n, err)))
        return rc;
    return ms_colstats_from_cells(cells, *n, a, out, err);
}

int ms_table_drop(Ms *ms, const char *db, const char *name, bool if_exists,
                  CombErr *err)
{
    MsName ldb, lname;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, name, &ldb, &lname, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->table_drop(ms->impl, ldb.s, lname.s,
                                             if_exists, err),
                         "table_drop", lname.s, 0);
}

int ms_table_get(Ms *ms, const char *db, const char *name, CombArena *a,
                 MsTable **out, CombErr *err)
{
    MsName ldb, lname;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = table_names(db, name, &ldb, &lname, err);
    if (rc)
        return rc;
    *out = NULL;
    return ms->ops->table_get(ms->impl, ldb.s, lname.s, a, out, err);
}

int ms_table_list(Ms *ms, const char *db, CombArena *a, char ***names,
                  int *n, CombErr *err)
{
    MsName ldb;
    int rc = check_listing(ms, a, names, n, err);
    if (!rc)
        rc = name_lower(&ldb, db, "database", err);
    if (rc)
        return rc;
    *names = NULL;
    *n = 0;
    return ms->ops->table_list(ms->impl, ldb.s, a, names, n, err);
}

int ms_txn_open(Ms *ms, const char *user, const char *host, int64_t *txnid,
                CombErr *err)
{
    MsTxnBegin rq = {user, host, MS_TXN_TYPE_DEFAULT, 0, NULL};
    bool have_snapshot;
    return ms_txn_begin(ms, &rq, txnid, NULL, NULL, &have_snapshot, err);
}

/* A lock request's components: a database always, a table for a
 * partition, and a known lock type. */
static int check_op(MsOpType op, int64_t txnid, CombErr *err)
{
    if (op != MS_OP_INSERT && op != MS_OP_UPDATE && op != MS_OP_DELETE)
        return comb_err(err, COMB_EINVALID,
                        "invalid operation type %d for txnid:%lld", (int)op,
                        (long long)txnid);
    return COMB_OK;
}

static int check_lock_request(const MsLockRequest *rq, CombErr *err)
{
    if (rq->n < 0 || (rq->n > 0 && !rq->components))
        return comb_err(err, COMB_EINVALID, "lock request without components");
    for (int i = 0; i < rq->n; i++) {
        const MsLockComponent *c = &rq->components[i];
        if (!c->db || !*c->db)
            return comb_err(err, COMB_EINVALID,
                            "lock component %d has no database", i + 1);
        if (c->partition && !c->table)
            return comb_err(err, COMB_EINVALID,
                            "lock component %d names a partition without "
                            "its table", i + 1);
        if (c->type != MS_LOCK_SHARED_READ && c->type != MS_LOCK_SHARED_WRITE &&
            c->type != MS_LOCK_EXCL_WRITE && c->type != MS_LOCK_EXCLUSIVE)
            return comb_err(err, COMB_EINVALID,
                            "lock component %d has an unknown lock type", i + 1);
        if (c->op != MS_OP_NONE && !c->table)
            return comb_err(err, COMB_EINVALID,
                            "lock component %d writes a database: a txn "
                            "writes tables and partitions", i + 1);
        if (c->op != MS_OP_NONE) {
            int rc = check_op(c->op, rq->txnid, err);
            if (rc)
                return rc;
        }
    }
    return COMB_OK;
}

/* Hive's hysteresis: once the maximum is reached, refuse until fewer
 * than 90 % of it are open. */
static int64_t open_limit(const Ms *ms, int64_t max_open)
{
    if (max_open <= 0 || !ms->too_many_open)
        return max_open;
    return (max_open * 9 + 9) / 10;
}

int ms_txn_begin(Ms *ms, const MsTxnBegin *rq, int64_t *txnid,
                 MsLockStatus *status, CombTxnList *snapshot,
                 bool *have_snapshot, CombErr *err)
{
    MsLockStatus ignored;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(rq, "request", err);
    if (!rc)
        rc = check_out(txnid, "result pointer", err);
    if (!rc)
        rc = check_out(have_snapshot, "result pointer", err);
    if (!rc && rq->type != MS_TXN_TYPE_DEFAULT &&
        rq->type != MS_TXN_TYPE_READ_ONLY &&
        rq->type != MS_TXN_TYPE_COMPACTION)
        rc = comb_err(err, COMB_EINVALID, "unknown transaction type %d",
                      (int)rq->type);
    if (!rc && rq->locks)
        rc = check_lock_request(rq->locks, err);
    if (rc)
        return rc;
    *txnid = 0;
    *have_snapshot = false;
    if (!status)
        status = &ignored;
    memset(status, 0, sizeof *status);
    if (snapshot)
        memset(snapshot, 0, sizeof *snapshot);
    rc = ms->ops->txn_begin(ms->impl, rq->user ? rq->user : "",
                            rq->host ? rq->host : "", rq->type,
                            open_limit(ms, rq->max_open), rq->locks, txnid,
                            status, snapshot, have_snapshot, err);
    if (rq->max_open > 0)
        ms->too_many_open = rc == COMB_ETXN && *txnid == 0;
    return commit_traced(rc, "txn_open", NULL, *txnid);
}

static int txn_commit(Ms *ms, int64_t txnid, bool excl_write, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_txnid(txnid, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->txn_commit(ms->impl, txnid, excl_write,
                                             err),
                         "txn_commit", NULL, txnid);
}

int ms_txn_commit(Ms *ms, int64_t txnid, CombErr *err)
{
    return txn_commit(ms, txnid, false, err);
}

int ms_txn_commit_excl(Ms *ms, int64_t txnid, CombErr *err)
{
    return txn_commit(ms, txnid, true, err);
}

int ms_txn_commit_create(Ms *ms, int64_t txnid, const MsTable *t,
                         const MsPartition *parts, int n, CombErr *err)
{
    CombArena scratch;
    MsTable copy;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_txnid(txnid, err);
    if (!rc)
        rc = check_out(t, "table", err);
    if (!rc)
        rc = check_new_parts(parts, n, err);
    if (rc)
        return rc;
    comb_arena_init(&scratch, 4096);
    rc = table_normalize(t, &scratch, &copy, err);
    if (!rc)
        rc = commit_traced(ms->ops->txn_commit_create(ms->impl, txnid, &copy,
                                                      parts, n, err),
                           "txn_commit", NULL, txnid);
    comb_arena_free(&scratch);
    return rc;
}

int ms_txn_abort(Ms *ms, int64_t txnid, CombErr *err)
{
    return ms_txn_abort_reason(ms, txnid, MS_ABORT_ROLLBACK, err);
}

int ms_txn_abort_reason(Ms *ms, int64_t txnid, const char *reason,
                        CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_txnid(txnid, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->txn_abort(ms->impl, txnid,
                                            reason ? reason : "", err),
                         "txn_abort", NULL, txnid);
}

int ms_txn_list(Ms *ms, CombArena *a, MsTxnInfo **rows, int *n, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(a, "arena", err);
    if (!rc)
        rc = check_out(rows, "result pointer", err);
    if (!rc)
        rc = check_out(n, "result pointer", err);
    if (rc)
        return rc;
    *rows = NULL;
    *n = 0;
    return ms->ops->txn_list(ms->impl, a, rows, n, err);
}

int ms_txn_heartbeat(Ms *ms, const int64_t *txnids, int n, bool *open,
                     CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc && (n < 0 || (n > 0 && (!txnids || !open))))
        rc = comb_err(err, COMB_EINVALID, "heartbeat of %d txns without "
                      "their arrays", n);
    for (int i = 0; !rc && i < n; i++)
        rc = check_txnid(txnids[i], err);
    if (rc || n == 0)
        return rc;
    return ms->ops->txn_heartbeat(ms->impl, txnids, n, open, err);
}

int ms_lock(Ms *ms, const MsLockRequest *rq, MsLockStatus *out, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(rq, "request", err);
    if (!rc)
        rc = check_out(out, "result pointer", err);
    if (!rc)
        rc = check_txnid(rq->txnid, err);
    if (!rc)
        rc = check_lock_request(rq, err);
    if (!rc && rq->n == 0)
        rc = comb_err(err, COMB_EINVALID, "lock request without components");
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return ms->ops->lock(ms->impl, rq, out, err);
}

int ms_lock_check(Ms *ms, int64_t txnid, int64_t extid, bool zero_wait_read,
                  MsLockStatus *out, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(out, "result pointer", err);
    if (!rc)
        rc = check_txnid(txnid, err);
    if (!rc && extid <= 0)
        rc = comb_err(err, COMB_EINVALID, "invalid lockid:%lld",
                      (long long)extid);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return ms->ops->lock_check(ms->impl, txnid, extid, zero_wait_read, out,
                               err);
}

int ms_unlock(Ms *ms, int64_t extid, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc && extid <= 0)
        rc = comb_err(err, COMB_EINVALID, "invalid lockid:%lld",
                      (long long)extid);
    if (rc)
        return rc;
    return ms->ops->unlock(ms->impl, extid, err);
}

int ms_lock_list(Ms *ms, const char *db, const char *table,
                 const char *partition, CombArena *a, MsLockRow **rows,
                 int *n, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(a, "arena", err);
    if (!rc)
        rc = check_out(rows, "result pointer", err);
    if (!rc)
        rc = check_out(n, "result pointer", err);
    if (!rc && ((table && !db) || (partition && !table)))
        rc = comb_err(err, COMB_EINVALID,
                      "a lock listing by table needs its database, by "
                      "partition its table");
    if (!rc && db)
        rc = name_lower(&ldb, db, "database", err);
    if (!rc && table)
        rc = name_lower(&ltable, table, "table", err);
    if (rc)
        return rc;
    *rows = NULL;
    *n = 0;
    return ms->ops->lock_list(ms->impl, db ? ldb.s : NULL,
                              table ? ltable.s : NULL, partition, a, rows, n,
                              err);
}

int ms_housekeep(Ms *ms, const MsHousekeeping *cfg, MsHousekeepResult *out,
                 CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(cfg, "settings", err);
    if (!rc)
        rc = check_out(out, "result pointer", err);
    if (!rc && cfg->txn_timeout_ms <= 0)
        rc = comb_err(err, COMB_EINVALID,
                      "hive.txn.timeout must be positive, got %lld ms",
                      (long long)cfg->txn_timeout_ms);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return ms->ops->housekeep(ms->impl, cfg, out, err);
}

int ms_txn_state(Ms *ms, int64_t txnid, MsTxnState *state, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(state, "result pointer", err);
    if (!rc)
        rc = check_txnid(txnid, err);
    if (rc)
        return rc;
    return ms->ops->txn_state(ms->impl, txnid, state, err);
}

int ms_txn_snapshot(Ms *ms, int64_t txnid, CombTxnList *out, CombErr *err)
{
    int rc = check_clear_list(ms, out, sizeof *out, err);
    if (rc)
        return rc;
    if (txnid < 0)
        return check_txnid(txnid, err);
    return ms->ops->txn_snapshot(ms->impl, txnid, out, err);
}

int ms_writeid_allocate(Ms *ms, int64_t txnid, const char *db,
                        const char *table, int64_t *writeid, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(writeid, "result pointer", err);
    if (!rc)
        rc = txn_table_args(txnid, db, table, &ldb, &ltable, err);
    if (rc)
        return rc;
    *writeid = 0;
    return commit_traced(ms->ops->writeid_allocate(ms->impl, txnid, ldb.s,
                                                   ltable.s, writeid, err),
                         "writeid_allocate", NULL, txnid);
}

int ms_writeid_allocate_batch(Ms *ms, const int64_t *txnids, int n,
                              const char *db, const char *table,
                              int64_t *writeids, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(writeids, "result pointer", err);
    if (!rc && (n <= 0 || !txnids))
        rc = comb_err(err, COMB_EINVALID, "no txns to allocate write ids for");
    for (int i = 0; !rc && i < n; i++)
        rc = txn_table_args(txnids[i], db, table, &ldb, &ltable, err);
    if (rc)
        return rc;
    memset(writeids, 0, (size_t)n * sizeof *writeids);
    return commit_traced(ms->ops->writeid_allocate_batch(ms->impl, txnids, n,
                                                         ldb.s, ltable.s,
                                                         writeids, err),
                         "writeid_allocate_batch", NULL, txnids[0]);
}

int ms_writeid_sync(Ms *ms, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (rc || !ms->ops->writeid_sync)
        return rc;
    return ms->ops->writeid_sync(ms->impl, err);
}

int ms_writeid_list(Ms *ms, const CombTxnList *txns, const char *db,
                    const char *table, CombWriteIdList *out, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_clear_list(ms, out, sizeof *out, err);
    if (rc)
        return rc;
    rc = check_out(txns, "txn snapshot", err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (rc)
        return rc;
    return ms->ops->writeid_list(ms->impl, txns, ldb.s, ltable.s, out, err);
}

int ms_txn_add_component(Ms *ms, int64_t txnid, const char *db,
                         const char *table, const char *partition,
                         MsOpType op, int64_t writeid, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = txn_table_args(txnid, db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_op(op, txnid, err);
    if (!rc && partition)
        rc = check_names((char *const *)&partition, 1, "partition name", err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->txn_add_component(ms->impl, txnid, ldb.s,
                                                    ltable.s, partition, op,
                                                    writeid, err),
                         "txn_add_component", NULL, txnid);
}

int ms_txn_add_partitions(Ms *ms, int64_t txnid, const char *db,
                          const char *table, char *const *partitions, int n,
                          MsOpType op, int64_t writeid, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = txn_table_args(txnid, db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_op(op, txnid, err);
    if (!rc)
        rc = check_names(partitions, n, "partition name", err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->txn_add_partitions(ms->impl, txnid, ldb.s,
                                                     ltable.s, partitions, n,
                                                     op, writeid, err),
                         "txn_add_partitions", NULL, txnid);
}

/* A seeded id is followed by the next one: it must leave room. */
static int check_seed(int64_t max_id, const char *what, CombErr *err)
{
    if (max_id == INT64_MAX)
        return comb_err(err, COMB_EINVALID, "%s %lld leaves no id after it",
                        what, (long long)max_id);
    return COMB_OK;
}

int ms_writeid_seed(Ms *ms, const char *db, const char *table,
                    int64_t max_writeid, CombErr *err)
{
    MsName ldb, ltable;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = table_names(db, table, &ldb, &ltable, err);
    if (!rc)
        rc = check_seed(max_writeid, "write id", err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->writeid_seed(ms->impl, ldb.s, ltable.s,
                                               max_writeid, err),
                         "writeid_seed", ltable.s, 0);
}

int ms_txnid_seed(Ms *ms, int64_t max_txnid, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_seed(max_txnid, "txn id", err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->txnid_seed(ms->impl, max_txnid, err),
                         "txnid_seed", NULL, max_txnid);
}

/* ------------------------------------------------------------ compaction */

const char *ms_compact_state_name(MsCompactState s)
{
    switch (s) {
    case MS_CQ_INITIATED: return "initiated";
    case MS_CQ_WORKING: return "working";
    case MS_CQ_READY_FOR_CLEANING: return "ready for cleaning";
    case MS_CQ_FAILED: return "failed";
    case MS_CQ_SUCCEEDED: return "succeeded";
    case MS_CQ_DID_NOT_INITIATE: return "did not initiate";
    case MS_CQ_REFUSED: return "refused";
    case MS_CQ_ABORTED: return "aborted";
    }
    return "unknown";
}

static bool compact_final_state(MsCompactState s)
{
    return s == MS_CQ_FAILED || s == MS_CQ_SUCCEEDED ||
           s == MS_CQ_DID_NOT_INITIATE || s == MS_CQ_REFUSED ||
           s == MS_CQ_ABORTED;
}

int ms_compact_enqueue(Ms *ms, const MsCompactRequest *rq, bool *accepted,
                       int64_t *id, MsCompactState *state, CombErr *err)
{
    MsName ldb, ltable;
    MsCompactRequest copy;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(rq, "request", err);
    if (!rc)
        rc = check_out(accepted, "result pointer", err);
    if (!rc)
        rc = check_out(id, "result pointer", err);
    if (!rc)
        rc = check_out(state, "result pointer", err);
    if (!rc && rq->type != MS_CQ_MAJOR && rq->type != MS_CQ_MINOR)
        rc = comb_err(err, COMB_EINVALID,
                      "Invalid compaction type, supported values are "
                      "'major' and 'minor'");
    if (!rc && rq->partition && !*rq->partition)
        rc = comb_err(err, COMB_EINVALID, "empty partition name");
    if (!rc)
        rc = name_lower(&ldb, rq->db, "database", err);
    if (!rc)
        rc = name_lower(&ltable, rq->table, "table", err);
    if (rc)
        return rc;
    copy = *rq;
    copy.db = ldb.s;
    copy.table = ltable.s;
    *accepted = false;
    *id = 0;
    rc = ms->ops->compact_enqueue(ms->impl, &copy, accepted, id, state, err);
    return commit_traced(rc, "compact_enqueue", NULL, *id);
}

int ms_compact_claim(Ms *ms, const char *worker_id, int64_t timeout_ms,
                     int64_t id, CombArena *a, MsCompaction *out,
                     bool *found, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(worker_id, "worker id", err);
    if (!rc)
        rc = check_out(a, "arena", err);
    if (!rc)
        rc = check_out(out, "result pointer", err);
    if (!rc)
        rc = check_out(found, "result pointer", err);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    *found = false;
    return ms->ops->compact_claim(ms->impl, worker_id, timeout_ms, id, a, out,
                                  found, err);
}

int ms_compact_set_txn(Ms *ms, int64_t id, int64_t txnid,
                       int64_t highest_writeid, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->compact_set_txn(ms->impl, id, txnid,
                                                  highest_writeid, err),
                         "compact_set_txn", NULL, id);
}

int ms_compact_progress(Ms *ms, int64_t id, const char *text, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (rc)
        return rc;
    /* not traced as a commit: it names no file (the durability checks of
     * tests/integration/durable_dirs.sh hold commits to that) */
    return ms->ops->compact_progress(ms->impl, id, text, err);
}

int ms_compact_commit(Ms *ms, int64_t id, int64_t txnid, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (rc)
        return rc;
    return commit_traced(ms->ops->compact_commit(ms->impl, id, txnid, err),
                         "txn_commit", NULL, txnid);
}

int ms_compact_finish(Ms *ms, int64_t id, MsCompactState state,
                      const char *error, const MsCompactRetention *keep,
                      CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc && !compact_final_state(state))
        rc = comb_err(err, COMB_EINVALID,
                      "compaction state '%c' is not a final state",
                      (char)state);
    if (rc)
        return rc;
    return commit_traced(ms->ops->compact_finish(ms->impl, id, state, error,
                                                 keep, err),
                         "compact_finish", NULL, id);
}

int ms_compact_list(Ms *ms, bool ready_to_clean, CombArena *a,
                    MsCompaction **rows, int *n, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_out(a, "arena", err);
    if (!rc)
        rc = check_out(rows, "result pointer", err);
    if (!rc)
        rc = check_out(n, "result pointer", err);
    if (rc)
        return rc;
    *rows = NULL;
    *n = 0;
    return ms->ops->compact_list(ms->impl, ready_to_clean, a, rows, n, err);
}

int ms_compact_abort(Ms *ms, const int64_t *ids, int n, bool *done,
                     CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc && n > 0)
        rc = check_out(ids, "ids", err);
    if (!rc && n > 0)
        rc = check_out(done, "result pointer", err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++)
        done[i] = false;
    return ms->ops->compact_abort(ms->impl, ids, n, done, err);
}

/* --------------------------------------------------------- authorization */

static bool builtin_role(const char *lname)
{
    return strcmp(lname, "admin") == 0 || strcmp(lname, "public") == 0;
}

int ms_role_create(Ms *ms, const char *name, const char *owner, CombErr *err)
{
    MsName lname;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = name_lower(&lname, name, "role", err);
    if (!rc)
        rc = name_check_new(lname.s, "role name", false, err);
    if (!rc && builtin_role(lname.s))
        rc = comb_err(err, COMB_EEXISTS, "Role %s already exists.", lname.s);
    if (rc)
        return rc;
    return commit_traced(ms->ops->role_create(ms->impl, lname.s,
                                              owner ? owner : "",
                                              (int64_t)time(NULL), err),
                         "role_create", lname.s, 0);
}

int ms_role_drop(Ms *ms, const char *name, CombErr *err)
{
    MsName lname;
    int rc = check_handle(ms, err);
    if (!rc)
        rc = name_lower(&lname, name, "role", err);
    if (!rc && builtin_role(lname.s))
        rc = comb_err(err, COMB_EINVALID, "Role %s is built in and cannot be "
                      "dropped", lname.s);
    if (rc)
        return rc;
    return commit_traced(ms->ops->role_drop(ms->impl, lname.s, err),
                         "role_drop", lname.s, 0);
}

int ms_role_list(Ms *ms, CombArena *a, char ***names, int *n, CombErr *err)
{
    int rc = check_lookup(ms, a, names, err);
    if (!rc)
        rc = check_out(n, "result count", err);
    return rc ? rc : ms->ops->role_list(ms->impl, a, names, n, err);
}

/* g with its names lower-cased (users keep theirs), into `a`. */
static int grant_lowered(const MsGrant *g, CombArena *a, MsGrant *out,
                         CombErr *err)
{
    *out = *g;
    out->db = g->db ? arena_lower(a, g->db) : NULL;
    out->table = g->table ? arena_lower(a, g->table) : NULL;
    out->role = g->role ? arena_lower(a, g->role) : NULL;
    if (g->principal && g->principal_is_role)
        out->principal = arena_lower(a, g->principal);
    if ((g->db && !out->db) || (g->table && !out->table) ||
        (g->role && !out->role) || (g->principal && !out->principal))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* The object a grant names exists (a role grant's role, its principal
 * when a role, the database, the table). */
static int grant_object_exists(Ms *ms, const MsGrant *g, CombArena *a,
                               CombErr *err)
{
    const char *roles[2] = {g->object == MS_GRANT_ROLE ? g->role : NULL,
                            g->principal_is_role ? g->principal : NULL};
    MsDatabase *db;
    MsTable *t;
    char **names;
    int n, rc = COMB_OK;
    if (g->object == MS_GRANT_DATABASE)
        rc = ms->ops->db_get(ms->impl, g->db, a, &db, err);
    else if (g->object == MS_GRANT_TABLE)
        rc = ms->ops->table_get(ms->impl, g->db, g->table, a, &t, err);
    if (rc || (!roles[0] && !roles[1]))
        return rc;
    if ((rc = ms->ops->role_list(ms->impl, a, &names, &n, err)))
        return rc;
    for (int r = 0; r < 2; r++) {
        bool found = !roles[r] || builtin_role(roles[r]);
        for (int i = 0; i < n && !found; i++)
            found = strcmp(names[i], roles[r]) == 0;
        if (!found)
            return comb_err(err, COMB_ENOTFOUND, "Role %s does not exist",
                            roles[r]);
    }
    return COMB_OK;
}

static int check_grant(const MsGrant *g, CombErr *err)
{
    bool ok = g->principal && *g->principal &&
              (g->object == MS_GRANT_ROLE
                   ? g->role && !g->privilege
                   : g->db && g->privilege &&
                         (g->object == MS_GRANT_DATABASE) == !g->table);
    return ok ? COMB_OK
              : comb_err(err, COMB_EINVALID, "a grant without its object, "
                         "principal or privilege");
}

/* What ms_grant_put and ms_grant_drop share: the checked, lowered row as
 * cells, its object known to exist. */
static int grant_row(Ms *ms, const MsGrant *g, CombArena *a, MsGrant *low,
                     char ***cells, CombErr *err)
{
    int rc = check_handle(ms, err);
    if (!rc)
        rc = check_grant(g, err);
    if (!rc)
        rc = grant_lowered(g, a, low, err);
    if (!rc)
        rc = grant_object_exists(ms, low, a, err);
    low->create_time = (int64_t)time(NULL);
    return rc ? rc : ms_grant_cells(low, a, cells, err);
}

/* "SELECT on default.t to USER bob", "role r to USER bob" */
static void grant_words(const MsGrant *g, char *out, size_t n)
{
    const char *who = g->principal_is_role ? "ROLE" : "USER";
    if (g->object == MS_GRANT_ROLE)
        snprintf(out, n, "role %s to %s %s", g->role, who, g->principal);
    else if (g->object == MS_GRANT_DATABASE)
        snprintf(out, n, "%s on database %s to %s %s", g->privilege, g->db,
                 who, g->principal);
    else
        snprintf(out, n, "%s on %s.%s to %s %s", g->privilege, g->db,
                 g->table, who, g->principal);
}

/* ms_grant_put (put) or ms_grant_drop: the row checked and lowered, the
 * backend's change, and the error when the grant was there (put, without
 * a new option) or was not (drop). */
static int grant_change(Ms *ms, const MsGrant *g, bool put, bool option_only,
                        CombErr *err)
{
    CombArena a;
    MsGrant low;
    char **cells, words[600];
    bool found = false;
    int rc;
    comb_arena_init(&a, 1024);
    rc = grant_row(ms, g, &a, &low, &cells, err);
    if (!rc)
        rc = commit_traced(put ? ms->ops->grant_put(ms->impl, cells, &found, err)
                               : ms->ops->grant_drop(ms->impl, cells,
                                                     option_only, &found, err),
                           put ? "grant_put" : "grant_drop", cells[4], 0);
    if (!rc && (put ? found && !g->grant_option : !found)) {
        grant_words(&low, words, sizeof words);
        rc = put ? comb_err(err, COMB_EEXISTS, "%s is already granted", words)
                 : comb_err(err, COMB_ENOTFOUND, "%s was not granted%s", words,
                            option_only ? " with its option" : "");
    }
    comb_arena_free(&a);
    return rc;
}

int ms_grant_put(Ms *ms, const MsGrant *g, CombErr *err)
{
    return grant_change(ms, g, true, false, err);
}

int ms_grant_drop(Ms *ms, const MsGrant *g, bool option_only, CombErr *err)
{
    return grant_change(ms, g, false, option_only, err);
}

int ms_grant_list(Ms *ms, const MsGrant *filter, CombArena *a, MsGrant **out,
                  int *n, CombErr *err)
{
    MsGrant low;
    char **key, **cells;
    int rc = check_lookup(ms, a, out, err);
    if (!rc)
        rc = check_out(n, "result count", err);
    if (!rc)
        rc = grant_lowered(filter, a, &low, err);
    if (!rc)
        rc = ms_grant_cells(&low, a, &key, err);
    if (rc)
        return rc;
    /* the filter's key only: its option, grantor and time match anything */
    key[7] = key[8] = key[9] = key[10] = "";
    *out = NULL;
    *n = 0;
    if ((rc = ms->ops->grant_list(ms->impl, key, a, &cells, n, err)))
        return rc;
    return ms_grant_from_cells(cells, *n, a, out, err);
}
