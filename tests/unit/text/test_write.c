/* Writing text files as LazySimpleSerDe.serialize does (text.h): exact
 * bytes of every type, NULL formats, escapes, separators of nested
 * values; canonical files and random batches of every type and nesting
 * survive writer -> reader round trips; failures leave no file. */
#include <stdlib.h>

#include "fs/fs.h"
#include "fs/fs_int.h"   /* fs_hook_reload: injected faults */
#include "text_test.h"
#include "unit.h"

#define F "\001"
#define C "\002"
#define K "\003"
#define L4 "\004"
#define L5 "\005"

static const char *file_text(CombArena *a, const char *path)
{
    unsigned char *bytes = NULL;
    size_t len = 0;
    CombErr err;
    if (fs_read_file(path, a, &bytes, &len, &err))
        return "(unreadable)";
    return comb_arena_strndup(a, (const char *)bytes, len);
}

/* Read `path` with o and schema, write every row again to out_name with
 * the same options; returns the written file's bytes. */
static const char *rewrite(CombArena *a, const char *path, const TextOptions *o,
                           const char *schema, const char *out_name)
{
    CombBatch b;
    CombErr err;
    TextReader *r = NULL;
    TextWriter *w = NULL;
    int n_cols, rc;
    const CombType *const *types = tt_schema(a, schema, &n_cols);
    const char *out = fs_join(a, unit_tmpdir(), out_name);
    if (!types || comb_batch_init_types(&b, n_cols, types, 0))
        return "(setup)";
    rc = text_reader_open(path, o, n_cols, types, &r, &err);
    if (!rc)
        rc = text_writer_open(out, o, n_cols, types, &w, &err);
    while (!rc && !(rc = text_reader_next(r, &b, &err)) && b.n_rows > 0)
        rc = text_writer_write(w, &b, &err);
    if (w)
        rc = rc ? (text_writer_abort(w), rc) : text_writer_close(w, &err);
    text_reader_close(r);
    comb_batch_free(&b);
    return rc ? comb_arena_printf(a, "error %d: %s", rc, err.msg)
              : file_text(a, out);
}

/* Canonical text (what Hive writes) reads and writes back byte for byte. */
TEST(text_write_every_type_like_lazy_simple_serde)
{
    static const char canonical[] =
        "true" F "-128" F "32767" F "-2147483648" F "9223372036854775807" F
        "0.1" F "1.0E7" F "1.50" F "0001-01-01" F
        "1970-01-01 00:00:00.000000005" F "hi there" F "abc" F "ab  " F
        "aGk=" "\n"
        "false" F "0" F "-1" F "7" F "-9223372036854775808" F
        "3.4028235E38" F "-4.9E-324" F "-0.05" F "9999-12-31" F
        "9999-12-31 23:59:59.999999999" F "" F "" F "    " F "" "\n"
        "\\N" F "\\N" F "\\N" F "\\N" F "\\N" F "NaN" F "-Infinity" F
        "\\N" F "\\N" F "1969-12-31 23:59:59" F "\\N" F "\\N" F "\\N" F
        "/w==" "\n";
    static const char schema[] =
        "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,"
        "d:double,dec:decimal(6,2),dt:date,ts:timestamp,str:string,"
        "v:varchar(5),c:char(4),bin:binary>";
    CombArena a;
    TextOptions o;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const char *p = tt_text_file(&a, "in.txt", canonical);
    CHECK_STR(rewrite(&a, p, &o, schema, "out.txt"), canonical);
    /* values are rewritten in canonical form */
    p = tt_text_file(&a, "in2.txt",
                     "TRUE" F "+5" F "3.9" F "7" F "8" F "1e1" F ".5" F
                     "1.005" F "2021-1-5" F "2021-01-05 10:20:30.100" F "x" F
                     "abcdefg" F "a" F "aGk" "\n");
    CHECK_STR(rewrite(&a, p, &o, schema, "out2.txt"),
              "true" F "5" F "3" F "7" F "8" F "10.0" F "0.5" F "1.01" F
              "2021-01-05" F "2021-01-05 10:20:30.1" F "x" F "abcde" F
              "a   " F "aGk=" "\n");
    comb_arena_free(&a);
}

