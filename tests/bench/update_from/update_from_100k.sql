-- UPDATE ... FROM / DELETE ... USING and aggregate FILTER / ORDER BY at 100,000 rows: run with
-- `psql -X -q -f update_from_100k.sql` against meridiand and PostgreSQL 15 (each fresh) and
-- compare the \timing lines; tests/bench/RESULTS.md has the figures.
\timing off
DROP TABLE IF EXISTS big;
DROP TABLE IF EXISTS big2;
DROP TABLE IF EXISTS small;
CREATE TABLE big (id INT PRIMARY KEY, v TEXT, n INT);
CREATE TABLE big2 (id INT PRIMARY KEY, w TEXT);
CREATE TABLE small (id INT PRIMARY KEY, w TEXT);
INSERT INTO big SELECT g, 'v' || g, 0 FROM generate_series(1, 100000) g;
INSERT INTO big2 SELECT g, 'w' || g FROM generate_series(1, 100000) g;
INSERT INTO small SELECT g * 97, 's' || g FROM generate_series(1, 1000) g;
ANALYZE;
EXPLAIN UPDATE big SET n = big.n + 1, v = small.w FROM small WHERE big.id = small.id;
EXPLAIN UPDATE big SET n = big.n + 1 FROM big2 WHERE big.id = big2.id;
EXPLAIN DELETE FROM big USING small WHERE big.id = small.id;
\timing on
-- 1,000 rows of big through the index on big.id
UPDATE big SET n = big.n + 1, v = small.w FROM small WHERE big.id = small.id;
-- every row of big, 100,000 x 100,000
UPDATE big SET n = big.n + 1 FROM big2 WHERE big.id = big2.id;
SELECT count(*) FILTER (WHERE n = 2), sum(n) FILTER (WHERE v LIKE 's%'), count(*) FROM big;
SELECT length(string_agg(v, ',' ORDER BY id DESC)), (array_agg(id ORDER BY n DESC, id))[1] FROM big;
DELETE FROM big USING small WHERE big.id = small.id;
SELECT count(*), sum(n) FROM big;
