// meridian-tpcc: load, run and check TPC-C against Meridian (gRPC or PostgreSQL protocol) or
// PostgreSQL. Exit codes: 0 success; 1 a consistency condition failed or the run had errors;
// 2 a bad command line, a failed connection or a failed load.
#include <cstdio>
#include <string>

#include "check.h"
#include "load.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "statement_bench.h"

namespace {

int RunAndReport(const tpcc::Options& options) {
  tpcc::RunSummary summary = tpcc::Run(options);
  tpcc::PrintSummary(summary);
  if (!options.json_path.empty() && !tpcc::WriteJson(summary, options.json_path)) return 2;
  if (!options.compare_path.empty()) (void)tpcc::PrintComparison(summary, options.compare_path);
  return summary.Errors() > 0 ? 1 : 0;
}

int Main(const tpcc::Options& options) {
  if (options.command == "load") {
    tpcc::Load(options);
    return 0;
  }
  if (options.command == "run") return RunAndReport(options);
  if (options.command == "statements") return tpcc::RunStatementBench(options) == 0 ? 0 : 1;
  if (options.command == "check") {
    auto session = tpcc::Connect(options.conn);
    return tpcc::CheckConsistency(*session) == 0 ? 0 : 1;
  }
  // all: load unless the database already holds exactly W warehouses, run, check.
  {
    auto session = tpcc::Connect(options.conn);
    int64_t have = tpcc::CountWarehouses(*session);
    if (have != options.warehouses) {
      std::printf("all: the database holds %s; loading %d warehouse(s)\n",
                  have < 0 ? "no TPC-C tables" : (std::to_string(have) + " warehouse(s)").c_str(),
                  options.warehouses);
      tpcc::Load(options);
    } else {
      std::printf("all: %d warehouse(s) already loaded\n", options.warehouses);
    }
  }
  int run_status = RunAndReport(options);
  std::printf("\n");
  auto session = tpcc::Connect(options.conn);
  int failed = tpcc::CheckConsistency(*session);
  std::printf("\nall: %s\n", failed == 0 && run_status == 0
                                 ? "done: the run had no errors and every condition holds"
                                 : failed != 0 ? "FAILED: consistency conditions do not hold"
                                               : "done with errors during the run (see above)");
  return failed != 0 ? 1 : run_status;
}

}  // namespace

int main(int argc, char** argv) {
  tpcc::Options options;
  std::string error;
  if (!tpcc::ParseOptions(argc, argv, &options, &error)) {
    std::fprintf(stderr, "meridian-tpcc: %s\n\n%s", error.c_str(), tpcc::Usage().c_str());
    return 2;
  }
  if (options.command == "help") {
    std::printf("%s", tpcc::Usage().c_str());
    return 0;
  }
  try {
    return Main(options);
  } catch (const tpcc::DbError& e) {
    std::fprintf(stderr, "meridian-tpcc: %s: %s %s\n", options.conn.Describe().c_str(),
                 e.sqlstate().c_str(), e.what());
    return 2;
  }
}
