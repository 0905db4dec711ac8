/*
 * sqldiff.c - the differential query test (issue 8, acceptance 2): random
 * tables with NULLs and thousands of random queries run through a comb
 * session and through SQLite (its C API, an in-memory database) on the
 * same rows; the results must be equal as multisets, or in order where
 * ORDER BY is total.
 *
 *   sqldiff [-v] [--seed N] [--rounds N] [--queries N] [--seconds S]
 *           [--features LIST] [WAREHOUSE_DIR]
 *
 * Each round makes a database of tables with random columns (INT, BIGINT,
 * DOUBLE, STRING, DECIMAL(10,2), DATE, BOOLEAN): plain ORC, TEXTFILE and
 * full-ACID ORC tables, the ACID ones changed by random UPDATE and DELETE
 * statements applied identically to both engines, then runs its share of
 * the queries.  Everything is a function of the seed; --seconds only cuts
 * a run short (reported, not failed).  COMB_SQLDIFF_LONG=1 runs the long
 * mode (20 rounds of 5,000 queries); COMB_SQLDIFF_SEED, _ROUNDS, _QUERIES
 * and _FEATURES set the others.
 *
 * comb runs in this process (a sanitizer report names the query it died
 * on); SQLite in an in-memory database per round.
 *
 * Features beyond single-table queries are off unless listed: distinct
 * (DISTINCT inside aggregates), join (inner, outer, semi, cross and comma
 * joins of two tables and sometimes a third, on equalities, `<=>` or
 * comparisons that are no equality), subquery (IN / NOT IN over columns
 * holding NULLs, EXISTS / NOT EXISTS, scalar aggregates in WHERE and in
 * the select list, correlated or not), setop (UNION [ALL], INTERSECT,
 * EXCEPT), window (ranking and aggregates OVER), cte (WITH).  "all" lists
 * them all; tests/run.sh runs with all.
 *
 * Every semantic difference between Hive and SQLite is mapped here, where
 * each expression is generated as a pair of texts (Hive, SQLite):
 *  - `/` is double division in Hive: SQLite gets CAST(a AS REAL) / b; a
 *    decimal operand is cast to DOUBLE on both sides (Hive's decimal
 *    division has its own result scale).  `x/0` is NULL in both.
 *  - `DIV` (integers only) is SQLite's integer `/`; `%` only on integers
 *    (SQLite's `%` casts REALs to integers); both truncate toward zero.
 *  - pmod(a, b) is ((a % b) + b) % b in SQLite.
 *  - Integer arithmetic wraps at 32 bits in Hive: products are only of two
 *    leaves of at most 1000 in magnitude, BIGINTs are never multiplied.
 *  - String comparison is by bytes in both (ASCII data, SQLite's BINARY
 *    collation).  LIKE is case-sensitive in Hive: SQLite gets GLOB with
 *    `%`/`_` turned into `*`/`?` (the data has no GLOB metacharacters).
 *  - NULL order: Hive 4 sorts NULLs last ascending and first descending
 *    (hive.default.nulls.last); SQLite is told explicitly every time.
 *  - avg of integers is DOUBLE in both; avg(DECIMAL(p,s)) has scale s+4 in
 *    Hive, rounded HALF_UP: SQLite's double is rounded the same way at the
 *    scale the generator tracks for every decimal expression (+ - keep the
 *    larger scale, * adds them, sum keeps it, avg adds 4, round gives 0).
 *  - A decimal literal's type is that of its value without trailing zeros
 *    (HiveDecimal normalizes): 2.50 is DECIMAL(2,1), 3.00 DECIMAL(1,0).
 *  - DECIMAL is REAL in SQLite; data values are multiples of 0.25, so sums
 *    and products are exact in binary and compare as Hive's decimals.
 *  - Doubles print as Java does ("1.0E20") in comb: cells of numeric columns
 *    compare as numbers (doubles to 10 significant digits, -0 as 0).
 *  - DOUBLE sums and averages add in each engine's own order: they may
 *    differ by a slack that depends on the addends' size (sum_slack).
 *  - BOOLEAN prints true/false in comb, 1/0 in SQLite.
 *  - DATE is TEXT yyyy-mm-dd in SQLite: literals lose the DATE keyword,
 *    year/month/day are strftime, datediff is a julianday difference,
 *    date_add/date_sub are date(d, '+n days').
 *  - floor/ceil of a double are BIGINT in Hive: SQLite gets the integer
 *    formula; round(x) rounds half away from zero in both.
 *  - if(c, a, b) is CASE; nvl is coalesce; `<=>` is IS; isnull/isnotnull
 *    are IS [NOT] NULL; concat(a, b) is a || b (NULL if either is NULL);
 *    locate(sub, s) is instr(s, sub); quarter is (month + 2) / 3.
 *  - lpad/rpad (one-character pads, cutting longer strings to n) and
 *    repeat are built from replace(hex(zeroblob(n)), '00', ...) in SQLite;
 *    last_day and trunc(d, 'MM'|'YEAR') are date() modifiers (their Hive
 *    results are STRINGs: cast to DATE).  instr/locate search for
 *    non-empty literals only (Hive fails on an empty search string).
 *  - CAST of strings to numbers differs (Hive: NULL for bad text, SQLite:
 *    the numeric prefix) and is not generated.  CAST(double AS INT) is
 *    Java's narrowing in Hive (truncated, clamped to the INT range): SQLite
 *    gets max(-2147483648, min(2147483647, CAST(x AS INTEGER))).
 *    CAST(bigint AS INT) wraps in Hive and is not generated.
 *  - -0.0 sorts and groups apart from 0.0 in Hive (Double.compare), not in
 *    SQLite: doubles are never negated nor multiplied by anything that
 *    could be 0, and Hive's quotients and round() get `+ 0.0D` (which
 *    turns -0.0 into 0.0).
 *  - GROUP BY: SQLite folds `x AND 0` to the constant 0 and takes a
 *    constant integer for a column position, so its GROUP BY names the
 *    output aliases (c0, c1, ...) where Hive's repeats the expressions.
 *  - count of an empty input is 0 and sum/avg/min/max NULL in both; a
 *    global aggregate over no rows gives one row in both.
 *  - SQLite 3.40.1 (Debian 12) drops the WHERE of one branch of a UNION ALL
 *    in a FROM subquery when the other branch has a RIGHT or FULL join
 *    (SELECT * FROM (SELECT 20 FROM t1 WHERE <false> UNION ALL SELECT 3.25
 *    FROM t1 a FULL JOIN t0 b ON a.i0 = b.i0) u returns t1's rows): set
 *    operations get no RIGHT or FULL joins.
 *  - LIMIT is only generated under an ORDER BY of every output column, so
 *    the rows kept are determined.
 */
#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "fs/fs.h"
#include "sql/func/value.h"
#include "sql/session.h"

/* ----------------------------------------------------------- utilities */

static void die(const char *what)
{
    fprintf(stderr, "sqldiff: %s\n", what);
    exit(2);
}

/* Strings of one query: freed together by pool_reset. */
static char **pool;
static size_t pool_n, pool_cap;

static char *keep(char *s)
{
    if (!s)
        die("out of memory");
    if (pool_n == pool_cap) {
        pool_cap = pool_cap ? pool_cap * 2 : 256;
        pool = realloc(pool, pool_cap * sizeof *pool);
        if (!pool)
            die("out of memory");
    }
    pool[pool_n++] = s;
    return s;
}

static void pool_reset(void)
{
    for (size_t i = 0; i < pool_n; i++)
        free(pool[i]);
    pool_n = 0;
}

__attribute__((format(printf, 1, 2))) static char *fmt(const char *f, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, f);
    if (vasprintf(&s, f, ap) < 0)
        s = NULL;
    va_end(ap);
    return keep(s);
}

static uint64_t rng_state;

