/* Valid-id list semantics and string forms (hive-acid-storage.md 5.1). */
#include "unit.h"
#include "common/alloc.h"
#include "common/txnlist.h"

TEST(writeidlist_parse_format)
{
    CombErr err;
    CombWriteIdList l;
    char *s;
    CHECK_OK(comb_writeidlist_parse("default.t:10:8:8:5,7", &l, &err), &err);
    CHECK_STR(l.table, "default.t");
    CHECK_EQ(l.ids.hwm, 10);
    CHECK_EQ(l.ids.min_open, 8);
    CHECK(!comb_idlist_is_valid(&l.ids, 5));
    CHECK(comb_idlist_is_aborted(&l.ids, 7));
    CHECK(comb_idlist_is_open(&l.ids, 8));
    CHECK(comb_idlist_is_valid(&l.ids, 6));
    CHECK(!comb_idlist_is_valid(&l.ids, 11));
    s = comb_writeidlist_format(&l);
    CHECK_STR(s, "default.t:10:8:8:5,7");
    comb_free(s);
    comb_writeidlist_free(&l);
}

TEST(writeidlist_trailing_empty)
{
    CombErr err;
    CombWriteIdList l;
    CHECK_OK(comb_writeidlist_parse("default.t:100:9223372036854775807::", &l, &err), &err);
    CHECK_EQ(l.ids.n_exceptions, 0);
    CHECK_EQ(comb_idlist_range_valid(&l.ids, 1, 100), COMB_RANGE_ALL);
    CHECK_EQ(comb_idlist_range_valid(&l.ids, 90, 120), COMB_RANGE_SOME);
    CHECK_EQ(comb_idlist_range_valid(&l.ids, 101, 120), COMB_RANGE_NONE);
    comb_writeidlist_free(&l);
    CHECK(comb_writeidlist_parse("garbage", &l, &err) == COMB_EINVALID);
}

TEST(txnlist_ranges)
{
    CombIdList l;
    int64_t open[] = {4};
    CombErr err;
    char *s;
    CHECK_OK(comb_idlist_init(&l, 100, open, 1, NULL, 0), &err);
    CHECK_EQ(comb_idlist_range_valid(&l, 2, 5), COMB_RANGE_SOME);
    CHECK_EQ(comb_idlist_range_valid(&l, 4, 4), COMB_RANGE_NONE);
    CHECK(comb_idlist_is_valid_base(&l, 3));
    CHECK(!comb_idlist_is_valid_base(&l, 4));
    s = comb_txnlist_format(&l);
    CHECK_STR(s, "100:4:4:");
    comb_free(s);
    comb_idlist_free(&l);
}

TEST(idlist_aborted_upto_is_the_compactor_shape)
{
    int64_t open[] = {7, 12}, aborted[] = {3, 5, 9};
    CombIdList in, out;
    CHECK_EQ(comb_idlist_init(&in, 15, open, 2, aborted, 3), COMB_OK);
    /* below the lowest open id: aborted 3 and 5 stay, open ones go */
    CHECK_EQ(comb_idlist_aborted_upto(&in, 6, &out), COMB_OK);
    CHECK_EQ(out.hwm, 6);
    CHECK_EQ(out.n_exceptions, 2);
    CHECK_EQ(out.exceptions[1], 5);
    CHECK(out.aborted[0] && out.aborted[1]);
    CHECK_EQ(out.min_open, COMB_NO_OPEN_ID);
    CHECK(comb_idlist_is_valid(&out, 6));
    CHECK(!comb_idlist_is_valid(&out, 7));
    comb_idlist_free(&out);
    CHECK_EQ(comb_idlist_aborted_upto(&in, 0, &out), COMB_OK);
    CHECK_EQ(out.n_exceptions, 0);
    comb_idlist_free(&out);
    comb_idlist_free(&in);
}
