/*
 * fs_s3.c - fs_s3.h: files and directories as S3 objects and prefixes.
 */
#include "fs/fs_s3.h"

#include <curl/curl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/s3.h"

#define LIST_PAGE 1000  /* DeleteObjects takes at most 1000 keys */
#define TAIL_KEEP ((size_t)1 << 20)
/* What a statement's cache may hold of file tails in all */
#define TAIL_CACHE_MAX ((size_t)64 << 20)
/* Threads of one fs_s3_prefetch_tails, at most */
#define PREFETCH_WIDTH 16

/* "s3a://bucket/key" taken apart (bucket and key in one malloc'ed copy). */
typedef struct Loc {
    char *mem;
    const char *bucket;
    const char *key;            /* no leading '/', no trailing '/' */
} Loc;

struct FsS3File {
    Loc loc;
    char *path;                 /* reading: as opened, the cache's key */
    bool writing;
    /* reading */
    uint64_t size, pos;
    int64_t mtime_ns;
    /* writing: bytes not yet sent, and the multipart upload once begun */
    CombBuf pending;
    char *upload_id;
    char **etags;
    int n_parts, cap_parts;
};

bool fs_s3_is_remote(const char *path)
{
    return !strncmp(path, "s3a://", 6) || !strncmp(path, "s3://", 5);
}

int fs_s3_configure(const char *name, const char *value, CombErr *err)
{
    return s3_configure(name, value, err);
}

static int parse_loc(const char *path, Loc *l, CombErr *err)
{
    const char *p = strstr(path, "://");
    size_t n;
    memset(l, 0, sizeof *l);
    if (!p || !fs_s3_is_remote(path) || !p[3] || p[3] == '/')
        return comb_err(err, COMB_EINVALID, "'%s' is not an object-store "
                        "location (s3a://bucket/key)", path);
    if (!(l->mem = comb_strdup(p + 3)))
        return comb_err_nomem(err);
    n = strcspn(l->mem, "/");
    l->bucket = l->mem;
    l->key = l->mem[n] ? l->mem + n + 1 : "";
    l->mem[n] = '\0';
    for (size_t k = strlen(l->key); k && l->key[k - 1] == '/'; k--)
        ((char *)l->key)[k - 1] = '\0';
    return COMB_OK;
}

static void free_loc(Loc *l)
{
    comb_free(l->mem);
    l->mem = NULL;
}

/* The prefix of everything under a directory: "key/" ("" for the
 * bucket). */
static char *dir_prefix(const Loc *l)
{
    size_t n = strlen(l->key);
    char *p = comb_malloc(n + 2);
    if (p)
        snprintf(p, n + 2, "%s%s", l->key, n ? "/" : "");
    return p;
}

/* ------------------------------------------------------------ cache */

/* What a statement learnt of the store (fs_s3_remember): listings, stats
 * and file tails, so that a table's directories are listed once however
 * many readers (parallel copies, delete deltas) walk them, and a stat of
 * a listed entry costs no request.  Anything this process changes on the
 * store empties it. */
typedef struct Listing Listing;
static void listing_free(Listing *l);

typedef struct Cached {
    struct Cached *next;        /* all of them */
    struct Cached *hnext;       /* the same slot of cache_slots */
    char *path;
    Listing *listing;
    bool has_stat;
    FsS3Stat st;
    unsigned char *tail;
    uint64_t tail_off;
    size_t tail_len;
    bool tail_fetching;         /* a thread is fetching it: wait */
} Cached;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tail_fetched = PTHREAD_COND_INITIALIZER;
static bool cache_on;
static Cached *cache_head;
static Cached **cache_slots;    /* by path_hash, a power of two of them */
static size_t cache_n_slots, cache_count;
static size_t tail_bytes;       /* of all cached tails */
static uint64_t cache_gen;      /* how many times it was cleared */
/* Held while what the cache lacks is fetched: parallel readers of one
 * table start together, and the second waits for the first's answer
 * instead of asking the same question. */
static pthread_mutex_t fetch_lock = PTHREAD_MUTEX_INITIALIZER;

/* Take fetch_lock when a cache is active; true when taken. */
static bool fetch_begin(void)
{
    bool on;
    pthread_mutex_lock(&cache_lock);
    on = cache_on;
    pthread_mutex_unlock(&cache_lock);
    if (on)
        pthread_mutex_lock(&fetch_lock);
    return on;
}

static void fetch_end(bool taken)
{
    if (taken)
        pthread_mutex_unlock(&fetch_lock);
}

static void listing_unref_locked(Listing *l);

static void cache_clear_locked(void)
{
    while (cache_head) {
        Cached *c = cache_head;
        cache_head = c->next;
        if (c->listing)
            listing_unref_locked(c->listing);
        tail_bytes -= c->tail ? c->tail_len : 0;
        comb_free(c->tail);
        comb_free(c->path);
        comb_free(c);
    }
    if (cache_slots)
        memset(cache_slots, 0, cache_n_slots * sizeof *cache_slots);
    cache_count = 0;
    cache_gen++;
}

void fs_s3_remember(bool on)
{
    pthread_mutex_lock(&cache_lock);
    cache_clear_locked();
    cache_on = on;
    pthread_mutex_unlock(&cache_lock);
}

static void cache_changed(void)
{
    pthread_mutex_lock(&cache_lock);
    if (cache_head)
        cache_clear_locked();
    pthread_mutex_unlock(&cache_lock);
}

/* FNV-1a of the first n bytes of path. */
static uint64_t path_hash(const char *path, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)path[i]) * 1099511628211ull;
    return h;
}

