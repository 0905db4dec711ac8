/*
 * test_scan.c - the fast decode paths: every RLE v2 sub-encoding at every
 * value width 1..64 and at the run lengths around its limits, decoded
 * whole and in odd slices from streams cut into chunks and read pieces at
 * every size (so runs, varints and takes span windows); booleans and byte
 * runs; and end-to-end files with NULLs, many stripes and small
 * compression blocks in every codec.  Also the string dictionary the
 * writer chooses per stripe (DICTIONARY_V2 under
 * orc.dictionary.key.threshold) for string, varchar and char.
 */
#include "orc_test.h"
#include "unit.h"
#include "common/alloc.h"
#include "orc/orc_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const OrcCompression all_codecs[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                            ORC_COMP_SNAPPY, ORC_COMP_ZSTD,
                                            ORC_COMP_LZ4};

/* A stream of `len` bytes as a file compressed with codec in blocks of
 * `block` bytes, read back through OrcChunks `piece` bytes at a time.
 * One stream in three has no tail, one the whole file as its tail (read
 * there without a copy), one the file's second half (read from the file,
 * then in the tail). */
typedef struct ChunkedStream {
    char path[ORC_TEST_PATH_LEN];
    FsFile *file;
    OrcCodec *codec;
    CombBuf raw, dec, spill;
    OrcTail tail;
    OrcChunks chunks;
} ChunkedStream;

static int chunked_open(ChunkedStream *s, const uint8_t *p, size_t len,
                        OrcCompression codec, uint64_t block, size_t piece,
                        CombErr *err)
{
    static int seq;
    CombBuf file = COMB_BUF_INIT;
    memset(s, 0, sizeof *s);
    int rc = orc_codec_new(codec, &s->codec, err);
    if (!rc)
        rc = orc_codec_compress(s->codec, block, p, len, &file, err);
    snprintf(s->path, sizeof s->path, "%s/stream%d", unit_tmpdir(), seq++);
    FILE *f = rc ? NULL : fopen(s->path, "wb");
    if (!rc && (!f || fwrite(file.data, 1, file.len, f) != file.len))
        rc = COMB_EIO;
    if (f)
        fclose(f);
    s->file = rc ? NULL : fs_open_read(s->path, err);
    if (!rc && seq % 3 != 0) {
        s->tail.off = seq % 3 == 1 ? 0 : file.len / 2;
        if (comb_buf_append(&s->tail.buf, file.data + s->tail.off,
                            file.len - s->tail.off))
            rc = COMB_ENOMEM;
    }
    s->chunks = (OrcChunks){.file = s->file, .off = 0, .end = file.len,
                            .tail = seq % 3 != 0 ? &s->tail : NULL,
                            .raw = &s->raw,
                            .codec = codec == ORC_COMP_NONE ? NULL : s->codec,
                            .block = block, .dec = &s->dec, .spill = &s->spill,
                            .piece = piece};
    comb_buf_free(&file);
    return rc ? rc : !s->file ? COMB_EIO : COMB_OK;
}

static void chunked_close(ChunkedStream *s)
{
    if (s->file)
        fs_discard(s->file);
    orc_codec_free(s->codec);
    comb_buf_free(&s->raw);
    comb_buf_free(&s->dec);
    comb_buf_free(&s->spill);
    comb_buf_free(&s->tail.buf);
}

/* Decode n integers of the bytes through a chunked stream in slices of
 * `slice` values (0: all at once); every byte must be used. */
static int decode_chunked(const CombBuf *bytes, OrcCompression codec,
                          uint64_t block, size_t piece, bool is_signed,
                          int64_t *out, size_t n, size_t slice, CombErr *err)
{
    ChunkedStream s;
    OrcIn in;
    OrcIntDec *d = malloc(sizeof *d);
    int rc = chunked_open(&s, bytes->data, bytes->len, codec, block, piece,
                          err);
    orc_in_init_chunks(&in, &s.chunks, "test", 1, "DATA");
    orc_int_dec_init(d, &in, is_signed, true);
    for (size_t i = 0; i < n && !rc;) {
        size_t k = slice && n - i > slice ? slice : n - i;
        rc = orc_int_dec_next(d, out + i, k, err);
        i += k;
    }
    if (!rc && !orc_in_at_end(&d->in))
        rc = COMB_EINTERNAL;
    free(d);
    chunked_close(&s);
    return rc;
}

/* Values of exactly w bits (unsigned magnitude; signed: zigzag of w bits
 * means values in [-2^(w-1), 2^(w-1))), the first of them at the top of
 * the range so the encoder needs all w bits. */
