/* Lines of text files as Hadoop's LineRecordReader cuts them, compressed
 * files, header and footer lines, lines longer than the read buffer, and
 * memory that stays bounded whatever the file size (text.h). */
#include <zlib.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "text_test.h"
#include "unit.h"

#define F "\001"

static const char *read_lines(CombArena *a, const char *path,
                              const TextOptions *o)
{
    return tt_read(a, path, o, "struct<s:string>", 0);
}

TEST(text_lines_end_like_line_record_reader)
{
    CombArena a;
    TextOptions o;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    /* \n, \r\n, \r; an empty line between; no terminator at the end */
    CHECK_STR(read_lines(&a, tt_text_file(&a, "1", "a\r\nb\rc\n\nd"), &o),
              "'a'\n'b'\n'c'\n''\n'd'\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "2", "a\r\r\nb\n\r"), &o),
              "'a'\n''\n'b'\n''\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "3", "a\n"), &o), "'a'\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "4", "a\r"), &o), "'a'\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "5", "\r\n"), &o), "''\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "6", "\n\n"), &o), "''\n''\n");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "7", ""), &o), "");
    /* a byte order mark is dropped at the start of the file only */
    CHECK_STR(read_lines(&a, tt_text_file(&a, "8", "\xEF\xBB\xBF" "a\n"
                                          "\xEF\xBB\xBF" "b"), &o),
              "'a'\n'\\xEF\\xBB\\xBFb'\n");
    /* line.delim does not change how lines are read (as in Hive) */
    o = tt_opt("line.delim", ";");
    CHECK_STR(read_lines(&a, tt_text_file(&a, "9", "a;b\nc"), &o),
              "'a;b'\n'c'\n");
    comb_arena_free(&a);
}

TEST(text_lines_header_and_footer)
{
    CombArena a;
    comb_arena_init(&a, 4096);
    const char *p = tt_text_file(&a, "hf", "h1\nh2\nr1\nr2\nr3\nf1\n");
    static const struct {
        const char *header, *footer, *want;
    } cases[] = {
        {"0", "0", "'h1'\n'h2'\n'r1'\n'r2'\n'r3'\n'f1'\n"},
        {"2", "1", "'r1'\n'r2'\n'r3'\n"},
        {"2", "0", "'r1'\n'r2'\n'r3'\n'f1'\n"},
        {"0", "2", "'h1'\n'h2'\n'r1'\n'r2'\n"},
        {"-1", "0", "'h1'\n'h2'\n'r1'\n'r2'\n'r3'\n'f1'\n"},
        {"6", "0", ""},
        {"10", "0", ""},
        {"0", "6", ""},
        {"0", "7", ""},
        {"3", "3", ""},
        {"3", "2", "'r2'\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *kv[] = {"skip.header.line.count", cases[i].header,
                            "skip.footer.line.count", cases[i].footer, NULL};
        TextOptions o = tt_opts(kv);
        /* one-row batches make the held-back lines cross batches */
        for (int rows = 1; rows <= 1024; rows *= 1024) {
            const char *got = tt_read(&a, p, &o, "struct<s:string>", rows);
            if (strcmp(got, cases[i].want) != 0) {
                unit_fail(__FILE__, __LINE__, "header %s footer %s rows %d: "
                          "got %s", cases[i].header, cases[i].footer, rows,
                          got);
                comb_arena_free(&a);
                return;
            }
        }
    }
    comb_arena_free(&a);
}

/* bytes compressed as gzip (window_bits 31) or zlib (15) */
static size_t squeeze(const char *text, int window_bits, unsigned char *out,
                      size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY))
        return 0;
    z.next_in = (unsigned char *)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        cap = 0;
    else
        cap = z.total_out;
    deflateEnd(&z);
    return cap;
}

