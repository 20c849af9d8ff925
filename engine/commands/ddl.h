// CREATE TABLE, DROP TABLE, CREATE INDEX, DROP INDEX and ANALYZE. DDL changes the catalog under its
// exclusive lock; DROP first takes the exclusive TableLock of every table it drops (in table-id
// order, polling ctl), so it waits for statements that are inside Fetch/Start on those tables.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "meridian/database.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

class SessionSettings;

// *notice receives `relation "t" already exists, skipping` for IF NOT EXISTS.
Status ExecuteCreateTable(const ast::CreateTableStmt& stmt, catalog::Catalog* catalog,
                          std::string* notice);
// *notice receives `table "t" does not exist, skipping` lines for IF EXISTS. A view is 42809;
// views reading a table are 2BP01 unless CASCADE (then they are dropped first).
Status ExecuteDropTable(const ast::DropTableStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                        SessionSettings* settings, std::string* notice);

// CREATE SCHEMA, DROP SCHEMA [CASCADE], ALTER SCHEMA RENAME (schema_ddl.cc); *notice gets the
// IF [NOT] EXISTS skipping notices and CASCADE's `drop cascades to ...`.
Status ExecuteSchemaStatement(const ast::Statement& stmt, catalog::Catalog* catalog,
                              ExecControl& ctl, SessionSettings* settings, std::string* notice);

// CREATE INDEX: takes the table's exclusive lock (polling ctl), builds the index from the
// heap. *notice receives `relation "x" already exists, skipping` for IF NOT EXISTS.
Status ExecuteCreateIndex(const ast::CreateIndexStmt& stmt, catalog::Catalog* catalog,
                          ExecControl& ctl, std::string* notice);
// DROP INDEX; *notice receives `index "x" does not exist, skipping` lines for IF EXISTS.
Status ExecuteDropIndex(const ast::DropIndexStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                        std::string* notice);
// ALTER TABLE (alter_table.cc): under the table's exclusive lock (polling ctl); *notice receives
// the IF [NOT] EXISTS skipping notices. settings: for evaluating an added column's DEFAULT.
Status ExecuteAlterTable(const ast::AlterTableStmt& stmt, catalog::Catalog* catalog,
                         ExecControl& ctl, SessionSettings* settings, std::string* notice);
// CREATE TABLE ... AS query [WITH [NO] DATA] (create_table_as.cc): the table's columns are
// the query's output columns (renamed by the column list), its rows the query's rows,
// inserted in the statement's transaction txn.
Status ExecuteCreateTableAs(const ast::CreateTableAsStmt& stmt, catalog::Catalog* catalog,
                            ExecControl& ctl, SessionSettings* settings, catalog::Transaction* txn,
                            std::string* notice, uint64_t* rows);
// CREATE [OR REPLACE] [TEMP] VIEW (view_ddl.cc): binds the query (its errors first), names
// the columns, records what it reads; *notice gets `view "v" will be a temporary view` when
// it reads a TEMP view. DROP VIEW [IF EXISTS] ... [CASCADE].
Status ExecuteCreateView(const ast::CreateViewStmt& stmt, catalog::Catalog* catalog,
                         SessionSettings* settings, std::string* notice);
Status ExecuteDropView(const ast::DropTableStmt& stmt, catalog::Catalog* catalog,
                       SessionSettings* settings, std::string* notice);
// The views that read relations ids (or, with column, that table column), directly or through
// other views, except those already in *drop: none is fine; with cascade each is added to
// *drop with a `drop cascades to view v` notice; else 2BP01 `cannot drop <what> because other
// objects depend on it`, DETAIL `view v depends on <label>` (labels: id → "table t", ...).
Status CheckDependentViews(catalog::Catalog* catalog, const std::vector<uint32_t>& ids,
                           const std::pair<uint32_t, int>* column, const std::string& what,
                           std::map<uint32_t, std::string> labels, bool cascade,
                           std::string* notice, std::vector<uint32_t>* drop);
// Foreign keys (foreign_key_ddl.cc). The catalog form of a REFERENCES (column: the column it
// is written on) or FOREIGN KEY clause of child (its schema as it will be; self: the table
// itself once it exists, so that it may reference itself): PostgreSQL's checks (42703, 42704
// when no column list names them and there is no primary key, 42830 without a PRIMARY KEY or
// UNIQUE constraint on exactly the referenced columns, 42804 for incompatible types, 42710
// for a taken name; DEFERRABLE and MATCH PARTIAL are 0A000) and
// default name <table>_<columns>_fkey. *parent receives the referenced table.
Result<catalog::ForeignKey> MakeForeignKey(const ast::ForeignKeyDef& def, const std::string& column,
                                           const catalog::TableSchema& child,
                                           const std::shared_ptr<catalog::Table>& self,
                                           catalog::Catalog* catalog,
                                           std::shared_ptr<catalog::Table>* parent);
// ALTER TABLE ADD FOREIGN KEY: every stored row of child that is not dead references a row of
// parent (23503 otherwise). REQUIRES both tables locked.
Status ValidateForeignKey(catalog::Table& child, const catalog::ForeignKey& fk,
                          catalog::Table& parent, ExecControl& ctl);
// DROP TABLE of the tables dropped: the foreign keys of other tables that reference them are
// 2BP01, or with cascade go into *drop (their tables added to locks, exclusive) with a
// `drop cascades to constraint ...` notice line each.
Status CheckReferencingKeys(catalog::Catalog* catalog, const std::vector<uint32_t>& dropped,
                            bool cascade, std::string* notice, catalog::LockSet* locks,
                            std::vector<catalog::Catalog::Reference>* drop);
// Removes those foreign keys from their tables. REQUIRES their exclusive locks.
Status DropForeignKeys(catalog::Catalog* catalog,
                       const std::vector<catalog::Catalog::Reference>& drop);
// LOCK TABLE (lock_table.cc): in a transaction block; waits until each table's lock could be
// granted, then releases it (Meridian's table locks last one statement).
Status ExecuteLock(const ast::LockStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                   bool in_transaction_block, uint64_t session);
// TRUNCATE: every named table must exist; their exclusive locks are taken together.
Status ExecuteTruncate(const ast::TruncateStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl);
// ANALYZE [t, ...]: gathers statistics under each table's shared lock. VACUUM [ANALYZE]: a
// checkpoint first (which collects every table's dead versions), then ANALYZE when asked.
// A view: nothing to do, *notice says it was skipped (PostgreSQL's WARNING).
Status ExecuteAnalyze(const ast::AnalyzeStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                      std::string* notice);

// 42704 for a B-tree key column of a type without a B-tree operator class (json), as
// PostgreSQL refuses an index, PRIMARY KEY or UNIQUE on it; an array is a key in array_cmp's
// order, but 42883 for an array of json, point or box (no element order; PostgreSQL accepts
// the index and fails at its first comparison).
Status CheckBtreeKeyType(const Type& type, uint32_t position);

}  // namespace meridian::exec
