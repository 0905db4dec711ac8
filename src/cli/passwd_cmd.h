/*
 * passwd_cmd.h - `comb passwd [--delete] FILE USER`: keeps the server's
 * password file (server/hs2_passwd.h).  The password comes from standard
 * input: its first line, or, at a terminal, asked twice without echo.
 */
#ifndef COMB_CLI_PASSWD_CMD_H
#define COMB_CLI_PASSWD_CMD_H

/* argv[0] is "passwd".  Returns the exit status: 0 done, 1 failure, 2 bad
 * arguments. */
int cli_passwd(int argc, char **argv);

#endif
