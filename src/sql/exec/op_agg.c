/*
 * op_agg.c - hash aggregation: the key expressions and the aggregate
 * calls' arguments are evaluated over every input batch and folded into a
 * hash table of groups (open addressing; keys equal as Hive groups them:
 * NaNs together, decimals by value); when the input ends, the groups
 * become output batches of the keys and each aggregate's final value.
 * The aggregates themselves are func/agg.h's: each call has a state per
 * group, in one block per group.  A
 * query with aggregates and no GROUP BY has one group even without rows.
 * HAVING, the select items and ORDER BY run over these batches as the
 * operators above.
 *
 * Over the memory limit (spill.c) the groups held stay and keep taking
 * their rows, while the rows of any other group go to partition files by
 * their keys' hash; once the input ends, the groups held are emitted and
 * then each partition is aggregated as an input of its own (splitting
 * again by other bits of the hash when it is still too big).
 */
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/exec/par.h"

typedef struct GroupTable {
    SqlRowStore groups;      /* group key datums, one row per group */
    unsigned char **states;  /* per group: its calls' states (offsets) */
    int64_t *slots;          /* open addressing: group index + 1, 0 empty */
    uint64_t *hashes;        /* hash per group */
    int64_t n_slots;
    /* parallel copies: per group the morsel it was first seen in, and its
     * index in the table of the copy that read that morsel */
    int64_t *first;
    int64_t *first_local;
} GroupTable;

/* A DISTINCT call's (group, argument tuple)s seen so far: it is fed
 * each tuple of a group once (agg.h leaves DISTINCT to the caller). */
typedef struct SeenSet {
    const CombType **types;  /* BIGINT group index, then the arguments' */
    SqlRowStore rows;
    uint64_t *hashes;
    int64_t *slots;          /* open addressing: row + 1, 0 empty */
    int64_t n_slots;
} SeenSet;

typedef struct AggOp {
    SqlOp op;
    int n_keys;
    BoundExpr **keys;        /* over the input */
    const CombType **ktypes;
    int n_aggs;
    SqlAgg **aggs;
    size_t *offsets;         /* of each call's state in a group's block */
    size_t states_size;
    void **row_states;       /* per live row of a batch: its call's state */
    uint64_t *row_hashes;    /* per live row of a batch: its key's hash */
    const CombVector **argv; /* the arguments of one call */
    int max_args;
    GroupTable gt;
    bool have_groups;
    bool grouped;            /* the input has been consumed */
    int64_t next_group;
    CombArena arena;         /* the output batch's fill states */
    CombBatch batch;
    SqlVecFill *fills;
    SeenSet *seen;           /* per call; types NULL unless DISTINCT */
    uint16_t *dsel;          /* a DISTINCT call's new rows of a batch */
    SqlParGroup par;         /* parallel copies (par.h): this one merges
                                its peers' groups */
    AcidMorselWalk *walk;    /* this copy's scan's; NULL when serial */
    _Atomic bool *stop;      /* the lead's par.stop: a copy failed */
    SqlParGroup *group;      /* the lead's par; NULL: this copy runs alone */
    int64_t *order;          /* output order of the groups; NULL: as made */
    /* spilling */
    bool *in_used;           /* input columns the keys and arguments read */
    CombMemShare mem;        /* the table's arrays */
    int64_t held;            /* held_bytes after the last batch */
    int level;               /* of the input being grouped */
    bool spilling;           /* new groups' rows go to parts */
    SqlSpillParts parts;
    SqlSpill **pending;      /* partitions still to group, and their level */
    int *pending_level;
    int n_pending;
    uint16_t *ssel;          /* the rows of a batch whose group is held */
    SqlOp *scan;             /* of the partition being grouped */
    SqlDatum *srow;          /* an input row being written out */
} AggOp;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

/* A hash of one value; values equal in Hive's grouping hash equally. */
static uint64_t hash_value(uint64_t h, const CombVector *v, int row)
{
    if (comb_vec_is_null(v, row))
        return hash_bytes(h, "N", 1);
    switch (v->kind) {
    case COMB_T_LIST:
    case COMB_T_MAP:
        h = hash_bytes(h, &v->len[row], sizeof v->len[row]);
        for (uint32_t k = 0; k < v->len[row]; k++)
            for (int part = 0; part < v->n_children; part++)
                h = hash_value(h, &v->children[part], (int)(v->off[row] + k));
        return h;
    case COMB_T_STRUCT:
        for (int k = 0; k < v->n_children; k++)
            h = hash_value(h, &v->children[k], row);
        return h;
    case COMB_T_UNION:
        h = hash_bytes(h, &v->tag[row], 1);
        return hash_value(h, &v->children[v->tag[row]], row);
    default:
        break;
    }
    if (v->i64)
        h = hash_bytes(h, &v->i64[row], 8);
    if (v->nanos)
        h = hash_bytes(h, &v->nanos[row], sizeof v->nanos[row]);
    if (v->dec)
        h = hash_bytes(h, &v->dec[row], sizeof v->dec[row]);
    if (v->f64) {
        /* equal in Double.compare order = equal bits, once every NaN
         * is the same NaN */
        double d = isnan(v->f64[row]) ? NAN : v->f64[row];
        h = hash_bytes(h, &d, 8);
    }
    if (v->str)
        h = hash_bytes(h, v->str[row].ptr, v->str[row].len);
    return h;
}

#define HASH_SEED 14695981039346656037ULL

static uint64_t hash_key(const AggOp *p, int row)
{
    uint64_t h = HASH_SEED;
    for (int g = 0; g < p->n_keys; g++)
        h = hash_value(h, p->keys[g]->out, row);
    return h;
}

/* hash_value of key vector v over the live rows of b into hs, one loop
 * per payload: strings and plain integers (most keys) without
 * hash_value's tests per row; the same hashes as hash_key's. */
