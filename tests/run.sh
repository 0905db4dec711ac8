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
set -u
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

# wall seconds since $1 (date +%s%N), to one decimal
since() {
    local ns=$(( $(date +%s%N) - $1 ))
    printf '%d.%d' $((ns / 1000000000)) $((ns / 100000000 % 10))
}

count_unit() {
    local bin=$1 out rc p f t0
    t0=$(date +%s%N)
    out=$("$bin" 2>&1); rc=$?
    echo "[$(basename "$bin")] took $(since "$t0") s"
    echo "$out" | grep -E '^(ok|not ok|skip) - ' | sed "s|^|[$(basename "$bin")] |"
    echo "$out" | grep -vE '^(ok|not ok|skip) - |^[0-9]+ passed, [0-9]+ failed' | sed 's/^/    /'
    p=$(echo "$out" | grep -cE '^ok - ')
    f=$(echo "$out" | grep -cE '^not ok - ')
    skipped=$((skipped + $(echo "$out" | grep -cE '^skip - ')))
    if ((rc != 0 && f == 0)); then
        f=1; failures+=("$(basename "$bin") exited $rc")
    fi
    while read -r name; do failures+=("$(basename "$bin"): $name"); done \
        < <(echo "$out" | sed -n 's/^not ok - //p')
    passed=$((passed + p)); failed=$((failed + f))
}

run_one() {  # name, command...  (exit status 77: skipped)
    local name=$1 out rc t0
    shift
    t0=$(date +%s%N)
    out=$("$@" 2>&1); rc=$?
    if ((rc == 0)); then
        echo "ok - $name ($(since "$t0") s)"; passed=$((passed + 1))
    elif ((rc == 77)); then
        echo "skip - $name ($(echo "$out" | tail -1))"; skipped=$((skipped + 1))
    else
        echo "not ok - $name"; echo "$out" | sed 's/^/    /' | head -60
        failed=$((failed + 1)); failures+=("$name")
    fi
}

for bin in "$BUILD"/tests/unit_*; do
    [[ -x $bin ]] && count_unit "$bin"
done
# the threaded unit tests built with ThreadSanitizer (make test builds
# build/tsan/tests/threads_*: MODE=tsan in the Makefile); a race report
# makes the binary exit non-zero
# (fewer housekeeping statements than the ASan run: TSan is slow, and the
# test expects its loop to take less than hive.txn.timeout)
for bin in "${TSAN_BUILD:-build/tsan}"/tests/threads_*; do
    [[ -x $bin ]] && COMB_HK_STATEMENTS=${COMB_HK_STATEMENTS:-2000} count_unit "$bin"
done
while IFS= read -r t; do
    run_one "sql ${t#tests/sql/}" tests/sqltest.sh "$t"
done < <(find tests/sql -name '*.sql' | sort)
while read -r q; do
    [[ -z $q || $q == \#* ]] && continue
    if [[ ! -d $COMB_TESTDATA/hive-qtests ]]; then
        echo "skip - hive-qtest $q (no shared test data at $COMB_TESTDATA)"
        skipped=$((skipped + 1))
        continue
    fi
    run_one "hive-qtest $q" "$BUILD/tests/qtest" "$COMB_TESTDATA/hive-qtests/$q.q"
done < tests/qtest/passing.txt
# every feature (joins, subqueries, set operations, windows, WITH); the
# run stops at COMB_SQLDIFF_SECONDS (100 by default) under a slow build
[[ -x $BUILD/tests/sqldiff ]] &&
    run_one "sqldiff (comb vs SQLite)" env COMB_SQLDIFF_FEATURES="${COMB_SQLDIFF_FEATURES:-all}" "$BUILD/tests/sqldiff"
for r in "$BUILD"/fuzz/replay_*; do
    [[ -x $r ]] || continue
    name=${r##*/replay_}
    run_one "fuzz corpus $name" "$r" "fuzz/corpus/$name"
done
for t in tests/integration/*.sh; do
    [[ -f $t ]] && run_one "integration $(basename "$t")" bash "$t"
done

if ((failed)); then
    echo "failures:"; printf '  %s\n' "${failures[@]}"
fi
if ((skipped)); then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
((failed == 0))
