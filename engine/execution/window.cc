// WindowOp (window.h): per partition, the peer groups, then each window function over every
// row: ranking from the peer groups, lag/lead by offset, first/last/nth_value and aggregates
// over each row's frame. An aggregate's state grows with the frame while the frame's start
// stays (the default frame, ROWS UNBOUNDED PRECEDING, whole partitions: linear) and is rebuilt
// when the start moves (a sliding ROWS frame: rows × frame width).
#include "execution/window.h"

#include <algorithm>

#include "binder/type_rules.h"
#include "execution/aggregate_state.h"
#include "execution/evaluator.h"

namespace meridian::exec {

using Bound = WindowClause::Bound;

FrameRange WindowFrameOf(const WindowClause& w, size_t i, size_t n, size_t peer_begin,
                         size_t peer_end, int64_t start_offset, int64_t end_offset) {
  // Offsets beyond the partition clamp to it (they may be as large as INT64_MAX).
  const auto so = static_cast<size_t>(std::min<int64_t>(start_offset, static_cast<int64_t>(n)));
  const auto eo = static_cast<size_t>(std::min<int64_t>(end_offset, static_cast<int64_t>(n)));
  FrameRange r;
  switch (w.start) {
    case Bound::kUnboundedPreceding:
      r.begin = 0;
      break;
    case Bound::kPreceding:
      r.begin = i >= so ? i - so : 0;
      break;
    case Bound::kCurrentRow:
      r.begin = w.rows ? i : peer_begin;
      break;
    case Bound::kFollowing:
      r.begin = std::min(n, i + so);
      break;
    case Bound::kUnboundedFollowing:
      r.begin = n;
      break;
  }
  switch (w.end) {
    case Bound::kUnboundedFollowing:
      r.end = n;
      break;
    case Bound::kFollowing:
      r.end = std::min(n, i + eo + 1);
      break;
    case Bound::kCurrentRow:
      r.end = w.rows ? i + 1 : peer_end;
      break;
    case Bound::kPreceding:
      r.end = i + 1 >= eo ? i + 1 - eo : 0;
      break;
    case Bound::kUnboundedPreceding:
      r.end = 0;
      break;
  }
  if (r.end < r.begin) r.end = r.begin;
  return r;
}

std::vector<int32_t> NtileOf(size_t n, int64_t buckets) {
  // PostgreSQL's window_ntile: `boundary` rows per bucket, one more while buckets below
  // `remainder` are filled.
  std::vector<int32_t> out(n);
  int64_t total = static_cast<int64_t>(n);
  int64_t boundary = total / buckets;
  int64_t remainder = 0;
  if (boundary <= 0) {
    boundary = 1;
  } else {
    remainder = total % buckets;
    if (remainder != 0) ++boundary;
  }
  int32_t ntile = 1;
  int64_t rows_in_bucket = 0;
  for (size_t i = 0; i < n; ++i) {
    ++rows_in_bucket;
    if (boundary < rows_in_bucket) {
      if (remainder != 0 && ntile == remainder) {
        remainder = 0;
        --boundary;
      }
      ++ntile;
      rows_in_bucket = 1;
    }
    out[i] = ntile;
  }
  return out;
}

WindowOp::WindowOp(OperatorPtr child, int pass_width, std::vector<int> partition_cols,
                   std::vector<int> order_cols, std::vector<BoundExprPtr> functions)
    : child_(std::move(child)),
      pass_width_(pass_width),
      partition_cols_(std::move(partition_cols)),
      order_cols_(std::move(order_cols)),
      functions_(std::move(functions)),
      window_(functions_.front()->window.get()) {}

void WindowOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used(needed.begin(),
                         needed.begin() + std::min<ptrdiff_t>(pass_width_,
                                                               static_cast<ptrdiff_t>(needed.size())));
  bool all = false;
  auto mark = [&](int c) {
    const auto i = static_cast<size_t>(c);
    if (i >= used.size()) used.resize(i + 1, false);
    used[i] = true;
  };
  for (int c : partition_cols_) mark(c);
  for (int c : order_cols_) mark(c);
  for (const BoundExprPtr& f : functions_) f->MarkColumnsRead(&used, &all);
  if (!all) child_->PruneColumns(used);
}

Status WindowOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  offsets_ready_ = false;
  child_done_ = false;
  has_pending_ = false;
  rows_.clear();
  results_.assign(functions_.size(), {});
  next_ = 0;
  return child_->Open(outer, exec);
}

