/*
 * cleaner.c - deletes what compactions made obsolete (Hive 4's lock-free
 * Cleaner, hive-acid-transactions.md 4.3).
 *
 * Why it is safe: an entry is handed out (ms_compact_list ready_to_clean)
 * only when no txn with an id below its CQ_NEXT_TXN_ID is open, i.e.
 * every txn that began before the compaction committed has ended; every
 * txn still open began after, so its snapshot holds the compaction's txn
 * as committed and reads the new base or deltas, never the directories
 * they shadow.  The view used to pick directories is the current snapshot
 * with write ids capped at the compaction's high watermark, so deltas of
 * writes newer than the compaction are never touched.  A long reader thus
 * keeps its files until it ends, and the entry waits in "ready for
 * cleaning" meanwhile.
 */
#include "compactor/compactor.h"

#include <stdio.h>
#include <string.h>

#include "acid/acid.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "fs/fs.h"

/* The table's write ids as of now, capped at `cap`: ids above it count
 * as not yet written (their directories stay). */
static int capped_writeids(Ms *ms, const MsCompaction *c, int64_t cap,
                           const CombTxnList *snap, CombWriteIdList *out,
                           CombErr *err)
{
    CombWriteIdList now;
    int64_t *open, *aborted;
    int n_open = 0, n_aborted = 0;
    int64_t hwm;
    int rc = ms_writeid_list(ms, snap, c->db, c->table, &now, err);
    if (rc)
        return rc;
    hwm = now.ids.hwm < cap ? now.ids.hwm : cap;
    open = comb_malloc((size_t)(now.ids.n_exceptions + 1) * sizeof *open);
    aborted = comb_malloc((size_t)(now.ids.n_exceptions + 1) *
                          sizeof *aborted);
    if (!open || !aborted)
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < now.ids.n_exceptions; i++) {
        if (now.ids.exceptions[i] > hwm)
            continue;
        if (now.ids.aborted[i])
            aborted[n_aborted++] = now.ids.exceptions[i];
        else
            open[n_open++] = now.ids.exceptions[i];
    }
    memset(out, 0, sizeof *out);
    if (!rc && comb_idlist_init(&out->ids, hwm, open, n_open, aborted,
                                n_aborted))
        rc = comb_err_nomem(err);
    comb_free(open);
    comb_free(aborted);
    comb_writeidlist_free(&now);
    return rc;
}

static int entry_dir(Ms *ms, const MsCompaction *c, CombArena *a,
                     char **dir, bool *gone, CombErr *err)
{
    MsTable *t;
    MsPartition *p;
    int rc = ms_table_get(ms, c->db, c->table, a, &t, err);
    *gone = rc == COMB_ENOTFOUND;
    if (rc)
        return *gone ? COMB_OK : rc;
    if (!c->partition) {
        *dir = t->location;
        return COMB_OK;
    }
    rc = ms_part_get(ms, c->db, c->table, c->partition, a, &p, err);
    *gone = rc == COMB_ENOTFOUND;
    if (!rc)
        *dir = p->location;
    return *gone ? COMB_OK : rc;
}

/* Delete the obsolete and aborted directories of one entry's directory,
 * in the view capped at `cap`. */
static int clean_dir(Ms *ms, const MsCompaction *c, int64_t cap,
                     const char *dir, CombArena *a, CombErr *err)
{
    CombTxnList snap;
    CombWriteIdList wil;
    AcidDirState st;
    int rc = ms_txn_snapshot(ms, 0, &snap, err);
    if (rc)
        return rc;
    rc = capped_writeids(ms, c, cap, &snap, &wil, err);
    if (rc) {
        comb_idlist_free(&snap);
        return rc;
    }
    rc = acid_dir_state_get(dir, &wil, &snap, a, &st, err);
    for (int k = 0; !rc && k < 2; k++) {
        int n = k ? st.n_aborted : st.n_obsolete;
        char **names = k ? st.aborted : st.obsolete;
        for (int i = 0; !rc && i < n; i++) {
            char *path = fs_join(a, dir, names[i]);
            rc = path ? fs_remove_tree(path, err) : comb_err_nomem(err);
        }
    }
    if (!rc)
        rc = fs_fsync_dir(dir, err);
    comb_writeidlist_free(&wil);
    comb_idlist_free(&snap);
    return rc;
}

static bool same_partition(const MsCompaction *x, const MsCompaction *y)
{
    return strcmp(x->db, y->db) == 0 && strcmp(x->table, y->table) == 0 &&
           ((!x->partition && !y->partition) ||
            (x->partition && y->partition &&
             strcmp(x->partition, y->partition) == 0));
}

/* The view of an entry is capped at the highest watermark of the ready
 * entries of its partition: they are all committed and past every reader
 * that could need their inputs, and an older entry's own cap would hide
 * the newer compaction's base ("not enough history"). */
static int64_t partition_cap(const MsCompaction *rows, int n, int i)
{
    int64_t cap = rows[i].highest_writeid;
    for (int k = 0; k < n; k++)
        if (same_partition(&rows[k], &rows[i]) &&
            rows[k].highest_writeid > cap)
            cap = rows[k].highest_writeid;
    return cap;
}

int compactor_clean(Ms *ms, const CompactorConfig *cfg, int *n_cleaned,
                    CombErr *err)
{
    CombArena a;
    MsCompaction *rows;
    int n, rc, cleaned = 0;
    comb_arena_init(&a, 16 * 1024);
    rc = ms_compact_list(ms, true, &a, &rows, &n, err);
    for (int i = 0; !rc && i < n; i++) {
        char *dir = NULL;
        bool gone;
        rc = entry_dir(ms, &rows[i], &a, &dir, &gone, err);
        if (!rc && !gone)
            rc = clean_dir(ms, &rows[i], partition_cap(rows, n, i), dir, &a,
                           err);
        /* a newer compaction of the partition, not yet ready, already
         * replaced what this one wrote: clean both once it is ready */
        if (rc == COMB_ETXN) {
            comb_err_clear(err);
            rc = COMB_OK;
            continue;
        }
        if (!rc)
            rc = ms_compact_finish(ms, rows[i].id, MS_CQ_SUCCEEDED, NULL,
                                   &cfg->retention, err);
        if (!rc)
            cleaned++;
    }
    if (n_cleaned)
        *n_cleaned = cleaned;
    comb_arena_free(&a);
    return rc;
}
