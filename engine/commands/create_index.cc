// CREATE [UNIQUE] INDEX [[IF NOT EXISTS] name] ON t [USING btree] (col | (expr) | f(args)
// [ASC|DESC], ...) [WHERE predicate], and CREATE INDEX ... USING rtree|gist (c1, ..., ck) over
// 1..8 numeric columns: validates the columns, binds key expressions and the predicate
// (immutable only), picks PostgreSQL's default name when none is given, then builds the
// index from the heap under the table's exclusive lock.
#include <set>

#include "binder/binder.h"
#include "commands/ddl.h"
#include "execution/index_exprs.h"

namespace meridian::exec {

Status ExecuteCreateIndex(const ast::CreateIndexStmt& stmt, catalog::Catalog* catalog,
                          ExecControl& ctl, std::string* notice) {
  const bool rtree = stmt.method == "rtree" || stmt.method == "gist";
  if (!stmt.method.empty() && stmt.method != "btree" && !rtree) {
    return Status::Error(sqlstate::kUndefinedObject,
                         "access method \"" + stmt.method + "\" does not exist")
        .WithPosition(stmt.method_loc.position);
  }
  if (rtree && stmt.unique) {
    return Status::Error(sqlstate::kFeatureNotSupported,
                         "access method \"" + stmt.method + "\" does not support unique indexes");
  }
  if (rtree && stmt.columns.size() > storage::kRTreeMaxDims) {
    return Status::Error(sqlstate::kProgramLimitExceeded,
                         "cannot use more than " + std::to_string(storage::kRTreeMaxDims) +
                             " columns in an rtree index");
  }
  std::shared_ptr<catalog::Table> table = catalog->Find(stmt.table);
  if (table == nullptr && catalog->FindView(stmt.table) != nullptr) {
    return Status::Error(sqlstate::kWrongObjectType,
                         "cannot create index on relation \"" + stmt.table + "\"")
        .WithDetail("This operation is not supported for views.")
        .WithPosition(stmt.table_loc.position);
  }
  if (table == nullptr) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "relation \"" + ast::DisplayName(stmt.table) + "\" does not exist")
        .WithPosition(stmt.table_loc.position);
  }
  catalog::IndexSchema schema;
  schema.kind = catalog::IndexKind::kIndex;
  schema.unique = stmt.unique;
  schema.method = rtree ? catalog::IndexMethod::kRtree : catalog::IndexMethod::kBtree;
  std::string base = table->name();
  std::set<std::string> used_names;  // ChooseIndexColumnNames: expr, expr1, ...
  if (rtree && stmt.where != nullptr) {
    return Status::NotSupported("partial R-tree indexes are not supported")
        .WithPosition(stmt.where_loc.position);
  }
  for (const ast::IndexColumn& col : stmt.columns) {
    if (col.expr != nullptr) {
      if (rtree) {
        return Status::NotSupported("expressions in R-tree indexes are not supported")
            .WithPosition(col.loc.position);
      }
      std::string text;
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr bound,
                                BindIndexExpression(*col.expr, table->schema(), false, &text));
      MERIDIAN_RETURN_IF_ERROR(CheckBtreeKeyType(bound->type, col.loc.position));
      if (col.nulls_first.has_value() && *col.nulls_first != col.descending) {
        return Status::NotSupported("NULLS " + std::string(*col.nulls_first ? "FIRST" : "LAST") +
                                    " is not supported for " + (col.descending ? "DESC" : "ASC") +
                                    " index columns yet")
            .WithPosition(col.loc.position);
      }
      schema.columns.push_back(catalog::kExpressionKey);
      schema.descending.push_back(col.descending);
      schema.expressions.resize(schema.columns.size());
      schema.expressions.back() = col.text;  // re-parsed and bound at open
      std::string name = Binder::IndexColumnName(*col.expr);
      for (int n = 1; used_names.count(name) != 0; ++n) {
        name = Binder::IndexColumnName(*col.expr) + std::to_string(n);
      }
      used_names.insert(name);
      base += "_" + name;
      continue;
    }
    int c = table->schema().FindColumn(col.name);
    if (c < 0) {
      return Status::Error(sqlstate::kUndefinedColumn, "column \"" + col.name + "\" does not exist")
          .WithPosition(col.loc.position);
    }
    // The key format puts NULLs last ascending and first descending (PostgreSQL's default).
    if (col.nulls_first.has_value() && *col.nulls_first != col.descending) {
      return Status::NotSupported("NULLS " + std::string(*col.nulls_first ? "FIRST" : "LAST") +
                                  " is not supported for " + (col.descending ? "DESC" : "ASC") +
                                  " index columns yet")
          .WithPosition(col.loc.position);
    }
    if (!rtree) {
      MERIDIAN_RETURN_IF_ERROR(
          CheckBtreeKeyType(table->schema().columns[c].type, col.loc.position));
    }
    if (rtree) {
      // An R-tree indexes points of numbers; other types have no operator class for it.
      // (or one point or box column: a 2-D box per row).
      const Type& type = table->schema().columns[c].type;
      if (type.IsGeometric() && stmt.columns.size() > 1) {
        return Status::NotSupported("an rtree index on a " + type.Name() +
                                    " column must have no other column")
            .WithPosition(col.loc.position);
      }
      if (!type.IsNumeric() && !type.IsGeometric()) {
        return Status::Error(sqlstate::kUndefinedObject,
                             "data type " + type.Name() +
                                 " has no default operator class for access method \"" +
                                 stmt.method + "\"")
            .WithHint(
                "You must specify an operator class for the index or define a default "
                "operator class for the data type.")
            .WithPosition(col.loc.position);
      }
      if (col.descending || col.nulls_first.has_value()) {
        return Status::Error(
                   sqlstate::kFeatureNotSupported,
                   "access method \"" + stmt.method + "\" does not support ASC/DESC options")
            .WithPosition(col.loc.position);
      }
    }
    schema.columns.push_back(c);
    schema.descending.push_back(col.descending);
    std::string name = col.name;
    for (int n = 1; used_names.count(name) != 0; ++n) name = col.name + std::to_string(n);
    used_names.insert(name);
    base += "_" + name;
  }
  if (!schema.expressions.empty()) schema.expressions.resize(schema.columns.size());
  if (stmt.where != nullptr) {
    std::string text;
    MERIDIAN_RETURN_IF_ERROR(
        BindIndexExpression(*stmt.where, table->schema(), true, &text).status());
    schema.predicate = stmt.where_text;
  }
  if (schema.NeedsEval()) {
    MERIDIAN_ASSIGN_OR_RETURN(schema.compiled, CompileIndexExpressions(table->schema(), schema));
  }
  if (stmt.name.empty()) {
    schema.name = catalog->ChooseIndexName(base + "_idx", table->schema().nsp);
  } else {
    schema.name = stmt.name;
  }
  // An index lives in its table's schema.
  const std::string in_table_schema = ast::QualifyName(table->schema().nsp, schema.name);
  if (stmt.if_not_exists && (catalog->Find(in_table_schema) != nullptr ||
                             catalog->FindIndexTable(in_table_schema) != nullptr)) {
    *notice = "relation \"" + schema.name + "\" already exists, skipping";
    return Status::Ok();
  }
  catalog::LockSet lock;
  lock.Add(table, catalog::LockMode::kExclusive);
  MERIDIAN_RETURN_IF_ERROR(lock.AcquireAll(&ctl));
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  Status st = catalog->CreateIndex(table, std::move(schema));
  if (!st.ok() && stmt.if_not_exists && st.sqlstate() == sqlstate::kDuplicateTable) {
    *notice = "relation \"" + stmt.name + "\" already exists, skipping";
    return Status::Ok();
  }
  return st;
}

