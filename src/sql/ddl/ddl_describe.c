/*
 * ddl_describe.c - DESCRIBE [EXTENDED|FORMATTED] t [PARTITION (...)]
 * [column] and DESCRIBE DATABASE [EXTENDED], laid out as Hive 4's
 * TextDescTableFormatter and DescDatabaseFormatter write them: the text
 * is built as Hive builds it (ddl_hivetext.c) and cut into the three
 * columns col_name, data_type, comment.  With comb.ddl.padded (Hive's CLI)
 * fields are padded to 20 characters and FORMATTED starts with the
 * "# col_name" row; without it (HiveServer2) neither.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/numfmt.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/colstats.h"

static const char *const DESC_NAMES[] = {"col_name", "data_type", "comment"};

int sql_catalog_table(SqlStmtCtx *c, const AstName *name, bool qualify,
                      SqlTable **out, CombErr *err)
{
    const char *db = name->db ? name->db : c->s->db;
    MsTable *ms;
    MsDatabase *d;
    int rc;
    if (name->db && (rc = ms_db_get(c->s->ms, name->db, c->arena, &d, err)))
        return rc == COMB_ENOTFOUND
                   ? comb_err_hive(err, rc, 10072, "SemanticException [Error "
                                   "10072]: Database does not exist: %s",
                                   name->db)
                   : rc;
    rc = ms_table_get(c->s->ms, db, name->name, c->arena, &ms, err);
    if (rc == COMB_ENOTFOUND)
        return comb_err_hive(err, rc, 10001, "SemanticException [Error 10001]: "
                             "Table not found %s%s%s",
                             qualify || name->db ? db : "",
                             qualify || name->db ? "." : "", name->name);
    if (rc)
        return rc;
    return sql_table_from_ms(c, ms, out, err);
}

char *sql_location_uri(CombArena *a, const char *path)
{
    if (!path)
        return NULL;
    return fs_is_remote(path) ? comb_arena_strdup(a, path)
                              : comb_arena_printf(a, "file:%s", path);
}

/* Java's Date.toString of epoch seconds in the local time zone, or
 * "UNKNOWN" for 0 (Hive's formatDate). */
static char *java_date(CombArena *a, int64_t secs)
{
    char buf[64];
    time_t t = (time_t)secs;
    struct tm tm;
    if (secs == 0 || !localtime_r(&t, &tm) ||
        !strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Z %Y", &tm))
        return comb_arena_strdup(a, "UNKNOWN");
    return comb_arena_strdup(a, buf);
}

/* A Java List's toString of names: "[a, b]". */
static char *name_list(CombArena *a, char *const *names, int n)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    comb_buf_append_byte(&b, '[');
    for (int i = 0; i < n; i++)
        comb_buf_printf(&b, "%s%s", i ? ", " : "", names[i] ? names[i] : "null");
    comb_buf_append_byte(&b, ']');
    out = comb_arena_strndup(a, (char *)b.data, b.len);
    comb_buf_free(&b);
    return out;
}

/* Sort Columns: Thrift's Order toString, "[Order(col:a, order:1)]". */
static char *sort_list(CombArena *a, const MsTable *t)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    comb_buf_append_byte(&b, '[');
    for (int i = 0; i < t->n_sort_cols; i++)
        comb_buf_printf(&b, "%sOrder(col:%s, order:%d)", i ? ", " : "",
                        t->sort_cols[i].name, t->sort_cols[i].order);
    comb_buf_append_byte(&b, ']');
    out = comb_arena_strndup(a, (char *)b.data, b.len);
    comb_buf_free(&b);
    return out;
}

/* ---------------------------------------------------------------- columns */

static int column_row(HiveText *h, CombArena *a, const MsColumn *col)
{
    const char *r[3] = {col->name, col->type, col->comment ? col->comment : ""};
    return hive_text_row(h, a, r, 3);
}

/* The "# col_name data_type comment" header row, "# " before it. */
static int header_row(HiveText *h, CombArena *a)
{
    const char *hdr[3] = {"col_name", "data_type", "comment"};
    hive_text_put(h, "# ");
    return hive_text_row(h, a, hdr, 3);
}

/* Data columns (with the partition keys unless FORMATTED), then the
 * "# Partition Information" section of a partitioned table. */
