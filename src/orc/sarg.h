/*
 * sarg.h - search arguments: the predicate a scan hands the ORC reader so
 * that it can skip whole files, stripes (and row groups) whose statistics
 * prove that no row there satisfies it.  The contract of sarg.c.
 *
 * A search argument is a tree of AND / OR / NOT over leaves; a leaf tests
 * one column against constants: =, null-safe =, <, <=, IN, BETWEEN and
 * IS NULL (<> > >= and the negated forms are NOT over these, as ORC's
 * SearchArgument has them).  Leaves name columns by the caller's number
 * (`column`); whoever opens a file maps them to that file's ORC column
 * ids (orc_reader_set_sarg), so one argument serves files whose layouts
 * differ (ACID files hold the user columns inside `row`).  A subtree the
 * builder does not understand is an ORC_SARG_UNKNOWN node: anything may
 * hold there.
 *
 * Evaluation is three-valued over sets of outcomes (ORC's TruthValue): a
 * leaf says which of TRUE, FALSE and NULL some row of a group can give,
 * AND / OR / NOT combine those sets, and a group can be skipped only when
 * TRUE is not among them.  Every doubt widens the set: missing
 * statistics, a column of another type than the constant, NaN or
 * infinities in a double column, writers whose statistics are known to
 * be wrong (strings and decimals of the original writer version,
 * timestamps before ORC-135 or in the writer's local time), timestamp
 * bounds kept in milliseconds (widened by a second), CHAR values compared
 * without their padding.  So a group the argument skips never holds a row
 * the predicate keeps; rows read are still filtered exactly by the query.
 *
 * Values: LONG and DATE in int64 (days for dates), DOUBLE in double,
 * STRING as bytes (compared as unsigned bytes, ORC's order), DECIMAL
 * unscaled at `scale`, TIMESTAMP wall-clock seconds since 1970 plus
 * nanos, BOOLEAN 0 / 1.  Everything lives in the arena it was built in.
 */
#ifndef COMB_ORC_SARG_H
#define COMB_ORC_SARG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/decimal.h"
#include "common/types.h"
#include "orc/orc.h"

/* Outcomes a group of rows can give: a set of ORC_TV_YES (TRUE),
 * ORC_TV_NO (FALSE) and ORC_TV_NULL; the combinations carry ORC's names.
 * A group may be skipped iff ORC_TV_YES is not in the set. */
typedef enum OrcTruth {
    ORC_TV_YES = 1,
    ORC_TV_NO = 2,
    ORC_TV_YES_NO = 3,
    ORC_TV_NULL = 4,
    ORC_TV_YES_NULL = 5,
    ORC_TV_NO_NULL = 6,
    ORC_TV_YES_NO_NULL = 7   /* MAYBE: nothing is known */
} OrcTruth;

/* ORC's names ("YES", "NO_NULL", "YES_NO_NULL"). */
const char *orc_truth_name(OrcTruth t);

static inline bool orc_truth_may_be_true(OrcTruth t)
{
    return (t & ORC_TV_YES) != 0;
}

typedef enum OrcSargOp {
    ORC_SARG_EQ,         /* column = v[0] */
    ORC_SARG_NSEQ,       /* column <=> v[0] (v[0] never NULL) */
    ORC_SARG_LT,         /* column < v[0] */
    ORC_SARG_LE,         /* column <= v[0] */
    ORC_SARG_IN,         /* column IN (v[0..n)) */
    ORC_SARG_BETWEEN,    /* v[0] <= column <= v[1] */
    ORC_SARG_IS_NULL     /* no values */
} OrcSargOp;

typedef enum OrcSargType {
    ORC_SARG_LONG,       /* tinyint .. bigint */
    ORC_SARG_DOUBLE,     /* float, double (integer columns convert) */
    ORC_SARG_STRING,     /* string, varchar, char */
    ORC_SARG_DATE,
    ORC_SARG_DECIMAL,    /* decimal (integer columns convert) */
    ORC_SARG_TIMESTAMP,
    ORC_SARG_BOOLEAN
} OrcSargType;

typedef struct OrcSargValue {
    int64_t i;           /* LONG, DATE, BOOLEAN; TIMESTAMP seconds */
    int32_t nanos;       /* TIMESTAMP */
    double d;            /* DOUBLE */
    CombStr s;           /* STRING (arena copy) */
    comb_i128 dec;       /* DECIMAL, unscaled at `scale` */
    int scale;
} OrcSargValue;

