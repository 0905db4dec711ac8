#!/usr/bin/env bash
# One warehouse on local disk with a table on the store (LOCATION
# 's3a://...'): statements join the two, the compactor compacts and cleans
# the store's table (its obsolete deltas are gone from the store), and DROP
# removes its objects.
set -u -o pipefail
. "$(dirname "$0")/lib/s3.bash"
s3_start_test mixed
mapfile -t S3 < <(s3_comb_args)
c() { "$COMB" --warehouse "$T/wh" "${S3[@]}" --silent --outputformat tsv "$@" | tail -n +2; }
fail() { echo "FAIL: $*"; exit 1; }
# the store's directories under the table, as its listing shows them
store_dirs() {
    curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
        -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
        "$COMB_TEST_S3_ENDPOINT/mixed/?delimiter=%2F&list-type=2&prefix=st%2F" |
        grep -o '<Prefix>st/[^<]\+/</Prefix>' | sed -E 's|<Prefix>st/([^/<]*)/</Prefix>|\1|; s/_v[0-9]+$/_vT/' |
        tr '\n' ' '
}
c -e "CREATE TABLE lt (id INT, name STRING) STORED AS ORC
        TBLPROPERTIES ('transactional'='true');
      CREATE TABLE st (id INT, amount INT) STORED AS ORC
        LOCATION 's3a://mixed/st' TBLPROPERTIES ('transactional'='true');
      INSERT INTO lt VALUES (1, 'a'), (2, 'b'), (3, 'c');" > /dev/null || fail create
for i in 1 2 3; do
    c -e "INSERT INTO st SELECT id, id * $i FROM lt" > /dev/null || fail insert
done
c -e "UPDATE st SET amount = 0 WHERE id = 2" > /dev/null || fail update
got=$(c -e "SELECT lt.name, sum(st.amount) FROM lt JOIN st ON lt.id = st.id
            GROUP BY lt.name ORDER BY lt.name") || fail join
[[ $got == $'a\t6\nb\t0\nc\t18' ]] || fail "join: $got"
[[ $(store_dirs) == "delete_delta_0000004_0000004_0000 delta_0000001_0000001_0000 delta_0000002_0000002_0000 delta_0000003_0000003_0000 delta_0000004_0000004_0000 " ]] ||
    fail "deltas on the store: $(store_dirs)"
c -e "ALTER TABLE st COMPACT 'major' AND WAIT" > /dev/null || fail compact
"$COMB" --warehouse "$T/wh" "${S3[@]}" compactor --once > /dev/null 2>&1 || fail "compactor"
[[ $(store_dirs) == "base_0000004_vT " ]] || fail "after cleaning: $(store_dirs)"
[[ $(c -e "SELECT count(*), sum(amount) FROM st") == $'9\t24' ]] || fail "after compaction"
# SHOW CREATE TABLE names the store's location, never a credential
ddl=$(c --hiveconf fs.s3a.access.key="$AWS_ACCESS_KEY_ID" \
        --hiveconf fs.s3a.secret.key="$AWS_SECRET_ACCESS_KEY" -e "SHOW CREATE TABLE st") ||
    fail "show create"
grep -q "^ *'s3a://mixed/st'$" <<< "$ddl" || fail "SHOW CREATE TABLE: $ddl"
grep -q "$AWS_SECRET_ACCESS_KEY" <<< "$ddl" && fail "a credential in SHOW CREATE TABLE: $ddl"
c -e "DROP TABLE st" > /dev/null || fail drop
[[ -z $(store_dirs) ]] || fail "left on the store after DROP: $(store_dirs)"
echo ok