/* The entry of the first n bytes of path, or NULL. */
static Cached *cache_lookup_locked(const char *path, size_t n)
{
    if (!cache_n_slots)
        return NULL;
    for (Cached *c = cache_slots[path_hash(path, n) & (cache_n_slots - 1)]; c;
         c = c->hnext)
        if (!strncmp(c->path, path, n) && !c->path[n])
            return c;
    return NULL;
}

/* Room for one more entry without long chains; false when out of
 * memory. */
static bool cache_room_locked(void)
{
    size_t n = cache_n_slots ? cache_n_slots * 2 : 256;
    Cached **slots;
    if (cache_count < cache_n_slots)
        return true;
    if (!(slots = comb_calloc(n, sizeof *slots)))
        return false;
    for (Cached *c = cache_head; c; c = c->next) {
        size_t k = path_hash(c->path, strlen(c->path)) & (n - 1);
        c->hnext = slots[k];
        slots[k] = c;
    }
    comb_free(cache_slots);
    cache_slots = slots;
    cache_n_slots = n;
    return true;
}

static Cached *cache_find_locked(const char *path, bool make)
{
    size_t n = strlen(path);
    Cached *c = cache_lookup_locked(path, n);
    if (c || !make || !cache_on || !cache_room_locked() ||
        !(c = comb_calloc(1, sizeof *c)))
        return c;
    if (!(c->path = comb_strdup(path))) {
        comb_free(c);
        return NULL;
    }
    size_t k = path_hash(path, n) & (cache_n_slots - 1);
    c->next = cache_head;
    cache_head = c;
    c->hnext = cache_slots[k];
    cache_slots[k] = c;
    cache_count++;
    return c;
}

static bool tail_covers(const Cached *c, size_t n, uint64_t off)
{
    return c->tail && off >= c->tail_off && off - c->tail_off <= c->tail_len &&
           n <= c->tail_len - (off - c->tail_off);
}

/* n bytes at off of path's tail from the cache into dst (unless NULL);
 * a fetch of it in flight is waited for.  False when the cache lacks
 * them; *mine then says whether the caller is to fetch them and hand
 * them to tail_done with *gen (false: no cache, the caller just reads). */
static bool tail_wait(const char *path, void *dst, size_t n, uint64_t off,
                      bool *mine, uint64_t *gen)
{
    bool hit = false;
    *mine = false;
    *gen = 0;
    pthread_mutex_lock(&cache_lock);
    for (;;) {
        Cached *c = cache_find_locked(path, true);
        if (c && tail_covers(c, n, off)) {
            if (dst)
                memcpy(dst, c->tail + (off - c->tail_off), n);
            hit = true;
            break;
        }
        if (!c || !c->tail_fetching) {
            if (c)
                c->tail_fetching = *mine = true;
            *gen = cache_gen;
            break;
        }
        pthread_cond_wait(&tail_fetched, &cache_lock);
    }
    pthread_mutex_unlock(&cache_lock);
    return hit;
}

/* The fetch tail_wait asked for is over: src (NULL when it failed) is
 * kept while the cache has room, and the waiters wake.  Not when the
 * cache was cleared meanwhile (gen): the file may have changed since. */
static void tail_done(const char *path, const void *src, size_t n,
                      uint64_t off, uint64_t gen)
{
    pthread_mutex_lock(&cache_lock);
    Cached *c = gen == cache_gen ? cache_find_locked(path, false) : NULL;
    if (c)
        c->tail_fetching = false;
    unsigned char *copy = c && src && tail_bytes + n <= TAIL_CACHE_MAX
                              ? comb_malloc(n ? n : 1) : NULL;
    if (copy) {
        memcpy(copy, src, n);
        tail_bytes -= c->tail ? c->tail_len : 0;
        comb_free(c->tail);
        c->tail = copy;
        c->tail_off = off;
        c->tail_len = n;
        tail_bytes += n;
    }
    pthread_cond_broadcast(&tail_fetched);
    pthread_mutex_unlock(&cache_lock);
}

/* ------------------------------------------------------------ writing */

int fs_s3_create(const char *path, FsS3File **out, CombErr *err)
{
    FsS3File *f = comb_calloc(1, sizeof *f);
    int rc;
    if (!f)
        return comb_err_nomem(err);
    if ((rc = parse_loc(path, &f->loc, err))) {
        comb_free(f);
        return rc;
    }
    if (!f->loc.key[0]) {
        free_loc(&f->loc);
        comb_free(f);
        return comb_err(err, COMB_EINVALID, "cannot create '%s': it names a "
                        "bucket, not a file", path);
    }
    f->writing = true;
    *out = f;
    return COMB_OK;
}

static int upload_begin(FsS3File *f, CombErr *err)
{
    S3Request rq = {.method = "POST", .bucket = f->loc.bucket,
                    .key = f->loc.key, .query = "uploads=",
                    .what = "start the upload of"};
    S3Response r;
    int rc = s3_perform(&rq, false, &r, err);
    if (rc)
        return rc;
    f->upload_id = s3_xml_text(&r.body, "UploadId");
    comb_buf_free(&r.body);
    if (!f->upload_id)
        return comb_err(err, COMB_EIO, "cannot start the upload of "
                        "'s3a://%s/%s': the answer names no UploadId",
                        f->loc.bucket, f->loc.key);
    return COMB_OK;
}

