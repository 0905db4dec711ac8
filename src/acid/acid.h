/*
 * acid.h - Hive full-ACID (v2) tables on disk: the contract of the acid/
 * layer.  See ../shared/docs/hive-acid-storage.md for every rule cited here.
 *
 *  - bucket property codec (BucketCodec V1)
 *  - directory and file names (base_, delta_, delete_delta_, bucket_N)
 *  - directory state under a snapshot (AcidUtils.getAcidState)
 *  - the reader: merge on read (base + deltas minus delete events)
 *  - the writer: Hive's record updater (split update)
 *  - bucketing of rows by Hive's hash
 *
 * acid/ calls orc/, fs/ and common/, never metastore/ or sql/: the caller
 * passes in the snapshot (CombWriteIdList / CombTxnList) it got from the
 * metastore.
 */
#ifndef COMB_ACID_H
#define COMB_ACID_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/txnlist.h"
#include "orc/orc.h"

/* ------------------------------------------------------------ bucket codec */

/* encode_v1(bucket, stmt) = 1<<29 | bucket<<16 | stmt (stmt < 0 -> 0).
 * COMB_EINVALID when bucket or stmt is outside 0..4095. */
int acid_bucket_encode(int bucket, int stmt, int32_t *prop, CombErr *err);
/* Writer (bucket) id and statement id of an encoded property; V0 values are
 * the bucket itself.  COMB_ECORRUPT for an unknown codec version. */
int acid_bucket_decode(int32_t prop, int *bucket, int *stmt, CombErr *err);

/* ------------------------------------------------------------------- names */

typedef enum AcidDirKind {
    ACID_DIR_BASE,
    ACID_DIR_DELTA,
    ACID_DIR_DELETE_DELTA
} AcidDirKind;

typedef struct AcidParsedDir {
    AcidDirKind kind;
    int64_t min_wid;         /* base: the base's write id */
    int64_t max_wid;         /* base: same as min_wid */
    int stmt;                /* statement id, -1 when the name has none */
    int64_t visibility_txn;  /* _vN suffix, 0 when none */
    const char *name;        /* directory name (borrowed) */
} AcidParsedDir;

/* Parse a directory name; false if it is not a base/delta/delete_delta. */
bool acid_dir_parse(const char *name, AcidParsedDir *out);

/* "delta_0000005_0000005_0000", "delete_delta_...", "base_0000005"
 * (stmt < 0: no statement suffix). In arena memory. */
char *acid_dir_name(CombArena *a, AcidDirKind kind, int64_t min_wid,
                    int64_t max_wid, int stmt);

/* (Addition.) acid_dir_name with a visibility suffix "_v%07d" when
 * visibility_txn > 0 (compaction output, hive-acid-storage.md 3). */
char *acid_dir_name_vis(CombArena *a, AcidDirKind kind, int64_t min_wid,
                        int64_t max_wid, int stmt, int64_t visibility_txn);

/* "bucket_00003" in arena memory. */
char *acid_bucket_file_name(CombArena *a, int bucket);

/* Parse "bucket_N[_attempt]"; false if the name is not a bucket file
 * (names ending in _flush_length are not). */
bool acid_bucket_file_parse(const char *name, int *bucket);

/* ---------------------------------------------------------- directory state */

typedef struct AcidDirState {
    const AcidParsedDir *base;     /* chosen base, NULL if none */
    int n_deltas;                  /* kept insert deltas, in read order */
    AcidParsedDir *deltas;
    int n_delete_deltas;           /* kept delete deltas, in read order */
    AcidParsedDir *delete_deltas;
    int n_obsolete;                /* directory names shadowed by others */
    char **obsolete;
    int n_aborted;                 /* directories of aborted write ids */
    char **aborted;
    int n_originals;               /* original (non-ACID) files, sorted */
    char **originals;              /* paths relative to the table dir */
} AcidDirState;

