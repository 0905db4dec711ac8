/*
 * print.h - result printers for the shell: a bordered table (as beeline
 * prints), tsv and csv.  A printer is a SqlSink; NULL prints as NULL,
 * values as Hive's command line prints them (sql/func/value.h).
 */
#ifndef COMB_CLI_PRINT_H
#define COMB_CLI_PRINT_H

#include <stdio.h>

#include "common/arena.h"
#include "common/buf.h"
#include "sql/session.h"

typedef enum CliFormat {
    CLI_FORMAT_TABLE,
    CLI_FORMAT_TSV,
    CLI_FORMAT_CSV
} CliFormat;

/* One printed value: bytes with a length, so a NUL inside a string is
 * printed, not the end of it. */
typedef struct CliField {
    const char *s;
    size_t len;
} CliField;

typedef struct CliPrinter {
    CliFormat format;
    FILE *out;
    /* state of the current result */
    int n_cols;
    CombTypeKind *kinds;
    CliField *header;
    CliField **rows;    /* table format buffers rows to size the columns */
    int64_t n_rows;
    int64_t cap;
    CombArena meta;     /* header and kinds of the current result */
    CombArena arena;    /* row texts; tsv/csv reset it after each batch */
    CombBuf text;       /* one value being formatted */
} CliPrinter;

/* Parse "table", "tsv", "csv" (also beeline's "tsv2", "csv2"). */
int cli_format_parse(const char *name, CliFormat *out);

void cli_printer_init(CliPrinter *p, CliFormat format, FILE *out);
void cli_printer_free(CliPrinter *p);
/* A sink that prints through p. */
SqlSink cli_printer_sink(CliPrinter *p);

#endif
