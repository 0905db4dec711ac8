/*
 * fs.h - the file system as comb uses it: local POSIX files, and objects
 * on an S3-compatible store for paths "s3a://bucket/key" and
 * "s3://bucket/key" (fs_s3.h says how a store keeps the rules below).
 *
 * Durability rule: a file that a transaction commits is written, fsynced,
 * and its directory fsynced before the metastore commit (fs_fsync_dir);
 * every directory fs_mkdirs creates is fsynced together with its parent,
 * so a new directory is durable before anything that refers to it.
 *
 * Test builds (COMB_TEST_BUILD) record and break calls on request, see
 * "test hooks" at the end.
 */
#ifndef COMB_FS_H
#define COMB_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"

/* An open file: a descriptor on local disk, an upload or a ranged reader
 * on an object store.  Every FsFile is released by exactly one of
 * fs_sync_close, fs_close or fs_discard. */
typedef struct FsFile FsFile;

/* Open for writing (create, truncate).  NULL with err on failure. */
FsFile *fs_create(const char *path, CombErr *err);
/* Open an existing file for appending.  NULL with err on failure.  On an
 * object store a file this process created and closed without fsync is
 * continued; a committed object is read back and rewritten whole at
 * fs_sync_close (stores cannot append), so keep appended files small. */
FsFile *fs_open_append(const char *path, CombErr *err);
/* Open a regular file for reading without ever blocking: a FIFO, device,
 * socket or directory of that name is refused (COMB_EIO, "... is a FIFO,
 * not a regular file").  NULL with err on failure. */
FsFile *fs_open_read(const char *path, CombErr *err);
/* The path f was opened with. */
const char *fs_file_path(const FsFile *f);
/* True when f's reads are requests to an object store (worth gathering
 * into fewer, larger ones). */
bool fs_file_is_remote(const FsFile *f);
/* The size of the open file f. */
int fs_size(FsFile *f, uint64_t *size, CombErr *err);
/* Write all n bytes; COMB_EIO on failure (never a silent short write). */
int fs_write_all(FsFile *f, const void *p, size_t n, CombErr *err);
/* Make what was written durable (on an object store: complete the upload,
 * the object becomes visible), then release f, also on failure. */
int fs_sync_close(FsFile *f, CombErr *err);
/* Release f, reporting a failure (an earlier write may surface here).  On
 * an object store a file being written stays pending, invisible, until an
 * fs_open_append + fs_sync_close completes it or fs_unlink drops it. */
int fs_close(FsFile *f, CombErr *err);
/* Release f after a failure, reporting nothing (the caller removes what
 * it wrote). */
void fs_discard(FsFile *f);
/* Write a small file whole, fsync it. */
int fs_write_file(const char *path, const void *p, size_t n, CombErr *err);
/* Copy the regular file `from` to a new file `to`, fsynced; a partial
 * copy is removed on failure. */
int fs_copy_file(const char *from, const char *to, CombErr *err);
/* fsync a directory so that entries created in it are durable. */
int fs_fsync_dir(const char *path, CombErr *err);

/* Read a whole regular file into arena memory. */
int fs_read_file(const char *path, CombArena *arena, unsigned char **out,
                 size_t *len, CombErr *err);
/* Read up to n bytes from the file position of f into p (a stream read:
 * fewer is fine); *got = 0 at the end of the file.  COMB_EIO on failure
 * (EINTR is retried). */
int fs_read_some(FsFile *f, void *p, size_t n, size_t *got, CombErr *err);
/* Read n bytes at offset into p; COMB_ECORRUPT if the file is shorter. */
int fs_pread_all(FsFile *f, void *p, size_t n, uint64_t off, CombErr *err);

/* mkdir -p.  Each directory it creates is fsynced, then the parent of the
 * first one it creates, so the new chain survives a power loss. */
int fs_mkdirs(const char *path, CombErr *err);
/* fs_mkdirs that also says how many trailing components of path it
 * created (0 when the directory existed), for fs_rmdirs_empty. */
int fs_mkdirs_n(const char *path, int *n_created, CombErr *err);
/* Undo fs_mkdirs_n: remove the last n components of path, deepest first,
 * while they are empty directories.  Never removes anything else. */
void fs_rmdirs_empty(const char *path, int n);
/* rm -rf; a missing path is fine. */
int fs_remove_tree(const char *path, CombErr *err);
/* rename(2); both names must be on one file system. */
int fs_rename(const char *from, const char *to, CombErr *err);
/* Move `path` out of the way: rename it to the first free hidden
 * sibling ".<name>.<tag>-<n>" (n = 1, 2, ...) and fsync the parent so
 * the move survives a crash.  *aside gets the new path (arena). */
int fs_rename_aside(const char *path, const char *tag, CombArena *arena,
                    char **aside, CombErr *err);
