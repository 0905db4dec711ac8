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
