/*
 * orc_test.c - helpers for the orc/ unit tests (see orc_test.h).
 */
#include "orc_test.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

const char *orc_test_path(int slot, const char *rel)
{
    static char buf[4][1024];
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", unit_testdata(), rel);
    return buf[slot];
}

/* The number after each `"<key>": ` keeps at most 6 fraction digits (cut,
 * not rounded) and no trailing zeros: how orc-contents prints Hive 0.11
 * decimals (its forced scale 6) against comb's scale 10. */
static void trim_decimal(char *line, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    for (char *p = strstr(line, pattern); p; p = strstr(p, pattern)) {
        p += strlen(pattern);
        char *dot = p;
        while (*dot == '-' || (*dot >= '0' && *dot <= '9'))
            dot++;
        if (*dot != '.')
            continue;
        char *end = dot + 1, *keep;
        while (*end >= '0' && *end <= '9')
            end++;
        keep = end - dot - 1 > 6 ? dot + 7 : end;
        while (keep > dot + 1 && keep[-1] == '0')
            keep--;
        if (keep == dot + 1)
            keep = dot;
        memmove(keep, end, strlen(end) + 1);
    }
}

static void cut_line(char *line, const char *cut)
{
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n')
        line[--n] = '\0';
    if (cut) {
        char *p = strstr(line, cut);
        if (p)
            *p = '\0';
    }
}

char *orc_test_dump_text(const char *path, OrcDumpMode mode, size_t *len,
                         CombErr *err)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (!mem) {
        comb_err(err, COMB_EIO, "open_memstream failed");
        return NULL;
    }
    int rc = orc_dump(path, mode, mem, err);
    fclose(mem);
    if (rc) {
        free(text);
        return NULL;
    }
    if (len)
        *len = n;
    return text;
}

bool orc_test_text_has(const char *text, const char *const *lines, size_t n)
{
    bool all = true;
    for (size_t i = 0; i < n; i++)
        if (!strstr(text, lines[i])) {
            printf("    missing: %s", lines[i]);
            all = false;
        }
    if (!all)
        printf("%s", text);
    return all;
}

int orc_test_batch_init(const CombType *root, CombBatch *b, int capacity)
{
    const CombType *one[1] = {root};
    if (root->kind != COMB_T_STRUCT)
        return comb_batch_init_types(b, 1, one, capacity);
    return comb_batch_init_types(b, root->n_children,
                                 (const CombType *const *)root->children,
                                 capacity);
}

CombVector *orc_test_col(const CombBatch *b, const CombType *root, int id)
{
    const CombType *t = root;
    CombVector *v = NULL;
    if (root->kind != COMB_T_STRUCT) {
        v = &b->cols[0];
    } else {
        for (int i = 0; i < root->n_children && !v; i++)
            if (id >= root->children[i]->id && id <= root->children[i]->max_id) {
                v = &b->cols[i];
                t = root->children[i];
            }
    }
    while (v && t->id != id) {
        CombVector *next = NULL;
        for (int i = 0; i < t->n_children && !next; i++)
            if (id >= t->children[i]->id && id <= t->children[i]->max_id) {
                next = &v->children[i];
                t = t->children[i];
            }
        v = next;
    }
    return v;
}

int orc_test_writer_open(const char *name, CombType *root,
                         const OrcWriterOptions *opt, int capacity,
                         char *path, OrcWriter **w, CombBatch *b,
                         CombErr *err)
{
    comb_type_assign_ids(root);
    snprintf(path, ORC_TEST_PATH_LEN, "%s/%s", unit_tmpdir(), name);
    int rc = orc_writer_open(path, root, opt, w, err);
    if (!rc && orc_test_batch_init(root, b, capacity)) {
        orc_writer_abort(*w);
        rc = comb_err_nomem(err);
    }
    return rc;
}

long orc_test_compare_dump(const char *orc, const char *expected,
                           const char *cut, const char *trim_key)
{
    size_t dump_len = 0;
    CombErr err;
    /* the dump notes unsupported columns on stderr: keep the log clean */
    fflush(stderr);
    int saved = dup(2), null_fd = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null_fd >= 0)
        dup2(null_fd, 2);
    char *dump = orc_test_dump_text(orc, ORC_DUMP_CONTENTS, &dump_len, &err);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null_fd >= 0)
        close(null_fd);
    if (!dump) {
        printf("    dump of %s failed: %s\n", orc, err.msg);
        return -1;
    }
    gzFile gz = gzopen(expected, "rb");
    if (!gz) {
        printf("    cannot open %s\n", expected);
        free(dump);
        return -1;
    }
    static char want[1 << 16];
    long lines = 0;
    char *pos = dump, *end = dump + dump_len;
    while (gzgets(gz, want, sizeof want)) {
        char *nl = memchr(pos, '\n', (size_t)(end - pos));
        if (!nl) {
            printf("    %s: dump ends at line %ld\n", orc, lines + 1);
            lines = -1;
            break;
        }
        *nl = '\0';
        cut_line(pos, cut);
        cut_line(want, cut);
        if (trim_key) {
            trim_decimal(pos, trim_key);
            trim_decimal(want, trim_key);
        }
        if (strcmp(pos, want) != 0) {
            printf("    %s line %ld:\n      got  %.300s\n      want %.300s\n",
                   orc, lines + 1, pos, want);
            lines = -1;
            break;
        }
        lines++;
        pos = nl + 1;
    }
    if (lines >= 0 && pos != end) {
        printf("    %s: dump has more lines than expected (%ld)\n", orc,
               lines);
        lines = -1;
    }
    gzclose(gz);
    free(dump);
    return lines;
}

int orc_test_reader_open(const char *path, int capacity, OrcReader **r,
                         CombBatch *b, CombErr *err)
{
    int rc = orc_reader_open(path, r, err);
    if (rc)
        return rc;
    if (orc_reader_batch_init(*r, b, capacity)) {
        orc_reader_close(*r);
        return COMB_ENOMEM;
    }
    return COMB_OK;
}

uint64_t orc_test_rand(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

long orc_test_file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

int orc_test_copy_prefix(const char *src, const char *dst, size_t len)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    int rc = (in && out) ? 0 : -1;
    char buf[8192];
    while (!rc && len > 0) {
        size_t want = len < sizeof buf ? len : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        if (got == 0 || fwrite(buf, 1, got, out) != got)
            rc = -1;
        len -= got;
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return rc;
}

int orc_test_write_column(const char *file, const char *name,
                          CombTypeKind kind, const OrcWriterOptions *opt,
                          int rows, OrcTestFill fill, void *ctx, char *path,
                          CombErr *err)
{
    CombArena a;
    CombType *root;
    OrcWriter *w;
    CombBatch b;
    int rc;
    comb_arena_init(&a, 1024);
    root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, name, comb_type_new(&a, kind));
    rc = orc_test_writer_open(file, root, opt, rows, path, &w, &b, err);
    if (!rc) {
        b.n_rows = rows;
        fill(ctx, root, &b);
        rc = orc_writer_write(w, &b, err);
        comb_batch_free(&b);
        rc = rc ? (orc_writer_abort(w), rc) : orc_writer_close(w, err);
    }
    comb_arena_free(&a);
    return rc;
}
