/*
 * hms_txn.c - the transaction and lock calls, on comb's transaction
 * manager (ms_txn_*, ms_writeid_*, ms_lock_*), with Hive's exceptions and
 * texts: a txn that is not open is "No such transaction txnid:<t>"
 * (NoSuchTxnException), "Transaction txnid:<t> is already committed."
 * (NoSuchTxnException) or "Transaction txnid:<t> already aborted"
 * (TxnAbortedException), as Hive's TxnHandler raises them.
 */
#include "hms/hms_int.h"

#include <stdio.h>
#include <string.h>

#include "common/alloc.h"

/* Hive's hive.txn.max.open.batch: the most txns one open_txns opens. */
#define MAX_OPEN_BATCH 1000
/* The widest heartbeat_txn_range served (a bound on one call's work). */
#define MAX_HEARTBEAT_RANGE 100000

/* Why txnid is not open, as the exception Hive raises: *aborted says
 * which kind (TxnAbortedException, else NoSuchTxnException); msg gets
 * the text. */
static void txn_not_open(Ms *ms, int64_t txnid, bool *aborted, char *msg,
                         size_t n)
{
    MsTxnState st;
    CombErr err;
    long long t = (long long)txnid;
    int rc = txnid > 0 ? ms_txn_state(ms, txnid, &st, &err) : COMB_ENOTFOUND;
    *aborted = !rc && st == MS_TXN_ABORTED;
    if (*aborted)
        snprintf(msg, n, "Transaction txnid:%lld already aborted", t);
    else if (!rc && st == MS_TXN_COMMITTED)
        snprintf(msg, n, "Transaction txnid:%lld is already committed.", t);
    else
        snprintf(msg, n, "No such transaction txnid:%lld", t);
}

/* Hive's exceptions with a message: the generated property sets it (and
 * its isset flag). */
#define HMS_EXCEPTION(type, msg) g_object_new((type), "message", (msg), NULL)

/* The exception for a call on txnid that failed because the txn is not
 * open: msg (the manager's own text, e.g. a write conflict's) when
 * given, else Hive's text for its state. */
static void txn_exception(Ms *ms, int64_t txnid, const char *msg,
                          HmsNoSuchTxnException **none,
                          HmsTxnAbortedException **aborted)
{
    char text[COMB_ERR_MSG_MAX];
    bool is_aborted;
    txn_not_open(ms, txnid, &is_aborted, text, sizeof text);
    if (is_aborted && aborted)
        *aborted = HMS_EXCEPTION(HMS_TYPE_TXN_ABORTED_EXCEPTION,
                                 msg ? msg : text);
    else
        *none = HMS_EXCEPTION(HMS_TYPE_NO_SUCH_TXN_EXCEPTION,
                              is_aborted || !msg ? text : msg);
}

/* Java's BitSet.toByteArray of the aborted flags: bit i of byte i / 8. */
static GByteArray *aborted_bits(const CombIdList *l)
{
    GByteArray *b = g_byte_array_new();
    int last = -1;
    for (int i = 0; i < l->n_exceptions; i++)
        if (l->aborted[i])
            last = i;
    g_byte_array_set_size(b, (guint)(last / 8 + 1));
    memset(b->data, 0, b->len);
    for (int i = 0; i <= last; i++)
        if (l->aborted[i])
            b->data[i / 8] |= (guint8)(1u << (i % 8));
    return b;
}

static gboolean get_open_txns(HmsThriftHiveMetastoreIf *iface,
                              HmsGetOpenTxnsResponse **ret, GError **error)
{
    CombErr err;
    CombTxnList l = {0};
    Ms *ms = hms_handler_ms(iface, &err);
    HmsGetOpenTxnsResponse *r = *ret;
    if (!ms || ms_txn_snapshot(ms, 0, &l, &err))
        return hms_fail(error, &err);
    r->txn_high_water_mark = l.hwm;
    g_array_append_vals(r->open_txns, l.exceptions, (guint)l.n_exceptions);
    if (l.min_open != COMB_NO_OPEN_ID) {
        r->min_open_txn = l.min_open;
        r->__isset_min_open_txn = TRUE;
    }
    if (r->abortedBits)
        g_byte_array_unref(r->abortedBits);
    r->abortedBits = aborted_bits(&l);
    comb_idlist_free(&l);
    return TRUE;
}

