#!/usr/bin/env bash
# stream_kill.sh with the metastore on a PostgreSQL server: `comb stream`
# processes killed at random points leave whole committed txns only, the
# server drops their connections, and the time-out aborts their open txns.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_STREAM_KILL_ROUNDS=6 COMB_TEST_METASTORE=$(pg_newdb streamkill) bash "$(dirname "$0")/stream_kill.sh"
