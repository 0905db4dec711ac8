/*
 * compactor.h - compaction of ACID tables (hive-acid-transactions.md 4):
 * the worker that runs one queued request, the cleaner that deletes what
 * a compaction made obsolete once no open txn can read it, the initiator
 * that queues requests when a partition's deltas pile up, and the loop of
 * `comb compactor` that runs them all.
 *
 * The layer sits above acid/ (directories and files: acid_compact_dir)
 * and metastore/ (the queue, txns, write ids) and below sql/, whose ALTER
 * TABLE ... COMPACT AND WAIT runs a request itself when no worker claims
 * it.  Every call takes a metastore handle owned by the calling thread.
 */
#ifndef COMB_COMPACTOR_H
#define COMB_COMPACTOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "metastore/ms.h"

/* The hive.compactor.* settings (and the few others compaction reads). */
typedef struct CompactorConfig {
    int64_t worker_timeout_ms;     /* hive.compactor.worker.timeout (86400s):
                                      a working entry older than this is
                                      taken to belong to a dead worker */
    int worker_threads;            /* hive.compactor.worker.threads (0) */
    bool initiator_on;             /* hive.compactor.initiator.on */
    bool cleaner_on;               /* hive.compactor.cleaner.on (true) */
    int64_t check_interval_ms;     /* hive.compactor.check.interval (300s) */
    int64_t cleaner_interval_ms;   /* hive.compactor.cleaner.run.interval
                                      (5000ms) */
    int delta_num_threshold;       /* hive.compactor.delta.num.threshold (10) */
    double delta_pct_threshold;    /* hive.compactor.delta.pct.threshold (0.1) */
    int aborted_threshold;         /* hive.compactor.abortedtxn.threshold
                                      (1000) */
    int failed_threshold;          /* hive.compactor.initiator.failed.
                                      compacts.threshold (2) */
    int max_num_delta;             /* hive.compactor.max.num.delta (500):
                                      a compaction reads at most this many
                                      deltas per pass */
    MsCompactRetention retention;  /* hive.compactor.history.retention.* */
    int64_t txn_timeout_ms;        /* hive.txn.timeout (300s): the daemon
                                      is the embedded setup's housekeeper
                                      (ms_housekeep), which aborts txns of
                                      clients that stopped heartbeating */
    int64_t test_sleep_ms;         /* test builds: comb.test.compactor.sleep.ms,
                                      a pause after the claim and another
                                      between the files and the commit, so
                                      kill tests hit every step */
    char host[64];                 /* this machine, for worker ids */
    /* Told how far a compaction this process runs got (may be NULL):
     * percent done and SHOW COMPACTIONS' text of it; AND WAIT draws its
     * progress bar with it. */
    void (*on_progress)(void *ctx, int pct, const char *text);
    void *on_progress_ctx;
} CompactorConfig;

/* Milliseconds of the monotonic clock: what the compactor's intervals,
 * heartbeats and progress reports are measured in. */
int64_t compactor_clock_ms(void);

/* Hive's defaults (and the host name). */
void compactor_config_default(CompactorConfig *cfg);
/* Apply one setting if it is one of the above (true), else false; a value
 * that does not parse is COMB_EINVALID naming the key. */
int compactor_config_set(CompactorConfig *cfg, const char *key,
                         const char *value, bool *used, CombErr *err);

/* What one worker run did. */
typedef struct CompactorRun {
    bool claimed;                  /* an entry was claimed */
    int64_t id;                    /* its id */
    MsCompactState state;          /* where it went: ready for cleaning,
                                      refused or failed */
    char error[1100];              /* why it failed or was refused */
} CompactorRun;

/* Claim one initiated entry (id > 0: that one only) as worker_id and run
 * it: open the compactor's txn (type COMPACTION) and its snapshot, take
 * the compactor's write-id list (high watermark below the lowest open
 * write id, aborted ids as exceptions), record both on the entry, write
 * the new base or deltas (durable), then commit the txn and mark the
 * entry ready for cleaning in one metastore transaction.  Nothing to
 * compact: refused (or ready for cleaning when obsolete or aborted
 * directories wait).  A failure aborts the txn, removes what it wrote and
 * moves the entry to the history as failed with the error; only errors of
 * the metastore itself are returned. */
int compactor_work_one(Ms *ms, const CompactorConfig *cfg,
                       const char *worker_id, int64_t id, CompactorRun *out,
                       CombErr *err);

/* One cleaner pass: for every entry ready for cleaning whose
 * CQ_NEXT_TXN_ID is at or below every open txn (no txn that began before
 * the compaction committed is still running), delete the directories
 * that are obsolete or aborted in a view capped at its high watermark,
 * then move it to the history as succeeded.  *n_cleaned (may be NULL)
 * counts the entries. */
int compactor_clean(Ms *ms, const CompactorConfig *cfg, int *n_cleaned,
                    CombErr *err);

/* One initiator pass over every transactional table (Hive's Initiator,
 * 4.1): a partition (or unpartitioned table) gets a request when it has
 * more than delta.num.threshold deltas (minor), deltas larger than
 * delta.pct.threshold of its base or no base (major), or more than
 * abortedtxn.threshold aborted directories (major), unless the table says
 * NO_AUTO_COMPACTION, a request is queued already, or its last
 * failed.compacts.threshold compactions failed.  Table properties
 * compactorthreshold.<setting> override the settings.  *n_queued (may be
 * NULL) counts the requests. */
int compactor_initiate(Ms *ms, const CompactorConfig *cfg, int *n_queued,
                       CombErr *err);

/* `comb compactor` (and `comb serve`'s compactor): until *stop becomes
 * true (a signal handler, or the server's stop, sets it),
 * the initiator every check interval (if on), cfg->worker_threads workers
 * (each on its own handle from ms_open(target, warehouse)) and the cleaner
 * every cleaner interval (if on), housekeeping (ms_housekeep) before each
 * cleaner pass.  once: housekeeping, the initiator (if on), the workers
 * until the queue has nothing initiated, the cleaner once, and return. */
int compactor_daemon(const char *target, const char *warehouse,
                     const CompactorConfig *cfg, bool once,
                     atomic_int *stop, CombErr *err);

#endif
