#!/bin/bash
# A/B of meridiand binaries on TPC-C's consistency checks cc4, cc5, cc7, cc8, cc9 and cc10
# (tools/tpcc/statement_bench.cc's SQL, warehouse 1 as a literal): for each round and binary,
# starts that binary on DATA_DIR, waits SETTLE seconds (its background work after start-up
# would otherwise land on the first statements), then per statement runs 3 untimed and N timed
# executions with `pgbench -n -M prepared -t N` and prints the daemon's CPU ms per execution
# (utime + stime from /proc/<pid>/stat: less sensitive to other processes' load than the wall
# time, printed beside it) and the load average. Take the median of the rounds.
# The data must exist in DATA_DIR first: start any of the binaries there and run
# `build/bin/meridian-tpcc load --driver pg --port PORT --threads 1 --seed 42 --warehouses 1`.
#
#   ab_cc_cpu.sh DATA_DIR PORT ROUNDS BINARY...        (SETTLE=15 by default)
set -u
data=$1 port=$2 rounds=$3
shift 3
settle=${SETTLE:-15}
sqldir=$(mktemp -d)
trap 'rm -rf "$sqldir"' EXIT
cat > "$sqldir/cc4.sql" <<'SQL'
SELECT o_d_id, sum(o_ol_cnt), lines FROM orders JOIN (SELECT ol_w_id, ol_d_id, count(*) AS lines FROM order_line GROUP BY ol_w_id, ol_d_id) AS l ON ol_w_id = o_w_id AND ol_d_id = o_d_id WHERE o_w_id = 1 GROUP BY o_w_id, o_d_id, lines ORDER BY o_d_id;
SQL
cat > "$sqldir/cc5.sql" <<'SQL'
SELECT count(*), sum(CASE WHEN (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL) THEN 1 ELSE 0 END) FROM orders LEFT JOIN new_order ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id WHERE o_w_id = 1;
SQL
cat > "$sqldir/cc7.sql" <<'SQL'
SELECT count(*), sum(CASE WHEN (ol_delivery_d IS NULL) = (o_carrier_id IS NULL) THEN 0 ELSE 1 END) FROM order_line JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id WHERE ol_w_id = 1;
SQL
cat > "$sqldir/cc8.sql" <<'SQL'
SELECT w_id, w_ytd, sum(h_amount) FROM warehouse, history WHERE h_w_id = w_id AND w_id = 1 GROUP BY w_id, w_ytd;
SQL
cat > "$sqldir/cc9.sql" <<'SQL'
SELECT d_id, d_ytd, sum(h_amount) FROM district JOIN history ON h_w_id = d_w_id AND h_d_id = d_id WHERE d_w_id = 1 GROUP BY d_w_id, d_id, d_ytd ORDER BY d_id;
SQL
cat > "$sqldir/cc10.sql" <<'SQL'
SELECT count(*) FROM customer LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) AS delivered FROM orders JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id WHERE o_w_id = 1 AND ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) AS dl ON o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS paid FROM history WHERE h_c_w_id = 1 GROUP BY h_c_w_id, h_c_d_id, h_c_id) AS h ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id WHERE c_w_id = 1 AND c_balance <> coalesce(delivered, 0) - coalesce(paid, 0);
SQL
declare -A executions=([cc4]=30 [cc5]=100 [cc7]=20 [cc8]=100 [cc9]=100 [cc10]=10)
ticks=$(getconf CLK_TCK)
for round in $(seq 1 "$rounds"); do
  for bin in "$@"; do
    "$bin" --data-dir="$data" --pg-listen=127.0.0.1:"$port" --grpc-listen=127.0.0.1:0 \
      --log-level=warn > "$data.log" 2>&1 &
    pid=$!
    sleep "$settle"
    cpu() { awk '{print $14 + $15}' /proc/"$pid"/stat; }
    for q in cc8 cc9 cc5 cc7 cc4 cc10; do
      n=${executions[$q]}
      pg() { pgbench -n -M prepared -f "$sqldir/$q.sql" -t "$1" -h 127.0.0.1 -p "$port" \
        -U meridian meridian > /dev/null 2>&1; }
      pg 3
      c1=$(cpu) t1=$(date +%s%N)
      pg "$n"
      c2=$(cpu) t2=$(date +%s%N)
      echo "round=$round $(basename "$bin") $q" \
        "cpu_ms=$(echo "($c2 - $c1) * 1000 / $ticks / $n" | bc -l | cut -c1-6)" \
        "wall_ms=$(echo "($t2 - $t1) / 1000000 / $n" | bc -l | cut -c1-6)" \
        "load=$(cut -d' ' -f1 /proc/loadavg)"
    done
    kill "$pid"
    wait "$pid"
  done
done
