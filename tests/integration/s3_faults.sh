#!/usr/bin/env bash
# Faults on the store: the proxy in front of the S3 server answers 503s,
# answers slowly and drops connections at random (seeded) while INSERT,
# UPDATE, DELETE, MERGE and a major compaction run on an ACID table kept
# there.  Each statement either succeeds or fails with an error naming
# the object; SQLite, given the statements that succeeded, says what the
# table must hold, and once the faults stop comb must show exactly that:
# no committed row lost or duplicated, nothing of a failed one visible;
# and where the store cannot say whether a table's directory is there,
# statements fail rather than find nothing.
set -u -o pipefail
. "$(dirname "$0")/lib/s3.bash"
s3_start_test faults
command -v sqlite3 > /dev/null || { echo "sqlite3 missing"; exit 77; }
run() {
    "$COMB" --warehouse s3a://faults/wh --metastore "$T/ms.db" \
        --hiveconf fs.s3a.endpoint="$COMB_TEST_S3_ENDPOINT" \
        --hiveconf fs.s3a.path.style.access=true \
        --hiveconf fs.s3a.attempts.maximum=2 --silent "${@:2}" -e "$1"
}
fail() { echo "FAIL: $*"; exit 1; }
run "CREATE TABLE t (id INT, v STRING) STORED AS ORC
     TBLPROPERTIES ('transactional'='true')" > /dev/null || fail "create"
sqlite3 "$T/model.db" "CREATE TABLE t (id INT, v TEXT)"
s3_faults "503=0.05,slow=0.01,drop=0.03,put503=0.25,seed=${COMB_S3_FAULT_SEED:-11}"
ok=0 failed=0
for i in $(seq 1 24); do
    case $((i % 4)) in
    0) sql="UPDATE t SET v = concat(v, 'u$i') WHERE id % 3 = $((i % 3))"
       model="UPDATE t SET v = v || 'u$i' WHERE id % 3 = $((i % 3))" ;;
    1|2) sql="INSERT INTO t VALUES ($i, 'a$i'), ($((i + 100)), 'b$i')"
         model=$sql ;;
    3) sql="DELETE FROM t WHERE id = $((i - 2))"; model=$sql ;;
    esac
    if out=$(run "$sql" 2>&1); then
        sqlite3 "$T/model.db" "$model"
        ok=$((ok + 1))
    else
        # a failure must say which object and why, never leak a secret
        grep -q "s3a://faults/" <<< "$out" || fail "unclear error: $out"
        grep -q "$AWS_SECRET_ACCESS_KEY" <<< "$out" && fail "secret in: $out"
        failed=$((failed + 1))
    fi
done
run "ALTER TABLE t COMPACT 'major' AND WAIT" > /dev/null 2>&1 || true
s3_faults off
((ok > 0 && failed > 0)) ||
    fail "expected both outcomes under faults: $ok succeeded, $failed failed"
got=$(run "SELECT id, v FROM t ORDER BY id, v" --outputformat tsv 2>&1 | tail -n +2) ||
    fail "read: $got"
want=$(sqlite3 -separator $'\t' "$T/model.db" "SELECT id, v FROM t ORDER BY id, v")
[[ $got == "$want" ]] || { diff <(echo "$want") <(echo "$got"); fail "rows differ"; }
# a store that does not answer whether the table's directory is there
# fails the statement: the table never reads as empty (a DELETE would
# then delete nothing and say it succeeded)
s3_faults 503=1 '^(HEAD /faults/wh/t|GET /faults/\?list-type=2&max-keys=1&prefix=wh%2Ft%2F)$'
for sql in "SELECT count(*) FROM t" "DELETE FROM t WHERE id = 22"; do
    out=$(run "$sql" 2>&1) && fail "with the store down, '$sql' answered: $out"
    grep -q "s3a://faults/" <<< "$out" || fail "unclear error: $out"
done
s3_faults off
echo "ok ($ok statements succeeded, $failed failed cleanly)"
