// DistinctOp: SELECT DISTINCT by a hash set of the visible columns' canonical key encoding,
// rows of new keys set aside by key hash beyond work_mem (HashSpill);
// DistinctOnOp: SELECT DISTINCT ON over rows sorted on its keys.
#include "binder/type_rules.h"
#include "catalog/catalog.h"
#include "execution/hash_key.h"
#include "execution/operators.h"

namespace meridian::exec {

DistinctOp::~DistinctOp() = default;

Status DistinctOp::Open(const EvalContext* outer, ExecContext* exec) {
  seen_.clear();
  exec_ = exec;
  budget_ = WorkMemBytes(exec);
  held_bytes_ = 0;
  can_spill_ = CanSpill(exec);
  spill_ = std::make_unique<HashSpill>(can_spill_ ? exec->catalog->temp_dir() : std::string());
  reader_.reset();
  file_.reset();
  read_ = 0;
  return child_->Open(outer, exec);
}

Result<bool> DistinctOp::Next(Row* row) {
  while (true) {
    bool more;
    if (reader_ != nullptr) {
      if ((++read_ & (kCheckInterval - 1)) == 0 && exec_ != nullptr && exec_->ctl != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      }
      MERIDIAN_ASSIGN_OR_RETURN(more, reader_->Next(row));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(more, child_->Next(row));
    }
    if (!more) {
      // This input is over: the rows set aside meanwhile, one file at a time.
      MERIDIAN_RETURN_IF_ERROR(spill_->EndInput());
      reader_.reset();
      MERIDIAN_ASSIGN_OR_RETURN(file_, spill_->Next());
      if (file_ == nullptr) return false;
      reader_ = std::make_unique<SpillFile::Reader>(file_.get());
      seen_.clear();
      held_bytes_ = 0;
      continue;
    }
    std::string key;
    for (size_t i = 0; i < n_ && i < row->size(); ++i) AppendKeyValue((*row)[i], &key);
    if (can_spill_ && held_bytes_ > budget_) {
      // Full: a key already seen is a duplicate of a row returned; a new one waits its turn.
      if (seen_.count(key) != 0) continue;
      MERIDIAN_RETURN_IF_ERROR(spill_->Add(*row, MixHash(std::hash<std::string_view>{}(key))));
      continue;
    }
    const size_t bytes = key.size() + sizeof(std::string) + 32;  // the set's node, roughly
    if (seen_.insert(std::move(key)).second) {
      held_bytes_ += bytes;
      return true;
    }
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
