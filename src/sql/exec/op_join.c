/*
 * op_join.c - the join operator (op.h).  One input (the build side: the
 * right one, or the left one when the plan says so: build_left, the side
 * estimated smaller) is read whole into a row store with its key values
 * and chained by their hash; the other (the probe side) streams.
 * Each probe row's candidates are the build rows with equal keys (all
 * build rows when there are none: a nested loop); a NULL key matches
 * nothing, except under <=>.  The candidates are joined into an output
 * batch of left ++ right columns, the residual condition narrows it, and
 * what matched is recorded per probe row and per build row, so that
 *
 *   INNER, LEFT/RIGHT/FULL  emit the matching pairs, then per probe batch
 *                           the unmatched probe rows with NULLs (a
 *                           preserved probe side), and at the end the
 *                           unmatched build rows with NULLs (a preserved
 *                           build side: FULL, RIGHT building right, LEFT
 *                           building left);
 *   SEMI, ANTI              pass on the probe rows whose mark is TRUE /
 *                           FALSE (a selection over the probe batch);
 *                           building the left side (build_left, the side
 *                           estimated smaller: TPC-H Q4's and Q21's few
 *                           orders against lineitem), the probe marks the
 *                           build rows it matches and the end passes on
 *                           the marked (SEMI) or unmarked (ANTI) ones, as
 *                           FULL's build rest; not for the null-aware
 *                           key of NOT IN, whose build side is the right;
 *   MARK                    pass on every probe row and its mark;
 *   SINGLE                  like LEFT, and more than one match is Hive's
 *                           error.
 *
 * The mark of x IN (SELECT y ...) (null_aware: the last key is x = y) is
 * SQL's three-valued IN: TRUE on a match, else NULL when x is NULL and
 * some build row has equal other keys, or when such a row has y NULL,
 * else FALSE; with a residual condition, only build rows that satisfy it
 * count, which a second pass over the unmatched probe rows' candidates
 * (the rows of equal other keys whose y is NULL, or all of them when x is
 * NULL) decides.
 *
 * When the build side outgrows the memory limit (spill.c), both sides go
 * to 16 partition files by their keys' hash (a grace hash join), and each
 * pair of partitions is joined as above, the partitions' files read back
 * as the inputs; a partition still too big splits again by other bits.
 * Rows with NULL keys land in some partition like any other and match
 * nothing there, so outer, SEMI and ANTI joins see them as before.  The
 * null-aware mark of IN and the nested loop need the whole build side:
 * over the limit they fail with the memory error.
 *
 * In parallel (par.h) a build side that is a chain down to a table scan
 * is read by copies of it, one per thread, sharing the scan's morsels:
 * each stores its rows (and keys) in a store of its own, noting where
 * each morsel's rows start, and the table lists them by morsel, the
 * order one thread reads them in, so that chains, matches and the build
 * rest come out as the serial engine's.  A copy that tips the statement
 * over its memory limit stops them all, and the build side is read again
 * on this thread, spilling as above.  A SEMI or ANTI join building its
 * left side outputs nothing before its build rest, so copies of the join
 * (probing this one's table, par.h) each mark the build rows their share
 * of the probe side's morsels matches, and the marks are joined before
 * the rest.
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/hash.h"
#include "sql/exec/par.h"

enum { PH_PAIRS, PH_NULL_PAIRS, PH_PROBE_REST, PH_BUILD_REST, PH_DONE };

/* The rows one copy of the build side stored from one morsel: its rows
 * first .. of the copy's store, up to the next run's first. */
typedef struct BuildRun {
    int64_t morsel, first;
} BuildRun;

/* A parallel build's share: one copy of the build side (the first: the
 * build side itself) storing the rows of its morsels on its own thread. */
typedef struct BuildPart {
    struct JoinOp *j;
    SqlOp *input;
    BoundExpr **keys;              /* the build keys, its own copies */
    CombVector **cols;             /* append_rows's columns of a batch */
    AcidMorselWalk *walk;          /* its scan's */
    SqlRowStore rows;
    BuildRun *runs;                /* in its store's order */
    int n_runs, cap_runs;
} BuildPart;

typedef struct JoinOp {
    SqlOp op;
    SqlJoinSpec s;
    SqlOp *probe, *build;
    bool probe_left;
    bool outer_probe, outer_build;
    bool marks_build;              /* SEMI, ANTI building left: the build
                                      rest is the output */
    int n_left, n_right;
    int poff, boff;                /* where each side's columns go */
    BoundExpr **pkeys, **bkeys;    /* over the probe / build input */
    const CombType **ktypes;
    /* build side: its columns, then its key values */
    SqlRowStore rows;
    const CombType **stypes;
    int n_bcols;
    int n_bstore;                  /* the build columns read, stored */
    int *bslot;                    /* per build column: its place in a
                                      stored row, -1 not read */
    SqlDatum *wide;                /* a stored row at the build's width */
    int64_t *heads, *chain;        /* entries by the keys' hash; -1 ends */
    uint64_t *bloom;               /* a bit per spread hash's top bits */
    int bloom_shift;               /* 64 - log2 of its bits */
    int64_t *heads2, *chain2;      /* null-aware: by the other keys */
    uint64_t mask;
    bool *bmatched;
    bool any_row, any_null;        /* null-aware without other keys */
    /* probe side */
    const CombBatch *pb;
    int pi, live;
    int64_t cand;                  /* next candidate of row pi; -2 none yet */
    uint64_t ctag, ptag;           /* cand's hash tag, row pi's */
    SqlDatum *pkey;
    bool pkey_null;                /* a non-null-safe key of pi is NULL */
    int8_t *pmark;                 /* per live row: 1 TRUE, 0 FALSE, -1 NULL */
    int64_t *pentry;               /* per live row: its first chain entry,
                                      -1 none (prefetch_candidates) */
    uint64_t *pg;                  /* per live row: its keys' spread hash */
    bool prefetched;               /* pentry and pg hold this batch's */
    int *pcount;
    CombArena scratch;
    /* output */
    CombBatch out;
    SqlVecFill *fills;
    SqlRowStore out_rs;            /* only the output's types and fills */
    int *out_probe;
    int64_t *out_build;
    int phase;
    int64_t bnext;
    CombBatch view;
    uint16_t *sel;
    CombVector *vcols;
    CombBatch markb;
    const CombType **pair_types;   /* left ++ right */
    SqlRowStore defrow;            /* SINGLE: single_default's row */
    bool *pused, *bused;           /* input columns read */
    bool *pfill, *bfill;           /* of those, what a pair carries: for
                                      SEMI, ANTI and MARK the residual's
                                      columns alone */
    bool *dead;                    /* output columns nothing reads, of a
                                      flat kind: all NULL once per batch,
                                      not per row */
    bool built;
    /* a parallel build (par.h): the build side's copies (par.peers), and
     * par.n + 1 parts, whose stored rows the table orders by morsel */
    SqlParGroup par;
    BuildPart *parts;
    /* SEMI, ANTI building left: copies of the join (their `lead` this
     * one), each marking the build rows its share of the probe side's
     * morsels matches, before the build rest */
    SqlParGroup mpar;
    bool copies_ended;             /* the copies' contexts' arenas, which
                                      held their constants' vectors, are
                                      gone: the join runs alone from now */
    /* a parallel copy (par.h): probes the build table of `lead` (built
     * before the copies run, read-only while they do); its own build
     * input is never opened */
    const struct JoinOp *lead;
    /* grace hash join: while partitions run, probe and build are spill
     * scans of a pair of partition files */
    SqlOp *in_probe, *in_build;    /* the inputs */
    SqlOp *pscan, *bscan;          /* of the pair being joined */
    CombVector **pcols;            /* split_probe's columns of a batch */
    CombVector **bcols;            /* read_build's columns of a batch */
    bool overflow;                 /* the build side outgrew the limit */
    int level;                     /* of the partition being joined */
    SqlSpill **pend_b, **pend_p;   /* partition pairs waiting */
    int *pend_level;
    int n_pend;
    SqlRowStore prows;             /* probe rows being partitioned */
    const CombType **ptypes;       /* the probe's columns, then the keys */
} JoinOp;

/* ---------------------------------------------------------------- hashing */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 1099511628211ULL;
    return h;
}

static uint64_t hash_datum(const CombType *t, const SqlDatum *d)
{
    uint64_t h = 0;
    if (d->null)
        return 0x51ed270b;
    switch (t->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE: {
        double v = d->d == 0 ? 0 : d->d;   /* -0.0 equals 0.0 */
        int64_t bits;
        if (v != v)
            return 0x7ff8;
        memcpy(&bits, &v, sizeof bits);
        return mix(0, (uint64_t)bits);
    }
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return hash_bytes(d->s.ptr, d->s.len);
    case COMB_T_DECIMAL:
        return mix(mix(0, (uint64_t)(d->dec >> 64)), (uint64_t)d->dec);
    case COMB_T_TIMESTAMP:
        return mix(mix(0, (uint64_t)d->i), (uint64_t)d->nanos);
    case COMB_T_LIST:
        for (uint32_t k = 0; k < d->n; k++)
            h = mix(h, hash_datum(t->children[0], &d->parts[k]));
        return h;
    case COMB_T_MAP:
        for (uint32_t k = 0; k < d->n; k++)
            h += hash_datum(t->children[k % 2], &d->parts[k]);
        return h;
    case COMB_T_STRUCT:
        for (uint32_t k = 0; k < d->n && k < (uint32_t)t->n_children; k++)
            h = mix(h, hash_datum(t->children[k], &d->parts[k]));
        return h;
    case COMB_T_UNION:
        return d->n ? mix(d->tag, hash_datum(t->children[d->tag], &d->parts[0])) : d->tag;
    default:
        return mix(0, (uint64_t)d->i);
    }
}

