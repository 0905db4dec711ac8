/*
 * fs_int.h - private to src/fs/: the test hooks fs_posix.c calls around
 * every system call that changes the file system (fs_hooks.c).  In other
 * builds they compile to nothing.
 */
#ifndef COMB_FS_INT_H
#define COMB_FS_INT_H

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
