#!/usr/bin/env bash
# `comb serve` with a real HiveServer2 client (npm hive-driver, installed by
# tests/server/setup.sh): tests/server/client.js runs its checks against
# the server, tests/server/concurrent.js has 8 clients insert into one
# table at once; then SIGTERM stops it cleanly, with no sanitizer report;
# once in the ASan build, once in the ThreadSanitizer one.
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
fail() { echo "FAIL ($1): ${*:2}"; cat "$T/err"; exit 1; }

# serve BINARY WHAT: start it on a fresh warehouse, run the clients, stop
# it with SIGTERM; a sanitizer report or any other line on stderr fails
serve() {
    local bin=$1 what=$2 port= rc
    rm -rf "$T/wh" "$T/out" "$T/err"
    # full stacks through GLib (built without frame pointers), so that the
    # suppression of libthrift's own leak (tests/server/lsan.supp) can
    # match; GLib's slice allocator hands blocks between threads in ways
    # ThreadSanitizer cannot see, plain malloc does not
    G_SLICE=always-malloc \
    LSAN_OPTIONS=suppressions=$ROOT/tests/server/lsan.supp:print_suppressions=0 \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 \
        "$bin" --warehouse "$T/wh" serve --port 0 > "$T/out" 2> "$T/err" &
    PID=$!
    for _ in $(seq 1 200); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/out")
        [[ -n $port ]] && break
        kill -0 $PID 2> /dev/null || break
        sleep 0.1
    done
    [[ -n $port ]] || fail "$what" "the server did not start"
    node "$MODULES/client.js" "$port" || fail "$what" "the client's checks"
    node "$MODULES/concurrent.js" "$port" 8 5 || fail "$what" "clients at once"
    kill -TERM $PID
    wait $PID
    rc=$?
    PID=
    ((rc == 0)) || fail "$what" "the server exited with $rc after SIGTERM"
    [[ -s $T/err ]] && fail "$what" "the server wrote to stderr"
    echo "ok ($what)"
}
serve "$COMB" "ASan build"
# and the threads under ThreadSanitizer (make test builds build/tsan/comb)
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || { echo "FAIL: no $tsan (make MODE=tsan $tsan)"; exit 1; }
serve "$tsan" "ThreadSanitizer build"
