/*
 * acid_test_util.c - see acid_test_util.h.
 */
#include "acid_test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "common/datetime.h"
#include "fs/fs.h"

/* ------------------------------------------------------------------ JSON */

typedef struct JsonParser {
    const char *p;
    const char *end;
    CombArena *a;
} JsonParser;

static void skip_ws(JsonParser *jp)
{
    while (jp->p < jp->end &&
           (*jp->p == ' ' || *jp->p == '\n' || *jp->p == '\r' || *jp->p == '\t'))
        jp->p++;
}

static JsonNode *parse_value(JsonParser *jp);

static JsonNode *new_node(JsonParser *jp, JsonKind kind)
{
    JsonNode *n = comb_arena_calloc(jp->a, sizeof *n);
    if (n)
        n->kind = kind;
    return n;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Encode a code point as UTF-8 (surrogates are not expected here). */
static void put_utf8(CombBuf *b, unsigned cp)
{
    if (cp < 0x80) {
        comb_buf_append_byte(b, (unsigned char)cp);
    } else if (cp < 0x800) {
        comb_buf_append_byte(b, (unsigned char)(0xC0 | cp >> 6));
        comb_buf_append_byte(b, (unsigned char)(0x80 | (cp & 0x3F)));
    } else {
        comb_buf_append_byte(b, (unsigned char)(0xE0 | cp >> 12));
        comb_buf_append_byte(b, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
        comb_buf_append_byte(b, (unsigned char)(0x80 | (cp & 0x3F)));
    }
}

static char *parse_string_raw(JsonParser *jp, size_t *len)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    if (jp->p >= jp->end || *jp->p != '"')
        return NULL;
    jp->p++;
    while (jp->p < jp->end && *jp->p != '"') {
        char c = *jp->p++;
        if (c != '\\') {
            comb_buf_append_byte(&b, (unsigned char)c);
            continue;
        }
        if (jp->p >= jp->end)
            break;
        c = *jp->p++;
        switch (c) {
        case 'n': comb_buf_append_byte(&b, '\n'); break;
        case 't': comb_buf_append_byte(&b, '\t'); break;
        case 'r': comb_buf_append_byte(&b, '\r'); break;
        case 'b': comb_buf_append_byte(&b, '\b'); break;
        case 'f': comb_buf_append_byte(&b, '\f'); break;
        case 'u': {
            unsigned cp = 0;
            for (int i = 0; i < 4 && jp->p < jp->end; i++)
                cp = cp * 16 + (unsigned)hex_digit(*jp->p++);
            put_utf8(&b, cp);
            break;
        }
        default: comb_buf_append_byte(&b, (unsigned char)c); break;
        }
    }
    if (jp->p >= jp->end) {
        comb_buf_free(&b);
        return NULL;
    }
    jp->p++;
    *len = b.len;
    out = comb_arena_strndup(jp->a, b.data ? (const char *)b.data : "", b.len);
    comb_buf_free(&b);
    return out;
}

static JsonNode *parse_number(JsonParser *jp)
{
    JsonNode *n = new_node(jp, JSON_NUMBER);
    char buf[64];
    size_t len = 0;
    bool integral = true;
    while (jp->p < jp->end && len < sizeof buf - 1 &&
           strchr("+-0123456789.eE", *jp->p)) {
        if (strchr(".eE", *jp->p))
            integral = false;
        buf[len++] = *jp->p++;
    }
    buf[len] = '\0';
    if (!n || len == 0)
        return NULL;
    n->is_int = integral;
    n->d = strtod(buf, NULL);
    n->i = integral ? strtoll(buf, NULL, 10) : (int64_t)n->d;
    return n;
}

/* Arrays and objects: items collected into a growable arena array. */
static bool push_item(JsonParser *jp, JsonNode *c, JsonNode *item, char *key,
                      int *cap)
{
    if (c->n == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        JsonNode **items = comb_arena_alloc(jp->a, (size_t)ncap * sizeof *items);
        char **keys = comb_arena_alloc(jp->a, (size_t)ncap * sizeof *keys);
        if (!items || !keys)
            return false;
        if (c->n) {
            memcpy(items, c->items, (size_t)c->n * sizeof *items);
            memcpy(keys, c->keys, (size_t)c->n * sizeof *keys);
        }
        c->items = items;
        c->keys = keys;
        *cap = ncap;
    }
    c->items[c->n] = item;
    c->keys[c->n] = key;
    c->n++;
    return true;
}

static JsonNode *parse_container(JsonParser *jp, bool object)
{
    JsonNode *c = new_node(jp, object ? JSON_OBJECT : JSON_ARRAY);
    char close = object ? '}' : ']';
    int cap = 0;
    if (!c)
        return NULL;
    jp->p++;
    skip_ws(jp);
    if (jp->p < jp->end && *jp->p == close) {
        jp->p++;
        return c;
    }
    for (;;) {
        char *key = NULL;
        JsonNode *v;
        size_t klen;
        skip_ws(jp);
        if (object) {
            if (!(key = parse_string_raw(jp, &klen)))
                return NULL;
            skip_ws(jp);
            if (jp->p >= jp->end || *jp->p++ != ':')
                return NULL;
        }
        if (!(v = parse_value(jp)) || !push_item(jp, c, v, key, &cap))
            return NULL;
        skip_ws(jp);
        if (jp->p >= jp->end)
            return NULL;
        if (*jp->p == ',') {
            jp->p++;
            continue;
        }
        if (*jp->p++ != close)
            return NULL;
        return c;
    }
}

static JsonNode *parse_literal(JsonParser *jp, const char *word, JsonKind kind,
                               int64_t val)
{
    size_t n = strlen(word);
    JsonNode *node;
    if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, word, n) != 0)
        return NULL;
    jp->p += n;
    node = new_node(jp, kind);
    if (node)
        node->i = val;
    return node;
}

