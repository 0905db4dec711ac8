/*
 * upsert.c - streaming upserts and deletes by key: a streaming MERGE.
 *
 * While a txn runs, each partition it writes keeps the keys of its rows
 * (an open-addressing table of encoded key bytes), each with the ROW__ID
 * of the txn's own latest row of that key, if any.  A row whose key is
 * already there replaces that row: a delete event for it (the txn's own
 * write id).  At commit the partition is scanned (merge on read under the
 * txn's snapshot: every committed txn, the batch's earlier ones included,
 * which the reader sees up to their committed lengths, and never this
 * txn's own rows, not yet committed to the side files) for rows of those
 * keys, and a delete event is added for each.
 *
 * An upserting txn writes directories of its own, delta_<w>_<w>_0000 and
 * delete_delta_<w>_<w>_0000 (ordinary one-statement deltas: sorted,
 * fsynced, closed at its commit), not the batch's delta_<w1>_<wN>: Hive's
 * choice of deltas (hive-acid-storage.md §4.2) treats a delete delta
 * whose range lies inside a wider delta's as obsolete, so delete events
 * of a txn of the batch would be hidden by the batch's own directory.
 * The deletes and the inserts become visible together, at the commit.
 *
 * Two connections upserting the same keys at once are not serialised
 * (SHARED_READ locks, as Hive's streaming): each replaces what it saw.
 */
#include "stream/stream_int.h"

#include <string.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "common/hash.h"

/* One key of the txn. */
typedef struct UpKey {
    const uint8_t *bytes;      /* NULL: empty slot */
    uint32_t len, hash;
    bool has_row;              /* an insert of this txn holds the key */
    int32_t prop;              /* its ROW__ID (write id: the txn's) */
    int64_t row_id;
} UpKey;

typedef struct UpEvent {
    int64_t owid;
    int32_t prop;
    int64_t row_id;
} UpEvent;

typedef struct StreamUpsert {
    CombArena arena;           /* key bytes of the txn */
    UpKey *slots;
    size_t cap, n;             /* cap a power of two, n <= cap / 2 */
    UpEvent *events;
    size_t n_events, cap_events;
    CombBuf key;               /* scratch: one encoded key */
    int32_t *bucket_rows;      /* scratch per write call, by bucket */
} StreamUpsert;

/* ------------------------------------------------------------ key bytes */

static int put(CombBuf *b, const void *p, size_t n)
{
    return comb_buf_append(b, p, n);
}

/* One key value, so that equal values (as Hive compares them) give equal
 * bytes: a null flag, then the payload; char values without their
 * padding. */
static int encode_value(CombBuf *b, const CombVector *v, int row)
{
    uint8_t flag = comb_vec_is_null(v, row) ? 0 : 1;
    if (put(b, &flag, 1))
        return -1;
    if (!flag)
        return 0;
    if (comb_type_is_int(v->kind))
        return put(b, &v->i64[row], sizeof v->i64[row]);
    if (comb_type_is_float(v->kind)) {
        double d = v->f64[row] == 0 ? 0 : v->f64[row]; /* -0 is 0 */
        return put(b, &d, sizeof d);
    }
    if (comb_type_is_str(v->kind)) {
        CombStr s = v->str[row];
        uint32_t len = s.len;
        if (v->kind == COMB_T_CHAR)
            while (len > 0 && s.ptr[len - 1] == ' ')
                len--;
        return put(b, &len, sizeof len) || put(b, s.ptr, len) ? -1 : 0;
    }
    if (v->kind == COMB_T_DECIMAL)
        return put(b, &v->dec[row], sizeof v->dec[row]);
    if (v->kind == COMB_T_TIMESTAMP)
        return put(b, &v->i64[row], sizeof v->i64[row]) ||
                       put(b, &v->nanos[row], sizeof v->nanos[row])
                   ? -1
                   : 0;
    return -1; /* compound kinds: refused at open */
}

static int encode_key(const CombStream *s, StreamUpsert *u,
                      const CombBatch *rows, int row, CombErr *err)
{
    comb_buf_clear(&u->key);
    for (int i = 0; i < s->n_key_cols; i++)
        if (encode_value(&u->key, &rows->cols[s->key_cols[i]], row))
            return comb_err_nomem(err);
    return COMB_OK;
}

/* ------------------------------------------------------------ key table */

