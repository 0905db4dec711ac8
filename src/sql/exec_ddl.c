/*
 * exec_ddl.c - catalog statements: CREATE/DROP DATABASE, USE, CREATE/DROP
 * TABLE, SHOW DATABASES/TABLES, DESCRIBE, and SET.
 *
 * Files and catalog rows stay consistent across failures and crashes:
 *  - CREATE: the directory is made (and, with its parent, fsynced) before
 *    the catalog row that names it is committed; if the commit fails, the
 *    directories it made are removed again while still empty.
 *  - DROP: the directory is first renamed aside to a hidden sibling (the
 *    rename fsynced), then the catalog rows are removed, then the renamed
 *    tree; if the catalog commit fails, the directory is put back.  A DROP
 *    that fails leaves the table whole; one that succeeds leaves nothing a
 *    new table could read, even when the files cannot be removed.
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
#include "sql/rowstore.h"
#include "sql/value.h"

/* ------------------------------------------------------------- output */

typedef struct TextResult {
    SqlRowStore rs;
    int n_cols;
} TextResult;

static int text_begin(TextResult *tr, int n_cols)
{
    CombTypeKind kinds[8];
    for (int i = 0; i < n_cols; i++)
        kinds[i] = COMB_T_STRING;
    tr->n_cols = n_cols;
    return sql_rows_init(&tr->rs, n_cols, kinds);
}

/* Append one row of n_cols strings (NULL pointer = SQL NULL). */
static int text_row(TextResult *tr, const char *const *vals, CombErr *err)
{
    SqlDatum *row;
    int rc = sql_rows_add(&tr->rs, &row, err);
    if (rc)
        return rc;
    for (int i = 0; i < tr->n_cols; i++) {
        char *p;
        if (!vals[i])
            continue;
        p = comb_arena_strdup(&tr->rs.arena, vals[i]);
        if (!p)
            return comb_err_nomem(err);
        row[i].null = false;
        row[i].s = (CombStr){p, (uint32_t)strlen(p)};
    }
    return COMB_OK;
}

static int text_emit(SqlStmtCtx *c, TextResult *tr, const char *const *names,
                     CombErr *err)
{
    const SqlSink *sink = c->sink;
    int rc = COMB_OK;
    if (sink->begin)
        rc = sink->begin(sink->ctx, tr->n_cols, names, tr->rs.kinds, err);
    if (!rc)
        rc = sql_rows_emit(&tr->rs, tr->n_cols, -1, sink, err);
    if (!rc && sink->end)
        rc = sink->end(sink->ctx, err);
    sql_rows_free(&tr->rs);
    return rc;
}

