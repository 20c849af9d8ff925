#!/usr/bin/env bash
# Runs sqllogictest files against a fresh Meridian daemon: starts MERIDIAND on a free loopback
# port with a temporary data directory, waits until it accepts connections, runs MERIDIAN_SLT
# with the remaining arguments, stops the daemon with SIGTERM and returns the runner's exit code.
#
# Usage: run_slt.sh [--skip-without DIR] MERIDIAND MERIDIAN_SLT [--] [meridian-slt options]
#                   FILE|DIR...
# --skip-without DIR: when DIR does not exist, say so and exit 77 (ctest's SKIP_RETURN_CODE),
# for files that live outside the repository (../shared/ is absent in a user's clone).
set -u

if [ "${1:-}" = "--skip-without" ]; then
  if [ ! -d "${2:-}" ]; then
    echo "run_slt.sh: SKIPPED: ${2:-} does not exist (the upstream sqllogictest files sit in" \
      "../shared/ beside the repository; a plain clone has none)"
    exit 77
  fi
  shift 2
fi

if [ $# -lt 3 ]; then
  echo "usage: $0 MERIDIAND MERIDIAN_SLT [--] [meridian-slt options] FILE|DIR..." >&2
  exit 2
fi
daemon=$1
runner=$2
shift 2
[ "${1:-}" = "--" ] && shift

for bin in "$daemon" "$runner"; do
  if [ ! -x "$bin" ]; then
    echo "run_slt.sh: $bin is not an executable" >&2
    exit 2
  fi
done

data_dir=$(mktemp -d "${TMPDIR:-/tmp}/meridian-slt.XXXXXX")
log="$data_dir.log"
pid=""

cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$data_dir"
  rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free port: bind port 0 and read back what the kernel chose.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Daemons that also serve the PostgreSQL protocol get a free port for it too, so several runs
# (ctest -j) do not collide on the default 5433.
pg_supported=0
timeout 5 "$daemon" --help 2>&1 | grep -q -- '--pg-listen' && pg_supported=1

started=0
for attempt in 1 2 3; do
  port=$(free_port)
  extra=()
  [ $pg_supported = 1 ] && extra=(--pg-listen "127.0.0.1:$(free_port)")
  "$daemon" --data-dir "$data_dir/data" --grpc-listen "127.0.0.1:$port" "${extra[@]}" \
    >"$log" 2>&1 &
  pid=$!
  # Ready when the port accepts TCP connections (up to ~30 s).
  for _ in $(seq 1 300); do
    if ! kill -0 "$pid" 2>/dev/null; then
      break
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      started=1
      break
    fi
    sleep 0.1
  done
  [ $started = 1 ] && break
  echo "run_slt.sh: daemon did not start (attempt $attempt); its log:" >&2
  cat "$log" >&2
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  pid=""
  rm -rf "$data_dir/data"
done
if [ $started != 1 ]; then
  exit 2
fi

"$runner" --host 127.0.0.1 --port "$port" --connect-retries 25 "$@"
rc=$?
if ! kill -0 "$pid" 2>/dev/null; then
  echo "run_slt.sh: the daemon exited during the run; its log:" >&2
  tail -50 "$log" >&2
fi
exit $rc
