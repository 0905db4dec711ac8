/*
 * value.c - value formatting (Java's shortest round-trip doubles, Hive's
 * DECIMAL, DATE and TIMESTAMP text, SerDeUtils.getJSONString for complex
 * values), comparison and copying of values of any type.
 */
#include "sql/func/value.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/numfmt.h"

size_t sql_format_double(double d, char *buf, size_t n)
{
    return comb_format_double(d, buf, n);
}

size_t sql_format_float(float f, char *buf, size_t n)
{
    return comb_format_float(f, buf, n);
}

static int vec_scale(const CombVector *v)
{
    return v->type ? (int)v->type->scale : 0;
}

size_t sql_format_scalar(CombTypeKind kind, const CombVector *v, int row,
                         char *buf, size_t n)
{
    size_t len;
    switch (kind) {
    case COMB_T_BOOLEAN:
        len = (size_t)snprintf(buf, n, "%s", v->i64[row] ? "true" : "false");
        break;
    case COMB_T_FLOAT:
        len = sql_format_float((float)v->f64[row], buf, n);
        break;
    case COMB_T_DOUBLE:
        len = sql_format_double(v->f64[row], buf, n);
        break;
    case COMB_T_DECIMAL:
        len = comb_dec_format(v->dec[row], vec_scale(v), buf, n);
        break;
    case COMB_T_DATE:
        len = comb_date_format(v->i64[row], buf, n);
        break;
    case COMB_T_TIMESTAMP:
        len = comb_timestamp_format(v->i64[row], v->nanos[row], buf, n);
        break;
    default:
        len = (size_t)snprintf(buf, n, "%lld", (long long)v->i64[row]);
        break;
    }
    return len < n ? len : n - 1;
}

/* ------------------------------------------------------------ printing */

/* Bytes of a BINARY as Hive's Text decoding turns them into characters:
 * valid UTF-8 as is, each byte of an invalid sequence as U+FFFD. */
static int append_utf8_lenient(CombBuf *out, CombStr s)
{
    static const char repl[] = "\xEF\xBF\xBD";
    uint32_t i = 0;
    while (i < s.len) {
        unsigned char c = (unsigned char)s.ptr[i];
        uint32_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2
                     : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        bool ok = n > 0 && i + n <= s.len && !(n == 2 && c < 0xC2);
        for (uint32_t k = 1; ok && k < n; k++)
            ok = ((unsigned char)s.ptr[i + k] & 0xC0) == 0x80;
        if (ok && n == 3) {
            unsigned char c1 = (unsigned char)s.ptr[i + 1];
            ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
        }
        if (ok && n == 4) {
            unsigned char c1 = (unsigned char)s.ptr[i + 1];
            ok = !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90) &&
                 c <= 0xF4;
        }
        if (ok ? comb_buf_append(out, s.ptr + i, n)
               : comb_buf_append(out, repl, 3))
            return COMB_ENOMEM;
        i += ok ? n : 1;
    }
    return COMB_OK;
}

/* A string inside JSON, quoted and escaped as SerDeUtils.escapeString. */
static int append_json_string(CombBuf *out, CombStr s)
{
    int rc = comb_buf_append_byte(out, '"');
    for (uint32_t i = 0; i < s.len && !rc; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\"
                          : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                          : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t" : NULL;
        if (esc)
            rc = comb_buf_append_str(out, esc);
        else if (c < ' ')
            rc = comb_buf_printf(out, "\\u%04x", c);
        else
            rc = comb_buf_append_byte(out, c);
    }
    return rc ? rc : comb_buf_append_byte(out, '"');
}

/* A DECIMAL inside JSON: HiveDecimal.toString, trailing zeros dropped. */
static int append_plain_decimal(CombBuf *out, comb_i128 u, int scale)
{
    char buf[64];
    while (scale > 0 && u % 10 == 0) {
        u /= 10;
        scale--;
    }
    comb_dec_format(u, scale, buf, sizeof buf);
    return comb_buf_append_str(out, buf);
}

static int format_json(const CombVector *v, int row, CombBuf *out);

