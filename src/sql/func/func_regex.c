/*
 * func_regex.c - Hive's regular-expression functions, which use
 * java.util.regex: RLIKE/REGEXP (Matcher.find: a match anywhere),
 * regexp_replace (Matcher.replaceAll, Java's $n / ${name} replacement
 * syntax), regexp_extract (group n of the first match, '' when there is
 * none), split (String.split(regex, -1)) and str_to_map (String.split of
 * the pairs, then of each pair in two).
 *
 * Matching is Debian's PCRE2 (8-bit, UTF mode, invalid UTF-8 tolerated);
 * a Java pattern is translated first (sql_regex_translate) where the two
 * syntaxes differ: \uXXXX escapes, Java's POSIX and java* property names
 * (\p{Alpha}, \p{javaLowerCase}), \p{IsX} / \p{InX} prefixes; Java's
 * class intersection (&&) has no PCRE2 form and is refused.  What still
 * differs is listed in docs/sql.md: '.' and '$' see \r, \n and \r\n as
 * line ends (PCRE2_NEWLINE_ANYCRLF; Java also \u0085, \u2028, \u2029),
 * and (?i) folds Unicode letters as well (Java folds ASCII unless (?u)).
 * Compiled patterns live in the statement arena (PCRE2 allocates through
 * it), cached per node for the last pattern seen.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "sql/func/func_int.h"
#include "sql/func/value.h"

/* -------------------------------------------------------- translation */

/* Java's POSIX character classes (ASCII) as PCRE2 bracket items. */
static const struct {
    const char *java, *pcre;
} posix_classes[] = {
    {"Lower", "a-z"}, {"Upper", "A-Z"}, {"ASCII", "\\x00-\\x7F"},
    {"Alpha", "a-zA-Z"}, {"Digit", "0-9"}, {"Alnum", "a-zA-Z0-9"},
    {"Punct", "!-/:-@\\[-`{-~"}, {"Graph", "!-~"}, {"Print", " -~"},
    {"Blank", " \\t"}, {"Cntrl", "\\x00-\\x1F\\x7F"}, {"XDigit", "0-9a-fA-F"},
    {"Space", " \\t\\n\\x0B\\f\\r"},
    {"javaLowerCase", "\\p{Ll}"}, {"javaUpperCase", "\\p{Lu}"},
    {"javaWhitespace", "\\s"}, {"javaMirrored", "\\p{Ps}\\p{Pe}"},
    {"javaLetter", "\\p{L}"}, {"javaDigit", "\\p{Nd}"},
    {"javaLetterOrDigit", "\\p{L}\\p{Nd}"}, {"javaAlphabetic", "\\p{L}\\p{Nl}"},
    {"Alphabetic", "\\p{L}\\p{Nl}"}, {"IsAlphabetic", "\\p{L}\\p{Nl}"},
    {"IsDigit", "\\p{Nd}"}, {"IsLetter", "\\p{L}"},
    {"IsWhite_Space", "\\s"}, {"IsWhiteSpace", "\\s"},
};

static int bad_pattern(char *why, size_t n, const char *what)
{
    snprintf(why, n, "%s", what);
    return -1;
}

/* \p{Name} / \P{Name} at p[at] (at is after the 'p' or 'P'): the PCRE2
 * form appended to out; in_class says whether we are inside [...]. */
