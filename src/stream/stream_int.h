/*
 * stream_int.h - private to stream/: the connection record and what its
 * files share (stream.c: connection and txn batches; part.c: which
 * partition a row goes to; upsert.c: keys and the delete events of a
 * txn).
 */
#ifndef COMB_STREAM_INT_H
#define COMB_STREAM_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "acid/acid.h"
#include "acid/orc_conf.h"
#include "common/arena.h"
#include "metastore/ms.h"
#include "stream/stream.h"

/* One partition (or the unpartitioned table) the open batch writes. */
typedef struct StreamPart {
    char *name;                /* "k=v/...", NULL: unpartitioned table */
    char *dir;                 /* its directory */
    AcidWriter *w;             /* delta_<w1>_<wN>, opened on the first row
                                  (upsert mode: the txn's delta_w_w_0000
                                  and delete_delta_w_w_0000) */
    bool in_txn;               /* rows of the current txn went here */
    uint16_t *sel;             /* scratch: the rows of one write call */
    int n_sel, cap_sel;
    struct StreamUpsert *up;   /* upsert mode: the current txn's keys */
} StreamPart;

struct CombStream {
    CombArena arena;           /* connection: table, layout, names */
    CombArena batch_arena;     /* the open batch: its partitions */
    CombArena scratch;         /* one write call or commit */
    Ms *ms;
    MsHeartbeater *hb;         /* owns a second handle */
    MsTable *table;
    const char *db, *name;     /* lower case */
    AcidSchema schema;         /* data columns */
    CombStreamLayout layout;
    int n_part_keys;
    bool dynamic;              /* rows carry the partition values */
    char *static_part;         /* static partition name, or NULL */
    int n_buckets;             /* 0: not bucketed (bucket_00000 only) */
    int *bucket_cols;          /* CLUSTERED BY, as data column indexes */
    int n_bucket_cols;
    int bucketing_version;
    AcidOrcConf orc;           /* the table's ORC settings (bloom flags in
                                  arena) */
    int batch_size;
    const char *user, *host, *agent;
    int64_t txn_timeout_ms;
    /* upsert mode */
    int *key_cols;             /* data column indexes */
    int n_key_cols;
    /* the open batch */
    int64_t *txnids, *writeids;
    int n_batch;               /* 0: no batch open */
    int next;                  /* index of the next txn to begin */
    int cur;                   /* index of the begun txn, -1 none */
    StreamPart **parts;
    int n_parts, cap_parts;
    int *buckets;              /* scratch: bucket per physical row */
    int cap_buckets;
    CombStreamStats stats;
    int64_t txn_rows, txn_deletes;   /* of the begun txn */
};

/* part.c: the partition of each live row of `rows` (dynamic: from its
 * partition columns; else the one static partition or the table),
 * added to the batch (and to the metastore when new); parts_of[i] for
 * the i-th live row. */
int stream_route_rows(CombStream *s, const CombBatch *rows,
                      StreamPart **parts_of, CombErr *err);
/* The batch's StreamPart for a static partition or the table. */
int stream_part_fixed(CombStream *s, StreamPart **out, CombErr *err);
/* The writer of part p for the open batch (opened on first use at the
 * begun txn's write id). */
int stream_part_writer(CombStream *s, StreamPart *p, CombErr *err);

/* upsert.c */
/* Remember the keys of the live rows of `rows` (p's rows of a write
 * call), before they are written to p (deleting: none is), with the
 * ROW__IDs the inserted ones are going to get: a later row of the same
 * key in the same txn replaces the earlier one.  s->buckets holds each
 * row's bucket. */
int stream_upsert_note(CombStream *s, StreamPart *p, const CombBatch *rows,
                       bool deleting, CombErr *err);
/* At commit: delete events for every row the txn's keys replace in p
 * (an ACID scan of p's directory under a reader's snapshot, plus the
 * txn's own earlier rows of a key), given to p's writer of the txn (its
 * delete_delta_<w>_<w>_0000).  *n_deleted: events. */
int stream_upsert_flush(CombStream *s, StreamPart *p, int64_t *n_deleted,
                        CombErr *err);
/* Forget p's keys (the txn ended). */
void stream_upsert_reset(StreamPart *p);
void stream_upsert_free(StreamPart *p);

#endif
