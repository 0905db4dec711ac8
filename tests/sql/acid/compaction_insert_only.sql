-- Compaction of insert-only tables: files merged per bucket, no ROW__IDs;
-- two compactions waiting for the cleaner are cleaned together.
CREATE TABLE io (a INT, b STRING) CLUSTERED BY (a) INTO 2 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO io VALUES (1, 'x'), (2, 'y');
INSERT INTO io VALUES (3, 'z');
INSERT INTO io VALUES (4, 'w');
ALTER TABLE io COMPACT 'minor' AND WAIT;
SELECT * FROM io ORDER BY a;
INSERT INTO io VALUES (5, 'v');
ALTER TABLE io COMPACT 'major' AND WAIT;
SELECT * FROM io ORDER BY a;
-- @sh cd $WH/io && ls * | sed -E 's/_v[0-9]+/_vT/'
-- @sh $COMB --warehouse $WH compactor --once
-- @sh cd $WH/io && ls -R | sed -E 's/_v[0-9]+/_vT/'
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6
SELECT * FROM io ORDER BY a;
-- a plain table cannot be compacted (Hive's 10286)
CREATE TABLE plain (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
ALTER TABLE plain COMPACT 'major';
-- insert-only TEXTFILE: the files of a bucket are concatenated (a last
-- line without its end gets one, byte order marks go, gzip files join as
-- members of one .gz), then minor and major compaction as for ORC
CREATE TABLE iot (a INT, s STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  STORED AS TEXTFILE
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO iot VALUES (1, 'one');
INSERT INTO iot VALUES (2, 'two'), (3, 'three');
-- @sh mkdir in && printf '10,ten\n11,eleven' > in/noeol.txt && printf '\xef\xbb\xbf12,bom\n' > in/bom.txt && printf '13,gz\n14,gz2\n' | gzip > in/z.gz && printf '15,gzb\n' | gzip > in/y.gz
LOAD DATA LOCAL INPATH '${env:WH}/in/noeol.txt' INTO TABLE iot;
LOAD DATA LOCAL INPATH '${env:WH}/in/bom.txt' INTO TABLE iot;
LOAD DATA LOCAL INPATH '${env:WH}/in/z.gz' INTO TABLE iot;
SELECT * FROM iot ORDER BY a;
ALTER TABLE iot COMPACT 'minor' AND WAIT;
SELECT * FROM iot ORDER BY a;
-- @sh cd $WH/iot && ls * | sed -E 's/_v[0-9]+/_vT/'
-- @sh cd $WH/iot && cat delta_*_v*/000000_0 && gzip -dc delta_*_v*/000000_0.gz
LOAD DATA LOCAL INPATH '${env:WH}/in/y.gz' INTO TABLE iot;
INSERT INTO iot VALUES (4, 'four');
ALTER TABLE iot COMPACT 'major' AND WAIT;
-- @sh $COMB --warehouse $WH compactor --once
-- @sh cd $WH/iot && ls -R | sed -E 's/_v[0-9]+/_vT/'
-- @sh $COMB --warehouse $WH --outputformat tsv -e "SHOW COMPACTIONS" | cut -f1-6,21 | grep -e compactionid -e iot
SELECT * FROM iot ORDER BY a;
-- files with header lines would leave them inside the merged file
CREATE TABLE ioh (a INT) STORED AS TEXTFILE
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only',
                 'skip.header.line.count'='1');
INSERT INTO ioh VALUES (1);
INSERT INTO ioh VALUES (2);
ALTER TABLE ioh COMPACT 'major' AND WAIT;
-- SHOW COMPACTION METRICS: the text table after its major compaction and
-- cleaning (one base, its two files; none small below a 0-byte threshold)
SHOW COMPACTION METRICS iot;
SET hive.merge.smallfiles.avgsize=0;
SHOW COMPACTION METRICS default.iot;
INSERT INTO iot VALUES (20, 'twenty');
SHOW COMPACTION METRICS iot;
SHOW COMPACTION METRICS plain;
SHOW COMPACTION METRICS iot PARTITION (a=1);
SHOW COMPACTION METRICS nosuch;
