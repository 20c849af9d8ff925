#!/usr/bin/env bash
# 2-D point and box queries through SQL over the PostgreSQL protocol, meridiand's R-tree against
# PostgreSQL 15's GiST, on the same rows (one CSV file, loaded into both with \copy):
#   gpts (id INT PRIMARY KEY, p POINT), N uniformly random points in [0, 1000)^2, USING gist (p)
#   gregions (id INT PRIMARY KEY, b BOX), R random boxes of side 1 to 5 in the same square
# Queries, each a pgbench script (-M prepared, 1 client, SECONDS seconds), ratio = meridiand's
# rate / PostgreSQL's (> 1: meridiand faster):
#   join    SELECT count(*) FROM gregions r JOIN gpts p ON p.p <@ r.b  (index nested loop)
#   knn10   the 10 nearest points of a random point (ORDER BY p <-> point LIMIT 10)
#   box~10  count(*) of a random box holding about 10 points
#   box~1k  count(*) of a random box holding about 1,000 points
# After the load both tables are VACUUMed on both servers, so both visibility maps cover them
# (PostgreSQL's autovacuum would do it within a minute of the load; meridiand's checkpoint loop
# likewise) and index-only scans answer from the index on both.
# Both servers must be running; the script drops and reloads the two tables on each, prints
# both plans of the join and checks that every query's answer is the same on both.
#   bench_geometry_sql.sh MERIDIAN_ARGS MERIDIAN_DB POSTGRES_ARGS POSTGRES_DB [N] [R] [SECONDS]
# (ARGS: host, port and user options as psql and pgbench both take them)
# e.g. bench_geometry_sql.sh "-h 127.0.0.1 -p 56120" meridian "-h /tmp -p 55432 -U postgres" geo 200000 2000 10
set -euo pipefail
M="$1 -d $2"; P="$3 -d $4"; MARGS="$1 $2"; PARGS="$3 $4"
N="${5:-200000}"; R="${6:-2000}"; SECONDS_PER="${7:-10}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

python3 - "$N" "$R" "$TMP" <<'PY'
import random, sys
n, r, tmp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(19)
with open(f"{tmp}/pts.csv", "w") as f:
    for i in range(1, n + 1):
        f.write(f"{i},\"({rng.uniform(0, 1000):.4f},{rng.uniform(0, 1000):.4f})\"\n")
with open(f"{tmp}/regions.csv", "w") as f:
    for i in range(1, r + 1):
        x, y = rng.uniform(0, 995), rng.uniform(0, 995)
        f.write(f"{i},\"({x:.3f},{y:.3f}),({x + rng.uniform(1, 5):.3f},{y + rng.uniform(1, 5):.3f})\"\n")
PY

sql() {  # $1 psql args, $2 sql: prints the answer (unaligned, tuples only)
  psql $1 -X -q -A -t -v ON_ERROR_STOP=1 -c "$2"
}
load() {  # $1 psql args, $2 name: prints the seconds it took
  local start end
  start=$(date +%s.%N)
  psql $1 -X -q -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS gpts;
DROP TABLE IF EXISTS gregions;
CREATE TABLE gpts (id INT PRIMARY KEY, p POINT);
CREATE TABLE gregions (id INT PRIMARY KEY, b BOX);
\copy gpts FROM '$TMP/pts.csv' WITH (FORMAT csv)
\copy gregions FROM '$TMP/regions.csv' WITH (FORMAT csv)
CREATE INDEX gpts_p ON gpts USING gist (p);
ANALYZE gpts;
ANALYZE gregions;
VACUUM gpts;
VACUUM gregions;
SQL
  end=$(date +%s.%N)
  python3 -c "print(f'$2 load + CREATE INDEX + ANALYZE + VACUUM: {$end - $start:.2f} s')"
}
echo "N=$N points, R=$R regions, $SECONDS_PER s per query and server"
load "$M" meridiand
load "$P" postgres

echo "--- meridiand plan of the join"
sql "$M" "EXPLAIN SELECT count(*) FROM gregions r JOIN gpts p ON p.p <@ r.b"
echo "--- postgres plan of the join"
sql "$P" "EXPLAIN SELECT count(*) FROM gregions r JOIN gpts p ON p.p <@ r.b"

# Answers must agree: the join, and a few fixed instances of the other queries.
check() {  # $1 sql
  local a b
  a=$(sql "$M" "$1"); b=$(sql "$P" "$1")
  if [ "$a" != "$b" ]; then echo "DIFFERENT ANSWERS for $1: meridiand [$a] postgres [$b]"; exit 1; fi
}
check "SELECT count(*), sum(p.id), sum(r.id) FROM gregions r JOIN gpts p ON p.p <@ r.b"
check "SELECT string_agg(id::text, ',') FROM (SELECT id FROM gpts ORDER BY p <-> point(123.4, 567.8), id LIMIT 10) s"
# Box sides for about 10 and 1,000 points of N in a 1000 x 1000 square.
S10=$(python3 -c "print(round(1000 * (10 / $N) ** 0.5, 3))")
S1K=$(python3 -c "print(round(1000 * (1000 / $N) ** 0.5, 3))")
check "SELECT count(*) FROM gpts WHERE p <@ box(point(500, 500), point(500 + $S10, 500 + $S10))"
check "SELECT count(*) FROM gpts WHERE p <@ box(point(100, 700), point(100 + $S1K, 700 + $S1K))"

cat > "$TMP/join.sql" <<SQL
SELECT count(*) FROM gregions r JOIN gpts p ON p.p <@ r.b;
SQL
cat > "$TMP/knn10.sql" <<SQL
\set x random(0, 1000000)
\set y random(0, 1000000)
SELECT id FROM gpts ORDER BY p <-> point(:x / 1000.0, :y / 1000.0) LIMIT 10;
SQL
for s in 10 1k; do
  side=$([ $s = 10 ] && echo "$S10" || echo "$S1K")
  hi=$(python3 -c "print(int((1000 - $side) * 1000))")
  cat > "$TMP/box$s.sql" <<SQL
\set x random(0, $hi)
\set y random(0, $hi)
SELECT count(*) FROM gpts WHERE p <@ box(point(:x / 1000.0, :y / 1000.0), point(:x / 1000.0 + $side, :y / 1000.0 + $side));
SQL
done

rate() {  # $1 pgbench connection options and database, $2 script: transactions per second
  pgbench $1 -n -M prepared -c 1 -T "$SECONDS_PER" -f "$2" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
printf "%-8s %14s %14s %8s\n" query "meridiand q/s" "postgres q/s" ratio
for q in join knn10 box10 box1k; do
  mq=$(rate "$MARGS" "$TMP/$q.sql"); pq=$(rate "$PARGS" "$TMP/$q.sql")
  ratio=$(python3 -c "print(f'{float(\"${mq:-0}\") / float(\"${pq:-1}\"):.2f}x')")
  printf "%-8s %14s %14s %8s\n" "$q" "${mq:-?}" "${pq:-?}" "$ratio"
done
