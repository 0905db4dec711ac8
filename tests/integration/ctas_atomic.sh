#!/usr/bin/env bash
# CREATE TABLE AS SELECT killed with SIGKILL after its files are durable
# (after_files) or just before the metastore commit that creates the table
# (before_commit) leaves no table: its name is free, nothing of it is
# listed, and the same CTAS then succeeds with exactly the query's rows -
# for every kind of table, partitioned or not.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
c -e "CREATE TABLE src (id INT, p STRING) TBLPROPERTIES ('transactional'='true');
      INSERT INTO src VALUES (1,'a'),(2,'b'),(3,'a');"
kinds=(
    ""
    "TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')"
    "TBLPROPERTIES ('transactional'='false')"
    "PARTITIONED BY (p)"
    "PARTITIONED BY (p) TBLPROPERTIES ('transactional'='false')"
    "STORED AS TEXTFILE"
)
i=0
for kind in "${kinds[@]}"; do
    i=$((i + 1))
    sql="CREATE TABLE c$i $kind AS SELECT id, p FROM src"
    for point in after_files before_commit; do
        killed "$point" "$sql"
        if c -e "SHOW TABLES" | grep -qx "c$i"; then
            echo "c$i is listed after a CTAS killed at $point ($kind)"; exit 1
        fi
        if c -e "SELECT * FROM c$i" > /dev/null 2>&1; then
            echo "c$i can be read after a CTAS killed at $point ($kind)"; exit 1
        fi
    done
    c -e "$sql"
    got=$(c -e "SELECT id, p FROM c$i ORDER BY id")
    want=$(printf 'id\tp\n1\ta\n2\tb\n3\ta')
    if [[ $got != "$want" ]]; then echo "c$i ($kind) after recovery:"; echo "$got"; exit 1; fi
done
echo ok
