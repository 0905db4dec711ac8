/*
 * func_string.c - Hive's string functions: concat_ws (GenericUDFConcatWS),
 * substr/substring (UDFSubstr: positions in Java chars, 1-based, negative
 * from the end), instr and locate (GenericUDFUtils.findText: byte
 * offsets, as Hive's), lpad/rpad (GenericUDFBasePad), repeat, reverse,
 * translate, initcap (WordUtils.capitalizeFully), ascii (the first byte,
 * signed), chr, space, character_length/char_length, octet_length,
 * replace (String.replace), elt, field, find_in_set, levenshtein, soundex
 * (commons-codec), substring_index, md5, sha1/sha, sha2, crc32, base64,
 * unbase64, hex, unhex, format_number (DecimalFormat, HALF_EVEN) and
 * printf (java.util.Formatter's common conversions).  Regular
 * expressions are in func_regex.c.
 */
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/base64.h"
#include "common/decimal.h"
#include "sql/func/func_int.h"
#include "sql/func/unicase.h"
#include "sql/func/value.h"

/* Java chars (UTF-16 units) of a UTF-8 character of `bytes` bytes. */
static int java_units(int bytes)
{
    return bytes == 4 ? 2 : 1;
}

/* Byte offset of Java char index `units` in s (the end if beyond). */
static uint32_t unit_offset(CombStr s, int64_t units)
{
    uint32_t at = 0;
    while (at < s.len && units > 0) {
        int n = sql_utf8_len((const unsigned char *)s.ptr + at, s.len - at);
        units -= java_units(n);
        at += (uint32_t)n;
    }
    return at;
}

static int64_t java_length(CombStr s)
{
    int64_t n = 0;
    for (uint32_t at = 0; at < s.len;) {
        int k = sql_utf8_len((const unsigned char *)s.ptr + at, s.len - at);
        n += java_units(k);
        at += (uint32_t)k;
    }
    return n;
}

/* ------------------------------------------------------------- concat_ws */

static int concat_ws(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    comb_arena_reset(e->scratch);
    o->has_nulls = e->args[0]->out->has_nulls;
    FOR_LIVE(in, i, row) {
        CombStr sep;
        bool first = true;
        char *p;
        if (ARG_NULL(0)) {
            o->nulls[row] = 1;
            continue;
        }
        if (o->has_nulls)
            o->nulls[row] = 0;
        sep = ARG_S(0);
        b.len = 0;
        for (int k = 1; k < e->n_args; k++) {
            const CombVector *v = e->args[k]->out;
            if (comb_vec_is_null(v, row))
                continue;
            if (v->kind != COMB_T_LIST) {
                if (!first)
                    comb_buf_append(&b, sep.ptr, sep.len);
                comb_buf_append(&b, v->str[row].ptr, v->str[row].len);
                first = false;
                continue;
            }
            for (uint32_t j = 0; j < v->len[row]; j++) {
                const CombVector *el = &v->children[0];
                int at = (int)(v->off[row] + j);
                if (comb_vec_is_null(el, at))
                    continue;
                if (!first)
                    comb_buf_append(&b, sep.ptr, sep.len);
                comb_buf_append(&b, el->str[at].ptr, el->str[at].len);
                first = false;
            }
        }
        if (!(p = sql_fn_alloc(e, b.len, err))) {
            rc = COMB_ENOMEM;
            break;
        }
        if (b.len)
            memcpy(p, b.data, b.len);
        sql_fn_set_str(e, row, p, b.len);
    }
    comb_buf_free(&b);
    return rc;
}

/* Every argument a string or an array of strings (GenericUDFConcatWS). */
static int bind_concat_ws(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    for (int i = 0; i < b->n_args; i++) {
        const BoundExpr *a = b->args[i];
        bool list = a->type == COMB_T_LIST && sql_is_string(a->ctype->children[0]->kind);
        int rc;
        if (!(sql_is_string(a->type) || a->type == COMB_T_NULL || (list && i > 0)))
            return sql_fn_error(err, 10016, f->call, i,
                                "Argument %d of function CONCAT_WS must be "
                                "\"string or array<string>\", but \"%s\" was "
                                "found.", i + 1, sql_bx_type_text(f->c, a));
        if (!list && (rc = sql_fn_arg_kind(f, i, COMB_T_STRING, err)))
            return rc;
    }
    b->type = COMB_T_STRING;
    return COMB_OK;
}

/* ---------------------------------------------------------------- substr */

/* UDFSubstr.makeIndex over Java chars (bytes for BINARY). */
SQL_STRICT_FN(fn_substr)
{
    CombStr s = ARG_S(0);
    bool bytes = e->type == COMB_T_BINARY;
    int64_t pos = ARG_I(1), len = e->n_args > 2 ? ARG_I(2) : INT32_MAX;
    int64_t n = bytes ? s.len : java_length(s), start, end;
    uint32_t from, to;
    (void)null;
    (void)err;
    sql_fn_set_str(e, row, s.ptr, 0);
    if (len <= 0 || llabs(pos) > n)
        return COMB_OK;
    start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
    end = n - start < len ? n : start + len;
    from = bytes ? (uint32_t)start : unit_offset(s, start);
    to = bytes ? (uint32_t)end : unit_offset(s, end);
    sql_fn_set_str(e, row, s.ptr + from, to - from);
    return COMB_OK;
}

static int bind_substr(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    int rc;
    for (int i = 1; i < b->n_args; i++)
        if (!(b->args[i]->type == COMB_T_NULL ||
              (sql_int_rank(b->args[i]->type) && sql_int_rank(b->args[i]->type) <= 3)))
            return sql_fn_error(err, 10014, f->call, i,
                                "No matching method for class org.apache.hadoop."
                                "hive.ql.udf.UDFSubstr with (%s, %s%s%s). "
                                "Possible choices: _FUNC_(binary, int)  "
                                "_FUNC_(binary, int, int)  _FUNC_(string, int)  "
                                "_FUNC_(string, int, int)  ",
                                sql_bx_type_text(f->c, b->args[0]),
                                sql_bx_type_text(f->c, b->args[1]),
                                b->n_args > 2 ? ", " : "",
                                b->n_args > 2 ? sql_bx_type_text(f->c, b->args[2]) : "");
    for (int i = 1; i < b->n_args; i++)
        if ((rc = sql_fn_arg_kind(f, i, COMB_T_INT, err)))
            return rc;
    if (b->args[0]->type == COMB_T_BINARY) {
        b->type = COMB_T_BINARY;
        return COMB_OK;
    }
    b->type = COMB_T_STRING;
    return sql_fn_arg_kind(f, 0, COMB_T_STRING, err);
}

/* ---------------------------------------------------------- instr, locate */

/* GenericUDFUtils.findText: the byte offset of sub in s from byte start,
 * -1 if none.  Hive reads sub's first byte unconditionally, so an empty
 * sub fails there (BufferUnderflowException); comb says so. */
static int find_text(CombStr s, CombStr sub, int64_t start, int64_t *at,
                     CombErr *err)
{
    if (sub.len == 0)
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "an empty search string fails in Hive "
                             "(java.nio.BufferUnderflowException)");
    *at = -1;
    if (start < 0)
        return COMB_OK;
    for (int64_t k = start; k + sub.len <= s.len; k++)
        if (memcmp(s.ptr + k, sub.ptr, sub.len) == 0) {
            *at = k;
            return COMB_OK;
        }
    return COMB_OK;
}

