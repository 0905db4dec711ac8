/*
 * writer.c - writing an ORC 0.12 file: "ORC", then stripes (data streams
 * then a stripe footer; no row index, so the footer says stride 0), then
 * the metadata section (per-stripe statistics), the footer (schema,
 * stripes, file statistics, user metadata) and the uncompressed
 * postscript with its length in the last byte.  Column encoding is in
 * colwrite.c.  The file is fsynced on close and removed on any failure.
 *
 * No descriptor stays open between calls (orc.h): open creates the file,
 * every stripe is appended with its own open/write/close, close appends
 * the tail and fsyncs (fsync covers what earlier descriptors wrote).  The
 * pending stripe's encoders (OrcColWrite) exist only while a stripe has
 * rows or keeps its buffers for the next one; writers of an
 * OrcWriterGroup share a budget for that memory and one scratch space
 * (compressor, output buffers) for writing stripes and tails.
 */
#include "common/version.h"
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <string.h>

typedef struct OrcMeta {
    char *key;
    uint8_t *val;
    size_t len;
} OrcMeta;

/* What writing one stripe or tail needs for a moment. */
typedef struct OrcScratch {
    OrcCompression kind;      /* the codec's */
    OrcCodec *codec;
    CombArena tmp;            /* protobuf messages of one stripe / footer */
    CombBuf out;              /* compressed bytes about to be written */
    CombBuf idx_out;          /* a stripe's index streams, compressed */
    CombBuf idx_raw;          /* one index stream before compression */
    CombBuf packed;           /* a serialized message before compression */
} OrcScratch;

struct OrcWriterGroup {
    uint64_t budget;          /* bytes the members may hold together */
    uint64_t bytes;           /* what they hold: sum of their `mem` */
    OrcWriter **members;      /* open writers, each knows its index */
    size_t n_members, cap_members;
    bool have_scratch;        /* scratch made, for the first member's kind */
    OrcScratch scratch;
};

struct OrcWriter {
    char *path;
    OrcWriterOptions opt;
    CombArena arena;          /* the schema copy */
    CombType *schema;
    int n_cols;
    const CombType **types;    /* per column id, into schema */
    OrcColWrite *cols;        /* pending stripe encoders; NULL when freed */
    OrcStatsAcc *file_stats;  /* per column: the stripes written so far */
    size_t mem;               /* bytes `cols` holds (counted in the group) */
    OrcScratch own;           /* used without a group */
    OrcScratch *scratch;      /* &own or the group's */
    OrcWriterGroup *group;    /* NULL when on its own */
    bool has_timestamp;       /* stripe footers name the writer zone */
    bool *bloom;              /* per column id: a bloom filter wanted */
    uint64_t bloom_bits;      /* each filter's size (ORC's formula) */
    uint32_t bloom_hash;
    uint64_t group_rows;      /* rows in the pending stripe's last group */
    CombArena group_tmp;      /* a row group's statistics messages */
    uint32_t *identity;       /* 0, 1, 2...: the rows of a whole batch */
    int identity_cap;
    size_t group_idx;         /* index in group->members */
    uint64_t rows, stripe_rows;
    uint64_t offset;          /* bytes written to the file so far */
    uint64_t footer_end;      /* file length after the last intermediate
                                 tail (orc_writer_flush_footer), 0 none */
    size_t stripes_at_footer; /* stripes that tail lists */
    OrcStripeInfo *stripes;
    size_t n_stripes, cap_stripes;
    CombBuf meta;             /* Metadata section: each stripe's entry
                                 compressed as it was written */
    OrcMeta *md;
    size_t n_md, cap_md;
    bool created;             /* the file exists: abort removes it */
    bool finished;
    bool failed;
};

void orc_writer_options_default(OrcWriterOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->compression = ORC_COMP_ZLIB;
    opt->compression_block_size = 256 * 1024;
    opt->stripe_size = 64ull * 1024 * 1024;
    opt->dictionary_key_threshold = 0.8;
    opt->row_index_stride = 10000;
    opt->bloom_fpp = 0.05;
}

uint64_t orc_writer_rows(const OrcWriter *w) { return w->rows; }

/* --------------------------------------------------------------- scratch */

static int scratch_init(OrcScratch *s, OrcCompression kind, CombErr *err)
{
    s->kind = kind;
    comb_arena_init(&s->tmp, 16 * 1024);
    return orc_codec_new(kind, &s->codec, err);
}

static void scratch_free(OrcScratch *s)
{
    orc_codec_free(s->codec);
    s->codec = NULL;
    comb_arena_free(&s->tmp);
    comb_buf_free(&s->out);
    comb_buf_free(&s->idx_out);
    comb_buf_free(&s->idx_raw);
    comb_buf_free(&s->packed);
}

/* ----------------------------------------------------------------- group */

int orc_writer_group_new(uint64_t budget, OrcWriterGroup **out, CombErr *err)
{
    OrcWriterGroup *g;
    *out = NULL;
    if (budget == 0)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer group: the memory budget must be "
                        "positive");
    if (!(g = comb_calloc(1, sizeof *g)))
        return comb_err_nomem(err);
    g->budget = budget;
    *out = g;
    return COMB_OK;
}

void orc_writer_group_free(OrcWriterGroup *g)
{
    if (!g)
        return;
    comb_free(g->members);
    if (g->have_scratch)
        scratch_free(&g->scratch);
    comb_free(g);
}

