// SortOp: ORDER BY over several keys with ASC/DESC and NULLS FIRST/LAST; in memory up to the
// session's work_mem, an external merge sort beyond it (operators.h). Stable: equal keys keep
// their input order (runs are cut from the input in order and ties go to the earlier run).
// Polls for cancel between its sorting steps, while spilling and while merging.
#include <algorithm>

#include "binder/type_rules.h"
#include "catalog/catalog.h"
#include "execution/operators.h"
#include "execution/spill.h"
#include "main/session_settings.h"

namespace meridian::exec {

size_t WorkMemBytes(const ExecContext* exec) {
  constexpr size_t kDefaultWorkMem = size_t{64} << 20;
  if (exec == nullptr || exec->settings == nullptr) return kDefaultWorkMem;
  return static_cast<size_t>(exec->settings->work_mem_bytes());
}

// A run being merged (file set) or the rows still in memory (file null: rows_ from next_).
struct SortOp::Source {
  std::unique_ptr<SpillFile::Reader> reader;
  Row current;
};

SortOp::SortOp(OperatorPtr child, std::vector<SortKey> keys)
    : child_(std::move(child)), keys_(std::move(keys)) {}

SortOp::~SortOp() = default;

Status SortOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  rows_.clear();
  held_bytes_ = 0;
  peak_bytes_ = 0;
  sorted_ = false;
  next_ = 0;
  runs_.clear();
  levels_.clear();
  sources_.clear();
  heap_.clear();
  spilled_bytes_ = 0;
  return child_->Open(outer, exec);
}

int CompareSortKey(const Value& x, const Value& y, bool descending, bool nulls_first) {
  if (x.IsNull() || y.IsNull()) {
    if (x.IsNull() && y.IsNull()) return 0;
    return x.IsNull() == nulls_first ? -1 : 1;  // a NULL goes first exactly when NULLS FIRST
  }
  const int c = CompareValues(x, y);
  return descending ? -c : c;
}

bool SortOp::Less(const Row& a, const Row& b) const {
  for (const SortKey& k : keys_) {
    const int c = CompareSortKey(a[k.column], b[k.column], k.descending, k.nulls_first);
    if (c != 0) return c < 0;
  }
  return false;
}

bool SortOp::HeapAfter(size_t a, size_t b) const {
  if (Less(sources_[b].current, sources_[a].current)) return true;
  if (Less(sources_[a].current, sources_[b].current)) return false;
  return a > b;
}

Status SortOp::SortHeld() {
  auto less = [this](const Row& a, const Row& b) { return Less(a, b); };
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
  return Status::Ok();
}

Status SortOp::SpillHeld() {
  MERIDIAN_RETURN_IF_ERROR(SortHeld());
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> run,
                            SpillFile::Create(exec_->catalog->temp_dir()));
  int until_check = kCheckInterval;
  for (const Row& r : rows_) {
    MERIDIAN_RETURN_IF_ERROR(run->Append(r));
    if (--until_check <= 0 && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check = kCheckInterval;
    }
  }
  MERIDIAN_RETURN_IF_ERROR(run->Finish());
  spilled_bytes_ += run->bytes();
  runs_.push_back(std::move(run));
  rows_.clear();
  rows_.shrink_to_fit();
  held_bytes_ = 0;
  levels_.push_back(0);
  // Each run holds a file open. Runs are merged in tiers, as PostgreSQL merges in passes with
  // a bounded number of tapes: kMergeFan neighbouring runs of one level (the newest ones; the
  // levels never grow along runs_) become one run of the next level in their place, so ties
  // still go to the earlier input, at most (kMergeFan - 1) runs per level stay open, and each
  // row is rewritten about log(runs) / log(kMergeFan) times.
  while (runs_.size() >= kMergeFan &&
         std::all_of(levels_.end() - kMergeFan, levels_.end(),
                     [&](int level) { return level == levels_.back(); })) {
    const int level = levels_.back() + 1;
    MERIDIAN_RETURN_IF_ERROR(MergeRuns(runs_.size() - kMergeFan));
    levels_.resize(runs_.size() - 1);
    levels_.push_back(level);
  }
  return Status::Ok();
}

