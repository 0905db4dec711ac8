-- MSCK [REPAIR] TABLE as Hive 4's metastore checker: partition
-- directories the metastore lacks are found (and with REPAIR added),
-- partitions whose directory is gone are found (and dropped for DROP or
-- SYNC), names that are no partitions follow hive.msck.path.validation,
-- and transactional tables get their write ids (and txn ids) seeded from
-- the directories they adopt.
CREATE TABLE src (a INT, b STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO src VALUES (1, 'one'), (2, 'two');
CREATE TABLE pt (a INT, b STRING) PARTITIONED BY (p STRING, n INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO pt PARTITION (p='x', n=1) VALUES (0, 'zero');
-- @sh mkdir -p warehouse/pt/p=y/n=2 warehouse/pt/p=y/n=03 warehouse/pt/P=Z/N=4 warehouse/pt/p=__HIVE_DEFAULT_PARTITION__/n=__HIVE_DEFAULT_PARTITION__ warehouse/pt/_tmp/x warehouse/pt/.hidden && for d in p=y/n=2 p=y/n=03 P=Z/N=4 p=__HIVE_DEFAULT_PARTITION__/n=__HIVE_DEFAULT_PARTITION__; do cp warehouse/src/000000_0 "warehouse/pt/$d/000000_0"; done
SHOW PARTITIONS pt;
-- MSCK alone only reports
MSCK TABLE pt;
SHOW PARTITIONS pt;
MSCK REPAIR TABLE pt;
SHOW PARTITIONS pt;
SELECT p, n, a, b FROM pt ORDER BY p, n, a;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED pt PARTITION (p='Z', n=4)" | grep -E '^Location' | sed "s|$WH|WH|"
MSCK REPAIR TABLE pt;
-- a partition whose directory is gone: reported, dropped by DROP and SYNC only
-- @sh rm -r warehouse/pt/p=y/n=2
MSCK TABLE pt;
MSCK REPAIR TABLE pt ADD PARTITIONS;
SHOW PARTITIONS pt;
-- @sh mkdir -p warehouse/pt/p=w/n=5 && cp warehouse/src/000000_0 warehouse/pt/p=w/n=5/
MSCK REPAIR TABLE pt SYNC PARTITIONS;
SHOW PARTITIONS pt;
-- @sh rm -r warehouse/pt/p=w
MSCK REPAIR TABLE pt DROP PARTITIONS;
SHOW PARTITIONS pt;

-- names that are no partitions: throw (the default), skip, ignore
-- @sh mkdir -p warehouse/pt/bogus warehouse/pt/p=v/n=6 warehouse/pt/p=u && cp warehouse/src/000000_0 warehouse/pt/p=v/n=6/
MSCK REPAIR TABLE pt;
SET hive.msck.path.validation=skip;
MSCK REPAIR TABLE pt;
SHOW PARTITIONS pt;
-- @sh rm -r warehouse/pt/bogus warehouse/pt/p=u && mkdir -p warehouse/pt/q=1/n=1 warehouse/pt/p=a=b/n=1 warehouse/pt/p=t/n=x warehouse/pt/p=s/n=7/extra && touch warehouse/pt/stray_file warehouse/pt/p=s/n=7/extra/f
MSCK TABLE pt;
SET hive.msck.path.validation=skip;
MSCK TABLE pt;
SET hive.msck.path.validation=ignore;
MSCK REPAIR TABLE pt;
SHOW PARTITIONS pt;
SET hive.msck.path.validation=sometimes;
MSCK TABLE pt;
-- values the metastore would escape: refused unless ignore
-- @sh rm -r warehouse/pt/q=1 warehouse/pt/p=a=b warehouse/pt/p=t warehouse/pt/stray_file && mkdir -p 'warehouse/pt/p=a%3Ab/n=8' && cp warehouse/src/000000_0 'warehouse/pt/p=a%3Ab/n=8/'
MSCK REPAIR TABLE pt;
SET hive.msck.path.validation=skip;
MSCK REPAIR TABLE pt;
SET hive.msck.path.validation=ignore;
MSCK REPAIR TABLE pt;
SELECT p, n, a FROM pt WHERE n = 8;

-- transactional tables: the write ids of adopted directories are seeded
CREATE TABLE acid_src (a INT, b STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acid_src VALUES (10, 'ten'), (20, 'twenty');
DELETE FROM acid_src WHERE a = 20;
CREATE TABLE ap (a INT, b STRING) PARTITIONED BY (p INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- @sh mkdir -p warehouse/ap/p=1 warehouse/ap/p=2 && cp -r warehouse/acid_src/delta_0000001_0000001_0000 warehouse/ap/p=1/delta_0000006_0000006_0000 && cp -r warehouse/acid_src/delta_0000001_0000001_0000 warehouse/ap/p=2/base_0000009_v0000300
SELECT * FROM ap;
MSCK REPAIR TABLE ap;
SELECT p, a, b, ROW__ID.writeid FROM ap ORDER BY p;
INSERT INTO ap PARTITION (p=1) VALUES (30, 'thirty');
SELECT p, a, ROW__ID.writeid FROM ap ORDER BY p, a;
-- data newer than the write ids the table has allocated is refused
-- @sh mkdir -p warehouse/ap/p=3 && cp -r warehouse/acid_src/delta_0000001_0000001_0000 warehouse/ap/p=3/delta_0000050_0000050_0000
MSCK REPAIR TABLE ap;
SHOW PARTITIONS ap;
-- @sh rm -r warehouse/ap/p=3 && mkdir -p warehouse/ap/p=4 && cp -r warehouse/acid_src/delta_0000001_0000001_0000 warehouse/ap/p=4/delta_0000002_0000002_0000
MSCK REPAIR TABLE ap;
SELECT p, a FROM ap WHERE p = 4;

-- unpartitioned: only the seeding, and only with REPAIR
CREATE TABLE au (a INT, b STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- @sh cp -r warehouse/acid_src/delta_0000001_0000001_0000 warehouse/au/delta_0000004_0000004_0000 && cp -r warehouse/acid_src/delete_delta_0000002_0000002_0000 warehouse/au/delete_delta_0000005_0000005_0000
MSCK TABLE au;
SELECT * FROM au;
INSERT INTO au VALUES (1, 'x');
MSCK REPAIR TABLE au;
SELECT a, b, ROW__ID.writeid FROM au ORDER BY a;
INSERT INTO au VALUES (1, 'x');
SELECT a, b, ROW__ID.writeid FROM au ORDER BY a;
MSCK REPAIR TABLE au;

-- the table's directory is gone; unknown tables
CREATE TABLE gone (a INT) PARTITIONED BY (p INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
-- @sh rm -r warehouse/gone
MSCK REPAIR TABLE gone;
MSCK REPAIR TABLE nosuch;

-- CREATE TABLE ... LOCATION: a file is refused, a missing directory made
-- @sh touch afile
CREATE TABLE onfile (a INT) LOCATION '${env:WH}/afile';
CREATE TABLE newdir (a INT) LOCATION '${env:WH}/new/dir';
-- @sh ls -d new/dir
