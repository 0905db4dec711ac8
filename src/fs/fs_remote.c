/*
 * fs_remote.c - fs.h on object-store paths, over fs_s3.h.
 *
 * The one local habit a store cannot follow is appending: the ORC writer
 * creates a file, closes it, and opens it again for each stripe, so that
 * a statement writing many buckets holds few descriptors.  On a store a
 * file closed without fsync therefore stays pending in this process (its
 * upload open, invisible to everyone) until it is opened for appending
 * again and finally completed by fs_sync_close, or dropped by fs_unlink
 * or a new fs_create of the same name.
 */
#include "fs/fs_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct Pending {
    struct Pending *next;
    FsS3File *upload;
    uint64_t written;
    char path[];
} Pending;

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static Pending *pending;

/* Take the pending upload of path out of the list (NULL: none). */
static Pending *pending_take(const char *path)
{
    Pending *found = NULL;
    pthread_mutex_lock(&pending_lock);
    for (Pending **p = &pending; *p; p = &(*p)->next)
        if (!strcmp((*p)->path, path)) {
            found = *p;
            *p = found->next;
            break;
        }
    pthread_mutex_unlock(&pending_lock);
    return found;
}

static bool pending_has(const char *path)
{
    bool has = false;
    pthread_mutex_lock(&pending_lock);
    for (Pending *p = pending; p && !has; p = p->next)
        has = !strcmp(p->path, path);
    pthread_mutex_unlock(&pending_lock);
    return has;
}

static void pending_drop(const char *path)
{
    Pending *p = pending_take(path);
    if (p) {
        fs_s3_discard(p->upload);
        free(p);
    }
}

static FsFile *wrap(FsS3File *s3, const char *path, bool writing,
                    uint64_t written, CombErr *err)
{
    FsFile *f = fs_file_new(path, -1, s3, writing, written);
    if (!f) {
        fs_s3_discard(s3);
        comb_err_nomem(err);
    }
    return f;
}

bool fs_is_remote(const char *path)
{
    return fs_s3_is_remote(path);
}

int fs_configure(const char *name, const char *value, CombErr *err)
{
    return fs_s3_configure(name, value, err);
}

void fs_remember(bool on)
{
    fs_s3_remember(on);
}

void fs_prefetch_tails(const char *const *paths, int n, size_t len)
{
    if (n > 0 && fs_s3_is_remote(paths[0]))
        fs_s3_prefetch_tails(paths, n, len);
}

bool fs_setting_is_secret(const char *name)
{
    static const char *const secret[] = {"fs.s3a.access.key",
                                         "fs.s3a.secret.key",
                                         "fs.s3a.session.token"};
    for (size_t i = 0; i < sizeof secret / sizeof *secret; i++)
        if (!strcasecmp(name, secret[i]))
            return true;
    return false;
}

FsFile *fs_remote_create(const char *path, CombErr *err)
{
    FsS3File *s3;
    pending_drop(path);
    if (fs_s3_create(path, &s3, err))
        return NULL;
    return wrap(s3, path, true, 0, err);
}

/* A new upload of path that starts with the committed object's bytes. */
static FsFile *rewrite_committed(const char *path, CombErr *err)
{
    FsS3File *in, *out;
    uint64_t size;
    unsigned char *buf = NULL;
    int rc;
    if (fs_s3_open_read(path, &in, err))
        return NULL;
    size = fs_s3_size(in);
    if (!(buf = malloc(size ? (size_t)size : 1))) {
        fs_s3_discard(in);
        comb_err_nomem(err);
        return NULL;
    }
    rc = fs_s3_pread(in, buf, (size_t)size, 0, err);
    fs_s3_discard(in);
    if (!rc && !(rc = fs_s3_create(path, &out, err)) &&
        (rc = fs_s3_write(out, buf, (size_t)size, err)))
        fs_s3_discard(out);
    free(buf);
    return rc ? NULL : wrap(out, path, true, size, err);
}

FsFile *fs_remote_open_append(const char *path, CombErr *err)
{
    Pending *p = pending_take(path);
    FsFile *f;
    if (!p)
        return rewrite_committed(path, err);
    f = wrap(p->upload, path, true, p->written, err);
    free(p);
    return f;
}

FsFile *fs_remote_open_read(const char *path, CombErr *err)
{
    FsS3File *s3;
    if (fs_s3_open_read(path, &s3, err))
        return NULL;
    return wrap(s3, path, false, 0, err);
}

int fs_remote_size(FsFile *f, uint64_t *size, CombErr *err)
{
    (void)err;
    *size = f->writing ? f->written : fs_s3_size(f->remote);
    return COMB_OK;
}

int fs_remote_write(FsFile *f, const void *p, size_t n, CombErr *err)
{
    int rc = fs_s3_write(f->remote, p, n, err);
    if (!rc)
        f->written += n;
    return rc;
}

int fs_remote_read_some(FsFile *f, void *p, size_t n, size_t *got,
                        CombErr *err)
{
    return fs_s3_read_some(f->remote, p, n, got, err);
}

int fs_remote_pread(FsFile *f, void *p, size_t n, uint64_t off,
                    CombErr *err)
{
    return fs_s3_pread(f->remote, p, n, off, err);
}

/* Keep f's upload for a later fs_open_append of its path. */
static int keep_pending(FsFile *f, CombErr *err)
{
    size_t n = strlen(f->path) + 1;
    Pending *p = malloc(sizeof *p + n);
    if (!p) {
        fs_s3_discard(f->remote);
        free(f);
        return comb_err_nomem(err);
    }
    p->upload = f->remote;
    p->written = f->written;
    memcpy(p->path, f->path, n);
    free(f);
    pthread_mutex_lock(&pending_lock);
    p->next = pending;
    pending = p;
    pthread_mutex_unlock(&pending_lock);
    return COMB_OK;
}

