#!/usr/bin/env bash
# A multi-insert is all or nothing even for plain tables, whose files are
# visible once moved in: when a later clause's files cannot be moved in, or
# the catalog cannot record its new partition, the earlier clauses' files
# go and the files an INSERT OVERWRITE moved aside come back; transactional
# targets stay as they were.  Faults come from the test build's hooks
# (COMB_FS_FAULT=op:path-part:errno, COMB_MS_FAULT).
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
state() {
    c -e "SELECT * FROM f ORDER BY v; SELECT * FROM p ORDER BY v; SELECT * FROM a ORDER BY v"
    # (an ACID clause's files may stay, under its aborted write id)
    (cd "$WH" && find f p | sort)
}
c -e "CREATE TABLE src (v INT, k INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
      INSERT INTO src VALUES (1, 1), (2, 2), (3, 3);
      CREATE TABLE f (v INT, s STRING) STORED AS TEXTFILE;
      INSERT INTO f VALUES (1, 'one');
      CREATE TABLE p (v INT) PARTITIONED BY (k INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
      INSERT INTO p PARTITION (k) VALUES (10, 1), (20, 2);
      CREATE TABLE a (v INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
      INSERT INTO a VALUES (100);"
before=$(state)

# the last clause's file cannot be moved into partition k=2: the text
# table's new file goes, its old one comes back, the ACID rows stay hidden
fails "rename:k=2/.comb-staging:EIO" "" \
    "FROM src INSERT INTO a SELECT v INSERT OVERWRITE TABLE f SELECT v, 'new'
     INSERT INTO p PARTITION (k) SELECT v, k WHERE k = 2" "cannot rename"
same "$(state)" "$before"

# the catalog cannot record the new partition k=3 of the last clause,
# after the earlier clauses finished: every clause's files are undone,
# k=3's directory too
fails "" part_add \
    "FROM src INSERT OVERWRITE TABLE f SELECT v, 'new'
     INSERT OVERWRITE TABLE p PARTITION (k) SELECT v, k WHERE k = 1
     INSERT INTO p PARTITION (k) SELECT v, k WHERE k = 3" "metastore"
same "$(state)" "$before"

# and with no fault the same statement works
c -e "FROM src INSERT OVERWRITE TABLE f SELECT v, 'new'
      INSERT OVERWRITE TABLE p PARTITION (k) SELECT v, k WHERE k = 1
      INSERT INTO p PARTITION (k) SELECT v, k WHERE k = 3
      INSERT INTO a SELECT v"
same "$(c -e "SELECT * FROM f ORDER BY v")" $'f.v\tf.s\n1\tnew\n2\tnew\n3\tnew'
same "$(c -e "SELECT * FROM p ORDER BY v")" $'p.v\tp.k\n1\t1\n3\t3\n20\t2'
same "$(c -e "SELECT count(*) FROM a")" $'_c0\n4'
echo ok
