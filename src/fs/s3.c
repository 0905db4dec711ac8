/*
 * s3.c - S3 requests over libcurl: the URL (path or virtual-host style),
 * the payload hash and curl's SigV4 signing, retries, and the error an
 * S3 server answers turned into a message a user can act on.
 */
#include "fs/s3.h"

#include <curl/curl.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/alloc.h"

#define MIN_PART ((uint64_t)5 << 20)

/* The settings as set (NULL: not set; the environment may say). */
typedef struct S3Conf {
    char *endpoint, *region, *access_key, *secret_key, *token;
    int path_style;             /* -1 unset */
    int attempts;
    long timeout_ms;
    uint64_t part_size;
    int max_handles;
} S3Conf;

static pthread_mutex_t conf_lock = PTHREAD_MUTEX_INITIALIZER;
static S3Conf conf = {.path_style = -1, .attempts = 5, .timeout_ms = 60000,
                      .part_size = (uint64_t)64 << 20, .max_handles = 96};

/* A request's copy of the settings, taken under the lock. */
typedef struct Snapshot {
    char scheme[16], host[512], region[64], userpwd[1024], token[2048];
    bool path_style;
    int attempts;
    long timeout_ms;
    int max_handles;
} Snapshot;

/* Idle easy handles: reused so that connections stay open. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static CURL *pool[16];
static int pool_n;
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_setup(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    xmlInitParser();
}

/* ------------------------------------------------------------ settings */

static int parse_long(const char *name, const char *value, long lo,
                      long long *out, CombErr *err)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(value, &end, 10);
    /* Hadoop sizes may carry a unit: 64M, 128K, 1G */
    if (end != value && *end && !end[1] && strchr("kKmMgG", *end))
        v *= *end == 'k' || *end == 'K' ? 1024
             : *end == 'm' || *end == 'M' ? 1024 * 1024
                                           : 1024LL * 1024 * 1024, end++;
    if (errno || end == value || *end || v < lo)
        return comb_err(err, COMB_EINVALID, "%s: '%s' is not a whole number "
                        "of at least %ld", name, value, lo);
    *out = v;
    return COMB_OK;
}

static int set_text(char **slot, const char *value, CombErr *err)
{
    char *copy = *value ? comb_strdup(value) : NULL;
    if (*value && !copy)
        return comb_err_nomem(err);
    comb_free(*slot);
    *slot = copy;
    return COMB_OK;
}

static int configure_locked(const char *name, const char *value,
                            CombErr *err)
{
    const char *n = name + strlen("fs.s3a.");
    long long v;
    int rc;
    if (!strcasecmp(n, "endpoint"))
        return set_text(&conf.endpoint, value, err);
    if (!strcasecmp(n, "endpoint.region"))
        return set_text(&conf.region, value, err);
    if (!strcasecmp(n, "access.key"))
        return set_text(&conf.access_key, value, err);
    if (!strcasecmp(n, "secret.key"))
        return set_text(&conf.secret_key, value, err);
    if (!strcasecmp(n, "session.token"))
        return set_text(&conf.token, value, err);
    if (!strcasecmp(n, "path.style.access")) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false"))
            return comb_err(err, COMB_EINVALID, "%s: '%s' is neither true "
                            "nor false", name, value);
        conf.path_style = !strcasecmp(value, "true");
        return COMB_OK;
    }
    if (!strcasecmp(n, "attempts.maximum")) {
        if (!(rc = parse_long(name, value, 1, &v, err)))
            conf.attempts = v > 100 ? 100 : (int)v;
        return rc;
    }
    if (!strcasecmp(n, "connection.timeout")) {
        if (!(rc = parse_long(name, value, 1, &v, err)))
            conf.timeout_ms = (long)v;
        return rc;
    }
    if (!strcasecmp(n, "multipart.size")) {
        if (!(rc = parse_long(name, value, 1, &v, err)))
            conf.part_size = (uint64_t)v < MIN_PART ? MIN_PART : (uint64_t)v;
        return rc;
    }
    if (!strcasecmp(n, "connection.maximum")) {
        if (!(rc = parse_long(name, value, 1, &v, err)))
            conf.max_handles = (int)(v > 1 << 20 ? 1 << 20 : v);
        return rc;
    }
    return COMB_OK;
}

int s3_configure(const char *name, const char *value, CombErr *err)
{
    int rc;
    pthread_mutex_lock(&conf_lock);
    rc = configure_locked(name, value, err);
    pthread_mutex_unlock(&conf_lock);
    return rc;
}

