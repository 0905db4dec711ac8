/*
 * filedump.c - `comb orcfiledump`'s metadata listing, as `hive
 * --orcfiledump` prints it (Hive runs ORC Java's tools FileDump, of ORC
 * 1.8 in Hive 4): file version, writer, rows, compression, calendar,
 * type and its attributes, stripe and file statistics, stripes with
 * their streams and encodings, row group indexes and bloom filter
 * summaries of the columns asked for (--rowindex), file length, padding
 * and user metadata, each file closed by a line of 120 underscores and a
 * blank line; or (-j) the JsonFileDump form of the same, compact or
 * (-p) indented as gson writes it, one object, or an array of them for
 * several files.  ACID files (comb's addition) get the bucket property
 * and the hive.acid.key.index decoded after the user metadata.
 *
 * Java's text for values is kept: statistics as ColumnStatistics'
 * toString, doubles as Double.toString, floats widened to doubles where
 * Java widens them, the padding ratio through DecimalFormat("##.##"),
 * user metadata and strings decoded as UTF-8 with U+FFFD for bad bytes.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"
#include "common/numfmt.h"
#include "fs/fs.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------- java texts */

/* ORC Java's WriterVersion names: ORC Java's own ids, one "original"
 * version (6) for each other writer, FUTURE for the rest. */
static const char *writer_version_name(uint32_t writer, uint32_t v)
{
    static const char *const java[] = {
        "ORIGINAL", "HIVE_8732", "HIVE_4243", "HIVE_12055", "HIVE_13083",
        "ORC_101", "ORC_135", "ORC_517", "ORC_203", "ORC_14"};
    static const char *const others[] = {
        NULL, "ORC_CPP_ORIGINAL", "PRESTO_ORIGINAL", "SCRITCHLEY_GO_ORIGINAL",
        "TRINO_ORIGINAL", "CUDF_ORIGINAL"};
    if (writer == 0)
        return v < sizeof java / sizeof java[0] ? java[v] : "FUTURE";
    if (writer < sizeof others / sizeof others[0] && v == 6)
        return others[writer];
    return "FUTURE";
}

static const char *writer_name(uint32_t id, char *buf, size_t cap)
{
    static const char *const names[] = {"ORC Java", "ORC C++", "Presto",
                                        "Scritchley Go", "Trino", "CUDF"};
    if (id < sizeof names / sizeof names[0])
        return names[id];
    snprintf(buf, cap, "Unknown(%u)", id);
    return buf;
}

/* Bytes as Java's UTF-8 decoder makes them a string: well-formed
 * sequences kept, each maximal bad part one U+FFFD.  `escape` (may be
 * NULL) writes the characters JSON must escape. */
static size_t utf8_valid_len(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    size_t want = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2
                               : c >= 0xe0 && c <= 0xef ? 3
                               : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (want <= 1)
        return want;
    for (size_t i = 1; i < want; i++) {
        if (i >= n || (p[i] & 0xc0) != 0x80)
            return 0;
        /* no overlong, surrogate or beyond-U+10FFFF forms */
        if (i == 1 && ((c == 0xe0 && p[1] < 0xa0) ||
                       (c == 0xed && p[1] > 0x9f) ||
                       (c == 0xf0 && p[1] < 0x90) ||
                       (c == 0xf4 && p[1] > 0x8f)))
            return 0;
    }
    return want;
}

/* The bytes of a bad part that one U+FFFD stands for. */
static size_t utf8_bad_len(const uint8_t *p, size_t n)
{
    size_t k = 1;
    uint8_t c = p[0];
    size_t want = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                  : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
    while (k < want && k < n && (p[k] & 0xc0) == 0x80 &&
           !(k == 1 && ((c == 0xe0 && p[1] < 0xa0) ||
                        (c == 0xed && p[1] > 0x9f) ||
                        (c == 0xf0 && p[1] < 0x90) ||
                        (c == 0xf4 && p[1] > 0x8f))))
        k++;
    return k;
}

static void print_java_text(FILE *out, const void *data, size_t len,
                            bool json)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_valid_len(p + i, len - i);
        if (k == 0) {
            fputs("\xef\xbf\xbd", out);
            i += utf8_bad_len(p + i, len - i);
            continue;
        }
        uint8_t c = p[i];
        if (json && k == 1 && (c < 0x20 || c == '"' || c == '\\')) {
            static const char esc[] = "\b\t\n\f\r";
            const char *e = c ? strchr(esc, c) : NULL;
            if (c == '"' || c == '\\')
                fprintf(out, "\\%c", c);
            else if (e)
                fprintf(out, "\\%c", "btnfr"[e - esc]);
            else
                fprintf(out, "\\u%04x", c);
        } else if (json && k == 3 && c == 0xe2 && p[i + 1] == 0x80 &&
                   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
            fprintf(out, "\\u%04x", p[i + 2] == 0xa8 ? 0x2028 : 0x2029);
        } else {
            fwrite(p + i, 1, k, out);
        }
        i += k;
    }
}

/* java.sql.Timestamp's text: the fraction without trailing zeros, at
 * least one digit. */
static void print_ts(FILE *out, int64_t ms, int32_t nanos)
{
    int64_t secs = ms / 1000 - (ms % 1000 < 0);
    int32_t frac = (int32_t)(ms - secs * 1000) * 1000000 + nanos;
    orc_print_timestamp(out, secs, frac);
}

static void print_double(FILE *out, double d)
{
    char buf[40];
    comb_format_double(d, buf, sizeof buf);
    fputs(buf, out);
}

/* ----------------------------------------------------------- json */

/* gson's JsonWriter: compact, or indented by two spaces with ": " after
 * names; an empty array or object stays "[]" / "{}". */
typedef struct Json {
    FILE *out;
    bool pretty;
    int depth;
    bool empty[512];  /* the container at each depth has no item yet
                         (type trees are at most 100 deep) */
    bool named;       /* a name was written: its value follows */
} Json;