static int upload_part(FsS3File *f, const void *p, size_t n, CombErr *err)
{
    char *esc = curl_escape(f->upload_id, 0), query[1024], *etag;
    S3Request rq = {.method = "PUT", .bucket = f->loc.bucket,
                    .key = f->loc.key, .query = query, .body = p,
                    .body_len = n, .what = "upload a part of"};
    S3Response r;
    int rc;
    if (!esc)
        return comb_err_nomem(err);
    snprintf(query, sizeof query, "partNumber=%d&uploadId=%s", f->n_parts + 1,
             esc);
    curl_free(esc);
    if (f->n_parts == f->cap_parts) {
        int cap = f->cap_parts ? f->cap_parts * 2 : 8;
        char **v = comb_realloc(f->etags, (size_t)cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        f->etags = v;
        f->cap_parts = cap;
    }
    if ((rc = s3_perform(&rq, false, &r, err)))
        return rc;
    comb_buf_free(&r.body);
    if (!(etag = comb_strdup(r.etag)))
        return comb_err_nomem(err);
    f->etags[f->n_parts++] = etag;
    return COMB_OK;
}

/* Send whole parts of what is pending (all of it when last). */
static int send_parts(FsS3File *f, bool last, CombErr *err)
{
    uint64_t part = s3_part_size();
    size_t done = 0;
    int rc = COMB_OK;
    if (!f->upload_id && (rc = upload_begin(f, err)))
        return rc;
    while (!rc && (f->pending.len - done >= part ||
                   (last && f->pending.len > done))) {
        size_t n = f->pending.len - done < part ? f->pending.len - done
                                                : (size_t)part;
        rc = upload_part(f, f->pending.data + done, n, err);
        done += n;
    }
    memmove(f->pending.data, f->pending.data + done, f->pending.len - done);
    f->pending.len -= done;
    return rc;
}

int fs_s3_write(FsS3File *f, const void *p, size_t n, CombErr *err)
{
    if (comb_buf_append(&f->pending, p, n))
        return comb_err_nomem(err);
    return f->pending.len >= 2 * s3_part_size() ? send_parts(f, false, err)
                                                : COMB_OK;
}

/* <CompleteMultipartUpload> naming every part, built by libxml2. */
static int complete_body(const FsS3File *f, xmlChar **out, int *len)
{
    xmlDoc *doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNode *root = doc ? xmlNewNode(NULL, BAD_CAST "CompleteMultipartUpload")
                        : NULL;
    bool ok = root != NULL;
    if (ok)
        xmlDocSetRootElement(doc, root);
    for (int i = 0; ok && i < f->n_parts; i++) {
        char num[16];
        xmlNode *part = xmlNewChild(root, NULL, BAD_CAST "Part", NULL);
        snprintf(num, sizeof num, "%d", i + 1);
        ok = part && xmlNewTextChild(part, NULL, BAD_CAST "PartNumber",
                                     BAD_CAST num) &&
             xmlNewTextChild(part, NULL, BAD_CAST "ETag",
                             BAD_CAST f->etags[i]);
    }
    *out = NULL;
    if (ok)
        xmlDocDumpMemory(doc, out, len);
    xmlFreeDoc(doc);
    return *out ? COMB_OK : COMB_ENOMEM;
}

/* A request that changes the store: the cache forgets what it knew, and
 * when named_key is given, a 200 answer whose body carries an error Code
 * fails too (CompleteMultipartUpload, DeleteObjects and CopyObject answer
 * so), naming that key. */
static int perform_change(const S3Request *rq, bool allow_404,
                          const char *named_key, CombErr *err)
{
    S3Response r;
    int rc = s3_perform(rq, allow_404, &r, err);
    cache_changed();
    if (rc)
        return rc;
    char *code = named_key ? s3_xml_text(&r.body, "Code") : NULL;
    if (code)
        rc = comb_err(err, COMB_EIO, "cannot %s 's3a://%s/%s': %s", rq->what,
                      rq->bucket, named_key, code);
    free(code);
    comb_buf_free(&r.body);
    return rc;
}

static int upload_complete(FsS3File *f, CombErr *err)
{
    char *esc = curl_escape(f->upload_id, 0), query[1024];
    xmlChar *body = NULL;
    int len = 0, rc;
    if (!esc || complete_body(f, &body, &len)) {
        curl_free(esc);
        return comb_err_nomem(err);
    }
    snprintf(query, sizeof query, "uploadId=%s", esc);
    curl_free(esc);
    S3Request rq = {.method = "POST", .bucket = f->loc.bucket,
                    .key = f->loc.key, .query = query, .body = body,
                    .body_len = (size_t)len, .what = "complete the upload of"};
    rc = perform_change(&rq, false, f->loc.key, err);
    xmlFree(body);
    return rc;
}

static void upload_abort(FsS3File *f)
{
    char *esc = f->upload_id ? curl_escape(f->upload_id, 0) : NULL;
    char query[1024];
    S3Response r;
    CombErr ignored;
    if (!esc)
        return;
    snprintf(query, sizeof query, "uploadId=%s", esc);
    curl_free(esc);
    S3Request rq = {.method = "DELETE", .bucket = f->loc.bucket,
                    .key = f->loc.key, .query = query,
                    .what = "abort the upload of"};
    if (s3_perform(&rq, true, &r, &ignored) == COMB_OK)
        comb_buf_free(&r.body);
}

static void free_file(FsS3File *f)
{
    for (int i = 0; i < f->n_parts; i++)
        comb_free(f->etags[i]);
    comb_free(f->etags);
    free(f->upload_id);
    comb_buf_free(&f->pending);
    free_loc(&f->loc);
    comb_free(f->path);
    comb_free(f);
}

static int put_object(const Loc *l, const void *p, size_t n, CombErr *err)
{
    S3Request rq = {.method = "PUT", .bucket = l->bucket, .key = l->key,
                    .body = p, .body_len = n, .what = "write"};
    return perform_change(&rq, false, NULL, err);
}

int fs_s3_commit(FsS3File *f, CombErr *err)
{
    int rc;
    if (!f->upload_id)
        rc = put_object(&f->loc, f->pending.data, f->pending.len, err);
    else if (!(rc = send_parts(f, true, err)))
        rc = upload_complete(f, err);
    if (rc)
        upload_abort(f);
    free_file(f);
    return rc;
}

void fs_s3_discard(FsS3File *f)
{
    if (f->writing)
        upload_abort(f);
    free_file(f);
}

/* ------------------------------------------------------------ reading */

static int stat_loc(const char *path, const Loc *l, FsS3Stat *st,
                    CombErr *err);

/* HEAD of one key: *found, size and time. */
static int head(const Loc *l, const char *key, bool *found, uint64_t *size,
                int64_t *mtime_ns, CombErr *err)
{
    S3Request rq = {.method = "HEAD", .bucket = l->bucket, .key = key,
                    .what = "examine"};
    S3Response r;
    int rc = s3_perform(&rq, true, &r, err);
    if (rc)
        return rc;
    comb_buf_free(&r.body);
    *found = r.status != 404;
    *size = r.length;
    *mtime_ns = r.mtime_ns;
    return COMB_OK;
}

int fs_s3_open_read(const char *path, FsS3File **out, CombErr *err)
{
    FsS3File *f = comb_calloc(1, sizeof *f);
    FsS3Stat st = {0};
    int rc;
    if (!f)
        return comb_err_nomem(err);
    if (!(rc = parse_loc(path, &f->loc, err)) &&
        !(rc = stat_loc(path, &f->loc, &st, err)) && (!st.exists || st.is_dir))
        rc = comb_err(err, st.exists ? COMB_EIO : COMB_ENOTFOUND,
                      "cannot open '%s': %s", path,
                      st.exists ? "it is a directory" : "it does not exist");
    f->size = st.size;
    f->mtime_ns = st.mtime_ns;
    if (!rc && !(f->path = comb_strdup(path)))
        rc = comb_err_nomem(err);
    if (rc) {
        free_file(f);
        return rc;
    }
    *out = f;
    return COMB_OK;
}

uint64_t fs_s3_size(const FsS3File *f)
{
    return f->size;
}

int64_t fs_s3_mtime_ns(const FsS3File *f)
{
    return f->mtime_ns;
}

int fs_s3_pread(FsS3File *f, void *p, size_t n, uint64_t off, CombErr *err)
{
    S3Request rq = {.method = "GET", .bucket = f->loc.bucket,
                    .key = f->loc.key, .range_off = off, .range_len = n,
                    .dst = p, .what = "read"};
    S3Response r;
    int rc;
    if (n == 0)
        return COMB_OK;
    if (off > f->size || n > f->size - off)
        return comb_err(err, COMB_ECORRUPT, "corrupt file 's3a://%s/%s': "
                        "unexpected end of file", f->loc.bucket, f->loc.key);
    /* the ORC tail: every reader of the file starts with it */
    bool tail = off + n == f->size && n <= TAIL_KEEP, mine = false;
    uint64_t gen = 0;
    if (tail && tail_wait(f->path, p, n, off, &mine, &gen))
        return COMB_OK;
    rc = s3_perform(&rq, false, &r, err);
    if (mine)
        tail_done(f->path, !rc && r.got == n ? p : NULL, n, off, gen);
    if (rc)
        return rc;
    comb_buf_free(&r.body);
    if (r.got != n)
        return comb_err(err, COMB_EIO, "cannot read 's3a://%s/%s': %zu of "
                        "%zu bytes at %llu came", f->loc.bucket, f->loc.key,
                        r.got, n, (unsigned long long)off);
    return COMB_OK;
}

int fs_s3_read_some(FsS3File *f, void *p, size_t n, size_t *got,
                    CombErr *err)
{
    uint64_t left = f->size - f->pos;
    size_t k = n < left ? n : (size_t)left;
    int rc = fs_s3_pread(f, p, k, f->pos, err);
    if (rc)
        return rc;
    f->pos += k;
    *got = k;
    return COMB_OK;
}

/* ------------------------------------------------------------ listing */

/* One page of ListObjectsV2 under prefix (delimiter '/' when `children`),
 * calling `each` for every key and common prefix; *token gets the next
 * page's continuation (NULL at the end). */
typedef int (*ListFn)(void *ctx, const char *name, bool is_prefix,
                      uint64_t size, int64_t mtime_ns, CombErr *err);

static int list_query(CURL *h, const char *prefix, bool children,
                      const char *token, int max, CombBuf *q)
{
    char *p = curl_easy_escape(h, prefix, 0);
    char *t = token ? curl_easy_escape(h, token, 0) : NULL;
    char buf[64];
    int rc = !p || (token && !t);
    /* parameters in the order of their names, as signing wants them */
    if (!rc && token)
        rc = comb_buf_append(q, "continuation-token=", 19) ||
             comb_buf_append(q, t, strlen(t)) || comb_buf_append(q, "&", 1);
    if (!rc && children)
        rc = comb_buf_append(q, "delimiter=%2F&", 14);
    snprintf(buf, sizeof buf, "list-type=2&max-keys=%d&prefix=", max);
    if (!rc)
        rc = comb_buf_append(q, buf, strlen(buf)) ||
             comb_buf_append(q, p, strlen(p)) || comb_buf_append(q, "", 1);
    curl_free(p);
    curl_free(t);
    return rc ? COMB_ENOMEM : COMB_OK;
}

static const char *child_text(const xmlNode *n, const char *name)
{
    for (const xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE &&
            !strcmp((const char *)c->name, name) && c->children &&
            c->children->type == XML_TEXT_NODE)
            return (const char *)c->children->content;
    return NULL;
}

/* "2026-12-03T11:39:47.000Z" in whole seconds, as HEAD's Last-Modified
 * gives it, so that a file's version reads the same either way. */
static int64_t iso_time_ns(const char *t)
{
    struct tm tm = {0};
    if (!t || sscanf(t, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon,
                     &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (int64_t)timegm(&tm) * 1000000000;
}

static int walk_page(const CombBuf *body, ListFn each, void *ctx,
                     char **token, CombErr *err)
{
    xmlDoc *doc = xmlReadMemory((const char *)body->data, (int)body->len, NULL,
                                NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING);
    const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    const char *truncated, *next;
    int rc = COMB_OK;
    *token = NULL;
    if (!root) {
        xmlFreeDoc(doc);
        return comb_err(err, COMB_EIO, "the object store's listing is not "
                        "XML");
    }
    for (const xmlNode *c = root->children; c && !rc; c = c->next) {
        const char *name = (const char *)c->name, *v;
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!strcmp(name, "Contents") && (v = child_text(c, "Key"))) {
            const char *size = child_text(c, "Size");
            rc = each(ctx, v, false, size ? strtoull(size, NULL, 10) : 0,
                      iso_time_ns(child_text(c, "LastModified")), err);
        } else if (!strcmp(name, "CommonPrefixes") &&
                   (v = child_text(c, "Prefix"))) {
            rc = each(ctx, v, true, 0, 0, err);
        }
    }
    truncated = child_text(root, "IsTruncated");
    next = child_text(root, "NextContinuationToken");
    if (!rc && truncated && !strcmp(truncated, "true") && next &&
        !(*token = strdup(next)))
        rc = comb_err_nomem(err);
    xmlFreeDoc(doc);
    return rc;
}

/* Every key (or child, with children) under prefix, page by page. */
static int list_all(const Loc *l, const char *prefix, bool children,
                    ListFn each, void *ctx, CombErr *err)
{
    CURL *h = curl_easy_init();
    char *token = NULL;
    int rc = h ? COMB_OK : comb_err_nomem(err);
    do {
        CombBuf q = COMB_BUF_INIT;
        S3Response r;
        char *next = NULL;
        if (!rc && list_query(h, prefix, children, token, LIST_PAGE, &q))
            rc = comb_err_nomem(err);
        S3Request rq = {.method = "GET", .bucket = l->bucket, .key = "",
                        .query = (const char *)q.data, .what = "list"};
        if (!rc && !(rc = s3_perform(&rq, false, &r, err))) {
            rc = walk_page(&r.body, each, ctx, &next, err);
            comb_buf_free(&r.body);
        }
        comb_buf_free(&q);
        free(token);
        token = next;
    } while (!rc && token);
    free(token);
    curl_easy_cleanup(h);
    return rc;
}

/* A directory's entries, malloc'ed so that the statement cache can keep
 * them. */
typedef struct Entry {
    char *name;
    bool is_dir;
    uint64_t size;
    int64_t mtime_ns;
} Entry;

typedef struct Listing {
    Entry *v;
    int n, cap;
    int refs;                   /* the cache's and its readers' */
    bool any;                   /* the directory exists (marker or keys) */
} Listing;

typedef struct Names {
    Listing *l;
    size_t plen;
} Names;

static void listing_free(Listing *l)
{
    for (int i = 0; i < l->n; i++)
        comb_free(l->v[i].name);
    comb_free(l->v);
    comb_free(l);
}

static int add_name(void *ctx, const char *key, bool is_prefix,
                    uint64_t size, int64_t mtime_ns, CombErr *err)
{
    Names *s = ctx;
    Listing *l = s->l;
    size_t len = strlen(key) - s->plen;
    l->any = true;
    if (len == 0)
        return COMB_OK; /* the directory's own marker */
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        Entry *v = comb_realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        l->v = v;
        l->cap = cap;
    }
    len -= is_prefix;
    if (!(l->v[l->n].name = comb_malloc(len + 1)))
        return comb_err_nomem(err);
    memcpy(l->v[l->n].name, key + s->plen, len);
    l->v[l->n].name[len] = '\0';
    l->v[l->n].is_dir = is_prefix;
    l->v[l->n].size = size;
    l->v[l->n].mtime_ns = mtime_ns;
    l->n++;
    return COMB_OK;
}

/* Entries come back in key order, which is strcmp order except that a
 * prefix "a/" sorts after a key "a-b": one insertion pass restores it. */
static void sort_entries(Listing *l)
{
    for (int i = 1; i < l->n; i++)
        for (int j = i; j > 0 && strcmp(l->v[j - 1].name, l->v[j].name) > 0;
             j--) {
            Entry t = l->v[j];
            l->v[j] = l->v[j - 1];
            l->v[j - 1] = t;
        }
}

static void listing_unref_locked(Listing *l)
{
    if (--l->refs == 0)
        listing_free(l);
}

static void cache_release_listing(Listing *l)
{
    pthread_mutex_lock(&cache_lock);
    listing_unref_locked(l);
    pthread_mutex_unlock(&cache_lock);
}

static Listing *cache_listing(const char *path)
{
    Listing *l;
    pthread_mutex_lock(&cache_lock);
    Cached *c = cache_find_locked(path, false);
    if ((l = c ? c->listing : NULL))
        l->refs++;
    pthread_mutex_unlock(&cache_lock);
    return l;
}

/* The caller's reference to l, and the cache's when one is active. */
static Listing *cache_keep_listing(const char *path, Listing *l)
{
    l->refs = 1;
    pthread_mutex_lock(&cache_lock);
    Cached *c = cache_find_locked(path, true);
    if (c) {
        if (c->listing)
            listing_unref_locked(c->listing);
        c->listing = l;
        l->refs++;
    }
    pthread_mutex_unlock(&cache_lock);
    return l;
}

static int entry_cmp(const void *key, const void *e)
{
    return strcmp(key, ((const Entry *)e)->name);
}

/* A stat the cache can answer: kept, or read off the parent's listing. */
static bool cache_stat(const char *path, FsS3Stat *st)
{
    const char *slash = strrchr(path, '/');
    const char *auth = strstr(path, "://");
    bool hit = false;
    pthread_mutex_lock(&cache_lock);
    Cached *c = cache_find_locked(path, false), *p = NULL;
    if (c && c->has_stat) {
        *st = c->st;
        hit = true;
    } else if (auth && slash > auth + 2 && slash[1]) {
        p = cache_lookup_locked(path, (size_t)(slash - path));
    }
    if (p && p->listing) {
        const Entry *e = p->listing->n
                             ? bsearch(slash + 1, p->listing->v,
                                       (size_t)p->listing->n, sizeof *e,
                                       entry_cmp)
                             : NULL;
        memset(st, 0, sizeof *st);
        st->exists = e != NULL;
        st->is_dir = e && e->is_dir;
        st->size = e ? e->size : 0;
        st->mtime_ns = e ? e->mtime_ns : 0;
        hit = true;
    }
    pthread_mutex_unlock(&cache_lock);
    return hit;
}

static void cache_keep_stat(const char *path, const FsS3Stat *st)
{
    pthread_mutex_lock(&cache_lock);
    Cached *c = cache_find_locked(path, true);
    if (c) {
        c->has_stat = true;
        c->st = *st;
    }
    pthread_mutex_unlock(&cache_lock);
}

/* The entries of the directory path, from the statement cache or the
 * store (then kept in the cache while one is active). */
static int fetch_listing(const char *path, const Loc *loc, Listing **out,
                         CombErr *err)
{
    Listing *l;
    char *prefix;
    int rc;
    bool taken;
    if ((*out = cache_listing(path)))
        return COMB_OK;
    taken = fetch_begin();
    if ((*out = cache_listing(path))) {
        fetch_end(taken);
        return COMB_OK;
    }
    if (!(l = comb_calloc(1, sizeof *l)) || !(prefix = dir_prefix(loc))) {
        fetch_end(taken);
        comb_free(l);
        return comb_err_nomem(err);
    }
    Names s = {l, strlen(prefix)};
    rc = list_all(loc, prefix, true, add_name, &s, err);
    comb_free(prefix);
    if (rc) {
        fetch_end(taken);
        listing_free(l);
        return rc;
    }
    sort_entries(l);
    *out = cache_keep_listing(path, l);
    fetch_end(taken);
    return COMB_OK;
}

int fs_s3_list(const char *path, CombArena *arena, char ***names,
               bool **is_dir, int *n, CombErr *err)
{
    Loc loc;
    Listing *l = NULL;
    char **v = NULL;
    bool *d = NULL;
    int rc = parse_loc(path, &loc, err);
    if (!rc)
        rc = fetch_listing(path, &loc, &l, err);
    if (!rc && !l->any && loc.key[0])
        rc = comb_err(err, COMB_ENOTFOUND, "cannot open directory '%s': it "
                      "does not exist", path);
    if (!rc && (!(v = comb_arena_alloc(arena, (size_t)(l->n + 1) * sizeof *v)) ||
                !(d = comb_arena_alloc(arena, (size_t)l->n + 1))))
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < l->n; i++) {
        d[i] = l->v[i].is_dir;
        if (!(v[i] = comb_arena_strdup(arena, l->v[i].name)))
            rc = comb_err_nomem(err);
    }
    if (!rc) {
        *names = v;
        if (is_dir)
            *is_dir = d;
        *n = l->n;
    }
    if (l)
        cache_release_listing(l);
    free_loc(&loc);
    return rc;
}

