#!/usr/bin/env bash
# hms_write.sh with the metastore on a PostgreSQL server: the service and
# comb's SQL share it.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb hmswrite) bash "$(dirname "$0")/hms_write.sh"
