// The aggregates' running states (AggState) and their transition and final steps, shared by
// HashAggregateOp (one state per group) and WindowOp (one state per frame).
#include "execution/aggregate_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "binder/type_rules.h"
#include "execution/evaluator.h"
#include "execution/hash_key.h"
#include "execution/operators.h"

namespace meridian::exec {

namespace {

// The positions of a DISTINCT aggregate's values in the order PostgreSQL feeds them to it: its
// input is sorted (NULL last).
std::vector<size_t> SortedDistinctOrder(const std::vector<Value>& items) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const Value& a = items[x];
    const Value& b = items[y];
    if (a.IsNull() || b.IsNull()) return !a.IsNull() && b.IsNull();
    return CompareValues(a, b) < 0;
  });
  return order;
}

// The order in which string_agg / array_agg join their kept items: the call's ORDER BY keys
// (ties in input order), else DISTINCT's sorted order, else input order.
std::vector<size_t> ItemOrder(const BoundExpr& agg, const AggState::Extra& x) {
  if (agg.agg_order.empty() && agg.distinct) return SortedDistinctOrder(x.items);
  std::vector<size_t> order(x.items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (agg.agg_order.empty()) return order;
  const size_t n = agg.agg_order.size();
  std::stable_sort(order.begin(), order.end(), [&](size_t p, size_t q) {
    for (size_t k = 0; k < n; ++k) {
      const Value& a = x.keys[p * n + k];
      const Value& b = x.keys[q * n + k];
      const AggOrderKey& key = agg.agg_order[k];
      const int c = CompareSortKey(a, b, key.descending, key.nulls_first);
      if (c != 0) return c < 0;
    }
    return false;
  });
  return order;
}

bool IsStatistical(AggFunc f) { return f >= AggFunc::kVarSamp; }
bool IsOrderedSet(AggFunc f) {
  return f == AggFunc::kPercentileCont || f == AggFunc::kPercentileDisc || f == AggFunc::kMode;
}
bool IsRegression(AggFunc f) { return f >= AggFunc::kCorr; }
bool IsHypothetical(AggFunc f) {
  return f == AggFunc::kHypoRank || f == AggFunc::kHypoDenseRank ||
         f == AggFunc::kHypoPercentRank || f == AggFunc::kHypoCumeDist;
}

// rank / dense_rank / percent_rank / cume_dist WITHIN GROUP: where the hypothetical row (the
// direct arguments) would stand among the group's rows (their keys, NULLs included, ordered as
// the keys say), as PostgreSQL's hypothetical-set aggregates. Each row is compared when it
// arrives (AccumulateHypothetical), so a group costs counters, not its rows.
Status AccumulateHypothetical(const BoundExpr& agg, const EvalContext& ctx, AggState* st) {
  if (st->extra == nullptr) st->extra = std::make_unique<AggState::Extra>();
  const size_t n = agg.agg_order.size();
  std::vector<Value>& hypothetical = st->extra->items;
  if (st->count == 0) {  // the direct arguments, once per group
    for (size_t k = 0; k < n; ++k) {
      MERIDIAN_ASSIGN_OR_RETURN(Value d, Eval(*agg.children[k], ctx));
      hypothetical.push_back(std::move(d));
    }
  }
  ++st->count;
  int c = 0;
  std::string key;  // dense_rank: the row's keys, to count distinct ones before
  for (size_t k = 0; k < n; ++k) {
    Value scratch;
    MERIDIAN_ASSIGN_OR_RETURN(const Value* v, EvalRef(*agg.children[n + k], ctx, &scratch));
    if (c == 0) {
      const AggOrderKey& order = agg.agg_order[k];
      c = CompareSortKey(*v, hypothetical[k], order.descending, order.nulls_first);
    }
    if (agg.agg == AggFunc::kHypoDenseRank) AppendKeyValue(*v, &key);
  }
  if (c < 0) {
    ++st->isum;
    if (agg.agg == AggFunc::kHypoDenseRank) st->extra->seen.insert(std::move(key));
  } else if (c == 0) {
    ++st->wide;
  }
  return Status::Ok();
}

Value FinishHypothetical(const BoundExpr& agg, const AggState& st) {
  const auto rows = static_cast<double>(st.count);
  const int64_t before = st.isum;
  switch (agg.agg) {
    case AggFunc::kHypoRank:
      return Value::Int(before + 1);
    case AggFunc::kHypoDenseRank:
      return Value::Int(st.extra == nullptr ? 1 : static_cast<int64_t>(st.extra->seen.size()) + 1);
    case AggFunc::kHypoPercentRank:
      return Value::Double(st.count == 0 ? 0.0 : static_cast<double>(before) / rows);
    default:  // cume_dist
      return Value::Double(static_cast<double>(before + static_cast<int64_t>(st.wide) + 1) /
                           (rows + 1));
  }
}

Status NumericOverflow() {
  return Status::Error(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
}

// One value into a statistical aggregate's sums (st->count already counts it).
Status AccumulateStatistical(const BoundExpr& agg, const Value& v, AggState* st) {
  if (agg.type.id == TypeId::kNumeric) {  // exact sums (PostgreSQL's numeric accumulation)
    if (v.IsInt()) {
      const __int128 x = v.AsInt();
      if (__builtin_add_overflow(st->wide, x, &st->wide) ||
          __builtin_add_overflow(st->wide2, x * x, &st->wide2)) {
        return NumericOverflow();
      }
      return Status::Ok();
    }
    const Numeric x = v.AsDecimal();
    MERIDIAN_ASSIGN_OR_RETURN(st->nsum, numeric::Add(st->nsum, x));
    MERIDIAN_ASSIGN_OR_RETURN(Numeric square, numeric::Mul(x, x));
    MERIDIAN_ASSIGN_OR_RETURN(st->nsum2, numeric::Add(st->nsum2, square));
    return Status::Ok();
  }
  const double n = static_cast<double>(st->count);
  const double x = v.AsNumber();
  st->dsum += x;
  if (st->count > 1) {
    const double tmp = x * n - st->dsum;
    st->sxx += tmp * tmp / (n * (n - 1));
  }
  return Status::Ok();
}

// float8_regr_accum: Y and X (both non-NULL) into the sums.
void AccumulateRegression(double y, double x, AggState* st) {
  const double n = static_cast<double>(st->count);
  st->dsum += x;
  st->sy += y;
  if (st->count > 1) {
    const double tmp_x = x * n - st->dsum;
    const double tmp_y = y * n - st->sy;
    const double scale = 1.0 / (n * (n - 1));
    st->sxx += tmp_x * tmp_x * scale;
    st->syy += tmp_y * tmp_y * scale;
    st->sxy += tmp_x * tmp_y * scale;
  }
}

// numeric_stddev_internal: (N sumX2 - sumX^2) / (N (N - 1)) (sample) or / N^2, at
// select_div_scale's scale; the square root at the same scale; 0 when rounding leaves the
// numerator at or below zero.
Result<Value> FinishNumericStatistical(const BoundExpr& agg, const AggState& st) {
  const bool sample = agg.agg == AggFunc::kVarSamp || agg.agg == AggFunc::kStddevSamp;
  if (st.count == 0 || (sample && st.count == 1)) return Value::Null();
  Numeric sum = st.nsum, sum2 = st.nsum2;
  if (st.nsum.mantissa == 0 && st.nsum2.mantissa == 0) {
    sum = Numeric{st.wide, 0};
    sum2 = Numeric{st.wide2, 0};
    if (st.wide2 >= static_cast<__int128>(1e38) || st.wide >= static_cast<__int128>(1e38) ||
        -st.wide >= static_cast<__int128>(1e38)) {
      return NumericOverflow();
    }
  }
  const Numeric n = numeric::FromInt(st.count);
  MERIDIAN_ASSIGN_OR_RETURN(Numeric square, numeric::Mul(sum, sum));
  MERIDIAN_ASSIGN_OR_RETURN(Numeric scaled, numeric::Mul(n, sum2));
  MERIDIAN_ASSIGN_OR_RETURN(Numeric numerator, numeric::Sub(scaled, square));
  if (numeric::Sign(numerator) <= 0) return Value::Decimal(Numeric{0, 0});
  MERIDIAN_ASSIGN_OR_RETURN(Numeric denominator,
                            numeric::Mul(n, numeric::FromInt(sample ? st.count - 1 : st.count)));
  MERIDIAN_ASSIGN_OR_RETURN(Numeric variance, numeric::Div(numerator, denominator));
  if (agg.agg == AggFunc::kVarSamp || agg.agg == AggFunc::kVarPop) return Value::Decimal(variance);
  MERIDIAN_ASSIGN_OR_RETURN(Numeric root, numeric::Sqrt(variance, variance.scale));
  return Value::Decimal(root);
}

// float8_var_samp / _pop, float8_stddev_*, float8_corr, float8_covar_*, float8_regr_*.
Value FinishDoubleStatistical(const BoundExpr& agg, const AggState& st) {
  const double n = static_cast<double>(st.count);
  switch (agg.agg) {
    case AggFunc::kVarSamp:
    case AggFunc::kStddevSamp:
    case AggFunc::kCovarSamp: {
      if (st.count <= 1) return Value::Null();
      if (agg.agg == AggFunc::kCovarSamp) return Value::Double(st.sxy / (n - 1.0));
      const double var = st.sxx / (n - 1.0);
      return Value::Double(agg.agg == AggFunc::kVarSamp ? var : std::sqrt(var));
    }
    default:
      break;
  }
  if (st.count == 0) return Value::Null();
  switch (agg.agg) {
    case AggFunc::kVarPop:
      return Value::Double(st.sxx / n);
    case AggFunc::kStddevPop:
      return Value::Double(std::sqrt(st.sxx / n));
    case AggFunc::kCovarPop:
      return Value::Double(st.sxy / n);
    case AggFunc::kCorr:
      if (st.sxx == 0 || st.syy == 0) return Value::Null();
      return Value::Double(st.sxy / std::sqrt(st.sxx * st.syy));
    case AggFunc::kRegrSlope:
      if (st.sxx == 0) return Value::Null();
      return Value::Double(st.sxy / st.sxx);
    case AggFunc::kRegrIntercept:
      if (st.sxx == 0) return Value::Null();
      return Value::Double((st.sy - st.dsum * st.sxy / st.sxx) / n);
    default:
      return Value::Null();
  }
}

// percentile_cont / percentile_disc / mode over the group's values in the WITHIN GROUP order
// (NULLs were skipped): PostgreSQL's interpolation between the two nearest values, the first
// value at or past the fraction, and the most frequent value (the first of equally frequent
// ones in that order).
Result<Value> FinishOrderedSet(const BoundExpr& agg, const AggState& st) {
  if (st.count == 0) return Value::Null();
  const std::vector<Value>& items = st.extra->items;
  const std::vector<size_t> order = ItemOrder(agg, *st.extra);
  if (agg.agg == AggFunc::kMode) {
    size_t best = 0, best_run = 0;
    for (size_t i = 0; i < order.size();) {
      size_t j = i + 1;
      while (j < order.size() && CompareValues(items[order[j]], items[order[i]]) == 0) ++j;
      if (j - i > best_run) {
        best = i;
        best_run = j - i;
      }
      i = j;
    }
    return items[order[best]];
  }
  if (st.best.IsNull()) return Value::Null();
  const double f = st.best.AsNumber();
  if (!(f >= 0 && f <= 1)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "percentile value %g is not between 0 and 1", f);
    return Status::Error(sqlstate::kNumericValueOutOfRange, buf);
  }
  const size_t n = order.size();
  if (agg.agg == AggFunc::kPercentileDisc) {
    const double row = std::ceil(f * static_cast<double>(n));
    const size_t at = row < 1 ? 0 : std::min(n, static_cast<size_t>(row)) - 1;
    return items[order[at]];
  }
  const double pos = f * static_cast<double>(n - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = static_cast<size_t>(std::ceil(pos));
  const double a = items[order[lo]].AsNumber(), b = items[order[hi]].AsNumber();
  return Value::Double(lo == hi ? a : a + (pos - static_cast<double>(lo)) * (b - a));
}

}  // namespace

Status AccumulateAggregate(const BoundExpr& agg, const EvalContext& ctx, AggState* st) {
  if (agg.has_filter) {  // FILTER (WHERE cond): only rows where it is true
    MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*agg.children.back(), ctx));
    if (!pass) return Status::Ok();
  }
  if (agg.star) {
    ++st->count;
    return Status::Ok();
  }
  if (IsHypothetical(agg.agg)) return AccumulateHypothetical(agg, ctx, st);  // NULL keys count
  Value scratch;
  MERIDIAN_ASSIGN_OR_RETURN(const Value* arg, EvalRef(*agg.children[0], ctx, &scratch));
  const Value& v = *arg;
  // array_agg keeps NULLs (DISTINCT keeps one); the others skip them.
  if (v.IsNull() && agg.agg != AggFunc::kArrayAgg) return Status::Ok();
  Value second;  // the X of a two-argument statistical aggregate
  if (IsRegression(agg.agg)) {
    MERIDIAN_ASSIGN_OR_RETURN(second, Eval(*agg.children[1], ctx));
    if (second.IsNull()) return Status::Ok();
  }
  if (agg.distinct) {
    std::string key;
    AppendKeyValue(v, &key);
    if (IsRegression(agg.agg)) AppendKeyValue(second, &key);
    if (st->extra == nullptr) st->extra = std::make_unique<AggState::Extra>();
    if (!st->extra->seen.insert(std::move(key)).second) return Status::Ok();
  }
  // string_agg / array_agg with ORDER BY and the ordered-set aggregates keep each item's keys,
  // sorted by FinishAggregate (the order of the other aggregates' inputs does not change their
  // results).
  const bool ordered =
      !agg.agg_order.empty() &&
      (agg.agg == AggFunc::kArrayAgg || agg.agg == AggFunc::kStringAgg || IsOrderedSet(agg.agg));
  if (ordered) {
    if (st->extra == nullptr) st->extra = std::make_unique<AggState::Extra>();
    const size_t first_key = agg.AggArgCount();
    for (size_t k = 0; k < agg.agg_order.size(); ++k) {
      MERIDIAN_ASSIGN_OR_RETURN(Value key, Eval(*agg.children[first_key + k], ctx));
      st->extra->keys.push_back(std::move(key));
    }
  }
  if (agg.agg == AggFunc::kArrayAgg || IsOrderedSet(agg.agg)) {
    ++st->count;
    if (st->extra == nullptr) st->extra = std::make_unique<AggState::Extra>();
    st->extra->items.push_back(v);
    if (st->count == 1 && IsOrderedSet(agg.agg) && agg.agg != AggFunc::kMode) {
      // percentile_*'s fraction, a direct argument: evaluated once per group, at its first row.
      MERIDIAN_ASSIGN_OR_RETURN(st->best, Eval(*agg.children[1], ctx));
    }
    return Status::Ok();
  }
  ++st->count;
  if (IsRegression(agg.agg)) {
    AccumulateRegression(v.AsNumber(), second.AsNumber(), st);
    return Status::Ok();
  }
  if (IsStatistical(agg.agg)) return AccumulateStatistical(agg, v, st);
  switch (agg.agg) {
    case AggFunc::kCount:
      break;
    case AggFunc::kSum:
    case AggFunc::kAvg:
      if (agg.type.id == TypeId::kInterval) {  // the running sum in best
        if (st->count == 1) {
          st->best = v;
        } else {
          MERIDIAN_ASSIGN_OR_RETURN(Interval sum,
                                    datetime::AddIntervals(st->best.AsInterval(), v.AsInterval()));
          st->best = Value::IntervalVal(sum);
        }
      } else if (agg.type.id == TypeId::kBigInt) {
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
        st->best = v;
      } else {
        int c = CompareValues(v, st->best);
        if ((agg.agg == AggFunc::kMin && c < 0) || (agg.agg == AggFunc::kMax && c > 0)) {
          st->best = v;
        }
      }
      break;
    case AggFunc::kArrayAgg:
    case AggFunc::kPercentileCont:
    case AggFunc::kPercentileDisc:
    case AggFunc::kMode:
    case AggFunc::kHypoRank:
    case AggFunc::kHypoDenseRank:
    case AggFunc::kHypoPercentRank:
    case AggFunc::kHypoCumeDist:
      break;                  // handled above
    case AggFunc::kGrouping:  // never computed (bind_aggregate.cc, grouping_sets.cc)
    case AggFunc::kVarSamp:
    case AggFunc::kVarPop:
    case AggFunc::kStddevSamp:
    case AggFunc::kStddevPop:
    case AggFunc::kCorr:
    case AggFunc::kCovarPop:
    case AggFunc::kCovarSamp:
    case AggFunc::kRegrSlope:
    case AggFunc::kRegrIntercept:
      break;
    case AggFunc::kBoolAnd:
    case AggFunc::kBoolOr:
      if (st->count == 1) {
        st->best = v;
      } else if (agg.agg == AggFunc::kBoolAnd ? !v.AsBool() : v.AsBool()) {
        st->best = v;
      }
      break;
    case AggFunc::kBitAnd:
    case AggFunc::kBitOr:
    case AggFunc::kBitXor:
      if (st->count == 1) {
        st->best = v;
      } else {
        const int64_t a = st->best.AsInt(), b = v.AsInt();
        st->best = Value::Int(agg.agg == AggFunc::kBitAnd  ? (a & b)
                              : agg.agg == AggFunc::kBitOr ? (a | b)
                                                           : (a ^ b));
      }
      break;
    case AggFunc::kStringAgg: {
      // The delimiter goes before every value but the first; a NULL one adds nothing.
      MERIDIAN_ASSIGN_OR_RETURN(Value delimiter, Eval(*agg.children[1], ctx));
      if (st->extra == nullptr) st->extra = std::make_unique<AggState::Extra>();
      if (agg.distinct || ordered) {  // joined in sorted order by FinishAggregate
        st->extra->items.push_back(v);
        st->extra->delimiters.push_back(std::move(delimiter));
        break;
      }
      if (st->count > 1 && !delimiter.IsNull()) st->extra->text += delimiter.AsString();
      st->extra->text += v.AsString();
      break;
    }
  }
  return Status::Ok();
}

