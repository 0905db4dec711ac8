/*
 * batch.c - allocating and resetting column batches.
 */
#include "common/batch.h"
#include "common/alloc.h"
#include "common/err.h"

#include <string.h>

const char *comb_type_name(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_BOOLEAN: return "boolean";
    case COMB_T_TINYINT: return "tinyint";
    case COMB_T_SMALLINT: return "smallint";
    case COMB_T_INT: return "int";
    case COMB_T_BIGINT: return "bigint";
    case COMB_T_FLOAT: return "float";
    case COMB_T_DOUBLE: return "double";
    case COMB_T_STRING: return "string";
    case COMB_T_BINARY: return "binary";
    case COMB_T_TIMESTAMP: return "timestamp";
    case COMB_T_LIST: return "array";
    case COMB_T_MAP: return "map";
    case COMB_T_STRUCT: return "struct";
    case COMB_T_UNION: return "uniontype";
    case COMB_T_DECIMAL: return "decimal";
    case COMB_T_DATE: return "date";
    case COMB_T_VARCHAR: return "varchar";
    case COMB_T_CHAR: return "char";
    case COMB_T_NULL: return "void";
    }
    return "unknown";
}

static int vec_init(CombVector *v, CombTypeKind kind, int capacity)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->nulls = comb_calloc((size_t)capacity, 1);
    if (!v->nulls)
        return COMB_ENOMEM;
    if (comb_type_is_int(kind) || kind == COMB_T_NULL)
        v->i64 = comb_calloc((size_t)capacity, sizeof *v->i64);
    else if (comb_type_is_float(kind))
        v->f64 = comb_calloc((size_t)capacity, sizeof *v->f64);
    else if (comb_type_is_str(kind))
        v->str = comb_calloc((size_t)capacity, sizeof *v->str);
    else
        return COMB_OK; /* struct and other containers: null mask only */
    if (!v->i64 && !v->f64 && !v->str)
        return COMB_ENOMEM;
    return COMB_OK;
}

static void vec_free(CombVector *v)
{
    comb_free(v->nulls);
    comb_free(v->i64);
    comb_free(v->f64);
    comb_free(v->str);
    memset(v, 0, sizeof *v);
}

int comb_batch_init(CombBatch *b, int n_cols, const CombTypeKind *kinds,
                    int capacity)
{
    memset(b, 0, sizeof *b);
    if (capacity <= 0)
        capacity = COMB_BATCH_SIZE;
    b->capacity = capacity;
    comb_arena_init(&b->arena, 64 * 1024);
    b->sel = comb_calloc((size_t)capacity, sizeof *b->sel);
    b->cols = comb_calloc(n_cols > 0 ? (size_t)n_cols : 1, sizeof *b->cols);
    if (!b->sel || !b->cols)
        goto nomem;
    b->n_cols = n_cols;
    for (int i = 0; i < n_cols; i++)
        if (vec_init(&b->cols[i], kinds[i], capacity))
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
            vec_free(&b->cols[i]);
    comb_free(b->cols);
    comb_free(b->sel);
    comb_arena_free(&b->arena);
    memset(b, 0, sizeof *b);
}

void comb_batch_reset(CombBatch *b)
{
    b->n_rows = 0;
    b->use_sel = false;
    b->n_sel = 0;
    for (int i = 0; i < b->n_cols; i++)
        b->cols[i].has_nulls = false;
    comb_arena_reset(&b->arena);
}

void comb_vec_nulls_materialize(CombVector *v, int n)
{
    if (v->has_nulls)
        return;
    memset(v->nulls, 0, (size_t)n);
    v->has_nulls = true;
}