static int translate_property(const char *p, size_t n, size_t *at, bool neg,
                              bool in_class, CombBuf *out, char *why, size_t wn)
{
    size_t start, end;
    char name[64];
    if (*at >= n || p[*at] != '{') {
        /* \pL: a one-letter category, the same in PCRE2 */
        comb_buf_append(out, neg ? "\\P" : "\\p", 2);
        return 0;
    }
    start = *at + 1;
    end = start;
    while (end < n && p[end] != '}')
        end++;
    if (end >= n || end - start >= sizeof name)
        return bad_pattern(why, wn, "Unclosed character family");
    memcpy(name, p + start, end - start);
    name[end - start] = '\0';
    *at = end + 1;
    for (size_t k = 0; k < sizeof posix_classes / sizeof posix_classes[0]; k++)
        if (strcmp(name, posix_classes[k].java) == 0) {
            comb_buf_printf(out, "%s%s%s%s", in_class ? "" : "[", neg ? "^" : "",
                            posix_classes[k].pcre, in_class ? "" : "]");
            if (in_class && neg)
                return bad_pattern(why, wn, "a negated POSIX class inside [] is "
                                            "not supported");
            return 0;
        }
    if (strncmp(name, "In", 2) == 0)
        return bad_pattern(why, wn, "Unicode blocks (\\p{InX}) are not "
                                    "supported by PCRE2");
    /* \p{IsLatin}, \p{IsL}, \p{L}, \p{Lu}, \p{Latin}, \p{sc=X}... */
    comb_buf_printf(out, "\\%c{%s}", neg ? 'P' : 'p',
                    strncmp(name, "Is", 2) == 0 ? name + 2 : name);
    return 0;
}

int sql_regex_translate(const char *p, size_t n, CombBuf *out, char *why,
                        size_t wn)
{
    int depth = 0;            /* nesting of [...] */
    for (size_t at = 0; at < n;) {
        char c = p[at];
        if (c == '\\' && at + 1 < n) {
            char d = p[at + 1];
            if (d == 'Q') {
                /* \Q...\E: copied untouched (PCRE2 knows it too) */
                const char *end = NULL;
                for (size_t k = at + 2; k + 1 < n; k++)
                    if (p[k] == '\\' && p[k + 1] == 'E') {
                        end = p + k;
                        break;
                    }
                size_t stop = end ? (size_t)(end - p) + 2 : n;
                comb_buf_append(out, p + at, stop - at);
                at = stop;
                continue;
            }
            if (d == 'u' && at + 5 < n + 0 && at + 6 <= n) {
                comb_buf_printf(out, "\\x{%.4s}", p + at + 2);
                at += 6;
                continue;
            }
            if (d == 'p' || d == 'P') {
                at += 2;
                if (translate_property(p, n, &at, d == 'P', depth > 0, out, why, wn))
                    return -1;
                continue;
            }
            comb_buf_append(out, p + at, 2);
            at += 2;
            continue;
        }
        if (c == '[') {
            depth++;
            comb_buf_append_byte(out, c);
            at++;
            /* a ']' first in a class is a literal in both syntaxes */
            if (at < n && p[at] == '^') {
                comb_buf_append_byte(out, '^');
                at++;
            }
            if (at < n && p[at] == ']') {
                comb_buf_append(out, "\\]", 2);
                at++;
            }
            continue;
        }
        if (c == ']' && depth > 0)
            depth--;
        if (c == '&' && depth > 0 && at + 1 < n && p[at + 1] == '&')
            return bad_pattern(why, wn, "Java's character class intersection "
                                        "(&&) is not supported");
        comb_buf_append_byte(out, c);
        at++;
    }
    return 0;
}

/* ------------------------------------------------------- compiled cache */

typedef struct Regex {
    CombArena *arena;         /* the statement's */
    pcre2_general_context *gctx;
    pcre2_compile_context *cctx;
    char *src;                /* the Java pattern of code */
    size_t src_len;
    pcre2_code *code;
    pcre2_match_data *md;
    uint32_t groups;          /* capture groups */
} Regex;

static void *arena_malloc(size_t n, void *data)
{
    return comb_arena_alloc(data, n);
}

static void arena_free(void *p, void *data)
{
    (void)p;
    (void)data;
}

static int regex_state(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    Regex *r = comb_arena_calloc(c->arena, sizeof *r);
    if (!r)
        return comb_err_nomem(err);
    r->arena = c->arena;
    r->gctx = pcre2_general_context_create(arena_malloc, arena_free, c->arena);
    r->cctx = r->gctx ? pcre2_compile_context_create(r->gctx) : NULL;
    if (!r->cctx)
        return comb_err_nomem(err);
    pcre2_set_newline(r->cctx, PCRE2_NEWLINE_ANYCRLF);
    b->state = r;
    return COMB_OK;
}

