// Parser of SQLite sqllogictest scripts (unmodified upstream format) plus Meridian's extensions
// (tests/sql/README.md): `statement error <SQLSTATE>`, `connection NAME`, `... async` and
// `wait NAME`, `restart [kill]` and `query plan`. A script is a list of records separated by
// blank lines; '#' lines are comments; skipif/onlyif lines condition the record that follows;
// `connection NAME` is one line and may be followed directly by the record it applies to.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace meridian::slt {

enum class SortMode { kNoSort, kRowSort, kValueSort };

struct SltCondition {
  bool only_if = false;  // onlyif ENGINE (else skipif ENGINE)
  std::string engine;
};

struct SltRecord {
  enum class Kind {
    kStatement,
    kQuery,
    kHashThreshold,
    kHalt,
    kConnection,  // connection NAME: later records run on session NAME
    kWait,        // wait NAME: collect and check the async record running on session NAME
    kRestart,     // restart [kill]: stop (or SIGKILL) the daemon, start it, reconnect
    kUnknown
  };
  Kind kind = Kind::kUnknown;
  int line = 0;  // 1-based line of the record's command
  std::vector<SltCondition> conditions;

  // kStatement
  bool expect_error = false;
  std::string expected_sqlstate;  // Meridian extension: "statement error 22012"
  // kQuery
  std::string types;  // one of I, R, T per column
  SortMode sort = SortMode::kNoSort;
  std::string label;
  bool has_expected = false;          // a "----" section was present
  std::vector<std::string> expected;  // lines after "----"
  bool plan = false;  // query plan: compare EXPLAIN (COSTS OFF) sql's lines with expected
  // kStatement, kQuery
  std::string sql;
  bool async = false;  // trailing `async`: starts, must block on a lock, checked at `wait`
  // kConnection, kWait
  std::string connection;
  // kRestart
  bool kill = false;
  // kHashThreshold
  int hash_threshold = 0;
  // kUnknown
  std::string command;  // the record's first line
};

std::vector<SltRecord> ParseSlt(std::string_view text);

// True when the record applies to engine (case-insensitive engine names).
bool ShouldRun(const SltRecord& record, std::string_view engine);

}  // namespace meridian::slt
