/*
 * s3.h - private to src/fs/: one request of the S3 REST API, over
 * libcurl (which signs it, AWS Signature Version 4) with libxml2 for the
 * XML bodies, retried on throttling and transient failures.
 *
 * The client's settings are the process's (s3_configure, Hadoop's S3A
 * names); every function is thread-safe.  Credentials never appear in a
 * message.
 */
#ifndef COMB_S3_H
#define COMB_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/err.h"

typedef struct S3Request {
    const char *method;         /* "GET", "PUT", "HEAD", "POST", "DELETE" */
    const char *bucket;
    const char *key;            /* "" for the bucket itself */
    const char *query;          /* encoded, parameters sorted by name; or
                                   NULL */
    const void *body;           /* sent as is (PUT, POST) */
    size_t body_len;
    const char *header;         /* one extra "Name: value", or NULL */
    bool content_md5;           /* send the body's Content-MD5 */
    uint64_t range_off;         /* with range_len > 0: Range: bytes=... */
    size_t range_len;
    void *dst;                  /* a ranged GET's bytes go here (at most
                                   range_len), else into resp.body */
    const char *what;           /* for messages: "read", "list", ... */
} S3Request;

typedef struct S3Response {
    long status;
    CombBuf body;               /* unless the request had dst */
    size_t got;                 /* bytes into dst */
    uint64_t length;            /* Content-Length */
    int64_t mtime_ns;           /* Last-Modified */
    char etag[128];
} S3Response;

/* Perform rq, retrying 5xx answers, throttling and dropped connections
 * with exponential back-off and jitter up to fs.s3a.attempts.maximum.
 * Any other status >= 300 is an error, except 404 when allow_404 (the
 * caller reads resp->status).  The caller frees resp->body. */
int s3_perform(const S3Request *rq, bool allow_404, S3Response *resp,
               CombErr *err);

/* fs.s3a.connection.maximum: how many requests may be in flight. */
int s3_max_connections(void);

/* Append key to out percent-encoded as S3 wants it, except for the
 * characters of keep (which must hold '/'), left as they are (h: any curl
 * handle).  COMB_ENOMEM when out of memory. */
int s3_append_key(void *h, CombBuf *out, const char *key, const char *keep);

/* The text of the first element named `name` (namespace ignored) in an
 * XML body, or NULL; malloc'ed. */
char *s3_xml_text(const CombBuf *body, const char *name);

/* Set one fs.s3a.* setting; names comb does not use are accepted and
 * change nothing (Hadoop has many); COMB_EINVALID for a bad value. */
int s3_configure(const char *name, const char *value, CombErr *err);
/* fs.s3a.multipart.size (at least 5 MiB, S3's smallest part). */
uint64_t s3_part_size(void);

#endif
