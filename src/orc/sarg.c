/*
 * sarg.c - search arguments (sarg.h): building, simplifying, printing,
 * and evaluating them against column statistics and bloom filters.
 *
 * A leaf is evaluated over bounds [lo, hi] known to enclose every
 * non-NULL value of the group in the leaf's own domain (the constant's
 * type): exact minimum and maximum where the statistics are exact,
 * widened where they are not (timestamps in milliseconds), converted by
 * a non-decreasing function where the column has another numeric type
 * (an integer column compared as double or decimal: the comparison
 * converts the values the same way).  From enclosing bounds both answers
 * are safe: "some value may satisfy" is true whenever a value could, and
 * "some value may fail" is false only when every value provably
 * satisfies, which is what NOT relies on.
 */
#include "orc/sarg.h"

#include "orc/orc_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ORC writer versions (OrcFile.WriterVersion): string and decimal
 * statistics are trusted from HIVE_8732 on, timestamp statistics from
 * ORC_135 on (before it they were in the writer's local time). */
#define WRITER_HIVE_8732 1
#define WRITER_ORC_135 6

/* Timestamp statistics are milliseconds; writers before 1970 also store
 * instants with sub-millisecond nanos a second late (README): bounds are
 * widened by a second and a millisecond each way. */
#define TS_SLACK_NS ((comb_i128)1000000000 + 1000000)

/* CHAR padding probes of bloom filters stop at this many spaces. */
#define MAX_CHAR_PROBES 255

const char *orc_truth_name(OrcTruth t)
{
    static const char *const names[8] = {
        "NO", "YES", "NO", "YES_NO", "NULL", "YES_NULL", "NO_NULL",
        "YES_NO_NULL",
    };
    return names[t & 7];
}

/* ------------------------------------------------------------- building */

void orc_sarg_init(OrcSarg *s, CombArena *a)
{
    memset(s, 0, sizeof *s);
    s->arena = a;
}

static OrcSargNode *new_node(OrcSarg *s, OrcSargNodeKind kind)
{
    OrcSargNode *n = comb_arena_calloc(s->arena, sizeof *n);
    if (n)
        n->kind = kind;
    return n;
}

static int copy_values(OrcSarg *s, OrcSargLeaf *leaf)
{
    OrcSargValue *v;
    if (leaf->n_values == 0) {
        leaf->values = NULL;
        return COMB_OK;
    }
    v = comb_arena_alloc(s->arena, (size_t)leaf->n_values * sizeof *v);
    if (!v)
        return COMB_ENOMEM;
    memcpy(v, leaf->values, (size_t)leaf->n_values * sizeof *v);
    for (int i = 0; i < leaf->n_values && leaf->type == ORC_SARG_STRING; i++) {
        char *p = comb_arena_alloc(s->arena, v[i].s.len + 1);
        if (!p)
            return COMB_ENOMEM;
        if (v[i].s.len)
            memcpy(p, v[i].s.ptr, v[i].s.len);
        v[i].s.ptr = p;
    }
    leaf->values = v;
    return COMB_OK;
}

OrcSargNode *orc_sarg_leaf(OrcSarg *s, const OrcSargLeaf *leaf)
{
    OrcSargNode *n;
    OrcSargLeaf copy = *leaf;
    if (s->n_leaves == s->cap_leaves) {
        int cap = s->cap_leaves ? s->cap_leaves * 2 : 8;
        OrcSargLeaf *g = comb_arena_alloc(s->arena, (size_t)cap * sizeof *g);
        if (!g)
            return NULL;
        if (s->n_leaves)
            memcpy(g, s->leaves, (size_t)s->n_leaves * sizeof *g);
        s->leaves = g;
        s->cap_leaves = cap;
    }
    if ((copy.name && !(copy.name = comb_arena_strdup(s->arena, copy.name))) ||
        copy_values(s, &copy) || !(n = new_node(s, ORC_SARG_LEAF)))
        return NULL;
    n->leaf = s->n_leaves;
    s->leaves[s->n_leaves++] = copy;
    return n;
}

OrcSargNode *orc_sarg_node(OrcSarg *s, OrcSargNodeKind kind,
                           OrcSargNode *const *children, int n)
{
    OrcSargNode *node = new_node(s, kind);
    if (!node)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!children[i])
            return NULL;
    if (n > 0) {
        node->children = comb_arena_alloc(s->arena, (size_t)n * sizeof *children);
        if (!node->children)
            return NULL;
        memcpy(node->children, children, (size_t)n * sizeof *children);
    }
    node->n_children = n;
    return node;
}

