/*
 * orc_bench.c - ORC write and full-scan throughput per column type and
 * codec, comb against Apache ORC C++ side by side in one run.
 *
 *   ORC_TOOLS=DIR orc_bench [ROWS] [DIR]      (default 10000000 rows)
 *   orc_bench --scan FILE [TIMES]             (comb's scan alone, to profile)
 *   orc_bench --recompress SRC DST CODEC      (SRC's streams in CODEC)
 *
 * For each column type (int, bigint, double, string of low and of high
 * cardinality, decimal(12,2), timestamp) ROWS values are generated (the
 * same ones for both sides; see gen_value) and, for each codec (NONE,
 * ZLIB, SNAPPY, ZSTD, LZ4):
 *   comb     writes them as a one-column ORC file (orc_writer_write of
 *            1024-row batches; CPU and wall time of the writer calls only)
 *   ORC C++  csv-import writes them from a CSV file (always ZLIB, its only
 *            codec; the time it reports for its writer calls, not its CSV
 *            parsing); for the other codecs its ZLIB file is recompressed
 *            stream by stream (encodings unchanged, row index dropped)
 *   scans    comb's reader (orc_reader_next into 1024-row batches, values
 *            not touched) and ORC C++'s orc-scan (batch 1024), each over
 *            comb's file and ORC C++'s, single-threaded, CPU and wall time
 *            and peak RSS of the scan alone (comb: the process's high-water
 *            mark reset before each step; orc-scan: its process)
 * A separate, untimed pass checks that comb reads the same values from
 * both files.  Apache ORC C++'s tools come from $ORC_TOOLS (the directory
 * holding csv-import and orc-scan); without them only comb's figures are
 * printed.  DIR keeps the files; without it a temporary directory is
 * removed.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/orc_int.h"

#include "bench.h"

#define BATCH 1024

/* ------------------------------------------------------------------ data */

enum { T_INT, T_BIGINT, T_DOUBLE, T_STR_LOW, T_STR_HIGH, T_DECIMAL, T_TS,
       N_TYPES };

static const struct {
    const char *name;   /* in the report */
    const char *type;   /* Hive type string, for both writers */
    const char *what;   /* what the values are */
} types[N_TYPES] = {
    {"int", "int", "uniform in [-10^6, 10^6)"},
    {"bigint", "bigint", "ids i*1000 + 0..999 (ascending)"},
    {"double", "double", "prices 0.00 .. 999999.99"},
    {"string-low", "string", "100 distinct 'category-N', 1% NULL"},
    {"string-high", "string", "hex of a 64-bit hash (~16 bytes), 1% NULL"},
    {"decimal", "decimal(12,2)", "+-0.00 .. 49999999.99"},
    {"timestamp", "timestamp", "every ~3 s from 2020-01-01, milliseconds"},
};

static const OrcCompression codecs[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                        ORC_COMP_SNAPPY, ORC_COMP_ZSTD,
                                        ORC_COMP_LZ4};
#define N_CODECS (int)(sizeof codecs / sizeof codecs[0])

typedef struct Value {
    bool null;
    int64_t i;          /* integers, timestamp seconds, decimal unscaled */
    int32_t nanos;
    double d;
    char s[24];
    uint32_t slen;
} Value;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Row i of column type t: a function of (t, i) alone, so the CSV text and
 * the batches hold the same values. */
static void gen_value(int t, uint64_t i, Value *v)
{
    uint64_t h = mix(i * 8 + (uint64_t)t);
    memset(v, 0, offsetof(Value, s));
    switch (t) {
    case T_INT:
        v->i = (int64_t)(h % 2000000) - 1000000;
        break;
    case T_BIGINT:
        v->i = (int64_t)(i * 1000 + h % 1000);
        break;
    case T_DOUBLE:
        v->d = (double)(h % 100000000) / 100.0;
        break;
    case T_STR_LOW:
        v->null = (h >> 40) % 100 == 0;
        v->slen = (uint32_t)sprintf(v->s, "category-%u", (unsigned)(h % 100));
        break;
    case T_STR_HIGH:
        v->null = (h >> 40) % 100 == 0;
        v->slen = (uint32_t)sprintf(v->s, "%" PRIx64, mix(h));
        break;
    case T_DECIMAL:
        v->i = (int64_t)(h % 10000000000ull) - 5000000000ll;
        break;
    default:
        v->i = 1577836800 + (int64_t)(i * 3 + h % 3);
        v->nanos = (int32_t)(h % 1000) * 1000000;
        break;
    }
}

