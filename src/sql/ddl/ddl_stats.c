/*
 * ddl_stats.c - the basic statistics Hive keeps in table and partition
 * parameters (numFiles, numRows, rawDataSize, totalSize), computed when a
 * statement shows them from the files the statement's snapshot reads, so
 * they can never be stale: no writing statement keeps them.
 *
 *  - numFiles, totalSize: the data files the snapshot reads (the chosen
 *    base, insert deltas, delete deltas and original files of a full-ACID
 *    unit; the base and delta files of an insert-only one; every visible
 *    file of a plain one) and their sizes in bytes.
 *  - numRows: ORC files' row counts from their footers, minus the delete
 *    events in the delete deltas read (full ACID); text files' rows as
 *    the scan reads them (headers and footers skipped).
 *  - COLUMN_STATS_ACCURATE: basic statistics always; column statistics
 *    for the columns whose stored statistics describe the unit's files as
 *    they are (exec/colstats.h), and for every column of a table without
 *    files (accurate_columns).
 *  - rawDataSize: what Hive's writers report: 0 for full-ACID files (the
 *    ACID record updater keeps none), ORC's own estimate from the column
 *    statistics of the footer (WriterImpl.getRawDataSize with Java's
 *    64-bit data model) for other ORC files, and LazySimpleSerDe's
 *    serialized bytes (the rows without their line ends) for text files.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acid/acid.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/colstats.h"

/* JavaDataModel.JAVA64: object 32, array 40, primitives 4 and 8 bytes. */
enum {
    JAVA_OBJECT = 32,
    JAVA_ARRAY = 40,
    JAVA_PRIMITIVE1 = 4,
    JAVA_PRIMITIVE2 = 8,
    JAVA_TIMESTAMP = JAVA_OBJECT + JAVA_PRIMITIVE2,
    JAVA_DATE = JAVA_OBJECT + 3 * JAVA_PRIMITIVE2,
    JAVA_DECIMAL = JAVA_OBJECT + 2 * JAVA_PRIMITIVE2 +
                   (JAVA_OBJECT + 4 * JAVA_PRIMITIVE2)
};

/* ORC's raw size of the values of one column (its tree writer's
 * getRawDataSize): numbers and dates by Java's object sizes, strings as
 * Java strings of the average length, binaries by their bytes; compound
 * columns by their children. */
static int64_t column_raw_size(const OrcReader *r, const CombType *t)
{
    OrcColumnStats st;
    int64_t n;
    if (t->n_children > 0 || t->kind == COMB_T_STRUCT) {
        int64_t sum = 0;
        for (int i = 0; i < t->n_children; i++)
            sum += column_raw_size(r, t->children[i]);
        return sum;
    }
    if (orc_reader_column_stats(r, t->id, &st) != COMB_OK)
        return 0;
    n = (int64_t)st.n_values;
    switch (t->kind) {
    case COMB_T_BINARY:
        return st.str_sum_len;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return n == 0 ? 0
                      : n * (JAVA_OBJECT + 3 * JAVA_PRIMITIVE1 + JAVA_ARRAY +
                             (int32_t)(st.str_sum_len / n));
    case COMB_T_TIMESTAMP: return n * JAVA_TIMESTAMP;
    case COMB_T_DATE: return n * JAVA_DATE;
    case COMB_T_DECIMAL: return n * JAVA_DECIMAL;
    case COMB_T_BIGINT:
    case COMB_T_DOUBLE: return n * JAVA_PRIMITIVE2;
    case COMB_T_BOOLEAN:
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_FLOAT: return n * JAVA_PRIMITIVE1;
    default: return 0;
    }
}

/* Rows, and unless acid the raw size, of one ORC file. */
static int orc_file_stats(const char *path, bool acid, SqlBasicStats *s,
                          int64_t sign, CombErr *err)
{
    OrcReader *r;
    /* a growing streaming file counts up to its committed length */
    int rc = acid ? acid_data_file_open(path, &r, err)
                  : orc_reader_open(path, &r, err);
    if (rc || !r)
        return rc;
    s->num_rows += sign * (int64_t)orc_reader_n_rows(r);
    if (!acid)
        s->raw_data_size += column_raw_size(r, orc_reader_schema(r));
    orc_reader_close(r);
    return COMB_OK;
}

