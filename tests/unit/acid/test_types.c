/* Tables of every column type through the record updater and merge on
 * read (hive-acid-storage.md §6): decimals, timestamps, dates, binaries,
 * arrays, maps and structs at any depth with NULLs at every level, over
 * several buckets, with deletes and an update; and schema evolution on
 * read, files written before ALTER TABLE CHANGE COLUMN read under the new
 * types as Hive's ORC reader converts them. */
#include "unit.h"

#include <stdio.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/datetime.h"
#include "orc/orc.h"

/* ------------------------------------------------------------ the table */

#define N_COLS 7
static const char *const names[N_COLS] = {"id", "amount", "at", "day",
                                          "raw", "items", "info"};
static const char *const type_texts[N_COLS] = {
    "int", "decimal(12,2)", "timestamp", "date", "binary",
    "array<struct<sku:string,qty:decimal(5,1)>>",
    "struct<tags:map<string,array<int>>,seen:timestamp>"};

static bool load_schema(AcidSchema *s, const CombType **types)
{
    for (int i = 0; i < N_COLS; i++)
        if (!(types[i] = acid_test_type(type_texts[i])))
            return false;
    s->n_cols = N_COLS;
    s->names = names;
    s->types = types;
    return true;
}

static bool nul(int id, int k)
{
    return (id * 5 + k) % 7 == 0;
}

static void set(CombVector *v, int row, bool null)
{
    if (null) {
        comb_vec_nulls_materialize(v, v->capacity);
        comb_vec_set_null(v, row);
    } else {
        comb_vec_set_not_null(v, row);
    }
}

/* Element rows are handed out from counters (used[]) per child vector. */
static uint32_t add_elem(CombVector *parent, int row, uint32_t *used)
{
    uint32_t e = (*used)++;
    if (parent->len[row]++ == 0)
        parent->off[row] = e;
    for (int i = 0; i < parent->n_children; i++)
        if ((int)*used > parent->children[i].capacity)
            comb_vec_reserve_rows(&parent->children[i], (int)*used * 2);
    return e;
}

static CombStr str_of(CombBatch *b, const char *fmt, int x)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, fmt, x);
    char *p = comb_arena_alloc(&b->arena, (size_t)n);
    memcpy(p, tmp, (size_t)n);
    return (CombStr){p, (uint32_t)n};
}

/* Row `id` (value `gen` distinguishes an updated image) into row r. */
static void fill(CombBatch *b, int r, int id, int gen, uint32_t used[4])
{
    for (int c = 0; c < N_COLS; c++) {
        set(&b->cols[c], r, c > 0 && nul(id + gen, c));
        if (b->cols[c].off)
            b->cols[c].len[r] = 0;
    }
    b->cols[0].i64[r] = id;
    b->cols[1].dec[r] = (comb_i128)(id * 1234567 + gen) * (id % 2 ? 1 : -1);
    b->cols[2].i64[r] = (int64_t)(id - 50) * 100003;
    b->cols[2].nanos[r] = id % 3 ? 0 : id * 1000 + gen;
    b->cols[3].i64[r] = id * 400 - 20000;
    b->cols[4].str[r] = str_of(b, "\x01%d\xff", id);
    CombVector *items = &b->cols[5], *it = &items->children[0];
    for (int e = 0; !nul(id + gen, 5) && e < id % 3; e++) {
        uint32_t k = add_elem(items, r, &used[0]);
        set(it, (int)k, nul(id + e, 8));
        it->children[0].str[k] = str_of(b, "sku%d", id * 10 + e);
        set(&it->children[0], (int)k, false);
        it->children[1].dec[k] = id * 10 + e + gen;
        set(&it->children[1], (int)k, nul(id + e, 9));
    }
    CombVector *info = &b->cols[6], *tags = &info->children[0];
    set(tags, r, nul(id, 10));
    tags->len[r] = 0;
    for (int e = 0; !nul(id, 10) && e < id % 2 + 1; e++) {
        uint32_t k = add_elem(tags, r, &used[1]);
        tags->children[0].str[k] = str_of(b, "t%d", e);
        set(&tags->children[0], (int)k, false);
        CombVector *arr = &tags->children[1];
        set(arr, (int)k, nul(id + e, 11));
        arr->len[k] = 0;
        for (int j = 0; !nul(id + e, 11) && j < e + 1; j++) {
            uint32_t s = add_elem(arr, (int)k, &used[2]);
            arr->children[0].i64[s] = id * 100 + j;
            set(&arr->children[0], (int)s, false);
        }
    }
    info->children[1].i64[r] = 86400 * id;
    info->children[1].nanos[r] = 5;
    set(&info->children[1], r, nul(id, 12));
}

