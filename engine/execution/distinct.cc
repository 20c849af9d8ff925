// DistinctOp: SELECT DISTINCT by a hash set of the visible columns' canonical key encoding;
// DistinctOnOp: SELECT DISTINCT ON over rows sorted on its keys.
#include "binder/type_rules.h"
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

Status DistinctOnOp::Open(const EvalContext* outer, ExecContext* exec) {
  have_last_ = false;
  last_.clear();
  return child_->Open(outer, exec);
}

Result<bool> DistinctOnOp::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
    if (!more) return false;
    bool same = have_last_;
    for (size_t i = 0; same && i < columns_.size(); ++i) {
      const Value& a = (*row)[columns_[i]];
      const Value& b = last_[i];
      same = a.IsNull() ? b.IsNull() : !b.IsNull() && CompareValues(a, b) == 0;
    }
    if (same) continue;
    last_.clear();
    for (int c : columns_) last_.push_back((*row)[c]);
    have_last_ = true;
    return true;
  }
}

void DistinctOnOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used = needed;
  for (int c : columns_) {
    if (used.size() <= static_cast<size_t>(c)) used.resize(c + 1, false);
    used[c] = true;  // compared
  }
  child_->PruneColumns(used);
}

}  // namespace meridian::exec
