// PlanSelect: the fixed SELECT pipeline (see planner.h).
#include "exec/planner.h"

namespace meridian::exec {

Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> s) {
  OperatorPtr op;
  if (s->from.empty()) {
    std::vector<std::vector<BoundExprPtr>> one_empty_row(1);
    op = std::make_unique<ValuesOp>(std::move(one_empty_row));
  } else {
    for (std::shared_ptr<catalog::Table>& table : s->from) {
      OperatorPtr scan = std::make_unique<SeqScanOp>(std::move(table));
      op = op == nullptr ? std::move(scan)
                         : std::make_unique<NestedLoopJoinOp>(std::move(op), std::move(scan));
    }
  }
  if (s->where != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(s->where));
  if (s->aggregated) {
    bool scalar = s->group_by.empty();
    op = std::make_unique<HashAggregateOp>(std::move(op), std::move(s->group_by),
                                           std::move(s->aggregates), scalar);
    if (s->having != nullptr) {
      op = std::make_unique<FilterOp>(std::move(op), std::move(s->having));
    }
  }
  const size_t total = s->projections.size();
  op = std::make_unique<ProjectOp>(std::move(op), std::move(s->projections));
  if (s->distinct) op = std::make_unique<DistinctOp>(std::move(op), s->visible);
  if (!s->order_by.empty()) op = std::make_unique<SortOp>(std::move(op), s->order_by);
  if (s->limit != nullptr || s->offset != nullptr) {
    op = std::make_unique<LimitOp>(std::move(op), std::move(s->limit), std::move(s->offset));
  }
  if (total > s->visible) op = std::make_unique<TrimOp>(std::move(op), s->visible);
  return op;
}

}  // namespace meridian::exec
