/*
 * func.c - scalar built-in functions: one table of (name, arity, type
 * rule, implementation).  Aggregates (count, sum, ...) are not here: the
 * SELECT planner recognises them before binding (see exec_select.c).
 */
#include "sql/func/expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/datetime.h"

#include "sql/func/agg.h"
#include "sql/func/convert.h"
#include "sql/func/func_int.h"
#include "sql/func/udtf.h"
#include "sql/func/unicase.h"


static void copy_nulls(CombVector *o, const CombBatch *in, const CombVector *x)
{
    o->has_nulls = x->has_nulls;
    if (x->has_nulls)
        FOR_LIVE(in, i, row)
            o->nulls[row] = x->nulls[row];
}

/* upper / lower as Java converts case (unicase.h), not byte by byte. */
static int fn_case(BoundExpr *e, const CombBatch *in, CombErr *err, bool upper)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    comb_arena_reset(e->scratch);
    copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(x, row))
            continue;
        if (sql_utf8_case(x->str[row], upper, e->scratch, &o->str[row]))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int fn_upper(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    return fn_case(e, in, err, true);
}

static int fn_lower(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    return fn_case(e, in, err, false);
}

/* Characters, not bytes: count UTF-8 lead bytes. */
static int fn_length(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    (void)err;
    copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        int64_t n = 0;
        if (comb_vec_is_null(x, row))
            continue;
        for (uint32_t k = 0; k < x->str[row].len; k++)
            n += ((unsigned char)x->str[row].ptr[k] & 0xC0) != 0x80;
        o->i64[row] = n;
    }
    return COMB_OK;
}

static int fn_abs(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    (void)err;
    copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(x, row))
            continue;
        /* Java's Math.abs: the smallest int/long stays negative */
        if (o->f64)
            o->f64[row] = fabs(x->f64[row]);
        else if (o->dec)
            o->dec[row] = x->dec[row] < 0 ? -x->dec[row] : x->dec[row];
        else
            o->i64[row] = sql_int_wrap(e->type, x->i64[row] < 0
                                                    ? (int64_t)(0 - (uint64_t)x->i64[row])
                                                    : x->i64[row]);
    }
    return COMB_OK;
}

/* current_date / current_timestamp: the statement's one value. */
static int fn_now(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row) {
        e->out->i64[row] = e->type == COMB_T_DATE ? comb_seconds_to_days(e->ival)
                                                  : e->ival;
        if (e->out->nanos)
            e->out->nanos[row] = e->nanos;
    }
    return COMB_OK;
}

/* First non-NULL argument (all arguments already cast to e->type). */
static int fn_coalesce(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        int k = 0;
        while (k < e->n_args && comb_vec_is_null(e->args[k]->out, row))
            k++;
        if (k == e->n_args)
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, e->args[k]->out, row))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int fn_concat(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    comb_arena_reset(e->scratch);
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        size_t len = 0;
        bool null = false;
        char *p;
        for (int k = 0; k < e->n_args; k++) {
            null |= comb_vec_is_null(e->args[k]->out, row);
            if (!null)
                len += e->args[k]->out->str[row].len;
        }
        sql_vec_mark(o, in, row, null);
        if (null)
            continue;
        p = comb_arena_alloc(e->scratch, len + 1);
        if (!p)
            return comb_err_nomem(err);
        len = 0;
        for (int k = 0; k < e->n_args; k++) {
            CombStr s = e->args[k]->out->str[row];
            memcpy(p + len, s.ptr, s.len);
            len += s.len;
        }
        o->str[row] = (CombStr){p, (uint32_t)len};
    }
    return COMB_OK;
}

