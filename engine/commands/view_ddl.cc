// CREATE [OR REPLACE] [TEMP] VIEW and DROP VIEW, and the dependency check that DROP TABLE, DROP
// VIEW and ALTER TABLE DROP COLUMN share (2BP01 unless CASCADE drops the dependent views too).
// A view is its query's SQL text plus what binding it found: its output columns (renamed by
// the column list; an untyped literal is text, as in PostgreSQL 15) and the relations and
// table columns it reads (catalog/schema.h ViewSchema). Not transactional, like all DDL here.
#include <algorithm>
#include <map>

#include "binder/binder.h"
#include "commands/ddl.h"
#include "main/session_settings.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

void AddNotice(std::string* notice, const std::string& line) {
  if (!notice->empty()) *notice += "\n";
  *notice += line;
}

// CREATE OR REPLACE VIEW: the new query must keep the old columns (names, types, order) and
// may add columns at the end, as in PostgreSQL.
Status CheckReplacement(const catalog::ViewSchema& old, const std::vector<catalog::Column>& cols) {
  if (cols.size() < old.columns.size()) {
    return Status::Error(sqlstate::kInvalidTableDefinition, "cannot drop columns from view");
  }
  for (size_t i = 0; i < old.columns.size(); ++i) {
    if (cols[i].name != old.columns[i].name) {
      return Status::Error(sqlstate::kInvalidTableDefinition,
                           "cannot change name of view column \"" + old.columns[i].name +
                               "\" to \"" + cols[i].name + "\"")
          .WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
    }
    if (!(cols[i].type == old.columns[i].type)) {
      return Status::Error(sqlstate::kInvalidTableDefinition,
                           "cannot change data type of view column \"" + old.columns[i].name +
                               "\" from " + old.columns[i].type.DisplayName() + " to " +
                               cols[i].type.DisplayName());
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckDependentViews(catalog::Catalog* catalog, const std::vector<uint32_t>& ids,
                           const std::pair<uint32_t, int>* column, const std::string& what,
                           std::map<uint32_t, std::string> labels, bool cascade,
                           std::string* notice, std::vector<uint32_t>* drop) {
  std::vector<std::shared_ptr<const catalog::ViewSchema>> dependents =
      catalog->DependentViews(ids, column);
  std::erase_if(dependents, [drop](const auto& v) {
    return std::find(drop->begin(), drop->end(), v->id) != drop->end();
  });
  if (dependents.empty()) return Status::Ok();
  if (cascade) {
    for (const auto& v : dependents) {
      AddNotice(notice, "drop cascades to view " + v->name);
      drop->push_back(v->id);
    }
    return Status::Ok();
  }
  std::string detail;
  for (const auto& v : dependents) {
    std::string on = column != nullptr && v->ReadsColumn(column->first, column->second) ? what : "";
    for (size_t i = 0; on.empty() && i < v->relations.size(); ++i) {
      auto it = labels.find(v->relations[i]);
      if (it != labels.end()) on = it->second;
    }
    if (!detail.empty()) detail += "\n";
    detail += "view " + v->name + " depends on " + on;
    labels[v->id] = "view " + v->name;
  }
  return Status::Error(sqlstate::kDependentObjectsStillExist,
                       "cannot drop " + what + " because other objects depend on it")
      .WithDetail(detail)
      .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
}

Status ExecuteCreateView(const ast::CreateViewStmt& stmt, catalog::Catalog* catalog,
                         SessionSettings* settings, std::string* notice) {
  const uint64_t session = settings != nullptr ? settings->session_id() : 0;
  catalog::LockSet locks;  // binding records the tables; nothing is locked
  ViewDependencies deps;
  Binder binder(catalog, &locks);
  binder.set_session(session);
  binder.set_dependencies(&deps);
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound, binder.BindSelect(*stmt.query));
  if (stmt.columns.size() > bound->columns.size()) {
    return Status::Error(sqlstate::kSyntaxError,
                         "CREATE VIEW specifies more column names than columns");
  }
  catalog::ViewSchema view;
  view.name = stmt.name;
  view.query_text = stmt.query_text;
  view.relations = std::move(deps.relations);
  view.table_columns = std::move(deps.columns);
  for (size_t i = 0; i < bound->columns.size(); ++i) {
    catalog::Column col;
    col.name = i < stmt.columns.size() ? stmt.columns[i] : bound->columns[i].name;
    col.type = bound->columns[i].type;
    if (col.type.id == TypeId::kUnknown) col.type = Type::Text();
    for (const catalog::Column& other : view.columns) {
      if (other.name == col.name) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + col.name + "\" specified more than once");
      }
    }
    view.columns.push_back(std::move(col));
  }
  // A view over a TEMP view or a TEMP table is TEMP itself (PostgreSQL says so with a notice).
  bool temporary = stmt.temporary;
  for (uint32_t id : view.relations) {
    bool reads_temp = false;
    for (const auto& other : catalog->ListViews(session)) {
      reads_temp = reads_temp || (other->id == id && other->temp_owner != 0);
    }
    if (std::shared_ptr<catalog::Table> table = catalog->FindById(id)) {
      reads_temp = reads_temp || table->schema().temp_owner != 0;
    }
    if (reads_temp && !temporary) {
      temporary = true;
      AddNotice(notice, "view \"" + ast::DisplayName(stmt.name) + "\" will be a temporary view");
    }
  }
  if (temporary) view.temp_owner = session;
  std::shared_ptr<const catalog::ViewSchema> old = catalog->FindView(stmt.name, session);
  // Replacing a TEMP view keeps it TEMP (PostgreSQL finds the temporary one first).
  if (stmt.or_replace && old != nullptr && old->temp_owner != 0) view.temp_owner = session;
  if (stmt.or_replace && old != nullptr) {
    MERIDIAN_RETURN_IF_ERROR(CheckReplacement(*old, view.columns));
    // The new query must not read the view itself, directly or through other views.
    std::vector<uint32_t> cycle{old->id};
    for (const auto& v : catalog->DependentViews({old->id})) cycle.push_back(v->id);
    for (uint32_t id : view.relations) {
      if (std::find(cycle.begin(), cycle.end(), id) != cycle.end()) {
        return Status::Error(
            sqlstate::kInvalidObjectDefinition,
            "infinite recursion detected in rules for relation \"" + stmt.name + "\"");
      }
    }
  }
  // The catalog keeps its own parse of the text (the statement's AST belongs to the request),
  // the same one it gets when it reads the text back at open.
  auto parsed = parser::Parse(view.query_text);
  if (!parsed.ok() || parsed->size() != 1 || (*parsed)[0].kind != ast::StatementKind::kSelect) {
    return Status::Internal("the query of view \"" + stmt.name + "\" does not parse alone");
  }
  view.query = std::shared_ptr<const ast::SelectStmt>(std::move((*parsed)[0].select));
  Status st = catalog->CreateView(std::move(view), stmt.or_replace, session);
  if (!st.ok()) return Status(st).WithPosition(stmt.name_loc.position);
  return Status::Ok();
}

