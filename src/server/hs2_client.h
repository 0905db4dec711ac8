/*
 * hs2_client.h - the other end of the protocol: a HiveServer2 session on
 * a server (comb's or Hive's) named by a JDBC URL, for `comb -u URL` (the
 * embedded CLI's statements and printers, run remotely, as beeline does).
 *
 * URL: jdbc:hive2://HOST[:PORT][/DB][;key=value...][?hiveconf...][#hivevar...]
 * (port 10000, database default).  Session keys: user, password (the
 * options given to hs2_client_open win), auth=noSasl (no SASL; else SASL
 * PLAIN, as Hive's JDBC driver), ssl=true with sslTrustStore=PEM-FILE (the
 * certificates to verify the server by; without it the system's) and
 * transportMode=binary (http is refused).  After '?' hiveconf settings,
 * after '#' hivevar ones, each key=value separated by ';'.
 */
#ifndef COMB_HS2_CLIENT_H
#define COMB_HS2_CLIENT_H

#include "common/err.h"
#include "sql/session.h"

typedef struct Hs2Client Hs2Client;

typedef struct Hs2ClientOptions {
    const char *url;
    const char *user;          /* -n; NULL: the URL's, else "anonymous" */
    const char *password;      /* -p; NULL: the URL's, else "anonymous" */
    /* --hiveconf / --hivevar pairs "k=v" for the session's overlay */
    char *const *confs;
    int n_confs;
    char *const *vars;
    int n_vars;
} Hs2ClientOptions;

/* Connect and open a session.  Errors: a bad URL (COMB_EINVALID, saying
 * what is wrong), no connection, a refused login (COMB_EDENIED with the
 * server's reason), a refused session (the server's message). */
int hs2_client_open(const Hs2ClientOptions *opt, Hs2Client **out,
                    CombErr *err);
/* Run one statement; its result set (if any) goes to sink as the embedded
 * session's does (begin, batches, end).  A failed statement gives the
 * server's message; a broken connection COMB_EIO. */
int hs2_client_execute(Hs2Client *c, const char *sql, size_t len,
                       const SqlSink *sink, CombErr *err);
/* Close the session and the connection (NULL ok). */
void hs2_client_close(Hs2Client *c);

#endif
