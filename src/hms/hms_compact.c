/*
 * hms_compact.c - the compaction calls: compact2 puts a request on comb's
 * compaction queue (ms_compact_enqueue, as ALTER TABLE ... COMPACT does),
 * so that `comb compactor` or an AND WAIT picks it up like any other;
 * show_compact lists the queue and its history (ms_compact_list) with
 * the fields and state strings of Hive's ShowCompactResponseElement, the
 * values SHOW COMPACTIONS shows.
 *
 * Neither call declares an exception in Hive's interface, so a request
 * that cannot be queued (unknown or non-ACID table, missing partition)
 * answers a TApplicationException with Hive's DDL text; a request for a
 * partition that already has one queued or running is answered, not
 * failed: accepted false, id -1 and state "refused", the entry in the way
 * named in errormessage (Hive 4's CompactFunction).
 */
#include "hms/hms_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/buf.h"

/* CompactionRequest.properties as CQ_TBLPROPERTIES ("k=v" lines, sorted so
 * that one request always stores the same text); NULL without any. */
static char *request_props(GHashTable *props, CombArena *a)
{
    GList *keys = props ? g_hash_table_get_keys(props) : NULL;
    CombBuf b = COMB_BUF_INIT;
    char *out = NULL;
    keys = g_list_sort(keys, (GCompareFunc)strcmp);
    for (GList *k = keys; k; k = k->next) {
        const char *v = g_hash_table_lookup(props, k->data);
        comb_buf_printf(&b, "%s%s=%s", k == keys ? "" : "\n",
                        (const char *)k->data, v ? v : "");
    }
    g_list_free(keys);
    if (b.data)
        out = comb_arena_strndup(a, (const char *)b.data, b.len);
    comb_buf_free(&b);
    return out;
}

/* The checks ALTER TABLE ... COMPACT makes, with Hive's texts: the table
 * exists and is transactional, a partitioned table names one existing
 * partition, an unpartitioned one none.  The entry is queued under the
 * names as the metastore keeps them (*out with its db and table name,
 * *part the partition's or NULL), whatever case the client used. */
static int check_target(Ms *ms, const HmsCompactionRequest *rq, CombArena *a,
                        MsTable **out, const char **part_name, CombErr *err)
{
    const char *db = rq->dbname ? rq->dbname : "";
    const char *name = rq->tablename ? rq->tablename : "";
    const char *part = rq->__isset_partitionname ? rq->partitionname : NULL;
    MsTable *t;
    MsPartition *p;
    int rc = ms_table_get(ms, db, name, a, &t, err);
    if (rc == COMB_ENOTFOUND)
        return comb_err(err, rc, "hive.%s.%s table not found", db, name);
    if (rc)
        return rc;
    if (!ms_table_is_transactional(t))
        return comb_err_hive(err, COMB_ESEMANTIC, 10286,
                             "Compaction is not allowed on non-ACID table "
                             "%s.%s", db, name);
    if (t->n_part_keys > 0 && !part)
        return comb_err_hive(err, COMB_ESEMANTIC, 10283,
                             "You must specify a partition to compact for "
                             "partitioned tables");
    if (t->n_part_keys == 0 && part)
        return comb_err_hive(err, COMB_ESEMANTIC, 10214,
                             "Invalid partition spec specified: %s.%s is not "
                             "partitioned", db, name);
    if (part && (rc = ms_part_get(ms, db, name, part, a, &p, err)) == COMB_ENOTFOUND)
        return comb_err_hive(err, COMB_ESEMANTIC, 10214,
                             "Invalid partition spec specified: %s", part);
    *out = t;
    *part_name = part && !rc ? p->name : NULL;
    return rc;
}

/* "<host>-manual": a request someone asked for, as Hive's client names
 * the initiator of ALTER TABLE ... COMPACT. */
static void initiator_id(char *out, size_t n)
{
    char host[256];
    if (gethostname(host, sizeof host))
        strcpy(host, "localhost");
    host[sizeof host - 1] = '\0';
    snprintf(out, n, "%s-manual", host);
}

static gboolean compact2(HmsThriftHiveMetastoreIf *iface,
                         HmsCompactionResponse **ret,
                         const HmsCompactionRequest *rq, GError **error)
{
    CombErr err;
    CombArena a;
    char initiator[300];
    MsTable *t = NULL;
    const char *part = NULL;
    MsCompactState state = MS_CQ_INITIATED;
    bool accepted = false;
    int64_t id = 0;
    Ms *ms = hms_handler_ms(iface, &err);
    HmsCompactionResponse *r = *ret;
    int rc = ms ? COMB_OK : COMB_EMETASTORE;
    if (!rc && rq->type != HMS_COMPACTION_TYPE_MAJOR &&
        rq->type != HMS_COMPACTION_TYPE_MINOR)
        rc = comb_err_hive(&err, COMB_ESEMANTIC, 10282,
                           "Invalid compaction type, supported values are "
                           "'major' and 'minor'");
    comb_arena_init(&a, 0);
    if (!rc)
        rc = check_target(ms, rq, &a, &t, &part, &err);
    initiator_id(initiator, sizeof initiator);
    if (!rc) {
        MsCompactRequest mr = {
            t->db, t->name, part,
            rq->type == HMS_COMPACTION_TYPE_MAJOR ? MS_CQ_MAJOR : MS_CQ_MINOR,
            request_props(rq->__isset_properties ? rq->properties : NULL, &a),
            initiator};
        rc = ms_compact_enqueue(ms, &mr, &accepted, &id, &state, &err);
    }
    comb_arena_free(&a);
    if (rc)
        return hms_fail(error, &err);
    /* a refused request: Hive 4's CompactFunction answers id -1 and
     * "refused", naming the entry in the way in its errormessage */
    r->id = accepted ? id : -1;
    g_free(r->state);
    r->state = g_strdup(accepted ? ms_compact_state_name(state) : "refused");
    r->accepted = accepted;
    if (!accepted) {
        r->errormessage = g_strdup_printf("Compaction is already scheduled "
                                          "with state='%s' and id=%lld",
                                          ms_compact_state_name(state),
                                          (long long)id);
        r->__isset_errormessage = TRUE;
    }
    return TRUE;
}

