/*
 * idxwrite.c - the row index and bloom filters of a pending stripe.  At
 * the start of each row group the writer marks where every stream of
 * every column stands (uncompressed bytes so far and the values its
 * encoder still holds, which will be written from there); at its end the
 * group's statistics are packed and its bloom filter closed.  When the
 * stripe is written, each mark becomes the specification's positions
 * (index.c's layout): a stream's uncompressed offset u lies in chunk
 * u / block (chunks hold exactly `block` bytes before compression), so
 * its place is that chunk's stored offset and u % block.  PRESENT
 * positions are left out when the stripe has no NULL (no PRESENT
 * stream), as ORC Java and C++ do.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <string.h>

int orc_colwrite_bloom_init(OrcColWrite *c, uint64_t n_bits,
                            uint32_t n_hash)
{
    c->bloom = comb_calloc((size_t)(n_bits / 64), sizeof *c->bloom);
    if (!c->bloom)
        return COMB_ENOMEM;
    c->bloom_bits = n_bits;
    c->bloom_hash = n_hash;
    return COMB_OK;
}

/* The encoder that writes a column's DATA stream, if it run-length
 * encodes. */
static void data_mark(const OrcColWrite *c, uint64_t out[3])
{
    out[0] = c->data_buf.len;
    out[1] = out[2] = 0;
    switch (c->type->kind) {
    case COMB_T_BOOLEAN:
        out[1] = (uint64_t)(c->bools.bytes.n_lit + c->bools.bytes.run_len);
        out[2] = (uint64_t)c->bools.n_bits;
        break;
    case COMB_T_TINYINT:
        out[1] = (uint64_t)(c->bytes.n_lit + c->bytes.run_len);
        break;
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
    case COMB_T_TIMESTAMP:
        out[1] = (uint64_t)c->ints.n;
        break;
    default:  /* raw bytes; dictionary ids are marked by orc_dict_write */
        break;
    }
}

int orc_colwrite_mark(OrcColWrite *c)
{
    if (c->n_marks == c->cap_marks) {
        size_t cap = c->cap_marks ? 2 * c->cap_marks : 8;
        OrcGroupMark *m = comb_realloc(c->marks, cap * sizeof *m);
        size_t *e = comb_realloc(c->pb_end, cap * sizeof *e);
        if (m)
            c->marks = m;
        if (e)
            c->pb_end = e;
        if (!m || !e)
            return COMB_ENOMEM;
        c->cap_marks = cap;
    }
    OrcGroupMark *m = &c->marks[c->n_marks++];
    const OrcByteEnc *pb = &c->present.bytes;
    m->present[0] = c->present_buf.len;
    m->present[1] = (uint64_t)(pb->n_lit + pb->run_len);
    m->present[2] = (uint64_t)c->present.n_bits;
    data_mark(c, m->data);
    m->length[0] = c->length_buf.len;
    m->length[1] = (uint64_t)c->lens.n;
    m->secondary[0] = c->secondary_buf.len;
    m->secondary[1] = (uint64_t)c->secondary.n;
    m->values = c->stripe_stats.n_values + c->group_stats.n_values;
    return COMB_OK;
}

/* BloomFilterIndex's `repeated BloomFilter bloomFilter = 1` entry of the
 * group's filter: numHashFunctions = 1, utf8bitset = 3 (the words
 * little-endian), then the bits are cleared for the next group. */
static int close_bloom(OrcColWrite *c)
{
    uint8_t head[32];
    size_t words = (size_t)(c->bloom_bits / 64), bytes = words * 8, n = 0;
    CombBuf inner = COMB_BUF_INIT;
    int rc = COMB_OK;
    head[n++] = 0x08;
    if (comb_buf_append(&inner, head, n) ||
        orc_varint_put(&inner, c->bloom_hash) ||
        comb_buf_append_byte(&inner, 0x1a) || orc_varint_put(&inner, bytes) ||
        comb_buf_append(&inner, c->bloom, bytes) ||
        comb_buf_append_byte(&c->bloom_pb, 0x0a) ||
        orc_varint_put(&c->bloom_pb, inner.len) ||
        comb_buf_append(&c->bloom_pb, inner.data, inner.len))
        rc = COMB_ENOMEM;
    comb_buf_free(&inner);
    memset(c->bloom, 0, bytes);
    return rc;
}

