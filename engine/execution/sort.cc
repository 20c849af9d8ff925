// SortOp: ORDER BY over several keys with ASC/DESC and NULLS FIRST/LAST, in memory (interim;
// see operators.h). The sort is stable so equal keys keep their input order, and polls for
// cancel between its runs and merges.
#include <algorithm>

#include "execution/operators.h"
#include "binder/type_rules.h"

namespace meridian::exec {

Status SortOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  rows_.clear();
  sorted_ = false;
  next_ = 0;
  return child_->Open(outer, exec);
}

Result<bool> SortOp::Next(Row* row) {
  if (!sorted_) {
    Row r;
    int until_check = kCheckInterval;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&r));
      if (!more) break;
      rows_.push_back(std::move(r));
      if (--until_check <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
        until_check = kCheckInterval;
      }
    }
    auto less = [this](const Row& a, const Row& b) {
      for (const SortKey& k : keys_) {
        const Value& x = a[k.column];
        const Value& y = b[k.column];
        if (x.IsNull() || y.IsNull()) {
          if (x.IsNull() && y.IsNull()) continue;
          // A NULL goes first exactly when NULLS FIRST.
          return x.IsNull() == k.nulls_first;
        }
        int c = CompareValues(x, y);
        if (c != 0) return k.descending ? c > 0 : c < 0;
      }
      return false;
    };
    // A merge sort in steps, so a cancel or timeout is seen between them: sorted runs, then
    // merges of neighbouring runs (both stable).
    constexpr size_t kRun = size_t{1} << 15;
    auto check = [this]() {
      return exec_ != nullptr && exec_->ctl != nullptr ? exec_->ctl->Check() : Status::Ok();
    };
    const size_t n = rows_.size();
    for (size_t lo = 0; lo < n; lo += kRun) {
      std::stable_sort(rows_.begin() + lo, rows_.begin() + std::min(n, lo + kRun), less);
      MERIDIAN_RETURN_IF_ERROR(check());
    }
    for (size_t width = kRun; width < n; width *= 2) {
      for (size_t lo = 0; lo + width < n; lo += 2 * width) {
        std::inplace_merge(rows_.begin() + lo, rows_.begin() + lo + width,
                           rows_.begin() + std::min(n, lo + 2 * width), less);
        MERIDIAN_RETURN_IF_ERROR(check());
      }
    }
    sorted_ = true;
  }
  if (next_ >= rows_.size()) return false;
  *row = std::move(rows_[next_++]);
  return true;
}

void SortOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used = needed;
  for (const SortKey& k : keys_) {
    const auto c = static_cast<size_t>(k.column);
    if (c >= used.size()) used.resize(c + 1, false);
    used[c] = true;
  }
  child_->PruneColumns(used);
}

}  // namespace meridian::exec
