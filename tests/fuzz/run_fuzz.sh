#!/usr/bin/env bash
# Runs libFuzzer harnesses built in a MERIDIAN_FUZZ build dir (make fuzz), each for SECONDS on
# its checked-in seed corpus tests/fuzz/corpus/<harness>/ plus the inputs earlier runs found
# (BUILD/fuzz/corpus/<harness>/, where new ones are written). Crash inputs go to
# BUILD/fuzz/artifacts/; the last lines of each log (BUILD/fuzz/<harness>.log) are printed.
# Exits non-zero when any harness found a crash, leak, timeout or OOM.
# Usage: tests/fuzz/run_fuzz.sh BUILD SECONDS HARNESS...
set -uo pipefail
build="$1"
seconds="$2"
shift 2
src="$(cd "$(dirname "$0")" && pwd)"
failed=0
for h in "$@"; do
  bin="$build/fuzz/$h"
  mkdir -p "$build/fuzz/corpus/$h" "$build/fuzz/artifacts" "$build/fuzz/tmp"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$build/fuzz/artifacts/$h-")
  case "$h" in
    # LeakSanitizer would scan the heap after every input that keeps memory (caches): 10x slower.
    fuzz_sql) args+=(-max_len=4096 -dict="$src/fuzz_sql.dict" -detect_leaks=0) ;;
    fuzz_storage) args+=(-max_len=8300) ;;
    # The in-process gRPC server's threads allocate while an input runs: leak checks misfire.
    fuzz_grpc) args+=(-max_len=4096 -dict="$src/fuzz_sql.dict" -detect_leaks=0) ;;
    *) args+=(-max_len=4096) ;;
  esac
  echo "== $h: ${seconds}s"
  start=$(date +%s)
  UBSAN_OPTIONS=print_stacktrace=1 TMPDIR="$build/fuzz/tmp" nice "$bin" "${args[@]}" "$build/fuzz/corpus/$h" "$src/corpus/$h" \
    > "$build/fuzz/$h.log" 2>&1
  rc=$?
  grep -aE "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$build/fuzz/$h.log" | tail -4
  echo "   corpus: $(ls "$build/fuzz/corpus/$h" | wc -l) new files; wall $(( $(date +%s) - start ))s; exit $rc"
  if [ "$rc" -ne 0 ]; then
    failed=1
    grep -aE "ERROR: (AddressSanitizer|libFuzzer)|runtime error|invariant broken|SUMMARY" \
      "$build/fuzz/$h.log" | head -5
    ls -t "$build/fuzz/artifacts/" | head -3
  fi
done
rm -rf "$build/fuzz/tmp"
exit $failed
