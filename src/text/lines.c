/*
 * lines.c - a text file cut into lines as Hadoop's LineRecordReader (with
 * the default record delimiter) cuts them: a line ends at "\n", "\r" or
 * "\r\n"; the last line needs no terminator; a UTF-8 byte order mark at
 * the start of the file is dropped (LineRecordReader.skipUtfByteOrderMark).
 * Files named like Hadoop's codecs are decompressed on the fly: *.gz
 * (GzipCodec; several gzip members one after another read as one stream)
 * and *.deflate (DefaultCodec, a zlib stream).
 *
 * One buffer holds the bytes not yet returned, buf[start..end).  Lines are
 * returned in place; the buffer is refilled (its unread tail moved to the
 * front) only when the caller allows it, so the lines of one batch stay
 * valid together.  It grows to hold a line longer than itself and shrinks
 * back to its chunk size once the long line is gone.
 */
#include "text/text_int.h"

#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"

#define TEXT_DEFAULT_CHUNK ((size_t)1 << 20)
#define TEXT_ZIN_BYTES ((size_t)64 << 10)

static bool has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* The codec of a file name, or -1 (and err) for codecs comb cannot read. */
static int codec_of(const char *path, TextCodec *codec, CombErr *err)
{
    static const char *const refused[] = {".bz2", ".snappy", ".lz4", ".zst",
                                          ".lzo", ".lzo_deflate", ".br"};
    *codec = has_suffix(path, ".gz") ? TEXT_CODEC_GZIP
             : has_suffix(path, ".deflate") ? TEXT_CODEC_ZLIB
                                            : TEXT_CODEC_NONE;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (has_suffix(path, refused[i]))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "cannot read '%s': text files compressed as %s "
                            "are not supported (only .gz and .deflate)",
                            path, refused[i]);
    return COMB_OK;
}

int text_lines_open(TextLines *l, const char *path, size_t chunk,
                    CombErr *err)
{
    int rc;
    memset(l, 0, sizeof *l);
    l->at_file_start = true;
    l->chunk = chunk ? chunk : TEXT_DEFAULT_CHUNK;
    if ((rc = codec_of(path, &l->codec, err)))
        return rc;
    if (!(l->path = comb_strdup(path)) ||
        !(l->buf = comb_malloc(l->chunk)))
        goto nomem;
    l->cap = l->chunk;
    if (l->codec != TEXT_CODEC_NONE) {
        if (!(l->zin = comb_malloc(TEXT_ZIN_BYTES)))
            goto nomem;
        l->zin_cap = TEXT_ZIN_BYTES;
        /* 15 + 16: gzip framing; 15: zlib framing */
        if (inflateInit2(&l->z, l->codec == TEXT_CODEC_GZIP ? 31 : 15) != Z_OK)
            goto nomem;
        l->z_live = true;
        l->z_member_done = true;
    }
    if (!(l->file = fs_open_read(path, err))) {
        text_lines_close(l);
        return err->code;
    }
    return COMB_OK;
nomem:
    text_lines_close(l);
    return comb_err_nomem(err);
}

void text_lines_close(TextLines *l)
{
    if (l->file)
        fs_discard(l->file);
    if (l->z_live)
        inflateEnd(&l->z);
    comb_free(l->zin);
    comb_free(l->buf);
    comb_free(l->path);
    memset(l, 0, sizeof *l);
}

static int corrupt(TextLines *l, const char *what, CombErr *err)
{
    return comb_err(err, COMB_ECORRUPT, "corrupt compressed text file '%s': "
                    "%s", l->path, what);
}

/* Decompress into buf[end..cap) until some bytes come out or the stream
 * ends cleanly (l->eof). */
static int inflate_some(TextLines *l, CombErr *err)
{
    while (l->end < l->cap) {
        size_t before = l->cap - l->end;
        int zr;
        if (l->z.avail_in == 0 && !l->file_eof) {
            size_t got;
            int rc = fs_read_some(l->file, l->zin, l->zin_cap, &got, err);
            if (rc)
                return rc;
            l->file_eof = got == 0;
            l->z.next_in = l->zin;
            l->z.avail_in = (uInt)got;
        }
        if (l->z.avail_in == 0) {
            if (!l->z_member_done)
                return corrupt(l, "unexpected end of compressed data", err);
            l->eof = true;
            return COMB_OK;
        }
        if (l->z_member_done) {
            /* more input after a complete stream: the next gzip member
             * (Hadoop's GzipCodec reads concatenated members) */
            if (l->codec != TEXT_CODEC_GZIP && l->z.total_in > 0)
                return corrupt(l, "data after the end of the zlib stream", err);
            if (l->z.total_in > 0 && inflateReset(&l->z) != Z_OK)
                return corrupt(l, "cannot restart the decompressor", err);
            l->z_member_done = false;
        }
        l->z.next_out = l->buf + l->end;
        l->z.avail_out = (uInt)(l->cap - l->end < UINT32_MAX ? l->cap - l->end
                                                             : UINT32_MAX);
        zr = inflate(&l->z, Z_NO_FLUSH);
        l->end = (size_t)(l->z.next_out - l->buf);
        if (zr == Z_STREAM_END)
            l->z_member_done = true;
        else if (zr != Z_OK && zr != Z_BUF_ERROR)
            return corrupt(l, l->z.msg ? l->z.msg : "bad deflate data", err);
        if (l->cap - l->end < before)
            return COMB_OK;
    }
    return COMB_OK;
}

