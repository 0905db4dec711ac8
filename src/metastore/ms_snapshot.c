/*
 * ms_snapshot.c - the client-side halves of Hive's snapshot algorithms
 * (hive-acid-transactions.md 2.2 and 2.3), independent of any backend: a
 * backend reads the raw TXNS / TXN_TO_WRITE_ID rows inside one database
 * transaction and these functions turn them into CombTxnList and
 * CombWriteIdList.  Pure functions, so every backend gets the same answer.
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"

#include <stdio.h>
#include <string.h>

/* Two id arrays sized for the worst case (every row in one of them). */
typedef struct IdSplit {
    int64_t *open;
    int64_t *aborted;
    int n_open;
    int n_aborted;
} IdSplit;

static int split_alloc(IdSplit *s, int n, CombErr *err)
{
    memset(s, 0, sizeof *s);
    if (n == 0)
        return COMB_OK;
    s->open = comb_malloc((size_t)n * sizeof *s->open);
    s->aborted = comb_malloc((size_t)n * sizeof *s->aborted);
    if (!s->open || !s->aborted) {
        comb_free(s->open);
        comb_free(s->aborted);
        return comb_err_nomem(err);
    }
    return COMB_OK;
}

static void split_add(IdSplit *s, int64_t id, bool aborted)
{
    if (aborted)
        s->aborted[s->n_aborted++] = id;
    else
        s->open[s->n_open++] = id;
}

static int split_finish(IdSplit *s, int64_t hwm, CombIdList *out,
                        CombErr *err)
{
    int rc = comb_idlist_init(out, hwm, s->open, s->n_open, s->aborted,
                              s->n_aborted);
    comb_free(s->open);
    comb_free(s->aborted);
    if (rc)
        return comb_err_nomem(err);
    return COMB_OK;
}

int ms_snapshot_build(int64_t hwm, const MsTxnRow *rows, int n_rows,
                      int64_t current, CombTxnList *out, CombErr *err)
{
    IdSplit s;
    int rc;
    memset(out, 0, sizeof *out);
    /* A txn must not see txns that started after it, nor count itself as
     * an exception: cut the list at the current txn. */
    if (current > 0 && current < hwm)
        hwm = current;
    if ((rc = split_alloc(&s, n_rows, err)))
        return rc;
    for (int i = 0; i < n_rows; i++) {
        if (current > 0 && rows[i].txnid >= current)
            break; /* rows ascend */
        split_add(&s, rows[i].txnid, rows[i].state == MS_TXN_ABORTED);
    }
    return split_finish(&s, hwm, out, err);
}

static char *full_table_name(const char *db, const char *table)
{
    size_t n = strlen(db) + strlen(table) + 2;
    char *s = comb_malloc(n);
    if (s)
        snprintf(s, n, "%s.%s", db, table);
    return s;
}

int ms_writeids_build(const CombTxnList *txns, const char *db,
                      const char *table, int64_t write_hwm,
                      const MsWriteRow *rows, int n_rows,
                      CombWriteIdList *out, CombErr *err)
{
    IdSplit s;
    bool saw_valid = false;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = split_alloc(&s, n_rows, err)))
        return rc;
    for (int i = 0; i < n_rows; i++) {
        int64_t txn = rows[i].txnid;
        if (comb_idlist_is_valid(txns, txn)) {
            saw_valid = true;
            continue;
        }
        /* A writer above the snapshot's hwm is not listed as aborted, so
         * it counts as open, as in Hive. */
        split_add(&s, rows[i].writeid, comb_idlist_is_aborted(txns, txn));
    }
    if (!saw_valid && s.n_open + s.n_aborted > 0) {
        /* Every valid write was cleaned away (compacted): Hive keeps only
         * the lowest invalid write id and makes it the high watermark.
         * Rows ascend, so the lowest is the first of either array. */
        bool low_open = s.n_open > 0 &&
                        (s.n_aborted == 0 || s.open[0] < s.aborted[0]);
        write_hwm = low_open ? s.open[0] : s.aborted[0];
        s.n_open = low_open ? 1 : 0;
        s.n_aborted = low_open ? 0 : 1;
    }
    if ((rc = split_finish(&s, write_hwm, &out->ids, err)))
        return rc;
    out->table = full_table_name(db, table);
    if (!out->table) {
        comb_idlist_free(&out->ids);
        return comb_err_nomem(err);
    }
    return COMB_OK;
}
