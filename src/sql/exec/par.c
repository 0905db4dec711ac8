/*
 * par.c - parallel execution's pieces (par.h): the thread setting, running
 * a step's tasks on threads, worker contexts, and which operator chains
 * can be copied.
 */
#include "sql/exec/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"

int sql_threads_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > SQL_THREADS_MAX ? SQL_THREADS_MAX : (int)n;
}

int sql_exec_threads(SqlStmtCtx *c, int *n, CombErr *err)
{
    const char *v = sql_session_get_conf(c->s, SQL_CONF_THREADS);
    char *end;
    long k;
    if (!v || !*v) {
        *n = sql_threads_default();
        return COMB_OK;
    }
    k = strtol(v, &end, 10);
    if (*end || k < 1 || k > SQL_THREADS_MAX)
        return comb_err(err, COMB_EINVALID, "%s must be a whole number from 1 "
                        "to %d, not '%s'", SQL_CONF_THREADS, SQL_THREADS_MAX, v);
    *n = (int)k;
    return COMB_OK;
}

typedef struct ParSlot {
    SqlParTask task;
    void *arg;
    int rc;
    CombErr err;
    pthread_t thread;
    bool started;
    uint64_t cpu_ns;
} ParSlot;

static _Atomic uint64_t threads_started, task_cpu_ns, critical_cpu_ns;

uint64_t sql_par_threads_started(void)
{
    return atomic_load(&threads_started);
}

void sql_par_cpu(uint64_t *tasks_ns, uint64_t *critical_ns)
{
    *tasks_ns = atomic_load(&task_cpu_ns);
    *critical_ns = atomic_load(&critical_cpu_ns);
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *par_main(void *p)
{
    ParSlot *s = p;
    uint64_t t0 = thread_cpu_ns();
    s->rc = s->task(s->arg, &s->err);
    s->cpu_ns += thread_cpu_ns() - t0;
    return NULL;
}

int sql_par_run(int n, SqlParTask task, void *const *args, CombErr *err)
{
    ParSlot *slots = comb_calloc((size_t)n, sizeof *slots);
    int rc = COMB_OK;
    if (!slots)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        slots[i].task = task;
        slots[i].arg = args[i];
    }
    /* a thread that cannot be started leaves its task to the caller's
     * thread: fewer threads, the same result */
    for (int i = 1; i < n; i++)
        if ((slots[i].started = pthread_create(&slots[i].thread, NULL, par_main,
                                               &slots[i]) == 0))
            atomic_fetch_add(&threads_started, 1);
    par_main(&slots[0]);
    for (int i = 1; i < n; i++) {
        if (slots[i].started)
            pthread_join(slots[i].thread, NULL);
        else
            par_main(&slots[i]);
    }
    uint64_t sum = 0, max = 0;
    for (int i = 0; i < n; i++) {
        sum += slots[i].cpu_ns;
        max = slots[i].cpu_ns > max ? slots[i].cpu_ns : max;
    }
    atomic_fetch_add(&task_cpu_ns, sum);
    atomic_fetch_add(&critical_cpu_ns, max);
    for (int i = 0; i < n && !rc; i++)
        if ((rc = slots[i].rc) && err)
            *err = slots[i].err;
    comb_free(slots);
    return rc;
}

SqlStmtCtx *sql_par_ctx_new(SqlStmtCtx *c)
{
    SqlStmtCtx *w = comb_arena_alloc(c->arena, sizeof *w);
    CombArena *a = comb_arena_alloc(c->arena, sizeof *a);
    if (!w || !a)
        return NULL;
    *w = *c;
    comb_arena_init(a, 16 * 1024);
    w->arena = a;
    w->par_copy = true;
    memset(&w->scan_counters, 0, sizeof w->scan_counters);
    return w;
}

void sql_par_ctx_sync(SqlStmtCtx *w, const SqlStmtCtx *c)
{
    CombArena *a = w->arena;
    *w = *c;
    w->arena = a;
    w->par_copy = true;
    memset(&w->scan_counters, 0, sizeof w->scan_counters);
}

