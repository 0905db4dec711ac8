/*
 * writer.c - text_writer_*: rows of batches as LazySimpleSerDe.serialize
 * writes them (LazySimpleSerDe.serialize / serializeField for the
 * structure, LazyUtils.writePrimitiveUTF8 and writeEscaped for values,
 * LazyHiveDecimal.writeUTF8 with the column's scale), one line each,
 * ended by line.delim as HiveIgnoreKeyTextOutputFormat ends them.  Bytes
 * gather in a buffer written out every TEXT_WRITE_CHUNK bytes; close
 * writes the rest, fsyncs and closes.
 */
#include "text/text_int.h"

#include <unistd.h>

#include "common/alloc.h"
#include "common/base64.h"
#include "common/datetime.h"
#include "common/decimal.h"
#include "common/numfmt.h"
#include "fs/fs.h"

#define TEXT_WRITE_CHUNK ((size_t)1 << 20)

struct TextWriter {
    TextFormat fmt;
    char *path;                 /* owned copy */
    FsFile *file;               /* NULL once closed */
    CombBuf out;                /* bytes not yet written */
    uint64_t rows;
    CombErr *err;               /* the current write call's */
};

int text_writer_open(const char *path, const TextOptions *opt, int n_cols,
                     const CombType *const *types, TextWriter **out,
                     CombErr *err)
{
    TextWriter *w = comb_calloc(1, sizeof *w);
    int rc;
    if (!w)
        return comb_err_nomem(err);
    if ((rc = text_format_init(&w->fmt, opt, n_cols, types, err)))
        goto fail;
    if (!(w->path = comb_strdup(path))) {
        rc = comb_err_nomem(err);
        goto fail;
    }
    if (!(w->file = fs_create(path, err))) {
        rc = err->code;
        goto fail;
    }
    *out = w;
    return COMB_OK;
fail:
    text_writer_abort(w);
    return rc;
}

static void writer_free(TextWriter *w)
{
    text_format_free(&w->fmt);
    comb_buf_free(&w->out);
    comb_free(w->path);
    comb_free(w);
}

void text_writer_abort(TextWriter *w)
{
    CombErr ignored;
    if (!w)
        return;
    if (w->file) {
        fs_discard(w->file);
        (void)fs_unlink(w->path, &ignored);
    }
    writer_free(w);
}

uint64_t text_writer_rows(const TextWriter *w)
{
    return w->rows;
}

/* ---------------------------------------------------------------- values */

/* LazyUtils.writeEscaped: with an escape character, every byte that needs
 * it is preceded by the escape character; \r and \n then go out as r, n. */
static int put_escaped(TextWriter *w, const unsigned char *s, size_t n)
{
    size_t from = 0;
    int rc = COMB_OK;
    if (!w->fmt.escaped)
        return n ? comb_buf_append(&w->out, s, n) : COMB_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        unsigned char b = s[i];
        if (!w->fmt.needs_escape[b])
            continue;
        if ((i > from && (rc = comb_buf_append(&w->out, s + from, i - from))) ||
            (rc = comb_buf_append_byte(&w->out, w->fmt.escape_char)))
            break;
        rc = comb_buf_append_byte(&w->out, b == '\r' ? 'r' : b == '\n' ? 'n' : b);
        from = i + 1;
    }
    if (!rc && n > from)
        rc = comb_buf_append(&w->out, s + from, n - from);
    return rc;
}

/* CHAR(n): HiveCharWritable.getPaddedValue, spaces up to n characters. */
static int put_char(TextWriter *w, const CombType *t, CombStr s)
{
    uint32_t chars = 0;
    int rc = put_escaped(w, (const unsigned char *)s.ptr, s.len);
    for (uint32_t i = 0; i < s.len; i++)
        chars += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    for (; !rc && chars < t->max_length; chars++)
        rc = comb_buf_append_byte(&w->out, ' ');
    return rc;
}

static int put_binary(TextWriter *w, CombStr s)
{
    size_t n = comb_base64_encoded_len(s.len);
    int rc = comb_buf_reserve(&w->out, n);
    if (rc == COMB_OK) {
        comb_base64_encode((const unsigned char *)s.ptr, s.len,
                           (char *)w->out.data + w->out.len);
        w->out.len += n;
    }
    return rc;
}

/* LazyInteger / LazyLong.writeUTF8: decimal digits, a '-' if negative. */
static int put_integer(TextWriter *w, int64_t v)
{
    char digits[24];
    int n = 0;
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (v < 0)
        digits[sizeof digits - 1 - n++] = '-';
    return comb_buf_append(&w->out, digits + sizeof digits - n, (size_t)n);
}

/* Numbers, dates and timestamps: their text, never escaped. */
static int put_scalar(TextWriter *w, const CombType *t, const CombVector *v,
                      int row)
{
    char buf[96];
    size_t n;
    switch (t->kind) {
    case COMB_T_BOOLEAN:
        return comb_buf_append_str(&w->out, v->i64[row] ? "true" : "false");
    case COMB_T_FLOAT:
        n = comb_format_float((float)v->f64[row], buf, sizeof buf);
        break;
    case COMB_T_DOUBLE:
        n = comb_format_double(v->f64[row], buf, sizeof buf);
        break;
    case COMB_T_DECIMAL:
        n = comb_dec_format(v->dec[row], (int)t->scale, buf, sizeof buf);
        break;
    case COMB_T_DATE:
        n = comb_date_format(v->i64[row], buf, sizeof buf);
        break;
    case COMB_T_TIMESTAMP:
        n = comb_timestamp_format(v->i64[row], v->nanos[row], buf, sizeof buf);
        break;
    default:
        return put_integer(w, v->i64[row]);
    }
    return comb_buf_append(&w->out, buf, n < sizeof buf ? n : sizeof buf - 1);
}

