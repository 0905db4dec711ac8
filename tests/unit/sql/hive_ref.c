/*
 * hive_ref.c - the Hive 4 reference evaluator of the differential
 * expression test (see hive_ref.h).  Each rule names the Hive source it
 * follows; the Hive classes were read in apache/hive (ql/, serde/).
 *
 * Typing
 *  - Literals (TypeCheckProcFactory.NumExprProcessor, ExprFactory.
 *    createConstantExpr): suffix L/S/Y = BIGINT/SMALLINT/TINYINT, a number
 *    with an exponent is DOUBLE, an integer is INT if it fits else BIGINT,
 *    anything else (1.5, 1.5BD, an integer beyond BIGINT) is a DECIMAL of
 *    its own precision and scale after HiveDecimal.create (trailing zeros
 *    dropped: 1.50 is decimal(2,1), 0.001 decimal(3,3)), DOUBLE beyond 38
 *    integer digits.  `-x` is negative(x), folded, keeping x's type:
 *    -2147483648 is BIGINT.
 *  - Arithmetic (GenericUDFBaseNumeric): strings count as DOUBLE; if either
 *    side is FLOAT/DOUBLE/string the result is the wider of the two after
 *    that (FLOAT op INT is FLOAT; with a DECIMAL it is DOUBLE), a DECIMAL
 *    with integers is DECIMAL, else the wider integer type (TINYINT op
 *    TINYINT is TINYINT and wraps as a byte).  `/` without a DECIMAL is
 *    DOUBLE (GenericUDFOPDivide, hive.compat=0.12), x/0, x%0 are NULL.  DIV
 *    is UDFOPLongDivide(LongWritable, LongWritable).
 *  - DECIMAL results (GenericUDFOPPlus/Minus/Multiply/Divide/Mod.derive-
 *    ResultDecimalTypeInfo, GenericUDFBaseNumeric.adjustPrecScale: past 38
 *    digits the scale shrinks to keep the integer digits, not below
 *    min(scale, 6)); an integer constant operand counts its digits
 *    (WritableConstantIntObjectInspector.precision).  Values: getHiveDecimal
 *    of each operand, HiveDecimal add/subtract/multiply exact then at most
 *    38 digits (HALF_UP), divide to scale 38 HALF_UP first, remainder; then
 *    the type's enforcePrecisionScale (HALF_UP, NULL when the integer
 *    digits do not fit).  Printed with the type's scale (LazyHiveDecimal,
 *    getString's toFormatString).  Casts: getHiveDecimal (doubles through
 *    Double.toString), UDFToInteger etc. truncate (NULL out of range).
 *  - Comparisons (GenericUDFBaseCompare, FunctionRegistry.
 *    getCommonClassForComparison): same-category types compare directly
 *    (CHAR by its stripped value), string groups as STRING, numbers in the
 *    wider type (INT vs FLOAT as FLOAT), string vs number as DOUBLE;
 *    two DECIMALs as they are, a DECIMAL with another number or a string
 *    in HiveDecimalUtils.getDecimalTypeForPrimitiveCategories (DOUBLE
 *    counts as decimal(15,15), strings as decimal(38,18)).
 *    Doubles compare with ObjectInspectorUtils.compare: -0.0 = 0.0, else
 *    Double.compare, so NaN = NaN and NaN is above +Infinity.
 *  - Constant narrowing (TypeCheckProcFactory.getXpathOrFuncExprNodeDesc,
 *    interpretNodeAsConstant, ExprNodeDescExprFactory.
 *    interpretConstantAsPrimitive): in `column op constant` and
 *    `column IN (constants)` the constant is first converted to the
 *    column's type (exact BigDecimal conversion for integers,
 *    Float.valueOf(text) for FLOAT, HiveChar/HiveVarchar for CHAR/VARCHAR
 *    columns when nothing is cut off; a DECIMAL constant only for FLOAT/
 *    DOUBLE columns); a comparison keeps a constant that does not convert,
 *    IN drops it, and IN with no constant left is FALSE.
 *  - CASE/IF/COALESCE/NVL and IN lists (GenericUDFUtils.
 *    ReturnObjectInspectorResolver -> FunctionRegistry.getCommonClass):
 *    number and string give STRING, two numbers the wider (DECIMALs and
 *    DECIMAL with other numbers: getDecimalTypeForPrimitiveCategories),
 *    BOOLEAN mixes with nothing.  GenericUDFIn unites its values the same
 *    way (getCommonClassForComparison), so two DECIMALs meet in a third.
 *  - Functions: GenericUDFUpper/Lower (any primitive, CHAR/VARCHAR keep
 *    their type, Java toUpperCase), GenericUDFLength (characters; CHAR
 *    without padding), GenericUDFAbs (TINYINT..INT -> INT, BIGINT, FLOAT/
 *    DOUBLE/STRING -> DOUBLE, VARCHAR/CHAR rejected), GenericUDFConcat (`||`
 *    too; all CHAR -> CHAR, CHAR/VARCHAR -> VARCHAR, else STRING),
 *    GenericUDFBaseTrim (STRING/VARCHAR/CHAR only, spaces only),
 *    UDFLike (`_` one character, `%` any, `\` escapes).
 *  - Casts: UDFToBoolean (numbers != 0; strings: '', false, off, no, 0 in
 *    any case are false), UDFToByte/Short/Integer/Long (Java narrowing:
 *    (byte)(int)d, (int)d saturates, NaN -> 0; strings through
 *    LazyUtils.isNumberMaybe and LazyInteger.parseInt(trim=true): spaces
 *    trimmed, '1.5' -> 1, out of range -> NULL), UDFToFloat/UDFToDouble
 *    (Float.valueOf / Double.valueOf: Java syntax, '1d' = 1.0, 'inf' is
 *    NULL), GenericUDFToString (TRUE/FALSE, Float/Double.toString, CHAR
 *    stripped), GenericUDFToVarchar/ToChar (cut to n, CHAR padded).
 *  - CHAR (HiveCharWritable, LazyUtils.writePrimitiveUTF8): a CHAR column
 *    prints padded; functions see the value without trailing spaces;
 *    values built from such text (upper(c), concat of CHARs) are stored
 *    unpadded and print unpadded; CAST(x AS CHAR(n)) pads.
 *  - Output (LazySimpleSerDe): booleans true/false, Float.toString,
 *    Double.toString (at least two significant digits: 4.9E-324).
 *  - ORDER BY (BinarySortableSerDe.serializeDouble, hive.default.nulls.last):
 *    doubles by their sign-flipped bits (-0.0 before 0.0, NaN last),
 *    ASC NULLS LAST, DESC NULLS FIRST.
 *
 * Not modelled (binding says HB_EXCLUDE, evaluation HE_UNKNOWN / HE_MODE):
 *  - DECIMAL: NULL literals in decimal arithmetic; integer constants in
 *    decimal arithmetic that are not literals (whether Hive folded them,
 *    and so counted their digits); DIV of decimals beyond BIGINT
 *    (HiveDecimal.longValue); COALESCE/NVL whose first non-NULL value does
 *    not fit the DECIMAL result type (row mode gives NULL, vectorized mode
 *    converts all values first).
 *  - BOOLEAN compared with or mixed into non-BOOLEAN values, in arithmetic,
 *    LIKE, upper/lower/concat (getString printed true before HIVE's
 *    TRUE/FALSE change), or cast to VARCHAR/CHAR; AND/OR/NOT over
 *    non-booleans (Hive inserts casts).
 *  - NaN in an ordering comparison: GenericUDF (row mode, also constant
 *    folding) says NaN > everything, vectorized expressions say false; such
 *    cells are HE_MODE.  IN over FLOAT/DOUBLE where NaN or zeros of both
 *    signs meet (HashSet of DoubleWritable in row mode, compare() or bits
 *    elsewhere) is HE_UNKNOWN.
 *  - DIV by zero (ArithmeticException in row mode) and DIV of a string whose
 *    BIGINT conversion through LazyLong and through double disagree.  DIV of
 *    DOUBLE operands follows issue 5 ((long) of each side) although
 *    UDFOPLongDivide only declares evaluate(LongWritable, LongWritable).
 *  - BETWEEN with a NULL operand where GenericUDFBetween (NULL if the lower
 *    test is NULL) disagrees with SQL's three-valued AND.
 *  - abs() of a string that does not parse (GenericUDFAbs dereferences the
 *    converter's NULL), NULL literals as function arguments, NULL + NULL.
 *  - upper/lower of letters outside ASCII, Latin-1 and CJK, or whose result
 *    outgrows a VARCHAR/CHAR argument's length.
 *  - Simple CASE, IN lists and LIKE mixing strings with numbers; NULL in IN
 *    lists or IN entries that evaluate to NULL; unary minus of strings;
 *    length/trim of non-strings.
 *  - `CASE column WHEN constant`: GenericUDFCase compares in the common type,
 *    a planner rewrite to `column = constant` would narrow the constant;
 *    cells where the two readings differ are HE_UNKNOWN.  Likewise a
 *    narrowed constant that is not a literal (CAST('1' AS INT)): Hive
 *    narrows it only if the type checker folded it first.
 *  - Hex floating-point strings, strings with tabs or line breaks,
 *    characters outside the BMP; commons-lang number forms that changed
 *    between versions (leading '+' or zeros) in narrowed constants.
 *  - Double.toString of JDKs before 19 is not always the shortest; this
 *    reference prints the shortest (with two digits at least).
 */
#include "hive_ref.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ trees */

typedef enum HKind {
    HK_LIT, HK_COL, HK_NEG, HK_NOT, HK_AND, HK_OR, HK_ARITH, HK_CMP,
    HK_ISNULL, HK_BETWEEN, HK_IN, HK_LIKE, HK_CASE, HK_CAST, HK_FUNC
} HKind;

typedef enum HOp {
    HO_NONE, HO_ADD, HO_SUB, HO_MUL, HO_DIV, HO_MOD, HO_IDIV,
    HO_EQ, HO_NE, HO_LT, HO_LE, HO_GT, HO_GE, HO_NSEQ
} HOp;

typedef enum HFn {
    HF_UPPER, HF_LOWER, HF_LENGTH, HF_ABS, HF_CONCAT, HF_TRIM, HF_LTRIM,
    HF_RTRIM, HF_COALESCE, HF_NVL, HF_IF
} HFn;

typedef enum HLit { HL_NUM, HL_STR, HL_BOOL, HL_NULL } HLit;

struct HExpr {
    HKind kind;
    HOp op;
    HFn fn;
    HLit lit_kind;
    bool negated;        /* IS NOT NULL, NOT BETWEEN/IN/LIKE */
    HExpr *a, *b, *c;    /* operands; CASE: a = subject, c = ELSE */
    HExpr **args;        /* IN list, call arguments, CASE WHEN/THEN pairs */
    int n_args;
    HVal lit;            /* literal value (numbers: set by binding) */
    int col;
    HTy cast_to;
    const char *src;     /* the parsed text */
    int start, end;      /* this node's slice of src (with parentheses) */
    int tok_start, tok_end;  /* a number literal's own token */
    /* set by binding */
    HTy ty;
    bool is_const;       /* no column below: Hive folds it at compile time */
    bool in_false;       /* IN whose constants all failed narrowing */
    HTy cmp_ty;          /* CMP, IN, simple CASE: type compared in; BETWEEN: >= */
    HTy cmp_ty2;         /* BETWEEN: type of the <= test */
    /* Narrowing of a constant that is not a plain literal depends on
     * whether Hive folded it first; both variants are kept and must agree. */
    bool narrow_uncertain;
    HExpr *orig_a, *orig_b;
    HExpr **orig_args;
    int orig_n;
    HTy orig_cmp;
};

static const HTy T_VOID = {HT_VOID, 0}, T_BOOL = {HT_BOOLEAN, 0},
                 T_INT = {HT_INT, 0}, T_BIGINT = {HT_BIGINT, 0},
                 T_DOUBLE = {HT_DOUBLE, 0}, T_STRING = {HT_STRING, 0};