static uint64_t rnd64(void)
{
    /* xorshift64*: the same stream on every machine */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static int rnd(int n)  /* 0 .. n-1 */
{
    return (int)(rnd64() % (uint64_t)n);
}

static bool chance(int percent)
{
    return rnd(100) < percent;
}

/* --------------------------------------------------------------- types */

typedef enum Ty { T_INT, T_BIGINT, T_DOUBLE, T_DEC, T_STR, T_DATE, T_BOOL, T_N } Ty;

static const char *const hive_type_name[T_N] = {
    "INT", "BIGINT", "DOUBLE", "DECIMAL(10,2)", "STRING", "DATE", "BOOLEAN"};
static const char *const lite_type_name[T_N] = {
    "INTEGER", "INTEGER", "REAL", "REAL", "TEXT", "TEXT", "INTEGER"};

static bool ty_int(Ty t) { return t == T_INT || t == T_BIGINT; }
static bool ty_num(Ty t) { return t <= T_DEC; }

/* One generated expression: its text for each engine, Hive's type and,
 * for DECIMAL, Hive's scale. */
typedef struct Ex {
    const char *h, *l;
    Ty t;
    int scale;
    bool leaf;      /* column or literal: safe to multiply */
    bool nonzero;   /* never 0 (a literal): doubles may be multiplied by it */
    double slack;   /* absolute difference the engines' rounding may leave */
} Ex;

typedef struct Col {
    const char *name;   /* as referenced in the scope (maybe qualified) */
    Ty t;
} Col;

#define MAX_COLS 16

typedef struct Scope {
    int n;
    Col col[MAX_COLS * 2];
} Scope;

typedef struct Table {
    char name[32];
    int kind;           /* 0 ORC, 1 TEXTFILE, 2 full-ACID ORC */
    int n_cols;
    Col col[MAX_COLS];
    char col_names[MAX_COLS][16];
} Table;

typedef struct World {  /* one round's tables */
    Table tab[4];
    int n_tab;
    unsigned features;
} World;

static void scope_of_table(const Table *t, const char *qual, Scope *sc)
{
    for (int i = 0; i < t->n_cols && sc->n < MAX_COLS * 2; i++) {
        sc->col[sc->n].name = qual ? fmt("%s.%s", qual, t->col[i].name) : t->col[i].name;
        sc->col[sc->n].t = t->col[i].t;
        sc->n++;
    }
}

/* ------------------------------------------------------------ literals */

static const char *const words[] = {"a", "b", "ab", "Ab", "abc", "B", "ba", "", "x y",
                                    "zz", "hello", "Hello", "A", "bb"};
#define N_WORDS (int)(sizeof words / sizeof words[0])

static Ex lit(Ty t)
{
    Ex e = {0};
    e.t = t;
    e.leaf = true;
    switch (t) {
    case T_INT: {
        int v = chance(85) ? rnd(41) - 20 : rnd(2001) - 1000;
        e.h = e.l = v < 0 ? fmt("(%d)", v) : fmt("%d", v);
        e.nonzero = v != 0;
        break;
    }
    case T_BIGINT: {
        long long v = (chance(50) ? 1 : -1) * (5000000000LL + rnd(1000));
        e.h = e.l = fmt("(%lld)", v);
        e.nonzero = true;
        break;
    }
    case T_DOUBLE: {
        int k = rnd(81) - 40;
        e.h = fmt("(%.2fD)", k / 4.0);
        e.l = fmt("(%.2f)", k / 4.0);
        e.nonzero = k != 0;
        break;
    }
    case T_DEC: {
        int k = rnd(81) - 40;
        e.h = e.l = fmt("(%.2f)", k / 4.0);
        e.scale = k % 4 == 0 ? 0 : k % 2 == 0 ? 1 : 2;   /* HiveDecimal drops trailing zeros */
        e.nonzero = k != 0;
        break;
    }
    case T_STR:
        e.h = e.l = fmt("'%s'", words[rnd(N_WORDS)]);
        break;
    case T_DATE: {
        time_t base = 1577836800 + (time_t)rnd(800) * 86400; /* 2020-01-01 + k */
        struct tm tm;
        char d[16];
        gmtime_r(&base, &tm);
        strftime(d, sizeof d, "%Y-%m-%d", &tm);
        e.h = fmt("DATE '%s'", d);
        e.l = fmt("'%s'", d);
        break;
    }
    case T_BOOL:
        if (chance(50)) {
            e.h = "TRUE";
            e.l = "1";
        } else {
            e.h = "FALSE";
            e.l = "0";
        }
        break;
    default:
        die("bad type");
    }
    return e;
}

/* A row value for INSERT: a literal or NULL (15%). */
static Ex value(Ty t)
{
    Ex e;
    if (chance(15)) {
        e = (Ex){"NULL", "NULL", t, t == T_DEC ? 2 : 0, true, false};
        return e;
    }
    return lit(t);
}

/* --------------------------------------------------------- expressions */

typedef struct Gen {
    const Scope *sc;
    unsigned features;
    const World *w;   /* tables for subqueries; NULL: none */
} Gen;

enum { F_DISTINCT = 1, F_JOIN = 2, F_SUBQ = 4, F_SETOP = 8, F_WINDOW = 16, F_CTE = 32 };

static Ex gen(const Gen *g, Ty t, int depth);
static Ex gen_bool(const Gen *g, int depth);
static Ex gen_agg(const Gen *g);

static const Col *pick_col(const Scope *sc, Ty t)
{
    int n = 0, k;
    for (int i = 0; i < sc->n; i++)
        n += sc->col[i].t == t;
    if (n == 0)
        return NULL;
    k = rnd(n);
    for (int i = 0; i < sc->n; i++)
        if (sc->col[i].t == t && k-- == 0)
            return &sc->col[i];
    return NULL;
}

static Ex col_ex(const Col *c)
{
    Ex e = {c->name, c->name, c->t, c->t == T_DEC ? 2 : 0, true, false};
    return e;
}

static Ex leaf(const Gen *g, Ty t)
{
    const Col *c = chance(75) ? pick_col(g->sc, t) : NULL;
    return c ? col_ex(c) : lit(t);
}

/* Hive's common type of two numeric operands of + - CASE COALESCE. */
static Ty num_common(Ty a, Ty b)
{
    if (a == T_DOUBLE || b == T_DOUBLE)
        return T_DOUBLE;
    if (a == T_DEC || b == T_DEC)
        return T_DEC;
    if (a == T_BIGINT || b == T_BIGINT)
        return T_BIGINT;
    return T_INT;
}

static int max_i(int a, int b) { return a > b ? a : b; }

static Ty num_type(void)
{
    static const Ty k[] = {T_INT, T_INT, T_BIGINT, T_DOUBLE, T_DEC};
    return k[rnd(5)];
}

/* An expression for a CASE/COALESCE branch: a number of t's type or a
 * narrower one (the common type is then t itself), else of type t. */
static Ex branch(const Gen *g, Ty t, int depth)
{
    static const Ty narrower[][4] = {[T_BIGINT] = {T_INT}, [T_DOUBLE] = {T_INT, T_BIGINT, T_DEC},
                                     [T_DEC] = {T_INT, T_BIGINT}};
    if ((t == T_BIGINT || t == T_DOUBLE || t == T_DEC) && chance(30))
        return gen(g, narrower[t][rnd(t == T_BIGINT ? 1 : t == T_DEC ? 2 : 3)], depth);
    return gen(g, t, depth);
}

/* A DECIMAL meeting a DOUBLE in a comparison or a CASE/COALESCE would
 * make a DECIMAL(23,15) in Hive (getCommonClass), which is NULL where a
 * double of 9 integer digits meets it: the DECIMAL side is cast to DOUBLE. */
static void unify_num(Ex *a, Ex *b)
{
    Ex *d = a->t == T_DEC && b->t == T_DOUBLE ? a : b->t == T_DEC && a->t == T_DOUBLE ? b : NULL;
    if (d) {
        d->h = fmt("CAST(%s AS DOUBLE)", d->h);
        d->t = T_DOUBLE;
        d->scale = 0;
    }
}

static Ex conditional(const Gen *g, Ty t, int depth)
{
    Ex a = gen(g, t, depth - 1), b = branch(g, t, depth - 1), c, e = {0};
    if (chance(50)) {   /* the narrower branch first or second */
        Ex x = a;
        a = b;
        b = x;
    }
    unify_num(&a, &b);
    e.t = ty_num(t) ? num_common(a.t, b.t) : t;
    e.scale = max_i(a.t == T_DEC ? a.scale : 0, b.t == T_DEC ? b.scale : 0);
    switch (rnd(4)) {
    case 0:
        c = gen_bool(g, depth - 1);
        e.h = fmt("CASE WHEN %s THEN %s ELSE %s END", c.h, a.h, b.h);
        e.l = fmt("CASE WHEN %s THEN %s ELSE %s END", c.l, a.l, b.l);
        break;
    case 1:
        c = gen_bool(g, depth - 1);
        e.h = fmt("if(%s, %s, %s)", c.h, a.h, b.h);
        e.l = fmt("CASE WHEN %s THEN %s ELSE %s END", c.l, a.l, b.l);
        break;
    case 2:
        e.h = fmt("%s(%s, %s)", chance(50) ? "coalesce" : "nvl", a.h, b.h);
        e.l = fmt("coalesce(%s, %s)", a.l, b.l);
        break;
    default:
        if (t == T_BOOL) {   /* greatest over booleans: not generated */
            e.h = fmt("coalesce(%s, %s)", a.h, b.h);
            e.l = fmt("coalesce(%s, %s)", a.l, b.l);
        } else {
            bool gt = chance(50);
            e.h = fmt("%s(%s, %s)", gt ? "greatest" : "least", a.h, b.h);
            e.l = fmt("%s(%s, %s)", gt ? "max" : "min", a.l, b.l);
        }
        break;
    }
    return e;
}

/* Integer expressions: INT or BIGINT as asked. */
static Ex gen_int(const Gen *g, Ty t, int depth)
{
    Ex a, b, e = {0};
    e.t = t;
    switch (rnd(14)) {
    case 0: case 1: {   /* + - */
        bool plus = chance(50);
        a = gen(g, t == T_BIGINT && chance(50) ? T_INT : t, depth - 1);
        b = gen(g, chance(50) ? T_INT : t, depth - 1);
        e.t = num_common(a.t, b.t);
        e.h = fmt("(%s %s %s)", a.h, plus ? "+" : "-", b.h);
        e.l = fmt("(%s %s %s)", a.l, plus ? "+" : "-", b.l);
        return e;
    }
    case 2:   /* products of two small leaves only: Hive's INT wraps */
        a = leaf(g, T_INT);
        b = leaf(g, T_INT);
        e.t = T_INT;
        e.h = fmt("(%s * %s)", a.h, b.h);
        e.l = fmt("(%s * %s)", a.l, b.l);
        return e;
    case 3:
        a = gen(g, chance(70) ? T_INT : T_BIGINT, depth - 1);
        b = gen(g, T_INT, depth - 1);
        e.t = T_BIGINT;
        e.h = fmt("(%s DIV %s)", a.h, b.h);
        e.l = fmt("(%s / %s)", a.l, b.l);
        return e;
    case 4: {
        bool pm = chance(30);
        a = gen(g, t, depth - 1);
        b = gen(g, T_INT, depth - 1);
        e.t = num_common(a.t, b.t);
        if (pm) {
            e.h = fmt("pmod(%s, %s)", a.h, b.h);
            e.l = fmt("(((%s %% %s) + %s) %% %s)", a.l, b.l, b.l, b.l);
        } else {
            e.h = fmt("(%s %% %s)", a.h, b.h);
            e.l = fmt("(%s %% %s)", a.l, b.l);
        }
        return e;
    }
    case 5:
        a = gen(g, t, depth - 1);
        e.t = a.t;
        if (chance(50)) {
            e.h = fmt("abs(%s)", a.h);
            e.l = fmt("abs(%s)", a.l);
        } else {
            e.h = fmt("(-%s)", a.h);
            e.l = fmt("(-%s)", a.l);
        }
        return e;
    case 6:
        a = gen(g, T_STR, depth - 1);
        e.t = T_INT;
        e.h = fmt("length(%s)", a.h);
        e.l = fmt("length(%s)", a.l);
        return e;
    case 7: {
        static const char *const part[] = {"year", "month", "day"};
        static const char *const spec[] = {"%Y", "%m", "%d"};
        int k = rnd(3);
        a = gen(g, T_DATE, depth - 1);
        e.t = T_INT;
        if (chance(25)) {
            b = gen(g, T_DATE, depth - 1);
            e.h = fmt("datediff(%s, %s)", a.h, b.h);
            e.l = fmt("CAST(julianday(%s) - julianday(%s) AS INTEGER)", a.l, b.l);
        } else {
            e.h = fmt("%s(%s)", part[k], a.h);
            e.l = fmt("CAST(strftime('%s', %s) AS INTEGER)", spec[k], a.l);
        }
        return e;
    }
    case 8: {
        bool fl = chance(50);
        a = gen(g, T_DOUBLE, depth - 1);
        e.t = T_BIGINT;
        if (chance(30)) {
            /* an INT at the clamped limits would wrap in the next + or -:
             * the result is widened to BIGINT */
            e.h = fmt("CAST(CAST(%s AS INT) AS BIGINT)", a.h);
            e.l = fmt("max(-2147483648, min(2147483647, CAST(%s AS INTEGER)))", a.l);
        } else {
            e.h = fmt("%s(%s)", fl ? "floor" : "ceil", a.h);
            e.l = fmt("(CAST(%s AS INTEGER) %s (%s %s CAST(%s AS INTEGER)))", a.l,
                      fl ? "-" : "+", a.l, fl ? "<" : ">", a.l);
        }
        return e;
    }
    case 9:
        return conditional(g, t, depth);
    case 10: {
        a = gen(g, T_STR, depth - 1);
        b = lit(T_STR);   /* an empty search string fails in Hive */
        if (strcmp(b.h, "''") == 0)
            b.h = b.l = "'b'";
        e.t = T_INT;
        if (chance(50)) {
            e.h = fmt("instr(%s, %s)", a.h, b.h);
        } else {
            e.h = fmt("locate(%s, %s)", b.h, a.h);
        }
        e.l = fmt("instr(%s, %s)", a.l, b.l);
        return e;
    }
    case 11:
        a = gen(g, T_DATE, depth - 1);
        e.t = T_INT;
        e.h = fmt("quarter(%s)", a.h);
        e.l = fmt("((CAST(strftime('%%m', %s) AS INTEGER) + 2) / 3)", a.l);
        return e;
    default:
        return leaf(g, t);
    }
}

static Ex gen_double(const Gen *g, int depth)
{
    Ex a, b, e = {0};
    e.t = T_DOUBLE;
    switch (rnd(8)) {
    case 0: case 1: {
        bool plus = chance(50);
        a = gen(g, chance(70) ? T_DOUBLE : num_type(), depth - 1);
        b = gen(g, chance(50) ? T_DOUBLE : T_INT, depth - 1);
        if (a.t != T_DOUBLE && b.t != T_DOUBLE)
            b = gen(g, T_DOUBLE, depth - 1);
        e.h = fmt("(%s %s %s)", a.h, plus ? "+" : "-", b.h);
        e.l = fmt("(%s %s %s)", a.l, plus ? "+" : "-", b.l);
        return e;
    }
    case 2:   /* doubles times non-zero literals only: no -0.0 */
        a = gen(g, T_DOUBLE, depth - 1);
        b = lit(chance(50) ? T_INT : T_DOUBLE);
        if (!b.nonzero || (b.h[0] == '(' && b.h[1] == '-'))
            b = (Ex){"2", "2", T_INT, 0, true, true};
        e.h = fmt("(%s * %s)", a.h, b.h);
        e.l = fmt("(%s * %s)", a.l, b.l);
        return e;
    case 3: {   /* Hive's `/` is double division */
        Ty ta = num_type(), tb = num_type();
        a = gen(g, ta, depth - 1);
        b = gen(g, tb, depth - 1);
        e.h = fmt("((%s%s%s / %s%s%s) + 0.0D)", ta == T_DEC ? "CAST(" : "", a.h,
                  ta == T_DEC ? " AS DOUBLE)" : "", tb == T_DEC ? "CAST(" : "", b.h,
                  tb == T_DEC ? " AS DOUBLE)" : "");
        e.l = fmt("(CAST(%s AS REAL) / %s)", a.l, b.l);
        return e;
    }
    case 4:
        a = gen(g, T_DOUBLE, depth - 1);
        if (chance(50)) {
            e.h = fmt("abs(%s)", a.h);
            e.l = fmt("abs(%s)", a.l);
        } else {
            e.h = fmt("(round(%s) + 0.0D)", a.h);
            e.l = fmt("round(%s)", a.l);
        }
        return e;
    case 5: {
        Ty ta = chance(50) ? T_INT : T_DEC;
        a = gen(g, ta, depth - 1);
        e.h = fmt("CAST(%s AS DOUBLE)", a.h);
        e.l = fmt("CAST(%s AS REAL)", a.l);
        return e;
    }
    case 6:
        return conditional(g, T_DOUBLE, depth);
    default:
        return leaf(g, T_DOUBLE);
    }
}

static Ex gen_dec(const Gen *g, int depth)
{
    Ex a, b, e = {0};
    e.t = T_DEC;
    switch (rnd(7)) {
    case 0: case 1: {
        bool plus = chance(50);
        a = gen(g, T_DEC, depth - 1);
        b = gen(g, chance(50) ? T_DEC : T_INT, depth - 1);
        e.scale = max_i(a.scale, b.t == T_DEC ? b.scale : 0);
        e.h = fmt("(%s %s %s)", a.h, plus ? "+" : "-", b.h);
        e.l = fmt("(%s %s %s)", a.l, plus ? "+" : "-", b.l);
        return e;
    }
    case 2:
        a = leaf(g, T_DEC);
        b = leaf(g, chance(50) ? T_DEC : T_INT);
        e.scale = a.scale + (b.t == T_DEC ? b.scale : 0);
        e.h = fmt("(%s * %s)", a.h, b.h);
        e.l = fmt("(%s * %s)", a.l, b.l);
        return e;
    case 3:
        a = gen(g, T_DEC, depth - 1);
        e.scale = a.scale;
        if (chance(50)) {
            e.h = fmt("abs(%s)", a.h);
            e.l = fmt("abs(%s)", a.l);
        } else {
            e.scale = 0;
            e.h = fmt("round(%s)", a.h);
            e.l = fmt("round(%s)", a.l);
        }
        return e;
    case 4:
        return conditional(g, T_DEC, depth);
    default:
        return leaf(g, T_DEC);
    }
}

/* lpad/rpad(s, n, 'p') with a one-character pad: Hive cuts s to n
 * characters when it is longer; SQLite builds the padding from
 * zeroblob's hex digits. */
static Ex pad(const Ex *a, bool left, int n, char p)
{
    Ex e = {0};
    const char *padding = fmt("substr(replace(hex(zeroblob(%d)), '00', '%c'), 1, %d - length(%s))",
                              n, p, n, a->l);
    e.t = T_STR;
    e.h = fmt("%s(%s, %d, '%c')", left ? "lpad" : "rpad", a->h, n, p);
    e.l = left ? fmt("CASE WHEN length(%s) >= %d THEN substr(%s, 1, %d) ELSE %s || %s END", a->l,
                     n, a->l, n, padding, a->l)
               : fmt("CASE WHEN length(%s) >= %d THEN substr(%s, 1, %d) ELSE %s || %s END", a->l,
                     n, a->l, n, a->l, padding);
    return e;
}

static Ex gen_str(const Gen *g, int depth)
{
    Ex a, b, e = {0};
    e.t = T_STR;
    switch (rnd(13)) {
    case 9:
        a = gen(g, T_STR, depth - 1);
        return pad(&a, chance(50), rnd(6), "*x"[rnd(2)]);
    case 10:
        a = gen(g, T_STR, depth - 1);
        if (chance(50)) {
            b = lit(T_STR);
            e.h = fmt("replace(%s, %s, 'Q')", a.h, strcmp(b.h, "''") ? b.h : "'a'");
            e.l = fmt("replace(%s, %s, 'Q')", a.l, strcmp(b.l, "''") ? b.l : "'a'");
        } else {
            int n = rnd(4);
            e.h = fmt("repeat(%s, %d)", a.h, n);
            e.l = fmt("replace(hex(zeroblob(%d)), '00', %s)", n, a.l);
        }
        return e;
    case 11: {
        static const char *const f[] = {"ltrim", "rtrim"};
        int k = rnd(3);
        a = gen(g, T_STR, depth - 1);
        if (k < 2) {
            e.h = fmt("%s(%s)", f[k], a.h);
            e.l = fmt("%s(%s)", f[k], a.l);
        } else {
            b = gen(g, T_STR, depth - 1);
            e.h = fmt("nullif(%s, %s)", a.h, b.h);
            e.l = fmt("nullif(%s, %s)", a.l, b.l);
        }
        return e;
    }
    case 12: {   /* simple CASE */
        Ex x = gen(g, T_STR, depth - 1), v1 = lit(T_STR), v2 = lit(T_STR);
        a = gen(g, T_STR, depth - 1);
        b = gen(g, T_STR, depth - 1);
        e.h = fmt("CASE %s WHEN %s THEN %s WHEN %s THEN 'w2' ELSE %s END", x.h, v1.h, a.h, v2.h,
                  b.h);
        e.l = fmt("CASE %s WHEN %s THEN %s WHEN %s THEN 'w2' ELSE %s END", x.l, v1.l, a.l, v2.l,
                  b.l);
        return e;
    }
    case 0: {
        bool up = chance(50);
        a = gen(g, T_STR, depth - 1);
        e.h = fmt("%s(%s)", up ? "upper" : "lower", a.h);
        e.l = fmt("%s(%s)", up ? "upper" : "lower", a.l);
        return e;
    }
    case 1:
        a = gen(g, T_STR, depth - 1);
        b = gen(g, chance(80) ? T_STR : T_INT, depth - 1);
        if (b.t == T_INT) {
            e.h = fmt("concat(%s, CAST(%s AS STRING))", a.h, b.h);
            e.l = fmt("(%s || CAST(%s AS TEXT))", a.l, b.l);
        } else if (chance(50)) {
            e.h = fmt("concat(%s, %s)", a.h, b.h);
            e.l = fmt("(%s || %s)", a.l, b.l);
        } else {
            e.h = fmt("(%s || %s)", a.h, b.h);
            e.l = fmt("(%s || %s)", a.l, b.l);
        }
        return e;
    case 2: {
        int pos = 1 + rnd(3), len = rnd(4);
        a = gen(g, T_STR, depth - 1);
        if (chance(50)) {
            e.h = fmt("substr(%s, %d, %d)", a.h, pos, len);
            e.l = fmt("substr(%s, %d, %d)", a.l, pos, len);
        } else {
            e.h = fmt("substring(%s, %d)", a.h, pos);
            e.l = fmt("substr(%s, %d)", a.l, pos);
        }
        return e;
    }
    case 3:
        a = gen(g, T_STR, depth - 1);
        e.h = fmt("trim(%s)", a.h);
        e.l = fmt("trim(%s)", a.l);
        return e;
    case 4:
        return conditional(g, T_STR, depth);
    default:
        return leaf(g, T_STR);
    }
}

static Ex gen_date(const Gen *g, int depth)
{
    Ex a, e = {0};
    e.t = T_DATE;
    if (chance(25)) {
        int n = rnd(100);
        bool add = chance(50);
        a = gen(g, T_DATE, depth - 1);
        e.h = fmt("%s(%s, %d)", add ? "date_add" : "date_sub", a.h, n);
        e.l = fmt("date(%s, '%c%d days')", a.l, add ? '+' : '-', n);
        return e;
    }
    if (chance(10)) {
        a = gen(g, T_DATE, depth - 1);
        if (chance(50)) {
            e.h = fmt("CAST(last_day(%s) AS DATE)", a.h);   /* Hive's is a STRING */
            e.l = fmt("date(%s, 'start of month', '+1 month', '-1 day')", a.l);
        } else {
            bool month = chance(50);
            e.h = fmt("CAST(trunc(%s, '%s') AS DATE)", a.h, month ? "MM" : "YEAR");
            e.l = fmt("date(%s, 'start of %s')", a.l, month ? "month" : "year");
        }
        return e;
    }
    if (chance(15))
        return conditional(g, T_DATE, depth);
    return leaf(g, T_DATE);
}

static const char *const cmp_ops[] = {"=", "<>", "<", "<=", ">", ">=", "!="};

/* Two comparable operands: numbers with numbers, else one type. */
static void comparable(const Gen *g, int depth, Ex *a, Ex *b)
{
    static const Ty k[] = {T_INT, T_INT, T_BIGINT, T_DOUBLE, T_DEC, T_STR, T_STR, T_DATE, T_BOOL};
    Ty t = k[rnd(9)];
    *a = gen(g, t, depth);
    if (ty_num(t))
        *b = chance(50) ? lit(num_type()) : gen(g, num_type(), depth);
    else
        *b = chance(50) ? lit(t) : gen(g, t, depth);
    unify_num(a, b);
}

/* A LIKE pattern and its GLOB translation. */
static void like_pattern(const char **h, const char **l)
{
    static const char *const pats[] = {"a%", "%b", "%a%", "_b%", "A%", "", "%", "ab", "_",
                                       "%l_o", "H%", "__"};
    const char *p = pats[rnd((int)(sizeof pats / sizeof pats[0]))];
    char glob[16];
    size_t i;
    for (i = 0; p[i]; i++)
        glob[i] = p[i] == '%' ? '*' : p[i] == '_' ? '?' : p[i];
    glob[i] = '\0';
    *h = fmt("'%s'", p);
    *l = fmt("'%s'", glob);
}

static Ex gen_bool(const Gen *g, int depth)
{
    Ex a, b, c, e = {0};
    e.t = T_BOOL;
    if (depth <= 0 && chance(50))
        return leaf(g, T_BOOL);
    switch (rnd(12)) {
    case 0: case 1: case 2: {
        const char *op = cmp_ops[rnd(7)];
        comparable(g, depth - 1, &a, &b);
        if (a.t == T_BOOL && strcmp(op, "=") != 0 && strcmp(op, "<>") != 0)
            op = "=";
        e.h = fmt("(%s %s %s)", a.h, op, b.h);
        e.l = fmt("(%s %s %s)", a.l, strcmp(op, "!=") == 0 ? "<>" : op, b.l);
        return e;
    }
    case 3: {
        static const Ty k[] = {T_INT, T_BIGINT, T_DOUBLE, T_DEC, T_STR, T_DATE, T_BOOL};
        bool neg = chance(50);
        a = gen(g, k[rnd(7)], depth - 1);
        if (chance(30)) {
            e.h = fmt("%s(%s)", neg ? "isnotnull" : "isnull", a.h);
        } else {
            e.h = fmt("(%s IS %sNULL)", a.h, neg ? "NOT " : "");
        }
        e.l = fmt("(%s IS %sNULL)", a.l, neg ? "NOT " : "");
        return e;
    }
    case 4: case 5: {
        bool and = chance(50);
        a = gen_bool(g, depth - 1);
        b = gen_bool(g, depth - 1);
        e.h = fmt("(%s %s %s)", a.h, and ? "AND" : "OR", b.h);
        e.l = fmt("(%s %s %s)", a.l, and ? "AND" : "OR", b.l);
        return e;
    }
    case 6:
        a = gen_bool(g, depth - 1);
        e.h = fmt("(NOT %s)", a.h);
        e.l = fmt("(NOT %s)", a.l);
        return e;
    case 7: {
        static const Ty k[] = {T_INT, T_DOUBLE, T_DEC, T_STR, T_DATE};
        Ty t = k[rnd(5)];
        bool neg = chance(30);
        a = gen(g, t, depth - 1);
        b = lit(t);
        c = lit(t);
        e.h = fmt("(%s %sBETWEEN %s AND %s)", a.h, neg ? "NOT " : "", b.h, c.h);
        e.l = fmt("(%s %sBETWEEN %s AND %s)", a.l, neg ? "NOT " : "", b.l, c.l);
        return e;
    }
    case 8: {
        static const Ty k[] = {T_INT, T_BIGINT, T_STR, T_DEC};
        Ty t = k[rnd(4)];
        bool neg = chance(30);
        int n = 1 + rnd(4);
        /* or the ORed equalities comb's point lookup makes an IN of */
        bool ors = !neg && chance(30);
        const char *hl = "", *ll = "";
        a = gen(g, t, depth - 1);
        for (int i = 0; i < n; i++) {
            b = lit(t == T_BIGINT ? T_INT : t);
            if (ors) {
                hl = fmt("%s%s(%s = %s)", hl, i ? " OR " : "", a.h, b.h);
                ll = fmt("%s%s(%s = %s)", ll, i ? " OR " : "", a.l, b.l);
                continue;
            }
            hl = fmt("%s%s%s", hl, i ? ", " : "", b.h);
            ll = fmt("%s%s%s", ll, i ? ", " : "", b.l);
        }
        e.h = ors ? fmt("(%s)", hl) : fmt("(%s %sIN (%s))", a.h, neg ? "NOT " : "", hl);
        e.l = ors ? fmt("(%s)", ll) : fmt("(%s %sIN (%s))", a.l, neg ? "NOT " : "", ll);
        return e;
    }
    case 9: {
        const char *ph, *pl;
        bool neg = chance(30);
        a = gen(g, T_STR, depth - 1);
        like_pattern(&ph, &pl);
        e.h = fmt("(%s %sLIKE %s)", a.h, neg ? "NOT " : "", ph);
        e.l = fmt("(%s %sGLOB %s)", a.l, neg ? "NOT " : "", pl);
        return e;
    }
    case 10:
        comparable(g, depth - 1, &a, &b);
        e.h = fmt("(%s <=> %s)", a.h, b.h);
        e.l = fmt("(%s IS %s)", a.l, b.l);
        return e;
    default:
        return leaf(g, T_BOOL);
    }
}

/* The subquery's WHERE (" WHERE ..." or "") with `inner = outer` in
 * front: a column of the subquery's table and a qualified column of the
 * outer scope of the same type, when there is one. */
static void correlate(const Gen *g, const Scope *inner, const char **wh, const char **wl)
{
    const Col *oc = NULL, *ic = NULL;
    for (int tries = 0; tries < 8 && !ic; tries++) {
        oc = &g->sc->col[rnd(g->sc->n)];
        if (strchr(oc->name, '.'))
            ic = pick_col(inner, oc->t);
    }
    if (ic) {
        const char *jh = fmt("%s = %s", ic->name, oc->name);
        *wh = fmt(" WHERE %s%s%s", jh, **wh ? " AND " : "", **wh ? *wh + 7 : "");
        *wl = fmt(" WHERE %s%s%s", jh, **wl ? " AND " : "", **wl ? *wl + 7 : "");
    }
}

/* A scalar subquery (F_SUBQ): an aggregate over another table, alias sq,
 * sometimes filtered, sometimes correlated (a row without matches gives
 * count 0 and NULL for the others, in both engines). */
static Ex gen_scalar_subquery(const Gen *g)
{
    const Table *t = &g->w->tab[rnd(g->w->n_tab)];
    Scope inner = {0};
    Gen ig = {&inner, g->features & ~(unsigned)F_SUBQ, NULL};
    const char *wh = "", *wl = "";
    Ex agg, e;
    scope_of_table(t, "sq", &inner);
    if (chance(40)) {
        Ex p = gen_bool(&ig, 1);
        wh = fmt(" WHERE %s", p.h);
        wl = fmt(" WHERE %s", p.l);
    }
    if (chance(60))
        correlate(g, &inner, &wh, &wl);
    agg = gen_agg(&ig);
    e = agg;
    e.leaf = false;
    e.nonzero = false;
    e.h = fmt("(SELECT %s FROM %s sq%s)", agg.h, t->name, wh);
    e.l = fmt("(SELECT %s FROM %s sq%s)", agg.l, t->name, wl);
    return e;
}

/* A subquery condition (F_SUBQ) over another table, alias sq: IN or NOT
 * IN of a column, EXISTS or NOT EXISTS correlated on a qualified column
 * of the outer scope of the same type, or a comparison with a scalar
 * aggregate (correlated or not). */
static Ex gen_subquery(const Gen *g, int depth)
{
    const Table *t = &g->w->tab[rnd(g->w->n_tab)];
    Scope inner = {0};
    Gen ig = {&inner, g->features, NULL};
    const char *wh = "", *wl = "";
    bool neg = chance(40);
    Ex a, e = {0};
    e.t = T_BOOL;
    scope_of_table(t, "sq", &inner);
    if (chance(50)) {
        Ex p = gen_bool(&ig, 1);
        wh = fmt(" WHERE %s", p.h);
        wl = fmt(" WHERE %s", p.l);
    }
    switch (rnd(3)) {
    case 0: {
        const Col *c = &inner.col[rnd(inner.n)];
        a = gen(g, c->t, depth - 1);
        if (ty_num(c->t))
            a = gen(g, c->t == T_DOUBLE ? T_DOUBLE : c->t == T_DEC ? T_DEC : T_INT, depth - 1);
        e.h = fmt("(%s %sIN (SELECT %s FROM %s sq%s))", a.h, neg ? "NOT " : "", c->name, t->name, wh);
        e.l = fmt("(%s %sIN (SELECT %s FROM %s sq%s))", a.l, neg ? "NOT " : "", c->name, t->name, wl);
        return e;
    }
    case 1: {
        correlate(g, &inner, &wh, &wl);
        e.h = fmt("(%sEXISTS (SELECT 1 FROM %s sq%s))", neg ? "NOT " : "", t->name, wh);
        e.l = fmt("(%sEXISTS (SELECT 1 FROM %s sq%s))", neg ? "NOT " : "", t->name, wl);
        return e;
    }
    default: {
        Ex sub = gen_scalar_subquery(g), b;
        const char *op = cmp_ops[rnd(6)];
        if (ty_num(sub.t))
            b = gen(g, sub.t == T_DEC ? T_DEC : sub.t == T_DOUBLE ? T_DOUBLE : T_INT, depth - 1);
        else
            b = gen(g, sub.t, depth - 1);
        e.h = fmt("(%s %s %s)", b.h, op, sub.h);
        e.l = fmt("(%s %s %s)", b.l, op, sub.l);
        return e;
    }
    }
}

static Ex gen(const Gen *g, Ty t, int depth)
{
    if (depth <= 0 || chance(30))
        return leaf(g, t);
    switch (t) {
    case T_INT: case T_BIGINT: return gen_int(g, t, depth);
    case T_DOUBLE: return gen_double(g, depth);
    case T_DEC: return gen_dec(g, depth);
    case T_STR: return gen_str(g, depth);
    case T_DATE: return gen_date(g, depth);
    default: return gen_bool(g, depth);
    }
}

static Ty any_type(void)
{
    static const Ty k[] = {T_INT, T_INT, T_BIGINT, T_DOUBLE, T_DEC, T_STR, T_STR, T_DATE, T_BOOL};
    return k[rnd(9)];
}

/* ---------------------------------------------------------- aggregates */

/* An aggregate over the scope's rows; e->t and e->scale its Hive type. */
/* Whether e names a column of the scope, of type t only unless t is T_N. */
static bool reads_column_of(const Scope *sc, const Ex *e, Ty t)
{
    for (int i = 0; i < sc->n; i++) {
        const char *name = sc->col[i].name;
        size_t n = strlen(name);
        if (t != T_N && sc->col[i].t != t)
            continue;
        for (const char *p = strstr(e->l, name); p; p = strstr(p + 1, name))
            if ((p == e->l || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) &&
                !(isalnum((unsigned char)p[n]) || p[n] == '_'))
                return true;
    }
    return false;
}

/* The absolute error a DOUBLE sum or average of a may carry: each engine
 * adds in its own order (hash tables, joins, a sliding frame's running sum
 * that subtracts the row leaving it), so cancellation leaves different
 * rounding, relative to the addends and not to the result: 1.5e-14 where
 * SQLite's frame sum of ints/3 is exactly 0 in comb.  BIGINT data (5e9 and
 * more, a few hundred rows) sums past 1e12, whose ulp is 2e-4. */
static double sum_slack(const Scope *sc, const Ex *a)
{
    return reads_column_of(sc, a, T_BIGINT) || strstr(a->l, "5000000") ? 1e-2 : 1e-8;
}

static Ex gen_agg(const Gen *g)
{
    Ex a, e = {0};
    int k = rnd(6);
    bool distinct = (g->features & F_DISTINCT) && chance(20);
    const char *dh = distinct ? "DISTINCT " : "";
    if (k == 0 && !distinct) {
        e = (Ex){"count(*)", "count(*)", T_BIGINT, 0, false, false};
        return e;
    }
    if (k <= 1) {
        a = gen(g, any_type(), 1);
        e.t = T_BIGINT;
        e.h = fmt("count(%s%s)", dh, a.h);
        e.l = fmt("count(%s%s)", dh, a.l);
        return e;
    }
    if (k <= 3) {
        bool avg = k == 3;
        a = gen(g, num_type(), 1);
        e.t = a.t == T_DOUBLE ? T_DOUBLE : a.t == T_DEC ? T_DEC : avg ? T_DOUBLE : T_BIGINT;
        e.scale = a.t == T_DEC ? a.scale + (avg ? 4 : 0) : 0;
        e.h = fmt("%s(%s%s)", avg ? "avg" : "sum", dh, a.h);
        e.l = fmt("%s(%s%s)", avg ? "avg" : "sum", dh, a.l);
        if (e.t == T_DOUBLE)
            e.slack = sum_slack(g->sc, &a);
        return e;
    }
    {
        static const Ty m[] = {T_INT, T_BIGINT, T_DOUBLE, T_DEC, T_STR, T_DATE};
        bool mx = chance(50);
        a = gen(g, m[rnd(6)], 1);
        e.t = a.t;
        e.scale = a.scale;
        e.h = fmt("%s(%s)", mx ? "max" : "min", a.h);
        e.l = fmt("%s(%s)", mx ? "max" : "min", a.l);
        return e;
    }
}

/* An aggregate, sometimes inside arithmetic (`count(*) * 2`). */
static Ex gen_agg_expr(const Gen *g)
{
    Ex a = gen_agg(g), e = a;
    if (ty_int(a.t) && chance(20)) {
        e.h = fmt("(%s + 1)", a.h);
        e.l = fmt("(%s + 1)", a.l);
    } else if (a.t == T_BIGINT && chance(15)) {
        Ex b = gen_agg(g);
        if (ty_int(b.t)) {
            e.h = fmt("(%s - %s)", a.h, b.h);
            e.l = fmt("(%s - %s)", a.l, b.l);
        }
    }
    return e;
}

/* --------------------------------------------------------------- query */

#define MAX_OUT 8

typedef struct Query {
    const char *h, *l;
    int n_out;
    Ty out_t[MAX_OUT];
    int out_scale[MAX_OUT];
    double out_slack[MAX_OUT];
    bool ordered;
} Query;

/* ORDER BY every output column (so ties are equal rows), in random
 * directions, NULL order explicit or Hive's default. */
static void order_all(Query *q, const char **oh, const char **ol)
{
    const char *h = " ORDER BY ", *l = " ORDER BY ";
    for (int i = 0; i < q->n_out; i++) {
        bool desc = chance(40);
        int nulls = rnd(3);   /* 0 default, 1 first, 2 last */
        bool first = nulls == 0 ? desc : nulls == 1;
        h = fmt("%s%sc%d%s%s", h, i ? ", " : "", i, desc ? " DESC" : (chance(30) ? " ASC" : ""),
                nulls == 0 ? "" : first ? " NULLS FIRST" : " NULLS LAST");
        l = fmt("%s%sc%d%s%s", l, i ? ", " : "", i, desc ? " DESC" : " ASC",
                first ? " NULLS FIRST" : " NULLS LAST");
    }
    *oh = h;
    *ol = l;
}

/* A FROM clause for each engine, and a WITH clause before the query. */
typedef struct From {
    const char *h, *l;
    const char *with_h, *with_l;
} From;

/* A join condition over columns x and y: mostly an equality, sometimes
 * `<=>` (IS in SQLite) or a comparison that is no equality (a nested
 * loop join in comb). */
static void join_key(const char *x, const char *y, const char **h, const char **l)
{
    static const char *const non_equi[] = {"<", "<=", ">", ">=", "<>"};
    int k = rnd(10);
    if (k < 6) {
        *h = *l = fmt("(%s = %s)", x, y);
    } else if (k < 8) {
        *h = fmt("(%s <=> %s)", x, y);
        *l = fmt("(%s IS %s)", x, y);
    } else {
        *h = *l = fmt("(%s %s %s)", x, non_equi[rnd(5)], y);
    }
}

/* Two tables joined (F_JOIN): a and b, on their first (INT) columns
 * (join_key) and sometimes a generated condition over both; sometimes a
 * third, c (JOIN or LEFT JOIN, c.i0 equal to a's or b's).  LEFT SEMI JOIN is
 * an EXISTS in SQLite, inside a derived table named a. */
static void gen_join(const World *w, Scope *sc, From *f, bool in_setop)
{
    static const char *const kinds[] = {"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN",
                                        "RIGHT JOIN", "FULL OUTER JOIN", "LEFT SEMI JOIN",
                                        "CROSS JOIN", ","};
    const Table *ta = &w->tab[rnd(w->n_tab)], *tb = &w->tab[rnd(w->n_tab)];
    int k = rnd(9);
    /* SQLite 3.40 loses the WHERE of the other branch of a UNION ALL with
     * a RIGHT or FULL join in a FROM subquery: none in set operations */
    if (in_setop && (k == 4 || k == 5))
        k = 2;
    Scope both_sc = {0};
    Gen bg = {&both_sc, w->features, NULL};
    const char *ch, *cl;
    join_key("a.i0", "b.i0", &ch, &cl);
    scope_of_table(ta, "a", &both_sc);
    scope_of_table(tb, "b", &both_sc);
    if (chance(30)) {
        Ex p = gen_bool(&bg, 1);
        ch = fmt("(%s AND %s)", ch, p.h);
        cl = fmt("(%s AND %s)", cl, p.l);
    }
    if (k == 6) {
        scope_of_table(ta, "a", sc);
        f->h = fmt("%s a LEFT SEMI JOIN %s b ON %s", ta->name, tb->name, ch);
        f->l = fmt("(SELECT * FROM %s a WHERE EXISTS (SELECT 1 FROM %s b WHERE %s)) a", ta->name,
                   tb->name, cl);
        return;
    }
    *sc = both_sc;
    if (k >= 7) {   /* cross and comma joins: the condition goes to WHERE by the caller */
        f->h = f->l = fmt("%s a %s %s b", ta->name, kinds[k], tb->name);
        return;
    }
    f->h = fmt("%s a %s %s b ON %s", ta->name, kinds[k], tb->name, ch);
    f->l = fmt("%s a %s %s b ON %s", ta->name, kinds[k], tb->name, cl);
    if (chance(30)) {   /* a third table, on an equality (bounded rows) */
        const Table *tc = &w->tab[rnd(w->n_tab)];
        const char *kind = chance(50) ? "JOIN" : "LEFT JOIN";
        ch = fmt("(%s.i0 = c.i0)", chance(50) ? "a" : "b");
        f->h = fmt("%s %s %s c ON %s", f->h, kind, tc->name, ch);
        f->l = fmt("%s %s %s c ON %s", f->l, kind, tc->name, ch);
        scope_of_table(tc, "c", sc);
    }
}

/* The FROM item: a table, two joined (F_JOIN), or a derived table over
 * one with computed columns d0..dn (sometimes filtered), as a subquery or
 * (F_CTE) a WITH item, which is sometimes grouped by its columns and read
 * twice under a UNION ALL (a shared WITH query). */
static void gen_from(const World *w, Scope *sc, From *f, bool in_setop)
{
    const Table *t = &w->tab[rnd(w->n_tab)];
    Scope inner = {0};
    Gen ig = {&inner, w->features, NULL};
    f->with_h = f->with_l = "";
    if ((w->features & F_JOIN) && chance(40)) {
        gen_join(w, sc, f, in_setop);
        return;
    }
    if (chance(75)) {
        bool alias = chance(30);
        scope_of_table(t, alias ? "x" : NULL, sc);
        f->h = f->l = alias ? fmt("%s x", t->name) : t->name;
        return;
    }
    scope_of_table(t, NULL, &inner);
    {
        int n = 2 + rnd(3);
        const char *h = "", *l = "", *body_h, *body_l, *names = "";
        bool grouped = chance(40);
        for (int i = 0; i < n; i++) {
            Ex e = chance(40) ? leaf(&ig, any_type()) : gen(&ig, any_type(), 2);
            if (e.t == T_DEC && e.scale != 2) {   /* the outer scope knows scale 2 only */
                e.h = fmt("CAST(%s AS DOUBLE)", e.h);
                e.t = T_DOUBLE;
            }
            if (e.t == T_INT && !e.leaf) {   /* may be a product: never multiplied again */
                e.h = fmt("CAST(%s AS BIGINT)", e.h);
                e.t = T_BIGINT;
            }
            h = fmt("%s%s%s AS d%d", h, i ? ", " : "", e.h, i);
            l = fmt("%s%s%s AS d%d", l, i ? ", " : "", e.l, i);
            sc->col[sc->n].name = fmt("d%d", i);
            sc->col[sc->n].t = e.t;
            sc->n++;
            names = fmt("%s%sd%d", names, i ? ", " : "", i);
            /* doubles computed apart by the engines may group apart */
            grouped = grouped && e.t != T_DOUBLE;
        }
        if (chance(50)) {
            Ex p = gen_bool(&ig, 2);
            body_h = fmt("SELECT %s FROM %s WHERE %s", h, t->name, p.h);
            body_l = fmt("SELECT %s FROM %s WHERE %s", l, t->name, p.l);
        } else {
            body_h = fmt("SELECT %s FROM %s", h, t->name);
            body_l = fmt("SELECT %s FROM %s", l, t->name);
        }
        if ((w->features & F_CTE) && chance(50) && grouped) {
            /* grouped by its columns and read twice: comb computes such a
             * WITH item once for both references (plan/cte.c) */
            f->with_h = fmt("WITH s AS (SELECT %s FROM (%s) g GROUP BY %s) ", names, body_h, names);
            f->with_l = fmt("WITH s AS (SELECT %s FROM (%s) g GROUP BY %s) ", names, body_l, names);
            f->h = f->l = "(SELECT * FROM s UNION ALL SELECT * FROM s) s";
        } else if ((w->features & F_CTE) && chance(50)) {
            f->with_h = fmt("WITH s AS (%s) ", body_h);
            f->with_l = fmt("WITH s AS (%s) ", body_l);
            f->h = f->l = "s";
        } else {
            f->h = fmt("(%s) s", body_h);
            f->l = fmt("(%s) s", body_l);
        }
    }
}

/* Whether e reads a column of the scope (SQLite takes a constant integer
 * in GROUP BY for a position). */
static bool reads_column(const Scope *sc, const Ex *e)
{
    return reads_column_of(sc, e, T_N);
}

static Ex group_key(const Gen *g)
{
    for (;;) {
        Ex k = chance(60) ? leaf(g, any_type()) : gen(g, any_type(), 2);
        if (reads_column(g->sc, &k))
            return k;
    }
}

static void add_out(Query *q, const Ex *e, const char **h, const char **l)
{
    int i = q->n_out++;
    *h = fmt("%s%s%s AS c%d", *h, i ? ", " : "", e->h, i);
    *l = fmt("%s%s%s AS c%d", *l, i ? ", " : "", e->l, i);
    q->out_t[i] = e->t;
    q->out_scale[i] = e->scale;
    q->out_slack[i] = e->slack;
}

static void finish_order(Query *q, const char **h, const char **l)
{
    if (chance(40)) {
        const char *oh, *ol;
        order_all(q, &oh, &ol);
        *h = fmt("%s%s", *h, oh);
        *l = fmt("%s%s", *l, ol);
        q->ordered = true;
        if (chance(50)) {
            int n = rnd(10);
            *h = fmt("%s LIMIT %d", *h, n);
            *l = fmt("%s LIMIT %d", *l, n);
        }
    }
}

/* A window function over the scope (F_WINDOW): PARTITION BY a column,
 * ORDER BY every column of the scope (ties are equal rows, so the result
 * is determined), NULL order always explicit. */
static Ex gen_window(const Gen *g)
{
    const Col *pc = &g->sc->col[rnd(g->sc->n)];
    const char *ord = "", *part = chance(80) ? fmt("PARTITION BY %s ", pc->name) : "";
    const char *frame = "";
    Ex e = {0}, a;
    for (int i = 0; i < g->sc->n; i++)
        ord = fmt("%s%s%s%s%s", ord, i ? ", " : "", g->sc->col[i].name,
                  chance(40) ? " DESC" : " ASC", chance(50) ? " NULLS FIRST" : " NULLS LAST");
    switch (rnd(6)) {
    case 0: {
        static const char *const rk[] = {"row_number()", "rank()", "dense_rank()"};
        e.h = e.l = rk[rnd(3)];
        e.t = T_INT;
        break;
    }
    case 1: {
        bool lag = chance(50);
        const Col *c = &g->sc->col[rnd(g->sc->n)];
        e.h = e.l = fmt("%s(%s)", lag ? "lag" : "lead", c->name);
        e.t = c->t;
        e.scale = c->t == T_DEC ? 2 : 0;
        break;
    }
    case 2: {
        const Col *c = &g->sc->col[rnd(g->sc->n)];
        e.h = e.l = fmt("first_value(%s)", c->name);
        e.t = c->t;
        e.scale = c->t == T_DEC ? 2 : 0;
        break;
    }
    default: {
        Gen plain = *g;   /* SQLite has no DISTINCT in window aggregates */
        plain.features &= ~(unsigned)F_DISTINCT;
        a = gen_agg(&plain);
        e = a;
        if (chance(30))
            frame = chance(50) ? " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW"
                               : " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
        if (chance(25)) {   /* no ORDER BY: the whole partition */
            e.h = fmt("%s OVER (%s)", a.h, part);
            e.l = fmt("%s OVER (%s)", a.l, part);
            return e;
        }
        break;
    }
    }
    e.h = fmt("%s OVER (%sORDER BY %s%s)", e.h, part, ord, frame);
    e.l = fmt("%s OVER (%sORDER BY %s%s)", e.l, part, ord, frame);
    return e;
}

/* WHERE: a generated condition, with F_SUBQ sometimes a subquery
 * condition ANDed to it; for cross and comma joins often the join
 * condition. */
static void gen_where(const Gen *g, const From *f, const char **wh, const char **wl)
{
    const char *h = "", *l = "";
    if (chance(60)) {
        Ex p = gen_bool(g, 3);
        h = p.h;
        l = p.l;
    }
    if ((g->features & F_SUBQ) && g->w && chance(35)) {
        Ex p = gen_subquery(g, 2);
        h = *h ? fmt("%s AND %s", p.h, h) : p.h;
        l = *l ? fmt("%s AND %s", p.l, l) : p.l;
    }
    if ((strstr(f->h, " CROSS JOIN ") || strstr(f->h, " a , ")) && chance(70)) {
        h = *h ? fmt("a.i0 = b.i0 AND %s", h) : "a.i0 = b.i0";
        l = *l ? fmt("a.i0 = b.i0 AND %s", l) : "a.i0 = b.i0";
    }
    *wh = *h ? fmt(" WHERE %s", h) : "";
    *wl = *l ? fmt(" WHERE %s", l) : "";
}

/* A projection of the given types (for set operations): column i is of
 * types[i] or, for integers, BIGINT where the expression widened. */
static void gen_branch(const World *w, int n, const Ty *types, Ty *got, int *scale,
                       const char **h, const char **l)
{
    Scope sc = {0};
    Gen g = {&sc, w->features & ~(unsigned)F_SUBQ, w};
    From f;
    const char *sh = "", *sl = "", *wh, *wl;
    gen_from(w, &sc, &f, true);
    gen_where(&g, &f, &wh, &wl);
    for (int i = 0; i < n; i++) {
        Ex e = gen(&g, types[i], 2);
        sh = fmt("%s%s%s AS c%d", sh, i ? ", " : "", e.h, i);
        sl = fmt("%s%s%s AS c%d", sl, i ? ", " : "", e.l, i);
        got[i] = e.t;
        scale[i] = e.scale;
    }
    /* a WITH inside a set operation's branch is not SQL: the CTE goes in
     * front of the whole statement, so it is turned into a subquery */
    if (*f.with_h) {
        f.h = fmt("(%.*s) s", (int)strlen(f.with_h) - 11, f.with_h + 10);
        f.l = fmt("(%.*s) s", (int)strlen(f.with_l) - 11, f.with_l + 10);
    }
    *h = fmt("SELECT %s FROM %s%s", sh, f.h, wh);
    *l = fmt("SELECT %s FROM %s%s", sl, f.l, wl);
}

/* UNION ALL, UNION [DISTINCT], INTERSECT [DISTINCT], EXCEPT / MINUS of
 * two projections (F_SETOP), as a derived table u: the result type of a
 * column is the wider of its branches'. */
static Query gen_setop(const World *w)
{
    static const char *const ops_h[] = {"UNION ALL", "UNION", "UNION DISTINCT", "INTERSECT",
                                        "INTERSECT DISTINCT", "EXCEPT", "MINUS"};
    static const char *const ops_l[] = {"UNION ALL", "UNION", "UNION", "INTERSECT", "INTERSECT",
                                        "EXCEPT", "EXCEPT"};
    Query q = {0};
    Ty types[MAX_OUT], t1[MAX_OUT], t2[MAX_OUT];
    int s1[MAX_OUT], s2[MAX_OUT], op = rnd(7);
    const char *h1, *l1, *h2, *l2;
    q.n_out = 1 + rnd(3);
    for (int i = 0; i < q.n_out; i++)
        types[i] = any_type();
    gen_branch(w, q.n_out, types, t1, s1, &h1, &l1);
    gen_branch(w, q.n_out, types, t2, s2, &h2, &l2);
    for (int i = 0; i < q.n_out; i++) {
        q.out_t[i] = ty_num(t1[i]) ? num_common(t1[i], t2[i]) : t1[i];
        q.out_scale[i] = max_i(s1[i], s2[i]);
    }
    q.h = fmt("SELECT * FROM (%s %s %s) u", h1, ops_h[op], h2);
    q.l = fmt("SELECT * FROM (%s %s %s) u", l1, ops_l[op], l2);
    finish_order(&q, &q.h, &q.l);
    return q;
}

static Query gen_query(const World *w)
{
    Query q = {0};
    Scope sc = {0};
    Gen g = {&sc, w->features, w};
    From f;
    const char *sh = "", *sl = "", *wh, *wl;
    if ((w->features & F_SETOP) && chance(20))
        return gen_setop(w);
    gen_from(w, &sc, &f, false);
    gen_where(&g, &f, &wh, &wl);
    g.w = NULL;   /* subqueries only in WHERE */
    if (chance(45)) {   /* plain projection */
        int n = 1 + rnd(4);
        bool distinct = chance(20);
        for (int i = 0; i < n; i++) {
            Gen sg = {&sc, w->features, w};
            Ex e = (w->features & F_WINDOW) && chance(25) ? gen_window(&g)
                   : (w->features & F_SUBQ) && chance(10) ? gen_scalar_subquery(&sg)
                                                          : gen(&g, any_type(), 3);
            add_out(&q, &e, &sh, &sl);
        }
        q.h = fmt("%sSELECT %s%s FROM %s%s", f.with_h, distinct ? "DISTINCT " : "", sh, f.h, wh);
        q.l = fmt("%sSELECT %s%s FROM %s%s", f.with_l, distinct ? "DISTINCT " : "", sl, f.l, wl);
    } else {            /* aggregation, grouped or global */
        int nk = chance(25) ? 0 : 1 + rnd(2), na = 1 + rnd(3);
        const char *gh = "", *gl = "", *hh = "", *hl = "";
        for (int i = 0; i < nk; i++) {
            Ex k = group_key(&g);
            add_out(&q, &k, &sh, &sl);
            gh = fmt("%s%s%s", gh, i ? ", " : "", k.h);
            gl = fmt("%s%sc%d", gl, i ? ", " : "", i);   /* SQLite: by alias */
        }
        for (int i = 0; i < na; i++) {
            Ex a = gen_agg_expr(&g);
            add_out(&q, &a, &sh, &sl);
        }
        if (nk > 0 && chance(30)) {
            Ex a = gen_agg(&g), b = lit(ty_num(a.t) ? T_INT : a.t);
            const char *op = cmp_ops[rnd(6)];
            hh = fmt(" HAVING %s %s %s", a.h, op, b.h);
            hl = fmt(" HAVING %s %s %s", a.l, op, b.l);
        }
        q.h = fmt("%sSELECT %s FROM %s%s%s%s%s", f.with_h, sh, f.h, wh, nk ? " GROUP BY " : "",
                  gh, hh);
        q.l = fmt("%sSELECT %s FROM %s%s%s%s%s", f.with_l, sl, f.l, wl, nk ? " GROUP BY " : "",
                  gl, hl);
    }
    finish_order(&q, &q.h, &q.l);
    return q;
}

/* ------------------------------------------------------------- engines */

typedef struct Result {
    bool failed;
    char *err;
    int n_cols;
    int n_rows;
    char **cells;   /* canonical texts, n_rows * n_cols */
    CombTypeKind kinds[MAX_OUT];
} Result;

static void result_free(Result *r)
{
    for (int i = 0; i < r->n_rows * r->n_cols; i++)
        free(r->cells[i]);
    free(r->cells);
    free(r->err);
    memset(r, 0, sizeof *r);
}

/* The canonical text of a cell by the type the generator expects:
 * numbers as numbers (see the header), booleans as 1/0. */
static char *canon(const Query *q, int col, const char *text, bool is_null)
{
    char buf[128];
    Ty t = q->out_t[col];
    if (is_null)
        return strdup("NULL");
    if (ty_int(t)) {
        char *end;
        long long v = strtoll(text, &end, 10);
        if (*end) {   /* not an integer: show it as it came */
            double d = strtod(text, &end);
            if (*end || d != floor(d))
                return strdup(text);
            v = (long long)d;
        }
        snprintf(buf, sizeof buf, "%lld", v);
    } else if (t == T_DOUBLE) {
        /* a sum within its slack of 0 is 0: sorted as text, 1.5e-14 and 0
         * would not meet */
        double d = strtod(text, NULL);
        snprintf(buf, sizeof buf, "%.10g", fabs(d) <= q->out_slack[col] ? 0.0 : d);
    } else if (t == T_DEC) {
        double d = strtod(text, NULL), p = pow(10, q->out_scale[col]), a = fabs(d) * p;
        double r = floor(a + 0.5 + a * 1e-12 + 1e-9) / p;
        snprintf(buf, sizeof buf, "%.*f", q->out_scale[col], d < 0 && r != 0 ? -r : r);
    } else if (t == T_BOOL) {
        if (strcmp(text, "true") == 0)
            return strdup("1");
        if (strcmp(text, "false") == 0)
            return strdup("0");
        return strdup(text);
    } else {
        return strdup(text);
    }
    return strdup(buf);
}

typedef struct CombCollect {
    const Query *q;
    Result *r;
} CombCollect;

static int cc_begin(void *ctx, int n_cols, const char *const *names, const CombTypeKind *kinds,
                    CombErr *err)
{
    CombCollect *c = ctx;
    (void)names;
    if (n_cols > MAX_OUT)
        return comb_err(err, COMB_EINVALID, "sqldiff: more than %d result columns", MAX_OUT);
    c->r->n_cols = n_cols;
    for (int i = 0; i < n_cols && i < MAX_OUT; i++)
        c->r->kinds[i] = kinds[i];
    return COMB_OK;
}

static int cc_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    CombCollect *c = ctx;
    Result *r = c->r;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        r->cells = realloc(r->cells, sizeof *r->cells * (size_t)((r->n_rows + 1) * r->n_cols + 1));
        if (!r->cells)
            die("out of memory");
        for (int j = 0; j < r->n_cols; j++) {
            const CombVector *v = &b->cols[j];
            char buf[64];
            char *cell;
            bool null = r->kinds[j] == COMB_T_NULL || comb_vec_is_null(v, row);
            if (null || j >= c->q->n_out) {
                cell = canon(c->q, j < MAX_OUT ? j : 0, "", true);
            } else if (comb_type_is_str(r->kinds[j])) {
                char *s = strndup(v->str[row].ptr, v->str[row].len);
                cell = canon(c->q, j, s ? s : "", false);
                free(s);
            } else {
                sql_format_scalar(r->kinds[j], v, row, buf, sizeof buf);
                cell = canon(c->q, j, buf, false);
            }
            if (!cell)
                die("out of memory");
            r->cells[r->n_rows * r->n_cols + j] = cell;
        }
        r->n_rows++;
    }
    return COMB_OK;
}

