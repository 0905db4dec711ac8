#!/usr/bin/env bash
# Every SQL golden test (tests/sql) once more with the metastore on a
# PostgreSQL server: each test's warehouse gets a database of its own, and
# its expected output is the SQLite one without the warehouse's
# metastore.db, which a PostgreSQL metastore does not create.
# COMB_SQL_SHARD=k/n runs every n-th test from the k-th (0 <= k < n):
# tests/run.sh spreads the run over its jobs that way.
set -u
shard=${COMB_SQL_SHARD:-0/1}
[[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] && ((BASH_REMATCH[1] < BASH_REMATCH[2])) || {
    echo "COMB_SQL_SHARD=$shard: expected k/n with 0 <= k < n" >&2; exit 2; }
shard_k=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]}
. "$(dirname "$0")/lib/pg.bash"
pg_start
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASE=$(mktemp -d)
pg_cleanup() { rm -rf "$BASE"; }
# comb with --metastore added: the database named after the warehouse
cat > "$BASE/comb" <<WRAP
#!/usr/bin/env bash
wh=
for ((i = 1; i < \$#; i++)); do
    [[ \${!i} == --warehouse ]] && { j=\$((i + 1)); wh=\${!j}; }
done
db=w\$(printf '%s' "\$wh" | md5sum | cut -c1-16)
bash "$PG_SERVER" createdb "$PG_DIR" "\$db" > /dev/null 2>&1
exec "$COMB" --metastore "\$(bash "$PG_SERVER" url "$PG_DIR" "\$db")" "\$@"
WRAP
chmod +x "$BASE/comb"
failed=()
i=-1
while IFS= read -r t; do
    i=$((i + 1))
    ((i % shard_n == shard_k)) || continue
    copy=$BASE/tests/${t#"$ROOT"/tests/sql/}
    mkdir -p "$(dirname "$copy")"
    cp "$t" "$copy"
    grep -vx 'metastore.db' "${t%.sql}.out" > "${copy%.sql}.out"
    if ! out=$(COMB=$BASE/comb bash "$ROOT/tests/sqltest.sh" "$copy" 2>&1); then
        failed+=("${t#"$ROOT"/}")
        echo "$out" | head -40
    fi
done < <(find "$ROOT/tests/sql" -name '*.sql' | sort)
((${#failed[@]} == 0)) || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
echo ok