typedef struct OrcSargLeaf {
    OrcSargOp op;
    OrcSargType type;
    int column;          /* the caller's column number */
    const char *name;    /* for printing */
    /* STRING: the column's values compare without trailing spaces (a
     * CHAR column cast to string, Hive's CHAR comparison); char_length is
     * the CHAR's length (bloom filters probe the padded forms) */
    bool rtrim;
    uint32_t char_length;
    int n_values;
    OrcSargValue *values;
} OrcSargLeaf;

typedef enum OrcSargNodeKind {
    ORC_SARG_LEAF,
    ORC_SARG_AND,
    ORC_SARG_OR,
    ORC_SARG_NOT,        /* one child */
    ORC_SARG_UNKNOWN     /* a predicate the builder did not translate */
} OrcSargNodeKind;

typedef struct OrcSargNode {
    OrcSargNodeKind kind;
    int leaf;            /* ORC_SARG_LEAF: index into OrcSarg.leaves */
    int n_children;
    struct OrcSargNode **children;
} OrcSargNode;

typedef struct OrcSarg {
    OrcSargNode *root;
    int n_leaves;
    OrcSargLeaf *leaves;
    int cap_leaves;
    CombArena *arena;
} OrcSarg;

/* ------------------------------------------------------------- building */

/* An empty argument building in arena a (root NULL). */
void orc_sarg_init(OrcSarg *s, CombArena *a);

/* A leaf node: *leaf is copied (values and string bytes too).  NULL when
 * out of memory. */
OrcSargNode *orc_sarg_leaf(OrcSarg *s, const OrcSargLeaf *leaf);
/* AND / OR of n children (copied array), NOT of one, UNKNOWN.  NULL when
 * out of memory (a NULL child gives NULL too). */
OrcSargNode *orc_sarg_node(OrcSarg *s, OrcSargNodeKind kind,
                           OrcSargNode *const *children, int n);
static inline OrcSargNode *orc_sarg_not(OrcSarg *s, OrcSargNode *child)
{
    return orc_sarg_node(s, ORC_SARG_NOT, &child, 1);
}

/* Fold UNKNOWN through the tree (an AND drops its UNKNOWN children, an
 * OR or NOT holding one is UNKNOWN) and say whether anything is left to
 * test: false when the root is UNKNOWN or there is no root. */
bool orc_sarg_simplify(OrcSarg *s);

/* The argument as ORC prints a SearchArgument: "leaf-0 = (EQUALS id 42),
 * leaf-1 = ..., expr = (and leaf-0 (not leaf-1))". */
int orc_sarg_print(const OrcSarg *s, CombBuf *out);

/* ----------------------------------------------------------- evaluation */

/* A value as ORC's bloom filters hash it: integers, dates and booleans
 * as longs, timestamps as the long of their UTC milliseconds, floating
 * point as doubles (their bits), strings as their bytes, decimals as
 * their text (unscaled dec at scale). */
typedef struct OrcBloomProbe {
    enum { ORC_BLOOM_LONG, ORC_BLOOM_DOUBLE, ORC_BLOOM_BYTES,
           ORC_BLOOM_DECIMAL } kind;
    int64_t l;
    double d;
    const char *bytes;
    size_t len;
    comb_i128 dec;
    int scale;
} OrcBloomProbe;

/* What is known of one column in one group of rows (a file, a stripe, a
 * row group). */
typedef struct OrcSargColumn {
    CombTypeKind kind;            /* the file column's type */
    const OrcColumnStats *stats;  /* NULL: none */
    uint64_t n_rows;              /* rows of the group */
    uint32_t writer_version;      /* the footer's writerVersion */
    /* bloom filter of the group for = and IN, NULL none: false when the
     * value is certainly not in the group */
    bool (*bloom_test)(void *ctx, const struct OrcBloomProbe *probe);
    void *bloom_ctx;
} OrcSargColumn;

/* The outcomes `leaf` can give over the group; ORC_TV_YES_NO_NULL when
 * col is NULL (the file has no such column). */
OrcTruth orc_sarg_eval_leaf(const OrcSargLeaf *leaf, const OrcSargColumn *col);

/* The outcomes of the tree, given each leaf's (leaf_truth[i] for
 * leaves[i]). */
OrcTruth orc_sarg_eval(const OrcSarg *s, const OrcTruth *leaf_truth);

#endif
