/*
 * writer.c - writing an ORC 0.12 file: "ORC", then stripes (data streams
 * then a stripe footer; no row index, so the footer says stride 0), then
 * the metadata section (per-stripe statistics), the footer (schema,
 * stripes, file statistics, user metadata) and the uncompressed
 * postscript with its length in the last byte.  Column encoding is in
 * colwrite.c.  The file is fsynced on close and removed on any failure.
 */
#include "common/version.h"
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <string.h>
#include <unistd.h>

typedef struct OrcMeta {
    char *key;
    uint8_t *val;
    size_t len;
} OrcMeta;

struct OrcWriter {
    char *path;
    int fd;
    OrcWriterOptions opt;
    CombArena arena;          /* the schema copy */
    CombArena tmp;            /* protobuf messages of one stripe / footer */
    OrcType *schema;
    int n_cols;
    OrcColWrite *cols;
    OrcCodec *codec;
    uint64_t rows, stripe_rows;
    uint64_t offset;          /* bytes written to the file so far */
    OrcStripeInfo *stripes;
    size_t n_stripes, cap_stripes;
    CombBuf meta_raw;         /* Metadata message, one stripe at a time */
    CombBuf out;              /* compressed bytes about to be written */
    CombBuf packed;           /* a serialized message before compression */
    OrcMeta *md;
    size_t n_md, cap_md;
    bool finished;
    bool failed;
};

void orc_writer_options_default(OrcWriterOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->compression = ORC_COMP_ZLIB;
    opt->compression_block_size = 256 * 1024;
    opt->stripe_size = 64ull * 1024 * 1024;
}

uint64_t orc_writer_rows(const OrcWriter *w) { return w->rows; }

static void writer_free(OrcWriter *w)
{
    if (w->cols)
        for (int i = 0; i < w->n_cols; i++)
            orc_colwrite_free(&w->cols[i]);
    comb_free(w->cols);
    for (size_t i = 0; i < w->n_md; i++) {
        comb_free(w->md[i].key);
        comb_free(w->md[i].val);
    }
    comb_free(w->md);
    comb_free(w->stripes);
    comb_buf_free(&w->meta_raw);
    comb_buf_free(&w->out);
    comb_buf_free(&w->packed);
    orc_codec_free(w->codec);
    comb_arena_free(&w->arena);
    comb_arena_free(&w->tmp);
    comb_free(w->path);
    comb_free(w);
}

void orc_writer_abort(OrcWriter *w)
{
    if (!w)
        return;
    if (w->fd >= 0) {
        close(w->fd);
        unlink(w->path);
    }
    writer_free(w);
}

static int check_schema(const OrcType *t, CombErr *err)
{
    if (!orc_kind_writable(t->kind))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC writer: columns of type %s cannot be written",
                        comb_type_name(t->kind));
    for (int i = 0; i < t->n_children; i++) {
        int rc = check_schema(t->children[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int check_options(const OrcWriterOptions *o, CombErr *err)
{
    if (!orc_compression_supported(o->compression))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC writer: %s compression is not supported",
                        orc_compression_name(o->compression));
    if (o->compression_block_size == 0 ||
        o->compression_block_size > ORC_MAX_CHUNK)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer: compression block size must be between "
                        "1 and %u bytes", ORC_MAX_CHUNK);
    return COMB_OK;
}

static int writer_setup(OrcWriter *w, const OrcType *schema, CombErr *err)
{
    w->schema = orc_type_copy(&w->arena, schema);
    if (!w->schema)
        return comb_err_nomem(err);
    w->n_cols = orc_type_assign_ids(w->schema);
    w->cols = comb_calloc((size_t)w->n_cols, sizeof *w->cols);
    if (!w->cols)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++)
        orc_colwrite_init(&w->cols[i], orc_type_find(w->schema, i));
    int rc = orc_codec_new(w->opt.compression, &w->codec, err);
    if (rc)
        return rc;
    w->fd = fs_create(w->path, err);
    if (w->fd < 0)
        return COMB_EIO;
    w->offset = ORC_MAGIC_LEN;
    return fs_write_all(w->fd, ORC_MAGIC, ORC_MAGIC_LEN, w->path, err);
}

