// Entry point of exec/ for the Database API: binds, plans and starts one parsed statement and
// returns its QueryCursor. SELECT runs lazily in Fetch, holding its tables' shared locks only
// during each Fetch call (so a slow client never blocks writers; a consequence until MVCC is
// that a result spanning several Fetch calls may see writes committed between them). INSERT,
// UPDATE, DELETE and DDL complete inside StartStatement under their locks.
#pragma once

#include <memory>

#include "catalog/catalog.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

Result<std::unique_ptr<QueryCursor>> StartStatement(const ast::Statement& stmt,
                                                    catalog::Catalog* catalog, ExecControl& ctl);

}  // namespace meridian::exec
