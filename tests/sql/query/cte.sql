-- WITH: names a query and its subqueries read, each CTE seeing the ones
-- before it; in front of INSERT ... SELECT and CTAS; shadowing a table.
CREATE TABLE s (k INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO s VALUES (1, 'a'), (2, 'b'), (3, NULL), (NULL, 'd');
CREATE TABLE dst (k INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');

WITH a AS (SELECT k, v FROM s WHERE k > 1) SELECT * FROM a ORDER BY k;
WITH a AS (SELECT k FROM s), b AS (SELECT k * 10 AS k10 FROM a WHERE k IS NOT NULL) SELECT k10 FROM b ORDER BY k10;
WITH a AS (SELECT k FROM s WHERE k < 3) SELECT x.k, y.k FROM a x JOIN a y ON x.k < y.k ORDER BY 1, 2;
WITH a AS (SELECT k FROM s WHERE k = 1) SELECT k FROM s WHERE k NOT IN (SELECT k FROM a WHERE k IS NOT NULL) ORDER BY k;
-- a CTE named like a table hides it
WITH s AS (SELECT 42 AS k) SELECT * FROM s;
-- the inner WITH of a subquery
SELECT * FROM (WITH t AS (SELECT v FROM s WHERE v IS NOT NULL) SELECT v FROM t) q ORDER BY v;
-- WITH in front of INSERT and CTAS
WITH a AS (SELECT k, upper(v) AS v FROM s WHERE k IS NOT NULL) INSERT INTO dst SELECT * FROM a;
SELECT * FROM dst ORDER BY k;
CREATE TABLE made AS WITH a AS (SELECT k FROM s WHERE k >= 2) SELECT k, k + 1 AS k1 FROM a;
SELECT * FROM made ORDER BY k;
EXPLAIN WITH a AS (SELECT k FROM s WHERE k > 1) SELECT k FROM a WHERE k < 3;
-- errors
WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a;
WITH a AS (SELECT k FROM s) SELECT nosuch FROM a;
WITH a AS (SELECT k FROM b), b AS (SELECT 1 AS k) SELECT * FROM a;
