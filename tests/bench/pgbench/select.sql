\set aid random(1, 131072)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
