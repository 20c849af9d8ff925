// HashAggregateOp: groups its input by the GROUP BY values (a hash map on their canonical key
// encoding) and computes COUNT/SUM/AVG/MIN/MAX/string_agg/array_agg, with DISTINCT, FILTER and
// ORDER BY inside the call, per group (aggregate_state.h); beyond work_mem the rows of new
// groups go to spill files by key hash and are aggregated file by file (operators.h).
#include <algorithm>

#include "binder/type_rules.h"
#include "catalog/catalog.h"
#include "execution/evaluator.h"
#include "execution/hash_key.h"
#include "execution/operators.h"
#include "execution/spill.h"

namespace meridian::exec {

struct HashAggregateOp::Spill {
  size_t budget = 0;
  bool can_spill = false;
  size_t held_bytes = 0;  // the in-memory groups' estimated size
  size_t peak_bytes = 0;
  HashSpill rows;
};

HashAggregateOp::HashAggregateOp(OperatorPtr child, std::vector<BoundExprPtr> groups,
                                 std::vector<BoundExprPtr> aggregates, bool scalar)
    : child_(std::move(child)),
      groups_(std::move(groups)),
      aggregates_(std::move(aggregates)),
      scalar_(scalar),
      spill_(std::make_unique<Spill>()) {
  std::vector<size_t> all(groups_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  SelectKeys(std::move(all), scalar);
}

void HashAggregateOp::SelectKeys(std::vector<size_t> keys, bool scalar) {
  active_ = std::move(keys);
  carried_.clear();
  scalar_ = scalar;
  int_keys_ = active_.size() == 1 && groups_[active_[0]]->type.IsIntegral();
}

void HashAggregateOp::CarryDependentKeys(const std::vector<bool>& dependent) {
  std::vector<size_t> keys;
  std::vector<size_t> carried;
  for (size_t i = 0; i < groups_.size(); ++i) {
    (i < dependent.size() && dependent[i] ? carried : keys).push_back(i);
  }
  if (carried.empty() || keys.empty()) return;
  SelectKeys(std::move(keys), scalar_);
  carried_ = std::move(carried);
}

HashAggregateOp::~HashAggregateOp() = default;

void HashAggregateOp::PruneColumns(const std::vector<bool>& /*needed*/) {
  // Every output column is computed anyway; the input needs what the expressions read.
  std::vector<bool> used;
  bool all = false;
  for (const BoundExprPtr& g : groups_) g->MarkColumnsRead(&used, &all);
  for (const BoundExprPtr& a : aggregates_) a->MarkColumnsRead(&used, &all);
  if (!all) child_->PruneColumns(used);
}

void HashAggregateOp::ResetGroups() {
  index_.Reset(int_keys_, 0);
  null_group_ = kNone;
  group_count_ = 0;
  group_values_.clear();
  states_.clear();
  next_ = 0;
  spill_->held_bytes = 0;
}

Status HashAggregateOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  consumed_ = false;
  ResetGroups();
  scratch_.assign(active_.size(), Value());
  key_refs_.assign(active_.size(), nullptr);
  spill_->budget = WorkMemBytes(exec);
  spill_->can_spill = CanSpill(exec) && !active_.empty();
  spill_->held_bytes = spill_->peak_bytes = 0;
  spill_->rows = HashSpill(spill_->can_spill ? exec->catalog->temp_dir() : std::string());
  return child_->Open(outer, exec);
}

Status HashAggregateOp::NewGroup() {
  size_t bytes = (active_.size() + carried_.size()) * sizeof(Value) +
                 aggregates_.size() * sizeof(AggState) + sizeof(KeyTable<uint32_t>::Slot) * 2 +
                 key_.size();
  if (carried_.empty()) {
    for (const Value* v : key_refs_) {
      bytes += v->ByteSize();
      group_values_.push_back(*v);
    }
  } else {  // every GROUP BY value in order, the carried ones from this first row
    size_t key = 0;
    for (size_t i = 0; i < groups_.size(); ++i) {
      if (key < active_.size() && active_[key] == i) {
        group_values_.push_back(*key_refs_[key++]);
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*groups_[i], ctx_));
        group_values_.push_back(std::move(v));
      }
      bytes += group_values_.back().ByteSize();
    }
  }
  spill_->held_bytes += bytes;
  spill_->peak_bytes = std::max(spill_->peak_bytes, spill_->held_bytes);
  states_.resize(states_.size() + aggregates_.size());
  ++group_count_;
  return Status::Ok();
}

