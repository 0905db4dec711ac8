/*
 * batch.h - the column batch every layer passes data in.
 *
 * A batch holds up to `capacity` rows (COMB_BATCH_SIZE by default), one
 * CombVector per column.  Integers of every width and booleans ride in int64
 * vectors, floats and doubles in double vectors, strings as (pointer,
 * length).  A NULL is a 1 in the vector's null mask; has_nulls = false means
 * the mask holds no nulls (its bytes need not be cleared).  Filters do not
 * move rows: they set a selection vector of surviving row indexes.
 *
 * Ownership: the batch owns its vectors' arrays.  String bytes belong to the
 * producer that filled the batch (its arena or its buffers) and stay valid
 * until the producer fills the batch again or is closed, unless the producer
 * documents otherwise.  batch->arena is reset by comb_batch_reset() and is
 * where producers may copy strings that must live as long as the batch.
 */
#ifndef COMB_BATCH_H
#define COMB_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/types.h"

#define COMB_BATCH_SIZE 1024

typedef struct CombStr {
    const char *ptr;   /* not NUL-terminated; borrowed (see ownership above) */
    uint32_t len;
} CombStr;

typedef struct CombVector {
    CombTypeKind kind;
    bool has_nulls;    /* false: no row is NULL, nulls[] may be stale */
    uint8_t *nulls;    /* capacity bytes, 1 = NULL */
    int64_t *i64;      /* integer kinds, boolean (0/1), date (days) */
    double *f64;       /* float, double */
    CombStr *str;      /* string, varchar, char, binary */
} CombVector;

typedef struct CombBatch {
    int n_cols;
    CombVector *cols;  /* n_cols vectors, owned */
    int n_rows;        /* rows filled, <= capacity */
    int capacity;
    bool use_sel;      /* true: only rows sel[0..n_sel) are live */
    int n_sel;
    uint16_t *sel;     /* capacity entries, ascending row indexes */
    CombArena arena;   /* per-fill scratch for string bytes */
} CombBatch;

/* Allocate a batch with the given column kinds.  0 or COMB_ENOMEM. */
int comb_batch_init(CombBatch *b, int n_cols, const CombTypeKind *kinds,
                    int capacity);
void comb_batch_free(CombBatch *b);

/* Empty the batch for the next fill: n_rows = 0, no selection, no nulls,
 * arena reset. */
void comb_batch_reset(CombBatch *b);

/* Number of live rows (n_sel when a selection is active). */
static inline int comb_batch_live(const CombBatch *b)
{
    return b->use_sel ? b->n_sel : b->n_rows;
}

/* Row index of the i-th live row. */
static inline int comb_batch_row(const CombBatch *b, int i)
{
    return b->use_sel ? b->sel[i] : i;
}

static inline bool comb_vec_is_null(const CombVector *v, int row)
{
    return v->has_nulls && v->nulls[row];
}

static inline void comb_vec_set_null(CombVector *v, int row)
{
    v->nulls[row] = 1;
    v->has_nulls = true;
}

/* Mark row as not NULL (clears a stale mask byte when the mask is active). */
static inline void comb_vec_set_not_null(CombVector *v, int row)
{
    if (v->has_nulls)
        v->nulls[row] = 0;
}

/* Make the null mask explicit: if has_nulls is false, zero the first n
 * bytes and set has_nulls so rows can be marked one by one. */
void comb_vec_nulls_materialize(CombVector *v, int n);

#endif
