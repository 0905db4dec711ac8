/*
 * ddl_compact.c - the compaction statements (hive-acid-transactions.md
 * 4.4): ALTER TABLE ... COMPACT [AND WAIT], SHOW COMPACTIONS, ABORT
 * COMPACTIONS.  The queue lives in the metastore (ms_compact_*); the work
 * is compactor/'s.
 *
 * AND WAIT works with or without a `comb compactor` running: the waiting
 * statement claims its own request first and runs it itself
 * (compactor_work_one); when a worker got it first, it waits for the
 * entry to leave initiated/working as Hive's client does (sleeping 2 s,
 * 4 s, ... up to hive.compactor.wait.timeout).  Like Hive, it ends when
 * the compaction is ready for cleaning: the cleaner deletes the old files
 * later, once no reader needs them.
 */
#include "sql/ddl/alter_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "compactor/compactor.h"
#include "sql/exec/exec.h"

/* The compactor settings as this session has them (SET hive.compactor.*). */
static int session_compactor_config(SqlStmtCtx *c, CompactorConfig *cfg,
                                    CombErr *err)
{
    compactor_config_default(cfg);
    for (int i = 0; i < c->s->conf.n; i++) {
        bool used;
        int rc = compactor_config_set(cfg, c->s->conf.items[i].key,
                                      c->s->conf.items[i].value, &used, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int info(SqlStmtCtx *c, CombErr *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int info(SqlStmtCtx *c, CombErr *err, const char *fmt, ...)
{
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return c->sink->info ? c->sink->info(c->sink->ctx, line, err) : COMB_OK;
}

/* WITH OVERWRITE TBLPROPERTIES as CQ_TBLPROPERTIES ("k=v" lines). */
static char *tblprops_text(SqlStmtCtx *c, const AstAlter *a)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    if (a->n_props == 0)
        return NULL;
    for (int i = 0; i < a->n_props; i++)
        comb_buf_printf(&b, "%s%s=%s", i ? "\n" : "", a->props[i].key,
                        a->props[i].value ? a->props[i].value : "");
    out = b.data ? comb_arena_strndup(c->arena, (const char *)b.data, b.len)
                 : NULL;
    comb_buf_free(&b);
    return out;
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------- AND WAIT's progress */

/* The progress bar of AND WAIT, drawn on stderr when it is a terminal
 * (never into the result, never into a file: golden tests and scripts
 * see none of it) and redrawn at most every 200 ms. */
typedef struct WaitBar {
    bool on;
    bool drawn;
    int64_t last_ms;
} WaitBar;

static void bar_draw(void *ctx, int pct, const char *text)
{
    enum { WIDTH = 30 };
    WaitBar *b = ctx;
    char cells[WIDTH + 1];
    int64_t now = compactor_clock_ms();
    int full = pct < 0 ? 0 : pct > 100 ? WIDTH : pct * WIDTH / 100;
    if (!b->on || (b->drawn && pct < 100 && now - b->last_ms < 200))
        return;
    b->last_ms = now;
    b->drawn = true;
    memset(cells, '=', (size_t)full);
    memset(cells + full, ' ', (size_t)(WIDTH - full));
    cells[WIDTH] = 0;
    fprintf(stderr, "\rCompacting [%s] %s\033[K", cells, text);
    fflush(stderr);
}

static void bar_end(WaitBar *b)
{
    if (b->drawn)
        fputs("\n", stderr);
    b->drawn = false;
}

/* The entry's state now, its error and progress; *found false once it is
 * gone (history trimmed). */
static int entry_state(SqlStmtCtx *c, int64_t id, MsCompactState *state,
                       char **error, char **progress, bool *found,
                       CombErr *err)
{
    MsCompaction *rows;
    int n, rc = ms_compact_list(c->s->ms, false, c->arena, &rows, &n, err);
    *found = false;
    for (int i = 0; !rc && i < n; i++)
        if (rows[i].id == id) {
            *state = rows[i].state;
            *error = rows[i].error;
            *progress = rows[i].progress;
            *found = true;
        }
    return rc;
}

/* AND WAIT: run the request here, or wait for the worker that has it. */
static int wait_for(SqlStmtCtx *c, const AlterTarget *tg, const char *part,
                    int64_t id, CombErr *err)
{
    CompactorConfig cfg;
    CompactorRun run;
    char worker[128];
    MsCompactState state = MS_CQ_INITIATED;
    char *error = NULL, *progress = NULL;
    bool found = true;
    int64_t waited = 0, pause = 2000, timeout = 300000;
    const char *v = sql_session_get_conf(c->s, "hive.compactor.wait.timeout");
    WaitBar bar = {isatty(STDERR_FILENO) == 1, false, 0};
    int rc = session_compactor_config(c, &cfg, err);
    if (v)
        timeout = strtoll(v, NULL, 10);
    cfg.on_progress = bar_draw;
    cfg.on_progress_ctx = &bar;
    snprintf(worker, sizeof worker, "%s-%ld.wait", cfg.host, (long)getpid());
    if (!rc)
        rc = compactor_work_one(c->s->ms, &cfg, worker, id, &run, err);
    if (!rc && run.claimed)
        state = run.state;
    while (!rc && !run.claimed && found &&
           (state == MS_CQ_INITIATED || state == MS_CQ_WORKING)) {
        rc = entry_state(c, id, &state, &error, &progress, &found, err);
        if (rc || !found ||
            (state != MS_CQ_INITIATED && state != MS_CQ_WORKING))
            break;
        /* another worker has it: its recorded progress, or Hive's dots */
        bar_draw(&bar, progress ? atoi(progress) : 0,
                 progress ? progress : ms_compact_state_name(state));
        if (waited >= timeout)
            return comb_err(err, COMB_ETXN,
                            "Compaction with id %" PRId64 " did not finish "
                            "within hive.compactor.wait.timeout (%" PRId64
                            " ms); it is still %s", id, timeout,
                            ms_compact_state_name(state));
        sleep_ms(pause);
        waited += pause;
        pause = pause * 2 > 60000 ? 60000 : pause * 2;
    }
    bar_end(&bar);
    if (!rc && run.claimed)
        error = run.error;
    if (rc)
        return rc;
    if (!found)
        state = MS_CQ_SUCCEEDED; /* cleaned and its history trimmed */
    if ((rc = info(c, err, "Compaction with id %" PRId64
                           " finished with status: %s", id,
                   ms_compact_state_name(state))))
        return rc;
    if (state == MS_CQ_REFUSED)
        return comb_err_hive(err, COMB_ETXN, 10432,
                             "Compaction request for %s.%s%s%s%s is refused, "
                             "details: %s.", tg->db, tg->ms->name,
                             part ? " partition(" : "", part ? part : "",
                             part ? ")" : "", error ? error : "");
    if (state == MS_CQ_FAILED || state == MS_CQ_ABORTED)
        return comb_err(err, COMB_ETXN,
                        "Compaction with id %" PRId64 " finished with "
                        "status: %s%s%s", id, ms_compact_state_name(state),
                        error ? ": " : "", error ? error : "");
    return COMB_OK;
}

static int check_request(SqlStmtCtx *c, const AlterTarget *tg,
                         MsCompactType *type, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstAlter *a = st->alter;
    if (!ms_table_is_transactional(tg->ms))
        return sql_err_at(err, COMB_ESEMANTIC, 10286, st->name.pos,
                          "Compaction is not allowed on non-ACID table %s.%s",
                          tg->db, tg->ms->name);
    if (strcasecmp(a->compact_type, "major") == 0)
        *type = MS_CQ_MAJOR;
    else if (strcasecmp(a->compact_type, "minor") == 0)
        *type = MS_CQ_MINOR;
    else
        return sql_err_at(err, COMB_ESEMANTIC, 10282, a->compact_type_pos,
                          "Invalid compaction type, supported values are "
                          "'major' and 'minor'");
    if (tg->t->n_part > 0 && st->part.n == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10283, st->name.pos,
                          "You must specify a partition to compact for "
                          "partitioned tables");
    if (tg->t->n_part > 0 && st->part.n < tg->t->n_part)
        return sql_err_at(err, COMB_ESEMANTIC, 10284, st->part.pos,
                          "Compaction can only be requested on one partition "
                          "at a time.");
    return COMB_OK;
}

int sql_alter_compact(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const AstAlter *a = st->alter;
    char initiator[96];
    MsCompactRequest rq;
    MsCompactType type = MS_CQ_MAJOR;
    MsCompactState state;
    AlterPart *parts = NULL;
    const char *part = NULL;
    bool accepted;
    int64_t id;
    int n, rc = check_request(c, tg, &type, err);
    if (!rc && st->part.n > 0) {
        rc = sql_alter_spec(c, tg, &st->part, true, &parts, &n, err);
        if (!rc && !parts[0].ms)
            rc = sql_err_at(err, COMB_ESEMANTIC, 10214, st->part.pos,
                            "Invalid partition spec specified");
        if (!rc)
            part = parts[0].name;
    }
    if (rc)
        return rc;
    snprintf(initiator, sizeof initiator, "%s-manual",
             c->s->host ? c->s->host : "localhost");
    rq = (MsCompactRequest){tg->db, tg->ms->name, part, type,
                            tblprops_text(c, a), initiator};
    if ((rc = ms_compact_enqueue(c->s->ms, &rq, &accepted, &id, &state, err)))
        return rc;
    if (!accepted)
        return info(c, err,
                    "Compaction already enqueued with id %" PRId64
                    "; State is %s", id, ms_compact_state_name(state));
    if ((rc = info(c, err, "Compaction enqueued with id %" PRId64, id)))
        return rc;
    return a->compact_wait ? wait_for(c, tg, part, id, err) : COMB_OK;
}

/* ------------------------------------------------------ SHOW COMPACTIONS */

#define NO_VAL " --- "

static char *num_or_none(SqlStmtCtx *c, int64_t v)
{
    return v ? comb_arena_printf(c->arena, "%" PRId64, v) : (char *)NO_VAL;
}

/* "<host>-<id>" as Hive splits it: the text after the last '-' is the
 * id. */
static void split_host(SqlStmtCtx *c, const char *s, char **host, char **id)
{
    const char *dash = s ? strrchr(s, '-') : NULL;
    *host = *id = (char *)NO_VAL;
    if (!dash)
        return;
    *host = comb_arena_strndup(c->arena, s, (size_t)(dash - s));
    *id = comb_arena_strdup(c->arena, dash + 1);
}

int sql_exec_show_compactions(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {
        "compactionid", "dbname", "tabname", "partname", "type", "state",
        "workerhost", "workerid", "enqueuetime", "starttime", "duration",
        "hadoopjobid", "errormessage", "initiatorhost", "initiatorid",
        "poolname", "txnid", "nexttxnid", "committime", "hightestwriteid",
        "progress"};
    MsCompaction *rows;
    TextResult tr;
    int n, rc = ms_compact_list(c->s->ms, false, c->arena, &rows, &n, err);
    if (rc)
        return rc;
    if (sql_text_begin(&tr, 21))
        return comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++) {
        const MsCompaction *r = &rows[i];
        const char *vals[21];
        char *whost, *wid, *ihost, *iid;
        split_host(c, r->worker_id, &whost, &wid);
        split_host(c, r->initiator_id, &ihost, &iid);
        vals[0] = num_or_none(c, r->id);
        vals[1] = r->db;
        vals[2] = r->table;
        vals[3] = r->partition ? r->partition : NO_VAL;
        vals[4] = r->type == MS_CQ_MAJOR ? "MAJOR" : "MINOR";
        vals[5] = ms_compact_state_name(r->state);
        vals[6] = whost;
        vals[7] = wid;
        vals[8] = num_or_none(c, r->enqueue_time);
        vals[9] = num_or_none(c, r->start);
        vals[10] = r->end && r->start ? num_or_none(c, r->end - r->start)
                                      : NO_VAL;
        vals[11] = NO_VAL;
        vals[12] = r->error ? r->error : NO_VAL;
        vals[13] = ihost;
        vals[14] = iid;
        vals[15] = "default";
        vals[16] = num_or_none(c, r->txnid);
        vals[17] = num_or_none(c, r->next_txnid);
        vals[18] = num_or_none(c, r->commit_time);
        vals[19] = num_or_none(c, r->highest_writeid);
        vals[20] = r->progress ? r->progress : NO_VAL;
        rc = sql_text_row(&tr, vals, err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

int sql_exec_abort_compactions(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    bool *done = comb_arena_alloc(c->arena, (size_t)st->n_ids + 1);
    int rc;
    if (!done)
        return comb_err_nomem(err);
    if ((rc = ms_compact_abort(c->s->ms, st->ids, st->n_ids, done, err)))
        return rc;
    for (int i = 0; !rc && i < st->n_ids; i++)
        rc = info(c, err, done[i] ? "Successfully aborted compaction %" PRId64
                                  : "Error aborting compaction %" PRId64
                                    ": it is not initiated (only initiated "
                                    "compactions can be aborted)",
                  st->ids[i]);
    return rc;
}

/* ------------------------------------------- SHOW COMPACTION METRICS */

/* Hive's hive.merge.smallfiles.avgsize: a file below it is a small one. */
#define SMALL_FILE_BYTES 16000000

/* The partitions the statement names (all of them without a spec). */
static int metrics_units(SqlStmtCtx *c, const AlterTarget *tg, char ***names,
                         char ***dirs, int *n, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AlterPart *parts = NULL;
    MsPartition *all = NULL;
    int rc;
    *n = 0;
    if (tg->ms->n_part_keys == 0 && st->part.n == 0) {
        *names = comb_arena_alloc(c->arena, sizeof **names);
        *dirs = comb_arena_alloc(c->arena, sizeof **dirs);
        if (!*names || !*dirs)
            return comb_err_nomem(err);
        (*names)[0] = NULL;
        (*dirs)[0] = tg->ms->location;
        *n = 1;
        return COMB_OK;
    }
    rc = st->part.n > 0
             ? sql_alter_spec(c, tg, &st->part, false, &parts, n, err)
             : ms_part_list(c->s->ms, tg->db, tg->ms->name, NULL, 0, c->arena,
                            &all, n, err);
    if (rc)
        return rc;
    *names = comb_arena_alloc(c->arena, (size_t)(*n + 1) * sizeof **names);
    *dirs = comb_arena_alloc(c->arena, (size_t)(*n + 1) * sizeof **dirs);
    if (!*names || !*dirs)
        return comb_err_nomem(err);
    for (int i = 0; i < *n; i++) {
        (*names)[i] = parts ? parts[i].name : all[i].name;
        (*dirs)[i] = parts ? parts[i].ms->location : all[i].location;
    }
    return COMB_OK;
}

static int metrics_row(SqlStmtCtx *c, TextResult *tr, const AlterTarget *tg,
                       const char *part, const AcidDirMetrics *m,
                       CombErr *err)
{
    const int64_t nums[] = {m->n_deltas, m->n_delete_deltas, m->n_files,
                            m->n_small_files, m->bytes, m->n_obsolete,
                            m->n_aborted};
    const char *vals[11];
    vals[0] = tg->db;
    vals[1] = tg->ms->name;
    vals[2] = part ? part : NO_VAL;
    vals[3] = m->has_base ? "true" : "false";
    for (int i = 0; i < 7; i++)
        if (!(vals[4 + i] = comb_arena_printf(c->arena, "%" PRId64, nums[i])))
            return comb_err_nomem(err);
    return sql_text_row(tr, vals, err);
}

/* Per partition, what its writes cost readers until compaction: the
 * deltas and delete deltas a reader merges, the files and the small ones
 * among them (below hive.merge.smallfiles.avgsize), their bytes, and the
 * directories left for the cleaner (obsolete ones, aborted writes); all
 * in this statement's snapshot, as a reader sees the table. */
int sql_exec_show_compaction_metrics(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {
        "dbname", "tabname", "partname", "base", "deltas", "deletedeltas",
        "files", "smallfiles", "bytes", "obsoletedirs", "aborteddirs"};
    const char *v = sql_session_get_conf(c->s, "hive.merge.smallfiles.avgsize");
    int64_t small = v ? strtoll(v, NULL, 10) : SMALL_FILE_BYTES;
    AlterTarget tg;
    CombWriteIdList wil;
    TextResult tr;
    char **names, **dirs;
    int n, rc = sql_alter_target(c, &c->stmt->name, false, &tg, err);
    if (!rc && !ms_table_is_transactional(tg.ms))
        return sql_err_at(err, COMB_ESEMANTIC, 10286, c->stmt->name.pos,
                          "Compaction is not allowed on non-ACID table %s.%s",
                          tg.db, tg.ms->name);
    if (!rc)
        rc = metrics_units(c, &tg, &names, &dirs, &n, err);
    if (rc || (rc = sql_table_writeids(c, tg.t, &wil, err)))
        return rc;
    if (sql_text_begin(&tr, 11)) {
        comb_writeidlist_free(&wil);
        return comb_err_nomem(err);
    }
    for (int i = 0; !rc && i < n; i++) {
        AcidDirMetrics m;
        rc = acid_dir_metrics(dirs[i], &wil, &c->snapshot, NULL, small,
                              c->arena, &m, err);
        if (!rc)
            rc = metrics_row(c, &tr, &tg, names[i], &m, err);
    }
    comb_writeidlist_free(&wil);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}