int orc_writer_open(const char *path, const OrcType *schema,
                    const OrcWriterOptions *opt, OrcWriter **out, CombErr *err)
{
    *out = NULL;
    int rc = check_schema(schema, err);
    if (rc || (rc = check_options(opt, err)))
        return rc;
    OrcWriter *w = comb_calloc(1, sizeof *w);
    if (!w)
        return comb_err_nomem(err);
    w->fd = -1;
    w->opt = *opt;
    comb_arena_init(&w->arena, 4096);
    comb_arena_init(&w->tmp, 16 * 1024);
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

/* Compress `len` bytes onto w->out and describe them as a stream. */
static int add_stream(OrcWriter *w, Orc__Proto__Stream ***list, size_t *n,
                      int kind, int column, const CombBuf *buf, CombErr *err)
{
    size_t start = w->out.len;
    int rc = orc_codec_compress(w->codec, w->opt.compression_block_size,
                                buf->data, buf->len, &w->out, err);
    if (rc)
        return rc;
    Orc__Proto__Stream *s =
        orc_pb_new(&w->tmp, &orc__proto__stream__descriptor);
    if (!s)
        return comb_err_nomem(err);
    s->has_kind = s->has_column = s->has_length = 1;
    s->kind = (Orc__Proto__Stream__Kind)kind;
    s->column = (uint32_t)column;
    s->length = w->out.len - start;
    (*list)[(*n)++] = s;
    return COMB_OK;
}

static int column_streams(OrcWriter *w, OrcColWrite *c, Orc__Proto__Stream ***list,
                          size_t *n, CombErr *err)
{
    int id = c->type->id, rc = COMB_OK;
    CombTypeKind k = c->type->kind;
    if (c->stripe_stats.has_null)
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__PRESENT, id,
                        &c->present_buf, err);
    if (!rc && k != COMB_T_STRUCT)
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__DATA, id,
                        &c->data_buf, err);
    if (!rc && comb_type_is_str(k))
        rc = add_stream(w, list, n, ORC__PROTO__STREAM__KIND__LENGTH, id,
                        &c->length_buf, err);
    return rc;
}

/* Serialize a message into w->packed. */
static int pack_message(OrcWriter *w, const ProtobufCMessage *m, CombErr *err)
{
    size_t size = protobuf_c_message_get_packed_size(m);
    comb_buf_clear(&w->packed);
    if (comb_buf_reserve(&w->packed, size + 1))
        return comb_err_nomem(err);
    w->packed.len = protobuf_c_message_pack(m, w->packed.data);
    return COMB_OK;
}

static int stripe_footer(OrcWriter *w, Orc__Proto__StripeFooter *sf,
                         CombErr *err)
{
    sf->streams = comb_arena_alloc(&w->tmp, 3 * (size_t)w->n_cols *
                                                sizeof *sf->streams);
    sf->columns = comb_arena_alloc(&w->tmp, (size_t)w->n_cols *
                                                sizeof *sf->columns);
    Orc__Proto__ColumnEncoding *enc =
        comb_arena_alloc(&w->tmp, (size_t)w->n_cols * sizeof *enc);
    if (!sf->streams || !sf->columns || !enc)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        int rc = column_streams(w, &w->cols[i], &sf->streams, &sf->n_streams,
                                err);
        if (rc)
            return rc;
        orc__proto__column_encoding__init(&enc[i]);
        enc[i].has_kind = 1;
        enc[i].kind = (Orc__Proto__ColumnEncoding__Kind)
            orc_colwrite_encoding(&w->cols[i]);
        sf->columns[i] = &enc[i];
    }
    sf->n_columns = (size_t)w->n_cols;
    return COMB_OK;
}

/* Append one StripeStatistics to the Metadata message being built: the
 * message is `repeated StripeStatistics stripeStats = 1`, so each entry is
 * tag 0x0a, its length and its bytes. */