static void hash_column(uint64_t *hs, const CombVector *v, const CombBatch *b)
{
    const bool only_str = v->str && comb_type_is_str(v->kind);
    const bool only_int = v->i64 && comb_type_is_int(v->kind) && !v->nanos;
    const int live = comb_batch_live(b);
    for (int i = 0; i < live; i++) {
        int row = comb_batch_row(b, i);
        if (v->has_nulls && v->nulls[row])
            hs[i] = hash_bytes(hs[i], "N", 1);
        else if (only_str)
            hs[i] = hash_bytes(hs[i], v->str[row].ptr, v->str[row].len);
        else if (only_int)
            hs[i] = hash_bytes(hs[i], &v->i64[row], 8);
        else
            hs[i] = hash_value(hs[i], v, row);
    }
}

/* hash_key of every live row of b, key by key. */
static void hash_keys(const AggOp *p, const CombBatch *b, uint64_t *hs)
{
    for (int i = 0; i < comb_batch_live(b); i++)
        hs[i] = HASH_SEED;
    for (int g = 0; g < p->n_keys; g++)
        hash_column(hs, p->keys[g]->out, b);
}

/* Do the values of exprs at row equal the datums d (of types)? */
static bool values_equal(const CombType *const *types, const SqlDatum *d,
                         BoundExpr *const *exprs, int n, int row,
                         CombArena *scratch)
{
    for (int g = 0; g < n; g++) {
        SqlDatum v;
        const CombVector *vec = exprs[g]->out;
        /* strings compare in place: datum_read copies only into scratch */
        if (comb_vec_is_null(vec, row) != d[g].null)
            return false;
        if (d[g].null)
            continue;
        /* fixed-width keys compare without reading a datum */
        if (comb_type_is_int(vec->kind)) {
            if (d[g].i != vec->i64[row])
                return false;
            continue;
        }
        if (vec->kind == COMB_T_DECIMAL) {
            if (d[g].dec != vec->dec[row])
                return false;
            continue;
        }
        if (vec->str && comb_type_is_str(vec->kind)) {
            /* strings compare as bytes (sql_str_cmp): equal = same bytes */
            CombStr s = vec->str[row];
            if (s.len != d[g].s.len || (s.len && memcmp(s.ptr, d[g].s.ptr, s.len)))
                return false;
            continue;
        }
        if (vec->str) {
            memset(&v, 0, sizeof v);
            v.s = vec->str[row];
        } else if (sql_datum_read(&v, vec, row, scratch)) {
            return false;
        }
        if (sql_datum_cmp(types[g], &d[g], &v) != 0)
            return false;
    }
    return true;
}

static bool key_equals(const AggOp *p, const SqlDatum *key, int row,
                       CombArena *scratch)
{
    return values_equal(p->ktypes, key, p->keys, p->n_keys, row, scratch);
}

/* A slot holds its row's index + 1 in the low SLOT_INDEX_BITS and the
 * top bits of the row's hash above them, so that a probe passes the slots
 * of other keys without reading their rows' hashes: in a table of
 * millions of groups that read is a cache miss of its own.  (2^40 groups
 * of at least a datum each would not fit in memory.) */
#define SLOT_INDEX_BITS 40
#define SLOT_INDEX_MASK ((UINT64_C(1) << SLOT_INDEX_BITS) - 1)

static int64_t slot_make(int64_t index, uint64_t h)
{
    return (int64_t)((h & ~SLOT_INDEX_MASK) | (uint64_t)(index + 1));
}

/* The row of a slot; -1 for an empty one. */
static int64_t slot_row(int64_t slot)
{
    return (int64_t)((uint64_t)slot & SLOT_INDEX_MASK) - 1;
}

static bool slot_tag_is(int64_t slot, uint64_t h)
{
    return (((uint64_t)slot ^ h) & ~SLOT_INDEX_MASK) == 0;
}

/* Open addressing slots for rows 0..n_rows-1 of the given hashes, grown
 * to twice the size, or more to leave room for `room` rows at half load. */
static int slots_grow(int64_t **slots, int64_t *n_slots, const uint64_t *hashes,
                      int64_t n_rows, int64_t room, CombErr *err)
{
    int64_t n = *n_slots ? *n_slots * 2 : 1024;
    int64_t *grown;
    while (n < room * 2)
        n *= 2;
    if (!(grown = comb_calloc((size_t)n, sizeof *grown)))
        return comb_err_nomem(err);
    for (int64_t r = 0; r < n_rows; r++) {
        int64_t s = (int64_t)(hashes[r] & (uint64_t)(n - 1));
        while (grown[s])
            s = (s + 1) & (n - 1);
        grown[s] = slot_make(r, hashes[r]);
    }
    comb_free(*slots);
    *slots = grown;
    *n_slots = n;
    return COMB_OK;
}

static int table_grow(GroupTable *gt, CombErr *err)
{
    return slots_grow(&gt->slots, &gt->n_slots, gt->hashes, gt->groups.n_rows, 0, err);
}