SQL_STRICT_FN(fn_instr)
{
    int64_t at = -1;
    int rc = find_text(ARG_S(0), ARG_S(1), 0, &at, err);
    (void)null;
    e->out->i64[row] = at + 1;
    return rc;
}

SQL_STRICT_FN(fn_locate)
{
    int64_t start = e->n_args > 2 ? ARG_I(2) : 1, at = -1;
    int rc;
    (void)null;
    if (start > (int64_t)ARG_S(1).len + 1) {
        e->out->i64[row] = 0;
        return COMB_OK;
    }
    rc = find_text(ARG_S(1), ARG_S(0), start - 1, &at, err);
    e->out->i64[row] = at + 1;
    return rc;
}

/* -------------------------------------------------------------- padding */

/* GenericUDFBasePad: text, an INT/SHORT/BYTE length, text. */
static int bind_pad(SqlFnBind *f, CombErr *err)
{
    CombTypeKind t = f->b->args[1]->type;
    if (t != COMB_T_NULL && !(sql_int_rank(t) && sql_int_rank(t) <= 3))
        return sql_fn_error(err, 10016, f->call, 2,
                            "%s only takes INT/SHORT/BYTE types as 2-ths "
                            "argument, got %s", f->def->name,
                            sql_hive_category(t));
    return sql_fn_bind_sig(f, err);
}

/* lpad/rpad: the string cut or padded to len characters; NULL for a
 * negative len or an empty pad. */
static int pad_row(BoundExpr *e, int row, bool *null, CombErr *err, bool left)
{
    CombStr s = ARG_S(0), pad = ARG_S(2);
    int64_t len = ARG_I(1), have = sql_utf8_count(s), need;
    size_t cap;
    char *p, *w;
    if (len < 0 || pad.len == 0) {
        *null = true;
        return COMB_OK;
    }
    if (len <= have) {
        uint32_t cut = unit_offset(s, len);
        sql_fn_set_str(e, row, s.ptr, cut);
        return COMB_OK;
    }
    need = len - have;
    cap = (size_t)s.len + (size_t)need * 4;
    if (cap > (size_t)1 << 31)
        return comb_err(err, COMB_EINVALID, "padded string too long");
    if (!(p = w = sql_fn_alloc(e, cap, err)))
        return COMB_ENOMEM;
    if (!left) {
        memcpy(w, s.ptr, s.len);
        w += s.len;
    }
    for (int64_t k = 0, at = 0; k < need; k++) {
        int n = sql_utf8_len((const unsigned char *)pad.ptr + at, pad.len - at);
        memcpy(w, pad.ptr + at, (size_t)n);
        w += n;
        at += n;
        if (at >= pad.len)
            at = 0;
    }
    if (left) {
        memcpy(w, s.ptr, s.len);
        w += s.len;
    }
    sql_fn_set_str(e, row, p, (size_t)(w - p));
    return COMB_OK;
}

SQL_STRICT_FN(fn_lpad)
{
    return pad_row(e, row, null, err, true);
}

SQL_STRICT_FN(fn_rpad)
{
    return pad_row(e, row, null, err, false);
}

SQL_STRICT_FN(fn_repeat)
{
    CombStr s = ARG_S(0);
    int64_t n = ARG_I(1);
    char *p;
    (void)null;
    if (n <= 0 || s.len == 0) {
        sql_fn_set_str(e, row, "", 0);
        return COMB_OK;
    }
    if ((uint64_t)n * s.len > (1u << 31))
        return comb_err(err, COMB_EINVALID, "repeat: result too long");
    if (!(p = sql_fn_alloc(e, (size_t)n * s.len, err)))
        return COMB_ENOMEM;
    for (int64_t k = 0; k < n; k++)
        memcpy(p + k * s.len, s.ptr, s.len);
    sql_fn_set_str(e, row, p, (size_t)n * s.len);
    return COMB_OK;
}

SQL_STRICT_FN(fn_space)
{
    int64_t n = ARG_I(0);
    char *p;
    (void)null;
    if (n <= 0) {
        sql_fn_set_str(e, row, "", 0);
        return COMB_OK;
    }
    if (n > (1 << 30))
        return comb_err(err, COMB_EINVALID, "space: result too long");
    if (!(p = sql_fn_alloc(e, (size_t)n, err)))
        return COMB_ENOMEM;
    memset(p, ' ', (size_t)n);
    sql_fn_set_str(e, row, p, (size_t)n);
    return COMB_OK;
}

/* Characters in reverse order (a character's bytes stay in order). */
SQL_STRICT_FN(fn_reverse)
{
    CombStr s = ARG_S(0);
    char *p;
    (void)null;
    if (!(p = sql_fn_alloc(e, s.len, err)))
        return COMB_ENOMEM;
    for (uint32_t at = 0; at < s.len;) {
        int n = sql_utf8_len((const unsigned char *)s.ptr + at, s.len - at);
        memcpy(p + s.len - at - (uint32_t)n, s.ptr + at, (size_t)n);
        at += (uint32_t)n;
    }
    sql_fn_set_str(e, row, p, s.len);
    return COMB_OK;
}

/* --------------------------------------------------------------- translate */

