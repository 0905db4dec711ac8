-- UPDATE / DELETE with a subquery read their target's rows through a join,
-- which may give them in any order of the target's partitions: a join
-- that spills (comb.exec.memory.limit) emits them one spill partition at a
-- time, a SEMI join building its left side at the end.  Each row's delete
-- event must go to the partition its own partition column names; once the
-- events of p=0 and p=2 went to the partition read last (p=3) and
-- deleted p=3's rows with the same ROW__IDs instead.
CREATE TABLE t (k INT, v STRING) PARTITIONED BY (p INT) CLUSTERED BY (k) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE s (k INT) STORED AS ORC;
INSERT INTO t PARTITION (p)
  SELECT pos, concat('v', pos), pos % 4 FROM (SELECT posexplode(split(space(39999), ' ')) AS (pos, val)) q;
INSERT INTO s SELECT pos * 2 FROM (SELECT posexplode(split(space(19999), ' ')) AS (pos, val)) q;
-- every even k (all of p=0 and p=2), through a spilled hash join
-- @sh "$COMB" --warehouse "$WH" -e "SET comb.exec.stats=true; SET comb.exec.memory.limit=256k; UPDATE t SET v = 'x' WHERE k IN (SELECT k FROM s);" 2>&1 | grep -o 'spilled'
SELECT p, count(*), sum(if(v = 'x', 1, 0)), min(k), max(k) FROM t GROUP BY p ORDER BY p;
-- the odd k below 20,000 (half of p=1 and of p=3), spilled again
-- @sh "$COMB" --warehouse "$WH" -e "SET comb.exec.stats=true; SET comb.exec.memory.limit=256k; DELETE FROM t WHERE k IN (SELECT k + 1 FROM s WHERE k < 20000);" 2>&1 | grep -o 'spilled'
SELECT p, count(*), sum(if(v = 'x', 1, 0)), min(k), max(k) FROM t GROUP BY p ORDER BY p;
SELECT count(*) FROM t WHERE p IN (1, 3) AND k < 20000;
-- a target smaller than the subquery's table: the SEMI join builds the
-- target's side and gives its rows at the end
CREATE TABLE small (k INT, v STRING) PARTITIONED BY (p INT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO small PARTITION (p) VALUES (1, 'a', 0), (2, 'b', 1), (3, 'c', 2), (4, 'd', 0), (6, 'e', 1);
EXPLAIN UPDATE small SET v = upper(v) WHERE k IN (SELECT k FROM s);
UPDATE small SET v = upper(v) WHERE k IN (SELECT k FROM s);
SELECT p, k, v FROM small ORDER BY p, k;
DELETE FROM small WHERE k IN (SELECT k FROM s WHERE k > 2);
SELECT p, k, v FROM small ORDER BY p, k;
-- @sh cd "$WH/small" && find . -name 'bucket_*' | sort
