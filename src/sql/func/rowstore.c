/*
 * rowstore.c - materialized rows: append from batches, sort, emit.
 */
#include "sql/func/rowstore.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/func/value.h"

static int rows_init(SqlRowStore *rs, int n_cols)
{
    memset(rs, 0, sizeof *rs);
    rs->n_cols = n_cols;
    rs->kinds = comb_malloc((size_t)(n_cols + 1) * sizeof *rs->kinds);
    rs->types = comb_calloc((size_t)(n_cols + 1), sizeof *rs->types);
    comb_arena_init(&rs->arena, 256 * 1024);
    if (!rs->kinds || !rs->types) {
        sql_rows_free(rs);
        return COMB_ENOMEM;
    }
    return COMB_OK;
}

int sql_rows_init(SqlRowStore *rs, int n_cols, const CombTypeKind *kinds)
{
    if (rows_init(rs, n_cols))
        return COMB_ENOMEM;
    for (int j = 0; j < n_cols; j++) {
        rs->kinds[j] = kinds[j];
        rs->types[j] = sql_kind_type(kinds[j]);
    }
    return COMB_OK;
}

int sql_rows_init_types(SqlRowStore *rs, int n_cols,
                        const CombType *const *types)
{
    if (rows_init(rs, n_cols))
        return COMB_ENOMEM;
    for (int j = 0; j < n_cols; j++) {
        rs->kinds[j] = types[j]->kind;
        rs->types[j] = types[j];
    }
    return COMB_OK;
}

void sql_rows_free(SqlRowStore *rs)
{
    comb_mem_release(&rs->mem);
    comb_free(rs->kinds);
    comb_free(rs->types);
    comb_free(rs->rows);
    comb_arena_free(&rs->arena);
    memset(rs, 0, sizeof *rs);
}

static void rows_account(SqlRowStore *rs)
{
    int64_t bytes = (int64_t)rs->arena.total + rs->cap * (int64_t)sizeof *rs->rows;
    if (rs->mem.acct && bytes != rs->mem.held)
        rs->over = comb_mem_hold(&rs->mem, bytes);
}

void sql_rows_track(SqlRowStore *rs, CombMemAcct *acct)
{
    /* blocks small against the limit, so a store spills near it */
    size_t block = acct && acct->limit ? (size_t)(acct->limit / 32) : 0;
    if (block && block < rs->arena.block_size && rs->arena.total == 0)
        comb_arena_init(&rs->arena, block < 4096 ? 4096 : block);
    rs->mem.acct = acct;
    rows_account(rs);
}

void sql_rows_clear(SqlRowStore *rs)
{
    comb_free(rs->rows);
    rs->rows = NULL;
    rs->n_rows = rs->cap = 0;
    comb_arena_free(&rs->arena);
    comb_arena_init(&rs->arena, rs->arena.block_size);
    rs->over = false;
    rows_account(rs);
}

/* The parts of a complex value at row: array elements, map entries (key,
 * value), struct fields, the union's member. */