static void width_values(int w, bool is_signed, int n, uint64_t *state,
                         int64_t *v)
{
    for (int i = 0; i < n; i++) {
        uint64_t r = orc_test_rand(state);
        uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
        uint64_t u = i == 0 ? mask : r & mask;
        v[i] = is_signed ? orc_zigzag_dec(u) : (int64_t)u;
    }
}

/* DIRECT at every width and run length, through every codec and cut
 * everywhere; values checked, all bytes used. */
TEST(orc_rle2_direct_every_width)
{
    static const int lens[] = {1, 2, 7, 8, 9, 15, 17, 63, 255, 256, 511, 512};
    uint64_t state = 0x5eed0001;
    CombErr err;
    int64_t v[512], got[512];
    for (int w = 1; w <= 64; w++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            int n = lens[l];
            bool is_signed = (w + n) % 2 == 0;
            CombBuf b = COMB_BUF_INIT;
            width_values(w, is_signed, n, &state, v);
            CHECK_OK(orc_rle2_write_as(&b, is_signed, 1, v, n), &err);
            OrcCompression codec = all_codecs[(w + l) % 5];
            size_t piece = 1 + (size_t)(w * 7 + n) % 23;
            size_t slice = l % 3 == 0 ? 0 : (size_t)(1 + (w + l) % 13);
            memset(got, 0, sizeof got);
            int rc = decode_chunked(&b, codec, 5 + w % 11, piece, is_signed,
                                    got, (size_t)n, slice, &err);
            comb_buf_free(&b);
            if (rc)
                printf("    width %d, %d values, %s: %s\n", w, n,
                       orc_compression_name(codec), err.msg);
            CHECK_OK(rc, &err);
            for (int i = 0; i < n; i++)
                if (got[i] != v[i]) {
                    printf("    width %d, %d values: [%d] %lld != %lld\n", w,
                           n, i, (long long)got[i], (long long)v[i]);
                    CHECK(got[i] == v[i]);
                }
        }
    }
}

/* DELTA (fixed and variable steps, ascending and descending, at every
 * step width), SHORT_REPEAT at every byte width and run length, and
 * PATCHED_BASE at every patch width, one stream after another, decoded
 * in one pass and in slices. */
TEST(orc_rle2_other_forms_every_width)
{
    uint64_t state = 0x5eed0002;
    CombErr err;
    CombBuf b = COMB_BUF_INIT;
    int64_t *want = malloc(200000 * sizeof *want);
    int64_t *got = malloc(200000 * sizeof *got);
    int64_t v[512];
    size_t n = 0;
    for (int w = 1; w <= 62; w++) {
        /* DELTA: a base and steps of up to w bits (up to 61, short runs
         * past 52 so that nothing overflows), both directions */
        for (int dir = -1; dir <= 1; dir += 2) {
            int bits = w > 61 ? 61 : w;
            int len = w > 52 ? 3 : 2 + (w * 37) % 511;
            int64_t cur = w > 52 ? 0 : dir < 0 ? INT64_MAX / 2
                                               : -(INT64_MAX / 2);
            for (int i = 0; i < len; i++) {
                /* steps of at least 1: the first sets the direction */
                uint64_t step = (orc_test_rand(&state) >> (64 - bits)) | 1;
                v[i] = cur;
                cur += dir * (int64_t)step;
            }
            CHECK_OK(orc_rle2_write_as(&b, true, 3, v, len), &err);
            memcpy(want + n, v, (size_t)len * sizeof *v);
            n += (size_t)len;
        }
        /* fixed-step DELTA */
        int len = 3 + w * 8;
        for (int i = 0; i < len; i++)
            v[i] = 1000 + (int64_t)i * (w - 31);
        CHECK_OK(orc_rle2_write_as(&b, true, 3, v, len), &err);
        memcpy(want + n, v, (size_t)len * sizeof *v);
        n += (size_t)len;
        /* PATCHED_BASE: small values with outliers of w + 8 bits */
        len = 20 + w * 7;
        for (int i = 0; i < len; i++)
            v[i] = (int64_t)(orc_test_rand(&state) % 100);
        v[len / 3] = (int64_t)(1ull << (w < 55 ? w + 8 : 62)) - 1;
        v[len - 1] = v[len / 3] / 2;
        if (orc_rle2_write_as(&b, false, 2, v, len) == COMB_OK) {
            memcpy(want + n, v, (size_t)len * sizeof *v);
            n += (size_t)len;
        }
    }
    for (int bytes = 1; bytes <= 8; bytes++)
        for (int len = 3; len <= 10; len++) {
            uint64_t u = bytes == 8 ? ~0ull >> 1 : (1ull << (8 * bytes)) - 1;
            for (int i = 0; i < len; i++)
                v[i] = orc_zigzag_dec(u - (uint64_t)len);
            CHECK_OK(orc_rle2_write_as(&b, true, 0, v, len), &err);
            memcpy(want + n, v, (size_t)len * sizeof *v);
            n += (size_t)len;
        }
    CHECK(n < 200000);
    for (int pass = 0; pass < 6; pass++) {
        size_t slice = pass == 0 ? 0 : (size_t)(pass * pass * 97 + 1);
        OrcCompression codec = all_codecs[pass % 5];
        memset(got, 0, n * sizeof *got);
        int rc = decode_chunked(&b, codec, 64 + 311 * (uint64_t)pass,
                                (size_t)(3 + pass * 1000), true, got, n,
                                slice, &err);
        if (rc)
            printf("    pass %d (%s): %s\n", pass,
                   orc_compression_name(codec), err.msg);
        CHECK_OK(rc, &err);
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i]) {
                printf("    pass %d: value %zu: %lld != %lld\n", pass, i,
                       (long long)got[i], (long long)want[i]);
                CHECK(got[i] == want[i]);
            }
    }
    comb_buf_free(&b);
    free(want);
    free(got);
}

