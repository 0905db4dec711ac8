/*
 * initiator.c - Hive's Initiator (hive-acid-transactions.md 4.1): which
 * partitions need a compaction, decided from their directories under the
 * compactor's view of the current snapshot.
 *
 * Differences from Hive, and why: candidates are every partition of
 * every transactional table rather than those COMPLETED_TXN_COMPONENTS
 * names since the last pass (a warehouse comb runs on is small enough to
 * list, and nothing is missed after a restart); aborted work is counted
 * as aborted directories.  A partition whose last failed.compacts
 * .threshold compactions all failed gets a "did not initiate" history row
 * instead of a request, until a manual compaction succeeds.
 */
#include "compactor/compactor_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acid/acid.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "fs/fs.h"

/* The thresholds for one table: the settings, or its
 * compactorthreshold.<setting> properties. */
typedef struct Thresholds {
    int delta_num;
    double delta_pct;
    int aborted;
} Thresholds;

static void table_thresholds(const MsTable *t, const CompactorConfig *cfg,
                             Thresholds *th)
{
    const char *v;
    th->delta_num = cfg->delta_num_threshold;
    th->delta_pct = cfg->delta_pct_threshold;
    th->aborted = cfg->aborted_threshold;
    if ((v = ms_table_prop(t, "compactorthreshold.hive.compactor.delta.num."
                              "threshold")))
        th->delta_num = atoi(v);
    if ((v = ms_table_prop(t, "compactorthreshold.hive.compactor.delta.pct."
                              "threshold")))
        th->delta_pct = atof(v);
    if ((v = ms_table_prop(t, "compactorthreshold.hive.compactor."
                              "abortedtxn.threshold")))
        th->aborted = atoi(v);
}

static bool no_auto_compaction(const MsTable *t)
{
    for (int i = 0; i < t->n_props; i++)
        if (strcasecmp(t->props[i].key, "no_auto_compaction") == 0)
            return strcasecmp(t->props[i].value, "true") == 0;
    return false;
}

/* Bytes of the files of one directory below dir. */
static int64_t dir_bytes(const char *dir, const char *name, CombArena *a)
{
    CombErr ignored;
    char *path = fs_join(a, dir, name), **names;
    int n = 0;
    int64_t total = 0;
    if (!path || fs_list_dir(path, a, &names, &n, &ignored))
        return 0;
    for (int i = 0; i < n; i++) {
        uint64_t size = 0;
        char *file = fs_join(a, path, names[i]);
        if (file && names[i][0] != '_' && names[i][0] != '.' &&
            !fs_file_size(file, &size, &ignored))
            total += (int64_t)size;
    }
    return total;
}

/* The Initiator's decision for one directory: 0 (none), MS_CQ_MINOR or
 * MS_CQ_MAJOR. */
static int decide(const char *dir, const CombWriteIdList *cwil,
                  const CombTxnList *snap, const Thresholds *th,
                  CombArena *a, CombErr *err)
{
    AcidDirStateOptions o = {true};
    AcidDirState st;
    int64_t base = 0, delta = 0;
    int n_deltas;
    bool no_base = false;
    if (acid_dir_state_get_opts(dir, cwil, snap, &o, a, &st, err))
        return -1;
    n_deltas = st.n_deltas + st.n_delete_deltas;
    if (st.n_aborted > th->aborted)
        return MS_CQ_MAJOR;
    if (st.base)
        base = dir_bytes(dir, st.base->name, a);
    for (int i = 0; i < st.n_deltas; i++)
        delta += dir_bytes(dir, st.deltas[i].name, a);
    for (int i = 0; i < st.n_delete_deltas; i++)
        delta += dir_bytes(dir, st.delete_deltas[i].name, a);
    if (base == 0 && delta > 0)
        no_base = true;
    else if (base > 0 && (double)delta / (double)base > th->delta_pct)
        return MS_CQ_MAJOR;
    if (n_deltas <= th->delta_num)
        return 0;
    return no_base ? MS_CQ_MAJOR : MS_CQ_MINOR;
}

/* The last failed.compacts.threshold finished compactions of the
 * partition (did-not-initiate rows left out) all failed. */
static bool failing(const MsCompaction *rows, int n, const MsCompaction *key,
                    int threshold)
{
    int seen = 0, failed = 0;
    for (int i = n - 1; i >= 0 && seen < threshold; i--) {
        const MsCompaction *r = &rows[i];
        bool same_part = (!r->partition && !key->partition) ||
                         (r->partition && key->partition &&
                          strcmp(r->partition, key->partition) == 0);
        if (strcmp(r->db, key->db) != 0 || strcmp(r->table, key->table) != 0 ||
            !same_part || r->state == MS_CQ_DID_NOT_INITIATE ||
            r->state == MS_CQ_INITIATED || r->state == MS_CQ_WORKING ||
            r->state == MS_CQ_READY_FOR_CLEANING)
            continue;
        seen++;
        failed += r->state == MS_CQ_FAILED;
    }
    return seen == threshold && failed == threshold;
}

