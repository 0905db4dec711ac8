-- The daily merge: partition today = partition yesterday + today's
-- increments.  Run it for each day after the first, in order; running a
-- day again gives the same partition (it reads only yesterday's partition
-- and today's increments, and overwrites today's partition).
--   comb --hivevar today=2024-03-02 -f daily_merge.sql
WITH
-- yesterday's snapshot: the open versions ...
prev_open AS (
  SELECT user_id, user_name, user_level, city, start_date
  FROM dim_user_zip
  WHERE pt = CAST(DATE_SUB('${hivevar:today}', 1) AS STRING)
    AND end_date = '9999-12-31'
),
-- ... and the closed history, which every snapshot carries on
prev_closed AS (
  SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
  FROM dim_user_zip
  WHERE pt = CAST(DATE_SUB('${hivevar:today}', 1) AS STRING)
    AND end_date <> '9999-12-31'
),
-- today's increments, one row per user: the one updated last
inc AS (
  SELECT user_id, user_name, user_level, city, is_deleted
  FROM (
    SELECT user_id, user_name, user_level, city, is_deleted,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY update_time DESC) AS rn
    FROM ods_user_inc
    WHERE dt = '${hivevar:today}'
  ) ranked
  WHERE rn = 1
),
-- each open version beside today's row for its user, if any, and whether
-- that row closes it: a soft delete, or any compared column changed.
-- <=> makes NULL -> value and value -> NULL changes and NULL vs NULL none
-- (with <> all three would be NULL and no change would be seen)
prev_vs_inc AS (
  SELECT o.user_id, o.user_name, o.user_level, o.city, o.start_date,
         CASE WHEN i.user_id IS NULL THEN false
              WHEN i.is_deleted = 1 THEN true
              ELSE NOT (o.user_name <=> i.user_name
                        AND o.user_level <=> i.user_level
                        AND o.city <=> i.city)
         END AS closes
  FROM prev_open o
  LEFT JOIN inc i ON o.user_id = i.user_id
)
INSERT OVERWRITE TABLE dim_user_zip PARTITION (pt = '${hivevar:today}')
-- 1. the closed history, as it was
SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
FROM prev_closed
UNION ALL
-- 2. open versions today leaves alone (no increment, or an unchanged re-send)
SELECT user_id, user_name, user_level, city, start_date,
       '9999-12-31' AS end_date, 1 AS is_current
FROM prev_vs_inc
WHERE NOT closes
UNION ALL
-- 3. open versions changed or deleted today: valid until yesterday
SELECT user_id, user_name, user_level, city, start_date,
       CAST(DATE_SUB('${hivevar:today}', 1) AS STRING) AS end_date, 0 AS is_current
FROM prev_vs_inc
WHERE closes
UNION ALL
-- 4. the new version of each changed user, and users without an open
--    version (new keys, and users coming back after a delete); a soft
--    delete opens nothing
SELECT i.user_id, i.user_name, i.user_level, i.city,
       '${hivevar:today}' AS start_date, '9999-12-31' AS end_date, 1 AS is_current
FROM inc i
LEFT JOIN prev_vs_inc p ON i.user_id = p.user_id
WHERE i.is_deleted = 0 AND (p.user_id IS NULL OR p.closes);
