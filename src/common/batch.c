/*
 * batch.c - allocating and resetting column batches.
 */
#include "common/batch.h"
#include "common/alloc.h"
#include "common/err.h"

#include <string.h>

/* Element sizes of the arrays a kind uses (0 = not used). */
typedef struct VecArrays {
    size_t i64, f64, str, dec, nanos, off, tag;
} VecArrays;

static VecArrays arrays_of(CombTypeKind k)
{
    VecArrays a = {0};
    if (comb_type_is_int(k) || k == COMB_T_NULL || k == COMB_T_TIMESTAMP)
        a.i64 = sizeof(int64_t);
    if (k == COMB_T_TIMESTAMP)
        a.nanos = sizeof(int32_t);
    if (comb_type_is_float(k))
        a.f64 = sizeof(double);
    if (comb_type_is_str(k))
        a.str = sizeof(CombStr);
    if (k == COMB_T_DECIMAL)
        a.dec = sizeof(comb_i128);
    if (k == COMB_T_LIST || k == COMB_T_MAP)
        a.off = sizeof(uint32_t);
    if (k == COMB_T_UNION)
        a.tag = 1;
    return a;
}

/* Grow one array from `old` to `rows` elements of `size` bytes, zeroing
 * the new part (size 0: the kind has no such array). */
static int grow(void **p, size_t size, int old, int rows)
{
    void *q;
    if (!size)
        return COMB_OK;
    q = comb_realloc(*p, (size_t)rows * size);
    if (!q)
        return COMB_ENOMEM;
    memset((char *)q + (size_t)old * size, 0, (size_t)(rows - old) * size);
    *p = q;
    return COMB_OK;
}

int comb_vec_reserve(CombVector *v, int rows)
{
    VecArrays a = arrays_of(v->kind);
    int old = v->capacity;
    if (rows <= old)
        return COMB_OK;
    /* geometric growth: list children are reserved again and again */
    if (rows < old * 2)
        rows = old * 2;
    if (grow((void **)&v->nulls, 1, old, rows) ||
        grow((void **)&v->i64, a.i64, old, rows) ||
        grow((void **)&v->f64, a.f64, old, rows) ||
        grow((void **)&v->str, a.str, old, rows) ||
        grow((void **)&v->dec, a.dec, old, rows) ||
        grow((void **)&v->nanos, a.nanos, old, rows) ||
        grow((void **)&v->off, a.off, old, rows) ||
        grow((void **)&v->len, a.off, old, rows) ||
        grow((void **)&v->tag, a.tag, old, rows))
        return COMB_ENOMEM;
    v->capacity = rows;
    return COMB_OK;
}

int comb_vec_reserve_rows(CombVector *v, int rows)
{
    if (comb_vec_reserve(v, rows))
        return COMB_ENOMEM;
    if (v->kind == COMB_T_STRUCT || v->kind == COMB_T_UNION)
        for (int i = 0; i < v->n_children; i++)
            if (comb_vec_reserve_rows(&v->children[i], rows))
                return COMB_ENOMEM;
    return COMB_OK;
}

/* A vector of a kind alone (no children): the flat kinds. */
static int vec_init_kind(CombVector *v, CombTypeKind kind, int capacity)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    if (comb_vec_reserve(v, capacity)) {
        comb_vec_free(v);
        return COMB_ENOMEM;
    }
    return COMB_OK;
}

int comb_vec_init(CombVector *v, const CombType *t, int capacity)
{
    if (vec_init_kind(v, t->kind, capacity))
        return COMB_ENOMEM;
    v->type = t;
    if (t->n_children == 0)
        return COMB_OK;
    v->children = comb_calloc((size_t)t->n_children, sizeof *v->children);
    if (!v->children)
        goto nomem;
    for (int i = 0; i < t->n_children; i++) {
        if (comb_vec_init(&v->children[i], t->children[i], capacity))
            goto nomem;
        v->n_children = i + 1;
    }
    return COMB_OK;
nomem:
    comb_vec_free(v);
    return COMB_ENOMEM;
}

void comb_vec_free(CombVector *v)
{
    for (int i = 0; i < v->n_children; i++)
        comb_vec_free(&v->children[i]);
    comb_free(v->children);
    comb_free(v->nulls);
    comb_free(v->i64);
    comb_free(v->f64);
    comb_free(v->str);
    comb_free(v->dec);
    comb_free(v->nanos);
    comb_free(v->off);
    comb_free(v->len);
    comb_free(v->tag);
    memset(v, 0, sizeof *v);
}

static int batch_alloc(CombBatch *b, int n_cols, int capacity)
{
    memset(b, 0, sizeof *b);
    if (capacity <= 0)
        capacity = COMB_BATCH_SIZE;
    b->capacity = capacity;
    comb_arena_init(&b->arena, 64 * 1024);
    b->sel = comb_calloc((size_t)capacity, sizeof *b->sel);
    b->cols = comb_calloc(n_cols > 0 ? (size_t)n_cols : 1, sizeof *b->cols);
    if (!b->sel || !b->cols)
        return COMB_ENOMEM;
    b->n_cols = n_cols;
    return COMB_OK;
}

int comb_batch_init_types(CombBatch *b, int n_cols,
                          const CombType *const *types, int capacity)
{
    if (batch_alloc(b, n_cols, capacity))
        goto nomem;
    for (int i = 0; i < n_cols; i++)
        if (comb_vec_init(&b->cols[i], types[i], b->capacity))
            goto nomem;
    return COMB_OK;
nomem:
    comb_batch_free(b);
    return COMB_ENOMEM;
}

int comb_batch_init(CombBatch *b, int n_cols, const CombTypeKind *kinds,
                    int capacity)
{
    if (batch_alloc(b, n_cols, capacity))
        goto nomem;
    for (int i = 0; i < n_cols; i++)
        if (vec_init_kind(&b->cols[i], kinds[i], b->capacity))
            goto nomem;
    return COMB_OK;
nomem:
    comb_batch_free(b);
    return COMB_ENOMEM;
}

void comb_batch_free(CombBatch *b)
{
    if (b->cols)
        for (int i = 0; i < b->n_cols; i++)
            comb_vec_free(&b->cols[i]);
    comb_free(b->cols);
    comb_free(b->sel);
    comb_arena_free(&b->arena);
    memset(b, 0, sizeof *b);
}

static void vec_reset(CombVector *v)
{
    v->has_nulls = false;
    for (int i = 0; i < v->n_children; i++)
        vec_reset(&v->children[i]);
}

void comb_batch_reset(CombBatch *b)
{
    b->n_rows = 0;
    b->use_sel = false;
    b->n_sel = 0;
    for (int i = 0; i < b->n_cols; i++)
        vec_reset(&b->cols[i]);
    comb_arena_reset(&b->arena);
}

void comb_vec_nulls_materialize(CombVector *v, int n)
{
    if (v->has_nulls)
        return;
    memset(v->nulls, 0, (size_t)n);
    v->has_nulls = true;
}
