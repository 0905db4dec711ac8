/*
 * colstats.c - column statistics: gathering (sql_colstats_add), merging
 * with stored ones, their text forms in the metastore, and the source
 * digest that says whether stored ones still apply (colstats.h).
 *
 * Hive's rules kept: integers, dates and timestamps (whole seconds) have
 * long ranges, floats and doubles double ones, decimals decimal ones;
 * strings, varchars and chars (without their padding) their lengths and
 * distinct values; binaries their lengths only; booleans their trues and
 * falses.  Merged averages take the larger (Hive's StringColumnStatsMerger
 * does the same), distinct values the union of the sketches.
 */
#include "sql/exec/colstats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acid/acid.h"
#include "common/alloc.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/datetime.h"
#include "common/hll.h"
#include "common/numfmt.h"
#include "fs/fs.h"
#include "sql/exec/exec.h"

typedef enum ColKind {
    COL_NONE,      /* complex types: no statistics */
    COL_LONG,      /* tinyint .. bigint, date, timestamp (seconds) */
    COL_DOUBLE,
    COL_DECIMAL,
    COL_STRING,
    COL_BINARY,
    COL_BOOLEAN
} ColKind;

typedef struct ColAcc {
    ColKind kind;
    CombTypeKind type;
    int scale;              /* decimals */
    bool known;             /* false: a merged part had none */
    bool have_range;
    int64_t nulls, values;
    int64_t lo_i, hi_i;
    double lo_d, hi_d;
    comb_i128 lo_dec, hi_dec;
    int64_t trues, falses;
    int64_t sum_len, max_len;
    double avg_floor;       /* the largest merged average */
    CombHll *hll;           /* NULL: no distinct count kept */
    bool sketch_lost;       /* a merged part had a count but no sketch */
    int64_t ndv_floor;      /* the largest such count */
} ColAcc;

struct SqlColStats {
    const SqlTable *t;
    int n;
    ColAcc *cols;
};

static ColKind kind_of(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
    case COMB_T_TIMESTAMP: return COL_LONG;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE: return COL_DOUBLE;
    case COMB_T_DECIMAL: return COL_DECIMAL;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR: return COL_STRING;
    case COMB_T_BINARY: return COL_BINARY;
    case COMB_T_BOOLEAN: return COL_BOOLEAN;
    default: return COL_NONE;
    }
}

static bool has_sketch(ColKind k)
{
    return k == COL_LONG || k == COL_DOUBLE || k == COL_DECIMAL ||
           k == COL_STRING;
}

size_t sql_colstats_size(const SqlTable *t)
{
    size_t n = 0;
    for (int i = 0; i < t->n_data; i++)
        if (has_sketch(kind_of(t->kinds[i])))
            n += sizeof(CombHll);
    return n;
}

int sql_colstats_new(SqlStmtCtx *c, const SqlTable *t, SqlColStats **out,
                     CombErr *err)
{
    SqlColStats *s = comb_arena_calloc(c->arena, sizeof *s);
    if (!s || !(s->cols = comb_arena_calloc(c->arena, (size_t)t->n_data *
                                                          sizeof *s->cols)))
        return comb_err_nomem(err);
    s->t = t;
    s->n = t->n_data;
    for (int i = 0; i < s->n; i++) {
        ColAcc *a = &s->cols[i];
        a->type = t->kinds[i];
        a->kind = kind_of(a->type);
        a->known = a->kind != COL_NONE;
        a->scale = a->type == COMB_T_DECIMAL ? t->types[i]->scale : 0;
        a->avg_floor = -1;
        a->ndv_floor = -1;
        if (has_sketch(a->kind)) {
            if (!(a->hll = comb_arena_alloc(c->arena, sizeof *a->hll)))
                return comb_err_nomem(err);
            comb_hll_init(a->hll);
        }
    }
    *out = s;
    return COMB_OK;
}

/* ------------------------------------------------------------- gathering */

