-- Window functions: ranking (ties, NULLs in partition and order keys),
-- NTILE (more buckets than rows), LAG / LEAD (offsets, defaults, past the
-- partition's edges), FIRST_VALUE / LAST_VALUE (IGNORE NULLS in both of
-- Hive's forms), several specifications in one SELECT, windows over
-- aggregates, ORDER BY of window results, named windows.
CREATE TABLE emp (id INT, dept STRING, salary INT, bonus DOUBLE)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO emp VALUES
  (1, 'eng', 100, 1.5), (2, 'eng', 200, NULL), (3, 'eng', 200, 3.0),
  (4, 'eng', 300, NULL), (5, 'ops', 50, 2.0), (6, 'ops', NULL, NULL),
  (7, 'ops', 50, 7.0), (8, NULL, 70, 8.0), (9, NULL, NULL, 9.0),
  (10, 'hr', 90, NULL);

-- ranking: ties share a rank, NULL salaries sort last ascending (Hive 4's
-- default), the NULL dept is one partition
SELECT id, dept, salary,
       row_number() OVER (PARTITION BY dept ORDER BY salary, id) AS rn,
       rank() OVER (PARTITION BY dept ORDER BY salary) AS rk,
       dense_rank() OVER (PARTITION BY dept ORDER BY salary) AS drk,
       percent_rank() OVER (PARTITION BY dept ORDER BY salary) AS prk,
       cume_dist() OVER (PARTITION BY dept ORDER BY salary) AS cd
FROM emp ORDER BY dept, rn;
-- descending puts NULLs first; NULLS LAST / FIRST as written
SELECT id, salary, rank() OVER (ORDER BY salary DESC) AS d,
       rank() OVER (ORDER BY salary DESC NULLS LAST) AS dl,
       rank() OVER (ORDER BY salary NULLS FIRST) AS af
FROM emp ORDER BY id;
-- without ORDER BY every row of a partition is a peer
SELECT id, dept, rank() OVER (PARTITION BY dept), dense_rank() OVER (PARTITION BY dept),
       cume_dist() OVER (PARTITION BY dept), percent_rank() OVER (PARTITION BY dept)
FROM emp ORDER BY id;
-- hive.default.nulls.last=false: NULLs first ascending, last descending
SET hive.default.nulls.last=false;
SELECT id, salary, row_number() OVER (ORDER BY salary, id) AS a,
       row_number() OVER (ORDER BY salary DESC, id) AS d
FROM emp ORDER BY id;
SELECT id, salary FROM emp ORDER BY salary, id;
SET hive.default.nulls.last=true;

-- NTILE: 10 rows in 3 buckets (4, 3, 3), in 4 per dept, more buckets
-- than rows
SELECT id, ntile(3) OVER (ORDER BY id) AS n3,
       ntile(4) OVER (PARTITION BY dept ORDER BY id) AS n4,
       ntile(100) OVER (ORDER BY id) AS n100
FROM emp ORDER BY id;

-- LAG / LEAD: default offset 1, offsets past the partition, a default
-- (constant, column, converted to the argument's type), offset 0
SELECT id, dept, salary,
       lag(salary) OVER (PARTITION BY dept ORDER BY id) AS lag1,
       lead(salary) OVER (PARTITION BY dept ORDER BY id) AS lead1,
       lag(salary, 2, -1) OVER (PARTITION BY dept ORDER BY id) AS lag2,
       lead(salary, 3, id) OVER (PARTITION BY dept ORDER BY id) AS lead3,
       lag(salary, 0) OVER (PARTITION BY dept ORDER BY id) AS lag0,
       lead(dept, 1, 'none') OVER (ORDER BY id) AS nextdept
FROM emp ORDER BY id;
SELECT id, lag(bonus, 1, 0) OVER (ORDER BY id), lead(salary, 100) OVER (ORDER BY id)
FROM emp ORDER BY id;

-- FIRST_VALUE / LAST_VALUE: the default frame ends at the current row's
-- last peer; IGNORE NULLS skips NULL values (both forms)
SELECT id, dept, bonus,
       first_value(bonus) OVER (PARTITION BY dept ORDER BY id) AS fv,
       last_value(bonus) OVER (PARTITION BY dept ORDER BY id) AS lv,
       first_value(bonus, true) OVER (PARTITION BY dept ORDER BY id) AS fv_skip,
       first_value(bonus) IGNORE NULLS OVER (PARTITION BY dept ORDER BY id) AS fv_ign,
       last_value(bonus) IGNORE NULLS OVER (PARTITION BY dept ORDER BY id
                                            ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS lv_ign,
       last_value(bonus) RESPECT NULLS OVER (PARTITION BY dept) AS lv_resp
FROM emp ORDER BY id;
SELECT id, salary, count(*) OVER (ORDER BY salary) AS upto_peers,
       last_value(id) OVER (ORDER BY salary, id) AS last_row,
       first_value(id) OVER (ORDER BY salary DESC, id) AS first_row
FROM emp ORDER BY id;

-- aggregates over the whole partition and running
SELECT id, dept, salary,
       count(*) OVER (PARTITION BY dept) AS n,
       count(salary) OVER (PARTITION BY dept) AS nsal,
       sum(salary) OVER (PARTITION BY dept) AS total,
       avg(salary) OVER (PARTITION BY dept ORDER BY id) AS run_avg,
       min(salary) OVER (PARTITION BY dept ORDER BY id) AS run_min,
       max(bonus) OVER (PARTITION BY dept ORDER BY id) AS run_max
FROM emp ORDER BY id;
SELECT id, variance(salary) OVER (), stddev_samp(salary) OVER (ORDER BY id),
       collect_list(salary) OVER (ORDER BY id ROWS 2 PRECEDING)
FROM emp ORDER BY id;
SELECT id, dept, concat_ws(',', collect_set(dept) OVER (ORDER BY id)) FROM emp ORDER BY id;

-- several specifications in one SELECT, expressions around the calls,
-- ORDER BY a window result (by alias and as written)
SELECT id, salary - avg(salary) OVER (PARTITION BY dept) AS diff,
       row_number() OVER (ORDER BY id DESC) * 10 AS r10
FROM emp ORDER BY r10;
SELECT id, dept FROM emp ORDER BY row_number() OVER (ORDER BY id DESC);

-- windows over an aggregate query: rank by a group's sum, running totals
-- of the groups
SELECT dept, sum(salary) AS total, rank() OVER (ORDER BY sum(salary) DESC) AS rk,
       sum(sum(salary)) OVER (ORDER BY dept) AS running,
       count(*) OVER () AS groups
FROM emp GROUP BY dept ORDER BY dept;
SELECT dept, count(*) c, lag(count(*)) OVER (ORDER BY dept) FROM emp
GROUP BY dept HAVING count(*) > 1 ORDER BY dept;

-- named windows: OVER w, a name built on another, OVER (w ORDER BY ...)
SELECT id, sum(salary) OVER w AS s, rank() OVER (w ORDER BY salary) AS r,
       max(salary) OVER w2 AS m
FROM emp WINDOW w AS (PARTITION BY dept), w2 AS (w ORDER BY id ROWS 1 PRECEDING)
ORDER BY id;

-- a derived table and a view over window results, and INSERT ... SELECT
SELECT dept, id FROM (SELECT dept, id, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM emp) s
WHERE r = 1 ORDER BY dept, id;
CREATE VIEW ranked AS SELECT id, dense_rank() OVER (ORDER BY salary) AS dr FROM emp;
SELECT * FROM ranked WHERE dr <= 2 ORDER BY id;
CREATE TABLE ranks (id INT, r BIGINT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO ranks SELECT id, row_number() OVER (ORDER BY id DESC) FROM emp;
SELECT * FROM ranks ORDER BY id;

-- empty input: no rows
SELECT id, rank() OVER (ORDER BY id), sum(salary) OVER () FROM emp WHERE id > 100;
EXPLAIN SELECT id, rank() OVER (PARTITION BY dept ORDER BY salary), sum(salary) OVER (PARTITION BY dept ORDER BY salary ROWS 1 PRECEDING), lag(id) OVER (ORDER BY id) FROM emp WHERE id > 2;