/* Weaken the tree where it holds UNKNOWN: at a positive place (under an
 * even number of NOTs) a row must still give TRUE where the original
 * does, so an AND may drop unknown conjuncts and an OR holding one is
 * unknown; at a negative place FALSE must be kept, so the roles swap. */
static OrcSargNode *simplify(OrcSargNode *n, bool positive)
{
    bool drops = (n->kind == ORC_SARG_AND) == positive;
    int kept = 0;
    if (n->kind == ORC_SARG_LEAF || n->kind == ORC_SARG_UNKNOWN)
        return n;
    if (n->kind == ORC_SARG_NOT) {
        n->children[0] = simplify(n->children[0], !positive);
        return n->children[0]->kind == ORC_SARG_UNKNOWN ? n->children[0] : n;
    }
    for (int i = 0; i < n->n_children; i++) {
        OrcSargNode *c = simplify(n->children[i], positive);
        if (c->kind != ORC_SARG_UNKNOWN)
            n->children[kept++] = c;
        else if (!drops)
            return c;
    }
    if (kept == 0) {
        n->kind = ORC_SARG_UNKNOWN;
        n->n_children = 0;
        return n;
    }
    n->n_children = kept;
    return kept == 1 ? n->children[0] : n;
}

bool orc_sarg_simplify(OrcSarg *s)
{
    if (!s->root)
        return false;
    s->root = simplify(s->root, true);
    return s->root->kind != ORC_SARG_UNKNOWN;
}

/* ------------------------------------------------------------- printing */

static const char *op_name(OrcSargOp op)
{
    switch (op) {
    case ORC_SARG_EQ: return "EQUALS";
    case ORC_SARG_NSEQ: return "NULL_SAFE_EQUALS";
    case ORC_SARG_LT: return "LESS_THAN";
    case ORC_SARG_LE: return "LESS_THAN_EQUALS";
    case ORC_SARG_IN: return "IN";
    case ORC_SARG_BETWEEN: return "BETWEEN";
    case ORC_SARG_IS_NULL: return "IS_NULL";
    }
    return "?";
}

/* Days since 1970-01-01 as y-m-d (proleptic Gregorian). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static int print_date(CombBuf *out, int64_t days)
{
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    return comb_buf_printf(out, "%04lld-%02d-%02d", (long long)y, m, d);
}

static int print_timestamp(CombBuf *out, int64_t secs, int32_t nanos)
{
    int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    int64_t rem = secs - days * 86400;
    char frac[16];
    int n = snprintf(frac, sizeof frac, "%09d", (int)nanos);
    while (n > 1 && frac[n - 1] == '0')
        frac[--n] = '\0';
    return print_date(out, days) ||
           comb_buf_printf(out, " %02d:%02d:%02d.%s", (int)(rem / 3600),
                           (int)(rem / 60 % 60), (int)(rem % 60), frac);
}

static int print_value(CombBuf *out, OrcSargType t, const OrcSargValue *v)
{
    char buf[64];
    switch (t) {
    case ORC_SARG_LONG:
        return comb_buf_printf(out, "%lld", (long long)v->i);
    case ORC_SARG_BOOLEAN:
        return comb_buf_printf(out, "%s", v->i ? "true" : "false");
    case ORC_SARG_DOUBLE:
        return comb_buf_printf(out, "%.17g", v->d);
    case ORC_SARG_STRING:
        return comb_buf_append(out, v->s.ptr, v->s.len);
    case ORC_SARG_DATE:
        return print_date(out, v->i);
    case ORC_SARG_DECIMAL:
        orc_decimal_text(v->dec, v->scale, buf, sizeof buf);
        return comb_buf_printf(out, "%s", buf);
    case ORC_SARG_TIMESTAMP:
        return print_timestamp(out, v->i, v->nanos);
    }
    return COMB_OK;
}

static int print_leaf(CombBuf *out, int i, const OrcSargLeaf *l)
{
    int rc = comb_buf_printf(out, "leaf-%d = (%s %s", i, op_name(l->op),
                             l->name ? l->name : "?");
    for (int k = 0; k < l->n_values && !rc; k++)
        rc = comb_buf_printf(out, " ") || print_value(out, l->type, &l->values[k]);
    return rc || comb_buf_printf(out, "), ");
}

static int print_node(CombBuf *out, const OrcSargNode *n)
{
    static const char *const names[] = {"", "and", "or", "not", ""};
    int rc;
    if (n->kind == ORC_SARG_LEAF)
        return comb_buf_printf(out, "leaf-%d", n->leaf);
    if (n->kind == ORC_SARG_UNKNOWN)
        return comb_buf_printf(out, "YES_NO_NULL");
    rc = comb_buf_printf(out, "(%s", names[n->kind]);
    for (int i = 0; i < n->n_children && !rc; i++)
        rc = comb_buf_printf(out, " ") || print_node(out, n->children[i]);
    return rc || comb_buf_printf(out, ")");
}

/* Leaves the tree no longer uses (dropped by simplify) are not printed;
 * the numbers stay those of the leaves array. */
