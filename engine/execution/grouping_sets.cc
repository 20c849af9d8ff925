// SpoolOp and GroupingSetsAggregateOp (grouping_sets.h).
#include "execution/grouping_sets.h"

#include <algorithm>

#include "catalog/catalog.h"
#include "execution/spill.h"

namespace meridian::exec {

Status SpoolOp::Open(const EvalContext* outer, ExecContext* exec) {
  if (filled_) {
    filling_ = false;
    reader_ = std::make_unique<RowStore::Reader>(&store_);
    return Status::Ok();
  }
  filling_ = true;
  reader_.reset();
  store_.Reset(WorkMemBytes(exec), CanSpill(exec) ? exec->catalog->temp_dir() : std::string());
  return child_->Open(outer, exec);
}

Result<bool> SpoolOp::Next(Row* row) {
  if (!filling_) return reader_->Next(row);
  MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
  if (more) {
    MERIDIAN_RETURN_IF_ERROR(store_.Append(*row));
    return true;
  }
  MERIDIAN_RETURN_IF_ERROR(store_.Finish());
  filled_ = true;
  filling_ = false;
  reader_ = std::make_unique<RowStore::Reader>(&store_);
  return false;
}

GroupingSetsAggregateOp::GroupingSetsAggregateOp(OperatorPtr child,
                                                 std::vector<BoundExprPtr> groups,
                                                 std::vector<std::vector<int>> sets,
                                                 std::vector<BoundExprPtr> aggregates)
    : num_keys_(groups.size()), sets_(std::move(sets)) {
  std::vector<BoundExprPtr> computed;
  for (BoundExprPtr& a : aggregates) {
    if (a->agg == AggFunc::kGrouping && a->children.empty()) {
      slots_.push_back(-1);
    } else {
      slots_.push_back(static_cast<int>(computed.size()));
      computed.push_back(std::move(a));
    }
  }
  auto spool = std::make_unique<SpoolOp>(std::move(child));
  spool_ = spool.get();
  agg_ = std::make_unique<HashAggregateOp>(std::move(spool), std::move(groups),
                                           std::move(computed), false);
}

void GroupingSetsAggregateOp::PruneColumns(const std::vector<bool>& /*needed*/) {
  agg_->PruneColumns(std::vector<bool>(num_keys_ + slots_.size(), true));
}

Status GroupingSetsAggregateOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  set_ = 0;
  batches_ = disk_bytes_ = 0;
  peak_bytes_ = 0;
  spool_->Restart();
  return OpenSet();
}

Status GroupingSetsAggregateOp::OpenSet() {
  const std::vector<int>& set = sets_[set_];
  agg_->SelectKeys(std::vector<size_t>(set.begin(), set.end()), set.empty());
  set_open_ = true;
  return agg_->Open(outer_, exec_);
}

Result<bool> GroupingSetsAggregateOp::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, agg_->Next(&input_));
    if (more) break;
    if (!sets_[set_].empty()) {
      batches_ = std::max(batches_, agg_->Batches());
      peak_bytes_ = std::max(peak_bytes_, agg_->PeakBytes());
      disk_bytes_ += agg_->DiskBytes();
    }
    if (++set_ >= sets_.size()) {
      set_ = sets_.size() - 1;
      return false;
    }
    MERIDIAN_RETURN_IF_ERROR(OpenSet());
  }
  const std::vector<int>& set = sets_[set_];
  row->assign(num_keys_ + slots_.size(), Value::Null());
  for (size_t k = 0; k < set.size(); ++k) (*row)[static_cast<size_t>(set[k])] = input_[k];
  for (size_t i = 0; i < slots_.size(); ++i) {
    (*row)[num_keys_ + i] = slots_[i] < 0 ? Value::Int(static_cast<int64_t>(set_))
                                          : input_[set.size() + static_cast<size_t>(slots_[i])];
  }
  return true;
}

std::string GroupingSetsAggregateOp::AnalyzeDetail() const {
  if (batches_ == 0) return {};  // no hashed set has run
  std::string out =
      "Batches: " + std::to_string(batches_) + "  Memory Usage: " + KbText(peak_bytes_);
  if (disk_bytes_ > 0) out += "  Disk Usage: " + KbText(disk_bytes_);
  if (spool_->spilled_bytes() > 0) out += "  Spool Disk Usage: " + KbText(spool_->spilled_bytes());
  return out;
}

}  // namespace meridian::exec
