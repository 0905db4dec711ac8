/*
 * dump.c - `comb orcfiledump`: the file's metadata laid out like Hive's
 * orcfiledump (version, rows, compression, type, stripe statistics, file
 * statistics, stripes with streams and encodings, user metadata), or one
 * JSON object per row, either as Hive's `orcfiledump -d` prints them
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
static void print_timestamp(FILE *out, int64_t secs, int32_t nanos)
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
        print_timestamp(out, v->i64[row], v->nanos[row]);
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

/* -------------------------------------------------------------- metadata */

static const char *writer_version_name(uint32_t v)
{
    static const char *const names[] = {
        "ORIGINAL", "HIVE_8732", "HIVE_4243", "HIVE_12055", "HIVE_13083",
        "ORC_101", "ORC_135", "ORC_517", "ORC_203", "ORC_14"};
    return v < sizeof names / sizeof names[0] ? names[v] : "FUTURE";
}

static const char *writer_name(uint32_t id)
{
    static const char *const names[] = {"ORC Java", "ORC C++", "Presto",
                                        "Scritchley Go", "Trino", "CUDF"};
    return id < sizeof names / sizeof names[0] ? names[id] : "unknown";
}

static void print_bytes_text(FILE *out, const uint8_t *p, size_t len)
{
    bool text = true;
    if (len == 0)
        return;
    for (size_t i = 0; i < len && text; i++)
        text = p[i] >= 0x20 || p[i] == '\t' || p[i] == '\n';
    if (text) {
        fwrite(p, 1, len, out);
        return;
    }
    for (size_t i = 0; i < len; i++)
        fprintf(out, "%02x", p[i]);
}

/* A statistics timestamp: wall-clock milliseconds plus the nanos within
 * the millisecond. */
static void print_stats_timestamp(FILE *out, int64_t ms, int32_t nanos)
{
    int64_t secs = ms / 1000 - (ms % 1000 < 0);
    int32_t frac = (int32_t)(ms - secs * 1000) * 1000000 + nanos;
    print_timestamp(out, secs, frac);
}

/* Decimal, timestamp and collection statistics, as ORC Java prints them. */
static void print_more_stats(FILE *out, const OrcColumnStats *s)
{
    if (s->has_decimal)
        fprintf(out, " min: %.*s max: %.*s", (int)s->dec_min.len,
                s->dec_min.ptr, (int)s->dec_max.len, s->dec_max.ptr);
    if (s->has_decimal && s->has_dec_sum)
        fprintf(out, " sum: %.*s", (int)s->dec_sum.len, s->dec_sum.ptr);
    if (s->has_timestamp) {
        fputs(" min: ", out);
        print_stats_timestamp(out, s->ts_min_ms, s->ts_min_nanos);
        fputs(" max: ", out);
        print_stats_timestamp(out, s->ts_max_ms, s->ts_max_nanos);
    }
    if (s->has_collection && s->n_values > 0) {
        fprintf(out, " minChildren: %" PRIu64 " maxChildren: %" PRIu64,
                s->min_children, s->max_children);
        if (s->total_children)
            fprintf(out, " totalChildren: %" PRIu64, s->total_children);
    }
}