uint64_t orc_writer_group_bytes(const OrcWriterGroup *g) { return g->bytes; }

static int group_join(OrcWriterGroup *g, OrcWriter *w, CombErr *err)
{
    int rc;
    if (!g->have_scratch) {
        if ((rc = scratch_init(&g->scratch, w->opt.compression, err))) {
            scratch_free(&g->scratch);
            return rc;
        }
        g->have_scratch = true;
    } else if (g->scratch.kind != w->opt.compression) {
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': %s compression in a group of %s "
                        "writers", w->path,
                        orc_compression_name(w->opt.compression),
                        orc_compression_name(g->scratch.kind));
    }
    if (g->n_members == g->cap_members) {
        size_t cap = g->cap_members ? g->cap_members * 2 : 16;
        OrcWriter **m = comb_realloc(g->members, cap * sizeof *m);
        if (!m)
            return comb_err_nomem(err);
        g->members = m;
        g->cap_members = cap;
    }
    w->group = g;
    w->group_idx = g->n_members;
    g->members[g->n_members++] = w;
    w->scratch = &g->scratch;
    return COMB_OK;
}

static void group_leave(OrcWriter *w)
{
    OrcWriterGroup *g = w->group;
    if (!g)
        return;
    g->bytes -= w->mem;
    g->members[w->group_idx] = g->members[--g->n_members];
    g->members[w->group_idx]->group_idx = w->group_idx;
    w->group = NULL;
}

/* ------------------------------------------------------ pending stripe */

/* Recount what the pending stripe's encoders hold, in the group too. */
static void account(OrcWriter *w)
{
    size_t mem = 0;
    if (w->cols)
        for (int i = 0; i < w->n_cols; i++)
            mem += orc_colwrite_mem(&w->cols[i]);
    if (w->group)
        w->group->bytes = w->group->bytes - w->mem + mem;
    w->mem = mem;
}

static int cols_acquire(OrcWriter *w, CombErr *err)
{
    if (w->cols)
        return COMB_OK;
    if (!(w->cols = comb_calloc((size_t)w->n_cols, sizeof *w->cols)))
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        orc_colwrite_init(&w->cols[i], w->types[i],
                          w->opt.dictionary_key_threshold);
        if (w->bloom[i] && orc_colwrite_bloom_init(&w->cols[i], w->bloom_bits,
                                                   w->bloom_hash))
            return comb_err_nomem(err);
    }
    w->group_rows = 0;
    return COMB_OK;
}

/* Free the encoders (no stripe pending): their memory goes back. */
static void cols_release(OrcWriter *w)
{
    if (!w->cols)
        return;
    for (int i = 0; i < w->n_cols; i++)
        orc_colwrite_free(&w->cols[i]);
    comb_free(w->cols);
    w->cols = NULL;
    account(w);
}

/* --------------------------------------------------------- open / close */

static void writer_free(OrcWriter *w)
{
    cols_release(w);
    group_leave(w);
    if (w->file_stats)
        for (int i = 0; i < w->n_cols; i++)
            orc_stats_free(&w->file_stats[i]);
    comb_free(w->file_stats);
    for (size_t i = 0; i < w->n_md; i++) {
        comb_free(w->md[i].key);
        comb_free(w->md[i].val);
    }
    comb_free(w->md);
    comb_free(w->identity);
    comb_free(w->bloom);
    comb_arena_free(&w->group_tmp);
    comb_free(w->stripes);
    comb_buf_free(&w->meta);
    scratch_free(&w->own);
    comb_arena_free(&w->arena);
    comb_free(w->path);
    comb_free(w);
}

void orc_writer_abort(OrcWriter *w)
{
    CombErr ignored;
    if (!w)
        return;
    if (w->created)
        fs_unlink(w->path, &ignored);
    writer_free(w);
}

void orc_writer_detach(OrcWriter *w)
{
    if (w)
        writer_free(w);
}

