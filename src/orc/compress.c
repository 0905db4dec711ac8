/*
 * compress.c - ORC's chunked compression.  A compressed stream is a series
 * of chunks, each behind a 3-byte little-endian header holding
 * (length << 1 | original): original chunks are stored as is (the writer
 * keeps a chunk uncompressed when compressing does not shrink it).  Codecs:
 * ZLIB (raw deflate, through zlib), SNAPPY, ZSTD (frames), LZ4 (raw
 * blocks), and for reading LZO (LZO1X blocks, through liblzo2: ORC's
 * writers other than Java's never wrote it, and comb does not).  A
 * decompressed chunk may not exceed the file's block size.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <lz4.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* A decompressed stream larger than this is refused: no real stripe has
 * one, and a few bytes of zstd could otherwise ask for terabytes. */
#define ORC_MAX_STREAM ((size_t)2 << 30)

/* Fast levels: the writer favours speed; readers do not care. */
#define ORC_ZLIB_LEVEL 1
#define ORC_ZSTD_LEVEL 1

struct OrcCodec {
    OrcCompression kind;
    bool inf_ready, def_ready;
    z_stream inf, def;
    ZSTD_DCtx *zd;
    ZSTD_CCtx *zc;
    CombBuf scratch;   /* snappy output, which needs its worst-case room */
};

bool orc_compression_parse(const char *name, OrcCompression *out)
{
    static const OrcCompression kinds[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                           ORC_COMP_SNAPPY, ORC_COMP_LZ4,
                                           ORC_COMP_ZSTD};
    for (size_t i = 0; name && i < sizeof kinds / sizeof *kinds; i++)
        if (strcasecmp(name, orc_compression_name(kinds[i])) == 0) {
            *out = kinds[i];
            return true;
        }
    return false;
}

const char *orc_compression_name(OrcCompression c)
{
    switch (c) {
    case ORC_COMP_NONE: return "NONE";
    case ORC_COMP_ZLIB: return "ZLIB";
    case ORC_COMP_SNAPPY: return "SNAPPY";
    case ORC_COMP_LZO: return "LZO";
    case ORC_COMP_LZ4: return "LZ4";
    case ORC_COMP_ZSTD: return "ZSTD";
    }
    return "UNKNOWN";
}

bool orc_compression_writable(OrcCompression c)
{
    return c == ORC_COMP_NONE || c == ORC_COMP_ZLIB || c == ORC_COMP_SNAPPY ||
           c == ORC_COMP_LZ4 || c == ORC_COMP_ZSTD;
}

bool orc_compression_supported(OrcCompression c)
{
    return orc_compression_writable(c) || c == ORC_COMP_LZO;
}

static voidpf zalloc_cb(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return comb_calloc(items, size);
}

static void zfree_cb(voidpf opaque, voidpf p)
{
    (void)opaque;
    comb_free(p);
}

int orc_codec_new(OrcCompression kind, OrcCodec **out, CombErr *err)
{
    if (!orc_compression_supported(kind))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ORC compression %s is not supported",
                        orc_compression_name(kind));
    if (kind == ORC_COMP_LZO && lzo_init() != LZO_E_OK)
        return comb_err(err, COMB_EINTERNAL, "liblzo2 failed to initialise");
    OrcCodec *c = comb_calloc(1, sizeof *c);
    if (!c)
        return comb_err_nomem(err);
    c->kind = kind;
    *out = c;
    return COMB_OK;
}

void orc_codec_free(OrcCodec *c)
{
    if (!c)
        return;
    if (c->inf_ready)
        inflateEnd(&c->inf);
    if (c->def_ready)
        deflateEnd(&c->def);
    ZSTD_freeDCtx(c->zd);
    ZSTD_freeCCtx(c->zc);
    comb_buf_free(&c->scratch);
    comb_free(c);
}

/* Point a zlib stream at one chunk's input and its output room. */
static void zs_set_io(z_stream *z, const uint8_t *src, size_t len,
                      uint8_t *dst, size_t cap)
{
    z->next_in = (Bytef *)src;
    z->avail_in = (uInt)len;
    z->next_out = dst;
    z->avail_out = (uInt)cap;
}