/* Is (group gi, the call's arguments at row) new?  Then it is kept. */
static int seen_insert(SeenSet *ss, const SqlAgg *agg, int64_t gi, int row,
                       CombArena *scratch, bool *fresh, CombErr *err)
{
    uint64_t h = 14695981039346656037ULL ^ (uint64_t)gi;
    int64_t n = ss->rows.n_rows, s;
    SqlDatum *d;
    int rc;
    for (int k = 0; k < agg->n_args; k++)
        h = hash_value(h * 1099511628211ULL, agg->args[k]->out, row);
    if ((n + 1) * 2 > ss->n_slots &&
        (rc = slots_grow(&ss->slots, &ss->n_slots, ss->hashes, n, 0, err)))
        return rc;
    for (s = (int64_t)(h & (uint64_t)(ss->n_slots - 1)); ss->slots[s];
         s = (s + 1) & (ss->n_slots - 1)) {
        int64_t cand = slot_row(ss->slots[s]);
        if (slot_tag_is(ss->slots[s], h) && ss->hashes[cand] == h &&
            ss->rows.rows[cand][0].i == gi &&
            values_equal(ss->types + 1, ss->rows.rows[cand] + 1, agg->args,
                         agg->n_args, row, scratch)) {
            *fresh = false;
            return COMB_OK;
        }
    }
    if ((n & (n - 1)) == 0) {
        uint64_t *hs = comb_realloc(ss->hashes, (size_t)(n ? 2 * n : 1) * sizeof *hs);
        if (!hs)
            return comb_err_nomem(err);
        ss->hashes = hs;
    }
    if ((rc = sql_rows_add(&ss->rows, &d, err)))
        return rc;
    d[0].i = gi;
    for (int k = 0; k < agg->n_args; k++)
        if (sql_datum_read(&d[k + 1], agg->args[k]->out, row, &ss->rows.arena))
            return comb_err_nomem(err);
    ss->hashes[n] = h;
    ss->slots[s] = slot_make(n, h);
    *fresh = true;
    return COMB_OK;
}

/* A DISTINCT call adds only the rows whose arguments are new in their
 * group: a view of b selecting them, and their states. */
static int distinct_rows(AggOp *p, int a, const CombBatch *b,
                         const int64_t *gis, CombArena *scratch,
                         CombBatch *view, CombErr *err)
{
    GroupTable *gt = &p->gt;
    int k = 0;
    *view = *b;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i), rc;
        bool fresh;
        comb_arena_reset(scratch);
        if ((rc = seen_insert(&p->seen[a], p->aggs[a], gis[i], row, scratch,
                              &fresh, err)))
            return rc;
        if (!fresh)
            continue;
        p->dsel[k] = (uint16_t)row;
        p->row_states[k++] = gt->states[gis[i]] + p->offsets[a];
    }
    view->sel = p->dsel;
    view->use_sel = true;
    view->n_sel = k;
    return COMB_OK;
}

static int first_grow(GroupTable *gt, size_t cap)
{
    int64_t *f = comb_realloc(gt->first, cap * sizeof *f);
    int64_t *l;
    if (f)
        gt->first = f;
    l = f ? comb_realloc(gt->first_local, cap * sizeof *l) : NULL;
    if (l)
        gt->first_local = l;
    return f && l ? COMB_OK : COMB_ENOMEM;
}

/* Room for one more group's per-group arrays (grown by doubling). */
static int group_room(GroupTable *gt, bool track, CombErr *err)
{
    int64_t n = gt->groups.n_rows;
    size_t cap = n ? (size_t)n * 2 : 1;
    unsigned char **st;
    uint64_t *hs;
    if (n && (n & (n - 1)) != 0)
        return COMB_OK;
    st = comb_realloc(gt->states, cap * sizeof *st);
    if (st)
        gt->states = st;
    hs = st ? comb_realloc(gt->hashes, cap * sizeof *hs) : NULL;
    if (hs)
        gt->hashes = hs;
    if (!st || !hs || (track && first_grow(gt, cap)))
        return comb_err_nomem(err);
    return COMB_OK;
}

static int group_new(const AggOp *p, GroupTable *gt, int row,
                     uint64_t h, int64_t *gi, CombErr *err)
{
    SqlDatum *key;
    int64_t n = gt->groups.n_rows;
    int rc;
    if ((rc = group_room(gt, p->walk != NULL, err)))
        return rc;
    if ((rc = sql_rows_add(&gt->groups, &key, err)))
        return rc;
    for (int g = 0; g < p->n_keys; g++)
        if (sql_datum_read(&key[g], p->keys[g]->out, row, &gt->groups.arena))
            return comb_err_nomem(err);
    gt->states[n] = comb_arena_alloc(&gt->groups.arena, p->states_size + 1);
    if (!gt->states[n])
        return comb_err_nomem(err);
    for (int a = 0; a < p->n_aggs; a++)
        p->aggs[a]->ops->init(p->aggs[a], gt->states[n] + p->offsets[a]);
    gt->hashes[n] = h;
    if (p->walk) {
        gt->first[n] = p->walk->last;
        gt->first_local[n] = n;
    }
    *gi = n;
    return COMB_OK;
}

/* The slot of row's group (key hash h), or the empty slot it would take. */
static int64_t group_slot(const AggOp *p, const GroupTable *gt, int row,
                          uint64_t h, CombArena *scratch)
{
    int64_t s = (int64_t)(h & (uint64_t)(gt->n_slots - 1));
    while (gt->slots[s]) {
        int64_t cand = slot_row(gt->slots[s]);
        if (slot_tag_is(gt->slots[s], h) && gt->hashes[cand] == h &&
            key_equals(p, gt->groups.rows[cand], row, scratch))
            return s;
        s = (s + 1) & (gt->n_slots - 1);
    }
    return s;
}

/* Row's group if the table holds it, else -1. */
static int64_t group_held(const AggOp *p, const GroupTable *gt, int row,
                          CombArena *scratch)
{
    int64_t s;
    if (gt->n_slots == 0)
        return -1;
    s = group_slot(p, gt, row, hash_key(p, row), scratch);
    return slot_row(gt->slots[s]);
}

/* Row's group (key hash h), made when new. */
static int group_find(const AggOp *p, GroupTable *gt, int row, uint64_t h,
                      CombArena *scratch, int64_t *gi, CombErr *err)
{
    int64_t s;
    int rc;
    if ((gt->groups.n_rows + 1) * 2 > gt->n_slots && (rc = table_grow(gt, err)))
        return rc;
    s = group_slot(p, gt, row, h, scratch);
    if (gt->slots[s]) {
        *gi = slot_row(gt->slots[s]);
        return COMB_OK;
    }
    if ((rc = group_new(p, gt, row, h, gi, err)))
        return rc;
    gt->slots[s] = slot_make(*gi, h);
    return COMB_OK;
}

