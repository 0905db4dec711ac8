/*
 * ddl_alter.c - ALTER TABLE / ALTER VIEW on a table's definition, as Hive
 * 4 runs them: RENAME TO (a managed table's directory moves with it, made
 * durable before the catalog names it), ADD / REPLACE / CHANGE COLUMNS
 * (Hive's allowed type changes, hive.metastore.disallow.incompatible.col.
 * type.changes), SET / UNSET TBLPROPERTIES (Hive's
 * TransactionalValidationListener: a transactional table stays
 * transactional; plain tables become full ACID or insert-only), SET /
 * UNSET SERDEPROPERTIES and SET LOCATION; and the dispatch of every ALTER.
 * Each statement checks everything before it changes anything, and
 * changes the catalog in one metastore call.
 */
#include "sql/ddl/alter_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/buf.h"
#include "fs/fs.h"

#define PROP_TRANSACTIONAL "transactional"
#define PROP_TXN_PROPERTIES "transactional_properties"
/* Hive's seedWriteIdOnAcidConversion: write ids of a table converted to
 * full ACID start after this, above any synthetic one of its originals. */
#define ACID_CONVERSION_SEED 10000000

/* ---------------------------------------------------------- the target */

int sql_alter_target(SqlStmtCtx *c, const AstName *name, bool qualified_msg,
                     AlterTarget *out, CombErr *err)
{
    const char *db = name->db ? name->db : c->s->db;
    int rc = ms_table_get(c->s->ms, db, name->name, c->arena, &out->ms, err);
    if (rc == COMB_ENOTFOUND && (qualified_msg || name->db))
        return sql_err_at(err, rc, 10001, name->pos, "Table not found %s.%s",
                          db, name->name);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10001, name->pos, "Table not found %s",
                          name->name);
    if (rc || (rc = sql_table_from_ms(c, out->ms, &out->t, err)))
        return rc;
    out->db = out->ms->db;
    return COMB_OK;
}

/* --------------------------------------------------------- properties */

static int prop_find(const MsProperty *p, int n, const char *key, bool nocase)
{
    for (int i = 0; i < n; i++)
        if (nocase ? strcasecmp(p[i].key, key) == 0 : strcmp(p[i].key, key) == 0)
            return i;
    return -1;
}

/* The statement's own property `key` (exact case), -1 if not given. */
static int stmt_prop(const AstAlter *a, const char *key)
{
    for (int i = 0; i < a->n_props; i++)
        if (strcmp(a->props[i].key, key) == 0)
            return i;
    return -1;
}

/* The value of key (any case), or NULL. */
static const char *prop_ci(const MsProperty *p, int n, const char *key)
{
    int i = prop_find(p, n, key, true);
    return i >= 0 ? p[i].value : NULL;
}

/* Set key to value: replaced where it is, else appended (room needed). */
static void prop_put(MsProperty *p, int *n, const char *key, const char *value)
{
    int i = prop_find(p, *n, key, false);
    if (i < 0)
        i = (*n)++;
    p[i] = (MsProperty){(char *)key, (char *)value};
}

static void prop_remove(MsProperty *p, int *n, const char *key, bool nocase)
{
    int i = prop_find(p, *n, key, nocase);
    if (i < 0)
        return;
    memmove(&p[i], &p[i + 1], (size_t)(*n - i - 1) * sizeof *p);
    (*n)--;
}

/* A copy of list (n entries) with room for `more`. */
static MsProperty *props_copy(SqlStmtCtx *c, const MsProperty *list, int n,
                              int more)
{
    MsProperty *p = comb_arena_alloc(c->arena, (size_t)(n + more + 1) * sizeof *p);
    if (p && n)
        memcpy(p, list, (size_t)n * sizeof *p);
    return p;
}

/* A copy of the target's record whose properties may grow by `more`. */
static MsTable *table_copy(SqlStmtCtx *c, const MsTable *src, int more,
                           CombErr *err)
{
    MsTable *t = comb_arena_alloc(c->arena, sizeof *t);
    MsProperty *p = props_copy(c, src->props, src->n_props, more);
    if (!t || !p)
        return comb_err_nomem(err), NULL;
    *t = *src;
    t->props = p;
    return t;
}

int sql_alter_store(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    MsProperty *p = props_copy(c, t->props, t->n_props, 2);
    char *now = comb_arena_printf(c->arena, "%lld", (long long)time(NULL));
    if (!p || !now)
        return comb_err_nomem(err);
    /* Hive's AbstractAlterTableOperation stamps every altered table */
    prop_put(p, &t->n_props, "last_modified_by", c->s->user);
    prop_put(p, &t->n_props, "last_modified_time", now);
    t->props = p;
    return ms_table_alter(c->s->ms, t, err);
}

/* -------------------------------------------------------------- checks */

