/* Out of memory at every allocation the text reader and writer make:
 * each run either succeeds with the full result or fails with
 * COMB_ENOMEM, leaks nothing, and a failed writer leaves no file. */
#include "common/alloc.h"
#include "fs/fs.h"
#include "text_test.h"
#include "unit.h"

#define F "\001"
#define C "\002"
#define K "\003"

static const char data[] =
    "h\n"
    "a\\" F "b" F "1" C "2" F "k" K "v" C "j" K "\\N" F "1.50" F "2021-01-05"
    F "0" C "x" F "aGk=" F "ab" F "x" K "1" C "y" K "2" "\n"
    F "\\N" F F F "bad" F "bad" F "9" C "1" F "" F "abc" F "" "\n"
    "foot\n";
static const char *const props[] = {
    "escape.delim", "\\", "skip.header.line.count", "1",
    "skip.footer.line.count", "1", NULL};
static const char schema[] =
    "struct<s:string,a:array<int>,m:map<string,string>,d:decimal(4,2),"
    "dt:date,u:uniontype<int,string>,b:binary,c:char(3),"
    "ar:array<struct<p:string,q:int>>>";

/* Read everything; rendered rows go to out, which must have room. */
static int read_all(const char *path, const TextOptions *o, int n_cols,
                    const CombType *const *types, CombBuf *out, CombErr *err)
{
    CombBatch b;
    TextReader *r = NULL;
    int rc = comb_batch_init_types(&b, n_cols, types, 2) ? COMB_ENOMEM
             : text_reader_open(path, o, n_cols, types, &r, err);
    while (rc == COMB_OK && (rc = text_reader_next(r, &b, err)) == COMB_OK &&
           b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++) {
            tt_render_row(&b, i, out);
            comb_buf_append_byte(out, '\n');
        }
    text_reader_close(r);
    comb_batch_free(&b);
    return rc;
}

TEST(text_reader_survives_allocation_failures)
{
    CombArena a;
    CombBuf want = COMB_BUF_INIT, got = COMB_BUF_INIT;
    CombErr err;
    int n_cols, ok_at = 0;
    TextOptions o = tt_opts(props);
    comb_arena_init(&a, 4096);
    const CombType *const *types = tt_schema(&a, schema, &n_cols);
    const char *p = tt_text_file(&a, "d.txt", data);
    o.read_buffer = 16;  /* grow the buffer too */
    CHECK_OK(read_all(p, &o, n_cols, types, &want, &err), &err);
    CHECK(want.len > 50);
    CHECK_OK(comb_buf_reserve(&got, 4 * want.len), &err);
    for (int64_t k = 1; k < 10000 && !ok_at; k++) {
        int64_t live = comb_alloc_live_bytes();
        int rc;
        comb_buf_clear(&got);
        comb_alloc_fail_after(k);
        rc = read_all(p, &o, n_cols, types, &got, &err);
        comb_alloc_fail_after(0);
        CHECK(rc == COMB_OK || rc == COMB_ENOMEM);
        CHECK_EQ(comb_alloc_live_bytes(), live);
        if (rc == COMB_OK) {
            CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
            ok_at = (int)k;
        }
    }
    CHECK(ok_at > 10);
    comb_buf_free(&want);
    comb_buf_free(&got);
    comb_arena_free(&a);
}

/* Read `src` and write it to `dst`; the batch is made before failures
 * start (the reader's tests cover reading). */
static int copy_file(const char *src, const char *dst, const TextOptions *o,
                     int n_cols, const CombType *const *types, CombBatch *b,
                     int64_t fail_after, CombErr *err)
{
    TextReader *r = NULL;
    TextWriter *w = NULL;
    int rc = text_reader_open(src, o, n_cols, types, &r, err);
    if (rc)
        return rc;
    if ((rc = text_reader_next(r, b, err)) == COMB_OK) {
        comb_alloc_fail_after(fail_after);
        rc = text_writer_open(dst, o, n_cols, types, &w, err);
        if (!rc)
            rc = text_writer_write(w, b, err);
        if (w)
            rc = rc ? (text_writer_abort(w), rc) : text_writer_close(w, err);
        comb_alloc_fail_after(0);
    }
    text_reader_close(r);
    return rc;
}

TEST(text_writer_survives_allocation_failures)
{
    CombArena a;
    CombBatch b;
    CombErr err;
    int n_cols, ok_at = 0;
    TextOptions o = tt_opts(props);
    comb_arena_init(&a, 4096);
    const CombType *const *types = tt_schema(&a, schema, &n_cols);
    const char *p = tt_text_file(&a, "d.txt", data);
    const char *q = fs_join(&a, unit_tmpdir(), "out.txt");
    unsigned char *want = NULL, *got = NULL;
    size_t want_len = 0, got_len = 0;
    CHECK_OK(comb_batch_init_types(&b, n_cols, types, 0), &err);
    CHECK_OK(copy_file(p, q, &o, n_cols, types, &b, 0, &err), &err);
    CHECK_OK(fs_read_file(q, &a, &want, &want_len, &err), &err);
    for (int64_t k = 1; k < 1000 && !ok_at; k++) {
        int64_t live = comb_alloc_live_bytes();
        int rc;
        CHECK_OK(fs_unlink(q, &err), &err);
        rc = copy_file(p, q, &o, n_cols, types, &b, k, &err);
        CHECK(rc == COMB_OK || rc == COMB_ENOMEM);
        CHECK_EQ(comb_alloc_live_bytes(), live);
        if (rc == COMB_ENOMEM) {
            CHECK(!fs_exists(q));
            continue;
        }
        CHECK_OK(fs_read_file(q, &a, &got, &got_len, &err), &err);
        CHECK(got_len == want_len && memcmp(got, want, got_len) == 0);
        ok_at = (int)k;
    }
    CHECK(ok_at > 3);
    comb_batch_free(&b);
    comb_arena_free(&a);
}