/* Classify the children of `dir` as Hive 4's getAcidState does under the
 * write-id list `wil` and (optionally, for _v suffixes) the txn list
 * `txns`.  Hidden names (leading '_' or '.') are skipped.  Files in `dir`
 * count as originals only when named like Hive's originals (NNNNNN_N,
 * NNNNNN_N_copy_K) or bucket files; other files are ignored.  All output in
 * arena a.  A missing directory is an empty state. */
int acid_dir_state_get(const char *dir, const CombWriteIdList *wil,
                       const CombTxnList *txns, CombArena *a,
                       AcidDirState *out, CombErr *err);

/* (Addition.) Options of acid_dir_state_get_opts. */
typedef struct AcidDirStateOptions {
    /* wil is a compactor list (hive-acid-storage.md 5.2): a write-id range
     * counts as valid only when it lies entirely at or below the high
     * watermark, otherwise as not valid at all. */
    bool compactor;
} AcidDirStateOptions;

/* (Addition.) acid_dir_state_get with options (opt NULL = defaults, which
 * is what acid_dir_state_get does).  With a base chosen, the original
 * files are listed in `obsolete` after the directories (Hive does the
 * same, for the cleaner).  A snapshot that needs history a compaction
 * erased ("not enough history", 4.3) gives COMB_ETXN. */
int acid_dir_state_get_opts(const char *dir, const CombWriteIdList *wil,
                            const CombTxnList *txns,
                            const AcidDirStateOptions *opt, CombArena *a,
                            AcidDirState *out, CombErr *err);

/* ----------------------------------------------------------------- schema */

/* The user columns of a table, in table order.  Readers and writers copy
 * it (names and type trees): the caller's may go once they are open. */
typedef struct AcidSchema {
    int n_cols;
    const char *const *names;      /* lower case */
    const CombType *const *types;  /* any type tree (char/varchar lengths,
                                      decimal precision and scale, parts) */
} AcidSchema;

/* ----------------------------------------------------------------- reader */

typedef struct AcidReader AcidReader;

/* (Addition.) Parallel scans: the readers of one scan share an
 * AcidMorsels, each through a walk of its own that counts the stripes of
 * the files it is given, in read order (the same files and order for
 * every walk: the same directories under the same snapshot).  Stripe
 * number n is read by the walk that claimed n from the shared counter, so
 * every stripe is read exactly once over all walks.  Delete events apply
 * per bucket (§6.3), so a stripe read alone is still merged correctly. */
typedef struct AcidMorsels {
    _Atomic int64_t next;      /* the next stripe number to claim */
} AcidMorsels;
typedef struct AcidMorselWalk {
    AcidMorsels *shared;
    int64_t seq;               /* stripes walked so far */
    int64_t claim;             /* valid when claimed */
    int64_t last;              /* the last stripe taken (-1 none): the one
                                  the reader's batches come from */
    bool claimed;
} AcidMorselWalk;
/* Is the walk's next stripe (or other morsel) this walk's to read? */
bool acid_morsel_take(AcidMorselWalk *w);

typedef struct AcidReaderOptions {
    const bool *project;   /* per user column: decode it; NULL = all */
    bool want_row_id;      /* fill the three ROW__ID columns */
    /* Predicate push-down (orc/sarg.h), leaves numbering user columns;
     * NULL none.  Borrowed: it must outlive the reader.  Applied to the
     * insert data files only (base, deltas, originals): a row it skips
     * could not have been returned, while delete events are always read
     * whole.  A leaf whose column a file lacks or stores as another type
     * (schema evolution) is unknown for that file. */
    const struct OrcSarg *sarg;
    /* (Compaction.) wil is a compactor list: directories are chosen as
     * acid_dir_state_get_opts with AcidDirStateOptions.compactor. */
    bool compactor;
    /* (Minor compaction.) Read the kept insert deltas alone: no base, no
     * original files, no delete events applied (rows of invalid write ids
     * are still dropped). */
    bool inserts_only;
    /* (Bucket pruning.) When set, the data and delete files numbered b <
     * n_bucket_mask are read only where bucket_mask[b] (§6.3 pairs them
     * by that number, so a bucket's rows and its delete events go
     * together); files numbered higher, and plain files whose names carry
     * no number, are read.  Borrowed. */
    const bool *bucket_mask;
    int n_bucket_mask;
    /* (Tracing.) Called with the path of every data and delete file as
     * the reader opens it; NULL none. */
    void (*file_opened)(void *ctx, const char *path);
    void *file_opened_ctx;
    /* Read only this walk's stripes (borrowed; NULL: all of them). */
    AcidMorselWalk *walk;
} AcidReaderOptions;

