// Binding of UPDATE (SET assignments coerced to the column types, DEFAULT, WHERE) and of
// DELETE (WHERE), each over a scope holding just the target table.
#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

Status Binder::BindAssignments(const std::vector<ast::Assignment>& list,
                               const catalog::Table& table, std::vector<BoundAssignment>* out) {
  const catalog::TableSchema& schema = table.schema();
  Scope* scope = scope_;
  for (const ast::Assignment& a : list) {
    int c = schema.FindColumn(a.column);
    if (c < 0) {
      return Status::Error(
                 sqlstate::kUndefinedColumn,
                 "column \"" + a.column + "\" of relation \"" + schema.name + "\" does not exist")
          .WithPosition(a.loc.position);
    }
    for (const BoundAssignment& prev : *out) {
      if (prev.column == c) {
        return Status::Error(sqlstate::kSyntaxError,
                             "multiple assignments to same column \"" + a.column + "\"")
            .WithPosition(a.loc.position);
      }
    }
    const catalog::Column& col = schema.columns[c];
    BoundExprPtr e;
    if (a.value == nullptr) {
      if (col.default_expr != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(e, BindDefault(*col.default_expr, col.type, col.name));
        scope_ = scope;
      } else {
        e = BoundExpr::Const(Value::Null(), col.type);
      }
    } else {
      rules_ = ExprRules{"UPDATE", false, true, true};
      MERIDIAN_ASSIGN_OR_RETURN(e, BindExpr(*a.value));
      MERIDIAN_ASSIGN_OR_RETURN(e, Coerce(std::move(e), col.type, true, col.name));
    }
    out->push_back({c, std::move(e)});
  }
  return Status::Ok();
}

Result<std::unique_ptr<BoundUpdate>> Binder::BindUpdate(const ast::UpdateStmt& stmt) {
  auto out = std::make_unique<BoundUpdate>();
  write_verb_ = "update";
  MERIDIAN_ASSIGN_OR_RETURN(out->table,
                            LookupTable(stmt.table, stmt.table_loc, catalog::LockMode::kExclusive));
  const catalog::TableSchema& schema = out->table->schema();
  Scope scope;
  scope.tables.push_back(TableScope(schema.name, out->table, 0));
  ScopeSwitch enter(this, &scope);
  correlated_.assign(1, false);

  MERIDIAN_RETURN_IF_ERROR(BindAssignments(stmt.assignments, *out->table, &out->assignments));
  if (stmt.where != nullptr) {
    rules_ = ExprRules{"WHERE", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(out->where, BindBoolean(*stmt.where, "WHERE"));
    MERIDIAN_ASSIGN_OR_RETURN(out->recheck, BindBoolean(*stmt.where, "WHERE"));
  }
  MERIDIAN_ASSIGN_OR_RETURN(out->checks, BindChecks(out->table));
  MERIDIAN_RETURN_IF_ERROR(
      CheckIdentityAssignments(stmt.assignments, out->assignments, *out->table));
  MERIDIAN_RETURN_IF_ERROR(BindReturning(stmt.returning, out->table, &out->returning));
  return out;
}

Result<std::unique_ptr<BoundDelete>> Binder::BindDelete(const ast::DeleteStmt& stmt) {
  auto out = std::make_unique<BoundDelete>();
  write_verb_ = "delete from";
  MERIDIAN_ASSIGN_OR_RETURN(out->table,
                            LookupTable(stmt.table, stmt.table_loc, catalog::LockMode::kExclusive));
  Scope scope;
  scope.tables.push_back(TableScope(out->table->name(), out->table, 0));
  ScopeSwitch enter(this, &scope);
  correlated_.assign(1, false);
  if (stmt.where != nullptr) {
    rules_ = ExprRules{"WHERE", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(out->where, BindBoolean(*stmt.where, "WHERE"));
    MERIDIAN_ASSIGN_OR_RETURN(out->recheck, BindBoolean(*stmt.where, "WHERE"));
  }
  MERIDIAN_RETURN_IF_ERROR(BindReturning(stmt.returning, out->table, &out->returning));
  return out;
}

}  // namespace meridian::exec
