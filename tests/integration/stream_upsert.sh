#!/usr/bin/env bash
# Issue 12, acceptance 3: a change stream of inserts, updates and deletes
# by key, as CDC tools write it (an op field I / U / D before the row),
# replayed through `comb stream --upsert-key id --op-column op`, ends with
# the rows an in-test reference (awk) computes from the same changes.  The
# stream changes the same keys again and again within one txn and across
# txns, batches of txns and processes; a JSON stream (op member, keys in
# another order) does the same into a second table.
set -u
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (pg_stream_upsert.sh: PostgreSQL)
MS=(${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"})
c() { "$COMB" --warehouse "$WH/w" "${MS[@]}" --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

c -e "CREATE TABLE u (id INT, v STRING, n BIGINT) CLUSTERED BY (id) INTO 2 BUCKETS
        TBLPROPERTIES ('transactional'='true');
      CREATE TABLE uj (id INT, v STRING, n BIGINT)
        TBLPROPERTIES ('transactional'='true')" > /dev/null || fail setup

# changes: a key not present is inserted; a present one updated (70%) or
# deleted; the reference keeps the state.  $1 = seed, $2 = changes,
# $3 = keys; writes changes.csv, changes.json, want.tsv.
gen() {
    awk -v seed="$1" -v n="$2" -v keys="$3" -v dir="$WH" 'BEGIN {
        srand(seed)
        for (i = 0; i < n; i++) {
            k = int(rand() * keys)
            if (!(k in st)) op = "I"
            else op = rand() < 0.7 ? "U" : "D"
            val = "v" i; num = int(rand() * 1000000) - 500000
            if (op == "D") { delete st[k]; val = ""; num = "" }
            else st[k] = val "\t" num
            printf "%s,%d,%s,%s\n", op, k, val, num > (dir "/changes.csv")
            if (op == "D")
                printf "{\"op\":\"d\",\"ID\":%d}\n", k > (dir "/changes.json")
            else
                printf "{\"n\":%d,\"v\":\"%s\",\"op\":\"%s\",\"id\":%d}\n", num, val, tolower(op), k > (dir "/changes.json")
        }
        for (k in st) print k "\t" st[k] > (dir "/want.unsorted")
    }'
    sort -n "$WH/want.unsorted" > "$WH/want.tsv"
    rm -f "$WH/want.unsorted"
}

gen 7 4000 300
# three processes, each with its own batches of txns
split -n l/3 -d "$WH/changes.csv" "$WH/part."
for p in "$WH"/part.0*; do
    "$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table u --upsert-key id --op-column op \
        --commit-rows 97 --batch-size 4 --quiet < "$p" 2> "$WH/err" \
        || fail "stream $p: $(cat "$WH/err")"
done
c -e "SELECT id, v, n FROM u ORDER BY id" | tail -n +2 > "$WH/got.tsv"
diff "$WH/want.tsv" "$WH/got.tsv" > "$WH/diff" || fail "csv change stream: $(head -20 "$WH/diff")"
[[ -s $WH/want.tsv ]] || fail "the reference is empty"

"$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table uj --format json --upsert-key ID \
    --op-column op --commit-rows 250 --quiet < "$WH/changes.json" 2> "$WH/err" \
    || fail "json stream: $(cat "$WH/err")"
c -e "SELECT id, v, n FROM uj ORDER BY id" | tail -n +2 > "$WH/got.tsv"
diff "$WH/want.tsv" "$WH/got.tsv" > "$WH/diff" || fail "json change stream: $(head -20 "$WH/diff")"

# an unknown op is an error naming the line; nothing of its txn stays
printf 'I,100000,a,1\nX,100001,b,2\n' |
    "$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table u --upsert-key id --op-column op --quiet 2> "$WH/err"
rc=$?
[[ $rc == 1 && $(head -1 "$WH/err") == "comb stream: line 2: column op: 'X' is not an operation (I, U or D)" ]] \
    || fail "bad op: status $rc, $(cat "$WH/err")"
[[ $(c -e "SELECT count(*) FROM u WHERE id >= 100000" | tail -1) == 0 ]] || fail "rows of the aborted txn are visible"
# an op column must not be a table column
printf 'I,1,a,1\n' | "$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table u --upsert-key id --op-column v 2> "$WH/err"
[[ $? == 1 && $(head -1 "$WH/err") == "comb stream: --op-column v is a column of the table; name a field of the change records" ]] \
    || fail "op column of the table: $(cat "$WH/err")"
echo ok
