#!/usr/bin/env bash
# kill_random.sh with the metastore on a PostgreSQL server: a writer killed
# at any moment leaves whole statements only; the server drops its
# connection and rolls back what it had not committed.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb killed) bash "$(dirname "$0")/kill_random.sh"
