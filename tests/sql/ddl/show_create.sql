-- SHOW CREATE TABLE as Hive 4's DDLPlanUtils prints it, and the round
-- trip: each printed statement, run on a fresh warehouse, makes a table
-- DESCRIBE FORMATTED shows the same (but for its creation time).
CREATE DATABASE d;
CREATE TABLE d.acid (id BIGINT COMMENT 'the id', `select` STRING COMMENT 'it''s "quoted"; ok', price DECIMAL(12,3), v VARCHAR(20), ch CHAR(3))
  COMMENT 'ACID; with ''quotes'''
  PARTITIONED BY (ds DATE COMMENT 'day', `hour` INT)
  CLUSTERED BY (id, v) INTO 8 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'note'='semi;colon', 'transient_lastDdlTime'='1700000000');
SHOW CREATE TABLE d.acid;
CREATE TABLE d.nested (s STRUCT<p1:STRING,`from`:INT>, a ARRAY<MAP<INT,STRUCT<x:DOUBLE>>>, m MAP<STRING,ARRAY<BOOLEAN>>, b BINARY, ts TIMESTAMP)
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only', 'transient_lastDdlTime'='1700000001');
SHOW CREATE TABLE d.nested;
CREATE TABLE d.sorted (a INT, b STRING) CLUSTERED BY (a) SORTED BY (a DESC, b ASC) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='false', 'transient_lastDdlTime'='1700000002');
SHOW CREATE TABLE d.sorted;
CREATE EXTERNAL TABLE d.ext (a INT, b STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY '\001' ESCAPED BY '\\' COLLECTION ITEMS TERMINATED BY ',' MAP KEYS TERMINATED BY ':' NULL DEFINED AS 'NIL'
  STORED AS TEXTFILE LOCATION '${env:WH}/ext_data' TBLPROPERTIES ('skip.header.line.count'='1', 'transient_lastDdlTime'='1700000003');
SHOW CREATE TABLE d.ext;
CREATE TABLE d.text_default (a INT) STORED AS TEXTFILE TBLPROPERTIES ('transient_lastDdlTime'='1700000004');
SHOW CREATE TABLE d.text_default;
CREATE TABLE d.serde (a INT, b STRING)
  ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' WITH SERDEPROPERTIES ('field.delim'='\t', 'serialization.format'='\t', 'x'='ü')
  STORED AS INPUTFORMAT 'org.apache.hadoop.mapred.TextInputFormat' OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat'
  TBLPROPERTIES ('transient_lastDdlTime'='1700000005');
SHOW CREATE TABLE d.serde;
-- DESCRIBE escapes SerDe parameters as StringEscapeUtils.escapeJava
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED d.serde" | sed -n '/^Storage Desc/,$p'
USE d;
-- relative: the name as given, without its database
SHOW CREATE TABLE sorted;
-- @sh for t in acid nested sorted ext text_default serde; do "$COMB" --warehouse "$WH" --outputformat tsv -e "SHOW CREATE TABLE d.$t" | tail -n +2 > $t.sql; done
-- @sh "$COMB" --warehouse wh2 -e "CREATE DATABASE d" && for t in acid nested sorted ext text_default serde; do "$COMB" --warehouse wh2 -f $t.sql 2>&1 | grep -v 'WARNING: location'; done
-- @sh desc() { "$COMB" --warehouse "$1" --outputformat tsv -e "DESCRIBE FORMATTED d.$2" | grep -v '^CreateTime:'; }; for t in acid nested sorted ext text_default serde; do diff <(desc "$WH" $t) <(desc wh2 $t) > /dev/null && echo "$t: same" || diff <(desc "$WH" $t) <(desc wh2 $t); done
-- data stays where the table was: both read the same files
INSERT INTO d.sorted VALUES (1, 'one');
-- @sh "$COMB" --warehouse wh2 --outputformat tsv -e "SELECT * FROM d.sorted"
-- errors
SHOW CREATE TABLE nosuch;
SHOW CREATE TABLE nosuchdb.t;
CREATE TABLE bad1 (a INT) ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' STORED AS ORC;
CREATE TABLE bad2 (a INT) STORED AS INPUTFORMAT 'org.apache.hadoop.mapred.TextInputFormat' OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat';
CREATE TABLE bad3 (a INT) STORED AS INPUTFORMAT 'my.InputFormat' OUTPUTFORMAT 'my.OutputFormat';
CREATE TABLE bad4 (a INT) CLUSTERED BY (a) SORTED BY (nope) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='false');
