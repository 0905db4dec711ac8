/*
 * stream_cmd.h - `comb [OPTIONS] stream --table [db.]t ...`: records from
 * standard input or a named pipe into a full-ACID table through a
 * streaming connection (stream/stream.h), parsed by stream/stream_record.h.
 * docs/stream.md is the user's page.
 */
#ifndef COMB_CLI_STREAM_CMD_H
#define COMB_CLI_STREAM_CMD_H

/* Ingest into the warehouse and metastore the global options named
 * (metastore NULL: <warehouse>/metastore.db), heartbeating by the
 * hive.txn.timeout of the warehouse's settings (comb-site.conf, then
 * confs: "k=v", NULL entries skipped).  argv[0] is "stream".
 * Returns the exit status: 0 when every record read was committed (or
 * skipped with --on-error skip), also after SIGTERM / SIGINT; 1 for a bad
 * record under --on-error fail or any other failure (the current txn
 * aborted, nothing of it visible); 2 for bad arguments. */
int cli_stream(const char *warehouse, const char *metastore,
               char *const *confs, int n_confs, int argc, char **argv);

#endif
