-- Equality lookups through B+tree indexes on int[] and text[] columns over 100,000 rows.
-- psql -X -f tests/bench/array_index/array_index_100k.sql (PostgreSQL 15 and meridiand alike).
DROP TABLE IF EXISTS abench;
CREATE TABLE abench (id int PRIMARY KEY, a int[], t text[]);
INSERT INTO abench SELECT g, ARRAY[g % 1000, g % 7], ARRAY['k' || (g % 5000)] FROM generate_series(1, 100000) g;
CREATE INDEX abench_a ON abench (a);
CREATE INDEX abench_t ON abench (t);
ANALYZE abench;
\timing on
SELECT count(*) FROM abench WHERE a = '{5,5}';
SELECT count(*) FROM abench WHERE a = '{5,5}';
SELECT count(*) FROM abench WHERE a = '{5,5}';
SELECT sum(id) FROM abench WHERE t = '{k42}';
SELECT sum(id) FROM abench WHERE t = '{k42}';
SELECT sum(id) FROM abench WHERE t = '{k42}';
\timing off
EXPLAIN SELECT sum(id) FROM abench WHERE t = '{k42}';
DROP TABLE abench;