static int columns_part(SqlStmtCtx *c, HiveText *h, const MsTable *t,
                        bool formatted)
{
    int rc = COMB_OK;
    if (formatted && h->padded)
        rc = header_row(h, c->arena);
    for (int i = 0; i < t->n_cols && !rc; i++)
        rc = column_row(h, c->arena, &t->cols[i]);
    for (int i = 0; !formatted && i < t->n_part_keys && !rc; i++)
        rc = column_row(h, c->arena, &t->part_keys[i]);
    if (rc || t->n_part_keys == 0)
        return rc;
    hive_text_line(h, "");
    hive_text_line(h, "# Partition Information");
    rc = header_row(h, c->arena);
    for (int i = 0; i < t->n_part_keys && !rc; i++)
        rc = column_row(h, c->arena, &t->part_keys[i]);
    return rc;
}

/* --------------------------------------------------------- FORMATTED */

typedef struct StorageDesc {
    const char *serde, *input_format, *output_format;
} StorageDesc;

static int storage_part(SqlStmtCtx *c, HiveText *h, const MsTable *t,
                        const StorageDesc *sd)
{
    char buckets[24];
    char *cols = name_list(c->arena, t->bucket_cols, t->n_bucket_cols);
    char *sorts = sort_list(c->arena, t);
    if (!cols || !sorts)
        return COMB_ENOMEM;
    snprintf(buckets, sizeof buckets, "%d", t->n_buckets);
    hive_text_line(h, "");
    hive_text_line(h, "# Storage Information");
    hive_text_pair(h, "SerDe Library:", sd->serde);
    hive_text_pair(h, "InputFormat:", sd->input_format);
    hive_text_pair(h, "OutputFormat:", sd->output_format);
    hive_text_pair(h, "Compressed:", "No");
    hive_text_pair(h, "Num Buckets:", buckets);
    hive_text_pair(h, "Bucket Columns:", cols);
    hive_text_pair(h, "Sort Columns:", sorts);
    if (t->n_serde_params == 0)
        return COMB_OK;
    hive_text_line(h, "Storage Desc Params:");
    return hive_text_params(h, c->arena, t->serde_params, t->n_serde_params,
                            true, false);
}

/* Hive's "# Constraints" block, as DESCRIBE FORMATTED prints it when the
 * table has a constraint: its DEFAULT constraints (the only kind comb
 * keeps), one block per constraint. */
static int constraints_part(SqlStmtCtx *c, HiveText *h, const MsTable *t)
{
    char *table = NULL;
    for (int i = 0; i < t->n_cols; i++) {
        char *column, *value;
        if (!t->cols[i].default_value)
            continue;
        if (!table) {
            if (!(table = comb_arena_printf(c->arena, "%s.%s", t->db, t->name)))
                return COMB_ENOMEM;
            hive_text_line(h, "");
            hive_text_line(h, "# Constraints");
            hive_text_line(h, "");
            hive_text_line(h, "# Default Constraints");
            hive_text_pair(h, "Table:", table);
        }
        column = comb_arena_printf(c->arena, "Column Name:%s", t->cols[i].name);
        value = comb_arena_printf(c->arena, "Default Value:%s",
                                   t->cols[i].default_value);
        if (!column || !value)
            return COMB_ENOMEM;
        hive_text_pair(h, "Constraint Name:", t->cols[i].default_name);
        hive_text_pair(h, column, value);
        hive_text_line(h, "");
    }
    return COMB_OK;
}

static bool is_view(const MsTable *t)
{
    return t->table_type && strcmp(t->table_type, MS_VIRTUAL_VIEW) == 0;
}

static int table_part(SqlStmtCtx *c, HiveText *h, const SqlTable *st,
                      const MsProperty *params, int n_params)
{
    const MsTable *t = st->ms;
    StorageDesc sd = {t->serde, t->input_format, t->output_format};
    char *created = java_date(c->arena, t->create_time);
    int rc = COMB_OK;
    hive_text_line(h, "");
    hive_text_line(h, "# Detailed Table Information");
    hive_text_pair(h, "Database:", t->db);
    hive_text_pair(h, "OwnerType:", "USER");
    hive_text_pair(h, "Owner:", t->owner);
    hive_text_pair(h, "CreateTime:", created);
    hive_text_pair(h, "LastAccessTime:", "UNKNOWN");
    hive_text_pair(h, "Retention:", "0");
    if (!is_view(t))
        hive_text_pair(h, "Location:", sql_location_uri(c->arena, t->location));
    hive_text_pair(h, "Table Type:", t->table_type);
    if (n_params > 0) {
        hive_text_line(h, "Table Parameters:");
        rc = hive_text_params(h, c->arena, params, n_params, false, h->padded);
    }
    if (!rc)
        rc = storage_part(c, h, t, &sd);
    if (!rc)
        rc = constraints_part(c, h, t);
    if (rc || !is_view(t))
        return rc;
    hive_text_line(h, "");
    hive_text_line(h, "# View Information");
    hive_text_pair(h, "Original Query:", t->view_original_text);
    hive_text_pair(h, "Expanded Query:", t->view_expanded_text);
    return COMB_OK;
}

