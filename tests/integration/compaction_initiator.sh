#!/usr/bin/env bash
# The initiator queues compactions on its own once a partition's deltas
# pass the thresholds: the hive.compactor.* settings, or a table's
# compactorthreshold.* properties; NO_AUTO_COMPACTION keeps it away.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
initiator() { c --hiveconf hive.compactor.initiator.on=true "$@" compactor --once; }
queue() { c -e "SHOW COMPACTIONS" | tail -n +2 | cut -f2-6 | tr '\t' ' '; }
dirs() { (cd "$WH/$1" && ls -d base_* delta_* delete_delta_* 2>/dev/null | tr '\n' ' ' |
          sed -E 's/_v[0-9]+/_vT/g'); }

c -e "CREATE TABLE a (id INT) TBLPROPERTIES ('transactional'='true',
        'compactorthreshold.hive.compactor.delta.num.threshold'='2',
        'compactorthreshold.hive.compactor.delta.pct.threshold'='1000');
      CREATE TABLE n (id INT) TBLPROPERTIES ('transactional'='true',
        'NO_AUTO_COMPACTION'='true',
        'compactorthreshold.hive.compactor.delta.num.threshold'='0');
      CREATE TABLE g (id INT) PARTITIONED BY (p INT)
        TBLPROPERTIES ('transactional'='true');"
for i in 1 2; do
    c -e "INSERT INTO a VALUES ($i); INSERT INTO n VALUES ($i);
          INSERT INTO g PARTITION (p=1) VALUES ($i)" > /dev/null
done
# two deltas: not more than the threshold of a, nothing for n, g's is 10
initiator
same "$(queue)" ""
c -e "INSERT INTO a VALUES (3); INSERT INTO n VALUES (3)" > /dev/null
# three deltas and no base: major (Hive's noBase rule), run and cleaned
initiator
same "$(queue)" "default a  ---  MAJOR succeeded"
same "$(dirs a)" "base_0000003_vT "
same "$(c -e 'SELECT id FROM a ORDER BY id' | tr '\n' ' ')" "id 1 2 3 "
# with a base: minor once there are more than 2 deltas again (the delta
# share of 1000 is never reached)
for i in 4 5 6; do c -e "INSERT INTO a VALUES ($i)" > /dev/null; done
initiator
same "$(queue | tail -1)" "default a  ---  MINOR succeeded"
same "$(dirs a)" "base_0000003_vT delta_0000004_0000006_vT "
# the settings apply to tables without properties (g's partition)
initiator --hiveconf hive.compactor.delta.num.threshold=1
same "$(queue | tail -1)" "default g p=1 MAJOR succeeded"
same "$(dirs n)" "delta_0000001_0000001_0000 delta_0000002_0000002_0000 delta_0000003_0000003_0000 "
same "$(c -e 'SELECT count(*) FROM n' | tail -1)" 3

# a partition whose compactions keep failing (a damaged file) is left
# alone after hive.compactor.initiator.failed.compacts.threshold failures
c -e "CREATE TABLE f (id INT) TBLPROPERTIES ('transactional'='true',
        'compactorthreshold.hive.compactor.delta.num.threshold'='1');
      INSERT INTO f VALUES (1); INSERT INTO f VALUES (2)" > /dev/null
printf 'not an ORC file' > "$WH/f/delta_0000002_0000002_0000/bucket_00000"
c --hiveconf hive.compactor.initiator.on=true compactor --once 2> /dev/null || true
same "$(queue | grep ' f ' | tail -1)" "default f  ---  MAJOR failed"
initiator --hiveconf hive.compactor.initiator.failed.compacts.threshold=1
same "$(queue | grep ' f ' | tail -1)" "default f  ---  MAJOR did not initiate"
echo ok
