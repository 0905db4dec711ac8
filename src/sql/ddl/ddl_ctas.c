/*
 * ddl_ctas.c - CREATE TABLE ... AS SELECT and CREATE TABLE ... LIKE.
 *
 * Both describe the new table as a CREATE TABLE statement of their own
 * making (columns from the query, or from the table or view copied) and
 * run CREATE TABLE's own rules over it (ddl_table.c), so kinds, formats
 * and properties come out as for any table.
 *
 * CTAS is atomic: the query runs and its rows are written (files durable)
 * into the new table's directory before the table exists; then one
 * metastore transaction creates the table, adds its partitions and commits
 * the statement's transaction (ms_txn_commit_create).  Until then no
 * reader can see the table or its files; a failure removes the files and
 * the directory made for them.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"

/* ------------------------------------------------------------------ CTAS */

/* Hive's refusals (SemanticAnalyzer.analyzeCreateTable). */
static int ctas_refusals(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *ext = sql_session_get_conf(c->s, "hive.ctas.external.tables");
    if (st->n_columns)
        return sql_err_at(err, COMB_ESEMANTIC, 10065, st->columns[0].pos,
                          "CREATE TABLE AS SELECT command cannot specify the "
                          "list of columns for the target table");
    if (st->n_partition_cols || st->n_buckets >= 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10068,
                          st->n_partition_cols ? st->partition_cols[0].pos
                                               : st->cluster_pos,
                          "CREATE-TABLE-AS-SELECT does not support "
                          "partitioning in the target table ");
    if (st->external && ext && strcasecmp(ext, "false") == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10070, st->name.pos,
                          "CREATE-TABLE-AS-SELECT cannot create external table");
    return COMB_OK;
}

/* A LOCATION must be empty (or missing: it is made). */
static int location_empty(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    char *dir, **names;
    int n, rc;
    if (!st->location)
        return COMB_OK;
    if ((rc = sql_absolute_location(c, st->location, &dir, err)))
        return rc;
    if (!fs_is_dir(dir))
        return COMB_OK;
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    return n == 0 ? COMB_OK
                  : sql_err_at(err, COMB_ESEMANTIC, 10304, st->name.pos,
                               "CREATE-TABLE-AS-SELECT cannot create table "
                               "with location to a non-empty directory. %s",
                               st->location);
}

static int column_def(SqlStmtCtx *c, const char *name, const CombType *t,
                      AstColumnDef *out, CombErr *err)
{
    if (t->kind == COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10305, c->stmt->qdef->query_pos,
                          "CREATE-TABLE-AS-SELECT creates a VOID type, please "
                          "use CAST to specify the type, near field:  %s", name);
    memset(out, 0, sizeof *out);
    out->name = (char *)name;
    out->type.kind = t->kind;
    out->type.type = (CombType *)t;
    out->type.pos = c->stmt->qdef->query_pos;
    out->pos = c->stmt->qdef->query_pos;
    return COMB_OK;
}

/* "[a, b]" */
static const char *name_list(SqlStmtCtx *c, const char *const *names, int n)
{
    CombBuf b = COMB_BUF_INIT;
    char *s;
    comb_buf_append_byte(&b, '[');
    for (int i = 0; i < n; i++)
        comb_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    comb_buf_append_str(&b, "]");
    s = comb_buf_append_byte(&b, '\0') ? NULL : comb_arena_strdup(c->arena, (char *)b.data);
    comb_buf_free(&b);
    return s ? s : "[]";
}

/* The new table's columns from the query's: a column named in
 * PARTITIONED BY (its first mention) becomes that partition key, the
 * others are the data columns in query order (Hive 4's
 * deriveFileSinkColTypes); map[j] is the table column of output j. */
static int ctas_columns(SqlStmtCtx *c, const SqlSelectPlan *sel, AstStmt *def,
                        int **map, int *n_map, CombErr *err)
{
    const AstQueryDef *q = c->stmt->qdef;
    const char **names;
    const CombType *const *types;
    int *part, n, n_data = 0, n_found = 0;
    int rc = sql_query_columns(c, sel, &names, &types, &n, err);
    if (rc)
        return rc;
    if (n - q->n_part_names <= 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, q->part_pos,
                          "Too many partition columns declared");
    def->columns = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *def->columns);
    def->partition_cols = comb_arena_calloc(c->arena, (size_t)(q->n_part_names + 1) * sizeof *def->partition_cols);
    part = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *part);
    *map = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof **map);
    if (!def->columns || !def->partition_cols || !part || !*map)
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        part[j] = -1;
        for (int k = 0; k < q->n_part_names && part[j] < 0; k++)
            if (strcasecmp(names[j], q->part_names[k]) == 0)
                part[j] = k;
        n_found += part[j] >= 0;
    }
    if (n_found != q->n_part_names)
        return sql_err_at(err, COMB_ESEMANTIC, 0, q->part_pos,
                          "Table declaration contains partition columns that "
                          "are not present in query result schema. Query "
                          "columns: %s. Partition columns: %s",
                          name_list(c, names, n),
                          name_list(c, (const char *const *)q->part_names,
                                    q->n_part_names));
    for (int j = 0; j < n && !rc; j++)
        if (part[j] < 0) {
            (*map)[j] = n_data;
            rc = column_def(c, names[j], types[j], &def->columns[n_data++], err);
        }
    for (int j = 0; j < n && !rc; j++)
        if (part[j] >= 0) {
            (*map)[j] = n_data + part[j];
            rc = column_def(c, names[j], types[j], &def->partition_cols[part[j]], err);
        }
    def->n_columns = n_data;
    def->n_partition_cols = q->n_part_names;
    *n_map = n;
    return rc;
}

