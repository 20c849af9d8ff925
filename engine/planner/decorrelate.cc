// Decorrelation of correlated subqueries into hashed lookups (SubqueryPlan::Hashed): a
// subquery over plain and inner-joined tables whose references to the enclosing query are all
// in WHERE equalities `inner = outer` (one side free of outer references, the other only of
// the enclosing row, the same hashable type on both sides) runs once without those equalities,
// and the enclosing row looks its outer sides up in what that run gave:
//  - [NOT] EXISTS: the set of inner sides. That is EXISTS's meaning exactly: a NULL never
//    equals anything, and NOT EXISTS is its negation.
//  - a scalar subquery of plain aggregates (no GROUP BY, HAVING, LIMIT, DISTINCT, window or
//    select-list set function): the same query grouped by the inner sides, key -> value; a key
//    without a group (or with a NULL) gets the select list over no rows, where count is 0 and
//    every other aggregate NULL, which is what the per-row plan computes for it.
//  - x [NOT] IN (SELECT y ...): per key, its y values and whether one is NULL, so NOT IN keeps
//    its NULL answers (a NULL y in the group, or a NULL x with a non-empty group).
// Anything else (outer joins, subqueries in FROM, set operations, a correlated subquery inside,
// volatile functions, an outer reference outside such an equality) keeps the per-row plan only.
#include <algorithm>
#include <cmath>

#include "execution/index_exprs.h"
#include "optimizer/access_path.h"
#include "planner/explain.h"
#include "planner/logical_plan.h"
#include "planner/planner.h"

