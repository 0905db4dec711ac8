-- Hive's rules for MERGE, each an error with line:column that changes
-- nothing.
CREATE TABLE t (id INT, name STRING, score INT) PARTITIONED BY (p STRING)
CLUSTERED BY (id) INTO 2 BUCKETS STORED AS ORC
TBLPROPERTIES ('transactional'='true');
CREATE TABLE s (id INT, name STRING, p STRING);
INSERT INTO t PARTITION (p) VALUES (1, 'a', 1, 'x'), (2, 'b', 2, 'y');
INSERT INTO s VALUES (1, 'one', 'x'), (1, 'uno', 'x'), (3, 'three', 'z');
-- two WHEN MATCHED UPDATE clauses
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED AND s.name = 'one' THEN UPDATE SET name = s.name
WHEN MATCHED THEN UPDATE SET score = 0;
-- two WHEN MATCHED DELETE clauses
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED AND s.name = 'one' THEN DELETE
WHEN MATCHED THEN DELETE;
-- UPDATE and DELETE: the first needs a condition
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET name = s.name
WHEN MATCHED AND s.id > 0 THEN DELETE;
-- WHEN NOT MATCHED is the last clause
MERGE INTO t USING s ON t.id = s.id
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, 0, s.p)
WHEN MATCHED THEN DELETE;
-- the INSERT branch with the wrong number of values
MERGE INTO t USING s ON t.id = s.id
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, s.p);
-- an ON clause that never reads the target
MERGE INTO t USING s ON s.id = 1 AND s.name IS NOT NULL
WHEN MATCHED THEN DELETE;
-- SET of an unknown column, a partition column, a bucketing column
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET nosuch = 1;
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET p = 'q';
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET id = 7;
-- the ON clause matches target row 1 twice: the cardinality check fails
-- the statement, and the INSERT of id 3 is not visible either
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET name = s.name
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, 0, s.p);
SELECT * FROM t ORDER BY id;
-- @sh cd "$WH/t" && find . -mindepth 1 -type d | sort
-- with the check off, both source rows update the row: its old image is
-- deleted (twice) and both new images are inserted, as in Hive
SET hive.merge.cardinality.check=false;
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET name = s.name;
SELECT * FROM t ORDER BY id;
-- a target that is not full ACID
CREATE TABLE plain (id INT) STORED AS TEXTFILE TBLPROPERTIES ('transactional'='false');
SELECT COUNT(*) FROM plain;
CREATE TABLE io (id INT) STORED AS ORC
TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
MERGE INTO plain USING s ON plain.id = s.id WHEN MATCHED THEN DELETE;
MERGE INTO io USING s ON io.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id);
CREATE VIEW v AS SELECT * FROM t;
MERGE INTO v USING s ON v.id = s.id WHEN MATCHED THEN DELETE;
-- syntax
MERGE INTO t USING s ON t.id = s.id;
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN INSERT VALUES (1);
