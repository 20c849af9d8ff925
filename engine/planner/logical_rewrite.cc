// RewriteLogicalPlan: the rules that run on the logical tree before lowering, in the order
// engine/optimizer/README.md lists them. Each rule keeps the query's answer; today's rules
// only mark or add what the lowering used to work out on its own.
#include "optimizer/access_path.h"
#include "planner/logical_plan.h"

namespace meridian::exec {

namespace {

// Rule 1, planagg (PostgreSQL's): SELECT min(c) or max(c) over one table, nothing else
// aggregated, grouped, windowed, distinct or with a HAVING, c a plain column of a key type, not
// UPDATE ... FROM's join. The aggregate is marked (the lowering asks the table's access path for
// c's order with a LIMIT 1 and, when an index delivers it, puts a Limit 1 under the aggregate)
// and `c IS NOT NULL` joins the WHERE: the first non-NULL c in that order is the answer.
void MinMaxFromIndexOrder(LogicalBlock* b) {
  LogicalAggregate* agg = b->aggregate;
  if (agg == nullptr || !agg->keys.empty() || b->having != nullptr || b->window != nullptr ||
      b->distinct != nullptr || agg->aggregates.size() != 1) {
    return;
  }
  const LogicalOp& from = **b->from_slot;
  if (from.kind != LogicalKind::kGet) return;
  const auto& get = from.As<LogicalGet>();
  if (get.block->from[get.item] == nullptr || get.block->rid_table >= 0) return;
  const BoundExpr& a = *agg->aggregates[0];
  if (a.kind != BoundKind::kAggregate || (a.agg != AggFunc::kMin && a.agg != AggFunc::kMax) ||
      a.has_filter || !a.agg_order.empty() || a.children.size() != 1) {
    return;
  }
  const BoundExpr& c = *a.children[0];
  if (c.kind != BoundKind::kColumn || c.depth != 0 || KeyFamily(c.type) == 0) return;
  agg->min_max = true;
  BoundExprPtr not_null = BoundExpr::Make(BoundKind::kIsNull, Type::Boolean(), 0);
  not_null->negated = true;
  not_null->children.push_back(BoundExpr::Column(0, c.index, c.type, c.name));
  if (b->where == nullptr) {
    auto filter = std::make_unique<LogicalFilter>();
    filter->children.push_back(std::move(*b->from_slot));
    b->where = filter.get();
    *b->from_slot = std::move(filter);
    b->from_slot = &b->where->children[0];
  }
  b->where->conjuncts.push_back(std::move(not_null));
}

void RewriteBlock(LogicalOpPtr* top) {
  Result<LogicalBlock> unpacked = UnpackBlock(top);
  if (!unpacked.ok()) return;  // the lowering reports it
  LogicalBlock b = std::move(unpacked).value();
  if (b.set != nullptr) {
    for (LogicalOpPtr& input : b.set->children) RewriteBlock(&input);
    return;
  }
  MinMaxFromIndexOrder(&b);
}

}  // namespace

void RewriteLogicalPlan(LogicalPlan* plan) { RewriteBlock(&plan->root); }

}  // namespace meridian::exec