static void print_stats(FILE *out, CombTypeKind kind, const OrcColumnStats *s)
{
    fprintf(out, "count: %" PRIu64 " hasNull: %s", s->n_values,
            s->has_null ? "true" : "false");
    if (s->has_bucket)
        fprintf(out, " true: %" PRIu64, s->true_count);
    if (s->has_int && kind == COMB_T_DATE) {
        fputs(" min: ", out);
        print_date(out, s->int_min);
        fputs(" max: ", out);
        print_date(out, s->int_max);
    } else if (s->has_int) {
        fprintf(out, " min: %" PRId64 " max: %" PRId64, s->int_min, s->int_max);
    }
    if (s->has_sum)
        fprintf(out, " sum: %" PRId64, s->int_sum);
    if (s->has_double) {
        char a[64], b[64];
        comb_format_double(s->dbl_min, a, sizeof a);
        comb_format_double(s->dbl_max, b, sizeof b);
        fprintf(out, " min: %s max: %s", a, b);
    }
    /* As ORC Java's toString: a double's sum even without values, a
     * string's min, max and sum and a binary's sum only with them. */
    if (kind == COMB_T_FLOAT || kind == COMB_T_DOUBLE) {
        char c[64];
        comb_format_double(s->dbl_sum, c, sizeof c);
        fprintf(out, " sum: %s", c);
    }
    if (s->has_string) {
        fputs(" min: ", out);
        print_bytes_text(out, (const uint8_t *)s->str_min.ptr, s->str_min.len);
        fputs(" max: ", out);
        print_bytes_text(out, (const uint8_t *)s->str_max.ptr, s->str_max.len);
    }
    if ((s->has_string || kind == COMB_T_BINARY) && s->n_values)
        fprintf(out, " sum: %" PRId64, s->str_sum_len);
    print_more_stats(out, s);
    fputc('\n', out);
}

static int dump_header(OrcReader *r, FILE *out)
{
    const Orc__Proto__Footer *f = orc_reader_footer(r);
    CombBuf type = COMB_BUF_INIT;
    if (comb_type_format(orc_reader_schema(r), &type) ||
        comb_buf_append_byte(&type, '\0')) {
        comb_buf_free(&type);
        return COMB_ENOMEM;
    }
    fprintf(out, "Structure for %s\n", orc_reader_path(r));
    fprintf(out, "File Version: %s with %s by %s%s%s\n",
            orc_reader_file_version(r),
            writer_version_name(orc_reader_writer_version(r)),
            writer_name(f->has_writer ? f->writer : 0),
            f->softwareversion ? " " : "",
            f->softwareversion ? f->softwareversion : "");
    fprintf(out, "Rows: %" PRIu64 "\n", orc_reader_n_rows(r));
    fprintf(out, "Compression: %s\n",
            orc_compression_name(orc_reader_compression(r)));
    if (orc_reader_compression(r) != ORC_COMP_NONE)
        fprintf(out, "Compression size: %" PRIu64 "\n",
                orc_reader_compression_block_size(r));
    fprintf(out, "Type: %s\n\n", (char *)type.data);
    comb_buf_free(&type);
    return COMB_OK;
}

/* Timestamp statistics of writers before ORC-135 (no UTC fields) hold
 * milliseconds of the instant; the writer zone of the stripe (the first
 * stripe's for the file's) makes them the wall clock the rows read as, as
 * ORC C++ does.  Left as they are when the zone cannot be had. */
static void stats_wall_clock(OrcReader *r, int stripe, OrcColumnStats *s)
{
    Orc__Proto__StripeFooter *sf;
    CombErr err;
    int rc;
    if (!s->has_timestamp || !s->ts_local || stripe >= orc_reader_n_stripes(r) ||
        orc_reader_stripe_footer(r, stripe, &sf, &err))
        return;
    rc = orc_reader_use_zone(r, sf->writertimezone, &err);
    orc_stripe_footer_free(sf);
    if (rc)
        return;
    const OrcTz *tz = r->zones[r->stripe_zone];
    s->ts_min_ms += 1000 * (int64_t)orc_tz_offset(tz, s->ts_min_ms / 1000);
    s->ts_max_ms += 1000 * (int64_t)orc_tz_offset(tz, s->ts_max_ms / 1000);
}

static int dump_stripe_stats(OrcReader *r, FILE *out, CombErr *err)
{
    OrcColumnStats s;
    int n = orc_reader_n_columns(r);
    fputs("Stripe Statistics:\n", out);
    for (int i = 0; i < orc_reader_n_stripes(r); i++) {
        fprintf(out, "  Stripe %d:\n", i + 1);
        for (int c = 0; c < n; c++) {
            int rc = orc_reader_stripe_stats(r, i, c, &s, err);
            if (rc == COMB_ENOTFOUND)
                break;
            if (rc)
                return rc;
            stats_wall_clock(r, i, &s);
            fprintf(out, "    Column %d: ", c);
            print_stats(out, comb_type_find(orc_reader_schema(r), c)->kind, &s);
        }
    }
    comb_err_clear(err);
    fputs("\nFile Statistics:\n", out);
    for (int c = 0; c < n; c++)
        if (orc_reader_column_stats(r, c, &s) == COMB_OK) {
            stats_wall_clock(r, 0, &s);
            fprintf(out, "  Column %d: ", c);
            print_stats(out, comb_type_find(orc_reader_schema(r), c)->kind, &s);
        }
    return COMB_OK;
}

