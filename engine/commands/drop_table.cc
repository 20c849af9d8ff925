// DROP TABLE [IF EXISTS] t, ...: every named table must exist (or be skipped with a notice)
// before any is dropped; their exclusive locks are taken together in table-id order. TRUNCATE
// takes the same locks and replaces the tables' files by empty ones.
#include <algorithm>

#include "commands/ddl.h"
#include "main/session_settings.h"

namespace meridian::exec {

Status ExecuteDropTable(const ast::DropTableStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                        SessionSettings* settings, std::string* notice) {
  catalog::LockSet locks;
  std::vector<std::shared_ptr<catalog::Table>> tables;
  std::vector<uint32_t> ids;
  std::map<uint32_t, std::string> labels;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    if (Status st = catalog->CheckSchemaOf(stmt.tables[i]); !st.ok()) {
      if (!stmt.if_exists) return st;
      *notice += (notice->empty() ? "" : "\n") + st.message() + ", skipping";
      continue;
    }
    std::shared_ptr<catalog::Table> table = catalog->Find(stmt.tables[i]);
    if (table == nullptr &&
        catalog->FindView(stmt.tables[i], settings != nullptr ? settings->session_id() : 0)) {
      uint32_t pos = i < stmt.table_locs.size() ? stmt.table_locs[i].position : 0;
      return Status::Error(sqlstate::kWrongObjectType,
                           "\"" + ast::DisplayName(stmt.tables[i]) + "\" is not a table")
          .WithHint("Use DROP VIEW to remove a view.")
          .WithPosition(pos);
    }
    if (table == nullptr) {
      if (stmt.if_exists) {
        if (!notice->empty()) *notice += "\n";
        *notice += "table \"" + ast::DisplayName(stmt.tables[i]) + "\" does not exist, skipping";
        continue;
      }
      uint32_t pos = i < stmt.table_locs.size() ? stmt.table_locs[i].position : 0;
      return Status::Error(sqlstate::kUndefinedTable,
                           "table \"" + ast::DisplayName(stmt.tables[i]) + "\" does not exist")
          .WithPosition(pos);
    }
    locks.Add(table, catalog::LockMode::kExclusive);
    ids.push_back(table->id());
    labels[table->id()] = "table " + table->name();
    tables.push_back(std::move(table));
  }
  if (tables.empty()) return Status::Ok();
  std::vector<uint32_t> views;
  MERIDIAN_RETURN_IF_ERROR(CheckDependentViews(catalog, ids, nullptr, labels[ids[0]], labels,
                                               stmt.cascade, notice, &views));
  std::vector<catalog::Catalog::Reference> keys;
  MERIDIAN_RETURN_IF_ERROR(
      CheckReferencingKeys(catalog, ids, stmt.cascade, notice, &locks, &keys));
  MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
  if (!views.empty()) MERIDIAN_RETURN_IF_ERROR(catalog->DropViews(views));
  MERIDIAN_RETURN_IF_ERROR(DropForeignKeys(catalog, keys));
  for (const std::shared_ptr<catalog::Table>& table : tables) {
    Status st = catalog->DropTable(table);
    // A concurrent DROP of the same table won the race: treat it as gone already.
    if (!st.ok() && st.sqlstate() != sqlstate::kUndefinedTable) return st;
  }
  return Status::Ok();
}

Status ExecuteTruncate(const ast::TruncateStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl) {
  catalog::LockSet locks;
  std::vector<std::shared_ptr<catalog::Table>> tables;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    std::shared_ptr<catalog::Table> table = catalog->Find(stmt.tables[i]);
    if (table == nullptr) {
      const uint32_t pos = i < stmt.table_locs.size() ? stmt.table_locs[i].position : 0;
      if (catalog->FindView(stmt.tables[i]) != nullptr) {
        return Status::Error(sqlstate::kWrongObjectType,
                             "\"" + ast::DisplayName(stmt.tables[i]) + "\" is not a table")
            .WithPosition(pos);
      }
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + ast::DisplayName(stmt.tables[i]) + "\" does not exist")
          .WithPosition(pos);
    }
    locks.Add(table, catalog::LockMode::kExclusive);
    tables.push_back(std::move(table));
  }
  // A table referenced by a foreign key of a table not truncated with it (PostgreSQL: 0A000).
  for (const std::shared_ptr<catalog::Table>& table : tables) {
    for (const catalog::Catalog::Reference& ref : catalog->ReferencesTo(table->id())) {
      if (std::find(tables.begin(), tables.end(), ref.table) != tables.end()) continue;
      return Status::NotSupported("cannot truncate a table referenced in a foreign key constraint")
          .WithDetail("Table \"" + ref.table->name() + "\" references \"" + table->name() + "\".")
          .WithHint("Truncate table \"" + ref.table->name() +
                    "\" at the same time, or use TRUNCATE ... CASCADE.");
    }
  }
  MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
  for (const std::shared_ptr<catalog::Table>& table : tables) {
    MERIDIAN_RETURN_IF_ERROR(catalog->TruncateTable(table));
  }
  return Status::Ok();
}

}  // namespace meridian::exec
