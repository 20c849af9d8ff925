#!/usr/bin/env bash
# Clang's thread-safety analysis over the engine's and the server's sources: each .cc file is
# compiled syntax-only (no code generated, no second build) with the flags CMake recorded in
# BUILD_DIR/compile_commands.json and `-Wthread-safety -Werror=thread-safety`, so a member
# marked GUARDED_BY (engine/include/meridian/thread_annotations.h) touched without its mutex,
# or a REQUIRES function called without it, fails here. First a file that breaks those rules on
# purpose must fail, so annotations that expand to nothing cannot pass unnoticed.
# Usage: check_thread_safety.sh [BUILD_DIR]  (default build; clang++ from Debian's clang)
set -u
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
clang="${CLANG:-clang++}"
jobs="${JOBS:-$(nproc)}"
if ! command -v "$clang" >/dev/null 2>&1; then
  echo "check_thread_safety: $clang not found (deploy/install-deps.sh installs clang)"
  echo "thread-safety: 0 passed, 1 failed"
  exit 1
fi
db="$build_dir/compile_commands.json"
if [ ! -s "$db" ]; then
  echo "check_thread_safety: $db missing (CMAKE_EXPORT_COMPILE_COMMANDS is on in CMakeLists.txt)"
  echo "thread-safety: 0 passed, 1 failed"
  exit 1
fi
root=$(pwd)
# The folders whose classes carry annotations: a GUARDED_BY member is private, so only its own
# class's files (and the inline functions of its header, compiled with them) can touch it.
FOLDERS="engine/storage engine/txn engine/catalog engine/main engine/database server"
# pgwire/ uses asio's C++20 coroutines, which Debian 12's clang 14 cannot compile against
# libstdc++ 12's <coroutine>, so it is left out (it holds no annotations yet).
SKIPPED="server/pgwire"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# One line per source: the file, a tab, then its include paths, definitions and -std flag.
python3 - "$db" "$root" "$FOLDERS" "$SKIPPED" >"$list" <<'PY'
import json, os, shlex, sys
db, root = sys.argv[1], os.path.realpath(sys.argv[2])
folders = tuple(f + "/" for f in sys.argv[3].split())
skipped = tuple(f + "/" for f in sys.argv[4].split())
seen = set()
for entry in json.load(open(db)):
    path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    rel = path[len(root) + 1:] if path.startswith(root + "/") else None
    if rel is None or not rel.endswith(".cc") or rel in seen:
        continue
    if not rel.startswith(folders) or rel.startswith(skipped):
        continue
    seen.add(rel)
    args = entry.get("arguments") or shlex.split(entry["command"])
    keep, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-I", "-isystem", "-D", "-include"):
            keep += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith(("-I", "-D", "-isystem", "-std=")):
            keep.append(a)
        i += 1
    print(path + "\t" + " ".join(shlex.quote(k) for k in keep))
PY
flags=(-fsyntax-only -Wno-everything -Wthread-safety -Werror=thread-safety)

# The rules must bite: this file breaks them and must not compile.
bad=$("$clang" -std=c++20 -Iengine/include "${flags[@]}" tests/check_thread_safety_must_fail.cc 2>&1)
if [ "$(grep -c 'Wthread-safety-analysis' <<<"$bad")" -lt 3 ]; then
  echo "$bad"
  echo "check_thread_safety: tests/check_thread_safety_must_fail.cc did not fail its 3 rules"
  echo "thread-safety: 0 passed, 1 failed"
  exit 1
fi

export clang
export flags_str="${flags[*]}"
out=$(mktemp -d)
trap 'rm -rf "$list" "$out"' EXIT
# Each job writes its diagnostics to its own file; a file's name is its source's line number.
nl -ba -w1 -s$'\t' "$list" | xargs -P "$jobs" -d '\n' -n 1 bash -c '
  IFS=$'"'"'\t'"'"' read -r n file args <<<"$1"
  eval "set -- $args"
  if ! "$clang" $flags_str "$@" "$file" >"'"$out"'/$n.log" 2>&1; then echo "$file" >"'"$out"'/$n.fail"; fi
' _
total=$(wc -l <"$list")
failed=$(find "$out" -name '*.fail' | wc -l)
for f in "$out"/*.fail; do
  [ -e "$f" ] || continue
  cat "${f%.fail}.log"
done
echo "thread-safety: $((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
