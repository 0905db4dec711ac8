-- Bucket pruning for UPDATE, DELETE and SELECT (issue 10): only the
-- bucket files (data and delete) that can hold a row with the key are
-- opened, in each partition partition pruning leaves; comb.trace.files
-- lists every file a scan opens.
CREATE TABLE bp (id INT, v STRING) PARTITIONED BY (p STRING)
  CLUSTERED BY (id) INTO 32 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO bp PARTITION (p) VALUES (0,'v0','b'),(1,'v1','a'),(2,'v2','b'),(3,'v3','a'),(4,'v4','b'),(5,'v5','a'),(6,'v6','b'),(7,'v7','a'),(8,'v8','b'),(9,'v9','a'),(10,'v10','b'),(11,'v11','a'),(12,'v12','b'),(13,'v13','a'),(14,'v14','b'),(15,'v15','a'),(16,'v16','b'),(17,'v17','a'),(18,'v18','b'),(19,'v19','a'),(20,'v20','b'),(21,'v21','a'),(22,'v22','b'),(23,'v23','a'),(24,'v24','b'),(25,'v25','a'),(26,'v26','b'),(27,'v27','a'),(28,'v28','b'),(29,'v29','a'),(30,'v30','b'),(31,'v31','a'),(32,'v32','b'),(33,'v33','a'),(34,'v34','b'),(35,'v35','a'),(36,'v36','b'),(37,'v37','a'),(38,'v38','b'),(39,'v39','a'),(40,'v40','b'),(41,'v41','a'),(42,'v42','b'),(43,'v43','a'),(44,'v44','b'),(45,'v45','a'),(46,'v46','b'),(47,'v47','a'),(48,'v48','b'),(49,'v49','a'),(50,'v50','b'),(51,'v51','a'),(52,'v52','b'),(53,'v53','a'),(54,'v54','b'),(55,'v55','a'),(56,'v56','b'),(57,'v57','a'),(58,'v58','b'),(59,'v59','a'),(60,'v60','b'),(61,'v61','a'),(62,'v62','b'),(63,'v63','a'),(64,'v64','b'),(65,'v65','a'),(66,'v66','b'),(67,'v67','a'),(68,'v68','b'),(69,'v69','a'),(70,'v70','b'),(71,'v71','a'),(72,'v72','b'),(73,'v73','a'),(74,'v74','b'),(75,'v75','a'),(76,'v76','b'),(77,'v77','a'),(78,'v78','b'),(79,'v79','a'),(80,'v80','b'),(81,'v81','a'),(82,'v82','b'),(83,'v83','a'),(84,'v84','b'),(85,'v85','a'),(86,'v86','b'),(87,'v87','a'),(88,'v88','b'),(89,'v89','a'),(90,'v90','b'),(91,'v91','a'),(92,'v92','b'),(93,'v93','a'),(94,'v94','b'),(95,'v95','a'),(96,'v96','b'),(97,'v97','a'),(98,'v98','b'),(99,'v99','a');
INSERT INTO bp PARTITION (p) VALUES (100,'w100','a'),(101,'w101','a'),(102,'w102','b'),(103,'w103','a'),(104,'w104','a'),(105,'w105','b'),(106,'w106','a'),(107,'w107','a'),(108,'w108','b'),(109,'w109','a'),(110,'w110','a'),(111,'w111','b'),(112,'w112','a'),(113,'w113','a'),(114,'w114','b'),(115,'w115','a'),(116,'w116','a'),(117,'w117','b'),(118,'w118','a'),(119,'w119','a'),(120,'w120','b'),(121,'w121','a'),(122,'w122','a'),(123,'w123','b'),(124,'w124','a'),(125,'w125','a'),(126,'w126','b'),(127,'w127','a'),(128,'w128','a'),(129,'w129','b'),(130,'w130','a'),(131,'w131','a'),(132,'w132','b'),(133,'w133','a'),(134,'w134','a'),(135,'w135','b'),(136,'w136','a'),(137,'w137','a'),(138,'w138','b'),(139,'w139','a'), (NULL, 'null-a', 'a'), (NULL, 'null-b', 'b');
-- one key: bucket 15 of each partition, nothing else
EXPLAIN UPDATE bp SET v = 'five' WHERE id = 5;
SET comb.trace.files=true;
UPDATE bp SET v = 'five' WHERE id = 5;
-- the new delta and delete_delta hold bucket 15 alone
-- @sh cd $WH/bp && find . -path '*delta_0000003*' -type f | sort
SET comb.trace.files=true;
SELECT * FROM bp WHERE id = 5;
-- the constant converts to the column's type: '5' and 5.0 are 5, 5.5 no int
EXPLAIN SELECT v FROM bp WHERE id = '5';
EXPLAIN SELECT v FROM bp WHERE id = 5.0;
EXPLAIN SELECT v FROM bp WHERE id = 5.5;
SELECT v FROM bp WHERE id = 5.0;
SELECT v FROM bp WHERE id = 5.5;
-- OR of two keys, IN, and a key with a partition predicate
EXPLAIN DELETE FROM bp WHERE id = 7 OR id = 104;
EXPLAIN DELETE FROM bp WHERE id IN (7, 104, 9);
EXPLAIN DELETE FROM bp WHERE id = 7 AND p = 'a';
-- what cannot be pruned reads every bucket
EXPLAIN DELETE FROM bp WHERE id = 7 OR v = 'v9';
EXPLAIN DELETE FROM bp WHERE id > 7;
EXPLAIN DELETE FROM bp WHERE NOT (id = 7);
SET comb.trace.files=true;
DELETE FROM bp WHERE id = 7 OR id = 104;
SELECT * FROM bp WHERE id IN (7, 104, 6) ORDER BY id;
SET comb.trace.files=false;
-- NULL keys live in bucket 0
EXPLAIN UPDATE bp SET v = 'was null' WHERE id IS NULL;
SET comb.trace.files=true;
UPDATE bp SET v = 'was null' WHERE id IS NULL AND p = 'a';
SELECT * FROM bp WHERE id IS NULL ORDER BY p;
SELECT * FROM bp WHERE id <=> NULL ORDER BY p;
-- a key of another bucket after deletes in bucket 15: the delete events
-- of bucket 15 still apply to its rows, none of another bucket's files
-- is opened for it
DELETE FROM bp WHERE id = 5 AND p = 'a';
SET comb.trace.files=true;
SELECT * FROM bp WHERE id IN (5, 37) ORDER BY id, p;
SET comb.trace.files=false;
-- the whole table agrees with what was changed, pruned or not (id + 0
-- is no key)
SELECT count(*), count(id), sum(id) FROM bp;
SELECT * FROM bp WHERE v IN ('five', 'was null') OR id IN (5, 7, 104) ORDER BY id, p;
SELECT count(*) FROM bp WHERE id IN (6, 8, 37, 105, 130);
SELECT count(*) FROM bp WHERE id + 0 IN (6, 8, 37, 105, 130);
-- a subquery in the WHERE: the target's scan is pruned the same way
EXPLAIN DELETE FROM bp WHERE id = 9 AND v IN (SELECT v FROM bp WHERE id = 9);
SET comb.trace.files=true;
DELETE FROM bp WHERE id = 9 AND v IN (SELECT v FROM bp WHERE id = 9);
SELECT count(*) FROM bp WHERE id = 9;

