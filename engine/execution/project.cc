// ProjectOp computes the select list (plus hidden ORDER BY columns); TrimOp drops the hidden
// columns again after sorting.
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

Status ProjectOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  return child_->Open(outer, exec);
}

Result<bool> ProjectOp::Next(Row* row) {
  MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&input_));
  if (!more) return false;
  ctx_.row = &input_;
  row->clear();
  row->reserve(exprs_.size());
  for (const BoundExprPtr& e : exprs_) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx_));
    row->push_back(std::move(v));
  }
  return true;
}

void ProjectOp::PruneColumns(const std::vector<bool>& /*needed*/) {
  std::vector<bool> used;
  bool all = false;
  for (const BoundExprPtr& e : exprs_) e->MarkColumnsRead(&used, &all);
  if (!all) child_->PruneColumns(used);
}

bool ProjectOp::QuickRead() const {
  if (!child_->QuickRead()) return false;
  for (const BoundExprPtr& e : exprs_) {
    if (e->ContainsSubquery()) return false;
  }
  return true;
}

Result<bool> TrimOp::Next(Row* row) {
  MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
  if (more && row->size() > n_) row->resize(n_);
  return more;
}

}  // namespace meridian::exec
