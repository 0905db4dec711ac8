/*
 * fs_posix.c - fs.h: local paths through POSIX calls here, object-store
 * paths (fs_s3_is_remote) handed to fs_remote.c.  Every local call that
 * changes the file system passes fs_hook_fault first and fs_hook_trace
 * after it succeeded (no-ops outside test builds, fs_int.h).
 */
#include "fs/fs.h"
#include "fs/fs_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int io_err(CombErr *err, const char *what, const char *path)
{
    return comb_err(err, COMB_EIO, "%s '%s': %s", what, path, strerror(errno));
}

/* A test build's injected failure of `op` on path: errno set, true. */
static bool injected(const char *op, const char *path)
{
    int e = fs_hook_fault(op, path);
    if (e)
        errno = e;
    return e != 0;
}

/* A local FsFile around fd (closed when no memory is left for it). */
FsFile *fs_file_new(const char *path, int fd, FsS3File *remote, bool writing,
                    uint64_t written)
{
    size_t n = strlen(path) + 1;
    FsFile *f = malloc(sizeof *f + n);
    if (!f)
        return NULL;
    f->fd = fd;
    f->remote = remote;
    f->writing = writing;
    f->written = written;
    memcpy(f->path, path, n);
    return f;
}

static FsFile *local_file(int fd, const char *path, bool writing,
                          CombErr *err)
{
    FsFile *f = fs_file_new(path, fd, NULL, writing, 0);
    if (!f) {
        close(fd);
        comb_err_nomem(err);
    }
    return f;
}

FsFile *fs_create(const char *path, CombErr *err)
{
    if (fs_s3_is_remote(path))
        return fs_remote_create(path, err);
    int fd = injected("create", path)
                 ? -1
                 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        io_err(err, "cannot create", path);
        return NULL;
    }
    fs_hook_trace("create", path, NULL);
    return local_file(fd, path, true, err);
}

FsFile *fs_open_append(const char *path, CombErr *err)
{
    if (fs_s3_is_remote(path))
        return fs_remote_open_append(path, err);
    int fd = injected("open", path)
                 ? -1
                 : open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        io_err(err, "cannot open", path);
        return NULL;
    }
    return local_file(fd, path, true, err);
}

