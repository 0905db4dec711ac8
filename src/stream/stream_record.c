/*
 * stream_record.c - records of an ingest stream into batch rows
 * (stream_record.h has the formats and rules).
 *
 * Every format ends in put_value(), which turns one field's text into a
 * value of its column with common/textval.h (Hive's text rules) and makes
 * a refusal an error naming the line and the column.  Text that needs no
 * change (no escapes, no quotes) is converted in place; text that does is
 * first decoded into the parser's scratch buffer.  Strings are copied into
 * the batch's arena, so callers may reuse their read buffer at once.
 */
#include "stream/stream_record.h"

#include <string.h>

#include "common/alloc.h"
#include "common/arena.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/textval.h"

/* Bytes of a bad value shown in an error message. */
#define SHOW_MAX 60
/* Nesting of JSON values skipped in members that match no column. */
#define JSON_MAX_DEPTH 64

struct StreamRecordParser {
    StreamRecordFormat format;
    unsigned char delim;        /* field separator of the text formats */
    int n;                      /* fields */
    char **names;               /* column names, lower case (JSON keys) */
    size_t *name_len;
    const CombType **types;     /* copies, in arena */
    char **type_names;          /* "DECIMAL(10,2)", for messages */
    CombBuf scratch;            /* one decoded field (escapes removed) */
    CombBuf key;                /* one decoded JSON member name */
    uint8_t *seen;              /* JSON: fields given by the record */
    bool oom;                   /* a scratch buffer could not grow */
    CombArena arena;            /* names, types: the parser's lifetime */
};

/* What a record's parse needs in its helpers. */
typedef struct Rec {
    StreamRecordParser *p;
    uint64_t line;
    CombBatch *b;
    int row;
    CombErr *err;
} Rec;

