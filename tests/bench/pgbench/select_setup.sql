-- pgbench_accounts with 131,072 rows (aid 1..131072) for the select-only comparison in
-- tests/bench/RESULTS.md; run with psql against meridiand and PostgreSQL alike.
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
INSERT INTO pgbench_accounts SELECT aid + 1024, bid, aid + 1024, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 2048, bid, aid + 2048, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 4096, bid, aid + 4096, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 8192, bid, aid + 8192, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 16384, bid, aid + 16384, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 32768, bid, aid + 32768, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 65536, bid, aid + 65536, filler FROM pgbench_accounts;
ANALYZE pgbench_accounts;
