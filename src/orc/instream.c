/*
 * instream.c - reading a stream: OrcIn's window over the bytes, which is
 * either the whole stream (a section read at once, a test's buffer) or,
 * for the streams of a stripe, one piece of the file after another
 * (ORC_READ_PIECE bytes, read into a buffer reused for the whole stream)
 * and, in a compressed file, one chunk after another, decompressed into a
 * buffer of one block.  Memory per stream is thus a piece and a block,
 * whatever the stripe's size, and the bytes a decoder works on stay in
 * the CPU's caches.  Takes that span two windows are gathered into the
 * stream's spill buffer.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <string.h>

/* Bytes of a stored stream read at a time (more when one chunk is
 * larger). */
#define ORC_READ_PIECE (256u << 10)
/* ... and at least this much past a soft end of an uncompressed stream. */
#define ORC_READ_LEAST (4u << 10)

void orc_in_init(OrcIn *in, const uint8_t *p, size_t len, const char *path,
                 int column, const char *stream)
{
    in->p = p;
    in->len = p ? len : 0;
    in->pos = 0;
    in->more = NULL;
    in->path = path;
    in->column = column;
    in->stream = stream;
}

void orc_in_init_chunks(OrcIn *in, OrcChunks *more, const char *path,
                        int column, const char *stream)
{
    orc_in_init(in, NULL, 0, path, column, stream);
    in->more = more;
}

int orc_in_corrupt(const OrcIn *in, const char *what, CombErr *err)
{
    return comb_err(err, COMB_ECORRUPT,
                    "corrupt file '%s': column %d, %s stream: %s", in->path,
                    in->column, in->stream, what);
}

static size_t raw_left(const OrcChunks *c)
{
    return c->stored_len - c->raw_pos;
}

static bool chunks_done(const OrcChunks *c)
{
    return raw_left(c) == 0 && c->off >= c->end;
}

bool orc_in_at_end(const OrcIn *in)
{
    return in->pos >= in->len && (!in->more || chunks_done(in->more));
}

int orc_file_read(FsFile *file, const OrcTail *tail, void *dst, size_t len,
                  uint64_t off, CombErr *err)
{
    if (len == 0)
        return COMB_OK; /* dst may be an empty buffer's NULL */
    for (const OrcTail *t = tail; t; t = t->window)
        if (off >= t->off && len <= t->buf.len &&
            off - t->off <= t->buf.len - len) {
            memcpy(dst, t->buf.data + (off - t->off), len);
            return COMB_OK;
        }
    return fs_pread_all(file, dst, len, off, err);
}

/* Where the tail holds stored bytes [off - left, off + want) (the
 * `left` bytes at hand and the `want` to read), or NULL: the small files
 * of a scan lie in their tails whole, and their streams are read there
 * without a copy. */
static const uint8_t *tail_span(const OrcChunks *c, size_t left, size_t want)
{
    const OrcTail *t = c->tail;
    uint64_t from = c->off - left;
    if (!t || !t->buf.data || from < t->off || from - t->off > t->buf.len ||
        t->buf.len - (from - t->off) < left + want)
        return NULL;
    return t->buf.data + (from - t->off);
}

/* The `left` bytes at hand, then `want` more from the file at off, into
 * raw.  The bytes at hand are raw's: once a stream is read in the tail,
 * the rest of it is there too (the tail runs to the file's end). */
static int read_piece(OrcIn *in, size_t left, size_t want, CombErr *err)
{
    OrcChunks *c = in->more;
    CombBuf *raw = c->raw;
    const uint8_t *at_hand = left ? c->stored + c->raw_pos : raw->data;
    if (left && at_hand != raw->data + c->raw_pos)
        return COMB_INTERNAL(err, "stream bytes left in the file's tail");
#ifdef COMB_TEST_BUILD
    /* a fresh buffer each time, so that ASan catches anyone still holding
     * pointers into the previous piece */
    CombBuf fresh = COMB_BUF_INIT;
    if (comb_buf_reserve(&fresh, left + want))
        return comb_err_nomem(err);
    if (left)
        memcpy(fresh.data, at_hand, left);
    comb_buf_free(raw);
    *raw = fresh;
#else
    if (left)
        memmove(raw->data, at_hand, left);
    raw->len = left;
    if (comb_buf_reserve(raw, want))
        return comb_err_nomem(err);
#endif
    c->raw_pos = 0;
    raw->len = left;
    c->stored = raw->data;
    c->stored_len = left;
    int rc = orc_file_read(c->file, c->tail, raw->data + left, want, c->off,
                           err);
    if (rc)
        return rc;
    raw->len += want;
    c->stored_len += want;
    return COMB_OK;
}