static void set_why(HRef *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_why(HRef *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

static bool is_intfam(HType t)
{
    return t == HT_TINYINT || t == HT_SMALLINT || t == HT_INT || t == HT_BIGINT;
}

static bool is_fp(HType t) { return t == HT_FLOAT || t == HT_DOUBLE; }
static bool is_num(HType t) { return is_intfam(t) || is_fp(t) || t == HT_DECIMAL; }

static bool is_strfam(HType t)
{
    return t == HT_STRING || t == HT_VARCHAR || t == HT_CHAR;
}

/* TypeInfoUtils.numericTypes order. */
static int num_rank(HType t)
{
    switch (t) {
    case HT_TINYINT: return 1;
    case HT_SMALLINT: return 2;
    case HT_INT: return 3;
    case HT_BIGINT: return 4;
    case HT_FLOAT: return 5;
    case HT_DOUBLE: return 6;
    case HT_DECIMAL: return 7;
    default: return 0;
    }
}

static bool ty_eq(HTy a, HTy b)
{
    return a.t == b.t && a.len == b.len && a.prec == b.prec && a.scale == b.scale;
}

static HTy t_decimal(int prec, int scale)
{
    HTy t = {HT_DECIMAL, 0, prec, scale};
    return t;
}

const char *href_type_name(HRef *r, HTy t)
{
    static const char *const names[] = {
        "void", "boolean", "tinyint", "smallint", "int", "bigint", "float",
        "double", "string", "varchar", "char"};
    if (t.t == HT_VARCHAR || t.t == HT_CHAR)
        return comb_arena_printf(&r->arena, "%s(%d)", names[t.t], t.len);
    if (t.t == HT_DECIMAL)
        return comb_arena_printf(&r->arena, "decimal(%d,%d)", t.prec, t.scale);
    return names[t.t];
}

/* ------------------------------------------------- Java numbers and text */

static int64_t wrap_to(HType t, int64_t v)
{
    uint64_t u = (uint64_t)v;
    switch (t) {
    case HT_TINYINT: return (int8_t)(uint8_t)u;
    case HT_SMALLINT: return (int16_t)(uint16_t)u;
    case HT_INT: return (int32_t)(uint32_t)u;
    default: return v;
    }
}

/* Java's (int) or (long) of a double: truncation, saturating at the
 * type's range, NaN -> 0.  (byte) and (short) narrow the int further. */
static int64_t java_trunc(double d, int64_t lo, int64_t hi)
{
    if (isnan(d))
        return 0;
    if (d >= (double)hi)
        return hi;
    if (d <= (double)lo)
        return lo;
    return (int64_t)d;
}

static int64_t java_d2l(double d)
{
    return java_trunc(d, INT64_MIN, INT64_MAX);
}

static int64_t java_fp_to(HType t, double d)
{
    return t == HT_BIGINT ? java_d2l(d) : wrap_to(t, java_trunc(d, INT32_MIN, INT32_MAX));
}

/* Shortest decimal digits (two at least, as Java prints them) that read
 * back as the value: digits without point, exponent of the first digit. */
static int java_digits(double d, bool is_float, char *digits, int *exp10)
{
    char buf[64];
    int nd = 0;
    for (int prec = 2; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (is_float ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d)
            break;
    }
    for (const char *p = buf; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    *exp10 = atoi(strchr(buf, 'e') + 1);
    return nd;
}

static void java_fp_text(double d, bool is_float, char *out, size_t n)
{
    char digits[32], buf[64];
    int e10, nd, k = 0;
    double mag = fabs(d);
    if (isnan(d)) {
        snprintf(out, n, "NaN");
        return;
    }
    if (isinf(d)) {
        snprintf(out, n, "%sInfinity", d < 0 ? "-" : "");
        return;
    }
    if (d == 0) {
        snprintf(out, n, "%s0.0", signbit(d) ? "-" : "");
        return;
    }
    nd = java_digits(mag, is_float, digits, &e10);
    if (d < 0)
        buf[k++] = '-';
    if (mag >= 1e-3 && mag < 1e7) {
        /* plain notation: all integer digits, then at least one more */
        if (e10 < 0) {
            buf[k++] = '0';
            buf[k++] = '.';
            for (int z = -1; z > e10; z--)
                buf[k++] = '0';
            for (int i = 0; i < nd; i++)
                buf[k++] = digits[i];
        } else {
            for (int i = 0; i <= e10; i++)
                buf[k++] = i < nd ? digits[i] : '0';
            buf[k++] = '.';
            if (nd <= e10 + 1)
                buf[k++] = '0';
            for (int i = e10 + 1; i < nd; i++)
                buf[k++] = digits[i];
        }
        buf[k] = '\0';
    } else {
        buf[k++] = digits[0];
        buf[k++] = '.';
        if (nd == 1)
            buf[k++] = '0';
        for (int i = 1; i < nd; i++)
            buf[k++] = digits[i];
        snprintf(buf + k, sizeof buf - (size_t)k, "E%d", e10);
    }
    snprintf(out, n, "%s", buf);
}

void href_java_double(double d, char *buf, size_t n)
{
    java_fp_text(d, false, buf, n);
}

void href_java_float(float f, char *buf, size_t n)
{
    java_fp_text(f, true, buf, n);
}

typedef enum JParse { JP_OK, JP_FAIL, JP_UNKNOWN } JParse;

/* Double.parseDouble / Float.parseFloat: String.trim(), sign, NaN,
 * Infinity, digits[.digits][e[sign]digits] and an f/F/d/D suffix. */
static JParse java_parse_fp(const char *s, size_t n, bool to_float, double *out)
{
    char buf[160];
    size_t b = 0, e = n, i, k = 0, nd = 0;
    bool neg = false;
    while (b < e && (unsigned char)s[b] <= ' ')
        b++;
    while (e > b && (unsigned char)s[e - 1] <= ' ')
        e--;
    if (b == e)
        return JP_FAIL;
    if (e - b > 100)
        return JP_UNKNOWN;
    i = b;
    if (s[i] == '+' || s[i] == '-')
        neg = s[i++] == '-';
    if (e - i == 3 && memcmp(s + i, "NaN", 3) == 0) {
        *out = NAN;
        return JP_OK;
    }
    if (e - i == 8 && memcmp(s + i, "Infinity", 8) == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return JP_OK;
    }
    if (e - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        return JP_UNKNOWN;
    buf[k++] = neg ? '-' : '+';
    while (i < e && s[i] >= '0' && s[i] <= '9') {
        buf[k++] = s[i++];
        nd++;
    }
    if (i < e && s[i] == '.') {
        buf[k++] = s[i++];
        while (i < e && s[i] >= '0' && s[i] <= '9') {
            buf[k++] = s[i++];
            nd++;
        }
    }
    if (nd == 0)
        return JP_FAIL;
    if (i < e && (s[i] == 'e' || s[i] == 'E')) {
        size_t ed = 0;
        buf[k++] = 'e';
        i++;
        if (i < e && (s[i] == '+' || s[i] == '-'))
            buf[k++] = s[i++];
        while (i < e && s[i] >= '0' && s[i] <= '9') {
            buf[k++] = s[i++];
            ed++;
        }
        if (ed == 0)
            return JP_FAIL;
    }
    if (i < e && strchr("fFdD", s[i]))
        i++;
    if (i != e)
        return JP_FAIL;
    buf[k] = '\0';
    *out = to_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
    return JP_OK;
}

/* LazyUtils.isNumberMaybe */
static bool is_number_maybe(const char *s, size_t n)
{
#define DIG(c) ((c) >= '0' && (c) <= '9')
    switch (n) {
    case 0: return false;
    case 1: return DIG(s[0]);
    case 2: return DIG(s[1]) || DIG(s[0]);
    case 4: return !(s[0] == 'N' || s[0] == 'n');
    default: return true;
    }
#undef DIG
}

/* UDFToByte/Short/Integer/Long(Text): isNumberMaybe, then
 * LazyInteger/LazyLong.parse with trim=true: sign, digits, and an optional
 * '.' followed by digits only (the fraction is dropped); overflow fails.
 * Byte and short parse as int and fail outside their range. */
static bool hive_parse_integral(const char *s, size_t n, HType t, int64_t *out)
{
    int64_t lim = t == HT_BIGINT ? INT64_MIN : INT32_MIN, result = 0;
    size_t b = 0, e = n, i;
    bool neg;
    if (!is_number_maybe(s, n))
        return false;
    while (b < e && s[b] == ' ')
        b++;
    while (e > b && s[e - 1] == ' ')
        e--;
    if (b == e)
        return false;
    neg = s[b] == '-';
    i = b;
    if (neg || s[b] == '+') {
        i++;
        if (e - b == 1)
            return false;
    }
    for (; i < e; i++) {
        __int128 next;
        if (s[i] == '.') {
            for (i++; i < e; i++)
                if (s[i] < '0' || s[i] > '9')
                    return false;
            break;
        }
        if (s[i] < '0' || s[i] > '9')
            return false;
        next = (__int128)result * 10 - (s[i] - '0');
        if (next < lim)
            return false;
        result = (int64_t)next;
    }
    if (!neg) {
        if (result == lim)
            return false;
        result = -result;
    }
    if (wrap_to(t, result) != result)
        return false;
    *out = result;
    return true;
}

/* commons-lang NumberUtils.isNumber for the plain forms BigDecimal takes
 * once a type suffix is removed: 1 yes, 0 no, -1 for forms whose verdict
 * changed between commons-lang versions (leading '+' or zeros, hex). */
static int lang_is_number(const char *s, size_t n)
{
    size_t i = 0, nd = 0;
    bool point = false, expo = false;
    if (n == 0)
        return 0;
    if (s[0] == '+')
        return -1;
    if (s[0] == '-')
        i++;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] >= '0' && s[i + 1] <= '9'))
        return -1;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        return -1;
    for (; i < n; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9') {
            nd++;
        } else if (ch == '.' && !point && !expo) {
            point = true;
        } else if ((ch == 'e' || ch == 'E') && nd && !expo) {
            expo = true;
            if (i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-'))
                i++;
            if (i + 1 >= n)
                return 0;
        } else if (i == n - 1 && nd && strchr("dDfF", ch)) {
            return 1;
        } else if (i == n - 1 && nd && (ch == 'l' || ch == 'L')) {
            return point || expo ? 0 : 1;
        } else {
            return 0;
        }
    }
    if (nd == 0 || s[n - 1] == '.')
        return nd ? -1 : 0;
    return 1;
}

/* new BigDecimal(s without a [dDfFlL] suffix).<int|long|..>ValueExact():
 * true with the value if s is an integer within [lo, hi]. */
static bool bigdec_exact(const char *s, size_t n, int64_t lo, int64_t hi,
                         int64_t *out)
{
    char digits[128];
    size_t nd = 0, i = 0;
    long frac = 0, ex = 0;
    bool neg = false, point = false;
    __int128 v = 0;
    if (n && strchr("dDfFlL", s[n - 1]))
        n--;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            point = true;
            continue;
        }
        if (nd + 1 >= sizeof digits)
            return false;
        digits[nd++] = s[i];
        frac += point;
    }
    if (i < n)
        ex = strtol(s + i + 1, NULL, 10);
    /* value = digits * 10^(ex - frac) */
    ex -= frac;
    while (ex < 0 && nd > 0) {
        if (digits[nd - 1] != '0')
            return false;
        nd--;
        ex++;
    }
    for (size_t k = 0; k < nd; k++) {
        v = v * 10 + (digits[k] - '0');
        if (v > ((__int128)1 << 64))
            return false;
    }
    for (; ex > 0 && v != 0; ex--) {
        v *= 10;
        if (v > ((__int128)1 << 64))
            return false;
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi)
        return false;
    *out = (int64_t)v;
    return true;
}

/* ---------------------------------------------------------------- UTF-8 */

static size_t utf8_next(const char *s, size_t n, size_t i, uint32_t *cp)
{
    unsigned char c = (unsigned char)s[i];
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t v = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
    if (i + len > n)
        len = n - i;
    for (size_t k = 1; k < len; k++)
        v = (v << 6) | ((unsigned char)s[i + k] & 0x3Fu);
    *cp = v;
    return i + len;
}

