-- Databases, tables, SHOW, DESCRIBE, DROP, and where tables live on disk.
SHOW DATABASES;
CREATE DATABASE sales COMMENT 'sales data';
CREATE DATABASE sales;
CREATE DATABASE IF NOT EXISTS sales;
CREATE SCHEMA hr;
SHOW DATABASES;
SHOW DATABASES LIKE 's*';
USE sales;
CREATE TABLE orders (id BIGINT COMMENT 'order id', customer STRING, amount DOUBLE, paid BOOLEAN)
CLUSTERED BY (id) INTO 8 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true', 'owner.team'='billing');
CREATE TABLE orders (id INT);
CREATE TABLE IF NOT EXISTS orders (id INT);
CREATE TABLE refunds (id BIGINT, note VARCHAR(20), code CHAR(3), qty SMALLINT, flag TINYINT, ratio FLOAT);
CREATE TABLE plain (a INT) TBLPROPERTIES ('transactional'='false');
SHOW TABLES;
SHOW TABLES LIKE 'ord*|plain';
SHOW TABLES IN default;
DESCRIBE orders;
DESCRIBE refunds;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED sales.orders" | sed -e "s|$WH|WH|" -e 's/^CreateTime:.*/CreateTime: (masked)/' -e 's/transient_lastDdlTime\t[0-9]*/transient_lastDdlTime\t(masked)/'
-- a managed ORC table is full-ACID unless told otherwise
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED sales.refunds" | grep -E 'transactional|bucketing_version|Num Buckets'
USE sales;
-- non-ACID tables can't be updated
UPDATE plain SET a = 1;
-- refusals
CREATE TABLE bad1 (a INT, a STRING);
CREATE TABLE bad2 (a INT) CLUSTERED BY (b) INTO 2 BUCKETS;
CREATE TABLE bad3 (a INT) STORED AS TEXTFILE TBLPROPERTIES ('transactional'='true');
CREATE TABLE bad4 (a INT) TBLPROPERTIES ('transactional'='yes');
CREATE TABLE bad5 (a UNIONTYPE<INT,STRING>);
CREATE TABLE bad6 (a INT) PARTITIONED BY (p STRING);
CREATE TABLE nosuchdb.t (a INT);
DROP DATABASE sales;
-- @sh cd "$WH" && find . -mindepth 1 -maxdepth 2 -not -name 'metastore.db*' | sort
USE sales;
DROP TABLE plain;
DROP TABLE plain;
DROP TABLE IF EXISTS plain;
DROP DATABASE sales CASCADE;
USE default;
SHOW DATABASES;
DROP DATABASE default;
-- @sh cd "$WH" && find . -mindepth 1 -maxdepth 2 -not -name 'metastore.db*' | sort
