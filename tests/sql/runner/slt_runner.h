// Runs parsed sqllogictest records against an SltExecutor (a Meridian session in the real
// runner, a fake in unit tests) and counts passed / failed / skipped records.
#pragma once

#include <chrono>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "meridian/client/connection.h"
#include "runner/slt_parser.h"

namespace meridian::slt {

class SltExecutor {
 public:
  virtual ~SltExecutor() = default;
  // Runs sql (one statement); the result of its last statement.
  virtual client::ClientResult<client::StatementResult> Execute(const std::string& sql) = 0;
};

// Executes on a Meridian connection with a per-statement deadline.
class ConnectionExecutor : public SltExecutor {
 public:
  ConnectionExecutor(client::Connection& connection, std::chrono::milliseconds timeout)
      : connection_(connection), timeout_(timeout) {}
  client::ClientResult<client::StatementResult> Execute(const std::string& sql) override;

 private:
  client::Connection& connection_;
  std::chrono::milliseconds timeout_;
};

struct SltRunOptions {
  std::string engine = "postgresql";  // for skipif/onlyif
  bool verbose = false;               // print every failure with SQL, expected and got
  int max_brief_failures = 10;        // without verbose: one line each for the first N
};

struct SltFileResult {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  bool connection_lost = false;
};

SltFileResult RunSltRecords(const std::vector<SltRecord>& records, SltExecutor& executor,
                            const SltRunOptions& options, const std::string& file_name,
                            std::ostream& log);

}  // namespace meridian::slt
