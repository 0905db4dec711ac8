/*
 * fuzz_acid_dirname.c - ACID directory and bucket file names: parsing
 * arbitrary names never crashes, and every parsed directory name formats
 * back to a name that parses to the same values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acid/acid.h"
#include "common/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = comb_strndup((const char *)data, size);
    AcidParsedDir d, again;
    CombArena a;
    int bucket;
    if (!name)
        return 0;
    comb_arena_init(&a, 1024);
    (void)acid_bucket_file_parse(name, &bucket);
    if (acid_dir_parse(name, &d) && d.visibility_txn == 0 && d.min_wid >= 0 &&
        d.max_wid >= 0 && d.stmt < 10000) {
        char *back = acid_dir_name(&a, d.kind, d.min_wid, d.max_wid, d.stmt);
        if (back && (!acid_dir_parse(back, &again) || again.kind != d.kind ||
                     again.min_wid != d.min_wid || again.max_wid != d.max_wid ||
                     again.stmt != d.stmt))
            abort();
    }
    comb_arena_free(&a);
    comb_free(name);
    return 0;
}