/* The code point of the character at s[at] (bytes in *n). */
static uint32_t code_point(CombStr s, uint32_t at, int *n)
{
    const unsigned char *u = (const unsigned char *)s.ptr + at;
    *n = sql_utf8_len(u, s.len - at);
    switch (*n) {
    case 2: return ((uint32_t)(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
    case 3: return ((uint32_t)(u[0] & 0x0F) << 12) | ((uint32_t)(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
    case 4: return ((uint32_t)(u[0] & 0x07) << 18) | ((uint32_t)(u[1] & 0x3F) << 12) |
                   ((uint32_t)(u[2] & 0x3F) << 6) | (u[3] & 0x3F);
    default: return u[0];
    }
}

/* GenericUDFTranslate: each character of from maps to the character at
 * its place in to (the first place, if it occurs twice), or is deleted
 * when to is shorter. */
SQL_STRICT_FN(fn_translate)
{
    CombStr s = ARG_S(0), from = ARG_S(1), to = ARG_S(2);
    char *p, *w;
    (void)null;
    if (!(p = w = sql_fn_alloc(e, (size_t)s.len * 4, err)))
        return COMB_ENOMEM;
    for (uint32_t at = 0; at < s.len;) {
        int n, fn, tn;
        uint32_t c = code_point(s, at, &n), fa = 0, ta = 0;
        bool mapped = false, deleted = false;
        while (fa < from.len) {
            uint32_t fc = code_point(from, fa, &fn);
            bool have_to = ta < to.len;
            if (have_to)
                code_point(to, ta, &tn);
            if (fc == c) {
                mapped = have_to;
                deleted = !have_to;
                break;
            }
            fa += (uint32_t)fn;
            if (have_to)
                ta += (uint32_t)tn;
        }
        if (mapped) {
            memcpy(w, to.ptr + ta, (size_t)tn);
            w += tn;
        } else if (!deleted) {
            memcpy(w, s.ptr + at, (size_t)n);
            w += n;
        }
        at += (uint32_t)n;
    }
    sql_fn_set_str(e, row, p, (size_t)(w - p));
    return COMB_OK;
}

/* ----------------------------------------------------------------- initcap */

static bool java_whitespace(uint32_t c)
{
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F) ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x2006) ||
           (c >= 0x2008 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x205F || c == 0x3000;
}

/* WordUtils.capitalizeFully: every word lower-cased, then its first
 * character upper-cased (title case); words are split at white space. */
SQL_STRICT_FN(fn_initcap)
{
    CombStr s = ARG_S(0), low;
    CombBuf b = COMB_BUF_INIT;
    bool start = true;
    char *p;
    (void)null;
    if (sql_utf8_case(s, false, e->scratch, &low))
        return comb_err_nomem(err);
    for (uint32_t at = 0; at < low.len;) {
        int n;
        uint32_t c = code_point(low, at, &n);
        if (start && !java_whitespace(c)) {
            CombStr up;
            if (sql_utf8_case((CombStr){low.ptr + at, (uint32_t)n}, true,
                              e->scratch, &up)) {
                comb_buf_free(&b);
                return comb_err_nomem(err);
            }
            comb_buf_append(&b, up.ptr, up.len);
        } else {
            comb_buf_append(&b, low.ptr + at, (size_t)n);
        }
        start = java_whitespace(c);
        at += (uint32_t)n;
    }
    if (!(p = sql_fn_alloc(e, b.len, err))) {
        comb_buf_free(&b);
        return COMB_ENOMEM;
    }
    if (b.len)
        memcpy(p, b.data, b.len);
    sql_fn_set_str(e, row, p, b.len);
    comb_buf_free(&b);
    return COMB_OK;
}

/* ------------------------------------------------------- ascii, chr, len */

/* UDFAscii: the first byte as a Java byte (signed), 0 for ''. */
SQL_STRICT_FN(fn_ascii)
{
    CombStr s = ARG_S(0);
    (void)null;
    (void)err;
    e->out->i64[row] = s.len ? (int8_t)s.ptr[0] : 0;
    return COMB_OK;
}

/* UDFChr: the character of code n % 256 (U+0000..U+00FF); '' for n < 0. */
SQL_STRICT_FN(fn_chr)
{
    int64_t n = (int64_t)ARG_D(0);
    char *p;
    (void)null;
    if (n < 0) {
        sql_fn_set_str(e, row, "", 0);
        return COMB_OK;
    }
    n %= 256;
    if (!(p = sql_fn_alloc(e, 2, err)))
        return COMB_ENOMEM;
    if (n < 0x80) {
        p[0] = (char)n;
        sql_fn_set_str(e, row, p, 1);
    } else {
        p[0] = (char)(0xC0 | (n >> 6));
        p[1] = (char)(0x80 | (n & 0x3F));
        sql_fn_set_str(e, row, p, 2);
    }
    return COMB_OK;
}

/* character_length: characters (bytes of a BINARY); octet_length: bytes. */
SQL_STRICT_FN(fn_char_length)
{
    (void)null;
    (void)err;
    e->out->i64[row] = e->args[0]->type == COMB_T_BINARY ? ARG_S(0).len
                                                         : sql_utf8_count(ARG_S(0));
    return COMB_OK;
}

SQL_STRICT_FN(fn_octet_length)
{
    (void)null;
    (void)err;
    e->out->i64[row] = ARG_S(0).len;
    return COMB_OK;
}

static int bind_text_or_binary_len(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    b->type = COMB_T_INT;
    if (b->args[0]->type == COMB_T_BINARY)
        return COMB_OK;
    if (!(sql_is_string(b->args[0]->type) || b->args[0]->type == COMB_T_NULL))
        return sql_fn_error(err, 10016, f->call, 0,
                            "%s only takes STRING_GROUP or BINARY types as 1st "
                            "argument, got %s", f->def->name,
                            sql_bx_type_text(f->c, b->args[0]));
    return sql_fn_arg_kind(f, 0, COMB_T_STRING, err);
}

/* ----------------------------------------------------------------- replace */

/* Java's String.replace: every occurrence, left to right; an empty
 * search string inserts the replacement around every character. */
SQL_STRICT_FN(fn_replace)
{
    CombStr s = ARG_S(0), what = ARG_S(1), with = ARG_S(2);
    CombBuf b = COMB_BUF_INIT;
    char *p;
    (void)null;
    if (what.len == 0) {
        comb_buf_append(&b, with.ptr, with.len);
        for (uint32_t at = 0; at < s.len;) {
            int n = sql_utf8_len((const unsigned char *)s.ptr + at, s.len - at);
            comb_buf_append(&b, s.ptr + at, (size_t)n);
            comb_buf_append(&b, with.ptr, with.len);
            at += (uint32_t)n;
        }
    } else {
        for (uint32_t at = 0; at < s.len;) {
            if (at + what.len <= s.len && memcmp(s.ptr + at, what.ptr, what.len) == 0) {
                comb_buf_append(&b, with.ptr, with.len);
                at += what.len;
            } else {
                comb_buf_append(&b, s.ptr + at, 1);
                at++;
            }
        }
    }
    if (!(p = sql_fn_alloc(e, b.len, err))) {
        comb_buf_free(&b);
        return COMB_ENOMEM;
    }
    if (b.len)
        memcpy(p, b.data, b.len);
    sql_fn_set_str(e, row, p, b.len);
    comb_buf_free(&b);
    return COMB_OK;
}

/* ---------------------------------------------------------- elt, field, ... */

/* elt(n, s1, s2, ...): s_n, NULL when n is out of range or NULL. */
static int fn_elt(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    (void)err;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        int64_t n = ARG_NULL(0) ? 0 : ARG_I(0);
        bool null = n < 1 || n >= e->n_args || ARG_NULL(n);
        sql_vec_mark(o, in, row, null);
        if (!null)
            o->str[row] = ARG_S(n);
    }
    return COMB_OK;
}

/* field(v, v1, v2, ...): the first i with v = v_i, 0 when none or v is
 * NULL (NULL entries match nothing). */
static int fn_field(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    (void)err;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        int64_t at = 0;
        for (int k = 1; k < e->n_args && !ARG_NULL(0); k++)
            if (!ARG_NULL(k) &&
                sql_value_cmp(e->args[0]->out, row, e->args[k]->out, row, true) == 0) {
                at = k;
                break;
            }
        o->i64[row] = at;
    }
    return COMB_OK;
}

/* Every argument as a string, for field's comparisons. */
static int bind_field(SqlFnBind *f, CombErr *err)
{
    f->b->type = COMB_T_INT;
    for (int i = 0; i < f->b->n_args; i++) {
        int rc;
        if (!comb_type_is_primitive(f->b->args[i]->type))
            return sql_fn_error(err, 10016, f->call, i,
                                "FIELD cannot take non-primitive types, got %s",
                                sql_bx_type_text(f->c, f->b->args[i]));
        if ((rc = sql_fn_arg_kind(f, i, COMB_T_STRING, err)))
            return rc;
    }
    return COMB_OK;
}

/* find_in_set(s, "a,b,c"): the 1-based place of s in the list, 0 when
 * absent or when s holds a comma. */
SQL_STRICT_FN(fn_find_in_set)
{
    CombStr s = ARG_S(0), list = ARG_S(1);
    int64_t k = 1;
    uint32_t at = 0;
    (void)null;
    (void)err;
    e->out->i64[row] = 0;
    if (memchr(s.ptr, ',', s.len))
        return COMB_OK;
    for (;;) {
        const char *comma = memchr(list.ptr + at, ',', list.len - at);
        uint32_t end = comma ? (uint32_t)(comma - list.ptr) : list.len;
        if (end - at == s.len && memcmp(list.ptr + at, s.ptr, s.len) == 0) {
            e->out->i64[row] = k;
            return COMB_OK;
        }
        if (!comma)
            return COMB_OK;
        at = end + 1;
        k++;
    }
}

/* Java chars of s as code units (surrogate pairs for non-BMP). */
static int to_units(CombStr s, uint32_t **out, int64_t *n, CombArena *a)
{
    uint32_t *u = comb_arena_alloc(a, ((size_t)s.len + 1) * sizeof *u);
    int64_t k = 0;
    if (!u)
        return COMB_ENOMEM;
    for (uint32_t at = 0; at < s.len;) {
        int len;
        uint32_t c = code_point(s, at, &len);
        if (c >= 0x10000) {
            u[k++] = 0xD800 + ((c - 0x10000) >> 10);
            u[k++] = 0xDC00 + ((c - 0x10000) & 0x3FF);
        } else {
            u[k++] = c;
        }
        at += (uint32_t)len;
    }
    *out = u;
    *n = k;
    return COMB_OK;
}

/* StringUtils.getLevenshteinDistance over Java chars. */
static int levenshtein(CombStr x, CombStr y, int64_t *out, CombArena *a)
{
    uint32_t *u, *v;
    int64_t nu, nv, *prev, *cur;
    if (to_units(x, &u, &nu, a) || to_units(y, &v, &nv, a) ||
        !(prev = comb_arena_alloc(a, (size_t)(nv + 1) * sizeof *prev)) ||
        !(cur = comb_arena_alloc(a, (size_t)(nv + 1) * sizeof *cur)))
        return COMB_ENOMEM;
    for (int64_t j = 0; j <= nv; j++)
        prev[j] = j;
    for (int64_t i = 1; i <= nu; i++) {
        int64_t *t;
        cur[0] = i;
        for (int64_t j = 1; j <= nv; j++) {
            int64_t d = prev[j - 1] + (u[i - 1] != v[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
        }
        t = prev;
        prev = cur;
        cur = t;
    }
    *out = prev[nv];
    return COMB_OK;
}

SQL_STRICT_FN(fn_levenshtein)
{
    CombArena a;
    int rc;
    (void)null;
    comb_arena_init(&a, 1024);
    rc = levenshtein(ARG_S(0), ARG_S(1), &e->out->i64[row], &a);
    comb_arena_free(&a);
    return rc ? comb_err_nomem(err) : COMB_OK;
}

/* commons-codec's Soundex (American): letters only, H and W do not
 * separate equal codes, vowels do. */
SQL_STRICT_FN(fn_soundex)
{
    static const char codes[] = "01230120022455012623010202";
    CombStr s = ARG_S(0);
    char out[4] = {'0', '0', '0', '0'}, *p, last;
    int n = 0;
    uint32_t at = 0;
    (void)null;
    for (uint32_t k = 0; k < s.len; k++)
        if ((unsigned char)s.ptr[k] >= 0x80)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.lang.IllegalArgumentException: The "
                                 "character is not mapped: %.*s (soundex maps "
                                 "the letters A to Z only)",
                                 sql_utf8_len((const unsigned char *)s.ptr + k, s.len - k),
                                 s.ptr + k);
    while (at < s.len && !((s.ptr[at] | 0x20) >= 'a' && (s.ptr[at] | 0x20) <= 'z'))
        at++;
    if (at >= s.len) {
        sql_fn_set_str(e, row, "", 0);
        return COMB_OK;
    }
    out[n++] = (char)(s.ptr[at] & ~0x20);
    last = codes[(s.ptr[at] | 0x20) - 'a'];
    for (at++; at < s.len && n < 4; at++) {
        char ch = (char)(s.ptr[at] | 0x20), code;
        if (ch < 'a' || ch > 'z')
            continue;
        code = codes[ch - 'a'];
        if (ch == 'h' || ch == 'w')
            continue;
        if (code != '0' && code != last)
            out[n++] = code;
        last = code;
    }
    if (!(p = sql_fn_alloc(e, 4, err)))
        return COMB_ENOMEM;
    memcpy(p, out, 4);
    sql_fn_set_str(e, row, p, 4);
    return COMB_OK;
}

/* substring_index(s, delim, count): before the count-th delim from the
 * left (count > 0) or after the count-th from the right. */
SQL_STRICT_FN(fn_substring_index)
{
    CombStr s = ARG_S(0), d = ARG_S(1);
    int64_t count = ARG_I(2);
    (void)null;
    (void)err;
    sql_fn_set_str(e, row, s.ptr, 0);
    if (count == 0 || d.len == 0 || s.len == 0)
        return COMB_OK;
    if (count > 0) {
        for (uint32_t at = 0; at + d.len <= s.len; at++)
            if (memcmp(s.ptr + at, d.ptr, d.len) == 0 && --count == 0) {
                sql_fn_set_str(e, row, s.ptr, at);
                return COMB_OK;
            }
    } else {
        for (int64_t at = (int64_t)s.len - d.len; at >= 0; at--)
            if (memcmp(s.ptr + at, d.ptr, d.len) == 0 && ++count == 0) {
                sql_fn_set_str(e, row, s.ptr + at + d.len,
                               s.len - (uint32_t)at - d.len);
                return COMB_OK;
            }
    }
    sql_fn_set_str(e, row, s.ptr, s.len);
    return COMB_OK;
}

/* ----------------------------------------------------- digests and codes */

static int hex_digest(BoundExpr *e, int row, const uint8_t *d, size_t n,
                      CombErr *err)
{
    static const char digits[] = "0123456789abcdef";
    char *p = sql_fn_alloc(e, n * 2, err);
    if (!p)
        return COMB_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        p[2 * k] = digits[d[k] >> 4];
        p[2 * k + 1] = digits[d[k] & 15];
    }
    sql_fn_set_str(e, row, p, n * 2);
    return COMB_OK;
}

/* The digest of a string's or binary's bytes in hex, through OpenSSL (the
 * project's one library for cryptography). */
static int digest_hex(BoundExpr *e, int row, const EVP_MD *md, CombStr s,
                      CombErr *err)
{
    uint8_t d[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(s.ptr, s.len, d, &n, md, NULL))
        return COMB_INTERNAL(err, "digest failed");
    return hex_digest(e, row, d, n, err);
}

SQL_STRICT_FN(fn_md5)
{
    (void)null;
    return digest_hex(e, row, EVP_md5(), ARG_S(0), err);
}

SQL_STRICT_FN(fn_sha1)
{
    (void)null;
    return digest_hex(e, row, EVP_sha1(), ARG_S(0), err);
}

/* GenericUDFSha2: 224, 256 (or 0), 384, 512 bits; NULL for others. */
SQL_STRICT_FN(fn_sha2)
{
    const EVP_MD *md;
    switch (ARG_I(1)) {
    case 224: md = EVP_sha224(); break;
    case 0:
    case 256: md = EVP_sha256(); break;
    case 384: md = EVP_sha384(); break;
    case 512: md = EVP_sha512(); break;
    default:
        *null = true;
        return COMB_OK;
    }
    return digest_hex(e, row, md, ARG_S(0), err);
}

SQL_STRICT_FN(fn_crc32)
{
    (void)null;
    (void)err;
    e->out->i64[row] = (int64_t)crc32(0L, (const Bytef *)ARG_S(0).ptr, ARG_S(0).len);
    return COMB_OK;
}

SQL_STRICT_FN(fn_base64)
{
    size_t n = comb_base64_encoded_len(ARG_S(0).len);
    char *p = sql_fn_alloc(e, n, err);
    (void)null;
    if (!p)
        return COMB_ENOMEM;
    comb_base64_encode((const unsigned char *)ARG_S(0).ptr, ARG_S(0).len, p);
    sql_fn_set_str(e, row, p, n);
    return COMB_OK;
}

/* commons-codec Base64.decodeBase64: characters outside the alphabet
 * are skipped, decoding stops at '='. */
SQL_STRICT_FN(fn_unbase64)
{
    CombStr s = ARG_S(0);
    char *p = sql_fn_alloc(e, s.len, err);
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    (void)null;
    if (!p)
        return COMB_ENOMEM;
    for (uint32_t k = 0; k < s.len && s.ptr[k] != '='; k++) {
        char ch = s.ptr[k];
        int v = ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
                : ch >= '0' && ch <= '9' ? ch - '0' + 52 : ch == '+' || ch == '-' ? 62
                : ch == '/' || ch == '_' ? 63 : -1;
        if (v < 0)
            continue;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            p[n++] = (char)((acc >> bits) & 0xFF);
        }
    }
    sql_fn_set_str(e, row, p, n);
    return COMB_OK;
}

