-- Subqueries in WHERE and in the select list: [NOT] IN with SQL's (and
-- Hive's) NULL semantics, [NOT] EXISTS, scalar subqueries, correlated
-- ones, and Hive's errors.
CREATE TABLE orders (id INT, cust STRING, amount DOUBLE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO orders VALUES (1, 'a', 10.0), (2, 'b', 20.0), (3, 'a', 30.0), (4, NULL, 40.0), (5, 'c', NULL);
CREATE TABLE vip (cust STRING, since INT) STORED AS ORC;
INSERT INTO vip VALUES ('a', 2020), ('c', 2021), ('z', 2022);
CREATE TABLE blocked (cust STRING) STORED AS ORC;
INSERT INTO blocked VALUES ('b'), (NULL);
CREATE TABLE nums (n BIGINT) STORED AS ORC;
INSERT INTO nums VALUES (1), (3), (30);

-- IN and NOT IN; NOT IN over a subquery holding NULL gives no rows
SELECT id FROM orders WHERE cust IN (SELECT cust FROM vip) ORDER BY id;
SELECT id FROM orders WHERE cust NOT IN (SELECT cust FROM vip) ORDER BY id;
SELECT id FROM orders WHERE cust NOT IN (SELECT cust FROM blocked) ORDER BY id;
SELECT id FROM orders WHERE cust NOT IN (SELECT cust FROM blocked WHERE cust IS NOT NULL) ORDER BY id;
SELECT id FROM orders WHERE cust IN (SELECT cust FROM blocked) ORDER BY id;
-- an INT column IN a BIGINT subquery, a DOUBLE against BIGINT
SELECT id FROM orders WHERE id IN (SELECT n FROM nums) ORDER BY id;
SELECT id FROM orders WHERE amount IN (SELECT n FROM nums) ORDER BY id;
-- IN under OR or NOT: a three-valued mark
SELECT id FROM orders WHERE cust IN (SELECT cust FROM vip) OR amount > 35 ORDER BY id;
SELECT id, cust IN (SELECT cust FROM blocked) FROM orders ORDER BY id;
-- EXISTS and NOT EXISTS, correlated
SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM vip v WHERE v.cust = o.cust) ORDER BY id;
SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM vip v WHERE v.cust = o.cust) ORDER BY id;
SELECT cust FROM vip v WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.cust = v.cust AND o.amount > 15) ORDER BY cust;
SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM vip) ORDER BY id;
-- correlated IN and NOT IN
SELECT id FROM orders o WHERE id IN (SELECT n FROM nums WHERE n < o.amount) ORDER BY id;
SELECT id FROM orders o WHERE cust NOT IN (SELECT cust FROM vip v WHERE v.since > 2020 AND v.cust = o.cust) ORDER BY id;
-- scalar subqueries: uncorrelated, correlated aggregates (no match: the
-- aggregate over no rows, so count is 0), in the select list
SELECT id FROM orders WHERE amount > (SELECT avg(amount) FROM orders) ORDER BY id;
SELECT cust, (SELECT count(*) FROM orders o WHERE o.cust = v.cust) n,
  (SELECT sum(amount) FROM orders o WHERE o.cust = v.cust) total FROM vip v ORDER BY cust;
SELECT id, (SELECT max(since) FROM vip) FROM orders WHERE id < 3 ORDER BY id;
SELECT id FROM orders WHERE amount = (SELECT n FROM nums WHERE n > 100) ORDER BY id;
-- subqueries over joins, with their own subqueries, in views and CTAS
SELECT o.id FROM orders o JOIN vip v ON o.cust = v.cust WHERE o.id NOT IN (SELECT n FROM nums) ORDER BY o.id;
SELECT id FROM orders WHERE cust IN (SELECT cust FROM vip WHERE since IN (SELECT max(since) FROM vip WHERE cust <> 'z')) ORDER BY id;
CREATE VIEW good AS SELECT id, cust FROM orders WHERE cust NOT IN (SELECT cust FROM blocked WHERE cust IS NOT NULL);
SELECT * FROM good ORDER BY id;
CREATE TABLE big AS SELECT id FROM orders WHERE amount >= (SELECT avg(amount) FROM orders);
SELECT * FROM big ORDER BY id;
-- the plans
EXPLAIN SELECT id FROM orders WHERE cust NOT IN (SELECT cust FROM blocked);
EXPLAIN SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM vip v WHERE v.cust = o.cust AND v.since > 2000);
-- errors
SELECT id FROM orders WHERE amount = (SELECT n FROM nums);
SELECT id FROM orders WHERE cust IN (SELECT cust, since FROM vip);
SELECT id FROM orders WHERE cust IN (SELECT nosuch FROM vip);