/* ---------------------------------------------------------------- decode */

static int zlib_inflate(OrcCodec *c, const uint8_t *src, size_t len,
                        uint8_t *dst, size_t cap, size_t *n)
{
    if (!c->inf_ready) {
        c->inf.zalloc = zalloc_cb;
        c->inf.zfree = zfree_cb;
        if (inflateInit2(&c->inf, -15) != Z_OK)
            return COMB_ENOMEM;
        c->inf_ready = true;
    } else if (inflateReset(&c->inf) != Z_OK) {
        return COMB_ECORRUPT;
    }
    zs_set_io(&c->inf, src, len, dst, cap);
    int rc = inflate(&c->inf, Z_FINISH);
    *n = cap - c->inf.avail_out;
    if (rc == Z_STREAM_END)
        return COMB_OK;
    /* a deflate stream cut at a chunk end is accepted, as other readers
     * do, provided it did not run out of output room */
    if ((rc == Z_BUF_ERROR || rc == Z_OK) && c->inf.avail_in == 0 &&
        c->inf.avail_out > 0)
        return COMB_OK;
    return COMB_ECORRUPT;
}

static int decode_chunk(OrcCodec *c, const uint8_t *src, size_t len,
                        uint8_t *dst, size_t cap, size_t *n)
{
    switch (c->kind) {
    case ORC_COMP_ZLIB:
        return zlib_inflate(c, src, len, dst, cap, n);
    case ORC_COMP_SNAPPY: {
        size_t want;
        if (snappy_uncompressed_length((const char *)src, len, &want) !=
                SNAPPY_OK || want > cap)
            return COMB_ECORRUPT;
        *n = want;
        return snappy_uncompress((const char *)src, len, (char *)dst, n) ==
                       SNAPPY_OK ? COMB_OK : COMB_ECORRUPT;
    }
    case ORC_COMP_ZSTD: {
        if (!c->zd && !(c->zd = ZSTD_createDCtx()))
            return COMB_ENOMEM;
        size_t r = ZSTD_decompressDCtx(c->zd, dst, cap, src, len);
        if (ZSTD_isError(r))
            return COMB_ECORRUPT;
        *n = r;
        return COMB_OK;
    }
    case ORC_COMP_LZ4: {
        if (len > INT32_MAX || cap > INT32_MAX)
            return COMB_ECORRUPT;
        int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)len,
                                    (int)cap);
        if (r < 0)
            return COMB_ECORRUPT;
        *n = (size_t)r;
        return COMB_OK;
    }
    case ORC_COMP_LZO: {
        lzo_uint n_out = cap;
        if (lzo1x_decompress_safe(src, len, dst, &n_out, NULL) != LZO_E_OK)
            return COMB_ECORRUPT;
        *n = n_out;
        return COMB_OK;
    }
    default:
        return COMB_EUNSUPPORTED;
    }
}

/* The header of the chunk at src[pos..len): its length (checked against
 * the bytes left) and whether it is stored original. */
static int chunk_header(const uint8_t *src, size_t len, size_t pos,
                        size_t *clen, bool *original, const char *path,
                        const char *what, CombErr *err)
{
    if (len - pos < 3)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': %s: truncated chunk header", path,
                        what);
    orc_chunk_header(src + pos, clen, original);
    if (*clen > len - pos - 3)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': %s: chunk of %zu bytes runs past "
                        "its end (%zu left)", path, what, *clen,
                        len - pos - 3);
    return COMB_OK;
}

/* Decompress the chunk body at src (clen bytes, header at byte `at`) into
 * dst, which has room for block_size bytes. */
static int chunk_error(const OrcCodec *c, int rc, uint64_t block_size,
                       const char *path, const char *what, size_t at,
                       CombErr *err)
{
    if (rc == COMB_ENOMEM)
        return comb_err_nomem(err);
    return comb_err(err, COMB_ECORRUPT,
                    "corrupt file '%s': %s: %s chunk at byte %zu does not "
                    "decompress into %llu bytes", path, what,
                    orc_compression_name(c->kind), at,
                    (unsigned long long)block_size);
}

