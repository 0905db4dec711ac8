/*
 * orc_test.h - helpers shared by the orc/ unit tests: test-data paths,
 * comparing a row dump with an expected .jsn.gz file, and building batches.
 */
#ifndef COMB_ORC_TEST_H
#define COMB_ORC_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "orc/orc.h"

/* "<testdata>/<rel>" in a static buffer (one at a time per slot 0..3). */
const char *orc_test_path(int slot, const char *rel);

/* Dump the rows of `orc` as JSON and compare line by line with the gzip
 * file `expected`; each line of both is cut at `cut` first when given.
 * Returns the number of lines compared, or -1 after printing the first
 * difference. */
long orc_test_compare_dump(const char *orc, const char *expected,
                           const char *cut);

/* Copy the first `len` bytes of src into dst. 0 on success. */
int orc_test_copy_prefix(const char *src, const char *dst, size_t len);
long orc_test_file_size(const char *path);

#endif