TEST(text_write_nested_separators)
{
    static const char canonical[] =
        "1" C "2" F "a" K "1" C "b" K "\\N" F "3" C "p" K "q" F "1" C "u" F
        "a" L4 "1" K "b" L4 "2" C "c" L4 "3" F "k" K "1" L4 "2" C "j" K F
        "1" K "x" C "\\N" C "2" K "\\N" F "0" C "7" F "1" C "5" K "6" "\n"
        "" F "" F "\\N" F "\\N" F "" F "" F "" F "1" C "" F "1" C "" F "2" C
        "" "\n";
    static const char schema[] =
        "struct<a:array<int>,m:map<string,int>,s:struct<x:int,y:array<string>>,"
        "u:uniontype<int,string>,am:array<map<string,int>>,"
        "ma:map<string,array<int>>,as:array<struct<p:int,q:string>>,"
        "u2:uniontype<int,string>,ua:uniontype<int,array<int>>,"
        "u3:uniontype<int,int,array<int>>>";
    CombArena a;
    TextOptions o;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const char *p = tt_text_file(&a, "in.txt", canonical);
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "[1,2]|{'a':1,'b':N}|(3,['p','q'])|<1:'u'>|"
              "[{'a':1,'b':2},{'c':3}]|{'k':[1,2],'j':[]}|[(1,'x'),N,(2,N)]|"
              "<0:7>|<1:[5,6]>|N\n"
              "[]|{}|N|N|[]|{}|[]|<1:''>|<1:[]>|<2:[]>\n");
    CHECK_STR(rewrite(&a, p, &o, schema, "out.txt"),
              "1" C "2" F "a" K "1" C "b" K "\\N" F "3" C "p" K "q" F "1" C
              "u" F "a" L4 "1" K "b" L4 "2" C "c" L4 "3" F "k" K "1" L4 "2" C
              "j" K F "1" K "x" C "\\N" C "2" K "\\N" F "0" C "7" F "1" C "5"
              K "6" F "\\N" "\n"
              "" F "" F "\\N" F "\\N" F "" F "" F "" F "1" C "" F "1" C "" F
              "2" C "" "\n");
    comb_arena_free(&a);
}

TEST(text_write_null_formats_escapes_line_delim)
{
    CombArena a;
    comb_arena_init(&a, 4096);
    const char *schema = "struct<s:string,i:int,a:array<string>>";
    const char *kv[] = {"field.delim", ",", "escape.delim", "\\",
                        "serialization.null.format", "NULL", NULL};
    TextOptions o = tt_opts(kv);
    /* separators, the escape character and (with escape.crlf) line ends
     * in strings get the escape character; numbers never do */
    const char *p = tt_text_file(&a, "in.txt",
                                 "a\\,b\\\\c\\nd\\re\\" F ",NULL,x\\" C "y" C
                                 "NULL\n");
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "'a,b\\x5Cc\\x0Ad\\x0De\\x01'|N|['x\\x02y',N]\n");
    /* \001 is no separator here: it goes out as it is */
    CHECK_STR(rewrite(&a, p, &o, schema, "out.txt"),
              "a\\,b\\\\c\nd\re" F ",NULL,x\\" C "y" C "NULL\n");
    const char *kv2[] = {"field.delim", ",", "escape.delim", "\\",
                         "serialization.null.format", "NULL",
                         "serialization.escape.crlf", "true",
                         "line.delim", "10", NULL};
    o = tt_opts(kv2);
    CHECK_STR(rewrite(&a, p, &o, schema, "out2.txt"),
              "a\\,b\\\\c\\nd\\re" F ",NULL,x\\" C "y" C "NULL\n");
    /* without an escape character bytes go out as they are; an empty
     * null format writes nothing; another line delimiter ends rows */
    const char *kv3[] = {"field.delim", ",", "serialization.null.format", "",
                         "line.delim", ";", NULL};
    o = tt_opts(kv3);
    p = tt_text_file(&a, "in3.txt", "a\\b,,x" C "\n");
    CHECK_STR(tt_read(&a, p, &o, schema, 0), "'a\\x5Cb'|N|['x',N]\n");
    CHECK_STR(rewrite(&a, p, &o, schema, "out3.txt"), "a\\b,,x" C ";");
    comb_arena_free(&a);
}

/* Rows by index, repeats allowed; a row that cannot be written leaves
 * nothing behind and the writer goes on. */
