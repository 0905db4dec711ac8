-- ALTER TABLE [PARTITION (...)] SET LOCATION and SET / UNSET
-- SERDEPROPERTIES.  A new location must be absolute (Hive's 10244); its
-- directory is made durable before the catalog names it; the files of
-- the old location stay where they are.
CREATE TABLE p (v INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO p VALUES (1);
ALTER TABLE p SET LOCATION '${env:WH}/elsewhere/p';
SELECT * FROM p;
INSERT INTO p VALUES (2);
SELECT * FROM p;
-- @sh ls elsewhere/p warehouse/p
-- back to the old directory, as a file: URI
ALTER TABLE p SET LOCATION 'file://${env:WH}/warehouse/p';
SELECT * FROM p;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED p" | grep -E '^Location:' | sed "s|$WH|WH|"

-- a transactional table reads the ACID directories of its new location
CREATE TABLE a (v INT) TBLPROPERTIES ('transactional'='true');
INSERT INTO a VALUES (10);
ALTER TABLE a SET LOCATION '${env:WH}/a_new';
SELECT * FROM a;
INSERT INTO a VALUES (11);
SELECT ROW__ID.writeid, v FROM a;

-- a partition
CREATE TABLE part (v INT) PARTITIONED BY (ds STRING, n INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO part PARTITION (ds, n) VALUES (1, 'a', 1), (2, 'b', 2);
ALTER TABLE part PARTITION (ds='a', n='01') SET LOCATION '${env:WH}/pa';
SELECT * FROM part ORDER BY v;
INSERT INTO part PARTITION (ds='a', n=1) VALUES (3);
SELECT * FROM part ORDER BY v;
-- @sh ls pa warehouse/part/ds=a/n=1

-- SerDe properties of a text table: the files read with the new settings
CREATE TABLE csv (a INT, b STRING) STORED AS TEXTFILE;
-- @sh printf '1,one\n2,two\n' > warehouse/csv/data.csv
SELECT * FROM csv;
ALTER TABLE csv SET SERDEPROPERTIES ('field.delim'=',', 'serialization.null.format'='-');
SELECT * FROM csv ORDER BY a;
INSERT INTO csv VALUES (3, NULL);
SELECT * FROM csv ORDER BY a;
-- @sh cat warehouse/csv/000000_0
ALTER TABLE csv UNSET SERDEPROPERTIES ('serialization.null.format');
SELECT * FROM csv ORDER BY a;

-- errors: nothing changes
ALTER TABLE p SET LOCATION 'relative/dir';
ALTER TABLE p SET LOCATION 'hdfs://nn:8020/x';
-- @sh mkdir -p warehouse/other/delta_0000001_0000001_0000
ALTER TABLE a SET LOCATION '${env:WH}/warehouse/other';
ALTER TABLE part PARTITION (ds='a') SET LOCATION '/tmp/x';
ALTER TABLE part PARTITION (ds='zz', n=1) SET LOCATION '/tmp/x';
ALTER TABLE part PARTITION (ds='a', n='x') SET LOCATION '/tmp/x';
ALTER TABLE p PARTITION (ds='a') SET LOCATION '/tmp/x';
ALTER TABLE part PARTITION (ds='a', n=1) SET SERDEPROPERTIES ('field.delim'=',');
ALTER TABLE csv SET SERDEPROPERTIES ('skip.header.line.count'='many');
ALTER TABLE nosuch SET LOCATION '/tmp/x';
SELECT * FROM a;
SELECT * FROM csv ORDER BY a;
-- @sh ls a_new warehouse/other