/* hex(bigint): Long.toHexString, upper case; hex(string | binary): each
 * byte as two digits. */
SQL_STRICT_FN(fn_hex)
{
    static const char digits[] = "0123456789ABCDEF";
    char *p;
    (void)null;
    if (e->args[0]->type == COMB_T_BIGINT) {
        char buf[17];
        int n = snprintf(buf, sizeof buf, "%llX", (unsigned long long)ARG_I(0));
        if (!(p = sql_fn_alloc(e, (size_t)n, err)))
            return COMB_ENOMEM;
        memcpy(p, buf, (size_t)n);
        sql_fn_set_str(e, row, p, (size_t)n);
        return COMB_OK;
    }
    if (!(p = sql_fn_alloc(e, (size_t)ARG_S(0).len * 2, err)))
        return COMB_ENOMEM;
    for (uint32_t k = 0; k < ARG_S(0).len; k++) {
        unsigned char c = (unsigned char)ARG_S(0).ptr[k];
        p[2 * k] = digits[c >> 4];
        p[2 * k + 1] = digits[c & 15];
    }
    sql_fn_set_str(e, row, p, (size_t)ARG_S(0).len * 2);
    return COMB_OK;
}

static int bind_hex(SqlFnBind *f, CombErr *err)
{
    CombTypeKind t = f->b->args[0]->type;
    f->b->type = COMB_T_STRING;
    if (sql_int_rank(t) || t == COMB_T_NULL)
        return sql_fn_arg_kind(f, 0, COMB_T_BIGINT, err);
    if (t == COMB_T_BINARY)
        return COMB_OK;
    if (sql_is_string(t))
        return sql_fn_arg_kind(f, 0, COMB_T_STRING, err);
    return sql_fn_error(err, 10014, f->call, 0,
                        "No matching method for class org.apache.hadoop.hive."
                        "ql.udf.UDFHex with (%s). Possible choices: "
                        "_FUNC_(bigint)  _FUNC_(binary)  _FUNC_(string)  ",
                        sql_bx_type_text(f->c, f->b->args[0]));
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f'
           ? (c | 0x20) - 'a' + 10 : -1;
}

