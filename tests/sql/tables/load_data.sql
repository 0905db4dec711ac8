-- LOAD DATA [LOCAL] INPATH ... [OVERWRITE] INTO TABLE ... [PARTITION]: files
-- copied as they are into plain and insert-only tables, loaded as rows
-- into full ACID, bucketed and dynamically partitioned tables; LOCAL keeps
-- the source, without LOCAL it is removed after the commit.
CREATE TABLE src (a INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO src VALUES (1, 'x'), (2, 'y');
INSERT INTO src VALUES (3, 'x');
-- @sh mkdir -p in/dir in/dir/.hidden && cp warehouse/src/000000_0 in/one.orc && cp warehouse/src/000000_0_copy_1 in/two.orc && cp in/one.orc in/dir/a && cp in/two.orc in/dir/b && cp in/one.orc in/dir/_skipped && cp in/one.orc in/dir/.hidden/x && cp in/one.orc in/move1 && cp in/one.orc in/move2 && printf '1,x\n' > in/text.csv
CREATE TABLE plain (a INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE plain;
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE plain;
SELECT * FROM plain ORDER BY a;
-- a directory: its visible files; a glob: its matches
LOAD DATA LOCAL INPATH '${env:WH}/in/dir' OVERWRITE INTO TABLE plain;
SELECT * FROM plain ORDER BY a, s;
LOAD DATA LOCAL INPATH 'file://${env:WH}/in/t*.orc' INTO TABLE plain;
SELECT count(*) FROM plain;
-- @sh ls warehouse/plain; ls in
CREATE TABLE io (a INT, s STRING) STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
LOAD DATA INPATH '${env:WH}/in/move1' INTO TABLE io;
LOAD DATA INPATH '${env:WH}/in/move2' OVERWRITE INTO TABLE io;
SELECT * FROM io ORDER BY a;
-- @sh find warehouse/io -type f | sort; ls in
CREATE TABLE acid (a INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
LOAD DATA LOCAL INPATH '${env:WH}/in/dir' INTO TABLE acid;
SELECT ROW__ID, a, s FROM acid ORDER BY a;
CREATE TABLE bucketed (a INT, s STRING) CLUSTERED BY (a) INTO 2 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='false');
LOAD DATA LOCAL INPATH '${env:WH}/in/dir' INTO TABLE bucketed;
SELECT a, s FROM bucketed ORDER BY a;
CREATE EXTERNAL TABLE parts (a INT) PARTITIONED BY (s STRING) STORED AS ORC;
LOAD DATA LOCAL INPATH '${env:WH}/in/dir' INTO TABLE parts;
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE parts PARTITION (s = 'static');
SET hive.exec.dynamic.partition.mode=strict;
LOAD DATA LOCAL INPATH '${env:WH}/in/two.orc' INTO TABLE parts PARTITION (s);
SELECT * FROM parts ORDER BY s, a;
-- @sh find warehouse/parts -type f | sort
-- errors change nothing
LOAD DATA LOCAL INPATH '${env:WH}/in/nothing*' INTO TABLE plain;
LOAD DATA LOCAL INPATH '${env:WH}/in/text.csv' INTO TABLE plain;
LOAD DATA LOCAL INPATH '${env:WH}/in/text.csv' INTO TABLE acid;
LOAD DATA LOCAL INPATH '${env:WH}/in' INTO TABLE plain;
LOAD DATA LOCAL INPATH 'hdfs://nn/x' INTO TABLE plain;
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE plain PARTITION (s = 'x');
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE parts PARTITION (a = 1);
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE missing;
LOAD DATA LOCAL INPATH '${env:WH}/in/one.orc' INTO TABLE plain INPUTFORMAT 'x.Y' SERDE 'z';
-- @sh f=$(find warehouse/acid -name 'bucket_*' | head -1); cp "$f" in/acidfile
LOAD DATA LOCAL INPATH '${env:WH}/in/acidfile' INTO TABLE plain;
LOAD DATA INPUT '${env:WH}/in/one.orc' INTO TABLE plain;
SELECT count(*) FROM plain;
SELECT count(*) FROM acid;
