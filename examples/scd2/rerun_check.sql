-- Re-running a day gives identical rows: partition day of dim_user_zip
-- against the copy dim_user_zip_before taken before the re-run, as
-- multisets (EXCEPT ALL both ways), so a duplicated or lost row counts.
--   comb --hivevar day=2024-03-03 -f rerun_check.sql
SELECT 'rerun_gives_identical_rows' AS check_name, COUNT(*) AS violations
FROM (
  SELECT * FROM (
    SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
    FROM dim_user_zip WHERE pt = '${hivevar:day}'
    EXCEPT ALL
    SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
    FROM dim_user_zip_before
  ) only_after
  UNION ALL
  SELECT * FROM (
    SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
    FROM dim_user_zip_before
    EXCEPT ALL
    SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
    FROM dim_user_zip WHERE pt = '${hivevar:day}'
  ) only_before
) diff;