/*
 * Open a merge-on-read scan of the table (or partition) directory `dir`
 * under snapshot `wil` (and `txns` for visibility suffixes, may be NULL).
 * Reads the chosen base, the kept insert deltas and originals, and drops
 * every row that has a valid delete event in a kept delete delta, and
 * every row whose currentTransaction is not valid (streaming deltas).
 * File columns are matched to the schema by name (ACID files) and missing
 * columns read as NULL; a file column of another type is converted as
 * Hive's ORC schema evolution does (acid_map_columns in acid_int.h), and a
 * type Hive cannot convert is COMB_EUNSUPPORTED naming both.  Delete events
 * are held in memory (sorted keys), rows stream through one batch at a
 * time.
 */
int acid_reader_open(const char *dir, const AcidSchema *schema,
                     const CombWriteIdList *wil, const CombTxnList *txns,
                     const AcidReaderOptions *opt, AcidReader **out,
                     CombErr *err);
void acid_reader_close(AcidReader *r);  /* NULL ok */

/* (Addition.) A scan of exactly these ORC files, in this order, every row
 * visible: the data files of a plain table, or of the base and deltas an
 * insert-only table's snapshot chose.  Columns map and convert as for
 * acid_reader_open; there is no ROW__ID (want_row_id is refused). */
int acid_reader_open_files(const char *const *paths, int n,
                           const AcidSchema *schema,
                           const AcidReaderOptions *opt, AcidReader **out,
                           CombErr *err);

/* Batch layout of the reader's output: the schema's user columns (index
 * 0..n_cols-1), each a tree vector of its table type (as
 * comb_batch_init_types makes them; the types are the reader's copies, so
 * the batch must be freed before the reader is closed), then
 * ACID_COL_WRITEID, ACID_COL_BUCKET, ACID_COL_ROWID relative to n_cols
 * (bigint, int, bigint). */
#define ACID_COL_WRITEID 0
#define ACID_COL_BUCKET 1
#define ACID_COL_ROWID 2
int acid_reader_batch_init(const AcidReader *r, CombBatch *b);

/*
 * Next batch: b->n_rows > 0 with deleted/invisible rows removed through the
 * selection vector (b->use_sel); b->n_rows == 0 at the end.  A batch may
 * have zero live rows and still not be the end.  Strings are valid until the
 * next call (converted ones live in b->arena).  Unprojected columns are all
 * NULL.
 */
int acid_reader_next(AcidReader *r, CombBatch *b, CombErr *err);
/* The path of the data file the last batch's rows came from (each batch
 * comes from one file: Hive's INPUT__FILE__NAME); NULL before the first
 * batch.  Valid until the reader is closed. */
const char *acid_reader_batch_path(const AcidReader *r);

/* (Addition.) What the scan's ORC readers of data files read and
 * skipped so far (delete files not counted). */
void acid_reader_counters(const AcidReader *r, OrcReadCounters *out);

/* Directories and files the scan uses (for tests and EXPLAIN). */
const AcidDirState *acid_reader_dir_state(const AcidReader *r);

/* ----------------------------------------------------------------- writer */

typedef struct AcidWriter AcidWriter;

typedef struct AcidWriteStats {
    int64_t n_inserted;
    int64_t n_deleted;
    int n_files;
} AcidWriteStats;

/*
 * A record updater for one (table dir, write id, statement id).  Inserted
 * rows go to delta_W_W_SSSS/bucket_N, delete events to
 * delete_delta_W_W_SSSS/bucket_M where M is the writer id in the deleted
 * row's bucket property.  Directories and files are created as rows
 * arrive; nothing is created for an empty side.  Files are written straight
 * to their final names: they stay invisible until the caller commits the
 * write id in the metastore.  compression: an OrcCompression value.
 */
