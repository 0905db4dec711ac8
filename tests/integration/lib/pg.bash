# Helpers of the integration tests with a PostgreSQL metastore (sourced,
# not run: tests/run.sh runs tests/integration/*.sh only).
#   pg_start        start a throw-away server (tests/lib/pgserver.sh) that
#                   the EXIT trap removes; exit 77 (skipped) when PostgreSQL
#                   is not installed.  Sets PG_DIR.
#   pg_url [DB]     the URL of a database on it (default "postgres")
#   pg_newdb NAME   create a database on it and print its URL
PG_SERVER="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/lib/pgserver.sh"

pg_start() {
    local out rc
    # root runs the server as "nobody", who must reach the directory
    PG_DIR=$(mktemp -d /tmp/comb-pg-XXXXXX)
    trap 'bash "$PG_SERVER" stop "$PG_DIR"; pg_cleanup' EXIT
    out=$(bash "$PG_SERVER" start "$PG_DIR" 2>&1); rc=$?
    if ((rc == 77)); then echo "$out"; exit 77; fi
    if ((rc != 0)); then echo "$out"; echo "no PostgreSQL server"; exit 1; fi
}

# What the test itself wants removed at exit (redefine it).
pg_cleanup() { :; }

pg_url() { bash "$PG_SERVER" url "$PG_DIR" "${1:-postgres}"; }

pg_newdb() {
    bash "$PG_SERVER" createdb "$PG_DIR" "$1" > /dev/null && pg_url "$1"
}
