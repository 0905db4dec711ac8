/*
 * scan_bucket.c - bucket pruning: which bucket files of a bucketed
 * transactional table can hold a row the scan's filter keeps.
 *
 * It reads the filter as push-down translated it (scan_sarg.c's search
 * argument, whose leaves are never stronger than the filter): an AND
 * whose children fix every CLUSTERED BY column to a few values (=, IN,
 * <=>, IS NULL) can only match rows in the buckets of those value
 * combinations; an OR matches in the union of its children's buckets,
 * an AND in the intersection; anything else (NOT, ranges, UNKNOWN) in
 * every bucket.  Each constant is converted to its column's own type
 * first, exactly or not at all: a constant no column value equals (5.5
 * against an int, 300 against a tinyint) matches no row and adds no
 * bucket.  The bucket of a value combination is the writer's
 * (acid_bucket_of_row over a one-row batch), so NULL keys land in the
 * bucket NULL hashes to.  Floating-point columns are not pruned on (0.0
 * and -0.0 are equal but hash apart).  hive.tez.bucket.pruning=false
 * (Hive's setting) turns it off.
 */
#include "sql/exec/exec.h"

#include <math.h>
#include <string.h>

#include "orc/sarg.h"

/* Value combinations beyond this many are not enumerated (every bucket). */
#define MAX_COMBINATIONS 4096

typedef struct BucketPrune {
    SqlStmtCtx *c;
    const SqlTable *t;
    const OrcSarg *sarg;
    CombBatch row;          /* one row: the cluster columns, in order */
    int *cols;              /* 0 .. n_cluster-1 */
} BucketPrune;

/* A set of buckets: all, or in[b]. */
typedef struct BucketSet {
    bool all;
    bool *in;
} BucketSet;

/* The cluster column position (0..n_cluster) a leaf tests, -1 if none. */
static int cluster_pos(const BucketPrune *p, const OrcSargLeaf *leaf)
{
    for (int k = 0; k < p->t->n_cluster; k++)
        if (p->t->cluster_idx[k] == leaf->column)
            return k;
    return -1;
}

