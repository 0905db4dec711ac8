#!/usr/bin/env bash
# Every directory and file a metastore commit depends on is durable before
# that commit.  The test build's fs trace (COMB_FS_TRACE) records each
# mkdir, create, fsync, fsync_dir, rename, unlink and rmdir in order, and
# the metastore marks each commit ("ms_commit ...").  Checked in order, not
# just for presence: a new directory must be fsynced, and so must its
# parent, after the mkdir and before the next metastore commit (which is
# the first that can refer to it); likewise every created file must be
# fsynced, and both directories of a rename.
set -eu
WH=$(mktemp -d)
TRACE=$(mktemp)
trap 'rm -rf "$WH" "$TRACE"' EXIT
c() { COMB_FS_TRACE=$TRACE "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
c -e "CREATE DATABASE d;
      CREATE TABLE d.t (id INT, v STRING) CLUSTERED BY (id) INTO 4 BUCKETS
        TBLPROPERTIES ('transactional'='true');
      INSERT INTO d.t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
      UPDATE d.t SET v = 'B' WHERE id = 2;
      DELETE FROM d.t WHERE id = 3;
      CREATE TABLE d.gone (id INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO d.gone VALUES (1);
      DROP TABLE d.gone;
      CREATE TABLE nested (id INT) LOCATION '$WH/x/y/z'
        TBLPROPERTIES ('transactional'='true');
      INSERT INTO nested VALUES (7);
      CREATE TABLE d.c PARTITIONED BY (v) AS SELECT id, v FROM d.t;
      CREATE TABLE d.p TBLPROPERTIES ('transactional'='false') AS SELECT id FROM d.t;" > /dev/null
# compactions: their bases and deltas are durable before their commit
c -e "ALTER TABLE d.t COMPACT 'minor' AND WAIT;
      INSERT INTO d.t VALUES (5, 'e');
      ALTER TABLE d.t COMPACT 'major' AND WAIT;
      CREATE TABLE io (id INT) TBLPROPERTIES ('transactional'='true',
        'transactional_properties'='insert_only');
      INSERT INTO io VALUES (1); INSERT INTO io VALUES (2);
      ALTER TABLE io COMPACT 'major' AND WAIT;" > /dev/null
c compactor --once

awk '
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p == "" ? "/" : p }
function need(i, what,   j, end) {
    end = next_commit[i]
    if (!end) { print "no metastore commit after: " line[i]; bad = 1; return }
    for (j = i + 1; j < end; j++)
        if (line[j] == what)
            return
    print "not durable before commit at line " end " (" line[end] "): line " i \
          " (" line[i] ") lacks \"" what "\""
    bad = 1
}
{ line[NR] = $0; op[NR] = $1; p1[NR] = $2; p2[NR] = $3 }
END {
    nc = 0
    for (i = NR; i >= 1; i--) { next_commit[i] = nc; if (op[i] == "ms_commit") nc = i }
    for (i = 1; i <= NR; i++) {
        if (op[i] == "mkdir") { need(i, "fsync_dir " p1[i]); need(i, "fsync_dir " dirname(p1[i])) }
        else if (op[i] == "create") need(i, "fsync " p1[i])
        else if (op[i] == "rename") { need(i, "fsync_dir " dirname(p1[i])); need(i, "fsync_dir " dirname(p2[i])) }
    }
    exit bad
}' "$TRACE" || { echo "--- trace:"; cat "$TRACE"; exit 1; }

# the trace is not vacuous: each of these happened, the directory before
# the catalog row naming it
at() { grep -n -m1 -x -- "$1" "$TRACE" | cut -d: -f1; }
for want in "mkdir $WH/d.db" "ms_commit db_create d" "mkdir $WH/d.db/t" \
            "ms_commit table_create t" "mkdir $WH/x" "mkdir $WH/x/y/z" \
            "fsync_dir $WH" "ms_commit table_drop gone" "mkdir $WH/d.db/c" \
            "mkdir $WH/d.db/c/v=a" "mkdir $WH/d.db/p"; do
    [[ -n $(at "$want") ]] || { echo "trace lacks: $want"; cat "$TRACE"; exit 1; }
done
(( $(at "mkdir $WH/d.db") < $(at "ms_commit db_create d") )) || { echo "db dir after its row"; exit 1; }
(( $(at "mkdir $WH/d.db/t") < $(at "ms_commit table_create t") )) || { echo "table dir after its row"; exit 1; }
grep -q -- "^create $WH/d.db/t/delta_0000001_0000001_0000/bucket_0000" "$TRACE" || { echo "no insert file traced"; exit 1; }
grep -q -- "^rename $WH/d.db/gone $WH/d.db/.gone.dropped-1$" "$TRACE" || { echo "no drop rename traced"; exit 1; }
grep -q -- "^mkdir $WH/d.db/t/base_0000004_v" "$TRACE" || { echo "no compaction base traced"; exit 1; }
grep -q -- "^create $WH/io/base_0000002_v[0-9]*/000000_0" "$TRACE" || { echo "no insert-only compaction traced"; exit 1; }
[[ $(grep -c '^ms_commit txn_commit' "$TRACE") -ge 5 ]] || { echo "too few txn commits"; exit 1; }

got=$(c -e "SELECT id, v FROM d.t ORDER BY id; SELECT * FROM nested")
[[ $got == $'id\tv\n1\ta\n2\tB\n4\td\n5\te\nnested.id\n7' ]] || { echo "data: $got"; exit 1; }
echo ok
