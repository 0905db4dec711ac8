/*
 * compactor_int.h - private to src/compactor/: what the worker, the
 * initiator and the cleaner share.
 */
#ifndef COMB_COMPACTOR_INT_H
#define COMB_COMPACTOR_INT_H

#include "common/txnlist.h"
#include "compactor/compactor.h"

/* Hive's ValidCompactorWriteIdList (hive-acid-storage.md 5.2) from a
 * reader's list: high watermark just below the lowest open write id (the
 * reader's when none is open), exceptions the aborted ids up to it.  *out
 * is the caller's to free (comb_writeidlist_free). */
int compactor_writeid_list(const CombWriteIdList *in, CombWriteIdList *out,
                           CombErr *err);

#endif
