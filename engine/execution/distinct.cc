// DistinctOp: SELECT DISTINCT by a hash set of the visible columns' canonical key encoding.
#include "catalog/key_encoding.h"
#include "execution/operators.h"

namespace meridian::exec {

Status DistinctOp::Open(const EvalContext* outer, ExecContext* exec) {
  seen_.clear();
  return child_->Open(outer, exec);
}

Result<bool> DistinctOp::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
    if (!more) return false;
    std::string key;
    for (size_t i = 0; i < n_ && i < row->size(); ++i) catalog::AppendKeyValue((*row)[i], &key);
    if (seen_.insert(std::move(key)).second) return true;
  }
}

void DistinctOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used = needed;
  if (used.size() < n_) used.resize(n_, false);
  for (size_t i = 0; i < n_; ++i) used[i] = true;  // compared
  child_->PruneColumns(used);
}

}  // namespace meridian::exec