static int partition_part(SqlStmtCtx *c, HiveText *h, const SqlTable *st,
                          const MsPartition *p, const MsProperty *params,
                          int n_params)
{
    StorageDesc sd = {p->serde, p->input_format, p->output_format};
    char *values = name_list(c->arena, p->values, p->n_values);
    int rc = COMB_OK;
    hive_text_line(h, "");
    hive_text_line(h, "# Detailed Partition Information");
    hive_text_pair(h, "Partition Value:", values);
    hive_text_pair(h, "Database:", st->ms->db);
    hive_text_pair(h, "Table:", st->ms->name);
    hive_text_pair(h, "CreateTime:", java_date(c->arena, p->create_time));
    hive_text_pair(h, "LastAccessTime:", "UNKNOWN");
    hive_text_pair(h, "Location:", sql_location_uri(c->arena, p->location));
    if (n_params > 0) {
        hive_text_line(h, "Partition Parameters:");
        rc = hive_text_params(h, c->arena, params, n_params, true, false);
    }
    return rc ? rc : storage_part(c, h, st->ms, &sd);
}

/* ---------------------------------------------------------- EXTENDED */

/* Thrift's toString of a map<string,string>, keys sorted. */
static void thrift_map(CombBuf *b, CombArena *a, const MsProperty *props,
                       int n)
{
    MsProperty *sorted = comb_arena_alloc(a, (size_t)(n + 1) * sizeof *sorted);
    comb_buf_append_byte(b, '{');
    if (sorted) {
        if (n > 0)
            memcpy(sorted, props, (size_t)n * sizeof *sorted);
        sql_props_sort(sorted, n);
        for (int i = 0; i < n; i++)
            comb_buf_printf(b, "%s%s=%s", i ? ", " : "", sorted[i].key,
                            sorted[i].value ? sorted[i].value : "null");
    }
    comb_buf_append_byte(b, '}');
}

static void thrift_fields(CombBuf *b, const MsColumn *cols, int n)
{
    comb_buf_append_byte(b, '[');
    for (int i = 0; i < n; i++)
        comb_buf_printf(b, "%sFieldSchema(name:%s, type:%s, comment:%s)",
                        i ? ", " : "", cols[i].name, cols[i].type,
                        cols[i].comment ? cols[i].comment : "null");
    comb_buf_append_byte(b, ']');
}

/* Thrift's StorageDescriptor(...) of the table's columns and storage. */
static void thrift_sd(CombBuf *b, CombArena *a, const MsTable *t,
                      const char *location, const StorageDesc *sd)
{
    char *buckets = name_list(a, t->bucket_cols, t->n_bucket_cols);
    comb_buf_append_str(b, "StorageDescriptor(cols:");
    thrift_fields(b, t->cols, t->n_cols);
    comb_buf_printf(b, ", location:%s, inputFormat:%s, outputFormat:%s, "
                    "compressed:false, numBuckets:%d, serdeInfo:SerDeInfo("
                    "name:null, serializationLib:%s, parameters:",
                    location ? location : "null",
                    sd->input_format ? sd->input_format : "null",
                    sd->output_format ? sd->output_format : "null",
                    t->n_buckets, sd->serde ? sd->serde : "null");
    thrift_map(b, a, t->serde_params, t->n_serde_params);
    comb_buf_printf(b, "), bucketCols:%s, sortCols:[", buckets ? buckets : "[]");
    for (int i = 0; i < t->n_sort_cols; i++)
        comb_buf_printf(b, "%sOrder(col:%s, order:%d)", i ? ", " : "",
                        t->sort_cols[i].name, t->sort_cols[i].order);
    comb_buf_append_str(b, "], parameters:{}, skewedInfo:SkewedInfo("
                        "skewedColNames:[], skewedColValues:[], "
                        "skewedColValueLocationMaps:{}), "
                        "storedAsSubDirectories:false)");
}

/* The "Detailed Table|Partition Information" line of EXTENDED: Thrift's
 * toString of the metastore object (the table's escaped as Hive escapes
 * it), then an empty comment field. */
