// Binding of INSERT ... ON CONFLICT: which unique indexes arbitrate (a column list must name
// exactly the columns of a unique index or of the primary key, as a set; ON CONSTRAINT names a
// primary key or unique constraint; no target: every unique index, allowed for DO NOTHING
// only), and DO UPDATE's SET list and WHERE over the target row (alias or table name, columns
// 0..n-1) followed by the proposed row (EXCLUDED, columns n..2n-1).
#include <algorithm>

#include "binder/binder.h"

namespace meridian::exec {

namespace {

Status NoMatchingConstraint(const ast::OnConflict& oc) {
  return Status::Error(sqlstate::kInvalidColumnReference,
                       "there is no unique or exclusion constraint matching the ON CONFLICT "
                       "specification")
      .WithPosition(oc.loc.position);
}

}  // namespace

Status Binder::BindOnConflict(const ast::InsertStmt& stmt, BoundInsert* out) {
  const ast::OnConflict& oc = *stmt.on_conflict;
  catalog::Table& table = *out->table;
  const catalog::TableSchema& schema = table.schema();
  auto bound = std::make_unique<BoundOnConflict>();
  bound->do_update = oc.do_update;
  if (!oc.columns.empty()) {
    std::vector<int> wanted;
    for (size_t i = 0; i < oc.columns.size(); ++i) {
      const int c = schema.FindColumn(oc.columns[i]);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + oc.columns[i] + "\" does not exist")
            .WithPosition(oc.column_locs[i].position);
      }
      if (std::find(wanted.begin(), wanted.end(), c) == wanted.end()) wanted.push_back(c);
    }
    std::sort(wanted.begin(), wanted.end());
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      if (!index->schema().unique) continue;
      std::vector<int> cols = index->schema().columns;
      std::sort(cols.begin(), cols.end());
      if (cols == wanted) bound->arbiters.push_back(index);
    }
    if (bound->arbiters.empty()) return NoMatchingConstraint(oc);
  } else if (!oc.constraint.empty()) {
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      if (index->name() == oc.constraint && index->schema().unique &&
          index->schema().IsConstraint()) {
        bound->arbiters.push_back(index);
      }
    }
    if (bound->arbiters.empty()) {
      return Status::Error(sqlstate::kUndefinedObject, "constraint \"" + oc.constraint +
                                                           "\" for table \"" + schema.name +
                                                           "\" does not exist")
          .WithPosition(oc.constraint_loc.position);
    }
  } else if (oc.do_update) {
    return Status::Error(sqlstate::kSyntaxError,
                         "ON CONFLICT DO UPDATE requires inference specification or constraint "
                         "name")
        .WithHint("For example, ON CONFLICT (column_name).")
        .WithPosition(oc.loc.position);
  } else {
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      if (index->schema().unique) bound->arbiters.push_back(index);
    }
  }
  if (oc.do_update) {
    Scope scope;
    scope.tables.push_back(
        TableScope(stmt.alias.empty() ? schema.name : stmt.alias, out->table, 0));
    scope.tables.push_back(
        TableScope("excluded", out->table, static_cast<int>(schema.columns.size())));
    ScopeSwitch enter(this, &scope);
    correlated_.assign(1, false);
    MERIDIAN_RETURN_IF_ERROR(BindAssignments(oc.assignments, table, &bound->assignments));
    MERIDIAN_RETURN_IF_ERROR(CheckIdentityAssignments(oc.assignments, bound->assignments, table));
    if (oc.where != nullptr) {
      rules_ = ExprRules{"WHERE", false, true, true};
      MERIDIAN_ASSIGN_OR_RETURN(bound->where, BindBoolean(*oc.where, "WHERE"));
    }
  }
  out->on_conflict = std::move(bound);
  return Status::Ok();
}

}  // namespace meridian::exec
