/* Table kinds and storage (external TEXTFILE tables with serde parameters,
 * sort columns, views), their validation, and ALTER: the whole definition
 * replaced, and RENAME within and across databases with the transaction
 * bookkeeping following the table. */
#include "ms_fixture.h"
#include "common/arena.h"

static MsColumn cols[] = {{"id", "int", NULL}, {"name", "string", "who"}};
static MsColumn keys[] = {{"ds", "date", NULL}};
static MsSortCol sorts[] = {{"NAME", MS_SORT_DESC}, {"id", MS_SORT_ASC}};
static MsProperty serde_params[] = {
    {MS_SERDE_FIELD_DELIM, ","},
    {MS_SERDE_COLLECTION_DELIM, "|"},
    {MS_SERDE_MAPKEY_DELIM, ":"},
    {MS_SERDE_LINE_DELIM, "\n"},
    {MS_SERDE_ESCAPE_DELIM, "\\"},
    {MS_SERDE_NULL_FORMAT, "NULL"},
    {MS_SERDE_FORMAT, ","},
};

/* CREATE EXTERNAL TABLE db.name (id int, name string COMMENT 'who')
 * PARTITIONED BY (ds date) CLUSTERED BY (id) SORTED BY (name DESC, id ASC)
 * INTO 4 BUCKETS ROW FORMAT DELIMITED ... STORED AS TEXTFILE LOCATION. */
static MsTable text_table(const char *db, const char *name)
{
    MsTable t = {0};
    static char *bucket = "id";
    t.db = (char *)db;
    t.name = (char *)name;
    t.table_type = MS_EXTERNAL_TABLE;
    t.location = "/data/staging";
    t.input_format = MS_TEXT_INPUT_FORMAT;
    t.output_format = MS_TEXT_OUTPUT_FORMAT;
    t.serde = MS_TEXT_SERDE;
    t.n_cols = 2;
    t.cols = cols;
    t.n_part_keys = 1;
    t.part_keys = keys;
    t.n_buckets = 4;
    t.n_bucket_cols = 1;
    t.bucket_cols = &bucket;
    t.n_sort_cols = 2;
    t.sort_cols = sorts;
    t.n_serde_params = 7;
    t.serde_params = serde_params;
    t.comment = "staging";
    return t;
}

static MsTable view_of(const char *name)
{
    MsTable v = {0};
    v.db = "default";
    v.name = (char *)name;
    v.table_type = MS_VIRTUAL_VIEW;
    v.n_cols = 1;
    v.cols = cols;
    v.view_original_text = "select id from staging";
    v.view_expanded_text = "select `staging`.`id` from `default`.`staging`";
    return v;
}

MS_TEST(ms_table_storage_round_trip)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable in = text_table("default", "staging"), *t;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "staging", &a, &t, &err), &err);
    CHECK_STR(t->table_type, "EXTERNAL_TABLE");
    CHECK_STR(t->location, "/data/staging");
    CHECK_STR(t->input_format, "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_STR(t->output_format,
              "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
    CHECK_STR(t->serde, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    CHECK_STR(t->comment, "staging");
    CHECK_EQ(t->n_cols, 2);
    CHECK_EQ(t->n_part_keys, 1);
    CHECK_STR(t->part_keys[0].name, "ds");
    CHECK_STR(t->part_keys[0].type, "date");
    CHECK(t->part_keys[0].comment == NULL);
    CHECK_EQ(t->n_sort_cols, 2);
    CHECK_STR(t->sort_cols[0].name, "name");
    CHECK_EQ(t->sort_cols[0].order, MS_SORT_DESC);
    CHECK_STR(t->sort_cols[1].name, "id");
    CHECK_EQ(t->sort_cols[1].order, MS_SORT_ASC);
    CHECK_EQ(t->n_serde_params, 7);
    /* by key: collection, escape, field, line, mapkey, null, format */
    CHECK_STR(t->serde_params[0].key, "collection.delim");
    CHECK_STR(t->serde_params[0].value, "|");
    CHECK_STR(t->serde_params[3].key, "line.delim");
    CHECK_STR(t->serde_params[3].value, "\n");
    CHECK_STR(t->serde_params[5].key, "serialization.format");
    CHECK_STR(t->serde_params[6].key, "serialization.null.format");
    CHECK_STR(t->serde_params[6].value, "NULL");
    CHECK_EQ(t->n_props, 0);
    CHECK(t->view_original_text == NULL && t->view_expanded_text == NULL);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_view_round_trip)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable v = view_of("v"), *t;
    char **names;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &v, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "v", &a, &t, &err), &err);
    CHECK_STR(t->table_type, "VIRTUAL_VIEW");
    CHECK(t->location == NULL);
    CHECK_STR(t->view_original_text, "select id from staging");
    CHECK_STR(t->view_expanded_text,
              "select `staging`.`id` from `default`.`staging`");
    CHECK_OK(ms_table_list(ms, "default", &a, &names, &n, &err), &err);
    CHECK_EQ(n, 1);
    CHECK_EQ(ms_table_create(ms, &v, false, &err), COMB_EEXISTS);
    CHECK_OK(ms_table_drop(ms, "default", "v", false, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 0);
    ms_close(ms);
    comb_arena_free(&a);
}

