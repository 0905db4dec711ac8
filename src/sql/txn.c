/*
 * txn.c - explicit transactions: BEGIN (START TRANSACTION) ... COMMIT or
 * ROLLBACK.
 *
 * Between BEGIN and COMMIT every statement runs in one metastore txn.  The
 * first statement that reads or writes opens it and takes its snapshot
 * (sql_txn_begin, then sql_txn_adopt); later statements borrow both
 * (sql_txn_statement_check) and take their locks for it, so they read
 * that snapshot plus the transaction's own writes: the txn is no
 * exception of its own snapshot, so its write ids are valid to it.  Each writer gets the next statement id of the
 * transaction, so several writes of one table (one write id, as Hive's
 * allocateTableWriteIds gives one per txn and table) land in distinct
 * delta_W_W_S / delete_delta_W_W_S directories, and a statement's
 * write-id list hides its own statement ids (sql_txn_own_writes), so it
 * reads what earlier statements wrote but never its own output.
 *
 * COMMIT is one metastore commit (everything visible at once, the
 * write-set check of first-committer-wins included); ROLLBACK, a closing
 * session and a failed COMMIT abort the txn.  As in PostgreSQL a failed
 * statement aborts the transaction at once (its locks go, nothing of it
 * can become visible) and leaves it failed: every further statement but
 * COMMIT and ROLLBACK is refused, and COMMIT rolls back and says so.
 *
 * Refused inside: catalog statements (Hive's 20007, DDL cannot roll
 * back), writes of non-transactional tables (their files are in place at
 * once), a write of a table after INSERT OVERWRITE of it in the same
 * transaction (base_W would hide the later delta_W_W_S), writes in a READ
 * ONLY transaction, and nested BEGIN.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>

#include "common/alloc.h"

/* Hive's ACID_MAX_STMT: 12 bits of the bucket property. */
#define TXN_MAX_STMT 4095

/* ------------------------------------------------------------ messages */

/* How messages name the transaction: Hive's "txnid:N", or that no
 * statement has opened its metastore txn yet. */
static const char *txn_label(const SqlTxn *t, char *buf, size_t n)
{
    if (!t->txnid)
        return "no txnid yet";
    snprintf(buf, n, "txnid:%lld", (long long)t->txnid);
    return buf;
}

static int err_in_txn(CombErr *err, const SqlSession *s, const char *op)
{
    char id[32];
    return comb_err_hive(err, COMB_ETXN, 20007,
                         "[Error 20007]: Operation %s is not allowed in a "
                         "transaction (%s).",
                         op, txn_label(&s->txn, id, sizeof id));
}

static int err_without_txn(CombErr *err, const char *op)
{
    return comb_err_hive(err, COMB_ETXN, 20008,
                         "[Error 20008]: Operation %s is not allowed without "
                         "an active transaction",
                         op);
}

/* Hive's operation name of a statement an explicit transaction refuses,
 * NULL if it may run inside one. */
static const char *refused_operation(const AstStmt *st)
{
    switch (st->kind) {
    case AST_CREATE_DATABASE:
    case AST_DROP_DATABASE:
    case AST_CREATE_TABLE:
    case AST_DROP_TABLE:
    case AST_ALTER_TABLE:
    case AST_TRUNCATE:
    case AST_MSCK:
    case AST_ANALYZE:
    case AST_CREATE_VIEW:
    case AST_DROP_VIEW:
    case AST_ALTER_VIEW:
        return sql_stmt_operation(st);
    default: return NULL;
    }
}

static bool writes_rows(AstStmtKind k)
{
    return k == AST_INSERT || k == AST_MULTI_INSERT || k == AST_UPDATE ||
           k == AST_DELETE || k == AST_LOAD || k == AST_MERGE;
}

static const char *write_name(AstStmtKind k)
{
    switch (k) {
    case AST_UPDATE: return "UPDATE";
    case AST_DELETE: return "DELETE";
    case AST_LOAD: return "LOAD";
    case AST_MERGE: return "MERGE";
    default: return "INSERT";
    }
}

