// SetOpOp: UNION / INTERSECT / EXCEPT with and without ALL (see operators.h). Duplicates are
// judged on whole rows with NULLs equal, as SQL's set operations do.
#include <algorithm>

#include "catalog/catalog.h"
#include "execution/hash_key.h"
#include "execution/operators.h"

namespace meridian::exec {
namespace {

uint64_t KeyHash(const std::string& key) { return MixHash(std::hash<std::string_view>{}(key)); }

// What an entry of counts_ costs, roughly: the key's bytes, the node and its bucket.
size_t EntryBytes(const std::string& key) { return key.size() + sizeof(std::string) + 40; }

}  // namespace

SetOpOp::SetOpOp(OperatorPtr left, OperatorPtr right, ast::SetOp op, bool all)
    : left_(std::move(left)), right_(std::move(right)), op_(op), all_(all) {}

SetOpOp::~SetOpOp() = default;

Status SetOpOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  right_loaded_ = false;
  left_done_ = false;
  counts_.clear();
  budget_ = WorkMemBytes(exec);
  can_spill_ = CanSpill(exec);
  held_bytes_ = peak_bytes_ = 0;
  parts_.reset();
  left_reader_.reset();
  left_file_.reset();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Status SetOpOp::Check() {
  if (--until_check_ <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
    until_check_ = kCheckInterval;
    return exec_->ctl->Check();
  }
  return Status::Ok();
}

void SetOpOp::Count(const std::string& key, int64_t count) {
  auto [it, inserted] = counts_.try_emplace(key, 0);
  it->second += count;
  if (inserted) {
    held_bytes_ += EntryBytes(key);
    peak_bytes_ = std::max(peak_bytes_, held_bytes_);
  }
}

Status SetOpOp::LoadRight() {
  // The right input's row counts; past work_mem, both inputs to partitions.
  Row r;
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(Check());
    MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
    if (!more) break;
    std::string key = EncodeKey(r);
    if (parts_ == nullptr) {
      Count(key, 1);
      if (!can_spill_ || held_bytes_ <= budget_) continue;
      parts_ = std::make_unique<HashSpill>(exec_->catalog->temp_dir(), 2);
      for (const auto& [k, n] : counts_) {
        MERIDIAN_RETURN_IF_ERROR(parts_->Add({Value::String(k), Value::Int(n)}, KeyHash(k), 0));
      }
      counts_.clear();
      held_bytes_ = 0;
      continue;
    }
    const uint64_t hash = KeyHash(key);
    MERIDIAN_RETURN_IF_ERROR(parts_->Add({Value::String(std::move(key)), Value::Int(1)}, hash, 0));
  }
  right_loaded_ = true;
  if (parts_ == nullptr) return Status::Ok();
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(Check());
    MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(&r));
    if (!more) break;
    MERIDIAN_RETURN_IF_ERROR(parts_->Add(r, KeyHash(EncodeKey(r)), 1));
  }
  left_done_ = true;
  return parts_->EndInput();
}

Result<bool> SetOpOp::NextPartition() {
  // The next partition's right counts in memory and its left rows to read; false at the end.
  while (true) {
    counts_.clear();
    held_bytes_ = 0;
    left_reader_.reset();
    left_file_.reset();
    std::vector<std::unique_ptr<SpillFile>> files;
    MERIDIAN_ASSIGN_OR_RETURN(bool any, parts_->NextPartition(&files));
    if (!any) return false;
    std::unique_ptr<SpillFile> right = std::move(files[0]);
    left_file_ = std::move(files[1]);
    if (left_file_ == nullptr) continue;  // nothing to return
    if (right == nullptr && op_ == ast::SetOp::kIntersect) continue;
    bool fits = true;
    Row r;
    if (right != nullptr) {
      SpillFile::Reader reader(right.get());
      while (true) {
        MERIDIAN_RETURN_IF_ERROR(Check());
        MERIDIAN_ASSIGN_OR_RETURN(bool more, reader.Next(&r));
        if (!more) break;
        Count(r[0].AsString(), r[1].AsInt());
        if (held_bytes_ > budget_ && parts_->level() < HashSpill::kMaxLevel) {
          fits = false;
          break;
        }
      }
    }
    if (fits) {
      left_reader_ = std::make_unique<SpillFile::Reader>(left_file_.get());
      return true;
    }
    // Too many distinct rows: split both sides by the next hash bits.
    counts_.clear();
    held_bytes_ = 0;
    for (SpillFile* file : {right.get(), left_file_.get()}) {
      const size_t side = file == right.get() ? 0 : 1;
      SpillFile::Reader reader(file);
      while (true) {
        MERIDIAN_RETURN_IF_ERROR(Check());
        MERIDIAN_ASSIGN_OR_RETURN(bool more, reader.Next(&r));
        if (!more) break;
        const uint64_t hash = KeyHash(side == 0 ? r[0].AsString() : EncodeKey(r));
        MERIDIAN_RETURN_IF_ERROR(parts_->Add(r, hash, side));
      }
    }
    MERIDIAN_RETURN_IF_ERROR(parts_->EndInput());
  }
}

