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

#define COMB_BATCH_SIZE 1024

/* Same numbering as ORC's Type.Kind so the two convert trivially. */
typedef enum CombTypeKind {
    COMB_T_BOOLEAN = 0,
    COMB_T_TINYINT = 1,
    COMB_T_SMALLINT = 2,
    COMB_T_INT = 3,
    COMB_T_BIGINT = 4,
    COMB_T_FLOAT = 5,
    COMB_T_DOUBLE = 6,
    COMB_T_STRING = 7,
    COMB_T_BINARY = 8,
    COMB_T_TIMESTAMP = 9,
    COMB_T_LIST = 10,
    COMB_T_MAP = 11,
    COMB_T_STRUCT = 12,
    COMB_T_UNION = 13,
    COMB_T_DECIMAL = 14,
    COMB_T_DATE = 15,
    COMB_T_VARCHAR = 16,
    COMB_T_CHAR = 17,
    COMB_T_NULL = 100   /* type of the literal NULL before coercion */
} CombTypeKind;

/* Hive's name of a type kind, lower case ("int", "bigint", "string"...). */
const char *comb_type_name(CombTypeKind kind);

/* Which payload array a kind uses. */
static inline bool comb_type_is_int(CombTypeKind k)
{
    return k == COMB_T_BOOLEAN || k == COMB_T_TINYINT || k == COMB_T_SMALLINT ||
           k == COMB_T_INT || k == COMB_T_BIGINT || k == COMB_T_DATE;
}
static inline bool comb_type_is_float(CombTypeKind k)
{
    return k == COMB_T_FLOAT || k == COMB_T_DOUBLE;
}
static inline bool comb_type_is_str(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR ||
           k == COMB_T_BINARY;
}

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