static void json_newline(Json *j)
{
    if (!j->pretty)
        return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

static void json_before(Json *j)
{
    if (j->named) {
        j->named = false;
        return;
    }
    if (j->depth == 0)
        return;
    if (!j->empty[j->depth])
        fputc(',', j->out);
    j->empty[j->depth] = false;
    json_newline(j);
}

static void json_open(Json *j, char c)
{
    json_before(j);
    fputc(c, j->out);
    j->depth++;
    j->empty[j->depth] = true;
}

static void json_close(Json *j, char c)
{
    bool empty = j->empty[j->depth];
    j->depth--;
    if (!empty)
        json_newline(j);
    fputc(c, j->out);
}

static void json_name(Json *j, const char *name)
{
    json_before(j);
    fprintf(j->out, "\"%s\"%s", name, j->pretty ? ": " : ":");
    j->named = true;
}

static void json_str(Json *j, const void *p, size_t len)
{
    json_before(j);
    fputc('"', j->out);
    print_java_text(j->out, p, len, true);
    fputc('"', j->out);
}

static void json_cstr(Json *j, const char *s)
{
    json_str(j, s, strlen(s));
}

static void json_int(Json *j, int64_t v)
{
    json_before(j);
    fprintf(j->out, "%" PRId64, v);
}

static void json_uint(Json *j, uint64_t v)
{
    json_before(j);
    fprintf(j->out, "%" PRIu64, v);
}

static void json_double(Json *j, double d)
{
    json_before(j);
    print_double(j->out, d);
}

static void json_bool(Json *j, bool b)
{
    json_before(j);
    fputs(b ? "true" : "false", j->out);
}

/* name: value pairs */
static void json_kv_str(Json *j, const char *name, const void *p, size_t len)
{
    json_name(j, name);
    json_str(j, p, len);
}

static void json_kv_cstr(Json *j, const char *name, const char *s)
{
    json_name(j, name);
    json_cstr(j, s);
}

static void json_kv_int(Json *j, const char *name, int64_t v)
{
    json_name(j, name);
    json_int(j, v);
}

static void json_kv_uint(Json *j, const char *name, uint64_t v)
{
    json_name(j, name);
    json_uint(j, v);
}

static void json_kv_range(Json *j, CombStr min, CombStr max)
{
    json_kv_str(j, "min", min.ptr, min.len);
    json_kv_str(j, "max", max.ptr, max.len);
}

static void json_kv_double(Json *j, const char *name, double d)
{
    json_name(j, name);
    json_double(j, d);
}

/* ----------------------------------------------------- the file's parts */

/* A file being dumped: its reader and what the listing asks for. */
typedef struct Dump {
    OrcReader *r;
    const OrcDumpOptions *opt;
    FILE *out;
    int n_cols;
    bool *index_cols;     /* --rowindex */
} Dump;

/* The columns whose indexes are printed, in the order asked for. */
static int index_count(const Dump *d)
{
    return d->opt->rowindex_all ? d->n_cols : d->opt->n_rowindex;
}

static int index_col(const Dump *d, int k)
{
    return d->opt->rowindex_all ? k : d->opt->rowindex[k];
}

static const Orc__Proto__Type *footer_type(const Dump *d, uint32_t id)
{
    const Orc__Proto__ReaderFooter *f = orc_reader_footer(d->r);
    Orc__Proto__Type **types;
    /* unpacked by dump_setup: no error here */
    if (id >= f->n_types || orc_reader_types(d->r, &types, NULL))
        return NULL;
    return types[id];
}

/* ORC's TypeDescription.printFieldName: plain names bare, others in
 * backquotes. */
static void print_field_name(FILE *out, const char *name)
{
    bool plain = *name != '\0';
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        fputs(name, out);
        return;
    }
    fputc('`', out);
    for (const char *p = name; *p; p++) {
        if (*p == '`')
            fputc('`', out);
        fputc(*p, out);
    }
    fputc('`', out);
}

/* TypeDescription.toString of the footer's type id (ids are validated
 * by the reader, so children lie after their parent). */
static void print_type(FILE *out, const Dump *d, uint32_t id)
{
    static const char *const names[] = {
        "boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
        "string", "binary", "timestamp", "array", "map", "struct",
        "uniontype", "decimal", "date", "varchar", "char",
        "timestamp with local time zone"};
    const Orc__Proto__Type *t = footer_type(d, id);
    int kind = t && t->has_kind ? (int)t->kind : 0;
    if (!t || kind < 0 || kind >= (int)(sizeof names / sizeof names[0]))
        return;
    fputs(names[kind], out);
    switch (kind) {
    case ORC__PROTO__TYPE__KIND__DECIMAL:
        fprintf(out, "(%u,%u)", t->has_precision ? t->precision : 38,
                t->has_scale ? t->scale : 10);
        return;
    case ORC__PROTO__TYPE__KIND__VARCHAR:
    case ORC__PROTO__TYPE__KIND__CHAR:
        fprintf(out, "(%u)", t->has_maximumlength ? t->maximumlength : 256);
        return;
    case ORC__PROTO__TYPE__KIND__LIST:
    case ORC__PROTO__TYPE__KIND__MAP:
    case ORC__PROTO__TYPE__KIND__STRUCT:
    case ORC__PROTO__TYPE__KIND__UNION:
        fputc('<', out);
        for (size_t i = 0; i < t->n_subtypes; i++) {
            if (i)
                fputc(',', out);
            if (kind == ORC__PROTO__TYPE__KIND__STRUCT && i < t->n_fieldnames) {
                print_field_name(out, t->fieldnames[i]);
                fputc(':', out);
            }
            if (t->subtypes[i] > id)
                print_type(out, d, t->subtypes[i]);
        }
        fputc('>', out);
        return;
    default:
        return;
    }
}

/* "Attributes on root.a._key" and the attributes, for every type that
 * has some (ORC's printTypeAnnotations). */
static void print_attributes(FILE *out, const Dump *d, uint32_t id,
                             const char *prefix)
{
    const Orc__Proto__Type *t = footer_type(d, id);
    if (!t)
        return;
    if (t->n_attributes) {
        fprintf(out, "Attributes on %s\n", prefix);
        for (size_t i = 0; i < t->n_attributes; i++)
            fprintf(out, "  %s: %s\n",
                    t->attributes[i]->key ? t->attributes[i]->key : "",
                    t->attributes[i]->value ? t->attributes[i]->value : "");
    }
    for (size_t i = 0; i < t->n_subtypes; i++) {
        char *next;
        size_t n = strlen(prefix) + 32 +
                   (i < t->n_fieldnames ? strlen(t->fieldnames[i]) : 0);
        if (t->subtypes[i] <= id || !(next = comb_malloc(n)))
            continue;
        switch (t->kind) {
        case ORC__PROTO__TYPE__KIND__STRUCT:
            snprintf(next, n, "%s.%s", prefix,
                     i < t->n_fieldnames ? t->fieldnames[i] : "");
            break;
        case ORC__PROTO__TYPE__KIND__MAP:
            snprintf(next, n, "%s.%s", prefix, i ? "_value" : "_key");
            break;
        case ORC__PROTO__TYPE__KIND__LIST:
            snprintf(next, n, "%s._elem", prefix);
            break;
        default:
            snprintf(next, n, "%s._%zu", prefix, i);
        }
        print_attributes(out, d, t->subtypes[i], next);
        comb_free(next);
    }
}