Status ExecuteDropView(const ast::DropTableStmt& stmt, catalog::Catalog* catalog,
                       SessionSettings* settings, std::string* notice) {
  const uint64_t session = settings != nullptr ? settings->session_id() : 0;
  std::vector<uint32_t> ids;
  std::map<uint32_t, std::string> labels;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    const std::string& name = stmt.tables[i];
    const uint32_t pos = i < stmt.table_locs.size() ? stmt.table_locs[i].position : 0;
    if (Status st = catalog->CheckSchemaOf(name); !st.ok()) {
      if (!stmt.if_exists) return st;
      AddNotice(notice, st.message() + ", skipping");
      continue;
    }
    std::shared_ptr<const catalog::ViewSchema> view = catalog->FindView(name, session);
    if (view == nullptr) {
      if (catalog->Find(name) != nullptr) {
        return Status::Error(sqlstate::kWrongObjectType, "\"" + name + "\" is not a view")
            .WithHint("Use DROP TABLE to remove a table.")
            .WithPosition(pos);
      }
      if (catalog->FindIndexTable(name) != nullptr) {
        return Status::Error(sqlstate::kWrongObjectType, "\"" + name + "\" is not a view")
            .WithHint("Use DROP INDEX to remove an index.")
            .WithPosition(pos);
      }
      if (stmt.if_exists) {
        AddNotice(notice, "view \"" + name + "\" does not exist, skipping");
        continue;
      }
      return Status::Error(sqlstate::kUndefinedTable, "view \"" + name + "\" does not exist")
          .WithPosition(pos);
    }
    if (std::find(ids.begin(), ids.end(), view->id) == ids.end()) ids.push_back(view->id);
    labels[view->id] = "view " + name;
  }
  if (ids.empty()) return Status::Ok();
  std::vector<uint32_t> drop = ids;
  MERIDIAN_RETURN_IF_ERROR(CheckDependentViews(catalog, ids, nullptr, labels[ids[0]], labels,
                                               stmt.cascade, notice, &drop));
  return catalog->DropViews(drop);
}

}  // namespace meridian::exec
