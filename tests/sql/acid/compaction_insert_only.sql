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
-- insert-only TEXTFILE: not yet
CREATE TABLE iot (a INT) STORED AS TEXTFILE
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO iot VALUES (1);
INSERT INTO iot VALUES (2);
ALTER TABLE iot COMPACT 'major' AND WAIT;
