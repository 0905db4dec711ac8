/*
 * proto.c - glue to protobuf-c: an allocator that routes its memory
 * through comb's accounting allocator, messages built in arenas, and the
 * names of ORC's enums.
 */
#include <stdbool.h>
#include "orc/orc_int.h"
#include "common/alloc.h"

static void *pb_alloc(void *data, size_t size)
{
    (void)data;
    return comb_malloc(size ? size : 1);
}

static void pb_free(void *data, void *p)
{
    (void)data;
    comb_free(p);
}

ProtobufCAllocator orc_pb_alloc = {pb_alloc, pb_free, NULL};

/* Like pb_alloc, but records a failure in the bool behind data. */
static void *pb_alloc_noting(void *data, size_t size)
{
    void *p = pb_alloc(NULL, size);
    if (!p)
        *(bool *)data = true;
    return p;
}

int orc_pb_unpack(const ProtobufCMessageDescriptor *desc, size_t len,
                  const uint8_t *data, ProtobufCMessage **out)
{
    bool oom = false;
    ProtobufCAllocator a = {pb_alloc_noting, pb_free, &oom};
    *out = protobuf_c_message_unpack(desc, &a, len, data);
    if (*out)
        return COMB_OK;
    return oom ? COMB_ENOMEM : COMB_ECORRUPT;
}

/* Arena allocation for messages that live as long as their reader (the
 * postscript, footer and metadata of a file): no malloc per field, and
 * nothing to walk when they go, the arena's reset frees them. */
typedef struct PbArena {
    CombArena *arena;
    bool oom;
} PbArena;

static void *pb_arena_alloc(void *data, size_t size)
{
    PbArena *x = data;
    void *p = comb_arena_alloc(x->arena, size ? size : 1);
    if (!p)
        x->oom = true;
    return p;
}

static void pb_arena_free(void *data, void *p)
{
    (void)data;
    (void)p; /* the arena frees it */
}

int orc_pb_unpack_arena(CombArena *arena,
                        const ProtobufCMessageDescriptor *desc, size_t len,
                        const uint8_t *data, ProtobufCMessage **out)
{
    PbArena x = {arena, false};
    ProtobufCAllocator a = {pb_arena_alloc, pb_arena_free, &x};
    *out = protobuf_c_message_unpack(desc, &a, len, data);
    if (*out)
        return COMB_OK;
    return x.oom ? COMB_ENOMEM : COMB_ECORRUPT;
}

void *orc_pb_new(CombArena *a, const ProtobufCMessageDescriptor *desc)
{
    void *m = comb_arena_alloc(a, desc->sizeof_message);
    if (m)
        protobuf_c_message_init(desc, m);
    return m;
}

const char *orc_stream_kind_name(int kind)
{
    static const char *const names[] = {
        "PRESENT", "DATA", "LENGTH", "DICTIONARY_DATA", "DICTIONARY_COUNT",
        "SECONDARY", "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8",
        "ENCRYPTED_INDEX", "ENCRYPTED_DATA"};
    if (kind >= 0 && kind < (int)(sizeof names / sizeof names[0]))
        return names[kind];
    if (kind == 100)
        return "STRIPE_STATISTICS";
    if (kind == 101)
        return "FILE_STATISTICS";
    return "UNKNOWN";
}

const char *orc_encoding_name(int kind)
{
    static const char *const names[] = {"DIRECT", "DICTIONARY", "DIRECT_V2",
                                        "DICTIONARY_V2"};
    return kind >= 0 && kind < 4 ? names[kind] : "UNKNOWN";
}

/* ------------------------------------------- stripe footers by hand */

/* A window of protobuf wire bytes. */
typedef struct PbIn {
    const uint8_t *p, *end;
} PbIn;

/* A base-128 varint of more than one byte; false when truncated or
 * longer than 10 bytes. */
