#!/usr/bin/env bash
# kill -9 a writer at random moments (parsing, writing files, fsync,
# committing): every statement is all or nothing, and the warehouse keeps
# working afterwards.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (tests/integration/pg_kill_random.sh runs this on PostgreSQL)
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
c -e "CREATE TABLE t (id BIGINT, v STRING) CLUSTERED BY (id) INTO 4 BUCKETS
      TBLPROPERTIES ('transactional'='true')"
rows=20000
sql=$WH/insert.sql
{
    printf 'INSERT INTO t VALUES '
    for ((i = 0; i < rows; i++)); do
        ((i)) && printf ','
        printf "(%d,'v%d')" "$i" "$i"
    done
    printf ';\n'
} > "$sql"
for delay in 0.05 0.1 0.2 0.3 0.4 0.6 0.8; do
    c -f "$sql" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    n=$(c -e "SELECT count(*) FROM t" | tail -1)
    if ((n % rows != 0)); then echo "after kill at ${delay}s: $n rows (not a multiple of $rows)"; exit 1; fi
done
# still usable: one more complete insert and an update over everything
c -f "$sql" > /dev/null
before=$(c -e "SELECT count(*) FROM t" | tail -1)
c -e "UPDATE t SET v = 'x' WHERE id < 10"
after=$(c -e "SELECT count(*), count(v) FROM t WHERE v = 'x'" | tail -1)
if ((before % rows != 0 || before == 0)); then echo "bad count $before"; exit 1; fi
want=$((before / rows * 10))
if [[ $after != "$want	$want" ]]; then echo "update saw: $after (want $want)"; exit 1; fi
echo ok
