/* The heartbeat thread (run under ThreadSanitizer by make test, see
 * tests/run.sh): it beats the txns added to it and no others, runs the
 * housekeeper, takes new settings while running, and stops cleanly with
 * txns being added and removed from another thread meanwhile. */
#include "ms_fixture.h"

#include <pthread.h>
#include <time.h>

/* Kick the thread until a round that started after this call has
 * completed: two rounds, as the first to complete may have been under way
 * already, with the settings of before (no time limit asserted: a round
 * only needs the metastore). */
static void one_round(MsHeartbeater *hb)
{
    int64_t start = ms_heartbeater_rounds(hb);
    struct timespec ms = {0, 1000000};
    for (int64_t want = start + 1; want <= start + 2; want++) {
        ms_heartbeater_kick(hb);
        while (ms_heartbeater_rounds(hb) < want)
            nanosleep(&ms, NULL);
    }
}

static long long beats(const Fx *fx, int64_t txnid)
{
    char sql[100];
    snprintf(sql, sizeof sql,
             "SELECT TXN_HEARTBEAT_COUNT FROM TXNS WHERE TXN_ID = %lld",
             (long long)txnid);
    return fx_sql_int(fx, sql);
}

MS_TEST(ms_heartbeater_beats_its_txns)
{
    Fx fx;
    Ms *ms = NULL, *own = NULL;
    MsHeartbeater *hb = NULL;
    CombErr err;
    int64_t mine, other;
    long long before;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_reopen(&fx, NULL, &own, &err), &err);
    CHECK_OK(ms_heartbeater_start(own, &hb, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &mine, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &other, &err), &err);
    CHECK_OK(ms_heartbeater_add(hb, mine, &err), &err);
    one_round(hb);
    one_round(hb);
    CHECK(beats(&fx, mine) >= 2);
    CHECK_EQ(beats(&fx, other), 0);
    ms_heartbeater_remove(hb, mine);
    one_round(hb);
    before = beats(&fx, mine);
    one_round(hb);
    CHECK_EQ(beats(&fx, mine), before);
    ms_heartbeater_stop(hb);
    ms_close(ms);
}

/* Aborted, or already cleaned away (it wrote nothing)? */
static bool reaped(Ms *ms, int64_t txnid)
{
    CombErr err;
    MsTxnState st = MS_TXN_OPEN;
    return ms_txn_state(ms, txnid, &st, &err) == COMB_ENOTFOUND ||
           st == MS_TXN_ABORTED;
}

/* With a time-out of 1 ms and housekeeping due every 1 ms, the thread's
 * housekeeping aborts the silent txn.  Housekeeping is due 1 ms after the
 * last run, and a round under way before the settings changed may have
 * run it within that millisecond: so rounds go on, 2 ms apart, until the
 * txn is gone, for at most 5 s (hundreds of rounds under any load). */
MS_TEST(ms_heartbeater_reaps)
{
    Fx fx;
    Ms *ms = NULL, *own = NULL;
    MsHeartbeater *hb = NULL;
    CombErr err;
    int64_t silent;
    struct timespec ms2 = {0, 2000000};
    int rounds = 0;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_reopen(&fx, NULL, &own, &err), &err);
    CHECK_OK(ms_heartbeater_start(own, &hb, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &silent, &err), &err);
    nanosleep(&ms2, NULL);
    ms_heartbeater_configure(hb, 1, 1);
    do {
        nanosleep(&ms2, NULL);
        one_round(hb);
    } while (!reaped(ms, silent) && ++rounds < 2500);
    CHECK(reaped(ms, silent));
    ms_heartbeater_stop(hb);
    ms_close(ms);
}

typedef struct Churn {
    MsHeartbeater *hb;
    int64_t first;
} Churn;

static void *churn_main(void *arg)
{
    Churn *c = arg;
    CombErr err;
    for (int i = 0; i < 200; i++) {
        ms_heartbeater_add(c->hb, c->first + i, &err);
        if (i % 3 == 0)
            ms_heartbeater_configure(c->hb, 1000 + i, 500 + i);
        if (i >= 5)
            ms_heartbeater_remove(c->hb, c->first + i - 5);
    }
    return NULL;
}

/* Two threads adding, removing and reconfiguring while the heartbeater
 * runs rounds: no race (TSan), and stop joins it. */
MS_TEST(ms_heartbeater_concurrent_use)
{
    Fx fx;
    Ms *ms = NULL, *own = NULL;
    MsHeartbeater *hb = NULL;
    CombErr err;
    pthread_t t[2];
    Churn c[2];
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_reopen(&fx, NULL, &own, &err), &err);
    CHECK_OK(ms_heartbeater_start(own, &hb, &err), &err);
    for (int i = 0; i < 2; i++) {
        c[i] = (Churn){hb, 1 + 1000 * i};
        pthread_create(&t[i], NULL, churn_main, &c[i]);
    }
    for (int i = 0; i < 20; i++)
        ms_heartbeater_kick(hb);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    one_round(hb);
    ms_heartbeater_stop(hb);
    ms_close(ms);
}