/* The compiled form of pattern p (the last one is kept). */
static int regex_get(Regex *r, CombStr p, CombErr *err)
{
    CombBuf t = COMB_BUF_INIT;
    char why[256];
    int code;
    PCRE2_SIZE off;
    if (r->code && r->src_len == p.len && memcmp(r->src, p.ptr, p.len) == 0)
        return COMB_OK;
    if (sql_regex_translate(p.ptr, p.len, &t, why, sizeof why)) {
        comb_buf_free(&t);
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "java.util.regex.PatternSyntaxException: %s near "
                             "index 0 in '%.*s'", why, (int)p.len, p.ptr);
    }
    r->code = pcre2_compile((PCRE2_SPTR)(t.data ? (char *)t.data : ""), t.len,
                            PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off,
                            r->cctx);
    comb_buf_free(&t);
    if (!r->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "java.util.regex.PatternSyntaxException: %s near "
                             "index %zu in '%.*s'", (char *)msg, (size_t)off,
                             (int)p.len, p.ptr);
    }
    /* The interpreter checks the subject's UTF-8 from the start offset to
     * its end on every call, which makes a scan over all matches of a long
     * string quadratic; JIT code matches invalid UTF-8 itself and skips the
     * check.  Where JIT is unavailable the interpreter still runs. */
    pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE);
    if (!(r->md = pcre2_match_data_create_from_pattern(r->code, r->gctx)) ||
        !(r->src = comb_arena_strndup(r->arena, p.ptr, p.len)))
        return comb_err_nomem(err);
    r->src_len = p.len;
    pcre2_pattern_info(r->code, PCRE2_INFO_CAPTURECOUNT, &r->groups);
    return COMB_OK;
}

/* The next match of r in s at or after byte `from`: 1 found, 0 none. */
static int regex_find(Regex *r, CombStr s, size_t from, CombErr *err)
{
    int rc = pcre2_match(r->code, (PCRE2_SPTR)(s.ptr ? s.ptr : ""), s.len, from,
                         0, r->md, NULL);
    if (rc >= 0)
        return 1;
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(rc, msg, sizeof msg);
        comb_err_hive(err, COMB_EINVALID, 40000, "regular expression: %s",
                      (char *)msg);
    }
    return -1;
}

static PCRE2_SIZE *ovector(Regex *r)
{
    return pcre2_get_ovector_pointer(r->md);
}

/* The start of the next search after a match ending at `end`; an empty
 * match moves one character on, as Java's Matcher.find does. */
static size_t after_match(CombStr s, size_t start, size_t end)
{
    if (end > start || end >= s.len)
        return end;
    return end + (size_t)sql_utf8_len((const unsigned char *)s.ptr + end, s.len - end);
}

/* ----------------------------------------------------------------- rlike */

SQL_STRICT_FN(fn_rlike)
{
    Regex *r = e->state;
    int rc;
    (void)null;
    if (regex_get(r, ARG_S(1), err))
        return err->code;
    if ((rc = regex_find(r, ARG_S(0), 0, err)) < 0)
        return err->code;
    e->out->i64[row] = rc;
    return COMB_OK;
}

/* --------------------------------------------------------- regexp_replace */