/* Hive's SHOW ... LIKE pattern: '*' any run, '|' alternatives, no case. */
static bool show_pattern_match(const char *pat, const char *name)
{
    char alt[256];
    const char *p = pat;
    if (!pat)
        return true;
    while (*p) {
        size_t n = strcspn(p, "|");
        CombStr s = {name, (uint32_t)strlen(name)};
        CombStr like;
        size_t k = 0;
        for (size_t i = 0; i < n && k + 2 < sizeof alt; i++)
            alt[k++] = (char)(p[i] == '*' ? '%' : tolower((unsigned char)p[i]));
        alt[k] = '\0';
        like = (CombStr){alt, (uint32_t)k};
        char lower[256];
        size_t m = strlen(name) < sizeof lower - 1 ? strlen(name) : sizeof lower - 1;
        for (size_t i = 0; i < m; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        s = (CombStr){lower, (uint32_t)m};
        if (sql_like_match(s, like))
            return true;
        p += n;
        if (*p == '|')
            p++;
    }
    return false;
}

/* ----------------------------------------------------------- databases */

static int db_missing(const AstName *n, CombErr *err)
{
    return sql_err_at(err, COMB_ENOTFOUND, 10072, n->pos,
                      "Database does not exist: %s", n->name);
}

/* A LOCATION as the user wrote it, made absolute against this process's
 * working directory (Hive qualifies locations the same way), so every
 * process finds the same directory. */
static int absolute_location(SqlStmtCtx *c, const char *location, char **out,
                             CombErr *err)
{
    *out = fs_absolute(c->arena, location);
    if (!*out)
        return comb_err(err, COMB_EIO,
                        "cannot make location '%s' absolute: the working "
                        "directory is unknown or too long", location);
    return COMB_OK;
}

/* What CREATE does after looking its object up (lookup_rc): go on
 * (COMB_OK, *done false), stop quietly under IF NOT EXISTS (*done), or
 * fail: COMB_EEXISTS, or the lookup's own error. */
static int create_check(int lookup_rc, bool if_not_exists, bool *done)
{
    *done = lookup_rc == COMB_OK && if_not_exists;
    if (lookup_rc == COMB_OK)
        return *done ? COMB_OK : COMB_EEXISTS;
    return lookup_rc == COMB_ENOTFOUND ? COMB_OK : lookup_rc;
}

static int exec_create_database(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsDatabase db = {0}, *existing;
    bool done;
    int made = 0, rc;
    db.name = st->name.name;
    db.comment = st->comment;
    db.owner = c->s->user;
    rc = create_check(ms_db_get(c->s->ms, st->name.name, c->arena, &existing,
                                err),
                      st->if_not_exists, &done);
    if (done)
        return COMB_OK;
    if (!rc && st->location)
        rc = absolute_location(c, st->location, &db.location, err);
    else if (!rc && !(db.location = comb_arena_printf(
                          c->arena, "%s/%s.db", c->s->warehouse,
                          st->name.name)))
        rc = comb_err_nomem(err);
    /* the directory is durable before the catalog row naming it */
    if (!rc && !(rc = fs_mkdirs_n(db.location, &made, err)) &&
        (rc = ms_db_create(c->s->ms, &db, st->if_not_exists, err)))
        fs_rmdirs_empty(db.location, made);
    if (rc == COMB_EEXISTS)
        return sql_err_at(err, rc, 10242, st->name.pos,
                          "Database %s already exists", st->name.name);
    return rc;
}

/* Directories a DROP renamed aside: removed after the catalog commit, put
 * back if it fails. */
typedef struct AsideDirs {
    char **from;             /* where each was */
    char **to;               /* its hidden name now */
    int n, cap;
} AsideDirs;

/* Never move or remove the warehouse or a directory holding it (a
 * database or table given the warehouse as LOCATION). */
static bool holds_warehouse(const SqlStmtCtx *c, const char *dir)
{
    size_t n = strlen(dir);
    const char *wh = c->s->warehouse;
    return strncmp(wh, dir, n) == 0 && (wh[n] == '\0' || wh[n] == '/' ||
                                        strcmp(dir, "/") == 0);
}

static int move_aside(SqlStmtCtx *c, const char *dir, AsideDirs *l,
                      CombErr *err)
{
    char *to;
    int rc;
    if (!fs_exists(dir) || holds_warehouse(c, dir))
        return COMB_OK;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        char **from = comb_arena_alloc(c->arena, (size_t)cap * sizeof *from);
        char **tos = comb_arena_alloc(c->arena, (size_t)cap * sizeof *tos);
        if (!from || !tos)
            return comb_err_nomem(err);
        if (l->n) {
            memcpy(from, l->from, (size_t)l->n * sizeof *from);
            memcpy(tos, l->to, (size_t)l->n * sizeof *tos);
        }
        l->from = from;
        l->to = tos;
        l->cap = cap;
    }
    if ((rc = fs_rename_aside(dir, "dropped", c->arena, &to, err)))
        return rc;
    l->from[l->n] = (char *)dir;
    l->to[l->n++] = to;
    return COMB_OK;
}

/* The DROP failed (err says why): everything goes back where it was.
 * What cannot go back is named in err, so the user can move it. */
static int put_back(SqlStmtCtx *c, AsideDirs *l, CombErr *err)
{
    int rc = err->code;
    for (int i = l->n - 1; i >= 0; i--) {
        char *parent = fs_dirname(c->arena, l->from[i]);
        CombErr why;
        if (fs_rename(l->to[i], l->from[i], &why) == COMB_OK && parent)
            fs_fsync_dir(parent, &why);
        else
            comb_err_prefix(err, "the files of '%s' are left in '%s' (%s)",
                            l->from[i], l->to[i], why.msg);
    }
    return rc;
}

