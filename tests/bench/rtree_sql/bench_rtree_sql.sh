#!/usr/bin/env bash
# The query groups of bench_rtree through SQL over the PostgreSQL protocol: N uniformly random
# 5-dimensional points in [0, 1)^5, three groups of random boxes whose side (count / N)^(1/5)
# gives about 1, 300 and 45,000 points per box, each run by pgbench with a prepared statement (-M prepared, 1 client) for SECONDS seconds.
#   meridiand: table p5 (id, a, b, c, d, e DOUBLE PRECISION), CREATE INDEX USING rtree (a..e)
#   PostgreSQL 15: table p5c (id, p cube), CREATE INDEX USING gist (p); WHERE p <@ cube(lo, hi)
# Both servers must be running; the script loads the tables (dropping earlier ones), unless
# RTREE_SQL_SKIP_LOAD=1 (reuse the tables of an earlier run with the same N).
#   bench_rtree_sql.sh MERIDIAN_PSQL_ARGS POSTGRES_PSQL_ARGS [N] [SECONDS]
# A "-d DB" in the arguments names the database for psql; for pgbench (whose -d is --debug) it
# becomes the trailing database name (meridiand's default: meridian).
# e.g. bench_rtree_sql.sh "-h 127.0.0.1 -p 57001" "-h /tmp -p 55432 -U postgres -d rtree" 1000000 15
set -euo pipefail
M="$1"; P="$2"; N="${3:-1000000}"; SECONDS_PER="${4:-15}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pgbench_args() {  # $1 psql args, $2 default database: the same for pgbench, -d DB moved last
  local db="$2" out=() a i
  read -r -a a <<< "$1"
  for ((i = 0; i < ${#a[@]}; i++)); do
    if [ "${a[$i]}" = -d ]; then db="${a[$((i + 1))]}"; i=$((i + 1)); else out+=("${a[$i]}"); fi
  done
  echo "${out[*]} $db"
}
load() {  # $1 psql args, $2 sql
  /usr/bin/time -f "%e s" psql $1 -X -q -v ON_ERROR_STOP=1 -c "$2" 2>&1 | tail -1
}
if [ "${RTREE_SQL_SKIP_LOAD:-0}" != 1 ]; then
echo "load N=$N"
echo -n "meridiand table: "; load "$M" "DROP TABLE IF EXISTS p5; CREATE TABLE p5 (id INT, a FLOAT8, b FLOAT8, c FLOAT8, d FLOAT8, e FLOAT8); INSERT INTO p5 SELECT g, random(), random(), random(), random(), random() FROM generate_series(1, $N) g"
echo -n "meridiand CREATE INDEX USING rtree: "; load "$M" "CREATE INDEX p5_r ON p5 USING rtree (a, b, c, d, e)"
load "$M" "ANALYZE p5" > /dev/null
echo -n "postgres table: "; load "$P" "CREATE EXTENSION IF NOT EXISTS cube; DROP TABLE IF EXISTS p5c; CREATE TABLE p5c (id INT, p cube); INSERT INTO p5c SELECT g, cube(ARRAY[random(), random(), random(), random(), random()]) FROM generate_series(1, $N) g"
echo -n "postgres CREATE INDEX USING gist: "; load "$P" "CREATE INDEX p5c_g ON p5c USING gist (p)"
load "$P" "ANALYZE p5c" > /dev/null
fi

printf "%-8s %-10s %14s %14s %10s %12s\n" group side "meridiand q/s" "postgres q/s" ratio "avg rows"
for g in 1 300 45000; do
  side=$(python3 -c "print(round(($g / $N) ** 0.2, 5))")
  # pgbench \set: integer arithmetic only; lows in millionths.
  hi=$(python3 -c "print(int((1 - $side) * 1000000))")
  vars=""
  for v in a b c d e; do vars+="\\set $v random(0, $hi)"$'\n'; done
  cat > "$TMP/m.sql" <<SQL
$vars
SELECT count(*) FROM p5 WHERE a BETWEEN :a / 1000000.0 AND :a / 1000000.0 + $side AND b BETWEEN :b / 1000000.0 AND :b / 1000000.0 + $side AND c BETWEEN :c / 1000000.0 AND :c / 1000000.0 + $side AND d BETWEEN :d / 1000000.0 AND :d / 1000000.0 + $side AND e BETWEEN :e / 1000000.0 AND :e / 1000000.0 + $side;
SQL
  cat > "$TMP/p.sql" <<SQL
$vars
SELECT count(*) FROM p5c WHERE p <@ cube(ARRAY[:a / 1000000.0, :b / 1000000.0, :c / 1000000.0, :d / 1000000.0, :e / 1000000.0]::float8[], ARRAY[:a / 1000000.0 + $side, :b / 1000000.0 + $side, :c / 1000000.0 + $side, :d / 1000000.0 + $side, :e / 1000000.0 + $side]::float8[]);
SQL
  mq=$(pgbench $(pgbench_args "$M" meridian) -n -M prepared -c 1 -T "$SECONDS_PER" -f "$TMP/m.sql" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' || true)
  pq=$(pgbench $(pgbench_args "$P" "") -n -M prepared -c 1 -T "$SECONDS_PER" -f "$TMP/p.sql" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' || true)
  # Average result size over 20 random boxes (the same generator, in Python).
  avg=$(python3 - "$side" "$M" <<'PY'
import random, subprocess, sys
side = float(sys.argv[1]); args = sys.argv[2].split()
rng = random.Random(1); total = 0
for _ in range(20):
    lo = [rng.random() * (1 - side) for _ in range(5)]
    cond = " AND ".join(f"{c} BETWEEN {l} AND {l + side}" for c, l in zip("abcde", lo))
    out = subprocess.run(["psql"] + args + ["-X", "-A", "-t", "-c", f"SELECT count(*) FROM p5 WHERE {cond}"], capture_output=True, text=True)
    total += int(out.stdout.strip())
print(total / 20)
PY
)
  ratio=$(python3 -c "print(f'{float(\"${mq:-0}\") / float(\"${pq:-1}\"):.2f}x')")
  printf "%-8s %-10s %14s %14s %10s %12s\n" "~$g" "$side" "${mq:-?}" "${pq:-?}" "$ratio" "$avg"
done
