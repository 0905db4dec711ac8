#!/usr/bin/env bash
# txn_deadlock.sh and txn_visible_at_once.sh with the metastore on a
# PostgreSQL server.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb deadlock) bash "$(dirname "$0")/txn_deadlock.sh"
COMB_TEST_METASTORE=$(pg_newdb visible) bash "$(dirname "$0")/txn_visible_at_once.sh"
