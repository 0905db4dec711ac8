/*
 * reader.c - opening an ORC file: the tail (postscript, footer, metadata
 * section) is read and checked before anything trusts it, so a truncated
 * or garbage file ends in COMB_ECORRUPT naming the path.  Also the
 * accessors over the footer: schema, stripes, user metadata, statistics,
 * stripe encodings and column selection.  Decoding rows is colread.c.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes read from the end of the file in one go (OrcTail): enough for
 * most tails, and all of a small file (a delta of a few thousand rows). */
#define ORC_TAIL_GUESS 65536
/* Decompressed chunks larger than this are refused as implausible. */
#define ORC_MAX_BLOCK (64u << 20)
#define ORC_DEFAULT_BLOCK 262144

static int corrupt(const OrcReader *r, const char *what, CombErr *err)
{
    return comb_err(err, COMB_ECORRUPT, "corrupt file '%s': %s", r->path,
                    what);
}

int orc_reader_read_section(OrcReader *r, uint64_t off, uint64_t len,
                            OrcStreamBuf *sb, const char *what, CombErr *err)
{
    if (off > r->file_len || len > r->file_len - off)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': %s (%llu bytes at %llu) lies "
                        "past the end of the file", r->path, what,
                        (unsigned long long)len, (unsigned long long)off);
    comb_buf_clear(&sb->raw);
    if (comb_buf_reserve(&sb->raw, (size_t)len))
        return comb_err_nomem(err);
    int rc = orc_file_read(r->file, &r->tail, sb->raw.data, (size_t)len, off,
                           err);
    if (rc)
        return rc;
    sb->raw.len = (size_t)len;
    if (r->comp == ORC_COMP_NONE) {
        sb->p = sb->raw.data;
        sb->len = sb->raw.len;
        return COMB_OK;
    }
    rc = orc_codec_decompress(r->codec, r->block, sb->raw.data, sb->raw.len,
                              &sb->dec, r->path, what, err);
    sb->p = sb->dec.data;
    sb->len = sb->dec.len;
    return rc;
}

/* Unpack a message from a section of the file: into `arena` (one of the
 * reader's), or with orc_pb_alloc when it is NULL. */
static int read_message(OrcReader *r, uint64_t off, uint64_t len,
                        const ProtobufCMessageDescriptor *desc,
                        CombArena *arena, ProtobufCMessage **out,
                        const char *what, CombErr *err)
{
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    orc_pool_take(r->pool, &sb);
    int rc = orc_reader_read_section(r, off, len, &sb, what, err);
    if (rc == COMB_OK) {
        rc = arena ? orc_pb_unpack_arena(arena, desc, sb.len, sb.p, out)
                   : orc_pb_unpack(desc, sb.len, sb.p, out);
        if (rc == COMB_ENOMEM)
            comb_err_nomem(err);
        else if (rc)
            comb_err(err, COMB_ECORRUPT, "corrupt file '%s': %s does not parse",
                     r->path, what);
    }
    orc_pool_give(r->pool, &sb);
    return rc;
}

/* ------------------------------------------------------------ postscript */

/* The decimal digits of v at p (no terminator); returns their end.  For
 * text made at every open of a file, where an snprintf cost a thousand
 * instructions (a scan opens hundreds of small deltas). */
static char *put_decimal(char *p, uint64_t v)
{
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > 0)
        *p++ = digits[--n];
    return p;
}

static int check_version(OrcReader *r, CombErr *err)
{
    const Orc__Proto__PostScript *ps = r->ps;
    uint32_t major = ps->n_version >= 1 ? ps->version[0] : 0;
    uint32_t minor = ps->n_version >= 2 ? ps->version[1] : 11;
    char *end = put_decimal(r->version, major);  /* "%u.%u": 21 bytes */
    *end++ = '.';
    *put_decimal(end, minor) = '\0';
    r->decimal64 = major == 1 && minor == 9999;  /* UNSTABLE-PRE-2.0 */
    if (major >= 2)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC file '%s' was written by a future ORC version "
                        "%s; this reader knows 0.11 and 0.12", r->path,
                        r->version);
    return COMB_OK;
}