/* UDFUnhex: pairs of hex digits (an odd count starts with one digit);
 * NULL when a character is no hex digit. */
SQL_STRICT_FN(fn_unhex)
{
    CombStr s = ARG_S(0);
    char *p = sql_fn_alloc(e, s.len / 2 + 1, err);
    size_t n = 0;
    uint32_t at = 0;
    if (!p)
        return COMB_ENOMEM;
    if (s.len % 2) {
        int v = hex_value(s.ptr[0]);
        if (v < 0) {
            *null = true;
            return COMB_OK;
        }
        p[n++] = (char)v;
        at = 1;
    }
    for (; at < s.len; at += 2) {
        int hi = hex_value(s.ptr[at]), lo = hex_value(s.ptr[at + 1]);
        if (hi < 0 || lo < 0) {
            *null = true;
            return COMB_OK;
        }
        p[n++] = (char)(hi * 16 + lo);
    }
    sql_fn_set_str(e, row, p, n);
    return COMB_OK;
}

/* ------------------------------------------------------ number formatting */

/* The decimal digits of |d| as Java's Double.toString gives them:
 * digits[0..nd) and the exponent such that the value is 0.d1d2... *
 * 10^exp. */
static int java_digits(double d, char *digits, int *exp)
{
    char buf[64], *m;
    int nd = 0, e10 = 0, point = -1;
    sql_format_double(fabs(d), buf, sizeof buf);
    if ((m = strchr(buf, 'E')))
        e10 = atoi(m + 1);
    for (char *c = buf; *c && *c != 'E'; c++) {
        if (*c == '.')
            point = nd;
        else
            digits[nd++] = *c;
    }
    if (point < 0)
        point = nd;
    /* strip leading zeros (0.001 is "0.001") */
    while (nd > 1 && digits[0] == '0') {
        memmove(digits, digits + 1, (size_t)--nd);
        point--;
    }
    *exp = point + e10;
    return nd;
}

/* digits (value 0.digits * 10^exp, positive) rounded to `frac` fraction
 * digits, into an integer part and fraction text; half_even picks Java's
 * DecimalFormat rounding (a tie is decided by the double's exact value),
 * else HALF_UP as Formatter's %f. */
static void round_digits(double d, bool exact, const char *digits, int nd,
                         int exp, int frac, bool half_even, CombBuf *ip,
                         CombBuf *fp)
{
    int keep = exp + frac, n = 0;
    char dig[400];
    if (keep < 0) {
        n = 1;
        dig[0] = '0';
        keep = 0;
        exp = 1 - frac;
        nd = 0;
    }
    memset(dig, '0', sizeof dig);
    if (nd)
        memcpy(dig + 1, digits, (size_t)(nd < 390 ? nd : 390));
    dig[0] = '0';
    n = keep + 1;
    /* dig[0] is a carry digit; rounding at position n */
    if (nd > keep) {
        bool up;
        char next = dig[n];
        bool rest = false;
        for (int k = n + 1; k <= nd; k++)
            rest |= dig[k] != '0';
        if (!half_even)
            up = next >= '5';
        else if (next != '5' || rest)
            up = next > '5' || (next == '5' && rest);
        else if (exact)
            up = (dig[n - 1] - '0') % 2;
        else {
            /* an exact tie in the shortest digits: the binary value decides */
            char exact[64];
            double scaled = fabs(d) * pow(10, frac);
            snprintf(exact, sizeof exact, "%.3f", scaled - floor(scaled));
            up = strcmp(exact, "0.500") > 0 ||
                 (strcmp(exact, "0.500") == 0 && ((dig[n - 1] - '0') % 2));
        }
        if (up) {
            int k = n - 1;
            while (dig[k] == '9')
                dig[k--] = '0';
            dig[k]++;
        }
    }
    /* integer part: dig[0 .. exp], fraction: the next frac digits */
    {
        int istart = 0, iend = exp + 1;
        if (iend < 1)
            iend = 1;
        while (istart < iend - 1 && dig[istart] == '0')
            istart++;
        if (exp < 0) {
            comb_buf_append(ip, dig[0] == '1' ? "1" : "0", 1);
        } else {
            comb_buf_append(ip, dig + istart, (size_t)(iend - istart));
        }
        for (int k = 0; k < frac; k++) {
            int at = exp + 1 + k;
            comb_buf_append_byte(fp, at >= 1 && at <= 398 ? dig[at] : '0');
        }
    }
}

