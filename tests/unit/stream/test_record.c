/* Records of an ingest stream into typed rows (stream/stream_record.h):
 * the framing of CSV, TSV, delimited text and JSON lines, every column
 * type with good and bad values, NULLs, field counts, and the messages
 * that name the line and the column. */
#include <stdlib.h>

#include "common/alloc.h"
#include "common/datetime.h"
#include "common/numfmt.h"
#include "stream/stream_record.h"
#include "unit.h"

/* A parser over "name:type,name:type,..." and a batch of its columns. */
typedef struct Fixture {
    CombArena a;
    StreamRecordParser *p;
    CombBatch b;
    const CombType *types[16];
    const char *names[16];
    int n;
    CombErr err;
    char out[COMB_ERR_MSG_MAX + 16];
} Fixture;

static int fx_open(Fixture *f, StreamRecordFormat fmt, char delim,
                   const char *schema)
{
    char *s, *tok, *save = NULL;
    memset(f, 0, sizeof *f);
    comb_arena_init(&f->a, 4096);
    if (!(s = comb_arena_strdup(&f->a, schema)))
        return -1;
    for (tok = strtok_r(s, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(tok, ':');
        CombType *t;
        *colon = '\0';
        if (comb_type_parse(&f->a, colon + 1, strlen(colon + 1), &t, &f->err))
            return -1;
        f->names[f->n] = tok;
        f->types[f->n++] = t;
    }
    if (stream_record_parser_new(fmt, delim, f->n, f->names, f->types, &f->p,
                                 &f->err))
        return -1;
    return comb_batch_init_types(&f->b, f->n, f->types, 8);
}

static void fx_close(Fixture *f)
{
    stream_record_parser_free(f->p);
    if (f->b.cols)
        comb_batch_free(&f->b);
    comb_arena_free(&f->a);
}

/* Row `row` of the batch as "v|v|v" (N for NULL). */
static const char *fx_row(Fixture *f, int row)
{
    size_t k = 0;
    f->out[0] = '\0';
    for (int i = 0; i < f->n; i++) {
        const CombVector *v = &f->b.cols[i];
        char tmp[128];
        if (i)
            f->out[k++] = '|';
        if (comb_vec_is_null(v, row)) {
            snprintf(tmp, sizeof tmp, "N");
        } else {
            switch (f->types[i]->kind) {
            case COMB_T_FLOAT:
                comb_format_float((float)v->f64[row], tmp, sizeof tmp);
                break;
            case COMB_T_DOUBLE:
                comb_format_double(v->f64[row], tmp, sizeof tmp);
                break;
            case COMB_T_DECIMAL:
                comb_dec_format(v->dec[row], (int)f->types[i]->scale, tmp,
                                sizeof tmp);
                break;
            case COMB_T_DATE:
                comb_date_format(v->i64[row], tmp, sizeof tmp);
                break;
            case COMB_T_TIMESTAMP:
                comb_timestamp_format(v->i64[row], v->nanos[row], tmp,
                                      sizeof tmp);
                break;
            case COMB_T_STRING:
            case COMB_T_VARCHAR:
            case COMB_T_CHAR:
            case COMB_T_BINARY:
                snprintf(tmp, sizeof tmp, "[%.*s]", (int)v->str[row].len,
                         v->str[row].ptr);
                break;
            default:
                snprintf(tmp, sizeof tmp, "%lld", (long long)v->i64[row]);
            }
        }
        k += (size_t)snprintf(f->out + k, sizeof f->out - k, "%s", tmp);
    }
    return f->out;
}

/* Parse one record at row 0: its row text, or "E:" + the message. */
static const char *fx_parse(Fixture *f, const char *rec)
{
    int rc = stream_record_parse(f->p, rec, strlen(rec), 7, &f->b, 0, &f->err);
    if (rc < 0) {
        snprintf(f->out, sizeof f->out, "E:%s", f->err.msg);
        return f->out;
    }
    return rc == 0 ? "empty" : fx_row(f, 0);
}

typedef struct Case {
    const char *rec, *want;
} Case;

static void check_cases(StreamRecordFormat fmt, const char *schema,
                        const Case *c, size_t n)
{
    Fixture f;
    if (fx_open(&f, fmt, fmt == STREAM_REC_DELIMITED ? '|' : 0, schema)) {
        unit_fail(__FILE__, __LINE__, "fixture %s: %s", schema, f.err.msg);
        fx_close(&f);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const char *got = fx_parse(&f, c[i].rec);
        if (strcmp(got, c[i].want) != 0) {
            unit_fail(__FILE__, __LINE__, "%s record \"%s\": got \"%s\", "
                      "want \"%s\"", schema, c[i].rec, got, c[i].want);
            break;
        }
    }
    fx_close(&f);
}

#define CASES(fmt, schema, ...)                                      \
    do {                                                             \
        static const Case cs_[] = {__VA_ARGS__};                     \
        check_cases(fmt, schema, cs_, sizeof cs_ / sizeof cs_[0]);   \
    } while (0)

TEST(record_csv_quotes_per_rfc4180)
{
    CASES(STREAM_REC_CSV, "a:string;b:string",
          {"x,y", "[x]|[y]"},
          {"\"x,1\",y", "[x,1]|[y]"},
          {"\"say \"\"hi\"\"\",", "[say \"hi\"]|N"},
          {"\"\",", "[]|N"},
          {",", "N|N"},
          {"\"a\nb\",c", "[a\nb]|[c]"},
          {" x , y ", "[ x ]|[ y ]"},
          {"x\"y,z", "E:line 7: field 1: a '\"' inside an unquoted field "
                     "(quote the whole field and double the quote)"},
          {"\"x\"y,z", "E:line 7: field 1: a closing '\"' must be followed "
                       "by ',' or the end of the record"},
          {"x,\"y", "E:line 7: field 2: a quoted field does not end (a '\"' "
                    "is missing)"},
          {"x", "E:line 7: 1 field, expected 2 (a, b)"},
          {"x,y,z", "E:line 7: 3 fields, expected 2 (a, b)"},
          {"", "empty"});
}

TEST(record_csv_with_another_delimiter)
{
    Fixture f;
    CHECK_OK(fx_open(&f, STREAM_REC_CSV, ';', "a:string;b:decimal(4,1)"),
             &f.err);
    CHECK_STR(fx_parse(&f, "\"x;y\";1,5"), "E:line 7: column b: '1,5' is not "
                                           "a DECIMAL(4,1)");
    CHECK_STR(fx_parse(&f, "\"x;y\";1.5"), "[x;y]|1.5");
    CHECK_STR(fx_parse(&f, "a,b;"), "[a,b]|N");
    CHECK_STR(fx_parse(&f, "\"a\",;"), "E:line 7: field 1: a closing '\"' "
                                       "must be followed by the delimiter or "
                                       "the end of the record");
    fx_close(&f);
}

TEST(record_tsv_escapes_and_null_marker)
{
    CASES(STREAM_REC_TSV, "a:string;b:int",
          {"x\t1", "[x]|1"},
          {"\\N\t\\N", "N|N"},
          {"\t", "[]|N"},
          {"a\\tb\\nc\\\\d\t2", "[a\tb\nc\\d]|2"},
          {"\\x\t3", "[x]|3"},
          {"\\NX\t3", "[NX]|3"},
          {"x\t1\t2", "E:line 7: 3 fields, expected 2 (a, b)"},
          {"x", "E:line 7: 1 field, expected 2 (a, b)"});
    /* an escaped delimiter is text */
    CASES(STREAM_REC_DELIMITED, "a:string;b:string",
          {"x|y", "[x]|[y]"},
          {"x\\|y|z", "[x|y]|[z]"},
          {"x|\\N", "[x]|N"});
}

TEST(record_integers_strict)
{
    CASES(STREAM_REC_TSV, "t:tinyint;s:smallint;i:int;b:bigint",
          {"1\t2\t3\t4", "1|2|3|4"},
          {" -1\t+2 \t 3 \t-9223372036854775808",
           "-1|2|3|-9223372036854775808"},
          {"127\t32767\t2147483647\t9223372036854775807",
           "127|32767|2147483647|9223372036854775807"},
          {"128\t0\t0\t0", "E:line 7: column t: '128' is not a TINYINT"},
          {"0\t0\t1.5\t0", "E:line 7: column i: '1.5' is not an INT"},
          {"0\t0\t0\tx1", "E:line 7: column b: 'x1' is not a BIGINT"},
          {"0\t0\t0\t9223372036854775808",
           "E:line 7: column b: '9223372036854775808' is not a BIGINT"},
          {"\t\t\t", "N|N|N|N"});
}

TEST(record_decimal_message_names_line_and_column)
{
    CASES(STREAM_REC_CSV, "id:int;amount:decimal(10,2)",
          {"1,12.345", "1|12.35"},
          {"1,-0.004", "1|0.00"},
          {"1,12345678.9", "1|12345678.90"},
          {"1,123456789", "E:line 7: column amount: '123456789' is not a "
                          "DECIMAL(10,2)"},
          {"17,x1", "E:line 7: column amount: 'x1' is not a DECIMAL(10,2)"});
}

TEST(record_other_types)
{
    CASES(STREAM_REC_TSV,
          "b:boolean;f:float;d:double;dt:date;ts:timestamp",
          {"true\t1.5\t-2.25\t2021-01-05\t2021-01-05 10:20:30.5",
           "1|1.5|-2.25|2021-01-05|2021-01-05 10:20:30.5"},
          {"FALSE\t1e3\tNaN\t2020-02-29\t2021-01-05T10:20",
           "0|1000.0|NaN|2020-02-29|2021-01-05 10:20:00"},
          {"yes\t0\t0\t2021-01-01\t2021-01-01 00:00:00",
           "E:line 7: column b: 'yes' is not a BOOLEAN"},
          {"true\t0\t0\t2021-02-30\t2021-01-01 00:00:00",
           "E:line 7: column dt: '2021-02-30' is not a DATE"},
          {"true\t0\t1,5\t2021-01-01\t2021-01-01 00:00:00",
           "E:line 7: column d: '1,5' is not a DOUBLE"},
          {"true\t0\t0\t2021-01-01\t2021-01-01 24:00:00",
           "E:line 7: column ts: '2021-01-01 24:00:00' is not a TIMESTAMP"});
}

TEST(record_sized_strings_and_binary)
{
    CASES(STREAM_REC_CSV, "v:varchar(3);c:char(4);bin:binary",
          {"abcdef,ab,aGk=", "[abc]|[ab  ]|[hi]"},
          {"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9,x,", "[\xc3\xa9\xc3\xa9\xc3\xa9]|[x   ]|N"},
          {"\xff,,\"\"", "[\xef\xbf\xbd]|N|[]"},
          {"a,b,!!", "E:line 7: column bin: '!!' is not a BINARY (Base64)"});
}

TEST(record_json_matches_names_any_case)
{
    CASES(STREAM_REC_JSON, "id:int;Name:string;amount:decimal(5,1);ok:boolean",
          {"{\"id\":1,\"name\":\"ann\",\"amount\":2.25,\"ok\":true}",
           "1|[ann]|2.3|1"},
          {"{\"AMOUNT\":\"3\",\"ID\":\"2\"}", "2|N|3.0|N"},
          {" { } ", "N|N|N|N"},
          {"{\"id\":1,\"extra\":{\"x\":[1,2,{\"y\":null}]},\"name\":null}",
           "1|N|N|N"},
          {"{\"name\":\"a\\\"b\\u00e9\\ud83d\\ude00\\n\"}",
           "N|[a\"b\xc3\xa9\xf0\x9f\x98\x80\n]|N|N"},
          {"{\"id\":1,\"id\":2}", "2|N|N|N"},
          {"{\"name\":123.50}", "N|[123.50]|N|N"},
          {"{\"id\":\"\"}", "N|N|N|N"},
          {"{\"id\":1.5}", "E:line 7: column id: '1.5' is not an INT"},
          {"{\"id\":true}", "E:line 7: column id: 'true' is not an INT"},
          {"{\"name\":[1]}", "E:line 7: column name: a JSON array is not a "
                             "STRING"},
          {"{\"id\":1", "E:line 7: not a JSON object per line: expected ',' "
                        "or '}' at byte 8"},
          {"[1]", "E:line 7: not a JSON object per line: expected '{' at "
                  "byte 1"},
          {"{\"id\":1} x", "E:line 7: not a JSON object per line: text after "
                           "the object at byte 10"},
          {"{\"id\" 1}", "E:line 7: not a JSON object per line: expected ':' "
                         "at byte 7"},
          {"{\"name\":\"a\\q\"}", "E:line 7: not a JSON object per line: an "
                                 "unknown escape in a string at byte 12"},
          {"{\"id\":nul}", "E:line 7: not a JSON object per line: not a value "
                           "at byte 7"});
}

/* The framing of a whole stream: records, the lines they span, the end
 * of input without a line end. */
TEST(record_split_counts_lines)
{
    Fixture f;
    const char *in = "a,\"x\ny\"\r\nb,c\n\nd,e";
    size_t n = strlen(in), pos = 0, len, used;
    int lines, k = 0;
    static const struct { const char *rec; int lines; } want[] = {
        {"a,\"x\ny\"", 2}, {"b,c", 1}, {"", 1}, {"d,e", 0}};
    CHECK_OK(fx_open(&f, STREAM_REC_CSV, 0, "a:string;b:string"), &f.err);
    /* a record with its line end is whole before the end of input */
    CHECK(stream_record_split(f.p, in, n, false, &len, &used, &lines));
    while (stream_record_split(f.p, in + pos, n - pos, true, &len, &used,
                               &lines)) {
        CHECK(k < 4);
        CHECK_EQ(len, strlen(want[k].rec));
        CHECK(memcmp(in + pos, want[k].rec, len) == 0);
        CHECK_EQ(lines, want[k].lines);
        pos += used;
        k++;
    }
    CHECK_EQ(k, 4);
    CHECK_EQ(pos, n);
    CHECK(!stream_record_split(f.p, "d,\"e\n", 5, false, &len, &used, &lines));
    CHECK(!stream_record_split(f.p, "d,e", 3, false, &len, &used, &lines));
    fx_close(&f);
}

TEST(record_parser_refuses_complex_columns_and_bad_delimiters)
{
    Fixture f;
    CHECK(fx_open(&f, STREAM_REC_CSV, 0, "a:int;l:array<int>") != 0);
    CHECK_EQ(f.err.code, COMB_EUNSUPPORTED);
    CHECK_STR(f.err.msg, "column l: array columns cannot be streamed from "
                         "text or JSON records");
    fx_close(&f);
    CHECK(fx_open(&f, STREAM_REC_DELIMITED, '\\', "a:int") != 0);
    CHECK_EQ(f.err.code, COMB_EINVALID);
    fx_close(&f);
}

TEST(record_strings_outlive_the_input)
{
    Fixture f;
    char rec[] = "abc,\"d\"\"e\"";
    CHECK_OK(fx_open(&f, STREAM_REC_CSV, 0, "a:string;b:string"), &f.err);
    CHECK_EQ(stream_record_parse(f.p, rec, strlen(rec), 1, &f.b, 3, &f.err),
             1);
    memset(rec, 'z', sizeof rec - 1);
    CHECK_STR(fx_row(&f, 3), "[abc]|[d\"e]");
    fx_close(&f);
}

TEST(record_format_names)
{
    StreamRecordFormat fmt;
    CHECK(stream_record_format_parse("CSV", &fmt) && fmt == STREAM_REC_CSV);
    CHECK(stream_record_format_parse("json", &fmt) && fmt == STREAM_REC_JSON);
    CHECK(stream_record_format_parse("tsv", &fmt) && fmt == STREAM_REC_TSV);
    CHECK(!stream_record_format_parse("xml", &fmt));
}

/* Out of memory at every allocation of a parser's set-up and of records
 * that need scratch and arena bytes: each run either gives the full row
 * or fails with COMB_ENOMEM, and leaks nothing (ASan). */
TEST(record_survives_allocation_failures)
{
    static const char *const recs[] = {
        "\"a\"\"b\",x\\tq,1.5,\"c\nd\"", "{\"S\":\"a\\u00e9\\n\",\"t\":\"x\","
        "\"d\":\"1.5\",\"zz\":[1,{\"k\":\"\\\"\"}]}"};
    static const StreamRecordFormat fmts[] = {STREAM_REC_CSV, STREAM_REC_JSON};
    for (int f = 0; f < 2; f++) {
        bool done = false;
        for (int64_t k = 1; k < 1000 && !done; k++) {
            Fixture fx;
            int rc;
            comb_alloc_fail_after(k);
            rc = fx_open(&fx, fmts[f], 0, "s:string;t:varchar(1);d:decimal(3,1);"
                                          "z:string");
            if (rc == 0) {
                rc = stream_record_parse(fx.p, recs[f], strlen(recs[f]), 1,
                                         &fx.b, 0, &fx.err);
                if (rc == 1) {
                    comb_alloc_fail_after(0);
                    CHECK_STR(fx_row(&fx, 0), f == 0
                              ? "[a\"b]|[x]|1.5|[c\nd]"
                              : "[a\xc3\xa9\n]|[x]|1.5|N");
                    done = true;
                } else if (rc != -COMB_ENOMEM) {
                    comb_alloc_fail_after(0);
                    unit_fail(__FILE__, __LINE__, "rc %d at %lld: %s", rc,
                              (long long)k, fx.err.msg);
                }
            }
            comb_alloc_fail_after(0);
            fx_close(&fx);
            if (unit_failed_now())
                return;
        }
        CHECK(done);
    }
}

/* Random bytes, records of every format cut from them: every result is a
 * row, an empty line or COMB_EINVALID with a message naming its line. */
TEST(record_random_bytes_never_crash)
{
    static const char alphabet[] = "ab1.-e\",\t\\N{}[]:\"tnu0\r\n |x";
    static const StreamRecordFormat fmts[] = {
        STREAM_REC_CSV, STREAM_REC_TSV, STREAM_REC_DELIMITED, STREAM_REC_JSON};
    char buf[256];
    unsigned seed = 12345;
    for (int f = 0; f < 4; f++) {
        Fixture fx;
        CHECK_OK(fx_open(&fx, fmts[f], '|', "a:int;b:string;c:decimal(4,2);"
                                            "d:varchar(2);e:boolean"), &fx.err);
        for (int round = 0; round < 3000; round++) {
            size_t n = (size_t)(rand_r(&seed) % sizeof buf), pos = 0, len, used;
            int lines;
            uint64_t line = 1;
            for (size_t i = 0; i < n; i++)
                buf[i] = alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
            while (pos < n && stream_record_split(fx.p, buf + pos, n - pos,
                                                  true, &len, &used, &lines)) {
                int rc = stream_record_parse(fx.p, buf + pos, len, line,
                                             &fx.b, round % 8, &fx.err);
                if (rc < 0 && (rc != -COMB_EINVALID ||
                               strncmp(fx.err.msg, "line ", 5) != 0)) {
                    unit_fail(__FILE__, __LINE__, "rc %d: %s", rc, fx.err.msg);
                    break;
                }
                CHECK(used > 0 && used <= n - pos);
                pos += used;
                line += (uint64_t)lines;
            }
            comb_batch_reset(&fx.b);
            if (unit_failed_now())
                break;
        }
        fx_close(&fx);
        if (unit_failed_now())
            return;
    }
}
