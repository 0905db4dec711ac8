-- Views: CREATE [OR REPLACE] VIEW with and without a column list, views
-- over views, a view's query bound when used (a dropped table, a view
-- that reads itself), names from any database, DESCRIBE, ALTER VIEW,
-- DROP VIEW, and every refusal with Hive's text.
CREATE TABLE sales (id INT, region STRING, amount DECIMAL(8,2))
  PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO sales PARTITION (ds) VALUES
  (1, 'eu', 10.00, 'd1'), (2, 'us', 20.00, 'd1'), (3, 'eu', 30.00, 'd2'),
  (4, NULL, 40.00, 'd2'), (5, 'us', 50.00, 'd3');

-- column names as Hive records them: aliases, column names, _cN
CREATE VIEW v_all AS SELECT * FROM sales;
CREATE VIEW v_calc AS SELECT id, amount * 2 AS doubled, upper(region), count(*) FROM sales GROUP BY id, amount, region;
DESCRIBE v_calc;
SELECT * FROM v_calc ORDER BY id;
SELECT v_all.id, ds FROM v_all WHERE region = 'eu' ORDER BY id;

-- a column list names the columns (and may comment them); the view's own
-- COMMENT and TBLPROPERTIES
CREATE VIEW IF NOT EXISTS v_named (k COMMENT 'the id', r) COMMENT 'named'
  TBLPROPERTIES ('owner.team' = 'sales') AS SELECT id, region FROM sales WHERE amount > 15;
DESCRIBE v_named;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED v_named" | grep -E 'Location|Table Type|bucketing|owner.team|InputFormat'
SELECT k, r FROM v_named ORDER BY k;
SELECT * FROM v_named x WHERE x.k > 3 ORDER BY x.k;

-- views over views, aggregates inside and outside
CREATE VIEW v_region AS SELECT region, sum(amount) AS total, count(*) AS n FROM v_all GROUP BY region;
CREATE VIEW v_big AS SELECT * FROM v_region WHERE total > 30;
SELECT * FROM v_big ORDER BY region;
SELECT count(*), sum(n) FROM v_region;
SHOW TABLES;

-- a condition on a partition key prunes through every view level
SELECT id FROM v_all WHERE ds = 'd2' ORDER BY id;
EXPLAIN SELECT k FROM v_named WHERE k < 5;
CREATE VIEW v_days AS SELECT id, ds AS day FROM v_all;
EXPLAIN SELECT id FROM v_days WHERE day = 'd3';