uint64_t s3_part_size(void)
{
    uint64_t n;
    pthread_mutex_lock(&conf_lock);
    n = conf.part_size;
    pthread_mutex_unlock(&conf_lock);
    return n;
}

static const char *pick(const char *set, const char *env1, const char *env2)
{
    const char *v = set ? set : getenv(env1);
    if (!v && env2)
        v = getenv(env2);
    return v && *v ? v : NULL;
}

int s3_max_connections(void)
{
    pthread_mutex_lock(&conf_lock);
    int n = conf.max_handles;
    pthread_mutex_unlock(&conf_lock);
    return n;
}

static int snapshot(Snapshot *sn, CombErr *err)
{
    const char *ep, *region, *ak, *sk, *tok, *sep;
    int rc = COMB_OK;
    memset(sn, 0, sizeof *sn);
    pthread_mutex_lock(&conf_lock);
    ep = pick(conf.endpoint, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
    region = pick(conf.region, "AWS_REGION", "AWS_DEFAULT_REGION");
    ak = pick(conf.access_key, "AWS_ACCESS_KEY_ID", NULL);
    sk = pick(conf.secret_key, "AWS_SECRET_ACCESS_KEY", NULL);
    tok = pick(conf.token, "AWS_SESSION_TOKEN", NULL);
    snprintf(sn->region, sizeof sn->region, "%s", region ? region : "us-east-1");
    if (!ep)
        snprintf(sn->host, sizeof sn->host, "s3.%s.amazonaws.com", sn->region);
    sep = ep ? strstr(ep, "://") : NULL;
    snprintf(sn->scheme, sizeof sn->scheme, "%.*s", sep ? (int)(sep - ep) : 5,
             sep ? ep : "https");
    if (ep)
        snprintf(sn->host, sizeof sn->host, "%s", sep ? sep + 3 : ep);
    for (size_t n = strlen(sn->host); n && sn->host[n - 1] == '/'; n--)
        sn->host[n - 1] = '\0';
    if (!ak || !sk)
        rc = comb_err(err, COMB_EINVALID, "no credentials for the object "
                      "store: set fs.s3a.access.key and fs.s3a.secret.key "
                      "(or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
    else if ((size_t)snprintf(sn->userpwd, sizeof sn->userpwd, "%s:%s", ak,
                              sk) >= sizeof sn->userpwd ||
             (tok && strlen(tok) >= sizeof sn->token))
        rc = comb_err(err, COMB_EINVALID, "the object store's credentials "
                      "are too long");
    if (tok)
        snprintf(sn->token, sizeof sn->token, "%s", tok);
    sn->path_style = conf.path_style == 1;
    sn->attempts = conf.attempts;
    sn->timeout_ms = conf.timeout_ms;
    sn->max_handles = conf.max_handles;
    pthread_mutex_unlock(&conf_lock);
    return rc;
}

/* ------------------------------------------------------------ handles */

static CURL *handle_take(void)
{
    CURL *h = NULL;
    pthread_once(&curl_once, curl_setup);
    pthread_mutex_lock(&pool_lock);
    if (pool_n)
        h = pool[--pool_n];
    pthread_mutex_unlock(&pool_lock);
    if (h)
        curl_easy_reset(h);
    return h ? h : curl_easy_init();
}

/* Keep h for the next request, up to fs.s3a.connection.maximum idle. */
static void handle_give(CURL *h, int max_idle)
{
    pthread_mutex_lock(&pool_lock);
    if (pool_n < max_idle && pool_n < (int)(sizeof pool / sizeof *pool)) {
        pool[pool_n++] = h;
        h = NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    if (h)
        curl_easy_cleanup(h);
}

/* ------------------------------------------------------------ request */

int s3_append_key(void *h, CombBuf *url, const char *key, const char *keep)
{
    while (*key) {
        size_t n = strcspn(key, keep);
        char *part = curl_easy_escape(h, key, (int)n);
        int rc = !part || comb_buf_append(url, part, strlen(part));
        curl_free(part);
        if (rc)
            return COMB_ENOMEM;
        key += n;
        if (*key && comb_buf_append(url, key++, 1))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

static int build_url(CURL *h, const Snapshot *sn, const S3Request *rq,
                     CombBuf *url)
{
    char head[700];
    if (sn->path_style)
        snprintf(head, sizeof head, "%s://%s/%s/", sn->scheme, sn->host,
                 rq->bucket);
    else
        snprintf(head, sizeof head, "%s://%s.%s/", sn->scheme, rq->bucket,
                 sn->host);
    if (comb_buf_append(url, head, strlen(head)) ||
        s3_append_key(h, url, rq->key, "/") ||
        (rq->query && (comb_buf_append(url, "?", 1) ||
                       comb_buf_append(url, rq->query, strlen(rq->query)))) ||
        comb_buf_append(url, "", 1))
        return COMB_ENOMEM;
    return COMB_OK;
}

static void hex(const unsigned char *d, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* "x-amz-content-sha256: <hash of the body>", which S3 wants signed. */
static void payload_header(const S3Request *rq, char *out, size_t cap)
{
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    char h[2 * EVP_MAX_MD_SIZE + 1];
    EVP_Digest(rq->body ? rq->body : "", rq->body_len, d, &n, EVP_sha256(),
               NULL);
    hex(d, n, h);
    snprintf(out, cap, "x-amz-content-sha256: %s", h);
}

static void md5_header(const S3Request *rq, char *out, size_t cap)
{
    unsigned char d[EVP_MAX_MD_SIZE], b64[64];
    unsigned n = 0;
    EVP_Digest(rq->body ? rq->body : "", rq->body_len, d, &n, EVP_md5(),
               NULL);
    EVP_EncodeBlock(b64, d, (int)n);
    snprintf(out, cap, "Content-MD5: %s", b64);
}

typedef struct Sink {
    const S3Request *rq;
    S3Response *resp;
    bool overflow;
} Sink;

static size_t on_body(char *p, size_t size, size_t n, void *arg)
{
    Sink *s = arg;
    size_t len = size * n;
    if (s->rq->dst) {
        if (len > s->rq->range_len - s->resp->got) {
            s->overflow = true;
            return 0;
        }
        memcpy((char *)s->rq->dst + s->resp->got, p, len);
        s->resp->got += len;
        return len;
    }
    return comb_buf_append(&s->resp->body, p, len) ? 0 : len;
}

static size_t on_header(char *p, size_t size, size_t n, void *arg)
{
    S3Response *r = ((Sink *)arg)->resp;
    size_t len = size * n;
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), p);
    line[strcspn(line, "\r\n")] = '\0';
    if (!strncasecmp(line, "content-length:", 15))
        r->length = strtoull(line + 15, NULL, 10);
    else if (!strncasecmp(line, "last-modified:", 14)) {
        time_t t = curl_getdate(line + 14, NULL);
        r->mtime_ns = t > 0 ? (int64_t)t * 1000000000 : 0;
    } else if (!strncasecmp(line, "etag:", 5)) {
        const char *v = line + 5;
        while (*v == ' ')
            v++;
        snprintf(r->etag, sizeof r->etag, "%.127s", v);
    }
    return len;
}

static struct curl_slist *headers_for(const S3Request *rq, const Snapshot *sn)
{
    char line[2200];
    struct curl_slist *l = NULL, *t;
    payload_header(rq, line, sizeof line);
    l = curl_slist_append(l, line);
    if (l && rq->content_md5) {
        md5_header(rq, line, sizeof line);
        if ((t = curl_slist_append(l, line)))
            l = t;
    }
    if (l && rq->range_len) {
        snprintf(line, sizeof line, "Range: bytes=%llu-%llu",
                 (unsigned long long)rq->range_off,
                 (unsigned long long)(rq->range_off + rq->range_len - 1));
        if ((t = curl_slist_append(l, line)))
            l = t;
    }
    if (l && sn->token[0]) {
        snprintf(line, sizeof line, "x-amz-security-token: %s", sn->token);
        if ((t = curl_slist_append(l, line)))
            l = t;
    }
    if (l && rq->header && (t = curl_slist_append(l, rq->header)))
        l = t;
    return l;
}

static CURLcode perform_once(CURL *h, const S3Request *rq, const Snapshot *sn,
                             const char *url, struct curl_slist *hdrs,
                             Sink *sink)
{
    char sigv4[128];
    snprintf(sigv4, sizeof sigv4, "aws:amz:%s:s3", sn->region);
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4);
    curl_easy_setopt(h, CURLOPT_USERPWD, sn->userpwd);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                     sn->timeout_ms < 10000 ? sn->timeout_ms : 10000L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, sn->timeout_ms);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, sink);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, sink);
    if (!strcmp(rq->method, "HEAD")) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(rq->method, "GET")) {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, rq->method);
        if (rq->body || !strcmp(rq->method, "PUT") ||
            !strcmp(rq->method, "POST")) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                             (curl_off_t)rq->body_len);
        }
    }
    return curl_easy_perform(h);
}

