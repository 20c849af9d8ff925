// HashJoinOp: equi-joins through an in-memory hash table on the right input (see operators.h).
// INTERIM like SortOp: the build side must fit in memory.
#include "catalog/key_encoding.h"
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

HashJoinOp::HashJoinOp(OperatorPtr left, OperatorPtr right, std::vector<BoundExprPtr> left_keys,
                       std::vector<BoundExprPtr> right_keys, BoundExprPtr residual, JoinKind kind,
                       size_t left_width, size_t right_width)
    : left_(std::move(left)),
      right_(std::move(right)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      residual_(std::move(residual)),
      kind_(kind),
      left_width_(left_width),
      right_width_(right_width) {
  // SMALLINT, INTEGER and BIGINT values are all held as int64, so one comparison decides.
  int_keys_ = left_keys_.size() == 1 && left_keys_[0]->type.IsIntegral() &&
              right_keys_[0]->type.IsIntegral();
  for (size_t c = 0; c < right_width_; ++c) stored_.push_back(static_cast<uint32_t>(c));
}

void HashJoinOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used(left_width_ + right_width_, false);
  for (size_t i = 0; i < used.size() && i < needed.size(); ++i) used[i] = needed[i];
  bool all = false;
  if (residual_ != nullptr) residual_->MarkColumnsRead(&used, &all);
  if (all) return;  // a correlated subquery may read any column: keep them all
  used.resize(left_width_ + right_width_);
  std::vector<bool> left(used.begin(), used.begin() + static_cast<ptrdiff_t>(left_width_));
  std::vector<bool> right(used.begin() + static_cast<ptrdiff_t>(left_width_), used.end());
  stored_.clear();
  unstored_.clear();
  for (size_t c = 0; c < right_width_; ++c) {
    (right[c] ? stored_ : unstored_).push_back(static_cast<uint32_t>(c));
  }
  for (const BoundExprPtr& k : left_keys_) k->MarkColumnsRead(&left, &all);
  for (const BoundExprPtr& k : right_keys_) k->MarkColumnsRead(&right, &all);
  if (all) return;
  left_->PruneColumns(left);
  right_->PruneColumns(right);
}

Status HashJoinOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  built_ = false;
  have_left_ = false;
  left_done_ = false;
  unmatched_pos_ = 0;
  match_ = match_tail_ = kNone;
  ahead_pos_ = ahead_size_ = 0;
  ahead_limit_ = 1;
  ahead_error_ = Status::Ok();
  ahead_end_ = false;
  table_.Reset(int_keys_, 0);
  next_.clear();
  right_values_.clear();
  right_matched_.clear();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Result<bool> HashJoinOp::KeyOf(const std::vector<BoundExprPtr>& keys, const Row& row,
                               int64_t* int_key, std::string* key) {
  EvalContext ctx{&row, outer_, exec_};
  Value scratch;
  if (int_keys_) {
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*keys[0], ctx, &scratch));
    if (v->IsNull()) return false;
    if (!v->IsInt()) return Status::Internal("hash join: integer key expected");
    *int_key = v->AsInt();
    return true;
  }
  key->clear();
  for (const BoundExprPtr& k : keys) {
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*k, ctx, &scratch));
    if (v->IsNull()) return false;
    catalog::AppendKeyValue(*v, key);
  }
  return true;
}

Status HashJoinOp::Build() {
  // Every right row's stored columns, in input order, and its key. Integer keys go into the
  // table after the input is read, with prefetches ahead (inserting as rows arrive would wait
  // for one cache miss per row).
  Row r;
  std::string key;
  int64_t int_key = 0;
  std::vector<int64_t> int_keys;  // integer mode: the keys of the keyed rows, in order
  std::vector<bool> keyed_rows;   // integer mode: per right row
  size_t rows = 0;
  auto link = [&](auto* slot, bool inserted, uint32_t row) {  // call after the insert ran
    if (inserted) {
      slot->payload = Chain{row, row};
    } else {
      next_[slot->payload.tail] = row;
      slot->payload.tail = row;
    }
  };
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
    if (!more) break;
    if (--until_check <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check = kCheckInterval;
    }
    if (rows >= kNone - 1) {
      return Status::Error(sqlstate::kProgramLimitExceeded, "hash join input is too large");
    }
    MERIDIAN_ASSIGN_OR_RETURN(bool keyed, KeyOf(right_keys_, r, &int_key, &key));
    next_.push_back(kNone);
    if (int_keys_) {
      keyed_rows.push_back(keyed);
      if (keyed) int_keys.push_back(int_key);
    } else if (keyed) {
      bool inserted = false;
      auto* slot = table_.InsertBytes(key, &inserted);
      link(slot, inserted, static_cast<uint32_t>(rows));
    }
    for (uint32_t c : stored_) {
      right_values_.push_back(c < r.size() ? std::move(r[c]) : Value::Null());
    }
    ++rows;
  }
  if (int_keys_) {
    constexpr size_t kAhead = 16;
    table_.Reset(true, int_keys.size());
    size_t k = 0;
    for (size_t row = 0; row < rows; ++row) {
      if (!keyed_rows[row]) continue;
      if (k + kAhead < int_keys.size()) table_.PrefetchInt(int_keys[k + kAhead]);
      bool inserted = false;
      auto* slot = table_.InsertInt(int_keys[k++], &inserted);
      link(slot, inserted, static_cast<uint32_t>(row));
    }
  }
  if (TracksRight()) right_matched_.assign(rows, false);
  built_ = true;
  return Status::Ok();
}

