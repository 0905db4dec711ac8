/*
 * hs2_int.h - private to src/server/: the sessions and operations of the
 * HiveServer2 service (hs2_service.c), the result sets they keep
 * (hs2_rows.c) and the connection threads (hs2.c).
 */
#ifndef COMB_HS2_INT_H
#define COMB_HS2_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/batch.h"
#include "common/buf.h"
#include "server/hs2.h"
#include "server/hs2_tcli_types.h"
#include "server/hs2_t_c_l_i_service.h"

/* ------------------------------------------------------------ results */

/* One column of a statement's result, kept until it is fetched: integers
 * (booleans, tinyint..bigint) in i, floats and doubles in d, everything
 * else as the text Hive sends (strings, binary bytes, decimals, dates,
 * timestamps, complex values as JSON) in s. */
typedef struct Hs2Col {
    char *name;
    CombTypeKind kind;
    int64_t *i;
    double *d;
    char **s;
    uint32_t *slen;
    uint8_t *null;
} Hs2Col;

typedef struct Hs2Result {
    int n_cols;
    Hs2Col *cols;
    int64_t n_rows, cap;
    int64_t next;          /* the first row not fetched yet */
    CombBuf text;          /* scratch for formatting */
} Hs2Result;

/* The result's columns (sink begin). */
int hs2_result_begin(Hs2Result *r, int n_cols, const char *const *names,
                     const CombTypeKind *kinds, CombErr *err);
/* The live rows of b appended. */
int hs2_result_add(Hs2Result *r, const CombBatch *b, CombErr *err);
void hs2_result_free(Hs2Result *r);
/* One value of a row built by hand: text for text columns, i for integer
 * ones (booleans 0/1), d for doubles; null wins. */
typedef struct Hs2Value {
    const char *s;
    int64_t i;
    bool null;
} Hs2Value;
/* A row of r->n_cols values appended. */
int hs2_result_append(Hs2Result *r, const Hs2Value *v, CombErr *err);
/* The column descriptions GetResultSetMetadata answers with. */
void hs2_result_schema(const Hs2Result *r, Hs2TTableSchema *schema);
/* Up to max rows from r->next on into rs, column-oriented (protocol V6
 * and later) or row by row (older clients); r->next moves past them. */
void hs2_result_fetch(Hs2Result *r, int64_t max, bool by_column,
                      Hs2TRowSet *rs);

/* ----------------------------------------------------------- metadata */

/* The result sets of the metadata calls, with the columns JDBC's
 * DatabaseMetaData (and Hive) give them; patterns as JDBC's: % any run,
 * _ one character, \ escapes, NULL or "" or "*" anything, no case. */
struct SqlSession;
int hs2_meta_catalogs(Hs2Result *r, CombErr *err);
int hs2_meta_schemas(struct SqlSession *s, const char *schema, Hs2Result *r,
                     CombErr *err);
/* types: NULL or the table types wanted (TABLE, VIEW, ...). */
int hs2_meta_tables(struct SqlSession *s, const char *schema,
                    const char *table, GPtrArray *types, Hs2Result *r,
                    CombErr *err);
int hs2_meta_table_types(Hs2Result *r, CombErr *err);
int hs2_meta_columns(struct SqlSession *s, const char *schema,
                     const char *table, const char *column, Hs2Result *r,
                     CombErr *err);
int hs2_meta_type_info(Hs2Result *r, CombErr *err);
int hs2_meta_functions(struct SqlSession *s, const char *function,
                       Hs2Result *r, CombErr *err);
int hs2_meta_primary_keys(Hs2Result *r, CombErr *err);
int hs2_meta_cross_reference(Hs2Result *r, CombErr *err);

/* ----------------------------------------------- settings (hs2_conf.c) */

/* The server setting key (its --hiveconf pairs, the last one given, no
 * case), or NULL. */
const char *hs2_conf_value(const Hs2Options *opt, const char *key);
/* key as a whole number from lo to hi, or true / false, or a time of
 * Hive's form (hs2_duration_ms) in milliseconds: *out when set (else left
 * as it is, the default), a clear error when malformed. */
int hs2_conf_long(const Hs2Options *opt, const char *key, long lo, long hi,
                  long *out, CombErr *err);
int hs2_conf_bool(const Hs2Options *opt, const char *key, bool *out,
                  CombErr *err);
int hs2_conf_duration(const Hs2Options *opt, const char *key, int64_t unit_ms,
                      int64_t *out, CombErr *err);
/* A time as Hive writes them: a whole number, optionally signed, of
 * unit_ms milliseconds, or followed by a unit (ns, us, ms, s, m, h, d or
 * their long names: 30s, 5 min, 7d); false when malformed. */
