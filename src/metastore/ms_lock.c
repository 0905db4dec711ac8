/*
 * ms_lock.c - the backend-independent half of Hive's lock manager: the
 * conflict matrix (one implementation, which backends evaluate over the
 * rows they read), the wait-for graph and its deadlock search, and the
 * client's wait loop (Hive's DbLockManager: retries with doubling sleeps).
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------- matrix */

static bool same_name(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

bool ms_lock_overlaps(const MsLockRow *a, const MsLockRow *b)
{
    if (!same_name(a->db, b->db))
        return false;
    if (!a->table || !b->table)
        return true;
    if (!same_name(a->table, b->table))
        return false;
    return !a->partition || !b->partition ||
           same_name(a->partition, b->partition);
}

/* Hive 4's CheckLockFunction, one condition per requested type.  A
 * database-level SHARED_READ only guards "the database is not dropped": it
 * neither waits for nor holds off table or partition EXCLUSIVE locks. */
bool ms_lock_conflicts(const MsLockRow *rq, const MsLockRow *ex)
{
    switch (rq->type) {
    case MS_LOCK_SHARED_READ:
        return ex->type == MS_LOCK_EXCLUSIVE && !(ex->table && !rq->table);
    case MS_LOCK_EXCLUSIVE:
        return !(!ex->table && ex->type == MS_LOCK_SHARED_READ && rq->table);
    case MS_LOCK_SHARED_WRITE:
        return ex->type == MS_LOCK_EXCL_WRITE || ex->type == MS_LOCK_EXCLUSIVE;
    case MS_LOCK_EXCL_WRITE:
        return ex->type != MS_LOCK_SHARED_READ;
    }
    return true;
}

/* -------------------------------------------------------- wait-for graph */

/* Does waiting row w wait for row e (of an earlier request of another
 * txn, overlapping and conflicting)? */
void ms_lock_decide(const MsLockRow *req, int n_req,
                    const MsLockRow *earlier, int n_earlier,
                    bool zero_wait_read, MsLockStatus *out, int *blocked,
                    int *blocker)
{
    *blocked = *blocker = -1;
    for (int i = 0; i < n_req && *blocker < 0; i++)
        for (int j = 0; j < n_earlier && *blocker < 0; j++)
            if (ms_lock_overlaps(&req[i], &earlier[j]) &&
                ms_lock_conflicts(&req[i], &earlier[j])) {
                *blocked = i;
                *blocker = j;
            }
    if (*blocker < 0) {
        out->state = MS_LOCK_ACQUIRED;
        return;
    }
    out->blocker_extid = earlier[*blocker].extid;
    out->blocker_intid = earlier[*blocker].intid;
    out->blocker_txnid = earlier[*blocker].txnid;
    out->blocker_type = earlier[*blocker].type;
    out->state = zero_wait_read && req[*blocked].type == MS_LOCK_SHARED_READ
                     ? MS_LOCK_REFUSED
                     : MS_LOCK_WAITING;
}

static bool waits_for(const MsLockRow *w, const MsLockRow *e)
{
    return w->state == MS_LOCK_WAITING && e->extid < w->extid &&
           e->txnid != w->txnid && ms_lock_overlaps(w, e) &&
           ms_lock_conflicts(w, e);
}

static int txn_index(const int64_t *txns, int n, int64_t txnid)
{
    for (int i = 0; i < n; i++)
        if (txns[i] == txnid)
            return i;
    return -1;
}

/* Depth-first search for a path from node `at` back to node `goal`;
 * path[0..*depth) holds the nodes after goal. */
static bool find_cycle(const bool *edge, int n, int at, int goal, bool *seen,
                       int *path, int *depth)
{
    seen[at] = true;
    for (int next = 0; next < n; next++) {
        if (!edge[at * n + next])
            continue;
        if (next == goal)
            return true;
        if (seen[next])
            continue;
        path[(*depth)++] = next;
        if (find_cycle(edge, n, next, goal, seen, path, depth))
            return true;
        (*depth)--;
    }
    return false;
}

void ms_lock_deadlock(const MsLockRow *rows, int n, int64_t txnid,
                      int64_t *victim, int64_t *cycle, int cap, int *n_cycle)
{
    int64_t *txns = comb_calloc((size_t)n + 1, sizeof *txns);
    bool *edge = NULL, *seen = NULL;
    int *path = NULL, n_txn = 0, start, depth = 0;
    *victim = 0;
    *n_cycle = 0;
    if (!txns)
        return;
    for (int i = 0; i < n; i++)
        if (txn_index(txns, n_txn, rows[i].txnid) < 0)
            txns[n_txn++] = rows[i].txnid;
    start = txn_index(txns, n_txn, txnid);
    edge = comb_calloc((size_t)n_txn * (size_t)n_txn + 1, sizeof *edge);
    seen = comb_calloc((size_t)n_txn + 1, sizeof *seen);
    path = comb_calloc((size_t)n_txn + 1, sizeof *path);
    if (start >= 0 && edge && seen && path) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (waits_for(&rows[i], &rows[j]))
                    edge[txn_index(txns, n_txn, rows[i].txnid) * n_txn +
                         txn_index(txns, n_txn, rows[j].txnid)] = true;
        if (find_cycle(edge, n_txn, start, start, seen, path, &depth)) {
            *victim = txnid;
            if (cap > 0)
                cycle[(*n_cycle)++] = txnid;
            for (int k = 0; k < depth; k++) {
                if (txns[path[k]] > *victim)
                    *victim = txns[path[k]];
                if (*n_cycle < cap)
                    cycle[(*n_cycle)++] = txns[path[k]];
            }
        }
    }
    comb_free(txns);
    comb_free(edge);
    comb_free(seen);
    comb_free(path);
}