/* Booleans: runs and literals of every bit pattern, read in slices that
 * start and end inside bytes, across chunks. */
TEST(orc_bool_runs_and_literals)
{
    CombBuf b = COMB_BUF_INIT;
    OrcBoolEnc e;
    uint64_t state = 0x5eed0003;
    enum { N = 40000 };
    uint8_t *want = malloc(N), *got = malloc(N);
    CombErr err;
    orc_bool_enc_init(&e, &b);
    for (int i = 0; i < N; i++) {
        /* stretches of all-true, all-false and random bits */
        int zone = (i / 1000) % 3;
        want[i] = zone == 0   ? 1
                  : zone == 1 ? 0
                              : (uint8_t)(orc_test_rand(&state) & 1);
        CHECK_OK(orc_bool_enc_add(&e, want[i]), &err);
    }
    CHECK_OK(orc_bool_enc_flush(&e), &err);
    for (int pass = 0; pass < 4; pass++) {
        ChunkedStream s;
        OrcIn in;
        OrcBoolDec d;
        CHECK_OK(chunked_open(&s, b.data, b.len, all_codecs[pass + 1],
                              50 + 17 * (uint64_t)pass, 7, &err), &err);
        orc_in_init_chunks(&in, &s.chunks, "test", 1, "PRESENT");
        orc_bool_dec_init(&d, &in);
        int rc = COMB_OK;
        for (int i = 0, k = 1; i < N && !rc; i += k, k = k * 3 % 1031 + 1) {
            if (k > N - i)
                k = N - i;
            rc = orc_bool_dec_next(&d, got + i, (size_t)k, &err);
        }
        chunked_close(&s);
        CHECK_OK(rc, &err);
        CHECK(memcmp(got, want, N) == 0);
    }
    comb_buf_free(&b);
    free(want);
    free(got);
}

/* ------------------------------------------------------ whole files */

static int64_t pattern_value(int pattern, int w, long i, uint64_t *state)
{
    uint64_t mask = w >= 63 ? ~0ull >> 1 : (1ull << w) - 1;
    uint64_t r = orc_test_rand(state) & mask;
    switch (pattern) {
    case 0: /* random of w bits, both signs */
        return (i & 1) ? -(int64_t)(r >> 1) : (int64_t)(r >> 1);
    case 1: /* ascending by steps of w bits */
        return (int64_t)(i * 3) + (int64_t)(r >> 4);
    case 2: /* runs of a repeated value */
        return (int64_t)((uint64_t)(i / 7) * 2654435761u & mask);
    default: /* small values, rare outliers of w bits */
        return i % 97 == 5 ? (int64_t)r : (int64_t)(r % 50);
    }
}

/* bigint values of every width and pattern, NULLs in some stripes and
 * not others, stripes of a few thousand rows and compression blocks of
 * 1000 bytes, every codec; read back with batches of 1024 and of 333. */
/* Chunks shorter than ORC_MIN_COMPRESSED_CHUNK are stored original
 * without the codec, longer ones compressed when that pays: zeros (which
 * every codec shrinks) in blocks of the threshold, the last chunk one byte
 * short of it; each chunk's flag checked, then the stream decompressed. */