static void dump_streams(FILE *out, const Orc__Proto__StripeFooter *sf,
                         uint64_t start)
{
    for (size_t i = 0; i < sf->n_streams; i++) {
        const Orc__Proto__Stream *st = sf->streams[i];
        fprintf(out, "    Stream: column %u section %s start: %" PRIu64
                " length %" PRIu64 "\n", st->column,
                orc_stream_kind_name((int)st->kind), start, st->length);
        start += st->length;
    }
    for (size_t i = 0; i < sf->n_columns; i++) {
        const Orc__Proto__ColumnEncoding *e = sf->columns[i];
        fprintf(out, "    Encoding column %zu: %s", i,
                orc_encoding_name((int)e->kind));
        if (e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
            e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2)
            fprintf(out, "[%u]", e->dictionarysize);
        fputc('\n', out);
    }
}

static int dump_stripes(OrcReader *r, FILE *out, CombErr *err)
{
    uint64_t padding = 0, prev_end = ORC_MAGIC_LEN;
    fputs("\nStripes:\n", out);
    for (int i = 0; i < orc_reader_n_stripes(r); i++) {
        OrcStripeInfo si;
        Orc__Proto__StripeFooter *sf;
        orc_reader_stripe_info(r, i, &si);
        fprintf(out, "  Stripe: offset: %" PRIu64 " data: %" PRIu64
                " rows: %" PRIu64 " tail: %" PRIu64 " index: %" PRIu64 "\n",
                si.offset, si.data_length, si.n_rows, si.footer_length,
                si.index_length);
        int rc = orc_reader_stripe_footer(r, i, &sf, err);
        if (rc)
            return rc;
        dump_streams(out, sf, si.offset);
        orc_stripe_footer_free(sf);
        if (si.offset > prev_end)
            padding += si.offset - prev_end;
        prev_end = si.offset + si.index_length + si.data_length +
                   si.footer_length;
    }
    uint64_t len = orc_reader_file_length(r);
    fprintf(out, "\nFile length: %" PRIu64 " bytes\n", len);
    fprintf(out, "Padding length: %" PRIu64 " bytes\n", padding);
    fprintf(out, "Padding ratio: %.2f%%\n", len ? 100.0 * (double)padding /
                                                   (double)len : 0.0);
    return COMB_OK;
}

static void dump_user_metadata(OrcReader *r, FILE *out)
{
    int n = orc_reader_n_metadata(r);
    if (n == 0)
        return;
    fputs("\nUser Metadata:\n", out);
    for (int i = 0; i < n; i++) {
        const char *key;
        const void *val;
        size_t len;
        orc_reader_metadata_at(r, i, &key, &val, &len);
        fprintf(out, "  %s=", key);
        print_bytes_text(out, val, len);
        fputc('\n', out);
    }
}

static int dump_meta(OrcReader *r, FILE *out, CombErr *err)
{
    int rc = dump_header(r, out);
    if (rc)
        return comb_err_nomem(err);
    if ((rc = dump_stripe_stats(r, out, err)) ||
        (rc = dump_stripes(r, out, err)))
        return rc;
    dump_user_metadata(r, out);
    fputs("________________________________________________________________"
          "________________________________________________________\n", out);
    return COMB_OK;
}

int orc_dump(const char *path, OrcDumpMode mode, FILE *out, CombErr *err)
{
    OrcReader *r;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    rc = mode == ORC_DUMP_META ? dump_meta(r, out, err)
                               : dump_rows(r, mode == ORC_DUMP_ROWS, out, err);
    orc_reader_close(r);
    return rc;
}
