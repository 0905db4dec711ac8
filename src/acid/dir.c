/*
 * dir.c - directory and file names of an ACID table (§3 of
 * hive-acid-storage.md) and the choice of what a snapshot reads: Hive 4's
 * AcidUtils.getAcidState (§4) - best base, working deltas, obsolete and
 * aborted directories, original files.
 */
#include "acid/acid_int.h"
#include "common/str.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fs/fs.h"

/* ------------------------------------------------------------------ names */

#define BASE_PREFIX "base_"
#define DELTA_PREFIX "delta_"
#define DELETE_DELTA_PREFIX "delete_delta_"
#define BUCKET_PREFIX "bucket_"
#define VISIBILITY_INFIX "_v"
#define COPY_INFIX "_copy_"
#define METADATA_ACID "_metadata_acid"

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Number of leading decimal digits of s. */
static size_t digit_run(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

/* Exactly n > 0 decimal digits (§3: any digit count) into a non-negative
 * int64; false on overflow. */
static bool parse_digits(const char *s, size_t n, int64_t *out)
{
    return digit_run(s) >= n && comb_digits_to_i64(s, n, out);
}

static bool parse_digits_int(const char *s, size_t n, int *out)
{
    int64_t v;
    if (!parse_digits(s, n, &v) || v > INT_MAX)
        return false;
    *out = (int)v;
    return true;
}

/* "W" or "W_vT" after "base_" (§3). */
static bool parse_base(const char *rest, AcidParsedDir *out)
{
    const char *vis = strstr(rest, VISIBILITY_INFIX);
    size_t wid_len = vis ? (size_t)(vis - rest) : strlen(rest);
    out->kind = ACID_DIR_BASE;
    out->stmt = -1;
    out->visibility_txn = 0;
    if (!parse_digits(rest, wid_len, &out->min_wid))
        return false;
    out->max_wid = out->min_wid;
    if (vis) {
        const char *t = vis + strlen(VISIBILITY_INFIX);
        if (!parse_digits(t, strlen(t), &out->visibility_txn))
            return false;
    }
    return true;
}

/* "min_max[_stmt][_vT]" after "delta_" / "delete_delta_" (§3: cut at the
 * first "_v", then split on '_'). */
static bool parse_delta(const char *rest, AcidDirKind kind,
                        AcidParsedDir *out)
{
    const char *vis = strstr(rest, VISIBILITY_INFIX);
    const char *end = vis ? vis : rest + strlen(rest);
    const char *p = rest;
    size_t n;
    out->kind = kind;
    out->stmt = -1;
    out->visibility_txn = 0;
    n = digit_run(p);
    if (!parse_digits(p, n, &out->min_wid) || p[n] != '_')
        return false;
    p += n + 1;
    n = digit_run(p);
    if (!parse_digits(p, n, &out->max_wid))
        return false;
    p += n;
    if (p < end) {
        if (*p != '_')
            return false;
        p++;
        n = digit_run(p);
        if (!parse_digits_int(p, n, &out->stmt))
            return false;
        p += n;
    }
    if (p != end)
        return false;
    if (vis) {
        const char *t = vis + strlen(VISIBILITY_INFIX);
        if (!parse_digits(t, strlen(t), &out->visibility_txn))
            return false;
    }
    return true;
}

bool acid_dir_parse(const char *name, AcidParsedDir *out)
{
    bool ok;
    if (has_prefix(name, BASE_PREFIX))
        ok = parse_base(name + strlen(BASE_PREFIX), out);
    else if (has_prefix(name, DELETE_DELTA_PREFIX))
        ok = parse_delta(name + strlen(DELETE_DELTA_PREFIX),
                         ACID_DIR_DELETE_DELTA, out);
    else if (has_prefix(name, DELTA_PREFIX))
        ok = parse_delta(name + strlen(DELTA_PREFIX), ACID_DIR_DELTA, out);
    else
        return false;
    if (ok)
        out->name = name;
    return ok;
}

char *acid_dir_name_vis(CombArena *a, AcidDirKind kind, int64_t min_wid,
                        int64_t max_wid, int stmt, int64_t visibility_txn)
{
    char stmt_part[16] = "", vis_part[32] = "";
    if (stmt >= 0 && kind != ACID_DIR_BASE)
        snprintf(stmt_part, sizeof stmt_part, "_%04d", stmt);
    if (visibility_txn > 0)
        snprintf(vis_part, sizeof vis_part, VISIBILITY_INFIX "%07" PRId64,
                 visibility_txn);
    switch (kind) {
    case ACID_DIR_BASE:
        return comb_arena_printf(a, BASE_PREFIX "%07" PRId64 "%s", max_wid,
                                 vis_part);
    case ACID_DIR_DELTA:
        return comb_arena_printf(a, DELTA_PREFIX "%07" PRId64 "_%07" PRId64
                                 "%s%s", min_wid, max_wid, stmt_part,
                                 vis_part);
    case ACID_DIR_DELETE_DELTA:
        return comb_arena_printf(a, DELETE_DELTA_PREFIX "%07" PRId64
                                 "_%07" PRId64 "%s%s", min_wid, max_wid,
                                 stmt_part, vis_part);
    }
    return NULL;
}

char *acid_dir_name(CombArena *a, AcidDirKind kind, int64_t min_wid,
                    int64_t max_wid, int stmt)
{
    return acid_dir_name_vis(a, kind, min_wid, max_wid, stmt, 0);
}

char *acid_bucket_file_name(CombArena *a, int bucket)
{
    return comb_arena_printf(a, BUCKET_PREFIX "%05d", bucket);
}

/* §3: bucket_([0-9]+)(_[0-9]+)?$ - so "_flush_length" side files fail. */
bool acid_bucket_file_parse(const char *name, int *bucket)
{
    const char *p;
    size_t n;
    int64_t attempt;
    if (!has_prefix(name, BUCKET_PREFIX))
        return false;
    p = name + strlen(BUCKET_PREFIX);
    n = digit_run(p);
    if (!parse_digits_int(p, n, bucket))
        return false;
    p += n;
    if (*p == '\0')
        return true;
    if (*p != '_')
        return false;
    p++;
    n = digit_run(p);
    return p[n] == '\0' && parse_digits(p, n, &attempt);
}

/* §3: [0-9]+_[0-9]+ or [0-9]+_[0-9]+_copy_[0-9]+. */
bool acid_original_file_parse(const char *name, int *bucket)
{
    const char *p = name;
    size_t n = digit_run(p);
    int64_t part;
    if (!parse_digits_int(p, n, bucket) || p[n] != '_')
        return false;
    p += n + 1;
    n = digit_run(p);
    if (!parse_digits(p, n, &part))
        return false;
    p += n;
    if (*p == '\0')
        return true;
    if (!has_prefix(p, COPY_INFIX))
        return false;
    p += strlen(COPY_INFIX);
    n = digit_run(p);
    return p[n] == '\0' && parse_digits(p, n, &part);
}

bool acid_data_file_parse(const char *name, int *bucket)
{
    return acid_bucket_file_parse(name, bucket) ||
           acid_original_file_parse(name, bucket);
}

/* ---------------------------------------------------------- directory state */

/* A growable list of arena strings. */
typedef struct NameList {
    char **v;
    int n;
    int cap;
} NameList;

void *acid_arena_grow(CombArena *a, void *v, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return v;
    int new_cap = *cap ? *cap * 2 : 16;
    void *nv = comb_arena_alloc(a, (size_t)new_cap * elem);
    if (nv && n)
        memcpy(nv, v, (size_t)n * elem);
    if (nv)
        *cap = new_cap;
    return nv;
}

static int names_push(CombArena *a, NameList *l, char *s, CombErr *err)
{
    char **v;
    if (!s) /* the caller's arena copy of the name failed */
        return comb_err_nomem(err);
    v = acid_arena_grow(a, l->v, l->n, &l->cap, sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    l->v = v;
    l->v[l->n++] = s;
    return COMB_OK;
}

/* Deepest non-ACID subdirectory level searched for original files. */
#define MAX_ORIGINAL_DEPTH 16

/* The work of one acid_dir_state_get call. */
typedef struct DirScan {
    const char *dir;             /* table or partition directory */
    const CombWriteIdList *wil;
    const CombTxnList *txns;     /* may be NULL: visibility not checked */
    bool compactor;              /* wil has compactor semantics (5.2) */
    CombArena *a;                /* all output lives here */
    AcidParsedDir *best;         /* chosen base so far */
    bool have_oldest;            /* some usable base was seen */
    int64_t oldest_wid;          /* smallest usable base write id */
    bool oldest_compacted;
    const char *oldest_name;
    AcidParsedDir *cands;        /* candidate deltas (4.1 processDelta) */
    int n_cands, cap_cands;
    NameList obsolete, aborted, originals, original_dirs;
} DirScan;

static CombRangeValid scan_range_valid(const DirScan *s, int64_t lo,
                                       int64_t hi)
{
    if (s->compactor) /* 5.2: a range with an unresolved id is never used */
        return s->wil->ids.hwm >= hi ? COMB_RANGE_ALL : COMB_RANGE_NONE;
    return comb_idlist_range_valid(&s->wil->ids, lo, hi);
}

/* 4.1 isDirUsable: a directory written by a compaction whose txn is not
 * committed in this snapshot does not exist for it. */
static int dir_usable(DirScan *s, const AcidParsedDir *d, bool *usable,
                      CombErr *err)
{
    *usable = true;
    if (d->visibility_txn == 0 || !s->txns)
        return COMB_OK;
    if (comb_idlist_is_valid(s->txns, d->visibility_txn))
        return COMB_OK;
    *usable = false;
    if (comb_idlist_is_aborted(s->txns, d->visibility_txn))
        return names_push(s->a, &s->aborted, (char *)d->name, err);
    return COMB_OK;
}

/* Value of "key": "value" in a flat JSON object (§1.6 _metadata_acid). */
static bool json_string_field(const char *json, const char *key,
                              const char **val, size_t *len)
{
    char quoted[64];
    const char *p;
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    p = strstr(json, quoted);
    if (!p)
        return false;
    p += strlen(quoted);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != ':')
        return false;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != '"')
        return false;
    *val = p;
    while (*p && *p != '"')
        p++;
    if (*p != '"')
        return false;
    *len = (size_t)(p - *val);
    return true;
}