static int record_stripe_stats(OrcWriter *w, CombErr *err)
{
    Orc__Proto__StripeStatistics ss = ORC__PROTO__STRIPE_STATISTICS__INIT;
    Orc__Proto__ColumnStatistics *cs =
        comb_arena_alloc(&w->tmp, (size_t)w->n_cols * sizeof *cs);
    ss.colstats = comb_arena_alloc(&w->tmp,
                                   (size_t)w->n_cols * sizeof *ss.colstats);
    if (!cs || !ss.colstats)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_cols; i++) {
        if (orc_stats_to_proto(&w->cols[i].stripe_stats, &cs[i], &w->tmp))
            return comb_err_nomem(err);
        ss.colstats[i] = &cs[i];
    }
    ss.n_colstats = (size_t)w->n_cols;
    int rc = pack_message(w, &ss.base, err);
    if (rc)
        return rc;
    if (comb_buf_append_byte(&w->meta_raw, 0x0a) ||
        orc_varint_put(&w->meta_raw, w->packed.len) ||
        comb_buf_append(&w->meta_raw, w->packed.data, w->packed.len))
        return comb_err_nomem(err);
    return COMB_OK;
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

/* Streams and footer of the pending stripe, then bookkeeping. */
static int write_stripe(OrcWriter *w, CombErr *err)
{
    Orc__Proto__StripeFooter sf = ORC__PROTO__STRIPE_FOOTER__INIT;
    OrcStripeInfo si = {.offset = w->offset, .n_rows = w->stripe_rows};
    comb_buf_clear(&w->out);
    comb_arena_reset(&w->tmp);
    for (int i = 0; i < w->n_cols; i++)
        if (orc_colwrite_flush(&w->cols[i]))
            return comb_err_nomem(err);
    int rc = stripe_footer(w, &sf, err);
    if (rc || (rc = pack_message(w, &sf.base, err)))
        return rc;
    si.data_length = w->out.len;
    if ((rc = orc_codec_compress(w->codec, w->opt.compression_block_size,
                                 w->packed.data, w->packed.len, &w->out,
                                 err)))
        return rc;
    si.footer_length = w->out.len - si.data_length;
    if ((rc = fs_write_all(w->fd, w->out.data, w->out.len, w->path, err)) ||
        (rc = record_stripe_stats(w, err)) ||
        (rc = push_stripe_info(w, &si, err)))
        return rc;
    w->offset += w->out.len;
    for (int i = 0; i < w->n_cols; i++) {
        if (orc_stats_merge(&w->cols[i].file_stats, &w->cols[i].stripe_stats))
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

static int check_batch(const OrcWriter *w, const CombBatch *b, CombErr *err)
{
    if (b->n_cols != w->n_cols || b->n_rows < 0 || b->n_rows > b->capacity)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': batch has %d columns and %d rows, "
                        "file has %d columns", w->path, b->n_cols, b->n_rows,
                        w->n_cols);
    for (int i = 0; i < w->n_cols; i++) {
        const CombVector *v = &b->cols[i];
        CombTypeKind k = w->cols[i].type->kind;
        if ((v->has_nulls && !v->nulls) || !orc_vec_fits(v, k))
            return comb_err(err, COMB_EINVALID,
                            "ORC writer '%s': batch column %d has no %s "
                            "values", w->path, i, comb_type_name(k));
    }
    return COMB_OK;
}

static size_t buffered(const OrcWriter *w)
{
    size_t n = 0;
    for (int i = 0; i < w->n_cols; i++)
        n += orc_colwrite_size(&w->cols[i]);
    return n;
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
    int rc = writer_state(w, err);
    if (rc || (rc = check_batch(w, b, err)))
        return rc;
    if (b->n_rows == 0)
        return COMB_OK;
    rc = orc_colwrite_rows(w->cols, w->schema, b, b->n_rows, NULL, err);
    if (rc == COMB_OK) {
        w->rows += (uint64_t)b->n_rows;
        w->stripe_rows += (uint64_t)b->n_rows;
        if (buffered(w) >= w->opt.stripe_size)
            rc = flush_stripe(w, err);
    }
    w->failed = rc != COMB_OK;
    return rc;
}

int orc_writer_finish(OrcWriter *w, CombErr *err)
{
    int rc = writer_state(w, err);
    if (rc)
        return rc;
    rc = flush_stripe(w, err);
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

/* Compress w->packed and write it; *len = bytes written. */
static int write_section(OrcWriter *w, const CombBuf *src, uint64_t *len,
                         CombErr *err)
{
    comb_buf_clear(&w->out);
    int rc = orc_codec_compress(w->codec, w->opt.compression_block_size,
                                src->data, src->len, &w->out, err);
    if (rc || (rc = fs_write_all(w->fd, w->out.data, w->out.len, w->path,
                                 err)))
        return rc;
    *len = w->out.len;
    return COMB_OK;
}

static int footer_stripes(OrcWriter *w, Orc__Proto__Footer *f)
{
    Orc__Proto__StripeInformation *si =
        comb_arena_alloc(&w->tmp, (w->n_stripes + 1) * sizeof *si);
    f->stripes = comb_arena_alloc(&w->tmp,
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
    Orc__Proto__ColumnStatistics *cs = comb_arena_alloc(&w->tmp,
                                                        n * sizeof *cs);
    f->statistics = comb_arena_alloc(&w->tmp, n * sizeof *f->statistics);
    Orc__Proto__UserMetadataItem *mi =
        comb_arena_alloc(&w->tmp, (w->n_md + 1) * sizeof *mi);
    f->metadata = comb_arena_alloc(&w->tmp,
                                   (w->n_md + 1) * sizeof *f->metadata);
    if (!cs || !f->statistics || !mi || !f->metadata)
        return COMB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (orc_stats_to_proto(&w->cols[i].file_stats, &cs[i], &w->tmp))
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

static int write_footer(OrcWriter *w, uint64_t *len, CombErr *err)
{
    Orc__Proto__Footer f = ORC__PROTO__FOOTER__INIT;
    comb_arena_reset(&w->tmp);
    f.has_headerlength = f.has_contentlength = f.has_numberofrows = 1;
    f.has_rowindexstride = f.has_writer = 1;
    f.headerlength = ORC_MAGIC_LEN;
    f.contentlength = w->offset;
    f.numberofrows = w->rows;
    f.rowindexstride = 0;
    f.writer = ORC_WRITER_ID;
    /* the writer id is ORC C++'s encoding rules; say who really wrote it */
    f.softwareversion = (char *)"comb " COMB_VERSION;
    if (footer_stripes(w, &f) || footer_stats_and_meta(w, &f) ||
        orc_type_to_proto(&w->tmp, w->schema, &f.types, &f.n_types))
        return comb_err_nomem(err);
    int rc = pack_message(w, &f.base, err);
    return rc ? rc : write_section(w, &w->packed, len, err);
}

static int write_postscript(OrcWriter *w, uint64_t footer_len,
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
    if (w->packed.len > 255)
        return COMB_INTERNAL(err, "postscript longer than 255 bytes");
    w->packed.data[w->packed.len] = (uint8_t)w->packed.len;
    return fs_write_all(w->fd, w->packed.data, w->packed.len + 1, w->path,
                        err);
}

static int write_tail(OrcWriter *w, CombErr *err)
{
    uint64_t meta_len = 0, footer_len = 0;
    int rc = COMB_OK;
    if (w->n_stripes > 0)
        rc = write_section(w, &w->meta_raw, &meta_len, err);
    if (rc || (rc = write_footer(w, &footer_len, err)) ||
        (rc = write_postscript(w, footer_len, meta_len, err)))
        return rc;
    rc = fs_sync_close(w->fd, w->path, err);
    w->fd = -1;
    return rc;
}

int orc_writer_close(OrcWriter *w, CombErr *err)
{
    int rc = w->failed ? comb_err(err, COMB_EINVALID,
                                  "ORC writer '%s' failed earlier", w->path)
                       : COMB_OK;
    if (!rc && !w->finished)
        rc = orc_writer_finish(w, err);
    if (!rc)
        rc = write_tail(w, err);
    if (rc) {
        if (w->fd < 0) /* the close itself failed: the file is suspect */
            unlink(w->path);
        orc_writer_abort(w);
        return rc;
    }
    writer_free(w);
    return COMB_OK;
}
