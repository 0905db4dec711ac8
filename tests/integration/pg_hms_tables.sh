#!/usr/bin/env bash
# hms_tables.sh with the metastore on a PostgreSQL server: tables and
# column statistics through comb metastore on comb's shared backend.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb hms_tables) bash "$(dirname "$0")/hms_tables.sh"
