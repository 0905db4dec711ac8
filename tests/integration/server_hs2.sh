#!/usr/bin/env bash
# `comb serve` with a real HiveServer2 client (npm hive-driver, installed by
# tests/server/setup.sh): tests/server/client.js runs its checks against
# the server; then SIGTERM stops it cleanly, with no sanitizer report.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODULES=${COMB_SERVER_MODULES:-$(dirname "$COMB")/server}
command -v node > /dev/null || { echo "node is not installed"; exit 77; }
bash "$ROOT/tests/server/setup.sh" "$MODULES" >&2
[[ -d $MODULES/node_modules/hive-driver ]] ||
    { echo "hive-driver is not installed (tests/server/setup.sh)"; exit 77; }
T=$(mktemp -d)
PID=
trap '[[ -n $PID ]] && kill -9 $PID 2> /dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/err"; exit 1; }
# full stacks through GLib (built without frame pointers), so that the
# suppression of the generated code's leak can match
LSAN_OPTIONS=suppressions=$ROOT/tests/server/lsan.supp:print_suppressions=0 \
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 \
    "$COMB" --warehouse "$T/wh" serve --port 0 > "$T/out" 2> "$T/err" &
PID=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/out")
    [[ -n $port ]] && break
    kill -0 $PID 2> /dev/null || break
    sleep 0.1
done
[[ -n $port ]] || fail "the server did not start"
node "$MODULES/client.js" "$port" || fail "the client's checks"
kill -TERM $PID
wait $PID
rc=$?
PID=
((rc == 0)) || fail "the server exited with $rc after SIGTERM"
[[ -s $T/err ]] && fail "the server wrote to stderr"
echo ok