static const char *current_sql;

static void print_current(void)
{
    if (current_sql)
        fprintf(stderr, "sqldiff: comb died running: %s\n", current_sql);
}

/* Sanitizer builds call this before they exit on a report. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void comb_run(SqlSession *s, const Query *q, const char *sql, Result *r)
{
    CombCollect c = {q, r};
    SqlSink sink = {&c, cc_begin, cc_batch, NULL, NULL};
    CombErr err;
    memset(r, 0, sizeof *r);
    current_sql = sql;
    if (sql_session_execute(s, sql, strlen(sql), &sink, &err) != COMB_OK) {
        result_free(r);
        r->failed = true;
        r->err = strdup(err.msg);
    }
    current_sql = NULL;
}

static void lite_run(sqlite3 *db, const Query *q, const char *sql, Result *r)
{
    sqlite3_stmt *st = NULL;
    int rc;
    memset(r, 0, sizeof *r);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        r->failed = true;
        r->err = strdup(sqlite3_errmsg(db));
        return;
    }
    r->n_cols = sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        r->cells = realloc(r->cells, sizeof *r->cells * (size_t)((r->n_rows + 1) * r->n_cols + 1));
        if (!r->cells)
            die("out of memory");
        for (int j = 0; j < r->n_cols; j++) {
            char buf[64];
            const char *text = buf;
            int ct = sqlite3_column_type(st, j);
            if (ct == SQLITE_INTEGER)
                snprintf(buf, sizeof buf, "%lld", (long long)sqlite3_column_int64(st, j));
            else if (ct == SQLITE_FLOAT)
                snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(st, j));
            else if (ct != SQLITE_NULL)
                text = (const char *)sqlite3_column_text(st, j);
            r->cells[r->n_rows * r->n_cols + j] =
                q && j < q->n_out ? canon(q, j, text ? text : "", ct == SQLITE_NULL)
                                  : strdup(ct == SQLITE_NULL ? "NULL" : text);
        }
        r->n_rows++;
    }
    if (rc != SQLITE_DONE) {
        result_free(r);
        r->failed = true;
        r->err = strdup(sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
}

/* ---------------------------------------------------------- comparison */

