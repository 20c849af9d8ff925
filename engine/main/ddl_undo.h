// DdlUndo: PostgreSQL's transactional DDL for the statements that create or alter, inside a
// transaction block. Before such a statement runs, NoteBeforeDdl records what its undo needs
// (whether the name existed, the table's schema and index names); when it succeeded inside a
// block, MakeDdlUndo returns the action that reverses it, which TransactionBlock runs (last
// first) when the block rolls back or a ROLLBACK TO goes back past it:
//   CREATE TABLE [AS], CREATE VIEW, CREATE SEQUENCE   → drop what was created
//   CREATE INDEX                                       → drop the new index
//   CREATE SCHEMA                                      → drop it (CASCADE)
//   ALTER SCHEMA a RENAME TO b                         → rename it back
//   ALTER TABLE (no index dropped)                     → new indexes dropped, schema restored
// Not undone (they take effect at once, documented in docs/sql.md): DROP (DROP SCHEMA too),
// TRUNCATE, CREATE OR
// REPLACE VIEW of an existing view, ALTER TABLE that drops an index, ALTER SEQUENCE. Other
// sessions see created objects before COMMIT, and a crash keeps them (no catalog MVCC).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

using DdlUndo = std::function<void(catalog::Catalog*)>;

struct DdlBefore {
  bool existed = false;                    // CREATE: the name was taken already
  std::shared_ptr<catalog::Table> table;   // ALTER TABLE, CREATE INDEX: the table
  catalog::TableSchema schema;             // ALTER TABLE: its schema before
  std::vector<std::string> index_names;    // its indexes before
};

DdlBefore NoteBeforeDdl(const ast::Statement& stmt, catalog::Catalog* catalog);
// Null when stmt is not undone (see above).
DdlUndo MakeDdlUndo(const ast::Statement& stmt, const DdlBefore& before, catalog::Catalog* catalog);

}  // namespace meridian::exec
