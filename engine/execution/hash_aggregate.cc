// HashAggregateOp: groups its input by the GROUP BY values (a hash map on their canonical key
// encoding) and computes COUNT/SUM/AVG/MIN/MAX/string_agg/array_agg, with DISTINCT, FILTER and
// ORDER BY inside the call, per group (aggregate_state.h). The whole input is consumed on the
// first Next (in memory; spilling comes later).
#include <algorithm>

#include "catalog/key_encoding.h"
#include "execution/evaluator.h"
#include "execution/operators.h"
#include "binder/type_rules.h"

namespace meridian::exec {

HashAggregateOp::HashAggregateOp(OperatorPtr child, std::vector<BoundExprPtr> groups,
                                 std::vector<BoundExprPtr> aggregates, bool scalar)
    : child_(std::move(child)),
      groups_(std::move(groups)),
      aggregates_(std::move(aggregates)),
      scalar_(scalar) {
  int_keys_ = groups_.size() == 1 && groups_[0]->type.IsIntegral();
}

void HashAggregateOp::PruneColumns(const std::vector<bool>& /*needed*/) {
  // Every output column is computed anyway; the input needs what the expressions read.
  std::vector<bool> used;
  bool all = false;
  for (const BoundExprPtr& g : groups_) g->MarkColumnsRead(&used, &all);
  for (const BoundExprPtr& a : aggregates_) a->MarkColumnsRead(&used, &all);
  if (!all) child_->PruneColumns(used);
}

Status HashAggregateOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  consumed_ = false;
  index_.Reset(int_keys_, 0);
  null_group_ = kNone;
  group_count_ = 0;
  group_values_.clear();
  states_.clear();
  scratch_.assign(groups_.size(), Value());
  key_refs_.assign(groups_.size(), nullptr);
  next_ = 0;
  return child_->Open(outer, exec);
}

void HashAggregateOp::NewGroup() {
  for (const Value* v : key_refs_) group_values_.push_back(*v);
  states_.resize(states_.size() + aggregates_.size());
  ++group_count_;
}

Result<uint32_t> HashAggregateOp::GroupOf() {
  if (groups_.empty()) {
    if (group_count_ == 0) NewGroup();
    return 0;
  }
  for (size_t i = 0; i < groups_.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(key_refs_[i], EvalRef(*groups_[i], ctx_, &scratch_[i]));
  }
  const auto next_group = static_cast<uint32_t>(group_count_);
  bool inserted = false;
  KeyTable<uint32_t>::Slot* slot;
  if (int_keys_) {
    const Value& v = *key_refs_[0];
    if (v.IsNull()) {
      if (null_group_ == kNone) {
        null_group_ = next_group;
        NewGroup();
      }
      return null_group_;
    }
    if (!v.IsInt()) return Status::Internal("hash aggregate: integer key expected");
    slot = index_.InsertInt(v.AsInt(), &inserted);
  } else {
    key_.clear();
    for (const Value* v : key_refs_) catalog::AppendKeyValue(*v, &key_);
    slot = index_.InsertBytes(key_, &inserted);
  }
  if (inserted) {
    slot->payload = next_group;
    NewGroup();
  }
  return slot->payload;
}

Status HashAggregateOp::Consume() {
  Row input;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&input));
    if (!more) break;
    if (--until_check <= 0 && ctx_.exec != nullptr && ctx_.exec->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(ctx_.exec->ctl->Check());
      until_check = kCheckInterval;
    }
    ctx_.row = &input;
    MERIDIAN_ASSIGN_OR_RETURN(uint32_t g, GroupOf());
    AggState* states = states_.data() + static_cast<size_t>(g) * aggregates_.size();
    for (size_t i = 0; i < aggregates_.size(); ++i) {
      MERIDIAN_RETURN_IF_ERROR(AccumulateAggregate(*aggregates_[i], ctx_, &states[i]));
    }
  }
  if (scalar_ && group_count_ == 0) {
    states_.resize(aggregates_.size());
    group_count_ = 1;
  }
  consumed_ = true;
  return Status::Ok();
}

Result<bool> HashAggregateOp::Next(Row* row) {
  if (!consumed_) MERIDIAN_RETURN_IF_ERROR(Consume());
  if (next_ >= group_count_) return false;
  const size_t g = next_++;
  const size_t n = groups_.size();
  row->assign(group_values_.begin() + static_cast<ptrdiff_t>(g * n),
              group_values_.begin() + static_cast<ptrdiff_t>((g + 1) * n));
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v,
                              FinishAggregate(*aggregates_[i], states_[g * aggregates_.size() + i]));
    row->push_back(std::move(v));
  }
  return true;
}

}  // namespace meridian::exec