static int extended_part(SqlStmtCtx *c, HiveText *h, const MsTable *t,
                         const MsPartition *p, const MsProperty *params,
                         int n_params)
{
    CombBuf b = COMB_BUF_INIT;
    CombArena *a = c->arena;
    char *text;
    if (p) {
        StorageDesc sd = {p->serde, p->input_format, p->output_format};
        comb_buf_append_str(&b, "Partition(values:");
        comb_buf_append_str(&b, name_list(a, p->values, p->n_values));
        comb_buf_printf(&b, ", dbName:%s, tableName:%s, createTime:%lld, "
                        "lastAccessTime:0, sd:", t->db, t->name,
                        (long long)p->create_time);
        thrift_sd(&b, a, t, sql_location_uri(a, p->location), &sd);
        comb_buf_append_str(&b, ", parameters:");
        thrift_map(&b, a, params, n_params);
        comb_buf_append_str(&b, ", catName:hive)");
    } else {
        StorageDesc sd = {t->serde, t->input_format, t->output_format};
        comb_buf_printf(&b, "Table(tableName:%s, dbName:%s, owner:%s, "
                        "createTime:%lld, lastAccessTime:0, retention:0, sd:",
                        t->name, t->db, t->owner, (long long)t->create_time);
        thrift_sd(&b, a, t, sql_location_uri(a, t->location), &sd);
        comb_buf_append_str(&b, ", partitionKeys:");
        thrift_fields(&b, t->part_keys, t->n_part_keys);
        comb_buf_append_str(&b, ", parameters:");
        thrift_map(&b, a, params, n_params);
        comb_buf_printf(&b, ", viewOriginalText:%s, viewExpandedText:%s, "
                        "tableType:%s, rewriteEnabled:false, catName:hive, "
                        "ownerType:USER)",
                        t->view_original_text ? t->view_original_text : "null",
                        t->view_expanded_text ? t->view_expanded_text : "null",
                        t->table_type);
    }
    text = comb_arena_strndup(a, b.data ? (char *)b.data : "", b.len);
    comb_buf_free(&b);
    if (text && !p)
        text = hive_escape(a, text, HIVE_ESCAPE_JAVA);
    if (!text)
        return COMB_ENOMEM;
    hive_text_line(h, "");
    hive_text_put(h, p ? "Detailed Partition Information\t"
                             : "Detailed Table Information\t");
    hive_text_put(h, text);
    hive_text_line(h, "\t");
    return COMB_OK;
}

/* ------------------------------------------------------------ lookup */

/* Hive's "Partition not found {k1=v1, k2=v2}" for the spec as given:
 * normalized values where known, else the literals as written. */
static int partition_missing(const AstPartSpec *ps, char *const *values,
                             CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc;
    for (int i = 0; i < ps->n; i++) {
        const AstExpr *v = ps->items[i].value;
        const char *text = values && values[i] ? values[i]
                           : v->kind == AST_LIT_STRING ? v->sval
                           : v->kind == AST_LIT_NULL  ? MS_DEFAULT_PARTITION_NAME
                                                      : v->text;
        comb_buf_printf(&b, "%s%s=%s", i ? ", " : "", ps->items[i].key, text);
    }
    rc = comb_err_hive(err, COMB_ENOTFOUND, 10006, "SemanticException [Error "
                       "10006]: Partition not found {%.*s}", (int)b.len,
                       b.data ? (char *)b.data : "");
    comb_buf_free(&b);
    return rc;
}

int sql_spec_partition(SqlStmtCtx *c, const SqlTable *t, const AstPartSpec *ps,
                       MsPartition **out, CombErr *err)
{
    char **values = comb_arena_calloc(c->arena, (size_t)(t->n_part + 1) * sizeof *values);
    char **shown = comb_arena_calloc(c->arena, (size_t)(ps->n + 1) * sizeof *shown);
    char *name;
    int rc;
    if (!values || !shown)
        return comb_err_nomem(err);
    /* keys in any order, as Hive's spec is a map */
    for (int i = 0; i < ps->n; i++) {
        int key = sql_table_column(t, ps->items[i].key) - t->n_data;
        if (key < 0 || values[key])
            return partition_missing(ps, NULL, err);
        if ((rc = sql_part_static_value(c, t, key, &ps->items[i], &values[key], err)))
            return rc;
        if (!values[key])
            values[key] = (char *)MS_DEFAULT_PARTITION_NAME;
        shown[i] = values[key];
    }
    if (ps->n != t->n_part)
        return partition_missing(ps, shown, err);
    if ((rc = ms_part_name_make(t->ms, values, c->arena, &name, err)))
        return rc;
    rc = ms_part_get(c->s->ms, t->ms->db, t->ms->name, name, c->arena, out, err);
    return rc == COMB_ENOTFOUND ? partition_missing(ps, shown, err) : rc;
}

