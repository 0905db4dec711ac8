/*
 * parser.c - the parser's token stream, error reporting and shared helpers,
 * and sql_parse_statement, which dispatches on the first keyword to the
 * statement rules in parse_ddl.c and parse_dml.c.
 */
#include "sql/parse/parse_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------- token stream */

/* Hive's metastore keeps names of at most 767 characters (column names,
 * the longest kind), so a longer word can never name anything: refuse it
 * where it stands instead of carrying it into messages. */
#define SP_MAX_IDENT 767

static void refuse_long_identifier(SqlToken *t)
{
    size_t quotes = t->kind == SQL_TK_QUOTED_ID ? 2 : 0;
    if ((t->kind == SQL_TK_WORD || t->kind == SQL_TK_QUOTED_ID) &&
        t->len > SP_MAX_IDENT + quotes) {
        t->kind = SQL_TK_ERROR;
        t->msg = "identifier longer than 767 characters";
    }
}

const SqlToken *sp_peek(SqlParser *p, int k)
{
    while (p->n_ahead <= k) {
        int slot = (p->head + p->n_ahead) % SP_LOOKAHEAD;
        sql_lex_next(&p->lx, &p->ahead[slot]);
        refuse_long_identifier(&p->ahead[slot]);
        p->n_ahead++;
    }
    return &p->ahead[(p->head + k) % SP_LOOKAHEAD];
}

SqlToken sp_next(SqlParser *p)
{
    SqlToken t = *sp_peek(p, 0);
    /* EOF stays current so that every rule sees it */
    if (t.kind == SQL_TK_EOF)
        return t;
    p->head = (p->head + 1) % SP_LOOKAHEAD;
    p->n_ahead--;
    p->prev_end = t.off + t.len;
    return t;
}

bool sp_is(SqlParser *p, SqlTokKind kind)
{
    return sp_peek(p, 0)->kind == kind;
}

bool sp_is_kw_at(SqlParser *p, int k, SqlKeyword kw)
{
    const SqlToken *t = sp_peek(p, k);
    return t->kind == SQL_TK_WORD && t->kw == kw;
}

bool sp_is_kw(SqlParser *p, SqlKeyword kw)
{
    return sp_is_kw_at(p, 0, kw);
}

bool sp_accept(SqlParser *p, SqlTokKind kind)
{
    if (!sp_is(p, kind))
        return false;
    sp_next(p);
    return true;
}

bool sp_accept_kw(SqlParser *p, SqlKeyword kw)
{
    if (!sp_is_kw(p, kw))
        return false;
    sp_next(p);
    return true;
}

bool sp_is_word_at(SqlParser *p, int k, const char *w)
{
    const SqlToken *t = sp_peek(p, k);
    size_t n = strlen(w);
    return t->kind == SQL_TK_WORD && t->len == n &&
           strncasecmp(p->src + t->off, w, n) == 0;
}

bool sp_accept_word(SqlParser *p, const char *w)
{
    if (!sp_is_word_at(p, 0, w))
        return false;
    sp_next(p);
    return true;
}

int sp_expect_word(SqlParser *p, const char *w)
{
    if (sp_accept_word(p, w))
        return COMB_OK;
    return sp_error(p, sp_peek(p, 0), "missing %s", w);
}

int sp_expect(SqlParser *p, SqlTokKind kind, const char *shown)
{
    if (sp_accept(p, kind))
        return COMB_OK;
    return sp_error(p, sp_peek(p, 0), "missing %s", shown);
}

int sp_expect_kw(SqlParser *p, SqlKeyword kw)
{
    if (sp_accept_kw(p, kw))
        return COMB_OK;
    return sp_error(p, sp_peek(p, 0), "missing %s", sql_keyword_name(kw));
}

AstPos sp_pos(const SqlToken *t)
{
    AstPos pos = {t->line, t->col};
    return pos;
}

/* ------------------------------------------------------------- errors */

/* The token as quoted in messages: one line, at most ~40 bytes, cut on a
 * character boundary; control bytes (a NUL above all) shown escaped so
 * the message stays one readable C string. */
static void near_text(SqlParser *p, const SqlToken *t, char *buf, size_t cap)
{
    size_t n = t->len, w = 0;
    const char *s = p->src + t->off;
    const char *nl;
    if (t->kind == SQL_TK_EOF) {
        snprintf(buf, cap, "<EOF>");
        return;
    }
    if ((nl = memchr(s, '\n', n)))
        n = (size_t)(nl - s);
    if (n > 40) {
        n = 40;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    for (size_t i = 0; i < n && w + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0)
            w += (size_t)snprintf(buf + w, cap - w, "\\0");
        else if (c < 0x20 && c != '\t')
            w += (size_t)snprintf(buf + w, cap - w, "\\x%02x", c);
        else
            buf[w++] = (char)c;
    }
    buf[w] = '\0';
}