/* Swap the entries a and b (two directories) in one step (Linux
 * renameat2 RENAME_EXCHANGE): a reader opening either path finds the old
 * or the new one, never neither.  COMB_EUNSUPPORTED when the file system
 * cannot exchange.  The caller fsyncs the parent(s). */
int fs_exchange(const char *a, const char *b, CombErr *err);
/* A second name `to` for the regular file `from` (a hard link; the caller
 * fsyncs to's directory). */
int fs_link(const char *from, const char *to, CombErr *err);
/* Remove one file; a missing one is fine. */
int fs_unlink(const char *path, CombErr *err);
/* 1 if path is a directory, 0 if not or absent, or if that cannot be told
 * (where a failure must not pass for absence, fs_probe). */
int fs_is_dir(const char *path);
/* What is at path: *kind FS_ABSENT, FS_FILE (or anything not a
 * directory) or FS_DIR; COMB_EIO, naming path, when that cannot be told
 * (a store that does not answer, a permission): never absent by mistake,
 * which would make a reader skip data. */
typedef enum { FS_ABSENT, FS_FILE, FS_DIR } FsKind;
int fs_probe(const char *path, FsKind *kind, CombErr *err);
/* Size in bytes of the file at path; COMB_EIO (naming it) if it cannot be
 * examined. */
int fs_file_size(const char *path, uint64_t *size, CombErr *err);
/* The same and the time of its last change, in nanoseconds since the
 * epoch: with the size, what tells one version of a file from another. */
int fs_file_version(const char *path, uint64_t *size, int64_t *mtime_ns,
                    CombErr *err);
int fs_exists(const char *path);

/* Names in a directory (no "." / ".."), sorted by strcmp, in arena memory. */
int fs_list_dir(const char *path, CombArena *arena, char ***names, int *n,
                CombErr *err);
/* The same, and (*is_dir)[i] whether names[i] is a directory (as
 * fs_is_dir says, without a stat per entry where the file system gives
 * entry types). */
int fs_list_dir_typed(const char *path, CombArena *arena, char ***names,
                      bool **is_dir, int *n, CombErr *err);

/* True when path names an object on a store ("s3a://", "s3://"). */
bool fs_is_remote(const char *path);
/* Set a store setting of the process (Hadoop's fs.s3a.* names, e.g.
 * fs.s3a.endpoint); COMB_EINVALID for an unknown one or a bad value. */
int fs_configure(const char *name, const char *value, CombErr *err);
/* Remember (on) what an object store lists and says of its files until
 * fs_remember(false), or until this process changes something there: a
 * statement lists a table's directories once however many readers walk
 * them.  Call it on where a statement's snapshot is taken, so nothing
 * listed before counts.  Either call drops what was remembered. */
void fs_remember(bool on);
/* A hint that the last len bytes of each of paths (all of a smaller file)
 * are about to be read: while fs_remember is on, those on a store are
 * fetched now, several requests in flight at once, and the reads find
 * them remembered.  Local files: nothing to do.  Failures are left to
 * the reads. */
void fs_prefetch_tails(const char *const *paths, int n, size_t len);
/* Settings whose values are secrets, never shown (fs.s3a.secret.key...). */
bool fs_setting_is_secret(const char *name);

/* Join "a/b" into arena memory. */
char *fs_join(CombArena *arena, const char *a, const char *b);
/* The directory part of path ("." for a bare name, "/" for "/x"). */
char *fs_dirname(CombArena *arena, const char *path);
/* path made absolute against the working directory and normalised the
 * way Hadoop's Path does (no "." or ".." components, no doubled or
 * trailing '/').  NULL when out of memory or the working directory is
 * unknown. */
char *fs_absolute(CombArena *arena, const char *path);

/* ------------------------------------------------------------ test hooks */

/*
 * In test builds only (compiled out otherwise):
 *   COMB_FS_TRACE=FILE   appends one line "<op> <path>" per successful
 *                        mkdir, create, fsync, fsync_dir, rename, exchange
 *                        and link (two paths), unlink, rmdir, plus the
 *                        events layers
 *                        above record with fs_trace_event (the metastore
 *                        records "ms_commit <what>").
 *   COMB_FS_FAULT=OP:TEXT[:ERRNO][,...]
 *                        makes call OP (mkdir, create, open, read, write,
 *                        fsync, fsync_dir, rename, exchange, link, unlink,
 *                        rmdir) fail on
 *                        any path
 *                        containing TEXT with errno ERRNO (EIO, ENOSPC,
 *                        EROFS, EACCES, EPERM or EBUSY; EIO when omitted).
 */
#ifdef COMB_TEST_BUILD
void fs_trace_event(const char *op, const char *detail);
#else
static inline void fs_trace_event(const char *op, const char *detail)
{
    (void)op;
    (void)detail;
}
#endif

#endif