static bool json_field_is(const char *json, const char *key,
                          const char *want)
{
    const char *v;
    size_t n;
    return json_string_field(json, key, &v, &n) && n == strlen(want) &&
           memcmp(v, want, n) == 0;
}

/* §1.6: a base without _vN is a compaction result when its _metadata_acid
 * says dataFormat "compacted". */
static int base_metadata_compacted(DirScan *s, const AcidParsedDir *d,
                                   bool *compacted, CombErr *err)
{
    CombArena tmp;
    unsigned char *bytes;
    size_t len;
    char *path;
    int rc = COMB_OK;
    *compacted = false;
    comb_arena_init(&tmp, 4096);
    path = comb_arena_printf(&tmp, "%s/%s/%s", s->dir, d->name,
                             METADATA_ACID);
    if (!path) {
        rc = comb_err_nomem(err);
        goto done;
    }
    FsKind kind;
    if ((rc = fs_probe(path, &kind, err)) || kind == FS_ABSENT)
        goto done;
    rc = fs_read_file(path, &tmp, &bytes, &len, err);
    if (rc)
        goto done;
    {
        char *json = comb_arena_strndup(&tmp, (const char *)bytes, len);
        if (!json) {
            rc = comb_err_nomem(err);
            goto done;
        }
        if (!json_field_is(json, "thisFileVersion", "0")) {
            rc = comb_err(err, COMB_EUNSUPPORTED,
                          "'%s': unsupported thisFileVersion (expected \"0\")",
                          path);
            goto done;
        }
        *compacted = json_field_is(json, "dataFormat", "compacted");
    }
done:
    comb_arena_free(&tmp);
    return rc;
}

