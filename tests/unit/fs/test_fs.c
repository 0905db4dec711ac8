/* fs/: durable mkdir -p (every new directory and its parent fsynced, in
 * that order), its undo, reading that never blocks on a FIFO, absolute
 * paths, and the test hooks (trace, injected faults). */
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "fs/fs_int.h"

/* Start (or stop, trace NULL) tracing into a fresh file; no faults. */
static void hooks_set(const char *trace, const char *fault)
{
    if (trace) {
        unlink(trace);
        setenv("COMB_FS_TRACE", trace, 1);
    } else {
        unsetenv("COMB_FS_TRACE");
    }
    if (fault)
        setenv("COMB_FS_FAULT", fault, 1);
    else
        unsetenv("COMB_FS_FAULT");
    fs_hook_reload();
}

static char *read_text(const char *path, CombArena *a)
{
    unsigned char *bytes = NULL;
    size_t len;
    CombErr err;
    if (fs_read_file(path, a, &bytes, &len, &err))
        return NULL;
    return (char *)bytes;
}

TEST(fs_mkdirs_syncs_new_dirs_then_parent)
{
    const char *tmp = unit_tmpdir();
    CombArena a;
    CombErr err;
    char *trace, *dir, *want, *got;
    int n = -1;
    comb_arena_init(&a, 0);
    trace = comb_arena_printf(&a, "%s/trace", tmp);
    dir = comb_arena_printf(&a, "%s/a/b/c", tmp);
    hooks_set(trace, NULL);
    CHECK_OK(fs_mkdirs_n(dir, &n, &err), &err);
    hooks_set(NULL, NULL);
    CHECK_EQ(n, 3);
    want = comb_arena_printf(&a,
                             "mkdir %s/a\nmkdir %s/a/b\nmkdir %s/a/b/c\n"
                             "fsync_dir %s/a/b/c\nfsync_dir %s/a/b\n"
                             "fsync_dir %s/a\nfsync_dir %s\n",
                             tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    got = read_text(trace, &a);
    CHECK_STR(got, want);
    /* existing: nothing made, nothing synced */
    hooks_set(trace, NULL);
    CHECK_OK(fs_mkdirs_n(dir, &n, &err), &err);
    hooks_set(NULL, NULL);
    CHECK_EQ(n, 0);
    CHECK_STR(read_text(trace, &a), "");
    comb_arena_free(&a);
}

TEST(fs_rmdirs_empty_only_removes_empty_new_dirs)
{
    const char *tmp = unit_tmpdir();
    CombArena a;
    CombErr err;
    char *dir;
    int n = 0;
    comb_arena_init(&a, 0);
    dir = comb_arena_printf(&a, "%s/x/y/z", tmp);
    CHECK_OK(fs_mkdirs_n(dir, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK_OK(fs_write_file(comb_arena_printf(&a, "%s/x/keep", tmp), "k", 1,
                           &err), &err);
    fs_rmdirs_empty(dir, n);
    CHECK(!fs_exists(dir));
    CHECK(!fs_exists(comb_arena_printf(&a, "%s/x/y", tmp)));
    CHECK(fs_is_dir(comb_arena_printf(&a, "%s/x", tmp))); /* not empty */
    CHECK(fs_is_dir(tmp));
    comb_arena_free(&a);
}

TEST(fs_open_read_refuses_fifo_and_directory)
{
    const char *tmp = unit_tmpdir();
    CombArena a;
    CombErr err;
    unsigned char *bytes;
    size_t len;
    char *fifo;
    comb_arena_init(&a, 0);
    fifo = comb_arena_printf(&a, "%s/bucket_00000", tmp);
    CHECK_EQ(mkfifo(fifo, 0644), 0);
    /* opening a FIFO without a writer would block forever */
    CHECK(fs_open_read(fifo, &err) == NULL);
    CHECK(strstr(err.msg, "is a FIFO, not a regular file") != NULL);
    CHECK(strstr(err.msg, fifo) != NULL);
    CHECK_EQ(fs_read_file(fifo, &a, &bytes, &len, &err), COMB_EIO);
    CHECK(fs_open_read(tmp, &err) == NULL);
    CHECK(strstr(err.msg, "is a directory") != NULL);
    comb_arena_free(&a);
}

TEST(fs_absolute_normalises)
{
    CombArena a;
    char cwd[4096];
    comb_arena_init(&a, 0);
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_STR(fs_absolute(&a, "/x/./y//z/"), "/x/y/z");
    CHECK_STR(fs_absolute(&a, "/x/../../y"), "/y");
    CHECK_STR(fs_absolute(&a, "/"), "/");
    CHECK_STR(fs_absolute(&a, "a/b/../c"),
              comb_arena_printf(&a, "%s/a/c", strcmp(cwd, "/") ? cwd : ""));
    CHECK_STR(fs_dirname(&a, "/t"), "/");
    CHECK_STR(fs_dirname(&a, "t"), ".");
    CHECK_STR(fs_dirname(&a, "/w/t"), "/w");
    comb_arena_free(&a);
}

TEST(fs_fault_hook_fails_named_call)
{
    const char *tmp = unit_tmpdir();
    CombArena a;
    CombErr err;
    char *from, *to;
    comb_arena_init(&a, 0);
    from = comb_arena_printf(&a, "%s/t", tmp);
    to = comb_arena_printf(&a, "%s/.t.dropped", tmp);
    CHECK_OK(fs_mkdirs(from, &err), &err);
    hooks_set(NULL, "rename:/t:EACCES,write:nothing-matches");
    CHECK_EQ(fs_rename(from, to, &err), COMB_EIO);
    hooks_set(NULL, NULL);
    CHECK(strstr(err.msg, "Permission denied") != NULL);
    CHECK(fs_is_dir(from));
    CHECK_OK(fs_rename(from, to, &err), &err);
    CHECK(fs_is_dir(to));
    comb_arena_free(&a);
}

TEST(fs_exchange_swaps_directories_and_link_adds_a_name)
{
    const char *tmp = unit_tmpdir();
    CombArena a;
    CombErr err;
    char *x, *y, *fx, *fy, *missing, *copy, *trace, *text;
    comb_arena_init(&a, 0);
    x = comb_arena_printf(&a, "%s/x", tmp);
    y = comb_arena_printf(&a, "%s/.x.swap-1", tmp);
    fx = comb_arena_printf(&a, "%s/x/old", tmp);
    fy = comb_arena_printf(&a, "%s/.x.swap-1/new", tmp);
    missing = comb_arena_printf(&a, "%s/nope", tmp);
    copy = comb_arena_printf(&a, "%s/x/old_copy", tmp);
    trace = comb_arena_printf(&a, "%s/trace", tmp);
    CHECK_OK(fs_mkdirs(x, &err), &err);
    CHECK_OK(fs_mkdirs(y, &err), &err);
    CHECK_OK(fs_write_file(fx, "o", 1, &err), &err);
    CHECK_OK(fs_write_file(fy, "n", 1, &err), &err);
    hooks_set(trace, NULL);
    CHECK_OK(fs_exchange(x, y, &err), &err);
    hooks_set(NULL, NULL);
    /* x now holds the new entry, the sibling the old one */
    CHECK(fs_exists(comb_arena_printf(&a, "%s/x/new", tmp)));
    CHECK(fs_exists(comb_arena_printf(&a, "%s/.x.swap-1/old", tmp)));
    CHECK(!fs_exists(fx));
    text = read_text(trace, &a);
    CHECK(text != NULL && strstr(text, "exchange ") != NULL);
    /* exchanging with nothing fails and changes nothing */
    CHECK_EQ(fs_exchange(x, missing, &err), COMB_EIO);
    CHECK(fs_exists(comb_arena_printf(&a, "%s/x/new", tmp)));
    hooks_set(NULL, "exchange:/x:EIO");
    CHECK_EQ(fs_exchange(x, y, &err), COMB_EIO);
    hooks_set(NULL, NULL);
    CHECK(fs_exists(comb_arena_printf(&a, "%s/x/new", tmp)));
    /* a hard link: one file, two names */
    fx = comb_arena_printf(&a, "%s/x/new", tmp);
    CHECK_OK(fs_link(fx, copy, &err), &err);
    CHECK_OK(fs_unlink(fx, &err), &err);
    CHECK_STR(read_text(copy, &a), "n");
    CHECK_EQ(fs_link(fx, copy, &err), COMB_EIO);
    hooks_set(NULL, "link:/x/old_copy:EPERM");
    CHECK_EQ(fs_link(copy, comb_arena_printf(&a, "%s/x/again", tmp), &err), COMB_EIO);
    hooks_set(NULL, NULL);
    CHECK(strstr(err.msg, "Operation not permitted") != NULL);
    comb_arena_free(&a);
}
