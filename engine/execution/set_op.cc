// SetOpOp: UNION / INTERSECT / EXCEPT with and without ALL (see operators.h). Duplicates are
// judged on whole rows with NULLs equal, as SQL's set operations do.
#include "catalog/key_encoding.h"
#include "execution/operators.h"

namespace meridian::exec {

Status SetOpOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  right_loaded_ = false;
  left_done_ = false;
  right_counts_.clear();
  emitted_.clear();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Result<bool> SetOpOp::Next(Row* row) {
  auto check = [&]() -> Status {
    if (--until_check_ <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
      until_check_ = kCheckInterval;
      return exec_->ctl->Check();
    }
    return Status::Ok();
  };
  if (op_ == ast::SetOp::kUnion) {
    // Left rows, then right rows (UNION without ALL: a DistinctOp above, planner's choice).
    while (true) {
      MERIDIAN_RETURN_IF_ERROR(check());
      bool more = false;
      if (!left_done_) {
        MERIDIAN_ASSIGN_OR_RETURN(more, left_->Next(row));
        if (!more) left_done_ = true;
      }
      if (left_done_) {
        MERIDIAN_ASSIGN_OR_RETURN(more, right_->Next(row));
        if (!more) return false;
      }
      return true;
    }
  }
  if (!right_loaded_) {
    Row r;
    while (true) {
      MERIDIAN_RETURN_IF_ERROR(check());
      MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
      if (!more) break;
      ++right_counts_[catalog::EncodeKey(r)];
    }
    right_loaded_ = true;
  }
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(check());
    MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(row));
    if (!more) return false;
    std::string key = catalog::EncodeKey(*row);
    auto it = right_counts_.find(key);
    const bool in_right = it != right_counts_.end() && it->second > 0;
    if (op_ == ast::SetOp::kIntersect) {
      if (!in_right) continue;
      if (all_) {
        --it->second;  // INTERSECT ALL: min(m, n) copies
        return true;
      }
      if (emitted_.insert(std::move(key)).second) return true;
    } else {  // EXCEPT
      if (all_) {
        if (in_right) {
          --it->second;  // EXCEPT ALL: max(m - n, 0) copies
          continue;
        }
        return true;
      }
      if (!in_right && emitted_.insert(std::move(key)).second) return true;
    }
  }
}

}  // namespace meridian::exec
