#!/bin/bash
# Times the statements whose scans meet their transaction's own versions (the command rule,
# docs/txn.md "Commands") on one meridiand: a bulk INSERT and UPDATE in a block, an
# UPDATE whose SET subquery reads each updated row's old version by key, an ON CONFLICT DO
# UPDATE with a subquery, and DELETE ... RETURNING with one. Usage:
#   bench.sh MERIDIAND PG_PORT GRPC_PORT [RUNS]
# Prints each statement's time per run (psql \timing), milliseconds.
set -euo pipefail
daemon=$1 pg_port=$2 grpc_port=$3 runs=${4:-3}
dir=$(mktemp -d /tmp/bench_command_ids.XXXXXX)
"$daemon" --data-dir="$dir/data" --pg-listen=127.0.0.1:"$pg_port" \
  --grpc-listen=127.0.0.1:"$grpc_port" > "$dir/log" 2>&1 &
pid=$!
trap 'kill $pid; wait $pid || true; rm -rf "$dir"' EXIT
psql_run() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -X -q "$@"; }
for _ in $(seq 50); do psql_run -c 'SELECT 1' > /dev/null 2>&1 && break; sleep 0.2; done
for run in $(seq "$runs"); do
  psql_run > "$dir/out" <<SQL
DROP TABLE IF EXISTS cb;
CREATE TABLE cb (id INT PRIMARY KEY, v INT);
\timing on
BEGIN;
INSERT INTO cb SELECT g, g FROM generate_series(1, 200000) g;
UPDATE cb SET v = v + 1;
UPDATE cb SET v = (SELECT t.v FROM cb t WHERE t.id = cb.id) + 1 WHERE id <= 50000;
INSERT INTO cb SELECT g, 0 FROM generate_series(1, 20000) g
  ON CONFLICT (id) DO UPDATE SET v = (SELECT t.v FROM cb t WHERE t.id = excluded.id) + 1;
DELETE FROM cb WHERE id <= 20000 RETURNING (SELECT t.v FROM cb t WHERE t.id = cb.id);
COMMIT;
SQL
  echo "run $run: $(grep -o 'Time: [0-9.]* ms' "$dir/out" | awk '{printf "%s ", $2}')"
done
