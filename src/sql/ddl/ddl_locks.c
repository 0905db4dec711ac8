/*
 * ddl_locks.c - the transaction manager's statements: SHOW LOCKS, SHOW
 * TRANSACTIONS and ABORT TRANSACTIONS, with Hive 4's columns and values
 * (ShowLocksOperation, ShowTransactionsOperation).  Hive's CLI writes
 * the column titles as a first row of text; here they are the result's
 * column names, which the shell prints as its header.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>

#include "sql/ddl/ddl_int.h"
#include "sql/exec/exec.h"
#include "sql/plan/plan.h"

static const char *num(SqlStmtCtx *c, int64_t v)
{
    return comb_arena_printf(c->arena, "%lld", (long long)v);
}

static const char *or_null(const char *s)
{
    return s ? s : "NULL";
}

static const char *lock_type_name(MsLockType t)
{
    switch (t) {
    case MS_LOCK_SHARED_READ: return "SHARED_READ";
    case MS_LOCK_SHARED_WRITE: return "SHARED_WRITE";
    case MS_LOCK_EXCL_WRITE: return "EXCL_WRITE";
    case MS_LOCK_EXCLUSIVE: return "EXCLUSIVE";
    }
    return "UNKNOWN";
}

/* The partition name a SHOW LOCKS ... PARTITION (...) spec gives: every
 * key with a value, normalized as INSERT's; the partition need not exist
 * (Hive's getValidatedPartSpec). */
static int spec_name(SqlStmtCtx *c, const SqlTable *t, const AstPartSpec *ps,
                     char **out, CombErr *err)
{
    char **values = comb_arena_calloc(c->arena, ((size_t)t->n_part + 1) *
                                                    sizeof *values);
    int rc;
    if (!values)
        return comb_err_nomem(err);
    if (t->n_part == 0 || ps->n != t->n_part)
        return sql_err_at(err, COMB_ESEMANTIC, 10006, ps->pos,
                          "Partition not found");
    for (int k = 0; k < t->n_part; k++) {
        const AstPartItem *it = NULL;
        for (int i = 0; i < ps->n && !it; i++)
            if (strcmp(ps->items[i].key, t->ms->part_keys[k].name) == 0)
                it = &ps->items[i];
        if (!it || !it->value)
            return sql_err_at(err, COMB_ESEMANTIC, 10006, ps->pos,
                              "Partition not found");
        if ((rc = sql_part_static_value(c, t, k, it, &values[k], err)))
            return rc;
    }
    return ms_part_name_make(t->ms, values, c->arena, out, err);
}

int sql_exec_show_locks(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {
        "Lock ID", "Database", "Table", "Partition", "State", "Blocked By",
        "Type", "Transaction ID", "Last Heartbeat", "Acquired At", "User",
        "Hostname", "Agent Info"};
    const AstStmt *st = c->stmt;
    const char *db = NULL, *table = NULL;
    char *part = NULL;
    MsLockRow *rows = NULL;
    TextResult tr;
    int n = 0, rc = COMB_OK;
    if (st->locks->database) {
        db = st->name.name;
    } else if (st->name.name) {
        db = st->name.db ? st->name.db : c->s->db;
        table = st->name.name;
        if (st->part.n) {
            SqlTable *t;
            if ((rc = sql_catalog_table(c, &st->name, false, &t, err)) ||
                (rc = spec_name(c, t, &st->part, &part, err)))
                return rc;
        }
    }
    if ((rc = ms_lock_list(c->s->ms, db, table, part, c->arena, &rows, &n, err)))
        return rc;
    if (sql_text_begin(&tr, 13))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        const MsLockRow *r = &rows[i];
        const char *vals[13] = {
            comb_arena_printf(c->arena, "%lld.%lld", (long long)r->extid,
                              (long long)r->intid),
            r->db, or_null(r->table), or_null(r->partition),
            r->state == MS_LOCK_ACQUIRED ? "ACQUIRED" : "WAITING",
            r->blocked_by_extid
                ? comb_arena_printf(c->arena, "%lld.%lld",
                                    (long long)r->blocked_by_extid,
                                    (long long)r->blocked_by_intid)
                : "            ",
            lock_type_name(r->type),
            r->txnid ? num(c, r->txnid) : "NULL",
            num(c, r->last_heartbeat),
            r->acquired_at ? num(c, r->acquired_at) : "NULL",
            or_null(r->user), or_null(r->host), or_null(r->agent_info)};
        rc = sql_text_row(&tr, vals, err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

int sql_exec_show_transactions(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {
        "Transaction ID", "Transaction State", "Started Time",
        "Last Heartbeat Time", "User", "Hostname"};
    MsTxnInfo *rows = NULL;
    TextResult tr;
    int n = 0, rc = COMB_OK;
    if ((rc = ms_txn_list(c->s->ms, c->arena, &rows, &n, err)))
        return rc;
    if (sql_text_begin(&tr, 6))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        const MsTxnInfo *r = &rows[i];
        const char *vals[6] = {
            num(c, r->txnid), r->state == MS_TXN_OPEN ? "OPEN" : "ABORTED",
            num(c, r->started), num(c, r->last_heartbeat), or_null(r->user),
            or_null(r->host)};
        rc = sql_text_row(&tr, vals, err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

/* ABORT TRANSACTIONS: every id is checked first (an unknown or committed
 * one fails the statement, which then aborts none); open ones are
 * aborted with Hive's reason "abort by query command", aborted ones are
 * left as they are. */
int sql_exec_abort_transactions(SqlStmtCtx *c, CombErr *err)
{
    const AstLocks *l = c->stmt->locks;
    int rc;
    for (int i = 0; i < l->n_ids; i++) {
        MsTxnState state;
        if ((rc = ms_txn_state(c->s->ms, l->ids[i], &state, err)) == COMB_ENOTFOUND)
            return comb_err(err, COMB_ENOTFOUND, "No such transaction txnid:%lld",
                            (long long)l->ids[i]);
        if (rc)
            return rc;
        if (state == MS_TXN_COMMITTED)
            return comb_err(err, COMB_ETXN,
                            "Transaction txnid:%lld is already committed.",
                            (long long)l->ids[i]);
    }
    for (int i = 0; i < l->n_ids; i++)
        if ((rc = ms_txn_abort_reason(c->s->ms, l->ids[i], MS_ABORT_BY_QUERY, err)))
            return rc;
    return COMB_OK;
}
