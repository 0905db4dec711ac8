/*
 * stats.c - estimated rows of plan nodes (logical.h) for the join order
 * (rules.c) and the build sides (exec/lower_join.c).
 *
 *  - A table's rows: the row counts in its ORC files' footers (delete
 *    deltas left out; a multiset estimate, not the snapshot's count), and
 *    per column the range of its integer and date values, which bounds
 *    the distinct values of a key (TPC-H's c_nationkey has 25 of them
 *    among 150,000 rows), or for strings the size of the first stripe's
 *    dictionary (o_orderstatus: 3).  Text files, and ORC files that cannot be read,
 *    give rows from their bytes (a fixed guess of bytes per row).  The
 *    same files give the same estimate, so plans are deterministic.
 *  - A filter keeps 1 / ndv for an equality with a constant, k / ndv for
 *    an IN list of k (a tenth per value where no range bounds ndv), the
 *    sum of its branches for an OR, a tenth for LIKE (NOT LIKE nine), a
 *    third for any other conjunct.
 *  - An inner join with column equalities: l * r * selectivity (the
 *    classic 1 / max(ndv) per equality); without one, a cross product.
 *
 * Only the order of magnitude matters.
 */
#include "sql/plan/logical.h"

#include <string.h>

#include "fs/fs.h"
#include "orc/orc.h"

/* Rows per byte guessed for files without a footer to read. */
#define BYTES_PER_ROW 32.0
/* Directory levels followed below a table (partitions, deltas, buckets). */
#define MAX_DEPTH 8
/* What an unknown conjunct keeps, and an equality on a column of
 * unknown distinct values. */
#define DEFAULT_SEL (1.0 / 3)
#define DEFAULT_EQ_SEL 0.1
/* Full ACID files: the row struct is the sixth field of the root. */
#define ACID_ROW_FIELD 5

struct LpGetStats {
    double rows;
    int n;                /* table columns with a range slot */
    bool *has_range;      /* every file read gave the column's range */
    int64_t *lo, *hi;
    double *dict;         /* the largest dictionary of the column's first
                             stripes (strings); < 0 some file's is none */
    bool ranged;          /* only ORC footers were read */
};