static int check_magic(OrcReader *r, CombErr *err)
{
    char head[ORC_MAGIC_LEN];
    if (r->ps->magic) {
        if (strcmp(r->ps->magic, ORC_MAGIC) != 0)
            return corrupt(r, "postscript magic is not \"ORC\"", err);
        return COMB_OK;
    }
    /* the earliest writers left the magic out of the postscript */
    int rc = orc_file_read(r->file, &r->tail, head, sizeof head, 0,
                           err);
    if (rc)
        return rc;
    if (memcmp(head, ORC_MAGIC, ORC_MAGIC_LEN) != 0)
        return corrupt(r, "not an ORC file (no \"ORC\" magic)", err);
    return COMB_OK;
}

static int check_compression(OrcReader *r, CombErr *err)
{
    const Orc__Proto__PostScript *ps = r->ps;
    int kind = ps->has_compression ? (int)ps->compression : 0;
    if (kind < 0 || kind > ORC_COMP_ZSTD)
        return corrupt(r, "unknown compression kind in postscript", err);
    r->comp = (OrcCompression)kind;
    if (!orc_compression_supported(r->comp))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC file '%s' uses %s compression, which is not "
                        "supported", r->path, orc_compression_name(r->comp));
    r->block = ps->has_compressionblocksize ? ps->compressionblocksize
                                            : ORC_DEFAULT_BLOCK;
    if (r->comp != ORC_COMP_NONE && (r->block == 0 || r->block > ORC_MAX_BLOCK))
        return corrupt(r, "implausible compression block size", err);
    if (r->pool && r->pool->codecs[r->comp]) {
        /* its state allocated already (a fresh one allocates on its first
         * chunk) */
        r->codec = r->pool->codecs[r->comp];
        r->pool->codecs[r->comp] = NULL;
        return COMB_OK;
    }
    return orc_codec_new(r->comp, &r->codec, err);
}

/* Read the file's tail (OrcTail) in one go. */
static int read_tail(OrcReader *r, CombErr *err)
{
    uint64_t n = r->file_len < ORC_TAIL_GUESS ? r->file_len : ORC_TAIL_GUESS;
    orc_pool_take_buf(r->pool, ORC_POOL_RAW, &r->tail.buf);
    if (comb_buf_reserve(&r->tail.buf, (size_t)n))
        return comb_err_nomem(err);
    int rc = fs_pread_all(r->file, r->tail.buf.data, (size_t)n,
                          r->file_len - n, err);
    if (rc)
        return rc;
    r->tail.buf.len = (size_t)n;
    r->tail.off = r->file_len - n;
    return COMB_OK;
}

void orc_prefetch_tails(const char *const *paths, int n)
{
    fs_prefetch_tails(paths, n, ORC_TAIL_GUESS);
}

/* Parse the postscript from the last bytes of the file; sets the tail
 * length (postscript + its length byte). */
static int read_postscript(OrcReader *r, uint64_t *ps_total, CombErr *err)
{
    int rc = read_tail(r, err);
    if (rc)
        return rc;
    /* at most 256 bytes: the postscript's length is one byte */
    uint64_t n = r->tail.buf.len < 256 ? r->tail.buf.len : 256;
    const uint8_t *tail = r->tail.buf.data + r->tail.buf.len - n;
    size_t ps_len = tail[n - 1];
    if (ps_len == 0 || ps_len + 1 > n)
        return corrupt(r, "bad postscript length (not an ORC file?)", err);
    rc = orc_pb_unpack_arena(&r->arena, &orc__proto__post_script__descriptor,
                             ps_len, tail + n - 1 - ps_len,
                             (ProtobufCMessage **)&r->ps);
    if (rc == COMB_ENOMEM)
        return comb_err_nomem(err);
    if (rc)
        return corrupt(r, "postscript does not parse (not an ORC file?)",
                       err);
    *ps_total = ps_len + 1;
    if ((rc = check_magic(r, err)) || (rc = check_version(r, err)))
        return rc;
    return check_compression(r, err);
}

