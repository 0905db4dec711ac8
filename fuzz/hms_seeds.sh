#!/usr/bin/env bash
# Makes the seeds of fuzz/corpus/hms_decode: tests/server/hms.js (the
# client generated from Hive's own interface) replays its listing, reads,
# aborted write and errors against `comb metastore` on a warehouse like
# tests/integration/hms_service.sh's, through a proxy (fuzz/hms_seeds.js)
# that keeps each connection's client bytes as a seed.
#   COMB=build/test/comb fuzz/hms_seeds.sh [DIR]   (default fuzz/corpus/hms_decode)
set -u
. "$(dirname "$0")/../tests/integration/lib/server.bash"
. "$(dirname "$0")/../tests/integration/lib/hms.bash"
COMB=${COMB:-$ROOT/build/test/comb}
OUT=$(mkdir -p "${1:-$ROOT/fuzz/corpus/hms_decode}" && cd "${1:-$ROOT/fuzz/corpus/hms_decode}" && pwd)
hms_client_setup

hms_catalog_setup
"$COMB" --warehouse "$T/wh" metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"
proxy=$(free_port)

capture() {  # PREFIX MODE [ARG]: the mode's connections as PREFIX_N
    node "$ROOT/fuzz/hms_seeds.js" "$proxy" "$PORT" "$OUT" "$1" > "$T/proxy" 2>&1 &
    JS=$!
    for _ in $(seq 1 100); do grep -q listening "$T/proxy" && break; sleep 0.1; done
    node "$MODULES/hms.js" "$T/gen" "$proxy" "${@:2}" > /dev/null || fail "$2" "hms.js $2 failed"
    sleep 0.3            # the proxy sees the last hang-up
    kill $JS; wait $JS 2> /dev/null; JS=
}
capture catalog catalog
capture read read "default.t:3:9223372036854775807::"
capture abort_write abort_write
capture errors errors
server_stop metastore
ls "$OUT"
