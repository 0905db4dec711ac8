#!/usr/bin/env bash
# A relative LOCATION is stored absolute, against the working directory of
# the process that ran the CREATE (as Hive qualifies paths), so a second
# process started elsewhere reads and writes the same directory.
set -eu
BASE=$(mktemp -d)
trap 'rm -rf "$BASE"' EXIT
WH=$BASE/wh
mkdir -p "$BASE/one/sub" "$BASE/two"
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
(cd "$BASE/one/sub" && c -e "
    CREATE DATABASE rel LOCATION './dbs//rel.db/';
    CREATE TABLE rel.t (id INT) LOCATION '../data/t' TBLPROPERTIES ('transactional'='true');
    INSERT INTO rel.t VALUES (1), (2);")
loc() { c -e "DESCRIBE FORMATTED rel.t" |
        awk -F'\t' '$1 ~ /^Location: *$/ {sub(/^file:/, "", $2); sub(/ +$/, "", $2); print $2}'; }
[[ $(cd "$BASE/two" && loc) == "$BASE/one/data/t" ]] || { echo "stored: $(loc)"; exit 1; }
[[ -d $BASE/one/sub/dbs/rel.db && -d $BASE/one/data/t/delta_0000001_0000001_0000 ]] \
    || { echo "files:"; find "$BASE" -maxdepth 4; exit 1; }
# another process elsewhere: same table, same files
(cd "$BASE/two" && c -e "INSERT INTO rel.t VALUES (3)")
got=$(cd "$BASE/two" && c -e "SELECT id FROM rel.t ORDER BY id")
[[ $got == $'id\n1\n2\n3' ]] || { echo "from two: $got"; exit 1; }
[[ ! -e $BASE/two/data && ! -e $BASE/two/dbs ]] || { echo "wrote relative to the wrong directory"; exit 1; }
[[ $(ls -d "$BASE"/one/data/t/delta_* | wc -l) == 2 ]] || { echo "deltas:"; ls "$BASE/one/data/t"; exit 1; }
# tables of the database with a relative location land in its directory
(cd "$BASE/two" && c -e "CREATE TABLE rel.u (id INT) TBLPROPERTIES ('transactional'='true')")
[[ -d $BASE/one/sub/dbs/rel.db/u ]] || { echo "rel.u not in the database directory"; exit 1; }
echo ok
