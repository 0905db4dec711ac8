-- The tables of the zipper-table example (run once).
--
-- ods_user_inc: the staging table the source system fills every day with
-- the users that changed that day (dt = the day).  A user may arrive
-- several times in one day (the latest update_time wins), may arrive
-- unchanged (a re-send), and is_deleted = 1 marks a soft delete.
CREATE TABLE IF NOT EXISTS ods_user_inc (
  user_id     BIGINT,
  user_name   STRING,
  user_level  INT,
  city        STRING,
  update_time TIMESTAMP,
  is_deleted  INT
) PARTITIONED BY (dt STRING)
  STORED AS ORC;

-- dim_user_zip: the type-2 dimension.  Every partition pt is a complete
-- snapshot as of that day: each version of each user, valid from
-- start_date to end_date (both inclusive); the open version has end_date
-- '9999-12-31' and is_current = 1.  Day D is computed from partition D-1
-- and the increments of D alone, so any day can be recomputed.
CREATE TABLE IF NOT EXISTS dim_user_zip (
  user_id     BIGINT,
  user_name   STRING,
  user_level  INT,
  city        STRING,
  start_date  STRING,
  end_date    STRING,
  is_current  INT
) PARTITIONED BY (pt STRING)
  STORED AS ORC;