static int g_ncols_for_sort;

static int row_cmp(const void *a, const void *b)
{
    char *const *x = *(char *const *const *)a, *const *y = *(char *const *const *)b;
    for (int i = 0; i < g_ncols_for_sort; i++) {
        int c = strcmp(x[i], y[i]);
        if (c)
            return c;
    }
    return 0;
}

/* Rows of r as pointers to their first cells, sorted unless ordered. */
static char ***rows_of(const Result *r, bool ordered)
{
    char ***rows = malloc(sizeof *rows * (size_t)(r->n_rows + 1));
    if (!rows)
        die("out of memory");
    for (int i = 0; i < r->n_rows; i++)
        rows[i] = &r->cells[i * r->n_cols];
    if (!ordered) {
        g_ncols_for_sort = r->n_cols;
        qsort(rows, (size_t)r->n_rows, sizeof *rows, row_cmp);
    }
    return rows;
}

static void print_row(const char *tag, char **row, int n)
{
    fprintf(stderr, "      %s:", tag);
    for (int j = 0; j < n; j++)
        fprintf(stderr, " %s%s", j ? "| " : "", row[j]);
    fprintf(stderr, "\n");
}

/* Cells are equal when their canonical texts are, or, for DECIMAL and
 * DOUBLE columns, when they differ by at most one unit of the last place
 * kept: SQLite's REAL quotient of a decimal average that lies exactly
 * halfway between two decimals (Hive rounds it HALF_UP) may fall on either
 * side.  A DOUBLE sum may also differ by its slack (sum_slack). */