static uint64_t hash_keys(const JoinOp *j, const SqlDatum *k, int n)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++)
        h = mix(h, hash_datum(j->ktypes[i], &k[i]));
    return h;
}

static bool keys_equal(const JoinOp *j, const SqlDatum *a, const SqlDatum *b,
                       int n)
{
    for (int i = 0; i < n; i++) {
        if (a[i].null != b[i].null)
            return false;
        if (a[i].null)
            continue;   /* both NULL: a <=> key */
        /* integer kinds (most keys) by their value, without the call */
        if (comb_type_is_int(j->ktypes[i]->kind) ? a[i].i != b[i].i
                                                 : sql_datum_cmp(j->ktypes[i], &a[i], &b[i]) != 0)
            return false;
    }
    return true;
}

/* A chain entry: a build row (-1: the chain ends) and the top bits of
 * its keys' spread hash, so that a probe passes the rows of other keys
 * without reading them (each a cache miss into the row store). */
#define TAG_BITS 16

static uint64_t spread(uint64_t h)
{
    /* every bit of h into the low ones (the slot) and the high ones (the
     * tag): keys that differ only in high bits (multiples of 1024, say)
     * still spread over the slots */
    return comb_fmix64(h);
}

/* The tag of a spread hash: its top TAG_BITS. */
static uint64_t tag_of(uint64_t g)
{
    return g >> (64 - TAG_BITS);
}

static int64_t entry_of(int64_t r, uint64_t g)
{
    return (int64_t)((uint64_t)r << TAG_BITS | tag_of(g));
}

static int64_t entry_row(int64_t e)
{
    return e >> TAG_BITS;
}

static uint64_t entry_tag(int64_t e)
{
    return (uint64_t)e & ((1u << TAG_BITS) - 1);
}

/* j->cand and its tag from an entry. */
static void set_cand(JoinOp *j, int64_t e)
{
    j->cand = e < 0 ? -1 : entry_row(e);
    j->ctag = entry_tag(e);
}

/* The build row's keys. */
static const SqlDatum *bkey(const JoinOp *j, int64_t r)
{
    return &j->rows.rows[r][j->n_bstore];
}

/* ------------------------------------------------------------------ build */

/* The stored row's layout: the build columns read (a wide build input,
 * Q21's joined rows of four tables, keeps only the few used: a datum is
 * 80 bytes), then the keys. */
static void store_layout(JoinOp *j)
{
    j->n_bstore = 0;
    for (int c = 0; c < j->n_bcols; c++) {
        j->bslot[c] = j->bused[c] ? j->n_bstore : -1;
        if (j->bused[c])
            j->stypes[j->n_bstore++] = j->build->types[c];
    }
    for (int k = 0; k < j->s.n_keys; k++)
        j->stypes[j->n_bstore + k] = j->ktypes[k];
}

/* Build batch b's rows (the columns read, then the keys evaluated by
 * `keys`) into store rs; cols: room for the row's columns. */
static int append_rows(const JoinOp *j, BoundExpr **keys, CombVector **cols,
                       SqlRowStore *rs, const CombBatch *b, CombErr *err)
{
    int rc;
    for (int c = 0; c < j->n_bcols; c++)
        if (j->bslot[c] >= 0)
            cols[j->bslot[c]] = &((CombBatch *)b)->cols[c];
    for (int k = 0; k < j->s.n_keys; k++) {
        if ((rc = sql_expr_eval(keys[k], b, err)))
            return rc;
        cols[j->n_bstore + k] = keys[k]->out;
    }
    return sql_rows_append(rs, cols, b, err);
}

static int append_build(JoinOp *j, const CombBatch *b, CombErr *err)
{
    return append_rows(j, j->bkeys, j->bcols, &j->rows, b, err);
}

/* A stored build row at the build input's width (the columns not read
 * NULL), as its partition files and their scans hold it. */
static const SqlDatum *wide_row(JoinOp *j, const SqlDatum *row)
{
    for (int c = 0; c < j->n_bcols; c++)
        if (j->bslot[c] >= 0)
            j->wide[c] = row[j->bslot[c]];
        else {
            memset(&j->wide[c], 0, sizeof j->wide[c]);
            j->wide[c].null = true;
        }
    return j->wide;
}

/* Can the build side go to partition files? */
static bool can_spill(const JoinOp *j)
{
    return j->s.n_keys > 0 && !j->s.null_aware && j->level < SQL_SPILL_MAX_LEVEL;
}

/* The build side into the store, until it ends or (j->overflow) it is
 * over the memory limit and can spill. */
static int read_build(JoinOp *j, CombErr *err)
{
    SqlStmtCtx *c = j->op.c;
    for (;;) {
        const CombBatch *b;
        int rc = sql_op_next(j->build, &b, err);
        if (rc || !b)
            return rc;
        if ((rc = append_build(j, b, err)))
            return rc;
        if (!j->rows.over)
            continue;
        if (can_spill(j) && sql_spill_worth(c, j->rows.mem.held)) {
            j->overflow = true;
            return COMB_OK;
        }
        if (sql_mem_exceeded(c, j->rows.mem.held))
            return sql_mem_error(c, j->s.n_keys ? "hash join's build side"
                                                : "nested loop join's inner side",
                                 err);
    }
}

/* A key that may not match: NULL under = (not <=>). */
static bool null_blocks(const JoinOp *j, const SqlDatum *k, int n)
{
    for (int i = 0; i < n; i++)
        if (k[i].null && !j->s.null_safe[i])
            return true;
    return false;
}

/* The bloom filter of the build keys: 8 bits per row, small enough to
 * stay in the cache where the slots do not, so that the probe rows
 * without a match (most of a MERGE's target rows) mostly skip the slot's
 * cache miss. */
static int bloom_init(JoinOp *j, int64_t n, CombErr *err)
{
    int log2 = 6;
    while (log2 < 40 && ((int64_t)1 << log2) < 8 * n)
        log2++;
    if (!(j->bloom = comb_arena_calloc(&j->rows.arena, ((size_t)1 << log2) / 8)))
        return comb_err_nomem(err);
    j->bloom_shift = 64 - log2;
    return COMB_OK;
}

static void bloom_add(JoinOp *j, uint64_t g)
{
    uint64_t bit = g >> j->bloom_shift;
    j->bloom[bit / 64] |= (uint64_t)1 << (bit % 64);
}

static bool bloom_may(const JoinOp *j, uint64_t g)
{
    uint64_t bit = g >> j->bloom_shift;
    return (j->bloom[bit / 64] >> (bit % 64)) & 1;
}

static int build_chains(JoinOp *j, CombErr *err)
{
    int64_t n = j->rows.n_rows, size = 16;
    int nk = j->s.n_keys, nprefix = j->s.null_aware ? nk - 1 : nk, rc;
    while (size < 2 * n)
        size *= 2;
    j->mask = (uint64_t)size - 1;
    j->bloom = NULL;
    if (!(j->bmatched = comb_arena_calloc(&j->rows.arena, (size_t)n + 1)))
        return comb_err_nomem(err);
    if (nk == 0)
        return COMB_OK;
    if (!(j->heads = comb_arena_alloc(&j->rows.arena, (size_t)size * sizeof *j->heads)) ||
        !(j->chain = comb_arena_alloc(&j->rows.arena, (size_t)(n + 1) * sizeof *j->chain)))
        return comb_err_nomem(err);
    memset(j->heads, 0xff, (size_t)size * sizeof *j->heads);
    if ((rc = bloom_init(j, n, err)))
        return rc;
    if (j->s.null_aware && nprefix > 0) {
        if (!(j->heads2 = comb_arena_alloc(&j->rows.arena, (size_t)size * sizeof *j->heads2)) ||
            !(j->chain2 = comb_arena_alloc(&j->rows.arena, (size_t)(n + 1) * sizeof *j->chain2)))
            return comb_err_nomem(err);
        memset(j->heads2, 0xff, (size_t)size * sizeof *j->heads2);
    }
    /* in reverse, so that each chain lists its rows in input order */
    for (int64_t r = n - 1; r >= 0; r--) {
        const SqlDatum *k = bkey(j, r);
        if (j->s.null_aware) {
            if (null_blocks(j, k, nprefix))
                continue;
            j->any_row = true;
            j->any_null |= k[nk - 1].null;
            if (j->heads2) {
                uint64_t h2 = hash_keys(j, k, nprefix) & j->mask;
                j->chain2[r] = j->heads2[h2];
                j->heads2[h2] = r;
            }
        }
        if (null_blocks(j, k, nk))
            continue;
        uint64_t g = spread(hash_keys(j, k, nk));
        j->chain[r] = j->heads[g & j->mask];
        j->heads[g & j->mask] = entry_of(r, g);
        bloom_add(j, g);
    }
    sql_rows_track(&j->rows, j->rows.mem.acct);   /* the chains count too */
    return COMB_OK;
}

/* ------------------------------------------------------------------ probe */

/* A value of a flat kind as a datum without a copy: its string bytes stay
 * the vector's, valid as long as the probe batch. */