/* Rows and row bytes of one text file, read as the scan reads it. */
static int text_file_stats(const SqlTable *t, const char *path,
                           SqlBasicStats *s, CombErr *err)
{
    TextOptions opt;
    TextReader *r;
    CombBatch b;
    int rc;
    if ((rc = sql_table_text_options(t, &opt, err)) ||
        (rc = text_reader_open(path, &opt, 0, NULL, &r, err)))
        return rc;
    if (comb_batch_init_types(&b, 0, NULL, COMB_BATCH_SIZE)) {
        text_reader_close(r);
        return comb_err_nomem(err);
    }
    do {
        rc = text_reader_next(r, &b, err);
        s->num_rows += b.n_rows;
    } while (!rc && b.n_rows > 0);
    s->raw_data_size += text_reader_row_bytes(r);
    comb_batch_free(&b);
    text_reader_close(r);
    return rc;
}

static int count_file(const char *path, SqlBasicStats *s, CombErr *err)
{
    uint64_t size;
    int rc = fs_file_size(path, &size, err);
    if (rc)
        return rc;
    s->num_files++;
    s->total_size += (int64_t)size;
    return COMB_OK;
}

/* The bucket files of one ACID directory: counted, and their rows added
 * (insert deltas, base) or taken away (delete deltas). */
static int acid_dir_files(SqlStmtCtx *c, const char *unit, const char *name,
                          int64_t sign, SqlBasicStats *s, CombErr *err)
{
    const char *dir = fs_join(c->arena, unit, name);
    char **names;
    int n, rc;
    if (!dir)
        return comb_err_nomem(err);
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n && !rc; i++) {
        int bucket;
        const char *path;
        if (!acid_bucket_file_parse(names[i], &bucket))
            continue;
        if (!(path = fs_join(c->arena, dir, names[i])))
            return comb_err_nomem(err);
        if (!(rc = count_file(path, s, err)))
            rc = orc_file_stats(path, true, s, sign, err);
    }
    return rc;
}

static int acid_unit_stats(SqlStmtCtx *c, const SqlUnit *u,
                           const CombWriteIdList *wil, SqlBasicStats *s,
                           CombErr *err)
{
    AcidDirState st;
    int rc = acid_dir_state_get(u->dir, wil, &c->snapshot, c->arena, &st, err);
    if (!rc && st.base)
        rc = acid_dir_files(c, u->dir, st.base->name, 1, s, err);
    for (int i = 0; i < st.n_deltas && !rc; i++)
        rc = acid_dir_files(c, u->dir, st.deltas[i].name, 1, s, err);
    for (int i = 0; i < st.n_delete_deltas && !rc; i++)
        rc = acid_dir_files(c, u->dir, st.delete_deltas[i].name, -1, s, err);
    for (int i = 0; i < st.n_originals && !rc; i++) {
        const char *path = fs_join(c->arena, u->dir, st.originals[i]);
        if (!path)
            return comb_err_nomem(err);
        if (!(rc = count_file(path, s, err)))
            rc = orc_file_stats(path, true, s, 1, err);
    }
    /* delete events aimed at rows the snapshot does not hold */
    if (s->num_rows < 0)
        s->num_rows = 0;
    return rc;
}

/* The statistics of unit u under the table's write-id list wil (NULL
 * for a plain table). */
static int unit_stats(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                      const CombWriteIdList *wil, SqlBasicStats *s,
                      CombErr *err)
{
    char **paths;
    int n, rc;
    if (t->kind == SQL_TABLE_ACID)
        return acid_unit_stats(c, u, wil, s, err);
    if ((rc = sql_unit_files(c, t, u, wil, &paths, &n, err)))
        return rc;
    for (int i = 0; i < n && !rc; i++) {
        if ((rc = count_file(paths[i], s, err)))
            break;
        rc = t->format == SQL_FORMAT_TEXT
                 ? text_file_stats(t, paths[i], s, err)
                 : orc_file_stats(paths[i], false, s, 1, err);
    }
    return rc;
}

