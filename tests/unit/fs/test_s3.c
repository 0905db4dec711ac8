/* fs/ on an object store: fs.h's calls on s3a:// paths against a real S3
 * server (tests/integration/s3_fs.sh starts one and sets
 * COMB_TEST_S3_ENDPOINT and COMB_TEST_S3_BUCKET; without them every test
 * here reports itself skipped). */
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "fs/fs_int.h"

/* A fresh prefix on the test's bucket, or NULL (the test is skipped). */
static char *s3_root(CombArena *a)
{
    static int seq;
    const char *ep = getenv("COMB_TEST_S3_ENDPOINT");
    const char *bucket = getenv("COMB_TEST_S3_BUCKET");
    CombErr err;
    if (!ep || !bucket) {
        unit_skip("no S3 server (tests/integration/s3_fs.sh starts one)");
        return NULL;
    }
    if (fs_configure("fs.s3a.endpoint", ep, &err) ||
        fs_configure("fs.s3a.path.style.access", "true", &err) ||
        fs_configure("fs.s3a.attempts.maximum", "3", &err) ||
        fs_configure("fs.s3a.multipart.size", "5M", &err))
        return NULL;
    return comb_arena_printf(a, "s3a://%s/u%d-%d", bucket, (int)getpid(),
                             seq++);
}

/* A test on the store: its body gets an arena (freed however the body
 * ends) and a fresh prefix `root`; skipped without a server. */
#define S3_TEST(name)                                                   \
    static void name##_on(CombArena *a, const char *root);              \
    TEST(name)                                                          \
    {                                                                   \
        CombArena arena;                                                \
        comb_arena_init(&arena, 0);                                     \
        char *root = s3_root(&arena);                                   \
        if (root)                                                       \
            name##_on(&arena, root);                                    \
        comb_arena_free(&arena);                                        \
    }                                                                   \
    static void name##_on(CombArena *a, const char *root)

static int put(const char *path, const void *p, size_t n)
{
    CombErr err;
    return fs_write_file(path, p, n, &err);
}

static bool same_bytes(const char *path, const unsigned char *want, size_t n,
                       CombArena *a)
{
    unsigned char *got;
    size_t len;
    CombErr err;
    return fs_read_file(path, a, &got, &len, &err) == COMB_OK && len == n &&
           (n == 0 || memcmp(got, want, n) == 0);
}

S3_TEST(s3_files_round_trip_single_and_multipart)
{
    size_t big = ((size_t)11 << 20) + 1; /* two 5 MiB parts and a last one */
    unsigned char *bytes = comb_arena_alloc(a, big);
    CHECK(bytes != NULL);
    for (size_t i = 0; i < big; i++)
        bytes[i] = (unsigned char)(i * 131 + (i >> 13));
    size_t sizes[] = {0, 1, big};
    for (int k = 0; k < 3; k++) {
        char *p = comb_arena_printf(a, "%s/f%d", root, k);
        uint64_t size;
        CHECK_EQ(put(p, bytes, sizes[k]), COMB_OK);
        CHECK(same_bytes(p, bytes, sizes[k], a));
        CombErr err;
        CHECK_OK(fs_file_size(p, &size, &err), &err);
        CHECK_EQ(size, sizes[k]);
    }
}

S3_TEST(s3_reads_past_the_end_and_missing_objects)
{
    char *p = comb_arena_printf(a, "%s/short", root), buf[8];
    CombErr err;
    FsFile *f;
    CHECK_EQ(put(p, "abc", 3), COMB_OK);
    CHECK((f = fs_open_read(p, &err)) != NULL);
    CHECK_EQ(fs_pread_all(f, buf, 2, 1, &err), COMB_OK);
    CHECK(memcmp(buf, "bc", 2) == 0);
    CHECK_EQ(fs_pread_all(f, buf, 3, 1, &err), COMB_ECORRUPT);
    fs_discard(f);
    char *gone = comb_arena_printf(a, "%s/none", root);
    CHECK(fs_open_read(gone, &err) == NULL);
    CHECK_EQ(err.code, COMB_ENOTFOUND);
    CHECK(strstr(err.msg, gone) != NULL);
    CHECK(!fs_exists(gone));
    CHECK_EQ(fs_unlink(gone, &err), COMB_OK); /* missing is fine */
}