static gboolean open_txns(HmsThriftHiveMetastoreIf *iface,
                          HmsOpenTxnsResponse **ret, const HmsOpenTxnRequest *rq,
                          GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    if (!ms)
        return hms_fail(error, &err);
    if (rq->num_txns <= 0) {
        comb_err(&err, COMB_EINVALID, "Invalid input for number of txns: %d",
                 rq->num_txns);
        return hms_fail(error, &err);
    }
    /* more than a batch opens a batch, as Hive's TxnHandler does (the
     * client learns how many from the ids) */
    int n = rq->num_txns < MAX_OPEN_BATCH ? rq->num_txns : MAX_OPEN_BATCH;
    for (int i = 0; i < n; i++) {
        int64_t id;
        if (ms_txn_open(ms, rq->user ? rq->user : "", rq->hostname ? rq->hostname : "",
                        &id, &err))
            return hms_fail(error, &err);
        g_array_append_val((*ret)->txn_ids, id);
    }
    return TRUE;
}

static gboolean abort_txn(HmsThriftHiveMetastoreIf *iface,
                          const HmsAbortTxnRequest *rq,
                          HmsNoSuchTxnException **o1, GError **error)
{
    CombErr err;
    MsTxnState st;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc;
    if (!ms)
        return hms_fail(error, &err);
    rc = rq->txnid > 0 ? ms_txn_state(ms, rq->txnid, &st, &err) : COMB_ENOTFOUND;
    if (rc == COMB_ENOTFOUND || (!rc && st == MS_TXN_COMMITTED)) {
        txn_exception(ms, rq->txnid, NULL, o1, NULL);
        return FALSE;
    }
    /* aborting an aborted txn does nothing, as in Hive */
    if (rc || (st == MS_TXN_OPEN &&
               ms_txn_abort_reason(ms, rq->txnid, MS_ABORT_BY_QUERY, &err)))
        return hms_fail(error, &err);
    return TRUE;
}

/* The reason of the manager's write-conflict abort ("Aborting [txnid:N,C]
 * due to a write conflict on ..."): Hive's TxnAbortedException carries
 * that alone; the "[Error 10263]: ..." before it is what Hive's driver
 * adds for its own client. */
static const char *conflict_reason(const char *msg)
{
    const char *r = strstr(msg, "Reason: ");
    return r ? r + strlen("Reason: ") : msg;
}

static gboolean commit_txn(HmsThriftHiveMetastoreIf *iface,
                           const HmsCommitTxnRequest *rq,
                           HmsNoSuchTxnException **o1,
                           HmsTxnAbortedException **o2, GError **error)
{
    CombErr err;
    MsTxnState st;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc;
    if (!ms)
        return hms_fail(error, &err);
    if (rq->txnid <= 0) {
        txn_exception(ms, rq->txnid, NULL, o1, o2);
        return FALSE;
    }
    /* a txn aborted before: Hive's text; one the commit aborts (a write
     * conflict): the manager's, which says why */
    rc = ms_txn_state(ms, rq->txnid, &st, &err);
    if (rc == COMB_ENOTFOUND || (!rc && st == MS_TXN_ABORTED)) {
        txn_exception(ms, rq->txnid, NULL, o1, o2);
        return FALSE;
    }
    if (!rc)
        rc = ms_txn_commit(ms, rq->txnid, &err);
    if (rc == COMB_ETXN) {
        txn_exception(ms, rq->txnid, conflict_reason(err.msg), o1, o2);
        return FALSE;
    }
    return rc ? hms_fail(error, &err) : TRUE;
}

/* "db.table" split at its first dot into db and table (lower case is
 * the metastore's business). */
static bool split_name(const char *full, char *db, char *table, size_t n)
{
    const char *dot = full ? strchr(full, '.') : NULL;
    if (!dot || dot == full || !dot[1] || (size_t)(dot - full) >= n ||
        strlen(dot + 1) >= n)
        return false;
    memcpy(db, full, (size_t)(dot - full));
    db[dot - full] = '\0';
    strcpy(table, dot + 1);
    return true;
}