static size_t utf8_put(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

/* Bytes of the first `chars` characters of s. */
static size_t utf8_prefix(const char *s, size_t n, size_t chars)
{
    size_t i = 0;
    uint32_t cp;
    while (i < n && chars-- > 0)
        i = utf8_next(s, n, i, &cp);
    return i;
}

/* Java's String.toUpperCase/toLowerCase for the letters this test uses:
 * ASCII, Latin-1 (ß -> SS, ÿ <-> Ÿ) and caseless CJK; false otherwise. */
static bool java_case_cp(uint32_t cp, bool upper, uint32_t *o, int *n_out)
{
    *n_out = 1;
    if (cp < 0x80) {
        o[0] = upper ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp)
                     : (cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
        return true;
    }
    if (cp >= 0x80 && cp < 0xC0) {
        o[0] = cp;
        return cp != 0xB5; /* µ upper-cases to Greek */
    }
    if (cp == 0xD7 || cp == 0xF7) {
        o[0] = cp;
        return true;
    }
    if (cp == 0xDF) {
        if (upper) {
            o[0] = 'S';
            o[1] = 'S';
            *n_out = 2;
        } else {
            o[0] = cp;
        }
        return true;
    }
    if (cp >= 0xC0 && cp <= 0xDE) {
        o[0] = upper ? cp : cp + 0x20;
        return true;
    }
    if (cp >= 0xE0 && cp <= 0xFE) {
        o[0] = upper ? cp - 0x20 : cp;
        return true;
    }
    if (cp == 0xFF || cp == 0x178) {
        o[0] = upper ? 0x178 : 0xFF;
        return true;
    }
    if ((cp >= 0x3000 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7A3)) {
        o[0] = cp;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------- BigDecimal */

/* Just enough of java.math.BigDecimal for HiveDecimal: exact parsing,
 * addition, subtraction, multiplication, division to a scale and the
 * remainder, HALF_UP rounding, comparison and plain text.  Digits are
 * kept most significant first; scales never go negative. */

#define HD_MAX ((int)sizeof(((HDec *)0)->d))

static bool hd_is_zero(const HDec *x)
{
    return x->nd == 1 && x->d[0] == 0;
}

static void hd_zero(HDec *x)
{
    memset(x, 0, sizeof *x);
    x->nd = 1;
}

static void hd_trim_lead(HDec *x)
{
    int k = 0;
    while (k < x->nd - 1 && x->d[k] == 0)
        k++;
    memmove(x->d, x->d + k, (size_t)(x->nd - k));
    x->nd -= k;
    if (hd_is_zero(x))
        x->neg = false;
}

/* Multiply by 10^k keeping the value: k more fraction digits. */
static bool hd_widen(HDec *x, int k)
{
    if (x->nd + k > HD_MAX)
        return false;
    memset(x->d + x->nd, 0, (size_t)k);
    x->nd += k;
    x->scale += k;
    return true;
}

/* Integer digits (nd - scale; zero or less for values below 1). */
static int hd_int_digits(const HDec *x)
{
    return hd_is_zero(x) ? 1 : x->nd - x->scale;
}

/* BigDecimal(String) after HiveDecimal's blank trimming: sign, digits,
 * '.', exponent. */
static bool hd_parse(const char *s, size_t n, HDec *x)
{
    size_t i = 0;
    long exp = 0;
    bool any = false;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    while (i < n && s[i] == ' ')
        i++;
    memset(x, 0, sizeof *x);
    if (i < n && (s[i] == '-' || s[i] == '+'))
        x->neg = s[i++] == '-';
    for (bool frac = false; i < n; i++) {
        if (s[i] == '.' && !frac) {
            frac = true;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            break;
        if (x->nd == HD_MAX)
            return false;
        x->d[x->nd++] = (char)(s[i] - '0');
        x->scale += frac;
        any = true;
    }
    if (!any)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        char buf[16], *end;
        if (n - i - 1 == 0 || n - i - 1 >= sizeof buf)
            return false;
        memcpy(buf, s + i + 1, n - i - 1);
        buf[n - i - 1] = '\0';
        exp = strtol(buf, &end, 10);
        if (*end || exp > 99 || exp < -99)
            return false;
        i = n;
    }
    if (i != n)
        return false;
    x->scale -= (int)exp;
    if (x->scale < 0 && !hd_widen(x, -x->scale))
        return false;
    if (x->scale < 0)
        x->scale = 0;
    hd_trim_lead(x);
    return true;
}

static void hd_from_long(int64_t v, HDec *x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    hd_parse(buf, strlen(buf), x);
}

/* HALF_UP (away from zero on a tie) to `scale` fraction digits. */
static void hd_round(HDec *x, int scale)
{
    int drop = x->scale - scale, keep = x->nd - drop;
    bool up;
    if (drop <= 0)
        return;
    up = keep >= 0 && keep < x->nd && x->d[keep] >= 5;
    if (keep <= 0) {
        bool neg = x->neg;
        up = keep == 0 && x->d[0] >= 5;
        hd_zero(x);
        x->scale = scale;
        if (up) {
            x->d[0] = 1;
            x->neg = neg;
        }
        return;
    }
    x->nd = keep;
    x->scale = scale;
    for (int k = keep - 1; up && k >= 0; k--) {
        up = ++x->d[k] == 10;
        if (up)
            x->d[k] = 0;
    }
    if (up) {
        memmove(x->d + 1, x->d, (size_t)x->nd);
        x->d[0] = 1;
        x->nd++;
    }
    hd_trim_lead(x);
}

/* Trailing fraction zeros removed (BigDecimal.stripTrailingZeros, then
 * no negative scale). */
static void hd_strip(HDec *x)
{
    while (x->scale > 0 && x->nd > 1 && x->d[x->nd - 1] == 0) {
        x->nd--;
        x->scale--;
    }
    if (hd_is_zero(x))
        x->scale = 0;
}

/* HiveDecimal.create(bd, allowRounding = true): stripped, at most 38
 * integer digits, fraction digits beyond 38 significant ones rounded. */
static bool hd_normalize(HDec *x)
{
    int int_digits, max_scale;
    hd_strip(x);
    int_digits = hd_is_zero(x) ? 0 : x->nd - x->scale;
    if (int_digits > 38)
        return false;
    max_scale = 38 - int_digits < 38 ? 38 - int_digits : 38;
    if (max_scale > x->scale)
        max_scale = x->scale;
    if (x->scale > max_scale) {
        hd_round(x, max_scale);
        hd_strip(x);
    }
    return hd_int_digits(x) <= 38;
}

/* HiveDecimal.enforcePrecisionScale(p, s): rounded to s, NULL (false)
 * when the integer digits exceed p - s. */
static bool hd_enforce(HDec *x, int p, int s)
{
    hd_strip(x);
    if (x->scale > s)
        hd_round(x, s);
    return hd_is_zero(x) || x->nd - x->scale <= p - s;
}

/* HiveDecimal.precision(): significant digits, at least the scale. */
static int hd_precision(const HDec *x)
{
    return x->nd > x->scale ? x->nd : x->scale;
}

static int hd_cmp_mag(const HDec *a, const HDec *b)
{
    HDec x = *a, y = *b;
    if (x.scale < y.scale)
        hd_widen(&x, y.scale - x.scale);
    else
        hd_widen(&y, x.scale - y.scale);
    hd_trim_lead(&x);   /* a widened zero has leading zeros */
    hd_trim_lead(&y);
    if (x.nd != y.nd)
        return x.nd < y.nd ? -1 : 1;
    for (int k = 0; k < x.nd; k++)
        if (x.d[k] != y.d[k])
            return x.d[k] < y.d[k] ? -1 : 1;
    return 0;
}

static int hd_cmp(const HDec *a, const HDec *b)
{
    if (a->neg != b->neg)
        return a->neg ? -1 : 1;
    return a->neg ? -hd_cmp_mag(a, b) : hd_cmp_mag(a, b);
}

/* |x| + |y| or |x| - |y| (|x| >= |y|), at one scale. */
static void hd_mag_addsub(const HDec *x, const HDec *y, bool sub, HDec *out)
{
    int carry = 0, n = x->nd > y->nd ? x->nd : y->nd;
    char r[HD_MAX + 1];
    for (int k = 0; k < n; k++) {
        int a = k < x->nd ? x->d[x->nd - 1 - k] : 0;
        int b = k < y->nd ? y->d[y->nd - 1 - k] : 0;
        int v = sub ? a - b - carry : a + b + carry;
        carry = sub ? v < 0 : v >= 10;
        r[k] = (char)(sub ? (v + 10) % 10 : v % 10);
    }
    if (carry && !sub)
        r[n++] = 1;
    out->nd = n;
    for (int k = 0; k < n; k++)
        out->d[k] = r[n - 1 - k];
    out->scale = x->scale;
    hd_trim_lead(out);
}

static bool hd_add(const HDec *a, const HDec *b, bool subtract, HDec *out)
{
    HDec x = *a, y = *b;
    bool yneg = subtract ? !b->neg : b->neg;
    if ((x.scale < y.scale && !hd_widen(&x, y.scale - x.scale)) ||
        (y.scale < x.scale && !hd_widen(&y, x.scale - y.scale)) ||
        x.nd + 1 > HD_MAX || y.nd + 1 > HD_MAX)
        return false;
    memset(out, 0, sizeof *out);
    if (x.neg == yneg) {
        hd_mag_addsub(&x, &y, false, out);
        out->neg = x.neg;
    } else if (hd_cmp_mag(&x, &y) >= 0) {
        hd_mag_addsub(&x, &y, true, out);
        out->neg = x.neg;
    } else {
        hd_mag_addsub(&y, &x, true, out);
        out->neg = yneg;
    }
    if (hd_is_zero(out))
        out->neg = false;
    return true;
}

static bool hd_mul(const HDec *a, const HDec *b, HDec *out)
{
    int r[HD_MAX * 2];
    int n = a->nd + b->nd;
    if (n > HD_MAX)
        return false;
    memset(r, 0, sizeof r);
    for (int i = a->nd - 1; i >= 0; i--)
        for (int j = b->nd - 1; j >= 0; j--)
            r[i + j + 1] += a->d[i] * b->d[j];
    for (int k = n - 1; k > 0; k--) {
        r[k - 1] += r[k] / 10;
        r[k] %= 10;
    }
    memset(out, 0, sizeof *out);
    out->nd = n;
    for (int k = 0; k < n; k++)
        out->d[k] = (char)r[k];
    out->scale = a->scale + b->scale;
    out->neg = a->neg != b->neg;
    hd_trim_lead(out);
    return true;
}

/* |a| / |b| as integers (both at one scale): quotient digits and the
 * remainder, by long division. */
static bool hd_divmod_mag(const HDec *a, const HDec *b, HDec *q, HDec *rem)
{
    HDec r;
    hd_zero(&r);
    memset(q, 0, sizeof *q);
    for (int k = 0; k < a->nd; k++) {
        int digit = 0;
        if (!hd_widen(&r, 1))
            return false;
        r.scale = 0;
        r.d[r.nd - 1] = a->d[k];
        hd_trim_lead(&r);
        while (hd_cmp_mag(&r, b) >= 0) {
            hd_mag_addsub(&r, b, true, &r);
            digit++;
        }
        q->d[q->nd++] = (char)digit;
    }
    hd_trim_lead(q);
    *rem = r;
    return true;
}

/* a / b rounded HALF_UP to `scale` fraction digits (BigDecimal.divide). */
static bool hd_div(const HDec *a, const HDec *b, int scale, HDec *out)
{
    HDec x = *a, y = *b, rem, twice;
    int shift;
    if (hd_is_zero(b))
        return false;
    /* x / y = (x * 10^shift) / y at scale: integers after alignment */
    x.neg = y.neg = false;
    shift = scale + y.scale - x.scale;
    if ((shift > 0 && !hd_widen(&x, shift)) || (shift < 0 && !hd_widen(&y, -shift)))
        return false;
    x.scale = 0;
    y.scale = 0;
    if (!hd_divmod_mag(&x, &y, out, &rem))
        return false;
    twice = rem;
    hd_mag_addsub(&rem, &rem, false, &twice);
    if (hd_cmp_mag(&twice, &y) >= 0) {
        HDec one;
        hd_from_long(1, &one);
        hd_mag_addsub(out, &one, false, out);
    }
    out->scale = scale;
    out->neg = a->neg != b->neg && !hd_is_zero(out);
    return true;
}

/* a % b with the sign of a (BigDecimal.remainder). */
static bool hd_rem(const HDec *a, const HDec *b, HDec *out)
{
    HDec x = *a, y = *b, q;
    int scale = a->scale > b->scale ? a->scale : b->scale;
    if (hd_is_zero(b))
        return false;
    hd_widen(&x, scale - x.scale);
    hd_widen(&y, scale - y.scale);
    x.scale = y.scale = 0;
    if (!hd_divmod_mag(&x, &y, &q, out))
        return false;
    out->scale = scale;
    out->neg = a->neg && !hd_is_zero(out);
    return true;
}

/* Plain text (BigDecimal.toPlainString) with at least min_scale fraction
 * digits. */
static void hd_text(const HDec *x, int min_scale, char *buf, size_t n)
{
    HDec y = *x;
    char tmp[HD_MAX + 8];
    size_t k = 0;
    int int_digits;
    if (y.scale < min_scale)
        hd_widen(&y, min_scale - y.scale);
    int_digits = y.nd - y.scale;
    if (y.neg)
        tmp[k++] = '-';
    if (int_digits <= 0)
        tmp[k++] = '0';
    for (int i = 0; i < int_digits; i++)
        tmp[k++] = (char)('0' + y.d[i]);
    if (y.scale > 0) {
        tmp[k++] = '.';
        for (int i = int_digits; i < 0; i++)
            tmp[k++] = '0';
        for (int i = int_digits > 0 ? int_digits : 0; i < y.nd; i++)
            tmp[k++] = (char)('0' + y.d[i]);
    }
    tmp[k] = '\0';
    snprintf(buf, n, "%s", tmp);
}

/* ----------------------------------------------------------------- values */

static HVal hv_null(HTy t)
{
    HVal v;
    memset(&v, 0, sizeof v);
    v.ty = t;
    v.null = true;
    return v;
}

static HVal hv_int(HTy t, int64_t i)
{
    HVal v = hv_null(t);
    v.null = false;
    v.i = t.t == HT_BOOLEAN ? i != 0 : wrap_to(t.t, i);
    return v;
}

static HVal hv_fp(HTy t, double d)
{
    HVal v = hv_null(t);
    v.null = false;
    v.d = t.t == HT_FLOAT ? (double)(float)d : d;
    return v;
}

static HVal hv_str(HTy t, const char *s, size_t n)
{
    HVal v = hv_null(t);
    v.null = false;
    v.s = s;
    v.n = n;
    return v;
}

/* A DECIMAL value (copied into arena a); NULL when x is NULL. */
static HVal hv_dec(CombArena *a, HTy t, const HDec *x)
{
    HDec *copy;
    if (!x)
        return hv_null(t);
    copy = comb_arena_alloc(a, sizeof *copy);
    *copy = *x;
    HVal v = hv_null(t);
    v.null = false;
    v.dec = copy;
    return v;
}

/* A CHAR's value without its trailing spaces (what functions see). */
static size_t stripped_len(const HVal *v)
{
    size_t n = v->n;
    if (v->ty.t == HT_CHAR)
        while (n > 0 && v->s[n - 1] == ' ')
            n--;
    return n;
}

/* PrimitiveObjectInspectorUtils.getString (BOOLEAN as the newest Hive
 * prints it; callers exclude the contexts where older Hive said true). */
static void text_of(HRef *r, const HVal *v, const char **s, size_t *n)
{
    char buf[64];
    switch (v->ty.t) {
    case HT_BOOLEAN:
        *s = v->i ? "TRUE" : "FALSE";
        *n = strlen(*s);
        return;
    case HT_FLOAT:
        href_java_float((float)v->d, buf, sizeof buf);
        break;
    case HT_DOUBLE:
        href_java_double(v->d, buf, sizeof buf);
        break;
    case HT_DECIMAL:    /* with the type's scale, as comb's CAST gives */
        hd_text(v->dec, v->ty.scale, buf, sizeof buf);
        break;
    case HT_STRING:
    case HT_VARCHAR:
    case HT_CHAR:
        *s = v->s;
        *n = stripped_len(v);
        return;
    default:
        snprintf(buf, sizeof buf, "%lld", (long long)v->i);
        break;
    }
    *n = strlen(buf);
    *s = comb_arena_strndup(&r->scratch, buf, *n);
}

/* A value made into VARCHAR(len) (cut) or CHAR(len) (cut and padded). */
static HVal fit_text(HRef *r, HTy to, const char *s, size_t n)
{
    size_t cut = utf8_prefix(s, n, (size_t)to.len), chars, pad;
    char *p;
    if (to.t == HT_VARCHAR)
        return hv_str(to, s, cut);
    /* HiveChar keeps the value without trailing spaces, then pads */
    while (cut > 0 && s[cut - 1] == ' ')
        cut--;
    chars = utf8_chars(s, cut);
    pad = (size_t)to.len > chars ? (size_t)to.len - chars : 0;
    p = comb_arena_alloc(&r->scratch, cut + pad + 1);
    memcpy(p, s, cut);
    memset(p + cut, ' ', pad);
    return hv_str(to, p, cut + pad);
}

/* BigDecimal.doubleValue / floatValue: the nearest, from the exact text. */
static double dec_as_double(const HDec *x, bool to_float)
{
    char buf[256];
    hd_text(x, 0, buf, sizeof buf);
    return to_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
}

static double num_as_double(const HVal *v)
{
    if (v->ty.t == HT_DECIMAL)
        return dec_as_double(v->dec, false);
    return is_fp(v->ty.t) ? v->d : (double)v->i;
}

/* PrimitiveObjectInspectorUtils.getHiveDecimal then the type's
 * enforcePrecisionScale (NULL when it does not fit); false when the
 * source is not modelled. */
static bool to_decimal(HRef *r, const HVal *v, HTy to, HVal *out)
{
    HDec x;
    char buf[64];
    bool ok;
    switch (v->ty.t) {
    case HT_DECIMAL:
        x = *v->dec;
        ok = true;
        break;
    case HT_FLOAT:
    case HT_DOUBLE:
        if (isnan(v->d) || isinf(v->d)) {
            ok = false;
            break;
        }
        if (v->ty.t == HT_FLOAT)
            href_java_float((float)v->d, buf, sizeof buf);
        else
            href_java_double(v->d, buf, sizeof buf);
        ok = hd_parse(buf, strlen(buf), &x) && hd_normalize(&x);
        break;
    case HT_STRING:
    case HT_VARCHAR:
    case HT_CHAR:
        ok = hd_parse(v->s, stripped_len(v), &x) && hd_normalize(&x);
        break;
    case HT_BOOLEAN:
        hd_from_long(v->i != 0, &x);
        ok = true;
        break;
    default:
        hd_from_long(v->i, &x);
        ok = true;
        break;
    }
    ok = ok && hd_enforce(&x, to.prec, to.scale);
    *out = hv_dec(&r->scratch, to, ok ? &x : NULL);
    return true;
}

/* UDFToByte/Short/Integer/Long of a decimal: truncated, NULL out of range. */
static HVal decimal_to_int(HTy to, const HDec *x)
{
    static const int64_t lo[] = {[HT_TINYINT] = INT8_MIN, [HT_SMALLINT] = INT16_MIN,
                                 [HT_INT] = INT32_MIN, [HT_BIGINT] = INT64_MIN};
    static const int64_t hi[] = {[HT_TINYINT] = INT8_MAX, [HT_SMALLINT] = INT16_MAX,
                                 [HT_INT] = INT32_MAX, [HT_BIGINT] = INT64_MAX};
    HDec t = *x;
    char buf[256];
    int64_t v;
    t.nd -= t.scale;
    t.scale = 0;
    if (t.nd <= 0)
        return hv_int(to, 0);
    hd_trim_lead(&t);
    hd_text(&t, 0, buf, sizeof buf);
    if (!bigdec_exact(buf, strlen(buf), lo[to.t], hi[to.t], &v))
        return hv_null(to);
    return hv_int(to, v);
}

/* Implicit conversion to a common type (ObjectInspectorConverters): numeric
 * widening, numbers to text, text to DOUBLE (NULL when it does not parse),
 * CHAR/VARCHAR fitting.  false (reason in r->why) when not modelled. */
static bool convert(HRef *r, const HVal *v, HTy to, HVal *out)
{
    const char *s;
    size_t n;
    if (v->null || ty_eq(v->ty, to) || to.t == HT_VOID) {
        *out = v->null ? hv_null(to) : *v;
        if (!v->null)
            out->ty = to;
        return true;
    }
    if (is_strfam(to.t)) {
        text_of(r, v, &s, &n);
        *out = to.t == HT_STRING ? hv_str(to, s, n) : fit_text(r, to, s, n);
        return true;
    }
    if (to.t == HT_BOOLEAN) {
        set_why(r, "implicit conversion to boolean");
        return false;
    }
    if (to.t == HT_DECIMAL && to.prec == 0 && v->ty.t == HT_DECIMAL) {
        *out = *v;
        return true;
    }
    if (to.t == HT_DECIMAL)
        return to_decimal(r, v, to, out);
    if (v->ty.t == HT_DECIMAL) {
        *out = is_fp(to.t) ? hv_fp(to, dec_as_double(v->dec, to.t == HT_FLOAT))
                           : decimal_to_int(to, v->dec);
        return true;
    }
    if (is_strfam(v->ty.t)) {
        double d;
        JParse jp = java_parse_fp(v->s, stripped_len(v), false, &d);
        if (jp == JP_UNKNOWN) {
            set_why(r, "hexadecimal or overlong number text");
            return false;
        }
        if (jp == JP_FAIL) {
            *out = hv_null(to);
            return true;
        }
        if (to.t != HT_DOUBLE) {
            set_why(r, "implicit string to %d", (int)to.t);
            return false;
        }
        *out = hv_fp(to, d);
        return true;
    }
    if (v->ty.t == HT_BOOLEAN) {
        set_why(r, "implicit conversion of a boolean");
        return false;
    }
    if (is_fp(to.t)) {
        *out = hv_fp(to, is_fp(v->ty.t) ? v->d : (double)v->i);
        /* (float) of a long rounds once, from the integer */
        if (to.t == HT_FLOAT && !is_fp(v->ty.t))
            out->d = (double)(float)v->i;
        return true;
    }
    if (is_fp(v->ty.t)) {
        *out = hv_int(to, java_fp_to(to.t, v->d));
        return true;
    }
    *out = hv_int(to, v->i);
    return true;
}

static bool string_false_word(const char *s, size_t n)
{
    static const char *const words[] = {"false", "off", "no", "0"};
    if (n == 0)
        return true;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == n && strncasecmp(words[k], s, n) == 0)
            return true;
    return false;
}

/* CAST(v AS to) with the UDFToX rules listed at the top. */
static bool cast_value(HRef *r, const HVal *v, HTy to, HVal *out)
{
    HType from = v->ty.t;
    if (v->null || ty_eq(v->ty, to)) {
        *out = v->null ? hv_null(to) : *v;
        return true;
    }
    if (to.t == HT_BOOLEAN) {
        if (is_strfam(from))
            *out = hv_int(to, !string_false_word(v->s, stripped_len(v)));
        else if (from == HT_DECIMAL)
            *out = hv_int(to, !hd_is_zero(v->dec));
        else if (is_fp(from))
            *out = hv_int(to, v->d != 0 || isnan(v->d));
        else
            *out = hv_int(to, v->i != 0);
        return true;
    }
    if (from == HT_BOOLEAN && is_num(to.t) && to.t != HT_DECIMAL) {
        *out = is_fp(to.t) ? hv_fp(to, (double)v->i) : hv_int(to, v->i);
        return true;
    }
    if (is_strfam(from) && is_intfam(to.t)) {
        int64_t x;
        *out = hive_parse_integral(v->s, stripped_len(v), to.t, &x) ? hv_int(to, x)
                                                                    : hv_null(to);
        return true;
    }
    if (is_strfam(from) && is_fp(to.t)) {
        double d;
        JParse jp = java_parse_fp(v->s, stripped_len(v), to.t == HT_FLOAT, &d);
        if (jp == JP_UNKNOWN) {
            set_why(r, "hexadecimal or overlong number text");
            return false;
        }
        *out = jp == JP_OK ? hv_fp(to, d) : hv_null(to);
        return true;
    }
    if (is_fp(from) && to.t == HT_FLOAT) {
        *out = hv_fp(to, v->d);
        return true;
    }
    if (is_intfam(from) && is_intfam(to.t)) {
        *out = hv_int(to, v->i);
        return true;
    }
    return convert(r, v, to, out);
}

/* ---------------------------------------------------------------- parser */

typedef enum TokKind { TK_EOF, TK_NUM, TK_STR, TK_ID, TK_OP } TokKind;

typedef struct Parser {
    HRef *r;
    const char *src;
    size_t pos;
    TokKind kind;      /* current token */
    size_t start, len; /* its slice */
    bool failed;
} Parser;

static void lex(Parser *p)
{
    const char *s = p->src;
    size_t i = p->pos;
    while (s[i] == ' ' || s[i] == '\n' || s[i] == '\t')
        i++;
    p->start = i;
    if (!s[i]) {
        p->kind = TK_EOF;
    } else if ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')) {
        while ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')
            i++;
        if ((s[i] == 'e' || s[i] == 'E') &&
            ((s[i + 1] >= '0' && s[i + 1] <= '9') ||
             ((s[i + 1] == '-' || s[i + 1] == '+') && s[i + 2] >= '0' && s[i + 2] <= '9'))) {
            i += 2;
            while (s[i] >= '0' && s[i] <= '9')
                i++;
        }
        if (strncmp(s + i, "BD", 2) == 0)
            i += 2;
        else if (s[i] && strchr("LSY", s[i]))
            i++;
        p->kind = TK_NUM;
    } else if (s[i] == '\'') {
        for (i++; s[i] && s[i] != '\''; i++)
            ;
        if (!s[i])
            p->failed = true;
        else
            i++;
        p->kind = TK_STR;
    } else if ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') {
        while (((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') || s[i] == '_' ||
               (s[i] >= '0' && s[i] <= '9'))
            i++;
        p->kind = TK_ID;
    } else {
        static const char *const ops[] = {"<=>", "<>", "<=", ">=", "!=", "==",
                                          "||", "=", "<", ">", "+", "-", "*",
                                          "/", "%", "(", ")", ","};
        p->kind = TK_OP;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            size_t l = strlen(ops[k]);
            if (strncmp(s + i, ops[k], l) == 0) {
                i += l;
                break;
            }
        }
        if (i == p->start) {
            p->failed = true;
            i++;
        }
    }
    p->len = i - p->start;
    p->pos = i;
}

static bool tok_is(Parser *p, const char *text)
{
    return (p->kind == TK_OP || p->kind == TK_ID) && strlen(text) == p->len &&
           strncasecmp(p->src + p->start, text, p->len) == 0;
}

static bool accept(Parser *p, const char *text)
{
    if (!tok_is(p, text))
        return false;
    lex(p);
    return true;
}

static void expect(Parser *p, const char *text)
{
    if (!accept(p, text)) {
        if (!p->failed)
            set_why(p->r, "expected '%s' at offset %zu", text, p->start);
        p->failed = true;
    }
}

static HExpr *node(Parser *p, HKind kind, size_t start)
{
    HExpr *e = comb_arena_calloc(&p->r->arena, sizeof *e);
    e->kind = kind;
    e->src = p->src;
    e->start = (int)start;
    e->col = -1;
    return e;
}

static void finish(Parser *p, HExpr *e)
{
    /* end = end of the last consumed token */
    size_t end = p->start;
    while (end > 0 && (p->src[end - 1] == ' '))
        end--;
    e->end = (int)end;
}

static HExpr *parse_expr(Parser *p);

static bool parse_type(Parser *p, HTy *t)
{
    static const struct { const char *name; HType t; } types[] = {
        {"boolean", HT_BOOLEAN}, {"tinyint", HT_TINYINT}, {"smallint", HT_SMALLINT},
        {"int", HT_INT}, {"integer", HT_INT}, {"bigint", HT_BIGINT},
        {"float", HT_FLOAT}, {"double", HT_DOUBLE}, {"string", HT_STRING},
        {"varchar", HT_VARCHAR}, {"char", HT_CHAR}, {"decimal", HT_DECIMAL}};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        if (!tok_is(p, types[k].name))
            continue;
        lex(p);
        memset(t, 0, sizeof *t);
        t->t = types[k].t;
        if (t->t == HT_VARCHAR || t->t == HT_CHAR) {
            expect(p, "(");
            t->len = p->kind == TK_NUM ? atoi(p->src + p->start) : 0;
            lex(p);
            expect(p, ")");
        }
        if (t->t == HT_DECIMAL) {   /* DECIMAL alone is decimal(10,0) */
            t->prec = 10;
            if (accept(p, "(")) {
                t->prec = p->kind == TK_NUM ? atoi(p->src + p->start) : 0;
                lex(p);
                if (accept(p, ",")) {
                    t->scale = p->kind == TK_NUM ? atoi(p->src + p->start) : -1;
                    lex(p);
                }
                expect(p, ")");
            }
        }
        return true;
    }
    set_why(p->r, "unknown type at offset %zu", p->start);
    p->failed = true;
    return false;
}

