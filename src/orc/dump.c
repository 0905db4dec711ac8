/*
 * dump.c - `comb orcfiledump`: the file's metadata laid out like Hive's
 * orcfiledump (version, rows, compression, type, stripe statistics, file
 * statistics, stripes with streams and encodings, user metadata), or with
 * `rows` one JSON object per row in the ORC tools' orc-contents format.
 * Columns this reader cannot decode print as null, noted on stderr.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- values */

/* Civil date of a day count since 1970-01-01 (proleptic Gregorian). */
static void civil_from_days(int64_t days, int64_t *y, int *m, int *d)
{
    /* shift the epoch to 0000-03-01 so leap days end each 400-year era */
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                          /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);   /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                        /* [0, 11] */
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* YYYY-MM-DD, in double quotes for JSON. */
static void print_date(FILE *out, int64_t days, bool quoted)
{
    int64_t y;
    int m, d;
    const char *q = quoted ? "\"" : "";
    if (days < -(INT64_C(1) << 40) || days > (INT64_C(1) << 40)) {
        fprintf(out, "%s%" PRId64 "%s", q, days, q);  /* no sane date */
        return;
    }
    civil_from_days(days, &y, &m, &d);
    fprintf(out, "%s%04" PRId64 "-%02d-%02d%s", q, y, m, d, q);
}

static void print_json_string(FILE *out, CombStr s)
{
    fputc('"', out);
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
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

static void print_binary(FILE *out, CombStr s)
{
    fputc('[', out);
    for (uint32_t i = 0; i < s.len; i++)
        fprintf(out, i ? ", %u" : "%u", (unsigned)(uint8_t)s.ptr[i]);
    fputc(']', out);
}

static void print_value(FILE *out, const CombType *t, const CombBatch *b,
                        const bool *readable, int row)
{
    const CombVector *v = &b->cols[t->id];
    if (!readable[t->id] || comb_vec_is_null(v, row)) {
        fputs("null", out);
        return;
    }
    switch (t->kind) {
    case COMB_T_BOOLEAN:
        fputs(v->i64[row] ? "true" : "false", out);
        return;
    case COMB_T_DATE:
        print_date(out, v->i64[row], true);
        return;
    case COMB_T_FLOAT:
        fprintf(out, "%.7g", v->f64[row]);
        return;
    case COMB_T_DOUBLE:
        fprintf(out, "%.14g", v->f64[row]);
        return;
    case COMB_T_BINARY:
        print_binary(out, v->str[row]);
        return;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        print_json_string(out, v->str[row]);
        return;
    case COMB_T_STRUCT:
        fputc('{', out);
        for (int i = 0; i < t->n_children; i++) {
            fprintf(out, i ? ", \"%s\": " : "\"%s\": ", t->field_names[i]);
            print_value(out, t->children[i], b, readable, row);
        }
        fputc('}', out);
        return;
    default:
        fprintf(out, "%" PRId64, v->i64[row]);
        return;
    }
}

/* A column is readable if its kind is and every ancestor's is. */
static void mark_readable(const CombType *t, bool parent_ok, bool *readable,
                          const char *path)
{
    bool ok = parent_ok && orc_kind_readable(t->kind);
    readable[t->id] = ok;
    if (parent_ok && !ok)
        fprintf(stderr, "orcfiledump: '%s': column %d (%s) is not supported "
                "and prints as null\n", path, t->id, comb_type_name(t->kind));
    for (int i = 0; i < t->n_children; i++)
        mark_readable(t->children[i], ok, readable, path);
}

static int dump_rows(OrcReader *r, FILE *out, CombErr *err)
{
    int n = orc_reader_n_columns(r);
    const CombType *root = orc_reader_schema(r);
    bool *readable = comb_calloc((size_t)n, sizeof *readable);
    CombBatch b;
    if (!readable)
        return comb_err_nomem(err);
    mark_readable(root, true, readable, orc_reader_path(r));
    int rc = orc_reader_select(r, readable, err);
    if (!rc && orc_reader_batch_init(r, &b, COMB_BATCH_SIZE)) {
        rc = comb_err_nomem(err);
    } else if (!rc) {
        while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
            for (int i = 0; i < b.n_rows; i++) {
                print_value(out, root, &b, readable, i);
                fputc('\n', out);
            }
        comb_batch_free(&b);
    }
    comb_free(readable);
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

static void print_stats(FILE *out, CombTypeKind kind, const OrcColumnStats *s)
{
    fprintf(out, "count: %" PRIu64 " hasNull: %s", s->n_values,
            s->has_null ? "true" : "false");
    if (s->has_bucket)
        fprintf(out, " true: %" PRIu64, s->true_count);
    if (s->has_int && kind == COMB_T_DATE) {
        fputs(" min: ", out);
        print_date(out, s->int_min, false);
        fputs(" max: ", out);
        print_date(out, s->int_max, false);
    } else if (s->has_int) {
        fprintf(out, " min: %" PRId64 " max: %" PRId64, s->int_min, s->int_max);
    }
    if (s->has_sum)
        fprintf(out, " sum: %" PRId64, s->int_sum);
    if (s->has_double)
        fprintf(out, " min: %.17g max: %.17g sum: %.17g", s->dbl_min,
                s->dbl_max, s->dbl_sum);
    if (s->has_string) {
        fputs(" min: ", out);
        print_bytes_text(out, (const uint8_t *)s->str_min.ptr, s->str_min.len);
        fputs(" max: ", out);
        print_bytes_text(out, (const uint8_t *)s->str_max.ptr, s->str_max.len);
    }
    if (comb_type_is_str(kind))
        fprintf(out, " sum: %" PRId64, s->str_sum_len);
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
            fprintf(out, "    Column %d: ", c);
            print_stats(out, comb_type_find(orc_reader_schema(r), c)->kind, &s);
        }
    }
    comb_err_clear(err);
    fputs("\nFile Statistics:\n", out);
    for (int c = 0; c < n; c++)
        if (orc_reader_column_stats(r, c, &s) == COMB_OK) {
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

int orc_dump(const char *path, bool rows, FILE *out, CombErr *err)
{
    OrcReader *r;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    rc = rows ? dump_rows(r, out, err) : dump_meta(r, out, err);
    orc_reader_close(r);
    return rc;
}