static int check_schema(const CombType *t, CombErr *err)
{
    if (!orc_kind_writable(t->kind))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC writer: columns of type %s cannot be written",
                        comb_type_name(t->kind));
    if (t->kind == COMB_T_DECIMAL &&
        (t->precision < 1 || t->precision > COMB_MAX_DECIMAL_PRECISION ||
         t->scale > t->precision))
        return comb_err(err, COMB_EINVALID,
                        "ORC writer: bad decimal(%u,%u)", t->precision,
                        t->scale);
    for (int i = 0; i < t->n_children; i++) {
        int rc = check_schema(t->children[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int check_options(const OrcWriterOptions *o, CombErr *err)
{
    if (!orc_compression_writable(o->compression))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC writer: %s compression is not supported",
                        orc_compression_name(o->compression));
    if (!(o->dictionary_key_threshold >= 0 && o->dictionary_key_threshold <= 1))
        return comb_err(err, COMB_EINVALID,
                        "ORC writer: the dictionary key threshold must be "
                        "between 0 and 1");
    if (o->n_bloom_columns > 0 && o->row_index_stride > 0 &&
        !(o->bloom_fpp > 0 && o->bloom_fpp < 1))
        return comb_err(err, COMB_EINVALID,
                        "ORC writer: the bloom filter false positive "
                        "probability must be between 0 and 1 (exclusive)");
    if (o->compression_block_size == 0 ||
        o->compression_block_size > ORC_MAX_CHUNK)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer: compression block size must be between "
                        "1 and %u bytes", ORC_MAX_CHUNK);
    return COMB_OK;
}

/* Create the file with its magic and leave it closed. */
static int create_file(OrcWriter *w, CombErr *err)
{
    FsFile *out = fs_create(w->path, err);
    int rc;
    if (!out)
        return err->code;
    w->created = true;
    rc = fs_write_all(out, ORC_MAGIC, ORC_MAGIC_LEN, err);
    if (rc) {
        fs_discard(out);
        return rc;
    }
    w->offset = ORC_MAGIC_LEN;
    return fs_close(out, err);
}

/* Which columns get bloom filters: the listed ones of a kind that has
 * them (compound columns do not), and only with a row index. */
static int bloom_setup(OrcWriter *w, CombErr *err)
{
    const OrcWriterOptions *o = &w->opt;
    if (!(w->bloom = comb_calloc((size_t)w->n_cols, sizeof *w->bloom)))
        return comb_err_nomem(err);
    for (int i = 0; i < o->n_bloom_columns; i++) {
        int id = o->bloom_columns[i];
        if (id < 0 || id >= w->n_cols)
            return comb_err(err, COMB_EINVALID,
                            "ORC writer '%s': bloom filter column %d does "
                            "not exist (the file has %d)", w->path, id,
                            w->n_cols);
        CombTypeKind k = w->types[id]->kind;
        w->bloom[id] = o->row_index_stride > 0 && k != COMB_T_STRUCT &&
                       k != COMB_T_LIST && k != COMB_T_MAP &&
                       k != COMB_T_UNION;
    }
    w->opt.bloom_columns = NULL;  /* not kept: the caller's memory */
    w->opt.n_bloom_columns = 0;
    orc_bloom_size(o->row_index_stride, o->bloom_fpp, &w->bloom_bits,
                   &w->bloom_hash);
    return COMB_OK;
}

static int writer_setup(OrcWriter *w, const CombType *schema, CombErr *err)
{
    int rc;
    w->schema = comb_type_copy(&w->arena, schema);
    if (!w->schema)
        return comb_err_nomem(err);
    w->n_cols = comb_type_assign_ids(w->schema);
    w->types = comb_arena_alloc(&w->arena,
                                (size_t)w->n_cols * sizeof *w->types);
    w->file_stats = comb_calloc((size_t)w->n_cols, sizeof *w->file_stats);
    if (!w->types || !w->file_stats)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        w->types[i] = comb_type_find(w->schema, i);
        orc_stats_init(&w->file_stats[i], w->types[i]);
        w->has_timestamp |= w->types[i]->kind == COMB_T_TIMESTAMP;
    }
    if ((rc = bloom_setup(w, err)))
        return rc;
    if (w->opt.group)
        rc = group_join(w->opt.group, w, err);
    else if ((rc = scratch_init(&w->own, w->opt.compression, err)) == COMB_OK)
        w->scratch = &w->own;
    return rc ? rc : create_file(w, err);
}

int orc_writer_open(const char *path, const CombType *schema,
                    const OrcWriterOptions *opt, OrcWriter **out, CombErr *err)
{
    *out = NULL;
    int rc = check_schema(schema, err);
    if (rc || (rc = check_options(opt, err)))
        return rc;
    OrcWriter *w = comb_calloc(1, sizeof *w);
    if (!w)
        return comb_err_nomem(err);
    w->opt = *opt;
    comb_arena_init(&w->arena, 2048);
    comb_arena_init(&w->group_tmp, 4096);
    if (!(w->path = comb_strdup(path)))
        rc = comb_err_nomem(err);
    else
        rc = writer_setup(w, schema, err);
    if (rc) {
        orc_writer_abort(w);
        return rc;
    }
    *out = w;
    return COMB_OK;
}

/* ---------------------------------------------------------------- stripes */

/* Compress `len` bytes onto the scratch's `out` and describe them as a
 * stream. */
static int add_stream(OrcWriter *w, Orc__Proto__Stream ***list, size_t *n,
                      int kind, int column, const CombBuf *buf, CombBuf *to,
                      size_t *at, CombErr *err)
{
    OrcScratch *x = w->scratch;
    size_t start = to->len;
    bool meta = kind == ORC__PROTO__STREAM__KIND__ROW_INDEX ||
                kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER ||
                kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8;
    int rc = (meta ? orc_codec_compress : orc_codec_compress_data)(
        x->codec, w->opt.compression_block_size, buf->data, buf->len, to,
        err);
    if (rc)
        return rc;
    Orc__Proto__Stream *s =
        orc_pb_new(&x->tmp, &orc__proto__stream__descriptor);
    if (!s)
        return comb_err_nomem(err);
    s->has_kind = s->has_column = s->has_length = 1;
    s->kind = (Orc__Proto__Stream__Kind)kind;
    s->column = (uint32_t)column;
    s->length = to->len - start;
    (*list)[(*n)++] = s;
    if (at)
        at[kind] = start;
    return COMB_OK;
}

/* The data streams of a column onto the scratch's `out`; at[kind] = where
 * each starts there. */
