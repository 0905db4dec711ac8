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
#include "common/duration.h"
#include "rpc/rpc_frames.h"
#include "rpc/rpc_proto.h"
#include "rpc/rpc_wire.h"
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

/* A result beyond its memory budget: its rows in chunks in a temporary
 * file (hs2_rows.c). */
typedef struct Hs2Spill Hs2Spill;

typedef struct Hs2Result {
    int n_cols;
    Hs2Col *cols;
    int64_t n_rows, cap;   /* the rows in memory: all of them, or with a
                              spill file the chunk being filled or fetched */
    int64_t next;          /* the first of them not fetched yet */
    int64_t first;         /* the place in the result of the first of them */
    int64_t total;         /* rows of the whole result */
    int64_t held;          /* bytes the rows in memory take, about */
    int64_t row_bytes;     /* what one row takes beside its strings */
    int64_t budget;        /* held beyond it: the rows go to the spill file;
                              0 never */
    char *spill_dir;       /* where the spill file is made */
    Hs2Spill *spill;       /* NULL: nothing spilled */
    CombBuf text;          /* scratch for formatting and reading */
} Hs2Result;

/* The result's columns (sink begin). */
int hs2_result_begin(Hs2Result *r, int n_cols, const char *const *names,
                     const CombTypeKind *kinds, CombErr *err);
/* After hs2_result_begin: when the rows in memory take more than budget
 * bytes (0: never), they are written as one chunk to a temporary file in
 * dir (made then, unlinked at once) and dropped from memory. */
int hs2_result_budget(Hs2Result *r, int64_t budget, const char *dir,
                      CombErr *err);
/* The live rows of b appended. */
int hs2_result_add(Hs2Result *r, const CombBatch *b, CombErr *err);
/* The last row was appended: with a spill file the rows still in memory
 * are written too and fetching starts at the first chunk (a write error,
 * as a full disk, fails it: the result would be cut short). */
int hs2_result_end(Hs2Result *r, CombErr *err);
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
/* Up to max rows (< 0: all) from the next one not fetched on into rs,
 * column-oriented (protocol V6 and later) or row by row (older clients),
 * the next chunk of a spill file read as the one in memory is used up;
 * the fetch moves past them.  A read error of the spill file fails this
 * fetch and every later one. */
int hs2_result_fetch(Hs2Result *r, int64_t max, bool by_column,
                     Hs2TRowSet *rs, CombErr *err);
/* The next fetch starts at the first row again (FETCH_FIRST). */
int hs2_result_rewind(Hs2Result *r, CombErr *err);
/* Whether rows are left to fetch. */
bool hs2_result_more(const Hs2Result *r);

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
 * Hive's form (common/duration.h) in milliseconds: *out when set (else left
 * as it is, the default), a clear error when malformed. */
int hs2_conf_long(const Hs2Options *opt, const char *key, long lo, long hi,
                  long *out, CombErr *err);
int hs2_conf_bool(const Hs2Options *opt, const char *key, bool *out,
                  CombErr *err);
int hs2_conf_duration(const Hs2Options *opt, const char *key, int64_t unit_ms,
                      int64_t *out, CombErr *err);
/* key as a number of bytes with an optional k, m, g or t (powers of
 * 1024: 64m) into *out when set. */
int hs2_conf_size(const Hs2Options *opt, const char *key, int64_t *out,
                  CombErr *err);

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
    int async_threads;        /* hive.server2.async.exec.threads */
    int async_queue;          /* hive.server2.async.exec.wait.queue.size */
    int64_t result_memory;    /* comb.server.result.memory: bytes of an
                                 operation's result kept in memory, the
                                 rest spilled; 0 all kept */
} Hs2Limits;

int hs2_limits_init(const Hs2Options *opt, Hs2Limits *lim, CombErr *err);
/* Milliseconds of the monotonic clock, which the time-outs use. */
int64_t hs2_now_ms(void);

/* ------------------------------------------------------------ service */

/* Process-wide state of the service, for hs2_serve: the server's own SQL
 * session on the warehouse (which runs the transaction housekeeping) and
 * the thread that keeps the time-outs of lim (both stay the caller's). */
struct Hs2Security;
int hs2_service_start(const Hs2Options *opt, const struct Hs2Security *sec,
                      const Hs2Limits *lim, CombErr *err);
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

/* ------------------------------------------- the status (hs2_status.c) */

#define HS2_RECENT_QUERIES 50
#define HS2_USER_MAX 128

/* A statement, as the status page shows it. */
typedef struct Hs2QueryRow {
    char *user, *text;
    const char *state;       /* RUNNING, FINISHED, ERROR, CANCELED */
    char *error;             /* a failed one's message, else NULL */
    int64_t started_ms, ended_ms;   /* epoch ms; ended 0 while running */
    int64_t rows;            /* of its result */
} Hs2QueryRow;

