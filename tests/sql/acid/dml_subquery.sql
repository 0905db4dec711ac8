-- UPDATE and DELETE whose WHERE has subqueries (IN, NOT IN, EXISTS,
-- scalar, correlated), on partitioned and bucketed full-ACID tables; the
-- subquery may read the target itself (it sees the rows as they were).
CREATE TABLE acc (id INT, owner STRING, bal INT) PARTITIONED BY (ds STRING)
  CLUSTERED BY (id) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acc PARTITION (ds) VALUES (1, 'a', 10, 'd1'), (2, 'b', 20, 'd1'), (3, 'c', 30, 'd2'),
  (4, NULL, 40, 'd2'), (5, 'e', NULL, 'd3');
CREATE TABLE frozen (owner STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO frozen VALUES ('b'), ('c');

UPDATE acc SET bal = 0 WHERE owner IN (SELECT owner FROM frozen);
SELECT id, owner, bal, ds FROM acc ORDER BY id;
UPDATE acc SET bal = bal + 1 WHERE id = (SELECT max(id) FROM acc WHERE bal IS NOT NULL);
SELECT id, owner, bal, ds FROM acc ORDER BY id;
DELETE FROM acc WHERE EXISTS (SELECT 1 FROM frozen f WHERE f.owner = acc.owner) AND ds = 'd2';
SELECT id, owner, bal, ds FROM acc ORDER BY id;
-- NOT IN over a NULL: no row is deleted
INSERT INTO frozen VALUES (NULL);
DELETE FROM acc WHERE owner NOT IN (SELECT owner FROM frozen);
SELECT count(*) FROM acc;
DELETE FROM acc WHERE owner NOT IN (SELECT owner FROM frozen WHERE owner IS NOT NULL);
SELECT id, owner, bal, ds FROM acc ORDER BY id;
EXPLAIN DELETE FROM acc WHERE id IN (SELECT id FROM acc WHERE bal > 5);
SHOW PARTITIONS acc;
-- a target smaller than its subquery's table still streams through the
-- join (EXPLAIN: build right): its rows must leave with the partition
-- they were read from, which a SEMI / ANTI join building the target would
-- only give at the end
CREATE TABLE many (owner STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO many SELECT concat('m', pos) FROM (SELECT posexplode(split(space(2999), ' ')) AS (pos, x)) e;
INSERT INTO many VALUES ('a'), ('z');
INSERT INTO acc PARTITION (ds) VALUES (6, 'z', 60, 'd1'), (7, 'y', 70, 'd2'), (8, 'z', 80, 'd3');
EXPLAIN UPDATE acc SET bal = -bal WHERE EXISTS (SELECT 1 FROM many m WHERE m.owner = acc.owner);
UPDATE acc SET bal = -bal WHERE EXISTS (SELECT 1 FROM many m WHERE m.owner = acc.owner);
SELECT id, owner, bal, ds FROM acc ORDER BY id;
DELETE FROM acc WHERE NOT EXISTS (SELECT 1 FROM many m WHERE m.owner = acc.owner);
SELECT id, owner, bal, ds FROM acc ORDER BY id;