static int add_arg(Parser *p, HExpr *e, HExpr *a, int *cap)
{
    if (e->n_args == *cap) {
        HExpr **n = comb_arena_alloc(&p->r->arena, sizeof *n * (size_t)(*cap * 2 + 4));
        if (e->n_args)
            memcpy(n, e->args, sizeof *n * (size_t)e->n_args);
        e->args = n;
        *cap = *cap * 2 + 4;
    }
    e->args[e->n_args++] = a;
    return 0;
}

static HExpr *parse_case(Parser *p, size_t start)
{
    HExpr *e = node(p, HK_CASE, start);
    int cap = 0;
    if (!tok_is(p, "when"))
        e->a = parse_expr(p);
    while (accept(p, "when") && !p->failed) {
        add_arg(p, e, parse_expr(p), &cap);
        expect(p, "then");
        add_arg(p, e, parse_expr(p), &cap);
    }
    if (accept(p, "else"))
        e->c = parse_expr(p);
    expect(p, "end");
    finish(p, e);
    return e;
}

static HExpr *parse_call(Parser *p, size_t start, const char *name, size_t len)
{
    static const struct { const char *name; HFn fn; } fns[] = {
        {"upper", HF_UPPER}, {"ucase", HF_UPPER}, {"lower", HF_LOWER},
        {"lcase", HF_LOWER}, {"length", HF_LENGTH}, {"abs", HF_ABS},
        {"concat", HF_CONCAT}, {"trim", HF_TRIM}, {"ltrim", HF_LTRIM},
        {"rtrim", HF_RTRIM}, {"coalesce", HF_COALESCE}, {"nvl", HF_NVL},
        {"if", HF_IF}};
    HExpr *e = node(p, HK_FUNC, start);
    int cap = 0;
    size_t k;
    for (k = 0; k < sizeof fns / sizeof fns[0]; k++)
        if (strlen(fns[k].name) == len && strncasecmp(fns[k].name, name, len) == 0)
            break;
    if (k == sizeof fns / sizeof fns[0]) {
        set_why(p->r, "unknown function '%.*s'", (int)len, name);
        p->failed = true;
        return e;
    }
    e->fn = fns[k].fn;
    expect(p, "(");
    if (!tok_is(p, ")")) {
        do
            add_arg(p, e, parse_expr(p), &cap);
        while (accept(p, ",") && !p->failed);
    }
    expect(p, ")");
    finish(p, e);
    return e;
}

static HExpr *parse_primary(Parser *p)
{
    size_t start = p->start;
    HExpr *e;
    if (p->failed)
        return node(p, HK_LIT, start);
    if (p->kind == TK_NUM) {
        e = node(p, HK_LIT, start);
        e->lit_kind = HL_NUM;
        e->tok_start = (int)p->start;
        e->tok_end = (int)(p->start + p->len);
        lex(p);
    } else if (p->kind == TK_STR) {
        e = node(p, HK_LIT, start);
        e->lit_kind = HL_STR;
        e->lit = hv_str(T_STRING, p->src + p->start + 1, p->len - 2);
        lex(p);
    } else if (accept(p, "(")) {
        e = parse_expr(p);
        expect(p, ")");
        /* the parenthesised text is the node's text */
        e->start = (int)start;
    } else if (accept(p, "true") || accept(p, "false")) {
        e = node(p, HK_LIT, start);
        e->lit_kind = HL_BOOL;
        e->lit = hv_int(T_BOOL, (p->src[start] | 32) == 't');
    } else if (accept(p, "null")) {
        e = node(p, HK_LIT, start);
        e->lit_kind = HL_NULL;
        e->lit = hv_null(T_VOID);
    } else if (accept(p, "cast")) {
        e = node(p, HK_CAST, start);
        expect(p, "(");
        e->a = parse_expr(p);
        expect(p, "as");
        parse_type(p, &e->cast_to);
        expect(p, ")");
    } else if (accept(p, "case")) {
        return parse_case(p, start);
    } else if (p->kind == TK_ID) {
        const char *name = p->src + p->start;
        size_t len = p->len;
        lex(p);
        if (tok_is(p, "("))
            return parse_call(p, start, name, len);
        e = node(p, HK_COL, start);
        for (int k = 0; k < p->r->n_cols; k++)
            if (strlen(p->r->col_names[k]) == len &&
                strncasecmp(p->r->col_names[k], name, len) == 0)
                e->col = k;
        if (e->col < 0) {
            set_why(p->r, "unknown column '%.*s'", (int)len, name);
            p->failed = true;
        }
    } else {
        set_why(p->r, "unexpected token at offset %zu", p->start);
        p->failed = true;
        return node(p, HK_LIT, start);
    }
    finish(p, e);
    return e;
}

/* `op operand`, the operand parsed by `self`; without op, `next`. */
static HExpr *parse_prefix(Parser *p, const char *op, HKind kind,
                           HExpr *(*self)(Parser *), HExpr *(*next)(Parser *))
{
    size_t start = p->start;
    HExpr *e;
    if (!accept(p, op))
        return next(p);
    e = node(p, kind, start);
    e->a = self(p);
    finish(p, e);
    return e;
}

static HExpr *parse_unary(Parser *p)
{
    return parse_prefix(p, "-", HK_NEG, parse_unary, parse_primary);
}

static HExpr *binary(Parser *p, HKind kind, HOp op, HExpr *l, HExpr *r)
{
    HExpr *e = node(p, kind, (size_t)l->start);
    e->op = op;
    e->a = l;
    e->b = r;
    finish(p, e);
    return e;
}

typedef struct OpWord {
    const char *text;
    HKind kind;
    HOp op;
} OpWord;

/* operand (op operand)*, left-associative, ops from the table. */
static HExpr *parse_left_assoc(Parser *p, const OpWord *ops, size_t n_ops,
                               HExpr *(*operand)(Parser *))
{
    HExpr *e = operand(p);
    for (;;) {
        size_t k = 0;
        while (k < n_ops && !tok_is(p, ops[k].text))
            k++;
        if (k == n_ops || p->failed)
            return e;
        lex(p);
        e = binary(p, ops[k].kind, ops[k].op, e, operand(p));
    }
}

static HExpr *parse_mul(Parser *p)
{
    static const OpWord ops[] = {{"*", HK_ARITH, HO_MUL}, {"/", HK_ARITH, HO_DIV},
                                 {"%", HK_ARITH, HO_MOD}, {"div", HK_ARITH, HO_IDIV}};
    return parse_left_assoc(p, ops, sizeof ops / sizeof ops[0], parse_unary);
}

static HExpr *parse_add(Parser *p)
{
    static const OpWord ops[] = {{"+", HK_ARITH, HO_ADD}, {"-", HK_ARITH, HO_SUB}};
    return parse_left_assoc(p, ops, sizeof ops / sizeof ops[0], parse_mul);
}

/* a || b is concat(a, b) (HiveParser) */
static HExpr *parse_concat(Parser *p)
{
    HExpr *e = parse_add(p);
    while (tok_is(p, "||") && !p->failed) {
        HExpr *f = node(p, HK_FUNC, (size_t)e->start);
        int cap = 0;
        lex(p);
        f->fn = HF_CONCAT;
        add_arg(p, f, e, &cap);
        add_arg(p, f, parse_add(p), &cap);
        finish(p, f);
        e = f;
    }
    return e;
}

static HExpr *parse_cmp(Parser *p)
{
    static const struct { const char *t; HOp op; } cmps[] = {
        {"=", HO_EQ}, {"==", HO_EQ}, {"<>", HO_NE}, {"!=", HO_NE},
        {"<", HO_LT}, {"<=", HO_LE}, {">", HO_GT}, {">=", HO_GE},
        {"<=>", HO_NSEQ}};
    HExpr *e = parse_concat(p), *n;
    bool neg;
    for (size_t k = 0; k < sizeof cmps / sizeof cmps[0]; k++)
        if (tok_is(p, cmps[k].t)) {
            lex(p);
            return binary(p, HK_CMP, cmps[k].op, e, parse_concat(p));
        }
    if (accept(p, "is")) {
        n = node(p, HK_ISNULL, (size_t)e->start);
        n->negated = accept(p, "not");
        expect(p, "null");
        n->a = e;
        finish(p, n);
        return n;
    }
    neg = accept(p, "not");
    if (accept(p, "between")) {
        n = node(p, HK_BETWEEN, (size_t)e->start);
        n->a = e;
        n->b = parse_concat(p);
        expect(p, "and");
        n->c = parse_concat(p);
    } else if (accept(p, "in")) {
        int cap = 0;
        n = node(p, HK_IN, (size_t)e->start);
        n->a = e;
        expect(p, "(");
        do
            add_arg(p, n, parse_concat(p), &cap);
        while (accept(p, ",") && !p->failed);
        expect(p, ")");
    } else if (accept(p, "like")) {
        n = node(p, HK_LIKE, (size_t)e->start);
        n->a = e;
        n->b = parse_concat(p);
    } else {
        if (neg) {
            set_why(p->r, "NOT without BETWEEN/IN/LIKE at offset %zu", p->start);
            p->failed = true;
        }
        return e;
    }
    n->negated = neg;
    finish(p, n);
    return n;
}

static HExpr *parse_not(Parser *p)
{
    return parse_prefix(p, "not", HK_NOT, parse_not, parse_cmp);
}

static HExpr *parse_and(Parser *p)
{
    static const OpWord ops[] = {{"and", HK_AND, HO_NONE}};
    return parse_left_assoc(p, ops, 1, parse_not);
}

static HExpr *parse_expr(Parser *p)
{
    static const OpWord ops[] = {{"or", HK_OR, HO_NONE}};
    return parse_left_assoc(p, ops, 1, parse_and);
}

HExpr *href_parse(HRef *r, const char *sql)
{
    Parser p = {r, comb_arena_strdup(&r->arena, sql), 0, TK_EOF, 0, 0, false};
    HExpr *e;
    lex(&p);
    e = parse_expr(&p);
    if (!p.failed && p.kind != TK_EOF) {
        set_why(r, "trailing text at offset %zu", p.start);
        p.failed = true;
    }
    return p.failed ? NULL : e;
}