-- views feed INSERT ... SELECT and CREATE TABLE AS SELECT
CREATE TABLE region_totals (region STRING, total DECIMAL(18,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO region_totals SELECT region, total FROM v_region WHERE region IS NOT NULL;
SELECT * FROM region_totals ORDER BY region;
CREATE TABLE from_view AS SELECT * FROM v_named;
SELECT * FROM from_view ORDER BY k;

-- OR REPLACE, IF NOT EXISTS
CREATE VIEW v_named AS SELECT 1;
CREATE VIEW IF NOT EXISTS v_named AS SELECT 1;
SELECT * FROM v_named ORDER BY k;
CREATE OR REPLACE VIEW v_named AS SELECT id AS k, amount FROM sales WHERE id < 3;
DESCRIBE v_named;
SELECT * FROM v_named ORDER BY k;
CREATE OR REPLACE VIEW IF NOT EXISTS v_named AS SELECT 1;
CREATE OR REPLACE VIEW sales AS SELECT 1;

-- ALTER VIEW
ALTER VIEW v_calc AS SELECT id FROM sales WHERE id = 5;
SELECT * FROM v_calc;
ALTER VIEW v_calc SET TBLPROPERTIES ('k1' = 'v1');
ALTER VIEW v_calc SET TBLPROPERTIES ('k1' = 'v2', 'k2' = 'x');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED v_calc" | grep -E 'Table Type|k1|k2'
ALTER VIEW nosuch AS SELECT 1;
ALTER VIEW sales AS SELECT 1;
ALTER VIEW sales SET TBLPROPERTIES ('k' = 'v');
ALTER VIEW nosuch SET TBLPROPERTIES ('k' = 'v');
-- ALTER VIEW's other forms are ALTER's: RENAME TO, UNSET TBLPROPERTIES;
-- ALTER VIEW AS keeps the properties; ALTER TABLE and TRUNCATE refuse a
-- view (10131, 10146), ALTER VIEW a table (10132)
ALTER VIEW v_calc RENAME TO v_calc2;
SELECT * FROM v_calc2;
SELECT * FROM v_calc;
ALTER VIEW v_calc2 UNSET TBLPROPERTIES ('k2');
ALTER VIEW v_calc2 AS SELECT id, amount FROM sales WHERE id < 3;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED v_calc2" | grep -E 'k1|k2|Query:'
SELECT * FROM v_calc2 ORDER BY id;
ALTER TABLE v_calc2 RENAME TO v_x;
ALTER TABLE v_calc2 SET TBLPROPERTIES ('a' = 'b');
TRUNCATE TABLE v_calc2;
ALTER VIEW sales RENAME TO s2;
ALTER VIEW v_calc2 ADD COLUMNS (x INT);
SHOW TABLES;

-- a view's table names are found in the database current when it is
-- made, whatever database it is in and is used from
CREATE DATABASE other;
CREATE TABLE other.t (x INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO other.t VALUES (7);
CREATE TABLE t (x INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1);
USE other;
CREATE VIEW default.v_other AS SELECT x FROM t;
USE default;
SELECT * FROM v_other;
USE other;
SELECT * FROM default.v_other;
USE default;
CREATE VIEW nodb.v AS SELECT 1;

-- errors in the query are the query's; column list mismatches; duplicates
CREATE VIEW v_bad AS SELECT nosuch FROM sales;
CREATE VIEW v_bad AS SELECT * FROM nosuch;
CREATE VIEW v_bad (a, b) AS SELECT id FROM sales;
CREATE VIEW v_bad AS SELECT id, id FROM sales;
CREATE VIEW v_bad (a, a) AS SELECT id, region FROM sales;
SELECT * FROM v_bad;

-- a view is no target of writes
INSERT INTO v_all SELECT * FROM sales;
UPDATE v_all SET amount = 0;
DELETE FROM v_all WHERE id = 1;
-- @sh printf '9\teu\t1.00\n' > data.txt
LOAD DATA LOCAL INPATH '${env:WH}/data.txt' INTO TABLE v_all;

-- DROP VIEW and DROP TABLE refuse each other's objects
DROP TABLE v_all;
DROP TABLE IF EXISTS v_all;
DROP VIEW sales;
DROP VIEW IF EXISTS sales;
DROP VIEW nosuch;
DROP VIEW IF EXISTS nosuch;
SELECT count(*) FROM v_all;
SELECT count(*) FROM sales;

-- the query is bound when used: a dropped table (or view) is an error that
-- names the view, through every level
CREATE VIEW v_t AS SELECT x FROM t;
DROP TABLE t;
SELECT * FROM v_t;
DROP VIEW v_region;
SELECT * FROM v_big;
DROP VIEW v_big;
DROP VIEW v_t;

-- a view that reads itself (through OR REPLACE)
CREATE VIEW v1 AS SELECT id FROM sales;
CREATE VIEW v2 AS SELECT id FROM v1;
CREATE OR REPLACE VIEW v1 AS SELECT id FROM v2;
SELECT * FROM v2;

-- DROP DATABASE CASCADE drops its views too (they have no directory)
CREATE VIEW other.v_in_other AS SELECT x FROM other.t;
SELECT * FROM other.v_in_other;
DROP DATABASE other CASCADE;
SHOW DATABASES;
SELECT * FROM v_other;