static int read_parts(SqlDatum *d, const CombVector *v, int row, CombArena *a)
{
    int per = v->kind == COMB_T_MAP ? 2 : 1;
    uint32_t n = v->kind == COMB_T_STRUCT ? (uint32_t)v->n_children
                 : v->kind == COMB_T_UNION ? 1 : v->len[row] * (uint32_t)per;
    d->n = n;
    if (n == 0)
        return COMB_OK;
    d->parts = comb_arena_alloc(a, (size_t)n * sizeof *d->parts);
    if (!d->parts)
        return COMB_ENOMEM;
    for (uint32_t k = 0; k < n; k++) {
        const CombVector *part;
        int at;
        switch (v->kind) {
        case COMB_T_STRUCT: part = &v->children[k]; at = row; break;
        case COMB_T_UNION: part = &v->children[v->tag[row]]; at = row; break;
        default:
            part = &v->children[k % (uint32_t)per];
            at = (int)(v->off[row] + k / (uint32_t)per);
            break;
        }
        if (sql_datum_read(&d->parts[k], part, at, a))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

int sql_datum_read(SqlDatum *d, const CombVector *v, int row, CombArena *a)
{
    memset(d, 0, sizeof *d);
    if (comb_vec_is_null(v, row) || v->kind == COMB_T_NULL) {
        d->null = true;
        return COMB_OK;
    }
    if (!comb_type_is_primitive(v->kind)) {
        if (v->tag)
            d->tag = v->tag[row];
        return read_parts(d, v, row, a);
    }
    if (v->i64)
        d->i = v->i64[row];
    if (v->nanos)
        d->nanos = v->nanos[row];
    if (v->f64)
        d->d = v->f64[row];
    if (v->dec)
        d->dec = v->dec[row];
    if (v->str) {
        CombStr s = v->str[row];
        char *p = comb_arena_strndup(a, s.ptr ? s.ptr : "", s.len);
        if (!p)
            return COMB_ENOMEM;
        d->s = (CombStr){p, s.len};
    }
    return COMB_OK;
}

int sql_datum_copy(SqlDatum *dst, const SqlDatum *src, CombArena *a)
{
    *dst = *src;
    if (src->null)
        return COMB_OK;
    if (src->s.ptr) {
        char *p = comb_arena_strndup(a, src->s.ptr, src->s.len);
        if (!p)
            return COMB_ENOMEM;
        dst->s.ptr = p;
    }
    if (src->n) {
        dst->parts = comb_arena_alloc(a, src->n * sizeof *dst->parts);
        if (!dst->parts)
            return COMB_ENOMEM;
        for (uint32_t k = 0; k < src->n; k++)
            if (sql_datum_copy(&dst->parts[k], &src->parts[k], a))
                return COMB_ENOMEM;
    }
    return COMB_OK;
}

static int cmp_scalar(CombTypeKind kind, const SqlDatum *x, const SqlDatum *y)
{
    if (comb_type_is_float(kind))
        return sql_double_cmp(x->d, y->d);
    if (comb_type_is_str(kind))
        return sql_str_cmp(x->s, y->s);
    if (kind == COMB_T_DECIMAL)
        return x->dec < y->dec ? -1 : x->dec > y->dec;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->nanos < y->nanos ? -1 : x->nanos > y->nanos;
}

/* The type of part k of a complex value of type t. */
const CombType *sql_datum_part_type(const CombType *t, const SqlDatum *d,
                                    uint32_t k)
{
    switch (t->kind) {
    case COMB_T_LIST: return t->children[0];
    case COMB_T_MAP: return t->children[k % 2];
    case COMB_T_UNION: return t->children[d->tag];
    default: return t->children[k];
    }
}

static int datum_cmp(const CombType *t, const SqlDatum *x, const SqlDatum *y,
                     bool nested_nulls_first)
{
    if (comb_type_is_primitive(t->kind))
        return cmp_scalar(t->kind, x, y);
    if (t->kind == COMB_T_UNION && x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    for (uint32_t k = 0; k < x->n && k < y->n; k++) {
        const SqlDatum *px = &x->parts[k], *py = &y->parts[k];
        int c;
        if (px->null || py->null)
            c = px->null == py->null ? 0 : (px->null == nested_nulls_first) ? -1 : 1;
        else
            c = datum_cmp(sql_datum_part_type(t, x, k), px, py, nested_nulls_first);
        if (c)
            return c;
    }
    return x->n < y->n ? -1 : x->n > y->n;
}

int sql_datum_cmp(const CombType *t, const SqlDatum *x, const SqlDatum *y)
{
    if (x->null || y->null)
        return x->null == y->null ? 0 : x->null ? -1 : 1;
    return datum_cmp(t, x, y, true);
}

int sql_rows_add(SqlRowStore *rs, SqlDatum **row, CombErr *err)
{
    SqlDatum *r;
    if (rs->n_rows == rs->cap) {
        int64_t cap = rs->cap ? rs->cap * 2 : 1024;
        SqlDatum **p = comb_realloc(rs->rows, (size_t)cap * sizeof *p);
        if (!p)
            return comb_err_nomem(err);
        rs->rows = p;
        rs->cap = cap;
    }
    r = comb_arena_alloc(&rs->arena, (size_t)rs->n_cols * sizeof *r + 1);
    if (!r)
        return comb_err_nomem(err);
    for (int j = 0; j < rs->n_cols; j++) {
        memset(&r[j], 0, sizeof r[j]);
        r[j].null = true;
    }
    rs->rows[rs->n_rows++] = r;
    *row = r;
    rows_account(rs);
    return COMB_OK;
}

int sql_rows_append(SqlRowStore *rs, CombVector *const *cols,
                    const CombBatch *b, CombErr *err)
{
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i), rc;
        SqlDatum *r;
        if ((rc = sql_rows_add(rs, &r, err)))
            return rc;
        for (int j = 0; j < rs->n_cols; j++)
            if (cols[j] && sql_datum_read(&r[j], cols[j], row, &rs->arena))
                return comb_err_nomem(err);
    }
    rows_account(rs);
    return COMB_OK;
}

typedef struct SortCtx {
    const SqlRowStore *rs;
    const SqlSortKey *keys;
    int n_keys;
} SortCtx;

static int rows_cmp(const SortCtx *ctx, const SqlDatum *x, const SqlDatum *y)
{
    for (int k = 0; k < ctx->n_keys; k++) {
        const SqlSortKey *key = &ctx->keys[k];
        const SqlDatum *dx = &x[key->col], *dy = &y[key->col];
        int c;
        if (dx->null || dy->null) {
            if (dx->null == dy->null)
                continue;
            return (dx->null == key->nulls_first) ? -1 : 1;
        }
        /* NULLs inside complex keys take the key's NULL placement, as in
         * Hive's BinarySortableSerDe (DESC inverts the whole key) */
        c = datum_cmp(ctx->rs->types[key->col], dx, dy,
                      key->desc ? !key->nulls_first : key->nulls_first);
        if (c)
            return key->desc ? -c : c;
    }
    return 0;
}

static int row_cmp(const void *a, const void *b, void *arg)
{
    return rows_cmp(arg, *(SqlDatum *const *)a, *(SqlDatum *const *)b);
}

int sql_rows_cmp(const SqlRowStore *rs, const SqlSortKey *keys, int n_keys,
                 const SqlDatum *x, const SqlDatum *y)
{
    SortCtx ctx = {rs, keys, n_keys};
    return rows_cmp(&ctx, x, y);
}

void sql_rows_sort(SqlRowStore *rs, const SqlSortKey *keys, int n_keys)
{
    SortCtx ctx = {rs, keys, n_keys};
    if (rs->n_rows > 1)
        qsort_r(rs->rows, (size_t)rs->n_rows, sizeof *rs->rows, row_cmp, &ctx);
}

void sql_datum_store(CombVector *v, int row, const SqlDatum *d)
{
    if (d->null) {
        comb_vec_nulls_materialize(v, row);
        v->nulls[row] = 1;
        return;
    }
    comb_vec_set_not_null(v, row);
    if (v->i64)
        v->i64[row] = d->i;
    if (v->nanos)
        v->nanos[row] = d->nanos;
    if (v->f64)
        v->f64[row] = d->d;
    if (v->str)
        v->str[row] = d->s;
    if (v->dec)
        v->dec[row] = d->dec;
}

static int fill_parts(SqlVecFill *f, int row, const SqlDatum *d)
{
    CombVector *v = f->v;
    int per = v->kind == COMB_T_MAP ? 2 : 1, n = (int)d->n / per;
    switch (v->kind) {
    case COMB_T_STRUCT:
        for (uint32_t k = 0; k < d->n; k++)
            if (sql_datum_fill(&f->kids[k], row, &d->parts[k]))
                return COMB_ENOMEM;
        return COMB_OK;
    case COMB_T_UNION:
        v->tag[row] = d->tag;
        return sql_datum_fill(&f->kids[d->tag], row, &d->parts[0]);
    default:
        break;
    }
    for (int part = 0; part < per; part++) {
        if (sql_fill_reserve(&f->kids[part], f->used + n))
            return COMB_ENOMEM;
        for (int k = 0; k < n; k++)
            if (sql_datum_fill(&f->kids[part], f->used + k,
                               &d->parts[k * per + part]))
                return COMB_ENOMEM;
    }
    v->off[row] = (uint32_t)f->used;
    v->len[row] = (uint32_t)n;
    f->used += n;
    return COMB_OK;
}

int sql_datum_fill(SqlVecFill *f, int row, const SqlDatum *d)
{
    if (d->null) {
        sql_fill_null(f, row);
        return COMB_OK;
    }
    if (!comb_type_is_primitive(f->v->kind)) {
        comb_vec_set_not_null(f->v, row);
        return fill_parts(f, row, d);
    }
    sql_datum_store(f->v, row, d);
    return COMB_OK;
}

int sql_rows_fill(const SqlRowStore *rs, int64_t first, int n_cols,
                  CombBatch *b, SqlVecFill *fills)
{
    comb_batch_reset(b);
    for (int j = 0; j < n_cols; j++)
        sql_fill_reset(&fills[j]);
    for (int64_t r = first; r < rs->n_rows && b->n_rows < b->capacity; r++) {
        for (int j = 0; j < n_cols; j++)
            if (sql_datum_fill(&fills[j], b->n_rows, &rs->rows[r][j]))
                return COMB_ENOMEM;
        b->n_rows++;
    }
    return COMB_OK;
}

int sql_rows_batch_init(SqlRowStore *rs, int n_cols, CombBatch *b,
                        SqlVecFill **fills)
{
    SqlVecFill *f;
    if (comb_batch_init_types(b, n_cols, rs->types, COMB_BATCH_SIZE))
        return COMB_ENOMEM;
    f = comb_arena_alloc(&rs->arena, (size_t)(n_cols + 1) * sizeof *f);
    for (int j = 0; f && j < n_cols; j++)
        if (sql_fill_init(&f[j], &b->cols[j], &rs->arena))
            f = NULL;
    if (!f) {
        comb_batch_free(b);
        return COMB_ENOMEM;
    }
    *fills = f;
    return COMB_OK;
}

int sql_rows_emit(SqlRowStore *rs, int n_out, int64_t limit,
                  const SqlSink *sink, CombErr *err)
{
    CombBatch b;
    SqlVecFill *fills;
    int64_t end = (limit >= 0 && limit < rs->n_rows) ? limit : rs->n_rows;
    int rc = COMB_OK;
    if (!sink->batch || end == 0)
        return COMB_OK;
    if (sql_rows_batch_init(rs, n_out, &b, &fills))
        return comb_err_nomem(err);
    for (int64_t r = 0; r < end && !rc; r += b.n_rows) {
        if (sql_rows_fill(rs, r, n_out, &b, fills)) {
            rc = comb_err_nomem(err);
            break;
        }
        if (r + b.n_rows > end)
            b.n_rows = (int)(end - r);
        rc = sink->batch(sink->ctx, &b, err);
    }
    comb_batch_free(&b);
    return rc;
}