void sql_par_ctx_end(SqlStmtCtx *w, SqlStmtCtx *c)
{
    orc_read_counters_add(&c->scan_counters, &w->scan_counters);
    memset(&w->scan_counters, 0, sizeof w->scan_counters);
    comb_arena_free(w->arena);
}

void sql_op_set_ctx(SqlOp *op, SqlStmtCtx *w)
{
    if (!op)
        return;
    op->c = w;
    sql_op_set_ctx(op->input, w);
    sql_op_set_ctx(op->right, w);
    for (int i = 0; i < op->n_more; i++)
        sql_op_set_ctx(op->more[i], w);
}

bool sql_bx_par_safe(const BoundExpr *e)
{
    if (!e)
        return true;
    if (e->kind == BX_FUNC && (e->state || strcmp(e->fname, "rand") == 0))
        return false;
    if (!sql_bx_par_safe(e->a) || !sql_bx_par_safe(e->b) || !sql_bx_par_safe(e->c))
        return false;
    for (int i = 0; i < e->n_args; i++)
        if (!sql_bx_par_safe(e->args[i]))
            return false;
    return true;
}

/* The next operator down a parallel chain: a join's probe side, else the
 * input. */
static SqlOp *chain_next(const SqlOp *op)
{
    SqlOp *probe = sql_op_join_probe(op);
    return probe ? probe : op->input;
}

bool sql_op_par_safe(const SqlOp *op)
{
    for (; op; op = chain_next(op)) {
        BoundExpr *const *exprs;
        int n;
        if (sql_op_join_probe(op)) {
            if (!sql_op_join_par_safe(op))
                return false;
            continue;
        }
        if ((n = sql_op_exprs(op, &exprs)) < 0 || op->right || op->n_more)
            return false;
        for (int i = 0; i < n; i++)
            if (!sql_bx_par_safe(exprs[i]))
                return false;
        if (!op->input)
            return sql_op_is_scan(op);
    }
    return false;
}

AcidMorselWalk *sql_op_par_walk(SqlOp *op)
{
    while (chain_next(op))
        op = chain_next(op);
    return sql_op_scan_walk(op);
}

int sql_op_par_prepare(SqlOp *lead, bool *spilled, CombErr *err)
{
    *spilled = false;
    for (; lead && !*spilled; lead = chain_next(lead)) {
        int rc;
        if (sql_op_join_probe(lead) && (rc = sql_op_join_prebuild(lead, spilled, err)))
            return rc;
    }
    return COMB_OK;
}

void sql_op_par_share(SqlOp *copy, const SqlOp *lead)
{
    for (; copy && lead; copy = chain_next(copy), lead = chain_next(lead))
        if (sql_op_join_probe(lead))
            sql_op_join_share(copy, lead);
}

int sql_par_group_init(SqlParGroup *g, SqlStmtCtx *c, SqlOp **peers, int n,
                       CombErr *err)
{
    if (!(g->peers = comb_arena_alloc(c->arena, (size_t)n * sizeof *g->peers)) ||
        !(g->ctx = comb_arena_alloc(c->arena, (size_t)n * sizeof *g->ctx)))
        return comb_err_nomem(err);
    for (int k = 0; k < n; k++) {
        g->peers[k] = peers[k];
        if (!(g->ctx[k] = sql_par_ctx_new(c)))
            return comb_err_nomem(err);
        g->n = k + 1;
    }
    return COMB_OK;
}

int sql_par_chains_init(SqlParGroup *g, SqlStmtCtx *c, SqlOp **chains, int n,
                        CombErr *err)
{
    g->bare = true;
    return sql_par_group_init(g, c, chains, n, err);
}

/* The chain copy k runs: the peer itself, or the next down from it (a
 * join's probe side). */
