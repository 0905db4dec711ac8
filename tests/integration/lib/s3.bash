# Sourced by the object-store tests: an S3 server of their own
# (tests/s3/server.mjs: s3rver behind a proxy that checks signatures with
# aws4, counts requests and injects faults), on loopback ports and a
# temporary directory, stopped when the test ends.
#   s3_start BUCKET...   start it (exit 77, skipped, without node or the
#                        packages); exports COMB_TEST_S3_ENDPOINT and the
#                        AWS_* credentials
#   s3_start_test BUCKET...  s3_start, a temporary directory $T, and an
#                        EXIT trap that stops the server (s3_stop: a bad
#                        signature fails the test) and removes $T
#   s3_comb_args         --hiveconf options that point comb at it
#   s3_stats [KEY]       the proxy's counts (JSON), or one of them
#                        (requests, bytes_in, bytes_out, kinds.get_range...)
#   s3_reset_stats       start counting afresh
#   s3_faults SPEC [RE]  503=P,slow=P,drop=P,put503=P,seed=N, or off; with
#                        RE only on the requests whose "METHOD URL" matches
#   s3_stop              stop it; fails the test if any request's
#                        signature did not verify
S3_MODULES=${COMB_S3_MODULES:-$(dirname "$COMB")/s3}
S3_PID=

s3_start() {
    command -v node > /dev/null || { echo "node is not installed"; exit 77; }
    bash "$(dirname "${BASH_SOURCE[0]}")/../../s3/setup.sh" "$S3_MODULES" >&2
    [[ -d $S3_MODULES/node_modules/s3rver && -d $S3_MODULES/node_modules/aws4 ]] ||
        { echo "s3rver and aws4 are not installed (tests/s3/setup.sh)"; exit 77; }
    S3_LOG=$(mktemp)
    node --openssl-legacy-provider "$S3_MODULES/server.mjs" "$@" > "$S3_LOG" 2>&1 &
    S3_PID=$!
    local port=
    for _ in $(seq 1 200); do
        port=$(awk '/^ready /{print $2; exit}' "$S3_LOG")
        [[ -n $port ]] && break
        kill -0 "$S3_PID" 2> /dev/null || break
        sleep 0.1
    done
    [[ -n $port ]] || { echo "the S3 server did not start:"; cat "$S3_LOG"; exit 1; }
    export COMB_TEST_S3_ENDPOINT=http://127.0.0.1:$port
    export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
}

s3_start_test() {
    s3_start "$@"
    T=$(mktemp -d)
    trap s3_test_exit EXIT
}

s3_test_exit() {
    local rc=$?
    s3_stop || rc=1
    rm -rf "$T"
    exit $rc
}

s3_comb_args() {
    printf '%s\n' --hiveconf "fs.s3a.endpoint=$COMB_TEST_S3_ENDPOINT" \
        --hiveconf fs.s3a.path.style.access=true
}

s3_stats() {
    local json
    json=$(curl -sf "$COMB_TEST_S3_ENDPOINT/__harness/stats") || return 1
    if (($# == 0)); then printf '%s\n' "$json"; return; fi
    node -e 'let v = JSON.parse(process.argv[1]);
             for (const k of process.argv[2].split(".")) v = v == null ? v : v[k];
             console.log(v == null ? 0 : typeof v == "object" ? JSON.stringify(v) : v)' \
        "$json" "$1"
}

s3_reset_stats() { curl -sf -X POST "$COMB_TEST_S3_ENDPOINT/__harness/reset" > /dev/null; }

s3_faults() {
    curl -sf -X POST -G "$COMB_TEST_S3_ENDPOINT/__harness/faults" --data-urlencode "spec=$1" \
        ${2:+--data-urlencode "only=$2"} > /dev/null ||
        { echo "the S3 harness refused faults '$1'"; return 1; }
}

s3_stop() {
    local bad=0
    [[ -n $S3_PID ]] || return 0
    bad=$(s3_stats mismatches | node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
        for (const x of m) console.error("signature mismatch: " + x); console.log(m.length)')
    kill "$S3_PID" 2> /dev/null
    wait "$S3_PID" 2> /dev/null
    S3_PID=
    rm -f "$S3_LOG"
    if [[ ${bad:-0} != 0 ]]; then
        echo "FAIL: $bad requests were signed wrongly"
        return 1
    fi
}
