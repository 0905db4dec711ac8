/*
 * fs_int.h - private to src/fs/: what an FsFile is, the object-store side
 * of fs.h that fs_posix.c hands s3a:// paths to (fs_remote.c), and the
 * test hooks fs_posix.c calls around every system call that changes the
 * file system (fs_hooks.c; in other builds they compile to nothing).
 */
#ifndef COMB_FS_INT_H
#define COMB_FS_INT_H

#include "fs/fs.h"
#include "fs/fs_s3.h"

struct FsFile {
    int fd;               /* local: the descriptor; -1 on a store */
    FsS3File *remote;     /* on a store: the upload or the reader */
    bool writing;
    uint64_t written;     /* on a store: bytes written so far */
    char path[];          /* as opened, for messages */
};

/* A handle for path: fd (-1 on a store) or remote; NULL when out of
 * memory (the caller then releases what it opened). */
FsFile *fs_file_new(const char *path, int fd, FsS3File *remote, bool writing,
                    uint64_t written);

/* fs.h's calls on object-store paths and files (fs_remote.c). */
FsFile *fs_remote_create(const char *path, CombErr *err);
FsFile *fs_remote_open_append(const char *path, CombErr *err);
FsFile *fs_remote_open_read(const char *path, CombErr *err);
int fs_remote_size(FsFile *f, uint64_t *size, CombErr *err);
int fs_remote_write(FsFile *f, const void *p, size_t n, CombErr *err);
int fs_remote_read_some(FsFile *f, void *p, size_t n, size_t *got,
                        CombErr *err);
int fs_remote_pread(FsFile *f, void *p, size_t n, uint64_t off,
                    CombErr *err);
/* Release f: a file being written is completed when sync, else left
 * pending for fs_remote_open_append. */
int fs_remote_close(FsFile *f, bool sync, CombErr *err);
void fs_remote_discard(FsFile *f);
int fs_remote_mkdirs(const char *path, int *n_created, CombErr *err);
void fs_remote_rmdir_empty(const char *path, int n);
/* Whether path exists (dir_only: as a directory). */
int fs_remote_is(const char *path, bool dir_only);
int fs_remote_probe(const char *path, FsKind *kind, CombErr *err);
int fs_remote_version(const char *path, uint64_t *size, int64_t *mtime_ns,
                      CombErr *err);
int fs_remote_unlink(const char *path, CombErr *err);
int fs_remote_rename(const char *from, const char *to, CombErr *err);
int fs_remote_list(const char *path, CombArena *arena, char ***names,
                   bool **is_dir, int *n, CombErr *err);
char *fs_remote_normalise(CombArena *arena, const char *path);

#ifdef COMB_TEST_BUILD
/* errno to fail call `op` on `path` with (COMB_FS_FAULT), 0 = go ahead. */
int fs_hook_fault(const char *op, const char *path);
/* Record a successful call (COMB_FS_TRACE); path2 may be NULL. */
void fs_hook_trace(const char *op, const char *path, const char *path2);
/* Read the environment again (unit tests change it within a process). */
void fs_hook_reload(void);
#else
static inline int fs_hook_fault(const char *op, const char *path)
{
    (void)op;
    (void)path;
    return 0;
}
static inline void fs_hook_trace(const char *op, const char *path,
                                 const char *path2)
{
    (void)op;
    (void)path;
    (void)path2;
}
#endif

#endif
