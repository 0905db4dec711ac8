-- ALTER TABLE ... RENAME TO: a managed table at its default location takes
-- its directory with it (partitions too); external tables and tables with
-- a LOCATION keep theirs; write ids continue; every error changes nothing.
CREATE DATABASE d2;
CREATE TABLE acid (id INT, v STRING) TBLPROPERTIES ('transactional'='true');
INSERT INTO acid VALUES (1, 'one');
ALTER TABLE acid RENAME TO acid2;
INSERT INTO acid2 VALUES (2, 'two');
-- the write ids go on from the old name's
SELECT ROW__ID.writeid, id, v FROM acid2 ORDER BY id;
SELECT * FROM acid;
-- into another database, qualified on both sides
ALTER TABLE default.acid2 RENAME TO d2.acid3;
SELECT * FROM d2.acid3 ORDER BY id;
UPDATE d2.acid3 SET v = 'TWO' WHERE id = 2;
SELECT ROW__ID.writeid, id, v FROM d2.acid3 ORDER BY id;
-- an unqualified new name stays in the table's own database
ALTER TABLE d2.acid3 RENAME TO acid4;
SHOW TABLES IN d2;
-- @sh cd warehouse && find . -path ./metastore.db -prune -o -mindepth 1 -maxdepth 2 -print | grep -v metastore | sort

-- partitioned: the partitions' directories move with the table
CREATE TABLE part (v INT) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO part PARTITION (ds) VALUES (1, 'a'), (2, 'b');
ALTER TABLE part RENAME TO part2;
SELECT * FROM part2 ORDER BY v;
INSERT INTO part2 PARTITION (ds='a') VALUES (3);
SELECT * FROM part2 WHERE ds = 'a' ORDER BY v;
-- @sh cd warehouse && find part2 | sort && test ! -e part && echo "part is gone"

-- insert-only and text tables move too
CREATE TABLE mm (v INT) TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO mm VALUES (5);
ALTER TABLE mm RENAME TO mm2;
SELECT * FROM mm2;
CREATE TABLE txt (v INT, s STRING) STORED AS TEXTFILE;
INSERT INTO txt VALUES (6, 'six');
ALTER TABLE txt RENAME TO txt2;
SELECT * FROM txt2;

-- external tables and tables with a LOCATION keep their directory
CREATE EXTERNAL TABLE ext (v INT) STORED AS ORC LOCATION '${env:WH}/ext_data';
INSERT INTO ext VALUES (7);
ALTER TABLE ext RENAME TO ext2;
SELECT * FROM ext2;
CREATE TABLE located (v INT) LOCATION '${env:WH}/located_data' TBLPROPERTIES ('transactional'='true');
INSERT INTO located VALUES (8);
ALTER TABLE located RENAME TO located2;
SELECT * FROM located2;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED ext2; DESCRIBE FORMATTED located2" | grep -E '^(Location|Table Type):' | sed "s|$WH|WH|"
-- @sh ls -d ext_data located_data && test ! -e warehouse/ext2 && test ! -e warehouse/located2 && echo "no new directories"

-- renaming to the same name changes nothing
ALTER TABLE mm2 RENAME TO mm2;
SELECT * FROM mm2;

-- errors: nothing changes
ALTER TABLE nosuch RENAME TO other;
ALTER TABLE d9.nosuch RENAME TO other;
ALTER TABLE mm2 RENAME TO txt2;
ALTER TABLE mm2 RENAME TO d2.acid4;
ALTER TABLE mm2 RENAME TO nodb.mm3;
ALTER TABLE mm2 RENAME TO `bad\name`;
ALTER VIEW mm2 RENAME TO mm3;
-- @sh mkdir warehouse/taken
ALTER TABLE mm2 RENAME TO taken;
SHOW TABLES;
SELECT * FROM mm2;
-- @sh cd warehouse && ls taken mm2
