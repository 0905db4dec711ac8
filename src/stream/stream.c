/*
 * stream.c - the streaming connection: table checks, transaction batches
 * (Hive's TransactionBatch, hive-acid-transactions.md §6), begin / write /
 * commit / abort of each txn, heartbeats, close.
 *
 * A batch: n txns opened together, their write ids allocated in one
 * metastore transaction so they are consecutive, all heartbeaten by the
 * connection's heartbeater until they end.  Each partition the batch
 * writes has one streaming AcidWriter (delta_<w1>_<wN>).  The order of a
 * commit is what makes a reader see exactly the committed txns:
 *   1. upsert mode: the txn's delete events, written and fsynced;
 *   2. each partition the txn wrote: stripe, intermediate footer, length in
 *      the side file, all fsynced (acid_writer_flush); on the batch's last
 *      txn the files are closed and the side files removed instead;
 *   3. dynamic partitions named in the txn's components;
 *   4. the metastore commit.
 * Until 4 the write id is open and every reader skips its rows by write
 * id; after it they lie below the committed length.
 */
#include "stream/stream_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/orc.h"

#define DEFAULT_TXN_TIMEOUT_MS 300000   /* hive.txn.timeout */
#define HOUSEKEEPING_MS 60000           /* its housekeeper interval */
#define LOCK_RETRIES 100                /* hive.lock.numretries */
#define LOCK_SLEEP_MAX_MS 60000         /* hive.lock.sleep.between.retries */

/* --------------------------------------------------------- table checks */

static int check_table(const CombStream *s, CombErr *err)
{
    const MsTable *t = s->table;
    const char *props = ms_table_prop(t, "transactional_properties");
    if (!ms_table_is_transactional(t) ||
        (props && strcasecmp(props, "insert_only") == 0))
        return comb_err(err, COMB_EINVALID,
                        "cannot stream into %s.%s: streaming needs a full "
                        "ACID table (TBLPROPERTIES ('transactional'='true') "
                        "without insert_only)", s->db, s->name);
    if (!t->input_format || strcmp(t->input_format, MS_ORC_INPUT_FORMAT) != 0)
        return comb_err(err, COMB_EINVALID,
                        "cannot stream into %s.%s: not STORED AS ORC", s->db,
                        s->name);
    return COMB_OK;
}

/* A setting of the table's own properties (Hive's streaming writer takes
 * its ORC settings from them). */
static const char *table_prop(void *ctx, const char *key,
                              const char *hive_key, const char **where)
{
    (void)hive_key;
    *where = "table property";
    return ms_table_prop(((const CombStream *)ctx)->table, key);
}

/* The ORC settings of the table's files (acid/orc_conf.h), as INSERT
 * writes them; a value comb does not write is refused, as INSERT refuses
 * it. */
static int table_orc_conf(CombStream *s, CombErr *err)
{
    char *qualified = comb_arena_printf(&s->arena, "%s.%s", s->db, s->name);
    if (!qualified)
        return comb_err_nomem(err);
    return acid_orc_conf(table_prop, s, qualified, s->schema.n_cols,
                         s->schema.names, &s->arena, &s->orc, err);
}

static int data_col_index(const MsTable *t, const char *name)
{
    for (int i = 0; i < t->n_cols; i++)
        if (strcasecmp(t->cols[i].name, name) == 0)
            return i;
    return -1;
}

/* The rows' layout: data columns, then (dynamic) the partition keys. */
static int build_layout(CombStream *s, CombErr *err)
{
    const MsTable *t = s->table;
    int n_part = s->dynamic ? t->n_part_keys : 0, n = t->n_cols + n_part;
    const char **names = comb_arena_alloc(&s->arena, (size_t)(n + 1) *
                                                         sizeof *names);
    CombType **types = comb_arena_alloc(&s->arena, (size_t)(n + 1) *
                                                       sizeof *types);
    if (!names || !types)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        const MsColumn *c = i < t->n_cols ? &t->cols[i]
                                          : &t->part_keys[i - t->n_cols];
        int rc = comb_type_parse(&s->arena, c->type, strlen(c->type),
                                 &types[i], err);
        if (rc)
            return comb_err_prefix(err, "column '%s' of %s.%s: ", c->name,
                                   s->db, s->name);
        names[i] = c->name;
    }
    s->layout = (CombStreamLayout){n, names, (const CombType *const *)types,
                                   t->n_cols, n_part};
    s->schema = (AcidSchema){t->n_cols, names,
                             (const CombType *const *)types};
    return COMB_OK;
}

