-- Expression and partial index benchmark tables (issue 18): 100,000 users and 100,000 jsonb
-- documents; run against meridiand and PostgreSQL 15 alike (tests/bench/RESULTS.md).
DROP TABLE IF EXISTS bx_users;
DROP TABLE IF EXISTS bx_docs;
CREATE TABLE bx_users (id int PRIMARY KEY, email text, active bool);
INSERT INTO bx_users SELECT g, 'User' || g || '@Example.com', g % 10 = 0 FROM generate_series(1, 100000) g;
CREATE UNIQUE INDEX bx_users_lower ON bx_users (lower(email));
CREATE INDEX bx_users_active ON bx_users (id) WHERE active;
CREATE TABLE bx_docs (id int PRIMARY KEY, j jsonb);
INSERT INTO bx_docs SELECT g, ('{"k": "v' || g || '", "n": ' || (g % 1000) || '}')::jsonb FROM generate_series(1, 100000) g;
CREATE INDEX bx_docs_k ON bx_docs ((j->>'k'));
ANALYZE bx_users;
ANALYZE bx_docs;