/* Whether anything lies under the directory prefix (one key is enough). */
static int any_under(const Loc *l, bool *found, CombErr *err)
{
    CURL *h = curl_easy_init();
    char *prefix = dir_prefix(l);
    CombBuf q = COMB_BUF_INIT;
    S3Response r;
    int rc = h && prefix && !list_query(h, prefix, false, NULL, 1, &q)
                 ? COMB_OK
                 : comb_err_nomem(err);
    S3Request rq = {.method = "GET", .bucket = l->bucket, .key = "",
                    .query = (const char *)q.data, .what = "list"};
    if (!rc && !(rc = s3_perform(&rq, false, &r, err))) {
        char *count = s3_xml_text(&r.body, "KeyCount");
        char *key = s3_xml_text(&r.body, "Key");
        *found = count ? atoi(count) > 0 : key != NULL;
        free(count);
        free(key);
        comb_buf_free(&r.body);
    }
    comb_buf_free(&q);
    comb_free(prefix);
    curl_easy_cleanup(h);
    return rc;
}

/* The stat of path (parsed: l), through the statement cache. */
static int stat_loc(const char *path, const Loc *l, FsS3Stat *st,
                    CombErr *err)
{
    bool found = false, taken;
    int rc = COMB_OK;
    if (cache_stat(path, st))
        return COMB_OK;
    taken = fetch_begin();
    if (cache_stat(path, st)) {
        fetch_end(taken);
        return COMB_OK;
    }
    memset(st, 0, sizeof *st);
    if (l->key[0])
        rc = head(l, l->key, &found, &st->size, &st->mtime_ns, err);
    if (!rc && found) {
        st->exists = true;
    } else if (!rc && !(rc = any_under(l, &found, err)) && found) {
        st->exists = st->is_dir = true;
        st->size = 0;
        st->mtime_ns = 0;
    }
    if (!rc)
        cache_keep_stat(path, st);
    fetch_end(taken);
    return rc;
}