static int upsert_get(StreamPart *p, StreamUpsert **out, CombErr *err)
{
    StreamUpsert *u = p->up;
    if (!u) {
        if (!(u = comb_calloc(1, sizeof *u)))
            return comb_err_nomem(err);
        comb_arena_init(&u->arena, 16 * 1024);
        p->up = u;
    }
    if (!u->bucket_rows &&
        !(u->bucket_rows = comb_calloc(4096, sizeof *u->bucket_rows)))
        return comb_err_nomem(err);
    *out = u;
    return COMB_OK;
}

static UpKey *slot_of(UpKey *slots, size_t cap, const uint8_t *k, uint32_t len,
                      uint32_t hash)
{
    size_t i = hash & (cap - 1);
    while (slots[i].bytes &&
           (slots[i].hash != hash || slots[i].len != len ||
            memcmp(slots[i].bytes, k, len) != 0))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static int grow(StreamUpsert *u, CombErr *err)
{
    size_t cap = u->cap ? u->cap * 2 : 1024;
    UpKey *slots = comb_calloc(cap, sizeof *slots);
    if (!slots)
        return comb_err_nomem(err);
    for (size_t i = 0; i < u->cap; i++)
        if (u->slots[i].bytes)
            *slot_of(slots, cap, u->slots[i].bytes, u->slots[i].len,
                     u->slots[i].hash) = u->slots[i];
    comb_free(u->slots);
    u->slots = slots;
    u->cap = cap;
    return COMB_OK;
}

/* The entry of the key in u->key, made when missing (*found says). */
static int key_entry(StreamUpsert *u, bool create, UpKey **out, CombErr *err)
{
    uint32_t hash = (uint32_t)comb_hive_murmur3(u->key.data, u->key.len);
    UpKey *k;
    int rc;
    *out = NULL;
    if (u->cap == 0) {
        if (!create)
            return COMB_OK;
        if ((rc = grow(u, err)))
            return rc;
    }
    k = slot_of(u->slots, u->cap, u->key.data, (uint32_t)u->key.len, hash);
    if (k->bytes || !create) {
        *out = k->bytes ? k : NULL;
        return COMB_OK;
    }
    if (2 * (u->n + 1) > u->cap) {
        if ((rc = grow(u, err)))
            return rc;
        k = slot_of(u->slots, u->cap, u->key.data, (uint32_t)u->key.len,
                    hash);
    }
    uint8_t *bytes = comb_arena_alloc(&u->arena, u->key.len ? u->key.len : 1);
    if (!bytes)
        return comb_err_nomem(err);
    memcpy(bytes, u->key.data, u->key.len);
    *k = (UpKey){bytes, (uint32_t)u->key.len, hash, false, 0, 0};
    u->n++;
    *out = k;
    return COMB_OK;
}

static int add_event(StreamUpsert *u, int64_t owid, int32_t prop,
                     int64_t row_id, CombErr *err)
{
    if (u->n_events == u->cap_events) {
        size_t cap = u->cap_events ? u->cap_events * 2 : 256;
        UpEvent *v = comb_realloc(u->events, cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        u->events = v;
        u->cap_events = cap;
    }
    u->events[u->n_events++] = (UpEvent){owid, prop, row_id};
    return COMB_OK;
}

/* ---------------------------------------------------------------- note */

int stream_upsert_note(CombStream *s, StreamPart *p, const CombBatch *rows,
                       bool deleting, CombErr *err)
{
    int64_t wid = s->writeids[s->cur];
    int n = comb_batch_live(rows), rc;
    StreamUpsert *u = NULL;
    if ((rc = upsert_get(p, &u, err)))
        return rc;
    /* the writer numbers each bucket's rows of a call in row order */
    for (int i = 0; i < n; i++)
        u->bucket_rows[s->buckets[comb_batch_row(rows, i)]] = 0;
    for (int i = 0; i < n && !rc; i++) {
        int row = comb_batch_row(rows, i), bucket = s->buckets[row];
        UpKey *k;
        if ((rc = encode_key(s, u, rows, row, err)) ||
            (rc = key_entry(u, true, &k, err)))
            break;
        if (k->has_row) /* the txn's own earlier row of the key */
            rc = add_event(u, wid, k->prop, k->row_id, err);
        k->has_row = !deleting;
        if (!deleting && !rc) {
            rc = acid_bucket_encode(bucket, 0, &k->prop, err);
            k->row_id = (p->w ? acid_writer_next_row_id(p->w, bucket) : 0) +
                        u->bucket_rows[bucket]++;
        }
    }
    return rc;
}

/* ---------------------------------------------------------------- flush */

/* Delete events for the committed rows of the txn's keys. */
static int scan_replaced(CombStream *s, StreamPart *p, StreamUpsert *u,
                         CombErr *err)
{
    int64_t wid = s->writeids[s->cur];
    CombTxnList txns = {0};
    CombWriteIdList wil = {0};
    AcidReaderOptions opt = {0};
    AcidReader *r = NULL;
    CombBatch b = {0};
    bool have_batch = false;
    bool *project = comb_calloc((size_t)s->schema.n_cols + 1, sizeof *project);
    int rc = project ? COMB_OK : comb_err_nomem(err);
    for (int i = 0; project && i < s->n_key_cols; i++)
        project[s->key_cols[i]] = true;
    opt.project = project;
    opt.want_row_id = true;
    /* a reader's snapshot: the txn itself is open in it, so its own
     * unfinished files are not read */
    if (!rc)
        rc = ms_txn_snapshot(s->ms, 0, &txns, err);
    if (!rc)
        rc = ms_writeid_list(s->ms, &txns, s->db, s->name, &wil, err);
    if (!rc)
        rc = acid_reader_open(p->dir, &s->schema, &wil, &txns, &opt, &r, err);
    if (!rc && !(rc = acid_reader_batch_init(r, &b) ? comb_err_nomem(err) : 0))
        have_batch = true;
    const CombVector *ids = have_batch ? &b.cols[s->schema.n_cols] : NULL;
    while (!rc && !(rc = acid_reader_next(r, &b, err)) && b.n_rows > 0) {
        for (int i = 0; i < comb_batch_live(&b) && !rc; i++) {
            int row = comb_batch_row(&b, i);
            int64_t owid = ids[ACID_COL_WRITEID].i64[row];
            UpKey *k;
            if (owid == wid) /* the txn's own rows: handled by note */
                continue;
            if ((rc = encode_key(s, u, &b, row, err)) ||
                (rc = key_entry(u, false, &k, err)) || !k)
                continue;
            rc = add_event(u, owid, (int32_t)ids[ACID_COL_BUCKET].i64[row],
                           ids[ACID_COL_ROWID].i64[row], err);
        }
    }
    if (have_batch)
        comb_batch_free(&b);
    acid_reader_close(r);
    comb_writeidlist_free(&wil);
    comb_idlist_free(&txns);
    comb_free(project);
    return rc;
}

/* The events into the txn's writer (a txn of deletes alone makes it). */
static int write_events(CombStream *s, StreamPart *p, StreamUpsert *u,
                        CombErr *err)
{
    int rc = stream_part_writer(s, p, err);
    for (size_t i = 0; !rc && i < u->n_events; i++)
        rc = acid_writer_delete(p->w, u->events[i].owid, u->events[i].prop,
                                u->events[i].row_id, err);
    return rc;
}

int stream_upsert_flush(CombStream *s, StreamPart *p, int64_t *n_deleted,
                        CombErr *err)
{
    StreamUpsert *u = p->up;
    int rc;
    *n_deleted = 0;
    if (!u || u->n == 0)
        return COMB_OK;
    if ((rc = scan_replaced(s, p, u, err)))
        return rc;
    if (u->n_events == 0)
        return COMB_OK;
    if ((rc = write_events(s, p, u, err)))
        return rc;
    *n_deleted = (int64_t)u->n_events;
    return COMB_OK;
}

void stream_upsert_reset(StreamPart *p)
{
    StreamUpsert *u = p->up;
    if (!u)
        return;
    comb_arena_reset(&u->arena);
    if (u->slots)
        memset(u->slots, 0, u->cap * sizeof *u->slots);
    u->n = 0;
    u->n_events = 0;
}

void stream_upsert_free(StreamPart *p)
{
    StreamUpsert *u = p->up;
    if (!u)
        return;
    comb_arena_free(&u->arena);
    comb_free(u->slots);
    comb_free(u->events);
    comb_buf_free(&u->key);
    comb_free(u->bucket_rows);
    comb_free(u);
    p->up = NULL;
}
