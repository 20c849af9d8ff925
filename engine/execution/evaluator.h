// Expression evaluation over bound expressions with SQL's three-valued logic: NULL propagates
// through operators and functions, AND/OR follow Kleene logic, a predicate passes a row only
// when it is TRUE. Arithmetic checks overflow (22003) and division by zero (22012).
#pragma once

#include "binder/bound_expr.h"
#include "execution/operator.h"
#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

Result<Value> Eval(const BoundExpr& expr, const EvalContext& ctx);
// The value of expr without a copy when it is a column of ctx.row (the common case of join
// keys, GROUP BY columns and aggregate arguments); anything else is evaluated into *scratch.
// The pointer lives as long as ctx.row and *scratch.
inline Result<const Value*> EvalRef(const BoundExpr& expr, const EvalContext& ctx, Value* scratch) {
  if (expr.kind == BoundKind::kColumn && expr.depth == 0 && ctx.row != nullptr &&
      static_cast<size_t>(expr.index) < ctx.row->size()) {
    return &(*ctx.row)[static_cast<size_t>(expr.index)];
  }
  MERIDIAN_ASSIGN_OR_RETURN(*scratch, Eval(expr, ctx));
  return static_cast<const Value*>(scratch);
}
// True only when expr evaluates to TRUE (not FALSE, not NULL). For a filter: an AND stops at
// its first operand that is not TRUE (the rest is not evaluated).
Result<bool> EvalPredicate(const BoundExpr& expr, const EvalContext& ctx);
// The session and system-catalog functions (Func::kVersion and after; system_functions.cc).
Result<Value> EvalSystemFunction(const BoundExpr& e, const EvalContext& ctx);
// array_functions.cc: ARRAY[...] (not ARRAY(subquery)), x op ANY|ALL (array), subscripts and
// the array functions (Func::kArrayToString .. kStringToArray).
Result<Value> EvalArrayExpr(const BoundExpr& e, const EvalContext& ctx);
// The first column of every row of e's subquery (e: kInSubquery, kSubquery, kExists or
// ARRAY(subquery)); an uncorrelated one runs once per statement run and is cached.
Result<const std::vector<Value>*> SubqueryRows(const BoundExpr& e, const EvalContext& ctx);
// x op y of two non-NULL values (=, <>, <, <=, >, >=).
Result<Value> CompareOp(ast::BinaryOp op, const Value& a, const Value& b);

}  // namespace meridian::exec
