/*
 * op_window.c - the window operator: every input row is copied into a row
 * store together with the values of the window's expressions (partition
 * keys, order keys, the calls' arguments), the store is sorted by
 * (partition keys, order keys) as the sort operator sorts (rowstore.c),
 * then each partition is computed call by call and the rows leave in that
 * order: the input's columns, then one column per call.
 *
 * Store layout per row, fixed at open once the consumer has said what it
 * reads: the input columns that the consumer or the window reads, the
 * calls' results (from res_base), then the values of the window's
 * expressions that are not plain input columns (partition and order keys,
 * arguments).  An input column the consumer does not read leaves as NULL.
 *
 * Per partition (rows [p0, p1) of the sorted store):
 *  - ranking functions, NTILE, LAG and LEAD in one pass over the rows and
 *    their peer groups (rows equal on every ORDER BY key);
 *  - FIRST_VALUE / LAST_VALUE read the frame's first / last row (with
 *    IGNORE NULLS the nearest non-NULL one, from per-partition indexes);
 *  - aggregates: a frame that starts at the partition's start only grows,
 *    so one state takes rows as the frame's end advances and its final
 *    value is read per distinct end; any other frame is answered from a
 *    segment tree of merged states (agg.h's merge), O(log n) merges per
 *    row, so every frame kind costs O(n log n).
 * Frames: ROWS by position; RANGE by peer groups (CURRENT ROW) or by the
 * one ORDER BY key's value plus or minus n (binary search over the
 * partition's non-NULL keys; a row whose key is NULL has its NULL peers as
 * such a frame).  States and indexes live in an arena reset per
 * partition; final values are copied into the store.
 *
 * Over the memory limit (spill.c) the store is sorted and written out as
 * a run; the merged runs are then read back a partition at a time.  A
 * single partition must fit in memory: one that does not is the memory
 * error.
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <string.h>

#include "sql/plan/window.h"

/* Per call: its expressions' slots and where they sit in the store, its
 * arguments' batch. */
typedef struct WinCallRt {
    int arg_slot, dflt_slot; /* LAG/LEAD/FIRST/LAST_VALUE argument, -1 */
    int *agg_slots;
    int arg_col;             /* store columns of the above */
    int dflt_col;
    int *agg_cols;           /* aggregate arguments */
    CombBatch argb;          /* aggregate arguments of up to a batch of rows */
    SqlVecFill *fills;
    const CombVector **argv;
    bool have_argb;
} WinCallRt;

typedef struct WinOp {
    SqlOp op;
    const LpWindow *w;
    int n_in;
    int n_slot;              /* the window's expressions, over the input:
                                partition keys, order keys, then each
                                call's arguments */
    BoundExpr **slots;
    int *slot_col;           /* each one's store column (at open) */
    int *in_col;             /* input column -> store column, -1 */
    int res_base;            /* store column of call 0's result */
    int n_eval;
    BoundExpr **evals;       /* slots that are no input column, stored
                                from eval_base */
    int eval_base;
    int n_store;
    const CombType **store_types;
    bool *kept;              /* input columns the consumer reads */
    CombVector **cols;       /* per store column, for appending */
    SqlSortKey *keys;        /* partition keys, then order keys */
    WinCallRt *rt;
    SqlRowStore rows;
    bool have_rows;
    bool computed;
    int64_t next_row;
    CombBatch batch;
    SqlVecFill *fills;
    CombArena part;          /* per partition: states, indexes */
    CombArena fill_arena;    /* the output batch's fill states */
    SqlRuns *runs;           /* spilled: the sorted runs; NULL */
    void **sts;              /* per row of an argument batch: its state */
    /* per partition (part arena) */
    int64_t *peer_start, *peer_end;
    int64_t nn0, nn1;        /* rows with a non-NULL first order key */
} WinOp;

/* ------------------------------------------------------------- datums */

static SqlDatum *cell(const WinOp *o, int64_t r, int col)
{
    return &o->rows.rows[r][col];
}

static void set_int(WinOp *o, int64_t r, int k, int64_t v)
{
    SqlDatum *d = cell(o, r, o->res_base + k);
    memset(d, 0, sizeof *d);
    d->i = v;
}

static void set_double(WinOp *o, int64_t r, int k, double v)
{
    SqlDatum *d = cell(o, r, o->res_base + k);
    memset(d, 0, sizeof *d);
    d->d = v;
}

/* ------------------------------------------------------- peers, keys */

static bool same_keys(const WinOp *o, int64_t a, int64_t b, int first, int n)
{
    for (int k = first; k < first + n; k++) {
        int col = o->keys[k].col;
        if (sql_datum_cmp(o->store_types[col], cell(o, a, col), cell(o, b, col)))
            return false;
    }
    return true;
}

static bool same_partition(const WinOp *o, int64_t a, int64_t b)
{
    return same_keys(o, a, b, 0, o->w->n_part);
}

