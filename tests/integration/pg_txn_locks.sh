#!/usr/bin/env bash
# txn_locks.sh with the metastore on a PostgreSQL server: readers never
# wait for writers, writers of one partition queue up (or, with
# hive.txn.xlock.write=false, the second committer loses), lock waits end
# with Hive's error, SHOW LOCKS shows holder and waiter.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb locks) bash "$(dirname "$0")/txn_locks.sh"