static bool cells_equal(const Query *q, int col, const char *a, const char *b)
{
    double x, y, unit;
    if (strcmp(a, b) == 0)
        return true;
    if (col >= q->n_out || (q->out_t[col] != T_DEC && q->out_t[col] != T_DOUBLE) ||
        strcmp(a, "NULL") == 0 || strcmp(b, "NULL") == 0)
        return false;
    x = strtod(a, NULL);
    y = strtod(b, NULL);
    unit = q->out_t[col] == T_DEC ? pow(10, -q->out_scale[col]) : 1e-9 * fabs(x);
    /* both sides rounded: one unit apart */
    return fabs(x - y) <= unit * 1.5 + q->out_slack[col];
}

static bool rows_equal(const Query *q, char **a, char **b, int n)
{
    for (int j = 0; j < n; j++)
        if (!cells_equal(q, j, a[j], b[j]))
            return false;
    return true;
}

/* Kinds comb gave that the generator's type does not explain. */
static bool kind_matches(Ty t, CombTypeKind k)
{
    switch (t) {
    case T_INT: case T_BIGINT:
        return k == COMB_T_INT || k == COMB_T_BIGINT || k == COMB_T_SMALLINT || k == COMB_T_TINYINT;
    case T_DOUBLE: return k == COMB_T_DOUBLE;
    case T_DEC: return k == COMB_T_DECIMAL;
    case T_STR: return comb_type_is_str(k);
    case T_DATE: return k == COMB_T_DATE;
    default: return k == COMB_T_BOOLEAN;
    }
}

