/*
 * hs2_passwd.c - the password file: hs2_passwd.h.
 */
#include "server/hs2_passwd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "common/alloc.h"
#include "common/buf.h"

/* scrypt's cost: 2^15 blocks of 128 * r bytes (32 MiB), about 0.1 s. */
enum { LOG2N = 15, R = 8, P = 1, SALT = 16, HASH = 32, NAME_MAX_LEN = 128 };
#define SCRYPT_MAXMEM ((uint64_t)256 << 20)

typedef struct Entry {
    unsigned log2n, r, p;
    unsigned char salt[SALT], hash[HASH];
} Entry;

bool hs2_passwd_name_ok(const char *user)
{
    size_t n = strlen(user);
    if (n == 0 || n > NAME_MAX_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = user[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || strchr("._-@", ch)))
            return false;
    }
    return true;
}

static int derive(const char *password, const Entry *e, unsigned char *out,
                  CombErr *err)
{
    if (e->log2n < 10 || e->log2n > 20 || e->r == 0 || e->r > 32 ||
        e->p == 0 || e->p > 16)
        return comb_err(err, COMB_EINVALID, "scrypt parameters %u/%u/%u are "
                        "out of range", e->log2n, e->r, e->p);
    if (!EVP_PBE_scrypt(password, strlen(password), e->salt, SALT,
                        (uint64_t)1 << e->log2n, e->r, e->p, SCRYPT_MAXMEM,
                        out, HASH))
        return comb_err(err, COMB_EINTERNAL, "scrypt failed");
    return COMB_OK;
}

static bool unhex(const char *s, size_t len, unsigned char *out, size_t n)
{
    if (len != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return false;
        out[i] = (unsigned char)v;
    }
    return true;
}

/* "scrypt$N$R$P$SALT$HASH" */
static bool parse_entry(const char *s, Entry *e)
{
    int salt_at = 0, salt_end = 0, hash_at = 0, hash_end = 0;
    if (sscanf(s, "scrypt$%u$%u$%u$%n%*[0-9a-f]%n$%n%*[0-9a-f]%n", &e->log2n,
               &e->r, &e->p, &salt_at, &salt_end, &hash_at, &hash_end) != 3 ||
        hash_end == 0 || s[hash_end] != '\0')
        return false;
    return unhex(s + salt_at, (size_t)(salt_end - salt_at), e->salt, SALT) &&
           unhex(s + hash_at, (size_t)(hash_end - hash_at), e->hash, HASH);
}

static int format_entry(CombBuf *b, const char *user, const Entry *e)
{
    int rc = comb_buf_printf(b, "%s:scrypt$%u$%u$%u$", user, e->log2n, e->r,
                             e->p);
    for (int i = 0; i < SALT; i++)
        rc |= comb_buf_printf(b, "%02x", e->salt[i]);
    rc |= comb_buf_printf(b, "$");
    for (int i = 0; i < HASH; i++)
        rc |= comb_buf_printf(b, "%02x", e->hash[i]);
    return rc | comb_buf_printf(b, "\n");
}

/* The whole file (empty when missing and missing_ok), NUL-terminated. */
static int read_whole(const char *file, bool missing_ok, char **out,
                      CombErr *err)
{
    FILE *f = fopen(file, "r");
    CombBuf b = COMB_BUF_INIT;
    char chunk[4096];
    size_t n;
    int rc = COMB_OK;
    if (!f && !(missing_ok && errno == ENOENT))
        return comb_err(err, COMB_EIO, "cannot read the password file '%s': "
                        "%s", file, strerror(errno));
    while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (comb_buf_append(&b, chunk, n)) {
            rc = comb_err_nomem(err);
            break;
        }
    if (!rc && f && ferror(f))
        rc = comb_err(err, COMB_EIO, "cannot read the password file '%s'",
                      file);
    if (f)
        fclose(f);
    if (!rc && comb_buf_append(&b, "", 1))
        rc = comb_err_nomem(err);
    if (rc) {
        comb_buf_free(&b);
        return rc;
    }
    *out = (char *)b.data;
    return COMB_OK;
}

/* Calls each(line's user, its entry text, arg) for every line of text
 * (modified: lines are cut at their ends), with user NULL and the line as
 * the entry for a comment or an empty line; stops at an error. */
static int each_line(const char *file, char *text,
                     int (*each)(const char *user, char *entry, void *arg,
                                 CombErr *err),
                     void *arg, CombErr *err)
{
    int line = 0, rc = COMB_OK;
    for (char *s = text, *next; s && *s && !rc; s = next) {
        char *colon;
        line++;
        if ((next = strchr(s, '\n')))
            *next++ = '\0';
        if (*s == '#' || *s == '\0') {
            rc = each(NULL, s, arg, err);
            continue;
        }
        if (!(colon = strchr(s, ':')))
            return comb_err(err, COMB_EINVALID, "%s:%d: expected "
                            "name:scrypt$...", file, line);
        *colon = '\0';
        rc = each(s, colon + 1, arg, err);
    }
    return rc;
}