TEST(text_write_rows_by_index_and_bad_union_tag)
{
    CombArena a;
    CombBatch b;
    CombErr err;
    TextWriter *w = NULL;
    TextOptions o;
    int n_cols;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const CombType *const *types =
        tt_schema(&a, "struct<i:int,u:uniontype<int,string>>", &n_cols);
    const char *p = fs_join(&a, unit_tmpdir(), "rows.txt");
    CHECK_OK(comb_batch_init_types(&b, n_cols, types, 8), &err);
    for (int r = 0; r < 3; r++) {
        b.cols[0].i64[r] = r * 10;
        b.cols[1].tag[r] = 0;
        b.cols[1].children[0].i64[r] = r;
    }
    b.n_rows = 3;
    CHECK_OK(text_writer_open(p, &o, n_cols, types, &w, &err), &err);
    uint32_t rows[] = {2, 0, 2};
    CHECK_OK(text_writer_write_rows(w, &b, rows, 3, &err), &err);
    b.cols[1].tag[1] = 5;
    CHECK_EQ(text_writer_write(w, &b, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "union tag 5 out of range: the type has 2 members");
    CHECK_EQ(text_writer_rows(w), 4);
    CHECK_OK(text_writer_close(w, &err), &err);
    CHECK_STR(file_text(&a, p), "20" F "0" C "2\n"
                                "0" F "0" C "0\n"
                                "20" F "0" C "2\n"
                                "0" F "0" C "0\n");
    comb_batch_free(&b);
    comb_arena_free(&a);
}

static void faults(const char *spec)
{
    if (spec)
        setenv("COMB_FS_FAULT", spec, 1);
    else
        unsetenv("COMB_FS_FAULT");
    fs_hook_reload();
}

TEST(text_write_failures_leave_no_file)
{
    CombArena a;
    CombBatch b;
    CombErr err;
    TextWriter *w = NULL;
    TextReader *r = NULL;
    TextOptions o;
    int n_cols;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const CombType *const *types = tt_schema(&a, "struct<i:int>", &n_cols);
    const char *p = fs_join(&a, unit_tmpdir(), "f.txt");
    CHECK_OK(comb_batch_init_types(&b, n_cols, types, 4), &err);
    b.n_rows = 1;
    b.cols[0].i64[0] = 1;
    /* fsync fails at close: the file is removed */
    faults("fsync:f.txt");
    CHECK_OK(text_writer_open(p, &o, n_cols, types, &w, &err), &err);
    CHECK_OK(text_writer_write(w, &b, &err), &err);
    CHECK_EQ(text_writer_close(w, &err), COMB_EIO);
    CHECK(strstr(err.msg, "cannot fsync") != NULL);
    CHECK(!fs_exists(p));
    /* write fails while flushing */
    faults("write:f.txt:ENOSPC");
    CHECK_OK(text_writer_open(p, &o, n_cols, types, &w, &err), &err);
    CHECK_OK(text_writer_write(w, &b, &err), &err);
    CHECK_EQ(text_writer_close(w, &err), COMB_EIO);
    CHECK(!fs_exists(p));
    /* abort */
    faults(NULL);
    CHECK_OK(text_writer_open(p, &o, n_cols, types, &w, &err), &err);
    CHECK(fs_exists(p));
    text_writer_abort(w);
    CHECK(!fs_exists(p));
    /* reading fails */
    CHECK((p = tt_text_file(&a, "f.txt", "1\n")) != NULL);
    faults("read:f.txt");
    CHECK_OK(text_reader_open(p, &o, n_cols, types, &r, &err), &err);
    CHECK_EQ(text_reader_next(r, &b, &err), COMB_EIO);
    CHECK(strstr(err.msg, "cannot read") != NULL);
    text_reader_close(r);
    faults(NULL);
    /* a directory, a missing file */
    CHECK_EQ(text_reader_open(unit_tmpdir(), &o, n_cols, types, &r, &err),
             COMB_EIO);
    CHECK(strstr(err.msg, "a directory, not a regular file") != NULL);
    CHECK_EQ(text_reader_open(fs_join(&a, unit_tmpdir(), "none"), &o, n_cols,
                              types, &r, &err), COMB_EIO);
    comb_batch_free(&b);
    comb_arena_free(&a);
}