/* --------------------------------------------------------------- binding */

typedef enum Mode { MODE_ROW, MODE_VEC } Mode;

typedef struct Ctx {
    HRef *r;
    int row;
    Mode mode;
} Ctx;

static HEval ev(Ctx *c, HExpr *e, HVal *out);

static HBind reject(HRef *r, const char *what)
{
    set_why(r, "Hive rejects: %s", what);
    return HB_REJECT;
}

static HBind exclude(HRef *r, const char *what)
{
    set_why(r, "not modelled: %s", what);
    return HB_EXCLUDE;
}

/* HiveDecimalUtils.getPrecisionForType / getScaleForType. */
static void decimal_params(HTy t, int *prec, int *scale)
{
    static const int p[] = {[HT_VOID] = 1, [HT_TINYINT] = 3, [HT_SMALLINT] = 5,
                            [HT_INT] = 10, [HT_BIGINT] = 19, [HT_FLOAT] = 7,
                            [HT_DOUBLE] = 15};
    if (t.t == HT_DECIMAL) {
        *prec = t.prec;
        *scale = t.scale;
    } else if (t.t <= HT_DOUBLE && t.t != HT_BOOLEAN) {
        *prec = p[t.t];
        *scale = is_fp(t.t) ? p[t.t] : 0;
    } else {
        *prec = 38;
        *scale = 18;
    }
}

/* HiveDecimalUtils.getDecimalTypeForPrimitiveCategories(a, b). */
static HTy decimal_for(HTy a, HTy b)
{
    int pa, sa, pb, sb, ip, dp;
    decimal_params(a, &pa, &sa);
    decimal_params(b, &pb, &sb);
    ip = pa - sa > pb - sb ? pa - sa : pb - sb;
    dp = sa > sb ? sa : sb;
    return t_decimal(ip + dp < 38 ? ip + dp : 38, dp < 38 - ip ? dp : 38 - ip);
}

/* FunctionRegistry.getCommonClass; false when there is none. */
static bool common_class(HTy a, HTy b, HTy *out)
{
    if (ty_eq(a, b) || b.t == HT_VOID) {
        *out = a;
        return true;
    }
    if (a.t == HT_VOID) {
        *out = b;
        return true;
    }
    if (a.t == HT_DECIMAL || b.t == HT_DECIMAL) {
        if (is_num(a.t) && is_num(b.t)) {
            *out = decimal_for(a, b);
            return true;
        }
    } else if (a.t == b.t) { /* CHAR or VARCHAR of another length */
        out->t = a.t;
        out->len = a.len > b.len ? a.len : b.len;
        return true;
    }
    if (is_num(a.t) && is_num(b.t)) {
        *out = num_rank(a.t) > num_rank(b.t) ? a : b;
        return true;
    }
    if ((is_strfam(a.t) && (is_strfam(b.t) || is_num(b.t))) ||
        (is_strfam(b.t) && is_num(a.t))) {
        *out = T_STRING;
        return true;
    }
    return false;
}

/* FunctionRegistry.getCommonClassForComparison, BOOLEAN kept apart. */
static bool compare_class(HTy a, HTy b, HTy *out)
{
    /* decimals compare as they are (GenericUDFBaseCompare's SAME_TYPE) */
    if (a.t == HT_DECIMAL && b.t == HT_DECIMAL) {
        *out = t_decimal(0, 0);
        return true;
    }
    if ((a.t == HT_DECIMAL && is_strfam(b.t)) || (b.t == HT_DECIMAL && is_strfam(a.t))) {
        *out = decimal_for(a, b);
        return true;
    }
    if (a.t == HT_VOID || b.t == HT_VOID || ty_eq(a, b) || a.t == b.t)
        return common_class(a, b, out);
    if (a.t == HT_BOOLEAN || b.t == HT_BOOLEAN)
        return false;
    if (is_strfam(a.t) && is_strfam(b.t)) {
        *out = T_STRING;
        return true;
    }
    if (is_num(a.t) && is_num(b.t))
        return common_class(a, b, out);
    *out = T_DOUBLE;
    return true;
}

/* A column reference, or a cast of one to its own (parameterless) type,
 * which TypeCheckProcFactory drops as redundant. */
static bool is_column_ref(const HExpr *e)
{
    while (e->kind == HK_CAST && e->a->kind == HK_COL && ty_eq(e->a->ty, e->cast_to) &&
           e->cast_to.t != HT_CHAR && e->cast_to.t != HT_VARCHAR)
        e = e->a;
    return e->kind == HK_COL;
}

static HExpr *lit_node(HRef *r, const HExpr *like, HVal v)
{
    HExpr *e = comb_arena_calloc(&r->arena, sizeof *e);
    *e = *like;
    e->kind = HK_LIT;
    e->lit_kind = HL_NUM;
    e->a = e->b = e->c = NULL;
    e->args = NULL;
    e->n_args = 0;
    e->lit = v;
    e->ty = v.ty;
    e->is_const = true;
    return e;
}

/* The text Java's toString gives a folded constant; false for values that
 * are neither Number nor String (BOOLEAN, CHAR, VARCHAR). */
static bool constant_text(HRef *r, const HVal *v, const char **s, size_t *n)
{
    if (v->ty.t == HT_BOOLEAN || v->ty.t == HT_CHAR || v->ty.t == HT_VARCHAR ||
        v->ty.t == HT_DECIMAL)
        return false;
    text_of(r, v, s, n);
    return true;
}

typedef enum Narrow { NW_KEEP, NW_NEW, NW_NULL, NW_UNKNOWN } Narrow;

/* ExprNodeDescExprFactory.interpretConstantAsPrimitive(target, value,
 * sourceType, isEqual=true): NW_NEW with *out, NW_NULL when it does not
 * convert, NW_KEEP when the constant stays as it is. */
static Narrow narrow_constant(HRef *r, HTy target, const HVal *v, HVal *out)
{
    const char *s;
    size_t n;
    if (v->null) {
        *out = hv_null(target);
        return NW_NEW;
    }
    if (v->ty.t == HT_DECIMAL) {
        /* a HiveDecimal constant becomes a FLOAT/DOUBLE column's type */
        if (!is_fp(target.t))
            return NW_KEEP;
        *out = hv_fp(target, dec_as_double(v->dec, target.t == HT_FLOAT));
        return NW_NEW;
    }
    if (!constant_text(r, v, &s, &n))
        return NW_KEEP;
    if (target.t == HT_DECIMAL) {   /* HiveDecimal.create(text), own type */
        HDec x;
        if (!hd_parse(s, n, &x) || !hd_normalize(&x))
            return NW_NULL;
        *out = hv_dec(&r->scratch, t_decimal(hd_precision(&x), x.scale), &x);
        return NW_NEW;
    }
    if (is_intfam(target.t)) {
        static const int64_t lo[] = {[HT_TINYINT] = INT8_MIN, [HT_SMALLINT] = INT16_MIN,
                                     [HT_INT] = INT32_MIN, [HT_BIGINT] = INT64_MIN};
        static const int64_t hi[] = {[HT_TINYINT] = INT8_MAX, [HT_SMALLINT] = INT16_MAX,
                                     [HT_INT] = INT32_MAX, [HT_BIGINT] = INT64_MAX};
        int64_t x;
        int isnum = lang_is_number(s, n);
        if (isnum < 0)
            return NW_UNKNOWN;
        if (!isnum || !bigdec_exact(s, n, lo[target.t], hi[target.t], &x))
            return NW_NULL;
        *out = hv_int(target, x);
        return NW_NEW;
    }
    if (is_fp(target.t)) {
        double d;
        JParse jp = java_parse_fp(s, n, target.t == HT_FLOAT, &d);
        if (jp == JP_UNKNOWN)
            return NW_UNKNOWN;
        if (jp == JP_FAIL)
            return NW_NULL;
        *out = hv_fp(target, d);
        return NW_NEW;
    }
    if (v->ty.t == HT_STRING && (target.t == HT_CHAR || target.t == HT_VARCHAR)) {
        size_t cut = utf8_prefix(s, n, (size_t)target.len), rest = cut;
        bool same = true;
        if (target.t == HT_VARCHAR)
            same = cut == n;
        else
            for (; rest < n; rest++)   /* HiveChar compares without padding */
                same &= s[rest] == ' ';
        if (!same)
            return NW_NULL;
        *out = fit_text(r, target, s, n);
        return NW_NEW;
    }
    return NW_KEEP;
}

/* Evaluate a constant subtree (no column: any row will do). */
static bool fold(HRef *r, HExpr *e, HVal *out)
{
    Ctx c = {r, 0, MODE_ROW};
    return ev(&c, e, out) == HE_OK;
}

static HBind bind(HRef *r, HExpr *e);

/* Literals and negated literals are always constants when Hive narrows;
 * other constant expressions only if the type checker folded them. */
static bool is_plain_literal(const HExpr *e)
{
    return e->kind == HK_LIT || (e->kind == HK_NEG && e->a->kind == HK_LIT);
}

/* A narrowed constant node; its text is copied out of the scratch arena. */
static HExpr *narrowed_node(HRef *r, const HExpr *like, HVal v)
{
    if (!v.null && is_strfam(v.ty.t))
        v.s = comb_arena_strndup(&r->arena, v.s, v.n);
    if (!v.null && v.ty.t == HT_DECIMAL)
        v = hv_dec(&r->arena, v.ty, v.dec);
    return lit_node(r, like, v);
}

/* `column op constant`: the constant takes the column's type. */
static HBind narrow_compare(HRef *r, HExpr *e)
{
    HExpr **cst, *colref;
    HVal v, nv;
    if (is_column_ref(e->a) && e->b->is_const) {
        colref = e->a;
        cst = &e->b;
    } else if (is_column_ref(e->b) && e->a->is_const) {
        colref = e->b;
        cst = &e->a;
    } else {
        return HB_OK;
    }
    if (!fold(r, *cst, &v))
        return exclude(r, "constant that does not evaluate");
    switch (narrow_constant(r, colref->ty, &v, &nv)) {
    case NW_NEW:
        if (!is_plain_literal(*cst)) {
            e->narrow_uncertain = true;
            e->orig_a = e->a;
            e->orig_b = e->b;
        }
        *cst = narrowed_node(r, *cst, nv);
        return HB_OK;
    case NW_UNKNOWN:
        return exclude(r, "number text commons-lang versions disagree on");
    default:
        return HB_OK;
    }
}

static HBind bind_compare(HRef *r, HExpr *e)
{
    HBind b;
    if ((b = narrow_compare(r, e)) != HB_OK)
        return b;
    if (!compare_class(e->a->ty, e->b->ty, &e->cmp_ty) ||
        (e->narrow_uncertain && !compare_class(e->orig_a->ty, e->orig_b->ty, &e->orig_cmp)))
        return exclude(r, "boolean compared with another type");
    e->ty = T_BOOL;
    return HB_OK;
}

/* The family of a type for IN lists and simple CASE: 1 number, 2 text,
 * 3 boolean, 0 NULL. */
static int family(HTy t)
{
    return is_num(t.t) ? 1 : is_strfam(t.t) ? 2 : t.t == HT_BOOLEAN ? 3 : 0;
}

static bool list_type(HTy t, HExpr **args, int n, HTy *out)
{
    for (int k = 0; k < n; k++)
        if (!common_class(t, args[k]->ty, &t))
            return false;
    *out = t;
    return true;
}

static HBind bind_in(HRef *r, HExpr *e)
{
    int fam = family(e->a->ty), kept = 0;
    bool compound = false;
    for (int k = 0; k < e->n_args; k++) {
        HExpr *x = e->args[k];
        if (!x->is_const || x->ty.t == HT_VOID)
            return exclude(r, "IN list entries that are not non-NULL constants");
        if (fam && family(x->ty) != fam)
            return exclude(r, "IN list mixing strings, numbers, booleans");
        fam = family(x->ty);
    }
    if (!list_type(e->a->ty, e->args, e->n_args, &e->orig_cmp))
        return exclude(r, "IN list without a common type");
    e->orig_args = e->args;
    e->orig_n = e->n_args;
    if (is_column_ref(e->a)) {
        /* the narrowed list, and (orig_args) the list as it is if Hive
         * did not fold the constants that are not literals: literals are
         * narrowed in both */
        HExpr **kept_args = comb_arena_alloc(&r->arena, sizeof *kept_args * (size_t)e->n_args);
        HExpr **orig = comb_arena_alloc(&r->arena, sizeof *orig * (size_t)e->n_args);
        int n_orig = 0;
        for (int k = 0; k < e->n_args; k++) {
            HVal v, nv;
            bool plain = is_plain_literal(e->args[k]);
            if (!fold(r, e->args[k], &v))
                return exclude(r, "constant that does not evaluate");
            switch (narrow_constant(r, e->a->ty, &v, &nv)) {
            case NW_NEW:
                kept_args[kept++] = narrowed_node(r, e->args[k], nv);
                orig[n_orig++] = plain ? kept_args[kept - 1] : e->args[k];
                compound |= !plain;
                break;
            case NW_KEEP:
                kept_args[kept++] = e->args[k];
                orig[n_orig++] = e->args[k];
                break;
            case NW_NULL:
                if (!plain)
                    orig[n_orig++] = e->args[k];
                compound |= !plain;
                break;
            case NW_UNKNOWN:
                return exclude(r, "number text commons-lang versions disagree on");
            }
        }
        e->args = kept_args;
        e->n_args = kept;
        e->in_false = kept == 0;
        e->narrow_uncertain = compound;
        e->orig_args = orig;
        e->orig_n = n_orig;
        if (compound && !list_type(e->a->ty, orig, n_orig, &e->orig_cmp))
            return exclude(r, "IN list without a common type");
    }
    if (!list_type(e->a->ty, e->args, e->n_args, &e->cmp_ty))
        return exclude(r, "IN list without a common type");
    e->ty = T_BOOL;
    return HB_OK;
}

/* An exact operand's DECIMAL precision and scale as GenericUDFBaseNumeric
 * reads them from its ObjectInspector: a constant integer (a literal, or
 * one negated and folded) counts its digits (WritableConstantIntObject-
 * Inspector.precision: BigDecimal.valueOf(v).precision()); false when
 * it is a constant Hive may or may not have folded first. */
static bool operand_decimal(HRef *r, HExpr *x, int *prec, int *scale)
{
    decimal_params(x->ty, prec, scale);
    if (is_intfam(x->ty.t) && x->is_const) {
        HVal v;
        char buf[32];
        if (!is_plain_literal(x) || !fold(r, x, &v) || v.null)
            return false;
        *prec = snprintf(buf, sizeof buf, "%llu",
                         (unsigned long long)(v.i < 0 ? 0 - (uint64_t)v.i : (uint64_t)v.i));
    }
    return true;
}

/* GenericUDFOPPlus/Minus/Multiply/Divide/Mod.deriveResultDecimalTypeInfo
 * and GenericUDFBaseNumeric.adjustPrecScale (past 38 digits the integer
 * part is kept and the scale shrinks, but not below min(scale, 6)). */
static HTy decimal_result(HOp op, int p1, int s1, int p2, int s2)
{
    /* integer digits and scale of each operator's result */
    int i1 = p1 - s1, i2 = p2 - s2;
    int wide_s = s1 > s2 ? s1 : s2, digits, scale;
    if (op == HO_MUL) {
        scale = s1 + s2;
        digits = i1 + i2 + 1;
    } else if (op == HO_DIV) {
        scale = s1 + p2 + 1 < 6 ? 6 : s1 + p2 + 1;
        digits = i1 + s2;
    } else if (op == HO_MOD) {
        scale = wide_s;
        digits = i1 < i2 ? i1 : i2;
    } else {
        scale = wide_s;
        digits = (i1 > i2 ? i1 : i2) + 1;
    }
    if (digits + scale <= 38)
        return t_decimal(digits + scale, scale);
    /* keep the integer digits, at least min(scale, 6) fraction digits */
    if (38 - digits > (scale < 6 ? scale : 6))
        return t_decimal(38, 38 - digits);
    return t_decimal(38, scale < 6 ? scale : 6);
}