static CombTypeKind column_kind(const Dump *d, int col)
{
    const CombType *t = comb_type_find(orc_reader_schema(d->r), col);
    return t ? t->kind : COMB_T_STRUCT;
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
    if (!s->has_timestamp || !s->ts_local ||
        stripe >= orc_reader_n_stripes(r) ||
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

/* ------------------------------------------------- statistics as text */

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
        print_ts(out, s->ts_min_ms, s->ts_min_nanos);
        fputs(" max: ", out);
        print_ts(out, s->ts_max_ms, s->ts_max_nanos);
    }
    if (s->has_collection && s->n_values > 0) {
        fprintf(out, " minChildren: %" PRIu64 " maxChildren: %" PRIu64,
                s->min_children, s->max_children);
        if (s->total_children)
            fprintf(out, " totalChildren: %" PRIu64, s->total_children);
    }
}

/* ColumnStatistics.toString, without the newline. */
static void print_stats(FILE *out, CombTypeKind kind, const OrcColumnStats *s)
{
    fprintf(out, "count: %" PRIu64 " hasNull: %s", s->n_values,
            s->has_null ? "true" : "false");
    if (s->bytes_on_disk)
        fprintf(out, " bytesOnDisk: %" PRIu64, s->bytes_on_disk);
    if (s->has_bucket)
        fprintf(out, " true: %" PRIu64, s->true_count);
    if (s->has_int && kind == COMB_T_DATE) {
        char a[48], b[48];
        comb_date_format(s->int_min, a, sizeof a);
        comb_date_format(s->int_max, b, sizeof b);
        fprintf(out, " min: %s max: %s", a, b);
    } else if (s->has_int) {
        fprintf(out, " min: %" PRId64 " max: %" PRId64, s->int_min, s->int_max);
    }
    if (s->has_sum)
        fprintf(out, " sum: %" PRId64, s->int_sum);
    if (s->has_double) {
        fputs(" min: ", out);
        print_double(out, s->dbl_min);
        fputs(" max: ", out);
        print_double(out, s->dbl_max);
    }
    /* As ORC Java's toString: a double's sum even without values, a
     * string's min, max and sum and a binary's sum only with them. */
    if (kind == COMB_T_FLOAT || kind == COMB_T_DOUBLE) {
        fputs(" sum: ", out);
        print_double(out, s->dbl_sum);
    }
    if (s->has_string) {
        fputs(" min: ", out);
        print_java_text(out, s->str_min.ptr, s->str_min.len, false);
        fputs(" max: ", out);
        print_java_text(out, s->str_max.ptr, s->str_max.len, false);
    }
    if ((s->has_string || kind == COMB_T_BINARY) && s->n_values)
        fprintf(out, " sum: %" PRId64, s->str_sum_len);
    print_more_stats(out, s);
}

/* --------------------------------------------------- statistics as json */

static void json_stats(Json *j, CombTypeKind kind,
                       const Orc__Proto__ColumnStatistics *pb,
                       const OrcColumnStats *s)
{
    char buf[48];
    json_kv_uint(j, "count", s->n_values);
    json_name(j, "hasNull");
    json_bool(j, s->has_null);
    if (s->bytes_on_disk) {
        json_kv_uint(j, "bytesOnDisk", s->bytes_on_disk);
    }
    if (pb->bucketstatistics) {
        json_kv_uint(j, "trueCount", s->true_count);
        json_kv_uint(j, "falseCount", s->n_values - s->true_count);
        json_kv_cstr(j, "type", "BOOLEAN");
    } else if (pb->intstatistics) {
        /* Java's empty accumulator: min Long.MAX_VALUE, max MIN_VALUE */
        json_kv_int(j, "min", s->has_int ? s->int_min : INT64_MAX);
        json_kv_int(j, "max", s->has_int ? s->int_max : INT64_MIN);
        if (s->has_sum) {
            json_kv_int(j, "sum", s->int_sum);
        }
        json_kv_cstr(j, "type", "LONG");
    } else if (pb->collectionstatistics) {
        json_kv_uint(j, "minChildren", s->min_children);
        json_kv_uint(j, "maxChildren", s->max_children);
        json_kv_uint(j, "totalChildren", s->total_children);
    } else if (pb->doublestatistics) {
        json_kv_double(j, "min",
                       s->has_double ? s->dbl_min : 1.7976931348623157e308);
        json_kv_double(j, "max",
                       s->has_double ? s->dbl_max : -1.7976931348623157e308);
        json_kv_double(j, "sum", s->dbl_sum);
        json_kv_cstr(j, "type", "DOUBLE");
    } else if (pb->stringstatistics) {
        if (s->has_string)
            json_kv_range(j, s->str_min, s->str_max);
        json_kv_int(j, "totalLength", s->str_sum_len);
        json_kv_cstr(j, "type", "STRING");
    } else if (pb->decimalstatistics) {
        if (s->has_decimal) {
            json_kv_range(j, s->dec_min, s->dec_max);
            json_kv_str(j, "sum", s->has_dec_sum ? s->dec_sum.ptr : "null",
                        s->has_dec_sum ? s->dec_sum.len : 4);
        }
        json_kv_cstr(j, "type", "DECIMAL");
    } else if (pb->datestatistics) {
        if (s->has_int) {
            comb_date_format(s->int_min, buf, sizeof buf);
            json_kv_cstr(j, "min", buf);
            comb_date_format(s->int_max, buf, sizeof buf);
            json_kv_cstr(j, "max", buf);
        }
        json_kv_cstr(j, "type", "DATE");
    } else if (pb->timestampstatistics) {
        if (s->has_timestamp) {
            /* the text goes through a memory stream: it is Timestamp's */
            for (int k = 0; k < 2; k++) {
                char *text = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&text, &len);
                if (!m)
                    continue;
                print_ts(m, k ? s->ts_max_ms : s->ts_min_ms,
                         k ? s->ts_max_nanos : s->ts_min_nanos);
                fclose(m);
                json_kv_str(j, k ? "max" : "min", text, len);
                free(text);
            }
        }
        json_kv_cstr(j, "type", "TIMESTAMP");
    } else if (pb->binarystatistics) {
        json_kv_int(j, "totalLength", s->str_sum_len);
        json_kv_cstr(j, "type", "BINARY");
    }
    (void)kind;
}

/* ------------------------------------------------- row index and blooms */

typedef struct StripeIndex {
    Orc__Proto__RowIndex **rows;            /* per column, NULL: none */
    Orc__Proto__BloomFilterIndex **blooms;  /* per column, NULL: none */
} StripeIndex;

static void stripe_index_free(StripeIndex *x, int n)
{
    for (int i = 0; i < n; i++) {
        if (x->rows && x->rows[i])
            protobuf_c_message_free_unpacked(&x->rows[i]->base, &orc_pb_alloc);
        if (x->blooms && x->blooms[i])
            protobuf_c_message_free_unpacked(&x->blooms[i]->base,
                                             &orc_pb_alloc);
    }
    comb_free(x->rows);
    comb_free(x->blooms);
}