TEST(orc_small_chunks_stored_original)
{
    enum { BLOCK = ORC_MIN_COMPRESSED_CHUNK, LEN = 3 * BLOCK + BLOCK - 1 };
    static uint8_t zeros[LEN];
    CombErr err;
    for (int c = 1; c < 5; c++) {
        OrcCodec *codec;
        CombBuf z = COMB_BUF_INIT, back = COMB_BUF_INIT;
        int n_chunks = 0;
        CHECK_OK(orc_codec_new(all_codecs[c], &codec, &err), &err);
        CHECK_OK(orc_codec_compress(codec, BLOCK, zeros, LEN, &z, &err),
                 &err);
        for (size_t pos = 0; pos < z.len; n_chunks++) {
            size_t clen;
            bool original;
            orc_chunk_header(z.data + pos, &clen, &original);
            if (original != (n_chunks == 3))
                printf("    %s: chunk %d original %d\n",
                       orc_compression_name(all_codecs[c]), n_chunks,
                       original);
            CHECK(original == (n_chunks == 3));
            CHECK(!original || clen == BLOCK - 1);
            pos += 3 + clen;
        }
        CHECK_EQ(n_chunks, 4);
        CHECK_OK(orc_codec_decompress(codec, BLOCK, z.data, z.len, &back,
                                      "test", "DATA", &err), &err);
        CHECK_EQ(back.len, (size_t)LEN);
        CHECK(memcmp(back.data, zeros, LEN) == 0);
        comb_buf_free(&z);
        comb_buf_free(&back);
        orc_codec_free(codec);
    }
}

/* A data stream's ZLIB chunk that compresses by less than 1/ORC_MIN_SAVING
 * is stored original: zeros worth 1/16 of the block (first: snappy and LZ4
 * skip ahead faster and faster through bytes without matches) and random
 * bytes, which no codec shrinks; every codec squeezes the zeros to a few
 * bytes, so compressing saves about 6%.  The other codecs keep that
 * saving, and a block of zeros beside it stays compressed under all.
 * Both read back. */
TEST(orc_chunks_saving_little_stored_original)
{
    enum { BLOCK = 4096, RANDOM = BLOCK - BLOCK / 16 };
    static uint8_t data[2 * BLOCK];
    uint32_t x = 2463534242u;
    CombErr err;
    for (int i = BLOCK - RANDOM; i < BLOCK; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        data[i] = (uint8_t)(x >> 11);
    }
    for (int c = 1; c < 5; c++) {
        OrcCodec *codec;
        CombBuf z = COMB_BUF_INIT, back = COMB_BUF_INIT;
        size_t clen, pos;
        bool original, zlib = all_codecs[c] == ORC_COMP_ZLIB;
        CHECK_OK(orc_codec_new(all_codecs[c], &codec, &err), &err);
        CHECK_OK(orc_codec_compress_data(codec, BLOCK, data, sizeof data,
                                         &z, &err), &err);
        orc_chunk_header(z.data, &clen, &original);
        if (original != zlib)
            printf("    %s: first chunk original %d, %zu of %d bytes\n",
                   orc_compression_name(all_codecs[c]), original, clen,
                   BLOCK);
        CHECK(original == zlib);
        CHECK(zlib ? clen == BLOCK : clen > BLOCK - BLOCK / 8);
        pos = 3 + clen;
        orc_chunk_header(z.data + pos, &clen, &original);
        CHECK(!original && clen < BLOCK / 8);
        CHECK_EQ(z.len, pos + 3 + clen);
        CHECK_OK(orc_codec_decompress(codec, BLOCK, z.data, z.len, &back,
                                      "test", "DATA", &err), &err);
        CHECK_EQ(back.len, sizeof data);
        CHECK(memcmp(back.data, data, sizeof data) == 0);
        comb_buf_free(&z);
        comb_buf_free(&back);
        orc_codec_free(codec);
    }
}

/* A stripe footer or file footer shorter than ORC_MIN_INFLATED_TAIL is
 * stored original under ZLIB (zeros, which it would shrink to a few
 * bytes), compressed under the other codecs; one of that length is
 * compressed under all.  (The golden dump comb_indexed.txt shows a
 * writer's stripe footer stored so.) */
