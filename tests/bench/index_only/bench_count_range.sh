#!/usr/bin/env bash
# B+tree index-only range counts over the protocol, meridiand against PostgreSQL 15 on the same
# rows: ti (k INT, v INT, pad TEXT) with ROWS rows, k = 1..ROWS in a scrambled heap order, an
# index on k, then VACUUM ANALYZE on both (both visibility maps cover the table).
# Query (a pgbench script, -M prepared, 1 client, SECONDS seconds each, meridiand then
# PostgreSQL): SELECT count(*) FROM ti WHERE k BETWEEN :lo AND :lo + WIDTH - 1, :lo random;
# ratio = meridiand's rate / PostgreSQL's (> 1: meridiand faster). Both plans are printed and a
# few answers compared.
#   bench_count_range.sh MERIDIAN_ARGS MERIDIAN_DB POSTGRES_ARGS POSTGRES_DB [ROWS] [WIDTH] [SECONDS]
# e.g. bench_count_range.sh "-h 127.0.0.1 -p 56141 -U meridian" meridian "-h /tmp -p 55432 -U postgres" bt 1000000 10000 10
set -euo pipefail
M="$1 -d $2"; P="$3 -d $4"; MARGS="$1 $2"; PARGS="$3 $4"
ROWS="${5:-1000000}"; WIDTH="${6:-10000}"; SECONDS_PER="${7:-10}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sql() { psql $1 -X -q -A -t -v ON_ERROR_STOP=1 -c "$2"; }
load() {  # $1 psql args, $2 name
  local start end
  start=$(date +%s.%N)
  psql $1 -X -q -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS ti;
CREATE TABLE ti (k INT NOT NULL, v INT, pad TEXT);
INSERT INTO ti SELECT (g::bigint * 7919 % $ROWS) + 1, g % 100, repeat('p', 40) FROM generate_series(1, $ROWS) g;
CREATE INDEX ti_k ON ti (k);
VACUUM ti;
ANALYZE ti;
SQL
  end=$(date +%s.%N)
  python3 -c "print(f'$2 load + CREATE INDEX + VACUUM + ANALYZE: {$end - $start:.2f} s')"
}
echo "ROWS=$ROWS, WIDTH=$WIDTH, $SECONDS_PER s per server"
load "$M" meridiand
load "$P" postgres
Q="SELECT count(*) FROM ti WHERE k BETWEEN 5000 AND 5000 + $WIDTH - 1"
echo "--- meridiand plan"; sql "$M" "EXPLAIN ANALYZE $Q" | grep -v "Time:"
echo "--- postgres plan"; sql "$P" "EXPLAIN ANALYZE $Q" | grep -v "Time:"
for lo in 1 123457 $((ROWS - WIDTH / 2)); do
  q="SELECT count(*), sum(k) FROM ti WHERE k BETWEEN $lo AND $lo + $WIDTH - 1"
  a=$(sql "$M" "$q"); b=$(sql "$P" "$q")
  if [ "$a" != "$b" ]; then echo "DIFFERENT ANSWERS for $q: meridiand [$a] postgres [$b]"; exit 1; fi
done
cat > "$TMP/q.sql" <<SQL
\set lo random(1, $ROWS - $WIDTH)
SELECT count(*) FROM ti WHERE k BETWEEN :lo AND :lo + $WIDTH - 1;
SQL
rate() {  # $1 pgbench connection args
  pgbench $1 -n -M prepared -c 1 -T "$SECONDS_PER" -f "$TMP/q.sql" 2>/dev/null |
    sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
m=$(rate "$MARGS"); p=$(rate "$PARGS")
printf '%-10s %14s %14s %8s\n' query "meridiand q/s" "postgres q/s" ratio
printf '%-10s %14s %14s %7.2fx\n' count_range "$m" "$p" "$(python3 -c "print($m / $p)")"
