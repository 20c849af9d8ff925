// Acceptance corpus: every SQL statement in the upstream SQLite sqllogictest files select1-3.test
// must parse without a syntax error. SQL is the text after a `statement ...` or `query ...` line
// up to a blank line or `----`. The files sit in ../shared/ beside the repository: when that
// folder is absent (a user's clone) the cases skip and say so; a file missing from a present
// folder is a failure. MERIDIAN_CONFORMANCE_DIR in the environment overrides the folder.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

std::vector<std::string> ReadSqlRecords(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> records;
  if (!in) return records;
  std::string line;
  std::string current;
  bool in_sql = false;
  auto flush = [&] {
    if (in_sql && !current.empty()) records.push_back(current);
    current.clear();
    in_sql = false;
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!in_sql) {
      if (line.rfind("statement ", 0) == 0 || line.rfind("query ", 0) == 0) in_sql = true;
      continue;
    }
    if (line.empty() || line == "----") {
      flush();
      continue;
    }
    current += current.empty() ? line : "\n" + line;
  }
  flush();
  return records;
}

class ConformanceCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(ConformanceCorpus, EveryStatementParses) {
  const char* env = std::getenv("MERIDIAN_CONFORMANCE_DIR");
  std::string dir = env != nullptr ? env : MERIDIAN_CONFORMANCE_DIR;
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "no sqllogictest conformance files at " << dir
                 << " (they live in ../shared/ beside the repository, absent in a plain clone)";
  }
  std::string path = dir + "/" + GetParam();
  std::vector<std::string> records = ReadSqlRecords(path);
  ASSERT_FALSE(records.empty()) << "missing or empty sqllogictest file: " << path;
  size_t failures = 0;
  for (const std::string& sql : records) {
    auto r = Parse(sql);
    if (!r.ok()) {
      if (++failures <= 10)
        ADD_FAILURE() << r.status().ToString() << " at " << r.status().position() << "\n" << sql;
      continue;
    }
    EXPECT_EQ(r->size(), 1u) << sql;
  }
  EXPECT_EQ(failures, 0u) << "of " << records.size() << " statements in " << path;
  std::cout << "[ parsed   ] " << records.size() << " statements from " << GetParam() << "\n";
}

INSTANTIATE_TEST_SUITE_P(SqlLogicTest, ConformanceCorpus,
                         ::testing::Values("select1.test", "select2.test", "select3.test"));

}  // namespace
}  // namespace meridian::parser::testing