static HmsCompactionType type_to(MsCompactType t)
{
    return t == MS_CQ_MAJOR ? HMS_COMPACTION_TYPE_MAJOR
                            : HMS_COMPACTION_TYPE_MINOR;
}

/* Whether row c passes the filters of Hive 4's ShowCompactRequest (Hive
 * 3's request has none): id, database, table, partition, type, state
 * (its display name, any case), pool (comb's one is "default"). */
static bool row_wanted(const HmsShowCompactRequest *rq, const MsCompaction *c)
{
    const char *part = c->partition ? c->partition : "";
    return (!rq->__isset_id || rq->id == c->id) &&
           (!rq->__isset_dbName || !strcasecmp(rq->dbName, c->db)) &&
           (!rq->__isset_tbName || !strcasecmp(rq->tbName, c->table)) &&
           (!rq->__isset_partName || !strcmp(rq->partName, part)) &&
           (!rq->__isset_type || rq->type == type_to(c->type)) &&
           (!rq->__isset_state ||
            !strcasecmp(rq->state, ms_compact_state_name(c->state))) &&
           (!rq->__isset_poolName || !strcmp(rq->poolName, "default"));
}

#define SET_OPT(e, field, value)                                             \
    do {                                                                     \
        (e)->field = (value);                                                \
        (e)->__isset_##field = TRUE;                                         \
    } while (0)

/* The times and ids of c that it has (0 is none: left unset, as Hive
 * leaves a NULL column). */
static void element_numbers(HmsShowCompactResponseElement *e,
                            const MsCompaction *c)
{
    if (c->start)
        SET_OPT(e, start, c->start);
    if (c->end)
        SET_OPT(e, endTime, c->end);
    /* Hive fills hightestTxnId from CQ_HIGHEST_WRITE_ID too (the field
     * kept its name from before write ids) */
    if (c->highest_writeid) {
        SET_OPT(e, hightestTxnId, c->highest_writeid);
        SET_OPT(e, hightestWriteId, c->highest_writeid);
    }
    if (c->enqueue_time)
        SET_OPT(e, enqueueTime, c->enqueue_time);
    if (c->next_txnid)
        SET_OPT(e, nextTxnId, c->next_txnid);
    if (c->txnid)
        SET_OPT(e, txnId, c->txnid);
    if (c->commit_time)
        SET_OPT(e, commitTime, c->commit_time);
}

static HmsShowCompactResponseElement *compact_element(const MsCompaction *c)
{
    HmsShowCompactResponseElement *e =
        g_object_new(HMS_TYPE_SHOW_COMPACT_RESPONSE_ELEMENT, NULL);
    e->dbname = g_strdup(c->db);
    e->tablename = g_strdup(c->table);
    if (c->partition)
        SET_OPT(e, partitionname, g_strdup(c->partition));
    e->type = type_to(c->type);
    e->state = g_strdup(ms_compact_state_name(c->state));
    if (c->worker_id)
        SET_OPT(e, workerid, g_strdup(c->worker_id));
    if (c->progress)
        SET_OPT(e, metaInfo, g_strdup(c->progress));
    SET_OPT(e, id, c->id);
    if (c->error)
        SET_OPT(e, errorMessage, g_strdup(c->error));
    element_numbers(e, c);
    if (c->initiator_id)
        SET_OPT(e, initiatorId, g_strdup(c->initiator_id));
    g_free(e->poolName);
    SET_OPT(e, poolName, g_strdup("default"));
    return e;
}

/* Whether rq's limit (Hive 4's; 0 or less: none) leaves room after shown
 * elements. */
static bool below_limit(const HmsShowCompactRequest *rq, int64_t shown)
{
    return !rq->__isset_limit || rq->limit <= 0 || shown < rq->limit;
}

static gboolean show_compact(HmsThriftHiveMetastoreIf *iface,
                             HmsShowCompactResponse **ret,
                             const HmsShowCompactRequest *rq, GError **error)
{
    CombErr err;
    CombArena a;
    MsCompaction *rows = NULL;
    int64_t shown = 0;
    int n = 0;
    Ms *ms = hms_handler_ms(iface, &err);
    int rc = ms ? COMB_OK : COMB_EMETASTORE;
    comb_arena_init(&a, 0);
    if (!rc)
        rc = ms_compact_list(ms, false, &a, &rows, &n, &err);
    for (int i = 0; !rc && i < n && below_limit(rq, shown); i++)
        if (row_wanted(rq, &rows[i])) {
            g_ptr_array_add((*ret)->compacts, compact_element(&rows[i]));
            shown++;
        }
    comb_arena_free(&a);
    return rc ? hms_fail(error, &err) : TRUE;
}

void hms_compact_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->compact2 = compact2;
    c->show_compact = show_compact;
}
