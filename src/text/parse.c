/*
 * parse.c - one line into one batch row, as Hive's lazy objects read it.
 * LazyStruct.parse splits a row (and every nested struct) at the
 * separator of its level, stepping over escaped bytes: a missing field is
 * NULL, fields beyond the schema are ignored, and with
 * serialization.last.column.takes.rest the last field keeps the rest.
 * LazyArray.parse, LazyMap.parse and LazyUnion.parse split collections
 * (an empty field is an empty array or map).  A field equal to the null
 * marker is NULL, compared on its raw bytes before anything else
 * (LazyObject.isNull).  One Lazy<Type> class per primitive reads a field,
 * and a field that does not read is NULL:
 *
 *   boolean     LazyBoolean: "true" / "false" in any case
 *   integers    LazyByte .. LazyLong: LazyUtils.isNumberMaybe, then digits
 *               with an optional sign and a dropped fraction of digits,
 *               no blanks allowed (common/numparse.h, trim off)
 *   float/double LazyFloat / LazyDouble: isNumberMaybe, then Java's
 *               Float.parseFloat / Double.parseDouble (which trim)
 *   decimal     LazyHiveDecimal: HiveDecimalWritable.setFromBytes (blanks
 *               trimmed), then enforcePrecisionScale: rounded HALF_UP to
 *               the column's scale, NULL when it needs more digits than
 *               its precision allows
 *   date        LazyDate: isDateMaybe (8 bytes at least), Date.valueOf
 *   timestamp   LazyTimestamp: isDateMaybe, Timestamp.valueOf
 *   string      LazyString: the bytes, escapes removed
 *               (LazyUtils.copyAndEscapeStringDataToText: <esc>r and <esc>n
 *               are \r and \n, <esc>x is x)
 *   varchar(n), LazyHiveVarchar / LazyHiveChar: escapes removed, decoded as
 *   char(n)     Hadoop's Text.decode does (malformed UTF-8 becomes U+FFFD
 *               as Java's decoder replaces it), cut to n characters (code
 *               points); char padded to n
 *   binary      LazyBinary: the Base64 decoding when java.util.Base64
 *               accepts the bytes, else the bytes themselves (no escapes)
 *
 * Map entries whose key is NULL (or does not read as the key type) are
 * dropped and a repeated key keeps its first value (LazyMap.getMap); an
 * entry without the key separator has a NULL value.  A union is
 * "tag<sep>value"; a tag that is not a member number makes the union NULL
 * (Hive fails the query).
 *
 * List and map elements go to the next free rows of their child vectors:
 * the rows after those of the previous row (off + len), so rows must be
 * filled in order, NULL rows included (set_null keeps off/len right).
 */
#include "text/text_int.h"

#include <limits.h>

#include "common/alloc.h"
#include "common/base64.h"
#include "common/numparse.h"
#include "common/textval.h"

/* Maps with more keys than this find repeats through a hash table. */
#define TEXT_LINEAR_KEYS 32

typedef struct Ctx {
    TextParser *p;
    const TextFormat *fmt;
    CombArena *arena;       /* the batch's: bytes made for strings */
    CombErr *err;
} Ctx;

static int parse_field(Ctx *c, const CombType *t, int level, CombVector *v,
                       int row, const unsigned char *f, size_t n);

/* ------------------------------------------------------------ null rows */

static void mark_null(CombVector *v, int row)
{
    if (!v->has_nulls)
        comb_vec_nulls_materialize(v, row);
    v->nulls[row] = 1;
}

static void mark_valid(CombVector *v, int row)
{
    if (v->has_nulls)
        v->nulls[row] = 0;
}

/* First child row of a list or map row: after the previous row's. */
static uint32_t first_child(const CombVector *v, int row)
{
    return row == 0 ? 0 : v->off[row - 1] + v->len[row - 1];
}

/* Row `row` of v is NULL, and so is everything it holds at that row. */
static void set_null(CombVector *v, int row)
{
    mark_null(v, row);
    if (v->kind == COMB_T_LIST || v->kind == COMB_T_MAP) {
        v->off[row] = first_child(v, row);
        v->len[row] = 0;
    } else if (v->kind == COMB_T_STRUCT || v->kind == COMB_T_UNION) {
        if (v->kind == COMB_T_UNION)
            v->tag[row] = 0;
        for (int i = 0; i < v->n_children; i++)
            set_null(&v->children[i], row);
    }
}

/* ---------------------------------------------------------------- split */