static bool int_in_range(CombTypeKind k, int64_t v)
{
    switch (k) {
    case COMB_T_TINYINT: return v >= INT8_MIN && v <= INT8_MAX;
    case COMB_T_SMALLINT: return v >= INT16_MIN && v <= INT16_MAX;
    case COMB_T_INT: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

/* A decimal at scale `from` as unscaled at `to`, only when exact. */
static bool dec_exact(comb_i128 u, int from, int to, comb_i128 *out)
{
    if (from > to && u % comb_dec_pow10(from - to) != 0)
        return false;
    return comb_dec_rescale(u, from, to, out);
}

/* The leaf's value as an integer, exactly (a widened integer column). */
static bool exact_int(const OrcSargLeaf *leaf, const OrcSargValue *v,
                      int64_t *out)
{
    comb_i128 u;
    switch (leaf->type) {
    case ORC_SARG_LONG:
        *out = v->i;
        return true;
    case ORC_SARG_DOUBLE:  /* below 2^53 one integer converts to it */
        if (!(fabs(v->d) < 9007199254740992.0) || v->d != floor(v->d))
            return false;
        *out = (int64_t)v->d;
        return true;
    default:  /* ORC_SARG_DECIMAL (leaf_fits) */
        if (!dec_exact(v->dec, v->scale, 0, &u) || u < INT64_MIN ||
            u > INT64_MAX)
            return false;
        *out = (int64_t)u;
        return true;
    }
}

/* Whether values of a leaf of this type convert to the column's kind
 * (push-down makes no other pairs: a column is compared bare or through
 * a widening); a leaf that does not is not read. */
static bool leaf_fits(CombTypeKind column, OrcSargType leaf)
{
    switch (column) {
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
        return leaf == ORC_SARG_LONG || leaf == ORC_SARG_DOUBLE ||
               leaf == ORC_SARG_DECIMAL;
    case COMB_T_DATE: return leaf == ORC_SARG_DATE;
    case COMB_T_BOOLEAN: return leaf == ORC_SARG_BOOLEAN;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR: return leaf == ORC_SARG_STRING;
    case COMB_T_DECIMAL: return leaf == ORC_SARG_DECIMAL;
    default: return false;
    }
}

/* Row 0 of the k-th cluster column's vector holds the leaf's value v
 * (leaf_fits): false when no value of the column equals it. */
static bool store_value(const BucketPrune *p, int k, const OrcSargLeaf *leaf,
                        const OrcSargValue *v)
{
    const CombType *type = p->t->types[p->t->cluster_idx[k]];
    CombVector *vec = &p->row.cols[k];
    vec->nulls[0] = 0;
    switch (type->kind) {
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
        return exact_int(leaf, v, &vec->i64[0]) &&
               int_in_range(type->kind, vec->i64[0]);
    case COMB_T_DATE:
    case COMB_T_BOOLEAN:
        vec->i64[0] = v->i;
        return true;
    case COMB_T_DECIMAL:
        return dec_exact(v->dec, v->scale, (int)type->scale, &vec->dec[0]) &&
               comb_dec_fits(vec->dec[0], (int)type->precision);
    default:  /* string, varchar; char is hashed and compared without its
                 padding (a longer value than the column holds matches
                 no row, wherever it hashes) */
        vec->str[0] = v->s;
        return true;
    }
}

/* The values leaf fixes its column to: leaf->values, or one NULL. */
static bool fixes_column(const OrcSargLeaf *leaf)
{
    return leaf->op == ORC_SARG_EQ || leaf->op == ORC_SARG_NSEQ ||
           leaf->op == ORC_SARG_IN || leaf->op == ORC_SARG_IS_NULL;
}

static int leaf_values(const OrcSargLeaf *leaf)
{
    return leaf->op == ORC_SARG_IS_NULL ? 1 : leaf->n_values;
}

/* Every combination of the fixing leaves' values, column by column from
 * k, into set. */
static void add_combinations(BucketPrune *p, const OrcSargLeaf *const *fix,
                             int k, BucketSet *set)
{
    const SqlTable *t = p->t;
    if (k == t->n_cluster) {
        set->in[acid_bucket_of_row(&p->row, 0, p->cols, t->n_cluster,
                                   t->n_buckets, t->bucketing_version)] = true;
        return;
    }
    if (fix[k]->op == ORC_SARG_IS_NULL) {
        p->row.cols[k].nulls[0] = 1;
        p->row.cols[k].has_nulls = true;
        add_combinations(p, fix, k + 1, set);
        return;
    }
    p->row.cols[k].has_nulls = false;
    for (int i = 0; i < fix[k]->n_values; i++)
        if (store_value(p, k, fix[k], &fix[k]->values[i]))
            add_combinations(p, fix, k + 1, set);
}

static int set_alloc(BucketPrune *p, BucketSet *s, bool all, CombErr *err)
{
    s->all = all;
    s->in = comb_arena_calloc(p->c->arena, (size_t)p->t->n_buckets);
    return s->in ? COMB_OK : comb_err_nomem(err);
}

static void set_intersect(const BucketPrune *p, BucketSet *into,
                          const BucketSet *s)
{
    if (s->all)
        return;
    for (int b = 0; b < p->t->n_buckets; b++)
        into->in[b] = (into->all || into->in[b]) && s->in[b];
    into->all = false;
}

static void set_union(const BucketPrune *p, BucketSet *into,
                      const BucketSet *s)
{
    into->all = into->all || s->all;
    for (int b = 0; b < p->t->n_buckets; b++)
        into->in[b] = into->in[b] || s->in[b];
}

/* The buckets the conjunction of nodes[0..n) fixes by its leaves alone. */
static int fixed_buckets(BucketPrune *p, OrcSargNode *const *nodes, int n,
                         BucketSet *out, CombErr *err)
{
    const SqlTable *t = p->t;
    const OrcSargLeaf **fix = comb_arena_calloc(p->c->arena,
                                                (size_t)t->n_cluster * sizeof *fix);
    long combinations = 1;
    int rc;
    if (!fix)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        const OrcSargLeaf *leaf;
        int k;
        if (nodes[i]->kind != ORC_SARG_LEAF)
            continue;
        leaf = &p->sarg->leaves[nodes[i]->leaf];
        if ((k = cluster_pos(p, leaf)) >= 0 && !fix[k] && fixes_column(leaf) &&
            (leaf->op == ORC_SARG_IS_NULL ||
             leaf_fits(t->kinds[leaf->column], leaf->type)))
            fix[k] = leaf;
    }
    for (int k = 0; k < t->n_cluster && combinations <= MAX_COMBINATIONS; k++)
        combinations = fix[k] ? combinations * leaf_values(fix[k])
                              : MAX_COMBINATIONS + 1;
    if ((rc = set_alloc(p, out, combinations > MAX_COMBINATIONS, err)) ||
        out->all)
        return rc;
    add_combinations(p, fix, 0, out);
    return COMB_OK;
}

static int node_buckets(BucketPrune *p, const OrcSargNode *node,
                        BucketSet *out, CombErr *err);

/* AND: what its leaves fix, within each child's buckets. */
static int and_buckets(BucketPrune *p, OrcSargNode *const *kids, int n,
                       BucketSet *out, CombErr *err)
{
    int rc = fixed_buckets(p, kids, n, out, err);
    for (int i = 0; i < n && !rc; i++) {
        BucketSet s;
        if (kids[i]->kind == ORC_SARG_LEAF)
            continue;
        if (!(rc = node_buckets(p, kids[i], &s, err)))
            set_intersect(p, out, &s);
    }
    return rc;
}

static int node_buckets(BucketPrune *p, const OrcSargNode *node,
                        BucketSet *out, CombErr *err)
{
    int rc;
    switch (node->kind) {
    case ORC_SARG_LEAF:
        return fixed_buckets(p, (OrcSargNode *const *)&node, 1, out, err);
    case ORC_SARG_AND:
        return and_buckets(p, node->children, node->n_children, out, err);
    case ORC_SARG_OR:
        if ((rc = set_alloc(p, out, false, err)))
            return rc;
        for (int i = 0; i < node->n_children && !rc && !out->all; i++) {
            BucketSet s;
            if (!(rc = node_buckets(p, node->children[i], &s, err)))
                set_union(p, out, &s);
        }
        return rc;
    default:
        return set_alloc(p, out, true, err);
    }
}

static bool prunable(const SqlTable *t)
{
    if (t->n_buckets <= 0 || t->n_cluster <= 0 || t->bucketing_version == 0 ||
        t->kind == SQL_TABLE_PLAIN || t->format != SQL_FORMAT_ORC)
        return false;
    /* (no floating point: 0.0 and -0.0 are equal but hash apart) */
    for (int k = 0; k < t->n_cluster; k++)
        switch (t->kinds[t->cluster_idx[k]]) {
        case COMB_T_TINYINT: case COMB_T_SMALLINT: case COMB_T_INT:
        case COMB_T_BIGINT: case COMB_T_DATE: case COMB_T_BOOLEAN:
        case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        case COMB_T_DECIMAL:
            break;
        default:
            return false;
        }
    return true;
}

static int prune_init(BucketPrune *p, CombErr *err)
{
    const SqlTable *t = p->t;
    const CombType **types = comb_arena_alloc(p->c->arena,
                                              (size_t)t->n_cluster * sizeof *types);
    if (!types || !(p->cols = comb_arena_alloc(p->c->arena,
                                               (size_t)t->n_cluster * sizeof(int))))
        return comb_err_nomem(err);
    for (int k = 0; k < t->n_cluster; k++) {
        types[k] = t->types[t->cluster_idx[k]];
        p->cols[k] = k;
    }
    if (comb_batch_init_types(&p->row, t->n_cluster, types, 1))
        return comb_err_nomem(err);
    p->row.n_rows = 1;
    return COMB_OK;
}

int sql_scan_buckets(SqlStmtCtx *c, const SqlTable *t, const BoundExpr *filter,
                     bool **mask, int *n_read, CombErr *err)
{
    BucketPrune p = {c, t, NULL, {0}, NULL};
    OrcSarg *sarg;
    BucketSet set;
    int rc;
    *mask = NULL;
    *n_read = t->n_buckets;
    if (!prunable(t) || !sql_conf_bool(c->s, "hive.tez.bucket.pruning", true))
        return COMB_OK;
    if ((rc = sql_filter_sarg(c, t, filter, &sarg, err)) || !sarg)
        return rc;
    p.sarg = sarg;
    if (!(rc = prune_init(&p, err)))
        rc = node_buckets(&p, sarg->root, &set, err);
    if (p.row.cols)
        comb_batch_free(&p.row);
    if (rc || set.all)
        return rc;
    *mask = set.in;
    *n_read = 0;
    for (int b = 0; b < t->n_buckets; b++)
        *n_read += set.in[b];
    return COMB_OK;
}
