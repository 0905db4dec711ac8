-- ALTER TABLE [PARTITION (...)] CONCATENATE: a plain ORC table's (or
-- partition's) files merged into one.  The merged file is durable before
-- the old ones go, and the directory changes in one step (a reader lists
-- the old files or the new one).  Hive's errors 30030-30035 otherwise.
CREATE TABLE p (a INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO p VALUES (1, 'one');
INSERT INTO p VALUES (2, 'two'), (3, NULL);
INSERT INTO p VALUES (4, 'four');
-- a file written before a column change is merged as the table reads it
ALTER TABLE p CHANGE a a BIGINT;
ALTER TABLE p ADD COLUMNS (x DOUBLE);
INSERT INTO p VALUES (5, 'five', 5.5);
-- @sh touch warehouse/p/_SUCCESS && cd warehouse/p && ls -A
ALTER TABLE p CONCATENATE;
-- @sh cd warehouse/p && ls -A
SELECT * FROM p ORDER BY a;
INSERT INTO p VALUES (6, 'six', NULL);
SELECT count(*), sum(a) FROM p;
-- @sh cd warehouse/p && ls -A
-- one file: nothing to merge
CREATE TABLE one (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO one VALUES (1);
ALTER TABLE one CONCATENATE;
-- @sh cd warehouse/one && ls -A

-- a partition
CREATE TABLE part (v INT) PARTITIONED BY (ds STRING, h INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO part PARTITION (ds='a', h=1) VALUES (1);
INSERT INTO part PARTITION (ds='a', h=1) VALUES (2);
INSERT INTO part PARTITION (ds='b', h=1) VALUES (3);
INSERT INTO part PARTITION (ds='b', h=1) VALUES (4);
ALTER TABLE part PARTITION (ds='a', h='01') CONCATENATE;
SELECT * FROM part ORDER BY v;
-- @sh cd warehouse/part && find . -type f | sort

-- an external table only with hive.concatenate.external.table
CREATE EXTERNAL TABLE ext (a INT) STORED AS ORC LOCATION '${env:WH}/ext';
INSERT INTO ext VALUES (1);
INSERT INTO ext VALUES (2);
ALTER TABLE ext CONCATENATE;
SET hive.concatenate.external.table=true;
ALTER TABLE ext CONCATENATE;
SELECT * FROM ext ORDER BY a;
-- @sh ls ext

-- errors: nothing changes
CREATE TABLE acid (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acid VALUES (1);
INSERT INTO acid VALUES (2);
ALTER TABLE acid CONCATENATE;
CREATE TABLE mm (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
ALTER TABLE mm CONCATENATE;
CREATE TABLE txt (a INT) STORED AS TEXTFILE;
INSERT INTO txt VALUES (1);
INSERT INTO txt VALUES (2);
ALTER TABLE txt CONCATENATE;
CREATE TABLE b (a INT) CLUSTERED BY (a) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='false');
ALTER TABLE b CONCATENATE;
ALTER TABLE part CONCATENATE;
ALTER TABLE part PARTITION (ds='b') CONCATENATE;
ALTER TABLE part PARTITION (ds='zz', h=1) CONCATENATE;
ALTER TABLE p PARTITION (ds='a') CONCATENATE;
ALTER TABLE nosuch CONCATENATE;
SELECT * FROM part ORDER BY v;
-- @sh cd warehouse && find acid txt part -type f | sort