/* The group of each live row of b (gis[i] for live row i). */
static int find_groups(AggOp *p, GroupTable *gt, const CombBatch *b,
                       int64_t *gis, CombArena *scratch, CombErr *err)
{
    int n = comb_batch_live(b);
    if (p->n_keys == 0 && n > 0) {
        /* no keys: one group, found once per batch */
        int rc = group_find(p, gt, comb_batch_row(b, 0), HASH_SEED, scratch,
                            &gis[0], err);
        for (int i = 1; !rc && i < n; i++)
            gis[i] = gis[0];
        return rc;
    }
    hash_keys(p, b, p->row_hashes);
    /* the batch's slots are fetched before the probes, instead of one
     * cache miss after another */
    if (gt->n_slots)
        for (int i = 0; i < n; i++)
            __builtin_prefetch(&gt->slots[p->row_hashes[i] & (uint64_t)(gt->n_slots - 1)]);
    for (int i = 0; i < n; i++) {
        int row = comb_batch_row(b, i), rc;
        comb_arena_reset(scratch);
        /* rows of one key often come together (data sorted or clustered
         * by it): the previous row's group is checked before the table */
        if (i > 0 && p->row_hashes[i] == p->row_hashes[i - 1] &&
            key_equals(p, gt->groups.rows[gis[i - 1]], row, scratch)) {
            gis[i] = gis[i - 1];
            continue;
        }
        if ((rc = group_find(p, gt, row, p->row_hashes[i], scratch, &gis[i], err)))
            return rc;
    }
    return COMB_OK;
}

/* Call a's state of each live row's group (gis), from locals: stores of
 * the state pointers could alias the arrays read. */
static void row_states_of(AggOp *p, const GroupTable *gt, const CombBatch *b,
                          const int64_t *gis, int a)
{
    void **rs = p->row_states;
    unsigned char *const *states = gt->states;
    const size_t off = p->offsets[a];
    const int live = comb_batch_live(b);
    for (int i = 0; i < live; i++)
        rs[i] = states[gis[i]] + off;
}

/* Keys and arguments over the batch, each row's group, then each call
 * adds the batch to its states (agg.h). */
static int consume_batch(AggOp *p, GroupTable *gt, const CombBatch *b,
                         int64_t *gis, CombArena *scratch, CombErr *err)
{
    int rc;
    for (int g = 0; g < p->n_keys; g++)
        if ((rc = sql_expr_eval(p->keys[g], b, err)))
            return rc;
    for (int a = 0; a < p->n_aggs; a++)
        for (int k = 0; k < p->aggs[a]->n_args; k++)
            if ((rc = sql_expr_eval(p->aggs[a]->args[k], b, err)))
                return rc;
    if ((rc = find_groups(p, gt, b, gis, scratch, err)))
        return rc;
    for (int a = 0; a < p->n_aggs; a++) {
        const SqlAgg *agg = p->aggs[a];
        const CombBatch *in = b;
        CombBatch view;
        for (int k = 0; k < agg->n_args; k++)
            p->argv[k] = agg->args[k]->out;
        if (agg->distinct) {
            if ((rc = distinct_rows(p, a, b, gis, scratch, &view, err)))
                return rc;
            in = &view;
        } else {
            row_states_of(p, gt, b, gis, a);
        }
        if (comb_batch_live(in) &&
            (rc = agg->ops->add(agg, p->row_states, p->argv, in,
                                &gt->groups.arena, err)))
            return rc;
    }
    return COMB_OK;
}

static void group_table_free(GroupTable *gt)
{
    sql_rows_free(&gt->groups);
    comb_free(gt->states);
    comb_free(gt->slots);
    comb_free(gt->hashes);
    comb_free(gt->first);
    comb_free(gt->first_local);
}



/* Fill the output batch with groups [first, first + capacity): the keys,
 * then the final value of each aggregate. */
static int fill_groups(AggOp *p, int64_t first, CombErr *err)
{
    GroupTable *gt = &p->gt;
    CombBatch *ab = &p->batch;
    comb_batch_reset(ab);
    for (int j = 0; j < ab->n_cols; j++)
        sql_fill_reset(&p->fills[j]);
    for (int64_t k = first; k < gt->groups.n_rows && ab->n_rows < ab->capacity;
         k++) {
        int64_t gi = p->order ? p->order[k] : k;
        int r = ab->n_rows++;
        for (int g = 0; g < p->n_keys; g++)
            if (sql_datum_fill(&p->fills[g], r, &gt->groups.rows[gi][g]))
                return COMB_ENOMEM;
        for (int a = 0; a < p->n_aggs; a++) {
            const SqlAgg *agg = p->aggs[a];
            SqlDatum d;
            int rc;
            memset(&d, 0, sizeof d);
            if ((rc = agg->ops->final(agg, gt->states[gi] + p->offsets[a], &d,
                                      &p->batch.arena, err)))
                return rc;
            if (sql_datum_fill(&p->fills[p->n_keys + a], r, &d))
                return comb_err_nomem(err);
        }
    }
    return COMB_OK;
}

static AggOp *peer(const AggOp *p, int k)
{
    return (AggOp *)p->par.peers[k];
}

/* The peers opened, and every copy told where its morsels and the stop
 * flag are. */
static int open_peers(AggOp *p, CombErr *err)
{
    int rc = sql_par_group_open(&p->par, &p->op, err);
    p->stop = &p->par.stop;
    p->group = &p->par;
    p->walk = sql_op_par_walk(p->op.input);
    for (int k = 0; k < p->par.n; k++) {
        peer(p, k)->stop = p->stop;
        peer(p, k)->group = p->group;
        peer(p, k)->walk = sql_op_par_walk(peer(p, k)->op.input);
    }
    return rc;
}

