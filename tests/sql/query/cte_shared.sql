-- A WITH query referenced at least hive.optimize.cte.materialize.threshold
-- times (comb's default 2) whose result is an aggregation, calling nothing
-- volatile, is computed once and read by each reference (EXPLAIN: CteRead,
-- the query shown under the first).  The answers are the ones computed at
-- each reference: NULL group keys, filters over one reference only, the
-- scalar subquery of TPC-H Q15.  Not shared: a query referenced once, one
-- calling rand() (each reference draws its own values), one that is no
-- aggregation, and every query with the threshold 0 or above the count.
CREATE TABLE li (sk INT, price DOUBLE, disc DOUBLE) STORED AS ORC;
INSERT INTO li VALUES (1, 10.0, 0.5), (1, 30.0, 0.0), (2, 40.0, 0.0), (3, 5.0, 0.0),
  (NULL, 100.0, 0.0), (NULL, 1.0, 0.0), (4, 20.0, 0.0), (4, 20.0, 0.0);
CREATE TABLE sup (sk INT, name STRING) STORED AS ORC;
INSERT INTO sup VALUES (1, 's1'), (2, 's2'), (3, 's3'), (4, 's4'), (NULL, 'snull');

-- Q15's shape: the suppliers of the largest revenue (2 and 4 tie at 40;
-- the NULL group's 101 is largest but joins no supplier)
EXPLAIN WITH rev AS (SELECT sk, sum(price * (1 - disc)) AS total FROM li GROUP BY sk)
SELECT s.sk, s.name, r.total FROM sup s, rev r
WHERE s.sk = r.sk AND r.total = (SELECT max(total) FROM rev WHERE sk IS NOT NULL)
ORDER BY s.sk;
WITH rev AS (SELECT sk, sum(price * (1 - disc)) AS total FROM li GROUP BY sk)
SELECT s.sk, s.name, r.total FROM sup s, rev r
WHERE s.sk = r.sk AND r.total = (SELECT max(total) FROM rev WHERE sk IS NOT NULL)
ORDER BY s.sk;
-- the NULL group read by both references, filters over each
WITH g AS (SELECT sk, count(*) AS n, sum(price) AS p FROM li GROUP BY sk)
SELECT a.sk, a.n, b.p FROM g a LEFT JOIN g b ON a.sk = b.sk AND b.p > 20
WHERE a.n < 3 ORDER BY a.sk;
WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk)
SELECT 'low' AS side, sk, n FROM g WHERE n = 1
UNION ALL SELECT 'null', sk, n FROM g WHERE sk IS NULL
UNION ALL SELECT 'all', NULL, count(*) FROM g
ORDER BY side, sk;
-- three references, one of them inside an IN subquery
EXPLAIN WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk)
SELECT x.sk, y.n FROM g x JOIN g y ON x.sk = y.sk
WHERE x.sk IN (SELECT sk FROM g WHERE n = 2);
WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk)
SELECT x.sk, y.n FROM g x JOIN g y ON x.sk = y.sk
WHERE x.sk IN (SELECT sk FROM g WHERE n = 2) ORDER BY x.sk;
-- the same answers computed at each reference
SET hive.optimize.cte.materialize.threshold=0;
EXPLAIN WITH rev AS (SELECT sk, sum(price * (1 - disc)) AS total FROM li GROUP BY sk)
SELECT s.sk, s.name, r.total FROM sup s, rev r
WHERE s.sk = r.sk AND r.total = (SELECT max(total) FROM rev WHERE sk IS NOT NULL)
ORDER BY s.sk;
WITH rev AS (SELECT sk, sum(price * (1 - disc)) AS total FROM li GROUP BY sk)
SELECT s.sk, s.name, r.total FROM sup s, rev r
WHERE s.sk = r.sk AND r.total = (SELECT max(total) FROM rev WHERE sk IS NOT NULL)
ORDER BY s.sk;
WITH g AS (SELECT sk, count(*) AS n, sum(price) AS p FROM li GROUP BY sk)
SELECT a.sk, a.n, b.p FROM g a LEFT JOIN g b ON a.sk = b.sk AND b.p > 20
WHERE a.n < 3 ORDER BY a.sk;
-- a threshold above the references: two are not enough for 3
SET hive.optimize.cte.materialize.threshold=3;
EXPLAIN WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk)
SELECT x.sk FROM g x JOIN g y ON x.sk = y.sk;
SET hive.optimize.cte.materialize.threshold=2;
-- referenced once: in place, as if written there
EXPLAIN WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk) SELECT sk FROM g WHERE sk > 1;
-- rand(): each reference draws its own values, so no group of one meets
-- its partner in the other (shared, every group would)
EXPLAIN WITH r AS (SELECT sk, sum(price) + rand() AS x FROM li GROUP BY sk)
SELECT count(*) FROM r a JOIN r b ON a.x = b.x;
WITH r AS (SELECT sk, sum(price) + rand() AS x FROM li GROUP BY sk)
SELECT count(*) FROM r a JOIN r b ON a.x = b.x;
-- not an aggregation: read in place at each reference
EXPLAIN WITH t AS (SELECT sk, price FROM li WHERE price > 10)
SELECT count(*) FROM t a JOIN t b ON a.sk = b.sk;
SET hive.optimize.cte.materialize.threshold=2;
-- over comb.exec.memory.limit the shared result goes to a spill file that
-- each reference reads from its start (the join reads the build side's
-- reference through, then the probe side's again from the first row):
-- the same answer as computed at each reference
CREATE TABLE big AS SELECT pos AS n, concat('v', pos) AS s FROM (SELECT posexplode(split(space(19999), ' ')) AS (pos, x)) e;
SET comb.exec.memory.limit=1m;
EXPLAIN WITH g AS (SELECT n, max(s) AS m FROM big GROUP BY n)
SELECT count(*), sum(length(a.m)), sum(b.n) FROM g a JOIN g b ON a.n = b.n WHERE a.n % 3 = 0;
WITH g AS (SELECT n, max(s) AS m FROM big GROUP BY n)
SELECT count(*), sum(length(a.m)), sum(b.n) FROM g a JOIN g b ON a.n = b.n WHERE a.n % 3 = 0;
SET hive.optimize.cte.materialize.threshold=0;
WITH g AS (SELECT n, max(s) AS m FROM big GROUP BY n)
SELECT count(*), sum(length(a.m)), sum(b.n) FROM g a JOIN g b ON a.n = b.n WHERE a.n % 3 = 0;
-- a bad threshold
SET hive.optimize.cte.materialize.threshold=two;
WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk) SELECT x.sk FROM g x JOIN g y ON x.sk = y.sk;
-- a shared query that fails (a file that is not ORC) is the statement's
-- error, met by the first reference filling the store; the readers' close
-- closes the query (the sanitizers see no leak)
-- @sh d=$(ls -d $WH/li/delta_* | head -1); echo junk > $d/bucket_00009
WITH g AS (SELECT sk, count(*) AS n FROM li GROUP BY sk) SELECT x.sk FROM g x JOIN g y ON x.sk = y.sk;