static int setup_buckets(CombStream *s, CombErr *err)
{
    const MsTable *t = s->table;
    int rc = acid_bucketing_version_parse(
        ms_table_prop(t, ACID_PROP_BUCKETING_VERSION), &s->bucketing_version,
        err);
    if (rc || t->n_buckets <= 0 || t->n_bucket_cols == 0)
        return rc;
    s->n_buckets = t->n_buckets;
    s->n_bucket_cols = t->n_bucket_cols;
    if (!(s->bucket_cols = comb_arena_alloc(&s->arena, (size_t)t->n_bucket_cols *
                                                           sizeof(int))))
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_bucket_cols; i++)
        if ((s->bucket_cols[i] = data_col_index(t, t->bucket_cols[i])) < 0)
            return comb_err(err, COMB_EINVALID,
                            "bucket column '%s' of %s.%s is no data column",
                            t->bucket_cols[i], s->db, s->name);
    return COMB_OK;
}

static int setup_partition(CombStream *s, const CombStreamOptions *opt,
                           CombErr *err)
{
    const MsTable *t = s->table;
    s->n_part_keys = t->n_part_keys;
    if (opt->n_part_values == 0) {
        s->dynamic = t->n_part_keys > 0;
        return COMB_OK;
    }
    if (t->n_part_keys == 0 || opt->n_part_values != t->n_part_keys)
        return comb_err(err, COMB_EINVALID,
                        "%s.%s has %d partition key(s), %d value(s) given",
                        s->db, s->name, t->n_part_keys, opt->n_part_values);
    return ms_part_name_make(t, (char *const *)opt->part_values, &s->arena,
                             &s->static_part, err);
}

static bool key_kind_ok(CombTypeKind k)
{
    return comb_type_is_primitive(k);
}

static int setup_upsert(CombStream *s, const CombStreamOptions *opt,
                        CombErr *err)
{
    if (opt->n_upsert_keys <= 0)
        return COMB_OK;
    s->n_key_cols = opt->n_upsert_keys;
    if (!(s->key_cols = comb_arena_alloc(&s->arena, (size_t)s->n_key_cols *
                                                        sizeof(int))))
        return comb_err_nomem(err);
    for (int i = 0; i < s->n_key_cols; i++) {
        const char *k = opt->upsert_keys[i];
        int c = k ? data_col_index(s->table, k) : -1;
        if (c < 0)
            return comb_err(err, COMB_EINVALID,
                            "upsert key '%s' is no data column of %s.%s",
                            k ? k : "(null)", s->db, s->name);
        for (int j = 0; j < i; j++)
            if (s->key_cols[j] == c)
                return comb_err(err, COMB_EINVALID,
                                "upsert key '%s' named twice", k);
        if (!key_kind_ok(s->schema.types[c]->kind))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "upsert key '%s' of %s.%s has type %s: keys must "
                            "be of a primitive type", k, s->db, s->name,
                            comb_type_name(s->schema.types[c]->kind));
        s->key_cols[i] = c;
    }
    return COMB_OK;
}

static const char *default_user(void)
{
    const char *u = getenv("USER");
    return u && *u ? u : "comb";
}

static int setup_identity(CombStream *s, const CombStreamOptions *opt,
                          CombErr *err)
{
    char host[256] = "localhost";
    if (!opt->host && gethostname(host, sizeof host) != 0)
        strcpy(host, "localhost");
    host[sizeof host - 1] = '\0';
    s->user = comb_arena_strdup(&s->arena, opt->user ? opt->user
                                                     : default_user());
    s->host = comb_arena_strdup(&s->arena, opt->host ? opt->host : host);
    s->agent = comb_arena_strdup(&s->arena, opt->agent_info ? opt->agent_info
                                                            : "comb-stream");
    if (!s->user || !s->host || !s->agent)
        return comb_err_nomem(err);
    return COMB_OK;
}