/* ------------------------------------------------------------ columns */

/* Column `name` of t (a data column or a partition key); COMB_ESEMANTIC
 * 10002 at the name when there is none. */
static int find_column(SqlStmtCtx *c, const SqlTable *t, MsColumn *out,
                       CombErr *err)
{
    const AstCatalog *cat = c->stmt->catalog;
    const MsTable *m = t->ms;
    for (int i = 0; i < m->n_cols + m->n_part_keys; i++) {
        const MsColumn *cand = i < m->n_cols ? &m->cols[i]
                                             : &m->part_keys[i - m->n_cols];
        if (strcmp(cand->name, cat->column) == 0) {
            *out = *cand;
            if (!out->comment || t->format != SQL_FORMAT_TEXT)
                out->comment = "from deserializer";
            return COMB_OK;
        }
    }
    return sql_err_at(err, COMB_ESEMANTIC, 10002, cat->column_pos,
                      "Invalid column reference %s", cat->column);
}

/* COLUMN_STATS_ACCURATE of the table or partition, as DESCRIBE of a
 * column shows it last. */
static int accurate_pair(SqlStmtCtx *c, HiveText *h, const SqlTable *t,
                         const MsPartition *part, CombErr *err)
{
    MsProperty *params;
    int n, rc;
    if (t->kind == SQL_TABLE_VIEW)
        return COMB_OK;
    rc = part ? sql_partition_params(c, t, part, &params, &n, err)
              : sql_table_params(c, t, &params, &n, err);
    for (int i = 0; i < n && !rc; i++)
        if (strcmp(params[i].key, "COLUMN_STATS_ACCURATE") == 0) {
            char *v = hive_escape(c->arena, params[i].value, HIVE_ESCAPE_JAVA);
            if (!v)
                return comb_err_nomem(err);
            hive_text_pair(h, "COLUMN_STATS_ACCURATE", v);
        }
    return rc;
}

/* DESCRIBE t col: the column as the table's deserializer describes it
 * (its comment for text tables, "from deserializer" where the SerDe keeps
 * none, as ORC's), then the COLUMN_STATS_ACCURATE parameter. */
static int describe_column(SqlStmtCtx *c, HiveText *h, const SqlTable *t,
                           CombErr *err)
{
    MsColumn shown;
    int rc = find_column(c, t, &shown, err);
    if (rc)
        return rc;
    if (column_row(h, c->arena, &shown))
        return comb_err_nomem(err);
    return accurate_pair(c, h, t, NULL, err);
}

/* The statistics of data column `col` that apply to the partition, the
 * unpartitioned table or (a partitioned table without a partition) to all
 * of its partitions together; *found false when there are none. */
static int column_stats(SqlStmtCtx *c, const SqlTable *t,
                        const MsPartition *part, int col, MsColStats *out,
                        bool *found, CombErr *err)
{
    SqlColStats *sum;
    SqlUnit *units, one;
    MsColStats *rows;
    int n_units = 1, n, rc;
    *found = false;
    if (part)
        rc = sql_unit_from_partition(c, t, part, &one, err);
    else
        rc = sql_table_units(c, t, NULL, &units, &n_units, err);
    if (rc || n_units == 0 || (rc = sql_colstats_new(c, t, &sum, err)))
        return rc;
    for (int i = 0; i < n_units && !rc; i++) {
        rc = sql_colstats_valid(c, t, part ? &one : &units[i], &rows, &n, err);
        if (!rc)
            rc = sql_colstats_merge(sum, rows, n, err);
    }
    if (!rc)
        rc = sql_colstats_rows(c, sum, "", &rows, &n, err);
    for (int i = 0; i < n && !rc; i++)
        if (strcmp(rows[i].column, t->ms->cols[col].name) == 0) {
            *out = rows[i];
            *found = true;
        }
    return rc;
}

static char *count_text(SqlStmtCtx *c, int64_t v)
{
    return v < 0 ? "" : comb_arena_printf(c->arena, "%lld", (long long)v);
}