static bool is_view(const MsTable *t)
{
    return t->table_type && strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

static bool conf_false(SqlStmtCtx *c, const char *key)
{
    const char *v = sql_session_get_conf(c->s, key);
    return v && strcasecmp(v, "false") == 0;
}

/* Hive's AlterTableUtils.isSchemaEvolutionEnabled for an ORC table: ORC
 * files are read by name, so columns may not be reordered or dropped. */
static bool orc_schema_evolution(SqlStmtCtx *c, const AlterTarget *tg)
{
    return tg->t->format == SQL_FORMAT_ORC &&
           (ms_table_is_transactional(tg->ms) ||
            !conf_false(c, "hive.exec.schema.evolution"));
}

/* Hive's validateAlterTableType and the CASCADE rules of
 * addInputsOutputsAlterTable, before the operation runs. */
static int check_statement(SqlStmtCtx *c, const AlterTarget *tg, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstAlter *a = st->alter;
    static const char *const op_names[] = {
        [AST_ALTER_ADD_COLUMNS] = "add columns",
        [AST_ALTER_REPLACE_COLUMNS] = "replace columns",
        [AST_ALTER_CHANGE_COLUMN] = "rename column",
    };
    if (is_view(tg->ms) && !a->view)
        return sql_err_at(err, COMB_ESEMANTIC, 10131, st->name.pos,
                          "To alter a view you need to use the ALTER VIEW "
                          "command.");
    if (!is_view(tg->ms) && a->view)
        return sql_err_at(err, COMB_ESEMANTIC, 10132, st->name.pos,
                          "To alter a base table you need to use the ALTER "
                          "TABLE command.");
    if (!a->cascade)
        return COMB_OK;
    if (st->part.n > 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10300, a->op_pos,
                          "Alter table partition type %s does not support "
                          "cascade", op_names[a->kind]);
    if (tg->t->n_part == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10410, a->op_pos,
                          "Alter table with non-partitioned table does not "
                          "support cascade");
    return COMB_OK;
}

/* Operations comb keeps per table only: partitions keep no columns or
 * SerDe settings of their own (they read with the table's).  The spec is
 * still checked first, as Hive checks it. */
static int refuse_partition_level(SqlStmtCtx *c, const AlterTarget *tg,
                                  CombErr *err)
{
    static const char *const ops[] = {
        [AST_ALTER_ADD_COLUMNS] = "ADD COLUMNS",
        [AST_ALTER_REPLACE_COLUMNS] = "REPLACE COLUMNS",
        [AST_ALTER_CHANGE_COLUMN] = "CHANGE COLUMN",
        [AST_ALTER_SET_SERDE_PROPS] = "SET SERDEPROPERTIES",
        [AST_ALTER_UNSET_SERDE_PROPS] = "UNSET SERDEPROPERTIES",
    };
    AstAlterKind k = c->stmt->alter->kind;
    AlterPart *parts;
    int n, rc = sql_alter_spec(c, tg, &c->stmt->part, false, &parts, &n, err);
    if (rc)
        return rc;
    return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->part.pos,
                      "ALTER TABLE ... PARTITION (...) %s is not supported: "
                      "partitions have no %s of their own (alter the table)",
                      ops[k], k == AST_ALTER_SET_SERDE_PROPS ||
                                  k == AST_ALTER_UNSET_SERDE_PROPS
                                  ? "SerDe properties" : "columns");
}

/* ------------------------------------------------------------- RENAME */

/* Hive moves a managed table's directory only when it is the default one
 * (<database dir>/<table dir name>); a LOCATION or a renamed-aside
 * directory stays where it is. */
static int default_location(SqlStmtCtx *c, const MsDatabase *db,
                            const char *name, char **out, CombErr *err)
{
    char *dir = ms_table_dir_name(name, c->arena);
    char *path = dir ? comb_arena_printf(c->arena, "%s/%s", db->location, dir)
                     : NULL;
    if (!path)
        return comb_err_nomem(err);
    *out = path;
    return COMB_OK;
}

/* from moved to `to`, both parents fsynced so the move survives a crash. */
static int move_durable(SqlStmtCtx *c, const char *from, const char *to,
                        CombErr *err)
{
    char *pf = fs_dirname(c->arena, from), *pt = fs_dirname(c->arena, to);
    int rc;
    if (!pf || !pt)
        return comb_err_nomem(err);
    if ((rc = fs_rename(from, to, err)))
        return rc;
    if ((rc = fs_fsync_dir(pt, err)) || (rc = fs_fsync_dir(pf, err))) {
        CombErr ignored;
        fs_rename(to, from, &ignored);
        fs_fsync_dir(pf, &ignored);
    }
    return rc;
}

static int rename_error(SqlStmtCtx *c, int rc, CombErr *err)
{
    return sql_err_at(err, rc, 0, c->stmt->alter->new_name.pos,
                      "Unable to alter table. %s", err->msg);
}

/* Where the table's directory goes: *to NULL when it stays.  The
 * destination must not exist (Hive would move the table into it). */
static int rename_destination(SqlStmtCtx *c, const AlterTarget *tg,
                              const MsDatabase *ndb, char **to, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsDatabase *odb;
    char *old_default = NULL;
    int rc;
    *to = NULL;
    if (is_view(tg->ms) || !sql_table_is_managed(tg->ms))
        return COMB_OK;
    if ((rc = ms_db_get(c->s->ms, tg->db, c->arena, &odb, err)) ||
        (rc = default_location(c, odb, tg->ms->name, &old_default, err)))
        return rc;
    if (!old_default || strcmp(old_default, tg->ms->location) != 0)
        return COMB_OK;
    if ((rc = default_location(c, ndb, a->new_name.name, to, err)) || !*to)
        return rc;
    if (fs_exists(*to))
        return rename_error(c, comb_err(err, COMB_EEXISTS, "New location for "
                                        "this table hive.%s.%s already exists "
                                        ": %s", ndb->name, a->new_name.name,
                                        *to), err);
    return COMB_OK;
}

/* Hive's checks of the new name: its database exists, no table has it. */
static int rename_target(SqlStmtCtx *c, const char *new_db, MsDatabase **ndb,
                         CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsTable *existing;
    int rc = ms_db_get(c->s->ms, new_db, c->arena, ndb, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, a->new_name.pos,
                          "Database does not exist: %s", new_db);
    if (rc)
        return rc;
    rc = ms_table_get(c->s->ms, new_db, a->new_name.name, c->arena, &existing,
                      err);
    if (rc == COMB_OK)
        return rename_error(c, comb_err(err, COMB_EEXISTS, "new table %s.%s "
                                        "already exists", new_db,
                                        a->new_name.name), err);
    return rc == COMB_ENOTFOUND ? COMB_OK : rc;
}