/* One table's write ids under snapshot txns, as TableValidWriteIds. */
static int table_write_ids(Ms *ms, const CombTxnList *txns, const char *full,
                           HmsTableValidWriteIds **out, CombErr *err)
{
    char db[256], table[256];
    CombWriteIdList w = {0};
    HmsTableValidWriteIds *t;
    if (!split_name(full, db, table, sizeof db))
        return comb_err(err, COMB_EINVALID,
                        "Invalid table name '%s': expected <db_name>.<table_name>",
                        full ? full : "");
    int rc = ms_writeid_list(ms, txns, db, table, &w, err);
    if (rc)
        return rc;
    t = g_object_new(HMS_TYPE_TABLE_VALID_WRITE_IDS, NULL);
    t->fullTableName = g_strdup(full);
    t->writeIdHighWaterMark = w.ids.hwm;
    g_array_append_vals(t->invalidWriteIds, w.ids.exceptions,
                        (guint)w.ids.n_exceptions);
    if (w.ids.min_open != COMB_NO_OPEN_ID) {
        t->minOpenWriteId = w.ids.min_open;
        t->__isset_minOpenWriteId = TRUE;
    }
    if (t->abortedBits)
        g_byte_array_unref(t->abortedBits);
    t->abortedBits = aborted_bits(&w.ids);
    comb_writeidlist_free(&w);
    *out = t;
    return COMB_OK;
}

static gboolean get_valid_write_ids(HmsThriftHiveMetastoreIf *iface,
                                    HmsGetValidWriteIdsResponse **ret,
                                    const HmsGetValidWriteIdsRequest *rq,
                                    HmsNoSuchTxnException **o1,
                                    HmsMetaException **o2, GError **error)
{
    CombErr err;
    CombTxnList txns = {0};
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = ms ? comb_txnlist_parse(rq->validTxnList ? rq->validTxnList : "",
                                     &txns, &err)
                : COMB_EMETASTORE;
    (void)o1;
    (void)error;
    for (guint i = 0; !rc && i < rq->fullTableNames->len; i++) {
        HmsTableValidWriteIds *t = NULL;
        rc = table_write_ids(ms, &txns, g_ptr_array_index(rq->fullTableNames, i),
                             &t, &err);
        if (!rc)
            g_ptr_array_add((*ret)->tblValidWriteIds, t);
    }
    comb_idlist_free(&txns);
    if (rc)
        *o2 = hms_meta_exception(&err);
    return rc == COMB_OK;
}

/* Hive 4's answer when a txn of the request is not open: its
 * AllocateTableWriteIdsFunction raises an IllegalStateException, which
 * no declared exception carries (a TApplicationException). */
static int not_all_open(const HmsAllocateTableWriteIdsRequest *rq,
                        CombErr *err)
{
    char *db = g_ascii_strdown(rq->dbName ? rq->dbName : "", -1);
    char *table = g_ascii_strdown(rq->tableName ? rq->tableName : "", -1);
    comb_err(err, COMB_ETXN, "Write ID allocation failed on %s.%s as not all "
             "input txns in open state or read-only", db, table);
    g_free(db);
    g_free(table);
    return COMB_ETXN;
}

static gboolean allocate_table_write_ids(HmsThriftHiveMetastoreIf *iface,
                                         HmsAllocateTableWriteIdsResponse **ret,
                                         const HmsAllocateTableWriteIdsRequest *rq,
                                         HmsNoSuchTxnException **o1,
                                         HmsTxnAbortedException **o2,
                                         HmsMetaException **o3, GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    int n = rq->txnIds ? (int)rq->txnIds->len : 0;
    int64_t *ids = n ? comb_calloc((size_t)n, sizeof *ids) : NULL;
    int rc = !ms ? COMB_EMETASTORE : n && !ids ? comb_err_nomem(&err) : COMB_OK;
    (void)o1;
    (void)o2;
    if (!rc && n == 0)
        rc = comb_err(&err, COMB_EINVALID, "Invalid input for the "
                      "AllocateTableWriteIdsRequest: no txnIds (comb serves no "
                      "replication)");
    if (!rc)
        rc = ms_writeid_allocate_batch(ms, (const int64_t *)rq->txnIds->data, n,
                                       rq->dbName ? rq->dbName : "",
                                       rq->tableName ? rq->tableName : "",
                                       ids, &err);
    for (int i = 0; !rc && i < n; i++) {
        HmsTxnToWriteId *m = g_object_new(HMS_TYPE_TXN_TO_WRITE_ID, NULL);
        m->txnId = g_array_index(rq->txnIds, gint64, i);
        m->writeId = ids[i];
        g_ptr_array_add((*ret)->txnToWriteIds, m);
    }
    comb_free(ids);
    if (rc == COMB_ETXN)
        return hms_fail(error, (not_all_open(rq, &err), &err));
    if (rc == COMB_EINVALID)
        return hms_fail(error, &err);
    if (rc)
        *o3 = hms_meta_exception(&err);
    return rc == COMB_OK;
}