Status WindowOp::EvaluateOffsets() {
  auto eval = [&](const BoundExprPtr& e, const char* which, int64_t* out) -> Status {
    if (e == nullptr) return Status::Ok();
    ctx_.row = nullptr;
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx_));
    if (v.IsNull()) {
      return Status::Error(sqlstate::kNullValueNotAllowed,
                           std::string("frame ") + which + " offset must not be null");
    }
    if (v.AsInt() < 0) {
      return Status::Error(sqlstate::kInvalidPrecedingOrFollowingSize,
                           std::string("frame ") + which + " offset must not be negative");
    }
    *out = v.AsInt();
    return Status::Ok();
  };
  MERIDIAN_RETURN_IF_ERROR(eval(window_->start_offset, "starting", &start_offset_));
  MERIDIAN_RETURN_IF_ERROR(eval(window_->end_offset, "ending", &end_offset_));
  offsets_ready_ = true;
  return Status::Ok();
}

bool WindowOp::SameKeys(const Row& a, const Row& b, const std::vector<int>& cols) const {
  for (int c : cols) {
    const Value& x = a[static_cast<size_t>(c)];
    const Value& y = b[static_cast<size_t>(c)];
    if (x.IsNull() || y.IsNull()) {
      if (x.IsNull() != y.IsNull()) return false;
      continue;
    }
    if (CompareValues(x, y) != 0) return false;
  }
  return true;
}

Status WindowOp::Check(size_t i) const {
  if (i % kCheckInterval != 0 || ctx_.exec == nullptr || ctx_.exec->ctl == nullptr) {
    return Status::Ok();
  }
  return ctx_.exec->ctl->Check();
}

Result<bool> WindowOp::LoadPartition() {
  rows_.clear();
  next_ = 0;
  if (!has_pending_) {
    if (child_done_) return false;
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&pending_));
    if (!more) {
      child_done_ = true;
      return false;
    }
  }
  rows_.push_back(std::move(pending_));
  has_pending_ = false;
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(Check(rows_.size()));
    Row r;
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&r));
    if (!more) {
      child_done_ = true;
      break;
    }
    if (!SameKeys(r, rows_.front(), partition_cols_)) {
      pending_ = std::move(r);
      has_pending_ = true;
      break;
    }
    rows_.push_back(std::move(r));
  }
  const size_t n = rows_.size();
  peer_begin_.resize(n);
  peer_end_.resize(n);
  size_t begin = 0;
  for (size_t i = 1; i <= n; ++i) {
    if (i == n || !SameKeys(rows_[i], rows_[begin], order_cols_)) {
      for (size_t j = begin; j < i; ++j) {
        peer_begin_[j] = begin;
        peer_end_[j] = i;
      }
      begin = i;
    }
  }
  for (size_t f = 0; f < functions_.size(); ++f) {
    results_[f].assign(n, Value());
    MERIDIAN_RETURN_IF_ERROR(Compute(*functions_[f], &results_[f]));
  }
  return true;
}

Result<bool> WindowOp::Next(Row* row) {
  if (!offsets_ready_) MERIDIAN_RETURN_IF_ERROR(EvaluateOffsets());
  if (next_ >= rows_.size()) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, LoadPartition());
    if (!more) return false;
  }
  const size_t i = next_++;
  *row = std::move(rows_[i]);
  row->resize(static_cast<size_t>(pass_width_));
  for (std::vector<Value>& r : results_) row->push_back(std::move(r[i]));
  return true;
}

Result<Value> WindowOp::EvalAt(const BoundExpr& e, size_t row) {
  ctx_.row = &rows_[row];
  return Eval(e, ctx_);
}

FrameRange WindowOp::FrameOf(size_t i) const {
  return WindowFrameOf(*window_, i, rows_.size(), peer_begin_[i], peer_end_[i], start_offset_,
                       end_offset_);
}

Status WindowOp::Compute(const BoundExpr& f, std::vector<Value>* out) {
  const size_t n = rows_.size();
  switch (f.window->func) {
    case WindowFunc::kRowNumber:
      for (size_t i = 0; i < n; ++i) (*out)[i] = Value::Int(static_cast<int64_t>(i + 1));
      return Status::Ok();
    case WindowFunc::kRank:
      for (size_t i = 0; i < n; ++i) (*out)[i] = Value::Int(static_cast<int64_t>(peer_begin_[i] + 1));
      return Status::Ok();
    case WindowFunc::kDenseRank: {
      int64_t rank = 0;
      for (size_t i = 0; i < n; ++i) {
        if (peer_begin_[i] == i) ++rank;
        (*out)[i] = Value::Int(rank);
      }
      return Status::Ok();
    }
    case WindowFunc::kPercentRank:
      for (size_t i = 0; i < n; ++i) {
        (*out)[i] = Value::Double(n > 1 ? static_cast<double>(peer_begin_[i]) /
                                              static_cast<double>(n - 1)
                                        : 0.0);
      }
      return Status::Ok();
    case WindowFunc::kCumeDist:
      for (size_t i = 0; i < n; ++i) {
        (*out)[i] = Value::Double(static_cast<double>(peer_end_[i]) / static_cast<double>(n));
      }
      return Status::Ok();
    case WindowFunc::kNtile:
      return ComputeNtile(f, out);
    case WindowFunc::kLag:
    case WindowFunc::kLead:
      return ComputeLagLead(f, out);
    case WindowFunc::kFirstValue:
    case WindowFunc::kLastValue:
    case WindowFunc::kNthValue:
      return ComputeFrameValue(f, out);
    case WindowFunc::kAggregate:
      return ComputeAggregate(f, out);
  }
  return Status::Internal("unknown window function");
}

