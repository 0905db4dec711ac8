#!/usr/bin/env bash
# The explicit-transaction tests with the metastore on a PostgreSQL
# server: a deadlock between two transactions, a write conflict at
# COMMIT, an idle transaction kept alive by its heartbeat, and visibility
# all at once (SIGKILL inside: nothing).
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
for t in txn_deadlock txn_conflict txn_visible_at_once; do
    COMB_TEST_METASTORE=$(pg_newdb "$t") bash "$(dirname "$0")/$t.sh"
done
