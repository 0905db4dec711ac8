-- WHERE with AND/OR/NOT and NULLs, expressions, functions, aggregates,
-- ORDER BY (NULLS LAST ascending), LIMIT.
CREATE TABLE p (id INT, name STRING, qty BIGINT, price DOUBLE, ok BOOLEAN)
TBLPROPERTIES ('transactional'='true');
INSERT INTO p VALUES
  (1, 'apple', 10, 0.5, true),
  (2, 'banana', NULL, 0.25, false),
  (3, 'cherry', 200, 7.125, NULL),
  (4, NULL, 5, NULL, true),
  (5, 'date', 0, 3.0, false),
  (6, 'elder', 42, 1e-4, true);
SELECT id FROM p WHERE qty > 5 AND ok ORDER BY id;
SELECT id FROM p WHERE qty > 5 OR NOT ok ORDER BY id;
SELECT id FROM p WHERE NOT (qty > 5) ORDER BY id;
SELECT id FROM p WHERE qty IS NULL OR name IS NULL ORDER BY id;
SELECT id FROM p WHERE id BETWEEN 2 AND 4 ORDER BY id;
SELECT id FROM p WHERE id NOT IN (1, 3, 5) ORDER BY id;
SELECT id FROM p WHERE name LIKE '%e%' ORDER BY id;
SELECT id, qty * 2 + 1, qty / 4, qty % 7, qty DIV 7, -price, price * 1000000000 FROM p ORDER BY id;
SELECT id, upper(name), length(name), concat(name, '-', id), coalesce(name, 'none'), name || '!' FROM p ORDER BY id;
SELECT id, qty / 0, CAST(price AS INT), CAST('12' AS INT), CAST('x' AS INT), CAST(id AS STRING), CAST(ok AS INT) FROM p ORDER BY id;
SELECT 1 + 1, 7 / 2, 'a' < 'b', NULL IS NULL, 2 * 1073741824, 3.5E10, 0.001, 123456789.5;
SELECT count(*), count(qty), sum(qty), min(name), max(price), avg(qty) FROM p;
SELECT count(*), sum(qty), min(name) FROM p WHERE id > 100;
SELECT ok, count(*), sum(price) FROM p GROUP BY ok ORDER BY ok;
SELECT name, price FROM p ORDER BY price DESC;
SELECT name, price FROM p ORDER BY price NULLS FIRST LIMIT 3;
SELECT id, name FROM p ORDER BY name LIMIT 2;
SELECT * FROM p LIMIT 0;
SELECT id FROM p WHERE id > 100;
-- INSERT ... SELECT, with a column list and conversions
CREATE TABLE q (id BIGINT, label STRING) TBLPROPERTIES ('transactional'='true');
INSERT INTO q SELECT id, name FROM p WHERE ok;
INSERT INTO q (label) SELECT 'only label' FROM p WHERE id = 1;
INSERT INTO q SELECT id * 100, CAST(id + 1 AS STRING) FROM q WHERE id < 10;
SELECT * FROM q ORDER BY id;
SELECT label, count(*) FROM q GROUP BY label ORDER BY label;
