/*
 * ddl_showinfo.c - SHOW CREATE TABLE, SHOW TBLPROPERTIES, SHOW [SORTED]
 * COLUMNS and SHOW PARTITIONS, with Hive 4's texts (DDLPlanUtils,
 * ShowTablePropertiesOperation, ShowColumnsOperation,
 * ShowPartitionsOperation).
 */
#include "sql/sql_int.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "sql/ddl/ddl_int.h"
#include "sql/func/rowstore.h"

/* --------------------------------------------------- SHOW CREATE TABLE */

/* HiveUtils.unparseIdentifier: `name` with backquotes doubled. */
static void identifier(CombBuf *b, const char *name)
{
    comb_buf_append_byte(b, '`');
    for (const char *p = name; *p; p++) {
        if (*p == '`')
            comb_buf_append_byte(b, '`');
        comb_buf_append_byte(b, (unsigned char)*p);
    }
    comb_buf_append_byte(b, '`');
}

/* DDLPlanUtils.formatType: struct field names backquoted, "map<k,v>",
 * members of structs and unions joined by ", ". */
static void format_type(CombBuf *b, CombArena *a, const CombType *t)
{
    switch (t->kind) {
    case COMB_T_STRUCT:
        comb_buf_append_str(b, "struct<");
        for (int i = 0; i < t->n_children; i++) {
            if (i)
                comb_buf_append_str(b, ", ");
            identifier(b, t->field_names[i]);
            comb_buf_append_byte(b, ':');
            format_type(b, a, t->children[i]);
        }
        comb_buf_append_byte(b, '>');
        return;
    case COMB_T_LIST:
        comb_buf_append_str(b, "array<");
        format_type(b, a, t->children[0]);
        comb_buf_append_byte(b, '>');
        return;
    case COMB_T_MAP:
        comb_buf_printf(b, "map<%s,", comb_type_string(a, t->children[0]));
        format_type(b, a, t->children[1]);
        comb_buf_append_byte(b, '>');
        return;
    case COMB_T_UNION:
        comb_buf_append_str(b, "uniontype<");
        for (int i = 0; i < t->n_children; i++) {
            if (i)
                comb_buf_append_str(b, ", ");
            format_type(b, a, t->children[i]);
        }
        comb_buf_append_byte(b, '>');
        return;
    default:
        comb_buf_append_str(b, comb_type_string(a, t));
    }
}

/* 'value' escaped; an allocation failure leaves the value out, which the
 * caller sees as a failed buffer (oom). */
static void quoted(CombBuf *b, CombArena *a, const char *s, HiveEscape how)
{
    const char *e = hive_escape(a, s ? s : "null", how);
    comb_buf_append_byte(b, '\'');
    comb_buf_append_str(b, e ? e : "");
    comb_buf_append_byte(b, '\'');
}

static void columns_block(CombBuf *b, const SqlTable *st, CombArena *a)
{
    const MsTable *t = st->ms;
    for (int i = 0; i < t->n_cols; i++) {
        comb_buf_append_str(b, "  ");
        identifier(b, t->cols[i].name);
        comb_buf_append_byte(b, ' ');
        format_type(b, a, st->types[i]);
        if (t->cols[i].comment) {
            comb_buf_append_str(b, " COMMENT ");
            quoted(b, a, t->cols[i].comment, HIVE_ESCAPE_COMMAND);
        }
        comb_buf_append_str(b, i + 1 < t->n_cols ? ", \n" : ")\n");
    }
    if (t->n_cols == 0)
        comb_buf_append_str(b, ")\n");
}

static void partitions_block(CombBuf *b, const MsTable *t, CombArena *a)
{
    if (t->n_part_keys == 0)
        return;
    comb_buf_append_str(b, "PARTITIONED BY ( \n");
    for (int i = 0; i < t->n_part_keys; i++) {
        comb_buf_append_str(b, "  ");
        identifier(b, t->part_keys[i].name);
        comb_buf_printf(b, " %s", t->part_keys[i].type);
        if (t->part_keys[i].comment) {
            comb_buf_append_str(b, " COMMENT ");
            quoted(b, a, t->part_keys[i].comment, HIVE_ESCAPE_COMMAND);
        }
        comb_buf_append_str(b, i + 1 < t->n_part_keys ? ", \n" : ")\n");
    }
}

