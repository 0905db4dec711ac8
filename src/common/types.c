/*
 * types.c - type trees: building, copying, comparing, numbering columns in
 * pre-order, and the Hive type strings in both directions.
 */
#include "common/types.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *comb_type_name(CombTypeKind kind)
{
    switch (kind) {
    case COMB_T_BOOLEAN: return "boolean";
    case COMB_T_TINYINT: return "tinyint";
    case COMB_T_SMALLINT: return "smallint";
    case COMB_T_INT: return "int";
    case COMB_T_BIGINT: return "bigint";
    case COMB_T_FLOAT: return "float";
    case COMB_T_DOUBLE: return "double";
    case COMB_T_STRING: return "string";
    case COMB_T_BINARY: return "binary";
    case COMB_T_TIMESTAMP: return "timestamp";
    case COMB_T_LIST: return "array";
    case COMB_T_MAP: return "map";
    case COMB_T_STRUCT: return "struct";
    case COMB_T_UNION: return "uniontype";
    case COMB_T_DECIMAL: return "decimal";
    case COMB_T_DATE: return "date";
    case COMB_T_VARCHAR: return "varchar";
    case COMB_T_CHAR: return "char";
    case COMB_T_NULL: return "void";
    }
    return "unknown";
}

/* ------------------------------------------------------------- building */

