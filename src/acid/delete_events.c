/*
 * delete_events.c - the delete-event set: sorted (originalTransaction,
 * bucket, rowId) keys (§6.1 of hive-acid-storage.md) loaded from delete
 * delta files and probed while data rows stream by; the writer uses the
 * same array to sort the events it writes.
 *
 * Keys take 24 bytes each; the reader holds the events of one bucket at a
 * time, the writer those of one statement (both as Hive does, §6.4).
 */
#include "acid/acid_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"

void acid_delete_set_init(AcidDeleteSet *s)
{
    memset(s, 0, sizeof *s);
}

void acid_delete_set_free(AcidDeleteSet *s)
{
    comb_free(s->keys);
    memset(s, 0, sizeof *s);
}

int acid_delete_set_add(AcidDeleteSet *s, const AcidKey *k, CombErr *err)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        AcidKey *keys = comb_realloc(s->keys, cap * sizeof *keys);
        if (!keys)
            return comb_err_nomem(err);
        s->keys = keys;
        s->cap = cap;
    }
    s->keys[s->n++] = *k;
    return COMB_OK;
}

static int cmp_key(const void *a, const void *b)
{
    return acid_key_cmp(a, b);
}

static int cmp_writer_key(const void *pa, const void *pb)
{
    const AcidKey *a = pa, *b = pb;
    if (a->writer != b->writer)
        return a->writer < b->writer ? -1 : 1;
    return acid_key_cmp(a, b);
}

/* Drop adjacent duplicates of a sorted array: one delete per row. */
static void dedupe(AcidDeleteSet *s)
{
    size_t out = 0;
    for (size_t i = 0; i < s->n; i++)
        if (out == 0 || acid_key_cmp(&s->keys[out - 1], &s->keys[i]) != 0)
            s->keys[out++] = s->keys[i];
    s->n = out;
}

/* Sorted without duplicates: what a set loaded from one delete file is. */
static bool strictly_ascending(const AcidDeleteSet *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (acid_key_cmp(&s->keys[i - 1], &s->keys[i]) >= 0)
            return false;
    return true;
}

void acid_delete_set_sort(AcidDeleteSet *s)
{
    /* the events of one delete file come sorted and distinct (every ACID
     * file is, section 6.1): a bucket with one delete delta needs neither
     * a sort nor the pass dropping duplicates */
    if (strictly_ascending(s))
        return;
    qsort(s->keys, s->n, sizeof *s->keys, cmp_key);
    dedupe(s);
}

void acid_delete_set_sort_by_writer(AcidDeleteSet *s)
{
    if (s->n > 1)
        qsort(s->keys, s->n, sizeof *s->keys, cmp_writer_key);
    dedupe(s); /* equal keys have equal writers, so they are adjacent */
}

