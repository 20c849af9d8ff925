// ValuesOp: produces rows of expressions, evaluated in the enclosing query's context.
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

Status ValuesOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  next_ = 0;
  return Status::Ok();
}

bool ValuesOp::OneRowWithoutSubquery() const {
  if (rows_.size() != 1) return false;
  for (const BoundExprPtr& e : rows_[0]) {
    if (e->ContainsSubquery()) return false;
  }
  return true;
}

Result<bool> ValuesOp::Next(Row* row) {
  if (next_ >= rows_.size()) return false;
  const std::vector<BoundExprPtr>& exprs = rows_[next_++];
  Row empty;
  EvalContext ctx = ctx_;
  ctx.row = &empty;
  row->clear();
  row->reserve(exprs.size());
  for (const BoundExprPtr& e : exprs) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx));
    row->push_back(std::move(v));
  }
  return true;
}

}  // namespace meridian::exec
