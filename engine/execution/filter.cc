// FilterOp: passes the rows for which the predicate is TRUE (not FALSE, not NULL).
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

Status FilterOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  return child_->Open(outer, exec);
}

Result<bool> FilterOp::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
    if (!more) return false;
    ctx_.row = row;
    MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*predicate_, ctx_));
    if (pass) return true;
  }
}

void FilterOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used = needed;
  bool all = false;
  predicate_->MarkColumnsRead(&used, &all);
  if (!all) child_->PruneColumns(used);
}

}  // namespace meridian::exec
