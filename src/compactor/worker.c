/*
 * worker.c - one compaction request from claim to "ready for cleaning"
 * (hive-acid-transactions.md 4.2), and the settings every part reads.
 *
 * Order of a run, and why: the entry is claimed in the metastore (two
 * workers never get the same one); the compactor's txn is opened with its
 * snapshot, and its write-id list is capped below the lowest open write id
 * (a delta of a txn still writing is never merged); txn and high
 * watermark are recorded on the entry before a file is written, so a
 * failed attempt's output can be told apart (its _v<txn> names a txn that
 * never commits); the files are written and made durable
 * (acid_compact_dir); only then the txn commits together with the entry's
 * move to ready for cleaning.  A worker killed at any point leaves either
 * nothing visible (its txn is open or aborted: readers skip its _v
 * directories) or the whole result; the entry is claimed again after
 * hive.compactor.worker.timeout.
 */
#include "compactor/compactor_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "acid/acid.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "common/types.h"
#include "fs/fs.h"
#include "orc/orc.h"

/* ------------------------------------------------------------ settings */

void compactor_config_default(CompactorConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->worker_timeout_ms = 86400 * 1000LL;
    cfg->worker_threads = 0;
    cfg->initiator_on = false;
    cfg->cleaner_on = true;
    cfg->check_interval_ms = 300 * 1000LL;
    cfg->cleaner_interval_ms = 5000;
    cfg->delta_num_threshold = 10;
    cfg->delta_pct_threshold = 0.1;
    cfg->aborted_threshold = 1000;
    cfg->failed_threshold = 2;
    cfg->max_num_delta = 500;
    cfg->retention = (MsCompactRetention){3, 3, 2, 3, 3};
    cfg->txn_timeout_ms = 300 * 1000LL;
    if (gethostname(cfg->host, sizeof cfg->host - 1) != 0 || !cfg->host[0])
        snprintf(cfg->host, sizeof cfg->host, "localhost");
}

/* Hive time settings: a number with an optional unit (ms, s, m, h, d);
 * `unit_ms` is what a bare number means. */
static bool parse_time_ms(const char *v, int64_t unit_ms, int64_t *out)
{
    static const struct { const char *suffix; int64_t ms; } units[] = {
        {"ms", 1}, {"s", 1000}, {"sec", 1000}, {"m", 60000},
        {"min", 60000}, {"h", 3600000}, {"d", 86400000}};
    char *end;
    long long n = strtoll(v, &end, 10);
    if (end == v || n < 0)
        return false;
    while (*end == ' ')
        end++;
    if (!*end) {
        *out = (int64_t)n * unit_ms;
        return true;
    }
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcasecmp(end, units[i].suffix) == 0) {
            *out = (int64_t)n * units[i].ms;
            return true;
        }
    return false;
}

static bool parse_int(const char *v, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 0 || n > 1000000)
        return false;
    *out = (int)n;
    return true;
}

static bool parse_bool(const char *v, bool *out)
{
    if (strcasecmp(v, "true") == 0)
        *out = true;
    else if (strcasecmp(v, "false") == 0)
        *out = false;
    else
        return false;
    return true;
}