static int format_csv(int t, const Value *v, char *out)
{
    int64_t secs, days, tod;
    if (v->null)
        return 0;
    switch (t) {
    case T_INT:
    case T_BIGINT:
        return sprintf(out, "%" PRId64, v->i);
    case T_DOUBLE:
        return sprintf(out, "%.2f", v->d);
    case T_STR_LOW:
    case T_STR_HIGH:
        memcpy(out, v->s, v->slen);
        return (int)v->slen;
    case T_DECIMAL: {
        uint64_t a = v->i < 0 ? (uint64_t)-v->i : (uint64_t)v->i;
        return sprintf(out, "%s%" PRIu64 ".%02u", v->i < 0 ? "-" : "",
                       a / 100, (unsigned)(a % 100));
    }
    default: {
        struct tm tm;
        time_t tt;
        secs = v->i;
        days = secs / 86400;
        tod = secs % 86400;
        tt = (time_t)(days * 86400 + tod);
        gmtime_r(&tt, &tm);
        return sprintf(out, "%04d-%02d-%02d %02d:%02d:%02d.%03d",
                       tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                       tm.tm_hour, tm.tm_min, tm.tm_sec,
                       (int)(v->nanos / 1000000));
    }
    }
}

static int write_csv(int t, long rows, const char *path)
{
    FILE *f = fopen(path, "w");
    char line[64];
    Value v;
    if (!f)
        return 1;
    for (long i = 0; i < rows; i++) {
        gen_value(t, (uint64_t)i, &v);
        int n = format_csv(t, &v, line);
        line[n++] = '\n';
        fwrite(line, 1, (size_t)n, f);
    }
    return fclose(f) != 0;
}

/* Rows start.. of column type t into the batch's one column; strings
 * point into strs (BATCH * 24 bytes). */
static void fill_batch(int t, long start, int n, CombBatch *b, char *strs)
{
    CombVector *c = &b->cols[0];
    Value v;
    c->has_nulls = false;
    for (int r = 0; r < n; r++) {
        gen_value(t, (uint64_t)(start + r), &v);
        if (v.null) {
            comb_vec_nulls_materialize(c, n);
            comb_vec_set_null(c, r);
            continue;
        }
        comb_vec_set_not_null(c, r);
        switch (t) {
        case T_DOUBLE:
            c->f64[r] = v.d;
            break;
        case T_STR_LOW:
        case T_STR_HIGH:
            memcpy(strs + r * 24, v.s, v.slen);
            c->str[r] = (CombStr){strs + r * 24, v.slen};
            break;
        case T_DECIMAL:
            c->dec[r] = v.i;
            break;
        case T_TS:
            c->i64[r] = v.i;
            c->nanos[r] = v.nanos;
            break;
        default:
            c->i64[r] = v.i;
        }
    }
    b->n_rows = n;
}

/* ----------------------------------------------------------- measuring */

typedef struct Measure {
    bool ok;
    double wall, cpu;
    long rss_kb;
    long rows;
} Measure;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The peak RSS of this process from now on: Linux resets the high-water
 * mark when "5" is written to clear_refs. */
static void rss_reset(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "5", 1) != 1) {
            /* the mark stays the process's peak so far */
        }
        close(fd);
    }
}

static long rss_peak_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb >= 0 ? kb : peak_rss_kb();
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Run argv with stdout and stderr to out_path; its wall and CPU time and
 * peak RSS into m.  0 when it exits 0. */
static int run_child(char *const argv[], const char *out_path, Measure *m)
{
    struct rusage ru;
    int status;
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) != pid)
        return 1;
    m->wall = now() - t0;
    m->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    m->rss_kb = ru.ru_maxrss;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The number after `key` in the file at path, or -1. */
static double find_number(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double v = -1;
    while (f && fgets(line, sizeof line, f)) {
        char *p = strstr(line, key);
        if (p && sscanf(p + strlen(key), "%lf", &v) == 1)
            break;
    }
    if (f)
        fclose(f);
    return v;
}

/* ---------------------------------------------------------------- comb */

static CombType *column_type(CombArena *a, int t)
{
    char text[64];
    CombType *root;
    CombErr err;
    snprintf(text, sizeof text, "struct<c:%s>", types[t].type);
    if (comb_type_parse(a, text, strlen(text), &root, &err))
        return NULL;
    comb_type_assign_ids(root);
    return root;
}

