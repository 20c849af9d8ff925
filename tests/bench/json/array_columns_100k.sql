-- Array columns over 100,000 rows of a 10-element int[] (and a text[]): the load, `5 = ANY(vals)`,
-- `@>`, unnest and sending the arrays to the client (psql's output to /dev/null).
-- psql -X -f tests/bench/json/array_columns_100k.sql (PostgreSQL 15 and meridiand alike).
\timing on
DROP TABLE IF EXISTS acbench;
CREATE TABLE acbench (id int PRIMARY KEY, vals int[], tags text[]);
INSERT INTO acbench SELECT g, ARRAY[g % 7, g % 11, g % 13, g % 17, g % 19, g % 23, g % 29, g % 31, g % 37, g % 41], ARRAY['t' || (g % 5), 'u' || (g % 9)] FROM generate_series(1, 100000) g;
SELECT count(*) FROM acbench WHERE 5 = ANY(vals);
SELECT count(*) FROM acbench WHERE 5 = ANY(vals);
SELECT count(*) FROM acbench WHERE vals @> ARRAY[3, 4];
SELECT count(*) FROM acbench WHERE tags @> ARRAY['t1'];
SELECT sum(u) FROM acbench, unnest(vals) u;
\o /dev/null
SELECT vals, tags FROM acbench;
\o
DROP TABLE acbench;
