// Parser of SQLite sqllogictest scripts (unmodified upstream format) plus Meridian's
// `statement error <SQLSTATE>` extension. A script is a list of records separated by blank
// lines; '#' lines are comments; skipif/onlyif lines condition the record that follows.
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
  enum class Kind { kStatement, kQuery, kHashThreshold, kHalt, kUnknown };
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
  // kStatement, kQuery
  std::string sql;
  // kHashThreshold
  int hash_threshold = 0;
  // kUnknown
  std::string command;  // the record's first line
};

std::vector<SltRecord> ParseSlt(std::string_view text);

// True when the record applies to engine (case-insensitive engine names).
bool ShouldRun(const SltRecord& record, std::string_view engine);

}  // namespace meridian::slt
