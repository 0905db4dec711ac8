#!/usr/bin/env bash
# bank.sh with the metastore on a PostgreSQL server: explicit transfers
# from 8 processes, retried on conflict or deadlock; the total and every
# balance come out exact.
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb bank) bash "$(dirname "$0")/bank.sh"
