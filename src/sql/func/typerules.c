/*
 * typerules.c - Hive's type rules for bound expressions: whole result
 * types, decimal precision and scale (HiveDecimalUtils,
 * GenericUDFBaseNumeric.adjustPrecScale), implicit conversions and the
 * common types of comparisons and of CASE/COALESCE values
 * (FunctionRegistry.getCommonClassForComparison / getCommonClass).
 * Facts come from Hive 4's sources; see func/expr.h for the contracts.
 */
#include "sql/func/expr.h"

#include <string.h>
#include <strings.h>

#include "common/decimal.h"

BoundExpr *sql_bx_new_type(SqlStmtCtx *c, BxKind kind, const CombType *t,
                           AstPos pos)
{
    BoundExpr *b = sql_bx_new(c, kind, t->kind, pos);
    if (b)
        sql_bx_set_type(b, t);
    return b;
}

void sql_bx_set_type(BoundExpr *e, const CombType *t)
{
    e->type = t->kind;
    e->length = t->max_length;
    e->ctype = (t->kind == COMB_T_DECIMAL || !comb_type_is_primitive(t->kind))
                   ? t : NULL;
}

const CombType *sql_bx_type(SqlStmtCtx *c, const BoundExpr *e)
{
    if (e->ctype)
        return e->ctype;
    if ((e->type == COMB_T_CHAR || e->type == COMB_T_VARCHAR) && e->length)
        return comb_type_sized(c->arena, e->type, e->length);
    return sql_kind_type(e->type);
}

const char *sql_type_text(SqlStmtCtx *c, const CombType *t)
{
    const char *s;
    if (!t)
        return "?";
    if (t->kind == COMB_T_NULL)
        return "void";
    s = comb_type_string(c->arena, t);
    return s ? s : comb_type_name(t->kind);
}

const char *sql_bx_type_text(SqlStmtCtx *c, const BoundExpr *e)
{
    return e->type == COMB_T_NULL ? "void" : sql_type_text(c, sql_bx_type(c, e));
}

int sql_int_rank(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT: return 1;
    case COMB_T_SMALLINT: return 2;
    case COMB_T_INT: return 3;
    case COMB_T_BIGINT: return 4;
    default: return 0;
    }
}

bool sql_bx_has_type(const BoundExpr *e, const CombType *t)
{
    if (e->type != t->kind)
        return false;
    if (e->ctype)
        return comb_type_equal(e->ctype, t);
    return true;
}

CombType *sql_decimal_type(SqlStmtCtx *c, int precision, int scale)
{
    return comb_type_decimal(c->arena, (uint32_t)precision, (uint32_t)scale);
}

CombType *sql_decimal_adjusted(SqlStmtCtx *c, int precision, int scale)
{
    int int_digits, min_scale;
    if (precision <= COMB_MAX_DECIMAL_PRECISION)
        return sql_decimal_type(c, precision, scale);
    int_digits = precision - scale;
    min_scale = scale < 6 ? scale : 6;
    scale = COMB_MAX_DECIMAL_PRECISION - int_digits;
    if (scale < min_scale)
        scale = min_scale;
    return sql_decimal_type(c, COMB_MAX_DECIMAL_PRECISION, scale);
}

/* BigDecimal.valueOf(v).precision(): the digits of |v| (0 has one). */
static int integer_digits(int64_t v)
{
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n = 1;
    while (m >= 10) {
        m /= 10;
        n++;
    }
    return n;
}

void sql_decimal_params(const BoundExpr *e, bool by_value, int *precision,
                        int *scale)
{
    *scale = 0;
    switch (e->type) {
    case COMB_T_DECIMAL:
        *precision = (int)e->ctype->precision;
        *scale = (int)e->ctype->scale;
        return;
    case COMB_T_TINYINT: case COMB_T_SMALLINT: case COMB_T_INT:
    case COMB_T_BIGINT:
        if (by_value && e->kind == BX_CONST && !e->is_null) {
            *precision = integer_digits(e->ival);
            return;
        }
        *precision = e->type == COMB_T_TINYINT ? 3 : e->type == COMB_T_SMALLINT ? 5
                     : e->type == COMB_T_INT ? 10 : 19;
        return;
    case COMB_T_FLOAT:
        *precision = *scale = 7;
        return;
    case COMB_T_DOUBLE:
        *precision = *scale = 15;
        return;
    case COMB_T_NULL:
        *precision = 1;
        return;
    default:
        *precision = COMB_MAX_DECIMAL_PRECISION;
        *scale = 18;
        return;
    }
}

