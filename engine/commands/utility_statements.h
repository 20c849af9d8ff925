// The statements that are not queries or DML: SET / SHOW / RESET (variable.cc) and COPY
// (copy.cc), plus StartSelect, which COPY ... TO STDOUT shares with SELECT (statement.cc).
#pragma once

#include <memory>
#include <vector>

#include "catalog/catalog.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

class PlanSlot;
class SessionSettings;

// SELECT: binds, plans and returns the lazy cursor, reading txn's snapshot. own_settings keeps
// settings alive when they are not a session's (may be null). With ctl, a query that locks
// rows (FOR UPDATE) runs to completion here. plans: the prepared statement's plan cache (its
// valid plan is reused, and the plan made here goes there after the run); null: none.
Result<std::unique_ptr<QueryCursor>> StartSelect(
    const ast::SelectStmt& select, catalog::Catalog* catalog, const StatementParams& params,
    SessionSettings* settings, std::shared_ptr<SessionSettings> own_settings,
    std::shared_ptr<catalog::Transaction> txn, ExecControl* ctl = nullptr,
    const std::shared_ptr<PlanSlot>& plans = nullptr);

// SET, SHOW, RESET (stmt.kind tells which) on the session's settings.
Result<std::unique_ptr<QueryCursor>> ExecuteVariable(const ast::Statement& stmt,
                                                     SessionSettings* settings);
// SHOW's result columns: one text column named after the parameter, or name/setting/
// description for SHOW ALL.
std::vector<ColumnInfo> ShowColumns(const ast::VariableStmt& stmt);

// COPY ... FROM STDIN (a cursor whose copy_in() takes the data; its Finish runs the insert in
// the session's transaction, txn unused) or COPY ... TO STDOUT (a cursor whose rows are the
// formatted lines, read in txn's snapshot).
Result<std::unique_ptr<QueryCursor>> StartCopy(const ast::CopyStmt& stmt, catalog::Catalog* catalog,
                                               SessionSettings* settings,
                                               std::shared_ptr<SessionSettings> own_settings,
                                               std::shared_ptr<catalog::Transaction> txn);

}  // namespace meridian::exec