static void range_long(ColAcc *a, int64_t v)
{
    if (!a->have_range || v < a->lo_i)
        a->lo_i = v;
    if (!a->have_range || v > a->hi_i)
        a->hi_i = v;
    a->have_range = true;
}

static void range_double(ColAcc *a, double v)
{
    if (isnan(v))
        return;
    if (!a->have_range || v < a->lo_d)
        a->lo_d = v;
    if (!a->have_range || v > a->hi_d)
        a->hi_d = v;
    a->have_range = true;
}

static void range_decimal(ColAcc *a, comb_i128 v)
{
    if (!a->have_range || v < a->lo_dec)
        a->lo_dec = v;
    if (!a->have_range || v > a->hi_dec)
        a->hi_dec = v;
    a->have_range = true;
}

static void add_string(ColAcc *a, CombStr s)
{
    uint32_t len = s.len;
    if (a->type == COMB_T_CHAR)
        while (len > 0 && s.ptr[len - 1] == ' ')
            len--;
    a->sum_len += len;
    if (len > a->max_len)
        a->max_len = len;
    if (a->hll)
        comb_hll_add_bytes(a->hll, s.ptr, len);
}

static void add_value(ColAcc *a, const CombVector *v, int row)
{
    switch (a->kind) {
    case COL_LONG:
        if (a->type == COMB_T_TIMESTAMP) {
            int64_t key[2] = {v->i64[row], v->nanos[row]};
            comb_hll_add_bytes(a->hll, key, sizeof key);
        } else {
            comb_hll_add_i64(a->hll, v->i64[row]);
        }
        range_long(a, v->i64[row]);
        break;
    case COL_DOUBLE:
        comb_hll_add_double(a->hll, v->f64[row]);
        range_double(a, v->f64[row]);
        break;
    case COL_DECIMAL:
        comb_hll_add_bytes(a->hll, &v->dec[row], sizeof v->dec[row]);
        range_decimal(a, v->dec[row]);
        break;
    case COL_STRING:
    case COL_BINARY: add_string(a, v->str[row]); break;
    case COL_BOOLEAN:
        if (v->i64[row])
            a->trues++;
        else
            a->falses++;
        break;
    case COL_NONE: break;
    }
}

void sql_colstats_add(SqlColStats *s, const CombBatch *b,
                      const uint32_t *rows, int n)
{
    for (int i = 0; i < s->n; i++) {
        ColAcc *a = &s->cols[i];
        const CombVector *v = &b->cols[i];
        if (a->kind == COL_NONE)
            continue;
        for (int k = 0; k < n; k++) {
            int row = (int)rows[k];
            if (v->has_nulls && v->nulls[row]) {
                a->nulls++;
                continue;
            }
            a->values++;
            add_value(a, v, row);
        }
    }
}

/* --------------------------------------------------------------- texts */

/* A low or high value as text, in the arena (NULL when out of memory). */
static char *value_text(CombArena *ar, const ColAcc *a, bool high)
{
    char buf[80];
    int64_t i = high ? a->hi_i : a->lo_i;
    switch (a->kind) {
    case COL_LONG:
        if (a->type == COMB_T_DATE)
            comb_date_format(i, buf, sizeof buf);
        else if (a->type == COMB_T_TIMESTAMP)
            comb_timestamp_format(i, 0, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "%lld", (long long)i);
        break;
    case COL_DOUBLE:
        comb_format_double(high ? a->hi_d : a->lo_d, buf, sizeof buf);
        break;
    default:
        comb_dec_format_normalized(high ? a->hi_dec : a->lo_dec, a->scale,
                                   buf, sizeof buf);
        break;
    }
    return comb_arena_strdup(ar, buf);
}

