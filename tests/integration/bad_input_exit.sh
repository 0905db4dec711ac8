#!/usr/bin/env bash
# In -e / -f mode a failing statement makes comb exit non-zero with a clear
# error and stops the run; truncated ORC files give errors, not crashes.
set -u
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
c -e "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true'); INSERT INTO t VALUES (1),(2)" \
    || fail "setup failed"
check_error() {  # sql, expected message part
    local out rc
    out=$(c -e "$1" 2>&1); rc=$?
    ((rc == 1)) || fail "'$1' exited $rc (want 1): $out"
    [[ $out == *"$2"* ]] || fail "'$1' said: $out (want: $2)"
}
check_error "SELECT * FORM t" "line 1:9"
check_error "SELECT * FROM nosuch" "Table not found 'nosuch'"
check_error "SELECT b FROM t" "Invalid table alias or column reference 'b'"
check_error "INSERT INTO t VALUES ('x')" "cannot convert 'x' to int"
# a failing statement stops the rest of the script
out=$(c -e "INSERT INTO t VALUES ('x'); INSERT INTO t VALUES (3)" 2>&1)
[[ $(c -e "SELECT count(*) FROM t") == $'_c0\n2' ]] || fail "script went on after an error"
# -f with a missing file
c -f "$WH/none.sql" >/dev/null 2>&1 && fail "-f of a missing file succeeded"
# truncated ORC: orcfiledump and SELECT report corruption, exit 1, no crash
f=$(find "$WH/t" -name 'bucket_*' | head -1)
[[ -n $f ]] || fail "no bucket file"
size=$(stat -c %s "$f")
for cut in 0 3 10 $((size / 2)) $((size - 1)); do
    head -c "$cut" "$f" > "$WH/cut.orc"
    out=$("$COMB" orcfiledump "$WH/cut.orc" 2>&1); rc=$?
    ((rc == 1)) || fail "orcfiledump of a $cut-byte file exited $rc: $out"
done
cp "$WH/cut.orc" "$f"
out=$(c -e "SELECT * FROM t" 2>&1); rc=$?
((rc == 1)) || fail "SELECT over a truncated file exited $rc: $out"
[[ $out == *corrupt* || $out == *truncated* ]] || fail "unclear error: $out"
echo ok
