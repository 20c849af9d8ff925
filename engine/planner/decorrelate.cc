// Decorrelation of [NOT] EXISTS subqueries into a hashed semi-join probe
// (SubqueryPlan::HashedExists): a subquery over plain and inner-joined tables whose references
// to the enclosing query are all in WHERE equalities `inner = outer` (one side free of outer
// references, the other only of the enclosing row, the same hashable type on both sides) runs
// once without those equalities and returns their inner sides; the enclosing row then exists iff
// its outer sides, all non-NULL, are among them. That is EXISTS's meaning exactly: a NULL never
// equals anything, and NOT EXISTS is its negation (unlike NOT IN, no NULL result). Anything else
// (aggregates, GROUP BY, DISTINCT ON-like limits, set operations, outer joins, subqueries in
// FROM, a correlated subquery inside, an outer reference outside such an equality) keeps the
// per-row plan only.
#include <cmath>

#include "optimizer/access_path.h"
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

}  // namespace

std::unique_ptr<SubqueryPlan::HashedExists> DecorrelateExists(std::unique_ptr<BoundSelect> s,
                                                              double per_row_cost) {
  if (s->set_op != ast::SetOp::kNone || s->aggregated || !s->group_by.empty() ||
      s->having != nullptr || s->offset != nullptr || s->function != nullptr ||
      s->LocksRows() || s->from.empty() || !s->set_functions.empty()) {
    return nullptr;
  }
  if (s->limit != nullptr) {  // LIMIT n with a constant n >= 1 does not change EXISTS
    if (s->limit->kind != BoundKind::kConst || s->limit->value.IsNull() ||
        !s->limit->value.IsInt() || s->limit->value.AsInt() < 1) {
      return nullptr;
    }
  }
  for (size_t i = 0; i < s->from.size(); ++i) {
    if (s->from[i] == nullptr || (i < s->derived.size() && s->derived[i] != nullptr)) {
      return nullptr;
    }
    const ast::JoinType jt = s->join_types[i];
    if (jt != ast::JoinType::kComma && jt != ast::JoinType::kInner &&
        jt != ast::JoinType::kCross) {
      return nullptr;
    }
    if (s->join_on[i] != nullptr && OuterDepth(*s->join_on[i]) != 0) return nullptr;
  }
  auto h = std::make_unique<SubqueryPlan::HashedExists>();
  std::vector<BoundExprPtr> rest;
  std::vector<BoundExprPtr> inner;
  for (BoundExprPtr& c : SplitConjuncts(std::move(s->where))) {
    const int depth = OuterDepth(*c);
    if (depth == 0) {
      rest.push_back(std::move(c));
      continue;
    }
    if (depth != 1 || c->kind != BoundKind::kBinary || c->binary_op != ast::BinaryOp::kEq) {
      return nullptr;
    }
    BoundExprPtr& a = c->children[0];
    BoundExprPtr& b = c->children[1];
    const bool a_outer = OuterDepth(*a) == 1;
    BoundExprPtr& in = a_outer ? b : a;
    BoundExprPtr& out = a_outer ? a : b;
    if (OuterDepth(*in) != 0 || OuterDepth(*out) != 1 || ReadsLevel0(*out) ||
        in->subquery != nullptr || HashClass(in->type) == 0 ||
        HashClass(in->type) != HashClass(out->type)) {
      return nullptr;
    }
    ShiftOut(out.get());
    inner.push_back(std::move(in));
    h->outer_keys.push_back(std::move(out));
  }
  if (h->outer_keys.empty()) return nullptr;
  s->where = JoinConjuncts(std::move(rest));
  s->columns.clear();
  for (const BoundExprPtr& e : inner) s->columns.push_back(ColumnInfo{"?column?", e->type});
  s->projections = std::move(inner);
  s->visible = s->projections.size();
  s->order_by.clear();
  s->distinct = false;
  s->limit = nullptr;
  auto planned = PlanSelectExplained(std::move(s), false);
  if (!planned.ok()) return nullptr;
  h->root = std::move(planned->root);
  h->build_cost = planned->explain != nullptr ? planned->explain->total_cost : 0;
  h->per_row_cost = per_row_cost;
  // Per-row runs until they would have cost as much as building the set once.
  h->switch_after = static_cast<uint64_t>(
      std::ceil(h->build_cost / std::max(per_row_cost, 0.01)));
  return h;
}

}  // namespace meridian::exec