static void mark_used(const OrcSargNode *n, bool *used)
{
    if (n->kind == ORC_SARG_LEAF)
        used[n->leaf] = true;
    for (int i = 0; i < n->n_children; i++)
        mark_used(n->children[i], used);
}

int orc_sarg_print(const OrcSarg *s, CombBuf *out)
{
    bool used[s->n_leaves ? s->n_leaves : 1];
    int rc = COMB_OK;
    memset(used, 0, sizeof used);
    if (s->root)
        mark_used(s->root, used);
    for (int i = 0; i < s->n_leaves && !rc; i++)
        if (used[i])
            rc = print_leaf(out, i, &s->leaves[i]);
    if (rc)
        return COMB_ENOMEM;
    if (comb_buf_printf(out, "expr = ") ||
        (s->root ? print_node(out, s->root)
                 : comb_buf_printf(out, "YES_NO_NULL")))
        return COMB_ENOMEM;
    return COMB_OK;
}

/* ------------------------------------------------------ values compared */

static int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return alen < blen ? -1 : alen > blen;
}

/* 10^k for k in 0..38. */
static comb_i128 pow10_i128(int k)
{
    comb_i128 p = 1;
    while (k-- > 0)
        p *= 10;
    return p;
}

/* a at scale sa against b at scale sb, exactly: the one of smaller scale
 * is raised; when that overflows its magnitude exceeds anything the other
 * can hold, so its sign decides. */
static int dec_cmp(comb_i128 a, int sa, comb_i128 b, int sb)
{
    comb_i128 x;
    if (sa < sb) {
        if (__builtin_mul_overflow(a, pow10_i128(sb - sa), &x))
            return a < 0 ? -1 : 1;
        return x < b ? -1 : x > b;
    }
    if (sa > sb) {
        if (__builtin_mul_overflow(b, pow10_i128(sa - sb), &x))
            return b < 0 ? 1 : -1;
        return a < x ? -1 : a > x;
    }
    return a < b ? -1 : a > b;
}

/* NaN is kept out before anything is compared (value_outcomes). */
static int value_cmp(OrcSargType t, const OrcSargValue *a,
                     const OrcSargValue *b)
{
    switch (t) {
    case ORC_SARG_DOUBLE:
        return a->d < b->d ? -1 : a->d > b->d;
    case ORC_SARG_STRING:
        return bytes_cmp(a->s.ptr, a->s.len, b->s.ptr, b->s.len);
    case ORC_SARG_DECIMAL:
        return dec_cmp(a->dec, a->scale, b->dec, b->scale);
    case ORC_SARG_TIMESTAMP:
        /* bounds carry nanoseconds since 1970 in dec (see ts_bounds) */
        return a->dec < b->dec ? -1 : a->dec > b->dec;
    default:
        return a->i < b->i ? -1 : a->i > b->i;
    }
}

/* Hive's decimal text ("-12.5", "3", "1E+2" is not written) as unscaled
 * digits and scale; false when it is none (then the bounds are unknown). */