int orc_colwrite_group_end(OrcColWrite *c, bool index, CombArena *tmp)
{
    if (index) {
        Orc__Proto__ColumnStatistics pb =
            ORC__PROTO__COLUMN_STATISTICS__INIT;
        comb_arena_reset(tmp);
        if (orc_stats_to_proto(&c->group_stats, &pb, tmp))
            return COMB_ENOMEM;
        size_t size = protobuf_c_message_get_packed_size(&pb.base);
        if (comb_buf_reserve(&c->group_pb, size))
            return COMB_ENOMEM;
        c->group_pb.len += protobuf_c_message_pack(
            &pb.base, c->group_pb.data + c->group_pb.len);
        c->pb_end[c->n_marks - 1] = c->group_pb.len;
        if (c->bloom && close_bloom(c))
            return COMB_ENOMEM;
    }
    if (orc_stats_merge(&c->stripe_stats, &c->group_stats))
        return COMB_ENOMEM;
    orc_stats_reset(&c->group_stats);
    return COMB_OK;
}

/* ------------------------------------------------------------ positions */

/* The place of uncompressed offset u of a stream stored as p[0..n). */
static int put_place(CombBuf *dst, bool compressed, uint64_t block,
                     const uint8_t *p, size_t n, uint64_t u)
{
    if (!compressed)
        return orc_varint_put(dst, u);
    uint64_t chunk = u / block, off = 0;
    for (uint64_t i = 0; i < chunk && off + 3 <= n; i++) {
        size_t clen;
        bool original;
        orc_chunk_header(p + off, &clen, &original);
        off += 3 + clen;
    }
    return orc_varint_put(dst, off) || orc_varint_put(dst, u % block);
}

/* A group's positions, packed (varints), onto dst. */
static int put_positions(const OrcColWrite *c, const OrcGroupMark *m,
                         bool compressed, uint64_t block, const uint8_t *out,
                         const size_t start[ORC_N_SLOTS],
                         const size_t len[ORC_N_SLOTS], CombBuf *dst)
{
    OrcPosStream ps[ORC_POS_MAX_STREAMS];
    int n = orc_pos_layout(c->type->kind, orc_colwrite_encoding(c),
                           c->stripe_stats.has_null, false, ps);
    for (int i = 0; i < n; i++) {
        const uint64_t *v = ps[i].slot == ORC__PROTO__STREAM__KIND__PRESENT
                                ? m->present
                          : ps[i].slot == ORC__PROTO__STREAM__KIND__DATA
                                ? m->data
                          : ps[i].slot == ORC__PROTO__STREAM__KIND__LENGTH
                                ? m->length
                                : m->secondary;
        int k = ps[i].slot;
        if (put_place(dst, compressed, block, out + start[k], len[k], v[0]) ||
            (ps[i].form != ORC_POS_BYTES && orc_varint_put(dst, v[1])) ||
            (ps[i].form == ORC_POS_BOOL && orc_varint_put(dst, v[2])))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

int orc_colwrite_row_index(const OrcColWrite *c, bool compressed,
                           uint64_t block, const uint8_t *out,
                           const size_t start[ORC_N_SLOTS],
                           const size_t len[ORC_N_SLOTS], CombBuf *dst)
{
    CombBuf pos = COMB_BUF_INIT, entry = COMB_BUF_INIT;
    int rc = COMB_OK;
    comb_buf_clear(dst);
    for (size_t g = 0; g < c->n_marks && !rc; g++) {
        size_t from = g ? c->pb_end[g - 1] : 0;
        comb_buf_clear(&pos);
        comb_buf_clear(&entry);
        /* RowIndexEntry: positions = 1 (packed), statistics = 2 */
        if (put_positions(c, &c->marks[g], compressed, block, out, start,
                          len, &pos) ||
            (pos.len && (comb_buf_append_byte(&entry, 0x0a) ||
                         orc_varint_put(&entry, pos.len) ||
                         comb_buf_append(&entry, pos.data, pos.len))) ||
            comb_buf_append_byte(&entry, 0x12) ||
            orc_varint_put(&entry, c->pb_end[g] - from) ||
            comb_buf_append(&entry, c->group_pb.data + from,
                            c->pb_end[g] - from) ||
            /* RowIndex: entry = 1 */
            comb_buf_append_byte(dst, 0x0a) ||
            orc_varint_put(dst, entry.len) ||
            comb_buf_append(dst, entry.data, entry.len))
            rc = COMB_ENOMEM;
    }
    comb_buf_free(&pos);
    comb_buf_free(&entry);
    return rc;
}