Result<uint32_t> HashAggregateOp::GroupOf(bool create, uint64_t* hash) {
  *hash = 0;
  if (active_.empty()) {
    if (group_count_ == 0) MERIDIAN_RETURN_IF_ERROR(NewGroup());
    return 0;
  }
  for (size_t i = 0; i < active_.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(key_refs_[i], EvalRef(*groups_[active_[i]], ctx_, &scratch_[i]));
  }
  const auto next_group = static_cast<uint32_t>(group_count_);
  bool inserted = false;
  KeyTable<uint32_t>::Slot* slot;
  key_.clear();
  if (int_keys_) {
    const Value& v = *key_refs_[0];
    if (v.IsNull()) {
      if (!create) *hash = MixHash(0x6e756c6cULL);
      if (null_group_ == kNone && create) {
        null_group_ = next_group;
        MERIDIAN_RETURN_IF_ERROR(NewGroup());
      }
      return null_group_;
    }
    if (!v.IsInt()) return Status::Internal("hash aggregate: integer key expected");
    if (!create) {  // the hash only picks a spill file: not computed per row otherwise
      *hash = MixHash(static_cast<uint64_t>(v.AsInt()));
      slot = index_.FindInt(v.AsInt());
      return slot == nullptr ? kNone : slot->payload;
    }
    slot = index_.InsertInt(v.AsInt(), &inserted);
  } else {
    for (const Value* v : key_refs_) AppendKeyValue(*v, &key_);
    if (!create) {
      *hash = MixHash(std::hash<std::string_view>{}(key_));
      slot = index_.FindBytes(key_);
      return slot == nullptr ? kNone : slot->payload;
    }
    slot = index_.InsertBytes(key_, &inserted);
  }
  if (inserted) {
    slot->payload = next_group;
    MERIDIAN_RETURN_IF_ERROR(NewGroup());
  }
  return slot->payload;
}

Status HashAggregateOp::Consume(const std::function<Result<bool>(Row*)>& next) {
  Spill& s = *spill_;
  Row input;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, next(&input));
    if (!more) break;
    if (--until_check <= 0 && ctx_.exec != nullptr && ctx_.exec->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(ctx_.exec->ctl->Check());
      until_check = kCheckInterval;
    }
    ctx_.row = &input;
    const bool full = s.can_spill && s.held_bytes > s.budget;
    uint64_t hash = 0;
    MERIDIAN_ASSIGN_OR_RETURN(uint32_t g, GroupOf(!full, &hash));
    if (g == kNone) {  // a new group with memory full: later, from its partition's file
      MERIDIAN_RETURN_IF_ERROR(s.rows.Add(input, hash));
      continue;
    }
    AggState* states = states_.data() + static_cast<size_t>(g) * aggregates_.size();
    for (size_t i = 0; i < aggregates_.size(); ++i) {
      MERIDIAN_RETURN_IF_ERROR(AccumulateAggregate(*aggregates_[i], ctx_, &states[i]));
    }
  }
  if (scalar_ && group_count_ == 0) {
    states_.resize(aggregates_.size());
    group_count_ = 1;
  }
  MERIDIAN_RETURN_IF_ERROR(s.rows.EndInput());
  consumed_ = true;
  return Status::Ok();
}

Result<bool> HashAggregateOp::Next(Row* row) {
  if (!consumed_) {
    MERIDIAN_RETURN_IF_ERROR(Consume([this](Row* r) { return child_->Next(r); }));
  }
  while (next_ >= group_count_) {
    // The in-memory groups are out: the next spilled file, if any.
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> file, spill_->rows.Next());
    if (file == nullptr) return false;
    ResetGroups();
    SpillFile::Reader reader(file.get());
    consumed_ = false;
    MERIDIAN_RETURN_IF_ERROR(Consume([&reader](Row* r) { return reader.Next(r); }));
  }
  const size_t g = next_++;
  const size_t n = carried_.empty() ? active_.size() : groups_.size();
  row->assign(group_values_.begin() + static_cast<ptrdiff_t>(g * n),
              group_values_.begin() + static_cast<ptrdiff_t>((g + 1) * n));
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(
        Value v, FinishAggregate(*aggregates_[i], states_[g * aggregates_.size() + i]));
    row->push_back(std::move(v));
  }
  return true;
}

uint64_t HashAggregateOp::Batches() const { return spill_->rows.batches(); }
size_t HashAggregateOp::PeakBytes() const { return spill_->peak_bytes; }
uint64_t HashAggregateOp::DiskBytes() const { return spill_->rows.disk_bytes(); }

std::string HashAggregateOp::AnalyzeDetail() const {
  if (active_.empty()) return {};  // a plain Aggregate: one group, nothing to report
  std::string out = "Batches: " + std::to_string(spill_->rows.batches()) +
                    "  Memory Usage: " + KbText(spill_->peak_bytes);
  if (spill_->rows.disk_bytes() > 0) out += "  Disk Usage: " + KbText(spill_->rows.disk_bytes());
  return out;
}

}  // namespace meridian::exec