static int column_streams(OrcWriter *w, OrcColWrite *c, Orc__Proto__Stream ***list,
                          size_t *n, size_t at[ORC_N_SLOTS], CombErr *err)
{
    int id = c->type->id, rc = COMB_OK;
    CombTypeKind k = c->type->kind;
    CombBuf *out = &w->scratch->out;
    bool collection = k == COMB_T_LIST || k == COMB_T_MAP;
    if (c->stripe_stats.has_null)
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__PRESENT, id,
                        &c->present_buf, out, at, err);
    if (!rc && k != COMB_T_STRUCT && !collection)
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__DATA, id,
                        &c->data_buf, out, at, err);
    if (!rc && (comb_type_is_str(k) || collection))
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__LENGTH, id,
                        &c->length_buf, out, at, err);
    if (!rc && c->use_dict)
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__DICTIONARY_DATA,
                        id, &c->dict_buf, out, at, err);
    if (!rc && (k == COMB_T_TIMESTAMP || k == COMB_T_DECIMAL))
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__SECONDARY, id,
                        &c->secondary_buf, out, at, err);
    return rc;
}

/* The ROW_INDEX (and BLOOM_FILTER_UTF8) streams of a column whose data
 * streams were just written at[kind] .. (lengths from list). */
static int index_streams(OrcWriter *w, OrcColWrite *c,
                         Orc__Proto__Stream **data, size_t n_data,
                         const size_t at[ORC_N_SLOTS],
                         Orc__Proto__Stream ***list, size_t *n, CombErr *err)
{
    OrcScratch *x = w->scratch;
    size_t len[ORC_N_SLOTS] = {0};
    int id = c->type->id;
    for (size_t i = 0; i < n_data; i++)
        len[data[i]->kind] = (size_t)data[i]->length;
    if (orc_colwrite_row_index(c, w->opt.compression != ORC_COMP_NONE,
                               w->opt.compression_block_size, x->out.data,
                               at, len, &x->idx_raw))
        return comb_err_nomem(err);
    int rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__ROW_INDEX, id,
                        &x->idx_raw, &x->idx_out, NULL, err);
    if (!rc && c->bloom)
        rc = add_stream(w, list, n,
                        ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8, id,
                        &c->bloom_pb, &x->idx_out, NULL, err);
    return rc;
}

/* Serialize a message into the scratch's `packed`. */
static int pack_message(OrcWriter *w, const ProtobufCMessage *m, CombErr *err)
{
    CombBuf *packed = &w->scratch->packed;
    size_t size = protobuf_c_message_get_packed_size(m);
    comb_buf_clear(packed);
    if (comb_buf_reserve(packed, size + 1))
        return comb_err_nomem(err);
    packed->len = protobuf_c_message_pack(m, packed->data);
    return COMB_OK;
}

static int stripe_footer(OrcWriter *w, Orc__Proto__StripeFooter *sf,
                         CombErr *err)
{
    /* index streams come first in the stripe, data streams after them */
    size_t n_index = 0, n_data = 0;
    Orc__Proto__Stream **index = comb_arena_alloc(
        &w->scratch->tmp, 2 * (size_t)w->n_cols * sizeof *index);
    Orc__Proto__Stream **data = comb_arena_alloc(
        &w->scratch->tmp, 5 * (size_t)w->n_cols * sizeof *data);
    sf->streams = comb_arena_alloc(&w->scratch->tmp, 7 * (size_t)w->n_cols *
                                                sizeof *sf->streams);
    /* Hive 3+ writes timestamps with useUTCTimestamp: zone "UTC" */
    if (w->has_timestamp)
        sf->writertimezone = (char *)"UTC";
    sf->columns = comb_arena_alloc(&w->scratch->tmp, (size_t)w->n_cols *
                                                sizeof *sf->columns);
    Orc__Proto__ColumnEncoding *enc =
        comb_arena_alloc(&w->scratch->tmp, (size_t)w->n_cols * sizeof *enc);
    if (!sf->streams || !sf->columns || !enc || !index || !data)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        size_t at[ORC_N_SLOTS] = {0}, first = n_data;
        int rc = column_streams(w, &w->cols[i], &data, &n_data, at, err);
        if (!rc && w->opt.row_index_stride > 0)
            rc = index_streams(w, &w->cols[i], data + first, n_data - first,
                               at, &index, &n_index, err);
        if (rc)
            return rc;
        orc__proto__column_encoding__init(&enc[i]);
        enc[i].has_kind = 1;
        enc[i].kind = (Orc__Proto__ColumnEncoding__Kind)
            orc_colwrite_encoding(&w->cols[i]);
        if (w->cols[i].use_dict) {
            enc[i].has_dictionarysize = 1;
            enc[i].dictionarysize = w->cols[i].dict.n_keys;
        }
        sf->columns[i] = &enc[i];
    }
    sf->n_columns = (size_t)w->n_cols;
    memcpy(sf->streams, index, n_index * sizeof *index);
    memcpy(sf->streams + n_index, data, n_data * sizeof *data);
    sf->n_streams = n_index + n_data;
    return COMB_OK;
}

/* Append one StripeStatistics to the Metadata message, compressed: the
 * message is `repeated StripeStatistics stripeStats = 1`, so each entry is
 * tag 0x0a, its length and its bytes, and a compressed stream may be cut
 * into chunks anywhere, so each stripe's entry is compressed once, into
 * chunks of its own, and every tail after it (a streaming writer writes
 * one per flush) writes the chunks as they are. */