-- two CLUSTERED BY columns: both must be fixed; every combination of
-- their values is a bucket
CREATE TABLE bp2 (a INT, b STRING, v INT) CLUSTERED BY (a, b) INTO 8 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO bp2 VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3), (2, 'y', 4),
  (3, NULL, 5), (NULL, NULL, 6);
EXPLAIN SELECT v FROM bp2 WHERE a = 1;
EXPLAIN SELECT v FROM bp2 WHERE a = 1 AND b = 'y';
EXPLAIN SELECT v FROM bp2 WHERE a IN (1, 2) AND b IN ('x', 'y');
EXPLAIN SELECT v FROM bp2 WHERE (a = 1 AND b = 'x') OR (a = 2 AND b = 'y');
EXPLAIN SELECT v FROM bp2 WHERE a = 3 AND b IS NULL;
UPDATE bp2 SET v = v * 10 WHERE a = 1 AND b = 'y';
UPDATE bp2 SET v = v * 10 WHERE a IS NULL AND b IS NULL;
DELETE FROM bp2 WHERE a = 3 AND b IS NULL;
SELECT * FROM bp2 WHERE a = 1 AND b = 'y';
SELECT * FROM bp2 WHERE (a = 2 AND b = 'x') OR (a <=> NULL AND b <=> NULL) ORDER BY v;
SELECT * FROM bp2 ORDER BY v;

-- bucketing version 1 (Java's hashCode; tables from before Hive 3) routes
-- and prunes with the old hash; a string key
CREATE TABLE bp1 (k STRING, v INT) CLUSTERED BY (k) INTO 4 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'bucketing_version'='1');
INSERT INTO bp1 VALUES ('alpha', 1), ('beta', 2), ('gamma', 3), ('delta', 4);
-- @sh cd $WH/bp1 && find . -name 'bucket_*' | sort
EXPLAIN UPDATE bp1 SET v = 20 WHERE k = 'beta';
SET comb.trace.files=true;
UPDATE bp1 SET v = 20 WHERE k = 'beta';
SELECT * FROM bp1 ORDER BY k;

-- original (pre-ACID) files of a converted table are read by their bucket
-- number as well
CREATE TABLE bpo (id INT, v STRING) CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='false');
INSERT INTO bpo VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');
ALTER TABLE bpo SET TBLPROPERTIES ('transactional'='true');
-- @sh cd $WH/bpo && find . -type f | sort
EXPLAIN DELETE FROM bpo WHERE id = 3;
SET comb.trace.files=true;
DELETE FROM bpo WHERE id = 3;
UPDATE bpo SET v = 'E' WHERE id = 5;
SELECT * FROM bpo WHERE id IN (3, 5);
SET comb.trace.files=false;
SELECT * FROM bpo ORDER BY id;

-- an insert-only table's bucket files are pruned alike
CREATE TABLE bpi (id INT, v STRING) CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO bpi VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');
INSERT INTO bpi VALUES (3, 'cc');
SET comb.trace.files=true;
SELECT * FROM bpi WHERE id = 3 ORDER BY v;