/* Remove what a failed CTAS made: the table directory's tree when this
 * statement made it, and the parents it made. */
static void remove_made(SqlStmtCtx *c, const char *dir, int made)
{
    CombErr ignored;
    const char *slash = strrchr(dir, '/');
    char *parent;
    if (made <= 0)
        return;
    fs_remove_tree(dir, &ignored);
    parent = slash ? comb_arena_strndup(c->arena, dir, (size_t)(slash - dir)) : NULL;
    if (parent && made > 1)
        fs_rmdirs_empty(parent, made - 1);
}

/* Write the query's rows into table t (not in the catalog yet), then
 * create it and commit in one metastore transaction. */
static int ctas_write(SqlStmtCtx *c, MsTable *mt, SqlSelectPlan *sel,
                      const int *map, int n_map, CombErr *err)
{
    SqlTable *t;
    SqlWriter *w = NULL;
    int rc = sql_table_from_ms(c, mt, &t, err);
    if (!rc && !(rc = sql_select_coerce(c, sel, map, t, err)) &&
        !(rc = sql_select_open(c, sel, err)) &&
        !(rc = sql_writer_open(c, t, MS_OP_INSERT, false, NULL, &w, err))) {
        w->new_table = true;
        rc = sql_insert_select_rows(c, w, sel, map, n_map, err);
    }
    if (!rc)
        rc = sql_writer_finish(w, err);
    if (!rc) {
        sql_crash_point(c, "before_commit");
        rc = ms_txn_commit_create(c->s->ms, c->txnid, mt, w->new_parts,
                                  w->n_new_parts, err);
    }
    if (!rc)
        c->txnid = 0;   /* committed with the table */
    else if (w)
        w->finished = false;  /* so close takes back what finish placed */
    sql_writer_close(w);
    sql_select_close(sel);
    return rc == COMB_EEXISTS || rc == COMB_ENOTFOUND
               ? sql_table_create_error(c, mt, rc, err) : rc;
}

int sql_exec_ctas(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *db = st->name.db ? st->name.db : c->s->db;
    AstStmt def = *st;
    SqlSelectPlan *sel;
    MsTable *mt, *existing;
    const char *adopted;
    int *map = NULL, n_map = 0, made = 0, rc;
    if ((rc = ctas_refusals(c, err)))
        return rc;
    rc = ms_table_get(c->s->ms, db, st->name.name, c->arena, &existing, err);
    if (rc == COMB_OK)
        return st->if_not_exists ? COMB_OK
                                 : sql_err_at(err, COMB_EEXISTS, 10073, st->name.pos,
                                              "Table already exists: %s.%s", db,
                                              st->name.name);
    if (rc != COMB_ENOTFOUND)
        return rc;
    comb_err_clear(err);
    if ((rc = location_empty(c, err)) || (rc = sql_txn_begin(c, err)) ||
        (rc = sql_select_plan(c, st->qdef->query, &sel, err)) ||
        (rc = ctas_columns(c, sel, &def, &map, &n_map, err)))
        return rc;
    if (!(mt = comb_arena_calloc(c->arena, sizeof *mt)))
        return comb_err_nomem(err);
    /* CREATE TABLE's rules over the table the query describes */
    c->stmt = &def;
    rc = sql_table_define(c, mt, err);
    if (!rc)   /* an empty LOCATION (location_empty): nothing is adopted */
        rc = sql_table_choose_dir(c, mt, &adopted, err);
    c->stmt = st;
    if (rc || (rc = fs_mkdirs_n(mt->location, &made, err)))
        return rc;
    if ((rc = ctas_write(c, mt, sel, map, n_map, err)))
        remove_made(c, mt->location, made);
    return rc;
}

/* ------------------------------------------------------------------ LIKE */

static bool given_row_format(const AstStmt *st)
{
    return st->stored_as || st->field_delim || st->escape_delim ||
           st->collection_delim || st->mapkey_delim || st->line_delim ||
           st->null_format ||
           (st->catalog && (st->catalog->serde || st->catalog->input_format));
}

