/*
 * txnlist.h - snapshots: which transactions and write ids a reader sees.
 *
 * CombTxnList mirrors Hive's ValidReadTxnList (global txn ids) and
 * CombWriteIdList its ValidReaderWriteIdList (one table's write ids); both
 * are plain values shared by metastore/ (which builds them) and acid/ (which
 * reads with them), so they live here.  String forms are Hive's:
 *   txn list       "<hwm>:<minOpenTxn>:<open,...>:<aborted,...>"
 *   write-id list  "<db.table>:<hwm>:<minOpenWriteId>:<open,...>:<aborted,...>"
 * with 9223372036854775807 meaning "no open id".
 *
 * Ownership: lists own their exception arrays; free with *_free().
 */
#ifndef COMB_TXNLIST_H
#define COMB_TXNLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"

#define COMB_NO_OPEN_ID INT64_MAX

typedef enum CombRangeValid {
    COMB_RANGE_NONE = 0,
    COMB_RANGE_SOME = 1,
    COMB_RANGE_ALL = 2
} CombRangeValid;

typedef struct CombIdList {
    int64_t hwm;            /* high watermark: ids above it are invisible */
    int64_t min_open;       /* smallest open exception, COMB_NO_OPEN_ID if none */
    int n_exceptions;
    int64_t *exceptions;    /* sorted ascending, all <= hwm; owned */
    bool *aborted;          /* parallel to exceptions: aborted (vs open) */
} CombIdList;

typedef CombIdList CombTxnList;

typedef struct CombWriteIdList {
    char *table;            /* "db.table" lower case; owned; may be NULL */
    CombIdList ids;
    /* A reader inside an explicit transaction that already wrote the
     * table under write id own_writeid (valid in ids: the transaction
     * sees its own writes): delta_W_W_S and delete_delta_W_W_S of that
     * write id with S >= own_stmt_limit are the reading statement's own
     * output and stay invisible to it.  0: no such write (not part of
     * the string forms). */
    int64_t own_writeid;
    int own_stmt_limit;
} CombWriteIdList;

/* Build from parts (open and aborted may overlap none; arrays unsorted ok). */
int comb_idlist_init(CombIdList *l, int64_t hwm, const int64_t *open,
                     int n_open, const int64_t *aborted, int n_aborted);
void comb_idlist_free(CombIdList *l);
int comb_idlist_copy(CombIdList *dst, const CombIdList *src);

bool comb_idlist_is_valid(const CombIdList *l, int64_t id);
bool comb_idlist_is_aborted(const CombIdList *l, int64_t id);
bool comb_idlist_is_open(const CombIdList *l, int64_t id);
/* Hive's isWriteIdRangeValid / isWriteIdRangeAborted. */
CombRangeValid comb_idlist_range_valid(const CombIdList *l, int64_t lo,
                                       int64_t hi);
CombRangeValid comb_idlist_range_aborted(const CombIdList *l, int64_t lo,
                                         int64_t hi);
/* A base_N may be used: N < minOpen and N <= hwm. */
bool comb_idlist_is_valid_base(const CombIdList *l, int64_t id);
/* (Compaction.) The list of the ids up to hwm that in `in` are aborted,
 * with high watermark hwm and no open ids: Hive's compactor write-id
 * list shape (hive-acid-storage.md 5.2).  *out is the caller's to free.
 * COMB_ENOMEM only. */
int comb_idlist_aborted_upto(const CombIdList *in, int64_t hwm,
                             CombIdList *out);

/* Hive string forms.  The returned string is heap-allocated (comb_free). */
char *comb_txnlist_format(const CombTxnList *l);
int comb_txnlist_parse(const char *s, CombTxnList *out, CombErr *err);
char *comb_writeidlist_format(const CombWriteIdList *l);
int comb_writeidlist_parse(const char *s, CombWriteIdList *out, CombErr *err);
void comb_writeidlist_free(CombWriteIdList *l);

#endif