static bool flat_datum(const CombVector *v, int row, SqlDatum *d)
{
    if (!comb_type_is_primitive(v->kind))
        return false;
    memset(d, 0, sizeof *d);
    if (comb_vec_is_null(v, row) || v->kind == COMB_T_NULL) {
        d->null = true;
        return true;
    }
    if (v->i64)
        d->i = v->i64[row];
    if (v->nanos)
        d->nanos = v->nanos[row];
    if (v->f64)
        d->d = v->f64[row];
    if (v->dec)
        d->dec = v->dec[row];
    if (v->str)
        d->s = v->str[row];
    return true;
}

/* A probe key's value as a datum (flat_datum's).  An integer (most
 * keys) sets only the value and the NULL flag: the other fields of the
 * key datums this file keeps (j->pkey, prefetch_candidates') are zero
 * from the start, as they only ever hold values of the keys' kinds,
 * and clearing all of a datum per row was a noticeable share of a
 * probe. */
static bool key_datum(const CombVector *v, int row, SqlDatum *d)
{
    if (v->i64 && comb_type_is_int(v->kind) && !v->nanos) {
        d->null = comb_vec_is_null(v, row);
        d->i = v->i64[row];
        return true;
    }
    return flat_datum(v, row, d);
}

/* A probe row's first candidate is three dependent loads (its chain
 * head, the build row's pointer, the row's keys), each a cache miss in a
 * big build table, which row by row come one after another.  For a batch
 * whose keys are all of flat kinds they are fetched ahead, one stage per
 * pass over the batch, so that the misses of a stage overlap. */
static void prefetch_candidates(JoinOp *j)
{
    int nk = j->s.n_keys;
    SqlDatum k[8];
    j->prefetched = false;
    if (nk == 0 || nk > 8 || !j->heads)
        return;
    memset(k, 0, sizeof k);
    for (int i = 0; i < j->live; i++) {
        int row = comb_batch_row(j->pb, i);
        for (int c = 0; c < nk; c++)
            if (!key_datum(j->pkeys[c]->out, row, &k[c]))
                return;
        j->pentry[i] = -1;
        if (null_blocks(j, k, nk))
            continue;
        j->pg[i] = spread(hash_keys(j, k, nk));
        if (!bloom_may(j, j->pg[i]))
            continue;
        j->pentry[i] = -2;
        __builtin_prefetch(&j->heads[j->pg[i] & j->mask]);
    }
    for (int i = 0; i < j->live; i++)
        if (j->pentry[i] == -2 && (j->pentry[i] = j->heads[j->pg[i] & j->mask]) >= 0)
            __builtin_prefetch(&j->rows.rows[entry_row(j->pentry[i])]);
    for (int i = 0; i < j->live; i++)
        if (j->pentry[i] >= 0 && entry_tag(j->pentry[i]) == tag_of(j->pg[i])) {
            const SqlDatum *r = j->rows.rows[entry_row(j->pentry[i])];
            /* its keys, and the columns a pair copies out */
            for (int c = 0; c <= j->n_bstore; c++)
                __builtin_prefetch(&r[c]);
            /* and where its chain goes on (a key of many build rows) */
            __builtin_prefetch(&j->chain[entry_row(j->pentry[i])]);
        }
    j->prefetched = true;
}

static int start_probe_batch(JoinOp *j, CombErr *err)
{
    comb_arena_reset(&j->scratch);
    for (int k = 0; k < j->s.n_keys; k++) {
        int rc = sql_expr_eval(j->pkeys[k], j->pb, err);
        if (rc)
            return rc;
    }
    j->live = comb_batch_live(j->pb);
    j->pi = 0;
    j->cand = -2;
    prefetch_candidates(j);
    memset(j->pmark, 0, (size_t)COMB_BATCH_SIZE * sizeof *j->pmark);
    memset(j->pcount, 0, (size_t)COMB_BATCH_SIZE * sizeof *j->pcount);
    return COMB_OK;
}

/* Row pi's keys as datums (j->pkey). */
static int read_pkey(JoinOp *j, CombErr *err)
{
    int row = comb_batch_row(j->pb, j->pi);
    for (int k = 0; k < j->s.n_keys; k++)
        if (!key_datum(j->pkeys[k]->out, row, &j->pkey[k]) &&
            sql_datum_read(&j->pkey[k], j->pkeys[k]->out, row, &j->scratch))
            return comb_err_nomem(err);
    return COMB_OK;
}

/* Row pi's keys as datums; its first candidate. */
static int first_candidate(JoinOp *j, CombErr *err)
{
    int nk = j->s.n_keys;
    if (read_pkey(j, err))
        return COMB_ENOMEM;
    j->pkey_null = null_blocks(j, j->pkey, nk);
    if (nk == 0)
        j->cand = j->rows.n_rows ? 0 : -1;
    else if (j->pkey_null)
        j->cand = -1;
    else if (j->prefetched) {
        j->ptag = tag_of(j->pg[j->pi]);
        set_cand(j, j->pentry[j->pi]);
    } else {
        uint64_t g = spread(hash_keys(j, j->pkey, nk));
        j->ptag = tag_of(g);
        set_cand(j, bloom_may(j, g) ? j->heads[g & j->mask] : -1);
    }
    return COMB_OK;
}

/* Advance j->cand to a build row whose keys equal row pi's (or -1). */
static void settle(JoinOp *j)
{
    if (j->s.n_keys == 0)
        return;
    while (j->cand >= 0 && (j->ctag != j->ptag ||
                            !keys_equal(j, j->pkey, bkey(j, j->cand), j->s.n_keys)))
        set_cand(j, j->chain[j->cand]);
}

/* j->cand to the next candidate after it. */
static void next_cand(JoinOp *j)
{
    if (j->s.n_keys == 0)
        j->cand = j->cand + 1 < j->rows.n_rows ? j->cand + 1 : -1;
    else
        set_cand(j, j->chain[j->cand]);
    /* the step after this one starts loading while this pair is made */
    if (j->cand >= 0 && j->s.n_keys)
        __builtin_prefetch(&j->chain[j->cand]);
}

/* Without a residual every candidate of row pi matches: all marked. */
static void mark_candidates(JoinOp *j)
{
    for (; j->cand >= 0; next_cand(j), settle(j))
        j->bmatched[j->cand] = true;
}

/* Output row k: probe row `row` (or NULLs, row < 0), build row r (or
 * NULLs, r < 0). */