/* 0 when equal; else prints the difference and returns 1. */
static int compare(const Query *q, const Result *c, const Result *l, bool verbose)
{
    const char *why = NULL;
    char ***cr = NULL, ***lr = NULL;
    int bad = -1;
    if (l->failed) {
        fprintf(stderr, "  SQLite failed (generator bug): %s\n    %s\n", l->err, q->l);
        return 1;
    }
    if (c->failed) {
        fprintf(stderr, "MISMATCH comb error: %s\n  hive:   %s\n  sqlite: %s\n", c->err, q->h,
                q->l);
        return 1;
    }
    if (c->n_cols != q->n_out)
        why = "column count";
    for (int j = 0; !why && j < q->n_out; j++)
        if (!kind_matches(q->out_t[j], c->kinds[j]))
            why = fmt("type of c%d: comb gives kind %d, expected %s", j, (int)c->kinds[j],
                      hive_type_name[q->out_t[j]]);
    if (!why && c->n_rows != l->n_rows)
        why = fmt("row count: comb %d, SQLite %d", c->n_rows, l->n_rows);
    if (!why) {
        cr = rows_of(c, q->ordered);
        lr = rows_of(l, q->ordered);
        g_ncols_for_sort = c->n_cols;
        for (int i = 0; i < c->n_rows && bad < 0; i++)
            if (!rows_equal(q, cr[i], lr[i], c->n_cols))
                bad = i;
        if (bad >= 0)
            why = fmt("row %d%s", bad, q->ordered ? " (ordered)" : " (as sorted multisets)");
    }
    if (!why) {
        free(cr);
        free(lr);
        return 0;
    }
    fprintf(stderr, "MISMATCH %s\n  hive:   %s\n  sqlite: %s\n", why, q->h, q->l);
    if (!cr && c->n_cols == l->n_cols) {
        cr = rows_of(c, q->ordered);
        lr = rows_of(l, q->ordered);
    }
    if (cr) {
        int from = bad > 2 ? bad - 2 : 0, n = verbose ? 1000 : 6;
        for (int i = from; i < from + n && (i < c->n_rows || i < l->n_rows); i++) {
            if (i < l->n_rows)
                print_row("sqlite", lr[i], l->n_cols);
            if (i < c->n_rows)
                print_row("comb  ", cr[i], c->n_cols);
        }
    }
    free(cr);
    free(lr);
    return 1;
}

