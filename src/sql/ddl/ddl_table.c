/*
 * ddl_table.c - CREATE TABLE and DROP TABLE (the same failure rules as
 * databases: directory before catalog row; DROP moves the directory aside
 * until the catalog commits).
 */
#include "sql/sql_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"
#include "sql/func/rowstore.h"
#include "sql/func/value.h"

/* --------------------------------------------------------------- tables */

static int check_column_type(const AstColumnDef *col, CombErr *err)
{
    if (col->type.kind != COMB_T_UNION)
        return COMB_OK;
    return sql_err_at(err, COMB_EUNSUPPORTED, 0, col->type.pos,
                      "column '%s': type %s is not supported yet", col->name,
                      comb_type_name(col->type.kind));
}

static char *type_string(CombArena *a, const AstTypeName *t)
{
    return comb_type_string(a, t->type);
}

/* A column's [CONSTRAINT name] DEFAULT value: Hive's checks, then the
 * text and name the metastore keeps; a name only once in the table. */
static int build_default(SqlStmtCtx *c, MsTable *t, int i, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstColumnDef *cd = &st->columns[i];
    int rc = sql_default_build(c, cd, t->db, t->name, st->external,
                               &t->cols[i], err);
    for (int j = 0; !rc && cd->default_value && cd->default_name && j < i; j++)
        if (st->columns[j].default_name &&
            strcasecmp(st->columns[j].default_name, cd->default_name) == 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10326, cd->pos,
                              "Invalid Constraint syntax Constraint name "
                              "already exists: %s", cd->default_name);
    return rc;
}

static int build_columns(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    t->n_cols = st->n_columns;
    t->cols = comb_arena_calloc(c->arena, (size_t)(st->n_columns + 1) * sizeof *t->cols);
    if (!t->cols)
        return comb_err_nomem(err);
    for (int i = 0; i < st->n_columns; i++) {
        const AstColumnDef *cd = &st->columns[i];
        int rc = check_column_type(cd, err);
        if (rc)
            return rc;
        for (int j = 0; j < i; j++)
            if (strcmp(st->columns[j].name, cd->name) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10036, cd->pos,
                                  "Duplicate column name: %s", cd->name);
        t->cols[i].name = cd->name;
        t->cols[i].comment = cd->comment;
        t->cols[i].type = type_string(c->arena, &cd->type);
        if (!t->cols[i].type)
            return comb_err_nomem(err);
        if ((rc = build_default(c, t, i, err)))
            return rc;
    }
    return COMB_OK;
}

static bool is_data_column(const AstStmt *st, const char *name)
{
    for (int j = 0; j < st->n_columns; j++)
        if (strcmp(st->columns[j].name, name) == 0)
            return true;
    return false;
}

