#!/usr/bin/env bash
# ALTER TABLE ... RENAME / ADD PARTITION / DROP PARTITION / CONCATENATE /
# SET LOCATION, conversion to insert-only, and TRUNCATE are all or
# nothing: a step failing part-way (injected with the test build's hooks,
# COMB_FS_FAULT=op:path-part:errno and COMB_MS_FAULT=readonly, or a
# SIGKILL at comb.test.crash.point) leaves the catalog, the files and
# what every query answers exactly as before.
set -eu
WH=$(mktemp -d)
OUT=$(mktemp -d)
trap 'rm -rf "$WH" "$OUT"' EXIT
. "$(dirname "$0")/lib/faults.bash"
files() { (cd "$WH" && find . -path ./metastore.db\* -prune -o -print | sort); }
state() { c -e "SHOW TABLES; $1"; }

c -e "CREATE TABLE t (id INT, v STRING) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 'a'), (2, 'b');
      CREATE TABLE p (v INT) PARTITIONED BY (k INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
      INSERT INTO p PARTITION (k) VALUES (1, 1), (2, 2), (3, 3);
      INSERT INTO p PARTITION (k=1) VALUES (10);
      CREATE TABLE m (a INT) STORED AS TEXTFILE;
      INSERT INTO m VALUES (1);
      INSERT INTO m VALUES (2);"
q="SELECT * FROM t ORDER BY id; SELECT * FROM p ORDER BY v; SELECT * FROM m ORDER BY a"
before=$(state "$q")
tree=$(files)

# RENAME: the directory cannot move; the catalog refuses after the move
fails "rename:$WH/t:EIO" "" "ALTER TABLE t RENAME TO t2" "failed to move data"
fails "" readonly "ALTER TABLE t RENAME TO t2" "metastore"
same "$(state "$q")" "$before"
same "$(files)" "$tree"

# ADD PARTITION: the second directory cannot be made; the catalog refuses
fails "mkdir:k=5:EIO" "" "ALTER TABLE p ADD PARTITION (k=4) PARTITION (k=5)" "k=5"
fails "" readonly "ALTER TABLE p ADD PARTITION (k=4) PARTITION (k=5)" "metastore"
same "$(files)" "$tree"
c -e "ALTER TABLE p ADD PARTITION (k=4)"   # the catalog never had it
c -e "ALTER TABLE p DROP PARTITION (k=4)"
same "$(files)" "$tree"

# DROP PARTITION: the second directory cannot be moved aside (the first
# comes back); the catalog refuses (both come back)
fails "rename:$WH/p/k=2:EACCES" "" "ALTER TABLE p DROP PARTITION (k < 3)" "cannot drop partition k=2"
fails "" readonly "ALTER TABLE p DROP PARTITION (k < 3)" "metastore"
same "$(state "$q")" "$before"
same "$(files)" "$tree"

# CONCATENATE: the merged file cannot be written or made durable, the
# directories cannot be exchanged
for f in "create:.k=1.swap-" "fsync:.k=1.swap-" "fsync_dir:.k=1.swap-" "exchange:$WH/p/k=1"; do
    fails "$f" "" "ALTER TABLE p PARTITION (k=1) CONCATENATE" "$WH"
    same "$(state "$q")" "$before"
    same "$(files)" "$tree"
done

# TRUNCATE of a plain table: the second partition cannot be exchanged,
# so the first is exchanged back
fails "exchange:$WH/p/k=2" "" "TRUNCATE TABLE p" "cannot exchange"
same "$(state "$q")" "$before"
same "$(files)" "$tree"
# ... of a full-ACID table: the base cannot be made or marked; the
# catalog refuses the transaction
fails "mkdir:base_:EIO" "" "TRUNCATE TABLE t" "base_"
fails "create:_metadata_acid:ENOSPC" "" "TRUNCATE TABLE t" "_metadata_acid"
fails "" readonly "TRUNCATE TABLE t" "metastore"
same "$(state "$q")" "$before"
same "$(files)" "$tree"
# killed with its base durable: the base's write id never commits
killed after_files "TRUNCATE TABLE t"
killed before_commit "TRUNCATE TABLE t"
same "$(state "$q")" "$before"
[[ -n $(find "$WH/t" -maxdepth 1 -name 'base_*') ]] || { echo "expected the killed truncates' bases"; exit 1; }

# conversion to insert-only: the delta cannot be filled; the catalog
# refuses the transaction
fails "link:$WH/m/000000_0,create:delta_0000" "" \
    "ALTER TABLE m SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')" "delta_0000"
fails "" readonly \
    "ALTER TABLE m SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')" "metastore"
same "$(state "$q")" "$before"
[[ -z $(find "$WH/m" -name 'delta_*') ]] || { echo "a delta was left in m"; find "$WH/m"; exit 1; }

# SET LOCATION: the catalog refuses; the directory made for it goes
fails "" readonly "ALTER TABLE m SET LOCATION '$OUT/new/m'" "metastore"
[[ ! -e $OUT/new ]] || { echo "left $OUT/new"; exit 1; }

# and with no fault every statement works
c -e "ALTER TABLE t RENAME TO t2; TRUNCATE TABLE t2; INSERT INTO t2 VALUES (9, 'z');
      ALTER TABLE p PARTITION (k=1) CONCATENATE; ALTER TABLE p DROP PARTITION (k < 3);
      ALTER TABLE m SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')"
same "$(c -e "SELECT * FROM t2; SELECT * FROM p; SELECT * FROM m ORDER BY a")" \
    $'t2.id\tt2.v\n9\tz\np.v\tp.k\n3\t3\nm.a\n1\n2'
[[ -z $(find "$WH" -name '.*swap*' -o -name '.*dropped*') ]] || { echo "hidden leftovers:"; find "$WH" -name '.*'; exit 1; }
echo ok