/* The metastore: the caller's handle and the heartbeater's own. */
static int open_metastore(CombStream *s, const CombStreamOptions *opt,
                          CombErr *err)
{
    const char *target = opt->metastore
                             ? opt->metastore
                             : fs_join(&s->arena, opt->warehouse,
                                       "metastore.db");
    Ms *own = NULL;
    int rc;
    if (!target)
        return comb_err_nomem(err);
    if ((rc = ms_open(target, opt->warehouse, &s->ms, err)) ||
        (rc = ms_open(target, opt->warehouse, &own, err)))
        return rc;
    if ((rc = ms_heartbeater_start(own, &s->hb, err)))
        return rc;
    ms_heartbeater_configure(s->hb, s->txn_timeout_ms, HOUSEKEEPING_MS);
    return COMB_OK;
}

static int check_options(const CombStreamOptions *opt, CombErr *err)
{
    if (!opt || !opt->warehouse || !opt->table)
        return comb_err(err, COMB_EINVALID,
                        "streaming connection: warehouse and table are "
                        "required");
    if (opt->batch_size < 0 || opt->n_part_values < 0 ||
        opt->n_upsert_keys < 0 || opt->txn_timeout_ms < 0)
        return comb_err(err, COMB_EINVALID,
                        "streaming connection: negative batch size, count or "
                        "time-out");
    if (opt->set_compression &&
        (opt->compression < ORC_COMP_NONE || opt->compression > ORC_COMP_ZSTD))
        return comb_err(err, COMB_EINVALID, "unknown ORC compression %d",
                        opt->compression);
    return COMB_OK;
}