int fs_s3_stat(const char *path, FsS3Stat *st, CombErr *err)
{
    Loc l;
    int rc = parse_loc(path, &l, err);
    if (!rc)
        rc = stat_loc(path, &l, st, err);
    free_loc(&l);
    return rc;
}

int fs_s3_mkdir(const char *path, CombErr *err)
{
    Loc l, marker;
    char *prefix = NULL;
    int rc = parse_loc(path, &l, err);
    if (!rc && !l.key[0]) {
        free_loc(&l);
        return COMB_OK; /* a bucket is there or not; it is not made here */
    }
    if (!rc && !(prefix = dir_prefix(&l)))
        rc = comb_err_nomem(err);
    if (!rc) {
        marker = l;
        marker.key = prefix;
        rc = put_object(&marker, "", 0, err);
    }
    comb_free(prefix);
    free_loc(&l);
    return rc;
}

static int delete_key(const Loc *l, const char *key, CombErr *err)
{
    S3Request rq = {.method = "DELETE", .bucket = l->bucket, .key = key,
                    .what = "remove"};
    return perform_change(&rq, true, NULL, err);
}

int fs_s3_unlink(const char *path, CombErr *err)
{
    Loc l;
    int rc = parse_loc(path, &l, err);
    if (!rc)
        rc = delete_key(&l, l.key, err);
    free_loc(&l);
    return rc;
}

