-- Whole-row references over 100,000 rows: row_to_json(t), json_agg(t), t::text and SELECT t
-- sent to the client (psql's output to /dev/null), as ORMs and JSON APIs send them.
-- psql -X -f tests/bench/json/whole_row_100k.sql (PostgreSQL 15 and meridiand alike).
\timing on
DROP TABLE IF EXISTS wrbench;
CREATE TABLE wrbench (id int PRIMARY KEY, name text, qty int, price numeric(10,2), ok boolean);
INSERT INTO wrbench SELECT g, 'item ' || g, g % 100, (g % 1000) / 10.0, g % 3 = 0 FROM generate_series(1, 100000) g;
SELECT sum(length(row_to_json(w)::text)) FROM wrbench w;
SELECT sum(length(row_to_json(w)::text)) FROM wrbench w;
SELECT length(json_agg(w)::text) FROM wrbench w;
SELECT length(jsonb_agg(w)::text) FROM wrbench w;
SELECT sum(length(w::text)) FROM wrbench w;
\o /dev/null
SELECT w FROM wrbench w;
\o
DROP TABLE wrbench;
