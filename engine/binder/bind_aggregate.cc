// Rewrites the expressions of an aggregated query (select list, HAVING, ORDER BY keys) to
// read the aggregate operator's output row: GROUP BY values first, then aggregate results.
// A bare column that is neither grouped nor aggregated is error 42803, as in PostgreSQL.
#include <algorithm>

#include "binder/binder.h"

namespace meridian::exec {

namespace {

using GroupingSet = std::vector<int>;  // group_by indexes

// PostgreSQL's limit on the grouping sets one GROUP BY expands to.
constexpr size_t kMaxGroupingSets = 4096;

Status TooManySets(const ast::Location& loc) {
  return Status::Error(sqlstate::kStatementTooComplex,
                       "too many grouping sets present (maximum 4096)")
      .WithPosition(loc.position);
}

// The grouping sets one GROUP BY element stands for (key_of: AST expression → group_by index).
Result<std::vector<GroupingSet>> ExpandElement(const ast::GroupingElement& g,
                                               const std::vector<int>& key_of) {
  using Kind = ast::GroupingElement::Kind;
  std::vector<GroupingSet> out;
  switch (g.kind) {
    case Kind::kExpr:
    case Kind::kList: {
      GroupingSet set;
      for (size_t e : g.exprs) set.push_back(key_of[e]);
      out.push_back(std::move(set));
      break;
    }
    case Kind::kEmpty:
      out.emplace_back();
      break;
    case Kind::kRollup:  // (a, b, c), (a, b), (a), ()
      for (size_t k = g.children.size() + 1; k-- > 0;) {
        GroupingSet set;
        for (size_t i = 0; i < k; ++i) {
          for (size_t e : g.children[i].exprs) set.push_back(key_of[e]);
        }
        out.push_back(std::move(set));
      }
      break;
    case Kind::kCube: {  // every subset of the items
      if (g.children.size() > 12) {
        return Status::Error(sqlstate::kTooManyColumns, "CUBE is limited to 12 elements")
            .WithPosition(g.loc.position);
      }
      const size_t n = g.children.size();
      for (size_t mask = (size_t{1} << n); mask-- > 0;) {
        GroupingSet set;
        for (size_t i = 0; i < n; ++i) {
          if ((mask >> (n - 1 - i)) & 1) {
            for (size_t e : g.children[i].exprs) set.push_back(key_of[e]);
          }
        }
        out.push_back(std::move(set));
      }
      break;
    }
    case Kind::kSets:
      for (const ast::GroupingElement& c : g.children) {
        MERIDIAN_ASSIGN_OR_RETURN(std::vector<GroupingSet> sets, ExpandElement(c, key_of));
        for (GroupingSet& set : sets) out.push_back(std::move(set));
        if (out.size() > kMaxGroupingSets) return TooManySets(g.loc);
      }
      break;
  }
  return out;
}

}  // namespace

// GROUP BY with ROLLUP / CUBE / GROUPING SETS / (): the cross product of its elements' sets
// (PostgreSQL's expansion); equal expressions share one key, a key twice in a set counts once.
// One set alone is a plain GROUP BY.
Status Binder::ExpandGroupingSets(const ast::SelectStmt& stmt, std::vector<BoundExprPtr> keys,
                                  BoundSelect* out) {
  std::vector<int> key_of;
  std::vector<BoundExprPtr> unique;
  for (BoundExprPtr& k : keys) {
    size_t i = 0;
    while (i < unique.size() && !unique[i]->Equals(*k)) ++i;
    if (i == unique.size()) unique.push_back(std::move(k));
    key_of.push_back(static_cast<int>(i));
  }
  std::vector<GroupingSet> sets{GroupingSet{}};
  for (const ast::GroupingElement& g : stmt.grouping) {
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<GroupingSet> element, ExpandElement(g, key_of));
    if (sets.size() * element.size() > kMaxGroupingSets) return TooManySets(g.loc);
    std::vector<GroupingSet> product;
    for (const GroupingSet& left : sets) {
      for (const GroupingSet& right : element) {
        GroupingSet set = left;
        set.insert(set.end(), right.begin(), right.end());
        product.push_back(std::move(set));
      }
    }
    sets = std::move(product);
  }
  for (GroupingSet& set : sets) {  // a key once per set, in first-named order
    GroupingSet kept;
    for (int k : set) {
      if (std::find(kept.begin(), kept.end(), k) == kept.end()) kept.push_back(k);
    }
    set = std::move(kept);
  }
  if (stmt.group_distinct) {  // GROUP BY DISTINCT: equal sets (in any order) once
    std::vector<GroupingSet> distinct, seen;
    for (GroupingSet& set : sets) {
      GroupingSet sorted = set;
      std::sort(sorted.begin(), sorted.end());
      if (std::find(seen.begin(), seen.end(), sorted) != seen.end()) continue;
      seen.push_back(std::move(sorted));
      distinct.push_back(std::move(set));
    }
    sets = std::move(distinct);
  }
  if (sets.size() == 1) {
    for (int k : sets[0]) out->group_by.push_back(std::move(unique[static_cast<size_t>(k)]));
    return Status::Ok();
  }
  out->group_by = std::move(unique);
  out->grouping_sets = std::move(sets);
  return Status::Ok();
}