static int put_value(TextWriter *w, const CombType *t, const CombVector *v,
                     int row, int level);

/* Values of one collection row, `sep` between them. */
static int put_list(TextWriter *w, const CombType *t, const CombVector *v,
                    int row, int level)
{
    int rc = COMB_OK;
    for (uint32_t i = 0; i < v->len[row] && !rc; i++) {
        if (i && (rc = comb_buf_append_byte(&w->out, w->fmt.seps[level])))
            break;
        rc = put_value(w, t->children[0], &v->children[0],
                       (int)(v->off[row] + i), level + 1);
    }
    return rc;
}

static int put_map(TextWriter *w, const CombType *t, const CombVector *v,
                   int row, int level)
{
    int rc = COMB_OK;
    for (uint32_t i = 0; i < v->len[row] && !rc; i++) {
        int at = (int)(v->off[row] + i);
        if ((i && (rc = comb_buf_append_byte(&w->out, w->fmt.seps[level]))) ||
            (rc = put_value(w, t->children[0], &v->children[0], at, level + 2)) ||
            (rc = comb_buf_append_byte(&w->out, w->fmt.seps[level + 1])))
            break;
        rc = put_value(w, t->children[1], &v->children[1], at, level + 2);
    }
    return rc;
}

/* Fields of a struct at `level` (the row itself at level 0). */
static int put_fields(TextWriter *w, int n, const CombType *const *types,
                      const CombVector *vecs, int row, int level)
{
    int rc = COMB_OK;
    for (int i = 0; i < n && !rc; i++) {
        if (i && (rc = comb_buf_append_byte(&w->out, w->fmt.seps[level])))
            break;
        rc = put_value(w, types[i], &vecs[i], row, level + 1);
    }
    return rc;
}

/* A union: its tag, the separator, the member's value. */
static int put_union(TextWriter *w, const CombType *t, const CombVector *v,
                     int row, int level)
{
    int tag = v->tag[row];
    int rc;
    if (tag >= t->n_children)
        return comb_err(w->err, COMB_EINVALID, "union tag %d out of range: "
                        "the type has %d members", tag, t->n_children);
    rc = put_integer(w, tag);
    if (!rc)
        rc = comb_buf_append_byte(&w->out, w->fmt.seps[level]);
    return rc ? rc : put_value(w, t->children[tag], &v->children[tag], row,
                               level + 1);
}

static int put_value(TextWriter *w, const CombType *t, const CombVector *v,
                     int row, int level)
{
    CombStr s;
    if (comb_vec_is_null(v, row))
        return w->fmt.null_len ? comb_buf_append(&w->out, w->fmt.null_seq,
                                                 w->fmt.null_len)
                               : COMB_OK;
    switch (t->kind) {
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
        s = v->str[row];
        return put_escaped(w, (const unsigned char *)s.ptr, s.len);
    case COMB_T_CHAR:
        return put_char(w, t, v->str[row]);
    case COMB_T_BINARY:
        return put_binary(w, v->str[row]);
    case COMB_T_LIST:
        return put_list(w, t, v, row, level);
    case COMB_T_MAP:
        return put_map(w, t, v, row, level);
    case COMB_T_STRUCT:
        return put_fields(w, t->n_children, (const CombType *const *)t->children,
                          v->children, row, level);
    case COMB_T_UNION:
        return put_union(w, t, v, row, level);
    default:
        return put_scalar(w, t, v, row);
    }
}

/* ------------------------------------------------------------------ rows */

static int flush(TextWriter *w, CombErr *err)
{
    int rc = fs_write_all(w->file, w->out.data, w->out.len, err);
    comb_buf_clear(&w->out);
    return rc;
}

/* One row and its line end; on failure nothing of it stays buffered. */
static int put_row(TextWriter *w, const CombBatch *b, int row, CombErr *err)
{
    size_t mark = w->out.len;
    int rc;
    w->err = err;
    rc = put_fields(w, w->fmt.n_cols, w->fmt.types, b->cols, row, 0);
    if (!rc)
        rc = comb_buf_append_byte(&w->out, w->fmt.line_delim);
    if (rc) {
        w->out.len = mark;
        return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
    }
    w->rows++;
    return w->out.len >= TEXT_WRITE_CHUNK ? flush(w, err) : COMB_OK;
}

int text_writer_write(TextWriter *w, const CombBatch *b, CombErr *err)
{
    for (int row = 0; row < b->n_rows; row++) {
        int rc = put_row(w, b, row, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int text_writer_write_rows(TextWriter *w, const CombBatch *b,
                           const uint32_t *rows, int n, CombErr *err)
{
    for (int i = 0; i < n; i++) {
        int rc = put_row(w, b, (int)rows[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int text_writer_close(TextWriter *w, CombErr *err)
{
    CombErr ignored;
    int rc = w->out.len ? flush(w, err) : COMB_OK;
    if (rc) {
        text_writer_abort(w);
        return rc;
    }
    rc = fs_sync_close(w->file, err);  /* releases it either way */
    if (rc)
        (void)fs_unlink(w->path, &ignored);
    writer_free(w);
    return rc;
}
