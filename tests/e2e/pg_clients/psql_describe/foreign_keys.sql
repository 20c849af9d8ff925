-- psql's \d of tables with foreign keys: "Foreign-key constraints:" on the referencing table,
-- "Referenced by:" on the referenced one (a self reference shows both), actions and MATCH FULL
-- as pg_get_constraintdef prints them; a table without foreign keys shows neither.
CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT UNIQUE, a INTEGER, b INTEGER, UNIQUE (a, b));
CREATE TABLE child (
  id INTEGER PRIMARY KEY,
  pid INTEGER REFERENCES parent,
  code TEXT,
  a INTEGER,
  b INTEGER,
  CONSTRAINT child_code FOREIGN KEY (code) REFERENCES parent (code) ON DELETE SET NULL ON UPDATE CASCADE,
  FOREIGN KEY (a, b) REFERENCES parent (a, b) MATCH FULL ON DELETE CASCADE
);
CREATE TABLE node (id INTEGER PRIMARY KEY, up INTEGER REFERENCES node ON DELETE RESTRICT);
CREATE TABLE lone (x INTEGER);
\d child
\d parent
\d node
\d lone