TEST(orc_short_tails_stored_original_under_zlib)
{
    static uint8_t zeros[ORC_MIN_INFLATED_TAIL];
    CombErr err;
    for (int c = 1; c < 5; c++) {
        bool zlib = all_codecs[c] == ORC_COMP_ZLIB;
        for (size_t len = sizeof zeros - 1; len <= sizeof zeros; len++) {
            OrcCodec *codec;
            CombBuf z = COMB_BUF_INIT, back = COMB_BUF_INIT;
            size_t clen;
            bool original;
            CHECK_OK(orc_codec_new(all_codecs[c], &codec, &err), &err);
            CHECK_OK(orc_codec_compress_tail(codec, 256 * 1024, zeros, len,
                                             &z, &err), &err);
            orc_chunk_header(z.data, &clen, &original);
            if (original != (zlib && len < sizeof zeros))
                printf("    %s, %zu bytes: original %d\n",
                       orc_compression_name(all_codecs[c]), len, original);
            CHECK(original == (zlib && len < sizeof zeros));
            CHECK_EQ(z.len, 3 + clen);
            CHECK_OK(orc_codec_decompress(codec, 256 * 1024, z.data, z.len,
                                          &back, "test", "footer", &err),
                     &err);
            CHECK_EQ(back.len, len);
            CHECK(memcmp(back.data, zeros, len) == 0);
            comb_buf_free(&z);
            comb_buf_free(&back);
            orc_codec_free(codec);
        }
    }
}

TEST(orc_int_columns_round_trip_every_width)
{
    enum { ROWS = 60000 };
    CombErr err;
    int64_t *want = malloc(ROWS * sizeof *want);
    uint8_t *null = malloc(ROWS);
    for (size_t c = 0; c < 5; c++) {
        char path[ORC_TEST_PATH_LEN], name[32];
        CombArena a;
        CombBatch b;
        OrcWriter *w;
        OrcReader *r;
        OrcWriterOptions opt;
        uint64_t state = 0x5eed0010 + c;
        comb_arena_init(&a, 1024);
        CombType *root = comb_type_new(&a, COMB_T_STRUCT);
        comb_type_add_field(&a, root, "v", comb_type_new(&a, COMB_T_BIGINT));
        orc_writer_options_default(&opt);
        opt.compression = all_codecs[c];
        opt.compression_block_size = 1000;
        opt.stripe_size = 20000;
        snprintf(name, sizeof name, "ints%zu.orc", c);
        CHECK_OK(orc_test_writer_open(name, root, &opt, 1000, path, &w, &b,
                                      &err), &err);
        int rc = COMB_OK;
        for (long i = 0; i < ROWS && !rc; i += 1000) {
            CombVector *v = &b.cols[0];
            v->has_nulls = false;
            for (int j = 0; j < 1000; j++) {
                long row = i + j;
                int width = 1 + (int)(row / 937) % 63;
                int pattern = (int)(row / 5000) % 4;
                /* NULLs only in every other block of 10,000 rows */
                null[row] = (row / 10000) % 2 == 1 && row % 13 == 0;
                want[row] = pattern_value(pattern, width, row, &state);
                if (null[row]) {
                    comb_vec_nulls_materialize(v, 1000);
                    comb_vec_set_null(v, j);
                } else {
                    comb_vec_set_not_null(v, j);
                    v->i64[j] = want[row];
                }
            }
            b.n_rows = 1000;
            rc = orc_writer_write(w, &b, &err);
        }
        comb_batch_free(&b);
        comb_arena_free(&a);
        CHECK_OK(rc, &err);
        CHECK_OK(orc_writer_close(w, &err), &err);
        for (int cap = 1024; cap >= 333; cap -= 691) {
            long row = 0;
            CHECK_OK(orc_test_reader_open(path, cap, &r, &b, &err), &err);
            CHECK(orc_reader_n_stripes(r) > 3);
            while (!(rc = orc_reader_next(r, &b, &err)) && b.n_rows > 0)
                for (int j = 0; j < b.n_rows; j++, row++) {
                    bool is_null = comb_vec_is_null(&b.cols[0], j);
                    if (is_null != null[row] ||
                        (!is_null && b.cols[0].i64[j] != want[row])) {
                        printf("    %s, row %ld: got %s%lld\n",
                               orc_compression_name(all_codecs[c]), row,
                               is_null ? "NULL " : "",
                               (long long)b.cols[0].i64[j]);
                        rc = COMB_EINTERNAL;
                        break;
                    }
                }
            comb_batch_free(&b);
            orc_reader_close(r);
            CHECK_OK(rc, &err);
            CHECK_EQ(row, ROWS);
        }
    }
    free(want);
    free(null);
}

/* ------------------------------------------------------- dictionaries */