/* The directory moves first (durably), then the catalog renames the table
 * with its partitions and write ids; a failed rename moves it back. */
static int alter_rename(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    const char *new_db = a->new_name.db ? a->new_name.db : tg->db;
    MsDatabase *ndb;
    char *to;
    bool moved = false;
    int rc;
    if (strcmp(new_db, tg->db) == 0 && strcmp(a->new_name.name, tg->ms->name) == 0)
        return COMB_OK;
    if ((rc = rename_target(c, new_db, &ndb, err)) ||
        (rc = rename_destination(c, tg, ndb, &to, err)))
        return rc;
    if (to && fs_exists(tg->ms->location)) {
        if ((rc = move_durable(c, tg->ms->location, to, err)))
            return sql_err_at(err, rc, 0, a->new_name.pos,
                              "Unable to alter table. Alter Table operation "
                              "for %s failed to move data due to: '%s'",
                              tg->t->qualified, err->msg);
        moved = true;
    }
    rc = ms_table_rename(c->s->ms, tg->db, tg->ms->name, new_db,
                         a->new_name.name, to, err);
    if (rc && moved) {
        CombErr why;
        if (move_durable(c, to, tg->ms->location, &why))
            comb_err_prefix(err, "the table's files are left in '%s' (%s)",
                            to, why.msg);
    }
    return rc == COMB_EEXISTS || rc == COMB_EINVALID ? rename_error(c, rc, err)
                                                     : rc;
}

/* ------------------------------------------------------------ columns */

/* Hive's ColumnType.getTypeName: the name without its parameters or
 * parts ("varchar(10)" is varchar, "array<int>" is array), "integer" as
 * int and "numeric" as decimal. */
static void type_category(const char *type, char *out, size_t cap)
{
    size_t n = 0;
    while (type[n] && (isalnum((unsigned char)type[n]) || type[n] == '_') &&
           n + 1 < cap) {
        out[n] = (char)tolower((unsigned char)type[n]);
        n++;
    }
    out[n] = '\0';
    if (strcmp(out, "integer") == 0)
        snprintf(out, cap, "int");
    else if (strcmp(out, "numeric") == 0)
        snprintf(out, cap, "decimal");
}

static int in_list(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0)
            return i + 1;
    return 0;
}

/* Hive's ColumnType.areColTypesCompatible on type categories. */
static bool types_compatible(const char *from_type, const char *to_type)
{
    static const char *const primitive[] = {
        "void", "boolean", "tinyint", "smallint", "int", "bigint", "float",
        "double", "string", "varchar", "char", "date", "datetime",
        "timestamp", "interval_year_month", "interval_day_time", "decimal",
        "binary", NULL};
    static const char *const strings[] = {"string", "varchar", "char", NULL};
    /* the order of up casts: a number may only widen */
    static const char *const numbers[] = {"tinyint", "smallint", "int",
                                          "bigint", "decimal", "float",
                                          "double", NULL};
    static const char *const datetimes[] = {"date", "datetime", "timestamp",
                                            NULL};
    char from[64], to[64];
    type_category(from_type, from, sizeof from);
    type_category(to_type, to, sizeof to);
    if (strcmp(from, to) == 0)
        return true;
    if (!in_list(from, primitive) || !in_list(to, primitive))
        return false;
    if (in_list(from, strings) && in_list(to, strings))
        return true;
    if (in_list(from, numbers) && in_list(to, numbers))
        return in_list(from, numbers) < in_list(to, numbers);
    return strcmp(from, "void") == 0 ||
           ((in_list(from, datetimes) || in_list(from, numbers)) &&
            in_list(to, strings));
}

/* Hive's metastore check (DefaultIncompatibleTableChangeHandler): column
 * i of the new list against column i of the old one. */
static int check_type_changes(SqlStmtCtx *c, const MsTable *old,
                              const MsColumn *cols, int n, CombErr *err)
{
    CombBuf names = COMB_BUF_INIT;
    int rc = COMB_OK;
    if (conf_false(c, "hive.metastore.disallow.incompatible.col.type.changes"))
        return COMB_OK;
    for (int i = 0; i < old->n_cols && i < n; i++)
        if (!types_compatible(old->cols[i].type, cols[i].type))
            comb_buf_printf(&names, "%s%s", names.len ? "," : "", cols[i].name);
    if (names.len)
        rc = sql_err_at(err, COMB_EINVALID, 0, c->stmt->alter->op_pos,
                        "Unable to alter table. The following columns have "
                        "types incompatible with the existing columns in "
                        "their respective positions :\n%.*s",
                        (int)names.len, (const char *)names.data);
    comb_buf_free(&names);
    return rc;
}

/* A column of ADD / REPLACE COLUMNS (Hive's columnNameTypeList: no
 * constraint there) or CHANGE (with_default: its DEFAULT is the
 * caller's). */
static int column_from_ast(SqlStmtCtx *c, const AstColumnDef *d,
                           bool with_default, MsColumn *out, CombErr *err)
{
    if (d->type.kind == COMB_T_UNION)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, d->type.pos,
                          "column '%s': type %s is not supported yet", d->name,
                          comb_type_name(d->type.kind));
    if (d->default_value && !with_default)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, d->default_value->pos,
                          "a DEFAULT constraint in ADD or REPLACE COLUMNS is "
                          "not supported (as in Hive; CHANGE COLUMN takes "
                          "one)");
    memset(out, 0, sizeof *out);
    out->name = d->name;
    out->comment = d->comment;
    out->type = comb_type_string(c->arena, d->type.type);
    return out->type ? COMB_OK : comb_err_nomem(err);
}