/* Expected text of row id as batch_row_text renders it. */
static char *expected(CombArena *a, int id, int gen)
{
    CombBuf t = COMB_BUF_INIT;
    char buf[64];
    comb_buf_printf(&t, "[%d,", id);
    if (nul(id + gen, 1)) {
        comb_buf_append_str(&t, "null,");
    } else {
        comb_dec_format((comb_i128)(id * 1234567 + gen) * (id % 2 ? 1 : -1), 2,
                        buf, sizeof buf);
        comb_buf_printf(&t, "%s,", buf);
    }
    if (nul(id + gen, 2)) {
        comb_buf_append_str(&t, "null,");
    } else {
        comb_timestamp_format((int64_t)(id - 50) * 100003,
                              id % 3 ? 0 : id * 1000 + gen, buf, sizeof buf);
        comb_buf_printf(&t, "\"%s\",", buf);
    }
    if (nul(id + gen, 3)) {
        comb_buf_append_str(&t, "null,");
    } else {
        comb_date_format(id * 400 - 20000, buf, sizeof buf);
        comb_buf_printf(&t, "\"%s\",", buf);
    }
    if (nul(id + gen, 4))
        comb_buf_append_str(&t, "null,");
    else
        comb_buf_printf(&t, "\"\\u0001%d\xff\",", id);
    if (nul(id + gen, 5)) {
        comb_buf_append_str(&t, "null,");
    } else {
        comb_buf_append_byte(&t, '[');
        for (int e = 0; e < id % 3; e++) {
            if (e)
                comb_buf_append_byte(&t, ',');
            if (nul(id + e, 8)) {
                comb_buf_append_str(&t, "null");
                continue;
            }
            comb_buf_printf(&t, "{sku:\"sku%d\",qty:", id * 10 + e);
            if (nul(id + e, 9)) {
                comb_buf_append_str(&t, "null}");
            } else {
                comb_dec_format(id * 10 + e + gen, 1, buf, sizeof buf);
                comb_buf_printf(&t, "%s}", buf);
            }
        }
        comb_buf_append_str(&t, "],");
    }
    if (nul(id + gen, 6)) {
        comb_buf_append_str(&t, "null]");
    } else {
        comb_buf_append_str(&t, "{tags:");
        if (nul(id, 10)) {
            comb_buf_append_str(&t, "null");
        } else {
            comb_buf_append_byte(&t, '{');
            for (int e = 0; e < id % 2 + 1; e++) {
                comb_buf_printf(&t, "%s\"t%d\":", e ? "," : "", e);
                if (nul(id + e, 11)) {
                    comb_buf_append_str(&t, "null");
                    continue;
                }
                comb_buf_append_byte(&t, '[');
                for (int j = 0; j < e + 1; j++)
                    comb_buf_printf(&t, "%s%d", j ? "," : "", id * 100 + j);
                comb_buf_append_byte(&t, ']');
            }
            comb_buf_append_byte(&t, '}');
        }
        comb_buf_append_str(&t, ",seen:");
        if (nul(id, 12)) {
            comb_buf_append_str(&t, "null");
        } else {
            comb_timestamp_format(86400 * (int64_t)id, 5, buf, sizeof buf);
            comb_buf_printf(&t, "\"%s\"", buf);
        }
        comb_buf_append_str(&t, "}]");
    }
    char *s = comb_arena_strndup(a, (char *)t.data, t.len);
    comb_buf_free(&t);
    return s;
}

