#!/usr/bin/env bash
# hms_soak.sh with the metastore on a PostgreSQL server: 32 clients of
# `comb metastore` opening, locking, heartbeating and committing at once,
# no write id lost or duplicated, comb's view the same.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb hms_soak) bash "$(dirname "$0")/hms_soak.sh"