typedef struct Lookup {
    const char *user;
    Entry entry;
    bool found, bad;
} Lookup;

static int lookup_one(const char *user, char *entry, void *arg, CombErr *err)
{
    Lookup *l = arg;
    (void)err;
    if (!user || l->found || strcmp(user, l->user) != 0)
        return COMB_OK;
    l->found = true;
    l->bad = !parse_entry(entry, &l->entry);
    return COMB_OK;
}

int hs2_passwd_check(const char *file, const char *user, const char *password,
                     bool *ok, CombErr *err)
{
    Lookup l = {user, {LOG2N, R, P, {0}, {0}}, false, false};
    unsigned char got[HASH];
    char *text;
    int rc;
    *ok = false;
    if ((rc = read_whole(file, false, &text, err)))
        return rc;
    rc = each_line(file, text, lookup_one, &l, err);
    comb_free(text);
    if (rc)
        return rc;
    if (l.bad)
        return comb_err(err, COMB_EINVALID, "the password file '%s' has a "
                        "malformed entry for '%s'", file, user);
    /* an unknown user is hashed as well: the time says nothing */
    if ((rc = derive(password, &l.entry, got, err)))
        return rc;
    *ok = l.found && CRYPTO_memcmp(got, l.entry.hash, HASH) == 0;
    OPENSSL_cleanse(got, sizeof got);
    return COMB_OK;
}

typedef struct Rewrite {
    const char *user;
    const Entry *entry;   /* NULL: remove the user */
    CombBuf *out;
    bool seen;
} Rewrite;

static int keep_or_replace(const char *user, char *entry, void *arg,
                           CombErr *err)
{
    Rewrite *w = arg;
    int rc;
    if (!user)
        return comb_buf_printf(w->out, "%s\n", entry) ? comb_err_nomem(err)
                                                      : COMB_OK;
    if (strcmp(user, w->user) != 0)
        rc = comb_buf_printf(w->out, "%s:%s\n", user, entry);
    else if (w->seen || !w->entry)
        rc = 0;     /* a repeated line goes too */
    else
        rc = format_entry(w->out, user, w->entry);
    w->seen = w->seen || strcmp(user, w->user) == 0;
    return rc ? comb_err_nomem(err) : COMB_OK;
}

/* Write text to file's replacement and rename it over file. */
static int replace_file(const char *file, const CombBuf *text, CombErr *err)
{
    char *tmp = comb_malloc(strlen(file) + 8);
    int fd, rc = COMB_OK;
    if (!tmp)
        return comb_err_nomem(err);
    sprintf(tmp, "%s.new", file);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || fchmod(fd, 0600) ||
        write(fd, text->data, text->len) != (ssize_t)text->len ||
        fsync(fd) || close(fd) || (fd = -1, rename(tmp, file)))
        rc = comb_err(err, COMB_EIO, "cannot write the password file '%s': "
                      "%s", file, strerror(errno));
    if (rc && fd >= 0)
        close(fd);
    if (rc)
        unlink(tmp);
    comb_free(tmp);
    return rc;
}

static int rewrite_locked(const char *file, const char *user,
                          const char *password, CombErr *err)
{
    Entry e = {LOG2N, R, P, {0}, {0}};
    CombBuf out = COMB_BUF_INIT;
    Rewrite w = {user, password ? &e : NULL, &out, false};
    char *text;
    int rc;
    if (password && RAND_bytes(e.salt, SALT) != 1)
        return comb_err(err, COMB_EINTERNAL, "no random bytes for a salt");
    if (password && (rc = derive(password, &e, e.hash, err)))
        return rc;
    if ((rc = read_whole(file, true, &text, err)))
        return rc;
    rc = each_line(file, text, keep_or_replace, &w, err);
    comb_free(text);
    if (!rc && !w.seen && !password)
        rc = comb_err(err, COMB_ENOTFOUND, "user '%s' is not in the password "
                      "file '%s'", user, file);
    if (!rc && !w.seen && format_entry(&out, user, &e))
        rc = comb_err_nomem(err);
    if (!rc)
        rc = replace_file(file, &out, err);
    comb_buf_free(&out);
    OPENSSL_cleanse(&e, sizeof e);
    return rc;
}

int hs2_passwd_set(const char *file, const char *user, const char *password,
                   CombErr *err)
{
    char *lock;
    int fd, rc;
    if (!hs2_passwd_name_ok(user))
        return comb_err(err, COMB_EINVALID, "bad user name '%s': 1 to %d "
                        "letters, digits or ._-@", user, NAME_MAX_LEN);
    if (password && !*password)
        return comb_err(err, COMB_EINVALID, "the password is empty");
    if (!(lock = comb_malloc(strlen(file) + 8)))
        return comb_err_nomem(err);
    sprintf(lock, "%s.lock", file);
    fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || flock(fd, LOCK_EX)) {
        rc = comb_err(err, COMB_EIO, "cannot lock '%s': %s", lock,
                      strerror(errno));
    } else {
        rc = rewrite_locked(file, user, password, err);
    }
    if (fd >= 0)
        close(fd);
    comb_free(lock);
    return rc;
}
