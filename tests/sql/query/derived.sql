-- Subqueries in FROM: the names their columns get, nesting with
-- aggregates inside and outside, ORDER BY and LIMIT inside, ROW__ID
-- through a subquery, partition pruning through one (EXPLAIN shows the
-- partitions read), and Hive's errors for unknown and ambiguous names.
CREATE TABLE t (id INT, grp STRING, amount DECIMAL(10,2))
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'a', 1.50), (2, 'a', 2.50), (3, 'b', NULL), (4, 'c', 4.00), (5, NULL, 5.25);
INSERT INTO t VALUES (6, 'b', 6.00);

-- column names: an item's alias, a column's name, _cN; * qualifies them
-- with the subquery's alias
SELECT * FROM (SELECT id, grp AS g, amount * 2, upper(grp) FROM t) s ORDER BY id;
SELECT s.id, g, `_c2` FROM (SELECT id, grp AS g, amount * 2 FROM t) AS s WHERE id < 3 ORDER BY s.id;
SELECT s.* FROM (SELECT t.* FROM t WHERE id = 1) s;
SELECT x.total FROM (SELECT sum(amount) AS total FROM t) x;
SELECT * FROM (SELECT 1, 'one', NULL) s;

-- aggregates inside, outside, and both
SELECT grp, n FROM (SELECT grp, count(*) AS n FROM t GROUP BY grp) g ORDER BY grp;
SELECT count(*), sum(amount), max(grp) FROM (SELECT * FROM t WHERE amount IS NOT NULL) s;
SELECT max(n), min(n), count(*) FROM (SELECT grp, count(*) n FROM t GROUP BY grp) g;
SELECT n, count(*) FROM (SELECT grp, count(*) n FROM t GROUP BY grp) g GROUP BY n ORDER BY n;
SELECT grp, total FROM (SELECT grp, sum(amount) total FROM t GROUP BY grp HAVING count(*) > 1) g WHERE total > 5 ORDER BY grp;
SELECT DISTINCT grp FROM (SELECT grp, id FROM t) s ORDER BY grp;

-- ORDER BY and LIMIT inside: the limit applies to the ordered rows
SELECT * FROM (SELECT id, amount FROM t ORDER BY amount DESC LIMIT 3) top ORDER BY id;
SELECT id FROM (SELECT id FROM t ORDER BY id LIMIT 4) s WHERE id > 2 ORDER BY id;
SELECT count(*) FROM (SELECT id FROM t LIMIT 2) s;
SELECT id FROM (SELECT id FROM t ORDER BY id DESC) s LIMIT 2;

-- three levels, each renaming and filtering
SELECT c FROM (SELECT b + 1 AS c FROM (SELECT a * 10 AS b FROM (SELECT id AS a FROM t WHERE id <= 3) x) y WHERE b > 10) z ORDER BY c;
SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT id FROM t WHERE id = 6) a) b) c;

-- ROW__ID and its fields through a subquery: selected, they are columns
-- like any other (ROW__ID a struct)
SELECT tid FROM (SELECT ROW__ID.writeid AS tid FROM t) sub WHERE tid = 2;
SELECT tid, count(*) FROM (SELECT ROW__ID.writeid AS tid FROM t) sub GROUP BY tid ORDER BY tid;
SELECT id, r.writeid FROM (SELECT id, ROW__ID AS r FROM t WHERE id = 1) s;
SELECT ROW__ID FROM (SELECT id FROM t) s;
SELECT s.ROW__ID.writeid FROM (SELECT id FROM t) s;

-- INSERT ... SELECT from a subquery
CREATE TABLE sums (grp STRING, total DECIMAL(20,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO sums SELECT grp, total FROM (SELECT grp, sum(amount) AS total FROM t GROUP BY grp) g WHERE grp IS NOT NULL;
SELECT * FROM sums ORDER BY grp;

-- partition pruning through a subquery
CREATE TABLE p (v INT) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO p PARTITION (ds) VALUES (1, 'd1'), (2, 'd2'), (3, 'd3'), (4, 'd3');
SELECT v FROM (SELECT v, ds AS day FROM p) s WHERE day = 'd3' ORDER BY v;
EXPLAIN SELECT v FROM (SELECT v, ds AS day FROM p) s WHERE day = 'd3';
EXPLAIN SELECT * FROM (SELECT * FROM (SELECT v, ds FROM p WHERE v > 0) a) b WHERE ds IN ('d1', 'd2') AND v < 10;
-- nothing is pushed below a LIMIT or an aggregate
EXPLAIN SELECT v FROM (SELECT v, ds FROM p LIMIT 3) s WHERE ds = 'd1';
EXPLAIN SELECT n FROM (SELECT ds, count(*) n FROM p GROUP BY ds) s WHERE ds = 'd1';

-- errors: unknown and ambiguous names, ROW__ID not selected, the alias
SELECT id FROM (SELECT id AS x FROM t) s;
SELECT t.id FROM (SELECT id FROM t) s;
SELECT * FROM (SELECT id, id FROM t) s;
SELECT id FROM (SELECT id, id FROM t) s;
SELECT x FROM (SELECT id AS x, grp AS x FROM t) s;
SELECT ROW__ID.writeid FROM (SELECT id FROM t) s;
SELECT q.* FROM (SELECT id FROM t) s;
SELECT * FROM (SELECT id FROM t);
SELECT * FROM (SELECT id FROM nosuch) s;
SELECT * FROM (SELECT nosuch FROM t) s;
