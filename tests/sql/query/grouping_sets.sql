-- GROUP BY with HAVING, GROUPING SETS, ROLLUP, CUBE (both spellings),
-- GROUPING__ID (Hive 4: bit set = key not grouped, the first key the
-- most significant bit) and grouping(); DISTINCT inside aggregates;
-- LIMIT offset, n.
CREATE TABLE sales (region STRING, product STRING, qty INT, price DECIMAL(6,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO sales VALUES ('eu', 'pen', 1, 1.50), ('eu', 'pen', 2, 1.50), ('eu', 'ink', 5, 3.00),
  ('us', 'pen', 3, 1.75), ('us', NULL, 4, 2.00), (NULL, 'ink', 6, 3.00);

SELECT region, product, sum(qty), GROUPING__ID FROM sales GROUP BY region, product WITH ROLLUP ORDER BY GROUPING__ID, region, product;
SELECT region, product, sum(qty) FROM sales GROUP BY ROLLUP (region, product) ORDER BY region, product;
SELECT region, product, count(*), GROUPING__ID, grouping(region), grouping(product) FROM sales
  GROUP BY region, product WITH CUBE ORDER BY GROUPING__ID, region, product;
SELECT region, product, count(*) FROM sales GROUP BY CUBE (region, product) HAVING count(*) > 2 ORDER BY region, product;
SELECT region, product, sum(qty), GROUPING__ID FROM sales
  GROUP BY region, product GROUPING SETS ((region), (product), ()) ORDER BY GROUPING__ID, region, product;
SELECT region, sum(qty) FROM sales GROUP BY region GROUPING SETS (region, ()) ORDER BY region;
-- a NULL key value and a rolled-up key look alike; grouping() tells them apart
SELECT region, grouping(region), sum(qty) FROM sales GROUP BY region WITH ROLLUP ORDER BY grouping(region), region;
-- HAVING with aggregates and keys
SELECT region, sum(qty * price) total FROM sales GROUP BY region HAVING sum(qty) > 5 AND region IS NOT NULL ORDER BY region;
SELECT product FROM sales GROUP BY product HAVING max(qty) >= 5 ORDER BY product;
-- DISTINCT inside aggregates, alone and with others, per group
SELECT count(DISTINCT region), count(DISTINCT product), count(*), sum(DISTINCT price), sum(price) FROM sales;
SELECT region, count(DISTINCT product), avg(DISTINCT qty), count(DISTINCT product, price) FROM sales GROUP BY region ORDER BY region;
SELECT count(DISTINCT region) FROM sales WHERE qty > 100;
-- LIMIT offset, n and LIMIT n OFFSET o
SELECT qty FROM sales ORDER BY qty LIMIT 2, 3;
SELECT qty FROM sales ORDER BY qty LIMIT 2 OFFSET 4;
SELECT qty FROM sales ORDER BY qty LIMIT 10, 3;
EXPLAIN SELECT region, count(*) FROM sales GROUP BY region WITH ROLLUP;
EXPLAIN SELECT qty FROM sales ORDER BY qty LIMIT 2, 3;
-- errors
SELECT region, product, count(*) FROM sales GROUP BY region GROUPING SETS ((region, product));
SELECT region, grouping(product) FROM sales GROUP BY region WITH ROLLUP;
SELECT region, grouping(region) FROM sales GROUP BY region;
SELECT region, qty FROM sales GROUP BY region WITH CUBE;
