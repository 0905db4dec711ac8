/*
 * test_proto.c - the hand decoder of stripe footers
 * (orc_pb_stripe_footer_arena) gives what protobuf-c's parser gives: the
 * same fields, has-flags and values (uint32 and enums cut to 32 bits, the
 * last of repeated scalars), the same failures, on footers packed by
 * protobuf-c, on hand-made bytes (huge varints, fields out of order,
 * unknown fields, encryption variants, wrong wire types, two time zones)
 * and on every prefix of each.
 */
#include "unit.h"
#include "orc/orc_int.h"

#include <string.h>

#include "common/arena.h"

static bool same_stream(const Orc__Proto__Stream *a,
                        const Orc__Proto__Stream *b)
{
    return a->has_kind == b->has_kind && a->kind == b->kind &&
           a->has_column == b->has_column && a->column == b->column &&
           a->has_length == b->has_length && a->length == b->length;
}

static bool same_encoding(const Orc__Proto__ColumnEncoding *a,
                          const Orc__Proto__ColumnEncoding *b)
{
    return a->has_kind == b->has_kind && a->kind == b->kind &&
           a->has_dictionarysize == b->has_dictionarysize &&
           a->dictionarysize == b->dictionarysize &&
           a->has_bloomencoding == b->has_bloomencoding &&
           a->bloomencoding == b->bloomencoding;
}

static bool same_footer(const Orc__Proto__StripeFooter *a,
                        const Orc__Proto__StripeFooter *b)
{
    if (a->n_streams != b->n_streams || a->n_columns != b->n_columns ||
        a->n_encryption != b->n_encryption ||
        !a->writertimezone != !b->writertimezone ||
        (a->writertimezone &&
         strcmp(a->writertimezone, b->writertimezone) != 0))
        return false;
    for (size_t i = 0; i < a->n_streams; i++)
        if (!same_stream(a->streams[i], b->streams[i]))
            return false;
    for (size_t i = 0; i < a->n_columns; i++)
        if (!same_encoding(a->columns[i], b->columns[i]))
            return false;
    return true;
}

/* Both decoders on bytes p[0..n): the same outcome (*rc), the same
 * message. */
static void check_same(const uint8_t *p, size_t n, int *rc)
{
    CombArena a;
    Orc__Proto__StripeFooter *mine = NULL, *theirs = NULL;
    int rc_theirs;
    comb_arena_init(&a, 4096);
    *rc = orc_pb_stripe_footer_arena(&a, n, p, &mine);
    rc_theirs = orc_pb_unpack_arena(&a, &orc__proto__stripe_footer__descriptor,
                                    n, p, (ProtobufCMessage **)&theirs);
    bool same = *rc == rc_theirs &&
                (*rc != COMB_OK || same_footer(mine, theirs));
    comb_arena_free(&a);
    CHECK(same);
}

/* check_same on the bytes (which parse) and on each of their prefixes. */
static void check_prefixes(const uint8_t *p, size_t n)
{
    int rc;
    check_same(p, n, &rc);
    CHECK_EQ(rc, COMB_OK);
    for (size_t k = 0; k < n; k++)
        check_same(p, k, &rc);
}

