/*
 * rowstore.c - materialized rows: append from batches, sort, emit.
 */
#include "sql/rowstore.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/value.h"

int sql_rows_init(SqlRowStore *rs, int n_cols, const CombTypeKind *kinds)
{
    memset(rs, 0, sizeof *rs);
    rs->n_cols = n_cols;
    rs->kinds = comb_malloc((size_t)(n_cols + 1) * sizeof *rs->kinds);
    if (!rs->kinds)
        return COMB_ENOMEM;
    memcpy(rs->kinds, kinds, (size_t)n_cols * sizeof *kinds);
    comb_arena_init(&rs->arena, 256 * 1024);
    return COMB_OK;
}

void sql_rows_free(SqlRowStore *rs)
{
    comb_free(rs->kinds);
    comb_free(rs->rows);
    comb_arena_free(&rs->arena);
    memset(rs, 0, sizeof *rs);
}

int sql_datum_read(SqlDatum *d, const CombVector *v, int row, CombArena *a)
{
    memset(d, 0, sizeof *d);
    if (comb_vec_is_null(v, row) || v->kind == COMB_T_NULL) {
        d->null = true;
        return COMB_OK;
    }
    if (v->i64)
        d->i = v->i64[row];
    else if (v->f64)
        d->d = v->f64[row];
    else if (v->str) {
        CombStr s = v->str[row];
        char *p = comb_arena_strndup(a, s.ptr ? s.ptr : "", s.len);
        if (!p)
            return COMB_ENOMEM;
        d->s = (CombStr){p, s.len};
    }
    return COMB_OK;
}

int sql_datum_cmp(CombTypeKind kind, const SqlDatum *x, const SqlDatum *y)
{
    if (x->null || y->null)
        return x->null == y->null ? 0 : x->null ? -1 : 1;
    if (comb_type_is_float(kind))
        return sql_double_cmp(x->d, y->d);
    if (comb_type_is_str(kind))
        return sql_str_cmp(x->s, y->s);
    return x->i < y->i ? -1 : x->i > y->i;
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
            if (sql_datum_read(&r[j], cols[j], row, &rs->arena))
                return comb_err_nomem(err);
    }
    return COMB_OK;
}

typedef struct SortCtx {
    const SqlRowStore *rs;
    const SqlSortKey *keys;
    int n_keys;
} SortCtx;

static int row_cmp(const void *a, const void *b, void *arg)
{
    const SortCtx *ctx = arg;
    const SqlDatum *x = *(SqlDatum *const *)a, *y = *(SqlDatum *const *)b;
    for (int k = 0; k < ctx->n_keys; k++) {
        const SqlSortKey *key = &ctx->keys[k];
        const SqlDatum *dx = &x[key->col], *dy = &y[key->col];
        int c;
        if (dx->null || dy->null) {
            if (dx->null == dy->null)
                continue;
            return (dx->null == key->nulls_first) ? -1 : 1;
        }
        c = sql_datum_cmp(ctx->rs->kinds[key->col], dx, dy);
        if (c)
            return key->desc ? -c : c;
    }
    return 0;
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
    else if (v->f64)
        v->f64[row] = d->d;
    else if (v->str)
        v->str[row] = d->s;
}

int sql_rows_emit(SqlRowStore *rs, int n_out, int64_t limit,
                  const SqlSink *sink, CombErr *err)
{
    CombBatch b;
    int64_t end = (limit >= 0 && limit < rs->n_rows) ? limit : rs->n_rows;
    int rc = COMB_OK;
    if (!sink->batch || end == 0)
        return COMB_OK;
    if (comb_batch_init(&b, n_out, rs->kinds, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    for (int64_t r = 0; r < end && !rc; r++) {
        for (int j = 0; j < n_out; j++)
            sql_datum_store(&b.cols[j], b.n_rows, &rs->rows[r][j]);
        if (++b.n_rows == b.capacity || r + 1 == end) {
            rc = sink->batch(sink->ctx, &b, err);
            comb_batch_reset(&b);
        }
    }
    comb_batch_free(&b);
    return rc;
}
