/*
 * orc.h - ORC v1 (file version 0.12) reader and writer: the contract of the
 * orc/ layer.  orc/ knows nothing of ACID; it reads and writes plain ORC
 * files whose columns travel in CombBatch vectors.
 *
 * Batches hold tree vectors (common/batch.h): for a file whose root type
 * is a struct, one column per root field (b->n_cols == the root's field
 * count), each a vector of that field's type with its children (list
 * elements, map keys and values, struct fields, union members); for any
 * other root, one column holding the root.  So for
 * struct<a:int,b:array<struct<c:string>>> cols[0] is a and cols[1] is b,
 * whose children[0] holds the elements and children[0].children[0] the c
 * values.  Rows of the root struct itself are never NULL (the writer
 * stores every row as present; a reader meeting a file with NULL root
 * rows reads all their fields as NULL).  Where a struct is NULL in a row,
 * its fields are NULL in that row too, and a union row's members other
 * than its tag are NULL there (the reader guarantees both; the writer
 * ignores those values).
 *
 * Columns are still numbered for selection, statistics and encodings by
 * ORC column id: the root type is id 0 and ids follow a pre-order walk of
 * the type tree (comb_type_assign_ids).
 *
 * Values: decimals are unscaled at the column's scale; timestamps are
 * wall-clock seconds since 1970-01-01 plus nanos, written with writer time
 * zone "UTC" as Hive 3+ writes them and read back as the wall clock of the
 * zone each stripe names (see README.md).
 *
 * Ownership: CombType trees live in the arena they were built in (the
 * reader's for orc_reader_schema; batches from orc_reader_batch_init
 * borrow them, so they must be freed before the reader is closed).
 * Handles are freed by *_close / *_abort.  Nothing here is thread-safe;
 * one handle, one thread.
 */
#ifndef COMB_ORC_H
#define COMB_ORC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/types.h"

/* ------------------------------------------------------------------ types */

/* Files are described by CombType trees (common/types.h); a file's column
 * ids are the pre-order numbering of its tree (comb_type_assign_ids). */

typedef enum OrcCompression {
    ORC_COMP_NONE = 0,
    ORC_COMP_ZLIB = 1,
    ORC_COMP_SNAPPY = 2,
    ORC_COMP_LZO = 3,
    ORC_COMP_LZ4 = 4,
    ORC_COMP_ZSTD = 5
} OrcCompression;

const char *orc_compression_name(OrcCompression c); /* "ZLIB", ... */
/* (Addition.) The kind an orc.compress value names (any case), among the
 * ones comb writes: NONE, ZLIB, SNAPPY, LZ4, ZSTD (not LZO).  false
 * otherwise (*out untouched). */
bool orc_compression_parse(const char *name, OrcCompression *out);

/* ----------------------------------------------------------------- writer */

/*
 * A writer holds no file descriptor between calls: the file is created
 * (and its magic written) by orc_writer_open, each stripe is appended by
 * opening, writing and closing it, and orc_writer_close appends the tail
 * and fsyncs.  Any number of writers can be open at once within a small
 * limit of open files.  Memory is the pending stripe's buffers; writers
 * that share an OrcWriterGroup also share one budget for those buffers
 * (ORC's MemoryManager) and one compressor.
 */
typedef struct OrcWriter OrcWriter;
typedef struct OrcWriterGroup OrcWriterGroup;

typedef struct OrcWriterOptions {
    OrcCompression compression;      /* default ORC_COMP_ZLIB */
    uint64_t compression_block_size; /* default 256 KiB */
    uint64_t stripe_size;            /* buffered bytes that trigger a stripe
                                        flush; default 64 MiB */
    /* orc.dictionary.key.threshold: a string, varchar or char column of a
     * stripe is written DICTIONARY_V2 when its distinct values / non-null
     * values <= this (ORC Java's rule), else DIRECT_V2; 0..1, default
     * 0.8; 0 never uses a dictionary, 1 always */
    double dictionary_key_threshold;
    /* orc.row.index.stride: a ROW_INDEX entry (stream positions and
     * statistics) every this many rows of each stripe; 0 = no index
     * (orc.create.index=false).  Default 10000. */
    uint32_t row_index_stride;
    /* orc.bloom.filter.columns: column ids (pre-order, as in the footer)
     * that get a BLOOM_FILTER_UTF8 stream (one filter per row group; needs
     * the row index).  Copied by orc_writer_open.  Compound columns have
     * none (ignored). */
    const int *bloom_columns;
    int n_bloom_columns;
    /* orc.bloom.filter.fpp: false-positive rate the filters are sized for
     * (ORC's formula on row_index_stride entries), 0 < fpp < 1; 0.05 */
    double bloom_fpp;
    /* Called just before a stripe is written, after its last row was
     * added (also for the final stripe, inside orc_writer_finish, and for
     * a stripe the group's budget forces out while another writer of the
     * group is written to).  The ACID writer records its key index here.
     * May be NULL. */
    int (*on_stripe)(void *ctx, uint64_t stripe_rows, CombErr *err);
    void *ctx;
    /* Share a memory budget and compressor with the group's other
     * writers (all of one compression kind); NULL = on its own. */
    OrcWriterGroup *group;
} OrcWriterOptions;

