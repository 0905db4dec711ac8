-- Expressions whose answers are Hive 4's (Java's) rules, each case found
-- wrong once: DIV, NaN, CHAR padding, casts from strings and doubles,
-- FLOAT arithmetic, Unicode case and LIKE, literal types, printing.
CREATE TABLE v (id INT, d DOUBLE, f FLOAT, c CHAR(5), s STRING, i INT)
STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO v VALUES
  (1, 0.0, 0.1, 'ab', '-3', 7),
  (2, CAST('NaN' AS DOUBLE), 1.5, 'abc', '7.9', -7),
  (3, CAST('-Infinity' AS DOUBLE), -0.0e0, NULL, '1d', NULL),
  (4, -0.0e0, NULL, 'é', ' 12 ', 2147483647),
  (5, NULL, 3.4028235E38, '', 'Infinity', -2147483648);
-- DIV: both sides become BIGINT (Hive's long division)
SELECT 5.5 DIV 2, -5.5 DIV 2, '7.9' DIV 2, 7 DIV 0, d DIV 1, s DIV 2 FROM v WHERE id = 2;
SELECT id, d DIV 2, f DIV 1, i DIV -1 FROM v ORDER BY id;
-- NaN equals nothing, not even itself, and passes neither BETWEEN nor NOT
-- BETWEEN (Hive's vectorized filters); it sorts after +Infinity
SELECT id, d = 0, d <> 0, d < 1, d >= 1, d BETWEEN -1 AND 1, d NOT BETWEEN -1 AND 1, d = d, d <=> d, d IN (0, 1), d IN (CAST('NaN' AS DOUBLE)), d IN (-0.0e0) FROM v ORDER BY id;
SELECT id, d FROM v ORDER BY d;
SELECT id, d FROM v ORDER BY d DESC;
SELECT min(d), max(d) FROM v;
SELECT d, count(*) FROM v GROUP BY d ORDER BY d;
-- CHAR(n) loses its padding wherever it becomes a string; a string constant
-- compared with a CHAR column becomes a CHAR first ('ab   ' equals 'ab')
SELECT id, c, length(c), concat(c, '|'), c || '|', CAST(c AS STRING), upper(c), c LIKE '%b', c = 'ab', c = 'ab   ', c IN ('abc', 'zz') FROM v ORDER BY id;
SELECT id, c = NULL, c <=> NULL, c IN (NULL), CASE c WHEN NULL THEN 'null' ELSE 'other' END FROM v WHERE id IN (1, 3) ORDER BY id;
-- strings to numbers: Hive's parsers, NULL when they fail or overflow
SELECT CAST('1.5' AS INT), CAST('-1.9' AS BIGINT), CAST(' 42 ' AS INT), CAST('2147483648' AS INT), CAST('-2147483648' AS INT), CAST('300' AS TINYINT), CAST('-128' AS TINYINT), CAST('1e3' AS INT), CAST('0x10' AS INT), CAST('' AS INT), CAST('.' AS INT), CAST('+' AS INT);
SELECT CAST('  ' AS DOUBLE), CAST('inf' AS DOUBLE), CAST('Infinity' AS DOUBLE), CAST('-Infinity' AS DOUBLE), CAST('NaN' AS DOUBLE), CAST('1d' AS DOUBLE), CAST('2.5f' AS DOUBLE), CAST('0x1.8p1' AS DOUBLE), CAST('1e' AS DOUBLE), CAST(' 1e2 ' AS DOUBLE), CAST('1,5' AS DOUBLE), CAST('.5' AS FLOAT);
-- doubles to integers narrow as Java casts do
SELECT CAST(3e9 AS INT), CAST(-3e9 AS INT), CAST(1e300 AS BIGINT), CAST(-1e300 AS BIGINT), CAST(9.25e18 AS BIGINT), CAST(CAST('NaN' AS DOUBLE) AS INT), CAST(300.7e0 AS TINYINT), CAST(-1.9e0 AS SMALLINT), CAST(1e10 AS TINYINT), CAST(CAST('Infinity' AS DOUBLE) AS SMALLINT);
-- booleans
SELECT CAST('false' AS BOOLEAN), CAST('OFF' AS BOOLEAN), CAST('No' AS BOOLEAN), CAST('0' AS BOOLEAN), CAST('' AS BOOLEAN), CAST('f' AS BOOLEAN), CAST('true' AS BOOLEAN), CAST('x' AS BOOLEAN), CAST(0.0 AS BOOLEAN), CAST(CAST('NaN' AS DOUBLE) AS BOOLEAN);
SELECT CAST(true AS STRING), CAST(false AS STRING), concat('is ', CAST(1 = 1 AS STRING)), true, false;
-- FLOAT arithmetic stays FLOAT; abs follows Hive's return types
SELECT id, f * 2, f + 1, f - f, f / 2, f % 1, -f, abs(f) FROM v ORDER BY id;
SELECT abs('-3'), abs(-7Y), abs(-2147483647), abs(-2147483648), abs(-9223372036854775807L), abs(CAST(-1.5 AS FLOAT)), abs(NULL);
-- literal types: digits decide, then '-' applies (-9223372036854775808 is
-- the negation of the DECIMAL 9223372036854775808)
SELECT -2147483648 * 2, 2147483647 + 1, 2147483648 * 2, -9223372036854775808, 9223372036854775807 + 1;
-- Unicode case as Java converts it; LIKE's _ is one character
SELECT upper('héllo ß'), lower('ÀÉÎ'), upper('ﬁx'), lower('ΟΔΟΣ ΣΑ'), upper('ǆ'), length(upper('ß')), lower(upper('straße'));
SELECT '日本' LIKE '__', '日本' LIKE '_', 'é' LIKE '_', 'aé' LIKE 'a_', 'é' LIKE '__', '日本語' LIKE '%_語', 'x日' LIKE '%日';
-- doubles and floats print as Java's Double/Float.toString (a number with
-- a '.' but no exponent is a DECIMAL: 0.001e0 is the double)
SELECT 4.9E-324, 1.7976931348623157E308, CAST(1.4E-45 AS FLOAT), CAST(3.4028235E38 AS FLOAT), 1e7, 1.0E-3, 0.001e0, 100.0e0 / 3, 1e21, 123456789.0e0, -0.0e0, 2e-3;
-- an expression over a GROUP BY key, positions in ORDER BY
SELECT upper(s), count(*) FROM v GROUP BY s ORDER BY 1;
SELECT i % 2, count(*), sum(id) * 10 FROM v GROUP BY i % 2 ORDER BY 2 DESC, 1;
SELECT id, s FROM v ORDER BY 2 DESC, 1 LIMIT 3;
SELECT count(*) AS n, max(id) - min(id) AS spread FROM v HAVING count(*) > 1;
-- without position aliases a number is a constant to sort by
SET hive.orderby.position.alias=false;
SELECT id FROM v WHERE id = 2 ORDER BY 3;
SET hive.orderby.position.alias=true;
SELECT id FROM v WHERE id = 2 ORDER BY 3;
