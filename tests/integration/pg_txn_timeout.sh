#!/usr/bin/env bash
# txn_timeout.sh with the metastore on a PostgreSQL server: a killed
# client's txn times out, its lock goes, its rows stay invisible.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb timeout) bash "$(dirname "$0")/txn_timeout.sh"