/* Cut to e->ival characters (UTF-8), and for char(n) pad with spaces. */
static int fn_fit_length(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    bool pad = e->type == COMB_T_CHAR;
    comb_arena_reset(e->scratch);
    copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        CombStr s = x->str[row];
        uint32_t bytes = 0, chars = 0;
        char *p;
        if (comb_vec_is_null(x, row))
            continue;
        while (bytes < s.len && chars < (uint64_t)e->ival) {
            bytes++;
            while (bytes < s.len && ((unsigned char)s.ptr[bytes] & 0xC0) == 0x80)
                bytes++;
            chars++;
        }
        if (!pad || chars == (uint64_t)e->ival) {
            o->str[row] = (CombStr){s.ptr, bytes};
            continue;
        }
        p = comb_arena_alloc(e->scratch, bytes + (size_t)(e->ival - chars) + 1);
        if (!p)
            return comb_err_nomem(err);
        memcpy(p, s.ptr, bytes);
        memset(p + bytes, ' ', (size_t)(e->ival - chars));
        o->str[row] = (CombStr){p, bytes + (uint32_t)(e->ival - chars)};
    }
    return COMB_OK;
}

static int fn_rtrim(BoundExpr *e, const CombBatch *in, CombErr *err);

/* A one-argument internal function node over e. */
static int unary_func_node(SqlStmtCtx *c, BoundExpr *e, CombTypeKind type,
                           const char *name, BxFuncImpl fn, BoundExpr **out,
                           CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_FUNC, type, e->pos);
    BoundExpr **args = comb_arena_alloc(c->arena, sizeof *args);
    if (!b || !args)
        return comb_err_nomem(err);
    args[0] = e;
    b->fname = name;
    b->fn = fn;
    b->args = args;
    b->n_args = 1;
    *out = b;
    return COMB_OK;
}

int sql_bind_rtrim(SqlStmtCtx *c, BoundExpr *e, BoundExpr **out,
                   CombErr *err)
{
    return unary_func_node(c, e, COMB_T_STRING, "rtrim", fn_rtrim, out, err);
}

int sql_bind_fit_length(SqlStmtCtx *c, BoundExpr *e, CombTypeKind kind,
                        uint32_t length, BoundExpr **out, CombErr *err)
{
    int rc = unary_func_node(c, e, kind, kind == COMB_T_CHAR ? "char" : "varchar",
                             fn_fit_length, out, err);
    if (!rc) {
        (*out)->ival = length;
        (*out)->length = length;
    }
    return rc;
}

/* trim / ltrim / rtrim: spaces only, as Hive's. */
static int fn_trim_sides(BoundExpr *e, const CombBatch *in, bool left,
                         bool right)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        CombStr s;
        if (comb_vec_is_null(x, row))
            continue;
        s = x->str[row];
        while (left && s.len > 0 && s.ptr[0] == ' ') {
            s.ptr++;
            s.len--;
        }
        while (right && s.len > 0 && s.ptr[s.len - 1] == ' ')
            s.len--;
        o->str[row] = s;
    }
    return COMB_OK;
}

static int fn_trim(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return fn_trim_sides(e, in, true, true);
}

static int fn_ltrim(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return fn_trim_sides(e, in, true, false);
}

static int fn_rtrim(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return fn_trim_sides(e, in, false, true);
}

/* Arguments converted to `to` as Hive's functions accept them: anything
 * becomes a string, NULL anything, numbers and strings a float or double,
 * an integer a wider integer or a decimal. */
static int cast_all(SqlStmtCtx *c, BoundExpr **args, int n, const CombType *to,
                    CombErr *err)
{
    for (int i = 0; i < n; i++) {
        CombTypeKind from = args[i]->type;
        int rc;
        if (sql_bx_has_type(args[i], to))
            continue;
        if (!(to->kind == COMB_T_STRING || from == COMB_T_NULL ||
              (comb_type_is_float(to->kind) &&
               (sql_is_number(from) || sql_is_string(from))) ||
              (sql_int_rank(to->kind) && sql_int_rank(from)) ||
              (to->kind == COMB_T_DECIMAL && sql_int_rank(from))))
            return sql_err_at(err, COMB_ESEMANTIC, 10014, args[i]->pos,
                              "Wrong arguments: %s cannot be used as %s",
                              comb_type_name(from), comb_type_name(to->kind));
        if ((rc = sql_bind_cast(c, args[i], to, true, &args[i], err)))
            return rc;
    }
    return COMB_OK;
}

