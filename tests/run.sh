#!/usr/bin/env bash
# Run every test against a build directory (default build/test) and end
# with the line "N passed, N failed".
#   unit tests:        $BUILD/tests/unit_<layer>   (one line per test)
#   threaded tests:    build/tsan/tests/threads_*  (ThreadSanitizer)
#   SQL golden tests:  tests/sql/**/*.sql vs .out  (tests/sqltest.sh)
#   Hive's .q tests:   tests/qtest/passing.txt     (run by $BUILD/tests/qtest)
#   differential test: $BUILD/tests/sqldiff (random queries, comb vs SQLite)
#   fuzz corpora:      fuzz/corpus/<target>/*      (replayed, no libFuzzer)
#   integration tests: tests/integration/*.sh      (crash, concurrency, ...;
#                      exit status 77 reports the test skipped)
# A sanitizer report makes the binary exit non-zero, which fails the test.
# Tests run COMB_TEST_JOBS at a time (default: the number of cores), each
# into its own output file; results print in this file's order.  The tests
# named in SERIAL below run after the others, one at a time: they measure
# time-outs or kill processes at moments, which a loaded machine shifts.
set -u
shopt -s extglob
cd "$(dirname "$0")/.."
BUILD=${1:-build/test}
export COMB=$PWD/$BUILD/comb
export COMB_TESTDATA=${COMB_TESTDATA:-$PWD/../shared/testdata}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0
failed=0
skipped=0
failures=()
JOBS=${COMB_TEST_JOBS:-$(nproc)}
SERIAL=" integration/pg_txn_locks.sh integration/txn_housekeeping.sh
 integration/txn_timeout.sh integration/pg_txn_timeout.sh integration/hms_locks.sh "