static HBind bind_arith(HRef *r, HExpr *e)
{
    HType a = e->a->ty.t, b = e->b->ty.t;
    if (a == HT_BOOLEAN || b == HT_BOOLEAN)
        return exclude(r, "boolean in arithmetic");
    if (a == HT_VOID && b == HT_VOID)
        return exclude(r, "NULL op NULL");
    if ((a == HT_DECIMAL || b == HT_DECIMAL) && (a == HT_VOID || b == HT_VOID))
        return exclude(r, "NULL in decimal arithmetic");
    if (e->op == HO_IDIV) {
        e->ty = T_BIGINT;
        return HB_OK;
    }
    /* GenericUDFBaseNumeric: strings are DOUBLE, NULL takes the other side */
    if (is_strfam(a))
        a = HT_DOUBLE;
    if (is_strfam(b))
        b = HT_DOUBLE;
    if (a == HT_VOID)
        a = b;
    if (b == HT_VOID)
        b = a;
    if (a == HT_DECIMAL || b == HT_DECIMAL) {
        int p1, s1, p2, s2;
        /* deriveResultApproxTypeInfo: decimal with float/double is DOUBLE */
        if (is_fp(a) || is_fp(b)) {
            e->ty = T_DOUBLE;
            return HB_OK;
        }
        if (!operand_decimal(r, e->a, &p1, &s1) || !operand_decimal(r, e->b, &p2, &s2))
            return exclude(r, "integer constant in decimal arithmetic that Hive may fold or not");
        e->ty = decimal_result(e->op, p1, s1, p2, s2);
        return HB_OK;
    }
    /* GenericUDFOPDivide (hive.compat 0.12): without a decimal, DOUBLE */
    if (e->op == HO_DIV) {
        e->ty = T_DOUBLE;
        return HB_OK;
    }
    e->ty.t = num_rank(a) >= num_rank(b) ? a : b;
    e->ty.len = 0;
    return HB_OK;
}

static HBind bind_cast(HRef *r, HExpr *e)
{
    HType from = e->a->ty.t, to = e->cast_to.t;
    if (from == HT_BOOLEAN && (to == HT_VARCHAR || to == HT_CHAR))
        return exclude(r, "boolean cast to varchar/char");
    if ((to == HT_VARCHAR && (e->cast_to.len < 1 || e->cast_to.len > 65535)) ||
        (to == HT_CHAR && (e->cast_to.len < 1 || e->cast_to.len > 255)))
        return reject(r, "char/varchar length");
    if (to == HT_DECIMAL && (e->cast_to.prec < 1 || e->cast_to.prec > 38 ||
                             e->cast_to.scale < 0 || e->cast_to.scale > e->cast_to.prec))
        return reject(r, "decimal precision/scale");
    e->ty = e->cast_to;
    return HB_OK;
}

/* CASE column WHEN constant ...: GenericUDFCase compares in the common
 * type, but the planner may rewrite it to column = constant, which narrows
 * the constant; both readings are kept (orig_args: the `=` nodes) and must
 * agree. */
static HBind bind_case_as_equalities(HRef *r, HExpr *e)
{
    e->orig_n = e->n_args / 2;
    e->orig_args = comb_arena_calloc(&r->arena, sizeof *e->orig_args * (size_t)(e->orig_n + 1));
    for (int k = 0; k < e->orig_n; k++) {
        HExpr *eq = comb_arena_calloc(&r->arena, sizeof *eq);
        *eq = *e->args[2 * k];
        eq->kind = HK_CMP;
        eq->op = HO_EQ;
        eq->a = e->a;
        eq->b = e->args[2 * k];
        eq->c = NULL;
        eq->args = NULL;
        eq->n_args = 0;
        eq->narrow_uncertain = false;
        if (bind_compare(r, eq) != HB_OK)
            return exclude(r, "simple CASE whose WHEN does not compare");
        e->orig_args[k] = eq;
    }
    e->narrow_uncertain = true;
    return HB_OK;
}

/* Result type of CASE/IF/COALESCE values; `vals` may hold NULL entries. */
static HBind union_type(HRef *r, HExpr **vals, int n, HTy *out)
{
    HTy t = T_VOID;
    for (int k = 0; k < n; k++) {
        if (!vals[k])
            continue;
        if (!common_class(t, vals[k]->ty, &t))
            return reject(r, "branches of different types (boolean with others)");
    }
    *out = t.t == HT_VOID ? T_STRING : t;
    return HB_OK;
}

static HBind bind_case(HRef *r, HExpr *e)
{
    HExpr *vals[64];
    int n = 0;
    HBind b;
    if (e->n_args / 2 + 1 > 64)
        return exclude(r, "huge CASE");
    for (int k = 0; k < e->n_args; k += 2) {
        HTy ct = e->args[k]->ty;
        if (e->a) {
            if (family(ct) && family(e->a->ty) && family(ct) != family(e->a->ty))
                return exclude(r, "simple CASE mixing types");
        } else if (ct.t != HT_BOOLEAN && ct.t != HT_VOID) {
            return reject(r, "WHEN condition is not boolean");
        }
        vals[n++] = e->args[k + 1];
    }
    vals[n++] = e->c;
    if ((b = union_type(r, vals, n, &e->ty)) != HB_OK)
        return b;
    if (e->a) {
        HTy t = e->a->ty;
        for (int k = 0; k < e->n_args; k += 2)
            if (!common_class(t, e->args[k]->ty, &t))
                return exclude(r, "simple CASE without a common type");
        e->cmp_ty = t;
        if (is_column_ref(e->a))
            return bind_case_as_equalities(r, e);
    }
    return HB_OK;
}

static HBind bind_func(HRef *r, HExpr *e)
{
    HTy a = e->n_args ? e->args[0]->ty : T_VOID;
    int want = e->fn == HF_IF ? 3 : e->fn == HF_NVL ? 2 : e->fn == HF_CONCAT || e->fn == HF_COALESCE ? -1 : 1;
    if ((want > 0 && e->n_args != want) || e->n_args == 0)
        return reject(r, "argument count");
    for (int k = 0; k < e->n_args; k++)
        if (e->args[k]->ty.t == HT_VOID && e->fn != HF_COALESCE && e->fn != HF_NVL &&
            e->fn != HF_CONCAT && e->fn != HF_IF)
            return exclude(r, "NULL literal as a function argument");
    switch (e->fn) {
    case HF_UPPER:
    case HF_LOWER:
        if (a.t == HT_BOOLEAN)
            return exclude(r, "upper/lower of a boolean");
        e->ty = (a.t == HT_CHAR || a.t == HT_VARCHAR) ? a : T_STRING;
        return HB_OK;
    case HF_LENGTH:
        if (!is_strfam(a.t))
            return exclude(r, "length of a non-string");
        e->ty = T_INT;
        return HB_OK;
    case HF_ABS:
        if (a.t == HT_TINYINT || a.t == HT_SMALLINT || a.t == HT_INT)
            e->ty = T_INT;
        else if (a.t == HT_BIGINT)
            e->ty = T_BIGINT;
        else if (a.t == HT_FLOAT || a.t == HT_DOUBLE || a.t == HT_STRING)
            e->ty = T_DOUBLE;
        else if (a.t == HT_DECIMAL)
            e->ty = a;
        else
            return reject(r, "abs of boolean/varchar/char");
        return HB_OK;
    case HF_TRIM:
    case HF_LTRIM:
    case HF_RTRIM:
        if (!is_strfam(a.t))
            return reject(r, "trim of a non-string");
        e->ty = T_STRING;
        return HB_OK;
    case HF_CONCAT: {
        bool all_char = true, all_fixed = true;
        int len = 0;
        for (int k = 0; k < e->n_args; k++) {
            HType t = e->args[k]->ty.t;
            if (t == HT_BOOLEAN)
                return exclude(r, "concat of a boolean");
            all_char &= t == HT_CHAR;
            all_fixed &= t == HT_CHAR || t == HT_VARCHAR;
            len += e->args[k]->ty.len;
        }
        e->ty = !all_fixed ? T_STRING : (HTy){all_char ? HT_CHAR : HT_VARCHAR, len};
        if ((all_char && len > 255) || len > 65535)
            e->ty = T_STRING;
        return HB_OK;
    }
    case HF_COALESCE:
    case HF_NVL:
        return union_type(r, e->args, e->n_args, &e->ty);
    case HF_IF:
        if (a.t != HT_BOOLEAN && a.t != HT_VOID)
            return reject(r, "IF condition is not boolean");
        return union_type(r, e->args + 1, 2, &e->ty);
    }
    return reject(r, "function");
}

/* A DECIMAL literal: HiveDecimal.create of its text (trailing zeros
 * dropped), typed with its own precision and scale; false when it has
 * more than 38 integer digits. */
static bool decimal_literal(HRef *r, const char *s, size_t n, HVal *out)
{
    HDec x;
    if (!hd_parse(s, n, &x) || !hd_normalize(&x))
        return false;
    *out = hv_dec(&r->arena, t_decimal(hd_precision(&x), x.scale), &x);
    return true;
}

static HBind bind_number(HRef *r, HExpr *e)
{
    const char *s = e->src + e->tok_start;
    size_t n = (size_t)(e->tok_end - e->tok_start);
    char last = s[n - 1];
    int64_t x;
    double d;
    if (n >= 2 && s[n - 2] == 'B' && last == 'D') {
        if (!decimal_literal(r, s, n - 2, &e->lit))
            return exclude(r, "BD literal beyond 38 digits");
        return HB_OK;
    }
    if (last == 'L' || last == 'S' || last == 'Y') {
        HType t = last == 'L' ? HT_BIGINT : last == 'S' ? HT_SMALLINT : HT_TINYINT;
        if (memchr(s, '.', n) || !bigdec_exact(s, n - 1, t == HT_BIGINT ? INT64_MIN : t == HT_SMALLINT ? INT16_MIN : INT8_MIN,
                                               t == HT_BIGINT ? INT64_MAX : t == HT_SMALLINT ? INT16_MAX : INT8_MAX, &x))
            return reject(r, "invalid numerical constant");
        e->lit = hv_int((HTy){t, 0}, x);
        return HB_OK;
    }
    if (!memchr(s, 'e', n) && !memchr(s, 'E', n) && last != 'D') {
        if (!memchr(s, '.', n) && bigdec_exact(s, n, INT32_MIN, INT32_MAX, &x)) {
            e->lit = hv_int(T_INT, x);
            return HB_OK;
        }
        if (!memchr(s, '.', n) && bigdec_exact(s, n, INT64_MIN, INT64_MAX, &x)) {
            e->lit = hv_int(T_BIGINT, x);
            return HB_OK;
        }
        if (decimal_literal(r, s, n, &e->lit))
            return HB_OK;
    }
    if (java_parse_fp(s, n, false, &d) != JP_OK)
        return reject(r, "invalid numerical constant");
    e->lit = hv_fp(T_DOUBLE, d);
    return HB_OK;
}

static HBind bind_kids(HRef *r, HExpr *e)
{
    HBind b;
    HExpr *kids[3] = {e->a, e->b, e->c};
    e->is_const = e->kind != HK_COL;
    for (int k = 0; k < 3; k++) {
        if (kids[k] && (b = bind(r, kids[k])) != HB_OK)
            return b;
        if (kids[k])
            e->is_const &= kids[k]->is_const;
    }
    for (int k = 0; k < e->n_args; k++) {
        if ((b = bind(r, e->args[k])) != HB_OK)
            return b;
        e->is_const &= e->args[k]->is_const;
    }
    return HB_OK;
}

static HBind need_boolean(HRef *r, const HExpr *e)
{
    if (e->ty.t != HT_BOOLEAN && e->ty.t != HT_VOID)
        return exclude(r, "AND/OR/NOT over a non-boolean");
    return HB_OK;
}

static HBind bind(HRef *r, HExpr *e)
{
    HBind b = bind_kids(r, e);
    if (b != HB_OK)
        return b;
    switch (e->kind) {
    case HK_LIT:
        if (e->lit_kind == HL_NUM)
            if ((b = bind_number(r, e)) != HB_OK)
                return b;
        e->ty = e->lit.ty;
        return HB_OK;
    case HK_COL:
        e->ty = r->col_types[e->col];
        return HB_OK;
    case HK_NEG:
        if (!is_num(e->a->ty.t))
            return exclude(r, "unary minus of a non-number");
        e->ty = e->a->ty;
        return HB_OK;
    case HK_NOT:
        e->ty = T_BOOL;
        return need_boolean(r, e->a);
    case HK_AND:
    case HK_OR:
        e->ty = T_BOOL;
        if ((b = need_boolean(r, e->a)) != HB_OK)
            return b;
        return need_boolean(r, e->b);
    case HK_ARITH:
        return bind_arith(r, e);
    case HK_CMP:
        return bind_compare(r, e);
    case HK_ISNULL:
        e->ty = T_BOOL;
        return HB_OK;
    case HK_BETWEEN:
        e->ty = T_BOOL;
        if (!compare_class(e->a->ty, e->b->ty, &e->cmp_ty) ||
            !compare_class(e->a->ty, e->c->ty, &e->cmp_ty2))
            return exclude(r, "boolean compared with another type");
        return HB_OK;
    case HK_IN:
        return bind_in(r, e);
    case HK_LIKE:
        if (!(is_strfam(e->a->ty.t) || is_num(e->a->ty.t) || e->a->ty.t == HT_VOID) ||
            !(is_strfam(e->b->ty.t) || e->b->ty.t == HT_VOID))
            return exclude(r, "LIKE over booleans or a numeric pattern");
        e->ty = T_BOOL;
        return HB_OK;
    case HK_CASE:
        return bind_case(r, e);
    case HK_CAST:
        return bind_cast(r, e);
    case HK_FUNC:
        return bind_func(r, e);
    }
    return reject(r, "expression");
}

HBind href_bind(HRef *r, HExpr *e)
{
    return bind(r, e);
}

/* ------------------------------------------------------------ evaluation */

static HEval unknown(Ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static HEval unknown(Ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->r->why, sizeof c->r->why, fmt, ap);
    va_end(ap);
    return HE_UNKNOWN;
}

/* Byte-wise comparison (Text.compareTo). */
static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t m = na < nb ? na : nb;
    int k = m ? memcmp(a, b, m) : 0;
    if (k)
        return k < 0 ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

#define CMP_UNORDERED 2   /* IEEE comparison with a NaN */

/* Compare two non-NULL values already converted to type t. */
static int cmp_values(const Ctx *c, HTy t, const HVal *x, const HVal *y)
{
    if (is_strfam(t.t))
        return bytes_cmp(x->s, stripped_len(x), y->s, stripped_len(y));
    if (t.t == HT_DECIMAL)
        return hd_cmp(x->dec, y->dec);
    if (is_fp(t.t)) {
        double a = x->d, b = y->d;
        if (c->mode == MODE_VEC && (isnan(a) || isnan(b)))
            return CMP_UNORDERED;
        if (a == b)
            return 0;               /* also -0.0 vs 0.0 */
        if (isnan(a) || isnan(b))   /* Double.compare: NaN is largest */
            return isnan(a) && isnan(b) ? 0 : isnan(a) ? 1 : -1;
        return a < b ? -1 : 1;
    }
    return x->i < y->i ? -1 : x->i > y->i;
}

static bool op_holds(HOp op, int k)
{
    if (k == CMP_UNORDERED)
        return op == HO_NE;
    switch (op) {
    case HO_EQ: case HO_NSEQ: return k == 0;
    case HO_NE: return k != 0;
    case HO_LT: return k < 0;
    case HO_LE: return k <= 0;
    case HO_GT: return k > 0;
    default: return k >= 0;
    }
}