/* ---------------------------------------------------------------- footer */

static int check_stripes(OrcReader *r, CombErr *err)
{
    const Orc__Proto__ReaderFooter *f = r->footer;
    uint64_t rows = 0;
    for (size_t i = 0; i < f->n_stripes; i++) {
        const Orc__Proto__StripeInformation *s = f->stripes[i];
        uint64_t end = s->offset, len;
        if (__builtin_add_overflow(s->indexlength, s->datalength, &len) ||
            __builtin_add_overflow(len, s->footerlength, &len) ||
            __builtin_add_overflow(end, len, &end) ||
            end > r->stripes_end || s->offset < ORC_MAGIC_LEN) {
            char what[128];
            snprintf(what, sizeof what,
                     "stripe %zu lies outside the data section", i);
            return corrupt(r, what, err);
        }
        if (s->footerlength == 0)
            return corrupt(r, "a stripe has an empty stripe footer", err);
        if (__builtin_add_overflow(rows, s->numberofrows, &rows))
            return corrupt(r, "stripe row counts overflow", err);
    }
    if (f->has_numberofrows && f->numberofrows != rows)
        return corrupt(r, "footer row count differs from its stripes' sum",
                       err);
    r->n_rows = rows;
    return COMB_OK;
}

int orc_reader_types(const OrcReader *r, Orc__Proto__Type ***out,
                     CombErr *err)
{
    const Orc__Proto__ReaderFooter *f = r->footer;
    for (size_t i = 0; i < f->n_types; i++) {
        if (r->types[i])
            continue;
        int rc = orc_pb_unpack_arena(r->lazy_arena,
                                     &orc__proto__type__descriptor,
                                     f->types[i].len, f->types[i].data,
                                     (ProtobufCMessage **)&r->types[i]);
        if (rc == COMB_ENOMEM)
            return comb_err_nomem(err);
        if (rc)
            return comb_err(err, COMB_ECORRUPT,
                            "corrupt file '%s': footer type %zu does not "
                            "parse", r->path, i);
    }
    *out = r->types;
    return COMB_OK;
}

/* Whether the footer's types are, byte for byte, the pool's schema's. */
static bool pool_schema_fits(const OrcReadPool *p,
                             const Orc__Proto__ReaderFooter *f)
{
    if (!p || !p->have_schema || p->n_schema_types != f->n_types)
        return false;
    for (size_t i = 0; i < f->n_types; i++)
        if (p->schema_types[i].len != f->types[i].len ||
            memcmp(p->schema_types[i].data, f->types[i].data,
                   f->types[i].len) != 0)
            return false;
    return true;
}

