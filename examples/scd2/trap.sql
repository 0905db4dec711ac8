-- THE TRAP: the zipper-table template that circulates among Hive users.
-- Do not use it; see README.md for its three defects.  comb refuses it
-- (as Hive does) because its UNION ALL sides differ in column count, and
-- changes nothing.
--   comb --hivevar today=2024-03-05 -f trap.sql
WITH y AS (
  SELECT *
  FROM dim_user_zip
  WHERE pt = CAST(DATE_SUB('${hivevar:today}', 1) AS STRING)
    AND is_current = 1
),
t AS (
  SELECT user_id, user_name, user_level, city, is_deleted
  FROM (
    SELECT user_id, user_name, user_level, city, is_deleted,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY update_time DESC) AS rn
    FROM ods_user_inc
    WHERE dt = '${hivevar:today}'
  ) ranked
  WHERE rn = 1
)
INSERT OVERWRITE TABLE dim_user_zip PARTITION (pt = '${hivevar:today}')
-- unchanged rows
SELECT y.*
FROM y LEFT JOIN t ON y.user_id = t.user_id
WHERE t.user_id IS NULL
UNION ALL
-- changed rows, closed
SELECT y.user_id, y.user_name, y.user_level, y.city, y.start_date,
       CAST(DATE_SUB('${hivevar:today}', 1) AS STRING), 0
FROM y JOIN t ON y.user_id = t.user_id
WHERE t.is_deleted = 1 OR NOT (y.user_name <=> t.user_name
                               AND y.user_level <=> t.user_level
                               AND y.city <=> t.city)
UNION ALL
-- new versions
SELECT t.user_id, t.user_name, t.user_level, t.city,
       '${hivevar:today}', '9999-12-31', 1
FROM t JOIN y ON y.user_id = t.user_id
WHERE t.is_deleted = 0 AND NOT (y.user_name <=> t.user_name
                                AND y.user_level <=> t.user_level
                                AND y.city <=> t.city);