Status WindowOp::ComputeNtile(const BoundExpr& f, std::vector<Value>* out) {
  // The bucket count is taken from the first row where it is not NULL (PostgreSQL evaluates
  // it on the current row until it has one); rows before that get NULL.
  const size_t n = rows_.size();
  for (size_t i = 0; i < n; ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(Value buckets, EvalAt(*f.children[0], i));
    if (buckets.IsNull()) continue;
    if (buckets.AsInt() <= 0) {
      return Status::Error(sqlstate::kInvalidArgumentForNtileFunction,
                           "argument of ntile must be greater than zero");
    }
    std::vector<int32_t> tiles = NtileOf(n, buckets.AsInt());
    for (size_t j = i; j < n; ++j) (*out)[j] = Value::Int(tiles[j]);
    return Status::Ok();
  }
  return Status::Ok();
}

Status WindowOp::ComputeLagLead(const BoundExpr& f, std::vector<Value>* out) {
  const auto n = static_cast<int64_t>(rows_.size());
  const bool lag = f.window->func == WindowFunc::kLag;
  for (int64_t i = 0; i < n; ++i) {
    const auto row = static_cast<size_t>(i);
    MERIDIAN_RETURN_IF_ERROR(Check(row));
    int64_t offset = 1;
    if (f.children.size() > 1 && f.window->num_args > 1) {
      MERIDIAN_ASSIGN_OR_RETURN(Value v, EvalAt(*f.children[1], row));
      if (v.IsNull()) continue;  // a NULL offset gives NULL
      offset = v.AsInt();
    }
    const int64_t target = lag ? i - offset : i + offset;
    if (target >= 0 && target < n) {
      MERIDIAN_ASSIGN_OR_RETURN((*out)[row], EvalAt(*f.children[0], static_cast<size_t>(target)));
    } else if (f.window->num_args > 2) {
      MERIDIAN_ASSIGN_OR_RETURN((*out)[row], EvalAt(*f.children[2], row));
    }
  }
  return Status::Ok();
}

Status WindowOp::ComputeFrameValue(const BoundExpr& f, std::vector<Value>* out) {
  const size_t n = rows_.size();
  for (size_t i = 0; i < n; ++i) {
    MERIDIAN_RETURN_IF_ERROR(Check(i));
    const FrameRange r = FrameOf(i);
    size_t at = 0;
    switch (f.window->func) {
      case WindowFunc::kFirstValue:
        if (r.begin == r.end) continue;
        at = r.begin;
        break;
      case WindowFunc::kLastValue:
        if (r.begin == r.end) continue;
        at = r.end - 1;
        break;
      default: {  // nth_value
        MERIDIAN_ASSIGN_OR_RETURN(Value nth, EvalAt(*f.children[1], i));
        if (nth.IsNull()) continue;
        if (nth.AsInt() <= 0) {
          return Status::Error(sqlstate::kInvalidArgumentForNthValueFunction,
                               "argument of nth_value must be greater than zero");
        }
        const auto k = static_cast<size_t>(nth.AsInt());
        if (k > r.end - r.begin) continue;
        at = r.begin + k - 1;
        break;
      }
    }
    MERIDIAN_ASSIGN_OR_RETURN((*out)[i], EvalAt(*f.children[0], at));
  }
  return Status::Ok();
}

Status WindowOp::ComputeAggregate(const BoundExpr& f, std::vector<Value>* out) {
  const size_t n = rows_.size();
  AggState state;
  size_t begin = 0, end = 0;  // the rows state holds
  bool valid = false;
  Value last;
  for (size_t i = 0; i < n; ++i) {
    MERIDIAN_RETURN_IF_ERROR(Check(i));
    const FrameRange r = FrameOf(i);
    if (valid && r.begin == begin && r.end == end) {  // same frame (peers): same value
      (*out)[i] = last;
      continue;
    }
    if (!valid || r.begin != begin || r.end < end) {
      state = AggState{};
      begin = end = r.begin;
    }
    for (; end < r.end; ++end) {
      ctx_.row = &rows_[end];
      MERIDIAN_RETURN_IF_ERROR(AccumulateAggregate(f, ctx_, &state));
    }
    MERIDIAN_ASSIGN_OR_RETURN(last, FinishAggregate(f, state));
    valid = true;
    (*out)[i] = last;
  }
  return Status::Ok();
}

}  // namespace meridian::exec