/* DecimalFormat("#,##0.000"): thousands grouped with ',', frac digits,
 * HALF_EVEN. */
static int group_thousands(BoundExpr *e, int row, bool neg, const CombBuf *ip,
                           const CombBuf *fp, int frac, CombErr *err)
{
    size_t n = ip->len, len = (neg ? 1 : 0) + n + (n - 1) / 3 + (frac ? 1 + (size_t)frac : 0);
    char *p = sql_fn_alloc(e, len, err), *w = p;
    bool zero = true;
    if (!p)
        return COMB_ENOMEM;
    for (size_t k = 0; k < ip->len; k++)
        zero &= ip->data[k] == '0';
    for (size_t k = 0; k < fp->len; k++)
        zero &= fp->data[k] == '0';
    /* DecimalFormat keeps the sign of a negative value rounded to zero */
    (void)zero;
    if (neg)
        *w++ = '-';
    for (size_t k = 0; k < n; k++) {
        *w++ = (char)ip->data[k];
        if ((n - 1 - k) % 3 == 0 && k + 1 < n)
            *w++ = ',';
    }
    if (frac) {
        *w++ = '.';
        memcpy(w, fp->data, (size_t)frac);
        w += frac;
    }
    sql_fn_set_str(e, row, p, (size_t)(w - p));
    return COMB_OK;
}

SQL_STRICT_FN(fn_format_number)
{
    const CombVector *x = e->args[0]->out;
    int64_t frac = ARG_I(1);
    CombBuf ip = COMB_BUF_INIT, fp = COMB_BUF_INIT;
    char digits[400];
    int nd, exp, rc;
    bool neg;
    double d;
    (void)null;
    if (frac < 0)
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "Argument 2 of function FORMAT_NUMBER must be >= 0, "
                             "but %lld was found.", (long long)frac);
    if (frac > 340)
        frac = 340;
    if (x->dec) {
        char buf[64];
        int scale = x->type ? (int)x->type->scale : 0;
        comb_i128 u = x->dec[row] < 0 ? -x->dec[row] : x->dec[row];
        neg = x->dec[row] < 0;
        comb_dec_format(u, scale, buf, sizeof buf);
        d = comb_dec_to_double(u, scale);
        nd = 0;
        exp = 0;
        for (char *c = buf; *c; c++) {
            if (*c == '.')
                exp = nd;
            else
                digits[nd++] = *c;
        }
        if (!strchr(buf, '.'))
            exp = nd;
        while (nd > 1 && digits[0] == '0') {
            memmove(digits, digits + 1, (size_t)--nd);
            exp--;
        }
        /* decimals round on their exact digits: no binary tie-break */
        d = 0;
    } else {
        d = x->f64 ? x->f64[row] : (double)x->i64[row];
        if (isnan(d) || isinf(d)) {
            const char *t = isnan(d) ? "NaN" : d < 0 ? "-\xE2\x88\x9E" : "\xE2\x88\x9E";
            sql_fn_set_str(e, row, t, strlen(t));
            return COMB_OK;
        }
        neg = signbit(d);
        if (x->i64) {
            char buf[32];
            nd = snprintf(buf, sizeof buf, "%llu",
                          (unsigned long long)(x->i64[row] < 0 ? -(uint64_t)x->i64[row]
                                                               : (uint64_t)x->i64[row]));
            memcpy(digits, buf, (size_t)nd);
            exp = nd;
            neg = x->i64[row] < 0;
            d = 0;
        } else {
            nd = java_digits(d, digits, &exp);
        }
    }
    round_digits(d, d == 0, digits, nd, exp, (int)frac, true, &ip, &fp);
    rc = group_thousands(e, row, neg, &ip, &fp, (int)frac, err);
    comb_buf_free(&ip);
    comb_buf_free(&fp);
    return rc;
}

static int bind_format_number(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    CombTypeKind t = b->args[0]->type;
    b->type = COMB_T_STRING;
    if (!(sql_is_number(t) || t == COMB_T_NULL))
        return sql_fn_error(err, 10016, f->call, 0,
                            "Argument 1 of function FORMAT_NUMBER must be "
                            "\"tinyint\" or \"smallint\" or \"int\" or \"bigint\" "
                            "or \"double\" or \"float\" or \"decimal\", but \"%s\" "
                            "was found.", sql_bx_type_text(f->c, b->args[0]));
    if (!sql_int_rank(b->args[1]->type) && b->args[1]->type != COMB_T_NULL)
        return sql_fn_error(err, 10016, f->call, 1,
                            "Argument 2 of function FORMAT_NUMBER must be "
                            "\"tinyint\" or \"smallint\" or \"int\" or \"bigint\", "
                            "but \"%s\" was found. (A DecimalFormat pattern is "
                            "not supported by comb.)", sql_bx_type_text(f->c, b->args[1]));
    if (t == COMB_T_FLOAT || t == COMB_T_NULL) {
        int rc = sql_fn_arg_kind(f, 0, COMB_T_DOUBLE, err);
        if (rc)
            return rc;
    } else if (sql_int_rank(t)) {
        int rc = sql_fn_arg_kind(f, 0, COMB_T_BIGINT, err);
        if (rc)
            return rc;
    }
    return sql_fn_arg_kind(f, 1, COMB_T_BIGINT, err);
}

/* ------------------------------------------------------------------ printf */

/* One conversion of java.util.Formatter: %[flags][width][.prec]conv with
 * flags - 0 + space , and conversions d s S f e E x X o c b B % n. */
typedef struct Spec {
    bool left, zero, plus, space, comma;
    int width, prec;
    char conv;
} Spec;

static void pad_out(CombBuf *b, const Spec *sp, const char *text, size_t n)
{
    size_t w = sp->width > 0 ? (size_t)sp->width : 0;
    size_t chars = (size_t)sql_utf8_count((CombStr){text, (uint32_t)n});
    if (!sp->left)
        for (size_t k = chars; k < w; k++)
            comb_buf_append_byte(b, ' ');
    comb_buf_append(b, text, n);
    if (sp->left)
        for (size_t k = chars; k < w; k++)
            comb_buf_append_byte(b, ' ');
}