S3_TEST(s3_directories_are_prefixes_with_markers)
{
    CombErr err;
    char **names;
    bool *is_dir;
    int n, made;
    char *d = comb_arena_printf(a, "%s/t/delta_1", root);
    /* as mkdir -p: a marker for each missing level (root, t, delta_1) */
    CHECK_OK(fs_mkdirs_n(d, &made, &err), &err);
    CHECK_EQ(made, 3);
    CHECK(fs_is_dir(d));
    CHECK_OK(fs_mkdirs_n(d, &made, &err), &err);
    CHECK_EQ(made, 0);
    /* an empty directory: its marker is not one of its entries */
    CHECK_OK(fs_list_dir(d, a, &names, &n, &err), &err);
    CHECK_EQ(n, 0);
    /* "a-b" sorts before "a" + "/": listings still come strcmp-sorted */
    CHECK_EQ(put(comb_arena_printf(a, "%s/t/a-b", root), "x", 1), 0);
    CHECK_EQ(put(comb_arena_printf(a, "%s/t/a/c", root), "x", 1), 0);
    CHECK_OK(fs_list_dir_typed(comb_arena_printf(a, "%s/t", root), a,
                               &names, &is_dir, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK_STR(names[0], "a");
    CHECK(is_dir[0]);
    CHECK_STR(names[1], "a-b");
    CHECK(!is_dir[1]);
    CHECK_STR(names[2], "delta_1");
    CHECK(is_dir[2]);
    fs_rmdirs_empty(d, 1);
    CHECK(!fs_is_dir(d));
    CHECK(fs_list_dir(d, a, &names, &n, &err) != COMB_OK);
    /* a partition two levels down lists at each level */
    char *leaf = comb_arena_printf(a, "%s/pt/p=x/n=1", root);
    CHECK_OK(fs_mkdirs_n(leaf, &made, &err), &err);
    CHECK_EQ(made, 3);
    CHECK_EQ(put(comb_arena_printf(a, "%s/000000_0", leaf), "x", 1), 0);
    CHECK_OK(fs_list_dir_typed(comb_arena_printf(a, "%s/pt", root), a,
                               &names, &is_dir, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_STR(names[0], "p=x");
    CHECK(is_dir[0]);
    /* undone level by level, as far as the levels are empty */
    CHECK_OK(fs_unlink(comb_arena_printf(a, "%s/000000_0", leaf), &err),
             &err);
    fs_rmdirs_empty(leaf, 2);
    CHECK(!fs_is_dir(comb_arena_printf(a, "%s/pt/p=x", root)));
    CHECK(fs_is_dir(comb_arena_printf(a, "%s/pt", root)));
}

S3_TEST(s3_tails_prefetched_together)
{
    enum { FILES = 5 };
    const char *paths[FILES];
    unsigned char body[100], got[16];
    CombErr err;
    for (int i = 0; i < (int)sizeof body; i++)
        body[i] = (unsigned char)i;
    for (int i = 0; i < FILES; i++) {
        paths[i] = comb_arena_printf(a, "%s/tail/f%d", root, i);
        /* f0 is shorter than the tail asked for: all of it */
        CHECK_EQ(put(paths[i], body, i ? sizeof body : 10), 0);
    }
    fs_remember(true);
    fs_prefetch_tails(paths, FILES, 16);
    for (int i = 0; i < FILES; i++) {
        FsFile *f = fs_open_read(paths[i], &err);
        size_t len = i ? sizeof body : 10, n = len < 16 ? len : 16;
        CHECK(f != NULL);
        if (!f)
            continue;
        CHECK_OK(fs_pread_all(f, got, n, len - n, &err), &err);
        CHECK(memcmp(got, body + len - n, n) == 0);
        CHECK_OK(fs_pread_all(f, got, 4, 2, &err), &err);
        CHECK(memcmp(got, body + 2, 4) == 0);
        fs_close(f, &err);
    }
    fs_remember(false);
    /* without a statement's cache: nothing to do, nothing breaks */
    fs_prefetch_tails(paths, FILES, 16);
}

S3_TEST(s3_listing_and_removal_beyond_one_page)
{
    CombErr err;
    char **names;
    int n;
    char *d = comb_arena_printf(a, "%s/many", root);
    for (int i = 0; i < 1003; i++)
        CHECK_EQ(put(comb_arena_printf(a, "%s/f%04d", d, i), "", 0), 0);
    CHECK_OK(fs_list_dir(d, a, &names, &n, &err), &err);
    CHECK_EQ(n, 1003);
    CHECK_STR(names[1002], "f1002");
    CHECK_OK(fs_remove_tree(d, &err), &err);
    CHECK(!fs_exists(d));
    CHECK(!fs_exists(comb_arena_printf(a, "%s/f0500", d)));
}

S3_TEST(s3_rename_moves_a_tree)
{
    CombErr err;
    char *from = comb_arena_printf(a, "%s/from", root);
    char *to = comb_arena_printf(a, "%s/to", root);
    CHECK_EQ(put(comb_arena_printf(a, "%s/x", from), "1", 1), 0);
    CHECK_EQ(put(comb_arena_printf(a, "%s/sub/y", from), "22", 2), 0);
    CHECK_OK(fs_rename(from, to, &err), &err);
    CHECK(!fs_exists(from));
    CHECK(same_bytes(comb_arena_printf(a, "%s/x", to),
                     (const unsigned char *)"1", 1, a));
    CHECK(same_bytes(comb_arena_printf(a, "%s/sub/y", to),
                     (const unsigned char *)"22", 2, a));
    CHECK_EQ(fs_exchange(from, to, &err), COMB_EUNSUPPORTED);
}

S3_TEST(s3_unfinished_files_stay_invisible)
{
    CombErr err;
    FsS3Stat st;
    char *p = comb_arena_printf(a, "%s/pending", root);
    FsFile *f = fs_create(p, &err);
    CHECK(f != NULL);
    CHECK_OK(fs_write_all(f, "abc", 3, &err), &err);
    fs_discard(f);
    CHECK_OK(fs_s3_stat(p, &st, &err), &err);
    CHECK(!st.exists);
    /* closed without fsync: pending in this process, not on the store */
    CHECK((f = fs_create(p, &err)) != NULL);
    CHECK_OK(fs_write_all(f, "abc", 3, &err), &err);
    CHECK_OK(fs_close(f, &err), &err);
    CHECK_OK(fs_s3_stat(p, &st, &err), &err);
    CHECK(!st.exists);
    CHECK((f = fs_open_append(p, &err)) != NULL);
    CHECK_OK(fs_write_all(f, "de", 2, &err), &err);
    CHECK_OK(fs_sync_close(f, &err), &err);
    CHECK(same_bytes(p, (const unsigned char *)"abcde", 5, a));
    /* appending to a committed object rewrites it whole */
    CHECK((f = fs_open_append(p, &err)) != NULL);
    CHECK_OK(fs_write_all(f, "f", 1, &err), &err);
    CHECK_OK(fs_sync_close(f, &err), &err);
    CHECK(same_bytes(p, (const unsigned char *)"abcdef", 6, a));
}

S3_TEST(s3_unreachable_store_fails_naming_the_object)
{
    CombErr err;
    char *p = comb_arena_printf(a, "%s/never", root);
    const char *secret = getenv("AWS_SECRET_ACCESS_KEY");
    CHECK_OK(fs_configure("fs.s3a.endpoint", "http://127.0.0.1:1", &err),
             &err);
    CHECK_EQ(fs_write_file(p, "x", 1, &err), COMB_EIO);
    CHECK(strstr(err.msg, p + 6) != NULL); /* bucket/key */
    CHECK(strstr(err.msg, "after retries") != NULL);
    CHECK(!secret || !*secret || strstr(err.msg, secret) == NULL);
    CHECK_OK(fs_configure("fs.s3a.endpoint",
                          getenv("COMB_TEST_S3_ENDPOINT"), &err), &err);
    CHECK_EQ(fs_configure("fs.s3a.attempts.maximum", "many", &err),
             COMB_EINVALID);
    CHECK(fs_setting_is_secret("fs.s3a.secret.key"));
    CHECK(!fs_setting_is_secret("fs.s3a.endpoint"));
}