CombType *comb_type_new(CombArena *a, CombTypeKind kind)
{
    CombType *t = comb_arena_calloc(a, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

CombType *comb_type_decimal(CombArena *a, uint32_t precision, uint32_t scale)
{
    CombType *t = comb_type_new(a, COMB_T_DECIMAL);
    if (t) {
        t->precision = precision;
        t->scale = scale;
    }
    return t;
}

CombType *comb_type_sized(CombArena *a, CombTypeKind kind, uint32_t length)
{
    CombType *t = comb_type_new(a, kind);
    if (t)
        t->max_length = length;
    return t;
}

/* Arrays in an arena cannot grow in place: copy into one slot larger. */
int comb_type_add_field(CombArena *a, CombType *t, const char *name,
                        CombType *child)
{
    size_t n = (size_t)t->n_children;
    CombType **kids = comb_arena_alloc(a, (n + 1) * sizeof *kids);
    char **names = comb_arena_alloc(a, (n + 1) * sizeof *names);
    char *copy = comb_arena_strdup(a, name ? name : "");
    if (!kids || !names || !copy)
        return COMB_ENOMEM;
    if (n) {
        memcpy(kids, t->children, n * sizeof *kids);
        memcpy(names, t->field_names, n * sizeof *names);
    }
    kids[n] = child;
    names[n] = copy;
    t->children = kids;
    t->field_names = names;
    t->n_children++;
    return COMB_OK;
}

CombType *comb_type_copy(CombArena *a, const CombType *t)
{
    CombType *c = comb_type_new(a, t->kind);
    if (!c)
        return NULL;
    c->id = t->id;
    c->max_id = t->max_id;
    c->max_length = t->max_length;
    c->precision = t->precision;
    c->scale = t->scale;
    for (int i = 0; i < t->n_children; i++) {
        CombType *kid = comb_type_copy(a, t->children[i]);
        const char *name = t->field_names ? t->field_names[i] : NULL;
        if (!kid || comb_type_add_field(a, c, name, kid))
            return NULL;
    }
    return c;
}

bool comb_type_equal(const CombType *a, const CombType *b)
{
    if (a->kind != b->kind || a->n_children != b->n_children ||
        a->max_length != b->max_length || a->precision != b->precision ||
        a->scale != b->scale)
        return false;
    for (int i = 0; i < a->n_children; i++) {
        if (a->kind == COMB_T_STRUCT &&
            strcmp(a->field_names[i], b->field_names[i]) != 0)
            return false;
        if (!comb_type_equal(a->children[i], b->children[i]))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ column ids */

static int assign_from(CombType *t, int next)
{
    t->id = next++;
    for (int i = 0; i < t->n_children; i++)
        next = assign_from(t->children[i], next);
    t->max_id = next - 1;
    return next;
}

int comb_type_assign_ids(CombType *root)
{
    return assign_from(root, 0);
}

const CombType *comb_type_child_toward(const CombType *t, int id)
{
    /* pre-order ids: a subtree holds the contiguous range id..max_id */
    for (int i = 0; i < t->n_children; i++)
        if (id >= t->children[i]->id && id <= t->children[i]->max_id)
            return t->children[i];
    return NULL;
}

const CombType *comb_type_find(const CombType *root, int id)
{
    const CombType *t = root;
    while (t && t->id != id) {
        if (id < t->id || id > t->max_id)
            return NULL;
        t = comb_type_child_toward(t, id);
    }
    return t;
}

void comb_type_kinds(const CombType *root, CombTypeKind *kinds)
{
    kinds[root->id] = root->kind;
    for (int i = 0; i < root->n_children; i++)
        comb_type_kinds(root->children[i], kinds);
}

/* -------------------------------------------------------------- printing */

int comb_type_format(const CombType *t, CombBuf *out)
{
    int rc = COMB_OK;
    switch (t->kind) {
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return comb_buf_printf(out, "%s(%u)", comb_type_name(t->kind),
                               t->max_length);
    case COMB_T_DECIMAL:
        return comb_buf_printf(out, "decimal(%u,%u)", t->precision, t->scale);
    case COMB_T_STRUCT:
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_UNION:
        break;
    default:
        return comb_buf_append_str(out, comb_type_name(t->kind));
    }
    rc = comb_buf_printf(out, "%s<", comb_type_name(t->kind));
    for (int i = 0; i < t->n_children && !rc; i++) {
        if (i)
            rc = comb_buf_append_byte(out, ',');
        if (!rc && t->kind == COMB_T_STRUCT)
            rc = comb_buf_printf(out, "%s:", t->field_names[i]);
        if (!rc)
            rc = comb_type_format(t->children[i], out);
    }
    return rc ? rc : comb_buf_append_byte(out, '>');
}

char *comb_type_string(CombArena *a, const CombType *t)
{
    CombBuf b = COMB_BUF_INIT;
    char *s = NULL;
    if (!comb_type_format(t, &b))
        s = comb_arena_strndup(a, b.data ? (const char *)b.data : "", b.len);
    comb_buf_free(&b);
    return s;
}

/* --------------------------------------------------------------- parsing */

typedef struct TypeParser {
    CombArena *a;
    const char *s;
    size_t n, pos;
    CombErr *err;
} TypeParser;

static void tp_skip_space(TypeParser *p)
{
    while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                             p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int tp_error(TypeParser *p, const char *what)
{
    return comb_err(p->err, COMB_EINVALID,
                    "bad type '%.*s': %s at position %zu",
                    (int)(p->n > 200 ? 200 : p->n), p->s, what, p->pos);
}

static bool tp_accept(TypeParser *p, char c)
{
    tp_skip_space(p);
    if (p->pos < p->n && p->s[p->pos] == c) {
        p->pos++;
        return true;
    }
    return false;
}

static int tp_expect(TypeParser *p, char c)
{
    char what[32];
    if (tp_accept(p, c))
        return COMB_OK;
    snprintf(what, sizeof what, "expected '%c'", c);
    return tp_error(p, what);
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Hive's isTypeChar, with every non-ASCII byte a letter. */
static bool is_field_name_char(char c)
{
    return is_word_char(c) || c == '.' || c == '$' || c == ' ' ||
           (unsigned char)c >= 0x80;
}

bool comb_type_field_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || name[0] == ' ' || name[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!is_field_name_char(name[i]))
            return false;
    return true;
}

/* A run of the characters `ok` accepts (a type name, or a field name
 * without its trailing spaces). */
static size_t tp_run(TypeParser *p, bool (*ok)(char), const char **w)
{
    size_t start, end;
    tp_skip_space(p);
    start = p->pos;
    while (p->pos < p->n && ok(p->s[p->pos]))
        p->pos++;
    end = p->pos;
    while (end > start && p->s[end - 1] == ' ')
        end--;
    *w = p->s + start;
    return end - start;
}

static size_t tp_word(TypeParser *p, const char **w)
{
    return tp_run(p, is_word_char, w);
}

static int tp_number(TypeParser *p, uint32_t lo, uint32_t hi, const char *what,
                     uint32_t *out)
{
    uint64_t v = 0;
    size_t start;
    char msg[96];
    tp_skip_space(p);
    start = p->pos;
    while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9' &&
           v <= 1000000)
        v = v * 10 + (uint64_t)(p->s[p->pos++] - '0');
    if (p->pos == start)
        return tp_error(p, "expected a number");
    if (v < lo || v > hi) {
        snprintf(msg, sizeof msg, "%s must be between %u and %u", what, lo, hi);
        return tp_error(p, msg);
    }
    *out = (uint32_t)v;
    return COMB_OK;
}

static bool word_is(const char *w, size_t n, const char *name)
{
    return strlen(name) == n && strncasecmp(w, name, n) == 0;
}

static int tp_type(TypeParser *p, int depth, CombType **out);

/* decimal[(p[,s])], char(n), varchar(n) */
static int tp_params(TypeParser *p, CombType *t)
{
    int rc;
    if (t->kind == COMB_T_DECIMAL) {
        t->precision = COMB_DEFAULT_DECIMAL_PRECISION;
        t->scale = 0;
        if (!tp_accept(p, '('))
            return COMB_OK;
        if ((rc = tp_number(p, 1, COMB_MAX_DECIMAL_PRECISION,
                            "decimal precision", &t->precision)))
            return rc;
        if (tp_accept(p, ',') &&
            (rc = tp_number(p, 0, t->precision, "decimal scale", &t->scale)))
            return rc;
        return tp_expect(p, ')');
    }
    if ((rc = tp_expect(p, '(')) ||
        (rc = tp_number(p, 1, t->kind == COMB_T_CHAR ? COMB_MAX_CHAR : COMB_MAX_VARCHAR,
                        t->kind == COMB_T_CHAR ? "char length" : "varchar length",
                        &t->max_length)))
        return rc;
    return tp_expect(p, ')');
}

/* <T,...>: array one, map two, uniontype one or more, struct name:T. */
static int tp_parts(TypeParser *p, int depth, CombType *t)
{
    int rc = tp_expect(p, '<');
    while (!rc) {
        const char *name = NULL;
        size_t nlen = 0;
        CombType *kid;
        char *fname = NULL;
        if (t->kind == COMB_T_STRUCT) {
            if (!(nlen = tp_run(p, is_field_name_char, &name)))
                return tp_error(p, "expected a field name");
            if ((rc = tp_expect(p, ':')))
                return rc;
            if (!(fname = comb_arena_strndup(p->a, name, nlen)))
                return comb_err_nomem(p->err);
            for (size_t i = 0; i < nlen; i++)
                if (fname[i] >= 'A' && fname[i] <= 'Z')
                    fname[i] = (char)(fname[i] - 'A' + 'a');
        }
        if ((rc = tp_type(p, depth + 1, &kid)) ||
            (rc = comb_type_add_field(p->a, t, fname, kid)))
            return rc == COMB_ENOMEM ? comb_err_nomem(p->err) : rc;
        if (!tp_accept(p, ','))
            break;
    }
    if (rc || (rc = tp_expect(p, '>')))
        return rc;
    if ((t->kind == COMB_T_LIST && t->n_children != 1) ||
        (t->kind == COMB_T_MAP && t->n_children != 2))
        return tp_error(p, t->kind == COMB_T_LIST ? "array takes one type"
                                                  : "map takes two types");
    return COMB_OK;
}

static const struct {
    const char *name;
    CombTypeKind kind;
} type_names[] = {
    {"boolean", COMB_T_BOOLEAN}, {"tinyint", COMB_T_TINYINT},
    {"smallint", COMB_T_SMALLINT}, {"int", COMB_T_INT},
    {"integer", COMB_T_INT}, {"bigint", COMB_T_BIGINT},
    {"float", COMB_T_FLOAT}, {"double", COMB_T_DOUBLE},
    {"string", COMB_T_STRING}, {"binary", COMB_T_BINARY},
    {"date", COMB_T_DATE}, {"timestamp", COMB_T_TIMESTAMP},
    {"decimal", COMB_T_DECIMAL}, {"char", COMB_T_CHAR},
    {"varchar", COMB_T_VARCHAR}, {"array", COMB_T_LIST},
    {"map", COMB_T_MAP}, {"struct", COMB_T_STRUCT},
    {"uniontype", COMB_T_UNION}, {"void", COMB_T_NULL},
};

static int tp_type(TypeParser *p, int depth, CombType **out)
{
    const char *w;
    size_t n;
    CombType *t;
    if (depth > COMB_MAX_TYPE_DEPTH)
        return tp_error(p, "types nested too deeply");
    if (!(n = tp_word(p, &w)))
        return tp_error(p, "expected a type name");
    size_t k = 0, n_names = sizeof type_names / sizeof type_names[0];
    while (k < n_names && !word_is(w, n, type_names[k].name))
        k++;
    if (k == n_names)
        return tp_error(p, "unknown type");
    if (!(t = comb_type_new(p->a, type_names[k].kind)))
        return comb_err_nomem(p->err);
    /* DOUBLE PRECISION is DOUBLE */
    if (t->kind == COMB_T_DOUBLE) {
        size_t save = p->pos;
        const char *w2;
        size_t n2 = tp_word(p, &w2);
        if (!word_is(w2, n2, "precision"))
            p->pos = save;
    }
    *out = t;
    switch (t->kind) {
    case COMB_T_DECIMAL:
    case COMB_T_CHAR:
    case COMB_T_VARCHAR:
        return tp_params(p, t);
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_STRUCT:
    case COMB_T_UNION:
        return tp_parts(p, depth, t);
    default:
        return COMB_OK;
    }
}

int comb_type_parse(CombArena *a, const char *s, size_t len, CombType **out,
                    CombErr *err)
{
    TypeParser p = {a, s, len, 0, err};
    int rc = tp_type(&p, 0, out);
    if (rc)
        return rc;
    tp_skip_space(&p);
    if (p.pos != p.n)
        return tp_error(&p, "unexpected text after the type");
    return COMB_OK;
}
