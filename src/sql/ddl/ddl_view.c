/*
 * ddl_view.c - CREATE [OR REPLACE] VIEW, ALTER VIEW ... AS, DROP VIEW, and
 * the columns a query gives (shared with CREATE TABLE AS SELECT).  The
 * other ALTER VIEW forms (RENAME, SET/UNSET TBLPROPERTIES) are
 * ddl_alter.c's.
 *
 * A view is a catalog row (TBL_TYPE VIRTUAL_VIEW, no location) holding its
 * query twice: as written (view_original_text) and as it is bound when
 * used (view_expanded_text): every table name qualified with the database
 * it was found in at creation (the current one), so the view means the
 * same from any current database, and a column list given to CREATE VIEW applied as
 * Hive does (SELECT `a` AS `x`, ... FROM (query) `v`).  The query is bound
 * at creation (errors are the query's), and its column names and types are
 * recorded as Hive records them (an item's alias, a column's name, else
 * _cN).
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/buf.h"
#include "sql/ddl/ddl_int.h"
#include "sql/parse/lexer.h"

int sql_query_columns(SqlStmtCtx *c, const SqlSelectPlan *p,
                      const char ***names, const CombType *const **types,
                      int *n, CombErr *err)
{
    const char *const *out;
    const CombTypeKind *kinds;
    const char **cols;
    sql_select_output(p, n, &out, &kinds);
    if (!(cols = comb_arena_alloc(c->arena, (size_t)(*n + 1) * sizeof *cols)))
        return comb_err_nomem(err);
    for (int j = 0; j < *n; j++) {
        const char *dot = strrchr(out[j], '.');
        cols[j] = dot ? dot + 1 : out[j];
        for (int k = 0; k < j; k++)
            if (strcasecmp(cols[k], cols[j]) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10036, c->stmt->qdef->query_pos,
                                  "Duplicate column name: %s", cols[j]);
    }
    *names = cols;
    *types = sql_select_types(p);
    return COMB_OK;
}

/* ------------------------------------------------------- expanded text */

/* The byte offset of position `at` in text, which starts at `start`. */
static size_t text_offset(const char *text, AstPos start, AstPos at)
{
    size_t n = strlen(text);
    int line = start.line, col = start.col;
    for (size_t i = 0; i < n; i++) {
        if (line == at.line && col == at.col)
            return i;
        sql_lex_advance(text, i, i + 1, &line, &col);
    }
    return n;
}

/* The positions of the unqualified table names the query reads. */
static int unqualified_names(SqlStmtCtx *c, const AstSelect *s, AstPos **pos,
                             int *n, CombErr *err)
{
    for (const AstFrom *f = s ? s->from : NULL; f; f = f->query ? f->query->from : NULL) {
        AstPos *grown;
        if (f->kind != AST_FROM_TABLE || f->table.db)
            continue;
        if (!(grown = comb_arena_alloc(c->arena, (size_t)(*n + 1) * sizeof *grown)))
            return comb_err_nomem(err);
        if (*n)
            memcpy(grown, *pos, (size_t)*n * sizeof *grown);
        grown[(*n)++] = f->table.pos;
        *pos = grown;
    }
    return COMB_OK;
}

static void put_quoted(CombBuf *b, const char *name)
{
    comb_buf_append_byte(b, '`');
    for (; *name; name++) {
        if (*name == '`')
            comb_buf_append_byte(b, '`');
        comb_buf_append_byte(b, (unsigned char)*name);
    }
    comb_buf_append_byte(b, '`');
}

/* The query with each unqualified table name prefixed by `db`. (the
 * names come outermost first, so their offsets only grow), then under a
 * column list Hive's renaming wrapper. */
