/*
 * txnlist.c - Hive's valid-id list semantics (hive-acid-storage.md 5.1).
 */
#include "common/txnlist.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct IdFlag {
    int64_t id;
    bool aborted;
} IdFlag;

static int cmp_idflag(const void *a, const void *b)
{
    return cmp_i64(&((const IdFlag *)a)->id, &((const IdFlag *)b)->id);
}

int comb_idlist_init(CombIdList *l, int64_t hwm, const int64_t *open,
                     int n_open, const int64_t *aborted, int n_aborted)
{
    int n = n_open + n_aborted, k = 0;
    IdFlag *tmp;
    memset(l, 0, sizeof *l);
    l->hwm = hwm;
    l->min_open = COMB_NO_OPEN_ID;
    if (n == 0)
        return COMB_OK;
    tmp = comb_malloc((size_t)n * sizeof *tmp);
    l->exceptions = comb_malloc((size_t)n * sizeof *l->exceptions);
    l->aborted = comb_malloc((size_t)n * sizeof *l->aborted);
    if (!tmp || !l->exceptions || !l->aborted) {
        comb_free(tmp);
        comb_idlist_free(l);
        return COMB_ENOMEM;
    }
    for (int i = 0; i < n_open; i++)
        tmp[k++] = (IdFlag){open[i], false};
    for (int i = 0; i < n_aborted; i++)
        tmp[k++] = (IdFlag){aborted[i], true};
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_idflag);
    for (int i = 0; i < n; i++) {
        if (tmp[i].id > hwm)
            continue; /* exceptions above the watermark are implied */
        l->exceptions[l->n_exceptions] = tmp[i].id;
        l->aborted[l->n_exceptions] = tmp[i].aborted;
        l->n_exceptions++;
        if (!tmp[i].aborted && tmp[i].id < l->min_open)
            l->min_open = tmp[i].id;
    }
    comb_free(tmp);
    return COMB_OK;
}

void comb_idlist_free(CombIdList *l)
{
    comb_free(l->exceptions);
    comb_free(l->aborted);
    l->exceptions = NULL;
    l->aborted = NULL;
    l->n_exceptions = 0;
}

int comb_idlist_copy(CombIdList *dst, const CombIdList *src)
{
    size_t n = (size_t)src->n_exceptions;
    *dst = *src;
    dst->exceptions = NULL;
    dst->aborted = NULL;
    if (n == 0)
        return COMB_OK;
    dst->exceptions = comb_malloc(n * sizeof *dst->exceptions);
    dst->aborted = comb_malloc(n * sizeof *dst->aborted);
    if (!dst->exceptions || !dst->aborted) {
        comb_idlist_free(dst);
        return COMB_ENOMEM;
    }
    memcpy(dst->exceptions, src->exceptions, n * sizeof *dst->exceptions);
    memcpy(dst->aborted, src->aborted, n * sizeof *dst->aborted);
    return COMB_OK;
}