int sp_error(SqlParser *p, const SqlToken *at, const char *fmt, ...)
{
    char what[512], near[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    near_text(p, at, near, sizeof near);
    /* a broken token explains itself better than what the rule wanted */
    const char *shown = at->kind == SQL_TK_ERROR ? at->msg : what;
    if (at->kind == SQL_TK_OTHER && p->src[at->off] == '\0')
        shown = "NUL character in statement";
    return comb_err(p->err, COMB_ESYNTAX,
                    "ParseException line %d:%d %s near '%s'", at->line,
                    at->col - 1, shown, near);
}

int sp_unsupported(SqlParser *p, const SqlToken *at, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return comb_err(p->err, COMB_EUNSUPPORTED, "line %d:%d %s is not supported",
                    at->line, at->col - 1, what);
}

void *sp_alloc(SqlParser *p, size_t n)
{
    void *m = comb_arena_calloc(p->arena, n);
    if (!m)
        comb_err_nomem(p->err);
    return m;
}

int sp_enter(SqlParser *p)
{
    if (p->depth >= AST_MAX_DEPTH)
        return sp_error(p, sp_peek(p, 0), "expression nested too deeply");
    p->depth++;
    return COMB_OK;
}

void sp_leave(SqlParser *p)
{
    p->depth--;
}

/* ------------------------------------------------------------ helpers */

bool sp_is_ident_tok(const SqlToken *t)
{
    if (t->kind == SQL_TK_QUOTED_ID)
        return true;
    if (t->kind != SQL_TK_WORD)
        return false;
    int cls = sql_keyword_class(t->kw);
    return cls == SQL_KWC_PLAIN || cls == SQL_KWC_CLAUSE;
}

int sp_ident(SqlParser *p, char **out, AstPos *pos)
{
    const SqlToken *t = sp_peek(p, 0);
    if (!sp_is_ident_tok(t)) {
        if (t->kind == SQL_TK_WORD && t->kw != KW_NONE)
            return sp_error(p, t, "reserved keyword %s used as an identifier"
                            " (quote it with backquotes)",
                            sql_keyword_name(t->kw));
        return sp_error(p, t, "expected identifier");
    }
    if (t->kind == SQL_TK_QUOTED_ID && t->len == 2)
        return sp_error(p, t, "empty identifier");
    SqlToken tok = sp_next(p);
    if (pos)
        *pos = sp_pos(&tok);
    *out = sql_ident_value(p->arena, p->src, &tok);
    return *out ? COMB_OK : comb_err_nomem(p->err);
}

int sp_name(SqlParser *p, AstName *out)
{
    char *first;
    memset(out, 0, sizeof *out);
    SP_TRY(sp_ident(p, &first, &out->pos));
    if (!sp_accept(p, SQL_TK_DOT)) {
        out->name = first;
        return COMB_OK;
    }
    out->db = first;
    return sp_ident(p, &out->name, NULL);
}

int sp_alias(SqlParser *p, char **out)
{
    *out = NULL;
    if (sp_accept_kw(p, KW_AS)) {
        if (sp_is(p, SQL_TK_LPAREN))
            return sp_unsupported(p, sp_peek(p, 0), "AS with a column list");
        return sp_ident(p, out, NULL);
    }
    /* without AS, a clause keyword ends the item rather than naming it */
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind == SQL_TK_QUOTED_ID ||
        (t->kind == SQL_TK_WORD && sql_keyword_class(t->kw) == SQL_KWC_PLAIN))
        return sp_ident(p, out, NULL);
    return COMB_OK;
}

int sp_string(SqlParser *p, char **out, size_t *len)
{
    SqlToken one;
    SqlVec toks = {&one, 1, 1};   /* most literals stand alone */
    if (!sp_is(p, SQL_TK_STRING))
        return sp_error(p, sp_peek(p, 0), "expected string literal");
    one = sp_next(p);
    size_t cap = one.len + 1;
    while (sp_is(p, SQL_TK_STRING)) {
        SqlToken t = sp_next(p);
        SP_TRY(sp_vec_push(p, &toks, &t, sizeof t));
        cap += t.len;
    }
    char *buf = sp_alloc(p, cap);
    if (!buf)
        return COMB_ENOMEM;
    size_t n = 0;
    for (int i = 0; i < toks.n; i++)
        n += sql_string_decode(buf + n, p->src, (SqlToken *)toks.data + i);
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return COMB_OK;
}

