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
-- tsv and csv stream many batches (rows past the first 1024 print right)
CREATE TABLE big (id BIGINT, f DOUBLE, s STRING) TBLPROPERTIES ('transactional'='true');
INSERT INTO big VALUES (1, 0.5, 'a'), (2, 1.5, 'b');
INSERT INTO big SELECT id + 2, f + 2, concat(s, 'x') FROM big;
INSERT INTO big SELECT id + 4, f + 4, concat(s, 'y') FROM big;
INSERT INTO big SELECT id + 8, f + 8, s FROM big;
INSERT INTO big SELECT id + 16, f + 16, s FROM big;
INSERT INTO big SELECT id + 32, f + 32, s FROM big;
INSERT INTO big SELECT id + 64, f + 64, s FROM big;
INSERT INTO big SELECT id + 128, f + 128, s FROM big;
INSERT INTO big SELECT id + 256, f + 256, s FROM big;
INSERT INTO big SELECT id + 512, f + 512, s FROM big;
INSERT INTO big SELECT id + 1024, f + 1024, s FROM big;
INSERT INTO big SELECT id + 2048, f + 2048, s FROM big;
SELECT count(*), sum(id), sum(f), max(s) FROM big;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "SELECT id, f, s FROM big ORDER BY id" | sed -n '1p;1024,1027p;4095,$p'
-- @sh "$COMB" --warehouse "$WH" --outputformat csv -e "SELECT f, id FROM big" | sort -t, -k2 -n | tail -2
-- wide tables: 300 columns through INSERT, UPDATE of 100 columns, SELECT
-- @sh cols=$(seq -f 'c%g INT' -s, 1 300); vals=$(seq -s, 1 300); sets=$(for i in $(seq 1 100); do printf 'c%d = c%d + 1000,' $i $i; done); sets=${sets%,}; "$COMB" --warehouse "$WH" --outputformat tsv -e "CREATE TABLE wide ($cols) TBLPROPERTIES ('transactional'='true'); INSERT INTO wide VALUES ($vals); UPDATE wide SET $sets; INSERT INTO wide SELECT * FROM wide; SELECT * FROM wide" | awk -F'\t' '{ print NF, $1, $100, $101, $300 }'