/* ------------------------------------------------------------- driving */

typedef struct Run {
    SqlSession *s;
    sqlite3 *db;
    bool verbose;
    int failures;
    int statements;
} Run;

/* A setup statement on both engines; a failure of either stops the run. */
static void both(Run *rn, const char *h, const char *l)
{
    Result r;
    char *e = NULL;
    comb_run(rn->s, NULL, h, &r);
    if (r.failed) {
        fprintf(stderr, "MISMATCH comb setup statement failed: %s\n  %s\n", r.err, h);
        rn->failures++;
    }
    result_free(&r);
    if (l && sqlite3_exec(rn->db, l, NULL, NULL, &e) != SQLITE_OK) {
        fprintf(stderr, "sqldiff: SQLite setup failed: %s\n  %s\n", e, l);
        exit(2);
    }
    sqlite3_free(e);
    rn->statements++;
}

static void make_table(Run *rn, World *w, int k)
{
    static const char *const kind_sql[] = {
        "STORED AS ORC", "STORED AS TEXTFILE",
        "STORED AS ORC TBLPROPERTIES ('transactional'='true')"};
    Table *t = &w->tab[k];
    const char *ch = "", *cl = "";
    int n_rows = chance(10) ? 0 : chance(20) ? 1 + rnd(5) : 20 + rnd(150);
    snprintf(t->name, sizeof t->name, "t%d", k);
    t->kind = rnd(3);
    t->n_cols = 3 + rnd(6);
    for (int i = 0; i < t->n_cols; i++) {
        Ty ty = i == 0 ? T_INT : i == 1 ? T_STR : (Ty)rnd(T_N);
        snprintf(t->col_names[i], sizeof t->col_names[i], "%c%d", "ibdmstf"[ty], i);
        t->col[i].name = t->col_names[i];
        t->col[i].t = ty;
        ch = fmt("%s%s%s %s", ch, i ? ", " : "", t->col_names[i], hive_type_name[ty]);
        cl = fmt("%s%s%s %s", cl, i ? ", " : "", t->col_names[i], lite_type_name[ty]);
    }
    both(rn, fmt("CREATE TABLE %s (%s) %s", t->name, ch, kind_sql[t->kind]),
         fmt("CREATE TABLE %s (%s)", t->name, cl));
    /* several INSERTs: several files (deltas of ACID tables) */
    for (int done = 0; done < n_rows;) {
        int n = 1 + rnd(60);
        const char *vh = "", *vl = "";
        for (int r = 0; r < n && done < n_rows; r++, done++) {
            const char *rh = "", *rl = "";
            for (int i = 0; i < t->n_cols; i++) {
                Ex v = value(t->col[i].t);
                rh = fmt("%s%s%s", rh, i ? ", " : "", v.h);
                rl = fmt("%s%s%s", rl, i ? ", " : "", v.l);
            }
            vh = fmt("%s%s(%s)", vh, r ? ", " : "", rh);
            vl = fmt("%s%s(%s)", vl, r ? ", " : "", rl);
        }
        both(rn, fmt("INSERT INTO %s VALUES %s", t->name, vh),
             fmt("INSERT INTO %s VALUES %s", t->name, vl));
        pool_reset();
    }
}