bool stream_record_format_parse(const char *name, StreamRecordFormat *out)
{
    static const struct { const char *name; StreamRecordFormat f; } names[] = {
        {"csv", STREAM_REC_CSV}, {"tsv", STREAM_REC_TSV},
        {"delimited", STREAM_REC_DELIMITED}, {"json", STREAM_REC_JSON}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (comb_textval_word((const unsigned char *)name, strlen(name),
                              names[i].name)) {
            *out = names[i].f;
            return true;
        }
    return false;
}

int stream_record_n_fields(const StreamRecordParser *p)
{
    return p->n;
}

/* ------------------------------------------------------------ set-up */

static char *upper_type_name(CombArena *a, const CombType *t)
{
    char *s = comb_type_string(a, t);
    for (char *c = s; c && *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c -= 32;
    return s;
}

static int parser_columns(StreamRecordParser *p, const char *const *names,
                          const CombType *const *types, CombErr *err)
{
    CombArena *a = &p->arena;
    p->names = comb_arena_calloc(a, sizeof *p->names * (size_t)p->n);
    p->name_len = comb_arena_calloc(a, sizeof *p->name_len * (size_t)p->n);
    p->types = comb_arena_calloc(a, sizeof *p->types * (size_t)p->n);
    p->type_names = comb_arena_calloc(a, sizeof *p->type_names * (size_t)p->n);
    p->seen = comb_arena_calloc(a, (size_t)p->n);
    if (!p->names || !p->name_len || !p->types || !p->type_names || !p->seen)
        return comb_err_nomem(err);
    for (int i = 0; i < p->n; i++) {
        if (!comb_type_is_primitive(types[i]->kind))
            return comb_err(err, COMB_EUNSUPPORTED, "column %s: %s columns "
                            "cannot be streamed from text or JSON records",
                            names[i], comb_type_name(types[i]->kind));
        p->names[i] = comb_arena_strdup(a, names[i]);
        p->types[i] = comb_type_copy(a, types[i]);
        if (!p->names[i] || !p->types[i] ||
            !(p->type_names[i] = upper_type_name(a, types[i])))
            return comb_err_nomem(err);
        for (char *c = p->names[i]; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c += 32;
        p->name_len[i] = strlen(p->names[i]);
    }
    return COMB_OK;
}

int stream_record_parser_new(StreamRecordFormat format, char delimiter,
                             int n_fields, const char *const *names,
                             const CombType *const *types,
                             StreamRecordParser **out, CombErr *err)
{
    StreamRecordParser *p;
    int rc;
    *out = NULL;
    if (n_fields < 1)
        return comb_err(err, COMB_EINVALID, "a record needs one field at "
                        "least");
    if ((format == STREAM_REC_DELIMITED ||
         (format == STREAM_REC_CSV && delimiter)) &&
        (delimiter == '\n' || delimiter == '\r' || delimiter == '\\' ||
         delimiter == '"' || delimiter == '\0'))
        return comb_err(err, COMB_EINVALID, "a field delimiter cannot be a "
                        "line end, a backslash, a quote or NUL");
    if (!(p = comb_calloc(1, sizeof *p)))
        return comb_err_nomem(err);
    p->format = format;
    p->delim = format == STREAM_REC_CSV ? (delimiter ? (unsigned char)delimiter
                                                     : ',')
               : format == STREAM_REC_DELIMITED ? (unsigned char)delimiter
                                                 : '\t';
    p->n = n_fields;
    comb_arena_init(&p->arena, 4096);
    if ((rc = parser_columns(p, names, types, err))) {
        stream_record_parser_free(p);
        return rc;
    }
    *out = p;
    return COMB_OK;
}

void stream_record_parser_free(StreamRecordParser *p)
{
    if (!p)
        return;
    comb_buf_free(&p->scratch);
    comb_buf_free(&p->key);
    comb_arena_free(&p->arena);
    comb_free(p);
}

/* Append to a scratch buffer; a failure is remembered and reported once
 * the record is parsed. */
static void add(StreamRecordParser *p, CombBuf *b, const void *s, size_t n)
{
    if (n > 0 && comb_buf_append(b, s, n))
        p->oom = true;
}

/* ------------------------------------------------------------ framing */

/* Quotes in s[0..n): their parity says whether a CSV line end is inside
 * a quoted field ("" counts twice, so it never flips it). */
static size_t count_quotes(const char *s, size_t n)
{
    size_t k = 0;
    const char *e = s + n;
    while ((s = memchr(s, '"', (size_t)(e - s)))) {
        k++;
        s++;
    }
    return k;
}

bool stream_record_split(const StreamRecordParser *p, const char *buf,
                         size_t n, bool at_eof, size_t *len, size_t *used,
                         int *lines)
{
    size_t pos = 0, quotes = 0;
    int nl = 0;
    for (;;) {
        const char *e = pos < n ? memchr(buf + pos, '\n', n - pos) : NULL;
        size_t end = e ? (size_t)(e - buf) : n;
        if (p->format == STREAM_REC_CSV)
            quotes += count_quotes(buf + pos, end - pos);
        if (!e) {
            if (!at_eof || n == 0)
                return false;
            *len = n > 0 && buf[n - 1] == '\r' && quotes % 2 == 0 ? n - 1 : n;
            *used = n;
            *lines = nl;
            return true;
        }
        nl++;
        if (quotes % 2 == 0) {
            *len = end > 0 && buf[end - 1] == '\r' ? end - 1 : end;
            *used = end + 1;
            *lines = nl;
            return true;
        }
        pos = end + 1;   /* a line end inside a quoted CSV field */
    }
}

/* ------------------------------------------------------------- values */

static void set_null(CombVector *v, int row)
{
    if (!v->has_nulls)
        comb_vec_nulls_materialize(v, row);
    v->nulls[row] = 1;
}

/* "'x1'" for a message: the text cut to SHOW_MAX bytes. */
static int bad_value(Rec *r, int i, const char *s, size_t n, const char *why)
{
    int show = (int)(n > SHOW_MAX ? SHOW_MAX : n);
    return comb_err(r->err, COMB_EINVALID, "line %llu: column %s: '%.*s%s' "
                    "is not %s %s%s%s", (unsigned long long)r->line,
                    r->p->names[i], show, s, n > SHOW_MAX ? "..." : "",
                    strchr("AEIOU", r->p->type_names[i][0]) ? "an" : "a",
                    r->p->type_names[i], *why ? " " : "", why);
}

static int copy_str(Rec *r, const char *s, size_t n, CombStr *out)
{
    char *d;
    if (n > UINT32_MAX)
        return comb_err(r->err, COMB_EINVALID, "line %llu: a value of %zu "
                        "bytes is too long", (unsigned long long)r->line, n);
    if (n == 0) {
        *out = (CombStr){"", 0};
        return COMB_OK;
    }
    if (!(d = comb_arena_alloc(&r->b->arena, n)))
        return comb_err_nomem(r->err);
    memcpy(d, s, n);
    *out = (CombStr){d, (uint32_t)n};
    return COMB_OK;
}

/* Integers are whole: "1.5" would lose its fraction silently. */
static bool has_fraction(const char *s, size_t n)
{
    return memchr(s, '.', n) != NULL;
}

/* Field i's text s[0..n) into its column at the record's row. */
static int put_value(Rec *r, int i, const char *s, size_t n)
{
    const CombType *t = r->p->types[i];
    CombVector *v = &r->b->cols[i];
    int row = r->row, rc;
    unsigned char *d;
    size_t dn;
    switch (t->kind) {
    case COMB_T_STRING:
        rc = copy_str(r, s, n, &v->str[row]);
        break;
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        rc = copy_str(r, s, n, &v->str[row]);
        if (!rc && comb_textval_sized(t, (const unsigned char *)v->str[row].ptr,
                                      v->str[row].len, &r->b->arena,
                                      &v->str[row]))
            rc = comb_err_nomem(r->err);
        break;
    case COMB_T_BINARY:
        if (!(d = comb_arena_alloc(&r->b->arena, n / 4 * 3 + 3)))
            return comb_err_nomem(r->err);
        if (!comb_base64_decode(s, n, d, &dn))
            return bad_value(r, i, s, n, "(Base64)");
        v->str[row] = (CombStr){(const char *)d, (uint32_t)dn};
        rc = COMB_OK;
        break;
    default:
        if ((comb_type_is_int(t->kind) && t->kind != COMB_T_DATE &&
             has_fraction(s, n)) ||
            !comb_textval_read(t, s, n, true, v, row))
            return bad_value(r, i, s, n, "");
        rc = COMB_OK;
    }
    if (!rc)
        comb_vec_set_not_null(v, row);
    return rc;
}

/* A text field that is empty or the NULL marker: NULL or a value. */
static int put_text(Rec *r, int i, const char *s, size_t n, bool may_be_null)
{
    CombTypeKind k = r->p->types[i]->kind;
    if (n == 0 && (may_be_null || !comb_type_is_str(k))) {
        set_null(&r->b->cols[i], r->row);
        return COMB_OK;
    }
    return put_value(r, i, s, n);
}

static int field_count(Rec *r, int got)
{
    CombBuf list = COMB_BUF_INIT;
    int rc;
    for (int i = 0; i < r->p->n; i++)
        if (comb_buf_append(&list, ", ", i ? 2 : 0) ||
            comb_buf_append(&list, r->p->names[i], r->p->name_len[i]))
            break;
    rc = comb_err(r->err, COMB_EINVALID, "line %llu: %d field%s, expected "
                  "%d (%.*s)", (unsigned long long)r->line, got,
                  got == 1 ? "" : "s", r->p->n, (int)list.len,
                  list.data ? (const char *)list.data : "");
    comb_buf_free(&list);
    return rc;
}

/* ------------------------------------------------------ TSV, DELIMITED */

/* Decode an escaped field starting at s, up to the first unescaped
 * delimiter or e, into the scratch buffer; returns where it stopped. */
static const char *unescape_field(StreamRecordParser *p, const char *s,
                                  const char *e)
{
    p->scratch.len = 0;
    while (s < e && (unsigned char)*s != p->delim) {
        char c = *s++;
        if (c == '\\' && s < e) {
            c = *s++;
            c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r'
                : c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'v' ? '\v' : c;
        }
        add(p, &p->scratch, &c, 1);
    }
    return s;
}

static int parse_delimited(Rec *r, const char *s, size_t n)
{
    StreamRecordParser *p = r->p;
    const char *e = s + n;
    int i = 0, rc;
    for (;;) {
        const char *f = s, *end = memchr(s, p->delim, (size_t)(e - s));
        if (!end)
            end = e;
        if (memchr(f, '\\', (size_t)(end - f))) {
            bool null = end - f == 2 && f[0] == '\\' && f[1] == 'N';
            end = unescape_field(p, f, e);
            if (p->oom)
                return comb_err_nomem(r->err);
            if (i < p->n && null)
                set_null(&r->b->cols[i], r->row);
            else if (i < p->n &&
                     (rc = put_text(r, i, (const char *)p->scratch.data,
                                    p->scratch.len, false)))
                return rc;
        } else if (i < p->n && (rc = put_text(r, i, f, (size_t)(end - f),
                                              false))) {
            return rc;
        }
        i++;
        if (end >= e)
            break;
        s = end + 1;
    }
    return i == p->n ? COMB_OK : field_count(r, i);
}

/* ---------------------------------------------------------------- CSV */

static int csv_error(Rec *r, int i, const char *what)
{
    return comb_err(r->err, COMB_EINVALID, "line %llu: field %d: %s",
                    (unsigned long long)r->line, i + 1, what);
}

/* A quoted field at s (on its opening quote): decoded into scratch; *next
 * is the byte after the closing quote. */
static int csv_quoted(Rec *r, int i, const char *s, const char *e,
                      const char **next)
{
    StreamRecordParser *p = r->p;
    p->scratch.len = 0;
    s++;
    for (;;) {
        const char *q = memchr(s, '"', (size_t)(e - s));
        if (!q)
            return csv_error(r, i, "a quoted field does not end (a '\"' "
                             "is missing)");
        add(p, &p->scratch, s, (size_t)(q - s));
        if (q + 1 < e && q[1] == '"') {
            add(p, &p->scratch, "\"", 1);
            s = q + 2;
            continue;
        }
        if (p->oom)
            return comb_err_nomem(r->err);
        *next = q + 1;
        if (*next < e && (unsigned char)**next != p->delim)
            return csv_error(r, i, p->delim == ','
                                       ? "a closing '\"' must be followed by "
                                         "',' or the end of the record"
                                       : "a closing '\"' must be followed by "
                                         "the delimiter or the end of the "
                                         "record");
        return COMB_OK;
    }
}

static int parse_csv(Rec *r, const char *s, size_t n)
{
    StreamRecordParser *p = r->p;
    const char *e = s + n;
    int i = 0, rc;
    for (;;) {
        const char *end = e;
        if (s < e && *s == '"') {
            if ((rc = csv_quoted(r, i, s, e, &end)))
                return rc;
            if (i < p->n && (rc = put_text(r, i, p->scratch.data ?
                                           (const char *)p->scratch.data : "",
                                           p->scratch.len, false)))
                return rc;
        } else {
            if (!(end = memchr(s, p->delim, (size_t)(e - s))))
                end = e;
            if (memchr(s, '"', (size_t)(end - s)))
                return csv_error(r, i, "a '\"' inside an unquoted field "
                                 "(quote the whole field and double the "
                                 "quote)");
            if (i < p->n && (rc = put_text(r, i, s, (size_t)(end - s), true)))
                return rc;
        }
        i++;
        if (end >= e)
            break;
        s = end + 1;
    }
    return i == p->n ? COMB_OK : field_count(r, i);
}

/* --------------------------------------------------------------- JSON */

typedef struct Json {
    Rec *r;
    const char *s, *e, *start;
} Json;

static int json_error(Json *j, const char *what)
{
    return comb_err(j->r->err, COMB_EINVALID, "line %llu: not a JSON object "
                    "per line: %s at byte %zu", (unsigned long long)j->r->line,
                    what, (size_t)(j->s - j->start) + 1);
}

static void json_ws(Json *j)
{
    while (j->s < j->e && (*j->s == ' ' || *j->s == '\t' || *j->s == '\r' ||
                           *j->s == '\n'))
        j->s++;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if ((c | 32) >= 'a' && (c | 32) <= 'f')
            v |= (unsigned)((c | 32) - 'a' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static void put_utf8(StreamRecordParser *p, CombBuf *b, unsigned cp)
{
    char u[4];
    size_t k;
    if (cp < 0x80) {
        u[0] = (char)cp;
        k = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3F));
        k = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        k = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        k = 4;
    }
    add(p, b, u, k);
}

/* \uXXXX at j->s (after the 'u'), a surrogate pair as one character; a
 * lone surrogate becomes U+FFFD as Java's UTF-8 encoder writes it. */
static int json_unicode(Json *j, CombBuf *out)
{
    unsigned cp, lo;
    if (j->e - j->s < 4 || hex4(j->s, &cp))
        return json_error(j, "a \\u escape needs four hex digits");
    j->s += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF && j->e - j->s >= 6 && j->s[0] == '\\' &&
        j->s[1] == 'u' && !hex4(j->s + 2, &lo) && lo >= 0xDC00 &&
        lo <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        j->s += 6;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        cp = 0xFFFD;
    }
    put_utf8(j->r->p, out, cp);
    return COMB_OK;
}

/* A string at j->s (on its '"'): *out and *n are its bytes, in place when it
 * has no escapes, else decoded into buf. */
static int json_string(Json *j, CombBuf *buf, const char **out, size_t *n)
{
    const char *s = ++j->s, *q;
    int rc;
    while (j->s < j->e && *j->s != '"' && *j->s != '\\')
        j->s++;
    if (j->s < j->e && *j->s == '"') {
        *out = s;
        *n = (size_t)(j->s++ - s);
        return COMB_OK;
    }
    buf->len = 0;
    add(j->r->p, buf, s, (size_t)(j->s - s));
    while (j->s < j->e && *j->s != '"') {
        if ((unsigned char)*j->s < 0x20)
            return json_error(j, "a control character inside a string");
        if (*j->s != '\\') {
            q = j->s;
            while (j->s < j->e && *j->s != '"' && *j->s != '\\' &&
                   (unsigned char)*j->s >= 0x20)
                j->s++;
            add(j->r->p, buf, q, (size_t)(j->s - q));
            continue;
        }
        if (++j->s >= j->e)
            break;
        switch (*j->s++) {
        case '"': add(j->r->p, buf, "\"", 1); break;
        case '\\': add(j->r->p, buf, "\\", 1); break;
        case '/': add(j->r->p, buf, "/", 1); break;
        case 'b': add(j->r->p, buf, "\b", 1); break;
        case 'f': add(j->r->p, buf, "\f", 1); break;
        case 'n': add(j->r->p, buf, "\n", 1); break;
        case 'r': add(j->r->p, buf, "\r", 1); break;
        case 't': add(j->r->p, buf, "\t", 1); break;
        case 'u':
            if ((rc = json_unicode(j, buf)))
                return rc;
            break;
        default:
            j->s--;
            return json_error(j, "an unknown escape in a string");
        }
    }
    if (j->s >= j->e)
        return json_error(j, "a string does not end");
    j->s++;
    if (j->r->p->oom)
        return comb_err_nomem(j->r->err);
    *out = buf->data ? (const char *)buf->data : "";
    *n = buf->len;
    return COMB_OK;
}

/* The field whose name is s[0..n) in any case, or -1; tries `hint` (the
 * field after the previous member's) first, as records mostly keep the
 * columns' order. */
static int json_field(StreamRecordParser *p, const char *s, size_t n, int hint)
{
    for (int k = 0; k < p->n; k++) {
        int i = (hint + k) % p->n;
        const char *name = p->names[i];
        size_t m;
        if (p->name_len[i] != n)
            continue;
        for (m = 0; m < n; m++) {
            char c = s[m] >= 'A' && s[m] <= 'Z' ? (char)(s[m] + 32) : s[m];
            if (c != name[m])
                break;
        }
        if (m == n)
            return i;
    }
    return -1;
}

static bool json_word(Json *j, const char *w)
{
    size_t k = strlen(w);
    if ((size_t)(j->e - j->s) < k || memcmp(j->s, w, k) != 0)
        return false;
    j->s += k;
    return true;
}

/* The text of a number at j->s, as JSON writes it. */
static int json_number(Json *j, const char **out, size_t *n)
{
    const char *s = j->s;
    if (j->s < j->e && *j->s == '-')
        j->s++;
    if (j->s >= j->e || *j->s < '0' || *j->s > '9')
        return json_error(j, "not a value");
    while (j->s < j->e && ((*j->s >= '0' && *j->s <= '9') || *j->s == '.' ||
                           *j->s == 'e' || *j->s == 'E' || *j->s == '+' ||
                           *j->s == '-'))
        j->s++;
    *out = s;
    *n = (size_t)(j->s - s);
    return COMB_OK;
}

static int json_skip(Json *j, int depth);

/* Skip an object or array (of a member that matches no column). */
static int json_skip_nested(Json *j, int depth)
{
    char close = *j->s == '{' ? '}' : ']';
    int rc;
    if (depth > JSON_MAX_DEPTH)
        return json_error(j, "values nested too deep");
    j->s++;
    json_ws(j);
    if (j->s < j->e && *j->s == close) {
        j->s++;
        return COMB_OK;
    }
    for (;;) {
        json_ws(j);
        if (close == '}') {
            const char *k;
            size_t kn;
            if (j->s >= j->e || *j->s != '"')
                return json_error(j, "expected a member name");
            if ((rc = json_string(j, &j->r->p->key, &k, &kn)))
                return rc;
            json_ws(j);
            if (j->s >= j->e || *j->s != ':')
                return json_error(j, "expected ':'");
            j->s++;
        }
        if ((rc = json_skip(j, depth + 1)))
            return rc;
        json_ws(j);
        if (j->s < j->e && *j->s == ',') {
            j->s++;
            continue;
        }
        if (j->s < j->e && *j->s == close) {
            j->s++;
            return COMB_OK;
        }
        return json_error(j, close == '}' ? "expected ',' or '}'"
                                          : "expected ',' or ']'");
    }
}

static int json_skip(Json *j, int depth)
{
    const char *s;
    size_t n;
    json_ws(j);
    if (j->s >= j->e)
        return json_error(j, "a value is missing");
    if (*j->s == '"')
        return json_string(j, &j->r->p->scratch, &s, &n);
    if (*j->s == '{' || *j->s == '[')
        return json_skip_nested(j, depth);
    if (json_word(j, "true") || json_word(j, "false") || json_word(j, "null"))
        return COMB_OK;
    return json_number(j, &s, &n);
}

/* The value of member i at j->s into field i (i < 0: skipped). */
static int json_value(Json *j, int i)
{
    Rec *r = j->r;
    const char *s;
    size_t n;
    int rc;
    if (i < 0)
        return json_skip(j, 0);
    json_ws(j);
    if (j->s >= j->e)
        return json_error(j, "a value is missing");
    if (*j->s == '"') {
        if ((rc = json_string(j, &r->p->scratch, &s, &n)))
            return rc;
        if (n == 0 && !comb_type_is_str(r->p->types[i]->kind)) {
            set_null(&r->b->cols[i], r->row);
            return COMB_OK;
        }
        return put_value(r, i, s, n);
    }
    if (*j->s == '{' || *j->s == '[')
        return comb_err(r->err, COMB_EINVALID, "line %llu: column %s: a JSON "
                        "%s is not %s %s", (unsigned long long)r->line,
                        r->p->names[i], *j->s == '{' ? "object" : "array",
                        strchr("AEIOU", r->p->type_names[i][0]) ? "an" : "a",
                        r->p->type_names[i]);
    if (json_word(j, "null")) {
        set_null(&r->b->cols[i], r->row);
        return COMB_OK;
    }
    s = j->s;
    if (json_word(j, "true") || json_word(j, "false"))
        return put_value(r, i, s, (size_t)(j->s - s));
    if ((rc = json_number(j, &s, &n)))
        return rc;
    return put_value(r, i, s, n);
}

static int parse_json(Rec *r, const char *s, size_t n)
{
    StreamRecordParser *p = r->p;
    Json j = {r, s, s + n, s};
    int hint = 0, rc;
    memset(p->seen, 0, (size_t)p->n);
    json_ws(&j);
    if (j.s >= j.e || *j.s != '{')
        return json_error(&j, "expected '{'");
    j.s++;
    json_ws(&j);
    if (j.s < j.e && *j.s == '}') {
        j.s++;
    } else {
        for (;;) {
            const char *k;
            size_t kn;
            int i;
            json_ws(&j);
            if (j.s >= j.e || *j.s != '"')
                return json_error(&j, "expected a member name");
            if ((rc = json_string(&j, &p->key, &k, &kn)))
                return rc;
            json_ws(&j);
            if (j.s >= j.e || *j.s != ':')
                return json_error(&j, "expected ':'");
            j.s++;
            i = json_field(p, k, kn, hint);
            if ((rc = json_value(&j, i)))
                return rc;
            if (i >= 0) {
                p->seen[i] = 1;
                hint = i + 1;
            }
            json_ws(&j);
            if (j.s < j.e && *j.s == ',') {
                j.s++;
                continue;
            }
            if (j.s < j.e && *j.s == '}') {
                j.s++;
                break;
            }
            return json_error(&j, "expected ',' or '}'");
        }
    }
    json_ws(&j);
    if (j.s < j.e)
        return json_error(&j, "text after the object");
    for (int i = 0; i < p->n; i++)
        if (!p->seen[i])
            set_null(&r->b->cols[i], r->row);
    return COMB_OK;
}

/* ---------------------------------------------------------------- all */

int stream_record_parse(StreamRecordParser *p, const char *rec, size_t n,
                        uint64_t line, CombBatch *b, int row, CombErr *err)
{
    Rec r = {p, line, b, row, err};
    int rc;
    p->oom = false;
    if (n == 0)
        return 0;
    if (b->n_cols < p->n || row < 0 || row >= b->capacity)
        return -COMB_INTERNAL(err, "record batch does not match the parser");
    switch (p->format) {
    case STREAM_REC_CSV:
        rc = parse_csv(&r, rec, n);
        break;
    case STREAM_REC_JSON:
        rc = parse_json(&r, rec, n);
        break;
    default:
        rc = parse_delimited(&r, rec, n);
    }
    return rc ? -rc : 1;
}
