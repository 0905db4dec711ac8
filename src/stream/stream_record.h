/*
 * stream_record.h - records of an ingest stream (delimited text or JSON
 * lines) cut from a byte stream and converted to the types of a table's
 * columns, one batch row per record.  Independent of the connection API
 * (stream.h): `comb stream` and programs with their own text use it, the
 * C API takes the typed rows.
 *
 * Formats:
 *   CSV        RFC 4180: ',' (or another delimiter) between fields, a
 *              record ends at LF or CRLF
 *              outside quotes; a field in '"' may hold ',', '"' written
 *              '""' and line ends; a quote elsewhere in a field, or
 *              anything but ',' or the record's end after a closing quote,
 *              is an error.  An unquoted empty field is NULL, a quoted one
 *              ("") the empty string.
 *   TSV        '\t' between fields, a record per line (LF, CRLF), the
 *              text format of PostgreSQL's COPY and MySQL: \N is NULL,
 *              backslash escapes \t \n \r \\ \b \f \v, any other \x is x
 *              (so "\," in DELIMITED text is a literal delimiter).
 *   DELIMITED  TSV with another one-byte delimiter.
 *   JSON       one object per line, as Hive's JsonSerDe reads it: member
 *              names match columns case-insensitively, a missing member
 *              or null is NULL, members that match no column are ignored,
 *              a repeated member keeps its last value.  Strings, numbers
 *              and true/false convert like text; objects and arrays are
 *              refused (no complex columns yet).
 * Empty lines are skipped in every format.  In the text formats an empty
 * field of a non-string column is NULL.
 *
 * Conversion (common/textval.h, Hive's rules for text fields, but a value
 * that does not read is an error rather than NULL): blanks around
 * numbers, dates and timestamps are allowed; integers must be whole ("1.5"
 * is refused, not cut); decimals round HALF_UP to the column's scale and
 * must fit its precision; VARCHAR(n) is cut to n characters and CHAR(n)
 * padded, as INSERT does; BINARY is Base64 (java.util.Base64's strict
 * decoder), also in JSON.
 *
 * Errors name the record's first line and the column:
 *   "line 17: column amount: 'x1' is not a DECIMAL(10,2)"
 *   "line 4: 3 fields, expected 4 (id, name, amount, ts)"
 * with COMB_EINVALID; out of memory is COMB_ENOMEM.
 */
#ifndef COMB_STREAM_RECORD_H
#define COMB_STREAM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/batch.h"
#include "common/err.h"
#include "common/types.h"

typedef enum StreamRecordFormat {
    STREAM_REC_CSV,
    STREAM_REC_TSV,
    STREAM_REC_DELIMITED,
    STREAM_REC_JSON
} StreamRecordFormat;

typedef struct StreamRecordParser StreamRecordParser;

/* "csv", "tsv", "delimited", "json" (case-insensitive) to a format;
 * false for any other name. */
bool stream_record_format_parse(const char *name, StreamRecordFormat *out);

/*
 * A parser for records of `format` whose fields are the n_fields columns
 * names[i] of types[i], in that order (the order of fields in delimited
 * text; JSON matches by name).  delimiter is the DELIMITED separator,
 * and CSV's when not 0 (',' then; TSV and JSON ignore it; '\n', '\r',
 * '\\', '"' and NUL are refused).  Names
 * and types are copied.  Columns of array, map, struct or union type are
 * COMB_EUNSUPPORTED.  0 or an rc with err set.
 */
int stream_record_parser_new(StreamRecordFormat format, char delimiter,
                             int n_fields, const char *const *names,
                             const CombType *const *types,
                             StreamRecordParser **out, CombErr *err);
void stream_record_parser_free(StreamRecordParser *p);

/*
 * Cut the next record from buf[0..n), which starts at a record's
 * beginning.  Returns true with the record's bytes buf[0..*len) (its line
 * end excluded), *used bytes to drop (line end included) and *lines = the
 * line ends it holds (1 for a record on one line, more for a CSV field
 * with line ends; 0 for the last record of input without one).  Returns
 * false when buf ends inside a record: read more, or at end of input
 * (at_eof) the bytes are the last record, returned whole (an unclosed CSV
 * quote then makes stream_record_parse fail).  Empty lines come back as
 * records of length 0; stream_record_parse skips them.
 */
bool stream_record_split(const StreamRecordParser *p, const char *buf,
                         size_t n, bool at_eof, size_t *len, size_t *used,
                         int *lines);

/*
 * Parse record rec[0..n), which starts on line `line` of the input, into
 * row `row` of batch b (one column per field, of the parser's types;
 * row < b->capacity).  Strings are copied into b->arena, so the record's
 * bytes may go right after.  Returns 1 when the row was filled, 0 for an
 * empty line (nothing filled), or -rc with err set (the row's contents are
 * then undefined; b->n_rows is never changed).
 */
int stream_record_parse(StreamRecordParser *p, const char *rec, size_t n,
                        uint64_t line, CombBatch *b, int row, CombErr *err);

/* Number of fields (columns) of the parser. */
int stream_record_n_fields(const StreamRecordParser *p);

#endif