/* Parse a stored low or high value into the range of a. */
static bool parse_value(ColAcc *a, const char *text)
{
    size_t n = strlen(text);
    int64_t i;
    int32_t nanos;
    comb_i128 d;
    char *end;
    switch (a->kind) {
    case COL_LONG:
        if (a->type == COMB_T_DATE) {
            if (!comb_date_parse(text, n, &i))
                return false;
        } else if (a->type == COMB_T_TIMESTAMP) {
            if (!comb_timestamp_parse(text, n, &i, &nanos))
                return false;
        } else {
            i = strtoll(text, &end, 10);
            if (end == text || *end)
                return false;
        }
        range_long(a, i);
        return true;
    case COL_DOUBLE: {
        double v = strtod(text, &end);
        if (end == text || *end)
            return false;
        range_double(a, v);
        return true;
    }
    case COL_DECIMAL:
        if (!comb_dec_parse(text, n, a->scale, &d))
            return false;
        range_decimal(a, d);
        return true;
    default: return false;
    }
}

/* -------------------------------------------------------------- merging */

/* A stored row's sketch merged into a's; a row without one (or with one
 * not of comb's form) leaves only its count, a lower bound. */
static int merge_sketch(ColAcc *a, const MsColStats *r, CombErr *err)
{
    CombHll other;
    unsigned char *raw;
    size_t len = 0, cap = r->bit_vector ? strlen(r->bit_vector) : 0;
    bool ok = false;
    if (r->bit_vector) {
        if (!(raw = comb_malloc(cap + 1)))
            return comb_err_nomem(err);
        ok = comb_base64_decode(r->bit_vector, cap, raw, &len) &&
             comb_hll_deserialize(&other, raw, len) == 0;
        comb_free(raw);
    }
    if (ok) {
        comb_hll_merge(a->hll, &other);
    } else {
        a->sketch_lost = true;
        if (r->num_distincts > a->ndv_floor)
            a->ndv_floor = r->num_distincts;
    }
    return COMB_OK;
}

/* Add one stored row to column a; false when it does not fit a's type. */
static int merge_row(ColAcc *a, const MsColStats *r, bool *fits, CombErr *err)
{
    *fits = true;
    a->nulls += r->num_nulls;
    if (a->kind == COL_BOOLEAN) {
        *fits = r->num_trues >= 0 && r->num_falses >= 0;
        a->trues += r->num_trues;
        a->falses += r->num_falses;
        return COMB_OK;
    }
    if (a->kind == COL_STRING || a->kind == COL_BINARY) {
        *fits = r->max_col_len >= 0 && r->avg_col_len >= 0;
        if (r->max_col_len > a->max_len)
            a->max_len = r->max_col_len;
        if (r->avg_col_len > a->avg_floor)
            a->avg_floor = r->avg_col_len;
    } else if ((r->low && !parse_value(a, r->low)) ||
               (r->high && !parse_value(a, r->high))) {
        *fits = false;
        return COMB_OK;
    }
    return a->hll ? merge_sketch(a, r, err) : COMB_OK;
}

int sql_colstats_merge(SqlColStats *s, const MsColStats *rows, int n,
                       CombErr *err)
{
    const MsTable *m = s->t->ms;
    for (int i = 0; i < s->n; i++) {
        ColAcc *a = &s->cols[i];
        const MsColStats *r = NULL;
        bool fits = false;
        int rc;
        for (int k = 0; k < n && !r; k++)
            if (strcmp(rows[k].column, m->cols[i].name) == 0 &&
                strcmp(rows[k].type, m->cols[i].type) == 0)
                r = &rows[k];
        if (!a->known)
            continue;
        if (r && (rc = merge_row(a, r, &fits, err)))
            return rc;
        a->known = fits;
    }
    return COMB_OK;
}

/* ----------------------------------------------------------- as rows */

static double avg_len(const ColAcc *a)
{
    double own = a->values > 0 ? (double)a->sum_len / (double)a->values : 0;
    return own > a->avg_floor ? own : a->avg_floor;
}

static int64_t ndv(const ColAcc *a)
{
    int64_t est = (int64_t)comb_hll_estimate(a->hll);
    return est > a->ndv_floor ? est : a->ndv_floor;
}

