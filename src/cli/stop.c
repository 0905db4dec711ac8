/*
 * stop.c - ending the shell early (stop.h).
 */
#include "cli/stop.h"
#include "sql/session.h"

#include <signal.h>
#include <string.h>
#include <strings.h>

static volatile sig_atomic_t stop_signal; /* 0: none */
static volatile sig_atomic_t stop_quit;
static volatile sig_atomic_t busy;
static volatile sig_atomic_t cancelled;   /* this statement's SIGINT */

static void on_signal(int sig)
{
    if (busy && sig == SIGINT && !cancelled) {
        /* Ctrl-C: the statement stops and rolls back, the session stays */
        cancelled = 1;
        sql_cancel_request();
        return;
    }
    if (busy) {
        /* a statement runs: die as without a handler */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_signal = sig;
}

void cli_stop_install(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

void cli_stop_busy(bool b)
{
    cancelled = 0;
    busy = b;
}

bool cli_stop_requested(int *sig)
{
    if (sig)
        *sig = stop_signal;
    return stop_signal != 0 || stop_quit;
}

void cli_stop_quit(void)
{
    stop_quit = 1;
}

bool cli_stop_is_quit(const char *text, size_t len)
{
    size_t b = 0, e = len;
    while (b < e && memchr(" \t\r\n", text[b], 4))
        b++;
    while (e > b && memchr(" \t\r\n;", text[e - 1], 5))
        e--;
    return (e - b == 4 && strncasecmp(text + b, "quit", 4) == 0) ||
           (e - b == 4 && strncasecmp(text + b, "exit", 4) == 0);
}
