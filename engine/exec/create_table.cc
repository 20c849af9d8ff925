// CREATE TABLE: validates columns, types, DEFAULTs (bound and type-checked now, stored as SQL
// text and re-parsed at open) and the primary key, then creates the table in the catalog.
#include "exec/binder.h"
#include "exec/ddl.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

Status ExecuteCreateTable(const ast::CreateTableStmt& stmt, catalog::Catalog* catalog,
                          std::string* notice) {
  if (catalog->Find(stmt.table) != nullptr) {
    if (stmt.if_not_exists) {
      *notice = "relation \"" + stmt.table + "\" already exists, skipping";
      return Status::Ok();
    }
    return Status::Error(sqlstate::kDuplicateTable,
                         "relation \"" + stmt.table + "\" already exists");
  }
  catalog::TableSchema schema;
  schema.name = stmt.table;
  catalog::LockSet no_locks;
  Binder binder(catalog, &no_locks);
  for (const ast::ColumnDef& def : stmt.columns) {
    if (schema.FindColumn(def.name) >= 0) {
      return Status::Error(sqlstate::kDuplicateColumn,
                           "column \"" + def.name + "\" specified more than once")
          .WithPosition(def.loc.position);
    }
    catalog::Column col;
    col.name = def.name;
    MERIDIAN_ASSIGN_OR_RETURN(col.type, catalog::TypeFromSpec(def.type));
    col.not_null = def.not_null || def.primary_key;
    if (def.default_expr != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr bound,
                                binder.BindDefault(*def.default_expr, col.type, col.name));
      (void)bound;
      col.default_text = def.default_text;
      auto reparsed = parser::ParseExpression(col.default_text);
      if (!reparsed.ok()) {
        return Status(reparsed.status()).WithPosition(def.default_expr->loc.position);
      }
      col.default_expr = std::shared_ptr<const ast::Expr>(std::move(reparsed).value());
    }
    if (def.primary_key) {
      if (!schema.primary_key.empty()) {
        return Status::Error("42P16", "multiple primary keys for table \"" + stmt.table +
                                          "\" are not allowed")
            .WithPosition(def.loc.position);
      }
      schema.primary_key.push_back(static_cast<int>(schema.columns.size()));
    }
    schema.columns.push_back(std::move(col));
  }
  if (!stmt.primary_key.empty()) {
    if (!schema.primary_key.empty()) {
      return Status::Error("42P16",
                           "multiple primary keys for table \"" + stmt.table + "\" are not allowed")
          .WithPosition(stmt.primary_key_loc.position);
    }
    for (const std::string& name : stmt.primary_key) {
      int c = schema.FindColumn(name);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + name + "\" named in key does not exist")
            .WithPosition(stmt.primary_key_loc.position);
      }
      if (schema.IsPrimaryKeyColumn(c)) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + name + "\" appears twice in primary key constraint")
            .WithPosition(stmt.primary_key_loc.position);
      }
      schema.primary_key.push_back(c);
      schema.columns[c].not_null = true;
    }
  }
  auto created = catalog->CreateTable(std::move(schema));
  if (!created.ok()) {
    if (stmt.if_not_exists && created.status().sqlstate() == sqlstate::kDuplicateTable) {
      *notice = "relation \"" + stmt.table + "\" already exists, skipping";
      return Status::Ok();
    }
    return created.status();
  }
  return Status::Ok();
}

}  // namespace meridian::exec