/* GenericUDFAbs: tinyint, smallint and int give int, bigint bigint,
 * float, double and strings double, a decimal its own type; CHAR and
 * VARCHAR are refused. */
static int bind_abs(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    CombTypeKind a = b->args[0]->type;
    switch (a) {
    case COMB_T_NULL:
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
        b->type = COMB_T_INT;
        break;
    case COMB_T_BIGINT:
        b->type = COMB_T_BIGINT;
        break;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
    case COMB_T_STRING:
        b->type = COMB_T_DOUBLE;
        break;
    case COMB_T_DECIMAL:
        sql_bx_set_type(b, b->args[0]->ctype);
        return COMB_OK;
    default:
        return sql_err_at(err, COMB_ESEMANTIC, 10014, b->args[0]->pos,
                          "Wrong arguments for 'abs': expected a number but "
                          "got %s", comb_type_name(a));
    }
    return cast_all(c, b->args, 1, sql_kind_type(b->type), err);
}

/* COALESCE / NVL: the arguments' common type. */
static int bind_coalesce(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    const CombType *to;
    int rc = sql_common_value_type(c, b->args, b->n_args, &to, err);
    if (rc)
        return rc;
    sql_bx_set_type(b, to);
    for (int i = 0; i < b->n_args; i++)
        if ((rc = sql_bind_cast(c, b->args[i], to, true, &b->args[i], err)))
            return rc;
    if (b->type == COMB_T_CHAR)
        return sql_bind_unite_chars(c, b->args, b->n_args, &b->length, err);
    return COMB_OK;
}

/* The statement's clock, read once: local wall-clock time, as Hive's
 * current_timestamp gives it in the session's time zone. */
static void statement_now(SqlStmtCtx *c)
{
    struct timespec ts;
    struct tm tm;
    if (c->have_now)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    localtime_r(&ts.tv_sec, &tm);
    c->now_secs = comb_days_to_seconds(comb_days_from_civil(tm.tm_year + 1900,
                                                            tm.tm_mon + 1,
                                                            tm.tm_mday)) +
                  tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
    /* Hive's current_timestamp has millisecond precision */
    c->now_nanos = (int32_t)(ts.tv_nsec / 1000000 * 1000000);
    c->have_now = true;
}

static int bind_now(SqlStmtCtx *c, const AstExpr *e, int n_args,
                    BoundExpr **out, CombErr *err)
{
    bool date = strcmp(e->name, "current_date") == 0;
    BoundExpr *b;
    if (n_args)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "Arguments length mismatch for function '%s'",
                          e->name);
    statement_now(c);
    b = sql_bx_new(c, BX_FUNC, date ? COMB_T_DATE : COMB_T_TIMESTAMP, e->pos);
    if (!b)
        return comb_err_nomem(err);
    b->fname = date ? "current_date" : "current_timestamp";
    b->fn = fn_now;
    b->ival = c->now_secs;
    b->nanos = date ? 0 : c->now_nanos;
    *out = b;
    return COMB_OK;
}

/* current_user() and current_database(): the session's user and database
 * when the statement is bound (Hive's GenericUDFCurrentUser and
 * UDFCurrentDB, constants within a statement; usable as DEFAULTs). */
static int bind_session_string(SqlStmtCtx *c, const AstExpr *e, int n_args,
                               BoundExpr **out, CombErr *err)
{
    bool user = strcmp(e->name, "current_user") == 0;
    const char *v = user ? c->s->user : c->s->db;
    BoundExpr *b;
    if (n_args)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "Arguments length mismatch for function '%s'",
                          e->name);
    if (!(b = sql_bx_new(c, BX_CONST, COMB_T_STRING, e->pos)) ||
        !(b->sval.ptr = comb_arena_strdup(c->arena, v)))
        return comb_err_nomem(err);
    b->sval.len = (uint32_t)strlen(v);
    *out = b;
    return COMB_OK;
}

