/*
 * compactor_cmd.h - `comb [OPTIONS] compactor [--once]`: the compaction
 * daemon of an embedded warehouse (compactor/compactor.h).
 */
#ifndef COMB_CLI_COMPACTOR_CMD_H
#define COMB_CLI_COMPACTOR_CMD_H

/* Run the daemon on the warehouse and metastore the global options named
 * (metastore NULL: <warehouse>/metastore.db), with the hive.compactor.*
 * settings of confs ("k=v", NULL entries skipped).  argv[0] is
 * "compactor".  SIGTERM and SIGINT stop it cleanly.  Returns the exit
 * status. */
int cli_compactor(const char *warehouse, const char *metastore,
                  char *const *confs, int n_confs, int argc, char **argv);

#endif
