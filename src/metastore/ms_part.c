/*
 * ms_part.c - partition names and rows, independent of any backend.
 *
 * A partition's name is also its directory below the table: "k1=v1/k2=v2"
 * with keys and values escaped as Hive's FileUtils.escapePathName escapes
 * them.  The SQL layer (static and dynamic partitions, SHOW PARTITIONS) and
 * MSCK (directory names back to values) both go through this file, so a
 * name made here always reads back as the values it was made from, and a
 * value can never name a directory outside its table: '/' is escaped and
 * every component starts with "<key>=".
 *
 * Also the checks a backend runs on the partitions of ms_part_add once it
 * has read the table (ms_parts_prepare) and the partial-spec filter of
 * ms_part_list (ms_parts_filter), so that every backend answers the same.
 */
#include "metastore/ms_int.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest directory name (NAME_MAX on Linux, HDFS's default component
 * limit): a longer "k=v" could be recorded but never created. */
#define MS_PART_COMPONENT_MAX 255

/* ------------------------------------------------------------- escaping */

/* Hive's charToEscape: control characters, DEL and the characters that
 * mean something in a path or a URI. */
static bool needs_escape(unsigned char c)
{
    return c < 0x20 || c == 0x7f || strchr("\"#%'*/:=?\\{[]^", c) != NULL;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Append s escaped, ASCII letters lower-cased when `lower` (keys, as
 * Hive's makePartName); NULL or "" appends the default partition name. */
static int escape_append(CombBuf *b, const char *s, bool lower)
{
    static const char hex[] = "0123456789ABCDEF";
    if (!s || !*s)
        return comb_buf_append_str(b, MS_DEFAULT_PARTITION_NAME);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = lower && *p >= 'A' && *p <= 'Z'
                              ? (unsigned char)(*p - 'A' + 'a')
                              : *p;
        int rc = needs_escape(c) ? comb_buf_append_byte(b, '%') ||
                                       comb_buf_append_byte(b, hex[c >> 4]) ||
                                       comb_buf_append_byte(b, hex[c & 15])
                                 : comb_buf_append_byte(b, c);
        if (rc)
            return rc;
    }
    return 0;
}

/* The buffer's bytes as a string in the arena; the buffer is freed. */
static int buf_to_arena(CombBuf *b, CombArena *a, char **out, CombErr *err)
{
    *out = comb_arena_strndup(a, b->data ? (const char *)b->data : "",
                              b->len);
    comb_buf_free(b);
    return *out ? COMB_OK : comb_err_nomem(err);
}

int ms_path_escape(const char *s, CombArena *a, char **out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    if (!a || !out)
        return comb_err(err, COMB_EINVALID, "ms_path_escape without result");
    if (escape_append(&b, s, false)) {
        comb_buf_free(&b);
        return comb_err_nomem(err);
    }
    return buf_to_arena(&b, a, out, err);
}

int ms_path_unescape(const char *s, CombArena *a, char **out, CombErr *err)
{
    size_t n, len = 0;
    char *dst;
    if (!s || !a || !out)
        return comb_err(err, COMB_EINVALID, "ms_path_unescape without input "
                                            "or result");
    n = strlen(s);
    /* "%XX" (3 bytes) gives at most 2, so the result is never longer */
    if (!(dst = comb_arena_alloc(a, n + 1)))
        return comb_err_nomem(err);
    for (size_t i = 0; i < n; i++) {
        int hi = s[i] == '%' && i + 2 < n ? hex_value(s[i + 1]) : -1;
        int lo = hi >= 0 ? hex_value(s[i + 2]) : -1;
        int code = lo >= 0 ? hi * 16 + lo : -1;
        if (code == 0)
            return comb_err(err, COMB_EINVALID,
                            "'%s' holds %%00, a NUL character", s);
        if (code < 0) {
            dst[len++] = s[i];
            continue;
        }
        /* Java makes the character U+00XX, so 0x80-0xFF take two bytes */
        if (code < 0x80) {
            dst[len++] = (char)code;
        } else {
            dst[len++] = (char)(0xc0 | (code >> 6));
            dst[len++] = (char)(0x80 | (code & 0x3f));
        }
        i += 2;
    }
    dst[len] = '\0';
    *out = dst;
    return COMB_OK;
}

/* ---------------------------------------------------------------- names */

static int err_not_partitioned(CombErr *err, const MsTable *t)
{
    return comb_err(err, COMB_EINVALID,
                    "Partition spec for non partitioned table %s.%s.",
                    t->db ? t->db : "", t->name ? t->name : "");
}

/* Append "<key>=<value>" escaped, refusing a directory name too long to
 * create. */
static int component_append(CombBuf *b, const char *key, const char *value,
                            CombErr *err)
{
    size_t start = b->len;
    if (escape_append(b, key, true) || comb_buf_append_byte(b, '=') ||
        escape_append(b, value, false))
        return comb_err_nomem(err);
    if (b->len - start > MS_PART_COMPONENT_MAX)
        return comb_err(err, COMB_EINVALID,
                        "partition directory name '%.60s...' is longer than "
                        "%d bytes",
                        (const char *)b->data + start, MS_PART_COMPONENT_MAX);
    return COMB_OK;
}

int ms_part_name_make(const MsTable *t, char *const *values, CombArena *a,
                      char **out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    if (!t || !a || !out || (t->n_part_keys > 0 && !values))
        return comb_err(err, COMB_EINVALID,
                        "ms_part_name_make without table, values or result");
    if (t->n_part_keys <= 0 || !t->part_keys)
        return err_not_partitioned(err, t);
    for (int i = 0; !rc && i < t->n_part_keys; i++) {
        if (i > 0 && comb_buf_append_byte(&b, '/'))
            rc = comb_err_nomem(err);
        if (!rc)
            rc = component_append(&b, t->part_keys[i].name, values[i], err);
    }
    if (rc) {
        comb_buf_free(&b);
        return rc;
    }
    return buf_to_arena(&b, a, out, err);
}

static int err_bad_name(CombErr *err, const char *name)
{
    return comb_err(err, COMB_EINVALID, "Invalid partition name %s", name);
}

/* The value of component [start, end) of name, whose key must be `key`:
 * exactly one '=' with text on both sides, as MSCK's split("=") wants. */
static int component_parse(const char *name, size_t start, size_t end,
                           const char *key, CombArena *a, char **value,
                           CombErr *err)
{
    const char *c = name + start, *eq = memchr(c, '=', end - start);
    size_t key_len = eq ? (size_t)(eq - c) : 0;
    char *raw;
    if (!eq || key_len == 0 || eq + 1 == name + end ||
        memchr(eq + 1, '=', (size_t)(name + end - eq - 1)))
        return err_bad_name(err, name);
    if (strlen(key) != key_len || strncasecmp(c, key, key_len) != 0)
        return comb_err(err, COMB_EINVALID,
                        "Unexpected partition key %.*s found at %s",
                        (int)key_len, c, name);
    raw = comb_arena_strndup(a, eq + 1, (size_t)(name + end - eq - 1));
    if (!raw)
        return comb_err_nomem(err);
    return ms_path_unescape(raw, a, value, err);
}

int ms_part_name_parse(const MsTable *t, const char *name, CombArena *a,
                       char ***values, CombErr *err)
{
    size_t start = 0, len;
    char **vals;
    if (!t || !name || !a || !values)
        return comb_err(err, COMB_EINVALID,
                        "ms_part_name_parse without table, name or result");
    if (t->n_part_keys <= 0 || !t->part_keys)
        return err_not_partitioned(err, t);
    if (!(vals = comb_arena_calloc(a, (size_t)t->n_part_keys * sizeof *vals)))
        return comb_err_nomem(err);
    len = strlen(name);
    for (int i = 0; i < t->n_part_keys; i++) {
        const char *slash = memchr(name + start, '/', len - start);
        size_t end = slash ? (size_t)(slash - name) : len;
        int rc;
        /* one component per key: the last key ends the name */
        if (start >= len || (i + 1 < t->n_part_keys) != (slash != NULL))
            return err_bad_name(err, name);
        rc = component_parse(name, start, end, t->part_keys[i].name, a,
                             &vals[i], err);
        if (rc)
            return rc;
        start = end + 1;
    }
    *values = vals;
    return COMB_OK;
}

/* ------------------------------------------------------- partition rows */

/* Hive's Warehouse.makePartName refusal for a value count that does not
 * match the keys. */
static int err_key_count(CombErr *err, const MsTable *t,
                         const MsPartition *p)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = comb_buf_append_str(&b, "Invalid partition key & values; keys [");
    for (int i = 0; !rc && i < t->n_part_keys; i++)
        rc = comb_buf_printf(&b, "%s, ", t->part_keys[i].name);
    rc = rc || comb_buf_append_str(&b, "], values [");
    for (int i = 0; !rc && i < p->n_values; i++)
        rc = comb_buf_printf(&b, "%s, ", p->values[i] ? p->values[i] : "null");
    rc = rc || comb_buf_append_str(&b, "]") || comb_buf_append_byte(&b, 0);
    if (rc)
        rc = comb_err_nomem(err);
    else
        rc = comb_err(err, COMB_EINVALID, "%s", (const char *)b.data);
    comb_buf_free(&b);
    return rc;
}

