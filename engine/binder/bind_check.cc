// Binding of CHECK constraints (PostgreSQL's transformExpr with EXPR_KIND_CHECK_CONSTRAINT):
// over the table's row, boolean, without subqueries, aggregates or parameters; and of index
// expressions and predicates (EXPR_KIND_INDEX_EXPRESSION / EXPR_KIND_INDEX_PREDICATE) alike.
#include "binder/binder.h"

namespace meridian::exec {

Result<BoundExprPtr> Binder::BindCheck(const ast::Expr& expr, const catalog::TableSchema& schema,
                                       std::shared_ptr<catalog::Table> table) {
  Scope scope;
  scope.tables.push_back(SchemaScope(schema, std::move(table), 0));
  return BindStandalone(&scope, ExprRules{"check constraints", false, true, false},
                        [&] { return BindBoolean(expr, "CHECK"); });
}

Result<std::vector<BoundCheck>> Binder::BindChecks(const std::shared_ptr<catalog::Table>& table) {
  std::vector<BoundCheck> out;
  const catalog::TableSchema& schema = table->schema();
  for (const catalog::CheckConstraint& c : schema.checks) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindCheck(*c.expr, schema, table));
    out.push_back({c.name, std::move(e)});
  }
  return out;
}

Result<BoundExprPtr> Binder::BindIndexExpr(const ast::Expr& expr,
                                           const catalog::TableSchema& schema, bool predicate) {
  Scope scope;
  scope.tables.push_back(SchemaScope(schema, nullptr, 0));
  if (predicate) {
    return BindStandalone(&scope, ExprRules{"index predicate", false, true, false},
                          [&] { return BindBoolean(expr, "WHERE"); });
  }
  return BindStandalone(&scope, ExprRules{"index expression", false, true, false},
                        [&] { return BindExpr(expr); });
}

}  // namespace meridian::exec