static bool pb_varint_long(PbIn *in, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 70 && in->p < in->end; shift += 7) {
        uint8_t b = *in->p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

/* A varint: most of a stripe footer's tags and values are one byte. */
static inline bool pb_varint(PbIn *in, uint64_t *v)
{
    if (in->p < in->end && *in->p < 0x80) {
        *v = *in->p++;
        return true;
    }
    return pb_varint_long(in, v);
}

/* A field's tag: its number and wire type. */
static bool pb_tag(PbIn *in, uint32_t *field, int *wire)
{
    uint64_t t;
    if (!pb_varint(in, &t) || t >> 32)
        return false;
    *field = (uint32_t)(t >> 3);
    *wire = (int)(t & 7);
    return true;
}

/* The bytes of a length-delimited field. */
static bool pb_bytes(PbIn *in, PbIn *sub)
{
    uint64_t n;
    if (!pb_varint(in, &n) || n > (uint64_t)(in->end - in->p))
        return false;
    sub->p = in->p;
    sub->end = in->p + n;
    in->p += n;
    return true;
}

/* A Stream or ColumnEncoding: fields 1-3, each a varint.  Values land as
 * protobuf-c's parser puts them (enums and uint32 the low 32 bits; the
 * last of repeated occurrences wins); false for anything else. */
static bool pb_three_varints(PbIn in, uint64_t v[3], bool has[3])
{
    while (in.p < in.end) {
        uint32_t field;
        int wire;
        if (!pb_tag(&in, &field, &wire) || wire != 0 || field < 1 ||
            field > 3 || !pb_varint(&in, &v[field - 1]))
            return false;
        has[field - 1] = true;
    }
    return true;
}

static void set_stream(Orc__Proto__Stream *s, const uint64_t v[3],
                       const bool has[3])
{
    orc__proto__stream__init(s);
    s->has_kind = has[0];
    s->kind = (Orc__Proto__Stream__Kind)(int32_t)(uint32_t)v[0];
    s->has_column = has[1];
    s->column = (uint32_t)v[1];
    s->has_length = has[2];
    s->length = v[2];
}

static void set_encoding(Orc__Proto__ColumnEncoding *e, const uint64_t v[3],
                         const bool has[3])
{
    orc__proto__column_encoding__init(e);
    e->has_kind = has[0];
    e->kind = (Orc__Proto__ColumnEncoding__Kind)(int32_t)(uint32_t)v[0];
    e->has_dictionarysize = has[1];
    e->dictionarysize = (uint32_t)v[1];
    e->has_bloomencoding = has[2];
    e->bloomencoding = (uint32_t)v[2];
}

/* One pass over a stripe footer of streams, encodings and at most one
 * writer time zone: with sf NULL it counts streams and encodings and
 * checks the shape, else it fills sf's arrays (room for the counts
 * made). */
static bool stripe_footer_pass(PbIn in, size_t *n_streams, size_t *n_cols,
                               Orc__Proto__StripeFooter *sf, CombArena *a)
{
    bool zone = false;
    *n_streams = *n_cols = 0;
    while (in.p < in.end) {
        uint32_t field;
        int wire;
        PbIn sub;
        uint64_t v[3] = {0};
        bool has[3] = {false};
        if (!pb_tag(&in, &field, &wire) || wire != 2 || field < 1 ||
            field > 3 || !pb_bytes(&in, &sub))
            return false;
        if (field == 3) {
            if (zone)
                return false; /* protobuf-c's rule for two: the last */
            zone = true;
            if (sf && !(sf->writertimezone = comb_arena_strndup(
                            a, (const char *)sub.p, (size_t)(sub.end - sub.p))))
                return false;
            continue;
        }
        if (!pb_three_varints(sub, v, has))
            return false;
        if (field == 1 && sf)
            set_stream(sf->streams[*n_streams], v, has);
        else if (sf)
            set_encoding(sf->columns[*n_cols], v, has);
        *(field == 1 ? n_streams : n_cols) += 1;
    }
    return true;
}

/* Room in arena a for n messages of `size` bytes and the n pointers to
 * them; false when out of memory. */
static bool pb_array(CombArena *a, size_t n, size_t size, void ***ptrs)
{
    char *msgs = comb_arena_alloc(a, n * size + 1);
    *ptrs = comb_arena_alloc(a, n * sizeof **ptrs + 1);
    if (!msgs || !*ptrs)
        return false;
    for (size_t i = 0; i < n; i++)
        (*ptrs)[i] = msgs + i * size;
    return true;
}

int orc_pb_stripe_footer_arena(CombArena *arena, size_t len,
                               const uint8_t *data,
                               Orc__Proto__StripeFooter **out)
{
    PbIn in = {data, data + len};
    size_t n_streams, n_cols;
    Orc__Proto__StripeFooter *sf;
    if (!stripe_footer_pass(in, &n_streams, &n_cols, NULL, NULL))
        return orc_pb_unpack_arena(arena, &orc__proto__stripe_footer__descriptor,
                                   len, data, (ProtobufCMessage **)out);
    if (!(sf = orc_pb_new(arena, &orc__proto__stripe_footer__descriptor)) ||
        !pb_array(arena, n_streams, sizeof **sf->streams,
                  (void ***)&sf->streams) ||
        !pb_array(arena, n_cols, sizeof **sf->columns,
                  (void ***)&sf->columns) ||
        !stripe_footer_pass(in, &sf->n_streams, &sf->n_columns, sf, arena))
        return COMB_ENOMEM; /* the first pass took the same bytes */
    *out = sf;
    return COMB_OK;
}