/* The ROW_INDEX and BLOOM_FILTER(_UTF8) streams of the asked-for columns
 * of a stripe (the UTF-8 filter wins when a column has both, as ORC
 * Java reads it). */
static int load_stripe_index(const Dump *d, const Orc__Proto__StripeFooter *sf,
                             uint64_t start, StripeIndex *x, CombErr *err)
{
    x->rows = comb_calloc((size_t)d->n_cols, sizeof *x->rows);
    x->blooms = comb_calloc((size_t)d->n_cols, sizeof *x->blooms);
    if (!x->rows || !x->blooms)
        return comb_err_nomem(err);
    uint64_t off = start;
    int rc = COMB_OK;
    for (size_t i = 0; i < sf->n_streams && !rc; i++) {
        const Orc__Proto__Stream *st = sf->streams[i];
        uint32_t col = st->column;
        int kind = (int)st->kind;
        if (col < (uint32_t)d->n_cols && d->index_cols[col]) {
            if (kind == ORC__PROTO__STREAM__KIND__ROW_INDEX && !x->rows[col])
                rc = orc_reader_index_stream(
                    d->r, off, st->length, &orc__proto__row_index__descriptor,
                    (ProtobufCMessage **)&x->rows[col], err);
            else if ((kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8 ||
                      (kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER &&
                       !x->blooms[col]))) {
                if (x->blooms[col])
                    protobuf_c_message_free_unpacked(&x->blooms[col]->base,
                                                     &orc_pb_alloc);
                x->blooms[col] = NULL;
                rc = orc_reader_index_stream(
                    d->r, off, st->length,
                    &orc__proto__bloom_filter_index__descriptor,
                    (ProtobufCMessage **)&x->blooms[col], err);
                /* Hive 1.2's pre-release filters (a double where the bits
                 * are now) do not parse: the column then shows none */
                if (rc == COMB_ECORRUPT) {
                    x->blooms[col] = NULL;
                    comb_err_clear(err);
                    rc = COMB_OK;
                }
            }
        }
        off += st->length;
    }
    return rc;
}

/* A bloom filter's bits: the longs of `bitset`, or `utf8bitset`'s bytes
 * as little-endian longs. */
typedef struct Bloom {
    uint64_t *bits;
    size_t n;
    uint32_t k;
} Bloom;

static bool bloom_of(const Orc__Proto__BloomFilter *bf, Bloom *b)
{
    b->k = bf->numhashfunctions;
    if (bf->n_bitset) {
        b->n = bf->n_bitset;
        b->bits = comb_malloc(b->n * 8);
        if (b->bits)
            memcpy(b->bits, bf->bitset, b->n * 8);
    } else {
        b->n = bf->utf8bitset.len / 8;
        b->bits = comb_calloc(b->n ? b->n : 1, 8);
        if (b->bits && b->n)
            memcpy(b->bits, bf->utf8bitset.data, b->n * 8);
    }
    return b->bits != NULL;
}

typedef struct BloomStats {
    uint32_t k;
    uint64_t bits, pop;
    float load, fpp;
} BloomStats;

static BloomStats bloom_stats(const Bloom *b)
{
    BloomStats s = {b->k, b->n * 64, 0, 0, 0};
    for (size_t i = 0; i < b->n; i++)
        s.pop += (uint64_t)__builtin_popcountll(b->bits[i]);
    /* Java: (float) popCount / (float) bitCount, (float) Math.pow */
    s.load = (float)s.pop / (float)s.bits;
    s.fpp = (float)pow((double)s.load, (double)s.k);
    return s;
}

/* DecimalFormat("###.####") of a float widened to double: at most four
 * fraction digits, half-even, no trailing zeros. */
static void print_load(FILE *out, float f)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.4f", (double)f);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    fputs(strcmp(buf, "-0") == 0 ? "-0" : buf, out);
}

static void print_bloom_stats(FILE *out, const BloomStats *s)
{
    char fpp[40];
    comb_format_float(s->fpp, fpp, sizeof fpp);
    fprintf(out, " numHashFunctions: %u bitCount: %" PRIu64 " popCount: %"
            PRIu64 " loadFactor: ", s->k, s->bits, s->pop);
    print_load(out, s->load);
    fprintf(out, " expectedFpp: %s", fpp);
}

static void json_bloom_stats(Json *j, const BloomStats *s)
{
    json_kv_uint(j, "numHashFunctions", s->k);
    json_kv_uint(j, "bitCount", s->bits);
    json_kv_uint(j, "popCount", s->pop);
    /* gson has no float overload: Java widens them to double */
    json_kv_double(j, "loadFactor", (double)s->load);
    json_kv_double(j, "expectedFpp", (double)s->fpp);
}

/* Merge each entry's bits into the stripe's: ORC merges same-sized
 * filters only. */
static void bloom_merge(Bloom *into, const Bloom *b)
{
    if (into->n != b->n)
        return;
    for (size_t i = 0; i < b->n; i++)
        into->bits[i] |= b->bits[i];
}

static void print_row_index(const Dump *d, int col,
                            const Orc__Proto__RowIndex *ri)
{
    FILE *out = d->out;
    fprintf(out, "    Row group indices for column %d:", col);
    if (!ri) {
        fputs(" not found\n", out);
        return;
    }
    for (size_t e = 0; e < ri->n_entry; e++) {
        const Orc__Proto__RowIndexEntry *en = ri->entry[e];
        fprintf(out, "\n      Entry %zu: ", e);
        if (!en->statistics) {
            fputs("no stats at ", out);
        } else {
            OrcColumnStats s;
            orc_stats_from_proto(en->statistics, &s);
            print_stats(out, column_kind(d, col), &s);
        }
        fputs(" positions: ", out);
        for (size_t p = 0; p < en->n_positions; p++)
            fprintf(out, "%s%" PRIu64, p ? "," : "", en->positions[p]);
    }
}

static void print_blooms(const Dump *d, int col,
                         const Orc__Proto__BloomFilterIndex *bi)
{
    FILE *out = d->out;
    Bloom merged = {NULL, 0, 0};
    if (!bi)
        return;
    fprintf(out, "\n    Bloom filters for column %d:", col);
    for (size_t e = 0; e < bi->n_bloomfilter; e++) {
        Bloom b;
        if (!bloom_of(bi->bloomfilter[e], &b))
            continue;
        BloomStats s = bloom_stats(&b);
        fprintf(out, "\n      Entry %zu:", e);
        print_bloom_stats(out, &s);
        if (!merged.bits)
            merged = b;
        else {
            bloom_merge(&merged, &b);
            comb_free(b.bits);
        }
    }
    if (merged.bits) {
        BloomStats s = bloom_stats(&merged);
        fputs("\n      Stripe level merge:", out);
        print_bloom_stats(out, &s);
        comb_free(merged.bits);
    }
}

