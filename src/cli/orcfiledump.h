/*
 * orcfiledump.h - `comb orcfiledump`, as `hive --orcfiledump`.
 */
#ifndef COMB_CLI_ORCFILEDUMP_H
#define COMB_CLI_ORCFILEDUMP_H

/* argv[0] is "orcfiledump"; returns the exit status. */
int cli_orcfiledump(int argc, char **argv);

#endif
