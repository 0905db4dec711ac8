/*
 * serve_cmd.h - `comb [OPTIONS] serve [--port N] [--bind ADDR]`: the
 * HiveServer2 protocol on the warehouse (server/hs2.h) until SIGTERM or
 * SIGINT.
 */
#ifndef COMB_CLI_SERVE_CMD_H
#define COMB_CLI_SERVE_CMD_H

/* Serve the warehouse and metastore the global options named; every
 * session starts with confs ("k=v", NULL entries skipped).  The port
 * defaults to hive.server2.thrift.port (10000), the address to
 * hive.server2.thrift.bind.host (127.0.0.1).  Prints "listening on
 * HOST:PORT" once bound.  argv[0] is "serve".  Returns the exit status:
 * 0 after a stop signal, 1 on failure, 2 for bad arguments. */
int cli_serve(const char *warehouse, const char *metastore,
              char *const *confs, int n_confs, int argc, char **argv);

#endif
