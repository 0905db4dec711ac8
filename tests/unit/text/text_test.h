/*
 * text_test.h - helpers of the text/ unit tests: schemas from type
 * strings, files from literal bytes, whole files read back as one
 * printable string per row.
 */
#ifndef COMB_TEXT_TEST_H
#define COMB_TEXT_TEST_H

#include <stddef.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/buf.h"
#include "text/text.h"

/* The fields of "struct<...>" as a column list (arena memory); NULL on a
 * bad type string. */
const CombType *const *tt_schema(CombArena *a, const char *structure,
                                 int *n_cols);

/* A file in the test's temporary directory holding bytes[0..n); returns
 * its path (arena memory). */
const char *tt_file(CombArena *a, const char *name, const void *bytes,
                    size_t n);
/* The same for a NUL-terminated text. */
const char *tt_text_file(CombArena *a, const char *name, const char *text);

/* Row `row` of the batch as "f1|f2|...": NULL as N, strings in quotes
 * with bytes outside ' '..'~' (and the quote, the backslash) as \xNN,
 * arrays [a,b], maps {k:v}, structs (a,b), unions <tag:v>, numbers as
 * Java prints them, dates and timestamps as Hive does. */
void tt_render_row(const CombBatch *b, int row, CombBuf *out);

/* Read the whole file with these options and schema: every row rendered
 * and followed by '\n', or "error <rc>: <message>" (arena memory).
 * batch_rows: batch capacity (0 = default). */
const char *tt_read(CombArena *a, const char *path, const TextOptions *o,
                    const char *structure, int batch_rows);

/* Options with one property set (tt_opt) or a list of key, value pairs
 * ending with NULL (tt_opts). */
TextOptions tt_opt(const char *key, const char *value);
TextOptions tt_opts(const char *const *kv);

#endif