Result<Value> FinishAggregate(const BoundExpr& agg, const AggState& st) {
  if (IsStatistical(agg.agg)) {
    if (agg.type.id == TypeId::kNumeric) return FinishNumericStatistical(agg, st);
    return FinishDoubleStatistical(agg, st);
  }
  switch (agg.agg) {
    case AggFunc::kCount:
      return Value::Int(st.count);
    case AggFunc::kSum:
    case AggFunc::kAvg: {
      if (st.count == 0) return Value::Null();
      const bool avg = agg.agg == AggFunc::kAvg;
      switch (agg.type.id) {
        case TypeId::kInterval: {
          if (!avg) return st.best;
          MERIDIAN_ASSIGN_OR_RETURN(
              Interval mean,
              datetime::DivideInterval(st.best.AsInterval(), static_cast<double>(st.count)));
          return Value::IntervalVal(mean);
        }
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
    case AggFunc::kBoolAnd:
    case AggFunc::kBoolOr:
    case AggFunc::kBitAnd:
    case AggFunc::kBitOr:
    case AggFunc::kBitXor:
      return st.count == 0 ? Value::Null() : st.best;
    case AggFunc::kStringAgg: {
      if (st.count == 0) return Value::Null();
      if (!agg.distinct && agg.agg_order.empty()) return Value::String(st.extra->text);
      std::string text;
      bool first = true;
      for (size_t i : ItemOrder(agg, *st.extra)) {
        const Value& delimiter = st.extra->delimiters[i];
        if (!first && !delimiter.IsNull()) text += delimiter.AsString();
        text += st.extra->items[i].AsString();
        first = false;
      }
      return Value::String(std::move(text));
    }
    case AggFunc::kArrayAgg: {
      if (st.count == 0) return Value::Null();
      if (!agg.distinct && agg.agg_order.empty()) return Value::Array(st.extra->items);
      std::vector<Value> items;
      for (size_t i : ItemOrder(agg, *st.extra)) items.push_back(st.extra->items[i]);
      return Value::Array(std::move(items));
    }
    case AggFunc::kPercentileCont:
    case AggFunc::kPercentileDisc:
    case AggFunc::kMode:
      return FinishOrderedSet(agg, st);
    case AggFunc::kHypoRank:
    case AggFunc::kHypoDenseRank:
    case AggFunc::kHypoPercentRank:
    case AggFunc::kHypoCumeDist:
      return FinishHypothetical(agg, st);
    default:
      break;
  }
  return Value::Null();
}

}  // namespace meridian::exec