static int put_row(JoinOp *j, int k, int row, int64_t r)
{
    /* a SEMI / ANTI build rest shows the build (left) columns only */
    int np = row < 0 && j->marks_build ? 0 : j->probe->n_cols;
    const bool *bfill = row < 0 ? j->bused : j->bfill;
    for (int c = 0; c < np; c++) {
        SqlVecFill *f = &j->fills[j->poff + c];
        if (j->dead[j->poff + c])
            continue;
        if (row < 0 || !j->pfill[c])
            sql_fill_null(f, k);
        else if (sql_fill_copy(f, k, &j->pb->cols[c], row))
            return COMB_ENOMEM;
    }
    for (int c = 0; c < j->n_bcols; c++) {
        SqlVecFill *f = &j->fills[j->boff + c];
        if (j->dead[j->boff + c])
            continue;
        if (r < 0 && row >= 0 && c < j->defrow.n_cols && j->defrow.n_rows) {
            if (sql_datum_fill(f, k, &j->defrow.rows[0][c]))
                return COMB_ENOMEM;
        } else if (r < 0 || !bfill[c] || j->bslot[c] < 0)
            sql_fill_null(f, k);
        else if (sql_datum_fill(f, k, &j->rows.rows[r][j->bslot[c]]))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

/* The pair (row pi, build row cand) as the next output row. */
static int put_pair(JoinOp *j)
{
    if (put_row(j, j->out.n_rows, comb_batch_row(j->pb, j->pi), j->cand))
        return COMB_ENOMEM;
    j->out_probe[j->out.n_rows] = j->pi;
    j->out_build[j->out.n_rows] = j->cand;
    j->out.n_rows++;
    return COMB_OK;
}

static void out_reset(JoinOp *j)
{
    comb_batch_reset(&j->out);
    for (int c = 0; c < j->out.n_cols; c++) {
        CombVector *v = &j->out.cols[c];
        sql_fill_reset(&j->fills[c]);
        if (j->dead[c]) {
            memset(v->nulls, 1, (size_t)v->capacity);
            v->has_nulls = true;
        }
    }
}

static bool marks_only(const JoinOp *j)
{
    return j->s.kind == LP_JOIN_SEMI || j->s.kind == LP_JOIN_ANTI ||
           j->s.kind == LP_JOIN_MARK;
}

/* Candidate pairs of the current probe batch into out, until it is full
 * or the batch's rows are done. */
static int fill_pairs(JoinOp *j, CombErr *err)
{
    out_reset(j);
    while (j->pi < j->live && j->out.n_rows < j->out.capacity) {
        int rc;
        if (j->cand == -2 && (rc = first_candidate(j, err)))
            return rc;
        settle(j);
        if (j->cand >= 0 && j->marks_build) {
            if (!j->s.residual)
                mark_candidates(j);
            else if (j->bmatched[j->cand]) {
                /* decided: no pair of it needs the residual again */
                next_cand(j);
                continue;
            }
        } else if (j->cand >= 0 && marks_only(j) && !j->s.residual) {
            /* the first match decides the mark */
            j->pmark[j->pi] = 1;
            j->cand = -1;
        }
        if (j->cand < 0) {
            j->pi++;
            j->cand = -2;
            continue;
        }
        if (put_pair(j))
            return comb_err_nomem(err);
        next_cand(j);
    }
    return COMB_OK;
}

/* The residual over the pairs, then what matched. */
static int record_pairs(JoinOp *j, CombErr *err)
{
    int rc;
    if (j->s.residual && (rc = sql_filter_batch(j->s.residual, &j->out, err)))
        return rc;
    for (int i = 0; i < comb_batch_live(&j->out); i++) {
        int row = comb_batch_row(&j->out, i);
        j->pmark[j->out_probe[row]] = 1;
        j->bmatched[j->out_build[row]] = true;
        if (j->s.kind == LP_JOIN_SINGLE && ++j->pcount[j->out_probe[row]] > 1)
            return sql_err_at(err, COMB_ESEMANTIC, 0, j->s.single_pos,
                              "Scalar subquery expression returns more than "
                              "one row.");
    }
    return COMB_OK;
}

/* Does a build row with keys equal to pkey's first n exist (with the
 * last key NULL, when need_null)? (null-aware marks) */
static bool prefix_row(const JoinOp *j, int n, bool need_null)
{
    int64_t r;
    if (n == 0)
        return need_null ? j->any_null : j->any_row;
    for (r = j->heads2[hash_keys(j, j->pkey, n) & j->mask]; r >= 0; r = j->chain2[r]) {
        const SqlDatum *k = bkey(j, r);
        if (keys_equal(j, j->pkey, k, n) && (!need_null || k[j->s.n_keys - 1].null))
            return true;
    }
    return false;
}

/* The three-valued IN marks of the probe rows without a match. */
static int null_aware_marks(JoinOp *j, CombErr *err)
{
    int nk = j->s.n_keys, np = nk - 1;
    for (j->pi = 0; j->pi < j->live; j->pi++) {
        bool x_null;
        if (j->pmark[j->pi] == 1)
            continue;
        if (read_pkey(j, err))
            return COMB_ENOMEM;
        if (null_blocks(j, j->pkey, np))
            continue;
        x_null = j->pkey[nk - 1].null;
        if (x_null ? prefix_row(j, np, false) : prefix_row(j, np, true))
            j->pmark[j->pi] = -1;
    }
    return COMB_OK;
}

/* The null-aware pass's candidates of row pi: build rows whose other
 * keys equal pi's and whose IN key is NULL (all of them when pi's is). */
static int64_t null_next(const JoinOp *j, int64_t r)
{
    if (j->s.n_keys > 1)
        return j->chain2[r];
    return r + 1 < j->rows.n_rows ? r + 1 : -1;
}

static void null_settle(JoinOp *j)
{
    int nk = j->s.n_keys, np = nk - 1;
    for (; j->cand >= 0; j->cand = null_next(j, j->cand)) {
        const SqlDatum *k = bkey(j, j->cand);
        if ((j->pkey[nk - 1].null || k[nk - 1].null) && keys_equal(j, j->pkey, k, np) &&
            !null_blocks(j, k, np))
            return;
    }
}

static int null_first(JoinOp *j, CombErr *err)
{
    int np = j->s.n_keys - 1;
    if (read_pkey(j, err))
        return COMB_ENOMEM;
    if (null_blocks(j, j->pkey, np) || !j->rows.n_rows)
        j->cand = -1;
    else
        j->cand = np ? j->heads2[hash_keys(j, j->pkey, np) & j->mask] : 0;
    return COMB_OK;
}

/* Candidate pairs of the unmatched probe rows for their NULL marks. */
static int fill_null_pairs(JoinOp *j, CombErr *err)
{
    out_reset(j);
    while (j->pi < j->live && j->out.n_rows < j->out.capacity) {
        int rc;
        if (j->pmark[j->pi] != 0) {
            j->pi++;
            continue;
        }
        if (j->cand == -2 && (rc = null_first(j, err)))
            return rc;
        null_settle(j);
        if (j->cand < 0) {
            j->pi++;
            j->cand = -2;
            continue;
        }
        if (put_pair(j))
            return comb_err_nomem(err);
        j->cand = null_next(j, j->cand);
    }
    return COMB_OK;
}

/* A pair satisfying the residual makes its probe row's mark NULL. */
static int record_null_pairs(JoinOp *j, CombErr *err)
{
    int rc;
    if ((rc = sql_filter_batch(j->s.residual, &j->out, err)))
        return rc;
    for (int i = 0; i < comb_batch_live(&j->out); i++)
        j->pmark[j->out_probe[comb_batch_row(&j->out, i)]] = -1;
    return COMB_OK;
}

/* SEMI / ANTI: a selection over the probe batch; MARK: its columns and
 * the marks. */
static const CombBatch *mark_view(JoinOp *j)
{
    int k = 0;
    j->view = *j->pb;
    if (j->s.kind == LP_JOIN_MARK) {
        CombVector *m = &j->markb.cols[0];
        m->has_nulls = false;
        for (int i = 0; i < j->live; i++) {
            int row = comb_batch_row(j->pb, i);
            m->i64[row] = j->pmark[i] == 1;
            if (j->pmark[i] < 0) {
                if (!m->has_nulls)
                    memset(m->nulls, 0, (size_t)m->capacity);
                m->has_nulls = true;
            }
            if (m->has_nulls)
                m->nulls[row] = j->pmark[i] < 0;
        }
        memcpy(j->vcols, j->pb->cols, (size_t)j->n_left * sizeof *j->vcols);
        j->vcols[j->n_left] = *m;
        j->view.cols = j->vcols;
        j->view.n_cols = j->n_left + 1;
        return &j->view;
    }
    for (int i = 0; i < j->live; i++)
        if (j->pmark[i] == (j->s.kind == LP_JOIN_SEMI ? 1 : 0))
            j->sel[k++] = (uint16_t)comb_batch_row(j->pb, i);
    if (!k)
        return NULL;
    j->view.sel = j->sel;
    j->view.use_sel = true;
    j->view.n_sel = k;
    return &j->view;
}

/* The probe rows of the batch without a match, with NULLs. */
static int probe_rest(JoinOp *j, CombErr *err)
{
    out_reset(j);
    for (int i = 0; i < j->live; i++)
        if (j->pmark[i] != 1) {
            if (put_row(j, j->out.n_rows, comb_batch_row(j->pb, i), -1))
                return comb_err_nomem(err);
            j->out.n_rows++;
        }
    return COMB_OK;
}

/* The build rows never matched, with NULLs (a preserved build side);
 * SEMI building left: the matched ones. */
static int build_rest(JoinOp *j, CombErr *err)
{
    bool want = j->marks_build && j->s.kind == LP_JOIN_SEMI;
    out_reset(j);
    for (; j->bnext < j->rows.n_rows && j->out.n_rows < j->out.capacity; j->bnext++)
        if (j->bmatched[j->bnext] == want) {
            if (put_row(j, j->out.n_rows, -1, j->bnext))
                return comb_err_nomem(err);
            j->out.n_rows++;
        }
    return COMB_OK;
}

/* SEMI, ANTI, MARK: the marks of the probe batch decided, its view. */
static int finish_marks(JoinOp *j, const CombBatch **out, CombErr *err)
{
    int rc;
    if (j->s.null_aware && !j->s.residual && (rc = null_aware_marks(j, err)))
        return rc;
    *out = mark_view(j);
    j->pb = NULL;
    j->phase = PH_PAIRS;
    return COMB_OK;
}

/* ---------------------------------------------------- grace hash join */

/* Each row of rs (its keys after its first n_cols columns) to its
 * partition of parts; rs is cleared.  A row whose NULL key matches
 * nothing may go anywhere: in turn to each, so that NULLs do not pile up
 * in one partition. */
static int rows_to_parts(JoinOp *j, SqlRowStore *rs, int n_cols,
                         SqlSpillParts *parts, CombErr *err)
{
    for (int64_t r = 0; r < rs->n_rows; r++) {
        const SqlDatum *k = rs->rows[r] + n_cols;
        int part = null_blocks(j, k, j->s.n_keys)
                       ? (int)(r % SQL_SPILL_FANOUT)
                       : sql_spill_part(hash_keys(j, k, j->s.n_keys), parts->level);
        int rc = sql_spill_put(parts->part[part],
                               rs == &j->rows ? wide_row(j, rs->rows[r]) : rs->rows[r], err);
        if (rc)
            return rc;
    }
    sql_rows_clear(rs);
    return COMB_OK;
}

/* The rest of the probe side to its partitions. */
static int split_probe(JoinOp *j, SqlSpillParts *parts, CombErr *err)
{
    int np = j->probe->n_cols, nk = j->s.n_keys, rc;
    CombVector **cols = j->pcols;
    sql_rows_free(&j->prows);
    if (sql_rows_init_types(&j->prows, np + nk, j->ptypes))
        return comb_err_nomem(err);
    sql_rows_track(&j->prows, j->op.c->mem);
    for (;;) {
        const CombBatch *b;
        if ((rc = sql_op_next(j->probe, &b, err)) || !b)
            return rc;
        for (int c = 0; c < np; c++)
            cols[c] = j->pused[c] ? &((CombBatch *)b)->cols[c] : NULL;
        for (int k = 0; k < nk; k++) {
            if ((rc = sql_expr_eval(j->pkeys[k], b, err)))
                return rc;
            cols[np + k] = j->pkeys[k]->out;
        }
        if ((rc = sql_rows_append(&j->prows, cols, b, err)) ||
            (rc = rows_to_parts(j, &j->prows, np, parts, err)))
            return rc;
    }
}

/* The pairs of partitions wait their turn (empty pairs are dropped). */
static int push_pairs(JoinOp *j, SqlSpillParts *bp, SqlSpillParts *pp,
                      CombErr *err)
{
    int n = j->n_pend + SQL_SPILL_FANOUT;
    SqlSpill **b = comb_realloc(j->pend_b, (size_t)n * sizeof *b);
    SqlSpill **p = b ? comb_realloc(j->pend_p, (size_t)n * sizeof *p) : NULL;
    int *lv = p ? comb_realloc(j->pend_level, (size_t)n * sizeof *lv) : NULL;
    if (b)
        j->pend_b = b;
    if (p)
        j->pend_p = p;
    if (lv)
        j->pend_level = lv;
    if (!lv)
        return comb_err_nomem(err);
    for (int i = 0; i < SQL_SPILL_FANOUT; i++) {
        if (sql_spill_rows(bp->part[i]) || sql_spill_rows(pp->part[i])) {
            j->pend_b[j->n_pend] = bp->part[i];
            j->pend_p[j->n_pend] = pp->part[i];
            j->pend_level[j->n_pend++] = bp->level + 1;
        } else {
            sql_spill_free(bp->part[i]);
            sql_spill_free(pp->part[i]);
        }
        bp->part[i] = pp->part[i] = NULL;
    }
    return COMB_OK;
}

/* The build side outgrew the limit: the rows held, the rest of the build
 * side and the whole probe side to partition files. */
static int grace_split(JoinOp *j, CombErr *err)
{
    SqlStmtCtx *c = j->op.c;
    SqlSpillParts bp, pp;
    int rc;
    if ((rc = sql_spill_parts_create(c, j->n_bcols, j->build->types, j->level, &bp, err)))
        return rc;
    if ((rc = sql_spill_parts_create(c, j->probe->n_cols, j->probe->types, j->level, &pp, err))) {
        sql_spill_parts_free(&bp);
        return rc;
    }
    rc = rows_to_parts(j, &j->rows, j->n_bstore, &bp, err);
    while (!rc) {
        const CombBatch *b;
        if ((rc = sql_op_next(j->build, &b, err)) || !b)
            break;
        if (!(rc = append_build(j, b, err)))
            rc = rows_to_parts(j, &j->rows, j->n_bstore, &bp, err);
    }
    if (!rc)
        rc = split_probe(j, &pp, err);
    if (!rc)
        rc = push_pairs(j, &bp, &pp, err);
    sql_spill_parts_free(&bp);
    sql_spill_parts_free(&pp);
    return rc;
}

/* Close the spill scans of the pair just joined (not the inputs). */
static void close_pair(JoinOp *j)
{
    if (j->build != j->in_build) {
        sql_op_close(j->build);
        sql_op_close(j->probe);
    }
    j->build = j->in_build;
    j->probe = j->in_probe;
}

/* The next pair of partitions as the inputs, the join's state afresh. */
static int grace_next(JoinOp *j, CombErr *err)
{
    SqlStmtCtx *c = j->op.c;
    SqlSpill *b = j->pend_b[--j->n_pend], *p = j->pend_p[j->n_pend];
    int rc;
    close_pair(j);
    j->level = j->pend_level[j->n_pend];
    if ((!j->bscan && (rc = sql_op_spill_scan(c, j->n_bcols, j->in_build->names,
                                              j->in_build->types, &j->bscan, err))) ||
        (!j->pscan && (rc = sql_op_spill_scan(c, j->in_probe->n_cols, j->in_probe->names,
                                              j->in_probe->types, &j->pscan, err)))) {
        sql_spill_free(b);
        sql_spill_free(p);
        return rc;
    }
    sql_spill_scan_set(j->bscan, b);
    sql_spill_scan_set(j->pscan, p);
    j->build = j->bscan;
    j->probe = j->pscan;
    if ((rc = sql_op_open(j->build, err)) || (rc = sql_op_open(j->probe, err)))
        return rc;
    sql_rows_clear(&j->rows);
    j->heads = j->chain = j->heads2 = j->chain2 = NULL;
    j->any_row = j->any_null = false;
    j->phase = PH_PAIRS;
    j->pb = NULL;
    j->bnext = 0;
    return COMB_OK;
}

/* The build side in memory: when it outgrows the limit, partitions
 * until one fits. */
static int load_build(JoinOp *j, CombErr *err)
{
    int rc;
    j->overflow = false;
    while (!(rc = read_build(j, err)) && j->overflow) {
        j->overflow = false;
        if ((rc = grace_split(j, err)) || (rc = grace_next(j, err)))
            return rc;
    }
    return rc;
}

static void grace_free(JoinOp *j)
{
    close_pair(j);
    sql_op_close(j->bscan);
    sql_op_close(j->pscan);
    for (int i = 0; i < j->n_pend; i++) {
        sql_spill_free(j->pend_b[i]);
        sql_spill_free(j->pend_p[i]);
    }
    comb_free(j->pend_b);
    comb_free(j->pend_p);
    comb_free(j->pend_level);
    j->pend_b = j->pend_p = NULL;
    j->pend_level = NULL;
    j->n_pend = 0;
    j->level = 0;
    sql_rows_free(&j->prows);
}

/* ------------------------------------------------------ parallel build */

/* A new run when batch rows come from another morsel than the last. */
static int note_run(BuildPart *p, CombErr *err)
{
    int64_t m = p->walk->last;
    if (p->n_runs && p->runs[p->n_runs - 1].morsel == m)
        return COMB_OK;
    if (p->n_runs == p->cap_runs) {
        int cap = p->cap_runs ? 2 * p->cap_runs : 16;
        BuildRun *r = comb_realloc(p->runs, (size_t)cap * sizeof *r);
        if (!r)
            return comb_err_nomem(err);
        p->runs = r;
        p->cap_runs = cap;
    }
    p->runs[p->n_runs++] = (BuildRun){m, p->rows.n_rows};
    return COMB_OK;
}

/* A part's task: the rows of its morsels into its store, until its
 * input ends, a copy fails, or the statement is over its memory limit
 * (then the build runs again on one thread, which can spill). */
static int store_part(void *arg, CombErr *err)
{
    BuildPart *p = arg;
    JoinOp *j = p->j;
    while (!atomic_load(&j->par.stop)) {
        const CombBatch *b;
        int rc = sql_op_next(p->input, &b, err);
        if (rc || !b)
            return rc;
        if ((rc = note_run(p, err)) ||
            (rc = append_rows(j, p->keys, p->cols, &p->rows, b, err)))
            return rc;
        if (p->rows.over) {
            sql_par_group_over(&j->par);
            break;
        }
    }
    return COMB_OK;
}

typedef struct RunAt {
    int64_t morsel, first, end;
    const BuildPart *p;
} RunAt;

static int run_cmp(const void *x, const void *y)
{
    const RunAt *a = x, *b = y;
    return (a->morsel > b->morsel) - (a->morsel < b->morsel);
}

/* The parts' runs of rows as the table's, by morsel: the order one
 * thread reads them in, so that every chain lists its rows as the serial
 * engine's does.  The rows stay in the parts' stores (their row arrays
 * go). */
static int merge_parts(JoinOp *j, CombErr *err)
{
    int n_runs = 0;
    int64_t total = 0, o = 0;
    RunAt *at;
    SqlDatum **rows;
    for (int k = 0; k <= j->par.n; k++) {
        n_runs += j->parts[k].n_runs;
        total += j->parts[k].rows.n_rows;
    }
    at = comb_malloc((size_t)(n_runs + 1) * sizeof *at);
    rows = at ? comb_malloc((size_t)(total + 1) * sizeof *rows) : NULL;
    if (!rows) {
        comb_free(at);
        return comb_err_nomem(err);
    }
    n_runs = 0;
    for (int k = 0; k <= j->par.n; k++) {
        const BuildPart *p = &j->parts[k];
        for (int r = 0; r < p->n_runs; r++)
            at[n_runs++] = (RunAt){p->runs[r].morsel, p->runs[r].first,
                                   r + 1 < p->n_runs ? p->runs[r + 1].first
                                                     : p->rows.n_rows, p};
    }
    qsort(at, (size_t)n_runs, sizeof *at, run_cmp);
    for (int r = 0; r < n_runs; r++)
        for (int64_t i = at[r].first; i < at[r].end; i++)
            rows[o++] = at[r].p->rows.rows[i];
    comb_free(at);
    comb_free(j->rows.rows);
    j->rows.rows = rows;
    j->rows.n_rows = j->rows.cap = total;
    sql_rows_track(&j->rows, j->rows.mem.acct);
    for (int k = 0; k <= j->par.n; k++) {
        SqlRowStore *rs = &j->parts[k].rows;
        comb_free(rs->rows);
        rs->rows = NULL;
        rs->n_rows = rs->cap = 0;
        sql_rows_track(rs, rs->mem.acct);
    }
    return COMB_OK;
}

/* At open, after the build side's: the parts' stores, the copies opened
 * sharing its morsels, their keys prepared (in their own arenas: a
 * copy's expressions run on its thread). */
static int open_parts(JoinOp *j, CombErr *err)
{
    SqlStmtCtx *c = j->op.c;
    int nk = j->s.n_keys, rc;
    for (int k = 0; k <= j->par.n; k++) {
        BuildPart *p = &j->parts[k];
        if (sql_rows_init_types(&p->rows, j->n_bstore + nk, j->stypes))
            return comb_err_nomem(err);
        sql_rows_track(&p->rows, c->mem);
        p->n_runs = 0;
    }
    if ((rc = sql_par_chains_open(&j->par, j->build, err)))
        return rc;
    for (int k = 0; k <= j->par.n; k++) {
        BuildPart *p = &j->parts[k];
        p->walk = sql_op_par_walk(p->input);
        for (int i = 0; k && i < nk; i++)
            if ((rc = sql_expr_prepare(p->keys[i], p->input->c->arena, COMB_BATCH_SIZE, err)))
                return rc;
    }
    return COMB_OK;
}

/* The copies' keys released (while their arenas live) and the copies
 * closed; once per open. */
static void close_copies(JoinOp *j)
{
    for (int k = 1; j->par.live && k <= j->par.n; k++)
        for (int i = 0; i < j->s.n_keys; i++)
            sql_expr_release(j->parts[k].keys[i]);
    j->copies_ended |= j->par.live || j->mpar.live;
    sql_par_group_close(&j->par, j->op.c);
    sql_par_group_close(&j->mpar, j->op.c);
}

static bool par_build(const JoinOp *j)
{
    return j->par.n && !j->copies_ended;
}

/* Do the join's copies mark the build rows (not after a spill: the
 * probe side is then partition files)? */
static bool par_marks(const JoinOp *j)
{
    return j->mpar.n && !j->copies_ended && j->probe == j->in_probe;
}

/* The parts' rows dropped (keep: their stores' columns kept, to store
 * again). */
static void parts_free(JoinOp *j, bool keep)
{
    for (int k = 0; j->parts && k <= j->par.n; k++) {
        BuildPart *p = &j->parts[k];
        if (keep)
            sql_rows_clear(&p->rows);
        else {
            sql_rows_free(&p->rows);
            memset(&p->rows, 0, sizeof p->rows);
            comb_free(p->runs);
            p->runs = NULL;
            p->cap_runs = 0;
        }
        p->n_runs = 0;
    }
}

/* The build side stored by its copies side by side, then ordered; over
 * the memory limit, read again on this thread (load_build, which
 * spills). */
static int par_load(JoinOp *j, CombErr *err)
{
    void **args = comb_malloc((size_t)(j->par.n + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    for (int k = 0; k <= j->par.n; k++)
        args[k] = &j->parts[k];
    rc = sql_par_chains_run(&j->par, j->build, store_part, args, err);
    comb_free(args);
    if (rc)
        return rc;
    if (!atomic_load(&j->par.over))
        return merge_parts(j, err);
    parts_free(j, true);
    close_copies(j);
    if ((rc = sql_par_chains_serial(&j->par, j->build, err)))
        return rc;
    return load_build(j, err);
}

/* SINGLE's default row: the first row of single_default, if any. */
static int read_default(JoinOp *j, CombErr *err)
{
    SqlOp *d = j->s.single_default;
    const CombBatch *b;
    CombVector **cols;
    int rc;
    if (!d)
        return COMB_OK;
    if (sql_rows_init_types(&j->defrow, d->n_cols, d->types) ||
        !(cols = comb_arena_alloc(j->op.c->arena, (size_t)(d->n_cols + 1) * sizeof *cols)))
        return comb_err_nomem(err);
    if ((rc = sql_op_next(d, &b, err)) || !b)
        return rc;
    for (int c = 0; c < d->n_cols; c++)
        cols[c] = &((CombBatch *)b)->cols[c];
    return sql_rows_append(&j->defrow, cols, b, err);
}

static int join_build(JoinOp *j, CombErr *err)
{
    int rc;
    if ((rc = par_build(j) ? par_load(j, err) : load_build(j, err)) ||
        (rc = build_chains(j, err)) || (rc = read_default(j, err)))
        return rc;
    j->built = true;
    return COMB_OK;
}

/* A copy's view of its lead's build table: the same rows and chains, a
 * match record of its own (what the lead's probe writes, not the
 * copy's). */
static int borrow_build(JoinOp *j, CombErr *err)
{
    const JoinOp *l = j->lead;
    if (!l->built)
        return COMB_INTERNAL(err, "a parallel join copy ran before its build");
    j->rows = l->rows;
    j->n_bstore = l->n_bstore;
    j->bslot = l->bslot;
    j->heads = l->heads;
    j->chain = l->chain;
    j->bloom = l->bloom;
    j->bloom_shift = l->bloom_shift;
    j->heads2 = l->heads2;
    j->chain2 = l->chain2;
    j->mask = l->mask;
    j->any_row = l->any_row;
    j->any_null = l->any_null;
    j->defrow = l->defrow;
    if (!(j->bmatched = comb_arena_calloc(j->op.c->arena, (size_t)j->rows.n_rows + 1)))
        return comb_err_nomem(err);
    j->built = true;
    return COMB_OK;
}

/* SEMI, ANTI building left: the probe side's rows mark the build rows
 * they match (past the residual), until it ends or `stop`; nothing is
 * output meanwhile (join_next's pairs and probe rest for this kind). */
static int mark_build(JoinOp *j, _Atomic bool *stop, CombErr *err)
{
    for (;;) {
        int rc;
        if (!j->pb) {
            if (atomic_load(stop) || (rc = sql_op_next(j->probe, &j->pb, err)) || !j->pb)
                return atomic_load(stop) ? COMB_OK : rc;
            if ((rc = start_probe_batch(j, err)))
                return rc;
        }
        if ((rc = fill_pairs(j, err)) || (rc = record_pairs(j, err)))
            return rc;
        if (j->pi >= j->live)
            j->pb = NULL;
    }
}

/* A copy's task (the lead's too): its morsels' marks. */
static int mark_task(void *arg, CombErr *err)
{
    JoinOp *j = arg;
    JoinOp *lead = j->lead ? (JoinOp *)j->lead : j;
    int rc = j->built ? COMB_OK : borrow_build(j, err);
    return rc ? rc : mark_build(j, &lead->mpar.stop, err);
}

/* The probe side read by the join and its copies side by side, their
 * marks joined into this one's; then the build rest.  When a join down
 * the probe side spilled first, this one reads the probe side alone. */
static int par_mark(JoinOp *j, CombErr *err)
{
    void **args = comb_malloc((size_t)(j->mpar.n + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    args[0] = j;
    for (int k = 0; k < j->mpar.n; k++)
        args[k + 1] = j->mpar.peers[k];
    rc = sql_par_chains_run(&j->mpar, j->in_probe, mark_task, args, err);
    comb_free(args);
    if (rc)
        return rc;
    if (atomic_load(&j->mpar.over)) {
        close_copies(j);
        return sql_par_chains_serial(&j->mpar, j->in_probe, err);
    }
    for (int k = 0; k < j->mpar.n; k++) {
        const JoinOp *p = (const JoinOp *)j->mpar.peers[k];
        for (int64_t r = 0; p->built && r < j->rows.n_rows; r++)
            j->bmatched[r] |= p->bmatched[r];
    }
    j->pb = NULL;
    j->phase = PH_BUILD_REST;
    return COMB_OK;
}

/* The build rest as output: SEMI and ANTI show the left (build)
 * columns alone, the first of the pair's. */
static const CombBatch *rest_view(JoinOp *j)
{
    if (!j->marks_build)
        return &j->out;
    j->view = j->out;
    j->view.n_cols = j->n_left;
    return &j->view;
}

static int join_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    JoinOp *j = (JoinOp *)op;
    int rc;
    if (!j->built && (rc = j->lead ? borrow_build(j, err) : join_build(j, err)))
        return rc;
    if (j->phase == PH_PAIRS && par_marks(j) && (rc = par_mark(j, err)))
        return rc;
    for (;;) {
        switch (j->phase) {
        case PH_PAIRS:
            if (!j->pb) {
                if ((rc = sql_op_next(j->probe, &j->pb, err)))
                    return rc;
                if (!j->pb) {
                    j->phase = j->outer_build ? PH_BUILD_REST : PH_DONE;
                    continue;
                }
                if ((rc = start_probe_batch(j, err)))
                    return rc;
            }
            if ((rc = fill_pairs(j, err)) || (rc = record_pairs(j, err)))
                return rc;
            if (j->pi >= j->live) {
                bool nulls = j->s.null_aware && j->s.residual;
                j->phase = nulls ? PH_NULL_PAIRS : PH_PROBE_REST;
                j->pi = 0;
                j->cand = -2;
            }
            if (!marks_only(j) && comb_batch_live(&j->out) > 0) {
                *out = &j->out;
                return COMB_OK;
            }
            continue;
        case PH_NULL_PAIRS:
            if ((rc = fill_null_pairs(j, err)) || (rc = record_null_pairs(j, err)))
                return rc;
            if (j->pi >= j->live)
                j->phase = PH_PROBE_REST;
            continue;
        case PH_PROBE_REST:
            if (marks_only(j) && !j->marks_build) {
                if ((rc = finish_marks(j, out, err)) || *out)
                    return rc;
                continue;
            }
            j->phase = PH_PAIRS;
            if (j->outer_probe && (rc = probe_rest(j, err)))
                return rc;
            j->pb = NULL;
            if (j->outer_probe && j->out.n_rows > 0) {
                *out = &j->out;
                return COMB_OK;
            }
            continue;
        case PH_BUILD_REST:
            if ((rc = build_rest(j, err)))
                return rc;
            if (j->out.n_rows > 0) {
                *out = rest_view(j);
                return COMB_OK;
            }
            j->phase = PH_DONE;
            continue;
        default:
            if (!j->n_pend)
                return COMB_OK;
            if ((rc = grace_next(j, err)) || (rc = load_build(j, err)) ||
                (rc = build_chains(j, err)))
                return rc;
            continue;
        }
    }
}

/* -------------------------------------------------------------- contract */

static int join_open(SqlOp *op, CombErr *err)
{
    JoinOp *j = (JoinOp *)op;
    SqlStmtCtx *c = op->c;
    CombTypeKind boolean = COMB_T_BOOLEAN;
    int nk = j->s.n_keys, rc;
    comb_arena_init(&j->scratch, 64 * 1024);
    if ((rc = sql_op_open(j->probe, err)) ||
        (!j->lead && (rc = sql_op_open(j->build, err))) ||
        (!j->lead && j->s.single_default && (rc = sql_op_open(j->s.single_default, err))))
        return rc;
    for (int k = 0; k < nk; k++)
        if ((rc = sql_expr_prepare(j->pkeys[k], c->arena, COMB_BATCH_SIZE, err)) ||
            (rc = sql_expr_prepare(j->bkeys[k], c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    if (j->s.residual &&
        (rc = sql_expr_prepare(j->s.residual, c->arena, COMB_BATCH_SIZE, err)))
        return rc;
    if (!j->lead)
        store_layout(j);
    for (int k = 0; k < j->n_left + j->n_right; k++) {
        bool probe = (k >= j->poff && k < j->poff + j->probe->n_cols);
        bool used = probe ? j->pused[k - j->poff] : j->bused[k - j->boff];
        j->dead[k] = !used && comb_type_is_primitive(j->pair_types[k]->kind);
    }
    if ((!j->lead && sql_rows_init_types(&j->rows, j->n_bstore + nk, j->stypes)) ||
        sql_rows_init_types(&j->out_rs, j->n_left + j->n_right, j->pair_types) ||
        sql_rows_batch_init(&j->out_rs, j->n_left + j->n_right, &j->out, &j->fills) ||
        comb_batch_init(&j->markb, 1, &boolean, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    if (!j->lead)
        sql_rows_track(&j->rows, c->mem);
    if (!j->lead && par_build(j) && (rc = open_parts(j, err)))
        return rc;
    if (!j->lead && par_marks(j) && (rc = sql_par_chains_open(&j->mpar, j->probe, err)))
        return rc;
    j->phase = PH_PAIRS;
    j->pb = NULL;
    j->built = false;
    j->bnext = 0;
    return COMB_OK;
}

static void join_close(SqlOp *op)
{
    JoinOp *j = (JoinOp *)op;
    for (int k = 0; k < j->s.n_keys; k++) {
        sql_expr_release(j->pkeys[k]);
        sql_expr_release(j->bkeys[k]);
    }
    sql_expr_release(j->s.residual);
    if (j->out.cols)
        comb_batch_free(&j->out);
    if (j->markb.cols)
        comb_batch_free(&j->markb);
    memset(&j->out, 0, sizeof j->out);
    memset(&j->markb, 0, sizeof j->markb);
    if (!j->lead) {
        sql_rows_free(&j->rows);
        sql_rows_free(&j->defrow);
    }
    memset(&j->defrow, 0, sizeof j->defrow);
    sql_rows_free(&j->out_rs);
    memset(&j->rows, 0, sizeof j->rows);
    memset(&j->out_rs, 0, sizeof j->out_rs);
    comb_arena_free(&j->scratch);
    grace_free(j);
    /* the copies before the build side: their joins probe its tables */
    close_copies(j);
    parts_free(j, false);
    sql_op_close(j->probe);
    sql_op_close(j->build);
    sql_op_close(j->s.single_default);
}

/* The columns a pair carries: the residual's alone when the output is
 * the probe batch or the build rest (SEMI, ANTI, MARK), else every
 * column read. */
static void pair_fills(JoinOp *j)
{
    int n_pair = j->n_left + j->n_right;
    bool *res = marks_only(j) ? comb_arena_calloc(j->op.c->arena, (size_t)n_pair + 1) : NULL;
    j->pfill = j->pused;
    j->bfill = j->bused;
    if (!res)
        return;   /* out of memory too: every column, as before */
    sql_bx_mark_used(j->s.residual, n_pair, res);
    j->pfill = res + j->poff;
    j->bfill = res + j->boff;
}

/* The build side and its copies read the same columns. */
static void need_build(JoinOp *j, const bool *used)
{
    sql_op_need(j->build, used);
    for (int k = 0; k < j->par.n; k++)
        sql_op_need(j->par.peers[k], used);
}

/* What each input must give: the output columns read, the keys', the
 * residual's. */
static void join_need(SqlOp *op, const bool *used)
{
    JoinOp *j = (JoinOp *)op;
    int n_pair = j->n_left + j->n_right;
    bool *pair = comb_arena_calloc(op->c->arena, (size_t)n_pair + 1);
    bool *l, *r;
    if (!pair) {
        sql_op_need(j->probe, NULL);
        need_build(j, NULL);
        memset(j->pused, 1, (size_t)j->probe->n_cols);
        memset(j->bused, 1, (size_t)j->n_bcols);
        return;
    }
    for (int c = 0; c < op->n_cols; c++)
        if ((!used || used[c]) && (c < j->n_left || !marks_only(j)))
            pair[c] = true;
    sql_bx_mark_used(j->s.residual, n_pair, pair);
    l = j->probe_left ? j->pused : j->bused;
    r = j->probe_left ? j->bused : j->pused;
    memcpy(l, pair, (size_t)j->n_left);
    memcpy(r, pair + j->n_left, (size_t)j->n_right);
    for (int k = 0; k < j->s.n_keys; k++) {
        sql_bx_mark_used(j->pkeys[k], j->probe->n_cols, j->pused);
        sql_bx_mark_used(j->bkeys[k], j->n_bcols, j->bused);
    }
    sql_op_need(j->probe, j->pused);
    need_build(j, j->bused);
    pair_fills(j);
    for (int k = 0; k < j->mpar.n; k++)
        sql_op_need(j->mpar.peers[k], used);
    if (j->s.single_default)
        sql_op_need(j->s.single_default, NULL);
}

static const char *join_kind_text(LpJoinKind k)
{
    static const char *const words[] = {
        "inner", "left outer", "right outer", "full outer", "left semi",
        "anti", "mark", "single",
    };
    return words[k];
}

static int join_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const JoinOp *j = (const JoinOp *)op;
    const char **names = comb_arena_alloc(op->c->arena, (size_t)(j->n_left + j->n_right + 1) * sizeof *names);
    const SqlOp *l = j->probe_left ? j->probe : j->build;
    const SqlOp *r = j->probe_left ? j->build : j->probe;
    int rc;
    if (!names)
        return comb_err_nomem(err);
    memcpy(names, l->names, (size_t)j->n_left * sizeof *names);
    memcpy(names + j->n_left, r->names, (size_t)j->n_right * sizeof *names);
    rc = sql_explain_detail(x, "%s", join_kind_text(j->s.kind));
    for (int k = 0; k < j->s.n_keys && !rc; k++) {
        const char *lt = sql_explain_expr(op->c, j->probe_left ? j->pkeys[k] : j->bkeys[k],
                                          (const char *const *)l->names);
        const char *rt = sql_explain_expr(op->c, j->probe_left ? j->bkeys[k] : j->pkeys[k],
                                          (const char *const *)r->names);
        if (!lt || !rt)
            return comb_err_nomem(err);
        rc = sql_explain_prop(x, "key: %s %s %s", lt, j->s.null_safe[k] ? "<=>" : "=", rt);
    }
    if (!rc && j->s.residual) {
        const char *t = sql_explain_expr(op->c, j->s.residual, names);
        rc = t ? sql_explain_prop(x, "filter: %s", t) : COMB_ENOMEM;
    }
    if (!rc && j->s.null_aware)
        rc = sql_explain_prop(x, "null-aware: the last key is IN's");
    if (!rc)
        rc = sql_explain_prop(x, "build: %s", j->probe_left ? "right" : "left");
    return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
}

static const SqlOpVt hash_join_vt = {
    "HashJoin", join_open, join_next, join_close, join_need, NULL, join_explain,
};

static const SqlOpVt loop_join_vt = {
    "NestedLoopJoin", join_open, join_next, join_close, join_need, NULL,
    join_explain,
};

/* The output schema: left ++ right, left alone, or left and the mark. */
static int join_schema(SqlStmtCtx *c, JoinOp *j, SqlOp *left, SqlOp *right,
                       CombErr *err)
{
    static const CombType boolean = {.kind = COMB_T_BOOLEAN};
    int n_pair = left->n_cols + right->n_cols;
    int n = marks_only(j) ? left->n_cols + (j->s.kind == LP_JOIN_MARK) : n_pair;
    j->op.names = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *j->op.names);
    j->op.types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *j->op.types);
    j->pair_types = comb_arena_alloc(c->arena, (size_t)(n_pair + 1) * sizeof *j->pair_types);
    if (!j->op.names || !j->op.types || !j->pair_types)
        return comb_err_nomem(err);
    memcpy(j->pair_types, left->types, (size_t)left->n_cols * sizeof *j->pair_types);
    memcpy(j->pair_types + left->n_cols, right->types, (size_t)right->n_cols * sizeof *j->pair_types);
    for (int c2 = 0; c2 < n; c2++) {
        bool is_left = c2 < left->n_cols;
        j->op.names[c2] = is_left ? left->names[c2]
                          : marks_only(j) ? "mark" : right->names[c2 - left->n_cols];
        j->op.types[c2] = is_left ? left->types[c2]
                          : marks_only(j) ? &boolean : right->types[c2 - left->n_cols];
    }
    j->op.n_cols = n;
    return COMB_OK;
}

int sql_op_join(SqlStmtCtx *c, SqlOp *left, SqlOp *right,
                const SqlJoinSpec *spec, SqlOp **out, CombErr *err)
{
    JoinOp *j = sql_op_alloc(c, sizeof *j, spec->n_keys ? &hash_join_vt : &loop_join_vt,
                             left);
    int nk = spec->n_keys, rc;
    if (!j)
        return comb_err_nomem(err);
    j->s = *spec;
    j->n_left = left->n_cols;
    j->n_right = right->n_cols;
    j->probe_left = !spec->build_left;
    j->probe = j->probe_left ? left : right;
    j->build = j->probe_left ? right : left;
    j->n_bcols = j->build->n_cols;
    j->poff = j->probe_left ? 0 : j->n_left;
    j->boff = j->probe_left ? j->n_left : 0;
    /* the preserved side's unmatched rows: per probe batch when it is the
     * probe side, at the end (as FULL's build rows) when it is built */
    j->outer_probe = spec->kind == LP_JOIN_FULL || spec->kind == LP_JOIN_SINGLE ||
                     (spec->kind == LP_JOIN_LEFT && j->probe_left) ||
                     (spec->kind == LP_JOIN_RIGHT && !j->probe_left);
    j->marks_build = !j->probe_left &&
                     (spec->kind == LP_JOIN_SEMI || spec->kind == LP_JOIN_ANTI);
    j->outer_build = spec->kind == LP_JOIN_FULL || j->marks_build ||
                     (spec->kind == LP_JOIN_LEFT && !j->probe_left) ||
                     (spec->kind == LP_JOIN_RIGHT && j->probe_left);
    if (!j->probe_left && (spec->kind == LP_JOIN_MARK || spec->kind == LP_JOIN_SINGLE ||
                           spec->null_aware))
        return COMB_INTERNAL(err, "a MARK, SINGLE or null-aware join builds its right side");
    j->pkeys = j->probe_left ? spec->lkeys : spec->rkeys;
    j->bkeys = j->probe_left ? spec->rkeys : spec->lkeys;
    if ((rc = join_schema(c, j, left, right, err)))
        return rc;
    if (!(j->ktypes = comb_arena_alloc(c->arena, (size_t)(nk + 1) * sizeof *j->ktypes)) ||
        !(j->stypes = comb_arena_alloc(c->arena, (size_t)(j->n_bcols + nk + 1) * sizeof *j->stypes)) ||
        !(j->pkey = comb_arena_calloc(c->arena, (size_t)(nk + 1) * sizeof *j->pkey)) ||
        !(j->pmark = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->pmark)) ||
        !(j->pcount = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->pcount)) ||
        !(j->pentry = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->pentry)) ||
        !(j->pg = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->pg)) ||
        !(j->out_probe = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->out_probe)) ||
        !(j->out_build = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->out_build)) ||
        !(j->sel = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *j->sel)) ||
        !(j->vcols = comb_arena_alloc(c->arena, (size_t)(j->n_left + 2) * sizeof *j->vcols)) ||
        !(j->pused = comb_arena_alloc(c->arena, (size_t)j->probe->n_cols + 1)) ||
        !(j->bused = comb_arena_alloc(c->arena, (size_t)j->n_bcols + 1)) ||
        !(j->bcols = comb_arena_alloc(c->arena, (size_t)(j->n_bcols + nk + 1) * sizeof *j->bcols)) ||
        !(j->bslot = comb_arena_alloc(c->arena, (size_t)(j->n_bcols + 1) * sizeof *j->bslot)) ||
        !(j->wide = comb_arena_alloc(c->arena, (size_t)(j->n_bcols + 1) * sizeof *j->wide)) ||
        !(j->dead = comb_arena_calloc(c->arena, (size_t)(j->n_left + j->n_right + 1))) ||
        !(j->pcols = comb_arena_alloc(c->arena, (size_t)(j->probe->n_cols + nk + 1) * sizeof *j->pcols)) ||
        !(j->ptypes = comb_arena_alloc(c->arena, (size_t)(j->probe->n_cols + nk + 1) * sizeof *j->ptypes)))
        return comb_err_nomem(err);
    j->in_probe = j->probe;
    j->in_build = j->build;
    memcpy(j->ptypes, j->probe->types, (size_t)j->probe->n_cols * sizeof *j->ptypes);
    memset(j->pused, 1, (size_t)j->probe->n_cols + 1);
    memset(j->bused, 1, (size_t)j->n_bcols + 1);
    j->pfill = j->pused;
    j->bfill = j->bused;
    for (int k = 0; k < nk; k++) {
        if (!(j->ktypes[k] = sql_bx_type(c, spec->lkeys[k])))
            return comb_err_nomem(err);
        j->ptypes[j->probe->n_cols + k] = j->ktypes[k];
    }
    store_layout(j);
    /* EXPLAIN shows the left input, then the right one */
    j->op.input = left;
    j->op.right = right;
    *out = &j->op;
    return COMB_OK;
}

