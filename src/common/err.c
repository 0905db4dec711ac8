/*
 * err.c - filling CombErr records.
 */
#include "common/err.h"

#include <stdio.h>
#include <string.h>

void comb_err_clear(CombErr *err)
{
    if (!err)
        return;
    err->code = COMB_OK;
    err->hive_code = 0;
    err->msg[0] = '\0';
}

int comb_err_v(CombErr *err, int code, int hive_code, const char *fmt,
               va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    err->hive_code = hive_code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return code;
}

int comb_err(CombErr *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    comb_err_v(err, code, 0, fmt, ap);
    va_end(ap);
    return code;
}

int comb_err_hive(CombErr *err, int code, int hive_code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    comb_err_v(err, code, hive_code, fmt, ap);
    va_end(ap);
    return code;
}

int comb_err_prefix(CombErr *err, const char *fmt, ...)
{
    char prefix[COMB_ERR_MSG_MAX];
    char old[COMB_ERR_MSG_MAX];
    va_list ap;

    if (!err)
        return COMB_EINTERNAL;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    /* truncation of an overlong message is acceptable here */
    size_t n = strlen(prefix);
    if (n > sizeof err->msg - 3)
        n = sizeof err->msg - 3;
    memcpy(err->msg, prefix, n);
    memcpy(err->msg + n, ": ", 2);
    n += 2;
    size_t m = strlen(old);
    if (m > sizeof err->msg - 1 - n)
        m = sizeof err->msg - 1 - n;
    memcpy(err->msg + n, old, m);
    err->msg[n + m] = '\0';
    return err->code;
}

const char *comb_rc_name(int code)
{
    static const char *const names[COMB_N_RC] = {
        [COMB_OK] = "ok",
        [COMB_ENOMEM] = "out of memory",
        [COMB_EIO] = "i/o error",
        [COMB_ECORRUPT] = "corrupt file",
        [COMB_EINTERNAL] = "internal error",
        [COMB_EUNSUPPORTED] = "not supported",
        [COMB_EMETASTORE] = "metastore error",
        [COMB_ETXN] = "transaction error",
        [COMB_ESYNTAX] = "syntax error",
        [COMB_ESEMANTIC] = "semantic error",
        [COMB_EINVALID] = "invalid value",
        [COMB_ENOTFOUND] = "not found",
        [COMB_EEXISTS] = "already exists",
        [COMB_EREADONLY] = "read-only",
        [COMB_EFULL] = "disk full",
        [COMB_ECANCELLED] = "cancelled",
        [COMB_EDENIED] = "permission denied",
    };
    if (code < 0 || code >= COMB_N_RC)
        return "unknown error";
    return names[code];
}

int comb_err_nomem(CombErr *err)
{
    return comb_err(err, COMB_ENOMEM, "out of memory");
}