size_t text_field_end(const TextFormat *fmt, const unsigned char *f,
                      size_t from, size_t n, unsigned char sep)
{
    size_t i = from;
    if (!fmt->escaped) {
        const unsigned char *s = from < n ? memchr(f + from, sep, n - from)
                                          : NULL;
        return s ? (size_t)(s - f) : n;
    }
    while (i < n) {
        if (f[i] == sep)
            return i;
        i += f[i] == fmt->escape_char && i + 1 < n ? 2 : 1;
    }
    return n;
}

/* ------------------------------------------------------------- strings */

/* f with its escapes removed: f itself when it has none, else a copy. */
static int unescape(Ctx *c, const unsigned char *f, size_t n,
                    const unsigned char **out, size_t *out_n)
{
    unsigned char esc = c->fmt->escape_char, *d;
    size_t k = 0;
    if (!c->fmt->escaped || n == 0 || !memchr(f, esc, n)) {
        *out = f;
        *out_n = n;
        return COMB_OK;
    }
    if (!(d = comb_arena_alloc(c->arena, n)))
        return comb_err_nomem(c->err);
    for (size_t i = 0; i < n; i++) {
        unsigned char b = f[i];
        if (b == esc && i + 1 < n) {
            b = f[++i];
            b = b == 'r' ? '\r' : b == 'n' ? '\n' : b;
        }
        d[k++] = b;
    }
    *out = d;
    *out_n = k;
    return COMB_OK;
}

/* varchar(n) and char(n): decoded, cut to n characters, char padded. */
static int parse_sized(Ctx *c, const CombType *t, CombVector *v, int row,
                       const unsigned char *f, size_t n)
{
    const unsigned char *s;
    size_t sn;
    int rc = unescape(c, f, n, &s, &sn);
    if (rc)
        return rc;
    if (comb_textval_sized(t, s, sn, c->arena, &v->str[row]))
        return comb_err_nomem(c->err);
    mark_valid(v, row);
    return COMB_OK;
}

/* LazyBinary: Base64 when the bytes decode, else the bytes themselves. */
static int parse_binary(Ctx *c, CombVector *v, int row,
                        const unsigned char *f, size_t n)
{
    unsigned char *d;
    size_t dn;
    v->str[row] = (CombStr){(const char *)f, (uint32_t)n};
    if (n > 0) {
        if (!(d = comb_arena_alloc(c->arena, n / 4 * 3 + 3)))
            return comb_err_nomem(c->err);
        if (comb_base64_decode((const char *)f, n, d, &dn))
            v->str[row] = (CombStr){(const char *)d, (uint32_t)dn};
    }
    mark_valid(v, row);
    return COMB_OK;
}

/* ----------------------------------------------------------- primitives */

static int parse_primitive(Ctx *c, const CombType *t, CombVector *v, int row,
                           const unsigned char *f, size_t n)
{
    const unsigned char *s;
    size_t sn;
    int rc;
    switch (t->kind) {
    case COMB_T_STRING:
        if ((rc = unescape(c, f, n, &s, &sn)))
            return rc;
        v->str[row] = (CombStr){(const char *)s, (uint32_t)sn};
        mark_valid(v, row);
        return COMB_OK;
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return parse_sized(c, t, v, row, f, n);
    case COMB_T_BINARY:
        return parse_binary(c, v, row, f, n);
    default:
        if (comb_textval_read(t, (const char *)f, n, false, v, row))
            mark_valid(v, row);
        else
            set_null(v, row);
        return COMB_OK;
    }
}

/* ------------------------------------------------------------- complex */

/* Fields of a struct (or of the row, level 0) split at seps[level], each
 * read at level + 1 (LazyStruct.parse). */
static int parse_fields(Ctx *c, int n_fields, const CombType *const *types,
                        CombVector *vecs, int level, int row,
                        const unsigned char *f, size_t n)
{
    unsigned char sep = c->fmt->seps[level];
    size_t pos = 0;
    bool more = true;
    for (int i = 0; i < n_fields; i++) {
        size_t end;
        int rc;
        if (!more) {
            set_null(&vecs[i], row);
            continue;
        }
        end = c->fmt->last_column_takes_rest && i == n_fields - 1
                  ? n : text_field_end(c->fmt, f, pos, n, sep);
        if ((rc = parse_field(c, types[i], level + 1, &vecs[i], row, f + pos,
                              end - pos)))
            return rc;
        if (end >= n)
            more = false;
        else
            pos = end + 1;
    }
    return COMB_OK;
}