static const char *file_kind(mode_t mode)
{
    return S_ISFIFO(mode)  ? "a FIFO"
           : S_ISDIR(mode) ? "a directory"
           : S_ISCHR(mode) ? "a character device"
           : S_ISBLK(mode) ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
 * writer forever; the flag is cleared again for the regular file. */
static int open_regular(const char *path, CombErr *err)
{
    struct stat st;
    int fd = injected("open", path)
                 ? -1
                 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        io_err(err, "cannot open", path);
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        io_err(err, "cannot stat", path);
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        comb_err(err, COMB_EIO, "cannot read '%s': it is %s, not a regular "
                 "file", path, file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    if (fcntl(fd, F_SETFL, 0) != 0) {
        io_err(err, "cannot open", path);
        close(fd);
        return -1;
    }
    return fd;
}

FsFile *fs_open_read(const char *path, CombErr *err)
{
    if (fs_s3_is_remote(path))
        return fs_remote_open_read(path, err);
    int fd = open_regular(path, err);
    return fd < 0 ? NULL : local_file(fd, path, false, err);
}

bool fs_file_is_remote(const FsFile *f)
{
    return f->remote != NULL;
}

const char *fs_file_path(const FsFile *f)
{
    return f->path;
}

int fs_size(FsFile *f, uint64_t *size, CombErr *err)
{
    struct stat st;
    if (f->remote)
        return fs_remote_size(f, size, err);
    if (fstat(f->fd, &st) != 0)
        return io_err(err, "cannot stat", f->path);
    *size = (uint64_t)st.st_size;
    return COMB_OK;
}

int fs_write_all(FsFile *f, const void *p, size_t n, CombErr *err)
{
    const unsigned char *c = p;
    if (injected("write", f->path))
        return io_err(err, "cannot write", f->path);
    if (f->remote)
        return fs_remote_write(f, p, n, err);
    while (n > 0) {
        ssize_t w = write(f->fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return io_err(err, "cannot write", f->path);
        }
        c += w;
        n -= (size_t)w;
    }
    return COMB_OK;
}

int fs_read_some(FsFile *f, void *p, size_t n, size_t *got, CombErr *err)
{
    ssize_t r;
    if (injected("read", f->path))
        return io_err(err, "cannot read", f->path);
    if (f->remote)
        return fs_remote_read_some(f, p, n, got, err);
    do
        r = read(f->fd, p, n);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return io_err(err, "cannot read", f->path);
    *got = (size_t)r;
    return COMB_OK;
}

int fs_close(FsFile *f, CombErr *err)
{
    int rc = COMB_OK;
    if (f->remote)
        return fs_remote_close(f, false, err);
    if (close(f->fd) != 0)
        rc = io_err(err, "cannot close", f->path);
    free(f);
    return rc;
}

void fs_discard(FsFile *f)
{
    if (f->remote) {
        fs_remote_discard(f);
        return;
    }
    close(f->fd);
    free(f);
}

int fs_sync_close(FsFile *f, CombErr *err)
{
    if (f->remote)
        return fs_remote_close(f, true, err);
    if (injected("fsync", f->path) || fsync(f->fd) != 0) {
        int rc = io_err(err, "cannot fsync", f->path);
        fs_discard(f);
        return rc;
    }
    fs_hook_trace("fsync", f->path, NULL);
    return fs_close(f, err);
}

int fs_write_file(const char *path, const void *p, size_t n, CombErr *err)
{
    FsFile *f = fs_create(path, err);
    int rc;
    if (!f)
        return err->code;
    if ((rc = fs_write_all(f, p, n, err))) {
        fs_discard(f);
        return rc;
    }
    return fs_sync_close(f, err);
}

/* Copy what is left of `in` to `out`. */
static int copy_rest(FsFile *in, FsFile *out, CombErr *err)
{
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    size_t got;
    int rc;
    if (!buf)
        return comb_err_nomem(err);
    while (!(rc = fs_read_some(in, buf, CHUNK, &got, err)) && got)
        if ((rc = fs_write_all(out, buf, got, err)))
            break;
    free(buf);
    return rc;
}

int fs_copy_file(const char *from, const char *to, CombErr *err)
{
    FsFile *in, *out;
    int rc;
    if (fs_s3_is_remote(from) && fs_s3_is_remote(to))
        return fs_s3_copy(from, to, err);
    if (!(in = fs_open_read(from, err)))
        return err->code;
    if (!(out = fs_create(to, err))) {
        fs_discard(in);
        return err->code;
    }
    rc = copy_rest(in, out, err);
    fs_discard(in);
    if (rc) {
        CombErr ignored;
        fs_discard(out);
        fs_unlink(to, &ignored);
        return rc;
    }
    if ((rc = fs_sync_close(out, err))) {
        CombErr ignored;
        fs_unlink(to, &ignored);
    }
    return rc;
}

int fs_fsync_dir(const char *path, CombErr *err)
{
    if (fs_s3_is_remote(path))
        return COMB_OK; /* a store's acknowledgement is its fsync */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = COMB_OK;
    if (fd < 0)
        return io_err(err, "cannot open directory", path);
    if (injected("fsync_dir", path) || fsync(fd) != 0)
        rc = io_err(err, "cannot fsync directory", path);
    else
        fs_hook_trace("fsync_dir", path, NULL);
    close(fd);
    return rc;
}

int fs_pread_all(FsFile *f, void *p, size_t n, uint64_t off, CombErr *err)
{
    unsigned char *c = p;
    if (f->remote)
        return fs_remote_pread(f, p, n, off, err);
    while (n > 0) {
        ssize_t r = pread(f->fd, c, n, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return io_err(err, "cannot read", f->path);
        }
        if (r == 0)
            return comb_err(err, COMB_ECORRUPT,
                            "corrupt file '%s': unexpected end of file",
                            f->path);
        c += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return COMB_OK;
}

int fs_read_file(const char *path, CombArena *arena, unsigned char **out,
                 size_t *len, CombErr *err)
{
    FsFile *f = fs_open_read(path, err);
    uint64_t size;
    unsigned char *p;
    int rc;
    if (!f)
        return err->code;
    if ((rc = fs_size(f, &size, err))) {
        fs_discard(f);
        return rc;
    }
    if (!(p = comb_arena_alloc(arena, (size_t)size + 1))) {
        fs_discard(f);
        return comb_err_nomem(err);
    }
    rc = fs_pread_all(f, p, (size_t)size, 0, err);
    fs_discard(f);
    if (rc)
        return rc;
    p[size] = '\0';
    *out = p;
    *len = (size_t)size;
    return COMB_OK;
}

/* mkdir one directory; *made tells whether it is new. */
static int make_one_dir(const char *path, bool *made, CombErr *err)
{
    *made = false;
    if (injected("mkdir", path))
        return io_err(err, "cannot create directory", path);
    if (mkdir(path, 0755) == 0) {
        *made = true;
        fs_hook_trace("mkdir", path, NULL);
        return COMB_OK;
    }
    if (errno == EEXIST && fs_is_dir(path))
        return COMB_OK;
    if (errno == EEXIST)
        errno = ENOTDIR;
    return io_err(err, "cannot create directory", path);
}

/* Drop the last component of a path in place ("a" -> ".", "/a" -> "/"). */
static void strip_last(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(path, ".");
    else if (slash == path)
        path[1] = '\0';
    else
        *slash = '\0';
}

/* fsync the last n components of path (the directories fs_mkdirs_n
 * made), deepest first, then the directory holding the first of them.
 * path is a writable copy, cut down on the way. */
static int sync_made_dirs(char *path, int n, CombErr *err)
{
    for (int i = 0; i <= n; i++) {
        int rc = fs_fsync_dir(path, err);
        if (rc)
            return rc;
        strip_last(path);
    }
    return COMB_OK;
}

int fs_mkdirs_n(const char *path, int *n_created, CombErr *err)
{
    char tmp[4096];
    size_t n = strlen(path);
    int made_count = 0, rc;
    bool made = false;
    if (n_created)
        *n_created = 0;
    if (fs_s3_is_remote(path))
        return fs_remote_mkdirs(path, n_created, err);
    if (n >= sizeof tmp)
        return comb_err(err, COMB_EINVALID, "path too long '%s'", path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    memcpy(tmp, path, n);
    tmp[n] = '\0';
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = '\0';
        rc = make_one_dir(tmp, &made, err);
        *p = '/';
        if (rc)
            return rc;
        /* everything below a new directory is new as well */
        made_count = made ? made_count + 1 : 0;
    }
    if ((rc = make_one_dir(tmp, &made, err)))
        return rc;
    made_count = made ? made_count + 1 : 0;
    if (n_created)
        *n_created = made_count;
    return made_count ? sync_made_dirs(tmp, made_count, err) : COMB_OK;
}

int fs_mkdirs(const char *path, CombErr *err)
{
    return fs_mkdirs_n(path, NULL, err);
}

void fs_rmdirs_empty(const char *path, int n)
{
    char tmp[4096];
    size_t len = strlen(path);
    if (len >= sizeof tmp)
        return;
    if (fs_s3_is_remote(path)) {
        fs_remote_rmdir_empty(path, n);
        return;
    }
    memcpy(tmp, path, len + 1);
    while (len > 1 && tmp[len - 1] == '/')
        tmp[--len] = '\0';
    for (int i = 0; i < n; i++) {
        char *slash;
        if (injected("rmdir", tmp) || rmdir(tmp) != 0)
            return;
        fs_hook_trace("rmdir", tmp, NULL);
        if (!(slash = strrchr(tmp, '/')) || slash == tmp)
            return;
        *slash = '\0';
    }
}

int fs_is_dir(const char *path)
{
    struct stat st;
    if (fs_s3_is_remote(path))
        return fs_remote_is(path, true);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int fs_probe(const char *path, FsKind *kind, CombErr *err)
{
    struct stat st;
    if (fs_s3_is_remote(path))
        return fs_remote_probe(path, kind, err);
    if (stat(path, &st) == 0) {
        *kind = S_ISDIR(st.st_mode) ? FS_DIR : FS_FILE;
        return COMB_OK;
    }
    *kind = FS_ABSENT;
    return errno == ENOENT || errno == ENOTDIR ? COMB_OK
                                               : io_err(err, "cannot examine", path);
}

int fs_file_size(const char *path, uint64_t *size, CombErr *err)
{
    struct stat st;
    if (fs_s3_is_remote(path)) {
        int64_t mtime_ns;
        return fs_remote_version(path, size, &mtime_ns, err);
    }
    if (stat(path, &st) != 0)
        return io_err(err, "cannot examine", path);
    *size = (uint64_t)st.st_size;
    return COMB_OK;
}

int fs_file_version(const char *path, uint64_t *size, int64_t *mtime_ns,
                    CombErr *err)
{
    struct stat st;
    if (fs_s3_is_remote(path))
        return fs_remote_version(path, size, mtime_ns, err);
    if (stat(path, &st) != 0)
        return io_err(err, "cannot examine", path);
    *size = (uint64_t)st.st_size;
    *mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return COMB_OK;
}

int fs_exists(const char *path)
{
    struct stat st;
    if (fs_s3_is_remote(path))
        return fs_remote_is(path, false);
    return stat(path, &st) == 0;
}

int fs_unlink(const char *path, CombErr *err)
{
    if (fs_s3_is_remote(path))
        return fs_remote_unlink(path, err);
    if (injected("unlink", path) || (unlink(path) != 0 && errno != ENOENT))
        return io_err(err, "cannot remove", path);
    fs_hook_trace("unlink", path, NULL);
    return COMB_OK;
}

int fs_rename(const char *from, const char *to, CombErr *err)
{
    if (fs_s3_is_remote(from) || fs_s3_is_remote(to))
        return fs_remote_rename(from, to, err);
    if (injected("rename", from) || rename(from, to) != 0)
        return comb_err(err, COMB_EIO, "cannot rename '%s' to '%s': %s", from,
                        to, strerror(errno));
    fs_hook_trace("rename", from, to);
    return COMB_OK;
}

int fs_exchange(const char *a, const char *b, CombErr *err)
{
    if (fs_s3_is_remote(a) || fs_s3_is_remote(b))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "cannot exchange '%s' and '%s': an object store "
                        "cannot swap directories", a, b);
    if (injected("exchange", a) ||
        renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0) {
        int e = errno;
        if (e == EINVAL || e == ENOSYS || e == ENOTSUP)
            return comb_err(err, COMB_EUNSUPPORTED,
                            "cannot exchange '%s' and '%s': the file system "
                            "does not support an atomic exchange (%s)", a, b,
                            strerror(e));
        return comb_err(err, COMB_EIO, "cannot exchange '%s' and '%s': %s", a,
                        b, strerror(e));
    }
    fs_hook_trace("exchange", a, b);
    return COMB_OK;
}

int fs_link(const char *from, const char *to, CombErr *err)
{
    /* objects never change once written: a copy is as good as a link */
    if (fs_s3_is_remote(from) || fs_s3_is_remote(to))
        return fs_copy_file(from, to, err);
    if (injected("link", from) || link(from, to) != 0)
        return comb_err(err, COMB_EIO, "cannot link '%s' to '%s': %s", to,
                        from, strerror(errno));
    fs_hook_trace("link", from, to);
    return COMB_OK;
}

int fs_rename_aside(const char *path, const char *tag, CombArena *arena,
                    char **aside, CombErr *err)
{
    char *parent = fs_dirname(arena, path);
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char *to = NULL;
    int rc;
    if (!parent)
        return comb_err_nomem(err);
    for (int n = 1; !to || fs_exists(to); n++)
        if (!(to = comb_arena_printf(arena, "%s/.%s.%s-%d", parent, name, tag,
                                     n)))
            return comb_err_nomem(err);
    if ((rc = fs_rename(path, to, err)))
        return rc;
    if ((rc = fs_fsync_dir(parent, err))) {
        CombErr ignored;
        fs_rename(to, path, &ignored); /* not moved after all */
        return rc;
    }
    *aside = to;
    return COMB_OK;
}

static int remove_dir(const char *path, CombErr *err)
{
    if (injected("rmdir", path) || rmdir(path) != 0)
        return io_err(err, "cannot remove directory", path);
    fs_hook_trace("rmdir", path, NULL);
    return COMB_OK;
}

int fs_remove_tree(const char *path, CombErr *err)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int rc = COMB_OK;
    if (fs_s3_is_remote(path))
        return fs_s3_remove_tree(path, err);
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? COMB_OK : io_err(err, "cannot stat", path);
    if (!S_ISDIR(st.st_mode))
        return fs_unlink(path, err);
    d = opendir(path);
    if (!d)
        return io_err(err, "cannot open directory", path);
    while (!rc && (e = readdir(d)) != NULL) {
        char *child;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (asprintf(&child, "%s/%s", path, e->d_name) < 0) {
            rc = comb_err_nomem(err);
            break;
        }
        rc = fs_remove_tree(child, err);
        free(child);
    }
    closedir(d);
    return rc ? rc : remove_dir(path, err);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether entry e of the directory at path is a directory (following a
 * symbolic link, as fs_is_dir does): from the entry's type where the file
 * system gives it, else by stat. */
static bool entry_is_dir(const char *path, const struct dirent *e)
{
    char full[4096];
    if (e->d_type == DT_DIR)
        return true;
    if (e->d_type != DT_UNKNOWN && e->d_type != DT_LNK)
        return false;
    if (snprintf(full, sizeof full, "%s/%s", path, e->d_name) >=
        (int)sizeof full)
        return false;
    return fs_is_dir(full);
}

int fs_list_dir_typed(const char *path, CombArena *arena, char ***names,
                      bool **is_dir, int *n, CombErr *err)
{
    DIR *d;
    struct dirent *e;
    char **v = NULL;
    int cnt = 0, cap = 0;
    if (fs_s3_is_remote(path))
        return fs_remote_list(path, arena, names, is_dir, n, err);
    if (!(d = opendir(path)))
        return io_err(err, "cannot open directory", path);
    while ((e = readdir(d)) != NULL) {
        size_t len;
        char *copy;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (cnt == cap) {
            char **nv;
            cap = cap ? cap * 2 : 16;
            nv = comb_arena_alloc(arena, (size_t)cap * sizeof *nv);
            if (!nv) {
                closedir(d);
                return comb_err_nomem(err);
            }
            if (cnt)
                memcpy(nv, v, (size_t)cnt * sizeof *nv);
            v = nv;
        }
        /* the entry's kind rides in the byte before its name, so that it
         * follows the name through the sort */
        len = strlen(e->d_name);
        if (!(copy = comb_arena_alloc(arena, len + 2))) {
            closedir(d);
            return comb_err_nomem(err);
        }
        copy[0] = is_dir && entry_is_dir(path, e);
        memcpy(copy + 1, e->d_name, len + 1);
        v[cnt++] = copy + 1;
    }
    closedir(d);
    if (cnt)
        qsort(v, (size_t)cnt, sizeof *v, cmp_name);
    if (is_dir) {
        if (!(*is_dir = comb_arena_alloc(arena, (size_t)(cnt ? cnt : 1))))
            return comb_err_nomem(err);
        for (int i = 0; i < cnt; i++)
            (*is_dir)[i] = v[i][-1] != 0;
    }
    *names = v;
    *n = cnt;
    return COMB_OK;
}

int fs_list_dir(const char *path, CombArena *arena, char ***names, int *n,
                CombErr *err)
{
    return fs_list_dir_typed(path, arena, names, NULL, n, err);
}

/* By copies, not printf: the ACID reader joins a path per file it opens,
 * hundreds per scan of a table of many deltas. */
char *fs_join(CombArena *arena, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = comb_arena_alloc(arena, na + nb + 2);
    if (p) {
        memcpy(p, a, na);
        p[na] = '/';
        memcpy(p + na + 1, b, nb + 1);
    }
    return p;
}

char *fs_dirname(CombArena *arena, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return comb_arena_strdup(arena, ".");
    if (slash == path)
        return comb_arena_strdup(arena, "/");
    return comb_arena_strndup(arena, path, (size_t)(slash - path));
}

/* Append component [p, p+n) to the normalised path out[0..*len): "."
 * is dropped, ".." removes the last component (never above "/"). */
static void push_component(char *out, size_t *len, const char *p, size_t n)
{
    if (n == 0 || (n == 1 && p[0] == '.'))
        return;
    if (n == 2 && p[0] == '.' && p[1] == '.') {
        while (*len > 1 && out[*len - 1] != '/')
            (*len)--;
        if (*len > 1)
            (*len)--;
        out[*len] = '\0';
        return;
    }
    if (*len > 1)
        out[(*len)++] = '/';
    memcpy(out + *len, p, n);
    *len += n;
    out[*len] = '\0';
}

char *fs_absolute(CombArena *arena, const char *path)
{
    char cwd[4096];
    char *joined, *out;
    size_t len = 1;
    if (fs_s3_is_remote(path))
        return fs_remote_normalise(arena, path);
    if (path[0] == '/')
        joined = comb_arena_strdup(arena, path);
    else if (!getcwd(cwd, sizeof cwd))
        return NULL;
    else
        joined = comb_arena_printf(arena, "%s/%s", cwd, path);
    out = joined ? comb_arena_alloc(arena, strlen(joined) + 2) : NULL;
    if (!out)
        return NULL;
    out[0] = '/';
    out[1] = '\0';
    for (const char *p = joined; *p;) {
        size_t n = strcspn(p, "/");
        push_component(out, &len, p, n);
        p += n + (p[n] == '/');
    }
    return out;
}