/* Java's Matcher.appendReplacement: $n and ${name} are groups, \x is x. */
static int append_replacement(Regex *r, CombStr s, CombStr rep, CombBuf *b,
                              CombErr *err)
{
    PCRE2_SIZE *ov = ovector(r);
    for (uint32_t k = 0; k < rep.len; k++) {
        char c = rep.ptr[k];
        long g = -1;
        if (c == '\\' && k + 1 < rep.len) {
            comb_buf_append_byte(b, rep.ptr[++k]);
            continue;
        }
        if (c != '$') {
            comb_buf_append_byte(b, c);
            continue;
        }
        if (k + 1 >= rep.len)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.lang.IllegalArgumentException: Illegal "
                                 "group reference: group index is missing");
        if (rep.ptr[k + 1] == '{') {
            uint32_t end = k + 2;
            char name[64];
            int num;
            while (end < rep.len && rep.ptr[end] != '}')
                end++;
            if (end >= rep.len || end - k - 2 >= sizeof name)
                return comb_err_hive(err, COMB_EINVALID, 40000,
                                     "java.lang.IllegalArgumentException: named "
                                     "capturing group is missing trailing '}'");
            memcpy(name, rep.ptr + k + 2, end - k - 2);
            name[end - k - 2] = '\0';
            num = pcre2_substring_number_from_name(r->code, (PCRE2_SPTR)name);
            if (num < 0)
                return comb_err_hive(err, COMB_EINVALID, 40000,
                                     "java.lang.IllegalArgumentException: No "
                                     "group with name {%s}", name);
            g = num;
            k = end;
        } else if (rep.ptr[k + 1] >= '0' && rep.ptr[k + 1] <= '9') {
            /* Java takes more digits while the group exists */
            g = rep.ptr[++k] - '0';
            while (k + 1 < rep.len && rep.ptr[k + 1] >= '0' && rep.ptr[k + 1] <= '9' &&
                   g * 10 + (rep.ptr[k + 1] - '0') <= (long)r->groups)
                g = g * 10 + (rep.ptr[++k] - '0');
            if (g > (long)r->groups)
                return comb_err_hive(err, COMB_EINVALID, 40000,
                                     "java.lang.IndexOutOfBoundsException: No "
                                     "group %ld", g);
        } else {
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "java.lang.IllegalArgumentException: Illegal "
                                 "group reference");
        }
        if (ov[2 * g] != PCRE2_UNSET)
            comb_buf_append(b, s.ptr + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
    }
    return COMB_OK;
}

static int set_buf_result(BoundExpr *e, int row, const CombBuf *b, CombErr *err)
{
    char *p = sql_fn_alloc(e, b->len, err);
    if (!p)
        return COMB_ENOMEM;
    if (b->len)
        memcpy(p, b->data, b->len);
    sql_fn_set_str(e, row, p, b->len);
    return COMB_OK;
}