TEST(text_lines_gzip_and_deflate)
{
    CombArena a;
    TextOptions o;
    unsigned char gz[4096], more[4096];
    size_t n, m;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    n = squeeze("a" F "1\nb" F "2\r\n", 31, gz, sizeof gz);
    m = squeeze("c" F "3", 31, more, sizeof more);
    CHECK(n > 0 && m > 0);
    const char *schema = "struct<s:string,i:int>";
    CHECK_STR(tt_read(&a, tt_file(&a, "x.gz", gz, n), &o, schema, 0),
              "'a'|1\n'b'|2\n");
    /* members one after another read as one stream */
    memcpy(gz + n, more, m);
    CHECK_STR(tt_read(&a, tt_file(&a, "two.gz", gz, n + m), &o, schema, 0),
              "'a'|1\n'b'|2\n'c'|3\n");
    /* the same bytes under another name are not decompressed */
    CHECK(strncmp(tt_read(&a, tt_file(&a, "x.txt", gz, n), &o, schema, 0),
                  "'\\x1F\\x8B", 9) == 0);
    CHECK_STR(tt_read(&a, tt_file(&a, "empty.gz", "", 0), &o, schema, 0), "");
    /* cut short, or followed by bytes that are not a gzip member */
    CHECK(strncmp(tt_read(&a, tt_file(&a, "cut.gz", gz, n - 4), &o, schema, 0),
                  "error 3: corrupt compressed text file", 37) == 0);
    memcpy(gz + n, "junk", 4);
    CHECK(strncmp(tt_read(&a, tt_file(&a, "junk.gz", gz, n + 4), &o, schema,
                          0), "error 3: corrupt compressed text file", 37) == 0);
    /* Hadoop's DefaultCodec: a zlib stream */
    n = squeeze("d" F "4\n", 15, gz, sizeof gz);
    CHECK_STR(tt_read(&a, tt_file(&a, "x.deflate", gz, n), &o, schema, 0),
              "'d'|4\n");
    memcpy(gz + n, gz, n);
    CHECK(strncmp(tt_read(&a, tt_file(&a, "twice.deflate", gz, 2 * n), &o,
                          schema, 0), "error 3: corrupt compressed", 27) == 0);
    /* codecs comb does not read are refused, not read as garbage */
    const char *bz = tt_read(&a, tt_file(&a, "x.bz2", "BZh9", 4), &o, schema, 0);
    CHECK(strncmp(bz, "error 5: cannot read '", 22) == 0);
    CHECK(strstr(bz, "x.bz2': text files compressed as .bz2 are not "
                     "supported (only .gz and .deflate)") != NULL);
    comb_arena_free(&a);
}

/* Every read buffer size from 1 byte up, and batches of 1, 3 and 1024
 * rows, read the same rows: lines cut anywhere, a "\r\n" split between
 * two reads, a line longer than the buffer, compressed or not. */
TEST(text_lines_any_buffer_size)
{
    static const char *const files[] = {
        "\xEF\xBB\xBF" "a" F "1\r\nbb" F "22\rccc" F "333\n\n\r\r\n"
        "dddddddddddddddddddddddddddddddddddddddd" F "4\r",
        "h\nx" F "1\r\ny" F "2\nz" F "3\nfoot\r\n",
    };
    CombArena a;
    unsigned char gz[4096];
    comb_arena_init(&a, 4096);
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        const char *kv[] = {"skip.header.line.count", f ? "1" : "0",
                            "skip.footer.line.count", f ? "1" : "0", NULL};
        TextOptions o = tt_opts(kv);
        size_t gn = squeeze(files[f], 31, gz, sizeof gz);
        const char *plain = tt_text_file(&a, "f.txt", files[f]);
        const char *packed = tt_file(&a, "f.gz", gz, gn);
        const char *want = tt_read(&a, plain, &o, "struct<s:string,i:int>", 0);
        CHECK(gn > 0 && strncmp(want, "error", 5) != 0);
        static const int batch_rows[] = {1, 3, 1024};
        for (size_t buf = 1; buf <= 48; buf++) {
            for (int k = 0; k < 3; k++) {
                int rows = batch_rows[k];
                o.read_buffer = buf;
                const char *got = tt_read(&a, buf % 2 ? plain : packed, &o,
                                          "struct<s:string,i:int>", rows);
                if (strcmp(got, want) != 0) {
                    unit_fail(__FILE__, __LINE__, "file %zu buffer %zu rows %d:"
                              " got %s want %s", f, buf, rows, got, want);
                    comb_arena_free(&a);
                    return;
                }
            }
        }
    }
    comb_arena_free(&a);
}

/* A line of `len` bytes: 'x' then digits cycling, so a misplaced cut
 * shows. */
static void long_line(CombBuf *b, size_t len, char first)
{
    comb_buf_append_byte(b, (unsigned char)first);
    for (size_t i = 1; i < len; i++)
        comb_buf_append_byte(b, (unsigned char)('0' + i % 10));
}

static bool is_long_line(CombStr s, size_t len, char first)
{
    if (s.len != len || s.ptr[0] != first)
        return false;
    for (size_t i = 1; i < len; i++)
        if (s.ptr[i] != (char)('0' + i % 10))
            return false;
    return true;
}

