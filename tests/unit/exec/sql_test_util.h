// Test helpers: a temp data directory with an open Database, and RunSql(), which executes a SQL
// request through Session/Request/QueryCursor and returns the last statement's rows as text.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "meridian/database.h"
#include "temp_dir.h"

namespace meridian::testing {

struct SqlResult {
  Status status;                    // the first error, if any
  std::vector<std::string> rows;    // last statement's rows, values joined by '|', NULL as "NULL"
  std::vector<ColumnInfo> columns;  // last statement's columns
  std::string tag;                  // last statement's command tag
  std::string notice;               // last statement's notice
};

// Runs every statement of sql in order; stops at the first error. fetch_rows: batch size.
SqlResult RunSql(Session& session, const std::string& sql, ExecControl* ctl = nullptr,
                 size_t fetch_rows = 100);

// Waits until n statements are blocked waiting for a lock or another transaction, as
// `SELECT count(*) FROM pg_locks WHERE NOT granted` on a session of its own sees them (a
// deterministic point to act at instead of a sleep); fails the test after 10 s.
void AwaitBlockedStatements(Database& db, int n);

using testutil::TempDir;

// An expected error (not [[nodiscard]], unlike Status): accessors as Status.
struct ErrResult {
  Status status;
  const std::string& message() const { return status.message(); }
  const std::string& sqlstate() const { return status.sqlstate(); }
  uint32_t position() const { return status.position(); }
  const ErrorInfo& error() const { return status.error(); }
};

// A test fixture with an open database in a temp dir and one session.
class SqlTest : public ::testing::Test {
 protected:
  void SetUp() override { Reopen(); }
  void TearDown() override {
    session_.reset();
    if (db_ != nullptr) {
      ASSERT_TRUE(db_->Close().ok());
    }
  }
  // Closes (if open) and opens the database again with the given pool size.
  void Reopen(size_t buffer_pool_mb = 8);
  SqlResult Q(const std::string& sql) { return RunSql(*session_, sql); }
  // Expects success and returns the rows.
  std::vector<std::string> Rows(const std::string& sql);
  // Expects an error with this SQLSTATE; returns it.
  ErrResult Err(const std::string& sql, const std::string& sqlstate);
  // Entries in the data directory's tmp/ (spill files are unnamed: none should be seen).
  size_t TempFiles() const;
  // Rows in a canonical order (for answers with no promised order).
  std::vector<std::string> SortedRows(const std::string& sql);
  // Whether a line of EXPLAIN ANALYZE sql contains text.
  bool AnalyzeHas(const std::string& sql, const std::string& text);

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

}  // namespace meridian::testing