int acid_writer_open(const char *dir, const AcidSchema *schema,
                     int64_t write_id, int stmt_id, int compression,
                     AcidWriter **out, CombErr *err);

/* (Addition.) Options of acid_writer_open_opts. */
typedef struct AcidWriterOptions {
    /* INSERT OVERWRITE: write base_W instead of delta_W_W_S (deletes are
     * refused); with no rows at all an empty bucket_00000 is left in the
     * base, as Hive does (hive-acid-storage.md 1.4, 6.2). */
    bool base;
    /* Bytes buffered per file before a stripe is flushed; 0 = 8 MiB for
     * deltas (Hive's delta writers divide the ORC default by
     * orc.base.delta.ratio = 8, section 8), the ORC default for a base. */
    uint64_t stripe_size;
    /* orc.dictionary.key.threshold for the bucket files when set (else
     * ORC's default, 0.8): see OrcWriterOptions. */
    bool set_dictionary_key_threshold;
    double dictionary_key_threshold;
    /* Bytes all bucket files of the writer may buffer together; beyond
     * it the largest pending stripe is written early (ORC's memory
     * manager).  0 = 128 MiB. */
    uint64_t memory_budget;
    /* When set_index: the bucket files' row index stride (0 = none),
     * compression block size, and bloom filters on the row columns i with
     * bloom_fields[i] (schema.n_cols entries, NULL none; copied) at
     * false-positive rate bloom_fpp (see OrcWriterOptions). */
    bool set_index;
    uint32_t row_index_stride;
    uint64_t compression_block_size;
    const bool *bloom_fields;
    double bloom_fpp;
    /* A budget shared with other writers (a statement writing many
     * partitions), instead of one of the writer's own; borrowed: it must
     * outlive the writer.  memory_budget is then ignored. */
    OrcWriterGroup *group;
    /* (Compaction.) Directory names to write instead of
     * delta_W_W_S / base_W and delete_delta_W_W_S, e.g. base_N_vT,
     * delta_A_B_vT; NULL = the usual ones.  Delete events get
     * currentTransaction = write_id. */
    const char *insert_dir_name;
    const char *delete_dir_name;
    /* (Compaction.) Inserted rows keep their ROW__ID: the batch carries
     * it in the three columns after the user columns (the reader's layout,
     * acid_reader_batch_init), rows go to the bucket file of the writer id
     * in their bucket property, and within a file they must ascend by key
     * (§6.1; else COMB_ECORRUPT).  The buckets argument is ignored. */
    bool keep_row_ids;
    /* (Streaming ingest, hive-acid-transactions.md 6.) A transaction
     * batch of write ids write_id..max_write_id (>= write_id, stmt_id -1):
     * every row goes to delta_<write_id>_<max_write_id> (no statement
     * suffix, §3) under the write id acid_writer_set_write_id chose last,
     * rowIds counted from 0 per write id and file; each bucket file has a
     * <file>_flush_length side file (§1.7) that acid_writer_flush appends
     * to.  Delete events are refused. */
    bool streaming;
    int64_t max_write_id;
} AcidWriterOptions;

/* (Addition.) acid_writer_open with options (opt NULL = acid_writer_open).
 * Columns of every type but uniontype are accepted (COMB_EUNSUPPORTED for
 * a uniontype anywhere, as ORC's writer refuses it); an existing target
 * directory gives COMB_EEXISTS (one writer per write id and statement). */
int acid_writer_open_opts(const char *dir, const AcidSchema *schema,
                          int64_t write_id, int stmt_id, int compression,
                          const AcidWriterOptions *opt, AcidWriter **out,
                          CombErr *err);