/* ------------------------------------------------------- session state */

static void txn_reset(SqlTxn *t)
{
    if (t->have_snapshot)
        comb_idlist_free(&t->snapshot);
    for (int i = 0; i < t->n_writes; i++) {
        comb_free(t->writes[i].db);
        comb_free(t->writes[i].table);
    }
    comb_free(t->writes);
    for (int i = 0; i < t->n_held; i++) {
        comb_free((char *)t->held[i].db);
        comb_free((char *)t->held[i].table);
        comb_free((char *)t->held[i].partition);
    }
    comb_free(t->held);
    comb_free(t->failure);
    memset(t, 0, sizeof *t);
}

/* Abort the metastore txn (if one was opened and is still ours). */
static void txn_abort(SqlSession *s)
{
    CombErr ignore;
    if (s->txn.txnid && !s->txn.failed) {
        ms_txn_abort(s->ms, s->txn.txnid, &ignore);
        sql_txn_forget(s, s->txn.txnid);
    }
}

void sql_txn_session_end(SqlSession *s)
{
    if (!s->txn.open)
        return;
    txn_abort(s);
    txn_reset(&s->txn);
}

SqlTxnState sql_session_txn_state(const SqlSession *s, int64_t *txnid)
{
    if (txnid)
        *txnid = s->txn.txnid;
    if (!s->txn.open)
        return SQL_TXN_NONE;
    return s->txn.failed ? SQL_TXN_FAILED : SQL_TXN_OPEN;
}

void sql_txn_opening(SqlStmtCtx *c)
{
    /* the first statement of an explicit transaction opens a txn that
     * may write later, even if this statement only reads */
    if (c->s->txn.open)
        c->locks.writes = !c->s->txn.read_only;
}

/* A later statement of the transaction: it runs in the txn (and
 * sql_locks_plan takes its locks for it before it reads). */
static void borrow(SqlStmtCtx *c)
{
    const SqlTxn *t = &c->s->txn;
    c->txnid = t->txnid;
    c->snapshot = t->snapshot;
    c->have_snapshot = true;
    c->explicit_txn = true;
}

/* ------------------------------------------------------------ held locks */

static bool same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Does held lock h make request r unnecessary? */
static bool covers(const MsLockComponent *h, const MsLockComponent *r)
{
    return same_name(h->db, r->db) && same_name(h->table, r->table) &&
           (!h->partition || same_name(h->partition, r->partition)) &&
           (h->table || !r->table) &&
           sql_lock_type_rank(h->type) >= sql_lock_type_rank(r->type);
}

static int hold(SqlTxn *t, const MsLockComponent *r, CombErr *err)
{
    MsLockComponent *h;
    if (t->n_held == t->cap_held) {
        int cap = t->cap_held ? 2 * t->cap_held : 8;
        MsLockComponent *p = comb_realloc(t->held, (size_t)cap * sizeof *p);
        if (!p)
            return comb_err_nomem(err);
        t->held = p;
        t->cap_held = cap;
    }
    h = &t->held[t->n_held];
    *h = (MsLockComponent){comb_strdup(r->db),
                           r->table ? comb_strdup(r->table) : NULL,
                           r->partition ? comb_strdup(r->partition) : NULL,
                           r->type};
    if (!h->db || (r->table && !h->table) || (r->partition && !h->partition)) {
        comb_free((char *)h->db);
        comb_free((char *)h->table);
        comb_free((char *)h->partition);
        return comb_err_nomem(err);
    }
    t->n_held++;
    return COMB_OK;
}

static bool held(const SqlTxn *t, const MsLockComponent *r)
{
    for (int i = 0; i < t->n_held; i++)
        if (covers(&t->held[i], r))
            return true;
    return false;
}