TEST(text_lines_longer_than_the_buffer)
{
    CombArena a;
    CombBuf file = COMB_BUF_INIT;
    CombBatch b;
    CombErr err;
    TextReader *r = NULL;
    int n_cols, rows = 0;
    size_t sizes[] = {3u << 20, 5, (1u << 20) + 1, 7};
    comb_arena_init(&a, 4096);
    for (size_t i = 0; i < 4; i++) {
        long_line(&file, sizes[i], (char)('a' + i));
        comb_buf_append_byte(&file, '\n');
    }
    const char *p = tt_file(&a, "long.txt", file.data, file.len);
    const CombType *const *types = tt_schema(&a, "struct<s:string>", &n_cols);
    TextOptions o;
    text_options_default(&o);
    for (size_t chunk = 0; chunk <= 4096; chunk += 4096) {
        o.read_buffer = chunk;  /* 1 MiB, then 4 KiB */
        CHECK_OK(comb_batch_init_types(&b, n_cols, types, 0), &err);
        CHECK_OK(text_reader_open(p, &o, n_cols, types, &r, &err), &err);
        rows = 0;
        while (text_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0)
            for (int i = 0; i < b.n_rows; i++, rows++)
                CHECK(rows < 4 && is_long_line(b.cols[0].str[i], sizes[rows],
                                               (char)('a' + rows)));
        CHECK_EQ(rows, 4);
        CHECK_EQ(text_reader_lines(r), 4);
        text_reader_close(r);
        comb_batch_free(&b);
    }
    comb_buf_free(&file);
    comb_arena_free(&a);
}

/* Reading a file many times larger than the read buffer holds memory to
 * the buffer and one batch: the peak does not grow with the file. */
TEST(text_lines_bounded_memory)
{
    CombArena a;
    CombBatch b;
    CombErr err;
    TextReader *r = NULL;
    TextWriter *w = NULL;
    TextOptions o;
    int n_cols, total = 200000;
    int64_t rows = 0, sum = 0, live, peak;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const CombType *const *types =
        tt_schema(&a, "struct<i:int,s:string,d:decimal(12,2),a:array<int>>",
                  &n_cols);
    const char *p = fs_join(&a, unit_tmpdir(), "big.txt");
    CHECK_OK(comb_batch_init_types(&b, n_cols, types, 0), &err);
    /* ~100 bytes a row, 20 MB in all, written by the writer */
    CHECK_OK(text_writer_open(p, &o, n_cols, types, &w, &err), &err);
    for (int done = 0; done < total; done += b.n_rows) {
        comb_batch_reset(&b);
        for (b.n_rows = 0; b.n_rows < b.capacity && done + b.n_rows < total;
             b.n_rows++) {
            int i = done + b.n_rows, k = b.n_rows;
            char *s = comb_arena_printf(&b.arena, "row %d %0*d", i, 80, i);
            b.cols[0].i64[k] = i;
            b.cols[1].str[k] = (CombStr){s, (uint32_t)strlen(s)};
            b.cols[2].dec[k] = (comb_i128)i * 100 + 5;
            CHECK_OK(comb_vec_reserve_rows(&b.cols[3].children[0], 2 * k + 2),
                     &err);
            b.cols[3].off[k] = (uint32_t)(2 * k);
            b.cols[3].len[k] = 2;
            b.cols[3].children[0].i64[2 * k] = i;
            b.cols[3].children[0].i64[2 * k + 1] = -i;
        }
        CHECK_OK(text_writer_write(w, &b, &err), &err);
    }
    CHECK_OK(text_writer_close(w, &err), &err);
    live = comb_alloc_live_bytes();
    comb_alloc_peak_reset();
    CHECK_OK(text_reader_open(p, &o, n_cols, types, &r, &err), &err);
    while (text_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++, rows++) {
            CHECK(b.cols[0].i64[i] == rows && b.cols[2].dec[i] == rows * 100 + 5);
            CHECK(b.cols[3].len[i] == 2 &&
                  b.cols[3].children[0].i64[b.cols[3].off[i] + 1] == -rows);
            sum += b.cols[1].str[i].len;
        }
    peak = comb_alloc_peak_bytes() - live;
    text_reader_close(r);
    comb_batch_free(&b);
    CHECK_EQ(rows, total);
    CHECK(sum > (int64_t)20 * 1000 * 1000 / 2);
    /* the 1 MiB buffer and the list children of one batch */
    if (peak > (int64_t)3 << 20)
        unit_fail(__FILE__, __LINE__, "reading took %lld bytes at its peak",
                  (long long)peak);
    comb_arena_free(&a);
}