int comb_stream_open(const CombStreamOptions *opt, CombStream **out,
                     CombErr *err)
{
    CombStream *s;
    int rc;
    *out = NULL;
    if ((rc = check_options(opt, err)))
        return rc;
    if (!(s = comb_calloc(1, sizeof *s)))
        return comb_err_nomem(err);
    comb_arena_init(&s->arena, 16 * 1024);
    comb_arena_init(&s->batch_arena, 16 * 1024);
    comb_arena_init(&s->scratch, 16 * 1024);
    s->cur = -1;
    s->batch_size = opt->batch_size ? opt->batch_size : 1;
    s->txn_timeout_ms = opt->txn_timeout_ms ? opt->txn_timeout_ms
                                            : DEFAULT_TXN_TIMEOUT_MS;
    s->db = comb_arena_strdup(&s->arena, opt->db ? opt->db : "default");
    s->name = comb_arena_strdup(&s->arena, opt->table);
    if (!s->db || !s->name)
        rc = comb_err_nomem(err);
    for (char *p = (char *)s->db; !rc && *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    for (char *p = (char *)s->name; !rc && *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    if (!rc)
        rc = setup_identity(s, opt, err);
    if (!rc)
        rc = open_metastore(s, opt, err);
    if (!rc)
        rc = ms_table_get(s->ms, s->db, s->name, &s->arena, &s->table, err);
    if (!rc && !(rc = check_table(s, err)) &&
        !(rc = setup_partition(s, opt, err)) && !(rc = build_layout(s, err)) &&
        !(rc = setup_buckets(s, err)) && !(rc = setup_upsert(s, opt, err)) &&
        !(rc = table_orc_conf(s, err)) && opt->set_compression)
        s->orc.compression = (OrcCompression)opt->compression;
    if (rc) {
        comb_stream_close(s, NULL);
        return rc;
    }
    *out = s;
    return COMB_OK;
}

const CombStreamLayout *comb_stream_layout(const CombStream *s)
{
    return &s->layout;
}

int comb_stream_batch_init(const CombStream *s, CombBatch *b, int capacity,
                           CombErr *err)
{
    if (comb_batch_init_types(b, s->layout.n_cols, s->layout.types,
                              capacity > 0 ? capacity : COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* ------------------------------------------------------------- batches */

static bool batch_open(const CombStream *s)
{
    return s->n_batch > 0;
}

/* Close the batch's files (complete ORC files, no side files) and forget
 * its partitions.  Txns not begun yet are aborted. */
static int batch_close(CombStream *s, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = s->next; i < s->n_batch; i++) {
        CombErr e;
        ms_heartbeater_remove(s->hb, s->txnids[i]);
        if (ms_txn_abort_reason(s->ms, s->txnids[i], MS_ABORT_ROLLBACK, &e) &&
            !rc) {
            *err = e;
            rc = e.code;
        }
        s->stats.txns_aborted++;
    }
    for (int i = 0; i < s->n_parts; i++) {
        StreamPart *p = s->parts[i];
        int prc = COMB_OK;
        if (p->w)
            prc = rc ? (acid_writer_abort(p->w), COMB_OK)
                     : acid_writer_commit_files(p->w, NULL, err);
        p->w = NULL;
        stream_upsert_free(p);
        comb_free(p->sel);
        if (prc && !rc)
            rc = prc;
    }
    s->n_parts = 0;
    s->n_batch = 0;
    s->next = 0;
    comb_arena_reset(&s->batch_arena);
    return rc;
}

/* Hive's beginNextTransaction on a used-up batch: openTxns(n), then
 * allocateTableWriteIdsBatch. */
static int batch_new(CombStream *s, CombErr *err)
{
    int n = s->batch_size, rc = COMB_OK;
    s->txnids = comb_arena_alloc(&s->batch_arena, (size_t)n * sizeof(int64_t));
    s->writeids = comb_arena_alloc(&s->batch_arena,
                                   (size_t)n * sizeof(int64_t));
    s->parts = NULL;
    s->cap_parts = 0;
    if (!s->txnids || !s->writeids)
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        rc = ms_txn_open(s->ms, s->user, s->host, &s->txnids[i], err);
        if (!rc) {
            s->n_batch = i + 1; /* batch_close aborts what was opened */
            rc = ms_heartbeater_add(s->hb, s->txnids[i], err);
        }
    }
    if (!rc)
        rc = ms_writeid_allocate_batch(s->ms, s->txnids, n, s->db, s->name,
                                       s->writeids, err);
    for (int i = 1; !rc && i < n; i++)
        if (s->writeids[i] != s->writeids[0] + i)
            rc = comb_err(err, COMB_EINTERNAL,
                          "write ids of a streaming batch of %s.%s are not "
                          "consecutive (%" PRId64 " after %" PRId64 ")",
                          s->db, s->name, s->writeids[i], s->writeids[i - 1]);
    if (rc) {
        CombErr ignored;
        batch_close(s, &ignored);
        return rc;
    }
    s->n_batch = n;
    s->next = 0;
    s->stats.batches++;
    return COMB_OK;
}

/* ----------------------------------------------------------------- txns */

/* SHARED_READ on the table or the static partition (Hive's streaming
 * lock), waited for as Hive's DbLockManager waits.  The request also
 * records what the txn writes, for the compactor and the cleaner (as
 * Hive's lock request does): the table, or the static partition; dynamic
 * partitions replace the table row at commit (addDynamicPartitions). */
static int take_lock(CombStream *s, int64_t txnid, int64_t writeid,
                     CombErr *err)
{
    MsLockComponent c = {s->db, s->name, s->static_part, MS_LOCK_SHARED_READ,
                         MS_OP_INSERT, writeid};
    MsLockRequest rq = {txnid, s->user, s->host, s->agent, &c, 1, false};
    MsLockWait wait = {LOCK_RETRIES, LOCK_SLEEP_MAX_MS, false, NULL, NULL};
    MsLockStatus st;
    int64_t waited = 0;
    int rc = ms_lock(s->ms, &rq, &st, err);
    if (!rc && st.state == MS_LOCK_WAITING)
        rc = ms_lock_wait(s->ms, txnid, &wait, &st, &waited, err);
    if (!rc && st.state != MS_LOCK_ACQUIRED)
        rc = comb_err_hive(err, COMB_ETXN, 10307,
                           "Error in acquiring locks: SHARED_READ lock of "
                           "%s.%s for txnid:%" PRId64 " timed out after "
                           "%" PRId64 "ms", s->db, s->name, txnid, waited);
    return rc;
}

int comb_stream_begin(CombStream *s, CombErr *err)
{
    int rc;
    if (s->cur >= 0)
        return comb_err(err, COMB_ETXN,
                        "a streaming txn (txnid:%" PRId64 ") is begun already",
                        s->txnids[s->cur]);
    if (batch_open(s) && s->next == s->n_batch &&
        (rc = batch_close(s, err)))
        return rc;
    if (!batch_open(s) && (rc = batch_new(s, err)))
        return rc;
    int i = s->next++;
    if ((rc = take_lock(s, s->txnids[i], s->writeids[i], err))) {
        /* aborted behind our back (time-out, ABORT TRANSACTIONS): the
         * batch is over, the next begin opens a new one */
        CombErr ignored;
        ms_heartbeater_remove(s->hb, s->txnids[i]);
        ms_txn_abort_reason(s->ms, s->txnids[i], MS_ABORT_ROLLBACK, &ignored);
        s->stats.txns_aborted++;
        batch_close(s, &ignored);
        return rc;
    }
    for (int p = 0; p < s->n_parts; p++)
        if (s->parts[p]->w &&
            (rc = acid_writer_set_write_id(s->parts[p]->w, s->writeids[i],
                                           err)))
            return rc;
    s->cur = i;
    s->txn_rows = s->txn_deletes = 0;
    return COMB_OK;
}

static int need_txn(const CombStream *s, CombErr *err)
{
    if (s->cur < 0)
        return comb_err(err, COMB_ETXN,
                        "no streaming txn is begun on %s.%s", s->db, s->name);
    return COMB_OK;
}

static int check_layout(const CombStream *s, const CombBatch *rows,
                        CombErr *err)
{
    if (rows->n_cols < s->layout.n_cols)
        return comb_err(err, COMB_EINVALID,
                        "batch of %d columns for %s.%s, whose rows have %d",
                        rows->n_cols, s->db, s->name, s->layout.n_cols);
    return COMB_OK;
}

static int reserve_buckets(CombStream *s, int capacity, CombErr *err)
{
    if (capacity <= s->cap_buckets)
        return COMB_OK;
    int *v = comb_realloc(s->buckets, (size_t)capacity * sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    s->buckets = v;
    s->cap_buckets = capacity;
    return COMB_OK;
}

/* Bucket of every live row (0 on a table that is not bucketed). */
static int bucket_rows(CombStream *s, const CombBatch *rows, CombErr *err)
{
    int rc = reserve_buckets(s, rows->capacity, err);
    if (rc)
        return rc;
    for (int i = 0; i < comb_batch_live(rows); i++) {
        int r = comb_batch_row(rows, i);
        s->buckets[r] = s->n_buckets > 0
                            ? acid_bucket_of_row(rows, r, s->bucket_cols,
                                                 s->n_bucket_cols,
                                                 s->n_buckets,
                                                 s->bucketing_version)
                            : 0;
    }
    return COMB_OK;
}

/* The rows of `rows` (a view: same vectors, p's selection) that go to p. */
static CombBatch part_view(const CombBatch *rows, const StreamPart *p)
{
    CombBatch v = *rows;
    v.use_sel = true;
    v.sel = p->sel;
    v.n_sel = p->n_sel;
    return v;
}

static int add_sel(StreamPart *p, int row, CombErr *err)
{
    if (p->n_sel == p->cap_sel) {
        int cap = p->cap_sel ? p->cap_sel * 2 : 256;
        uint16_t *v = comb_realloc(p->sel, (size_t)cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        p->sel = v;
        p->cap_sel = cap;
    }
    p->sel[p->n_sel++] = (uint16_t)row;
    return COMB_OK;
}

/* Group the live rows by partition: each part's sel lists its rows.
 * *touched[0..*n) are the parts that got some. */
static int group_rows(CombStream *s, const CombBatch *rows,
                      StreamPart ***touched, int *n_touched, CombErr *err)
{
    int n = comb_batch_live(rows), rc;
    StreamPart **of = comb_arena_alloc(&s->scratch,
                                       (size_t)(n ? n : 1) * sizeof *of);
    StreamPart **list = comb_arena_alloc(&s->scratch,
                                         (size_t)(n ? n : 1) * sizeof *list);
    *n_touched = 0;
    if (!of || !list)
        return comb_err_nomem(err);
    if ((rc = stream_route_rows(s, rows, of, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        StreamPart *p = of[i];
        if (p->n_sel == 0)
            list[(*n_touched)++] = p;
        if ((rc = add_sel(p, comb_batch_row(rows, i), err)))
            return rc;
    }
    *touched = list;
    return COMB_OK;
}

static int write_rows(CombStream *s, const CombBatch *rows, bool deleting,
                      CombErr *err)
{
    StreamPart **parts;
    int n_parts = 0, rc;
    if ((rc = need_txn(s, err)) || (rc = check_layout(s, rows, err)))
        return rc;
    if (comb_batch_live(rows) == 0)
        return COMB_OK;
    comb_arena_reset(&s->scratch);
    if (rows->capacity > 0xFFFF + 1)
        return comb_err(err, COMB_EINVALID, "batch of %d rows is too large",
                        rows->capacity);
    if ((rc = bucket_rows(s, rows, err)) ||
        (rc = group_rows(s, rows, &parts, &n_parts, err)))
        goto done;
    for (int i = 0; i < n_parts && !rc; i++) {
        StreamPart *p = parts[i];
        CombBatch v = part_view(rows, p);
        p->in_txn = true;
        if (s->n_key_cols &&
            (rc = stream_upsert_note(s, p, &v, deleting, err)))
            break;
        if (!deleting && !(rc = stream_part_writer(s, p, err)))
            rc = acid_writer_insert(p->w, &v, s->buckets, err);
    }
    if (!rc && !deleting)
        s->txn_rows += comb_batch_live(rows);
done:
    for (int i = 0; i < s->n_parts; i++)
        s->parts[i]->n_sel = 0;
    return rc;
}

int comb_stream_write(CombStream *s, const CombBatch *rows, CombErr *err)
{
    return write_rows(s, rows, false, err);
}

int comb_stream_delete(CombStream *s, const CombBatch *rows, CombErr *err)
{
    if (!s->n_key_cols)
        return comb_err(err, COMB_EINVALID,
                        "delete by key needs a connection in upsert mode "
                        "(upsert keys) on %s.%s", s->db, s->name);
    return write_rows(s, rows, true, err);
}

/* Steps 1-3 of a commit (see the top); last: the batch's last txn. */
static int flush_txn(CombStream *s, bool last, CombErr *err)
{
    char **names;
    comb_arena_reset(&s->scratch);
    names = comb_arena_alloc(&s->scratch,
                             (size_t)(s->n_parts + 1) * sizeof *names);
    int n_names = 0, rc = COMB_OK;
    if (!names)
        return comb_err_nomem(err);
    for (int i = 0; i < s->n_parts && !rc; i++) {
        StreamPart *p = s->parts[i];
        int64_t n_del = 0;
        if (!p->in_txn)
            continue;
        if (s->n_key_cols) { /* the txn's own directories, complete */
            if (!(rc = stream_upsert_flush(s, p, &n_del, err)))
                s->txn_deletes += n_del;
            if (!rc && p->w)
                rc = acid_writer_commit_files(p->w, NULL, err);
            p->w = NULL;
        } else if (p->w && !last) {
            rc = acid_writer_flush(p->w, err);
        }
        if (p->name)
            names[n_names++] = p->name;
    }
    if (!rc && last) { /* the files close: complete ORC files, no side files */
        for (int i = 0; i < s->n_parts && !rc; i++) {
            StreamPart *p = s->parts[i];
            if (p->w) {
                rc = acid_writer_commit_files(p->w, NULL, err);
                p->w = NULL;
            }
        }
    }
    if (!rc && s->dynamic && n_names > 0)
        rc = ms_txn_add_partitions(s->ms, s->txnids[s->cur], s->db, s->name,
                                   names, n_names, MS_OP_INSERT,
                                   s->writeids[s->cur], err);
    return rc;
}

/* The begun txn is over (committed or aborted). */
static void end_txn(CombStream *s)
{
    ms_heartbeater_remove(s->hb, s->txnids[s->cur]);
    for (int i = 0; i < s->n_parts; i++) {
        s->parts[i]->in_txn = false;
        stream_upsert_reset(s->parts[i]);
    }
    s->cur = -1;
}

static int abort_current(CombStream *s, CombErr *err)
{
    int64_t txnid = s->txnids[s->cur];
    bool last = s->next == s->n_batch;
    int rc = COMB_OK;
    /* the txn's rows get their own stripes (the next txn's rows carry
     * another write id); they stay in the files, invisible */
    for (int i = 0; i < s->n_parts && !rc; i++) {
        StreamPart *p = s->parts[i];
        if (p->w && s->n_key_cols) { /* the txn's own directories go */
            acid_writer_abort(p->w);
            p->w = NULL;
        } else if (p->w && p->in_txn && !last) {
            rc = acid_writer_flush(p->w, err);
        }
    }
    end_txn(s);
    s->stats.txns_aborted++;
    int arc = ms_txn_abort_reason(s->ms, txnid, MS_ABORT_ROLLBACK,
                                  rc ? NULL : err);
    if (!rc)
        rc = arc;
    if (rc || last) {
        CombErr e;
        int brc = batch_close(s, rc ? &e : err);
        if (!rc)
            rc = brc;
    }
    return rc;
}

int comb_stream_commit(CombStream *s, CombErr *err)
{
    int rc = need_txn(s, err);
    bool last;
    if (rc)
        return rc;
    last = s->next == s->n_batch;
    rc = flush_txn(s, last, err);
    if (!rc)
        rc = ms_txn_commit(s->ms, s->txnids[s->cur], err);
    if (rc) {
        CombErr ignored;
        abort_current(s, &ignored);
        return rc;
    }
    s->stats.txns_committed++;
    s->stats.rows_written += s->txn_rows;
    s->stats.rows_deleted += s->txn_deletes;
    end_txn(s);
    return last ? batch_close(s, err) : COMB_OK;
}

int comb_stream_abort(CombStream *s, CombErr *err)
{
    int rc = need_txn(s, err);
    return rc ? rc : abort_current(s, err);
}

int64_t comb_stream_txn_id(const CombStream *s)
{
    return s->cur >= 0 ? s->txnids[s->cur] : 0;
}

int64_t comb_stream_write_id(const CombStream *s)
{
    return s->cur >= 0 ? s->writeids[s->cur] : 0;
}

int comb_stream_remaining(const CombStream *s)
{
    return batch_open(s) ? s->n_batch - s->next : 0;
}

void comb_stream_stats(const CombStream *s, CombStreamStats *out)
{
    *out = s->stats;
}

int comb_stream_close(CombStream *s, CombErr *err)
{
    int rc = COMB_OK;
    CombErr e;
    if (!s)
        return COMB_OK;
    if (s->cur >= 0)
        rc = abort_current(s, err ? err : &e);
    if (batch_open(s)) {
        int brc = batch_close(s, rc || !err ? &e : err);
        if (!rc)
            rc = brc;
    }
    ms_heartbeater_stop(s->hb);
    ms_close(s->ms);
    comb_free(s->buckets);
    comb_arena_free(&s->batch_arena);
    comb_arena_free(&s->scratch);
    comb_arena_free(&s->arena);
    comb_free(s);
    return rc;
}