// GROUPING(args) over the aggregate row: 0 without grouping sets, else the bit mask (first
// argument highest) of the arguments outside the row's set, chosen by the set's number.
Status Binder::RewriteGrouping(BoundExprPtr* expr, BoundSelect* out) {
  const BoundExpr& e = **expr;
  const size_t n = e.children.size();
  std::vector<int> args;
  for (const BoundExprPtr& arg : e.children) {
    size_t i = 0;
    while (i < out->group_by.size() && !out->group_by[i]->Equals(*arg)) ++i;
    if (i == out->group_by.size()) {
      return Status::Error(sqlstate::kGroupingError,
                           "arguments to GROUPING must be grouping expressions of the associated "
                           "query level")
          .WithPosition(arg->position != 0 ? arg->position : e.position);
    }
    args.push_back(static_cast<int>(i));
  }
  const uint32_t pos = e.position;
  if (out->grouping_sets.empty()) {
    *expr = BoundExpr::Const(Value::Int(0), Type::Integer());
    (*expr)->position = pos;
    return Status::Ok();
  }
  size_t j = 0;
  while (j < out->aggregates.size() &&
         !(out->aggregates[j]->agg == AggFunc::kGrouping && out->aggregates[j]->children.empty())) {
    ++j;
  }
  if (j == out->aggregates.size()) {
    auto id = std::make_unique<BoundExpr>();
    id->kind = BoundKind::kAggregate;
    id->agg = AggFunc::kGrouping;
    id->name = "grouping";
    id->type = Type::Integer();
    out->aggregates.push_back(std::move(id));
  }
  auto c = std::make_unique<BoundExpr>();
  c->kind = BoundKind::kCase;
  c->type = Type::Integer();
  c->position = pos;
  c->name = "grouping";
  c->has_operand = true;
  c->children.push_back(
      BoundExpr::Column(0, static_cast<int>(out->group_by.size() + j), Type::Integer(), ""));
  for (size_t s = 0; s < out->grouping_sets.size(); ++s) {
    const GroupingSet& set = out->grouping_sets[s];
    int64_t mask = 0;
    for (size_t a = 0; a < n; ++a) {
      if (std::find(set.begin(), set.end(), args[a]) == set.end())
        mask |= int64_t{1} << (n - 1 - a);
    }
    c->children.push_back(BoundExpr::Const(Value::Int(static_cast<int64_t>(s)), Type::Integer()));
    c->children.push_back(BoundExpr::Const(Value::Int(mask), Type::Integer()));
  }
  *expr = std::move(c);
  return Status::Ok();
}

std::vector<GroupedBy> ColumnsDeterminedByGroupBy(const BoundSelect& s) {
  std::vector<GroupedBy> out;
  if (!s.grouping_sets.empty()) return out;
  for (size_t t = 0; t < s.from.size(); ++t) {
    const catalog::Table* table = s.from[t].get();
    if (table == nullptr && (t >= s.derived.size() || s.derived[t] == nullptr)) return {};
    const auto offset = static_cast<int>(out.size());
    const int width = table != nullptr ? static_cast<int>(table->types().size())
                                       : static_cast<int>(s.derived[t]->columns.size());
    out.resize(out.size() + static_cast<size_t>(width), GroupedBy::kFree);
    if (static_cast<int>(t) == s.rid_table) out.push_back(GroupedBy::kFree);
    if (table == nullptr || table->schema().primary_key.empty()) continue;
    const std::vector<int>& pk = table->schema().primary_key;
    const bool covered = std::all_of(pk.begin(), pk.end(), [&](int k) {
      return std::any_of(s.group_by.begin(), s.group_by.end(), [&](const BoundExprPtr& g) {
        return g->kind == BoundKind::kColumn && g->depth == 0 && g->index == offset + k;
      });
    });
    if (!covered) continue;
    for (int c = 0; c < width; ++c) out[static_cast<size_t>(offset + c)] = GroupedBy::kKeyed;
    for (int k : pk) out[static_cast<size_t>(offset + k)] = GroupedBy::kKeyColumn;
  }
  return out;
}