/* A group whose writers together hold at most about `budget` bytes of
 * pending stripe data: after a write pushes the sum over it, the largest
 * pending stripes are written out early and their buffers freed, until
 * the sum is within budget again.  budget > 0. */
int orc_writer_group_new(uint64_t budget, OrcWriterGroup **out,
                         CombErr *err);
/* Every writer of the group must be closed or aborted first.  NULL ok. */
void orc_writer_group_free(OrcWriterGroup *g);
/* Bytes the group's writers hold for their pending stripes now. */
uint64_t orc_writer_group_bytes(const OrcWriterGroup *g);

/* Defaults as documented above. */
void orc_writer_options_default(OrcWriterOptions *opt);

/* Whether v is a vector tree for type t: the payload arrays each kind
 * needs, a null mask, and children matching t's parts (integer kinds of
 * any width fit each other, as do the string kinds). */
bool orc_vec_fits(const CombVector *v, const CombType *t);

/* Create `path` (truncating) for a file of type `schema` (ids assigned by
 * the writer; the tree is copied).  Every kind can be written except
 * uniontype (COMB_EUNSUPPORTED: Hive tables never store one); a decimal
 * needs precision 1..38 and scale 0..precision (COMB_EINVALID). */
int orc_writer_open(const char *path, const CombType *schema,
                    const OrcWriterOptions *opt, OrcWriter **out,
                    CombErr *err);

/* Append the first b->n_rows rows of b (selection ignored), laid out as
 * described at the top: one tree vector per root field.  A decimal that
 * does not fit its column's precision or a nanosecond count outside
 * 0..999999999 is COMB_EINVALID (nothing of the batch is written).  In a
 * group, this may write out a stripe of another writer of the group (its
 * on_stripe runs); an error doing so fails that writer and is returned
 * here. */
int orc_writer_write(OrcWriter *w, const CombBatch *b, CombErr *err);

/* The same for rows rows[0..n) of b, in that order (any row indexes below
 * b->capacity, repeats allowed); b->n_rows is ignored. */
int orc_writer_write_rows(OrcWriter *w, const CombBatch *b,
                          const uint32_t *rows, int n, CombErr *err);

/* Rows added so far. */
uint64_t orc_writer_rows(const OrcWriter *w);

/* Flush the pending stripe (calls on_stripe if it has rows).  After this
 * only orc_writer_set_metadata and orc_writer_close are allowed. */
int orc_writer_finish(OrcWriter *w, CombErr *err);

/* (Addition; streaming ingest.) Write the pending stripe now, if it has
 * rows (its on_stripe runs); writing goes on in a new stripe. */
int orc_writer_flush_stripe(OrcWriter *w, CombErr *err);

/* (Addition; streaming ingest, hive-acid-storage.md 1.7.) Write the
 * pending stripe, then stripe statistics, footer (with the metadata set so
 * far) and postscript after it, and fsync: the file read up to *length is
 * a complete ORC file of every row written so far.  Later stripes are
 * appended after that tail, which stays in place (as ORC's
 * writeIntermediateFooter on an append-only file: a reader may hold the
 * old length), and the next tail or orc_writer_close's lists them all.
 * With no new stripe since the last tail, nothing is written and *length
 * is the last one's. */
int orc_writer_flush_footer(OrcWriter *w, uint64_t *length, CombErr *err);

/* Add (or replace) a user metadata entry written in the footer. */
int orc_writer_set_metadata(OrcWriter *w, const char *key, const void *val,
                            size_t len, CombErr *err);

