/*
 * catalog.c - resolving table names to SqlTable (typed columns, bucketing)
 * through the metastore, and the write-id list of a table under the
 * statement's snapshot.
 */
#include "sql/plan/plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acid/acid.h"

int sql_table_column(const SqlTable *t, const char *name)
{
    for (int i = 0; i < t->n_cols; i++)
        if (strcasecmp(t->names[i], name) == 0)
            return i;
    return -1;
}

/* Data columns, then the partition keys, as Hive lists them for '*'. */
static int table_fill_columns(SqlStmtCtx *c, SqlTable *t, CombErr *err)
{
    MsTable *m = t->ms;
    int n = m->n_cols + m->n_part_keys;
    t->n_cols = n;
    t->n_data = m->n_cols;
    t->n_part = m->n_part_keys;
    t->names = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->names);
    t->types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->types);
    t->kinds = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *t->kinds);
    t->lengths = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *t->lengths);
    if (!t->names || !t->types || !t->kinds || !t->lengths)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        const MsColumn *col = i < m->n_cols ? &m->cols[i]
                                            : &m->part_keys[i - m->n_cols];
        CombType *type;
        CombErr why;
        t->names[i] = col->name;
        if (comb_type_parse(c->arena, col->type, strlen(col->type), &type,
                            &why))
            return comb_err(err, COMB_ECORRUPT,
                            "column '%s' of table %s has a type the "
                            "metastore should not hold: %s", col->name,
                            t->qualified, why.msg);
        t->types[i] = type;
        t->kinds[i] = type->kind;
        t->lengths[i] = type->max_length;
    }
    return COMB_OK;
}

/* Kind and file format from the table's properties and storage. */
static void table_fill_storage(SqlTable *t)
{
    const MsTable *m = t->ms;
    const char *props = ms_table_prop(m, "transactional_properties");
    if (m->table_type && strcmp(m->table_type, MS_VIRTUAL_VIEW) == 0)
        t->kind = SQL_TABLE_VIEW;
    else if (!ms_table_is_transactional(m))
        t->kind = SQL_TABLE_PLAIN;
    else if (props && strcasecmp(props, "insert_only") == 0)
        t->kind = SQL_TABLE_INSERT_ONLY;
    else
        t->kind = SQL_TABLE_ACID;
    t->format = m->input_format && strcmp(m->input_format, MS_TEXT_INPUT_FORMAT) == 0
                    ? SQL_FORMAT_TEXT : SQL_FORMAT_ORC;
    t->transactional = t->kind == SQL_TABLE_ACID;
}

int sql_table_text_options(const SqlTable *t, TextOptions *o, CombErr *err)
{
    const MsTable *m = t->ms;
    int rc;
    text_options_default(o);
    for (int i = 0; i < m->n_serde_params; i++)
        if ((rc = text_options_set(o, m->serde_params[i].key,
                                   m->serde_params[i].value, err)))
            return comb_err_prefix(err, "table %s", t->qualified);
    for (int i = 0; i < m->n_props; i++)
        if ((rc = text_options_set(o, m->props[i].key, m->props[i].value, err)))
            return comb_err_prefix(err, "table %s", t->qualified);
    return text_check_schema(o, t->n_data, (const CombType *const *)t->types,
                             err);
}

/* An unsupported bucketing_version only matters when rows are placed
 * (sql_table_bucketing): the table can still be described and read. */
static int table_fill_bucketing(SqlStmtCtx *c, SqlTable *t, CombErr *err)
{
    MsTable *m = t->ms;
    CombErr ignored;
    if (acid_bucketing_version_parse(
            ms_table_prop(m, ACID_PROP_BUCKETING_VERSION),
            &t->bucketing_version, &ignored))
        t->bucketing_version = 0;
    t->n_buckets = m->n_buckets;
    t->n_cluster = m->n_bucket_cols;
    t->cluster_idx = comb_arena_alloc(c->arena, (size_t)(m->n_bucket_cols + 1) * sizeof(int));
    if (!t->cluster_idx)
        return comb_err_nomem(err);
    for (int i = 0; i < m->n_bucket_cols; i++) {
        t->cluster_idx[i] = sql_table_column(t, m->bucket_cols[i]);
        if (t->cluster_idx[i] < 0)
            return comb_err(err, COMB_ECORRUPT,
                            "table %s is clustered by unknown column '%s'",
                            t->qualified, m->bucket_cols[i]);
    }
    return COMB_OK;
}

int sql_table_bucketing(const SqlTable *t, CombErr *err)
{
    int version;
    if (t->n_buckets <= 0)
        return COMB_OK;
    for (int i = 0; i < t->n_cluster; i++) {
        CombTypeKind k = t->kinds[t->cluster_idx[i]];
        if (!acid_bucket_kind_supported(k))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "table %s is clustered by column '%s' of type %s, "
                            "whose bucketing hash is not supported yet",
                            t->qualified, t->names[t->cluster_idx[i]],
                            comb_type_name(k));
    }
    if (t->bucketing_version != 0)
        return COMB_OK;
    /* fails again, this time keeping the message */
    acid_bucketing_version_parse(
        ms_table_prop(t->ms, ACID_PROP_BUCKETING_VERSION), &version, err);
    return comb_err_prefix(err, "table %s", t->qualified);
}

int sql_table_from_ms(SqlStmtCtx *c, MsTable *ms, SqlTable **out, CombErr *err)
{
    SqlTable *t = comb_arena_calloc(c->arena, sizeof *t);
    int rc;
    if (!t)
        return comb_err_nomem(err);
    t->ms = ms;
    t->qualified = comb_arena_printf(c->arena, "%s.%s", ms->db, ms->name);
    if (!t->qualified)
        return comb_err_nomem(err);
    table_fill_storage(t);
    if ((rc = table_fill_columns(c, t, err)) ||
        (rc = table_fill_bucketing(c, t, err)))
        return rc;
    *out = t;
    return COMB_OK;
}

int sql_table_resolve(SqlStmtCtx *c, const AstName *name, SqlTable **out,
                      CombErr *err)
{
    const char *db = name->db ? name->db : c->s->db;
    MsTable *ms;
    CombErr ms_err;
    int rc;
    if (c->load_source && !name->db &&
        strcmp(name->name, c->load_source->ms->name) == 0) {
        *out = c->load_source;
        return COMB_OK;
    }
    rc = ms_table_get(c->s->ms, db, name->name, c->arena, &ms, &ms_err);
    if (rc == COMB_ENOTFOUND) {
        if (name->db)
            return sql_err_at(err, COMB_ENOTFOUND, 10001, name->pos,
                              "Table not found '%s.%s'", db, name->name);
        return sql_err_at(err, COMB_ENOTFOUND, 10001, name->pos,
                          "Table not found '%s'", name->name);
    }
    if (rc) {
        *err = ms_err;
        return rc;
    }
    if ((rc = sql_locks_note_read(c, ms, err)))
        return rc;
    return sql_table_from_ms(c, ms, out, err);
}

int sql_table_writeids(SqlStmtCtx *c, const SqlTable *t, CombWriteIdList *out,
                       CombErr *err)
{
    int rc = sql_txn_begin(c, err);
    if (rc || (rc = ms_writeid_list(c->s->ms, &c->snapshot, t->ms->db,
                                    t->ms->name, out, err)))
        return rc;
    sql_txn_own_writes(c, t, out);
    return COMB_OK;
}
