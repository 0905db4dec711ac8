/*
 * dump.c - `comb orcfiledump`'s rows (the metadata listing is
 * filedump.c): one JSON object per row, either as Hive's `orcfiledump -d` prints them
 * (compact, Hive's JSON writer: decimals as trimmed text in quotes, maps
 * as [{"_key":k,"_value":v}], a union as its member's value) or as ORC
 * C++'s orc-contents does (the ORC project's expected dumps).
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"
#include "common/numfmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- values */

/* Hive's JSON writer (jettison) prints a double as Java's text with the
 * trailing fraction zeros of plain notation dropped ("1.0" is "1"). */
static void print_hive_double(FILE *out, double d)
{
    char buf[64];
    comb_format_double(d, buf, sizeof buf);
    size_t n = strlen(buf);
    if (strchr(buf, '.') && !strchr(buf, 'E')) {
        while (n > 0 && buf[n - 1] == '0')
            n--;
        if (n > 0 && buf[n - 1] == '.')
            n--;
    }
    fwrite(buf, 1, n, out);
}

/* "yyyy-MM-dd HH:mm:ss.f": java.sql.Timestamp's text, which orc-contents
 * prints too: the fraction without trailing zeros, at least one digit. */
void orc_print_timestamp(FILE *out, int64_t secs, int32_t nanos)
{
    char date[48], frac[16];
    int64_t days = comb_seconds_to_days(secs);
    int64_t tod = secs - comb_days_to_seconds(days);
    int len;
    comb_date_format(days, date, sizeof date);
    len = snprintf(frac, sizeof frac, "%09d", (int)nanos);
    while (len > 1 && frac[len - 1] == '0')
        frac[--len] = '\0';
    fprintf(out, "%s %02d:%02d:%02d.%s", date, (int)(tod / 3600),
            (int)(tod / 60 % 60), (int)(tod % 60), frac);
}

static void print_date(FILE *out, int64_t days)
{
    char buf[48];
    comb_date_format(days, buf, sizeof buf);
    fputs(buf, out);
}

/* orc-contents escapes only these. */
static void print_contents_string(FILE *out, const char *p, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        switch (c) {
        case '\\': fputs("\\\\", out); break;
        case '"': fputs("\\\"", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default: fputc(c, out);
        }
    }
    fputc('"', out);
}

/* Hive's JSON quoting (JSONObject.quote): also "</" as "<\/", other
 * control characters and U+0080..U+009F, U+2000..U+20FF as \uXXXX (the
 * latter two read from their UTF-8 bytes). */