static int record_stripe_stats(OrcWriter *w, CombErr *err)
{
    Orc__Proto__StripeStatistics ss = ORC__PROTO__STRIPE_STATISTICS__INIT;
    CombArena *tmp = &w->scratch->tmp;
    CombBuf *entry = &w->scratch->packed;
    Orc__Proto__ColumnStatistics *cs =
        comb_arena_alloc(tmp, (size_t)w->n_cols * sizeof *cs);
    ss.colstats = comb_arena_alloc(tmp,
                                   (size_t)w->n_cols * sizeof *ss.colstats);
    if (!cs || !ss.colstats)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        if (orc_stats_to_proto(&w->cols[i].stripe_stats, &cs[i], tmp))
            return comb_err_nomem(err);
        ss.colstats[i] = &cs[i];
    }
    ss.n_colstats = (size_t)w->n_cols;
    size_t size = protobuf_c_message_get_packed_size(&ss.base);
    comb_buf_clear(entry);
    if (comb_buf_append_byte(entry, 0x0a) || orc_varint_put(entry, size) ||
        comb_buf_reserve(entry, size))
        return comb_err_nomem(err);
    entry->len += protobuf_c_message_pack(&ss.base, entry->data + entry->len);
    return orc_codec_compress(w->scratch->codec,
                              w->opt.compression_block_size, entry->data,
                              entry->len, &w->meta, err);
}

static int push_stripe_info(OrcWriter *w, const OrcStripeInfo *si,
                            CombErr *err)
{
    if (w->n_stripes == w->cap_stripes) {
        size_t cap = w->cap_stripes ? w->cap_stripes * 2 : 8;
        OrcStripeInfo *s = comb_realloc(w->stripes, cap * sizeof *s);
        if (!s)
            return comb_err_nomem(err);
        w->stripes = s;
        w->cap_stripes = cap;
    }
    w->stripes[w->n_stripes++] = *si;
    return COMB_OK;
}

/* Append bytes (a, then b) to the file through a descriptor of their
 * own. */
static int append_bytes(OrcWriter *w, const CombBuf *a, const CombBuf *b,
                        CombErr *err)
{
    FsFile *out = fs_open_append(w->path, err);
    int rc;
    if (!out)
        return err->code;
    rc = fs_write_all(out, a->data, a->len, err);
    if (!rc)
        rc = fs_write_all(out, b->data, b->len, err);
    if (rc) {
        fs_discard(out);
        return rc;
    }
    return fs_close(out, err);
}

static int end_group(OrcWriter *w, CombErr *err);

/* Streams and footer of the pending stripe, then bookkeeping. */
static int write_stripe(OrcWriter *w, CombErr *err)
{
    Orc__Proto__StripeFooter sf = ORC__PROTO__STRIPE_FOOTER__INIT;
    OrcStripeInfo si = {.offset = w->offset, .n_rows = w->stripe_rows};
    OrcScratch *x = w->scratch;
    comb_buf_clear(&x->out);
    comb_buf_clear(&x->idx_out);
    comb_arena_reset(&x->tmp);
    int rc = end_group(w, err);
    if (rc)
        return rc;
    for (int i = 0; i < w->n_cols; i++)
        if (orc_colwrite_flush(&w->cols[i]))
            return comb_err_nomem(err);
    rc = stripe_footer(w, &sf, err);
    if (rc || (rc = pack_message(w, &sf.base, err)))
        return rc;
    si.index_length = x->idx_out.len;
    si.data_length = x->out.len;
    if ((rc = orc_codec_compress_tail(x->codec,
                                      w->opt.compression_block_size,
                                      x->packed.data, x->packed.len, &x->out,
                                      err)))
        return rc;
    si.footer_length = x->out.len - si.data_length;
    if ((rc = append_bytes(w, &x->idx_out, &x->out, err)) ||
        (rc = record_stripe_stats(w, err)) ||
        (rc = push_stripe_info(w, &si, err)))
        return rc;
    w->offset += x->idx_out.len + x->out.len;
    for (int i = 0; i < w->n_cols; i++) {
        if (orc_stats_merge(&w->file_stats[i], &w->cols[i].stripe_stats))
            return comb_err_nomem(err);
        orc_colwrite_reset(&w->cols[i]);
    }
    w->stripe_rows = 0;
    return COMB_OK;
}

static int flush_stripe(OrcWriter *w, CombErr *err)
{
    if (w->stripe_rows == 0)
        return COMB_OK;
    if (w->opt.on_stripe) {
        int rc = w->opt.on_stripe(w->opt.ctx, w->stripe_rows, err);
        if (rc)
            return rc;
    }
    return write_stripe(w, err);
}

/* ------------------------------------------------------------------ rows */

/* The batch's vectors must match the schema, the rows lie inside them,
 * and their values must be storable: a bad batch is refused whole. */