typedef struct Hs2Query Hs2Query;
/* Milliseconds since the epoch, as the status page shows times. */
int64_t hs2_epoch_ms(void);
/* A statement begins (NULL when out of memory: it is then not shown). */
Hs2Query *hs2_query_begin(const char *user, const char *sql);
/* ... and ends (q is freed; NULL ok). */
void hs2_query_end(Hs2Query *q, const char *state, int64_t rows,
                   const char *error);
/* Copies of the running statements, then the recent ones newest first;
 * *total counts every statement begun.  COMB_ENOMEM. */
int hs2_queries_list(Hs2QueryRow **rows, int *n, int64_t *total);
void hs2_queries_free(Hs2QueryRow *rows, int n);
void hs2_status_stop(void);

/* An open session, as the status page shows it (hs2_service.c). */
typedef struct Hs2SessionRow {
    char user[HS2_USER_MAX + 1];
    int64_t opened_ms, used_ms;  /* epoch ms */
    bool busy;                   /* a call or statement is using it */
} Hs2SessionRow;
/* Copies of the open sessions (comb_free *rows). */
int hs2_sessions_list(Hs2SessionRow **rows, int *n);

/* The status page (hs2_web.c): hive.server2.webui.port (10002; 0 or less:
 * none), hive.server2.webui.host (the server's bind address), its own
 * thread and SQL session on the warehouse; logins as the server's
 * (PASSWORD: HTTP Basic against the password file). */
struct Hs2Web;
int hs2_web_start(const Hs2Options *opt, const struct Hs2Security *sec,
                  struct Hs2Web **out, CombErr *err);
void hs2_web_stop(struct Hs2Web *w);

/* The compactor inside (hs2_compact.c): started when
 * hive.compactor.initiator.on or hive.compactor.worker.threads ask for it
 * (*out NULL otherwise); a bad hive.compactor.* value is refused. */
struct Hs2Compactor;
int hs2_compactor_start(const Hs2Options *opt, struct Hs2Compactor **out,
                        CombErr *err);
void hs2_compactor_stop(struct Hs2Compactor *c);

/* --------------------------------------------- connections (hs2_auth.c) */

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
 * hive.server2.keystore.password; hive.security.authorization.enabled
 * and hive.users.in.admin.role for the sessions. */
typedef struct Hs2Security {
    Hs2AuthMode mode;
    const char *password_file;
    int failure_delay_ms;
    int max_message;
    struct ssl_ctx_st *tls;     /* NULL: no TLS; owned */
    bool authorize;             /* hive.security.authorization.enabled */
    const char *admin_users;    /* hive.users.in.admin.role */
} Hs2Security;

int hs2_security_init(const Hs2Options *opt, Hs2Security *sec, CombErr *err);
/* A server setting not passed to sessions: a secret (SET would show it)
 * or what their authorization rests on (sessions may not change it). */
bool hs2_conf_is_server_only(const char *key);
void hs2_security_free(Hs2Security *sec);
/* The handshake of accepted socket fd: TLS, SASL, framing.  0: *wire is
 * the bottom transport (it owns fd: closing it closes fd), *top what the
 * protocol reads (above *wire), user the authenticated name ("" none).
 * -1: refused or broken (*wire, when set, still to be dropped). */
int hs2_conn_open(const Hs2Security *sec, int fd, ThriftTransport **wire,
                  ThriftTransport **top, char user[HS2_USER_MAX + 1]);
/* Thrift's SASL negotiation: a status byte, a 4-byte length, a payload */
enum { HS2_SASL_START = 1, HS2_SASL_OK = 2, HS2_SASL_BAD = 3,
       HS2_SASL_ERROR = 4, HS2_SASL_COMPLETE = 5, HS2_SASL_MAX = 4096 };
/* One message into payload (HS2_SASL_MAX + 1 bytes; *len under
 * HS2_SASL_MAX, else false) */
bool hs2_sasl_read(ThriftTransport *w, int *status, char *payload,
                   uint32_t *len);
/* One message, in one write (msg up to 256 bytes; longer is cut) */
void hs2_sasl_write(ThriftTransport *w, int status, const char *msg);
/* A connection beyond the limit: its handshake's first step answered
 * with why (a SASL error, or for a client without SASL an exception in
 * answer to its first call), then hung up on; fd is closed. */
void hs2_conn_refuse(const Hs2Security *sec, int fd, const char *why);
/* the classes the handshake makes, registered before the threads */
void hs2_auth_register(void);


#endif