/* create(t) must fail COMB_EINVALID with `want` in the message, and leave
 * no table behind. */
static void check_refused(Ms *ms, const MsTable *t, const char *want)
{
    CombErr err;
    if (ms_table_create(ms, t, false, &err) != COMB_EINVALID ||
        strstr(err.msg, want) == NULL)
        unit_fail(__FILE__, __LINE__, "create %s: want '%s', got '%s'",
                  t->name, want, err.msg);
}

MS_TEST(ms_table_kinds_validated)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsTable t;
    MsColumn dup_keys[] = {{"ds", "date", NULL}, {"DS", "int", NULL}};
    MsColumn col_key[] = {{"ID", "int", NULL}};
    MsColumn untyped[] = {{"p", "", NULL}};
    MsSortCol bad_sort[] = {{"nope", MS_SORT_ASC}};
    MsSortCol bad_order[] = {{"id", 2}};
    MsProperty nokey[] = {{NULL, "x"}};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);

    t = view_of("v");
    t.location = "/data/v";
    check_refused(ms, &t, "view v cannot have a location");
    t = view_of("v");
    t.n_part_keys = 1;
    t.part_keys = keys;
    check_refused(ms, &t, "view v cannot have a location or partition");
    t = view_of("v");
    t.view_original_text = NULL;
    check_refused(ms, &t, "view v has no query text");
    t = text_table("default", "t");
    t.view_expanded_text = "select 1";
    check_refused(ms, &t, "view text given for t, which is not a view "
                          "(EXTERNAL_TABLE)");
    t = text_table("default", "t");
    t.table_type = "MATERIALIZED_VIEW";
    check_refused(ms, &t, "invalid table type 'MATERIALIZED_VIEW' of t");
    t.table_type = "managed_table";
    check_refused(ms, &t, "invalid table type");
    t = text_table("default", "t");
    t.part_keys = dup_keys;
    t.n_part_keys = 2;
    check_refused(ms, &t, "Duplicate column name: ds");
    t.part_keys = col_key;
    t.n_part_keys = 1;
    check_refused(ms, &t, "Column repeated in partitioning columns");
    t.part_keys = untyped;
    check_refused(ms, &t, "partition column 1 of t has no name or type");
    t = text_table("default", "t");
    t.sort_cols = bad_sort;
    t.n_sort_cols = 1;
    check_refused(ms, &t, "sort column nope is not a column of t");
    t.sort_cols = bad_order;
    check_refused(ms, &t, "sort column 1 of t has no name or order 2");
    t = text_table("default", "t");
    t.serde_params = nokey;
    t.n_serde_params = 1;
    check_refused(ms, &t, "serde parameter 1 of t has no key");
    t.n_serde_params = 2;
    t.serde_params = NULL;
    check_refused(ms, &t, "serde parameters");
    t = text_table("default", "t");
    t.n_sort_cols = -1;
    check_refused(ms, &t, "sort columns");
    t = text_table("default", "t");
    t.location = "rel/dir";
    check_refused(ms, &t, "is not an absolute path");
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEYS"), 0);
    ms_close(ms);
}