static JsonNode *parse_value(JsonParser *jp)
{
    skip_ws(jp);
    if (jp->p >= jp->end)
        return NULL;
    switch (*jp->p) {
    case '{': return parse_container(jp, true);
    case '[': return parse_container(jp, false);
    case '"': {
        JsonNode *n = new_node(jp, JSON_STRING);
        if (!n || !(n->s = parse_string_raw(jp, &n->s_len)))
            return NULL;
        return n;
    }
    case 't': return parse_literal(jp, "true", JSON_BOOL, 1);
    case 'f': return parse_literal(jp, "false", JSON_BOOL, 0);
    case 'n': return parse_literal(jp, "null", JSON_NULL, 0);
    default: return parse_number(jp);
    }
}

JsonNode *json_parse_file(const char *path, CombArena *a)
{
    unsigned char *bytes;
    size_t len;
    CombErr err;
    JsonParser jp;
    if (fs_read_file(path, a, &bytes, &len, &err))
        return NULL;
    jp.p = (const char *)bytes;
    jp.end = jp.p + len;
    jp.a = a;
    return parse_value(&jp);
}

const JsonNode *json_get(const JsonNode *obj, const char *key)
{
    if (!obj || obj->kind != JSON_OBJECT)
        return NULL;
    for (int i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

static void text_string(CombBuf *b, const char *s, size_t len)
{
    comb_buf_append_byte(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            comb_buf_append_byte(b, '\\');
            comb_buf_append_byte(b, c);
        } else if (c < 0x20) {
            comb_buf_printf(b, "\\u%04x", c);
        } else {
            comb_buf_append_byte(b, c);
        }
    }
    comb_buf_append_byte(b, '"');
}

static void text_double(CombBuf *b, double d)
{
    if (d == (double)(int64_t)d && d > -1e15 && d < 1e15)
        comb_buf_printf(b, "%" PRId64, (int64_t)d);
    else
        comb_buf_printf(b, "%.15g", d);
}

static void json_text_into(CombBuf *b, const JsonNode *v)
{
    switch (v->kind) {
    case JSON_NULL: comb_buf_append_str(b, "null"); break;
    case JSON_BOOL: comb_buf_append_str(b, v->i ? "true" : "false"); break;
    case JSON_NUMBER:
        if (v->is_int)
            comb_buf_printf(b, "%" PRId64, v->i);
        else
            text_double(b, v->d);
        break;
    case JSON_STRING: text_string(b, v->s, v->s_len); break;
    case JSON_ARRAY:
    case JSON_OBJECT:
        comb_buf_append_byte(b, '[');
        for (int i = 0; i < v->n; i++) {
            if (i)
                comb_buf_append_byte(b, ',');
            json_text_into(b, v->items[i]);
        }
        comb_buf_append_byte(b, ']');
        break;
    }
}

static char *buf_to_arena(CombBuf *b, CombArena *a)
{
    char *s = comb_arena_strndup(a, b->data ? (const char *)b->data : "",
                                 b->len);
    comb_buf_free(b);
    return s;
}

char *json_text(const JsonNode *v, CombArena *a)
{
    CombBuf b = COMB_BUF_INIT;
    json_text_into(&b, v);
    return buf_to_arena(&b, a);
}

/* ------------------------------------------------------------ types */

const CombType acid_t_int = {.kind = COMB_T_INT};
const CombType acid_t_bigint = {.kind = COMB_T_BIGINT};
const CombType acid_t_string = {.kind = COMB_T_STRING};
const CombType acid_t_double = {.kind = COMB_T_DOUBLE};
const CombType acid_t_timestamp = {.kind = COMB_T_TIMESTAMP};
const CombType acid_t_null = {.kind = COMB_T_NULL};

const CombType *acid_test_type(const char *text)
{
    static CombArena arena;
    static bool ready;
    CombType *t;
    CombErr err;
    if (!ready) {
        comb_arena_init(&arena, 16 * 1024);
        ready = true;
    }
    if (comb_type_parse(&arena, text, strlen(text), &t, &err))
        return NULL;
    comb_type_assign_ids(t);
    return t;
}

/* ------------------------------------------------------------ batch rows */

static void cell_text(CombBuf *b, const CombVector *v, int row);

static void compound_text(CombBuf *b, const CombVector *v, int row)
{
    if (v->kind == COMB_T_STRUCT) {
        comb_buf_append_byte(b, '{');
        for (int f = 0; f < v->n_children; f++) {
            comb_buf_printf(b, "%s%s:", f ? "," : "",
                            v->type->field_names[f]);
            cell_text(b, &v->children[f], row);
        }
        comb_buf_append_byte(b, '}');
        return;
    }
    if (v->kind == COMB_T_UNION) {
        comb_buf_printf(b, "<%d:", v->tag[row]);
        cell_text(b, &v->children[v->tag[row]], row);
        comb_buf_append_byte(b, '>');
        return;
    }
    comb_buf_append_byte(b, v->kind == COMB_T_MAP ? '{' : '[');
    for (uint32_t e = 0; e < v->len[row]; e++) {
        int elem = (int)(v->off[row] + e);
        if (e)
            comb_buf_append_byte(b, ',');
        cell_text(b, &v->children[0], elem);
        if (v->kind == COMB_T_MAP) {
            comb_buf_append_byte(b, ':');
            cell_text(b, &v->children[1], elem);
        }
    }
    comb_buf_append_byte(b, v->kind == COMB_T_MAP ? '}' : ']');
}

static void cell_text(CombBuf *b, const CombVector *v, int row)
{
    char text[64];
    if (comb_vec_is_null(v, row)) {
        comb_buf_append_str(b, "null");
        return;
    }
    switch (v->kind) {
    case COMB_T_BOOLEAN:
        comb_buf_append_str(b, v->i64[row] ? "true" : "false");
        return;
    case COMB_T_DECIMAL:
        comb_dec_format(v->dec[row], v->type ? (int)v->type->scale : 0, text,
                        sizeof text);
        comb_buf_append_str(b, text);
        return;
    case COMB_T_DATE:
        comb_date_format(v->i64[row], text, sizeof text);
        comb_buf_printf(b, "\"%s\"", text);
        return;
    case COMB_T_TIMESTAMP:
        comb_timestamp_format(v->i64[row], v->nanos[row], text, sizeof text);
        comb_buf_printf(b, "\"%s\"", text);
        return;
    case COMB_T_STRUCT:
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_UNION:
        compound_text(b, v, row);
        return;
    default:
        break;
    }
    if (v->i64)
        comb_buf_printf(b, "%" PRId64, v->i64[row]);
    else if (v->f64)
        text_double(b, v->f64[row]);
    else if (v->str)
        text_string(b, v->str[row].ptr, v->str[row].len);
    else
        comb_buf_append_str(b, "?");
}

char *batch_row_text(const CombBatch *b, int row, int first, int n,
                     CombArena *a)
{
    CombBuf t = COMB_BUF_INIT;
    comb_buf_append_byte(&t, '[');
    for (int c = first; c < first + n; c++) {
        if (c > first)
            comb_buf_append_byte(&t, ',');
        cell_text(&t, &b->cols[c], row);
    }
    comb_buf_append_byte(&t, ']');
    return buf_to_arena(&t, a);
}

static int push_row(ScanRows *out, char *row, char *id, CombErr *err)
{
    if (out->n == out->cap) {
        int cap = out->cap ? out->cap * 2 : 1024;
        char **rows = comb_realloc(out->rows, (size_t)cap * sizeof *rows);
        char **ids;
        if (!rows)
            return comb_err_nomem(err);
        out->rows = rows;
        ids = comb_realloc(out->ids, (size_t)cap * sizeof *ids);
        if (!ids)
            return comb_err_nomem(err);
        out->ids = ids;
        out->cap = cap;
    }
    out->rows[out->n] = row;
    out->ids[out->n] = id;
    out->n++;
    return COMB_OK;
}

int scan_table(const char *dir, const AcidSchema *schema,
               const CombWriteIdList *wil, bool want_row_id, CombArena *a,
               ScanRows *out, CombErr *err)
{
    AcidReaderOptions opt = {NULL, want_row_id};
    AcidReader *r;
    CombBatch b;
    int rc, n = schema->n_cols;
    memset(out, 0, sizeof *out);
    if ((rc = acid_reader_open(dir, schema, wil, NULL, &opt, &r, err)))
        return rc;
    if ((rc = acid_reader_batch_init(r, &b))) {
        acid_reader_close(r);
        return comb_err_nomem(err);
    }
    for (;;) {
        if ((rc = acid_reader_next(r, &b, err)) || b.n_rows == 0)
            break;
        for (int i = 0; i < comb_batch_live(&b) && !rc; i++) {
            int row = comb_batch_row(&b, i);
            char *text = batch_row_text(&b, row, 0, n, a);
            char *id = want_row_id ? batch_row_text(&b, row, n, 3, a) : NULL;
            rc = push_row(out, text, id, err);
        }
        if (rc)
            break;
    }
    comb_batch_free(&b);
    acid_reader_close(r);
    return rc;
}

void scan_rows_free(ScanRows *s)
{
    comb_free(s->rows);
    comb_free(s->ids);
    memset(s, 0, sizeof *s);
}

char *scan_sorted_lines(const char *dir, const AcidSchema *schema,
                        const CombWriteIdList *wil, bool want_row_id,
                        CombArena *a, CombErr *err)
{
    ScanRows s;
    char **lines, *text;
    if (scan_table(dir, schema, wil, want_row_id, a, &s, err))
        return NULL;
    lines = comb_arena_alloc(a, (size_t)(s.n + 1) * sizeof *lines);
    for (int i = 0; i < s.n; i++)
        lines[i] = comb_arena_printf(a, "%s %s", s.rows[i],
                                     want_row_id ? s.ids[i] : "-");
    text = sorted_lines_text(lines, s.n, a);
    scan_rows_free(&s);
    return text;
}

int scan_at(const char *dir, const AcidSchema *schema, int64_t hwm,
            bool want_row_id, CombArena *a, ScanRows *out, CombErr *err)
{
    CombWriteIdList wil;
    int rc;
    wil_make(&wil, hwm, NULL, 0, NULL, 0);
    rc = scan_table(dir, schema, &wil, want_row_id, a, out, err);
    wil_free(&wil);
    return rc;
}

int dir_state_at(const char *dir, int64_t hwm, CombArena *a,
                 AcidDirState *st, CombErr *err)
{
    CombWriteIdList wil;
    int rc;
    wil_make(&wil, hwm, NULL, 0, NULL, 0);
    rc = acid_dir_state_get(dir, &wil, NULL, a, st, err);
    wil_free(&wil);
    return rc;
}

/* ---------------------------------------------------------------- writes */

int writer_finish(AcidWriter *w, int rc, AcidWriteStats *stats,
                  CombErr *err)
{
    if (rc) {
        acid_writer_abort(w);
        return rc;
    }
    return acid_writer_commit_files(w, stats, err);
}

int write_rows(const char *dir, const AcidSchema *schema,
               const CombType *const *types, int64_t wid, int stmt,
               int compression, const int64_t *vals, int n, CombErr *err)
{
    AcidWriter *w;
    CombBatch b;
    int rc = acid_writer_open(dir, schema, wid, stmt, compression, &w, err);
    if (rc)
        return rc;
    if (comb_batch_init_types(&b, schema->n_cols, types, n))
        return writer_finish(w, COMB_ENOMEM, NULL, err);
    for (int i = 0; i < n; i++)
        b.cols[0].i64[i] = vals[i];
    b.n_rows = n;
    rc = acid_writer_insert(w, &b, NULL, err);
    comb_batch_free(&b);
    return writer_finish(w, rc, NULL, err);
}

/* ------------------------------------------------------------------ misc */

static int cmp_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *sorted_lines_text(char **lines, int n, CombArena *a)
{
    CombBuf out = COMB_BUF_INIT;
    char *text;
    qsort(lines, (size_t)n, sizeof *lines, cmp_lines);
    for (int i = 0; i < n; i++)
        comb_buf_printf(&out, "%s\n", lines[i]);
    text = comb_arena_strndup(a, out.data ? (char *)out.data : "", out.len);
    comb_buf_free(&out);
    return text;
}

void wil_make(CombWriteIdList *l, int64_t hwm, const int64_t *open,
              int n_open, const int64_t *aborted, int n_aborted)
{
    memset(l, 0, sizeof *l);
    comb_idlist_init(&l->ids, hwm, open, n_open, aborted, n_aborted);
}

void wil_free(CombWriteIdList *l)
{
    comb_idlist_free(&l->ids);
}

int copy_file(const char *from, const char *to, CombErr *err)
{
    CombArena a;
    unsigned char *bytes;
    size_t len;
    int rc;
    comb_arena_init(&a, 0);
    rc = fs_read_file(from, &a, &bytes, &len, err);
    if (!rc)
        rc = fs_write_file(to, bytes, len, err);
    comb_arena_free(&a);
    return rc;
}

int touch_file(const char *path, CombErr *err)
{
    return fs_write_file(path, "", 0, err);
}

int find_name(char *const *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i], name) == 0)
            return i;
    return -1;
}
