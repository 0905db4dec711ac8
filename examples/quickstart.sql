-- comb quick start: a transactional table through its whole life.
CREATE DATABASE IF NOT EXISTS demo;
USE demo;
DROP TABLE IF EXISTS customers;
CREATE TABLE customers (id INT, name STRING, city STRING, balance DOUBLE)
CLUSTERED BY (id) INTO 4 BUCKETS
STORED AS ORC
TBLPROPERTIES ('transactional'='true');
-- @step insert five customers
INSERT INTO customers VALUES
  (1, 'Ada', 'London', 120.0),
  (2, 'Brian', 'Paris', 80.5),
  (3, 'Chen', 'Berlin', 300.25),
  (4, 'Dora', 'Madrid', 0.0),
  (5, 'Emil', 'Oslo', 42.0);
SELECT * FROM customers ORDER BY id;
-- @step a correction: Brian moved, Chen got a refund (split update)
UPDATE customers SET city = 'Lyon', balance = balance + 10 WHERE id = 2;
UPDATE customers SET balance = balance - 100 WHERE id = 3;
SELECT ROW__ID, id, name, city, balance FROM customers ORDER BY id;
-- @step a GDPR delete
DELETE FROM customers WHERE name = 'Dora';
SELECT city, count(*), sum(balance) FROM customers GROUP BY city ORDER BY city;
SELECT * FROM customers ORDER BY id;