typedef struct DictCase {
    const char *type;
    double threshold;
} DictCase;

/* Strings of one file: stripe 1 has 8 distinct values (dictionary), stripe
 * 2 all distinct (direct), stripe 3 few again with NULLs and empty
 * strings, stripe 4 only NULLs. */
static void dict_value(long row, char *buf, CombStr *s, bool *null)
{
    int stripe = (int)(row / 3000);
    *null = false;
    switch (stripe) {
    case 0:
        s->len = (uint32_t)snprintf(buf, 32, "v%ld", (row * 7) % 8);
        break;
    case 1:
        s->len = (uint32_t)snprintf(buf, 32, "u%06ld", row);
        break;
    case 2:
        *null = row % 5 == 0;
        s->len = row % 3 == 0 ? 0 : (uint32_t)snprintf(buf, 32, "k\t%ld",
                                                        row % 4);
        break;
    default:
        *null = true;
        s->len = 0;
    }
    s->ptr = buf;
}

/* Twelve stripes of 1000 rows (stripe_size 1 ends a stripe at every
 * write): three of each kind of dict_value. */
static int write_dict_file(const char *name, const DictCase *dc,
                           OrcCompression codec, char *path, CombErr *err)
{
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    CombType *root;
    char schema[64];
    static char bufs[1000][32];
    comb_arena_init(&a, 1024);
    snprintf(schema, sizeof schema, "struct<s:%s>", dc->type);
    int rc = comb_type_parse(&a, schema, strlen(schema), &root, err);
    orc_writer_options_default(&opt);
    opt.compression = codec;
    opt.dictionary_key_threshold = dc->threshold;
    opt.stripe_size = 1;
    if (!rc)
        rc = orc_test_writer_open(name, root, &opt, 1000, path, &w, &b, err);
    if (rc) {
        comb_arena_free(&a);
        return rc;
    }
    for (long i = 0; i < 12000 && !rc; i += 1000) {
        CombVector *v = &b.cols[0];
        v->has_nulls = false;
        for (int j = 0; j < 1000; j++) {
            bool null;
            dict_value(i + j, bufs[j], &v->str[j], &null);
            if (null) {
                comb_vec_nulls_materialize(v, 1000);
                comb_vec_set_null(v, j);
            } else {
                comb_vec_set_not_null(v, j);
            }
        }
        b.n_rows = 1000;
        rc = orc_writer_write(w, &b, err);
    }
    comb_batch_free(&b);
    comb_arena_free(&a);
    if (rc) {
        orc_writer_abort(w);
        return rc;
    }
    return orc_writer_close(w, err);
}

/* The encoding a stripe of dict_value must get under a threshold. */
static bool want_dictionary(int stripe, double threshold)
{
    int kind = stripe / 3;
    if (threshold <= 0)
        return false;
    return kind != 1 || threshold >= 1;
}

#define CHECK_RC(cond)                                                      \
    do {                                                                    \
        if (!(cond))                                                        \
            rc = COMB_EINTERNAL;                                            \
    } while (0)

