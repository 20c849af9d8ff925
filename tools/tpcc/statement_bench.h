// `meridian-tpcc statements`: the latency of each statement shape that common TPC-C kits send
// (BenchmarkSQL, py-tpcc, sysbench-tpcc, HammerDB, this tool), one at a time on an already
// loaded database. Each statement is prepared once and executed N times with varying
// parameters, every execution alone in BEGIN ... ROLLBACK (only the statement is timed, the
// data stay as loaded); then the plan (EXPLAIN with the first execution's parameters). Driven
// by tests/bench/statements/bench_statements.py, which runs it against Meridian and
// PostgreSQL 15 and prints the ratios.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "random.h"

namespace tpcc {

// One statement shape: its name, the kits that send it, its SQL ($1..$n) and a generator of
// text parameters for W warehouses.
struct BenchStatement {
  std::string name;
  std::string kit;
  std::string sql;
  std::vector<std::string> (*params)(Random& rnd, int warehouses);
};

// Every statement shape, transactions first, then the consistency checks of clause 3.3.2.
const std::vector<BenchStatement>& BenchStatements();

// What one statement measured on one server.
struct StatementResult {
  std::string name;
  int executions = 0;        // timed executions
  double median_us = 0;
  double p95_us = 0;
  double max_us = 0;
  long long rows = -1;       // rows returned (or affected) by the first execution
  std::string error;         // "SQLSTATE message" of the first failure; empty when none
  bool timed_out = false;    // statement_timeout (57014) ended an execution
  std::string plan;          // EXPLAIN's text, lines joined by '\n'
};

// Runs every statement whose name contains options.statement_filter (all when empty) and
// prints one line each; writes --json when given. Returns the number of statements that
// failed with an error other than a statement timeout.
int RunStatementBench(const Options& options);

}  // namespace tpcc