/* ------------------------------------------------------------ spilling */

static int group_input(AggOp *p, SqlOp *in, CombErr *err);

static void seen_free(AggOp *p)
{
    for (int a = 0; p->seen && a < p->n_aggs; a++) {
        sql_rows_free(&p->seen[a].rows);
        comb_free(p->seen[a].hashes);
        comb_free(p->seen[a].slots);
        p->seen[a].hashes = NULL;
        p->seen[a].slots = NULL;
        p->seen[a].n_slots = 0;
    }
}

/* An empty group table and DISTINCT sets, counted in the budget. */
static int tables_init(AggOp *p, CombErr *err)
{
    CombMemAcct *acct = p->op.c->mem;
    memset(&p->gt, 0, sizeof p->gt);
    if (sql_rows_init_types(&p->gt.groups, p->n_keys, p->ktypes))
        return comb_err_nomem(err);
    sql_rows_track(&p->gt.groups, acct);
    for (int a = 0; a < p->n_aggs; a++) {
        if (!p->seen[a].types)
            continue;
        if (sql_rows_init_types(&p->seen[a].rows, p->aggs[a]->n_args + 1, p->seen[a].types))
            return comb_err_nomem(err);
        sql_rows_track(&p->seen[a].rows, acct);
    }
    p->mem.acct = acct;
    p->held = 0;
    return COMB_OK;
}

/* The groups dropped, for an input grouped afresh. */
static int tables_reset(AggOp *p, CombErr *err)
{
    group_table_free(&p->gt);
    seen_free(p);
    p->next_group = 0;
    return tables_init(p, err);
}

static void spill_free(AggOp *p)
{
    sql_op_close(p->scan);
    sql_spill_parts_free(&p->parts);
    for (int i = 0; i < p->n_pending; i++)
        sql_spill_free(p->pending[i]);
    comb_free(p->pending);
    comb_free(p->pending_level);
    p->pending = NULL;
    p->pending_level = NULL;
    p->n_pending = 0;
    p->spilling = false;
    p->level = 0;
    comb_mem_release(&p->mem);
}

/* What the table holds: its groups, DISTINCT sets and arrays. */
static int64_t held_bytes(const AggOp *p)
{
    int64_t n = p->mem.held + p->gt.groups.mem.held;
    for (int a = 0; a < p->n_aggs; a++)
        n += p->seen[a].rows.mem.held;
    return n;
}

/* After a batch: the table's arrays counted; over the limit, new groups
 * go to partition files from now on.  Groups held still grow (DISTINCT
 * sets, collect_list): when they are too much (sql_mem_exceeded) and
 * there is nothing left to spill (spilling already, no keys, too deep),
 * the statement fails. */
static int check_memory(AggOp *p, CombErr *err)
{
    GroupTable *gt = &p->gt;
    int64_t n = gt->groups.n_rows, cap = 1, before = p->held;
    SqlStmtCtx *c = p->op.c;
    bool over;
    while (cap < n)
        cap *= 2;
    over = comb_mem_hold(&p->mem, gt->n_slots * 8 + (n ? cap : 0) * 16);
    p->held = held_bytes(p);
    if (!over)
        return COMB_OK;
    if (p->group) {
        /* copies do not spill: they stop, the lead runs alone (par.h) */
        sql_par_group_over(p->group);
        return COMB_OK;
    }
    if (p->spilling || p->n_keys == 0 || p->level >= SQL_SPILL_MAX_LEVEL ||
        !sql_spill_worth(c, p->held))
        return p->held > before && sql_mem_exceeded(c, p->held)
                   ? sql_mem_error(c, "aggregation's groups", err) : COMB_OK;
    p->spilling = true;
    return sql_spill_parts_create(c, p->op.input->n_cols, p->op.input->types,
                                  p->level, &p->parts, err);
}

/* Row `row` of b (the columns read) to its partition. */
static int spill_row(AggOp *p, const CombBatch *b, int row, CombArena *scratch,
                     CombErr *err)
{
    int part = sql_spill_part(hash_key(p, row), p->parts.level);
    for (int j = 0; j < p->op.input->n_cols; j++) {
        memset(&p->srow[j], 0, sizeof p->srow[j]);
        p->srow[j].null = true;
        if (p->in_used && !p->in_used[j])
            continue;
        if (sql_datum_read(&p->srow[j], &b->cols[j], row, scratch))
            return comb_err_nomem(err);
    }
    return sql_spill_put(p->parts.part[part], p->srow, err);
}

/* Spilling: the rows of held groups are grouped, the others written out. */
static int spill_batch(AggOp *p, const CombBatch *b, int64_t *gis,
                       CombArena *scratch, CombErr *err)
{
    CombBatch view = *b;
    int k = 0, rc;
    for (int g = 0; g < p->n_keys; g++)
        if ((rc = sql_expr_eval(p->keys[g], b, err)))
            return rc;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        comb_arena_reset(scratch);
        if (group_held(p, &p->gt, row, scratch) >= 0)
            p->ssel[k++] = (uint16_t)row;
        else if ((rc = spill_row(p, b, row, scratch, err)))
            return rc;
    }
    if (k == 0)
        return COMB_OK;
    view.sel = p->ssel;
    view.use_sel = true;
    view.n_sel = k;
    return consume_batch(p, &p->gt, &view, gis, scratch, err);
}

