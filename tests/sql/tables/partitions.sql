-- Partitioned tables of each kind: static and dynamic partitions, Hive's
-- directory names (escaped values, __HIVE_DEFAULT_PARTITION__ for NULL),
-- partition keys last in *, INSERT OVERWRITE per partition, UPDATE and
-- DELETE per partition, and every PARTITION clause error.
CREATE TABLE sales (id INT, amount DECIMAL(10,2))
  PARTITIONED BY (ds STRING, region STRING)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO sales PARTITION (ds='2024-01-01', region='eu') VALUES (1, 10.50), (2, 20.25);
INSERT INTO sales PARTITION (ds='2024-01-01', region) VALUES (3, 1.00, 'us'), (4, 2.00, NULL);
INSERT INTO sales VALUES (5, 5.55, '2024-01-02', 'eu'), (6, 6.66, NULL, NULL);
SELECT * FROM sales ORDER BY id;
SELECT ds, region, count(*), sum(amount) FROM sales GROUP BY ds, region ORDER BY ds, region;
SELECT id FROM sales WHERE ds = '2024-01-01' AND region = 'eu' ORDER BY id;
SELECT id FROM sales WHERE region IS NULL ORDER BY id;
-- one write id per statement across every partition it writes
SELECT ROW__ID.writeid, id, ds, region FROM sales ORDER BY id;
-- @sh cd warehouse/sales && find . -type d | sort
UPDATE sales SET amount = amount * 2 WHERE region = 'eu';
DELETE FROM sales WHERE ds IS NULL OR id = 3;
SELECT * FROM sales ORDER BY id;
-- @sh cd warehouse/sales && find . -name 'delete_delta_*' | sort
-- INSERT OVERWRITE: a static partition is replaced even by no rows;
-- dynamic partitions only where rows come
INSERT OVERWRITE TABLE sales PARTITION (ds='2024-01-01', region='eu') SELECT id, amount FROM sales WHERE id > 100;
SELECT * FROM sales ORDER BY id;
INSERT OVERWRITE TABLE sales PARTITION (ds, region) VALUES (7, 7.00, '2024-01-02', 'eu');
SELECT * FROM sales ORDER BY id;
-- @sh cd warehouse/sales && find . -name 'base_*' | sort

-- values that would be paths or control characters stay inside the table
CREATE TABLE odd (v INT) PARTITIONED BY (p STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO odd PARTITION (p) VALUES (1, '../escape'), (2, 'a/b'), (3, 'x=y%z'), (4, 'tab\there'), (5, ''), (6, 'ünï #?'), (7, '.hidden');
SELECT p, v FROM odd ORDER BY v;
-- @sh cd warehouse && find odd -mindepth 1 -maxdepth 1 | sort && ls "$WH"
SELECT v FROM odd WHERE p = 'a/b';

-- typed keys: static values are converted to the key's type
CREATE TABLE typed (v STRING) PARTITIONED BY (n INT, d DATE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO typed PARTITION (n='007', d='2024-02-29') VALUES ('a');
INSERT INTO typed PARTITION (n, d) VALUES ('b', 42, DATE '1999-12-31'), ('c', -1, NULL);
SELECT * FROM typed ORDER BY v;
SELECT v FROM typed WHERE n = 7 AND d = DATE '2024-02-29';
-- @sh cd warehouse/typed && find . -mindepth 2 -maxdepth 2 -type d | sort
INSERT INTO typed PARTITION (n='abc', d='2024-01-01') VALUES ('bad');
INSERT INTO typed PARTITION (n=1, d='2024-13-01') VALUES ('bad');

-- insert-only and plain partitioned tables
CREATE TABLE io (v INT) PARTITIONED BY (p INT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO io PARTITION (p) VALUES (1, 1), (2, 2);
INSERT OVERWRITE TABLE io PARTITION (p=1) VALUES (10);
SELECT * FROM io ORDER BY v;
UPDATE io SET v = 0;
CREATE TABLE pl (v INT) PARTITIONED BY (p INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO pl PARTITION (p=1) VALUES (1);
INSERT INTO pl PARTITION (p=1) VALUES (2);
INSERT INTO pl PARTITION (p) VALUES (3, 2);
SELECT * FROM pl ORDER BY v;
INSERT OVERWRITE TABLE pl PARTITION (p=1) VALUES (4);
SELECT * FROM pl ORDER BY v;
DELETE FROM pl WHERE v = 4;
-- @sh cd warehouse && find io pl -type f | sort

-- PARTITION clause errors change nothing
INSERT INTO sales PARTITION (ds='x') VALUES (1, 1.0);
INSERT INTO sales PARTITION (region='eu', ds='x') VALUES (1, 1.0);
INSERT INTO sales PARTITION (ds, region='eu') VALUES (1, 1.0, 'x');
INSERT INTO sales PARTITION (id=1, ds='x', region='y') VALUES (1.0);
INSERT INTO sales PARTITION (ds='x', nope='y') VALUES (1, 1.0);
INSERT INTO sales PARTITION (ds='x', region='y') (id, amount, ds) VALUES (1, 1.0, 'z');
INSERT INTO odd PARTITION (p=1) VALUES (1);
CREATE TABLE flat (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO flat PARTITION (p=1) VALUES (1);
UPDATE sales SET ds = 'x' WHERE id = 1;
INSERT INTO sales PARTITION (ds='x', region='y') VALUES (1);
INSERT INTO sales PARTITION (ds='x', region='y') VALUES (1, 1.0, 'extra');
SET hive.exec.dynamic.partition.mode=strict;
INSERT INTO sales PARTITION (ds, region) VALUES (1, 1.0, 'x', 'y');
INSERT INTO sales VALUES (1, 1.0, 'x', 'y');
INSERT INTO sales PARTITION (ds='x', region) VALUES (8, 8.0, 'strict-ok');
SET hive.exec.dynamic.partition=false;
INSERT INTO sales PARTITION (ds='x', region) VALUES (1, 1.0, 'y');
SET hive.exec.dynamic.partition=true;
SET hive.exec.dynamic.partition.mode=nonstrict;
SET hive.exec.max.dynamic.partitions=2;
INSERT INTO odd PARTITION (p) VALUES (1, 'q1'), (2, 'q2'), (3, 'q3');
SET hive.exec.max.dynamic.partitions=1000;
SET hive.exec.max.dynamic.partitions.pernode=1;
INSERT INTO odd PARTITION (p) VALUES (1, 'q1'), (2, 'q2');
SELECT * FROM sales ORDER BY id;
SELECT count(*) FROM odd;

-- table names with Hive 4's special characters live in encoded directories
CREATE TABLE `sales/2024 q1` (id INT) PARTITIONED BY (`k?` STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO `sales/2024 q1` PARTITION (`k?`) VALUES (1, 'a/b');
SELECT * FROM `sales/2024 q1`;
-- @sh cd warehouse && find . -path '*sales-47-*' -type d | sort
CREATE TABLE `bad\name` (id INT);
