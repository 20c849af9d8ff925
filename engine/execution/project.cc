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
  // The caller's row is reused row after row: assigning into its slots keeps a slot that held
  // a value of the same kind a plain copy (Value::operator=), where clear() and push_back
  // destroyed and rebuilt every value. A plain column is read in place (EvalRef), not copied
  // into a temporary first.
  static const Value kNull;
  row->resize(exprs_.size());
  Value scratch;
  for (size_t i = 0; i < exprs_.size(); ++i) {
    if (i < skip_.size() && skip_[i]) {
      (*row)[i] = kNull;
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*exprs_[i], ctx_, &scratch));
    if (v == &scratch) {
      (*row)[i] = std::move(scratch);
    } else {
      (*row)[i] = *v;
    }
  }
  return true;
}

void ProjectOp::PruneColumns(const std::vector<bool>& needed) {
  // A column nobody above reads and that only copies an input column is not computed, and
  // its input column is not asked for (the reordering projection over a join, whose every
  // column is such a copy). Any other expression is still evaluated: it may fail or be
  // volatile.
  std::vector<bool> used;
  bool all = false;
  skip_.assign(exprs_.size(), false);
  for (size_t i = 0; i < exprs_.size(); ++i) {
    const BoundExpr& e = *exprs_[i];
    const bool wanted = i >= needed.size() || needed[i];
    if (!wanted && e.kind == BoundKind::kColumn && e.depth == 0) {
      skip_[i] = true;
      continue;
    }
    e.MarkColumnsRead(&used, &all);
  }
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
