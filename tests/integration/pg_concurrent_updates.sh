#!/usr/bin/env bash
# concurrent_updates.sh with the metastore on a PostgreSQL server: first
# committer wins across processes, losers fail with Hive's error 10263 and
# leave nothing behind.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb updates) bash "$(dirname "$0")/concurrent_updates.sh"
