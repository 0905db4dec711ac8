/*
 * err.h - error codes and the error record every fallible call fills.
 *
 * Fallible functions return an int rc: COMB_OK (0) or one of the codes below,
 * and describe the failure in a caller-supplied CombErr.  The message is what
 * a user reads, so it names the object and the cause ("table not found 't'").
 * Where Hive has a fixed error number and text, hive_code carries the number
 * and the message uses Hive's wording.
 */
#ifndef COMB_ERR_H
#define COMB_ERR_H

#include <stdarg.h>

enum CombRc {
    COMB_OK = 0,
    COMB_ENOMEM,      /* allocation failed */
    COMB_EIO,         /* a system call on a file failed */
    COMB_ECORRUPT,    /* bytes on disk do not follow the format */
    COMB_EINTERNAL,   /* a bug in comb: an invariant did not hold */
    COMB_EUNSUPPORTED,/* valid input that this version does not handle */
    COMB_EMETASTORE,  /* the metastore database failed */
    COMB_ETXN,        /* transaction state forbids the operation */
    COMB_ESYNTAX,     /* SQL did not parse */
    COMB_ESEMANTIC,   /* SQL parsed but names/types are wrong */
    COMB_EINVALID,    /* a bad argument or value */
    COMB_ENOTFOUND,   /* a named object does not exist */
    COMB_EEXISTS,     /* a named object exists already */
    COMB_EREADONLY,   /* storage refuses writes: read-only file or mount */
    COMB_EFULL,       /* storage refuses writes: the disk is full */
    COMB_ECANCELLED,  /* the user cancelled the statement (Ctrl-C) */
    COMB_EDENIED,     /* the user lacks a privilege (authorization) */
    COMB_N_RC
};

#define COMB_ERR_MSG_MAX 1024

typedef struct CombErr {
    int code;                       /* enum CombRc; COMB_OK when clear */
    int hive_code;                  /* Hive's error number (10001...), or 0 */
    char msg[COMB_ERR_MSG_MAX];     /* user-facing message */
} CombErr;

/* Clear err to COMB_OK.  err may be NULL. */
void comb_err_clear(CombErr *err);

/* Record code and a printf-style message in err (may be NULL); returns code
 * so that callers can write `return comb_err(err, COMB_EIO, "...")`. */
int comb_err(CombErr *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, with a Hive error number. */
int comb_err_hive(CombErr *err, int code, int hive_code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

int comb_err_v(CombErr *err, int code, int hive_code, const char *fmt,
               va_list ap);

/* Prefix the existing message with context ("reading 'x': ...").  Returns
 * err->code. */
int comb_err_prefix(CombErr *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Short name of a code ("io error", "corrupt file", ...). */
const char *comb_rc_name(int code);

/* Record "out of memory" and return COMB_ENOMEM. */
int comb_err_nomem(CombErr *err);

/* Record a can't-happen condition with its source location. */
#define COMB_INTERNAL(err, what) \
    comb_err((err), COMB_EINTERNAL, "internal error at %s:%d: %s", \
             __FILE__, __LINE__, (what))

/* Record a corrupt-file condition with its source location (like SQLite's
 * CORRUPT_BKPT: one breakpoint catches all). */
#define COMB_CORRUPT(err, path, what) \
    comb_err((err), COMB_ECORRUPT, "corrupt file '%s': %s [%s:%d]", \
             (path), (what), __FILE__, __LINE__)

#endif
