#!/usr/bin/env bash
# stream_upsert.sh with the metastore on a PostgreSQL server.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb streamupsert) bash "$(dirname "$0")/stream_upsert.sh"