static bool parse_decimal(CombStr t, comb_i128 *out, int *scale)
{
    size_t i = 0;
    bool neg = false, any = false, dot = false;
    comb_i128 v = 0;
    int s = 0, digits = 0;
    if (i < t.len && (t.ptr[i] == '-' || t.ptr[i] == '+'))
        neg = t.ptr[i++] == '-';
    for (; i < t.len; i++) {
        char ch = t.ptr[i];
        if (ch == '.' && !dot) {
            dot = true;
            continue;
        }
        if (ch < '0' || ch > '9' || ++digits > 38)
            return false;
        v = v * 10 + (ch - '0');
        any = true;
        s += dot;
    }
    if (!any)
        return false;
    *out = neg ? -v : v;
    *scale = s;
    return true;
}

/* ------------------------------------------------- bounds from statistics */

/* string, varchar, char (comb_type_is_str counts binary too) */
static bool is_string_kind(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR;
}

static bool is_int_kind(CombTypeKind k)
{
    return k == COMB_T_TINYINT || k == COMB_T_SMALLINT || k == COMB_T_INT ||
           k == COMB_T_BIGINT;
}

/* A double column's bounds hold only without NaN, which min and max may
 * hide (comparisons skip it) but the sum cannot. */
static bool double_bounds(const OrcColumnStats *st, OrcSargValue *lo,
                          OrcSargValue *hi)
{
    if (!st->has_double || !st->has_dbl_sum || isnan(st->dbl_sum) ||
        isnan(st->dbl_min) || isnan(st->dbl_max))
        return false;
    lo->d = st->dbl_min;
    hi->d = st->dbl_max;
    return true;
}

/* The string bounds of values compared without trailing spaces: rtrim(v)
 * is a prefix of v, so max still bounds it from above; from below,
 * rtrim(v) >= min cut before its first byte below ' ' and then trimmed
 * (a value sorting after min can lose spaces only where min continues
 * with spaces and then ends or holds such a byte). */
static CombStr rtrim_lower(CombStr min)
{
    uint32_t n = 0;
    while (n < min.len && (unsigned char)min.ptr[n] >= ' ')
        n++;
    while (n > 0 && min.ptr[n - 1] == ' ')
        n--;
    return (CombStr){min.ptr, n};
}

static bool string_bounds(const OrcSargLeaf *leaf, const OrcSargColumn *col,
                          OrcSargValue *lo, OrcSargValue *hi)
{
    const OrcColumnStats *st = col->stats;
    if (!is_string_kind(col->kind) || !st->has_string ||
        col->writer_version < WRITER_HIVE_8732)
        return false;
    lo->s = leaf->rtrim ? rtrim_lower(st->str_min) : st->str_min;
    hi->s = st->str_max;
    return true;
}

static bool decimal_bounds(const OrcSargColumn *col, OrcSargValue *lo,
                           OrcSargValue *hi)
{
    const OrcColumnStats *st = col->stats;
    if (is_int_kind(col->kind) && st->has_int) {
        lo->dec = st->int_min;
        hi->dec = st->int_max;
        lo->scale = hi->scale = 0;
        return true;
    }
    return col->kind == COMB_T_DECIMAL && st->has_decimal &&
           col->writer_version >= WRITER_HIVE_8732 &&
           parse_decimal(st->dec_min, &lo->dec, &lo->scale) &&
           parse_decimal(st->dec_max, &hi->dec, &hi->scale);
}

static bool ts_bounds(const OrcSargColumn *col, OrcSargValue *lo,
                      OrcSargValue *hi)
{
    const OrcColumnStats *st = col->stats;
    if (col->kind != COMB_T_TIMESTAMP || !st->has_timestamp || st->ts_local ||
        col->writer_version < WRITER_ORC_135)
        return false;
    lo->dec = (comb_i128)st->ts_min_ms * 1000000 + st->ts_min_nanos - TS_SLACK_NS;
    hi->dec = (comb_i128)st->ts_max_ms * 1000000 + st->ts_max_nanos + TS_SLACK_NS;
    return true;
}

/* [lo, hi] enclosing the group's non-NULL values in the leaf's domain;
 * false when nothing is known (other type, no statistics, doubt). */