static void print_hive_string(FILE *out, const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        uint8_t c = p[i];
        if (c == '\\' || c == '"') {
            fprintf(out, "\\%c", c);
        } else if (c == '/') {
            fputs(i > 0 && p[i - 1] == '<' ? "\\/" : "/", out);
        } else if (c == '\b' || c == '\t' || c == '\n' || c == '\f' ||
                   c == '\r') {
            fputc('\\', out);
            fputc("btnfr"[strchr("\b\t\n\f\r", c) - "\b\t\n\f\r"], out);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else if (c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
                   p[i + 1] < 0xa0) {
            fprintf(out, "\\u%04x", p[++i]);
        } else if (c == 0xe2 && i + 2 < len && p[i + 1] >= 0x80 &&
                   p[i + 1] <= 0x83 && (p[i + 2] & 0xc0) == 0x80) {
            fprintf(out, "\\u%04x", 0x2000 | (p[i + 1] & 0x3f) << 6 |
                                        (p[i + 2] & 0x3f));
            i += 2;
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

/* The two JSON forms differ in spacing, map keys, unions and leaves. */
typedef struct JsonForm {
    bool hive;        /* Hive's orcfiledump -d, else orc-contents */
    const char *sep;  /* between items */
    const char *colon;
} JsonForm;

static void print_string(FILE *out, const JsonForm *f, const char *p,
                         size_t len)
{
    if (f->hive)
        print_hive_string(out, p, len);
    else
        print_contents_string(out, p, len);
}

static void print_key(FILE *out, const JsonForm *f, const char *name)
{
    print_string(out, f, name, strlen(name));
    fputs(f->colon, out);
}

static void print_value(FILE *out, const JsonForm *f, const CombType *t,
                        const CombVector *v, int row);

static void print_binary(FILE *out, const JsonForm *f, CombStr s)
{
    fputc('[', out);
    for (uint32_t i = 0; i < s.len; i++)
        fprintf(out, "%s%u", i ? f->sep : "", (unsigned)(uint8_t)s.ptr[i]);
    fputc(']', out);
}

static void print_decimal(FILE *out, const JsonForm *f, const CombType *t,
                          comb_i128 u)
{
    char buf[64];
    if (!f->hive) {
        comb_dec_format(u, (int)t->scale, buf, sizeof buf);
        fputs(buf, out);
        return;
    }
    orc_decimal_text(u, (int)t->scale, buf, sizeof buf);
    fprintf(out, "\"%s\"", buf);
}

/* fields: the struct vector's children, or a batch's columns. */
static void print_struct(FILE *out, const JsonForm *f, const CombType *t,
                         const CombVector *fields, int row)
{
    fputc('{', out);
    for (int i = 0; i < t->n_children; i++) {
        if (i)
            fputs(f->sep, out);
        print_key(out, f, t->field_names[i]);
        print_value(out, f, t->children[i], &fields[i], row);
    }
    fputc('}', out);
}

static void print_collection(FILE *out, const JsonForm *f, const CombType *t,
                             const CombVector *v, int row)
{
    fputc('[', out);
    for (uint32_t e = 0; e < v->len[row]; e++) {
        int elem = (int)(v->off[row] + e);
        if (e)
            fputs(f->sep, out);
        if (t->kind == COMB_T_LIST) {
            print_value(out, f, t->children[0], &v->children[0], elem);
            continue;
        }
        fputc('{', out);
        print_key(out, f, f->hive ? "_key" : "key");
        print_value(out, f, t->children[0], &v->children[0], elem);
        fputs(f->sep, out);
        print_key(out, f, f->hive ? "_value" : "value");
        print_value(out, f, t->children[1], &v->children[1], elem);
        fputc('}', out);
    }
    fputc(']', out);
}

static void print_compound(FILE *out, const JsonForm *f, const CombType *t,
                           const CombVector *v, int row)
{
    int tag;
    switch (t->kind) {
    case COMB_T_STRUCT:
        print_struct(out, f, t, v->children, row);
        return;
    case COMB_T_UNION:
        tag = v->tag[row];
        if (!f->hive)
            fprintf(out, "{\"tag\"%s%d%s\"value\"%s", f->colon, tag, f->sep,
                    f->colon);
        print_value(out, f, t->children[tag], &v->children[tag], row);
        if (!f->hive)
            fputc('}', out);
        return;
    default:
        print_collection(out, f, t, v, row);
        return;
    }
}

static void print_value(FILE *out, const JsonForm *f, const CombType *t,
                        const CombVector *v, int row)
{
    if (comb_vec_is_null(v, row)) {
        fputs("null", out);
        return;
    }
    switch (t->kind) {
    case COMB_T_BOOLEAN:
        fputs(v->i64[row] ? "true" : "false", out);
        return;
    case COMB_T_DATE:
        fputc('"', out);
        print_date(out, v->i64[row]);
        fputc('"', out);
        return;
    case COMB_T_TIMESTAMP:
        fputc('"', out);
        orc_print_timestamp(out, v->i64[row], v->nanos[row]);
        fputc('"', out);
        return;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        if (f->hive)
            print_hive_double(out, v->f64[row]);
        else
            fprintf(out, t->kind == COMB_T_FLOAT ? "%.7g" : "%.14g",
                    v->f64[row]);
        return;
    case COMB_T_DECIMAL:
        print_decimal(out, f, t, v->dec[row]);
        return;
    case COMB_T_BINARY:
        print_binary(out, f, v->str[row]);
        return;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        print_string(out, f, v->str[row].ptr, v->str[row].len);
        return;
    case COMB_T_STRUCT:
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_UNION:
        print_compound(out, f, t, v, row);
        return;
    default:
        fprintf(out, "%" PRId64, v->i64[row]);
        return;
    }
}

static void print_row(FILE *out, const JsonForm *f, const CombType *root,
                      const CombBatch *b, int row)
{
    if (root->kind != COMB_T_STRUCT) {
        print_value(out, f, root, &b->cols[0], row);
        return;
    }
    print_struct(out, f, root, b->cols, row);
}

static int dump_rows(OrcReader *r, bool hive, FILE *out, CombErr *err)
{
    static const JsonForm hive_form = {true, ",", ":"};
    static const JsonForm contents_form = {false, ", ", ": "};
    const JsonForm *f = hive ? &hive_form : &contents_form;
    const CombType *root = orc_reader_schema(r);
    CombBatch b;
    int rc;
    if (orc_reader_batch_init(r, &b, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++) {
            print_row(out, f, root, &b, i);
            fputc('\n', out);
        }
    comb_batch_free(&b);
    return rc;
}

int orc_dump(const char *path, OrcDumpMode mode, FILE *out, CombErr *err)
{
    static const OrcDumpOptions plain = {0};
    OrcReader *r;
    if (mode == ORC_DUMP_META)
        return orc_dump_metadata(path, &plain, out, err);
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    rc = dump_rows(r, mode == ORC_DUMP_ROWS, out, err);
    orc_reader_close(r);
    return rc;
}
