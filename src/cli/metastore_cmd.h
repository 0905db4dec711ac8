/*
 * metastore_cmd.h - `comb metastore`: the Hive Metastore Thrift service
 * (src/hms/) on the warehouse's metastore, until SIGTERM or SIGINT.
 */
#ifndef COMB_CLI_METASTORE_CMD_H
#define COMB_CLI_METASTORE_CMD_H

/* Serve the metastore the global options named (confs "k=v" are the
 * service's settings, NULL entries skipped).  The port defaults to
 * hive.metastore.port (9083), the address to 127.0.0.1.  Prints
 * "listening on HOST:PORT" once bound.  argv[0] is "metastore".  Returns
 * the exit status: 0 after a stop signal, 1 on failure, 2 for bad
 * arguments. */
int cli_metastore(const char *warehouse, const char *metastore,
                  char *const *confs, int n_confs, int argc, char **argv);

#endif