TEST(proto_stripe_footer_as_protobuf_c)
{
    Orc__Proto__Stream st[4];
    Orc__Proto__Stream *sts[4] = {&st[0], &st[1], &st[2], &st[3]};
    Orc__Proto__ColumnEncoding en[3];
    Orc__Proto__ColumnEncoding *ens[3] = {&en[0], &en[1], &en[2]};
    Orc__Proto__StripeFooter sf = ORC__PROTO__STRIPE_FOOTER__INIT;
    uint8_t buf[512];
    size_t n;
    for (int i = 0; i < 4; i++) {
        orc__proto__stream__init(&st[i]);
        st[i].has_kind = st[i].has_column = st[i].has_length = true;
        st[i].kind = i == 3 ? ORC__PROTO__STREAM__KIND__FILE_STATISTICS
                            : (Orc__Proto__Stream__Kind)i;
        st[i].column = (uint32_t)(i * 1000);
        st[i].length = (uint64_t)1 << (i * 20);
    }
    st[1].has_length = false; /* a field left out */
    for (int i = 0; i < 3; i++)
        orc__proto__column_encoding__init(&en[i]);
    en[1].has_kind = en[1].has_dictionarysize = true;
    en[1].kind = ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
    en[1].dictionarysize = 4000000000u;
    en[2].has_bloomencoding = true;
    en[2].bloomencoding = 1;
    sf.n_streams = 4;
    sf.streams = sts;
    sf.n_columns = 3;
    sf.columns = ens;
    sf.writertimezone = "America/Los_Angeles";
    n = orc__proto__stripe_footer__pack(&sf, buf);
    check_prefixes(buf, n);
    sf.writertimezone = NULL;
    n = orc__proto__stripe_footer__pack(&sf, buf);
    check_prefixes(buf, n);
    check_prefixes(buf, 0); /* the empty footer */
}

TEST(proto_stripe_footer_hand_made_bytes)
{
    /* column and kind as 10-byte varints (cut to 32 bits: kind -1),
     * length 2^64 - 1, fields in reverse order, kind twice (the last
     * counts), an encoding before the streams */
    static const uint8_t odd[] = {
        0x12, 0x02, 0x08, 0x03,                         /* encoding */
        0x0a, 0x1e,                                     /* stream: */
        0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        0x10, 0x85, 0x80, 0x80, 0x80, 0x10,             /* 2^32 + 5 */
        0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        0x08, 0x02, 0x1a, 0x01, 0x7a};                  /* tz "z" */
    /* what the hand decoder leaves to protobuf-c */
    static const uint8_t unknown[] = {0x0a, 0x02, 0x08, 0x01, 0x48, 0x05};
    static const uint8_t encryption[] = {0x0a, 0x02, 0x08, 0x01,
                                         0x22, 0x04, 0x0a, 0x02, 0x08, 0x01};
    static const uint8_t two_zones[] = {0x1a, 0x01, 0x61, 0x1a, 0x01, 0x62};
    static const uint8_t kind_as_bytes[] = {0x0a, 0x03, 0x0a, 0x01, 0x01};
    /* kind as a fixed32 whose 4 bytes and the next would read as varint
     * fields */
    static const uint8_t kind_as_fixed32[] = {0x0a, 0x06, 0x0d, 0x02, 0x10,
                                              0x03, 0x08, 0x01};
    static const uint8_t inner_unknown[] = {0x0a, 0x04, 0x08, 0x01, 0x20,
                                            0x07};
    static const uint8_t field_zero[] = {0x02, 0x00};
    static const uint8_t long_varint[] = {0x0a, 0x0d, 0x08, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0x01, 0x00};
    CombArena a;
    Orc__Proto__StripeFooter *sf;
    int rc;
    check_prefixes(odd, sizeof odd);
    comb_arena_init(&a, 4096);
    CHECK_EQ(orc_pb_stripe_footer_arena(&a, sizeof odd, odd, &sf), COMB_OK);
    CHECK_EQ(sf->n_streams, 1);
    CHECK_EQ(sf->streams[0]->kind, 2);
    CHECK_EQ(sf->streams[0]->column, 5);
    CHECK(sf->streams[0]->length == UINT64_MAX);
    CHECK_EQ(sf->n_columns, 1);
    CHECK_EQ(sf->columns[0]->kind, 3);
    CHECK(!sf->columns[0]->has_dictionarysize);
    CHECK_STR(sf->writertimezone, "z");
    comb_arena_free(&a);
    check_prefixes(unknown, sizeof unknown);
    check_prefixes(encryption, sizeof encryption);
    check_prefixes(two_zones, sizeof two_zones);
    check_same(kind_as_bytes, sizeof kind_as_bytes, &rc);
    check_same(kind_as_fixed32, sizeof kind_as_fixed32, &rc);
    check_prefixes(inner_unknown, sizeof inner_unknown);
    check_same(field_zero, sizeof field_zero, &rc);
    check_same(long_varint, sizeof long_varint, &rc);
}