static char *default_value(CombArena *a, const char *v)
{
    return comb_arena_strdup(a, v && *v ? v : MS_DEFAULT_PARTITION_NAME);
}

/* Copy of the caller's partition p as the row to store. */
static int part_prepare(const MsTable *t, const MsPartition *p, CombArena *a,
                        MsPartition *out, CombErr *err)
{
    int rc;
    if (p->n_values != t->n_part_keys)
        return err_key_count(err, t, p);
    *out = *p;
    if (!(out->values = comb_arena_alloc(a, (size_t)p->n_values *
                                                sizeof *out->values)))
        return comb_err_nomem(err);
    for (int i = 0; i < p->n_values; i++)
        if (!(out->values[i] = default_value(a, p->values[i])))
            return comb_err_nomem(err);
    if ((rc = ms_part_name_make(t, out->values, a, &out->name, err)))
        return rc;
    if (!p->location &&
        !(out->location = comb_arena_printf(a, "%s/%s", t->location,
                                            out->name)))
        return comb_err_nomem(err);
    if (!p->input_format)
        out->input_format = t->input_format;
    if (!p->output_format)
        out->output_format = t->output_format;
    if (!p->serde)
        out->serde = t->serde;
    return COMB_OK;
}

static int cmp_part_name(const void *x, const void *y)
{
    const MsPartition *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

/* Hive refuses a list that names one partition twice, even with IF NOT
 * EXISTS: such a statement does not make sense. */
static int check_no_duplicates(MsPartition *rows, int n, CombArena *a,
                               CombErr *err)
{
    MsPartition **sorted;
    if (n < 2)
        return COMB_OK;
    if (!(sorted = comb_arena_alloc(a, (size_t)n * sizeof *sorted)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        sorted[i] = &rows[i];
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_part_name);
    for (int i = 1; i < n; i++)
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0)
            return comb_err(err, COMB_EINVALID,
                            "Duplicate partitions in the list: %s",
                            sorted[i]->name);
    return COMB_OK;
}

int ms_parts_prepare(const MsTable *t, const MsPartition *in, int n,
                     CombArena *a, MsPartition **out, CombErr *err)
{
    MsPartition *rows = NULL;
    int rc = COMB_OK;
    if (t->n_part_keys <= 0)
        return err_not_partitioned(err, t);
    if (n > 0 && !(rows = comb_arena_alloc(a, (size_t)n * sizeof *rows)))
        return comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++)
        rc = part_prepare(t, &in[i], a, &rows[i], err);
    if (!rc)
        rc = check_no_duplicates(rows, n, a, err);
    if (!rc)
        *out = rows;
    return rc;
}