int compactor_config_set(CompactorConfig *cfg, const char *key,
                         const char *value, bool *used, CombErr *err)
{
    static const char prefix[] = "hive.compactor.";
    const char *k = key;
    bool ok = true;
    *used = false;
    if (strcasecmp(k, "comb.test.compactor.sleep.ms") == 0) {
        *used = true;
#ifndef COMB_TEST_BUILD
        /* as the session refuses its comb.test.* hooks: silently
         * ignored, a test's pause would not happen */
        return comb_err(err, COMB_EINVALID,
                        "%s is a hook of the test build only (make "
                        "MODE=test, build/test/comb); this build would "
                        "ignore it", key);
#endif
        if (!parse_time_ms(value, 1, &cfg->test_sleep_ms))
            return comb_err(err, COMB_EINVALID, "bad value '%s' for %s",
                            value, key);
        return COMB_OK;
    }
    if (strcasecmp(k, "hive.txn.timeout") == 0) {
        *used = true;
        if (!parse_time_ms(value, 1000, &cfg->txn_timeout_ms))
            return comb_err(err, COMB_EINVALID, "bad value '%s' for %s",
                            value, key);
        return COMB_OK;
    }
    if (strncasecmp(k, prefix, sizeof prefix - 1) != 0)
        return COMB_OK;
    k += sizeof prefix - 1;
    *used = true;
    if (strcasecmp(k, "worker.timeout") == 0)
        ok = parse_time_ms(value, 1000, &cfg->worker_timeout_ms);
    else if (strcasecmp(k, "worker.threads") == 0)
        ok = parse_int(value, &cfg->worker_threads);
    else if (strcasecmp(k, "initiator.on") == 0)
        ok = parse_bool(value, &cfg->initiator_on);
    else if (strcasecmp(k, "cleaner.on") == 0)
        ok = parse_bool(value, &cfg->cleaner_on);
    else if (strcasecmp(k, "check.interval") == 0)
        ok = parse_time_ms(value, 1000, &cfg->check_interval_ms);
    else if (strcasecmp(k, "cleaner.run.interval") == 0)
        ok = parse_time_ms(value, 1, &cfg->cleaner_interval_ms);
    else if (strcasecmp(k, "delta.num.threshold") == 0)
        ok = parse_int(value, &cfg->delta_num_threshold);
    else if (strcasecmp(k, "delta.pct.threshold") == 0) {
        char *end;
        cfg->delta_pct_threshold = strtod(value, &end);
        ok = end != value && !*end && cfg->delta_pct_threshold >= 0;
    } else if (strcasecmp(k, "abortedtxn.threshold") == 0)
        ok = parse_int(value, &cfg->aborted_threshold);
    else if (strcasecmp(k, "initiator.failed.compacts.threshold") == 0)
        ok = parse_int(value, &cfg->failed_threshold) &&
             cfg->failed_threshold >= 1 && cfg->failed_threshold <= 20;
    else if (strcasecmp(k, "max.num.delta") == 0)
        ok = parse_int(value, &cfg->max_num_delta);
    else if (strcasecmp(k, "history.retention.succeeded") == 0)
        ok = parse_int(value, &cfg->retention.succeeded);
    else if (strcasecmp(k, "history.retention.failed") == 0)
        ok = parse_int(value, &cfg->retention.failed);
    else if (strcasecmp(k, "history.retention.did.not.initiate") == 0 ||
             strcasecmp(k, "history.retention.attempted") == 0)
        ok = parse_int(value, &cfg->retention.did_not_initiate);
    else if (strcasecmp(k, "history.retention.refused") == 0) {
        ok = parse_int(value, &cfg->retention.refused);
        cfg->retention.aborted = cfg->retention.refused;
    } else
        *used = false;
    if (!ok)
        return comb_err(err, COMB_EINVALID,
                        "bad value '%s' for %s", value, key);
    return COMB_OK;
}

/* --------------------------------------------------------------- tables */

/* The directory of a request: the partition's or the table's. */
static int request_dir(Ms *ms, const MsTable *t, const MsCompaction *c,
                       CombArena *a, char **dir, CombErr *err)
{
    MsPartition *p;
    int rc;
    if (!c->partition) {
        if (t->n_part_keys > 0)
            return comb_err(err, COMB_EINVALID,
                            "You must specify a partition to compact for "
                            "partitioned tables");
        *dir = t->location;
        return COMB_OK;
    }
    if ((rc = ms_part_get(ms, c->db, c->table, c->partition, a, &p, err)))
        return rc;
    *dir = p->location;
    return COMB_OK;
}

/* The table's columns as the acid layer reads them. */
static int table_schema(const MsTable *t, CombArena *a, AcidSchema *out,
                        CombErr *err)
{
    const char **names = comb_arena_alloc(a, (size_t)(t->n_cols + 1) *
                                                 sizeof *names);
    const CombType **types = comb_arena_alloc(a, (size_t)(t->n_cols + 1) *
                                                     sizeof *types);
    if (!names || !types)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_cols; i++) {
        CombType *type;
        int rc = comb_type_parse(a, t->cols[i].type, strlen(t->cols[i].type),
                                 &type, err);
        if (rc)
            return rc;
        names[i] = t->cols[i].name;
        types[i] = type;
    }
    out->n_cols = t->n_cols;
    out->names = names;
    out->types = types;
    return COMB_OK;
}

