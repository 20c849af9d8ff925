// HashAggregateOp: groups its input by the GROUP BY values (a hash map on their canonical key
// encoding) and computes COUNT/SUM/AVG/MIN/MAX/string_agg/array_agg, with DISTINCT, per group. The
// whole input is consumed on the first Next (in memory; spilling comes later).
#include <algorithm>

#include "catalog/key_encoding.h"
#include "exec/evaluator.h"
#include "exec/operators.h"
#include "exec/type_rules.h"

namespace meridian::exec {

Status HashAggregateOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  consumed_ = false;
  group_values_.clear();
  states_.clear();
  index_.clear();
  next_ = 0;
  return child_->Open(outer, exec);
}

Status HashAggregateOp::Accumulate(const BoundExpr& agg, AggState* st, const Row& input) {
  if (agg.star) {
    ++st->count;
    return Status::Ok();
  }
  ctx_.row = &input;
  MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*agg.children[0], ctx_));
  // array_agg keeps NULLs (DISTINCT keeps one); the others skip them.
  if (v.IsNull() && agg.agg != AggFunc::kArrayAgg) return Status::Ok();
  if (agg.distinct) {
    std::string key;
    catalog::AppendKeyValue(v, &key);
    if (!st->seen.insert(std::move(key)).second) return Status::Ok();
  }
  if (agg.agg == AggFunc::kArrayAgg) {
    ++st->count;
    st->items.push_back(std::move(v));
    return Status::Ok();
  }
  ++st->count;
  switch (agg.agg) {
    case AggFunc::kCount:
      break;
    case AggFunc::kSum:
    case AggFunc::kAvg:
      if (agg.type.id == TypeId::kBigInt) {
        if (__builtin_add_overflow(st->isum, v.AsInt(), &st->isum)) {
          return Status::Error(sqlstate::kNumericValueOutOfRange, "bigint out of range");
        }
      } else if (agg.type.id == TypeId::kNumeric) {
        if (v.IsInt()) {
          st->wide += v.AsInt();
        } else {
          MERIDIAN_ASSIGN_OR_RETURN(st->nsum, numeric::Add(st->nsum, v.AsDecimal()));
        }
      } else if (agg.type.id == TypeId::kReal) {
        st->fsum += v.AsReal();
      } else {
        st->dsum += v.AsNumber();
      }
      break;
    case AggFunc::kMin:
    case AggFunc::kMax:
      if (st->count == 1) {
        st->best = std::move(v);
      } else {
        int c = CompareValues(v, st->best);
        if ((agg.agg == AggFunc::kMin && c < 0) || (agg.agg == AggFunc::kMax && c > 0)) {
          st->best = std::move(v);
        }
      }
      break;
    case AggFunc::kArrayAgg:
      break;  // handled above
    case AggFunc::kStringAgg: {
      // The delimiter goes before every value but the first; a NULL one adds nothing.
      MERIDIAN_ASSIGN_OR_RETURN(Value delimiter, Eval(*agg.children[1], ctx_));
      if (st->count > 1 && !delimiter.IsNull()) st->text += delimiter.AsString();
      st->text += v.AsString();
      break;
    }
  }
  return Status::Ok();
}

Result<Value> HashAggregateOp::Finish(const BoundExpr& agg, const AggState& st) const {
  switch (agg.agg) {
    case AggFunc::kCount:
      return Value::Int(st.count);
    case AggFunc::kSum:
    case AggFunc::kAvg: {
      if (st.count == 0) return Value::Null();
      const bool avg = agg.agg == AggFunc::kAvg;
      switch (agg.type.id) {
        case TypeId::kBigInt:
          return Value::Int(st.isum);
        case TypeId::kReal:
          return Value::Real(st.fsum);
        case TypeId::kNumeric: {
          MERIDIAN_ASSIGN_OR_RETURN(Numeric total, numeric::Add(st.nsum, Numeric{st.wide, 0}));
          if (!avg) return Value::Decimal(total);
          MERIDIAN_ASSIGN_OR_RETURN(Numeric mean, numeric::Div(total, numeric::FromInt(st.count)));
          return Value::Decimal(mean);
        }
        default:
          return Value::Double(avg ? st.dsum / static_cast<double>(st.count) : st.dsum);
      }
    }
    case AggFunc::kMin:
    case AggFunc::kMax:
      return st.count == 0 ? Value::Null() : st.best;
    case AggFunc::kStringAgg:
      return st.count == 0 ? Value::Null() : Value::String(st.text);
    case AggFunc::kArrayAgg: {
      if (st.count == 0) return Value::Null();
      if (!agg.distinct) return Value::Array(st.items);
      // PostgreSQL sorts the input of a DISTINCT aggregate (NULL last).
      std::vector<Value> items = st.items;
      std::stable_sort(items.begin(), items.end(), [](const Value& a, const Value& b) {
        if (a.IsNull() || b.IsNull()) return !a.IsNull() && b.IsNull();
        return CompareValues(a, b) < 0;
      });
      return Value::Array(std::move(items));
    }
  }
  return Value::Null();
}

Status HashAggregateOp::Consume() {
  Row input;
  Row key_values;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&input));
    if (!more) break;
    if (--until_check <= 0 && ctx_.exec != nullptr && ctx_.exec->ctl != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(ctx_.exec->ctl->Check());
      until_check = kCheckInterval;
    }
    ctx_.row = &input;
    key_values.clear();
    for (const BoundExprPtr& g : groups_) {
      MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*g, ctx_));
      key_values.push_back(std::move(v));
    }
    std::string key = catalog::EncodeKey(key_values);
    auto [it, inserted] = index_.emplace(std::move(key), group_values_.size());
    if (inserted) {
      group_values_.push_back(key_values);
      states_.emplace_back(aggregates_.size());
    }
    std::vector<AggState>& states = states_[it->second];
    for (size_t i = 0; i < aggregates_.size(); ++i) {
      MERIDIAN_RETURN_IF_ERROR(Accumulate(*aggregates_[i], &states[i], input));
    }
  }
  if (scalar_ && group_values_.empty()) {
    group_values_.emplace_back();
    states_.emplace_back(aggregates_.size());
  }
  consumed_ = true;
  return Status::Ok();
}

Result<bool> HashAggregateOp::Next(Row* row) {
  if (!consumed_) MERIDIAN_RETURN_IF_ERROR(Consume());
  if (next_ >= group_values_.size()) return false;
  size_t g = next_++;
  *row = group_values_[g];
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Finish(*aggregates_[i], states_[g][i]));
    row->push_back(std::move(v));
  }
  return true;
}

}  // namespace meridian::exec
