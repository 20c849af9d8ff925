-- GROUPING SETS / ROLLUP / CUBE over 100,000 rows, beside the plain GROUP BYs they stand for
-- and their UNION ALL (what a client without grouping sets sends instead).
-- psql -X -f tests/bench/grouping_sets/grouping_sets_100k.sql (PostgreSQL 15 and meridiand
-- alike); each statement runs twice, the second time is the one to read.
\timing on
DROP TABLE IF EXISTS gsbench;
CREATE TABLE gsbench (id int PRIMARY KEY, a int, b int, c text, v int);
INSERT INTO gsbench SELECT g, g % 10, g % 100, 'c' || (g % 1000), g % 997 FROM generate_series(1, 100000) g;
ANALYZE gsbench;
\o /dev/null
SELECT a, b, sum(v), count(*) FROM gsbench GROUP BY a, b;
SELECT a, b, sum(v), count(*) FROM gsbench GROUP BY a, b;
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY ROLLUP (a, b, c);
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY ROLLUP (a, b, c);
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY CUBE (a, b, c);
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY CUBE (a, b, c);
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY GROUPING SETS ((a), (b), (c));
SELECT a, b, c, sum(v), count(*) FROM gsbench GROUP BY GROUPING SETS ((a), (b), (c));
SELECT a, NULL::int, NULL::text, sum(v), count(*) FROM gsbench GROUP BY a
UNION ALL SELECT NULL, b, NULL, sum(v), count(*) FROM gsbench GROUP BY b
UNION ALL SELECT NULL, NULL, c, sum(v), count(*) FROM gsbench GROUP BY c;
SELECT a, NULL::int, NULL::text, sum(v), count(*) FROM gsbench GROUP BY a
UNION ALL SELECT NULL, b, NULL, sum(v), count(*) FROM gsbench GROUP BY b
UNION ALL SELECT NULL, NULL, c, sum(v), count(*) FROM gsbench GROUP BY c;
\o
-- The answers, to compare between the two servers.
SELECT count(*), sum(s), sum(n) FROM (SELECT sum(v) AS s, count(*) AS n FROM gsbench GROUP BY CUBE (a, b, c)) x;
SELECT count(*), sum(s), sum(n) FROM (SELECT sum(v) AS s, count(*) AS n FROM gsbench GROUP BY ROLLUP (a, b, c)) x;
DROP TABLE gsbench;