static int column_index(const MsColumn *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(cols[i].name, name) == 0)
            return i;
    return -1;
}

/* ADD COLUMNS: after the old ones, none of them already there. */
static int add_columns(SqlStmtCtx *c, const MsTable *old, MsColumn *cols,
                       int *n, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    int rc;
    memcpy(cols, old->cols, (size_t)old->n_cols * sizeof *cols);
    *n = old->n_cols;
    for (int i = 0; i < a->n_columns; i++) {
        if (column_index(cols, *n, a->columns[i].name) >= 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10036, a->columns[i].pos,
                              "Duplicate column name: %s", a->columns[i].name);
        if ((rc = column_from_ast(c, &a->columns[i], false, &cols[(*n)++],
                                   err)))
            return rc;
    }
    return COMB_OK;
}

/* REPLACE COLUMNS: an ORC table may not lose columns (its files are read
 * by name); names must be unique (Hive's Table.checkValidity). */
static int replace_columns(SqlStmtCtx *c, const AlterTarget *tg, MsColumn *cols,
                           int *n, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    int rc;
    if (orc_schema_evolution(c, tg) && a->n_columns < tg->ms->n_cols)
        return sql_err_at(err, COMB_EINVALID, 10313, a->op_pos,
                          "Replacing columns cannot drop columns for table "
                          "%s. SerDe may be incompatible", tg->t->qualified);
    *n = 0;
    for (int i = 0; i < a->n_columns; i++) {
        if (column_index(cols, *n, a->columns[i].name) >= 0)
            return sql_err_at(err, COMB_ESEMANTIC, 0, a->columns[i].pos,
                              "Duplicate column name %s in the table "
                              "definition.", a->columns[i].name);
        if ((rc = column_from_ast(c, &a->columns[i], false, &cols[(*n)++],
                                   err)))
            return rc;
    }
    return COMB_OK;
}

/* A column name in a bucket or sort column list follows its rename. */
static int rename_in_lists(SqlStmtCtx *c, MsTable *t, const char *from,
                           const char *to, CombErr *err)
{
    char **b = comb_arena_alloc(c->arena, (size_t)(t->n_bucket_cols + 1) * sizeof *b);
    MsSortCol *s = comb_arena_alloc(c->arena, (size_t)(t->n_sort_cols + 1) * sizeof *s);
    if (!b || !s)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_bucket_cols; i++)
        b[i] = strcasecmp(t->bucket_cols[i], from) == 0 ? (char *)to
                                                        : t->bucket_cols[i];
    for (int i = 0; i < t->n_sort_cols; i++) {
        s[i] = t->sort_cols[i];
        if (strcasecmp(s[i].name, from) == 0)
            s[i].name = (char *)to;
    }
    t->bucket_cols = b;
    t->sort_cols = s;
    return COMB_OK;
}

/* The DEFAULT of column `at` after CHANGE: the one nc gives, checked as
 * Hive's AlterTableChangeColumnAnalyzer does (against the new type; none
 * on an EXTERNAL table) and named apart from the table's others, else
 * the column's old one.  (Hive's metastore would keep the old constraint
 * beside the new; comb keeps one DEFAULT per column, the new.) */
static int change_default(SqlStmtCtx *c, const MsTable *old, int at,
                          const AstColumnDef *nc, MsColumn *moved,
                          CombErr *err)
{
    bool external = old->table_type &&
                    strcmp(old->table_type, MS_EXTERNAL_TABLE) == 0;
    int rc;
    if (!nc->default_value) {
        moved->default_value = old->cols[at].default_value;
        moved->default_name = old->cols[at].default_name;
        return COMB_OK;
    }
    if ((rc = sql_default_build(c, nc, old->db, old->name, external, moved,
                                err)))
        return rc;
    for (int i = 0; nc->default_name && i < old->n_cols; i++)
        if (i != at && old->cols[i].default_name &&
            strcasecmp(old->cols[i].default_name, nc->default_name) == 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10326, nc->pos,
                              "Invalid Constraint syntax Constraint name "
                              "already exists: %s", nc->default_name);
    return COMB_OK;
}

/* CHANGE [COLUMN] old new type [DEFAULT ...] [COMMENT] [FIRST | AFTER c],
 * as Hive's AlterTableChangeColumnOperation. */
static int change_column(SqlStmtCtx *c, const AlterTarget *tg, MsTable *t,
                         MsColumn *cols, int *n, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    const AstColumnDef *nc = &a->columns[0];
    const MsTable *old = tg->ms;
    MsColumn moved;
    int at = -1, pos = a->first ? 0 : -1, rc;
    if (orc_schema_evolution(c, tg) && (a->first || a->after))
        return sql_err_at(err, COMB_EINVALID, 10311, a->op_pos,
                          "Reordering columns is not supported for table %s. "
                          "SerDe may be incompatible", tg->t->qualified);
    *n = 0;
    for (int i = 0; i < old->n_cols; i++) {
        if (strcasecmp(old->cols[i].name, a->old_column) == 0) {
            at = i;
            if ((rc = column_from_ast(c, nc, true, &moved, err)) ||
                (rc = change_default(c, old, i, nc, &moved, err)))
                return rc;
            if (!nc->comment)
                moved.comment = old->cols[i].comment;
            if (a->first || a->after)
                continue;
            cols[(*n)++] = moved;
            continue;
        }
        if (strcasecmp(old->cols[i].name, nc->name) == 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10036, nc->pos,
                              "Duplicate column name: %s", nc->name);
        if (a->after && strcasecmp(old->cols[i].name, a->after) == 0)
            pos = *n + 1;
        cols[(*n)++] = old->cols[i];
    }
    if (at < 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10002, a->old_column_pos,
                          "Invalid column reference %s", a->old_column);
    if (a->after && pos < 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10002, a->after_pos,
                          "Invalid column reference %s", a->after);
    if (pos >= 0) {
        memmove(&cols[pos + 1], &cols[pos], (size_t)(*n - pos) * sizeof *cols);
        cols[pos] = moved;
        (*n)++;
    }
    return rename_in_lists(c, t, old->cols[at].name, moved.name, err);
}

