/* server/hs2_passwd.c: the password file's users checked and changed,
 * malformed files refused with the line that is wrong. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "server/hs2_passwd.h"

static const char *file_in_tmp(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static bool login(const char *file, const char *user, const char *pw)
{
    CombErr err;
    bool ok = false;
    if (hs2_passwd_check(file, user, pw, &ok, &err))
        return false;
    return ok;
}

TEST(hs2_passwd_users_set_checked_and_removed)
{
    const char *f = file_in_tmp("users");
    CombErr err;
    CHECK_OK(hs2_passwd_set(f, "ann", "one", &err), &err);
    CHECK_OK(hs2_passwd_set(f, "ben.b@x-y_z", "two:with\tcolon", &err), &err);
    CHECK(login(f, "ann", "one"));
    CHECK(!login(f, "ann", "One"));
    CHECK(!login(f, "ann", "one "));
    CHECK(!login(f, "ann", ""));
    CHECK(login(f, "ben.b@x-y_z", "two:with\tcolon"));
    CHECK(!login(f, "ben", "two:with\tcolon"));
    CHECK(!login(f, "nobody", "one"));
    CHECK_OK(hs2_passwd_set(f, "ann", "three", &err), &err);
    CHECK(!login(f, "ann", "one"));
    CHECK(login(f, "ann", "three"));
    CHECK_OK(hs2_passwd_set(f, "ann", NULL, &err), &err);
    CHECK(!login(f, "ann", "three"));
    CHECK(login(f, "ben.b@x-y_z", "two:with\tcolon"));
    CHECK_EQ(hs2_passwd_set(f, "ann", NULL, &err), COMB_ENOTFOUND);
    CHECK_EQ(hs2_passwd_set(f, "", "x", &err), COMB_EINVALID);
    CHECK_EQ(hs2_passwd_set(f, "a b", "x", &err), COMB_EINVALID);
    CHECK_EQ(hs2_passwd_set(f, "ann", "", &err), COMB_EINVALID);
    char long_name[130];
    memset(long_name, 'n', 129);
    long_name[129] = '\0';
    CHECK_EQ(hs2_passwd_set(f, long_name, "x", &err), COMB_EINVALID);
    long_name[128] = '\0';
    CHECK_OK(hs2_passwd_set(f, long_name, "x", &err), &err);
    CHECK(login(f, long_name, "x"));
}

TEST(hs2_passwd_comments_kept_and_bad_lines_refused)
{
    const char *f = file_in_tmp("edited");
    CombErr err;
    bool ok;
    CHECK_OK(hs2_passwd_set(f, "ann", "one", &err), &err);
    /* a comment and an empty line survive a change */
    FILE *a = fopen(f, "a");
    fputs("# the admins\n\n", a);
    fclose(a);
    CHECK_OK(hs2_passwd_set(f, "bob", "two", &err), &err);
    FILE *r = fopen(f, "r");
    char buf[1024] = {0};
    size_t len = fread(buf, 1, sizeof buf - 1, r);
    fclose(r);
    CHECK(len > 0 && strstr(buf, "# the admins\n") != NULL);
    CHECK(login(f, "ann", "one") && login(f, "bob", "two"));

    const char *bad = file_in_tmp("bad");
    write_text(bad, "# fine\nann\n");
    CHECK_EQ(hs2_passwd_check(bad, "ann", "one", &ok, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, ":2: expected name:scrypt$") != NULL);
    write_text(bad, "ann:scrypt$15$8$1$00$11\n");
    CHECK_EQ(hs2_passwd_check(bad, "ann", "one", &ok, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "malformed entry for 'ann'") != NULL);
    /* parameters a hostile file could use to make each login cost much */
    write_text(bad, "ann:scrypt$30$8$1$00000000000000000000000000000000$"
                    "0000000000000000000000000000000000000000000000000000000000000000\n");
    CHECK_EQ(hs2_passwd_check(bad, "ann", "one", &ok, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "out of range") != NULL);
    CHECK_EQ(hs2_passwd_check(file_in_tmp("missing"), "ann", "one", &ok, &err),
             COMB_EIO);
    CHECK(!ok);
}
