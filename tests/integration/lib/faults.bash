# Helpers of the integration tests that inject faults (sourced, not run:
# tests/run.sh runs tests/integration/*.sh only).  Needs $COMB and $WH.
#   c ARGS...                       comb on $WH, tab-separated output
#   same GOT WANT                   exit 1 showing both unless equal
#   fails FS_FAULT MS_FAULT SQL TEXT  SQL must fail, its message holding TEXT,
#                                   with COMB_FS_FAULT / COMB_MS_FAULT set
#   killed CRASH_POINT SQL          SQL must die of SIGKILL at the test build's
#                                   comb.test.crash.point CRASH_POINT (its
#                                   locks then last 2 s: comb-site.conf)
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
same() { [[ $1 == "$2" ]] || { echo "got:"; echo "$1"; echo "want:"; echo "$2"; exit 1; }; }
fails() {
    local out rc
    set +e
    out=$(COMB_FS_FAULT=$1 COMB_MS_FAULT=$2 c -e "$3" 2>&1)
    rc=$?
    set -e
    ((rc != 0)) || { echo "expected failure of: $3"; echo "$out"; exit 1; }
    [[ $out == *"$4"* ]] || { echo "unexpected error for $3:"; echo "$out"; exit 1; }
}
killed() {
    local rc
    # a killed writer's txn keeps its locks until hive.txn.timeout passes
    # without a heartbeat: seconds here, so the next statement waits only
    # that long for the housekeeper (the warehouse's comb-site.conf)
    [[ -f $WH/comb-site.conf ]] ||
        printf 'hive.txn.timeout=2s\nmetastore.acid.housekeeper.interval=1s\n' > "$WH/comb-site.conf"
    set +e
    c --hiveconf comb.test.crash.point="$1" -e "$2" > /dev/null 2>&1
    rc=$?
    set -e
    ((rc == 137)) || { echo "expected SIGKILL (137) at $1, got $rc: $2"; exit 1; }
}
