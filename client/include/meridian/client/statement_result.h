// Results of Meridian statements: a materialized StatementResult, and the ResultHandler callback
// interface that receives a statement's metadata, rows and completion as chunks arrive, so that
// callers can print huge results without holding them in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meridian/client/value.h"

namespace meridian::client {

struct StatementResult {
  std::vector<ColumnInfo> columns;  // empty for statements that return no rows
  std::vector<Row> rows;
  std::string command_tag;  // "SELECT 3", "INSERT 0 1", "CREATE TABLE", ...
  uint64_t row_count = 0;   // rows returned or affected (from the server's stats)
  uint64_t elapsed_us = 0;  // server-side time
  std::vector<std::string> notices;

  bool returns_rows() const { return !columns.empty(); }
};

// Receives one request's results in order. For each statement (index counts from 0):
// OnStatementStart once, OnRow for each row, then OnStatementEnd. Notices may come at any time.
// Called on the thread that runs Execute.
class ResultHandler {
 public:
  virtual ~ResultHandler() = default;
  virtual void OnStatementStart(uint32_t statement_index, const std::vector<ColumnInfo>& columns) {
    (void)statement_index;
    (void)columns;
  }
  virtual void OnRow(uint32_t statement_index, const Row& row) {
    (void)statement_index;
    (void)row;
  }
  virtual void OnStatementEnd(uint32_t statement_index, const StatementResult& summary) {
    // summary has command_tag, row_count, elapsed_us and columns; rows is empty.
    (void)statement_index;
    (void)summary;
  }
  virtual void OnNotice(const std::string& notice) { (void)notice; }
};

}  // namespace meridian::client
