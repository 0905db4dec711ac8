/*
 * hs2_status.c - what the server's status page tells of its statements:
 * the ones running, and the last HS2_RECENT_QUERIES finished, each with
 * its session's user, its text, when it began and ended, its rows and how
 * it ended.  Its own lock, held for a copy only: a statement running
 * never waits for the page.
 */
#include "server/hs2_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"

struct Hs2Query {
    Hs2QueryRow row;
    struct Hs2Query *prev, *next;   /* the running list */
};

static struct {
    pthread_mutex_t lock;
    Hs2Query *running;
    Hs2QueryRow recent[HS2_RECENT_QUERIES];  /* a ring */
    int n_recent, next_recent;
    int64_t total;                  /* statements begun */
} log_ = {PTHREAD_MUTEX_INITIALIZER, NULL, {{0}}, 0, 0, 0};

int64_t hs2_epoch_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void row_free(Hs2QueryRow *r)
{
    comb_free(r->user);
    comb_free(r->text);
    comb_free(r->error);
    memset(r, 0, sizeof *r);
}

Hs2Query *hs2_query_begin(const char *user, const char *sql)
{
    Hs2Query *q = comb_calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->row.user = comb_strdup(user ? user : "");
    while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '\r')
        sql++;
    q->row.text = comb_strdup(sql);
    q->row.state = "RUNNING";
    q->row.started_ms = hs2_epoch_ms();
    pthread_mutex_lock(&log_.lock);
    q->next = log_.running;
    if (q->next)
        q->next->prev = q;
    log_.running = q;
    log_.total++;
    pthread_mutex_unlock(&log_.lock);
    return q;
}

void hs2_query_end(Hs2Query *q, const char *state, int64_t rows,
                   const char *error)
{
    Hs2QueryRow *slot;
    if (!q)
        return;
    q->row.state = state;
    q->row.rows = rows;
    q->row.ended_ms = hs2_epoch_ms();
    q->row.error = error ? comb_strdup(error) : NULL;
    pthread_mutex_lock(&log_.lock);
    if (q->prev)
        q->prev->next = q->next;
    else
        log_.running = q->next;
    if (q->next)
        q->next->prev = q->prev;
    slot = &log_.recent[log_.next_recent];
    row_free(slot);
    *slot = q->row;
    log_.next_recent = (log_.next_recent + 1) % HS2_RECENT_QUERIES;
    if (log_.n_recent < HS2_RECENT_QUERIES)
        log_.n_recent++;
    pthread_mutex_unlock(&log_.lock);
    comb_free(q);
}

static int copy_row(Hs2QueryRow *to, const Hs2QueryRow *from)
{
    *to = *from;
    to->user = comb_strdup(from->user ? from->user : "");
    to->text = comb_strdup(from->text ? from->text : "");
    to->error = from->error ? comb_strdup(from->error) : NULL;
    return to->user && to->text && (!from->error || to->error) ? COMB_OK
                                                               : COMB_ENOMEM;
}

int hs2_queries_list(Hs2QueryRow **out, int *n, int64_t *total)
{
    int cap, k = 0, rc = COMB_OK;
    Hs2QueryRow *rows;
    pthread_mutex_lock(&log_.lock);
    cap = log_.n_recent + 1;
    for (Hs2Query *q = log_.running; q; q = q->next)
        cap++;
    rows = comb_calloc((size_t)cap, sizeof *rows);
    for (Hs2Query *q = log_.running; rows && !rc && q; q = q->next)
        rc = copy_row(&rows[k++], &q->row);
    /* the finished ones, newest first */
    for (int i = 1; rows && !rc && i <= log_.n_recent; i++)
        rc = copy_row(&rows[k++], &log_.recent[(log_.next_recent -
                                                i + HS2_RECENT_QUERIES) %
                                               HS2_RECENT_QUERIES]);
    *total = log_.total;
    pthread_mutex_unlock(&log_.lock);
    if (!rows || rc) {
        hs2_queries_free(rows, k);
        return COMB_ENOMEM;
    }
    *out = rows;
    *n = k;
    return COMB_OK;
}

void hs2_queries_free(Hs2QueryRow *rows, int n)
{
    for (int i = 0; rows && i < n; i++)
        row_free(&rows[i]);
    comb_free(rows);
}

void hs2_status_stop(void)
{
    pthread_mutex_lock(&log_.lock);
    for (int i = 0; i < HS2_RECENT_QUERIES; i++)
        row_free(&log_.recent[i]);
    log_.n_recent = log_.next_recent = 0;
    pthread_mutex_unlock(&log_.lock);
}
