/*
 * ms_heartbeat.c - a process's background heartbeater: one thread with its
 * own metastore handle that keeps the process's open txns (and so their
 * locks) alive and runs the housekeeper when it is due.
 *
 * The thread shares only the MsHeartbeater fields below its mutex with the
 * callers; it never touches their handles, and they never touch its.
 * Failed rounds are not fatal: the next round tries again, and a txn whose
 * heartbeats keep failing is aborted by whoever runs the housekeeper,
 * which its next statement then reports.
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

struct MsHeartbeater {
    Ms *ms;                     /* the thread's own handle */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* wakes the thread (stop, kick, settings) */
    /* under mu: */
    bool stop, kick;
    int64_t timeout_ms, housekeeping_ms;
    int64_t *txns;
    int n_txns, cap_txns;
    int64_t rounds;
};

/* Hive's default hive.txn.timeout and housekeeper interval. */
#define HB_DEFAULT_TIMEOUT_MS 300000
#define HB_DEFAULT_HOUSEKEEPING_MS 60000

/* Time between rounds: txns beat every timeout / 2 (as Hive's clients),
 * and housekeeping is looked at as often as it is due. */
static int64_t round_ms(const MsHeartbeater *hb)
{
    int64_t beat = hb->timeout_ms / 2;
    int64_t ms = hb->housekeeping_ms < beat ? hb->housekeeping_ms : beat;
    return ms > 0 ? ms : 1;
}

/* The age at which this process counts the last housekeeping run (its
 * own or another's) as due again.  The run's mark is written a little
 * after its round starts, so with the full interval the next round, one
 * interval later, would find it a few ms short, and housekeeping would
 * run every other interval only. */
static int64_t due_after_ms(const MsHeartbeater *hb)
{
    return hb->housekeeping_ms - hb->housekeeping_ms / 8;
}

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct timespec timespec_of(int64_t ms)
{
    return (struct timespec){(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};
}

/* Under mu: wait until the next round is due (last + round_ms, which a
 * new setting may change meanwhile), a kick or stop.  False on stop. */
static bool wait_for_round(MsHeartbeater *hb, int64_t last)
{
    for (;;) {
        int64_t due = last + round_ms(hb);
        struct timespec until;
        if (hb->stop)
            return false;
        if (hb->kick || monotonic_ms() >= due)
            return true;
        until = timespec_of(due);
        pthread_cond_timedwait(&hb->cv, &hb->mu, &until);
    }
}

/* One round outside the mutex: beat the txns copied under it, then try
 * housekeeping. */
static void run_round(Ms *ms, const int64_t *txns, int n, bool *open,
                      const MsHousekeeping *cfg)
{
    MsHousekeepResult res;
    CombErr err;
    if (n > 0)
        ms_txn_heartbeat(ms, txns, n, open, &err);
    ms_housekeep(ms, cfg, &res, &err);
}

static void *heartbeat_main(void *arg)
{
    MsHeartbeater *hb = arg;
    int64_t *txns = NULL;
    bool *open = NULL;
    int cap = 0;
    /* the first round at once: a process that only looks (SHOW
     * TRANSACTIONS) still reaps what is due */
    int64_t last;
    pthread_mutex_lock(&hb->mu);
    /* round_ms reads the settings, which configure changes under mu */
    last = monotonic_ms() - round_ms(hb);
    while (wait_for_round(hb, last)) {
        MsHousekeeping cfg;
        int n;
        hb->kick = false;
        last = monotonic_ms();
        if (hb->n_txns > cap) {
            int64_t *t = comb_realloc(txns, (size_t)hb->n_txns * sizeof *t);
            bool *o = t ? comb_realloc(open, (size_t)hb->n_txns * sizeof *o)
                        : NULL;
            if (t)
                txns = t;
            if (o) {
                open = o;
                cap = hb->n_txns;
            }
        }
        n = hb->n_txns < cap ? hb->n_txns : cap;
        if (n > 0)
            memcpy(txns, hb->txns, (size_t)n * sizeof *txns);
        cfg = (MsHousekeeping){hb->timeout_ms, due_after_ms(hb)};
        pthread_mutex_unlock(&hb->mu);
        run_round(hb->ms, txns, n, open, &cfg);
        pthread_mutex_lock(&hb->mu);
        hb->rounds++;
        pthread_cond_broadcast(&hb->cv);
    }
    pthread_mutex_unlock(&hb->mu);
    comb_free(txns);
    comb_free(open);
    return NULL;
}

int ms_heartbeater_start(Ms *own, MsHeartbeater **out, CombErr *err)
{
    MsHeartbeater *hb;
    pthread_condattr_t attr;
    *out = NULL;
    if (!own)
        return comb_err(err, COMB_EINVALID, "heartbeater without a handle");
    if (!(hb = comb_calloc(1, sizeof *hb))) {
        ms_close(own);
        return comb_err_nomem(err);
    }
    hb->ms = own;
    hb->timeout_ms = HB_DEFAULT_TIMEOUT_MS;
    hb->housekeeping_ms = HB_DEFAULT_HOUSEKEEPING_MS;
    pthread_mutex_init(&hb->mu, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&hb->cv, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&hb->thread, NULL, heartbeat_main, hb) != 0) {
        pthread_cond_destroy(&hb->cv);
        pthread_mutex_destroy(&hb->mu);
        ms_close(own);
        comb_free(hb);
        return comb_err(err, COMB_EINTERNAL,
                        "cannot start the heartbeat thread");
    }
    *out = hb;
    return COMB_OK;
}

