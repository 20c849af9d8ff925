// Binding of RETURNING (INSERT, UPDATE, DELETE): the items are bound like a select list over a
// scope holding only the target table, whose row the executor evaluates them on.
#include "binder/binder.h"

namespace meridian::exec {

Status Binder::BindReturning(const std::vector<ast::SelectItem>& items,
                             const std::shared_ptr<catalog::Table>& table, BoundReturning* out,
                             const std::string& alias) {
  if (items.empty()) return Status::Ok();
  Scope scope;
  scope.tables.push_back(TableScope(alias.empty() ? table->name() : alias, table, 0));
  ScopeSwitch enter(this, &scope);
  correlated_.assign(1, false);
  rules_ = ExprRules{"RETURNING", false, true, true};
  BoundSelect list;
  std::vector<const ast::Expr*> asts;
  MERIDIAN_RETURN_IF_ERROR(BindSelectList(items, false, &list, &asts));
  out->exprs = std::move(list.projections);
  out->columns = std::move(list.columns);
  return Status::Ok();
}

}  // namespace meridian::exec
