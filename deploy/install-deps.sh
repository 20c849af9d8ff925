#!/usr/bin/env bash
# Installs the Debian 12 packages Meridian builds and tests with, and the ANTLR 4.9 tool jar
# (matching Debian's antlr4-runtime 4.9) into build/tools. Idempotent: does nothing when all
# is present. Runs apt-get as root, through sudo otherwise.
#
# Usage: install-deps.sh [--build-only | --fuzz] [TOOLS_DIR]
#   --build-only  only what building meridiand and meridian needs (deploy/Dockerfile's build
#                 stage), none of the test tools
#   --fuzz        also libFuzzer (make fuzz, tests/fuzz); `make test` builds with gcc and uses
#                 clang only for tests/check_thread_safety.sh (-Wthread-safety, syntax only)
set -euo pipefail

build_only=0
fuzz=0
if [ "${1:-}" = "--build-only" ]; then
  build_only=1
  shift
elif [ "${1:-}" = "--fuzz" ]; then
  fuzz=1
  shift
fi

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libasio-dev libspdlog-dev libantlr4-runtime-dev libgtest-dev libedit-dev
  maven default-jre-headless
  libssl-dev            # TLS and SCRAM-SHA-256 on the PostgreSQL listener
  libpcre2-dev          # regular expressions with match limits (engine/execution/pattern_match.cc)
  libpq-dev             # tools/tpcc: meridian-tpcc's PostgreSQL driver (libpq)
)
[ "$build_only" -eq 1 ] || packages+=(
  postgresql-client-15  # psql, for the PostgreSQL wire protocol tests
  clang                 # tests/check_thread_safety.sh: -Wthread-safety over the annotated code
  python3               # tests/sql/run_slt.sh picks free ports with it
  openssl               # test certificates; deploy/docker-entrypoint.sh's SCRAM verifiers
  python3-venv          # tests/e2e/pg_clients: psycopg in build/pyenv
  postgresql-15         # pgbench (Debian ships it only with the server package)
  sysbench              # tests/e2e/pg_clients/sysbench_test.py (oltp_read_write over pgsql)
  libsqlite3-dev libdb5.3++-dev  # tests/bench/bench_access compares against SQLite and BDB
  docker-compose        # tests/e2e/deploy: `docker-compose config` validates deploy/docker-compose.yml
  libboost-dev libspatialindex-dev  # tests/bench/bench_rtree: Boost.Geometry, libspatialindex
)
[ "$fuzz" -eq 0 ] || packages+=(
  clang libclang-rt-14-dev  # make fuzz: clang++ -fsanitize=fuzzer (libFuzzer), ASan, UBSan
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The ANTLR tool must match the 4.9 runtime; Debian's antlr4 package is 4.7.2, so take the jar
# from Maven Central through Maven's own resolver.
tools_dir="${1:-build/tools}"
jar="$tools_dir/antlr4-4.9-complete.jar"
if [ ! -s "$jar" ]; then
  mkdir -p "$tools_dir"
  echo "install-deps: fetching the ANTLR 4.9 tool jar with maven"
  mvn -q dependency:copy -Dartifact=org.antlr:antlr4:4.9:jar:complete -DoutputDirectory="$tools_dir"
fi
