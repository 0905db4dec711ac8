#!/usr/bin/env bash
# Differential test of the query engine (issue 8): random queries with
# joins (inner, outer, semi, comma, three-way ones reordered, non-equi), subqueries (IN,
# NOT IN, EXISTS, NOT EXISTS, correlated and scalar ones), set operations,
# aggregates with GROUP BY / HAVING / DISTINCT and derived tables, over
# random tables with NULLs, run by comb and by SQLite (Debian's sqlite3) on
# the same rows; each query's rows, sorted, must be the same.
#
#   QUERIES=N (default 400), SEED=S (default 8), KEEP=1 keeps the files
#
# The Hive-vs-SQLite differences are mapped in the generator, one
# statement text per engine where they differ:
#   - LEFT SEMI JOIN (Hive) is EXISTS in SQLite;
#   - a <=> b (Hive) is a IS b in SQLite;
#   - only INT columns and aggregates whose result types agree (count, sum,
#     min, max of INT) are used: Hive's avg / division give DOUBLE or
#     DECIMAL text SQLite prints differently;
#   - INTERSECT / EXCEPT without ALL (SQLite has no ALL forms);
#   - NULL prints as NULL in both (sqlite3 -nullvalue NULL).
set -eu
command -v sqlite3 >/dev/null || { echo "sqlite3 missing"; exit 77; }
QUERIES=${QUERIES:-400}
SEED=${SEED:-8}
WH=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WH"' EXIT

# the data: three small tables, small value domains so that joins match
awk -v seed="$SEED" 'BEGIN {
    srand(seed)
    split("t1 t2 t3", tn, " ")
    for (t = 1; t <= 3; t++) {
        n = 20 + int(rand() * 30)
        printf "INSERT INTO %s VALUES ", tn[t]
        for (r = 0; r < n; r++) {
            a = rand() < 0.15 ? "NULL" : int(rand() * 7)
            b = rand() < 0.2 ? "NULL" : int(rand() * 10)
            printf "%s(%s, %s)", r ? ", " : "", a, b
        }
        print ";"
    }
}' > "$WH/data.sql"

# the queries: "C<TAB>comb text" and "S<TAB>sqlite text" lines, in pairs
awk -v seed="$SEED" -v n="$QUERIES" '
function r(k) { return int(rand() * k) }
function pick(s,   a, m) { m = split(s, a, "|"); return a[1 + r(m)] }
function cmp() { return pick("<|<=|>|>=|=|<>") }
function q(c, s) { printf "C\t%s\nS\t%s\n", c, s }
function same(t) { q(t, t) }
BEGIN {
    srand(seed + 1)
    for (i = 0; i < n; i++) {
        k = r(10); t = pick("t1|t2|t3"); u = pick("t1|t2|t3"); op = cmp()
        w = "x.b " cmp() " " k
        c = r(16)
        if (c == 0)
            same("SELECT x.a, x.b, y.b FROM " t " x " pick("JOIN|LEFT JOIN|RIGHT JOIN|FULL OUTER JOIN") " " u " y ON x.a = y.a" pick("| AND x.b " op " y.b| AND y.b " op " " k))
        else if (c == 1)
            same("SELECT x.a, y.b FROM " t " x, " u " y WHERE x.a = y.a AND " w)
        else if (c == 2)
            same("SELECT x.a, y.b, z.b FROM t1 x JOIN t2 y ON x.a = y.a LEFT JOIN t3 z ON y.b = z.b" pick("| WHERE z.a IS NULL| WHERE x.b " op " z.a"))
        else if (c == 3)
            same("SELECT x.a, x.b FROM " t " x WHERE x.a " pick("IN|NOT IN") " (SELECT y.a FROM " u " y" pick("| WHERE y.b " op " " k "| WHERE y.a IS NOT NULL| WHERE y.b " op " x.b") ")")
        else if (c == 4)
            same("SELECT x.a, x.b FROM " t " x WHERE " pick("EXISTS|NOT EXISTS") " (SELECT 1 FROM " u " y WHERE y.a = x.a" pick("| AND y.b " op " x.b| AND y.b " op " " k) ")")
        else if (c == 5)
            same("SELECT x.a, (SELECT " pick("max|min|count|sum") "(y.b) FROM " u " y WHERE y.a = x.a) FROM " t " x")
        else if (c == 6)
            same("SELECT x.a FROM " t " x WHERE x.b " op " (SELECT " pick("max|min|count") "(y.b) FROM " u " y" pick("| WHERE y.a = x.a") ")")
        else if (c == 7)
            same("SELECT a, b FROM " t " WHERE b " op " " k " " pick("UNION|UNION ALL|INTERSECT|EXCEPT") " SELECT a, b FROM " u " WHERE a " cmp() " " r(7))
        else if (c == 8)
            same("SELECT x.a, count(*), sum(y.b), min(y.b), max(x.b) FROM " t " x LEFT JOIN " u " y ON x.a = y.a GROUP BY x.a" pick("| HAVING count(*) > " r(4) "| HAVING sum(y.b) " op " " k * 3))
        else if (c == 9)
            same("SELECT x.b, count(DISTINCT x.a), count(x.a), count(*) FROM " t " x WHERE " w " GROUP BY x.b")
        else if (c == 10)
            same("SELECT q.a, q.n, y.b FROM (SELECT a, count(*) AS n FROM " t " GROUP BY a) q JOIN " u " y ON q.a = y.a WHERE q.n " op " " r(5))
        else if (c == 11)
            q("SELECT x.a, x.b FROM " t " x LEFT SEMI JOIN " u " y ON x.a = y.a AND y.b " op " x.b",
              "SELECT x.a, x.b FROM " t " x WHERE EXISTS (SELECT 1 FROM " u " y WHERE x.a = y.a AND y.b " op " x.b)")
        else if (c == 12)
            q("SELECT x.a, y.a FROM " t " x JOIN " u " y ON x.b <=> y.b AND x.a " op " y.a",
              "SELECT x.a, y.a FROM " t " x JOIN " u " y ON x.b IS y.b AND x.a " op " y.a")
        else if (c == 14)
            same("SELECT x.a, x.b FROM " t " x WHERE " pick("x.a IN|x.a NOT IN|EXISTS|NOT EXISTS") " (SELECT " pick("max|min|count") "(y.a) FROM " u " y WHERE y.b = x.b)")
        else if (c == 13)
            same("SELECT x.a, y.b, z.b FROM t1 x, t2 y, t3 z WHERE x.a = y.a AND y.b = z.b AND " w)
        else
            same("SELECT DISTINCT x.a, y.b FROM " t " x JOIN " u " y ON x.a " op " y.a AND x.b = y.b")
    }
}' > "$WH/pairs.txt"