static int build_bucketing(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    t->n_buckets = -1;
    if (st->n_buckets < 0)
        return COMB_OK;
    if (st->n_buckets < 1 || st->n_buckets > 4096)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->cluster_pos,
                          "number of buckets must be between 1 and 4096");
    for (int i = 0; i < st->n_cluster_cols; i++)
        if (!is_data_column(st, st->cluster_cols[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10002, st->cluster_pos,
                              "Invalid column reference '%s' in CLUSTERED BY",
                              st->cluster_cols[i]);
    t->n_buckets = (int)st->n_buckets;
    t->n_bucket_cols = st->n_cluster_cols;
    t->bucket_cols = st->cluster_cols;
    t->n_sort_cols = st->n_sort_cols;
    if (st->n_sort_cols > 0 &&
        !(t->sort_cols = comb_arena_calloc(c->arena, (size_t)st->n_sort_cols * sizeof *t->sort_cols)))
        return comb_err_nomem(err);
    for (int i = 0; i < st->n_sort_cols; i++) {
        if (!is_data_column(st, st->sort_cols[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10002, st->cluster_pos,
                              "Invalid column reference '%s' in SORTED BY",
                              st->sort_cols[i]);
        t->sort_cols[i] = (MsSortCol){st->sort_cols[i],
                                      st->sort_desc[i] ? MS_SORT_DESC : MS_SORT_ASC};
    }
    return COMB_OK;
}

static const char *prop_value(const AstStmt *st, const char *key)
{
    const char *v = NULL;
    for (int i = 0; i < st->n_props; i++)
        if (strcasecmp(st->props[i].key, key) == 0)
            v = st->props[i].value;
    return v;
}

/* Tables get bucketing_version=2 unless they say otherwise, as in Hive 3+
 * (Table.getEmptyTable).  The key is matched exactly, as every reader of
 * the property does.  A value other than '1' or '2' is refused: Trino
 * refuses such tables, and Hive would hash them with version 1. */
static int add_bucketing_version(const AstStmt *st, MsTable *t, CombErr *err)
{
    const char *v = ms_table_prop(t, ACID_PROP_BUCKETING_VERSION);
    CombErr why;
    int version;
    if (!v) {
        t->props[t->n_props++] = (MsProperty){ACID_PROP_BUCKETING_VERSION, "2"};
        return COMB_OK;
    }
    if (!acid_bucketing_version_parse(v, &version, &why))
        return COMB_OK;
    return sql_err_at(err, why.code, 0, st->name.pos, "%s", why.msg);
}

/* The file format: STORED AS, STORED AS INPUTFORMAT ... OUTPUTFORMAT
 * (ORC's or text's classes), else hive.default.fileformat (ORC unless set
 * otherwise: comb's tables are ORC by default). */
static const char *table_format(SqlStmtCtx *c)
{
    const AstCatalog *cat = c->stmt->catalog;
    const char *f = c->stmt->stored_as;
    const char *dflt = sql_session_get_conf(c->s, "hive.default.fileformat");
    if (cat && cat->input_format)
        return strcmp(cat->input_format, MS_ORC_INPUT_FORMAT) == 0 ? "orc"
               : strcmp(cat->input_format, MS_TEXT_INPUT_FORMAT) == 0 ? "textfile"
                                                                      : cat->input_format;
    if (!f)
        f = dflt ? dflt : "orc";
    return strcasecmp(f, "textfile") == 0 ? "textfile"
           : strcasecmp(f, "orc") == 0   ? "orc" : f;
}

/* The classes of a format comb reads and writes; a ROW FORMAT SERDE or
 * OUTPUTFORMAT must be the format's own. */
static int set_format(SqlStmtCtx *c, MsTable *t, const char *format,
                      CombErr *err)
{
    const AstCatalog *cat = c->stmt->catalog;
    bool orc = strcmp(format, "orc") == 0;
    if (!orc && strcmp(format, "textfile") != 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->name.pos,
                          "%s %s is not supported (ORC and TEXTFILE are)",
                          cat && cat->input_format ? "INPUTFORMAT" : "STORED AS",
                          format);
    t->input_format = orc ? MS_ORC_INPUT_FORMAT : MS_TEXT_INPUT_FORMAT;
    t->output_format = orc ? MS_ORC_OUTPUT_FORMAT : MS_TEXT_OUTPUT_FORMAT;
    t->serde = orc ? MS_ORC_SERDE : MS_TEXT_SERDE;
    if (cat && cat->output_format && strcmp(cat->output_format, t->output_format) != 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->name.pos,
                          "OUTPUTFORMAT '%s' is not supported with INPUTFORMAT "
                          "'%s' (it must be '%s')", cat->output_format,
                          t->input_format, t->output_format);
    if (cat && cat->serde && strcmp(cat->serde, t->serde) != 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->name.pos,
                          "SERDE '%s' is not supported for %s tables (their "
                          "SerDe is '%s')", cat->serde,
                          orc ? "ORC" : "TEXTFILE", t->serde);
    return COMB_OK;
}

/* The SerDe parameters Hive records: WITH SERDEPROPERTIES as given, or
 * ROW FORMAT DELIMITED's clauses (serialization.format with the field
 * delimiter), or serialization.format=1 for a text table without them. */
static int build_serde_params(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstCatalog *cat = st->catalog;
    const struct { const char *key, *value; } given[] = {
        {MS_SERDE_FIELD_DELIM, st->field_delim},
        {MS_SERDE_ESCAPE_DELIM, st->escape_delim},
        {MS_SERDE_COLLECTION_DELIM, st->collection_delim},
        {MS_SERDE_MAPKEY_DELIM, st->mapkey_delim},
        {MS_SERDE_LINE_DELIM, st->line_delim},
        {MS_SERDE_NULL_FORMAT, st->null_format},
    };
    int n = 0, n_props = cat ? cat->n_serde_props : 0;
    t->serde_params = comb_arena_calloc(c->arena, (size_t)(n_props + 8) * sizeof *t->serde_params);
    if (!t->serde_params)
        return comb_err_nomem(err);
    for (int i = 0; i < n_props; i++)
        t->serde_params[n++] = (MsProperty){cat->serde_props[i].key,
                                            cat->serde_props[i].value};
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++)
        if (given[i].value)
            t->serde_params[n++] = (MsProperty){(char *)given[i].key,
                                                (char *)given[i].value};
    /* Hive records serialization.format with the field delimiter */
    if (st->field_delim)
        t->serde_params[n++] = (MsProperty){MS_SERDE_FORMAT, st->field_delim};
    else if (n == 0 && strcmp(t->serde, MS_TEXT_SERDE) == 0)
        t->serde_params[n++] = (MsProperty){MS_SERDE_FORMAT, "1"};
    t->n_serde_params = n;
    return COMB_OK;
}

static int build_partition_keys(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    t->n_part_keys = st->n_partition_cols;
    t->part_keys = comb_arena_calloc(c->arena, (size_t)(st->n_partition_cols + 1) * sizeof *t->part_keys);
    if (!t->part_keys)
        return comb_err_nomem(err);
    for (int i = 0; i < st->n_partition_cols; i++) {
        const AstColumnDef *cd = &st->partition_cols[i];
        CombTypeKind k = cd->type.kind;
        if (cd->default_value)  /* Hive 4's CreateTableAnalyzer */
            return sql_err_at(err, COMB_ESEMANTIC, 10326, cd->default_value->pos,
                              "Invalid Constraint syntax NOT NULL,DEFAULT and "
                              "CHECK Constraints are not allowed with "
                              "partition columns.");
        for (int j = 0; j < st->n_columns; j++)
            if (strcmp(st->columns[j].name, cd->name) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10035, cd->pos,
                                  "Column repeated in partitioning columns");
        if (!comb_type_is_primitive(k) || k == COMB_T_BINARY)
            return sql_err_at(err, COMB_ESEMANTIC, 10054, cd->pos,
                              "partition column '%s' cannot be of type %s",
                              cd->name, comb_type_name(k));
        t->part_keys[i].name = cd->name;
        t->part_keys[i].comment = cd->comment;
        if (!(t->part_keys[i].type = type_string(c->arena, &cd->type)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* Hive's TransactionalValidationListener rules, hive.create.as.acid and
 * hive.create.as.insert.only: full ACID needs ORC and a managed table;
 * insert-only tables may be any format. */
static int build_acid_properties(SqlStmtCtx *c, MsTable *t, const char *format,
                                 CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *tx = st->transactional ? "true" : prop_value(st, "transactional");
    const char *tp = prop_value(st, "transactional_properties");
    const char *as_acid = sql_session_get_conf(c->s, "hive.create.as.acid");
    const char *as_mm = sql_session_get_conf(c->s, "hive.create.as.insert.only");
    bool orc = strcmp(format, "orc") == 0, acid, insert_only;
    int n = 0;
    if (tx && strcasecmp(tx, "true") != 0 && strcasecmp(tx, "false") != 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "'transactional' property of TBLPROPERTIES may only "
                          "have value 'true': %s.%s", t->db, t->name);
    if (tp && strcasecmp(tp, "insert_only") != 0 && strcasecmp(tp, "default") != 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "Invalid transactional properties specified for "
                          "table %s.%s: %s", t->db, t->name, tp);
    insert_only = tp && strcasecmp(tp, "insert_only") == 0;
    acid = tx ? strcasecmp(tx, "true") == 0
              : !st->external &&
                    (insert_only ||
                     (as_mm && strcasecmp(as_mm, "true") == 0) ||
                     (!(as_acid && strcasecmp(as_acid, "false") == 0) && orc));
    if (acid && !tx && !insert_only && !orc)
        insert_only = true;
    if (!acid && insert_only)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "insert-only table %s.%s must be transactional",
                          t->db, t->name);
    if (acid && st->external)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "%s.%s cannot be declared transactional because it's "
                          "an external table", t->db, t->name);
    if (acid && !insert_only && !orc)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "The table must be stored using an ACID compliant "
                          "format (such as ORC): %s.%s", t->db, t->name);
    if (acid && !insert_only && st->n_sort_cols > 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "Table %s.%s cannot support full ACID functionality "
                          "since it is sorted.", t->db, t->name);
    t->props = comb_arena_calloc(c->arena, (size_t)(st->n_props + 5) * sizeof *t->props);
    if (!t->props)
        return comb_err_nomem(err);
    for (int i = 0; i < st->n_props; i++)
        if (strcasecmp(st->props[i].key, "transactional") != 0 &&
            strcasecmp(st->props[i].key, "transactional_properties") != 0)
            t->props[n++] = (MsProperty){st->props[i].key, st->props[i].value};
    /* as Hive: 'transactional'='false' only when the statement says so */
    if (acid || tx)
        t->props[n++] = (MsProperty){"transactional", acid ? "true" : "false"};
    if (acid)
        t->props[n++] = (MsProperty){"transactional_properties",
                                     insert_only ? "insert_only" : "default"};
    /* Hive's metastore keeps a given DDL time, else sets the creation's */
    if (!prop_value(st, MS_DDL_TIME) &&
        !(t->props[n++] = (MsProperty){MS_DDL_TIME,
                                       comb_arena_printf(c->arena, "%lld",
                                                         (long long)t->create_time)})
             .value)
        return comb_err_nomem(err);
    t->n_props = n;
    return add_bucketing_version(st, t, err);
}

/* The table's LOCATION made absolute, or its default location in the
 * database's directory; the database must exist. */
static int table_location(SqlStmtCtx *c, const char *db, const char *name,
                          char **out, CombErr *err)
{
    MsDatabase *d;
    char *dir;
    int rc = ms_db_get(c->s->ms, db, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, c->stmt->name.pos,
                          "Database does not exist: %s", db);
    if (rc)
        return rc;
    if (c->stmt->location)
        return sql_absolute_location(c, c->stmt->location, out, err);
    dir = ms_table_dir_name(name, c->arena);
    *out = dir ? comb_arena_printf(c->arena, "%s/%s", d->location, dir) : NULL;
    return *out ? COMB_OK : comb_err_nomem(err);
}

int sql_first_acid_dir(SqlStmtCtx *c, const char *dir, const char **found,
                          int *n_entries, CombErr *err)
{
    char **names;
    int n = 0, rc;
    AcidParsedDir pd;
    *found = NULL;
    *n_entries = 0;
    if (!fs_is_dir(dir))
        return COMB_OK;
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    *n_entries = n;
    for (int i = 0; i < n && !*found; i++)
        if (acid_dir_parse(names[i], &pd))
            *found = names[i];
    return COMB_OK;
}

/* Where a new table's files go.  A managed table at its default location
 * whose directory holds files (left by a dropped table of that name that
 * could not be removed) gets a directory of its own, "<table>.v<N>" as
 * Hive 4 names soft-deleted tables' successors, and never reads them.  A
 * LOCATION must be a directory (it is made when missing); one holding
 * ACID directories is adopted as Hive 4 adopts it: their rows stay
 * invisible (the table has no write ids yet) until MSCK REPAIR TABLE
 * seeds the write ids from their names, and writes are refused until then
 * (sql_check_adopted), so no write id of the new table can claim them. */
int sql_table_choose_dir(SqlStmtCtx *c, MsTable *t, const char **adopted,
                         CombErr *err)
{
    const char *acid_dir;
    char *base = t->location;
    int n_entries, rc;
    *adopted = NULL;
    if (c->stmt->location && fs_exists(base) && !fs_is_dir(base))
        return sql_err_at(err, COMB_EINVALID, 0, c->stmt->name.pos,
                          "location '%s' is not a directory", base);
    if ((rc = sql_first_acid_dir(c, base, &acid_dir, &n_entries, err)))
        return rc;
    if (c->stmt->location) {
        if (ms_table_is_transactional(t))
            *adopted = acid_dir;
        return COMB_OK;
    }
    if (!sql_table_is_managed(t) || n_entries == 0)
        return COMB_OK;
    for (int v = 1; fs_exists(t->location); v++)
        if (!(t->location = comb_arena_printf(c->arena, "%s.v%07d", base, v)))
            return comb_err_nomem(err);
    return COMB_OK;
}

int sql_table_define(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *format;
    int rc;
    if (st->temporary)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, st->pos,
                          "temporary tables are not supported yet");
    memset(t, 0, sizeof *t);
    t->db = st->name.db ? st->name.db : c->s->db;
    t->name = st->name.name;
    t->owner = c->s->user;
    t->comment = st->comment;
    t->create_time = (int64_t)time(NULL);
    t->table_type = st->external ? MS_EXTERNAL_TABLE : MS_MANAGED_TABLE;
    format = table_format(c);
    if ((rc = set_format(c, t, format, err)) ||
        (rc = build_columns(c, t, err)) || (rc = build_bucketing(c, t, err)) ||
        (rc = build_partition_keys(c, t, err)) ||
        (rc = build_serde_params(c, t, err)) ||
        (rc = build_acid_properties(c, t, format, err)))
        return rc;
    return table_location(c, t->db, t->name, &t->location, err);
}

int sql_table_create_error(SqlStmtCtx *c, const MsTable *t, int rc,
                           CombErr *err)
{
    if (rc == COMB_EEXISTS)
        return sql_err_at(err, rc, 10073, c->stmt->name.pos,
                          "Table already exists: %s.%s", t->db, t->name);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, c->stmt->name.pos,
                          "Database does not exist: %s", t->db);
    return rc;
}

int sql_table_create(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    MsTable *existing;
    const char *adopted = NULL;
    bool done;
    int made = 0;
    int rc = sql_create_check(ms_table_get(c->s->ms, t->db, t->name, c->arena,
                                           &existing, err),
                              c->stmt->if_not_exists, &done);
    if (done)
        return COMB_OK;
    /* the directory is durable before the catalog row naming it */
    if (!rc && !(rc = sql_table_choose_dir(c, t, &adopted, err)) &&
        !(rc = fs_mkdirs_n(t->location, &made, err)) &&
        (rc = ms_table_create(c->s->ms, t, c->stmt->if_not_exists, err)))
        fs_rmdirs_empty(t->location, made);
    rc = sql_table_create_error(c, t, rc, err);
    if (rc || !adopted || !c->sink->info)
        return rc;
    return c->sink->info(c->sink->ctx,
                         comb_arena_printf(c->arena, "WARNING: location '%s' "
                                           "holds ACID data ('%s'); it stays "
                                           "invisible until MSCK REPAIR TABLE "
                                           "%s.%s records its write ids",
                                           t->location, adopted, t->db, t->name),
                         err);
}

int sql_exec_create_table(SqlStmtCtx *c, CombErr *err)
{
    const AstQueryDef *q = c->stmt->qdef;
    MsTable t;
    int rc;
    if (q && q->query)
        return sql_exec_ctas(c, err);
    if (q && q->has_like)
        return sql_exec_create_like(c, err);
    if (q && q->n_part_names)
        return sql_err_at(err, COMB_ESEMANTIC, 0, q->part_pos,
                          "Partition columns can only declared using their "
                          "name and types in regular CREATE TABLE statements");
    if ((rc = sql_table_define(c, &t, err)))
        return rc;
    return sql_table_create(c, &t, err);
}

int sql_exec_drop_table(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AsideDirs aside = {0};
    const char *db = st->name.db ? st->name.db : c->s->db;
    MsTable *t;
    int rc = ms_table_get(c->s->ms, db, st->name.name, c->arena, &t, err);
    if (rc == COMB_ENOTFOUND) {
        if (st->if_exists)
            return COMB_OK;
        return sql_err_at(err, rc, 10001, st->name.pos, "Table not found '%s'",
                          st->name.name);
    }
    if (rc)
        return rc;
    if (t->table_type && strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0)
        return st->if_exists ? COMB_OK
                             : sql_err_at(err, COMB_EINVALID, 0, st->name.pos,
                                          "Cannot drop a view with DROP TABLE");
    if (sql_table_is_managed(t) && (rc = sql_aside_move(c, t->location, &aside, err)))
        return comb_err_prefix(err, "cannot drop table %s.%s", t->db, t->name);
    if ((rc = ms_table_drop(c->s->ms, db, st->name.name, false, err)))
        return sql_aside_put_back(c, &aside, err);
    return sql_aside_remove(c, &aside, err);
}