namespace {

// The columns of the joined row read by e outside aggregate calls and subqueries.
void CollectUngroupedColumns(const BoundExpr& e, std::vector<const BoundExpr*>* out) {
  if (e.kind == BoundKind::kAggregate) return;
  if (e.kind == BoundKind::kColumn && e.depth == 0) out->push_back(&e);
  for (const BoundExprPtr& c : e.children) CollectUngroupedColumns(*c, out);
}

}  // namespace

void Binder::AddDependentGroupKeys(BoundSelect* out) {
  const std::vector<GroupedBy> grouped = ColumnsDeterminedByGroupBy(*out);
  if (grouped.empty()) return;
  std::vector<const BoundExpr*> columns;
  for (const BoundExprPtr& p : out->projections) CollectUngroupedColumns(*p, &columns);
  if (out->having != nullptr) CollectUngroupedColumns(*out->having, &columns);
  for (const BoundExpr* c : columns) {
    const auto i = static_cast<size_t>(c->index);
    if (i >= grouped.size() || grouped[i] != GroupedBy::kKeyed) continue;
    const bool present = std::any_of(out->group_by.begin(), out->group_by.end(),
                                     [&](const BoundExprPtr& g) { return g->Equals(*c); });
    if (!present) out->group_by.push_back(BoundExpr::Column(0, c->index, c->type, c->name));
  }
}

namespace {

// 42803 for a column of the input row that neither is nor lies under a GROUP BY expression.
Status CheckGrouped(const BoundExpr& e, const BoundSelect& out) {
  for (const BoundExprPtr& g : out.group_by) {
    if (e.Equals(*g)) return Status::Ok();
  }
  if (e.kind == BoundKind::kColumn && e.depth == 0) {
    return Status::Error(sqlstate::kGroupingError,
                         "column \"" + e.name +
                             "\" must appear in the GROUP BY clause or be used in an aggregate "
                             "function")
        .WithPosition(e.position);
  }
  for (const BoundExprPtr& c : e.children) MERIDIAN_RETURN_IF_ERROR(CheckGrouped(*c, out));
  return Status::Ok();
}

}  // namespace

Status Binder::RewriteForAggregate(BoundExprPtr* expr, BoundSelect* out) {
  BoundExpr& e = **expr;
  if (e.kind == BoundKind::kAggregate && e.agg == AggFunc::kGrouping) {
    return RewriteGrouping(expr, out);
  }
  for (size_t i = 0; i < out->group_by.size(); ++i) {
    if (e.Equals(*out->group_by[i])) {
      auto ref = BoundExpr::Column(0, static_cast<int>(i), e.type, e.name);
      ref->position = e.position;
      *expr = std::move(ref);
      return Status::Ok();
    }
  }
  if (e.kind == BoundKind::kAggregate) {
    // An ordered-set or hypothetical-set aggregate's direct arguments are evaluated once per
    // group, outside the aggregate: their columns must be grouped (42803, as PostgreSQL).
    size_t direct_from = 0, direct_to = 0;
    if (e.agg == AggFunc::kPercentileCont || e.agg == AggFunc::kPercentileDisc) {
      direct_from = 1;
      direct_to = 2;
    } else if (e.agg == AggFunc::kHypoRank || e.agg == AggFunc::kHypoDenseRank ||
               e.agg == AggFunc::kHypoPercentRank || e.agg == AggFunc::kHypoCumeDist) {
      direct_to = e.AggArgCount();
    }
    for (size_t i = direct_from; i < direct_to && i < e.children.size(); ++i) {
      MERIDIAN_RETURN_IF_ERROR(CheckGrouped(*e.children[i], *out));
    }
    size_t j = 0;
    while (j < out->aggregates.size() && !out->aggregates[j]->Equals(e)) ++j;
    Type type = e.type;
    uint32_t pos = e.position;
    if (j == out->aggregates.size()) out->aggregates.push_back(std::move(*expr));
    auto ref = BoundExpr::Column(0, static_cast<int>(out->group_by.size() + j), type, "");
    ref->position = pos;
    *expr = std::move(ref);
    return Status::Ok();
  }
  if (e.kind == BoundKind::kColumn && e.depth == 0) return CheckGrouped(e, *out);
  if (e.subquery != nullptr && e.subquery->correlated) {
    return Status::NotSupported(
               "correlated subqueries in the select list of an aggregated query are not "
               "supported yet")
        .WithPosition(e.position);
  }
  for (BoundExprPtr& c : e.children) MERIDIAN_RETURN_IF_ERROR(RewriteForAggregate(&c, out));
  return Status::Ok();
}

}  // namespace meridian::exec
