// RecursiveUnionOp, WorkTableScanOp and the RowStore that holds their working and
// intermediate tables (recursive_union.h).
#include "execution/recursive_union.h"

#include "catalog/catalog.h"
#include "execution/hash_key.h"

namespace meridian::exec {

void RowStore::Reset(size_t budget, std::string spill_dir) {
  rows_.clear();
  held_bytes_ = 0;
  budget_ = budget;
  dir_ = std::move(spill_dir);
  file_.reset();
  count_ = 0;
}

Status RowStore::Append(const Row& row) {
  ++count_;
  if (file_ == nullptr) {
    held_bytes_ += RowMemoryBytes(row);
    if (held_bytes_ <= budget_ || dir_.empty()) {
      rows_.push_back(row);
      return Status::Ok();
    }
    MERIDIAN_ASSIGN_OR_RETURN(file_, SpillFile::Create(dir_));
  }
  return file_->Append(row);
}

Status RowStore::Finish() { return file_ != nullptr ? file_->Finish() : Status::Ok(); }

uint64_t RowStore::spilled_bytes() const { return file_ != nullptr ? file_->bytes() : 0; }

Result<bool> RowStore::Reader::Next(Row* row) {
  if (pos_ < store_->rows_.size()) {
    *row = store_->rows_[pos_++];
    return true;
  }
  if (store_->file_ == nullptr) return false;
  if (file_ == nullptr) file_ = std::make_unique<SpillFile::Reader>(store_->file_.get());
  return file_->Next(row);
}

Status RecursiveUnionOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  budget_ = WorkMemBytes(exec);
  spill_dir_ = CanSpill(exec) ? exec->catalog->temp_dir() : std::string();
  intermediate_.Reset(budget_, spill_dir_);
  work_->rows.Reset(budget_, spill_dir_);
  seen_.clear();
  in_recursive_ = false;
  done_ = false;
  iterations_ = 0;
  peak_spilled_ = 0;
  until_check_ = 0;
  return non_recursive_->Open(outer, exec);
}

Status RecursiveUnionOp::Poll() {
  if (--until_check_ > 0 || exec_ == nullptr || exec_->ctl == nullptr) return Status::Ok();
  until_check_ = kCheckInterval;
  return exec_->ctl->Check();
}

Result<bool> RecursiveUnionOp::Keep(const Row& row) {
  if (!all_ && !seen_.insert(EncodeKey(row)).second) return false;
  MERIDIAN_RETURN_IF_ERROR(intermediate_.Append(row));
  return true;
}

Result<bool> RecursiveUnionOp::NextIteration() {
  until_check_ = 0;  // poll at every iteration: one may produce a single row
  MERIDIAN_RETURN_IF_ERROR(Poll());
  MERIDIAN_RETURN_IF_ERROR(intermediate_.Finish());
  if (intermediate_.empty()) return false;
  peak_spilled_ = std::max(peak_spilled_, intermediate_.spilled_bytes());
  // The working table's readers are all closed: the recursive term is re-opened below.
  std::swap(work_->rows, intermediate_);
  intermediate_.Reset(budget_, spill_dir_);
  ++iterations_;
  MERIDIAN_RETURN_IF_ERROR(recursive_->Open(outer_, exec_));
  return true;
}

Result<bool> RecursiveUnionOp::Next(Row* row) {
  while (!done_) {
    MERIDIAN_RETURN_IF_ERROR(Poll());
    Operator* input = in_recursive_ ? recursive_.get() : non_recursive_.get();
    MERIDIAN_ASSIGN_OR_RETURN(bool more, input->Next(row));
    if (more) {
      MERIDIAN_ASSIGN_OR_RETURN(bool keep, Keep(*row));
      if (keep) return true;
      continue;
    }
    in_recursive_ = true;
    MERIDIAN_ASSIGN_OR_RETURN(bool again, NextIteration());
    if (!again) {
      done_ = true;
      // Nothing reads the tables any more: give their memory back now.
      work_->rows.Reset(0, {});
      intermediate_.Reset(0, {});
      seen_.clear();
    }
  }
  return false;
}

std::string RecursiveUnionOp::AnalyzeDetail() const {
  std::string detail = "Iterations: " + std::to_string(iterations_);
  if (peak_spilled_ > 0) {
    detail += "  Working Table Disk: " + KbText(peak_spilled_);
  }
  return detail;
}

Status WorkTableScanOp::Open(const EvalContext* /*outer*/, ExecContext* /*exec*/) {
  reader_ = std::make_unique<RowStore::Reader>(&work_->rows);
  return Status::Ok();
}

Result<bool> WorkTableScanOp::Next(Row* row) { return reader_->Next(row); }

}  // namespace meridian::exec