/* Read more bytes into buf[end..cap). */
static int read_more(TextLines *l, CombErr *err)
{
    size_t got;
    int rc;
    if (l->codec != TEXT_CODEC_NONE)
        return inflate_some(l, err);
    rc = fs_read_some(l->file, l->buf + l->end, l->cap - l->end, &got, err);
    if (rc == COMB_OK) {
        l->end += got;
        l->eof = got == 0;
    }
    return rc;
}

/* Make room and read: move the unread bytes to the front, grow the buffer
 * when they fill it (a long line), shrink it back when a long line is
 * gone. */
static int refill(TextLines *l, CombErr *err)
{
    size_t unread = l->end - l->start;
    if (l->start > 0) {
        memmove(l->buf, l->buf + l->start, unread);
        l->start = 0;
        l->end = unread;
    }
    if (l->cap > l->chunk && unread <= l->chunk / 2) {
        unsigned char *p = comb_realloc(l->buf, l->chunk);
        if (p) {
            l->buf = p;
            l->cap = l->chunk;
        }
    } else if (unread == l->cap) {
        size_t cap = l->cap * 2;
        unsigned char *p;
        if (cap > TEXT_MAX_LINE_BYTES + l->chunk)
            cap = TEXT_MAX_LINE_BYTES + l->chunk;
        if (cap <= l->cap || !(p = comb_realloc(l->buf, cap)))
            return comb_err_nomem(err);
        l->buf = p;
        l->cap = cap;
    }
    return read_more(l, err);
}

/* Length of the line terminator at p[i] ('\n' or '\r'), with avail bytes
 * after p; 0 when a '\r' ends the buffer and what follows is unknown. */
static size_t terminator(const TextLines *l, const unsigned char *p, size_t i,
                         size_t avail)
{
    if (p[i] == '\n')
        return 1;
    if (i + 1 < avail)
        return p[i + 1] == '\n' ? 2 : 1;
    return l->eof ? 1 : 0;
}

/* Index of the first '\n' or '\r' in p[from..n), or n. */
static size_t find_eol(const unsigned char *p, size_t from, size_t n)
{
    const unsigned char *nl = memchr(p + from, '\n', n - from);
    size_t stop = nl ? (size_t)(nl - p) : n;
    const unsigned char *cr = memchr(p + from, '\r', stop - from);
    return cr ? (size_t)(cr - p) : stop;
}

static void drop_bom(TextLines *l, const unsigned char **line, size_t *len)
{
    if (l->at_file_start && *len >= 3 && memcmp(*line, "\xEF\xBB\xBF", 3) == 0) {
        *line += 3;
        *len -= 3;
    }
    l->at_file_start = false;
}

int text_lines_next(TextLines *l, bool may_move, const unsigned char **line,
                    size_t *len, TextLineStatus *status, CombErr *err)
{
    size_t scanned = 0;  /* bytes of buf[start..) known to hold no EOL */
    for (;;) {
        const unsigned char *p = l->buf + l->start;
        size_t avail = l->end - l->start;
        size_t i = find_eol(p, scanned, avail), term = 0;
        if (i < avail && (term = terminator(l, p, i, avail)) > 0) {
            *line = p;
            *len = i;
            l->start += i + term;
            break;
        }
        if (i == avail && l->eof) {
            if (avail == 0) {
                *status = TEXT_LINE_END;
                return COMB_OK;
            }
            *line = p;
            *len = avail;
            l->start = l->end;
            break;
        }
        if (!may_move) {
            *status = TEXT_LINE_BLOCKED;
            return COMB_OK;
        }
        if (i > TEXT_MAX_LINE_BYTES)
            return comb_err(err, COMB_EUNSUPPORTED,
                            "line %lld of '%s' is longer than %zu bytes",
                            (long long)l->n_lines + 1, l->path,
                            TEXT_MAX_LINE_BYTES);
        scanned = i;  /* a '\r' at the very end is looked at again */
        int rc = refill(l, err);
        if (rc)
            return rc;
    }
    drop_bom(l, line, len);
    l->n_lines++;
    *status = TEXT_LINE_OK;
    return COMB_OK;
}
