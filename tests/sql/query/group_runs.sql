-- GROUP BY over rows whose keys come in runs (the aggregation checks the
-- previous row's group before its hash table) and over adjacent keys that
-- only look alike: NULL and 0 or '', 0.0 and -0.0, every NaN one group,
-- strings differing in case or a trailing space, decimals equal by value,
-- two keys of which one changes.
-- Without ORDER BY the groups come in the order of their first rows.
CREATE TABLE runs (k INT, d DOUBLE, s STRING, m DECIMAL(5,2), j INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO runs VALUES
  (1, 0.0, 'a', 1.0, 1), (1, 0.0, 'a', 1.00, 1), (1, -0.0, 'a ', 1, 2),
  (NULL, -0.0, 'A', 2.5, 2), (NULL, CAST('NaN' AS DOUBLE), '', 2.50, NULL),
  (0, CAST('NaN' AS DOUBLE), NULL, NULL, NULL), (0, 0.0, '', 0, 0),
  (0, NULL, NULL, NULL, 0), (2, 1.5, 'b', 3.25, 1), (2, 1.5, 'b', 3.25, 1);
SELECT k, count(*) FROM runs GROUP BY k;
SELECT d, count(*) FROM runs GROUP BY d;
SELECT concat('[', s, ']'), count(*) FROM runs GROUP BY s;
SELECT m, count(*), sum(k) FROM runs GROUP BY m;
SELECT k, j, count(*) FROM runs GROUP BY k, j;
SELECT k, d, s, count(*) FROM runs GROUP BY k, d, s;
-- the same over several files read by two threads: the groups still come
-- in the order one thread makes them
INSERT INTO runs VALUES (3, 0.0, 'c', 9.99, 3), (1, 0.0, 'a', 1, 1), (3, -0.0, 'c', 9.99, 3);
INSERT INTO runs VALUES (4, NULL, 'd', NULL, 4), (NULL, NULL, NULL, NULL, NULL), (3, 0.0, 'c', 9.99, 3);
SET comb.exec.threads=2;
SELECT k, count(*), sum(j) FROM runs GROUP BY k;
SELECT k, d, count(*) FROM runs GROUP BY k, d;
SELECT s, m, count(*) FROM runs GROUP BY s, m;
