/*
 * stream.h - streaming ingest into a full-ACID table: the contract of the
 * stream/ layer (Hive's streaming API v2, hive-acid-transactions.md §6;
 * files as hive-acid-storage.md §1.7 and §3).
 *
 * A connection (CombStream) writes to one table, either into one static
 * partition or into the partitions the rows name (dynamic partitioning,
 * partitions added to the metastore as rows arrive).  It works in
 * transaction batches: a batch opens batch_size txns at once, allocates
 * their consecutive write ids w1..wN, and every txn of the batch appends
 * to one directory delta_<w1>_<wN> per partition, one bucket_NNNNN file
 * per bucket, each row carrying its own txn's write id.  Each commit
 * writes an intermediate ORC footer, appends the file's committed length
 * to <bucket file>_flush_length, fsyncs both, then commits the txn in the
 * metastore; the batch's last commit closes the files and removes the
 * side files.  An aborted txn's rows stay in the file, invisible (their
 * write id is aborted).  A background thread heartbeats the batch's open
 * txns (and so their SHARED_READ locks).
 *
 * Use:
 *
 *     comb_stream_open(&opt, &s, &err);
 *     comb_stream_batch_init(s, &rows, 1024);     rows in s's layout
 *     for (;;) {
 *         comb_stream_begin(s, &err);             next txn (new batch
 *                                                 when the last is used up)
 *         ... fill rows; comb_stream_write(s, &rows, &err); ...
 *         comb_stream_commit(s, &err);            or comb_stream_abort
 *     }
 *     comb_stream_close(s, &err);                 aborts what is still open
 *
 * Rows are CombBatch column batches (common/batch.h) laid out as
 * comb_stream_layout says: the table's data columns in table order, each
 * a tree vector of its column type, then (dynamic partitioning only) the
 * partition key columns in key order, typed as the keys.  Parsing text
 * or JSON records into such batches is the caller's (cli/).
 *
 * Upsert mode (upsert_keys given): the connection keeps the latest row
 * per key, as a streaming MERGE.  Every row written replaces the rows of
 * the table (in its partition) with the same key: at commit the txn
 * writes delete events for them (found by an ACID scan of the partition)
 * and its inserted rows, into delete_delta_<w>_<w>_0000 and
 * delta_<w>_<w>_0000 of its own (Hive would take a delete delta inside
 * the batch's delta_<w1>_<wN> range for obsolete); a later row of the same
 * key in the same txn replaces the earlier one.  comb_stream_delete
 * removes rows by key.  Batches still open, lock and heartbeat their txns
 * together.
 *
 * Errors: every call returns COMB_OK or a CombRc code and fills a
 * CombErr whose message names the table, partition or file.  A failed
 * write leaves the txn begun: the caller aborts it (with several
 * partitions, rows of the failed call may be in some files already, never
 * visible); a failed commit aborts the txn.
 *
 * Threads: one connection is used by one thread at a time; its
 * heartbeater runs on a thread of its own with its own metastore handle.
 */
#ifndef COMB_STREAM_H
#define COMB_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/batch.h"
#include "common/err.h"
#include "common/types.h"

typedef struct CombStream CombStream;

typedef struct CombStreamOptions {
    const char *warehouse;        /* warehouse directory (required) */
    const char *metastore;        /* SQLite path or postgresql:// URI;
                                     NULL: <warehouse>/metastore.db */
    const char *db;               /* NULL: "default" */
    const char *table;            /* required; full ACID (transactional,
                                     not insert_only), stored as ORC */
    /* Static partition: one value per partition key, in key order (NULL
     * or "" is __HIVE_DEFAULT_PARTITION__); the partition is added when
     * missing.  n_part_values == 0 on a partitioned table: dynamic
     * partitioning (the rows carry the key values).  A table without
     * partition keys takes none. */
    int n_part_values;
    const char *const *part_values;
    int batch_size;               /* txns per batch; 0: 1 (Hive's default) */
    /* Upsert mode: the key columns (data columns, any case; primitive
     * types only); 0: insert only. */
    int n_upsert_keys;
    const char *const *upsert_keys;
    const char *user;             /* NULL: $USER, else "comb" */
    const char *host;             /* NULL: gethostname() */
    const char *agent_info;       /* lock agent info; NULL: "comb-stream" */
    int64_t txn_timeout_ms;       /* hive.txn.timeout: heartbeats every
                                     half of it; 0: 300000 */
    /* ORC compression of the bucket files: the table's orc.compress
     * property unless set_compression (then an OrcCompression value).
     * The other ORC settings come from the table's properties as INSERT
     * takes them (acid/orc_conf.h: stripe size / 8, row index stride,
     * compression chunk size, bloom filters, dictionary threshold). */
    bool set_compression;
    int compression;
} CombStreamOptions;

