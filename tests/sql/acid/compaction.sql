-- Compaction, golden: a partitioned bucketed table after 20 small inserts,
-- 5 updates and 5 deletes; a minor then a major compaction of one partition
-- leave exactly these directories before and after cleaning, the same
-- rows at every step, and SHOW COMPACTIONS in these states; SHOW COMPACTION
-- METRICS counts the deltas, delete deltas, files and obsolete directories
-- (bytes left out: they change with the ORC writer).
CREATE TABLE t (id INT, v STRING) PARTITIONED BY (p STRING)
  CLUSTERED BY (id) INTO 2 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO t PARTITION (p='a') VALUES (1, 'v1'), (101, 'w1');
INSERT INTO t PARTITION (p='a') VALUES (2, 'v2'), (102, 'w2');
INSERT INTO t PARTITION (p='a') VALUES (3, 'v3'), (103, 'w3');
INSERT INTO t PARTITION (p='a') VALUES (4, 'v4'), (104, 'w4');
INSERT INTO t PARTITION (p='a') VALUES (5, 'v5'), (105, 'w5');
INSERT INTO t PARTITION (p='a') VALUES (6, 'v6'), (106, 'w6');
INSERT INTO t PARTITION (p='a') VALUES (7, 'v7'), (107, 'w7');
INSERT INTO t PARTITION (p='a') VALUES (8, 'v8'), (108, 'w8');
INSERT INTO t PARTITION (p='a') VALUES (9, 'v9'), (109, 'w9');
INSERT INTO t PARTITION (p='a') VALUES (10, 'v10'), (110, 'w10');
INSERT INTO t PARTITION (p='a') VALUES (11, 'v11'), (111, 'w11');
INSERT INTO t PARTITION (p='a') VALUES (12, 'v12'), (112, 'w12');
INSERT INTO t PARTITION (p='a') VALUES (13, 'v13'), (113, 'w13');
INSERT INTO t PARTITION (p='a') VALUES (14, 'v14'), (114, 'w14');
INSERT INTO t PARTITION (p='a') VALUES (15, 'v15'), (115, 'w15');
INSERT INTO t PARTITION (p='b') VALUES (16, 'v16'), (116, 'w16');
INSERT INTO t PARTITION (p='b') VALUES (17, 'v17'), (117, 'w17');
INSERT INTO t PARTITION (p='b') VALUES (18, 'v18'), (118, 'w18');
INSERT INTO t PARTITION (p='b') VALUES (19, 'v19'), (119, 'w19');
INSERT INTO t PARTITION (p='b') VALUES (20, 'v20'), (120, 'w20');
UPDATE t SET v = concat(v, '!') WHERE id = 1;
UPDATE t SET v = concat(v, '!') WHERE id = 4;
UPDATE t SET v = concat(v, '!') WHERE id = 7;
UPDATE t SET v = concat(v, '!') WHERE id = 10;
UPDATE t SET v = concat(v, '!') WHERE id = 13;
DELETE FROM t WHERE id = 2;
DELETE FROM t WHERE id = 5;
DELETE FROM t WHERE id = 8;
DELETE FROM t WHERE id = 104;
DELETE FROM t WHERE id = 111;
SELECT p, id, v FROM t ORDER BY p, id;
-- @sh cd $WH/t && ls p=a p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTION METRICS t' | cut -f3-8,10-11
-- a partitioned table needs its partition; a partial or unknown one is refused
ALTER TABLE t COMPACT 'minor';
ALTER TABLE t PARTITION (p='zzz') COMPACT 'minor';
ALTER TABLE t PARTITION (p='a') COMPACT 'medium';
ALTER TABLE t PARTITION (p='a') COMPACT 'minor' AND WAIT;
-- a second request while the first waits for the cleaner: nothing new to compact
ALTER TABLE t PARTITION (p='a') COMPACT 'minor';
SELECT p, id, v FROM t ORDER BY p, id;
-- @sh cd $WH/t && ls p=a p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6,20
-- @sh $COMB --warehouse $WH compactor --once
-- @sh cd $WH/t && ls p=a p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTION METRICS t' | cut -f3-8,10-11
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6,20
SELECT p, id, v FROM t ORDER BY p, id;
ALTER TABLE t PARTITION (p='a') COMPACT 'major' AND WAIT;
-- @sh cd $WH/t && ls p=a p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTION METRICS t' | cut -f3-8,10-11
SELECT p, id, v FROM t ORDER BY p, id;
-- @sh $COMB --warehouse $WH compactor --once
-- @sh cd $WH/t && ls p=a p=a/* p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTION METRICS t' | cut -f3-8,10-11
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6,20
SELECT p, id, v FROM t ORDER BY p, id;
-- ROW__IDs survive both compactions
SELECT row__id.writeid, row__id.bucketid, row__id.rowid, id FROM t WHERE p = 'a' ORDER BY id LIMIT 6;
-- nothing left to compact: refused, and AND WAIT fails with Hive's text
ALTER TABLE t PARTITION (p='a') COMPACT 'major' AND WAIT;
-- partition b, major without a base
ALTER TABLE t PARTITION (p='b') COMPACT 'major' AND WAIT;
-- @sh $COMB --warehouse $WH compactor --once
-- @sh cd $WH/t && ls p=b
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6,20
SELECT p, id, v FROM t ORDER BY p, id;
-- ABORT COMPACTIONS: only initiated ones
INSERT INTO t PARTITION (p='b') VALUES (50, 'x');
ALTER TABLE t PARTITION (p='b') COMPACT 'minor';
ABORT COMPACTIONS 5 1;
-- @sh $COMB --warehouse $WH --outputformat tsv -e 'SHOW COMPACTIONS' | cut -f1-6,20
