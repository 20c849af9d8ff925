#!/usr/bin/env bash
# Runs sqllogictest files against a fresh Meridian daemon that the runner owns: MERIDIAN_SLT
# --daemon MERIDIAND starts it on free loopback ports with a temporary data directory (and again
# at each `restart` record), runs the files with the remaining arguments, stops it and removes
# the directory; the exit code is the runner's.
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

exec "$runner" --daemon "$daemon" --connect-retries 25 "$@"
