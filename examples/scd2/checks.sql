-- Quality checks of partition today of dim_user_zip.  Each prints one row,
-- the check's name and its number of violations: 0 means it passed.
--   comb --hivevar today=2024-03-05 -f checks.sql

-- 1. no two versions of one user overlap, and none is empty: sorted by
--    start_date, each version starts after the previous one ended
SELECT 'no_overlapping_intervals' AS check_name, COUNT(*) AS violations
FROM (
  SELECT user_id, start_date, end_date,
         LAG(end_date) OVER (PARTITION BY user_id ORDER BY start_date) AS prev_end
  FROM dim_user_zip
  WHERE pt = '${hivevar:today}'
) v
WHERE v.start_date > v.end_date OR v.prev_end >= v.start_date;

-- 2. exactly one open version per live user, none for a deleted one.  Who
--    is live is computed from the increments alone: the user's last
--    record up to today is not a delete
WITH last_record AS (
  SELECT user_id, is_deleted,
         ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY dt DESC, update_time DESC) AS rn
  FROM ods_user_inc
  WHERE dt <= '${hivevar:today}'
),
live AS (SELECT user_id FROM last_record WHERE rn = 1 AND is_deleted = 0),
open_versions AS (
  SELECT user_id, COUNT(*) AS n
  FROM dim_user_zip
  WHERE pt = '${hivevar:today}' AND end_date = '9999-12-31'
  GROUP BY user_id
)
SELECT 'one_open_row_per_live_key' AS check_name, COUNT(*) AS violations
FROM live l
FULL OUTER JOIN open_versions o ON l.user_id = o.user_id
WHERE l.user_id IS NULL OR o.user_id IS NULL OR o.n <> 1;

-- 3. is_current says the same as end_date
SELECT 'is_current_iff_open' AS check_name, COUNT(*) AS violations
FROM dim_user_zip
WHERE pt = '${hivevar:today}'
  AND (is_current = 1) <> (end_date = '9999-12-31');

-- 4. every change closes and opens on the same day: a closed version
--    ending on day E is followed by one starting on E + 1, unless the
--    user was deleted on E + 1 (a soft delete opens nothing)
WITH deleted AS (
  SELECT user_id, dt
  FROM (
    SELECT user_id, dt, is_deleted,
           ROW_NUMBER() OVER (PARTITION BY user_id, dt ORDER BY update_time DESC) AS rn
    FROM ods_user_inc
    WHERE dt <= '${hivevar:today}'
  ) r
  WHERE rn = 1 AND is_deleted = 1
),
versions AS (
  SELECT user_id, end_date,
         LEAD(start_date) OVER (PARTITION BY user_id ORDER BY start_date) AS next_start
  FROM dim_user_zip
  WHERE pt = '${hivevar:today}'
)
SELECT 'change_closes_and_opens_same_day' AS check_name, COUNT(*) AS violations
FROM versions v
LEFT JOIN deleted d
  ON d.user_id = v.user_id AND d.dt = CAST(DATE_ADD(v.end_date, 1) AS STRING)
WHERE v.end_date <> '9999-12-31'
  AND d.user_id IS NULL
  AND (v.next_start IS NULL OR v.next_start <> CAST(DATE_ADD(v.end_date, 1) AS STRING));

-- 5. nothing of yesterday is lost: every version in yesterday's partition
--    is in today's with the same values, and only an open one may have
--    been closed since
SELECT 'history_carried' AS check_name, COUNT(*) AS violations
FROM dim_user_zip y
LEFT JOIN dim_user_zip t
  ON t.pt = '${hivevar:today}' AND t.user_id = y.user_id AND t.start_date = y.start_date
WHERE y.pt = CAST(DATE_SUB('${hivevar:today}', 1) AS STRING)
  AND (t.user_id IS NULL
       OR NOT (t.user_name <=> y.user_name
               AND t.user_level <=> y.user_level
               AND t.city <=> y.city)
       OR (y.end_date <> '9999-12-31' AND t.end_date <> y.end_date));
