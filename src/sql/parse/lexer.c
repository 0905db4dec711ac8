/*
 * lexer.c - the HiveQL scanner, token value decoding, and the statement
 * splitter built on the scanner (so splitting and parsing can never
 * disagree about where a string or comment ends).
 */
#include "sql/parse/lexer.h"
#include "sql/parse/ast.h"

#include <string.h>

static const struct {
    const char *name;
    int cls;
} kw_table[] = {
    {"", SQL_KWC_PLAIN},    /* KW_NONE */
#define SQL_KW_ENTRY(word, cls) {#word, SQL_KWC_##cls},
    SQL_KEYWORDS(SQL_KW_ENTRY)
#undef SQL_KW_ENTRY
};

/* ------------------------------------------------------------- keywords */

static int ascii_upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcmp of the upper-cased word against a table name. */
static int kw_compare(const char *word, size_t len, const char *name)
{
    for (size_t i = 0; i < len; i++) {
        int a = ascii_upper((unsigned char)word[i]);
        int b = (unsigned char)name[i];
        if (b == 0 || a != b)
            return a - b;
    }
    return name[len] == 0 ? 0 : -1;
}

SqlKeyword sql_keyword_lookup(const char *word, size_t len)
{
    int lo = 1, hi = KW_COUNT_ - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = kw_compare(word, len, kw_table[mid].name);
        if (c == 0)
            return (SqlKeyword)mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return KW_NONE;
}

const char *sql_keyword_name(SqlKeyword kw)
{
    return kw > KW_NONE && kw < KW_COUNT_ ? kw_table[kw].name : "";
}

int sql_keyword_class(SqlKeyword kw)
{
    return kw > KW_NONE && kw < KW_COUNT_ ? kw_table[kw].cls : SQL_KWC_PLAIN;
}

/* -------------------------------------------------------------- scanner */

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool is_word_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           c == '_';
}

bool sql_lex_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

void sql_lex_init(SqlLexer *lx, const char *src, size_t len)
{
    lx->src = src;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->col = 1;
    lx->prev = SQL_TK_EOF;
    lx->prev_kw_class = SQL_KWC_PLAIN;
}

/* Byte at i, or 0 past the end: lets look-ahead checks skip bounds tests. */
static int lx_at(const SqlLexer *lx, size_t i)
{
    return i < lx->len ? (unsigned char)lx->src[i] : 0;
}

