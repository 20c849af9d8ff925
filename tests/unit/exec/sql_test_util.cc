// Test helpers for exec_test (see sql_test_util.h).
#include "sql_test_util.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

namespace meridian::testing {

SqlResult RunSql(Session& session, const std::string& sql, ExecControl* ctl, size_t fetch_rows) {
  SqlResult result;
  ExecControl local;
  if (ctl == nullptr) ctl = &local;
  auto request = session.Parse(sql);
  if (!request.ok()) {
    result.status = request.status();
    return result;
  }
  for (size_t i = 0; i < (*request)->size(); ++i) {
    auto cursor = (*request)->Start(i, *ctl);
    if (!cursor.ok()) {
      result.status = cursor.status();
      return result;
    }
    result.rows.clear();
    result.columns = (*cursor)->columns();
    std::vector<Row> batch;
    while (true) {
      batch.clear();
      auto more = (*cursor)->Fetch(fetch_rows, 1 << 20, *ctl, &batch);
      if (!more.ok()) {
        result.status = more.status();
        return result;
      }
      for (const Row& row : batch) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
          if (c > 0) line += "|";
          line += row[c].IsNull() ? "NULL" : row[c].ToString();
        }
        result.rows.push_back(line);
      }
      if (!*more) break;
    }
    result.tag = (*cursor)->CommandTag();
    result.notice = (*cursor)->Notice();
  }
  return result;
}

void SqlTest::Reopen(size_t buffer_pool_mb) {
  session_.reset();
  if (db_ != nullptr) {
    ASSERT_TRUE(db_->Close().ok());
    db_.reset();
  }
  DatabaseOptions options;
  options.data_dir = dir_.path() + "/data";
  options.buffer_pool_mb = buffer_pool_mb;
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  db_ = std::move(db).value();
  session_ = db_->NewSession();
}

std::vector<std::string> SqlTest::Rows(const std::string& sql) {
  SqlResult r = Q(sql);
  EXPECT_TRUE(r.status.ok()) << sql << " -> " << r.status.ToString();
  return r.rows;
}

std::vector<std::string> SqlTest::SortedRows(const std::string& sql) {
  std::vector<std::string> rows = Rows(sql);
  std::sort(rows.begin(), rows.end());
  return rows;
}

bool SqlTest::AnalyzeHas(const std::string& sql, const std::string& text) {
  for (const std::string& line : Rows("EXPLAIN ANALYZE " + sql)) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

ErrResult SqlTest::Err(const std::string& sql, const std::string& sqlstate) {
  SqlResult r = Q(sql);
  EXPECT_FALSE(r.status.ok()) << sql << " unexpectedly succeeded";
  if (r.status.ok()) return ErrResult{Status::Internal("no error")};
  EXPECT_EQ(r.status.sqlstate(), sqlstate) << sql << " -> " << r.status.ToString();
  return ErrResult{r.status};
}

void AwaitBlockedStatements(Database& db, int n) {
  std::unique_ptr<Session> monitor = db.NewSession();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    SqlResult r = RunSql(*monitor, "SELECT count(*) FROM pg_locks WHERE NOT granted");
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    if (r.rows == std::vector<std::string>{std::to_string(n)}) return;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "blocked statements: " << r.rows[0];
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

size_t SqlTest::TempFiles() const {
  const std::filesystem::path tmp = dir_.path() + "/tmp";
  if (!std::filesystem::exists(tmp)) return 0;
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(tmp),
                                           std::filesystem::directory_iterator()));
}

}  // namespace meridian::testing
