// RewriteLogicalPlan: the rules that run on the logical tree before lowering, in the order
// engine/optimizer/README.md lists them (numbered as there). Each rule keeps the query's
// answer; today's rules mark or add what the planner used to work out on its own, or (rule 2)
// choose a subquery's hashed form.
#include <utility>

#include "optimizer/access_path.h"
#include "planner/explain.h"
#include "planner/logical_plan.h"
#include "planner/planner.h"

namespace meridian::exec {

namespace {

// Rule 2 of the README's list, decorrelation: an Apply (a correlated [NOT] EXISTS or x [NOT] IN
// conjunct of the WHERE) whose subquery is correlated only by equalities `inner = outer` of one
// hashable type class becomes a hash semi join (EXISTS, IN) or anti join (NOT EXISTS; NOT IN
// null-aware: a NULL among the key's values or a NULL x over a non-empty key answers NULL, as
// PostgreSQL's NOT IN), executed as the SubPlan's hashed form (SubqueryPlan::Hashed,
// decorrelate.cc): after switch_after per-row runs, one uncorrelated run of the subquery
// without those equalities builds the table the remaining rows look up. The subquery's own
// WHERE went through this rule when its per-row plan was built.
void DecorrelateApplies(LogicalBlock* b) {
  for (LogicalApply* apply : b->applies) {
    SubqueryPlan* sub = apply->predicate->subquery.get();
    if (sub->deferred == nullptr) continue;  // no candidate (the binder saw why)
    std::unique_ptr<SubqueryPlan::Deferred> d = std::move(sub->deferred);
    // EXPLAIN prints the per-row plan only: the hashed form's subqueries are not numbered.
    ExplainSubplans::Scope not_explained(nullptr);
    const bool semi = apply->type == ApplyType::kSemi && d->form != HashedForm::kScalar;
    std::unique_ptr<BoundSelect> third = semi ? std::move(d->spare) : nullptr;
    sub->hashed = Decorrelate(d->form, std::move(d->select), std::move(d->spare), d->per_row_cost);
    apply->hashed = sub->hashed != nullptr;
    // A semi one may be joined instead: its unique-ified inner side, from a third binding.
    if (apply->hashed && semi) {
      apply->unique_inner = UniqueInner(d->form, std::move(third), &apply->outer_keys);
      if (apply->unique_inner != nullptr && d->form == HashedForm::kIn) {
        // x (kept by the predicate for the filter): joined when it is a column of this row.
        const BoundExpr& x = *apply->predicate->children[0];
        if (x.kind == BoundKind::kColumn && x.depth == 0) {
          apply->outer_keys.push_back(BoundExpr::Column(0, x.index, x.type, x.name));
        } else {
          apply->unique_inner = nullptr;
          apply->outer_keys.clear();
        }
      }
    }
  }
}

// Rule 6 of the README's list (PostgreSQL's remove_useless_groupby_columns): a plain GROUP BY
// column of a FROM table whose primary key is among the keys has one value per group; it is
// marked dependent, and the lowering carries it beside the hash key instead of hashing it.
void GroupKeysDeterminedByPrimaryKey(LogicalBlock* b) {
  LogicalAggregate* agg = b->aggregate;
  BoundSelect* block = b->FromBlock();
  if (agg == nullptr || block == nullptr || agg->keys.empty()) return;
  // The binder's test (ColumnsDeterminedByGroupBy) reads a bound SELECT: the block has the
  // FROM list and gets the keys back for the call.
  std::swap(block->group_by, agg->keys);
  std::swap(block->grouping_sets, agg->grouping_sets);
  const std::vector<GroupedBy> grouped = ColumnsDeterminedByGroupBy(*block);
  std::swap(block->group_by, agg->keys);
  std::swap(block->grouping_sets, agg->grouping_sets);
  for (size_t i = 0; i < agg->keys.size(); ++i) {
    const BoundExpr& g = *agg->keys[i];
    const auto c = static_cast<size_t>(g.index);
    agg->dependent[i] = g.kind == BoundKind::kColumn && g.depth == 0 && c < grouped.size() &&
                        grouped[c] == GroupedBy::kKeyed;
  }
}

// Rule 7, planagg (PostgreSQL's): SELECT min(c) or max(c) over one table, nothing else
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
  if (b->where == nullptr) {  // above the Applies
    auto filter = std::make_unique<LogicalFilter>();
    filter->children.push_back(std::move(*b->below_where));
    b->where = filter.get();
    *b->below_where = std::move(filter);
    b->below_where = &b->where->children[0];
    if (b->applies.empty()) b->from_slot = b->below_where;
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
  DecorrelateApplies(&b);
  GroupKeysDeterminedByPrimaryKey(&b);
  MinMaxFromIndexOrder(&b);
}

}  // namespace

void RewriteLogicalPlan(LogicalPlan* plan) { RewriteBlock(&plan->root); }

}  // namespace meridian::exec