void sql_lex_advance(const char *src, size_t from, size_t to, int *line,
                     int *col)
{
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == '\n') {
            ++*line;
            *col = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

/* Move to byte `to`, keeping line and column. */
static void lx_move(SqlLexer *lx, size_t to)
{
    if (to > lx->len)
        to = lx->len;
    sql_lex_advance(lx->src, lx->pos, to, &lx->line, &lx->col);
    lx->pos = to;
}

/* Skip white space and comments.  Returns false, with *bad_start set, when
 * a block comment never closes. */
static bool lx_skip_blank(SqlLexer *lx, size_t *bad_start)
{
    for (;;) {
        size_t i = lx->pos;
        while (i < lx->len && sql_lex_is_space((unsigned char)lx->src[i]))
            i++;
        lx_move(lx, i);
        if (lx_at(lx, i) == '-' && lx_at(lx, i + 1) == '-') {
            while (i < lx->len && lx->src[i] != '\n')
                i++;
            lx_move(lx, i);
        } else if (lx_at(lx, i) == '/' && lx_at(lx, i + 1) == '*') {
            size_t j = i + 2;
            while (j < lx->len &&
                   !(lx->src[j] == '*' && lx_at(lx, j + 1) == '/'))
                j++;
            if (j >= lx->len) {
                *bad_start = i;
                return false;
            }
            lx_move(lx, j + 2);
        } else {
            return true;
        }
    }
}

/* End of a quoted run starting at the opening quote q, or 0 if it never
 * closes.  Strings escape with backslash; backquotes by doubling. */
static size_t lx_quoted_end(const SqlLexer *lx, size_t start)
{
    char q = lx->src[start];
    size_t i = start + 1;
    while (i < lx->len) {
        char c = lx->src[i];
        if (q != '`' && c == '\\') {
            i += 2;
        } else if (c == q) {
            if (q == '`' && lx_at(lx, i + 1) == '`')
                i += 2;
            else
                return i + 1;
        } else {
            i++;
        }
    }
    return 0;
}

/* Length of a number suffix at i (L S Y, BD or D) that is not the start of
 * a longer word, else 0.  L S Y only follow plain integers; D (a DOUBLE, as
 * Hive's NumberLiteral) follows any number. */
static size_t lx_suffix_len(const SqlLexer *lx, size_t i, bool plain_int,
                            char *suffix)
{
    int c = ascii_upper(lx_at(lx, i));
    if (plain_int && (c == 'L' || c == 'S' || c == 'Y') &&
        !is_word_char(lx_at(lx, i + 1))) {
        *suffix = (char)c;
        return 1;
    }
    if (c == 'B' && ascii_upper(lx_at(lx, i + 1)) == 'D' &&
        !is_word_char(lx_at(lx, i + 2))) {
        *suffix = 'B';
        return 2;
    }
    if (c == 'D' && !is_word_char(lx_at(lx, i + 1))) {
        *suffix = 'D';
        return 1;
    }
    return 0;
}

/*
 * A number: digits [. digits] [e[+-]digits] [suffix].  Hive identifiers may
 * start with a digit, so digits running into other word characters make a
 * word ("1st"), not a number followed by a word.
 */
static void lx_number(SqlLexer *lx, SqlToken *tok)
{
    size_t i = lx->pos;
    bool plain_int = true;
    while (is_digit(lx_at(lx, i)))
        i++;
    if (lx_at(lx, i) == '.') {
        plain_int = false;
        i++;
        while (is_digit(lx_at(lx, i)))
            i++;
    }
    int e = lx_at(lx, i);
    if (e == 'e' || e == 'E') {
        size_t j = i + 1;
        if (lx_at(lx, j) == '+' || lx_at(lx, j) == '-')
            j++;
        if (is_digit(lx_at(lx, j))) {
            plain_int = false;
            i = j;
            while (is_digit(lx_at(lx, i)))
                i++;
        }
    }
    size_t suf = lx_suffix_len(lx, i, plain_int, &tok->suffix);
    if (suf == 0 && plain_int && is_word_char(lx_at(lx, i))) {
        while (is_word_char(lx_at(lx, i)))
            i++;
        tok->kind = SQL_TK_WORD;
    } else {
        i += suf;
        tok->kind = plain_int ? SQL_TK_INT : SQL_TK_NUMBER;
    }
    tok->len = i - lx->pos;
}

/* Operators and punctuation; returns the length matched (0: unknown). */
static size_t lx_operator(const SqlLexer *lx, SqlTokKind *kind)
{
    static const struct {
        const char *text;
        SqlTokKind kind;
    } ops[] = {
        /* longest first so "<=>" wins over "<=" and "<" */
        {"<=>", SQL_TK_EQ_NS}, {"<=", SQL_TK_LE}, {">=", SQL_TK_GE},
        {"<>", SQL_TK_NE},     {"!=", SQL_TK_NE}, {"==", SQL_TK_EQ},
        {"||", SQL_TK_CONCAT}, {"(", SQL_TK_LPAREN}, {")", SQL_TK_RPAREN},
        {"[", SQL_TK_LBRACKET}, {"]", SQL_TK_RBRACKET}, {",", SQL_TK_COMMA},
        {".", SQL_TK_DOT},     {";", SQL_TK_SEMI},   {":", SQL_TK_COLON},
        {"*", SQL_TK_STAR},    {"+", SQL_TK_PLUS},   {"-", SQL_TK_MINUS},
        {"/", SQL_TK_SLASH},   {"%", SQL_TK_PERCENT}, {"=", SQL_TK_EQ},
        {"<", SQL_TK_LT},      {">", SQL_TK_GT},     {"!", SQL_TK_BANG},
        {"~", SQL_TK_TILDE},   {"&", SQL_TK_AMP},    {"|", SQL_TK_PIPE},
        {"^", SQL_TK_CARET},
    };
    size_t rest = lx->len - lx->pos;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = strlen(ops[k].text);
        if (n <= rest && memcmp(lx->src + lx->pos, ops[k].text, n) == 0) {
            *kind = ops[k].kind;
            return n;
        }
    }
    return 0;
}

