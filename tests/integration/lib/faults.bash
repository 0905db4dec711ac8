# Helpers of the integration tests that inject faults (sourced, not run):
#   c ARGS...        comb on the test's warehouse $WH, tab-separated output
#   same GOT WANT    fail the test unless the two texts are equal
#   fails FS_FAULT MS_FAULT SQL TEXT
#                    SQL must fail, with the test build's hooks
#                    COMB_FS_FAULT / COMB_MS_FAULT set, and its message
#                    contain TEXT
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
