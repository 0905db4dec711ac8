-- A join builds the side estimated smaller; a partitioned table's
-- estimate counts the rows of the partitions its filter keeps (only their
-- files' footers are read), and the conjuncts over partition columns alone
-- do not shrink it again.  big holds 1 row in p=1 and 1,000 in p=2; s 100.
CREATE TABLE big (k INT, v STRING) PARTITIONED BY (p INT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO big PARTITION (p=1) VALUES (1, 'one');
INSERT INTO big PARTITION (p=2)
  SELECT pos, concat('v', pos) FROM (SELECT posexplode(split(space(999), ' ')) AS (pos, val)) q;
CREATE TABLE s (k INT) STORED AS ORC;
INSERT INTO s SELECT pos FROM (SELECT posexplode(split(space(99), ' ')) AS (pos, val)) q;
-- p=1: big's one row is the smaller side (built: right)
EXPLAIN SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p = 1;
SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p = 1;
-- p=2: its 1,000 rows against s's 100 (built: left)
EXPLAIN SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p = 2;
SELECT count(*), min(big.v), max(s.k) FROM s JOIN big ON s.k = big.k WHERE big.p = 2;
-- both partitions, and a data column's conjunct beside the partition's
EXPLAIN SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p IN (1, 2);
SELECT count(*) FROM s JOIN big ON s.k = big.k WHERE big.p IN (1, 2);
EXPLAIN SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p = 2 AND big.k < 10;
SELECT s.k, big.v FROM s JOIN big ON s.k = big.k WHERE big.p = 2 AND big.k < 3 ORDER BY s.k;
