// HashJoinOp: equi-joins through an in-memory hash table on the right input (see operators.h).
// INTERIM like SortOp: the build side must fit in memory.
#include "catalog/key_encoding.h"
#include "exec/evaluator.h"
#include "exec/operators.h"

namespace meridian::exec {

Status HashJoinOp::Open(const EvalContext* outer, ExecContext* exec) {
  outer_ = outer;
  exec_ = exec;
  built_ = false;
  have_left_ = false;
  left_done_ = false;
  unmatched_pos_ = 0;
  right_rows_.clear();
  right_matched_.clear();
  heads_.clear();
  next_.clear();
  hashes_.clear();
  keys_.clear();
  MERIDIAN_RETURN_IF_ERROR(left_->Open(outer, exec));
  return right_->Open(outer, exec);
}

Result<bool> HashJoinOp::KeyOf(const std::vector<BoundExprPtr>& keys, const Row& row,
                               std::string* key) {
  key->clear();
  EvalContext ctx{&row, outer_, exec_};
  for (const BoundExprPtr& k : keys) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*k, ctx));
    if (v.IsNull()) return false;
    catalog::AppendKeyValue(v, key);
  }
  return true;
}

Status HashJoinOp::Build() {
  Row r;
  std::string key;
  int until_check = kCheckInterval;
  std::vector<bool> has_key;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, right_->Next(&r));
    if (!more) break;
    if (--until_check <= 0 && exec_ != nullptr && exec_->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
      until_check = kCheckInterval;
    }
    if (right_rows_.size() >= kNone) {
      return Status::Error(sqlstate::kProgramLimitExceeded, "hash join input is too large");
    }
    MERIDIAN_ASSIGN_OR_RETURN(bool keyed, KeyOf(right_keys_, r, &key));
    has_key.push_back(keyed);
    hashes_.push_back(keyed ? std::hash<std::string>{}(key) : 0);
    keys_.push_back(keyed ? key : std::string());
    right_rows_.push_back(std::move(r));
  }
  // Power-of-two bucket count, at least twice the rows: short chains.
  size_t buckets = 16;
  while (buckets < 2 * right_rows_.size()) buckets *= 2;
  mask_ = buckets - 1;
  heads_.assign(buckets, kNone);
  next_.assign(right_rows_.size(), kNone);
  for (size_t i = right_rows_.size(); i-- > 0;) {  // chains keep input order
    if (!has_key[i]) continue;
    uint32_t& head = heads_[hashes_[i] & mask_];
    next_[i] = head;
    head = static_cast<uint32_t>(i);
  }
  right_matched_.assign(right_rows_.size(), false);
  built_ = true;
  return Status::Ok();
}

Result<bool> HashJoinOp::Next(Row* row) {
  if (!built_) MERIDIAN_RETURN_IF_ERROR(Build());
  while (!left_done_) {
    if (!have_left_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, left_->Next(&left_row_));
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
      chain_ = kNone;
      MERIDIAN_ASSIGN_OR_RETURN(bool has_key, KeyOf(left_keys_, left_row_, &probe_key_));
      if (has_key) {
        probe_hash_ = std::hash<std::string>{}(probe_key_);
        chain_ = heads_[probe_hash_ & mask_];
      }
    }
    // Skip to the next row of the chain with this very key.
    while (chain_ != kNone && (hashes_[chain_] != probe_hash_ || keys_[chain_] != probe_key_)) {
      chain_ = next_[chain_];
    }
    if (chain_ == kNone) {
      have_left_ = false;
      if (!left_matched_ && (kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull)) {
        *row = left_row_;
        row->resize(left_width_ + right_width_);
        return true;
      }
      continue;
    }
    const size_t i = chain_;
    chain_ = next_[chain_];
    *row = left_row_;
    row->insert(row->end(), right_rows_[i].begin(), right_rows_[i].end());
    if (residual_ != nullptr) {
      EvalContext ctx{row, outer_, exec_};
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*residual_, ctx));
      if (!pass) continue;
    }
    left_matched_ = true;
    right_matched_[i] = true;
    return true;
  }
  if (kind_ == JoinKind::kRight || kind_ == JoinKind::kFull) {
    return NextUnmatchedRight(right_rows_, right_matched_, left_width_, &unmatched_pos_, row);
  }
  return false;
}

}  // namespace meridian::exec