Status ExecuteDropIndex(const ast::DropIndexStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                        std::string* notice) {
  std::vector<std::pair<std::shared_ptr<catalog::Table>, std::string>> targets;
  catalog::LockSet locks;
  for (size_t i = 0; i < stmt.names.size(); ++i) {
    std::shared_ptr<catalog::Table> table = catalog->FindIndexTable(stmt.names[i]);
    if (table == nullptr) {
      if (stmt.if_exists) {
        if (!notice->empty()) *notice += "\n";
        *notice += "index \"" + ast::DisplayName(stmt.names[i]) + "\" does not exist, skipping";
        continue;
      }
      const uint32_t pos = i < stmt.name_locs.size() ? stmt.name_locs[i].position : 0;
      return Status::Error(sqlstate::kUndefinedObject,
                           "index \"" + ast::DisplayName(stmt.names[i]) + "\" does not exist")
          .WithPosition(pos);
    }
    locks.Add(table, catalog::LockMode::kExclusive);
    targets.emplace_back(std::move(table), stmt.names[i]);
  }
  MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
  for (const auto& [table, name] : targets) {
    MERIDIAN_RETURN_IF_ERROR(catalog->DropIndex(table, name));
  }
  return Status::Ok();
}

Status ExecuteAnalyze(const ast::AnalyzeStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                      std::string* notice) {
  std::vector<std::shared_ptr<catalog::Table>> tables;
  if (stmt.tables.empty()) tables = catalog->List();
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    const std::string& name = stmt.tables[i];
    std::shared_ptr<catalog::Table> table = catalog->Find(name);
    if (table == nullptr && catalog->FindView(name) != nullptr) {
      // PostgreSQL's WARNING (shown as a notice here) and nothing to do.
      *notice = "skipping \"" + name + "\" --- cannot " + (stmt.vacuum ? "vacuum" : "analyze") +
                " non-tables or special system tables";
      continue;
    }
    if (table == nullptr) {
      return Status::Error(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist")
          .WithPosition(stmt.table_locs[i].position);
    }
    tables.push_back(std::move(table));
  }
  if (stmt.vacuum) {
    // Dead versions no snapshot can see are removed by a checkpoint (docs/txn.md);
    // VACUUM runs one for every table now instead of waiting for the next.
    MERIDIAN_RETURN_IF_ERROR(catalog->Checkpoint());
    if (!stmt.analyze) return Status::Ok();
  }
  for (const std::shared_ptr<catalog::Table>& table : tables) {
    catalog::LockSet lock;
    lock.Add(table, catalog::LockMode::kShared);
    MERIDIAN_RETURN_IF_ERROR(lock.AcquireAll(&ctl));
    if (table->heap() == nullptr) continue;  // dropped meanwhile
    MERIDIAN_RETURN_IF_ERROR(table->Analyze());
  }
  return catalog->SaveState();
}

Status CheckBtreeKeyType(const Type& type, uint32_t position) {
  if (type.IsArray()) {
    // Keys in array_cmp's order (storage/key_codec.h); elements without one are refused here,
    // where PostgreSQL accepts the index and fails at its first comparison (42883).
    const TypeId e = type.element;
    if (e != TypeId::kJson && e != TypeId::kPoint && e != TypeId::kBox) return Status::Ok();
    return Status::Error(
               sqlstate::kUndefinedFunction,
               "could not identify a comparison function for type " + type.Element().Name())
        .WithPosition(position);
  }
  if (type.id != TypeId::kJson) return Status::Ok();
  return Status::Error(sqlstate::kUndefinedObject,
                       "data type json has no default operator class for access method \"btree\"")
      .WithHint(
          "You must specify an operator class for the index or define a default operator "
          "class for the data type.")
      .WithPosition(position);
}

}  // namespace meridian::exec