static void buckets_block(CombBuf *b, const MsTable *t)
{
    if (t->n_bucket_cols == 0)
        return;
    comb_buf_append_str(b, "CLUSTERED BY (\n");
    for (int i = 0; i < t->n_bucket_cols; i++) {
        comb_buf_append_str(b, "  ");
        identifier(b, t->bucket_cols[i]);
        comb_buf_append_str(b, i + 1 < t->n_bucket_cols ? ",\n" : ")\n");
    }
    if (t->n_sort_cols > 0) {
        comb_buf_append_str(b, "SORTED BY ( \n");
        for (int i = 0; i < t->n_sort_cols; i++) {
            comb_buf_append_str(b, "  ");
            identifier(b, t->sort_cols[i].name);
            comb_buf_printf(b, " %s%s",
                            t->sort_cols[i].order == MS_SORT_ASC ? "ASC" : "DESC",
                            i + 1 < t->n_sort_cols ? ", \n" : ") \n");
        }
    }
    comb_buf_printf(b, "INTO %d BUCKETS\n", t->n_buckets);
}

/* ShowUtils.propertiesToString: "  'k'='v'" joined by ", \n", values
 * escaped as `how` says. */
static void property_list(CombBuf *b, CombArena *a, const MsProperty *props,
                          int n, HiveEscape how)
{
    for (int i = 0; i < n; i++) {
        comb_buf_printf(b, "%s  '%s'=", i ? ", \n" : "", props[i].key);
        quoted(b, a, props[i].value, how);
    }
}

/* ROW FORMAT SERDE, its parameters (serialization.format=1, Hive's
 * default, left out), STORED AS INPUTFORMAT ... OUTPUTFORMAT. */
static void row_format_block(CombBuf *b, const MsTable *t, CombArena *a)
{
    MsProperty *params = comb_arena_alloc(a, (size_t)(t->n_serde_params + 1) * sizeof *params);
    int n = 0;
    comb_buf_append_str(b, "ROW FORMAT SERDE \n  ");
    quoted(b, a, t->serde, HIVE_ESCAPE_COMMAND);
    comb_buf_append_str(b, " \n");
    for (int i = 0; params && i < t->n_serde_params; i++)
        if (strcmp(t->serde_params[i].key, MS_SERDE_FORMAT) != 0 ||
            strcmp(t->serde_params[i].value, "1") != 0)
            params[n++] = t->serde_params[i];
    if (n > 0) {
        sql_props_sort(params, n);
        comb_buf_append_str(b, "WITH SERDEPROPERTIES ( \n");
        property_list(b, a, params, n, HIVE_ESCAPE_COMMAND_UNICODE);
        comb_buf_append_str(b, ") \n");
    }
    comb_buf_append_str(b, "STORED AS INPUTFORMAT \n  ");
    quoted(b, a, t->input_format, HIVE_ESCAPE_COMMAND);
    comb_buf_append_str(b, " \nOUTPUTFORMAT \n  ");
    quoted(b, a, t->output_format, HIVE_ESCAPE_COMMAND);
    comb_buf_append_str(b, "\n");
}

/* Parameters SHOW CREATE TABLE leaves out: the statistics, and what the
 * statement itself says (EXTERNAL, COMMENT). */
