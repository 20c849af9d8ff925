-- The table of the pgbench smoke test (pgbench_smoke.py), made through psql: pgbench's own
-- accounts table, 1024 rows (aid 1..1024) built by doubling.
CREATE TABLE pgbench_accounts (aid INTEGER PRIMARY KEY, bid INTEGER, abalance INTEGER, filler TEXT);
INSERT INTO pgbench_accounts VALUES (1, 1, 0, 'filler');
INSERT INTO pgbench_accounts SELECT aid + 1, bid, aid + 1, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 2, bid, aid + 2, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 4, bid, aid + 4, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 8, bid, aid + 8, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 16, bid, aid + 16, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 32, bid, aid + 32, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 64, bid, aid + 64, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 128, bid, aid + 128, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 256, bid, aid + 256, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 512, bid, aid + 512, filler FROM pgbench_accounts;
SELECT count(*), min(aid), max(aid) FROM pgbench_accounts;