/* Every unit's statistics added up into s (one unit: u; all: u NULL). */
static int stats_of(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                    SqlBasicStats *s, int *n_parts, CombErr *err)
{
    CombWriteIdList wil;
    SqlUnit *units = (SqlUnit *)u;
    bool have_wil = false;
    int n = 1, rc = COMB_OK;
    memset(s, 0, sizeof *s);
    *n_parts = 0;
    if (t->kind == SQL_TABLE_VIEW)
        return COMB_OK;
    if (!u && (rc = sql_table_units(c, t, NULL, &units, &n, err)))
        return rc;
    if (t->n_part > 0)
        *n_parts = n;
    if (t->kind != SQL_TABLE_PLAIN) {
        if ((rc = sql_table_writeids(c, t, &wil, err)))
            return rc;
        have_wil = true;
    }
    for (int i = 0; i < n && !rc; i++) {
        SqlBasicStats one = {0};
        rc = unit_stats(c, t, &units[i], have_wil ? &wil : NULL, &one, err);
        s->num_files += one.num_files;
        s->num_rows += one.num_rows;
        s->raw_data_size += one.raw_data_size;
        s->total_size += one.total_size;
    }
    if (have_wil)
        comb_writeidlist_free(&wil);
    return rc;
}

int sql_unit_stats(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                   SqlBasicStats *s, CombErr *err)
{
    int n_parts;
    return stats_of(c, t, u, s, &n_parts, err);
}

