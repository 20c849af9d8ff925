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
-- Defaults and CHECK expressions as pg_get_expr / pg_get_constraintdef print them.
CREATE TABLE rules (
  a INTEGER DEFAULT -1,
  b NUMERIC DEFAULT 1.5,
  c TEXT DEFAULT 'x',
  d VARCHAR(5) DEFAULT 'y',
  e NUMERIC DEFAULT 0,
  f BIGINT DEFAULT 5,
  g DATE DEFAULT '2020-01-01',
  h TIMESTAMP DEFAULT now(),
  j SMALLINT DEFAULT 3,
  CHECK (a + f > 0),
  CHECK (a > 0 AND f < 0 OR c IS NULL),
  CHECK (c <> ''),
  CHECK (lower(c) = c),
  CHECK (a IN (1, 2)),
  CHECK (a BETWEEN 1 AND 5),
  CHECK (NOT (a = 3)),
  CHECK (a * 2 + 1 > f - 1),
  CHECK (j > 1.5)
);
\d city
\d+ city
\d city_pkey
\d+ city_code_founded
\d city_pop_key
\d plain
\d+ plain
\d rules
\d nosuch
