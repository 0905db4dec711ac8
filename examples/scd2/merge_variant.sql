-- The MERGE variant's daily step: one MERGE closes the changed and deleted
-- users' open versions and inserts the new versions and the new users, in
-- one transaction.  The source is the usual SCD2 staging union:
--   * each of today's users with merge_key = user_id: matches the open
--     version, which is closed if the row changes it (or is a delete), or
--     matches nothing (a new user, or one coming back after a delete) and
--     is inserted;
--   * once more, with merge_key NULL, each user whose open version changes:
--     NULL matches nothing, so this copy inserts the new version.
-- Unlike daily_merge.sql, running a day twice is not a no-op (the second
-- run sees the first one's versions), so run each day once, in order.
--   comb --hivevar today=2024-03-02 -f merge_variant.sql
MERGE INTO dim_user_acid AS d
USING (
  WITH inc AS (
    SELECT user_id, user_name, user_level, city, is_deleted
    FROM (
      SELECT user_id, user_name, user_level, city, is_deleted,
             ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY update_time DESC) AS rn
      FROM ods_user_inc
      WHERE dt = '${hivevar:today}'
    ) ranked
    WHERE rn = 1
  )
  SELECT inc.user_id AS merge_key, inc.* FROM inc
  UNION ALL
  SELECT CAST(NULL AS BIGINT) AS merge_key, inc.*
  FROM inc
  JOIN dim_user_acid cur ON cur.user_id = inc.user_id AND cur.is_current = 1
  WHERE inc.is_deleted = 0
    AND NOT (cur.user_name <=> inc.user_name
             AND cur.user_level <=> inc.user_level
             AND cur.city <=> inc.city)
) s
ON d.user_id = s.merge_key AND d.is_current = 1
WHEN MATCHED AND (s.is_deleted = 1
                  OR NOT (d.user_name <=> s.user_name
                          AND d.user_level <=> s.user_level
                          AND d.city <=> s.city)) THEN
  UPDATE SET end_date = CAST(DATE_SUB('${hivevar:today}', 1) AS STRING), is_current = 0
WHEN NOT MATCHED AND s.is_deleted = 0 THEN
  INSERT VALUES (s.user_id, s.user_name, s.user_level, s.city,
                 '${hivevar:today}', '9999-12-31', 1);