/* Finish if not done, write footer and postscript, fsync, close, free w.
 * On error the file is removed and w freed as well. */
int orc_writer_close(OrcWriter *w, CombErr *err);

/* Close and remove the file without finishing it; frees w.  NULL ok. */
void orc_writer_abort(OrcWriter *w);
/* (Addition; streaming ingest.) Free w and leave its file as it is: what
 * orc_writer_flush_footer last committed stays readable at that length
 * (a streaming writer that fails or is closed abnormally).  NULL ok. */
void orc_writer_detach(OrcWriter *w);

/* ----------------------------------------------------------------- reader */

typedef struct OrcReader OrcReader;

typedef struct OrcStripeInfo {
    uint64_t offset;
    uint64_t index_length;
    uint64_t data_length;
    uint64_t footer_length;
    uint64_t n_rows;
} OrcStripeInfo;

typedef struct OrcColumnStats {
    uint64_t n_values;          /* non-null values */
    bool has_null;
    bool has_int;  int64_t int_min, int_max;   /* integer kinds, date */
    bool has_sum;  int64_t int_sum;            /* absent on overflow */
    bool has_double; double dbl_min, dbl_max;  /* with values */
    bool has_dbl_sum; double dbl_sum;           /* 0 when absent */
    bool has_string; CombStr str_min, str_max; int64_t str_sum_len;
    bool has_bucket; uint64_t true_count;      /* boolean */
    /* decimal: Hive's text of the values (trailing zeros trimmed) */
    bool has_decimal; CombStr dec_min, dec_max;
    bool has_dec_sum; CombStr dec_sum;         /* absent on overflow */
    /* timestamp: milliseconds since 1970 of the wall clock (the UTC
     * fields ORC writers fill since ORC-135, else the older local ones)
     * and the nanoseconds within the millisecond (0..999999) */
    bool has_timestamp; int64_t ts_min_ms, ts_max_ms;
    int32_t ts_min_nanos, ts_max_nanos;
    bool ts_local;  /* only the older fields: milliseconds of the instant,
                       which the writer's zone makes a wall clock */
    /* list, map: children per non-null row */
    bool has_collection; uint64_t min_children, max_children;
    uint64_t total_children;
    uint64_t bytes_on_disk;     /* 0 when the writer did not say */
} OrcColumnStats;

/* Open and validate the file tail (postscript, footer, metadata).  A
 * truncated or malformed file gives COMB_ECORRUPT with the path. */
int orc_reader_open(const char *path, OrcReader **out, CombErr *err);
/* A hint that paths are about to be opened (in this order): on an object
 * store their tails, what an open reads first, are fetched now, several
 * at once (fs_prefetch_tails). */
void orc_prefetch_tails(const char *const *paths, int n);
void orc_reader_close(OrcReader *r);  /* NULL ok */
/* (Addition; streaming ingest.) orc_reader_open of the file's first
 * `length` bytes, the rest ignored: the tail is read at that offset (a
 * growing file's committed length, hive-acid-storage.md 1.7).
 * ORC_WHOLE_FILE: the whole file.  A length beyond the file is
 * COMB_ECORRUPT naming the file and both lengths. */
#define ORC_WHOLE_FILE UINT64_MAX
int orc_reader_open_length(const char *path, uint64_t length, OrcReader **out,
                           CombErr *err);

/* Buffers and codec state handed from one reader to the next: a scan over
 * many small files (ACID deltas) opens each with the same pool, so stream
 * and decompression buffers and zlib's window are allocated once instead
 * of per file.  One pool per thread; it must outlive the readers using it
 * and holds a bounded number of buffers. */
typedef struct OrcReadPool OrcReadPool;
OrcReadPool *orc_read_pool_new(void);        /* NULL: out of memory */
void orc_read_pool_free(OrcReadPool *p);     /* NULL ok */
/* orc_reader_open_length with its buffers, arena (footer, schema), codec
 * and column states taken from p (NULL: none) and given back when it is
 * closed. */
int orc_reader_open_pool(const char *path, uint64_t length, OrcReadPool *p,
                         OrcReader **out, CombErr *err);