CombType *sql_decimal_common(SqlStmtCtx *c, const BoundExpr *a,
                             const BoundExpr *b)
{
    int pa, sa, pb, sb, int_part, dec_part, precision, scale;
    sql_decimal_params(a, false, &pa, &sa);
    sql_decimal_params(b, false, &pb, &sb);
    int_part = pa - sa > pb - sb ? pa - sa : pb - sb;
    dec_part = sa > sb ? sa : sb;
    precision = int_part + dec_part;
    if (precision > COMB_MAX_DECIMAL_PRECISION)
        precision = COMB_MAX_DECIMAL_PRECISION;
    scale = dec_part < COMB_MAX_DECIMAL_PRECISION - int_part
                ? dec_part : COMB_MAX_DECIMAL_PRECISION - int_part;
    return sql_decimal_type(c, precision, scale);
}

bool sql_is_number(CombTypeKind k)
{
    return k == COMB_T_TINYINT || k == COMB_T_SMALLINT || k == COMB_T_INT ||
           k == COMB_T_BIGINT || comb_type_is_float(k) || k == COMB_T_DECIMAL;
}

bool sql_is_string(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR;
}

/* Hive's numeric ladder (FunctionRegistry.numericTypes): tinyint 1 ..
 * double 6, decimal 7, string 8; 0 for the others. */
static int numeric_level(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT: return 1;
    case COMB_T_SMALLINT: return 2;
    case COMB_T_INT: return 3;
    case COMB_T_BIGINT: return 4;
    case COMB_T_FLOAT: return 5;
    case COMB_T_DOUBLE: return 6;
    case COMB_T_DECIMAL: return 7;
    case COMB_T_STRING: return 8;
    default: return 0;
    }
}

static bool is_date_group(CombTypeKind k)
{
    return k == COMB_T_DATE || k == COMB_T_TIMESTAMP;
}

bool sql_implicit_convertible(CombTypeKind from, CombTypeKind to)
{
    int f, t;
    if (from == to || from == COMB_T_NULL)
        return true;
    if (sql_is_string(from) &&
        (to == COMB_T_DOUBLE || to == COMB_T_DECIMAL || sql_is_string(to)))
        return true;
    if ((is_date_group(from) || sql_is_number(from)) && sql_is_string(to))
        return true;
    f = numeric_level(from);
    t = numeric_level(to);
    return f && t && f <= t;
}

/* The first kind of Hive's numeric ladder both convert to implicitly. */
static CombTypeKind ladder_common(CombTypeKind a, CombTypeKind b)
{
    static const CombTypeKind ladder[] = {
        COMB_T_TINYINT, COMB_T_SMALLINT, COMB_T_INT, COMB_T_BIGINT,
        COMB_T_FLOAT, COMB_T_DOUBLE, COMB_T_DECIMAL, COMB_T_STRING};
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++)
        if (sql_implicit_convertible(a, ladder[i]) &&
            sql_implicit_convertible(b, ladder[i]))
            return ladder[i];
    return COMB_T_NULL;
}