/* The parts of a complex value, separated by ',' (and ':' for maps). */
static int format_parts(const CombVector *v, int row, CombBuf *out)
{
    int rc = COMB_OK;
    switch (v->kind) {
    case COMB_T_LIST:
        for (uint32_t k = 0; k < v->len[row] && !rc; k++) {
            if (k && (rc = comb_buf_append_byte(out, ',')))
                break;
            rc = format_json(&v->children[0], (int)(v->off[row] + k), out);
        }
        return rc;
    case COMB_T_MAP:
        for (uint32_t k = 0; k < v->len[row] && !rc; k++) {
            int at = (int)(v->off[row] + k);
            if ((k && (rc = comb_buf_append_byte(out, ','))) ||
                (rc = format_json(&v->children[0], at, out)) ||
                (rc = comb_buf_append_byte(out, ':')))
                break;
            rc = format_json(&v->children[1], at, out);
        }
        return rc;
    case COMB_T_STRUCT:
        for (int k = 0; k < v->n_children && !rc; k++) {
            if ((k && (rc = comb_buf_append_byte(out, ','))) ||
                (rc = comb_buf_printf(out, "\"%s\":", v->type->field_names[k])))
                break;
            rc = format_json(&v->children[k], row, out);
        }
        return rc;
    default: /* union */
        if ((rc = comb_buf_printf(out, "%d:", v->tag[row])))
            return rc;
        return format_json(&v->children[v->tag[row]], row, out);
    }
}

static int format_complex(const CombVector *v, int row, CombBuf *out)
{
    bool list = v->kind == COMB_T_LIST;
    int rc = comb_buf_append_byte(out, list ? '[' : '{');
    if (!rc)
        rc = format_parts(v, row, out);
    return rc ? rc : comb_buf_append_byte(out, list ? ']' : '}');
}

/* One value as SerDeUtils.buildJSONString writes it (nested: "null"). */
static int format_json(const CombVector *v, int row, CombBuf *out)
{
    char buf[64];
    if (comb_vec_is_null(v, row) || v->kind == COMB_T_NULL)
        return comb_buf_append_str(out, "null");
    switch (v->kind) {
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
        return append_json_string(out, v->str[row]);
    case COMB_T_BINARY:
        return append_utf8_lenient(out, v->str[row]);
    case COMB_T_DATE: case COMB_T_TIMESTAMP:
        sql_format_scalar(v->kind, v, row, buf, sizeof buf);
        return comb_buf_printf(out, "\"%s\"", buf);
    case COMB_T_DECIMAL:
        return append_plain_decimal(out, v->dec[row], vec_scale(v));
    default:
        if (!comb_type_is_primitive(v->kind))
            return format_complex(v, row, out);
        sql_format_scalar(v->kind, v, row, buf, sizeof buf);
        return comb_buf_append_str(out, buf);
    }
}

int sql_format_value(const CombVector *v, int row, CombBuf *out)
{
    char buf[64];
    if (comb_vec_is_null(v, row) || v->kind == COMB_T_NULL)
        return comb_buf_append_str(out, "NULL");
    if (v->kind == COMB_T_BINARY)
        return append_utf8_lenient(out, v->str[row]);
    if (comb_type_is_str(v->kind))
        return comb_buf_append(out, v->str[row].ptr, v->str[row].len);
    if (!comb_type_is_primitive(v->kind))
        return format_complex(v, row, out);
    sql_format_scalar(v->kind, v, row, buf, sizeof buf);
    return comb_buf_append_str(out, buf);
}

/* ---------------------------------------------------------- comparison */

int sql_double_cmp(double a, double b)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb)
        return na == nb ? 0 : na ? 1 : -1;
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    /* equal, or zeros of different sign */
    return signbit(a) == signbit(b) ? 0 : signbit(a) ? -1 : 1;
}