/* x op y compared in type t: 1 true, 0 false, -1 NULL. */
static HEval compare_in(Ctx *c, HOp op, HTy t, const HVal *x, const HVal *y,
                        int *res)
{
    HVal cx, cy;
    if (x->null || y->null) {
        *res = op == HO_NSEQ ? x->null && y->null : -1;
        return HE_OK;
    }
    if (!convert(c->r, x, t, &cx) || !convert(c->r, y, t, &cy))
        return HE_UNKNOWN;
    if (cx.null || cy.null) {   /* text that is not a number */
        *res = -1;
        return HE_OK;
    }
    *res = op_holds(op, cmp_values(c, t, &cx, &cy));
    return HE_OK;
}

static HVal bool_val(int res)
{
    return res < 0 ? hv_null(T_BOOL) : hv_int(T_BOOL, res);
}

static HEval compare_nodes(Ctx *c, HOp op, HTy t, HExpr *a, HExpr *b, int *res)
{
    HVal x, y;
    HEval s;
    if ((s = ev(c, a, &x)) != HE_OK || (s = ev(c, b, &y)) != HE_OK)
        return s;
    return compare_in(c, op, t, &x, &y, res);
}

static HEval ev_compare(Ctx *c, HExpr *e, HVal *out)
{
    int res, alt;
    HEval s;
    if ((s = compare_nodes(c, e->op, e->cmp_ty, e->a, e->b, &res)) != HE_OK)
        return s;
    if (e->narrow_uncertain) {
        if ((s = compare_nodes(c, e->op, e->orig_cmp, e->orig_a, e->orig_b, &alt)) != HE_OK)
            return s;
        if (alt != res)
            return unknown(c, "narrowing a folded constant decides the result");
    }
    *out = bool_val(res);
    return HE_OK;
}

/* GenericUDFBetween: NULL if the >= test is NULL; FALSE if it fails
 * (unless inverted); then NULL if the <= test is NULL. */
static HEval ev_between(Ctx *c, HExpr *e, HVal *out)
{
    HVal x, lo, hi;
    int ge, le, hive, sql;
    HEval s;
    if ((s = ev(c, e->a, &x)) != HE_OK || (s = ev(c, e->b, &lo)) != HE_OK ||
        (s = ev(c, e->c, &hi)) != HE_OK)
        return s;
    if ((s = compare_in(c, HO_GE, e->cmp_ty, &x, &lo, &ge)) != HE_OK ||
        (s = compare_in(c, HO_LE, e->cmp_ty2, &x, &hi, &le)) != HE_OK)
        return s;
    if (c->mode == MODE_VEC && is_fp(e->cmp_ty.t) && !x.null && isnan(num_as_double(&x))) {
        /* vectorized BETWEEN tests lo <= x <= hi, NOT BETWEEN x < lo || x > hi */
        *out = hv_int(T_BOOL, 0);
        return HE_OK;
    }
    if (ge < 0)
        hive = -1;
    else if (!e->negated && !ge)
        hive = 0;
    else if (le < 0)
        hive = -1;
    else
        hive = (ge && le) != e->negated;
    sql = (ge == 0 || le == 0) ? 0 : (ge < 0 || le < 0) ? -1 : 1;
    if (e->negated && sql >= 0)
        sql = !sql;
    if (hive != sql)
        return unknown(c, "BETWEEN with NULL: GenericUDFBetween and SQL disagree");
    *out = bool_val(hive);
    return HE_OK;
}

/* x IN (list) compared in type t: 1, 0 or -1 (NULL). */
static HEval in_list(Ctx *c, const HVal *x, HExpr **args, int n, HTy t, int *res)
{
    HVal y;
    HEval s;
    bool found = false;
    if (x->null) {
        *res = -1;
        return HE_OK;
    }
    for (int k = 0; k < n; k++) {
        int eq;
        if ((s = ev(c, args[k], &y)) != HE_OK)
            return s;
        if (is_fp(t.t)) {
            HVal cx, cy;
            if (!convert(c->r, x, t, &cx) || !convert(c->r, &y, t, &cy))
                return HE_UNKNOWN;
            /* a HashSet of DoubleWritable (row mode) tells -0.0 from 0.0
             * and never finds NaN; compare() and vectorized IN differ */
            if (!cx.null && !cy.null &&
                (isnan(cx.d) || isnan(cy.d) ||
                 (cx.d == 0 && cy.d == 0 && signbit(cx.d) != signbit(cy.d))))
                return unknown(c, "IN over doubles with NaN or -0.0 vs 0.0");
        }
        if ((s = compare_in(c, HO_EQ, t, x, &y, &eq)) != HE_OK)
            return s;
        if (eq < 0)
            return unknown(c, "IN with a value that does not convert");
        found |= eq == 1;
    }
    *res = found;
    return HE_OK;
}

static HEval ev_in(Ctx *c, HExpr *e, HVal *out)
{
    HVal x;
    HEval s;
    int res = 0, alt;
    if ((s = ev(c, e->a, &x)) != HE_OK)
        return s;
    if (!e->in_false && (s = in_list(c, &x, e->args, e->n_args, e->cmp_ty, &res)) != HE_OK)
        return s;
    if (e->narrow_uncertain) {
        if ((s = in_list(c, &x, e->orig_args, e->orig_n, e->orig_cmp, &alt)) != HE_OK)
            return s;
        if (alt != res)
            return unknown(c, "narrowing a folded constant decides the result");
    }
    *out = bool_val(res < 0 ? -1 : res != e->negated);
    return HE_OK;
}

/* UDFLike: % any run, _ one character, backslash takes the next one. */
static bool like_match(const char *s, size_t n, const char *p, size_t pn)
{
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        uint32_t sc, pc;
        size_t snext = utf8_next(s, n, si, &sc);
        if (pi < pn && p[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < pn) {
            bool esc = p[pi] == '\\' && pi + 1 < pn;
            size_t pnext = utf8_next(p, pn, esc ? pi + 1 : pi, &pc);
            if ((!esc && pc == '_') || pc == sc) {
                pi = pnext;
                si = snext;
                continue;
            }
        }
        if (star_p == (size_t)-1)
            return false;
        pi = star_p;
        si = star_s = utf8_next(s, n, star_s, &sc);
    }
    while (pi < pn && p[pi] == '%')
        pi++;
    return pi == pn;
}

static HEval ev_like(Ctx *c, HExpr *e, HVal *out)
{
    HVal x, p;
    const char *xs, *ps;
    size_t xn, pn;
    HEval s;
    if ((s = ev(c, e->a, &x)) != HE_OK || (s = ev(c, e->b, &p)) != HE_OK)
        return s;
    if (x.null || p.null) {
        *out = hv_null(T_BOOL);
        return HE_OK;
    }
    text_of(c->r, &x, &xs, &xn);
    text_of(c->r, &p, &ps, &pn);
    *out = hv_int(T_BOOL, like_match(xs, xn, ps, pn) != e->negated);
    return HE_OK;
}

/* DIV's BIGINT operand: (long) of numbers (issue 5); text through LazyLong
 * and through double must agree. */
static HEval div_operand(Ctx *c, const HVal *v, int64_t *out, bool *null)
{
    *null = false;
    if (v->ty.t == HT_DECIMAL) {
        /* getLong: HiveDecimal.longValue, truncated */
        HVal l = decimal_to_int(T_BIGINT, v->dec);
        if (l.null)
            return unknown(c, "DIV of a decimal beyond BIGINT (longValue clips)");
        *out = l.i;
    } else if (is_fp(v->ty.t)) {
        *out = java_d2l(v->d);
    } else if (is_strfam(v->ty.t)) {
        int64_t a;
        double d;
        bool la = hive_parse_integral(v->s, stripped_len(v), HT_BIGINT, &a);
        JParse jp = java_parse_fp(v->s, stripped_len(v), false, &d);
        if (jp == JP_UNKNOWN || la != (jp == JP_OK) || (la && a != java_d2l(d)))
            return unknown(c, "string DIV: LazyLong and double disagree");
        *null = !la;
        *out = a;
    } else {
        *out = v->i;
    }
    return HE_OK;
}

static HEval ev_idiv(Ctx *c, const HVal *x, const HVal *y, HVal *out)
{
    int64_t a, b;
    bool na, nb;
    HEval s;
    if ((s = div_operand(c, x, &a, &na)) != HE_OK || (s = div_operand(c, y, &b, &nb)) != HE_OK)
        return s;
    if (na || nb) {
        *out = hv_null(T_BIGINT);
        return HE_OK;
    }
    if (b == 0)
        return unknown(c, "DIV by zero (ArithmeticException)");
    *out = hv_int(T_BIGINT, b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b);
    return HE_OK;
}

/* An exact operand as a BigDecimal (PrimitiveObjectInspectorUtils.
 * getHiveDecimal of the unconverted value). */
static void exact_decimal(const HVal *v, HDec *x)
{
    if (v->ty.t == HT_DECIMAL)
        *x = *v->dec;
    else
        hd_from_long(v->i, x);
}

/* GenericUDFBaseNumeric.evaluate for a DECIMAL result: HiveDecimal add,
 * subtract, multiply (exact, then HiveDecimal.create's rounding to 38
 * digits), divide (BigDecimal.divide to scale 38 HALF_UP, then the same
 * rounding), remainder; x / 0 and x % 0 are NULL; then the result type's
 * enforcePrecisionScale (WritableHiveDecimalObjectInspector), NULL when
 * the integer digits do not fit. */
static HEval ev_decimal_arith(Ctx *c, HOp op, const HVal *x, const HVal *y, HTy t,
                              HVal *out)
{
    HDec a, b, res;
    bool ok;
    exact_decimal(x, &a);
    exact_decimal(y, &b);
    switch (op) {
    case HO_ADD: ok = hd_add(&a, &b, false, &res); break;
    case HO_SUB: ok = hd_add(&a, &b, true, &res); break;
    case HO_MUL: ok = hd_mul(&a, &b, &res); break;
    case HO_DIV: ok = !hd_is_zero(&b) && hd_div(&a, &b, 38, &res); break;
    default: ok = !hd_is_zero(&b) && hd_rem(&a, &b, &res); break;
    }
    ok = ok && hd_normalize(&res) && hd_enforce(&res, t.prec, t.scale);
    *out = hv_dec(&c->r->scratch, t, ok ? &res : NULL);
    return HE_OK;
}

static HEval ev_arith(Ctx *c, HExpr *e, HVal *out)
{
    HVal x, y, cx, cy;
    HTy t = e->ty;
    HEval s;
    if ((s = ev(c, e->a, &x)) != HE_OK || (s = ev(c, e->b, &y)) != HE_OK)
        return s;
    if (x.null || y.null) {
        *out = hv_null(t);
        return HE_OK;
    }
    if (e->op == HO_IDIV)
        return ev_idiv(c, &x, &y, out);
    if (t.t == HT_DECIMAL)
        return ev_decimal_arith(c, e->op, &x, &y, t, out);
    if (!convert(c->r, &x, t, &cx) || !convert(c->r, &y, t, &cy))
        return HE_UNKNOWN;
    if (cx.null || cy.null) {
        *out = hv_null(t);
        return HE_OK;
    }
    if (t.t == HT_FLOAT) {
        float a = (float)cx.d, b = (float)cy.d, v;
        switch (e->op) {
        case HO_ADD: v = a + b; break;
        case HO_SUB: v = a - b; break;
        case HO_MUL: v = a * b; break;
        default:
            if (b == 0.0f) {
                *out = hv_null(t);
                return HE_OK;
            }
            v = fmodf(a, b);
            break;
        }
        *out = hv_fp(t, v);
    } else if (t.t == HT_DOUBLE) {
        double a = cx.d, b = cy.d, v;
        switch (e->op) {
        case HO_ADD: v = a + b; break;
        case HO_SUB: v = a - b; break;
        case HO_MUL: v = a * b; break;
        default:
            if (b == 0.0) {
                *out = hv_null(t);
                return HE_OK;
            }
            v = e->op == HO_DIV ? a / b : fmod(a, b);
            break;
        }
        *out = hv_fp(t, v);
    } else {
        uint64_t a = (uint64_t)cx.i, b = (uint64_t)cy.i, v;
        switch (e->op) {
        case HO_ADD: v = a + b; break;
        case HO_SUB: v = a - b; break;
        case HO_MUL: v = a * b; break;
        default:
            if (cy.i == 0) {
                *out = hv_null(t);
                return HE_OK;
            }
            v = cy.i == -1 ? 0 : (uint64_t)(cx.i % cy.i);
            break;
        }
        *out = hv_int(t, (int64_t)v);
    }
    return HE_OK;
}

static HEval ev_case(Ctx *c, HExpr *e, HVal *out)
{
    HVal subj, v;
    HExpr *pick = e->c, *picked = e->c;
    HEval s;
    if (e->a && (s = ev(c, e->a, &subj)) != HE_OK)
        return s;
    if (e->narrow_uncertain) {   /* the reading as column = constant */
        HExpr *alt = e->c;
        for (int k = 0; k < e->orig_n && alt == e->c; k++) {
            if ((s = ev(c, e->orig_args[k], &v)) != HE_OK)
                return s;
            if (!v.null && v.i)
                alt = e->args[2 * k + 1];
        }
        pick = alt;
    }
    for (int k = 0; k < e->n_args && picked == e->c; k += 2) {
        if ((s = ev(c, e->args[k], &v)) != HE_OK)
            return s;
        if (e->a) {
            int res;
            if ((s = compare_in(c, HO_EQ, e->cmp_ty, &subj, &v, &res)) != HE_OK)
                return s;
            if (res == 1)
                picked = e->args[k + 1];
        } else if (!v.null && v.i) {
            picked = e->args[k + 1];
        }
    }
    if (e->narrow_uncertain && picked != pick)
        return unknown(c, "simple CASE: GenericUDFCase and its rewrite to = disagree");
    pick = picked;
    if (!pick) {
        *out = hv_null(e->ty);
        return HE_OK;
    }
    if ((s = ev(c, pick, &v)) != HE_OK)
        return s;
    return convert(c->r, &v, e->ty, out) ? HE_OK : HE_UNKNOWN;
}

static HEval ev_case_map(Ctx *c, HExpr *e, const HVal *x, HVal *out)
{
    const char *s;
    size_t n, i = 0, k = 0;
    char *p;
    text_of(c->r, x, &s, &n);
    p = comb_arena_alloc(&c->r->scratch, n * 2 + 8);
    while (i < n) {
        uint32_t cp, o[2];
        int no;
        i = utf8_next(s, n, i, &cp);
        if (!java_case_cp(cp, e->fn == HF_UPPER, o, &no))
            return unknown(c, "case mapping of U+%04X", (unsigned)cp);
        for (int j = 0; j < no; j++)
            k += utf8_put(p + k, o[j]);
    }
    if ((e->ty.t == HT_CHAR || e->ty.t == HT_VARCHAR) && utf8_chars(p, k) > (size_t)e->ty.len)
        return unknown(c, "upper/lower result longer than its char/varchar type");
    *out = hv_str(e->ty, p, k);
    return HE_OK;
}

