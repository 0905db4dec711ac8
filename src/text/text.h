/*
 * text.h - Hive's TEXTFILE format as LazySimpleSerDe reads and writes it:
 * the contract of the text/ layer.  One row per line, fields split by
 * separator bytes, nested values by the separators of deeper levels, NULL
 * as a marker string (\N by default).  text/ knows nothing of tables or
 * directories: it reads one file into CombBatch rows of a schema (one
 * CombType per column) and writes rows of such batches to a new file.
 *
 * Reading follows Hive's lazy objects (serde2.lazy.LazyStruct, LazyArray,
 * LazyMap, LazyUnion and one Lazy<Type> class per primitive): a field that
 * does not parse as its column's type reads as NULL, a line with too few
 * fields pads with NULL, fields beyond the schema are ignored, an empty
 * line is a row (its first field empty, the others NULL).  Lines end as
 * Hadoop's LineRecordReader ends them: at "\n", "\r" or "\r\n" (whatever
 * line.delim says: Hive's TextInputFormat ignores it too); a UTF-8 byte
 * order mark starting the file is dropped.  Files named *.gz (gzip, any
 * number of members) or *.deflate (zlib) are decompressed on the fly;
 * other compressed suffixes Hadoop knows (.bz2, .snappy, .lz4, .zst,
 * .lzo, .lzo_deflate, .br) are refused (COMB_EUNSUPPORTED).  Memory stays
 * bounded by the read buffer, the longest line and one batch, whatever
 * the file size.
 *
 * Writing follows LazySimpleSerDe.serialize (see text_writer_open).
 *
 * Values in batches are laid out as common/batch.h says; CHAR(n) values
 * are padded with spaces to n characters.  Nothing here is thread-safe;
 * one handle, one thread.
 */
#ifndef COMB_TEXT_H
#define COMB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/batch.h"
#include "common/err.h"
#include "common/types.h"

/* Separator levels (LazySerDeParameters): 8 by default, 24 with
 * hive.serialization.extend.nesting.levels, 154 with
 * hive.serialization.extend.additional.nesting.levels. */
#define TEXT_NESTING_DEFAULT 8
#define TEXT_NESTING_EXTENDED 24
#define TEXT_NESTING_MAX 154

/* Most footer lines a table may skip (Hive's hive.file.max.footer). */
#define TEXT_MAX_FOOTER 100

/* Longest line the reader accepts (COMB_EUNSUPPORTED beyond). */
#define TEXT_MAX_LINE_BYTES ((size_t)1 << 30)

/*
 * The SerDe and table properties of a text table.  Set them with
 * text_options_default and then text_options_set per property; the
 * fields may also be set directly.  Strings are borrowed until
 * text_reader_open / text_writer_open, which copy what they keep.
 */
typedef struct TextOptions {
    unsigned char field_delim;      /* field.delim (or serialization.format):
                                       separator of level 0, \001 */
    unsigned char collection_delim; /* collection.delim (Hive 1-2 spelled it
                                       colelction.delim): level 1, \002 */
    unsigned char mapkey_delim;     /* mapkey.delim: level 2, \003 */
    unsigned char line_delim;       /* line.delim: written after each row,
                                       \n (the reader ignores it) */
    int nesting_levels;             /* separator levels: 8, 24 or 154 */
    bool escaped;                   /* escape.delim given */
    unsigned char escape_char;      /* escape.delim, '\\' when given empty */
    bool escape_crlf;               /* serialization.escape.crlf: escape
                                       \r and \n as <esc>r, <esc>n */
    const char *null_format;        /* serialization.null.format, "\\N" */
    size_t null_len;
    bool last_column_takes_rest;    /* serialization.last.column.takes.rest */
    int64_t skip_header;            /* skip.header.line.count: lines skipped
                                       at the start of each file */
    int64_t skip_footer;            /* skip.footer.line.count: lines skipped
                                       at the end, 0..TEXT_MAX_FOOTER */
    size_t read_buffer;             /* bytes read at once (0: 1 MiB); tests
                                       make it tiny to cut lines anywhere */
    bool field_delim_set;           /* field.delim seen (it beats
                                       serialization.format) */
    bool collection_delim_set;      /* collection.delim seen (it beats
                                       colelction.delim) */
} TextOptions;

/* Hive's defaults: \001 \002 \003 separators, 8 levels, "\n" lines, no
 * escape character, NULL as "\N", no header or footer. */
void text_options_default(TextOptions *o);

/*
 * Apply one SerDe / table property as LazySerDeParameters does.  Delimiters
 * and the escape character take LazyUtils.getByte's reading: a decimal
 * byte value (-128..127, "9" is a tab, "-1" is 0xFF) or else the first
 * character (its low 8 bits); an empty value keeps the default.
 * skip.header.line.count and skip.footer.line.count must be integers
 * (a negative count skips nothing; a footer above TEXT_MAX_FOOTER is
 * Hive's "footer number exceeds the limit defined in hive.file.max.footer"),
 * the boolean properties are true when "true" in any case.  Keys that are
 * not text properties are ignored (0).  value is borrowed (see above).
 * 0 or COMB_EINVALID.
 */
