// SortOp: ORDER BY over several keys with ASC/DESC and NULLS FIRST/LAST, in memory (interim;
// see operators.h). The sort is stable so equal keys keep their input order.
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
    std::stable_sort(rows_.begin(), rows_.end(), [this](const Row& a, const Row& b) {
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
    });
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