/* The source's SORTED BY columns as the statement's. */
static int copy_sort_cols(SqlStmtCtx *c, const MsTable *src, AstStmt *def,
                          CombErr *err)
{
    int n = src->n_sort_cols;
    def->n_sort_cols = n;
    def->sort_cols = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *def->sort_cols);
    def->sort_desc = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *def->sort_desc);
    if (!def->sort_cols || !def->sort_desc)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        def->sort_cols[i] = src->sort_cols[i].name;
        def->sort_desc[i] = src->sort_cols[i].order == MS_SORT_DESC;
    }
    return COMB_OK;
}

/* Column definitions of columns [from, from + n) of t. */
static AstColumnDef *copy_columns(SqlStmtCtx *c, const SqlTable *t,
                                  const MsColumn *ms, int from, int n)
{
    AstColumnDef *cols = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *cols);
    for (int i = 0; cols && i < n; i++) {
        cols[i].name = ms[i].name;
        cols[i].comment = ms[i].comment;
        cols[i].pos = c->stmt->name.pos;
        cols[i].type.kind = t->kinds[from + i];
        cols[i].type.type = (CombType *)t->types[from + i];
        cols[i].type.pos = c->stmt->name.pos;
    }
    return cols;
}

/* The properties of the new table: those given, with the source's
 * transactional, transactional_properties (not for an EXTERNAL copy) and
 * bucketing_version (Hive's CTLT copies these, over the given ones). */
static int like_props(SqlStmtCtx *c, const SqlTable *src, AstStmt *def,
                      CombErr *err)
{
    static const char *const copied[] = {
        "transactional", "transactional_properties", ACID_PROP_BUCKETING_VERSION,
    };
    AstProperty *props = comb_arena_calloc(c->arena, (size_t)(def->n_props + 4) * sizeof *props);
    int n = 0;
    if (!props)
        return comb_err_nomem(err);
    for (int i = 0; i < def->n_props; i++) {
        bool replaced = false;
        for (size_t k = 0; k < sizeof copied / sizeof *copied; k++)
            replaced |= ms_table_prop(src->ms, copied[k]) &&
                        (k == 2 || !def->external) &&
                        strcasecmp(def->props[i].key, copied[k]) == 0;
        if (!replaced)
            props[n++] = def->props[i];
    }
    for (size_t k = 0; k < sizeof copied / sizeof *copied; k++) {
        const char *v = ms_table_prop(src->ms, copied[k]);
        if (v && (k == 2 || !def->external))
            props[n++] = (AstProperty){(char *)copied[k], (char *)v};
    }
    def->props = props;
    def->n_props = n;
    return COMB_OK;
}

/* CREATE TABLE t LIKE src: src's columns, partition keys, bucketing, sort
 * columns, format and SerDe settings (unless ROW FORMAT or STORED AS say
 * otherwise), not its comment nor its other properties (Hive 4's
 * CreateTableLikeOperation); a view gives its columns only. */
int sql_exec_create_like(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AstStmt def = *st;
    SqlTable *src;
    MsTable mt;
    MsTable *existing;
    bool view;
    int rc;
    /* Hive looks no further when the table exists under IF NOT EXISTS */
    if (st->if_not_exists &&
        ms_table_get(c->s->ms, st->name.db ? st->name.db : c->s->db,
                     st->name.name, c->arena, &existing, err) == COMB_OK)
        return COMB_OK;
    comb_err_clear(err);
    if ((rc = sql_table_resolve(c, &st->qdef->like, &src, err)))
        return rc;
    view = src->kind == SQL_TABLE_VIEW;
    def.comment = NULL;
    def.n_columns = src->n_data;
    def.columns = copy_columns(c, src, src->ms->cols, 0, src->n_data);
    def.n_partition_cols = src->n_part;
    def.partition_cols = copy_columns(c, src, src->ms->part_keys, src->n_data,
                                      src->n_part);
    if (!def.columns || !def.partition_cols)
        return comb_err_nomem(err);
    if (!view && src->ms->n_buckets > 0) {
        def.n_buckets = src->ms->n_buckets;
        def.n_cluster_cols = src->ms->n_bucket_cols;
        def.cluster_cols = src->ms->bucket_cols;
        def.cluster_pos = st->name.pos;
        if ((rc = copy_sort_cols(c, src->ms, &def, err)))
            return rc;
    }
    if (!view && !given_row_format(st))
        def.stored_as = src->format == SQL_FORMAT_TEXT ? "textfile" : "orc";
    if (!view && (rc = like_props(c, src, &def, err)))
        return rc;
    c->stmt = &def;
    rc = sql_table_define(c, &mt, err);
    if (!rc && !view && !given_row_format(st)) {
        mt.n_serde_params = src->ms->n_serde_params;
        mt.serde_params = src->ms->serde_params;
    }
    if (!rc)
        rc = sql_table_create(c, &mt, err);
    c->stmt = st;
    return rc;
}