static char *sketch_text(CombArena *ar, const ColAcc *a)
{
    unsigned char raw[COMB_HLL_SERIALIZED_LEN];
    char *text = comb_arena_alloc(ar, comb_base64_encoded_len(sizeof raw) + 1);
    if (!text)
        return NULL;
    comb_hll_serialize(a->hll, raw);
    comb_base64_encode(raw, sizeof raw, text);
    text[comb_base64_encoded_len(sizeof raw)] = '\0';
    return text;
}

static int row_of(SqlStmtCtx *c, const ColAcc *a, const MsColumn *col,
                  const char *source, MsColStats *r, CombErr *err)
{
    bool nomem = false;
    *r = (MsColStats){.column = col->name, .type = col->type,
                      .source = (char *)source, .num_nulls = a->nulls,
                      .num_distincts = -1, .num_trues = -1,
                      .num_falses = -1, .max_col_len = -1,
                      .avg_col_len = -1,
                      .last_analyzed = (int64_t)time(NULL)};
    if (a->kind == COL_BOOLEAN) {
        r->num_trues = a->trues;
        r->num_falses = a->falses;
    } else if (a->kind == COL_STRING || a->kind == COL_BINARY) {
        r->max_col_len = a->max_len;
        r->avg_col_len = avg_len(a);
    } else if (a->have_range) {
        nomem = !(r->low = value_text(c->arena, a, false)) ||
                !(r->high = value_text(c->arena, a, true));
    }
    if (a->hll) {
        r->num_distincts = ndv(a);
        if (!a->sketch_lost && !(r->bit_vector = sketch_text(c->arena, a)))
            nomem = true;
    }
    return nomem ? comb_err_nomem(err) : COMB_OK;
}

int sql_colstats_rows(SqlStmtCtx *c, const SqlColStats *s,
                      const char *source, MsColStats **out, int *n,
                      CombErr *err)
{
    MsColStats *rows = comb_arena_calloc(c->arena, (size_t)(s->n + 1) *
                                                      sizeof *rows);
    int k = 0, rc;
    if (!rows)
        return comb_err_nomem(err);
    for (int i = 0; i < s->n; i++)
        if (s->cols[i].known &&
            (rc = row_of(c, &s->cols[i], &s->t->ms->cols[i], source,
                         &rows[k++], err)))
            return rc;
    *out = rows;
    *n = k;
    return COMB_OK;
}

/* ------------------------------------------------------------- sources */

static int source_push(SqlStmtCtx *c, SqlSource *s, char *item, CombErr *err)
{
    if (!item)
        return comb_err_nomem(err);
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        char **grown = comb_arena_alloc(c->arena, (size_t)cap * sizeof *grown);
        if (!grown)
            return comb_err_nomem(err);
        if (s->n)
            memcpy(grown, s->items, (size_t)s->n * sizeof *grown);
        s->items = grown;
        s->cap = cap;
    }
    s->items[s->n++] = item;
    return COMB_OK;
}

int sql_source_add_file(SqlStmtCtx *c, SqlSource *s, const char *path,
                        CombErr *err)
{
    uint64_t size;
    int64_t mtime;
    int rc = fs_file_version(path, &size, &mtime, err);
    if (rc)
        return rc;
    return source_push(c, s,
                       comb_arena_printf(c->arena, "%s\t%llu\t%lld", path,
                                         (unsigned long long)size,
                                         (long long)mtime),
                       err);
}

int sql_source_add_dir(SqlStmtCtx *c, SqlSource *s, const char *dir,
                       CombErr *err)
{
    char **names;
    bool *is_dir;
    int n, rc = fs_list_dir_typed(dir, c->arena, &names, &is_dir, &n, err);
    for (int i = 0; i < n && !rc; i++) {
        const char *path = fs_join(c->arena, dir, names[i]);
        if (!path)
            return comb_err_nomem(err);
        rc = is_dir[i] ? sql_source_add_dir(c, s, path, err)
                       : sql_source_add_file(c, s, path, err);
    }
    return rc;
}