/* 4.1 validBase. */
static bool base_valid(const DirScan *s, int64_t wid, bool compacted)
{
    const CombIdList *ids = &s->wil->ids;
    if (wid == INT64_MIN)
        return true;
    /* Hive 4's shortcut reads "W <= minOpen"; W == minOpen is the open
     * transaction's own INSERT OVERWRITE or TRUNCATE base, which Hive's
     * locks keep readers from meeting and which must stay invisible until
     * it commits (or forever, if its writer died), so it is left to the
     * checks below */
    if (ids->min_open != COMB_NO_OPEN_ID && wid < ids->min_open)
        return true;
    if (compacted)
        return comb_idlist_is_valid_base(ids, wid);
    return comb_idlist_is_valid(ids, wid);
}

/* 4.1 processBase. */
static int process_base(DirScan *s, AcidParsedDir *d, CombErr *err)
{
    bool usable, compacted;
    int rc = dir_usable(s, d, &usable, err);
    if (rc || !usable)
        return rc;
    compacted = d->visibility_txn > 0;
    if (!compacted) {
        rc = base_metadata_compacted(s, d, &compacted, err);
        if (rc)
            return rc;
    }
    if (!s->have_oldest || d->max_wid < s->oldest_wid) {
        s->have_oldest = true;
        s->oldest_wid = d->max_wid;
        s->oldest_compacted = compacted;
        s->oldest_name = d->name;
    }
    if (comb_idlist_is_aborted(&s->wil->ids, d->max_wid) && !compacted)
        return names_push(s->a, &s->aborted, (char *)d->name, err);
    /* an equal write id: a compaction result (its txn is valid, else the
     * directory was unusable) replaces the INSERT OVERWRITE base */
    if (!s->best || s->best->max_wid < d->max_wid ||
        (s->best->max_wid == d->max_wid && compacted)) {
        if (!base_valid(s, d->max_wid, compacted))
            return COMB_OK; /* neither chosen nor obsolete */
        if (s->best) {
            rc = names_push(s->a, &s->obsolete, (char *)s->best->name, err);
            if (rc)
                return rc;
        }
        s->best = d;
        return COMB_OK;
    }
    return names_push(s->a, &s->obsolete, (char *)d->name, err);
}

