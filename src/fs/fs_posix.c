/*
 * fs_posix.c - local POSIX implementation of fs.h.
 */
#include "fs/fs.h"

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

int fs_create(const char *path, CombErr *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        io_err(err, "cannot create", path);
    return fd;
}

int fs_write_all(int fd, const void *p, size_t n, const char *path,
                 CombErr *err)
{
    const unsigned char *c = p;
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

int fs_sync_close(int fd, const char *path, CombErr *err)
{
    if (fsync(fd) != 0) {
        int rc = io_err(err, "cannot fsync", path);
        close(fd);
        return rc;
    }
    if (close(fd) != 0)
        return io_err(err, "cannot close", path);
    return COMB_OK;
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

int fs_fsync_dir(const char *path, CombErr *err)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = COMB_OK;
    if (fd < 0)
        return io_err(err, "cannot open directory", path);
    if (fsync(fd) != 0)
        rc = io_err(err, "cannot fsync directory", path);
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
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
    unsigned char *p;
    if (fd < 0)
        return io_err(err, "cannot open", path);
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

int fs_mkdirs(const char *path, CombErr *err)
{
    char tmp[4096];
    size_t n = strlen(path);
    if (n >= sizeof tmp)
        return comb_err(err, COMB_EINVALID, "path too long '%s'", path);
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return io_err(err, "cannot create directory", tmp);
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return io_err(err, "cannot create directory", tmp);
    return COMB_OK;
}

int fs_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int fs_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int fs_remove_tree(const char *path, CombErr *err)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int rc = COMB_OK;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? COMB_OK : io_err(err, "cannot stat", path);
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) != 0)
            return io_err(err, "cannot remove", path);
        return COMB_OK;
    }
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
    if (!rc && rmdir(path) != 0)
        rc = io_err(err, "cannot remove directory", path);
    return rc;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int fs_list_dir(const char *path, CombArena *arena, char ***names, int *n,
                CombErr *err)
{
    DIR *d = opendir(path);
    struct dirent *e;
    char **v = NULL;
    int cnt = 0, cap = 0;
    if (!d)
        return io_err(err, "cannot open directory", path);
    while ((e = readdir(d)) != NULL) {
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
        v[cnt] = comb_arena_strdup(arena, e->d_name);
        if (!v[cnt]) {
            closedir(d);
            return comb_err_nomem(err);
        }
        cnt++;
    }
    closedir(d);
    if (cnt)
        qsort(v, (size_t)cnt, sizeof *v, cmp_name);
    *names = v;
    *n = cnt;
    return COMB_OK;
}

char *fs_join(CombArena *arena, const char *a, const char *b)
{
    return comb_arena_printf(arena, "%s/%s", a, b);
}