const CombType *orc_reader_schema(const OrcReader *r);
int orc_reader_n_columns(const OrcReader *r);
uint64_t orc_reader_n_rows(const OrcReader *r);
OrcCompression orc_reader_compression(const OrcReader *r);
uint64_t orc_reader_compression_block_size(const OrcReader *r);
uint32_t orc_reader_row_index_stride(const OrcReader *r);
/* "0.12" etc. and the footer writer id / writer version. */
const char *orc_reader_file_version(const OrcReader *r);
uint32_t orc_reader_writer_version(const OrcReader *r);
uint64_t orc_reader_file_length(const OrcReader *r);

int orc_reader_n_stripes(const OrcReader *r);
int orc_reader_stripe_info(const OrcReader *r, int stripe, OrcStripeInfo *out);

/* User metadata.  Values are borrowed from the reader. */
int orc_reader_n_metadata(const OrcReader *r);
void orc_reader_metadata_at(const OrcReader *r, int i, const char **key,
                            const void **val, size_t *len);
/* true if key is present. */
bool orc_reader_metadata(const OrcReader *r, const char *key,
                         const void **val, size_t *len);

/* File-level statistics of one column (borrowed strings). */
int orc_reader_column_stats(const OrcReader *r, int column,
                            OrcColumnStats *out);
/* Stripe-level statistics (from the file's Metadata section); COMB_ENOTFOUND
 * if the file has none. */
int orc_reader_stripe_stats(OrcReader *r, int stripe, int column,
                            OrcColumnStats *out, CombErr *err);

/* Encoding of each column in a stripe: names "DIRECT", "DIRECT_V2",
 * "DICTIONARY", "DICTIONARY_V2" and dictionary sizes, written to the
 * arrays (n = number of columns). */
int orc_reader_stripe_encodings(OrcReader *r, int stripe, const char **kinds,
                                uint32_t *dict_sizes, CombErr *err);

/* Choose the columns to decode (include[id], NULL = all).  Ancestors of an
 * included column are included automatically.  Must be called before the
 * first orc_reader_next.  Excluded columns are left untouched in batches. */
int orc_reader_select(OrcReader *r, const bool *include, CombErr *err);

/* Allocate a batch for this file's columns, laid out as described at the
 * top (types borrowed from the reader). */
int orc_reader_batch_init(const OrcReader *r, CombBatch *b, int capacity);

/* Decode the next rows into b (b from orc_reader_batch_init or with the
 * same layout): b->n_rows = rows decoded, 0 at end of file.  A batch
 * never spans two stripes.  List and map children grow to the elements
 * the rows hold (comb_vec_reserve).  Strings are not copied: they point
 * into the reader's buffers (the read piece or decompressed chunk of their
 * stream, a spill buffer when a batch's bytes span two of those, or the
 * stripe's dictionary), which the next orc_reader_next may overwrite:
 * they stay valid until the next orc_reader_next or orc_reader_close, no
 * longer (copy what must outlive the batch).  Decimals that do not fit
 * their column's precision after rescaling read as NULL (Hive's rule);
 * bad bytes give COMB_ECORRUPT; a writer time zone missing from the
 * system's zoneinfo gives COMB_EUNSUPPORTED. */
int orc_reader_next(OrcReader *r, CombBatch *b, CombErr *err);

/* Row number (0-based, file-wide) of the first row the next call returns
 * when no filter skips rows (with one, the next batch may start later:
 * orc_reader_batch_row says where a batch's rows are). */
uint64_t orc_reader_row_number(const OrcReader *r);

/* ------------------------------------------------- row index, bloom filters
 *
 * A file written with a row index (orc_reader_row_index_stride > 0) has,
 * per stripe and column, a ROW_INDEX stream: one entry per row group of
 * `stride` rows (the last one shorter) with the group's statistics and the
 * stream positions a reader seeks to; and for some columns a bloom filter
 * per row group (BLOOM_FILTER_UTF8, or the older BLOOM_FILTER).  They are
 * read on demand, a stripe and the asked-for columns at a time: only those
 * streams' bytes are read.
 */

/* The index of one stripe, for the columns asked for.  Owned by the
 * reader: valid until the next orc_reader_stripe_index call or
 * orc_reader_close. */
typedef struct OrcStripeIndex OrcStripeIndex;

/* One bloom filter (ORC's BloomFilter: k hash functions over n_bits bits,
 * Murmur3 64-bit for bytes, Thomas Wang's 64-bit hash for longs). */
