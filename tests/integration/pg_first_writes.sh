#!/usr/bin/env bash
# first_writes.sh with the metastore on a PostgreSQL server.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb firstwrites) bash "$(dirname "$0")/first_writes.sh"
