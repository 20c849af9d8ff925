// Binding of RETURNING (INSERT, UPDATE, DELETE): the items are bound like a select list over a
// scope holding only the target table, whose row the executor evaluates them on; with FROM /
// USING over the joined row of the FROM items and the target.
#include "binder/binder.h"

namespace meridian::exec {

Status Binder::BindReturning(const std::vector<ast::SelectItem>& items,
                             const std::shared_ptr<catalog::Table>& table, BoundReturning* out,
                             const std::string& alias) {
  if (items.empty()) return Status::Ok();
  Scope scope;
  scope.tables.push_back(TableScope(alias.empty() ? table->name() : alias, table, 0));
  return BindReturningIn(items, &scope, out);
}

Status Binder::BindReturningIn(const std::vector<ast::SelectItem>& items, Scope* scope,
                               BoundReturning* out) {
  ScopeSwitch enter(this, scope);
  correlated_.assign(1, false);
  rules_ = ExprRules{"RETURNING", false, true, true};
  BoundSelect list;
  std::vector<const ast::Expr*> asts;
  MERIDIAN_RETURN_IF_ERROR(BindSelectList(items, false, &list, &asts));
  out->exprs = std::move(list.projections);
  out->columns = std::move(list.columns);
  return Status::Ok();
}

Status Binder::BindJoinReturning(const std::vector<ast::SelectItem>& items, const Scope& scope,
                                 BoundReturning* out) {
  if (items.empty()) return Status::Ok();
  // * lists the target's columns first, as PostgreSQL does, though the joined row holds it
  // last: the same tables (and offsets), the target moved to the front.
  Scope ret;
  ret.tables.push_back(scope.tables.back());
  ret.tables.insert(ret.tables.end(), scope.tables.begin(), scope.tables.end() - 1);
  return BindReturningIn(items, &ret, out);
}

}  // namespace meridian::exec
