-- Hive's SORT BY, DISTRIBUTE BY and CLUSTER BY.  comb is one "reducer":
-- SORT BY sorts every row, as Hive does with one reducer (ascending puts
-- NULLs last, descending first, as ORDER BY); DISTRIBUTE BY changes no
-- result; CLUSTER BY x is DISTRIBUTE BY x SORT BY x.  They cannot be mixed
-- with ORDER BY, nor CLUSTER BY with the other two (Hive's 10046-10050).
CREATE TABLE t (id INT, grp STRING, v DOUBLE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (3, 'b', 0.5), (1, 'a', NULL), (4, NULL, -1.0), (2, 'c', 2.5), (5, 'a', 7.0);
SELECT id, grp FROM t SORT BY id;
SELECT id, v FROM t SORT BY v;
SELECT id, v FROM t SORT BY v DESC;
SELECT id, v FROM t SORT BY v NULLS FIRST;
SELECT id, v FROM t SORT BY (v DESC NULLS LAST);
SELECT grp, id FROM t SORT BY grp DESC, id;
SELECT id AS k, grp FROM t SORT BY k DESC LIMIT 2;
SELECT t.id FROM t SORT BY t.id DESC;
-- a number is a constant here, not a position (Hive's processPositionAlias
-- reads GROUP BY and ORDER BY only): no error for 9
SELECT count(*) FROM t SORT BY 9;
SELECT grp, count(*) AS n, sum(v) FROM t GROUP BY grp SORT BY grp;
SELECT DISTINCT grp FROM t SORT BY grp DESC;
SELECT id FROM t WHERE id > 1 DISTRIBUTE BY grp SORT BY id;
SELECT id, grp FROM t DISTRIBUTE BY (grp, id) SORT BY (grp, id);
SELECT grp, count(*) FROM t GROUP BY grp DISTRIBUTE BY grp SORT BY grp;
SELECT id, grp FROM t CLUSTER BY grp, id;
SELECT id FROM t CLUSTER BY (id);
SELECT grp, max(id) AS top FROM t GROUP BY grp CLUSTER BY top;
-- INSERT ... SELECT writes the rows in the sorted order (rowids 0, 1, ...)
CREATE TABLE u (id INT, grp STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO u SELECT id, grp FROM t SORT BY id DESC;
SELECT ROW__ID.rowid, id FROM u ORDER BY id;
INSERT OVERWRITE TABLE u SELECT id, grp FROM t CLUSTER BY id;
SELECT ROW__ID.rowid, id FROM u ORDER BY id;
INSERT INTO u SELECT id, grp FROM t DISTRIBUTE BY grp;
SELECT count(*) FROM u;
-- the expressions are checked like every other
SELECT id FROM t DISTRIBUTE BY nosuch;
SELECT id FROM t SORT BY nosuch;
SELECT id FROM t CLUSTER BY id + nosuch;
-- Hive's phase-1 conflicts, found before the table is even looked up
SELECT id FROM t ORDER BY id SORT BY id;
SELECT id FROM nosuch ORDER BY id DISTRIBUTE BY id, grp;
SELECT id FROM t CLUSTER BY id DISTRIBUTE BY grp;
SELECT id FROM t CLUSTER BY id SORT BY grp DESC, v;
SELECT id FROM t ORDER BY id CLUSTER BY id;
SELECT id FROM t SORT BY id ORDER BY id;

-- over views and subqueries: the outer query's sort; conditions from
-- outside still reach the scan, through a sort inside
CREATE VIEW tv AS SELECT id, grp, v FROM t WHERE id > 1;
SELECT id, grp FROM tv SORT BY grp DESC, id;
FROM tv SELECT id DISTRIBUTE BY id SORT BY id DESC;
SELECT s.k, s.grp FROM (SELECT id AS k, grp FROM t CLUSTER BY grp) s WHERE s.k > 1 SORT BY s.k DESC;
CREATE VIEW tv_sorted AS SELECT id, v FROM t SORT BY v;
SELECT * FROM tv_sorted LIMIT 2;
EXPLAIN SELECT id FROM tv_sorted WHERE id = 3;
EXPLAIN SELECT id, grp FROM t WHERE v > 0 DISTRIBUTE BY grp SORT BY id DESC LIMIT 3;
EXPLAIN SELECT grp, count(*) AS n FROM t GROUP BY grp CLUSTER BY grp;