typedef struct OrcBloom {
    uint32_t n_hash;
    uint64_t n_bits;          /* a multiple of 64 */
    const uint64_t *bits;     /* n_bits / 64 words, bit i in word i / 64 */
} OrcBloom;

/* Row groups of a stripe: ceil(rows / stride), 1 when the file has no
 * row index (the whole stripe is then one group). */
uint32_t orc_reader_stripe_groups(const OrcReader *r, int stripe);

/* Read stripe `stripe`'s ROW_INDEX streams of the columns with
 * columns[id] true (NULL = all) and, with `blooms`, their bloom filter
 * streams.  Damaged or missing streams do not fail: the column then has
 * no index (orc_stripe_index_has false) and push-down must keep all its
 * groups; an I/O error does.  *out is owned by the reader. */
int orc_reader_stripe_index(OrcReader *r, int stripe, const bool *columns,
                            bool blooms, const OrcStripeIndex **out,
                            CombErr *err);
uint32_t orc_stripe_index_groups(const OrcStripeIndex *x);
/* Whether column's row index was read and is sound (entry count, position
 * counts for its encoding, statistics). */
bool orc_stripe_index_has(const OrcStripeIndex *x, int column);
/* Statistics of row group `group` of the column (strings borrowed from the
 * index); COMB_ENOTFOUND when the column has no usable index or the entry
 * has no statistics. */
int orc_stripe_index_stats(const OrcStripeIndex *x, int column, int group,
                           OrcColumnStats *out);
/* The bloom filter of row group `group`, NULL when the column has none
 * that can be trusted (none written, damaged, or an old BLOOM_FILTER of a
 * kind its writer hashed wrongly). */
const OrcBloom *orc_stripe_index_bloom(const OrcStripeIndex *x, int column,
                                       int group);

/* Membership tests as ORC's readers make them: false means the value is
 * certainly not in the group.  Longs for integer kinds, dates (days),
 * booleans (0/1) and timestamps (seconds * 1000 + nanos / 1000000 of the
 * wall clock, seconds floored: ORC C++'s millisecond of the instant with
 * writer zone UTC); doubles for float and double (floats widened);
 * strings for string, varchar, char and binary bytes and for decimals
 * (Hive's text, trailing zeros trimmed, as orc_decimal_text gives it). */
bool orc_bloom_might_contain_long(const OrcBloom *b, int64_t v);
bool orc_bloom_might_contain_double(const OrcBloom *b, double v);
bool orc_bloom_might_contain_string(const OrcBloom *b, const char *p,
                                    size_t len);
/* The same for a decimal (unscaled at `scale`) and a timestamp (wall-clock
 * seconds and nanos), turned into what the filters hold as above. */
bool orc_bloom_might_contain_decimal(const OrcBloom *b, comb_i128 unscaled,
                                     int scale);
bool orc_bloom_might_contain_timestamp(const OrcBloom *b, int64_t secs,
                                       int32_t nanos);

/* Push-down: called once per stripe before any of its bytes are read,
 * with keep[0..n_groups) all 1 (n_groups = orc_reader_stripe_groups).  The
 * filter clears the groups that cannot hold a wanted row (it may call
 * orc_reader_stripe_stats / orc_reader_stripe_index); all cleared skips
 * the stripe without reading it.  The scan then seeks every selected
 * stream to each kept group's recorded positions and never reads or
 * decompresses the chunks that hold only skipped groups.  A stripe
 * whose index is missing or damaged for a selected column is read whole
 * (rows are never wrong; callers filter the rows exactly anyway).  A
 * non-zero return fails orc_reader_next with it. */
typedef int (*OrcGroupFilter)(void *ctx, OrcReader *r, int stripe,
                              uint32_t n_groups, uint8_t *keep,
                              CombErr *err);
/* Install (f NULL: remove) before the first orc_reader_next. */
void orc_reader_set_filter(OrcReader *r, OrcGroupFilter f, void *ctx);

/* Parallel scans: called once per stripe, in stripe order, before the
 * filter; false skips the stripe unread (another reader of the same file
 * takes it) without counting it as skipped.  Install (NULL: remove)
 * before the first orc_reader_next. */
typedef bool (*OrcStripeGate)(void *ctx);
void orc_reader_set_gate(OrcReader *r, OrcStripeGate gate, void *ctx);