static int idlist_find(const CombIdList *l, int64_t id)
{
    int lo = 0, hi = l->n_exceptions - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (l->exceptions[mid] == id)
            return mid;
        if (l->exceptions[mid] < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

bool comb_idlist_is_valid(const CombIdList *l, int64_t id)
{
    return id <= l->hwm && idlist_find(l, id) < 0;
}

bool comb_idlist_is_aborted(const CombIdList *l, int64_t id)
{
    int i = idlist_find(l, id);
    return i >= 0 && l->aborted[i];
}

bool comb_idlist_is_open(const CombIdList *l, int64_t id)
{
    int i = idlist_find(l, id);
    return id > l->hwm || (i >= 0 && !l->aborted[i]);
}

CombRangeValid comb_idlist_range_valid(const CombIdList *l, int64_t lo,
                                       int64_t hi)
{
    int64_t n;
    if (lo > l->hwm)
        return COMB_RANGE_NONE;
    if (l->n_exceptions > 0 && l->exceptions[0] > hi)
        return COMB_RANGE_ALL;
    n = hi > l->hwm ? hi - l->hwm : 0;
    for (int i = 0; i < l->n_exceptions; i++)
        if (l->exceptions[i] >= lo && l->exceptions[i] <= hi)
            n++;
    if (n == 0)
        return COMB_RANGE_ALL;
    if (n == hi - lo + 1)
        return COMB_RANGE_NONE;
    return COMB_RANGE_SOME;
}

CombRangeValid comb_idlist_range_aborted(const CombIdList *l, int64_t lo,
                                         int64_t hi)
{
    int64_t n = 0;
    if (l->hwm < lo)
        return COMB_RANGE_NONE;
    for (int i = 0; i < l->n_exceptions; i++)
        if (l->aborted[i] && l->exceptions[i] >= lo && l->exceptions[i] <= hi)
            n++;
    if (n == 0)
        return COMB_RANGE_NONE;
    if (n == hi - lo + 1)
        return COMB_RANGE_ALL;
    return COMB_RANGE_SOME;
}

int comb_idlist_aborted_upto(const CombIdList *in, int64_t hwm,
                             CombIdList *out)
{
    int64_t *aborted = comb_malloc((size_t)(in->n_exceptions + 1) *
                                   sizeof *aborted);
    int n = 0, rc;
    memset(out, 0, sizeof *out);
    if (!aborted)
        return COMB_ENOMEM;
    for (int i = 0; i < in->n_exceptions; i++)
        if (in->aborted[i] && in->exceptions[i] <= hwm)
            aborted[n++] = in->exceptions[i];
    rc = comb_idlist_init(out, hwm, NULL, 0, aborted, n);
    comb_free(aborted);
    return rc;
}

bool comb_idlist_is_valid_base(const CombIdList *l, int64_t id)
{
    return id < l->min_open && id <= l->hwm;
}

static int idlist_format_lists(CombBuf *b, const CombIdList *l)
{
    int rc = comb_buf_printf(b, "%lld:%lld:", (long long)l->hwm,
                             (long long)l->min_open);
    for (int pass = 0; pass < 2 && !rc; pass++) {
        bool want_aborted = pass == 1, first = true;
        if (pass == 1)
            rc = comb_buf_append_byte(b, ':');
        for (int i = 0; i < l->n_exceptions && !rc; i++) {
            if (l->aborted[i] != want_aborted)
                continue;
            rc = comb_buf_printf(b, "%s%lld", first ? "" : ",",
                                 (long long)l->exceptions[i]);
            first = false;
        }
    }
    if (!rc)
        rc = comb_buf_append_byte(b, '\0');
    return rc;
}

char *comb_txnlist_format(const CombTxnList *l)
{
    CombBuf b = COMB_BUF_INIT;
    if (idlist_format_lists(&b, l)) {
        comb_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

char *comb_writeidlist_format(const CombWriteIdList *l)
{
    CombBuf b = COMB_BUF_INIT;
    if (comb_buf_printf(&b, "%s:", l->table ? l->table : "null") ||
        idlist_format_lists(&b, &l->ids)) {
        comb_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* Parse "n,n,n" into a heap array. */
static int parse_id_csv(const char *s, size_t len, int64_t **out, int *n_out,
                        CombErr *err)
{
    int64_t *ids = NULL;
    int n = 0, cap = 0;
    size_t i = 0;
    *out = NULL;
    *n_out = 0;
    while (i < len) {
        char num[32];
        size_t j = i, k;
        char *end;
        long long v;
        while (j < len && s[j] != ',')
            j++;
        k = j - i;
        if (k == 0 || k >= sizeof num)
            goto bad;
        memcpy(num, s + i, k);
        num[k] = '\0';
        errno = 0;
        v = strtoll(num, &end, 10);
        if (errno || *end)
            goto bad;
        if (n == cap) {
            int64_t *p;
            cap = cap ? cap * 2 : 8;
            p = comb_realloc(ids, (size_t)cap * sizeof *ids);
            if (!p) {
                comb_free(ids);
                return comb_err_nomem(err);
            }
            ids = p;
        }
        ids[n++] = v;
        i = j + 1;
    }
    *out = ids;
    *n_out = n;
    return COMB_OK;
bad:
    comb_free(ids);
    return comb_err(err, COMB_EINVALID, "bad id list '%.*s'", (int)len, s);
}

/* Split on ':' like Java's String.split (trailing empty pieces vanish). */
static int split_colon(const char *s, const char **piece, size_t *plen,
                       int max)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ':');
        if (n == max)
            return -1;
        piece[n] = p;
        plen[n] = c ? (size_t)(c - p) : strlen(p);
        n++;
        if (!c)
            break;
        p = c + 1;
    }
    while (n > 0 && plen[n - 1] == 0)
        n--;
    return n;
}

static int parse_i64(const char *s, size_t len, int64_t *out)
{
    char num[32];
    char *end;
    if (len == 0 || len >= sizeof num)
        return -1;
    memcpy(num, s, len);
    num[len] = '\0';
    errno = 0;
    *out = strtoll(num, &end, 10);
    return (errno || *end) ? -1 : 0;
}

static int idlist_parse_parts(const char **piece, size_t *plen, int n,
                              CombIdList *out, const char *whole, CombErr *err)
{
    int64_t hwm, min_open, *open = NULL, *aborted = NULL;
    int n_open = 0, n_aborted = 0, rc;
    if (n < 2 || parse_i64(piece[0], plen[0], &hwm) ||
        parse_i64(piece[1], plen[1], &min_open))
        return comb_err(err, COMB_EINVALID, "bad valid-id list '%s'", whole);
    if (n > 2 && (rc = parse_id_csv(piece[2], plen[2], &open, &n_open, err)))
        return rc;
    if (n > 3 &&
        (rc = parse_id_csv(piece[3], plen[3], &aborted, &n_aborted, err))) {
        comb_free(open);
        return rc;
    }
    rc = comb_idlist_init(out, hwm, open, n_open, aborted, n_aborted);
    comb_free(open);
    comb_free(aborted);
    if (rc)
        return comb_err_nomem(err);
    return COMB_OK;
}

int comb_txnlist_parse(const char *s, CombTxnList *out, CombErr *err)
{
    const char *piece[5];
    size_t plen[5];
    int n = split_colon(s, piece, plen, 5);
    if (n < 0 || n > 4)
        return comb_err(err, COMB_EINVALID, "bad valid-txn list '%s'", s);
    return idlist_parse_parts(piece, plen, n, out, s, err);
}

int comb_writeidlist_parse(const char *s, CombWriteIdList *out, CombErr *err)
{
    const char *piece[6];
    size_t plen[6];
    int n = split_colon(s, piece, plen, 6), rc;
    memset(out, 0, sizeof *out);
    if (n < 3 || n > 5)
        return comb_err(err, COMB_EINVALID, "bad valid-write-id list '%s'", s);
    out->table = comb_strndup(piece[0], plen[0]);
    if (!out->table)
        return comb_err_nomem(err);
    rc = idlist_parse_parts(piece + 1, plen + 1, n - 1, &out->ids, s, err);
    if (rc) {
        comb_free(out->table);
        out->table = NULL;
    }
    return rc;
}

void comb_writeidlist_free(CombWriteIdList *l)
{
    comb_free(l->table);
    l->table = NULL;
    comb_idlist_free(&l->ids);
}
