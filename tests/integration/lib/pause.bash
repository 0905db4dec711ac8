# Helpers of the integration tests that hold processes at the test build's
# pause points (sourced, not run).  Needs fail() defined by the test.
#   wait_for FILE   until the process paused at a point made FILE.at
wait_for() {
    local n=0
    until [[ -e $1.at ]]; do
        sleep 0.05; n=$((n + 1))
        ((n < 1200)) || fail "no process reached the pause point of $1"
    done
}
# The next two need c() (comb on the test's warehouse), $WH and a pids
# array the test kills on exit.
#   held NAME SQL   SQL in the background, held once its locks are granted
held() {
    local name=$1
    shift
    ( c --hiveconf comb.test.pause.point=after_snapshot \
        --hiveconf comb.test.pause.file="$WH/$name" -e "$1" > "$WH/$name.log" 2>&1
      echo $? > "$WH/$name.rc" ) &
    pids+=($!)
    wait_for "$WH/$name"
}
#   finish NAME     let a held NAME go on; it must end with status 0
finish() {
    local n=0
    touch "$WH/$1"
    until [[ -s $WH/$1.rc ]]; do
        sleep 0.05; n=$((n + 1))
        ((n < 1200)) || fail "$1 did not end"
    done
    [[ $(cat "$WH/$1.rc") == 0 ]] || fail "$1 failed: $(cat "$WH/$1.log")"
}