int sql_table_stats(SqlStmtCtx *c, const SqlTable *t, SqlBasicStats *s,
                    int *n_parts, CombErr *err)
{
    return stats_of(c, t, NULL, s, n_parts, err);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The columns COLUMN_STATS_ACCURATE names for unit u of t (NULL: a
 * partitioned table's own parameters, which name none), sorted by name as
 * Hive's TreeMap: those whose stored statistics describe the unit as it
 * is, or every column of an unpartitioned table without files (Hive
 * claims them for a new table, CreateTableDesc's
 * setStatsStateForCreateTable; an empty one's are known). */
static int accurate_columns(SqlStmtCtx *c, const SqlTable *t,
                            const SqlUnit *u, const SqlBasicStats *s,
                            char ***names, int *n, CombErr *err)
{
    MsColStats *rows;
    int rc;
    *names = NULL;
    *n = 0;
    if (!u || t->ms->n_cols == 0)
        return COMB_OK;
    if (!(*names = comb_arena_alloc(c->arena, (size_t)t->ms->n_cols *
                                                   sizeof **names)))
        return comb_err_nomem(err);
    if (t->n_part == 0 && s->num_files == 0 && s->num_rows == 0) {
        for (int i = 0; i < t->ms->n_cols; i++)
            (*names)[(*n)++] = t->ms->cols[i].name;
    } else {
        if ((rc = sql_colstats_valid(c, t, u, &rows, n, err)))
            return rc;
        for (int i = 0; i < *n; i++)
            (*names)[i] = rows[i].column;
    }
    qsort(*names, (size_t)*n, sizeof **names, cmp_names);
    return COMB_OK;
}

/* COLUMN_STATS_ACCURATE: basic statistics are always accurate (computed
 * from the snapshot's files), column statistics for names[0..n). */
static char *stats_accurate(SqlStmtCtx *c, char *const *names, int n)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    int rc;
    if (n == 0)
        return (char *)"{\"BASIC_STATS\":\"true\"}";
    rc = comb_buf_append_str(&b, "{\"BASIC_STATS\":\"true\","
                                 "\"COLUMN_STATS\":{");
    for (int i = 0; i < n; i++)
        rc |= comb_buf_printf(&b, "%s\"%s\":\"true\"", i ? "," : "",
                              names[i]);
    rc |= comb_buf_append_str(&b, "}}");
    rc |= comb_buf_append_byte(&b, '\0');
    out = rc ? NULL : comb_arena_strdup(c->arena, (const char *)b.data);
    comb_buf_free(&b);
    return out;
}

/* The stored parameters with the computed statistics in place of any
 * stored ones (and numPartitions for a partitioned table's), and
 * transient_lastDdlTime, which Hive's metastore always sets, from the
 * creation time when none is stored.  t: the table whose columns
 * COLUMN_STATS_ACCURATE may name (NULL: a partition's). */
static int merge_stats(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                       const MsProperty *stored, int n_stored,
                       const SqlBasicStats *s, int n_parts, int64_t ddl_time,
                       MsProperty **out, int *n_out, CombErr *err)
{
    static const char *const keys[] = {
        "COLUMN_STATS_ACCURATE", "numFiles", "numFilesErasureCoded",
        "numRows", "rawDataSize", "totalSize", "numPartitions",
    };
    const int64_t values[] = {0, s->num_files, 0, s->num_rows,
                              s->raw_data_size, s->total_size, n_parts};
    int n_keys = n_parts >= 0 ? 7 : 6, n = 0, n_accurate, rc;
    bool have_ddl_time = false;
    char **accurate;
    MsProperty *p = comb_arena_alloc(c->arena, (size_t)(n_stored + 9) * sizeof *p);
    if (!p)
        return comb_err_nomem(err);
    if ((rc = accurate_columns(c, t, u, s, &accurate, &n_accurate, err)))
        return rc;
    for (int i = 0; i < n_stored; i++) {
        bool computed = false;
        for (int k = 0; k < 7; k++)
            computed |= strcmp(stored[i].key, keys[k]) == 0;
        have_ddl_time |= strcmp(stored[i].key, MS_DDL_TIME) == 0;
        if (!computed)
            p[n++] = stored[i];
    }
    if (!have_ddl_time &&
        !(p[n++] = (MsProperty){(char *)MS_DDL_TIME,
                                comb_arena_printf(c->arena, "%lld",
                                                  (long long)ddl_time)})
             .value)
        return comb_err_nomem(err);
    for (int k = 0; k < n_keys; k++) {
        char *v = k == 0 ? stats_accurate(c, accurate, n_accurate)
                         : comb_arena_printf(c->arena, "%lld",
                                             (long long)values[k]);
        if (!v)
            return comb_err_nomem(err);
        p[n++] = (MsProperty){(char *)keys[k], v};
    }
    *out = p;
    *n_out = n;
    return COMB_OK;
}

int sql_table_params(SqlStmtCtx *c, const SqlTable *t, MsProperty **out,
                     int *n, CombErr *err)
{
    SqlBasicStats s;
    SqlUnit *units = NULL;
    int n_parts, n_units, rc;
    *out = t->ms->props;
    *n = t->ms->n_props;
    if (t->kind == SQL_TABLE_VIEW)
        return COMB_OK;
    if ((rc = sql_table_stats(c, t, &s, &n_parts, err)) ||
        (t->n_part == 0 &&
         (rc = sql_table_units(c, t, NULL, &units, &n_units, err))))
        return rc;
    return merge_stats(c, t, units, t->ms->props, t->ms->n_props, &s,
                       t->n_part > 0 ? n_parts : -1, t->ms->create_time, out,
                       n, err);
}

int sql_partition_params(SqlStmtCtx *c, const SqlTable *t,
                         const MsPartition *p, MsProperty **out, int *n,
                         CombErr *err)
{
    SqlBasicStats s;
    SqlUnit u;
    int rc;
    if ((rc = sql_unit_from_partition(c, t, p, &u, err)) ||
        (rc = sql_unit_stats(c, t, &u, &s, err)))
        return rc;
    return merge_stats(c, t, &u, p->params, p->n_params, &s, -1,
                       p->create_time, out,
                       n, err);
}
