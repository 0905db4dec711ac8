/*
 * fs_posix.c - local POSIX implementation of fs.h.  Every call that
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

int fs_create(const char *path, CombErr *err)
{
    int fd = injected("create", path)
                 ? -1
                 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        io_err(err, "cannot create", path);
    else
        fs_hook_trace("create", path, NULL);
    return fd;
}

int fs_open_append(const char *path, CombErr *err)
{
    int fd = injected("open", path)
                 ? -1
                 : open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        io_err(err, "cannot open", path);
    return fd;
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
int fs_open_read(const char *path, CombErr *err)
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

int fs_write_all(int fd, const void *p, size_t n, const char *path,
                 CombErr *err)
{
    const unsigned char *c = p;
    if (injected("write", path))
        return io_err(err, "cannot write", path);
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return io_err(err, "cannot write", path);
        }
        c += w;
        n -= (size_t)w;
    }
    return COMB_OK;
}

int fs_read_some(int fd, void *p, size_t n, size_t *got, const char *path,
                 CombErr *err)
{
    ssize_t r;
    if (injected("read", path))
        return io_err(err, "cannot read", path);
    do
        r = read(fd, p, n);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return io_err(err, "cannot read", path);
    *got = (size_t)r;
    return COMB_OK;
}

int fs_close(int fd, const char *path, CombErr *err)
{
    if (close(fd) != 0)
        return io_err(err, "cannot close", path);
    return COMB_OK;
}

int fs_sync_close(int fd, const char *path, CombErr *err)
{
    if (injected("fsync", path) || fsync(fd) != 0) {
        int rc = io_err(err, "cannot fsync", path);
        close(fd);
        return rc;
    }
    fs_hook_trace("fsync", path, NULL);
    return fs_close(fd, path, err);
}

int fs_write_file(const char *path, const void *p, size_t n, CombErr *err)
{
    int fd = fs_create(path, err), rc;
    if (fd < 0)
        return COMB_EIO;
    rc = fs_write_all(fd, p, n, path, err);
    if (rc) {
        close(fd);
        return rc;
    }
    return fs_sync_close(fd, path, err);
}

int fs_copy_file(const char *from, const char *to, CombErr *err)
{
    enum { CHUNK = 1 << 20 };
    int in = fs_open_read(from, err), out, rc = COMB_OK;
    unsigned char *buf;
    ssize_t got;
    if (in < 0)
        return err->code;
    if (!(buf = malloc(CHUNK))) {
        close(in);
        return comb_err_nomem(err);
    }
    if ((out = fs_create(to, err)) < 0) {
        free(buf);
        close(in);
        return err->code;
    }
    while (!rc && (got = read(in, buf, CHUNK)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        rc = got < 0 ? io_err(err, "cannot read", from)
                     : fs_write_all(out, buf, (size_t)got, to, err);
    }
    free(buf);
    close(in);
    if (rc) {
        close(out);
        unlink(to);
        return rc;
    }
    if ((rc = fs_sync_close(out, to, err)))
        unlink(to);
    return rc;
}

int fs_fsync_dir(const char *path, CombErr *err)
{
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

int fs_pread_all(int fd, void *p, size_t n, uint64_t off, const char *path,
                 CombErr *err)
{
    unsigned char *c = p;
    while (n > 0) {
        ssize_t r = pread(fd, c, n, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return io_err(err, "cannot read", path);
        }
        if (r == 0)
            return comb_err(err, COMB_ECORRUPT,
                            "corrupt file '%s': unexpected end of file", path);
        c += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return COMB_OK;
}

int fs_read_file(const char *path, CombArena *arena, unsigned char **out,
                 size_t *len, CombErr *err)
{
    struct stat st;
    int fd = fs_open_read(path, err), rc;
    unsigned char *p;
    if (fd < 0)
        return COMB_EIO;
    if (fstat(fd, &st) != 0) {
        rc = io_err(err, "cannot stat", path);
        close(fd);
        return rc;
    }
    p = comb_arena_alloc(arena, (size_t)st.st_size + 1);
    if (!p) {
        close(fd);
        return comb_err_nomem(err);
    }
    rc = fs_pread_all(fd, p, (size_t)st.st_size, 0, path, err);
    close(fd);
    if (rc)
        return rc;
    p[st.st_size] = '\0';
    *out = p;
    *len = (size_t)st.st_size;
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
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int fs_file_size(const char *path, uint64_t *size, CombErr *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return io_err(err, "cannot examine", path);
    *size = (uint64_t)st.st_size;
    return COMB_OK;
}

int fs_file_version(const char *path, uint64_t *size, int64_t *mtime_ns,
                    CombErr *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return io_err(err, "cannot examine", path);
    *size = (uint64_t)st.st_size;
    *mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return COMB_OK;
}

int fs_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int fs_unlink(const char *path, CombErr *err)
{
    if (injected("unlink", path) || (unlink(path) != 0 && errno != ENOENT))
        return io_err(err, "cannot remove", path);
    fs_hook_trace("unlink", path, NULL);
    return COMB_OK;
}

int fs_rename(const char *from, const char *to, CombErr *err)
{
    if (injected("rename", from) || rename(from, to) != 0)
        return comb_err(err, COMB_EIO, "cannot rename '%s' to '%s': %s", from,
                        to, strerror(errno));
    fs_hook_trace("rename", from, to);
    return COMB_OK;
}

int fs_exchange(const char *a, const char *b, CombErr *err)
{
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
    DIR *d = opendir(path);
    struct dirent *e;
    char **v = NULL;
    int cnt = 0, cap = 0;
    if (!d)
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

char *fs_join(CombArena *arena, const char *a, const char *b)
{
    return comb_arena_printf(arena, "%s/%s", a, b);
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