/* ------------------------------------------------------------- waiting */

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The abort reason naming a cycle: "deadlock: txnid:5 -> txnid:7 ->
 * txnid:5", cut to what TXN_META_INFO keeps. */
static void cycle_text(const int64_t *cycle, int n, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "%s:", MS_ABORT_DEADLOCK);
    for (int i = 0; i <= n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s txnid:%lld",
                                i ? " ->" : "", (long long)cycle[i % n]);
}

/* After a check that still waits: is txnid in a cycle?  Then abort the
 * youngest member; if that is txnid itself, say so (COMB_ETXN). */
static int break_deadlock(Ms *ms, int64_t txnid, CombErr *err)
{
    enum { MAX_CYCLE = 16 };
    CombArena a;
    MsLockRow *rows = NULL;
    int64_t victim = 0, cycle[MAX_CYCLE];
    char reason[128];
    int n = 0, n_cycle = 0;
    int rc;
    comb_arena_init(&a, 4096);
    rc = ms_lock_list(ms, NULL, NULL, NULL, &a, &rows, &n, err);
    if (!rc)
        ms_lock_deadlock(rows, n, txnid, &victim, cycle, MAX_CYCLE, &n_cycle);
    comb_arena_free(&a);
    if (rc || !victim)
        return rc;
    cycle_text(cycle, n_cycle, reason, sizeof reason);
    if ((rc = ms_txn_abort_reason(ms, victim, reason, err)))
        return rc;
    if (victim == txnid)
        return ms_err_deadlock_victim(err, txnid, reason);
    return COMB_OK;
}

int ms_lock_wait(Ms *ms, int64_t txnid, const MsLockWait *opt,
                 MsLockStatus *out, int64_t *waited_ms, CombErr *err)
{
    int64_t start = monotonic_ms(), next_sleep = 50;
    int retries = 0, rc = COMB_OK;
    if (!ms || !opt || !out || !waited_ms)
        return comb_err(err, COMB_EINVALID, "ms_lock_wait without arguments");
    while (out->state == MS_LOCK_WAITING) {
        if ((rc = break_deadlock(ms, txnid, err)) ||
            retries++ >= opt->num_retries)
            break;
        next_sleep *= 2;
        if (next_sleep > opt->sleep_max_ms)
            next_sleep = opt->sleep_max_ms;
        if (opt->before_sleep)
            opt->before_sleep(opt->ctx, next_sleep);
        sleep_ms(next_sleep);
        if ((rc = ms_lock_check(ms, txnid, out->extid, opt->zero_wait_read,
                                out, err)))
            break;
    }
    *waited_ms = monotonic_ms() - start;
    if (!rc && out->state == MS_LOCK_WAITING) {
        CombErr ignored;
        /* the request goes: the caller holds nothing new */
        ms_unlock(ms, out->extid, &ignored);
    }
    return rc;
}
