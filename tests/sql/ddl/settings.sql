-- SET, hivevar substitution, and SET output.
SET hive.exec.dynamic.partition.mode=nonstrict;
SET hive.exec.dynamic.partition.mode;
SET nosuch.key;
SET hivevar:tbl=items;
SET hivevar:tbl;
CREATE TABLE ${hivevar:tbl} (k INT, v STRING) TBLPROPERTIES ('transactional'='true');
INSERT INTO ${tbl} VALUES (1, '${hivevar:tbl}'), (2, '${undefined}');
SELECT * FROM items ORDER BY k;
-- @sh "$COMB" --warehouse "$WH" --hivevar t=items --hiveconf x.y=z --outputformat csv -e 'SET x.y; SELECT k, v, k * 1.5 FROM ${t} ORDER BY k'
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "INSERT INTO items VALUES (3, 'a,b \"q\"'), (4, NULL); SELECT * FROM items ORDER BY k"
-- @sh "$COMB" --warehouse "$WH" --outputformat csv -e "SELECT * FROM items ORDER BY k"
-- @sh "$COMB" --warehouse "$WH" --outputformat json -e "SELECT 1"; echo "exit $?"