int sql_txn_locks_filter(SqlStmtCtx *c, CombErr *err)
{
    SqlTxn *t = &c->s->txn;
    SqlLockPlan *p = &c->locks;
    int kept = p->n_requested, rc;
    if (!t->open)
        return COMB_OK;
    for (int i = p->n_requested; i < p->n; i++) {
        if (held(t, &p->items[i]))
            continue;
        if ((rc = hold(t, &p->items[i], err)))
            return rc;
        p->items[kept++] = p->items[i];
    }
    p->n = kept;
    return COMB_OK;
}

void sql_txn_adopt(SqlStmtCtx *c)
{
    SqlTxn *t = &c->s->txn;
    CombErr ignore;
    if (!t->open)
        return;
    t->txnid = c->txnid;
    t->snapshot = c->snapshot;
    t->have_snapshot = c->have_snapshot;
    c->explicit_txn = true;
    /* the first statement's locks came with the txn (ms_txn_begin);
     * without memory a later statement asks for them again, which only
     * costs a lock request */
    for (int i = 0; i < c->locks.n_requested; i++)
        if (hold(t, &c->locks.items[i], &ignore))
            break;
}

/* ------------------------------------------------------------ statements */

int sql_txn_statement_check(SqlStmtCtx *c, CombErr *err)
{
    SqlTxn *t = &c->s->txn;
    const AstStmt *st = c->stmt;
    const char *op;
    AstStmtKind k = st->kind;
    if (!t->open || k == AST_TXN_COMMIT || k == AST_TXN_ROLLBACK)
        return COMB_OK;
    if (t->failed)
        return comb_err(err, COMB_ETXN,
                        "current transaction is aborted, commands ignored "
                        "until end of transaction block (ROLLBACK ends it; "
                        "COMMIT rolls it back too)");
    if (k == AST_TXN_BEGIN)
        return err_in_txn(err, c->s, "START TRANSACTION");
    if ((op = refused_operation(st)))
        return err_in_txn(err, c->s, op);
    if (t->read_only && writes_rows(k))
        return comb_err(err, COMB_ETXN,
                        "cannot execute %s in a read-only transaction",
                        write_name(k));
    c->stmt_base = c->stmt_end = t->next_stmt;
    if (t->have_snapshot)
        borrow(c);
    return COMB_OK;
}

void sql_txn_statement_end(SqlStmtCtx *c, int rc, const CombErr *err)
{
    SqlTxn *t = &c->s->txn;
    if (!t->open || t->failed)
        return;
    if (rc == COMB_OK) {
        if (c->stmt_end > t->next_stmt)
            t->next_stmt = c->stmt_end;
        return;
    }
    txn_abort(c->s);
    t->failed = true;
    t->failure = comb_strdup(err->msg);
}

int sql_txn_stmt_id(SqlStmtCtx *c, int local, int *out, CombErr *err)
{
    int id = c->stmt_base + local;
    if (id > TXN_MAX_STMT)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "a transaction writes at most %d statements' "
                        "deltas; COMMIT and go on in a new transaction",
                        TXN_MAX_STMT + 1);
    if (id + 1 > c->stmt_end)
        c->stmt_end = id + 1;
    *out = id;
    return COMB_OK;
}

static SqlTxnWrite *find_write(const SqlTxn *t, const SqlTable *tb)
{
    for (int i = 0; i < t->n_writes; i++)
        if (strcmp(t->writes[i].db, tb->ms->db) == 0 &&
            strcmp(t->writes[i].table, tb->ms->name) == 0)
            return &t->writes[i];
    return NULL;
}

int sql_txn_check_write(SqlStmtCtx *c, const SqlTable *tb, CombErr *err)
{
    const SqlTxn *t = &c->s->txn;
    const SqlTxnWrite *w;
    char id[32];
    if (!t->open)
        return COMB_OK;
    if (tb->kind == SQL_TABLE_PLAIN)
        return comb_err_hive(err, COMB_ETXN, 20007,
                             "[Error 20007]: Operation %s is not allowed in "
                             "a transaction (%s): %s is not transactional, "
                             "so its write could not be rolled back",
                             write_name(c->stmt->kind),
                             txn_label(t, id, sizeof id), tb->qualified);
    w = find_write(t, tb);
    if (w && w->overwritten)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "%s was overwritten (INSERT OVERWRITE) earlier in "
                        "this transaction (%s); it cannot be written again "
                        "before COMMIT",
                        tb->qualified, txn_label(t, id, sizeof id));
    return COMB_OK;
}