static void json_row_index(Json *j, const Dump *d, int col,
                           const Orc__Proto__RowIndex *ri)
{
    if (!ri)
        return;
    json_name(j, "rowGroupIndexes");
    json_open(j, '[');
    for (size_t e = 0; e < ri->n_entry; e++) {
        const Orc__Proto__RowIndexEntry *en = ri->entry[e];
        OrcColumnStats s;
        if (!en->statistics)
            continue;
        json_open(j, '{');
        json_kv_uint(j, "entryId", e);
        orc_stats_from_proto(en->statistics, &s);
        json_stats(j, column_kind(d, col), en->statistics, &s);
        json_name(j, "positions");
        json_open(j, '[');
        for (size_t p = 0; p < en->n_positions; p++)
            json_uint(j, en->positions[p]);
        json_close(j, ']');
        json_close(j, '}');
    }
    json_close(j, ']');
}

static void json_blooms(Json *j, const Orc__Proto__BloomFilterIndex *bi)
{
    Bloom merged = {NULL, 0, 0};
    if (!bi)
        return;
    json_name(j, "bloomFilterIndexes");
    json_open(j, '[');
    for (size_t e = 0; e < bi->n_bloomfilter; e++) {
        Bloom b;
        if (!bloom_of(bi->bloomfilter[e], &b))
            continue;
        BloomStats s = bloom_stats(&b);
        json_open(j, '{');
        json_kv_uint(j, "entryId", e);
        json_bloom_stats(j, &s);
        json_close(j, '}');
        if (!merged.bits)
            merged = b;
        else {
            bloom_merge(&merged, &b);
            comb_free(b.bits);
        }
    }
    json_close(j, ']');
    if (merged.bits) {
        BloomStats s = bloom_stats(&merged);
        json_name(j, "stripeLevelBloomFilter");
        json_open(j, '{');
        json_bloom_stats(j, &s);
        json_close(j, '}');
        comb_free(merged.bits);
    }
}

/* --------------------------------------------------------- acid */

/* Hive's BucketCodec: V0 is the bucket itself, V1 (top bits 001) holds
 * the bucket in bits 16..27 and the statement in bits 0..11. */
static void print_bucket_property(FILE *out, int64_t v)
{
    uint32_t u = (uint32_t)v;
    fprintf(out, "%" PRId64, v);
    if (v < 0 || v > UINT32_MAX)
        fputs(" (not a bucket property)", out);
    else if ((u >> 29) == 0)
        fprintf(out, " (codec V0, bucket %u)", u);
    else if ((u >> 29) == 1)
        fprintf(out, " (codec V1, bucket %u, statement %u)",
                (u >> 16) & 0xfff, u & 0xfff);
    else
        fprintf(out, " (unknown codec %u)", u >> 29);
}

static bool is_acid_schema(const CombType *t)
{
    static const char *const names[] = {
        "operation", "originalTransaction", "bucket", "rowId",
        "currentTransaction", "row"};
    if (t->kind != COMB_T_STRUCT || t->n_children != 6)
        return false;
    for (int i = 0; i < 6; i++)
        if (strcasecmp(t->field_names[i], names[i]) != 0)
            return false;
    return true;
}

/* The bucket column's range and the key index, one line per stripe. */
static void print_acid(const Dump *d)
{
    FILE *out = d->out;
    const void *val;
    size_t len;
    OrcColumnStats s;
    if (!is_acid_schema(orc_reader_schema(d->r)))
        return;
    fputs("\nACID:\n", out);
    if (orc_reader_column_stats(d->r, 3, &s) == COMB_OK && s.has_int) {
        fputs("  bucket: ", out);
        print_bucket_property(out, s.int_min);
        if (s.int_max != s.int_min) {
            fputs(" .. ", out);
            print_bucket_property(out, s.int_max);
        }
        fputc('\n', out);
    }
    if (!orc_reader_metadata(d->r, "hive.acid.key.index", &val, &len))
        return;
    const char *p = val, *end = p + len;
    for (int stripe = 1; p < end; stripe++) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        size_t n = semi ? (size_t)(semi - p) : (size_t)(end - p);
        char key[96];
        long long w, b, row;
        snprintf(key, sizeof key, "%.*s", (int)(n < 95 ? n : 95), p);
        if (sscanf(key, "%lld,%lld,%lld", &w, &b, &row) == 3) {
            fprintf(out, "  hive.acid.key.index: stripe %d: last key: writeId "
                    "%lld, bucket ", stripe, w);
            print_bucket_property(out, b);
            fprintf(out, ", rowId %lld\n", row);
        } else if (n) {
            fprintf(out, "  hive.acid.key.index: stripe %d: not a key: ",
                    stripe);
            print_java_text(out, p, n, false);
            fputc('\n', out);
        }
        p += n + (semi ? 1 : 0);
    }
}

/* ------------------------------------------------------------ the text */

/* Stripes in ORC Java's getTotalPaddingSize: the gaps between stripes. */
static uint64_t padding_bytes(OrcReader *r)
{
    uint64_t pad = 0;
    for (int i = 1; i < orc_reader_n_stripes(r); i++) {
        OrcStripeInfo a, b;
        orc_reader_stripe_info(r, i - 1, &a);
        orc_reader_stripe_info(r, i, &b);
        uint64_t end = a.offset + a.index_length + a.data_length +
                       a.footer_length;
        pad += b.offset - end;
    }
    return pad;
}

static void print_header(const Dump *d, const char *path)
{
    FILE *out = d->out;
    OrcReader *r = d->r;
    const Orc__Proto__ReaderFooter *f = orc_reader_footer(r);
    uint32_t writer = f->has_writer ? f->writer : 0;
    char unknown[32];
    fprintf(out, "Structure for %s\n", path);
    fprintf(out, "File Version: %s with %s by %s%s%s\n",
            orc_reader_file_version(r),
            writer_version_name(writer, orc_reader_writer_version(r)),
            writer_name(writer, unknown, sizeof unknown),
            f->softwareversion ? " " : "",
            f->softwareversion ? f->softwareversion : "");
    fprintf(out, "Rows: %" PRIu64 "\n", orc_reader_n_rows(r));
    fprintf(out, "Compression: %s\n",
            orc_compression_name(orc_reader_compression(r)));
    if (orc_reader_compression(r) != ORC_COMP_NONE)
        fprintf(out, "Compression size: %" PRIu64 "\n",
                orc_reader_compression_block_size(r));
    fprintf(out, "Calendar: %s\n",
            f->has_calendar &&
                    f->calendar ==
                        ORC__PROTO__CALENDAR_KIND__PROLEPTIC_GREGORIAN
                ? "Proleptic Gregorian"
                : "Julian/Gregorian");
    fputs("Type: ", out);
    print_type(out, d, 0);
    fputc('\n', out);
    print_attributes(out, d, 0, "root");
}