static double max2(double a, double b)
{
    return a > b ? a : b;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

/* The type of table column i in an ORC file of t, or NULL. */
static const CombType *file_column(const SqlTable *t, const CombType *root, int i)
{
    if (!root || root->kind != COMB_T_STRUCT)
        return NULL;
    if (t->transactional && root->n_children > ACID_ROW_FIELD &&
        root->children[ACID_ROW_FIELD]->kind == COMB_T_STRUCT)
        root = root->children[ACID_ROW_FIELD];
    return i < root->n_children ? root->children[i] : NULL;
}

/* The dictionary sizes of the first stripe for the columns without a
 * range: a string column's distinct values where the writer kept a
 * dictionary (o_orderstatus: 3), none where it wrote them directly. */
static void add_dicts(SqlStmtCtx *c, const SqlTable *t, OrcReader *r,
                      struct LpGetStats *s)
{
    int n = orc_reader_n_columns(r);
    const char **kinds = comb_arena_alloc(c->arena, (size_t)n * sizeof *kinds);
    uint32_t *sizes = comb_arena_alloc(c->arena, (size_t)n * sizeof *sizes);
    CombErr err;
    if (!kinds || !sizes || orc_reader_n_stripes(r) == 0 ||
        orc_reader_stripe_encodings(r, 0, kinds, sizes, &err)) {
        for (int i = 0; i < s->n; i++)
            s->dict[i] = -1;
        return;
    }
    for (int i = 0; i < s->n; i++) {
        const CombType *ct = file_column(t, orc_reader_schema(r), i);
        if (s->has_range[i] || s->dict[i] < 0)
            continue;
        if (!ct || ct->id >= n || strncmp(kinds[ct->id], "DICTIONARY", 10) != 0)
            s->dict[i] = -1;
        else if (s->dict[i] < sizes[ct->id])
            s->dict[i] = sizes[ct->id];
    }
}

/* One ORC file's rows and column ranges into s; false when it cannot be
 * read (its bytes then count instead). */
static bool add_orc_file(SqlStmtCtx *c, const SqlTable *t, const char *path,
                         struct LpGetStats *s)
{
    OrcReader *r;
    CombErr err;
    if (orc_reader_open(path, &r, &err))
        return false;
    s->rows += (double)orc_reader_n_rows(r);
    for (int i = 0; i < s->n; i++) {
        const CombType *ct = file_column(t, orc_reader_schema(r), i);
        OrcColumnStats st;
        if (!s->has_range[i])
            continue;
        if (!ct || orc_reader_column_stats(r, ct->id, &st)) {
            s->has_range[i] = false;
            continue;
        }
        if (!st.has_int) {
            s->has_range[i] = st.n_values == 0;   /* no values: no range */
            continue;
        }
        if (s->lo[i] > st.int_min)
            s->lo[i] = st.int_min;
        if (s->hi[i] < st.int_max)
            s->hi[i] = st.int_max;
    }
    if (orc_reader_n_rows(r) > 0)
        add_dicts(c, t, r, s);
    orc_reader_close(r);
    return true;
}

static void add_dir(SqlStmtCtx *c, const SqlTable *t, const char *path, int depth,
                    struct LpGetStats *s)
{
    char **names;
    int n;
    CombErr err;
    if (depth > MAX_DEPTH || fs_list_dir(path, c->arena, &names, &n, &err))
        return;
    for (int i = 0; i < n; i++) {
        char *p = comb_arena_printf(c->arena, "%s/%s", path, names[i]);
        uint64_t size;
        if (!p || names[i][0] == '.' || names[i][0] == '_' ||
            strncmp(names[i], "delete_delta_", 13) == 0)
            continue;
        if (fs_is_dir(p))
            add_dir(c, t, p, depth + 1, s);
        else if (t->format == SQL_FORMAT_ORC && add_orc_file(c, t, p, s))
            continue;
        else if (!fs_file_size(p, &size, &err)) {
            s->rows += (double)size / BYTES_PER_ROW;
            s->ranged = false;
        }
    }
}

/* n's filter over the positions of the table's columns (a GET's columns
 * are its table's, in order), as partition pruning reads a scan's filter;
 * NULL: no filter, or out of memory (then no partition is pruned). */
static BoundExpr *filter_by_position(SqlStmtCtx *c, const LpNode *n)
{
    int *ids;
    BoundExpr **with;
    if (!n->filter || !(ids = comb_arena_alloc(c->arena, (size_t)n->n_cols * sizeof *ids)) ||
        !(with = comb_arena_alloc(c->arena, (size_t)n->n_cols * sizeof *with)))
        return NULL;
    for (int j = 0; j < n->n_cols; j++) {
        ids[j] = n->cols[j].id;
        if (!(with[j] = sql_bx_new_type(c, BX_COL, n->cols[j].type, n->filter->pos)))
            return NULL;
        with[j]->col = j;
    }
    return sql_lp_expr_subst(c, n->filter, ids, with, n->n_cols);
}

/* The statistics of n's table, read at the first call; NULL unknown. */
static const struct LpGetStats *get_stats(SqlStmtCtx *c, LpNode *n)
{
    struct LpGetStats *s;
    SqlUnit *units;
    int n_units;
    bool whole;
    CombErr err;
    if (n->stats)
        return n->stats;
    if (!n->table->ms || !n->table->ms->location)
        return NULL;
    s = comb_arena_calloc(c->arena, sizeof *s);
    if (!s)
        return NULL;
    s->n = n->table->n_data;
    s->has_range = comb_arena_calloc(c->arena, (size_t)s->n + 1);
    s->lo = comb_arena_alloc(c->arena, ((size_t)s->n + 1) * sizeof *s->lo);
    s->hi = comb_arena_alloc(c->arena, ((size_t)s->n + 1) * sizeof *s->hi);
    s->dict = comb_arena_calloc(c->arena, ((size_t)s->n + 1) * sizeof *s->dict);
    if (!s->has_range || !s->lo || !s->hi || !s->dict)
        return NULL;
    for (int i = 0; i < s->n; i++) {
        s->has_range[i] = true;
        s->lo[i] = INT64_MAX;
        s->hi[i] = INT64_MIN;
    }
    s->ranged = true;
    /* only the partitions the scan's filter keeps: a join over a day of
     * a table partitioned by day must not open every day's footers */
    if (sql_table_units_pruned(c, n->table, filter_by_position(c, n), &units, &n_units,
                               &whole, &err))
        return NULL;
    for (int i = 0; i < n_units; i++)
        add_dir(c, n->table, units[i].dir, 0, s);
    n->stats = s;
    return s;
}

/* Distinct values of table column i of a GET before its filter. */
static double get_col_ndv(const LpNode *n, int i)
{
    const struct LpGetStats *s = n->stats;
    if (!s)
        return -1;
    if (i < s->n && s->ranged && s->has_range[i] && s->lo[i] <= s->hi[i])
        return min2(s->rows, (double)s->hi[i] - (double)s->lo[i] + 1);
    if (i < s->n && s->ranged && !s->has_range[i] && s->dict[i] > 0)
        return min2(s->rows, s->dict[i]);
    return s->rows;
}

/* Do the files bound column i's distinct values (a range, a dictionary)? */
static bool ndv_known(const LpNode *n, int i)
{
    const struct LpGetStats *s = n->stats;
    return s && i < s->n && s->ranged && (s->has_range[i] || s->dict[i] > 0);
}

/* e's column when e is one (under implicit conversions), else -1. */
static int expr_col(const BoundExpr *e)
{
    while (e->kind == BX_CAST && e->implicit)
        e = e->a;
    return e->kind == BX_COL ? e->col : -1;
}

/* What col_ndv gives: the distinct values of a column where it is read
 * (each node's rows cap them), the table's own (before any filter or
 * join), or the rows of the column's table. */
typedef enum NdvMode { NDV_HERE, NDV_TABLE, TABLE_ROWS } NdvMode;

static double col_ndv(SqlStmtCtx *c, const LpNode *n, int id, NdvMode cap);

static double node_col_ndv(SqlStmtCtx *c, const LpNode *n, int id, NdvMode cap)
{
    switch (n->kind) {
    case LP_GET:
        for (int i = 0; i < n->table->n_cols && i < n->n_cols; i++)
            if (n->cols[i].id == id)
                return cap == TABLE_ROWS ? (n->stats ? n->stats->rows : -1)
                                         : get_col_ndv(n, i);
        return -1;
    case LP_FILTER:
    case LP_SORT:
    case LP_LIMIT:
    case LP_WINDOW:
    case LP_LATERAL:
        return col_ndv(c, n->input, id, cap);
    case LP_JOIN:
        if (sql_lp_find_col(n->input, id))
            return col_ndv(c, n->input, id, cap);
        if (n->right && sql_lp_find_col(n->right, id))
            return col_ndv(c, n->right, id, cap);
        return -1;
    case LP_PROJECT:
        for (int j = 0; j < n->n_cols; j++)
            if (n->cols[j].id == id && expr_col(n->exprs[j]) >= 0)
                return col_ndv(c, n->input, expr_col(n->exprs[j]), cap);
        return -1;
    case LP_AGGREGATE:
        for (int j = 0; j < n->n_keys && j < n->n_cols; j++)
            if (n->cols[j].id == id && expr_col(n->keys[j]) >= 0)
                return col_ndv(c, n->input, expr_col(n->keys[j]), cap);
        return -1;
    default:
        return -1;
    }
}

static double col_ndv(SqlStmtCtx *c, const LpNode *n, int id, NdvMode cap)
{
    double d = node_col_ndv(c, n, id, cap);
    if (d < 0 && cap != NDV_HERE)
        return -1;
    if (d < 0 || (cap == NDV_HERE && n->est_rows >= 0 && d > n->est_rows))
        d = n->est_rows;
    return d < 1 && d >= 0 ? 1 : d;
}

double sql_lp_col_ndv(SqlStmtCtx *c, const LpNode *n, int id)
{
    return col_ndv(c, n, id, NDV_HERE);
}

/* ------------------------------------------------------------- filters */

static bool is_const(const BoundExpr *e)
{
    while (e->kind == BX_CAST)
        e = e->a;
    return e->kind == BX_CONST;
}

/* The fraction of a GET's rows conjunct e keeps (ndv before the filter). */
static double conjunct_sel(const LpNode *n, const BoundExpr *e);

/* k of the distinct values of column id: k / ndv where the files bound
 * them, else k times a tenth (c_comment = 'x' is not 1 row in 150,000
 * but an unknown string column may be o_orderstatus). */
static double col_sel(const LpNode *n, int id, double k)
{
    for (int i = 0; i < n->table->n_cols && i < n->n_cols; i++)
        if (n->cols[i].id == id) {
            double d = ndv_known(n, i) ? get_col_ndv(n, i) : -1;
            return min2(1, d > 0 ? k / d : k * DEFAULT_EQ_SEL);
        }
    return DEFAULT_SEL;
}

static double conjunct_sel(const LpNode *n, const BoundExpr *e)
{
    double sel;
    if (e->kind == BX_BINARY && e->op == AST_OP_AND) {   /* n-ary: args */
        sel = 1;
        for (int i = 0; i < e->n_args; i++)
            sel *= conjunct_sel(n, e->args[i]);
        return sel;
    }
    if (e->kind == BX_BINARY && e->op == AST_OP_OR) {
        sel = 0;
        for (int i = 0; i < e->n_args; i++)
            sel += conjunct_sel(n, e->args[i]);
        return min2(1, sel);
    }
    if (e->kind == BX_BINARY && e->op == AST_OP_EQ) {
        if (expr_col(e->a) >= 0 && is_const(e->b))
            return col_sel(n, expr_col(e->a), 1);
        if (expr_col(e->b) >= 0 && is_const(e->a))
            return col_sel(n, expr_col(e->b), 1);
    }
    if (e->kind == BX_IN && !e->negated && expr_col(e->a) >= 0)
        return col_sel(n, expr_col(e->a), e->n_args);
    if (e->kind == BX_LIKE)   /* patterns mostly pick few strings */
        return e->negated ? 1 - DEFAULT_EQ_SEL : DEFAULT_EQ_SEL;
    return DEFAULT_SEL;
}

typedef struct ReadsData {
    const LpNode *n;
    bool data;
} ReadsData;

static void note_col(void *ctx, int id)
{
    ReadsData *r = ctx;
    int j = 0;
    while (j < r->n->n_cols && r->n->cols[j].id != id)
        j++;
    if (j < r->n->table->n_data || j >= r->n->table->n_cols)
        r->data = true;
}

/* Whether conjunct e of n's filter reads a column besides the partition
 * columns: one over those alone has pruned the partitions get_stats
 * counted, and keeps all of their rows. */
static bool reads_data(const LpNode *n, const BoundExpr *e)
{
    ReadsData r = {n, false};
    sql_lp_expr_cols(e, note_col, &r);
    return r.data;
}

static double get_estimate(SqlStmtCtx *c, LpNode *n)
{
    const struct LpGetStats *s = get_stats(c, n);
    double rows;
    if (!s)
        return -1;
    rows = s->rows;
    for (int i = 0; n->filter && i < sql_bx_conjuncts(n->filter); i++) {
        const BoundExpr *e = sql_bx_conjunct(n->filter, i);
        if (reads_data(n, e))
            rows *= conjunct_sel(n, e);
    }
    return rows < 1 && s->rows >= 1 ? 1 : rows;
}

/* --------------------------------------------------------------- joins */

/* The key columns of one side of a join, combined: distinct values of
 * the key where it is read, and before any filter or join (at most its
 * tables' rows: a composite key's values are at most the rows holding
 * them). */
typedef struct KeySide {
    double here, table, rows;
} KeySide;

static void key_add(SqlStmtCtx *c, KeySide *k, const LpNode *n, int col)
{
    double here = sql_lp_col_ndv(c, n, col), table = col_ndv(c, n, col, NDV_TABLE),
           rows = col_ndv(c, n, col, TABLE_ROWS);
    k->here = here > 0 && k->here >= 0 ? k->here * here : -1;
    k->table = table > 0 && k->table >= 0 ? k->table * table : -1;
    if (rows > k->rows)
        k->rows = rows;
}

/* Collect the column equalities of cond between l and r. */
static void collect_keys(SqlStmtCtx *c, const BoundExpr *e, const LpNode *l,
                         const LpNode *r, KeySide *kl, KeySide *kr, int *n)
{
    int a, b;
    if (e->kind == BX_BINARY && e->op == AST_OP_AND) {
        for (int i = 0; i < e->n_args; i++)
            collect_keys(c, e->args[i], l, r, kl, kr, n);
        return;
    }
    if (e->kind != BX_BINARY || e->op != AST_OP_EQ)
        return;
    a = expr_col(e->a);
    b = expr_col(e->b);
    if (a < 0 || b < 0)
        return;
    if (sql_lp_find_col(l, b) && sql_lp_find_col(r, a)) {
        int t = a;
        a = b;
        b = t;
    }
    if (!sql_lp_find_col(l, a) || !sql_lp_find_col(r, b))
        return;
    key_add(c, kl, l, a);
    key_add(c, kr, r, b);
    (*n)++;
}

/* A side's distinct key values where joined: at most its rows, and by
 * containment (the values of a key are among the other's) at most the
 * other side's table's (l_orderkey's range says 6M values, o_orderkey's
 * table has 1.5M; lineitem's (partkey, suppkey) pairs are among
 * partsupp's 800,000 rows). */
static double side_ndv(const KeySide *k, const LpNode *n, const KeySide *other)
{
    double d = k->here, o = other->table;
    if (d < 0)
        return -1;
    if (n->est_rows >= 0 && d > n->est_rows)
        d = n->est_rows;
    if (o > 0 && other->rows > 0 && o > other->rows)
        o = other->rows;
    return o > 0 && d > o ? o : d;
}

double sql_lp_join_selectivity(SqlStmtCtx *c, const BoundExpr *cond,
                               const LpNode *l, const LpNode *r)
{
    KeySide kl = {1, 1, 0}, kr = {1, 1, 0};
    double dl, dr;
    int n = 0;
    if (cond)
        collect_keys(c, cond, l, r, &kl, &kr, &n);
    if (!n)
        return 1;
    dl = side_ndv(&kl, l, &kr);
    dr = side_ndv(&kr, r, &kl);
    if (dl <= 0 || dr <= 0)
        return 1;
    return 1 / max2(max2(dl, dr), 1);
}

static double join_estimate(SqlStmtCtx *c, const LpNode *n, double l, double r)
{
    double inner;
    switch (n->join) {
    case LP_JOIN_SEMI:
    case LP_JOIN_ANTI:
    case LP_JOIN_MARK:
    case LP_JOIN_SINGLE:
        return l;
    default:
        break;
    }
    inner = l * r * sql_lp_join_selectivity(c, n->cond, n->input, n->right);
    if (n->cond && inner >= l * r)
        inner = max2(l, r);   /* a condition without keys: as before */
    switch (n->join) {
    case LP_JOIN_LEFT:
        return max2(inner, l);
    case LP_JOIN_RIGHT:
        return max2(inner, r);
    case LP_JOIN_FULL:
        return max2(inner, l + r);
    default:
        return inner < 1 && l * r >= 1 ? 1 : inner;
    }
}

/* Groups: the product of the keys' distinct values where all are
 * columns, else half the input (per grouping set). */
static double aggregate_estimate(SqlStmtCtx *c, const LpNode *n, double l)
{
    double groups = 1;
    if (!n->n_keys)
        return 1;
    for (int k = 0; k < n->n_keys && groups >= 0; k++) {
        int col = expr_col(n->keys[k]);
        double d = col >= 0 ? sql_lp_col_ndv(c, n->input, col) : -1;
        groups = d > 0 ? groups * d : -1;
    }
    if (groups < 0 || groups > l / 2)
        groups = l / 2;
    return n->n_sets > 1 ? groups * n->n_sets : groups;
}

double sql_lp_estimate(SqlStmtCtx *c, LpNode *n)
{
    double l = n->input ? n->input->est_rows : -1;
    double r = n->right ? n->right->est_rows : -1;
    switch (n->kind) {
    case LP_GET:
        return get_estimate(c, n);
    case LP_VALUES:
        return n->n_rows;
    case LP_FILTER:
        return l < 0 ? -1 : l * DEFAULT_SEL;
    case LP_JOIN:
        if (l < 0 || r < 0)
            return -1;
        return join_estimate(c, n, l, r);
    case LP_AGGREGATE:
        return l < 0 ? -1 : aggregate_estimate(c, n, l);
    case LP_LIMIT:
        return n->limit >= 0 && (l < 0 || n->limit < l) ? (double)n->limit : l;
    case LP_SETOP:
        return l < 0 || r < 0 ? -1 : l + r;
    case LP_CTE:
        return n->input ? l : n->cte->plan->est_rows;
    default:
        return l;
    }
}