static int part_key_index(const MsTable *t, const char *key)
{
    for (int i = 0; i < t->n_part_keys; i++)
        if (strcasecmp(t->part_keys[i].name, key) == 0)
            return i;
    return -1;
}

static bool part_matches(const MsPartition *p, const MsProperty *spec,
                         const int *key_idx, int n_spec)
{
    for (int i = 0; i < n_spec; i++) {
        const char *want = spec[i].value && *spec[i].value
                               ? spec[i].value
                               : MS_DEFAULT_PARTITION_NAME;
        if (key_idx[i] >= p->n_values ||
            strcmp(p->values[key_idx[i]], want) != 0)
            return false;
    }
    return true;
}

int ms_parts_filter(const MsTable *t, const MsProperty *spec, int n_spec,
                    MsPartition *parts, int *n, CombErr *err)
{
    int *key_idx, kept = 0;
    if (n_spec == 0)
        return COMB_OK;
    if (!(key_idx = comb_malloc((size_t)n_spec * sizeof *key_idx)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_spec; i++) {
        key_idx[i] = part_key_index(t, spec[i].key);
        if (key_idx[i] < 0) {
            comb_free(key_idx);
            return comb_err(err, COMB_EINVALID,
                            "Non-Partition column appears in the partition "
                            "specification: %s",
                            spec[i].key);
        }
    }
    for (int i = 0; i < *n; i++)
        if (part_matches(&parts[i], spec, key_idx, n_spec))
            parts[kept++] = parts[i];
    *n = kept;
    comb_free(key_idx);
    return COMB_OK;
}

bool ms_part_keys_same(const MsTable *a, const MsTable *b)
{
    if (a->n_part_keys != b->n_part_keys)
        return false;
    for (int i = 0; i < a->n_part_keys; i++)
        if (strcmp(a->part_keys[i].name, b->part_keys[i].name) != 0 ||
            strcmp(a->part_keys[i].type, b->part_keys[i].type) != 0)
            return false;
    return true;
}
