// NestedLoopJoinOp: inner/left/right/full nested-loop joins over a materialised right input,
// and the rescan mode behind index nested-loop joins (see operators.h).
#include <algorithm>

#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

bool NextUnmatchedRight(const std::vector<Row>& rows, const std::vector<bool>& matched,
                        size_t left_width, size_t* pos, Row* out) {
  while (*pos < rows.size()) {
    const size_t i = (*pos)++;
    if (matched[i]) continue;
    out->assign(left_width, Value::Null());
    out->insert(out->end(), rows[i].begin(), rows[i].end());
    return true;
  }
  return false;
}

namespace {

void PermuteColumns(BoundExpr* e, const std::vector<uint32_t>& out) {
  if (e->kind == BoundKind::kColumn && e->depth == 0) {
    e->index = static_cast<int>(out[static_cast<size_t>(e->index)]);
  }
  for (BoundExprPtr& c : e->children) PermuteColumns(c.get(), out);
}

}  // namespace

bool PermuteJoinCondition(BoundExpr* condition, const std::vector<uint32_t>& out, size_t width) {
  if (width == 0 || out.size() != width) return false;
  std::vector<bool> seen(width, false);
  for (uint32_t slot : out) {
    if (slot >= width || seen[slot]) return false;
    seen[slot] = true;
  }
  if (condition != nullptr) {
    if (condition->ContainsSubquery()) return false;
    std::vector<bool> read;
    bool all = false;
    condition->MarkColumnsRead(&read, &all);
    if (all || read.size() > width) return false;
    PermuteColumns(condition, out);
  }
  return true;
}

std::vector<bool> UnpermuteColumns(const std::vector<bool>& used,
                                   const std::vector<uint32_t>& out) {
  std::vector<bool> in(out.size(), false);
  for (size_t c = 0; c < out.size(); ++c) in[c] = out[c] < used.size() && used[out[c]];
  return in;
}

bool NestedLoopJoinOp::SetOutputOrder(std::vector<uint32_t> out) {
  if ((kind_ != JoinKind::kInner && kind_ != JoinKind::kLeft) ||
      !PermuteJoinCondition(condition_.get(), out, left_width_ + right_width_)) {
    return false;
  }
  out_ = std::move(out);
  return true;
}

Status NestedLoopJoinOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  materialised_ = false;
  have_left_ = false;
  left_done_ = false;
  unmatched_pos_ = 0;
  right_rows_.clear();
  right_matched_.clear();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  if (rescan_) return Status::Ok();
  return right_->Open(outer, exec);
}

void NestedLoopJoinOp::PruneColumns(const std::vector<bool>& needed) {
  if (left_width_ + right_width_ == 0) return;  // widths unknown: keep every column
  std::vector<bool> used(left_width_ + right_width_, false);
  for (size_t i = 0; i < used.size() && i < needed.size(); ++i) used[i] = needed[i];
  bool all = false;
  if (condition_ != nullptr) condition_->MarkColumnsRead(&used, &all);
  if (all) return;  // a correlated subquery may read any column: keep them all
  used.resize(left_width_ + right_width_);
  if (!out_.empty()) used = UnpermuteColumns(used, out_);
  const auto split = static_cast<ptrdiff_t>(left_width_);
  if (!rescan_) left_->PruneColumns(std::vector<bool>(used.begin(), used.begin() + split));
  right_->PruneColumns(std::vector<bool>(used.begin() + split, used.end()));
}

Result<bool> NestedLoopJoinOp::Matches(const Row& joined) {
  if (condition_ == nullptr) return true;
  EvalContext ctx{&joined, outer_, exec_};
  return EvalPredicate(*condition_, ctx);
}

Result<const Row*> NestedLoopJoinOp::NextRight(Row* buffer) {
  if (rescan_) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(buffer));
    return more ? buffer : nullptr;
  }
  if (right_pos_ >= right_rows_.size()) return nullptr;
  return &right_rows_[right_pos_++];  // read in place, not copied
}

Result<bool> NestedLoopJoinOp::Next(Row* row) {
  if (!rescan_ && !materialised_) {
    Row r;
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
      if (!more) break;
      right_rows_.push_back(std::move(r));
    }
    right_matched_.assign(right_rows_.size(), false);
    materialised_ = true;
  }
  Row right;
  while (!left_done_) {
    if (!have_left_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(&left_row_));
      if (!more) {
        left_done_ = true;
        break;
      }
      have_left_ = true;
      left_matched_ = false;
      right_pos_ = 0;
      if (rescan_) {
        left_ctx_ = EvalContext{&left_row_, outer_, exec_};
        MERIDIAN_RETURN_IF_ERROR(right_->Open(&left_ctx_, exec_));
      }
    }
    if (--until_check_ <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check_ = kCheckInterval;
    }
    const size_t at = right_pos_;
    MERIDIAN_ASSIGN_OR_RETURN(const Row* r, NextRight(&right));
    if (r == nullptr) {
      have_left_ = false;
      if (!left_matched_ && (kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull)) {
        if (out_.empty()) {
          *row = left_row_;
          row->resize(left_width_ + right_width_);
          return true;
        }
        static const Value kNull;
        if (left_row_.size() != left_width_) return Status::Internal("nested loop: row width");
        row->resize(out_.size());
        for (size_t c = 0; c < out_.size(); ++c) {
          (*row)[out_[c]] = c < left_width_ ? left_row_[c] : kNull;
        }
        return true;
      }
      continue;
    }
    // Assigned slot by slot into the reused row: a slot that held a value of the same kind
    // is a plain copy, where operator= then insert destroyed and rebuilt the right part.
    const size_t lw = left_row_.size();
    row->resize(lw + r->size());
    if (out_.empty()) {
      std::copy(left_row_.begin(), left_row_.end(), row->begin());
      std::copy(r->begin(), r->end(), row->begin() + static_cast<ptrdiff_t>(lw));
    } else {  // straight into FROM order (SetOutputOrder)
      if (row->size() != out_.size()) return Status::Internal("nested loop: row width");
      for (size_t c = 0; c < lw; ++c) (*row)[out_[c]] = left_row_[c];
      for (size_t c = 0; c < r->size(); ++c) (*row)[out_[lw + c]] = (*r)[c];
    }
    MERIDIAN_ASSIGN_OR_RETURN(bool match, Matches(*row));
    if (!match) continue;
    left_matched_ = true;
    if (!rescan_) right_matched_[at] = true;
    return true;
  }
  if (kind_ == JoinKind::kRight || kind_ == JoinKind::kFull) {
    return NextUnmatchedRight(right_rows_, right_matched_, left_width_, &unmatched_pos_, row);
  }
  return false;
}

}  // namespace meridian::exec
