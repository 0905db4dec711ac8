/*
 * hs2_passwd.h - the server's password file: who may log in
 * (hive.server2.authentication=PASSWORD) and `comb passwd`, which keeps it.
 *
 * One line per user, "name:scrypt$LOG2N$R$P$SALT$HASH": OpenSSL's scrypt
 * of the password with 16 random bytes of salt (hex), 32 bytes of hash
 * (hex).  scrypt is slow and memory-hard on purpose, so that a stolen file
 * does not give its passwords away cheaply.  Lines starting with '#' and
 * empty lines are comments.  A user name is 1..128 bytes of letters,
 * digits and "._-@".
 */
#ifndef COMB_HS2_PASSWD_H
#define COMB_HS2_PASSWD_H

#include <stdbool.h>

#include "common/err.h"

/* Whether user is a name the file can hold. */
bool hs2_passwd_name_ok(const char *user);

/* Check user's password against file (read afresh each time, so that
 * `comb passwd` applies at once): *ok says whether it matched.  An
 * unknown user costs as much time as a known one.  Errors: the file
 * cannot be read (COMB_EIO), a line of it is malformed (COMB_EINVALID,
 * naming the line). */
int hs2_passwd_check(const char *file, const char *user, const char *password,
                     bool *ok, CombErr *err);

/* Set user's password in file (made, mode 0600, when missing), or remove
 * the user when password is NULL (COMB_ENOTFOUND when there is none).  The
 * file is replaced whole (written, fsynced, renamed), so a reader sees the
 * old file or the new one; writers of one file take turns (a lock file
 * beside it).  COMB_EINVALID for a bad user name or an empty password. */
int hs2_passwd_set(const char *file, const char *user, const char *password,
                   CombErr *err);

#endif
