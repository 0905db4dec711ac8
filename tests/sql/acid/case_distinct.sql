-- CASE (searched and simple), IF, and SELECT DISTINCT.
CREATE TABLE t (a INT, b STRING, c DOUBLE) TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'x', 1.5), (1, 'x', 1.5), (2, 'y', NULL), (2, NULL, 2.0), (3, NULL, 2.0);
SELECT a, CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END FROM t ORDER BY a;
SELECT a, CASE b WHEN 'x' THEN 10 WHEN 'y' THEN 2.5 END, CASE WHEN c > 1.6 THEN a END FROM t ORDER BY a, b;
SELECT a, if(b IS NULL, 'none', b), if(a > 1, 1, 'small') FROM t ORDER BY a, b;
SELECT DISTINCT a FROM t ORDER BY a;
SELECT DISTINCT * FROM t ORDER BY a, b;
SELECT DISTINCT b, c FROM t WHERE a > 1 ORDER BY b DESC, c;
UPDATE t SET b = CASE WHEN b IS NULL THEN concat('n', a) ELSE upper(b) END WHERE a > 1;
SELECT DISTINCT a, b FROM t ORDER BY a, b;
SELECT CASE WHEN a THEN 1 END FROM t;
SELECT DISTINCT count(*) FROM t;
