# One-word entry points over CMake. `make run` and `make test` are all a newcomer needs.
#   make run        install deps, build Release, start build/bin/meridiand (data dir ./data)
#   make test       install deps, build, run every test through ctest
#   make debug      ASan+UBSan build in build-debug/ and its tests (same as make test SANITIZE=1)
#   make format     clang-format every C++ file
#   make tidy       clang-tidy (.clang-tidy) over Meridian's own sources
#   make bench      Release build, then bench_access and bench_point_query (tests/bench; minutes)
#   make bench-commit  commit throughput / bytes per commit vs PostgreSQL 15, recovery time
#   make bench-pgbench pgbench select-only and tpcb-like vs PostgreSQL 15
#   make bench-joinagg hash join, GROUP BY and scans of 1M rows vs PostgreSQL 15
#   make bench-rtree   R*-tree vs Boost.Geometry, libspatialindex, SQLite R*Tree (5M 5-D points)
#   make bench-hostile hostile statements (regex, LIKE, huge IN, big sorts) vs PostgreSQL 15
#   make bench-tpcc    meridian-tpcc: Meridian over gRPC and pg vs PostgreSQL 15 (1 warehouse)
#   make bench-statements  latency and plan of every TPC-C kit's statement shape, prepared, vs
#                   PostgreSQL 15 (1 warehouse; WAREHOUSES=10 for the full run)
#   make fuzz       libFuzzer harnesses (clang, ASan+UBSan) in build-fuzz/, FUZZ_SECONDS each
#                   (default 600; FUZZ_SECONDS=60 is the smoke run); tests/fuzz/README.md
#   make soak       thousands of simulated crashes, 20 SIGKILL rounds of the bank workload and
#                   30 of DDL and a million-row COPY (tens of minutes)
JOBS ?= 2
SANITIZE ?= 0

ifeq ($(SANITIZE),1)
BUILD_DIR ?= build-sanitize
BUILD_TYPE ?= Debug
CMAKE_EXTRA = -DMERIDIAN_SANITIZE=ON
else
BUILD_DIR ?= build
BUILD_TYPE ?= Release
CMAKE_EXTRA =
endif

CMAKE_LAUNCHER := $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# ccache hits across checkouts in different directories (a fresh clone rebuilds from cache).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true

.PHONY: all deps configure build run test debug format tidy bench bench-commit bench-pgbench bench-joinagg bench-rtree bench-hostile bench-tpcc bench-statements soak fuzz clean

all: build

deps:
	@deploy/install-deps.sh build/tools

$(BUILD_DIR)/build.ninja: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DANTLR_JAR=$(CURDIR)/build/tools/antlr4-4.9-complete.jar $(CMAKE_LAUNCHER) $(CMAKE_EXTRA)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Only the binaries: a newcomer's first `make run` does not wait for the test suite to compile.
run: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target meridiand meridian
	$(BUILD_DIR)/bin/meridiand --data-dir ./data

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 600

debug:
	$(MAKE) test SANITIZE=1

# The access-method benchmark at full size (N = 5,000,000), then the full-stack point-query and
# larger-than-memory benchmark (N = 1,000,000; tests/bench/RESULTS.md). Always a Release build
# in build/, whatever SANITIZE says.
bench:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target bench_access bench_point_query
	build/bin/bench_access
	build/bin/bench_point_query

# Commit throughput (1, 16, 256 sessions; sync and async) and bytes per commit against
# PostgreSQL 15, footprint under updates, recovery time for 100 MB and 1 GB (RESULTS.md).
bench-commit:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand
	python3 tests/bench/commit/bench_commit.py --meridiand build/bin/meridiand

# The QuickDB paper's R-tree table: 5,000,000 5-D points inserted one by one, box queries with
# ~1, ~300 and ~45,000 results, Meridian's R*-tree (pool holding the index, and 20% of it)
# against Boost.Geometry, libspatialindex and SQLite's R*Tree (tests/bench/RESULTS.md).
bench-rtree:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target bench_rtree
	build/bin/bench_rtree

# pgbench's select-only and tpcb-like (1, 16, 64 clients; simple and prepared) against
# PostgreSQL 15 on the same data and durability (RESULTS.md).
bench-pgbench:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand
	python3 tests/bench/pgbench/bench_pgbench.py --meridiand build/bin/meridiand

# Hash join, GROUP BY and full scans of 1,048,576 rows against PostgreSQL 15
# (max_parallel_workers_per_gather = 0), median of 5 runs each (RESULTS.md).
bench-joinagg:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand
	python3 tests/bench/joinagg/bench_join_agg.py --meridiand build/bin/meridiand