bool sql_compare_type(SqlStmtCtx *c, const BoundExpr *a, const BoundExpr *b,
                      const CombType **to)
{
    CombTypeKind ka = a->type, kb = b->type, k;
    *to = NULL;
    if (ka == COMB_T_NULL || kb == COMB_T_NULL) {
        if (ka == kb || !comb_type_is_primitive(ka == COMB_T_NULL ? kb : ka))
            return true;
        *to = sql_bx_type(c, ka == COMB_T_NULL ? b : a);
        return *to != NULL;
    }
    if (!comb_type_is_primitive(ka) || !comb_type_is_primitive(kb))
        return ka == kb && comb_type_equal(a->ctype, b->ctype);
    if (ka == kb && (ka == COMB_T_DECIMAL || ka == COMB_T_BOOLEAN ||
                     ka == COMB_T_BINARY || is_date_group(ka)))
        return true;
    if (ka == COMB_T_BOOLEAN || kb == COMB_T_BOOLEAN || ka == COMB_T_BINARY ||
        kb == COMB_T_BINARY)
        return false;
    if (sql_is_string(ka) && sql_is_string(kb)) {
        *to = sql_kind_type(COMB_T_STRING);
        return true;
    }
    /* a date or timestamp outranks text, which converts to it (Hive's
     * getCommonClassForComparison: `dt = '2024-1-1'` compares as DATE);
     * a date and a timestamp compare as timestamps */
    if (is_date_group(ka) || is_date_group(kb)) {
        CombTypeKind other = is_date_group(ka) ? kb : ka;
        if (sql_is_string(other)) {
            *to = sql_kind_type(is_date_group(ka) ? ka : kb);
            return true;
        }
        if (is_date_group(other)) {
            *to = sql_kind_type(COMB_T_TIMESTAMP);
            return true;
        }
    }
    /* timestamps are not implicitly numbers: Hive compares them as
     * doubles (which its strict mode then refuses) */
    if ((sql_is_number(ka) || sql_is_number(kb)) &&
        (ka == COMB_T_TIMESTAMP || kb == COMB_T_TIMESTAMP)) {
        *to = sql_kind_type(COMB_T_DOUBLE);
        return true;
    }
    k = ladder_common(ka, kb);
    if (k == COMB_T_NULL)
        return false;
    /* integers of any width compare as int64, a float stays a float */
    if (k == COMB_T_TINYINT || k == COMB_T_SMALLINT || k == COMB_T_INT)
        k = COMB_T_BIGINT;
    *to = k == COMB_T_DECIMAL ? sql_decimal_common(c, a, b) : sql_kind_type(k);
    return *to != NULL;
}

/* Two structs with the same field names (ignoring case) unite field by
 * field (getCommonClassForStruct). */
static int common_struct(SqlStmtCtx *c, const CombType *a, const CombType *b,
                         const CombType **out)
{
    CombType *t;
    *out = NULL;
    if (a->n_children != b->n_children)
        return COMB_OK;
    for (int i = 0; i < a->n_children; i++)
        if (strcasecmp(a->field_names[i], b->field_names[i]) != 0)
            return COMB_OK;
    if (!(t = comb_type_new(c->arena, COMB_T_STRUCT)))
        return COMB_ENOMEM;
    for (int i = 0; i < a->n_children; i++) {
        const CombType *f;
        int rc = sql_common_class(c, a->children[i], b->children[i], &f);
        if (rc || !f)
            return rc;
        if (comb_type_add_field(c->arena, t, a->field_names[i], (CombType *)f))
            return COMB_ENOMEM;
    }
    *out = t;
    return COMB_OK;
}

/* Hive's decimal type of two numbers united (getDecimalTypeFor-
 * PrimitiveCategories) from their types alone. */
static const CombType *common_decimal(SqlStmtCtx *c, const CombType *a,
                                      const CombType *b)
{
    BoundExpr x = {.type = a->kind, .ctype = a}, y = {.type = b->kind, .ctype = b};
    return sql_decimal_common(c, &x, &y);
}

int sql_common_class(SqlStmtCtx *c, const CombType *a, const CombType *b,
                     const CombType **out)
{
    CombTypeKind ka = a->kind, kb = b->kind;
    int la = numeric_level(ka), lb = numeric_level(kb);
    *out = NULL;
    if (ka == COMB_T_NULL || comb_type_equal(a, b)) {
        *out = b;
    } else if (kb == COMB_T_NULL) {
        *out = a;
    } else if (ka == COMB_T_STRUCT && kb == COMB_T_STRUCT) {
        return common_struct(c, a, b, out);
    } else if (!comb_type_is_primitive(ka) || !comb_type_is_primitive(kb)) {
        return COMB_OK;
    } else if (ka == kb && ka != COMB_T_DECIMAL) {
        /* char(m)/char(n), varchar(m)/varchar(n): united by the caller */
        *out = sql_kind_type(ka);
    } else if ((sql_is_string(ka) || sql_is_number(ka) || is_date_group(ka)) &&
               (sql_is_string(kb) || sql_is_number(kb) || is_date_group(kb)) &&
               (sql_is_string(ka) || sql_is_string(kb))) {
        *out = sql_kind_type(COMB_T_STRING);
    } else if (la && lb) {
        CombTypeKind k = la > lb ? ka : kb;
        *out = k == COMB_T_DECIMAL ? common_decimal(c, a, b) : sql_kind_type(k);
        if (!*out)
            return COMB_ENOMEM;
    }
    return COMB_OK;
}
