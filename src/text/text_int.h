/*
 * text_int.h - private to src/text: the resolved format (separators of
 * every level, the null marker, escaping), the line source (file, gzip or
 * zlib stream cut into lines as Hadoop's LineRecordReader cuts them) and
 * the field parser that turns one line into one batch row.
 */
#ifndef COMB_TEXT_INT_H
#define COMB_TEXT_INT_H

#include <string.h>
#include <zlib.h>

#include "common/arena.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "text/text.h"

/* Options resolved for reading and writing (what LazySerDeParameters
 * computes from the table properties) and the columns. */
typedef struct TextFormat {
    int n_cols;
    const CombType **types;     /* n_cols, owned array of borrowed types */
    unsigned char seps[TEXT_NESTING_MAX]; /* separator of each level */
    int n_seps;                 /* levels available */
    bool escaped;
    unsigned char escape_char;
    bool needs_escape[256];     /* writer: bytes preceded by escape_char */
    unsigned char *null_seq;    /* owned copy of the null format */
    size_t null_len;
    bool last_column_takes_rest;
    unsigned char line_delim;
} TextFormat;

/* Check the schema (text_check_schema) and resolve o into f, which keeps
 * a copy of the types array; text_format_free releases it (also after a
 * failure). */
int text_format_init(TextFormat *f, const TextOptions *o, int n_cols,
                     const CombType *const *types, CombErr *err);
void text_format_free(TextFormat *f);

/* Is f[0..n) the null marker? */
static inline bool text_is_null(const TextFormat *fmt, const unsigned char *f,
                                size_t n)
{
    return n == fmt->null_len && (n == 0 || memcmp(f, fmt->null_seq, n) == 0);
}

/* ---------------------------------------------------------------- lines */

/* Where the next line stands (text_lines_next). */
typedef enum TextLineStatus {
    TEXT_LINE_OK,       /* a line was returned */
    TEXT_LINE_END,      /* no more lines */
    TEXT_LINE_BLOCKED   /* the next line is not complete in the buffer and
                           the buffer may not move now */
} TextLineStatus;

typedef enum TextCodec {
    TEXT_CODEC_NONE,
    TEXT_CODEC_GZIP,    /* *.gz: gzip members, one after another */
    TEXT_CODEC_ZLIB     /* *.deflate: Hadoop's DefaultCodec */
} TextCodec;

typedef struct TextLines {
    char *path;             /* owned copy, for messages */
    FsFile *file;           /* NULL once closed */
    TextCodec codec;
    z_stream z;             /* when codec != NONE */
    bool z_live;            /* z initialised (inflateEnd owed) */
    bool z_member_done;     /* the last gzip member ended cleanly */
    unsigned char *zin;     /* compressed input buffer (owned) */
    size_t zin_cap;
    bool file_eof;          /* read() returned 0 */
    unsigned char *buf;     /* decoded bytes (owned) */
    size_t cap;             /* bytes of buf */
    size_t chunk;           /* default capacity: buf shrinks back to it */
    size_t start, end;      /* unread bytes are buf[start..end) */
    bool eof;               /* no more bytes will come into buf */
    bool at_file_start;     /* nothing returned yet: drop a BOM */
    int64_t n_lines;        /* lines returned */
} TextLines;

/* Open path for line reading (codec from its suffix).  chunk: bytes read
 * at once (0 = 1 MiB). */
int text_lines_open(TextLines *l, const char *path, size_t chunk,
                    CombErr *err);
/*
 * The next line, without its terminator, in *line / *len; it stays valid
 * until a later call with may_move = true.  With may_move = false the
 * buffer is neither refilled nor moved: when the next line is not
 * complete in it, *status is TEXT_LINE_BLOCKED.
 */
int text_lines_next(TextLines *l, bool may_move, const unsigned char **line,
                    size_t *len, TextLineStatus *status, CombErr *err);
void text_lines_close(TextLines *l);

/* --------------------------------------------------------------- parser */

/* Scratch state of the parser, one per reader. */
typedef struct TextParser {
    const TextFormat *fmt;
    uint32_t *hash;         /* map key de-duplication table (owned) */
    size_t hash_cap;
} TextParser;

/* Read line[0..len) into row `row` of b's columns (the format's types;
 * list and map children appended after their earlier rows); strings that
 * need new bytes go to b->arena.  0 or COMB_ENOMEM. */
int text_parse_row(TextParser *p, CombBatch *b, int row,
                   const unsigned char *line, size_t len, CombErr *err);
void text_parser_free(TextParser *p);

/* Scan for the end of a field at separator `sep`, stepping over escaped
 * bytes as LazyStruct does: the index of the first unescaped sep in
 * f[from..n), or n. */
size_t text_field_end(const TextFormat *fmt, const unsigned char *f,
                      size_t from, size_t n, unsigned char sep);

#endif
