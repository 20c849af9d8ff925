// IndexScanOp: key conditions → byte ranges of the index → rows (see operators.h).
#include <algorithm>

#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "optimizer/access_path.h"
#include "storage/key_codec.h"
#include "storage/tuple.h"

namespace meridian::exec {

namespace {

// At most this many point ranges from IN-list products; more is an error rather than a
// silent slow plan (the planner does not build such plans for literal lists of this size).
constexpr size_t kMaxRanges = 100000;

// The key byte of NULL in a column of the given direction (it sorts last ascending).
std::string NullKey(bool descending) {
  std::string out;
  storage::AppendKeyValue(Value::Null(), descending, &out);
  return out;
}

}  // namespace

Result<bool> FetchVisibleVersion(catalog::Table& table, storage::Rid rid,
                                 const catalog::Transaction* txn, std::string* bytes) {
  Status st = table.heap()->Get(rid, bytes);
  if (!st.ok()) {
    // The row went away between two Fetch calls of this statement: skip the entry.
    if (st.sqlstate() == sqlstate::kInternalError) return false;
    return st;
  }
  return txn == nullptr || txn->Visible(storage::ReadTupleHeader(*bytes), table, rid);
}

IndexScanOp::IndexScanOp(std::shared_ptr<catalog::Table> table,
                         std::shared_ptr<catalog::Index> index, std::vector<KeyCondition> keys,
                         std::vector<BoundExprPtr> conds, bool reverse, bool index_only)
    : table_(std::move(table)),
      width_(table_->types().size()),
      index_(std::move(index)),
      keys_(std::move(keys)),
      conds_(std::move(conds)),
      reverse_(reverse),
      index_only_(index_only) {}

IndexScanOp::~IndexScanOp() = default;

void IndexScanOp::PruneColumns(const std::vector<bool>& needed) {
  const catalog::IndexSchema& schema = index_->schema();
  if (schema.HasExpressions()) return;
  needed_ = needed;
  needed_.resize(width_, false);
  key_needed_ = false;
  for (int c : schema.columns) key_needed_ = key_needed_ || needed_[static_cast<size_t>(c)];
  for (int c : schema.columns) needed_[static_cast<size_t>(c)] = true;
  prune_ = true;
}

std::string IndexScanOp::AnalyzeDetail() const {
  if (!index_only_) return {};
  return "Heap Fetches: " + std::to_string(heap_fetches_);
}

bool IndexScanOp::QuickRead() const {
  // Any key shape: the entries visited are charged to the quick budget (ExecControl::SpendQuick).
  auto sub = [](const BoundExpr* e) { return e != nullptr && e->ContainsSubquery(); };
  for (const KeyCondition& k : keys_) {
    if (sub(k.eq) || sub(k.in_array) || sub(k.lower) || sub(k.upper)) return false;
    if (std::any_of(k.in_list.begin(), k.in_list.end(), sub)) return false;
    for (const KeyRange& r : k.any_of) {
      if (sub(r.lower) || sub(r.upper)) return false;
    }
    for (const std::vector<const BoundExpr*>& t : k.tuples) {
      if (std::any_of(t.begin(), t.end(), sub)) return false;
    }
  }
  for (const BoundExprPtr& c : conds_) {
    if (c->ContainsSubquery()) return false;
  }
  return true;
}

Status IndexScanOp::BuildRanges(const EvalContext& ctx) {
  ranges_.clear();
  const std::vector<bool>& desc = index_->schema().descending;
  // Products of the equality prefix, as encoded key prefixes.
  std::vector<std::string> prefixes{""};
  size_t k = 0;
  for (; k < keys_.size(); ++k) {
    const KeyCondition& kc = keys_[k];
    if (kc.eq == nullptr && kc.in_list.empty() && kc.tuples.empty() && kc.in_array == nullptr) {
      break;
    }
    std::vector<std::string> values;
    if (!kc.tuples.empty()) {
      // Multi-column points: each tuple encodes columns k .. k + width - 1 at once.
      for (const std::vector<const BoundExpr*>& tuple : kc.tuples) {
        std::string enc;
        bool null = false;
        for (size_t j = 0; j < tuple.size() && !null; ++j) {
          MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*tuple[j], ctx));
          null = v.IsNull();  // = NULL matches nothing
          storage::AppendKeyValue(v, desc[k + j], &enc);
        }
        if (!null) values.push_back(std::move(enc));
      }
      k += static_cast<size_t>(kc.tuple_width) - 1;
    } else if (kc.in_array != nullptr && kc.in_array->kind == BoundKind::kInSubquery) {
      // IN (uncorrelated subquery): each non-NULL row is a point.
      MERIDIAN_ASSIGN_OR_RETURN(const std::vector<Value>* rows, SubqueryRows(*kc.in_array, ctx));
      for (const Value& v : *rows) {
        if (v.IsNull()) continue;
        std::string enc;
        storage::AppendKeyValue(v, desc[k], &enc);
        values.push_back(std::move(enc));
      }
    } else if (kc.in_array != nullptr) {
      // = ANY(array): each non-NULL element is a point (a NULL array matches nothing).
      MERIDIAN_ASSIGN_OR_RETURN(Value a, Eval(*kc.in_array, ctx));
      if (!a.IsNull()) {
        for (const Value& v : a.AsArray()) {
          if (v.IsNull()) continue;
          std::string enc;
          storage::AppendKeyValue(v, desc[k], &enc);
          values.push_back(std::move(enc));
        }
      }
    } else {
      std::vector<const BoundExpr*> exprs = kc.in_list;
      if (kc.eq != nullptr) exprs = {kc.eq};
      for (const BoundExpr* e : exprs) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx));
        if (v.IsNull()) continue;  // = NULL matches nothing
        std::string enc;
        storage::AppendKeyValue(v, desc[k], &enc);
        values.push_back(std::move(enc));
      }
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::vector<std::string> next;
    // A product of several lists is bounded; one list (or array) is as big as its statement.
    if (prefixes.size() > 1 && prefixes.size() * values.size() > kMaxRanges) {
      return Status::Error(sqlstate::kProgramLimitExceeded, "too many index ranges");
    }
    for (const std::string& p : prefixes) {
      for (const std::string& v : values) next.push_back(p + v);
    }
    prefixes = std::move(next);
  }
  if (prefixes.empty()) return Status::Ok();
  const KeyCondition* range = k < keys_.size() ? &keys_[k] : nullptr;
  // The intervals of the column after the prefix: one range, an OR of them, or none.
  struct Interval {
    std::optional<Value> lo, hi;
    bool lo_incl = true, hi_incl = true;
  };
  std::vector<Interval> intervals;
  if (range != nullptr) {
    std::vector<KeyRange> specs = range->any_of;
    if (specs.empty()) {
      specs.push_back({range->lower, range->lower_inclusive, range->upper, range->upper_inclusive});
    }
    for (const KeyRange& spec : specs) {
      Interval iv{std::nullopt, std::nullopt, spec.lower_inclusive, spec.upper_inclusive};
      bool null_bound = false;
      if (spec.lower != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*spec.lower, ctx));
        null_bound |= v.IsNull();
        iv.lo = std::move(v);
      }
      if (spec.upper != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*spec.upper, ctx));
        null_bound |= v.IsNull();
        iv.hi = std::move(v);
      }
      if (!null_bound) intervals.push_back(std::move(iv));  // a NULL bound matches nothing
    }
    if (intervals.empty()) return Status::Ok();
  }
  dedupe_ = range != nullptr && !range->any_of.empty();
  seen_.clear();
  using storage::ScanBound;
  for (const std::string& p : prefixes) {
    if (range == nullptr) {
      storage::ScanRange r = p.empty() ? storage::ScanRange{} : storage::ScanRange::Prefix(p);
      r.reverse = reverse_;
      ranges_.push_back(std::move(r));
      continue;
    }
    const bool d = desc[k];
    auto enc = [&](const Value& v) {
      std::string out = p;
      storage::AppendKeyValue(v, d, &out);
      return out;
    };
    for (const Interval& iv : intervals) {
      storage::ScanRange r;
      // In byte order a descending column's value bounds swap ends; NULLs (excluded by any
      // comparison) sit past the high end ascending and before the low end descending.
      const std::optional<Value>& byte_lo_value = d ? iv.hi : iv.lo;
      const std::optional<Value>& byte_hi_value = d ? iv.lo : iv.hi;
      const bool lo_incl = d ? iv.hi_incl : iv.lo_incl;
      const bool hi_incl = d ? iv.lo_incl : iv.hi_incl;
      if (byte_lo_value) {
        std::string b = enc(*byte_lo_value);
        r.lower =
            lo_incl ? ScanBound::Inclusive(b) : ScanBound::Inclusive(storage::PrefixSuccessor(b));
      } else if (d) {
        r.lower = ScanBound::Inclusive(storage::PrefixSuccessor(p + NullKey(true)));
      } else if (!p.empty()) {
        r.lower = ScanBound::Inclusive(p);
      }
      if (byte_hi_value) {
        std::string b = enc(*byte_hi_value);
        r.upper =
            hi_incl ? ScanBound::Exclusive(storage::PrefixSuccessor(b)) : ScanBound::Exclusive(b);
      } else if (!d) {
        r.upper = ScanBound::Exclusive(p + NullKey(false));
      } else if (!p.empty()) {
        std::string succ = storage::PrefixSuccessor(p);
        if (!succ.empty()) r.upper = ScanBound::Exclusive(succ);
      }
      r.reverse = reverse_;
      ranges_.push_back(std::move(r));
    }
  }
  if (reverse_) std::reverse(ranges_.begin(), ranges_.end());
  return Status::Ok();
}