static bool ignored_property(const char *key)
{
    static const char *const keys[] = {
        "TEMPORARY", "EXTERNAL", "comment", "SORTBUCKETCOLSPREFIX",
        "storage_handler", "TABLE_IS_CTAS", "_hive.ctas.legacy",
        "COLUMN_STATS_ACCURATE", "numFiles", "totalSize", "numRows",
        "rawDataSize", "numPartitions", "numFilesErasureCoded",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

static void properties_block(CombBuf *b, const MsTable *t, CombArena *a)
{
    MsProperty *props = comb_arena_alloc(a, (size_t)(t->n_props + 2) * sizeof *props);
    bool have_ddl_time = false;
    int n = 0;
    for (int i = 0; props && i < t->n_props; i++) {
        have_ddl_time |= strcmp(t->props[i].key, MS_DDL_TIME) == 0;
        if (t->props[i].value && !ignored_property(t->props[i].key))
            props[n++] = t->props[i];
    }
    if (props && !have_ddl_time)
        props[n++] = (MsProperty){(char *)MS_DDL_TIME,
                                  comb_arena_printf(a, "%lld",
                                                    (long long)t->create_time)};
    sql_props_sort(props, n);
    comb_buf_append_str(b, "TBLPROPERTIES (\n");
    property_list(b, a, props, n, HIVE_ESCAPE_COMMAND);
    comb_buf_append_str(b, ")");
}

static void create_table_text(CombBuf *b, const SqlTable *st, bool relative,
                              CombArena *a)
{
    const MsTable *t = st->ms;
    comb_buf_printf(b, "CREATE %sTABLE ",
                    sql_table_is_managed(t) ? "" : "EXTERNAL ");
    if (!relative) {
        identifier(b, t->db);
        comb_buf_append_byte(b, '.');
    }
    identifier(b, t->name);
    comb_buf_append_str(b, "(\n");
    columns_block(b, st, a);
    if (t->comment) {
        comb_buf_append_str(b, "COMMENT ");
        quoted(b, a, t->comment, HIVE_ESCAPE_COMMAND);
        comb_buf_append_str(b, "\n");
    }
    partitions_block(b, t, a);
    buckets_block(b, t);
    row_format_block(b, t, a);
    comb_buf_append_str(b, "LOCATION\n  ");
    quoted(b, a, sql_location_uri(a, t->location), HIVE_ESCAPE_COMMAND);
    comb_buf_append_str(b, "\n");
    properties_block(b, t, a);
}

int sql_exec_show_create_table(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"createtab_stmt"};
    const AstStmt *st = c->stmt;
    bool relative = st->name.db == NULL;
    HiveText h;
    SqlTable *t;
    int rc;
    if ((rc = sql_catalog_table(c, &st->name, true, &t, err)))
        return rc;
    hive_text_init(&h, false);
    if (t->kind == SQL_TABLE_VIEW) {
        comb_buf_append_str(&h.b, "CREATE VIEW ");
        if (!relative) {
            identifier(&h.b, t->ms->db);
            comb_buf_append_byte(&h.b, '.');
        }
        identifier(&h.b, t->ms->name);
        comb_buf_printf(&h.b, " AS %s", t->ms->view_expanded_text
                                            ? t->ms->view_expanded_text : "");
    } else {
        create_table_text(&h.b, t, relative, c->arena);
    }
    comb_buf_append_byte(&h.b, '\n');
    /* an allocation that failed left a gap somewhere: say so */
    h.oom |= comb_buf_reserve(&h.b, 1) != 0;
    rc = hive_text_emit(c, &h, 1, names, err);
    hive_text_free(&h);
    return rc;
}

/* ------------------------------------------------- SHOW TBLPROPERTIES */

int sql_exec_show_tblproperties(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"prpt_name", "prpt_value"};
    const AstStmt *st = c->stmt;
    const char *key = st->catalog->prop_key;
    MsProperty *params;
    TextResult tr;
    SqlTable *t;
    int n, rc;
    if ((rc = sql_catalog_table(c, &st->name, true, &t, err)) ||
        (rc = sql_table_params(c, t, &params, &n, err)))
        return rc;
    sql_props_sort(params, n);
    if (sql_text_begin(&tr, 2))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        const char *row[2] = {params[i].key, params[i].value};
        if (!key || strcmp(key, params[i].key) == 0)
            rc = sql_text_row(&tr, row, err);
    }
    if (!rc && key && tr.rs.n_rows == 0) {
        const char *row[2] = {comb_arena_printf(c->arena, "Table %s does not "
                                                "have property: %s",
                                                t->qualified, key), NULL};
        rc = row[0] ? sql_text_row(&tr, row, err) : comb_err_nomem(err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}

/* ------------------------------------------------------ SHOW COLUMNS */

/* ShowColumnsOperation's pattern: lower-cased, '*' meaning ".*", the
 * rest a regular expression the whole name must match. */
static int column_pattern(SqlStmtCtx *c, const char *pattern, regex_t *re,
                          CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc;
    comb_buf_append_str(&b, "^(");
    for (const char *p = pattern ? pattern : "*"; *p; p++)
        if (*p == '*')
            comb_buf_append_str(&b, ".*");
        else
            comb_buf_append_byte(&b, (unsigned char)(*p >= 'A' && *p <= 'Z'
                                                         ? *p - 'A' + 'a' : *p));
    comb_buf_append_str(&b, ")$");
    comb_buf_append_byte(&b, '\0');
    rc = b.data ? regcomp(re, (char *)b.data, REG_EXTENDED | REG_NOSUB) : REG_ESPACE;
    comb_buf_free(&b);
    if (rc == 0)
        return COMB_OK;
    return sql_err_at(err, COMB_EINVALID, 0, c->stmt->name.pos,
                      "invalid column pattern '%s'", pattern);
}

static int cmp_column_name(const void *a, const void *b)
{
    return strcmp((*(const MsColumn *const *)a)->name,
                  (*(const MsColumn *const *)b)->name);
}

int sql_exec_show_columns(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"field"};
    const AstStmt *st = c->stmt;
    const AstCatalog *cat = st->catalog;
    AstName name = st->name;
    const MsColumn **cols;
    HiveText h;
    SqlTable *t;
    regex_t re;
    int n = 0, rc;
    if (cat->db.name && name.db)
        return sql_err_at(err, COMB_ESEMANTIC, 0, cat->db.pos,
                          "Duplicates declaration for database name");
    if (cat->db.name)
        name.db = cat->db.name;
    if ((rc = sql_catalog_table(c, &name, true, &t, err)) ||
        (rc = column_pattern(c, st->like_pattern, &re, err)))
        return rc;
    cols = comb_arena_alloc(c->arena, (size_t)(t->ms->n_cols + t->ms->n_part_keys + 1) * sizeof *cols);
    if (!cols) {
        regfree(&re);
        return comb_err_nomem(err);
    }
    for (int i = 0; i < t->ms->n_cols + t->ms->n_part_keys; i++) {
        const MsColumn *col = i < t->ms->n_cols ? &t->ms->cols[i]
                                                : &t->ms->part_keys[i - t->ms->n_cols];
        if (regexec(&re, col->name, 0, NULL, 0) == 0)
            cols[n++] = col;
    }
    regfree(&re);
    if (cat->sorted && n > 1)
        qsort(cols, (size_t)n, sizeof *cols, cmp_column_name);
    hive_text_init(&h, sql_ddl_padded(c));
    for (int i = 0; i < n && !rc; i++)
        rc = hive_text_row(&h, c->arena, (const char *const *)&cols[i]->name, 1);
    rc = rc ? comb_err_nomem(err) : hive_text_emit(c, &h, 1, names, err);
    hive_text_free(&h);
    return rc;
}

