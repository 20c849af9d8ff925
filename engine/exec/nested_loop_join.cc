// NestedLoopJoinOp: the cross product behind a comma-separated FROM list; WHERE filters it.
// The right input is materialised once per Open, so it is scanned only once.
#include "exec/operators.h"

namespace meridian::exec {

Status NestedLoopJoinOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  materialised_ = false;
  have_left_ = false;
  right_rows_.clear();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Result<bool> NestedLoopJoinOp::Next(Row* row) {
  if (!materialised_) {
    Row r;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
      if (!more) break;
      right_rows_.push_back(std::move(r));
    }
    materialised_ = true;
  }
  if (right_rows_.empty()) return false;
  while (true) {
    if (!have_left_ || right_pos_ >= right_rows_.size()) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(&left_row_));
      if (!more) return false;
      have_left_ = true;
      right_pos_ = 0;
    }
    if (--until_check_ <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check_ = kCheckInterval;
    }
    const Row& right = right_rows_[right_pos_++];
    *row = left_row_;
    row->insert(row->end(), right.begin(), right.end());
    return true;
  }
}

}  // namespace meridian::exec
