-- VARCHAR(n) values are cut to n characters and CHAR(n) values padded to n,
-- as Hive stores them; CHAR padding does not count in comparisons; the ORC
-- files carry the declared types.
CREATE TABLE c (id INT, v VARCHAR(3), c CHAR(4)) TBLPROPERTIES ('transactional'='true');
INSERT INTO c VALUES (1, 'abcdef', 'xy'), (2, 'é€zz', 'éé'), (3, NULL, 'abcdefg');
SELECT id, v, c, concat('[', c, ']'), length(v) FROM c ORDER BY id;
SELECT id FROM c WHERE c = 'xy' OR c IN ('abcd  ') ORDER BY id;
UPDATE c SET v = 'longer value', c = 'q' WHERE c = 'xy';
SELECT * FROM c ORDER BY id;
SELECT trim('  a  '), concat('[', ltrim('  a '), ']'), concat('[', rtrim(' a  '), ']');
-- @sh "$COMB" orcfiledump "$(find "$WH/c" -path '*delta_0000001*' -name 'bucket_*')" | grep '^Type:'