static int print_statistics(const Dump *d, CombErr *err)
{
    FILE *out = d->out;
    OrcColumnStats s;
    fputs("\nStripe Statistics:\n", out);
    for (int i = 0; i < orc_reader_n_stripes(d->r); i++) {
        int rc = orc_reader_stripe_stats(d->r, i, 0, &s, err);
        if (rc == COMB_ENOTFOUND)
            break;
        if (rc)
            return rc;
        fprintf(out, "  Stripe %d:\n", i + 1);
        for (int c = 0; c < d->n_cols; c++) {
            if (orc_reader_stripe_stats(d->r, i, c, &s, err))
                break;
            stats_wall_clock(d->r, i, &s);
            fprintf(out, "    Column %d: ", c);
            print_stats(out, column_kind(d, c), &s);
            fputc('\n', out);
        }
    }
    comb_err_clear(err);
    fputs("\nFile Statistics:\n", out);
    for (int c = 0; c < d->n_cols; c++)
        if (orc_reader_column_stats(d->r, c, &s) == COMB_OK) {
            stats_wall_clock(d->r, 0, &s);
            fprintf(out, "  Column %d: ", c);
            print_stats(out, column_kind(d, c), &s);
            fputc('\n', out);
        }
    return COMB_OK;
}

static int print_stripe(const Dump *d, int i, CombErr *err)
{
    FILE *out = d->out;
    OrcStripeInfo si;
    Orc__Proto__StripeFooter *sf;
    orc_reader_stripe_info(d->r, i, &si);
    int rc = orc_reader_stripe_footer(d->r, i, &sf, err);
    if (rc)
        return rc;
    fprintf(out, "  Stripe: offset: %" PRIu64 " data: %" PRIu64
            " rows: %" PRIu64 " tail: %" PRIu64 " index: %" PRIu64,
            si.offset, si.data_length, si.n_rows, si.footer_length,
            si.index_length);
    if (d->opt->timezone)
        fprintf(out, " timezone: %s",
                sf->writertimezone && *sf->writertimezone ? sf->writertimezone
                                                          : "UNKNOWN");
    fputc('\n', out);
    uint64_t start = si.offset;
    for (size_t s = 0; s < sf->n_streams; s++) {
        const Orc__Proto__Stream *st = sf->streams[s];
        fprintf(out, "    Stream: column %u section %s start: %" PRIu64
                " length %" PRIu64 "\n", st->column,
                st->has_kind ? orc_stream_kind_name((int)st->kind) : "UNKNOWN",
                start, st->length);
        start += st->length;
    }
    for (size_t c = 0; c < sf->n_columns; c++) {
        const Orc__Proto__ColumnEncoding *e = sf->columns[c];
        fprintf(out, "    Encoding column %zu: %s", c,
                orc_encoding_name((int)e->kind));
        if (e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
            e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2)
            fprintf(out, "[%u]", e->dictionarysize);
        fputc('\n', out);
    }
    StripeIndex x = {NULL, NULL};
    if (d->opt->n_rowindex > 0 || d->opt->rowindex_all) {
        rc = load_stripe_index(d, sf, si.offset, &x, err);
        for (int k = 0; !rc && k < index_count(d); k++) {
            int col = index_col(d, k);
            print_row_index(d, col, x.rows[col]);
            print_blooms(d, col, x.blooms[col]);
            fputc('\n', out);
        }
        stripe_index_free(&x, d->n_cols);
    }
    orc_stripe_footer_free(sf);
    return rc;
}

static void print_tail(const Dump *d)
{
    FILE *out = d->out;
    uint64_t len = orc_reader_file_length(d->r), pad = padding_bytes(d->r);
    double ratio = len == 0 ? 0.0 : 100.0 * (double)pad / (double)len;
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.2f", ratio);
    /* DecimalFormat("##.##"): no trailing zeros, no bare point */
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    fprintf(out, "\nFile length: %" PRIu64 " bytes\n", len);
    fprintf(out, "Padding length: %" PRIu64 " bytes\n", pad);
    fprintf(out, "Padding ratio: %s%%\n", buf);
    int m = orc_reader_n_metadata(d->r);
    for (int i = 0; i < m; i++) {
        const char *key;
        const void *val;
        size_t vlen;
        if (i == 0)
            fputs("\nUser Metadata:\n", out);
        orc_reader_metadata_at(d->r, i, &key, &val, &vlen);
        fprintf(out, "  %s=", key);
        print_java_text(out, val, vlen, false);
        fputc('\n', out);
    }
    print_acid(d);
}

static int dump_text(const Dump *d, const char *path, CombErr *err)
{
    int rc;
    print_header(d, path);
    if ((rc = print_statistics(d, err)))
        return rc;
    fputs("\nStripes:\n", d->out);
    for (int i = 0; i < orc_reader_n_stripes(d->r) && !rc; i++)
        rc = print_stripe(d, i, err);
    if (rc)
        return rc;
    print_tail(d);
    /* println of a separator that ends in a newline: a blank line too */
    for (int i = 0; i < 120; i++)
        fputc('_', d->out);
    fputs("\n\n", d->out);
    return COMB_OK;
}

/* ------------------------------------------------------------ the json */

static void json_schema(Json *j, const Dump *d, uint32_t id)
{
    static const char *const cats[] = {
        "BOOLEAN", "BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE",
        "STRING", "BINARY", "TIMESTAMP", "LIST", "MAP", "STRUCT", "UNION",
        "DECIMAL", "DATE", "VARCHAR", "CHAR", "TIMESTAMP_INSTANT"};
    const Orc__Proto__Type *t = footer_type(d, id);
    int kind = t && t->has_kind ? (int)t->kind : 0;
    json_open(j, '{');
    json_kv_uint(j, "columnId", id);
    json_kv_cstr(j, "columnType",
                 kind >= 0 && kind < (int)(sizeof cats / sizeof cats[0])
                     ? cats[kind] : "UNKNOWN");
    if (t && t->n_attributes) {
        json_name(j, "attributes");
        json_open(j, '{');
        for (size_t i = 0; i < t->n_attributes; i++) {
            const Orc__Proto__StringPair *at = t->attributes[i];
            json_kv_cstr(j, at->key ? at->key : "",
                         at->value ? at->value : "");
        }
        json_close(j, '}');
    }
    if (kind == ORC__PROTO__TYPE__KIND__DECIMAL) {
        json_kv_uint(j, "precision", t->has_precision ? t->precision : 38);
        json_kv_uint(j, "scale", t->has_scale ? t->scale : 10);
    } else if (kind == ORC__PROTO__TYPE__KIND__VARCHAR ||
               kind == ORC__PROTO__TYPE__KIND__CHAR) {
        json_kv_uint(j, "maxLength",
                     t->has_maximumlength ? t->maximumlength : 256);
    }
    if (t && (kind == ORC__PROTO__TYPE__KIND__STRUCT ||
              kind == ORC__PROTO__TYPE__KIND__LIST ||
              kind == ORC__PROTO__TYPE__KIND__MAP ||
              kind == ORC__PROTO__TYPE__KIND__UNION)) {
        bool strct = kind == ORC__PROTO__TYPE__KIND__STRUCT;
        json_name(j, "children");
        json_open(j, strct ? '{' : '[');
        for (size_t i = 0; i < t->n_subtypes; i++) {
            if (t->subtypes[i] <= id)
                continue;
            if (strct)
                json_name(j, i < t->n_fieldnames ? t->fieldnames[i] : "");
            json_schema(j, d, t->subtypes[i]);
        }
        json_close(j, strct ? '}' : ']');
    }
    json_close(j, '}');
}