static int bind_case_fn(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b, **args = b->args;
    b->type = args[0]->type == COMB_T_CHAR || args[0]->type == COMB_T_VARCHAR
                  ? args[0]->type : COMB_T_STRING;
    b->length = args[0]->length;
    return cast_all(f->c, args, b->n_args, sql_kind_type(COMB_T_STRING), err);
}

static int bind_concat_fn(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    sql_concat_type(b->args, b->n_args, &b->type, &b->length);
    return cast_all(f->c, b->args, b->n_args, sql_kind_type(COMB_T_STRING), err);
}

static int bind_to_string_fn(SqlFnBind *f, CombErr *err)
{
    f->b->type = COMB_T_STRING;
    return cast_all(f->c, f->b->args, f->b->n_args, sql_kind_type(COMB_T_STRING), err);
}

static int bind_length_fn(SqlFnBind *f, CombErr *err)
{
    f->b->type = COMB_T_INT;
    return cast_all(f->c, f->b->args, f->b->n_args, sql_kind_type(COMB_T_STRING), err);
}

static int bind_abs_fn(SqlFnBind *f, CombErr *err)
{
    return bind_abs(f->c, f->b, err);
}

static int bind_coalesce_fn(SqlFnBind *f, CombErr *err)
{
    return bind_coalesce(f->c, f->b, err);
}

/* The functions comb had first; the families add the rest. */
static const SqlFuncDef core_funcs[] = {
    {"upper", 1, 1, bind_case_fn, fn_upper, NULL},
    {"ucase", 1, 1, bind_case_fn, fn_upper, NULL},
    {"lower", 1, 1, bind_case_fn, fn_lower, NULL},
    {"lcase", 1, 1, bind_case_fn, fn_lower, NULL},
    {"length", 1, 1, bind_length_fn, fn_length, NULL},
    {"abs", 1, 1, bind_abs_fn, fn_abs, NULL},
    {"coalesce", 1, FN_ANY_ARGS, bind_coalesce_fn, fn_coalesce, NULL},
    {"nvl", 2, 2, bind_coalesce_fn, fn_coalesce, NULL},
    {"concat", 1, FN_ANY_ARGS, bind_concat_fn, fn_concat, NULL},
    {"trim", 1, 1, bind_to_string_fn, fn_trim, NULL},
    {"ltrim", 1, 1, bind_to_string_fn, fn_ltrim, NULL},
    {"rtrim", 1, 1, bind_to_string_fn, fn_rtrim, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};

static const SqlFuncDef *const families[] = {
    core_funcs, sql_funcs_string, sql_funcs_math, sql_funcs_date,
    sql_funcs_cond, sql_funcs_coll, sql_funcs_misc, sql_funcs_regex,
};

static const SqlFuncDef *find_function(const char *name)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const SqlFuncDef *d = families[f]; d->name; d++)
            if (strcmp(d->name, name) == 0)
                return d;
    return NULL;
}

bool sql_function_volatile(const char *name)
{
    return name && strcmp(name, "rand") == 0;
}

bool sql_function_exists(const char *name)
{
    return find_function(name) != NULL;
}

int sql_function_names(const char ***names, int *n, CombArena *a)
{
    int count = 0, k = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const SqlFuncDef *d = families[f]; d->name; d++)
            count++;
    if (!(*names = comb_arena_alloc(a, (size_t)(count + 1) * sizeof **names)))
        return COMB_ENOMEM;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const SqlFuncDef *d = families[f]; d->name; d++)
            (*names)[k++] = d->name;
    *n = count;
    return COMB_OK;
}