static bool stats_bounds(const OrcSargLeaf *leaf, const OrcSargColumn *col,
                         OrcSargValue *lo, OrcSargValue *hi)
{
    const OrcColumnStats *st = col->stats;
    CombTypeKind k = col->kind;
    switch (leaf->type) {
    case ORC_SARG_LONG:
    case ORC_SARG_DATE:
        if (!st->has_int || (leaf->type == ORC_SARG_LONG ? !is_int_kind(k)
                                                         : k != COMB_T_DATE))
            return false;
        lo->i = st->int_min;
        hi->i = st->int_max;
        return true;
    case ORC_SARG_DOUBLE:
        if (is_int_kind(k) && st->has_int) {
            /* (double) is non-decreasing: the comparison converts too */
            lo->d = (double)st->int_min;
            hi->d = (double)st->int_max;
            return true;
        }
        return comb_type_is_float(k) && double_bounds(st, lo, hi);
    case ORC_SARG_STRING:
        return string_bounds(leaf, col, lo, hi);
    case ORC_SARG_DECIMAL:
        return decimal_bounds(col, lo, hi);
    case ORC_SARG_TIMESTAMP:
        return ts_bounds(col, lo, hi);
    case ORC_SARG_BOOLEAN:
        if (k != COMB_T_BOOLEAN || !st->has_bucket || st->n_values == 0 ||
            st->true_count > st->n_values)
            return false;
        lo->i = st->true_count == st->n_values;
        hi->i = st->true_count > 0;
        return true;
    }
    return false;
}

/* A literal of the leaf's domain as a bound-comparable value. */
static OrcSargValue literal(const OrcSargLeaf *leaf, int i)
{
    OrcSargValue v = leaf->values[i];
    if (leaf->type == ORC_SARG_TIMESTAMP)
        v.dec = (comb_i128)v.i * 1000000000 + v.nanos;
    return v;
}

static bool in_range(const OrcSargLeaf *leaf, const OrcSargValue *lo,
                     const OrcSargValue *hi, const OrcSargValue *v)
{
    return value_cmp(leaf->type, lo, v) <= 0 && value_cmp(leaf->type, v, hi) <= 0;
}

/* Outcomes of non-NULL values within [lo, hi]. */
static OrcTruth range_outcomes(const OrcSargLeaf *leaf, const OrcSargValue *lo,
                               const OrcSargValue *hi)
{
    OrcSargType t = leaf->type;
    OrcSargValue a = literal(leaf, 0), b;
    bool yes = false, no = true;
    bool single = value_cmp(t, lo, hi) == 0;
    switch (leaf->op) {
    case ORC_SARG_EQ:
    case ORC_SARG_NSEQ:
        yes = in_range(leaf, lo, hi, &a);
        no = !single || value_cmp(t, lo, &a) != 0;
        break;
    case ORC_SARG_LT:
        yes = value_cmp(t, lo, &a) < 0;
        no = value_cmp(t, hi, &a) >= 0;
        break;
    case ORC_SARG_LE:
        yes = value_cmp(t, lo, &a) <= 0;
        no = value_cmp(t, hi, &a) > 0;
        break;
    case ORC_SARG_BETWEEN:
        b = literal(leaf, 1);
        yes = value_cmp(t, &a, &b) <= 0 && value_cmp(t, hi, &a) >= 0 &&
              value_cmp(t, lo, &b) <= 0;
        no = value_cmp(t, &a, &b) > 0 || value_cmp(t, lo, &a) < 0 ||
             value_cmp(t, hi, &b) > 0;
        break;
    case ORC_SARG_IN: {
        /* doubles match IN by their sign too (-0.0 is not 0.0), so a
         * group of zeros may still fail it */
        bool all_match = false;
        for (int i = 0; i < leaf->n_values; i++) {
            b = literal(leaf, i);
            yes = yes || in_range(leaf, lo, hi, &b);
            all_match = all_match || (single && value_cmp(t, lo, &b) == 0);
        }
        no = !all_match || t == ORC_SARG_DOUBLE;
        break;
    }
    case ORC_SARG_IS_NULL:
        break;
    }
    return (OrcTruth)((yes ? ORC_TV_YES : 0) | (no ? ORC_TV_NO : 0));
}

