/*
 * passwd_cmd.c - `comb passwd`: passwd_cmd.h.
 */
#include "cli/passwd_cmd.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "server/hs2_passwd.h"

enum { PASSWORD_MAX = 1024 };

/* One line of standard input without its line end; false at its end or
 * when the line is too long. */
static bool read_line(char *buf, size_t n)
{
    size_t len;
    if (!fgets(buf, (int)n, stdin))
        return false;
    len = strlen(buf);
    if (len > 0 && buf[len - 1] == '\n')
        buf[--len] = '\0';
    else if (!feof(stdin))
        return false;
    if (len > 0 && buf[len - 1] == '\r')
        buf[--len] = '\0';
    return true;
}

static bool ask(const char *prompt, char *buf, size_t n)
{
    struct termios was, quiet;
    bool ok;
    fputs(prompt, stderr);
    fflush(stderr);
    tcgetattr(STDIN_FILENO, &was);
    quiet = was;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    ok = read_line(buf, n);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &was);
    fputc('\n', stderr);
    return ok;
}

static bool get_password(char *pw, size_t n)
{
    char again[PASSWORD_MAX];
    if (!isatty(STDIN_FILENO)) {
        if (read_line(pw, n))
            return true;
        fputs("comb passwd: no password on standard input (or a line over "
              "1023 bytes)\n", stderr);
        return false;
    }
    if (!ask("New password: ", pw, n) || !ask("Again: ", again, sizeof again))
        return false;
    if (strcmp(pw, again) != 0) {
        fputs("comb passwd: the passwords differ\n", stderr);
        return false;
    }
    return true;
}

int cli_passwd(int argc, char **argv)
{
    char pw[PASSWORD_MAX];
    bool delete = argc == 4 && strcmp(argv[1], "--delete") == 0;
    const char *file = argv[delete ? 2 : 1], *user = argv[delete ? 3 : 2];
    CombErr err;
    int rc;
    if (!(delete || argc == 3) || file[0] == '-') {
        fputs("usage: comb passwd [--delete] FILE USER\n", stderr);
        return 2;
    }
    if (!hs2_passwd_name_ok(user)) {
        fprintf(stderr, "comb passwd: bad user name '%s': 1 to 128 letters, "
                "digits or ._-@\n", user);
        return 1;
    }
    if (!delete && !get_password(pw, sizeof pw))
        return 1;
    rc = hs2_passwd_set(file, user, delete ? NULL : pw, &err);
    memset(pw, 0, sizeof pw);
    if (rc) {
        fprintf(stderr, "comb passwd: %s\n", err.msg);
        return 1;
    }
    return 0;
}