MS_TEST(ms_table_alter_replaces_definition)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable in = text_table("default", "staging"), *t, *got;
    MsColumn more[] = {{"id", "bigint", NULL}, {"name", "string", "who"},
                       {"amount", "decimal(10,2)", "added"}};
    MsColumn key_commented[] = {{"ds", "date", "the day"}};
    MsColumn key_retyped[] = {{"ds", "string", NULL}};
    MsColumn key_renamed[] = {{"day", "date", NULL}};
    MsProperty props[] = {{"transactional", "true"},
                          {"transactional_properties", "insert_only"}};
    MsProperty fewer[] = {{MS_SERDE_FIELD_DELIM, "\t"}};
    int64_t created;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "staging", &a, &t, &err), &err);
    created = t->create_time;

    /* what ALTER TABLE ... statements turn into: read, change, store */
    t->table_type = MS_MANAGED_TABLE;
    t->cols = more;
    t->n_cols = 3;
    t->part_keys = key_commented;
    t->props = props;
    t->n_props = 2;
    t->serde_params = fewer;
    t->n_serde_params = 1;
    t->n_sort_cols = 0;
    t->comment = NULL;
    t->location = "/data/moved";
    t->create_time = 1;
    CHECK_OK(ms_table_alter(ms, t, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "staging", &a, &got, &err), &err);
    CHECK_STR(got->table_type, "MANAGED_TABLE");
    CHECK_EQ(got->create_time, created);
    CHECK_STR(got->location, "/data/moved");
    CHECK_EQ(got->n_cols, 3);
    CHECK_STR(got->cols[0].type, "bigint");
    CHECK_STR(got->cols[2].name, "amount");
    CHECK_STR(got->cols[2].comment, "added");
    CHECK_STR(got->part_keys[0].comment, "the day");
    CHECK_EQ(got->n_props, 2);
    CHECK_STR(ms_table_prop(got, "transactional_properties"), "insert_only");
    CHECK(got->comment == NULL);
    CHECK_EQ(got->n_serde_params, 1);
    CHECK_STR(got->serde_params[0].value, "\t");
    CHECK_EQ(got->n_sort_cols, 0);
    CHECK_EQ(got->n_bucket_cols, 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM SORT_COLS"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2"), 3);

    /* no location given: the stored one stays */
    got->location = NULL;
    CHECK_OK(ms_table_alter(ms, got, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "staging", &a, &got, &err), &err);
    CHECK_STR(got->location, "/data/moved");

    /* partition keys: comments may change, names and types may not */
    got->part_keys = key_retyped;
    CHECK_EQ(ms_table_alter(ms, got, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "partition keys can not be changed.");
    got->part_keys = key_renamed;
    CHECK_EQ(ms_table_alter(ms, got, &err), COMB_EINVALID);
    got->n_part_keys = 0;
    CHECK_EQ(ms_table_alter(ms, got, &err), COMB_EINVALID);
    /* invalid definitions are refused as on create, nothing changes */
    got->n_part_keys = 1;
    got->part_keys = key_commented;
    got->bucket_cols = (char *[]){"gone"};
    CHECK_EQ(ms_table_alter(ms, got, &err), COMB_EINVALID);
    got->name = "nope";
    got->n_bucket_cols = 0;
    CHECK_EQ(ms_table_alter(ms, got, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.nope'");
    CHECK_EQ(ms_table_alter(ms, NULL, &err), COMB_EINVALID);
    CHECK_OK(ms_table_get(ms, "default", "staging", &a, &got, &err), &err);
    CHECK_EQ(got->n_cols, 3);
    CHECK_EQ(got->n_bucket_cols, 1);
    CHECK_STR(got->part_keys[0].comment, "the day");
    ms_close(ms);
    comb_arena_free(&a);
}

/* One committed write to db.name in its own txn; the write id. */
static int64_t commit_write(Ms *ms, const char *db, const char *name,
                            CombErr *err)
{
    int64_t txn = 0, w = 0;
    if (ms_txn_open(ms, "u", "h", &txn, err) ||
        ms_writeid_allocate(ms, txn, db, name, &w, err) ||
        ms_txn_add_component(ms, txn, db, name, NULL, MS_OP_UPDATE, w, err) ||
        ms_txn_commit(ms, txn, err))
        return -1;
    return w;
}

MS_TEST(ms_table_rename_keeps_write_ids)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsDatabase d = {"sales", "/data/sales.db", NULL, NULL};
    MsTable *t;
    MsPartition p = {0}, *got;
    CombTxnList snap;
    CombWriteIdList wl;
    char *vals[1] = {"2024-01-01"}, *s;
    int64_t open_txn, w;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_db_create(ms, &d, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &(MsTable){.db = "default", .name = "t",
                                            .location = "/wh/t", .n_cols = 2,
                                            .cols = cols, .n_part_keys = 1,
                                            .part_keys = keys},
                             false, &err), &err);
    p.n_values = 1;
    p.values = vals;
    CHECK_OK(ms_part_add(ms, "default", "t", &p, 1, false, NULL, &err), &err);
    vals[0] = "2024-01-02";
    p.location = "/elsewhere/d2";
    CHECK_OK(ms_part_add(ms, "default", "t", &p, 1, false, NULL, &err), &err);
    CHECK_EQ(commit_write(ms, "default", "t", &err), 1);
    CHECK_EQ(commit_write(ms, "default", "t", &err), 2);
    CHECK_OK(ms_txn_open(ms, "u", "h", &open_txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, open_txn, "default", "t", &w, &err),
             &err);
    CHECK_OK(ms_txn_add_component(ms, open_txn, "default", "t",
                                  "ds=2024-01-01", MS_OP_INSERT, w, &err),
             &err);
    /* stale bookkeeping under the new name (no table) must not be kept */
    CHECK_EQ(commit_write(ms, "sales", "orders", &err), 1);

    CHECK_OK(ms_table_rename(ms, "default", "T", "Sales", "Orders",
                             "/data/sales.db/orders", &err), &err);
    CHECK_EQ(ms_table_get(ms, "default", "t", &a, &t, &err), COMB_ENOTFOUND);
    CHECK_OK(ms_table_get(ms, "sales", "orders", &a, &t, &err), &err);
    CHECK_STR(t->location, "/data/sales.db/orders");
    CHECK_EQ(t->n_part_keys, 1);
    CHECK_OK(ms_part_get(ms, "sales", "orders", "ds=2024-01-01", &a, &got,
                         &err), &err);
    CHECK_STR(got->location, "/data/sales.db/orders/ds=2024-01-01");
    CHECK_OK(ms_part_get(ms, "sales", "orders", "ds=2024-01-02", &a, &got,
                         &err), &err);
    CHECK_STR(got->location, "/elsewhere/d2");

    /* the history moved with the table: write ids continue, the open txn
     * commits its component under the new name */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID "
                             "WHERE T2W_TABLE = 't'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_DATABASE = 'sales' AND "
                             "CTC_TABLE = 'orders'"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM WRITE_SET "
                             "WHERE WS_TABLE = 'orders'"), 2);
    CHECK_OK(ms_txn_snapshot(ms, 0, &snap, &err), &err);
    CHECK_OK(ms_writeid_list(ms, &snap, "sales", "orders", &wl, &err), &err);
    s = comb_writeidlist_format(&wl);
    CHECK_STR(s, "sales.orders:3:3:3:");
    comb_free(s);
    comb_writeidlist_free(&wl);
    comb_idlist_free(&snap);
    CHECK_OK(ms_txn_commit(ms, open_txn, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_TABLE = 'orders' AND "
                             "CTC_PARTITION = 'ds=2024-01-01'"), 1);
    CHECK_EQ(commit_write(ms, "sales", "orders", &err), 4);

    /* renamed back within the database, location kept */
    CHECK_OK(ms_table_rename(ms, "sales", "orders", "sales", "o2", NULL,
                             &err), &err);
    CHECK_OK(ms_table_get(ms, "sales", "o2", &a, &t, &err), &err);
    CHECK_STR(t->location, "/data/sales.db/orders");
    /* the same name: only the location moves */
    CHECK_OK(ms_table_rename(ms, "sales", "o2", "sales", "o2", "/data/o2",
                             &err), &err);
    CHECK_OK(ms_part_get(ms, "sales", "o2", "ds=2024-01-01", &a, &got, &err),
             &err);
    CHECK_STR(got->location, "/data/o2/ds=2024-01-01");
    CHECK_EQ(commit_write(ms, "sales", "o2", &err), 5);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_table_rename_errors)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable *t;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &(MsTable){.db = "default", .name = "u",
                                            .n_cols = 1, .cols = cols},
                             false, &err), &err);
    CHECK_EQ(ms_table_rename(ms, "default", "t", "default", "u", NULL, &err),
             COMB_EEXISTS);
    CHECK_STR(err.msg, "new table default.u already exists");
    CHECK_EQ(ms_table_rename(ms, "default", "t", "nodb", "x", NULL, &err),
             COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Database does not exist: nodb");
    CHECK_EQ(ms_table_rename(ms, "default", "nope", "default", "x", NULL,
                             &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.nope'");
    CHECK_EQ(ms_table_rename(ms, "default", "t", "default", "a\\b", NULL,
                             &err), COMB_EINVALID);
    CHECK_STR(err.msg, "a\\b is not a valid object name");
    CHECK_EQ(ms_table_rename(ms, "default", "t", "default", "x", "rel",
                             &err), COMB_EINVALID);
    CHECK_EQ(ms_table_rename(ms, "default", "t", NULL, "x", NULL, &err),
             COMB_EINVALID);
    CHECK_OK(ms_table_get(ms, "default", "t", &a, &t, &err), &err);
    /* a view renames like a table */
    CHECK_OK(ms_table_create(ms, &(MsTable){.db = "default", .name = "v",
                                            .table_type = MS_VIRTUAL_VIEW,
                                            .view_original_text = "select 1"},
                             false, &err), &err);
    CHECK_EQ(ms_table_rename(ms, "default", "v", "default", "w", "/data/w",
                             &err), COMB_EINVALID);
    CHECK_STR(err.msg, "view default.v cannot have a location");
    CHECK_OK(ms_table_rename(ms, "default", "v", "default", "w", NULL, &err),
             &err);
    CHECK_OK(ms_table_get(ms, "default", "w", &a, &t, &err), &err);
    CHECK(t->location == NULL);
    ms_close(ms);
    comb_arena_free(&a);
}