void ms_heartbeater_configure(MsHeartbeater *hb, int64_t txn_timeout_ms,
                              int64_t housekeeping_interval_ms)
{
    if (!hb)
        return;
    pthread_mutex_lock(&hb->mu);
    if (txn_timeout_ms > 0 && txn_timeout_ms != hb->timeout_ms) {
        hb->timeout_ms = txn_timeout_ms;
        pthread_cond_broadcast(&hb->cv);
    }
    if (housekeeping_interval_ms > 0 &&
        housekeeping_interval_ms != hb->housekeeping_ms) {
        hb->housekeeping_ms = housekeeping_interval_ms;
        pthread_cond_broadcast(&hb->cv);
    }
    pthread_mutex_unlock(&hb->mu);
}

int ms_heartbeater_add(MsHeartbeater *hb, int64_t txnid, CombErr *err)
{
    int rc = COMB_OK;
    if (!hb)
        return COMB_OK;
    pthread_mutex_lock(&hb->mu);
    if (hb->n_txns == hb->cap_txns) {
        int cap = hb->cap_txns ? hb->cap_txns * 2 : 4;
        int64_t *t = comb_realloc(hb->txns, (size_t)cap * sizeof *t);
        if (t) {
            hb->txns = t;
            hb->cap_txns = cap;
        } else {
            rc = comb_err_nomem(err);
        }
    }
    if (!rc)
        hb->txns[hb->n_txns++] = txnid;
    pthread_mutex_unlock(&hb->mu);
    return rc;
}

void ms_heartbeater_remove(MsHeartbeater *hb, int64_t txnid)
{
    if (!hb)
        return;
    pthread_mutex_lock(&hb->mu);
    for (int i = 0; i < hb->n_txns; i++) {
        if (hb->txns[i] == txnid) {
            hb->txns[i] = hb->txns[--hb->n_txns];
            break;
        }
    }
    pthread_mutex_unlock(&hb->mu);
}

int64_t ms_heartbeater_rounds(MsHeartbeater *hb)
{
    int64_t n;
    pthread_mutex_lock(&hb->mu);
    n = hb->rounds;
    pthread_mutex_unlock(&hb->mu);
    return n;
}

void ms_heartbeater_kick(MsHeartbeater *hb)
{
    pthread_mutex_lock(&hb->mu);
    hb->kick = true;
    pthread_cond_broadcast(&hb->cv);
    pthread_mutex_unlock(&hb->mu);
}

void ms_heartbeater_stop(MsHeartbeater *hb)
{
    if (!hb)
        return;
    pthread_mutex_lock(&hb->mu);
    hb->stop = true;
    pthread_cond_broadcast(&hb->cv);
    pthread_mutex_unlock(&hb->mu);
    pthread_join(hb->thread, NULL);
    pthread_cond_destroy(&hb->cv);
    pthread_mutex_destroy(&hb->mu);
    ms_close(hb->ms);
    comb_free(hb->txns);
    comb_free(hb);
}
