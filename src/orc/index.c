/*
 * index.c - reading a stripe's row index and bloom filters on demand (only
 * the ROW_INDEX / BLOOM_FILTER(_UTF8) streams of the columns asked for),
 * and the layout of row index positions that the writer records and the
 * scan seeks to.  An index that does not parse or does not fit the stripe
 * (entry count, position count for the column's encoding, a filter's
 * size) is dropped for that column: push-down then keeps its groups.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <string.h>

/* The oldest writer versions whose filters hash as today's readers do:
 * HIVE-12055 made old BLOOM_FILTER strings UTF-8, ORC-135 made timestamp
 * filters UTC. */
#define WRITER_HIVE_12055 3
#define WRITER_ORC_135 6

struct OrcStripeIndex {
    int stripe;
    uint32_t n_groups;
    int n_cols;
    Orc__Proto__RowIndex **rows;     /* per column, NULL: none usable */
    OrcColumnStats *stats;           /* per column n_groups, or NULL */
    bool *stats_ok;                  /* ... which entries have statistics */
    OrcBloom **blooms;               /* per column n_groups, or NULL */
    bool *asked_rows, *asked_blooms; /* what was loaded */
};

/* ------------------------------------------------------ position layout */

int orc_pos_layout(CombTypeKind kind, int encoding, bool has_present,
                   bool decimal64, OrcPosStream out[ORC_POS_MAX_STREAMS])
{
#define PUT(slot, form)                                                     \
    out[n++] = (OrcPosStream){ORC__PROTO__STREAM__KIND__##slot, ORC_POS_##form}
    int n = 0;
    bool dict = encoding == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
                encoding == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
    if (has_present)
        PUT(PRESENT, BOOL);
    switch (kind) {
    case COMB_T_BOOLEAN:
        PUT(DATA, BOOL);
        break;
    case COMB_T_TINYINT:
    case COMB_T_UNION:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        PUT(DATA, RLE);
        break;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        PUT(DATA, BYTES);
        break;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        if (dict) {
            PUT(DATA, RLE);
            break;
        }
        PUT(DATA, BYTES);
        PUT(LENGTH, RLE);
        break;
    case COMB_T_TIMESTAMP:
        PUT(DATA, RLE);
        PUT(SECONDARY, RLE);
        break;
    case COMB_T_DECIMAL:
        if (decimal64) {
            PUT(DATA, RLE);
            break;
        }
        PUT(DATA, BYTES);
        PUT(SECONDARY, RLE);
        break;
    case COMB_T_LIST:
    case COMB_T_MAP:
        PUT(LENGTH, RLE);
        break;
    default:  /* struct: presence only */
        break;
    }
    return n;
#undef PUT
}

int orc_pos_width(OrcPosForm form, bool compressed)
{
    int place = compressed ? 2 : 1;
    return place + (form == ORC_POS_BOOL ? 2 : form == ORC_POS_RLE ? 1 : 0);
}

/* ------------------------------------------------------------- groups */

uint32_t orc_reader_stripe_groups(const OrcReader *r, int stripe)
{
    uint32_t stride = orc_reader_row_index_stride(r);
    OrcStripeInfo si;
    if (orc_reader_stripe_info(r, stripe, &si))
        return 0;
    if (stride == 0 || si.n_rows == 0)
        return 1;
    uint64_t n = (si.n_rows + stride - 1) / stride;
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* ------------------------------------------------------------- freeing */

void orc_stripe_index_free(OrcStripeIndex *x)
{
    if (!x)
        return;
    /* index_new frees a half-made index too: either array may be NULL */
    for (int i = 0; i < x->n_cols; i++) {
        if (x->rows && x->rows[i])
            protobuf_c_message_free_unpacked(&x->rows[i]->base,
                                             &orc_pb_alloc);
        if (x->blooms && x->blooms[i]) {
            comb_free((void *)x->blooms[i][0].bits);
            comb_free(x->blooms[i]);
        }
    }
    comb_free(x->stats);
    comb_free(x->stats_ok);
    comb_free(x->rows);
    comb_free(x->blooms);
    comb_free(x->asked_rows);
    comb_free(x->asked_blooms);
    comb_free(x);
}

static OrcStripeIndex *index_new(int stripe, uint32_t n_groups, int n_cols)
{
    OrcStripeIndex *x = comb_calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->stripe = stripe;
    x->n_groups = n_groups;
    x->n_cols = n_cols;
    x->rows = comb_calloc((size_t)n_cols, sizeof *x->rows);
    x->blooms = comb_calloc((size_t)n_cols, sizeof *x->blooms);
    x->asked_rows = comb_calloc((size_t)n_cols, 1);
    x->asked_blooms = comb_calloc((size_t)n_cols, 1);
    if (!x->rows || !x->blooms || !x->asked_rows || !x->asked_blooms) {
        orc_stripe_index_free(x);
        return NULL;
    }
    return x;
}

/* ------------------------------------------------------------- reading */

int orc_reader_index_stream(OrcReader *r, uint64_t off, uint64_t len,
                            const ProtobufCMessageDescriptor *desc,
                            ProtobufCMessage **out, CombErr *err)
{
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    *out = NULL;
    int rc = orc_reader_read_section(r, off, len, &sb, "index stream", err);
    r->counters.bytes_read += rc ? 0 : len;
    if (!rc && (rc = orc_pb_unpack(desc, sb.len, sb.p, out)))
        rc = rc == COMB_ENOMEM
                 ? comb_err_nomem(err)
                 : comb_err(err, COMB_ECORRUPT, "corrupt file '%s': an index "
                            "stream does not parse", r->path);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    return rc;
}

/* One index stream for push-down; *out NULL (and no error) when it is
 * damaged: the column then has no index. */
static int read_index_stream(OrcReader *r, uint64_t off, uint64_t len,
                             const ProtobufCMessageDescriptor *desc,
                             ProtobufCMessage **out, CombErr *err)
{
    int rc = orc_reader_index_stream(r, off, len, desc, out, err);
    if (rc == COMB_ECORRUPT) {
        *out = NULL;
        comb_err_clear(err);
        rc = COMB_OK;
    }
    return rc;
}

/* Whether a row index fits the column in this stripe: one entry per group,
 * each with the positions its encoding needs. */
static bool row_index_fits(const OrcReader *r, const Orc__Proto__RowIndex *ri,
                           uint32_t n_groups, const CombType *t, int enc,
                           bool has_present)
{
    OrcPosStream ps[ORC_POS_MAX_STREAMS];
    int n = orc_pos_layout(t->kind, enc, has_present,
                           r->decimal64 && t->precision <= 18, ps);
    size_t want = 0;
    for (int i = 0; i < n; i++)
        want += (size_t)orc_pos_width(ps[i].form, r->comp != ORC_COMP_NONE);
    if (ri->n_entry != n_groups)
        return false;
    /* group 0 starts at the start of every stream: ORC Java's dictionary
     * fallback leaves its positions out */
    for (size_t e = 1; e < ri->n_entry; e++)
        if (ri->entry[e]->n_positions < want)
            return false;
    return true;
}

static int keep_stats(OrcStripeIndex *x, int col)
{
    const Orc__Proto__RowIndex *ri = x->rows[col];
    if (!x->stats) {
        x->stats = comb_calloc((size_t)x->n_cols * x->n_groups,
                               sizeof *x->stats);
        x->stats_ok = comb_calloc((size_t)x->n_cols * x->n_groups, 1);
        if (!x->stats || !x->stats_ok)
            return COMB_ENOMEM;
    }
    for (uint32_t g = 0; g < x->n_groups; g++) {
        size_t at = (size_t)col * x->n_groups + g;
        const Orc__Proto__ColumnStatistics *cs = ri->entry[g]->statistics;
        x->stats_ok[at] = cs != NULL;
        if (cs)
            orc_stats_from_proto(cs, &x->stats[at]);
    }
    return COMB_OK;
}

/* ORC C++ 1.6.0 to 1.7.0 hashed inconsistently (ORC C++'s reader skips
 * their filters, and so do we); before 1.6.11 the footer had no software
 * version, so a C++ file without one is taken as bad too. */
static bool bad_cpp_blooms(const OrcReader *r)
{
    static const char *const bad[] = {"1.6.0", "1.6.1", "1.6.2", "1.6.3",
                                      "1.6.4", "1.6.5", "1.6.6", "1.6.7",
                                      "1.6.8", "1.6.9", "1.6.10", "1.6.11",
                                      "1.7.0"};
    const Orc__Proto__ReaderFooter *f = r->footer;
    if (!f->has_writer || f->writer != ORC_WRITER_ID)
        return false;
    if (!f->softwareversion)
        return true;
    size_t n = strcspn(f->softwareversion, "-");  /* 1.6.12-SNAPSHOT */
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strlen(bad[i]) == n && !strncmp(f->softwareversion, bad[i], n))
            return true;
    return false;
}

/* Whether this writer's filters of this kind hash as ORC's readers do.
 * Timestamps: only BLOOM_FILTER_UTF8 of writers since ORC-135 holds the
 * UTC milliseconds the statistics count in (ORC Java's old BLOOM_FILTER
 * holds them in its JVM's zone). */
static bool bloom_trusted(const OrcReader *r, const CombType *t, int kind)
{
    uint32_t wv = orc_reader_writer_version(r);
    if (bad_cpp_blooms(r))
        return false;
    if (t->kind == COMB_T_TIMESTAMP &&
        (wv < WRITER_ORC_135 || kind != ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8))
        return false;
    if (kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER &&
        comb_type_is_str(t->kind) && wv < WRITER_HIVE_12055)
        return false;
    return true;
}

/* The filters of a BloomFilterIndex, one per group, their words in one
 * allocation; false when they do not fit. */
static bool blooms_of(const Orc__Proto__BloomFilterIndex *bi,
                      uint32_t n_groups, OrcBloom **out)
{
    size_t words = 0;
    *out = NULL;
    if (bi->n_bloomfilter != n_groups || n_groups == 0)
        return false;
    for (size_t g = 0; g < n_groups; g++) {
        const Orc__Proto__BloomFilter *bf = bi->bloomfilter[g];
        size_t w = bf->n_bitset ? bf->n_bitset : bf->utf8bitset.len / 8;
        if (w == 0 || (!bf->n_bitset && bf->utf8bitset.len % 8) ||
            bf->numhashfunctions == 0 || bf->numhashfunctions > 1024 ||
            w > (SIZE_MAX / 8 - words))
            return false;
        words += w;
    }
    OrcBloom *b = comb_calloc(n_groups, sizeof *b);
    uint64_t *bits = comb_malloc(words * 8);
    if (!b || !bits) {
        comb_free(b);
        comb_free(bits);
        return false;
    }
    for (size_t g = 0, at = 0; g < n_groups; g++) {
        const Orc__Proto__BloomFilter *bf = bi->bloomfilter[g];
        size_t w = bf->n_bitset ? bf->n_bitset : bf->utf8bitset.len / 8;
        memcpy(bits + at, bf->n_bitset ? (const void *)bf->bitset
                                       : (const void *)bf->utf8bitset.data,
               w * 8);
        b[g] = (OrcBloom){bf->numhashfunctions, (uint64_t)w * 64, bits + at};
        at += w;
    }
    *out = b;
    return true;
}

static int load_bloom(OrcReader *r, OrcStripeIndex *x, int col, int kind,
                      uint64_t off, uint64_t len, CombErr *err)
{
    Orc__Proto__BloomFilterIndex *bi;
    if (!bloom_trusted(r, r->by_id[col], kind))
        return COMB_OK;
    int rc = read_index_stream(r, off, len,
                               &orc__proto__bloom_filter_index__descriptor,
                               (ProtobufCMessage **)&bi, err);
    if (rc || !bi)
        return rc;
    if (x->blooms[col]) {
        comb_free((void *)x->blooms[col][0].bits);
        comb_free(x->blooms[col]);
    }
    blooms_of(bi, x->n_groups, &x->blooms[col]);
    protobuf_c_message_free_unpacked(&bi->base, &orc_pb_alloc);
    return COMB_OK;
}

static int load_row_index(OrcReader *r, OrcStripeIndex *x, int col,
                          const Orc__Proto__StripeFooter *sf, uint64_t off,
                          uint64_t len, CombErr *err)
{
    Orc__Proto__RowIndex *ri;
    bool present = false;
    for (size_t i = 0; i < sf->n_streams; i++)
        present |= sf->streams[i]->column == (uint32_t)col &&
                   sf->streams[i]->kind == ORC__PROTO__STREAM__KIND__PRESENT &&
                   sf->streams[i]->length > 0;
    int rc = read_index_stream(r, off, len,
                               &orc__proto__row_index__descriptor,
                               (ProtobufCMessage **)&ri, err);
    if (rc || !ri)
        return rc;
    const Orc__Proto__ColumnEncoding *e = sf->columns[col];
    if (!row_index_fits(r, ri, x->n_groups, r->by_id[col],
                        e->has_kind ? (int)e->kind : 0, present)) {
        protobuf_c_message_free_unpacked(&ri->base, &orc_pb_alloc);
        return COMB_OK;
    }
    x->rows[col] = ri;
    return keep_stats(x, col) ? comb_err_nomem(err) : COMB_OK;
}

static int load_streams(OrcReader *r, OrcStripeIndex *x,
                        const Orc__Proto__StripeFooter *sf,
                        const bool *columns, bool blooms, CombErr *err)
{
    OrcStripeInfo si;
    orc_reader_stripe_info(r, x->stripe, &si);
    uint64_t off = si.offset, end = si.offset + si.index_length;
    for (size_t i = 0; i < sf->n_streams; i++) {
        const Orc__Proto__Stream *st = sf->streams[i];
        uint32_t col = st->column;
        int kind = (int)st->kind, rc = COMB_OK;
        uint64_t len = st->length;
        if (len > end - off || off >= end)
            break;  /* data streams (or garbage): the index part is over */
        if (col < (uint32_t)x->n_cols && (!columns || columns[col])) {
            if (kind == ORC__PROTO__STREAM__KIND__ROW_INDEX &&
                !x->asked_rows[col] && !x->rows[col])
                rc = load_row_index(r, x, (int)col, sf, off, len, err);
            else if (blooms && !x->asked_blooms[col] &&
                     (kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8 ||
                      (kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER &&
                       !x->blooms[col])))
                rc = load_bloom(r, x, (int)col, kind, off, len, err);
        }
        if (rc)
            return rc;
        off += len;
    }
    for (int c = 0; c < x->n_cols; c++)
        if (!columns || columns[c]) {
            x->asked_rows[c] = true;
            x->asked_blooms[c] |= blooms;
        }
    return COMB_OK;
}

int orc_reader_stripe_index(OrcReader *r, int stripe, const bool *columns,
                            bool blooms, const OrcStripeIndex **out,
                            CombErr *err)
{
    Orc__Proto__StripeFooter *sf;
    *out = NULL;
    OrcStripeIndex *x = r->index;
    if (x && x->stripe != stripe) {
        orc_stripe_index_free(x);
        x = r->index = NULL;
    }
    if (x) {
        bool done = true;
        for (int c = 0; c < x->n_cols && done; c++)
            if (!columns || columns[c])
                done = x->asked_rows[c] && (!blooms || x->asked_blooms[c]);
        if (done) {
            *out = x;
            return COMB_OK;
        }
    }
    int rc = orc_reader_stripe_footer(r, stripe, &sf, err);
    if (rc)
        return rc;
    if (!x && !(x = r->index = index_new(stripe,
                                          orc_reader_stripe_groups(r, stripe),
                                          r->n_cols)))
        rc = comb_err_nomem(err);
    if (!rc && orc_reader_row_index_stride(r) > 0)
        rc = load_streams(r, x, sf, columns, blooms, err);
    orc_stripe_footer_free(sf);
    if (!rc)
        *out = x;
    return rc;
}

/* ------------------------------------------------------------- access */

uint32_t orc_stripe_index_groups(const OrcStripeIndex *x)
{
    return x->n_groups;
}

bool orc_stripe_index_has(const OrcStripeIndex *x, int column)
{
    return column >= 0 && column < x->n_cols && x->rows[column] != NULL;
}

int orc_stripe_index_stats(const OrcStripeIndex *x, int column, int group,
                           OrcColumnStats *out)
{
    if (!orc_stripe_index_has(x, column) || group < 0 ||
        (uint32_t)group >= x->n_groups)
        return COMB_ENOTFOUND;
    size_t at = (size_t)column * x->n_groups + (size_t)group;
    if (!x->stats_ok[at])
        return COMB_ENOTFOUND;
    *out = x->stats[at];
    return COMB_OK;
}

const OrcBloom *orc_stripe_index_bloom(const OrcStripeIndex *x, int column,
                                       int group)
{
    if (column < 0 || column >= x->n_cols || !x->blooms[column] ||
        group < 0 || (uint32_t)group >= x->n_groups)
        return NULL;
    return &x->blooms[column][group];
}

const uint64_t *orc_stripe_index_positions(const OrcStripeIndex *x,
                                           int column, int group,
                                           size_t *n)
{
    const Orc__Proto__RowIndexEntry *e =
        x->rows[column]->entry[group];
    *n = e->n_positions;
    return e->positions;
}
