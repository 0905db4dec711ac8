/*
 * ddl_hivetext.c - text laid out as Hive's DDL operations write it
 * (ShowUtils.formatOutput, TextMetaDataTable, HiveStringUtils' escapes),
 * and the rows Hive's fetch cuts that text into: one row per line, fields
 * split at tabs, fields missing from a line NULL, fields beyond the
 * result's columns dropped (LazySimpleSerDe's reading of the result file).
 *
 * Widths are Java's: String.format("%-20s") pads to 20 UTF-16 code units,
 * so a character outside the BMP counts twice.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql/ddl/ddl_int.h"

#define HIVE_ALIGNMENT 20

void hive_text_init(HiveText *h, bool padded)
{
    memset(h, 0, sizeof *h);
    h->padded = padded;
}

void hive_text_free(HiveText *h)
{
    comb_buf_free(&h->b);
}

static void put(HiveText *h, const char *s, size_t n)
{
    h->oom |= comb_buf_append(&h->b, s, n) != 0;
}

static void puts_(HiveText *h, const char *s)
{
    put(h, s, strlen(s));
}

static void spaces(HiveText *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(h, " ", 1);
}

/* Length in UTF-16 code units of s[0..n). */
static size_t java_length(const char *s, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80)
            len += c >= 0xF0 ? 2 : 1;
    }
    return len;
}

/* String.format("%-20s", s): NULL prints "null". */
static void padded(HiveText *h, const char *s, size_t n)
{
    size_t len;
    if (!s) {
        s = "null";
        n = 4;
    }
    len = java_length(s, n);
    put(h, s, n);
    if (len < HIVE_ALIGNMENT)
        spaces(h, HIVE_ALIGNMENT - len);
}

/* ShowUtils.printPadding: per earlier column its width in spaces (none
 * for width 0), each followed by a tab. */
static void print_padding(HiveText *h, const size_t *widths, int n)
{
    for (int i = 0; i < n; i++) {
        spaces(h, widths[i]);
        put(h, "\t", 1);
    }
}

/* ShowUtils.indentMultilineValue: the value's lines (split at \n and \r,
 * trailing empty lines dropped, as Java's String.split), each padded, the
 * later ones indented by the earlier columns' widths. */
static void multiline_value(HiveText *h, const char *value,
                            const size_t *widths, int n_widths,
                            bool print_null)
{
    const char *p, *end;
    bool first = true;
    if (!value) {
        if (print_null)
            padded(h, NULL, 0);
        put(h, "\n", 1);
        return;
    }
    end = value + strlen(value);
    while (end > value && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    p = value;
    do {
        size_t n = strcspn(p, "\n\r");
        if ((size_t)(end - p) < n)
            n = (size_t)(end - p);
        if (!first)
            print_padding(h, widths, n_widths);
        padded(h, p, n);
        put(h, "\n", 1);
        first = false;
        p += n;
        if (p < end)
            p++;
    } while (p < end);
}

/* ShowUtils' unescaping of a padded last field: the two-character
 * sequences \n, \r (and \r\n) become line breaks. */
static char *unescape_breaks(CombArena *a, const char *s)
{
    char *out = s ? comb_arena_alloc(a, strlen(s) + 1) : NULL;
    size_t k = 0;
    if (!out)
        return NULL;
    for (const char *p = s; *p; p++) {
        if (p[0] == '\\' && (p[1] == 'n' || p[1] == 'r')) {
            out[k++] = '\n';
            p++;
            if (p[0] == 'r' && p[1] == '\\' && p[2] == 'n')
                p += 2;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
    return out;
}

/* --------------------------------------------------------------- escapes */

/* HiveStringUtils.escapeJava: " and \ and the control characters \b \t
 * \n \f \r get a backslash; everything else stays. */
static const char *escape_java_char(unsigned char c)
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\t': return "\\t";
    case '\n': return "\\n";
    case '\f': return "\\f";
    case '\r': return "\\r";
    default: return NULL;
    }
}

/* The code point of the UTF-8 sequence at s (advancing *len bytes); a
 * byte that starts no sequence is itself. */
static uint32_t utf8_next(const unsigned char *s, size_t *len)
{
    int n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
    uint32_t cp = n == 1 ? s[0] : s[0] & (0x3F >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *len = 1;
            return s[0];
        }
        cp = cp << 6 | (s[i] & 0x3F);
    }
    *len = (size_t)n;
    return cp;
}

/* \uXXXX for a code point, as UTF-16 escapes (a surrogate pair beyond the
 * BMP), upper-case hex as JavaUnicodeEscaper writes it. */
static void unicode_escape(CombBuf *b, uint32_t cp, int *oom)
{
    if (cp > 0xFFFF) {
        cp -= 0x10000;
        *oom |= comb_buf_printf(b, "\\u%04X\\u%04X", 0xD800 + (cp >> 10),
                                0xDC00 + (cp & 0x3FF)) != 0;
        return;
    }
    *oom |= comb_buf_printf(b, "\\u%04X", cp) != 0;
}

char *hive_escape(CombArena *a, const char *s, HiveEscape how)
{
    CombBuf b = COMB_BUF_INIT;
    bool command = how == HIVE_ESCAPE_COMMAND || how == HIVE_ESCAPE_COMMAND_UNICODE;
    bool unicode = how == HIVE_ESCAPE_JAVA_UNICODE ||
                   how == HIVE_ESCAPE_COMMAND_UNICODE;
    int oom = 0;
    char *out;
    if (!s)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const char *e = escape_java_char(*p);
        size_t n = 1;
        if (command && (*p == '\'' || *p == ';')) {
            oom |= comb_buf_append_byte(&b, '\\') != 0;
            oom |= comb_buf_append_byte(&b, *p) != 0;
        } else if (e && !(command && *p == '"')) {
            oom |= comb_buf_append_str(&b, e) != 0;
        } else if (unicode && (*p < 32 || *p > 127)) {
            unicode_escape(&b, utf8_next(p, &n), &oom);
        } else {
            oom |= comb_buf_append_byte(&b, *p) != 0;
        }
        p += n;
    }
    out = oom ? NULL : comb_arena_strndup(a, b.data ? (char *)b.data : "", b.len);
    comb_buf_free(&b);
    return out;
}