/* ------------------------------------------------------------- bloom */

static bool probe(const OrcSargColumn *col, const OrcBloomProbe *p)
{
    return col->bloom_test(col->bloom_ctx, p);
}

/* Whether the string s may be in the bloom filter: for a CHAR compared
 * without its padding, the value with any padding up to the length. */
static bool bloom_string(const OrcSargLeaf *leaf, const OrcSargColumn *col,
                         CombStr s)
{
    char buf[4096];
    OrcBloomProbe p = {ORC_BLOOM_BYTES, 0, 0, s.ptr, s.len, 0, 0};
    if (!leaf->rtrim)
        return probe(col, &p);
    if (leaf->char_length == 0 || s.len + MAX_CHAR_PROBES > sizeof buf)
        return true;
    memcpy(buf, s.ptr, s.len);
    p.bytes = buf;
    for (uint32_t k = 0; k <= MAX_CHAR_PROBES && k <= leaf->char_length; k++) {
        if (k)
            buf[s.len + k - 1] = ' ';
        p.len = s.len + k;
        if (probe(col, &p))
            return true;
    }
    return false;
}

/* Whether a timestamp may be in the bloom filter, whose entries are UTC
 * milliseconds, in the domain of the statistics (ts_bounds): floored
 * seconds * 1000 + the nanos' milliseconds of the value written.  A value
 * of the second before 1970 with nanos beyond the millisecond reads back
 * one second late (orc/README.md), under ORC C++'s and comb's entry for
 * the value written (ORC Java's is the one read back): a literal of the
 * first second of 1970 probes that earlier second's entry too. */
static bool timestamp_bloom(const OrcSargColumn *col, const OrcSargValue *v)
{
    OrcBloomProbe p = {ORC_BLOOM_LONG, 0, 0, NULL, 0, 0, 0};
    p.l = orc_timestamp_bloom_millis(v->i, v->nanos);
    if (probe(col, &p))
        return true;
    if (v->i != 0 || v->nanos <= 999999)
        return false;
    p.l = orc_timestamp_bloom_millis(-1, v->nanos);
    return probe(col, &p);
}

/* Whether literal i of the leaf may be in the group's bloom filter; true
 * for booleans. */
static bool bloom_may_hold(const OrcSargLeaf *leaf, const OrcSargColumn *col,
                           int i)
{
    const OrcSargValue *v = &leaf->values[i];
    OrcBloomProbe p = {ORC_BLOOM_LONG, v->i, 0, NULL, 0, v->dec, v->scale};
    switch (leaf->type) {
    case ORC_SARG_LONG:
        return !is_int_kind(col->kind) || probe(col, &p);
    case ORC_SARG_DATE:
        return col->kind != COMB_T_DATE || probe(col, &p);
    case ORC_SARG_DOUBLE:
        if (!comb_type_is_float(col->kind))
            return true;
        p.kind = ORC_BLOOM_DOUBLE;
        p.d = v->d;
        if (probe(col, &p))
            return true;
        /* = holds for -0.0 and 0.0 alike; their bits differ */
        p.d = -v->d;
        return v->d == 0 && probe(col, &p);
    case ORC_SARG_STRING:
        return !is_string_kind(col->kind) || bloom_string(leaf, col, v->s);
    case ORC_SARG_DECIMAL:
        p.kind = ORC_BLOOM_DECIMAL;
        return col->kind != COMB_T_DECIMAL || probe(col, &p);
    case ORC_SARG_TIMESTAMP:
        return col->kind != COMB_T_TIMESTAMP || timestamp_bloom(col, v);
    default:
        return true;
    }
}

static bool bloom_excludes(const OrcSargLeaf *leaf, const OrcSargColumn *col)
{
    if (!col->bloom_test || (leaf->op != ORC_SARG_EQ &&
                             leaf->op != ORC_SARG_NSEQ && leaf->op != ORC_SARG_IN))
        return false;
    for (int i = 0; i < leaf->n_values; i++)
        if (bloom_may_hold(leaf, col, i))
            return false;
    return true;
}

/* ------------------------------------------------------------- leaves */

static bool has_nan_literal(const OrcSargLeaf *leaf)
{
    for (int i = 0; i < leaf->n_values && leaf->type == ORC_SARG_DOUBLE; i++)
        if (isnan(leaf->values[i].d))
            return true;
    return false;
}