/* The tree of the footer's types in arena a, with its column ids. */
static int schema_build(OrcReader *r, CombArena *a, CombType **schema,
                        const CombType ***by_id, CombErr *err)
{
    Orc__Proto__Type **types;
    int rc = orc_reader_types(r, &types, err);
    if (rc || (rc = orc_type_from_proto(a, types, r->footer->n_types,
                                        schema, r->path, err)))
        return rc;
    int n = (*schema)->max_id + 1;
    if (!(*by_id = comb_arena_calloc(a, (size_t)n * sizeof **by_id)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        (*by_id)[i] = comb_type_find(*schema, i);
    return COMB_OK;
}

/* The pool's schema made the footer's (no reader borrows the old one):
 * its types' bytes copied, the tree built in the pool's arena. */
static int pool_schema_build(OrcReader *r, OrcReadPool *p, CombErr *err)
{
    const Orc__Proto__ReaderFooter *f = r->footer;
    if (!p->schema_arena_ready)
        comb_arena_init(&p->schema_arena, 4096);
    else
        comb_arena_reset(&p->schema_arena);
    p->schema_arena_ready = true;
    p->have_schema = false;
    p->schema_types = comb_arena_calloc(&p->schema_arena,
                                        (f->n_types + 1) *
                                            sizeof *p->schema_types);
    if (!p->schema_types)
        return comb_err_nomem(err);
    for (size_t i = 0; i < f->n_types; i++) {
        uint8_t *bytes = comb_arena_alloc(&p->schema_arena,
                                          f->types[i].len + 1);
        if (!bytes)
            return comb_err_nomem(err);
        memcpy(bytes, f->types[i].data, f->types[i].len);
        p->schema_types[i].data = bytes;
        p->schema_types[i].len = f->types[i].len;
    }
    p->n_schema_types = f->n_types;
    int rc = schema_build(r, &p->schema_arena, &p->schema, &p->schema_by_id,
                          err);
    p->have_schema = rc == COMB_OK;
    return rc;
}

static int build_schema(OrcReader *r, CombErr *err)
{
    OrcReadPool *p = r->pool;
    const CombType **by_id;
    int rc = COMB_OK;
    if (p && !pool_schema_fits(p, r->footer) && p->schema_users == 0)
        rc = pool_schema_build(r, p, err);
    if (rc)
        return rc;
    if (pool_schema_fits(p, r->footer)) {
        r->schema = p->schema;
        r->by_id = p->schema_by_id;
        r->schema_pooled = true;
        p->schema_users++;
    } else if ((rc = schema_build(r, &r->arena, &r->schema, &by_id, err))) {
        return rc;
    } else {
        r->by_id = by_id;
    }
    r->n_cols = r->schema->max_id + 1;
    r->selected = comb_arena_calloc(&r->arena, (size_t)r->n_cols);
    if (!r->selected)
        return comb_err_nomem(err);
    memset(r->selected, 1, (size_t)r->n_cols);
    return COMB_OK;
}

static int read_footer(OrcReader *r, uint64_t ps_total, CombErr *err)
{
    const Orc__Proto__PostScript *ps = r->ps;
    uint64_t flen = ps->has_footerlength ? ps->footerlength : 0;
    uint64_t mlen = ps->has_metadatalength ? ps->metadatalength : 0;
    uint64_t tail = ps_total;
    if (flen == 0)
        return corrupt(r, "postscript gives no footer length", err);
    if (__builtin_add_overflow(tail, flen, &tail) ||
        __builtin_add_overflow(tail, mlen, &tail) || tail > r->file_len)
        return corrupt(r, "footer and metadata lengths exceed the file "
                          "(truncated file?)", err);
    uint64_t foot_off = r->file_len - ps_total - flen;
    r->meta_len = mlen;
    r->meta_off = foot_off - mlen;
    r->stripes_end = r->meta_off;
    int rc = read_message(r, foot_off, flen,
                          &orc__proto__reader_footer__descriptor,
                          &r->arena, (ProtobufCMessage **)&r->footer,
                          "file footer", err);
    if (rc)
        return rc;
    r->lazy_arena = &r->arena;
    r->col_stats = comb_arena_calloc(&r->arena, (r->footer->n_statistics +
                                                 1) * sizeof *r->col_stats);
    r->types = comb_arena_calloc(&r->arena,
                                 (r->footer->n_types + 1) * sizeof *r->types);
    if (!r->col_stats || !r->types)
        return comb_err_nomem(err);
    if ((rc = build_schema(r, err)) || (rc = check_stripes(r, err)))
        return rc;
    for (size_t i = 0; i < r->footer->n_metadata; i++)
        if (!r->footer->metadata[i]->name)
            return corrupt(r, "user metadata entry without a name", err);
    return COMB_OK;
}

/* A logical length beyond the bytes there is: the file lost its end. */
static int check_logical_length(OrcReader *r, uint64_t physical,
                                uint64_t length, CombErr *err)
{
    char what[160];
    if (length == ORC_WHOLE_FILE || length <= physical)
        return COMB_OK;
    snprintf(what, sizeof what,
             "committed length %llu (its _flush_length side file) is beyond "
             "the file's %llu bytes",
             (unsigned long long)length, (unsigned long long)physical);
    return corrupt(r, what, err);
}

/* A pooled arena (its blocks kept: no malloc for the next file's
 * footers), else a fresh one. */
static void arena_take(OrcReadPool *p, int which, CombArena *a,
                       size_t block)
{
    if (p && p->have_arena[which]) {
        *a = p->arenas[which];
        p->have_arena[which] = false;
    } else {
        comb_arena_init(a, block);
    }
}

/* Back to the pool, reset, or freed when it has one. */
static void arena_give(OrcReadPool *p, int which, CombArena *a)
{
    if (p && !p->have_arena[which]) {
        comb_arena_reset(a);
        p->arenas[which] = *a;
        p->have_arena[which] = true;
    } else {
        comb_arena_free(a);
    }
}

int orc_reader_open(const char *path, OrcReader **out, CombErr *err)
{
    return orc_reader_open_pool(path, ORC_WHOLE_FILE, NULL, out, err);
}

int orc_reader_open_length(const char *path, uint64_t length, OrcReader **out,
                           CombErr *err)
{
    return orc_reader_open_pool(path, length, NULL, out, err);
}

int orc_reader_open_pool(const char *path, uint64_t length, OrcReadPool *pool,
                         OrcReader **out, CombErr *err)
{
    uint64_t size;
    uint64_t ps_total = 0;
    int rc;
    OrcReader *r = comb_calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return comb_err_nomem(err);
    r->pool = pool;
    arena_take(pool, ORC_ARENA_FILE, &r->arena, 16 * 1024);
    arena_take(pool, ORC_ARENA_STRIPE, &r->stripe_arena, 4096);
    r->stripe = -1;
    /* a FIFO or device named like a data file is refused, never waited on */
    r->file = fs_open_read(path, err);
    if (r->file && fs_file_is_remote(r->file))
        r->tail.window = &r->window;
    if (!(r->path = comb_strdup(path))) {
        rc = comb_err_nomem(err);
    } else if (!r->file) {
        rc = err->code; /* err says which file and why */
    } else if ((rc = fs_size(r->file, &size, err))) {
        /* err names the file */
    } else if ((rc = check_logical_length(r, size, length, err))) {
        /* err names the file and both lengths */
    } else if ((r->file_len = length == ORC_WHOLE_FILE ? size : length) <
               ORC_MAGIC_LEN + 1) {
        rc = corrupt(r, r->file_len ? "too short to be an ORC file"
                                    : "empty file (0 bytes), not an ORC file",
                     err);
    } else if (!(rc = read_postscript(r, &ps_total, err))) {
        rc = read_footer(r, ps_total, err);
    }
    if (rc) {
        orc_reader_close(r);
        return rc;
    }
    *out = r;
    return COMB_OK;
}

void orc_reader_close(OrcReader *r)
{
    if (!r)
        return;
    if (r->schema_pooled)
        r->pool->schema_users--;
    orc_reader_cols_free(r);
    orc_stripe_index_free(r->index);
    comb_free(r->keep);
    for (int i = 0; i < r->n_zones; i++)
        orc_tz_free(r->zones[i]);
    comb_free(r->zones);
    comb_free(r->zone_keys);
    comb_free(r->zone_epochs);
    if (r->file)
        fs_discard(r->file);
    /* the postscript, footer and metadata live in the arena */
    if (r->pool && r->codec && !r->pool->codecs[r->comp])
        r->pool->codecs[r->comp] = r->codec; /* kept for the next file */
    else
        orc_codec_free(r->codec);
    orc_pool_give_buf(r->pool, ORC_POOL_RAW, &r->tail.buf);
    comb_buf_free(&r->window.buf);
    arena_give(r->pool, ORC_ARENA_FILE, &r->arena);
    arena_give(r->pool, ORC_ARENA_STRIPE, &r->stripe_arena);
    comb_free(r->path);
    comb_free(r);
}

/* ------------------------------------------------------------------ pool */

OrcReadPool *orc_read_pool_new(void)
{
    return comb_calloc(1, sizeof(OrcReadPool));
}

void orc_read_pool_free(OrcReadPool *p)
{
    if (!p)
        return;
    for (int role = 0; role < ORC_POOL_ROLES; role++)
        for (int i = 0; i < p->n[role]; i++)
            comb_buf_free(&p->bufs[role][i]);
    for (size_t k = 0; k < sizeof p->codecs / sizeof *p->codecs; k++)
        orc_codec_free(p->codecs[k]);
    for (int k = 0; k < ORC_POOL_ARENAS; k++)
        if (p->have_arena[k])
            comb_arena_free(&p->arenas[k]);
    comb_free(p->cols);
    if (p->schema_arena_ready)
        comb_arena_free(&p->schema_arena);
    comb_free(p);
}

void orc_reader_use_pool(OrcReader *r, OrcReadPool *p)
{
    r->pool = p;
    /* the pool's codec of this kind has its state allocated already (a
     * fresh one allocates on its first chunk) */
    if (p && r->codec && p->codecs[r->comp]) {
        orc_codec_free(r->codec);
        r->codec = p->codecs[r->comp];
        p->codecs[r->comp] = NULL;
    }
}

/* ------------------------------------------------------------- accessors */

const CombType *orc_reader_schema(const OrcReader *r) { return r->schema; }
int orc_reader_n_columns(const OrcReader *r) { return r->n_cols; }
uint64_t orc_reader_n_rows(const OrcReader *r) { return r->n_rows; }
OrcCompression orc_reader_compression(const OrcReader *r) { return r->comp; }
uint64_t orc_reader_compression_block_size(const OrcReader *r)
{
    return r->block;
}
const char *orc_reader_file_version(const OrcReader *r) { return r->version; }
uint64_t orc_reader_file_length(const OrcReader *r) { return r->file_len; }
uint64_t orc_reader_row_number(const OrcReader *r) { return r->row; }
const Orc__Proto__ReaderFooter *orc_reader_footer(const OrcReader *r)
{
    return r->footer;
}
const char *orc_reader_path(const OrcReader *r) { return r->path; }

uint32_t orc_reader_row_index_stride(const OrcReader *r)
{
    return r->footer->has_rowindexstride ? r->footer->rowindexstride : 0;
}

uint32_t orc_reader_writer_version(const OrcReader *r)
{
    return r->ps->has_writerversion ? r->ps->writerversion : 0;
}

int orc_reader_n_stripes(const OrcReader *r)
{
    return (int)r->footer->n_stripes;
}

int orc_reader_stripe_info(const OrcReader *r, int stripe, OrcStripeInfo *out)
{
    if (stripe < 0 || (size_t)stripe >= r->footer->n_stripes)
        return COMB_ENOTFOUND;
    const Orc__Proto__StripeInformation *s = r->footer->stripes[stripe];
    out->offset = s->offset;
    out->index_length = s->indexlength;
    out->data_length = s->datalength;
    out->footer_length = s->footerlength;
    out->n_rows = s->numberofrows;
    return COMB_OK;
}

int orc_reader_n_metadata(const OrcReader *r)
{
    return (int)r->footer->n_metadata;
}

void orc_reader_metadata_at(const OrcReader *r, int i, const char **key,
                            const void **val, size_t *len)
{
    const Orc__Proto__UserMetadataItem *m = r->footer->metadata[i];
    *key = m->name;
    *val = m->value.data ? (const void *)m->value.data : (const void *)"";
    *len = m->value.len;
}

bool orc_reader_metadata(const OrcReader *r, const char *key,
                         const void **val, size_t *len)
{
    for (size_t i = 0; i < r->footer->n_metadata; i++)
        if (strcmp(r->footer->metadata[i]->name, key) == 0) {
            const char *k;
            orc_reader_metadata_at(r, (int)i, &k, val, len);
            return true;
        }
    return false;
}

int orc_reader_column_stats_pb(const OrcReader *r, int column,
                               const Orc__Proto__ColumnStatistics **out)
{
    if (column < 0 || (size_t)column >= r->footer->n_statistics)
        return COMB_ENOTFOUND;
    if (!r->col_stats[column]) {
        const ProtobufCBinaryData *b = &r->footer->statistics[column];
        int rc = orc_pb_unpack_arena(
            r->lazy_arena, &orc__proto__column_statistics__descriptor,
            b->len, b->data, (ProtobufCMessage **)&r->col_stats[column]);
        if (rc)
            return rc;
    }
    *out = r->col_stats[column];
    return COMB_OK;
}

int orc_reader_column_stats(const OrcReader *r, int column,
                            OrcColumnStats *out)
{
    const Orc__Proto__ColumnStatistics *pb;
    int rc = orc_reader_column_stats_pb(r, column, &pb);
    if (rc)
        return rc;
    orc_stats_from_proto(pb, out);
    return COMB_OK;
}

int orc_reader_check_stats(const OrcReader *r, CombErr *err)
{
    const Orc__Proto__ColumnStatistics *pb;
    for (size_t c = 0; c < r->footer->n_statistics; c++) {
        int rc = orc_reader_column_stats_pb(r, (int)c, &pb);
        if (rc == COMB_ENOMEM)
            return comb_err_nomem(err);
        if (rc)
            return comb_err(err, COMB_ECORRUPT,
                            "corrupt file '%s': the statistics of column %zu "
                            "in the file footer do not parse", r->path, c);
    }
    return COMB_OK;
}

static int load_metadata(OrcReader *r, CombErr *err)
{
    if (r->meta)
        return COMB_OK;
    if (r->meta_len == 0)
        return comb_err(err, COMB_ENOTFOUND,
                        "ORC file '%s' has no stripe statistics", r->path);
    return read_message(r, r->meta_off, r->meta_len,
                        &orc__proto__metadata__descriptor, &r->arena,
                        (ProtobufCMessage **)&r->meta, "metadata section",
                        err);
}

int orc_reader_stripe_stats(OrcReader *r, int stripe, int column,
                            OrcColumnStats *out, CombErr *err)
{
    int rc = load_metadata(r, err);
    if (rc)
        return rc;
    if (stripe < 0 || (size_t)stripe >= r->meta->n_stripestats)
        return comb_err(err, COMB_ENOTFOUND,
                        "ORC file '%s' has no statistics for stripe %d",
                        r->path, stripe);
    const Orc__Proto__StripeStatistics *ss = r->meta->stripestats[stripe];
    if (column < 0 || (size_t)column >= ss->n_colstats)
        return comb_err(err, COMB_ENOTFOUND,
                        "ORC file '%s' has no statistics for column %d of "
                        "stripe %d", r->path, column, stripe);
    orc_stats_from_proto(ss->colstats[column], out);
    return COMB_OK;
}

/* ------------------------------------------------------- stripe footers */

/* Stripe footer `stripe` into arena (NULL: comb's allocator). */
static int stripe_footer(OrcReader *r, int stripe, CombArena *arena,
                         Orc__Proto__StripeFooter **out, CombErr *err)
{
    OrcStripeInfo si;
    char what[64];
    if (orc_reader_stripe_info(r, stripe, &si))
        return comb_err(err, COMB_EINVALID, "ORC file '%s' has no stripe %d",
                        r->path, stripe);
    strcpy(put_decimal(stpcpy(what, "stripe "), (uint64_t)stripe),
           " footer");
    int rc = read_message(r, si.offset + si.index_length + si.data_length,
                          si.footer_length,
                          &orc__proto__stripe_footer__descriptor, arena,
                          (ProtobufCMessage **)out, what, err);
    if (rc)
        return rc;
    if ((*out)->n_columns != (size_t)r->n_cols) {
        rc = comb_err(err, COMB_ECORRUPT,
                      "corrupt file '%s': stripe %d footer has %zu column "
                      "encodings, %d expected", r->path, stripe,
                      (*out)->n_columns, r->n_cols);
        if (!arena)
            orc_stripe_footer_free(*out);
        *out = NULL;
    }
    return rc;
}

int orc_reader_stripe_footer(OrcReader *r, int stripe,
                             Orc__Proto__StripeFooter **out, CombErr *err)
{
    return stripe_footer(r, stripe, NULL, out, err);
}

int orc_reader_stripe_footer_scratch(OrcReader *r, int stripe,
                                     Orc__Proto__StripeFooter **out,
                                     CombErr *err)
{
    comb_arena_reset(&r->stripe_arena);
    return stripe_footer(r, stripe, &r->stripe_arena, out, err);
}

void orc_stripe_footer_free(Orc__Proto__StripeFooter *sf)
{
    if (sf)
        protobuf_c_message_free_unpacked(&sf->base, &orc_pb_alloc);
}

int orc_reader_stripe_encodings(OrcReader *r, int stripe, const char **kinds,
                                uint32_t *dict_sizes, CombErr *err)
{
    Orc__Proto__StripeFooter *sf;
    int rc = orc_reader_stripe_footer(r, stripe, &sf, err);
    if (rc)
        return rc;
    for (int i = 0; i < r->n_cols; i++) {
        const Orc__Proto__ColumnEncoding *e = sf->columns[i];
        kinds[i] = orc_encoding_name(e->has_kind ? (int)e->kind : 0);
        dict_sizes[i] = e->has_dictionarysize ? e->dictionarysize : 0;
    }
    orc_stripe_footer_free(sf);
    return COMB_OK;
}

/* ------------------------------------------------------------- selection */

static void select_up(OrcReader *r, const CombType *t, int id)
{
    /* walk from the root toward id, marking every node on the way */
    while (t) {
        r->selected[t->id] = true;
        t = comb_type_child_toward(t, id);
    }
}

int orc_reader_select(OrcReader *r, const bool *include, CombErr *err)
{
    if (r->started)
        return comb_err(err, COMB_EINVALID,
                        "ORC reader of '%s': columns must be selected before "
                        "the first read", r->path);
    for (int i = 0; i < r->n_cols; i++)
        r->selected[i] = include == NULL;
    if (include)
        for (int i = 0; i < r->n_cols; i++)
            if (include[i])
                select_up(r, r->schema, i);
    return COMB_OK;
}

int orc_reader_batch_init(const OrcReader *r, CombBatch *b, int capacity)
{
    int n = orc_batch_n_cols(r->schema);
    const CombType **types = comb_malloc((size_t)(n + 1) * sizeof *types);
    if (!types)
        return COMB_ENOMEM;
    for (int i = 0; i < n; i++)
        types[i] = orc_batch_col_type(r->schema, i);
    int rc = comb_batch_init_types(b, n, types, capacity);
    comb_free(types);
    return rc;
}

/* ------------------------------------------------------------ time zones */

static int add_zone(OrcReader *r, const char *key, OrcTz *tz, CombErr *err)
{
    size_t n = (size_t)r->n_zones + 1;
    OrcTz **zones = comb_realloc(r->zones, n * sizeof *zones);
    if (zones)
        r->zones = zones;
    char **keys = zones ? comb_realloc(r->zone_keys, n * sizeof *keys) : NULL;
    if (keys)
        r->zone_keys = keys;
    int64_t *epochs = keys ? comb_realloc(r->zone_epochs, n * sizeof *epochs)
                           : NULL;
    char *copy = epochs ? comb_arena_strdup(&r->arena, key) : NULL;
    if (!copy) {
        orc_tz_free(tz);
        return comb_err_nomem(err);
    }
    r->zone_epochs = epochs;
    r->zones[r->n_zones] = tz;
    r->zone_keys[r->n_zones] = copy;
    r->zone_epochs[r->n_zones] = orc_tz_from_local(tz, ORC_TS_BASE_UTC);
    r->stripe_zone = r->n_zones++;
    return COMB_OK;
}

int orc_reader_use_zone(OrcReader *r, const char *name, CombErr *err)
{
    const char *key = name ? name : "";
    OrcTz *tz;
    int rc;
    for (int i = 0; i < r->n_zones; i++)
        if (strcmp(r->zone_keys[i], key) == 0) {
            r->stripe_zone = i;
            return COMB_OK;
        }
    rc = *key ? orc_tz_load(key, &tz, err) : orc_tz_local(&tz, err);
    if (rc)
        return comb_err_prefix(err, "ORC file '%s': writer time zone: ",
                               r->path);
    return add_zone(r, key, tz, err);
}