static int check_dict_file(const char *path, const DictCase *dc,
                           CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    const char *kinds[2];
    uint32_t sizes[2];
    char buf[32];
    long row = 0;
    int rc = orc_test_reader_open(path, 1024, &r, &b, err);
    if (rc)
        return rc;
    /* the writer ends a stripe after each write of 1000 rows (but after
     * one of only NULLs, whose PRESENT bytes still wait in their run:
     * those stripes may hold 2000 rows) */
    CHECK_RC(orc_reader_n_stripes(r) >= 11);
    for (int s = 0, first = 0; s < orc_reader_n_stripes(r) && !rc; s++) {
        OrcStripeInfo si;
        orc_reader_stripe_info(r, s, &si);
        int kind = first / 3000;
        bool dict = want_dictionary(kind * 3, dc->threshold);
        first += (int)si.n_rows;
        rc = orc_reader_stripe_encodings(r, s, kinds, sizes, err);
        if (!rc && strcmp(kinds[1], dict ? "DICTIONARY_V2" : "DIRECT_V2")) {
            printf("    %s at %.2f, stripe %d: %s\n", dc->type, dc->threshold,
                   s, kinds[1]);
            rc = COMB_EINTERNAL;
        }
        /* 8 keys, none for the all-NULL stripes, "" and 4 others */
        uint32_t keys = kind == 0   ? 8
                        : kind == 1 ? (uint32_t)si.n_rows
                        : kind == 2 ? 5
                                    : 0;
        if (!rc && dict && sizes[1] != keys) {
            printf("    stripe %d (kind %d): dictionary of %u\n", s, kind,
                   sizes[1]);
            rc = COMB_EINTERNAL;
        }
    }
    while (!rc && !(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
        for (int j = 0; j < b.n_rows && !rc; j++, row++) {
            CombStr want;
            bool null;
            dict_value(row, buf, &want, &null);
            const CombVector *v = &b.cols[0];
            if (comb_vec_is_null(v, j) != null ||
                (!null && (v->str[j].len != want.len ||
                           memcmp(v->str[j].ptr, want.ptr, want.len)))) {
                printf("    %s, row %ld differs\n", dc->type, row);
                rc = COMB_EINTERNAL;
            }
        }
    if (!rc && row != 12000)
        rc = COMB_EINTERNAL;
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc;
}

/* Every string kind, codec and threshold: the per-stripe choice, the
 * dictionary sizes, and the values read back. */
TEST(orc_dictionary_round_trip)
{
    static const DictCase cases[] = {
        {"string", 0.8}, {"varchar(10)", 0.8}, {"char(8)", 0.8},
        {"string", 0.0}, {"string", 1.0}, {"varchar(7)", 0.5}};
    CombErr err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t c = 0; c < 5; c++) {
            char path[ORC_TEST_PATH_LEN], name[32];
            snprintf(name, sizeof name, "dict%zu_%zu.orc", i, c);
            CHECK_OK(write_dict_file(name, &cases[i], all_codecs[c], path,
                                     &err), &err);
            int rc = check_dict_file(path, &cases[i], &err);
            if (rc)
                printf("    case %zu, %s\n", i,
                       orc_compression_name(all_codecs[c]));
            CHECK_OK(rc, &err);
        }
}

/* The dictionary is sorted by bytes (unsigned), as ORC Java writes it:
 * DICTIONARY_DATA holds the keys in order. */
TEST(orc_dictionary_sorted_keys)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcReader *r;
    OrcWriterOptions opt;
    static const char *const vals[] = {"b", "\xc3\xa9", "a", "", "ab", "b",
                                       "a", "Z", "\xc3\xa9", "ab"};
    comb_arena_init(&a, 1024);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "s", comb_type_new(&a, COMB_T_STRING));
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_NONE;
    CHECK_OK(orc_test_writer_open("sorted.orc", root, &opt, 10, path, &w, &b,
                                  &err), &err);
    for (int i = 0; i < 10; i++)
        b.cols[0].str[i] = (CombStr){vals[i], (uint32_t)strlen(vals[i])};
    b.n_rows = 10;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    Orc__Proto__StripeFooter *sf;
    CHECK_OK(orc_reader_stripe_footer(r, 0, &sf, &err), &err);
    uint64_t off = 3;
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    bool found = false;
    for (size_t i = 0; i < sf->n_streams; i++) {
        if (sf->streams[i]->kind == ORC__PROTO__STREAM__KIND__DICTIONARY_DATA) {
            CHECK_OK(orc_reader_read_section(r, off, sf->streams[i]->length,
                                             &sb, "dict", &err), &err);
            found = true;
        }
        off += sf->streams[i]->length;
    }
    CHECK_EQ(sf->columns[1]->dictionarysize, 6);
    orc_stripe_footer_free(sf);
    orc_reader_close(r);
    CHECK(found);
    CHECK_EQ(sb.len, 7);
    CHECK(memcmp(sb.p, "Zaabb\xc3\xa9", 7) == 0);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    char *text = orc_test_dump_text(path, ORC_DUMP_CONTENTS, NULL, &err);
    CHECK(text != NULL);
    CHECK(strncmp(text, "{\"s\": \"b\"}\n{\"s\": \"\xc3\xa9\"}\n"
                  "{\"s\": \"a\"}\n{\"s\": \"\"}\n", 44) == 0);
    free(text);
}

/* The one-load varint decoder against byte-at-a-time decoding: every
 * length from 1 to 10 bytes, and the overlong and overflowing forms. */
