// DdlUndo (ddl_undo.h): the undo actions of DDL run inside a transaction block.
#include "main/ddl_undo.h"

#include <algorithm>

#include "catalog/table_lock.h"
#include "commands/ddl.h"
#include "function/sequence.h"

namespace meridian::exec {

namespace {

std::vector<std::string> IndexNames(const catalog::Table& table) {
  std::vector<std::string> names;
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
    names.push_back(index->name());
  }
  return names;
}

std::vector<std::string> Minus(const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back(x);
  }
  return out;
}

ast::DropTableStmt DropOne(const std::string& name) {
  ast::DropTableStmt drop;
  drop.tables = {name};
  drop.table_locs = {ast::Location{}};
  drop.if_exists = true;
  drop.cascade = true;
  return drop;
}

// A created table goes again (if it is still the one created: same id), with what depends on it.
DdlUndo DropCreatedTable(const std::string& name, uint32_t id) {
  return [name, id](catalog::Catalog* catalog) {
    std::shared_ptr<catalog::Table> table = catalog->Find(name);
    if (table == nullptr || table->id() != id) return;
    ExecControl ctl;
    std::string notice;
    (void)ExecuteDropTable(DropOne(name), catalog, ctl, nullptr, &notice);
  };
}

}  // namespace

DdlBefore NoteBeforeDdl(const ast::Statement& stmt, catalog::Catalog* catalog) {
  DdlBefore before;
  switch (stmt.kind) {
    case ast::StatementKind::kCreateTable:
      before.existed = catalog->Find(stmt.create_table->table) != nullptr;
      break;
    case ast::StatementKind::kCreateTableAs:
      before.existed = catalog->Find(stmt.create_table_as->table) != nullptr;
      break;
    case ast::StatementKind::kCreateView:
      before.existed = catalog->FindView(stmt.create_view->name) != nullptr ||
                       catalog->Find(stmt.create_view->name) != nullptr;
      break;
    case ast::StatementKind::kCreateSequence:
      before.existed = catalog->FindSequence(stmt.sequence->name) != nullptr;
      break;
    case ast::StatementKind::kCreateSchema:
      before.existed = catalog->SchemaExists(stmt.schema->names[0]);
      break;
    case ast::StatementKind::kCreateIndex:
    case ast::StatementKind::kAlterTable: {
      const std::string& name = stmt.kind == ast::StatementKind::kCreateIndex
                                    ? stmt.create_index->table
                                    : stmt.alter_table->table;
      before.table = catalog->Find(name);
      if (before.table != nullptr) {
        if (stmt.kind == ast::StatementKind::kAlterTable) before.schema = before.table->schema();
        before.index_names = IndexNames(*before.table);
      }
      break;
    }
    default:
      break;
  }
  return before;
}

DdlUndo MakeDdlUndo(const ast::Statement& stmt, const DdlBefore& before,
                    catalog::Catalog* catalog) {
  switch (stmt.kind) {
    case ast::StatementKind::kCreateTable:
    case ast::StatementKind::kCreateTableAs: {
      const std::string& name = stmt.kind == ast::StatementKind::kCreateTable
                                    ? stmt.create_table->table
                                    : stmt.create_table_as->table;
      std::shared_ptr<catalog::Table> table = catalog->Find(name);
      if (before.existed || table == nullptr) return nullptr;
      return DropCreatedTable(name, table->id());
    }
    case ast::StatementKind::kCreateView: {
      if (before.existed) return nullptr;  // CREATE OR REPLACE of an existing view stays
      const std::string name = stmt.create_view->name;
      return [name](catalog::Catalog* catalog) {
        std::string notice;
        (void)ExecuteDropView(DropOne(name), catalog, nullptr, &notice);
      };
    }
    case ast::StatementKind::kCreateSequence: {
      if (before.existed) return nullptr;
      const std::string name = stmt.sequence->name;
      return [name](catalog::Catalog* catalog) {
        std::string notice;
        (void)ExecuteDropSequence(DropOne(name), catalog, &notice);
      };
    }
    case ast::StatementKind::kCreateSchema: {
      if (before.existed) return nullptr;
      const std::string name = stmt.schema->names[0];
      return [name](catalog::Catalog* catalog) {
        ast::Statement drop;
        drop.kind = ast::StatementKind::kDropSchema;
        drop.schema = std::make_unique<ast::SchemaStmt>();
        drop.schema->names = {name};
        drop.schema->missing_ok = true;
        drop.schema->cascade = true;
        ExecControl ctl;
        std::string notice;
        (void)ExecuteSchemaStatement(drop, catalog, ctl, nullptr, &notice);
      };
    }
    case ast::StatementKind::kAlterSchema: {
      const std::string from = stmt.schema->names[0], to = stmt.schema->new_name;
      return [from, to](catalog::Catalog* catalog) { (void)catalog->RenameSchema(to, from); };
    }
    case ast::StatementKind::kCreateIndex:
    case ast::StatementKind::kAlterTable: {
      if (before.table == nullptr) return nullptr;
      std::shared_ptr<catalog::Table> table = before.table;
      const std::vector<std::string> now = IndexNames(*table);
      const std::vector<std::string> added = Minus(now, before.index_names);
      const bool alter = stmt.kind == ast::StatementKind::kAlterTable;
      if (alter && !Minus(before.index_names, now).empty()) return nullptr;  // an index went
      const catalog::TableSchema schema = before.schema;
      return [table, added, alter, schema](catalog::Catalog* catalog) {
        ExecControl ctl;
        catalog::LockSet lock;
        lock.Add(table, catalog::LockMode::kExclusive);
        if (!lock.AcquireAll(&ctl).ok() || !table->CheckUsable().ok()) return;
        if (alter) {  // the schema before, without the constraint indexes it added
          (void)catalog->AlterTable(table, schema, added);
        } else {
          for (const std::string& name : added) (void)catalog->DropIndex(table, name);
        }
      };
    }
    default:
      return nullptr;
  }
}

}  // namespace meridian::exec