/* ------------------------------------------------------ parallel copies */

static bool is_join(const SqlOp *op)
{
    return op->vt == &hash_join_vt || op->vt == &loop_join_vt;
}

SqlOp *sql_op_join_probe(const SqlOp *op)
{
    /* the input, also while a spilled join reads partitions instead */
    return is_join(op) ? ((const JoinOp *)op)->in_probe : NULL;
}

/* Unmatched build rows (FULL, an outer join building its preserved
 * side) would need the copies' match records merged after every copy's
 * last probe; every other join's output depends on the probe row alone. */
bool sql_op_join_par_safe(const SqlOp *op)
{
    const JoinOp *j = (const JoinOp *)op;
    if (j->outer_build || !sql_bx_par_safe(j->s.residual))
        return false;
    for (int k = 0; k < j->s.n_keys; k++)
        if (!sql_bx_par_safe(j->pkeys[k]))
            return false;
    return true;
}

int sql_op_join_prebuild(SqlOp *op, bool *spilled, CombErr *err)
{
    JoinOp *j = (JoinOp *)op;
    int rc = j->built ? COMB_OK : join_build(j, err);
    /* over the memory limit it joins partition pairs: no table to share */
    *spilled = j->probe != j->in_probe;
    return rc;
}

void sql_op_join_share(SqlOp *copy, const SqlOp *lead)
{
    ((JoinOp *)copy)->lead = (const JoinOp *)lead;
}

