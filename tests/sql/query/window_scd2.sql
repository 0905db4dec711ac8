-- The slowly-changing-dimension pattern Hive guides teach: the latest
-- version of each key by ROW_NUMBER() OVER (PARTITION BY key ORDER BY ts
-- DESC) kept with rn = 1 in a derived table, the history's validity
-- ranges by LEAD, and the current rows written to a new table.
CREATE TABLE customer_changes (id INT, name STRING, city STRING, ts TIMESTAMP)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO customer_changes VALUES
  (1, 'Ann', 'Oslo', '2024-01-01 10:00:00'),
  (1, 'Ann', 'Bergen', '2024-03-01 09:00:00'),
  (1, 'Ann B.', 'Bergen', '2024-06-15 12:30:00'),
  (2, 'Bob', 'Rome', '2024-02-02 08:00:00'),
  (3, 'Cy', NULL, '2024-01-05 00:00:00'),
  (3, 'Cy', 'Paris', NULL);
INSERT INTO customer_changes VALUES (2, 'Bob', 'Milan', '2024-05-05 05:05:05');

-- the current version of each customer (a NULL ts sorts first under
-- DESC, as Hive 4 puts NULLs first descending)
SELECT id, name, city, ts FROM (
  SELECT id, name, city, ts,
         ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn
  FROM customer_changes) latest
WHERE rn = 1 ORDER BY id;
-- the same with NULLs last
SELECT id, city, ts FROM (
  SELECT id, city, ts, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC NULLS LAST) AS rn
  FROM customer_changes) latest
WHERE rn = 1 ORDER BY id;

-- validity ranges of every version: from its ts to the next one's
SELECT id, city, ts AS valid_from,
       LEAD(ts) OVER (PARTITION BY id ORDER BY ts) AS valid_to,
       LEAD(ts) OVER (PARTITION BY id ORDER BY ts) IS NULL AS is_current,
       ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts) AS version
FROM customer_changes WHERE ts IS NOT NULL ORDER BY id, version;

-- the dimension's current rows into a table, with a WITH-free derived
-- table as Hive writes it
CREATE TABLE customer_dim (id INT, name STRING, city STRING, version INT)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO customer_dim
SELECT id, name, city, n FROM (
  SELECT id, name, city,
         ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC NULLS LAST) AS rn,
         count(*) OVER (PARTITION BY id) AS n
  FROM customer_changes WHERE ts IS NOT NULL) s
WHERE rn = 1;
SELECT * FROM customer_dim ORDER BY id;
-- the filter on rn stays above the window (never pushed below it)
EXPLAIN SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM customer_changes) s WHERE rn = 1 AND id > 1;