namespace meridian::exec {

namespace {

// Deepest outer reference (kColumn depth) in e; -1 when e holds a correlated subquery (whose
// references cannot be seen from here).
int OuterDepth(const BoundExpr& e) {
  if (e.subquery != nullptr && e.subquery->correlated) return -1;
  int d = e.kind == BoundKind::kColumn ? e.depth : 0;
  for (const BoundExprPtr& c : e.children) {
    const int cd = OuterDepth(*c);
    if (cd < 0) return -1;
    d = std::max(d, cd);
  }
  return d;
}

bool ReadsLevel0(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn && e.depth == 0) return true;
  if (e.subquery != nullptr) return true;  // conservatively
  for (const BoundExprPtr& c : e.children) {
    if (ReadsLevel0(*c)) return true;
  }
  return false;
}

// Types whose key encodings are equal exactly when `=` is true.
int HashClass(const Type& t) {
  switch (t.id) {
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      return 1;
    case TypeId::kText:
    case TypeId::kVarchar:
      return 2;
    case TypeId::kDate:
      return 3;
    case TypeId::kTimestamp:
      return 4;
    case TypeId::kBoolean:
      return 5;
    default:
      return 0;
  }
}

void ShiftOut(BoundExpr* e) {
  if (e->kind == BoundKind::kColumn) --e->depth;
  for (BoundExprPtr& c : e->children) ShiftOut(c.get());
}

// Whether e may give different values for the same inputs: then running it once per group
// instead of once per outer row could change the answer.
bool Volatile(const BoundExpr& e) {
  if (IsVolatileCall(e)) return true;
  for (const BoundExprPtr& c : e.children) {
    if (Volatile(*c)) return true;
  }
  return false;
}

bool AnyVolatile(const std::vector<BoundExprPtr>& list) {
  for (const BoundExprPtr& e : list) {
    if (e != nullptr && Volatile(*e)) return true;
  }
  return false;
}

// The aggregate row column i, read by a select list over no rows: count 0, else NULL.
// False when e reads a column the aggregate row does not have.
bool SubstituteEmpty(BoundExprPtr* e, const std::vector<BoundExprPtr>& aggregates) {
  BoundExpr& x = **e;
  if (x.kind == BoundKind::kColumn && x.depth == 0) {
    if (x.index < 0 || static_cast<size_t>(x.index) >= aggregates.size()) return false;
    const BoundExpr& agg = *aggregates[static_cast<size_t>(x.index)];
    *e = BoundExpr::Const(agg.agg == AggFunc::kCount ? Value::Int(0) : Value::Null(), x.type,
                          x.position);
    return true;
  }
  for (BoundExprPtr& c : x.children) {
    if (!SubstituteEmpty(&c, aggregates)) return false;
  }
  return true;
}

void ShiftLevel0(BoundExpr* e, int by) {
  if (e->kind == BoundKind::kColumn && e->depth == 0) e->index += by;
  for (BoundExprPtr& c : e->children) ShiftLevel0(c.get(), by);
}

// The shape every form needs: plain tables joined by inner joins whose ON conditions read no
// outer row, no set operation, locking, FROM function or select-list set function, nothing
// volatile.
bool PlainInnerJoins(const BoundSelect& s) {
  if (s.set_op != ast::SetOp::kNone || s.function != nullptr || s.LocksRows() || s.from.empty() ||
      !s.set_functions.empty() || !s.windows.empty() || s.offset != nullptr) {
    return false;
  }
  for (size_t i = 0; i < s.from.size(); ++i) {
    if (s.from[i] == nullptr || (i < s.derived.size() && s.derived[i] != nullptr) ||
        s.IsLateral(i)) {
      return false;
    }
    const ast::JoinType jt = s.join_types[i];
    if (jt != ast::JoinType::kComma && jt != ast::JoinType::kInner && jt != ast::JoinType::kCross) {
      return false;
    }
    if (s.join_on[i] != nullptr && (OuterDepth(*s.join_on[i]) != 0 || Volatile(*s.join_on[i]))) {
      return false;
    }
  }
  return !AnyVolatile(s.projections) && !AnyVolatile(s.aggregates) &&
         (s.where == nullptr || !Volatile(*s.where));
}

// Takes the correlation equalities out of s's WHERE: their inner sides into *inner, their
// outer sides (read from the enclosing row, now at depth 0) into h->outer_keys. False when a
// reference to the enclosing query is anywhere else, or none is there.
bool TakeCorrelation(BoundSelect* s, SubqueryPlan::Hashed* h, std::vector<BoundExprPtr>* inner) {
  std::vector<BoundExprPtr> rest;
  for (BoundExprPtr& c : SplitConjuncts(std::move(s->where))) {
    const int depth = OuterDepth(*c);
    if (depth == 0) {
      rest.push_back(std::move(c));
      continue;
    }
    if (depth != 1 || c->kind != BoundKind::kBinary || c->binary_op != ast::BinaryOp::kEq) {
      return false;
    }
    BoundExprPtr& a = c->children[0];
    BoundExprPtr& b = c->children[1];
    const bool a_outer = OuterDepth(*a) == 1;
    BoundExprPtr& in = a_outer ? b : a;
    BoundExprPtr& out = a_outer ? a : b;
    if (OuterDepth(*in) != 0 || OuterDepth(*out) != 1 || ReadsLevel0(*out) ||
        in->subquery != nullptr || HashClass(in->type) == 0 ||
        HashClass(in->type) != HashClass(out->type)) {
      return false;
    }
    ShiftOut(out.get());
    inner->push_back(std::move(in));
    h->outer_keys.push_back(std::move(out));
  }
  s->where = JoinConjuncts(std::move(rest));
  return !h->outer_keys.empty();
}

bool OnlyLevel0(const std::vector<BoundExprPtr>& list) {
  for (const BoundExprPtr& e : list) {
    if (OuterDepth(*e) != 0) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<BoundSelect> UniqueInner(HashedForm form, std::unique_ptr<BoundSelect> s,
                                         std::vector<BoundExprPtr>* outer_keys) {
  if ((form != HashedForm::kExists && form != HashedForm::kIn) || s == nullptr ||
      !PlainInnerJoins(*s) || s->aggregated || !s->group_by.empty() || s->having != nullptr ||
      !s->distinct_on.empty()) {
    return nullptr;
  }
  if (s->limit != nullptr && (form == HashedForm::kIn || s->limit->kind != BoundKind::kConst ||
                              !s->limit->value.IsInt() || s->limit->value.AsInt() < 1)) {
    return nullptr;  // as Decorrelate: only EXISTS's LIMIT n >= 1 changes nothing
  }
  if (form == HashedForm::kIn &&
      (s->visible != 1 || OuterDepth(*s->projections[0]) != 0 ||
       HashClass(s->projections[0]->type) == 0 || s->projections[0]->ContainsSubquery())) {
    return nullptr;
  }
  SubqueryPlan::Hashed h;
  std::vector<BoundExprPtr> inner;
  if (!TakeCorrelation(s.get(), &h, &inner)) return nullptr;
  // Planned inside the enclosing query's lowering: no subquery of its own (EXPLAIN would
  // number it whether or not the join is chosen).
  if (s->where != nullptr && s->where->ContainsSubquery()) return nullptr;
  for (const BoundExprPtr& on : s->join_on) {
    if (on != nullptr && on->ContainsSubquery()) return nullptr;
  }
  for (const BoundExprPtr& e : inner) {
    if (e->ContainsSubquery()) return nullptr;
  }
  if (form == HashedForm::kIn) inner.push_back(std::move(s->projections[0]));
  // SELECT k_1, ..., k_n FROM ... WHERE rest GROUP BY k_1, ..., k_n: the select list reads
  // the aggregate row's keys.
  std::vector<BoundExprPtr> out;
  std::vector<ColumnInfo> columns;
  for (size_t i = 0; i < inner.size(); ++i) {
    const std::string name = ExprToString(*inner[i]);
    out.push_back(BoundExpr::Column(0, static_cast<int>(i), inner[i]->type, name));
    columns.push_back(ColumnInfo{name, inner[i]->type});
  }
  s->group_by = std::move(inner);
  s->aggregated = true;
  s->distinct = false;
  s->limit = nullptr;
  s->order_by.clear();
  s->projections = std::move(out);
  s->columns = std::move(columns);
  s->visible = s->projections.size();
  *outer_keys = std::move(h.outer_keys);
  return s;
}

bool HashesAsEqual(const Type& a, const Type& b) {
  return HashClass(a) != 0 && HashClass(a) == HashClass(b);
}

std::unique_ptr<SubqueryPlan::Hashed> Decorrelate(HashedForm form, std::unique_ptr<BoundSelect> s,
                                                  std::unique_ptr<BoundSelect> spare,
                                                  double per_row_cost) {
  if (form == HashedForm::kNone || !PlainInnerJoins(*s)) return nullptr;
  auto h = std::make_unique<SubqueryPlan::Hashed>();
  h->form = form;
  std::vector<BoundExprPtr> inner;
  switch (form) {
    case HashedForm::kExists:
      if (s->aggregated || !s->group_by.empty() || s->having != nullptr) return nullptr;
      if (s->limit != nullptr) {  // LIMIT n with a constant n >= 1 does not change EXISTS
        if (s->limit->kind != BoundKind::kConst || s->limit->value.IsNull() ||
            !s->limit->value.IsInt() || s->limit->value.AsInt() < 1) {
          return nullptr;
        }
      }
      break;
    case HashedForm::kScalar:
      // One row per run whatever the rows are: plain aggregates, read by the select list.
      if (!s->aggregated || !s->group_by.empty() || !s->grouping_sets.empty() ||
          s->having != nullptr || s->limit != nullptr || s->distinct || !s->distinct_on.empty() ||
          !s->order_by.empty() || s->projections.size() != 1 || s->visible != 1 ||
          s->aggregates.empty() || spare == nullptr || spare->projections.size() != 1 ||
          spare->aggregates.size() != s->aggregates.size() ||
          s->projections[0]->ContainsSubquery() || !OnlyLevel0(s->projections) ||
          !OnlyLevel0(s->aggregates)) {
        return nullptr;
      }
      for (const BoundExprPtr& a : s->aggregates) {
        if (a->kind != BoundKind::kAggregate || a->agg == AggFunc::kGrouping ||
            a->ContainsSubquery()) {
          return nullptr;
        }
      }
      break;
    case HashedForm::kIn:
      // DISTINCT and ORDER BY do not change which values there are; LIMIT would.
      if (s->aggregated || !s->group_by.empty() || s->having != nullptr || s->limit != nullptr ||
          !s->distinct_on.empty() || s->visible != 1 || OuterDepth(*s->projections[0]) != 0 ||
          HashClass(s->projections[0]->type) == 0) {
        return nullptr;
      }
      break;
    case HashedForm::kNone:
      return nullptr;
  }
  if (!TakeCorrelation(s.get(), h.get(), &inner)) return nullptr;
  const int k = static_cast<int>(inner.size());
  std::vector<BoundExprPtr> out;
  std::vector<ColumnInfo> columns;
  if (form == HashedForm::kScalar) {
    // SELECT inner_1, ..., inner_k, <select list> ... GROUP BY inner_1, ..., inner_k: the
    // select list reads the aggregate row, now after the k keys.
    for (int i = 0; i < k; ++i) {
      out.push_back(BoundExpr::Column(0, i, inner[i]->type, "?column?"));
      columns.push_back(ColumnInfo{"?column?", inner[i]->type});
    }
    s->group_by = std::move(inner);
    ShiftLevel0(s->projections[0].get(), k);
    columns.push_back(s->columns[0]);
    out.push_back(std::move(s->projections[0]));
    h->empty = std::move(spare->projections[0]);
    if (!SubstituteEmpty(&h->empty, spare->aggregates)) return nullptr;
  } else {
    for (BoundExprPtr& e : inner) {
      columns.push_back(ColumnInfo{"?column?", e->type});
      out.push_back(std::move(e));
    }
    if (form == HashedForm::kIn) {
      columns.push_back(s->columns[0]);
      out.push_back(std::move(s->projections[0]));
    }
    s->distinct = false;
    s->limit = nullptr;
  }
  s->columns = std::move(columns);
  s->projections = std::move(out);
  s->visible = s->projections.size();
  s->order_by.clear();
  const size_t width = s->visible;
  auto planned = PlanSelectExplained(std::move(s), false);
  if (!planned.ok()) return nullptr;
  h->root = std::move(planned->root);
  h->root->PruneColumns(std::vector<bool>(width, true));  // every column is read
  h->build_cost = planned->explain != nullptr ? planned->explain->total_cost : 0;
  h->per_row_cost = per_row_cost;
  // Per-row runs until they would have cost as much as building the table once.
  h->switch_after = static_cast<uint64_t>(std::ceil(h->build_cost / std::max(per_row_cost, 0.01)));
  return h;
}

}  // namespace meridian::exec