static bool transient(CURLcode c)
{
    return c == CURLE_COULDNT_CONNECT || c == CURLE_OPERATION_TIMEDOUT ||
           c == CURLE_SEND_ERROR || c == CURLE_RECV_ERROR ||
           c == CURLE_GOT_NOTHING || c == CURLE_PARTIAL_FILE ||
           c == CURLE_HTTP2 || c == CURLE_HTTP2_STREAM;
}

/* Back-off before attempt k (k >= 2): 50 ms doubling, at most 2 s, with
 * full jitter so that many clients do not retry in step. */
static void back_off(int k)
{
    static _Thread_local unsigned seed;
    long cap = 50L << (k - 2 < 6 ? k - 2 : 6);
    if (!seed)
        seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)&seed;
    long ms = (cap > 2000 ? 2000 : cap) / 2 + rand_r(&seed) % (cap / 2 + 1);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* What the server said went wrong: its XML Code and Message. */
static void server_reason(const S3Response *r, char *out, size_t cap)
{
    char *code = s3_xml_text(&r->body, "Code");
    char *msg = s3_xml_text(&r->body, "Message");
    snprintf(out, cap, "HTTP %ld%s%s%s%s%s", r->status, code ? " " : "",
             code ? code : "", msg ? " (" : "", msg ? msg : "",
             msg ? ")" : "");
    free(code);
    free(msg);
}