/* Write ids [first, first + n) of image gen into write id wid, bucket by
 * id % 3. */
static int write_ids(const char *dir, const AcidSchema *s, int64_t wid,
                     int first, int n, int gen, CombErr *err)
{
    AcidWriter *w;
    CombBatch b;
    int buckets[256], rc;
    uint32_t used[4] = {0};
    if ((rc = acid_writer_open(dir, s, wid, 0, ORC_COMP_ZLIB, &w, err)))
        return rc;
    if (comb_batch_init_types(&b, s->n_cols, s->types, 256))
        return writer_finish(w, COMB_ENOMEM, NULL, err);
    for (int i = 0; i < n; i++) {
        fill(&b, i, first + i, gen, used);
        buckets[i] = (first + i) % 3;
    }
    b.n_rows = n;
    rc = acid_writer_insert(w, &b, buckets, err);
    comb_batch_free(&b);
    return writer_finish(w, rc, NULL, err);
}

static int32_t prop(int bucket)
{
    CombErr err;
    int32_t p = 0;
    acid_bucket_encode(bucket, 0, &p, &err);
    return p;
}

TEST(types_write_delete_update_read)
{
    const CombType *types[N_COLS];
    AcidSchema s;
    CombArena a;
    ScanRows got;
    CombErr err;
    AcidWriter *w;
    const char *dir = unit_tmpdir();
    CHECK(load_schema(&s, types));
    comb_arena_init(&a, 0);
    /* write 1: ids 0..199 in buckets id % 3; rowId = id / 3 */
    CHECK_OK(write_ids(dir, &s, 1, 0, 200, 0, &err), &err);
    CHECK_OK(scan_at(dir, &s, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 200);
    for (int i = 0, k = 0; i < 200; i++) {
        /* read order: bucket 0's rows, then 1's, then 2's */
        int id = (i < 67) ? i * 3 : (i < 134) ? (i - 67) * 3 + 1
                                                : (i - 134) * 3 + 2;
        char *want = expected(&a, id, 0);
        if (strcmp(got.rows[k], want) != 0)
            printf("    id %d:\n      got  %s\n      want %s\n", id,
                   got.rows[k], want);
        CHECK_STR(got.rows[k], want);
        k++;
    }
    scan_rows_free(&got);
    /* write 2: delete ids 3 and 4, update id 7 (delete + new image) */
    CHECK_OK(acid_writer_open(dir, &s, 2, 0, ORC_COMP_SNAPPY, &w, &err), &err);
    CHECK_OK(acid_writer_delete(w, 1, prop(0), 1, &err), &err);
    CHECK_OK(acid_writer_delete(w, 1, prop(1), 1, &err), &err);
    CHECK_OK(acid_writer_delete(w, 1, prop(1), 2, &err), &err);
    CHECK_OK(acid_writer_commit_files(w, NULL, &err), &err);
    CHECK_OK(write_ids(dir, &s, 3, 7, 1, 1, &err), &err);
    CHECK_OK(scan_at(dir, &s, 3, true, &a, &got, &err), &err);
    CHECK_EQ(got.n, 198);
    bool saw_new = false, saw_deleted = false;
    for (int i = 0; i < got.n; i++) {
        saw_deleted |= strncmp(got.rows[i], "[3,", 3) == 0 ||
                       strncmp(got.rows[i], "[4,", 3) == 0;
        if (strncmp(got.rows[i], "[7,", 3) == 0) {
            CHECK_STR(got.rows[i], expected(&a, 7, 1));
            CHECK_STR(got.ids[i], "[3,536936448,0]");
            saw_new = true;
        }
    }
    CHECK(saw_new && !saw_deleted);
    scan_rows_free(&got);
    /* projection: only `info` decoded, the rest NULL */
    AcidReaderOptions opt = {(const bool[N_COLS]){false, false, false, false,
                                                  false, false, true},
                             false};
    CombWriteIdList wil;
    AcidReader *r;
    CombBatch b;
    wil_make(&wil, 3, NULL, 0, NULL, 0);
    CHECK_OK(acid_reader_open(dir, &s, &wil, NULL, &opt, &r, &err), &err);
    CHECK_EQ(acid_reader_batch_init(r, &b), 0);
    CHECK_OK(acid_reader_next(r, &b, &err), &err);
    CHECK(b.n_rows > 0);
    CHECK(comb_vec_is_null(&b.cols[5], 0) && comb_vec_is_null(&b.cols[0], 0));
    CHECK_STR(batch_row_text(&b, 0, 6, 1, &a), "[{tags:{\"t0\":[0]},seen:"
                                               "\"1970-01-01 00:00:00.000000005\"}]");
    comb_batch_free(&b);
    acid_reader_close(r);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* The staging of many buckets views the caller's vectors: a batch whose
 * rows go to every bucket in turn, lists included. */
TEST(types_many_buckets_share_vectors)
{
    const CombType *types[N_COLS];
    AcidSchema s;
    CombArena a;
    ScanRows got;
    CombErr err;
    AcidWriter *w;
    CombBatch b;
    int buckets[256];
    uint32_t used[4] = {0};
    const char *dir = unit_tmpdir();
    CHECK(load_schema(&s, types));
    comb_arena_init(&a, 0);
    CHECK_OK(acid_writer_open(dir, &s, 1, 0, ORC_COMP_ZSTD, &w, &err), &err);
    CHECK_EQ(comb_batch_init_types(&b, N_COLS, types, 256), 0);
    for (int i = 0; i < 256; i++) {
        fill(&b, i, i, 0, used);
        buckets[i] = 255 - i;
    }
    b.n_rows = 256;
    CHECK_OK(acid_writer_insert(w, &b, buckets, &err), &err);
    comb_batch_free(&b);
    CHECK_OK(acid_writer_commit_files(w, NULL, &err), &err);
    CHECK_OK(scan_at(dir, &s, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 256);
    for (int i = 0; i < 256; i++)
        CHECK_STR(got.rows[i], expected(&a, 255 - i, 0));
    scan_rows_free(&got);
    comb_arena_free(&a);
}

/* ------------------------------------------------------ schema evolution */

#define N_EVO 16
/* Written with the first types, read with the second (Hive's allowed
 * changes), and what each value of write_evo reads as. */
static const char *const evo_names[N_EVO] = {
    "wide", "narrow", "i2d", "i2dec", "i2dec_ovf", "i2s", "i2vc", "i2ch",
    "f2d", "dec_up", "dec_round", "s2vc", "vc2ch", "ch2s", "d2ts", "nest"};
static const char *const evo_old[N_EVO] = {
    "smallint", "bigint", "int", "int", "int", "int", "int", "int",
    "float", "decimal(10,2)", "decimal(10,4)", "string", "varchar(10)",
    "char(5)", "date", "struct<a:int,l:array<int>,m:map<string,int>>"};
static const char *const evo_new[N_EVO] = {
    "bigint", "int", "double", "decimal(8,2)", "decimal(3,1)", "string",
    "varchar(2)", "char(4)", "double", "decimal(12,4)", "decimal(6,1)",
    "varchar(3)", "char(5)", "string", "timestamp",
    "struct<a:bigint,l:array<bigint>,m:map<string,decimal(10,1)>,b:string>"};

static int write_evo(const char *dir, CombErr *err)
{
    const CombType *types[N_EVO];
    AcidSchema s = {N_EVO, evo_names, types};
    AcidWriter *w;
    CombBatch b;
    for (int i = 0; i < N_EVO; i++)
        types[i] = acid_test_type(evo_old[i]);
    int rc = acid_writer_open(dir, &s, 1, 0, ORC_COMP_ZLIB, &w, err);
    if (rc)
        return rc;
    if (comb_batch_init_types(&b, N_EVO, types, 4))
        return writer_finish(w, COMB_ENOMEM, NULL, err);
    b.cols[0].i64[0] = -300;
    b.cols[1].i64[0] = 1LL << 40;                   /* beyond int: NULL */
    b.cols[1].i64[1] = -7;
    b.cols[2].i64[0] = 123;
    b.cols[3].i64[0] = 123456;                      /* 123456.00 fits */
    b.cols[4].i64[0] = 100;                         /* 100.0 needs 4 digits */
    b.cols[4].i64[1] = 99;
    b.cols[5].i64[0] = -42;
    b.cols[6].i64[0] = 12345;                       /* cut to "12" */
    b.cols[7].i64[0] = 7;                           /* padded "7   " */
    b.cols[8].f64[0] = (double)0.1f;                /* the float widened */
    b.cols[9].dec[0] = 12345;                       /* 123.45 */
    b.cols[10].dec[0] = 1234550;                    /* 123.455 -> 123.5 */
    b.cols[10].dec[1] = 999999999;                  /* 99999.9999: NULL */
    b.cols[11].str[0] = (CombStr){"h\xc3\xa9llo", 6};  /* 3 chars: "hél" */
    b.cols[12].str[0] = (CombStr){"ab", 2};         /* padded "ab   " */
    b.cols[13].str[0] = (CombStr){"xy   ", 5};      /* char stays padded */
    b.cols[14].i64[0] = -1;                         /* 1969-12-31 */
    CombVector *st = &b.cols[15];
    st->children[0].i64[0] = 5;
    st->children[1].off[0] = 0;
    st->children[1].len[0] = 2;
    st->children[1].children[0].i64[0] = 1;
    st->children[1].children[0].i64[1] = 2;
    st->children[2].off[0] = 0;
    st->children[2].len[0] = 1;
    st->children[2].children[0].str[0] = (CombStr){"k", 1};
    st->children[2].children[1].i64[0] = 3;
    for (int i = 0; i < N_EVO; i++)  /* row 1: NULL where not set above */
        if (i != 1 && i != 4 && i != 10) {
            comb_vec_nulls_materialize(&b.cols[i], 4);
            comb_vec_set_null(&b.cols[i], 1);
        }
    b.n_rows = 2;
    rc = acid_writer_insert(w, &b, NULL, err);
    comb_batch_free(&b);
    return writer_finish(w, rc, NULL, err);
}

TEST(types_schema_evolution_on_read)
{
    const CombType *types[N_EVO];
    AcidSchema s = {N_EVO, evo_names, types};
    const char *dir = unit_tmpdir();
    CombArena a;
    ScanRows got;
    CombErr err;
    for (int i = 0; i < N_EVO; i++)
        CHECK((types[i] = acid_test_type(evo_new[i])) != NULL);
    comb_arena_init(&a, 0);
    CHECK_OK(write_evo(dir, &err), &err);
    CHECK_OK(scan_at(dir, &s, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 2);
    CHECK_STR(got.rows[0],
              "[-300,null,123,123456.00,null,\"-42\",\"12\",\"7   \","
              "0.100000001490116,123.4500,123.5,\"h\xc3\xa9l\",\"ab   \","
              "\"xy   \",\"1969-12-31 00:00:00\","
              "{a:5,l:[1,2],m:{\"k\":3.0},b:null}]");
    CHECK_STR(got.rows[1], "[null,-7,null,null,99.0,null,null,null,null,"
                           "null,null,null,null,null,null,null]");
    scan_rows_free(&got);
    /* a change Hive cannot read (string to int) names both types */
    const char *bad_names[1] = {"s2vc"};
    const CombType *bad_types[1] = {acid_test_type("int")};
    AcidSchema bad = {1, bad_names, bad_types};
    CHECK_EQ(scan_at(dir, &bad, 1, false, &a, &got, &err), COMB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "'s2vc' is string in the file but int") != NULL);
    bad_types[0] = acid_test_type("array<int>");
    bad_names[0] = "wide";
    CHECK_EQ(scan_at(dir, &bad, 1, false, &a, &got, &err), COMB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "smallint in the file but array<int>") != NULL);
    comb_arena_free(&a);
}