# started first, so that no long test is left running alone at the end
LONG="@(integration/pg_sql_golden.sh*|unit_metastore*|unit_sql*|unit_orc*|sqldiff*)"
OUT=$(mktemp -d "${TMPDIR:-/tmp}/comb-run.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# wall seconds since $1 (date +%s%N), to one decimal
since() {
    local ns=$(( $(date +%s%N) - $1 ))
    printf '%d.%d' $((ns / 1000000000)) $((ns / 100000000 % 10))
}

# The job list: kind (unit: a binary printing "ok - " lines; one: pass,
# fail or exit 77 for skipped), name and command, in report order.
kinds=() names=() serial=() pending=()
add() {  # kind name command...
    local i=${#kinds[@]}
    kinds+=("$1"); names+=("$2")
    if [[ $SERIAL == *" $2 "* ]]; then
        serial+=("$i")
    elif [[ $2 == $LONG ]]; then
        pending=("$i" "${pending[@]}")
    else
        pending+=("$i")
    fi
    shift 2
    printf '%q ' "$@" > "$OUT/$i.cmd"
}
skip_now() {  # name reason: reported skipped without running
    local i=${#kinds[@]}
    kinds+=(skip); names+=("$1"); echo "$2" > "$OUT/$i.out"; echo 77 > "$OUT/$i.rc"
}

start() {  # job index: runs in the background into $OUT/<i>.*
    local i=$1
    (
        t0=$(date +%s%N)
        eval "$(cat "$OUT/$i.cmd")" > "$OUT/$i.out" 2>&1
        rc=$?
        since "$t0" > "$OUT/$i.time"
        echo "$rc" > "$OUT/$i.rc"
    ) &
}

report_unit() {  # index
    local i=$1 bin=${names[$1]} out rc p f
    out=$(cat "$OUT/$i.out"); rc=$(cat "$OUT/$i.rc")
    echo "[$bin] took $(cat "$OUT/$i.time") s"
    echo "$out" | grep -E '^(ok|not ok|skip) - ' | sed "s|^|[$bin] |"
    echo "$out" | grep -vE '^(ok|not ok|skip) - |^[0-9]+ passed, [0-9]+ failed' | sed 's/^/    /'
    p=$(echo "$out" | grep -cE '^ok - ')
    f=$(echo "$out" | grep -cE '^not ok - ')
    skipped=$((skipped + $(echo "$out" | grep -cE '^skip - ')))
    if ((rc != 0 && f == 0)); then
        f=1; failures+=("$bin exited $rc")
    fi
    while read -r name; do failures+=("$bin: $name"); done \
        < <(echo "$out" | sed -n 's/^not ok - //p')
    passed=$((passed + p)); failed=$((failed + f))
}

report_one() {  # index
    local i=$1 name=${names[$1]} rc
    rc=$(cat "$OUT/$i.rc")
    if ((rc == 0)); then
        echo "ok - $name ($(cat "$OUT/$i.time") s)"; passed=$((passed + 1))
    elif ((rc == 77)); then
        echo "skip - $name ($(tail -1 "$OUT/$i.out"))"; skipped=$((skipped + 1))
    else
        echo "not ok - $name"; sed 's/^/    /' "$OUT/$i.out" | head -60
        failed=$((failed + 1)); failures+=("$name")
    fi
}

# Print every finished job not yet printed, in order, stopping at the first
# still running.
next_report=0
report_ready() {
    while ((next_report < ${#kinds[@]})) && [[ -f $OUT/$next_report.rc ]]; do
        case ${kinds[$next_report]} in
        unit) report_unit "$next_report" ;;
        *) report_one "$next_report" ;;
        esac
        next_report=$((next_report + 1))
    done
}

run_all() {
    local running=0 i
    for i in "${pending[@]}"; do
        while ((running >= JOBS)); do
            wait -n; running=$((running - 1)); report_ready
        done
        start "$i"; running=$((running + 1))
    done
    wait; report_ready
    for i in "${serial[@]}"; do
        start "$i"; wait; report_ready
    done
}

# a unit binary runs as JOBS shards (COMB_UNIT_SHARD, tests/unit/unit.c):
# its tests are independent, and the longest take minutes
add_unit() {  # binary [VAR=value...]
    local bin=$1 k
    shift
    if ((JOBS == 1)); then
        add unit "$(basename "$bin")" env "$@" "$bin"
        return
    fi
    for ((k = 0; k < JOBS; k++)); do
        add unit "$(basename "$bin") $((k + 1))/$JOBS" \
            env "$@" COMB_UNIT_SHARD="$k/$JOBS" "$bin"
    done
}
for bin in "$BUILD"/tests/unit_*; do
    [[ -x $bin ]] && add_unit "$bin"
done
# the threaded unit tests built with ThreadSanitizer (make test builds
# build/tsan/tests/threads_*: MODE=tsan in the Makefile); a race report
# makes the binary exit non-zero
# (fewer housekeeping statements than the ASan run: TSan is slow, and the
# test expects its loop to take less than hive.txn.timeout)
for bin in "${TSAN_BUILD:-build/tsan}"/tests/threads_*; do
    [[ -x $bin ]] && add_unit "$bin" COMB_HK_STATEMENTS="${COMB_HK_STATEMENTS:-2000}"
done
while IFS= read -r t; do
    add one "sql ${t#tests/sql/}" tests/sqltest.sh "$t"
done < <(find tests/sql -name '*.sql' | sort)
while read -r q; do
    [[ -z $q || $q == \#* ]] && continue
    if [[ ! -d $COMB_TESTDATA/hive-qtests ]]; then
        skip_now "hive-qtest $q" "no shared test data at $COMB_TESTDATA"
        continue
    fi
    add one "hive-qtest $q" "$BUILD/tests/qtest" "$COMB_TESTDATA/hive-qtests/$q.q"
done < tests/qtest/passing.txt
# every feature (joins, subqueries, set operations, windows, WITH); the
# run stops at COMB_SQLDIFF_SECONDS (100 by default) under a slow build
[[ -x $BUILD/tests/sqldiff ]] &&
    add one "sqldiff (comb vs SQLite)" env COMB_SQLDIFF_FEATURES="${COMB_SQLDIFF_FEATURES:-all}" "$BUILD/tests/sqldiff"
for r in "$BUILD"/fuzz/replay_*; do
    [[ -x $r ]] || continue
    name=${r##*/replay_}
    if [[ $name == hs2_* || $name == hms_* ]]; then
        # the servers' code (comb serve's, comb metastore's): libthrift's
        # own leaks suppressed as in the server's tests
        # (tests/integration/lib/server.bash), which needs full stacks
        # through GLib and GLib's slice allocator off; an allocation of
        # hundreds of megabytes is the bug of a length believed (their
        # messages are 1 MiB at most), so it fails the replay
        add one "fuzz corpus $name" env G_SLICE=always-malloc \
            LSAN_OPTIONS="suppressions=$PWD/tests/server/lsan.supp:print_suppressions=0" \
            ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0:max_allocation_size_mb=256" "$r" "fuzz/corpus/$name"
    else
        add one "fuzz corpus $name" "$r" "fuzz/corpus/$name"
    fi
done
# the PostgreSQL and object-store runs of every SQL golden test are the
# longest: in shards
for t in tests/integration/*.sh; do
    [[ -f $t ]] || continue
    if [[ $t == */pg_sql_golden.sh || $t == */s3_sql_golden.sh ]] && ((JOBS > 1)); then
        for ((k = 0; k < JOBS; k++)); do
            add one "integration/$(basename "$t") $((k + 1))/$JOBS" \
                env COMB_SQL_SHARD="$k/$JOBS" bash "$t"
        done
    else
        add one "integration/$(basename "$t")" bash "$t"
    fi
done
run_all

if ((failed)); then
    echo "failures:"; printf '  %s\n' "${failures[@]}"
fi
if ((skipped)); then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
((failed == 0))
