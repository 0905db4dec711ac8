/*
 * test_rle.c - ORC run-length encodings: decoding the specification's
 * worked examples, encoder/decoder round trips over edge values, the
 * sub-encoding the v2 encoder picks, and bad bytes failing cleanly.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"

#include <stdlib.h>

static int decode_ints(const uint8_t *p, size_t len, bool is_signed, bool v2,
                       int64_t *out, size_t n, CombErr *err)
{
    OrcIn in;
    OrcIntDec *d = malloc(sizeof *d);
    orc_in_init(&in, p, len, "test", 1, "DATA");
    orc_int_dec_init(d, &in, is_signed, v2);
    int rc = orc_int_dec_next(d, out, n, err);
    if (rc == COMB_OK && d->in.pos != len)
        rc = COMB_EINTERNAL;  /* every byte should have been consumed */
    free(d);
    return rc;
}

TEST(rle2_spec_examples)
{
    CombErr err;
    int64_t out[32];
    static const uint8_t sr[] = {0x0a, 0x27, 0x10};
    CHECK_OK(decode_ints(sr, sizeof sr, false, true, out, 5, &err), &err);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(out[i], 10000);

    static const uint8_t direct[] = {0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e,
                                     0xde, 0xad, 0xbe, 0xef};
    CHECK_OK(decode_ints(direct, sizeof direct, false, true, out, 4, &err),
             &err);
    CHECK_EQ(out[0], 23713);
    CHECK_EQ(out[1], 43806);
    CHECK_EQ(out[2], 57005);
    CHECK_EQ(out[3], 48879);

    static const uint8_t pb[] = {
        0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70,
        0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82,
        0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8};
    static const int64_t pb_want[20] = {
        2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090,
        2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190};
    CHECK_OK(decode_ints(pb, sizeof pb, false, true, out, 20, &err), &err);
    for (int i = 0; i < 20; i++)
        CHECK_EQ(out[i], pb_want[i]);

    static const uint8_t delta[] = {0xc6, 0x09, 0x02, 0x02,
                                    0x22, 0x42, 0x42, 0x46};
    static const int64_t delta_want[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
    CHECK_OK(decode_ints(delta, sizeof delta, false, true, out, 10, &err),
             &err);
    for (int i = 0; i < 10; i++)
        CHECK_EQ(out[i], delta_want[i]);
}

TEST(rle1_spec_examples)
{
    CombErr err;
    int64_t out[100];
    static const uint8_t run[] = {0x61, 0x00, 0x07};
    CHECK_OK(decode_ints(run, sizeof run, false, false, out, 100, &err), &err);
    CHECK_EQ(out[0], 7);
    CHECK_EQ(out[99], 7);
    static const uint8_t down[] = {0x61, 0xff, 0x64};
    CHECK_OK(decode_ints(down, sizeof down, false, false, out, 100, &err),
             &err);
    CHECK_EQ(out[0], 100);
    CHECK_EQ(out[99], 1);
    static const uint8_t lit[] = {0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b};
    CHECK_OK(decode_ints(lit, sizeof lit, false, false, out, 5, &err), &err);
    CHECK_EQ(out[0], 2);
    CHECK_EQ(out[4], 11);
    /* signed literals are zigzag varints */
    static const uint8_t neg[] = {0xfe, 0x01, 0x80, 0x01};
    CHECK_OK(decode_ints(neg, sizeof neg, true, false, out, 2, &err), &err);
    CHECK_EQ(out[0], -1);
    CHECK_EQ(out[1], 64);
}

TEST(byte_and_bool_rle_spec_examples)
{
    CombErr err;
    OrcIn in;
    uint8_t out[100];
    static const uint8_t run[] = {0x61, 0x00};
    OrcByteDec bd;
    orc_in_init(&in, run, sizeof run, "test", 1, "DATA");
    orc_byte_dec_init(&bd, &in);
    CHECK_OK(orc_byte_dec_next(&bd, out, 100, &err), &err);
    CHECK_EQ(out[0], 0);
    CHECK_EQ(out[99], 0);
    static const uint8_t lit[] = {0xfe, 0x44, 0x45};
    orc_in_init(&in, lit, sizeof lit, "test", 1, "DATA");
    orc_byte_dec_init(&bd, &in);
    CHECK_OK(orc_byte_dec_next(&bd, out, 2, &err), &err);
    CHECK_EQ(out[0], 0x44);
    CHECK_EQ(out[1], 0x45);
    static const uint8_t bits[] = {0xff, 0x80};
    OrcBoolDec bo;
    orc_in_init(&in, bits, sizeof bits, "test", 1, "DATA");
    orc_bool_dec_init(&bo, &in);
    CHECK_OK(orc_bool_dec_next(&bo, out, 8, &err), &err);
    CHECK_EQ(out[0], 1);
    for (int i = 1; i < 8; i++)
        CHECK_EQ(out[i], 0);
}

/* Encode with the v2 encoder, decode, compare; returns encoded size. */
static long roundtrip(const int64_t *v, int n, bool is_signed)
{
    CombErr err;
    CombBuf buf = COMB_BUF_INIT;
    OrcIntEnc *e = malloc(sizeof *e);
    int64_t *out = malloc(sizeof *out * (size_t)(n ? n : 1));
    long size = -1;
    orc_int_enc_init(e, &buf, is_signed);
    for (int i = 0; i < n; i++)
        if (orc_int_enc_add(e, v[i]))
            goto done;
    if (orc_int_enc_flush(e))
        goto done;
    if (decode_ints(buf.data, buf.len, is_signed, true, out, (size_t)n,
                    &err) != COMB_OK) {
        printf("    decode failed: %s\n", err.msg);
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (out[i] != v[i]) {
            printf("    value %d: got %lld want %lld\n", i,
                   (long long)out[i], (long long)v[i]);
            goto done;
        }
    size = (long)buf.len;
done:
    comb_buf_free(&buf);
    orc_int_enc_free(e);
    free(e);
    free(out);
    return size;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) { return orc_test_rand(&rng_state); }

TEST(rle2_roundtrip_edges)
{
    static const int64_t edges[] = {INT64_MIN, INT64_MAX, 0, -1, 1,
                                    INT64_MIN + 1, INT64_MAX - 1, -2, 2,
                                    INT32_MIN, INT32_MAX, INT64_MIN,
                                    INT64_MIN, INT64_MIN, INT64_MAX,
                                    INT64_MAX, INT64_MAX, INT64_MAX};
    int n = (int)(sizeof edges / sizeof edges[0]);
    CHECK(roundtrip(edges, n, true) > 0);
    CHECK(roundtrip(edges, n, false) > 0);
    int64_t v[2000];
    /* every element count from 1 to 40 around the group limits */
    for (int len = 1; len <= 40; len++) {
        for (int i = 0; i < len; i++)
            v[i] = (int64_t)(rng() % 7) - 3;
        CHECK(roundtrip(v, len, true) > 0);
    }
    /* alternating extremes: DELTA must not be used (steps overflow) */
    for (int i = 0; i < 1000; i++)
        v[i] = i % 2 ? INT64_MAX : INT64_MIN;
    CHECK(roundtrip(v, 1000, true) > 0);
    CHECK(roundtrip(v, 1000, false) > 0);
}

TEST(rle2_roundtrip_random_widths)
{
    int64_t *v = malloc(sizeof *v * 5000);
    for (int bits = 1; bits <= 64; bits++) {
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        for (int i = 0; i < 5000; i++)
            v[i] = (int64_t)(rng() & mask);
        long a = roundtrip(v, 5000, true), b = roundtrip(v, 5000, false);
        if (a <= 0 || b <= 0) {
            free(v);
            CHECK(!"round trip failed");
        }
        for (int i = 0; i < 5000; i++)
            v[i] = -(int64_t)(rng() & (mask >> 1));
        if (roundtrip(v, 5000, true) <= 0) {
            free(v);
            CHECK(!"negative round trip failed");
        }
    }
    /* mostly small with rare outliers: patched base territory */
    for (int i = 0; i < 5000; i++)
        v[i] = (int64_t)(rng() % 100) + (i % 97 == 0 ? 1ll << 40 : 0);
    long patched = roundtrip(v, 5000, true);
    free(v);
    CHECK(patched > 0);
    CHECK(patched < 5000 * 2);  /* far smaller than 41-bit DIRECT */
}

TEST(rle2_runs_compress)
{
    int64_t *v = malloc(sizeof *v * 100000);
    for (int i = 0; i < 100000; i++)
        v[i] = i;                /* row ids: fixed-delta runs */
    long ids = roundtrip(v, 100000, false);
    for (int i = 0; i < 100000; i++)
        v[i] = 536870912;       /* a bucket property: one long repeat */
    long same = roundtrip(v, 100000, true);
    for (int i = 0; i < 100000; i++)
        v[i] = 5000000000ll - 3ll * i;   /* decreasing fixed step */
    long down = roundtrip(v, 100000, true);
    for (int i = 0; i < 100000; i++)
        v[i] = (i / 7) * 3;     /* short repeats of a rising value */
    long shortrep = roundtrip(v, 100000, true);
    free(v);
    CHECK(ids > 0 && ids < 2000);
    CHECK(same > 0 && same < 2000);
    CHECK(down > 0 && down < 2500);
    CHECK(shortrep > 0 && shortrep < 100000);
}

TEST(rle2_fixed_delta_header)
{
    CombBuf buf = COMB_BUF_INIT;
    OrcIntEnc e;
    orc_int_enc_init(&e, &buf, false);
    for (int i = 0; i < 512; i++)
        CHECK_EQ(orc_int_enc_add(&e, i), 0);
    CHECK_EQ(orc_int_enc_flush(&e), 0);
    orc_int_enc_free(&e);
    /* one DELTA run of 512 with width code 0: c1 ff 00 02 */
    CHECK_EQ(buf.len, 4);
    CHECK_EQ(buf.data[0], 0xc1);
    CHECK_EQ(buf.data[1], 0xff);
    CHECK_EQ(buf.data[2], 0x00);
    CHECK_EQ(buf.data[3], 0x02);
    comb_buf_free(&buf);
}

TEST(rle2_each_form_roundtrip)
{
    CombErr err;
    int64_t out[512], v[512];
    for (int form = 0; form < 4; form++) {
        for (int trial = 0; trial < 50; trial++) {
            int n = form == 0 ? 3 + (int)(rng() % 8) : 2 + (int)(rng() % 511);
            int64_t base = (int64_t)(rng() % 2000000) - 1000000;
            for (int i = 0; i < n; i++) {
                if (form == 0)
                    v[i] = base;
                else if (form == 3)
                    v[i] = i ? v[i - 1] - 1 - (int64_t)(rng() % 50) : base;
                else
                    v[i] = base + (int64_t)(rng() % 1000) +
                           (rng() % 20 == 0 ? (int64_t)(rng() % 100000000) : 0);
            }
            if (form == 2)
                v[n / 2] = base + (1ll << 45);  /* at least one patch */
            CombBuf buf = COMB_BUF_INIT;
            int rc = orc_rle2_write_as(&buf, true, form, v, n);
            if (rc == COMB_EINVALID && form == 2) {
                comb_buf_free(&buf);   /* too many patches for one group */
                continue;
            }
            CHECK_EQ(rc, 0);
            CHECK_EQ(buf.data[0] >> 6, form);
            rc = decode_ints(buf.data, buf.len, true, true, out, (size_t)n,
                             &err);
            comb_buf_free(&buf);
            CHECK_OK(rc, &err);
            for (int i = 0; i < n; i++)
                CHECK_EQ(out[i], v[i]);
        }
    }
    /* a gap over 255 between patches needs gap-only entries */
    for (int i = 0; i < 512; i++)
        v[i] = i % 10;
    v[3] = 1ll << 30;
    v[400] = 1ll << 31;
    CombBuf buf = COMB_BUF_INIT;
    CHECK_EQ(orc_rle2_write_as(&buf, false, 2, v, 512), 0);
    int rc = decode_ints(buf.data, buf.len, false, true, out, 512, &err);
    comb_buf_free(&buf);
    CHECK_OK(rc, &err);
    for (int i = 0; i < 512; i++)
        CHECK_EQ(out[i], v[i]);
}

TEST(byte_and_bool_rle_roundtrip)
{
    CombErr err;
    CombBuf buf = COMB_BUF_INIT;
    OrcByteEnc be;
    uint8_t *v = malloc(10000), *out = malloc(10000);
    for (int i = 0; i < 10000; i++)
        v[i] = (uint8_t)((i / 50) % 3 == 0 ? 7 : rng());
    orc_byte_enc_init(&be, &buf);
    for (int i = 0; i < 10000; i++)
        orc_byte_enc_add(&be, v[i]);
    orc_byte_enc_flush(&be);
    OrcIn in;
    OrcByteDec bd;
    orc_in_init(&in, buf.data, buf.len, "test", 1, "DATA");
    orc_byte_dec_init(&bd, &in);
    int rc = orc_byte_dec_next(&bd, out, 10000, &err);
    int same = rc == 0 && memcmp(v, out, 10000) == 0;
    comb_buf_clear(&buf);
    OrcBoolEnc bo;
    orc_bool_enc_init(&bo, &buf);
    for (int i = 0; i < 9999; i++)
        orc_bool_enc_add(&bo, v[i] & 1);
    orc_bool_enc_flush(&bo);
    OrcBoolDec bod;
    orc_in_init(&in, buf.data, buf.len, "test", 1, "PRESENT");
    orc_bool_dec_init(&bod, &in);
    int rc2 = orc_bool_dec_next(&bod, out, 9999, &err);
    int same2 = 1;
    for (int i = 0; i < 9999 && rc2 == 0; i++)
        same2 &= out[i] == (v[i] & 1);
    comb_buf_free(&buf);
    free(v);
    free(out);
    CHECK_OK(rc, &err);
    CHECK(same);
    CHECK_OK(rc2, &err);
    CHECK(same2);
}

TEST(rle_bad_bytes_fail_cleanly)
{
    CombErr err;
    int64_t out[600];
    static const uint8_t cut_direct[] = {0x5e, 0x03, 0x5c, 0xa1};
    CHECK_EQ(decode_ints(cut_direct, sizeof cut_direct, false, true, out, 4,
                         &err), COMB_ECORRUPT);
    CHECK(strstr(err.msg, "test") != NULL);
    static const uint8_t long_varint[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0x01};
    static const uint8_t v1[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0x7f};
    uint8_t lit[12] = {0xff};
    memcpy(lit + 1, long_varint, sizeof long_varint);
    CHECK_EQ(decode_ints(lit, sizeof lit, false, false, out, 1, &err),
             COMB_ECORRUPT);
    uint8_t lit2[12] = {0xff};
    memcpy(lit2 + 1, v1, sizeof v1);
    CHECK_EQ(decode_ints(lit2, sizeof lit2, false, false, out, 1, &err),
             COMB_ECORRUPT);
    /* patched base whose patch points past the run */
    static const uint8_t bad_patch[] = {0x80, 0x01, 0x00, 0x21, 0x00,
                                        0x00, 0xff};
    CHECK_EQ(decode_ints(bad_patch, sizeof bad_patch, false, true, out, 2,
                         &err), COMB_ECORRUPT);
    /* empty stream */
    CHECK_EQ(decode_ints(NULL, 0, false, true, out, 1, &err), COMB_ECORRUPT);
    /* fuzz: random bytes never crash */
    uint8_t junk[64];
    for (int t = 0; t < 3000; t++) {
        for (size_t i = 0; i < sizeof junk; i++)
            junk[i] = (uint8_t)rng();
        size_t len = rng() % sizeof junk;
        decode_ints(junk, len, t & 1, t & 2, out, 1 + rng() % 599, &err);
    }
}

/* The bytes of one RLE v2 DELTA run of len values with a fixed step
 * (width code 0) over signed values: header, zigzag base, zigzag step. */
static size_t fixed_delta_run(uint8_t *p, int len, int64_t base,
                              int64_t step)
{
    size_t n = 0;
    p[n++] = (uint8_t)(0xc0 | ((len - 1) >> 8));
    p[n++] = (uint8_t)((len - 1) & 0xff);
    uint64_t zz[2] = {((uint64_t)base << 1) ^ (uint64_t)(base >> 63),
                      ((uint64_t)step << 1) ^ (uint64_t)(step >> 63)};
    for (int k = 0; k < 2; k++) {
        uint64_t v = zz[k];
        for (; v >= 0x80; v >>= 7)
            p[n++] = (uint8_t)(v | 0x80);
        p[n++] = (uint8_t)v;
    }
    return n;
}

/* Fixed-step DELTA runs are filled two lanes at a time with a scalar
 * tail: every length around the lane and unroll sizes, rising, falling
 * and zero steps, sums wrapping past INT64_MAX as the format's modular
 * arithmetic does; read whole into the caller's array and cut in two
 * through the decoder's buffer. */
TEST(rle2_fixed_delta_fill_every_length)
{
    static const int lens[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 509, 510,
                               511, 512};
    static const int64_t steps[] = {1, -1, -3, 7, 0};
    static const int64_t bases[] = {0, -5, INT64_MAX - 2};
    uint8_t bytes[32];
    int64_t out[512];
    CombErr err;
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
        for (size_t si = 0; si < sizeof steps / sizeof *steps; si++)
            for (size_t bi = 0; bi < sizeof bases / sizeof *bases; bi++) {
                int len = lens[li];
                size_t n = fixed_delta_run(bytes, len, bases[bi], steps[si]);
                for (int cut = 0; cut < 2; cut++) {
                    OrcIn in;
                    OrcIntDec *d = malloc(sizeof *d);
                    int first = cut ? len / 2 : len;
                    orc_in_init(&in, bytes, n, "test", 1, "DATA");
                    orc_int_dec_init(d, &in, true, true);
                    CHECK_OK(orc_int_dec_next(d, out, (size_t)first, &err),
                             &err);
                    if (first < len)
                        CHECK_OK(orc_int_dec_next(d, out + first,
                                                  (size_t)(len - first),
                                                  &err),
                                 &err);
                    free(d);
                    for (int i = 0; i < len; i++)
                        CHECK_EQ(out[i],
                                 (int64_t)((uint64_t)bases[bi] +
                                           (uint64_t)steps[si] *
                                               (uint64_t)i));
                }
            }
}

/* Decode n values of the runs in bytes[0..len) in pieces of `piece`,
 * returning the decoder's streak after them. */
static uint64_t streak_after(const uint8_t *bytes, size_t len, int n,
                             int piece, int64_t *out)
{
    CombErr err;
    OrcIn in;
    OrcIntDec *d = malloc(sizeof *d);
    uint64_t streak;
    orc_in_init(&in, bytes, len, "test", 1, "DATA");
    orc_int_dec_init(d, &in, true, true);
    for (int at = 0; at < n; at += piece) {
        int k = n - at < piece ? n - at : piece;
        if (orc_int_dec_next(d, out + at, (size_t)k, &err) != COMB_OK) {
            free(d);
            return UINT64_MAX;
        }
    }
    streak = orc_int_dec_streak(d);
    free(d);
    return streak;
}

/* The decoder's streak (values known to rise by 1 without looking at
 * them) counts only +1 fixed-step runs that continue each other, through
 * its buffer too; anything else ends it.  The ACID reader trusts it to
 * skip checking an insert file's rowIds. */
TEST(rle2_streak_of_rising_runs)
{
    uint8_t bytes[64];
    int64_t out[1200];
    size_t n = fixed_delta_run(bytes, 512, 0, 1);
    n += fixed_delta_run(bytes + n, 512, 512, 1);
    n += fixed_delta_run(bytes + n, 100, 1024, 1);
    /* whole runs to the caller, and cut through the buffer */
    CHECK_EQ((long)streak_after(bytes, n, 1124, 1124, out), 1124);
    CHECK_EQ((long)streak_after(bytes, n, 1124, 300, out), 1124);
    CHECK_EQ((long)streak_after(bytes, n, 700, 100, out), 700);
    for (int i = 0; i < 1124; i++)
        CHECK_EQ(out[i], i);
    /* a gap between runs: only the run after it */
    n = fixed_delta_run(bytes, 512, 0, 1);
    n += fixed_delta_run(bytes + n, 512, 513, 1);
    CHECK_EQ((long)streak_after(bytes, n, 1024, 1024, out), 512);
    /* a run going back: the same */
    n = fixed_delta_run(bytes, 512, 0, 1);
    n += fixed_delta_run(bytes + n, 10, 511, 1);
    CHECK_EQ((long)streak_after(bytes, n, 522, 522, out), 10);
    /* steps other than +1 */
    n = fixed_delta_run(bytes, 100, 0, 2);
    CHECK_EQ((long)streak_after(bytes, n, 100, 100, out), 0);
    n = fixed_delta_run(bytes, 100, 5, 0);
    CHECK_EQ((long)streak_after(bytes, n, 100, 100, out), 0);
    /* another run kind after a rising one ends the streak: 0,1,2 as a
     * SHORT_REPEAT of 3 (value 3, signed: zigzag 6) */
    n = fixed_delta_run(bytes, 3, 0, 1);
    bytes[n++] = 0x00; /* SHORT_REPEAT, 1 byte, 3 times */
    bytes[n++] = 0x06;
    CHECK_EQ((long)streak_after(bytes, n, 6, 6, out), 0);
    CHECK_EQ(out[3], 3);
    CHECK_EQ(out[5], 3);
}

static void fill_row_ids(void *ctx, const CombType *root, CombBatch *b)
{
    const int64_t *step = ctx;
    (void)root;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].i64[i] = 7 + *step * i;
}

/* Through the reader: a bigint column written as 7, 8, 9, ... reads with
 * a streak covering each batch; one rising by 2 with none. */
TEST(orc_column_streak_of_written_ids)
{
    static const int64_t steps[2] = {1, 2};
    for (int s = 0; s < 2; s++) {
        char path[ORC_TEST_PATH_LEN];
        OrcWriterOptions opt;
        OrcReader *r;
        CombBatch b;
        CombErr err;
        int batches = 0;
        orc_writer_options_default(&opt);
        CHECK_OK(orc_test_write_column("ids.orc", "id", COMB_T_BIGINT, &opt,
                                       3000, fill_row_ids,
                                       (void *)&steps[s], path, &err),
                 &err);
        CHECK_OK(orc_test_reader_open(path, 1024, &r, &b, &err), &err);
        CHECK_EQ((long)orc_reader_column_streak(r, 1), 0); /* nothing read */
        while (orc_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0) {
            uint64_t streak = orc_reader_column_streak(r, 1);
            CHECK(s == 0 ? streak >= (uint64_t)b.n_rows : streak == 0);
            CHECK_EQ((long)orc_reader_column_streak(r, 0), 0); /* struct */
            batches++;
        }
        CHECK_EQ(batches, 3);
        comb_batch_free(&b);
        orc_reader_close(r);
    }
}