static int comb_write(int t, long rows, OrcCompression codec,
                      const char *path, Measure *m)
{
    CombArena a;
    CombBatch b;
    CombErr err;
    OrcWriterOptions opt;
    OrcWriter *w = NULL;
    char *strs = malloc(BATCH * 24);
    double wall = 0, cpu = 0, t0, c0;
    int rc = 1;
    comb_arena_init(&a, 4096);
    CombType *root = column_type(&a, t);
    const CombType *col = root ? root->children[0] : NULL;
    rss_reset();
    orc_writer_options_default(&opt);
    opt.compression = codec;
    if (!strs || !root || comb_batch_init_types(&b, 1, &col, BATCH)) {
        free(strs);
        comb_arena_free(&a);
        return 1;
    }
    if (orc_writer_open(path, root, &opt, &w, &err))
        goto done;
    for (long start = 0; start < rows; start += BATCH) {
        int n = rows - start < BATCH ? (int)(rows - start) : BATCH;
        fill_batch(t, start, n, &b, strs);
        t0 = now();
        c0 = cpu_now();
        if (orc_writer_write(w, &b, &err))
            goto done;
        cpu += cpu_now() - c0;
        wall += now() - t0;
    }
    t0 = now();
    c0 = cpu_now();
    rc = orc_writer_close(w, &err);
    w = NULL;
    m->cpu = cpu + cpu_now() - c0;
    m->wall = wall + now() - t0;
    m->rss_kb = rss_peak_kb();
    m->rows = rows;
    m->ok = rc == 0;
done:
    if (rc)
        fprintf(stderr, "orc_bench: comb writing %s: %s\n", path, err.msg);
    orc_writer_abort(w);
    comb_batch_free(&b);
    comb_arena_free(&a);
    free(strs);
    return rc;
}

/* What a verifying pass reads: a sum over the values' bits. */
typedef struct Sums {
    uint64_t rows, nulls, sum;
} Sums;

static void sum_batch(const CombBatch *b, Sums *s)
{
    const CombVector *c = &b->cols[0];
    for (int r = 0; r < b->n_rows; r++) {
        uint64_t x = 0;
        s->rows++;
        if (comb_vec_is_null(c, r)) {
            s->nulls++;
            continue;
        }
        if (c->str) {
            for (uint32_t k = 0; k < c->str[r].len; k++)
                x = x * 131 + (uint8_t)c->str[r].ptr[k];
        } else if (c->f64) {
            memcpy(&x, &c->f64[r], sizeof x);
        } else if (c->dec) {
            x = (uint64_t)c->dec[r];
        } else {
            x = (uint64_t)c->i64[r] * 1000000007u +
                (uint64_t)(c->nanos ? c->nanos[r] : 0);
        }
        s->sum += mix(x + s->rows);
    }
}

