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
