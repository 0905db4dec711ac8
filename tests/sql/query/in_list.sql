-- IN lists of constants are searched as a sorted set (one binary search
-- a row, no batch-wide vector per constant), and `x = c1 OR x = c2 ...`
-- becomes `x IN (c1, c2, ...)` as Hive's point lookup optimizer does
-- (hive.optimize.point.lookup, hive.optimize.point.lookup.min).  Every
-- answer below is checked against the form that keeps the old path: a list
-- with a column in it is compared value by value, and the OR is kept with
-- hive.optimize.point.lookup=false.
CREATE TABLE v (id INT, ti TINYINT, si SMALLINT, bi BIGINT, b BOOLEAN,
  d DECIMAL(10,2), s STRING, vc VARCHAR(5), c CHAR(4), dt DATE, ts TIMESTAMP,
  f FLOAT, db DOUBLE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO v VALUES
  (1, 1, 100, 10000000000, true, 1.50, 'a', 'ab', 'ab', '2024-01-01', '2024-01-01 00:00:00.5', 0.0, 0.0),
  (2, -128, -32768, -9223372036854775808, false, -0.01, '', 'abcde', 'abcd', '0001-01-01', '1969-12-31 23:59:58.999999999', -0.0, -0.0),
  (3, 127, 32767, 9223372036854775807, NULL, 99999999.99, 'zz', '', '', '9999-12-31', '2024-01-01 00:00:00', 1.5, CAST('NaN' AS DOUBLE)),
  (4, NULL, NULL, NULL, true, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, 0, 0, 0, false, 0.00, 'A', 'AB', 'AB  ', '2024-02-29', '2024-02-29 12:00:00.000000001', CAST('Infinity' AS FLOAT), -1e308);

-- every kind: the set against the value-by-value list (a column in it)
SELECT id FROM v WHERE ti IN (127, -128, 5) ORDER BY id;
SELECT id FROM v WHERE ti IN (127, -128, 5, id + 100) ORDER BY id;
SELECT id FROM v WHERE si IN (-32768, 32767) ORDER BY id;
SELECT id FROM v WHERE bi IN (-9223372036854775808, 9223372036854775807, 0) ORDER BY id;
SELECT id FROM v WHERE bi IN (-9223372036854775808, 9223372036854775807, 0, id * 0 + 7) ORDER BY id;
SELECT id FROM v WHERE b IN (true) ORDER BY id;
SELECT id FROM v WHERE b NOT IN (true) ORDER BY id;
-- decimals of other scales than the column's compare by value
SELECT id FROM v WHERE d IN (1.5, -0.010, 99999999.99, 7) ORDER BY id;
SELECT id FROM v WHERE d IN (1.5, -0.010, 99999999.99, 7, d + 1) ORDER BY id;
SELECT id FROM v WHERE s IN ('a', '', 'A', 'b') ORDER BY id;
SELECT id FROM v WHERE s IN ('a', '', 'A', 'b', concat(s, 'x')) ORDER BY id;
SELECT id FROM v WHERE vc IN ('ab', '', 'abcde') ORDER BY id;
SELECT id FROM v WHERE c IN ('ab', 'AB', 'abcd') ORDER BY id;
SELECT id FROM v WHERE c IN ('ab', 'AB', 'abcd', concat(c, 'x')) ORDER BY id;
SELECT id FROM v WHERE dt IN ('2024-02-29', '0001-01-01', '9999-12-31') ORDER BY id;
SELECT id FROM v WHERE dt IN (DATE '2024-02-29', DATE '0001-01-01', DATE '9999-12-31', date_add(dt, 1)) ORDER BY id;
SELECT id FROM v WHERE ts IN (TIMESTAMP '2024-01-01 00:00:00.5', TIMESTAMP '1969-12-31 23:59:58.999999999', TIMESTAMP '2024-02-29 12:00:00.000000001') ORDER BY id;
SELECT id FROM v WHERE ts IN (TIMESTAMP '2024-01-01 00:00:00.5', TIMESTAMP '1969-12-31 23:59:58.999999999', TIMESTAMP '2024-02-29 12:00:00.000000001', CAST(concat('1900-01-0', id) AS TIMESTAMP)) ORDER BY id;
-- doubles as IN sees them: -0.0 does not find 0.0, NaN finds nothing
SELECT id FROM v WHERE db IN (0.0, -1e308) ORDER BY id;
SELECT id FROM v WHERE db IN (-0.0) ORDER BY id;
SELECT id FROM v WHERE db IN (-0.0, id * 0.0 + 99) ORDER BY id;
SELECT id FROM v WHERE db IN (CAST('NaN' AS DOUBLE)) ORDER BY id;
SELECT id FROM v WHERE f IN (CAST('Infinity' AS FLOAT), 1.5) ORDER BY id;

-- NULL: in the list, a row without a match is NULL (NOT IN drops it too)
SELECT id, ti IN (1, NULL), ti NOT IN (1, NULL), ti IN (1, 2) FROM v ORDER BY id;
SELECT id FROM v WHERE ti NOT IN (1, NULL) ORDER BY id;
SELECT id FROM v WHERE ti NOT IN (1, 2) ORDER BY id;
SELECT id FROM v WHERE ti IN (NULL, NULL) ORDER BY id;
-- duplicates in the list
SELECT id FROM v WHERE id IN (3, 3, 1, 3, 1) ORDER BY id;

-- point lookups: the equalities of one expression become one IN; other
-- disjuncts stay beside it, in their order
EXPLAIN SELECT id FROM v WHERE id = 1 OR id = 3 OR s = 'zz' OR 5 = id OR s = 'A';
SELECT id FROM v WHERE id = 1 OR id = 3 OR s = 'zz' OR 5 = id OR s = 'A' ORDER BY id;
SET hive.optimize.point.lookup=false;
SELECT id FROM v WHERE id = 1 OR id = 3 OR s = 'zz' OR 5 = id OR s = 'A' ORDER BY id;
EXPLAIN SELECT id FROM v WHERE id = 1 OR id = 3;
SET hive.optimize.point.lookup=true;
-- below hive.optimize.point.lookup.min equalities the OR stays
SET hive.optimize.point.lookup.min=3;
EXPLAIN SELECT id FROM v WHERE id = 1 OR id = 3 OR s = 'a';
EXPLAIN SELECT id FROM v WHERE id = 1 OR id = 3 OR id = 4;
SET hive.optimize.point.lookup.min=2;
-- not over doubles (= finds 0.0 for -0.0), nor a NULL constant, nor <=>
EXPLAIN SELECT id FROM v WHERE db = 0.0 OR db = 1.5;
SELECT id FROM v WHERE db = 0.0 OR db = 1.5 ORDER BY id;
EXPLAIN SELECT id FROM v WHERE id = 1 OR id = NULL OR id <=> 2 OR id <=> 3;
SELECT id FROM v WHERE id = 1 OR id = NULL OR id <=> 2 OR id <=> 3 ORDER BY id;
-- an expression, not only a column; and a NULL row of it
EXPLAIN SELECT id FROM v WHERE upper(s) = 'A' OR upper(s) = 'ZZ';
SELECT id, upper(s) = 'A' OR upper(s) = 'ZZ' FROM v ORDER BY id;
-- in a join condition and under NOT
SELECT a.id, b.id FROM v a JOIN v b ON a.id = b.id AND (b.ti = 1 OR b.ti = 127) ORDER BY a.id;
SELECT id FROM v WHERE NOT (id = 1 OR id = 2) ORDER BY id;
-- in UPDATE and DELETE
UPDATE v SET s = 'upd' WHERE id = 2 OR id = 4 OR id = 99;
SELECT id, s FROM v ORDER BY id;
DELETE FROM v WHERE id = 2 OR id = 4;
SELECT id FROM v ORDER BY id;

-- thousands long, as tools write them: the same count each way
-- @sh awk 'BEGIN { s = "SELECT count(*) FROM v WHERE id = -1"; for (k = 0; k < 5000; k++) s = s " OR id = " k; print s ";" }' > ors.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f ors.sql
-- @sh awk 'BEGIN { s = "SELECT count(*) FROM v WHERE id IN (-1"; for (k = 5000; k > 0; k--) s = s ", " k; print s ");" }' > ins.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f ins.sql
-- @sh awk 'BEGIN { s = "SELECT count(*) FROM v WHERE s NOT IN (\"x\""; for (k = 0; k < 5000; k++) s = s ", \"s" k "\""; print s ");" }' > notin.sql && "$COMB" --warehouse "$WH" --outputformat tsv -f notin.sql