Status IndexScanOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  if (index_->tree() == nullptr) {
    return Status::Error(sqlstate::kUndefinedObject,
                         "index \"" + index_->name() + "\" was dropped");
  }
  Row empty;
  EvalContext ctx{&empty, outer, exec};
  MERIDIAN_RETURN_IF_ERROR(BuildRanges(ctx));
  if (exec != nullptr && exec->ctl != nullptr &&
      exec->ctl->SpendQuick(ExecControl::kQuickOpenCost * static_cast<int64_t>(ranges_.size()))) {
    return ExecControl::WouldBlock();  // a quick statement met more rows than promised
  }
  next_range_ = 0;
  cursor_open_ = false;
  until_check_ = 0;
  return Status::Ok();
}

Result<bool> IndexScanOp::Next(Row* row) {
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  if (index_->tree() == nullptr) {
    return Status::Error(sqlstate::kUndefinedObject,
                         "index \"" + index_->name() + "\" was dropped");
  }
  while (true) {
    if (--until_check_ <= 0) {
      until_check_ = kCheckInterval;
      if (exec_ != nullptr && exec_->ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
    }
    if (!cursor_open_) {
      if (next_range_ == ranges_.size()) return false;
      // Before any entry of this cursor is read (docs/storage.md, visibility map invariant 4).
      removal_epoch_ = table_->heap()->removal_epoch();
      cursor_ = index_->tree()->Scan(ranges_[next_range_++]);
      cursor_open_ = true;
    }
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor_.Next(&key_, &value_));
    if (!more) {
      cursor_open_ = false;
      continue;
    }
    if (exec_ != nullptr && exec_->ctl != nullptr && exec_->ctl->SpendQuick(1)) {
      return ExecControl::WouldBlock();  // a quick statement met more rows than promised
    }
    rid_ = catalog::DecodeRid(value_);
    if (dedupe_ && !seen_.insert(value_).second) continue;  // overlapping OR intervals
    const catalog::IndexSchema& schema = index_->schema();
    const catalog::Transaction* txn = exec_ != nullptr ? exec_->txn : nullptr;
    if (index_only_) {
      // Entries exist for every version: unless the page is all-visible (and no slot was freed
      // since the cursor opened), ask the heap who sees this one.
      storage::HeapFile* heap = table_->heap();
      if (txn != nullptr &&
          !(heap->AllVisible(rid_.page) && heap->removal_epoch() == removal_epoch_)) {
        ++heap_fetches_;
        auto header = heap->ReadHeader(rid_);
        if (!header.ok()) {
          if (header.status().sqlstate() == sqlstate::kInternalError) continue;
          return header.status();
        }
        if (!txn->Visible(*header, *table_, rid_)) continue;
      }
      row->assign(width_, Value::Null());
      if (!key_needed_) return true;  // count(*): the consumer reads no column
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values,
                                storage::DecodeKey(key_, schema.descending));
      for (size_t i = 0; i < schema.columns.size() && i < values.size(); ++i) {
        (*row)[schema.columns[i]] = std::move(values[i]);
      }
      return true;
    }
    MERIDIAN_ASSIGN_OR_RETURN(bool visible, FetchVisibleVersion(*table_, rid_, txn, &bytes_));
    if (!visible) continue;
    MERIDIAN_RETURN_IF_ERROR(table_->DecodeRow(bytes_, row, prune_ ? &needed_ : nullptr));
    MERIDIAN_ASSIGN_OR_RETURN(const std::string key, index_->EncodeKey(*row));
    if (key != key_) continue;  // slot reused by another row meanwhile
    row->resize(width_);
    return true;
  }
}

}  // namespace meridian::exec
