/*
 * print.c - formatting result batches as a bordered table, tsv or csv.
 */
#include "cli/print.h"

#include <string.h>

#include "common/alloc.h"
#include "sql/func/value.h"

int cli_format_parse(const char *name, CliFormat *out)
{
    if (!strcmp(name, "table"))
        *out = CLI_FORMAT_TABLE;
    else if (!strcmp(name, "tsv") || !strcmp(name, "tsv2"))
        *out = CLI_FORMAT_TSV;
    else if (!strcmp(name, "csv") || !strcmp(name, "csv2"))
        *out = CLI_FORMAT_CSV;
    else
        return COMB_EINVALID;
    return COMB_OK;
}

void cli_printer_init(CliPrinter *p, CliFormat format, FILE *out)
{
    memset(p, 0, sizeof *p);
    p->format = format;
    p->out = out;
    comb_arena_init(&p->meta, 4096);
    comb_arena_init(&p->arena, 64 * 1024);
}

static void printer_reset(CliPrinter *p)
{
    comb_free(p->rows);
    p->rows = NULL;
    p->n_rows = p->cap = 0;
    p->n_cols = 0;
    comb_arena_reset(&p->meta);
    comb_arena_reset(&p->arena);
}

void cli_printer_free(CliPrinter *p)
{
    printer_reset(p);
    comb_buf_free(&p->text);
    comb_arena_free(&p->meta);
    comb_arena_free(&p->arena);
}

/* One value as text in the printer's arena, as Hive's CLI prints it. */
static int value_text(CliPrinter *p, const CombVector *v, int row, CliField *f)
{
    char *s;
    comb_buf_clear(&p->text);
    if (sql_format_value(v, row, &p->text))
        return COMB_ENOMEM;
    s = comb_arena_alloc(&p->arena, p->text.len + 1);
    if (!s)
        return COMB_ENOMEM;
    if (p->text.len)
        memcpy(s, p->text.data, p->text.len);
    *f = (CliField){s, p->text.len};
    return COMB_OK;
}

static bool csv_needs_quotes(CliField f)
{
    for (size_t i = 0; i < f.len; i++)
        if (f.s[i] == ',' || f.s[i] == '"' || f.s[i] == '\n' || f.s[i] == '\r')
            return true;
    return false;
}

static void write_csv_field(FILE *out, CliField f)
{
    if (!csv_needs_quotes(f)) {
        fwrite(f.s, 1, f.len, out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < f.len; i++) {
        if (f.s[i] == '"')
            fputc('"', out);
        fputc(f.s[i], out);
    }
    fputc('"', out);
}

static void write_delimited(CliPrinter *p, const CliField *fields)
{
    for (int j = 0; j < p->n_cols; j++) {
        if (j)
            fputc(p->format == CLI_FORMAT_CSV ? ',' : '\t', p->out);
        if (p->format == CLI_FORMAT_CSV)
            write_csv_field(p->out, fields[j]);
        else
            fwrite(fields[j].s, 1, fields[j].len, p->out);
    }
    fputc('\n', p->out);
}

static int printer_begin(void *ctx, int n_cols, const char *const *names,
                         const CombTypeKind *kinds, CombErr *err)
{
    CliPrinter *p = ctx;
    printer_reset(p);
    p->n_cols = n_cols;
    p->kinds = comb_arena_alloc(&p->meta, (size_t)(n_cols + 1) * sizeof *p->kinds);
    p->header = comb_arena_alloc(&p->meta, (size_t)(n_cols + 1) * sizeof *p->header);
    if (!p->kinds || !p->header)
        return comb_err_nomem(err);
    for (int j = 0; j < n_cols; j++) {
        char *name = comb_arena_strdup(&p->meta, names[j]);
        if (!name)
            return comb_err_nomem(err);
        p->kinds[j] = kinds[j];
        p->header[j] = (CliField){name, strlen(name)};
    }
    if (p->format != CLI_FORMAT_TABLE)
        write_delimited(p, p->header);
    return COMB_OK;
}

static int buffer_row(CliPrinter *p, CliField *fields, CombErr *err)
{
    if (p->n_rows == p->cap) {
        int64_t cap = p->cap ? p->cap * 2 : 256;
        CliField **rows = comb_realloc(p->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return comb_err_nomem(err);
        p->rows = rows;
        p->cap = cap;
    }
    p->rows[p->n_rows++] = fields;
    return COMB_OK;
}

static int printer_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    CliPrinter *p = ctx;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        CliField *fields = comb_arena_alloc(&p->arena, (size_t)(p->n_cols + 1) * sizeof *fields);
        if (!fields)
            return comb_err_nomem(err);
        for (int j = 0; j < p->n_cols; j++)
            if (value_text(p, &b->cols[j], row, &fields[j]))
                return comb_err_nomem(err);
        if (p->format == CLI_FORMAT_TABLE) {
            int rc = buffer_row(p, fields, err);
            if (rc)
                return rc;
        } else {
            write_delimited(p, fields);
        }
    }
    if (p->format != CLI_FORMAT_TABLE)
        comb_arena_reset(&p->arena); /* rows are out; keep memory flat */
    return COMB_OK;
}

/* Display width: UTF-8 characters, not bytes. */
static size_t text_width(CliField f)
{
    size_t n = 0;
    for (size_t i = 0; i < f.len; i++)
        n += ((unsigned char)f.s[i] & 0xC0) != 0x80;
    return n;
}

static void table_rule(CliPrinter *p, const size_t *width)
{
    fputc('+', p->out);
    for (int j = 0; j < p->n_cols; j++) {
        for (size_t k = 0; k < width[j] + 2; k++)
            fputc('-', p->out);
        fputc('+', p->out);
    }
    fputc('\n', p->out);
}

static void table_line(CliPrinter *p, const CliField *fields, const size_t *width)
{
    fputc('|', p->out);
    for (int j = 0; j < p->n_cols; j++) {
        fputc(' ', p->out);
        fwrite(fields[j].s, 1, fields[j].len, p->out);
        for (size_t k = text_width(fields[j]); k < width[j]; k++)
            fputc(' ', p->out);
        fputs(" |", p->out);
    }
    fputc('\n', p->out);
}

static int printer_end(void *ctx, CombErr *err)
{
    CliPrinter *p = ctx;
    size_t *width;
    if (p->format != CLI_FORMAT_TABLE)
        return COMB_OK;
    width = comb_arena_calloc(&p->arena, (size_t)(p->n_cols + 1) * sizeof *width);
    if (!width)
        return comb_err_nomem(err);
    for (int j = 0; j < p->n_cols; j++) {
        width[j] = text_width(p->header[j]);
        for (int64_t r = 0; r < p->n_rows; r++)
            if (text_width(p->rows[r][j]) > width[j])
                width[j] = text_width(p->rows[r][j]);
    }
    table_rule(p, width);
    table_line(p, p->header, width);
    table_rule(p, width);
    for (int64_t r = 0; r < p->n_rows; r++)
        table_line(p, p->rows[r], width);
    table_rule(p, width);
    printer_reset(p);
    return COMB_OK;
}

static int printer_info(void *ctx, const char *line, CombErr *err)
{
    CliPrinter *p = ctx;
    (void)err;
    fprintf(p->out, "%s\n", line ? line : "");
    return COMB_OK;
}

SqlSink cli_printer_sink(CliPrinter *p)
{
    SqlSink s = {p, printer_begin, printer_batch, printer_end, printer_info};
    return s;
}
