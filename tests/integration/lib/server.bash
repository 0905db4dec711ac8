# Sourced by the server tests: `comb serve` started on a warehouse of its
# own and stopped with SIGTERM, with the HiveServer2 client (npm
# hive-driver, tests/server/setup.sh) beside it.
#   server_setup          installs the client (exit 77, skipped, without
#                         node or the package); sets $MODULES, $T and an
#                         EXIT trap that kills a server left running
#   server_start BIN WH [OPTION...]  `BIN --warehouse WH OPTION... serve`
#                         on any free port: sets $PORT and $PID
#   server_stop WHAT      SIGTERM; fails the test unless it exits 0 with
#                         nothing on stderr (no sanitizer report)
#   server_js NAME ARG... node tests/server/NAME.js ARG...: fails unless it
#                         exits 0 having said that every check ran
#   server_mode BIN WHAT MODE [OPTION...]  a server on a new warehouse $T/wh
#                         with the options, `lifecycle.js PORT MODE`, the stop
#   server_cli SQL        the CLI on $T/wh, tab-separated
#   server_none_open WHAT fails when $T/wh has an open transaction
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
PID=

server_setup() {
    MODULES=${COMB_SERVER_MODULES:-$(dirname "$COMB")/server}
    command -v node > /dev/null || { echo "node is not installed"; exit 77; }
    bash "$ROOT/tests/server/setup.sh" "$MODULES" >&2
    [[ -d $MODULES/node_modules/hive-driver ]] ||
        { echo "hive-driver is not installed (tests/server/setup.sh)"; exit 77; }
    T=$(mktemp -d)
    trap '[[ -n $PID ]] && kill -9 $PID 2> /dev/null; rm -rf "$T"' EXIT
}

fail() { echo "FAIL ($1): ${*:2}"; [[ -f $T/err ]] && cat "$T/err"; exit 1; }

server_start() {
    local bin=$1 wh=$2
    shift 2
    PORT=
    rm -f "$T/out" "$T/err"
    # full stacks through GLib (built without frame pointers), so that the
    # suppression of libthrift's own leak (tests/server/lsan.supp) can
    # match; GLib's slice allocator hands blocks between threads in ways
    # ThreadSanitizer cannot see, plain malloc does not
    G_SLICE=always-malloc \
    LSAN_OPTIONS=suppressions=$ROOT/tests/server/lsan.supp:print_suppressions=0 \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 \
        "$bin" --warehouse "$wh" "$@" serve --port 0 > "$T/out" 2> "$T/err" &
    PID=$!
    for _ in $(seq 1 200); do
        PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/out")
        [[ -n $PORT ]] && break
        kill -0 $PID 2> /dev/null || break
        sleep 0.1
    done
    [[ -n $PORT ]] || fail "$bin" "the server did not start"
}

server_js() {
    local name=$1 out rc
    shift
    out=$(node "$MODULES/$name.js" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v '^# '
    ((rc == 0)) || fail "$name.js $*" "exit status $rc"
    [[ $(printf '%s\n' "$out" | tail -1) == "# $name: every check ran" ]] ||
        fail "$name.js $*" "its checks did not all run"
}

server_stop() {
    local rc
    kill -TERM $PID
    wait $PID
    rc=$?
    PID=
    ((rc == 0)) || fail "$1" "the server exited with $rc after SIGTERM"
    [[ -s $T/err ]] && fail "$1" "the server wrote to stderr"
    return 0
}

server_mode() {
    local bin=$1 what=$2 mode=$3
    shift 3
    rm -rf "$T/wh"
    server_start "$bin" "$T/wh" "$@"
    server_js lifecycle "$PORT" "$mode"
    server_stop "$what"
}

server_cli() { "$COMB" --warehouse "$T/wh" --outputformat tsv -e "$1"; }

server_none_open() {
    [[ -z $(server_cli "SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN"') ]] ||
        fail "$1" "a transaction is open: $(server_cli 'SHOW TRANSACTIONS')"
}
