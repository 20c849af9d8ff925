// RETURNING at execution: each row an INSERT, UPDATE or DELETE wrote is evaluated into the
// statement's returned rows (ExecContext::returned).
#include "execution/evaluator.h"
#include "execution/modify_table.h"

namespace meridian::exec {

// Evaluates RETURNING over row into exec->returned (when the statement has RETURNING).
Status AddReturnedRow(const BoundReturning& returning, const Row& row, ExecContext* exec) {
  if (returning.empty() || exec->returned == nullptr) return Status::Ok();
  EvalContext ctx{&row, nullptr, exec};
  Row out;
  out.reserve(returning.exprs.size());
  for (const BoundExprPtr& e : returning.exprs) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx));
    out.push_back(std::move(v));
  }
  exec->returned->push_back(std::move(out));
  return Status::Ok();
}

}  // namespace meridian::exec