SQL_STRICT_FN(fn_regexp_replace)
{
    Regex *r = e->state;
    CombStr s = ARG_S(0), rep = ARG_S(2);
    CombBuf b = COMB_BUF_INIT;
    size_t at = 0, copied = 0;
    int rc = COMB_OK, found;
    (void)null;
    if (regex_get(r, ARG_S(1), err))
        return err->code;
    while (at <= s.len && (found = regex_find(r, s, at, err)) == 1) {
        PCRE2_SIZE *ov = ovector(r);
        comb_buf_append(&b, s.ptr + copied, ov[0] - copied);
        if ((rc = append_replacement(r, s, rep, &b, err)))
            break;
        copied = ov[1];
        if (ov[1] >= s.len && ov[0] == ov[1])
            break;
        at = after_match(s, ov[0], ov[1]);
    }
    if (!rc && found < 0)
        rc = err->code;
    if (!rc) {
        comb_buf_append(&b, s.ptr + copied, s.len - copied);
        rc = set_buf_result(e, row, &b, err);
    }
    comb_buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------- regexp_extract */

SQL_STRICT_FN(fn_regexp_extract)
{
    Regex *r = e->state;
    CombStr s = ARG_S(0);
    int64_t g = e->n_args > 2 ? ARG_I(2) : 1;
    int found;
    if (regex_get(r, ARG_S(1), err))
        return err->code;
    if (g < 0 || g > (int64_t)r->groups)
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "Regex group count is %u, but the specified group "
                             "index is %lld", r->groups, (long long)g);
    if ((found = regex_find(r, s, 0, err)) < 0)
        return err->code;
    if (!found) {
        sql_fn_set_str(e, row, "", 0);
        return COMB_OK;
    }
    {
        PCRE2_SIZE *ov = ovector(r);
        if (ov[2 * g] == PCRE2_UNSET) {
            *null = true;
            return COMB_OK;
        }
        sql_fn_set_str(e, row, s.ptr + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
    }
    return COMB_OK;
}

/* ----------------------------------------------------------------- split */

/* String.split(regex, limit): pieces between matches; a match of width
 * zero at the start gives no leading piece (Java 8); limit 0 drops the
 * trailing empty pieces, a negative limit keeps them.  *pieces holds
 * offset/length pairs in arena a. */
static int regex_split(Regex *r, CombStr s, bool keep_trailing, uint32_t **pieces,
                       uint32_t *n, CombArena *a, CombErr *err)
{
    uint32_t cap = 16, k = 0;
    uint32_t *pc = comb_arena_alloc(a, cap * 2 * sizeof *pc);
    size_t at = 0, piece = 0;
    int found = 0;
    if (!pc)
        return comb_err_nomem(err);
    if (s.len == 0) {
        pc[0] = 0;
        pc[1] = 0;
        *pieces = pc;
        *n = 1;
        return COMB_OK;
    }
    while (at <= s.len && (found = regex_find(r, s, at, err)) == 1) {
        PCRE2_SIZE *ov = ovector(r);
        if (ov[1] == 0) {           /* empty match at the very start */
            at = after_match(s, 0, 0);
            continue;
        }
        if (k + 1 >= cap) {
            uint32_t *more = comb_arena_alloc(a, cap * 4 * sizeof *more);
            if (!more)
                return comb_err_nomem(err);
            memcpy(more, pc, (size_t)k * 2 * sizeof *pc);
            pc = more;
            cap *= 2;
        }
        pc[2 * k] = (uint32_t)piece;
        pc[2 * k + 1] = (uint32_t)(ov[0] - piece);
        k++;
        piece = ov[1];
        if (ov[0] == ov[1] && ov[1] >= s.len)
            break;
        at = after_match(s, ov[0], ov[1]);
    }
    if (at <= s.len && found < 0)
        return err->code;
    if (k + 1 >= cap) {
        uint32_t *more = comb_arena_alloc(a, (cap + 1) * 2 * sizeof *more);
        if (!more)
            return comb_err_nomem(err);
        memcpy(more, pc, (size_t)k * 2 * sizeof *pc);
        pc = more;
    }
    pc[2 * k] = (uint32_t)piece;
    pc[2 * k + 1] = (uint32_t)(s.len - piece);
    k++;
    if (!keep_trailing)
        while (k > 1 && pc[2 * (k - 1) + 1] == 0)
            k--;
    *pieces = pc;
    *n = k;
    return COMB_OK;
}

static int fn_split(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    Regex *r = e->state;
    SqlVecFill *f = e->fill, *kid = &f->kids[0];
    CombArena a;
    int rc = COMB_OK;
    comb_arena_init(&a, 4096);
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        uint32_t *pc, n;
        CombStr s;
        if (ARG_NULL(0) || ARG_NULL(1)) {
            sql_fill_null(f, row);
            continue;
        }
        s = ARG_S(0);
        comb_arena_reset(&a);
        if ((rc = regex_get(r, ARG_S(1), err)) ||
            (rc = regex_split(r, s, true, &pc, &n, &a, err)))
            break;
        if (sql_fill_reserve(kid, f->used + (int)n)) {
            rc = comb_err_nomem(err);
            break;
        }
        for (uint32_t k = 0; k < n; k++) {
            comb_vec_set_not_null(kid->v, f->used + (int)k);
            kid->v->str[f->used + k] = (CombStr){s.ptr + pc[2 * k], pc[2 * k + 1]};
        }
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = n;
        f->used += (int)n;
    }
    comb_arena_free(&a);
    return rc;
}

/* str_to_map(text[, pair_delim ',', kv_delim ':']): both delimiters are
 * regular expressions; a key given twice keeps its first place and its
 * last value (LinkedHashMap); a pair without kv_delim maps to NULL. */
