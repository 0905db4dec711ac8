-- Input that once lost data or misbehaved: NUL bytes, a byte-order mark, a
-- directory given as a script, huge identifiers, long OR lists, many
-- arguments, values beyond BIGINT.
CREATE TABLE t (i INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'one'), (2, 'two');
-- a NUL inside a statement is a syntax error at its position, not its end
-- @sh printf 'DELETE FROM t\0 WHERE i = 1;\n' > nul.sql && "$COMB" --warehouse "$WH" -f nul.sql; echo "exit $?"
-- @sh printf "SELECT 'a\0b';\n" | "$COMB" --warehouse "$WH"; echo "exit $?"
-- @sh printf 'SELECT count(*)\0 FROM t;\n' | "$COMB" --warehouse "$WH"; echo "exit $?"
SELECT count(*) FROM t;
-- a UTF-8 byte-order mark before the first statement is skipped
-- @sh printf '\357\273\277SELECT count(*) FROM t;\n' > bom.sql && "$COMB" --warehouse "$WH" -f bom.sql; echo "exit $?"
-- @sh printf '\357\273\277SELECT 1;\n' | "$COMB" --warehouse "$WH" --outputformat tsv; echo "exit $?"
-- a directory is not a script
-- @sh mkdir -p adir && "$COMB" --warehouse "$WH" -f adir; echo "exit $?"
-- @sh "$COMB" --warehouse "$WH" -f missing.sql; echo "exit $?"
-- an identifier no name can match is refused where it stands, briefly
-- @sh awk 'BEGIN { printf "SELECT "; for (k = 0; k < 100000; k++) printf "abcdefghij"; print " FROM t;" }' > long.sql && "$COMB" --warehouse "$WH" -f long.sql; echo "exit $?"
-- @sh awk 'BEGIN { s = "SELECT * FROM `"; for (k = 0; k < 100; k++) s = s "abcdefghij"; print s "`;" }' > long2.sql && "$COMB" --warehouse "$WH" -f long2.sql; echo "exit $?"
-- 3,000 ORed terms are a list, not a nesting
-- @sh awk 'BEGIN { s = "SELECT count(*) FROM t WHERE i = -1"; for (k = 0; k < 3000; k++) s = s " OR i = " k; print s ";" }' > ors.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f ors.sql; echo "exit $?"
-- @sh awk 'BEGIN { s = "SELECT count(*) FROM t WHERE i > 0"; for (k = 0; k < 3000; k++) s = s " AND s <> '"'"'x" k "'"'"'"; print s ";" }' > ands.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f ands.sql; echo "exit $?"
-- concat and coalesce take any number of arguments
-- @sh awk 'BEGIN { s = "SELECT length(concat(s"; for (k = 0; k < 200; k++) s = s ", '"'"'ab'"'"'"; s = s ")), coalesce(NULL"; for (k = 0; k < 100; k++) s = s ", NULL"; print s ", s) FROM t ORDER BY 1;" }' > args.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f args.sql; echo "exit $?"
-- values beyond BIGINT are errors when stored; CAST clamps as Java does
CREATE TABLE b (x BIGINT, y INT);
INSERT INTO b VALUES (9223372036854775808, 1);
INSERT INTO b VALUES (9223372036854775807.5e0, 1);
INSERT INTO b VALUES (-9223372036854775809, 1);
INSERT INTO b VALUES (1, 2147483648);
INSERT INTO b VALUES (1, CAST('NaN' AS DOUBLE));
INSERT INTO b VALUES (-9223372036854775808, 3.7), (9223372036854775807, -2.9);
SELECT x, y, CAST(9.25e18 AS BIGINT), CAST(-9.25e18 AS BIGINT) FROM b ORDER BY x;
UPDATE b SET y = 1e10;
UPDATE b SET y = x;
SELECT x, y FROM b ORDER BY x;
-- a NUL inside a value is printed, not the end of it, in every output form
-- @sh for f in table tsv csv; do "$COMB" --warehouse "$WH" --outputformat $f -e "SELECT 'a\0b' AS x, 'c,\0d' AS y, length('a\0b') AS n" | od -An -c; done