typedef struct Pass {
    Ms *ms;
    const CompactorConfig *cfg;
    CombArena *a;
    CombTxnList snap;
    MsCompaction *history;
    int n_history;
    int queued;
} Pass;

static int consider(Pass *p, const MsTable *t, const char *part,
                    const char *dir, const CombWriteIdList *cwil,
                    const Thresholds *th, CombErr *err)
{
    char initiator[96];
    MsCompaction key = {0};
    MsCompactRequest rq;
    bool accepted;
    int64_t id;
    MsCompactState state;
    int type = decide(dir, cwil, &p->snap, th, p->a, err), rc;
    if (type < 0)
        return COMB_OK; /* an unreadable directory: the next pass retries */
    if (type == 0)
        return COMB_OK;
    key.db = t->db;
    key.table = t->name;
    key.partition = (char *)part;
    snprintf(initiator, sizeof initiator, "%s-initiator", p->cfg->host);
    rq = (MsCompactRequest){t->db, t->name, part, (MsCompactType)type, NULL,
                            initiator};
    rc = ms_compact_enqueue(p->ms, &rq, &accepted, &id, &state, err);
    if (rc || !accepted)
        return rc;
    if (failing(p->history, p->n_history, &key, p->cfg->failed_threshold))
        return ms_compact_finish(p->ms, id, MS_CQ_DID_NOT_INITIATE,
                                 "Not initiating compaction: too many "
                                 "failed compactions",
                                 &p->cfg->retention, err);
    p->queued++;
    return COMB_OK;
}

/* Hive's compactor write-id list of one table under the pass's snapshot. */
static int table_cwil(Pass *p, const MsTable *t, CombWriteIdList *out,
                      CombErr *err)
{
    CombWriteIdList wil;
    int rc = ms_writeid_list(p->ms, &p->snap, t->db, t->name, &wil, err);
    if (rc)
        return rc;
    rc = compactor_writeid_list(&wil, out, err);
    comb_writeidlist_free(&wil);
    return rc;
}

static int consider_table(Pass *p, const MsTable *t, CombErr *err)
{
    CombWriteIdList cwil;
    Thresholds th;
    MsPartition *parts;
    int n = 0, rc;
    if (!ms_table_is_transactional(t) || no_auto_compaction(t) ||
        !t->location)
        return COMB_OK;
    table_thresholds(t, p->cfg, &th);
    if ((rc = table_cwil(p, t, &cwil, err)))
        return rc;
    if (cwil.ids.hwm > 0 && t->n_part_keys == 0)
        rc = consider(p, t, NULL, t->location, &cwil, &th, err);
    else if (cwil.ids.hwm > 0 &&
             !(rc = ms_part_list(p->ms, t->db, t->name, NULL, 0, p->a,
                                 &parts, &n, err)))
        for (int i = 0; !rc && i < n; i++)
            rc = consider(p, t, parts[i].name, parts[i].location, &cwil, &th,
                          err);
    comb_writeidlist_free(&cwil);
    return rc;
}

int compactor_initiate(Ms *ms, const CompactorConfig *cfg, int *n_queued,
                       CombErr *err)
{
    CombArena a;
    Pass p = {ms, cfg, &a, {0}, NULL, 0, 0};
    char **dbs, **tables;
    int n_dbs = 0, n_tables = 0, rc;
    comb_arena_init(&a, 64 * 1024);
    rc = ms_txn_snapshot(ms, 0, &p.snap, err);
    if (rc) {
        comb_arena_free(&a);
        return rc;
    }
    if (!rc)
        rc = ms_compact_list(ms, false, &a, &p.history, &p.n_history, err);
    if (!rc)
        rc = ms_db_list(ms, &a, &dbs, &n_dbs, err);
    for (int d = 0; !rc && d < n_dbs; d++) {
        rc = ms_table_list(ms, dbs[d], &a, &tables, &n_tables, err);
        for (int i = 0; !rc && i < n_tables; i++) {
            MsTable *t;
            rc = ms_table_get(ms, dbs[d], tables[i], &a, &t, err);
            if (rc == COMB_ENOTFOUND) { /* dropped meanwhile */
                rc = COMB_OK;
                continue;
            }
            if (!rc)
                rc = consider_table(&p, t, err);
        }
    }
    comb_idlist_free(&p.snap);
    if (n_queued)
        *n_queued = p.queued;
    comb_arena_free(&a);
    return rc;
}