# Issue 14's hostile statements (catastrophic regular expressions, LIKE with thousands of %,
# IN lists of millions of literals, GROUP BY / ORDER BY of 5M rows) against PostgreSQL 15:
# outcome, time, peak and remaining resident memory (RESULTS.md).
bench-hostile:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand
	python3 tests/bench/robustness/bench_hostile.py --meridiand build/bin/meridiand

# TPC-C with meridian-tpcc (tools/tpcc): 1 warehouse, 4 terminals, 60 s each for Meridian over
# gRPC, over the PostgreSQL protocol and PostgreSQL 15, synchronous commit, checks after each.
bench-tpcc:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand meridian-tpcc
	python3 tests/bench/tpcc/bench_tpcc.py --meridiand build/bin/meridiand \
	  --tpcc build/bin/meridian-tpcc

# Each TPC-C kit statement shape (BenchmarkSQL, py-tpcc, sysbench-tpcc, HammerDB, the
# consistency checks) prepared and timed alone on Meridian and PostgreSQL 15: median, p95,
# ratio and both plans (tests/bench/statements/README.md).
WAREHOUSES ?= 1
bench-statements:
	$(MAKE) configure SANITIZE=0
	cmake --build build -j $(JOBS) --target meridiand meridian-tpcc
	python3 tests/bench/statements/bench_statements.py --meridiand build/bin/meridiand \
	  --tpcc build/bin/meridian-tpcc --warehouses $(WAREHOUSES)

# Long runs: thousands of simulated power cuts, 20 SIGKILL rounds of the bank workload and 30
# kill -9 rounds during DDL and COPY against the real daemon, then 10,000 idle + 1,000 active
# PostgreSQL-protocol sessions for SOAK_SECONDS with flat memory and no error
# (tests/e2e/txn/soak_sessions_test.py; it raises the open file limit to the hard one).
SOAK_SECONDS ?= 600
soak: build
	MERIDIAN_CRASH_ITERATIONS=3000 $(BUILD_DIR)/tests/recovery_test
	MERIDIAN_BANK_ROUNDS=20 MERIDIAND=$(BUILD_DIR)/bin/meridiand \
	  $(BUILD_DIR)/pyenv/bin/python tests/e2e/txn/bank_crash_test.py
	MERIDIAN_DDL_CRASH_ROUNDS=30 MERIDIAN_DDL_CRASH_COPY_ROWS=1000000 \
	  MERIDIAND=$(BUILD_DIR)/bin/meridiand \
	  $(BUILD_DIR)/pyenv/bin/python tests/e2e/txn/ddl_crash_test.py
	MERIDIAN_SOAK_IDLE=10000 MERIDIAN_SOAK_ACTIVE=1000 MERIDIAN_SOAK_SECONDS=$(SOAK_SECONDS) \
	  MERIDIAND=$(BUILD_DIR)/bin/meridiand \
	  $(BUILD_DIR)/pyenv/bin/python tests/e2e/txn/soak_sessions_test.py

# libFuzzer harnesses (tests/fuzz): a clang build with coverage, ASan and UBSan in build-fuzz/
# (its own configure, ccache-friendly), then each harness for FUZZ_SECONDS on its corpus in
# tests/fuzz/corpus/<harness>/ (new inputs go to build-fuzz/fuzz/corpus/<harness>/, crashes to
# build-fuzz/fuzz/artifacts/). Not part of `make test`: the clang engine build takes long.
FUZZ_SECONDS ?= 600
FUZZ_HARNESSES ?= fuzz_sql fuzz_pgwire fuzz_storage fuzz_grpc
fuzz: deps
	@deploy/install-deps.sh --fuzz build/tools
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DMERIDIAN_FUZZ=ON -DMERIDIAN_WERROR=OFF \
	  -DANTLR_JAR=$(CURDIR)/build/tools/antlr4-4.9-complete.jar $(CMAKE_LAUNCHER)
	cmake --build build-fuzz -j $(JOBS) --target $(FUZZ_HARNESSES)
	tests/fuzz/run_fuzz.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

format:
	git ls-files '*.cc' '*.h' | xargs clang-format -i

tidy: configure
	git ls-files 'engine/*.cc' 'server/*.cc' 'client/*.cc' 'parser/src/*.cc' | \
	  xargs clang-tidy -p $(BUILD_DIR) --quiet

clean:
	rm -rf build-sanitize build-fuzz build/bin build/CMakeFiles build/build.ninja