static bool peers(const WinOp *o, int64_t a, int64_t b)
{
    return same_keys(o, a, b, o->w->n_part, o->w->n_order);
}

/* Peer groups of [p0, p1), and where the non-NULL first order keys are. */
static int partition_index(WinOp *o, int64_t p0, int64_t p1, CombErr *err)
{
    int64_t m = p1 - p0;
    o->peer_start = comb_arena_alloc(&o->part, (size_t)m * sizeof *o->peer_start);
    o->peer_end = comb_arena_alloc(&o->part, (size_t)m * sizeof *o->peer_end);
    if (!o->peer_start || !o->peer_end)
        return comb_err_nomem(err);
    for (int64_t i = p0; i < p1;) {
        int64_t j = i + 1;
        while (j < p1 && peers(o, i, j))
            j++;
        for (int64_t r = i; r < j; r++) {
            o->peer_start[r - p0] = i;
            o->peer_end[r - p0] = j;
        }
        i = j;
    }
    o->nn0 = p0;
    o->nn1 = p1;
    if (o->w->n_order) {
        int col = o->keys[o->w->n_part].col;
        while (o->nn0 < p1 && cell(o, o->nn0, col)->null)
            o->nn0++;
        while (o->nn1 > o->nn0 && cell(o, o->nn1 - 1, col)->null)
            o->nn1--;
    }
    return COMB_OK;
}

/* ---------------------------------------------------------------- frames */

static int sign128(__int128 v)
{
    return v < 0 ? -1 : v > 0;
}

static __int128 pow10_128(uint32_t n)
{
    __int128 p = 1;
    while (n--)
        p *= 10;
    return p;
}

/* sign(key - (cur + delta)) for a RANGE key of type t (numbers, days of a
 * DATE, seconds of a TIMESTAMP). */
static int range_cmp(const CombType *t, const SqlDatum *key,
                     const SqlDatum *cur, int64_t delta)
{
    switch (t->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE: {
        double v = cur->d + (double)delta;
        return key->d < v ? -1 : key->d > v;
    }
    case COMB_T_DECIMAL:
        if (t->scale + 10 > 38) {
            long double v = (long double)cur->dec +
                            (long double)delta * (long double)pow10_128(t->scale);
            return (long double)key->dec < v ? -1 : (long double)key->dec > v;
        }
        return sign128(key->dec - (cur->dec + (__int128)delta * pow10_128(t->scale)));
    case COMB_T_TIMESTAMP:
        return sign128(((__int128)key->i - cur->i - delta) * 1000000000 +
                       (key->nanos - cur->nanos));
    default:
        return sign128((__int128)key->i - cur->i - delta);
    }
}

/* The first row of the non-NULL keys whose key, in the sort's direction,
 * is past cur + delta (strict) or not before it. */
