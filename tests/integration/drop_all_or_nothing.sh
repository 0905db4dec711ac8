#!/usr/bin/env bash
# DROP TABLE and DROP DATABASE CASCADE are all or nothing, and a new table
# never reads an old table's files.  Failures are injected with the test
# build's fs fault hook (COMB_FS_FAULT=op:path-part:errno), which works as
# root too (chmod does not stop root).
set -eu
WH=$(mktemp -d)
OUT=$(mktemp -d)
trap 'rm -rf "$WH" "$OUT"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
fails() {  # fails FAULT SQL EXPECTED-TEXT: the statement fails with the text
    local out rc
    set +e
    out=$(COMB_FS_FAULT=$1 COMB_MS_FAULT=${MS_FAULT:-} c -e "$2" 2>&1)
    rc=$?
    set -e
    ((rc != 0)) || { echo "expected failure of: $2"; echo "$out"; exit 1; }
    [[ $out == *"$3"* ]] || { echo "unexpected error for $2:"; echo "$out"; exit 1; }
}
same() { [[ $1 == "$2" ]] || { echo "got:"; echo "$1"; echo "want:"; echo "$2"; exit 1; }; }

c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 'a'), (2, 'b');"
before=$(c -e "SELECT * FROM t ORDER BY id")

# 1. the directory cannot be moved: DROP fails, the table is whole
fails "rename:$WH/t:EACCES" "DROP TABLE t" "cannot drop table default.t"
same "$(c -e "SHOW TABLES")" $'tab_name\nt'
same "$(c -e "SELECT * FROM t ORDER BY id")" "$before"
c -e "INSERT INTO t VALUES (3, 'c')"
same "$(c -e "SELECT count(*) FROM t")" $'_c0\n3'

# 2. the catalog commit fails (COMB_MS_FAULT: the metastore is read-only):
#    the directory is put back
MS_FAULT=readonly fails "" "DROP TABLE t" "cannot write to the metastore"
same "$(c -e "SHOW TABLES")" $'tab_name\nt'
same "$(c -e "SELECT count(*) FROM t")" $'_c0\n3'
[[ -z $(ls -A "$WH" | grep '^\.t\.') ]] || { echo "left a renamed copy:"; ls -A "$WH"; exit 1; }

# 3. the files cannot be removed after the commit: DROP succeeds (with a
#    warning), the files stay under a hidden name no table reads, and a
#    re-created table starts empty and takes inserts
out=$(COMB_FS_FAULT="unlink:/.t.dropped-:EBUSY" c -e "DROP TABLE t" 2>&1)
[[ $out == *"WARNING: dropped, but could not remove its files"*".t.dropped-1"* ]] || { echo "warning: $out"; exit 1; }
same "$(c -e "SHOW TABLES")" "tab_name"
[[ -d $WH/.t.dropped-1 && ! -e $WH/t ]] || { echo "layout:"; ls -A "$WH"; exit 1; }
c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (9, 'new');"
same "$(c -e "SELECT * FROM t")" $'t.id\tt.v\n9\tnew'

# 4. leftovers in the new table's own directory (as a DROP killed between
#    its catalog commit and the removal used to leave them): the new table
#    gets a directory of its own and never reads them
c -e "CREATE TABLE u (id INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO u VALUES (1), (2);"
cp -a "$WH/u" "$OUT/u"
c -e "DROP TABLE u"
mv "$OUT/u" "$WH/u"
c -e "CREATE TABLE u (id INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO u VALUES (5);"
same "$(c -e "SELECT * FROM u")" $'u.id\n5'
c -e "DESCRIBE FORMATTED u" | grep -q "^Location: *	file:$WH/u.v0000001	" || { c -e "DESCRIBE FORMATTED u"; exit 1; }
[[ -d $WH/u/delta_0000001_0000001_0000 ]] || { echo "leftovers were touched"; exit 1; }
c -e "DROP TABLE u"
[[ ! -e $WH/u.v0000001 ]] || { echo "u.v0000001 not removed"; exit 1; }

# 5. a transactional table on another table's ACID files adopts them as
#    Hive 4 does: they stay invisible and the table takes no write until
#    MSCK REPAIR TABLE records their write ids
out=$(c -e "CREATE TABLE w (id INT) LOCATION '$WH/u' TBLPROPERTIES ('transactional'='true')" 2>&1)
[[ $out == *"location '$WH/u' holds ACID data ('delta_0000001_0000001_0000'); it stays invisible until MSCK REPAIR TABLE default.w records its write ids"* ]] \
    || { echo "CREATE over ACID data: $out"; exit 1; }
same "$(c -e "SELECT * FROM w")" "w.id"
fails "" "INSERT INTO w VALUES (9)" \
    "table default.w holds ACID data written elsewhere (write ids up to 1 in '$WH/u')"
same "$(ls "$WH/u")" "delta_0000001_0000001_0000"
c -e "MSCK REPAIR TABLE w; INSERT INTO w VALUES (9)"
same "$(c -e "SELECT * FROM w ORDER BY id")" $'w.id\n1\n2\n9'
c -e "DROP TABLE w"

# 6. DROP DATABASE CASCADE: a table outside the database directory is
#    moved aside first; when the database directory then cannot be moved,
#    everything goes back and the database is whole
c -e "CREATE DATABASE d;
      CREATE TABLE d.a (id INT) TBLPROPERTIES ('transactional'='true');
      CREATE TABLE d.b (id INT) LOCATION '$OUT/b' TBLPROPERTIES ('transactional'='true');
      INSERT INTO d.a VALUES (1); INSERT INTO d.b VALUES (2);"
fails "rename:$WH/d.db:EIO" "DROP DATABASE d CASCADE" "cannot drop database d"
same "$(c -e "SHOW TABLES IN d")" $'tab_name\na\nb'
same "$(c -e "SELECT * FROM d.a; SELECT * FROM d.b")" $'a.id\n1\nb.id\n2'
[[ -d $OUT/b/delta_0000001_0000001_0000 ]] || { echo "d.b not put back"; ls -A "$OUT"; exit 1; }
c -e "DROP DATABASE d CASCADE"
same "$(c -e "SHOW DATABASES")" $'database_name\ndefault'
[[ ! -e $WH/d.db && ! -e $OUT/b && -z $(ls -A "$OUT") ]] || { echo "left:"; ls -A "$WH" "$OUT"; exit 1; }
echo ok