int text_options_set(TextOptions *o, const char *key, const char *value,
                     CombErr *err);

/* The separator byte of nesting level `level` (0 = fields of a row,
 * 1 = items of a top-level array/map/struct/union, 2 = map keys, then
 * 4..8, 11, 14..26, 28..31, 128..255 as LazySerDeParameters lists them);
 * 0 outside 0 .. TEXT_NESTING_MAX - 1. */
unsigned char text_separator(const TextOptions *o, int level);

/*
 * Can columns of these types be stored with these options?  Every kind is
 * (uniontype too), but each array, struct and uniontype needs one separator
 * level and each map two: deeper nesting than o->nesting_levels allows is
 * Hive's SerDeException "Number of levels of nesting supported for
 * LazySimpleSerde is 7 Unable to work with level 8. Use
 * hive.serialization.extend.nesting.levels serde property for tables using
 * LazySimpleSerde." (COMB_EINVALID); a map key must be a primitive type
 * (COMB_EUNSUPPORTED).  The reader and writer check this when they open.
 */
int text_check_schema(const TextOptions *o, int n_cols,
                      const CombType *const *types, CombErr *err);

/* ----------------------------------------------------------------- reader */

typedef struct TextReader TextReader;

/*
 * Open `path` to read rows of n_cols columns of the given types (borrowed:
 * they must outlive the reader, as they outlive batches made from them).
 * Options are copied.  COMB_EIO (with fs/'s message) when the file cannot
 * be opened, COMB_EUNSUPPORTED for a compression suffix comb cannot read,
 * the errors of text_check_schema.
 */
int text_reader_open(const char *path, const TextOptions *opt, int n_cols,
                     const CombType *const *types, TextReader **out,
                     CombErr *err);

/*
 * Fill b (from comb_batch_init_types with the reader's types, any
 * capacity) with the next rows: b->n_rows rows, 0 at the end of the file.
 * The batch is reset first.  A batch may hold fewer rows than its
 * capacity before the end (it never spans a refill of the read buffer).
 * Strings point into the reader's buffer or b->arena and stay valid until
 * the next text_reader_next or text_reader_close.  Malformed values read
 * as NULL; errors are only COMB_EIO (reading), COMB_ECORRUPT (bad
 * compressed data), COMB_EUNSUPPORTED (a line longer than
 * TEXT_MAX_LINE_BYTES) and COMB_ENOMEM.
 */
int text_reader_next(TextReader *r, CombBatch *b, CombErr *err);

/* Lines consumed so far (header, footer and data lines). */
int64_t text_reader_lines(const TextReader *r);
/* Bytes of the rows returned so far, line terminators excluded: what
 * LazySimpleSerDe's serialized sizes of those rows add up to (Hive's
 * rawDataSize of a text file). */
int64_t text_reader_row_bytes(const TextReader *r);

/* Close the file and free r.  NULL ok. */
void text_reader_close(TextReader *r);

/* ----------------------------------------------------------------- writer */

typedef struct TextWriter TextWriter;

/*
 * Create `path` (truncating) for rows of n_cols columns of these types
 * (borrowed: they must outlive the writer).  Rows are written as
 * LazySimpleSerDe.serialize writes them: fields joined by the level 0
 * separator, then o->line_delim; NULL as the null format; booleans
 * true/false; integers in decimal; FLOAT and DOUBLE as Java's
 * Float/Double.toString; DECIMAL with exactly its column's scale; DATE as
 * yyyy-MM-dd, TIMESTAMP as yyyy-MM-dd HH:mm:ss[.fffffffff] (no trailing
 * zeros); BINARY in Base64; CHAR padded to its length; arrays, maps,
 * structs and unions with the separators of their levels (a union as
 * "tag<sep>value").  With an escape character, string bytes equal to it or
 * to any separator (and \r, \n with escape_crlf) are preceded by it.
 * Errors: those of text_check_schema, COMB_EIO from fs/.
 */
int text_writer_open(const char *path, const TextOptions *opt, int n_cols,
                     const CombType *const *types, TextWriter **out,
                     CombErr *err);

/* Append rows 0 .. b->n_rows - 1 of b (selection ignored). */
int text_writer_write(TextWriter *w, const CombBatch *b, CombErr *err);

/* Append rows rows[0..n) of b, in that order (any row indexes below
 * b->capacity, repeats allowed). */
int text_writer_write_rows(TextWriter *w, const CombBatch *b,
                           const uint32_t *rows, int n, CombErr *err);

/* Rows appended so far. */
uint64_t text_writer_rows(const TextWriter *w);

/* Write what is buffered, fsync and close the file, free w.  On error the
 * file is removed and w freed as well.  The caller fsyncs the directory. */
int text_writer_close(TextWriter *w, CombErr *err);

/* Close and remove the file; frees w.  NULL ok. */
void text_writer_abort(TextWriter *w);

#endif
