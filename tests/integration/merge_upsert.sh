#!/usr/bin/env bash
# MERGE as an upsert: 10,000 staging rows (a third update, a third delete
# by flag, a third insert) into a partitioned, bucketed ACID table.  The
# final rows must equal a reference awk computes from the generated data
# alone, and the statement must write, in each partition it touches, one
# directory per leg (write id 2: delete_delta _0000 for the DELETE leg,
# delete_delta and delta _0001 for the UPDATE leg, delta _0002 for the
# INSERT leg) holding one file per bucket it touched.
set -eu
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/wh" --outputformat tsv "$@"; }
q() { c -e "$1" | tail -n +2; }     # the rows, without the header line
fail() { echo "merge_upsert: $*"; exit 1; }

# target: ids 0..6665 (the ones the staging rows update or delete) and
# 20000..20099 (untouched); staging: ids 0..9999, op by id range
awk 'BEGIN { for (i = 0; i < 6666; i++) print i "," "old" i "," i % 5;
             for (i = 20000; i < 20100; i++) print i "," "old" i "," i % 5 }' \
    > "$WH/target.csv"
awk 'BEGIN { for (i = 0; i < 10000; i++) {
               op = i < 3333 ? "U" : (i < 6666 ? "D" : "I");
               print i "," "new" i "," i % 5 "," op } }' > "$WH/stage.csv"
# the reference: target rows not deleted, updated ones with their new
# value, then the inserted ones
awk -F, 'NR == FNR { op[$1] = $4; val[$1] = $2; next }
         { if (op[$1] == "D") next;
           print $1 "\t" (op[$1] == "U" ? val[$1] : $2) "\t" $3 }' \
    "$WH/stage.csv" "$WH/target.csv" > "$WH/want"
awk -F, '$4 == "I" { print $1 "\t" $2 "\t" $3 }' "$WH/stage.csv" >> "$WH/want"
sort -n "$WH/want" -o "$WH/want"

c -e "CREATE TABLE load_t (id INT, val STRING, p INT)
        ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
      CREATE TABLE stage (id INT, val STRING, p INT, op STRING)
        ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
      LOAD DATA LOCAL INPATH '$WH/target.csv' INTO TABLE load_t;
      LOAD DATA LOCAL INPATH '$WH/stage.csv' INTO TABLE stage;
      CREATE TABLE t (id INT, val STRING) PARTITIONED BY (p INT)
        CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC
        TBLPROPERTIES ('transactional'='true');
      SET hive.exec.dynamic.partition.mode=nonstrict;
      INSERT INTO t PARTITION (p) SELECT id, val, p FROM load_t;" > /dev/null
c -e "MERGE INTO t USING stage s ON t.id = s.id AND t.p = s.p
      WHEN MATCHED AND s.op = 'D' THEN DELETE
      WHEN MATCHED THEN UPDATE SET val = s.val
      WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.val, s.p)" > /dev/null
q "SELECT id, val, p FROM t ORDER BY id" > "$WH/got.rows"
cmp -s "$WH/got.rows" "$WH/want" ||
    { diff "$WH/got.rows" "$WH/want" | head; fail "final rows differ from the reference"; }

# the rows stay where Hive puts them: each row's partition and bucket
# file are those of its values
q "SELECT COUNT(*) FROM t WHERE p <> id % 5" | grep -qx 0 ||
    fail "a row is in the wrong partition"

# the layout: every partition got the four leg directories of write id 2
# and nothing else new; each holds at most one file per bucket
for k in 0 1 2 3 4; do
    dir=$WH/wh/t/p=$k
    got=$(cd "$dir" && ls -d *_0000002_* | sort | tr '\n' ' ')
    want="delete_delta_0000002_0000002_0000 delete_delta_0000002_0000002_0001 delta_0000002_0000002_0001 delta_0000002_0000002_0002 "
    [[ $got == "$want" ]] || fail "partition p=$k has: $got"
    for d in "$dir"/*_0000002_*; do
        n=$(ls "$d" | grep -c '^bucket_')
        u=$(ls "$d" | grep '^bucket_' | sort -u | wc -l)
        ((n >= 1 && n <= 4 && n == u)) || fail "$d holds $n bucket files"
    done
done
# every row is in the bucket a plain INSERT of its id picks (updated rows
# keep their old row's bucket, inserted ones are routed by the hash)
c -e "CREATE TABLE ref (id INT, val STRING) PARTITIONED BY (p INT)
        CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC
        TBLPROPERTIES ('transactional'='true');
      SET hive.exec.dynamic.partition.mode=nonstrict;
      INSERT INTO ref PARTITION (p) SELECT id, val, p FROM stage;
      INSERT INTO ref PARTITION (p) SELECT id, val, p FROM load_t WHERE id >= 20000" > /dev/null
bad=$(q "SELECT COUNT(*) FROM t JOIN ref ON t.id = ref.id
      WHERE (t.ROW__ID.bucketid DIV 65536) % 4096 <> (ref.ROW__ID.bucketid DIV 65536) % 4096")
[[ $bad == 0 ]] || fail "$bad rows in another bucket than INSERT puts them"
n=$(q "SELECT COUNT(*) FROM t JOIN ref ON t.id = ref.id")
[[ $n == $(wc -l < "$WH/want") ]] || fail "bucket check joined $n rows"
echo "merge_upsert: ok ($(wc -l < "$WH/want") rows)"
