-- DECIMAL(p,s): exact scaled integers up to 38 digits, Hive 4's types for
-- literals and results, HALF_UP rounding, NULL on overflow.
-- Literals: a number with '.' and no exponent is a DECIMAL of its own
-- precision and scale, trailing zeros dropped (HiveDecimal.create); an
-- integer beyond BIGINT too; 39 digits or an exponent make a DOUBLE.
SELECT 1.5, 1.50, 0.05, 100.0, 0.0, -0.0, 1.5BD, 10BD, 1e3, 1.5D, 9223372036854775808, -9223372036854775808;
SELECT 99999999999999999999999999999999999999, -99999999999999999999999999999999999999, 999999999999999999999999999999999999999, 0.12345678901234567890123456789012345678901;
-- + - keep max(scale) and one more integer digit; * adds scales; / gives
-- at least 6 fraction digits; % keeps max(scale)
SELECT 1.5 + 1, 1.5 - 2.25, 1.5 * 2.25, 10.0 / 3, 1 / 3.0, 2 / 4.0, 7.5 % 2, -7.5 % 2, -1.5, abs(-1.5);
-- precision beyond 38: the scale gives way down to 6 digits (adjustPrecScale)
SELECT CAST(1 AS DECIMAL(38,37)) * CAST(1 AS DECIMAL(38,37)), CAST(12345678901234567890.123 AS DECIMAL(38,10)) * CAST(98765.4321 AS DECIMAL(20,10)), CAST(1 AS DECIMAL(38,0)) / CAST(3 AS DECIMAL(38,0));
-- overflow beyond 38 digits or the result's precision is NULL
SELECT 99999999999999999999999999999999999999 + 1, -99999999999999999999999999999999999999 - 1, 99999999999999999999999999999999999999 * 10, 1.5 / 0, 1.5 % 0, 0 / 0.0;
-- decimal with double or float computes in DOUBLE, with a string in
-- DOUBLE, with integers in DECIMAL (an integer constant counts its digits)
SELECT 1.5 + 1.5e0, 1.5 + '1', 1.5 + CAST(1 AS FLOAT), 1.5 * 2Y, 0.1 + 0.2, 0.1 + 0.2 = 0.3, 0.1e0 + 0.2e0 = 0.3e0, 7 DIV 2.5;
-- CAST to decimal: HALF_UP to the scale, NULL when the integer digits do
-- not fit; strings as HiveDecimal reads them; doubles through their text
SELECT CAST(2.5 AS DECIMAL(2,0)), CAST(-2.5 AS DECIMAL(2,0)), CAST(0.5 AS DECIMAL(1,0)), CAST(99.5 AS DECIMAL(2,0)), CAST(1.005 AS DECIMAL(5,2)), CAST(123456 AS DECIMAL(5,2)), CAST(-0.005 AS DECIMAL(3,2));
SELECT CAST('12.345' AS DECIMAL(5,2)), CAST('  1.25  ' AS DECIMAL(3,1)), CAST('1e2' AS DECIMAL(5,1)), CAST('-.5' AS DECIMAL(2,1)), CAST('abc' AS DECIMAL(5,1)), CAST('' AS DECIMAL(5,1)), CAST('1.2.3' AS DECIMAL(5,1));
SELECT CAST(0.1e0 AS DECIMAL(20,19)), CAST(CAST(0.1 AS FLOAT) AS DECIMAL(20,19)), CAST(1e50 AS DECIMAL(38,0)), CAST(CAST('NaN' AS DOUBLE) AS DECIMAL(5,2)), CAST(CAST('Infinity' AS DOUBLE) AS DECIMAL(5,2)), CAST(true AS DECIMAL(3,2));
-- CAST from decimal: integers truncate, NULL out of the type's range;
-- strings with the type's scale; doubles the nearest
SELECT CAST(1.9 AS INT), CAST(-1.9 AS INT), CAST(127.9 AS TINYINT), CAST(128.5 AS TINYINT), CAST(3000000000.5 AS INT), CAST(9223372036854775807.9 AS BIGINT), CAST(9223372036854775808.1 AS BIGINT);
SELECT CAST(1.5 AS DOUBLE), CAST(0.1 AS FLOAT), CAST(1.5 AS STRING), CAST(CAST(1.5 AS DECIMAL(5,3)) AS STRING), CAST(CAST(-0.5 AS DECIMAL(3,2)) AS VARCHAR(10)), CAST(1.5 AS BOOLEAN), CAST(0.0 AS BOOLEAN), CAST(12345678901234567890.12345678901234567 AS DOUBLE);
-- comparisons: decimals exactly whatever their scales, with integers and
-- strings as decimals, with doubles as decimals too (getCommonClassForComparison)
SELECT 1.5 = 1.50, 1.5 < 2, 2 = 2.0, 1.5 = '1.5', '1.50' > 1.49, 1.5 = 1.5e0, 0.1 = 0.1e0, CAST(1.5 AS DECIMAL(5,2)) IN (1.5, 2), 1.5 BETWEEN 1 AND 2, 1.5 <=> NULL;
-- CASE, IF, COALESCE unite decimals and integers in a decimal wide enough
-- for both; with doubles in a decimal too (getCommonClass)
SELECT coalesce(NULL, 1.5, 2), if(true, 1, 1.5), CASE WHEN false THEN 1.25 ELSE 3 END, coalesce(1.5, 1e0), nvl(CAST(NULL AS DECIMAL(5,2)), 7);
-- over a table's rows (DECIMAL columns themselves: columns_need_orc.sql.pending)
CREATE TABLE n (id INT, v DOUBLE, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO n VALUES (1, 0.1e0, '1.005'), (2, 2.5e0, '-2.5'), (3, NULL, NULL), (4, -1e30, 'x'), (5, 123.456e0, '0.000000000000000000000000000000000001');
SELECT id, CAST(v AS DECIMAL(10,2)), CAST(s AS DECIMAL(10,2)), CAST(s AS DECIMAL(38,37)), v = CAST(s AS DECIMAL(10,3)) FROM n ORDER BY id;
-- aggregates: sum is decimal(p+10, s), avg decimal(p, s+4); min/max keep the type
SELECT sum(CAST(id AS DECIMAL(10,2))), avg(CAST(id AS DECIMAL(10,2))), sum(id * 1.5), avg(id * 1.5), min(id * 1.5), max(id * 1.5), count(id * 1.5) FROM n;
SELECT sum(CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0))) FROM n;
SELECT avg(CAST(id AS DECIMAL(38,36))), avg(CAST(v AS DECIMAL(5,1))), sum(CAST(v AS DECIMAL(5,1))) FROM n WHERE id < 3;
-- GROUP BY and ORDER BY decimals
SELECT CAST(id % 2 AS DECIMAL(3,1)) AS k, count(*), sum(id * 0.1) FROM n GROUP BY CAST(id % 2 AS DECIMAL(3,1)) ORDER BY k DESC;
SELECT id, CAST(s AS DECIMAL(10,3)) AS d FROM n ORDER BY d, id;
-- a constant compared with a decimal value is a decimal; a decimal
-- compared with a double column a double
SELECT id FROM n WHERE v = 2.5 ORDER BY id;
SELECT id FROM n WHERE CAST(s AS DECIMAL(10,3)) = '1.005' ORDER BY id;
-- HiveDecimal keeps 38 digits: division rounds to 38 fraction digits
-- first, sums needing 39 digits are cut to 38, then the type's scale
SELECT 127 / 0.000000000000000000011, CAST(1 AS DECIMAL(20,18)) + 99999999999999999999.99, CAST(-1 AS DECIMAL(20,18)) - 99999999999999999999.99, 2 / 3.0, -2 / 3.0;
-- IN brings its values to one decimal type (GenericUDFIn)
SELECT 1 IN (1.5, 12345678901234567890123456789012345678), 2 IN (1.5, 12345678901234567890123456789012345678), 1.5 IN (1.50, 2);
-- products and sums of column values at the edges of 64 bits (comb's
-- 64-bit fast paths) and beyond them; 10^38 has 39 digits: NULL
CREATE TABLE d64 (x DECIMAL(19,0), y DECIMAL(20,0), z DECIMAL(18,18));
INSERT INTO d64 VALUES (9223372036854775807, 10000000000000000000, 0.999999999999999999), (-9223372036854775808, -9999999999999999999, -0.000000000000000001);
SELECT x * x, x * y, y * y, x + 0.5, x - 0.25, x + z, x * z, z * z, z + z FROM d64 ORDER BY x;