/* UPDATE and DELETE of a full-ACID table, the same on both sides. */
static void change_table(Run *rn, const World *w, const Table *t)
{
    Scope sc = {0};
    Gen g = {&sc, w->features, NULL};
    scope_of_table(t, NULL, &sc);
    for (int n = rnd(4); n > 0; n--) {
        Ex p = gen_bool(&g, 2);
        if (chance(65)) {
            const Col *c = &t->col[1 + rnd(t->n_cols - 1)];
            Ex v = c->t == T_DEC ? leaf(&g, chance(50) ? T_DEC : T_INT)
                   : c->t == T_DOUBLE || ty_int(c->t) ? leaf(&g, c->t)
                                                      : gen(&g, c->t, 1);
            both(rn, fmt("UPDATE %s SET %s = %s WHERE %s", t->name, c->name, v.h, p.h),
                 fmt("UPDATE %s SET %s = %s WHERE %s", t->name, c->name, v.l, p.l));
        } else {
            both(rn, fmt("DELETE FROM %s WHERE %s", t->name, p.h),
                 fmt("DELETE FROM %s WHERE %s", t->name, p.l));
        }
        pool_reset();
    }
}

static unsigned parse_features(const char *s)
{
    static const char *const names[] = {"distinct", "join", "subquery", "setop", "window", "cte"};
    unsigned f = 0;
    char buf[256], *tok, *save = NULL;
    if (!s)
        return 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        bool found = false;
        if (strcmp(tok, "all") == 0) {
            f = ~0u;
            continue;
        }
        for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(tok, names[i]) == 0) {
                f |= 1u << i;
                found = true;
            }
        if (!found) {
            fprintf(stderr, "sqldiff: unknown feature %s\n", tok);
            exit(2);
        }
    }
    return f;
}

static long env_num(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    bool long_mode = getenv("COMB_SQLDIFF_LONG") && strcmp(getenv("COMB_SQLDIFF_LONG"), "1") == 0;
    long seed = env_num("COMB_SQLDIFF_SEED", 1);
    long rounds = env_num("COMB_SQLDIFF_ROUNDS", long_mode ? 20 : 6);
    long queries = env_num("COMB_SQLDIFF_QUERIES", long_mode ? 100000 : 3000);
    double seconds = (double)env_num("COMB_SQLDIFF_SECONDS", long_mode ? 36000 : 100);
    unsigned features = parse_features(getenv("COMB_SQLDIFF_FEATURES"));
    const char *dir = NULL;
    char tmpl[] = "/tmp/sqldiff.XXXXXX";
    Run rn = {0};
    long ran = 0, mismatches = 0, rows = 0, nonempty = 0, ordered = 0;
    double t0 = now_s();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            rn.verbose = true;
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
            seed = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
            rounds = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--queries") == 0)
            queries = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--seconds") == 0)
            seconds = strtod(argv[++i], NULL);
        else if (i + 1 < argc && strcmp(argv[i], "--features") == 0)
            features = parse_features(argv[++i]);
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else {
            fprintf(stderr, "usage: sqldiff [-v] [--seed N] [--rounds N] [--queries N] "
                            "[--seconds S] [--features LIST] [WAREHOUSE_DIR]\n");
            return 2;
        }
    }
    if (rounds < 1)
        rounds = 1;
    if (!dir && !(dir = mkdtemp(tmpl)))
        die("cannot make a temporary directory");
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(print_current);
    {
        SqlSessionOptions opt = {dir, "sqldiff", NULL};
        CombErr err;
        if (sql_session_open(&opt, &rn.s, &err) != COMB_OK) {
            fprintf(stderr, "sqldiff: session: %s\n", err.msg);
            return 2;
        }
    }
    printf("sqldiff: seed %ld, %ld rounds, %ld queries, features 0x%x, warehouse %s\n", seed,
           rounds, queries, features, dir);
    for (long round = 0; round < rounds && now_s() - t0 < seconds; round++) {
        World w = {0};
        long n_q = queries / rounds + (round < queries % rounds);
        rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)round + 1;
        w.features = features;
        w.n_tab = 2 + rnd(3);
        if (sqlite3_open(":memory:", &rn.db) != SQLITE_OK)
            die("sqlite3_open");
        both(&rn, fmt("CREATE DATABASE r%ld", round), NULL);
        both(&rn, fmt("USE r%ld", round), NULL);
        for (int k = 0; k < w.n_tab; k++)
            make_table(&rn, &w, k);
        for (int k = 0; k < w.n_tab; k++)
            if (w.tab[k].kind == 2)
                change_table(&rn, &w, &w.tab[k]);
        for (long i = 0; i < n_q && now_s() - t0 < seconds; i++) {
            Query q = gen_query(&w);
            Result c, l;
            if (rn.verbose)
                fprintf(stderr, "-- %s\n", q.h);
            comb_run(rn.s, &q, q.h, &c);
            lite_run(rn.db, &q, q.l, &l);
            if (compare(&q, &c, &l, rn.verbose))
                mismatches++;
            rows += l.n_rows;
            nonempty += l.n_rows > 0;
            ordered += q.ordered;
            result_free(&c);
            result_free(&l);
            pool_reset();
            ran++;
        }
        sqlite3_close(rn.db);
        rn.db = NULL;
    }
    sql_session_close(rn.s);
    if (dir == tmpl)
        {
        CombErr err;
        (void)fs_remove_tree(dir, &err);
    }
    printf("sqldiff: %ld of %ld queries run in %.1f s (%d setup statements; %ld queries with "
           "rows, %ld rows, %ld ordered), %ld mismatches, %d failed setup statements%s\n",
           ran, queries, now_s() - t0, rn.statements, nonempty, rows, ordered, mismatches,
           rn.failures,
           ran < queries ? " (stopped by the time limit)" : "");
    free(pool);
    return mismatches || rn.failures ? 1 : 0;
}
