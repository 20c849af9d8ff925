// Prepared statements: one session's named prepared statements — PostgreSQL's single namespace
// shared by SQL PREPARE and the extended protocol's Parse with a statement name — and the SQL
// statements over it: PREPARE (bind and describe now, store), EXECUTE (evaluate the arguments,
// then start the stored statement through StartStatement with them as $1..$n) and DEALLOCATE.
// The namespace is owned by the session's SessionSettings and used by one request at a time.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "main/plan_cache.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::exec {

class SessionSettings;

// One stored statement; immutable, so an EXECUTE or a protocol portal running it keeps it alive
// (and valid) after DEALLOCATE.
struct PreparedStatement {
  std::shared_ptr<const ast::Statement> statement;  // null: the protocol prepared empty text
  std::vector<Type> param_types;                    // $1..$n: declared, else inferred
  std::vector<ColumnInfo> columns;                  // empty when it returns no rows
  bool from_sql = false;                            // PREPARE (else the protocol's Parse)
  std::shared_ptr<PlanSlot> plans = std::make_shared<PlanSlot>();  // its plan cache
};

class PreparedStatements {
 public:
  // Stores stmt under name: 42P05 `prepared statement "x" already exists` when taken.
  Status Add(const std::string& name, std::shared_ptr<const PreparedStatement> stmt);
  // The statement called name, or null.
  std::shared_ptr<const PreparedStatement> Find(const std::string& name) const;
  // Drops name; false when there was none.
  bool Remove(const std::string& name);
  // DEALLOCATE ALL (SQL-prepared and protocol statements alike, as in PostgreSQL).
  void Clear() { by_name_.clear(); }
  size_t size() const { return by_name_.size(); }

  // How deeply EXECUTEs are nested right now (a protocol statement may itself be an EXECUTE).
  int& execute_depth() { return execute_depth_; }

 private:
  std::map<std::string, std::shared_ptr<const PreparedStatement>> by_name_;
  int execute_depth_ = 0;
};

// Binds stmt without running it (DescribeStatement) with the declared parameter types and
// returns what a prepared statement keeps: the statement, final parameter types, columns.
Result<std::shared_ptr<PreparedStatement>> DescribePrepared(
    std::shared_ptr<const ast::Statement> stmt, catalog::Catalog* catalog,
    const std::vector<Type>& declared, SessionSettings* settings);

// A prepared statement started again returns the columns it was prepared with, or fails with
// PostgreSQL's 0A000 "cached plan must not change result type" (an ALTER TABLE changed a table
// it reads: SELECT * gained or lost a column, a column was renamed). The statement is bound
// again at every start after a schema change (a cached plan is reused only while the schema
// is the one it was bound at, plan_cache.h), so it never reads a column by a stale position.
// On a mismatch the cursor is dropped (its transaction ends) and an open transaction block
// fails.
Result<std::unique_ptr<QueryCursor>> CheckCachedResult(const std::vector<ColumnInfo>& prepared,
                                                       Result<std::unique_ptr<QueryCursor>> cursor,
                                                       SessionSettings* settings);

// PREPARE, EXECUTE and DEALLOCATE are run by StartPreparedCommand before (and, for EXECUTE,
// around) any transaction handling.
inline bool IsPreparedCommand(ast::StatementKind kind) {
  return kind == ast::StatementKind::kPrepare || kind == ast::StatementKind::kExecute ||
         kind == ast::StatementKind::kDeallocate;
}

// Runs PREPARE / EXECUTE / DEALLOCATE on settings' namespace. In a failed transaction block
// each is 25P02; any error inside a block fails the block. EXECUTE returns the prepared
// statement's cursor (its command tag: SELECT n, INSERT 0 n, ...); PREPARE and DEALLOCATE a
// finished cursor tagged PREPARE, DEALLOCATE or DEALLOCATE ALL. EXECUTE's arguments cannot use
// the request's own parameters (`EXECUTE p($1)` is 42P02, as in PostgreSQL).
Result<std::unique_ptr<QueryCursor>> StartPreparedCommand(const ast::Statement& stmt,
                                                          catalog::Catalog* catalog,
                                                          ExecControl& ctl,
                                                          SessionSettings* settings);

// Describes EXECUTE as PostgreSQL's Describe does: the prepared statement's columns (the
// arguments are checked when it runs); parameters only as declared. 26000 when the statement
// does not exist (or settings is null).
Result<StatementDescription> DescribeExecute(const ast::ExecuteStmt& stmt,
                                             const std::vector<Type>& param_types,
                                             SessionSettings* settings);

}  // namespace meridian::exec