/* The input ended: the non-empty partitions wait their turn. */
static int spill_end(AggOp *p, CombErr *err)
{
    int n = p->n_pending + SQL_SPILL_FANOUT;
    SqlSpill **q = comb_realloc(p->pending, (size_t)n * sizeof *q);
    int *lv = q ? comb_realloc(p->pending_level, (size_t)n * sizeof *lv) : NULL;
    if (q)
        p->pending = q;
    if (lv)
        p->pending_level = lv;
    if (!q || !lv)
        return comb_err_nomem(err);
    for (int i = 0; i < SQL_SPILL_FANOUT; i++) {
        SqlSpill *sp = p->parts.part[i];
        p->parts.part[i] = NULL;
        if (sql_spill_rows(sp) == 0) {
            sql_spill_free(sp);
            continue;
        }
        p->pending[p->n_pending] = sp;
        p->pending_level[p->n_pending++] = p->parts.level + 1;
    }
    p->spilling = false;
    return COMB_OK;
}

/* The groups held are all emitted: group the next partition instead. */
static int group_partition(AggOp *p, CombErr *err)
{
    SqlOp *in = p->op.input;
    SqlSpill *sp = p->pending[--p->n_pending];
    int rc;
    p->level = p->pending_level[p->n_pending];
    if ((rc = tables_reset(p, err))) {
        sql_spill_free(sp);
        return rc;
    }
    if (!p->scan && (rc = sql_op_spill_scan(p->op.c, in->n_cols, in->names,
                                            in->types, &p->scan, err))) {
        sql_spill_free(sp);
        return rc;
    }
    sql_spill_scan_set(p->scan, sp);
    if (!(rc = sql_op_open(p->scan, err)))
        rc = group_input(p, p->scan, err);
    sql_op_close(p->scan);
    return rc;
}

