-- 100,000 jsonb documents built by jsonb_build_object, then filters on ->> and @>.
-- psql -X -f tests/bench/json/jsonb_100k.sql (PostgreSQL 15 and meridiand alike).
\timing on
DROP TABLE IF EXISTS jbench;
CREATE TABLE jbench (id int PRIMARY KEY, doc jsonb);
INSERT INTO jbench SELECT g, jsonb_build_object('k', 'v' || (g % 100), 'n', g, 'tags', jsonb_build_array('a', g % 7)) FROM generate_series(1, 100000) g;
SELECT count(*) FROM jbench WHERE doc->>'k' = 'v42';
SELECT count(*) FROM jbench WHERE doc->>'k' = 'v42';
SELECT count(*) FROM jbench WHERE doc @> '{"k": "v42"}';
SELECT sum((doc->>'n')::int) FROM jbench WHERE doc->'tags'->>1 = '3';
DROP TABLE jbench;
