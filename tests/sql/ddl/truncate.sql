-- TRUNCATE TABLE [PARTITION (...)] [FORCE].  Full ACID and insert-only
-- tables get a new empty base_W in each partition, W the statement's write
-- id, as Hive 4 does (hive.acid.truncate.usebase): snapshots taken before
-- still read the old rows.  Plain tables lose their files (hidden files
-- stay), every partition or none.  External tables only with
-- 'external.table.purge' or FORCE.
CREATE TABLE acid (id INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acid VALUES (1, 'a'), (2, 'b');
DELETE FROM acid WHERE id = 2;
TRUNCATE TABLE acid;
SELECT * FROM acid;
INSERT INTO acid VALUES (3, 'c');
SELECT ROW__ID.writeid, id, v FROM acid;
-- @sh cd warehouse/acid && ls && cat base_0000003/_metadata_acid && echo
UPDATE acid SET v = 'C';
SELECT * FROM acid;

CREATE TABLE parts (v INT) PARTITIONED BY (ds STRING, h INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO parts PARTITION (ds, h) VALUES (1, 'a', 1), (2, 'a', 2), (3, 'b', 1), (4, 'c', 1);
TRUNCATE TABLE parts PARTITION (ds='a', h='01');
SELECT * FROM parts ORDER BY v;
-- a partial spec empties every partition it matches
TRUNCATE TABLE parts PARTITION (ds='a');
SELECT * FROM parts ORDER BY v;
TRUNCATE parts;
SELECT count(*) FROM parts;
-- @sh cd warehouse/parts && find . -name 'base_*' | sort

CREATE TABLE mm (v INT) TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO mm VALUES (1);
TRUNCATE TABLE mm;
INSERT INTO mm VALUES (2);
SELECT * FROM mm;
-- @sh cd warehouse/mm && find . | sort

-- plain tables: the files go, hidden ones stay
CREATE TABLE p (v INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO p VALUES (1);
INSERT INTO p VALUES (2);
-- @sh touch warehouse/p/_SUCCESS && mkdir warehouse/p/subdir
TRUNCATE TABLE p;
SELECT * FROM p;
-- @sh cd warehouse && ls -A p && ls -A | grep -c swap
INSERT INTO p VALUES (3);
SELECT * FROM p;
CREATE TABLE tp (v STRING) PARTITIONED BY (k INT) STORED AS TEXTFILE;
INSERT INTO tp PARTITION (k) VALUES ('x', 1), ('y', 2);
TRUNCATE TABLE tp PARTITION (k=1);
SELECT * FROM tp;
-- @sh cd warehouse/tp && find . | sort

-- external tables: only with external.table.purge, or FORCE
CREATE EXTERNAL TABLE ext (v INT) STORED AS ORC LOCATION '${env:WH}/ext';
INSERT INTO ext VALUES (1);
TRUNCATE TABLE ext;
ALTER TABLE ext SET TBLPROPERTIES ('external.table.purge'='false');
TRUNCATE TABLE ext;
TRUNCATE TABLE ext FORCE;
SELECT * FROM ext;
INSERT INTO ext VALUES (2);
ALTER TABLE ext SET TBLPROPERTIES ('external.table.purge'='true');
TRUNCATE TABLE default.ext;
SELECT * FROM ext;

-- errors: nothing changes
INSERT INTO acid VALUES (4, 'd');
TRUNCATE TABLE nosuch;
TRUNCATE TABLE d9.nosuch;
TRUNCATE TABLE acid PARTITION (ds='a');
CREATE TABLE parts2 (v INT) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO parts2 PARTITION (ds='a') VALUES (1);
TRUNCATE TABLE parts2 PARTITION (ds='zz');
TRUNCATE TABLE parts2 PARTITION (nokey='a');
TRUNCATE TABLE parts2 PARTITION (ds='a') COLUMNS (v);
SELECT * FROM acid ORDER BY id;
SELECT * FROM parts2;
