-- SHOW LOCKS, SHOW TRANSACTIONS, ABORT TRANSACTIONS (Hive's columns;
-- nothing is open or locked between statements, so only headers show),
-- their errors, and the transaction-manager settings copied from Hive's
-- guides: DummyTxnManager or hive.support.concurrency=false refuse
-- transactional tables with Hive's errors, plain tables still work.
SET hive.support.concurrency=true;
SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;
SET hive.enforce.bucketing=true;
SET hive.exec.dynamic.partition.mode=nonstrict;
SET hive.compactor.initiator.on=true;
SET hive.compactor.worker.threads=1;
CREATE TABLE t (a INT, b INT) PARTITIONED BY (p STRING)
  TBLPROPERTIES ('transactional'='true');
INSERT INTO t PARTITION (p='x') VALUES (1, 2);
SHOW LOCKS;
SHOW LOCKS EXTENDED;
SHOW LOCKS t;
SHOW LOCKS default.t PARTITION (p='x') EXTENDED;
-- the partition need not exist; its keys must be the table's
SHOW LOCKS t PARTITION (p='nope');
SHOW LOCKS t PARTITION (q='x');
SHOW LOCKS missing PARTITION (p='x');
-- a table name alone is not checked (Hive's "show locks default")
SHOW LOCKS missing;
SHOW LOCKS DATABASE default;
SHOW LOCKS SCHEMA nodb EXTENDED;
SHOW TRANSACTIONS;
-- EXPLAIN of the listings: comb's plan lines, the filter each shows by
EXPLAIN SHOW LOCKS;
EXPLAIN SHOW LOCKS DATABASE default;
EXPLAIN SHOW LOCKS t PARTITION (p='x') EXTENDED;
EXPLAIN SHOW TRANSACTIONS;
EXPLAIN SHOW COMPACTIONS;
EXPLAIN SHOW TABLES;
SHOW TRANSACTIONS;
-- txn 1 created the table, txn 2 inserted
ABORT TRANSACTIONS 2;
ABORT TRANSACTIONS 999;
ABORT TRANSACTIONS 2 999;
ABORT TRANSACTIONS;
ABORT TRANSACTIONS 0;
ABORT TRANSACTIONS 1, 2;
ABORT t;
SELECT * FROM t;
SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DummyTxnManager;
SELECT * FROM t;
UPDATE t SET b = 0;
INSERT INTO t PARTITION (p='y') VALUES (3, 4);
CREATE TABLE plain (a INT) TBLPROPERTIES ('transactional'='false');
INSERT INTO plain VALUES (1);
SELECT * FROM plain;
SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;
SET hive.support.concurrency=false;
SELECT * FROM t;
SELECT * FROM plain;
SET hive.support.concurrency=true;
SELECT * FROM t;