/* One directory the snapshot reads; a range of write ids also names
 * which of them are valid (a streaming delta's visible rows grow in place
 * as its transactions commit). */
static int add_acid_dir(SqlStmtCtx *c, SqlSource *s, const SqlUnit *u,
                        const AcidParsedDir *d, const CombWriteIdList *wil,
                        int64_t skip_wid, CombErr *err)
{
    const char *path;
    int rc;
    if (skip_wid && d->min_wid == skip_wid && d->max_wid == skip_wid)
        return COMB_OK;
    if (!(path = fs_join(c->arena, u->dir, d->name)))
        return comb_err_nomem(err);
    if ((rc = sql_source_add_dir(c, s, path, err)))
        return rc;
    for (int64_t w = d->min_wid; w < d->max_wid && d->kind != ACID_DIR_BASE &&
                                 !rc; w++)
        if (!comb_idlist_is_valid(&wil->ids, w))
            rc = source_push(c, s,
                             comb_arena_printf(c->arena, "%s\t-%lld", path,
                                               (long long)w),
                             err);
    return rc;
}

static int acid_unit_source(SqlStmtCtx *c, const SqlUnit *u,
                            const CombWriteIdList *wil, int64_t skip_wid,
                            SqlSource *s, CombErr *err)
{
    AcidDirState st;
    int rc = acid_dir_state_get(u->dir, wil, &c->snapshot, c->arena, &st, err);
    if (!rc && st.base)
        rc = add_acid_dir(c, s, u, st.base, wil, skip_wid, err);
    for (int i = 0; i < st.n_deltas && !rc; i++)
        rc = add_acid_dir(c, s, u, &st.deltas[i], wil, skip_wid, err);
    for (int i = 0; i < st.n_delete_deltas && !rc; i++)
        rc = add_acid_dir(c, s, u, &st.delete_deltas[i], wil, skip_wid, err);
    for (int i = 0; i < st.n_originals && !rc; i++) {
        const char *path = fs_join(c->arena, u->dir, st.originals[i]);
        rc = path ? sql_source_add_file(c, s, path, err) : comb_err_nomem(err);
    }
    return rc;
}

int sql_source_unit(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                    int64_t skip_wid, SqlSource *s, CombErr *err)
{
    CombWriteIdList wil;
    char **paths;
    int n, rc;
    if (t->kind == SQL_TABLE_PLAIN) {
        if ((rc = sql_unit_files(c, t, u, NULL, &paths, &n, err)))
            return rc;
        for (int i = 0; i < n && !rc; i++)
            rc = sql_source_add_file(c, s, paths[i], err);
        return rc;
    }
    if ((rc = sql_table_writeids(c, t, &wil, err)))
        return rc;
    rc = acid_unit_source(c, u, &wil, skip_wid, s, err);
    comb_writeidlist_free(&wil);
    return rc;
}

static int cmp_items(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void schema_text(CombBuf *b, const MsTable *m, bool *nomem)
{
    *nomem = *nomem || ms_colstats_schema(b, m);
}

char *sql_source_digest(SqlStmtCtx *c, const SqlTable *t, SqlSource *s)
{
    CombBuf b = COMB_BUF_INIT;
    bool nomem = false;
    uint64_t h1, h2;
    char *out;
    if (s->n > 1)
        qsort(s->items, (size_t)s->n, sizeof *s->items, cmp_items);
    schema_text(&b, t->ms, &nomem);
    for (int i = 0; i < s->n; i++)
        nomem = nomem || comb_buf_printf(&b, "%s\n", s->items[i]);
    if (nomem) {
        comb_buf_free(&b);
        return NULL;
    }
    h1 = comb_hll_hash64(b.data, b.len);
    nomem = comb_buf_append(&b, &h1, sizeof h1);
    h2 = nomem ? 0 : comb_hll_hash64(b.data, b.len);
    comb_buf_free(&b);
    out = nomem ? NULL
                : comb_arena_printf(c->arena, "%016llx%016llx",
                                    (unsigned long long)h1,
                                    (unsigned long long)h2);
    return out;
}

/* rows[0..n) of source a or b (b may be NULL) whose column t still has,
 * of the same type, moved to the front; how many. */
static int rows_of(const SqlTable *t, MsColStats *rows, int n, const char *a,
                   const char *b)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int col = sql_table_column(t, rows[i].column);
        bool ours = strcmp(rows[i].source, a) == 0 ||
                    (b && strcmp(rows[i].source, b) == 0);
        if (ours && col >= 0 && col < t->n_data &&
            strcmp(t->ms->cols[col].type, rows[i].type) == 0)
            rows[k++] = rows[i];
    }
    return k;
}

