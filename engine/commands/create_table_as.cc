// CREATE TABLE [IF NOT EXISTS] t [(names)] AS query [WITH [NO] DATA]: the query is bound
// first (its output columns and types become the table's: names renamed by the list, an
// untyped literal is text, as in PostgreSQL), the table is created, then the query's rows are
// inserted through the INSERT executor in the statement's transaction. A failure after the
// table was created drops it again. Like every DDL here it is not transactional: ROLLBACK of
// an enclosing block removes the rows, not the table.
#include "binder/binder.h"
#include "commands/ddl.h"
#include "execution/modify_table.h"
#include "planner/planner.h"
#include "main/session_settings.h"

namespace meridian::exec {

Status ExecuteCreateTableAs(const ast::CreateTableAsStmt& stmt, catalog::Catalog* catalog,
                            ExecControl& ctl, SessionSettings* settings, catalog::Transaction* txn,
                            std::string* notice, uint64_t* rows) {
  *rows = 0;
  MERIDIAN_ASSIGN_OR_RETURN(const std::string qualified,
                            catalog->CreationName(stmt.table, stmt.temp));
  std::string in_schema, bare;
  ast::SplitName(qualified, &in_schema, &bare);
  auto exists = [&]() -> Status {
    if (stmt.if_not_exists) {
      *notice = "relation \"" + bare + "\" already exists, skipping";
      return Status::Ok();
    }
    return Status::Error(sqlstate::kDuplicateTable, "relation \"" + bare + "\" already exists")
        .WithPosition(stmt.table_loc.position);
  };
  if (catalog->Find(qualified) != nullptr) return exists();
  catalog::LockSet locks;
  Binder binder(catalog, &locks);
  if (settings != nullptr) binder.set_session(settings->session_id());
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound, binder.BindSelect(*stmt.query));
  if (stmt.columns.size() > bound->columns.size()) {
    return Status::Error(sqlstate::kSyntaxError, "too many column names were specified");
  }
  catalog::TableSchema schema;
  schema.name = qualified;
  if (stmt.temp) {
    schema.temp_owner = catalog::CurrentSearchPath().session;
    schema.on_commit = static_cast<int>(stmt.on_commit);
  }
  for (size_t i = 0; i < bound->columns.size(); ++i) {
    catalog::Column col;
    col.name = i < stmt.columns.size() ? stmt.columns[i] : bound->columns[i].name;
    col.type = bound->columns[i].type;
    if (col.type.id == TypeId::kUnknown) col.type = Type::Text();
    MERIDIAN_RETURN_IF_ERROR(catalog::CheckColumnType(col.type, 0));
    if (schema.FindColumn(col.name) >= 0) {
      return Status::Error(sqlstate::kDuplicateColumn,
                           "column \"" + col.name + "\" specified more than once");
    }
    schema.columns.push_back(std::move(col));
  }
  const size_t ncols = schema.columns.size();
  auto created = catalog->CreateTable(std::move(schema));
  if (!created.ok()) {
    if (created.status().sqlstate() == sqlstate::kDuplicateTable) return exists();
    return created.status();
  }
  std::shared_ptr<catalog::Table> table = std::move(created).value();
  if (!stmt.with_data) return Status::Ok();
  BoundInsert insert;
  insert.table = table;
  for (size_t c = 0; c < ncols; ++c) insert.column_source.push_back(static_cast<int>(c));
  insert.defaults.resize(ncols);
  Result<uint64_t> n = [&]() -> Result<uint64_t> {
    MERIDIAN_ASSIGN_OR_RETURN(insert.source, PlanSelect(std::move(bound)));
    locks.Add(table, catalog::LockMode::kShared);
    MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
    ExecContext exec{&ctl, {}, settings, catalog, txn};
    return ExecuteInsert(insert, &exec);
  }();
  locks.ReleaseAll();
  if (!n.ok()) {
    catalog::LockSet drop;
    drop.Add(table, catalog::LockMode::kExclusive);
    if (drop.AcquireAll(nullptr).ok()) (void)catalog->DropTable(table);
    return n.status();
  }
  *rows = *n;
  return Status::Ok();
}

}  // namespace meridian::exec