/* Outcomes of the group's non-NULL values. */
static OrcTruth value_outcomes(const OrcSargLeaf *leaf, const OrcSargColumn *col)
{
    OrcSargValue lo, hi;
    OrcTruth t;
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    if (leaf->n_values < (leaf->op == ORC_SARG_BETWEEN ? 2 : 1) ||
        has_nan_literal(leaf))
        return ORC_TV_YES_NO;
    t = stats_bounds(leaf, col, &lo, &hi) ? range_outcomes(leaf, &lo, &hi)
                                          : ORC_TV_YES_NO;
    if ((t & ORC_TV_YES) && bloom_excludes(leaf, col))
        t = ORC_TV_NO;
    return t;
}

OrcTruth orc_sarg_eval_leaf(const OrcSargLeaf *leaf, const OrcSargColumn *col)
{
    const OrcColumnStats *st;
    bool nulls, values;
    int t = 0;
    if (!col || !col->stats)
        return ORC_TV_YES_NO_NULL;
    st = col->stats;
    if (col->n_rows == 0)
        return ORC_TV_NO;
    /* a struct field has no entry where its struct is NULL: fewer values
     * than rows means NULLs even where hasNull says none */
    nulls = st->has_null || st->n_values < col->n_rows;
    values = st->n_values > 0;
    if (leaf->op == ORC_SARG_IS_NULL)
        t = (nulls ? ORC_TV_YES : 0) | (values ? ORC_TV_NO : 0);
    else {
        if (values)
            t = value_outcomes(leaf, col);
        if (nulls)
            t |= leaf->op == ORC_SARG_NSEQ ? ORC_TV_NO : ORC_TV_NULL;
    }
    return t ? (OrcTruth)t : ORC_TV_NO;
}

/* ------------------------------------------------------------- combining */

/* Outcome sets combined element by element: every pair of possible
 * outcomes (a, b) contributes op(a, b) in Kleene's logic. */
static OrcTruth combine(OrcTruth a, OrcTruth b, bool is_and)
{
    static const int bit[3] = {ORC_TV_YES, ORC_TV_NO, ORC_TV_NULL};
    int out = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int x = bit[i], y = bit[j];
            if (!(a & x) || !(b & y))
                continue;
            if (is_and)
                out |= (x == ORC_TV_NO || y == ORC_TV_NO) ? ORC_TV_NO
                       : (x == ORC_TV_NULL || y == ORC_TV_NULL) ? ORC_TV_NULL
                                                                : ORC_TV_YES;
            else
                out |= (x == ORC_TV_YES || y == ORC_TV_YES) ? ORC_TV_YES
                       : (x == ORC_TV_NULL || y == ORC_TV_NULL) ? ORC_TV_NULL
                                                                : ORC_TV_NO;
        }
    return (OrcTruth)out;
}

static OrcTruth negate(OrcTruth t)
{
    return (OrcTruth)((t & ORC_TV_NULL) | ((t & ORC_TV_YES) ? ORC_TV_NO : 0) |
                      ((t & ORC_TV_NO) ? ORC_TV_YES : 0));
}

static OrcTruth eval_node(const OrcSargNode *n, const OrcTruth *leaf_truth)
{
    OrcTruth t;
    switch (n->kind) {
    case ORC_SARG_LEAF:
        return leaf_truth[n->leaf];
    case ORC_SARG_NOT:
        return negate(eval_node(n->children[0], leaf_truth));
    case ORC_SARG_AND:
    case ORC_SARG_OR:
        t = eval_node(n->children[0], leaf_truth);
        for (int i = 1; i < n->n_children; i++)
            t = combine(t, eval_node(n->children[i], leaf_truth),
                        n->kind == ORC_SARG_AND);
        return t;
    case ORC_SARG_UNKNOWN:
        break;
    }
    return ORC_TV_YES_NO_NULL;
}

OrcTruth orc_sarg_eval(const OrcSarg *s, const OrcTruth *leaf_truth)
{
    if (!s->root)
        return ORC_TV_YES_NO_NULL;
    return eval_node(s->root, leaf_truth);
}
