/*
 * fs_s3.h - private to src/fs/: files on an S3-compatible object store
 * behind fs.h, for paths "s3a://bucket/key..." and "s3://bucket/key...".
 * fs_posix.c's public functions call these when fs_s3_is_remote(path).
 *
 * Semantics (Hadoop S3A's, which Hive relies on):
 * - a directory is a key prefix ending in '/'; fs_s3_mkdir puts a
 *   zero-byte marker object "dir/" so an empty directory exists; listings
 *   never show the marker itself;
 * - a file written with fs_s3_create is invisible until fs_s3_commit
 *   returns (one PUT, or a multipart upload above fs.s3a.multipart.size
 *   that is completed there); fs_s3_discard aborts it and nothing shows;
 *   the store's acknowledgement replaces fsync;
 * - rename is copy + delete (CopyObject, then DeleteObjects): not atomic.
 *
 * Settings come from fs_s3_configure (Hadoop's names): fs.s3a.endpoint,
 * fs.s3a.endpoint.region, fs.s3a.path.style.access, fs.s3a.access.key,
 * fs.s3a.secret.key, fs.s3a.session.token, fs.s3a.connection.maximum
 * (idle connections kept), fs.s3a.connection.timeout (ms),
 * fs.s3a.attempts.maximum, fs.s3a.multipart.size; unset ones fall back
 * to AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
 * AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 /
 * AWS_ENDPOINT_URL.  Credentials never appear in any error message.
 *
 * All functions are thread-safe (parallel scans read several files at
 * once).  Errors: COMB_ENOTFOUND for a missing object ("... does not
 * exist"), COMB_EIO naming the object, the operation and the last HTTP
 * status after retries ran out, COMB_EINVALID for a malformed location
 * or setting.
 */
#ifndef COMB_FS_S3_H
#define COMB_FS_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"

typedef struct FsS3File FsS3File;

typedef struct FsS3Stat {
    bool exists;
    bool is_dir;        /* a marker "p/" or any key under "p/" */
    uint64_t size;      /* files only */
    int64_t mtime_ns;   /* files: Last-Modified; 0 for directories */
} FsS3Stat;

/* Start (on) or stop remembering listings, stats and file tails (a
 * statement's); either way what was remembered is dropped.  Anything
 * changed on the store through this process drops it too. */
void fs_s3_remember(bool on);
/* Fetch the last len bytes (all of a smaller file) of each file of
 * paths into the cache, several at once (at most 16, and no more than
 * fs.s3a.connection.maximum); only while the cache is on, and no more
 * files than it keeps.  A hint: what fails is left to the read. */
void fs_s3_prefetch_tails(const char *const *paths, int n, size_t len);
/* True for "s3a://" and "s3://" paths. */
bool fs_s3_is_remote(const char *path);
/* Set one fs.s3a.* setting for the process (takes effect for the next
 * request); COMB_EINVALID for a bad value; names comb does not use are
 * accepted and change nothing (Hadoop has many). */
int fs_s3_configure(const char *name, const char *value, CombErr *err);

/* Writing: bytes buffer in memory up to twice the multipart size, then go
 * out as parts; fs_s3_commit makes the object visible (and frees f, also
 * on failure), fs_s3_discard aborts an upload (and frees f; a reader
 * too). */
int fs_s3_create(const char *path, FsS3File **out, CombErr *err);
int fs_s3_write(FsS3File *f, const void *p, size_t n, CombErr *err);
int fs_s3_commit(FsS3File *f, CombErr *err);
void fs_s3_discard(FsS3File *f);

/* Reading: open does one HEAD (size, mtime); reads are ranged GETs. */
int fs_s3_open_read(const char *path, FsS3File **out, CombErr *err);
uint64_t fs_s3_size(const FsS3File *f);
int64_t fs_s3_mtime_ns(const FsS3File *f);
/* n bytes at off; COMB_ECORRUPT when the object is shorter. */
int fs_s3_pread(FsS3File *f, void *p, size_t n, uint64_t off, CombErr *err);
/* Sequential read from the current position; *got = 0 at the end. */
int fs_s3_read_some(FsS3File *f, void *p, size_t n, size_t *got,
                    CombErr *err);

/* Names directly under the directory path (ListObjectsV2 with delimiter
 * '/', every page), sorted by strcmp, in arena memory; (*is_dir)[i] for
 * common prefixes.  A directory with no key under it: COMB_ENOTFOUND. */
int fs_s3_list(const char *path, CombArena *arena, char ***names,
               bool **is_dir, int *n, CombErr *err);
int fs_s3_stat(const char *path, FsS3Stat *st, CombErr *err);
int fs_s3_mkdir(const char *path, CombErr *err);
/* Remove one object; a missing one is fine. */
int fs_s3_unlink(const char *path, CombErr *err);
/* Remove every object under path (and path itself); batches of 1000. */
int fs_s3_remove_tree(const char *path, CombErr *err);
/* Copy a file, or every object under a directory, server side. */
int fs_s3_copy(const char *from, const char *to, CombErr *err);
/* fs_s3_copy, then fs_s3_remove_tree(from). */
int fs_s3_rename(const char *from, const char *to, CombErr *err);

#endif
