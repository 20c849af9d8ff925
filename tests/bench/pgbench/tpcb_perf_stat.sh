#!/bin/bash
# pgbench's built-in scripts against a fresh meridiand with `perf stat` on the daemon: tps,
# context switches and daemon CPU per transaction (tests/bench/RESULTS.md, "Quick writes and
# early garbage collection"). Each run starts meridiand on a new data directory, loads
# tpcb_setup.sql (scale 1), then per client count and script runs pgbench -M prepared while
# perf stat watches the daemon.
#
#   tpcb_perf_stat.sh MERIDIAND PORT LABEL
#   environment: CLIENTS="1 8" SCRIPTS="tpcb-like select-only" SECS=10 MODE=sync|async EXTRA=...
set -euo pipefail
BIN=$1
PORT=$2
LABEL=$3
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$DATA"' EXIT
# shellcheck disable=SC2086  # EXTRA holds several flags
"$BIN" --data-dir "$DATA/data" --pg-listen "127.0.0.1:$PORT" --grpc-listen "127.0.0.1:$((PORT + 1))" \
  --log-level warn --commit-mode "${MODE:-sync}" ${EXTRA:-} > "$DATA/log" 2>&1 &
PID=$!
sleep 1
psql -h 127.0.0.1 -p "$PORT" -U meridian -d meridian -X -q -f "$HERE/tpcb_setup.sql" > /dev/null
for c in ${CLIENTS:-1 8}; do
  for s in ${SCRIPTS:-tpcb-like select-only}; do
    perf stat -e context-switches,cpu-clock -p "$PID" -o "$DATA/perf" -- sleep "${SECS:-10}" \
      > /dev/null 2>&1 &
    PERF=$!
    out=$(pgbench -h 127.0.0.1 -p "$PORT" -U meridian -n -b "$s" -M prepared -T "${SECS:-10}" \
      -c "$c" -j $((c < 2 ? c : 2)) meridian 2>&1)
    wait "$PERF"
    tps=$(echo "$out" | grep -o "tps = [0-9.]*" | head -1)
    n=$(echo "$out" | grep -o "processed: [0-9]*" | grep -o "[0-9]*")
    cs=$(awk '/context-switches/ {gsub(",", "", $1); print $1}' "$DATA/perf")
    cpu=$(awk '/cpu-clock/ {gsub(",", "", $1); print $1}' "$DATA/perf")
    echo "$LABEL $s c=$c $tps txns=$n cs/txn=$(python3 -c "print(round($cs/$n,1))")" \
      "cpu_ms/txn=$(python3 -c "print(round($cpu/$n,3))")"
  done
done
