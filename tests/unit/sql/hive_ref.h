/*
 * hive_ref.h - a small, independent model of Apache Hive 4's expression
 * semantics, used as the reference of the differential expression test
 * (test_difftest.c) and checked on its own against the cases of issue 5
 * (test_hive_ref.c).
 *
 * It parses the subset of HiveQL the generator emits, types it with Hive's
 * rules (FunctionRegistry.getCommonClass*, GenericUDFBaseNumeric,
 * GenericUDFBaseCompare, TypeCheckProcFactory's constant narrowing, ...),
 * evaluates it over rows of typed values with Java semantics (wrapping
 * integers, Java's narrowing casts, Double.parseDouble, LazyInteger) and
 * prints results as Hive does (Double.toString, padded CHAR columns).  It
 * shares no code with comb's sql/ layer on purpose: only the test arena
 * comes from common/.
 *
 * Where Hive's answer could not be established from its source, binding
 * says HB_EXCLUDE (the generator drops the expression) or evaluation says
 * HE_UNKNOWN (the cell is not compared); hive_ref.c lists every such case
 * at the top.  Ownership: everything lives in the HRef's arenas; parse and
 * bind results stay valid until href_free().
 */
#ifndef COMB_TEST_HIVE_REF_H
#define COMB_TEST_HIVE_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

typedef enum HType {
    HT_VOID,        /* the type of the literal NULL */
    HT_BOOLEAN,
    HT_TINYINT,
    HT_SMALLINT,
    HT_INT,
    HT_BIGINT,
    HT_FLOAT,
    HT_DOUBLE,
    HT_STRING,
    HT_VARCHAR,
    HT_CHAR,
    HT_DECIMAL
} HType;

typedef struct HTy {
    HType t;
    int len;        /* declared length of VARCHAR / CHAR, else 0 */
    int prec, scale; /* DECIMAL(prec, scale), else 0 */
} HTy;

/* A BigDecimal: |value| = digits * 10^-scale (digits most significant
 * first, no leading zeros but a lone 0). */
typedef struct HDec {
    bool neg;
    int nd;
    int scale;
    char d[200];
} HDec;

/* A typed value.  FLOAT values are kept as the double of the float. */
typedef struct HVal {
    HTy ty;
    bool null;
    int64_t i;      /* BOOLEAN (0/1) and the integer types */
    double d;       /* FLOAT, DOUBLE */
    const char *s;  /* STRING/VARCHAR/CHAR bytes (UTF-8); a CHAR keeps the
                     * text Hive stores, padded or not (see hive_ref.c) */
    size_t n;
    const HDec *dec; /* DECIMAL (in the HRef's arenas) */
} HVal;

typedef struct HExpr HExpr;

/* Result of binding (typing) an expression. */
typedef enum HBind {
    HB_OK,
    HB_REJECT,      /* Hive rejects it at compile time */
    HB_EXCLUDE      /* Hive's answer is not modelled here (see hive_ref.c) */
} HBind;

/* Result of evaluating one cell. */
typedef enum HEval {
    HE_OK,
    HE_UNKNOWN,     /* Hive's answer for these values is not established */
    HE_MODE         /* differs between row-mode (GenericUDF) and vectorized
                     * execution, so Hive itself has no single answer */
} HEval;

#define HREF_MAX_COLS 16
#define HREF_MAX_ROWS 64

typedef struct HRef {
    int n_cols;
    const char *col_names[HREF_MAX_COLS];
    HTy col_types[HREF_MAX_COLS];
    int n_rows;
    HVal rows[HREF_MAX_ROWS][HREF_MAX_COLS];
    CombArena arena;   /* parse trees, bound trees, table values */
    CombArena scratch; /* values of one evaluation; reset by href_eval */
    char why[256];     /* reason of the last REJECT/EXCLUDE/UNKNOWN */
} HRef;

/* An empty reference table with the given columns. */
void href_init(HRef *r, int n_cols, const char *const *names, const HTy *types);
void href_free(HRef *r);

/* Append a row given as one SQL expression per column (literals, casts of
 * literals, NULL): each is evaluated and converted to the column's type as
 * Hive's INSERT does.  false (reason in r->why) if one is not modelled. */
bool href_add_row(HRef *r, const char *const *cells);

/* Parse one expression.  NULL (message in r->why) on a syntax error. */
HExpr *href_parse(HRef *r, const char *sql);

/* Type the expression with Hive's rules. */
HBind href_bind(HRef *r, HExpr *e);

/* Evaluate a bound expression on row `row` (0-based) and print the result
 * as Hive prints it into buf.  Evaluates in both execution modes. */
HEval href_eval(HRef *r, HExpr *e, int row, char *buf, size_t n);

/* Hive's printed text of a stored table value. */
void href_format_cell(HRef *r, int row, int col, char *buf, size_t n);

/* Sub-expressions of a bound tree, children before parents, and their
 * source text (a slice of the parsed string). */
int href_subexprs(HExpr *e, HExpr **out, int max);
int href_kids(HExpr *e, HExpr **out, int max);
/* A literal, or a constant Hive narrowed to a column's type. */
bool href_is_literal(const HExpr *e);
const char *href_text(HRef *r, const HExpr *e);

/* "op(argtypes)->type" naming the node's operation for reports. */
const char *href_signature(HRef *r, const HExpr *e);

/* The class a difference at this node is reported under: the signature
 * with CHAR/VARCHAR lengths dropped, comparisons grouped as equality or
 * ordering, operands of symmetric operators sorted. */
const char *href_class(HRef *r, const HExpr *e);

/* Columns referenced by the expression, as a bit set. */
uint32_t href_columns(const HExpr *e);

/* Hive's printed result type name ("int", "varchar(5)", ...). */
const char *href_type_name(HRef *r, HTy t);

/* Java's Double.toString / Float.toString. */
void href_java_double(double d, char *buf, size_t n);
void href_java_float(float f, char *buf, size_t n);

/* The order Hive 4 sorts doubles in (BinarySortableSerDe: -0.0 before
 * 0.0, NaN after +Infinity): <0, 0, >0. */
int href_sort_cmp_double(double a, double b);

/* Row indexes in the order of Hive 4's ORDER BY col [DESC], <column 0>
 * (ASC NULLS LAST, DESC NULLS FIRST).  CHAR columns are not supported. */
void href_order(const HRef *r, int col, bool desc, int *out);

#endif