/* Hive's Table.checkValidity and the metastore's bucket column check. */
static int check_new_columns(SqlStmtCtx *c, const MsTable *t,
                             const MsColumn *cols, int n, CombErr *err)
{
    AstPos pos = c->stmt->alter->op_pos;
    for (int i = 0; i < t->n_part_keys; i++)
        if (column_index(cols, n, t->part_keys[i].name) >= 0)
            return sql_err_at(err, COMB_ESEMANTIC, 0, pos,
                              "Partition column name %s conflicts with table "
                              "columns.", t->part_keys[i].name);
    for (int i = 0; i < t->n_bucket_cols; i++)
        if (column_index(cols, n, t->bucket_cols[i]) < 0)
            return sql_err_at(err, COMB_EINVALID, 0, pos,
                              "Unable to alter table. Bucket columns - [%s] "
                              "doesn't match with any table columns",
                              t->bucket_cols[i]);
    return COMB_OK;
}

static int alter_columns(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsTable *t;
    MsColumn *cols;
    int n = 0, rc;
    if (c->stmt->part.n > 0)
        return refuse_partition_level(c, tg, err);
    if (!(t = table_copy(c, tg->ms, 0, err)))
        return err->code;
    cols = comb_arena_calloc(c->arena, (size_t)(tg->ms->n_cols + a->n_columns + 1) * sizeof *cols);
    if (!cols)
        return comb_err_nomem(err);
    rc = a->kind == AST_ALTER_ADD_COLUMNS ? add_columns(c, tg->ms, cols, &n, err)
         : a->kind == AST_ALTER_REPLACE_COLUMNS
             ? replace_columns(c, tg, cols, &n, err)
             : change_column(c, tg, t, cols, &n, err);
    if (rc || (rc = check_new_columns(c, t, cols, n, err)) ||
        (rc = check_type_changes(c, tg->ms, cols, n, err)))
        return rc;
    t->cols = cols;
    t->n_cols = n;
    return sql_alter_store(c, t, err);
}

/* --------------------------------------------------------- TBLPROPERTIES */

static bool is_true(const char *v)
{
    return v && strcasecmp(v, "true") == 0;
}

static bool is_insert_only(const MsProperty *p, int n)
{
    const char *tp = prop_ci(p, n, PROP_TXN_PROPERTIES);
    return is_true(prop_ci(p, n, PROP_TRANSACTIONAL)) && tp &&
           strcasecmp(tp, "insert_only") == 0;
}

/* Hive's 'transactional' before the change: comb records
 * 'transactional'='false' where Hive records nothing. */
static const char *old_transactional(const MsTable *t)
{
    const char *v = prop_ci(t->props, t->n_props, PROP_TRANSACTIONAL);
    return v && strcasecmp(v, "false") == 0 ? NULL : v;
}

static int alter_fail(SqlStmtCtx *c, const char *fmt, const char *a,
                      const char *b, CombErr *err)
{
    char what[COMB_ERR_MSG_MAX];
    snprintf(what, sizeof what, fmt, a, b);
    return sql_err_at(err, COMB_EINVALID, 0, c->stmt->alter->op_pos,
                      "Unable to alter table. %s", what);
}

/* Hive's TransactionalValidationListener.validateTableStructure: the data
 * files of a table becoming full ACID must be named as originals
 * (000000_0, 000000_0_copy_1), so that rows get synthetic ROW__IDs. */
static bool original_name(const char *s)
{
    size_t a = strspn(s, "0123456789"), b;
    if (a == 0 || s[a] != '_')
        return false;
    b = strspn(s + a + 1, "0123456789");
    if (b == 0)
        return false;
    s += a + 1 + b;
    return *s == '\0' ||
           (strncmp(s, "_copy_", 6) == 0 && s[6] && strspn(s + 6, "0123456789") == strlen(s + 6));
}

static int check_original_names(SqlStmtCtx *c, const AlterTarget *tg,
                                const char *dir, CombErr *err)
{
    char **names;
    int n, rc;
    if (!fs_is_dir(dir))
        return COMB_OK;
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n && !rc; i++) {
        char *path = fs_join(c->arena, dir, names[i]);
        if (!path)
            return comb_err_nomem(err);
        if (names[i][0] == '_' || names[i][0] == '.')
            continue;
        if (fs_is_dir(path))
            rc = check_original_names(c, tg, path, err);
        else if (!original_name(names[i]))
            rc = alter_fail(c, "Unexpected data file name format.  Cannot "
                            "convert %s to transactional table.  File: %s",
                            tg->t->qualified, path, err);
    }
    return rc;
}

static int check_table_structure(SqlStmtCtx *c, const AlterTarget *tg,
                                 CombErr *err)
{
    SqlUnit *units;
    int n, rc = sql_table_units(c, tg->t, NULL, &units, &n, err);
    for (int i = 0; i < n && !rc; i++)
        rc = check_original_names(c, tg, units[i].dir, err);
    return rc;
}