/* With a filter, batches never span a skipped group: the rows of the
 * last batch are file rows [orc_reader_batch_row, + n_rows). */
uint64_t orc_reader_batch_row(const OrcReader *r);

/* How many of the last values decoded for integer column `column` (a
 * bigint, int, smallint or date; its non-NULL values) are known, from
 * the RLE v2 runs they came from, to rise by exactly 1 each, without
 * looking at them: a batch of n rows of a column without NULLs holds
 * consecutive values when it is >= n.  0 when unknown (other runs, other
 * kinds, a column not read). */
uint64_t orc_reader_column_streak(const OrcReader *r, int column);

/* What a scan read, for tests and EXPLAIN-like counters. */
typedef struct OrcReadCounters {
    uint64_t stripes_read, stripes_skipped;
    uint64_t groups_read, groups_skipped;  /* row groups */
    uint64_t bytes_read;        /* of stripe data and index streams */
    uint64_t chunks_decompressed;
} OrcReadCounters;
void orc_reader_counters(const OrcReader *r, OrcReadCounters *out);
void orc_read_counters_add(OrcReadCounters *sum, const OrcReadCounters *c);

/* ---------------------------------------------------- predicate push-down */

struct OrcSarg;

/* Skip what the search argument (orc/sarg.h) proves holds no row it
 * keeps, through the group filter above (which it installs): the whole
 * file by its file statistics, stripes by their stripe statistics, row
 * groups by their row index statistics and bloom filters.  columns[i] is
 * the ORC column id of sarg->leaves[i] in this file, -1 when the file has
 * no column to test it on (the leaf is then unknown).  Both are borrowed
 * until the reader is closed.  Must be called before the first
 * orc_reader_next.  Statistics that cannot be read (a damaged metadata
 * section or index) skip nothing. */
int orc_reader_set_sarg(OrcReader *r, const struct OrcSarg *sarg,
                        const int *columns, CombErr *err);

/* ------------------------------------------------------------------- dump */

typedef enum OrcDumpMode {
    /* like Hive's orcfiledump: file version, rows, compression, type,
     * stripe and file statistics, stripes with streams and encodings,
     * user metadata */
    ORC_DUMP_META,
    /* like Hive's `orcfiledump -d`: one compact JSON object per row
     * ({"a":1,"d":"1.5","m":[{"_key":"k","_value":2}]}) */
    ORC_DUMP_ROWS,
    /* one row per line as ORC C++'s orc-contents prints it
     * ({"a": 1, "d": 1.50, "m": [{"key": "k", "value": 2}]}), the form of
     * the ORC project's expected test dumps */
    ORC_DUMP_CONTENTS
} OrcDumpMode;

/* Print the file at path in the given mode.  Returns an rc; on error
 * nothing further is printed. */
int orc_dump(const char *path, OrcDumpMode mode, FILE *out, CombErr *err);

/* `comb orcfiledump`'s switches for the metadata listing. */
typedef struct OrcDumpOptions {
    bool json;            /* -j: JsonFileDump's form */
    bool pretty;          /* -p: ... indented */
    bool timezone;        /* -t: each stripe's writer time zone */
    const int *rowindex;  /* --rowindex=1,2: row group indexes and bloom */
    int n_rowindex;       /*   filters of these column ids, in this order */
    bool rowindex_all;    /* --rowindex=*: of every column */
} OrcDumpOptions;

/* The metadata listing of one file as Hive's orcfiledump prints it (ORC
 * Java's FileDump, ORC 1.8), closed by its separator line; an --rowindex
 * column the file does not have is COMB_EINVALID. */
int orc_dump_metadata(const char *path, const OrcDumpOptions *opt, FILE *out,
                      CombErr *err);
/* The files' metadata as JsonFileDump prints it: one object, or an array
 * of them for more than one file; printed only when every file could be
 * read. */
int orc_dump_json(const char *const *paths, int n, const OrcDumpOptions *opt,
                  FILE *out, CombErr *err);
/* The files the paths name: a directory stands for every file below it
 * (recursively, in name order) but hidden ones (names starting with '_'
 * or '.') and ACID side files (..._flush_length), as Hive's orcfiledump
 * lists them.  *out is comb_malloc'd (the names are in arena a). */
int orc_dump_expand_paths(const char *const *paths, int n, CombArena *a,
                          char ***out, int *n_out, CombErr *err);

#endif
