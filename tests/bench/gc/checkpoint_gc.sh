#!/bin/bash
# Time of a checkpoint (VACUUM with no table) after 100 random rows of a 1,000,000-row
# pgbench_accounts were updated: how much of it garbage collection takes. Usage:
#   tests/bench/gc/checkpoint_gc.sh [MERIDIAND] [LABEL] [PORT]
# Starts its own daemon on a fresh /tmp data directory (PORT and PORT+1), stops it at the end.
set -euo pipefail
BIN=${1:-build/bin/meridiand}
LABEL=${2:-meridiand}
PORT=${3:-56195}
DATA=$(mktemp -d /tmp/gcbench.XXXXXX)
"$BIN" --data-dir "$DATA" --pg-listen "127.0.0.1:$PORT" --grpc-listen "127.0.0.1:$((PORT + 1))" \
  --log-level warn &
PID=$!
trap 'kill $PID 2>/dev/null; while kill -0 $PID 2>/dev/null; do sleep 0.2; done; rm -rf "$DATA"' EXIT
PSQL="psql -h 127.0.0.1 -p $PORT -U postgres -X -q -d postgres"
for _ in $(seq 50); do $PSQL -c "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
pgbench -h 127.0.0.1 -p "$PORT" -U postgres -i -s 10 -q postgres >/dev/null 2>&1
$PSQL -c "VACUUM"
$PSQL -c "VACUUM"
for _ in 1 2 3 4 5; do
  $PSQL -c "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid IN
            (SELECT (random() * 999999)::int + 1 FROM generate_series(1, 100))" >/dev/null
  start=$(date +%s%N)
  $PSQL -c "VACUUM"
  end=$(date +%s%N)
  echo "$LABEL: VACUUM (a checkpoint) after a 100-row update: $(((end - start) / 1000)) us"
done
