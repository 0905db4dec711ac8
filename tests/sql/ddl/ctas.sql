-- CREATE TABLE AS SELECT of every kind: full ACID (managed ORC, as
-- hive.create.as.acid makes it), insert-only, plain, TEXTFILE, EXTERNAL,
-- partitioned by query columns (Hive 4); column names and types from the
-- query; Hive's refusals; and a failing query leaves no table and no
-- directory.
CREATE TABLE src (id INT, name VARCHAR(10), grp CHAR(3), amount DECIMAL(6,2), day DATE)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO src VALUES (1, 'one', 'a', 1.50, DATE '2024-01-01'), (2, 'two', 'a', NULL, DATE '2024-01-02'),
  (3, 'three', 'b', 3.25, NULL), (4, NULL, NULL, 4.00, DATE '2024-01-01');
CREATE TABLE plain_src (x INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO plain_src VALUES (1);

-- names and types come from the query: aliases, column names, _cN
CREATE TABLE c_acid AS SELECT id, name, grp, amount * 2 AS twice, day, id + 1, upper(name), array(id, 2) FROM src;
DESCRIBE c_acid;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED c_acid" | grep -E 'Table Type|transactional|InputFormat'
SELECT * FROM c_acid ORDER BY id;
SELECT ROW__ID.writeid, id FROM c_acid ORDER BY id;
-- @sh cd warehouse/c_acid && find . | sort
UPDATE c_acid SET name = 'uno' WHERE id = 1;
SELECT id, name FROM c_acid WHERE id = 1;

-- insert-only, plain, TEXTFILE (plain without properties), EXTERNAL
-- (plain)
CREATE TABLE c_mm TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')
  AS SELECT id, amount FROM src WHERE id > 1 ORDER BY id LIMIT 2;
SELECT * FROM c_mm ORDER BY id;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED c_mm" | grep -E 'Table Type|transactional'
-- @sh cd warehouse/c_mm && find . -type d | sort
CREATE TABLE c_plain TBLPROPERTIES ('transactional'='false') AS SELECT grp, count(*) AS n FROM src GROUP BY grp;
SELECT * FROM c_plain ORDER BY grp;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED c_plain" | grep -E 'Table Type|transactional'
-- @sh cd warehouse/c_plain && find . | sort
CREATE TABLE c_text ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE
  AS SELECT id, name, day FROM src ORDER BY id;
SELECT * FROM c_text ORDER BY id;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED c_text" | grep -E 'Table Type|transactional|InputFormat'
-- @sh cd warehouse/c_text && find . | sort && cat 000000_0
CREATE EXTERNAL TABLE c_ext LOCATION '${env:WH}/ext_dir' AS SELECT id FROM src WHERE id < 3;
SELECT * FROM c_ext ORDER BY id;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED c_ext" | grep -E 'Location|Table Type|transactional'
-- @sh cd ext_dir && find . | sort
DROP TABLE c_ext;
-- @sh ls ext_dir

-- PARTITIONED BY names query columns: they become the partition keys, in
-- the clause's order, after the other columns
CREATE TABLE c_part PARTITIONED BY (grp, day) AS SELECT day, id, grp, name FROM src;
DESCRIBE c_part;
SELECT * FROM c_part ORDER BY id;
-- @sh cd warehouse/c_part && find . -type d | sort
SELECT id FROM c_part WHERE grp = 'a' AND day = '2024-01-02';
CREATE TABLE c_part_plain PARTITIONED BY (g) TBLPROPERTIES ('transactional'='false')
  AS SELECT id, grp AS g FROM src WHERE id < 3;
SELECT * FROM c_part_plain ORDER BY id;
-- @sh cd warehouse/c_part_plain && find . -type d | sort

-- from subqueries and views
CREATE VIEW v_src AS SELECT id, amount FROM src WHERE amount IS NOT NULL;
CREATE TABLE c_view AS SELECT s.n, s.total FROM (SELECT count(*) n, sum(amount) total FROM v_src) s;
SELECT * FROM c_view;

-- IF NOT EXISTS: an existing table is left alone and the query not run
CREATE TABLE IF NOT EXISTS c_acid AS SELECT * FROM nosuch;
CREATE TABLE c_acid AS SELECT 1 AS x;
SELECT count(*) FROM c_acid;

-- Hive's refusals
CREATE TABLE c_bad (a INT) AS SELECT 1;
CREATE TABLE c_bad PARTITIONED BY (p INT) AS SELECT 1 AS a, 2 AS p;
CREATE TABLE c_bad CLUSTERED BY (a) INTO 2 BUCKETS AS SELECT 1 AS a;
CREATE TABLE c_bad AS SELECT NULL AS n, 1 AS a;
CREATE TABLE c_bad AS SELECT id, id FROM src;
CREATE TABLE c_bad PARTITIONED BY (nosuch) AS SELECT id, name FROM src;
CREATE TABLE c_bad PARTITIONED BY (name, name) AS SELECT id, name, grp FROM src;
CREATE TABLE c_bad PARTITIONED BY (id, name) AS SELECT id, name FROM src;
CREATE TABLE c_bad (a INT) PARTITIONED BY (p);
CREATE TABLE c_bad PARTITIONED BY (a) AS SELECT id, array(1) AS a FROM src;
CREATE TABLE c_bad LOCATION '${env:WH}/warehouse/c_acid' AS SELECT 1 AS a;
SET hive.ctas.external.tables=false;
CREATE EXTERNAL TABLE c_bad AS SELECT 1 AS a;
CREATE TABLE nodb.c_bad AS SELECT 1 AS a;
SHOW TABLES;
-- @sh ls warehouse

-- a query that fails while its rows are written leaves no table and no
-- directory (ROW__ID of a plain table fails when the scan opens; too many
-- dynamic partitions fail after files were written)
CREATE TABLE c_fail AS SELECT ROW__ID FROM plain_src;
SET hive.exec.max.dynamic.partitions=2;
CREATE TABLE c_fail PARTITIONED BY (id) AS SELECT name, id FROM src;
CREATE TABLE c_fail PARTITIONED BY (id) TBLPROPERTIES ('transactional'='false') AS SELECT name, id FROM src;
CREATE TABLE c_fail PARTITIONED BY (id) STORED AS TEXTFILE AS SELECT name, id FROM src;
SHOW TABLES LIKE 'c_fail';
-- @sh ls -a warehouse
CREATE TABLE c_fail AS SELECT id FROM src WHERE id = 4;
SELECT * FROM c_fail;

-- the new table's ORC options and SerDe clauses apply to the rows CTAS
-- writes; an ORC option that is no option fails it, leaving nothing
CREATE TABLE c_snappy TBLPROPERTIES ('orc.compress'='SNAPPY', 'orc.stripe.size'='1048576') AS SELECT id FROM src;
-- @sh "$COMB" orcfiledump warehouse/c_snappy/delta_*/bucket_00000 | grep -E '^Compression:'
CREATE TABLE c_bogus TBLPROPERTIES ('orc.compress'='BOGUS') AS SELECT id FROM src;
SHOW TABLES LIKE 'c_bogus';
-- @sh ls warehouse | grep -c c_bogus
CREATE TABLE c_serde ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe'
  WITH SERDEPROPERTIES ('field.delim'='#') STORED AS TEXTFILE AS SELECT id, name FROM src WHERE id < 3;
-- @sh cat warehouse/c_serde/000000_0
