#!/usr/bin/env bash
# hms_service.sh with the metastore on a PostgreSQL server: the service,
# comb's CLI and the ThreadSanitizer build share one PostgreSQL metastore
# (listing, ACID reads, a service lock holding a comb UPDATE off, Hive's
# exceptions).
set -eu
. "$(dirname "$0")/lib/pg.bash"
pg_start
COMB_TEST_METASTORE=$(pg_newdb hms) bash "$(dirname "$0")/hms_service.sh"