static int agg_open(SqlOp *op, CombErr *err)
{
    AggOp *p = (AggOp *)op;
    int rc = sql_op_open(op->input, err);
    if (rc)
        return rc;
    for (int g = 0; g < p->n_keys; g++)
        if ((rc = sql_expr_prepare(p->keys[g], op->c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    for (int a = 0; a < p->n_aggs; a++)
        for (int k = 0; k < p->aggs[a]->n_args; k++)
            if ((rc = sql_expr_prepare(p->aggs[a]->args[k], op->c->arena,
                                       COMB_BATCH_SIZE, err)))
                return rc;
    if ((rc = tables_init(p, err)))
        return rc;
    p->have_groups = true;
    comb_arena_init(&p->arena, 4096);
    if (comb_batch_init_types(&p->batch, op->n_cols, op->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    p->fills = comb_arena_alloc(&p->arena, (size_t)(op->n_cols + 1) * sizeof *p->fills);
    for (int j = 0; p->fills && j < op->n_cols; j++)
        if (sql_fill_init(&p->fills[j], &p->batch.cols[j], &p->arena))
            return comb_err_nomem(err);
    if (!p->fills)
        return comb_err_nomem(err);
    return p->par.n ? open_peers(p, err) : COMB_OK;
}

/* The rows of in into this copy's groups (a parallel copy: its share
 * of the morsels, stopping early when another copy failed). */
static int group_rows(AggOp *p, SqlOp *in, CombErr *err)
{
    CombArena scratch;
    int64_t *gis = comb_malloc(COMB_BATCH_SIZE * sizeof *gis);
    int rc = gis ? COMB_OK : comb_err_nomem(err);
    comb_arena_init(&scratch, 4096);
    while (!rc && !(p->stop && atomic_load(p->stop))) {
        const CombBatch *b;
        if ((rc = sql_op_next(in, &b, err)) || !b)
            break;
        rc = p->spilling ? spill_batch(p, b, gis, &scratch, err)
                         : consume_batch(p, &p->gt, b, gis, &scratch, err);
        if (!rc)
            rc = check_memory(p, err);
    }
    comb_arena_free(&scratch);
    comb_free(gis);
    if (!rc && p->spilling)
        rc = spill_end(p, err);
    return rc;
}

/* A parallel copy's task: its share of the morsels grouped. */
static int group_task(void *arg, CombErr *err)
{
    AggOp *p = arg;
    return group_rows(p, p->op.input, err);
}

static bool datums_equal(const AggOp *p, const SqlDatum *a, const SqlDatum *b)
{
    for (int g = 0; g < p->n_keys; g++) {
        if (a[g].null != b[g].null)
            return false;
        if (!a[g].null && sql_datum_cmp(p->ktypes[g], &a[g], &b[g]) != 0)
            return false;
    }
    return true;
}

/* Group gi of peer q into this copy's table: a new group takes q's key
 * datums and states as they are (q's memory lives until this copy
 * closes), a known one merges q's states into its own (agg.h). */
static int merge_group(AggOp *p, const AggOp *q, int64_t gi, CombErr *err)
{
    GroupTable *gt = &p->gt;
    const GroupTable *src = &q->gt;
    uint64_t h = src->hashes[gi];
    int64_t s, n = gt->groups.n_rows;
    SqlDatum *key;
    int rc;
    if ((n + 1) * 2 > gt->n_slots && (rc = table_grow(gt, err)))
        return rc;
    s = (int64_t)(h & (uint64_t)(gt->n_slots - 1));
    for (; gt->slots[s]; s = (s + 1) & (gt->n_slots - 1)) {
        int64_t cand = slot_row(gt->slots[s]);
        if (!slot_tag_is(gt->slots[s], h) || gt->hashes[cand] != h ||
            !datums_equal(p, gt->groups.rows[cand], src->groups.rows[gi]))
            continue;
        for (int a = 0; a < p->n_aggs; a++)
            if ((rc = p->aggs[a]->ops->merge(p->aggs[a], gt->states[cand] + p->offsets[a],
                                             src->states[gi] + q->offsets[a],
                                             &gt->groups.arena, err)))
                return rc;
        if (src->first[gi] < gt->first[cand]) {
            gt->first[cand] = src->first[gi];
            gt->first_local[cand] = src->first_local[gi];
        }
        return COMB_OK;
    }
    if ((rc = group_room(gt, true, err)))
        return rc;
    if ((rc = sql_rows_add(&gt->groups, &key, err)))
        return rc;
    memcpy(key, src->groups.rows[gi], (size_t)p->n_keys * sizeof *key);
    gt->states[n] = src->states[gi];
    gt->hashes[n] = h;
    gt->first[n] = src->first[gi];
    gt->first_local[n] = src->first_local[gi];
    gt->slots[s] = slot_make(n, h);
    return COMB_OK;
}

/* Every group of peer q into this copy's table; the slot a group a few
 * ahead will probe is fetched meanwhile (the table is too big for the
 * cache when the merge matters). */
static int merge_peer(AggOp *p, const AggOp *q, CombErr *err)
{
    const int64_t ahead = 16, n = q->gt.groups.n_rows;
    int rc = COMB_OK;
    for (int64_t gi = 0; gi < n && !rc; gi++) {
        if (gi + ahead < n && p->gt.n_slots)
            __builtin_prefetch(&p->gt.slots[q->gt.hashes[gi + ahead] &
                                            (uint64_t)(p->gt.n_slots - 1)]);
        rc = merge_group(p, q, gi, err);
    }
    return rc;
}

/* Stable counting sort of idx[0..n) by key[idx[i]] into out. */
static int count_sort(const int64_t *idx, int64_t n, const int64_t *key, int64_t *out)
{
    int64_t lo = n ? key[0] : 0, hi = lo, *at;
    for (int64_t k = 1; k < n; k++) {
        lo = key[k] < lo ? key[k] : lo;
        hi = key[k] > hi ? key[k] : hi;
    }
    if (!(at = comb_calloc((size_t)(hi - lo) + 2, sizeof *at)))
        return COMB_ENOMEM;
    for (int64_t k = 0; k < n; k++)
        at[key[idx[k]] - lo + 1]++;
    for (int64_t v = 1; v <= hi - lo + 1; v++)
        at[v] += at[v - 1];
    for (int64_t k = 0; k < n; k++)
        out[at[key[idx[k]] - lo]++] = idx[k];
    comb_free(at);
    return COMB_OK;
}

/* The groups in the order one thread makes them: by the morsel each was
 * first seen in (morsels are numbered in scan order), then by its place
 * in the table of the copy that read that morsel (the copy's rows came
 * in scan order).  Both are small integers: two counting sorts, by the
 * place and then (stably) by the morsel, where comparisons cost a
 * noticeable share of a parallel aggregation of a million groups. */
static int order_groups(AggOp *p, CombErr *err)
{
    const GroupTable *gt = &p->gt;
    int64_t n = gt->groups.n_rows;
    int64_t *all = comb_malloc((size_t)(n + 1) * sizeof *all);
    int64_t *by_local = comb_malloc((size_t)(n + 1) * sizeof *by_local);
    int rc = all && by_local && (p->order = comb_malloc((size_t)(n + 1) * sizeof *p->order))
                 ? COMB_OK : COMB_ENOMEM;
    for (int64_t gi = 0; !rc && gi < n; gi++)
        all[gi] = gi;
    if (!rc)
        rc = count_sort(all, n, gt->first_local, by_local);
    if (!rc)
        rc = count_sort(by_local, n, gt->first, p->order);
    comb_free(all);
    comb_free(by_local);
    return rc ? comb_err_nomem(err) : COMB_OK;
}

/* Every copy groups its share on a thread of its own, then this one
 * merges the others' groups in. */
/* The copies went over the memory limit: the whole input again, on this
 * thread, spilling partitions (par.h). */
static int group_serial(AggOp *p, CombErr *err)
{
    int rc;
    p->stop = NULL;
    p->group = NULL;
    p->walk = NULL;
    if ((rc = tables_reset(p, err)) || (rc = sql_par_group_serial(&p->par, &p->op, err)))
        return rc;
    return group_rows(p, p->op.input, err);
}

static int group_parallel(AggOp *p, CombErr *err)
{
    int rc = sql_par_group_run(&p->par, &p->op, group_task, err);
    int64_t room = p->gt.groups.n_rows + 1;
    if (!rc && atomic_load(&p->par.over))
        return group_serial(p, err);
    for (int k = 0; k < p->par.n; k++)
        room += peer(p, k)->gt.groups.n_rows;
    /* one rehash for all the peers' groups, not one per doubling */
    if (!rc && room * 2 > p->gt.n_slots)
        rc = slots_grow(&p->gt.slots, &p->gt.n_slots, p->gt.hashes, p->gt.groups.n_rows,
                        room, err);
    for (int k = 0; k < p->par.n && !rc; k++)
        rc = merge_peer(p, peer(p, k), err);
    return rc ? rc : order_groups(p, err);
}

/* The rows of in (the input, or a partition's spill scan) grouped: by
 * the copies, or here (spilling over the memory limit). */
static int group_input(AggOp *p, SqlOp *in, CombErr *err)
{
    int rc = p->par.n && in == p->op.input ? group_parallel(p, err) : group_rows(p, in, err);
    /* a global aggregate over no rows still yields one row */
    if (!rc && p->n_keys == 0 && p->gt.groups.n_rows == 0) {
        int64_t gi;
        rc = group_new(p, &p->gt, 0, 0, &gi, err);
        if (!rc && p->order)
            p->order[0] = 0;
    }
    return rc;
}

static int agg_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    AggOp *p = (AggOp *)op;
    int rc;
    if (!p->grouped) {
        if ((rc = group_input(p, op->input, err)))
            return rc;
        p->grouped = true;
    }
    while (p->next_group >= p->gt.groups.n_rows && p->n_pending)
        if ((rc = group_partition(p, err)))
            return rc;
    if (p->next_group >= p->gt.groups.n_rows)
        return COMB_OK;
    if ((rc = fill_groups(p, p->next_group, err)))
        return rc;
    p->next_group += p->batch.n_rows;
    *out = &p->batch;
    return COMB_OK;
}

static void agg_close(SqlOp *op)
{
    AggOp *p = (AggOp *)op;
    for (int g = 0; g < p->n_keys; g++)
        sql_expr_release(p->keys[g]);
    for (int a = 0; a < p->n_aggs; a++)
        for (int k = 0; k < p->aggs[a]->n_args; k++)
            sql_expr_release(p->aggs[a]->args[k]);
    seen_free(p);
    spill_free(p);
    if (p->have_groups) {
        group_table_free(&p->gt);
        if (p->batch.cols)
            comb_batch_free(&p->batch);
        comb_arena_free(&p->arena);
    }
    memset(&p->batch, 0, sizeof p->batch);
    p->have_groups = false;
    p->grouped = false;
    p->next_group = 0;
    comb_free(p->order);
    p->order = NULL;
    sql_op_close(op->input);
    /* after this copy's groups: they may point into the peers' memory */
    sql_par_group_close(&p->par, op->c);
}

/* Every group is computed whatever the consumer reads: the input must
 * give what the keys and arguments read (nothing for count(*)). */
static void agg_need(SqlOp *op, const bool *used)
{
    AggOp *p = (AggOp *)op;
    bool *in = comb_arena_calloc(op->c->arena, (size_t)op->input->n_cols + 1);
    (void)used;
    if (!in) {
        sql_op_need(op->input, NULL);
        return;
    }
    for (int g = 0; g < p->n_keys; g++)
        sql_bx_mark_used(p->keys[g], op->input->n_cols, in);
    for (int a = 0; a < p->n_aggs; a++)
        for (int k = 0; k < p->aggs[a]->n_args; k++)
            sql_bx_mark_used(p->aggs[a]->args[k], op->input->n_cols, in);
    p->in_used = in;
    sql_op_need(op->input, in);
    for (int k = 0; k < p->par.n; k++)
        sql_op_need(p->par.peers[k], used);
}

static int agg_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    const AggOp *p = (const AggOp *)op;
    int rc = COMB_OK;
    if (p->n_keys)
        rc = sql_explain_detail(x, "keys: ");
    for (int g = 0; g < p->n_keys && !rc; g++) {
        const char *text = sql_explain_expr(op->c, p->keys[g],
                                            (const char *const *)op->input->names);
        if (!text)
            return comb_err_nomem(err);
        rc = sql_explain_detail(x, "%s%s", g ? ", " : "", text);
    }
    if (!rc && p->n_aggs)
        rc = sql_explain_detail(x, "%saggregates: ", p->n_keys ? "; " : "");
    for (int a = 0; a < p->n_aggs && !rc; a++)
        rc = sql_explain_detail(x, "%s%s", a ? ", " : "", p->aggs[a]->text);
    return rc;
}

static const SqlOpVt agg_vt = {
    "Aggregate", agg_open, agg_next, agg_close, agg_need, NULL, agg_explain,
};

int sql_op_aggregate(SqlStmtCtx *c, SqlOp *input, int n_keys,
                     BoundExpr **keys, int n_aggs, SqlAgg **aggs,
                     const char **names, SqlOp **out, CombErr *err)
{
    AggOp *p = sql_op_alloc(c, sizeof *p, &agg_vt, input);
    int n = n_keys + n_aggs;
    if (!p || !(p->ktypes = comb_arena_alloc(c->arena, (size_t)(n_keys + 1) * sizeof *p->ktypes)) ||
        !(p->op.types = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->op.types)) ||
        !(p->offsets = comb_arena_alloc(c->arena, (size_t)(n_aggs + 1) * sizeof *p->offsets)) ||
        !(p->row_states = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *p->row_states)) ||
        !(p->row_hashes = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *p->row_hashes)))
        return comb_err_nomem(err);
    for (int g = 0; g < n_keys; g++)
        if (!(p->ktypes[g] = p->op.types[g] = sql_bx_type(c, keys[g])))
            return comb_err_nomem(err);
    for (int a = 0; a < n_aggs; a++) {
        p->op.types[n_keys + a] = aggs[a]->type;
        /* states are 16-byte aligned in the group's block */
        p->offsets[a] = p->states_size;
        p->states_size += (aggs[a]->state_size + 15) & ~(size_t)15;
        if (aggs[a]->n_args > p->max_args)
            p->max_args = aggs[a]->n_args;
    }
    if (!(p->argv = comb_arena_alloc(c->arena, (size_t)(p->max_args + 1) * sizeof *p->argv)) ||
        !(p->seen = comb_arena_calloc(c->arena, (size_t)(n_aggs + 1) * sizeof *p->seen)) ||
        !(p->dsel = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *p->dsel)) ||
        !(p->ssel = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *p->ssel)) ||
        !(p->srow = comb_arena_alloc(c->arena, (size_t)(input->n_cols + 1) * sizeof *p->srow)))
        return comb_err_nomem(err);
    for (int a = 0; a < n_aggs; a++) {
        static const CombType bigint = {.kind = COMB_T_BIGINT};
        SeenSet *ss = &p->seen[a];
        if (!aggs[a]->distinct)
            continue;
        if (!(ss->types = comb_arena_alloc(c->arena, (size_t)(aggs[a]->n_args + 2) * sizeof *ss->types)))
            return comb_err_nomem(err);
        ss->types[0] = &bigint;
        for (int k = 0; k < aggs[a]->n_args; k++)
            if (!(ss->types[k + 1] = sql_bx_type(c, aggs[a]->args[k])))
                return comb_err_nomem(err);
    }
    p->op.n_cols = n;
    p->op.names = names;
    p->n_keys = n_keys;
    p->keys = keys;
    p->n_aggs = n_aggs;
    p->aggs = aggs;
    *out = &p->op;
    return COMB_OK;
}

int sql_op_aggregate_peers(SqlOp *op, SqlOp **peers, int n, CombErr *err)
{
    return sql_par_group_init(&((AggOp *)op)->par, op->c, peers, n, err);
}
