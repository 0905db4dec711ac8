-- DESCRIBE FUNCTION [EXTENDED] f, as Hive prints it: `f(args) - text`
-- with the name as asked; EXTENDED adds the synonyms and the type; an
-- unknown name is a row saying so.
DESCRIBE FUNCTION upper;
DESCRIBE FUNCTION UPPER;
DESCRIBE FUNCTION EXTENDED ucase;
DESC FUNCTION EXTENDED substr;
DESCRIBE FUNCTION count;
DESCRIBE FUNCTION EXTENDED row_number;
DESCRIBE FUNCTION explode;
-- operators and keywords are functions in Hive's registry
DESCRIBE FUNCTION +;
DESCRIBE FUNCTION <=>;
DESCRIBE FUNCTION EXTENDED and;
DESCRIBE FUNCTION case;
DESCRIBE FUNCTION 'like';
DESCRIBE FUNCTION `rlike`;
-- unknown
DESCRIBE FUNCTION nosuch;
DESCRIBE FUNCTION EXTENDED nosuch;
DESCRIBE FUNCTION;
-- every name SHOW FUNCTIONS lists has a text: none is undocumented
-- @sh echo 'SHOW FUNCTIONS;' | $COMB --warehouse $WH/warehouse | sed -n 's/^| \([^ ]*\) *|$/\1/p' | grep -v '^tab_name$' | while read f; do echo "DESCRIBE FUNCTION \`$f\`;"; done > $WH/all.sql; $COMB --warehouse $WH/warehouse < $WH/all.sql | grep -c -e 'no documentation' -e 'does not exist'; grep -c DESCRIBE $WH/all.sql
