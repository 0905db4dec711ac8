-- LATERAL VIEW [OUTER] with explode, posexplode, inline, stack; a lone
-- table function in the select list; Hive's UDTF errors
CREATE TABLE lv (id INT, a ARRAY<INT>, m MAP<STRING,INT>, s ARRAY<STRUCT<x:INT,y:STRING>>) STORED AS ORC;
INSERT INTO lv SELECT 1, array(10, 20), map('k', 1), array(named_struct('x', 1, 'y', 'one'), named_struct('x', 2, 'y', 'two'));
INSERT INTO lv SELECT 2, array(30), map('a', 2, 'b', 3), array(named_struct('x', 3, 'y', 'three'));
INSERT INTO lv SELECT 3, NULL, NULL, NULL;
SELECT id, e FROM lv LATERAL VIEW explode(a) t AS e ORDER BY id, e;
SELECT id, t.e FROM lv LATERAL VIEW OUTER explode(a) t AS e ORDER BY id, e;
SELECT id, k, v, p, x FROM lv LATERAL VIEW explode(m) mt AS k, v LATERAL VIEW posexplode(a) pt AS p, x ORDER BY id, k, p;
SELECT * FROM lv LATERAL VIEW inline(s) i ORDER BY id, x;
SELECT explode(a) AS e FROM lv ORDER BY e;
SELECT explode(m) FROM lv;
SELECT stack(2, 'a', 1, 'b', 2);
SELECT id, count(*) FROM lv LATERAL VIEW explode(a) t AS e GROUP BY id ORDER BY id;
SELECT e, sum(id) FROM lv LATERAL VIEW explode(a) t AS e WHERE e > 10 GROUP BY e ORDER BY e;
SELECT id, col FROM lv LATERAL VIEW explode(a) t ORDER BY id;
-- errors
SELECT explode(a), id FROM lv;
SELECT upper(explode(a)) FROM lv;
SELECT id FROM lv LATERAL VIEW explode(id) t AS e;
SELECT e FROM lv LATERAL VIEW explode(m) t AS e;
EXPLAIN SELECT id, e FROM lv LATERAL VIEW OUTER explode(a) t AS e WHERE id > 1;
SELECT explode(a) FROM lv GROUP BY id;
SELECT id, e FROM lv LATERAL VIEW explode(a) t AS e LATERAL VIEW explode(a) u AS f WHERE e = f ORDER BY id, e;
SELECT posexplode(array('x', 'y', NULL)) AS (pos, val);
SELECT inline(array(struct(1, 'a'), struct(2, 'b')));
SELECT stack(3, 1, 'a', 2) AS (n, s);
SELECT e, u.e2 FROM (SELECT explode(array(1, 2)) AS e) sub LATERAL VIEW explode(array(e, e * 10)) u AS e2 ORDER BY e, e2;
SELECT count(*) FROM lv LATERAL VIEW OUTER explode(a) t AS e;
SELECT id, e FROM lv LATERAL VIEW explode(array()) t AS e;
SELECT id FROM lv LATERAL VIEW OUTER explode(m) t AS k, v WHERE v IS NULL;