static int check_batch(const OrcWriter *w, const CombBatch *b,
                       const uint32_t *rows, int n, CombErr *err)
{
    int n_cols = orc_batch_n_cols(w->schema);
    if (b->n_cols != n_cols || n < 0)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': batch has %d columns, file has %d",
                        w->path, b->n_cols, n_cols);
    for (int i = 0; i < n; i++)
        if (rows[i] >= (uint32_t)b->capacity)
            return comb_err(err, COMB_EINVALID,
                            "ORC writer '%s': row %u beyond the batch's %d",
                            w->path, rows[i], b->capacity);
    for (int i = 0; i < n_cols; i++) {
        const CombType *t = orc_batch_col_type(w->schema, i);
        int rc;
        if (!orc_vec_fits(&b->cols[i], t))
            return comb_err(err, COMB_EINVALID,
                            "ORC writer '%s': batch column %d is no %s "
                            "vector", w->path, i, comb_type_name(t->kind));
        if ((rc = orc_colwrite_check(t, &b->cols[i], rows, n, w->path, err)))
            return rc;
    }
    return COMB_OK;
}

/* Every row is present in the root: its fields get all the rows. */
static int write_root(OrcWriter *w, const CombBatch *b, const uint32_t *rows,
                      int n, CombErr *err)
{
    const CombType *root = w->schema;
    int rc = COMB_OK;
    if (root->kind != COMB_T_STRUCT)
        return orc_colwrite_rows(w->cols, root, &b->cols[0], rows, n, err);
    for (int i = 0; i < n; i++)
        if (orc_bool_enc_add(&w->cols[0].present, true))
            return comb_err_nomem(err);
    w->cols[0].group_stats.n_values += (uint64_t)n;
    for (int i = 0; i < root->n_children && !rc; i++)
        rc = orc_colwrite_rows(w->cols, root->children[i], &b->cols[i], rows,
                               n, err);
    return rc;
}

static size_t buffered(const OrcWriter *w)
{
    size_t n = 0;
    for (int i = 0; w->cols && i < w->n_cols; i++)
        n += orc_colwrite_size(&w->cols[i]);
    return n;
}

/* Write out the largest pending stripes of the group and free their
 * encoders until the group is within its budget (ORC's MemoryManager
 * shrinks stripes the same way).  A failure fails that writer. */
static int group_balance(OrcWriterGroup *g, CombErr *err)
{
    while (g->bytes > g->budget) {
        OrcWriter *big = NULL;
        int rc;
        for (size_t i = 0; i < g->n_members; i++)
            if (!big || g->members[i]->mem > big->mem)
                big = g->members[i];
        if (!big || big->mem == 0)
            return COMB_OK;
        if (!big->failed && (rc = flush_stripe(big, err))) {
            big->failed = true;
            return rc;
        }
        cols_release(big);
    }
    return COMB_OK;
}

static int writer_state(const OrcWriter *w, CombErr *err)
{
    if (w->failed)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s' failed earlier", w->path);
    if (w->finished)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s' is finished; no more rows", w->path);
    return COMB_OK;
}

int orc_writer_write(OrcWriter *w, const CombBatch *b, CombErr *err)
{
    if (b->n_rows < 0 || b->n_rows > b->capacity)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': batch of %d rows holds %d",
                        w->path, b->capacity, b->n_rows);
    if (b->n_rows > w->identity_cap) {
        uint32_t *ids = comb_realloc(w->identity,
                                     (size_t)b->n_rows * sizeof *ids);
        if (!ids)
            return comb_err_nomem(err);
        for (int i = w->identity_cap; i < b->n_rows; i++)
            ids[i] = (uint32_t)i;
        w->identity = ids;
        w->identity_cap = b->n_rows;
    }
    return orc_writer_write_rows(w, b, w->identity, b->n_rows, err);
}

/* Start a row group in every column: where each stream stands. */
static int start_group(OrcWriter *w, CombErr *err)
{
    for (int i = 0; i < w->n_cols; i++)
        if (orc_colwrite_mark(&w->cols[i]))
            return comb_err_nomem(err);
    return COMB_OK;
}

/* End the pending stripe's current row group (the whole stripe without
 * an index): statistics into the stripe's, the index entry kept. */
static int end_group(OrcWriter *w, CombErr *err)
{
    bool index = w->opt.row_index_stride > 0;
    for (int i = 0; i < w->n_cols; i++)
        if (orc_colwrite_group_end(&w->cols[i], index && w->group_rows > 0,
                                   &w->group_tmp))
            return comb_err_nomem(err);
    w->group_rows = 0;
    return COMB_OK;
}

/* The rows, cut at row group boundaries (every row_index_stride rows of
 * a stripe) so that each group's start is marked and its statistics and
 * bloom filter are its own. */
static int write_groups(OrcWriter *w, const CombBatch *b, const uint32_t *rows,
                        int n, CombErr *err)
{
    uint64_t stride = w->opt.row_index_stride;
    int rc = COMB_OK;
    if (stride == 0)
        return write_root(w, b, rows, n, err);
    for (int done = 0; done < n && !rc;) {
        if (w->group_rows == 0 && (rc = start_group(w, err)))
            return rc;
        uint64_t room = stride - w->group_rows;
        int k = (uint64_t)(n - done) < room ? n - done : (int)room;
        if ((rc = write_root(w, b, rows + done, k, err)))
            return rc;
        w->group_rows += (uint64_t)k;
        done += k;
        if (w->group_rows == stride)
            rc = end_group(w, err);
    }
    return rc;
}

