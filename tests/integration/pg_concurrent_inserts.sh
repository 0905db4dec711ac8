#!/usr/bin/env bash
# concurrent_inserts.sh with the metastore on a PostgreSQL server, as comb
# processes on several hosts sharing one file system use it: writers and
# readers in separate processes, snapshot isolation, every row once.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb inserts) bash "$(dirname "$0")/concurrent_inserts.sh"