int sql_bind_function(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **args, int n_args, BoundExpr **out,
                      CombErr *err)
{
    const SqlFuncDef *def;
    SqlFnBind f;
    BoundExpr *b;
    bool found;
    int rc;
    (void)sc;
    if (sql_agg_exists(e->name))
        return sql_err_at(err, COMB_ESEMANTIC, 10128, e->pos,
                          "Not yet supported place for UDAF '%s'", e->name);
    if (sql_udtf_exists(e->name))
        return sql_err_at(err, COMB_ESEMANTIC, 10081, e->pos,
                          "UDTF's are not supported outside the SELECT clause, "
                          "nor nested in expressions");
    if (strcmp(e->name, "if") == 0) {
        if (n_args != 3)
            return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                              "Arguments length mismatch for function 'if'");
        return sql_bind_case(c, &args[0], &args[1], 1, args[2], e->pos, out, err);
    }
    if (strcmp(e->name, "current_date") == 0 ||
        strcmp(e->name, "current_timestamp") == 0)
        return bind_now(c, e, n_args, out, err);
    if (strcmp(e->name, "current_user") == 0 ||
        strcmp(e->name, "current_database") == 0)
        return bind_session_string(c, e, n_args, out, err);
    if (!(b = sql_bx_new(c, BX_FUNC, COMB_T_NULL, e->pos)))
        return comb_err_nomem(err);
    b->fname = e->name;
    b->args = args;
    b->n_args = n_args;
    if ((rc = sql_bind_complex_function(c, b, &found, err)) || found) {
        *out = b;
        return rc;
    }
    if (!(def = find_function(e->name)))
        return sql_err_at(err, COMB_ESEMANTIC, 10011, e->pos,
                          "Invalid function '%s'", e->name);
    if (n_args < def->min_args || n_args > def->max_args || e->star_arg)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "Arguments length mismatch for function '%s'",
                          e->name);
    b->fname = def->name;
    b->fn = def->fn;
    *out = b;
    f = (SqlFnBind){c, e, b, out, def};
    return def->bind(&f, err);
}

/* ------------------------------------------------ helpers of the families */

/* Hive's ErrorMsg.getText of a parse-tree node: the text of its last
 * child, down to a leaf (so `f(a, b + 1)` is named by `1`). */
static const char *hive_node_text(const AstExpr *e)
{
    for (;;) {
        const AstExpr *next = NULL;
        switch (e->kind) {
        case AST_FUNC:
        case AST_IN:
            next = e->n_args ? e->args[e->n_args - 1] : NULL;
            if (!next)
                return e->name ? e->name : e->text;
            break;
        case AST_CASE:
            next = e->right ? e->right : e->n_args ? e->args[e->n_args - 1] : NULL;
            break;
        case AST_BINARY:
        case AST_LIKE:
        case AST_INDEX:
            next = e->right;
            break;
        case AST_BETWEEN:
            next = e->third;
            break;
        case AST_UNARY:
        case AST_IS_NULL:
        case AST_CAST:
            next = e->left;
            break;
        case AST_COLREF:
        case AST_FIELD:
            return e->name;
        default:
            return e->text;
        }
        if (!next)
            return e->text;
        e = next;
    }
}

int sql_fn_error(CombErr *err, int hive_code, const AstExpr *call, int argi,
                 const char *fmt, ...)
{
    static const char *const what[] = {"Wrong arguments",
                                       "Arguments length mismatch",
                                       "Argument type mismatch"};
    char reason[COMB_ERR_MSG_MAX];
    const AstExpr *at = argi >= 0 && argi < call->n_args ? call->args[argi] : NULL;
    const char *named = hive_node_text(at ? at : call);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return sql_err_at(err, COMB_ESEMANTIC, hive_code, at ? at->pos : call->pos,
                      "%s '%s': %s",
                      what[hive_code >= 10014 && hive_code <= 10016 ? hive_code - 10014 : 0],
                      named ? named : call->name, reason);
}

int sql_fn_arg_to(SqlFnBind *f, int i, const CombType *t, CombErr *err)
{
    return sql_bind_convert(f->c, f->b->args[i], t, &f->b->args[i], err);
}

int sql_fn_arg_kind(SqlFnBind *f, int i, CombTypeKind k, CombErr *err)
{
    return sql_bind_convert_kind(f->c, f->b->args[i], k, &f->b->args[i], err);
}

bool sql_fn_is_numeric_group(CombTypeKind k)
{
    return sql_is_number(k);
}

bool sql_fn_is_string_group(CombTypeKind k)
{
    return sql_is_string(k);
}