/* --------------------------------------------------- SHOW PARTITIONS */

/* Hive's rewrite of `key = '__HIVE_DEFAULT_PARTITION__'` (and !=, <>)
 * into key IS [NOT] NULL: the default partition holds the NULL keys.
 * Other comparisons with the default name are refused, as in Hive. */
static int rewrite_default_name(SqlStmtCtx *c, const SqlTable *t, AstExpr *e,
                                CombErr *err)
{
    AstExpr *col, *lit;
    if (!e)
        return COMB_OK;
    if (e->kind == AST_BINARY && (e->op == AST_OP_AND || e->op == AST_OP_OR)) {
        for (int i = 0; i < e->n_args; i++) {
            int rc = rewrite_default_name(c, t, e->args[i], err);
            if (rc)
                return rc;
        }
        return COMB_OK;
    }
    if (e->kind != AST_BINARY || !e->left || !e->right)
        return COMB_OK;
    col = e->left->kind == AST_COLREF ? e->left : e->right;
    lit = col == e->left ? e->right : e->left;
    if (col->kind != AST_COLREF || lit->kind != AST_LIT_STRING ||
        strcmp(lit->sval, MS_DEFAULT_PARTITION_NAME) != 0 ||
        sql_table_column(t, col->name) < t->n_data)
        return COMB_OK;
    if (e->op != AST_OP_EQ && e->op != AST_OP_NE)
        return sql_err_at(err, COMB_ESEMANTIC, 0, e->pos,
                          "Only '=' and '!=' are allowed for the default "
                          "partition, function: %s", e->text ? e->text : "");
    e->kind = AST_IS_NULL;
    e->negated = e->op == AST_OP_NE;
    e->left = col;
    e->right = NULL;
    (void)c;
    return COMB_OK;
}

