/*
 * fuzz_writeidlist.c - Hive's valid-txn and valid-write-id list strings:
 * parse, query, format and parse again (the round trip must be stable).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/txnlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = comb_strndup((const char *)data, size);
    CombWriteIdList w, w2;
    CombTxnList t;
    CombErr err;
    if (!s)
        return 0;
    if (comb_writeidlist_parse(s, &w, &err) == COMB_OK) {
        char *f = comb_writeidlist_format(&w);
        (void)comb_idlist_range_valid(&w.ids, 1, w.ids.hwm);
        (void)comb_idlist_range_aborted(&w.ids, 0, 10);
        if (f && comb_writeidlist_parse(f, &w2, &err) == COMB_OK) {
            char *g = comb_writeidlist_format(&w2);
            if (g && strcmp(f, g) != 0)
                abort(); /* formatting must be a fixed point */
            comb_free(g);
            comb_writeidlist_free(&w2);
        }
        comb_free(f);
        comb_writeidlist_free(&w);
    }
    if (comb_txnlist_parse(s, &t, &err) == COMB_OK) {
        char *f = comb_txnlist_format(&t);
        comb_free(f);
        comb_idlist_free(&t);
    }
    comb_free(s);
    return 0;
}
