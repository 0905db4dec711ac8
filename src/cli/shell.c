/*
 * shell.c - the read loop over standard input.
 */
#include "cli/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "cli/stop.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "sql/parse/ast.h"

/* Drop the consumed prefix of b. */
static void buf_consume(CombBuf *b, size_t used)
{
    memmove(b->data, b->data + used, b->len - used);
    b->len -= used;
}

/* Add one input line (len bytes, NULs kept: they are syntax errors, not
 * line ends) and run the statements it completes. */
static int feed_line(CliContext *cx, CombBuf *b, const char *line, size_t len,
                     bool *failed)
{
    size_t used;
    if (comb_buf_append(b, line, len) || comb_buf_append_byte(b, '\n'))
        return -1;
    used = cli_run_buffer(cx, (const char *)b->data, b->len, false, failed);
    buf_consume(b, used);
    return 0;
}

static char *history_path(void)
{
    const char *home = getenv("HOME");
    char *p;
    if (!home)
        return NULL;
    p = comb_malloc(strlen(home) + 32);
    if (p)
        sprintf(p, "%s/.comb_history", home);
    return p;
}

static int run_interactive(CliContext *cx, CombBuf *b, bool *failed)
{
    char *hist = history_path();
    char *line;
    if (hist)
        read_history(hist);
    while (!cli_stop_requested(NULL) &&
           (line = readline(sql_is_blank((const char *)b->data, b->len)
                                ? "comb> " : "    > ")) != NULL) {
        if (*line)
            add_history(line);
        /* readline's lines come from libedit's malloc */
        int stop = feed_line(cx, b, line, strlen(line), failed);
        free(line);
        if (stop)
            break;
    }
    if (hist) {
        write_history(hist);
        comb_free(hist);
    }
    putchar('\n');
    return 0;
}

static int run_piped(CliContext *cx, CombBuf *b, bool *failed)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool first = true;
    while (!cli_stop_requested(NULL) &&
           (n = getline(&line, &cap, stdin)) >= 0) {
        const char *text = line;
        if (n > 0 && line[n - 1] == '\n')
            n--;
        /* a UTF-8 byte-order mark before the first statement is not SQL */
        if (first && n >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            n -= 3;
        }
        first = false;
        if (feed_line(cx, b, text, (size_t)n, failed))
            break;
    }
    free(line);
    return 0;
}

int cli_shell_run(CliContext *cx, bool interactive)
{
    CombBuf b = COMB_BUF_INIT;
    bool failed = false;
    if (comb_buf_reserve(&b, 1))
        return 1;
    b.data[0] = '\0';
    if (interactive)
        run_interactive(cx, &b, &failed);
    else
        run_piped(cx, &b, &failed);
    /* a final statement without ';' still runs, as in the Hive CLI
     * (not after a signal cut the input short: cli_run_statement) */
    cli_run_statement(cx, (const char *)b.data, b.len, &failed);
    comb_buf_free(&b);
    return failed ? 1 : 0;
}