/* The name of the first column e reads that is not a partition key. */
static const char *data_column(const SqlTable *t, const BoundExpr *e)
{
    const char *found = NULL;
    if (!e)
        return NULL;
    if (e->kind == BX_ROWID)
        return "ROW__ID";
    if (e->kind == BX_COL && e->col < t->n_data)
        return t->names[e->col];
    for (int i = 0; i < e->n_args && !found; i++)
        found = data_column(t, e->args[i]);
    if (!found)
        found = data_column(t, e->a);
    if (!found)
        found = data_column(t, e->b);
    return found ? found : data_column(t, e->c);
}

/* The bound WHERE of SHOW PARTITIONS: a condition over partition keys
 * only, as Hive's row resolver holds nothing else (10004). */
static int partitions_filter(SqlStmtCtx *c, const SqlTable *t,
                             BoundExpr **out, CombErr *err)
{
    AstCatalog *cat = c->stmt->catalog;
    SqlScope scope = {t, t->ms->name, -1, NULL, NULL};
    const char *bad;
    CombBuf keys = COMB_BUF_INIT;
    int rc;
    *out = NULL;
    if (!cat->where)
        return COMB_OK;
    if ((rc = rewrite_default_name(c, t, cat->where, err)) ||
        (rc = sql_bind_expr(c, &scope, cat->where, out, err)))
        return rc;
    if ((*out)->type != COMB_T_BOOLEAN)
        return sql_err_at(err, COMB_ESEMANTIC, 0, cat->where->pos,
                          "Not a filter expr: %s", cat->where->text);
    if (!(bad = data_column(t, *out)))
        return sql_expr_prepare(*out, c->arena, 1, err);
    for (int i = 0; i < t->n_part; i++)
        comb_buf_printf(&keys, "%s%s", i ? ", " : "", t->names[t->n_data + i]);
    rc = sql_err_at(err, COMB_ESEMANTIC, 10004, cat->where->pos,
                    "Invalid table alias or column reference '%s': (possible "
                    "column names are: %.*s)", bad, (int)keys.len,
                    keys.data ? (char *)keys.data : "");
    comb_buf_free(&keys);
    return rc;
}

/* The ORDER BY keys as sort keys over the result store (column 0 the
 * name, 1.. the partition keys). */
static int partitions_order(SqlStmtCtx *c, const SqlTable *t,
                            SqlSortKey **out, CombErr *err)
{
    const AstCatalog *cat = c->stmt->catalog;
    SqlSortKey *keys = comb_arena_calloc(c->arena, (size_t)(cat->n_order_by + 1) * sizeof *keys);
    if (!keys)
        return comb_err_nomem(err);
    for (int i = 0; i < cat->n_order_by; i++) {
        const AstExpr *e = cat->order_by[i].expr;
        int col = e->kind == AST_COLREF ? sql_table_column(t, e->name) : -1;
        if (col < t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 0, e->pos,
                              "Only partition keys are allowed for sorting "
                              "partition names, input: %s", e->text);
        keys[i].col = 1 + col - t->n_data;
        keys[i].desc = cat->order_by[i].desc;
        keys[i].nulls_first = keys[i].desc;
    }
    *out = keys;
    return COMB_OK;
}