SqlOp *sql_op_join_build_input(const SqlOp *op)
{
    const JoinOp *j = (const JoinOp *)op;
    for (int k = 0; k < j->s.n_keys; k++)
        if (!sql_bx_par_safe(j->bkeys[k]))
            return NULL;
    return j->build;
}

int sql_op_join_build_peers(SqlOp *op, SqlOp **copies, int n, CombErr *err)
{
    JoinOp *j = (JoinOp *)op;
    SqlStmtCtx *c = op->c;
    int nk = j->s.n_keys;
    if (!(j->parts = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *j->parts)))
        return comb_err_nomem(err);
    for (int k = 0; k <= n; k++) {
        BuildPart *p = &j->parts[k];
        p->j = j;
        p->input = k ? copies[k - 1] : j->build;
        p->keys = k ? comb_arena_alloc(c->arena, (size_t)(nk + 1) * sizeof *p->keys) : j->bkeys;
        p->cols = k ? comb_arena_alloc(c->arena, (size_t)(j->n_bcols + nk + 1) * sizeof *p->cols)
                    : j->bcols;
        if (!p->keys || !p->cols)
            return comb_err_nomem(err);
        for (int i = 0; k && i < nk; i++)
            if (!(p->keys[i] = sql_bx_clone(c, j->bkeys[i], NULL)))
                return comb_err_nomem(err);
    }
    return sql_par_chains_init(&j->par, c, copies, n, err);
}

SqlOp *sql_op_join_mark_input(const SqlOp *op)
{
    const JoinOp *j = (const JoinOp *)op;
    if (!j->marks_build || !sql_bx_par_safe(j->s.residual))
        return NULL;
    for (int k = 0; k < j->s.n_keys; k++)
        if (!sql_bx_par_safe(j->pkeys[k]))
            return NULL;
    return j->probe;
}

int sql_op_join_mark_peers(SqlOp *op, SqlOp **copies, int n, CombErr *err)
{
    for (int k = 0; k < n; k++)
        ((JoinOp *)copies[k])->lead = (const JoinOp *)op;
    return sql_par_group_init(&((JoinOp *)op)->mpar, op->c, copies, n, err);
}