int sql_str_cmp(CombStr a, CombStr b)
{
    uint32_t m = a.len < b.len ? a.len : b.len;
    int c = m ? memcmp(a.ptr, b.ptr, m) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len;
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* NULLs inside complex values: equal to each other, else placed as asked. */
static bool nested_nulls(const CombVector *x, int xr, const CombVector *y,
                         int yr, bool first, int *c)
{
    bool nx = comb_vec_is_null(x, xr), ny = comb_vec_is_null(y, yr);
    if (!nx && !ny)
        return false;
    *c = nx == ny ? 0 : (nx == first) ? -1 : 1;
    return true;
}

static int cmp_nested(const CombVector *x, int xr, const CombVector *y, int yr,
                      bool first)
{
    int c;
    if (nested_nulls(x, xr, y, yr, first, &c))
        return c;
    return sql_value_cmp(x, xr, y, yr, first);
}

/* Arrays and maps: part by part, then the shorter first. */
static int cmp_sequences(const CombVector *x, int xr, const CombVector *y,
                         int yr, bool first)
{
    uint32_t nx = x->len[xr], ny = y->len[yr];
    for (uint32_t k = 0; k < nx && k < ny; k++)
        for (int part = 0; part < x->n_children; part++) {
            int c = cmp_nested(&x->children[part], (int)(x->off[xr] + k),
                               &y->children[part], (int)(y->off[yr] + k), first);
            if (c)
                return c;
        }
    return nx < ny ? -1 : nx > ny;
}

int sql_value_cmp(const CombVector *x, int xr, const CombVector *y, int yr,
                  bool nested_nulls_first)
{
    switch (x->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return sql_double_cmp(x->f64[xr], y->f64[yr]);
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR:
    case COMB_T_BINARY:
        return sql_str_cmp(x->str[xr], y->str[yr]);
    case COMB_T_DECIMAL:
        return comb_dec_cmp(x->dec[xr], vec_scale(x), y->dec[yr], vec_scale(y));
    case COMB_T_TIMESTAMP:
        return x->i64[xr] != y->i64[yr] ? cmp_i64(x->i64[xr], y->i64[yr])
                                        : cmp_i64(x->nanos[xr], y->nanos[yr]);
    case COMB_T_LIST:
    case COMB_T_MAP:
        return cmp_sequences(x, xr, y, yr, nested_nulls_first);
    case COMB_T_STRUCT:
        for (int k = 0; k < x->n_children; k++) {
            int c = cmp_nested(&x->children[k], xr, &y->children[k], yr,
                               nested_nulls_first);
            if (c)
                return c;
        }
        return 0;
    case COMB_T_UNION:
        if (x->tag[xr] != y->tag[yr])
            return x->tag[xr] < y->tag[yr] ? -1 : 1;
        return cmp_nested(&x->children[x->tag[xr]], xr,
                          &y->children[y->tag[yr]], yr, nested_nulls_first);
    default:
        return cmp_i64(x->i64[xr], y->i64[yr]);
    }
}

const CombType *sql_kind_type(CombTypeKind kind)
{
#define KT(k) [k] = {.kind = k}
    static const CombType kinds[] = {
        KT(COMB_T_BOOLEAN), KT(COMB_T_TINYINT), KT(COMB_T_SMALLINT),
        KT(COMB_T_INT), KT(COMB_T_BIGINT), KT(COMB_T_FLOAT), KT(COMB_T_DOUBLE),
        KT(COMB_T_STRING), KT(COMB_T_BINARY), KT(COMB_T_TIMESTAMP),
        KT(COMB_T_DATE), KT(COMB_T_VARCHAR), KT(COMB_T_CHAR),
    };
    static const CombType void_type = {.kind = COMB_T_NULL};
#undef KT
    if (kind == COMB_T_NULL)
        return &void_type;
    if ((size_t)kind >= sizeof kinds / sizeof kinds[0] ||
        kind == COMB_T_DECIMAL || !comb_type_is_primitive(kind))
        return NULL;
    return &kinds[kind];
}

bool sql_type_orderable(const CombType *t)
{
    if (t->kind == COMB_T_MAP)
        return false;
    for (int k = 0; k < t->n_children; k++)
        if (!sql_type_orderable(t->children[k]))
            return false;
    return true;
}

/* --------------------------------------------------------------- copying */

int sql_fill_init(SqlVecFill *f, CombVector *v, CombArena *a)
{
    memset(f, 0, sizeof *f);
    f->v = v;
    if (v->n_children == 0)
        return COMB_OK;
    f->kids = comb_arena_calloc(a, (size_t)v->n_children * sizeof *f->kids);
    if (!f->kids)
        return COMB_ENOMEM;
    for (int k = 0; k < v->n_children; k++)
        if (sql_fill_init(&f->kids[k], &v->children[k], a))
            return COMB_ENOMEM;
    return COMB_OK;
}

void sql_fill_reset(SqlVecFill *f)
{
    f->used = 0;
    f->v->has_nulls = false;
    for (int k = 0; k < f->v->n_children; k++)
        sql_fill_reset(&f->kids[k]);
}

int sql_fill_reserve(SqlVecFill *f, int rows)
{
    CombVector *v = f->v;
    if (comb_vec_reserve(v, rows))
        return COMB_ENOMEM;
    /* a struct's or union's parts share its rows; list and map children
     * grow with their own count */
    if (v->kind == COMB_T_STRUCT || v->kind == COMB_T_UNION)
        for (int k = 0; k < v->n_children; k++)
            if (sql_fill_reserve(&f->kids[k], rows))
                return COMB_ENOMEM;
    return COMB_OK;
}

void sql_fill_null(SqlVecFill *f, int drow)
{
    CombVector *v = f->v;
    if (!v->has_nulls) {
        memset(v->nulls, 0, (size_t)v->capacity);
        v->has_nulls = true;
    }
    v->nulls[drow] = 1;
    if (v->kind == COMB_T_LIST || v->kind == COMB_T_MAP) {
        v->off[drow] = (uint32_t)f->used;
        v->len[drow] = 0;
    }
}

/* Append the parts of array/map row srow to f's children. */
static int fill_sequence(SqlVecFill *f, int drow, const CombVector *src,
                         int srow)
{
    CombVector *v = f->v;
    uint32_t n = src->len[srow];
    for (int part = 0; part < v->n_children; part++) {
        SqlVecFill *kid = &f->kids[part];
        if (sql_fill_reserve(kid, f->used + (int)n))
            return COMB_ENOMEM;
        for (uint32_t k = 0; k < n; k++)
            if (sql_fill_copy(kid, f->used + (int)k, &src->children[part],
                              (int)(src->off[srow] + k)))
                return COMB_ENOMEM;
    }
    v->off[drow] = (uint32_t)f->used;
    v->len[drow] = n;
    f->used += (int)n;
    return COMB_OK;
}

int sql_fill_copy(SqlVecFill *f, int drow, const CombVector *src, int srow)
{
    CombVector *v = f->v;
    if (comb_vec_is_null(src, srow) || src->kind == COMB_T_NULL) {
        sql_fill_null(f, drow);
        return COMB_OK;
    }
    comb_vec_set_not_null(v, drow);
    switch (v->kind) {
    case COMB_T_LIST:
    case COMB_T_MAP:
        return fill_sequence(f, drow, src, srow);
    case COMB_T_STRUCT:
        for (int k = 0; k < v->n_children; k++)
            if (sql_fill_copy(&f->kids[k], drow, &src->children[k], srow))
                return COMB_ENOMEM;
        return COMB_OK;
    case COMB_T_UNION:
        v->tag[drow] = src->tag[srow];
        return sql_fill_copy(&f->kids[v->tag[drow]], drow,
                             &src->children[v->tag[drow]], srow);
    default:
        break;
    }
    if (v->i64)
        v->i64[drow] = src->i64[srow];
    if (v->nanos)
        v->nanos[drow] = src->nanos[srow];
    if (v->f64)
        v->f64[drow] = src->f64[srow];
    if (v->str)
        v->str[drow] = src->str[srow];
    if (v->dec)
        v->dec[drow] = src->dec[srow];
    return COMB_OK;
}

/* Index just past the UTF-8 character that starts at s[i]. */
static uint32_t next_char(CombStr s, uint32_t i)
{
    i++;
    while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* '_' is one character, not one byte ('日本' LIKE '__'), so the subject
 * advances a character at a time; literal pattern bytes match byte by
 * byte, which on character boundaries is a character match. */
bool sql_like_match(CombStr s, CombStr p)
{
    uint32_t si = 0, pi = 0, star_p = UINT32_MAX, star_s = 0;
    while (si < s.len) {
        if (pi < p.len && p.ptr[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < p.len) {
            bool esc = p.ptr[pi] == '\\' && pi + 1 < p.len;
            char pc = esc ? p.ptr[pi + 1] : p.ptr[pi];
            if (!esc && pc == '_') {
                pi++;
                si = next_char(s, si);
                continue;
            }
            if (pc == s.ptr[si]) {
                pi += esc ? 2 : 1;
                si++;
                continue;
            }
        }
        if (star_p == UINT32_MAX)
            return false;
        pi = star_p;
        star_s = next_char(s, star_s);
        si = star_s;
    }
    while (pi < p.len && p.ptr[pi] == '%')
        pi++;
    return pi == p.len;
}
