// CREATE TABLE and DROP TABLE. DDL changes the catalog under its exclusive lock; DROP first
// takes the exclusive TableLock of every table it drops (in table-id order, polling ctl), so
// it waits for statements that are inside Fetch/Start on those tables.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

// *notice receives `relation "t" already exists, skipping` for IF NOT EXISTS.
Status ExecuteCreateTable(const ast::CreateTableStmt& stmt, catalog::Catalog* catalog,
                          std::string* notice);
// *notice receives `table "t" does not exist, skipping` lines for IF EXISTS.
Status ExecuteDropTable(const ast::DropTableStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                        std::string* notice);

}  // namespace meridian::exec