static void json_stats_list(Json *j, const Dump *d, int stripe)
{
    const Orc__Proto__ReaderFooter *f = orc_reader_footer(d->r);
    size_t n = stripe < 0 ? f->n_statistics
                          : d->r->meta->stripestats[stripe]->n_colstats;
    json_open(j, '[');
    for (size_t c = 0; c < n; c++) {
        const Orc__Proto__ColumnStatistics *pb = NULL;
        OrcColumnStats s;
        if (stripe >= 0)
            pb = d->r->meta->stripestats[stripe]->colstats[c];
        else if (orc_reader_column_stats_pb(d->r, (int)c, &pb) != COMB_OK)
            continue; /* not met: dump_setup unpacked them all */
        orc_stats_from_proto(pb, &s);
        stats_wall_clock(d->r, stripe < 0 ? 0 : stripe, &s);
        json_open(j, '{');
        json_kv_uint(j, "columnId", c);
        json_stats(j, column_kind(d, (int)c), pb, &s);
        json_close(j, '}');
    }
    json_close(j, ']');
}

static int json_stripe(Json *j, const Dump *d, int i, CombErr *err)
{
    OrcStripeInfo si;
    Orc__Proto__StripeFooter *sf;
    orc_reader_stripe_info(d->r, i, &si);
    int rc = orc_reader_stripe_footer(d->r, i, &sf, err);
    if (rc)
        return rc;
    json_open(j, '{');
    json_kv_int(j, "stripeNumber", i + 1);
    json_name(j, "stripeInformation");
    json_open(j, '{');
    json_kv_uint(j, "offset", si.offset);
    json_kv_uint(j, "indexLength", si.index_length);
    json_kv_uint(j, "dataLength", si.data_length);
    json_kv_uint(j, "footerLength", si.footer_length);
    json_kv_uint(j, "rowCount", si.n_rows);
    json_close(j, '}');
    if (d->opt->timezone) {
        json_kv_cstr(j, "writerTimezone",
                     sf->writertimezone ? sf->writertimezone : "UNKNOWN");
    }
    json_name(j, "streams");
    json_open(j, '[');
    uint64_t start = si.offset;
    for (size_t s = 0; s < sf->n_streams; s++) {
        const Orc__Proto__Stream *st = sf->streams[s];
        json_open(j, '{');
        json_kv_uint(j, "columnId", st->column);
        json_kv_cstr(j, "section", st->has_kind
                                       ? orc_stream_kind_name((int)st->kind)
                                       : "UNKNOWN");
        json_kv_uint(j, "startOffset", start);
        json_kv_uint(j, "length", st->length);
        json_close(j, '}');
        start += st->length;
    }
    json_close(j, ']');
    json_name(j, "encodings");
    json_open(j, '[');
    for (size_t c = 0; c < sf->n_columns; c++) {
        const Orc__Proto__ColumnEncoding *e = sf->columns[c];
        json_open(j, '{');
        json_kv_uint(j, "columnId", c);
        json_kv_cstr(j, "kind", orc_encoding_name((int)e->kind));
        if (e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
            e->kind == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2) {
            json_kv_uint(j, "dictionarySize", e->dictionarysize);
        }
        json_close(j, '}');
    }
    json_close(j, ']');
    if (d->opt->n_rowindex > 0 || d->opt->rowindex_all) {
        StripeIndex x = {NULL, NULL};
        rc = load_stripe_index(d, sf, si.offset, &x, err);
        json_name(j, "indexes");
        json_open(j, '[');
        for (int k = 0; !rc && k < index_count(d); k++) {
            int col = index_col(d, k);
            json_open(j, '{');
            json_kv_int(j, "columnId", col);
            json_row_index(j, d, col, x.rows[col]);
            json_blooms(j, x.blooms[col]);
            json_close(j, '}');
        }
        json_close(j, ']');
        stripe_index_free(&x, d->n_cols);
    }
    json_close(j, '}');
    orc_stripe_footer_free(sf);
    return rc;
}

