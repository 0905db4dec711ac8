/*
 * dictwrite.c - the string dictionary of a stripe being written
 * (DICTIONARY_V2, as ORC Java writes it for string, varchar and char
 * columns).  While the stripe fills, every non-null value is looked up in
 * a hash table of the distinct keys seen so far (which point at their
 * first occurrence in the column's direct DATA bytes, so keys cost no
 * copy) and its key id recorded.  At the stripe's end the column keeps the
 * dictionary when distinct keys / non-null values <= the writer's
 * orc.dictionary.key.threshold (ORC Java's rule, 0.8 by default), else the
 * direct streams it also built.  The keys are written sorted by their
 * bytes, as ORC Java writes them.  A stripe whose first
 * ORC_DICT_EARLY_CHECK values already have too many distinct keys stops
 * collecting (ORC Java's early check), so a unique-valued column costs
 * no dictionary memory.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Values after which a dictionary with too many keys is given up. */
#define ORC_DICT_EARLY_CHECK 10000

typedef struct OrcDictKey {
    uint64_t off;    /* first occurrence in the DATA bytes */
    uint32_t len;
    uint32_t hash;
} OrcDictKey;

void orc_dict_init(OrcDictEnc *d, double threshold)
{
    memset(d, 0, sizeof *d);
    d->threshold = threshold;
    d->active = threshold > 0;
}

void orc_dict_free(OrcDictEnc *d)
{
    comb_free(d->keys);
    comb_free(d->slots);
    comb_free(d->ids);
    double threshold = d->threshold;
    memset(d, 0, sizeof *d);
    d->threshold = threshold;
}

void orc_dict_reset(OrcDictEnc *d)
{
    d->n_keys = 0;
    d->n_ids = 0;
    d->active = d->threshold > 0;
    if (d->slots)
        memset(d->slots, 0, d->n_slots * sizeof *d->slots);
}

size_t orc_dict_mem(const OrcDictEnc *d)
{
    return d->cap_keys * sizeof *d->keys + d->n_slots * sizeof *d->slots +
           d->cap_ids * sizeof *d->ids;
}