int sql_txn_note_write(SqlStmtCtx *c, const SqlTable *tb, int64_t writeid,
                       bool overwrite, CombErr *err)
{
    SqlTxn *t = &c->s->txn;
    SqlTxnWrite *w;
    if (!t->open)
        return COMB_OK;
    if ((w = find_write(t, tb))) {
        w->overwritten |= overwrite;
        return COMB_OK;
    }
    if (t->n_writes == t->cap_writes) {
        int cap = t->cap_writes ? 2 * t->cap_writes : 4;
        SqlTxnWrite *p = comb_realloc(t->writes, (size_t)cap * sizeof *p);
        if (!p)
            return comb_err_nomem(err);
        t->writes = p;
        t->cap_writes = cap;
    }
    w = &t->writes[t->n_writes];
    w->db = comb_strdup(tb->ms->db);
    w->table = comb_strdup(tb->ms->name);
    if (!w->db || !w->table) {
        comb_free(w->db);
        comb_free(w->table);
        return comb_err_nomem(err);
    }
    w->writeid = writeid;
    w->overwritten = overwrite;
    t->n_writes++;
    return COMB_OK;
}

void sql_txn_own_writes(const SqlStmtCtx *c, const SqlTable *tb,
                        CombWriteIdList *wil)
{
    const SqlTxnWrite *w;
    if (!c->s->txn.open || !(w = find_write(&c->s->txn, tb)))
        return;
    wil->own_writeid = w->writeid;
    wil->own_stmt_limit = c->stmt_base;
}

/* ------------------------------------------------ BEGIN, COMMIT, ROLLBACK */

static int txn_begin(SqlStmtCtx *c)
{
    SqlTxn *t = &c->s->txn;
    txn_reset(t);
    t->open = true;
    t->read_only = c->stmt->txn_read_only;
    return COMB_OK;
}

/* COMMIT of a failed transaction: it was aborted when its statement
 * failed; say so, with that statement's error. */
static int commit_failed(SqlSession *s, CombErr *err)
{
    char id[32];
    int rc = comb_err(err, COMB_ETXN,
                      "COMMIT rolled back the transaction (%s) instead: a "
                      "statement in it failed: %s",
                      txn_label(&s->txn, id, sizeof id),
                      s->txn.failure ? s->txn.failure : "(no message)");
    txn_reset(&s->txn);
    return rc;
}

static int txn_commit(SqlStmtCtx *c, CombErr *err)
{
    SqlSession *s = c->s;
    int rc = COMB_OK;
    if (s->txn.failed)
        return commit_failed(s, err);
    if (s->txn.txnid) {
        sql_crash_point(c, "before_commit");
        sql_pause_point(c, "before_commit");
        /* always with the write-set check: the locks of the statements
         * after the first were granted after the snapshot, so they do not
         * keep a concurrent update of the same rows out of it */
        rc = ms_txn_commit(s->ms, s->txn.txnid, err);
        if (rc)
            txn_abort(s); /* a write conflict aborted it already */
        else
            sql_txn_forget(s, s->txn.txnid);
    }
    txn_reset(&s->txn);
    return rc;
}

int sql_exec_txn(SqlStmtCtx *c, CombErr *err)
{
    SqlSession *s = c->s;
    switch (c->stmt->kind) {
    case AST_TXN_BEGIN:
        return txn_begin(c);
    case AST_TXN_COMMIT:
        if (!s->txn.open)
            return err_without_txn(err, "COMMIT");
        return txn_commit(c, err);
    default:
        if (!s->txn.open)
            return err_without_txn(err, "ROLLBACK");
        txn_abort(s);
        txn_reset(&s->txn);
        return COMB_OK;
    }
}
