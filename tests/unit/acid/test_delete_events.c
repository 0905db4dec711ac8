/* The delete-event set: key order (hive-acid-storage.md §6.1), dedupe,
 * cursor probes in and out of order. */
#include "unit.h"

#include "acid/acid_int.h"

static AcidKey key(int64_t owid, int32_t bucket, int64_t row_id)
{
    AcidKey k = {owid, row_id, bucket, 0};
    return k;
}

TEST(delete_set_order_and_dedupe)
{
    AcidDeleteSet s;
    CombErr err;
    /* bucket compares signed: a V0 negative value sorts first */
    AcidKey in[] = {key(2, 536870912, 5), key(1, 536936448, 0),
                    key(1, 536870912, 9), key(1, 536870912, 9),
                    key(1, -5, 100), key(0, 536870912, 1)};
    acid_delete_set_init(&s);
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        CHECK_OK(acid_delete_set_add(&s, &in[i], &err), &err);
    acid_delete_set_sort(&s);
    CHECK_EQ(s.n, 5);
    CHECK_EQ(s.keys[0].owid, 0);
    CHECK_EQ(s.keys[1].bucket, -5);
    CHECK_EQ(s.keys[2].row_id, 9);
    CHECK_EQ(s.keys[3].bucket, 536936448);
    CHECK_EQ(s.keys[4].owid, 2);
    acid_delete_set_free(&s);
}

TEST(delete_set_sort_by_writer)
{
    AcidDeleteSet s;
    CombErr err;
    AcidKey k1 = key(5, 537001984, 3), k2 = key(1, 536870912, 7),
            k3 = key(3, 537001984, 0), k4 = key(9, 536870912, 1);
    k1.writer = k3.writer = 2;
    acid_delete_set_init(&s);
    CHECK_OK(acid_delete_set_add(&s, &k1, &err), &err);
    CHECK_OK(acid_delete_set_add(&s, &k2, &err), &err);
    CHECK_OK(acid_delete_set_add(&s, &k3, &err), &err);
    CHECK_OK(acid_delete_set_add(&s, &k4, &err), &err);
    acid_delete_set_sort_by_writer(&s);
    CHECK_EQ(s.keys[0].owid, 1);
    CHECK_EQ(s.keys[1].owid, 9);
    CHECK_EQ(s.keys[2].owid, 3);
    CHECK_EQ(s.keys[3].owid, 5);
    acid_delete_set_free(&s);
}

TEST(delete_set_probe_with_cursor)
{
    AcidDeleteSet s;
    AcidDeleteCursor c;
    CombErr err;
    int hits = 0;
    acid_delete_set_init(&s);
    /* every 7th rowId of (2, bucket 0) */
    for (int64_t r = 0; r < 10000; r += 7) {
        AcidKey k = key(2, 536870912, r);
        CHECK_OK(acid_delete_set_add(&s, &k, &err), &err);
    }
    acid_delete_set_sort(&s);
    acid_delete_cursor_reset(&c);
    for (int64_t r = 0; r < 10000; r++) {
        AcidKey k = key(2, 536870912, r);
        bool in = acid_delete_set_contains(&s, &c, &k);
        CHECK(in == (r % 7 == 0));
        hits += in;
    }
    CHECK_EQ(hits, (10000 + 6) / 7);
    /* out-of-order probes fall back to binary search */
    for (int64_t r = 9999; r >= 0; r -= 3) {
        AcidKey k = key(2, 536870912, r);
        CHECK(acid_delete_set_contains(&s, &c, &k) == (r % 7 == 0));
    }
    {
        AcidKey lo = key(1, 536870912, 0), hi = key(3, 536870912, 0);
        CHECK(!acid_delete_set_contains(&s, &c, &hi));
        CHECK(!acid_delete_set_contains(&s, &c, &lo));
    }
    acid_delete_set_free(&s);
    /* the empty set contains nothing */
    acid_delete_set_init(&s);
    acid_delete_set_sort(&s);
    {
        AcidKey k = key(0, 0, 0);
        CHECK(!acid_delete_set_contains(&s, &c, &k));
    }
}

/* Marking runs must agree with a probe per key: consecutive row ids (the
 * direct path), gapped ones (the merge), runs of other (owid, bucket)
 * prefixes around them, runs in and out of key order, and contains()
 * after the cursor moved by runs. */
