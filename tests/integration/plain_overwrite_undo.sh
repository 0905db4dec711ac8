#!/usr/bin/env bash
# INSERT OVERWRITE and LOAD DATA OVERWRITE of plain (non-transactional)
# tables are all or nothing: when a step fails part-way (a new file cannot
# be moved in, the catalog cannot record a new partition), the files
# already moved in go and the old files come back.  Faults come from the
# test build's hooks (COMB_FS_FAULT=op:path-part:errno, COMB_MS_FAULT).
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
c -e "CREATE TABLE p (v INT) PARTITIONED BY (k INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
      INSERT INTO p PARTITION (k) VALUES (1, 1), (2, 2), (3, 2);
      CREATE TABLE f (v INT, s STRING) STORED AS TEXTFILE;
      INSERT INTO f VALUES (1, 'one');
      INSERT INTO f VALUES (2, 'two');"
before_p=$(c -e "SELECT * FROM p ORDER BY v")
before_f=$(c -e "SELECT * FROM f ORDER BY v")
files_p=$(cd "$WH/p" && find . | sort)
files_f=$(cd "$WH/f" && find . | sort)

# the new file of the second partition cannot be moved in: partition k=1
# was already replaced, and is restored
fails "rename:k=2/.comb-staging:EIO" "" \
    "INSERT OVERWRITE TABLE p PARTITION (k) VALUES (10, 1), (20, 2)" "cannot rename"
same "$(c -e "SELECT * FROM p ORDER BY v")" "$before_p"
same "$(cd "$WH/p" && find . | sort)" "$files_p"

# the catalog cannot record the new partition k=3: everything undone
fails "" readonly \
    "INSERT OVERWRITE TABLE p PARTITION (k) VALUES (10, 1), (30, 3)" "metastore"
same "$(c -e "SELECT * FROM p ORDER BY v")" "$before_p"
same "$(cd "$WH/p" && find . | sort)" "$files_p"

# a text table: the old files were moved aside, the new one fails to move in
fails "rename:f/.comb-staging:EIO" "" \
    "INSERT OVERWRITE TABLE f SELECT v + 100, s FROM f" "cannot rename"
same "$(c -e "SELECT * FROM f ORDER BY v")" "$before_f"
same "$(cd "$WH/f" && find . | sort)" "$files_f"

# and with no fault the same statements work
c -e "INSERT OVERWRITE TABLE p PARTITION (k) VALUES (10, 1), (20, 2)"
same "$(c -e "SELECT * FROM p ORDER BY v")" $'p.v\tp.k\n10\t1\n20\t2'
c -e "INSERT OVERWRITE TABLE f SELECT v + 100, s FROM f"
same "$(c -e "SELECT * FROM f ORDER BY v")" $'f.v\tf.s\n101\tone\n102\ttwo'
echo ok
