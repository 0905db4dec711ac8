-- The MERGE variant's first day: the same rows as init.sql.
--   comb --hivevar today=2024-03-01 -f merge_init.sql
INSERT INTO dim_user_acid
SELECT user_id, user_name, user_level, city,
       '${hivevar:today}', '9999-12-31', 1
FROM (
  SELECT user_id, user_name, user_level, city, is_deleted,
         ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY update_time DESC) AS rn
  FROM ods_user_inc
  WHERE dt = '${hivevar:today}'
) latest
WHERE rn = 1 AND is_deleted = 0;