/* Hive's TransactionalValidationListener.handleAlterTableTransactionalProp
 * on the table before (old) and after (t): once transactional, always
 * transactional; a table made transactional must fit (ORC for full ACID,
 * managed, originals' names), and 'transactional_properties' cannot
 * change afterwards. */
static int check_transactional(SqlStmtCtx *c, const AlterTarget *tg,
                               MsTable *t, CombErr *err)
{
    const MsTable *old = tg->ms;
    const char *q = tg->t->qualified;
    const char *tx = prop_ci(t->props, t->n_props, PROP_TRANSACTIONAL);
    const char *tx_old = old_transactional(old);
    const char *tp = prop_ci(t->props, t->n_props, PROP_TXN_PROPERTIES);
    const char *tp_old = prop_ci(old->props, old->n_props, PROP_TXN_PROPERTIES);
    bool old_mm = is_insert_only(old->props, old->n_props), valid;
    int rc;
    if (tx && strcasecmp(tx, "false") == 0)
        tx = NULL;
    if (tx && sql_table_is_managed(old) && !sql_table_is_managed(t))
        return alter_fail(c, "%s cannot be converted to external table as it "
                          "is transactional table.", q, NULL, err);
    valid = tx_old ? tx && strcasecmp(tx_old, tx) == 0 : !tx;
    if (is_true(tx) && !is_true(tx_old)) {
        bool full;
        if (!tp)
            prop_put(t->props, &t->n_props, PROP_TXN_PROPERTIES,
                     tp = "default");
        full = strcasecmp(tp, "insert_only") != 0;
        if (full && tg->t->format != SQL_FORMAT_ORC)
            return alter_fail(c, "The table must be stored using an ACID "
                              "compliant format (such as ORC): %s", q, NULL, err);
        if (!sql_table_is_managed(t))
            return alter_fail(c, "%s cannot be declared transactional because "
                              "it's an external table", q, NULL, err);
        if (full && (rc = check_table_structure(c, tg, err)))
            return rc;
        valid = true;
    }
    if (!valid && !old_mm)
        return alter_fail(c, "TBLPROPERTIES with 'transactional'='true' "
                          "cannot be unset: %s", q, NULL, err);
    if (tp && !tx_old && strcasecmp(tp, "default") != 0 &&
        strcasecmp(tp, "insert_only") != 0)
        return alter_fail(c, "Invalid transactional properties specified for "
                          "%s with the error unknown value %s for "
                          "transactional_properties", q, tp, err);
    if (tp && tx_old && (!tp_old || strcasecmp(tp_old, tp) != 0) && !old_mm)
        return alter_fail(c, "TBLPROPERTIES with 'transactional_properties' "
                          "cannot be altered after the table is created",
                          NULL, NULL, err);
    if (ms_table_is_transactional(t) && !is_insert_only(t->props, t->n_props) &&
        t->n_sort_cols > 0)
        return alter_fail(c, "Table %s cannot support full ACID functionality "
                          "since it is sorted.", q, NULL, err);
    return COMB_OK;
}

/* The kind of table SET TBLPROPERTIES makes (Hive's
 * AcidUtils.isToInsertOnlyTable): 1 insert-only, 0 another kind, -1 the
 * statement says nothing about it. */
static int to_insert_only(SqlStmtCtx *c, const MsTable *old, CombErr *err,
                          int *out)
{
    const AstAlter *a = c->stmt->alter;
    int i = stmt_prop(a, PROP_TRANSACTIONAL);
    int j = stmt_prop(a, PROP_TXN_PROPERTIES);
    const char *tx = i >= 0 ? a->props[i].value : old_transactional(old);
    *out = -1;
    if (i < 0 && j < 0)
        return COMB_OK;
    *out = 0;
    if (j < 0) {
        if (is_true(tx))
            return COMB_OK;
        return alter_fail(c, "Cannot change 'transactional' without "
                          "'transactional_properties'", NULL, NULL, err);
    }
    if (strcasecmp(a->props[j].value, "insert_only") != 0)
        return COMB_OK;
    if (!is_true(tx))
        return alter_fail(c, "Cannot set 'transactional_properties' to "
                          "'insert_only' without setting 'transactional' to "
                          "'true'", NULL, NULL, err);
    *out = 1;
    return COMB_OK;
}

/* Hive's checks of the keys and values themselves (stats keys must be
 * numbers; bucketing_version as CREATE TABLE checks it). */
static int check_property_values(SqlStmtCtx *c, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    for (int i = 0; i < a->n_props; i++) {
        const char *k = a->props[i].key, *v = a->props[i].value;
        CombErr why;
        int version;
        if (strcmp(k, "numRows") == 0 || strcmp(k, "rawDataSize") == 0) {
            char *end;
            errno = 0;
            (void)strtoll(v, &end, 10);
            if (!*v || *end || errno)
                return sql_err_at(err, COMB_EINVALID, 0, a->op_pos,
                                  "AlterTable %s failed with value %s", k, v);
        }
        if (strcmp(k, ACID_PROP_BUCKETING_VERSION) == 0 &&
            acid_bucketing_version_parse(v, &version, &why))
            return sql_err_at(err, why.code, 0, a->op_pos, "%s", why.msg);
    }
    return COMB_OK;
}

/* 'EXTERNAL'='TRUE' makes a managed table external, 'FALSE' an external
 * one managed (a view stays a view). */