static int inflate_chunk(OrcCodec *c, uint64_t block_size, const uint8_t *src,
                         size_t clen, uint8_t *dst, size_t *n,
                         const char *path, const char *what, size_t at,
                         CombErr *err)
{
    int rc = decode_chunk(c, src, clen, dst, block_size, n);
    return rc ? chunk_error(c, rc, block_size, path, what, at, err) : COMB_OK;
}

int orc_codec_decompress(OrcCodec *c, uint64_t block_size, const uint8_t *src,
                         size_t len, CombBuf *out, const char *path,
                         const char *what, CombErr *err)
{
    comb_buf_clear(out);
    if (c->kind == ORC_COMP_NONE)
        return comb_buf_append(out, src, len) ? comb_err_nomem(err) : COMB_OK;
    size_t pos = 0;
    while (pos < len) {
        size_t clen = 0, n = 0;
        bool original = false;
        int rc = chunk_header(src, len, pos, &clen, &original, path, what,
                              err);
        if (rc)
            return rc;
        if (original) {
            if (comb_buf_append(out, src + pos + 3, clen))
                return comb_err_nomem(err);
        } else {
            if (out->len + block_size > ORC_MAX_STREAM)
                return comb_err(err, COMB_ECORRUPT,
                                "corrupt file '%s': %s decompresses to more "
                                "than %zu bytes", path, what, ORC_MAX_STREAM);
            if (comb_buf_reserve(out, block_size))
                return comb_err_nomem(err);
            if ((rc = inflate_chunk(c, block_size, src + pos + 3, clen,
                                    out->data + out->len, &n, path, what, pos,
                                    err)))
                return rc;
            out->len += n;
        }
        pos += 3 + clen;
    }
    return COMB_OK;
}

int orc_codec_decode_chunk(OrcCodec *c, uint64_t block_size,
                           const uint8_t *src, size_t clen, CombBuf *dec,
                           const char *path, int column, const char *stream,
                           size_t at, CombErr *err)
{
    char what[64];
    int rc;
#ifdef COMB_TEST_BUILD
    /* a fresh buffer each time, so that ASan catches anyone still holding
     * pointers into the previous chunk (strings live only until the next
     * orc_reader_next) */
    comb_buf_free(dec);
#endif
    comb_buf_clear(dec);
    if (comb_buf_reserve(dec, block_size))
        return comb_err_nomem(err);
    if (!(rc = decode_chunk(c, src, clen, dec->data, block_size, &dec->len)))
        return COMB_OK;
    dec->len = 0;
    /* the stream's name only now: this runs for every chunk of a scan */
    snprintf(what, sizeof what, "column %d %s stream", column, stream);
    return chunk_error(c, rc, block_size, path, what, at, err);
}

/* ---------------------------------------------------------------- encode */