bool hs2_duration_ms(const char *text, int64_t unit_ms, int64_t *out);

/* The server's lifecycle, from its --hiveconf pairs (README). */
typedef struct Hs2Limits {
    int max_workers;          /* hive.server2.thrift.max.worker.threads:
                                 connections served at once */
    int64_t session_idle_ms;  /* hive.server2.idle.session.timeout; <= 0
                                 never */
    int64_t op_idle_ms;       /* hive.server2.idle.operation.timeout: 0
                                 never, > 0 finished operations, < 0 all */
    bool idle_check_ops;      /* hive.server2.idle.session.check.operation:
                                 a session with operations is not idle */
    int64_t grace_ms;         /* hive.server2.graceful.stop.timeout */
} Hs2Limits;

int hs2_limits_init(const Hs2Options *opt, Hs2Limits *lim, CombErr *err);
/* Milliseconds of the monotonic clock, which the time-outs use. */
int64_t hs2_now_ms(void);

/* ------------------------------------------------------------ service */

/* Process-wide state of the service, for hs2_serve: the server's own SQL
 * session on the warehouse (which runs the transaction housekeeping) and
 * the thread that keeps the time-outs of lim (which stays the caller's). */
int hs2_service_start(const Hs2Options *opt, const Hs2Limits *lim,
                      CombErr *err);
/* The stop begins: no new sessions or statements from now on. */
void hs2_service_drain(void);
/* Whether an asynchronous statement is running. */
bool hs2_service_busy(void);
void hs2_service_stop(void);

/* A handler for one connection (a GObject of the generated handler
 * class) of user (the name SASL authenticated; "" none: OpenSession's
 * username counts); hs2_conn_end closes the sessions opened through it
 * and left open (before the caller drops the handler). */
Hs2TCLIServiceHandler *hs2_handler_new(const char *user);
void hs2_conn_end(Hs2TCLIServiceHandler *conn);

/* --------------------------------------------- connections (hs2_auth.c) */

#define HS2_USER_MAX 128

typedef enum Hs2AuthMode {
    HS2_AUTH_NONE,       /* SASL PLAIN with any password, or no SASL */
    HS2_AUTH_NOSASL,     /* no SASL: framed or unframed binary */
    HS2_AUTH_PASSWORD    /* SASL PLAIN checked against the password file */
} Hs2AuthMode;

/* The server's settings for its connections, from its --hiveconf pairs:
 * hive.server2.authentication, comb.server.password.file,
 * comb.server.auth.failure.delay.ms (a refused login's wait, 1000),
 * hive.server2.thrift.max.message.size (104857600), hive.server2.use.SSL
 * with hive.server2.keystore.path (PEM: certificate and key) and
 * hive.server2.keystore.password. */
typedef struct Hs2Security {
    Hs2AuthMode mode;
    const char *password_file;
    int failure_delay_ms;
    int max_message;
    struct ssl_ctx_st *tls;     /* NULL: no TLS; owned */
} Hs2Security;

int hs2_security_init(const Hs2Options *opt, Hs2Security *sec, CombErr *err);
/* A server setting no session may see (SET would show it). */
bool hs2_conf_is_secret(const char *key);
void hs2_security_free(Hs2Security *sec);
/* The handshake of accepted socket fd: TLS, SASL, framing.  0: *wire is
 * the bottom transport (it owns fd: closing it closes fd), *top what the
 * protocol reads (above *wire), user the authenticated name ("" none).
 * -1: refused or broken (*wire, when set, still to be dropped). */
int hs2_conn_open(const Hs2Security *sec, int fd, ThriftTransport **wire,
                  ThriftTransport **top, char user[HS2_USER_MAX + 1]);
/* A connection beyond the limit: its handshake's first step answered
 * with why (a SASL error, or for a client without SASL an exception in
 * answer to its first call), then hung up on; fd is closed. */
void hs2_conn_refuse(const Hs2Security *sec, int fd, const char *why);
/* the classes the handshake makes, registered before the threads */
void hs2_auth_register(void);

/* The bottom transport (hs2_wire.c): fd, or the TLS session ssl on it. */
struct ssl_st;
ThriftTransport *hs2_wire_new(int fd, struct ssl_st *ssl);
/* The next byte, left to be read (-1 at the end or on error). */
int hs2_wire_byte(ThriftTransport *wire);
/* After a refusal: what was said reaches the client before the hang-up
 * (unread bytes would make the close a reset that can overtake it): the
 * sending side is shut, what the client still sends read and dropped
 * (up to a second, 1 MiB). */
void hs2_wire_drain(ThriftTransport *wire);
void hs2_wire_register(void);

#endif