/* ---------------------------------------------------------------- layout */

void hive_text_put(HiveText *h, const char *s)
{
    puts_(h, s);
}

void hive_text_line(HiveText *h, const char *s)
{
    puts_(h, s);
    put(h, "\n", 1);
}

int hive_text_row(HiveText *h, CombArena *a, const char *const *fields, int n)
{
    size_t widths[16];
    const char *last;
    if (n <= 0 || n > 16)
        return COMB_EINVALID;
    if (!h->padded) {
        for (int i = 0; i < n; i++) {
            char *v = hive_escape(a, fields[i], HIVE_ESCAPE_JAVA);
            if (fields[i] && !v)
                return COMB_ENOMEM;
            if (v)
                puts_(h, v);
            put(h, i == n - 1 ? "\n" : "\t", 1);
        }
        return h->oom ? COMB_ENOMEM : COMB_OK;
    }
    for (int i = 0; i < n - 1; i++) {
        widths[i] = 0;
        if (!fields[i]) {
            put(h, "\t", 1);
            continue;
        }
        padded(h, fields[i], strlen(fields[i]));
        put(h, "\t", 1);
        widths[i] = java_length(fields[i], strlen(fields[i]));
        if (widths[i] < HIVE_ALIGNMENT)
            widths[i] = HIVE_ALIGNMENT;
    }
    last = fields[n - 1] ? unescape_breaks(a, fields[n - 1]) : NULL;
    if (fields[n - 1] && !last)
        return COMB_ENOMEM;
    multiline_value(h, last, widths, n - 1, false);
    return h->oom ? COMB_ENOMEM : COMB_OK;
}

void hive_text_pair(HiveText *h, const char *name, const char *value)
{
    size_t widths[2] = {0, java_length(name, strlen(name))};
    if (widths[1] < HIVE_ALIGNMENT)
        widths[1] = HIVE_ALIGNMENT;
    padded(h, name, strlen(name));
    put(h, "\t", 1);
    multiline_value(h, value, widths, 2, true);
}

int hive_text_params(HiveText *h, CombArena *a, const MsProperty *params,
                     int n, bool escape_unicode, bool padded_values)
{
    MsProperty *sorted = comb_arena_alloc(a, (size_t)(n + 1) * sizeof *sorted);
    if (!sorted)
        return COMB_ENOMEM;
    if (n > 0)
        memcpy(sorted, params, (size_t)n * sizeof *sorted);
    sql_props_sort(sorted, n);
    for (int i = 0; i < n; i++) {
        const char *v = sorted[i].value;
        char *esc;
        if (strcmp(sorted[i].key, "TABLE_IS_CTAS") == 0 ||
            (strcmp(sorted[i].key, "numFilesErasureCoded") == 0 && v &&
             strcmp(v, "0") == 0))
            continue;
        esc = hive_escape(a, v, escape_unicode ? HIVE_ESCAPE_JAVA_UNICODE
                                               : HIVE_ESCAPE_JAVA);
        if (v && !esc)
            return COMB_ENOMEM;
        if (padded_values && esc && !(esc = unescape_breaks(a, esc)))
            return COMB_ENOMEM;
        put(h, "\t", 1);
        hive_text_pair(h, sorted[i].key, esc);
    }
    return h->oom ? COMB_ENOMEM : COMB_OK;
}

/* ------------------------------------------------------------------ rows */

static int cmp_prop(const void *a, const void *b)
{
    return strcmp(((const MsProperty *)a)->key, ((const MsProperty *)b)->key);
}

void sql_props_sort(MsProperty *props, int n)
{
    if (n > 1)
        qsort(props, (size_t)n, sizeof *props, cmp_prop);
}

/* One line into a row of tr: tab-separated fields, missing ones NULL. */
static int line_row(TextResult *tr, CombArena *a, const char *line,
                    size_t len, CombErr *err)
{
    const char *vals[16] = {0};
    const char *p = line, *end = line + len;
    for (int i = 0; i < tr->n_cols && i < 16; i++) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        size_t n = tab ? (size_t)(tab - p) : (size_t)(end - p);
        if (!(vals[i] = comb_arena_strndup(a, p, n)))
            return comb_err_nomem(err);
        if (!tab)
            break;
        p = tab + 1;
    }
    return sql_text_row(tr, vals, err);
}

int hive_text_emit(SqlStmtCtx *c, HiveText *h, int n_cols,
                   const char *const *names, CombErr *err)
{
    TextResult tr;
    const char *p, *end;
    int rc = COMB_OK;
    if (h->oom)
        return comb_err_nomem(err);
    if (sql_text_begin(&tr, n_cols))
        return comb_err_nomem(err);
    p = h->b.data ? (const char *)h->b.data : "";
    end = p + h->b.len;
    while (p < end && !rc) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        rc = line_row(&tr, c->arena, p, n, err);
        p += n + 1;
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}

bool sql_ddl_padded(const SqlStmtCtx *c)
{
    const char *v = sql_session_get_conf(c->s, "comb.ddl.padded");
    return v && strcasecmp(v, "true") == 0;
}