TEST(delete_set_mark_runs_match_probes)
{
    AcidDeleteSet s;
    AcidDeleteCursor c, probe;
    CombErr err;
    int64_t ids[512];
    uint8_t del[512];
    acid_delete_set_init(&s);
    for (int64_t w = 1; w <= 3; w++)
        for (int64_t r = w; r < 3000; r += 5) {
            AcidKey k = key(w, 536870912, r);
            CHECK_OK(acid_delete_set_add(&s, &k, &err), &err);
        }
    acid_delete_set_sort(&s);
    acid_delete_cursor_reset(&c);
    /* write ids 0..4 (0 and 4 have no deletes), runs of 512 in order,
     * then the same runs backwards; every other run gapped (step 3) */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 5 * 6; i++) {
            int at = pass ? 5 * 6 - 1 - i : i;
            int64_t w = at / 6, first = (at % 6) * 400;
            int step = at % 2 ? 3 : 1;
            for (int j = 0; j < 512; j++)
                ids[j] = first + (int64_t)j * step;
            memset(del, 0, sizeof del);
            acid_delete_set_mark_run(&s, &c, w, 536870912, ids, 512, del);
            acid_delete_cursor_reset(&probe);
            for (int j = 0; j < 512; j++) {
                AcidKey k = key(w, 536870912, ids[j]);
                CHECK_EQ(del[j], acid_delete_set_contains(&s, &probe, &k));
            }
        }
    /* probes after runs still find what is there */
    {
        AcidKey k = key(3, 536870912, 2998), k2 = key(3, 536870912, 2999);
        int64_t one = 2993;
        memset(del, 0, sizeof del);
        acid_delete_set_mark_run(&s, &c, 3, 536870912, &one, 1, del);
        CHECK_EQ(del[0], 1);
        CHECK(acid_delete_set_contains(&s, &c, &k));
        CHECK(!acid_delete_set_contains(&s, &c, &k2));
    }
    /* another bucket of the same write id: nothing */
    for (int j = 0; j < 512; j++)
        ids[j] = j;
    memset(del, 0, sizeof del);
    acid_delete_set_mark_run(&s, &c, 2, 536936448, ids, 512, del);
    CHECK(memchr(del, 1, sizeof del) == NULL);
    acid_delete_set_free(&s);
}

TEST(delete_set_overlaps_box)
{
    AcidDeleteSet s;
    CombErr err;
    AcidKey k = key(5, 536870912, 100);
    acid_delete_set_init(&s);
    CHECK_OK(acid_delete_set_add(&s, &k, &err), &err);
    acid_delete_set_sort(&s);
    {
        AcidKey lo = key(5, 536870912, 100), hi = key(5, 536870912, 100);
        AcidKey lo2 = key(5, 536870912, 101), hi2 = key(9, 0, 0);
        AcidKey lo3 = key(1, INT32_MIN, INT64_MIN);
        AcidKey hi3 = key(4, INT32_MAX, INT64_MAX);
        AcidKey hi4 = key(5, 536870912, 99);
        CHECK(acid_delete_set_overlaps(&s, &lo, &hi));
        CHECK(!acid_delete_set_overlaps(&s, &lo2, &hi2));
        CHECK(!acid_delete_set_overlaps(&s, &lo3, &hi3));
        CHECK(!acid_delete_set_overlaps(&s, &lo3, &hi4));
        CHECK(acid_delete_set_overlaps(&s, &lo3, &hi2));
    }
    acid_delete_set_free(&s);
}

TEST(delete_set_covers_range)
{
    AcidDeleteSet s;
    CombErr err;
    acid_delete_set_init(&s);
    /* rowIds 10..19 of (5, b) with 15 twice, 30 of (5, b), 0..9 of (6, b) */
    for (int64_t id = 10; id < 20; id++) {
        AcidKey k = key(5, 536870912, id);
        CHECK_OK(acid_delete_set_add(&s, &k, &err), &err);
    }
    for (int64_t id = 0; id < 10; id++) {
        AcidKey k = key(6, 536870912, id);
        CHECK_OK(acid_delete_set_add(&s, &k, &err), &err);
    }
    {
        AcidKey dup = key(5, 536870912, 15), far = key(5, 536870912, 30);
        CHECK_OK(acid_delete_set_add(&s, &dup, &err), &err);
        CHECK_OK(acid_delete_set_add(&s, &far, &err), &err);
    }
    acid_delete_set_sort(&s);
    CHECK(acid_delete_set_covers(&s, 5, 536870912, 10, 19));
    CHECK(acid_delete_set_covers(&s, 5, 536870912, 12, 12));
    CHECK(acid_delete_set_covers(&s, 5, 536870912, 30, 30));
    CHECK(acid_delete_set_covers(&s, 6, 536870912, 0, 9));
    /* one rowId short at either end, a gap inside, another bucket */
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, 9, 19));
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, 10, 20));
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, 10, 30));
    CHECK(!acid_delete_set_covers(&s, 5, 536936448, 10, 19));
    CHECK(!acid_delete_set_covers(&s, 6, 536870912, 0, 10));
    CHECK(!acid_delete_set_covers(&s, 4, 536870912, 10, 19));
    /* empty and whole-int64 ranges */
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, 19, 10));
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, INT64_MIN, INT64_MAX));
    acid_delete_set_clear(&s);
    CHECK(!acid_delete_set_covers(&s, 5, 536870912, 10, 10));
    acid_delete_set_free(&s);
}