static int expanded_text(SqlStmtCtx *c, const AstQueryDef *q, const char *db,
                         const char *view, const char *const *derived,
                         int n_cols, char **out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    AstPos *pos = NULL;
    size_t done = 0;
    int n = 0, rc = unqualified_names(c, q->query, &pos, &n, err);
    if (rc)
        return rc;
    if (q->n_view_cols) {
        comb_buf_append_str(&b, "SELECT ");
        for (int j = 0; j < n_cols; j++) {
            comb_buf_append_str(&b, j ? ", " : "");
            put_quoted(&b, derived[j]);
            comb_buf_append_str(&b, " AS ");
            put_quoted(&b, q->view_cols[j].name);
        }
        comb_buf_append_str(&b, " FROM (");
    }
    for (int i = 0; i < n; i++) {
        size_t at = text_offset(q->query_text, q->query_pos, pos[i]);
        comb_buf_append(&b, q->query_text + done, at - done);
        put_quoted(&b, db);
        comb_buf_append_byte(&b, '.');
        done = at;
    }
    comb_buf_append_str(&b, q->query_text + done);
    if (q->n_view_cols) {
        comb_buf_append_str(&b, ") ");
        put_quoted(&b, view);
    }
    rc = comb_buf_append_byte(&b, '\0') ||
                 !(*out = comb_arena_strdup(c->arena, (const char *)b.data))
             ? comb_err_nomem(err) : COMB_OK;
    comb_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------ defining */

/* The view's columns: the query's, named by the column list if given (its
 * comments too), typed as the query gives them. */
static int view_columns(SqlStmtCtx *c, const AstQueryDef *q,
                        const SqlSelectPlan *p, MsTable *v,
                        const char *const **derived, CombErr *err)
{
    const char **names;
    const CombType *const *types;
    int n, rc = sql_query_columns(c, p, &names, &types, &n, err);
    if (rc)
        return rc;
    if (q->n_view_cols && q->n_view_cols != n)
        return sql_err_at(err, COMB_ESEMANTIC, 10089, q->query_pos,
                          "The number of columns produced by the SELECT clause "
                          "does not match the number of column names specified "
                          "by CREATE VIEW");
    for (int j = 0; j < q->n_view_cols; j++)
        for (int k = 0; k < j; k++)
            if (strcasecmp(q->view_cols[k].name, q->view_cols[j].name) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10036, q->view_cols[j].pos,
                                  "Duplicate column name: %s", q->view_cols[j].name);
    v->n_cols = n;
    if (!(v->cols = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *v->cols)))
        return comb_err_nomem(err);
    for (int j = 0; j < n; j++) {
        v->cols[j].name = (char *)(q->n_view_cols ? q->view_cols[j].name : names[j]);
        v->cols[j].comment = q->n_view_cols ? q->view_cols[j].comment : NULL;
        if (!(v->cols[j].type = (char *)sql_type_text(c, types[j])))
            return comb_err_nomem(err);
    }
    *derived = names;
    return COMB_OK;
}

/* Bind the statement's query and describe the view it defines. */
static int view_define(SqlStmtCtx *c, const char *db, MsTable *v,
                       CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstQueryDef *q = st->qdef;
    const char *const *derived = NULL;
    SqlSelectPlan *p;
    int rc;
    memset(v, 0, sizeof *v);
    v->db = (char *)db;
    v->name = st->name.name;
    v->owner = c->s->user;
    v->table_type = MS_VIRTUAL_VIEW;
    v->comment = st->comment;
    v->create_time = (int64_t)time(NULL);
    v->n_buckets = -1;
    /* Hive records a view's storage as the default file format's */
    v->input_format = MS_TEXT_INPUT_FORMAT;
    v->output_format = MS_TEXT_OUTPUT_FORMAT;
    v->view_original_text = q->query_text;
    if ((rc = sql_select_plan(c, q->query, &p, err)) ||
        (rc = view_columns(c, q, p, v, &derived, err)))
        return rc;
    /* unqualified names were found in the current database */
    return expanded_text(c, q, c->s->db, v->name, derived, v->n_cols,
                         &v->view_expanded_text, err);
}

/* TBLPROPERTIES over props (a key given again takes the new value). */
static int merge_props(SqlStmtCtx *c, MsTable *t, const AstStmt *st,
                       CombErr *err)
{
    MsProperty *props = comb_arena_calloc(c->arena, (size_t)(t->n_props + st->n_props + 1) * sizeof *props);
    int n = t->n_props;
    if (!props)
        return comb_err_nomem(err);
    if (n)
        memcpy(props, t->props, (size_t)n * sizeof *props);
    for (int i = 0; i < st->n_props; i++) {
        int k = 0;
        while (k < n && strcmp(props[k].key, st->props[i].key) != 0)
            k++;
        props[k] = (MsProperty){st->props[i].key, st->props[i].value};
        n += k == n;
    }
    t->props = props;
    t->n_props = n;
    return COMB_OK;
}

static int database_exists(SqlStmtCtx *c, const char *db, CombErr *err)
{
    MsDatabase *d;
    int rc = ms_db_get(c->s->ms, db, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, c->stmt->name.pos,
                          "Database does not exist: %s", db);
    return rc;
}