static HEval ev_func(Ctx *c, HExpr *e, HVal *out)
{
    HVal v[64];
    HEval s;
    if (e->n_args > 64)
        return unknown(c, "too many arguments");
    for (int k = 0; k < e->n_args; k++)
        if ((s = ev(c, e->args[k], &v[k])) != HE_OK)
            return s;
    if (e->fn == HF_COALESCE || e->fn == HF_NVL || e->fn == HF_IF) {
        int pick = -1;
        if (e->fn == HF_IF)
            pick = (!v[0].null && v[0].i) ? 1 : 2;
        else
            for (int k = 0; k < e->n_args && pick < 0; k++)
                if (!v[k].null)
                    pick = k;
        if (pick < 0) {
            *out = hv_null(e->ty);
            return HE_OK;
        }
        if (!convert(c->r, &v[pick], e->ty, out))
            return HE_UNKNOWN;
        /* GenericUDFCoalesce/Nvl convert the first non-NULL value (NULL if
         * it does not fit a DECIMAL type); vectorized, casts to the common
         * type come first and a later value may be taken */
        for (int k = pick + 1; out->null && e->fn != HF_IF && k < e->n_args; k++) {
            HVal later;
            if (!v[k].null && convert(c->r, &v[k], e->ty, &later) && !later.null)
                return unknown(c, "COALESCE/NVL whose first value does not convert");
        }
        return HE_OK;
    }
    for (int k = 0; k < e->n_args; k++)
        if (v[k].null) {
            *out = hv_null(e->ty);
            return HE_OK;
        }
    switch (e->fn) {
    case HF_UPPER:
    case HF_LOWER:
        return ev_case_map(c, e, &v[0], out);
    case HF_LENGTH:
        *out = hv_int(T_INT, (int64_t)utf8_chars(v[0].s, stripped_len(&v[0])));
        return HE_OK;
    case HF_ABS:
        if (e->ty.t == HT_DOUBLE) {
            HVal d;
            if (!convert(c->r, &v[0], T_DOUBLE, &d))
                return HE_UNKNOWN;
            if (d.null)
                return unknown(c, "abs of text that is not a number (Hive fails)");
            *out = hv_fp(T_DOUBLE, fabs(d.d));
        } else if (e->ty.t == HT_DECIMAL) {
            HDec m = *v[0].dec;
            m.neg = false;
            *out = hv_dec(&c->r->scratch, e->ty, &m);
        } else {
            int64_t x = v[0].i;
            *out = hv_int(e->ty, x < 0 ? (int64_t)(0 - (uint64_t)x) : x);
        }
        return HE_OK;
    case HF_CONCAT: {
        size_t total = 0, k2 = 0;
        const char *ps[64];
        size_t pn[64];
        char *p;
        for (int k = 0; k < e->n_args; k++) {
            text_of(c->r, &v[k], &ps[k], &pn[k]);
            total += pn[k];
        }
        p = comb_arena_alloc(&c->r->scratch, total + 1);
        for (int k = 0; k < e->n_args; k++) {
            memcpy(p + k2, ps[k], pn[k]);
            k2 += pn[k];
        }
        *out = hv_str(e->ty, p, total);
        return HE_OK;
    }
    default: { /* trims: spaces only */
        const char *s0 = v[0].s;
        size_t n = stripped_len(&v[0]), b = 0;
        if (e->fn != HF_RTRIM)
            while (b < n && s0[b] == ' ')
                b++;
        if (e->fn != HF_LTRIM)
            while (n > b && s0[n - 1] == ' ')
                n--;
        *out = hv_str(T_STRING, s0 + b, n - b);
        return HE_OK;
    }
    }
}

static HEval ev_logic(Ctx *c, HExpr *e, HVal *out)
{
    HVal x, y;
    int a, b, res;
    HEval s;
    if ((s = ev(c, e->a, &x)) != HE_OK)
        return s;
    a = x.null ? -1 : (int)x.i;
    if (e->kind == HK_NOT) {
        *out = bool_val(a < 0 ? -1 : !a);
        return HE_OK;
    }
    if ((s = ev(c, e->b, &y)) != HE_OK)
        return s;
    b = y.null ? -1 : (int)y.i;
    if (e->kind == HK_AND)
        res = (a == 0 || b == 0) ? 0 : (a == 1 && b == 1) ? 1 : -1;
    else
        res = (a == 1 || b == 1) ? 1 : (a == 0 && b == 0) ? 0 : -1;
    *out = bool_val(res);
    return HE_OK;
}

static HEval ev(Ctx *c, HExpr *e, HVal *out)
{
    HVal x;
    HEval s;
    Mode saved = c->mode;
    if (e->is_const && c->mode != MODE_ROW) {
        /* constants are folded at compile time by the GenericUDFs */
        c->mode = MODE_ROW;
        s = ev(c, e, out);
        c->mode = saved;
        return s;
    }
    switch (e->kind) {
    case HK_LIT:
        *out = e->lit;
        return HE_OK;
    case HK_COL:
        *out = c->r->rows[c->row][e->col];
        return HE_OK;
    case HK_NEG:
        if ((s = ev(c, e->a, &x)) != HE_OK)
            return s;
        if (x.null) {
            *out = x;
        } else if (x.ty.t == HT_DECIMAL) {
            HDec m = *x.dec;
            m.neg = !m.neg && !hd_is_zero(&m);
            *out = hv_dec(&c->r->scratch, x.ty, &m);
        } else if (is_fp(x.ty.t)) {
            *out = hv_fp(x.ty, -x.d);
        } else {
            *out = hv_int(x.ty, (int64_t)(0 - (uint64_t)x.i));
        }
        return HE_OK;
    case HK_NOT:
    case HK_AND:
    case HK_OR:
        return ev_logic(c, e, out);
    case HK_ARITH:
        return ev_arith(c, e, out);
    case HK_CMP:
        return ev_compare(c, e, out);
    case HK_ISNULL:
        if ((s = ev(c, e->a, &x)) != HE_OK)
            return s;
        *out = hv_int(T_BOOL, x.null != e->negated);
        return HE_OK;
    case HK_BETWEEN:
        return ev_between(c, e, out);
    case HK_IN:
        return ev_in(c, e, out);
    case HK_LIKE:
        return ev_like(c, e, out);
    case HK_CASE:
        return ev_case(c, e, out);
    case HK_CAST:
        if ((s = ev(c, e->a, &x)) != HE_OK)
            return s;
        return cast_value(c->r, &x, e->cast_to, out) ? HE_OK : HE_UNKNOWN;
    case HK_FUNC:
        return ev_func(c, e, out);
    }
    return unknown(c, "expression kind");
}

static void format_value(const HVal *v, char *buf, size_t n)
{
    if (v->null) {
        snprintf(buf, n, "NULL");
    } else if (v->ty.t == HT_BOOLEAN) {
        snprintf(buf, n, "%s", v->i ? "true" : "false");
    } else if (v->ty.t == HT_FLOAT) {
        href_java_float((float)v->d, buf, n);
    } else if (v->ty.t == HT_DOUBLE) {
        href_java_double(v->d, buf, n);
    } else if (v->ty.t == HT_DECIMAL) {    /* LazyHiveDecimal: the type's scale */
        hd_text(v->dec, v->ty.scale, buf, n);
    } else if (is_strfam(v->ty.t)) {
        snprintf(buf, n, "%.*s", (int)v->n, v->s);
    } else {
        snprintf(buf, n, "%lld", (long long)v->i);
    }
}

HEval href_eval(HRef *r, HExpr *e, int row, char *buf, size_t n)
{
    char alt[512];
    HVal v;
    Ctx c = {r, row, MODE_ROW};
    comb_arena_reset(&r->scratch);
    if (ev(&c, e, &v) != HE_OK)
        return HE_UNKNOWN;
    format_value(&v, buf, n);
    c.mode = MODE_VEC;
    if (ev(&c, e, &v) != HE_OK)
        return HE_UNKNOWN;
    format_value(&v, alt, sizeof alt);
    if (strcmp(buf, alt) != 0) {
        set_why(r, "row mode gives %s, vectorized %s", buf, alt);
        return HE_MODE;
    }
    return HE_OK;
}

void href_format_cell(HRef *r, int row, int col, char *buf, size_t n)
{
    format_value(&r->rows[row][col], buf, n);
}

/* --------------------------------------------------------------- tables */

void href_init(HRef *r, int n_cols, const char *const *names, const HTy *types)
{
    memset(r, 0, sizeof *r);
    comb_arena_init(&r->arena, 64 * 1024);
    comb_arena_init(&r->scratch, 16 * 1024);
    r->n_cols = n_cols;
    for (int k = 0; k < n_cols; k++) {
        r->col_names[k] = names[k];
        r->col_types[k] = types[k];
    }
}

void href_free(HRef *r)
{
    comb_arena_free(&r->arena);
    comb_arena_free(&r->scratch);
}

bool href_add_row(HRef *r, const char *const *cells)
{
    int row = r->n_rows;
    if (row == HREF_MAX_ROWS)
        return false;
    for (int k = 0; k < r->n_cols; k++) {
        HExpr *e = href_parse(r, cells[k]);
        HVal v, stored;
        if (!e || bind(r, e) != HB_OK || !e->is_const || !fold(r, e, &v) ||
            !cast_value(r, &v, r->col_types[k], &stored))
            return false;
        if (!stored.null && is_strfam(stored.ty.t))
            stored.s = comb_arena_strndup(&r->arena, stored.s, stored.n);
        if (!stored.null && stored.ty.t == HT_DECIMAL)
            stored = hv_dec(&r->arena, stored.ty, stored.dec);
        r->rows[row][k] = stored;
    }
    r->n_rows++;
    return true;
}

/* ------------------------------------------------------------- reports */

int href_kids(HExpr *e, HExpr **out, int max)
{
    int n = 0;
    HExpr *abc[3] = {e->a, e->b, e->c};
    for (int k = 0; k < 3; k++)
        if (abc[k] && n < max)
            out[n++] = abc[k];
    for (int k = 0; k < e->n_args && n < max; k++)
        out[n++] = e->args[k];
    return n;
}

int href_subexprs(HExpr *e, HExpr **out, int max)
{
    HExpr *kids[80];
    int n = 0, nk = href_kids(e, kids, 80);
    for (int k = 0; k < nk; k++)
        n += href_subexprs(kids[k], out + n, max - n);
    if (n < max)
        out[n++] = e;
    return n;
}

bool href_is_literal(const HExpr *e)
{
    return e->kind == HK_LIT;
}

const char *href_text(HRef *r, const HExpr *e)
{
    return comb_arena_strndup(&r->arena, e->src + e->start, (size_t)(e->end - e->start));
}

uint32_t href_columns(const HExpr *e)
{
    uint32_t m = e->kind == HK_COL ? 1u << e->col : 0;
    const HExpr *abc[3] = {e->a, e->b, e->c};
    for (int k = 0; k < 3; k++)
        if (abc[k])
            m |= href_columns(abc[k]);
    for (int k = 0; k < e->n_args; k++)
        m |= href_columns(e->args[k]);
    return m;
}

const char *href_signature(HRef *r, const HExpr *e)
{
    static const char *const ops[] = {
        [HO_ADD] = "+", [HO_SUB] = "-", [HO_MUL] = "*", [HO_DIV] = "/",
        [HO_MOD] = "%", [HO_IDIV] = "div", [HO_EQ] = "=", [HO_NE] = "<>",
        [HO_LT] = "<", [HO_LE] = "<=", [HO_GT] = ">", [HO_GE] = ">=",
        [HO_NSEQ] = "<=>"};
    static const char *const fns[] = {
        [HF_UPPER] = "upper", [HF_LOWER] = "lower", [HF_LENGTH] = "length",
        [HF_ABS] = "abs", [HF_CONCAT] = "concat", [HF_TRIM] = "trim",
        [HF_LTRIM] = "ltrim", [HF_RTRIM] = "rtrim", [HF_COALESCE] = "coalesce",
        [HF_NVL] = "nvl", [HF_IF] = "if"};
    static const char *const kinds[] = {
        [HK_LIT] = "literal", [HK_COL] = "column", [HK_NEG] = "negate",
        [HK_NOT] = "not", [HK_AND] = "and", [HK_OR] = "or", [HK_ISNULL] = "is null",
        [HK_BETWEEN] = "between", [HK_IN] = "in", [HK_LIKE] = "like",
        [HK_CASE] = "case", [HK_CAST] = "cast"};
    HExpr *kids[80];
    int nk = href_kids((HExpr *)e, kids, 80);
    char buf[256];
    size_t k = 0;
    const char *name = e->kind == HK_ARITH || e->kind == HK_CMP ? ops[e->op]
                     : e->kind == HK_FUNC ? fns[e->fn] : kinds[e->kind];
    if (e->kind == HK_CAST)
        return comb_arena_printf(&r->arena, "cast(%s as %s)",
                                 href_type_name(r, e->a->ty), href_type_name(r, e->cast_to));
    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s(", e->negated ? "not " : "", name);
    for (int i = 0; i < nk && k < sizeof buf - 40; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? "," : "",
                              href_type_name(r, kids[i]->ty));
    snprintf(buf + k, sizeof buf - k, ")->%s", href_type_name(r, e->ty));
    return comb_arena_strdup(&r->arena, buf);
}

static int order_cmp(const HRef *r, int col, bool desc, int x, int y)
{
    const HVal *a = &r->rows[x][col], *b = &r->rows[y][col];
    int k;
    if (a->null || b->null) {
        k = a->null && b->null ? 0 : a->null ? 1 : -1;   /* NULLS LAST ... */
        if (desc)
            k = -k;                                       /* ... NULLS FIRST */
    } else {
        if (is_fp(a->ty.t))
            k = href_sort_cmp_double(a->d, b->d);
        else if (is_strfam(a->ty.t))
            k = bytes_cmp(a->s, a->n, b->s, b->n);
        else
            k = a->i < b->i ? -1 : a->i > b->i;
        if (desc)
            k = -k;
    }
    if (k == 0)
        k = r->rows[x][0].i < r->rows[y][0].i ? -1 : r->rows[x][0].i > r->rows[y][0].i;
    return k;
}

void href_order(const HRef *r, int col, bool desc, int *out)
{
    for (int k = 0; k < r->n_rows; k++) {
        int j = k;
        out[k] = k;
        for (; j > 0 && order_cmp(r, col, desc, out[j - 1], k) > 0; j--)
            out[j] = out[j - 1];
        out[j] = k;
    }
}

/* Type names without lengths: char(5) and char(3) fail alike. */
static const char *family_name(HTy t)
{
    static const char *const names[] = {
        "void", "boolean", "tinyint", "smallint", "int", "bigint", "float",
        "double", "string", "varchar", "char", "decimal"};
    return names[t.t];
}

static int str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *href_class(HRef *r, const HExpr *e)
{
    HExpr *kids[80];
    const char *names[80];
    char buf[256];
    size_t k = 0;
    int nk = href_kids((HExpr *)e, kids, 80);
    bool symmetric = e->kind == HK_CMP || (e->kind == HK_ARITH && (e->op == HO_ADD || e->op == HO_MUL));
    const char *sig = href_signature(r, e), *open = strchr(sig, '(');
    if (e->kind == HK_CAST)
        return comb_arena_printf(&r->arena, "cast(%s as %s)", family_name(e->a->ty),
                                 family_name(e->cast_to));
    for (int i = 0; i < nk; i++)
        names[i] = family_name(kids[i]->ty);
    if (symmetric)
        qsort(names, (size_t)nk, sizeof *names, str_ptr_cmp);
    if (e->kind == HK_CMP)
        k += (size_t)snprintf(buf, sizeof buf, "%s(",
                              e->op == HO_EQ || e->op == HO_NE || e->op == HO_NSEQ
                                  ? "= <> <=>" : "< <= > >=");
    else
        k += (size_t)snprintf(buf, sizeof buf, "%.*s(", (int)(open - sig), sig);
    for (int i = 0; i < nk && k < sizeof buf - 40; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? "," : "", names[i]);
    snprintf(buf + k, sizeof buf - k, ")->%s", family_name(e->ty));
    return comb_arena_strdup(&r->arena, buf);
}

int href_sort_cmp_double(double a, double b)
{
    uint64_t x, y;
    if (isnan(a))
        a = NAN;   /* Double.doubleToLongBits: one canonical NaN */
    if (isnan(b))
        b = NAN;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    x = (x >> 63) ? ~x : x ^ (1ull << 63);
    y = (y >> 63) ? ~y : y ^ (1ull << 63);
    return x < y ? -1 : x > y;
}