int orc_writer_write_rows(OrcWriter *w, const CombBatch *b,
                          const uint32_t *rows, int n, CombErr *err)
{
    int rc = writer_state(w, err);
    if (rc || (rc = check_batch(w, b, rows, n, err)))
        return rc;
    if (n == 0)
        return COMB_OK;
    rc = cols_acquire(w, err);
    if (!rc)
        rc = write_groups(w, b, rows, n, err);
    if (rc == COMB_OK) {
        w->rows += (uint64_t)n;
        w->stripe_rows += (uint64_t)n;
        if (buffered(w) >= w->opt.stripe_size)
            rc = flush_stripe(w, err);
    }
    account(w);
    w->failed = rc != COMB_OK;
    if (!rc && w->group)
        rc = group_balance(w->group, err);
    return rc;
}

int orc_writer_finish(OrcWriter *w, CombErr *err)
{
    int rc = writer_state(w, err);
    if (rc)
        return rc;
    rc = flush_stripe(w, err);
    cols_release(w); /* no more rows: the encoders are done */
    w->failed = rc != COMB_OK;
    w->finished = true;
    return rc;
}

int orc_writer_set_metadata(OrcWriter *w, const char *key, const void *val,
                            size_t len, CombErr *err)
{
    uint8_t *copy = comb_malloc(len ? len : 1);
    if (!copy)
        return comb_err_nomem(err);
    if (len)
        memcpy(copy, val, len);
    for (size_t i = 0; i < w->n_md; i++)
        if (strcmp(w->md[i].key, key) == 0) {
            comb_free(w->md[i].val);
            w->md[i].val = copy;
            w->md[i].len = len;
            return COMB_OK;
        }
    if (w->n_md == w->cap_md) {
        size_t cap = w->cap_md ? w->cap_md * 2 : 4;
        OrcMeta *m = comb_realloc(w->md, cap * sizeof *m);
        if (!m) {
            comb_free(copy);
            return comb_err_nomem(err);
        }
        w->md = m;
        w->cap_md = cap;
    }
    OrcMeta *m = &w->md[w->n_md];
    if (!(m->key = comb_strdup(key))) {
        comb_free(copy);
        return comb_err_nomem(err);
    }
    m->val = copy;
    m->len = len;
    w->n_md++;
    return COMB_OK;
}

/* ------------------------------------------------------------------ tail */

/* Compress the footer src and write it to out; *len = bytes written. */
static int write_section(OrcWriter *w, FsFile *out, const CombBuf *src,
                         uint64_t *len, CombErr *err)
{
    OrcScratch *x = w->scratch;
    comb_buf_clear(&x->out);
    int rc = orc_codec_compress_tail(x->codec, w->opt.compression_block_size,
                                     src->data, src->len, &x->out, err);
    if (rc || (rc = fs_write_all(out, x->out.data, x->out.len, err)))
        return rc;
    *len = x->out.len;
    return COMB_OK;
}

static int footer_stripes(OrcWriter *w, Orc__Proto__Footer *f)
{
    Orc__Proto__StripeInformation *si =
        comb_arena_alloc(&w->scratch->tmp, (w->n_stripes + 1) * sizeof *si);
    f->stripes = comb_arena_alloc(&w->scratch->tmp,
                                  (w->n_stripes + 1) * sizeof *f->stripes);
    if (!si || !f->stripes)
        return COMB_ENOMEM;
    for (size_t i = 0; i < w->n_stripes; i++) {
        const OrcStripeInfo *s = &w->stripes[i];
        orc__proto__stripe_information__init(&si[i]);
        si[i].has_offset = si[i].has_indexlength = si[i].has_datalength = 1;
        si[i].has_footerlength = si[i].has_numberofrows = 1;
        si[i].offset = s->offset;
        si[i].indexlength = s->index_length;
        si[i].datalength = s->data_length;
        si[i].footerlength = s->footer_length;
        si[i].numberofrows = s->n_rows;
        f->stripes[i] = &si[i];
    }
    f->n_stripes = w->n_stripes;
    return COMB_OK;
}

static int footer_stats_and_meta(OrcWriter *w, Orc__Proto__Footer *f)
{
    size_t n = (size_t)w->n_cols;
    Orc__Proto__ColumnStatistics *cs = comb_arena_alloc(&w->scratch->tmp,
                                                        n * sizeof *cs);
    f->statistics = comb_arena_alloc(&w->scratch->tmp,
                                     n * sizeof *f->statistics);
    Orc__Proto__UserMetadataItem *mi =
        comb_arena_alloc(&w->scratch->tmp, (w->n_md + 1) * sizeof *mi);
    f->metadata = comb_arena_alloc(&w->scratch->tmp,
                                   (w->n_md + 1) * sizeof *f->metadata);
    if (!cs || !f->statistics || !mi || !f->metadata)
        return COMB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (orc_stats_to_proto(&w->file_stats[i], &cs[i], &w->scratch->tmp))
            return COMB_ENOMEM;
        f->statistics[i] = &cs[i];
    }
    f->n_statistics = n;
    for (size_t i = 0; i < w->n_md; i++) {
        orc__proto__user_metadata_item__init(&mi[i]);
        mi[i].name = w->md[i].key;
        mi[i].has_value = 1;
        mi[i].value.data = w->md[i].val;
        mi[i].value.len = w->md[i].len;
        f->metadata[i] = &mi[i];
    }
    f->n_metadata = w->n_md;
    return COMB_OK;
}