/* Room for child row k; too many rows for one batch is refused. */
static int reserve_child(Ctx *c, CombVector *child, uint32_t k)
{
    if (k >= (uint32_t)INT_MAX - 1)
        return comb_err(c->err, COMB_EUNSUPPORTED, "too many array or map "
                        "elements in one batch of text rows");
    if (comb_vec_reserve_rows(child, (int)k + 1))
        return comb_err_nomem(c->err);
    return COMB_OK;
}

static int parse_list(Ctx *c, const CombType *t, int level, CombVector *v,
                      int row, const unsigned char *f, size_t n)
{
    unsigned char sep = c->fmt->seps[level];
    uint32_t first = first_child(v, row), count = 0;
    size_t pos = 0;
    while (n > 0) {
        size_t end = text_field_end(c->fmt, f, pos, n, sep);
        int rc = reserve_child(c, &v->children[0], first + count);
        if (!rc)
            rc = parse_field(c, t->children[0], level + 1, &v->children[0],
                             (int)(first + count), f + pos, end - pos);
        if (rc)
            return rc;
        count++;
        if (end >= n)
            break;
        pos = end + 1;
    }
    v->off[row] = first;
    v->len[row] = count;
    mark_valid(v, row);
    return COMB_OK;
}

/* Keys of one map seen so far: rows first .. first + n - 1 of the key
 * vector, also in the parser's hash table (of cap slots) once there are
 * more than TEXT_LINEAR_KEYS. */
typedef struct KeySet {
    uint32_t first, n;
    bool hashed;
    size_t cap;
} KeySet;

