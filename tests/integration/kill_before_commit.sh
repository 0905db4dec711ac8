#!/usr/bin/env bash
# A writer killed with SIGKILL after writing its files and before the
# metastore commit leaves nothing visible, and the next statements work.
# The test build's fault points (comb.test.crash.point) raise SIGKILL at
# exactly that moment: after_files (files fsynced) and before_commit.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c');"
before=$(c -e "SELECT * FROM t ORDER BY id")

killed after_files "INSERT INTO t VALUES (4,'d'),(5,'e')"
killed before_commit "INSERT INTO t VALUES (6,'f')"
killed after_files "UPDATE t SET v = 'x'"
killed before_commit "DELETE FROM t WHERE id = 1"

# the killed writers did leave files behind ...
n_dirs=$(find "$WH/t" -maxdepth 1 -name 'delta_*' -o -maxdepth 1 -name 'delete_delta_*' | wc -l)
if ((n_dirs < 4)); then echo "expected orphan delta directories, found $n_dirs"; exit 1; fi
# ... but none of their rows is visible
after=$(c -e "SELECT * FROM t ORDER BY id")
if [[ $before != "$after" ]]; then
    echo "visible rows changed:"; echo "$before"; echo "---"; echo "$after"; exit 1
fi
# the next statements work and see only committed data
c -e "INSERT INTO t VALUES (7,'g'); UPDATE t SET v = 'B' WHERE id = 2; DELETE FROM t WHERE id = 3"
got=$(c -e "SELECT id, v FROM t ORDER BY id")
want=$(printf 'id\tv\n1\ta\n2\tB\n7\tg')
if [[ $got != "$want" ]]; then echo "after recovery:"; echo "$got"; exit 1; fi
echo ok
