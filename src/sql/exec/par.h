/*
 * par.h - parallel execution (comb.exec.threads): the setting, the worker
 * threads one parallel step runs on, the statement context a worker's
 * operators use, and the operator chains that may run as several copies
 * over one scan's morsels.
 *
 * The shape: an aggregation whose input is a chain of projections and
 * filters over one table scan is built as n copies of itself over copies
 * of that chain (lower.c).  The copies' scans share an AcidMorsels, so each
 * stripe (of a text table: each file) is read by exactly one copy; every
 * copy aggregates its rows into groups of its own on its own thread, and
 * the first copy merges the others' partial states (agg.h's merge) and
 * emits the groups in the order one thread would have made them.  A
 * join's build side that is such a chain is built as copies too: each
 * copy stores the rows of its morsels, and the join orders them by
 * morsel into the one table every probe reads.  With
 * comb.exec.threads=1 nothing of this is built: the serial engine runs.
 *
 * Threads share only read-only things (the bound plan, the session's
 * settings, the snapshot); each copy's operators get a context of their
 * own (sql_par_ctx_*): its own arena for what they allocate while
 * running, its own read counters, which join the statement's at the end.
 * The copies are opened and closed on the statement's thread; only `next`
 * runs on the workers.
 */
#ifndef COMB_SQL_EXEC_PAR_H
#define COMB_SQL_EXEC_PAR_H

#include "sql/exec/op.h"

#define SQL_CONF_THREADS "comb.exec.threads"
#define SQL_THREADS_MAX 256

/* comb.exec.threads when unset: the number of online CPUs. */
int sql_threads_default(void);
/* The statement's thread count: the setting, 1 .. SQL_THREADS_MAX
 * (anything else is an error naming the setting). */
int sql_exec_threads(SqlStmtCtx *c, int *n, CombErr *err);

/* Run task(args[i]) for i = 0 .. n-1: args[0] on the calling thread, the
 * others on threads of their own, all joined before it returns (also when
 * one fails).  The first failing task's error (lowest i) is the result. */
typedef int (*SqlParTask)(void *arg, CombErr *err);
int sql_par_run(int n, SqlParTask task, void *const *args, CombErr *err);
/* Threads sql_par_run has started in this process (tests check that a
 * parallel plan really ran on threads). */
uint64_t sql_par_threads_started(void);
/* CPU time of every task sql_par_run has run in this process, and the
 * sum over its runs of the busiest task's (the run's critical path on
 * idle cores): what bench/ estimates the parallel speed-up by on a
 * machine whose cores are shared. */
void sql_par_cpu(uint64_t *tasks_ns, uint64_t *critical_ns);

/* A worker copy's context: made when the copy is built (statement
 * arena), synchronized with the statement's when the copy is opened
 * (transaction and snapshot then taken), ended at close: its read
 * counters added to c's, its arena freed. */
SqlStmtCtx *sql_par_ctx_new(SqlStmtCtx *c);
void sql_par_ctx_sync(SqlStmtCtx *w, const SqlStmtCtx *c);
void sql_par_ctx_end(SqlStmtCtx *w, SqlStmtCtx *c);
/* op and everything under it use context w. */
void sql_op_set_ctx(SqlOp *op, SqlStmtCtx *w);

/* Does e give the same rows when copies of it run over parts of the
 * input as once over all of it (no state carried from batch to batch or
 * kept in the bound node: rand's generator, a compiled pattern's match
 * data, a time zone scope)? */
bool sql_bx_par_safe(const BoundExpr *e);
/* Can copies of op run side by side over one scan's morsels: op is a
 * chain of projections, filters and joins (but FULL) down their probe
 * sides to a table scan, whose expressions are all sql_bx_par_safe?  The
 * joins' build inputs are run once, before the copies. */
bool sql_op_par_safe(const SqlOp *op);
/* The scan at the bottom of such a chain (open): its walk, to share the
 * morsels through. */
AcidMorselWalk *sql_op_par_walk(SqlOp *op);
/* Before the copies run: every join of lead's chain builds its table,
 * and the same join of each copy's chain (copies[k], built as lead was)
 * is told to probe it.  *spilled: a build side outgrew the memory limit
 * (the join then runs by partitions, which copies cannot share). */
int sql_op_par_prepare(SqlOp *lead, bool *spilled, CombErr *err);
void sql_op_par_share(SqlOp *copy, const SqlOp *lead);

/* The copies of one parallel operator as its first copy (the lead)
 * keeps them: the peers, built as the lead was over copies of its input,
 * with their contexts, the morsels all their scans share, and the flag
 * that stops them all when one fails. */
typedef struct SqlParGroup {
    SqlOp **peers;
    SqlStmtCtx **ctx;
    int n;
    bool bare;               /* the peers are copies of the chain itself
                                (a join's build side), not operators over
                                copies of it */
    bool live;               /* opened: contexts to end at close */
    AcidMorsels morsels;
    _Atomic bool stop;
    _Atomic bool over;       /* the copies went over the memory limit */
} SqlParGroup;

int sql_par_group_init(SqlParGroup *g, SqlStmtCtx *c, SqlOp **peers, int n,
                       CombErr *err);
/* At the lead's open, after its input's: every peer opened here with its
 * context synchronized, probing the lead's join builds, and the lead's
 * and the peers' scans sharing the morsels. */
int sql_par_group_open(SqlParGroup *g, SqlOp *lead, CombErr *err);
/* The joins of the lead's chain build their tables, then task runs with
 * the lead on this thread and each peer on a thread of its own
 * (sql_par_run); a task that fails sets stop. */
int sql_par_group_run(SqlParGroup *g, SqlOp *lead, SqlParTask task,
                      CombErr *err);
/* At the lead's close, after its own state: the peers closed, their
 * contexts ended (once). */
void sql_par_group_close(SqlParGroup *g, SqlStmtCtx *c);

/* The same over a chain given: the lead's (lead->input for an
 * aggregation or a sort, a join's probe side for copies of the join),
 * or, sql_par_chains_init, bare copies of a chain (a join's build side,
 * op_join.c), chains[0..n).  open: after the chain's own open.  run: the
 * joins of the chain build their tables, then task(args[0]) runs on this
 * thread, task(args[k]) for copy k - 1 on a thread of its own. */
int sql_par_chains_init(SqlParGroup *g, SqlStmtCtx *c, SqlOp **chains, int n,
                        CombErr *err);
int sql_par_chains_open(SqlParGroup *g, SqlOp *chain, CombErr *err);
int sql_par_chains_run(SqlParGroup *g, SqlOp *chain, SqlParTask task,
                       void *const *args, CombErr *err);

/* Over comb.exec.memory.limit the copies cannot spill (their runs and
 * groups are merged in memory): a copy whose holdings tip the statement
 * over the limit calls sql_par_group_over, which stops them all (also
 * sql_par_group_run when a join's build spilled before they started).
 * The lead, once the run is over and it has freed its own holdings,
 * calls sql_par_group_serial: the peers are closed (what they held
 * released) and its input closed and opened again, to be read whole on
 * this thread, spilling as the serial engine does.  A sort or an
 * aggregation reads all its input before it emits a row, so nothing has
 * been output yet. */
void sql_par_group_over(SqlParGroup *g);
int sql_par_group_serial(SqlParGroup *g, SqlOp *lead, CombErr *err);
int sql_par_chains_serial(SqlParGroup *g, SqlOp *chain, CombErr *err);

#endif