void HashJoinOp::Join(const Row* left, uint32_t pos, Row* row) const {
  row->resize(left_width_ + right_width_);
  for (size_t c = 0; c < left_width_; ++c) {
    (*row)[c] = left != nullptr && c < left->size() ? (*left)[c] : Value::Null();
  }
  Value* right = row->data() + left_width_;
  if (pos == kNone) {
    for (size_t c = 0; c < right_width_; ++c) right[c] = Value::Null();
    return;
  }
  const Value* stored = right_values_.data() + static_cast<size_t>(pos) * stored_.size();
  for (size_t k = 0; k < stored_.size(); ++k) right[stored_[k]] = stored[k];
  for (uint32_t c : unstored_) right[c] = Value::Null();
}

void HashJoinOp::FillAhead() {
  ahead_pos_ = ahead_size_ = 0;
  if (ahead_.size() < ahead_limit_) ahead_.resize(ahead_limit_);
  const BoundExpr& key = *left_keys_[0];
  const bool prefetch = int_keys_ && key.kind == BoundKind::kColumn && key.depth == 0;
  while (ahead_size_ < ahead_limit_) {
    Row& r = ahead_[ahead_size_];
    Result<bool> more = left_->Next(&r);
    if (!more.ok()) {
      ahead_error_ = more.status();
      break;
    }
    if (!*more) {
      ahead_end_ = true;
      break;
    }
    ++ahead_size_;
    if (prefetch && static_cast<size_t>(key.index) < r.size()) {
      const Value& v = r[static_cast<size_t>(key.index)];
      if (v.IsInt()) table_.PrefetchInt(v.AsInt());
    }
  }
  ahead_limit_ = std::min(2 * ahead_limit_, kReadAhead);
}

Result<bool> HashJoinOp::NextLeft(Row* row) {
  while (ahead_pos_ == ahead_size_) {
    if (!ahead_error_.ok()) {
      Status error = ahead_error_;
      ahead_error_ = Status::Ok();
      return error;
    }
    if (ahead_end_) return false;
    FillAhead();
  }
  std::swap(*row, ahead_[ahead_pos_++]);
  return true;
}

Result<bool> HashJoinOp::Next(Row* row) {
  if (!built_) MERIDIAN_RETURN_IF_ERROR(Build());
  while (!left_done_) {
    if (!have_left_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, NextLeft(&left_row_));
      if (!more) {
        left_done_ = true;
        break;
      }
      if (--until_check_ <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
        MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
        until_check_ = kCheckInterval;
      }
      have_left_ = true;
      left_matched_ = false;
      match_ = match_tail_ = kNone;
      int64_t int_key = 0;
      MERIDIAN_ASSIGN_OR_RETURN(bool keyed, KeyOf(left_keys_, left_row_, &int_key, &probe_key_));
      if (keyed) {
        auto* slot = int_keys_ ? table_.FindInt(int_key) : table_.FindBytes(probe_key_);
        if (slot != nullptr) {
          match_ = slot->payload.head;
          match_tail_ = slot->payload.tail;
        }
      }
    }
    if (match_ == kNone) {
      have_left_ = false;
      if (!left_matched_ && (kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull)) {
        Join(&left_row_, kNone, row);
        return true;
      }
      continue;
    }
    const uint32_t pos = match_;
    match_ = pos == match_tail_ ? kNone : next_[pos];
    Join(&left_row_, pos, row);
    if (residual_ != nullptr) {
      EvalContext ctx{row, outer_, exec_};
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*residual_, ctx));
      if (!pass) continue;
    }
    left_matched_ = true;
    if (TracksRight()) right_matched_[pos] = true;
    return true;
  }
  // Right and full joins end with the right rows no left row matched, in input order.
  if (TracksRight()) {
    while (unmatched_pos_ < right_matched_.size()) {
      const auto pos = static_cast<uint32_t>(unmatched_pos_++);
      if (right_matched_[pos]) continue;
      Join(nullptr, pos, row);
      return true;
    }
  }
  return false;
}

}  // namespace meridian::exec
