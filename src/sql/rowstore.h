/*
 * rowstore.h - materialized rows for the operators that must see all input
 * before producing output (ORDER BY, GROUP BY): rows of datums with their
 * strings copied into the store's arena, sortable, and emitted again as
 * batches.
 */
#ifndef COMB_SQL_ROWSTORE_H
#define COMB_SQL_ROWSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "sql/session.h"

typedef struct SqlDatum {
    bool null;
    int64_t i;      /* integer kinds, boolean */
    double d;       /* float, double */
    CombStr s;      /* strings, bytes owned by the store */
} SqlDatum;

typedef struct SqlRowStore {
    int n_cols;
    CombTypeKind *kinds;    /* owned */
    SqlDatum **rows;        /* owned array of arena rows */
    int64_t n_rows;
    int64_t cap;
    CombArena arena;
} SqlRowStore;

typedef struct SqlSortKey {
    int col;
    bool desc;
    bool nulls_first;
} SqlSortKey;

int sql_rows_init(SqlRowStore *rs, int n_cols, const CombTypeKind *kinds);
void sql_rows_free(SqlRowStore *rs);

/* Read one value of vector v at row (strings are copied into arena a). */
int sql_datum_read(SqlDatum *d, const CombVector *v, int row, CombArena *a);
/* Write d into row `row` of vector v (strings are borrowed, not copied). */
void sql_datum_store(CombVector *v, int row, const SqlDatum *d);
/* Compare two datums of one kind (NULLs equal to each other, first). */
int sql_datum_cmp(CombTypeKind kind, const SqlDatum *x, const SqlDatum *y);

/* A new row (n_cols datums, all NULL) appended to the store. */
int sql_rows_add(SqlRowStore *rs, SqlDatum **row, CombErr *err);
/* Append the live rows of b, taking column j from cols[j]. */
int sql_rows_append(SqlRowStore *rs, CombVector *const *cols,
                    const CombBatch *b, CombErr *err);

void sql_rows_sort(SqlRowStore *rs, const SqlSortKey *keys, int n_keys);

/* Emit the first n_out columns of rows [0, min(n_rows, limit)) to the sink
 * in batches (limit < 0: all). */
int sql_rows_emit(SqlRowStore *rs, int n_out, int64_t limit,
                  const SqlSink *sink, CombErr *err);

#endif
