/*
 * orcfiledump.c - `comb orcfiledump [OPTIONS] PATH...`, Hive's
 * `hive --orcfiledump` (ORC Java's FileDump):
 *
 *   (none)            the metadata listing of each file
 *   -j, --json        the same as JSON (-p, --pretty: indented)
 *   -d, --data        the rows, one JSON object per line
 *   --contents        the rows as ORC C++'s orc-contents prints them
 *   -r, --rowindex=C  row group indexes and bloom filters of the column
 *                     ids C (comma-separated, or * for all)
 *   -t, --timezone    each stripe's writer time zone
 *   --skip-dump       only meaningful with --recover, as in Hive
 *   -h, --help
 *
 * A directory names every ORC file below it.  Like Hive, "Processing data
 * file F [length: N]" goes to standard error before each listing.  A
 * file that cannot be read is reported and the others are still dumped;
 * the exit status is then 1.  --recover (rewriting files that ACID
 * streaming left with a side file) is refused: comb writes no side files.
 */
#include "cli/orcfiledump.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "fs/fs.h"
#include "orc/orc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct DumpArgs {
    OrcDumpMode mode;
    OrcDumpOptions opt;
    int *cols;
    int n_paths;
    const char **paths;
    bool help;
} DumpArgs;

static const char usage_text[] =
    "usage: comb orcfiledump [-d|--contents] [-j [-p]] [-t] "
    "[--rowindex=C,...|*] [--skip-dump] PATH...\n"
    "  -d, --data       print the rows as JSON lines\n"
    "  --contents       print the rows as ORC C++'s orc-contents does\n"
    "  -j, --json       print the metadata as JSON (-p, --pretty: indented)\n"
    "  -r, --rowindex   row group indexes and bloom filters of these column "
    "ids\n"
    "  -t, --timezone   print each stripe's writer time zone\n"
    "A directory stands for every ORC file below it.\n";

/* "1,2,5" or "*". */
static int parse_columns(const char *v, DumpArgs *a)
{
    if (strcmp(v, "*") == 0) {
        a->opt.rowindex_all = true;
        return 0;
    }
    int n = 1;
    for (const char *p = v; *p; p++)
        n += *p == ',';
    a->cols = comb_malloc((size_t)n * sizeof *a->cols);
    if (!a->cols)
        return -1;
    a->opt.n_rowindex = 0;
    for (const char *p = v;;) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p || c < 0 || c > INT32_MAX || (*end && *end != ',')) {
            fprintf(stderr, "comb orcfiledump: --rowindex wants column ids "
                    "like 1,2 or *, not '%s'\n", v);
            return -1;
        }
        a->cols[a->opt.n_rowindex++] = (int)c;
        if (!*end)
            break;
        p = end + 1;
    }
    a->opt.rowindex = a->cols;
    return 0;
}

static int parse_args(int argc, char **argv, DumpArgs *a)
{
    a->paths = comb_calloc((size_t)argc, sizeof *a->paths);
    if (!a->paths)
        return -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-d") || !strcmp(s, "--data")) {
            a->mode = ORC_DUMP_ROWS;
        } else if (!strcmp(s, "--contents")) {
            a->mode = ORC_DUMP_CONTENTS;
        } else if (!strcmp(s, "-j") || !strcmp(s, "--json")) {
            a->opt.json = true;
        } else if (!strcmp(s, "-p") || !strcmp(s, "--pretty")) {
            a->opt.pretty = true;
        } else if (!strcmp(s, "-t") || !strcmp(s, "--timezone")) {
            a->opt.timezone = true;
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            a->help = true;
        } else if (!strcmp(s, "--skip-dump")) {
            /* Hive skips the dump only when it recovers files */
        } else if (!strcmp(s, "--recover") || !strcmp(s, "--backup-path")) {
            fprintf(stderr, "comb orcfiledump: %s is not supported: it "
                    "repairs files that ACID streaming left with a "
                    "_flush_length side file, which comb never writes\n", s);
            return -1;
        } else if (!strncmp(s, "--rowindex=", 11)) {
            if (parse_columns(s + 11, a))
                return -1;
        } else if (!strcmp(s, "-r") || !strcmp(s, "--rowindex")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "comb orcfiledump: %s needs column ids\n", s);
                return -1;
            }
            if (parse_columns(argv[++i], a))
                return -1;
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "comb orcfiledump: unknown option '%s'\n", s);
            return -1;
        } else {
            a->paths[a->n_paths++] = s;
        }
    }
    return 0;
}

/* Hive's getReader line, on standard error. */
static void say_processing(const char *path)
{
    CombErr err;
    uint64_t size = 0;
    if (fs_file_size(path, &size, &err) == 0)
        fprintf(stderr, "Processing data file %s [length: %" PRIu64 "]\n",
                path, size);
}

static int dump_all(const DumpArgs *a, char **files, int n)
{
    CombErr err;
    int status = 0;
    if (a->mode == ORC_DUMP_META && a->opt.json) {
        for (int i = 0; i < n; i++)
            say_processing(files[i]);
        if (orc_dump_json((const char *const *)files, n, &a->opt, stdout,
                          &err)) {
            fflush(stdout);
            fprintf(stderr, "Error: %s\n", err.msg);
            return 1;
        }
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int rc;
        if (a->mode == ORC_DUMP_META) {
            say_processing(files[i]);
            rc = orc_dump_metadata(files[i], &a->opt, stdout, &err);
        } else {
            rc = orc_dump(files[i], a->mode, stdout, &err);
        }
        if (rc) {
            fflush(stdout);
            fprintf(stderr, "Error: %s\n", err.msg);
            status = 1;
        }
    }
    return status;
}

int cli_orcfiledump(int argc, char **argv)
{
    DumpArgs a = {.mode = ORC_DUMP_META};
    CombArena arena;
    CombErr err;
    char **files = NULL;
    int n = 0, status = 2;
    comb_arena_init(&arena, 4096);
    if (parse_args(argc, argv, &a) == 0) {
        if (a.help) {
            fputs(usage_text, stdout);
            status = 0;
        } else if (a.n_paths == 0) {
            fputs("Error : ORC files are not specified\n", stderr);
            fputs(usage_text, stderr);
        } else if (orc_dump_expand_paths(a.paths, a.n_paths, &arena, &files,
                                         &n, &err)) {
            fprintf(stderr, "Error: %s\n", err.msg);
            status = 1;
        } else {
            status = dump_all(&a, files, n);
        }
    }
    comb_free(files);
    comb_free(a.cols);
    comb_free(a.paths);
    comb_arena_free(&arena);
    return status;
}
