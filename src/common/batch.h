/*
 * batch.h - the column batch every layer passes data in.
 *
 * A batch holds up to `capacity` rows (COMB_BATCH_SIZE by default), one
 * CombVector per column.  Which arrays a vector uses depends on its kind:
 *
 *   boolean, tinyint..bigint   i64 (booleans 0/1)
 *   date                       i64: days since 1970-01-01
 *   timestamp                  i64: seconds since 1970-01-01 00:00:00 (a
 *                              wall-clock reading, no time zone) and
 *                              nanos: 0..999,999,999
 *   float, double              f64
 *   string, varchar, char,     str: (pointer, length)
 *   binary
 *   decimal(p,s)               dec: the unscaled value (value * 10^s), s
 *                              from the vector's type
 *   array<T>                   off/len: row r's elements are rows off[r] ..
 *                              off[r] + len[r] - 1 of children[0]
 *   map<K,V>                   off/len over children[0] (keys) and
 *                              children[1] (values)
 *   struct<...>                children[i]: field i, row r of a field
 *                              belongs to row r of the struct
 *   uniontype<...>             tag[r]: the member row r holds, in row r of
 *                              children[tag[r]]
 *
 * A NULL is a 1 in the vector's null mask; has_nulls = false means the mask
 * holds no nulls (its bytes need not be cleared).  A NULL struct, array or
 * map row says nothing of its children's rows.  Filters do not move rows:
 * they set a selection vector of surviving row indexes.
 *
 * Ownership: the batch owns its vectors' arrays, and a vector made by
 * comb_vec_init owns its children (the children of lists and maps grow
 * with comb_vec_reserve).  Copies of a vector header (views) own nothing.
 * String bytes belong to the producer that filled the batch (its arena or
 * its buffers) and stay valid until the producer fills the batch again or
 * is closed, unless the producer documents otherwise.  batch->arena is
 * reset by comb_batch_reset() and is where producers may copy strings that
 * must live as long as the batch.
 */
#ifndef COMB_BATCH_H
#define COMB_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/decimal.h"
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
    int64_t *i64;      /* integer kinds, boolean, date, timestamp seconds */
    double *f64;       /* float, double */
    CombStr *str;      /* string, varchar, char, binary */
    comb_i128 *dec;    /* decimal: unscaled values */
    int32_t *nanos;    /* timestamp: nanoseconds of the second */
    uint32_t *off;     /* array, map: first child row of each row */
    uint32_t *len;     /* array, map: child rows of each row */
    uint8_t *tag;      /* uniontype: member of each row */
    int n_children;
    struct CombVector *children;  /* see the table above */
    int capacity;      /* rows the arrays hold */
    const CombType *type; /* borrowed (parameters, field names); may be
                             NULL for flat kinds made from kinds alone */
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

/* Allocate a batch with the given column kinds (no array, map, struct or
 * union columns: those need their types).  0 or COMB_ENOMEM. */
int comb_batch_init(CombBatch *b, int n_cols, const CombTypeKind *kinds,
                    int capacity);
/* Allocate a batch with one column per type (types borrowed: they must
 * outlive the batch).  0 or COMB_ENOMEM. */
int comb_batch_init_types(CombBatch *b, int n_cols,
                          const CombType *const *types, int capacity);

/* Allocate a vector of type t for `capacity` rows, children included
 * (list and map children start with capacity rows too).  0 or
 * COMB_ENOMEM; on failure v owns nothing. */
int comb_vec_init(CombVector *v, const CombType *t, int capacity);
/* Free what comb_vec_init allocated (children too); v is zeroed. */
void comb_vec_free(CombVector *v);
/* Make v's own arrays hold at least `rows` rows (contents kept; new null
 * bytes zero).  For the children of arrays and maps, whose row count is
 * the parents' total length.  0 or COMB_ENOMEM. */
int comb_vec_reserve(CombVector *v, int rows);
/* comb_vec_reserve for v and, through struct and union members, for the
 * children that share its rows (list and map elements are counted apart):
 * e.g. the element vector of a list before `rows` elements are stored.
 * 0 or COMB_ENOMEM. */
int comb_vec_reserve_rows(CombVector *v, int rows);
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
