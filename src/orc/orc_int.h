/*
 * orc_int.h - private helpers shared by the files of the orc/ layer:
 * protobuf glue, compression codecs, run-length decoders and encoders,
 * column statistics accumulators, type-tree conversion and the stripe
 * footer access the dump needs.  Nothing here is part of the contract.
 */
#ifndef COMB_ORC_INT_H
#define COMB_ORC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "fs/fs.h"
#include "orc/orc.h"
#include "orc/orc_proto.pb-c.h"
#include "orc/sarg.h"

#define ORC_MAGIC "ORC"
#define ORC_MAGIC_LEN 3
/* Type trees deeper than this are refused (they only come from garbage). */
#define ORC_MAX_DEPTH 100
/* A chunk header holds a 23-bit length. */
#define ORC_MAX_CHUNK ((1u << 23) - 1)
/* RLE v2 runs hold at most 512 values. */
#define ORC_RLE2_MAX 512
/* List and map elements of one batch beyond this are refused: a length
 * stream can claim any count cheaply. */
#define ORC_MAX_BATCH_ELEMENTS (1 << 26)
/* ORC timestamps count seconds from 2015-01-01 00:00:00 in the writer's
 * zone; this is that moment in UTC. */
#define ORC_TS_BASE_UTC INT64_C(1420070400)

/* Writer identity written in the footer: 1 is the ORC C++ id, the id the
 * spec gives a non-Java writer of the reference family; writer version 6
 * (ORC-135) says statistics and encodings are all current. */
#define ORC_WRITER_ID 1
#define ORC_WRITER_VERSION 6

/* protobuf-c allocations go through comb's allocator. */
extern ProtobufCAllocator orc_pb_alloc;

/* Unpack a protobuf message with comb's allocator (free it with
 * orc_pb_alloc).  COMB_ENOMEM when an allocation failed, COMB_ECORRUPT
 * when the bytes do not parse; no error text is set. */
int orc_pb_unpack(const ProtobufCMessageDescriptor *desc, size_t len,
                  const uint8_t *data, ProtobufCMessage **out);
/* The same with every allocation in arena (never freed by itself: it goes
 * with the arena). */
int orc_pb_unpack_arena(CombArena *arena,
                        const ProtobufCMessageDescriptor *desc, size_t len,
                        const uint8_t *data, ProtobufCMessage **out);
/* A fresh, initialised message of type desc in arena a; NULL when out of
 * memory. */
void *orc_pb_new(CombArena *a, const ProtobufCMessageDescriptor *desc);