# one script per engine; each query after a marker query giving its number
{
    echo "CREATE TABLE t1 (a INT, b INT); CREATE TABLE t2 (a INT, b INT); CREATE TABLE t3 (a INT, b INT);"
    cat "$WH/data.sql"
    awk -F'\t' '$1 == "C" { printf "SELECT %d AS marker_q;\n%s;\n", ++i, $2 }' "$WH/pairs.txt"
} > "$WH/comb.sql"
{
    echo ".headers off"
    echo ".nullvalue NULL"
    echo ".separator \"\t\""
    echo "CREATE TABLE t1 (a INT, b INT); CREATE TABLE t2 (a INT, b INT); CREATE TABLE t3 (a INT, b INT);"
    cat "$WH/data.sql"
    awk -F'\t' '$1 == "S" { printf "SELECT \047#%d\047;\n%s;\n", ++i, $2 }' "$WH/pairs.txt"
} > "$WH/sqlite.sql"

"$COMB" --warehouse "$WH/wh" --outputformat tsv --silent -f "$WH/comb.sql" > "$WH/comb.out" 2> "$WH/comb.err" || true
sqlite3 "$WH/db.sqlite" < "$WH/sqlite.sql" > "$WH/sqlite.out" 2> "$WH/sqlite.err" || true
if [[ -s $WH/comb.err || -s $WH/sqlite.err ]]; then
    echo "errors:"; head -20 "$WH/comb.err" "$WH/sqlite.err"; exit 1
fi

# per query: its rows sorted, "#N" before them
awk '$0 == "marker_q" { getline; printf "#%s\n", $0; getline; next } { print }' "$WH/comb.out" |
    awk '/^#[0-9]+$/ { n = $0; print; next } { print n "\t" $0 }' | sort -t'	' -k1,1V -s > "$WH/c.sorted"
awk '/^#[0-9]+$/ { n = $0; print; next } { print n "\t" $0 }' "$WH/sqlite.out" |
    sort -t'	' -k1,1V -s > "$WH/s.sorted"
sort "$WH/c.sorted" > "$WH/c.txt"
sort "$WH/s.sorted" > "$WH/s.txt"
if ! cmp -s "$WH/c.txt" "$WH/s.txt"; then
    bad=$(diff "$WH/c.txt" "$WH/s.txt" | grep -o '#[0-9]*' | sort -u | head -5)
    for b in $bad; do
        nq=${b#\#}
        echo "query $nq differs:"
        awk -F'\t' -v n="$nq" '$1 == "C" && ++i == n { print "  comb:   " $2 } $1 == "S" && ++j == n { print "  sqlite: " $2 }' "$WH/pairs.txt"
        diff <(grep "^$b	" "$WH/c.txt") <(grep "^$b	" "$WH/s.txt") | head -10
    done
    exit 1
fi
if [[ -n ${KEEP:-} ]]; then echo "kept $WH"; fi
echo "ok: $QUERIES queries agree ($(grep -vc "^#[0-9]*$" "$WH/c.txt") rows)"