static int fn_str_to_map(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    Regex *pairs = e->state, *kv = (Regex *)e->state + 1;
    SqlVecFill *f = e->fill;
    CombVector *keys = f->kids[0].v, *vals = f->kids[1].v;
    CombArena a;
    int rc = COMB_OK;
    comb_arena_init(&a, 4096);
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        CombStr s, d1 = {",", 1}, d2 = {":", 1};
        uint32_t *pc, n, used = 0;
        if (ARG_NULL(0)) {
            sql_fill_null(f, row);
            continue;
        }
        s = ARG_S(0);
        if (e->n_args > 1 && !ARG_NULL(1))
            d1 = ARG_S(1);
        if (e->n_args > 2 && !ARG_NULL(2))
            d2 = ARG_S(2);
        comb_arena_reset(&a);
        if ((rc = regex_get(pairs, d1, err)) || (rc = regex_get(kv, d2, err)) ||
            (rc = regex_split(pairs, s, false, &pc, &n, &a, err)))
            break;
        if (sql_fill_reserve(&f->kids[0], f->used + (int)n) ||
            sql_fill_reserve(&f->kids[1], f->used + (int)n)) {
            rc = comb_err_nomem(err);
            break;
        }
        for (uint32_t k = 0; k < n; k++) {
            CombStr pair = {s.ptr + pc[2 * k], pc[2 * k + 1]}, key = pair, val = {NULL, 0};
            bool has_val = false;
            int found = regex_find(kv, pair, 0, err), at = -1;
            if (found < 0) {
                rc = err->code;
                break;
            }
            if (found) {
                PCRE2_SIZE *ov = ovector(kv);
                key.len = (uint32_t)ov[0];
                val = (CombStr){pair.ptr + ov[1], pair.len - (uint32_t)ov[1]};
                has_val = true;
            }
            for (uint32_t j = 0; j < used; j++)
                if (sql_str_cmp(keys->str[f->used + j], key) == 0)
                    at = f->used + (int)j;
            if (at < 0) {
                at = f->used + (int)used++;
                comb_vec_set_not_null(keys, at);
                keys->str[at] = key;
            }
            if (has_val) {
                comb_vec_set_not_null(vals, at);
                vals->str[at] = val;
            } else {
                sql_fill_null(&f->kids[1], at);
            }
        }
        if (rc)
            break;
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = used;
        f->used += (int)used;
    }
    comb_arena_free(&a);
    return rc;
}

/* ---------------------------------------------------------------- binding */

static int bind_regex_fn(SqlFnBind *f, CombErr *err)
{
    int rc = sql_fn_bind_sig(f, err);
    return rc ? rc : regex_state(f->c, f->b, err);
}

static int bind_str_to_map(SqlFnBind *f, CombErr *err)
{
    Regex *two;
    int rc = sql_fn_bind_sig(f, err);
    if (rc || (rc = regex_state(f->c, f->b, err)))
        return rc;
    two = comb_arena_calloc(f->c->arena, 2 * sizeof *two);
    if (!two)
        return comb_err_nomem(err);
    two[0] = *(Regex *)f->b->state;
    two[1] = two[0];
    f->b->state = two;
    return COMB_OK;
}

int sql_bind_rlike(SqlStmtCtx *c, BoundExpr *a, BoundExpr *pattern, AstPos pos,
                   BoundExpr **out, CombErr *err)
{
    BoundExpr *b = sql_bx_new(c, BX_FUNC, COMB_T_BOOLEAN, pos);
    BoundExpr **args = comb_arena_alloc(c->arena, 2 * sizeof *args);
    int rc;
    if (!b || !args)
        return comb_err_nomem(err);
    if ((rc = sql_bind_convert_kind(c, a, COMB_T_STRING, &args[0], err)) ||
        (rc = sql_bind_convert_kind(c, pattern, COMB_T_STRING, &args[1], err)))
        return rc;
    b->fname = "rlike";
    b->fn = fn_rlike;
    b->args = args;
    b->n_args = 2;
    *out = b;
    return regex_state(c, b, err);
}

const SqlFuncDef sql_funcs_regex[] = {
    {"rlike", 2, 2, bind_regex_fn, fn_rlike, "b:ss"},
    {"regexp", 2, 2, bind_regex_fn, fn_rlike, "b:ss"},
    {"regexp_replace", 3, 3, bind_regex_fn, fn_regexp_replace, "s:sss"},
    {"regexp_extract", 2, 3, bind_regex_fn, fn_regexp_extract, "s:ssI"},
    {"split", 2, 2, bind_regex_fn, fn_split, "a:ss"},
    {"str_to_map", 1, 3, bind_str_to_map, fn_str_to_map, "m:sss"},
    {NULL, 0, 0, NULL, NULL, NULL},
};
