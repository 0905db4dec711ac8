/*
 * format.c - the properties of a text table (text_options_*) and the
 * format resolved from them: separators of every nesting level, the bytes
 * the writer escapes, nesting checks.  Rules from Hive's
 * serde2.lazy.LazySerDeParameters (collectSeparators, escape handling),
 * LazyUtils.getByte / getSeparator, LazyFactory (which levels each type
 * uses) and Utilities.getHeaderCount / getFooterCount.
 */
#include "text/text_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"

void text_options_default(TextOptions *o)
{
    memset(o, 0, sizeof *o);
    o->field_delim = 1;
    o->collection_delim = 2;
    o->mapkey_delim = 3;
    o->line_delim = '\n';
    o->nesting_levels = TEXT_NESTING_DEFAULT;
    o->escape_char = '\\';
    o->null_format = "\\N";
    o->null_len = 2;
}

/* The first character of a UTF-8 string as Java's charAt(0) sees it (a
 * UTF-16 unit: a high surrogate for characters beyond U+FFFF). */
static unsigned first_char(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned cp;
    int more;
    if (u[0] < 0x80)
        return u[0];
    more = u[0] >= 0xF0 ? 3 : u[0] >= 0xE0 ? 2 : u[0] >= 0xC0 ? 1 : 0;
    cp = u[0] & (0x3Fu >> more);
    for (int i = 1; i <= more; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return u[0];   /* not UTF-8: take the byte as it is */
        cp = cp << 6 | (u[i] & 0x3Fu);
    }
    return cp > 0xFFFF ? 0xD800 + ((cp - 0x10000) >> 10) : cp;
}

/* LazyUtils.getByte: Byte.parseByte(value) (an optional sign and decimal
 * digits, -128..127), else the low 8 bits of the first character; an
 * absent or empty value gives the default. */
static unsigned char get_byte(const char *value, unsigned char dflt)
{
    const char *p = value;
    long v = 0;
    bool neg = false;
    if (!value || !*value)
        return dflt;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (*p) {
        const char *q = p;
        while (*q >= '0' && *q <= '9' && v <= 128)
            v = v * 10 + (*q++ - '0');
        if (!*q && (neg ? v <= 128 : v <= 127))
            return (unsigned char)(neg ? -v : v);
    }
    return (unsigned char)(first_char(value) & 0xFF);
}

static bool is_true(const char *value)
{
    return value && strcasecmp(value, "true") == 0;
}

/* Integer.parseInt as Hive reads the header and footer counts. */
static int parse_count(const char *key, const char *value, int64_t *out,
                       CombErr *err)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(value, &end, 10);
    if (!*value || *end || errno || v < INT32_MIN || v > INT32_MAX ||
        *value == ' ')
        return comb_err(err, COMB_EINVALID,
                        "invalid value '%s' for table property '%s': an "
                        "integer is needed", value, key);
    *out = v < 0 ? 0 : v;
    return COMB_OK;
}

int text_options_set(TextOptions *o, const char *key, const char *value,
                     CombErr *err)
{
    if (!value)
        value = "";
    if (strcmp(key, "field.delim") == 0) {
        o->field_delim = get_byte(value, 1);
        o->field_delim_set = true;
    } else if (strcmp(key, "serialization.format") == 0) {
        if (!o->field_delim_set)
            o->field_delim = get_byte(value, 1);
    } else if (strcmp(key, "collection.delim") == 0) {
        o->collection_delim = get_byte(value, 2);
        o->collection_delim_set = true;
    } else if (strcmp(key, "colelction.delim") == 0) {
        if (!o->collection_delim_set)
            o->collection_delim = get_byte(value, 2);
    } else if (strcmp(key, "mapkey.delim") == 0) {
        o->mapkey_delim = get_byte(value, 3);
    } else if (strcmp(key, "line.delim") == 0) {
        o->line_delim = get_byte(value, '\n');
    } else if (strcmp(key, "escape.delim") == 0) {
        o->escaped = true;
        o->escape_char = get_byte(value, '\\');
    } else if (strcmp(key, "serialization.escape.crlf") == 0) {
        o->escape_crlf = is_true(value);
    } else if (strcmp(key, "serialization.null.format") == 0) {
        o->null_format = value;
        o->null_len = strlen(value);
    } else if (strcmp(key, "serialization.last.column.takes.rest") == 0) {
        o->last_column_takes_rest = is_true(value);
    } else if (strcmp(key, "hive.serialization.extend.nesting.levels") == 0) {
        if (is_true(value) && o->nesting_levels < TEXT_NESTING_EXTENDED)
            o->nesting_levels = TEXT_NESTING_EXTENDED;
    } else if (strcmp(key,
                      "hive.serialization.extend.additional.nesting.levels") == 0) {
        if (is_true(value))
            o->nesting_levels = TEXT_NESTING_MAX;
    } else if (strcmp(key, "skip.header.line.count") == 0) {
        return parse_count(key, value, &o->skip_header, err);
    } else if (strcmp(key, "skip.footer.line.count") == 0) {
        int rc = parse_count(key, value, &o->skip_footer, err);
        if (rc == COMB_OK && o->skip_footer > TEXT_MAX_FOOTER)
            rc = comb_err(err, COMB_EINVALID, "footer number exceeds the "
                          "limit defined in hive.file.max.footer");
        return rc;
    }
    return COMB_OK;
}

