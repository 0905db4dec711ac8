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
