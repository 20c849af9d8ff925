// Entry point of exec/ for the Database API: binds, plans and starts one parsed statement and
// returns its QueryCursor, inside the session's transaction block (transaction_block.h).
// SELECT runs lazily in Fetch over its snapshot, holding its tables' shared locks only during
// each Fetch call (only DDL waits for them). INSERT, UPDATE, DELETE and DDL complete inside
// StartStatement.
#pragma once

#include <memory>
#include <vector>

#include "catalog/catalog.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

class PlanSlot;
class SessionSettings;

// params: values (and declared types) of $1..$n; their conversion errors (22P02, 22003) and a
// $n beyond the values (42P02) fail the start. settings: the session's run-time parameters
// (SET/SHOW, current_setting, ...); null gives a fresh default set for this statement.
// plans: a prepared statement's plan cache (plan_cache.h; a SELECT reuses its plan), or null.
Result<std::unique_ptr<QueryCursor>> StartStatement(
    const ast::Statement& stmt, catalog::Catalog* catalog, ExecControl& ctl,
    const StatementParams& params, SessionSettings* settings = nullptr,
    const std::shared_ptr<PlanSlot>& plans = nullptr);

// Binds stmt without running it: its parameter types (declared ones kept, the rest inferred)
// and result columns. settings: the session's (EXECUTE looks up its prepared statement there);
// null describes EXECUTE as 26000.
Result<StatementDescription> DescribeStatement(const ast::Statement& stmt,
                                               catalog::Catalog* catalog,
                                               const std::vector<Type>& param_types,
                                               SessionSettings* settings = nullptr);

}  // namespace meridian::exec
