/*
 * shell.h - reading statements from standard input: an interactive shell
 * with line editing and history (libedit) on a terminal, plain line
 * reading otherwise.  Each statement runs as soon as its ';' arrives.
 */
#ifndef COMB_CLI_SHELL_H
#define COMB_CLI_SHELL_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/print.h"
#include "sql/session.h"

struct Hs2Client;

typedef struct CliContext {
    SqlSession *session;   /* the embedded engine; NULL with remote */
    struct Hs2Client *remote; /* comb -u: a server's session */
    CliPrinter *printer;
    bool verbose;          /* echo each statement before running it */
} CliContext;

/* Run the complete statements of buf; returns bytes consumed (main.c). */
size_t cli_run_buffer(CliContext *cx, const char *buf, size_t len,
                      bool stop_on_error, bool *failed);

/* Run text as one statement: echo, result or error (main.c). */
void cli_run_statement(CliContext *cx, const char *text, size_t len,
                       bool *failed);

/* Read and run until end of input; 0, or 1 if any statement failed. */
int cli_shell_run(CliContext *cx, bool interactive);

#endif