static SqlOp *peer_chain(const SqlParGroup *g, int k)
{
    return g->bare ? g->peers[k] : chain_next(g->peers[k]);
}

static int share_morsels(SqlParGroup *g, SqlOp *chain, CombErr *err)
{
    AcidMorselWalk *w = sql_op_par_walk(chain);
    if (!w)
        return COMB_INTERNAL(err, "a parallel operator's input has no scan");
    w->shared = &g->morsels;
    return COMB_OK;
}

int sql_par_chains_open(SqlParGroup *g, SqlOp *chain, CombErr *err)
{
    int rc;
    atomic_store(&g->stop, false);
    atomic_store(&g->over, false);
    atomic_store(&g->morsels.next, 0);
    g->live = true;
    if ((rc = share_morsels(g, chain, err)))
        return rc;
    for (int k = 0; k < g->n; k++) {
        sql_par_ctx_sync(g->ctx[k], chain->c);
        sql_op_set_ctx(g->peers[k], g->ctx[k]);
        sql_op_par_share(peer_chain(g, k), chain);
        if ((rc = sql_op_open(g->peers[k], err)) ||
            (rc = share_morsels(g, peer_chain(g, k), err)))
            return rc;
    }
    return COMB_OK;
}

int sql_par_group_open(SqlParGroup *g, SqlOp *lead, CombErr *err)
{
    return sql_par_chains_open(g, lead->input, err);
}

typedef struct GroupTask {
    SqlParGroup *g;
    SqlParTask task;
    void *arg;
} GroupTask;

static int group_task(void *arg, CombErr *err)
{
    GroupTask *t = arg;
    int rc = t->task(t->arg, err);
    if (rc)
        atomic_store(&t->g->stop, true);
    return rc;
}

int sql_par_chains_run(SqlParGroup *g, SqlOp *chain, SqlParTask task,
                       void *const *args, CombErr *err)
{
    GroupTask *tasks = comb_malloc((size_t)(g->n + 1) * sizeof *tasks);
    void **targs = comb_malloc((size_t)(g->n + 1) * sizeof *targs);
    bool spilled = false;
    int rc = tasks && targs ? sql_op_par_prepare(chain, &spilled, err)
                            : comb_err_nomem(err);
    if (spilled)
        atomic_store(&g->over, true);
    for (int k = 0; !rc && !spilled && k <= g->n; k++) {
        tasks[k] = (GroupTask){g, task, args[k]};
        targs[k] = &tasks[k];
    }
    if (!rc && !spilled)
        rc = sql_par_run(g->n + 1, group_task, targs, err);
    comb_free(tasks);
    comb_free(targs);
    return rc;
}

int sql_par_group_run(SqlParGroup *g, SqlOp *lead, SqlParTask task,
                      CombErr *err)
{
    void **args = comb_malloc((size_t)(g->n + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    args[0] = lead;
    for (int k = 0; k < g->n; k++)
        args[k + 1] = g->peers[k];
    rc = sql_par_chains_run(g, lead->input, task, args, err);
    comb_free(args);
    return rc;
}

void sql_par_group_close(SqlParGroup *g, SqlStmtCtx *c)
{
    for (int k = 0; g->live && k < g->n; k++) {
        sql_op_close(g->peers[k]);
        sql_par_ctx_end(g->ctx[k], c);
    }
    g->live = false;
}

void sql_par_group_over(SqlParGroup *g)
{
    atomic_store(&g->over, true);
    atomic_store(&g->stop, true);
}

int sql_par_chains_serial(SqlParGroup *g, SqlOp *chain, CombErr *err)
{
    /* the peers first: their joins probe tables the lead's chain owns */
    sql_par_group_close(g, chain->c);
    sql_op_close(chain);
    /* a scan opens afresh, sharing no morsels */
    return sql_op_open(chain, err);
}

int sql_par_group_serial(SqlParGroup *g, SqlOp *lead, CombErr *err)
{
    return sql_par_chains_serial(g, lead->input, err);
}