/* Length of the UTF-8 character at pos (1 for a stray byte). */
static size_t lx_char_len(const SqlLexer *lx)
{
    size_t n = 1;
    while (lx->pos + n < lx->len && n < 4 &&
           ((unsigned char)lx->src[lx->pos + n] & 0xC0) == 0x80)
        n++;
    return n;
}

/* '.' followed by a digit starts a number (".5") unless it follows
 * something a field could be taken from: a name, ')' or ']'.  A reserved
 * word names nothing, so "select .5" is a number. */
static bool lx_dot_starts_number(const SqlLexer *lx)
{
    bool after_name = lx->prev == SQL_TK_QUOTED_ID ||
                      lx->prev == SQL_TK_RPAREN ||
                      lx->prev == SQL_TK_RBRACKET ||
                      (lx->prev == SQL_TK_WORD &&
                       lx->prev_kw_class < SQL_KWC_RESERVED);
    return is_digit(lx_at(lx, lx->pos + 1)) && !after_name;
}

static void lx_error_token(SqlLexer *lx, SqlToken *tok, size_t start,
                           const char *msg)
{
    tok->kind = SQL_TK_ERROR;
    tok->msg = msg;
    tok->len = lx->len - start;
}

void sql_lex_next(SqlLexer *lx, SqlToken *tok)
{
    size_t bad = 0;
    memset(tok, 0, sizeof *tok);
    bool ok = lx_skip_blank(lx, &bad);
    if (!ok)
        lx_move(lx, bad);
    tok->off = lx->pos;
    tok->line = lx->line;
    tok->col = lx->col;
    int c = lx_at(lx, lx->pos);
    if (!ok) {
        lx_error_token(lx, tok, lx->pos, "unterminated comment");
    } else if (lx->pos >= lx->len) {
        tok->kind = SQL_TK_EOF;
    } else if (is_digit(c) || (c == '.' && lx_dot_starts_number(lx))) {
        lx_number(lx, tok);
    } else if (is_word_char(c)) {
        size_t i = lx->pos;
        while (is_word_char(lx_at(lx, i)))
            i++;
        tok->kind = SQL_TK_WORD;
        tok->len = i - lx->pos;
    } else if (c == '\'' || c == '"' || c == '`') {
        size_t end = lx_quoted_end(lx, lx->pos);
        const char *nul = memchr(lx->src + lx->pos, '\0',
                                 (end ? end : lx->len) - lx->pos);
        if (nul) {
            /* reported where the NUL is, not where the quote opened */
            lx_move(lx, (size_t)(nul - lx->src));
            tok->off = lx->pos;
            tok->line = lx->line;
            tok->col = lx->col;
            lx_error_token(lx, tok, lx->pos, "NUL character in quoted text");
        } else if (end == 0)
            lx_error_token(lx, tok, lx->pos,
                           c == '`' ? "unterminated quoted identifier"
                                    : "unterminated string literal");
        else {
            tok->kind = c == '`' ? SQL_TK_QUOTED_ID : SQL_TK_STRING;
            tok->len = end - lx->pos;
        }
    } else {
        SqlTokKind k = SQL_TK_OTHER;
        size_t n = lx_operator(lx, &k);
        tok->kind = k;
        tok->len = n ? n : lx_char_len(lx);
    }
    if (tok->kind == SQL_TK_WORD)
        tok->kw = sql_keyword_lookup(lx->src + tok->off, tok->len);
    lx_move(lx, tok->off + tok->len);
    lx->prev = tok->kind;
    lx->prev_kw_class = sql_keyword_class(tok->kw);
}

