-- psql's \d commands against one schema: run with psql -X -q -a -f, output compared with
-- describe.out (psql_describe_test.py). Columns of every supported type, NOT NULL,
-- defaults, a primary key, UNIQUE, secondary indexes (one descending, one composite) and
-- CHECK constraints (column and table level).
CREATE TABLE city (
  id INTEGER PRIMARY KEY,
  name VARCHAR(40) NOT NULL,
  code CHAR(3),
  pop BIGINT UNIQUE,
  area NUMERIC(10,2) CHECK (area > 0),
  rank SMALLINT NOT NULL,
  lat REAL,
  lon DOUBLE PRECISION,
  founded DATE,
  updated TIMESTAMP,
  capital BOOLEAN DEFAULT false,
  note TEXT,
  CHECK (rank < 1000)
);
CREATE INDEX city_name_idx ON city (name);
CREATE UNIQUE INDEX city_code_founded ON city (code, founded DESC);
CREATE TABLE plain (a INTEGER, b TEXT);
\d city
\d+ city
\d city_pkey
\d+ city_code_founded
\d city_pop_key
\d plain
\d+ plain
\d nosuch