/* A partial PARTITION spec as the catalog's key/value filter. */
static int partitions_spec(SqlStmtCtx *c, const SqlTable *t,
                           MsProperty **out, CombErr *err)
{
    const AstPartSpec *ps = &c->stmt->part;
    MsProperty *spec = comb_arena_calloc(c->arena, (size_t)(ps->n + 1) * sizeof *spec);
    if (!spec)
        return comb_err_nomem(err);
    for (int i = 0; i < ps->n; i++) {
        int col = sql_table_column(t, ps->items[i].key), rc;
        if (col < t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 10098, ps->items[i].pos,
                              "Non-Partition column appears in the partition "
                              "specification: %s", ps->items[i].key);
        spec[i].key = ps->items[i].key;
        if ((rc = sql_part_static_value(c, t, col - t->n_data, &ps->items[i],
                                        &spec[i].value, err)))
            return rc;
    }
    *out = spec;
    return COMB_OK;
}

/* One result row: the partition's name, then its typed keys. */
static int partition_row(SqlRowStore *rs, const SqlTable *t, const SqlUnit *u,
                         const MsPartition *p, CombErr *err)
{
    SqlDatum *row;
    int rc;
    if ((rc = sql_rows_add(rs, &row, err)))
        return rc;
    row[0].null = false;
    row[0].s = (CombStr){comb_arena_strdup(&rs->arena, p->name),
                         (uint32_t)strlen(p->name)};
    if (!row[0].s.ptr)
        return comb_err_nomem(err);
    for (int k = 0; k < t->n_part; k++) {
        const BoundExpr *key = u->keys[k];
        SqlDatum *d = &row[1 + k];
        d->null = key->is_null;
        d->i = key->ival;
        d->nanos = key->nanos;
        d->d = key->dval;
        d->dec = key->dec;
        d->s = key->sval;
    }
    return COMB_OK;
}

int sql_exec_show_partitions(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"partition"};
    const AstStmt *st = c->stmt;
    const AstCatalog *cat = st->catalog;
    MsProperty *spec = NULL;
    MsPartition *parts;
    BoundExpr *filter;
    SqlSortKey *order = NULL;
    const CombType **types;
    SqlRowStore rs;
    SqlTable *t;
    int n, rc;
    if ((rc = sql_catalog_table(c, &st->name, false, &t, err)))
        return rc;
    if (t->n_part == 0)
        return comb_err_hive(err, COMB_EINVALID, 10241, "SemanticException "
                             "[Error 10241]: Table %s is not a partitioned "
                             "table", st->name.name);
    if ((rc = partitions_spec(c, t, &spec, err)) ||
        (rc = partitions_filter(c, t, &filter, err)) ||
        (rc = partitions_order(c, t, &order, err)) ||
        (rc = ms_part_list(c->s->ms, t->ms->db, t->ms->name, spec, st->part.n,
                           c->arena, &parts, &n, err)))
        return rc;
    if (!(types = comb_arena_alloc(c->arena, (size_t)(t->n_part + 1) * sizeof *types)))
        return comb_err_nomem(err);
    types[0] = sql_kind_type(COMB_T_STRING);
    memcpy(types + 1, t->types + t->n_data, (size_t)t->n_part * sizeof *types);
    if (sql_rows_init_types(&rs, t->n_part + 1, types))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        bool keep = true;
        SqlUnit u;
        if ((rc = sql_unit_from_partition(c, t, &parts[i], &u, err)))
            break;
        if (filter)
            rc = sql_unit_satisfies(t, &u, filter, &keep, err);
        if (!rc && keep)
            rc = partition_row(&rs, t, &u, &parts[i], err);
    }
    if (!rc && cat->n_order_by > 0)
        sql_rows_sort(&rs, order, cat->n_order_by);
    if (!rc && c->sink->begin) {
        CombTypeKind kind = COMB_T_STRING;
        rc = c->sink->begin(c->sink->ctx, 1, names, &kind, err);
    }
    if (!rc)
        rc = sql_rows_emit(&rs, 1, cat->limit, c->sink, err);
    if (!rc && c->sink->end)
        rc = c->sink->end(c->sink->ctx, err);
    sql_rows_free(&rs);
    return rc;
}