int fs_remote_close(FsFile *f, bool sync, CombErr *err)
{
    int rc = COMB_OK;
    if (f->writing && !sync)
        return keep_pending(f, err);
    if (f->writing)
        rc = fs_s3_commit(f->remote, err);
    else
        fs_s3_discard(f->remote);
    free(f);
    return rc;
}

void fs_remote_discard(FsFile *f)
{
    fs_s3_discard(f->remote);
    free(f);
}

/* The parent of a store path, in place; false at the bucket itself. */
static bool to_parent(char *path)
{
    char *root = strstr(path, "://");
    char *first = root ? strchr(root + 3, '/') : NULL;
    char *slash = strrchr(path, '/');
    if (!first || slash <= first)
        return false;
    *slash = '\0';
    return true;
}

/* As mkdir -p does: a marker for every level missing, so that listings
 * show each level as a local file system does, and fs_rmdirs_empty
 * undoes them level by level. */
int fs_remote_mkdirs(const char *path, int *n_created, CombErr *err)
{
    char *p = strdup(path);
    int depth = 0, made = 0, rc = p ? COMB_OK : comb_err_nomem(err);
    FsS3Stat st;
    if (n_created)
        *n_created = 0;
    /* up to the first level that exists */
    while (!rc && !(rc = fs_s3_stat(p, &st, err)) && !st.exists) {
        depth++;
        if (!to_parent(p))
            break;
    }
    if (!rc && st.exists && !st.is_dir)
        rc = comb_err(err, COMB_EIO, "cannot create directory '%s': a file "
                      "named '%s' exists", path, p);
    /* then down again, a marker per level */
    while (!rc && depth > 0) {
        snprintf(p, strlen(path) + 1, "%s", path);
        for (int up = 1; up < depth; up++)
            to_parent(p);
        if (!(rc = fs_s3_mkdir(p, err)))
            made++;
        depth--;
    }
    if (n_created)
        *n_created = made;
    free(p);
    return rc;
}

void fs_remote_rmdir_empty(const char *path, int n)
{
    CombArena arena;
    CombErr ignored;
    char **names, *p = strdup(path);
    int cnt;
    comb_arena_init(&arena, 0);
    for (int i = 0; p && i < n; i++) {
        if (fs_s3_list(p, &arena, &names, NULL, &cnt, &ignored) != COMB_OK ||
            cnt != 0)
            break;
        fs_s3_remove_tree(p, &ignored); /* just its marker */
        if (!to_parent(p))
            break;
    }
    comb_arena_free(&arena);
    free(p);
}

int fs_remote_is(const char *path, bool dir_only)
{
    FsS3Stat st;
    CombErr ignored;
    if (!dir_only && pending_has(path))
        return 1;
    if (fs_s3_stat(path, &st, &ignored) || !st.exists)
        return 0;
    return !dir_only || st.is_dir;
}

int fs_remote_probe(const char *path, FsKind *kind, CombErr *err)
{
    FsS3Stat st;
    int rc = COMB_OK;
    *kind = FS_ABSENT;
    if (pending_has(path))
        *kind = FS_FILE;
    else if (!(rc = fs_s3_stat(path, &st, err)) && st.exists)
        *kind = st.is_dir ? FS_DIR : FS_FILE;
    return rc;
}

int fs_remote_version(const char *path, uint64_t *size, int64_t *mtime_ns,
                      CombErr *err)
{
    FsS3Stat st;
    int rc = fs_s3_stat(path, &st, err);
    if (rc)
        return rc;
    if (!st.exists || st.is_dir)
        return comb_err(err, COMB_EIO, "cannot examine '%s': %s", path,
                        st.exists ? "it is a directory" : "it does not exist");
    *size = st.size;
    *mtime_ns = st.mtime_ns;
    return COMB_OK;
}

int fs_remote_unlink(const char *path, CombErr *err)
{
    if (pending_has(path)) {
        pending_drop(path);
        return COMB_OK;
    }
    return fs_s3_unlink(path, err);
}

int fs_remote_rename(const char *from, const char *to, CombErr *err)
{
    if (!fs_s3_is_remote(from) || !fs_s3_is_remote(to))
        return comb_err(err, COMB_EUNSUPPORTED, "cannot rename '%s' to '%s': "
                        "one is on an object store and the other is not",
                        from, to);
    return fs_s3_rename(from, to, err);
}

int fs_remote_list(const char *path, CombArena *arena, char ***names,
                   bool **is_dir, int *n, CombErr *err)
{
    return fs_s3_list(path, arena, names, is_dir, n, err);
}

/* "s3a://bucket/a//b/./c/../d/" -> "s3a://bucket/a/b/d": the key part
 * normalised as a local path is (never above the bucket). */
char *fs_remote_normalise(CombArena *arena, const char *path)
{
    const char *auth = strstr(path, "://") + 3;
    const char *key = strchr(auth, '/');
    size_t pre = key ? (size_t)(key - path) : strlen(path);
    char *out = comb_arena_alloc(arena, strlen(path) + 2);
    size_t len;
    if (!out)
        return NULL;
    memcpy(out, path, pre);
    len = pre;
    out[len] = '\0';
    for (const char *p = key; p && *p;) {
        size_t n;
        while (*p == '/')
            p++;
        n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (len > pre && out[len - 1] != '/')
                len--;
            if (len > pre)
                len--;
        } else if (n && !(n == 1 && p[0] == '.')) {
            out[len++] = '/';
            memcpy(out + len, p, n);
            len += n;
        }
        out[len] = '\0';
        p += n;
    }
    return out;
}
