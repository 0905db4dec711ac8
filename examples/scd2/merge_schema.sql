-- The MERGE variant's table: the whole history in one full-ACID table
-- (no snapshot partitions), changed in place by MERGE every day.
CREATE TABLE IF NOT EXISTS dim_user_acid (
  user_id     BIGINT,
  user_name   STRING,
  user_level  INT,
  city        STRING,
  start_date  STRING,
  end_date    STRING,
  is_current  INT
) CLUSTERED BY (user_id) INTO 4 BUCKETS
  STORED AS ORC
  TBLPROPERTIES ('transactional' = 'true');
