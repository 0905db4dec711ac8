-- First day: every user of the first day's increments opens one version.
--   comb --hivevar today=2024-03-01 -f init.sql
WITH latest AS (
  SELECT user_id, user_name, user_level, city, is_deleted,
         ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY update_time DESC) AS rn
  FROM ods_user_inc
  WHERE dt = '${hivevar:today}'
)
INSERT OVERWRITE TABLE dim_user_zip PARTITION (pt = '${hivevar:today}')
SELECT user_id, user_name, user_level, city,
       '${hivevar:today}' AS start_date,
       '9999-12-31'       AS end_date,
       1                  AS is_current
FROM latest
WHERE rn = 1 AND is_deleted = 0;