/* Append the live rows (selection honoured) of `rows`, whose columns
 * 0..n_cols-1 are the user columns in table order, each a tree vector of
 * its column's type (or an untyped NULL vector, kind COMB_T_NULL);
 * char/varchar values are stored as given.  buckets[row] gives the bucket
 * of each row (indexed by physical row number); NULL = bucket 0.  Values
 * the ORC writer refuses (a decimal beyond its precision) fail the call
 * with nothing of the batch written. */
int acid_writer_insert(AcidWriter *w, const CombBatch *rows,
                       const int *buckets, CombErr *err);

/* Record a delete event for the row with ROW__ID (owid, bucket_prop,
 * row_id).  Events are sorted before they are written. */
int acid_writer_delete(AcidWriter *w, int64_t owid, int32_t bucket_prop,
                       int64_t row_id, CombErr *err);

/* Close all files (with hive.acid.key.index, hive.acid.stats,
 * hive.acid.version=2), write _orc_acid_version ("2") in every directory
 * created, fsync files and directories.  Frees w, even on error (then the
 * created directories are removed). */
int acid_writer_commit_files(AcidWriter *w, AcidWriteStats *stats,
                             CombErr *err);

/* Remove everything the writer created; frees w.  NULL ok.  (A streaming
 * writer that flushed already leaves its files as acid_writer_flush last
 * committed them, side files included: earlier txns of the batch may be
 * committed.) */
void acid_writer_abort(AcidWriter *w);

/* (Addition; streaming.) Rows written from now on carry write id
 * `write_id`, which must lie in the batch and not be below the current
 * one; rows of the current write id must have been flushed (else
 * COMB_EINVALID). */
int acid_writer_set_write_id(AcidWriter *w, int64_t write_id, CombErr *err);

/* (Addition; streaming.) The rowId the next row of `bucket` gets (0 when
 * its file has none of the current write id yet): callers that must know
 * a row's ROW__ID before it is written (streaming upserts). */
int64_t acid_writer_next_row_id(const AcidWriter *w, int bucket);

/* (Addition; streaming.) Make everything written so far durable and
 * readable: each bucket file's pending stripe, its ACID metadata and an
 * intermediate footer (orc_writer_flush_footer), fsynced; its length
 * appended to the side file, fsynced; _orc_acid_version and the
 * directory fsynced.  Then the caller may commit the write id.
 * acid_writer_commit_files of a streaming writer closes the files and
 * removes the side files. */
int acid_writer_flush(AcidWriter *w, CombErr *err);

/* ------------------------------------------------------------- compaction */

/* (Addition.) What a compaction of one table (or partition) directory
 * writes (hive-acid-transactions.md 4.2). */
typedef struct AcidCompactSpec {
    bool major;              /* base_<hwm>_v<txn>, else minor deltas */
    int64_t hwm;             /* the compactor's high watermark (> 0) */
    int64_t visibility_txn;  /* the compactor's txn: the _v suffix */
    int compression;         /* OrcCompression of the new files */
    int max_deltas;          /* hive.compactor.max.num.delta: more deltas
                                than this are first merged oldest first in
                                minor passes of at most this many (all in
                                the same txn); 0 = no limit */
    /* Called after every batch of rows written (may be NULL), with the
     * rows written and the input bytes read so far in this pass (ORC
     * stripe data; text: bytes copied, rows 0): the caller heartbeats its
     * txn, reports progress, and may stop the compaction by returning an
     * error (then nothing is left). */
    int (*progress)(void *ctx, int64_t rows, int64_t bytes, CombErr *err);
    void *progress_ctx;
    bool text;               /* insert-only TEXTFILE: files concatenated
                                per bucket (not parsed), see
                                acid_compact_insert_only_dir */
} AcidCompactSpec;

/* (Addition.) What it did. */
typedef struct AcidCompactResult {
    bool enough;             /* there was something to compact (else
                                nothing was written) */
    bool cleanable;          /* not enough, but obsolete or aborted
                                directories wait for the cleaner */
    int n_dirs_read;         /* base and deltas merged */
    int64_t n_rows;          /* rows (insert events) written */
    int64_t n_deletes;       /* delete events written (minor) */
    int64_t n_bytes;         /* input bytes read (insert-only) */
    char *insert_dir;        /* directory names written (arena), or NULL */
    char *delete_dir;
    int n_passes;            /* minor passes before the last one */
    int n_written;           /* every directory written, passes included
                                (what to remove if the txn never commits) */
    char **written;
} AcidCompactResult;