/* ------------------------------------------------------------ trees */

typedef struct Keys {
    char **v;
    int n, cap;
} Keys;

static int add_key(void *ctx, const char *key, bool is_prefix,
                   uint64_t size, int64_t mtime_ns, CombErr *err)
{
    Keys *k = ctx;
    (void)is_prefix;
    (void)size;
    (void)mtime_ns;
    if (k->n == k->cap) {
        int cap = k->cap ? k->cap * 2 : 256;
        char **v = comb_realloc(k->v, (size_t)cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        k->v = v;
        k->cap = cap;
    }
    if (!(k->v[k->n] = comb_strdup(key)))
        return comb_err_nomem(err);
    k->n++;
    return COMB_OK;
}

static void free_keys(Keys *k)
{
    for (int i = 0; i < k->n; i++)
        comb_free(k->v[i]);
    comb_free(k->v);
}

/* <Delete><Quiet>true</Quiet><Object><Key>..</Key></Object>...</Delete> */
static int delete_body(char *const *keys, int n, xmlChar **out, int *len)
{
    xmlDoc *doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNode *root = doc ? xmlNewNode(NULL, BAD_CAST "Delete") : NULL;
    bool ok = root != NULL;
    if (ok) {
        xmlDocSetRootElement(doc, root);
        ok = xmlNewTextChild(root, NULL, BAD_CAST "Quiet", BAD_CAST "true");
    }
    for (int i = 0; ok && i < n; i++) {
        xmlNode *o = xmlNewChild(root, NULL, BAD_CAST "Object", NULL);
        ok = o && xmlNewTextChild(o, NULL, BAD_CAST "Key", BAD_CAST keys[i]);
    }
    *out = NULL;
    if (ok)
        xmlDocDumpMemory(doc, out, len);
    xmlFreeDoc(doc);
    return *out ? COMB_OK : COMB_ENOMEM;
}

static int delete_batch(const Loc *l, char *const *keys, int n, CombErr *err)
{
    xmlChar *body;
    int len, rc;
    if (delete_body(keys, n, &body, &len))
        return comb_err_nomem(err);
    S3Request rq = {.method = "POST", .bucket = l->bucket, .key = "",
                    .query = "delete=", .body = body, .body_len = (size_t)len,
                    .content_md5 = true,
                    .what = "remove the batch of objects from"};
    /* removed keys may be listed too; those that could not be removed
     * come as <Error> with a Code */
    rc = perform_change(&rq, false, keys[0], err);
    xmlFree(body);
    return rc;
}

int fs_s3_remove_tree(const char *path, CombErr *err)
{
    Loc l;
    Keys k = {0};
    char *prefix = NULL;
    int rc = parse_loc(path, &l, err);
    if (!rc && !l.key[0])
        rc = comb_err(err, COMB_EINVALID, "will not remove the whole bucket "
                      "'%s'", path);
    if (!rc && !(prefix = dir_prefix(&l)))
        rc = comb_err_nomem(err);
    if (!rc)
        rc = list_all(&l, prefix, false, add_key, &k, err);
    for (int i = 0; !rc && i < k.n; i += LIST_PAGE)
        rc = delete_batch(&l, k.v + i, k.n - i < LIST_PAGE ? k.n - i
                                                           : LIST_PAGE, err);
    if (!rc)
        rc = delete_key(&l, l.key, err); /* when path is a file */
    free_keys(&k);
    comb_free(prefix);
    free_loc(&l);
    return rc;
}

/* The copy source names its key percent-encoded, but a partition's "="
 * stays as it is: S3 and MinIO decode either, some servers (s3rver) only
 * what decodeURI does, which leaves "%3D" alone. */
#define COPY_SOURCE_KEEP "/="

static int copy_key(const Loc *from, const char *from_key, const Loc *to,
                    const char *to_key, CombErr *err)
{
    CURL *h = curl_easy_init();
    CombBuf header = COMB_BUF_INIT;
    int rc = h && !comb_buf_printf(&header, "x-amz-copy-source: /%s/",
                                   from->bucket) &&
                     !s3_append_key(h, &header, from_key, COPY_SOURCE_KEEP) &&
                     !comb_buf_append(&header, "", 1)
                 ? COMB_OK
                 : comb_err_nomem(err);
    if (!rc) {
        S3Request rq = {.method = "PUT", .bucket = to->bucket, .key = to_key,
                        .header = (const char *)header.data,
                        .what = "copy to"};
        rc = perform_change(&rq, false, to_key, err);
    }
    comb_buf_free(&header);
    curl_easy_cleanup(h);
    return rc;
}

int fs_s3_copy(const char *from, const char *to, CombErr *err)
{
    Loc a, b;
    Keys k = {0};
    bool found = false;
    uint64_t size;
    int64_t mtime;
    char *pa = NULL, *pb = NULL;
    int rc = parse_loc(from, &a, err);
    if (rc)
        return rc;
    if ((rc = parse_loc(to, &b, err))) {
        free_loc(&a);
        return rc;
    }
    if (a.key[0] && !(rc = head(&a, a.key, &found, &size, &mtime, err)) &&
        found) {
        rc = copy_key(&a, a.key, &b, b.key, err);
    } else if (!rc && (!(pa = dir_prefix(&a)) || !(pb = dir_prefix(&b)))) {
        rc = comb_err_nomem(err);
    } else if (!rc && !(rc = list_all(&a, pa, false, add_key, &k, err))) {
        size_t na = strlen(pa);
        for (int i = 0; !rc && i < k.n; i++) {
            size_t len = strlen(pb) + strlen(k.v[i]) - na + 1;
            char *dst = comb_malloc(len);
            if (!dst) {
                rc = comb_err_nomem(err);
                break;
            }
            snprintf(dst, len, "%s%s", pb, k.v[i] + na);
            rc = copy_key(&a, k.v[i], &b, dst, err);
            comb_free(dst);
        }
        if (!rc && k.n == 0)
            rc = comb_err(err, COMB_ENOTFOUND, "cannot copy '%s': it does "
                          "not exist", from);
    }
    free_keys(&k);
    comb_free(pa);
    comb_free(pb);
    free_loc(&a);
    free_loc(&b);
    return rc;
}

int fs_s3_rename(const char *from, const char *to, CombErr *err)
{
    int rc = fs_s3_copy(from, to, err);
    return rc ? rc : fs_s3_remove_tree(from, err);
}

/* ------------------------------------------------------------ prefetch */

typedef struct Prefetch {
    const char *const *paths;
    int n, next;
    size_t len;
    pthread_mutex_t lock;
} Prefetch;

/* The last len bytes (all of a smaller file) of path into the cache. */
static void prefetch_one(const char *path, size_t len)
{
    Loc l;
    FsS3Stat st;
    CombErr ignored;
    S3Response r;
    bool mine;
    uint64_t gen = 0;
    if (parse_loc(path, &l, &ignored))
        return;
    if (stat_loc(path, &l, &st, &ignored) == COMB_OK && st.exists &&
        !st.is_dir && st.size > 0) {
        size_t n = st.size < len ? (size_t)st.size : len;
        uint64_t off = st.size - n;
        if (!tail_wait(path, NULL, n, off, &mine, &gen) && mine) {
            unsigned char *buf = comb_malloc(n);
            S3Request rq = {.method = "GET", .bucket = l.bucket, .key = l.key,
                            .range_off = off, .range_len = n, .dst = buf,
                            .what = "read"};
            bool ok = buf && s3_perform(&rq, false, &r, &ignored) == COMB_OK;
            if (ok)
                comb_buf_free(&r.body);
            tail_done(path, ok && r.got == n ? buf : NULL, n, off, gen);
            comb_free(buf);
        }
    }
    free_loc(&l);
}

static void *prefetch_worker(void *arg)
{
    Prefetch *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0)
            return NULL;
        prefetch_one(p->paths[i], p->len);
    }
}

void fs_s3_prefetch_tails(const char *const *paths, int n, size_t len)
{
    pthread_t tid[PREFETCH_WIDTH];
    Prefetch p = {paths, n, 0, len, PTHREAD_MUTEX_INITIALIZER};
    int width = n < PREFETCH_WIDTH ? n : PREFETCH_WIDTH, started = 0;
    bool on;
    pthread_mutex_lock(&cache_lock);
    on = cache_on;
    pthread_mutex_unlock(&cache_lock);
    if (!on || n <= 0 || len == 0 || len > TAIL_KEEP)
        return;
    /* no more than the cache keeps */
    if ((size_t)p.n > TAIL_CACHE_MAX / len)
        p.n = (int)(TAIL_CACHE_MAX / len);
    if (width > s3_max_connections())
        width = s3_max_connections();
    while (started < width - 1 &&
           pthread_create(&tid[started], NULL, prefetch_worker, &p) == 0)
        started++;
    prefetch_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.lock);
}