/* ------------------------------------------------------- token values */

char *sql_ident_value(CombArena *arena, const char *src, const SqlToken *tok)
{
    const char *s = src + tok->off;
    size_t n = tok->len;
    if (tok->kind == SQL_TK_QUOTED_ID) {
        s++;
        n -= 2;
    }
    char *out = comb_arena_alloc(arena, n + 1);
    if (!out)
        return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        out[w++] = (char)ascii_lower((unsigned char)s[i]);
        if (tok->kind == SQL_TK_QUOTED_ID && s[i] == '`')
            i++;   /* `` stands for one backquote */
    }
    out[w] = '\0';
    return out;
}

static int hex_value(int c)
{
    if (is_digit(c))
        return c - '0';
    c = ascii_lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool is_octal(int c) { return c >= '0' && c <= '7'; }

static size_t utf8_put(char *dst, unsigned cp)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xC0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    dst[0] = (char)(0xE0 | (cp >> 12));
    dst[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    dst[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/*
 * One escape sequence at s[0] == '\\' with n bytes available (n >= 2, as
 * a closed literal never ends in a lone backslash).  Writes the decoded
 * bytes to dst; returns how many source bytes it used.  No sequence decodes
 * to more bytes than it spans, so a buffer the size of the token suffices.
 */
static size_t decode_escape(const char *s, size_t n, char *dst, size_t *w)
{
    int c = (unsigned char)s[1];
    if (n >= 4 && c >= '0' && c <= '3' && is_octal(s[2]) && is_octal(s[3])) {
        dst[(*w)++] = (char)(((c - '0') << 6) | ((s[2] - '0') << 3) |
                             (s[3] - '0'));
        return 4;
    }
    if (c == 'u' && n >= 6) {
        unsigned cp = 0;
        int k;
        for (k = 2; k < 6 && hex_value((unsigned char)s[k]) >= 0; k++)
            cp = cp * 16 + (unsigned)hex_value((unsigned char)s[k]);
        if (k == 6) {
            *w += utf8_put(dst + *w, cp);
            return 6;
        }
    }
    switch (c) {
    case 'n': dst[(*w)++] = '\n'; break;
    case 't': dst[(*w)++] = '\t'; break;
    case 'r': dst[(*w)++] = '\r'; break;
    case 'b': dst[(*w)++] = '\b'; break;
    case '0': dst[(*w)++] = '\0'; break;
    case 'Z': dst[(*w)++] = '\x1A'; break;
    case '%':
    case '_':
        /* kept escaped: LIKE patterns need to tell \% from % */
        dst[(*w)++] = '\\';
        dst[(*w)++] = (char)c;
        break;
    default: dst[(*w)++] = (char)c; break;
    }
    return 2;
}

size_t sql_string_decode(char *dst, const char *src, const SqlToken *tok)
{
    const char *s = src + tok->off + 1;
    size_t n = tok->len - 2, w = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\\' && i + 1 < n)
            i += decode_escape(s + i, n - i, dst, &w);
        else
            dst[w++] = s[i++];
    }
    return w;
}

/* ----------------------------------------------------------- splitting */

bool sql_next_statement(const char *text, size_t len, size_t *end)
{
    SqlLexer lx;
    SqlToken tok;
    sql_lex_init(&lx, text, len);
    for (;;) {
        sql_lex_next(&lx, &tok);
        if (tok.kind == SQL_TK_SEMI) {
            *end = tok.off + 1;
            return true;
        }
        /* an open quote or comment swallows the rest: wait for more */
        if (tok.kind == SQL_TK_EOF || tok.kind == SQL_TK_ERROR)
            return false;
    }
}

bool sql_is_blank(const char *text, size_t len)
{
    SqlLexer lx;
    SqlToken tok;
    sql_lex_init(&lx, text, len);
    do
        sql_lex_next(&lx, &tok);
    while (tok.kind == SQL_TK_SEMI);
    return tok.kind == SQL_TK_EOF;
}