static int dump_json(Json *j, const Dump *d, CombErr *err)
{
    OrcReader *r = d->r;
    const Orc__Proto__ReaderFooter *f = orc_reader_footer(r);
    uint32_t writer = f->has_writer ? f->writer : 0;
    char unknown[32], *software = NULL;
    size_t slen = 0;
    OrcColumnStats s;
    int rc;
    json_kv_cstr(j, "fileVersion", orc_reader_file_version(r));
    json_kv_cstr(j, "writerVersion",
                 writer_version_name(writer, orc_reader_writer_version(r)));
    FILE *m = open_memstream(&software, &slen);
    if (!m)
        return comb_err_nomem(err);
    fprintf(m, "%s%s%s", writer_name(writer, unknown, sizeof unknown),
            f->softwareversion ? " " : "",
            f->softwareversion ? f->softwareversion : "");
    fclose(m);
    json_kv_str(j, "softwareVersion", software, slen);
    free(software);
    json_kv_uint(j, "numberOfRows", orc_reader_n_rows(r));
    json_kv_cstr(j, "compression",
                 orc_compression_name(orc_reader_compression(r)));
    if (orc_reader_compression(r) != ORC_COMP_NONE) {
        json_kv_uint(j, "compressionBufferSize",
                     orc_reader_compression_block_size(r));
    }
    char *type = NULL;
    size_t tlen = 0;
    if (!(m = open_memstream(&type, &tlen)))
        return comb_err_nomem(err);
    print_type(m, d, 0);
    fclose(m);
    json_kv_str(j, "schemaString", type, tlen);
    free(type);
    json_name(j, "schema");
    json_schema(j, d, 0);
    json_kv_cstr(j, "calendar",
                 f->has_calendar &&
                         f->calendar ==
                             ORC__PROTO__CALENDAR_KIND__PROLEPTIC_GREGORIAN
                     ? "proleptic Gregorian"
                     : "Julian/Gregorian");
    json_name(j, "stripeStatistics");
    json_open(j, '[');
    for (int i = 0; i < orc_reader_n_stripes(r); i++) {
        rc = orc_reader_stripe_stats(r, i, 0, &s, err);
        if (rc == COMB_ENOTFOUND)
            break;
        if (rc)
            return rc;
        json_open(j, '{');
        json_kv_int(j, "stripeNumber", i + 1);
        json_name(j, "columnStatistics");
        json_stats_list(j, d, i);
        json_close(j, '}');
    }
    comb_err_clear(err);
    json_close(j, ']');
    json_name(j, "fileStatistics");
    json_stats_list(j, d, -1);
    json_name(j, "stripes");
    json_open(j, '[');
    for (int i = 0; i < orc_reader_n_stripes(r); i++)
        if ((rc = json_stripe(j, d, i, err)))
            return rc;
    json_close(j, ']');
    uint64_t len = orc_reader_file_length(r), pad = padding_bytes(r);
    json_kv_uint(j, "fileLength", len);
    json_kv_uint(j, "paddingLength", pad);
    json_kv_double(j, "paddingRatio", (double)pad / (double)len * 100);
    const void *val;
    size_t vlen;
    long long ins, upd, del;
    char stats[128];
    if (orc_reader_metadata(r, "hive.acid.stats", &val, &vlen) &&
        snprintf(stats, sizeof stats, "%.*s", (int)(vlen < 127 ? vlen : 127),
                 (const char *)val) > 0 &&
        sscanf(stats, "%lld,%lld,%lld", &ins, &upd, &del) == 3) {
        json_kv_int(j, "numInserts", ins);
        json_kv_int(j, "numDeletes", del);
        json_kv_int(j, "numUpdates", upd);
    }
    json_kv_cstr(j, "status", "OK");
    return COMB_OK;
}

/* ------------------------------------------------------------ entry */

static int dump_setup(Dump *d, OrcReader *r, const OrcDumpOptions *opt,
                      FILE *out, CombErr *err)
{
    d->r = r;
    d->opt = opt;
    d->out = out;
    d->n_cols = orc_reader_n_columns(r);
    d->index_cols = comb_calloc((size_t)d->n_cols + 1, 1);
    if (!d->index_cols)
        return comb_err_nomem(err);
    for (int i = 0; i < opt->n_rowindex; i++) {
        int c = opt->rowindex[i];
        if (c < 0 || c >= d->n_cols)
            return comb_err(err, COMB_EINVALID,
                            "--rowindex: ORC file '%s' has no column %d "
                            "(columns 0..%d)", orc_reader_path(r), c,
                            d->n_cols - 1);
        d->index_cols[c] = true;
    }
    if (opt->rowindex_all)
        memset(d->index_cols, 1, (size_t)d->n_cols);
    /* the reader unpacks types and statistics when asked; a dump shows
     * them all, so one that does not parse fails it here, not half-printed */
    Orc__Proto__Type **types;
    int rc = orc_reader_types(r, &types, err);
    return rc ? rc : orc_reader_check_stats(r, err);
}

int orc_dump_metadata(const char *path, const OrcDumpOptions *opt, FILE *out,
                      CombErr *err)
{
    OrcReader *r;
    Dump d;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    if (!(rc = dump_setup(&d, r, opt, out, err)))
        rc = dump_text(&d, path, err);
    comb_free(d.index_cols);
    orc_reader_close(r);
    return rc;
}

int orc_dump_json(const char *const *paths, int n, const OrcDumpOptions *opt,
                  FILE *out, CombErr *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    if (!buf)
        return comb_err_nomem(err);
    /* all or nothing, as JsonFileDump prints its buffer at the end */
    Json j = {buf, opt->pretty, 0, {false}, false};
    int rc = COMB_OK;
    bool many = n > 1;
    json_open(&j, many ? '[' : '{');
    for (int i = 0; i < n && !rc; i++) {
        OrcReader *r;
        Dump d = {0};
        if (many)
            json_open(&j, '{');
        json_name(&j, "fileName");
        json_cstr(&j, paths[i]);
        rc = orc_reader_open(paths[i], &r, err);
        if (!rc) {
            if (!(rc = dump_setup(&d, r, opt, buf, err)))
                rc = dump_json(&j, &d, err);
            comb_free(d.index_cols);
            orc_reader_close(r);
        }
        if (many)
            json_close(&j, '}');
    }
    json_close(&j, many ? ']' : '}');
    fputc('\n', buf);
    fclose(buf);
    if (!rc)
        fwrite(text, 1, len, out);
    free(text);
    return rc;
}

/* ------------------------------------------------------- directories */

/* ORC's getAllFilesInPath: a directory's files, recursively, without the
 * hidden ones (names starting with '_' or '.') and ACID side files
 * (..._flush_length); names in strcmp order. */
static int add_files(CombArena *a, const char *path, char ***list, int *n,
                     int *cap, CombErr *err)
{
    if (!fs_is_dir(path)) {
        if (*n == *cap) {
            int c = *cap ? *cap * 2 : 16;
            char **l = comb_realloc(*list, (size_t)c * sizeof *l);
            if (!l)
                return comb_err_nomem(err);
            *list = l;
            *cap = c;
        }
        (*list)[(*n)++] = comb_arena_strdup(a, path);
        return (*list)[*n - 1] ? COMB_OK : comb_err_nomem(err);
    }
    char **names;
    int k, rc = fs_list_dir(path, a, &names, &k, err);
    for (int i = 0; i < k && !rc; i++) {
        size_t len = strlen(names[i]);
        if (names[i][0] == '_' || names[i][0] == '.' ||
            (len >= 13 && strcmp(names[i] + len - 13, "_flush_length") == 0))
            continue;
        char *child = fs_join(a, path, names[i]);
        rc = child ? add_files(a, child, list, n, cap, err)
                   : comb_err_nomem(err);
    }
    return rc;
}

int orc_dump_expand_paths(const char *const *paths, int n, CombArena *a,
                          char ***out, int *n_out, CombErr *err)
{
    int cap = 0, rc = COMB_OK;
    *out = NULL;
    *n_out = 0;
    for (int i = 0; i < n && !rc; i++) {
        if (!fs_exists(paths[i]))
            rc = comb_err(err, COMB_ENOTFOUND, "File %s does not exist",
                          paths[i]);
        else
            rc = add_files(a, paths[i], out, n_out, &cap, err);
    }
    if (rc) {
        comb_free(*out);
        *out = NULL;
        *n_out = 0;
    }
    return rc;
}