static int zlib_deflate(OrcCodec *c, const uint8_t *src, size_t n,
                        uint8_t *dst, size_t cap, size_t *out)
{
    if (!c->def_ready) {
        c->def.zalloc = zalloc_cb;
        c->def.zfree = zfree_cb;
        if (deflateInit2(&c->def, ORC_ZLIB_LEVEL, Z_DEFLATED, -15, 8,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            return COMB_ENOMEM;
        c->def_ready = true;
    } else if (deflateReset(&c->def) != Z_OK) {
        return COMB_EINTERNAL;
    }
    zs_set_io(&c->def, src, n, dst, cap);
    int rc = deflate(&c->def, Z_FINISH);
    *out = rc == Z_STREAM_END ? cap - c->def.avail_out : 0;
    return COMB_OK;
}

static int snappy_encode(OrcCodec *c, const uint8_t *src, size_t n,
                         uint8_t *dst, size_t cap, size_t *out)
{
    size_t room = snappy_max_compressed_length(n);
    comb_buf_clear(&c->scratch);
    if (comb_buf_reserve(&c->scratch, room))
        return COMB_ENOMEM;
    *out = 0;
    if (snappy_compress((const char *)src, n, (char *)c->scratch.data,
                        &room) == SNAPPY_OK && room <= cap) {
        memcpy(dst, c->scratch.data, room);
        *out = room;
    }
    return COMB_OK;
}

/* Compress one chunk into dst (cap < n); *out = 0 means "keep original". */
static int encode_chunk(OrcCodec *c, const uint8_t *src, size_t n,
                        uint8_t *dst, size_t cap, size_t *out)
{
    *out = 0;
    switch (c->kind) {
    case ORC_COMP_ZLIB:
        return zlib_deflate(c, src, n, dst, cap, out);
    case ORC_COMP_SNAPPY:
        return snappy_encode(c, src, n, dst, cap, out);
    case ORC_COMP_ZSTD: {
        if (!c->zc && !(c->zc = ZSTD_createCCtx()))
            return COMB_ENOMEM;
        size_t r = ZSTD_compressCCtx(c->zc, dst, cap, src, n, ORC_ZSTD_LEVEL);
        *out = ZSTD_isError(r) ? 0 : r;
        return COMB_OK;
    }
    case ORC_COMP_LZ4: {
        int r = LZ4_compress_default((const char *)src, (char *)dst, (int)n,
                                     (int)cap);
        *out = r > 0 ? (size_t)r : 0;
        return COMB_OK;
    }
    default:
        return COMB_EUNSUPPORTED;
    }
}

static void put_chunk_header(uint8_t *p, size_t len, bool original)
{
    uint32_t h = (uint32_t)(len << 1) | (original ? 1u : 0u);
    p[0] = (uint8_t)h;
    p[1] = (uint8_t)(h >> 8);
    p[2] = (uint8_t)(h >> 16);
}

/* The chunks of src onto out; a chunk of min_chunk bytes or more is
 * compressed when that saves at least 1/min_saving of it (0: any byte). */
static int compress_chunks(OrcCodec *c, uint64_t block_size,
                           const uint8_t *src, size_t len, size_t min_chunk,
                           size_t min_saving, CombBuf *out, CombErr *err)
{
    if (c->kind == ORC_COMP_NONE)
        return comb_buf_append(out, src, len) ? comb_err_nomem(err) : COMB_OK;
    for (size_t pos = 0; pos < len;) {
        size_t n = len - pos < block_size ? len - pos : (size_t)block_size;
        size_t z = 0;
        if (comb_buf_reserve(out, n + 3))
            return comb_err_nomem(err);
        uint8_t *hdr = out->data + out->len;
        int rc = n >= min_chunk
                     ? encode_chunk(c, src + pos, n, hdr + 3,
                                    n - (min_saving ? n / min_saving : 0) - 1,
                                    &z)
                     : COMB_OK;
        if (rc == COMB_ENOMEM)
            return comb_err_nomem(err);
        if (rc)
            return COMB_INTERNAL(err, "compression codec failed");
        if (z == 0) {
            memcpy(hdr + 3, src + pos, n);
            put_chunk_header(hdr, n, true);
            out->len += n + 3;
        } else {
            put_chunk_header(hdr, z, false);
            out->len += z + 3;
        }
        pos += n;
    }
    return COMB_OK;
}

int orc_codec_compress(OrcCodec *c, uint64_t block_size, const uint8_t *src,
                       size_t len, CombBuf *out, CombErr *err)
{
    return compress_chunks(c, block_size, src, len, ORC_MIN_COMPRESSED_CHUNK,
                           0, out, err);
}

int orc_codec_compress_data(OrcCodec *c, uint64_t block_size,
                            const uint8_t *src, size_t len, CombBuf *out,
                            CombErr *err)
{
    size_t min_saving = c->kind == ORC_COMP_ZLIB ? ORC_MIN_SAVING : 0;
    return compress_chunks(c, block_size, src, len, ORC_MIN_COMPRESSED_CHUNK,
                           min_saving, out, err);
}

int orc_codec_compress_tail(OrcCodec *c, uint64_t block_size,
                            const uint8_t *src, size_t len, CombBuf *out,
                            CombErr *err)
{
    size_t min_chunk = c->kind == ORC_COMP_ZLIB ? ORC_MIN_INFLATED_TAIL
                                                : ORC_MIN_COMPRESSED_CHUNK;
    return compress_chunks(c, block_size, src, len, min_chunk, 0, out, err);
}