int sql_colstats_stored(SqlStmtCtx *c, const SqlTable *t, const char *part,
                        const char *source, MsColStats **out, int *n,
                        CombErr *err)
{
    MsColStats *rows;
    int n_rows;
    int rc = ms_colstats_get(c->s->ms, t->ms->db, t->ms->name, part,
                             c->arena, &rows, &n_rows, err);
    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    *n = rows_of(t, rows, n_rows, source, NULL);
    *out = *n ? rows : NULL;
    return COMB_OK;
}

/* The source of the rows an outside engine stored through comb
 * metastore for unit u (ms_colstats_dir_source) while its directory is
 * as they saw it, when rows[0..n) hold any; else NULL.  The directory is
 * listed (on object storage, a request per page) only then.  Statistics
 * are advice: a directory that cannot be read gives none. */
static const char *outside_source(SqlStmtCtx *c, const SqlTable *t,
                                  const SqlUnit *u, const MsColStats *rows,
                                  int n)
{
    CombErr ignored;
    char *source;
    bool any = false;
    for (int i = 0; i < n && !any; i++)
        any = strncmp(rows[i].source, MS_COLSTATS_OUTSIDE,
                      strlen(MS_COLSTATS_OUTSIDE)) == 0;
    if (!any ||
        ms_colstats_dir_source(t->ms, u->dir, c->arena, &source, &ignored))
        return NULL;
    return source;
}

/* A column has one stored row, so comb's own rows and an outside
 * engine's never overlap. */
int sql_colstats_valid(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                       MsColStats **out, int *n, CombErr *err)
{
    SqlSource s = {0};
    MsColStats *rows;
    char *source;
    int n_rows;
    int rc = sql_source_unit(c, t, u, 0, &s, err);
    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    if (!(source = sql_source_digest(c, t, &s)))
        return comb_err_nomem(err);
    if ((rc = ms_colstats_get(c->s->ms, t->ms->db, t->ms->name, u->name,
                              c->arena, &rows, &n_rows, err)))
        return rc;
    *n = rows_of(t, rows, n_rows, source,
                 outside_source(c, t, u, rows, n_rows));
    *out = *n ? rows : NULL;
    return COMB_OK;
}

/* ------------------------------------------------------------- storing */

int sql_colstats_defer(SqlStmtCtx *c, const SqlTable *t, const char *part,
                       MsColStats *rows, int n, CombErr *err)
{
    SqlColStatsPending *p = comb_arena_calloc(c->arena, sizeof *p);
    if (!p)
        return comb_err_nomem(err);
    *p = (SqlColStatsPending){t->ms->db, t->ms->name, part, rows, n,
                              c->colstats};
    c->colstats = p;
    return COMB_OK;
}

void sql_colstats_flush(SqlStmtCtx *c)
{
    CombErr ignored;
    for (SqlColStatsPending *p = c->colstats; p; p = p->next)
        if (p->n > 0)
            ms_colstats_put(c->s->ms, p->db, p->table, p->part, p->rows, p->n,
                            &ignored);
    c->colstats = NULL;
}