static void apply_external(MsTable *t, const char *v)
{
    bool managed = t->table_type && strcmp(t->table_type, MS_MANAGED_TABLE) == 0;
    if (is_true(v) && managed)
        t->table_type = MS_EXTERNAL_TABLE;
    else if (!is_true(v) && !sql_table_is_managed(t))
        t->table_type = MS_MANAGED_TABLE;
}

static int alter_set_props(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    bool from_mm = is_insert_only(tg->ms->props, tg->ms->n_props);
    bool to_full, was_acid = tg->t->kind == SQL_TABLE_ACID;
    const char *tp;
    MsTable *t;
    int to_mm = -1, rc;
    if (c->stmt->part.n > 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->part.pos,
                          "ALTER TABLE ... PARTITION (...) SET TBLPROPERTIES "
                          "is not supported");
    if ((rc = check_property_values(c, err)) ||
        (!is_view(tg->ms) && (rc = to_insert_only(c, tg->ms, err, &to_mm))))
        return rc;
    if (!(t = table_copy(c, tg->ms, a->n_props + 1, err)))
        return err->code;
    tp = stmt_prop(a, PROP_TXN_PROPERTIES) >= 0
             ? a->props[stmt_prop(a, PROP_TXN_PROPERTIES)].value : NULL;
    to_full = ms_table_is_transactional(tg->ms) && tp &&
              strcasecmp(tp, "default") == 0 &&
              tg->t->format == SQL_FORMAT_ORC && tg->ms->n_sort_cols == 0;
    if (from_mm && to_full)
        prop_put(t->props, &t->n_props, PROP_TXN_PROPERTIES, "default");
    else if (from_mm && to_mm == 0)
        return alter_fail(c, "Cannot convert an ACID table to non-ACID", NULL,
                          NULL, err);
    for (int i = 0; i < a->n_props; i++)
        if (strcmp(a->props[i].key, "EXTERNAL") == 0)
            apply_external(t, a->props[i].value);
    for (int i = 0; i < a->n_props; i++)
        prop_put(t->props, &t->n_props, a->props[i].key, a->props[i].value);
    if (!is_view(tg->ms) && (rc = check_transactional(c, tg, t, err)))
        return rc;
    if (!from_mm && to_mm == 1)
        return sql_alter_to_insert_only(c, tg, t, err);
    if (!is_view(tg->ms) && !was_acid && !from_mm &&
        ms_table_is_transactional(t) && !is_insert_only(t->props, t->n_props) &&
        (rc = ms_writeid_seed(c->s->ms, tg->db, tg->ms->name,
                              ACID_CONVERSION_SEED, err)))
        return rc;
    return sql_alter_store(c, t, err);
}

static int alter_unset_props(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsTable *t;
    int rc;
    if (c->stmt->part.n > 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, c->stmt->part.pos,
                          "ALTER TABLE ... PARTITION (...) UNSET TBLPROPERTIES "
                          "is not supported");
    for (int i = 0; i < a->n_props && !a->if_exists; i++)
        if (prop_find(tg->ms->props, tg->ms->n_props, a->props[i].key, false) < 0)
            return sql_err_at(err, COMB_EINVALID, 10215, a->op_pos,
                              "Please use the following syntax if not sure "
                              "whether the property existed or not:\nALTER "
                              "TABLE tableName UNSET TBLPROPERTIES IF EXISTS "
                              "(key1, key2, ...)\n The following property %s "
                              "does not exist in %s", a->props[i].key,
                              tg->ms->name);
    if (!(t = table_copy(c, tg->ms, 0, err)))
        return err->code;
    for (int i = 0; i < a->n_props; i++) {
        const char *k = a->props[i].key;
        if (is_insert_only(tg->ms->props, tg->ms->n_props) &&
            (strcmp(k, PROP_TRANSACTIONAL) == 0 || strcmp(k, PROP_TXN_PROPERTIES) == 0))
            return alter_fail(c, "Cannot convert an ACID table to non-ACID",
                              NULL, NULL, err);
        if (strcmp(k, "EXTERNAL") == 0 && !sql_table_is_managed(t))
            t->table_type = MS_MANAGED_TABLE;
        prop_remove(t->props, &t->n_props, k, false);
    }
    if (!is_view(tg->ms) && (rc = check_transactional(c, tg, t, err)))
        return rc;
    return sql_alter_store(c, t, err);
}

/* ------------------------------------------------------ SERDEPROPERTIES */

static int alter_serde_props(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsTable *t;
    SqlTable *typed;
    TextOptions opt;
    int rc;
    if (c->stmt->part.n > 0)
        return refuse_partition_level(c, tg, err);
    if (!(t = table_copy(c, tg->ms, 0, err)) ||
        !(t->serde_params = props_copy(c, tg->ms->serde_params,
                                       tg->ms->n_serde_params, a->n_props)))
        return err->code ? err->code : comb_err_nomem(err);
    for (int i = 0; i < a->n_props; i++) {
        if (a->kind == AST_ALTER_UNSET_SERDE_PROPS)
            prop_remove(t->serde_params, &t->n_serde_params, a->props[i].key, false);
        else
            prop_put(t->serde_params, &t->n_serde_params, a->props[i].key,
                     a->props[i].value);
    }
    /* a text table must still read with its new settings */
    if (tg->t->format == SQL_FORMAT_TEXT &&
        ((rc = sql_table_from_ms(c, t, &typed, err)) ||
         (rc = sql_table_text_options(typed, &opt, err))))
        return sql_err_at(err, rc, 0, a->op_pos, "%s", err->msg);
    return sql_alter_store(c, t, err);
}

/* ------------------------------------------------------------ LOCATION */

/* Hive's 10244 for a relative location; a file: URI or an absolute path
 * is taken (other schemes are refused as for CREATE). */