/* (Addition.) Compact the directory `dir` as the compactor's write-id list
 * `cwil` (hive-acid-storage.md 5.2: hwm below the lowest open write id,
 * exceptions = aborted ids) and txn list `txns` see it:
 *  - major: every row still visible (deletes applied, rows of aborted
 *    write ids dropped), ROW__IDs kept, into base_<hwm>_v<txn> (an empty
 *    bucket_00000 when no row is left);
 *  - minor: the rows of the insert deltas after the base into
 *    delta_<min>_<hwm>_v<txn>, the delete events of the delete deltas into
 *    delete_delta_<min>_<hwm>_v<txn> (one file per bucket, keys kept,
 *    aborted write ids dropped).
 * "Enough" is Hive's rule: major needs originals or more than one of base
 * and deltas; minor more than one delta, not just a delta and its delete
 * delta.  With spec->max_deltas, a backlog is merged in passes first
 * (Hive's several-pass compaction of a huge backlog): the oldest
 * max_deltas deltas into delta_<min>_<cap>_v<txn>, cap their highest write
 * id, until no more than max_deltas are left.  The compactor's txn is
 * valid in its own snapshot, so each pass reads the previous one's
 * output.  Files and directories are durable when this returns (the
 * writer's order); the caller then commits the compactor's txn, before
 * which readers ignore the _v directories.  On error nothing is left. */
int acid_compact_dir(const char *dir, const AcidSchema *schema,
                     const CombWriteIdList *cwil, const CombTxnList *txns,
                     const AcidCompactSpec *spec, CombArena *a,
                     AcidCompactResult *out, CombErr *err);

/* (Addition.) acid_compact_dir for an insert-only table
 * (transactional_properties=insert_only): the data files of the chosen
 * base and deltas (major) or of the deltas after the base (minor) are
 * merged into base_<hwm>_v<txn> / delta_<min>_<hwm>_v<txn>, one plain ORC
 * file NNNNNN_0 per bucket number of the input file names; there are no
 * ROW__IDs and no delete events.  spec->text (TEXTFILE): the files of a
 * bucket are concatenated byte for byte instead (plain text into
 * NNNNNN_0, a line end added where a file lacks its last one and byte
 * order marks dropped; gzip files into NNNNNN_0.gz as several members;
 * .deflate and other codecs copied one by one).  Same rules, durability
 * and cleanup as acid_compact_dir (no max_deltas passes). */
int acid_compact_insert_only_dir(const char *dir, const AcidSchema *schema,
                                 const CombWriteIdList *cwil,
                                 const CombTxnList *txns,
                                 const AcidCompactSpec *spec, CombArena *a,
                                 AcidCompactResult *out, CombErr *err);

/* (Addition.) What a directory looks like to the operator watching the
 * price of its writes (Hive's delta metrics: compaction_num_deltas,
 * _num_small_deltas, _num_obsolete_deltas), in one snapshot's view. */
typedef struct AcidDirMetrics {
    bool has_base;           /* a base (or original files) is read */
    int n_deltas;            /* insert deltas read after it */
    int n_delete_deltas;     /* delete deltas read */
    int n_files;             /* data files of all those */
    int n_small_files;       /* of which smaller than small_bytes */
    int64_t bytes;           /* their size */
    int64_t base_bytes;      /* of which the base's (or the originals') */
    int n_obsolete;          /* directories shadowed by newer ones, left
                                for the cleaner */
    int n_aborted;           /* directories of aborted writes */
} AcidDirMetrics;

/* (Addition.) The metrics of `dir` as acid_dir_state_get_opts sees it
 * under wil and txns. */
