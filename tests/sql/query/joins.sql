-- Joins: INNER, LEFT/RIGHT/FULL OUTER, LEFT SEMI, CROSS, comma joins with
-- WHERE, ON and USING, non-equi conditions, NULL keys (never equal, but
-- under <=>), keys of different types, and Hive's errors.
CREATE TABLE emp (id INT, name STRING, dept INT, salary DECIMAL(8,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO emp VALUES (1, 'ann', 10, 1000.00), (2, 'bob', 20, 1500.50), (3, 'cid', 20, 900.00),
  (4, 'dan', NULL, 700.00), (5, 'eve', 40, NULL);
CREATE TABLE dept (id BIGINT, dname STRING, budget DECIMAL(10,3)) STORED AS ORC;
INSERT INTO dept VALUES (10, 'sales', 5000), (20, 'eng', 9000.5), (30, 'ops', 100), (NULL, 'limbo', 0);
CREATE TABLE codes (code STRING, dept INT) STORED AS TEXTFILE;
INSERT INTO codes VALUES ('10', 10), ('020', 20), ('x', NULL);

-- inner join: an INT key meets a BIGINT key; NULL keys match nothing
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.id ORDER BY e.name;
SELECT e.name, d.dname FROM emp e INNER JOIN dept d ON (d.id = e.dept) WHERE e.salary > 950 ORDER BY 1;
-- outer joins keep the rows without a match, with NULLs
SELECT e.name, d.dname FROM emp e LEFT OUTER JOIN dept d ON e.dept = d.id ORDER BY e.name;
SELECT e.name, d.dname FROM emp e RIGHT OUTER JOIN dept d ON e.dept = d.id ORDER BY d.dname, e.name;
SELECT e.name, d.dname FROM emp e FULL OUTER JOIN dept d ON e.dept = d.id ORDER BY d.dname, e.name;
-- a condition on the right side in ON narrows the matches, in WHERE the rows
SELECT e.name, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.id AND d.budget > 6000 ORDER BY e.name;
SELECT e.name, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.id WHERE d.budget > 6000 ORDER BY e.name;
SELECT e.name, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.id WHERE d.id IS NULL ORDER BY e.name;
-- left semi join: left rows with a match, once each
SELECT * FROM dept d LEFT SEMI JOIN emp e ON d.id = e.dept ORDER BY d.id;
-- null-safe equality matches NULL with NULL
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept <=> d.id ORDER BY e.name;
-- cross and comma joins; a WHERE equality makes a comma join a hash join
SELECT count(*) FROM emp CROSS JOIN dept;
SELECT e.name, d.dname FROM emp e, dept d WHERE e.dept = d.id AND d.dname <> 'sales' ORDER BY e.name;
-- non-equi conditions (nested loop) and equi keys with a residual
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.salary * 5 > d.budget ORDER BY e.name, d.dname;
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.id AND e.salary < d.budget / 6 ORDER BY e.name;
SELECT e.name, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.id AND e.name < 'c' ORDER BY e.name;
-- a string key compared with an int key compares as numbers ('020' = 20)
SELECT c.code, d.dname FROM codes c JOIN dept d ON c.code = d.id ORDER BY c.code;
-- USING, three tables, self joins, joins of derived tables and views
SELECT c.code, e.name FROM codes c JOIN emp e USING (dept) ORDER BY c.code, e.name;
SELECT e.name, d.dname, c.code FROM emp e JOIN dept d ON e.dept = d.id LEFT JOIN codes c ON c.dept = e.dept ORDER BY e.name;
SELECT a.name, b.name FROM emp a JOIN emp b ON a.dept = b.dept AND a.id < b.id ORDER BY 1, 2;
CREATE VIEW rich AS SELECT id, name, dept FROM emp WHERE salary >= 1000;
SELECT r.name, s.total FROM rich r JOIN (SELECT dept, sum(salary) total FROM emp GROUP BY dept) s ON r.dept = s.dept ORDER BY r.name;
SELECT d.dname, count(e.id), sum(e.salary) FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.dname ORDER BY d.dname;
SELECT e.*, d.dname FROM emp e JOIN dept d ON e.dept = d.id ORDER BY e.id;
-- the plan: conditions go into the scans, the equality becomes the key
EXPLAIN SELECT e.name, d.dname FROM emp e, dept d WHERE e.dept = d.id AND e.salary > 100 AND d.dname LIKE 'e%';
EXPLAIN SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept = d.id AND d.budget > 1 WHERE d.dname IS NULL;
EXPLAIN SELECT e.name, d.dname FROM emp e JOIN dept d ON e.salary > d.budget;
-- keys of different types join in the type they compare in: DECIMAL with
-- DOUBLE, DATE with STRING (as strings), CHAR with VARCHAR (the CHAR's
-- padding stripped, the VARCHAR's kept), INT with DECIMAL
CREATE TABLE ka (d DECIMAL(5,2), dt DATE, c CHAR(5), i INT) STORED AS ORC;
INSERT INTO ka VALUES (1.50, DATE '2024-01-01', 'ab', 1), (2.00, DATE '2024-02-01', 'cd', 2), (NULL, NULL, NULL, NULL);
CREATE TABLE kb (d DOUBLE, dt STRING, c VARCHAR(5), i DECIMAL(3,1)) STORED AS ORC;
INSERT INTO kb VALUES (1.5, '2024-01-01', 'ab', 1.0), (2.0, '2024-2-1', 'cd ', 2.5), (NULL, NULL, NULL, NULL);
SELECT ka.d, kb.d FROM ka JOIN kb ON ka.d = kb.d ORDER BY ka.d;
SELECT ka.dt, kb.dt FROM ka JOIN kb ON ka.dt = kb.dt;
SELECT ka.c, kb.c FROM ka JOIN kb ON ka.c = kb.c;
SELECT ka.i, kb.i FROM ka FULL JOIN kb ON ka.i = kb.i ORDER BY ka.i, kb.i;
-- errors
SELECT id FROM emp e JOIN dept d ON e.dept = d.id;
SELECT e.nosuch FROM emp e JOIN dept d ON e.dept = d.id;
SELECT x.* FROM emp e JOIN dept d ON e.dept = d.id;
SELECT * FROM emp e JOIN dept d ON e.name;
SELECT * FROM emp e JOIN dept d USING (nosuch);
SELECT d.dname FROM dept d LEFT SEMI JOIN emp e ON d.id = e.dept WHERE e.id > 1;