/* A number's digits with sign, zero padding and grouping. */
static void number_out(CombBuf *b, const Spec *sp, bool neg, const char *digits,
                       size_t n)
{
    char sign = neg ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
    CombBuf t = COMB_BUF_INIT;
    const char *dot = memchr(digits, '.', n);
    size_t ilen = dot ? (size_t)(dot - digits) : n;
    if (sign)
        comb_buf_append_byte(&t, sign);
    if (sp->zero && sp->width > 0) {
        size_t total = (sign ? 1 : 0) + n + (sp->comma ? (ilen - 1) / 3 : 0);
        for (size_t k = total; k < (size_t)sp->width; k++)
            comb_buf_append_byte(&t, '0');
    }
    for (size_t k = 0; k < ilen; k++) {
        comb_buf_append_byte(&t, digits[k]);
        if (sp->comma && (ilen - 1 - k) % 3 == 0 && k + 1 < ilen)
            comb_buf_append_byte(&t, ',');
    }
    comb_buf_append(&t, digits + ilen, n - ilen);
    pad_out(b, sp, (const char *)t.data, t.len);
    comb_buf_free(&t);
}

/* Hive's value of argument v at row as Java's String.valueOf. */
static int value_text(const CombVector *v, int row, CombBuf *b)
{
    if (comb_vec_is_null(v, row)) {
        comb_buf_append(b, "null", 4);
        return COMB_OK;
    }
    if (v->kind == COMB_T_BOOLEAN) {
        comb_buf_printf(b, "%s", v->i64[row] ? "true" : "false");
        return COMB_OK;
    }
    return sql_format_value(v, row, b);
}

static int printf_one(const Spec *sp, const CombVector *v, int row, CombBuf *b,
                      CombErr *err)
{
    CombBuf t = COMB_BUF_INIT;
    char buf[64];
    bool null = comb_vec_is_null(v, row);
    switch (sp->conv) {
    case 's':
    case 'S':
        value_text(v, row, &t);
        if (sp->prec >= 0 && t.len > (size_t)sp->prec)
            t.len = unit_offset((CombStr){(const char *)t.data, (uint32_t)t.len}, sp->prec);
        if (sp->conv == 'S') {
            CombStr up;
            CombArena a;
            comb_arena_init(&a, 256);
            sql_utf8_case((CombStr){(const char *)t.data, (uint32_t)t.len}, true, &a, &up);
            pad_out(b, sp, up.ptr, up.len);
            comb_arena_free(&a);
        } else {
            pad_out(b, sp, (const char *)t.data, t.len);
        }
        break;
    case 'b':
    case 'B':
        snprintf(buf, sizeof buf, "%s", null ? "false"
                 : v->kind == COMB_T_BOOLEAN ? (v->i64[row] ? "true" : "false") : "true");
        if (sp->conv == 'B')
            for (char *c = buf; *c; c++)
                *c = (char)(*c & ~0x20);
        pad_out(b, sp, buf, strlen(buf));
        break;
    case 'd':
    case 'x':
    case 'X':
    case 'o':
    case 'c':
        if (null) {
            pad_out(b, sp, "null", 4);
            break;
        }
        if (!v->i64 || v->kind == COMB_T_BOOLEAN || v->nanos || v->kind == COMB_T_DATE)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.util.IllegalFormatConversionException: "
                                 "%c != %s", sp->conv,
                                 v->f64 ? "java.lang.Double" : v->dec
                                 ? "java.math.BigDecimal" : "java.lang.String");
        if (sp->conv == 'd') {
            int64_t x = v->i64[row];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)(x < 0 ? -(uint64_t)x : (uint64_t)x));
            number_out(b, sp, x < 0, buf, strlen(buf));
        } else if (sp->conv == 'c') {
            CombBuf cb = COMB_BUF_INIT;
            uint32_t c = (uint32_t)v->i64[row];
            char u[4];
            int n = c < 0x80 ? (u[0] = (char)c, 1)
                    : c < 0x800 ? (u[0] = (char)(0xC0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3F)), 2)
                    : (u[0] = (char)(0xE0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3F)),
                       u[2] = (char)(0x80 | (c & 0x3F)), 3);
            comb_buf_append(&cb, u, (size_t)n);
            pad_out(b, sp, (const char *)cb.data, cb.len);
            comb_buf_free(&cb);
        } else {
            /* Java prints the two's complement of the value's own width */
            uint64_t x = (uint64_t)v->i64[row];
            if (v->kind == COMB_T_INT)
                x &= 0xFFFFFFFFu;
            else if (v->kind == COMB_T_SMALLINT)
                x &= 0xFFFFu;
            else if (v->kind == COMB_T_TINYINT)
                x &= 0xFFu;
            snprintf(buf, sizeof buf, sp->conv == 'o' ? "%llo" : sp->conv == 'x' ? "%llx" : "%llX",
                     (unsigned long long)x);
            number_out(b, sp, false, buf, strlen(buf));
        }
        break;
    case 'f':
    case 'e':
    case 'E': {
        double d;
        if (null) {
            pad_out(b, sp, "null", 4);
            break;
        }
        if (!v->f64 && !v->dec)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.util.IllegalFormatConversionException: "
                                 "%c != %s", sp->conv,
                                 v->str ? "java.lang.String" : "java.lang.Integer");
        d = v->f64 ? v->f64[row] : comb_dec_to_double(v->dec[row], (int)v->type->scale);
        if (isnan(d) || isinf(d)) {
            const char *s = isnan(d) ? "NaN" : d < 0 ? "-Infinity" : sp->plus ? "+Infinity" : "Infinity";
            pad_out(b, sp, s, strlen(s));
            break;
        }
        if (sp->conv == 'f') {
            char digits[400];
            int exp, nd = java_digits(d, digits, &exp);
            CombBuf ip = COMB_BUF_INIT, fp = COMB_BUF_INIT;
            int prec = sp->prec < 0 ? 6 : sp->prec;
            round_digits(d, false, digits, nd, exp, prec, false, &ip, &fp);
            if (prec) {
                comb_buf_append_byte(&ip, '.');
                comb_buf_append(&ip, fp.data, fp.len);
            }
            number_out(b, sp, signbit(d), (const char *)ip.data, ip.len);
            comb_buf_free(&ip);
            comb_buf_free(&fp);
        } else {
            snprintf(buf, sizeof buf, sp->conv == 'e' ? "%.*e" : "%.*E",
                     sp->prec < 0 ? 6 : sp->prec, fabs(d));
            number_out(b, sp, signbit(d), buf, strlen(buf));
        }
        break;
    }
    default:
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "java.util.UnknownFormatConversionException: "
                             "Conversion = '%c'", sp->conv);
    }
    comb_buf_free(&t);
    return COMB_OK;
}

