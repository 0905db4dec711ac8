/*
 * stop.h - how the shell ends early: SIGINT, SIGTERM and SIGHUP, or Hive
 * CLI's `quit;` / `exit;`.
 *
 * A signal that arrives while comb waits for input (or between two
 * statements) asks for a stop: the read loop ends, the session closes and
 * rolls back an open explicit transaction, and comb exits with status
 * 128 + the signal's number.  A SIGINT (Ctrl-C) while a statement runs
 * cancels that statement (sql_cancel_request): it fails with "Query was
 * cancelled" and rolls back, and the session goes on.  A second SIGINT
 * during the same statement, or SIGTERM / SIGHUP, ends the process at
 * once, as it would without a handler: that statement (and an open
 * explicit transaction) never commits, so nothing of it becomes visible.
 */
#ifndef COMB_CLI_STOP_H
#define COMB_CLI_STOP_H

#include <stdbool.h>
#include <stddef.h>

/* Install the handlers (no SA_RESTART: a blocked read returns EINTR). */
void cli_stop_install(void);
/* A statement starts (true) or ended (false). */
void cli_stop_busy(bool busy);
/* Was a stop asked for?  *sig (may be NULL): the signal, 0 for quit. */
bool cli_stop_requested(int *sig);
/* Ask for a stop without a signal (quit; / exit;). */
void cli_stop_quit(void);
/* Is text[0..len) Hive CLI's quit or exit (any case, ';' and blanks)? */
bool cli_stop_is_quit(const char *text, size_t len);

#endif