/* Full scan of path; with sums, an untimed pass adding up the values. */
static int comb_scan(const char *path, Measure *m, Sums *sums)
{
    OrcReader *r;
    CombBatch b;
    CombErr err;
    long rows = 0;
    rss_reset();
    double t0 = now(), c0 = cpu_now();
    if (orc_reader_open(path, &r, &err)) {
        fprintf(stderr, "orc_bench: %s\n", err.msg);
        return 1;
    }
    if (orc_reader_batch_init(r, &b, BATCH)) {
        orc_reader_close(r);
        return 1;
    }
    int rc;
    while (!(rc = orc_reader_next(r, &b, &err)) && b.n_rows > 0) {
        rows += b.n_rows;
        if (sums)
            sum_batch(&b, sums);
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    if (rc) {
        fprintf(stderr, "orc_bench: %s\n", err.msg);
        return 1;
    }
    if (m) {
        m->cpu = cpu_now() - c0;
        m->wall = now() - t0;
        m->rss_kb = rss_peak_kb();
        m->rows = rows;
        m->ok = true;
    }
    return 0;
}

/* --------------------------------------------- recompressing a file */

/* Bytes at off.. of the source, decompressed, then compressed with the
 * target codec onto out. */
static int recode_section(OrcReader *r, OrcCodec *to, uint64_t block,
                          uint64_t off, uint64_t len, CombBuf *out,
                          CombErr *err)
{
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    int rc = orc_reader_read_section(r, off, len, &sb, "section", err);
    if (!rc)
        rc = orc_codec_compress(to, block, sb.p, sb.len, out, err);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    return rc;
}

static bool is_index_stream(int kind)
{
    return kind == ORC__PROTO__STREAM__KIND__ROW_INDEX ||
           kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER ||
           kind == ORC__PROTO__STREAM__KIND__BLOOM_FILTER_UTF8;
}

static int pack_onto(const ProtobufCMessage *msg, OrcCodec *to,
                     uint64_t block, CombBuf *out, CombErr *err)
{
    CombBuf packed = COMB_BUF_INIT;
    size_t n = protobuf_c_message_get_packed_size(msg);
    int rc = comb_buf_reserve(&packed, n + 1) ? comb_err_nomem(err) : 0;
    if (!rc) {
        packed.len = protobuf_c_message_pack(msg, packed.data);
        rc = to ? orc_codec_compress(to, block, packed.data, packed.len, out,
                                     err)
                : comb_buf_append(out, packed.data, packed.len);
    }
    comb_buf_free(&packed);
    return rc;
}

/* One stripe of the source onto out without its index streams; the
 * stripe's new place in si (offset set by the caller). */
static int recode_stripe(OrcReader *r, int i, OrcCodec *to, uint64_t block,
                         CombBuf *out, Orc__Proto__StripeInformation *si,
                         CombErr *err)
{
    Orc__Proto__StripeFooter *sf;
    OrcStripeInfo in;
    orc_reader_stripe_info(r, i, &in);
    int rc = orc_reader_stripe_footer(r, i, &sf, err);
    if (rc)
        return rc;
    Orc__Proto__Stream **all = sf->streams;
    size_t n_all = sf->n_streams, kept = 0;
    Orc__Proto__Stream **keep = malloc((n_all + 1) * sizeof *keep);
    uint64_t off = in.offset, start = out->len;
    if (!keep)
        rc = comb_err_nomem(err);
    for (size_t s = 0; s < n_all && !rc; s++) {
        uint64_t len = all[s]->length;
        size_t before = out->len;
        if (!is_index_stream(all[s]->kind)) {
            rc = recode_section(r, to, block, off, len, out, err);
            all[s]->length = out->len - before;
            keep[kept++] = all[s];
        }
        off += len;
    }
    if (!rc) {
        si->indexlength = 0;
        si->datalength = out->len - start;
        sf->streams = keep;
        sf->n_streams = kept;
        rc = pack_onto(&sf->base, to, block, out, err);
        si->footerlength = out->len - start - si->datalength;
        si->numberofrows = in.n_rows;
        sf->streams = all;
        sf->n_streams = n_all;
    }
    free(keep);
    orc_stripe_footer_free(sf);
    return rc;
}

/* Write src again as dst with codec `to`: every stream and section
 * decompressed and compressed again, the row index and bloom filters left
 * out (their positions would point into the old chunks). */
static int recompress(const char *src, const char *dst, OrcCompression to,
                      CombErr *err)
{
    OrcReader *r;
    OrcCodec *codec = NULL;
    CombBuf out = COMB_BUF_INIT;
    int rc = orc_reader_open(src, &r, err);
    if (rc)
        return rc;
    Orc__Proto__ReaderFooter *f =
        (Orc__Proto__ReaderFooter *)orc_reader_footer(r);
    Orc__Proto__PostScript *ps = r->ps;
    uint64_t block = ps->compressionblocksize, stride = f->rowindexstride;
    uint64_t meta_len = 0, foot_len = 0, content_len;
    Orc__Proto__StripeInformation *si = NULL;
    if ((rc = orc_codec_new(to, &codec, err)) ||
        (rc = comb_buf_append(&out, ORC_MAGIC, ORC_MAGIC_LEN)))
        goto done;
    si = malloc((f->n_stripes + 1) * sizeof *si);
    for (size_t i = 0; i < f->n_stripes && !rc; i++) {
        orc__proto__stripe_information__init(&si[i]);
        si[i].has_offset = si[i].has_indexlength = si[i].has_datalength = 1;
        si[i].has_footerlength = si[i].has_numberofrows = 1;
        si[i].offset = out.len;
        rc = recode_stripe(r, (int)i, codec, block, &out, &si[i], err);
    }
    content_len = out.len;
    if (!rc && r->meta_len) {
        rc = recode_section(r, codec, block, r->meta_off, r->meta_len, &out,
                            err);
        meta_len = out.len - content_len;
    }
    if (!rc) {
        Orc__Proto__StripeInformation **old = f->stripes;
        Orc__Proto__StripeInformation **now_si =
            malloc((f->n_stripes + 1) * sizeof *now_si);
        uint64_t old_content = f->contentlength;
        for (size_t i = 0; now_si && i < f->n_stripes; i++)
            now_si[i] = &si[i];
        f->stripes = now_si;
        f->rowindexstride = 0;
        f->contentlength = content_len;
        size_t before = out.len;
        rc = now_si ? pack_onto(&f->base, codec, block, &out, err)
                    : comb_err_nomem(err);
        foot_len = out.len - before;
        f->stripes = old;
        f->rowindexstride = (uint32_t)stride;
        f->contentlength = old_content;
        free(now_si);
    }
    if (!rc) {
        Orc__Proto__PostScript copy = *ps;
        size_t before = out.len;
        copy.compression = (Orc__Proto__CompressionKind)to;
        copy.footerlength = foot_len;
        copy.metadatalength = meta_len;
        rc = pack_onto(&copy.base, NULL, 0, &out, err);
        if (!rc)
            rc = comb_buf_append_byte(&out, (uint8_t)(out.len - before));
    }
    if (!rc) {
        FILE *o = fopen(dst, "wb");
        rc = !o || fwrite(out.data, 1, out.len, o) != out.len;
        if (o && fclose(o))
            rc = 1;
        if (rc)
            comb_err(err, COMB_EIO, "cannot write %s", dst);
    }
done:
    free(si);
    comb_buf_free(&out);
    orc_codec_free(codec);
    orc_reader_close(r);
    return rc;
}

/* ---------------------------------------------------------------- report */

typedef struct Cell {
    long comb_size, orc_size;   /* bytes of comb's and ORC C++'s file */
    Measure comb_write, orc_write;
    Measure comb_comb, comb_orc;  /* comb scanning comb's / ORC C++'s */
    Measure orc_comb, orc_orc;    /* orc-scan of comb's / ORC C++'s */
    bool same;                    /* comb reads the same from both */
} Cell;

static void print_measure(const char *label, const Measure *m, long size,
                          long rows, bool write)
{
    if (!m->ok) {
        printf("    %-26s  -\n", label);
        return;
    }
    double secs = m->wall > 0 ? m->wall : 1e-9;
    printf("    %-26s %8.3f %8.3f %7.1f M %8.1f %7.1f", label, m->cpu,
           m->wall, (double)rows / secs / 1e6, (double)size / secs / 1e6,
           (double)m->rss_kb / 1024.0);
    if (write)
        printf("  %9.2f MB", (double)size / 1e6);
    printf("\n");
}

static void print_cell(int t, int c, long rows, const Cell *x, bool orc)
{
    printf("  %s, %s\n", types[t].name, orc_compression_name(codecs[c]));
    printf("    %-26s %8s %8s %9s %8s %7s  %12s\n", "", "CPU s", "wall s",
           "rows/s", "MB/s", "RSS MB", "file");
    print_measure("comb writes", &x->comb_write, x->comb_size, rows, true);
    if (orc && codecs[c] == ORC_COMP_ZLIB)
        print_measure("ORC C++ writes (csv-import)", &x->orc_write,
                      x->orc_size, rows, true);
    else if (orc)
        printf("    %-26s %64.2f MB\n", "ORC C++'s, recompressed",
               (double)x->orc_size / 1e6);
    print_measure("comb scans comb's", &x->comb_comb, x->comb_size, rows,
                  false);
    if (!orc)
        return;
    print_measure("orc-scan of comb's", &x->orc_comb, x->comb_size, rows,
                  false);
    print_measure("comb scans ORC C++'s", &x->comb_orc, x->orc_size, rows,
                  false);
    print_measure("orc-scan of ORC C++'s", &x->orc_orc, x->orc_size, rows,
                  false);
    if (x->comb_orc.ok && x->orc_orc.ok && x->comb_comb.ok && x->orc_comb.ok)
        printf("    scan CPU ORC C++ / comb: %.2fx on ORC C++'s file, %.2fx "
               "on comb's; same values: %s\n",
               x->orc_orc.cpu / x->comb_orc.cpu,
               x->orc_comb.cpu / x->comb_comb.cpu, x->same ? "yes" : "NO");
}

static double ratio(const Measure *a, const Measure *b)
{
    return a->ok && b->ok && b->cpu > 0 ? a->cpu / b->cpu : 0;
}

static void print_summary(Cell cells[N_TYPES][N_CODECS])
{
    printf("\nscan CPU time, ORC C++ (orc-scan) / comb, on ORC C++'s file "
           "(comb's file in brackets); file size comb / ORC C++:\n");
    printf("  %-12s", "");
    for (int c = 0; c < N_CODECS; c++)
        printf(" %-21s", orc_compression_name(codecs[c]));
    printf("\n");
    for (int t = 0; t < N_TYPES; t++) {
        printf("  %-12s", types[t].name);
        for (int c = 0; c < N_CODECS; c++) {
            const Cell *x = &cells[t][c];
            char buf[64];
            snprintf(buf, sizeof buf, "%.2fx (%.2fx) %.2f",
                     ratio(&x->orc_orc, &x->comb_orc),
                     ratio(&x->orc_comb, &x->comb_comb),
                     x->orc_size > 0 ? (double)x->comb_size /
                                           (double)x->orc_size : 0.0);
            printf(" %-21s", buf);
        }
        printf("\n");
    }
}

/* ------------------------------------------------------------------ main */

typedef struct Tools {
    bool found;
    char csv_import[4096], orc_scan[4096];
} Tools;

static void find_tools(Tools *t)
{
    const char *dir = getenv("ORC_TOOLS");
    t->found = false;
    if (!dir || !*dir)
        return;
    snprintf(t->csv_import, sizeof t->csv_import, "%s/csv-import", dir);
    snprintf(t->orc_scan, sizeof t->orc_scan, "%s/orc-scan", dir);
    t->found = access(t->csv_import, X_OK) == 0 &&
               access(t->orc_scan, X_OK) == 0;
}

static int orc_scan(const Tools *tools, const char *path, const char *log,
                    long rows, Measure *m)
{
    char b[] = "-b", n[] = "1024";
    char *argv[] = {(char *)tools->orc_scan, b, n, (char *)path, NULL};
    m->ok = run_child(argv, log, m) == 0 &&
            (long)find_number(log, "Rows: ") == rows;
    m->rows = rows;
    return m->ok ? 0 : 1;
}

/* csv-import of the type's CSV into path (ZLIB); its own figure of the
 * CPU and wall time its writer calls took. */
static int orc_import(const Tools *tools, int t, const char *csv,
                      const char *path, const char *log, Measure *m)
{
    char schema[64];
    snprintf(schema, sizeof schema, "struct<c:%s>", types[t].type);
    char *argv[] = {(char *)tools->csv_import, schema, (char *)csv,
                    (char *)path, NULL};
    Measure whole = {0};
    if (run_child(argv, log, &whole))
        return 1;
    m->cpu = find_number(log, "Total writer CPU time: ");
    m->wall = find_number(log, "Total writer elasped time: ");
    if (m->wall < 0)
        m->wall = find_number(log, "Total writer elapsed time: ");
    m->rss_kb = whole.rss_kb;
    m->ok = m->cpu >= 0 && m->wall >= 0;
    return m->ok ? 0 : 1;
}

static bool sums_equal(const char *a, const char *b)
{
    Sums x = {0}, y = {0};
    return comb_scan(a, NULL, &x) == 0 && comb_scan(b, NULL, &y) == 0 &&
           x.rows == y.rows && x.nulls == y.nulls && x.sum == y.sum;
}

static int bench_type(int t, long rows, const char *dir, bool keep,
                      const Tools *tools, Cell cells[N_CODECS])
{
    char csv[4200], orc_zlib[4200], comb_f[4200], orc_f[4200], log[4200];
    CombErr err;
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, types[t].name);
    snprintf(orc_zlib, sizeof orc_zlib, "%s/%s.orccpp.ZLIB.orc", dir,
             types[t].name);
    snprintf(log, sizeof log, "%s/tool.log", dir);
    printf("\n%s (%s): %s\n", types[t].name, types[t].type, types[t].what);
    fflush(stdout);
    if (tools->found) {
        if (write_csv(t, rows, csv) ||
            orc_import(tools, t, csv, orc_zlib, log, &cells[1].orc_write)) {
            fprintf(stderr, "orc_bench: csv-import of %s failed (see %s)\n",
                    csv, log);
            return 1;
        }
        unlink(csv);
        cells[1].orc_size = file_size(orc_zlib);
    }
    for (int c = 0; c < N_CODECS; c++) {
        Cell *x = &cells[c];
        const char *codec = orc_compression_name(codecs[c]);
        snprintf(comb_f, sizeof comb_f, "%s/%s.comb.%s.orc", dir,
                 types[t].name, codec);
        snprintf(orc_f, sizeof orc_f, "%s/%s.orccpp.%s.orc", dir,
                 types[t].name, codec);
        if (comb_write(t, rows, codecs[c], comb_f, &x->comb_write) ||
            comb_scan(comb_f, &x->comb_comb, NULL))
            return 1;
        x->comb_size = file_size(comb_f);
        if (tools->found) {
            if (codecs[c] != ORC_COMP_ZLIB) {
                if (recompress(orc_zlib, orc_f, codecs[c], &err)) {
                    fprintf(stderr, "orc_bench: recompressing: %s\n",
                            err.msg);
                    return 1;
                }
                x->orc_size = file_size(orc_f);
            }
            if (comb_scan(orc_f, &x->comb_orc, NULL) ||
                orc_scan(tools, comb_f, log, rows, &x->orc_comb) ||
                orc_scan(tools, orc_f, log, rows, &x->orc_orc)) {
                fprintf(stderr, "orc_bench: scanning %s failed (see %s)\n",
                        orc_f, log);
                return 1;
            }
            x->same = sums_equal(comb_f, orc_f);
        }
        print_cell(t, c, rows, x, tools->found);
        fflush(stdout);
        if (!keep) {
            unlink(comb_f);
            if (codecs[c] != ORC_COMP_ZLIB)
                unlink(orc_f);
        }
    }
    if (!keep)
        unlink(orc_zlib);
    return 0;
}

