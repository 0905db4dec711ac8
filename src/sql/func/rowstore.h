/*
 * rowstore.h - materialized rows for the operators that must see all input
 * before producing output (ORDER BY, GROUP BY): rows of datums with their
 * strings (and the parts of complex values) copied into the store's arena,
 * sortable, and emitted again as batches.
 */
#ifndef COMB_SQL_ROWSTORE_H
#define COMB_SQL_ROWSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/memacct.h"
#include "sql/func/value.h"
#include "sql/session.h"

/* One value of any type.  All values of one column share its type, so a
 * DECIMAL is its unscaled integer (the scale is the column's). */
typedef struct SqlDatum {
    bool null;
    uint8_t tag;            /* uniontype: the member held */
    int32_t nanos;          /* timestamp */
    int64_t i;              /* integer kinds, boolean, date, timestamp secs */
    double d;               /* float, double */
    CombStr s;              /* strings, binary; bytes owned by the store */
    comb_i128 dec;          /* decimal: unscaled */
    uint32_t n;             /* parts: array elements, map keys and values
                               alternating (2 per entry), struct fields,
                               the union's member (1) */
    struct SqlDatum *parts;
} SqlDatum;

typedef struct SqlRowStore {
    int n_cols;
    CombTypeKind *kinds;    /* owned */
    const CombType **types; /* owned array of borrowed types */
    SqlDatum **rows;        /* owned array of arena rows */
    int64_t n_rows;
    int64_t cap;
    CombArena arena;
    CombMemShare mem;       /* what it holds, counted when tracked */
    bool over;              /* the account was over its limit at the last
                               row added */
} SqlRowStore;

typedef struct SqlSortKey {
    int col;
    bool desc;
    bool nulls_first;
} SqlSortKey;

/* A store of columns of flat kinds (no decimal or complex values). */
int sql_rows_init(SqlRowStore *rs, int n_cols, const CombTypeKind *kinds);
/* A store of columns of any types (borrowed: they outlive the store). */
int sql_rows_init_types(SqlRowStore *rs, int n_cols,
                        const CombType *const *types);
void sql_rows_free(SqlRowStore *rs);
/* Count what the store holds in acct (its blocks and row array), from
 * now until it is freed. */
void sql_rows_track(SqlRowStore *rs, CombMemAcct *acct);
/* Drop every row (their memory too), keeping the columns: a store that
 * was written out to a spill file takes new rows. */
void sql_rows_clear(SqlRowStore *rs);

/* Read one value of vector v at row (strings and parts are copied into
 * arena a).  0 or COMB_ENOMEM. */
int sql_datum_read(SqlDatum *d, const CombVector *v, int row, CombArena *a);
/* dst := a copy of src whose strings and parts live in a.  0 or
 * COMB_ENOMEM. */
int sql_datum_copy(SqlDatum *dst, const SqlDatum *src, CombArena *a);
/* Write d into row `row` of a vector of a flat kind (strings are
 * borrowed, not copied). */
void sql_datum_store(CombVector *v, int row, const SqlDatum *d);
/* Write d into row `row` of a vector of any type being filled.  0 or
 * COMB_ENOMEM. */
int sql_datum_fill(SqlVecFill *f, int row, const SqlDatum *d);
/* Compare two datums of type t (NULLs equal to each other, first; NULLs
 * inside complex values first too, as Hive's ObjectInspectorUtils). */
int sql_datum_cmp(const CombType *t, const SqlDatum *x, const SqlDatum *y);

/* The type of part k of d, a complex value of type t. */
const CombType *sql_datum_part_type(const CombType *t, const SqlDatum *d,
                                    uint32_t k);

/* A new row (n_cols datums, all NULL) appended to the store. */
int sql_rows_add(SqlRowStore *rs, SqlDatum **row, CombErr *err);
/* Append the live rows of b, taking column j from cols[j] (NULL: the
 * column is not kept, its datums stay NULL). */
int sql_rows_append(SqlRowStore *rs, CombVector *const *cols,
                    const CombBatch *b, CombErr *err);

void sql_rows_sort(SqlRowStore *rs, const SqlSortKey *keys, int n_keys);
/* The order sql_rows_sort gives rows x and y of rs (or of a store of the
 * same types): < 0, 0 or > 0. */
int sql_rows_cmp(const SqlRowStore *rs, const SqlSortKey *keys, int n_keys,
                 const SqlDatum *x, const SqlDatum *y);

/* A batch of the first n_cols columns' types and its fill states (in the
 * store's arena).  0 or COMB_ENOMEM. */
int sql_rows_batch_init(SqlRowStore *rs, int n_cols, CombBatch *b,
                        SqlVecFill **fills);
/* Fill b (emptied first) with the first n_cols columns of rows first,
 * first + 1, ... until b is full or the rows end.  0 or COMB_ENOMEM. */
int sql_rows_fill(const SqlRowStore *rs, int64_t first, int n_cols,
                  CombBatch *b, SqlVecFill *fills);

/* Emit the first n_out columns of rows [0, min(n_rows, limit)) to the sink
 * in batches (limit < 0: all). */
int sql_rows_emit(SqlRowStore *rs, int n_out, int64_t limit,
                  const SqlSink *sink, CombErr *err);

#endif