Result<bool> SetOpOp::NextLeft(Row* row) {
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(Check());
    if (left_reader_ != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_reader_->Next(row));
      if (more) return true;
    } else if (!left_done_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(row));
      if (more) return true;
      left_done_ = true;
    }
    if (parts_ == nullptr) return false;
    MERIDIAN_ASSIGN_OR_RETURN(bool any, NextPartition());
    if (!any) return false;
  }
}

Status SetOpOp::SpillLeft(Row* row, const std::string& key) {
  // EXCEPT's returned rows filled work_mem: row and the rest of the current left rows not in
  // counts_ (not in the right input, not returned yet) wait in partitions with no right rows.
  if (parts_ == nullptr) parts_ = std::make_unique<HashSpill>(exec_->catalog->temp_dir(), 2);
  MERIDIAN_RETURN_IF_ERROR(parts_->Add(*row, KeyHash(key), 1));
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(Check());
    bool more = false;
    if (left_reader_ != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(more, left_reader_->Next(row));
    } else if (!left_done_) {
      MERIDIAN_ASSIGN_OR_RETURN(more, left_->Next(row));
      left_done_ = !more;
    }
    if (!more) break;
    std::string k = EncodeKey(*row);
    if (counts_.count(k) != 0) continue;
    MERIDIAN_RETURN_IF_ERROR(parts_->Add(*row, KeyHash(k), 1));
  }
  left_reader_.reset();
  left_file_.reset();
  return parts_->EndInput();
}

Result<bool> SetOpOp::Next(Row* row) {
  if (op_ == ast::SetOp::kUnion) {
    // Left rows, then right rows (UNION without ALL: a DistinctOp above, planner's choice).
    MERIDIAN_RETURN_IF_ERROR(Check());
    if (!left_done_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(row));
      if (more) return true;
      left_done_ = true;
    }
    return right_->Next(row);
  }
  if (!right_loaded_) {
    MERIDIAN_RETURN_IF_ERROR(LoadRight());
    if (parts_ != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool any, NextPartition());
      if (!any) return false;
    }
  }
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, NextLeft(row));
    if (!more) return false;
    std::string key = EncodeKey(*row);
    auto it = counts_.find(key);
    const bool in_right = it != counts_.end() && it->second > 0;
    if (op_ == ast::SetOp::kIntersect) {
      if (!in_right) continue;
      // INTERSECT ALL: min(m, n) copies; INTERSECT: the first one.
      it->second = all_ ? it->second - 1 : 0;
      return true;
    }
    if (all_) {  // EXCEPT ALL: max(m - n, 0) copies
      if (!in_right) return true;
      --it->second;
      continue;
    }
    if (it != counts_.end()) continue;  // in the right input, or returned already
    if (can_spill_ && held_bytes_ > budget_) {
      MERIDIAN_RETURN_IF_ERROR(SpillLeft(row, key));
      continue;
    }
    Count(key, -1);
    return true;
  }
}

std::string SetOpOp::AnalyzeDetail() const {
  if (op_ == ast::SetOp::kUnion) return {};
  const uint64_t batches = parts_ == nullptr ? 1 : parts_->batches();
  std::string out =
      "Batches: " + std::to_string(batches) + "  Memory Usage: " + KbText(peak_bytes_);
  if (parts_ != nullptr && parts_->disk_bytes() > 0) {
    out += "  Disk Usage: " + KbText(parts_->disk_bytes());
  }
  return out;
}

}  // namespace meridian::exec