/* orc_bench --scan FILE [TIMES]: comb's scan alone, for profilers. */
static int scan_only(int argc, char **argv)
{
    int times = argc > 3 ? atoi(argv[3]) : 1;
    Measure m = {0};
    for (int i = 0; i < times; i++)
        if (comb_scan(argv[2], &m, NULL))
            return 1;
    printf("%ld rows, last scan CPU %.3f s, wall %.3f s\n", m.rows, m.cpu,
           m.wall);
    return 0;
}

/* orc_bench --recompress SRC DST CODEC: SRC's streams in another codec. */
static int recompress_only(char **argv)
{
    CombErr err;
    for (int c = 0; c < N_CODECS; c++)
        if (strcmp(argv[4], orc_compression_name(codecs[c])) == 0) {
            if (recompress(argv[2], argv[3], codecs[c], &err)) {
                fprintf(stderr, "orc_bench: %s\n", err.msg);
                return 1;
            }
            return 0;
        }
    fprintf(stderr, "orc_bench: no codec %s\n", argv[4]);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--scan") == 0)
        return scan_only(argc, argv);
    if (argc > 4 && strcmp(argv[1], "--recompress") == 0)
        return recompress_only(argv);
    long rows = argc > 1 ? atol(argv[1]) : 10000000;
    char tmpl[] = "/tmp/comb-orc-bench.XXXXXX";
    const char *dir = argc > 2 ? argv[2] : mkdtemp(tmpl);
    static Cell cells[N_TYPES][N_CODECS];
    Tools tools;
    CombErr err;
    int rc = 0;
    if (!dir || rows <= 0) {
        fprintf(stderr, "usage: [ORC_TOOLS=DIR] orc_bench [ROWS] [DIR]\n");
        return 2;
    }
    if (fs_mkdirs(dir, &err)) {
        fprintf(stderr, "orc_bench: %s\n", err.msg);
        return 1;
    }
    find_tools(&tools);
    printf("orc_bench: %ld rows per file, one column, batches of %d rows, "
           "single-threaded\n", rows, BATCH);
    if (tools.found)
        printf("Apache ORC C++: %s, %s\n", tools.csv_import, tools.orc_scan);
    else
        printf("Apache ORC C++: not found (set ORC_TOOLS to the directory "
               "of csv-import and orc-scan)\n");
    printf("columns: CPU and wall seconds, rows/s and file MB/s (wall), peak "
           "RSS of the step; write: file size\n");
    for (int t = 0; t < N_TYPES && !rc; t++)
        rc = bench_type(t, rows, dir, argc > 2, &tools, cells[t]);
    if (!rc && tools.found)
        print_summary(cells);
    if (argc <= 2)
        fs_remove_tree(dir, &err);
    return rc;
}
