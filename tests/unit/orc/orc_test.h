/*
 * orc_test.h - helpers shared by the orc/ unit tests: test-data paths,
 * comparing a row dump with an expected .jsn.gz file, and building batches.
 */
#ifndef COMB_ORC_TEST_H
#define COMB_ORC_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/batch.h"
#include "orc/orc.h"

/* "<testdata>/<rel>" in a static buffer (one at a time per slot 0..3). */
const char *orc_test_path(int slot, const char *rel);

/* Dump the rows of `orc` as orc-contents does and compare line by line
 * with the gzip file `expected`; each line of both is cut at `cut` first
 * when given, and the values of key `trim_key` (when given) are cut to 6
 * fraction digits without trailing zeros, as orc-contents prints Hive
 * 0.11 decimals.  Returns the number of lines compared, or -1 after
 * printing the first difference. */
long orc_test_compare_dump(const char *orc, const char *expected,
                           const char *cut, const char *trim_key);

/* orc_dump of path in `mode` as malloc'd text of *len bytes (len may be
 * NULL); NULL when the dump fails (err). */
char *orc_test_dump_text(const char *path, OrcDumpMode mode, size_t *len,
                         CombErr *err);
/* Whether text holds each of the n lines; prints the missing ones and
 * then the text. */
bool orc_test_text_has(const char *text, const char *const *lines, size_t n);

/* A batch in orc.h's layout for a file of type root (types borrowed). */
int orc_test_batch_init(const CombType *root, CombBatch *b, int capacity);
/* The vector of column id `id` in such a batch, reached through structs
 * (NULL for the struct root itself). */
CombVector *orc_test_col(const CombBatch *b, const CombType *root, int id);

/* Room for a path under a test's tmpdir. */
#define ORC_TEST_PATH_LEN 512

/* Number root's columns and open a writer of it with opt at
 * <a fresh tmpdir>/<name> (path, ORC_TEST_PATH_LEN bytes, gets where), with
 * b a batch of `capacity` rows for it (orc_test_batch_init). */
int orc_test_writer_open(const char *name, CombType *root,
                         const OrcWriterOptions *opt, int capacity,
                         char *path, OrcWriter **w, CombBatch *b,
                         CombErr *err);

/* Open a reader of path with b a batch of `capacity` rows for it; when
 * the batch cannot be had the reader is closed again (COMB_ENOMEM). */
int orc_test_reader_open(const char *path, int capacity, OrcReader **r,
                         CombBatch *b, CombErr *err);

/* xorshift64: the next number of the pseudo-random sequence in *state;
 * each test file seeds its own, so its inputs are the same every run. */
uint64_t orc_test_rand(uint64_t *state);

/* Copy the first `len` bytes of src into dst. 0 on success. */
int orc_test_copy_prefix(const char *src, const char *dst, size_t len);
long orc_test_file_size(const char *path);

/* Fills the batch of a one-column file (b->cols[0], root its type) with
 * b->n_rows rows. */
typedef void (*OrcTestFill)(void *ctx, const CombType *root, CombBatch *b);

/* Write struct<name:kind> of `rows` rows, one batch filled by fill, with
 * opt at <a fresh tmpdir>/<file> (path gets where). */
int orc_test_write_column(const char *file, const char *name,
                          CombTypeKind kind, const OrcWriterOptions *opt,
                          int rows, OrcTestFill fill, void *ctx, char *path,
                          CombErr *err);

#endif