static int write_footer(OrcWriter *w, FsFile *out, uint64_t *len, CombErr *err)
{
    Orc__Proto__Footer f = ORC__PROTO__FOOTER__INIT;
    comb_arena_reset(&w->scratch->tmp);
    f.has_headerlength = f.has_contentlength = f.has_numberofrows = 1;
    f.has_rowindexstride = f.has_writer = 1;
    f.headerlength = ORC_MAGIC_LEN;
    f.contentlength = w->offset;
    f.numberofrows = w->rows;
    f.rowindexstride = w->opt.row_index_stride;
    f.writer = ORC_WRITER_ID;
    /* dates and timestamps are proleptic Gregorian (Hive 3+, ORC-1.6's
     * PROLEPTIC_GREGORIAN): readers must not shift old dates */
    f.has_calendar = 1;
    f.calendar = ORC__PROTO__CALENDAR_KIND__PROLEPTIC_GREGORIAN;
    /* the writer id is ORC C++'s encoding rules; say who really wrote it */
    f.softwareversion = (char *)"comb " COMB_VERSION;
    if (footer_stripes(w, &f) || footer_stats_and_meta(w, &f) ||
        orc_type_to_proto(&w->scratch->tmp, w->schema, &f.types, &f.n_types))
        return comb_err_nomem(err);
    int rc = pack_message(w, &f.base, err);
    return rc ? rc : write_section(w, out, &w->scratch->packed, len, err);
}

static int write_postscript(OrcWriter *w, FsFile *out, uint64_t footer_len,
                            uint64_t meta_len, CombErr *err)
{
    Orc__Proto__PostScript ps = ORC__PROTO__POST_SCRIPT__INIT;
    uint32_t version[2] = {0, 12};
    char magic[] = ORC_MAGIC;
    ps.has_footerlength = ps.has_compression = 1;
    ps.has_compressionblocksize = ps.has_metadatalength = 1;
    ps.has_writerversion = 1;
    ps.footerlength = footer_len;
    ps.compression = (Orc__Proto__CompressionKind)w->opt.compression;
    ps.compressionblocksize = w->opt.compression_block_size;
    ps.n_version = 2;
    ps.version = version;
    ps.metadatalength = meta_len;
    ps.writerversion = ORC_WRITER_VERSION;
    ps.magic = magic;
    int rc = pack_message(w, &ps.base, err);
    if (rc)
        return rc;
    CombBuf *ps_bytes = &w->scratch->packed;
    if (ps_bytes->len > 255)
        return COMB_INTERNAL(err, "postscript longer than 255 bytes");
    ps_bytes->data[ps_bytes->len] = (uint8_t)ps_bytes->len;
    return fs_write_all(out, ps_bytes->data, ps_bytes->len + 1, err);
}

/* Metadata, footer and postscript, then fsync: the one fsync covers the
 * stripes earlier descriptors appended as well.  *len (may be NULL) = the
 * tail's bytes. */
static int write_tail(OrcWriter *w, uint64_t *len, CombErr *err)
{
    uint64_t meta_len = w->meta.len, footer_len = 0;
    FsFile *out = fs_open_append(w->path, err);
    int rc = COMB_OK;
    if (!out)
        return err->code;
    if (w->n_stripes > 0)
        rc = fs_write_all(out, w->meta.data, w->meta.len, err);
    if (rc || (rc = write_footer(w, out, &footer_len, err)) ||
        (rc = write_postscript(w, out, footer_len, meta_len, err))) {
        fs_discard(out);
        return rc;
    }
    if (len) /* the postscript's length byte follows it */
        *len = meta_len + footer_len + w->scratch->packed.len + 1;
    return fs_sync_close(out, err);
}

int orc_writer_flush_stripe(OrcWriter *w, CombErr *err)
{
    int rc = writer_state(w, err);
    if (!rc && (rc = flush_stripe(w, err)))
        w->failed = true;
    return rc;
}

int orc_writer_flush_footer(OrcWriter *w, uint64_t *length, CombErr *err)
{
    uint64_t tail = 0;
    int rc = writer_state(w, err);
    if (!rc)
        rc = flush_stripe(w, err);
    /* nothing new since the last tail: that one still describes the file */
    if (!rc && (w->footer_end == 0 || w->n_stripes != w->stripes_at_footer)) {
        rc = write_tail(w, &tail, err);
        if (!rc) {
            /* the next stripe goes after this tail, which stays: a reader
             * holding its length may be reading it (append only) */
            w->offset += tail;
            w->footer_end = w->offset;
            w->stripes_at_footer = w->n_stripes;
        }
    }
    if (rc) {
        w->failed = true;
        return rc;
    }
    *length = w->footer_end;
    return COMB_OK;
}

int orc_writer_close(OrcWriter *w, CombErr *err)
{
    int rc = w->failed ? comb_err(err, COMB_EINVALID,
                                  "ORC writer '%s' failed earlier", w->path)
                       : COMB_OK;
    if (!rc && !w->finished)
        rc = orc_writer_finish(w, err);
    if (!rc)
        rc = write_tail(w, NULL, err);
    if (rc) {
        orc_writer_abort(w);
        return rc;
    }
    writer_free(w);
    return COMB_OK;
}
