/* Column statistics: stored per table or partition and column, read back
 * field for field (NULLs as NULLs), replaced column by column, kept apart
 * per partition, and gone with the partition or the table they describe. */
#include "ms_fixture.h"

static MsColStats int_stats(const char *col, const char *source,
                            int64_t nulls, const char *low, const char *high)
{
    return (MsColStats){.column = (char *)col, .type = "int",
                        .source = (char *)source, .low = (char *)low,
                        .high = (char *)high, .num_nulls = nulls,
                        .num_distincts = 3, .num_trues = -1,
                        .num_falses = -1, .max_col_len = -1,
                        .avg_col_len = -1, .bit_vector = "Q0hMTA==",
                        .last_analyzed = 1700000000};
}

static int create_daily(Ms *ms, CombErr *err)
{
    MsColumn cols[2] = {{"a", "int", NULL}, {"s", "string", NULL}};
    MsColumn key = {"ds", "string", NULL};
    MsTable t = {0};
    t.db = "default";
    t.name = "daily";
    t.n_cols = 2;
    t.cols = cols;
    t.n_part_keys = 1;
    t.part_keys = &key;
    return ms_table_create(ms, &t, false, err);
}

MS_TEST(ms_colstats_put_get_replace)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsColStats in[2], *out;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_colstats_get(ms, "default", "t", NULL, &a, &out, &n, &err),
             &err);
    CHECK_EQ(n, 0);
    CHECK(out == NULL);

    in[0] = int_stats("b", "src1", 2, "-5", "9");
    in[1] = (MsColStats){.column = "a", .type = "string", .source = "src1",
                         .num_nulls = 0, .num_distincts = -1,
                         .num_trues = -1, .num_falses = -1,
                         .max_col_len = 12, .avg_col_len = 35.0 / 3,
                         .last_analyzed = 1700000001};
    CHECK_OK(ms_colstats_put(ms, "DEFAULT", "T", NULL, in, 2, &err), &err);
    CHECK_OK(ms_colstats_get(ms, "default", "t", NULL, &a, &out, &n, &err),
             &err);
    CHECK_EQ(n, 2);
    /* by column name, whatever order they were stored in */
    CHECK_STR(out[0].column, "a");
    CHECK_STR(out[0].type, "string");
    CHECK(out[0].low == NULL && out[0].high == NULL);
    CHECK(out[0].bit_vector == NULL);
    CHECK_EQ(out[0].num_distincts, -1);
    CHECK_EQ(out[0].num_trues, -1);
    CHECK_EQ(out[0].max_col_len, 12);
    /* every digit of the average back, on both backends */
    CHECK(out[0].avg_col_len == 35.0 / 3);
    CHECK_STR(out[1].column, "b");
    CHECK_STR(out[1].source, "src1");
    CHECK_STR(out[1].low, "-5");
    CHECK_STR(out[1].high, "9");
    CHECK_EQ(out[1].num_nulls, 2);
    CHECK_EQ(out[1].num_distincts, 3);
    CHECK_EQ(out[1].max_col_len, -1);
    CHECK(out[1].avg_col_len < 0);
    CHECK_STR(out[1].bit_vector, "Q0hMTA==");
    CHECK_EQ(out[1].last_analyzed, 1700000000);

    /* one column replaced, the other kept */
    in[0] = int_stats("b", "src2", 0, "1", "1");
    CHECK_OK(ms_colstats_put(ms, "default", "t", NULL, in, 1, &err), &err);
    CHECK_OK(ms_colstats_get(ms, "default", "t", NULL, &a, &out, &n, &err),
             &err);
    CHECK_EQ(n, 2);
    CHECK_STR(out[0].source, "src1");
    CHECK_STR(out[1].source, "src2");
    CHECK_STR(out[1].low, "1");
    CHECK_EQ(out[1].num_nulls, 0);

    /* refusals */
    CHECK_EQ(ms_colstats_put(ms, "default", "nosuch", NULL, in, 1, &err),
             COMB_ENOTFOUND);
    CHECK_EQ(ms_colstats_get(ms, "default", "nosuch", NULL, &a, &out, &n,
                             &err), COMB_ENOTFOUND);
    in[0].source = NULL;
    CHECK_EQ(ms_colstats_put(ms, "default", "t", NULL, in, 1, &err),
             COMB_EINVALID);

    /* a table dropped and made again starts without statistics */
    CHECK_OK(ms_table_drop(ms, "default", "t", false, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_colstats_get(ms, "default", "t", NULL, &a, &out, &n, &err),
             &err);
    CHECK_EQ(n, 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COL_STATS"), 0);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_colstats_per_partition)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsColStats in, *out;
    MsPartition p[2] = {{0}};
    char *d1[1] = {"2024-01-01"}, *d2[1] = {"2024-01-02"};
    char *drop[1] = {"ds=2024-01-01"};
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_daily(ms, &err), &err);
    p[0].n_values = p[1].n_values = 1;
    p[0].values = d1;
    p[1].values = d2;
    CHECK_OK(ms_part_add(ms, "default", "daily", p, 2, false, NULL, &err),
             &err);
    in = int_stats("a", "day1", 0, "1", "5");
    CHECK_OK(ms_colstats_put(ms, "default", "daily", "ds=2024-01-01", &in, 1,
                             &err), &err);
    in = int_stats("a", "day2", 0, "6", "9");
    CHECK_OK(ms_colstats_put(ms, "default", "daily", "ds=2024-01-02", &in, 1,
                             &err), &err);
    CHECK_OK(ms_colstats_get(ms, "default", "daily", NULL, &a, &out, &n,
                             &err), &err);
    CHECK_EQ(n, 0);
    CHECK_OK(ms_colstats_get(ms, "default", "daily", "ds=2024-01-02", &a,
                             &out, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_STR(out[0].source, "day2");

    CHECK_OK(ms_part_drop(ms, "default", "daily", drop, 1, false, &err),
             &err);
    CHECK_OK(ms_colstats_get(ms, "default", "daily", "ds=2024-01-01", &a,
                             &out, &n, &err), &err);
    CHECK_EQ(n, 0);
    CHECK_OK(ms_colstats_get(ms, "default", "daily", "ds=2024-01-02", &a,
                             &out, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_OK(ms_table_drop(ms, "default", "daily", false, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COL_STATS"), 0);
    ms_close(ms);
    comb_arena_free(&a);
}

/* The source of statistics written through comb metastore: the same for
 * the same schema and files, another once a file is added or changed,
 * or the schema changes; hidden entries do not count. */
TEST(ms_colstats_dir_source_follows_files)
{
    CombErr err;
    CombArena a;
    MsColumn cols[1] = {{"a", "int", NULL}};
    MsTable t = {.db = "default", .name = "t", .n_cols = 1, .cols = cols,
                 .input_format = MS_ORC_INPUT_FORMAT, .serde = MS_ORC_SERDE};
    const char *dir = unit_tmpdir();
    char *s1, *s2, *s3, *s4, *s5, *path;
    comb_arena_init(&a, 0);
    CHECK_OK(ms_colstats_dir_source(&t, dir, &a, &s1, &err), &err);
    CHECK(strncmp(s1, MS_COLSTATS_OUTSIDE, strlen(MS_COLSTATS_OUTSIDE)) == 0);
    path = comb_arena_printf(&a, "%s/delta_1_1/bucket_00000", dir);
    CHECK_OK(fs_mkdirs(comb_arena_printf(&a, "%s/delta_1_1", dir), &err), &err);
    CHECK_OK(fs_write_file(path, "abc", 3, &err), &err);
    CHECK_OK(ms_colstats_dir_source(&t, dir, &a, &s2, &err), &err);
    CHECK(strcmp(s1, s2) != 0);
    CHECK_OK(fs_write_file(comb_arena_printf(&a, "%s/.hidden", dir), "x", 1,
                           &err), &err);
    CHECK_OK(ms_colstats_dir_source(&t, dir, &a, &s3, &err), &err);
    CHECK_STR(s3, s2);
    CHECK_OK(fs_write_file(path, "abcd", 4, &err), &err);
    CHECK_OK(ms_colstats_dir_source(&t, dir, &a, &s4, &err), &err);
    CHECK(strcmp(s4, s3) != 0);
    cols[0].type = "bigint";
    CHECK_OK(ms_colstats_dir_source(&t, dir, &a, &s5, &err), &err);
    CHECK(strcmp(s5, s4) != 0);
    comb_arena_free(&a);
}