static MsLockType lock_type_from(HmsLockType t)
{
    switch (t) {
    case HMS_LOCK_TYPE_SHARED_WRITE: return MS_LOCK_SHARED_WRITE;
    case HMS_LOCK_TYPE_EXCLUSIVE: return MS_LOCK_EXCLUSIVE;
    case HMS_LOCK_TYPE_EXCL_WRITE: return MS_LOCK_EXCL_WRITE;
    default: return MS_LOCK_SHARED_READ;
    }
}

static HmsLockType lock_type_to(MsLockType t)
{
    switch (t) {
    case MS_LOCK_SHARED_WRITE: return HMS_LOCK_TYPE_SHARED_WRITE;
    case MS_LOCK_EXCLUSIVE: return HMS_LOCK_TYPE_EXCLUSIVE;
    case MS_LOCK_EXCL_WRITE: return HMS_LOCK_TYPE_EXCL_WRITE;
    default: return HMS_LOCK_TYPE_SHARED_READ;
    }
}

static HmsLockState lock_state_to(int state)
{
    return state == MS_LOCK_ACQUIRED ? HMS_LOCK_STATE_ACQUIRED
           : state == MS_LOCK_WAITING ? HMS_LOCK_STATE_WAITING
                                      : HMS_LOCK_STATE_NOT_ACQUIRED;
}

/* The write a component declares (Hive records TXN_COMPONENTS for the
 * transactional components of INSERT, UPDATE and DELETE). */
static MsOpType op_from(const HmsLockComponent *c)
{
    if (!c->isTransactional || !c->tablename)
        return MS_OP_NONE;
    switch (c->operationType) {
    case HMS_DATA_OPERATION_TYPE_INSERT: return MS_OP_INSERT;
    case HMS_DATA_OPERATION_TYPE_UPDATE: return MS_OP_UPDATE;
    case HMS_DATA_OPERATION_TYPE_DELETE: return MS_OP_DELETE;
    default: return MS_OP_NONE;
    }
}

/* rq's components as the manager's; a write carries the txn's write id
 * for its table (comb's TXN_COMPONENTS rows always have one), allocated
 * here when the client asks for its locks before its write id, which
 * allocate_table_write_ids then answers again. */