/* The view looked up: COMB_ENOTFOUND (err clear) when there is none. */
static int view_lookup(SqlStmtCtx *c, const char *db, MsTable **out,
                       CombErr *err)
{
    int rc = ms_table_get(c->s->ms, db, c->stmt->name.name, c->arena, out, err);
    if (rc == COMB_ENOTFOUND)
        comb_err_clear(err);
    return rc;
}

static bool is_view(const MsTable *t)
{
    return t->table_type && strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

static int not_a_view(SqlStmtCtx *c, const char *db, CombErr *err)
{
    return sql_err_at(err, COMB_ESEMANTIC, 10218, c->stmt->name.pos,
                      "Existing table is not a view\n The following is an "
                      "existing table, not a view: %s.%s",
                      db, c->stmt->name.name);
}

/* A view's new query (OR REPLACE, ALTER VIEW AS): columns and texts
 * replaced, the comment if one is given, properties merged. */
static int view_replace(SqlStmtCtx *c, MsTable *old, const MsTable *v,
                        CombErr *err)
{
    old->n_cols = v->n_cols;
    old->cols = v->cols;
    old->view_original_text = v->view_original_text;
    old->view_expanded_text = v->view_expanded_text;
    if (v->comment)
        old->comment = v->comment;
    return merge_props(c, old, c->stmt, err) ? COMB_ENOMEM
                                             : ms_table_alter(c->s->ms, old, err);
}

int sql_exec_create_view(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *db = st->name.db ? st->name.db : c->s->db;
    MsTable v, *old;
    int rc;
    if (st->if_not_exists && st->qdef->or_replace)
        return sql_err_at(err, COMB_ESEMANTIC, 0, st->pos,
                          "Can't combine IF NOT EXISTS and OR REPLACE.");
    if ((rc = database_exists(c, db, err)) || (rc = view_define(c, db, &v, err)))
        return rc;
    rc = view_lookup(c, db, &old, err);
    if (rc == COMB_OK && !st->qdef->or_replace)
        return st->if_not_exists
                   ? COMB_OK
                   : sql_err_at(err, COMB_EEXISTS, 10073, st->name.pos,
                                "Table already exists: %s.%s", db, st->name.name);
    if (rc == COMB_OK)
        return is_view(old) ? view_replace(c, old, &v, err) : not_a_view(c, db, err);
    if (rc != COMB_ENOTFOUND)
        return rc;
    v.props = comb_arena_calloc(c->arena, sizeof *v.props);
    if (!v.props)
        return comb_err_nomem(err);
    /* every new table Hive makes says its bucketing version, views too */
    v.props[v.n_props++] = (MsProperty){ACID_PROP_BUCKETING_VERSION, "2"};
    if ((rc = merge_props(c, &v, st, err)))
        return rc;
    rc = ms_table_create(c->s->ms, &v, false, err);
    return rc == COMB_EEXISTS || rc == COMB_ENOTFOUND
               ? sql_table_create_error(c, &v, rc, err) : rc;
}

int sql_exec_alter_view(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *db = st->name.db ? st->name.db : c->s->db;
    MsTable v, *old;
    int rc;
    if ((rc = view_define(c, db, &v, err)))
        return rc;
    if ((rc = view_lookup(c, db, &old, err)) == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10216, st->name.pos,
                          "Cannot ALTER VIEW AS SELECT if view currently does "
                          "not exist\n The following view does not exist: %s.%s",
                          db, st->name.name);
    if (rc)
        return rc;
    return is_view(old) ? view_replace(c, old, &v, err) : not_a_view(c, db, err);
}

int sql_exec_drop_view(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *db = st->name.db ? st->name.db : c->s->db;
    MsTable *v;
    int rc = view_lookup(c, db, &v, err);
    if (rc == COMB_ENOTFOUND)
        return st->if_exists ? COMB_OK
                             : sql_err_at(err, rc, 10001, st->name.pos,
                                          "Table not found '%s'", st->name.name);
    if (rc)
        return rc;
    if (!is_view(v))
        return st->if_exists ? COMB_OK
                             : sql_err_at(err, COMB_EINVALID, 0, st->name.pos,
                                          "Cannot drop a base table with DROP VIEW");
    return ms_table_drop(c->s->ms, db, st->name.name, false, err);
}