int sp_int(SqlParser *p, int64_t lo, int64_t hi, const char *what,
           int64_t *out)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind != SQL_TK_INT || t->suffix)
        return sp_error(p, t, "expected %s", what);
    int64_t v = 0;
    bool overflow = false;
    for (size_t i = 0; i < t->len; i++) {
        int d = p->src[t->off + i] - '0';
        if (v > (INT64_MAX - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
    }
    if (overflow || v < lo || v > hi)
        return sp_error(p, t, "%s out of range [%lld, %lld]", what,
                        (long long)lo, (long long)hi);
    sp_next(p);
    *out = v;
    return COMB_OK;
}

char *sp_text(SqlParser *p, size_t start)
{
    size_t end = p->prev_end > start ? p->prev_end : start;
    char *s = comb_arena_strndup(p->arena, p->src + start, end - start);
    if (!s)
        comb_err_nomem(p->err);
    return s;
}

size_t sp_raw_rest(SqlParser *p)
{
    const SqlToken *t = sp_peek(p, 0);
    SqlLexer lx = p->lx;
    size_t end;
    lx.pos = t->off;
    lx.line = t->line;
    lx.col = t->col;
    for (;;) {
        SqlLexer before = lx;
        SqlToken tok;
        sql_lex_next(&lx, &tok);
        if (tok.kind == SQL_TK_SEMI || tok.kind == SQL_TK_EOF) {
            p->lx = before;
            end = tok.off;
            break;
        }
        /* an unclosed quote is raw text too; it runs to the end */
        if (tok.kind == SQL_TK_ERROR) {
            p->lx = lx;
            end = p->len;
            break;
        }
    }
    p->n_ahead = 0;
    while (end > p->prev_end &&
           sql_lex_is_space((unsigned char)p->src[end - 1]))
        end--;
    return end;
}

SqlToken sp_token_at(SqlParser *p, size_t off)
{
    SqlToken t = {0};
    if (off > p->len)
        off = p->len;
    t.kind = off < p->len ? SQL_TK_OTHER : SQL_TK_EOF;
    t.off = off;
    t.len = off < p->len ? 1 : 0;
    t.line = 1;
    t.col = 1;
    sql_lex_advance(p->src, 0, off, &t.line, &t.col);
    return t;
}

int sp_vec_push(SqlParser *p, SqlVec *v, const void *elem, size_t size)
{
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        void *d = comb_arena_alloc(p->arena, (size_t)cap * size);
        if (!d)
            return comb_err_nomem(p->err);
        if (v->n)
            memcpy(d, v->data, (size_t)v->n * size);
        v->data = d;
        v->cap = cap;
    }
    memcpy((char *)v->data + (size_t)v->n * size, elem, size);
    v->n++;
    return COMB_OK;
}

int sp_list(SqlParser *p, bool parens, SqlItemFn item, void *ctx)
{
    if (parens)
        SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    do
        SP_TRY(item(p, ctx));
    while (sp_accept(p, SQL_TK_COMMA));
    if (parens)
        SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    return COMB_OK;
}

static int part_item(SqlParser *p, void *vec)
{
    AstPartItem it = {0};
    SP_TRY(sp_ident(p, &it.key, &it.pos));
    if (sp_accept(p, SQL_TK_EQ))
        SP_TRY(sp_expr(p, &it.value));
    return sp_vec_push(p, vec, &it, sizeof it);
}

int sp_partition_spec(SqlParser *p, bool require_values, AstPartSpec *out)
{
    SqlVec items = {0};
    const SqlToken *t = sp_peek(p, 0);
    out->pos = sp_pos(t);
    SP_TRY(sp_expect_kw(p, KW_PARTITION));
    SP_TRY(sp_list(p, true, part_item, &items));
    out->n = items.n;
    out->items = items.data;
    for (int i = 0; require_values && i < out->n; i++)
        if (!out->items[i].value)
            return comb_err(p->err, COMB_ESYNTAX,
                            "ParseException line %d:%d missing value for "
                            "partition key %s", out->items[i].pos.line,
                            out->items[i].pos.col - 1, out->items[i].key);
    return COMB_OK;
}

int sp_ident_item(SqlParser *p, void *vec_of_names)
{
    char *name;
    SP_TRY(sp_ident(p, &name, NULL));
    return sp_vec_push(p, vec_of_names, &name, sizeof name);
}

int sp_expr_item(SqlParser *p, void *vec_of_exprs)
{
    AstExpr *e;
    SP_TRY(sp_list_expr(p, &e));
    return sp_vec_push(p, vec_of_exprs, &e, sizeof e);
}

/* ---------------------------------------------------------- statements */

/* Words that open valid HiveQL statements this version does not run. */
static bool is_unsupported_statement(const SqlToken *t)
{
    static const SqlKeyword kws[] = {
        KW_EXPORT,
        KW_IMPORT, KW_LOCK,
        KW_RELOAD, KW_RESET, KW_UNLOCK,
    };
    if (t->kind != SQL_TK_WORD)
        return false;
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (t->kw == kws[i])
            return true;
    return false;
}