/* Column layout of the rows comb_stream_write takes (borrowed from the
 * connection; valid until comb_stream_close). */
typedef struct CombStreamLayout {
    int n_cols;                   /* n_data_cols + n_part_cols */
    const char *const *names;     /* lower case */
    const CombType *const *types;
    int n_data_cols;              /* the table's columns, in table order */
    int n_part_cols;              /* dynamic partitioning: the keys; else 0 */
} CombStreamLayout;

/* What a connection did so far. */
typedef struct CombStreamStats {
    int64_t rows_written;         /* rows given to comb_stream_write in
                                     committed txns */
    int64_t rows_deleted;         /* delete events of committed txns */
    int64_t txns_committed;
    int64_t txns_aborted;
    int64_t batches;              /* transaction batches opened */
    int64_t partitions_added;     /* by this connection */
} CombStreamStats;

/* Open a connection: checks the table (COMB_ENOTFOUND; COMB_EINVALID for
 * a table that is not full ACID ORC, a partition value count other than
 * the key count, unknown or repeated upsert keys; COMB_EUNSUPPORTED for
 * an upsert key of a compound type), opens the metastore (two handles:
 * the caller's and the heartbeater's).  No txn is opened yet. */
int comb_stream_open(const CombStreamOptions *opt, CombStream **out,
                     CombErr *err);

/* The row layout of the connection. */
const CombStreamLayout *comb_stream_layout(const CombStream *s);

/* Allocate a batch in the connection's layout (comb_batch_init_types with
 * the layout's types) for `capacity` rows (0: COMB_BATCH_SIZE).  Free it
 * with comb_batch_free before comb_stream_close. */
int comb_stream_batch_init(const CombStream *s, CombBatch *b, int capacity,
                           CombErr *err);

/* Begin the next txn.  When no batch is open or its txns are used up, a
 * new batch is opened first (openTxns(batch_size), consecutive write ids).
 * The txn's SHARED_READ lock is taken (it may wait like any lock, as
 * ms_lock_wait).  COMB_ETXN when a txn is already begun, or when the
 * batch's txns were aborted behind its back (time-out, ABORT
 * TRANSACTIONS): the batch is then closed and the next begin opens a new
 * one. */
int comb_stream_begin(CombStream *s, CombErr *err);

/* Append the live rows of `rows` (selection honoured) to the current txn.
 * Dynamic partitioning: each row goes to the partition its key columns
 * name.  Upsert mode: each row replaces the rows with its key.  Values
 * the ORC writer refuses (a decimal beyond its precision) or a layout that
 * does not fit are COMB_EINVALID (then abort the txn, see above).
 * COMB_ETXN without a begun txn. */
int comb_stream_write(CombStream *s, const CombBatch *rows, CombErr *err);

/* Upsert mode only (else COMB_EINVALID): delete the rows whose key equals
 * that of a live row of `rows` (same layout; only the key columns and,
 * when dynamic, the partition columns are read). */
int comb_stream_delete(CombStream *s, const CombBatch *rows, CombErr *err);

/* Commit the current txn: flush (intermediate footers, _flush_length,
 * fsync), add dynamic partitions to the txn's components, then commit in
 * the metastore; on the batch's last txn the files are closed first and
 * the side files removed.  On error the txn is aborted (its rows stay
 * invisible) and the error returned. */
int comb_stream_commit(CombStream *s, CombErr *err);

/* Abort the current txn (rollback in the metastore); its rows already in
 * the files stay there, invisible.  COMB_ETXN without a begun txn. */
int comb_stream_abort(CombStream *s, CombErr *err);

/* The current txn's id and write id (0 when none is begun), and how many
 * txns of the open batch are still to begin. */
int64_t comb_stream_txn_id(const CombStream *s);
int64_t comb_stream_write_id(const CombStream *s);
int comb_stream_remaining(const CombStream *s);

void comb_stream_stats(const CombStream *s, CombStreamStats *out);

/* Abort the current txn and the batch's txns not begun yet, close the
 * files (side files removed), stop the heartbeater, close the metastore
 * and free s, even on error.  NULL ok. */
int comb_stream_close(CombStream *s, CombErr *err);

#endif
