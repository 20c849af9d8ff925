#!/bin/bash
# A/B of meridiand binaries on one pgbench database: for each round, client count and binary,
# starts that binary on DATA_DIR (--buffer-pool-mb 2048), runs pgbench tpcb-like -M prepared
# for SECS, and prints tps, END latency, and the daemon's context switches and CPU per
# transaction (from /proc/<pid>/task/*/status and /proc/<pid>/stat), with the load average.
# The database must exist in DATA_DIR first: start any of the binaries there and run
# `pgbench -i -s 10 -h 127.0.0.1 -p PORT -U meridian meridian`. All binaries must read the
# same catalog format.
#
#   ab_binaries.sh DATA_DIR PORT ROUNDS "CLIENTS..." SECS BINARY...
set -u
data=$1 port=$2 rounds=$3 clients=$4 secs=$5
shift 5
for _ in $(seq 1 "$rounds"); do
  for c in $clients; do
    for bin in "$@"; do
      "$bin" --data-dir="$data" --pg-listen=127.0.0.1:"$port" --grpc-listen=127.0.0.1:0 \
        --log-level=warn --buffer-pool-mb=2048 > "$data.log" 2>&1 &
      pid=$!
      for _ in $(seq 1 50); do
        psql -h 127.0.0.1 -p "$port" -U meridian meridian -Atc "SELECT count(*) FROM pgbench_accounts" \
          > /dev/null 2>&1 && break
        sleep 0.2
      done
      switches() { cat /proc/"$pid"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
      cpu() { awk '{print $14 + $15}' /proc/"$pid"/stat; }
      s1=$(switches) c1=$(cpu)
      out=$(pgbench -n -b tpcb-like -M prepared -T "$secs" -c "$c" -j $((c < 2 ? c : 2)) -r \
        -h 127.0.0.1 -p "$port" -U meridian meridian 2>&1)
      s2=$(switches) c2=$(cpu)
      n=$(echo "$out" | awk '/actually processed/ {print $NF}')
      tps=$(echo "$out" | grep -o "tps = [0-9.]*" | cut -d' ' -f3)
      end=$(echo "$out" | awk '/END;/ {print $1}')
      ticks=$(getconf CLK_TCK)
      echo "$(basename "$bin") clients=$c tps=$tps END_ms=$end" \
        "switches/txn=$(( (s2 - s1) / n ))" \
        "cpu_ms/txn=$(echo "($c2 - $c1) * 1000 / $ticks / $n" | bc -l | cut -c1-5)" \
        "load=$(cut -d' ' -f1 /proc/loadavg)"
      kill "$pid"
      wait "$pid"
    done
  done
done