bool sp_at_dml(const SqlToken *t)
{
    return t->kind == SQL_TK_WORD &&
           (t->kw == KW_SELECT || t->kw == KW_INSERT || t->kw == KW_FROM ||
            t->kw == KW_UPDATE || t->kw == KW_DELETE || t->kw == KW_WITH);
}

int sp_dml(SqlParser *p, AstStmt *s)
{
    switch (sp_peek(p, 0)->kw) {
    case KW_SELECT:
        s->kind = AST_SELECT;
        return sp_select(p, &s->select);
    case KW_INSERT: return sp_insert(p, s);
    case KW_FROM: return sp_from(p, s);
    case KW_WITH: return sp_with_statement(p, s);
    case KW_UPDATE: return sp_update(p, s);
    default: return sp_delete(p, s);
    }
}

static int sp_statement(SqlParser *p, AstStmt *s)
{
    const SqlToken *t = sp_peek(p, 0);
    if (sp_at_dml(t))
        return sp_dml(p, s);
    if (sp_at_txn(p))
        return sp_txn(p, s);
    if (sp_at_set_role(p))
        return sp_set_role(p, s);
    if (t->kind == SQL_TK_WORD) {
        switch (t->kw) {
        case KW_CREATE: return sp_create(p, s);
        case KW_DROP: return sp_drop(p, s);
        case KW_SHOW: return sp_show(p, s);
        case KW_DESCRIBE:
        case KW_DESC: return sp_describe(p, s);
        case KW_USE: return sp_use(p, s);
        case KW_SET: return sp_set(p, s);
        case KW_LOAD: return sp_load(p, s);
        case KW_EXPLAIN: return sp_explain(p, s);
        case KW_ALTER: return sp_alter(p, s);
        case KW_TRUNCATE: return sp_truncate(p, s);
        case KW_ANALYZE: return sp_analyze(p, s);
        case KW_MSCK: return sp_msck(p, s);
        case KW_MERGE: return sp_merge(p, s);
        case KW_GRANT: return sp_grant(p, s);
        case KW_REVOKE: return sp_revoke(p, s);
        case KW_ABORT:
            return sp_is_word_at(p, 1, "compactions")
                       ? sp_abort_compactions(p, s) : sp_abort(p, s);
        default: break;
        }
    }
    if (is_unsupported_statement(t))
        return sp_unsupported(p, t, "%s statement", sql_keyword_name(t->kw));
    if (t->kind == SQL_TK_LPAREN &&
        (sp_is_kw_at(p, 1, KW_SELECT) || sp_is_kw_at(p, 1, KW_WITH))) {
        s->kind = AST_SELECT;
        return sp_select(p, &s->select);
    }
    return sp_error(p, t, "cannot recognize input");
}

/* After the statement: optional ';' (any number), then nothing. */
static int sp_statement_end(SqlParser *p)
{
    while (sp_accept(p, SQL_TK_SEMI))
        ;
    if (!sp_is(p, SQL_TK_EOF))
        return sp_error(p, sp_peek(p, 0), "cannot recognize input");
    return COMB_OK;
}

int sql_parse_statement(const char *text, size_t len, CombArena *arena,
                        AstStmt **out, CombErr *err)
{
    SqlParser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    if (!text) {
        text = "";
        len = 0;
    }
    p.src = text;
    p.len = len;
    p.arena = arena;
    p.err = err;
    sql_lex_init(&p.lx, text, p.len);

    AstStmt *s = sp_alloc(&p, sizeof *s);
    if (!s)
        return COMB_ENOMEM;
    s->n_buckets = -1;
    const SqlToken *first = sp_peek(&p, 0);
    size_t start = first->off;
    s->pos = sp_pos(first);
    if (first->kind == SQL_TK_SEMI || first->kind == SQL_TK_EOF)
        return sp_error(&p, first, "cannot recognize input (empty statement)");
    SP_TRY(sp_statement(&p, s));
    s->text = sp_text(&p, start);
    if (!s->text)
        return COMB_ENOMEM;
    SP_TRY(sp_statement_end(&p));
    comb_err_clear(err);
    *out = s;
    return COMB_OK;
}

int sql_parse_expression(const char *text, size_t len, CombArena *arena,
                         AstExpr **out, CombErr *err)
{
    SqlParser p;
    memset(&p, 0, sizeof p);
    *out = NULL;
    p.src = text;
    p.len = len;
    p.arena = arena;
    p.err = err;
    sql_lex_init(&p.lx, text, p.len);
    SP_TRY(sp_expr(&p, out));
    if (!sp_is(&p, SQL_TK_EOF))
        return sp_error(&p, sp_peek(&p, 0), "cannot recognize input");
    comb_err_clear(err);
    return COMB_OK;
}