int acid_dir_metrics(const char *dir, const CombWriteIdList *wil,
                     const CombTxnList *txns, const AcidDirStateOptions *opt,
                     int64_t small_bytes, CombArena *a, AcidDirMetrics *out,
                     CombErr *err);

/* ---------------------------------------------------------------- bucketing */

/* (Addition.) The table property that names a bucketed table's hash (§7)
 * and its two values: version 1 is Java hashCode semantics (tables from
 * before Hive 3, or without the property), version 2 is Murmur3. */
#define ACID_PROP_BUCKETING_VERSION "bucketing_version"
enum { ACID_BUCKETING_V1 = 1, ACID_BUCKETING_V2 = 2 };

/* (Addition.) Bucketing version of a table whose bucketing_version
 * property is `value` (NULL = absent = version 1, as in Hive).  Only "1" and
 * "2" are accepted; anything else is COMB_EUNSUPPORTED, as Trino refuses it
 * (Hive would silently hash such a table with version 1). */
int acid_bucketing_version_parse(const char *value, int *version,
                                 CombErr *err);

/* Bucket of row `row` of b for CLUSTERED BY columns cluster_cols (indexes
 * into b->cols, tree vectors) under bucketing `version`
 * (ACID_BUCKETING_V1/V2).  This is the one place rows meet the hash:
 * writers route rows with it, and bucket pruning would run it on a one-row
 * batch of the predicate's values.  Every type hashes as Hive's
 * ObjectInspectorUtils does (hive-acid-storage.md §7): arrays, maps,
 * structs and unions through their parts; a decimal vector's scale comes
 * from its type (v->type; none means scale 0).  n_buckets > 0. */
int acid_bucket_of_row(const CombBatch *b, int row, const int *cluster_cols,
                       int n_cluster_cols, int n_buckets, int version);

/* (Addition.) Hive's hash of one value under bucketing `version`, the
 * per-column h the bucket combines (also SQL's hash() in version 1 and
 * murmur_hash() in version 2); NULL is 0. */
int32_t acid_hash_of_value(const CombVector *v, int row, int version);

/* (Addition.) true if acid_bucket_of_row hashes values of this kind (every
 * column type; not the untyped NULL), so callers can reject others as
 * CLUSTERED BY columns. */
bool acid_bucket_kind_supported(CombTypeKind kind);

/* ------------------------------------------------- streaming side files */

/* (Addition.) "<data file>_flush_length" (§1.7, §3) in arena memory. */
char *acid_flush_length_path(CombArena *a, const char *data_path);
/* (Addition.) Append `length` as an 8-byte big-endian long to the side
 * file (create: make it, holding only that long) and fsync it. */
int acid_flush_length_append(const char *side_path, uint64_t length,
                             bool create, CombErr *err);
/* (Addition.) The committed length of data file `data_path`: the last
 * complete long of its side file (*have), or *have false when it has none
 * (the whole file counts).  A side file without one long is
 * COMB_ECORRUPT naming it. */
int acid_flush_length_read(const char *data_path, bool *have,
                           uint64_t *length, CombErr *err);
/* (Addition.) Open an ACID data file as readers must (§1.7): at the
 * length its side file committed, or whole without one.  *out NULL (and
 * COMB_OK) when the side file commits length 0: nothing to read yet.  A
 * committed length beyond the file is COMB_ECORRUPT naming the file. */
int acid_data_file_open(const char *path, OrcReader **out, CombErr *err);
/* (Addition.) The same for a reader that listed the file's directory
 * after taking its snapshot: `side_listed` says whether the listing held
 * the side file (when it did not, none is looked for: see reader.c's
 * list_dir_files for when that is safe), and the ORC reader takes its
 * buffers from pool (NULL: none). */
int acid_data_file_open_listed(const char *path, bool side_listed,
                               OrcReadPool *pool, OrcReader **out,
                               CombErr *err);

/* true if the root type of an ORC file has the six ACID fields (§1.1;
 * names compared case-insensitively per position, as newer ORC does) and
 * `row` is a struct: a file an ACID writer wrote. */
bool acid_schema_is_acid(const CombType *root);

#endif