static int64_t range_search(const WinOp *o, int64_t cur, int64_t delta,
                            bool strict)
{
    const LpWinOrder *ord = &o->w->order[0];
    int col = o->keys[o->w->n_part].col;
    const CombType *t = o->store_types[col];
    int64_t lo = o->nn0, hi = o->nn1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = range_cmp(t, cell(o, mid, col), cell(o, cur, col), delta);
        if (ord->desc)
            c = -c;
        if (strict ? c > 0 : c >= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Where a boundary puts the frame's start (is_end false) or its end
 * (exclusive) for row i of partition [p0, p1). */
static int64_t bound_row(const WinOp *o, const SqlWinFrame *f,
                         const SqlWinBound *b, bool is_end, int64_t i,
                         int64_t p0, int64_t p1)
{
    int64_t n = b->n, r;
    switch (b->kind) {
    case AST_BOUND_UNBOUNDED_PRECEDING:
        return p0;
    case AST_BOUND_UNBOUNDED_FOLLOWING:
        return p1;
    case AST_BOUND_CURRENT_ROW:
        if (f->range)
            return is_end ? o->peer_end[i - p0] : o->peer_start[i - p0];
        return is_end ? i + 1 : i;
    default:
        break;
    }
    if (f->range) {
        bool desc = o->w->order[0].desc;
        int64_t delta = b->kind == AST_BOUND_PRECEDING ? -n : n;
        if (i < o->nn0 || i >= o->nn1)
            return is_end ? o->peer_end[i - p0] : o->peer_start[i - p0];
        return range_search(o, i, desc ? -delta : delta, is_end);
    }
    r = b->kind == AST_BOUND_PRECEDING ? i - n : i + n;
    if (is_end)
        r++;
    return r < p0 ? p0 : r > p1 ? p1 : r;
}

static void frame_rows(const WinOp *o, const SqlWinFrame *f, int64_t i,
                       int64_t p0, int64_t p1, int64_t *s, int64_t *e)
{
    *s = bound_row(o, f, &f->start, false, i, p0, p1);
    *e = bound_row(o, f, &f->end, true, i, p0, p1);
    if (*e < *s)
        *e = *s;
}

/* ------------------------------------------------------ ranking & offsets */

static void compute_ranking(WinOp *o, int k, int64_t p0, int64_t p1)
{
    const SqlWinCall *w = o->w->calls[k];
    int64_t n = p1 - p0, dense = 0;
    for (int64_t i = p0; i < p1; i++) {
        int64_t rank = o->peer_start[i - p0] - p0 + 1;
        if (o->peer_start[i - p0] == i)
            dense++;
        switch (w->kind) {
        case SQL_WIN_ROW_NUMBER: set_int(o, i, k, i - p0 + 1); break;
        case SQL_WIN_RANK: set_int(o, i, k, rank); break;
        case SQL_WIN_DENSE_RANK: set_int(o, i, k, dense); break;
        case SQL_WIN_PERCENT_RANK:
            set_double(o, i, k, n > 1 ? (double)(rank - 1) / (double)(n - 1) : 0.0);
            break;
        default: /* CUME_DIST */
            set_double(o, i, k, (double)(o->peer_end[i - p0] - p0) / (double)n);
            break;
        }
    }
}

/* Hive's NTILE: n / buckets rows each, the first n % buckets one more. */
static void compute_ntile(WinOp *o, int k, int64_t p0, int64_t p1)
{
    int64_t n = p1 - p0, buckets = o->w->calls[k]->n;
    int64_t size = n / buckets, extra = n % buckets, bucket = 1;
    for (int64_t start = p0; start < p1; bucket++) {
        int64_t end = start + size + (extra > 0 ? 1 : 0);
        if (extra > 0)
            extra--;
        for (; start < end && start < p1; start++)
            set_int(o, start, k, bucket);
    }
}

static void compute_lead_lag(WinOp *o, int k, int64_t p0, int64_t p1)
{
    const SqlWinCall *w = o->w->calls[k];
    const WinCallRt *rt = &o->rt[k];
    int64_t step = w->kind == SQL_WIN_LAG ? -w->n : w->n;
    for (int64_t i = p0; i < p1; i++) {
        int64_t j = i + step;
        SqlDatum *d = cell(o, i, o->res_base + k);
        if (j >= p0 && j < p1)
            *d = *cell(o, j, rt->arg_col);
        else if (rt->dflt_col >= 0)
            *d = *cell(o, i, rt->dflt_col);
        else
            d->null = true;
    }
}

/* FIRST_VALUE / LAST_VALUE: the frame's first / last row, with IGNORE
 * NULLS its first / last non-NULL one (next_nn[r]: the first non-NULL row
 * at or after r; prev_nn[r]: the last at or before r, or p0 - 1). */
static int compute_first_last(WinOp *o, int k, int64_t p0, int64_t p1,
                              CombErr *err)
{
    const SqlWinCall *w = o->w->calls[k];
    int col = o->rt[k].arg_col;
    int64_t m = p1 - p0, *next_nn = NULL, *prev_nn = NULL;
    if (w->ignore_nulls) {
        next_nn = comb_arena_alloc(&o->part, (size_t)(m + 1) * sizeof *next_nn);
        prev_nn = comb_arena_alloc(&o->part, (size_t)(m + 1) * sizeof *prev_nn);
        if (!next_nn || !prev_nn)
            return comb_err_nomem(err);
        next_nn[m] = p1;
        for (int64_t r = p1 - 1; r >= p0; r--)
            next_nn[r - p0] = cell(o, r, col)->null ? next_nn[r - p0 + 1] : r;
        for (int64_t r = p0; r < p1; r++)
            prev_nn[r - p0] = !cell(o, r, col)->null ? r
                              : r > p0 ? prev_nn[r - p0 - 1] : p0 - 1;
    }
    for (int64_t i = p0; i < p1; i++) {
        int64_t s, e, pick;
        SqlDatum *d = cell(o, i, o->res_base + k);
        frame_rows(o, &w->frame, i, p0, p1, &s, &e);
        if (s >= e) {
            d->null = true;
            continue;
        }
        if (w->kind == SQL_WIN_FIRST_VALUE)
            pick = next_nn ? next_nn[s - p0] : s;
        else
            pick = prev_nn ? prev_nn[e - 1 - p0] : e - 1;
        if (pick < s || pick >= e)
            d->null = true;
        else
            *d = *cell(o, pick, col);
    }
    return COMB_OK;
}

/* ------------------------------------------------------------ aggregates */

static size_t state_stride(const SqlAgg *a)
{
    return (a->state_size + 15) & ~(size_t)15;
}

/* Add rows [from, to) to states: all to st, or (st NULL) row r to
 * leaves + (r - from) * stride. */
static int add_rows(WinOp *o, int k, int64_t from, int64_t to, void *st,
                    unsigned char *leaves, CombErr *err)
{
    const SqlAgg *a = o->w->calls[k]->agg;
    WinCallRt *rt = &o->rt[k];
    size_t stride = state_stride(a);
    for (int64_t r0 = from; r0 < to; r0 += COMB_BATCH_SIZE) {
        int n = (int)(to - r0 < COMB_BATCH_SIZE ? to - r0 : COMB_BATCH_SIZE);
        int rc;
        comb_batch_reset(&rt->argb);
        for (int j = 0; j < a->n_args; j++)
            sql_fill_reset(&rt->fills[j]);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < a->n_args; j++)
                if (sql_datum_fill(&rt->fills[j], i, cell(o, r0 + i, rt->agg_cols[j])))
                    return comb_err_nomem(err);
            o->sts[i] = st ? st : leaves + (size_t)(r0 + i - from) * stride;
        }
        rt->argb.n_rows = n;
        for (int j = 0; j < a->n_args; j++)
            rt->argv[j] = &rt->argb.cols[j];
        if ((rc = a->ops->add(a, o->sts, rt->argv, &rt->argb, &o->part, err)))
            return rc;
    }
    return COMB_OK;
}