static bool key_equal(const CombVector *k, uint32_t a, uint32_t b)
{
    switch (k->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return k->f64[a] == k->f64[b];
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return k->str[a].len == k->str[b].len &&
               (k->str[a].len == 0 ||
                memcmp(k->str[a].ptr, k->str[b].ptr, k->str[a].len) == 0);
    case COMB_T_DECIMAL:
        return k->dec[a] == k->dec[b];
    case COMB_T_TIMESTAMP:
        return k->i64[a] == k->i64[b] && k->nanos[a] == k->nanos[b];
    default:
        return k->i64[a] == k->i64[b];
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* A hash that agrees with key_equal (-0.0 hashes as 0.0). */
static uint64_t key_hash(const CombVector *k, uint32_t r)
{
    uint64_t h = 0xCBF29CE484222325ull;
    double d;
    switch (k->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        d = k->f64[r] + 0.0;
        return fnv(h, &d, sizeof d);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return fnv(h, k->str[r].ptr, k->str[r].len);
    case COMB_T_DECIMAL:
        return fnv(h, &k->dec[r], sizeof k->dec[r]);
    case COMB_T_TIMESTAMP:
        h = fnv(h, &k->i64[r], sizeof k->i64[r]);
        return fnv(h, &k->nanos[r], sizeof k->nanos[r]);
    default:
        return fnv(h, &k->i64[r], sizeof k->i64[r]);
    }
}

/* Look row k up in the table (cap a power of two): true when an equal key
 * is there, else k is inserted. */
static bool table_probe(TextParser *p, size_t cap, const CombVector *keys,
                        uint32_t k)
{
    size_t i = (size_t)key_hash(keys, k) & (cap - 1);
    for (;; i = (i + 1) & (cap - 1)) {
        if (p->hash[i] == 0) {
            p->hash[i] = k + 1;
            return false;
        }
        if (key_equal(keys, p->hash[i] - 1, k))
            return true;
    }
}

/* (Re)build the table with room for the set's keys. */
static int table_build(Ctx *c, KeySet *s, const CombVector *keys)
{
    size_t cap = 4 * TEXT_LINEAR_KEYS;
    while (cap < (size_t)s->n * 4)
        cap *= 2;
    if (cap > c->p->hash_cap) {
        uint32_t *t = comb_realloc(c->p->hash, cap * sizeof *t);
        if (!t)
            return comb_err_nomem(c->err);
        c->p->hash = t;
        c->p->hash_cap = cap;
    }
    memset(c->p->hash, 0, cap * sizeof *c->p->hash);
    for (uint32_t r = s->first; r < s->first + s->n; r++)
        table_probe(c->p, cap, keys, r);
    s->hashed = true;
    s->cap = cap;
    return COMB_OK;
}

/* Is key row k (= s->first + s->n) a repeat?  If not it joins the set. */
static int key_repeat(Ctx *c, KeySet *s, const CombVector *keys, uint32_t k,
                      bool *repeat)
{
    if (!s->hashed) {
        for (uint32_t r = s->first; r < k; r++)
            if (key_equal(keys, r, k)) {
                *repeat = true;
                return COMB_OK;
            }
        *repeat = false;
        s->n++;
        return s->n > TEXT_LINEAR_KEYS ? table_build(c, s, keys) : COMB_OK;
    }
    *repeat = table_probe(c->p, s->cap, keys, k);
    if (!*repeat && ++s->n * 4 > s->cap)
        return table_build(c, s, keys);
    return COMB_OK;
}

/* One "key<kv>value" entry of a map into child row k; *kept tells whether
 * it stays (a NULL or repeated key drops it, LazyMap.getMap). */
static int parse_entry(Ctx *c, const CombType *t, int level, CombVector *v,
                       KeySet *s, const unsigned char *e, size_t n,
                       bool *kept)
{
    CombVector *keys = &v->children[0], *vals = &v->children[1];
    uint32_t k = s->first + s->n;
    size_t kv = text_field_end(c->fmt, e, 0, n, c->fmt->seps[level + 1]);
    int rc;
    *kept = false;
    if ((rc = reserve_child(c, keys, k)) || (rc = reserve_child(c, vals, k)))
        return rc;
    if (text_is_null(c->fmt, e, kv))
        return COMB_OK;
    if ((rc = parse_primitive(c, t->children[0], keys, (int)k, e, kv)))
        return rc;
    if (comb_vec_is_null(keys, (int)k))
        return COMB_OK;
    bool repeat;
    if ((rc = key_repeat(c, s, keys, k, &repeat)) || repeat)
        return rc;
    *kept = true;
    if (kv == n) {  /* no key separator: the value is NULL */
        set_null(vals, (int)k);
        return COMB_OK;
    }
    return parse_field(c, t->children[1], level + 2, vals, (int)k, e + kv + 1,
                       n - kv - 1);
}

static int parse_map(Ctx *c, const CombType *t, int level, CombVector *v,
                     int row, const unsigned char *f, size_t n)
{
    KeySet s = {first_child(v, row), 0, false, 0};
    size_t pos = 0;
    while (n > 0) {
        size_t end = text_field_end(c->fmt, f, pos, n, c->fmt->seps[level]);
        bool kept;
        int rc = parse_entry(c, t, level, v, &s, f + pos, end - pos, &kept);
        if (rc)
            return rc;
        if (end >= n)
            break;
        pos = end + 1;
    }
    v->off[row] = s.first;
    v->len[row] = s.n;
    mark_valid(v, row);
    return COMB_OK;
}

static int parse_union(Ctx *c, const CombType *t, int level, CombVector *v,
                       int row, const unsigned char *f, size_t n)
{
    size_t sep = text_field_end(c->fmt, f, 0, n, c->fmt->seps[level]);
    int64_t tag;
    if (sep == n || !comb_parse_int((const char *)f, sep, COMB_T_TINYINT,
                                    false, &tag) ||
        tag < 0 || tag >= t->n_children) {
        set_null(v, row);
        return COMB_OK;
    }
    v->tag[row] = (uint8_t)tag;
    mark_valid(v, row);
    for (int i = 0; i < t->n_children; i++)
        if (i != tag)
            set_null(&v->children[i], row);
    return parse_field(c, t->children[tag], level + 1, &v->children[tag], row,
                       f + sep + 1, n - sep - 1);
}

static int parse_field(Ctx *c, const CombType *t, int level, CombVector *v,
                       int row, const unsigned char *f, size_t n)
{
    if (text_is_null(c->fmt, f, n)) {
        set_null(v, row);
        return COMB_OK;
    }
    switch (t->kind) {
    case COMB_T_LIST:
        return parse_list(c, t, level, v, row, f, n);
    case COMB_T_MAP:
        return parse_map(c, t, level, v, row, f, n);
    case COMB_T_STRUCT:
        mark_valid(v, row);
        return parse_fields(c, t->n_children,
                            (const CombType *const *)t->children, v->children,
                            level, row, f, n);
    case COMB_T_UNION:
        return parse_union(c, t, level, v, row, f, n);
    default:
        return parse_primitive(c, t, v, row, f, n);
    }
}

int text_parse_row(TextParser *p, CombBatch *b, int row,
                   const unsigned char *line, size_t len, CombErr *err)
{
    Ctx c = {p, p->fmt, &b->arena, err};
    return parse_fields(&c, p->fmt->n_cols, p->fmt->types, b->cols, 0, row,
                        line, len);
}

void text_parser_free(TextParser *p)
{
    comb_free(p->hash);
    p->hash = NULL;
    p->hash_cap = 0;
}