static uint32_t key_hash(const uint8_t *p, uint32_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
    uint32_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    for (; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    h ^= h >> 29;
    return (uint32_t)h;
}

static int grow_slots(OrcDictEnc *d)
{
    size_t n = d->n_slots ? d->n_slots * 2 : 1024;
    uint32_t *s = comb_calloc(n, sizeof *s);
    if (!s)
        return COMB_ENOMEM;
    for (uint32_t k = 0; k < d->n_keys; k++) {
        size_t at = d->keys[k].hash & (n - 1);
        while (s[at])
            at = (at + 1) & (n - 1);
        s[at] = k + 1;
    }
    comb_free(d->slots);
    d->slots = s;
    d->n_slots = n;
    return COMB_OK;
}

/* arr with room for one more element than its n: the same array, a
 * larger copy, or NULL out of memory (arr still valid then). */
static void *grown(void *arr, size_t n, size_t *cap, size_t elem,
                   size_t first)
{
    if (n < *cap)
        return arr;
    size_t c = *cap ? *cap * 2 : first;
    void *p = comb_realloc(arr, c * elem);
    if (p)
        *cap = c;
    return p;
}

static int push_key(OrcDictEnc *d, uint64_t off, uint32_t len, uint32_t h)
{
    OrcDictKey *k = grown(d->keys, d->n_keys, &d->cap_keys, sizeof *k, 256);
    if (!k)
        return COMB_ENOMEM;
    d->keys = k;
    d->keys[d->n_keys++] = (OrcDictKey){off, len, h};
    return COMB_OK;
}

static int push_id(OrcDictEnc *d, uint32_t id)
{
    uint32_t *ids = grown(d->ids, d->n_ids, &d->cap_ids, sizeof *ids, 1024);
    if (!ids)
        return COMB_ENOMEM;
    d->ids = ids;
    d->ids[d->n_ids++] = id;
    return COMB_OK;
}

/* Too many distinct keys already: the stripe goes direct, and the
 * dictionary's memory is given back. */
static void give_up(OrcDictEnc *d)
{
    orc_dict_free(d);
    d->active = false;
}

/* The id of the key at p, added when new. */
static int find_or_add(OrcDictEnc *d, const CombBuf *data, uint64_t off,
                       const uint8_t *p, uint32_t len, uint32_t *id)
{
    uint32_t h = key_hash(p, len);
    size_t at = h & (d->n_slots - 1);
    for (uint32_t k; (k = d->slots[at]) != 0;
         at = (at + 1) & (d->n_slots - 1)) {
        const OrcDictKey *key = &d->keys[k - 1];
        if (key->hash == h && key->len == len &&
            (len == 0 || memcmp(data->data + key->off, p, len) == 0)) {
            *id = k - 1;
            return COMB_OK;
        }
    }
    if (push_key(d, off, len, h))
        return COMB_ENOMEM;
    d->slots[at] = d->n_keys;
    *id = d->n_keys - 1;
    return COMB_OK;
}

int orc_dict_add(OrcDictEnc *d, const CombBuf *data, uint64_t off,
                 uint32_t len)
{
    uint32_t id;
    if (!d->active)
        return COMB_OK;
    if ((d->n_keys + 1) * 2 > d->n_slots && grow_slots(d))
        return COMB_ENOMEM;
    const uint8_t *p = data->data ? data->data + off : (const uint8_t *)"";
    if (find_or_add(d, data, off, p, len, &id) || push_id(d, id))
        return COMB_ENOMEM;
    if (d->n_ids == ORC_DICT_EARLY_CHECK && !orc_dict_wanted(d))
        give_up(d);
    return COMB_OK;
}

bool orc_dict_wanted(const OrcDictEnc *d)
{
    double ratio = d->n_ids ? (double)d->n_keys / (double)d->n_ids : 0.0;
    return d->active && ratio <= d->threshold;
}

static int compare_keys(const void *a, const void *b, void *ctx)
{
    const OrcDictKey *x = a, *y = b;
    const uint8_t *data = ctx;
    uint32_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(data + x->off, data + y->off, n) : 0;
    if (c)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* The keys sorted by their bytes; rank[id] = an id's place among them. */
static int sort_keys(OrcDictEnc *d, const CombBuf *data, uint32_t **rank)
{
    /* the hash field is free now: it remembers each key's id */
    for (uint32_t k = 0; k < d->n_keys; k++)
        d->keys[k].hash = k;
    if (d->n_keys > 1)
        qsort_r(d->keys, d->n_keys, sizeof *d->keys, compare_keys,
                data->data);
    *rank = comb_malloc((d->n_keys + 1) * sizeof **rank);
    if (!*rank)
        return COMB_ENOMEM;
    for (uint32_t k = 0; k < d->n_keys; k++)
        (*rank)[d->keys[k].hash] = k;
    return COMB_OK;
}

/* Mark the groups whose ids start at id i. */
static void mark_ids(OrcGroupMark *marks, size_t n_marks, size_t *g,
                     size_t i, const CombBuf *data, const OrcIntEnc *e)
{
    for (; *g < n_marks && marks[*g].values <= i; (*g)++) {
        marks[*g].data[0] = data->len;
        marks[*g].data[1] = (uint64_t)e->n;
        marks[*g].data[2] = 0;
    }
}

int orc_dict_write(OrcDictEnc *d, CombBuf *data, CombBuf *lengths,
                   CombBuf *dict_data, OrcGroupMark *marks, size_t n_marks)
{
    size_t g = 0;
    uint32_t *rank = NULL;
    OrcIntEnc e;
    int rc = sort_keys(d, data, &rank);
    comb_buf_clear(dict_data);
    comb_buf_clear(lengths);
    orc_int_enc_init(&e, lengths, false);
    for (uint32_t k = 0; k < d->n_keys && !rc; k++) {
        const OrcDictKey *key = &d->keys[k];
        if ((key->len &&
             comb_buf_append(dict_data, data->data + key->off, key->len)) ||
            orc_int_enc_add(&e, key->len))
            rc = COMB_ENOMEM;
    }
    if (!rc)
        rc = orc_int_enc_flush(&e);
    orc_int_enc_free(&e);
    /* the direct bytes are not needed any more: DATA becomes the ids */
    comb_buf_clear(data);
    orc_int_enc_init(&e, data, false);
    for (size_t i = 0; i < d->n_ids && !rc; i++) {
        mark_ids(marks, n_marks, &g, i, data, &e);
        rc = orc_int_enc_add(&e, rank[d->ids[i]]);
    }
    mark_ids(marks, n_marks, &g, d->n_ids, data, &e);
    if (!rc)
        rc = orc_int_enc_flush(&e);
    orc_int_enc_free(&e);
    comb_free(rank);
    return rc;
}
