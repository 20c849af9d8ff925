// Binding of EXECUTE's arguments (PostgreSQL's EvaluateParams): each argument is an expression
// without tables, aggregates, subqueries or parameters of its own, assignment-cast to its
// parameter's type.
#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

Result<BoundExprPtr> Binder::BindExecuteArg(const ast::Expr& expr, Type type, int n) {
  Scope empty;
  // PostgreSQL evaluates the arguments without the request's parameters: `EXECUTE p($1)`
  // over the extended protocol is 42P02 "there is no parameter $1" there too.
  auto bound = BindStandalone(&empty,
                              ExprRules{"EXECUTE parameters", /*aggregates=*/false,
                                        /*columns=*/true, /*subqueries=*/false},
                              [&] { return BindExpr(expr); });
  if (!bound.ok()) return bound.status();
  BoundExprPtr e = std::move(bound).value();
  if (e->type.id != type.id && e->type.id != TypeId::kUnknown && !CanAssign(e->type, type)) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "parameter $" + std::to_string(n) + " of type " + e->type.Name() +
                             " cannot be coerced to the expected type " + type.Name())
        .WithHint("You will need to rewrite or cast the expression.")
        .WithPosition(expr.loc.position);
  }
  return Coerce(std::move(e), type, /*assignment=*/true, "");
}

}  // namespace meridian::exec