/* DESCRIBE FORMATTED t [PARTITION (...)] col: Hive's rows of the column
 * and its statistics (empty where there are none), then the comment and
 * COLUMN_STATS_ACCURATE. */
static int describe_column_stats(SqlStmtCtx *c, HiveText *h, const SqlTable *t,
                                 const MsPartition *part, CombErr *err)
{
    MsColumn shown;
    MsColStats st = {.low = "", .high = "", .num_nulls = -1,
                     .num_distincts = -1, .num_trues = -1, .num_falses = -1,
                     .max_col_len = -1, .avg_col_len = -1};
    bool found = false;
    char avg[32] = "";
    int col, rc = find_column(c, t, &shown, err);
    if (rc)
        return rc;
    col = sql_table_column(t, shown.name);
    if (t->kind != SQL_TABLE_VIEW && col < t->n_data &&
        (rc = column_stats(c, t, part, col, &st, &found, err)))
        return rc;
    if (st.avg_col_len >= 0)
        comb_format_double(st.avg_col_len, avg, sizeof avg);
    hive_text_pair(h, "col_name", shown.name);
    hive_text_pair(h, "data_type", shown.type);
    hive_text_pair(h, "min", st.low ? st.low : "");
    hive_text_pair(h, "max", st.high ? st.high : "");
    hive_text_pair(h, "num_nulls", count_text(c, st.num_nulls));
    hive_text_pair(h, "distinct_count", count_text(c, st.num_distincts));
    hive_text_pair(h, "avg_col_len", avg);
    hive_text_pair(h, "max_col_len", count_text(c, st.max_col_len));
    hive_text_pair(h, "num_trues", count_text(c, st.num_trues));
    hive_text_pair(h, "num_falses", count_text(c, st.num_falses));
    hive_text_pair(h, "bit_vector", found && st.bit_vector ? "HL" : "");
    hive_text_pair(h, "comment", shown.comment);
    return accurate_pair(c, h, t, part, err);
}

int sql_exec_describe(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    bool formatted = st->describe_formatted, extended = st->describe_extended;
    MsPartition *part = NULL;
    MsProperty *params = NULL;
    HiveText h;
    SqlTable *t;
    int n_params = 0, rc;
    if ((rc = sql_catalog_table(c, &st->name, true, &t, err)))
        return rc;
    if (st->part.n > 0 && (rc = sql_spec_partition(c, t, &st->part, &part, err)))
        return rc;
    hive_text_init(&h, sql_ddl_padded(c));
    if (st->catalog && st->catalog->column) {
        rc = formatted || extended ? describe_column_stats(c, &h, t, part, err)
                                   : describe_column(c, &h, t, err);
    } else {
        if ((formatted || extended) &&
            (rc = part ? sql_partition_params(c, t, part, &params, &n_params, err)
                       : sql_table_params(c, t, &params, &n_params, err))) {
            hive_text_free(&h);
            return rc;
        }
        rc = columns_part(c, &h, t->ms, formatted);
        if (!rc && formatted)
            rc = part ? partition_part(c, &h, t, part, params, n_params)
                      : table_part(c, &h, t, params, n_params);
        if (!rc && extended)
            rc = extended_part(c, &h, t->ms, part, params, n_params);
        if (rc == COMB_ENOMEM)
            comb_err_nomem(err);
    }
    if (!rc)
        rc = hive_text_emit(c, &h, 3, DESC_NAMES, err);
    hive_text_free(&h);
    return rc;
}

/* --------------------------------------------------------- databases */

int sql_exec_describe_database(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {
        "db_name", "comment", "location", "managedLocation", "owner_name",
        "owner_type", "connector_name", "remote_dbname", "parameters"};
    const AstStmt *st = c->stmt;
    MsDatabase *d;
    TextResult tr;
    int rc = ms_db_get(c->s->ms, st->name.name, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return comb_err_hive(err, rc, 10072, "SemanticException [Error 10072]: "
                             "Database does not exist: %s", st->name.name);
    if (rc)
        return rc;
    const char *row[9] = {
        d->name, d->comment ? hive_escape(c->arena, d->comment, HIVE_ESCAPE_JAVA) : "",
        sql_location_uri(c->arena, d->location), "", d->owner ? d->owner : "",
        d->owner ? "USER" : "", "", "", ""};
    if (!row[1] || !row[2])
        return comb_err_nomem(err);
    if (sql_text_begin(&tr, st->describe_extended ? 9 : 8))
        return comb_err_nomem(err);
    if ((rc = sql_text_row(&tr, row, err))) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}
