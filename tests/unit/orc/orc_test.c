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

long orc_test_compare_dump(const char *orc, const char *expected,
                           const char *cut)
{
    char *dump = NULL;
    size_t dump_len = 0;
    CombErr err;
    FILE *mem = open_memstream(&dump, &dump_len);
    if (!mem)
        return -1;
    /* the dump notes unsupported columns on stderr: keep the log clean */
    fflush(stderr);
    int saved = dup(2), null_fd = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null_fd >= 0)
        dup2(null_fd, 2);
    int rc = orc_dump(orc, true, mem, &err);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null_fd >= 0)
        close(null_fd);
    fclose(mem);
    if (rc) {
        printf("    dump of %s failed: %s\n", orc, err.msg);
        free(dump);
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