/* Make at least `need` stored bytes available at raw_pos (fewer only at
 * the end of the stream), reading a piece or more behind the ones left. */
static int chunks_need(OrcIn *in, size_t need, CombErr *err)
{
    OrcChunks *c = in->more;
    size_t left = raw_left(c), piece = c->piece ? c->piece : ORC_READ_PIECE;
    const uint8_t *view;
    int rc;
    if (left >= need || c->off >= c->end)
        return COMB_OK;
    size_t want = need - left > piece ? need - left : piece;
    if (c->soft_end && want > need - left) {
        /* a skipped row group starts at soft_end: read ahead only to
         * there, beyond it what a chunk needs (a little more without
         * compression, where values are taken a few bytes at a time) */
        uint64_t room = c->soft_end > c->off ? c->soft_end - c->off : 0;
        size_t least = need - left;
        if (!c->codec && least < ORC_READ_LEAST)
            least = ORC_READ_LEAST;
        if (want > room)
            want = room > least ? (size_t)room : least;
    }
    if (want > c->end - c->off)
        want = (size_t)(c->end - c->off);
    c->done += c->raw_pos;
    if ((view = tail_span(c, left, want))) {
        c->stored = view;
        c->raw_pos = 0;
        c->stored_len = left + want;
    } else if ((rc = read_piece(in, left, want, err))) {
        return rc;
    }
    c->off += want;
    if (c->counters)
        c->counters->bytes_read += want;
    return COMB_OK;
}

/* The next window of a compressed stream: its next chunk. */
static int next_chunk(OrcIn *in, CombErr *err)
{
    OrcChunks *c = in->more;
    size_t clen = 0;
    bool original = false;
    int rc = chunks_need(in, 3, err);
    if (rc)
        return rc;
    if (raw_left(c) < 3)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': column %d %s stream: truncated "
                        "chunk header", in->path, in->column, in->stream);
    orc_chunk_header(c->stored + c->raw_pos, &clen, &original);
    if ((rc = chunks_need(in, 3 + clen, err)))
        return rc;
    if (raw_left(c) < 3 + clen)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': column %d %s stream: chunk of %zu "
                        "bytes runs past its end (%zu left)", in->path,
                        in->column, in->stream, clen, raw_left(c) - 3);
    const uint8_t *body = c->stored + c->raw_pos + 3;
    size_t at = (size_t)c->done + c->raw_pos;
    c->raw_pos += 3 + clen;
    if (original) {
        in->p = body;
        in->len = clen;
        return COMB_OK;
    }
    if (c->counters)
        c->counters->chunks_decompressed++;
    c->have_dec = false;
    rc = orc_codec_decode_chunk(c->codec, c->block, body, clen, c->dec,
                                in->path, in->column, in->stream, at, err);
    in->p = c->dec->data;
    in->len = c->dec->len;
    if (rc == COMB_OK) {
        c->have_dec = true;
        c->dec_at = at;
        c->dec_end = at + 3 + clen;
    }
    return rc;
}

/* The next window of an uncompressed stream: the bytes read and not
 * used yet (after a seek into them), else its next piece. */
static int next_piece(OrcIn *in, CombErr *err)
{
    OrcChunks *c = in->more;
    int rc = raw_left(c) ? COMB_OK : chunks_need(in, 1, err);
    in->p = c->stored + c->raw_pos;
    in->len = rc ? 0 : raw_left(c);
    c->raw_pos = c->stored_len;
    return rc;
}

int orc_in_refill(OrcIn *in, CombErr *err)
{
    OrcChunks *c = in->more;
    while (c && !chunks_done(c)) {
        int rc = c->codec ? next_chunk(in, err) : next_piece(in, err);
        in->pos = 0;
        if (rc) {
            in->len = 0;
            return rc;
        }
        if (in->len > 0)
            return COMB_OK;
    }
    return orc_in_corrupt(in, "stream ends before all values were read", err);
}

/* A take that runs past the window: its bytes are gathered in the
 * stream's spill buffer, with 8 zero bytes behind them. */