/* Separators of the levels after the first three, in Hive's order: control
 * characters unlikely in text (not \t \n \f \r ESC), then 128..255. */
static int fixed_separators(unsigned char *out)
{
    int n = 0;
    for (int b = 4; b <= 8; b++)
        out[n++] = (unsigned char)b;
    out[n++] = 11;
    for (int b = 14; b <= 26; b++)
        out[n++] = (unsigned char)b;
    for (int b = 28; b <= 31; b++)
        out[n++] = (unsigned char)b;
    for (int b = 128; b <= 255; b++)
        out[n++] = (unsigned char)b;
    return n;
}

/* Levels of separators the options provide (nesting_levels, clamped to
 * the three set by name and the TEXT_NESTING_MAX Hive has). */
static int separator_levels(const TextOptions *o)
{
    return o->nesting_levels < 3 ? 3
           : o->nesting_levels > TEXT_NESTING_MAX ? TEXT_NESTING_MAX
                                                  : o->nesting_levels;
}

unsigned char text_separator(const TextOptions *o, int level)
{
    unsigned char rest[TEXT_NESTING_MAX];
    switch (level) {
    case 0: return o->field_delim;
    case 1: return o->collection_delim;
    case 2: return o->mapkey_delim;
    default:
        if (level < 0 || level >= TEXT_NESTING_MAX)
            return 0;
        fixed_separators(rest);
        return rest[level - 3];
    }
}

int text_format_init(TextFormat *f, const TextOptions *o, int n_cols,
                     const CombType *const *types, CombErr *err)
{
    int rc;
    memset(f, 0, sizeof *f);
    if ((rc = text_check_schema(o, n_cols, types, err)))
        return rc;
    f->types = comb_calloc(n_cols > 0 ? (size_t)n_cols : 1, sizeof *f->types);
    if (!f->types)
        return comb_err_nomem(err);
    f->n_cols = n_cols;
    for (int i = 0; i < n_cols; i++)
        f->types[i] = types[i];
    f->seps[0] = o->field_delim;
    f->seps[1] = o->collection_delim;
    f->seps[2] = o->mapkey_delim;
    fixed_separators(f->seps + 3);
    f->n_seps = separator_levels(o);
    f->escaped = o->escaped;
    f->escape_char = o->escape_char;
    if (f->escaped) {
        f->needs_escape[f->escape_char] = true;
        for (int i = 0; i < f->n_seps; i++)
            f->needs_escape[f->seps[i]] = true;
        if (o->escape_crlf)
            f->needs_escape['\r'] = f->needs_escape['\n'] = true;
    }
    f->null_len = o->null_len;
    f->null_seq = comb_malloc(o->null_len + 1);
    if (!f->null_seq)
        return comb_err_nomem(err);
    memcpy(f->null_seq, o->null_format, o->null_len);
    f->last_column_takes_rest = o->last_column_takes_rest;
    f->line_delim = o->line_delim;
    return COMB_OK;
}

void text_format_free(TextFormat *f)
{
    comb_free(f->null_seq);
    comb_free(f->types);
    memset(f, 0, sizeof *f);
}

/* LazyUtils.getSeparator's refusal of a level beyond the separators. */
static int nesting_error(int n_seps, int level, CombErr *err)
{
    const char *hint = n_seps <= TEXT_NESTING_DEFAULT
        ? ". Use hive.serialization.extend.nesting.levels serde property for "
          "tables using LazySimpleSerde."
        : n_seps <= TEXT_NESTING_EXTENDED
        ? ". Use hive.serialization.extend.additional.nesting.levels serde "
          "property for tables using LazySimpleSerde."
        : "";
    return comb_err(err, COMB_EINVALID,
                    "Number of levels of nesting supported for "
                    "LazySimpleSerde is %d Unable to work with level %d%s",
                    n_seps - 1, level, hint);
}

/* The levels a value of type t at `level` uses (LazyFactory: arrays,
 * structs and unions one, maps two; their parts start one (maps two)
 * deeper).  Like LazyFactory, the parts are checked before the type
 * itself, so the deepest level that fails is the one reported. */
static int check_type(const CombType *t, int level, int n_seps, CombErr *err)
{
    bool map = t->kind == COMB_T_MAP;
    if (comb_type_is_primitive(t->kind))
        return COMB_OK;
    if (map && !comb_type_is_primitive(t->children[0]->kind))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "text files cannot hold map keys of type %s: map keys "
                        "must be primitive", comb_type_name(t->children[0]->kind));
    for (int i = 0; i < t->n_children; i++) {
        int rc = check_type(t->children[i], level + (map ? 2 : 1), n_seps, err);
        if (rc)
            return rc;
    }
    if (level >= n_seps)
        return nesting_error(n_seps, level, err);
    if (map && level + 1 >= n_seps)
        return nesting_error(n_seps, level + 1, err);
    return COMB_OK;
}

int text_check_schema(const TextOptions *o, int n_cols,
                      const CombType *const *types, CombErr *err)
{
    for (int i = 0; i < n_cols; i++) {
        int rc = check_type(types[i], 1, separator_levels(o), err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}