bool sql_fn_is_date_group(CombTypeKind k)
{
    return k == COMB_T_DATE || k == COMB_T_TIMESTAMP;
}

void sql_fn_copy_nulls(CombVector *o, const CombBatch *in, const CombVector *x)
{
    copy_nulls(o, in, x);
}

void sql_fn_nulls_of_args(const BoundExpr *e, const CombBatch *in)
{
    CombVector *o = e->out;
    bool any = false;
    for (int k = 0; k < e->n_args; k++)
        any |= e->args[k]->out->has_nulls;
    o->has_nulls = any;
    if (!any)
        return;
    FOR_LIVE(in, i, row) {
        bool null = false;
        for (int k = 0; k < e->n_args && !null; k++)
            null = comb_vec_is_null(e->args[k]->out, row);
        o->nulls[row] = null;
    }
}

int sql_utf8_len(const unsigned char *s, size_t n)
{
    int len = s[0] < 0x80 ? 1 : s[0] < 0xC0 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
    if ((size_t)len > n)
        return 1;
    for (int k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 1;
    return len;
}

int64_t sql_utf8_count(CombStr s)
{
    int64_t n = 0;
    for (uint32_t k = 0; k < s.len; k++)
        n += ((unsigned char)s.ptr[k] & 0xC0) != 0x80;
    return n;
}

/* java.util.Random: seed scrambled with 0x5DEECE66D, 48-bit LCG. */
void sql_jrand_seed(SqlJavaRandom *r, int64_t seed)
{
    r->seed = ((uint64_t)seed ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
}

int32_t sql_jrand_next(SqlJavaRandom *r, int bits)
{
    r->seed = (r->seed * 0x5DEECE66DULL + 0xBULL) & ((1ULL << 48) - 1);
    return (int32_t)(r->seed >> (48 - bits));
}

double sql_jrand_double(SqlJavaRandom *r)
{
    int64_t hi = sql_jrand_next(r, 26), lo = sql_jrand_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

const SqlFuncDef *sql_fn_def(const SqlFnBind *f)
{
    return f->def;
}

char *sql_fn_alloc(BoundExpr *e, size_t n, CombErr *err)
{
    char *p = comb_arena_alloc(e->scratch, n + 1);
    if (!p)
        comb_err_nomem(err);
    return p;
}

int sql_fn_eval_strict(BoundExpr *e, const CombBatch *in, CombErr *err,
                       SqlFnRow row_fn)
{
    CombVector *o = e->out;
    if (e->scratch)
        comb_arena_reset(e->scratch);
    sql_fn_nulls_of_args(e, in);
    FOR_LIVE(in, i, row) {
        bool null = false;
        int rc;
        if (o->has_nulls && o->nulls[row])
            continue;
        if ((rc = row_fn(e, row, &null, err)))
            return rc;
        if (null)
            sql_vec_mark(o, in, row, true);
    }
    return COMB_OK;
}

/* --------------------------------------------------- signature binding */

const char *sql_hive_category(CombTypeKind k)
{
    switch (k) {
    case COMB_T_NULL: return "VOID";
    case COMB_T_BOOLEAN: return "BOOLEAN";
    case COMB_T_TINYINT: return "BYTE";
    case COMB_T_SMALLINT: return "SHORT";
    case COMB_T_INT: return "INT";
    case COMB_T_BIGINT: return "LONG";
    case COMB_T_FLOAT: return "FLOAT";
    case COMB_T_DOUBLE: return "DOUBLE";
    case COMB_T_STRING: return "STRING";
    case COMB_T_VARCHAR: return "VARCHAR";
    case COMB_T_CHAR: return "CHAR";
    case COMB_T_DATE: return "DATE";
    case COMB_T_TIMESTAMP: return "TIMESTAMP";
    case COMB_T_BINARY: return "BINARY";
    case COMB_T_DECIMAL: return "DECIMAL";
    case COMB_T_LIST: return "LIST";
    case COMB_T_MAP: return "MAP";
    case COMB_T_STRUCT: return "STRUCT";
    default: return "UNION";
    }
}

static const char *const ordinals[] = {"1st", "2nd", "3rd", "4th", "5th",
                                       "6th", "7th", "8th", "9th"};

static const char *ordinal(int i)
{
    return i < 9 ? ordinals[i] : "nth";
}

/* Argument i converted by code k; Hive's checkArgGroups text otherwise. */
static int sig_arg(SqlFnBind *f, int i, char k, CombErr *err)
{
    BoundExpr *a = f->b->args[i];
    CombTypeKind t = a->type;
    const char *group = NULL;
    CombTypeKind to = COMB_T_NULL;
    switch (k) {
    case 's':
        if (comb_type_is_primitive(t))
            to = COMB_T_STRING;
        else
            group = "STRING_GROUP";
        break;
    case 'S':
        if (sql_is_string(t) || t == COMB_T_NULL)
            to = COMB_T_STRING;
        else
            group = "STRING_GROUP";
        break;
    case 'i':
    case 'l':
        if (sql_is_number(t) || t == COMB_T_NULL)
            to = k == 'i' ? COMB_T_INT : COMB_T_BIGINT;
        else
            group = "NUMERIC_GROUP";
        break;
    case 'I':
        if (t == COMB_T_NULL || (sql_int_rank(t) && sql_int_rank(t) <= 3))
            to = COMB_T_INT;
        else
            group = "INT";
        break;
    case 'd':
        if (sql_is_number(t) || sql_is_string(t) || t == COMB_T_NULL)
            to = COMB_T_DOUBLE;
        else
            group = "NUMERIC_GROUP";
        break;
    case 'x':
        if (t == COMB_T_BINARY || sql_is_string(t) || t == COMB_T_NULL)
            to = COMB_T_BINARY;
        else
            group = "BINARY";
        break;
    case 'b':
        if (t == COMB_T_BOOLEAN || t == COMB_T_NULL)
            to = COMB_T_BOOLEAN;
        else
            group = "BOOLEAN";
        break;
    default:
        return COMB_OK;
    }
    if (group)
        return sql_fn_error(err, 10016, f->call, i,
                            "%s only takes %s types as %s argument, got %s",
                            f->def->name, group, ordinal(i),
                            sql_hive_category(t));
    if (to == COMB_T_BINARY && sql_is_string(t))
        return sql_bind_cast(f->c, a, sql_kind_type(COMB_T_BINARY), true,
                             &f->b->args[i], err);
    return sql_fn_arg_kind(f, i, to, err);
}

static int sig_result(SqlFnBind *f, char r, CombErr *err)
{
    CombType *t;
    switch (r) {
    case 's': f->b->type = COMB_T_STRING; return COMB_OK;
    case 'i': f->b->type = COMB_T_INT; return COMB_OK;
    case 'l': f->b->type = COMB_T_BIGINT; return COMB_OK;
    case 'd': f->b->type = COMB_T_DOUBLE; return COMB_OK;
    case 'x': f->b->type = COMB_T_BINARY; return COMB_OK;
    case 'b': f->b->type = COMB_T_BOOLEAN; return COMB_OK;
    default:
        t = comb_type_new(f->c->arena, r == 'a' ? COMB_T_LIST : COMB_T_MAP);
        if (!t || comb_type_add_field(f->c->arena, t, NULL,
                                      (CombType *)sql_kind_type(COMB_T_STRING)) ||
            (r == 'm' && comb_type_add_field(f->c->arena, t, NULL,
                                             (CombType *)sql_kind_type(COMB_T_STRING))))
            return comb_err_nomem(err);
        sql_bx_set_type(f->b, t);
        return COMB_OK;
    }
}

int sql_fn_bind_sig(SqlFnBind *f, CombErr *err)
{
    const char *sig = f->def->sig, *args = sig + 2;
    size_t n = strlen(args);
    int rc;
    for (int i = 0; i < f->b->n_args; i++)
        if ((rc = sig_arg(f, i, args[(size_t)i < n ? (size_t)i : n - 1], err)))
            return rc;
    return sig_result(f, sig[0], err);
}
