#!/usr/bin/env bash
# Two comb processes working on one warehouse one after the other see each
# other's committed data (shared embedded metastore, shared files).
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
c -e "CREATE DATABASE sales; USE sales;
      CREATE TABLE orders (id BIGINT, amount DOUBLE) TBLPROPERTIES ('transactional'='true');
      INSERT INTO orders VALUES (1, 10.5), (2, 20.0);"
got=$(c -e "SELECT count(*), sum(amount) FROM sales.orders")
[[ $got == $'_c0\t_c1\n2\t30.5' ]] || { echo "B saw: $got"; exit 1; }
c -e "USE sales; INSERT INTO orders VALUES (3, 1.0); DELETE FROM orders WHERE id = 1"
got=$(c -e "SELECT id FROM sales.orders ORDER BY id")
[[ $got == $'id\n2\n3' ]] || { echo "A saw: $got"; exit 1; }
# the database directory is laid out as Hive's: <warehouse>/<db>.db/<table>
[[ -d $WH/sales.db/orders ]] || { echo "missing $WH/sales.db/orders"; exit 1; }
# and statements piped on stdin run as their ';' arrives
got=$(printf 'SELECT count(*)\nFROM sales.orders;\nSELECT 1 + 1;\n' | c)
[[ $got == $'_c0\n2\n_c0\n2' ]] || { echo "stdin run: $got"; exit 1; }
echo ok