static int new_location(SqlStmtCtx *c, char **out, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    int rc;
    if (a->location[0] != '/' && strncasecmp(a->location, "file:", 5) != 0 &&
        !strchr(a->location, ':'))
        return sql_err_at(err, COMB_EINVALID, 10244, a->location_pos,
                          "%s  is not absolute.  Please specify a complete "
                          "absolute uri.", a->location);
    if ((rc = sql_absolute_location(c, a->location, out, err)))
        return sql_err_at(err, rc, 0, a->location_pos, "%s", err->msg);
    return COMB_OK;
}

/* A transactional table may not move onto another table's ACID history. */
static int check_acid_location(SqlStmtCtx *c, const AlterTarget *tg,
                               const char *dir, CombErr *err)
{
    const char *found;
    int n, rc;
    if (!ms_table_is_transactional(tg->ms))
        return COMB_OK;
    if ((rc = sql_first_acid_dir(c, dir, &found, &n, err)) || !found)
        return rc;
    return sql_err_at(err, COMB_EINVALID, 0, c->stmt->alter->location_pos,
                      "location '%s' holds ACID data of another table ('%s'); "
                      "remove it or choose another LOCATION", dir, found);
}

static int alter_set_location(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AlterPart *parts = NULL;
    MsTable *t = NULL;
    char *dir;
    int n, made = 0, rc;
    if ((rc = new_location(c, &dir, err)))
        return rc;
    if (st->part.n > 0) {
        if ((rc = sql_alter_spec(c, tg, &st->part, false, &parts, &n, err)))
            return rc;
        if (st->part.n < tg->t->n_part)
            return sql_err_at(err, COMB_ESEMANTIC, 10299, st->part.pos,
                              "Alter table partition type set location does "
                              "not allow partial partition spec");
        if (!parts[0].ms)
            return sql_alter_no_partition(c, &st->part, err);
    } else if (!(t = table_copy(c, tg->ms, 0, err))) {
        return err->code;
    }
    if ((rc = check_acid_location(c, tg, dir, err)) ||
        (rc = fs_mkdirs_n(dir, &made, err)))
        return rc;
    if (t) {
        t->location = dir;
        rc = sql_alter_store(c, t, err);
    } else {
        rc = ms_part_set_location(c->s->ms, tg->db, tg->ms->name, parts[0].name,
                                  dir, err);
    }
    if (rc)
        fs_rmdirs_empty(dir, made);
    return rc;
}

/* CLUSTERED BY / INTO n BUCKETS / NOT CLUSTERED.  The bucketing of a
 * transactional table says which file holds each row (writers place rows
 * by it, readers pair a bucket's delete events with its rows, bucket
 * pruning skips files by it) and no ALTER rewrites the files, so it is
 * refused there (Hive 4 changes the metadata alone, and its readers then
 * look for rows in buckets their hash no longer names).  Other tables:
 * not supported yet. */
static int alter_bucketing(SqlStmtCtx *c, const AlterTarget *tg, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AstPos pos = st->alter->op_pos;
    if (st->n_cluster_cols == 0 && st->n_buckets > 0 &&
        tg->ms->n_bucket_cols == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10145, pos,
                          "Table is not bucketized.");
    if (ms_table_is_transactional(tg->ms))
        return sql_err_at(err, COMB_ESEMANTIC, 0, pos,
                          "The bucketing of transactional table %s cannot be "
                          "changed: its rows stay in the bucket files the "
                          "present bucketing chose (copy them into a new "
                          "table with INSERT ... SELECT instead)",
                          tg->t->qualified);
    return comb_err(err, COMB_EUNSUPPORTED,
                    "line %d:%d ALTER TABLE %s is not supported for "
                    "non-transactional tables", pos.line,
                    pos.col > 0 ? pos.col - 1 : 0,
                    st->n_cluster_cols ? "CLUSTERED BY"
                    : st->n_buckets > 0 ? "INTO BUCKETS" : "NOT CLUSTERED");
}

/* ------------------------------------------------------------ dispatch */

int sql_exec_alter(SqlStmtCtx *c, CombErr *err)
{
    AlterTarget tg;
    int rc = sql_alter_target(c, &c->stmt->name, true, &tg, err);
    if (rc || (rc = check_statement(c, &tg, err)))
        return rc;
    switch (c->stmt->alter->kind) {
    case AST_ALTER_RENAME: return alter_rename(c, &tg, err);
    case AST_ALTER_ADD_COLUMNS:
    case AST_ALTER_REPLACE_COLUMNS:
    case AST_ALTER_CHANGE_COLUMN: return alter_columns(c, &tg, err);
    case AST_ALTER_SET_PROPS: return alter_set_props(c, &tg, err);
    case AST_ALTER_UNSET_PROPS: return alter_unset_props(c, &tg, err);
    case AST_ALTER_SET_SERDE_PROPS:
    case AST_ALTER_UNSET_SERDE_PROPS: return alter_serde_props(c, &tg, err);
    case AST_ALTER_SET_LOCATION: return alter_set_location(c, &tg, err);
    case AST_ALTER_ADD_PARTITIONS: return sql_alter_add_partitions(c, &tg, err);
    case AST_ALTER_DROP_PARTITIONS: return sql_alter_drop_partitions(c, &tg, err);
    case AST_ALTER_CONCATENATE: return sql_alter_concatenate(c, &tg, err);
    case AST_ALTER_COMPACT: return sql_alter_compact(c, &tg, err);
    case AST_ALTER_BUCKETING: return alter_bucketing(c, &tg, err);
    }
    return COMB_INTERNAL(err, "ALTER kind not handled");
}