/* Row i's result := the state's final value (copied into the store). */
static int store_final(WinOp *o, int k, int64_t i, void *st, CombErr *err)
{
    const SqlAgg *a = o->w->calls[k]->agg;
    SqlDatum d;
    int rc;
    memset(&d, 0, sizeof d);
    if ((rc = a->ops->final(a, st, &d, &o->part, err)))
        return rc;
    if (sql_datum_copy(cell(o, i, o->res_base + k), &d, &o->rows.arena))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* A frame that starts at the partition's start: one growing state. */
static int agg_running(WinOp *o, int k, int64_t p0, int64_t p1, CombErr *err)
{
    const SqlWinCall *w = o->w->calls[k];
    const SqlAgg *a = w->agg;
    void *st = comb_arena_alloc(&o->part, state_stride(a) + 16);
    int64_t added = p0, last_e = -1;
    if (!st)
        return comb_err_nomem(err);
    a->ops->init(a, st);
    for (int64_t i = p0; i < p1; i++) {
        int64_t s, e;
        int rc;
        frame_rows(o, &w->frame, i, p0, p1, &s, &e);
        if (e == last_e) {
            *cell(o, i, o->res_base + k) = *cell(o, i - 1, o->res_base + k);
            continue;
        }
        if (e < added) {        /* never for sorted rows; kept exact */
            a->ops->init(a, st);
            added = p0;
        }
        if ((rc = add_rows(o, k, added, e, st, NULL, err)) ||
            (rc = store_final(o, k, i, st, err)))
            return rc;
        added = last_e = e;
    }
    return COMB_OK;
}

/* Any other frame: a segment tree of states over the partition's rows
 * (leaf r holds row p0 + r; node v the merge of its children, left
 * first), each frame the merge of O(log n) nodes in row order. */
typedef struct SegTree {
    const SqlAgg *a;
    size_t stride;
    int64_t size;            /* leaves: a power of two */
    unsigned char *nodes;    /* 2 * size states; node 1 the root */
} SegTree;

static void *seg_node(const SegTree *t, int64_t v)
{
    return t->nodes + (size_t)v * t->stride;
}

static int seg_build(WinOp *o, int k, int64_t p0, int64_t p1, SegTree *t,
                     CombErr *err)
{
    int64_t m = p1 - p0;
    int rc;
    t->a = o->w->calls[k]->agg;
    t->stride = state_stride(t->a);
    for (t->size = 1; t->size < m; t->size *= 2)
        ;
    t->nodes = comb_arena_alloc(&o->part, (size_t)(2 * t->size) * t->stride + 16);
    if (!t->nodes)
        return comb_err_nomem(err);
    for (int64_t v = 1; v < 2 * t->size; v++)
        t->a->ops->init(t->a, seg_node(t, v));
    if ((rc = add_rows(o, k, p0, p1, NULL, seg_node(t, t->size), err)))
        return rc;
    for (int64_t v = t->size - 1; v >= 1; v--)
        if ((rc = t->a->ops->merge(t->a, seg_node(t, v), seg_node(t, 2 * v), &o->part, err)) ||
            (rc = t->a->ops->merge(t->a, seg_node(t, v), seg_node(t, 2 * v + 1), &o->part, err)))
            return rc;
    return COMB_OK;
}

/* acc := init + leaves [l, r), merged in row order. */
static int seg_query(WinOp *o, const SegTree *t, int64_t l, int64_t r,
                     void *acc, int64_t *right, CombErr *err)
{
    int n_right = 0, rc;
    t->a->ops->init(t->a, acc);
    for (l += t->size, r += t->size; l < r; l /= 2, r /= 2) {
        if (l & 1 && (rc = t->a->ops->merge(t->a, acc, seg_node(t, l++), &o->part, err)))
            return rc;
        if (r & 1)
            right[n_right++] = --r;
    }
    while (n_right > 0)
        if ((rc = t->a->ops->merge(t->a, acc, seg_node(t, right[--n_right]), &o->part, err)))
            return rc;
    return COMB_OK;
}

static int agg_sliding(WinOp *o, int k, int64_t p0, int64_t p1, CombErr *err)
{
    const SqlWinCall *w = o->w->calls[k];
    SegTree t;
    int64_t right[64], last_s = -1, last_e = -1;
    void *acc;
    int rc = seg_build(o, k, p0, p1, &t, err);
    if (rc)
        return rc;
    if (!(acc = comb_arena_alloc(&o->part, t.stride + 16)))
        return comb_err_nomem(err);
    for (int64_t i = p0; i < p1; i++) {
        int64_t s, e;
        frame_rows(o, &w->frame, i, p0, p1, &s, &e);
        if (s == last_s && e == last_e) {
            *cell(o, i, o->res_base + k) = *cell(o, i - 1, o->res_base + k);
            continue;
        }
        if ((rc = seg_query(o, &t, s - p0, e - p0, acc, right, err)) ||
            (rc = store_final(o, k, i, acc, err)))
            return rc;
        last_s = s;
        last_e = e;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- partitions */

static int compute_call(WinOp *o, int k, int64_t p0, int64_t p1, CombErr *err)
{
    const SqlWinCall *w = o->w->calls[k];
    switch (w->kind) {
    case SQL_WIN_AGG:
        if (w->frame.start.kind == AST_BOUND_UNBOUNDED_PRECEDING)
            return agg_running(o, k, p0, p1, err);
        return agg_sliding(o, k, p0, p1, err);
    case SQL_WIN_NTILE:
        compute_ntile(o, k, p0, p1);
        return COMB_OK;
    case SQL_WIN_LAG:
    case SQL_WIN_LEAD:
        compute_lead_lag(o, k, p0, p1);
        return COMB_OK;
    case SQL_WIN_FIRST_VALUE:
    case SQL_WIN_LAST_VALUE:
        return compute_first_last(o, k, p0, p1, err);
    default:
        compute_ranking(o, k, p0, p1);
        return COMB_OK;
    }
}

static int compute_partitions(WinOp *o, CombErr *err)
{
    int64_t n = o->rows.n_rows;
    for (int64_t p0 = 0; p0 < n;) {
        int64_t p1 = p0 + 1;
        int rc;
        while (p1 < n && same_partition(o, p0, p1))
            p1++;
        comb_arena_reset(&o->part);
        if ((rc = partition_index(o, p0, p1, err)))
            return rc;
        for (int k = 0; k < o->w->n_calls; k++)
            if ((rc = compute_call(o, k, p0, p1, err)))
                return rc;
        p0 = p1;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------ operator */

static int spill_run(WinOp *o, CombErr *err);

static int consume(WinOp *o, CombErr *err)
{
    SqlOp *op = &o->op;
    for (;;) {
        const CombBatch *in;
        int rc = sql_op_next(op->input, &in, err);
        if (rc || !in)
            return rc;
        for (int j = 0; j < o->n_in; j++)
            if (o->in_col[j] >= 0)
                o->cols[o->in_col[j]] = (CombVector *)&in->cols[j];
        for (int e = 0; e < o->n_eval; e++) {
            if ((rc = sql_expr_eval(o->evals[e], in, err)))
                return rc;
            o->cols[o->eval_base + e] = o->evals[e]->out;
        }
        if ((rc = sql_rows_append(&o->rows, o->cols, in, err)))
            return rc;
        if (o->rows.over && sql_spill_worth(o->op.c, o->rows.mem.held) &&
            (rc = spill_run(o, err)))
            return rc;
    }
}

/* The rows so far as one sorted run on disk. */
static int spill_run(WinOp *o, CombErr *err)
{
    int rc;
    if (!o->runs && (rc = sql_runs_create(o->op.c, &o->rows, o->keys,
                                          o->w->n_part + o->w->n_order,
                                          &o->runs, err)))
        return rc;
    return sql_runs_add(o->runs, &o->rows, err);
}

/* All input read: sorted and computed in memory, or the runs merged. */
static int sort_input(WinOp *o, CombErr *err)
{
    int rc;
    if (!o->runs) {
        sql_rows_sort(&o->rows, o->keys, o->w->n_part + o->w->n_order);
        return compute_partitions(o, err);
    }
    if ((o->rows.n_rows && (rc = spill_run(o, err))))
        return rc;
    return sql_runs_finish(o->runs, err);
}

/* Spilled: the next partition of the merged runs into the store, and
 * computed. */
static int next_partition(WinOp *o, CombErr *err)
{
    SqlStmtCtx *c = o->op.c;
    const SqlDatum *row;
    sql_rows_clear(&o->rows);
    o->next_row = 0;
    while ((row = sql_runs_peek(o->runs))) {
        int rc;
        if (o->rows.n_rows &&
            sql_rows_cmp(&o->rows, o->keys, o->w->n_part, row, o->rows.rows[0]))
            break;
        if ((rc = sql_runs_pop(o->runs, &o->rows, err)))
            return rc;
        if (o->rows.over && sql_mem_exceeded(c, o->rows.mem.held))
            return sql_mem_error(c, "window partition", err);
    }
    return compute_partitions(o, err);
}

static int argb_open(WinOp *o, int k, CombErr *err)
{
    const SqlAgg *a = o->w->calls[k]->agg;
    WinCallRt *rt = &o->rt[k];
    const CombType **types = comb_arena_alloc(o->op.c->arena, (size_t)(a->n_args + 1) * sizeof *types);
    if (!types)
        return comb_err_nomem(err);
    for (int j = 0; j < a->n_args; j++)
        types[j] = o->store_types[rt->agg_cols[j]];
    if (comb_batch_init_types(&rt->argb, a->n_args, types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    rt->have_argb = true;
    rt->fills = comb_arena_alloc(o->op.c->arena, (size_t)(a->n_args + 1) * sizeof *rt->fills);
    rt->argv = comb_arena_alloc(o->op.c->arena, (size_t)(a->n_args + 1) * sizeof *rt->argv);
    if (!rt->fills || !rt->argv)
        return comb_err_nomem(err);
    for (int j = 0; j < a->n_args; j++)
        if (sql_fill_init(&rt->fills[j], &rt->argb.cols[j], o->op.c->arena))
            return comb_err_nomem(err);
    return COMB_OK;
}

static bool input_col(const WinOp *o, const BoundExpr *e)
{
    return e->kind == BX_COL && e->col >= 0 && e->col < o->n_in;
}

/* The store's columns (see the top), the sort keys' and the calls'. */
static int layout(WinOp *o, CombErr *err)
{
    CombArena *a = o->op.c->arena;
    const LpWindow *w = o->w;
    int next = 0;
    bool *read = comb_arena_calloc(a, (size_t)o->n_in + 1);
    if (!read)
        return comb_err_nomem(err);
    for (int s = 0; s < o->n_slot; s++)
        if (input_col(o, o->slots[s]))
            read[o->slots[s]->col] = true;
    for (int j = 0; j < o->n_in; j++)
        o->in_col[j] = o->kept[j] || read[j] ? next++ : -1;
    o->res_base = next;
    next += w->n_calls;
    o->eval_base = next;
    o->n_eval = 0;
    for (int s = 0; s < o->n_slot; s++) {
        if (input_col(o, o->slots[s])) {
            o->slot_col[s] = o->in_col[o->slots[s]->col];
            continue;
        }
        o->slot_col[s] = next++;
        o->evals[o->n_eval++] = o->slots[s];
    }
    o->n_store = next;
    if (!(o->store_types = comb_arena_alloc(a, (size_t)(next + 1) * sizeof *o->store_types)) ||
        !(o->cols = comb_arena_calloc(a, (size_t)(next + 1) * sizeof *o->cols)))
        return comb_err_nomem(err);
    for (int j = 0; j < o->n_in; j++)
        if (o->in_col[j] >= 0)
            o->store_types[o->in_col[j]] = o->op.input->types[j];
    for (int k = 0; k < w->n_calls; k++)
        o->store_types[o->res_base + k] = w->calls[k]->type;
    for (int e = 0; e < o->n_eval; e++)
        if (!(o->store_types[o->eval_base + e] = sql_bx_type(o->op.c, o->evals[e])))
            return comb_err_nomem(err);
    for (int g = 0; g < w->n_part + w->n_order; g++)
        o->keys[g].col = o->slot_col[g];
    for (int k = 0; k < w->n_calls; k++) {
        WinCallRt *rt = &o->rt[k];
        rt->arg_col = rt->arg_slot >= 0 ? o->slot_col[rt->arg_slot] : -1;
        rt->dflt_col = rt->dflt_slot >= 0 ? o->slot_col[rt->dflt_slot] : -1;
        for (int j = 0; w->calls[k]->agg && j < w->calls[k]->agg->n_args; j++)
            rt->agg_cols[j] = o->slot_col[rt->agg_slots[j]];
    }
    return COMB_OK;
}

/* The output batch: the input's columns (NULL where the consumer reads
 * none), then the results. */
static int out_init(WinOp *o, CombErr *err)
{
    SqlOp *op = &o->op;
    if (comb_batch_init_types(&o->batch, op->n_cols, op->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    if (!(o->fills = comb_arena_alloc(&o->fill_arena, (size_t)(op->n_cols + 1) * sizeof *o->fills)))
        return comb_err_nomem(err);
    for (int j = 0; j < op->n_cols; j++)
        if (sql_fill_init(&o->fills[j], &o->batch.cols[j], &o->fill_arena))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int out_fill(WinOp *o, CombErr *err)
{
    CombBatch *b = &o->batch;
    int n = o->op.n_cols;
    comb_batch_reset(b);
    for (int j = 0; j < n; j++)
        sql_fill_reset(&o->fills[j]);
    for (; o->next_row < o->rows.n_rows && b->n_rows < b->capacity; o->next_row++) {
        const SqlDatum *row = o->rows.rows[o->next_row];
        for (int j = 0; j < n; j++) {
            int col = j < o->n_in ? (o->kept[j] ? o->in_col[j] : -1)
                                  : o->res_base + j - o->n_in;
            if (col < 0)
                sql_fill_null(&o->fills[j], b->n_rows);
            else if (sql_datum_fill(&o->fills[j], b->n_rows, &row[col]))
                return comb_err_nomem(err);
        }
        b->n_rows++;
    }
    return COMB_OK;
}

static int win_open(SqlOp *op, CombErr *err)
{
    WinOp *o = (WinOp *)op;
    int rc = sql_op_open(op->input, err);
    if (rc || (rc = layout(o, err)))
        return rc;
    for (int e = 0; e < o->n_eval; e++)
        if ((rc = sql_expr_prepare(o->evals[e], op->c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    if (sql_rows_init_types(&o->rows, o->n_store, o->store_types))
        return comb_err_nomem(err);
    sql_rows_track(&o->rows, op->c->mem);
    o->have_rows = true;
    comb_arena_init(&o->part, 64 * 1024);
    comb_arena_init(&o->fill_arena, 4096);
    for (int k = 0; k < o->w->n_calls; k++)
        if (o->w->calls[k]->kind == SQL_WIN_AGG && (rc = argb_open(o, k, err)))
            return rc;
    return COMB_OK;
}

static int win_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    WinOp *o = (WinOp *)op;
    int rc;
    if (!o->computed) {
        if ((rc = consume(o, err)) || (rc = sort_input(o, err)))
            return rc;
        o->computed = true;
        if ((rc = out_init(o, err)))
            return rc;
    }
    while (o->next_row >= o->rows.n_rows) {
        if (!o->runs || !sql_runs_peek(o->runs))
            return COMB_OK;
        if ((rc = next_partition(o, err)))
            return rc;
    }
    if ((rc = out_fill(o, err)))
        return rc;
    *out = &o->batch;
    return COMB_OK;
}

static void win_close(SqlOp *op)
{
    WinOp *o = (WinOp *)op;
    for (int e = 0; e < o->n_eval; e++)
        sql_expr_release(o->evals[e]);
    o->n_eval = 0;
    for (int k = 0; k < o->w->n_calls; k++) {
        if (o->rt[k].have_argb)
            comb_batch_free(&o->rt[k].argb);
        o->rt[k].have_argb = false;
    }
    if (o->batch.cols)
        comb_batch_free(&o->batch);
    memset(&o->batch, 0, sizeof o->batch);
    if (o->have_rows) {
        sql_rows_free(&o->rows);
        comb_arena_free(&o->part);
        comb_arena_free(&o->fill_arena);
    }
    sql_runs_free(o->runs);
    o->runs = NULL;
    o->have_rows = false;
    o->computed = false;
    o->next_row = 0;
    sql_op_close(op->input);
}

static void win_need(SqlOp *op, const bool *used)
{
    WinOp *o = (WinOp *)op;
    bool *in = comb_arena_calloc(op->c->arena, (size_t)o->n_in + 1);
    if (!in) {
        memset(o->kept, 1, (size_t)o->n_in);
        sql_op_need(op->input, NULL);
        return;
    }
    for (int j = 0; j < o->n_in; j++)
        in[j] = o->kept[j] = !used || used[j];
    for (int s = 0; s < o->n_slot; s++)
        sql_bx_mark_used(o->slots[s], o->n_in, in);
    sql_op_need(op->input, in);
}

static int explain_exprs(const SqlOp *op, SqlExplain *x, const char *label,
                         int n, BoundExpr *const *exprs, const LpWinOrder *ord,
                         CombErr *err)
{
    int rc = n ? sql_explain_detail(x, "%s", label) : COMB_OK;
    for (int i = 0; i < n && !rc; i++) {
        const char *t = sql_explain_expr(op->c, ord ? ord[i].expr : exprs[i],
                                         (const char *const *)op->input->names);
        if (!t)
            return comb_err_nomem(err);
        rc = sql_explain_detail(x, "%s%s", i ? ", " : "", t);
        if (!rc && ord)
            rc = sql_explain_detail(x, " %s NULLS %s", ord[i].desc ? "DESC" : "ASC",
                                    ord[i].nulls_first ? "FIRST" : "LAST");
    }
    return rc;
}

static int win_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const WinOp *o = (const WinOp *)op;
    int rc = explain_exprs(op, x, "partition by: ", o->w->n_part, o->w->part,
                           NULL, err);
    if (!rc)
        rc = explain_exprs(op, x, o->w->n_part ? "; order by: " : "order by: ",
                           o->w->n_order, NULL, o->w->order, err);
    for (int k = 0; k < o->w->n_calls && !rc; k++)
        rc = sql_explain_prop(x, "%s", o->w->calls[k]->text);
    return rc;
}

static const SqlOpVt win_vt = {
    "Window", win_open, win_next, win_close, win_need, NULL, win_explain,
};

/* Add e to the window's expressions; its slot. */
static int add_slot(WinOp *o, BoundExpr *e)
{
    o->slots[o->n_slot] = e;
    return o->n_slot++;
}

static int count_slots(const LpWindow *w)
{
    int n = w->n_part + w->n_order;
    for (int k = 0; k < w->n_calls; k++) {
        const SqlWinCall *c = w->calls[k];
        n += (c->arg ? 1 : 0) + (c->dflt ? 1 : 0) + (c->agg ? c->agg->n_args : 0);
    }
    return n;
}

static int plan_slots(SqlStmtCtx *c, WinOp *o, CombErr *err)
{
    const LpWindow *w = o->w;
    for (int g = 0; g < w->n_part; g++) {
        add_slot(o, w->part[g]);
        o->keys[g] = (SqlSortKey){-1, false, true};
    }
    for (int g = 0; g < w->n_order; g++) {
        add_slot(o, w->order[g].expr);
        o->keys[w->n_part + g] = (SqlSortKey){-1, w->order[g].desc,
                                              w->order[g].nulls_first};
    }
    for (int k = 0; k < w->n_calls; k++) {
        const SqlWinCall *call = w->calls[k];
        WinCallRt *rt = &o->rt[k];
        int n_args = call->agg ? call->agg->n_args : 0;
        rt->arg_slot = call->arg ? add_slot(o, call->arg) : -1;
        rt->dflt_slot = call->dflt ? add_slot(o, call->dflt) : -1;
        if (!(rt->agg_slots = comb_arena_alloc(c->arena, (size_t)(n_args + 1) * sizeof *rt->agg_slots)) ||
            !(rt->agg_cols = comb_arena_alloc(c->arena, (size_t)(n_args + 1) * sizeof *rt->agg_cols)))
            return comb_err_nomem(err);
        for (int j = 0; j < n_args; j++)
            rt->agg_slots[j] = add_slot(o, call->agg->args[j]);
    }
    return COMB_OK;
}

int sql_op_window(SqlStmtCtx *c, SqlOp *input, const LpWindow *w,
                  const char **names, SqlOp **out, CombErr *err)
{
    WinOp *o = sql_op_alloc(c, sizeof *o, &win_vt, input);
    int n_in = input->n_cols, n_slot = count_slots(w), rc;
    if (!o)
        return comb_err_nomem(err);
    o->w = w;
    o->n_in = n_in;
    o->op.n_cols = n_in + w->n_calls;
    if (!(o->op.types = comb_arena_alloc(c->arena, (size_t)(o->op.n_cols + 1) * sizeof *o->op.types)) ||
        !(o->op.names = comb_arena_alloc(c->arena, (size_t)(o->op.n_cols + 1) * sizeof *o->op.names)) ||
        !(o->slots = comb_arena_alloc(c->arena, (size_t)(n_slot + 1) * sizeof *o->slots)) ||
        !(o->slot_col = comb_arena_alloc(c->arena, (size_t)(n_slot + 1) * sizeof *o->slot_col)) ||
        !(o->evals = comb_arena_alloc(c->arena, (size_t)(n_slot + 1) * sizeof *o->evals)) ||
        !(o->in_col = comb_arena_alloc(c->arena, (size_t)(n_in + 1) * sizeof *o->in_col)) ||
        !(o->kept = comb_arena_alloc(c->arena, (size_t)n_in + 1)) ||
        !(o->keys = comb_arena_alloc(c->arena, (size_t)(w->n_part + w->n_order + 1) * sizeof *o->keys)) ||
        !(o->rt = comb_arena_calloc(c->arena, (size_t)(w->n_calls + 1) * sizeof *o->rt)) ||
        !(o->sts = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *o->sts)))
        return comb_err_nomem(err);
    memset(o->kept, 1, (size_t)n_in + 1);
    if ((rc = plan_slots(c, o, err)))
        return rc;
    for (int j = 0; j < o->op.n_cols; j++) {
        o->op.types[j] = j < n_in ? input->types[j] : w->calls[j - n_in]->type;
        o->op.names[j] = j < n_in ? input->names[j] : names[j - n_in];
    }
    *out = &o->op;
    return COMB_OK;
}