/* A delta the reading statement of an explicit transaction is writing
 * itself (CombWriteIdList.own_writeid): not read, not obsolete either. */
static bool own_statement_output(const DirScan *s, const AcidParsedDir *d)
{
    const CombWriteIdList *w = s->wil;
    return w->own_writeid > 0 && d->min_wid == w->own_writeid &&
           d->max_wid == w->own_writeid && d->stmt >= w->own_stmt_limit;
}

/* 4.1 processDelta. */
static int process_delta(DirScan *s, AcidParsedDir *d, CombErr *err)
{
    bool usable;
    int rc = dir_usable(s, d, &usable, err);
    if (rc || !usable || own_statement_output(s, d))
        return rc;
    if (comb_idlist_range_aborted(&s->wil->ids, d->min_wid, d->max_wid) ==
        COMB_RANGE_ALL)
        return names_push(s->a, &s->aborted, (char *)d->name, err);
    if (scan_range_valid(s, d->min_wid, d->max_wid) == COMB_RANGE_NONE)
        return COMB_OK;
    AcidParsedDir *v = acid_arena_grow(s->a, s->cands, s->n_cands,
                                       &s->cap_cands, sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    s->cands = v;
    s->cands[s->n_cands++] = *d;
    return COMB_OK;
}

/* 4.1: classify one child of the table directory. */
static int classify_child(DirScan *s, char *name, CombErr *err)
{
    char *path;
    int bucket, rc;
    FsKind kind;
    AcidParsedDir parsed, *d;
    if (acid_name_is_hidden(name))
        return COMB_OK;
    path = fs_join(s->a, s->dir, name);
    if (!path)
        return comb_err_nomem(err);
    if ((rc = fs_probe(path, &kind, err)))
        return rc;
    if (kind != FS_DIR) {
        if (acid_data_file_parse(name, &bucket))
            return names_push(s->a, &s->originals, name, err);
        return COMB_OK; /* expected.json, README... are no data */
    }
    if (!acid_dir_parse(name, &parsed)) {
        if (has_prefix(name, BASE_PREFIX) || has_prefix(name, DELTA_PREFIX) ||
            has_prefix(name, DELETE_DELTA_PREFIX))
            return COMB_OK; /* malformed ACID name: not ours to read */
        return names_push(s->a, &s->original_dirs, name, err);
    }
    d = comb_arena_alloc(s->a, sizeof *d);
    if (!d)
        return comb_err_nomem(err);
    *d = parsed;
    if (d->kind == ACID_DIR_BASE)
        return process_base(s, d, err);
    return process_delta(s, d, err);
}

/* 4.2 order: min asc, max desc, statement asc (none = -1 first), name. */
static int cmp_delta(const void *pa, const void *pb)
{
    const AcidParsedDir *a = pa, *b = pb;
    if (a->min_wid != b->min_wid)
        return a->min_wid < b->min_wid ? -1 : 1;
    if (a->max_wid != b->max_wid)
        return a->max_wid > b->max_wid ? -1 : 1;
    if (a->stmt != b->stmt)
        return a->stmt < b->stmt ? -1 : 1;
    return strcmp(a->name, b->name);
}

static bool same_range(const AcidParsedDir *a, const AcidParsedDir *b)
{
    return a->min_wid == b->min_wid && a->max_wid == b->max_wid &&
           a->stmt == b->stmt;
}

/* 4.2 findBestWorkingDeltas; kept[i] marks the chosen candidates. */
static int pick_deltas(DirScan *s, bool *kept, CombErr *err)
{
    int64_t current = s->best ? s->best->max_wid : 0;
    int last_stmt = -1;
    const AcidParsedDir *prev = NULL;
    if (s->n_cands > 1)
        qsort(s->cands, (size_t)s->n_cands, sizeof *s->cands, cmp_delta);
    for (int i = 0; i < s->n_cands; i++) {
        const AcidParsedDir *d = &s->cands[i];
        kept[i] = false;
        if (d->max_wid > current) {
            if (scan_range_valid(s, current + 1, d->max_wid) !=
                COMB_RANGE_NONE) {
                kept[i] = true;
                current = d->max_wid;
                last_stmt = d->stmt;
                prev = d;
            } /* else dropped: not readable yet, not obsolete either */
        } else if (d->max_wid == current && last_stmt >= 0) {
            kept[i] = true; /* another statement of the same transaction */
            prev = d;
        } else if (prev && same_range(d, prev)) {
            kept[i] = true; /* delta and delete_delta of one range */
            prev = d;
        } else {
            int rc = names_push(s->a, &s->obsolete, (char *)d->name, err);
            if (rc)
                return rc;
        }
    }
    return COMB_OK;
}

/* Original files under a non-ACID subdirectory, recursively (4.3). */
static int collect_original_dir(DirScan *s, const char *rel, int depth,
                                CombErr *err)
{
    char *path, **names;
    FsKind kind;
    int n, rc;
    if (depth > MAX_ORIGINAL_DEPTH)
        return COMB_OK;
    path = fs_join(s->a, s->dir, rel);
    if (!path)
        return comb_err_nomem(err);
    rc = fs_list_dir(path, s->a, &names, &n, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        char *child_rel, *child_path;
        int bucket;
        if (acid_name_is_hidden(names[i]))
            continue;
        child_rel = fs_join(s->a, rel, names[i]);
        child_path = child_rel ? fs_join(s->a, s->dir, child_rel) : NULL;
        if (!child_path)
            return comb_err_nomem(err);
        if ((rc = fs_probe(child_path, &kind, err)))
            return rc;
        if (kind == FS_DIR)
            rc = collect_original_dir(s, child_rel, depth + 1, err);
        else if (acid_data_file_parse(names[i], &bucket))
            rc = names_push(s->a, &s->originals, child_rel, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 4.3: with a base, originals are obsolete; without, they are read, in
 * path order. */
static int finish_originals(DirScan *s, CombErr *err)
{
    int rc;
    if (s->best) {
        for (int i = 0; i < s->originals.n; i++)
            if ((rc = names_push(s->a, &s->obsolete, s->originals.v[i], err)))
                return rc;
        for (int i = 0; i < s->original_dirs.n; i++)
            if ((rc = names_push(s->a, &s->obsolete, s->original_dirs.v[i],
                                 err)))
                return rc;
        s->originals.n = 0;
        return COMB_OK;
    }
    for (int i = 0; i < s->original_dirs.n; i++)
        if ((rc = collect_original_dir(s, s->original_dirs.v[i], 1, err)))
            return rc;
    if (s->originals.n > 1)
        qsort(s->originals.v, (size_t)s->originals.n, sizeof(char *),
              cmp_str);
    return COMB_OK;
}

/* 4.3: a snapshot older than the oldest compacted base cannot be served. */
static int check_history(const DirScan *s, CombErr *err)
{
    char *list;
    if (s->best || !s->have_oldest || !s->oldest_compacted)
        return COMB_OK;
    list = comb_writeidlist_format(s->wil);
    comb_err(err, COMB_ETXN,
             "not enough history available for (%s); oldest available "
             "base: '%s/%s'", list ? list : "?", s->dir, s->oldest_name);
    comb_free(list);
    return COMB_ETXN;
}

/* Split the kept candidates into insert and delete deltas, in order. */
static int emit_deltas(DirScan *s, const bool *kept, AcidDirState *out,
                       CombErr *err)
{
    int n = s->n_cands ? s->n_cands : 1;
    out->deltas = comb_arena_alloc(s->a, (size_t)n * sizeof *out->deltas);
    out->delete_deltas =
        comb_arena_alloc(s->a, (size_t)n * sizeof *out->delete_deltas);
    if (!out->deltas || !out->delete_deltas)
        return comb_err_nomem(err);
    for (int i = 0; i < s->n_cands; i++) {
        if (!kept[i])
            continue;
        if (s->cands[i].kind == ACID_DIR_DELETE_DELTA)
            out->delete_deltas[out->n_delete_deltas++] = s->cands[i];
        else
            out->deltas[out->n_deltas++] = s->cands[i];
    }
    return COMB_OK;
}

int acid_dir_state_get_opts(const char *dir, const CombWriteIdList *wil,
                            const CombTxnList *txns,
                            const AcidDirStateOptions *opt, CombArena *a,
                            AcidDirState *out, CombErr *err)
{
    DirScan s;
    char **names;
    bool *kept;
    FsKind kind;
    int n, rc;
    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    s.dir = dir;
    s.wil = wil;
    s.txns = txns;
    s.compactor = opt && opt->compactor;
    s.a = a;
    /* absent: a table nobody wrote to yet (but a store that cannot say
     * fails the statement; skipping the table would lose its rows) */
    if ((rc = fs_probe(dir, &kind, err)) || kind != FS_DIR)
        return rc;
    rc = fs_list_dir(dir, a, &names, &n, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = classify_child(&s, names[i], err)))
            return rc;
    kept = comb_arena_calloc(a, (size_t)(s.n_cands ? s.n_cands : 1) *
                                    sizeof *kept);
    if (!kept)
        return comb_err_nomem(err);
    if ((rc = pick_deltas(&s, kept, err)) || (rc = finish_originals(&s, err)) ||
        (rc = check_history(&s, err)) || (rc = emit_deltas(&s, kept, out, err)))
        return rc;
    out->base = s.best;
    out->n_obsolete = s.obsolete.n;
    out->obsolete = s.obsolete.v;
    out->n_aborted = s.aborted.n;
    out->aborted = s.aborted.v;
    out->n_originals = s.originals.n;
    out->originals = s.originals.v;
    return COMB_OK;
}

int acid_dir_state_get(const char *dir, const CombWriteIdList *wil,
                       const CombTxnList *txns, CombArena *a,
                       AcidDirState *out, CombErr *err)
{
    return acid_dir_state_get_opts(dir, wil, txns, NULL, a, out, err);
}
