/*
 * daemon.c - `comb compactor`: the initiator, worker threads and the
 * cleaner of one process, for the embedded setup (Hive runs them inside
 * its metastore service).
 *
 * Threads: each worker has its own metastore handle (a handle belongs to
 * one thread) and claims entries through the metastore, so several
 * processes may run this on one warehouse without double work.  The main
 * thread runs the initiator and the cleaner on their intervals.  *stop is
 * polled at least every POLL_MS: SIGTERM ends the loops at a safe point
 * (a compaction under way finishes first; a killed one is retried after
 * hive.compactor.worker.timeout).
 */
#include "compactor/compactor.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 200

typedef struct Worker {
    pthread_t thread;
    const char *target, *warehouse;
    const CompactorConfig *cfg;
    atomic_int *stop;
    int index;
    int rc;
    CombErr err;
} Worker;

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void worker_id(const CompactorConfig *cfg, int index, char *buf,
                      size_t cap)
{
    snprintf(buf, cap, "%s-%ld.%d", cfg->host, (long)getpid(), index);
}

/* Run initiated entries until none is left (or stop). */
static int drain(Ms *ms, const CompactorConfig *cfg, int index,
                 atomic_int *stop, CombErr *err)
{
    char id[128];
    worker_id(cfg, index, id, sizeof id);
    while (!atomic_load(stop)) {
        CompactorRun run;
        int rc = compactor_work_one(ms, cfg, id, 0, &run, err);
        if (rc)
            return rc;
        if (!run.claimed)
            return COMB_OK;
        if (run.state == MS_CQ_FAILED)
            fprintf(stderr, "compaction %lld failed: %s\n",
                    (long long)run.id, run.error);
    }
    return COMB_OK;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Ms *ms = NULL;
    w->rc = ms_open(w->target, w->warehouse, &ms, &w->err);
    while (!w->rc && !atomic_load(w->stop)) {
        w->rc = drain(ms, w->cfg, w->index, w->stop, &w->err);
        for (int64_t t = 0; !w->rc && !atomic_load(w->stop) && t < 1000;
             t += POLL_MS)
            sleep_ms(POLL_MS);
    }
    ms_close(ms);
    return NULL;
}

/* Aborts the txns of clients that died, so that their files count as
 * aborted (the initiator and the compactions see them) and no dead txn
 * holds the cleaner back for ever. */
static int housekeep(Ms *ms, const CompactorConfig *cfg, CombErr *err)
{
    MsHousekeeping hk = {cfg->txn_timeout_ms, 0};
    MsHousekeepResult res;
    return ms_housekeep(ms, &hk, &res, err);
}

static int run_once(Ms *ms, const CompactorConfig *cfg, atomic_int *stop,
                    CombErr *err)
{
    int rc = housekeep(ms, cfg, err);
    if (!rc && cfg->initiator_on)
        rc = compactor_initiate(ms, cfg, NULL, err);
    if (!rc)
        rc = drain(ms, cfg, 0, stop, err);
    if (!rc && cfg->cleaner_on)
        rc = compactor_clean(ms, cfg, NULL, err);
    return rc;
}

/* The main thread's loop: initiator and cleaner when due. */
static int main_loop(Ms *ms, const CompactorConfig *cfg, atomic_int *stop,
                     CombErr *err)
{
    int64_t next_init = 0, next_clean = 0;
    int rc = COMB_OK;
    while (!rc && !atomic_load(stop)) {
        int64_t now = compactor_clock_ms();
        if (cfg->initiator_on && now >= next_init) {
            rc = compactor_initiate(ms, cfg, NULL, err);
            next_init = now + cfg->check_interval_ms;
        }
        if (!rc && cfg->cleaner_on && now >= next_clean) {
            rc = housekeep(ms, cfg, err);
            if (!rc)
                rc = compactor_clean(ms, cfg, NULL, err);
            next_clean = now + cfg->cleaner_interval_ms;
        }
        if (!rc)
            sleep_ms(POLL_MS);
    }
    return rc;
}

int compactor_daemon(const char *target, const char *warehouse,
                     const CompactorConfig *cfg, bool once,
                     atomic_int *stop, CombErr *err)
{
    Worker workers[64];
    int n = cfg->worker_threads < 64 ? cfg->worker_threads : 64, started = 0;
    Ms *ms = NULL;
    int rc = ms_open(target, warehouse, &ms, err);
    if (!rc && once)
        rc = run_once(ms, cfg, stop, err);
    for (int i = 0; !rc && !once && i < n; i++) {
        workers[i] = (Worker){0};
        workers[i].target = target;
        workers[i].warehouse = warehouse;
        workers[i].cfg = cfg;
        workers[i].stop = stop;
        workers[i].index = i;
        if (pthread_create(&workers[i].thread, NULL, worker_main,
                           &workers[i]) != 0)
            rc = comb_err(err, COMB_EIO, "cannot start a worker thread");
        else
            started++;
    }
    if (!rc && !once)
        rc = main_loop(ms, cfg, stop, err);
    if (rc)
        atomic_store(stop, 1);
    for (int i = 0; i < started; i++) {
        pthread_join(workers[i].thread, NULL);
        if (!rc && workers[i].rc) {
            rc = workers[i].rc;
            *err = workers[i].err;
        }
    }
    ms_close(ms);
    return rc;
}
