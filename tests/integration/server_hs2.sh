#!/usr/bin/env bash
# `comb serve` with a real HiveServer2 client (npm hive-driver, installed by
# tests/server/setup.sh): tests/server/client.js runs its checks against
# the server, tests/server/concurrent.js has 8 clients insert into one
# table at once; then SIGTERM stops it cleanly, with no sanitizer report;
# once in the ASan build, once in the ThreadSanitizer one.
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup

serve() {
    local bin=$1 what=$2
    rm -rf "$T/wh"
    server_start "$bin" "$T/wh"
    server_js client "$PORT"
    server_js concurrent "$PORT" 8 5
    server_stop "$what"
    echo "ok ($what)"
}
serve "$COMB" "ASan build"
# and the threads under ThreadSanitizer (make test builds build/tsan/comb)
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || { echo "FAIL: no $tsan (make MODE=tsan $tsan)"; exit 1; }
serve "$tsan" "ThreadSanitizer build"