/* After the catalog commit: the DROP has happened.  Files that cannot be
 * removed stay under their hidden names, which no table reads; the user
 * is told where. */
static int remove_aside(SqlStmtCtx *c, const AsideDirs *l, CombErr *err)
{
    for (int i = 0; i < l->n; i++) {
        CombErr why;
        char *line;
        if (fs_remove_tree(l->to[i], &why) == COMB_OK || !c->sink->info)
            continue;
        line = comb_arena_printf(c->arena,
                                 "WARNING: dropped, but could not remove its "
                                 "files (%s); they are left in '%s'",
                                 why.msg, l->to[i]);
        if (!line)
            return comb_err_nomem(err);
        int rc = c->sink->info(c->sink->ctx, line, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static bool is_managed(const MsTable *t)
{
    return strcmp(t->table_type, "EXTERNAL_TABLE") != 0;
}

/* CASCADE: managed tables whose directory lies outside the database's go
 * aside one by one; the database directory takes the others with it. */
static int move_tables_aside(SqlStmtCtx *c, const MsDatabase *db,
                             AsideDirs *l, CombErr *err)
{
    size_t n_loc = strlen(db->location);
    char **names;
    int n, rc;
    if ((rc = ms_table_list(c->s->ms, db->name, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        MsTable *t;
        if ((rc = ms_table_get(c->s->ms, db->name, names[i], c->arena, &t,
                               err)))
            return rc;
        if (!is_managed(t) || (strncmp(t->location, db->location, n_loc) == 0 &&
                               t->location[n_loc] == '/'))
            continue;
        if ((rc = move_aside(c, t->location, l, err)))
            return rc;
    }
    return COMB_OK;
}

static int exec_drop_database(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AsideDirs aside = {0};
    MsDatabase *db;
    int rc = ms_db_get(c->s->ms, st->name.name, c->arena, &db, err);
    if (rc == COMB_ENOTFOUND)
        return st->if_exists ? COMB_OK : db_missing(&st->name, err);
    if (rc)
        return rc;
    if (strcmp(db->name, "default") == 0)
        return sql_err_at(err, COMB_EINVALID, 0, st->name.pos,
                          "Can not drop default database");
    if ((st->cascade && (rc = move_tables_aside(c, db, &aside, err))) ||
        (rc = move_aside(c, db->location, &aside, err))) {
        comb_err_prefix(err, "cannot drop database %s", db->name);
        return put_back(c, &aside, err);
    }
    /* one catalog transaction drops the database and all its tables */
    rc = ms_db_drop(c->s->ms, db->name, false, st->cascade, err);
    if (rc == COMB_EINVALID)
        rc = sql_err_at(err, rc, 10060, st->name.pos,
                        "Database %s is not empty. One or more tables exist.",
                        db->name);
    if (rc)
        return put_back(c, &aside, err);
    if (strcmp(c->s->db, db->name) == 0) {
        char *d = comb_strdup("default");
        if (!d)
            return comb_err_nomem(err);
        comb_free(c->s->db);
        c->s->db = d;
    }
    return remove_aside(c, &aside, err);
}

static int exec_use(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsDatabase *db;
    char *name;
    int rc = ms_db_get(c->s->ms, st->name.name, c->arena, &db, err);
    if (rc == COMB_ENOTFOUND)
        return db_missing(&st->name, err);
    if (rc)
        return rc;
    if (!(name = comb_strdup(db->name)))
        return comb_err_nomem(err);
    comb_free(c->s->db);
    c->s->db = name;
    return COMB_OK;
}

static int exec_show_databases(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"database_name"};
    TextResult tr;
    char **dbs;
    int n, rc;
    if ((rc = ms_db_list(c->s->ms, c->arena, &dbs, &n, err)))
        return rc;
    if (text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        if (show_pattern_match(c->stmt->like_pattern, dbs[i]))
            rc = text_row(&tr, (const char *const *)&dbs[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return text_emit(c, &tr, names, err);
}

static int exec_show_tables(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"tab_name"};
    const AstStmt *st = c->stmt;
    const char *db = st->show_in ? st->name.name : c->s->db;
    MsDatabase *d;
    TextResult tr;
    char **tables;
    int n, rc = ms_db_get(c->s->ms, db, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, st->name.pos,
                          "Database does not exist: %s", db);
    if (rc || (rc = ms_table_list(c->s->ms, db, c->arena, &tables, &n, err)))
        return rc;
    if (text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        if (show_pattern_match(st->like_pattern, tables[i]))
            rc = text_row(&tr, (const char *const *)&tables[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return text_emit(c, &tr, names, err);
}

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
    }
    return COMB_OK;
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
    for (int i = 0; i < st->n_cluster_cols; i++) {
        bool found = false;
        for (int j = 0; j < st->n_columns; j++)
            found |= strcmp(st->columns[j].name, st->cluster_cols[i]) == 0;
        if (!found)
            return sql_err_at(err, COMB_ESEMANTIC, 10002, st->cluster_pos,
                              "Invalid column reference '%s' in CLUSTERED BY",
                              st->cluster_cols[i]);
    }
    t->n_buckets = (int)st->n_buckets;
    t->n_bucket_cols = st->n_cluster_cols;
    t->bucket_cols = st->cluster_cols;
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

/* Hive's TransactionalValidationListener rules, and hive.create.as.acid. */
static int build_acid_properties(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *tx = st->transactional ? "true" : prop_value(st, "transactional");
    const char *as_acid = sql_session_get_conf(c->s, "hive.create.as.acid");
    bool acid;
    int n = 0;
    if (tx && strcasecmp(tx, "true") != 0 && strcasecmp(tx, "false") != 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "'transactional' property of TBLPROPERTIES may only "
                          "have value 'true': %s.%s", t->db, t->name);
    acid = tx ? strcasecmp(tx, "true") == 0
              : !st->external && !(as_acid && strcasecmp(as_acid, "false") == 0) &&
                    (!st->stored_as || strcmp(st->stored_as, "orc") == 0);
    if (acid && st->external)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "%s.%s cannot be declared transactional because it's "
                          "an external table", t->db, t->name);
    if (acid && st->stored_as && strcmp(st->stored_as, "orc") != 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "The table must be stored using an ACID compliant "
                          "format (such as ORC): %s.%s", t->db, t->name);
    if (acid && st->n_sort_cols > 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->name.pos,
                          "Table %s.%s cannot support full ACID functionality "
                          "since it is sorted.", t->db, t->name);
    t->props = comb_arena_calloc(c->arena, (size_t)(st->n_props + 3) * sizeof *t->props);
    if (!t->props)
        return comb_err_nomem(err);
    for (int i = 0; i < st->n_props; i++)
        if (strcasecmp(st->props[i].key, "transactional") != 0)
            t->props[n++] = (MsProperty){st->props[i].key, st->props[i].value};
    t->props[n++] = (MsProperty){"transactional", acid ? "true" : "false"};
    t->n_props = n;
    return add_bucketing_version(st, t, err);
}

/* The table's LOCATION made absolute, or its default location in the
 * database's directory; the database must exist. */
static int table_location(SqlStmtCtx *c, const char *db, const char *name,
                          char **out, CombErr *err)
{
    MsDatabase *d;
    int rc = ms_db_get(c->s->ms, db, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, c->stmt->name.pos,
                          "Database does not exist: %s", db);
    if (rc)
        return rc;
    if (c->stmt->location)
        return absolute_location(c, c->stmt->location, out, err);
    *out = comb_arena_printf(c->arena, "%s/%s", d->location, name);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* The first entry of dir that looks like an ACID directory, or NULL (also
 * for a missing dir).  *n_entries gets the number of entries. */
static int first_acid_dir(SqlStmtCtx *c, const char *dir, const char **found,
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
 * transactional table may not start in a LOCATION holding ACID
 * directories: their write ids belong to another table's history. */
static int choose_table_dir(SqlStmtCtx *c, MsTable *t, CombErr *err)
{
    const char *acid_dir;
    char *base = t->location;
    int n_entries, rc;
    if ((rc = first_acid_dir(c, base, &acid_dir, &n_entries, err)))
        return rc;
    if (c->stmt->location) {
        if (acid_dir && ms_table_is_transactional(t))
            return sql_err_at(err, COMB_EINVALID, 0, c->stmt->name.pos,
                              "location '%s' holds ACID data of another "
                              "table ('%s'); remove it or choose another "
                              "LOCATION", base, acid_dir);
        return COMB_OK;
    }
    if (!is_managed(t) || n_entries == 0)
        return COMB_OK;
    for (int v = 1; fs_exists(t->location); v++)
        if (!(t->location = comb_arena_printf(c->arena, "%s.v%07d", base, v)))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int exec_create_table(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsTable t = {0}, *existing;
    bool done;
    int made = 0, rc;
    if (st->n_partition_cols > 0)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, st->partition_cols[0].pos,
                          "partitioned tables are not supported yet");
    if (st->temporary)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, st->pos,
                          "temporary tables are not supported yet");
    t.db = st->name.db ? st->name.db : c->s->db;
    t.name = st->name.name;
    t.owner = c->s->user;
    t.comment = st->comment;
    t.create_time = (int64_t)time(NULL);
    t.table_type = st->external ? "EXTERNAL_TABLE" : "MANAGED_TABLE";
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    t.serde = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    if ((rc = build_columns(c, &t, err)) || (rc = build_bucketing(c, &t, err)) ||
        (rc = build_acid_properties(c, &t, err)) ||
        (rc = table_location(c, t.db, t.name, &t.location, err)))
        return rc;
    rc = create_check(ms_table_get(c->s->ms, t.db, t.name, c->arena,
                                   &existing, err),
                      st->if_not_exists, &done);
    if (done)
        return COMB_OK;
    /* the directory is durable before the catalog row naming it */
    if (!rc && !(rc = choose_table_dir(c, &t, err)) &&
        !(rc = fs_mkdirs_n(t.location, &made, err)) &&
        (rc = ms_table_create(c->s->ms, &t, st->if_not_exists, err)))
        fs_rmdirs_empty(t.location, made);
    if (rc == COMB_EEXISTS)
        return sql_err_at(err, rc, 10073, st->name.pos,
                          "Table already exists: %s.%s", t.db, t.name);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, st->name.pos,
                          "Database does not exist: %s", t.db);
    return rc;
}

static int exec_drop_table(SqlStmtCtx *c, CombErr *err)
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
    if (is_managed(t) && (rc = move_aside(c, t->location, &aside, err)))
        return comb_err_prefix(err, "cannot drop table %s.%s", t->db, t->name);
    if ((rc = ms_table_drop(c->s->ms, db, st->name.name, false, err)))
        return put_back(c, &aside, err);
    return remove_aside(c, &aside, err);
}

/* DESCRIBE [FORMATTED]: col_name, data_type, comment (+ table details). */
static int describe_details(TextResult *tr, const MsTable *t, CombErr *err)
{
    char created[64], buckets[32];
    time_t ct = (time_t)t->create_time;
    struct tm tm;
    const char *rows[][3] = {
        {"", NULL, NULL},
        {"# Detailed Table Information", NULL, NULL},
        {"Database:", t->db, NULL},
        {"OwnerType:", "USER", NULL},
        {"Owner:", t->owner, NULL},
        {"CreateTime:", created, NULL},
        {"Location:", t->location, NULL},
        {"Table Type:", t->table_type, NULL},
        {"Table Parameters:", NULL, NULL},
    };
    int rc = COMB_OK;
    gmtime_r(&ct, &tm);
    strftime(created, sizeof created, "%a %b %d %H:%M:%S UTC %Y", &tm);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !rc; i++)
        rc = text_row(tr, rows[i], err);
    for (int i = 0; i < t->n_props && !rc; i++) {
        const char *r[3] = {"", t->props[i].key, t->props[i].value};
        rc = text_row(tr, r, err);
    }
    snprintf(buckets, sizeof buckets, "%d", t->n_buckets);
    const char *storage[][3] = {
        {"", NULL, NULL},
        {"# Storage Information", NULL, NULL},
        {"SerDe Library:", t->serde, NULL},
        {"InputFormat:", t->input_format, NULL},
        {"OutputFormat:", t->output_format, NULL},
        {"Num Buckets:", buckets, NULL},
    };
    for (size_t i = 0; i < sizeof storage / sizeof storage[0] && !rc; i++)
        rc = text_row(tr, storage[i], err);
    if (!rc && t->n_bucket_cols > 0) {
        CombBuf b = COMB_BUF_INIT;
        comb_buf_append_byte(&b, '[');
        for (int i = 0; i < t->n_bucket_cols; i++)
            comb_buf_printf(&b, "%s%s", i ? ", " : "", t->bucket_cols[i]);
        comb_buf_append_str(&b, "]");
        comb_buf_append_byte(&b, '\0');
        const char *r[3] = {"Bucket Columns:", b.data ? (char *)b.data : "[]", NULL};
        rc = text_row(tr, r, err);
        comb_buf_free(&b);
    }
    return rc;
}

static int exec_describe(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"col_name", "data_type", "comment"};
    SqlTable *t;
    TextResult tr;
    int rc;
    if ((rc = sql_table_resolve(c, &c->stmt->name, &t, err)))
        return rc;
    if (text_begin(&tr, 3))
        return comb_err_nomem(err);
    if (c->stmt->describe_formatted) {
        const char *hdr[3] = {"# col_name", "data_type", "comment"};
        rc = text_row(&tr, hdr, err);
    }
    for (int i = 0; i < t->ms->n_cols && !rc; i++) {
        const MsColumn *col = &t->ms->cols[i];
        const char *r[3] = {col->name, col->type, col->comment ? col->comment : ""};
        rc = text_row(&tr, r, err);
    }
    if (!rc && (c->stmt->describe_formatted || c->stmt->describe_extended))
        rc = describe_details(&tr, t->ms, err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return text_emit(c, &tr, names, err);
}

int sql_exec_ddl(SqlStmtCtx *c, CombErr *err)
{
    switch (c->stmt->kind) {
    case AST_CREATE_DATABASE: return exec_create_database(c, err);
    case AST_DROP_DATABASE: return exec_drop_database(c, err);
    case AST_USE: return exec_use(c, err);
    case AST_CREATE_TABLE: return exec_create_table(c, err);
    case AST_DROP_TABLE: return exec_drop_table(c, err);
    case AST_SHOW_DATABASES: return exec_show_databases(c, err);
    case AST_SHOW_TABLES: return exec_show_tables(c, err);
    case AST_DESCRIBE: return exec_describe(c, err);
    default: return COMB_INTERNAL(err, "statement kind not handled");
    }
}

/* ------------------------------------------------------------------ SET */

static int set_info(SqlStmtCtx *c, const char *line, CombErr *err)
{
    return c->sink->info ? c->sink->info(c->sink->ctx, line, err) : COMB_OK;
}

int sql_exec_set(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    SqlSession *s = c->s;
    const char *key = st->set_key;
    int rc = COMB_OK;
    if (!key) {
        for (int i = 0; i < s->vars.n && !rc; i++)
            rc = set_info(c, comb_arena_printf(c->arena, "hivevar:%s=%s",
                                               s->vars.items[i].key,
                                               s->vars.items[i].value), err);
        for (int i = 0; i < s->conf.n && !rc; i++)
            rc = set_info(c, comb_arena_printf(c->arena, "%s=%s",
                                               s->conf.items[i].key,
                                               s->conf.items[i].value), err);
        return rc;
    }
    if (!st->set_value) {
        const char *v = strncmp(key, "hivevar:", 8) == 0 ? NULL : sql_session_get_conf(s, key);
        for (int i = 0; strncmp(key, "hivevar:", 8) == 0 && i < s->vars.n; i++)
            if (strcmp(s->vars.items[i].key, key + 8) == 0)
                v = s->vars.items[i].value;
        return set_info(c, v ? comb_arena_printf(c->arena, "%s=%s", key, v)
                             : comb_arena_printf(c->arena, "%s is undefined", key),
                        err);
    }
    if (strncmp(key, "hivevar:", 8) == 0)
        return sql_session_set_var(s, key + 8, st->set_value, err);
    if (strncmp(key, "hiveconf:", 9) == 0)
        key += 9;
    return sql_session_set_conf(s, key, st->set_value, err);
}