TEST(orc_varint_fast_every_length)
{
    uint64_t state = 0x5eed0020;
    for (int bits = 1; bits <= 64; bits++)
        for (int k = 0; k < 50; k++) {
            uint64_t v = orc_test_rand(&state);
            v = bits == 64 ? v | 1ull << 63 : (v & ((1ull << bits) - 1)) |
                                                  1ull << (bits - 1);
            CombBuf b = COMB_BUF_INIT;
            CHECK(orc_varint_put(&b, v) == 0);
            size_t n = b.len;
            /* garbage after the varint must not matter */
            for (int g = 0; g < 12; g++)
                comb_buf_append_byte(&b, (uint8_t)orc_test_rand(&state));
            uint64_t got = 0;
            CHECK_EQ(orc_varint_fast(b.data, &got), n);
            CHECK(got == v);
            comb_buf_free(&b);
        }
    static const uint8_t overflow[12] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0x02, 0, 0};
    static const uint8_t too_long[12] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                         0x80, 0x80, 0x80, 0x80, 0x01, 0};
    static const uint8_t max[12] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                    0xff, 0xff, 0xff, 0x01, 0, 0};
    uint64_t v;
    CHECK_EQ(orc_varint_fast(overflow, &v), 0);
    CHECK_EQ(orc_varint_fast(too_long, &v), 0);
    CHECK_EQ(orc_varint_fast(max, &v), 10);
    CHECK(v == UINT64_MAX);
}

/* Decimals of every magnitude (one digit to 38, so varints of 1 to 19
 * bytes; values of 64 bits and beyond take the 128-bit path) and sign,
 * stored with their trailing zeros trimmed (so scales vary), in columns
 * of precision 10, 18 and 38, with NULLs, through 700-byte compression
 * blocks: read back equal. */
TEST(orc_decimal_round_trip_every_magnitude)
{
    static const char *const types[] = {"decimal(10,3)", "decimal(18,6)",
                                        "decimal(38,10)"};
    static const int prec[] = {10, 18, 38};
    enum { ROWS = 20000 };
    comb_i128 *want = malloc(ROWS * sizeof *want);
    uint8_t *null = malloc(ROWS);
    CombErr err;
    for (int t = 0; t < 3; t++) {
        char path[ORC_TEST_PATH_LEN], name[32], schema[64];
        CombArena a;
        CombBatch b;
        OrcWriter *w;
        OrcReader *r;
        OrcWriterOptions opt;
        CombType *root;
        uint64_t state = 0x5eed0030 + (uint64_t)t;
        comb_arena_init(&a, 1024);
        snprintf(schema, sizeof schema, "struct<d:%s>", types[t]);
        CHECK_OK(comb_type_parse(&a, schema, strlen(schema), &root, &err),
                 &err);
        orc_writer_options_default(&opt);
        opt.compression = all_codecs[t + 1];
        opt.compression_block_size = 700;
        snprintf(name, sizeof name, "dec%d.orc", t);
        CHECK_OK(orc_test_writer_open(name, root, &opt, 1000, path, &w, &b,
                                      &err), &err);
        int rc = COMB_OK;
        for (int i = 0; i < ROWS && !rc; i += 1000) {
            CombVector *v = &b.cols[0];
            v->has_nulls = false;
            for (int j = 0; j < 1000; j++) {
                int row = i + j, digits = 1 + row % prec[t];
                comb_i128 x = 0;
                for (int d = 0; d < digits; d++)
                    x = x * 10 + (comb_i128)(orc_test_rand(&state) % 10);
                if (row % 7 == 0)
                    x -= x % 1000;  /* trailing zeros: smaller scales */
                want[row] = row % 3 == 0 ? -x : x;
                null[row] = row % 11 == 0;
                if (null[row]) {
                    comb_vec_nulls_materialize(v, 1000);
                    comb_vec_set_null(v, j);
                } else {
                    comb_vec_set_not_null(v, j);
                    v->dec[j] = want[row];
                }
            }
            b.n_rows = 1000;
            rc = orc_writer_write(w, &b, &err);
        }
        comb_batch_free(&b);
        comb_arena_free(&a);
        CHECK_OK(rc, &err);
        CHECK_OK(orc_writer_close(w, &err), &err);
        int row = 0;
        CHECK_OK(orc_test_reader_open(path, 777, &r, &b, &err), &err);
        while (!(rc = orc_reader_next(r, &b, &err)) && b.n_rows > 0)
            for (int j = 0; j < b.n_rows; j++, row++) {
                bool is_null = comb_vec_is_null(&b.cols[0], j);
                if (is_null != null[row] ||
                    (!is_null && b.cols[0].dec[j] != want[row])) {
                    printf("    %s, row %d differs\n", types[t], row);
                    rc = COMB_EINTERNAL;
                    break;
                }
            }
        comb_batch_free(&b);
        orc_reader_close(r);
        CHECK_OK(rc, &err);
        CHECK_EQ(row, ROWS);
    }
    free(want);
    free(null);
}
