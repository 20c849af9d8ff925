-- pgbench's four tables at scale 1 (1 branch, 10 tellers, 100,000 accounts, empty history),
-- shaped as `pgbench -i` makes them (char fillers, primary keys) but created and filled with
-- plain SQL, so meridiand and PostgreSQL 15 get the same data the same way. Used by
-- bench_pgbench.py for the built-in select-only and tpcb-like scripts.
CREATE TABLE pgbench_branches (bid INTEGER PRIMARY KEY, bbalance INTEGER, filler CHAR(88));
CREATE TABLE pgbench_tellers (tid INTEGER PRIMARY KEY, bid INTEGER, tbalance INTEGER,
                              filler CHAR(84));
CREATE TABLE pgbench_accounts (aid INTEGER PRIMARY KEY, bid INTEGER, abalance INTEGER,
                               filler CHAR(84));
CREATE TABLE pgbench_history (tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER,
                              mtime TIMESTAMP, filler CHAR(22));
INSERT INTO pgbench_branches VALUES (1, 0, NULL);
INSERT INTO pgbench_tellers VALUES (1, 1, 0, NULL), (2, 1, 0, NULL), (3, 1, 0, NULL),
  (4, 1, 0, NULL), (5, 1, 0, NULL), (6, 1, 0, NULL), (7, 1, 0, NULL), (8, 1, 0, NULL),
  (9, 1, 0, NULL), (10, 1, 0, NULL);
INSERT INTO pgbench_accounts VALUES (1, 1, 0, '');
INSERT INTO pgbench_accounts SELECT aid + 1, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 2, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 4, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 8, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 16, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 32, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 64, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 128, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 256, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 512, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 1024, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 2048, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 4096, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 8192, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 16384, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 32768, bid, abalance, filler FROM pgbench_accounts;
INSERT INTO pgbench_accounts SELECT aid + 65536, bid, abalance, filler FROM pgbench_accounts
  WHERE aid <= 34464;
ANALYZE pgbench_branches;
ANALYZE pgbench_tellers;
ANALYZE pgbench_accounts;