Status SortOp::MergeRuns(size_t first) {
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> merged,
                            SpillFile::Create(exec_->catalog->temp_dir()));
  MERIDIAN_RETURN_IF_ERROR(StartMerge(first, /*with_held=*/false));
  Row r;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, NextMerged(&r));
    if (!more) break;
    MERIDIAN_RETURN_IF_ERROR(merged->Append(r));
    if (--until_check <= 0 && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check = kCheckInterval;
    }
  }
  MERIDIAN_RETURN_IF_ERROR(merged->Finish());
  spilled_bytes_ += merged->bytes();
  sources_.clear();
  heap_.clear();
  runs_.resize(first);
  runs_.push_back(std::move(merged));
  return Status::Ok();
}

Status SortOp::StartMerge(size_t first, bool with_held) {
  // Sources are the runs from first on in input order, then the rows still held: a tie goes
  // to the lower index, the earlier input.
  sources_.clear();
  heap_.clear();
  const size_t nruns = runs_.size() - first;
  sources_.resize(nruns + (with_held ? 1 : 0));
  auto heap_less = [this](size_t a, size_t b) { return HeapAfter(a, b); };
  for (size_t i = 0; i < sources_.size(); ++i) {
    bool has = false;
    if (i < nruns) {
      sources_[i].reader = std::make_unique<SpillFile::Reader>(runs_[first + i].get());
      MERIDIAN_ASSIGN_OR_RETURN(has, sources_[i].reader->Next(&sources_[i].current));
    } else if (next_ < rows_.size()) {
      sources_[i].current = std::move(rows_[next_++]);
      has = true;
    }
    if (has) {
      heap_.push_back(i);
      std::push_heap(heap_.begin(), heap_.end(), heap_less);
    }
  }
  return Status::Ok();
}

Result<bool> SortOp::NextMerged(Row* row) {
  if (heap_.empty()) return false;
  auto heap_less = [this](size_t a, size_t b) { return HeapAfter(a, b); };
  std::pop_heap(heap_.begin(), heap_.end(), heap_less);
  const size_t i = heap_.back();
  heap_.pop_back();
  Source& s = sources_[i];
  *row = std::move(s.current);
  bool has = false;
  if (s.reader != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(has, s.reader->Next(&s.current));
  } else if (next_ < rows_.size()) {  // the rows held (only in the final merge)
    s.current = std::move(rows_[next_++]);
    has = true;
  }
  if (has) {
    heap_.push_back(i);
    std::push_heap(heap_.begin(), heap_.end(), heap_less);
  }
  return true;
}

Result<bool> SortOp::Next(Row* row) {
  if (!sorted_) {
    const size_t budget = WorkMemBytes(exec_);
    const bool can_spill = CanSpill(exec_);
    Row r;
    int until_check = kCheckInterval;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&r));
      if (!more) break;
      held_bytes_ += RowMemoryBytes(r);
      rows_.push_back(std::move(r));
      peak_bytes_ = std::max(peak_bytes_, held_bytes_);
      if (held_bytes_ > budget && can_spill) MERIDIAN_RETURN_IF_ERROR(SpillHeld());
      if (--until_check <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
        until_check = kCheckInterval;
      }
    }
    MERIDIAN_RETURN_IF_ERROR(SortHeld());
    if (!runs_.empty()) MERIDIAN_RETURN_IF_ERROR(StartMerge(0, /*with_held=*/true));
    sorted_ = true;
  }
  if (!runs_.empty()) return NextMerged(row);
  if (next_ >= rows_.size()) return false;
  *row = std::move(rows_[next_++]);
  return true;
}

std::string SortOp::AnalyzeDetail() const {
  if (!runs_.empty()) return "Sort Method: external merge  Disk: " + KbText(spilled_bytes_);
  return "Sort Method: quicksort  Memory: " + KbText(peak_bytes_);
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
