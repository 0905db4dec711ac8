#!/usr/bin/env bash
# The SQL golden tests that touch no file themselves (no "-- @sh" line)
# once more with the warehouse on an S3 server (tests/s3/server.mjs:
# s3rver behind a proxy that checks every request's signature), the
# metastore a local file: the output must be the local-disk one.  Paths
# print as the store's locations there, so the wrapper maps each test's
# s3a:// warehouse back to its local name, and the expected output's
# "file:" URIs lose their scheme the same way.
# COMB_SQL_SHARD=k/n runs every n-th test from the k-th.
set -u
shard=${COMB_SQL_SHARD:-0/1}
[[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] && ((BASH_REMATCH[1] < BASH_REMATCH[2])) || {
    echo "COMB_SQL_SHARD=$shard: expected k/n with 0 <= k < n" >&2; exit 2; }
shard_k=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]}
. "$(dirname "$0")/lib/s3.bash"
s3_start golden
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASE=$(mktemp -d)
trap 'rc=$?; s3_stop || rc=1; rm -rf "$BASE"; exit $rc' EXIT
# comb with the warehouse moved onto the store, under a prefix of its own
cat > "$BASE/comb" <<WRAP
#!/usr/bin/env bash
set -o pipefail
args=() wh=
while ((\$#)); do
    if [[ \$1 == --warehouse ]]; then wh=\$2; shift 2; continue; fi
    args+=("\$1"); shift
done
id=\$(printf '%s' "\$wh" | md5sum | cut -c1-16)
remote=s3a://golden/\$id/warehouse
"$COMB" --warehouse "\$remote" --metastore "\$wh.metastore.db" \\
    --hiveconf fs.s3a.endpoint="$COMB_TEST_S3_ENDPOINT" \\
    --hiveconf fs.s3a.path.style.access=true "\${args[@]}" 2>&1 |
    sed "s|\$remote|\$wh|g"
WRAP
chmod +x "$BASE/comb"
failed=() ran=0
i=-1
while IFS= read -r t; do
    grep -q '^-- @sh' "$t" && continue
    i=$((i + 1))
    ((i % shard_n == shard_k)) || continue
    copy=$BASE/tests/${t#"$ROOT"/tests/sql/}
    mkdir -p "$(dirname "$copy")"
    cp "$t" "$copy"
    sed 's|file:\$WH|$WH|g' "${t%.sql}.out" > "${copy%.sql}.out"
    ran=$((ran + 1))
    if ! out=$(COMB=$BASE/comb bash "$ROOT/tests/sqltest.sh" "$copy" 2>&1); then
        failed+=("${t#"$ROOT"/}")
        echo "$out" | head -40
    fi
done < <(find "$ROOT/tests/sql" -name '*.sql' | sort)
((${#failed[@]} == 0)) || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
echo "ok ($ran tests on the store)"
