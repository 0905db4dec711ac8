/*
 * orc_conf.h - the ORC writer settings a table asks for, read as Hive
 * reads them (ORC's OrcConf through OrcFile.writerOptions(tableProperties,
 * conf)), for every writer of a table's files: INSERT and the rest of sql/
 * (which looks in the table's properties, then the session) and the
 * streaming connection (the table's properties, as Hive's streaming
 * writer takes them).
 *
 *   orc.compress      hive.exec.orc.default.compress     ZLIB
 *   orc.stripe.size   hive.exec.orc.default.stripe.size  64 MiB
 *   orc.dictionary.key.threshold
 *                     hive.exec.orc.dictionary.key.size.threshold  0.8
 *   orc.compress.size hive.exec.orc.default.buffer.size  256 KiB
 *   orc.row.index.stride
 *                     hive.exec.orc.default.row.index.stride  10000
 *   orc.create.index  hive.exec.orc.create.index         true
 *   orc.bloom.filter.columns                             (none)
 *   orc.bloom.filter.fpp
 *                     orc.default.bloom.fpp              0.05
 *
 * orc.bloom.filter.columns is a comma-separated list of the table's data
 * column names (any case, spaces around names ignored); a name that is no
 * data column is an error.  Booleans read as Java's Boolean.parseBoolean.
 * Full-ACID deltas are written with 1/8 of the stripe size, as Hive's
 * OrcRecordUpdater divides it by orc.base.delta.ratio (8); bases and the
 * files of insert-only and plain tables with all of it.
 */
#ifndef COMB_ACID_ORC_CONF_H
#define COMB_ACID_ORC_CONF_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"
#include "orc/orc.h"

typedef struct AcidOrcConf {
    OrcCompression compression;
    uint64_t stripe_size;   /* bases, insert-only and plain files */
    double dictionary_key_threshold;  /* orc.dictionary.key.threshold */
    uint64_t block_size;    /* orc.compress.size */
    uint32_t row_index_stride;  /* orc.row.index.stride; 0 when
                                   orc.create.index is false */
    double bloom_fpp;       /* orc.bloom.filter.fpp */
    /* orc.bloom.filter.columns: per data column (table order), NULL when
     * none (in the caller's arena) */
    bool *bloom;
} AcidOrcConf;

/* The value of setting `key` (or of Hive's older name `hive_key`, where
 * the caller looks there too), NULL when unset; *where names where it was
 * found, for messages ("table property"). */
typedef const char *(*AcidOrcLookup)(void *ctx, const char *key,
                                     const char *hive_key,
                                     const char **where);

/* The settings of table `table` ("db.t", for messages) whose data columns
 * are names[0..n_cols): defaults above where get() has nothing.  A value
 * comb cannot write is COMB_EINVALID naming the table, the key and where
 * it came from (COMB_EUNSUPPORTED for LZO). */
int acid_orc_conf(AcidOrcLookup get, void *ctx, const char *table,
                  int n_cols, const char *const *names, CombArena *arena,
                  AcidOrcConf *out, CombErr *err);

/* Full-ACID deltas: the stripe size / orc.base.delta.ratio (8), as Hive. */
uint64_t acid_orc_delta_stripe_size(const AcidOrcConf *o);

/* The ORC column ids of the bloom filter columns of a file whose data
 * columns' ids are field_ids[0..n) (a plain file: 1..; ACID: the row
 * struct's fields) into ids (n entries); their count. */
int acid_orc_bloom_ids(const AcidOrcConf *o, const int *field_ids, int n,
                       int *ids);

#endif