static bool is_insert_only(const MsTable *t)
{
    const char *v = ms_table_prop(t, "transactional_properties");
    return v && strcasecmp(v, "insert_only") == 0;
}

static bool is_format(const MsTable *t, const char *input_format)
{
    return t->input_format && strcmp(t->input_format, input_format) == 0;
}

/* Why an insert-only table cannot be compacted, or NULL: text files are
 * concatenated, which would leave every file's header and footer lines
 * (skip.header/footer.line.count) inside the merged file. */
static const char *insert_only_refusal(const MsTable *t)
{
    static const char *const skips[] = {"skip.header.line.count",
                                        "skip.footer.line.count"};
    if (is_format(t, MS_ORC_INPUT_FORMAT))
        return NULL;
    if (!is_format(t, MS_TEXT_INPUT_FORMAT))
        return "only ORC and TEXTFILE insert-only tables compact";
    for (size_t i = 0; i < sizeof skips / sizeof *skips; i++) {
        const char *v = ms_table_prop(t, skips[i]);
        if (v && strtol(v, NULL, 10) != 0)
            return "a TEXTFILE table with skip.header.line.count or "
                   "skip.footer.line.count does not compact (its files are "
                   "concatenated)";
    }
    return NULL;
}

/* orc.compress of the table (Hive's default ZLIB). */
static int table_compression(const MsTable *t)
{
    OrcCompression c = ORC_COMP_ZLIB;
    orc_compression_parse(ms_table_prop(t, "orc.compress"), &c);
    return (int)c;
}

/* ------------------------------------------------------ the write ids */

