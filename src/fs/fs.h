/*
 * fs.h - the file system as comb uses it: local POSIX files today, with one
 * seam so that a remote store can come later.
 *
 * Durability rule: a file that a transaction commits is written, fsynced,
 * and its directory fsynced before the metastore commit (fs_fsync_dir).
 */
#ifndef COMB_FS_H
#define COMB_FS_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"

/* Open for writing (create, truncate).  Returns fd >= 0 or -1 with err. */
int fs_create(const char *path, CombErr *err);
/* Write all n bytes; COMB_EIO on failure (never a silent short write). */
int fs_write_all(int fd, const void *p, size_t n, const char *path,
                 CombErr *err);
/* fsync + close. */
int fs_sync_close(int fd, const char *path, CombErr *err);
/* Write a small file whole, fsync it. */
int fs_write_file(const char *path, const void *p, size_t n, CombErr *err);
/* fsync a directory so that entries created in it are durable. */
int fs_fsync_dir(const char *path, CombErr *err);

/* Read a whole file into arena memory. */
int fs_read_file(const char *path, CombArena *arena, unsigned char **out,
                 size_t *len, CombErr *err);
/* Read n bytes at offset into p; COMB_ECORRUPT if the file is shorter. */
int fs_pread_all(int fd, void *p, size_t n, uint64_t off, const char *path,
                 CombErr *err);

/* mkdir -p. */
int fs_mkdirs(const char *path, CombErr *err);
/* rm -rf; a missing path is fine. */
int fs_remove_tree(const char *path, CombErr *err);
/* 1 if path is a directory, 0 if not or absent. */
int fs_is_dir(const char *path);
int fs_exists(const char *path);

/* Names in a directory (no "." / ".."), sorted by strcmp, in arena memory. */
int fs_list_dir(const char *path, CombArena *arena, char ***names, int *n,
                CombErr *err);

/* Join "a/b" into arena memory. */
char *fs_join(CombArena *arena, const char *a, const char *b);

#endif