static int lock_components(Ms *ms, const HmsLockRequest *rq,
                           MsLockComponent *out, CombErr *err)
{
    for (guint i = 0; i < rq->component->len; i++) {
        const HmsLockComponent *c = g_ptr_array_index(rq->component, i);
        MsLockComponent *m = &out[i];
        m->db = c->dbname;
        m->table = c->__isset_tablename ? c->tablename : NULL;
        m->partition = m->table && c->__isset_partitionname ? c->partitionname
                                                             : NULL;
        m->type = lock_type_from(c->type);
        m->op = op_from(c);
        int rc = m->op == MS_OP_NONE ? COMB_OK
                 : ms_writeid_allocate(ms, rq->txnid, m->db, m->table,
                                       &m->writeid, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static gboolean lock(HmsThriftHiveMetastoreIf *iface, HmsLockResponse **ret,
                     const HmsLockRequest *rq, HmsNoSuchTxnException **o1,
                     HmsTxnAbortedException **o2, GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    MsLockComponent *cs;
    MsLockStatus st;
    int rc;
    if (!ms)
        return hms_fail(error, &err);
    /* comb's locks belong to a txn, whose heartbeat keeps them */
    if (!rq->__isset_txnid || rq->txnid <= 0) {
        *o1 = HMS_EXCEPTION(HMS_TYPE_NO_SUCH_TXN_EXCEPTION,
                            "comb's metastore takes locks only for an open "
                            "transaction: the LockRequest needs its txnid");
        return FALSE;
    }
    if (!(cs = comb_calloc(rq->component->len + 1, sizeof *cs)))
        return hms_fail(error, (comb_err_nomem(&err), &err));
    MsLockRequest mr = {rq->txnid, rq->user ? rq->user : "",
                        rq->hostname ? rq->hostname : "",
                        rq->__isset_agentInfo ? rq->agentInfo : NULL, cs,
                        (int)rq->component->len, false};
    rc = lock_components(ms, rq, cs, &err);
    if (!rc)
        rc = ms_lock(ms, &mr, &st, &err);
    comb_free(cs);
    if (rc == COMB_ETXN) {
        txn_exception(ms, rq->txnid, NULL, o1, o2);
        return FALSE;
    }
    if (rc)
        return hms_fail(error, &err);
    (*ret)->lockid = st.extid;
    (*ret)->state = lock_state_to(st.state);
    return TRUE;
}

/* The rows of request extid (none: *n 0). */
static int lock_rows(Ms *ms, int64_t extid, CombArena *a, MsLockRow **rows,
                     int *n, CombErr *err)
{
    MsLockRow *all;
    int k = 0, total;
    int rc = ms_lock_list(ms, NULL, NULL, NULL, a, &all, &total, err);
    if (rc)
        return rc;
    for (int i = 0; i < total; i++)
        if (all[i].extid == extid)
            all[k++] = all[i];
    *rows = all;
    *n = k;
    return COMB_OK;
}

/* Hive's texts for a lock id it does not find: check_lock's has no colon
 * (TxnHandler.checkLock), heartbeat's has one (HeartbeatLockFunction). */
static void no_lock_message(char *msg, size_t n, int64_t extid, bool colon)
{
    snprintf(msg, n, "No such lock%s lockid:%lld", colon ? ":" : "",
             (long long)extid);
}

static gboolean check_lock(HmsThriftHiveMetastoreIf *iface, HmsLockResponse **ret,
                           const HmsCheckLockRequest *rq,
                           HmsNoSuchTxnException **o1,
                           HmsTxnAbortedException **o2,
                           HmsNoSuchLockException **o3, GError **error)
{
    CombErr err;
    CombArena a;
    MsLockRow *rows = NULL;
    MsLockStatus st;
    Ms *ms = hms_handler_ms(iface, &err);
    int64_t txnid = 0;
    int n = 0, rc = ms ? COMB_OK : COMB_EMETASTORE;
    char msg[COMB_ERR_MSG_MAX];
    comb_arena_init(&a, 0);
    /* the lock's own txn, whatever the client says (Hive looks the lock
     * up first: a txn that ended took its locks with it) */
    if (!rc && !(rc = lock_rows(ms, rq->lockid, &a, &rows, &n, &err)))
        txnid = n ? rows[0].txnid : 0;
    comb_arena_free(&a);
    if (!rc && txnid <= 0)
        rc = comb_err(&err, COMB_ENOTFOUND, "No such lock lockid:%lld",
                      (long long)rq->lockid);
    if (!rc)
        rc = ms_lock_check(ms, txnid, rq->lockid, false, &st, &err);
    if (rc == COMB_ENOTFOUND) {
        no_lock_message(msg, sizeof msg, rq->lockid, false);
        *o3 = HMS_EXCEPTION(HMS_TYPE_NO_SUCH_LOCK_EXCEPTION, msg);
    } else if (rc == COMB_ETXN) {
        txn_exception(ms, txnid, NULL, o1, o2);
    } else if (rc) {
        return hms_fail(error, &err);
    } else {
        (*ret)->lockid = st.extid;
        (*ret)->state = lock_state_to(st.state);
    }
    return rc == COMB_OK;
}

static const char *lock_type_name(MsLockType t)
{
    switch (t) {
    case MS_LOCK_SHARED_WRITE: return "SHARED_WRITE";
    case MS_LOCK_EXCLUSIVE: return "EXCLUSIVE";
    case MS_LOCK_EXCL_WRITE: return "EXCL_WRITE";
    default: return "SHARED_READ";
    }
}

/* The TxnOpenException of an unlock of a txn's acquired lock, naming the
 * lock as Hive's LockInfo prints itself (absent names are "null"). */
static HmsTxnOpenException *txn_open_exception(const MsLockRow *r)
{
    HmsTxnOpenException *x = g_object_new(HMS_TYPE_TXN_OPEN_EXCEPTION, NULL);
    x->message = g_strdup_printf(
        "Unlocking locks associated with transaction not permitted.  "
        "lockid:%lld intLockId:%lld txnid:%lld db:%s table:%s partition:%s "
        "state:%s type:%s", (long long)r->extid, (long long)r->intid,
        (long long)r->txnid, r->db, r->table ? r->table : "null",
        r->partition ? r->partition : "null",
        r->state == MS_LOCK_WAITING ? "WAITING" : "ACQUIRED",
        lock_type_name(r->type));
    x->__isset_message = TRUE;
    return x;
}

/* Hive's unlock: a waiting request goes; the acquired locks of a txn
 * stay until it commits or aborts (TxnOpenException); a lock id it does
 * not know is taken as unlocked already (Hive's DefaultTxnLockManager
 * bails out so that a retried unlock succeeds). */
static gboolean unlock(HmsThriftHiveMetastoreIf *iface,
                       const HmsUnlockRequest *rq, HmsNoSuchLockException **o1,
                       HmsTxnOpenException **o2, GError **error)
{
    CombErr err;
    CombArena a;
    MsLockRow *rows;
    Ms *ms = hms_handler_ms(iface, &err);
    int n = 0, rc = ms ? ms_unlock(ms, rq->lockid, &err) : COMB_EMETASTORE;
    (void)o1;
    if (rc != COMB_ENOTFOUND)
        return rc ? hms_fail(error, &err) : TRUE;
    comb_arena_init(&a, 0);
    rc = lock_rows(ms, rq->lockid, &a, &rows, &n, &err);
    if (!rc && n > 0)
        *o2 = txn_open_exception(&rows[0]);
    comb_arena_free(&a);
    if (rc)
        return hms_fail(error, &err);
    return n == 0;
}

static HmsShowLocksResponseElement *lock_element(const MsLockRow *r)
{
    HmsShowLocksResponseElement *e =
        g_object_new(HMS_TYPE_SHOW_LOCKS_RESPONSE_ELEMENT, NULL);
    e->lockid = r->extid;
    e->dbname = g_strdup(r->db);
    if (r->table) {
        e->tablename = g_strdup(r->table);
        e->__isset_tablename = TRUE;
    }
    if (r->partition) {
        e->partname = g_strdup(r->partition);
        e->__isset_partname = TRUE;
    }
    e->state = lock_state_to(r->state);
    e->type = lock_type_to(r->type);
    e->txnid = r->txnid;
    e->__isset_txnid = TRUE;
    e->lastheartbeat = r->last_heartbeat;
    if (r->acquired_at) {
        e->acquiredat = r->acquired_at;
        e->__isset_acquiredat = TRUE;
    }
    e->user = g_strdup(r->user ? r->user : "");
    e->hostname = g_strdup(r->host ? r->host : "");
    if (r->agent_info) {
        e->agentInfo = g_strdup(r->agent_info);
        e->__isset_agentInfo = TRUE;
    }
    if (r->blocked_by_extid) {
        e->blockedByExtId = r->blocked_by_extid;
        e->__isset_blockedByExtId = TRUE;
        e->blockedByIntId = r->blocked_by_intid;
        e->__isset_blockedByIntId = TRUE;
    }
    e->lockIdInternal = r->intid;
    e->__isset_lockIdInternal = TRUE;
    return e;
}

static gboolean show_locks(HmsThriftHiveMetastoreIf *iface,
                           HmsShowLocksResponse **ret,
                           const HmsShowLocksRequest *rq, GError **error)
{
    CombErr err;
    CombArena a;
    MsLockRow *rows;
    int n;
    Ms *ms = hms_handler_ms(iface, &err);
    const char *db = rq->__isset_dbname ? rq->dbname : NULL;
    const char *table = db && rq->__isset_tablename ? rq->tablename : NULL;
    const char *part = table && rq->__isset_partname ? rq->partname : NULL;
    if (!ms)
        return hms_fail(error, &err);
    comb_arena_init(&a, 0);
    if (ms_lock_list(ms, db, table, part, &a, &rows, &n, &err)) {
        comb_arena_free(&a);
        return hms_fail(error, &err);
    }
    for (int i = 0; i < n; i++)
        g_ptr_array_add((*ret)->locks, lock_element(&rows[i]));
    (*ret)->__isset_locks = TRUE;
    comb_arena_free(&a);
    return TRUE;
}

/* Whether lock request extid exists (comb's locks all belong to a txn,
 * whose heartbeat keeps them: finding it is the lock's heartbeat). */
static int lock_exists(Ms *ms, int64_t extid, bool *found, CombErr *err)
{
    CombArena a;
    MsLockRow *rows;
    int n = 0;
    comb_arena_init(&a, 0);
    int rc = lock_rows(ms, extid, &a, &rows, &n, err);
    comb_arena_free(&a);
    *found = n > 0;
    return rc;
}

/* A heartbeat of a txn that is not open: Hive 4 keeps a committed txn's
 * row (state committed) until its cleaner runs, which its check passes,
 * so that the heartbeat says "No such txn: N"; else the texts of
 * txn_exception. */
static void heartbeat_exception(Ms *ms, int64_t txnid,
                                HmsNoSuchTxnException **none,
                                HmsTxnAbortedException **aborted)
{
    MsTxnState st;
    CombErr err;
    char msg[64];
    if (ms_txn_state(ms, txnid, &st, &err) == COMB_OK &&
        st == MS_TXN_COMMITTED) {
        snprintf(msg, sizeof msg, "No such txn: %lld", (long long)txnid);
        *none = HMS_EXCEPTION(HMS_TYPE_NO_SUCH_TXN_EXCEPTION, msg);
        return;
    }
    txn_exception(ms, txnid, NULL, none, aborted);
}

/* Hive's heartbeat: the txn first (0: none), then the lock (0: none),
 * each failing with its own exception. */
static gboolean heartbeat(HmsThriftHiveMetastoreIf *iface,
                          const HmsHeartbeatRequest *rq,
                          HmsNoSuchLockException **o1, HmsNoSuchTxnException **o2,
                          HmsTxnAbortedException **o3, GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    int64_t txnid = rq->__isset_txnid ? rq->txnid : 0;
    int64_t lockid = rq->__isset_lockid ? rq->lockid : 0;
    bool open = false, found = false;
    char msg[COMB_ERR_MSG_MAX];
    if (!ms)
        return hms_fail(error, &err);
    if (txnid > 0 && ms_txn_heartbeat(ms, &txnid, 1, &open, &err))
        return hms_fail(error, &err);
    if (txnid != 0 && !open) {
        heartbeat_exception(ms, txnid, o2, o3);
        return FALSE;
    }
    if (lockid != 0 && lock_exists(ms, lockid, &found, &err))
        return hms_fail(error, &err);
    if (lockid != 0 && !found) {
        no_lock_message(msg, sizeof msg, lockid, true);
        *o1 = HMS_EXCEPTION(HMS_TYPE_NO_SUCH_LOCK_EXCEPTION, msg);
        return FALSE;
    }
    return TRUE;
}

static gboolean heartbeat_txn_range(HmsThriftHiveMetastoreIf *iface,
                                    HmsHeartbeatTxnRangeResponse **ret,
                                    const HmsHeartbeatTxnRangeRequest *rq,
                                    GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    int64_t n = rq->max - rq->min + 1;
    int64_t *ids;
    bool *open;
    int rc;
    if (!ms)
        return hms_fail(error, &err);
    /* an empty range heartbeats nothing, as Hive's */
    if (rq->max < rq->min)
        return TRUE;
    if (rq->min <= 0 || n > MAX_HEARTBEAT_RANGE) {
        comb_err(&err, COMB_EINVALID, "Invalid txn range [%lld, %lld]: at most "
                 "%d txns from txnid 1 on", (long long)rq->min,
                 (long long)rq->max, MAX_HEARTBEAT_RANGE);
        return hms_fail(error, &err);
    }
    ids = comb_calloc((size_t)n, sizeof *ids);
    open = comb_calloc((size_t)n, sizeof *open);
    rc = ids && open ? COMB_OK : comb_err_nomem(&err);
    for (int64_t i = 0; !rc && i < n; i++)
        ids[i] = rq->min + i;
    if (!rc)
        rc = ms_txn_heartbeat(ms, ids, (int)n, open, &err);
    for (int64_t i = 0; !rc && i < n; i++) {
        MsTxnState st;
        if (open[i])
            continue;
        bool aborted = !ms_txn_state(ms, ids[i], &st, &err) &&
                       st == MS_TXN_ABORTED;
        gint64 *key = g_new(gint64, 1);
        *key = ids[i];
        g_hash_table_add(aborted ? (*ret)->aborted : (*ret)->nosuch, key);
    }
    comb_free(ids);
    comb_free(open);
    return rc ? hms_fail(error, &err) : TRUE;
}

/* The write of an add_dynamic_partitions (Hive's default: an insert). */
static MsOpType dynamic_op(const HmsAddDynamicPartitions *rq)
{
    if (!rq->__isset_operationType)
        return MS_OP_INSERT;
    switch (rq->operationType) {
    case HMS_DATA_OPERATION_TYPE_UPDATE: return MS_OP_UPDATE;
    case HMS_DATA_OPERATION_TYPE_DELETE: return MS_OP_DELETE;
    default: return MS_OP_INSERT;
    }
}

/* rq's partitions recorded as what its txn wrote, under the txn's write
 * id for the table (which the request must name: files of another write
 * id would never become visible), each made in the catalog first when
 * missing (hms_part_ensure). */
static int dynamic_partitions(Ms *ms, const HmsAddDynamicPartitions *rq,
                              CombErr *err)
{
    CombArena a;
    int n = rq->partitionnames ? (int)rq->partitionnames->len : 0;
    const char *db = rq->dbname ? rq->dbname : "";
    const char *table = rq->tablename ? rq->tablename : "";
    int64_t writeid;
    char **names;
    int rc;
    comb_arena_init(&a, 0);
    names = comb_arena_calloc(&a, (size_t)(n + 1) * sizeof *names);
    rc = names ? COMB_OK : comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++) {
        const char *name = g_ptr_array_index(rq->partitionnames, i);
        if (!(names[i] = comb_arena_strdup(&a, name ? name : "")))
            rc = comb_err_nomem(err);
    }
    if (!rc)
        rc = ms_writeid_allocate(ms, rq->txnid, db, table, &writeid, err);
    if (!rc && writeid != rq->writeid)
        rc = comb_err(err, COMB_EINVALID, "write id %lld is not the write id "
                      "of txnid:%lld for %s.%s, which is %lld "
                      "(allocate_table_write_ids gives it)",
                      (long long)rq->writeid, (long long)rq->txnid, db, table,
                      (long long)writeid);
    if (!rc)
        rc = hms_part_ensure(ms, db, table, names, n, &a, err);
    if (!rc)
        rc = ms_txn_add_partitions(ms, rq->txnid, db, table, names, n,
                                   dynamic_op(rq), writeid, err);
    comb_arena_free(&a);
    return rc;
}

/* COMB_ETXN unless txnid is open. */
static int require_open(Ms *ms, int64_t txnid, CombErr *err)
{
    MsTxnState st;
    int rc = txnid > 0 ? ms_txn_state(ms, txnid, &st, err) : COMB_ENOTFOUND;
    if (rc == COMB_ENOTFOUND || (!rc && st != MS_TXN_OPEN))
        return comb_err(err, COMB_ETXN, "txnid:%lld is not open",
                        (long long)txnid);
    return rc;
}

static gboolean add_dynamic_partitions(HmsThriftHiveMetastoreIf *iface,
                                       const HmsAddDynamicPartitions *rq,
                                       HmsNoSuchTxnException **o1,
                                       HmsTxnAbortedException **o2,
                                       GError **error)
{
    CombErr err;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = ms ? require_open(ms, rq->txnid, &err) : COMB_EMETASTORE;
    if (!rc)
        rc = dynamic_partitions(ms, rq, &err);
    if (rc == COMB_ETXN) {
        txn_exception(ms, rq->txnid, NULL, o1, o2);
        return FALSE;
    }
    return rc ? hms_fail(error, &err) : TRUE;
}

void hms_txn_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->get_open_txns = get_open_txns;
    c->open_txns = open_txns;
    c->abort_txn = abort_txn;
    c->commit_txn = commit_txn;
    c->get_valid_write_ids = get_valid_write_ids;
    c->allocate_table_write_ids = allocate_table_write_ids;
    c->lock = lock;
    c->check_lock = check_lock;
    c->unlock = unlock;
    c->show_locks = show_locks;
    c->heartbeat = heartbeat;
    c->heartbeat_txn_range = heartbeat_txn_range;
    c->add_dynamic_partitions = add_dynamic_partitions;
}