static int fail(const S3Request *rq, const S3Response *r, CURLcode c,
                int attempts, CombErr *err)
{
    char why[600];
    int code = COMB_EIO;
    if (c != CURLE_OK)
        snprintf(why, sizeof why, "%s", curl_easy_strerror(c));
    else
        server_reason(r, why, sizeof why);
    if (c == CURLE_OK && r->status == 404)
        code = COMB_ENOTFOUND;
    return comb_err(err, code, "cannot %s 's3a://%s/%s': %s %s%s", rq->what,
                    rq->bucket, rq->key, rq->method, why,
                    attempts > 1 ? " (after retries)" : "");
}

int s3_perform(const S3Request *rq, bool allow_404, S3Response *resp,
               CombErr *err)
{
    Snapshot sn;
    CombBuf url = COMB_BUF_INIT;
    struct curl_slist *hdrs = NULL;
    CURL *h = NULL;
    int rc = snapshot(&sn, err), k;
    memset(resp, 0, sizeof *resp);
    if (rc)
        return rc;
    if (!(h = handle_take()) || build_url(h, &sn, rq, &url) ||
        !(hdrs = headers_for(rq, &sn))) {
        rc = comb_err_nomem(err);
        goto out;
    }
    for (k = 1;; k++) {
        Sink sink = {rq, resp, false};
        CURLcode c;
        comb_buf_clear(&resp->body);
        resp->got = 0;
        resp->status = 0;
        c = perform_once(h, rq, &sn, (const char *)url.data, hdrs, &sink);
        if (c == CURLE_OK)
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &resp->status);
        if (sink.overflow) {
            rc = comb_err(err, COMB_EIO, "cannot %s 's3a://%s/%s': the server "
                          "sent more than the %zu bytes asked for", rq->what,
                          rq->bucket, rq->key, rq->range_len);
            break;
        }
        bool retry = c != CURLE_OK ? transient(c)
                                   : resp->status >= 500 || resp->status == 429;
        if (retry && k < sn.attempts) {
            back_off(k + 1);
            continue;
        }
        if (c != CURLE_OK || (resp->status >= 300 &&
                              !(allow_404 && resp->status == 404)))
            rc = fail(rq, resp, c, k, err);
        break;
    }
out:
    if (rc)
        comb_buf_free(&resp->body);
    curl_slist_free_all(hdrs);
    comb_buf_free(&url);
    if (h)
        handle_give(h, sn.max_handles);
    return rc;
}

/* ------------------------------------------------------------ XML */

static const xmlNode *find_element(const xmlNode *n, const char *name)
{
    for (; n; n = n->next) {
        const xmlNode *in;
        if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
            return n;
        if ((in = find_element(n->children, name)))
            return in;
    }
    return NULL;
}

char *s3_xml_text(const CombBuf *body, const char *name)
{
    xmlDoc *doc;
    const xmlNode *n;
    char *out = NULL;
    if (!body->len)
        return NULL;
    pthread_once(&curl_once, curl_setup);
    doc = xmlReadMemory((const char *)body->data, (int)body->len, NULL, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                        XML_PARSE_NOWARNING);
    if (!doc)
        return NULL;
    if ((n = find_element(xmlDocGetRootElement(doc), name))) {
        xmlChar *t = xmlNodeGetContent(n);
        out = t ? strdup((const char *)t) : NULL;
        xmlFree(t);
    }
    xmlFreeDoc(doc);
    return out;
}