static int printf_row(BoundExpr *e, int row, CombBuf *b, CombErr *err)
{
    CombStr f = ARG_S(0);
    int next = 1;
    for (uint32_t at = 0; at < f.len; at++) {
        Spec sp = {.prec = -1};
        int rc;
        if (f.ptr[at] != '%') {
            comb_buf_append_byte(b, f.ptr[at]);
            continue;
        }
        at++;
        for (; at < f.len && strchr("-0+ ,#", f.ptr[at]); at++) {
            sp.left |= f.ptr[at] == '-';
            sp.zero |= f.ptr[at] == '0';
            sp.plus |= f.ptr[at] == '+';
            sp.space |= f.ptr[at] == ' ';
            sp.comma |= f.ptr[at] == ',';
        }
        for (; at < f.len && f.ptr[at] >= '0' && f.ptr[at] <= '9'; at++)
            sp.width = sp.width * 10 + (f.ptr[at] - '0');
        if (at < f.len && f.ptr[at] == '.') {
            sp.prec = 0;
            for (at++; at < f.len && f.ptr[at] >= '0' && f.ptr[at] <= '9'; at++)
                sp.prec = sp.prec * 10 + (f.ptr[at] - '0');
        }
        if (at >= f.len)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.util.UnknownFormatConversionException: "
                                 "Conversion = '%%'");
        sp.conv = f.ptr[at];
        if (sp.conv == '%') {
            pad_out(b, &sp, "%", 1);
            continue;
        }
        if (sp.conv == 'n') {
            comb_buf_append_byte(b, '\n');
            continue;
        }
        if (next >= e->n_args)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.util.MissingFormatArgumentException: "
                                 "Format specifier '%%%c'", sp.conv);
        if ((rc = printf_one(&sp, e->args[next++]->out, row, b, err)))
            return rc;
    }
    return COMB_OK;
}

/* printf(format, ...): NULL only for a NULL format; NULL arguments print
 * "null" as Java's. */
static int fn_printf(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    CombVector *o = e->out;
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    comb_arena_reset(e->scratch);
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        char *p;
        bool null = ARG_NULL(0);
        sql_vec_mark(o, in, row, null);
        if (null)
            continue;
        b.len = 0;
        if ((rc = printf_row(e, row, &b, err)))
            break;
        if (!(p = sql_fn_alloc(e, b.len, err))) {
            rc = COMB_ENOMEM;
            break;
        }
        if (b.len)
            memcpy(p, b.data, b.len);
        sql_fn_set_str(e, row, p, b.len);
    }
    comb_buf_free(&b);
    return rc;
}

static int bind_printf(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    b->type = COMB_T_STRING;
    if (!sql_is_string(b->args[0]->type) && b->args[0]->type != COMB_T_NULL)
        return sql_fn_error(err, 10016, f->call, 0,
                            "Argument 1 of function PRINTF must be \"string\", "
                            "but \"%s\" was found.", sql_bx_type_text(f->c, b->args[0]));
    for (int i = 1; i < b->n_args; i++)
        if (!comb_type_is_primitive(b->args[i]->type))
            return sql_fn_error(err, 10016, f->call, i,
                                "Argument %d of function PRINTF must be "
                                "\"primitive\", but \"%s\" was found.", i + 1,
                                sql_bx_type_text(f->c, b->args[i]));
    return sql_fn_arg_kind(f, 0, COMB_T_STRING, err);
}

/* md5/sha1/crc32/base64 of a string's or binary's bytes. */
static int bind_bytes_fn(SqlFnBind *f, CombErr *err)
{
    const char *sig = sql_fn_def(f)->sig;
    CombTypeKind t = f->b->args[0]->type;
    f->b->type = sig[0] == 'l' ? COMB_T_BIGINT : COMB_T_STRING;
    if (t == COMB_T_BINARY)
        return COMB_OK;
    if (sql_is_string(t) || t == COMB_T_NULL)
        return sql_fn_arg_kind(f, 0, COMB_T_STRING, err);
    return sql_fn_error(err, 10014, f->call, 0,
                        "No matching method for %s with (%s). Possible choices: "
                        "_FUNC_(binary)  _FUNC_(string)  ", f->def->name,
                        sql_bx_type_text(f->c, f->b->args[0]));
}

static int bind_sha2(SqlFnBind *f, CombErr *err)
{
    BoundExpr *bits = f->b->args[1];
    int rc;
    if ((rc = bind_bytes_fn(f, err)))
        return rc;
    if (bits->kind != BX_CONST || !sql_int_rank(bits->type))
        return sql_fn_error(err, 10016, f->call, 1,
                            "sha2 only takes constant integer as 2nd argument");
    return sql_fn_arg_kind(f, 1, COMB_T_BIGINT, err);
}

const SqlFuncDef sql_funcs_string[] = {
    {"concat_ws", 2, FN_ANY_ARGS, bind_concat_ws, concat_ws, NULL},
    {"substr", 2, 3, bind_substr, fn_substr, NULL},
    {"substring", 2, 3, bind_substr, fn_substr, NULL},
    {"instr", 2, 2, sql_fn_bind_sig, fn_instr, "i:ss"},
    {"locate", 2, 3, sql_fn_bind_sig, fn_locate, "i:ssi"},
    {"lpad", 3, 3, bind_pad, fn_lpad, "s:sis"},
    {"rpad", 3, 3, bind_pad, fn_rpad, "s:sis"},
    {"repeat", 2, 2, sql_fn_bind_sig, fn_repeat, "s:si"},
    {"space", 1, 1, sql_fn_bind_sig, fn_space, "s:i"},
    {"reverse", 1, 1, sql_fn_bind_sig, fn_reverse, "s:s"},
    {"translate", 3, 3, sql_fn_bind_sig, fn_translate, "s:sss"},
    {"initcap", 1, 1, sql_fn_bind_sig, fn_initcap, "s:s"},
    {"ascii", 1, 1, sql_fn_bind_sig, fn_ascii, "i:s"},
    {"chr", 1, 1, sql_fn_bind_sig, fn_chr, "s:d"},
    {"character_length", 1, 1, bind_text_or_binary_len, fn_char_length, NULL},
    {"char_length", 1, 1, bind_text_or_binary_len, fn_char_length, NULL},
    {"octet_length", 1, 1, bind_text_or_binary_len, fn_octet_length, NULL},
    {"replace", 3, 3, sql_fn_bind_sig, fn_replace, "s:sss"},
    {"elt", 2, FN_ANY_ARGS, sql_fn_bind_sig, fn_elt, "s:Is"},
    {"field", 2, FN_ANY_ARGS, bind_field, fn_field, NULL},
    {"find_in_set", 2, 2, sql_fn_bind_sig, fn_find_in_set, "i:ss"},
    {"levenshtein", 2, 2, sql_fn_bind_sig, fn_levenshtein, "i:SS"},
    {"soundex", 1, 1, sql_fn_bind_sig, fn_soundex, "s:S"},
    {"substring_index", 3, 3, sql_fn_bind_sig, fn_substring_index, "s:ssi"},
    {"md5", 1, 1, bind_bytes_fn, fn_md5, "s:x"},
    {"sha1", 1, 1, bind_bytes_fn, fn_sha1, "s:x"},
    {"sha", 1, 1, bind_bytes_fn, fn_sha1, "s:x"},
    {"sha2", 2, 2, bind_sha2, fn_sha2, "s:x"},
    {"crc32", 1, 1, bind_bytes_fn, fn_crc32, "l:x"},
    {"base64", 1, 1, sql_fn_bind_sig, fn_base64, "s:x"},
    {"unbase64", 1, 1, sql_fn_bind_sig, fn_unbase64, "x:s"},
    {"hex", 1, 1, bind_hex, fn_hex, NULL},
    {"unhex", 1, 1, sql_fn_bind_sig, fn_unhex, "x:s"},
    {"format_number", 2, 2, bind_format_number, fn_format_number, NULL},
    {"printf", 1, FN_ANY_ARGS, bind_printf, fn_printf, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};
