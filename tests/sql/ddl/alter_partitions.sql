-- ALTER TABLE ADD / DROP PARTITION.  Values are converted to the keys'
-- types as INSERT ... PARTITION converts them; ADD makes the directories
-- durable before the catalog adds the partitions; DROP takes Hive's
-- comparison specs and removes the directories of a managed table's
-- partitions once the catalog has dropped them.
CREATE TABLE s (v INT) PARTITIONED BY (ds STRING, n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
ALTER TABLE s ADD PARTITION (ds='2024-01-01', n='007');
ALTER TABLE s ADD IF NOT EXISTS PARTITION (ds='2024-01-01', n=7) PARTITION (n=1, ds='2024-01-02')
  PARTITION (ds='2024-02-01', n=-3);
-- @sh cd warehouse/s && find . | sort
-- an added partition is empty until written
SELECT count(*) FROM s;
INSERT INTO s PARTITION (ds='2024-01-01', n=7) VALUES (1), (2);
INSERT INTO s PARTITION (ds, n) VALUES (3, '2024-01-02', 1), (4, '2023-12-31', 5), (5, NULL, NULL);
SELECT * FROM s ORDER BY v;
-- the partition exists: adding it again fails
ALTER TABLE s ADD PARTITION (ds='2024-01-01', n=7);

-- DROP with comparisons: one spec's terms are ANDed, several specs united
ALTER TABLE s DROP PARTITION (ds < '2024-01-01');
SELECT * FROM s ORDER BY v;
ALTER TABLE s DROP PARTITION (ds >= '2024-02-01'), PARTITION (ds = '2024-01-02', n <> 2);
SELECT * FROM s ORDER BY v;
-- @sh cd warehouse/s && find . -maxdepth 2 | sort
-- the default partition (NULL keys): = and != only
ALTER TABLE s DROP PARTITION (ds = '__HIVE_DEFAULT_PARTITION__', n != 3);
ALTER TABLE s DROP PARTITION (ds = '__HIVE_DEFAULT_PARTITION__');
SELECT * FROM s ORDER BY v;
-- @sh cd warehouse/s && find . -maxdepth 2 | sort
ALTER TABLE s DROP IF EXISTS PARTITION (ds = 'nope');
ALTER TABLE s DROP PARTITION (ds = '2024-01-01', n = 7) PURGE;
SELECT count(*) FROM s;
-- @sh cd warehouse/s && find . | sort

-- plain, insert-only and text tables; LOCATION; an external table keeps
-- the files of a dropped partition
CREATE TABLE t (v STRING) PARTITIONED BY (k STRING) STORED AS TEXTFILE;
ALTER TABLE t ADD PARTITION (k='a') LOCATION '${env:WH}/t_a' PARTITION (k='b');
INSERT INTO t PARTITION (k='a') VALUES ('in a');
INSERT INTO t PARTITION (k='b') VALUES ('in b');
SELECT * FROM t ORDER BY k;
-- @sh ls t_a warehouse/t
ALTER TABLE t DROP PARTITION (k='a');
SELECT * FROM t ORDER BY k;
-- @sh ls -d t_a 2>&1; ls warehouse/t
CREATE TABLE mm (v INT) PARTITIONED BY (k INT) TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
ALTER TABLE mm ADD PARTITION (k=1);
INSERT INTO mm PARTITION (k=1) VALUES (1);
ALTER TABLE mm DROP PARTITION (k > 0);
SELECT * FROM mm;
CREATE EXTERNAL TABLE ext (v INT) PARTITIONED BY (k INT) STORED AS ORC LOCATION '${env:WH}/ext';
ALTER TABLE ext ADD PARTITION (k=1);
INSERT INTO ext PARTITION (k=1) VALUES (1);
ALTER TABLE ext DROP PARTITION (k=1);
SELECT * FROM ext;
-- @sh find ext | sort
-- typed comparisons: an INT key compares as a number
CREATE TABLE num (v INT) PARTITIONED BY (k INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO num PARTITION (k) VALUES (1, 9), (2, 10), (3, 100);
ALTER TABLE num DROP PARTITION (k < '50');
SELECT * FROM num;

-- errors: nothing changes
CREATE TABLE flat (v INT) STORED AS ORC;
ALTER TABLE flat ADD PARTITION (k='a');
ALTER TABLE flat DROP PARTITION (k='a');
ALTER TABLE num ADD PARTITION (nokey=1);
ALTER TABLE num ADD PARTITION (k='x');
ALTER TABLE num ADD PARTITION (k=200) PARTITION (k='0200');
ALTER TABLE t ADD PARTITION (k='__HIVE_DEFAULT_PARTITION__');
ALTER TABLE t ADD PARTITION (k='x_INTERMEDIATE_ARCHIVED');
ALTER TABLE s ADD PARTITION (ds='2025-01-01');
ALTER TABLE s ADD PARTITION (ds='2025-01-01', n=1) LOCATION '/tmp/x';
ALTER TABLE num DROP PARTITION (k = 5);
ALTER TABLE num DROP PARTITION (k = 100), PARTITION (k = 5);
ALTER TABLE s DROP PARTITION (ds = '2024', n = 1);
ALTER TABLE s DROP PARTITION (v = 1);
ALTER TABLE s DROP PARTITION (ds < '__HIVE_DEFAULT_PARTITION__');
ALTER TABLE s DROP PARTITION (n = 1Y);
ALTER TABLE nosuch DROP PARTITION (k = 1);
SELECT * FROM num;
-- @sh cd warehouse && ls num s
