#!/usr/bin/env bash
# hms_hive.sh with the metastore on a PostgreSQL server: the service and
# comb's CLI share one PostgreSQL metastore (Hive 4's answers of the lock,
# txn and table calls).
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb hmshive) bash "$(dirname "$0")/hms_hive.sh"