int orc_in_take_slow(OrcIn *in, size_t n, const uint8_t **p,
                     size_t *readable, CombErr *err)
{
    if (!in->more)
        return orc_in_corrupt(in, "stream ends before all values were read",
                              err);
    if (in->pos == in->len) {
        /* an empty window (a stream's first take): the next one may hold
         * all n bytes, which then need no copy (a small file's strings
         * were copied whole, once per file) */
        int rc = orc_in_refill(in, err);
        if (rc)
            return rc;
        if (in->len - in->pos >= n)
            return orc_in_take_ex(in, n, p, readable, err);
    }
    CombBuf *s = in->more->spill;
#ifdef COMB_TEST_BUILD
    comb_buf_free(s);  /* see chunks_need */
#endif
    comb_buf_clear(s);
    if (comb_buf_reserve(s, n + 8))
        return comb_err_nomem(err);
    for (size_t got = 0; got < n;) {
        if (in->pos == in->len) {
            int rc = orc_in_refill(in, err);
            if (rc)
                return rc;
        }
        size_t k = in->len - in->pos < n - got ? in->len - in->pos : n - got;
        memcpy(s->data + got, in->p + in->pos, k);
        in->pos += k;
        got += k;
    }
    memset(s->data + n, 0, 8);
    *p = s->data;
    if (readable)
        *readable = n + 8;
    return COMB_OK;
}

int orc_in_read(OrcIn *in, void *dst, size_t n, CombErr *err)
{
    uint8_t *d = dst;
    while (n > 0) {
        if (in->pos == in->len) {
            int rc = orc_in_refill(in, err);
            if (rc)
                return rc;
        }
        size_t k = in->len - in->pos < n ? in->len - in->pos : n;
        memcpy(d, in->p + in->pos, k);
        in->pos += k;
        d += k;
        n -= k;
    }
    return COMB_OK;
}

int orc_in_varint_slow(OrcIn *in, uint64_t *out, CombErr *err)
{
    if (in->len - in->pos >= 10)  /* orc_varint_fast refused it */
        return orc_in_corrupt(in, in->p[in->pos + 9] & 0xfe
                                      ? "varint overflows 64 bits"
                                      : "varint longer than 10 bytes",
                              err);
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (orc_in_at_end(in))
            return orc_in_corrupt(in, "stream ends inside a varint", err);
        if (in->pos == in->len) {
            int rc = orc_in_refill(in, err);
            if (rc)
                return rc;
        }
        uint8_t b = in->p[in->pos++];
        /* the tenth byte may only carry bit 63 */
        if (shift == 63 && (b & 0xfe))
            return orc_in_corrupt(in, "varint overflows 64 bits", err);
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
        if (shift == 63)
            return orc_in_corrupt(in, "varint longer than 10 bytes", err);
    }
    *out = v;
    return COMB_OK;
}

/* Go on reading at stored offset `stored` of the stream: from the bytes
 * read already when they reach it (row groups sharing a chunk or a piece
 * read it once), else from the file there. */
static void place_raw(OrcChunks *c, uint64_t stored)
{
    if (stored >= c->done && stored <= c->done + c->stored_len) {
        c->raw_pos = (size_t)(stored - c->done);
        return;
    }
    comb_buf_clear(c->raw);
    c->stored_len = 0;
    c->raw_pos = 0;
    c->off = c->start + stored;
    c->done = stored;
}

int orc_in_seek(OrcIn *in, uint64_t stored, uint64_t dec, uint64_t soft_end,
                CombErr *err)
{
    OrcChunks *c = in->more;
    if (!c)
        return orc_in_corrupt(in, "row index position in a stream read "
                              "whole", err);
    uint64_t len = c->end > c->start ? c->end - c->start : 0;
    if (stored > len || (!c->codec && dec))
        return orc_in_corrupt(in, "row index position lies outside the "
                              "stream", err);
    c->soft_end = soft_end == ORC_NO_SOFT_END ? 0 : c->start + soft_end;
    in->p = NULL;
    in->len = in->pos = 0;
    if (c->codec && c->have_dec && stored == c->dec_at) {
        place_raw(c, c->dec_end);
        in->p = c->dec->data;
        in->len = c->dec->len;
    } else {
        place_raw(c, stored);
        if (!c->codec || chunks_done(c))
            return dec ? orc_in_corrupt(in, "row index position lies "
                                        "outside the stream", err)
                       : COMB_OK;
        int rc = next_chunk(in, err);
        if (rc)
            return rc;
    }
    if (dec > in->len)
        return orc_in_corrupt(in, "row index position lies outside its "
                              "chunk", err);
    in->pos = (size_t)dec;
    return COMB_OK;
}