static inline uint64_t orc_zigzag_enc(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t orc_zigzag_dec(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* ------------------------------------------------------------ compression */

/* Reusable compressor/decompressor state (zlib streams, scratch). */
typedef struct OrcCodec OrcCodec;

int orc_codec_new(OrcCompression c, OrcCodec **out, CombErr *err);
void orc_codec_free(OrcCodec *c);
/* Whether comb can decode this compression kind (all but LZO can also be
 * written). */
bool orc_compression_supported(OrcCompression c);
bool orc_compression_writable(OrcCompression c);

/* Undo ORC's chunked compression of src into out (cleared first).  With
 * ORC_COMP_NONE the bytes are copied.  `what` names the stream in errors. */
int orc_codec_decompress(OrcCodec *c, uint64_t block_size,
                         const uint8_t *src, size_t len, CombBuf *out,
                         const char *path, const char *what, CombErr *err);
/* The body length and kind of the chunk whose 3-byte header is at p. */
static inline void orc_chunk_header(const uint8_t *p, size_t *clen,
                                    bool *original)
{
    uint32_t h = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    *clen = h >> 1;
    *original = h & 1;
}
/* Decompress one chunk body (clen bytes at src; its header was at byte
 * `at` of column `column`'s stream `stream`, named in errors) into dec,
 * replacing what dec held; at most block_size bytes. */
int orc_codec_decode_chunk(OrcCodec *c, uint64_t block_size,
                           const uint8_t *src, size_t clen, CombBuf *dec,
                           const char *path, int column, const char *stream,
                           size_t at, CombErr *err);
/* orc_codec_compress stores a chunk shorter than this original without
 * running the codec: compressing it saves a few bytes at most (on the
 * streaming bench's 1,000-row stripes ~30 of ~40 streams are this short;
 * together they shrank by 0.3% of the stripe) and costs a codec call each
 * (~5 us for ZLIB, whose reset clears a 64 KiB hash table), which was most
 * of a small stripe's compression time.  Chunk boundaries stay at
 * multiples of the block size, so row index positions are unchanged. */
#define ORC_MIN_COMPRESSED_CHUNK 64
/* orc_codec_compress_data stores a ZLIB chunk original also when
 * compressing it saves less than 1/ORC_MIN_SAVING of it: inflating
 * near-random bytes (RLE-encoded scattered ids, ~4% smaller under zlib)
 * costs a reader ~15 instructions a byte to save a few percent of space,
 * where an original chunk is a copy (bench/compaction's 50 deltas: a fifth
 * of the scan's inflate).  The other codecs decode such bytes at about
 * copy speed and keep any saving. */
#define ORC_MIN_SAVING 8
/* Append src to out in ORC's chunked compressed form: chunks of the block
 * size (the last one shorter), each compressed, or original when that
 * does not shrink it or it is shorter than ORC_MIN_COMPRESSED_CHUNK. */
int orc_codec_compress(OrcCodec *c, uint64_t block_size, const uint8_t *src,
                       size_t len, CombBuf *out, CombErr *err);
/* orc_codec_compress for a column's data streams (what a scan inflates
 * row by row): a ZLIB chunk is compressed only when that saves at least
 * 1/ORC_MIN_SAVING of it.  Row index and bloom filter streams and the tail
 * keep orc_codec_compress: they are read once per file or row group. */
int orc_codec_compress_data(OrcCodec *c, uint64_t block_size,
                            const uint8_t *src, size_t len, CombBuf *out,
                            CombErr *err);
/* orc_codec_compress for a stripe footer or the file footer: under ZLIB
 * one shorter than ORC_MIN_INFLATED_TAIL is stored original.  Every file a
 * scan opens costs an inflate of each (~16,000 instructions apiece, most
 * of it building the Huffman tables of a block of a few hundred bytes),
 * which on a table of many small deltas was 1.5% of the scan; the space is
 * a few hundred bytes a file. */
#define ORC_MIN_INFLATED_TAIL 1024
int orc_codec_compress_tail(OrcCodec *c, uint64_t block_size,
                            const uint8_t *src, size_t len, CombBuf *out,
                            CombErr *err);

/* ---------------------------------------------------- decoders (reading) */

/* Where a stream of a stripe comes from: the file, read a piece at a
 * time into `raw`, and for a compressed file its chunks, decompressed
 * one at a time into `dec` (an original chunk is used in `raw`).  So a
 * stream costs a read piece and a chunk of memory, whatever its size. */
/* The last bytes of a file (all of a small one), read in one go when it
 * is opened: the postscript, footer and metadata lie there, and in a
 * small file every stripe too, so reads that fall inside are copied from
 * memory instead of costing a system call each. */
typedef struct OrcTail {
    CombBuf buf;
    uint64_t off;         /* file offset of buf.data[0] */
    /* on an object store, where every read is a request: the selected
     * streams of the current stripe, fetched in one (buf empty: none) */
    struct OrcTail *window;
} OrcTail;

/* len bytes at file offset off: from the tail or its window when they lie
 * inside, else read from the file. */
int orc_file_read(FsFile *file, const OrcTail *tail, void *dst, size_t len,
                  uint64_t off, CombErr *err);

typedef struct OrcChunks {
    FsFile *file;
    const OrcTail *tail;  /* the file's last bytes, read at open; NULL ok */
    uint64_t off, end;    /* the stored bytes not read yet */
    uint64_t done;        /* stored bytes before raw's first */
    CombBuf *raw;         /* stored bytes read from the file */
    const uint8_t *stored; /* the stored bytes at hand: raw's, or the
                             tail's own copy of them (no copy made);
                             stored[raw_pos..stored_len) are not used
                             yet */
    size_t stored_len;
    size_t raw_pos;
    OrcCodec *codec;      /* NULL: the stream is stored uncompressed */
    uint64_t block;
    CombBuf *dec;         /* the current chunk, decompressed */
    CombBuf *spill;       /* bytes of one take that span two windows */
    size_t piece;         /* bytes read at a time; 0 = 256 KiB (tests
                             make it small to cut streams anywhere) */
    uint64_t start;       /* the stream's first stored byte in the file */
    uint64_t soft_end;    /* no read-ahead past this (a skipped row group
                             starts there): beyond it only the bytes a
                             chunk needs are read; 0 = none */
    OrcReadCounters *counters;  /* bytes read, chunks decompressed; NULL ok */
    /* dec holds the chunk whose header is at stored offset dec_at (from
     * the stream's start) and ends at dec_end: a seek back into it (the
     * next kept row group in the same chunk) decompresses nothing */
    bool have_dec;
    uint64_t dec_at, dec_end;
} OrcChunks;

/* A cursor over a stream: a window of bytes (the whole stream, or the
 * current chunk of a compressed one) and, for the latter, the chunks
 * after it; path/column/stream name the place in error messages.
 * Decoders look at the window directly for speed (p[pos..len)) and call
 * orc_in_refill when it is used up.  A window's bytes stay put until the
 * stream's next refill. */
typedef struct OrcIn {
    const uint8_t *p;
    size_t len;
    size_t pos;
    OrcChunks *more;      /* NULL: the window is all there is */
    const char *path;
    int column;
    const char *stream;
} OrcIn;

/* A stream held whole in p[0..len). */
void orc_in_init(OrcIn *in, const uint8_t *p, size_t len, const char *path,
                 int column, const char *stream);
/* A stream read piece by piece from `more` (which must outlive in). */
void orc_in_init_chunks(OrcIn *in, OrcChunks *more, const char *path,
                        int column, const char *stream);
/* COMB_ECORRUPT naming the stream and the problem. */
int orc_in_corrupt(const OrcIn *in, const char *what, CombErr *err);
/* No byte left in the window or after it. */
bool orc_in_at_end(const OrcIn *in);
/* Move the window to the next non-empty piece or chunk; COMB_ECORRUPT at
 * the end of the stream ("stream ends before all values were read"). */
int orc_in_refill(OrcIn *in, CombErr *err);
/* The varint at p, where at least 10 bytes may be read: its length, or 0
 * when it is longer than 10 bytes or overflows 64 bits.  Up to 8 bytes
 * (56 bits) are decoded from one load without a branch per byte: the
 * first byte without its top bit ends the varint, and the 7-bit groups
 * are folded together pairwise. */
static inline size_t orc_varint_fast(const uint8_t *p, uint64_t *out)
{
    uint64_t w;
    __builtin_memcpy(&w, p, 8);  /* little-endian: byte 0 lowest */
    uint64_t stop = ~w & 0x8080808080808080ull;
    if (stop) {
        int len = __builtin_ctzll(stop) / 8 + 1;
        uint64_t x = w & 0x7f7f7f7f7f7f7f7full;
        if (len < 8)
            x &= (1ull << (8 * len)) - 1;
        x = (x & 0x007f007f007f007full) | ((x & 0x7f007f007f007f00ull) >> 1);
        x = (x & 0x00003fff00003fffull) | ((x & 0x3fff00003fff0000ull) >> 2);
        x = (x & 0x000000000fffffffull) | ((x & 0x0fffffff00000000ull) >> 4);
        *out = x;
        return (size_t)len;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < 10; i++) {
        uint8_t b = p[i];
        if (i == 9 && (b & 0xfe))
            return 0;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return i + 1;
        }
    }
    return 0;
}
/* The out-of-line halves of the two below: a take spanning windows, a
 * varint near a window's end or a bad one. */
int orc_in_take_slow(OrcIn *in, size_t n, const uint8_t **p,
                     size_t *readable, CombErr *err);
int orc_in_varint_slow(OrcIn *in, uint64_t *out, CombErr *err);

/* Take n raw bytes; *p points into the window, or, when they span
 * chunks, into the stream's spill buffer (valid until the next take from
 * the stream).  *readable (may be NULL) = bytes that may be read from *p,
 * at least n; a spill has 8 zero bytes after the n.  Inline: decoders
 * take once per run. */
static inline int orc_in_take_ex(OrcIn *in, size_t n, const uint8_t **p,
                                 size_t *readable, CombErr *err)
{
    if (in->len - in->pos >= n) {
        *p = in->p ? in->p + in->pos : (const uint8_t *)"";
        if (readable)
            *readable = in->len - in->pos;
        in->pos += n;
        return COMB_OK;
    }
    return orc_in_take_slow(in, n, p, readable, err);
}

static inline int orc_in_take(OrcIn *in, size_t n, const uint8_t **p,
                              CombErr *err)
{
    return orc_in_take_ex(in, n, p, NULL, err);
}

static inline int orc_in_varint(OrcIn *in, uint64_t *out, CombErr *err)
{
    size_t n;
    if (in->len - in->pos >= 10 &&
        (n = orc_varint_fast(in->p + in->pos, out)) != 0) {
        in->pos += n;
        return COMB_OK;
    }
    return orc_in_varint_slow(in, out, err);
}
/* Copy the next n bytes to dst. */
int orc_in_read(OrcIn *in, void *dst, size_t n, CombErr *err);
/* Move a stream read from chunks to a recorded row-index position: the
 * stored offset `stored` (of a compressed chunk's header, or the byte of
 * an uncompressed stream) and, compressed, `dec` bytes into that chunk;
 * nothing before it is read.  soft_end: see OrcChunks, as a stored offset
 * like `stored` (ORC_NO_SOFT_END = none; 0 is the stream's start, where
 * the next kept group may begin when the first chunk holds both).
 * COMB_ECORRUPT when the position lies outside the stream. */
#define ORC_NO_SOFT_END UINT64_MAX
int orc_in_seek(OrcIn *in, uint64_t stored, uint64_t dec, uint64_t soft_end,
                CombErr *err);

typedef struct OrcByteDec {
    OrcIn in;
    size_t left;        /* values left in the current run or literal group */
    bool repeat;
    uint8_t value;
} OrcByteDec;

typedef struct OrcBoolDec {
    OrcByteDec bytes;
    uint8_t cur;
    int bits_left;
} OrcBoolDec;

typedef struct OrcIntDec {
    OrcIn in;
    bool is_signed;
    bool v2;
    size_t n, pos;      /* decoded values buffered in buf[pos..n) */
    /* The last `streak` values handed out rise by exactly 1 each (an
     * ACID file's rowIds), as the RLE v2 fixed-step DELTA runs they came
     * from show without looking at them; 0 when unknown.  streak_next
     * is the value that would continue it. */
    uint64_t streak;
    uint64_t streak_next;
    bool run_steps_1;   /* the run just read is +1 steps (from its first) */
    bool buf_steps_1;   /* buf[0..n) is */
    int64_t buf[ORC_RLE2_MAX];
} OrcIntDec;

void orc_byte_dec_init(OrcByteDec *d, const OrcIn *in);
int orc_byte_dec_next(OrcByteDec *d, uint8_t *out, size_t n, CombErr *err);
void orc_bool_dec_init(OrcBoolDec *d, const OrcIn *in);
/* n values of 0 or 1. */
int orc_bool_dec_next(OrcBoolDec *d, uint8_t *out, size_t n, CombErr *err);
void orc_int_dec_init(OrcIntDec *d, const OrcIn *in, bool is_signed, bool v2);
int orc_int_dec_next(OrcIntDec *d, int64_t *out, size_t n, CombErr *err);
/* How many of the values d handed out last are known to rise by exactly 1
 * each (OrcIntDec.streak). */
static inline uint64_t orc_int_dec_streak(const OrcIntDec *d)
{
    return d->streak;
}

/* ---------------------------------------------------- encoders (writing) */

typedef struct OrcByteEnc {
    CombBuf *out;
    int n_lit;
    int run_len;
    uint8_t run_val;
    uint8_t lit[128];
} OrcByteEnc;

typedef struct OrcBoolEnc {
    OrcByteEnc bytes;
    uint8_t cur;
    int n_bits;
} OrcBoolEnc;

typedef struct OrcIntEnc {
    CombBuf *out;
    bool is_signed;
    int n;
    int cap;              /* room in vals; grows up to ORC_RLE2_MAX */
    int64_t *vals;        /* pending values, owned (small stripes stay small) */
} OrcIntEnc;

void orc_byte_enc_init(OrcByteEnc *e, CombBuf *out);
int orc_byte_enc_add(OrcByteEnc *e, uint8_t v);
int orc_byte_enc_flush(OrcByteEnc *e);
void orc_bool_enc_init(OrcBoolEnc *e, CombBuf *out);
int orc_bool_enc_add(OrcBoolEnc *e, bool v);
int orc_bool_enc_flush(OrcBoolEnc *e);
/* Integer RLE v2 (DIRECT_V2 columns). */
void orc_int_enc_init(OrcIntEnc *e, CombBuf *out, bool is_signed);
int orc_int_enc_add(OrcIntEnc *e, int64_t v);
int orc_int_enc_flush(OrcIntEnc *e);
void orc_int_enc_free(OrcIntEnc *e);
/* Encode one group of values with a chosen sub-encoding; used by the
 * encoder and by tests that need a specific form (0..3 = SHORT_REPEAT,
 * DIRECT, PATCHED_BASE, DELTA).  COMB_EINVALID when the values do not fit
 * that form. */
int orc_rle2_write_as(CombBuf *out, bool is_signed, int form,
                      const int64_t *v, int n);

int orc_varint_put(CombBuf *out, uint64_t v);

/* Skip n values (after a seek: the values of a run before a position). */
int orc_byte_dec_skip(OrcByteDec *d, uint64_t n, CombErr *err);
int orc_bool_dec_skip(OrcBoolDec *d, uint64_t n, CombErr *err);
int orc_int_dec_skip(OrcIntDec *d, uint64_t n, CombErr *err);

/* ------------------------------------------------- row index positions
 *
 * A row index entry's positions are, for each stream of the column in a
 * fixed order, the stream's place: for a compressed file the stored
 * offset of the chunk and the bytes into its decompressed form, else the
 * byte offset; then for a run-length stream the values into the run
 * (byte RLE, integer RLE v1/v2), for a boolean stream those bytes' values
 * and the bits into the byte.  The order (the specification's, ORC Java's
 * and C++'s): PRESENT when the stripe has it, then DATA (booleans,
 * tinyints, integers, dates, floats, doubles, string bytes or dictionary
 * ids, binaries, decimals, timestamp seconds, union tags), LENGTH (direct
 * strings and binaries, lists, maps), SECONDARY (decimal scales,
 * timestamp nanos). */
typedef enum OrcPosForm {
    ORC_POS_BYTES,      /* raw bytes: the place only */
    ORC_POS_RLE,        /* byte or integer RLE: + values into the run */
    ORC_POS_BOOL        /* boolean RLE: + byte values + bits */
} OrcPosForm;

typedef struct OrcPosStream {
    int slot;           /* stream kind: PRESENT, DATA, LENGTH, SECONDARY */
    OrcPosForm form;
} OrcPosStream;

#define ORC_POS_MAX_STREAMS 4

/* The streams of a column of this kind and encoding that positions name,
 * in order; returns their count. */
int orc_pos_layout(CombTypeKind kind, int encoding, bool has_present,
                   bool decimal64, OrcPosStream out[ORC_POS_MAX_STREAMS]);
/* Numbers one stream's position takes. */
int orc_pos_width(OrcPosForm form, bool compressed);

/* --------------------------------------------------------- bloom filters */

/* ORC's hashes: Murmur3 64-bit (seed 104729) of bytes, Thomas Wang's
 * 64-bit hash of longs, doubles by their bits. */
uint64_t orc_murmur3_64(const void *data, size_t len);
uint64_t orc_long_hash(int64_t v);
uint64_t orc_double_hash(double v);
/* The long a timestamp's bloom filter entry is (ORC C++'s UTC
 * milliseconds: floored seconds * 1000 + the nanos' milliseconds). */
static inline int64_t orc_timestamp_bloom_millis(int64_t secs, int32_t nanos)
{
    return secs * 1000 + nanos / 1000000;
}
/* Set the k bits of hash h in bits[0..n_bits/64). */
void orc_bloom_add_hash(uint64_t *bits, uint64_t n_bits, uint32_t n_hash,
                        uint64_t h);
/* ORC's sizing: bits for `entries` values at false-positive rate fpp,
 * rounded up past a multiple of 64, and the hash count. */
void orc_bloom_size(uint64_t entries, double fpp, uint64_t *n_bits,
                    uint32_t *n_hash);

/* ------------------------------------------------------------ time zones */

typedef struct OrcTz OrcTz;

/* A zone by the IANA name a stripe footer gives ("UTC",
 * "America/Los_Angeles"), read from $TZDIR or /usr/share/zoneinfo (the
 * UTC aliases need no file).  COMB_EUNSUPPORTED when the database lacks
 * it; names that are not plain relative paths are refused alike. */
int orc_tz_load(const char *name, OrcTz **out, CombErr *err);
/* The process's zone, which ORC readers assume when a stripe names none
 * (0.11 files): $TZ (a name, a path after ':' or '/', or a POSIX rule),
 * else /etc/localtime, else UTC. */
int orc_tz_local(OrcTz **out, CombErr *err);
void orc_tz_free(OrcTz *tz);  /* NULL ok */
/* Seconds east of UTC in force at instant t (seconds since 1970, UTC). */
int32_t orc_tz_offset(const OrcTz *tz, int64_t t);
/* Whether the zone's offset is the same at every instant (UTC and its
 * aliases, rules without daylight time): then *off is it. */
bool orc_tz_fixed(const OrcTz *tz, int32_t *off);
/* The instant of wall-clock seconds w in the zone (w - the offset then
 * in force; at a change the offset before it wins). */
int64_t orc_tz_from_local(const OrcTz *tz, int64_t w);

/* ------------------------------------------------------------- statistics */

typedef struct OrcStatsAcc {
    CombTypeKind kind;
    int scale;              /* decimal: the column's */
    uint64_t n_values;
    bool has_null;
    bool sum_ok;            /* integer or decimal sum has not overflowed */
    int64_t imin, imax, isum;
    double dmin, dmax, dsum;
    CombBuf smin, smax;     /* string min/max, valid when n_values > 0 */
    int64_t len_sum;        /* string / binary total length */
    uint64_t true_count;
    comb_i128 cmin, cmax, csum;   /* decimal, unscaled at `scale` */
    int64_t tmin, tmax;     /* timestamp: wall-clock milliseconds */
    int32_t tmin_nanos, tmax_nanos;  /* ... and nanos within them */
    uint64_t kmin, kmax, ksum;     /* list, map: children per row */
} OrcStatsAcc;

void orc_stats_init(OrcStatsAcc *s, const CombType *t);
void orc_stats_reset(OrcStatsAcc *s);
void orc_stats_free(OrcStatsAcc *s);
int orc_stats_add_str(OrcStatsAcc *s, const char *p, uint32_t len);
void orc_stats_add_decimal(OrcStatsAcc *s, comb_i128 v);
/* millis as ORC Java computes them from the written seconds; nanos the
 * value's nanoseconds within that millisecond */
void orc_stats_add_timestamp(OrcStatsAcc *s, int64_t millis, int32_t nanos);
void orc_stats_add_children(OrcStatsAcc *s, uint64_t n);
int orc_stats_merge(OrcStatsAcc *dst, const OrcStatsAcc *src);
/* Fill a protobuf message; nested messages come from arena a. */
int orc_stats_to_proto(const OrcStatsAcc *s, Orc__Proto__ColumnStatistics *pb,
                       CombArena *a);
void orc_stats_from_proto(const Orc__Proto__ColumnStatistics *pb,
                          OrcColumnStats *out);

static inline void orc_stats_add_int(OrcStatsAcc *s, int64_t v)
{
    if (s->n_values == 0) {
        s->imin = s->imax = v;
    } else {
        if (v < s->imin)
            s->imin = v;
        if (v > s->imax)
            s->imax = v;
    }
    if (s->sum_ok && __builtin_add_overflow(s->isum, v, &s->isum))
        s->sum_ok = false;
    s->n_values++;
}

static inline void orc_stats_add_double(OrcStatsAcc *s, double v)
{
    if (s->n_values == 0) {
        s->dmin = s->dmax = v;
    } else {
        if (v < s->dmin)
            s->dmin = v;
        if (v > s->dmax)
            s->dmax = v;
    }
    s->dsum += v;
    s->n_values++;
}

/* ------------------------------------------------------------------ types */

/* Build the tree from the footer's flat type list (validated: pre-order
 * ids, child counts, field names, depth). */
int orc_type_from_proto(CombArena *a, Orc__Proto__Type **types, size_t n,
                        CombType **out, const char *path, CombErr *err);
/* Flatten a numbered tree into footer types (arena memory). */
int orc_type_to_proto(CombArena *a, const CombType *root,
                      Orc__Proto__Type ***out, size_t *n);
/* Whether the writer encodes this kind. */
bool orc_kind_writable(CombTypeKind k);
/* Fields of the batch layout (orc.h): the root's fields for a struct
 * root, else the root alone. */
int orc_batch_n_cols(const CombType *root);
const CombType *orc_batch_col_type(const CombType *root, int i);

/* Hive's text of a decimal (trailing fraction zeros trimmed, "0" for
 * zero) into buf (64 bytes suffice); returns the length. */
size_t orc_decimal_text(comb_i128 u, int scale, char *buf, size_t cap);

/* ------------------------------------------------- reader internals (dump) */

/* The stripe footer of stripe i in the reader's stripe arena, valid until
 * the next call (nothing to free). */
int orc_reader_stripe_footer_scratch(OrcReader *r, int stripe,
                                     Orc__Proto__StripeFooter **out,
                                     CombErr *err);
/* Unpacked stripe footer of stripe i; free with orc_stripe_footer_free. */
int orc_reader_stripe_footer(OrcReader *r, int stripe,
                             Orc__Proto__StripeFooter **out, CombErr *err);
void orc_stripe_footer_free(Orc__Proto__StripeFooter *sf);
const Orc__Proto__ReaderFooter *orc_reader_footer(const OrcReader *r);
/* The file statistics of one column as their message, unpacked from the
 * footer's bytes on first use into the reader's arena (borrowed, valid
 * while the reader is open).  COMB_ENOTFOUND when the footer has none
 * for the column, COMB_ECORRUPT when they do not parse, COMB_ENOMEM. */
int orc_reader_column_stats_pb(const OrcReader *r, int column,
                               const Orc__Proto__ColumnStatistics **out);
/* Unpacks every column's file statistics: COMB_ECORRUPT naming the file
 * when one does not parse (the dumps, which show them all, check first). */
int orc_reader_check_stats(const OrcReader *r, CombErr *err);
/* The footer's types unpacked (footer->n_types of them, borrowed, in the
 * reader's arena), on first use; COMB_ECORRUPT naming the file when one
 * does not parse, COMB_ENOMEM. */
int orc_reader_types(const OrcReader *r, Orc__Proto__Type ***out,
                     CombErr *err);
const char *orc_reader_path(const OrcReader *r);
/* java.sql.Timestamp's text of wall-clock seconds and nanos (dump.c). */
void orc_print_timestamp(FILE *out, int64_t secs, int32_t nanos);
/* Names of ORC enums for messages and the dump. */
const char *orc_stream_kind_name(int kind);
const char *orc_encoding_name(int kind);

/* ------------------------------------------------------- reader internals */

/* Stream kinds a column reader keeps: PRESENT..SECONDARY. */
#define ORC_N_SLOTS 6

/* A section of the file (orc_reader_read_section: raw, dec, p, len), or
 * one stream of the stripe being read: then off/len say where it is
 * stored, and it is read piece by piece into raw and decompressed a chunk
 * at a time into dec (wholly for a dictionary, whose strings live as
 * long as the stripe). */
typedef struct OrcStreamBuf {
    CombBuf raw;          /* bytes as stored in the file */
    CombBuf dec;          /* decompressed (unused without compression) */
    CombBuf spill;        /* a stripe stream's takes that span windows */
    OrcChunks chunks;     /* a stripe stream's source */
    const uint8_t *p;     /* the decoded section */
    size_t len;           /* its length / the stripe stream's stored length */
    uint64_t off;         /* a stripe stream's place in the file */
    bool found;           /* listed in this stripe's footer */
} OrcStreamBuf;

typedef struct OrcColRead {
    const CombType *type;
    int enc;              /* ColumnEncoding kind in the current stripe */
    uint32_t dict_size;
    bool has_present;
    OrcStreamBuf s[ORC_N_SLOTS];
    OrcBoolDec present;
    OrcBoolDec bools;
    OrcByteDec bytes;     /* booleans' and tinyints' bytes, union tags */
    OrcIntDec ints;       /* DATA: integers, dates, dictionary indexes,
                             timestamp seconds, decimal64 values */
    OrcIntDec lens;       /* LENGTH: direct strings, list and map sizes */
    OrcIntDec secondary;  /* SECONDARY: timestamp nanos, decimal scales */
    OrcIn data;           /* raw DATA: floats, string bytes, decimals */
    CombStr *dict;        /* dictionary entries of the current stripe */
    size_t dict_cap;
    uint8_t *mask;        /* union: rows a member has no value in */
    int mask_cap;
} OrcColRead;

/* An OrcReadPool: spare buffers by role (a stream's stored bytes, its
 * decompressed chunk, its spill), and one codec per compression kind. */
enum { ORC_POOL_RAW, ORC_POOL_DEC, ORC_POOL_SPILL, ORC_POOL_ROLES };
/* A reader's arenas: the file's (footer, schema), the current stripe's
 * (its footer). */
enum { ORC_ARENA_FILE, ORC_ARENA_STRIPE, ORC_POOL_ARENAS };
#define ORC_POOL_BUFS 64
struct OrcReadPool {
    CombBuf bufs[ORC_POOL_ROLES][ORC_POOL_BUFS];
    int n[ORC_POOL_ROLES];
    OrcCodec *codecs[ORC_COMP_ZSTD + 1];
    /* a closed reader's arenas (ORC_ARENA_*), reset, blocks kept */
    CombArena arenas[ORC_POOL_ARENAS];
    bool have_arena[ORC_POOL_ARENAS];
    OrcColRead *cols;     /* a closed reader's column states */
    int cols_cap;
    /* The schema of a file opened before, lent to each reader whose
     * footer has the same types byte for byte (a scan's deltas: no
     * types unpacked, no tree built per file); replaced only while no
     * open reader borrows it. */
    CombArena schema_arena;       /* everything of the schema below */
    bool schema_arena_ready;
    bool have_schema;
    ProtobufCBinaryData *schema_types;  /* its footer types, as bytes */
    size_t n_schema_types;
    CombType *schema;
    const CombType **schema_by_id;      /* schema's column ids */
    int schema_users;             /* open readers borrowing it */
};

/* One role's buffer from the pool while b has none; back to the pool, or
 * freed when it is full (or p is NULL). */
void orc_pool_take_buf(OrcReadPool *p, int role, CombBuf *b);
void orc_pool_give_buf(OrcReadPool *p, int role, CombBuf *b);
/* The buffers of a stream slot from the pool (those it has none of yet);
 * a NULL pool gives nothing. */
void orc_pool_take(OrcReadPool *p, OrcStreamBuf *sb);
/* The slot's buffers back to the pool (or freed when it is full/NULL). */
void orc_pool_give(OrcReadPool *p, OrcStreamBuf *sb);

struct OrcReader {
    char *path;
    FsFile *file;
    uint64_t file_len;
    OrcTail tail;
    OrcTail window;               /* tail.window on an object store */
    OrcReadPool *pool;            /* orc_reader_use_pool; NULL none */
    CombArena arena;
    CombArena stripe_arena;       /* orc_reader_stripe_footer_scratch's */
    Orc__Proto__PostScript *ps;
    Orc__Proto__ReaderFooter *footer;
    /* footer->statistics[c] unpacked on first use (NULL until then); a
     * cache, filled through const readers, so it names its arena */
    Orc__Proto__ColumnStatistics **col_stats;
    Orc__Proto__Type **types;     /* footer->types unpacked, NULL until
                                     needed (a pooled schema needs none) */
    CombArena *lazy_arena;        /* &arena, for the two caches */
    bool schema_pooled;           /* schema and by_id are the pool's */
    Orc__Proto__Metadata *meta;   /* loaded on first use */
    uint64_t meta_off, meta_len;
    uint64_t stripes_end;         /* where the metadata section starts */
    OrcCompression comp;
    uint64_t block;
    uint64_t n_rows;
    char version[32];
    CombType *schema;
    int n_cols;
    const CombType **by_id;
    OrcCodec *codec;
    bool *selected;
    bool decimal64;               /* file version 1.9999: decimals of
                                     precision <= 18 are RLE v2 longs */
    bool need_zone;               /* a selected column is a timestamp */
    OrcTz **zones;                /* writer zones met so far, owned */
    char **zone_keys;             /* their names in stripe footers ("" =
                                     none given: the local zone) */
    int64_t *zone_epochs;         /* 2015-01-01 00:00:00 in each */
    int n_zones;
    int stripe_zone;              /* index in zones of this stripe's */
    bool started;
    int failed;                   /* rc of a failed read: reading stops */
    OrcColRead *cols;             /* n_cols, NULL until the first read */
    int cols_cap;                 /* its allocated length (>= n_cols) */
    int stripe;                   /* stripe being read, -1 before */
    uint64_t stripe_left;         /* rows left in it */
    uint64_t row;
    uint8_t *scratch8;
    int64_t *scratch64;
    int scratch_cap;
    uint8_t *root_nulls;          /* NULL rows of a struct root */
    int root_cap;
    OrcStripeIndex *index;        /* the last orc_reader_stripe_index */
    OrcReadCounters counters;
    OrcGroupFilter filter;
    void *filter_ctx;
    OrcStripeGate gate;           /* orc_reader_set_gate; NULL none */
    void *gate_ctx;
    uint8_t *keep;                /* the current stripe's kept groups */
    uint32_t keep_cap, n_groups;
    uint32_t next_group;          /* first group not yet scanned */
    bool seeking;                 /* the stripe is read by kept runs */
    uint64_t stripe_row0;         /* file row of the stripe's first */
    uint64_t batch_row;           /* file row of the last batch's first */
    /* predicate push-down (ppd.c) */
    const struct OrcSarg *sarg;   /* NULL: none */
    const int *sarg_cols;         /* ORC column id of each leaf, -1 none */
    OrcTruth *leaf_truth;         /* per leaf, reader arena */
    bool sarg_checked_file;       /* file statistics looked at */
    bool sarg_skip_file;          /* ... and they rule the file out */
};

void orc_stripe_index_free(OrcStripeIndex *x);  /* NULL ok */
/* An index stream (len bytes at off) decompressed and unpacked as desc;
 * COMB_ECORRUPT naming the file when it does not. */
int orc_reader_index_stream(OrcReader *r, uint64_t off, uint64_t len,
                            const ProtobufCMessageDescriptor *desc,
                            ProtobufCMessage **out, CombErr *err);
/* Positions of a group of a column that orc_stripe_index_has. */
const uint64_t *orc_stripe_index_positions(const OrcStripeIndex *x,
                                           int column, int group, size_t *n);

/* The zone a stripe footer names (or the local one when it names none)
 * as the reader's stripe_zone, loaded on first use. */
int orc_reader_use_zone(OrcReader *r, const char *name, CombErr *err);
/* Read `len` bytes at `off` and undo the file's compression into out. */
int orc_reader_read_section(OrcReader *r, uint64_t off, uint64_t len,
                            OrcStreamBuf *sb, const char *what, CombErr *err);
void orc_reader_cols_free(OrcReader *r);

/* ------------------------------------------------------- writer internals */

/* Where a row group starts in each stream of a column: the stream's
 * uncompressed length then and the values its encoder still held (and
 * for boolean RLE the bits of the byte being filled); turned into the
 * row index's positions when the stripe is written (idxwrite.c). */
typedef struct OrcGroupMark {
    uint64_t present[3];    /* bytes, byte values pending, bits */
    uint64_t data[3];       /* bytes, values pending, bits (booleans) */
    uint64_t length[2];
    uint64_t secondary[2];
    uint64_t values;        /* non-null values before the group: the
                               dictionary id the group starts at */
} OrcGroupMark;

/* The dictionary of one string column's pending stripe (dictwrite.c). */
typedef struct OrcDictEnc {
    double threshold;       /* orc.dictionary.key.threshold; 0 = never */
    bool active;            /* still collecting in this stripe */
    struct OrcDictKey *keys;
    uint32_t n_keys;
    size_t cap_keys;
    uint32_t *slots;        /* hash table: key index + 1, 0 empty */
    size_t n_slots;
    uint32_t *ids;          /* key of each non-null value, in order */
    size_t n_ids, cap_ids;
} OrcDictEnc;

void orc_dict_init(OrcDictEnc *d, double threshold);
void orc_dict_free(OrcDictEnc *d);
/* Forget the stripe's keys (keeping the memory) and collect again. */
void orc_dict_reset(OrcDictEnc *d);
size_t orc_dict_mem(const OrcDictEnc *d);
/* The value just appended at data->data[off..off+len) (its bytes must
 * stay there until the stripe is written). */
int orc_dict_add(OrcDictEnc *d, const CombBuf *data, uint64_t off,
                 uint32_t len);
/* Whether the stripe is to be written with its dictionary. */
bool orc_dict_wanted(const OrcDictEnc *d);
/* Turn the stripe's direct bytes (data) into DICTIONARY_V2 streams: the
 * sorted keys into dict_data, their lengths into lengths (replacing the
 * values' lengths), the values' key ids into data; each row group mark's
 * data[0..1] becomes where its ids start (marks[g].values ids before). */
int orc_dict_write(OrcDictEnc *d, CombBuf *data, CombBuf *lengths,
                   CombBuf *dict_data, OrcGroupMark *marks,
                   size_t n_marks);


typedef struct OrcColWrite {
    const CombType *type;
    OrcStatsAcc group_stats;  /* the current row group's (the whole
                                 stripe's without a row index) */
    OrcGroupMark *marks;      /* start of each row group of the stripe */
    size_t n_marks, cap_marks;
    CombBuf group_pb;         /* packed ColumnStatistics of the finished
                                 groups, one after another */
    size_t *pb_end;           /* ... where each ends */
    uint64_t *bloom;          /* the current group's filter bits, or NULL */
    uint64_t bloom_bits;
    uint32_t bloom_hash;
    CombBuf bloom_pb;         /* BloomFilterIndex entries of finished
                                 groups (the stream's bytes) */
    CombBuf present_buf, data_buf, length_buf, secondary_buf;
    CombBuf dict_buf;     /* DICTIONARY_DATA of a dictionary stripe */
    OrcDictEnc dict;      /* string, varchar, char */
    bool use_dict;        /* the flushed stripe is DICTIONARY_V2 */
    OrcBoolEnc present;
    OrcBoolEnc bools;
    OrcByteEnc bytes;
    OrcIntEnc ints;       /* DATA of integers, dates, timestamp seconds */
    OrcIntEnc lens;       /* LENGTH of strings, lists and maps */
    OrcIntEnc secondary;  /* SECONDARY: timestamp nanos, decimal scales */
    OrcStatsAcc stripe_stats;
    uint32_t *rows;       /* rows handed to the children of this column */
    int rows_cap;
} OrcColWrite;

/* Set up / release the encoders of one column (the pending stripe's
 * state; the writer keeps the file's statistics apart). */
void orc_colwrite_init(OrcColWrite *c, const CombType *t,
                       double dict_threshold);
void orc_colwrite_free(OrcColWrite *c);
/* Check the values of rows rows[0..n) of v (type t) the writer cannot
 * store (decimals beyond their precision, nanos out of range), so that a
 * bad batch is refused before anything of it is encoded. */
int orc_colwrite_check(const CombType *t, const CombVector *v,
                       const uint32_t *rows, int n, const char *path,
                       CombErr *err);
/* Encode rows rows[0..n) of vector v, the column of type t, and its
 * subtree (cols indexed by column id); each of those rows is present in
 * the parent. */
int orc_colwrite_rows(OrcColWrite *cols, const CombType *t,
                      const CombVector *v, const uint32_t *rows, int n,
                      CombErr *err);
/* Flush the encoders at a stripe end, choosing a string column's
 * encoding (dictionary or direct). */
int orc_colwrite_flush(OrcColWrite *c);
/* Bytes buffered for the stripe. */
size_t orc_colwrite_size(const OrcColWrite *c);
/* Bytes of memory the column holds (struct, buffers at capacity). */
size_t orc_colwrite_mem(const OrcColWrite *c);
/* Forget the stripe's streams and statistics (after merging them into
 * the file's). */
void orc_colwrite_reset(OrcColWrite *c);
/* The column's encoding kind as written. */
int orc_colwrite_encoding(const OrcColWrite *c);

/* ---- row index and bloom filters of the pending stripe (idxwrite.c) */

/* Give the column a bloom filter per row group of n_bits bits and n_hash
 * hash functions. */
int orc_colwrite_bloom_init(OrcColWrite *c, uint64_t n_bits,
                            uint32_t n_hash);
/* Record where a row group starts in the column's streams. */
int orc_colwrite_mark(OrcColWrite *c);
/* End the current row group: its statistics merge into the stripe's
 * (and with `index`, are kept packed for the row index with its bloom
 * filter). */
int orc_colwrite_group_end(OrcColWrite *c, bool index, CombArena *tmp);
/* The ROW_INDEX message of the stripe's groups into dst, from the
 * streams as written: stream kind k's compressed bytes are
 * out[start[k] .. start[k] + len[k]). */
int orc_colwrite_row_index(const OrcColWrite *c, bool compressed,
                           uint64_t block, const uint8_t *out,
                           const size_t start[ORC_N_SLOTS],
                           const size_t len[ORC_N_SLOTS], CombBuf *dst);
/* Add one value's hash to the group's filter when it has one (a macro:
 * the hash is computed only then, off the scan of unfiltered columns). */
#define ORC_BLOOM_ADD(c, hash)                                              \
    do {                                                                    \
        if ((c)->bloom)                                                     \
            orc_bloom_add_hash((c)->bloom, (c)->bloom_bits,                 \
                               (c)->bloom_hash, (hash));                    \
    } while (0)

#endif