int compactor_writeid_list(const CombWriteIdList *in, CombWriteIdList *out,
                           CombErr *err)
{
    const CombIdList *ids = &in->ids;
    int64_t hwm = ids->min_open != COMB_NO_OPEN_ID ? ids->min_open - 1
                                                   : ids->hwm;
    memset(out, 0, sizeof *out);
    if (comb_idlist_aborted_upto(ids, hwm, &out->ids))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* ----------------------------------------------------------------- run */

/* How long a worker waits for its lock: Hive's hive.lock.numretries and
 * hive.lock.sleep.between.retries defaults. */
#define COMPACTOR_LOCK_RETRIES 100
#define COMPACTOR_LOCK_SLEEP_MS 60000

/* Test builds: the pause of comb.test.compactor.sleep.ms. */
static void test_pause(const CompactorConfig *cfg)
{
#ifdef COMB_TEST_BUILD
    if (cfg->test_sleep_ms > 0) {
        struct timespec ts = {cfg->test_sleep_ms / 1000,
                              (long)(cfg->test_sleep_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
#else
    (void)cfg;
#endif
}

/* One claimed entry, from its txn to its commit.  *state is where the
 * entry should go when this returns an error (failed), or what it became. */
typedef struct Job {
    Ms *ms;
    const CompactorConfig *cfg;
    const MsCompaction *c;
    CombArena *a;
    int64_t txn;             /* the compactor's txn, 0 before it opens */
    AcidCompactResult res;
    char *dir;
    int64_t last_beat_ms;    /* when the txn was last heartbeated */
    int64_t last_progress_ms;/* when progress was last recorded */
    int64_t total_bytes;     /* size of the input directories */
    int64_t rows_before;     /* rows and bytes of earlier passes (the
                                callback counts from 0 in each) */
    int64_t bytes_before;
    int64_t last_rows, last_bytes;
} Job;

int64_t compactor_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The compactor's txn is heartbeated every quarter of hive.txn.timeout,
 * so that housekeeping never aborts a long compaction; a txn found
 * aborted (ABORT TRANSACTIONS, a timeout after all) stops the work. */
static int heartbeat(Job *j, int64_t now, CombErr *err)
{
    bool open = true;
    int rc;
    if (now - j->last_beat_ms < j->cfg->txn_timeout_ms / 4)
        return COMB_OK;
    j->last_beat_ms = now;
    if ((rc = ms_txn_heartbeat(j->ms, &j->txn, 1, &open, err)))
        return rc;
    if (!open)
        return comb_err(err, COMB_ETXN,
                        "the compaction's txn txnid:%lld is no longer open",
                        (long long)j->txn);
    return COMB_OK;
}

/* "37% (1200 rows, 3.1 of 8.4 MB)" (rows < 0: not counted): input bytes
 * read of the input's size (stripe data only, so a little short of 100%
 * until the end), in the unit that suits the size. */
static void progress_text(const Job *j, int64_t rows, int64_t bytes,
                          bool done, char *out, size_t cap)
{
    static const struct { double scale; const char *unit; } units[] = {
        {1, "B"}, {1e3, "KB"}, {1e6, "MB"}, {1e9, "GB"}, {1e12, "TB"}};
    int64_t total = j->total_bytes > 0 ? j->total_bytes : 1;
    int pct = done ? 100 : (int)(bytes * 100 / total), u = 0;
    char count[40] = "";
    if (pct > 99 && !done)
        pct = 99;
    while (u < 4 && (double)j->total_bytes >= units[u + 1].scale * 10)
        u++;
    if (rows >= 0) /* text files are copied, not counted */
        snprintf(count, sizeof count, "%lld rows, ", (long long)rows);
    snprintf(out, cap, "%d%% (%s%.*f of %.*f %s)", pct, count, u ? 1 : 0,
             (double)(done ? j->total_bytes : bytes) / units[u].scale,
             u ? 1 : 0, (double)j->total_bytes / units[u].scale,
             units[u].unit);
    if (j->cfg->on_progress)
        j->cfg->on_progress(j->cfg->on_progress_ctx, pct, out);
}

/* acid_compact_dir's progress callback: heartbeat, and how far it got
 * into the queue entry (every second) for SHOW COMPACTIONS and AND WAIT. */
static int progress(void *ctx, int64_t rows, int64_t bytes, CombErr *err)
{
    Job *j = ctx;
    int64_t now = compactor_clock_ms();
    char text[128];
    int rc = heartbeat(j, now, err);
    if (rows >= 0 && rows < j->last_rows) {
        j->rows_before += j->last_rows;
        j->bytes_before += j->last_bytes;
    }
    j->last_rows = rows;
    j->last_bytes = bytes;
    if (rc || now - j->last_progress_ms < 1000)
        return rc;
    j->last_progress_ms = now;
    progress_text(j, j->rows_before + rows, j->bytes_before + bytes, false,
                  text, sizeof text);
    return ms_compact_progress(j->ms, j->c->id, text, err);
}

/* The compactor's txn, its SHARED_READ lock on the table or partition
 * (Hive's Worker: writers never wait for it, while what needs the object
 * exclusively, DROP, TRUNCATE, INSERT OVERWRITE, waits until the
 * compaction commits, so that no compaction writes into a dropped or
 * overwritten directory) and, once the lock is granted, its snapshot. */
static int open_txn(Job *j, CombTxnList *snap, CombErr *err)
{
    MsLockComponent lc = {j->c->db, j->c->table, j->c->partition,
                          MS_LOCK_SHARED_READ};
    MsLockRequest lr = {0, "compactor", j->cfg->host, "compactor", &lc, 1,
                        false};
    MsTxnBegin rq = {"compactor", j->cfg->host, MS_TXN_TYPE_COMPACTION, 0,
                     &lr};
    MsLockWait wait = {COMPACTOR_LOCK_RETRIES, COMPACTOR_LOCK_SLEEP_MS, false,
                       NULL, NULL};
    MsLockStatus st;
    int64_t waited = 0;
    bool have = false;
    int rc = ms_txn_begin(j->ms, &rq, &j->txn, &st, snap, &have, err);
    if (!rc && st.state == MS_LOCK_WAITING &&
        !(rc = ms_lock_wait(j->ms, j->txn, &wait, &st, &waited, err)) &&
        st.state != MS_LOCK_ACQUIRED)
        rc = comb_err(err, COMB_ETXN,
                      "the compactor's SHARED_READ lock on %s.%s%s%s was not "
                      "granted within %lld ms (lockid:%lld waits for "
                      "lockid:%lld of txnid:%lld)",
                      j->c->db, j->c->table, j->c->partition ? "/" : "",
                      j->c->partition ? j->c->partition : "",
                      (long long)waited, (long long)st.extid,
                      (long long)st.blocker_extid,
                      (long long)st.blocker_txnid);
    if (!rc && !have)
        rc = ms_txn_snapshot(j->ms, j->txn, snap, err);
    return rc;
}

/* Remove what this attempt wrote (its txn never commits). */
static void remove_output(Job *j)
{
    CombErr ignored;
    for (int i = 0; i < j->res.n_written; i++) {
        char *path = j->dir ? fs_join(j->a, j->dir, j->res.written[i]) : NULL;
        if (path)
            fs_remove_tree(path, &ignored);
    }
}

/* The input's size, for the share done; 0 when it cannot be told. */
static int64_t input_bytes(Job *j, const CombTxnList *snap,
                           const CombWriteIdList *cwil)
{
    AcidDirStateOptions o = {true};
    AcidDirMetrics m;
    CombErr ignored;
    if (acid_dir_metrics(j->dir, cwil, snap, &o, 0, j->a, &m, &ignored))
        return 0;
    return j->c->type == MS_CQ_MAJOR ? m.bytes : m.bytes - m.base_bytes;
}

static int write_files(Job *j, const MsTable *t, const CombTxnList *snap,
                       const CombWriteIdList *cwil, CombErr *err)
{
    AcidSchema schema;
    AcidCompactSpec spec = {0};
    char text[128];
    int rc = table_schema(t, j->a, &schema, err);
    if (rc)
        return rc;
    spec.major = j->c->type == MS_CQ_MAJOR;
    spec.hwm = cwil->ids.hwm;
    spec.visibility_txn = j->txn;
    spec.compression = table_compression(t);
    spec.max_deltas = j->cfg->max_num_delta;
    spec.progress = progress;
    spec.progress_ctx = j;
    spec.text = is_format(t, MS_TEXT_INPUT_FORMAT);
    j->last_beat_ms = compactor_clock_ms();
    j->total_bytes = input_bytes(j, snap, cwil);
    if (is_insert_only(t))
        rc = acid_compact_insert_only_dir(j->dir, &schema, cwil, snap, &spec,
                                          j->a, &j->res, err);
    else
        rc = acid_compact_dir(j->dir, &schema, cwil, snap, &spec, j->a,
                              &j->res, err);
    if (rc || !j->res.enough)
        return rc;
    progress_text(j, spec.text ? -1 : j->res.n_rows + j->rows_before, 0,
                  true, text, sizeof text);
    return ms_compact_progress(j->ms, j->c->id, text, err);
}

/* Everything between the claim and the commit; *refused says the entry
 * had nothing to compact. */
static int run_job(Job *j, bool *refused, CombErr *err)
{
    MsTable *t;
    CombTxnList snap;
    CombWriteIdList wil, cwil;
    bool have_snap = false, have_wil = false, have_cwil = false;
    int rc = ms_table_get(j->ms, j->c->db, j->c->table, j->a, &t, err);
    *refused = false;
    if (!rc && !ms_table_is_transactional(t))
        rc = comb_err(err, COMB_EINVALID,
                      "Compaction is not allowed on non-ACID table %s.%s",
                      j->c->db, j->c->table);
    if (!rc && is_insert_only(t) && insert_only_refusal(t))
        rc = comb_err(err, COMB_EUNSUPPORTED,
                      "cannot compact insert-only table %s.%s: %s", j->c->db,
                      j->c->table, insert_only_refusal(t));
    if (!rc)
        rc = request_dir(j->ms, t, j->c, j->a, &j->dir, err);
    if (!rc && !(rc = open_txn(j, &snap, err)))
        have_snap = true;
    if (!rc && !(rc = ms_writeid_list(j->ms, &snap, j->c->db, j->c->table,
                                      &wil, err)))
        have_wil = true;
    if (!rc && !(rc = compactor_writeid_list(&wil, &cwil, err)))
        have_cwil = true;
    if (!rc)
        rc = ms_compact_set_txn(j->ms, j->c->id, j->txn, cwil.ids.hwm, err);
    if (!rc)
        test_pause(j->cfg);
    if (!rc && cwil.ids.hwm > 0)
        rc = write_files(j, t, &snap, &cwil, err);
    if (!rc)
        test_pause(j->cfg);
    if (!rc && !j->res.enough)
        *refused = true;
    if (have_cwil)
        comb_writeidlist_free(&cwil);
    if (have_wil)
        comb_writeidlist_free(&wil);
    if (have_snap)
        comb_idlist_free(&snap);
    return rc;
}

/* End of a failed attempt: txn aborted, files gone, entry in the history
 * as `state` with the reason. */
static int give_up(Job *j, MsCompactState state, const char *why,
                   CompactorRun *out, CombErr *err)
{
    CombErr ignored;
    remove_output(j);
    if (j->txn)
        ms_txn_abort_reason(j->ms, j->txn, MS_ABORT_COMPACTION, &ignored);
    out->state = state;
    snprintf(out->error, sizeof out->error, "%s", why);
    return ms_compact_finish(j->ms, j->c->id, state, why, &j->cfg->retention,
                             err);
}

/* The commit did not go through, or its answer was lost: the files go
 * only when the txn is known not to have committed (a committed result
 * whose files were removed would lose rows once the cleaner runs). */
static int commit_failed(Job *j, int commit_rc, const CombErr *why,
                         CompactorRun *out, CombErr *err)
{
    MsTxnState state;
    CombErr ignored;
    int rc = ms_txn_state(j->ms, j->txn, &state, err);
    if (rc)
        return rc; /* unknown: leave everything for the timeout */
    if (state == MS_TXN_COMMITTED) {
        out->state = MS_CQ_READY_FOR_CLEANING;
        return COMB_OK;
    }
    if (commit_rc != COMB_ENOTFOUND)
        return give_up(j, MS_CQ_FAILED, why->msg, out, err);
    /* timed out and claimed again: the entry is another worker's now */
    remove_output(j);
    ms_txn_abort_reason(j->ms, j->txn, MS_ABORT_COMPACTION, &ignored);
    out->state = MS_CQ_FAILED;
    snprintf(out->error, sizeof out->error, "%s", why->msg);
    return COMB_OK;
}

int compactor_work_one(Ms *ms, const CompactorConfig *cfg,
                       const char *worker_id, int64_t id, CompactorRun *out,
                       CombErr *err)
{
    static const char none_met[] =
        "None of the compaction thresholds met, compaction request is "
        "refused!";
    CombArena a;
    MsCompaction c;
    Job j;
    CombErr why;
    bool found, refused;
    int rc;
    memset(out, 0, sizeof *out);
    comb_arena_init(&a, 16 * 1024);
    rc = ms_compact_claim(ms, worker_id, cfg->worker_timeout_ms, id, &a, &c,
                          &found, err);
    if (rc || !found) {
        comb_arena_free(&a);
        return rc;
    }
    out->claimed = true;
    out->id = c.id;
    j = (Job){ms, cfg, &c, &a, 0, {0}, NULL, 0};
    comb_err_clear(&why);
    if ((rc = run_job(&j, &refused, &why))) {
        rc = give_up(&j, MS_CQ_FAILED, why.msg, out, err);
    } else if (refused && !j.res.cleanable) {
        rc = give_up(&j, MS_CQ_REFUSED, none_met, out, err);
    } else if ((rc = ms_compact_commit(ms, c.id, j.txn, &why))) {
        rc = commit_failed(&j, rc, &why, out, err);
    } else {
        out->state = MS_CQ_READY_FOR_CLEANING;
    }
    comb_arena_free(&a);
    return rc;
}