/* First index in [lo, hi) whose key is >= k. */
static size_t lower_bound(const AcidDeleteSet *s, size_t lo, size_t hi,
                          const AcidKey *k)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (acid_key_cmp(&s->keys[mid], k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Move the cursor to the first key >= k, galloping from its position so a
 * sorted stream of probes costs O(log gap) each. */
static size_t gallop(const AcidDeleteSet *s, size_t pos, const AcidKey *k)
{
    size_t step = 1, hi;
    if (pos >= s->n || acid_key_cmp(&s->keys[pos], k) >= 0)
        return pos;
    while (pos + step < s->n && acid_key_cmp(&s->keys[pos + step], k) < 0) {
        pos += step;
        step *= 2;
    }
    hi = pos + step < s->n ? pos + step + 1 : s->n;
    return lower_bound(s, pos + 1, hi, k);
}

/* Where the keys >= k start, from the cursor when k is not below its last
 * probe (galloping forward), else by binary search over the whole set. */
static size_t cursor_seek(const AcidDeleteSet *s, const AcidDeleteCursor *c,
                          const AcidKey *k)
{
    if (!c->started || acid_key_cmp(k, &c->last) < 0)
        return lower_bound(s, 0, s->n, k);
    return gallop(s, c->pos, k);
}

bool acid_delete_set_contains(const AcidDeleteSet *s, AcidDeleteCursor *c,
                              const AcidKey *k)
{
    int at_pos;
    if (s->n == 0)
        return false;
    /* the common case of a sorted stream: the key at the cursor is still
     * above the probe (one comparison more tells the probe did not go
     * back) */
    if (c->started && c->pos < s->n &&
        (at_pos = acid_key_cmp(&s->keys[c->pos], k)) >= 0 &&
        acid_key_cmp(k, &c->last) >= 0) {
        c->last = *k;
        return at_pos == 0;
    }
    c->pos = cursor_seek(s, c, k);
    c->last = *k;
    c->started = true;
    return c->pos < s->n && acid_key_cmp(&s->keys[c->pos], k) == 0;
}

/* The cursor's rule after probes up to `last`, the set's keys before pos
 * being below it: pos is the first key not below the last probe. */
static void cursor_end(const AcidDeleteSet *s, AcidDeleteCursor *c,
                       size_t pos, const AcidKey *last)
{
    if (pos > 0 && acid_key_cmp(&s->keys[pos - 1], last) == 0)
        pos--;
    c->pos = pos;
    c->last = *last;
    c->started = true;
}

size_t acid_delete_set_span(const AcidDeleteSet *s, AcidDeleteCursor *c,
                            int64_t owid, int32_t bucket, int64_t row_lo,
                            int64_t row_hi, size_t *first)
{
    AcidKey lo = {.owid = owid, .bucket = bucket, .row_id = row_lo};
    AcidKey hi = lo;
    size_t pos, end;
    hi.row_id = row_hi;
    *first = 0;
    if (s->n == 0 || row_lo > row_hi)
        return 0;
    pos = end = cursor_seek(s, c, &lo);
    while (end < s->n && acid_key_cmp(&s->keys[end], &hi) <= 0)
        end++;
    cursor_end(s, c, end, &hi);
    *first = pos;
    return end - pos;
}

void acid_delete_set_mark_run(const AcidDeleteSet *s, AcidDeleteCursor *c,
                              int64_t owid, int32_t bucket,
                              const int64_t *row_ids, int n, uint8_t *deleted)
{
    AcidKey first = {.owid = owid, .bucket = bucket, .row_id = row_ids[0]};
    AcidKey last = first;
    size_t pos;
    int i = 0;
    if (s->n == 0 || n <= 0)
        return;
    last.row_id = row_ids[n - 1];
    if (row_ids[n - 1] - row_ids[0] == n - 1) {
        /* consecutive row ids (an insert file's are): each key of the
         * run's range names its row directly */
        size_t k = acid_delete_set_span(s, c, owid, bucket, row_ids[0],
                                        row_ids[n - 1], &pos);
        for (size_t j = pos; j < pos + k; j++)
            deleted[s->keys[j].row_id - row_ids[0]] = 1;
        return;
    }
    /* else a merge of two ascending lists of row ids: the run's and those
     * of the set's keys with the run's (owid, bucket) */
    pos = cursor_seek(s, c, &first);
    while (pos < s->n && i < n) {
        const AcidKey *k = &s->keys[pos];
        if (k->owid != owid || k->bucket != bucket)
            break; /* past the run: every later key is too */
        if (k->row_id < row_ids[i]) {
            pos++;
        } else if (k->row_id > row_ids[i]) {
            i++;
        } else {
            deleted[i++] = 1;
            pos++;
        }
    }
    cursor_end(s, c, pos, &last);
}

bool acid_delete_set_overlaps(const AcidDeleteSet *s, const AcidKey *lo,
                              const AcidKey *hi)
{
    size_t pos = lower_bound(s, 0, s->n, lo);
    return pos < s->n && acid_key_cmp(&s->keys[pos], hi) <= 0;
}

bool acid_delete_set_covers(const AcidDeleteSet *s, int64_t owid,
                            int32_t bucket, int64_t row_lo, int64_t row_hi)
{
    AcidKey lo = {.owid = owid, .bucket = bucket, .row_id = row_lo};
    AcidKey hi = lo;
    uint64_t want;
    size_t first;
    if (row_lo > row_hi)
        return false;
    want = (uint64_t)row_hi - (uint64_t)row_lo + 1; /* no overflow */
    if (want == 0 || want > s->n)
        return false; /* the whole int64 range, or more than there is */
    first = lower_bound(s, 0, s->n, &lo);
    if (s->n - first < want)
        return false;
    /* the want keys from first are distinct and >= lo: all of them are
     * <= hi iff the last one is */
    hi.row_id = row_hi;
    return acid_key_cmp(&s->keys[first + want - 1], &hi) <= 0;
}

/* Room for n more keys (a batch's: the capacity check is not made per
 * event), doubling. */
static int reserve(AcidDeleteSet *s, size_t n, CombErr *err)
{
    AcidKey *keys;
    size_t cap = s->cap ? s->cap * 2 : 1024;
    if (s->cap - s->n >= n)
        return COMB_OK;
    if (cap < s->n + n)
        cap = s->n + n;
    if (!(keys = comb_realloc(s->keys, cap * sizeof *keys)))
        return comb_err_nomem(err);
    s->keys = keys;
    s->cap = cap;
    return COMB_OK;
}

/* The bucket property `prop` of an event of the file of bucket `writer`:
 * checked once per run of equal properties. */
static int check_writer(int32_t prop, const char *path, int writer,
                        CombErr *err)
{
    int w, stmt;
    if (acid_bucket_decode(prop, &w, &stmt, err))
        return comb_err_prefix(err, "'%s': ", path);
    if (w != writer)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': delete event with bucket "
                        "property %d (writer %d) in the file of bucket %d",
                        path, (int)prop, w, writer);
    return COMB_OK;
}

bool acid_file_column_constant(const OrcReader *r, int column, int64_t *v)
{
    OrcColumnStats st;
    if (orc_reader_column_stats(r, column, &st) || !st.has_int ||
        st.has_null || st.n_values != orc_reader_n_rows(r) ||
        st.int_min != st.int_max)
        return false;
    *v = st.int_min;
    return true;
}

/* The bucket property and currentTransaction of a delete file whose
 * statistics give one value each (one writer and statement, one write
 * id: every delete file a statement writes): not decoded. */
typedef struct DeleteFileConsts {
    bool bucket_const, current_const;
    int64_t bucket, current;
} DeleteFileConsts;

/* Both constant, the events valid: every event is (owid, bucket, rowId)
 * of the decoded columns and the one property, checked once. */
static int add_constant_events(AcidDeleteSet *s, const CombBatch *b,
                               const char *path, int writer,
                               const DeleteFileConsts *k, CombErr *err)
{
    const int64_t *owid = b->cols[ACID_FIELD_OWID].i64;
    const int64_t *rid = b->cols[ACID_FIELD_ROWID].i64;
    AcidKey *out = s->keys + s->n;
    int rc;
    if ((rc = check_writer((int32_t)k->bucket, path, writer, err)))
        return rc;
    for (int row = 0; row < b->n_rows; row++)
        *out++ = (AcidKey){.owid = owid[row],
                           .bucket = (int32_t)k->bucket,
                           .row_id = rid[row],
                           .writer = writer};
    s->n = (size_t)(out - s->keys);
    return COMB_OK;
}

/* Add the valid events of one decoded batch (§6.3 rule 2, §6.4 step 2).
 * The metadata columns are never NULL (checked once per batch); write id
 * validity and the bucket property are looked at once per run of equal
 * values, as a delete file is sorted by them.  A constant column was not
 * decoded: its vector gets the value. */
static int add_batch_events(AcidDeleteSet *s, CombBatch *b, const char *path,
                            const CombWriteIdList *wil, int writer,
                            const DeleteFileConsts *k, CombErr *err)
{
    const int64_t *owid = b->cols[ACID_FIELD_OWID].i64;
    const int64_t *bkt = b->cols[ACID_FIELD_BUCKET].i64;
    const int64_t *rid = b->cols[ACID_FIELD_ROWID].i64;
    const int64_t *current = b->cols[ACID_FIELD_CURRENT].i64;
    size_t n = (size_t)b->n_rows;
    bool valid = false, checked = false;
    int32_t checked_prop = 0;
    AcidKey *out;
    int rc;
    for (int c = ACID_FIELD_OWID; c <= ACID_FIELD_CURRENT; c++) {
        const CombVector *v = &b->cols[c];
        if ((c == ACID_FIELD_BUCKET && k->bucket_const) ||
            (c == ACID_FIELD_CURRENT && k->current_const))
            continue;
        if (v->has_nulls && memchr(v->nulls, 1, n))
            return COMB_CORRUPT(err, path, "NULL in an ACID metadata column");
    }
    if ((rc = reserve(s, n, err)))
        return rc;
    if (k->bucket_const && k->current_const)
        return add_constant_events(s, b, path, writer, k, err);
    for (size_t row = 0; k->bucket_const && row < n; row++)
        b->cols[ACID_FIELD_BUCKET].i64[row] = k->bucket;
    for (size_t row = 0; k->current_const && row < n; row++)
        b->cols[ACID_FIELD_CURRENT].i64[row] = k->current;
    /* a local cursor: stores through s->keys would make the compiler
     * reload s->keys and s->n for every event */
    out = s->keys + s->n;
    for (size_t row = 0; row < n; row++) {
        if (row == 0 || current[row] != current[row - 1])
            valid = comb_idlist_is_valid(&wil->ids, current[row]);
        if (!valid)
            continue;
        if (!checked || (int32_t)bkt[row] != checked_prop) {
            if ((rc = check_writer((int32_t)bkt[row], path, writer, err))) {
                s->n = (size_t)(out - s->keys);
                return rc;
            }
            checked = true;
            checked_prop = (int32_t)bkt[row];
        }
        *out++ = (AcidKey){.owid = owid[row],
                           .bucket = (int32_t)bkt[row],
                           .row_id = rid[row],
                           .writer = writer};
    }
    s->n = (size_t)(out - s->keys);
    return COMB_OK;
}

/* Decode only the metadata columns of the key and currentTransaction,
 * the constant ones not: the `row` of a delete event is NULL and Hive 4
 * ignores its type (§1.3). */
static int select_metadata(OrcReader *r, const DeleteFileConsts *k,
                           CombArena *a, CombErr *err)
{
    int n = orc_reader_n_columns(r);
    bool *include = comb_arena_calloc(a, (size_t)n * sizeof *include);
    if (!include)
        return comb_err_nomem(err);
    include[ACID_ORC_OWID] = include[ACID_ORC_ROWID] = true;
    include[ACID_ORC_BUCKET] = !k->bucket_const;
    include[ACID_ORC_CURRENT] = !k->current_const;
    return orc_reader_select(r, include, err);
}

int acid_delete_set_load(AcidDeleteSet *s, const char *path,
                         const CombWriteIdList *wil, int writer,
                         CombErr *err)
{
    OrcReader *r = NULL;
    CombBatch b;
    CombArena tmp;
    DeleteFileConsts k;
    bool batch_ok = false;
    int rc;
    comb_arena_init(&tmp, 1024);
    rc = orc_reader_open(path, &r, err);
    if (rc)
        goto done;
    if (!acid_schema_is_acid(orc_reader_schema(r))) {
        rc = COMB_CORRUPT(err, path, "delete delta file without the ACID "
                                     "schema");
        goto done;
    }
    k.bucket_const = acid_file_column_constant(r, ACID_ORC_BUCKET, &k.bucket);
    k.current_const =
        acid_file_column_constant(r, ACID_ORC_CURRENT, &k.current);
    if (k.current_const && !comb_idlist_is_valid(&wil->ids, k.current))
        goto done; /* no event of the file is valid (§6.3) */
    if ((rc = select_metadata(r, &k, &tmp, err)))
        goto done;
    if ((rc = orc_reader_batch_init(r, &b, COMB_BATCH_SIZE))) {
        rc = comb_err_nomem(err);
        goto done;
    }
    batch_ok = true;
    for (;;) {
        if ((rc = orc_reader_next(r, &b, err)) || b.n_rows == 0)
            break;
        if ((rc = add_batch_events(s, &b, path, wil, writer, &k, err)))
            break;
    }
done:
    if (batch_ok)
        comb_batch_free(&b);
    orc_reader_close(r);
    comb_arena_free(&tmp);
    return rc;
}
