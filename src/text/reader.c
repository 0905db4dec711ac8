/*
 * reader.c - text_reader_*: lines of one file (lines.c) into batches of
 * rows (parse.c).  The first skip.header.line.count lines of the file are
 * dropped, and the last skip.footer.line.count ones: a line is only
 * returned once `footer` lines follow it, so up to `footer` lines wait in
 * a ring of copies (Hive's HiveContextAwareRecordReader keeps the same
 * lookahead in its FooterBuffer).
 */
#include "text/text_int.h"

#include "common/alloc.h"

struct TextReader {
    TextFormat fmt;
    TextLines lines;
    TextParser parser;
    int64_t header_left;        /* header lines still to drop */
    int64_t footer;             /* lines held back (skip.footer.line.count) */
    CombBuf *ring;              /* footer > 0: the held-back lines */
    int64_t ring_head;          /* oldest held-back line */
    int64_t ring_count;
    int64_t row_bytes;          /* bytes of the rows returned */
};

int text_reader_open(const char *path, const TextOptions *opt, int n_cols,
                     const CombType *const *types, TextReader **out,
                     CombErr *err)
{
    TextReader *r = comb_calloc(1, sizeof *r);
    int rc;
    if (!r)
        return comb_err_nomem(err);
    r->header_left = opt->skip_header > 0 ? opt->skip_header : 0;
    r->footer = opt->skip_footer > 0 ? opt->skip_footer : 0;
    if ((rc = text_format_init(&r->fmt, opt, n_cols, types, err)))
        goto fail;
    r->parser.fmt = &r->fmt;
    if (r->footer &&
        !(r->ring = comb_calloc((size_t)r->footer, sizeof *r->ring))) {
        rc = comb_err_nomem(err);
        goto fail;
    }
    if ((rc = text_lines_open(&r->lines, path, opt->read_buffer, err)))
        goto fail;
    *out = r;
    return COMB_OK;
fail:
    text_reader_close(r);
    return rc;
}

void text_reader_close(TextReader *r)
{
    if (!r)
        return;
    text_lines_close(&r->lines);
    text_parser_free(&r->parser);
    text_format_free(&r->fmt);
    for (int64_t i = 0; r->ring && i < r->footer; i++)
        comb_buf_free(&r->ring[i]);
    comb_free(r->ring);
    comb_free(r);
}

int64_t text_reader_lines(const TextReader *r)
{
    return r->lines.n_lines;
}

int64_t text_reader_row_bytes(const TextReader *r)
{
    return r->row_bytes;
}

/* With a footer to skip: hold `line` back and hand out the oldest held
 * line instead, copied into the batch's arena (the ring slot is reused
 * at once); *ready is false while fewer than `footer` lines wait. */
static int hold_back(TextReader *r, CombBatch *b, const unsigned char **line,
                     size_t *len, bool *ready, CombErr *err)
{
    CombBuf *slot;
    unsigned char *copy = NULL;
    size_t old_len = 0;
    *ready = r->ring_count == r->footer;
    if (*ready) {
        /* the oldest slot hands its line out and takes the new one */
        slot = &r->ring[r->ring_head];
        old_len = slot->len;
        if (!(copy = comb_arena_alloc(&b->arena, old_len + 1)))
            return comb_err_nomem(err);
        if (old_len)
            memcpy(copy, slot->data, old_len);
        r->ring_head = (r->ring_head + 1) % r->footer;
    } else {
        slot = &r->ring[(r->ring_head + r->ring_count++) % r->footer];
    }
    comb_buf_clear(slot);
    if (*len && comb_buf_append(slot, *line, *len))
        return comb_err_nomem(err);
    if (*ready) {
        *line = copy;
        *len = old_len;
    }
    return COMB_OK;
}

/* The next line that is a row: header lines dropped, footer lines held
 * back.  *status as text_lines_next. */
static int next_row_line(TextReader *r, CombBatch *b, bool may_move,
                         const unsigned char **line, size_t *len,
                         TextLineStatus *status, CombErr *err)
{
    for (;;) {
        bool ready = true;
        int rc = text_lines_next(&r->lines, may_move || r->footer > 0, line,
                                 len, status, err);
        if (rc || *status != TEXT_LINE_OK)
            return rc;
        if (r->header_left > 0) {
            r->header_left--;
            continue;
        }
        if (r->footer > 0 && (rc = hold_back(r, b, line, len, &ready, err)))
            return rc;
        if (ready)
            return COMB_OK;
    }
}

int text_reader_next(TextReader *r, CombBatch *b, CombErr *err)
{
    comb_batch_reset(b);
    while (b->n_rows < b->capacity) {
        const unsigned char *line;
        size_t len;
        TextLineStatus status;
        int rc = next_row_line(r, b, b->n_rows == 0, &line, &len, &status,
                               err);
        if (rc)
            return rc;
        if (status != TEXT_LINE_OK)
            break;
        if ((rc = text_parse_row(&r->parser, b, b->n_rows, line, len, err)))
            return rc;
        r->row_bytes += (int64_t)len;
        b->n_rows++;
    }
    return COMB_OK;
}
